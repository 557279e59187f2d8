// Shared pieces of the metadata tables: field builders, partition types across specs, snapshot
// resolution, value coercion (metadata_tables_common.cc) and the schema and reader of each
// table family (metadata_tables_{snapshots,manifests,files,partitions}.cc).
#pragma once

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "floe/manifest/manifest.h"
#include "floe/table/metadata_tables.h"
#include "floe/util/thread_pool.h"

namespace floe::internal {

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

template <typename T>
void append_opt(ColumnVector& col, const std::optional<T>& v) {
  if (v) {
    col.append_fixed<T>(*v);
  } else {
    col.append_null();
  }
}

// Maps the partition tuple of each spec onto the table-wide partition type.
class PartitionCoercer {
 public:
  PartitionCoercer(const TableMetadata& m, TypePtr partition_type)
      : m_(m), type_(std::move(partition_type)) {}

  // For each field of the table partition type, the position in the spec's tuple or -1.
  const std::vector<int>& positions(int32_t spec_id, const PartitionSpec* file_spec) {
    auto it = cache_.find(spec_id);
    if (it != cache_.end()) return it->second;
    const PartitionSpec* spec = m_.spec_by_id(spec_id);
    if (spec == nullptr) spec = file_spec;
    std::vector<int> pos(type_->fields().size(), -1);
    for (size_t j = 0; j < pos.size() && spec; ++j) {
      for (size_t i = 0; i < spec->fields().size(); ++i) {
        if (spec->fields()[i].field_id == type_->fields()[j].id) pos[j] = static_cast<int>(i);
      }
    }
    return cache_.emplace(spec_id, std::move(pos)).first->second;
  }

  std::vector<Literal> coerce(const DataFile& f, const PartitionSpec* file_spec) {
    const std::vector<int>& pos = positions(f.spec_id, file_spec);
    std::vector<Literal> out;
    out.reserve(pos.size());
    for (size_t j = 0; j < pos.size(); ++j) {
      const TypePtr& t = type_->fields()[j].type;
      int p = pos[j];
      out.push_back(p >= 0 && static_cast<size_t>(p) < f.partition.size()
                        ? coerce_literal(f.partition[p], t)
                        : Literal::null(t));
    }
    return out;
  }

  const TypePtr& type() const { return type_; }

 private:
  const TableMetadata& m_;
  TypePtr type_;
  std::unordered_map<int32_t, std::vector<int>> cache_;
};

// Appends a partition tuple coerced by PartitionCoercer as one struct value.
void append_partition(ColumnVector& col, const std::vector<Literal>& values);

// Runs `fn(i)` for every manifest on a pool, `chunk` manifests at a time, then hands the
// chunk's results to `emit` in manifest order (bounded memory, ordered output).
template <typename R>
Status for_manifests_in_order(size_t n, int threads, const std::function<Result<R>(size_t)>& fn,
                              const std::function<Status(R&&)>& emit) {
  ThreadPool pool(threads);
  const size_t chunk = static_cast<size_t>(pool.size()) * 4;
  for (size_t begin = 0; begin < n; begin += chunk) {
    const size_t end = std::min(n, begin + chunk);
    std::vector<std::optional<R>> results(end - begin);
    FLOE_TRY(pool.parallel_for(end - begin, [&](size_t i) -> Status {
      results[i] = FLOE_TRY(fn(begin + i));
      return Status::OK();
    }));
    for (auto& r : results) FLOE_TRY(emit(std::move(*r)));
  }
  return Status::OK();
}

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
Status scan_snapshots(const TableMetadata& m, const MetadataTableOptions& options,
                      const MetadataBatchSink& sink);
Status scan_history(const TableMetadata& m, const MetadataTableOptions& options,
                    const MetadataBatchSink& sink);
Status scan_metadata_log(const TableMetadata& m, const MetadataTableOptions& options,
                         const MetadataBatchSink& sink);
Status scan_refs(const TableMetadata& m, const MetadataTableOptions& options,
                 const MetadataBatchSink& sink);
Status scan_manifests_table(FileIO& io, const TableMetadata& metadata, bool all,
                            const MetadataTableOptions& options, const MetadataBatchSink& sink);
Status scan_files_table(FileIO& io, const TableMetadata& metadata, MetadataTableType type,
                        const MetadataTableOptions& options, const MetadataBatchSink& sink);
Status scan_partitions_table(FileIO& io, const TableMetadata& metadata,
                             const MetadataTableOptions& options, const MetadataBatchSink& sink);

}  // namespace floe::internal
