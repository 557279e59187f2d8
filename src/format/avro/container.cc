#include "floe/format/avro/container.h"

#include <libdeflate.h>
#include <snappy-c.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <mutex>
#include <random>
#include <unordered_map>

#include "floe/util/compression.h"

namespace floe::avro {

const char* codec_name(Codec codec) {
  switch (codec) {
    case Codec::kNull:
      return "null";
    case Codec::kDeflate:
      return "deflate";
    case Codec::kSnappy:
      return "snappy";
    case Codec::kZstd:
      return "zstandard";
  }
  return "?";
}

Result<Codec> parse_codec(std::string_view name) {
  if (name.empty() || name == "null" || name == "uncompressed") return Codec::kNull;
  if (name == "deflate" || name == "gzip") return Codec::kDeflate;
  if (name == "snappy") return Codec::kSnappy;
  if (name == "zstandard" || name == "zstd") return Codec::kZstd;
  return not_supported("unknown Avro codec '{}'", name);
}

const std::string* ContainerReader::meta(const std::string& key) const {
  auto it = metadata_.find(key);
  return it == metadata_.end() ? nullptr : &it->second;
}

Status ContainerReader::header_error(size_t offset, std::string_view what) const {
  return invalid_data("{}: invalid Avro file at offset {}: {}", path_, offset, what);
}

Status ContainerReader::block_error(std::string_view what) const {
  return invalid_data("{}: invalid Avro block at offset {}: {}", path_, block_offset_, what);
}

namespace {

// Tables write thousands of files with the same schema text; parse it once. The cache is
// bounded (cleared when full) and shared by all threads.
Result<std::shared_ptr<const AvroSchema>> cached_schema(const std::string& json) {
  static std::mutex mu;
  static std::unordered_map<std::string, std::shared_ptr<const AvroSchema>> cache;
  {
    std::lock_guard lock(mu);
    auto it = cache.find(json);
    if (it != cache.end()) return it->second;
  }
  auto parsed = parse_avro_schema(json);
  if (!parsed.ok()) return parsed.status();
  auto schema = std::make_shared<const AvroSchema>(std::move(parsed).value());
  std::lock_guard lock(mu);
  if (cache.size() >= 256) cache.clear();
  cache.emplace(json, schema);
  return schema;
}

}  // namespace

Result<std::unique_ptr<ContainerReader>> ContainerReader::open(std::string data, std::string path) {
  std::unique_ptr<ContainerReader> r(new ContainerReader());
  r->owned_ = std::move(data);
  FLOE_TRY(r->init(r->owned_, std::move(path)));
  return r;
}

Result<std::unique_ptr<ContainerReader>> ContainerReader::open_view(std::string_view data,
                                                                    std::string path) {
  std::unique_ptr<ContainerReader> r(new ContainerReader());
  FLOE_TRY(r->init(data, std::move(path)));
  return r;
}

Status ContainerReader::init(std::string_view data, std::string path) {
  ContainerReader* r = this;
  r->data_ = data;
  r->path_ = std::move(path);
  std::string_view d = r->data_;
  if (d.size() < 4 || d.substr(0, 4) != kAvroMagic) {
    return r->header_error(0, "bad magic (not an Avro object container file)");
  }
  Decoder dec(d.data() + 4, d.size() - 4);
  while (true) {
    int64_t n = dec.read_block_count();
    if (!dec.ok()) return r->header_error(4 + dec.error_offset(), dec.error());
    if (n == 0) break;
    for (int64_t i = 0; i < n; ++i) {
      std::string_view key = dec.read_bytes();
      std::string_view value = dec.read_bytes();
      if (!dec.ok()) return r->header_error(4 + dec.error_offset(), dec.error());
      r->metadata_[std::string(key)] = std::string(value);
    }
  }
  std::string_view sync = dec.read_fixed(16);
  if (!dec.ok()) return r->header_error(4 + dec.error_offset(), "truncated sync marker");
  r->sync_ = std::string(sync);
  r->pos_ = 4 + dec.offset();
  const std::string* schema = r->meta("avro.schema");
  if (schema == nullptr) return r->header_error(4, "header has no avro.schema");
  r->schema_json_ = *schema;
  auto parsed = cached_schema(*schema);
  if (!parsed.ok()) return parsed.status().with_context(r->path_);
  r->schema_ = std::move(parsed).value();
  r->min_object_size_ = min_encoded_size(r->schema_->root());
  const std::string* codec = r->meta("avro.codec");
  auto c = parse_codec(codec ? *codec : "null");
  if (!c.ok()) return c.status().with_context(r->path_);
  r->codec_ = *c;
  return Status::OK();
}

Result<bool> ContainerReader::next_block() {
  if (pos_ >= data_.size()) return false;
  block_offset_ = pos_;
  Decoder dec(data_.data() + pos_, data_.size() - pos_);
  int64_t count = dec.read_long();
  int64_t size = dec.read_long();
  if (!dec.ok()) return block_error(dec.error());
  if (count < 0) return block_error("negative object count");
  if (size < 0 || static_cast<uint64_t>(size) > dec.remaining()) {
    return block_error("block size past the end of the file");
  }
  if (dec.remaining() - static_cast<size_t>(size) < 16) {
    return block_error("truncated block (no sync marker)");
  }
  std::string_view payload(data_.data() + pos_ + dec.offset(), static_cast<size_t>(size));
  std::string_view sync(payload.data() + size, 16);
  if (sync != sync_) return block_error("wrong sync marker");
  pos_ += dec.offset() + static_cast<size_t>(size) + 16;
  block_count_ = 0;
  if (codec_ == Codec::kNull) {
    decoder_.reset(payload.data(), payload.size());
  } else {
    size_t produced = FLOE_TRY(decompress_block(payload));
    decoder_.reset(block_buf_.data(), produced);
  }
  // Counts come from the file: bound them by what the block's bytes can hold, so no reader
  // loops or reserves for objects that are not there.
  const uint64_t bytes = decoder_.remaining();
  if (min_object_size_ > 0
          ? static_cast<uint64_t>(count) > bytes / static_cast<uint64_t>(min_object_size_)
          : count > kMaxEmptyObjectsPerBlock) {
    if (min_object_size_ > 0) {
      return block_error(fmt::format(
          "object count {} is more than the block's {} bytes can hold (at least {} per object)",
          count, bytes, min_object_size_));
    }
    return block_error(fmt::format(
        "object count {} of a schema that encodes in 0 bytes is more than the limit of {}", count,
        kMaxEmptyObjectsPerBlock));
  }
  block_count_ = count;
  return true;
}

// Decompresses into block_buf_, which only grows: the hot loop neither allocates nor zero-fills
// per block, and the codec contexts are reused.
Result<size_t> ContainerReader::decompress_block(std::string_view payload) {
  constexpr size_t kMaxBlock = size_t{1} << 31;
  // zstd's ratio is unbounded (RLE); Avro blocks are ~64 KB, so 256 MB is generous.
  constexpr size_t kMaxZstdBlock = size_t{1} << 28;
  if (block_buf_.size() < 256 * 1024) block_buf_.resize(256 * 1024);
  switch (codec_) {
    case Codec::kDeflate: {
      if (!inflater_) {
        inflater_ = std::shared_ptr<void>(libdeflate_alloc_decompressor(), [](void* p) {
          libdeflate_free_decompressor(static_cast<libdeflate_decompressor*>(p));
        });
        if (!inflater_) return Status(ErrorKind::kInternal, "deflate: cannot allocate");
      }
      auto* d = static_cast<libdeflate_decompressor*>(inflater_.get());
      while (true) {
        size_t produced = 0;
        libdeflate_result rc = libdeflate_deflate_decompress(
            d, payload.data(), payload.size(), block_buf_.data(), block_buf_.size(), &produced);
        if (rc == LIBDEFLATE_SUCCESS) return produced;
        if (rc != LIBDEFLATE_INSUFFICIENT_SPACE) return block_error("deflate: corrupt data");
        // Deflate expands at most 1032:1; beyond that the data is corrupt.
        if (block_buf_.size() >= kMaxBlock || block_buf_.size() > payload.size() * 1032 + 1024) {
          return block_error("deflate: corrupt data (output larger than possible)");
        }
        block_buf_.resize(block_buf_.size() * 2);
      }
    }
    case Codec::kSnappy: {
      if (payload.size() < 4) return block_error("snappy block without CRC");
      std::string_view body = payload.substr(0, payload.size() - 4);
      size_t n = 0;
      // Snappy expands at most ~21:1; a larger claimed length is corrupt.
      if (snappy_uncompressed_length(body.data(), body.size(), &n) != SNAPPY_OK || n > kMaxBlock ||
          n > body.size() * 32 + 1024) {
        return block_error("snappy: corrupt data");
      }
      if (block_buf_.size() < n) block_buf_.resize(n);
      if (snappy_uncompress(body.data(), body.size(), block_buf_.data(), &n) != SNAPPY_OK) {
        return block_error("snappy: corrupt data");
      }
      const auto* c = reinterpret_cast<const uint8_t*>(payload.data() + payload.size() - 4);
      uint32_t expected =
          (uint32_t{c[0]} << 24) | (uint32_t{c[1]} << 16) | (uint32_t{c[2]} << 8) | uint32_t{c[3]};
      if (crc32(std::string_view(block_buf_.data(), n)) != expected) {
        return block_error("snappy CRC mismatch");
      }
      return n;
    }
    case Codec::kZstd: {
      unsigned long long size = ZSTD_getFrameContentSize(payload.data(), payload.size());
      if (size == ZSTD_CONTENTSIZE_ERROR) return block_error("zstandard: corrupt data");
      if (size != ZSTD_CONTENTSIZE_UNKNOWN && size > kMaxZstdBlock) {
        return block_error("zstandard: block too large");
      }
      if (size != ZSTD_CONTENTSIZE_UNKNOWN && block_buf_.size() < size) {
        block_buf_.resize(size);
      }
      ZSTD_DCtx* dctx = thread_zstd_dctx();
      if (!dctx) return block_error("zstandard: cannot allocate a decompression context");
      while (true) {
        size_t n = ZSTD_decompressDCtx(dctx, block_buf_.data(), block_buf_.size(), payload.data(),
                                       payload.size());
        if (!ZSTD_isError(n)) return n;
        if (ZSTD_getErrorCode(n) != ZSTD_error_dstSize_tooSmall ||
            block_buf_.size() >= kMaxZstdBlock) {
          return block_error(std::string("zstandard: ") + ZSTD_getErrorName(n));
        }
        block_buf_.resize(block_buf_.size() * 2);
      }
    }
    case Codec::kNull:
      break;
  }
  return size_t{0};
}

Status ContainerReader::finish_block() {
  if (!decoder_.ok()) {
    return invalid_data("{}: invalid Avro data in block at offset {} (byte {} of the block): {}",
                        path_, block_offset_, decoder_.error_offset(), decoder_.error());
  }
  if (!decoder_.at_end()) return block_error("trailing bytes after the block's objects");
  return Status::OK();
}

namespace {

std::string random_sync() {
  std::random_device rd;
  std::mt19937_64 rng((uint64_t{rd()} << 32) ^ rd());
  std::string s(16, '\0');
  for (auto& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}

}  // namespace

ContainerWriter::ContainerWriter(const AvroSchema& schema,
                                 const std::map<std::string, std::string>& metadata,
                                 ContainerWriterOptions options)
    : ContainerWriter(schema.to_json(), metadata, std::move(options)) {}

ContainerWriter::ContainerWriter(std::string schema_json,
                                 const std::map<std::string, std::string>& metadata,
                                 ContainerWriterOptions options)
    : options_(std::move(options)) {
  sync_ = options_.sync_marker.size() == 16 ? options_.sync_marker : random_sync();
  Encoder header;
  header.buffer().append(kAvroMagic);
  std::map<std::string, std::string> meta = metadata;
  meta["avro.schema"] = std::move(schema_json);
  meta["avro.codec"] = codec_name(options_.codec);
  header.write_long(static_cast<int64_t>(meta.size()));
  for (const auto& [k, v] : meta) {
    header.write_string(k);
    header.write_bytes(v);
  }
  header.write_long(0);
  header.write_fixed(sync_);
  out_ = std::move(header.buffer());
  block_.buffer().reserve(options_.block_size + 4096);
}

Status ContainerWriter::end_object() {
  ++block_objects_;
  ++total_objects_;
  if (block_.size() >= options_.block_size) return flush_block();
  return Status::OK();
}

Status ContainerWriter::flush_block() {
  if (block_objects_ == 0) return Status::OK();
  std::string_view raw = block_.buffer();
  std::string compressed;
  std::string_view payload = raw;
  switch (options_.codec) {
    case Codec::kNull:
      break;
    case Codec::kDeflate:
      compressed = FLOE_TRY(deflate_raw_compress(raw, options_.level < 0 ? 6 : options_.level));
      payload = compressed;
      break;
    case Codec::kSnappy: {
      compressed = FLOE_TRY(snappy_compress(raw));
      uint32_t c = crc32(raw);
      char trailer[4] = {static_cast<char>(c >> 24), static_cast<char>(c >> 16),
                         static_cast<char>(c >> 8), static_cast<char>(c)};
      compressed.append(trailer, 4);
      payload = compressed;
      break;
    }
    case Codec::kZstd:
      compressed = FLOE_TRY(zstd_compress(raw, options_.level < 0 ? 3 : options_.level));
      payload = compressed;
      break;
  }
  Encoder head;
  head.write_long(block_objects_);
  head.write_long(static_cast<int64_t>(payload.size()));
  out_.append(head.buffer());
  out_.append(payload);
  out_.append(sync_);
  block_.clear();
  block_objects_ = 0;
  return Status::OK();
}

Result<std::string> ContainerWriter::finish() {
  if (finished_) return invalid_argument("Avro container writer already finished");
  FLOE_TRY(flush_block());
  finished_ = true;
  return std::move(out_);
}

}  // namespace floe::avro
