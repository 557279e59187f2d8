#include "floe/scan/table_scan.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>

#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/scan/delete_index.h"
#include "floe/scan/evaluators.h"
#include "floe/spec/table_properties.h"
#include "floe/util/date_time_text.h"
#include "floe/util/thread_pool.h"

namespace floe {

namespace {

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
  if ((options.snapshot_id || options.as_of_timestamp_ms) && t.omitted_snapshots > 0) {
    return invalid_argument(
        "time travel needs the table's whole history, but its metadata was read with only the "
        "snapshots refs name ({} omitted)",
        t.omitted_snapshots);
  }
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

namespace {

constexpr int32_t kDeleteFilePathId = 2147483546;  // file_path of position-delete files

// The ordered, bounded hand-over from the manifest readers to the consumer. Data manifest i's
// tasks arrive in chunks; the consumer takes manifest 0's chunks, then manifest 1's, ... so the
// stream keeps manifest order whatever the thread timing. Readers wait while the queue is full
// (except for the manifest the consumer is waiting on, which must always progress) and do not
// start a manifest more than `window` ahead of the consumer.
class TaskQueue {
 public:
  static constexpr size_t kChunk = 128;

  TaskQueue(int64_t capacity, size_t window) : capacity_(capacity), window_(window) {}

  // Waits until manifest i may start; false once the scan stopped.
  bool begin(size_t i) {
    std::unique_lock lock(mu_);
    wait_producer(lock, [&] { return stopped_ || i < head_ + window_; });
    return !stopped_;
  }
  bool push(size_t i, std::vector<FileScanTask>&& chunk) {
    // Held from now until the consumer has handed them over.
    peak_update(held_.fetch_add(static_cast<int64_t>(chunk.size())) +
                static_cast<int64_t>(chunk.size()));
    std::unique_lock lock(mu_);
    wait_producer(lock, [&] {
      return stopped_ || queued_ + static_cast<int64_t>(chunk.size()) <= capacity_ ||
             (i == head_ && slots_[i].queued < static_cast<int64_t>(2 * kChunk));
    });
    if (stopped_) return false;
    Slot& slot = slots_[i];
    slot.queued += static_cast<int64_t>(chunk.size());
    queued_ += static_cast<int64_t>(chunk.size());
    slot.chunks.push_back(std::move(chunk));
    if (i == head_) wake_consumer();
    return true;
  }
  void done(size_t i) {
    std::lock_guard lock(mu_);
    slots_[i].done = true;
    if (i == head_) wake_consumer();
  }
  void fail(Status s) {
    std::lock_guard lock(mu_);
    if (error_.ok()) error_ = std::move(s);
    stopped_ = true;
    consumer_cv_.notify_all();
    producer_cv_.notify_all();
  }
  void stop() {
    std::lock_guard lock(mu_);
    stopped_ = true;
    consumer_cv_.notify_all();
    producer_cv_.notify_all();
  }
  // The next chunk of the manifest at the head, moving on over finished manifests; false when
  // all `n` manifests are consumed or the scan stopped.
  bool pop(size_t n, std::vector<FileScanTask>* out) {
    std::unique_lock lock(mu_);
    while (true) {
      if (stopped_ || head_ >= n) return false;
      Slot& slot = slots_[head_];
      if (!slot.chunks.empty()) {
        *out = std::move(slot.chunks.front());
        slot.chunks.pop_front();
        slot.queued -= static_cast<int64_t>(out->size());
        queued_ -= static_cast<int64_t>(out->size());
        wake_producers();
        return true;
      }
      if (slot.done) {
        slots_.erase(head_);
        ++head_;
        wake_producers();
        continue;
      }
      ++consumer_waiting_;
      consumer_cv_.wait(lock);
      --consumer_waiting_;
    }
  }
  // The consumer handed `n` tasks over.
  void released(int64_t n) { held_.fetch_sub(n); }
  Status error() {
    std::lock_guard lock(mu_);
    return error_;
  }
  int64_t peak() const { return peak_.load(); }

 private:
  struct Slot {
    std::deque<std::vector<FileScanTask>> chunks;
    int64_t queued = 0;
    bool done = false;
  };
  // Waking a thread is a system call, costly next to a manifest of a few entries: wake only
  // threads that wait, and the consumer only for the manifest it waits on.
  template <typename Ready>
  void wait_producer(std::unique_lock<std::mutex>& lock, Ready ready) {
    while (!ready()) {
      ++producers_waiting_;
      producer_cv_.wait(lock);
      --producers_waiting_;
    }
  }
  void wake_consumer() {
    if (consumer_waiting_ > 0) consumer_cv_.notify_one();
  }
  void wake_producers() {
    if (producers_waiting_ > 0) producer_cv_.notify_all();
  }
  void peak_update(int64_t v) {
    int64_t p = peak_.load(std::memory_order_relaxed);
    while (v > p && !peak_.compare_exchange_weak(p, v)) {
    }
  }

  const int64_t capacity_;
  const size_t window_;
  std::mutex mu_;
  std::condition_variable consumer_cv_, producer_cv_;
  int consumer_waiting_ = 0, producers_waiting_ = 0;
  std::map<size_t, Slot> slots_;
  size_t head_ = 0;
  int64_t queued_ = 0;
  bool stopped_ = false;
  Status error_;
  std::atomic<int64_t> held_{0};
  std::atomic<int64_t> peak_{0};
};

}  // namespace

Status TableScan::plan_files(const FileTaskSink& sink) {
  auto started = std::chrono::steady_clock::now();
  IoCounters::Snapshot io_before = io_->counters().snapshot();
  ScanReport& r = report_;
  {
    ScanReport fresh;
    fresh.snapshot_id = r.snapshot_id;
    fresh.schema_id = r.schema_id;
    fresh.filter = r.filter;
    r = std::move(fresh);
  }
  auto finish_report = [&] {
    IoCounters::Snapshot io_after = io_->counters().snapshot();
    r.io_requests = (io_after.read_requests - io_before.read_requests) +
                    (io_after.metadata_requests - io_before.metadata_requests);
    r.io_bytes = io_after.bytes_read - io_before.bytes_read;
    r.planning_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
  };
  if (!snapshot_) {
    finish_report();
    return Status::OK();
  }

  const TableMetadata& table = *table_;
  std::vector<ManifestFile> manifests = FLOE_TRY(snapshot_manifests(*io_, table, *snapshot_));
  std::vector<const ManifestFile*> data_manifests, delete_manifests;
  const std::set<std::string> only(options_.data_manifests.begin(), options_.data_manifests.end());
  for (const auto& m : manifests) {
    if (m.content == ManifestContent::kData) {
      if (only.empty() || only.count(m.manifest_path)) data_manifests.push_back(&m);
    } else {
      delete_manifests.push_back(&m);
    }
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

  // Projections: data manifests decode only the metrics the filter reads (none without a
  // filter); delete manifests add the file_path bounds of position deletes.
  ManifestReadOptions read_options;
  read_options.include_deleted = false;
  std::vector<int32_t> filter_ids = referenced_field_ids(filter_);
  const bool keep_stats = options_.include_column_stats;
  read_options.read_stats = keep_stats || !filter_ids.empty();
  if (!keep_stats) read_options.stats_columns = filter_ids;
  ManifestReadOptions delete_read_options = read_options;
  delete_read_options.read_stats = true;
  delete_read_options.stats_columns = filter_ids;
  delete_read_options.stats_columns.push_back(kDeleteFilePathId);
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
  std::vector<DeleteManifest> delete_sources;
  for (const ManifestFile* m : scan_deletes) {
    delete_sources.push_back({m, specs.at(m->partition_spec_id).unpartitioned});
  }
  FLOE_TRY(read_delete_manifests(
      *io_, table, delete_sources, delete_read_options, keep_stats, pool,
      [&](const ManifestFile& m, const DataFile& f) {
        return partition_might_match(specs.at(m.partition_spec_id), f) && metrics.might_match(f);
      },
      &index, &r.total_delete_files, &r.skipped_delete_files));

  // Data manifests, streamed in manifest order through a bounded queue.
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
  std::set<std::string> residual_texts;
  const bool no_filter = filter_->op() == Operation::kTrue;
  const int64_t capacity = options_.max_buffered_tasks > 0
                               ? options_.max_buffered_tasks
                               : 4096 * static_cast<int64_t>(pool.size());
  // The window lets readers run ahead over small manifests without waiting for the consumer;
  // the capacity still bounds the tasks held.
  TaskQueue queue(std::max<int64_t>(capacity, TaskQueue::kChunk),
                  std::max<size_t>(static_cast<size_t>(pool.size()) * 2, 32));

  auto read_manifest = [&](size_t i) -> Status {
    if (!queue.begin(i)) return make_error(ErrorKind::kCancelled, "planning stopped");
    const ManifestFile& m = *scan_data[i];
    const SpecContext& ctx = specs.at(m.partition_spec_id);
    auto reader = FLOE_TRY(ManifestReader::open(*io_, m, &table, read_options));
    int64_t total = 0, skipped = 0, refs = 0, planned = 0;
    auto delete_cache = DeleteFileIndex::make_cache();
    std::unordered_map<std::string, ExprPtr> residual_cache;
    const std::vector<Literal>* last_partition = nullptr;
    std::vector<Literal> last_partition_copy;
    ExprPtr last_residual;
    std::vector<FileScanTask> chunk;
    chunk.reserve(TaskQueue::kChunk);
    ChunkArena<DataFile> files(64);
    bool stopped = false;
    // Deletes are attached a chunk at a time (the index prefetches its table for all of them).
    std::vector<const DataFile*> lookup_files;
    std::vector<int64_t> lookup_seqs;
    std::vector<DeleteFileList> lookup_lists;
    auto attach_deletes = [&](std::vector<FileScanTask>& tasks) {
      if (index.size() == 0) return;
      lookup_files.clear();
      lookup_seqs.clear();
      for (const auto& t : tasks) {
        lookup_files.push_back(t.file.get());
        lookup_seqs.push_back(t.data_sequence_number);
      }
      lookup_lists.assign(tasks.size(), DeleteFileList());
      index.for_data_files(lookup_files, lookup_seqs, lookup_lists, delete_cache.get());
      for (size_t k = 0; k < tasks.size(); ++k) {
        refs += static_cast<int64_t>(lookup_lists[k].size());
        tasks[k].deletes = std::move(lookup_lists[k]);
      }
    };
    FLOE_TRY(reader->for_each([&](const ManifestEntry& e) {
      if (!e.is_live() || e.data_file.content != FileContent::kData) return true;
      ++total;
      const DataFile& f = e.data_file;
      if (!partition_might_match(ctx, f) || !metrics.might_match(f)) {
        ++skipped;
        return true;
      }
      FileScanTask task;
      DataFile* copy = files.next(&task.file);
      if (keep_stats) {
        *copy = f;
      } else {
        copy_file_without_stats(f, copy);
      }
      task.data_sequence_number = e.sequence_number.value_or(0);
      task.start = 0;
      task.length = f.file_size_in_bytes;
      if (no_filter) {
        task.residual = filter_;
      } else {
        // Files of one manifest mostly share a partition: try the last one before hashing.
        if (!last_partition || last_partition_copy != f.partition) {
          std::string key = partition_key(f.spec_id, f.partition);
          auto it = residual_cache.find(key);
          if (it == residual_cache.end()) {
            it = residual_cache.emplace(key, ctx.residuals->residual_for(f.partition)).first;
          }
          last_residual = it->second;
          last_partition_copy = f.partition;
          last_partition = &last_partition_copy;
        }
        task.residual = last_residual;
      }
      ++planned;
      chunk.push_back(std::move(task));
      if (chunk.size() == TaskQueue::kChunk) {
        attach_deletes(chunk);
        if (!queue.push(i, std::move(chunk))) {
          stopped = true;
          return false;
        }
        chunk.clear();
        chunk.reserve(TaskQueue::kChunk);
      }
      return true;
    }));
    if (stopped) return make_error(ErrorKind::kCancelled, "planning stopped");
    attach_deletes(chunk);
    if (!chunk.empty() && !queue.push(i, std::move(chunk))) {
      return make_error(ErrorKind::kCancelled, "planning stopped");
    }
    queue.done(i);
    std::lock_guard lock(mu);
    r.total_data_files += total;
    r.skipped_data_files += skipped;
    r.scanned_data_files += planned;
    r.matched_delete_refs += refs;
    for (const auto& [_, res] : residual_cache) residual_texts.insert(res->to_string());
    return Status::OK();
  };

  // Readers run on the pool, driven from a helper thread; this thread consumes.
  Status producers;
  std::thread driver([&] {
    Status s = pool.parallel_for(scan_data.size(), [&](size_t i) -> Status {
      Status st = read_manifest(i);
      if (!st.ok() && st.kind() != ErrorKind::kCancelled) queue.fail(st);
      return st;
    });
    producers = std::move(s);
  });
  bool consumer_stopped = false;
  std::vector<FileScanTask> chunk;
  while (queue.pop(scan_data.size(), &chunk)) {
    int64_t n = static_cast<int64_t>(chunk.size());
    for (auto& t : chunk) {
      if (!consumer_stopped && !sink(std::move(t))) consumer_stopped = true;
    }
    chunk.clear();
    queue.released(n);
    if (consumer_stopped) {
      queue.stop();
      break;
    }
  }
  driver.join();
  FLOE_TRY(queue.error());
  if (!consumer_stopped && !producers.ok() && producers.kind() != ErrorKind::kCancelled) {
    return producers;
  }

  if (no_filter && r.scanned_data_files > 0) residual_texts.insert("true");
  r.matched_delete_files = index.matched_files();
  r.residuals.assign(residual_texts.begin(), residual_texts.end());
  r.peak_buffered_tasks = queue.peak();
  finish_report();
  return Status::OK();
}

Result<std::vector<ManifestFile>> TableScan::matching_data_manifests() const {
  std::vector<ManifestFile> out;
  if (!snapshot_) return out;
  const TableMetadata& table = *table_;
  const std::set<std::string> only(options_.data_manifests.begin(), options_.data_manifests.end());
  std::map<int32_t, ManifestEvaluator> evaluators;
  for (auto& m : FLOE_TRY(snapshot_manifests(*io_, table, *snapshot_))) {
    if (m.content != ManifestContent::kData) continue;
    if (!only.empty() && !only.count(m.manifest_path)) continue;
    auto it = evaluators.find(m.partition_spec_id);
    if (it == evaluators.end()) {
      const PartitionSpec* spec = table.spec_by_id(m.partition_spec_id);
      if (!spec) {
        return invalid_data("manifest {} uses partition spec {}, which the table does not have",
                            m.manifest_path, m.partition_spec_id);
      }
      it = evaluators
               .emplace(m.partition_spec_id,
                        FLOE_TRY(ManifestEvaluator::make(filter_, *spec, *schema_)))
               .first;
    }
    if (manifest_has_live_files(m) && it->second.might_match(m)) out.push_back(std::move(m));
  }
  return out;
}

Result<std::vector<FileScanTask>> TableScan::plan_files() {
  std::vector<FileScanTask> result;
  FLOE_TRY(plan_files([&](FileScanTask&& t) {
    result.push_back(std::move(t));
    return true;
  }));
  return result;
}

TableScan::SplitSettings TableScan::split_settings() const {
  const TableMetadata& t = *table_;
  SplitSettings s;
  s.target = options_.split_target_size > 0
                 ? options_.split_target_size
                 : table_properties::int_property(t.properties, table_properties::kSplitSize,
                                                  table_properties::kSplitSizeDefault);
  s.open_cost =
      options_.split_open_file_cost >= 0
          ? options_.split_open_file_cost
          : table_properties::int_property(t.properties, table_properties::kSplitOpenFileCost,
                                           table_properties::kSplitOpenFileCostDefault);
  int lookback = options_.split_lookback > 0 ? options_.split_lookback
                                             : static_cast<int>(table_properties::int_property(
                                                   t.properties, table_properties::kSplitLookback,
                                                   table_properties::kSplitLookbackDefault));
  s.lookback = std::max(1, lookback);
  return s;
}

Status TableScan::plan_tasks(const CombinedTaskSink& sink) {
  auto started = std::chrono::steady_clock::now();
  SplitSettings settings = split_settings();
  int64_t tasks = 0, bytes = 0;
  BinPacker packer(settings.target, settings.open_cost, settings.lookback,
                   [&](CombinedScanTask&& c) {
                     ++tasks;
                     bytes += c.total_bytes;
                     return sink(std::move(c));
                   });
  bool stopped = false;
  FLOE_TRY(plan_files([&](FileScanTask&& f) {
    if (f.file->split_offsets && f.file->file_size_in_bytes > settings.target) {
      for (auto& s : split_file_task(f, settings.target)) {
        if (!packer.add(std::move(s))) {
          stopped = true;
          return false;
        }
      }
      return true;
    }
    if (!packer.add(std::move(f))) stopped = true;
    return !stopped;
  }));
  if (!stopped) packer.finish();
  report_.tasks = tasks;
  report_.task_bytes = bytes;
  report_.planning_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return Status::OK();
}

Result<std::vector<CombinedScanTask>> TableScan::plan_tasks() {
  std::vector<CombinedScanTask> result;
  FLOE_TRY(plan_tasks([&](CombinedScanTask&& t) {
    result.push_back(std::move(t));
    return true;
  }));
  return result;
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

BinPacker::BinPacker(int64_t target_size, int64_t open_file_cost, int lookback,
                     std::function<bool(CombinedScanTask&&)> sink)
    : target_(target_size),
      open_cost_(open_file_cost),
      lookback_(static_cast<size_t>(std::max(1, lookback))),
      sink_(std::move(sink)) {}

bool BinPacker::add(FileScanTask t) {
  int64_t weight = std::max(t.length, open_cost_);
  for (size_t b = 0; b < open_.size(); ++b) {
    if (weights_[b] + weight <= target_) {
      weights_[b] += weight;
      open_[b].total_bytes += t.length;
      open_[b].tasks.push_back(std::move(t));
      return true;
    }
  }
  bool more = true;
  if (open_.size() >= lookback_) {
    // Close the largest open bin (Java's PackingIterable).
    size_t largest = 0;
    for (size_t b = 1; b < open_.size(); ++b) {
      if (weights_[b] > weights_[largest]) largest = b;
    }
    CombinedScanTask closed = std::move(open_[largest]);
    open_.erase(open_.begin() + static_cast<std::ptrdiff_t>(largest));
    weights_.erase(weights_.begin() + static_cast<std::ptrdiff_t>(largest));
    more = sink_(std::move(closed));
  }
  CombinedScanTask bin;
  bin.total_bytes = t.length;
  bin.tasks.push_back(std::move(t));
  open_.push_back(std::move(bin));
  weights_.push_back(weight);
  return more;
}

bool BinPacker::finish() {
  bool more = true;
  while (more && !open_.empty()) {
    more = sink_(std::move(open_.front()));
    open_.pop_front();
    weights_.pop_front();
  }
  open_.clear();
  weights_.clear();
  return more;
}

std::vector<CombinedScanTask> bin_pack_tasks(std::vector<FileScanTask> tasks, int64_t target_size,
                                             int64_t open_file_cost, int lookback) {
  std::vector<CombinedScanTask> done;
  BinPacker packer(target_size, open_file_cost, lookback, [&](CombinedScanTask&& c) {
    done.push_back(std::move(c));
    return true;
  });
  for (auto& t : tasks) packer.add(std::move(t));
  packer.finish();
  return done;
}

}  // namespace floe
