// JsonLinesReader: streams a JSON Lines file (one JSON object per line, blank lines skipped)
// into string columns named by the caller. Keys match column names case-insensitively; a
// string value is taken as is, any other non-null value as its JSON text, a missing key is
// NULL. What `floe load` reads JSON Lines with; types are cast later by the caller.
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

class JsonLinesReader {
 public:
  // Opens the file; `columns` name the batch's columns in order.
  static Result<std::unique_ptr<JsonLinesReader>> open(const std::string& path,
                                                       const std::vector<std::string>& columns);

  // Appends up to `max_rows` objects to `batch` (one string column per name given to open()).
  // Returns false once the file has no more lines.
  Result<bool> read_batch(ColumnBatch* batch, int64_t max_rows);

 private:
  JsonLinesReader() = default;
  std::string path_;
  std::ifstream in_;
  std::map<std::string, size_t> index_;  // lower-case column name -> column
  std::vector<uint8_t> seen_;
  std::string line_, key_, text_;
  int64_t line_no_ = 0;
};

}  // namespace floe::text
