// Compaction (floe/table/rewrite_data_files.h; Java's RewriteDataFilesSparkAction with
// SparkBinPackDataRewriter or SparkSortDataRewriter): plan the candidates, group and bin-pack
// them, read each group's files with every delete applied, write them anew (sorted, for the
// sort strategy), commit a RewriteFiles.
#include "floe/table/rewrite_data_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "floe/read/task_reader.h"
#include "floe/scan/table_scan.h"
#include "floe/spec/table_properties.h"
#include "floe/table/snapshot_producer.h"
#include "floe/util/thread_pool.h"
#include "floe/write/data_writer.h"
#include "floe/write/sort_rows.h"
#include "table/rewrite_options_internal.h"

namespace floe {

namespace {

constexpr std::string_view kAction = "rewrite_data_files";

// A file to rewrite, with what planning attached to it.
struct Candidate {
  FileScanTask task;
  std::string group_key;
};

// The partition a file is grouped by: its values of the current spec's fields (by field id),
// null for a field its own spec lacks (Java's coercePartition).
std::string group_key(const TableMetadata& m, const DataFile& f) {
  const PartitionSpec* current = m.spec();
  const PartitionSpec* own = m.spec_by_id(f.spec_id);
  std::string key;
  if (!current) return key;
  for (const auto& field : current->fields()) {
    std::string value = "null";
    if (own) {
      for (size_t i = 0; i < own->fields().size() && i < f.partition.size(); ++i) {
        if (own->fields()[i].field_id == field.field_id) value = f.partition[i].to_string();
      }
    }
    key += value;
    key.push_back('\x1f');
  }
  return key;
}

// Deleted rows a file's file-scoped deletes name (Java's tooHighDeleteRatio counts those only).
int64_t known_deleted_rows(const FileScanTask& t) {
  int64_t n = 0;
  for (const auto& d : t.deletes) {
    if (d->content() == FileContent::kPositionDeletes && !d->scoped_data_file().empty()) {
      n += d->record_count();
    }
  }
  return std::min(n, t.file->record_count);
}

class Rewriter {
 public:
  Rewriter(Table& table, const RewriteDataFilesOptions& options)
      : table_(table), options_(options), metadata_(table.metadata()) {}

  Result<RewriteDataFilesResult> run() {
    const Snapshot* start = metadata_->current_snapshot();
    if (!start) return result_;
    FLOE_TRY(resolve_sizes());
    FLOE_TRY(resolve_sort_order());
    std::vector<std::vector<Candidate*>> groups = FLOE_TRY(plan_groups(*start));
    if (groups.empty()) return result_;
    for (const auto& g : groups) {
      for (const Candidate* c : g) {
        files_total_++;
        bytes_total_ += c->task.file->file_size_in_bytes;
      }
    }
    result_.failed_data_files = FLOE_TRY(internal::commit_in_batches(
        groups, options_.partial_progress, options_.partial_progress_max_commits,
        [&](const auto& batch) { return rewrite_and_commit(*start, batch); }));
    return result_;
  }

 private:
  Status resolve_sizes() {
    const int64_t default_target = table_properties::int_property(
        metadata_->properties, table_properties::kTargetFileSizeBytes,
        table_properties::kTargetFileSizeBytesDefault);
    internal::FileRewriteSizes sizes = FLOE_TRY(
        internal::resolve_file_sizes(options_.target_file_size_bytes, default_target,
                                     options_.min_file_size_bytes, options_.max_file_size_bytes));
    target_ = sizes.target;
    min_size_ = sizes.min;
    max_size_ = sizes.max;
    if (options_.delete_file_threshold < 0) {
      return invalid_argument("delete-file-threshold must not be negative");
    }
    if (options_.delete_ratio_threshold <= 0 || options_.delete_ratio_threshold > 1) {
      return invalid_argument("delete-ratio-threshold must be in (0, 1]");
    }
    FLOE_TRY(internal::check_group_options(
        options_.min_input_files, options_.max_file_group_size_bytes,
        options_.partial_progress_max_commits, options_.max_concurrent_file_group_rewrites));
    return Status::OK();
  }

  // The sort strategy's order, checked against the current schema, and the id the new files
  // carry: the table's order with the same fields, else 0 (Java's output-sort-order-id).
  Status resolve_sort_order() {
    if (options_.strategy != RewriteStrategy::kSort) return Status::OK();
    if (options_.shuffle_partitions_per_file < 1) {
      return invalid_argument("shuffle-partitions-per-file must be positive");
    }
    if (!(options_.compression_factor > 0)) {
      return invalid_argument("compression-factor must be positive");
    }
    const SortOrder* table_order = metadata_->sort_order();
    SortOrder order =
        options_.sort_order ? *options_.sort_order : (table_order ? *table_order : SortOrder{});
    if (order.is_unsorted()) {
      return invalid_argument(
          "Cannot sort data without a valid sort order: {} is unsorted and no sort order was "
          "given",
          table_.id().to_string());
    }
    const Schema& schema = *metadata_->schema();
    for (const SortField& f : order.fields) {
      const NestedField* source = schema.find_field(f.source_id);
      if (!source)
        return invalid_argument("sort field source {} is not in the schema", f.source_id);
      if (!f.transform.can_transform(*source->type)) {
        return invalid_argument("Cannot sort by {}({}): {} does not apply to type {}",
                                f.transform.to_string(), source->name, f.transform.to_string(),
                                source->type->to_string());
      }
    }
    order.order_id = 0;
    for (const auto& o : metadata_->sort_orders) {
      if (o->fields == order.fields) order.order_id = o->order_id;
    }
    sort_order_ = std::move(order);
    return Status::OK();
  }

  bool too_many_deletes(const FileScanTask& t) const {
    return static_cast<int64_t>(t.deletes.size()) >= options_.delete_file_threshold;
  }
  bool too_high_delete_ratio(const FileScanTask& t) const {
    if (t.deletes.empty() || t.file->record_count <= 0) return false;
    return static_cast<double>(known_deleted_rows(t)) / static_cast<double>(t.file->record_count) >=
           options_.delete_ratio_threshold;
  }

  Result<std::vector<std::vector<Candidate*>>> plan_groups(const Snapshot& start) {
    ScanOptions so;
    so.snapshot_id = start.snapshot_id;
    so.filter = options_.filter;
    so.case_sensitive = false;
    so.threads = options_.threads;
    TableScan scan = FLOE_TRY(table_.new_scan(so));
    std::vector<FileScanTask> tasks = FLOE_TRY(scan.plan_files());
    // Every live file with its deletes: which delete files would dangle (below).
    if (options_.filter && options_.remove_dangling_deletes) {
      ScanOptions all;
      all.snapshot_id = start.snapshot_id;
      all.threads = options_.threads;
      TableScan whole = FLOE_TRY(table_.new_scan(all));
      all_tasks_ = FLOE_TRY(whole.plan_files());
    }
    std::map<std::string, std::vector<Candidate*>> by_partition;
    for (auto& t : tasks) {
      const int64_t size = t.file->file_size_in_bytes;
      const bool wrong_size = size < min_size_ || size > max_size_;
      if (!(options_.rewrite_all || wrong_size || too_many_deletes(t) ||
            too_high_delete_ratio(t))) {
        continue;
      }
      auto c = std::make_unique<Candidate>();
      c->group_key = group_key(*metadata_, *t.file);
      c->task = std::move(t);
      c->task.residual = always_true();  // every row of the file, not only matching ones
      c->task.start = 0;
      c->task.length = c->task.file->file_size_in_bytes;
      by_partition[c->group_key].push_back(c.get());
      candidates_.push_back(std::move(c));
    }
    if (!options_.filter) {
      for (auto& t : tasks) {
        if (t.file) all_tasks_.push_back(std::move(t));
      }
      for (const auto& c : candidates_) all_tasks_.push_back(c->task);
    }
    std::vector<std::vector<Candidate*>> groups;
    for (auto& [key, files] : by_partition) {
      // Java's BinPacking.ListPacker with a lookback of one, in planning order.
      auto bins = internal::pack_in_order(
          files, options_.max_file_group_size_bytes,
          [](const Candidate* c) { return c->task.file->file_size_in_bytes; });
      for (auto& bin : bins) {
        if (should_rewrite(bin)) groups.push_back(std::move(bin));
      }
    }
    return groups;
  }

  bool should_rewrite(const std::vector<Candidate*>& group) const {
    if (options_.rewrite_all) return true;
    int64_t bytes = 0;
    bool deletes = false;
    for (const Candidate* c : group) {
      bytes += c->task.file->file_size_in_bytes;
      deletes = deletes || too_many_deletes(c->task) || too_high_delete_ratio(c->task);
    }
    const auto n = static_cast<int64_t>(group.size());
    return (n > 1 && n >= options_.min_input_files) || (n > 1 && bytes > target_) ||
           bytes > max_size_ || deletes;
  }

  // Reads the groups' files (every delete applied) into new files and commits them. Bin-pack
  // writes every group through one writer; sort writes each group through its own, which holds
  // the group's rows until it sorts and writes them.
  Status rewrite_and_commit(const Snapshot& start,
                            const std::vector<std::vector<Candidate*>>& groups) {
    WriteOptions wo = FLOE_TRY(WriteOptions::from_table(*metadata_));
    wo.target_file_size = target_;
    wo.parquet.threads = options_.threads > 0 ? options_.threads : ThreadPool::default_threads();
    std::vector<std::unique_ptr<TableWriter>> writers;
    std::vector<DataFile> added;
    auto write = [&](const std::vector<std::vector<Candidate*>>& part) -> Status {
      writers.push_back(FLOE_TRY(TableWriter::make(table_.io(), *metadata_, wo)));
      TableWriter& writer = *writers.back();
      if (sort_order_) {
        writer.order_rows(
            [this, meta = metadata_](ColumnBatch all) {
              return sort_rows(*sort_order_, *meta->schema(), all);
            },
            sort_order_->order_id);
      }
      FLOE_TRY(write_groups(part, writer));
      std::vector<DataFile> files = FLOE_TRY(writer.close());
      added.insert(added.end(), files.begin(), files.end());
      return Status::OK();
    };
    Status st;
    if (sort_order_) {
      for (const auto& g : groups) {
        st = write({g});
        if (!st.ok()) break;
      }
    } else {
      st = write(groups);
    }
    if (st.ok()) st = commit(start, groups, added);
    if (!st.ok()) {
      if (st.kind() != ErrorKind::kCommitStateUnknown) {
        for (auto& w : writers) (void)w->abort();
      }
      return st;
    }
    return Status::OK();
  }

  Status write_groups(const std::vector<std::vector<Candidate*>>& groups, TableWriter& writer) {
    const Schema& schema = *metadata_->schema();
    std::vector<int32_t> projection;
    for (const auto& f : schema.fields()) projection.push_back(f.id);
    ScanReader reader(table_.io(), metadata_, schema, projection);
    std::vector<const Candidate*> files;
    for (const auto& g : groups) files.insert(files.end(), g.begin(), g.end());
    ThreadPool pool(options_.threads);
    const size_t window = static_cast<size_t>(std::max(1, pool.size())) * 2;
    const std::vector<NestedField>& fields = schema.fields();
    for (size_t begin = 0; begin < files.size(); begin += window) {
      const size_t end = std::min(files.size(), begin + window);
      std::vector<std::vector<ColumnBatch>> results(end - begin);
      FLOE_TRY(pool.parallel_for(end - begin, [&](size_t i) -> Status {
        return reader.read(files[begin + i]->task, [&](ColumnBatch&& b) -> Status {
          if (b.num_rows > 0) results[i].push_back(std::move(b));
          return Status::OK();
        });
      }));
      for (size_t i = 0; i < results.size(); ++i) {
        for (auto& b : results[i]) {
          b.fields = fields;
          FLOE_TRY(writer.write(b));
        }
        files_done_++;
        bytes_done_ += files[begin + i]->task.file->file_size_in_bytes;
        if (options_.progress)
          options_.progress(files_done_, files_total_, bytes_done_, bytes_total_);
      }
    }
    return Status::OK();
  }

  Status commit(const Snapshot& start, const std::vector<std::vector<Candidate*>>& groups,
                const std::vector<DataFile>& added) {
    RewriteFiles rewrite = table_.new_rewrite();
    rewrite.validate_from_snapshot(start.snapshot_id);
    if (options_.use_starting_sequence_number && metadata_->format_version >= 2) {
      rewrite.data_sequence_number(start.sequence_number);
    }
    int64_t files = 0, bytes = 0;
    for (const auto& g : groups) {
      for (const Candidate* c : g) {
        rewritten_.insert(c->task.file->file_path);
        rewrite.remove_data(*c->task.file);
        files++;
        bytes += c->task.file->file_size_in_bytes;
      }
    }
    for (const auto& f : added) rewrite.add_file(f);
    std::vector<DataFile> dangling;
    if (options_.remove_dangling_deletes) dangling = dangling_deletes();
    for (const auto& d : dangling) rewrite.remove_deletes(d);
    Status st = rewrite.commit();
    if (!st.ok()) {
      for (const auto& g : groups) {
        for (const Candidate* c : g) rewritten_.erase(c->task.file->file_path);
      }
      return st;
    }
    for (const auto& d : dangling) removed_.insert({d.file_path, d.content_offset.value_or(-1)});
    result_.rewritten_data_files += files;
    result_.rewritten_bytes += bytes;
    result_.added_data_files += static_cast<int64_t>(added.size());
    result_.removed_delete_files += static_cast<int64_t>(dangling.size());
    result_.groups += static_cast<int64_t>(groups.size());
    result_.commits++;
    // Later commits of this run start from the table as it is now.
    metadata_ = table_.metadata();
    return Status::OK();
  }

  // The delete files whose every live data file is rewritten (by this run so far): they
  // apply to nothing once the rewrite commits (the new files keep the starting sequence number,
  // which no older delete applies to but by path, and position deletes name old paths).
  std::vector<DataFile> dangling_deletes() const {
    std::map<std::pair<std::string, int64_t>, const DeleteFilePtr*> seen;
    std::set<std::pair<std::string, int64_t>> live;
    for (const auto& t : all_tasks_) {
      const bool rewritten = rewritten_.count(t.file->file_path) > 0;
      for (const auto& d : t.deletes) {
        std::pair<std::string, int64_t> key{std::string(d->file_path()),
                                            d->content_offset().value_or(-1)};
        seen.emplace(key, &d);
        if (!rewritten) live.insert(key);
      }
    }
    std::vector<DataFile> out;
    for (const auto& [key, d] : seen) {
      if (!live.count(key) && !removed_.count(key)) out.push_back((*d)->to_data_file());
    }
    return out;
  }

  Table& table_;
  const RewriteDataFilesOptions& options_;
  std::shared_ptr<const TableMetadata> metadata_;
  int64_t target_ = 0, min_size_ = 0, max_size_ = 0;
  std::optional<SortOrder> sort_order_;  // the sort strategy's
  std::vector<std::unique_ptr<Candidate>> candidates_;
  std::vector<FileScanTask> all_tasks_;
  std::set<std::string> rewritten_;                    // committed, or being committed
  std::set<std::pair<std::string, int64_t>> removed_;  // delete files removed by earlier commits
  int64_t files_total_ = 0, bytes_total_ = 0, files_done_ = 0, bytes_done_ = 0;
  RewriteDataFilesResult result_;
};

}  // namespace

Result<RewriteDataFilesOptions> RewriteDataFilesOptions::from_map(
    const std::map<std::string, std::string>& map) {
  RewriteDataFilesOptions o;
  for (const auto& [key, value] : map) {
    if (key == "target-file-size-bytes") {
      o.target_file_size_bytes = FLOE_TRY(internal::long_option(kAction, key, value));
      if (o.target_file_size_bytes <= 0) return invalid_argument("{} must be positive", key);
    } else if (key == "min-file-size-bytes") {
      o.min_file_size_bytes = FLOE_TRY(internal::long_option(kAction, key, value));
      if (o.min_file_size_bytes < 0) return invalid_argument("{} must not be negative", key);
    } else if (key == "max-file-size-bytes") {
      o.max_file_size_bytes = FLOE_TRY(internal::long_option(kAction, key, value));
      if (o.max_file_size_bytes < 0) return invalid_argument("{} must not be negative", key);
    } else if (key == "min-input-files") {
      o.min_input_files = FLOE_TRY(internal::long_option(kAction, key, value));
    } else if (key == "delete-file-threshold") {
      o.delete_file_threshold = FLOE_TRY(internal::long_option(kAction, key, value));
    } else if (key == "delete-ratio-threshold") {
      o.delete_ratio_threshold = FLOE_TRY(internal::double_option(kAction, key, value));
    } else if (key == "rewrite-all") {
      o.rewrite_all = FLOE_TRY(internal::bool_option(kAction, key, value));
    } else if (key == "max-file-group-size-bytes") {
      o.max_file_group_size_bytes = FLOE_TRY(internal::long_option(kAction, key, value));
    } else if (key == "partial-progress.enabled") {
      o.partial_progress = FLOE_TRY(internal::bool_option(kAction, key, value));
    } else if (key == "partial-progress.max-commits") {
      o.partial_progress_max_commits = FLOE_TRY(internal::long_option(kAction, key, value));
    } else if (key == "max-concurrent-file-group-rewrites") {
      o.max_concurrent_file_group_rewrites = FLOE_TRY(internal::long_option(kAction, key, value));
    } else if (key == "use-starting-sequence-number") {
      o.use_starting_sequence_number = FLOE_TRY(internal::bool_option(kAction, key, value));
    } else if (key == "remove-dangling-deletes") {
      o.remove_dangling_deletes = FLOE_TRY(internal::bool_option(kAction, key, value));
    } else if (key == "shuffle-partitions-per-file") {
      o.shuffle_partitions_per_file = FLOE_TRY(internal::long_option(kAction, key, value));
    } else if (key == "compression-factor") {
      o.compression_factor = FLOE_TRY(internal::double_option(kAction, key, value));
    } else {
      return invalid_argument(
          "rewrite_data_files has no option '{}' (known: target-file-size-bytes, "
          "min-file-size-bytes, max-file-size-bytes, min-input-files, delete-file-threshold, "
          "delete-ratio-threshold, rewrite-all, max-file-group-size-bytes, "
          "partial-progress.enabled, partial-progress.max-commits, "
          "max-concurrent-file-group-rewrites, use-starting-sequence-number, "
          "remove-dangling-deletes, shuffle-partitions-per-file, compression-factor)",
          key);
    }
  }
  return o;
}

Result<RewriteDataFilesResult> rewrite_data_files(Table& table,
                                                  const RewriteDataFilesOptions& options) {
  return Rewriter(table, options).run();
}

}  // namespace floe
