#include "floe/read/puffin.h"

#include <nlohmann/json.hpp>

#include "floe/util/compression.h"

namespace floe {

namespace {
constexpr std::string_view kMagic("PFA1", 4);
}

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
  std::string footer = FLOE_TRY(io.read_range(path, footer_start, payload_size + 4));
  if (footer.substr(0, 4) != kMagic) {
    return invalid_data("{}: Puffin footer does not start with PFA1", path);
  }
  std::string payload = footer.substr(4);
  if (flags & 1) {
    return not_supported("{}: LZ4-compressed Puffin footers are not supported", path);
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(payload);
  } catch (const nlohmann::json::parse_error& e) {
    return invalid_data("{}: Puffin footer is not valid JSON (byte {})", path, e.byte);
  }
  if (!j.is_object() || !j.contains("blobs") || !j["blobs"].is_array()) {
    return invalid_data("{}: Puffin footer lacks the 'blobs' array", path);
  }
  PuffinFooter out;
  for (const auto& b : j["blobs"]) {
    PuffinBlob blob;
    if (!b.is_object() || !b.contains("type") || !b.contains("offset") || !b.contains("length")) {
      return invalid_data("{}: Puffin blob metadata lacks type, offset or length", path);
    }
    blob.type = b["type"].get<std::string>();
    blob.offset = b["offset"].get<int64_t>();
    blob.length = b["length"].get<int64_t>();
    if (blob.offset < 4 || blob.length < 0 || blob.offset + blob.length > footer_start) {
      return invalid_data("{}: Puffin blob [{}, +{}) lies outside the blob area", path, blob.offset,
                          blob.length);
    }
    if (b.contains("fields") && b["fields"].is_array()) {
      for (const auto& f : b["fields"]) blob.fields.push_back(f.get<int32_t>());
    }
    if (b.contains("snapshot-id")) blob.snapshot_id = b["snapshot-id"].get<int64_t>();
    if (b.contains("sequence-number")) blob.sequence_number = b["sequence-number"].get<int64_t>();
    if (b.contains("compression-codec") && b["compression-codec"].is_string()) {
      blob.compression_codec = b["compression-codec"].get<std::string>();
    }
    if (b.contains("properties") && b["properties"].is_object()) {
      for (auto it = b["properties"].begin(); it != b["properties"].end(); ++it) {
        blob.properties[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
      }
    }
    out.blobs.push_back(std::move(blob));
  }
  if (j.contains("properties") && j["properties"].is_object()) {
    for (auto it = j["properties"].begin(); it != j["properties"].end(); ++it) {
      out.properties[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
    }
  }
  return out;
}

}  // namespace floe
