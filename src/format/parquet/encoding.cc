#include <algorithm>
#include <limits>
#include <type_traits>

#include "format/parquet/encoding_internal.h"

namespace floe::parquet::internal {

namespace {

bool read_uleb(const uint8_t*& p, const uint8_t* end, uint64_t* v) {
  uint64_t r = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p >= end) return false;
    uint8_t b = *p++;
    r |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *v = r;
      return true;
    }
  }
  return false;
}

void put_uleb(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

}  // namespace

bool RleDecoder::next_run() {
  if (p_ >= end_ || bit_width_ < 0 || bit_width_ > 64) return false;
  uint64_t header;
  if (!read_uleb(p_, end_, &header)) {
    error_ = true;
    return false;
  }
  if (header & 1) {
    uint64_t groups = header >> 1;
    uint64_t bytes = groups * static_cast<uint64_t>(bit_width_);
    uint64_t avail = static_cast<uint64_t>(end_ - p_);
    if (bytes > avail) bytes = avail;  // a truncated last run: decode what is there
    bp_ptr_ = p_;
    bp_pos_ = 0;
    bp_left_ = bit_width_ == 0 ? static_cast<int64_t>(groups * 8)
                               : static_cast<int64_t>(bytes * 8 / bit_width_);
    p_ += bytes;
    return bp_left_ > 0;
  }
  rle_left_ = static_cast<int64_t>(header >> 1);
  int nbytes = (bit_width_ + 7) / 8;
  if (end_ - p_ < nbytes) {
    error_ = true;
    return false;
  }
  rle_value_ = 0;
  std::memcpy(&rle_value_, p_, static_cast<size_t>(nbytes));
  p_ += nbytes;
  return rle_left_ > 0 || next_run();
}

Status decode_delta_binary(const uint8_t* p, size_t n, std::vector<int64_t>* out,
                           size_t* consumed) {
  const uint8_t* start = p;
  const uint8_t* end = p + n;
  uint64_t block_size, miniblocks, total, first_zz;
  if (!read_uleb(p, end, &block_size) || !read_uleb(p, end, &miniblocks) ||
      !read_uleb(p, end, &total) || !read_uleb(p, end, &first_zz)) {
    return invalid_data("truncated DELTA_BINARY_PACKED header");
  }
  if (miniblocks == 0 || block_size == 0 || block_size % 128 != 0 || block_size % miniblocks != 0 ||
      (block_size / miniblocks) % 32 != 0 || block_size > (1u << 20)) {
    return invalid_data("bad DELTA_BINARY_PACKED block size {} / {} miniblocks", block_size,
                        miniblocks);
  }
  // Each block takes at least its min delta and bit widths (one byte each).
  if (total > (n / (1 + miniblocks) + 1) * block_size + 1) {
    return invalid_data("DELTA_BINARY_PACKED count {} too large for {} bytes", total, n);
  }
  uint64_t per_mini = block_size / miniblocks;
  out->resize(total);
  if (total == 0) {
    *consumed = static_cast<size_t>(p - start);
    return Status::OK();
  }
  int64_t* o = out->data();
  uint64_t last = (first_zz >> 1) ^ (~(first_zz & 1) + 1);
  o[0] = static_cast<int64_t>(last);
  uint64_t done = 1;
  while (done < total) {
    uint64_t min_zz;
    if (!read_uleb(p, end, &min_zz)) return invalid_data("truncated DELTA_BINARY_PACKED block");
    uint64_t min_delta = (min_zz >> 1) ^ (~(min_zz & 1) + 1);
    if (static_cast<uint64_t>(end - p) < miniblocks) {
      return invalid_data("truncated DELTA_BINARY_PACKED bit widths");
    }
    const uint8_t* widths = p;
    p += miniblocks;
    for (uint64_t m = 0; m < miniblocks && done < total; ++m) {
      int w = widths[m];
      if (w > 64) return invalid_data("DELTA_BINARY_PACKED bit width {}", w);
      uint64_t bytes = per_mini * static_cast<uint64_t>(w) / 8;
      if (static_cast<uint64_t>(end - p) < bytes) {
        return invalid_data("truncated DELTA_BINARY_PACKED miniblock");
      }
      uint64_t k = std::min<uint64_t>(per_mini, total - done);
      if (w == 0) {
        for (uint64_t i = 0; i < k; ++i) {
          last += min_delta;
          o[done + i] = static_cast<int64_t>(last);
        }
      } else {
        const uint64_t mask = w == 64 ? ~0ull : ((1ull << w) - 1);
        const uint8_t* mend = p + bytes;
        for (uint64_t i = 0; i < k; ++i) {
          uint64_t bit = i * static_cast<uint64_t>(w);
          const uint8_t* q = p + (bit >> 3);
          int shift = static_cast<int>(bit & 7);
          uint64_t v;
          if (q + 8 <= mend) {
            v = load_le64(q) >> shift;
            if (w + shift > 64) v |= static_cast<uint64_t>(q[8]) << (64 - shift);
          } else {
            uint8_t tmp[16] = {0};
            std::memcpy(tmp, q, static_cast<size_t>(mend - q));
            v = load_le64(tmp) >> shift;
            if (w + shift > 64) v |= static_cast<uint64_t>(tmp[8]) << (64 - shift);
          }
          last += min_delta + (v & mask);
          o[done + i] = static_cast<int64_t>(last);
        }
      }
      done += k;
      p += bytes;
    }
  }
  *consumed = static_cast<size_t>(p - start);
  return Status::OK();
}

namespace {

// One bit-packed run of values[0, n), padded with zeros to a multiple of 8 values. Bits are
// gathered in a 64-bit word and stored 4 bytes at a time.
template <typename T>
void bitpack(const T* values, int64_t n, int bit_width, std::string* out) {
  int64_t groups = (n + 7) / 8;
  put_uleb(static_cast<uint64_t>(groups) << 1 | 1, out);
  size_t base = out->size();
  size_t bytes = static_cast<size_t>(groups * bit_width);
  out->resize(base + bytes + 8, '\0');  // zero padding, and slack for the last store
  auto* dst = reinterpret_cast<uint8_t*>(out->data() + base);
  uint64_t acc = 0;
  int bits = 0;
  size_t pos = 0;
  const uint64_t mask = bit_width >= 32 ? 0xFFFFFFFFull : (uint64_t{1} << bit_width) - 1;
  for (int64_t i = 0; i < n; ++i) {
    acc |= (static_cast<uint64_t>(static_cast<uint32_t>(values[i])) & mask) << bits;
    bits += bit_width;
    if (bits >= 32) {
      auto word = static_cast<uint32_t>(acc);
      std::memcpy(dst + pos, &word, 4);
      pos += 4;
      acc >>= 32;
      bits -= 32;
    }
  }
  std::memcpy(dst + pos, &acc, 8);  // the last bits
  out->resize(base + bytes);
}

template <typename T>
void encode_rle_impl(const T* values, int64_t n, int bit_width, std::string* out) {
  // Runs of >= 8 equal values become RLE runs; everything else is bit-packed in groups of 8.
  // The values waiting to be bit-packed are always values[pending, i).
  int nbytes = (bit_width + 7) / 8;
  int64_t pending = 0;
  int64_t i = 0;
  while (i < n) {
    T v = values[i];
    int64_t j = i + 1;
    while (j < n && values[j] == v) ++j;
    // A run starts at a group boundary of the pending values: the first values of a long run
    // complete the pending group, and the rest is an RLE run if at least 8 remain.
    int64_t fill = (8 - (i - pending) % 8) % 8;
    if (j - i - fill >= 8) {
      if (i + fill > pending) bitpack(values + pending, i + fill - pending, bit_width, out);
      put_uleb(static_cast<uint64_t>(j - i - fill) << 1, out);
      auto u = static_cast<uint32_t>(v);
      out->append(reinterpret_cast<const char*>(&u), static_cast<size_t>(nbytes));
      pending = j;
    }
    i = j;
  }
  if (n > pending) bitpack(values + pending, n - pending, bit_width, out);
}

// Appends the low `w` bits of each of 32 values, least significant bit first (32 * w bits: whole
// bytes).
void pack_miniblock(const uint64_t* values, int w, std::string* out) {
  unsigned __int128 buf = 0;
  int bits = 0;
  for (int i = 0; i < 32; ++i) {
    buf |= static_cast<unsigned __int128>(values[i]) << bits;
    bits += w;
    while (bits >= 8) {
      out->push_back(static_cast<char>(static_cast<uint8_t>(buf)));
      buf >>= 8;
      bits -= 8;
    }
  }
}

uint64_t zigzag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

// U: the unsigned type the deltas wrap in (uint32_t for int32 columns, uint64_t for int64).
template <typename U, typename T>
void encode_delta_impl(const T* values, int64_t n, std::string* out) {
  using S = std::make_signed_t<U>;
  constexpr int64_t kBlock = 128, kMiniblocks = 4, kPerMini = kBlock / kMiniblocks;
  put_uleb(kBlock, out);
  put_uleb(kMiniblocks, out);
  put_uleb(static_cast<uint64_t>(n), out);
  put_uleb(zigzag(n > 0 ? static_cast<int64_t>(values[0]) : 0), out);
  uint64_t d[kBlock];
  for (int64_t b = 1; b < n; b += kBlock) {
    const int64_t k = std::min(kBlock, n - b);
    S min_delta = std::numeric_limits<S>::max();
    for (int64_t i = 0; i < k; ++i) {
      auto delta = static_cast<S>(
          static_cast<U>(static_cast<U>(values[b + i]) - static_cast<U>(values[b + i - 1])));
      min_delta = std::min(min_delta, delta);
    }
    for (int64_t i = 0; i < k; ++i) {
      U delta = static_cast<U>(static_cast<U>(values[b + i]) - static_cast<U>(values[b + i - 1]));
      d[i] = static_cast<U>(delta - static_cast<U>(min_delta));
    }
    std::fill(d + k, d + kBlock, 0);
    put_uleb(zigzag(static_cast<int64_t>(min_delta)), out);
    int widths[kMiniblocks] = {};
    for (int64_t m = 0; m < kMiniblocks && m * kPerMini < k; ++m) {
      uint64_t any = 0;
      for (int64_t i = m * kPerMini; i < (m + 1) * kPerMini; ++i) any |= d[i];
      widths[m] = bit_width_of(any);
    }
    for (int w : widths) out->push_back(static_cast<char>(w));
    for (int64_t m = 0; m < kMiniblocks && m * kPerMini < k; ++m) {
      if (widths[m] > 0) pack_miniblock(d + m * kPerMini, widths[m], out);
    }
  }
}

}  // namespace

void encode_delta_binary(const int32_t* values, int64_t n, std::string* out) {
  encode_delta_impl<uint32_t>(values, n, out);
}
void encode_delta_binary(const int64_t* values, int64_t n, std::string* out) {
  encode_delta_impl<uint64_t>(values, n, out);
}

void encode_bitpacked_run(const uint32_t* values, int64_t n, int bit_width, std::string* out) {
  bitpack(values, n, bit_width, out);
}

void encode_rle(const uint32_t* values, int64_t n, int bit_width, std::string* out) {
  encode_rle_impl(values, n, bit_width, out);
}
void encode_rle(const int16_t* values, int64_t n, int bit_width, std::string* out) {
  encode_rle_impl(values, n, bit_width, out);
}

}  // namespace floe::parquet::internal
