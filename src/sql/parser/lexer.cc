#include <cctype>
#include <cstring>

#include "sql/parser/lexer_internal.h"

namespace floe::sql::internal {
using namespace floe::sql::ast;  // NOLINT: the parser builds the AST

namespace {

bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool is_ident_char(char c) {
  return is_ident_start(c) || std::isdigit(static_cast<unsigned char>(c));
}
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

constexpr const char* kSymbols3[] = {"<=>"};
constexpr const char* kSymbols2[] = {"<=", ">=", "<>", "!=", "==", "||", "::", "=>", "->"};
constexpr const char kSymbols1[] = "(),.;*+-/%=<>[]:&|^~!{}?";

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Result<std::vector<Token>> run() {
    std::vector<Token> out;
    out.reserve(s_.size() / 4 + 2);
    while (true) {
      FLOE_TRY(skip_space_and_comments());
      if (i_ >= s_.size()) {
        out.push_back(make(TokenKind::kEnd, i_, i_));
        return out;
      }
      out.push_back(FLOE_TRY(next()));
    }
  }

 private:
  Token make(TokenKind kind, size_t start, size_t end) const {
    Token t;
    t.kind = kind;
    t.text = s_.substr(start, end - start);
    t.offset = static_cast<uint32_t>(start);
    t.pos = pos_at(start);
    return t;
  }

  SourcePos pos_at(size_t offset) const {
    // Positions are computed from the last newline seen; tokens come in order.
    while (line_scan_ < offset) {
      if (s_[line_scan_] == '\n') {
        ++line_;
        line_start_ = line_scan_ + 1;
      }
      ++line_scan_;
    }
    return SourcePos{line_, static_cast<uint32_t>(offset - line_start_ + 1)};
  }

  Status error_at(size_t start, std::string_view what) const {
    Token t = make(TokenKind::kSymbol, start, std::min(s_.size(), start + 1));
    // Show the rest of the line (bounded) so the user sees what was not understood.
    size_t end = start;
    while (end < s_.size() && s_[end] != '\n' && end - start < 20) ++end;
    t.text = s_.substr(start, end - start);
    if (t.text.empty()) t.kind = TokenKind::kEnd;
    return syntax_error(t, what);
  }

  Status skip_space_and_comments() {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i_;
      } else if (c == '-' && i_ + 1 < s_.size() && s_[i_ + 1] == '-') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '*') {
        size_t start = i_;
        int depth = 0;
        while (true) {
          if (i_ + 1 >= s_.size()) return error_at(start, "unterminated comment");
          if (s_[i_] == '/' && s_[i_ + 1] == '*') {
            ++depth;
            i_ += 2;
          } else if (s_[i_] == '*' && s_[i_ + 1] == '/') {
            i_ += 2;
            if (--depth == 0) break;
          } else {
            ++i_;
          }
        }
      } else {
        break;
      }
    }
    return Status::OK();
  }

  Result<Token> next() {
    size_t start = i_;
    char c = s_[i_];
    if ((c == 'x' || c == 'X') && i_ + 1 < s_.size() && s_[i_ + 1] == '\'') {
      ++i_;
      FLOE_TRY(scan_quoted('\'', start, "unterminated binary literal"));
      std::string_view body = s_.substr(start + 2, i_ - start - 3);
      if (body.size() % 2 != 0)
        return error_at(start, "binary literal needs an even number of hex digits");
      for (char h : body) {
        if (hex_value(h) < 0) return error_at(start, "invalid hex digit in binary literal");
      }
      return make(TokenKind::kBinaryString, start, i_);
    }
    if (is_ident_start(c)) {
      while (i_ < s_.size() && is_ident_char(s_[i_])) ++i_;
      return make(TokenKind::kWord, start, i_);
    }
    if (is_digit(c) || (c == '.' && i_ + 1 < s_.size() && is_digit(s_[i_ + 1]))) {
      return number(start);
    }
    if (c == '\'' || c == '"') {
      FLOE_TRY(scan_quoted(c, start, "unterminated string literal"));
      return make(TokenKind::kString, start, i_);
    }
    if (c == '`') {
      ++i_;
      while (true) {
        if (i_ >= s_.size()) return error_at(start, "unterminated quoted identifier");
        if (s_[i_] == '`') {
          if (i_ + 1 < s_.size() && s_[i_ + 1] == '`') {
            i_ += 2;
            continue;
          }
          ++i_;
          break;
        }
        ++i_;
      }
      if (i_ - start == 2) return error_at(start, "empty quoted identifier");
      return make(TokenKind::kQuotedIdent, start, i_);
    }
    for (const char* sym : kSymbols3) {
      if (s_.substr(i_, 3) == sym) {
        i_ += 3;
        return make(TokenKind::kSymbol, start, i_);
      }
    }
    for (const char* sym : kSymbols2) {
      if (s_.substr(i_, 2) == sym) {
        i_ += 2;
        return make(TokenKind::kSymbol, start, i_);
      }
    }
    if (std::strchr(kSymbols1, c) != nullptr) {
      ++i_;
      return make(TokenKind::kSymbol, start, i_);
    }
    return error_at(start, "unexpected character");
  }

  // i_ is at the opening quote (or at the quote after X); on return just past the closing one.
  Status scan_quoted(char quote, size_t start, std::string_view unterminated) {
    ++i_;
    while (true) {
      if (i_ >= s_.size()) return error_at(start, unterminated);
      char c = s_[i_];
      if (c == '\\') {
        i_ += 2;
        continue;
      }
      if (c == quote) {
        if (i_ + 1 < s_.size() && s_[i_ + 1] == quote) {
          i_ += 2;
          continue;
        }
        ++i_;
        return Status::OK();
      }
      ++i_;
    }
  }

  Result<Token> number(size_t start) {
    bool is_decimal = false;
    bool is_double = false;
    while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
    if (i_ < s_.size() && s_[i_] == '.') {
      is_decimal = true;
      ++i_;
      while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      size_t j = i_ + 1;
      if (j < s_.size() && (s_[j] == '+' || s_[j] == '-')) ++j;
      if (j < s_.size() && is_digit(s_[j])) {
        is_double = true;
        i_ = j;
        while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
      } else {
        return error_at(start, "invalid number: exponent needs digits");
      }
    }
    // Spark's literal suffixes: 1L, 1S, 1Y (integral), 1.5D, 1.5F, 1.5BD.
    TokenKind kind = is_double    ? TokenKind::kDouble
                     : is_decimal ? TokenKind::kDecimal
                                  : TokenKind::kInteger;
    if (i_ < s_.size() && is_ident_char(s_[i_])) {
      size_t suffix_start = i_;
      while (i_ < s_.size() && is_ident_char(s_[i_])) ++i_;
      std::string suffix(s_.substr(suffix_start, i_ - suffix_start));
      for (char& ch : suffix) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      if (suffix == "BD") {
        kind = TokenKind::kDecimal;
      } else if (suffix == "D" || suffix == "F") {
        kind = TokenKind::kDouble;
      } else if ((suffix == "L" || suffix == "S" || suffix == "Y") && kind == TokenKind::kInteger) {
        // stays an integer
      } else {
        return error_at(start, "invalid number");
      }
    }
    return make(kind, start, i_);
  }

  std::string_view s_;
  size_t i_ = 0;
  mutable size_t line_scan_ = 0;
  mutable size_t line_start_ = 0;
  mutable uint32_t line_ = 1;
};

}  // namespace

Result<std::vector<Token>> tokenize(std::string_view source) { return Lexer(source).run(); }

std::string decode_string(const Token& token) {
  std::string_view t = token.text;
  char quote = t.front();
  std::string out;
  out.reserve(t.size());
  for (size_t i = 1; i + 1 < t.size(); ++i) {
    char c = t[i];
    if (c == quote) {  // doubled quote
      out += quote;
      ++i;
    } else if (c == '\\' && i + 2 < t.size()) {
      char e = t[++i];
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case '0':
          out += '\0';
          break;
        case 'Z':
          out += '\x1a';
          break;
        case '%':
          out += "\\%";
          break;  // kept for LIKE patterns, as Spark does
        case '_':
          out += "\\_";
          break;
        default:
          out += e;
          break;
      }
    } else {
      out += c;
    }
  }
  return out;
}

std::string decode_quoted_identifier(const Token& token) {
  std::string_view t = token.text.substr(1, token.text.size() - 2);
  std::string out;
  out.reserve(t.size());
  for (size_t i = 0; i < t.size(); ++i) {
    out += t[i];
    if (t[i] == '`') ++i;
  }
  return out;
}

std::string decode_binary(const Token& token) {
  std::string_view hex = token.text.substr(2, token.text.size() - 3);
  std::string out;
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out += static_cast<char>(hex_value(hex[i]) * 16 + hex_value(hex[i + 1]));
  }
  return out;
}

std::string describe_token(const Token& token) {
  if (token.kind == TokenKind::kEnd) return "end of input";
  std::string_view text = token.text;
  text = text.substr(0, text.find('\n'));  // messages stay on one line
  if (text.size() > 40) text = text.substr(0, 40);
  return fmt::format("'{}'", text);
}

Status syntax_error(const Token& token, std::string_view what) {
  return invalid_argument("syntax error at {}:{} near {}: {}", token.pos.line, token.pos.column,
                          describe_token(token), what);
}

}  // namespace floe::sql::internal
