// Position delete compaction (floe/table/rewrite_position_deletes.h; Java's
// RewritePositionDeleteFilesSparkAction with SparkBinPackPositionDeletesRewriter): plan the
// candidate delete files, group and bin-pack them per partition, read each group's positions,
// keep those of live data files, write them anew, and commit a RewriteFiles of delete files.
#include "floe/table/rewrite_position_deletes.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "floe/expr/projection.h"
#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/read/position_delete_file.h"
#include "floe/scan/delete_index.h"
#include "floe/scan/evaluators.h"
#include "floe/spec/table_properties.h"
#include "floe/table/snapshot_producer.h"
#include "floe/util/thread_pool.h"
#include "floe/write/delete_fanout.h"
#include "floe/write/delete_writer.h"
#include "table/rewrite_options_internal.h"
#include "table/snapshot_producer_internal.h"

namespace floe {

namespace {

constexpr std::string_view kAction = "rewrite_position_delete_files";

// A position delete file of the current snapshot.
struct Candidate {
  DataFile file;
  int64_t data_sequence_number = 0;
  std::string key;  // partition_key (floe/scan/delete_index.h)
};

// A live data file: what a position of it needs to be kept.
struct LiveData {
  DataFile file;
  int64_t data_sequence_number = 0;
  std::string key;
};

class Rewriter {
 public:
  Rewriter(Table& table, const RewritePositionDeletesOptions& options)
      : table_(table), options_(options), metadata_(table.metadata()), pool_(options.threads) {}

  Result<RewritePositionDeletesResult> run() {
    const Snapshot* start = metadata_->current_snapshot();
    FLOE_TRY(resolve_options());
    // v1 has no delete files; v3 takes position deletes only as deletion vectors, which are
    // left alone (a v2 file left in it could not be written anew).
    if (!start || metadata_->format_version != 2) return result_;
    std::vector<std::vector<const Candidate*>> groups = FLOE_TRY(plan_groups(*start));
    if (groups.empty()) return result_;
    FLOE_TRY(read_live_data(*start));
    for (const auto& g : groups) {
      for (const Candidate* c : g) {
        files_total_++;
        bytes_total_ += c->file.file_size_in_bytes;
      }
    }
    result_.failed_delete_files = FLOE_TRY(internal::commit_in_batches(
        groups, options_.partial_progress, options_.partial_progress_max_commits,
        [&](const auto& batch) { return rewrite_and_commit(*start, batch); }));
    return result_;
  }

 private:
  Status resolve_options() {
    const int64_t default_target = table_properties::int_property(
        metadata_->properties, table_properties::kDeleteTargetFileSizeBytes,
        table_properties::kDeleteTargetFileSizeBytesDefault);
    internal::FileRewriteSizes sizes = FLOE_TRY(
        internal::resolve_file_sizes(options_.target_file_size_bytes, default_target,
                                     options_.min_file_size_bytes, options_.max_file_size_bytes));
    target_ = sizes.target;
    min_size_ = sizes.min;
    max_size_ = sizes.max;
    FLOE_TRY(internal::check_group_options(
        options_.min_input_files, options_.max_file_group_size_bytes,
        options_.partial_progress_max_commits, options_.max_concurrent_file_group_rewrites));
    if (options_.filter) {
      const Schema* schema = metadata_->schema();
      if (!schema) return invalid_data("table {} has no current schema", table_.id().to_string());
      filter_ = FLOE_TRY(bind_expression(options_.filter, *schema, false));
    }
    return Status::OK();
  }

  // Java's baseTableFilter: a delete file's partition may hold rows matching the filter.
  Result<bool> partition_may_match(const PartitionSpec& spec, const DataFile& f) {
    if (!filter_) return true;
    auto it = projected_.find(spec.spec_id());
    if (it == projected_.end()) {
      ExprPtr p = FLOE_TRY(project_inclusive(filter_, spec, *metadata_->schema()));
      it = projected_.emplace(spec.spec_id(), std::move(p)).first;
    }
    return evaluate(it->second, internal::partition_lookup(spec, f.partition));
  }

  // The entries of `manifests`, read `threads` wide, live ones only, without column metrics.
  Result<std::vector<std::vector<ManifestEntry>>> read_entries(
      const std::vector<ManifestFile>& manifests) {
    std::vector<std::vector<ManifestEntry>> out(manifests.size());
    FLOE_TRY(pool_.parallel_for(manifests.size(), [&](size_t i) -> Status {
      ManifestReadOptions ro;
      ro.read_stats = false;
      ro.include_deleted = false;
      auto reader = FLOE_TRY(ManifestReader::open(*table_.io(), manifests[i], metadata_.get(), ro));
      return reader->for_each([&](const ManifestEntry& e) {
        if (e.is_live()) out[i].push_back(e);
        return true;
      });
    }));
    return out;
  }

  Result<std::vector<std::vector<const Candidate*>>> plan_groups(const Snapshot& start) {
    std::vector<ManifestFile> delete_manifests;
    const Schema& schema = *metadata_->schema();
    for (auto& m : FLOE_TRY(snapshot_manifests(*table_.io(), *metadata_, start))) {
      if (m.content != ManifestContent::kDeletes) {
        data_manifests_.push_back(std::move(m));
        continue;
      }
      if (filter_) {
        const PartitionSpec* spec = metadata_->spec_by_id(m.partition_spec_id);
        if (spec) {
          auto evaluator = ManifestEvaluator::make(filter_, *spec, schema);
          if (evaluator.ok() && !evaluator->might_match(m)) continue;
        }
      }
      delete_manifests.push_back(std::move(m));
    }
    std::map<std::string, std::vector<const Candidate*>> by_partition;
    for (auto& entries : FLOE_TRY(read_entries(delete_manifests))) {
      for (auto& e : entries) {
        DataFile& f = e.data_file;
        if (f.content != FileContent::kPositionDeletes || internal::is_deletion_vector(f)) continue;
        PartitionSpecPtr spec = FLOE_TRY(internal::spec_ptr(*metadata_, f.spec_id));
        if (!FLOE_TRY(partition_may_match(*spec, f))) continue;
        const int64_t size = f.file_size_in_bytes;
        if (!options_.rewrite_all && size >= min_size_ && size <= max_size_) continue;
        auto c = std::make_unique<Candidate>();
        c->key = partition_key(f.spec_id, f.partition);
        c->data_sequence_number = e.sequence_number.value_or(0);
        c->file = std::move(f);
        by_partition[c->key].push_back(c.get());
        candidates_.push_back(std::move(c));
      }
    }
    std::vector<std::vector<const Candidate*>> groups;
    for (auto& [key, files] : by_partition) {
      auto bins =
          internal::pack_in_order(files, options_.max_file_group_size_bytes,
                                  [](const Candidate* c) { return c->file.file_size_in_bytes; });
      for (auto& bin : bins) {
        if (should_rewrite(bin)) groups.push_back(std::move(bin));
      }
    }
    return groups;
  }

  bool should_rewrite(const std::vector<const Candidate*>& group) const {
    if (options_.rewrite_all) return true;
    int64_t bytes = 0;
    for (const Candidate* c : group) bytes += c->file.file_size_in_bytes;
    const auto n = static_cast<int64_t>(group.size());
    return (n > 1 && n >= options_.min_input_files) || (n > 1 && bytes > target_) ||
           bytes > max_size_;
  }

  // Every live data file of the starting snapshot, by normalized path (as the scan matches
  // position deletes to data files).
  Status read_live_data(const Snapshot&) {
    for (auto& entries : FLOE_TRY(read_entries(data_manifests_))) {
      for (auto& e : entries) {
        LiveData d;
        d.data_sequence_number = e.sequence_number.value_or(0);
        d.key = partition_key(e.data_file.spec_id, e.data_file.partition);
        d.file = std::move(e.data_file);
        std::string path = normalize_file_path(d.file.file_path);
        live_.emplace(std::move(path), std::move(d));
      }
    }
    return Status::OK();
  }

  // One group written anew: its delete files read, the positions that still apply kept.
  struct Rewritten {
    std::vector<const Candidate*> old_files;
    std::vector<DataFile> new_files;
    int64_t data_sequence_number = 0;
  };

  Status rewrite_group(const std::vector<const Candidate*>& group, PositionDeleteFanout& fanout,
                       Rewritten* out) {
    out->old_files = group;
    for (const Candidate* c : group) {
      out->data_sequence_number = std::max(out->data_sequence_number, c->data_sequence_number);
    }
    const size_t window = static_cast<size_t>(std::max(1, pool_.size())) * 2;
    for (size_t begin = 0; begin < group.size(); begin += window) {
      const size_t end = std::min(group.size(), begin + window);
      std::vector<PositionDeletes> read(end - begin);
      FLOE_TRY(pool_.parallel_for(end - begin, [&](size_t i) -> Status {
        const DataFile& f = group[begin + i]->file;
        PositionDeleteReadOptions ro;
        ro.file_size = f.file_size_in_bytes;
        read[i] = FLOE_TRY(read_position_delete_file(table_.io(), f.file_path, f.file_format, ro));
        return Status::OK();
      }));
      for (size_t i = 0; i < read.size(); ++i) {
        const Candidate& c = *group[begin + i];
        for (const auto& [path, positions] : read[i].by_path) {
          // A position applies to a live data file of the delete file's own spec and partition
          // and of a data sequence number no higher than its own; any other is dangling.
          auto it = live_.find(path);
          if (it == live_.end() || it->second.key != c.key ||
              it->second.data_sequence_number > c.data_sequence_number) {
            result_.dangling_positions += static_cast<int64_t>(positions.cardinality());
            continue;
          }
          FLOE_TRY(fanout.add(it->second.file, positions.positions()));
        }
        files_done_++;
        bytes_done_ += c.file.file_size_in_bytes;
        if (options_.progress) {
          options_.progress(files_done_, files_total_, bytes_done_, bytes_total_);
        }
      }
    }
    PositionDeleteFanout::Written written = FLOE_TRY(fanout.close());
    out->new_files = std::move(written.delete_files);
    return Status::OK();
  }

  Status rewrite_and_commit(const Snapshot& start,
                            const std::vector<std::vector<const Candidate*>>& groups) {
    WriteOptions wo = FLOE_TRY(delete_write_options(*metadata_));
    wo.target_file_size = target_;
    std::vector<std::unique_ptr<PositionDeleteFanout>> fanouts;
    std::vector<Rewritten> rewritten(groups.size());
    auto abort = [&](Status st) {
      if (st.kind() != ErrorKind::kCommitStateUnknown) {
        for (auto& f : fanouts) (void)f->abort();
      }
      return st;
    };
    for (size_t i = 0; i < groups.size(); ++i) {
      auto fanout =
          PositionDeleteFanout::make(table_.io(), *metadata_, wo, DeleteGranularity::kPartition);
      if (!fanout.ok()) return abort(fanout.status());
      fanouts.push_back(std::move(*fanout));
      Status st = rewrite_group(groups[i], *fanouts.back(), &rewritten[i]);
      if (!st.ok()) return abort(st);
    }
    RewriteFiles rewrite = table_.new_rewrite();
    rewrite.validate_from_snapshot(start.snapshot_id);
    int64_t old_files = 0, old_bytes = 0, new_files = 0, new_bytes = 0;
    for (const auto& r : rewritten) {
      for (const Candidate* c : r.old_files) {
        rewrite.remove_deletes(c->file);
        old_files++;
        old_bytes += c->file.file_size_in_bytes;
      }
      // Java's RewritePositionDeletesCommitManager: the group's highest data sequence number
      // (see rewrite_position_deletes.h for why).
      for (const auto& f : r.new_files) {
        rewrite.add_deletes(f, r.data_sequence_number);
        new_files++;
        new_bytes += f.file_size_in_bytes;
      }
    }
    Status st = rewrite.commit();
    if (!st.ok()) return abort(st);
    result_.rewritten_delete_files += old_files;
    result_.rewritten_bytes += old_bytes;
    result_.added_delete_files += new_files;
    result_.added_bytes += new_bytes;
    result_.groups += static_cast<int64_t>(groups.size());
    result_.commits++;
    return Status::OK();
  }

  Table& table_;
  const RewritePositionDeletesOptions& options_;
  std::shared_ptr<const TableMetadata> metadata_;
  ThreadPool pool_;  // manifest and delete file readers
  int64_t target_ = 0, min_size_ = 0, max_size_ = 0;
  ExprPtr filter_;                        // bound
  std::map<int32_t, ExprPtr> projected_;  // the filter projected per spec
  std::vector<ManifestFile> data_manifests_;
  std::vector<std::unique_ptr<Candidate>> candidates_;
  std::unordered_map<std::string, LiveData> live_;
  int64_t files_total_ = 0, bytes_total_ = 0, files_done_ = 0, bytes_done_ = 0;
  RewritePositionDeletesResult result_;
};

}  // namespace

Result<RewritePositionDeletesOptions> RewritePositionDeletesOptions::from_map(
    const std::map<std::string, std::string>& map) {
  using internal::bool_option;
  using internal::long_option;
  RewritePositionDeletesOptions o;
  for (const auto& [key, value] : map) {
    if (key == "target-file-size-bytes") {
      o.target_file_size_bytes = FLOE_TRY(long_option(kAction, key, value));
      if (o.target_file_size_bytes <= 0) return invalid_argument("{} must be positive", key);
    } else if (key == "min-file-size-bytes") {
      o.min_file_size_bytes = FLOE_TRY(long_option(kAction, key, value));
      if (o.min_file_size_bytes < 0) return invalid_argument("{} must not be negative", key);
    } else if (key == "max-file-size-bytes") {
      o.max_file_size_bytes = FLOE_TRY(long_option(kAction, key, value));
      if (o.max_file_size_bytes < 0) return invalid_argument("{} must not be negative", key);
    } else if (key == "min-input-files") {
      o.min_input_files = FLOE_TRY(long_option(kAction, key, value));
    } else if (key == "rewrite-all") {
      o.rewrite_all = FLOE_TRY(bool_option(kAction, key, value));
    } else if (key == "max-file-group-size-bytes") {
      o.max_file_group_size_bytes = FLOE_TRY(long_option(kAction, key, value));
    } else if (key == "partial-progress.enabled") {
      o.partial_progress = FLOE_TRY(bool_option(kAction, key, value));
    } else if (key == "partial-progress.max-commits") {
      o.partial_progress_max_commits = FLOE_TRY(long_option(kAction, key, value));
    } else if (key == "max-concurrent-file-group-rewrites") {
      o.max_concurrent_file_group_rewrites = FLOE_TRY(long_option(kAction, key, value));
    } else {
      return invalid_argument(
          "rewrite_position_delete_files has no option '{}' (known: target-file-size-bytes, "
          "min-file-size-bytes, max-file-size-bytes, min-input-files, rewrite-all, "
          "max-file-group-size-bytes, partial-progress.enabled, partial-progress.max-commits, "
          "max-concurrent-file-group-rewrites)",
          key);
    }
  }
  return o;
}

Result<RewritePositionDeletesResult> rewrite_position_deletes(
    Table& table, const RewritePositionDeletesOptions& options) {
  return Rewriter(table, options).run();
}

}  // namespace floe
