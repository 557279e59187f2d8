// Prints result rows (column batches) in the output formats every row-returning command shares:
// an aligned table with a row count, CSV with a header line, or JSON Lines (one object per row,
// nested values as JSON).
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_internal.h"
#include "cli/text_table_internal.h"
#include "floe/columnar/column_vector.h"

namespace floe::cli {

class RowPrinter {
 public:
  // `limit` < 0: no limit. `header` names the columns when no batch arrives.
  RowPrinter(OutputFormat format, std::ostream& out, std::vector<std::string> header,
             int64_t limit = -1);

  // Prints (or, for the table format, collects) the batch's rows. Returns kCancelled once the
  // limit is reached, so a producer can stop early.
  Status add(const ColumnBatch& batch);
  // Table format: prints the collected rows and "(N rows)".
  void finish();

  int64_t printed() const { return printed_; }

 private:
  void start(const ColumnBatch* batch);

  OutputFormat format_;
  std::ostream& out_;
  std::vector<std::string> header_;
  int64_t limit_;
  int64_t printed_ = 0;
  bool started_ = false;
  std::unique_ptr<TextTable> text_;
  std::string line_;
};

}  // namespace floe::cli
