// Row-level changes: DELETE, UPDATE and MERGE INTO (Spark's semantics on Iceberg tables).
//
// Each statement runs in two halves. The first (row_level.cc) scans the target table with its
// `_file` and `_pos` metadata columns, the WHERE clause pushed into planning, and decides which
// rows go (deleted, or replaced by a new version) and which rows are new (updated versions,
// MERGE inserts); new rows stream into a table writer as they are found. The second
// (row_level_write.cc) applies the change in the table's mode for the statement
// (`write.delete.mode`, `write.update.mode`, `write.merge.mode`):
//   copy-on-write  rewrites the data files holding removed rows without them, and commits one
//                  overwrite that replaces them (files whose every row goes are dropped without
//                  being read or rewritten);
//   merge-on-read  writes position delete files (v2) or deletion vectors (v3) for the removed
//                  rows and commits a row delta; no data file is rewritten.
// Both validate against commits made since the scanned snapshot as Java's Spark writes do, so a
// concurrent change to the same files fails the statement with nothing committed.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/table/table.h"
#include "floe/write/data_writer.h"
#include "sql/statements/statements_internal.h"

namespace floe::sql {

// DELETE FROM, UPDATE, MERGE INTO.
Status run_row_level_statement(WriteContext& ctx, const ast::Statement& statement);

enum class RowLevelMode { kCopyOnWrite, kMergeOnRead };

// The table a statement changes and how.
struct RowLevelTarget {
  std::shared_ptr<Table> table;
  std::optional<std::string> branch;
  std::string name;  // for messages: db.t [branch b]
  RowLevelMode mode = RowLevelMode::kCopyOnWrite;
  bool serializable = true;  // write.<op>.isolation-level
};

// A data file of the scan and the rows the statement removes from it.
struct ChangedFile {
  std::shared_ptr<const DataFile> file;
  std::vector<const FileScanTask*> tasks;  // every split of the file, with its delete files
  std::vector<int64_t> positions;          // removed rows (deleted or given a new version)
  bool whole = false;                      // every row goes, decided without reading
  int64_t deleted_before = 0;              // whole: rows its own delete files deleted
};

// What the first half found.
struct RowLevelChanges {
  IcebergScanNode* scan = nullptr;           // planned; owned by the statement's plan
  std::map<std::string, ChangedFile> files;  // every data file of the scan, by path
  std::unique_ptr<TableWriter> writer;       // new row versions and inserted rows
  ExprPtr conflict_filter;                   // rows the statement may touch; null = any
  int64_t deleted = 0, updated = 0, inserted = 0;
};

// The second half: writes and commits the change (nothing when no row changes). On failure
// every file written is removed and the table is as it was.
struct RowLevelResult {
  int64_t rewritten_files = 0;  // copy-on-write: data files rewritten
  int64_t removed_files = 0;    // data files dropped whole
  int64_t delete_files = 0;     // merge-on-read: position delete files or DVs written
  int64_t data_files = 0;       // data files written
  bool committed = false;
};
Result<RowLevelResult> apply_row_level_change(WriteContext& ctx, const RowLevelTarget& target,
                                              RowLevelChanges& changes,
                                              const std::string& operation);

}  // namespace floe::sql
