#include <fmt/format.h>

#include "floe/util/strings.h"
#include "sql/binder/binder_internal.h"
#include "sql/binder/store_assignment_internal.h"
#include "sql/exec/bound_expr_internal.h"

namespace floe::sql {

namespace {

bool is_number(TypeId id) {
  return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kFloat ||
         id == TypeId::kDouble || id == TypeId::kDecimal;
}

bool is_datetime(TypeId id) {
  return id == TypeId::kDate || id == TypeId::kTimestamp || id == TypeId::kTimestampTz ||
         id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs;
}

std::string column_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "`" : ", `") + n + "`";
  return out;
}

}  // namespace

bool can_store_assign(const Type& from, const Type& to) {
  TypeId f = from.id(), t = to.id();
  if (f == TypeId::kUnknown) return true;
  if (from.is_primitive() && to.is_primitive()) {
    if (f == t && f != TypeId::kDecimal && f != TypeId::kFixed) return true;
    if (is_number(f) && is_number(t)) return true;
    if (t == TypeId::kString) return true;
    if (is_datetime(f) && is_datetime(t)) return true;
    if (f == TypeId::kString && (is_datetime(t) || t == TypeId::kTime || t == TypeId::kUuid)) {
      return true;
    }
    if (f == TypeId::kFixed && t == TypeId::kFixed) return from == to;
    if ((f == TypeId::kFixed || f == TypeId::kUuid) && t == TypeId::kBinary) return true;
    if (f == TypeId::kBinary && (t == TypeId::kFixed || t == TypeId::kUuid)) return true;
    return false;
  }
  if (f != t) return false;
  if (from.is_struct()) {
    const auto& ff = from.fields();
    const auto& tf = to.fields();
    if (ff.size() != tf.size()) return false;
    for (size_t i = 0; i < ff.size(); ++i) {
      if (!can_store_assign(*ff[i].type, *tf[i].type)) return false;
    }
    return true;
  }
  if (from.is_list()) return can_store_assign(*from.element().type, *to.element().type);
  return can_store_assign(*from.key().type, *to.key().type) &&
         can_store_assign(*from.value().type, *to.value().type);
}

Result<PlanPtr> project_to_schema(PlanPtr input, const Schema& schema,
                                  const std::vector<std::string>& columns,
                                  std::string_view table_name,
                                  const std::vector<std::pair<std::string, BoundExprPtr>>& fixed) {
  const std::vector<NestedField>& table_fields = schema.fields();
  const std::vector<NestedField>& data_fields = input->fields();
  std::vector<std::string> table_names, data_names;
  for (const auto& f : table_fields) table_names.push_back(f.name);
  for (const auto& f : data_fields) data_names.push_back(f.name);

  // A constant per table column (static partition values), else nullptr.
  std::vector<BoundExprPtr> constant(table_fields.size());
  for (const auto& [name, value] : fixed) {
    size_t t = 0;
    while (t < table_fields.size() && !iequals(table_fields[t].name, name)) ++t;
    if (t == table_fields.size()) {
      return invalid_argument("cannot write to {}: no column `{}` (table columns: {})", table_name,
                              name, column_list(table_names));
    }
    constant[t] = value;
  }
  // Which input column feeds each table column (-1: none).
  std::vector<int> source(table_fields.size(), -1);
  if (columns.empty()) {
    std::vector<std::string> open_names;
    for (size_t t = 0; t < table_fields.size(); ++t) {
      if (!constant[t]) open_names.push_back(table_fields[t].name);
    }
    if (data_fields.size() != open_names.size()) {
      return invalid_argument(
          "cannot write to {}: {} data columns: table columns: {}; data columns: {}", table_name,
          data_fields.size() < open_names.size() ? "not enough" : "too many",
          column_list(open_names), column_list(data_names));
    }
    int next = 0;
    for (size_t t = 0; t < source.size(); ++t) {
      if (!constant[t]) source[t] = next++;
    }
  } else {
    if (columns.size() != data_fields.size()) {
      return invalid_argument("cannot write to {}: {} columns are listed but the query gives {}",
                              table_name, columns.size(), data_fields.size());
    }
    for (size_t c = 0; c < columns.size(); ++c) {
      size_t t = 0;
      while (t < table_fields.size() && !iequals(table_fields[t].name, columns[c])) ++t;
      if (t == table_fields.size()) {
        return invalid_argument("cannot write to {}: no column `{}` (table columns: {})",
                                table_name, columns[c], column_list(table_names));
      }
      if (source[t] >= 0) {
        return invalid_argument("cannot write to {}: column `{}` is listed twice", table_name,
                                columns[c]);
      }
      source[t] = static_cast<int>(c);
    }
  }

  std::vector<BoundExprPtr> exprs;
  std::vector<std::string> names;
  for (size_t t = 0; t < table_fields.size(); ++t) {
    const NestedField& target = table_fields[t];
    BoundExprPtr e;
    if (constant[t]) {
      if (source[t] >= 0) {
        return invalid_argument("cannot write to {}: column `{}` has a static value and is listed",
                                table_name, target.name);
      }
      e = constant[t];
      if (!can_store_assign(*e->type, *target.type)) {
        return invalid_argument("cannot write to {}: cannot safely cast `{}`: {} to {}", table_name,
                                target.name, spark_type_name(*e->type),
                                spark_type_name(*target.type));
      }
    } else if (source[t] < 0) {
      if (target.required) {
        return invalid_argument("cannot write to {}: required column `{}` has no value", table_name,
                                target.name);
      }
      e = FLOE_TRY(
          literal(target.write_default ? *target.write_default : Literal::null(Type::unknown())));
    } else {
      const NestedField& from = data_fields[source[t]];
      if (!can_store_assign(*from.type, *target.type)) {
        return invalid_argument("cannot write to {}: cannot safely cast `{}`: {} to {}", table_name,
                                target.name, spark_type_name(*from.type),
                                spark_type_name(*target.type));
      }
      e = FLOE_TRY(column(source[t], from.type));
    }
    if (!(*e->type == *target.type)) e = FLOE_TRY(cast(std::move(e), target.type));
    exprs.push_back(std::move(e));
    names.push_back(target.name);
  }
  auto project = std::make_unique<ProjectNode>(std::move(input), std::move(exprs), names);
  return PlanPtr(std::move(project));
}

}  // namespace floe::sql
