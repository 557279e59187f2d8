// Position delete compaction: Java's RewritePositionDeleteFiles action, as Spark's
// `CALL system.rewrite_position_delete_files` runs it (Iceberg spec, Position Delete Files;
// docs/architecture.md).
//
// The position delete files of the current snapshot (format version 2 Parquet and Avro files;
// deletion vectors are left alone, and so are the position delete files a v3 table may still
// hold, since it takes new position deletes only as deletion vectors) whose partition may hold
// rows matching `filter` are candidates when one is wrongly sized (under min-file-size-bytes or
// over max-file-size-bytes; every file with rewrite-all). Candidates are grouped by partition
// spec and partition, bin-packed into groups of up to max-file-group-size-bytes, and a group is
// rewritten when it has min-input-files files (and more than one), more than one file and more
// than target-file-size-bytes of deletes, or more than max-file-size-bytes (every group with
// rewrite-all), as Java's SizeBasedPositionDeletesRewriter decides.
//
// A rewritten group's deletes are written into new position delete files of about
// target-file-size-bytes (default write.delete.target-file-size-bytes), sorted by path and
// position, under the group's partition. Positions of data files that are no longer live in the
// current snapshot (removed by a copy-on-write overwrite or a compaction) are dropped: they are
// "dangling" and apply to nothing. A group whose every position dangles leaves no file.
//
// One RewriteFiles commit replaces them (with partial-progress.enabled, up to
// partial-progress.max-commits commits of whole groups). Each new file keeps the highest data
// sequence number of the files of its group, as Java does, so it applies to exactly the data
// files the old ones did: a position delete applies to a data file of a data sequence number at
// most its own, and each position names its file, so a higher number than the old file's changes
// nothing for that file, while a number no higher than every old one's keeps the new deletes off
// any data file added after them. The commit checks that every rewritten delete file is still
// live: a concurrent DELETE that adds delete files survives (both sets apply), a concurrent
// commit that removed a rewritten delete file (a compaction dropping it as dangling) is a
// conflict that leaves the table as that commit left it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "floe/expr/expression.h"
#include "floe/table/table.h"

namespace floe {

struct RewritePositionDeletesOptions {
  ExprPtr filter;                      // unbound, on table columns; null = the whole table
  int64_t target_file_size_bytes = 0;  // 0: write.delete.target-file-size-bytes (64 MB)
  int64_t min_file_size_bytes = -1;    // -1: 75 % of the target
  int64_t max_file_size_bytes = -1;    // -1: 180 % of the target
  int64_t min_input_files = 5;
  bool rewrite_all = false;
  int64_t max_file_group_size_bytes = 100LL << 30;
  bool partial_progress = false;
  int64_t partial_progress_max_commits = 10;
  int64_t max_concurrent_file_group_rewrites = 5;  // accepted; files are read `threads` wide
  int threads = 0;                                 // delete file readers; 0 = one per core
  // Called after each delete file is read: files and bytes done of the total to rewrite.
  std::function<void(int64_t files_done, int64_t files_total, int64_t bytes_done,
                     int64_t bytes_total)>
      progress;

  // Spark's options map (string values), e.g. {"rewrite-all", "true"}; an unknown option or a
  // value of the wrong kind or range is an error naming it.
  static Result<RewritePositionDeletesOptions> from_map(
      const std::map<std::string, std::string>& map);
};

struct RewritePositionDeletesResult {
  int64_t rewritten_delete_files = 0;
  int64_t added_delete_files = 0;
  int64_t rewritten_bytes = 0;
  int64_t added_bytes = 0;
  int64_t dangling_positions = 0;   // positions dropped because their data file is gone
  int64_t failed_delete_files = 0;  // in groups that failed, with partial progress
  int64_t groups = 0;
  int64_t commits = 0;
};

Result<RewritePositionDeletesResult> rewrite_position_deletes(
    Table& table, const RewritePositionDeletesOptions& options);

}  // namespace floe
