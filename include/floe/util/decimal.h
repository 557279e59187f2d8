// Decimals as a 128-bit unscaled value and a scale (Iceberg spec, Primitive Types: decimal(P,S)):
// their text (plain and Java's BigDecimal.toString) and their minimal big-endian
// two's-complement bytes (Appendix D).
#pragma once

#include <string>
#include <string_view>

#include "floe/util/int128.h"
#include "floe/util/result.h"

namespace floe {

constexpr int kMaxDecimalDigits = 38;

// Decimal text: unscaled 1420, scale 2 -> "14.20"; negative scale -> scientific ("2E+20").
std::string format_decimal(int128_t unscaled, int scale);
Result<int128_t> parse_decimal(std::string_view text, int scale);  // exact; rejects extra digits
// A decimal number as Java's BigDecimal(String) reads it: its unscaled value and its own scale
// ("1.50" -> 150, 2; "1E+3" -> 1, -3). False if not a number or more than 38 digits.
bool parse_decimal_text(std::string_view text, int128_t* unscaled, int* scale);
// Java's BigDecimal.toString (scientific for negative scale or tiny adjusted exponents).
std::string java_decimal_to_string(int128_t unscaled, int scale);

// Minimal big-endian two's-complement bytes (14.20 -> 05 8C) and back.
std::string decimal_to_bytes(int128_t unscaled);
int128_t decimal_from_bytes(std::string_view bytes);

// Digits of |unscaled| (1 for 0), and 10^n for 0 <= n <= 38.
inline int decimal_digit_count(int128_t unscaled) {
  using uint128 = unsigned __int128;
  uint128 v =
      unscaled < 0 ? uint128(0) - static_cast<uint128>(unscaled) : static_cast<uint128>(unscaled);
  int n = 1;
  while (v >= 10) {
    v /= 10;
    ++n;
  }
  return n;
}
inline int128_t pow10_i128(int n) {
  int128_t p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

}  // namespace floe
