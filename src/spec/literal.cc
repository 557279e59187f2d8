#include "floe/spec/literal.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

#include "floe/spec/type.h"
#include "spec/literal_internal.h"

namespace floe {

using spec_internal::floor_div;
using spec_internal::floor_mod;
using spec_internal::Fraction;
using spec_internal::kMicrosPerDay;
using spec_internal::kNanosPerDay;
using spec_internal::kNanosPerMicro;

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

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool hex_decode(std::string_view text, std::string* out) {
  if (text.size() % 2 != 0) return false;
  out->clear();
  out->reserve(text.size() / 2);
  for (size_t i = 0; i < text.size(); i += 2) {
    int hi = hex_value(text[i]);
    int lo = hex_value(text[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>((hi << 4) | lo));
  }
  return true;
}

// Reads exactly `n` digits at `*pos` into `*out`.
bool read_digits(std::string_view s, size_t* pos, size_t n, int64_t* out) {
  if (*pos + n > s.size()) return false;
  int64_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    char c = s[*pos + i];
    if (!is_digit(c)) return false;
    v = v * 10 + (c - '0');
  }
  *pos += n;
  *out = v;
  return true;
}

bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

unsigned days_in_month(int64_t y, unsigned m) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[m - 1];
}

// Parses [+-]YYYY-MM-DD (more than 4 year digits need a sign, as ISO-8601 and Java).
bool parse_date_prefix(std::string_view s, size_t* pos, int64_t* days) {
  bool negative = false;
  bool signed_year = false;
  if (*pos < s.size() && (s[*pos] == '+' || s[*pos] == '-')) {
    negative = s[*pos] == '-';
    signed_year = true;
    ++*pos;
  }
  size_t start = *pos;
  int64_t year = 0;
  while (*pos < s.size() && is_digit(s[*pos])) {
    if (*pos - start >= 9) return false;
    year = year * 10 + (s[*pos] - '0');
    ++*pos;
  }
  size_t ndigits = *pos - start;
  if (ndigits < 4 || (ndigits > 4 && !signed_year)) return false;
  if (negative) year = -year;
  int64_t month = 0, day = 0;
  if (*pos >= s.size() || s[*pos] != '-') return false;
  ++*pos;
  if (!read_digits(s, pos, 2, &month)) return false;
  if (*pos >= s.size() || s[*pos] != '-') return false;
  ++*pos;
  if (!read_digits(s, pos, 2, &day)) return false;
  if (month < 1 || month > 12) return false;
  if (day < 1 || day > days_in_month(year, static_cast<unsigned>(month))) return false;
  *days = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  return true;
}

// Parses HH:MM[:SS[.fraction]] (1 to 9 fraction digits) into nanoseconds of the day.
bool parse_time_prefix(std::string_view s, size_t* pos, int64_t* nanos) {
  int64_t h = 0, m = 0, sec = 0, frac = 0;
  if (!read_digits(s, pos, 2, &h)) return false;
  if (*pos >= s.size() || s[*pos] != ':') return false;
  ++*pos;
  if (!read_digits(s, pos, 2, &m)) return false;
  if (*pos < s.size() && s[*pos] == ':') {
    ++*pos;
    if (!read_digits(s, pos, 2, &sec)) return false;
    if (*pos < s.size() && s[*pos] == '.') {
      ++*pos;
      size_t start = *pos;
      while (*pos < s.size() && is_digit(s[*pos])) {
        if (*pos - start >= 9) return false;
        frac = frac * 10 + (s[*pos] - '0');
        ++*pos;
      }
      size_t n = *pos - start;
      if (n == 0) return false;
      for (size_t i = n; i < 9; ++i) frac *= 10;
    }
  }
  if (h > 23 || m > 59 || sec > 59) return false;
  *nanos = ((h * 60 + m) * 60 + sec) * spec_internal::kNanosPerSecond + frac;
  return true;
}

// Parses Z, +HH, +HHMM, +HH:MM or +HH:MM:SS into seconds east of UTC.
bool parse_offset(std::string_view s, size_t* pos, int64_t* seconds) {
  if (*pos >= s.size()) return false;
  char c = s[*pos];
  if (c == 'Z' || c == 'z') {
    ++*pos;
    *seconds = 0;
    return true;
  }
  if (c != '+' && c != '-') return false;
  ++*pos;
  int64_t h = 0, m = 0, sec = 0;
  if (!read_digits(s, pos, 2, &h)) return false;
  if (*pos < s.size()) {
    bool colon = s[*pos] == ':';
    if (colon) ++*pos;
    if (!read_digits(s, pos, 2, &m)) return false;
    if (colon && *pos < s.size() && s[*pos] == ':') {
      ++*pos;
      if (!read_digits(s, pos, 2, &sec)) return false;
    }
  }
  if (h > 18 || m > 59 || sec > 59) return false;
  *seconds = (h * 3600 + m * 60 + sec) * (c == '-' ? -1 : 1);
  return true;
}

// Parses an ISO local date-time with an optional offset into (days, nanos of day) in UTC.
// Returns an error message, or empty on success.
std::string parse_date_time(std::string_view text, bool tz, int128_t* epoch_nanos) {
  size_t pos = 0;
  int64_t days = 0, nanos = 0;
  if (!parse_date_prefix(text, &pos, &days)) return "expected yyyy-mm-dd";
  if (pos >= text.size() || (text[pos] != 'T' && text[pos] != 't' && text[pos] != ' ')) {
    return "expected 'T' after the date";
  }
  ++pos;
  if (!parse_time_prefix(text, &pos, &nanos)) return "expected hh:mm[:ss[.fraction]]";
  int64_t offset = 0;
  if (pos < text.size()) {
    if (!tz) return "unexpected zone offset for a timestamp without time zone";
    if (!parse_offset(text, &pos, &offset)) return "invalid zone offset";
  }
  if (pos != text.size()) return "unexpected trailing characters";
  *epoch_nanos =
      int128_t(days) * kNanosPerDay + nanos - int128_t(offset) * spec_internal::kNanosPerSecond;
  return {};
}

template <typename T>
void put_le(std::string* out, T v) {
  for (size_t i = 0; i < sizeof(T); ++i) {
    out->push_back(static_cast<char>((static_cast<uint64_t>(v) >> (8 * i)) & 0xFF));
  }
}

uint64_t get_le(std::string_view b) {
  uint64_t v = 0;
  for (size_t i = 0; i < b.size(); ++i) v |= uint64_t(static_cast<uint8_t>(b[i])) << (8 * i);
  return v;
}

int128_t pow10_i128(int n) {
  int128_t p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

constexpr int kMaxDecimalDigits = 38;

// A decimal number as Java's BigDecimal(String) reads it: unscaled value and scale.
bool parse_big_decimal(std::string_view s, int128_t* unscaled, int* scale) {
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

int decimal_digit_count(int128_t unscaled) {
  uint128_t v = abs_u128(unscaled);
  int n = 1;
  while (v >= 10) {
    v /= 10;
    ++n;
  }
  return n;
}

// Shortest round-trip digits of a double or float, and the decimal exponent of the first one.
template <typename F>
void shortest_digits(F v, std::string* digits, int* exponent) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  std::string_view s(buf, res.ptr - buf);
  size_t e = s.find('e');
  digits->clear();
  for (char c : s.substr(0, e)) {
    if (is_digit(c)) digits->push_back(c);
  }
  *exponent = std::stoi(std::string(s.substr(e + 1)));
  while (digits->size() > 1 && digits->back() == '0') digits->pop_back();
}

template <typename F>
std::string java_float_text(F v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  std::string out = std::signbit(v) ? "-" : "";
  std::string d;
  int e = 0;
  shortest_digits(std::fabs(v), &d, &e);
  if (e >= -3 && e < 7) {
    if (e >= 0) {
      std::string int_part = d.substr(0, std::min<size_t>(d.size(), e + 1));
      while (static_cast<int>(int_part.size()) < e + 1) int_part.push_back('0');
      std::string frac = d.size() > static_cast<size_t>(e + 1) ? d.substr(e + 1) : "0";
      return out + int_part + "." + frac;
    }
    return out + "0." + std::string(-e - 1, '0') + d;
  }
  out += d.substr(0, 1);
  out += ".";
  out += d.size() > 1 ? d.substr(1) : "0";
  return out + "E" + std::to_string(e);
}

// Integer-backed literals hold int32_t for int/date and int64_t for the rest.
bool is_int32_backed(TypeId id) { return id == TypeId::kInt || id == TypeId::kDate; }

int compare_float_values(double a, double b) {
  bool an = std::isnan(a), bn = std::isnan(b);
  if (an || bn) return an == bn ? 0 : (an ? 1 : -1);
  if (a < b) return -1;
  if (a > b) return 1;
  bool as = std::signbit(a), bs = std::signbit(b);
  if (as == bs) return 0;
  return as ? -1 : 1;
}

template <typename T>
int three_way(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int compare_bytes(const std::string& a, const std::string& b) {
  size_t n = std::min(a.size(), b.size());
  int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c < 0 ? -1 : 1;
  return three_way(a.size(), b.size());
}

}  // namespace

// ----------------------------------------------------------------------------------------------
// Text helpers

namespace spec_internal {

std::string format_time_of_day(int64_t nanos_of_day, Fraction style) {
  int64_t total_seconds = nanos_of_day / kNanosPerSecond;
  int64_t frac = nanos_of_day % kNanosPerSecond;
  int64_t h = total_seconds / 3600, m = (total_seconds / 60) % 60, s = total_seconds % 60;
  switch (style) {
    case Fraction::kMicros:
      return fmt::format("{:02d}:{:02d}:{:02d}.{:06d}", h, m, s, frac / 1000);
    case Fraction::kNanos:
      return fmt::format("{:02d}:{:02d}:{:02d}.{:09d}", h, m, s, frac);
    case Fraction::kTrimmed: {
      std::string out = fmt::format("{:02d}:{:02d}:{:02d}", h, m, s);
      if (frac != 0) {
        std::string f = fmt::format("{:09d}", frac);
        while (f.back() == '0') f.pop_back();
        out += "." + f;
      }
      return out;
    }
    case Fraction::kLocalTime: {
      std::string out = fmt::format("{:02d}:{:02d}", h, m);
      if (s == 0 && frac == 0) return out;
      out += fmt::format(":{:02d}", s);
      if (frac == 0) return out;
      if (frac % 1'000'000 == 0) return out + fmt::format(".{:03d}", frac / 1'000'000);
      if (frac % 1'000 == 0) return out + fmt::format(".{:06d}", frac / 1'000);
      return out + fmt::format(".{:09d}", frac);
    }
  }
  return {};
}

std::string format_date_time(int64_t days, int64_t nanos_of_day, Fraction style, bool tz) {
  std::string out = format_date(static_cast<int32_t>(days));
  out += 'T';
  out += format_time_of_day(nanos_of_day, style);
  if (tz) out += "+00:00";
  return out;
}

std::string format_micros(int64_t micros, Fraction style, bool tz) {
  int64_t days = floor_div(micros, kMicrosPerDay);
  int64_t rem = floor_mod(micros, kMicrosPerDay);
  return format_date_time(days, rem * kNanosPerMicro, style, tz);
}

std::string format_nanos(int64_t nanos, Fraction style, bool tz) {
  int64_t days = floor_div(nanos, kNanosPerDay);
  int64_t rem = floor_mod(nanos, kNanosPerDay);
  return format_date_time(days, rem, style, tz);
}

std::string java_double_to_string(double v) { return java_float_text(v); }
std::string java_float_to_string(float v) { return java_float_text(v); }

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

std::string hex_encode(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes) {
    auto b = static_cast<uint8_t>(c);
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 0xF]);
  }
  return out;
}

std::string base64_encode(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t n = (uint32_t(uint8_t(bytes[i])) << 16) | (uint32_t(uint8_t(bytes[i + 1])) << 8) |
                 uint32_t(uint8_t(bytes[i + 2]));
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(kAlphabet[(n >> 6) & 63]);
    out.push_back(kAlphabet[n & 63]);
  }
  size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t n = uint32_t(uint8_t(bytes[i])) << 16;
    if (rest == 2) n |= uint32_t(uint8_t(bytes[i + 1])) << 8;
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(n >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

}  // namespace spec_internal

int32_t days_from_civil(int64_t year, unsigned month, unsigned day) {
  // Howard Hinnant's days_from_civil: eras of 400 years starting in March.
  int64_t y = month <= 2 ? year - 1 : year;
  int64_t era = floor_div(y, 400);
  int64_t yoe = y - era * 400;
  int64_t mp = month > 2 ? month - 3 : month + 9;
  int64_t doy = (153 * mp + 2) / 5 + day - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return static_cast<int32_t>(era * 146097 + doe - 719468);
}

void civil_from_days(int64_t days, int64_t* year, unsigned* month, unsigned* day) {
  int64_t z = days + 719468;
  int64_t era = floor_div(z, 146097);
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  *day = static_cast<unsigned>(doy - (153 * mp + 2) / 5 + 1);
  *month = static_cast<unsigned>(mp < 10 ? mp + 3 : mp - 9);
  *year = yoe + era * 400 + (*month <= 2 ? 1 : 0);
}

std::string format_date(int32_t days) {
  int64_t y = 0;
  unsigned m = 0, d = 0;
  civil_from_days(days, &y, &m, &d);
  std::string year;
  if (y > 9999) {
    year = fmt::format("+{}", y);
  } else if (y < 0) {
    year = fmt::format("-{:04d}", -y);
  } else {
    year = fmt::format("{:04d}", y);
  }
  return fmt::format("{}-{:02d}-{:02d}", year, m, d);
}

std::string format_time(int64_t micros) {
  return spec_internal::format_time_of_day(floor_mod(micros, kMicrosPerDay) * kNanosPerMicro,
                                           Fraction::kMicros);
}

std::string format_timestamp(int64_t micros, bool tz) {
  return spec_internal::format_micros(micros, Fraction::kMicros, tz);
}

std::string format_timestamp_ns(int64_t nanos, bool tz) {
  return spec_internal::format_nanos(nanos, Fraction::kNanos, tz);
}

Result<int32_t> parse_date(std::string_view text) {
  size_t pos = 0;
  int64_t days = 0;
  if (!parse_date_prefix(text, &pos, &days) || pos != text.size()) {
    return invalid_data("invalid date '{}': expected yyyy-mm-dd", text);
  }
  return static_cast<int32_t>(days);
}

Result<int64_t> parse_time(std::string_view text) {
  size_t pos = 0;
  int64_t nanos = 0;
  if (!parse_time_prefix(text, &pos, &nanos) || pos != text.size()) {
    return invalid_data("invalid time '{}': expected hh:mm[:ss[.ffffff]]", text);
  }
  return nanos / kNanosPerMicro;
}

Result<int64_t> parse_timestamp(std::string_view text, bool tz) {
  int128_t nanos = 0;
  std::string err = parse_date_time(text, tz, &nanos);
  if (!err.empty())
    return invalid_data("invalid {} '{}': {}", tz ? "timestamptz" : "timestamp", text, err);
  // Sub-microsecond digits are dropped towards negative infinity, as Java's MICROS.between.
  int128_t micros = nanos / kNanosPerMicro;
  if (nanos % kNanosPerMicro < 0) micros -= 1;
  if (micros > std::numeric_limits<int64_t>::max() ||
      micros < std::numeric_limits<int64_t>::min()) {
    return invalid_data("timestamp '{}' is out of range", text);
  }
  return static_cast<int64_t>(micros);
}

Result<int64_t> parse_timestamp_ns(std::string_view text, bool tz) {
  int128_t nanos = 0;
  std::string err = parse_date_time(text, tz, &nanos);
  if (!err.empty()) {
    return invalid_data("invalid {} '{}': {}", tz ? "timestamptz_ns" : "timestamp_ns", text, err);
  }
  if (nanos > std::numeric_limits<int64_t>::max() || nanos < std::numeric_limits<int64_t>::min()) {
    return invalid_data("nanosecond timestamp '{}' is out of range (years 1677 to 2262)", text);
  }
  return static_cast<int64_t>(nanos);
}

std::string format_decimal(int128_t unscaled, int scale) {
  if (scale < 0) return spec_internal::java_decimal_to_string(unscaled, scale);
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
  if (!parse_big_decimal(text, &unscaled, &text_scale)) {
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

// ----------------------------------------------------------------------------------------------
// Uuid

std::string Uuid::to_string() const {
  std::string hex = spec_internal::hex_encode(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

Result<Uuid> Uuid::parse(std::string_view text) {
  Uuid out;
  if (text.size() != 36) return invalid_data("invalid uuid '{}': expected 36 characters", text);
  size_t b = 0;
  for (size_t i = 0; i < text.size();) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (text[i] != '-') return invalid_data("invalid uuid '{}': expected '-' at {}", text, i);
      ++i;
      continue;
    }
    int hi = hex_value(text[i]);
    int lo = hex_value(text[i + 1]);
    if (hi < 0 || lo < 0) return invalid_data("invalid uuid '{}': not a hex digit", text);
    out.bytes[b++] = static_cast<uint8_t>((hi << 4) | lo);
    i += 2;
  }
  return out;
}

// ----------------------------------------------------------------------------------------------
// Literal factories and accessors

Literal Literal::null(TypePtr type) { return Literal(std::move(type), std::monostate{}); }
Literal Literal::boolean(bool v) { return Literal(Type::boolean(), v); }
Literal Literal::int32(int32_t v) { return Literal(Type::int32(), v); }
Literal Literal::int64(int64_t v) { return Literal(Type::int64(), v); }
Literal Literal::float32(float v) { return Literal(Type::float32(), v); }
Literal Literal::float64(double v) { return Literal(Type::float64(), v); }
Literal Literal::date(int32_t days) { return Literal(Type::date(), days); }
Literal Literal::time(int64_t micros) { return Literal(Type::time(), micros); }
Literal Literal::timestamp(int64_t micros) { return Literal(Type::timestamp(), micros); }
Literal Literal::timestamptz(int64_t micros) { return Literal(Type::timestamptz(), micros); }
Literal Literal::timestamp_ns(int64_t nanos) { return Literal(Type::timestamp_ns(), nanos); }
Literal Literal::timestamptz_ns(int64_t nanos) { return Literal(Type::timestamptz_ns(), nanos); }
Literal Literal::string(std::string v) { return Literal(Type::string(), std::move(v)); }
Literal Literal::uuid(const Uuid& v) { return Literal(Type::uuid(), v); }
Literal Literal::binary(std::string bytes) { return Literal(Type::binary(), std::move(bytes)); }

Literal Literal::fixed(std::string bytes) {
  auto type = Type::fixed(static_cast<int>(bytes.size()));
  return Literal(std::move(type), std::move(bytes));
}

Literal Literal::decimal(int128_t unscaled, int precision, int scale) {
  return Literal(Type::decimal(precision, scale), unscaled);
}

Literal Literal::of_int(TypePtr type, int64_t v) {
  if (type && is_int32_backed(type->id())) {
    return Literal(std::move(type), static_cast<int32_t>(v));
  }
  return Literal(std::move(type), v);
}

Literal Literal::of_bytes(TypePtr type, std::string v) {
  return Literal(std::move(type), std::move(v));
}

Literal Literal::struct_value(TypePtr type, std::vector<Literal> fields) {
  auto nested = std::make_shared<Nested>();
  nested->first = std::move(fields);
  return Literal(std::move(type), std::shared_ptr<const Nested>(std::move(nested)));
}

Literal Literal::list_value(TypePtr type, std::vector<Literal> elements) {
  auto nested = std::make_shared<Nested>();
  nested->first = std::move(elements);
  return Literal(std::move(type), std::shared_ptr<const Nested>(std::move(nested)));
}

Literal Literal::map_value(TypePtr type, std::vector<Literal> keys, std::vector<Literal> values) {
  auto nested = std::make_shared<Nested>();
  nested->first = std::move(keys);
  nested->second = std::move(values);
  return Literal(std::move(type), std::shared_ptr<const Nested>(std::move(nested)));
}

int32_t Literal::as_int32() const {
  if (const auto* v = std::get_if<int32_t>(&value_)) return *v;
  return static_cast<int32_t>(std::get<int64_t>(value_));
}

int64_t Literal::as_int64() const {
  if (const auto* v = std::get_if<int32_t>(&value_)) return *v;
  return std::get<int64_t>(value_);
}

namespace {
const std::vector<Literal>& empty_literals() {
  static const std::vector<Literal> kEmpty;
  return kEmpty;
}
}  // namespace

const std::vector<Literal>& Literal::struct_fields() const {
  const auto* n = std::get_if<std::shared_ptr<const Nested>>(&value_);
  return n ? (*n)->first : empty_literals();
}
const std::vector<Literal>& Literal::list_elements() const { return struct_fields(); }
const std::vector<Literal>& Literal::map_keys() const { return struct_fields(); }
const std::vector<Literal>& Literal::map_values() const {
  const auto* n = std::get_if<std::shared_ptr<const Nested>>(&value_);
  return n ? (*n)->second : empty_literals();
}

// ----------------------------------------------------------------------------------------------
// Binary single-value serialization (Appendix D)

Result<std::string> Literal::to_bytes() const {
  if (!type_) return invalid_argument("cannot serialize a literal without a type");
  if (is_null()) return invalid_argument("cannot serialize a null {} to bytes", type_->to_string());
  std::string out;
  switch (type_->id()) {
    case TypeId::kBoolean:
      out.push_back(as_bool() ? '\x01' : '\x00');
      return out;
    case TypeId::kInt:
    case TypeId::kDate:
      put_le(&out, static_cast<uint32_t>(as_int32()));
      return out;
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      put_le(&out, static_cast<uint64_t>(as_int64()));
      return out;
    case TypeId::kFloat: {
      uint32_t bits = 0;
      float f = as_float();
      std::memcpy(&bits, &f, 4);
      put_le(&out, bits);
      return out;
    }
    case TypeId::kDouble: {
      uint64_t bits = 0;
      double d = as_double();
      std::memcpy(&bits, &d, 8);
      put_le(&out, bits);
      return out;
    }
    case TypeId::kString:
    case TypeId::kFixed:
    case TypeId::kBinary:
      return as_bytes();
    case TypeId::kUuid:
      return std::string(reinterpret_cast<const char*>(as_uuid().bytes.data()), 16);
    case TypeId::kDecimal:
      return decimal_to_bytes(as_decimal());
    default:
      return not_supported("binary single-value serialization is not defined for {}",
                           type_->to_string());
  }
}

Result<Literal> Literal::from_bytes(const TypePtr& type, std::string_view bytes) {
  if (!type) return invalid_argument("cannot deserialize a value without a type");
  auto wrong_length = [&]() -> Status {
    return invalid_data("invalid {} value: {} bytes", type->to_string(), bytes.size());
  };
  switch (type->id()) {
    case TypeId::kBoolean:
      if (bytes.size() != 1) return wrong_length();
      return Literal(type, bytes[0] != 0);
    case TypeId::kInt:
    case TypeId::kDate:
      if (bytes.size() != 4) return wrong_length();
      return Literal(type, static_cast<int32_t>(static_cast<uint32_t>(get_le(bytes))));
    case TypeId::kLong:
    case TypeId::kTime:
      // A long column promoted from int keeps its old 4-byte bounds.
      if (bytes.size() == 4 && type->id() == TypeId::kLong) {
        return Literal(type, int64_t{static_cast<int32_t>(static_cast<uint32_t>(get_le(bytes)))});
      }
      if (bytes.size() != 8) return wrong_length();
      return Literal(type, static_cast<int64_t>(get_le(bytes)));
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      // Promoted from date: 4 bytes of days.
      if (bytes.size() == 4) {
        int64_t days = static_cast<int32_t>(static_cast<uint32_t>(get_le(bytes)));
        bool nanos = type->id() == TypeId::kTimestampNs || type->id() == TypeId::kTimestampTzNs;
        return Literal(type, days * (nanos ? kNanosPerDay : kMicrosPerDay));
      }
      if (bytes.size() != 8) return wrong_length();
      return Literal(type, static_cast<int64_t>(get_le(bytes)));
    case TypeId::kFloat: {
      if (bytes.size() != 4) return wrong_length();
      auto bits = static_cast<uint32_t>(get_le(bytes));
      float f = 0;
      std::memcpy(&f, &bits, 4);
      return Literal(type, f);
    }
    case TypeId::kDouble: {
      if (bytes.size() == 4) {  // promoted from float
        auto bits = static_cast<uint32_t>(get_le(bytes));
        float f = 0;
        std::memcpy(&f, &bits, 4);
        return Literal(type, static_cast<double>(f));
      }
      if (bytes.size() != 8) return wrong_length();
      uint64_t bits = get_le(bytes);
      double d = 0;
      std::memcpy(&d, &bits, 8);
      return Literal(type, d);
    }
    case TypeId::kString:
    case TypeId::kBinary:
      return Literal(type, std::string(bytes));
    case TypeId::kFixed:
      if (bytes.size() != static_cast<size_t>(type->length())) return wrong_length();
      return Literal(type, std::string(bytes));
    case TypeId::kUuid: {
      if (bytes.size() != 16) return wrong_length();
      Uuid u;
      std::memcpy(u.bytes.data(), bytes.data(), 16);
      return Literal(type, u);
    }
    case TypeId::kDecimal:
      if (bytes.empty() || bytes.size() > 16) return wrong_length();
      return Literal(type, decimal_from_bytes(bytes));
    default:
      return not_supported("binary single-value serialization is not defined for {}",
                           type->to_string());
  }
}

// ----------------------------------------------------------------------------------------------
// JSON single-value serialization

namespace {

// Floats go through their shortest decimal text so 0.34234f prints as 0.34234, not as the
// widened double 0.3423400032520294.
nlohmann::json float_json(double v, bool is_float) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (!is_float) return v;
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), static_cast<float>(v));
  double widened = 0;
  std::from_chars(buf, res.ptr, widened);
  return widened;
}

Result<double> float_from_json(const TypePtr& type, const nlohmann::json& json) {
  if (json.is_number()) return json.get<double>();
  if (json.is_string()) {
    const auto& s = json.get_ref<const std::string&>();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  return invalid_data("cannot parse {} as a {} value", json.dump(), type->to_string());
}

Result<int64_t> integer_from_json(const TypePtr& type, const nlohmann::json& json, int64_t lo,
                                  int64_t hi) {
  if (json.is_number_unsigned()) {
    uint64_t v = json.get<uint64_t>();
    if (v <= static_cast<uint64_t>(hi)) return static_cast<int64_t>(v);
  } else if (json.is_number_integer()) {
    int64_t v = json.get<int64_t>();
    if (v >= lo && v <= hi) return v;
  }
  return invalid_data("cannot parse {} as a {} value", json.dump(), type->to_string());
}

Result<std::string> text_from_json(const TypePtr& type, const nlohmann::json& json) {
  if (!json.is_string()) {
    return invalid_data("cannot parse {} as a {} value: expected a string", json.dump(),
                        type->to_string());
  }
  return json.get<std::string>();
}

}  // namespace

Status Literal::to_json(nlohmann::json* out) const {
  if (!type_) return invalid_argument("cannot write a literal without a type as JSON");
  if (is_null()) {
    *out = nullptr;
    return Status::OK();
  }
  switch (type_->id()) {
    case TypeId::kBoolean:
      *out = as_bool();
      return Status::OK();
    case TypeId::kInt:
    case TypeId::kLong:
      *out = as_int64();
      return Status::OK();
    case TypeId::kFloat:
      *out = float_json(as_float(), true);
      return Status::OK();
    case TypeId::kDouble:
      *out = float_json(as_double(), false);
      return Status::OK();
    case TypeId::kDecimal:
      *out = format_decimal(as_decimal(), type_->scale());
      return Status::OK();
    case TypeId::kDate:
      *out = format_date(as_int32());
      return Status::OK();
    case TypeId::kTime:
      *out = format_time(as_int64());
      return Status::OK();
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      *out = format_timestamp(as_int64(), type_->id() == TypeId::kTimestampTz);
      return Status::OK();
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      *out = format_timestamp_ns(as_int64(), type_->id() == TypeId::kTimestampTzNs);
      return Status::OK();
    case TypeId::kString:
      *out = as_bytes();
      return Status::OK();
    case TypeId::kUuid:
      *out = as_uuid().to_string();
      return Status::OK();
    case TypeId::kFixed:
    case TypeId::kBinary:
      *out = spec_internal::hex_encode(as_bytes());
      return Status::OK();
    case TypeId::kStruct: {
      nlohmann::json obj = nlohmann::json::object();
      const auto& values = struct_fields();
      const auto& fields = type_->fields();
      if (values.size() != fields.size()) {
        return invalid_argument("struct value has {} fields, its type {} has {}", values.size(),
                                type_->to_string(), fields.size());
      }
      for (size_t i = 0; i < fields.size(); ++i) {
        if (values[i].is_null()) continue;
        nlohmann::json v;
        FLOE_TRY(values[i].to_json(&v));
        obj[std::to_string(fields[i].id)] = std::move(v);
      }
      *out = std::move(obj);
      return Status::OK();
    }
    case TypeId::kList: {
      nlohmann::json arr = nlohmann::json::array();
      for (const auto& e : list_elements()) {
        nlohmann::json v;
        FLOE_TRY(e.to_json(&v));
        arr.push_back(std::move(v));
      }
      *out = std::move(arr);
      return Status::OK();
    }
    case TypeId::kMap: {
      nlohmann::json keys = nlohmann::json::array();
      nlohmann::json values = nlohmann::json::array();
      for (const auto& k : map_keys()) {
        nlohmann::json v;
        FLOE_TRY(k.to_json(&v));
        keys.push_back(std::move(v));
      }
      for (const auto& e : map_values()) {
        nlohmann::json v;
        FLOE_TRY(e.to_json(&v));
        values.push_back(std::move(v));
      }
      *out = nlohmann::json{{"keys", std::move(keys)}, {"values", std::move(values)}};
      return Status::OK();
    }
    default:
      return not_supported("JSON single-value serialization is not defined for {}",
                           type_->to_string());
  }
}

Result<Literal> Literal::from_json(const TypePtr& type, const nlohmann::json& json) {
  if (!type) return invalid_argument("cannot read a JSON value without a type");
  if (json.is_null()) return Literal::null(type);
  switch (type->id()) {
    case TypeId::kBoolean:
      if (!json.is_boolean()) {
        return invalid_data("cannot parse {} as a boolean value", json.dump());
      }
      return Literal(type, json.get<bool>());
    case TypeId::kInt: {
      int64_t v = FLOE_TRY(integer_from_json(type, json, std::numeric_limits<int32_t>::min(),
                                             std::numeric_limits<int32_t>::max()));
      return Literal(type, static_cast<int32_t>(v));
    }
    case TypeId::kLong: {
      int64_t v = FLOE_TRY(integer_from_json(type, json, std::numeric_limits<int64_t>::min(),
                                             std::numeric_limits<int64_t>::max()));
      return Literal(type, v);
    }
    case TypeId::kFloat: {
      double v = FLOE_TRY(float_from_json(type, json));
      return Literal(type, static_cast<float>(v));
    }
    case TypeId::kDouble: {
      double v = FLOE_TRY(float_from_json(type, json));
      return Literal(type, v);
    }
    case TypeId::kDecimal: {
      std::string text = FLOE_TRY(text_from_json(type, json));
      int128_t unscaled = 0;
      int scale = 0;
      if (!parse_big_decimal(text, &unscaled, &scale)) {
        return invalid_data("cannot parse \"{}\" as a {} value", text, type->to_string());
      }
      if (scale != type->scale()) {
        return invalid_data("cannot parse \"{}\" as a {} value: the scale {} does not match", text,
                            type->to_string(), scale);
      }
      if (type->precision() > 0 && unscaled != 0 &&
          decimal_digit_count(unscaled) > type->precision()) {
        return invalid_data("cannot parse \"{}\" as a {} value: too many digits", text,
                            type->to_string());
      }
      return Literal(type, unscaled);
    }
    case TypeId::kDate: {
      std::string text = FLOE_TRY(text_from_json(type, json));
      return Literal(type, FLOE_TRY(parse_date(text)));
    }
    case TypeId::kTime: {
      std::string text = FLOE_TRY(text_from_json(type, json));
      return Literal(type, FLOE_TRY(parse_time(text)));
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      std::string text = FLOE_TRY(text_from_json(type, json));
      return Literal(type, FLOE_TRY(parse_timestamp(text, type->id() == TypeId::kTimestampTz)));
    }
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      std::string text = FLOE_TRY(text_from_json(type, json));
      return Literal(type,
                     FLOE_TRY(parse_timestamp_ns(text, type->id() == TypeId::kTimestampTzNs)));
    }
    case TypeId::kString:
      return Literal(type, FLOE_TRY(text_from_json(type, json)));
    case TypeId::kUuid: {
      std::string text = FLOE_TRY(text_from_json(type, json));
      return Literal(type, FLOE_TRY(Uuid::parse(text)));
    }
    case TypeId::kFixed:
    case TypeId::kBinary: {
      std::string text = FLOE_TRY(text_from_json(type, json));
      std::string bytes;
      if (!hex_decode(text, &bytes)) {
        return invalid_data("cannot parse \"{}\" as a {} value: expected hex", text,
                            type->to_string());
      }
      if (type->id() == TypeId::kFixed && bytes.size() != static_cast<size_t>(type->length())) {
        return invalid_data("cannot parse \"{}\" as a {} value: {} bytes", text, type->to_string(),
                            bytes.size());
      }
      return Literal(type, std::move(bytes));
    }
    case TypeId::kStruct: {
      if (!json.is_object()) {
        return invalid_data("cannot parse {} as a {} value: expected an object", json.dump(),
                            type->to_string());
      }
      std::vector<Literal> values;
      for (const auto& f : type->fields()) {
        auto it = json.find(std::to_string(f.id));
        if (it == json.end()) {
          values.push_back(Literal::null(f.type));
        } else {
          values.push_back(FLOE_TRY_CTX(from_json(f.type, *it), "field " + f.name));
        }
      }
      return struct_value(type, std::move(values));
    }
    case TypeId::kList: {
      if (!json.is_array()) {
        return invalid_data("cannot parse {} as a {} value: expected an array", json.dump(),
                            type->to_string());
      }
      std::vector<Literal> elements;
      for (const auto& e : json) elements.push_back(FLOE_TRY(from_json(type->element().type, e)));
      return list_value(type, std::move(elements));
    }
    case TypeId::kMap: {
      if (!json.is_object() || !json.contains("keys") || !json.contains("values") ||
          !json["keys"].is_array() || !json["values"].is_array() ||
          json["keys"].size() != json["values"].size()) {
        return invalid_data(
            "cannot parse {} as a {} value: expected {{\"keys\": [...], \"values\": [...]}} of "
            "equal length",
            json.dump(), type->to_string());
      }
      std::vector<Literal> keys, values;
      for (const auto& k : json["keys"]) keys.push_back(FLOE_TRY(from_json(type->key().type, k)));
      for (const auto& v : json["values"]) {
        values.push_back(FLOE_TRY(from_json(type->value().type, v)));
      }
      return map_value(type, std::move(keys), std::move(values));
    }
    default:
      return not_supported("JSON single-value serialization is not defined for {}",
                           type->to_string());
  }
}

// ----------------------------------------------------------------------------------------------
// Text, ordering, equality

std::string Literal::to_string() const {
  if (!type_ || is_null()) return "null";
  switch (type_->id()) {
    case TypeId::kBoolean:
      return as_bool() ? "true" : "false";
    case TypeId::kInt:
    case TypeId::kLong:
      return std::to_string(as_int64());
    case TypeId::kFloat:
      return spec_internal::java_float_to_string(as_float());
    case TypeId::kDouble:
      return spec_internal::java_double_to_string(as_double());
    case TypeId::kDecimal:
      return format_decimal(as_decimal(), type_->scale());
    case TypeId::kDate:
      return format_date(as_int32());
    case TypeId::kTime:
      return spec_internal::format_time_of_day(floor_mod(as_int64(), kMicrosPerDay) * 1000,
                                               Fraction::kTrimmed);
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return spec_internal::format_micros(as_int64(), Fraction::kTrimmed,
                                          type_->id() == TypeId::kTimestampTz);
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return spec_internal::format_nanos(as_int64(), Fraction::kTrimmed,
                                         type_->id() == TypeId::kTimestampTzNs);
    case TypeId::kString:
      return as_bytes();
    case TypeId::kUuid:
      return as_uuid().to_string();
    case TypeId::kFixed:
    case TypeId::kBinary:
      return spec_internal::hex_encode(as_bytes());
    case TypeId::kStruct:
    case TypeId::kList: {
      // Spark's rendering: {1, bar} for structs, [1, 2] for lists.
      bool is_struct = type_->id() == TypeId::kStruct;
      std::string out = is_struct ? "{" : "[";
      const auto& items = struct_fields();
      for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ", ";
        out += items[i].to_string();
      }
      return out + (is_struct ? "}" : "]");
    }
    case TypeId::kMap: {
      std::string out = "{";
      const auto& keys = map_keys();
      const auto& values = map_values();
      for (size_t i = 0; i < keys.size(); ++i) {
        if (i) out += ", ";
        out += keys[i].to_string() + " -> " +
               (i < values.size() ? values[i].to_string() : std::string("null"));
      }
      return out + "}";
    }
    default:
      if (const auto* s = std::get_if<std::string>(&value_)) return *s;
      return "?";
  }
}

namespace {

int compare_decimals(int128_t a, int a_scale, int128_t b, int b_scale) {
  // Bring both to the larger scale; if that overflows, the value with more integer digits wins.
  if (a_scale == b_scale) return three_way(a, b);
  bool swap = a_scale > b_scale;
  if (swap) {
    std::swap(a, b);
    std::swap(a_scale, b_scale);
  }
  int shift = b_scale - a_scale;
  int128_t scaled = a;
  bool overflow =
      shift > kMaxDecimalDigits || (a != 0 && decimal_digit_count(a) + shift > kMaxDecimalDigits);
  int result = 0;
  if (!overflow) {
    scaled = a * pow10_i128(shift);
    result = three_way(scaled, b);
  } else {
    result = a < 0 ? -1 : 1;
  }
  return swap ? -result : result;
}

int compare_lists(const std::vector<Literal>& a, const std::vector<Literal>& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    int c = a[i].compare(b[i]);
    if (c != 0) return c;
  }
  return three_way(a.size(), b.size());
}

}  // namespace

int Literal::compare(const Literal& other) const {
  if (is_null() || other.is_null()) {
    if (is_null() && other.is_null()) return 0;
    return is_null() ? -1 : 1;
  }
  const Value& a = value_;
  const Value& b = other.value_;
  // Integer-backed values compare numerically even across int/long (type promotion).
  bool a_int = std::holds_alternative<int32_t>(a) || std::holds_alternative<int64_t>(a);
  bool b_int = std::holds_alternative<int32_t>(b) || std::holds_alternative<int64_t>(b);
  if (a_int && b_int) return three_way(as_int64(), other.as_int64());
  bool a_float = std::holds_alternative<float>(a) || std::holds_alternative<double>(a);
  bool b_float = std::holds_alternative<float>(b) || std::holds_alternative<double>(b);
  if (a_float && b_float) {
    double x = std::holds_alternative<float>(a) ? as_float() : as_double();
    double y = std::holds_alternative<float>(b) ? other.as_float() : other.as_double();
    return compare_float_values(x, y);
  }
  if (a.index() != b.index()) return three_way(a.index(), b.index());
  if (const auto* v = std::get_if<bool>(&a)) return three_way(*v, std::get<bool>(b));
  if (const auto* v = std::get_if<std::string>(&a))
    return compare_bytes(*v, std::get<std::string>(b));
  if (const auto* v = std::get_if<Uuid>(&a)) return three_way(v->bytes, std::get<Uuid>(b).bytes);
  if (const auto* v = std::get_if<int128_t>(&a)) {
    int as = type_ ? type_->scale() : 0;
    int bs = other.type_ ? other.type_->scale() : 0;
    return compare_decimals(*v, as, std::get<int128_t>(b), bs);
  }
  if (std::holds_alternative<std::shared_ptr<const Nested>>(a)) {
    int c = compare_lists(struct_fields(), other.struct_fields());
    return c != 0 ? c : compare_lists(map_values(), other.map_values());
  }
  return 0;
}

namespace {

bool same_literals(const std::vector<Literal>& a, const std::vector<Literal>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(a[i] == b[i])) return false;
  }
  return true;
}

}  // namespace

bool Literal::operator==(const Literal& other) const {
  if (!same_type(type_, other.type_)) return false;
  if (value_.index() != other.value_.index()) return false;
  return std::visit(
      [&](const auto& v) -> bool {
        using T = std::decay_t<decltype(v)>;
        const T& w = std::get<T>(other.value_);
        if constexpr (std::is_same_v<T, std::monostate>) {
          return true;
        } else if constexpr (std::is_same_v<T, float>) {
          return std::memcmp(&v, &w, sizeof(float)) == 0;
        } else if constexpr (std::is_same_v<T, double>) {
          return std::memcmp(&v, &w, sizeof(double)) == 0;
        } else if constexpr (std::is_same_v<T, std::shared_ptr<const Nested>>) {
          if (v == w) return true;
          return same_literals(v->first, w->first) && same_literals(v->second, w->second);
        } else {
          return v == w;
        }
      },
      value_);
}

}  // namespace floe
