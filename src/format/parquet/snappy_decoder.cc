#include <cstring>

#include "format/parquet/snappy_decoder_internal.h"

namespace floe::parquet::internal {

namespace {

inline void copy16(uint8_t* dst, const uint8_t* src) {
  uint8_t tmp[16];
  std::memcpy(tmp, src, 16);
  std::memcpy(dst, tmp, 16);
}

inline void copy8(uint8_t* dst, const uint8_t* src) {
  uint8_t tmp[8];
  std::memcpy(tmp, src, 8);
  std::memcpy(dst, tmp, 8);
}

inline uint32_t load_le(const uint8_t* p, int bytes) {
  uint32_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint32_t{p[i]} << (8 * i);
  return v;
}

}  // namespace

bool snappy_declared_length(const uint8_t* src, size_t n, uint64_t* length) {
  uint64_t v = 0;
  for (size_t i = 0; i < n && i < 5; ++i) {
    v |= uint64_t{src[i] & 0x7Fu} << (7 * i);
    if ((src[i] & 0x80) == 0) {
      if (v > 0xFFFFFFFFu) return false;
      *length = v;
      return true;
    }
  }
  return false;
}

namespace {

// Decodes elements until the input ends or, with kRoomy, until fewer than 21 input or 80 output
// bytes are left: while there are that many, a tag with its longest extra bytes and a 16-byte
// literal can be read, and the longest copy (64 bytes) rounded up to 16 written, so only a
// copy's offset (and a long literal's length) needs checking. Short literals and copies then
// move in whole 16-byte steps and may write past their end; the bytes there are written again
// before anything reads them. Returns false on a corrupt block.
template <bool kRoomy>
bool decode_elements(const uint8_t*& ip, const uint8_t* ip_end, uint8_t*& op, uint8_t* dst,
                     uint8_t* op_end) {
  while (kRoomy ? ip_end - ip >= 21 && op_end - op >= 80 : ip < ip_end) {
    const uint8_t tag = *ip++;
    const uint32_t kind = tag & 3u;
    if (kind == 0) {  // literal
      size_t len = (tag >> 2) + 1u;
      if (len > 60) {
        int extra = static_cast<int>(len - 60);  // 1-4 little-endian length bytes
        if (!kRoomy && ip_end - ip < extra) return false;
        len = size_t{load_le(ip, extra)} + 1;
        ip += extra;
      }
      if (!kRoomy || len > 16) {
        if (static_cast<size_t>(ip_end - ip) < len || static_cast<size_t>(op_end - op) < len) {
          return false;
        }
      }
      if (len <= 16 && (kRoomy || (ip_end - ip >= 16 && op_end - op >= 16))) {
        copy16(op, ip);
      } else {
        std::memcpy(op, ip, len);
      }
      ip += len;
      op += len;
      continue;
    }
    size_t len, offset;
    if (kind == 1) {  // copy, 11-bit offset
      if (!kRoomy && ip == ip_end) return false;
      len = ((tag >> 2) & 7u) + 4u;
      offset = (static_cast<size_t>(tag >> 5) << 8) | *ip++;
    } else {
      int bytes = kind == 2 ? 2 : 4;
      if (!kRoomy && ip_end - ip < bytes) return false;
      len = (tag >> 2) + 1u;
      offset = kind == 2 ? size_t{ip[0]} | size_t{ip[1]} << 8 : size_t{load_le(ip, 4)};
      ip += bytes;
    }
    // An offset of 0 wraps around to fail too.
    if (offset - 1 >= static_cast<size_t>(op - dst)) return false;
    if (!kRoomy && len > static_cast<size_t>(op_end - op)) return false;
    const uint8_t* from = op - offset;
    const auto room = op_end - op;
    if (offset >= 16 && (kRoomy || room >= static_cast<ptrdiff_t>(len) + 16)) {
      // Each 16-byte step reads bytes at least 16 behind the ones it writes: already final.
      for (size_t i = 0; i < len; i += 16) copy16(op + i, from + i);
    } else if (offset >= 8 && (kRoomy || room >= static_cast<ptrdiff_t>(len) + 8)) {
      for (size_t i = 0; i < len; i += 8) copy8(op + i, from + i);
    } else {
      for (size_t i = 0; i < len; ++i) op[i] = from[i];  // a repeating pattern, byte by byte
    }
    op += len;
  }
  return true;
}

}  // namespace

bool snappy_decompress(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size) {
  const uint8_t* ip = src;
  const uint8_t* const ip_end = src + n;
  uint64_t declared = 0;
  if (!snappy_declared_length(src, n, &declared) || declared != dst_size) return false;
  while (*ip & 0x80) ++ip;
  ++ip;
  uint8_t* op = dst;
  uint8_t* const op_end = dst + dst_size;
  if (!decode_elements<true>(ip, ip_end, op, dst, op_end)) return false;
  if (!decode_elements<false>(ip, ip_end, op, dst, op_end)) return false;
  return op == op_end;
}

}  // namespace floe::parquet::internal
