// Iceberg's name mapping (table property `schema.name-mapping.default`; Iceberg spec, Column
// Projection): field ids for the columns of data files written without them, by column name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/util/result.h"

namespace floe {

// One entry of a name mapping: the field id of the columns named `names`, and the mapping of
// their children.
struct MappedField {
  std::optional<int32_t> field_id;
  std::vector<std::string> names;
  std::vector<MappedField> fields;
};

// Parses the JSON of a name mapping (a list of entries, or {"fields": [...]}).
Result<std::vector<MappedField>> parse_name_mapping(std::string_view json);
// The JSON list Java's NameMappingParser writes: [{"field-id": 1, "names": ["id"]}, ...], with
// "fields" on entries that have children and no "field-id" on entries without one.
std::string name_mapping_to_json(const std::vector<MappedField>& fields);

}  // namespace floe
