// Type names, generated column names and WHERE-clause pushdown into Iceberg scans.
#include <fmt/format.h>

#include "binder_internal.h"
#include "floe/expr/expression.h"
#include "floe/util/strings.h"

namespace floe::sql {

std::string position_text(const ast::SourcePos& pos) {
  return fmt::format("{}:{}", pos.line, pos.column);
}

Status error_at(const ast::SourcePos& pos, std::string message) {
  return Status(ErrorKind::kInvalidArgument, fmt::format("{} at {}", message, position_text(pos)));
}

std::string dotted_name(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ".") + p;
  return out;
}

void split_conjuncts(const ast::Expr& e, std::vector<const ast::Expr*>* out) {
  if (e.kind == ast::ExprKind::kBinary && e.as<ast::BinaryExpr>().op == ast::BinaryOp::kAnd) {
    split_conjuncts(*e.as<ast::BinaryExpr>().left, out);
    split_conjuncts(*e.as<ast::BinaryExpr>().right, out);
    return;
  }
  out->push_back(&e);
}

namespace {

Result<TypePtr> iceberg_type_from(const ast::TypeName& t, int32_t* next_id) {
  using K = ast::TypeKind;
  switch (t.kind) {
    case K::kBoolean:
      return Type::boolean();
    case K::kTinyint:
    case K::kSmallint:
    case K::kInt:
      return Type::int32();
    case K::kBigint:
      return Type::int64();
    case K::kFloat:
      return Type::float32();
    case K::kDouble:
      return Type::float64();
    case K::kDecimal: {
      int p = t.precision.value_or(10);
      int s = t.scale.value_or(0);
      if (p < 1 || p > 38 || s < 0 || s > p) {
        return invalid_argument("invalid decimal({}, {}): precision 1..38, scale 0..precision", p,
                                s);
      }
      return Type::decimal(p, s);
    }
    case K::kString:
    case K::kVarchar:
    case K::kChar:
      return Type::string();
    case K::kBinary:
      return Type::binary();
    case K::kDate:
      return Type::date();
    case K::kTimestamp:
    case K::kTimestampLtz:
      return Type::timestamptz();
    case K::kTimestampNtz:
      return Type::timestamp();
    case K::kUuid:
      return Type::uuid();
    case K::kTime:
      return Type::time();
    case K::kArray: {
      int32_t id = (*next_id)++;
      TypePtr element = FLOE_TRY(iceberg_type_from(*t.element, next_id));
      return Type::list_of(id, element, false);
    }
    case K::kMap: {
      int32_t kid = (*next_id)++;
      int32_t vid = (*next_id)++;
      TypePtr key = FLOE_TRY(iceberg_type_from(*t.key, next_id));
      TypePtr value = FLOE_TRY(iceberg_type_from(*t.value, next_id));
      return Type::map_of(kid, key, vid, value, false);
    }
    case K::kStruct: {
      std::vector<NestedField> fields;
      for (const auto& f : t.fields) {
        NestedField nf;
        nf.id = (*next_id)++;
        nf.name = f.name;
        nf.type = FLOE_TRY(iceberg_type_from(*f.type, next_id));
        nf.required = f.not_null;
        if (f.comment) nf.doc = *f.comment;
        fields.push_back(std::move(nf));
      }
      return Type::struct_of(std::move(fields));
    }
  }
  return invalid_argument("unsupported type {}", t.spelling);
}

}  // namespace

std::optional<RefSuffix> ref_suffix(const std::vector<std::string>& name) {
  if (name.size() < 2) return std::nullopt;
  const std::string last = to_lower(name.back());
  const bool branch = last.starts_with("branch_");
  if (!branch && !last.starts_with("tag_")) return std::nullopt;
  RefSuffix out;
  out.table.assign(name.begin(), name.end() - 1);
  out.ref = name.back().substr(branch ? 7 : 4);
  out.branch = branch;
  return out;
}

Result<TypePtr> iceberg_type(const ast::TypeName& type) {
  int32_t next_id = 1;
  return iceberg_type_from(type, &next_id);
}

std::string spark_type_name(const Type& t) {
  switch (t.id()) {
    case TypeId::kBoolean:
      return "boolean";
    case TypeId::kInt:
      return "int";
    case TypeId::kLong:
      return "bigint";
    case TypeId::kFloat:
      return "float";
    case TypeId::kDouble:
      return "double";
    case TypeId::kDecimal:
      return fmt::format("decimal({},{})", t.precision(), t.scale());
    case TypeId::kDate:
      return "date";
    case TypeId::kTime:
      return "time";
    case TypeId::kTimestamp:
    case TypeId::kTimestampNs:
      return "timestamp_ntz";
    case TypeId::kTimestampTz:
    case TypeId::kTimestampTzNs:
      return "timestamp";
    case TypeId::kString:
    case TypeId::kUuid:
      return "string";
    case TypeId::kFixed:
    case TypeId::kBinary:
      return "binary";
    case TypeId::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < t.fields().size(); ++i) {
        out += (i ? "," : "") + t.fields()[i].name + ":" + spark_type_name(*t.fields()[i].type);
      }
      return out + ">";
    }
    case TypeId::kList:
      return "array<" + spark_type_name(*t.element().type) + ">";
    case TypeId::kMap:
      return "map<" + spark_type_name(*t.key().type) + "," + spark_type_name(*t.value().type) + ">";
    default:
      return t.to_string();
  }
}

std::string auto_column_name(const ast::Expr& e) {
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::kColumnRef:
      return e.as<ast::ColumnRefExpr>().parts.back();
    case K::kFieldAccess:
      return e.as<ast::FieldAccessExpr>().field;
    case K::kLiteral: {
      const auto& lit = e.as<ast::LiteralExpr>();
      switch (lit.literal_kind) {
        case ast::LiteralKind::kNull:
          return "NULL";
        case ast::LiteralKind::kBoolean:
          return lit.bool_value ? "true" : "false";
        case ast::LiteralKind::kString:
        case ast::LiteralKind::kInteger:
        case ast::LiteralKind::kDecimal:
        case ast::LiteralKind::kDouble:
          return lit.text;
        default:
          return ast::to_string(e);
      }
    }
    case K::kFunction: {
      const auto& f = e.as<ast::FunctionExpr>();
      std::string name = to_lower(f.name.back());
      std::string args;
      if (f.args.size() == 1 && f.args[0]->kind == K::kStar && name == "count") {
        args = "1";
      } else {
        for (size_t i = 0; i < f.args.size(); ++i) {
          args += (i ? ", " : "") + auto_column_name(*f.args[i]);
        }
      }
      return fmt::format("{}({}{})", name, f.distinct ? "DISTINCT " : "", args);
    }
    case K::kBinary: {
      const auto& b = e.as<ast::BinaryExpr>();
      return fmt::format("({} {} {})", auto_column_name(*b.left), ast::binary_op_symbol(b.op),
                         auto_column_name(*b.right));
    }
    default:
      return ast::to_string(e);
  }
}

// ---- pushdown ----

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
