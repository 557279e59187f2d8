// Snapshots (spec "Snapshots"), snapshot references (branches and tags), the snapshot and
// metadata logs, and statistics file descriptors as they appear in table metadata.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace floe {

struct Snapshot {
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  int64_t sequence_number = 0;  // 0 for v1
  int64_t timestamp_ms = 0;
  std::string manifest_list;           // empty for v1 snapshots with inline manifests
  std::vector<std::string> manifests;  // v1 only: inline manifest paths
  // The summary map, including "operation" (append, replace, overwrite, delete). Empty when
  // a v1 snapshot has no summary.
  std::map<std::string, std::string> summary;
  std::optional<int32_t> schema_id;
  std::optional<int64_t> first_row_id;  // v3
  std::optional<int64_t> added_rows;    // v3
  std::optional<std::string> key_id;    // v3 encryption

  std::string operation() const {
    auto it = summary.find("operation");
    return it == summary.end() ? std::string() : it->second;
  }
  bool operator==(const Snapshot& other) const = default;
};

using SnapshotPtr = std::shared_ptr<const Snapshot>;

enum class SnapshotRefType : uint8_t { kBranch, kTag };

struct SnapshotRef {
  int64_t snapshot_id = 0;
  SnapshotRefType type = SnapshotRefType::kBranch;
  std::optional<int32_t> min_snapshots_to_keep;  // branches only
  std::optional<int64_t> max_snapshot_age_ms;    // branches only
  std::optional<int64_t> max_ref_age_ms;

  bool is_branch() const { return type == SnapshotRefType::kBranch; }
  bool operator==(const SnapshotRef& other) const = default;
};

struct SnapshotLogEntry {
  int64_t timestamp_ms = 0;
  int64_t snapshot_id = 0;
  bool operator==(const SnapshotLogEntry& other) const = default;
};

struct MetadataLogEntry {
  int64_t timestamp_ms = 0;
  std::string metadata_file;
  bool operator==(const MetadataLogEntry& other) const = default;
};

struct BlobMetadata {
  std::string type;
  int64_t source_snapshot_id = 0;
  int64_t source_snapshot_sequence_number = 0;
  std::vector<int32_t> fields;
  std::map<std::string, std::string> properties;
  bool operator==(const BlobMetadata& other) const = default;
};

// A Puffin statistics file for a snapshot (`statistics` in table metadata).
struct StatisticsFile {
  int64_t snapshot_id = 0;
  std::string statistics_path;
  int64_t file_size_in_bytes = 0;
  int64_t file_footer_size_in_bytes = 0;
  std::optional<std::string> key_metadata;  // base64 as stored
  std::vector<BlobMetadata> blob_metadata;
  bool operator==(const StatisticsFile& other) const = default;
};

// A partition statistics file (`partition-statistics`).
struct PartitionStatisticsFile {
  int64_t snapshot_id = 0;
  std::string statistics_path;
  int64_t file_size_in_bytes = 0;
  bool operator==(const PartitionStatisticsFile& other) const = default;
};

// v3 `encryption-keys` entry.
struct EncryptedKey {
  std::string key_id;
  std::string encrypted_key_metadata;  // base64 as stored
  std::optional<std::string> encrypted_by_id;
  std::map<std::string, std::string> properties;
  bool operator==(const EncryptedKey& other) const = default;
};

}  // namespace floe
