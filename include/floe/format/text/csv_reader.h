// CsvReader: streams an RFC 4180 CSV file (quoted fields with "" escapes, CRLF or LF line
// ends, a record may span read blocks) into string columns, one batch at a time. What the SQL
// sources (csv.`file`) and `floe load` read CSV with; types are cast later by the caller.
// A UTF-8 byte order mark at the start of the file is not part of the first field.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/util/result.h"

namespace floe::text {

struct CsvOptions {
  bool header = false;  // the first record names the columns
  char delimiter = ',';
  bool empty_as_null = false;  // an empty unquoted field is NULL
  // `floe load`: every record has exactly as many fields as the header (or, without one, the
  // first record); fields are valid UTF-8 without NUL bytes; header names are distinct
  // (case-insensitively). Each violation is an error naming the file, line and column.
  bool strict = false;
  // A longer record (a file without line ends, such as /dev/zero) is an error, not an endless
  // buffer.
  int64_t max_record_bytes = int64_t{64} << 20;
};

class CsvReader {
 public:
  // The file's columns: the header record's fields, or `_c0`, `_c1`, ... as wide as the first
  // record without a header. Empty for an empty file.
  static Result<std::vector<std::string>> column_names(const std::string& path,
                                                       const CsvOptions& options);

  // Opens the file for reading records (past the header record, if there is one).
  static Result<std::unique_ptr<CsvReader>> open(const std::string& path,
                                                 const CsvOptions& options);
  ~CsvReader();

  // Appends up to `max_rows` records to `batch` (string columns; unless strict, fields past the
  // batch's width are ignored and missing ones are NULL). Returns false once the file has no
  // more records.
  Result<bool> read_batch(ColumnBatch* batch, int64_t max_rows);

  // The line (1-based) each record appended by the last read_batch starts on.
  const std::vector<int64_t>& lines() const { return lines_; }

 private:
  class Records;
  CsvReader(std::unique_ptr<Records> records, CsvOptions options, std::vector<std::string> names);
  std::unique_ptr<Records> records_;
  CsvOptions options_;
  std::vector<std::string> names_;  // the header's names (strict errors name the column)
  std::vector<int64_t> lines_;
};

}  // namespace floe::text
