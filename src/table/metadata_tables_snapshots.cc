// The tables read straight from table metadata: snapshots, history, metadata_log_entries and
// refs.
#include <algorithm>
#include <set>

#include "table/metadata_tables_internal.h"

namespace floe::internal {

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

namespace {

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

}  // namespace

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

}  // namespace floe::internal
