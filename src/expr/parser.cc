#include "floe/expr/parser.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "floe/util/date_time_text.h"
#include "floe/util/decimal.h"
#include "floe/util/strings.h"

namespace floe {

namespace {

enum class Tok { kIdent, kQuoted, kString, kNumber, kOp, kLParen, kRParen, kComma, kEnd };

struct Token {
  Tok kind;
  std::string text;  // identifier (as written), string contents, number text, operator
  size_t pos;        // byte offset in the input
};

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Result<std::vector<Token>> run() {
    std::vector<Token> out;
    while (true) {
      skip_space();
      size_t start = i_;
      if (i_ >= s_.size()) {
        out.push_back({Tok::kEnd, "", start});
        return out;
      }
      char c = s_[i_];
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) ||
                                  s_[i_] == '_' || s_[i_] == '.')) {
          ++i_;
        }
        out.push_back({Tok::kIdent, std::string(s_.substr(start, i_ - start)), start});
      } else if (c == '`') {
        ++i_;
        std::string text;
        while (true) {
          if (i_ >= s_.size()) return error_at(start, "unterminated `quoted` identifier");
          if (s_[i_] == '`') {
            if (i_ + 1 < s_.size() && s_[i_ + 1] == '`') {
              text += '`';
              i_ += 2;
              continue;
            }
            ++i_;
            break;
          }
          text += s_[i_++];
        }
        out.push_back({Tok::kQuoted, text, start});
      } else if (c == '\'' || c == '"') {
        char quote = c;
        ++i_;
        std::string text;
        while (true) {
          if (i_ >= s_.size()) return error_at(start, "unterminated string literal");
          if (s_[i_] == quote) {
            if (i_ + 1 < s_.size() && s_[i_ + 1] == quote) {
              text += quote;
              i_ += 2;
              continue;
            }
            ++i_;
            break;
          }
          text += s_[i_++];
        }
        out.push_back({Tok::kString, text, start});
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && i_ + 1 < s_.size() &&
                  std::isdigit(static_cast<unsigned char>(s_[i_ + 1])))) {
        while (i_ < s_.size() &&
               (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.'))
          ++i_;
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
          ++i_;
          if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
          while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
        }
        // Spark suffixes: 10L, 1.5D, 2.0BD
        while (i_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_]))) ++i_;
        out.push_back({Tok::kNumber, std::string(s_.substr(start, i_ - start)), start});
      } else if (c == '(') {
        ++i_;
        out.push_back({Tok::kLParen, "(", start});
      } else if (c == ')') {
        ++i_;
        out.push_back({Tok::kRParen, ")", start});
      } else if (c == ',') {
        ++i_;
        out.push_back({Tok::kComma, ",", start});
      } else if (c == '-' && i_ + 1 < s_.size() &&
                 (std::isdigit(static_cast<unsigned char>(s_[i_ + 1])) || s_[i_ + 1] == '.')) {
        // A negative number literal.
        ++i_;
        while (i_ < s_.size() &&
               (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' ||
                ((s_[i_] == '+' || s_[i_] == '-') && (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E')))) {
          ++i_;
        }
        out.push_back({Tok::kNumber, std::string(s_.substr(start, i_ - start)), start});
      } else {
        static const char* kOps[] = {"<=>", "<=", ">=", "<>", "!=", "==", "<", ">", "="};
        bool matched = false;
        for (const char* op : kOps) {
          std::string_view o(op);
          if (s_.substr(i_, o.size()) == o) {
            out.push_back({Tok::kOp, std::string(o), start});
            i_ += o.size();
            matched = true;
            break;
          }
        }
        if (!matched) return error_at(start, fmt::format("unexpected character '{}'", c));
      }
    }
  }

  Status error_at(size_t pos, const std::string& what) const {
    auto [line, col] = line_col(s_, pos);
    return invalid_argument("syntax error at {}:{}: {}", line, col, what);
  }

  static std::pair<int, int> line_col(std::string_view s, size_t pos) {
    int line = 1, col = 1;
    for (size_t i = 0; i < pos && i < s.size(); ++i) {
      if (s[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    return {line, col};
  }

 private:
  void skip_space() {
    while (i_ < s_.size()) {
      if (std::isspace(static_cast<unsigned char>(s_[i_]))) {
        ++i_;
      } else if (s_.substr(i_, 2) == "--") {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else {
        break;
      }
    }
  }

  std::string_view s_;
  size_t i_ = 0;
};

class Parser {
 public:
  Parser(std::string_view text, std::vector<Token> tokens) : text_(text), t_(std::move(tokens)) {}

  Result<ExprPtr> parse() {
    ExprPtr e = FLOE_TRY(parse_or());
    if (peek().kind != Tok::kEnd) return error("expected AND, OR or the end of the filter");
    return e;
  }

 private:
  const Token& peek(size_t ahead = 0) const { return t_[std::min(i_ + ahead, t_.size() - 1)]; }
  const Token& next() { return t_[std::min(i_++, t_.size() - 1)]; }
  bool is_keyword(const Token& t, std::string_view kw) const {
    return t.kind == Tok::kIdent && iequals(t.text, kw);
  }
  bool accept_keyword(std::string_view kw) {
    if (is_keyword(peek(), kw)) {
      ++i_;
      return true;
    }
    return false;
  }
  Status error(const std::string& what) const {
    const Token& tok = peek();
    auto [line, col] = Lexer::line_col(text_, tok.pos);
    if (tok.kind == Tok::kEnd) {
      return invalid_argument("syntax error at {}:{} at the end of the filter: {}", line, col,
                              what);
    }
    const std::string& near = tok.text;
    return invalid_argument("syntax error at {}:{} near '{}': {}", line, col, near, what);
  }
  Status expect(Tok kind, const char* what) {
    if (peek().kind != kind) return error(std::string("expected ") + what);
    ++i_;
    return Status::OK();
  }

  Result<ExprPtr> parse_or() {
    ExprPtr left = FLOE_TRY(parse_and());
    while (accept_keyword("OR")) {
      ExprPtr right = FLOE_TRY(parse_and());
      left = make_or(std::move(left), std::move(right));
    }
    return left;
  }

  Result<ExprPtr> parse_and() {
    ExprPtr left = FLOE_TRY(parse_not());
    while (accept_keyword("AND")) {
      ExprPtr right = FLOE_TRY(parse_not());
      left = make_and(std::move(left), std::move(right));
    }
    return left;
  }

  Result<ExprPtr> parse_not() {
    if (accept_keyword("NOT")) return make_not(FLOE_TRY(parse_not()));
    return parse_primary();
  }

  Result<ExprPtr> parse_primary() {
    if (peek().kind == Tok::kLParen) {
      ++i_;
      ExprPtr e = FLOE_TRY(parse_or());
      FLOE_TRY(expect(Tok::kRParen, "')'"));
      return e;
    }
    if (accept_keyword("TRUE")) return always_true();
    if (accept_keyword("FALSE")) return always_false();
    // isnan(col)
    if (is_keyword(peek(), "isnan") && peek(1).kind == Tok::kLParen) {
      i_ += 2;
      std::string col = FLOE_TRY(parse_column());
      FLOE_TRY(expect(Tok::kRParen, "')'"));
      return make_predicate(Operation::kIsNan, col);
    }
    // value op column (flipped)
    if (is_value_start(peek())) {
      Literal v = FLOE_TRY(parse_value());
      if (peek().kind != Tok::kOp) return error("expected a comparison operator");
      Operation op = FLOE_TRY(parse_op());
      std::string col = FLOE_TRY(parse_column());
      return make_predicate(flip(op), col, {std::move(v)});
    }
    std::string col = FLOE_TRY(parse_column());
    return parse_predicate_rest(col);
  }

  Result<ExprPtr> parse_predicate_rest(const std::string& col) {
    const Token& t = peek();
    if (t.kind == Tok::kOp) {
      Operation op = FLOE_TRY(parse_op());
      if (is_keyword(peek(), "NULL")) {
        return error("comparison with NULL is never true; use IS NULL or IS NOT NULL");
      }
      Literal v = FLOE_TRY(parse_value());
      return make_predicate(op, col, {std::move(v)});
    }
    if (accept_keyword("IS")) {
      bool negated = accept_keyword("NOT");
      if (accept_keyword("NULL")) {
        return make_predicate(negated ? Operation::kNotNull : Operation::kIsNull, col);
      }
      if (accept_keyword("NAN")) {
        return make_predicate(negated ? Operation::kNotNan : Operation::kIsNan, col);
      }
      return error("expected NULL or NAN after IS");
    }
    bool negated = accept_keyword("NOT");
    if (accept_keyword("IN")) {
      FLOE_TRY(expect(Tok::kLParen, "'(' after IN"));
      std::vector<Literal> values;
      do {
        values.push_back(FLOE_TRY(parse_value()));
      } while (peek().kind == Tok::kComma && (++i_, true));
      FLOE_TRY(expect(Tok::kRParen, "')' to close the IN list"));
      return make_predicate(negated ? Operation::kNotIn : Operation::kIn, col, std::move(values));
    }
    if (accept_keyword("LIKE")) {
      if (peek().kind != Tok::kString) return error("expected a string pattern after LIKE");
      std::string pattern = next().text;
      auto prefix = like_prefix(pattern);
      if (!prefix) {
        --i_;
        return error("only prefix patterns ('abc%') can be pushed into a filter");
      }
      return make_predicate(negated ? Operation::kNotStartsWith : Operation::kStartsWith, col,
                            {Literal::string(*prefix)});
    }
    if (accept_keyword("BETWEEN")) {
      Literal lo = FLOE_TRY(parse_value());
      if (!accept_keyword("AND")) return error("expected AND in BETWEEN");
      Literal hi = FLOE_TRY(parse_value());
      ExprPtr range = make_and(make_predicate(Operation::kGtEq, col, {std::move(lo)}),
                               make_predicate(Operation::kLtEq, col, {std::move(hi)}));
      return negated ? make_not(range) : range;
    }
    return error("expected a comparison, IS, IN, LIKE or BETWEEN");
  }

  // 'abc%' -> abc; patterns with other wildcards are not prefixes.
  static std::optional<std::string> like_prefix(const std::string& p) {
    if (p.empty() || p.back() != '%') return std::nullopt;
    std::string out;
    for (size_t i = 0; i + 1 < p.size(); ++i) {
      char c = p[i];
      if (c == '\\' && i + 2 < p.size()) {
        out += p[++i];
        continue;
      }
      if (c == '%' || c == '_') return std::nullopt;
      out += c;
    }
    return out;
  }

  Result<Operation> parse_op() {
    const Token& t = next();
    if (t.text == "=" || t.text == "==") return Operation::kEq;
    if (t.text == "!=" || t.text == "<>") return Operation::kNotEq;
    if (t.text == "<") return Operation::kLt;
    if (t.text == "<=") return Operation::kLtEq;
    if (t.text == ">") return Operation::kGt;
    if (t.text == ">=") return Operation::kGtEq;
    --i_;
    return error("the null-safe operator <=> is not supported in filters");
  }

  Result<std::string> parse_column() {
    const Token& t = peek();
    if (t.kind == Tok::kQuoted) {
      ++i_;
      std::string name = t.text;
      // `a`.`b` parts arrive as separate tokens only with dots between; keep it simple.
      return name;
    }
    if (t.kind == Tok::kIdent && !is_reserved(t.text)) {
      ++i_;
      return t.text;
    }
    return error("expected a column name");
  }

  static bool is_reserved(std::string_view w) {
    for (const char* kw :
         {"AND", "OR", "NOT", "IN", "IS", "NULL", "LIKE", "BETWEEN", "TRUE", "FALSE"}) {
      if (iequals(w, kw)) return true;
    }
    return false;
  }

  bool is_value_start(const Token& t) const {
    if (t.kind == Tok::kString || t.kind == Tok::kNumber) return true;
    if (t.kind != Tok::kIdent) return false;
    if (iequals(t.text, "DATE") || iequals(t.text, "TIMESTAMP") ||
        iequals(t.text, "TIMESTAMP_NTZ") || iequals(t.text, "TIMESTAMP_LTZ")) {
      return peek(1).kind == Tok::kString;
    }
    return false;
  }

  Result<Literal> parse_value() {
    const Token& t = peek();
    if (t.kind == Tok::kString) {
      ++i_;
      return Literal::string(t.text);
    }
    if (t.kind == Tok::kNumber) {
      ++i_;
      return parse_number(t);
    }
    if (is_keyword(t, "TRUE") || is_keyword(t, "FALSE")) {
      ++i_;
      return Literal::boolean(iequals(t.text, "TRUE"));
    }
    if (t.kind == Tok::kIdent && peek(1).kind == Tok::kString) {
      std::string kind = t.text;
      for (char& c : kind) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      const Token& s = peek(1);
      if (kind == "DATE") {
        auto d = parse_date(s.text);
        if (!d.ok()) return error("invalid DATE literal: " + d.status().message());
        i_ += 2;
        return Literal::date(*d);
      }
      if (kind == "TIMESTAMP" || kind == "TIMESTAMP_LTZ") {
        // Spark's TIMESTAMP is an instant (session time zone = UTC here).
        auto ts = parse_timestamp(s.text, true);
        if (!ts.ok()) return error("invalid TIMESTAMP literal: " + ts.status().message());
        i_ += 2;
        return Literal::timestamptz(*ts);
      }
      if (kind == "TIMESTAMP_NTZ") {
        auto ts = parse_timestamp(s.text, false);
        if (!ts.ok()) return error("invalid TIMESTAMP_NTZ literal: " + ts.status().message());
        i_ += 2;
        return Literal::timestamp(*ts);
      }
    }
    return error("expected a value");
  }

  Result<Literal> parse_number(const Token& t) {
    std::string s = t.text;
    char suffix = 0;
    std::string upper;
    for (char c : s) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (upper.size() > 2 && upper.substr(upper.size() - 2) == "BD") {
      s.resize(s.size() - 2);
      suffix = 'B';
    } else if (!upper.empty() &&
               (upper.back() == 'L' || upper.back() == 'D' || upper.back() == 'F' ||
                upper.back() == 'S' || upper.back() == 'Y')) {
      suffix = upper.back();
      s.pop_back();
    }
    bool has_dot = s.find('.') != std::string::npos;
    bool has_exp = s.find_first_of("eE") != std::string::npos;
    if (suffix == 'D' || suffix == 'F' || has_exp) {
      char* end = nullptr;
      double v = std::strtod(s.c_str(), &end);
      if (end != s.c_str() + s.size()) return bad_number(t);
      return suffix == 'F' ? Literal::float32(static_cast<float>(v)) : Literal::float64(v);
    }
    if (has_dot || suffix == 'B') {
      size_t dot = s.find('.');
      int scale = dot == std::string::npos ? 0 : static_cast<int>(s.size() - dot - 1);
      auto unscaled = parse_decimal(s, scale);
      if (!unscaled.ok()) return bad_number(t);
      int digits = 0;
      for (char c : s) digits += std::isdigit(static_cast<unsigned char>(c)) ? 1 : 0;
      int precision = std::max(digits, scale);
      if (precision > 38) return bad_number(t);
      return Literal::decimal(*unscaled, std::max(precision, 1), scale);
    }
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(s.c_str(), &end, 10);
    if (errno != 0 || end != s.c_str() + s.size()) return bad_number(t);
    return Literal::int64(v);
  }

  Status bad_number(const Token& t) const {
    auto [line, col] = Lexer::line_col(text_, t.pos);
    return invalid_argument("syntax error at {}:{} near '{}': invalid number", line, col, t.text);
  }

  std::string_view text_;
  std::vector<Token> t_;
  size_t i_ = 0;
};

}  // namespace

Result<ExprPtr> parse_filter(std::string_view text) {
  Lexer lexer(text);
  std::vector<Token> tokens = FLOE_TRY(lexer.run());
  Parser parser(text, std::move(tokens));
  return parser.parse();
}

}  // namespace floe
