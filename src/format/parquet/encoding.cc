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

}  // namespace

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
