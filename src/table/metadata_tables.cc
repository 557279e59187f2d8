// Metadata tables: names, schemas, dispatch, and the tables read straight from table metadata
// (snapshots, history, metadata_log_entries, refs).
#include "floe/table/metadata_tables.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>
#include <set>
#include <unordered_set>

#include "floe/manifest/manifest_reader.h"
#include "floe/util/thread_pool.h"
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

namespace meta_internal {

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

SchemaPtr snapshots_schema() {
  static const SchemaPtr kSchema = std::make_shared<Schema>(
      0, std::vector<NestedField>{
             req(1, "committed_at", Type::timestamptz()),
             req(2, "snapshot_id", Type::int64()),
             opt(3, "parent_id", Type::int64()),
             opt(4, "operation", Type::string()),
             opt(5, "manifest_list", Type::string()),
             opt(6, "summary", Type::map_of(7, Type::string(), 8, Type::string(), true)),
         });
  return kSchema;
}

SchemaPtr history_schema() {
  static const SchemaPtr kSchema =
      std::make_shared<Schema>(0, std::vector<NestedField>{
                                      req(1, "made_current_at", Type::timestamptz()),
                                      req(2, "snapshot_id", Type::int64()),
                                      opt(3, "parent_id", Type::int64()),
                                      req(4, "is_current_ancestor", Type::boolean()),
                                  });
  return kSchema;
}

SchemaPtr metadata_log_entries_schema() {
  static const SchemaPtr kSchema =
      std::make_shared<Schema>(0, std::vector<NestedField>{
                                      req(1, "timestamp", Type::timestamptz()),
                                      req(2, "file", Type::string()),
                                      opt(3, "latest_snapshot_id", Type::int64()),
                                      opt(4, "latest_schema_id", Type::int32()),
                                      opt(5, "latest_sequence_number", Type::int64()),
                                  });
  return kSchema;
}

SchemaPtr refs_schema() {
  static const SchemaPtr kSchema =
      std::make_shared<Schema>(0, std::vector<NestedField>{
                                      req(1, "name", Type::string()),
                                      req(2, "type", Type::string()),
                                      req(3, "snapshot_id", Type::int64()),
                                      opt(4, "max_reference_age_in_ms", Type::int64()),
                                      opt(5, "min_snapshots_to_keep", Type::int32()),
                                      opt(6, "max_snapshot_age_in_ms", Type::int64()),
                                  });
  return kSchema;
}

}  // namespace meta_internal

namespace {

using namespace meta_internal;

template <typename T>
void append_opt(ColumnVector& col, const std::optional<T>& v) {
  if (v) {
    col.append_fixed<T>(*v);
  } else {
    col.append_null();
  }
}

// Collects rows into batches of at most `batch_rows`, handing full ones to the sink.
class BatchBuilder {
 public:
  BatchBuilder(const SchemaPtr& schema, int64_t batch_rows, const MetadataBatchSink& sink)
      : schema_(schema), batch_rows_(std::max<int64_t>(1, batch_rows)), sink_(sink) {
    reset();
  }
  ColumnVector& col(size_t i) { return *batch_.columns[i]; }
  Status end_row() {
    ++batch_.num_rows;
    if (batch_.num_rows >= batch_rows_) return flush();
    return Status::OK();
  }
  Status finish() { return batch_.num_rows > 0 ? flush() : Status::OK(); }

 private:
  Status flush() {
    ColumnBatch out = std::move(batch_);
    reset();
    return sink_(std::move(out));
  }
  void reset() { batch_ = ColumnBatch::make(schema_->fields()); }

  SchemaPtr schema_;
  int64_t batch_rows_;
  const MetadataBatchSink& sink_;
  ColumnBatch batch_;
};

Status scan_snapshots(const TableMetadata& m, const MetadataTableOptions& options,
                      const MetadataBatchSink& sink) {
  BatchBuilder b(snapshots_schema(), options.batch_rows, sink);
  for (const auto& s : m.snapshots) {
    b.col(0).append_fixed<int64_t>(s->timestamp_ms * 1000);
    b.col(1).append_fixed<int64_t>(s->snapshot_id);
    append_opt(b.col(2), s->parent_snapshot_id);
    std::string op = s->operation();
    if (op.empty()) {
      b.col(3).append_null();
    } else {
      b.col(3).append_bytes(op);
    }
    if (s->manifest_list.empty()) {
      b.col(4).append_null();
    } else {
      b.col(4).append_bytes(s->manifest_list);
    }
    // Java keeps the operation out of the summary map.
    ColumnVector& summary = b.col(5);
    int32_t n = 0;
    for (const auto& [k, v] : s->summary) {
      if (k == "operation") continue;
      summary.child(0).append_bytes(k);
      summary.child(1).append_bytes(v);
      ++n;
    }
    summary.append_list(n);
    FLOE_TRY(b.end_row());
  }
  return b.finish();
}

Status scan_history(const TableMetadata& m, const MetadataTableOptions& options,
                    const MetadataBatchSink& sink) {
  std::set<int64_t> ancestors;
  for (const Snapshot* s = m.current_snapshot(); s != nullptr;) {
    if (!ancestors.insert(s->snapshot_id).second) break;  // a cycle in bad metadata
    s = s->parent_snapshot_id ? m.snapshot_by_id(*s->parent_snapshot_id) : nullptr;
  }
  BatchBuilder b(history_schema(), options.batch_rows, sink);
  for (const auto& entry : m.snapshot_log) {
    const Snapshot* s = m.snapshot_by_id(entry.snapshot_id);
    b.col(0).append_fixed<int64_t>(entry.timestamp_ms * 1000);
    b.col(1).append_fixed<int64_t>(entry.snapshot_id);
    append_opt(b.col(2), s ? s->parent_snapshot_id : std::nullopt);
    b.col(3).append_bool(ancestors.count(entry.snapshot_id) > 0);
    FLOE_TRY(b.end_row());
  }
  return b.finish();
}

Status scan_metadata_log(const TableMetadata& m, const MetadataTableOptions& options,
                         const MetadataBatchSink& sink) {
  std::vector<MetadataLogEntry> entries = m.metadata_log;
  if (!options.metadata_file_location.empty()) {
    entries.push_back({m.last_updated_ms, options.metadata_file_location});
  }
  BatchBuilder b(metadata_log_entries_schema(), options.batch_rows, sink);
  for (const auto& e : entries) {
    // The snapshot current at that time, from the snapshot log (Java's snapshotIdAsOfTime).
    std::optional<int64_t> latest;
    for (const auto& log : m.snapshot_log) {
      if (log.timestamp_ms <= e.timestamp_ms) latest = log.snapshot_id;
    }
    const Snapshot* s = latest ? m.snapshot_by_id(*latest) : nullptr;
    b.col(0).append_fixed<int64_t>(e.timestamp_ms * 1000);
    b.col(1).append_bytes(e.metadata_file);
    append_opt(b.col(2), latest);
    append_opt(b.col(3), s ? s->schema_id : std::nullopt);
    append_opt(b.col(4), s ? std::optional<int64_t>(s->sequence_number) : std::nullopt);
    FLOE_TRY(b.end_row());
  }
  return b.finish();
}

Status scan_refs(const TableMetadata& m, const MetadataTableOptions& options,
                 const MetadataBatchSink& sink) {
  BatchBuilder b(refs_schema(), options.batch_rows, sink);
  // main first, then the other refs by name.
  std::vector<const std::pair<const std::string, SnapshotRef>*> refs;
  for (const auto& r : m.refs) refs.push_back(&r);
  std::stable_partition(refs.begin(), refs.end(),
                        [](const auto* r) { return r->first == kMainBranch; });
  for (const auto* r : refs) {
    const SnapshotRef& ref = r->second;
    b.col(0).append_bytes(r->first);
    b.col(1).append_bytes(ref.is_branch() ? "BRANCH" : "TAG");
    b.col(2).append_fixed<int64_t>(ref.snapshot_id);
    append_opt(b.col(3), ref.max_ref_age_ms);
    append_opt(b.col(4), ref.min_snapshots_to_keep);
    append_opt(b.col(5), ref.max_snapshot_age_ms);
    FLOE_TRY(b.end_row());
  }
  return b.finish();
}

}  // namespace

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
