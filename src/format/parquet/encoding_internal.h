// Parquet value and level encodings: RLE / bit-packed hybrid, DELTA_BINARY_PACKED,
// DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, and the encoders the writer
// uses. Every decoder is bounds-checked against its input and fails with kInvalidData.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/format/parquet/metadata.h"
#include "floe/util/result.h"

namespace floe::parquet::internal {

inline uint64_t load_le64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline uint32_t load_le32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// RLE / bit-packed hybrid (levels, dictionary indices, RLE booleans). No length prefix.
class RleDecoder {
 public:
  RleDecoder() = default;
  RleDecoder(const uint8_t* p, size_t n, int bit_width)
      : p_(p), end_(p + n), bit_width_(bit_width) {}

  // Decodes up to n values; returns how many were decoded (fewer only at the end of data).
  template <typename T>
  int64_t get(T* out, int64_t n) {
    int64_t done = 0;
    while (done < n) {
      if (rle_left_ == 0 && bp_left_ == 0 && !next_run()) break;
      if (rle_left_ > 0) {
        int64_t k = std::min(rle_left_, n - done);
        T v = static_cast<T>(rle_value_);
        for (int64_t i = 0; i < k; ++i) out[done + i] = v;
        rle_left_ -= k;
        done += k;
      } else {
        int64_t k = std::min(bp_left_, n - done);
        unpack(out + done, k);
        bp_left_ -= k;
        done += k;
      }
    }
    return done;
  }
  // The next stretch of at most n values: a repeated run (*repeated set, its value in *value,
  // out untouched) or bit-packed values unpacked into out. Returns its length, 0 at the end.
  template <typename T>
  int64_t next_stretch(T* out, int64_t n, bool* repeated, T* value) {
    if (rle_left_ == 0 && bp_left_ == 0 && !next_run()) return 0;
    if (rle_left_ > 0) {
      int64_t k = std::min(rle_left_, n);
      *repeated = true;
      *value = static_cast<T>(rle_value_);
      rle_left_ -= k;
      return k;
    }
    int64_t k = std::min(bp_left_, n);
    unpack(out, k);
    bp_left_ -= k;
    *repeated = false;
    return k;
  }
  bool error() const { return error_; }

 private:
  bool next_run();
  template <typename T>
  void unpack(T* out, int64_t k) {
    const uint64_t mask = bit_width_ == 64 ? ~0ull : ((1ull << bit_width_) - 1);
    for (int64_t i = 0; i < k; ++i) {
      uint64_t bit = static_cast<uint64_t>(bp_pos_) * bit_width_;
      const uint8_t* q = bp_ptr_ + (bit >> 3);
      uint64_t word;
      if (q + 8 <= end_) {
        word = load_le64(q);
      } else {
        word = 0;
        std::memcpy(&word, q, static_cast<size_t>(end_ - q));
      }
      out[i] = static_cast<T>((word >> (bit & 7)) & mask);
      ++bp_pos_;
    }
  }

  const uint8_t* p_ = nullptr;
  const uint8_t* end_ = nullptr;
  int bit_width_ = 0;
  int64_t rle_left_ = 0;
  uint64_t rle_value_ = 0;
  int64_t bp_left_ = 0;
  const uint8_t* bp_ptr_ = nullptr;
  int64_t bp_pos_ = 0;
  bool error_ = false;
};

inline int bit_width_of(uint64_t max_value) {
  int w = 0;
  while (max_value) {
    ++w;
    max_value >>= 1;
  }
  return w;
}

// DELTA_BINARY_PACKED: decodes the whole stream (its header gives the count) into out
// (resized). *consumed receives the encoded length.
Status decode_delta_binary(const uint8_t* p, size_t n, std::vector<int64_t>* out, size_t* consumed);

// Encoders (writer side).
void encode_rle(const uint32_t* values, int64_t n, int bit_width, std::string* out);
void encode_rle(const int16_t* values, int64_t n, int bit_width, std::string* out);
void encode_bitpacked_run(const uint32_t* values, int64_t n, int bit_width, std::string* out);
// DELTA_BINARY_PACKED (blocks of 128 values in 4 miniblocks of 32, as parquet-mr writes them);
// int32 values take their deltas in 32-bit arithmetic, so each bit width is at most 32.
void encode_delta_binary(const int32_t* values, int64_t n, std::string* out);
void encode_delta_binary(const int64_t* values, int64_t n, std::string* out);

}  // namespace floe::parquet::internal
