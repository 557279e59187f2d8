// WHERE-clause pushdown: the conjuncts of a SQL filter that an Iceberg scan can plan with, as
// floe expressions (top-level primitive columns compared with literals).
#include <fmt/format.h>

#include "floe/expr/expression.h"
#include "floe/util/decimal.h"
#include "floe/util/strings.h"
#include "sql/binder/binder_internal.h"

namespace floe::sql {

namespace {

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

// A literal usable against a column of `type` without changing the comparison's meaning.
std::optional<Literal> pushable_literal(const ast::Expr& e, const Type& type) {
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
      return std::nullopt;
    case ast::LiteralKind::kString:
      if (t == TypeId::kString) return Literal::string(lit.text);
      return cast_string(lit.text, type);
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

// The Iceberg expression for one conjunct, or null when it cannot be pushed exactly.
floe::ExprPtr convert(const ast::Expr& e, const Schema& schema, const std::vector<std::string>& q) {
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::kBinary: {
      const auto& b = e.as<ast::BinaryExpr>();
      if (b.op == ast::BinaryOp::kAnd || b.op == ast::BinaryOp::kOr) {
        floe::ExprPtr l = convert(*b.left, schema, q);
        floe::ExprPtr r = convert(*b.right, schema, q);
        if (!l || !r) return nullptr;
        return b.op == ast::BinaryOp::kAnd ? make_and(l, r) : make_or(l, r);
      }
      Operation op = comparison_of(b.op);
      if (op == Operation::kTrue) return nullptr;
      const ast::Expr* col = b.left.get();
      const ast::Expr* val = b.right.get();
      if (col->kind != K::kColumnRef) {
        std::swap(col, val);
        op = flip(op);
      }
      auto name = pushable_column(*col, schema, q);
      if (!name) return nullptr;
      auto v = pushable_literal(*val, *schema.find_field(*name, false)->type);
      if (!v) return nullptr;
      return make_predicate(op, *name, {*v});
    }
    case K::kIsNull: {
      const auto& n = e.as<ast::IsNullExpr>();
      auto name = pushable_column(*n.operand, schema, q);
      if (!name) return nullptr;
      return make_predicate(n.negated ? Operation::kNotNull : Operation::kIsNull, *name);
    }
    case K::kInList: {
      const auto& in = e.as<ast::InListExpr>();
      auto name = pushable_column(*in.operand, schema, q);
      if (!name) return nullptr;
      const Type& type = *schema.find_field(*name, false)->type;
      std::vector<Literal> values;
      for (const auto& item : in.list) {
        auto v = pushable_literal(*item, type);
        if (!v) return nullptr;
        values.push_back(*v);
      }
      return make_predicate(in.negated ? Operation::kNotIn : Operation::kIn, *name, values);
    }
    case K::kBetween: {
      const auto& b = e.as<ast::BetweenExpr>();
      if (b.negated) return nullptr;
      auto name = pushable_column(*b.operand, schema, q);
      if (!name) return nullptr;
      const Type& type = *schema.find_field(*name, false)->type;
      auto lo = pushable_literal(*b.low, type);
      auto hi = pushable_literal(*b.high, type);
      if (!lo || !hi) return nullptr;
      return make_and(make_predicate(Operation::kGtEq, *name, {*lo}),
                      make_predicate(Operation::kLtEq, *name, {*hi}));
    }
    case K::kLike: {
      // LIKE 'abc%' (no other wildcard or escape) is STARTS WITH 'abc'.
      const auto& l = e.as<ast::LikeExpr>();
      if (l.op != ast::LikeOp::kLike || l.negated) return nullptr;
      auto name = pushable_column(*l.operand, schema, q);
      if (!name || l.pattern->kind != K::kLiteral) return nullptr;
      const auto& pat = l.pattern->as<ast::LiteralExpr>();
      if (pat.literal_kind != ast::LiteralKind::kString) return nullptr;
      const std::string& p = pat.text;
      if (p.size() < 2 || p.back() != '%') return nullptr;
      std::string prefix = p.substr(0, p.size() - 1);
      if (prefix.find_first_of("%_\\") != std::string::npos) return nullptr;
      if (schema.find_field(*name, false)->type->id() != TypeId::kString) return nullptr;
      return make_predicate(Operation::kStartsWith, *name, {Literal::string(prefix)});
    }
    default:
      return nullptr;
  }
}

}  // namespace

floe::ExprPtr pushdown_filter(const ast::Expr& where, const Schema& schema,
                              const std::vector<std::string>& qualifiers) {
  std::vector<const ast::Expr*> parts;
  split_conjuncts(where, &parts);
  floe::ExprPtr out;
  for (const ast::Expr* p : parts) {
    floe::ExprPtr e = convert(*p, schema, qualifiers);
    if (!e) continue;
    // Keep only what binds cleanly (literal conversions that could change meaning fail).
    if (!bind_expression(e, schema, false).ok()) continue;
    out = out ? make_and(out, e) : e;
  }
  return out;
}

}  // namespace floe::sql
