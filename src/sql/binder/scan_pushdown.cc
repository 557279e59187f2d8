// WHERE-clause pushdown: the conjuncts of a SQL filter that an Iceberg scan can plan with, as
// floe expressions (top-level primitive columns compared with literals); and the whole-filter
// conversion behind floe/sql/filter.h, which must convert every predicate exactly.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "floe/expr/expression.h"
#include "floe/util/decimal.h"
#include "floe/util/strings.h"
#include "sql/binder/binder_internal.h"

namespace floe::sql {

namespace {

// IN lists longer than this are pushed down as their range (Iceberg's own limit on the values
// of a set predicate its metrics evaluators check).
constexpr size_t kLongInList = 200;

// The column a reference names in `schema`, if it is a top-level column (optionally qualified).
std::optional<std::string> pushable_column(const ast::Expr& e, const Schema& schema,
                                           const std::vector<std::string>& qualifiers) {
  if (e.kind != ast::ExprKind::kColumnRef) return std::nullopt;
  const auto& parts = e.as<ast::ColumnRefExpr>().parts;
  std::string name;
  if (parts.size() == 1) {
    name = parts[0];
  } else if (parts.size() == 2) {
    bool known = false;
    for (const auto& q : qualifiers) known = known || iequals(q, parts[0]);
    if (!known) return std::nullopt;
    name = parts[1];
  } else {
    return std::nullopt;
  }
  const NestedField* f = schema.find_field(name, false);
  if (!f || schema.parent_id(f->id) || !f->type->is_primitive()) return std::nullopt;
  return f->name;
}

// A string cast to a date or timestamp column's type the way the comparison itself casts it.
std::optional<Literal> cast_string(const std::string& text, const Type& type) {
  TypePtr target = type.id() == TypeId::kDate          ? Type::date()
                   : type.id() == TypeId::kTimestamp   ? Type::timestamp()
                   : type.id() == TypeId::kTimestampTz ? Type::timestamptz()
                                                       : nullptr;
  if (!target) return std::nullopt;
  auto s = literal(Literal::string(text));
  if (!s.ok()) return std::nullopt;
  auto c = cast(*s, target);
  if (!c.ok()) return std::nullopt;
  auto v = evaluate_constant(**c);
  if (!v.ok() || v->is_null()) return std::nullopt;
  return *v;
}

std::optional<Literal> double_literal(const std::string& text);

// A literal usable against a column of `type` without changing the comparison's meaning.
// `whole` (a whole filter) also takes double literals and decimals against double columns,
// which Spark compares as doubles too.
std::optional<Literal> pushable_literal(const ast::Expr& e, const Type& type, bool whole) {
  if (e.kind != ast::ExprKind::kLiteral) return std::nullopt;
  const auto& lit = e.as<ast::LiteralExpr>();
  const TypeId t = type.id();
  const bool integral = t == TypeId::kInt || t == TypeId::kLong;
  const bool floating = t == TypeId::kFloat || t == TypeId::kDouble;
  switch (lit.literal_kind) {
    case ast::LiteralKind::kInteger:
      if (!lit.int_value) return std::nullopt;
      if (integral) return Literal::int64(*lit.int_value);
      if (floating && std::llabs(*lit.int_value) < (int64_t{1} << 53)) {
        return Literal::float64(static_cast<double>(*lit.int_value));
      }
      if (t == TypeId::kDecimal) {
        auto v = parse_decimal(lit.text, type.scale());
        if (v.ok()) return Literal::decimal(*v, type.precision(), type.scale());
      }
      return std::nullopt;
    case ast::LiteralKind::kDecimal:
      if (t == TypeId::kDecimal && !lit.suffix) {
        auto v = parse_decimal(lit.text, type.scale());
        if (v.ok()) return Literal::decimal(*v, type.precision(), type.scale());
      }
      if (whole && t == TypeId::kDouble) return double_literal(lit.text);
      return std::nullopt;
    case ast::LiteralKind::kDouble:
      if (whole && t == TypeId::kDouble && lit.suffix != 'F') return double_literal(lit.text);
      return std::nullopt;
    case ast::LiteralKind::kString: {
      if (t == TypeId::kString) return Literal::string(lit.text);
      std::optional<Literal> v = cast_string(lit.text, type);
      // A whole filter keeps any other string as is: binding converts it to the column's type
      // (Iceberg's literal conversion, e.g. '12.30' to decimal) or names it when it cannot.
      if (!v && whole) return Literal::string(lit.text);
      return v;
    }
    case ast::LiteralKind::kDate:
    case ast::LiteralKind::kTimestamp:
    case ast::LiteralKind::kTimestampNtz: {
      // A typed literal compares in the wider of the two types; push only same-kind pairs.
      bool date = lit.literal_kind == ast::LiteralKind::kDate;
      if (date && t != TypeId::kDate) return std::nullopt;
      if (!date && t != TypeId::kTimestamp && t != TypeId::kTimestampTz) return std::nullopt;
      if (lit.literal_kind == ast::LiteralKind::kTimestampNtz && t != TypeId::kTimestamp) {
        return std::nullopt;
      }
      return cast_string(lit.text, type);
    }
    case ast::LiteralKind::kBoolean:
      if (t == TypeId::kBoolean) return Literal::boolean(lit.bool_value);
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

std::optional<Literal> double_literal(const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return Literal::float64(v);
}

Operation comparison_of(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::kEq:
      return Operation::kEq;
    case ast::BinaryOp::kNotEq:
      return Operation::kNotEq;
    case ast::BinaryOp::kLt:
      return Operation::kLt;
    case ast::BinaryOp::kLtEq:
      return Operation::kLtEq;
    case ast::BinaryOp::kGt:
      return Operation::kGt;
    case ast::BinaryOp::kGtEq:
      return Operation::kGtEq;
    default:
      return Operation::kTrue;
  }
}

// Converts SQL predicates to Iceberg expressions. A pushdown converts only what it can plan
// with (LIKE 'prefix%' and startswith(col, 'prefix') both become STARTS WITH); a whole filter
// (`whole`) also converts NOT, isnan(col), TRUE / FALSE, NOT BETWEEN and NOT LIKE, and remembers
// the first predicate it could not convert and why.
struct Converter {
  Converter(const Schema& schema, const std::vector<std::string>& q, bool whole = false)
      : schema(schema), q(q), whole(whole) {}

  const Schema& schema;
  const std::vector<std::string>& q;
  bool whole = false;
  const ast::Expr* failed = nullptr;
  std::string why;

  floe::ExprPtr fail(const ast::Expr& e, std::string reason) {
    if (!failed) {
      failed = &e;
      why = std::move(reason);
    }
    return nullptr;
  }

  std::optional<std::string> column(const ast::Expr& e) {
    auto name = pushable_column(e, schema, q);
    if (!name && whole) {
      if (e.kind == ast::ExprKind::kColumnRef) {
        fail(e, fmt::format("no top-level primitive column '{}' in the table",
                            fmt::join(e.as<ast::ColumnRefExpr>().parts, ".")));
      } else {
        fail(e, "expected a column");
      }
    }
    return name;
  }

  std::optional<Literal> value(const ast::Expr& e, const Type& type) {
    auto v = pushable_literal(e, type, whole);
    if (!v && whole) {
      if (e.kind == ast::ExprKind::kLiteral &&
          e.as<ast::LiteralExpr>().literal_kind == ast::LiteralKind::kNull) {
        fail(e, "comparison with NULL is never true; use IS NULL or IS NOT NULL");
      } else {
        fail(e, fmt::format("expected a value of type {} that converts exactly", type.to_string()));
      }
    }
    return v;
  }

  // startswith(str, prefix) / starts_with: Spark's StartsWith, true when str begins with
  // prefix (NULL when either is NULL, so a NULL row never passes a WHERE clause, as with
  // Iceberg's startsWith).
  static bool is_starts_with(const ast::FunctionExpr& f) {
    return f.name.size() == 1 && f.args.size() == 2 && !f.distinct &&
           (iequals(f.name[0], "startswith") || iequals(f.name[0], "starts_with"));
  }

  // A string column starting with a constant string: Iceberg's STARTS WITH, as LIKE 'prefix%'
  // is. Anything else (a column prefix, a binary column, a NULL prefix) is not converted.
  floe::ExprPtr starts_with(const ast::Expr& e, const ast::Expr& operand, const ast::Expr& prefix) {
    auto name = column(operand);
    if (!name) return nullptr;
    if (schema.find_field(*name, false)->type->id() != TypeId::kString) {
      return fail(e, "startswith needs a string column");
    }
    if (prefix.kind != ast::ExprKind::kLiteral ||
        prefix.as<ast::LiteralExpr>().literal_kind != ast::LiteralKind::kString) {
      return fail(e, "only startswith(column, 'prefix') with a constant string converts");
    }
    return make_predicate(Operation::kStartsWith, *name,
                          {Literal::string(prefix.as<ast::LiteralExpr>().text)});
  }

  // The Iceberg expression for one predicate, or null when it cannot be converted exactly.
  floe::ExprPtr convert(const ast::Expr& e) {
    using K = ast::ExprKind;
    switch (e.kind) {
      case K::kBinary: {
        const auto& b = e.as<ast::BinaryExpr>();
        if (b.op == ast::BinaryOp::kAnd || b.op == ast::BinaryOp::kOr) {
          floe::ExprPtr l = convert(*b.left);
          if (!l) return nullptr;
          floe::ExprPtr r = convert(*b.right);
          if (!r) return nullptr;
          return b.op == ast::BinaryOp::kAnd ? make_and(l, r) : make_or(l, r);
        }
        Operation op = comparison_of(b.op);
        if (op == Operation::kTrue) return fail(e, "unsupported operator");
        const ast::Expr* col = b.left.get();
        const ast::Expr* val = b.right.get();
        if (col->kind != K::kColumnRef) {
          std::swap(col, val);
          op = flip(op);
        }
        if (col->kind != K::kColumnRef) return fail(e, "expected a column compared with a literal");
        auto name = column(*col);
        if (!name) return nullptr;
        auto v = value(*val, *schema.find_field(*name, false)->type);
        if (!v) return nullptr;
        return make_predicate(op, *name, {*v});
      }
      case K::kIsNull: {
        const auto& n = e.as<ast::IsNullExpr>();
        auto name = column(*n.operand);
        if (!name) return nullptr;
        return make_predicate(n.negated ? Operation::kNotNull : Operation::kIsNull, *name);
      }
      case K::kInList: {
        const auto& in = e.as<ast::InListExpr>();
        auto name = column(*in.operand);
        if (!name) return nullptr;
        const Type& type = *schema.find_field(*name, false)->type;
        std::vector<Literal> values;
        values.reserve(in.list.size());
        for (const auto& item : in.list) {
          auto v = value(*item, type);
          if (!v) return nullptr;
          values.push_back(*v);
        }
        // A long list prunes no better than its range (the metrics evaluators give up on sets
        // over kInPredicateLimit values), and binding a long set costs time: a pushdown plans
        // with min <= x <= max (or nothing for NOT IN) and the filter above the scan applies
        // the list itself. The whole-filter conversion keeps the list.
        if (!whole && values.size() > kLongInList) {
          if (in.negated) return nullptr;
          auto [lo, hi] = std::minmax_element(
              values.begin(), values.end(),
              [](const Literal& a, const Literal& b) { return a.compare(b) < 0; });
          return make_and(make_predicate(Operation::kGtEq, *name, {*lo}),
                          make_predicate(Operation::kLtEq, *name, {*hi}));
        }
        return make_predicate(in.negated ? Operation::kNotIn : Operation::kIn, *name, values);
      }
      case K::kBetween: {
        const auto& b = e.as<ast::BetweenExpr>();
        if (b.negated && !whole) return nullptr;
        auto name = column(*b.operand);
        if (!name) return nullptr;
        const Type& type = *schema.find_field(*name, false)->type;
        auto lo = value(*b.low, type);
        if (!lo) return nullptr;
        auto hi = value(*b.high, type);
        if (!hi) return nullptr;
        floe::ExprPtr range = make_and(make_predicate(Operation::kGtEq, *name, {*lo}),
                                       make_predicate(Operation::kLtEq, *name, {*hi}));
        return b.negated ? make_not(range) : range;
      }
      case K::kLike: {
        // LIKE 'abc%' (no other wildcard or escape) is STARTS WITH 'abc'.
        const auto& l = e.as<ast::LikeExpr>();
        if (l.op != ast::LikeOp::kLike || (l.negated && !whole) || (whole && l.escape)) {
          return fail(e, "only [NOT] LIKE 'prefix%' converts");
        }
        auto name = column(*l.operand);
        if (!name) return nullptr;
        if (l.pattern->kind != K::kLiteral) return fail(e, "only [NOT] LIKE 'prefix%' converts");
        const auto& pat = l.pattern->as<ast::LiteralExpr>();
        if (pat.literal_kind != ast::LiteralKind::kString) {
          return fail(e, "only [NOT] LIKE 'prefix%' converts");
        }
        const std::string& p = pat.text;
        if (p.size() < 2 || p.back() != '%') return fail(e, "only [NOT] LIKE 'prefix%' converts");
        std::string prefix = p.substr(0, p.size() - 1);
        if (prefix.find_first_of("%_\\") != std::string::npos) {
          return fail(e, "only [NOT] LIKE 'prefix%' converts");
        }
        if (schema.find_field(*name, false)->type->id() != TypeId::kString) {
          return fail(e, "LIKE needs a string column");
        }
        return make_predicate(l.negated ? Operation::kNotStartsWith : Operation::kStartsWith, *name,
                              {Literal::string(prefix)});
      }
      case K::kUnary: {
        const auto& u = e.as<ast::UnaryExpr>();
        if (!whole || u.op != ast::UnaryOp::kNot) return fail(e, "not a predicate");
        floe::ExprPtr c = convert(*u.operand);
        return c ? make_not(c) : nullptr;
      }
      case K::kFunction: {
        const auto& f = e.as<ast::FunctionExpr>();
        if (is_starts_with(f)) return starts_with(e, *f.args[0], *f.args[1]);
        if (!whole || f.name.size() != 1 || !iequals(f.name[0], "isnan") || f.args.size() != 1 ||
            f.distinct) {
          return fail(e,
                      "only the functions isnan(column) and startswith(column, 'prefix') convert");
        }
        auto name = column(*f.args[0]);
        if (!name) return nullptr;
        return make_predicate(Operation::kIsNan, *name);
      }
      case K::kLiteral: {
        const auto& lit = e.as<ast::LiteralExpr>();
        if (!whole || lit.literal_kind != ast::LiteralKind::kBoolean) {
          return fail(e, "not a predicate");
        }
        return lit.bool_value ? always_true() : always_false();
      }
      default:
        return fail(e, "not a predicate an Iceberg filter can express");
    }
  }
};

}  // namespace

floe::ExprPtr pushdown_filter(const ast::Expr& where, const Schema& schema,
                              const std::vector<std::string>& qualifiers) {
  std::vector<const ast::Expr*> parts;
  split_conjuncts(where, &parts);
  floe::ExprPtr out;
  for (const ast::Expr* p : parts) {
    Converter converter(schema, qualifiers);
    floe::ExprPtr e = converter.convert(*p);
    if (!e) continue;
    // Keep only what binds cleanly (literal conversions that could change meaning fail).
    if (!bind_expression(e, schema, false).ok()) continue;
    out = out ? make_and(out, e) : e;
  }
  return out;
}

Result<floe::ExprPtr> filter_expression(const ast::Expr& where, const Schema& schema) {
  static const std::vector<std::string> kNoQualifiers;
  Converter converter(schema, kNoQualifiers, /*whole=*/true);
  floe::ExprPtr e = converter.convert(where);
  if (!e) {
    const ast::Expr& bad = converter.failed ? *converter.failed : where;
    return invalid_argument(
        "filter predicate at {}:{} cannot be converted to an Iceberg filter: {} ({})", bad.pos.line,
        bad.pos.column, ast::to_string(bad), converter.why);
  }
  return e;
}

}  // namespace floe::sql
