// Parsing of Iceberg's name mapping JSON (Iceberg spec, Column Projection).
#include "floe/spec/name_mapping.h"

#include "floe/spec/json_text.h"

namespace floe {

namespace {

using nlohmann::json;

bool is_int32(const json& v) {
  if (v.is_number_unsigned()) return v.get<uint64_t>() <= INT32_MAX;
  if (!v.is_number_integer()) return false;
  int64_t x = v.get<int64_t>();
  return x >= INT32_MIN && x <= INT32_MAX;
}

Result<MappedField> parse_mapped(const json& j, const std::string& path) {
  if (!j.is_object()) {
    return invalid_data("name mapping {}: expected an object, got {}", path, json_kind(j));
  }
  MappedField f;
  if (auto id = j.find("field-id"); id != j.end() && !id->is_null()) {
    if (!is_int32(*id)) {
      return invalid_data("name mapping {}: field 'field-id' must be an int, got {}", path,
                          json_for_message(*id));
    }
    f.field_id = id->get<int32_t>();
  }
  if (auto names = j.find("names"); names != j.end() && !names->is_null()) {
    if (!names->is_array()) {
      return invalid_data("name mapping {}: field 'names' must be an array, got {}", path,
                          json_kind(*names));
    }
    for (const auto& n : *names) {
      if (n.is_string()) f.names.push_back(n.get<std::string>());
    }
  }
  if (auto fields = j.find("fields"); fields != j.end() && fields->is_array()) {
    for (size_t i = 0; i < fields->size(); ++i) {
      f.fields.push_back(
          FLOE_TRY(parse_mapped((*fields)[i], fmt::format("{}.fields[{}]", path, i))));
    }
  }
  return f;
}

nlohmann::ordered_json mapped_to_json(const std::vector<MappedField>& fields) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& f : fields) {
    auto entry = nlohmann::ordered_json::object();
    if (f.field_id) entry["field-id"] = *f.field_id;
    entry["names"] = f.names;
    if (!f.fields.empty()) entry["fields"] = mapped_to_json(f.fields);
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace

std::string name_mapping_to_json(const std::vector<MappedField>& fields) {
  return mapped_to_json(fields).dump();
}

Result<std::vector<MappedField>> parse_name_mapping(std::string_view text) {
  json j = FLOE_TRY(parse_json_text(text, "name mapping"));
  // Some writers wrap the list as {"type": "struct", "fields": [...]}.
  if (j.is_object() && j.contains("fields")) j = std::move(j["fields"]);
  if (!j.is_array()) return invalid_data("name mapping is not a JSON array");
  std::vector<MappedField> out;
  for (size_t i = 0; i < j.size(); ++i) {
    out.push_back(FLOE_TRY(parse_mapped(j[i], fmt::format("[{}]", i))));
  }
  return out;
}

}  // namespace floe
