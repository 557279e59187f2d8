// JsonLinesReader: streams a JSON Lines file (one JSON object per line, blank lines skipped)
// into string columns named by the caller. Keys match column names case-insensitively; a
// string value is taken as is, any other non-null value as its JSON text, a missing key is
// NULL. What `floe load` reads JSON Lines with; types are cast later by the caller.
// Strict: a line that is not one JSON object (invalid JSON, invalid UTF-8, an array, ...), an
// object with a key twice, values nested deeper than `max_depth`, or a line longer than
// `max_line_bytes` is an error naming the file and the line.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/util/result.h"

namespace floe::text {

struct JsonLinesOptions {
  // Arrays and objects nest at most this deep (the line's object is level 1). Deeper values
  // could not be turned back into text without exhausting the stack.
  int max_depth = 1000;
  int64_t max_line_bytes = int64_t{64} << 20;
};

class JsonLinesReader {
 public:
  // Opens the file; `columns` name the batch's columns in order.
  static Result<std::unique_ptr<JsonLinesReader>> open(const std::string& path,
                                                       const std::vector<std::string>& columns,
                                                       const JsonLinesOptions& options = {});

  // Appends up to `max_rows` objects to `batch` (one string column per name given to open()).
  // Returns false once the file has no more lines.
  Result<bool> read_batch(ColumnBatch* batch, int64_t max_rows);

  // The line (1-based) of each object appended by the last read_batch.
  const std::vector<int64_t>& lines() const { return lines_; }

 private:
  JsonLinesReader() = default;
  // The next line into line_ (without its line end); false at the end of the file.
  Result<bool> next_line();
  Status refill();
  // The key that appears twice in line_'s object (error path).
  std::string duplicate_key() const;

  std::string path_;
  JsonLinesOptions options_;
  std::ifstream in_;
  std::string buf_;
  size_t chunk_ = 64 << 10;  // the next read's size
  size_t pos_ = 0;
  std::map<std::string, size_t> index_;  // lower-case column name -> column
  std::vector<uint8_t> seen_;
  std::string line_, key_, text_;
  int64_t line_no_ = 0;
  std::vector<int64_t> lines_;
};

}  // namespace floe::text
