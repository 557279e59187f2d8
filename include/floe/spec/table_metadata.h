// Table metadata (spec "Table Metadata"): the root of a table's metadata tree, with its JSON
// form for format versions 1, 2 and 3. Parsing accepts what the Java reference writes
// (current-snapshot-id -1, missing refs, v1 `schema`/`partition-spec`) and rejects malformed
// files with an error that names the field at fault.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/snapshot.h"
#include "floe/spec/sort_order.h"
#include "floe/util/result.h"

namespace floe {

constexpr int kMaxFormatVersion = 3;
constexpr const char* kMainBranch = "main";

struct TableMetadata {
  int format_version = 2;
  std::string table_uuid;  // may be empty in v1
  std::string location;
  int64_t last_sequence_number = 0;
  int64_t last_updated_ms = 0;
  int32_t last_column_id = 0;
  std::vector<SchemaPtr> schemas;
  int32_t current_schema_id = 0;
  std::vector<PartitionSpecPtr> specs;
  int32_t default_spec_id = 0;
  int32_t last_partition_id = kUnpartitionedLastAssignedId;
  std::vector<SortOrderPtr> sort_orders;
  int32_t default_sort_order_id = 0;
  std::map<std::string, std::string> properties;
  std::optional<int64_t> current_snapshot_id;
  std::vector<SnapshotPtr> snapshots;
  std::vector<SnapshotLogEntry> snapshot_log;
  std::vector<MetadataLogEntry> metadata_log;
  std::map<std::string, SnapshotRef> refs;
  std::vector<StatisticsFile> statistics;
  std::vector<PartitionStatisticsFile> partition_statistics;
  std::optional<int64_t> next_row_id;  // v3
  std::vector<EncryptedKey> encryption_keys;
  // Snapshots left out by a parse with `referenced_snapshots_only` (0 after a full parse).
  // Metadata with omitted snapshots can be scanned but never written back: that would drop
  // them from the table's history.
  int64_t omitted_snapshots = 0;

  // Lookups; nullptr when absent.
  const Schema* schema() const { return schema_by_id(current_schema_id); }
  const Schema* schema_by_id(int32_t schema_id) const;
  const PartitionSpec* spec() const { return spec_by_id(default_spec_id); }
  const PartitionSpec* spec_by_id(int32_t spec_id) const;
  const SortOrder* sort_order() const { return sort_order_by_id(default_sort_order_id); }
  const SortOrder* sort_order_by_id(int32_t order_id) const;
  const Snapshot* snapshot_by_id(int64_t snapshot_id) const;
  const Snapshot* current_snapshot() const;
  // Head of a branch or tag ("main" = current snapshot).
  const Snapshot* snapshot_for_ref(std::string_view ref) const;
  // The snapshot that was current at a time, from the snapshot log (time travel).
  const Snapshot* snapshot_as_of_time(int64_t timestamp_ms) const;
  // Property value or a default.
  std::string property(const std::string& key, const std::string& fallback = "") const;

  // Cross-field consistency: current schema/spec/sort order exist, ids unique, refs and the
  // current snapshot point at known snapshots, sequence numbers within last-sequence-number.
  Status validate() const;

  // Field-by-field equality (schemas, specs, orders and snapshots compared by value).
  bool operator==(const TableMetadata& other) const;
};

struct MetadataParseOptions {
  // Keep only the snapshots that refs and current-snapshot-id point at (a scan of a branch,
  // tag or the current state needs no others). A table with years of streaming commits has
  // tens of thousands of snapshots, and parsing them dominates planning a narrow query
  // (bench/README.md, workload P1). The others are counted in `omitted_snapshots`.
  bool referenced_snapshots_only = false;
};

// Parses table metadata JSON text. Errors name the file section and field.
Result<TableMetadata> parse_table_metadata(std::string_view json,
                                           const MetadataParseOptions& options = {});
// Serializes in the field order the Java reference writes. `pretty` indents by 2.
std::string table_metadata_to_json(const TableMetadata& metadata, bool pretty = false);

// Schema, partition spec and sort order JSON on their own (manifest key-value metadata, the
// REST protocol and tests use these).
Result<SchemaPtr> parse_schema_json(std::string_view json);
std::string schema_to_json(const Schema& schema);
Result<PartitionSpecPtr> parse_partition_spec_json(std::string_view json);
std::string partition_spec_to_json(const PartitionSpec& spec);
// The `fields` array alone, as manifests store it under "partition-spec".
std::string partition_spec_fields_to_json(const PartitionSpec& spec);
Result<std::vector<PartitionField>> parse_partition_fields_json(std::string_view json);
Result<SortOrderPtr> parse_sort_order_json(std::string_view json);
std::string sort_order_to_json(const SortOrder& order);

}  // namespace floe
