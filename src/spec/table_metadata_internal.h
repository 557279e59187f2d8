// Private: the two halves of table metadata parsing. The simdjson front end
// (table_metadata_fast.cc) parses the large lists itself (snapshots, snapshot-log,
// metadata-log) and hands everything else to the nlohmann parser in table_metadata.cc.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "floe/spec/table_metadata.h"

namespace floe::internal {

// The nlohmann parser over a whole document, or (`lists_done`) over the document without the
// snapshots and the two logs, which `m` then already holds.
Result<TableMetadata> parse_table_metadata_json(const nlohmann::json& j, TableMetadata m,
                                                bool lists_done);

// Drops the snapshots no ref and no current-snapshot-id points at, counting them.
void keep_referenced_snapshots(TableMetadata* m);

// The fast path. nullopt for anything it does not accept as is, valid or not: the caller then
// parses with nlohmann, whose answer (metadata or the error naming the field) is the reference.
std::optional<TableMetadata> parse_table_metadata_fast(std::string_view text,
                                                       const MetadataParseOptions& options);

}  // namespace floe::internal
