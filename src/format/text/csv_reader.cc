#include "floe/format/text/csv_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>

#include "floe/util/strings.h"

namespace floe::text {

namespace {

// The offset of the first byte of `s` that is a NUL or not part of well-formed UTF-8 (no
// overlong forms, surrogates or code points past U+10FFFF), or npos.
size_t bad_text_at(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    // Eight ASCII bytes without a NUL at a time.
    while (i + 8 <= n) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      const bool non_ascii = (w & 0x8080808080808080ull) != 0;
      const bool has_nul = ((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull) != 0;
      if (non_ascii || has_nul) break;
      i += 8;
    }
    if (i >= n) break;
    const unsigned char c = p[i];
    if (c < 0x80) {
      if (c == 0) return i;
      ++i;
      continue;
    }
    size_t len = 0;
    uint32_t cp = 0, min = 0;
    if ((c & 0xE0) == 0xC0) {
      len = 2, cp = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3, cp = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4, cp = c & 0x07, min = 0x10000;
    } else {
      return i;
    }
    if (i + len > n) return i;
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += len;
  }
  return std::string_view::npos;
}

}  // namespace

// Streams RFC 4180 records from a file in blocks; a record may straddle blocks. A record's
// fields go to one reused buffer, so reading allocates nothing once it has warmed up.
class CsvReader::Records {
 public:
  Records(std::string path, const CsvOptions& options)
      : path_(std::move(path)), delim_(options.delimiter), max_bytes_(options.max_record_bytes) {}

  Status open() {
    in_.open(path_, std::ios::binary);
    if (!in_) return not_found("cannot open CSV file {}", path_);
    FLOE_TRY(refill());
    // A UTF-8 byte order mark is not data.
    if (buf_.size() >= 3 && std::memcmp(buf_.data(), "\xEF\xBB\xBF", 3) == 0) pos_ = 3;
    return Status::OK();
  }

  const std::string& path() const { return path_; }

  // Reads the next record; false at the end of the file. Blank lines are skipped.
  Result<bool> next() {
    record_.clear();
    ends_.clear();
    quoted_.clear();
    bool in_quotes = false, quoted = false, any = false;
    line_ = next_line_;
    while (true) {
      if (pos_ == buf_.size()) {
        FLOE_TRY(refill());
        if (buf_.empty()) break;
      }
      char c = buf_[pos_++];
      if (in_quotes) {
        if (c == '"') {
          if (pos_ == buf_.size()) FLOE_TRY(refill());
          if (pos_ < buf_.size() && buf_[pos_] == '"') {
            FLOE_TRY(push('"'));
            ++pos_;
          } else {
            in_quotes = false;
          }
        } else {
          if (c == '\n') ++next_line_;
          FLOE_TRY(push(c));
        }
        continue;
      }
      if (c == '"') {
        in_quotes = quoted = any = true;
      } else if (c == delim_) {
        end_field(quoted);
        quoted = false;
        any = true;
      } else if (c == '\n' || c == '\r') {
        if (c == '\r') {
          if (pos_ == buf_.size()) FLOE_TRY(refill());
          if (pos_ < buf_.size() && buf_[pos_] == '\n') ++pos_;
        }
        ++next_line_;
        if (any || field_open()) {
          end_field(quoted);
          return true;
        }
        line_ = next_line_;  // a blank line: the record starts further down
      } else {
        FLOE_TRY(push(c));
        any = true;
      }
    }
    if (in_quotes) {
      return invalid_data("CSV file {} line {}: a quoted field is not closed", path_, line_);
    }
    if (any || field_open()) {
      end_field(quoted);
      return true;
    }
    return false;
  }

  size_t size() const { return ends_.size(); }
  std::string_view field(size_t i) const {
    size_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(record_).substr(begin, ends_[i] - begin);
  }
  bool quoted(size_t i) const { return quoted_[i] != 0; }
  // The line the record read last starts on.
  int64_t line() const { return line_; }

 private:
  Status refill() {
    // Reads grow from 64 KiB to 1 MiB: a small file costs no megabyte buffer.
    buf_.resize(chunk_);
    chunk_ = std::min<size_t>(chunk_ * 2, 1 << 20);
    in_.read(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    if (in_.bad()) return io_error("reading CSV file {} failed", path_);
    buf_.resize(static_cast<size_t>(in_.gcount()));
    pos_ = 0;
    return Status::OK();
  }

  Status push(char c) {
    if (static_cast<int64_t>(record_.size()) >= max_bytes_) {
      return invalid_data(
          "CSV file {} line {}: the record is longer than {} bytes (is this a CSV file?)", path_,
          line_, max_bytes_);
    }
    record_.push_back(c);
    return Status::OK();
  }
  bool field_open() const { return record_.size() > (ends_.empty() ? 0 : ends_.back()); }
  void end_field(bool quoted) {
    ends_.push_back(record_.size());
    quoted_.push_back(quoted);
  }

  std::string path_;
  char delim_;
  int64_t max_bytes_;
  std::ifstream in_;
  std::string buf_;
  size_t chunk_ = 64 << 10;  // the next read's size
  size_t pos_ = 0;
  std::string record_;        // the record's field bytes, back to back
  std::vector<size_t> ends_;  // where each field ends in record_
  std::vector<uint8_t> quoted_;
  int64_t line_ = 1, next_line_ = 1;
};

namespace {

// Strict mode: a field must be text. `column` names it for the error.
Status check_text(const std::string& path, int64_t line, size_t index, std::string_view column,
                  std::string_view field) {
  size_t bad = bad_text_at(field);
  if (bad == std::string_view::npos) return Status::OK();
  std::string where = column.empty() ? fmt::format("column {}", index + 1)
                                     : fmt::format("column {} (`{}`)", index + 1, column);
  if (field[bad] == '\0') {
    return invalid_data("CSV file {} line {}, {}: the field holds a NUL byte (at byte {})", path,
                        line, where, bad + 1);
  }
  return invalid_data("CSV file {} line {}, {}: the field is not valid UTF-8 (byte 0x{:02X} at {})",
                      path, line, where, static_cast<unsigned char>(field[bad]), bad + 1);
}

}  // namespace

CsvReader::CsvReader(std::unique_ptr<Records> records, CsvOptions options,
                     std::vector<std::string> names)
    : records_(std::move(records)), options_(options), names_(std::move(names)) {}

CsvReader::~CsvReader() = default;

Result<std::vector<std::string>> CsvReader::column_names(const std::string& path,
                                                         const CsvOptions& options) {
  Records records(path, options);
  FLOE_TRY(records.open());
  std::vector<std::string> names;
  if (!FLOE_TRY(records.next())) return names;
  for (size_t i = 0; i < records.size(); ++i) {
    if (!options.header) {
      names.push_back(fmt::format("_c{}", i));
      continue;
    }
    if (options.strict) FLOE_TRY(check_text(path, records.line(), i, "", records.field(i)));
    names.emplace_back(records.field(i));
  }
  if (options.strict && options.header) {
    std::vector<std::pair<std::string, size_t>> sorted;
    for (size_t i = 0; i < names.size(); ++i) sorted.emplace_back(to_lower(names[i]), i);
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 1; i < sorted.size(); ++i) {
      if (sorted[i].first == sorted[i - 1].first) {
        return invalid_data("CSV file {} line {}: columns {} and {} are both named `{}`", path,
                            records.line(), sorted[i - 1].second + 1, sorted[i].second + 1,
                            names[sorted[i].second]);
      }
    }
  }
  return names;
}

Result<std::unique_ptr<CsvReader>> CsvReader::open(const std::string& path,
                                                   const CsvOptions& options) {
  auto records = std::make_unique<Records>(path, options);
  FLOE_TRY(records->open());
  std::vector<std::string> names;
  if (options.header && FLOE_TRY(records->next())) {
    for (size_t i = 0; i < records->size(); ++i) names.emplace_back(records->field(i));
  }
  return std::unique_ptr<CsvReader>(new CsvReader(std::move(records), options, std::move(names)));
}

Result<bool> CsvReader::read_batch(ColumnBatch* batch, int64_t max_rows) {
  const size_t width = batch->columns.size();
  lines_.clear();
  for (int64_t row = 0; row < max_rows; ++row) {
    if (!FLOE_TRY(records_->next())) return false;
    const size_t n = records_->size();
    const int64_t line = records_->line();
    if (options_.strict && n != width) {
      return invalid_data("CSV file {} line {}: {} fields, but the {} has {}", records_->path(),
                          line, n, options_.header ? "header" : "first record", width);
    }
    const size_t used = std::min(n, width);
    for (size_t i = 0; i < used; ++i) {
      std::string_view f = records_->field(i);
      if (options_.strict) {
        FLOE_TRY(check_text(records_->path(), line, i, i < names_.size() ? names_[i] : "", f));
      }
      if (f.empty() && !records_->quoted(i) && options_.empty_as_null) {
        batch->columns[i]->append_null();
      } else {
        batch->columns[i]->append_bytes(f);
      }
    }
    for (size_t c = used; c < width; ++c) batch->columns[c]->append_null();
    ++batch->num_rows;
    lines_.push_back(line);
  }
  return true;
}

}  // namespace floe::text
