// Compression codecs used by metadata JSON (gzip, and zstd as iceberg-go writes), Avro
// container files (raw deflate, snappy, zstd) and Parquet (snappy, gzip, zstd, lz4_raw).
// Decompression of untrusted input never over-reads and fails with kInvalidData.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "floe/util/result.h"

struct ZSTD_DCtx_s;  // zstd.h's ZSTD_DCtx

namespace floe {

// gzip member(s) (RFC 1952), as used by *.gz.metadata.json. Level 1-9 (zlib semantics).
Result<std::string> gzip_compress(std::string_view data, int level = 6);
Result<std::string> gzip_decompress(std::string_view data);
bool is_gzip(std::string_view data);  // 1f 8b

// Zstandard frame(s). Decompression handles frames without a content size.
Result<std::string> zstd_compress(std::string_view data, int level = 3);
Result<std::string> zstd_decompress(std::string_view data);
bool is_zstd(std::string_view data);  // 28 b5 2f fd
// The calling thread's zstd decompression context (null if it cannot be allocated), shared by
// every reader on the thread: Parquet pages, Avro blocks, whole frames. Each decompression is
// one call that leaves no state behind, and reading many small files would otherwise create
// and fault in a context per file.
::ZSTD_DCtx_s* thread_zstd_dctx();

// Raw deflate (RFC 1951, no header): Avro's "deflate" codec. `size_hint` (if > 0) is the
// expected output size.
Result<std::string> deflate_raw_compress(std::string_view data, int level = 6);
Result<std::string> deflate_raw_decompress(std::string_view data, size_t size_hint = 0);

// Snappy raw block format (Avro appends its own CRC-32 trailer; see crc32 below).
Result<std::string> snappy_compress(std::string_view data);
Result<std::string> snappy_decompress(std::string_view data);

// LZ4 block format (Parquet LZ4_RAW). Decompression needs the exact output size.
Result<std::string> lz4_raw_compress(std::string_view data);
Result<std::string> lz4_raw_decompress(std::string_view data, size_t output_size);

// CRC-32 (zlib polynomial, as Avro's snappy trailer and deletion vectors use).
uint32_t crc32(std::string_view data, uint32_t crc = 0);

}  // namespace floe
