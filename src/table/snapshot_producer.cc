#include "floe/table/snapshot_producer.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <random>
#include <set>

#include "floe/expr/projection.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/scan/evaluators.h"
#include "floe/table/table.h"
#include "floe/util/uuid.h"
#include "table_internal.h"

namespace floe {

using namespace table_internal;

enum class ProducerKind { kFastAppend, kMergeAppend, kOverwrite, kDelete, kReplacePartitions };

namespace {

// Java's SnapshotSummary.UpdateMetrics for data files: counters written only when positive.
struct UpdateMetrics {
  int64_t added_files = 0, deleted_files = 0;
  int64_t added_records = 0, deleted_records = 0;
  int64_t added_size = 0, removed_size = 0;

  void add(const DataFile& f) {
    added_files++;
    added_records += f.record_count;
    added_size += f.file_size_in_bytes;
  }
  void remove(const DataFile& f) {
    deleted_files++;
    deleted_records += f.record_count;
    removed_size += f.file_size_in_bytes;
  }
  // Pairs in Java's order (partition summaries print them in this order).
  std::vector<std::pair<std::string, int64_t>> entries() const {
    std::vector<std::pair<std::string, int64_t>> out;
    auto put = [&](const char* key, int64_t v) {
      if (v > 0) out.emplace_back(key, v);
    };
    put("added-files-size", added_size);
    put("removed-files-size", removed_size);
    put("added-data-files", added_files);
    put("deleted-data-files", deleted_files);
    put("added-records", added_records);
    put("deleted-records", deleted_records);
    return out;
  }
};

class SummaryBuilder {
 public:
  void added(const PartitionSpec& spec, const DataFile& f) {
    total_.add(f);
    partitions_[spec.partition_to_path(f.partition)].add(f);
  }
  void removed(const PartitionSpec& spec, const DataFile& f) {
    total_.remove(f);
    partitions_[spec.partition_to_path(f.partition)].remove(f);
  }
  bool removed_any() const { return total_.deleted_files > 0; }

  std::map<std::string, std::string> build(const TableMetadata& base,
                                           const Snapshot* parent) const {
    std::map<std::string, std::string> s;
    for (const auto& [k, v] : total_.entries()) s[k] = std::to_string(v);
    s["changed-partition-count"] = std::to_string(partitions_.size());
    int64_t limit = int_property(base, "write.summary.partition-limit", 0);
    if (limit > 0 && static_cast<int64_t>(partitions_.size()) <= limit) {
      s["partition-summaries-included"] = "true";
      for (const auto& [path, metrics] : partitions_) {
        std::string text;
        for (const auto& [k, v] : metrics.entries()) {
          if (!text.empty()) text += ',';
          text += fmt::format("{}={}", k, v);
        }
        s["partitions." + path] = text;
      }
    }
    total(s, parent, "total-records", total_.added_records, total_.deleted_records);
    total(s, parent, "total-files-size", total_.added_size, total_.removed_size);
    total(s, parent, "total-data-files", total_.added_files, total_.deleted_files);
    total(s, parent, "total-delete-files", 0, 0);
    total(s, parent, "total-position-deletes", 0, 0);
    total(s, parent, "total-equality-deletes", 0, 0);
    return s;
  }

 private:
  // Previous branch head's total + added - removed; a new branch starts at 0. Omitted when
  // the parent's summary lacks the total or the result is negative (Java updateTotal).
  static void total(std::map<std::string, std::string>& s, const Snapshot* parent, const char* key,
                    int64_t added, int64_t removed) {
    int64_t previous = 0;
    if (parent) {
      auto it = parent->summary.find(key);
      if (it == parent->summary.end()) return;
      try {
        previous = std::stoll(it->second);
      } catch (...) {
        return;
      }
    }
    int64_t value = previous + added - removed;
    if (value >= 0) s[key] = std::to_string(value);
  }

  UpdateMetrics total_;
  std::map<std::string, UpdateMetrics> partitions_;
};

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

// Java's BinPacking.ListPacker.packEnd with lookback 1: packs from the end so the first bin
// (the one holding the new manifest) is the one left small.
std::vector<std::vector<ManifestFile>> pack_end(const std::vector<ManifestFile>& items,
                                                int64_t target) {
  std::vector<std::vector<ManifestFile>> bins;
  std::vector<ManifestFile> bin;
  int64_t weight = 0;
  for (auto it = items.rbegin(); it != items.rend(); ++it) {
    if (!bin.empty() && weight + it->manifest_length > target) {
      bins.push_back(std::move(bin));
      bin.clear();
      weight = 0;
    }
    bin.push_back(*it);
    weight += it->manifest_length;
  }
  if (!bin.empty()) bins.push_back(std::move(bin));
  std::reverse(bins.begin(), bins.end());
  for (auto& b : bins) std::reverse(b.begin(), b.end());
  return bins;
}

}  // namespace

// The core of every snapshot update (see snapshot_producer.h).
class SnapshotProducer : public PendingUpdate {
 public:
  SnapshotProducer(ProducerKind kind, FileIOPtr io)
      : kind_(kind), io_(std::move(io)), commit_uuid_(random_uuid()) {}

  Result<TableMetadata> apply(const TableMetadata& base) override;
  std::vector<std::string> written_files() const override { return written_; }
  void discard_written_files() override {
    staged_ = false;  // dropped from its transaction: may be committed again
    written_.clear();
    cached_new_.clear();
    filtered_cache_.clear();
    merged_cache_.clear();
  }

  int64_t snapshot_id() {
    if (!snapshot_id_) snapshot_id_ = random_snapshot_id();
    return *snapshot_id_;
  }

  ProducerKind kind_;
  FileIOPtr io_;
  std::string branch_ = kMainBranch;
  std::map<std::string, std::string> extra_summary_;
  std::vector<DataFile> added_;
  std::set<std::string> delete_paths_;
  bool fail_missing_deletes_ = false;
  ExprPtr delete_filter_;
  bool case_sensitive_ = true;
  std::optional<int64_t> validate_from_;
  ExprPtr conflict_filter_;
  bool validate_no_conflicting_data_ = false;
  bool validate_added_match_filter_ = false;
  bool fail_any_delete_ = false;
  bool staged_ = false;

 private:
  struct FilterEvaluators {
    ExprPtr strict_partition, inclusive_partition;
  };
  struct Context {
    const TableMetadata* base;
    SchemaPtr schema;
    int64_t snapshot_id;
    SummaryBuilder summary;
    ExprPtr bound_filter;
    std::map<int32_t, FilterEvaluators> evaluators;
    std::set<std::pair<int32_t, std::string>> replaced;  // spec id, partition path
    std::set<int32_t> replaced_all;                      // unpartitioned specs replaced
    std::set<std::string> found_paths;
    int64_t replaced_manifests = 0;  // rewritten by filtering or merged
  };

  std::string manifest_path(const TableMetadata& base) {
    std::string path =
        join_path(metadata_dir(base), fmt::format("{}-m{}.avro", commit_uuid_, manifest_count_++));
    written_.push_back(path);  // before writing: a failed write may still leave a file
    return path;
  }
  ManifestWriterOptions writer_options(const TableMetadata& base, int64_t target) const {
    ManifestWriterOptions o;
    o.format_version = base.format_version;
    o.snapshot_id = *snapshot_id_;
    o.target_size_bytes = target;
    return o;
  }
  bool deletes_configured() const {
    return !delete_paths_.empty() || delete_filter_ ||
           (kind_ == ProducerKind::kReplacePartitions && !added_.empty());
  }

  Result<std::vector<ManifestFile>> new_manifests(Context& ctx);
  Result<std::vector<ManifestFile>> filter_manifests(Context& ctx,
                                                     std::vector<ManifestFile> manifests);
  Result<bool> should_delete(Context& ctx, const PartitionSpec& spec, const DataFile& file);
  bool skip_manifest(Context& ctx, const PartitionSpec& spec, const ManifestFile& manifest);
  Status validate_added_files(const Context& ctx);
  Result<std::vector<ManifestFile>> merge_manifests(Context& ctx,
                                                    std::vector<ManifestFile> manifests,
                                                    size_t new_count);
  Result<ManifestFile> merge_bin(Context& ctx, int32_t spec_id,
                                 const std::vector<ManifestFile>& bin);
  Status validate(const TableMetadata& base, const Snapshot* parent);
  std::string operation(const SummaryBuilder& summary) const;

  std::string commit_uuid_;
  std::optional<int64_t> snapshot_id_;
  int list_attempt_ = 0;
  std::atomic<int> manifest_count_{0};
  std::vector<ManifestFile> cached_new_;
  // Rewrites depend only on their inputs, so retries reuse them (Java caches both too).
  struct Filtered {
    std::vector<ManifestFile> manifests;
    std::vector<std::pair<int32_t, DataFile>> removed;  // spec id, file
    std::set<std::string> found_paths;
  };
  std::map<std::string, Filtered> filtered_cache_;
  std::map<std::vector<std::string>, ManifestFile> merged_cache_;
  std::vector<std::string> written_;
};

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
  int64_t target = int_property(base, "commit.manifest.target-size-bytes", 8 * 1024 * 1024);
  std::vector<ManifestFile> manifests;  // cached only when complete
  for (const auto& [spec_id, files] : by_spec) {
    auto spec = FLOE_TRY(spec_ptr(base, spec_id));
    auto writer = FLOE_TRY(ManifestWriter::make(
        *io_, [&](int) { return manifest_path(base); }, ctx.schema, spec,
        writer_options(base, target)));
    for (const DataFile* f : files) FLOE_TRY(writer->add(*f));
    auto written = FLOE_TRY(writer->finish());
    manifests.insert(manifests.end(), written.begin(), written.end());
  }
  cached_new_ = std::move(manifests);
  return cached_new_;
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

// Java validateAddedFilesMatchOverwriteFilter: every added row must match the row filter.
Status SnapshotProducer::validate_added_files(const Context& ctx) {
  if (!validate_added_match_filter_ || !delete_filter_) return Status::OK();
  auto bound = FLOE_TRY(bind_expression(delete_filter_, *ctx.schema, case_sensitive_));
  StrictMetricsEvaluator metrics(bound);
  for (const auto& f : added_) {
    auto spec = FLOE_TRY(spec_ptr(*ctx.base, f.spec_id));
    auto inclusive = FLOE_TRY(project_inclusive(bound, *spec, *ctx.schema));
    auto strict = FLOE_TRY(project_strict(bound, *spec, *ctx.schema));
    auto lookup = partition_lookup(*spec, f.partition);
    if (!evaluate(inclusive, lookup) || !(evaluate(strict, lookup) || metrics.must_match(f))) {
      return invalid_argument("Cannot append file with rows that do not match filter: {}: {}",
                              bound->to_string(), f.file_path);
    }
  }
  return Status::OK();
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
      for (const auto& [spec_id, f] : cached->second.removed) ctx.summary.removed(*spec, f);
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
    filtered_cache_[manifest.manifest_path] = std::move(filtered);
    ctx.replaced_manifests++;
  }
  if (fail_missing_deletes_) {
    std::vector<std::string> missing;
    for (const auto& p : delete_paths_) {
      if (!ctx.found_paths.count(p)) missing.push_back(p);
    }
    if (!missing.empty()) {
      return make_error(ErrorKind::kCommitConflict, "Missing required files to delete: {}",
                        fmt::join(missing, ", "));
    }
  }
  return out;
}

Result<ManifestFile> SnapshotProducer::merge_bin(Context& ctx, int32_t spec_id,
                                                 const std::vector<ManifestFile>& bin) {
  const TableMetadata& base = *ctx.base;
  std::vector<std::string> key;
  for (const auto& m : bin) key.push_back(m.manifest_path);
  if (auto it = merged_cache_.find(key); it != merged_cache_.end()) return it->second;
  auto spec = FLOE_TRY(spec_ptr(base, spec_id));
  auto writer = FLOE_TRY(ManifestWriter::make(
      *io_, [&](int) { return manifest_path(base); }, ctx.schema, spec,
      writer_options(base, std::numeric_limits<int64_t>::max())));
  for (const auto& manifest : bin) {
    auto entries = FLOE_TRY(read_manifest(*io_, manifest, &base));
    for (const auto& e : entries) {
      bool ours = e.snapshot_id == ctx.snapshot_id;
      if (e.status == ManifestEntryStatus::kDeleted) {
        if (ours) FLOE_TRY(writer->deleted(e));  // deletes of older snapshots are dropped
      } else if (e.status == ManifestEntryStatus::kAdded && ours) {
        FLOE_TRY(writer->add(e.data_file));
      } else {
        FLOE_TRY(writer->existing(e));
      }
    }
  }
  auto written = FLOE_TRY(writer->finish());
  if (written.size() != 1) return invalid_data("merging manifests wrote {} files", written.size());
  merged_cache_[key] = written[0];
  return written[0];
}

// Java's ManifestMergeManager: per spec (highest id first), bin-pack by size from the end; a bin
// holding the first manifest (the new one) merges only once it has min-count-to-merge members.
Result<std::vector<ManifestFile>> SnapshotProducer::merge_manifests(
    Context& ctx, std::vector<ManifestFile> manifests, size_t new_count) {
  const TableMetadata& base = *ctx.base;
  bool enabled = kind_ != ProducerKind::kFastAppend &&
                 bool_property(base, "commit.manifest-merge.enabled", true);
  if (!enabled || manifests.empty()) return manifests;
  int64_t min_count = int_property(base, "commit.manifest.min-count-to-merge", 100);
  int64_t target = int_property(base, "commit.manifest.target-size-bytes", 8 * 1024 * 1024);
  std::string first = manifests.front().manifest_path;
  std::map<int32_t, std::vector<ManifestFile>, std::greater<>> groups;
  for (auto& m : manifests) groups[m.partition_spec_id].push_back(std::move(m));
  std::vector<ManifestFile> out;
  for (const auto& [spec_id, group] : groups) {
    for (const auto& bin : pack_end(group, target)) {
      bool has_first = std::any_of(bin.begin(), bin.end(),
                                   [&](const ManifestFile& m) { return m.manifest_path == first; });
      if (bin.size() == 1 || (has_first && static_cast<int64_t>(bin.size()) < min_count)) {
        out.insert(out.end(), bin.begin(), bin.end());
      } else {
        out.push_back(FLOE_TRY(merge_bin(ctx, spec_id, bin)));
        ctx.replaced_manifests += static_cast<int64_t>(bin.size());
      }
    }
  }
  return out;
}

// Java validateNoConflictingData: data files added since the starting snapshot that may hold
// rows matching the conflict filter.
Status SnapshotProducer::validate(const TableMetadata& base, const Snapshot* parent) {
  if (!validate_no_conflicting_data_) return Status::OK();
  auto schema = FLOE_TRY(current_schema(base));
  // Does a concurrently added file conflict? Replace-partitions: it lies in a replaced
  // partition (any partition of an unpartitioned spec); otherwise it may match the filter.
  std::function<Result<bool>(const PartitionSpec&, const DataFile&)> conflicts_with;
  std::string description;
  std::set<std::pair<int32_t, std::string>> partitions;
  std::set<int32_t> whole_specs;
  ExprPtr bound;
  std::map<int32_t, ExprPtr> inclusive;
  if (kind_ == ProducerKind::kReplacePartitions) {
    for (const auto& f : added_) {
      auto spec = FLOE_TRY(spec_ptr(base, f.spec_id));
      if (spec->is_unpartitioned()) whole_specs.insert(f.spec_id);
      partitions.insert({f.spec_id, spec->partition_to_path(f.partition)});
    }
    description = "the replaced partitions";
    conflicts_with = [&](const PartitionSpec& spec, const DataFile& f) -> Result<bool> {
      return !whole_specs.empty() ||
             partitions.count({spec.spec_id(), spec.partition_to_path(f.partition)}) > 0;
    };
  } else {
    ExprPtr filter = conflict_filter_;
    if (!filter) filter = delete_filter_ && delete_paths_.empty() ? delete_filter_ : always_true();
    bound = FLOE_TRY(bind_expression(filter, *schema, case_sensitive_));
    description = bound->to_string();
    conflicts_with = [&](const PartitionSpec& spec, const DataFile& f) -> Result<bool> {
      auto it = inclusive.find(spec.spec_id());
      if (it == inclusive.end()) {
        auto projected = FLOE_TRY(project_inclusive(bound, spec, *schema));
        it = inclusive.emplace(spec.spec_id(), projected).first;
      }
      return evaluate(it->second, partition_lookup(spec, f.partition)) &&
             InclusiveMetricsEvaluator(bound).might_match(f);
    };
  }
  std::vector<std::string> conflicts;
  for (const Snapshot* s = parent; s;) {
    if (validate_from_ && s->snapshot_id == *validate_from_) break;
    auto manifests = FLOE_TRY(snapshot_manifests(*io_, base, *s));
    for (const auto& m : manifests) {
      if (m.content != ManifestContent::kData || m.added_snapshot_id != s->snapshot_id) continue;
      auto spec = FLOE_TRY(spec_ptr(base, m.partition_spec_id));
      for (const auto& e : FLOE_TRY(read_manifest(*io_, m, &base))) {
        if (e.status != ManifestEntryStatus::kAdded || e.snapshot_id != s->snapshot_id) continue;
        if (FLOE_TRY(conflicts_with(*spec, e.data_file)))
          conflicts.push_back(e.data_file.file_path);
      }
    }
    s = s->parent_snapshot_id ? base.snapshot_by_id(*s->parent_snapshot_id) : nullptr;
    if (!s && validate_from_) {
      return make_error(ErrorKind::kCommitConflict,
                        "cannot determine history since snapshot {}: not an ancestor of '{}'",
                        *validate_from_, branch_);
    }
  }
  if (conflicts.empty()) return Status::OK();
  return make_error(ErrorKind::kCommitConflict,
                    "Found conflicting files that can contain records matching {}: [{}]",
                    description, fmt::join(conflicts, ", "));
}

std::string SnapshotProducer::operation(const SummaryBuilder& summary) const {
  switch (kind_) {
    case ProducerKind::kFastAppend:
    case ProducerKind::kMergeAppend:
      return "append";
    case ProducerKind::kDelete:
      return "delete";
    case ProducerKind::kReplacePartitions:
      return "overwrite";
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
  FLOE_TRY(validate(base, parent));

  Context ctx;
  ctx.base = &base;
  ctx.schema = FLOE_TRY(current_schema(base));
  ctx.snapshot_id = *snapshot_id_;
  auto added = FLOE_TRY(new_manifests(ctx));
  FLOE_TRY(validate_added_files(ctx));
  std::vector<ManifestFile> data, deletes;
  if (parent) {
    for (auto& m : FLOE_TRY(snapshot_manifests(*io_, base, *parent))) {
      (m.content == ManifestContent::kData ? data : deletes).push_back(std::move(m));
    }
  }
  data = FLOE_TRY(filter_manifests(ctx, std::move(data)));
  std::vector<ManifestFile> manifests = added;
  manifests.insert(manifests.end(), data.begin(), data.end());
  manifests = FLOE_TRY(merge_manifests(ctx, std::move(manifests), added.size()));
  manifests.insert(manifests.end(), deletes.begin(), deletes.end());
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
  snapshot->summary["operation"] = operation(ctx.summary);
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

// --- handles ---

SnapshotUpdate::SnapshotUpdate(std::shared_ptr<SnapshotProducer> producer, Transaction txn,
                               bool auto_commit)
    : producer_(std::move(producer)), txn_(std::move(txn)), auto_commit_(auto_commit) {}

void SnapshotUpdate::set_branch(const std::string& name) { producer_->branch_ = name; }
void SnapshotUpdate::set_summary(const std::string& key, const std::string& value) {
  producer_->extra_summary_[key] = value;
}
int64_t SnapshotUpdate::snapshot_id() const { return producer_->snapshot_id(); }

Status SnapshotUpdate::commit() {
  // A second commit would add the same files again under a new snapshot.
  if (producer_->staged_) return invalid_argument("snapshot update already committed");
  FLOE_TRY(txn_.stage(producer_));
  producer_->staged_ = true;
  return auto_commit_ ? txn_.commit() : Status::OK();
}

static std::shared_ptr<SnapshotProducer> make_producer(ProducerKind kind, const Transaction& t) {
  return std::make_shared<SnapshotProducer>(kind, t.table()->io());
}

AppendFiles::AppendFiles(bool merge, Transaction txn, bool auto_commit)
    : SnapshotUpdate(
          make_producer(merge ? ProducerKind::kMergeAppend : ProducerKind::kFastAppend, txn), txn,
          auto_commit) {}

AppendFiles& AppendFiles::append_file(DataFile file) {
  producer_->added_.push_back(std::move(file));
  return *this;
}

OverwriteFiles::OverwriteFiles(Transaction txn, bool auto_commit)
    : SnapshotUpdate(make_producer(ProducerKind::kOverwrite, txn), txn, auto_commit) {
  producer_->fail_missing_deletes_ = true;
}

OverwriteFiles& OverwriteFiles::overwrite_by_row_filter(ExprPtr filter) {
  producer_->delete_filter_ = producer_->delete_filter_
                                  ? make_or(producer_->delete_filter_, std::move(filter))
                                  : std::move(filter);
  return *this;
}
OverwriteFiles& OverwriteFiles::delete_file(DataFile file) {
  producer_->delete_paths_.insert(file.file_path);
  return *this;
}
OverwriteFiles& OverwriteFiles::add_file(DataFile file) {
  producer_->added_.push_back(std::move(file));
  return *this;
}
OverwriteFiles& OverwriteFiles::validate_from_snapshot(int64_t snapshot_id) {
  producer_->validate_from_ = snapshot_id;
  return *this;
}
OverwriteFiles& OverwriteFiles::conflict_detection_filter(ExprPtr filter) {
  producer_->conflict_filter_ = std::move(filter);
  return *this;
}
OverwriteFiles& OverwriteFiles::validate_no_conflicting_data() {
  producer_->validate_no_conflicting_data_ = true;
  return *this;
}
OverwriteFiles& OverwriteFiles::validate_added_files_match_overwrite_filter() {
  producer_->validate_added_match_filter_ = true;
  return *this;
}
OverwriteFiles& OverwriteFiles::case_sensitive(bool value) {
  producer_->case_sensitive_ = value;
  return *this;
}

DeleteFiles::DeleteFiles(Transaction txn, bool auto_commit)
    : SnapshotUpdate(make_producer(ProducerKind::kDelete, txn), txn, auto_commit) {}

DeleteFiles& DeleteFiles::delete_from_row_filter(ExprPtr filter) {
  producer_->delete_filter_ = producer_->delete_filter_
                                  ? make_or(producer_->delete_filter_, std::move(filter))
                                  : std::move(filter);
  return *this;
}
DeleteFiles& DeleteFiles::delete_file(const std::string& path) {
  producer_->delete_paths_.insert(path);
  return *this;
}
DeleteFiles& DeleteFiles::validate_files_exist() {
  producer_->fail_missing_deletes_ = true;
  return *this;
}
DeleteFiles& DeleteFiles::case_sensitive(bool value) {
  producer_->case_sensitive_ = value;
  return *this;
}

ReplacePartitions::ReplacePartitions(Transaction txn, bool auto_commit)
    : SnapshotUpdate(make_producer(ProducerKind::kReplacePartitions, txn), txn, auto_commit) {}

ReplacePartitions& ReplacePartitions::add_file(DataFile file) {
  producer_->added_.push_back(std::move(file));
  return *this;
}
ReplacePartitions& ReplacePartitions::validate_append_only() {
  producer_->fail_any_delete_ = true;
  return *this;
}
ReplacePartitions& ReplacePartitions::validate_from_snapshot(int64_t snapshot_id) {
  producer_->validate_from_ = snapshot_id;
  return *this;
}
ReplacePartitions& ReplacePartitions::validate_no_conflicting_data() {
  producer_->validate_no_conflicting_data_ = true;
  return *this;
}

// Transaction factories live here, next to the handle constructors.
AppendFiles Transaction::new_append() { return AppendFiles(true, *this, false); }
AppendFiles Transaction::new_fast_append() { return AppendFiles(false, *this, false); }
OverwriteFiles Transaction::new_overwrite() { return OverwriteFiles(*this, false); }
DeleteFiles Transaction::new_delete() { return DeleteFiles(*this, false); }
ReplacePartitions Transaction::new_replace_partitions() { return ReplacePartitions(*this, false); }
UpdateProperties Transaction::update_properties() { return UpdateProperties(*this, false); }
ManageSnapshots Transaction::manage_snapshots() { return ManageSnapshots(*this, false); }

}  // namespace floe
