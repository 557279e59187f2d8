// Iceberg metadata tables (`t.snapshots`, `t.manifests`, `t.files`, ...) as column batches, with
// the column names, field ids, order and types of the Java reference (what Spark shows), so the
// SQL layer and the CLI can query them like any table.
//
// Tables whose content depends on a snapshot (manifests, files, data_files, delete_files,
// entries, partitions) read the current snapshot or the one given; the `all_*` tables span the
// manifests of every live snapshot (deduplicated by manifest path, as Java does; all_manifests
// keeps one row per snapshot and manifest with reference_snapshot_id). Manifests are read in
// parallel on a ThreadPool; batches come out in manifest-list order.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/io/file_io.h"
#include "floe/spec/metadata_file.h"
#include "floe/spec/schema.h"
#include "floe/spec/table_metadata.h"
#include "floe/util/result.h"

namespace floe {

enum class MetadataTableType {
  kEntries,
  kFiles,
  kDataFiles,
  kDeleteFiles,
  kHistory,
  kMetadataLogEntries,
  kSnapshots,
  kRefs,
  kManifests,
  kPartitions,
  kAllDataFiles,
  kAllDeleteFiles,
  kAllFiles,
  kAllManifests,
  kAllEntries,
};

// "entries", "files", "data_files", ... (Java's MetadataTableType names, lower case).
const char* metadata_table_name(MetadataTableType type);
// Case-insensitive ("MANIFESTS", "all_files"); nullopt for unknown names.
std::optional<MetadataTableType> metadata_table_type_from_name(std::string_view name);
// Every metadata table, in the order of Java's MetadataTableType enum.
const std::vector<MetadataTableType>& all_metadata_table_types();
std::vector<std::string> metadata_table_names();
// True for tables that read one snapshot (and so accept a snapshot id for time travel).
bool metadata_table_uses_snapshot(MetadataTableType type);

struct MetadataTableOptions {
  // Time travel for the snapshot-based tables; default: the current snapshot. Unknown ids
  // are an error. Ignored (and allowed) by tables that do not depend on a snapshot.
  std::optional<int64_t> snapshot_id;
  // Threads reading manifests (0: one per core).
  int threads = 0;
  // Rows per batch for the tables that do not come from manifests.
  int64_t batch_rows = 4096;
  // The current metadata file's location, the last row of metadata_log_entries (Java's
  // metadataFileLocation). Empty: that row is left out.
  std::string metadata_file_location;
};

// The schema of a metadata table over this table's metadata: fixed for the snapshot, history,
// refs and manifest tables; for the file, entry and partition tables it embeds the partition
// type of all specs (Java's Partitioning.partitionType) and, for files and entries, the
// `readable_metrics` struct derived from the table's current schema.
Result<SchemaPtr> metadata_table_schema(const TableMetadata& metadata, MetadataTableType type);

// Receives batches in order; an error (e.g. kCancelled for a LIMIT) stops the read and is
// returned as is.
using MetadataBatchSink = std::function<Status(ColumnBatch&&)>;

// Streams the rows of a metadata table. `io` reads manifest lists and manifests.
Status scan_metadata_table(FileIO& io, const TableMetadata& metadata, MetadataTableType type,
                           const MetadataTableOptions& options, const MetadataBatchSink& sink);

// A metadata table materialised: its schema and all its batches.
struct MetadataTable {
  SchemaPtr schema;
  std::vector<ColumnBatch> batches;

  int64_t num_rows() const;
};

Result<MetadataTable> read_metadata_table(FileIO& io, const TableMetadata& metadata,
                                          MetadataTableType type,
                                          const MetadataTableOptions& options = {});
// For a table opened from storage; fills metadata_file_location from the table when unset.
Result<MetadataTable> read_metadata_table(const StoredTable& table, MetadataTableType type,
                                          MetadataTableOptions options = {});

}  // namespace floe
