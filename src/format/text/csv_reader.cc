#include "floe/format/text/csv_reader.h"

#include <fmt/format.h>

#include <fstream>

namespace floe::text {

// Streams RFC 4180 records from a file in blocks; a record may straddle blocks. Field bytes go
// to a reused buffer.
class CsvReader::Records {
 public:
  Records(std::string path, char delimiter) : path_(std::move(path)), delim_(delimiter) {}

  Status open() {
    in_.open(path_, std::ios::binary);
    if (!in_) return not_found("cannot open CSV file {}", path_);
    return Status::OK();
  }

  // Calls on_field(index, bytes, quoted) per field and returns true per record; false at EOF.
  template <typename OnField>
  Result<bool> next(OnField&& on_field) {
    field_.clear();
    int index = 0;
    bool in_quotes = false, quoted = false, any = false;
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
            field_ += '"';
            ++pos_;
          } else {
            in_quotes = false;
          }
        } else {
          field_ += c;
        }
        continue;
      }
      if (c == '"') {
        in_quotes = quoted = any = true;
      } else if (c == delim_) {
        on_field(index++, std::string_view(field_), quoted);
        field_.clear();
        quoted = false;
        any = true;
      } else if (c == '\n' || c == '\r') {
        if (c == '\r') {
          if (pos_ == buf_.size()) FLOE_TRY(refill());
          if (pos_ < buf_.size() && buf_[pos_] == '\n') ++pos_;
        }
        if (any || !field_.empty()) {
          on_field(index, std::string_view(field_), quoted);
          return true;
        }
      } else {
        field_ += c;
        any = true;
      }
    }
    if (in_quotes) return invalid_data("CSV file {}: a quoted field is not closed", path_);
    if (any || !field_.empty()) {
      on_field(index, std::string_view(field_), quoted);
      return true;
    }
    return false;
  }

 private:
  Status refill() {
    buf_.resize(1 << 20);
    in_.read(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    if (in_.bad()) return io_error("reading CSV file {} failed", path_);
    buf_.resize(static_cast<size_t>(in_.gcount()));
    pos_ = 0;
    return Status::OK();
  }

  std::string path_;
  char delim_;
  std::ifstream in_;
  std::string buf_;
  size_t pos_ = 0;
  std::string field_;
};

CsvReader::CsvReader(std::unique_ptr<Records> records, CsvOptions options)
    : records_(std::move(records)), options_(options) {}

CsvReader::~CsvReader() = default;

Result<std::vector<std::string>> CsvReader::column_names(const std::string& path,
                                                         const CsvOptions& options) {
  Records records(path, options.delimiter);
  FLOE_TRY(records.open());
  std::vector<std::string> first;
  bool has_record =
      FLOE_TRY(records.next([&](int, std::string_view f, bool) { first.emplace_back(f); }));
  std::vector<std::string> names;
  for (size_t i = 0; has_record && i < first.size(); ++i) {
    names.push_back(options.header ? first[i] : fmt::format("_c{}", i));
  }
  return names;
}

Result<std::unique_ptr<CsvReader>> CsvReader::open(const std::string& path,
                                                   const CsvOptions& options) {
  auto records = std::make_unique<Records>(path, options.delimiter);
  FLOE_TRY(records->open());
  if (options.header) FLOE_TRY(records->next([](int, std::string_view, bool) {}));
  return std::unique_ptr<CsvReader>(new CsvReader(std::move(records), options));
}

Result<bool> CsvReader::read_batch(ColumnBatch* batch, int64_t max_rows) {
  const int width = static_cast<int>(batch->columns.size());
  for (int64_t row = 0; row < max_rows; ++row) {
    int seen = 0;
    bool more = FLOE_TRY(records_->next([&](int i, std::string_view f, bool quoted) {
      if (i >= width) return;
      if (f.empty() && !quoted && options_.empty_as_null) {
        batch->columns[i]->append_null();
      } else {
        batch->columns[i]->append_bytes(f);
      }
      seen = i + 1;
    }));
    if (!more) return false;
    for (int c = seen; c < width; ++c) batch->columns[c]->append_null();
    ++batch->num_rows;
  }
  return true;
}

}  // namespace floe::text
