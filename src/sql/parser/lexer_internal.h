// The SQL lexer: source text -> tokens with positions. Token text is a view into the source;
// string literals and backquoted identifiers are decoded on demand (decode_string/identifier).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "floe/util/result.h"
#include "sql/parser/ast_internal.h"

namespace floe::sql::internal {
using namespace floe::sql::ast;  // NOLINT: the parser builds the AST

enum class TokenKind {
  kWord,          // identifier or keyword: letters, digits, '_' (not starting with a digit)
  kQuotedIdent,   // `backquoted`
  kString,        // '...' or "..."
  kBinaryString,  // X'CAFE'
  kInteger,       // 42, 42L, 42S, 42Y
  kDecimal,       // 1.5, .5, 1.5BD, 10BD
  kDouble,        // 1e3, 1.5D, 2F
  kSymbol,        // punctuation and operators: ( ) , . ; * + - / % = == != <> < <= > >= <=>
                  // || :: [ ] : => -> & | ^ ~
  kEnd,
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string_view text;  // raw source slice (quotes and suffix included)
  SourcePos pos;
  uint32_t offset = 0;  // byte offset of text in the source
};

// Tokenizes the whole script; the last token is kEnd. Errors are syntax errors with positions.
Result<std::vector<Token>> tokenize(std::string_view source);

// Decoded contents of a kString token ('' / "" doubling and Spark's backslash escapes).
std::string decode_string(const Token& token);
// Decoded contents of a kQuotedIdent token (`` doubling).
std::string decode_quoted_identifier(const Token& token);
// Bytes of a kBinaryString token (hex validated by the lexer).
std::string decode_binary(const Token& token);

// "syntax error at L:C near 'tok': <what>" / "... near end of input: <what>".
Status syntax_error(const Token& token, std::string_view what);
// The quoted excerpt used in messages: 'FORM' or end of input.
std::string describe_token(const Token& token);

}  // namespace floe::sql::internal
