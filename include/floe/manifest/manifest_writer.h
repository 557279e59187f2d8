// Writing manifests and manifest lists as Java does: the spec's Avro schemas with field ids in
// Java's field order and record names (manifest_entry, r2, r102, k117_v118, manifest_file,
// r508), the header key-value metadata Java writes, partition summaries computed while
// writing, and rolling to a new manifest at a target size. The default codec is deflate
// (Java's "gzip" default is deflate level 9).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/format/avro/container.h"
#include "floe/io/file_io.h"
#include "floe/manifest/manifest.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"

namespace floe {

struct ManifestWriterOptions {
  int format_version = 2;
  ManifestContent content = ManifestContent::kData;
  // Snapshot that adds the manifest: the added_snapshot_id of the result, and the snapshot id
  // written on ADDED entries by add().
  std::optional<int64_t> snapshot_id;
  avro::Codec codec = avro::Codec::kDeflate;
  int level = 9;  // Java writes deflate level 9
  // commit.manifest.target-size-bytes (Java default 8 MB): start a new manifest past this.
  int64_t target_size_bytes = 8 * 1024 * 1024;
  // Fixed sync marker (tests); empty = random.
  std::string sync_marker;
};

class ManifestWriter {
 public:
  // `path_for(i)` names the i-th manifest written (0, 1, ... as the writer rolls).
  static Result<std::unique_ptr<ManifestWriter>> make(FileIO& io,
                                                      std::function<std::string(int)> path_for,
                                                      SchemaPtr schema, PartitionSpecPtr spec,
                                                      ManifestWriterOptions options = {});
  ~ManifestWriter();

  // An ADDED entry: snapshot id from the options, sequence numbers left to inheritance unless
  // `data_sequence_number` is given (e.g. compaction keeping an older one).
  Status add(const DataFile& file, std::optional<int64_t> data_sequence_number = std::nullopt);
  // EXISTING / DELETED entries carry their own snapshot id and sequence numbers.
  Status existing(const ManifestEntry& entry);
  Status deleted(const ManifestEntry& entry);
  // Any entry as given.
  Status write(const ManifestEntry& entry);

  // Closes the current manifest; returns every manifest written (sequence numbers unassigned,
  // -1, until the manifest list writer stamps them).
  Result<std::vector<ManifestFile>> finish();

  // The Avro schema JSON used for entries (for tools and tests).
  const std::string& avro_schema_json() const;

 private:
  struct Impl;
  explicit ManifestWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

struct ManifestListWriterOptions {
  int format_version = 2;
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  int64_t sequence_number = 0;  // the snapshot's (v2+)
  // v3: the snapshot's first-row-id; data manifests without one get consecutive ranges.
  std::optional<int64_t> first_row_id;
  avro::Codec codec = avro::Codec::kDeflate;
  int level = 9;
  std::string sync_marker;
};

struct ManifestListWriteResult {
  std::vector<ManifestFile> manifests;  // as written (sequence numbers and row ids stamped)
  int64_t length = 0;                   // file size
  std::optional<int64_t> next_row_id;   // v3: first-row-id + rows assigned
};

// Writes a manifest list: stamps unassigned sequence numbers with the snapshot's and (v3)
// assigns first_row_id ranges in list order.
Result<ManifestListWriteResult> write_manifest_list(FileIO& io, std::string_view path,
                                                    const std::vector<ManifestFile>& manifests,
                                                    const ManifestListWriterOptions& options);

// Partition summaries of a set of partition tuples (Java's PartitionSummary): nulls, NaNs,
// and min/max over non-null non-NaN values in the field's single-value binary form.
class PartitionSummaryBuilder {
 public:
  explicit PartitionSummaryBuilder(TypePtr partition_type);
  void update(const std::vector<Literal>& partition);
  std::vector<PartitionFieldSummary> summaries() const;

 private:
  struct FieldStats {
    bool contains_null = false;
    bool contains_nan = false;
    std::optional<Literal> min, max;
  };
  TypePtr type_;
  std::vector<FieldStats> stats_;
};

}  // namespace floe
