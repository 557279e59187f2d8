// Binding SQL expressions: names to columns, literals to typed values, functions and operators
// to the scalar functions of sql/exec/bound_expr_internal.h, aggregates to their computed columns.
#include <fmt/format.h>

#include "floe/spec/metadata_columns.h"
#include "floe/util/decimal.h"
#include "floe/util/strings.h"
#include "sql/binder/aggregate_binder_internal.h"
#include "sql/binder/binder_internal.h"

namespace floe::sql {

Scope Scope::of(const std::vector<NestedField>& fields, const std::string& qualifier) {
  Scope s;
  for (size_t i = 0; i < fields.size(); ++i) {
    s.columns.push_back({qualifier, fields[i].name, fields[i].type, static_cast<int>(i), false,
                         find_metadata_column(fields[i].id) != nullptr});
  }
  return s;
}

std::vector<std::string> Scope::names() const {
  std::vector<std::string> out;
  for (const auto& c : columns) out.push_back(c.name);
  return out;
}

namespace {

// Function name without a `system.` / `catalog.system.` prefix, lower-case.
std::string function_name(const std::vector<std::string>& parts) { return to_lower(parts.back()); }

}  // namespace

Result<BoundExprPtr> Binder::bind(const ast::Expr& expr, const Scope& scope) {
  return bind_expr(expr, scope, nullptr);
}

Result<BoundExprPtr> Binder::bind_column(const ast::ColumnRefExpr& ref, const Scope& scope) {
  const auto& parts = ref.parts;
  // Qualified: t.col[.field...]
  const ScopeColumn* found = nullptr;
  size_t used = 0;
  if (parts.size() >= 2) {
    for (const auto& c : scope.columns) {
      if (!c.qualifier.empty() && iequals(c.qualifier, parts[0]) && iequals(c.name, parts[1])) {
        found = &c;
        used = 2;
        break;
      }
    }
  }
  if (!found) {
    for (const auto& c : scope.columns) {
      if (c.hidden || !iequals(c.name, parts[0])) continue;
      if (found && found->qualifier != c.qualifier) {
        return error_at(ref.pos, fmt::format("column reference '{}' is ambiguous ({}.{} or {}.{})",
                                             dotted_name(parts), found->qualifier, found->name,
                                             c.qualifier, c.name));
      }
      if (!found) found = &c;
      used = 1;
    }
  }
  if (!found) {
    std::string names;
    for (const auto& c : scope.columns) {
      if (c.hidden || c.metadata) continue;
      names +=
          (names.empty() ? "" : ", ") + (c.qualifier.empty() ? c.name : c.qualifier + "." + c.name);
    }
    return error_at(ref.pos, fmt::format("cannot resolve column '{}' (available: {})",
                                         dotted_name(parts), names.empty() ? "none" : names));
  }
  BoundExprPtr out = FLOE_TRY(column(found->index, found->type));
  for (size_t i = used; i < parts.size(); ++i) {
    if (!out->type->is_struct()) {
      return error_at(ref.pos, fmt::format("'{}' is not a struct; cannot select field '{}'",
                                           dotted_name(parts), parts[i]));
    }
    out = FLOE_TRY_CTX(field(out, parts[i]), position_text(ref.pos));
  }
  return out;
}

Result<BoundExprPtr> Binder::bind_literal(const ast::LiteralExpr& lit) {
  using K = ast::LiteralKind;
  switch (lit.literal_kind) {
    case K::kNull:
      return literal(Literal::null(Type::unknown()));
    case K::kBoolean:
      return literal(Literal::boolean(lit.bool_value));
    case K::kInteger: {
      if (lit.int_value) {
        int64_t v = *lit.int_value;
        if (lit.suffix != 'L' && v >= INT32_MIN && v <= INT32_MAX) {
          return literal(Literal::int32(static_cast<int32_t>(v)));
        }
        return literal(Literal::int64(v));
      }
      int128_t unscaled = FLOE_TRY_CTX(parse_decimal(lit.text, 0), position_text(lit.pos));
      return literal(Literal::decimal(unscaled, static_cast<int>(lit.text.size()), 0));
    }
    case K::kDecimal: {
      std::string text = lit.text;
      if (lit.suffix == 'D' || lit.suffix == 'F') {
        double v = std::strtod(text.c_str(), nullptr);
        return literal(lit.suffix == 'F' ? Literal::float32(static_cast<float>(v))
                                         : Literal::float64(v));
      }
      size_t dot = text.find('.');
      int scale = dot == std::string::npos ? 0 : static_cast<int>(text.size() - dot - 1);
      int digits = 0;
      bool leading = true;
      for (char c : text) {
        if (c < '0' || c > '9') continue;
        if (leading && c == '0') continue;
        leading = false;
        ++digits;
      }
      // Digits before the point that are zeros still count once ("0.5" is decimal(1,1)).
      int precision = std::max({digits, scale, 1});
      if (precision > 38) return literal(Literal::float64(std::strtod(text.c_str(), nullptr)));
      int128_t unscaled = FLOE_TRY_CTX(parse_decimal(text, scale), position_text(lit.pos));
      return literal(Literal::decimal(unscaled, precision, scale));
    }
    case K::kDouble: {
      double v = std::strtod(lit.text.c_str(), nullptr);
      if (lit.suffix == 'F') return literal(Literal::float32(static_cast<float>(v)));
      return literal(Literal::float64(v));
    }
    case K::kString:
      return literal(Literal::string(lit.text));
    case K::kBinary:
      return literal(Literal::binary(lit.text));
    case K::kDate: {
      auto s = FLOE_TRY(literal(Literal::string(lit.text)));
      auto out = FLOE_TRY(cast(s, Type::date()));
      Literal v = FLOE_TRY(evaluate_constant(*out));
      if (v.is_null()) return error_at(lit.pos, fmt::format("invalid date '{}'", lit.text));
      return literal(v);
    }
    case K::kTimestamp:
    case K::kTimestampNtz: {
      TypePtr t = lit.literal_kind == K::kTimestamp ? Type::timestamptz() : Type::timestamp();
      auto s = FLOE_TRY(literal(Literal::string(lit.text)));
      auto out = FLOE_TRY(cast(s, t));
      Literal v = FLOE_TRY(evaluate_constant(*out));
      if (v.is_null()) return error_at(lit.pos, fmt::format("invalid timestamp '{}'", lit.text));
      return literal(v);
    }
    case K::kInterval:
      return error_at(lit.pos,
                      "an INTERVAL can only be added to or subtracted from a date or "
                      "timestamp");
  }
  return error_at(lit.pos, "unsupported literal");
}

namespace {

// INTERVAL literal parts as months, days and microseconds.
Status interval_parts(const ast::LiteralExpr& lit, int32_t* months, int32_t* days,
                      int64_t* micros) {
  *months = 0;
  *days = 0;
  *micros = 0;
  for (const auto& part : lit.interval) {
    std::string value = part.value;
    std::string unit = part.unit;
    if (unit.empty()) {
      // '1 day' style: value and unit inside the string.
      size_t space = value.find(' ');
      if (space == std::string::npos) {
        return error_at(lit.pos, fmt::format("interval '{}' has no unit", value));
      }
      unit = to_upper(trim(std::string_view(value).substr(space + 1)));
      value = value.substr(0, space);
    }
    if (!unit.empty() && unit.back() == 'S') unit.pop_back();
    char* end = nullptr;
    double amount = std::strtod(value.c_str(), &end);
    if (end == value.c_str()) {
      return error_at(lit.pos, fmt::format("invalid interval value '{}'", value));
    }
    if (unit == "YEAR") {
      *months += static_cast<int32_t>(amount * 12);
    } else if (unit == "MONTH") {
      *months += static_cast<int32_t>(amount);
    } else if (unit == "WEEK") {
      *days += static_cast<int32_t>(amount * 7);
    } else if (unit == "DAY") {
      *days += static_cast<int32_t>(amount);
    } else if (unit == "HOUR") {
      *micros += static_cast<int64_t>(amount * 3600e6);
    } else if (unit == "MINUTE") {
      *micros += static_cast<int64_t>(amount * 60e6);
    } else if (unit == "SECOND") {
      *micros += static_cast<int64_t>(amount * 1e6);
    } else if (unit == "MILLISECOND") {
      *micros += static_cast<int64_t>(amount * 1e3);
    } else if (unit == "MICROSECOND") {
      *micros += static_cast<int64_t>(amount);
    } else {
      return error_at(lit.pos, fmt::format("unsupported interval unit '{}'", part.unit));
    }
  }
  return Status::OK();
}

const char* binary_function(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::kAdd:
      return "+";
    case ast::BinaryOp::kSubtract:
      return "-";
    case ast::BinaryOp::kMultiply:
      return "*";
    case ast::BinaryOp::kDivide:
      return "/";
    case ast::BinaryOp::kModulo:
      return "%";
    case ast::BinaryOp::kIntDivide:
      return "div";
    case ast::BinaryOp::kConcat:
      return "||";
    case ast::BinaryOp::kEq:
      return "=";
    case ast::BinaryOp::kNotEq:
      return "!=";
    case ast::BinaryOp::kLt:
      return "<";
    case ast::BinaryOp::kLtEq:
      return "<=";
    case ast::BinaryOp::kGt:
      return ">";
    case ast::BinaryOp::kGtEq:
      return ">=";
    case ast::BinaryOp::kNullSafeEq:
      return "<=>";
    default:
      return nullptr;
  }
}

bool is_interval(const ast::Expr& e) {
  return e.kind == ast::ExprKind::kLiteral &&
         e.as<ast::LiteralExpr>().literal_kind == ast::LiteralKind::kInterval;
}

}  // namespace

Result<BoundExprPtr> Binder::bind_expr(const ast::Expr& expr, const Scope& scope,
                                       const AggregateContext* agg) {
  if (internal::stack_low()) return error_at(expr.pos, std::string(internal::kTooDeep));
  if (agg) {
    // After GROUP BY: a grouping expression or an aggregate is a column of the aggregate's
    // output.
    std::optional<int> index = agg->lookup(expr);
    if (index) return column(*index, agg->type_of(*index));
  }
  using K = ast::ExprKind;
  switch (expr.kind) {
    case K::kLiteral:
      return bind_literal(expr.as<ast::LiteralExpr>());
    case K::kColumnRef: {
      if (agg) {
        const auto& ref = expr.as<ast::ColumnRefExpr>();
        // A column of the input that is not grouped: Spark's error.
        auto in_input = bind_column(ref, agg->input_scope);
        if (in_input.ok()) {
          return error_at(expr.pos, fmt::format("column '{}' must appear in the GROUP BY clause "
                                                "or be used in an aggregate function",
                                                dotted_name(ref.parts)));
        }
        return bind_column(ref, scope);
      }
      return bind_column(expr.as<ast::ColumnRefExpr>(), scope);
    }
    case K::kStar:
      return error_at(expr.pos, "'*' is only allowed in a SELECT list or count(*)");
    case K::kUnary: {
      const auto& u = expr.as<ast::UnaryExpr>();
      BoundExprPtr operand = FLOE_TRY(bind_expr(*u.operand, scope, agg));
      switch (u.op) {
        case ast::UnaryOp::kNot:
          return FLOE_TRY_CTX(not_(operand), position_text(expr.pos));
        case ast::UnaryOp::kNegate:
          return FLOE_TRY_CTX(call("negate", {operand}), position_text(expr.pos));
        case ast::UnaryOp::kPlus:
          return operand;
        case ast::UnaryOp::kBitNot:
          return error_at(expr.pos, "the ~ operator is not supported");
      }
      break;
    }
    case K::kBinary: {
      const auto& b = expr.as<ast::BinaryExpr>();
      if ((b.op == ast::BinaryOp::kAdd || b.op == ast::BinaryOp::kSubtract) &&
          (is_interval(*b.right) || is_interval(*b.left))) {
        const ast::Expr& value = is_interval(*b.right) ? *b.left : *b.right;
        const auto& lit = (is_interval(*b.right) ? *b.right : *b.left).as<ast::LiteralExpr>();
        if (b.op == ast::BinaryOp::kSubtract && is_interval(*b.left)) {
          return error_at(expr.pos, "cannot subtract a date or timestamp from an INTERVAL");
        }
        BoundExprPtr base = FLOE_TRY(bind_expr(value, scope, agg));
        int32_t months, days;
        int64_t micros;
        FLOE_TRY(interval_parts(lit, &months, &days, &micros));
        return FLOE_TRY_CTX(
            interval_add(base, months, days, micros, b.op == ast::BinaryOp::kSubtract),
            position_text(expr.pos));
      }
      BoundExprPtr left = FLOE_TRY(bind_expr(*b.left, scope, agg));
      BoundExprPtr right = FLOE_TRY(bind_expr(*b.right, scope, agg));
      if (b.op == ast::BinaryOp::kAnd)
        return FLOE_TRY_CTX(and_(left, right), position_text(expr.pos));
      if (b.op == ast::BinaryOp::kOr)
        return FLOE_TRY_CTX(or_(left, right), position_text(expr.pos));
      return FLOE_TRY_CTX(call(binary_function(b.op), {left, right}), position_text(expr.pos));
    }
    case K::kIsNull: {
      const auto& n = expr.as<ast::IsNullExpr>();
      return FLOE_TRY_CTX(is_null(FLOE_TRY(bind_expr(*n.operand, scope, agg)), n.negated),
                          position_text(expr.pos));
    }
    case K::kIsBool: {
      const auto& n = expr.as<ast::IsBoolExpr>();
      BoundExprPtr operand = FLOE_TRY(bind_expr(*n.operand, scope, agg));
      // x IS TRUE  ==  coalesce(x = true, false)
      BoundExprPtr eq =
          FLOE_TRY(call("<=>", {operand, FLOE_TRY(literal(Literal::boolean(n.value)))}));
      return n.negated ? FLOE_TRY(not_(eq)) : eq;
    }
    case K::kInList: {
      const auto& in = expr.as<ast::InListExpr>();
      BoundExprPtr operand = FLOE_TRY(bind_expr(*in.operand, scope, agg));
      std::vector<BoundExprPtr> list;
      for (const auto& e : in.list) list.push_back(FLOE_TRY(bind_expr(*e, scope, agg)));
      return FLOE_TRY_CTX(in_list(operand, std::move(list), in.negated), position_text(expr.pos));
    }
    case K::kInSubquery: {
      const auto& in = expr.as<ast::InSubqueryExpr>();
      BoundExprPtr operand = FLOE_TRY(bind_expr(*in.operand, scope, agg));
      std::vector<BoundExprPtr> list = FLOE_TRY(bind_subquery_list(*in.query));
      if (list.empty()) return literal(Literal::boolean(in.negated));
      return FLOE_TRY_CTX(in_list(operand, std::move(list), in.negated), position_text(expr.pos));
    }
    case K::kBetween: {
      const auto& b = expr.as<ast::BetweenExpr>();
      return FLOE_TRY_CTX(between(FLOE_TRY(bind_expr(*b.operand, scope, agg)),
                                  FLOE_TRY(bind_expr(*b.low, scope, agg)),
                                  FLOE_TRY(bind_expr(*b.high, scope, agg)), b.negated),
                          position_text(expr.pos));
    }
    case K::kLike: {
      const auto& l = expr.as<ast::LikeExpr>();
      LikeKind kind = l.op == ast::LikeOp::kLike    ? LikeKind::kLike
                      : l.op == ast::LikeOp::kILike ? LikeKind::kILike
                                                    : LikeKind::kRLike;
      char escape = l.escape && !l.escape->empty() ? (*l.escape)[0] : '\\';
      return FLOE_TRY_CTX(
          like(FLOE_TRY(bind_expr(*l.operand, scope, agg)),
               FLOE_TRY(bind_expr(*l.pattern, scope, agg)), l.negated, kind, escape),
          position_text(expr.pos));
    }
    case K::kExists: {
      const auto& e = expr.as<ast::ExistsExpr>();
      PlanPtr plan = FLOE_TRY(plan_query(*e.query));
      LimitNode limited(std::move(plan), 1, 0);
      ColumnBatch rows = FLOE_TRY(collect(limited, ctx_));
      bool exists = rows.num_rows > 0;
      return literal(Literal::boolean(e.negated ? !exists : exists));
    }
    case K::kScalarSubquery:
      return bind_subquery_value(*expr.as<ast::ScalarSubqueryExpr>().query);
    case K::kCase: {
      const auto& c = expr.as<ast::CaseExpr>();
      std::optional<BoundExprPtr> operand;
      if (c.operand) operand = FLOE_TRY(bind_expr(*c.operand, scope, agg));
      std::vector<BoundExprPtr> whens, thens;
      for (const auto& w : c.whens) {
        whens.push_back(FLOE_TRY(bind_expr(*w.condition, scope, agg)));
        thens.push_back(FLOE_TRY(bind_expr(*w.result, scope, agg)));
      }
      std::optional<BoundExprPtr> otherwise;
      if (c.else_result) otherwise = FLOE_TRY(bind_expr(*c.else_result, scope, agg));
      return FLOE_TRY_CTX(case_when(operand, std::move(whens), std::move(thens), otherwise),
                          position_text(expr.pos));
    }
    case K::kCast: {
      const auto& c = expr.as<ast::CastExpr>();
      BoundExprPtr operand = FLOE_TRY(bind_expr(*c.operand, scope, agg));
      TypePtr target = FLOE_TRY_CTX(iceberg_type(*c.type), position_text(c.type->pos));
      return FLOE_TRY_CTX(cast(operand, target, c.try_cast), position_text(expr.pos));
    }
    case K::kFunction:
      return bind_function(expr.as<ast::FunctionExpr>(), scope, agg);
    case K::kSubscript: {
      const auto& s = expr.as<ast::SubscriptExpr>();
      return FLOE_TRY_CTX(subscript(FLOE_TRY(bind_expr(*s.base, scope, agg)),
                                    FLOE_TRY(bind_expr(*s.index, scope, agg))),
                          position_text(expr.pos));
    }
    case K::kFieldAccess: {
      const auto& f = expr.as<ast::FieldAccessExpr>();
      return FLOE_TRY_CTX(field(FLOE_TRY(bind_expr(*f.base, scope, agg)), f.field),
                          position_text(expr.pos));
    }
  }
  return error_at(expr.pos, "unsupported expression");
}

Result<BoundExprPtr> Binder::bind_function(const ast::FunctionExpr& f, const Scope& scope,
                                           const AggregateContext* agg) {
  std::string name = function_name(f.name);
  if (f.name.size() > 1 && !iequals(f.name[f.name.size() - 2], "system")) {
    return error_at(f.pos, fmt::format("unknown function '{}'", dotted_name(f.name)));
  }
  if (is_aggregate_function(name)) {
    return error_at(f.pos, agg ? fmt::format("aggregate function '{}' cannot be nested", name)
                               : fmt::format("aggregate function '{}' is not allowed here "
                                             "(only in SELECT, HAVING and ORDER BY)",
                                             name));
  }
  if (f.distinct) return error_at(f.pos, fmt::format("DISTINCT is not valid for '{}'", name));
  std::vector<BoundExprPtr> args;
  for (const auto& a : f.args) {
    if (a->kind == ast::ExprKind::kStar) {
      return error_at(a->pos, fmt::format("'*' is not a valid argument of '{}'", name));
    }
    args.push_back(FLOE_TRY(bind_expr(*a, scope, agg)));
  }
  if (!is_scalar_function(name)) {
    return error_at(f.pos, fmt::format("unknown function '{}'", dotted_name(f.name)));
  }
  return FLOE_TRY_CTX(call(name, std::move(args)), position_text(f.pos));
}

Result<BoundExprPtr> Binder::bind_subquery_value(const ast::Query& q) {
  PlanPtr plan = FLOE_TRY(plan_query(q));
  if (plan->fields().size() != 1) {
    return error_at(q.pos, fmt::format("a scalar subquery must return one column, not {}",
                                       plan->fields().size()));
  }
  TypePtr type = plan->fields()[0].type;
  LimitNode limited(std::move(plan), 2, 0);
  ColumnBatch rows = FLOE_TRY(collect(limited, ctx_));
  if (rows.num_rows > 1) {
    return error_at(q.pos, "a scalar subquery returned more than one row");
  }
  if (rows.num_rows == 0) return literal(Literal::null(type));
  return literal(rows.columns[0]->literal_at(0));
}

Result<std::vector<BoundExprPtr>> Binder::bind_subquery_list(const ast::Query& q) {
  PlanPtr plan = FLOE_TRY(plan_query(q));
  if (plan->fields().size() != 1) {
    return error_at(
        q.pos, fmt::format("an IN subquery must return one column, not {}", plan->fields().size()));
  }
  DistinctNode distinct(std::move(plan));
  ColumnBatch rows = FLOE_TRY(collect(distinct, ctx_));
  std::vector<BoundExprPtr> out;
  out.reserve(rows.num_rows);
  for (int64_t i = 0; i < rows.num_rows; ++i) {
    out.push_back(FLOE_TRY(literal(rows.columns[0]->literal_at(i))));
  }
  return out;
}

}  // namespace floe::sql
