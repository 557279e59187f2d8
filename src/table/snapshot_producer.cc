// The snapshot producer core: the new snapshot's manifests (added files, parent manifests
// filtered for deleted files), its manifest list and summary (Iceberg spec, Snapshots).
#include "floe/table/snapshot_producer.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <random>
#include <set>

#include "floe/expr/projection.h"
#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/scan/evaluators.h"
#include "floe/spec/table_properties.h"
#include "floe/table/table.h"
#include "floe/util/uuid.h"
#include "table/snapshot_producer_internal.h"

namespace floe {

using namespace internal;

namespace internal {

// Java's SnapshotIdGeneratorUtil: a random UUID's two halves xor-ed, made positive. random_uuid()
// reseeds after fork(), so forked writers never draw the same ids.
int64_t random_snapshot_id() {
  int64_t id = 0;
  while (id == 0) {
    std::string uuid = random_uuid();
    uint64_t halves[2] = {0, 0};
    int nibbles = 0;
    for (char c : uuid) {
      if (c == '-') continue;
      uint64_t v = static_cast<uint64_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
      halves[nibbles / 16] = (halves[nibbles / 16] << 4) | v;
      ++nibbles;
    }
    id = static_cast<int64_t>((halves[0] ^ halves[1]) & std::numeric_limits<int64_t>::max());
  }
  return id;
}

const Snapshot* branch_head(const TableMetadata& m, const std::string& branch) {
  if (branch == kMainBranch) return m.current_snapshot();
  auto it = m.refs.find(branch);
  if (it == m.refs.end()) return m.current_snapshot();
  return m.snapshot_by_id(it->second.snapshot_id);
}

Result<SchemaPtr> current_schema(const TableMetadata& m) {
  for (const auto& s : m.schemas) {
    if (s->schema_id() == m.current_schema_id) return s;
  }
  return invalid_data("table at '{}' has no current schema {}", m.location, m.current_schema_id);
}

Result<PartitionSpecPtr> spec_ptr(const TableMetadata& m, int32_t spec_id) {
  for (const auto& s : m.specs) {
    if (s->spec_id() == spec_id) return s;
  }
  return invalid_argument("table at '{}' has no partition spec {}", m.location, spec_id);
}

FieldLookup partition_lookup(const PartitionSpec& spec, const std::vector<Literal>& partition) {
  return [&spec, &partition](int32_t field_id) -> const Literal* {
    const auto& fields = spec.fields();
    for (size_t i = 0; i < fields.size() && i < partition.size(); ++i) {
      if (fields[i].field_id == field_id) return &partition[i];
    }
    return nullptr;
  };
}

}  // namespace internal

Result<std::vector<ManifestFile>> SnapshotProducer::new_manifests(Context& ctx) {
  const TableMetadata& base = *ctx.base;
  std::map<int32_t, std::vector<const DataFile*>> by_spec;
  for (const auto& f : added_) {
    auto spec = FLOE_TRY(spec_ptr(base, f.spec_id));
    if (f.content != FileContent::kData) {
      return invalid_argument("cannot add '{}': {} files are not data files", f.file_path,
                              file_content_name(f.content));
    }
    if (f.partition.size() != spec->fields().size()) {
      return invalid_argument("data file '{}' has {} partition values; spec {} has {} fields",
                              f.file_path, f.partition.size(), spec->spec_id(),
                              spec->fields().size());
    }
    ctx.summary.added(*spec, f);
    by_spec[f.spec_id].push_back(&f);
    if (kind_ == ProducerKind::kReplacePartitions) {
      if (spec->is_unpartitioned()) ctx.replaced_all.insert(f.spec_id);
      ctx.replaced.insert({f.spec_id, spec->partition_to_path(f.partition)});
    }
  }
  // The new manifests do not depend on the base: retries reuse them.
  if (!cached_new_.empty() || added_.empty()) return cached_new_;
  cached_new_ = FLOE_TRY(write_new_manifests(ctx, by_spec, ManifestContent::kData));
  return cached_new_;
}

// The added files of each spec as new manifests (rolled at commit.manifest.target-size-bytes).
Result<std::vector<ManifestFile>> SnapshotProducer::write_new_manifests(
    Context& ctx, const std::map<int32_t, std::vector<const DataFile*>>& by_spec,
    ManifestContent content) {
  const TableMetadata& base = *ctx.base;
  int64_t target =
      table_properties::int_property(base.properties, table_properties::kManifestTargetSizeBytes,
                                     table_properties::kManifestTargetSizeBytesDefault);
  std::vector<ManifestFile> manifests;
  for (const auto& [spec_id, files] : by_spec) {
    auto spec = FLOE_TRY(spec_ptr(base, spec_id));
    auto writer = FLOE_TRY(ManifestWriter::make(
        *io_, [&](int) { return manifest_path(base); }, ctx.schema, spec,
        writer_options(base, target, content)));
    // Rewritten files may keep an older data sequence number; other files take the snapshot's.
    for (const DataFile* f : files) {
      std::optional<int64_t> seq = new_data_sequence_number_;
      if (content == ManifestContent::kDeletes) {
        auto it = added_delete_sequence_numbers_.find(delete_key(*f));
        seq = it != added_delete_sequence_numbers_.end() ? std::optional<int64_t>(it->second)
                                                         : std::nullopt;
      }
      FLOE_TRY(writer->add(*f, seq));
    }
    auto written = FLOE_TRY(writer->finish());
    manifests.insert(manifests.end(), written.begin(), written.end());
  }
  return manifests;
}

Result<bool> SnapshotProducer::should_delete(Context& ctx, const PartitionSpec& spec,
                                             const DataFile& file) {
  if (delete_paths_.count(file.file_path)) {
    ctx.found_paths.insert(file.file_path);
    return true;
  }
  if (ctx.replaced_all.count(spec.spec_id()) ||
      ctx.replaced.count({spec.spec_id(), spec.partition_to_path(file.partition)})) {
    if (fail_any_delete_) {
      return invalid_argument("Cannot commit file that conflicts with existing partition: {}",
                              file.file_path);
    }
    return true;
  }
  if (!ctx.bound_filter) return false;
  auto it = ctx.evaluators.find(spec.spec_id());
  if (it == ctx.evaluators.end()) {
    FilterEvaluators e;
    e.strict_partition = FLOE_TRY(project_strict(ctx.bound_filter, spec, *ctx.schema));
    e.inclusive_partition = FLOE_TRY(project_inclusive(ctx.bound_filter, spec, *ctx.schema));
    it = ctx.evaluators.emplace(spec.spec_id(), std::move(e)).first;
  }
  auto lookup = partition_lookup(spec, file.partition);
  if (evaluate(it->second.strict_partition, lookup)) return true;
  if (StrictMetricsEvaluator(ctx.bound_filter).must_match(file)) return true;
  if (!evaluate(it->second.inclusive_partition, lookup)) return false;
  if (!InclusiveMetricsEvaluator(ctx.bound_filter).might_match(file)) return false;
  return invalid_argument("Cannot delete file where some, but not all, rows match filter {}: {}",
                          ctx.bound_filter->to_string(), file.file_path);
}

// A manifest whose partition summaries rule out the delete filter needs no reading, when the
// filter is the only way this update deletes.
bool SnapshotProducer::skip_manifest(Context& ctx, const PartitionSpec& spec,
                                     const ManifestFile& manifest) {
  if (!ctx.bound_filter || !delete_paths_.empty() || !ctx.replaced.empty()) return false;
  auto evaluator = ManifestEvaluator::make(ctx.bound_filter, spec, *ctx.schema);
  return evaluator.ok() && !evaluator->might_match(manifest);
}

Result<std::vector<ManifestFile>> SnapshotProducer::filter_manifests(
    Context& ctx, std::vector<ManifestFile> manifests) {
  if (!deletes_configured()) return manifests;
  const TableMetadata& base = *ctx.base;
  if (delete_filter_) {
    ctx.bound_filter = FLOE_TRY(bind_expression(delete_filter_, *ctx.schema, case_sensitive_));
  }
  std::vector<ManifestFile> out;
  for (auto& manifest : manifests) {
    bool no_live = manifest.added_files_count == 0 && manifest.existing_files_count == 0;
    if (no_live) {
      out.push_back(std::move(manifest));
      continue;
    }
    auto spec = FLOE_TRY(spec_ptr(base, manifest.partition_spec_id));
    if (auto cached = filtered_cache_.find(manifest.manifest_path);
        cached != filtered_cache_.end()) {
      for (const auto& [spec_id, f] : cached->second.removed) {
        ctx.summary.removed(*spec, f);
        note_removed(ctx, f);
      }
      ctx.found_paths.insert(cached->second.found_paths.begin(), cached->second.found_paths.end());
      out.insert(out.end(), cached->second.manifests.begin(), cached->second.manifests.end());
      ctx.replaced_manifests++;
      continue;
    }
    if (skip_manifest(ctx, *spec, manifest)) {
      out.push_back(std::move(manifest));
      continue;
    }
    auto entries = FLOE_TRY(read_manifest(*io_, manifest, &base));
    std::vector<bool> drop(entries.size(), false);
    bool any = false;
    for (size_t i = 0; i < entries.size(); ++i) {
      if (!entries[i].is_live()) continue;
      drop[i] = FLOE_TRY(should_delete(ctx, *spec, entries[i].data_file));
      any = any || drop[i];
    }
    if (!any) {
      out.push_back(std::move(manifest));
      continue;
    }
    auto writer = FLOE_TRY(ManifestWriter::make(
        *io_, [&](int) { return manifest_path(base); }, ctx.schema, spec,
        writer_options(base, std::numeric_limits<int64_t>::max())));
    Filtered filtered;
    for (size_t i = 0; i < entries.size(); ++i) {
      if (!entries[i].is_live()) continue;  // deletes of older snapshots are not carried
      const DataFile& f = entries[i].data_file;
      if (drop[i]) {
        ctx.summary.removed(*spec, f);
        filtered.removed.emplace_back(spec->spec_id(), f);
        if (delete_paths_.count(f.file_path)) filtered.found_paths.insert(f.file_path);
        FLOE_TRY(writer->deleted(entries[i]));
      } else {
        FLOE_TRY(writer->existing(entries[i]));
      }
    }
    filtered.manifests = FLOE_TRY(writer->finish());
    out.insert(out.end(), filtered.manifests.begin(), filtered.manifests.end());
    Filtered& kept = filtered_cache_[manifest.manifest_path] = std::move(filtered);
    for (const auto& [spec_id, f] : kept.removed) note_removed(ctx, f);
    ctx.replaced_manifests++;
  }
  if (fail_missing_deletes_) {
    std::vector<std::string> missing;
    for (const auto& p : delete_paths_) {
      if (!ctx.found_paths.count(p)) {
        missing.push_back(p + removed_by(base, ManifestContent::kData, {p, -1}));
      }
    }
    if (!missing.empty()) {
      return make_error(ErrorKind::kCommitConflict, "Missing required files to delete: {}",
                        fmt::join(missing, ", "));
    }
  }
  return out;
}

// Java's MergingSnapshotProducer drops the deletion vectors of removed data files; they exist in
// v3 tables only.
void SnapshotProducer::note_removed(Context& ctx, const DataFile& f) {
  if (ctx.base->format_version < 3) return;
  ctx.removed_data.push_back(&f);
  ctx.removed_data_paths.insert(f.file_path);
}

std::string SnapshotProducer::operation() const {
  switch (kind_) {
    case ProducerKind::kRowDelta:  // Java BaseRowDelta.operation()
      return !added_deletes_.empty() && added_.empty() ? "delete" : "overwrite";
    case ProducerKind::kFastAppend:
    case ProducerKind::kMergeAppend:
      return "append";
    case ProducerKind::kDelete:
      return "delete";
    case ProducerKind::kReplacePartitions:
      return "overwrite";
    case ProducerKind::kRewrite:
      return "replace";
    case ProducerKind::kOverwrite:
      if (added_.empty() && deletes_configured()) return "delete";
      if (!deletes_configured()) return "append";
      return "overwrite";
  }
  return "overwrite";
}

Result<TableMetadata> SnapshotProducer::apply(const TableMetadata& base) {
  while (!snapshot_id_ || base.snapshot_by_id(*snapshot_id_)) snapshot_id_ = random_snapshot_id();
  if (kind_ == ProducerKind::kReplacePartitions && !delete_paths_.empty()) {
    return invalid_argument("replace partitions cannot delete files by path");
  }
  const Snapshot* parent = branch_head(base, branch_);
  if (auto it = base.refs.find(branch_); it != base.refs.end() && !it->second.is_branch()) {
    return invalid_argument("cannot commit to '{}': it is a tag", branch_);
  }
  if (!applied_) {
    applied_ = true;
    if (parent) first_parent_id_ = parent->snapshot_id;
  }
  FLOE_TRY(validate(base, parent));

  Context ctx;
  ctx.base = &base;
  ctx.schema = FLOE_TRY(current_schema(base));
  ctx.snapshot_id = *snapshot_id_;
  auto added = FLOE_TRY(new_manifests(ctx));
  auto added_deletes = FLOE_TRY(new_delete_manifests(ctx));
  FLOE_TRY(validate_added_files(ctx));
  std::vector<ManifestFile> data, deletes;
  if (parent) {
    for (auto& m : FLOE_TRY(snapshot_manifests(*io_, base, *parent))) {
      (m.content == ManifestContent::kData ? data : deletes).push_back(std::move(m));
    }
  }
  data = FLOE_TRY(filter_manifests(ctx, std::move(data)));
  // Java: the lowest data sequence number of the filtered data manifests, from the last one.
  ctx.min_data_sequence_number = base.last_sequence_number;
  for (const auto& m : data) {
    if (m.min_sequence_number != kUnassignedSequenceNumber) {
      ctx.min_data_sequence_number = std::min(ctx.min_data_sequence_number, m.min_sequence_number);
    }
  }
  // Rewritten files that keep an older sequence number: the deletes since then apply to them.
  if (new_data_sequence_number_ && !added_.empty()) {
    ctx.min_data_sequence_number =
        std::min(ctx.min_data_sequence_number, *new_data_sequence_number_);
  }
  deletes = FLOE_TRY(filter_delete_manifests(ctx, std::move(deletes)));
  // Manifests without live files are not carried (Java's merging producers keep only those with
  // live files or written by this commit; a fast append carries every manifest), then each
  // content is merged on its own.
  auto drop = [&](const ManifestFile& m) {
    return kind_ != ProducerKind::kFastAppend && m.added_files_count == 0 &&
           m.existing_files_count == 0 && m.added_snapshot_id != *snapshot_id_;
  };
  std::erase_if(data, drop);
  std::erase_if(deletes, drop);
  std::vector<ManifestFile> manifests = added;
  manifests.insert(manifests.end(), data.begin(), data.end());
  manifests = FLOE_TRY(merge_manifests(ctx, std::move(manifests), added.size()));
  std::vector<ManifestFile> delete_manifests = added_deletes;
  delete_manifests.insert(delete_manifests.end(), deletes.begin(), deletes.end());
  delete_manifests =
      FLOE_TRY(merge_manifests(ctx, std::move(delete_manifests), added_deletes.size()));
  manifests.insert(manifests.end(), delete_manifests.begin(), delete_manifests.end());
  int64_t created = 0;
  for (const auto& m : manifests) created += m.added_snapshot_id == *snapshot_id_ ? 1 : 0;

  bool v1 = base.format_version < 2;
  int64_t seq = v1 ? 0 : base.last_sequence_number + 1;
  ManifestListWriterOptions list_options;
  list_options.format_version = base.format_version;
  list_options.snapshot_id = *snapshot_id_;
  if (parent) list_options.parent_snapshot_id = parent->snapshot_id;
  list_options.sequence_number = seq;
  if (base.format_version >= 3) list_options.first_row_id = base.next_row_id.value_or(0);
  std::string list_path =
      join_path(metadata_dir(base),
                fmt::format("snap-{}-{}-{}.avro", *snapshot_id_, ++list_attempt_, commit_uuid_));
  written_.push_back(list_path);
  auto list = FLOE_TRY(write_manifest_list(*io_, list_path, manifests, list_options));

  auto snapshot = std::make_shared<Snapshot>();
  snapshot->snapshot_id = *snapshot_id_;
  if (parent) snapshot->parent_snapshot_id = parent->snapshot_id;
  snapshot->sequence_number = seq;
  snapshot->timestamp_ms = std::max(now_ms(), base.last_updated_ms);
  snapshot->manifest_list = list_path;
  snapshot->summary = ctx.summary.build(base, parent);
  snapshot->summary["manifests-created"] = std::to_string(created);
  snapshot->summary["manifests-kept"] = std::to_string(manifests.size() - created);
  snapshot->summary["manifests-replaced"] = std::to_string(ctx.replaced_manifests);
  for (const auto& [k, v] : extra_summary_) snapshot->summary[k] = v;
  if (kind_ == ProducerKind::kReplacePartitions) snapshot->summary["replace-partitions"] = "true";
  snapshot->summary["operation"] = operation();
  snapshot->schema_id = base.current_schema_id;

  TableMetadata next = base;
  if (base.format_version >= 3) {
    snapshot->first_row_id = *list_options.first_row_id;
    int64_t end = list.next_row_id.value_or(*list_options.first_row_id);
    snapshot->added_rows = end - *list_options.first_row_id;
    next.next_row_id = end;
  }
  if (!v1) next.last_sequence_number = seq;
  next.snapshots.push_back(snapshot);
  set_branch_head(next, branch_, snapshot->snapshot_id, snapshot->timestamp_ms);
  return next;
}

}  // namespace floe
