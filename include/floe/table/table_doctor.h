// The planning doctor (`floe doctor`): the checklist for slow planning and slow reads of one
// table, from its metadata only (metadata JSON, manifest list, manifests; never a data file),
// each finding with its numbers and the maintenance that fixes it:
//   deleted-entries   manifests whose DELETED entries are a large share of their entries
//                     (planning reads entries no snapshot uses);
//   partition-range   manifests whose time partition spans many days, so manifest-level pruning
//                     on that field cannot skip them (only when the table has several manifests);
//   manifest-size     manifest bytes per entry against the column count and metrics settings
//                     (wide tables with metrics on every column);
//   manifest-count    many small manifests: the manifest-to-file ratio and whether commits merge
//                     manifests (commit.manifest-merge.enabled);
//   deletes           delete files per partition and the average number of delete files that
//                     apply to a data file (merge-on-read without compaction), dangling deletes;
//   specs             partition specs in use and their share of the data;
//   small-files       partitions holding enough small files for a bin-pack compaction;
//   snapshots         snapshots past the history.expire.* retention;
//   orphans           files under the table location no metadata references, older than the
//                     orphan cutoff (this check lists storage; DoctorOptions::check_orphans).
// A finding `crossed` its threshold when the table needs that maintenance; the table passes when
// none did.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "floe/table/table.h"

namespace floe {

struct DoctorOptions {
  double deleted_ratio = 0.3;         // DELETED entries / entries of one manifest
  int64_t partition_range_days = 30;  // days one manifest's time partition may span
  int64_t max_entry_bytes = 1024;     // average manifest bytes per entry
  int64_t min_manifests = 10;         // manifest-count: judged from this many data manifests
  double min_files_per_manifest = 10;
  double max_deletes_per_file = 1.0;            // average delete files applying to a data file
  int64_t max_delete_files_per_partition = 10;  // live delete files of one partition
  int64_t min_small_files = 5;  // small files of one partition (Java's min-input-files)
  // A file is small below this share of write.target-file-size-bytes (Java's min-file-size).
  double small_file_ratio = 0.75;
  int64_t max_expirable_snapshots = 0;
  bool check_orphans = true;
  int64_t orphan_age_ms = 3LL * 24 * 3600 * 1000;  // remove_orphan_files' default cutoff
  int threads = 0;                                 // manifest reading; 0: one per core
};

struct DoctorFinding {
  std::string check;                 // deleted-entries, partition-range, ... (see above)
  bool crossed = false;              // the threshold is crossed: the table needs the fix
  std::string summary;               // what was found, with numbers
  std::string fix;                   // what to run (empty when nothing is needed)
  std::vector<std::string> details;  // e.g. the worst manifests
  std::vector<std::pair<std::string, double>> numbers;  // for JSON output
};

struct DoctorReport {
  std::string table;
  int64_t snapshot_id = -1;  // -1: no snapshot
  std::vector<DoctorFinding> findings;
  int64_t manifests_read = 0;
  int64_t io_requests = 0;  // by planning (the manifests); orphan listing not included
  double took_ms = 0;
  bool passed() const;
};

Result<DoctorReport> diagnose_table(Table& table, const DoctorOptions& options = {});

}  // namespace floe
