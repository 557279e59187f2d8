// Helpers shared by the metadata table families: partition types across specs, snapshot
// resolution, reachable manifests and value coercion.
#include <algorithm>
#include <map>
#include <unordered_set>

#include "floe/manifest/manifest_list_reader.h"
#include "floe/util/thread_pool.h"
#include "table/metadata_tables_internal.h"

namespace floe::internal {

TypePtr spec_partition_type(const TableMetadata& metadata, const PartitionSpec& spec) {
  if (const Schema* s = metadata.schema()) {
    auto t = spec.partition_type(*s);
    if (t.ok()) return *t;
  }
  for (auto it = metadata.schemas.rbegin(); it != metadata.schemas.rend(); ++it) {
    auto t = spec.partition_type(**it);
    if (t.ok()) return *t;
  }
  return nullptr;
}

TypePtr table_partition_type(const TableMetadata& metadata) {
  std::vector<const PartitionSpec*> specs;
  for (const auto& s : metadata.specs) specs.push_back(s.get());
  // Newest spec first: its names win; an older spec only supplies the type of a field the
  // newer ones keep as void (v1 tables drop fields that way).
  std::sort(specs.begin(), specs.end(),
            [](const auto* a, const auto* b) { return a->spec_id() > b->spec_id(); });
  struct Entry {
    std::string name;
    TypePtr type;
    bool is_void;
  };
  std::map<int32_t, Entry> fields;
  for (const PartitionSpec* spec : specs) {
    TypePtr ptype = spec_partition_type(metadata, *spec);
    for (size_t i = 0; i < spec->fields().size(); ++i) {
      const PartitionField& pf = spec->fields()[i];
      TypePtr type = ptype ? ptype->fields()[i].type : Type::string();
      auto it = fields.find(pf.field_id);
      if (it == fields.end()) {
        fields.emplace(pf.field_id, Entry{pf.name, type, pf.transform.is_void()});
      } else if (it->second.is_void && !pf.transform.is_void()) {
        it->second.type = type;
        it->second.is_void = false;
      }
    }
  }
  std::vector<NestedField> out;
  for (auto& [id, e] : fields) out.push_back(opt(id, e.name, e.type));
  return Type::struct_of(std::move(out));
}

Result<const Snapshot*> resolve_snapshot(const TableMetadata& metadata,
                                         const MetadataTableOptions& options) {
  if (options.snapshot_id) {
    const Snapshot* s = metadata.snapshot_by_id(*options.snapshot_id);
    if (s == nullptr) return not_found("snapshot {} is not in the table", *options.snapshot_id);
    return s;
  }
  return metadata.current_snapshot();
}

Result<std::vector<ManifestFile>> reachable_manifests(FileIO& io, const TableMetadata& metadata,
                                                      int threads) {
  std::vector<std::vector<ManifestFile>> lists(metadata.snapshots.size());
  ThreadPool pool(threads);
  FLOE_TRY(pool.parallel_for(lists.size(), [&](size_t i) -> Status {
    lists[i] = FLOE_TRY(snapshot_manifests(io, metadata, *metadata.snapshots[i]));
    return Status::OK();
  }));
  std::vector<ManifestFile> out;
  std::unordered_set<std::string> seen;
  for (auto& list : lists) {
    for (auto& m : list) {
      if (seen.insert(m.manifest_path).second) out.push_back(std::move(m));
    }
  }
  return out;
}

Literal coerce_literal(const Literal& value, const TypePtr& to) {
  if (value.is_null() || !value.type() || !to) return Literal::null(to);
  const TypeId t = to->id();
  const TypeId from = value.type()->id();
  auto int_backed = [](TypeId id) {
    return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDate ||
           id == TypeId::kTime || id == TypeId::kTimestamp || id == TypeId::kTimestampTz ||
           id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs;
  };
  if (t == from) return value;
  if (int_backed(t) && int_backed(from)) return Literal::of_int(to, value.as_int64());
  if (t == TypeId::kDouble && from == TypeId::kFloat) return Literal::float64(value.as_float());
  if (t == TypeId::kString) return Literal::string(value.to_string());
  return Literal::null(to);
}

void append_coerced(ColumnVector& col, const Literal& value) {
  if (value.is_null() || !value.type()) {
    col.append_null();
    return;
  }
  if (!col.append_literal(coerce_literal(value, col.type())).ok()) col.append_null();
}

void append_partition(ColumnVector& col, const std::vector<Literal>& values) {
  for (size_t j = 0; j < values.size(); ++j) append_coerced(col.child(j), values[j]);
  col.append_struct();
}

}  // namespace floe::internal
