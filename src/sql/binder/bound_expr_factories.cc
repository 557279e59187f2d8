// Factories of bound expressions: type checking, Spark's implicit casts, constant folding,
// calls resolved through the function registry (sql/functions/registry.cc) and EXPLAIN text.
#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "floe/read/batch_ops.h"
#include "floe/util/decimal.h"
#include "sql/binder/binder_internal.h"
#include "sql/exec/bound_expr_internal.h"
#include "sql/functions/function_internal.h"
#include "sql/functions/like_matcher_internal.h"
#include "sql/parser/stack_guard_internal.h"

namespace floe::sql {

using namespace internal;

namespace {

std::shared_ptr<BoundExpr> new_node(ExprKind kind, TypePtr type) {
  auto e = std::make_shared<BoundExpr>();
  e->kind = kind;
  e->type = std::move(type);
  return e;
}

Status need(const BoundExprPtr& e, const char* what) {
  if (!e) return invalid_argument("{}: missing operand", what);
  if (!e->type) return invalid_argument("{}: operand has no type", what);
  return Status::OK();
}

bool all_literals(const std::vector<BoundExprPtr>& args) {
  for (const auto& a : args) {
    if (!a->is_literal()) return false;
  }
  return true;
}

// Replaces a node whose arguments are all literals by its value.
Result<BoundExprPtr> fold(std::shared_ptr<BoundExpr> e) {
  if (e->args.empty() || !all_literals(e->args)) return BoundExprPtr(e);
  if (e->kind == ExprKind::kCall && e->function && !e->function->deterministic) {
    return BoundExprPtr(e);
  }
  auto value = evaluate_constant(*e);
  if (!value.ok()) return BoundExprPtr(e);  // leave it to evaluation time
  return make_literal_expr(std::move(*value));
}

// Reads a type's decimal parameters, treating integral types as the decimal that holds them.
struct Dec {
  int p, s;
};
Dec dec_of(const Type& t) {
  switch (t.id()) {
    case TypeId::kInt:
      return {10, 0};
    case TypeId::kLong:
      return {20, 0};
    default:
      return {t.precision(), t.scale()};
  }
}

// Spark's DecimalType.adjustPrecisionScale.
TypePtr bounded_decimal(int precision, int scale) {
  if (precision <= 38) return Type::decimal(std::max(precision, 1), scale);
  int int_digits = precision - scale;
  int min_scale = std::min(scale, 6);
  int adjusted = std::max(38 - int_digits, min_scale);
  return Type::decimal(38, adjusted);
}

}  // namespace

// ----- type rules -------------------------------------------------------------------------------

namespace internal {

TypePtr decimal_for(const TypePtr& t) {
  if (t->id() == TypeId::kInt) return Type::decimal(10, 0);
  if (t->id() == TypeId::kLong) return Type::decimal(20, 0);
  return t;
}

Result<TypePtr> numeric_wider(const TypePtr& a, const TypePtr& b) {
  TypeId x = a->id(), y = b->id();
  if (!is_numeric(x) || !is_numeric(y)) {
    return invalid_argument("{} and {} are not both numeric", a->to_string(), b->to_string());
  }
  if (x == TypeId::kDouble || y == TypeId::kDouble) return Type::float64();
  if (x == TypeId::kFloat || y == TypeId::kFloat) {
    if (x == TypeId::kDecimal || y == TypeId::kDecimal) return Type::float64();
    return Type::float32();
  }
  if (x == TypeId::kDecimal || y == TypeId::kDecimal) {
    Dec da = dec_of(*a), db = dec_of(*b);
    int scale = std::max(da.s, db.s);
    int range = std::max(da.p - da.s, db.p - db.s);
    return Type::decimal(std::min(range + scale, 38), std::min(scale, 38));
  }
  if (x == TypeId::kLong || y == TypeId::kLong) return Type::int64();
  return Type::int32();
}

Result<TypePtr> comparison_type(const TypePtr& a, const TypePtr& b) {
  TypeId x = a->id(), y = b->id();
  if (same_type(a, b)) return a;
  if (x == TypeId::kUnknown) return b;
  if (y == TypeId::kUnknown) return a;
  if (is_numeric(x) && is_numeric(y)) return numeric_wider(a, b);
  if (x == TypeId::kString && b->is_primitive()) return b;
  if (y == TypeId::kString && a->is_primitive()) return a;
  if (is_datetime(x) && is_datetime(y)) return common_type(a, b);
  if ((x == TypeId::kBinary && y == TypeId::kFixed) ||
      (x == TypeId::kFixed && y == TypeId::kBinary)) {
    return Type::binary();
  }
  return invalid_argument("cannot compare {} with {}", a->to_string(), b->to_string());
}

bool can_cast(const Type& from, const Type& to) {
  TypeId f = from.id(), t = to.id();
  if (from.equals(to) || f == TypeId::kUnknown) return true;
  // Nested values cast member by member (struct fields by position), whatever their field ids.
  if (from.is_nested() || to.is_nested()) {
    if (f != t) return false;
    if (from.is_struct()) {
      if (from.fields().size() != to.fields().size()) return false;
      for (size_t i = 0; i < from.fields().size(); ++i) {
        if (!can_cast(*from.fields()[i].type, *to.fields()[i].type)) return false;
      }
      return true;
    }
    if (from.is_list()) return can_cast(*from.element().type, *to.element().type);
    return can_cast(*from.key().type, *to.key().type) &&
           can_cast(*from.value().type, *to.value().type);
  }
  if (t == TypeId::kString)
    return f != TypeId::kVariant && f != TypeId::kGeometry && f != TypeId::kGeography;
  if (f == TypeId::kString) {
    return t != TypeId::kUnknown && t != TypeId::kVariant && t != TypeId::kGeometry &&
           t != TypeId::kGeography;
  }
  bool fnum = is_numeric(f) || f == TypeId::kBoolean;
  bool tnum = is_numeric(t) || t == TypeId::kBoolean;
  if (fnum && tnum) return true;
  if (is_datetime(f) && is_datetime(t)) return true;
  if (is_timestamp(f) && tnum) return true;
  if (fnum && is_timestamp(t)) return true;
  if (f == TypeId::kTime && t == TypeId::kTime) return true;
  if ((f == TypeId::kBinary || f == TypeId::kFixed || f == TypeId::kUuid) &&
      (t == TypeId::kBinary || t == TypeId::kFixed)) {
    return true;
  }
  return false;
}

bool can_implicit_cast(const Type& from, const Type& to) {
  TypeId f = from.id(), t = to.id();
  if (from.equals(to) || f == TypeId::kUnknown) return true;
  if (is_numeric(f) && is_numeric(t)) return true;
  if (f == TypeId::kString) {
    return is_numeric(t) || is_datetime(t) || t == TypeId::kBinary || t == TypeId::kBoolean ||
           t == TypeId::kUuid;
  }
  if (t == TypeId::kString) {
    return from.is_primitive() && f != TypeId::kBinary && f != TypeId::kFixed &&
           f != TypeId::kVariant;
  }
  if (is_datetime(f) && is_datetime(t)) return true;
  if ((f == TypeId::kFixed || f == TypeId::kUuid) && t == TypeId::kBinary) return true;
  return false;
}

std::string arg_types_text(const std::vector<BoundExprPtr>& args) {
  std::string out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) out += ", ";
    out += args[i]->type->id() == TypeId::kUnknown ? "null" : args[i]->type->to_string();
  }
  return out;
}

Result<BoundExprPtr> make_literal_expr(Literal value) {
  auto e = new_node(ExprKind::kLiteral, value.type() ? value.type() : Type::unknown());
  e->scalar = FLOE_TRY(scalar_column(e->type, value));
  e->value = std::move(value);
  return BoundExprPtr(e);
}

Result<BoundExprPtr> coerce(const BoundExprPtr& expr, const TypePtr& type) {
  if (same_type(expr->type, type)) return expr;
  if (!can_implicit_cast(*expr->type, *type)) {
    return invalid_argument("cannot implicitly cast {} to {}", expr->type->to_string(),
                            type->to_string());
  }
  return cast(expr, type, false);
}

}  // namespace internal

Result<TypePtr> common_type(const TypePtr& a, const TypePtr& b) {
  if (!a || !b) return invalid_argument("common_type: missing type");
  if (same_type(a, b)) return a;
  TypeId x = a->id(), y = b->id();
  if (x == TypeId::kUnknown) return b;
  if (y == TypeId::kUnknown) return a;
  if (is_numeric(x) && is_numeric(y)) return numeric_wider(a, b);
  if (is_datetime(x) && is_datetime(y)) {
    if (x == TypeId::kDate) return b;
    if (y == TypeId::kDate) return a;
    bool ns = is_nanos(x) || is_nanos(y);
    bool tz = x == TypeId::kTimestampTz || y == TypeId::kTimestampTz ||
              x == TypeId::kTimestampTzNs || y == TypeId::kTimestampTzNs;
    if (ns) return tz ? Type::timestamptz_ns() : Type::timestamp_ns();
    return tz ? Type::timestamptz() : Type::timestamp();
  }
  if ((x == TypeId::kString && b->is_primitive() && y != TypeId::kBinary) ||
      (y == TypeId::kString && a->is_primitive() && x != TypeId::kBinary)) {
    return Type::string();
  }
  if ((x == TypeId::kBinary || x == TypeId::kFixed) &&
      (y == TypeId::kBinary || y == TypeId::kFixed)) {
    return Type::binary();
  }
  if (a->is_list() && b->is_list()) {
    auto e = FLOE_TRY(common_type(a->element().type, b->element().type));
    return Type::list_of(a->element().id, e, false);
  }
  if (a->is_map() && b->is_map()) {
    auto k = FLOE_TRY(common_type(a->key().type, b->key().type));
    auto v = FLOE_TRY(common_type(a->value().type, b->value().type));
    return Type::map_of(a->key().id, k, a->value().id, v, false);
  }
  if (a->is_struct() && b->is_struct() && a->fields().size() == b->fields().size()) {
    std::vector<NestedField> fields = a->fields();
    for (size_t i = 0; i < fields.size(); ++i) {
      const NestedField& other = b->fields()[i];
      if (!iequals(fields[i].name, other.name)) {
        return invalid_argument("incompatible types {} and {}", a->to_string(), b->to_string());
      }
      fields[i].type = FLOE_TRY(common_type(fields[i].type, other.type));
      fields[i].required = fields[i].required && other.required;
    }
    return Type::struct_of(std::move(fields));
  }
  return invalid_argument("incompatible types {} and {}", a->to_string(), b->to_string());
}

TypePtr decimal_add_type(const Type& a, const Type& b) {
  Dec da = dec_of(a), db = dec_of(b);
  int scale = std::max(da.s, db.s);
  int precision = std::max(da.p - da.s, db.p - db.s) + scale + 1;
  return bounded_decimal(precision, scale);
}

TypePtr decimal_multiply_type(const Type& a, const Type& b) {
  Dec da = dec_of(a), db = dec_of(b);
  return bounded_decimal(da.p + db.p + 1, da.s + db.s);
}

TypePtr decimal_divide_type(const Type& a, const Type& b) {
  Dec da = dec_of(a), db = dec_of(b);
  int scale = std::max(6, da.s + db.p + 1);
  int precision = da.p - da.s + db.s + scale;
  return bounded_decimal(precision, scale);
}

// ----- factories --------------------------------------------------------------------------------

Result<BoundExprPtr> column(int index, TypePtr type) {
  if (index < 0) return invalid_argument("column index {} is negative", index);
  if (!type) return invalid_argument("column #{} has no type", index);
  auto e = new_node(ExprKind::kColumn, std::move(type));
  e->column_index = index;
  return BoundExprPtr(e);
}

Result<BoundExprPtr> literal(Literal value) { return make_literal_expr(std::move(value)); }

Result<BoundExprPtr> cast(BoundExprPtr expr, TypePtr type, bool try_cast) {
  FLOE_TRY(need(expr, "CAST"));
  if (!type) return invalid_argument("CAST: no target type");
  if (same_type(expr->type, type)) return expr;
  if (!can_cast(*expr->type, *type)) {
    return invalid_argument("cannot cast {} to {}", expr->type->to_string(), type->to_string());
  }
  auto e = new_node(ExprKind::kCast, std::move(type));
  e->try_cast = try_cast;
  e->args.push_back(std::move(expr));
  return fold(e);
}

Result<BoundExprPtr> and_(BoundExprPtr left, BoundExprPtr right) {
  FLOE_TRY(need(left, "AND"));
  FLOE_TRY(need(right, "AND"));
  auto e = new_node(ExprKind::kAnd, Type::boolean());
  e->args.push_back(FLOE_TRY_CTX(coerce(left, Type::boolean()), "AND"));
  e->args.push_back(FLOE_TRY_CTX(coerce(right, Type::boolean()), "AND"));
  return fold(e);
}

Result<BoundExprPtr> or_(BoundExprPtr left, BoundExprPtr right) {
  FLOE_TRY(need(left, "OR"));
  FLOE_TRY(need(right, "OR"));
  auto e = new_node(ExprKind::kOr, Type::boolean());
  e->args.push_back(FLOE_TRY_CTX(coerce(left, Type::boolean()), "OR"));
  e->args.push_back(FLOE_TRY_CTX(coerce(right, Type::boolean()), "OR"));
  return fold(e);
}

Result<BoundExprPtr> not_(BoundExprPtr operand) {
  FLOE_TRY(need(operand, "NOT"));
  auto e = new_node(ExprKind::kNot, Type::boolean());
  e->args.push_back(FLOE_TRY_CTX(coerce(operand, Type::boolean()), "NOT"));
  return fold(e);
}

Result<BoundExprPtr> is_null(BoundExprPtr operand, bool negated) {
  FLOE_TRY(need(operand, "IS NULL"));
  auto e = new_node(ExprKind::kIsNull, Type::boolean());
  e->negated = negated;
  e->args.push_back(std::move(operand));
  return fold(e);
}

Result<BoundExprPtr> in_list(BoundExprPtr operand, std::vector<BoundExprPtr> list, bool negated) {
  FLOE_TRY(need(operand, "IN"));
  if (list.empty()) return invalid_argument("IN: empty list");
  TypePtr t = operand->type;
  for (const auto& item : list) {
    FLOE_TRY(need(item, "IN"));
    auto r = comparison_type(t, item->type);
    if (!r.ok()) {
      return invalid_argument("IN: cannot compare {} with {}", operand->type->to_string(),
                              item->type->to_string());
    }
    t = *r;
  }
  if (t->id() == TypeId::kUnknown) t = Type::boolean();
  if (t->is_nested()) return invalid_argument("IN over {} values", t->to_string());
  auto e = new_node(ExprKind::kInList, Type::boolean());
  e->negated = negated;
  e->args.push_back(FLOE_TRY_CTX(coerce(operand, t), "IN"));
  for (auto& item : list) e->args.push_back(FLOE_TRY_CTX(coerce(item, t), "IN"));
  if (e->args.size() > 9 && !e->args[0]->is_literal()) {
    e->state = build_in_set(t, std::vector<BoundExprPtr>(e->args.begin() + 1, e->args.end()));
  }
  return fold(e);
}

Result<BoundExprPtr> between(BoundExprPtr operand, BoundExprPtr low, BoundExprPtr high,
                             bool negated) {
  auto ge = FLOE_TRY(call(">=", {operand, std::move(low)}));
  auto le = FLOE_TRY(call("<=", {operand, std::move(high)}));
  auto both = FLOE_TRY(and_(std::move(ge), std::move(le)));
  return negated ? not_(std::move(both)) : both;
}

Result<BoundExprPtr> like(BoundExprPtr operand, BoundExprPtr pattern, bool negated, LikeKind kind,
                          char escape) {
  const char* what = kind == LikeKind::kLike    ? "LIKE"
                     : kind == LikeKind::kILike ? "ILIKE"
                                                : "RLIKE";
  FLOE_TRY(need(operand, what));
  FLOE_TRY(need(pattern, what));
  auto e = new_node(ExprKind::kLike, Type::boolean());
  e->negated = negated;
  e->like_kind = kind;
  e->escape = escape;
  e->args.push_back(FLOE_TRY_CTX(coerce(operand, Type::string()), what));
  e->args.push_back(FLOE_TRY_CTX(coerce(pattern, Type::string()), what));
  const auto& p = e->args[1];
  if (p->is_literal() && !p->value.is_null()) {
    auto m = FLOE_TRY(compile_pattern(p->value.as_bytes(), kind, escape));
    e->state = std::move(m);
  }
  return fold(e);
}

Result<BoundExprPtr> case_when(std::optional<BoundExprPtr> operand, std::vector<BoundExprPtr> whens,
                               std::vector<BoundExprPtr> thens,
                               std::optional<BoundExprPtr> else_expr) {
  if (whens.empty() || whens.size() != thens.size()) {
    return invalid_argument("CASE needs one THEN per WHEN and at least one WHEN");
  }
  bool has_operand = operand.has_value() && *operand;
  bool has_else = else_expr.has_value() && *else_expr;
  std::vector<BoundExprPtr> conds;
  for (auto& w : whens) {
    FLOE_TRY(need(w, "CASE"));
    if (has_operand) {
      conds.push_back(FLOE_TRY_CTX(call("=", {*operand, w}), "CASE"));
    } else {
      if (w->type->id() != TypeId::kBoolean && w->type->id() != TypeId::kUnknown) {
        return invalid_argument("CASE WHEN needs a boolean condition, got {}",
                                w->type->to_string());
      }
      conds.push_back(FLOE_TRY(coerce(w, Type::boolean())));
    }
  }
  TypePtr t = Type::unknown();
  for (auto& v : thens) {
    FLOE_TRY(need(v, "CASE"));
    t = FLOE_TRY_CTX(common_type(t, v->type), "CASE");
  }
  BoundExprPtr otherwise =
      has_else ? *else_expr : FLOE_TRY(make_literal_expr(Literal::null(Type::unknown())));
  t = FLOE_TRY_CTX(common_type(t, otherwise->type), "CASE");
  auto e = new_node(ExprKind::kCase, t);
  e->has_else = has_else;
  for (size_t i = 0; i < conds.size(); ++i) {
    e->args.push_back(conds[i]);
    e->args.push_back(FLOE_TRY_CTX(coerce(thens[i], t), "CASE"));
  }
  e->args.push_back(FLOE_TRY_CTX(coerce(otherwise, t), "CASE"));
  return fold(e);
}

Result<BoundExprPtr> subscript(BoundExprPtr base, BoundExprPtr key) {
  FLOE_TRY(need(base, "subscript"));
  FLOE_TRY(need(key, "subscript"));
  auto e = new_node(ExprKind::kSubscript, nullptr);
  if (base->type->is_map()) {
    e->type = base->type->value().type;
    e->args.push_back(base);
    e->args.push_back(FLOE_TRY_CTX(coerce(key, base->type->key().type), "map subscript"));
  } else if (base->type->is_list()) {
    if (!is_integral(key->type->id()) && key->type->id() != TypeId::kUnknown) {
      return invalid_argument("list index must be an integer, got {}", key->type->to_string());
    }
    e->type = base->type->element().type;
    e->args.push_back(base);
    e->args.push_back(FLOE_TRY(coerce(key, Type::int32())));
  } else {
    return invalid_argument("cannot subscript a value of type {}", base->type->to_string());
  }
  return BoundExprPtr(e);
}

Result<BoundExprPtr> field(BoundExprPtr base, int index) {
  FLOE_TRY(need(base, "field access"));
  if (!base->type->is_struct()) {
    return invalid_argument("cannot access a field of {}", base->type->to_string());
  }
  if (index < 0 || static_cast<size_t>(index) >= base->type->fields().size()) {
    return invalid_argument("field index {} out of range for {}", index, base->type->to_string());
  }
  auto e = new_node(ExprKind::kField, base->type->fields()[index].type);
  e->column_index = index;
  e->args.push_back(std::move(base));
  return BoundExprPtr(e);
}

Result<BoundExprPtr> field(BoundExprPtr base, std::string_view name) {
  FLOE_TRY(need(base, "field access"));
  if (!base->type->is_struct()) {
    return invalid_argument("cannot access field '{}' of {}", name, base->type->to_string());
  }
  const auto& fields = base->type->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    if (iequals(fields[i].name, name)) return field(std::move(base), static_cast<int>(i));
  }
  return invalid_argument("no field '{}' in {}", name, base->type->to_string());
}

Result<BoundExprPtr> interval_add(BoundExprPtr expr, int32_t months, int32_t days, int64_t micros,
                                  bool subtract) {
  FLOE_TRY(need(expr, "interval arithmetic"));
  TypeId id = expr->type->id();
  if (id == TypeId::kString) {
    expr = FLOE_TRY(coerce(expr, Type::timestamp()));
    id = TypeId::kTimestamp;
  }
  if (!is_datetime(id) && id != TypeId::kUnknown) {
    return invalid_argument("cannot add an interval to {}", expr->type->to_string());
  }
  TypePtr t = expr->type;
  if (id == TypeId::kUnknown) t = Type::timestamp();
  if (id == TypeId::kDate && micros != 0) t = Type::timestamp();
  auto e = new_node(ExprKind::kCall, t);
  e->name = "interval_add";
  e->function = find_function("interval_add");
  e->months = subtract ? -months : months;
  e->days = subtract ? -days : days;
  e->micros = subtract ? -micros : micros;
  e->args.push_back(FLOE_TRY(coerce(expr, t)));
  return fold(e);
}

// ----- calls ------------------------------------------------------------------------------------

namespace {

std::string canonical_name(std::string_view name) {
  std::string low = to_lower(trim(name));
  if (low.rfind("system.", 0) == 0) low = low.substr(7);
  if (low == "==") low = "=";
  if (low == "<>") low = "!=";
  return low;
}

}  // namespace

bool is_scalar_function(std::string_view name) {
  std::string low = canonical_name(name);
  return find_function(low) != nullptr || low == "and" || low == "or" || low == "not" ||
         low == "typeof";
}

Result<BoundExprPtr> call(std::string_view name, std::vector<BoundExprPtr> args) {
  std::string low = canonical_name(name);
  for (const auto& a : args) FLOE_TRY(need(a, low.c_str()));
  if (args.size() == 1 && low == "-") low = "negate";
  if (args.size() == 1 && low == "+") low = "pos";
  if (low == "interval_add") return invalid_argument("use interval_add() for interval arithmetic");
  // Boolean connectives and subscripts by name, for binders that treat them as calls.
  if ((low == "and" || low == "or") && args.size() == 2) {
    return low == "and" ? and_(args[0], args[1]) : or_(args[0], args[1]);
  }
  if ((low == "not" || low == "!") && args.size() == 1) return not_(args[0]);
  // element_at on a map is a lookup (NULL when absent); on a list, the registry's function.
  if (low == "element_at" && args.size() == 2 && args[0]->type->is_map()) {
    return subscript(args[0], args[1]);
  }
  // typeof(x): Spark's name of x's type, fixed when bound (x is not evaluated).
  if (low == "typeof") {
    if (args.size() != 1) {
      return invalid_argument("wrong number of arguments for typeof: expected 1, got {}",
                              args.size());
    }
    return make_literal_expr(Literal::string(spark_type_name(*args[0]->type)));
  }
  const FunctionDef* def = find_function(low);
  if (def == nullptr) {
    return invalid_argument("function {}({}) does not exist", low, arg_types_text(args));
  }
  int n = static_cast<int>(args.size());
  if (n < def->min_args || (def->max_args >= 0 && n > def->max_args)) {
    std::string expected = def->max_args < 0 ? fmt::format("at least {}", def->min_args)
                           : def->min_args == def->max_args
                               ? fmt::format("{}", def->min_args)
                               : fmt::format("{} to {}", def->min_args, def->max_args);
    return invalid_argument("wrong number of arguments for {}: expected {}, got {}", low, expected,
                            n);
  }
  BindCtx ctx{low, std::move(args), nullptr, nullptr};
  std::string types = arg_types_text(ctx.args);
  Status st = def->bind(ctx);
  if (!st.ok()) {
    return Status(st.kind(), fmt::format("{}({}): {}", low, types, st.message()));
  }
  if (ctx.type == nullptr) return make_error(ErrorKind::kInternal, "{}: no result type", low);
  // Functions evaluated at bind time (current_date, ...) hand back a literal in state.
  if (ctx.args.empty() && ctx.state) {
    return make_literal_expr(*std::static_pointer_cast<const Literal>(ctx.state));
  }
  auto e = new_node(ExprKind::kCall, ctx.type);
  e->name = low;
  e->function = def;
  e->args = std::move(ctx.args);
  e->state = std::move(ctx.state);
  return fold(e);
}

// ----- tree helpers -----------------------------------------------------------------------------

namespace {

void collect_columns(const BoundExpr& e, std::vector<int>* out) {
  if (e.kind == ExprKind::kColumn) out->push_back(e.column_index);
  for (const auto& a : e.args) collect_columns(*a, out);
}

}  // namespace

std::vector<int> referenced_columns(const BoundExpr& expr) {
  std::vector<int> out;
  collect_columns(expr, &out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Result<BoundExprPtr> remap_columns(const BoundExprPtr& expr, const std::vector<int>& new_index) {
  if (!expr) return invalid_argument("remap_columns: no expression");
  FLOE_TRY(internal::check_stack("to plan"));
  if (expr->kind == ExprKind::kColumn) {
    int i = expr->column_index;
    if (i < 0 || static_cast<size_t>(i) >= new_index.size() || new_index[i] < 0) {
      return invalid_argument("remap_columns: column #{} has no new position", i);
    }
    if (new_index[i] == i) return expr;
    auto e = std::make_shared<BoundExpr>(*expr);
    e->column_index = new_index[i];
    return BoundExprPtr(e);
  }
  if (expr->args.empty()) return expr;
  auto e = std::make_shared<BoundExpr>(*expr);
  bool changed = false;
  for (auto& a : e->args) {
    auto mapped = FLOE_TRY(remap_columns(a, new_index));
    changed = changed || mapped != a;
    a = std::move(mapped);
  }
  return changed ? BoundExprPtr(e) : expr;
}

bool is_deterministic(const BoundExpr& expr) {
  if (expr.kind == ExprKind::kCall && expr.function && !expr.function->deterministic) return false;
  for (const auto& a : expr.args) {
    if (!is_deterministic(*a)) return false;
  }
  return true;
}

// ----- EXPLAIN text -----------------------------------------------------------------------------

namespace {

std::string literal_sql(const Literal& v, const TypePtr& type) {
  if (v.is_null()) return "NULL";
  switch (type->id()) {
    case TypeId::kString: {
      std::string out = "'";
      for (char c : v.as_bytes()) {
        if (c == '\'') out += '\'';
        out += c;
      }
      return out + "'";
    }
    case TypeId::kDate:
      return "DATE '" + v.to_string() + "'";
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return "TIMESTAMP '" + v.to_string() + "'";
    case TypeId::kLong:
      return v.to_string() + "L";
    case TypeId::kFloat:
    case TypeId::kDouble:
      return v.to_string();
    case TypeId::kDecimal:
      return format_decimal(v.as_decimal(), type->scale()) + "BD";
    default:
      return v.to_string();
  }
}

bool is_operator(const std::string& n) {
  static const char* kOps[] = {"+",  "-", "*",  "/", "%",  "div", "=",
                               "!=", "<", "<=", ">", ">=", "<=>", "||"};
  for (const char* op : kOps) {
    if (n == op) return true;
  }
  return false;
}

void write_expr(const BoundExpr& e, const std::vector<std::string>& names, std::string* out);

void write_list(const std::vector<BoundExprPtr>& args, size_t from,
                const std::vector<std::string>& names, std::string* out) {
  for (size_t i = from; i < args.size(); ++i) {
    if (i > from) *out += ", ";
    write_expr(*args[i], names, out);
  }
}

void write_expr(const BoundExpr& e, const std::vector<std::string>& names, std::string* out) {
  switch (e.kind) {
    case ExprKind::kColumn:
      if (e.column_index >= 0 && static_cast<size_t>(e.column_index) < names.size()) {
        *out += names[e.column_index];
      } else {
        *out += fmt::format("#{}", e.column_index);
      }
      return;
    case ExprKind::kLiteral:
      *out += literal_sql(e.value, e.type);
      return;
    case ExprKind::kCall:
      if (e.name == "interval_add") {
        *out += "(";
        write_expr(*e.args[0], names, out);
        *out += fmt::format(" + INTERVAL {} MONTHS {} DAYS {} MICROSECONDS)", e.months, e.days,
                            e.micros);
      } else if (e.name == "negate" && e.args.size() == 1) {
        *out += "(- ";
        write_expr(*e.args[0], names, out);
        *out += ")";
      } else if (is_operator(e.name) && e.args.size() == 2) {
        *out += "(";
        write_expr(*e.args[0], names, out);
        *out += " " + e.name + " ";
        write_expr(*e.args[1], names, out);
        *out += ")";
      } else {
        *out += e.name + "(";
        write_list(e.args, 0, names, out);
        *out += ")";
      }
      return;
    case ExprKind::kCast:
      *out += e.try_cast ? "TRY_CAST(" : "CAST(";
      write_expr(*e.args[0], names, out);
      *out += " AS " + e.type->to_string() + ")";
      return;
    case ExprKind::kCase: {
      *out += "CASE";
      size_t pairs = (e.args.size() - 1) / 2;
      for (size_t i = 0; i < pairs; ++i) {
        *out += " WHEN ";
        write_expr(*e.args[2 * i], names, out);
        *out += " THEN ";
        write_expr(*e.args[2 * i + 1], names, out);
      }
      if (e.has_else) {
        *out += " ELSE ";
        write_expr(*e.args.back(), names, out);
      }
      *out += " END";
      return;
    }
    case ExprKind::kAnd:
    case ExprKind::kOr:
      *out += "(";
      write_expr(*e.args[0], names, out);
      *out += e.kind == ExprKind::kAnd ? " AND " : " OR ";
      write_expr(*e.args[1], names, out);
      *out += ")";
      return;
    case ExprKind::kNot:
      *out += "(NOT ";
      write_expr(*e.args[0], names, out);
      *out += ")";
      return;
    case ExprKind::kIsNull:
      *out += "(";
      write_expr(*e.args[0], names, out);
      *out += e.negated ? " IS NOT NULL)" : " IS NULL)";
      return;
    case ExprKind::kInList:
      *out += "(";
      write_expr(*e.args[0], names, out);
      *out += e.negated ? " NOT IN (" : " IN (";
      write_list(e.args, 1, names, out);
      *out += "))";
      return;
    case ExprKind::kLike: {
      const char* op = e.like_kind == LikeKind::kLike    ? "LIKE"
                       : e.like_kind == LikeKind::kILike ? "ILIKE"
                                                         : "RLIKE";
      *out += "(";
      write_expr(*e.args[0], names, out);
      *out += e.negated ? " NOT " : " ";
      *out += op;
      *out += " ";
      write_expr(*e.args[1], names, out);
      *out += ")";
      return;
    }
    case ExprKind::kSubscript:
      write_expr(*e.args[0], names, out);
      *out += "[";
      write_expr(*e.args[1], names, out);
      *out += "]";
      return;
    case ExprKind::kField:
      write_expr(*e.args[0], names, out);
      *out += "." + e.args[0]->type->fields()[e.column_index].name;
      return;
  }
}

}  // namespace

std::string to_string(const BoundExpr& expr, const std::vector<std::string>& column_names) {
  std::string out;
  write_expr(expr, column_names, &out);
  return out;
}

}  // namespace floe::sql
