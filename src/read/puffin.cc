#include "floe/read/puffin.h"

#include "floe/spec/json_text.h"
#include "floe/util/compression.h"

namespace floe {

namespace {

constexpr std::string_view kMagic("PFA1", 4);

// Typed access to the fields of one object of the footer JSON (the Puffin spec's FileMetadata
// and BlobMetadata); errors name the file, the object and the field.
struct Fields {
  const std::string& path;
  std::string where;  // "blobs[2]", or empty for the top level
  const nlohmann::json& j;

  bool has(const char* key) const { return j.contains(key); }
  std::string name(const char* key) const {
    return where.empty() ? fmt::format("field '{}'", key)
                         : fmt::format("{}: field '{}'", where, key);
  }
  Status wrong(const char* key, const char* expected, const nlohmann::json& v) const {
    return invalid_data("{}: Puffin footer {} must be {}, got {}", path, name(key), expected,
                        json_for_message(v));
  }
  Result<const nlohmann::json*> required(const char* key) const {
    auto it = j.find(key);
    if (it == j.end()) {
      return invalid_data("{}: Puffin footer {}lacks the required field '{}'", path,
                          where.empty() ? "" : where + " ", key);
    }
    return &*it;
  }
  Result<std::string> text(const char* key) const {
    const nlohmann::json& v = *FLOE_TRY(required(key));
    if (!v.is_string()) return wrong(key, "a string", v);
    return v.get<std::string>();
  }
  // A long: integers past INT64_MAX are an error, not wrapped.
  Result<int64_t> integer(const char* key) const {
    const nlohmann::json& v = *FLOE_TRY(required(key));
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
      return wrong(key, "a long", v);
    }
    if (!v.is_number_integer()) return wrong(key, "an integer", v);
    return v.get<int64_t>();
  }
  Result<std::vector<int32_t>> int_list(const char* key) const {
    const nlohmann::json& v = *FLOE_TRY(required(key));
    if (!v.is_array()) return wrong(key, "an array of field ids", v);
    std::vector<int32_t> out;
    for (const auto& e : v) {
      bool fits = e.is_number_unsigned() ? e.get<uint64_t>() <= INT32_MAX
                  : e.is_number_integer()
                      ? e.get<int64_t>() >= INT32_MIN && e.get<int64_t>() <= INT32_MAX
                      : false;
      if (!fits) {
        return invalid_data("{}: Puffin footer {} must hold int field ids, got {}", path, name(key),
                            json_for_message(e));
      }
      out.push_back(e.get<int32_t>());
    }
    return out;
  }
  // String values; numbers and booleans as their JSON text.
  Result<std::map<std::string, std::string>> string_map(const char* key) const {
    const nlohmann::json& v = *FLOE_TRY(required(key));
    if (!v.is_object()) return wrong(key, "an object", v);
    std::map<std::string, std::string> out;
    for (auto it = v.begin(); it != v.end(); ++it) {
      out[it.key()] = FLOE_TRY_CTX(
          json_scalar_text(*it,
                           fmt::format("Puffin footer {}: value of '{}'", name(key), it.key())),
          path);
    }
    return out;
  }
};

}  // namespace

Result<PuffinFooter> read_puffin_footer(FileIO& io, const std::string& path,
                                        std::optional<int64_t> size_hint) {
  int64_t size = size_hint ? *size_hint : FLOE_TRY(io.file_size(path));
  if (size < 4 + 4 + 12) return invalid_data("{}: too short to be a Puffin file", path);
  std::string head = FLOE_TRY(io.read_range(path, 0, 4));
  if (head != kMagic) {
    return invalid_data("{}: not a Puffin file (no PFA1 magic at the start)", path);
  }
  std::string tail = FLOE_TRY(io.read_range(path, size - 12, 12));
  if (tail.substr(8) != kMagic) {
    return invalid_data("{}: not a Puffin file (no PFA1 magic at the end)", path);
  }
  uint32_t payload_size = 0;
  for (int i = 3; i >= 0; --i) payload_size = (payload_size << 8) | static_cast<uint8_t>(tail[i]);
  uint8_t flags = static_cast<uint8_t>(tail[4]);
  int64_t footer_start = size - 12 - static_cast<int64_t>(payload_size) - 4;
  if (footer_start < 4) {
    return invalid_data("{}: Puffin footer payload size {} passes the start of the file", path,
                        payload_size);
  }
  std::string footer = FLOE_TRY(io.read_range(path, footer_start, int64_t{payload_size} + 4));
  if (footer.substr(0, 4) != kMagic) {
    return invalid_data("{}: Puffin footer does not start with PFA1", path);
  }
  std::string payload = footer.substr(4);
  if (flags & 1) {
    return not_supported("{}: LZ4-compressed Puffin footers are not supported", path);
  }
  nlohmann::json j = FLOE_TRY_CTX(parse_json_text(payload, "Puffin footer"), path);
  if (!j.is_object()) {
    return invalid_data("{}: Puffin footer must be a JSON object, got {}", path, json_kind(j));
  }
  auto blobs = j.find("blobs");
  if (blobs == j.end() || !blobs->is_array()) {
    return invalid_data("{}: Puffin footer lacks the 'blobs' array", path);
  }
  PuffinFooter out;
  for (size_t i = 0; i < blobs->size(); ++i) {
    const nlohmann::json& b = (*blobs)[i];
    Fields f{path, fmt::format("blobs[{}]", i), b};
    if (!b.is_object()) {
      return invalid_data("{}: Puffin footer {} must be an object, got {}", path, f.where,
                          json_kind(b));
    }
    PuffinBlob blob;
    blob.type = FLOE_TRY(f.text("type"));
    blob.offset = FLOE_TRY(f.integer("offset"));
    blob.length = FLOE_TRY(f.integer("length"));
    if (blob.offset < 4 || blob.length < 0 || blob.offset > footer_start ||
        blob.length > footer_start - blob.offset) {
      return invalid_data("{}: Puffin blob {} [{}, +{}) lies outside the blob area [4, {})", path,
                          i, blob.offset, blob.length, footer_start);
    }
    if (f.has("fields")) blob.fields = FLOE_TRY(f.int_list("fields"));
    if (f.has("snapshot-id")) blob.snapshot_id = FLOE_TRY(f.integer("snapshot-id"));
    if (f.has("sequence-number")) blob.sequence_number = FLOE_TRY(f.integer("sequence-number"));
    // Optional, and null when absent in some writers.
    if (f.has("compression-codec") && !b.at("compression-codec").is_null()) {
      blob.compression_codec = FLOE_TRY(f.text("compression-codec"));
    }
    if (f.has("properties")) blob.properties = FLOE_TRY(f.string_map("properties"));
    out.blobs.push_back(std::move(blob));
  }
  Fields top{path, "", j};
  if (top.has("properties")) out.properties = FLOE_TRY(top.string_map("properties"));
  return out;
}

}  // namespace floe
