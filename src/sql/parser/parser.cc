#include <algorithm>
#include <charconv>
#include <cstring>

#include "floe/util/strings.h"
#include "sql/parser/grammar_internal.h"
#include "sql/parser/parser_internal.h"
#include "sql/parser/stack_guard_internal.h"

namespace floe::sql {
using namespace floe::sql::ast;  // NOLINT: the parser builds the AST
namespace internal {

namespace {

// Words that never name a column or table unless backquoted. Everything else (DATE, TYPE,
// COMMENT, LOCATION, PARTITION, FILES, ...) stays usable as an identifier, as in Spark.
constexpr std::string_view kReserved[] = {
    "ALL",      "AND",    "ANTI",  "AS",     "BETWEEN", "CASE",      "CAST", "CROSS",
    "DISTINCT", "ELSE",   "END",   "EXCEPT", "EXISTS",  "FALSE",     "FROM", "FULL",
    "GROUP",    "HAVING", "ILIKE", "IN",     "INNER",   "INTERSECT", "IS",   "JOIN",
    "LEFT",     "LIKE",   "LIMIT", "MINUS",  "NATURAL", "NOT",       "NULL", "ON",
    "OR",       "ORDER",  "OUTER", "RIGHT",  "RLIKE",   "SELECT",    "SEMI", "THEN",
    "TRUE",     "UNION",  "USING", "WHEN",   "WHERE",   "WITH",
};

}  // namespace

bool is_reserved_word(std::string_view word) {
  for (std::string_view r : kReserved) {
    if (iequals(r, word)) return true;
  }
  return false;
}

bool Parser::is_kw(std::string_view kw, size_t ahead) const {
  const Token& t = peek(ahead);
  return t.kind == TokenKind::kWord && iequals(t.text, kw);
}

bool Parser::is_sym(std::string_view sym, size_t ahead) const {
  const Token& t = peek(ahead);
  return t.kind == TokenKind::kSymbol && t.text == sym;
}

bool Parser::accept_kw(std::string_view kw) {
  if (!is_kw(kw)) return false;
  advance();
  return true;
}

bool Parser::accept_sym(std::string_view sym) {
  if (!is_sym(sym)) return false;
  advance();
  return true;
}

Status Parser::expect_kw(std::string_view kw) {
  if (accept_kw(kw)) return Status::OK();
  return error_expected(kw);
}

Status Parser::expect_sym(std::string_view sym) {
  if (accept_sym(sym)) return Status::OK();
  return error_expected(fmt::format("'{}'", sym));
}

Status Parser::error_expected(std::string_view what) const {
  return error_at(peek(), fmt::format("expected {}", what));
}

Status Parser::error_at(const Token& token, std::string_view what) const {
  // A word swallowed as an alias without AS is usually a misspelt keyword: point at it.
  size_t index = static_cast<size_t>(&token - tokens_.data());
  if (index < tokens_.size() && implicit_alias_ != static_cast<size_t>(-1) &&
      index == implicit_alias_ + 1) {
    return syntax_error(tokens_[implicit_alias_], what);
  }
  return syntax_error(token, what);
}

Status Parser::enter(const Token& at) {
  if (++depth_ > kMaxDepth || stack_low()) {
    too_deep_ = true;
    return error_at(at, "statement is nested too deeply");
  }
  return Status::OK();
}

bool Parser::is_identifier_token(size_t ahead) const {
  const Token& t = peek(ahead);
  if (t.kind == TokenKind::kQuotedIdent) return true;
  return t.kind == TokenKind::kWord && !is_reserved_word(t.text);
}

Result<std::string> Parser::identifier(std::string_view what) {
  if (!is_identifier_token()) return error_expected(what);
  const Token& t = advance();
  if (t.kind == TokenKind::kQuotedIdent) return decode_quoted_identifier(t);
  return std::string(t.text);
}

Result<std::string> Parser::any_identifier(std::string_view what) {
  const Token& t = peek();
  if (t.kind == TokenKind::kQuotedIdent) return decode_quoted_identifier(advance());
  if (t.kind == TokenKind::kWord) return std::string(advance().text);
  return error_expected(what);
}

Result<QualifiedName> Parser::qualified_name(std::string_view what) {
  QualifiedName name;
  name.pos = peek().pos;
  name.parts.push_back(FLOE_TRY(identifier(what)));
  while (is_sym(".") &&
         (peek(1).kind == TokenKind::kWord || peek(1).kind == TokenKind::kQuotedIdent)) {
    advance();
    name.parts.push_back(FLOE_TRY(any_identifier(what)));
  }
  return name;
}

Result<std::vector<std::string>> Parser::identifier_list_in_parens() {
  FLOE_TRY(expect_sym("("));
  std::vector<std::string> out;
  do {
    out.push_back(FLOE_TRY(any_identifier("a column name")));
  } while (accept_sym(","));
  FLOE_TRY(expect_sym(")"));
  return out;
}

Result<std::string> Parser::string_literal(std::string_view what) {
  if (peek().kind != TokenKind::kString) return error_expected(what);
  return decode_string(advance());
}

Result<int64_t> Parser::integer_literal(std::string_view what) {
  bool negative = false;
  if (is_sym("-") && peek(1).kind == TokenKind::kInteger) {
    advance();
    negative = true;
  }
  const Token& t = peek();
  if (t.kind != TokenKind::kInteger) return error_expected(what);
  std::string_view digits = t.text;
  while (!digits.empty() && !std::isdigit(static_cast<unsigned char>(digits.back()))) {
    digits.remove_suffix(1);
  }
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) {
    return error_at(t, "integer out of range");
  }
  advance();
  return negative ? -value : value;
}

Result<std::string> Parser::property_key() {
  if (peek().kind == TokenKind::kString) return decode_string(advance());
  // Unquoted keys: write.format.default
  std::string key = FLOE_TRY(any_identifier("a property key"));
  while (is_sym(".")) {
    advance();
    key += '.';
    key += FLOE_TRY(any_identifier("a property key"));
  }
  return key;
}

Result<std::string> Parser::property_value() {
  const Token& t = peek();
  switch (t.kind) {
    case TokenKind::kString:
      return decode_string(advance());
    case TokenKind::kInteger:
    case TokenKind::kDecimal:
    case TokenKind::kDouble:
      return std::string(advance().text);
    case TokenKind::kWord:
      if (is_kw("TRUE") || is_kw("FALSE")) return to_lower(advance().text);
      return std::string(advance().text);
    case TokenKind::kSymbol:
      if (t.text == "-" &&
          (peek(1).kind == TokenKind::kInteger || peek(1).kind == TokenKind::kDecimal)) {
        advance();
        return "-" + std::string(advance().text);
      }
      break;
    default:
      break;
  }
  return error_expected("a property value");
}

Result<PropertyList> Parser::property_list() {
  FLOE_TRY(expect_sym("("));
  PropertyList out;
  if (accept_sym(")")) return out;
  do {
    std::string key = FLOE_TRY(property_key());
    accept_sym("=");
    std::string value = FLOE_TRY(property_value());
    out.emplace_back(std::move(key), std::move(value));
  } while (accept_sym(","));
  FLOE_TRY(expect_sym(")"));
  return out;
}

Result<Statement> Parser::statement() {
  Statement stmt;
  const Token& first = peek();
  stmt.pos = first.pos;
  stmt.node = FLOE_TRY(statement_node());
  const Token& last = tokens_[pos_ == 0 ? 0 : pos_ - 1];
  size_t begin = first.offset;
  size_t end = std::max<size_t>(begin, last.offset + last.text.size());
  stmt.text = std::string(source_.substr(begin, end - begin));
  return stmt;
}

Result<std::vector<Statement>> Parser::script() {
  std::vector<Statement> out;
  while (true) {
    while (accept_sym(";")) {
    }
    if (at_end()) return out;
    out.push_back(FLOE_TRY(statement()));
    if (!at_end() && !is_sym(";")) return error_expected("';' or end of input");
  }
}

Result<ExprPtr> Parser::expression_only() {
  ExprPtr e = FLOE_TRY(expr());
  if (!at_end()) return error_expected("end of expression");
  return e;
}

Result<QueryPtr> Parser::query_only() {
  QueryPtr q = FLOE_TRY(query());
  accept_sym(";");
  if (!at_end()) return error_expected("end of input");
  return q;
}

Result<TypePtr> Parser::type_only() {
  TypePtr t = FLOE_TRY(type());
  if (!at_end()) return error_expected("end of type");
  return t;
}

Result<std::vector<SortTerm>> Parser::sort_terms_only() {
  std::vector<SortTerm> terms = FLOE_TRY(sort_terms());
  if (!at_end()) return error_expected("',' or the end of the sort order");
  return terms;
}

}  // namespace internal

using internal::Parser;

Result<std::vector<Statement>> parse_sql(std::string_view script) {
  auto tokens = FLOE_TRY(internal::tokenize(script));
  Parser parser(script, std::move(tokens));
  return parser.script();
}

Result<Statement> parse_statement(std::string_view text) {
  auto tokens = FLOE_TRY(internal::tokenize(text));
  Parser parser(text, std::move(tokens));
  while (parser.accept_sym(";")) {
  }
  if (parser.at_end()) return parser.error_expected("a statement");
  Statement stmt = FLOE_TRY(parser.statement());
  while (parser.accept_sym(";")) {
  }
  if (!parser.at_end()) return parser.error_expected("';' or end of input");
  return stmt;
}

Result<ExprPtr> parse_expression(std::string_view text) {
  auto tokens = FLOE_TRY(internal::tokenize(text));
  Parser parser(text, std::move(tokens));
  return parser.expression_only();
}

Result<QueryPtr> parse_query(std::string_view text) {
  auto tokens = FLOE_TRY(internal::tokenize(text));
  Parser parser(text, std::move(tokens));
  return parser.query_only();
}

Result<TypePtr> parse_type(std::string_view text) {
  auto tokens = FLOE_TRY(internal::tokenize(text));
  Parser parser(text, std::move(tokens));
  return parser.type_only();
}

Result<std::vector<ast::SortTerm>> parse_sort_order(std::string_view text) {
  auto tokens = FLOE_TRY(internal::tokenize(text));
  Parser parser(text, std::move(tokens));
  return parser.sort_terms_only();
}

}  // namespace floe::sql
