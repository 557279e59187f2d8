// Metadata tables: names, and the dispatch from a table type to its family
// (metadata_tables_{snapshots,manifests,files,partitions}.cc).
#include "floe/table/metadata_tables.h"

#include <cctype>

#include "table/metadata_tables_internal.h"

namespace floe {

namespace {

struct TableName {
  MetadataTableType type;
  const char* name;
};

// Java's MetadataTableType order.
constexpr TableName kTableNames[] = {
    {MetadataTableType::kEntries, "entries"},
    {MetadataTableType::kFiles, "files"},
    {MetadataTableType::kDataFiles, "data_files"},
    {MetadataTableType::kDeleteFiles, "delete_files"},
    {MetadataTableType::kHistory, "history"},
    {MetadataTableType::kMetadataLogEntries, "metadata_log_entries"},
    {MetadataTableType::kSnapshots, "snapshots"},
    {MetadataTableType::kRefs, "refs"},
    {MetadataTableType::kManifests, "manifests"},
    {MetadataTableType::kPartitions, "partitions"},
    {MetadataTableType::kAllDataFiles, "all_data_files"},
    {MetadataTableType::kAllDeleteFiles, "all_delete_files"},
    {MetadataTableType::kAllFiles, "all_files"},
    {MetadataTableType::kAllManifests, "all_manifests"},
    {MetadataTableType::kAllEntries, "all_entries"},
};

}  // namespace

const char* metadata_table_name(MetadataTableType type) {
  for (const auto& t : kTableNames) {
    if (t.type == type) return t.name;
  }
  return "unknown";
}

std::optional<MetadataTableType> metadata_table_type_from_name(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& t : kTableNames) {
    if (lower == t.name) return t.type;
  }
  return std::nullopt;
}

const std::vector<MetadataTableType>& all_metadata_table_types() {
  static const std::vector<MetadataTableType> kAll = [] {
    std::vector<MetadataTableType> v;
    for (const auto& t : kTableNames) v.push_back(t.type);
    return v;
  }();
  return kAll;
}

std::vector<std::string> metadata_table_names() {
  std::vector<std::string> v;
  for (const auto& t : kTableNames) v.emplace_back(t.name);
  return v;
}

bool metadata_table_uses_snapshot(MetadataTableType type) {
  switch (type) {
    case MetadataTableType::kEntries:
    case MetadataTableType::kFiles:
    case MetadataTableType::kDataFiles:
    case MetadataTableType::kDeleteFiles:
    case MetadataTableType::kManifests:
    case MetadataTableType::kPartitions:
      return true;
    default:
      return false;
  }
}

int64_t MetadataTable::num_rows() const {
  int64_t n = 0;
  for (const auto& b : batches) n += b.num_rows;
  return n;
}

using namespace internal;

Result<SchemaPtr> metadata_table_schema(const TableMetadata& metadata, MetadataTableType type) {
  switch (type) {
    case MetadataTableType::kSnapshots:
      return snapshots_schema();
    case MetadataTableType::kHistory:
      return history_schema();
    case MetadataTableType::kMetadataLogEntries:
      return metadata_log_entries_schema();
    case MetadataTableType::kRefs:
      return refs_schema();
    case MetadataTableType::kManifests:
      return manifests_schema(false);
    case MetadataTableType::kAllManifests:
      return manifests_schema(true);
    case MetadataTableType::kFiles:
    case MetadataTableType::kDataFiles:
    case MetadataTableType::kDeleteFiles:
    case MetadataTableType::kAllFiles:
    case MetadataTableType::kAllDataFiles:
    case MetadataTableType::kAllDeleteFiles:
      return files_schema(metadata);
    case MetadataTableType::kEntries:
    case MetadataTableType::kAllEntries:
      return entries_schema(metadata);
    case MetadataTableType::kPartitions:
      return partitions_schema(metadata);
  }
  return invalid_argument("unknown metadata table");
}

Status scan_metadata_table(FileIO& io, const TableMetadata& metadata, MetadataTableType type,
                           const MetadataTableOptions& options, const MetadataBatchSink& sink) {
  switch (type) {
    case MetadataTableType::kSnapshots:
      return scan_snapshots(metadata, options, sink);
    case MetadataTableType::kHistory:
      return scan_history(metadata, options, sink);
    case MetadataTableType::kMetadataLogEntries:
      return scan_metadata_log(metadata, options, sink);
    case MetadataTableType::kRefs:
      return scan_refs(metadata, options, sink);
    case MetadataTableType::kManifests:
      return scan_manifests_table(io, metadata, false, options, sink);
    case MetadataTableType::kAllManifests:
      return scan_manifests_table(io, metadata, true, options, sink);
    case MetadataTableType::kPartitions:
      return scan_partitions_table(io, metadata, options, sink);
    default:
      return scan_files_table(io, metadata, type, options, sink);
  }
}

Result<MetadataTable> read_metadata_table(FileIO& io, const TableMetadata& metadata,
                                          MetadataTableType type,
                                          const MetadataTableOptions& options) {
  MetadataTable out;
  out.schema = FLOE_TRY(metadata_table_schema(metadata, type));
  FLOE_TRY(scan_metadata_table(io, metadata, type, options, [&](ColumnBatch&& batch) {
    out.batches.push_back(std::move(batch));
    return Status::OK();
  }));
  return out;
}

Result<MetadataTable> read_metadata_table(const StoredTable& table, MetadataTableType type,
                                          MetadataTableOptions options) {
  if (options.metadata_file_location.empty()) {
    options.metadata_file_location = table.metadata_file.path;
  }
  return read_metadata_table(*table.io, *table.metadata, type, options);
}

}  // namespace floe
