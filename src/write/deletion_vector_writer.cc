#include "floe/write/deletion_vector_writer.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "floe/spec/metadata_columns.h"
#include "floe/util/compression.h"

namespace floe {

namespace {

constexpr std::string_view kPuffinMagic("PFA1", 4);
constexpr std::string_view kDeletionVectorMagic("\xD1\xD3\x39\x64", 4);
// RoaringFormatSpec: the cookie of a bitmap without run containers (followed by the container
// count) and of one with some (the count - 1 in the high 16 bits).
constexpr uint32_t kCookieNoRuns = 12346;
constexpr uint32_t kCookieRuns = 12347;
// Without run containers offsets are always written; with them only from this many containers.
constexpr size_t kNoOffsetThreshold = 4;
constexpr size_t kArrayMaxSize = 4096;      // larger containers are bitmaps
constexpr size_t kBitmapBytes = 65536 / 8;  // a bitmap container's size

void put_u16(std::string* s, uint32_t v) {
  s->push_back(static_cast<char>(v & 0xFF));
  s->push_back(static_cast<char>((v >> 8) & 0xFF));
}
void put_u32(std::string* s, uint32_t v) {
  for (int i = 0; i < 4; ++i) s->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void put_u32_be(std::string* s, uint32_t v) {
  for (int i = 3; i >= 0; --i) s->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

// One container of a 32-bit bitmap: the values sharing the high 16 bits `key`.
struct Container {
  uint16_t key = 0;
  std::span<const uint32_t> values;                 // low 32 bits of positions, ascending
  std::vector<std::pair<uint16_t, uint16_t>> runs;  // (start, length - 1)
  bool run = false;

  // Java's choice for a container built by adding values: an array up to 4096 values, else a
  // bitmap; then runOptimize turns it into runs when their serialized size (2 + 4 per run) is
  // strictly smaller than the array's (2 per value) or the bitmap's (8192).
  void choose() {
    for (uint32_t v32 : values) {
      uint16_t v = static_cast<uint16_t>(v32 & 0xFFFF);
      if (!runs.empty() && uint32_t{runs.back().first} + runs.back().second + 1 == v) {
        ++runs.back().second;
      } else {
        runs.emplace_back(v, 0);
      }
    }
    size_t run_bytes = 2 + 4 * runs.size();
    size_t plain_bytes = values.size() <= kArrayMaxSize ? 2 * values.size() : kBitmapBytes;
    run = run_bytes < plain_bytes;
  }

  void write_body(std::string* out) const {
    if (run) {
      put_u16(out, static_cast<uint32_t>(runs.size()));
      for (const auto& [start, len] : runs) {
        put_u16(out, start);
        put_u16(out, len);
      }
    } else if (values.size() <= kArrayMaxSize) {
      for (uint32_t v : values) put_u16(out, v & 0xFFFF);
    } else {
      size_t at = out->size();
      out->append(kBitmapBytes, '\0');
      // 1024 little-endian 64-bit words: bit v of the container is bit v % 8 of byte v / 8.
      for (uint32_t v32 : values) {
        uint32_t v = v32 & 0xFFFF;
        (*out)[at + v / 8] = static_cast<char>((*out)[at + v / 8] | (1 << (v % 8)));
      }
    }
  }

  size_t body_size() const {
    if (run) return 2 + 4 * runs.size();
    return values.size() <= kArrayMaxSize ? 2 * values.size() : kBitmapBytes;
  }
};

// A standard 32-bit Roaring bitmap (RoaringFormatSpec) of ascending unique values.
void write_roaring32(std::span<const uint32_t> values, std::string* out) {
  std::vector<Container> containers;
  size_t i = 0;
  while (i < values.size()) {
    uint16_t key = static_cast<uint16_t>(values[i] >> 16);
    size_t j = i;
    while (j < values.size() && (values[j] >> 16) == key) ++j;
    Container c;
    c.key = key;
    c.values = values.subspan(i, j - i);
    c.choose();
    containers.push_back(std::move(c));
    i = j;
  }
  const size_t n = containers.size();
  const bool any_run =
      std::any_of(containers.begin(), containers.end(), [](const Container& c) { return c.run; });
  const size_t start = out->size();  // offsets count from the cookie
  if (any_run) {
    put_u32(out, kCookieRuns | (static_cast<uint32_t>(n - 1) << 16));
    std::string flags((n + 7) / 8, '\0');
    for (size_t k = 0; k < n; ++k) {
      if (containers[k].run) flags[k / 8] = static_cast<char>(flags[k / 8] | (1 << (k % 8)));
    }
    out->append(flags);
  } else {
    put_u32(out, kCookieNoRuns);
    put_u32(out, static_cast<uint32_t>(n));
  }
  for (const Container& c : containers) {
    put_u16(out, c.key);
    put_u16(out, static_cast<uint32_t>(c.values.size() - 1));
  }
  if (!any_run || n >= kNoOffsetThreshold) {
    uint32_t offset = static_cast<uint32_t>(out->size() - start + 4 * n);
    for (const Container& c : containers) {
      put_u32(out, offset);
      offset += static_cast<uint32_t>(c.body_size());
    }
  }
  for (const Container& c : containers) c.write_body(out);
}

Status check_positions(std::span<const int64_t> positions) {
  for (size_t i = 0; i < positions.size(); ++i) {
    int64_t p = positions[i];
    if (p < 0 || p > kMaxDeletionVectorPosition) {
      return invalid_argument("deletion vector: position {} is outside [0, {}]", p,
                              kMaxDeletionVectorPosition);
    }
    if (i > 0 && p <= positions[i - 1]) {
      return invalid_argument(
          "deletion vector: positions must be ascending and unique ({} follows {})", p,
          positions[i - 1]);
    }
  }
  return Status::OK();
}

}  // namespace

Result<std::string> encode_roaring64_portable(std::span<const int64_t> positions) {
  FLOE_TRY(check_positions(positions));
  // One bitmap per key that has positions. (Java also writes empty bitmaps for the keys below
  // its largest, which only positions past 2^32 can tell apart; readers accept both, and a
  // dense array would take 12 bytes per key up to 2^31 - 2.)
  std::string keys_and_bitmaps;
  uint64_t count = 0;
  std::vector<uint32_t> low;
  size_t i = 0;
  while (i < positions.size()) {
    const uint64_t key = static_cast<uint64_t>(positions[i]) >> 32;
    low.clear();
    while (i < positions.size() && (static_cast<uint64_t>(positions[i]) >> 32) == key) {
      low.push_back(static_cast<uint32_t>(positions[i]));
      ++i;
    }
    put_u32(&keys_and_bitmaps, static_cast<uint32_t>(key));
    write_roaring32(low, &keys_and_bitmaps);
    ++count;
  }
  std::string out;
  put_u32(&out, static_cast<uint32_t>(count));
  put_u32(&out, static_cast<uint32_t>(count >> 32));
  out.append(keys_and_bitmaps);
  return out;
}

Result<std::string> encode_deletion_vector(std::span<const int64_t> positions) {
  std::string bitmap = FLOE_TRY(encode_roaring64_portable(positions));
  if (bitmap.size() > 0x7FFFFFFFu - kDeletionVectorMagic.size()) {
    return invalid_argument("deletion vector of {} bitmap bytes does not fit a 4-byte length",
                            bitmap.size());
  }
  std::string body;
  body.reserve(kDeletionVectorMagic.size() + bitmap.size());
  body.append(kDeletionVectorMagic);
  body.append(bitmap);
  std::string out;
  out.reserve(body.size() + 8);
  put_u32_be(&out, static_cast<uint32_t>(body.size()));
  out.append(body);
  put_u32_be(&out, crc32(body));
  return out;
}

// ---------------------------------------------------------------------------------------------

PuffinFileBuilder::PuffinFileBuilder(std::string created_by) : body_(kPuffinMagic) {
  properties_["created-by"] = std::move(created_by);
}

const PuffinBlob& PuffinFileBuilder::add(PuffinBlob blob, std::string_view bytes) {
  blob.offset = static_cast<int64_t>(body_.size());
  blob.length = static_cast<int64_t>(bytes.size());
  body_.append(bytes);
  blobs_.push_back(std::move(blob));
  return blobs_.back();
}

void PuffinFileBuilder::set_property(std::string key, std::string value) {
  properties_[std::move(key)] = std::move(value);
}

std::string PuffinFileBuilder::footer_json() const {
  using ojson = nlohmann::ordered_json;
  ojson blobs = ojson::array();
  for (const PuffinBlob& b : blobs_) {
    ojson j = ojson::object();
    j["type"] = b.type;
    j["fields"] = b.fields;
    j["snapshot-id"] = b.snapshot_id;
    j["sequence-number"] = b.sequence_number;
    j["offset"] = b.offset;
    j["length"] = b.length;
    if (b.compression_codec) j["compression-codec"] = *b.compression_codec;
    if (!b.properties.empty()) {
      ojson props = ojson::object();
      for (const auto& [k, v] : b.properties) props[k] = v;
      j["properties"] = std::move(props);
    }
    blobs.push_back(std::move(j));
  }
  ojson root = ojson::object();
  root["blobs"] = std::move(blobs);
  if (!properties_.empty()) {
    ojson props = ojson::object();
    for (const auto& [k, v] : properties_) props[k] = v;
    root["properties"] = std::move(props);
  }
  return root.dump();
}

std::string PuffinFileBuilder::finish() const {
  std::string payload = footer_json();
  std::string out = body_;
  out.append(kPuffinMagic);
  out.append(payload);
  put_u32(&out, static_cast<uint32_t>(payload.size()));
  put_u32(&out, 0);  // flags: the payload is not compressed
  out.append(kPuffinMagic);
  return out;
}

// ---------------------------------------------------------------------------------------------

DeletionVectorWriter::DeletionVectorWriter(FileIOPtr io, std::string path, std::string created_by)
    : io_(std::move(io)), path_(std::move(path)), created_by_(std::move(created_by)) {}

Status DeletionVectorWriter::add(const DataFile& data_file, std::span<const int64_t> positions) {
  if (data_file.content != FileContent::kData) {
    return invalid_argument("deletion vector {}: {} is not a data file", path_,
                            data_file.file_path);
  }
  if (data_file.record_count > 0) {
    for (int64_t p : positions) {
      if (p < 0 || p >= data_file.record_count) {
        return invalid_argument("deletion vector {}: position {} is not a row of {} ({} rows)",
                                path_, p, data_file.file_path, data_file.record_count);
      }
    }
  }
  return add(data_file.file_path, data_file.spec_id, data_file.partition, positions);
}

Status DeletionVectorWriter::add(std::string_view data_file_path, int32_t spec_id,
                                 const std::vector<Literal>& partition,
                                 std::span<const int64_t> positions) {
  if (closed_) return invalid_argument("deletion vector {}: add after close()", path_);
  for (int64_t p : positions) {
    if (p < 0 || p > kMaxDeletionVectorPosition) {
      return invalid_argument("deletion vector {}: position {} of {} is outside [0, {}]", path_, p,
                              data_file_path, kMaxDeletionVectorPosition);
    }
  }
  auto it = files_.find(data_file_path);
  if (it == files_.end()) {
    it = files_.emplace(std::string(data_file_path), Entry{spec_id, partition, {}}).first;
  } else if (it->second.spec_id != spec_id || it->second.partition != partition) {
    return invalid_argument("deletion vector {}: {} was added with another spec or partition",
                            path_, data_file_path);
  }
  it->second.positions.insert(it->second.positions.end(), positions.begin(), positions.end());
  return Status::OK();
}

Result<std::vector<DataFile>> DeletionVectorWriter::close() {
  if (closed_) return invalid_argument("deletion vector {}: closed twice", path_);
  closed_ = true;
  std::vector<DataFile> out;
  PuffinFileBuilder puffin(created_by_);
  for (auto& [data_path, e] : files_) {
    std::sort(e.positions.begin(), e.positions.end());
    e.positions.erase(std::unique(e.positions.begin(), e.positions.end()), e.positions.end());
    if (e.positions.empty()) continue;
    std::string blob = FLOE_TRY_CTX(encode_deletion_vector(e.positions), data_path);
    PuffinBlob meta;
    meta.type = std::string(kDeletionVectorBlobType);
    meta.fields = {kPositionColumnId};
    meta.snapshot_id = -1;  // inherited at commit
    meta.sequence_number = -1;
    meta.properties["referenced-data-file"] = data_path;
    meta.properties["cardinality"] = std::to_string(e.positions.size());
    const PuffinBlob& added = puffin.add(std::move(meta), blob);
    DataFile f;
    f.content = FileContent::kPositionDeletes;
    f.file_path = path_;
    f.file_format = std::string(kPuffinFileFormat);
    f.partition = e.partition;
    f.spec_id = e.spec_id;
    f.record_count = static_cast<int64_t>(e.positions.size());
    f.referenced_data_file = data_path;
    f.content_offset = added.offset;
    f.content_size_in_bytes = added.length;
    out.push_back(std::move(f));
  }
  if (out.empty()) return out;
  std::string bytes = puffin.finish();
  FLOE_TRY(io_->write_file(path_, bytes, WriteMode::kCreateNew));
  written_ = true;
  for (DataFile& f : out) f.file_size_in_bytes = static_cast<int64_t>(bytes.size());
  return out;
}

Status DeletionVectorWriter::abort() {
  files_.clear();
  closed_ = true;
  if (!written_) return Status::OK();
  written_ = false;
  Status s = io_->delete_file(path_);
  return s.kind() == ErrorKind::kNotFound ? Status::OK() : s;
}

}  // namespace floe
