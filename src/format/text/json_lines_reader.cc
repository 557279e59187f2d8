#include "floe/format/text/json_lines_reader.h"

#include <algorithm>
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

Result<std::unique_ptr<JsonLinesReader>> JsonLinesReader::open(
    const std::string& path, const std::vector<std::string>& columns,
    const JsonLinesOptions& options) {
  auto reader = std::unique_ptr<JsonLinesReader>(new JsonLinesReader());
  reader->in_.open(path, std::ios::binary);
  if (!reader->in_) return not_found("cannot open JSON Lines file {}", path);
  reader->path_ = path;
  reader->options_ = options;
  for (size_t i = 0; i < columns.size(); ++i) reader->index_[to_lower(columns[i])] = i;
  reader->seen_.resize(columns.size());
  FLOE_TRY(reader->refill());
  // A UTF-8 byte order mark is not data.
  if (reader->buf_.size() >= 3 && std::memcmp(reader->buf_.data(), "\xEF\xBB\xBF", 3) == 0) {
    reader->pos_ = 3;
  }
  return reader;
}

Status JsonLinesReader::refill() {
  // Reads grow from 64 KiB to 1 MiB: a small file costs no megabyte buffer.
  buf_.resize(chunk_);
  chunk_ = std::min<size_t>(chunk_ * 2, 1 << 20);
  in_.read(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  if (in_.bad()) return io_error("reading JSON Lines file {} failed", path_);
  buf_.resize(static_cast<size_t>(in_.gcount()));
  pos_ = 0;
  return Status::OK();
}

Result<bool> JsonLinesReader::next_line() {
  line_.clear();
  bool any = false;
  while (true) {
    if (pos_ == buf_.size()) {
      FLOE_TRY(refill());
      if (buf_.empty()) break;
    }
    any = true;
    const char* begin = buf_.data() + pos_;
    const size_t avail = buf_.size() - pos_;
    const void* nl = std::memchr(begin, '\n', avail);
    const size_t take = nl ? static_cast<size_t>(static_cast<const char*>(nl) - begin) : avail;
    if (static_cast<int64_t>(line_.size() + take) > options_.max_line_bytes) {
      return invalid_data("JSON Lines file {} line {}: the line is longer than {} bytes", path_,
                          line_no_ + 1, options_.max_line_bytes);
    }
    line_.append(begin, take);
    pos_ += take;
    if (nl) {
      ++pos_;
      break;
    }
  }
  if (!any) return false;
  ++line_no_;
  if (!line_.empty() && line_.back() == '\r') line_.pop_back();
  return true;
}

std::string JsonLinesReader::duplicate_key() const {
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
  nlohmann::json parsed = nlohmann::json::parse(line_, callback, /*allow_exceptions=*/false);
  (void)parsed;
  return twice;
}

Result<bool> JsonLinesReader::read_batch(ColumnBatch* batch, int64_t max_rows) {
  const size_t width = seen_.size();
  lines_.clear();
  for (int64_t row = 0; row < max_rows;) {
    if (!FLOE_TRY(next_line())) return false;
    if (trim(line_).empty()) continue;
    Shape shape = shape_of(line_, options_.max_depth);
    if (shape.depth > options_.max_depth) {
      return invalid_data("JSON Lines file {} line {}: values nest deeper than {} levels", path_,
                          line_no_, options_.max_depth);
    }
    nlohmann::json object;
    try {
      object = nlohmann::json::parse(line_);
    } catch (const nlohmann::json::parse_error& e) {
      return invalid_data("JSON Lines file {} line {}, {}", path_, line_no_,
                          parse_error_text(e.what()));
    } catch (const nlohmann::json::exception& e) {
      // A number past the range of a double (1e309) is out_of_range, not a parse error.
      return invalid_data("JSON Lines file {} line {}: {}", path_, line_no_,
                          exception_text(e.what()));
    }
    if (!object.is_object()) {
      return invalid_data("JSON Lines file {} line {}: the line is a JSON {}, not an object", path_,
                          line_no_, object.type_name());
    }
    // JSON keeps one value of a key given twice: refuse the line rather than drop the other.
    if (static_cast<int64_t>(object.size()) != shape.top_keys ||
        (shape.all_keys != shape.top_keys && count_keys(object) != shape.all_keys)) {
      return invalid_data("JSON Lines file {} line {}: key \"{}\" appears twice", path_, line_no_,
                          duplicate_key());
    }
    std::fill(seen_.begin(), seen_.end(), 0);
    for (auto it = object.begin(); it != object.end(); ++it) {
      key_ = to_lower(it.key());
      auto col = index_.find(key_);
      if (col == index_.end()) continue;
      if (seen_[col->second]) {
        return invalid_data(
            "JSON Lines file {} line {}: two keys name column `{}` (\"{}\" and one that differs "
            "only in case)",
            path_, line_no_, col->first, it.key());
      }
      seen_[col->second] = 1;
      ColumnVector& out = *batch->columns[col->second];
      const nlohmann::json& v = it.value();
      if (v.is_null()) {
        out.append_null();
      } else if (v.is_string()) {
        out.append_bytes(v.get_ref<const std::string&>());
      } else {
        text_ = v.dump();
        out.append_bytes(text_);
      }
    }
    for (size_t c = 0; c < width; ++c) {
      if (!seen_[c]) batch->columns[c]->append_null();
    }
    ++batch->num_rows;
    lines_.push_back(line_no_);
    ++row;
  }
  return true;
}

}  // namespace floe::text
