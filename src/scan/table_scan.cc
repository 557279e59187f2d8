#include "floe/scan/table_scan.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>

#include "floe/manifest/manifest_reader.h"
#include "floe/scan/evaluators.h"
#include "floe/util/thread_pool.h"
#include "scan/delete_index.h"

namespace floe {

namespace {

int64_t int_property(const TableMetadata& t, const char* key, int64_t fallback) {
  auto it = t.properties.find(key);
  if (it == t.properties.end()) return fallback;
  try {
    return std::stoll(it->second);
  } catch (...) {
    return fallback;
  }
}

// Everything planning needs for one partition spec, built once per scan.
struct SpecContext {
  const PartitionSpec* spec = nullptr;
  std::optional<ManifestEvaluator> manifest_evaluator;
  ExprPtr partition_filter;  // inclusive projection, bound to partition field ids
  std::optional<ResidualEvaluator> residuals;
  bool unpartitioned = true;
};

bool partition_might_match(const SpecContext& ctx, const DataFile& f) {
  if (ctx.partition_filter->op() == Operation::kTrue) return true;
  const auto& fields = ctx.spec->fields();
  FieldLookup lookup = [&](int32_t field_id) -> const Literal* {
    for (size_t i = 0; i < fields.size() && i < f.partition.size(); ++i) {
      if (fields[i].field_id == field_id) return &f.partition[i];
    }
    return nullptr;
  };
  return evaluate(ctx.partition_filter, lookup);
}

bool manifest_has_live_files(const ManifestFile& m) {
  // Null counts mean "unknown": assume there are files.
  if (!m.added_files_count || !m.existing_files_count) return true;
  return *m.added_files_count > 0 || *m.existing_files_count > 0;
}

}  // namespace

Result<TableScan> TableScan::make(FileIOPtr io, std::shared_ptr<const TableMetadata> table,
                                  ScanOptions options) {
  TableScan scan;
  scan.io_ = std::move(io);
  scan.table_ = std::move(table);
  const TableMetadata& t = *scan.table_;
  int chosen =
      (options.snapshot_id ? 1 : 0) + (options.as_of_timestamp_ms ? 1 : 0) + (options.ref ? 1 : 0);
  if (chosen > 1) {
    return invalid_argument("choose one of a snapshot id, a timestamp or a ref to scan");
  }
  bool time_travel = chosen == 1;
  if (options.snapshot_id) {
    scan.snapshot_ = t.snapshot_by_id(*options.snapshot_id);
    if (!scan.snapshot_) return not_found("snapshot {} is not in the table", *options.snapshot_id);
  } else if (options.ref) {
    scan.snapshot_ = t.snapshot_for_ref(*options.ref);
    if (!scan.snapshot_) {
      if (*options.ref == kMainBranch && !t.current_snapshot_id) {
        time_travel = false;  // an empty table's main branch
      } else {
        return not_found("no branch or tag named '{}'", *options.ref);
      }
    }
  } else if (options.as_of_timestamp_ms) {
    scan.snapshot_ = t.snapshot_as_of_time(*options.as_of_timestamp_ms);
    if (!scan.snapshot_) {
      return not_found("no snapshot was current at {} (the table's history starts later)",
                       format_timestamp(*options.as_of_timestamp_ms * 1000, true));
    }
  } else {
    scan.snapshot_ = t.current_snapshot();
  }
  // Time travel reads with the schema the snapshot was written with.
  scan.schema_ = t.schema();
  if (time_travel && scan.snapshot_ && scan.snapshot_->schema_id) {
    if (const Schema* s = t.schema_by_id(*scan.snapshot_->schema_id)) scan.schema_ = s;
  }
  if (!scan.schema_) return invalid_data("table has no current schema");
  if (!options.filter) {
    scan.filter_ = always_true();
  } else if (options.filter->is_bound()) {
    scan.filter_ = options.filter;
  } else {
    scan.filter_ = FLOE_TRY(bind_expression(options.filter, *scan.schema_, options.case_sensitive));
  }
  scan.options_ = std::move(options);
  scan.report_.snapshot_id = scan.snapshot_ ? scan.snapshot_->snapshot_id : -1;
  scan.report_.schema_id = scan.schema_->schema_id();
  scan.report_.filter = scan.filter_->to_string();
  return scan;
}

Result<std::vector<FileScanTask>> TableScan::plan_files() {
  auto started = std::chrono::steady_clock::now();
  IoCounters::Snapshot io_before = io_->counters().snapshot();
  ScanReport& r = report_;
  r = ScanReport{r.snapshot_id, r.schema_id, r.filter};
  std::vector<FileScanTask> result;
  if (!snapshot_) return result;

  const TableMetadata& table = *table_;
  std::vector<ManifestFile> manifests = FLOE_TRY(snapshot_manifests(*io_, table, *snapshot_));
  std::vector<const ManifestFile*> data_manifests, delete_manifests;
  for (const auto& m : manifests) {
    (m.content == ManifestContent::kData ? data_manifests : delete_manifests).push_back(&m);
  }
  r.total_data_manifests = static_cast<int64_t>(data_manifests.size());
  r.total_delete_manifests = static_cast<int64_t>(delete_manifests.size());

  // Per-spec evaluators, built before the parallel part.
  std::map<int32_t, SpecContext> specs;
  for (const auto& m : manifests) {
    if (specs.count(m.partition_spec_id)) continue;
    const PartitionSpec* spec = table.spec_by_id(m.partition_spec_id);
    if (!spec) {
      return invalid_data("manifest {} uses partition spec {}, which the table does not have",
                          m.manifest_path, m.partition_spec_id);
    }
    SpecContext ctx;
    ctx.spec = spec;
    ctx.unpartitioned = spec->is_unpartitioned();
    ctx.manifest_evaluator = FLOE_TRY(ManifestEvaluator::make(filter_, *spec, *schema_));
    ctx.partition_filter = ctx.manifest_evaluator->partition_filter();
    ctx.residuals = FLOE_TRY(ResidualEvaluator::make(filter_, *spec, *schema_));
    specs.emplace(m.partition_spec_id, std::move(ctx));
  }
  InclusiveMetricsEvaluator metrics(filter_);

  ManifestReadOptions read_options;
  read_options.include_deleted = false;
  std::vector<int32_t> filter_ids = referenced_field_ids(filter_);
  read_options.read_stats = !filter_ids.empty();
  read_options.stats_columns = filter_ids;
  ManifestReadOptions delete_read_options = read_options;
  delete_read_options.read_stats = true;
  delete_read_options.stats_columns.push_back(2147483546);  // position deletes' file_path
  std::sort(delete_read_options.stats_columns.begin(), delete_read_options.stats_columns.end());

  ThreadPool pool(options_.threads);
  r.threads = pool.size();
  std::mutex mu;

  // Delete manifests first: the index must be complete before data files look deletes up.
  std::vector<const ManifestFile*> scan_deletes;
  for (const ManifestFile* m : delete_manifests) {
    if (specs.at(m->partition_spec_id).manifest_evaluator->might_match(*m)) {
      scan_deletes.push_back(m);
    } else {
      ++r.skipped_delete_manifests;
    }
  }
  r.scanned_delete_manifests = static_cast<int64_t>(scan_deletes.size());
  DeleteFileIndex index;
  FLOE_TRY(pool.parallel_for(scan_deletes.size(), [&](size_t i) -> Status {
    const ManifestFile& m = *scan_deletes[i];
    const SpecContext& ctx = specs.at(m.partition_spec_id);
    auto reader = FLOE_TRY(ManifestReader::open(*io_, m, &table, delete_read_options));
    std::vector<DeleteFilePtr> kept;
    int64_t total = 0, skipped = 0;
    FLOE_TRY(reader->for_each([&](const ManifestEntry& e) {
      if (!e.is_live() || e.data_file.content == FileContent::kData) return true;
      ++total;
      if (!partition_might_match(ctx, e.data_file) || !metrics.might_match(e.data_file)) {
        ++skipped;
        return true;
      }
      auto d = std::make_shared<DeleteFile>();
      d->file = e.data_file;
      d->data_sequence_number = e.sequence_number.value_or(0);
      d->file_sequence_number = e.file_sequence_number.value_or(0);
      kept.push_back(std::move(d));
      return true;
    }));
    std::lock_guard lock(mu);
    r.total_delete_files += total;
    r.skipped_delete_files += skipped;
    for (auto& d : kept) {
      bool global = d->file.content == FileContent::kEqualityDeletes && ctx.unpartitioned;
      index.add(std::move(d), global);
    }
    return Status::OK();
  }));
  index.finish();

  // Data manifests.
  std::vector<const ManifestFile*> scan_data;
  for (const ManifestFile* m : data_manifests) {
    if (!manifest_has_live_files(*m) ||
        !specs.at(m->partition_spec_id).manifest_evaluator->might_match(*m)) {
      ++r.skipped_data_manifests;
    } else {
      scan_data.push_back(m);
    }
  }
  r.scanned_data_manifests = static_cast<int64_t>(scan_data.size());
  std::vector<std::vector<FileScanTask>> per_manifest(scan_data.size());
  std::set<const DeleteFile*> matched;
  std::set<std::string> residual_texts;
  FLOE_TRY(pool.parallel_for(scan_data.size(), [&](size_t i) -> Status {
    const ManifestFile& m = *scan_data[i];
    const SpecContext& ctx = specs.at(m.partition_spec_id);
    auto reader = FLOE_TRY(ManifestReader::open(*io_, m, &table, read_options));
    std::vector<FileScanTask>& out = per_manifest[i];
    int64_t total = 0, skipped = 0, refs = 0;
    std::set<const DeleteFile*> local_matched;
    std::unordered_map<std::string, ExprPtr> residual_cache;
    FLOE_TRY(reader->for_each([&](const ManifestEntry& e) {
      if (!e.is_live() || e.data_file.content != FileContent::kData) return true;
      ++total;
      const DataFile& f = e.data_file;
      if (!partition_might_match(ctx, f) || !metrics.might_match(f)) {
        ++skipped;
        return true;
      }
      FileScanTask task;
      task.file = std::make_shared<const DataFile>(f);
      task.data_sequence_number = e.sequence_number.value_or(0);
      task.start = 0;
      task.length = f.file_size_in_bytes;
      task.deletes = index.for_data_file(f, task.data_sequence_number);
      refs += static_cast<int64_t>(task.deletes.size());
      for (const auto& d : task.deletes) local_matched.insert(d.get());
      if (filter_->op() == Operation::kTrue) {
        task.residual = filter_;
      } else {
        std::string key = partition_key(f.spec_id, f.partition);
        auto it = residual_cache.find(key);
        if (it == residual_cache.end()) {
          it = residual_cache.emplace(key, ctx.residuals->residual_for(f.partition)).first;
        }
        task.residual = it->second;
      }
      out.push_back(std::move(task));
      return true;
    }));
    std::lock_guard lock(mu);
    r.total_data_files += total;
    r.skipped_data_files += skipped;
    r.matched_delete_refs += refs;
    matched.insert(local_matched.begin(), local_matched.end());
    for (const auto& [_, res] : residual_cache) residual_texts.insert(res->to_string());
    return Status::OK();
  }));

  for (auto& v : per_manifest) {
    for (auto& t : v) result.push_back(std::move(t));
  }
  if (filter_->op() == Operation::kTrue && !result.empty()) residual_texts.insert("true");
  r.scanned_data_files = static_cast<int64_t>(result.size());
  r.matched_delete_files = static_cast<int64_t>(matched.size());
  r.residuals.assign(residual_texts.begin(), residual_texts.end());
  IoCounters::Snapshot io_after = io_->counters().snapshot();
  r.io_requests = (io_after.read_requests - io_before.read_requests) +
                  (io_after.metadata_requests - io_before.metadata_requests);
  r.io_bytes = io_after.bytes_read - io_before.bytes_read;
  r.planning_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return result;
}

Result<std::vector<CombinedScanTask>> TableScan::plan_tasks() {
  auto started = std::chrono::steady_clock::now();
  std::vector<FileScanTask> files = FLOE_TRY(plan_files());
  const TableMetadata& t = *table_;
  int64_t target = options_.split_target_size > 0
                       ? options_.split_target_size
                       : int_property(t, "read.split.target-size", 134217728);
  int64_t open_cost = options_.split_open_file_cost >= 0
                          ? options_.split_open_file_cost
                          : int_property(t, "read.split.open-file-cost", 4194304);
  int lookback = options_.split_lookback > 0
                     ? options_.split_lookback
                     : static_cast<int>(int_property(t, "read.split.planning-lookback", 10));
  std::vector<FileScanTask> splits;
  for (const auto& f : files) {
    for (auto& s : split_file_task(f, target)) splits.push_back(std::move(s));
  }
  std::vector<CombinedScanTask> tasks =
      bin_pack_tasks(std::move(splits), target, open_cost, std::max(1, lookback));
  report_.tasks = static_cast<int64_t>(tasks.size());
  report_.task_bytes = 0;
  for (const auto& c : tasks) report_.task_bytes += c.total_bytes;
  report_.planning_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return tasks;
}

std::vector<FileScanTask> split_file_task(const FileScanTask& task, int64_t target_size) {
  const DataFile& f = *task.file;
  int64_t size = f.file_size_in_bytes;
  std::vector<FileScanTask> out;
  // Only files with valid split offsets (ascending, within the file) split; others stay whole.
  std::vector<int64_t> offsets;
  if (f.split_offsets && size > target_size) {
    offsets = *f.split_offsets;
    bool valid = !offsets.empty() && offsets.front() >= 0;
    for (size_t i = 1; valid && i < offsets.size(); ++i) valid = offsets[i] > offsets[i - 1];
    if (valid && offsets.back() >= size) valid = false;
    if (!valid) offsets.clear();
  }
  if (offsets.size() <= 1) {
    out.push_back(task);
    return out;
  }
  // Grow each split by whole row groups until it reaches the target (Java's offsets-aware
  // split iterator), so a split may pass the target by up to one row group.
  size_t i = 0;
  while (i < offsets.size()) {
    int64_t start = offsets[i];
    size_t j = i + 1;
    while (j < offsets.size() && offsets[j] - start < target_size) ++j;
    int64_t end = j < offsets.size() ? offsets[j] : size;
    FileScanTask part = task;
    part.start = start;
    part.length = end - start;
    out.push_back(std::move(part));
    i = j;
  }
  return out;
}

std::vector<CombinedScanTask> bin_pack_tasks(std::vector<FileScanTask> tasks, int64_t target_size,
                                             int64_t open_file_cost, int lookback) {
  std::vector<CombinedScanTask> done;
  std::deque<CombinedScanTask> open;
  std::deque<int64_t> weights;
  for (auto& t : tasks) {
    int64_t weight = std::max(t.length, open_file_cost);
    bool placed = false;
    for (size_t b = 0; b < open.size(); ++b) {
      if (weights[b] + weight <= target_size) {
        weights[b] += weight;
        open[b].total_bytes += t.length;
        open[b].tasks.push_back(std::move(t));
        placed = true;
        break;
      }
    }
    if (placed) continue;
    if (static_cast<int>(open.size()) >= lookback) {
      // Close the largest open bin (Java's PackingIterable).
      size_t largest = 0;
      for (size_t b = 1; b < open.size(); ++b) {
        if (weights[b] > weights[largest]) largest = b;
      }
      done.push_back(std::move(open[largest]));
      open.erase(open.begin() + static_cast<std::ptrdiff_t>(largest));
      weights.erase(weights.begin() + static_cast<std::ptrdiff_t>(largest));
    }
    CombinedScanTask bin;
    bin.total_bytes = t.length;
    bin.tasks.push_back(std::move(t));
    open.push_back(std::move(bin));
    weights.push_back(weight);
  }
  for (auto& b : open) done.push_back(std::move(b));
  return done;
}

}  // namespace floe
