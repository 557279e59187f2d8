// DELETE, UPDATE and MERGE: the half that writes and commits a change
// (sql/statements/row_level_internal.h), copy-on-write or merge-on-read.
#include <fmt/format.h>

#include <algorithm>

#include "floe/columnar/kernels.h"
#include "floe/read/task_reader.h"
#include "floe/spec/metadata_columns.h"
#include "floe/table/snapshot_producer.h"
#include "floe/util/thread_pool.h"
#include "floe/write/delete_fanout.h"
#include "sql/statements/row_level_internal.h"
#include "sql/statements/table_write_internal.h"

namespace floe::sql {

namespace {

// Copy-on-write: every live row of the changed files but the removed ones goes to the writer.
// Tasks are read `threads` at a time; their survivors are written in task order.
Status rewrite_files(const WriteContext& ctx, RowLevelChanges& changes,
                     const std::vector<ChangedFile*>& rewrite) {
  const IcebergScanNode& scan = *changes.scan;
  const Schema& schema = scan.schema();
  std::vector<int32_t> projection;
  for (const auto& f : schema.fields()) projection.push_back(f.id);
  projection.push_back(kPositionColumnId);
  ScanReader reader(scan.table().io, scan.table().metadata, schema, projection);
  struct Item {
    FileScanTask task;
    const std::vector<int64_t>* removed;
  };
  std::vector<Item> items;
  for (ChangedFile* f : rewrite) {
    for (const FileScanTask* t : f->tasks) {
      Item item{*t, &f->positions};
      item.task.residual = always_true();  // every row, not only those the filter may match
      items.push_back(std::move(item));
    }
  }
  const size_t width = schema.fields().size();
  const std::vector<NestedField> fields = schema.fields();
  ThreadPool pool(ctx.exec.threads);
  const size_t window = static_cast<size_t>(std::max(1, pool.size())) * 2;
  for (size_t begin = 0; begin < items.size(); begin += window) {
    const size_t end = std::min(items.size(), begin + window);
    std::vector<std::vector<ColumnBatch>> results(end - begin);
    FLOE_TRY(pool.parallel_for(end - begin, [&](size_t i) -> Status {
      const std::vector<int64_t>& removed = *items[begin + i].removed;
      std::vector<uint8_t> keep;
      return reader.read(items[begin + i].task, [&](ColumnBatch&& b) -> Status {
        const int64_t* pos = b.columns[width]->raw<int64_t>();
        keep.assign(static_cast<size_t>(b.num_rows), 1);
        // Positions ascend in a batch: one binary search, then a merge walk.
        auto it = std::lower_bound(removed.begin(), removed.end(), b.num_rows ? pos[0] : 0);
        int64_t kept = b.num_rows;
        for (int64_t r = 0; r < b.num_rows && it != removed.end(); ++r) {
          while (it != removed.end() && *it < pos[r]) ++it;
          if (it != removed.end() && *it == pos[r]) {
            keep[static_cast<size_t>(r)] = 0;
            --kept;
          }
        }
        if (kept == 0) return Status::OK();
        b.fields.resize(width);
        b.columns.resize(width);
        results[i].push_back(kept == b.num_rows ? std::move(b) : take_rows(b, keep.data()));
        return Status::OK();
      });
    }));
    for (auto& batches : results) {
      for (auto& b : batches) {
        b.fields = fields;
        FLOE_TRY(changes.writer->write(b));
      }
    }
  }
  return Status::OK();
}

Status commit_copy_on_write(const RowLevelTarget& target, const RowLevelChanges& changes,
                            const std::vector<ChangedFile*>& removed, std::vector<DataFile> added,
                            const Snapshot* scanned) {
  OverwriteFiles overwrite = target.table->new_overwrite();
  stamp_engine(overwrite);
  if (target.branch) overwrite.to_branch(*target.branch);
  for (const ChangedFile* f : removed) overwrite.delete_file(*f->file);
  for (auto& f : added) overwrite.add_file(std::move(f));
  // Java's SparkCopyOnWriteOperation: conflicts since the scanned snapshot.
  if (scanned) overwrite.validate_from_snapshot(scanned->snapshot_id);
  if (changes.conflict_filter) overwrite.conflict_detection_filter(changes.conflict_filter);
  if (target.serializable) overwrite.validate_no_conflicting_data();
  overwrite.validate_no_conflicting_deletes();
  overwrite.case_sensitive(false);
  return overwrite.commit();
}

// Files that go whole and nothing else (Spark's metadata-only delete, in either mode): a
// delete by path. Deletes added to them concurrently go with them; a file removed or rewritten
// concurrently (its rows may live on in another file) fails the statement.
Status commit_whole_files(const RowLevelTarget& target, const std::vector<ChangedFile*>& removed) {
  DeleteFiles del = target.table->new_delete();
  stamp_engine(del);
  if (target.branch) del.to_branch(*target.branch);
  for (const ChangedFile* f : removed) del.delete_file(f->file->file_path);
  del.validate_files_exist();
  return del.commit();
}

// Merge-on-read: the removed positions of each changed file as position delete files (v2) or
// deletion vectors (v3; a file's existing vector is merged into its new one and replaced).
Result<PositionDeleteFanout::Written> write_position_deletes(
    const RowLevelTarget& target, const std::vector<ChangedFile*>& changed,
    std::unique_ptr<PositionDeleteFanout>* fanout) {
  const TableMetadata& table = *target.table->metadata();
  *fanout = FLOE_TRY(PositionDeleteFanout::make(target.table->io(), table));
  for (ChangedFile* f : changed) {
    FLOE_TRY((*fanout)->add(*f->file, f->positions));
    if (table.format_version < 3) continue;
    for (const FileScanTask* t : f->tasks) {
      for (const DeleteFilePtr& d : t->deletes) {
        if (d->content_offset() && d->referenced_data_file() == f->file->file_path) {
          FLOE_TRY((*fanout)->set_existing_dv(f->file->file_path, d->to_data_file()));
        }
      }
      break;  // every split of a file has the same deletes
    }
  }
  return (*fanout)->close();
}

// Java's SparkPositionDeltaWrite: the row delta validated against commits since the scanned
// snapshot; deletes added concurrently to the same rows conflict at either isolation level.
Status commit_merge_on_read(const RowLevelTarget& target, const RowLevelChanges& changes,
                            const std::vector<ChangedFile*>& removed,
                            const std::vector<ChangedFile*>& changed,
                            PositionDeleteFanout::Written deletes, std::vector<DataFile> added,
                            const Snapshot* scanned) {
  RowDelta delta = target.table->new_row_delta();
  stamp_engine(delta);
  if (target.branch) delta.to_branch(*target.branch);
  for (const ChangedFile* f : removed) delta.remove_rows(*f->file);
  for (auto& f : added) delta.add_rows(std::move(f));
  for (auto& d : deletes.delete_files) delta.add_deletes(std::move(d));
  for (auto& d : deletes.replaced_dvs) delta.remove_deletes(std::move(d));
  std::vector<std::string> referenced;
  for (const ChangedFile* f : changed) referenced.push_back(f->file->file_path);
  delta.validate_data_files_exist(std::move(referenced));
  if (scanned) delta.validate_from_snapshot(scanned->snapshot_id);
  if (changes.conflict_filter) delta.conflict_detection_filter(changes.conflict_filter);
  delta.validate_deleted_files();
  if (target.serializable) delta.validate_no_conflicting_data_files();
  delta.validate_no_conflicting_delete_files();
  delta.case_sensitive(false);
  return delta.commit();
}

}  // namespace

Result<RowLevelResult> apply_row_level_change(WriteContext& ctx, const RowLevelTarget& target,
                                              RowLevelChanges& changes,
                                              const std::string& operation) {
  RowLevelResult result;
  std::vector<ChangedFile*> removed, rewrite;
  for (auto& [path, f] : changes.files) {
    std::sort(f.positions.begin(), f.positions.end());
    f.positions.erase(std::unique(f.positions.begin(), f.positions.end()), f.positions.end());
    if (f.whole) {
      removed.push_back(&f);
    } else if (!f.positions.empty()) {
      rewrite.push_back(&f);
    }
  }
  if (removed.empty() && rewrite.empty() && changes.writer->rows_written() == 0) {
    FLOE_TRY(changes.writer->abort());
    return result;  // nothing changes: no snapshot
  }
  const Snapshot* scanned = changes.scan->scan().snapshot();
  Status status;
  if (rewrite.empty() && changes.writer->rows_written() == 0) {
    FLOE_TRY(changes.writer->abort());
    status = commit_whole_files(target, removed);
    result.removed_files = static_cast<int64_t>(removed.size());
  } else if (target.mode == RowLevelMode::kCopyOnWrite) {
    status = rewrite_files(ctx, changes, rewrite);
    std::vector<DataFile> added;
    if (status.ok()) {
      auto files = changes.writer->close();
      if (files.ok()) {
        added = std::move(*files);
      } else {
        status = files.status();
      }
    }
    if (status.ok()) {
      result.data_files = static_cast<int64_t>(added.size());
      std::vector<ChangedFile*> replaced = removed;
      replaced.insert(replaced.end(), rewrite.begin(), rewrite.end());
      status = commit_copy_on_write(target, changes, replaced, std::move(added), scanned);
    }
    result.removed_files = static_cast<int64_t>(removed.size());
    result.rewritten_files = static_cast<int64_t>(rewrite.size());
  } else {
    std::unique_ptr<PositionDeleteFanout> fanout;
    auto deletes = write_position_deletes(target, rewrite, &fanout);
    std::vector<DataFile> added;
    if (deletes.ok()) {
      auto files = changes.writer->close();
      if (files.ok()) {
        added = std::move(*files);
      } else {
        status = files.status();
      }
    } else {
      status = deletes.status();
    }
    if (status.ok()) {
      result.data_files = static_cast<int64_t>(added.size());
      result.delete_files = static_cast<int64_t>(deletes->delete_files.size());
      status = commit_merge_on_read(target, changes, removed, rewrite, std::move(*deletes),
                                    std::move(added), scanned);
    }
    if (!status.ok() && fanout && status.kind() != ErrorKind::kCommitStateUnknown) {
      (void)fanout->abort();
    }
    result.removed_files = static_cast<int64_t>(removed.size());
  }
  if (!status.ok()) {
    if (status.kind() != ErrorKind::kCommitStateUnknown) (void)changes.writer->abort();
    return status.with_context(operation + " on " + target.name);
  }
  result.committed = true;
  return result;
}

}  // namespace floe::sql
