// Private: a decoder of the Snappy block format (the framing Parquet pages use: a varint of the
// uncompressed length, then literal and copy elements). libsnappy's decoder, as Debian builds
// it, calls libc memmove for every element; a page of 8-byte integers has a few elements per
// value, and those calls were half of reading a snappy column. Here short literals and copies
// move in fixed 16-byte steps inside the output (and input) bounds, with every offset and
// length checked, so corrupt pages fail instead of reading or writing out of bounds.
#pragma once

#include <cstddef>
#include <cstdint>

namespace floe::parquet::internal {

// The uncompressed length the block declares; false when the varint is malformed.
bool snappy_declared_length(const uint8_t* src, size_t n, uint64_t* length);

// Decompresses the block [src, src + n) into exactly dst_size bytes at dst. False when the
// block is corrupt, or decompresses to another length than dst_size.
bool snappy_decompress(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size);

}  // namespace floe::parquet::internal
