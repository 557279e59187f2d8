// JSON forms of types, schemas, partition specs and sort orders (spec Appendix C).
#include "spec/json_util_internal.h"
#include "spec/schema_json_internal.h"

namespace floe {

using internal::json;
using internal::Obj;
using ojson = nlohmann::ordered_json;

namespace {

Result<TypePtr> parse_type(const json& j, const std::string& path);

Result<std::optional<Literal>> parse_default(const Obj& o, const char* key, const TypePtr& type) {
  const json* v = o.get(key);
  if (!v) return std::optional<Literal>();
  auto lit = Literal::from_json(type, *v);
  if (!lit.ok()) return lit.status().with_context(o.where(key));
  return std::optional<Literal>(std::move(*lit));
}

Result<NestedField> parse_field(const json& j, const std::string& path) {
  Obj o = FLOE_TRY(Obj::of(j, path));
  NestedField f;
  f.id = FLOE_TRY(o.i32("id"));
  f.name = FLOE_TRY(o.str("name"));
  const json* t = o.get("type");
  if (!t) return o.missing("type");
  f.type = FLOE_TRY(parse_type(*t, path + "." + f.name));
  f.required = FLOE_TRY(o.boolean("required"));
  if (auto doc = FLOE_TRY(o.opt_str("doc"))) f.doc = *doc;
  f.initial_default = FLOE_TRY(parse_default(o, "initial-default", f.type));
  f.write_default = FLOE_TRY(parse_default(o, "write-default", f.type));
  return f;
}

Result<TypePtr> parse_type(const json& j, const std::string& path) {
  if (j.is_string()) {
    auto t = Type::parse_primitive(j.get<std::string>());
    if (!t.ok()) return t.status().with_context(path);
    return t;
  }
  Obj o = FLOE_TRY(Obj::of(j, path));
  std::string kind = FLOE_TRY(o.str("type"));
  if (kind == "struct") {
    const json* fields = FLOE_TRY(o.array("fields"));
    std::vector<NestedField> out;
    out.reserve(fields->size());
    for (size_t i = 0; i < fields->size(); ++i) {
      out.push_back(FLOE_TRY(parse_field((*fields)[i], fmt::format("{}.fields[{}]", path, i))));
    }
    return Type::struct_of(std::move(out));
  }
  if (kind == "list") {
    NestedField e;
    e.id = FLOE_TRY(o.i32("element-id"));
    e.name = "element";
    const json* et = o.get("element");
    if (!et) return o.missing("element");
    e.type = FLOE_TRY(parse_type(*et, path + ".element"));
    e.required = FLOE_TRY(o.boolean("element-required"));
    return Type::list_of(std::move(e));
  }
  if (kind == "map") {
    NestedField k, v;
    k.id = FLOE_TRY(o.i32("key-id"));
    k.name = "key";
    const json* kt = o.get("key");
    if (!kt) return o.missing("key");
    k.type = FLOE_TRY(parse_type(*kt, path + ".key"));
    k.required = true;
    v.id = FLOE_TRY(o.i32("value-id"));
    v.name = "value";
    const json* vt = o.get("value");
    if (!vt) return o.missing("value");
    v.type = FLOE_TRY(parse_type(*vt, path + ".value"));
    v.required = FLOE_TRY(o.boolean("value-required"));
    return Type::map_of(std::move(k), std::move(v));
  }
  return invalid_data("{}: unknown nested type '{}'", path, kind);
}

ojson type_to_json(const Type& t);

ojson field_to_json(const NestedField& f) {
  ojson o;
  o["id"] = f.id;
  o["name"] = f.name;
  o["required"] = f.required;
  o["type"] = type_to_json(*f.type);
  if (!f.doc.empty()) o["doc"] = f.doc;
  if (f.initial_default) {
    json d;
    if (f.initial_default->to_json(&d).ok()) o["initial-default"] = ojson::parse(d.dump());
  }
  if (f.write_default) {
    json d;
    if (f.write_default->to_json(&d).ok()) o["write-default"] = ojson::parse(d.dump());
  }
  return o;
}

ojson type_to_json(const Type& t) {
  switch (t.id()) {
    case TypeId::kStruct: {
      ojson o;
      o["type"] = "struct";
      ojson fields = ojson::array();
      for (const auto& f : t.fields()) fields.push_back(field_to_json(f));
      o["fields"] = std::move(fields);
      return o;
    }
    case TypeId::kList: {
      ojson o;
      o["type"] = "list";
      o["element-id"] = t.element().id;
      o["element"] = type_to_json(*t.element().type);
      o["element-required"] = t.element().required;
      return o;
    }
    case TypeId::kMap: {
      ojson o;
      o["type"] = "map";
      o["key-id"] = t.key().id;
      o["key"] = type_to_json(*t.key().type);
      o["value-id"] = t.value().id;
      o["value"] = type_to_json(*t.value().type);
      o["value-required"] = t.value().required;
      return o;
    }
    default:
      return t.to_string();
  }
}

}  // namespace

namespace internal {

Result<SchemaPtr> parse_schema(const json& j, const std::string& path,
                               std::optional<int32_t> default_id) {
  Obj o = FLOE_TRY(Obj::of(j, path));
  const json* type = o.get("type");
  if (!type) return o.missing("type");
  if (!type->is_string() || type->get<std::string>() != "struct") {
    return invalid_data("{}: field 'type' must be \"struct\" for a schema", path);
  }
  auto struct_type = FLOE_TRY(parse_type(j, path));
  std::optional<int32_t> id = FLOE_TRY(o.opt_i32("schema-id"));
  if (!id) {
    if (!default_id) return o.missing("schema-id");
    id = default_id;
  }
  std::vector<int32_t> identifiers = FLOE_TRY(o.int_list("identifier-field-ids"));
  auto schema = std::make_shared<const Schema>(*id, struct_type->fields(), std::move(identifiers));
  auto st = schema->validate();
  if (!st.ok()) return st.with_context(path);
  return SchemaPtr(schema);
}

ojson schema_json(const Schema& schema) {
  ojson o;
  o["type"] = "struct";
  o["schema-id"] = schema.schema_id();
  if (!schema.identifier_field_ids().empty()) {
    o["identifier-field-ids"] = schema.identifier_field_ids();
  }
  ojson fields = ojson::array();
  for (const auto& f : schema.fields()) fields.push_back(field_to_json(f));
  o["fields"] = std::move(fields);
  return o;
}

Result<std::vector<PartitionField>> parse_partition_fields(const json& j, const std::string& path,
                                                           bool allow_missing_ids) {
  if (!j.is_array()) {
    return invalid_data("{}: partition fields must be an array, got {}", path,
                        internal::kind_of(j));
  }
  std::vector<PartitionField> fields;
  int with_ids = 0;
  for (size_t i = 0; i < j.size(); ++i) {
    Obj o = FLOE_TRY(Obj::of(j[i], fmt::format("{}[{}]", path, i)));
    PartitionField f;
    f.name = FLOE_TRY(o.str("name"));
    std::string transform = FLOE_TRY(o.str("transform"));
    auto t = Transform::parse(transform);
    if (!t.ok()) return t.status().with_context(o.path());
    f.transform = *t;
    if (o.has("source-ids")) {
      f.source_ids = FLOE_TRY(o.int_list("source-ids"));
      if (f.source_ids.empty()) {
        return invalid_data("{}: field 'source-ids' must not be empty", o.path());
      }
      if (o.has("source-id")) {
        f.source_id = FLOE_TRY(o.i32("source-id"));
      } else {
        f.source_id = f.source_ids.front();
      }
      if (f.source_ids.size() == 1) f.source_ids.clear();  // single-argument: keep source-id
    } else {
      f.source_id = FLOE_TRY(o.i32("source-id"));
    }
    if (o.has("field-id")) {
      f.field_id = FLOE_TRY(o.i32("field-id"));
      ++with_ids;
    } else if (!allow_missing_ids) {
      return o.missing("field-id");
    } else {
      f.field_id = kPartitionDataIdStart + static_cast<int32_t>(i);
    }
    fields.push_back(std::move(f));
  }
  if (with_ids != 0 && with_ids != static_cast<int>(fields.size())) {
    return invalid_data("{}: either every partition field has a field-id or none does", path);
  }
  return fields;
}

Result<PartitionSpecPtr> parse_partition_spec(const json& j, const std::string& path,
                                              bool allow_missing_ids) {
  Obj o = FLOE_TRY(Obj::of(j, path));
  int32_t id = FLOE_TRY(o.i32("spec-id"));
  const json* fields = FLOE_TRY(o.array("fields"));
  auto parsed = FLOE_TRY(parse_partition_fields(*fields, path + ".fields", allow_missing_ids));
  return std::make_shared<const PartitionSpec>(id, std::move(parsed));
}

ojson partition_fields_json(const PartitionSpec& spec) {
  ojson fields = ojson::array();
  for (const auto& f : spec.fields()) {
    ojson o;
    o["name"] = f.name;
    o["transform"] = f.transform.to_string();
    if (f.source_ids.empty()) {
      o["source-id"] = f.source_id;
    } else {
      o["source-ids"] = f.source_ids;
    }
    o["field-id"] = f.field_id;
    fields.push_back(std::move(o));
  }
  return fields;
}

ojson partition_spec_json(const PartitionSpec& spec) {
  ojson o;
  o["spec-id"] = spec.spec_id();
  o["fields"] = partition_fields_json(spec);
  return o;
}

Result<SortOrderPtr> parse_sort_order(const json& j, const std::string& path) {
  Obj o = FLOE_TRY(Obj::of(j, path));
  auto order = std::make_shared<SortOrder>();
  order->order_id = FLOE_TRY(o.i32("order-id"));
  const json* fields = FLOE_TRY(o.array("fields"));
  for (size_t i = 0; i < fields->size(); ++i) {
    Obj f = FLOE_TRY(Obj::of((*fields)[i], fmt::format("{}.fields[{}]", path, i)));
    SortField sf;
    std::string transform = FLOE_TRY(f.str("transform"));
    auto t = Transform::parse(transform);
    if (!t.ok()) return t.status().with_context(f.path());
    sf.transform = *t;
    if (f.has("source-ids")) {
      sf.source_ids = FLOE_TRY(f.int_list("source-ids"));
      sf.source_id = sf.source_ids.empty() ? 0 : sf.source_ids.front();
      if (f.has("source-id")) sf.source_id = FLOE_TRY(f.i32("source-id"));
      if (sf.source_ids.size() == 1) sf.source_ids.clear();
    } else {
      sf.source_id = FLOE_TRY(f.i32("source-id"));
    }
    std::string dir = FLOE_TRY(f.str("direction"));
    if (dir == "asc" || dir == "ASC") {
      sf.direction = SortDirection::kAsc;
    } else if (dir == "desc" || dir == "DESC") {
      sf.direction = SortDirection::kDesc;
    } else {
      return invalid_data("{}: field 'direction' must be asc or desc, got '{}'", f.path(), dir);
    }
    std::string nulls = FLOE_TRY(f.str("null-order"));
    if (nulls == "nulls-first" || nulls == "NULLS_FIRST") {
      sf.null_order = NullOrder::kNullsFirst;
    } else if (nulls == "nulls-last" || nulls == "NULLS_LAST") {
      sf.null_order = NullOrder::kNullsLast;
    } else {
      return invalid_data("{}: field 'null-order' must be nulls-first or nulls-last, got '{}'",
                          f.path(), nulls);
    }
    order->fields.push_back(std::move(sf));
  }
  return SortOrderPtr(order);
}

ojson sort_order_json(const SortOrder& order) {
  ojson o;
  o["order-id"] = order.order_id;
  ojson fields = ojson::array();
  for (const auto& f : order.fields) {
    ojson x;
    x["transform"] = f.transform.to_string();
    if (f.source_ids.empty()) {
      x["source-id"] = f.source_id;
    } else {
      x["source-ids"] = f.source_ids;
    }
    x["direction"] = sort_direction_name(f.direction);
    x["null-order"] = null_order_name(f.null_order);
    fields.push_back(std::move(x));
  }
  o["fields"] = std::move(fields);
  return o;
}

Result<json> parse_text(std::string_view text, const char* what) {
  return parse_json_text(text, what);
}

}  // namespace internal

const char* sort_direction_name(SortDirection d) {
  return d == SortDirection::kAsc ? "asc" : "desc";
}
const char* null_order_name(NullOrder n) {
  return n == NullOrder::kNullsFirst ? "nulls-first" : "nulls-last";
}

Result<SchemaPtr> parse_schema_json(std::string_view text) {
  json j = FLOE_TRY(internal::parse_text(text, "schema"));
  return internal::parse_schema(j, "schema", 0);
}
std::string schema_to_json(const Schema& schema) { return internal::schema_json(schema).dump(); }

Result<PartitionSpecPtr> parse_partition_spec_json(std::string_view text) {
  json j = FLOE_TRY(internal::parse_text(text, "partition spec"));
  return internal::parse_partition_spec(j, "partition-spec", true);
}
std::string partition_spec_to_json(const PartitionSpec& spec) {
  return internal::partition_spec_json(spec).dump();
}
std::string partition_spec_fields_to_json(const PartitionSpec& spec) {
  return internal::partition_fields_json(spec).dump();
}
Result<std::vector<PartitionField>> parse_partition_fields_json(std::string_view text) {
  json j = FLOE_TRY(internal::parse_text(text, "partition fields"));
  return internal::parse_partition_fields(j, "partition-spec", true);
}

Result<SortOrderPtr> parse_sort_order_json(std::string_view text) {
  json j = FLOE_TRY(internal::parse_text(text, "sort order"));
  return internal::parse_sort_order(j, "sort-order");
}
std::string sort_order_to_json(const SortOrder& order) {
  return internal::sort_order_json(order).dump();
}

}  // namespace floe
