// The manifests and all_manifests tables: manifest list entries with their partition summaries
// rendered as text the way Java does (the transform's human string of the bound decoded with
// the partition field's result type: `2024-06-15` for a day, `2024-06-15-10` for an hour, the
// bucket number for a bucket).
#include <unordered_map>

#include "floe/manifest/manifest_list_reader.h"
#include "floe/util/thread_pool.h"
#include "table/metadata_tables_internal.h"

namespace floe::internal {

SchemaPtr manifests_schema(bool all) {
  auto make = [](bool all) {
    // all_manifests declares more columns optional (v1 lists may lack them) and contains_nan
    // required; manifests the reverse, as in Java.
    auto f = [all](int32_t id, std::string name, TypePtr t, bool required_in_manifests) {
      return (required_in_manifests && !all) ? req(id, std::move(name), std::move(t))
                                             : opt(id, std::move(name), std::move(t));
    };
    TypePtr summary = Type::struct_of({
        req(10, "contains_null", Type::boolean()),
        all ? req(11, "contains_nan", Type::boolean()) : opt(11, "contains_nan", Type::boolean()),
        opt(12, "lower_bound", Type::string()),
        opt(13, "upper_bound", Type::string()),
    });
    std::vector<NestedField> fields = {
        req(14, "content", Type::int32()),
        req(1, "path", Type::string()),
        req(2, "length", Type::int64()),
        f(3, "partition_spec_id", Type::int32(), true),
        f(4, "added_snapshot_id", Type::int64(), true),
        f(5, "added_data_files_count", Type::int32(), true),
        f(6, "existing_data_files_count", Type::int32(), true),
        f(7, "deleted_data_files_count", Type::int32(), true),
        req(15, "added_delete_files_count", Type::int32()),
        req(16, "existing_delete_files_count", Type::int32()),
        req(17, "deleted_delete_files_count", Type::int32()),
        f(8, "partition_summaries", Type::list_of(9, summary, true), true),
    };
    if (all) fields.push_back(req(18, "reference_snapshot_id", Type::int64()));
    return std::make_shared<Schema>(0, std::move(fields));
  };
  static const SchemaPtr kManifests = make(false);
  static const SchemaPtr kAll = make(true);
  return all ? kAll : kManifests;
}

namespace {

void append_count(ColumnVector& col, bool applies, const std::optional<int32_t>& v) {
  if (!applies) {
    col.append_fixed<int32_t>(0);
  } else if (v) {
    col.append_fixed<int32_t>(*v);
  } else {
    col.append_null();
  }
}

// Partition types per spec id, computed once per table.
class SpecTypes {
 public:
  explicit SpecTypes(const TableMetadata& m) : m_(m) {}
  const TypePtr& get(int32_t spec_id) {
    auto it = cache_.find(spec_id);
    if (it != cache_.end()) return it->second;
    const PartitionSpec* spec = m_.spec_by_id(spec_id);
    TypePtr t = spec ? spec_partition_type(m_, *spec) : nullptr;
    return cache_.emplace(spec_id, std::move(t)).first->second;
  }

 private:
  const TableMetadata& m_;
  std::unordered_map<int32_t, TypePtr> cache_;
};

void append_bound(ColumnVector& col, const PartitionField* field, const TypePtr& type,
                  const std::optional<std::string>& bytes) {
  if (field == nullptr || type == nullptr) {
    col.append_null();
    return;
  }
  Literal value = Literal::null(type);
  if (bytes) {
    auto lit = Literal::from_bytes(type, *bytes);
    if (!lit.ok()) {
      col.append_null();
      return;
    }
    value = std::move(*lit);
  }
  // Java renders a missing bound through toHumanString too, which gives "null".
  col.append_bytes(field->transform.to_human_string(value));
}

void append_summaries(ColumnVector& list, const TableMetadata& m, SpecTypes& types,
                      const ManifestFile& mf) {
  if (!mf.partitions) {
    list.append_null();
    return;
  }
  const PartitionSpec* spec = m.spec_by_id(mf.partition_spec_id);
  const TypePtr& ptype = types.get(mf.partition_spec_id);
  ColumnVector& s = list.child(0);
  int32_t n = 0;
  for (size_t i = 0; i < mf.partitions->size(); ++i) {
    const PartitionFieldSummary& fs = (*mf.partitions)[i];
    const PartitionField* field = spec && i < spec->fields().size() ? &spec->fields()[i] : nullptr;
    const TypePtr type = ptype && i < ptype->fields().size() ? ptype->fields()[i].type : nullptr;
    s.child(0).append_bool(fs.contains_null);
    if (fs.contains_nan) {
      s.child(1).append_bool(*fs.contains_nan);
    } else {
      s.child(1).append_null();
    }
    append_bound(s.child(2), field, type, fs.lower_bound);
    append_bound(s.child(3), field, type, fs.upper_bound);
    s.append_struct();
    ++n;
  }
  list.append_list(n);
}

void append_manifest_row(ColumnBatch& b, const TableMetadata& m, SpecTypes& types,
                         const ManifestFile& mf, std::optional<int64_t> reference_snapshot) {
  const bool data = mf.content == ManifestContent::kData;
  b.columns[0]->append_fixed<int32_t>(static_cast<int32_t>(mf.content));
  b.columns[1]->append_bytes(mf.manifest_path);
  b.columns[2]->append_fixed<int64_t>(mf.manifest_length);
  b.columns[3]->append_fixed<int32_t>(mf.partition_spec_id);
  if (mf.added_snapshot_id) {
    b.columns[4]->append_fixed<int64_t>(*mf.added_snapshot_id);
  } else {
    b.columns[4]->append_null();
  }
  append_count(*b.columns[5], data, mf.added_files_count);
  append_count(*b.columns[6], data, mf.existing_files_count);
  append_count(*b.columns[7], data, mf.deleted_files_count);
  append_count(*b.columns[8], !data, mf.added_files_count);
  append_count(*b.columns[9], !data, mf.existing_files_count);
  append_count(*b.columns[10], !data, mf.deleted_files_count);
  append_summaries(*b.columns[11], m, types, mf);
  if (reference_snapshot) b.columns[12]->append_fixed<int64_t>(*reference_snapshot);
  ++b.num_rows;
}

}  // namespace

Status scan_manifests_table(FileIO& io, const TableMetadata& metadata, bool all,
                            const MetadataTableOptions& options, const MetadataBatchSink& sink) {
  SchemaPtr schema = manifests_schema(all);
  SpecTypes types(metadata);
  if (!all) {
    const Snapshot* snapshot = FLOE_TRY(resolve_snapshot(metadata, options));
    if (snapshot == nullptr) return Status::OK();
    std::vector<ManifestFile> manifests = FLOE_TRY(snapshot_manifests(io, metadata, *snapshot));
    ColumnBatch b = ColumnBatch::make(schema->fields());
    for (const auto& mf : manifests) append_manifest_row(b, metadata, types, mf, std::nullopt);
    return b.num_rows > 0 ? sink(std::move(b)) : Status::OK();
  }
  // One batch per snapshot, in metadata order; the manifest lists are read in parallel.
  std::vector<std::vector<ManifestFile>> lists(metadata.snapshots.size());
  ThreadPool pool(options.threads);
  FLOE_TRY(pool.parallel_for(lists.size(), [&](size_t i) -> Status {
    lists[i] = FLOE_TRY(snapshot_manifests(io, metadata, *metadata.snapshots[i]));
    return Status::OK();
  }));
  for (size_t i = 0; i < lists.size(); ++i) {
    if (lists[i].empty()) continue;
    ColumnBatch b = ColumnBatch::make(schema->fields());
    for (const auto& mf : lists[i]) {
      append_manifest_row(b, metadata, types, mf, metadata.snapshots[i]->snapshot_id);
    }
    FLOE_TRY(sink(std::move(b)));
  }
  return Status::OK();
}

}  // namespace floe::internal
