// Helpers shared by the table layer's updates.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "floe/spec/table_metadata.h"
#include "floe/util/result.h"

namespace floe::internal {

inline int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// `write.metadata.path`, else `<location>/metadata`.
std::string metadata_dir(const TableMetadata& metadata);

// Points branch `name` at `snapshot_id` (keeping the branch's retention settings) and, for
// main, moves the current snapshot and records the move in the snapshot log at `log_ms`.
void set_branch_head(TableMetadata& metadata, const std::string& name, int64_t snapshot_id,
                     int64_t log_ms);

// Sets `format-version` to `value` (Java's upgradeFormatVersion): never down, at most the
// highest version floe writes; v3 starts row lineage.
Status upgrade_format_version(TableMetadata& metadata, const std::string& value);

}  // namespace floe::internal
