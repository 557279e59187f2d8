// Compaction: Java's RewriteDataFiles action with the bin-pack and sort strategies, as Spark's
// `CALL system.rewrite_data_files` runs it.
//
// The files of the current snapshot that may hold rows matching `filter` are candidates when
// one is wrongly sized (under min-file-size-bytes or over max-file-size-bytes), has at least
// delete-file-threshold delete files, or has delete-ratio-threshold of its rows deleted by
// file-scoped deletes (every file with rewrite-all). Candidates are grouped by partition (a
// file of an older spec by the fields it shares with the current one), bin-packed into groups
// of up to max-file-group-size-bytes, and a group is rewritten when it has min-input-files
// files (and more than one), more than one file and more than target-file-size-bytes of data,
// more than max-file-size-bytes of data, or a file with too many deletes (every group with
// rewrite-all). Each rewritten file's live rows (every delete applied) are written into new
// files of about target-file-size-bytes under the current schema and partition spec. The sort
// strategy picks and groups files the same way, then writes each group's rows in a sort order
// (the one given, else the table's; an unsorted table without one is an error): the new files
// carry that order's id when the table has it, else 0 (unsorted).
//
// One RewriteFiles commit replaces them (with partial-progress.enabled, up to
// partial-progress.max-commits commits of whole groups, and a group that fails is counted in
// failed_data_files and skipped): the new files keep the starting snapshot's sequence number
// (use-starting-sequence-number), so equality deletes committed meanwhile still apply; a
// concurrent append survives; a concurrent delete, rewrite or new position delete of a
// rewritten file is a conflict that leaves the table as it was. Delete files that applied only
// to rewritten files are removed with them (remove-dangling-deletes, on by default here: Java's
// default is off, leaving them to a later action). Nothing is rewritten on a table without
// snapshots or candidates.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "floe/expr/expression.h"
#include "floe/spec/sort_order.h"
#include "floe/table/table.h"

namespace floe {

enum class RewriteStrategy { kBinPack, kSort };

struct RewriteDataFilesOptions {
  ExprPtr filter;  // unbound; null = the whole table
  RewriteStrategy strategy = RewriteStrategy::kBinPack;
  // kSort: the order (fields by source id of the current schema); none = the table's default.
  std::optional<SortOrder> sort_order;
  int64_t target_file_size_bytes = 0;  // 0: write.target-file-size-bytes (512 MB)
  int64_t min_file_size_bytes = -1;    // -1: 75 % of the target
  int64_t max_file_size_bytes = -1;    // -1: 180 % of the target
  int64_t min_input_files = 5;
  int64_t delete_file_threshold = INT32_MAX;
  double delete_ratio_threshold = 0.3;
  bool rewrite_all = false;
  int64_t max_file_group_size_bytes = 100LL << 30;
  bool partial_progress = false;
  int64_t partial_progress_max_commits = 10;
  int64_t max_concurrent_file_group_rewrites = 5;  // accepted; groups are read `threads` wide
  bool use_starting_sequence_number = true;
  bool remove_dangling_deletes = true;
  // Spark's shuffle options of the sort strategy: accepted and checked; the sort is in memory,
  // one file group at a time.
  int64_t shuffle_partitions_per_file = 1;
  double compression_factor = 1.0;
  int threads = 0;  // readers and Parquet encoders; 0 = one per core
  // Called after each file is read: files and bytes done of the total to rewrite.
  std::function<void(int64_t files_done, int64_t files_total, int64_t bytes_done,
                     int64_t bytes_total)>
      progress;

  // Spark's options map (string values), e.g. {"min-input-files", "2"}; an unknown option or
  // a value of the wrong kind or range is an error naming it.
  static Result<RewriteDataFilesOptions> from_map(const std::map<std::string, std::string>& map);
};

struct RewriteDataFilesResult {
  int64_t rewritten_data_files = 0;
  int64_t added_data_files = 0;
  int64_t rewritten_bytes = 0;
  int64_t failed_data_files = 0;
  int64_t removed_delete_files = 0;
  int64_t groups = 0;   // file groups rewritten
  int64_t commits = 0;  // snapshots committed
};

Result<RewriteDataFilesResult> rewrite_data_files(Table& table,
                                                  const RewriteDataFilesOptions& options);

}  // namespace floe
