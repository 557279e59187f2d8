// Snapshot producers: the updates that commit a new snapshot. One core (SnapshotProducer,
// src/table) serves them all: it filters the parent's manifests for deleted files, writes the
// added files to new manifests (kept across retries), optionally merges small manifests (Java's
// ManifestMergeManager), writes a fresh manifest list for each attempt and builds the
// snapshot with its summary (Java's SnapshotSummary keys and totals).
//   AppendFiles        fast append or merge append
//   OverwriteFiles     delete by row filter and/or by file, add files
//   DeleteFiles        metadata-only delete by row filter or path
//   ReplacePartitions  dynamic partition overwrite
//   RowDelta           row-level changes: data files and delete files added and removed
//   RewriteFiles       compaction: data (or delete) files replaced by files of the same rows
//                      (or deletes), "replace"
// Delete files (position deletes, deletion vectors, equality deletes) go to delete manifests;
// every producer but the fast append also drops delete files that can no longer apply: the
// deletion vectors of removed data files, delete files older than every live data file, and
// those of replaced partitions or of rows an overwrite filter removes (as Java does).
// Each handle stages into its transaction on commit(); handles from Table commit directly.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/expr/expression.h"
#include "floe/manifest/manifest.h"
#include "floe/table/transaction.h"

namespace floe {

class SnapshotProducer;

// What the handles share: the target branch, summary extras, staging.
class SnapshotUpdate {
 public:
  // Commits to branch `name` (created from main's head when missing) instead of main.
  void set_branch(const std::string& name);
  // Extra summary properties (e.g. engine-name).
  void set_summary(const std::string& key, const std::string& value);
  // Snapshot id the update will commit (kept across retries).
  int64_t snapshot_id() const;
  // Stages into the transaction (and commits it for one-shot handles). Once only.
  Status commit();

 protected:
  SnapshotUpdate(std::shared_ptr<SnapshotProducer> producer, Transaction txn, bool auto_commit);
  std::shared_ptr<SnapshotProducer> producer_;
  Transaction txn_;
  bool auto_commit_;
};

class AppendFiles : public SnapshotUpdate {
 public:
  AppendFiles(bool merge, Transaction txn, bool auto_commit);
  AppendFiles& append_file(DataFile file);
  AppendFiles& to_branch(const std::string& name) { return set_branch(name), *this; }
  AppendFiles& set(const std::string& key, const std::string& value) {
    return set_summary(key, value), *this;
  }
};

class OverwriteFiles : public SnapshotUpdate {
 public:
  OverwriteFiles(Transaction txn, bool auto_commit);
  // Deletes every file whose rows all match `filter` (unbound); a file where only some rows
  // may match is an error.
  OverwriteFiles& overwrite_by_row_filter(ExprPtr filter);
  OverwriteFiles& delete_file(DataFile file);
  OverwriteFiles& add_file(DataFile file);
  // Fail when data files added since `snapshot_id` (default: any) may match the conflict
  // filter: conflict_detection_filter, else the row filter when no file is deleted by path,
  // else everything. Java validateNoConflictingData.
  OverwriteFiles& validate_from_snapshot(int64_t snapshot_id);
  OverwriteFiles& conflict_detection_filter(ExprPtr filter);
  OverwriteFiles& validate_no_conflicting_data();
  // Fail when delete files added since `snapshot_id` (default: any) apply to a file this
  // overwrite removes by file, or may match the conflict filter (else the row filter) when it
  // overwrites by filter: the rows they delete would come back (Java
  // validateNoConflictingDeletes, for copy-on-write).
  OverwriteFiles& validate_no_conflicting_deletes();
  // Fails when an added file may hold rows outside the row filter.
  OverwriteFiles& validate_added_files_match_overwrite_filter();
  OverwriteFiles& case_sensitive(bool value);
  OverwriteFiles& to_branch(const std::string& name) { return set_branch(name), *this; }
};

// Row-level changes (Java RowDelta), as merge-on-read DELETE, UPDATE and MERGE and CDC commit
// them. Added delete files take the new snapshot's sequence number, so they apply to the data
// files already committed and not to the ones added with them. Format version 2 takes position
// delete files and equality delete files; version 3 takes position deletes only as deletion
// vectors (DVs: file_format PUFFIN, referenced_data_file, content_offset and
// content_size_in_bytes), one live DV per data file: a new DV for a data file that has one
// must come with remove_deletes of the old one. Removing a data file also removes its DVs.
// A concurrent commit adding a DV for a data file this delta adds one for is always a conflict
// (Java validateAddedDVs): since validate_from_snapshot, else since the branch head the delta
// was first applied to. The operation is "delete" when the delta adds delete files and no data
// file, else "overwrite".
class RowDelta : public SnapshotUpdate {
 public:
  RowDelta(Transaction txn, bool auto_commit);
  RowDelta& add_rows(DataFile file);
  RowDelta& add_deletes(DataFile file);
  // Removes a data file whole (a file that is gone already is skipped unless
  // validate_deleted_files).
  RowDelta& remove_rows(DataFile file);
  // Removes a delete file; a DV is named by its path and content_offset (many DVs share one
  // Puffin file).
  RowDelta& remove_deletes(DataFile file);

  // Validations against the snapshots committed since `snapshot_id` (default: every ancestor),
  // run on each attempt; a conflict fails the commit with kCommitConflict naming the files and
  // the snapshots.
  RowDelta& validate_from_snapshot(int64_t snapshot_id);
  // Fail when one of these data files (those the new deletes refer to) was removed since the
  // starting snapshot by an overwrite or replace (a delete too with validate_deleted_files).
  RowDelta& validate_data_files_exist(std::vector<std::string> paths);
  // The files remove_rows and remove_deletes name must still be live, and delete snapshots
  // count for validate_data_files_exist.
  RowDelta& validate_deleted_files();
  // Limits the conflict checks below (and validate_data_files_exist) to files that may hold
  // rows matching `filter` (unbound).
  RowDelta& conflict_detection_filter(ExprPtr filter);
  // Fail when data files added since the starting snapshot may match the conflict filter
  // (serializable isolation).
  RowDelta& validate_no_conflicting_data_files();
  // Fail when delete files added since the starting snapshot may apply to rows matching the
  // conflict filter, or apply to a data file this delta removes.
  RowDelta& validate_no_conflicting_delete_files();
  RowDelta& case_sensitive(bool value);
  RowDelta& to_branch(const std::string& name) { return set_branch(name), *this; }
  RowDelta& set(const std::string& key, const std::string& value) {
    return set_summary(key, value), *this;
  }
};

// Compaction's commit (Java RewriteFiles): data files replaced by new files holding the same
// live rows, and delete files that no longer apply to anything; the operation is "replace" and
// every replaced file must still be live. With data_sequence_number (compaction passes its
// starting snapshot's, as Java's use-starting-sequence-number does) the new files keep that
// number, so equality deletes committed while the rewrite ran still apply to their rows. A
// position delete or deletion vector added for a replaced file since validate_from_snapshot
// (default: the branch head the rewrite was first applied to) is a conflict, since its rows
// would come back; without the sequence number, so is any new delete for a replaced file.
// Delete files may be rewritten too (rewrite_position_delete_files): add_deletes adds a delete
// file holding deletes of the removed ones, with the data sequence number given (the highest of
// the files it replaces, so it applies to the same data files and not to data added since) or
// else the new snapshot's; a rewrite that adds delete files must remove some.
class RewriteFiles : public SnapshotUpdate {
 public:
  RewriteFiles(Transaction txn, bool auto_commit);
  RewriteFiles& remove_data(DataFile file);
  // A delete file (a DV named by its path and content_offset).
  RewriteFiles& remove_deletes(DataFile file);
  RewriteFiles& add_file(DataFile file);
  RewriteFiles& add_deletes(DataFile file,
                            std::optional<int64_t> data_sequence_number = std::nullopt);
  RewriteFiles& data_sequence_number(int64_t sequence_number);
  RewriteFiles& validate_from_snapshot(int64_t snapshot_id);
  RewriteFiles& to_branch(const std::string& name) { return set_branch(name), *this; }
  RewriteFiles& set(const std::string& key, const std::string& value) {
    return set_summary(key, value), *this;
  }
};

class DeleteFiles : public SnapshotUpdate {
 public:
  DeleteFiles(Transaction txn, bool auto_commit);
  DeleteFiles& delete_from_row_filter(ExprPtr filter);
  DeleteFiles& delete_file(const std::string& path);
  // Fail (kCommitConflict) when a path given to delete_file is not a live file.
  DeleteFiles& validate_files_exist();
  DeleteFiles& case_sensitive(bool value);
  DeleteFiles& to_branch(const std::string& name) { return set_branch(name), *this; }
};

class ReplacePartitions : public SnapshotUpdate {
 public:
  ReplacePartitions(Transaction txn, bool auto_commit);
  ReplacePartitions& add_file(DataFile file);
  // Fail instead of replacing a partition that already holds files.
  ReplacePartitions& validate_append_only();
  // Fail when files were added since `snapshot_id` (default: any) to a replaced partition.
  ReplacePartitions& validate_from_snapshot(int64_t snapshot_id);
  ReplacePartitions& validate_no_conflicting_data();
  ReplacePartitions& to_branch(const std::string& name) { return set_branch(name), *this; }
};

}  // namespace floe
