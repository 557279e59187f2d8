#include <fmt/format.h>

#include <filesystem>

#include "floe/io/file_io.h"
#include "floe/spec/table_properties.h"
#include "floe/util/strings.h"
#include "sql/binder/binder_internal.h"
#include "sql/statements/table_definition_internal.h"

namespace floe::sql {

namespace {

TypePtr fresh_type(const TypePtr& type, int32_t* next_id);

std::vector<NestedField> fresh_struct_fields(const std::vector<NestedField>& fields,
                                             int32_t* next_id) {
  std::vector<NestedField> out = fields;
  for (auto& f : out) f.id = (*next_id)++;
  for (auto& f : out) f.type = fresh_type(f.type, next_id);
  return out;
}

TypePtr fresh_type(const TypePtr& type, int32_t* next_id) {
  if (type->is_struct()) return Type::struct_of(fresh_struct_fields(type->fields(), next_id));
  if (type->is_list()) {
    NestedField element = type->element();
    element.id = (*next_id)++;
    element.type = fresh_type(element.type, next_id);
    return Type::list_of(std::move(element));
  }
  if (type->is_map()) {
    NestedField key = type->key();
    NestedField value = type->value();
    key.id = (*next_id)++;
    value.id = (*next_id)++;
    key.type = fresh_type(key.type, next_id);
    value.type = fresh_type(value.type, next_id);
    return Type::map_of(std::move(key), std::move(value));
  }
  return type;
}

std::string term_text(const ast::TransformTerm& term) {
  std::string col = dotted_name(term.column);
  if (term.transform == "identity") return col;
  if (term.param) return fmt::format("{}({}, {})", term.transform, *term.param, col);
  return fmt::format("{}({})", term.transform, col);
}

}  // namespace

SchemaPtr assign_fresh_ids(const std::vector<NestedField>& fields) {
  int32_t next_id = 1;
  return std::make_shared<const Schema>(0, fresh_struct_fields(fields, &next_id));
}

Result<PartitionField> partition_field(const Schema& schema, const ast::TransformTerm& term) {
  const std::string column = dotted_name(term.column);
  const NestedField* source = schema.find_field(column, /*case_sensitive=*/false);
  if (!source) {
    return error_at(term.pos,
                    fmt::format("cannot partition by {}: no column {}", term_text(term), column));
  }
  const std::string t = to_lower(term.transform);
  PartitionField field;
  field.source_id = source->id;
  std::string base = column;
  for (char& c : base) {
    if (c == '.') c = '_';
  }
  auto needs_param = [&]() -> Status {
    if (!term.param || *term.param <= 0) {
      return error_at(term.pos, fmt::format("{} needs a positive width", term_text(term)));
    }
    return Status::OK();
  };
  if (t == "identity") {
    field.transform = Transform::identity();
    field.name = column;
  } else if (t == "bucket") {
    FLOE_TRY(needs_param());
    field.transform = Transform::bucket(*term.param);
    field.name = base + "_bucket";
  } else if (t == "truncate") {
    FLOE_TRY(needs_param());
    field.transform = Transform::truncate(*term.param);
    field.name = base + "_trunc";
  } else if (t == "years" || t == "year") {
    field.transform = Transform::year();
    field.name = base + "_year";
  } else if (t == "months" || t == "month") {
    field.transform = Transform::month();
    field.name = base + "_month";
  } else if (t == "days" || t == "day" || t == "date") {
    field.transform = Transform::day();
    field.name = base + "_day";
  } else if (t == "hours" || t == "hour" || t == "date_hour") {
    field.transform = Transform::hour();
    field.name = base + "_hour";
  } else if (t == "void") {
    field.transform = Transform::void_transform();
    field.name = base + "_null";
  } else {
    return error_at(term.pos, fmt::format("unknown partition transform {}", term.transform));
  }
  if (!field.transform.can_transform(*source->type)) {
    return error_at(term.pos,
                    fmt::format("cannot partition by {}: {} does not apply to {}", term_text(term),
                                field.transform.to_string(), spark_type_name(*source->type)));
  }
  return field;
}

Result<SortField> sort_field(const Schema& schema, const ast::SortTerm& term) {
  const std::string column = dotted_name(term.term.column);
  if (!schema.find_field(column, /*case_sensitive=*/false)) {
    return error_at(term.term.pos,
                    fmt::format("cannot sort by {}: no column {}", term_text(term.term), column));
  }
  PartitionField p = FLOE_TRY(partition_field(schema, term.term));
  SortField f;
  f.transform = p.transform;
  f.source_id = p.source_id;
  f.direction = term.descending ? SortDirection::kDesc : SortDirection::kAsc;
  const bool nulls_first = term.nulls_first.value_or(!term.descending);
  f.null_order = nulls_first ? NullOrder::kNullsFirst : NullOrder::kNullsLast;
  return f;
}

std::string absolute_location(std::string_view location) {
  auto colon = location.find(':');
  auto slash = location.find('/');
  bool has_scheme = colon != std::string_view::npos && colon > 1 &&
                    (slash == std::string_view::npos || colon < slash);
  if (has_scheme && !location.starts_with("file:")) return std::string(location);
  std::string local = local_path_of(location);
  std::error_code ec;
  auto absolute = std::filesystem::absolute(local, ec);
  if (ec || local.empty()) return std::string(location);
  std::string out = absolute.lexically_normal().string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

Result<TableDefinition> table_definition(const ast::CreateTableStatement& s,
                                         const std::vector<NestedField>& columns) {
  if (s.using_ && !iequals(*s.using_, "iceberg")) {
    return invalid_argument("floe creates Iceberg tables only (USING {})", *s.using_);
  }
  TableDefinition def;
  std::vector<NestedField> fields = columns;
  if (fields.empty()) {
    for (const auto& c : s.columns) {
      NestedField f;
      f.name = c.name;
      f.type = FLOE_TRY(iceberg_type(*c.type));
      f.required = c.not_null;
      if (c.comment) f.doc = *c.comment;
      fields.push_back(std::move(f));
    }
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (iequals(fields[i].name, fields[j].name)) {
        return invalid_argument("column {} is defined twice", fields[i].name);
      }
    }
  }
  def.schema = assign_fresh_ids(fields);
  std::vector<PartitionField> parts;
  for (const auto& term : s.partitioned_by) {
    PartitionField f = FLOE_TRY(partition_field(*def.schema, term));
    for (const auto& other : parts) {
      if (other.name == f.name) return error_at(term.pos, "duplicate partition field " + f.name);
    }
    f.field_id = kPartitionDataIdStart + static_cast<int32_t>(parts.size());
    parts.push_back(std::move(f));
  }
  def.spec = std::make_shared<const PartitionSpec>(0, std::move(parts));
  for (const auto& [k, v] : s.options) def.properties[k] = v;
  for (const auto& [k, v] : s.properties) def.properties[k] = v;
  if (s.comment) def.properties["comment"] = *s.comment;
  auto fv = def.properties.find(std::string(table_properties::kFormatVersion));
  if (fv != def.properties.end()) {
    if (fv->second != "1" && fv->second != "2" && fv->second != "3") {
      return invalid_argument("unsupported format-version '{}' (1, 2 or 3)", fv->second);
    }
    def.format_version = std::stoi(fv->second);
    def.properties.erase(fv);
  }
  if (s.location) def.location = absolute_location(*s.location);
  return def;
}

}  // namespace floe::sql
