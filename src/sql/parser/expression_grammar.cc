// Expressions (precedence climbing, Spark's order) and type names.
//   OR < AND < NOT < comparison / IS / IN / BETWEEN / LIKE < || < + - < * / % DIV < unary
//   < subscript, field access, ::
#include <cctype>
#include <charconv>

#include "floe/util/strings.h"
#include "sql/parser/grammar_internal.h"

namespace floe::sql::internal {
using namespace floe::sql::ast;  // NOLINT: the parser builds the AST

namespace {

template <typename T>
std::unique_ptr<T> node(SourcePos pos) {
  return std::make_unique<T>(pos);
}

ExprPtr make_binary(BinaryOp op, ExprPtr left, ExprPtr right, SourcePos pos) {
  auto b = node<BinaryExpr>(pos);
  b->op = op;
  b->left = std::move(left);
  b->right = std::move(right);
  return b;
}

std::optional<BinaryOp> comparison_op(const Token& t) {
  if (t.kind != TokenKind::kSymbol) return std::nullopt;
  std::string_view s = t.text;
  if (s == "=" || s == "==") return BinaryOp::kEq;
  if (s == "!=" || s == "<>") return BinaryOp::kNotEq;
  if (s == "<") return BinaryOp::kLt;
  if (s == "<=") return BinaryOp::kLtEq;
  if (s == ">") return BinaryOp::kGt;
  if (s == ">=") return BinaryOp::kGtEq;
  if (s == "<=>") return BinaryOp::kNullSafeEq;
  return std::nullopt;
}

// Singular upper-case interval unit, or "" when the word is not one.
std::string interval_unit(std::string_view word) {
  static constexpr std::string_view kUnits[] = {
      "YEAR", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND"};
  std::string upper(word);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper.size() > 1 && upper.back() == 'S') {
    std::string singular = upper.substr(0, upper.size() - 1);
    for (std::string_view u : kUnits) {
      if (singular == u) return singular;
    }
  }
  for (std::string_view u : kUnits) {
    if (upper == u) return upper;
  }
  return "";
}

}  // namespace

bool Parser::at_query_start(size_t ahead) const {
  while (is_sym("(", ahead)) ++ahead;
  return is_kw("SELECT", ahead) || is_kw("WITH", ahead) || is_kw("VALUES", ahead);
}

Result<ExprPtr> Parser::expr() {
  DepthGuard guard(*this);
  FLOE_TRY(enter(peek()));
  return or_expr();
}

namespace {

// A chain a OR b OR c ... (or AND) becomes a balanced tree, as Spark's AstBuilder builds it:
// both operators are associative, and a balanced tree keeps 100,000 terms log2(n) deep instead
// of n deep for everything that walks it.
ExprPtr balanced(BinaryOp op, std::vector<ExprPtr>& terms, std::vector<SourcePos>& ops, size_t low,
                 size_t high) {
  if (low == high) return std::move(terms[low]);
  if (high - low == 1) {
    return make_binary(op, std::move(terms[low]), std::move(terms[high]), ops[low]);
  }
  size_t mid = low + (high - low) / 2;
  ExprPtr left = balanced(op, terms, ops, low, mid);
  ExprPtr right = balanced(op, terms, ops, mid + 1, high);
  return make_binary(op, std::move(left), std::move(right), ops[mid]);
}

}  // namespace

Result<ExprPtr> Parser::or_expr() {
  std::vector<ExprPtr> terms;
  std::vector<SourcePos> ops;  // ops[i] is the keyword between terms[i] and terms[i + 1]
  terms.push_back(FLOE_TRY(and_expr()));
  while (is_kw("OR")) {
    ops.push_back(advance().pos);
    terms.push_back(FLOE_TRY(and_expr()));
  }
  return balanced(BinaryOp::kOr, terms, ops, 0, terms.size() - 1);
}

Result<ExprPtr> Parser::and_expr() {
  std::vector<ExprPtr> terms;
  std::vector<SourcePos> ops;
  terms.push_back(FLOE_TRY(not_expr()));
  while (is_kw("AND")) {
    ops.push_back(advance().pos);
    terms.push_back(FLOE_TRY(not_expr()));
  }
  return balanced(BinaryOp::kAnd, terms, ops, 0, terms.size() - 1);
}

Result<ExprPtr> Parser::not_expr() {
  DepthGuard guard(*this);
  FLOE_TRY(enter(peek()));
  if (is_kw("NOT") || is_sym("!")) {
    SourcePos pos = advance().pos;
    if (is_kw("EXISTS") && is_sym("(", 1)) {
      ExprPtr e = FLOE_TRY(predicate());
      if (e->kind == ExprKind::kExists) {
        e->as<ExistsExpr>().negated = !e->as<ExistsExpr>().negated;
        e->pos = pos;
        return e;
      }
      auto u = node<UnaryExpr>(pos);
      u->op = UnaryOp::kNot;
      u->operand = std::move(e);
      return ExprPtr(std::move(u));
    }
    auto u = node<UnaryExpr>(pos);
    u->op = UnaryOp::kNot;
    u->operand = FLOE_TRY(not_expr());
    return ExprPtr(std::move(u));
  }
  return predicate();
}

Result<ExprPtr> Parser::predicate() {
  ExprPtr left = FLOE_TRY(concat_expr());
  DepthRestore restore(*this);
  for (bool first = true;; first = false) {
    const Token& t = peek();
    SourcePos pos = t.pos;
    if (!first) FLOE_TRY(enter(t));
    if (auto op = comparison_op(t)) {
      advance();
      ExprPtr right = FLOE_TRY(concat_expr());
      left = make_binary(*op, std::move(left), std::move(right), pos);
      continue;
    }
    if (is_kw("IS")) {
      advance();
      bool negated = accept_kw("NOT");
      if (accept_kw("NULL") || accept_kw("UNKNOWN")) {
        auto e = node<IsNullExpr>(pos);
        e->operand = std::move(left);
        e->negated = negated;
        left = std::move(e);
      } else if (is_kw("TRUE") || is_kw("FALSE")) {
        auto e = node<IsBoolExpr>(pos);
        e->value = is_kw("TRUE");
        advance();
        e->operand = std::move(left);
        e->negated = negated;
        left = std::move(e);
      } else if (is_kw("DISTINCT")) {
        advance();
        FLOE_TRY(expect_kw("FROM"));
        ExprPtr right = FLOE_TRY(concat_expr());
        ExprPtr eq = make_binary(BinaryOp::kNullSafeEq, std::move(left), std::move(right), pos);
        if (negated) {
          left = std::move(eq);
        } else {
          auto u = node<UnaryExpr>(pos);
          u->op = UnaryOp::kNot;
          u->operand = std::move(eq);
          left = std::move(u);
        }
      } else {
        return error_expected("NULL, NOT NULL, TRUE, FALSE or DISTINCT FROM after IS");
      }
      continue;
    }
    bool negated = false;
    size_t ahead = 0;
    if (is_kw("NOT")) {
      negated = true;
      ahead = 1;
    }
    if (is_kw("IN", ahead)) {
      pos_ += ahead + 1;
      if (!is_sym("(")) return error_expected("'(' after IN");
      auto subquery = [&]() -> Result<ExprPtr> {
        advance();
        auto e = node<InSubqueryExpr>(pos);
        e->query = FLOE_TRY(query());
        FLOE_TRY(expect_sym(")"));
        return ExprPtr(std::move(e));
      };
      auto list = [&]() -> Result<ExprPtr> {
        if (is_sym(")", 1)) return error_at(peek(1), "expected an expression in the IN list");
        auto e = node<InListExpr>(pos);
        e->list = FLOE_TRY(expression_list_in_parens());
        return ExprPtr(std::move(e));
      };
      ExprPtr in;
      if (at_query_keyword(1)) {
        in = FLOE_TRY(subquery());
      } else if (at_query_start(1)) {  // IN ((SELECT ...)) or IN ((1), 2)
        in = FLOE_TRY(
            first_of<ExprPtr>(Alternative::kInList, list, Alternative::kInSubquery, subquery));
      } else {
        in = FLOE_TRY(list());
      }
      if (in->kind == ExprKind::kInSubquery) {
        in->as<InSubqueryExpr>().operand = std::move(left);
        in->as<InSubqueryExpr>().negated = negated;
      } else {
        in->as<InListExpr>().operand = std::move(left);
        in->as<InListExpr>().negated = negated;
      }
      left = std::move(in);
      continue;
    }
    if (is_kw("BETWEEN", ahead)) {
      pos_ += ahead + 1;
      auto e = node<BetweenExpr>(pos);
      e->operand = std::move(left);
      e->low = FLOE_TRY(concat_expr());
      FLOE_TRY(expect_kw("AND"));
      e->high = FLOE_TRY(concat_expr());
      e->negated = negated;
      left = std::move(e);
      continue;
    }
    if (is_kw("LIKE", ahead) || is_kw("ILIKE", ahead) || is_kw("RLIKE", ahead) ||
        is_kw("REGEXP", ahead)) {
      auto e = node<LikeExpr>(pos);
      e->op = is_kw("LIKE", ahead)    ? LikeOp::kLike
              : is_kw("ILIKE", ahead) ? LikeOp::kILike
                                      : LikeOp::kRLike;
      pos_ += ahead + 1;
      e->operand = std::move(left);
      e->pattern = FLOE_TRY(concat_expr());
      if (accept_kw("ESCAPE")) e->escape = FLOE_TRY(string_literal("an escape character"));
      e->negated = negated;
      left = std::move(e);
      continue;
    }
    if (negated) {
      // "a NOT b": NOT here must start IN / BETWEEN / LIKE.
      return error_at(peek(1), "expected IN, BETWEEN, LIKE, ILIKE or RLIKE after NOT");
    }
    return left;
  }
}

Result<ExprPtr> Parser::concat_expr() {
  ExprPtr left = FLOE_TRY(additive());
  while (is_sym("||")) {
    SourcePos pos = advance().pos;
    ExprPtr right = FLOE_TRY(additive());
    left = make_binary(BinaryOp::kConcat, std::move(left), std::move(right), pos);
  }
  return left;
}

Result<ExprPtr> Parser::additive() {
  ExprPtr left = FLOE_TRY(multiplicative());
  while (is_sym("+") || is_sym("-")) {
    const Token& t = advance();
    BinaryOp op = t.text == "+" ? BinaryOp::kAdd : BinaryOp::kSubtract;
    ExprPtr right = FLOE_TRY(multiplicative());
    left = make_binary(op, std::move(left), std::move(right), t.pos);
  }
  return left;
}

Result<ExprPtr> Parser::multiplicative() {
  ExprPtr left = FLOE_TRY(unary());
  while (true) {
    BinaryOp op;
    if (is_sym("*")) {
      op = BinaryOp::kMultiply;
    } else if (is_sym("/")) {
      op = BinaryOp::kDivide;
    } else if (is_sym("%")) {
      op = BinaryOp::kModulo;
    } else if (is_kw("DIV")) {
      op = BinaryOp::kIntDivide;
    } else {
      return left;
    }
    SourcePos pos = advance().pos;
    ExprPtr right = FLOE_TRY(unary());
    left = make_binary(op, std::move(left), std::move(right), pos);
  }
}

Result<ExprPtr> Parser::unary() {
  DepthGuard guard(*this);
  FLOE_TRY(enter(peek()));
  if (is_sym("-") || is_sym("+") || is_sym("~")) {
    const Token& t = advance();
    // A sign directly before a number is part of the literal (so -9223372036854775808 fits).
    if (t.text == "-" &&
        (peek().kind == TokenKind::kInteger || peek().kind == TokenKind::kDecimal ||
         peek().kind == TokenKind::kDouble)) {
      ExprPtr lit = FLOE_TRY(number_literal());
      auto& l = lit->as<LiteralExpr>();
      l.pos = t.pos;
      l.text.insert(0, "-");
      if (l.literal_kind == LiteralKind::kInteger) {
        int64_t v = 0;
        auto [ptr, ec] = std::from_chars(l.text.data(), l.text.data() + l.text.size(), v);
        l.int_value = (ec == std::errc() && ptr == l.text.data() + l.text.size())
                          ? std::optional<int64_t>(v)
                          : std::nullopt;
      }
      // Postfix operators bind tighter than the sign: -1::string is -(1::string) in Spark,
      // but for a literal the difference does not matter.
      return lit;
    }
    auto u = node<UnaryExpr>(t.pos);
    u->op = t.text == "-" ? UnaryOp::kNegate : t.text == "+" ? UnaryOp::kPlus : UnaryOp::kBitNot;
    u->operand = FLOE_TRY(unary());
    return ExprPtr(std::move(u));
  }
  return postfix();
}

Result<ExprPtr> Parser::postfix() {
  ExprPtr base = FLOE_TRY(primary());
  DepthRestore restore(*this);
  for (bool first = true;; first = false) {
    if (!first) FLOE_TRY(enter(peek()));
    if (is_sym("[")) {
      SourcePos pos = advance().pos;
      auto s = node<SubscriptExpr>(pos);
      s->base = std::move(base);
      s->index = FLOE_TRY(expr());
      FLOE_TRY(expect_sym("]"));
      base = std::move(s);
    } else if (is_sym(".") &&
               (peek(1).kind == TokenKind::kWord || peek(1).kind == TokenKind::kQuotedIdent)) {
      SourcePos pos = advance().pos;
      auto f = node<FieldAccessExpr>(pos);
      f->base = std::move(base);
      f->field = FLOE_TRY(any_identifier("a field name"));
      base = std::move(f);
    } else if (is_sym("::")) {
      SourcePos pos = advance().pos;
      auto c = node<CastExpr>(pos);
      c->operand = std::move(base);
      c->type = FLOE_TRY(type());
      base = std::move(c);
    } else {
      return base;
    }
  }
}

Result<ExprPtr> Parser::number_literal() {
  const Token& t = advance();
  SourcePos pos = t.pos;
  std::string_view text = t.text;
  char suffix = 0;
  if (t.kind == TokenKind::kDecimal && text.size() >= 2 &&
      iequals(text.substr(text.size() - 2), "BD")) {
    suffix = 'B';
    text.remove_suffix(2);
  } else if (!text.empty() && std::isalpha(static_cast<unsigned char>(text.back()))) {
    suffix = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
    text.remove_suffix(1);
  }
  LiteralKind kind = t.kind == TokenKind::kInteger   ? LiteralKind::kInteger
                     : t.kind == TokenKind::kDecimal ? LiteralKind::kDecimal
                                                     : LiteralKind::kDouble;
  auto lit = node<LiteralExpr>(pos);
  lit->literal_kind = kind;
  lit->text = std::string(text);
  lit->suffix = suffix;
  if (kind == LiteralKind::kInteger) {
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc() && ptr == text.data() + text.size()) lit->int_value = v;
  }
  return ExprPtr(std::move(lit));
}

Result<ExprPtr> Parser::interval_literal(SourcePos pos) {
  auto lit = node<LiteralExpr>(pos);
  lit->literal_kind = LiteralKind::kInterval;
  while (true) {
    IntervalPart part;
    bool from_string = false;
    if (peek().kind == TokenKind::kString) {
      part.value = decode_string(advance());
      from_string = true;
    } else if (peek().kind == TokenKind::kInteger || peek().kind == TokenKind::kDecimal ||
               (is_sym("-") &&
                (peek(1).kind == TokenKind::kInteger || peek(1).kind == TokenKind::kDecimal))) {
      if (accept_sym("-")) part.value = "-";
      part.value += std::string(advance().text);
    } else {
      return error_expected("an interval value");
    }
    if (peek().kind == TokenKind::kWord && !interval_unit(peek().text).empty()) {
      part.unit = interval_unit(advance().text);
      if (is_kw("TO") && peek(1).kind == TokenKind::kWord && !interval_unit(peek(1).text).empty()) {
        advance();
        part.unit += " TO " + interval_unit(advance().text);
      }
    } else if (!from_string) {
      // A bare number needs a unit; a string may carry its own ('1 day 2 hours').
      return error_expected("an interval unit (DAY, HOUR, ...)");
    }
    bool has_unit = !part.unit.empty();
    lit->interval.push_back(std::move(part));
    if (!has_unit) break;
    bool more = peek().kind == TokenKind::kString || peek().kind == TokenKind::kInteger ||
                peek().kind == TokenKind::kDecimal;
    if (more && peek(1).kind == TokenKind::kWord && !interval_unit(peek(1).text).empty()) continue;
    break;
  }
  std::string text;
  for (const auto& p : lit->interval) {
    if (!text.empty()) text += ' ';
    text += p.value;
    if (!p.unit.empty()) text += ' ' + p.unit;
  }
  lit->text = std::move(text);
  return ExprPtr(std::move(lit));
}

Result<std::vector<ExprPtr>> Parser::expression_list_in_parens() {
  FLOE_TRY(expect_sym("("));
  std::vector<ExprPtr> out;
  if (accept_sym(")")) return out;
  do {
    out.push_back(FLOE_TRY(expr()));
  } while (accept_sym(","));
  FLOE_TRY(expect_sym(")"));
  return out;
}

Result<ExprPtr> Parser::case_expr(SourcePos pos) {
  auto c = node<CaseExpr>(pos);
  if (!is_kw("WHEN")) c->operand = FLOE_TRY(expr());
  while (accept_kw("WHEN")) {
    WhenClause w;
    w.condition = FLOE_TRY(expr());
    FLOE_TRY(expect_kw("THEN"));
    w.result = FLOE_TRY(expr());
    c->whens.push_back(std::move(w));
  }
  if (c->whens.empty()) return error_expected("WHEN");
  if (accept_kw("ELSE")) c->else_result = FLOE_TRY(expr());
  FLOE_TRY(expect_kw("END"));
  return ExprPtr(std::move(c));
}

Result<ExprPtr> Parser::cast_expr(SourcePos pos, bool try_cast) {
  FLOE_TRY(expect_sym("("));
  auto c = node<CastExpr>(pos);
  c->try_cast = try_cast;
  c->operand = FLOE_TRY(expr());
  FLOE_TRY(expect_kw("AS"));
  c->type = FLOE_TRY(type());
  FLOE_TRY(expect_sym(")"));
  return ExprPtr(std::move(c));
}

Result<ExprPtr> Parser::function_call(std::vector<std::string> name, SourcePos pos) {
  FLOE_TRY(expect_sym("("));
  auto f = node<FunctionExpr>(pos);
  f->name = std::move(name);
  if (!accept_sym(")")) {
    if (is_sym("*") && is_sym(")", 1)) {
      f->args.push_back(node<StarExpr>(advance().pos));
    } else {
      if (accept_kw("DISTINCT")) {
        f->distinct = true;
      } else if (is_kw("ALL") && !is_sym(")", 1) && !is_sym(",", 1)) {
        advance();
      }
      do {
        f->args.push_back(FLOE_TRY(expr()));
      } while (accept_sym(","));
    }
    FLOE_TRY(expect_sym(")"));
  }
  if (is_kw("OVER")) return error_at(peek(), "window functions are not supported");
  return ExprPtr(std::move(f));
}

Result<ExprPtr> Parser::primary() {
  const Token& t = peek();
  SourcePos pos = t.pos;
  switch (t.kind) {
    case TokenKind::kInteger:
    case TokenKind::kDecimal:
    case TokenKind::kDouble:
      return number_literal();
    case TokenKind::kString: {
      auto lit = node<LiteralExpr>(pos);
      lit->literal_kind = LiteralKind::kString;
      lit->text = decode_string(advance());
      // Adjacent string literals concatenate, as in Spark: 'a' 'b' = 'ab'.
      while (peek().kind == TokenKind::kString) lit->text += decode_string(advance());
      return ExprPtr(std::move(lit));
    }
    case TokenKind::kBinaryString: {
      auto lit = node<LiteralExpr>(pos);
      lit->literal_kind = LiteralKind::kBinary;
      lit->text = decode_binary(advance());
      return ExprPtr(std::move(lit));
    }
    case TokenKind::kSymbol:
      if (t.text == "(") {
        auto subquery = [&]() -> Result<ExprPtr> {
          advance();
          auto s = node<ScalarSubqueryExpr>(pos);
          s->query = FLOE_TRY(query());
          FLOE_TRY(expect_sym(")"));
          return ExprPtr(std::move(s));
        };
        auto parenthesised = [&]() -> Result<ExprPtr> {
          advance();
          ExprPtr e = FLOE_TRY(expr());
          FLOE_TRY(expect_sym(")"));
          return e;
        };
        if (at_query_keyword(1)) return subquery();
        // '((SELECT 1) + 1)' is an expression, '((SELECT 1) UNION (SELECT 2))' a query.
        if (at_query_start(1))
          return first_of<ExprPtr>(Alternative::kParenthesisedExpr, parenthesised,
                                   Alternative::kScalarSubquery, subquery);
        return parenthesised();
      }
      if (t.text == "*") {
        advance();
        return ExprPtr(node<StarExpr>(pos));
      }
      return error_expected("an expression");
    case TokenKind::kEnd:
      return error_expected("an expression");
    case TokenKind::kWord:
    case TokenKind::kQuotedIdent:
      break;
  }

  if (t.kind == TokenKind::kWord) {
    if (is_kw("NULL")) {
      advance();
      return ExprPtr(node<LiteralExpr>(pos));
    }
    if (is_kw("TRUE") || is_kw("FALSE")) {
      auto lit = node<LiteralExpr>(pos);
      lit->literal_kind = LiteralKind::kBoolean;
      lit->bool_value = is_kw("TRUE");
      lit->text = lit->bool_value ? "true" : "false";
      advance();
      return ExprPtr(std::move(lit));
    }
    if (is_kw("CASE")) {
      advance();
      return case_expr(pos);
    }
    if ((is_kw("CAST") || is_kw("TRY_CAST")) && is_sym("(", 1)) {
      bool try_cast = is_kw("TRY_CAST");
      advance();
      return cast_expr(pos, try_cast);
    }
    if (is_kw("EXISTS") && is_sym("(", 1)) {
      advance();
      advance();
      auto e = node<ExistsExpr>(pos);
      e->query = FLOE_TRY(query());
      FLOE_TRY(expect_sym(")"));
      return ExprPtr(std::move(e));
    }
    if (peek(1).kind == TokenKind::kString) {
      LiteralKind kind;
      bool typed = true;
      if (is_kw("DATE")) {
        kind = LiteralKind::kDate;
      } else if (is_kw("TIMESTAMP") || is_kw("TIMESTAMP_LTZ")) {
        kind = LiteralKind::kTimestamp;
      } else if (is_kw("TIMESTAMP_NTZ")) {
        kind = LiteralKind::kTimestampNtz;
      } else {
        typed = false;
        kind = LiteralKind::kNull;
      }
      if (typed) {
        advance();
        auto lit = node<LiteralExpr>(pos);
        lit->literal_kind = kind;
        lit->text = decode_string(advance());
        return ExprPtr(std::move(lit));
      }
    }
    if (is_kw("INTERVAL") &&
        (peek(1).kind == TokenKind::kString || peek(1).kind == TokenKind::kInteger ||
         peek(1).kind == TokenKind::kDecimal || is_sym("-", 1))) {
      advance();
      return interval_literal(pos);
    }
    if (is_kw("EXTRACT") && is_sym("(", 1)) {
      // EXTRACT(field FROM source) is date_part('field', source).
      advance();
      advance();
      auto f = node<FunctionExpr>(pos);
      f->name = {"date_part"};
      auto field = node<LiteralExpr>(peek().pos);
      field->literal_kind = LiteralKind::kString;
      field->text = FLOE_TRY(any_identifier("a date field"));
      f->args.push_back(std::move(field));
      FLOE_TRY(expect_kw("FROM"));
      f->args.push_back(FLOE_TRY(expr()));
      FLOE_TRY(expect_sym(")"));
      return ExprPtr(std::move(f));
    }
    if (is_reserved_word(t.text)) {
      // left(s, 3) and right(s, 3) are functions despite the join keywords.
      if (!((is_kw("LEFT") || is_kw("RIGHT")) && is_sym("(", 1))) {
        return error_expected("an expression");
      }
    }
  }

  std::vector<std::string> parts;
  parts.push_back(t.kind == TokenKind::kQuotedIdent ? decode_quoted_identifier(t)
                                                    : std::string(t.text));
  advance();
  while (is_sym(".")) {
    if (is_sym("*", 1)) {
      advance();
      advance();
      auto star = node<StarExpr>(pos);
      star->qualifier = std::move(parts);
      return ExprPtr(std::move(star));
    }
    if (peek(1).kind != TokenKind::kWord && peek(1).kind != TokenKind::kQuotedIdent) break;
    advance();
    parts.push_back(FLOE_TRY(any_identifier("a name")));
  }
  if (is_sym("(")) return function_call(std::move(parts), pos);
  auto ref = node<ColumnRefExpr>(pos);
  ref->parts = std::move(parts);
  return ExprPtr(std::move(ref));
}

Result<TypePtr> Parser::type() {
  DepthGuard guard(*this);
  FLOE_TRY(enter(peek()));
  const Token& t = peek();
  if (t.kind != TokenKind::kWord) return error_expected("a type name");
  auto ty = std::make_unique<TypeName>();
  ty->pos = t.pos;
  ty->spelling = std::string(t.text);
  std::string w(t.text);
  for (char& c : w) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  struct Simple {
    std::string_view name;
    TypeKind kind;
  };
  static constexpr Simple kSimple[] = {
      {"BOOLEAN", TypeKind::kBoolean},
      {"BOOL", TypeKind::kBoolean},
      {"TINYINT", TypeKind::kTinyint},
      {"BYTE", TypeKind::kTinyint},
      {"SMALLINT", TypeKind::kSmallint},
      {"SHORT", TypeKind::kSmallint},
      {"INT", TypeKind::kInt},
      {"INTEGER", TypeKind::kInt},
      {"BIGINT", TypeKind::kBigint},
      {"LONG", TypeKind::kBigint},
      {"FLOAT", TypeKind::kFloat},
      {"REAL", TypeKind::kFloat},
      {"DOUBLE", TypeKind::kDouble},
      {"STRING", TypeKind::kString},
      {"BINARY", TypeKind::kBinary},
      {"DATE", TypeKind::kDate},
      {"TIMESTAMP", TypeKind::kTimestamp},
      {"TIMESTAMP_NTZ", TypeKind::kTimestampNtz},
      {"TIMESTAMP_LTZ", TypeKind::kTimestampLtz},
      {"UUID", TypeKind::kUuid},
      {"TIME", TypeKind::kTime},
  };
  for (const auto& s : kSimple) {
    if (w == s.name) {
      advance();
      ty->kind = s.kind;
      if (ty->kind == TypeKind::kDouble) accept_kw("PRECISION");
      return ty;
    }
  }
  if (w == "DECIMAL" || w == "DEC" || w == "NUMERIC") {
    advance();
    ty->kind = TypeKind::kDecimal;
    if (accept_sym("(")) {
      ty->precision = static_cast<int32_t>(FLOE_TRY(integer_literal("a decimal precision")));
      if (accept_sym(",")) {
        ty->scale = static_cast<int32_t>(FLOE_TRY(integer_literal("a decimal scale")));
      }
      FLOE_TRY(expect_sym(")"));
    }
    return ty;
  }
  if (w == "VARCHAR" || w == "CHAR" || w == "CHARACTER") {
    advance();
    ty->kind = w == "VARCHAR" ? TypeKind::kVarchar : TypeKind::kChar;
    FLOE_TRY(expect_sym("("));
    ty->length = static_cast<int32_t>(FLOE_TRY(integer_literal("a length")));
    FLOE_TRY(expect_sym(")"));
    return ty;
  }
  if (w == "ARRAY") {
    advance();
    ty->kind = TypeKind::kArray;
    FLOE_TRY(expect_sym("<"));
    ty->element = FLOE_TRY(type());
    FLOE_TRY(expect_sym(">"));
    return ty;
  }
  if (w == "MAP") {
    advance();
    ty->kind = TypeKind::kMap;
    FLOE_TRY(expect_sym("<"));
    ty->key = FLOE_TRY(type());
    FLOE_TRY(expect_sym(","));
    ty->value = FLOE_TRY(type());
    FLOE_TRY(expect_sym(">"));
    return ty;
  }
  if (w == "STRUCT") {
    advance();
    ty->kind = TypeKind::kStruct;
    FLOE_TRY(expect_sym("<"));
    if (!accept_sym(">")) {
      do {
        StructField f;
        f.pos = peek().pos;
        f.name = FLOE_TRY(any_identifier("a field name"));
        accept_sym(":");
        f.type = FLOE_TRY(type());
        if (is_kw("NOT") && is_kw("NULL", 1)) {
          pos_ += 2;
          f.not_null = true;
        }
        if (accept_kw("COMMENT")) f.comment = FLOE_TRY(string_literal("a comment string"));
        ty->fields.push_back(std::move(f));
      } while (accept_sym(","));
      FLOE_TRY(expect_sym(">"));
    }
    return ty;
  }
  return error_at(t, "unknown type name");
}

}  // namespace floe::sql::internal
