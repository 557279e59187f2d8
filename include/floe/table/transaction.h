// Transactions: pending updates applied one after another on table metadata, committed with
// one compare-and-swap of the catalog pointer. Each update is applied when it is staged (so
// errors surface at once) and re-applied on a refreshed base when a concurrent commit wins
// the race: appends always re-apply; updates that must validate (overwrites, snapshot
// management) fail with kCommitConflict when the new base invalidates them. Retries back off
// exponentially (commit.retry.* properties). Files written by the updates (manifests,
// manifest lists) are removed when the commit fails for good, and those of superseded
// attempts after it succeeds; nothing is removed when the outcome is unknown.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "floe/spec/table_metadata.h"
#include "floe/util/result.h"

namespace floe {

class Table;
class AppendFiles;
class OverwriteFiles;
class DeleteFiles;
class ReplacePartitions;
class RowDelta;
class RewriteFiles;
class UpdateProperties;
class UpdateSchema;
class UpdatePartitionSpec;
class ReplaceSortOrder;
class ManageSnapshots;

// One change to table metadata. `apply` must be repeatable: it is called once when staged
// and again on every retry, each time on the latest base (validations run there).
class PendingUpdate {
 public:
  virtual ~PendingUpdate() = default;
  virtual Result<TableMetadata> apply(const TableMetadata& base) = 0;
  // Every file the update wrote in any application (cleanup candidates).
  virtual std::vector<std::string> written_files() const { return {}; }
  // Called when the transaction drops the update after deleting those files: nothing written
  // may be reused.
  virtual void discard_written_files() {}
};

// A set of updates committed atomically. Copies share one transaction.
class Transaction {
 public:
  explicit Transaction(std::shared_ptr<Table> table);

  // Snapshot producers and metadata updates staged into this transaction by their commit().
  AppendFiles new_append();       // merge append (commit.manifest-merge.enabled)
  AppendFiles new_fast_append();  // never merges manifests
  OverwriteFiles new_overwrite();
  DeleteFiles new_delete();
  ReplacePartitions new_replace_partitions();
  RowDelta new_row_delta();
  RewriteFiles new_rewrite();
  UpdateProperties update_properties();
  UpdateSchema update_schema();
  UpdatePartitionSpec update_spec();
  ReplaceSortOrder replace_sort_order();
  ManageSnapshots manage_snapshots();

  // Applies `update` on the transaction's pending metadata and keeps it for commit.
  Status stage(std::shared_ptr<PendingUpdate> update);
  // Metadata with every staged update applied.
  const TableMetadata& pending() const;
  const std::shared_ptr<Table>& table() const;

  // Commits every staged update (nothing to do without updates). On success the table
  // object sees the new metadata.
  Status commit();

 private:
  struct State;
  std::shared_ptr<State> state_;
};

// Properties set and removed (Java UpdateProperties). `format-version` upgrades the table.
class UpdateProperties {
 public:
  UpdateProperties(Transaction txn, bool auto_commit);
  UpdateProperties& set(const std::string& key, const std::string& value);
  UpdateProperties& remove(const std::string& key);
  Status commit();

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
  Transaction txn_;
  bool auto_commit_;
};

// Branches, tags and the current snapshot (Java ManageSnapshots). Operations apply in order.
class ManageSnapshots {
 public:
  ManageSnapshots(Transaction txn, bool auto_commit);
  // Makes `snapshot_id` current (any known snapshot).
  ManageSnapshots& set_current_snapshot(int64_t snapshot_id);
  // Makes an ancestor of the current snapshot current; other ids are an error.
  ManageSnapshots& rollback_to(int64_t snapshot_id);
  // Rolls back to the newest ancestor older than `timestamp_ms`.
  ManageSnapshots& rollback_to_time(int64_t timestamp_ms);
  // A new branch at `snapshot_id` (default: the current snapshot).
  ManageSnapshots& create_branch(const std::string& name,
                                 std::optional<int64_t> snapshot_id = std::nullopt);
  ManageSnapshots& create_tag(const std::string& name, int64_t snapshot_id);
  ManageSnapshots& remove_branch(const std::string& name);
  ManageSnapshots& remove_tag(const std::string& name);
  // Points an existing branch at any snapshot.
  ManageSnapshots& replace_branch(const std::string& name, int64_t snapshot_id);
  // Moves branch `name` to the head of `source` when `name`'s head is an ancestor of it.
  ManageSnapshots& fast_forward(const std::string& name, const std::string& source);
  ManageSnapshots& rename_branch(const std::string& name, const std::string& new_name);
  // Retention settings of a ref (branches only for the first two).
  ManageSnapshots& set_min_snapshots_to_keep(const std::string& name, int32_t count);
  ManageSnapshots& set_max_snapshot_age_ms(const std::string& name, int64_t age_ms);
  ManageSnapshots& set_max_ref_age_ms(const std::string& name, int64_t age_ms);
  Status commit();

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
  Transaction txn_;
  bool auto_commit_;
};

// True when `ancestor_id` is `snapshot_id` or one of its parents in `metadata`.
bool is_ancestor_of(const TableMetadata& metadata, int64_t snapshot_id, int64_t ancestor_id);

}  // namespace floe
