// Deletion vectors (Iceberg spec v3, "Deletion Vectors"; Puffin spec, "deletion-vector-v1"):
// the blob encoding, a Puffin file builder, and a writer that puts one deletion vector per data
// file into one Puffin file and returns the delete-file entries a commit adds.
//
// A blob is: u32 big-endian length of (magic + bitmap), magic D1 D3 39 64, the bitmap in the
// portable 64-bit Roaring format, and a big-endian CRC-32 of magic + bitmap. The portable format
// is a u64 count of 32-bit bitmaps, then per key (the high 32 bits of a position, ascending) the
// u32 key and a standard 32-bit Roaring bitmap (RoaringFormatSpec). As in Java's writer,
// containers hold up to 4096 values as an array and more as a bitmap, and a container becomes
// runs where that is strictly smaller (Java's runOptimize), so Java and floe write the same bytes
// for the same positions below 2^32. Only keys with positions get a bitmap (Java also writes
// empty ones for the keys below its largest; readers take both).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/io/file_io.h"
#include "floe/manifest/manifest.h"
#include "floe/read/puffin.h"

namespace floe {

inline constexpr std::string_view kDeletionVectorBlobType = "deletion-vector-v1";
inline constexpr std::string_view kPuffinFileFormat = "PUFFIN";
// The largest position a deletion vector holds (Java's RoaringPositionBitmap.MAX_POSITION: key
// 2^31 - 2, low half 2^31).
inline constexpr int64_t kMaxDeletionVectorPosition =
    (int64_t{0x7FFFFFFE} << 32) | int64_t{0x80000000};
// The `created-by` property of the Puffin files floe writes.
inline constexpr std::string_view kPuffinCreatedBy = "floe version 0.1.0";

// The portable 64-bit Roaring bytes of `positions`, which must be ascending, unique and within
// [0, kMaxDeletionVectorPosition] (else kInvalidArgument naming the first bad one).
Result<std::string> encode_roaring64_portable(std::span<const int64_t> positions);

// A complete deletion-vector-v1 blob (length, magic, bitmap, CRC) of `positions` (as above).
Result<std::string> encode_deletion_vector(std::span<const int64_t> positions);

// Builds a Puffin file in memory: magic PFA1, the blobs in the order added, then the footer
// `PFA1 | JSON | JSON size (u32 LE) | flags (4 zero bytes: uncompressed) | PFA1`. The footer
// JSON has Java's field order: blobs (type, fields, snapshot-id, sequence-number, offset,
// length, compression-codec when set, properties when any) and the file properties, with
// `created-by` set.
class PuffinFileBuilder {
 public:
  explicit PuffinFileBuilder(std::string created_by = std::string(kPuffinCreatedBy));

  // Appends `bytes` as a blob described by `blob`; its offset and length are set here. Returns
  // the blob's metadata as the footer will list it.
  const PuffinBlob& add(PuffinBlob blob, std::string_view bytes);
  void set_property(std::string key, std::string value);
  const std::vector<PuffinBlob>& blobs() const { return blobs_; }
  // The footer's JSON payload.
  std::string footer_json() const;
  // The whole file.
  std::string finish() const;

 private:
  std::string body_;  // magic and blobs
  std::vector<PuffinBlob> blobs_;
  std::map<std::string, std::string> properties_;
};

// Collects the deleted positions of data files and writes them as one Puffin file holding one
// deletion vector per data file (Java's BaseDVFileWriter). Each returned DataFile is a
// position-delete entry of format PUFFIN: the Puffin file's path and size, referenced_data_file,
// content_offset and content_size_in_bytes of its blob, record_count = the vector's cardinality,
// and the data file's spec id and partition.
class DeletionVectorWriter {
 public:
  DeletionVectorWriter(FileIOPtr io, std::string path,
                       std::string created_by = std::string(kPuffinCreatedBy));

  // Positions in any order; duplicates and repeated calls for one file add up. A data file
  // with a known record_count rejects positions past it.
  Status add(const DataFile& data_file, std::span<const int64_t> positions);
  Status add(std::string_view data_file_path, int32_t spec_id,
             const std::vector<Literal>& partition, std::span<const int64_t> positions);
  // Data files with positions so far.
  size_t data_file_count() const { return files_.size(); }
  // Writes the file (nothing when no positions were added: an empty list) and returns one
  // DataFile per data file, in data-file path order. Call once.
  Result<std::vector<DataFile>> close();
  // Deletes the file if close() wrote it.
  Status abort();
  const std::string& path() const { return path_; }

 private:
  struct Entry {
    int32_t spec_id = 0;
    std::vector<Literal> partition;
    std::vector<int64_t> positions;
  };
  FileIOPtr io_;
  std::string path_;
  std::string created_by_;
  std::map<std::string, Entry, std::less<>> files_;
  bool closed_ = false;
  bool written_ = false;
};

}  // namespace floe
