// Snapshot expiration: Java's ExpireSnapshots (RemoveSnapshots) with the reachability-based file
// cleanup of its Spark action, as Spark's `CALL system.expire_snapshots` runs it.
//
// Which snapshots stay (Iceberg spec, "Snapshot Retention Policy"): the head of every ref that
// stays; along each branch, the ancestors younger than the branch's max-snapshot-age-ms and the
// first min-snapshots-to-keep of them; the snapshots no ref reaches (left by a rollback) that are
// younger than the cutoff. A ref's own retention fields win over the defaults: the table
// properties history.expire.max-snapshot-age-ms (5 days), history.expire.min-snapshots-to-keep
// (1) and history.expire.max-ref-age-ms (never), of which expire_older_than and retain_last
// replace the first two for this call (so retain_last applies to every branch without its own
// min-snapshots-to-keep, which is usually main alone). A ref other than main whose head is older
// than its max-ref-age-ms is dropped; main never is. Snapshots named with expire_snapshot_id go
// whatever their age, but naming the head of a ref that stays is an error that names the ref.
//
// The commit removes the snapshots, the dropped refs, the statistics entries of removed
// snapshots and the snapshot-log entries up to the last one that names a removed snapshot, through
// the catalog's compare-and-swap (re-applied on the latest metadata when another commit wins,
// commit.retry.*). A failed commit leaves the table as it was. Tables with gc.enabled=false are
// refused, as Java does.
//
// After the commit, the files only removed snapshots reached are deleted: their manifest lists,
// the manifests no kept snapshot lists, the data and delete files (Puffin deletion-vector files
// too) live in those manifests and live in no manifest of a kept snapshot, and the statistics
// and partition statistics files of removed snapshots no kept snapshot names. The kept set is
// read from the metadata just committed and the table as loaded again after it. A failed
// delete is counted in failed_deletes, never fatal (the file is left for remove_orphan_files). If
// a kept snapshot's manifests cannot be read, nothing is deleted and commit() returns the error
// (the snapshots are expired all the same).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "floe/spec/table_metadata.h"
#include "floe/util/result.h"

namespace floe {

class Table;

enum class ExpiredFileKind : uint8_t {
  kDataFile,
  kPositionDeleteFile,  // position delete files and deletion-vector Puffin files
  kEqualityDeleteFile,
  kManifest,
  kManifestList,
  kStatisticsFile,  // statistics and partition statistics files
};

const char* expired_file_kind_name(ExpiredFileKind kind);  // "data file", "manifest", ...

struct ExpiredFile {
  std::string path;
  ExpiredFileKind kind = ExpiredFileKind::kDataFile;
  int64_t size_in_bytes = 0;  // 0 when metadata does not say (manifest lists)
};

struct ExpireSnapshotsResult {
  std::vector<int64_t> expired_snapshot_ids;  // sorted
  std::vector<std::string> removed_refs;      // sorted
  std::vector<int32_t> removed_spec_ids;      // with clean_expired_metadata
  std::vector<int32_t> removed_schema_ids;
  bool committed = false;  // false for a dry run or when nothing was to expire

  // Files deleted (a dry run: to delete), in deletion order: data and delete files, manifests,
  // manifest lists, statistics files. A failed delete is not listed here.
  std::vector<ExpiredFile> deleted_files;
  // Spark's result columns, counted over deleted_files.
  int64_t deleted_data_files_count = 0;
  int64_t deleted_position_delete_files_count = 0;
  int64_t deleted_equality_delete_files_count = 0;
  int64_t deleted_manifest_files_count = 0;
  int64_t deleted_manifest_lists_count = 0;
  int64_t deleted_statistics_files_count = 0;
  // Deletes that failed, and the first error.
  int64_t failed_deletes = 0;
  std::string first_delete_error;
};

// Configured by chained calls, run by commit(). Reached through Table::expire_snapshots().
class ExpireSnapshots {
 public:
  explicit ExpireSnapshots(std::shared_ptr<Table> table);

  // Expires snapshots older than `timestamp_ms` (replaces history.expire.max-snapshot-age-ms).
  ExpireSnapshots& expire_older_than(int64_t timestamp_ms);
  // Keeps at least `n` (>= 1) ancestors of each branch head without its own
  // min-snapshots-to-keep (replaces history.expire.min-snapshots-to-keep).
  ExpireSnapshots& retain_last(int32_t n);
  // Expires this snapshot whatever its age (may be called several times). Ids the table does not
  // have are ignored, as Java does.
  ExpireSnapshots& expire_snapshot_id(int64_t snapshot_id);
  // Deletes the files only expired snapshots reached (default true).
  ExpireSnapshots& clean_expired_files(bool clean);
  // Also removes partition specs and schemas no kept snapshot uses (never the default spec or
  // the current schema); default false.
  ExpireSnapshots& clean_expired_metadata(bool clean);
  // Deletes with `fn` instead of the table's FileIO.
  ExpireSnapshots& delete_with(std::function<Status(const std::string& path)> fn);
  // Files deleted at once (default 4), and threads reading manifests (0: one per core).
  ExpireSnapshots& max_concurrent_deletes(int n);
  ExpireSnapshots& plan_threads(int n);
  // Commits nothing and deletes nothing; the result says what would go.
  ExpireSnapshots& dry_run(bool dry_run);
  // Called as files are deleted: files and bytes done of the total.
  ExpireSnapshots& on_progress(std::function<void(int64_t files_done, int64_t files_total,
                                                  int64_t bytes_done, int64_t bytes_total)>
                                   fn);

  // The snapshots an expiration of the table's latest metadata would remove (Java's apply());
  // nothing is committed.
  Result<std::vector<SnapshotPtr>> apply();
  Result<ExpireSnapshotsResult> commit();

  struct Settings {
    std::optional<int64_t> older_than_ms;
    std::optional<int32_t> retain_last;
    std::set<int64_t> snapshot_ids;
    bool clean_expired_files = true;
    bool clean_expired_metadata = false;
    bool dry_run = false;
    int max_concurrent_deletes = 4;
    int plan_threads = 0;
    std::function<Status(const std::string&)> delete_fn;
    std::function<void(int64_t, int64_t, int64_t, int64_t)> progress;
  };

 private:
  std::shared_ptr<Table> table_;
  int64_t now_ms_;
  Settings settings_;
};

}  // namespace floe
