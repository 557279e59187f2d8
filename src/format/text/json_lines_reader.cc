#include "floe/format/text/json_lines_reader.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "floe/util/strings.h"

namespace floe::text {

Result<std::unique_ptr<JsonLinesReader>> JsonLinesReader::open(
    const std::string& path, const std::vector<std::string>& columns) {
  auto reader = std::unique_ptr<JsonLinesReader>(new JsonLinesReader());
  reader->in_.open(path, std::ios::binary);
  if (!reader->in_) return not_found("cannot open JSON Lines file {}", path);
  reader->path_ = path;
  for (size_t i = 0; i < columns.size(); ++i) reader->index_[to_lower(columns[i])] = i;
  reader->seen_.resize(columns.size());
  return reader;
}

Result<bool> JsonLinesReader::read_batch(ColumnBatch* batch, int64_t max_rows) {
  const size_t width = seen_.size();
  for (int64_t row = 0; row < max_rows;) {
    if (!std::getline(in_, line_)) return false;
    ++line_no_;
    if (trim(line_).empty()) continue;
    nlohmann::json object = nlohmann::json::parse(line_, nullptr, /*allow_exceptions=*/false);
    if (object.is_discarded() || !object.is_object()) {
      return invalid_data("{} line {}: not a JSON object", path_, line_no_);
    }
    std::fill(seen_.begin(), seen_.end(), 0);
    for (auto it = object.begin(); it != object.end(); ++it) {
      key_ = to_lower(it.key());
      auto col = index_.find(key_);
      if (col == index_.end() || seen_[col->second]) continue;
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
    ++row;
  }
  return true;
}

}  // namespace floe::text
