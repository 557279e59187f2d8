// JsonLinesReader: streams a JSON Lines file (one JSON object per line, blank lines skipped)
// into string columns named by the caller. Keys match column names case-insensitively; a
// string value is taken as is, any other non-null value as its JSON text, a missing key is
// NULL. What `floe load` reads JSON Lines with; types are cast later by the caller.
// Strict: a line that is not one JSON object (invalid JSON, invalid UTF-8, an array, ...), an
// object with a key twice, values nested deeper than `max_depth`, or a line longer than
// `max_line_bytes` is an error naming the file and the line.
//
// Its parts serve readers of other JSON Lines shapes (`floe cdc`'s change envelopes):
// LineReader reads lines from a file or a file descriptor (stdin), optionally giving up after
// a wait so a slow stream can be acted on; parse_json_object parses one line with the same
// strictness; JsonRowWriter puts an object's values into string columns the same way.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
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

// Lines of a file or of a file descriptor (a pipe, stdin), without their line ends ("\n" or
// "\r\n"); a UTF-8 byte order mark at the start is skipped. Reads grow from 64 KiB to 1 MiB
// and return what a pipe has, so a line is available as soon as it is complete.
class LineReader {
 public:
  enum class Next { kLine, kEnd, kIdle };

  // `label` names the input in errors ("JSON Lines file x.jsonl"): "cannot open <label>",
  // "<label> line 7: the line is longer than N bytes", "reading <label> failed".
  static Result<std::unique_ptr<LineReader>> open(const std::string& path, std::string label,
                                                  int64_t max_line_bytes);
  // Reads `fd`, which stays open (stdin).
  static std::unique_ptr<LineReader> from_fd(int fd, std::string label, int64_t max_line_bytes);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line into *line. With `wait_ms` >= 0, when no complete line arrives within that
  // many milliseconds, kIdle (a partial line is kept for the next call); < 0 waits as long as
  // it takes. kEnd at the end of the input.
  Result<Next> next(std::string* line, int64_t wait_ms = -1);
  // The number (1-based) of the last line returned.
  int64_t line_number() const { return line_no_; }
  const std::string& label() const { return label_; }

 private:
  LineReader() = default;
  // Reads more input into buf_; false when the wait ran out first. Sets eof_ at the end.
  Result<bool> refill(int64_t wait_ms);

  int fd_ = -1;
  bool owned_ = false;
  std::string label_;
  int64_t max_line_bytes_ = 0;
  std::string buf_;
  size_t chunk_ = 64 << 10;  // the next read's size
  size_t pos_ = 0;
  bool started_ = false;  // the first read happened (byte order mark checked)
  bool eof_ = false;
  std::string partial_;   // the line being assembled
  bool pending_ = false;  // bytes of the next line (or its line end) were consumed
  int64_t line_no_ = 0;
};

// One JSON Lines line as an object, parsed strictly (see above). Errors start with `where`
// ("JSON Lines file x.jsonl line 3").
Result<nlohmann::json> parse_json_object(const std::string& line, std::string_view where,
                                         const JsonLinesOptions& options = {});

// Puts the values of JSON objects into string columns named by the caller: keys match names
// case-insensitively, a string is taken as is, another non-null value as its JSON text, a
// null or missing key is NULL, keys naming no column are ignored.
class JsonRowWriter {
 public:
  explicit JsonRowWriter(const std::vector<std::string>& columns);
  // Appends `object` as one row of `batch` (one string column per name, in order); columns
  // whose `only[c]` is 0 get NULL when `only` is given. Two keys naming one column (differing
  // in case) are an error starting with `where`.
  Status append(const nlohmann::json& object, ColumnBatch* batch, std::string_view where,
                const std::vector<uint8_t>* only = nullptr);
  // Whether the last object appended had a key for column `c` (null or not).
  bool present(size_t c) const { return seen_[c] != 0; }
  // Whether it had a non-null value for column `c`.
  bool has_value(size_t c) const { return seen_[c] == 2; }

 private:
  std::map<std::string, size_t> index_;  // lower-case column name -> column
  std::vector<uint8_t> seen_;            // 0 missing, 1 null, 2 value
  std::string key_, text_;
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
  JsonLinesReader(std::unique_ptr<LineReader> lines, const std::vector<std::string>& columns,
                  std::string path, const JsonLinesOptions& options);

  std::unique_ptr<LineReader> in_;
  JsonRowWriter row_;
  std::string path_;
  JsonLinesOptions options_;
  std::string line_;
  std::vector<int64_t> lines_;
};

}  // namespace floe::text
