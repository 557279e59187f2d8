#include "floe/format/text/json_lines_reader.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>

#include "floe/util/strings.h"

namespace floe::text {

namespace {

// One pass over a line's bytes outside its strings: how deep arrays and objects nest, and how
// many keys the outermost object has (a ':' outside strings follows a key).
struct Shape {
  int depth = 0;
  int64_t top_keys = 0;  // keys of the line's object
  int64_t all_keys = 0;  // keys of every object on the line
};

Shape shape_of(std::string_view line, int limit) {
  Shape s;
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char c : line) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '{':
      case '[':
        if (++depth > s.depth) s.depth = depth;
        if (depth > limit) return s;  // enough to refuse the line
        break;
      case '}':
      case ']':
        --depth;
        break;
      case ':':
        if (depth == 1) ++s.top_keys;
        ++s.all_keys;
        break;
      default:
        break;
    }
  }
  return s;
}

// The keys of every object in `v` (nesting is bounded by the depth check).
int64_t count_keys(const nlohmann::json& v) {
  int64_t n = 0;
  if (v.is_object()) {
    n += static_cast<int64_t>(v.size());
    for (const auto& item : v.items()) n += count_keys(item.value());
  } else if (v.is_array()) {
    for (const auto& e : v) n += count_keys(e);
  }
  return n;
}

// nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error
// while parsing value - invalid literal; last read: '...'" as "column 5: syntax error while
// parsing value - invalid literal" (the bytes last read may not be printable).
std::string parse_error_text(const std::string& what) {
  std::string text = what;
  size_t at = text.find("column ");
  if (at != std::string::npos) text = text.substr(at);
  size_t last = text.find("; last read");
  if (last != std::string::npos) text = text.substr(0, last);
  return text;
}

// "[json.exception.out_of_range.406] number overflow parsing '1e309'" without the bracket.
std::string exception_text(const std::string& what) {
  size_t end = what.find("] ");
  return end == std::string::npos ? what : what.substr(end + 2);
}

}  // namespace

// ---- LineReader ----

Result<std::unique_ptr<LineReader>> LineReader::open(const std::string& path, std::string label,
                                                     int64_t max_line_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return not_found("cannot open {}: {}", label, std::strerror(errno));
  auto reader = from_fd(fd, std::move(label), max_line_bytes);
  reader->owned_ = true;
  return reader;
}

std::unique_ptr<LineReader> LineReader::from_fd(int fd, std::string label, int64_t max_line_bytes) {
  auto reader = std::unique_ptr<LineReader>(new LineReader());
  reader->fd_ = fd;
  reader->label_ = std::move(label);
  reader->max_line_bytes_ = max_line_bytes;
  return reader;
}

LineReader::~LineReader() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

Result<bool> LineReader::refill(int64_t wait_ms) {
  if (wait_ms >= 0) {
    pollfd p{};
    p.fd = fd_;
    p.events = POLLIN;
    int ready;
    do {
      ready = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(wait_ms, 1 << 30)));
    } while (ready < 0 && errno == EINTR);
    if (ready < 0) return io_error("reading {} failed: {}", label_, std::strerror(errno));
    if (ready == 0) return false;
  }
  // Reads grow from 64 KiB to 1 MiB: a small file costs no megabyte buffer.
  buf_.resize(chunk_);
  chunk_ = std::min<size_t>(chunk_ * 2, 1 << 20);
  ssize_t n;
  do {
    n = ::read(fd_, buf_.data(), buf_.size());
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    buf_.clear();
    return io_error("reading {} failed: {}", label_, std::strerror(errno));
  }
  buf_.resize(static_cast<size_t>(n));
  pos_ = 0;
  if (n == 0) eof_ = true;
  if (!started_ && n > 0) {
    started_ = true;
    // A UTF-8 byte order mark is not data.
    if (buf_.size() >= 3 && std::memcmp(buf_.data(), "\xEF\xBB\xBF", 3) == 0) pos_ = 3;
  }
  return true;
}

Result<LineReader::Next> LineReader::next(std::string* line, int64_t wait_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
  while (true) {
    if (pos_ == buf_.size()) {
      if (eof_) break;
      int64_t left = -1;
      if (wait_ms >= 0) {
        left = std::max<int64_t>(0, std::chrono::duration_cast<std::chrono::milliseconds>(
                                        deadline - std::chrono::steady_clock::now())
                                        .count());
      }
      if (!FLOE_TRY(refill(left))) return Next::kIdle;
      continue;
    }
    const char* begin = buf_.data() + pos_;
    const size_t avail = buf_.size() - pos_;
    const void* nl = std::memchr(begin, '\n', avail);
    const size_t take = nl ? static_cast<size_t>(static_cast<const char*>(nl) - begin) : avail;
    if (static_cast<int64_t>(partial_.size() + take) > max_line_bytes_) {
      return invalid_data("{} line {}: the line is longer than {} bytes", label_, line_no_ + 1,
                          max_line_bytes_);
    }
    pending_ = true;
    partial_.append(begin, take);
    pos_ += take;
    if (nl) {
      ++pos_;
      break;
    }
  }
  if (!pending_) return Next::kEnd;
  pending_ = false;
  ++line_no_;
  if (!partial_.empty() && partial_.back() == '\r') partial_.pop_back();
  line->swap(partial_);
  partial_.clear();
  return Next::kLine;
}

// ---- parse_json_object ----

namespace {

// The key that appears twice in an object of `line` (error path).
std::string duplicate_key(const std::string& line) {
  std::vector<std::set<std::string>> open;  // the keys of each object being parsed
  std::string twice;
  auto callback = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using E = nlohmann::json::parse_event_t;
    if (event == E::object_start) {
      open.emplace_back();
    } else if (event == E::object_end) {
      open.pop_back();
    } else if (event == E::key && twice.empty() && !open.empty()) {
      const std::string& k = parsed.get_ref<const std::string&>();
      if (!open.back().insert(k).second) twice = k;
    }
    return true;
  };
  nlohmann::json parsed = nlohmann::json::parse(line, callback, /*allow_exceptions=*/false);
  (void)parsed;
  return twice;
}

}  // namespace

Result<nlohmann::json> parse_json_object(const std::string& line, std::string_view where,
                                         const JsonLinesOptions& options) {
  Shape shape = shape_of(line, options.max_depth);
  if (shape.depth > options.max_depth) {
    return invalid_data("{}: values nest deeper than {} levels", where, options.max_depth);
  }
  nlohmann::json object;
  try {
    object = nlohmann::json::parse(line);
  } catch (const nlohmann::json::parse_error& e) {
    return invalid_data("{}, {}", where, parse_error_text(e.what()));
  } catch (const nlohmann::json::exception& e) {
    // A number past the range of a double (1e309) is out_of_range, not a parse error.
    return invalid_data("{}: {}", where, exception_text(e.what()));
  }
  if (!object.is_object()) {
    return invalid_data("{}: the line is a JSON {}, not an object", where, object.type_name());
  }
  // JSON keeps one value of a key given twice: refuse the line rather than drop the other.
  if (static_cast<int64_t>(object.size()) != shape.top_keys ||
      (shape.all_keys != shape.top_keys && count_keys(object) != shape.all_keys)) {
    return invalid_data("{}: key \"{}\" appears twice", where, duplicate_key(line));
  }
  return object;
}

// ---- JsonRowWriter ----

JsonRowWriter::JsonRowWriter(const std::vector<std::string>& columns) {
  for (size_t i = 0; i < columns.size(); ++i) index_[to_lower(columns[i])] = i;
  seen_.resize(columns.size());
}

Status JsonRowWriter::append(const nlohmann::json& object, ColumnBatch* batch,
                             std::string_view where, const std::vector<uint8_t>* only) {
  const size_t width = seen_.size();
  std::fill(seen_.begin(), seen_.end(), 0);
  for (auto it = object.begin(); it != object.end(); ++it) {
    key_ = to_lower(it.key());
    auto col = index_.find(key_);
    if (col == index_.end()) continue;
    if (seen_[col->second]) {
      return invalid_data(
          "{}: two keys name column `{}` (\"{}\" and one that differs only in case)", where,
          col->first, it.key());
    }
    const nlohmann::json& v = it.value();
    seen_[col->second] = v.is_null() ? 1 : 2;
  }
  // Every column gets its value only once every key is known good: the batch stays whole.
  for (size_t c = 0; c < width; ++c) {
    if (seen_[c] != 2 || (only && !(*only)[c])) batch->columns[c]->append_null();
  }
  for (auto it = object.begin(); it != object.end(); ++it) {
    key_ = to_lower(it.key());
    auto col = index_.find(key_);
    if (col == index_.end()) continue;
    const size_t c = col->second;
    if (seen_[c] != 2 || (only && !(*only)[c])) continue;
    ColumnVector& out = *batch->columns[c];
    const nlohmann::json& v = it.value();
    if (v.is_string()) {
      out.append_bytes(v.get_ref<const std::string&>());
    } else {
      text_ = v.dump();
      out.append_bytes(text_);
    }
  }
  ++batch->num_rows;
  return Status::OK();
}

// ---- JsonLinesReader ----

JsonLinesReader::JsonLinesReader(std::unique_ptr<LineReader> lines,
                                 const std::vector<std::string>& columns, std::string path,
                                 const JsonLinesOptions& options)
    : in_(std::move(lines)), row_(columns), path_(std::move(path)), options_(options) {}

Result<std::unique_ptr<JsonLinesReader>> JsonLinesReader::open(
    const std::string& path, const std::vector<std::string>& columns,
    const JsonLinesOptions& options) {
  auto lines = FLOE_TRY(LineReader::open(path, "JSON Lines file " + path, options.max_line_bytes));
  return std::unique_ptr<JsonLinesReader>(
      new JsonLinesReader(std::move(lines), columns, path, options));
}

Result<bool> JsonLinesReader::read_batch(ColumnBatch* batch, int64_t max_rows) {
  lines_.clear();
  for (int64_t row = 0; row < max_rows;) {
    if (FLOE_TRY(in_->next(&line_)) == LineReader::Next::kEnd) return false;
    if (trim(line_).empty()) continue;
    const std::string where = fmt::format("JSON Lines file {} line {}", path_, in_->line_number());
    nlohmann::json object = FLOE_TRY(parse_json_object(line_, where, options_));
    FLOE_TRY(row_.append(object, batch, where));
    lines_.push_back(in_->line_number());
    ++row;
  }
  return true;
}

}  // namespace floe::text
