// Applying a change stream to a table (`floe cdc`): JSON Lines of change records, one per
// line, in either envelope
//   Debezium   {"op": "c|u|d|r", "before": {...}, "after": {...}}, also wrapped as
//              {"schema": {...}, "payload": {"op": ...}} (Debezium's JSON converter with schemas)
//   plain      {"op": "upsert|delete", "row": {...}}
// c (create), r (snapshot read) and u (update) upsert the "after" row (an update whose
// "before" row has another key also deletes that key); d deletes the key of the "before" row; a
// plain record upserts or deletes its "row". Row values are stored in the table's columns as `floe
// load` stores JSON Lines (sql/load.h: Spark's ANSI store assignment, keys matching column names
// case-insensitively, unknown keys ignored); a delete uses only the key columns of its row. Every
// record must have a value for every key column.
//
// Records are grouped in batches, each committed as one snapshot by UpsertWriter
// (floe/table/upsert.h: equality deletes for every key the batch touches, data files for the
// new rows, the last change of a key winning). A batch closes after `batch_rows` records, or
// once `batch_ms` passed since its first record: checked as records arrive and, while waiting
// for input from a pipe or stdin, when the input stays idle, so a slow stream still commits.
// A bad record (not a JSON object, an unknown op, a missing row, a value that does not fit its
// column, a missing key) is an error naming its line; nothing of its batch is committed, the
// batches before it stay committed, and the error says how many.
//
//   floe::sql::Session session({.warehouse = "warehouse"});
//   auto done = FLOE_TRY(floe::sql::apply_changes(session, "shop.customers", "changes.jsonl"));
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/format/text/json_lines_reader.h"
#include "floe/sql/session.h"
#include "floe/table/upsert.h"

namespace floe::sql {

struct ChangeStreamOptions {
  int64_t batch_rows = 10000;  // at least 1
  int64_t batch_ms = 1000;     // 0: no time limit
  text::JsonLinesOptions json;
};

// One batch of change records, their values still text.
struct ChangeBatch {
  ColumnBatch rows;  // one string column per column name given to the reader
  std::vector<ChangeKind> kinds;
  std::vector<int64_t> lines;  // the line of each row's record
  // Records read; rows can be one more per update that changes its key (the old key's delete,
  // on the same line, before the upsert).
  int64_t records = 0;
  int64_t size() const { return rows.num_rows; }
};

// Reads change records in batches (both envelopes, see above) from a file or a descriptor.
class ChangeStreamReader {
 public:
  // `columns`: the table's top-level column names; `keys`: indexes of the key columns among
  // them (a delete keeps only these; every record needs a value for each).
  static Result<std::unique_ptr<ChangeStreamReader>> open(const std::string& path,
                                                          std::vector<std::string> columns,
                                                          std::vector<size_t> keys,
                                                          ChangeStreamOptions options = {});
  // Reads `fd` (stdin, a pipe), which stays open; `name` names it in errors.
  static Result<std::unique_ptr<ChangeStreamReader>> from_fd(int fd, std::string name,
                                                             std::vector<std::string> columns,
                                                             std::vector<size_t> keys,
                                                             ChangeStreamOptions options = {});
  ~ChangeStreamReader();

  // The next batch into *out (replacing what it held): up to batch_rows records, fewer when
  // batch_ms ran out or the input ended. False when the input has no more records.
  Result<bool> next(ChangeBatch* out);
  const std::string& name() const { return name_; }

 private:
  ChangeStreamReader() = default;
  static Result<std::unique_ptr<ChangeStreamReader>> make(std::unique_ptr<text::LineReader> lines,
                                                          std::vector<std::string> columns,
                                                          std::vector<size_t> keys,
                                                          ChangeStreamOptions options);
  Status read_record(const std::string& line, int64_t line_no, ChangeBatch* out);
  Status delete_old_key(const nlohmann::json& change, const nlohmann::json& after,
                        const std::string& where, int64_t line_no, ChangeBatch* out);

  std::string name_;
  std::unique_ptr<text::LineReader> lines_;
  std::unique_ptr<text::JsonRowWriter> row_;
  std::vector<NestedField> fields_;  // string columns
  std::vector<std::string> columns_;
  std::vector<size_t> keys_;
  std::vector<uint8_t> key_mask_;
  ChangeStreamOptions options_;
  std::string line_;
  bool ended_ = false;
};

// What apply_changes committed.
struct CdcResult {
  int64_t records = 0;  // change records committed
  int64_t upserts = 0;  // of them upserts (c, r, u, upsert)
  int64_t deletes = 0;  // and deletes (d, delete)
  int64_t batches = 0;
  int64_t snapshots = 0;
  int64_t rows_written = 0;  // data rows (the last upsert of each key in its batch)
  int64_t data_files = 0;
  int64_t delete_files = 0;
  std::optional<int64_t> last_snapshot_id;
};

struct CdcOptions {
  // Key column names (dotted for nested fields, any case); empty: the table's identifier
  // fields.
  std::vector<std::string> keys;
  int64_t batch_rows = 10000;
  int64_t batch_ms = 1000;
  // After each batch is committed (progress display).
  std::function<void(const CdcResult& done)> progress;
};

// Applies the change records of `path` ("-" reads stdin) to `table` (a SQL name:
// [catalog.]namespace.table).
Result<CdcResult> apply_changes(Session& session, std::string_view table, const std::string& path,
                                const CdcOptions& options = {});
// The same from an open descriptor; `name` names it in errors.
Result<CdcResult> apply_changes(Session& session, std::string_view table, int fd,
                                const std::string& name, const CdcOptions& options = {});

}  // namespace floe::sql
