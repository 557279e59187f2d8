// Storing rows read from a file (CSV, JSON Lines, Parquet) in a table's columns, shared by
// `floe load` (load.cc) and `floe cdc` (cdc.cc): values are stored with Spark's ANSI store
// assignment (sql/binder/store_assignment_internal.h), text parsed strictly as any primitive
// type; a value that does not fit, an unknown column or a missing required column is an error
// naming the file, where in it (line or row) and the column.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/spec/schema.h"
#include "floe/sql/session.h"
#include "floe/table/table.h"

namespace floe::sql {

// Where row `r` of the batch being converted is in the file, for errors ("line 17", "row 17").
using Locate = std::function<std::string(int64_t r)>;

// The table a `floe load` or `floe cdc` writes to, by its SQL name; kNotFound names the catalog.
Result<std::shared_ptr<Table>> load_named_table(Session& session, std::string_view table_name);

class Loader {
 public:
  // `path` names the file in errors; `schema` is the table's (its top-level fields are the
  // output columns; a required one must have a value in every row).
  Loader(const std::string& path, const Schema& schema) : path_(path), schema_(schema) {}

  // Matches the file's columns to the table's: by name (case-insensitively) or by position.
  Status plan(const std::vector<NestedField>& source, bool by_position);

  // A batch of the file as a batch of the table schema. Every value is stored with ANSI store
  // assignment: one the column cannot hold exactly is an error naming where it is. With
  // `complete`, only rows r with complete[r] != 0 need every required column (a change that
  // deletes by key leaves the others null).
  Result<ColumnBatch> convert(const ColumnBatch& in, const Locate& locate,
                              const uint8_t* complete = nullptr);

  int64_t rows() const { return rows_; }

 private:
  // Per table column: the source column feeding it (or -1) and whether its type differs.
  struct ColumnPlan {
    int source = -1;
    bool convert = false;
  };
  std::string names() const;

  std::string path_;
  const Schema& schema_;
  std::vector<ColumnPlan> columns_;
  int64_t rows_ = 0;
};

}  // namespace floe::sql
