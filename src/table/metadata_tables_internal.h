// Shared pieces of the metadata tables: field builders, partition types across specs, snapshot
// resolution and the per-table readers (metadata_tables_manifests.cc, metadata_tables_files.cc).
#pragma once

#include <string>
#include <vector>

#include "floe/manifest/manifest.h"
#include "floe/table/metadata_tables.h"

namespace floe::meta_internal {

inline NestedField opt(int32_t id, std::string name, TypePtr type) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.type = std::move(type);
  return f;
}
inline NestedField req(int32_t id, std::string name, TypePtr type) {
  NestedField f = opt(id, std::move(name), std::move(type));
  f.required = true;
  return f;
}

// The partition struct of one spec, bound to the current schema or, when a source column was
// dropped since, to the newest schema that still has it. nullptr when no schema fits.
TypePtr spec_partition_type(const TableMetadata& metadata, const PartitionSpec& spec);

// Java's Partitioning.partitionType: every partition field of every spec, by field id in
// ascending order, named as in the newest spec that has it.
TypePtr table_partition_type(const TableMetadata& metadata);

// The snapshot a snapshot-based table reads: options.snapshot_id or the current one. nullptr
// for an empty table; an error for an unknown id.
Result<const Snapshot*> resolve_snapshot(const TableMetadata& metadata,
                                         const MetadataTableOptions& options);

// Manifests of every live snapshot, each manifest once (first occurrence, snapshots in
// metadata order), as Java's reachable-manifests planning does.
Result<std::vector<ManifestFile>> reachable_manifests(FileIO& io, const TableMetadata& metadata,
                                                      int threads);

// A value converted to another type where Java would coerce it (int -> long, int -> date,
// float -> double, anything -> string for unknown transforms); null when it cannot be.
Literal coerce_literal(const Literal& value, const TypePtr& to);

// Appends a value of any type; a literal whose type differs from the column's (int partition
// values under a promoted long field, int day values under date) is converted when it can be,
// else appended as null.
void append_coerced(ColumnVector& col, const Literal& value);

// Schemas.
SchemaPtr snapshots_schema();
SchemaPtr history_schema();
SchemaPtr metadata_log_entries_schema();
SchemaPtr refs_schema();
SchemaPtr manifests_schema(bool all);
Result<SchemaPtr> files_schema(const TableMetadata& metadata);
Result<SchemaPtr> entries_schema(const TableMetadata& metadata);
Result<SchemaPtr> partitions_schema(const TableMetadata& metadata);

// Readers.
Status scan_manifests_table(FileIO& io, const TableMetadata& metadata, bool all,
                            const MetadataTableOptions& options, const MetadataBatchSink& sink);
Status scan_files_table(FileIO& io, const TableMetadata& metadata, MetadataTableType type,
                        const MetadataTableOptions& options, const MetadataBatchSink& sink);
Status scan_partitions_table(FileIO& io, const TableMetadata& metadata,
                             const MetadataTableOptions& options, const MetadataBatchSink& sink);

}  // namespace floe::meta_internal
