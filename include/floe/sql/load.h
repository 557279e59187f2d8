// Loading a file into a table (`floe load`): CSV (with a header row by default), Parquet or JSON
// Lines rows are matched to the table's columns by name (by position for CSV without a
// header), cast to the table's types, written as data files and appended in one commit.
//
//   floe::sql::Session session({.warehouse = "warehouse"});
//   auto result = FLOE_TRY(floe::sql::load_file(session, "analytics.sales", "sales.csv"));
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "floe/sql/session.h"

namespace floe::sql {

struct LoadOptions {
  // csv | parquet | jsonl; empty: by extension (.csv, .parquet, .jsonl / .ndjson / .json).
  std::string format;
  bool header = true;  // CSV: the first record names the columns
  char delimiter = ',';
  // Rows read so far, after each batch (progress bar).
  std::function<void(int64_t rows)> progress;
};

struct LoadResult {
  int64_t rows = 0;
  size_t files = 0;
  std::optional<int64_t> snapshot_id;
};

// Appends every row of `path` to `table` (a SQL name: [catalog.]namespace.table). Values are
// stored with Spark's ANSI store assignment: one that does not convert to its column's type
// exactly ('1.9' or 3000000000 into an int), an unknown column or a missing required column is
// an error naming the file, line (row for Parquet) and column. CSV is read strictly (every
// record as wide as the header, UTF-8 text without NUL bytes, distinct header names; a UTF-8
// byte order mark is skipped), JSON Lines too (one object per line, no key twice, nesting at
// most 1,000 deep). A file without rows is an error. Nothing is committed on any error.
Result<LoadResult> load_file(Session& session, std::string_view table, const std::string& path,
                             const LoadOptions& options = {});

}  // namespace floe::sql
