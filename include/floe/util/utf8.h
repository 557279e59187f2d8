// UTF-8 helpers shared across layers: sequence lengths, code point counting and offsets,
// truncation at a code point, decoding and encoding, and the increment of the last code point
// that Iceberg's truncated upper bounds need. Invalid bytes count as one-byte code points.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace floe {

// Length in bytes of the UTF-8 sequence whose first byte is `lead` (1 for an invalid byte).
inline size_t utf8_len(unsigned char lead) {
  return lead < 0x80           ? 1
         : (lead >> 5) == 0x6  ? 2
         : (lead >> 4) == 0xE  ? 3
         : (lead >> 3) == 0x1E ? 4
                               : 1;
}

// Number of code points of s (the bytes that are not continuation bytes).
inline int64_t utf8_count(std::string_view s) {
  int64_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Byte offset of code point k of s (clamped to s.size(); 0 for k <= 0).
inline size_t utf8_offset(std::string_view s, int64_t k) {
  size_t pos = 0;
  while (k > 0 && pos < s.size()) {
    pos += utf8_len(static_cast<unsigned char>(s[pos]));
    --k;
  }
  return std::min(pos, s.size());
}

// The first n code points of s (never splits a sequence; empty for n <= 0).
inline std::string_view utf8_truncate(std::string_view s, int64_t n) {
  return s.substr(0, utf8_offset(s, n));
}

// The code points of up to the first max_points sequences of s; *consumed gets their bytes. A
// sequence cut short by the end of s decodes as its first byte alone.
std::vector<uint32_t> utf8_decode(std::string_view s, size_t max_points, size_t* consumed);

// Appends the UTF-8 encoding of code point cp (at most U+10FFFF).
void utf8_append(uint32_t cp, std::string* out);

// The smallest string of code points greater than every string starting with s: s with its
// last code point below U+10FFFF incremented (U+D7FF steps over the surrogates to U+E000) and
// the ones after it dropped; nullopt when every code point is U+10FFFF. Iceberg's truncated
// upper bounds (Iceberg spec, Appendix B / Truncation).
std::optional<std::string> utf8_increment(std::string_view s);

}  // namespace floe
