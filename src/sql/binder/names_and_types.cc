// Positions and error text, dotted names, SQL type names to Iceberg types and back, and the
// column names Spark generates for unnamed select items.
#include <fmt/format.h>

#include "floe/expr/expression.h"
#include "floe/util/strings.h"
#include "sql/binder/binder_internal.h"

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

std::string table_key(const TableMetadata& metadata) {
  return metadata.table_uuid.empty() ? "location:" + metadata.location : metadata.table_uuid;
}

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
    case TypeId::kUnknown:
      return "void";  // Spark's NullType
    default:
      return t.to_string();
  }
}

std::string auto_column_name(const ast::Expr& e) {
  using K = ast::ExprKind;
  if (internal::stack_low()) return "...";  // too deep to name
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
      // The left spine of a + b + c ... in a loop: linear time, no nested call per term.
      std::vector<const ast::BinaryExpr*> spine;
      const ast::Expr* left = &e;
      while (left->kind == K::kBinary) {
        spine.push_back(&left->as<ast::BinaryExpr>());
        left = spine.back()->left.get();
      }
      std::string out(spine.size(), '(');
      out += auto_column_name(*left);
      for (size_t i = spine.size(); i-- > 0;) {
        out += ' ';
        out += ast::binary_op_symbol(spine[i]->op);
        out += ' ';
        out += auto_column_name(*spine[i]->right);
        out += ')';
      }
      return out;
    }
    default:
      return ast::to_string(e);
  }
}

}  // namespace floe::sql
