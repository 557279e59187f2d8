// The manifest model (spec "Manifests" and "Manifest Lists"): manifest list entries
// (ManifestFile with partition field summaries), manifest entries and the data_file struct.
// Metric maps are compact vectors of (field id, value) sorted by field id; bounds stay raw
// bytes (decode with Literal::from_bytes and the column's type, see lower_bound()).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "floe/spec/literal.h"
#include "floe/util/result.h"

namespace floe {

enum class ManifestContent : int32_t { kData = 0, kDeletes = 1 };
enum class ManifestEntryStatus : int32_t { kExisting = 0, kAdded = 1, kDeleted = 2 };
enum class FileContent : int32_t { kData = 0, kPositionDeletes = 1, kEqualityDeletes = 2 };

const char* manifest_content_name(ManifestContent c);  // "data", "deletes"
const char* entry_status_name(ManifestEntryStatus s);  // "EXISTING", "ADDED", "DELETED"
const char* file_content_name(FileContent c);  // "DATA", "POSITION_DELETES", "EQUALITY_DELETES"

// Java's placeholder for "not assigned yet": new manifests carry it until the manifest list
// writer stamps the snapshot's sequence number.
constexpr int64_t kUnassignedSequenceNumber = -1;

// One value per column id, sorted by id.
template <typename V>
using ColumnMetrics = std::vector<std::pair<int32_t, V>>;

template <typename V>
const V* find_metric(const ColumnMetrics<V>& metrics, int32_t field_id) {
  auto it = std::lower_bound(metrics.begin(), metrics.end(), field_id,
                             [](const auto& p, int32_t id) { return p.first < id; });
  return it != metrics.end() && it->first == field_id ? &it->second : nullptr;
}

// Partition summary of one partition field over a manifest (record r508).
struct PartitionFieldSummary {
  bool contains_null = false;
  std::optional<bool> contains_nan;        // null = unknown
  std::optional<std::string> lower_bound;  // single-value binary form of the field's type
  std::optional<std::string> upper_bound;
  bool operator==(const PartitionFieldSummary&) const = default;
};

// A manifest list entry (record manifest_file).
struct ManifestFile {
  std::string manifest_path;
  int64_t manifest_length = 0;
  int32_t partition_spec_id = 0;
  ManifestContent content = ManifestContent::kData;
  int64_t sequence_number = 0;               // v1: 0
  int64_t min_sequence_number = 0;           // v1: 0
  std::optional<int64_t> added_snapshot_id;  // optional in v1 lists only
  std::optional<int32_t> added_files_count;  // null = unknown (v1)
  std::optional<int32_t> existing_files_count;
  std::optional<int32_t> deleted_files_count;
  std::optional<int64_t> added_rows_count;
  std::optional<int64_t> existing_rows_count;
  std::optional<int64_t> deleted_rows_count;
  std::optional<std::vector<PartitionFieldSummary>> partitions;
  std::optional<std::string> key_metadata;
  std::optional<int64_t> first_row_id;  // v3

  bool operator==(const ManifestFile&) const = default;
};

// The data_file struct (record r2).
struct DataFile {
  FileContent content = FileContent::kData;
  std::string file_path;
  std::string file_format;         // as written ("PARQUET" from Java, "parquet" from others)
  std::vector<Literal> partition;  // one per field of the manifest's spec, in spec order
  int64_t record_count = 0;
  int64_t file_size_in_bytes = 0;
  ColumnMetrics<int64_t> column_sizes;
  ColumnMetrics<int64_t> value_counts;
  ColumnMetrics<int64_t> null_value_counts;
  ColumnMetrics<int64_t> nan_value_counts;
  ColumnMetrics<std::string> lower_bounds;
  ColumnMetrics<std::string> upper_bounds;
  std::optional<std::string> key_metadata;
  std::optional<std::vector<int64_t>> split_offsets;
  std::optional<std::vector<int32_t>> equality_ids;
  std::optional<int32_t> sort_order_id;
  std::optional<int64_t> first_row_id;  // v3
  std::optional<std::string> referenced_data_file;
  std::optional<int64_t> content_offset;  // v3 deletion vectors
  std::optional<int64_t> content_size_in_bytes;
  // Not in the file: the spec of the manifest the entry was read from.
  int32_t spec_id = 0;

  // Decodes a bound with the column's type (nullopt when absent or malformed).
  std::optional<Literal> lower_bound(int32_t field_id, const TypePtr& type) const;
  std::optional<Literal> upper_bound(int32_t field_id, const TypePtr& type) const;

  // Clears every field but keeps vector capacity (the streaming reader reuses one DataFile).
  void clear();
  bool operator==(const DataFile&) const = default;
};

// A manifest entry (record manifest_entry).
struct ManifestEntry {
  ManifestEntryStatus status = ManifestEntryStatus::kAdded;
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> sequence_number;       // data sequence number
  std::optional<int64_t> file_sequence_number;  // sequence number of the commit that added it
  DataFile data_file;

  bool is_live() const { return status != ManifestEntryStatus::kDeleted; }
  bool operator==(const ManifestEntry&) const = default;
};

}  // namespace floe
