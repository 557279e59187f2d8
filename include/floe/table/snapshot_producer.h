// Snapshot producers: the updates that commit a new snapshot. One core (SnapshotProducer,
// src/table) serves them all: it filters the parent's manifests for deleted files, writes the
// added files to new manifests (kept across retries), optionally merges small manifests (Java's
// ManifestMergeManager), writes a fresh manifest list for each attempt and builds the
// snapshot with its summary (Java's SnapshotSummary keys and totals).
//   AppendFiles        fast append or merge append
//   OverwriteFiles     delete by row filter and/or by file, add files
//   DeleteFiles        metadata-only delete by row filter or path
//   ReplacePartitions  dynamic partition overwrite
// Each handle stages into its transaction on commit(); handles from Table commit directly.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

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
  // Fails when an added file may hold rows outside the row filter.
  OverwriteFiles& validate_added_files_match_overwrite_filter();
  OverwriteFiles& case_sensitive(bool value);
  OverwriteFiles& to_branch(const std::string& name) { return set_branch(name), *this; }
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
