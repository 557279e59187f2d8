// Private: JSON node-level parse/serialize of schemas, specs and sort orders, shared by the
// table metadata parser and the public string-based functions in table_metadata.h.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "floe/spec/table_metadata.h"

namespace floe::internal {

// default_id: the schema id to use when "schema-id" is absent (v1), or nullopt to require it.
Result<SchemaPtr> parse_schema(const nlohmann::json& j, const std::string& path,
                               std::optional<int32_t> default_id);
nlohmann::ordered_json schema_json(const Schema& schema);

// allow_missing_ids: v1 specs may omit field ids; they are assigned 1000, 1001, ...
Result<std::vector<PartitionField>> parse_partition_fields(const nlohmann::json& j,
                                                           const std::string& path,
                                                           bool allow_missing_ids);
Result<PartitionSpecPtr> parse_partition_spec(const nlohmann::json& j, const std::string& path,
                                              bool allow_missing_ids);
nlohmann::ordered_json partition_fields_json(const PartitionSpec& spec);
nlohmann::ordered_json partition_spec_json(const PartitionSpec& spec);

Result<SortOrderPtr> parse_sort_order(const nlohmann::json& j, const std::string& path);
nlohmann::ordered_json sort_order_json(const SortOrder& order);

// Parses JSON text (parse_json_text): an error names `what` and the byte offset or value.
Result<nlohmann::json> parse_text(std::string_view text, const char* what);

}  // namespace floe::internal
