// Avro object container files: the header (magic, key-value metadata with avro.schema and
// avro.codec, 16-byte sync marker) and data blocks compressed with the null, deflate (raw),
// snappy (+ big-endian CRC-32 of the uncompressed block) or zstandard codec. Readers take the
// whole file in memory (manifests are at most a few MB); every error names the file and the
// byte offset.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "floe/format/avro/binary.h"
#include "floe/format/avro/schema.h"
#include "floe/util/result.h"

namespace floe::avro {

enum class Codec : uint8_t { kNull, kDeflate, kSnappy, kZstd };

const char* codec_name(Codec codec);  // "null", "deflate", "snappy", "zstandard"
// Accepts the Avro names; "zstd" and "gzip" (Iceberg's property value for deflate) too.
Result<Codec> parse_codec(std::string_view name);

inline constexpr std::string_view kAvroMagic{"Obj\x01", 4};

class ContainerReader {
 public:
  // Parses the header of `data` (the whole file). `path` is used in error messages.
  static Result<std::unique_ptr<ContainerReader>> open(std::string data, std::string path);
  // Same over bytes the caller keeps alive for the reader's lifetime (no copy).
  static Result<std::unique_ptr<ContainerReader>> open_view(std::string_view data,
                                                            std::string path);

  const AvroSchema& schema() const { return *schema_; }
  const std::string& schema_json() const { return schema_json_; }
  Codec codec() const { return codec_; }
  // Header key-value metadata, including avro.schema and avro.codec.
  const std::map<std::string, std::string>& metadata() const { return metadata_; }
  // A metadata value, or nullptr.
  const std::string* meta(const std::string& key) const;
  const std::string& path() const { return path_; }
  size_t file_size() const { return data_.size(); }

  // Objects of a schema that encodes in zero bytes (records of nulls) a block may claim.
  static constexpr int64_t kMaxEmptyObjectsPerBlock = int64_t{1} << 24;

  // Advances to the next block. Returns false at the end of the file. After true, decoder()
  // reads block_count() objects from the decompressed block. A block whose count its bytes
  // cannot hold (min_encoded_size of the schema) is an error, so block_count() bounds work and
  // memory by the file's size.
  Result<bool> next_block();
  int64_t block_count() const { return block_count_; }
  Decoder& decoder() { return decoder_; }
  // File offset of the current block (for error messages).
  size_t block_offset() const { return block_offset_; }
  // After decoding a block's objects: checks the decoder and that the block was consumed.
  Status finish_block();
  // An invalid-data error naming the file and the current block.
  Status block_error(std::string_view what) const;

 private:
  ContainerReader() = default;
  Status header_error(size_t offset, std::string_view what) const;
  Status init(std::string_view data, std::string path);
  Result<size_t> decompress_block(std::string_view payload);

  std::string owned_;
  std::string_view data_;
  std::string path_;
  std::shared_ptr<const AvroSchema> schema_;  // shared: parsed once per distinct schema text
  std::string schema_json_;
  Codec codec_ = Codec::kNull;
  std::map<std::string, std::string> metadata_;
  std::string sync_;
  size_t pos_ = 0;  // next block
  size_t block_offset_ = 0;
  int64_t block_count_ = 0;
  int64_t min_object_size_ = 0;     // min_encoded_size of the schema
  std::string block_buf_;           // decompressed block (reused, only grows)
  std::shared_ptr<void> inflater_;  // libdeflate decompressor
  Decoder decoder_;
};

struct ContainerWriterOptions {
  Codec codec = Codec::kDeflate;
  // Codec level; -1 = the codec's default (deflate 6, zstd 3).
  int level = -1;
  // Flush a block once this many uncompressed bytes are buffered (Java: 64 KB sync interval).
  size_t block_size = 64 * 1024;
  // 16 bytes; empty = random.
  std::string sync_marker;
};

// Writes a container file into memory. Append each object's encoding through encoder() and
// call end_object(); finish() returns the file bytes.
class ContainerWriter {
 public:
  ContainerWriter(const AvroSchema& schema, const std::map<std::string, std::string>& metadata,
                  ContainerWriterOptions options = {});
  ContainerWriter(std::string schema_json, const std::map<std::string, std::string>& metadata,
                  ContainerWriterOptions options = {});

  Encoder& encoder() { return block_; }
  Status end_object();
  // Bytes written so far plus the buffered block (uncompressed): an upper-bound estimate of
  // the file size, used to roll manifests.
  size_t estimated_size() const { return out_.size() + block_.size(); }
  int64_t object_count() const { return total_objects_; }
  Result<std::string> finish();

 private:
  Status flush_block();

  ContainerWriterOptions options_;
  std::string out_;
  Encoder block_;
  int64_t block_objects_ = 0;
  int64_t total_objects_ = 0;
  std::string sync_;
  bool finished_ = false;
};

}  // namespace floe::avro
