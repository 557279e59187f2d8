// Decimal text (plain, BigDecimal) and Appendix D bytes.
#include "floe/util/decimal.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace floe {

namespace {

using uint128_t = unsigned __int128;

std::string u128_to_string(uint128_t v) {
  if (v == 0) return "0";
  char buf[48];
  int pos = sizeof(buf);
  while (v != 0) {
    buf[--pos] = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  }
  return std::string(buf + pos, sizeof(buf) - pos);
}

uint128_t abs_u128(int128_t v) {
  return v < 0 ? uint128_t(0) - static_cast<uint128_t>(v) : static_cast<uint128_t>(v);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool parse_decimal_text(std::string_view s, int128_t* unscaled, int* scale) {
  size_t pos = 0;
  bool negative = false;
  if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    negative = s[pos] == '-';
    ++pos;
  }
  uint128_t v = 0;
  int digits = 0;
  int significant = 0;
  int frac_digits = 0;
  bool seen_point = false;
  for (; pos < s.size(); ++pos) {
    char c = s[pos];
    if (c == '.') {
      if (seen_point) return false;
      seen_point = true;
      continue;
    }
    if (!is_digit(c)) break;
    ++digits;
    if (seen_point) ++frac_digits;
    if (v != 0 || c != '0') ++significant;
    if (significant > kMaxDecimalDigits) return false;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  if (digits == 0) return false;
  int64_t exponent = 0;
  if (pos < s.size() && (s[pos] == 'e' || s[pos] == 'E')) {
    ++pos;
    bool exp_negative = false;
    if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
      exp_negative = s[pos] == '-';
      ++pos;
    }
    size_t start = pos;
    while (pos < s.size() && is_digit(s[pos])) {
      if (pos - start >= 9) return false;
      exponent = exponent * 10 + (s[pos] - '0');
      ++pos;
    }
    if (pos == start) return false;
    if (exp_negative) exponent = -exponent;
  }
  if (pos != s.size()) return false;
  int64_t sc = frac_digits - exponent;
  if (sc > std::numeric_limits<int32_t>::max() || sc < std::numeric_limits<int32_t>::min()) {
    return false;
  }
  *unscaled = negative ? -static_cast<int128_t>(v) : static_cast<int128_t>(v);
  *scale = static_cast<int>(sc);
  return true;
}

std::string java_decimal_to_string(int128_t unscaled, int scale) {
  std::string coeff = u128_to_string(abs_u128(unscaled));
  std::string sign = unscaled < 0 ? "-" : "";
  int64_t adjusted = -int64_t(scale) + int64_t(coeff.size()) - 1;
  if (scale >= 0 && adjusted >= -6) return format_decimal(unscaled, scale);
  std::string out = sign + coeff.substr(0, 1);
  if (coeff.size() > 1) out += "." + coeff.substr(1);
  out += "E";
  if (adjusted >= 0) out += "+";
  return out + std::to_string(adjusted);
}

std::string format_decimal(int128_t unscaled, int scale) {
  if (scale < 0) return java_decimal_to_string(unscaled, scale);
  std::string digits = u128_to_string(abs_u128(unscaled));
  std::string sign = unscaled < 0 ? "-" : "";
  if (scale == 0) return sign + digits;
  if (digits.size() <= static_cast<size_t>(scale)) {
    digits.insert(0, static_cast<size_t>(scale) + 1 - digits.size(), '0');
  }
  size_t point = digits.size() - static_cast<size_t>(scale);
  return sign + digits.substr(0, point) + "." + digits.substr(point);
}

Result<int128_t> parse_decimal(std::string_view text, int scale) {
  int128_t unscaled = 0;
  int text_scale = 0;
  if (!parse_decimal_text(text, &unscaled, &text_scale)) {
    return invalid_data("invalid decimal '{}'", text);
  }
  if (text_scale == scale) return unscaled;
  if (text_scale < scale) {
    int shift = scale - text_scale;
    if (decimal_digit_count(unscaled) + shift > kMaxDecimalDigits && unscaled != 0) {
      return invalid_data("decimal '{}' does not fit 38 digits at scale {}", text, scale);
    }
    return unscaled * pow10_i128(std::min(shift, kMaxDecimalDigits));
  }
  // More digits than the scale allows: only exact when the extra digits are zeros.
  int shift = text_scale - scale;
  if (shift > kMaxDecimalDigits) {
    if (unscaled == 0) return int128_t(0);
    return invalid_data("decimal '{}' has more digits than scale {} allows", text, scale);
  }
  int128_t p = pow10_i128(shift);
  if (unscaled % p != 0) {
    return invalid_data("decimal '{}' has more digits than scale {} allows", text, scale);
  }
  return unscaled / p;
}

std::string decimal_to_bytes(int128_t unscaled) {
  // Minimal length: drop leading bytes that only repeat the sign of the next byte.
  std::string be(16, '\0');
  auto u = static_cast<uint128_t>(unscaled);
  for (int i = 15; i >= 0; --i) {
    be[i] = static_cast<char>(static_cast<uint8_t>(u & 0xFF));
    u >>= 8;
  }
  size_t start = 0;
  while (start < 15) {
    auto b = static_cast<uint8_t>(be[start]);
    auto next = static_cast<uint8_t>(be[start + 1]);
    if ((b == 0x00 && (next & 0x80) == 0) || (b == 0xFF && (next & 0x80) != 0)) {
      ++start;
    } else {
      break;
    }
  }
  return be.substr(start);
}

int128_t decimal_from_bytes(std::string_view bytes) {
  if (bytes.empty()) return 0;
  uint128_t v = (static_cast<uint8_t>(bytes[0]) & 0x80) ? ~uint128_t(0) : 0;
  for (char c : bytes) v = (v << 8) | static_cast<uint8_t>(c);
  return static_cast<int128_t>(v);
}

}  // namespace floe
