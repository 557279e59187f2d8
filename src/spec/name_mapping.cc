// Parsing of Iceberg's name mapping JSON (Iceberg spec, Column Projection).
#include "floe/spec/name_mapping.h"

#include <nlohmann/json.hpp>

namespace floe {

namespace {

Result<MappedField> parse_mapped(const nlohmann::json& j) {
  if (!j.is_object()) return invalid_data("name mapping entry is not an object");
  MappedField f;
  if (j.contains("field-id") && !j["field-id"].is_null()) {
    if (!j["field-id"].is_number_integer()) return invalid_data("name mapping field-id not int");
    f.field_id = j["field-id"].get<int32_t>();
  }
  if (j.contains("names")) {
    if (!j["names"].is_array()) return invalid_data("name mapping names is not an array");
    for (const auto& n : j["names"]) {
      if (n.is_string()) f.names.push_back(n.get<std::string>());
    }
  }
  if (j.contains("fields") && j["fields"].is_array()) {
    for (const auto& c : j["fields"]) f.fields.push_back(FLOE_TRY(parse_mapped(c)));
  }
  return f;
}

}  // namespace

Result<std::vector<MappedField>> parse_name_mapping(std::string_view json) {
  auto j = nlohmann::json::parse(json, nullptr, false);
  // Some writers wrap the list as {"type": "struct", "fields": [...]}.
  if (!j.is_discarded() && j.is_object() && j.contains("fields")) j = j["fields"];
  if (j.is_discarded() || !j.is_array()) return invalid_data("name mapping is not a JSON array");
  std::vector<MappedField> out;
  for (const auto& e : j) out.push_back(FLOE_TRY(parse_mapped(e)));
  return out;
}

}  // namespace floe
