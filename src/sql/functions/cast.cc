// CAST with Spark's non-ANSI semantics, plus the decimal and text helpers shared by the
// function libraries.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>

#include "floe/read/batch_ops.h"
#include "floe/util/calendar.h"
#include "floe/util/date_time_text.h"
#include "floe/util/decimal.h"
#include "floe/util/float_text.h"
#include "floe/util/uuid.h"
#include "sql/functions/function_internal.h"

namespace floe::sql::internal {

// ----- decimals ---------------------------------------------------------------------------------

int128 pow10_128(int n) {
  static const auto table = [] {
    std::array<int128, 39> t{};
    t[0] = 1;
    for (int i = 1; i < 39; ++i) t[i] = t[i - 1] * 10;
    return t;
  }();
  return table[std::clamp(n, 0, 38)];
}

int decimal_digits(int128 v) {
  if (v < 0) v = -v;
  int d = 1;
  while (d < 39 && v >= pow10_128(d)) ++d;
  return d;
}

bool fits_precision(int128 v, int precision) {
  int128 limit = pow10_128(std::min(precision, 38));
  return v < limit && v > -limit;
}

int128 div_half_up(int128 a, int128 b) {
  int128 q = a / b, r = a % b;
  if (r == 0) return q;
  int128 abs_r = r < 0 ? -r : r, abs_b = b < 0 ? -b : b;
  // |r| * 2 >= |b| without overflow: |r| >= |b| - |r|.
  if (abs_r >= abs_b - abs_r) q += ((a < 0) == (b < 0)) ? 1 : -1;
  return q;
}

bool rescale_decimal(int128 v, int from_scale, int to_scale, int128* out) {
  if (to_scale == from_scale) {
    *out = v;
    return true;
  }
  if (to_scale > from_scale) {
    int shift = to_scale - from_scale;
    if (shift > 38) {
      if (v != 0) return false;
      *out = 0;
      return true;
    }
    return !__builtin_mul_overflow(v, pow10_128(shift), out) && fits_precision(*out, 38);
  }
  int shift = from_scale - to_scale;
  *out = shift > 38 ? 0 : div_half_up(v, pow10_128(shift));
  return true;
}

double decimal_to_double(int128 v, int scale) {
  constexpr int128 kExact = int128(1) << 53;
  if (v < kExact && v > -kExact && scale >= 0 && scale <= 22) {
    static constexpr double kPow[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    return static_cast<double>(static_cast<int64_t>(v)) / kPow[scale];
  }
  std::string text = format_decimal(v, scale);
  return std::strtod(text.c_str(), nullptr);
}

bool double_to_decimal(double v, int precision, int scale, int128* out) {
  if (!std::isfinite(v)) return false;
  char buf[64];
  auto res = fmt::format_to_n(buf, sizeof(buf) - 1, "{}", v);
  *res.out = '\0';
  // Shortest digits D and exponent E with v = D * 10^E.
  int128 digits = 0;
  int exp = 0;
  bool neg = false, frac = false;
  const char* p = buf;
  if (*p == '-') {
    neg = true;
    ++p;
  }
  for (; *p && *p != 'e' && *p != 'E'; ++p) {
    if (*p == '.') {
      frac = true;
      continue;
    }
    digits = digits * 10 + (*p - '0');
    if (frac) --exp;
  }
  if (*p == 'e' || *p == 'E') exp += std::atoi(p + 1);
  int shift = exp + scale;
  int128 r = 0;
  if (shift >= 0) {
    if (shift > 38 || __builtin_mul_overflow(digits, pow10_128(shift), &r)) return false;
  } else {
    r = -shift > 38 ? 0 : div_half_up(digits, pow10_128(-shift));
  }
  if (neg) r = -r;
  if (!fits_precision(r, precision)) return false;
  *out = r;
  return true;
}

// ----- text -------------------------------------------------------------------------------------

namespace {

void append_int128(int128 v, std::string* out) {
  char buf[48];
  int pos = 48;
  bool neg = v < 0;
  auto u = neg ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  do {
    buf[--pos] = static_cast<char>('0' + static_cast<int>(u % 10));
    u /= 10;
  } while (u);
  if (neg) buf[--pos] = '-';
  out->append(buf + pos, 48 - pos);
}

void append_decimal(int128 v, int scale, std::string* out) {
  if (scale <= 0) {
    append_int128(v, out);
    for (int i = 0; i < -scale; ++i) out->push_back('0');
    return;
  }
  bool neg = v < 0;
  std::string digits;
  append_int128(neg ? -v : v, &digits);
  if (digits.size() <= static_cast<size_t>(scale)) {
    digits.insert(0, static_cast<size_t>(scale) + 1 - digits.size(), '0');
  }
  if (neg) out->push_back('-');
  size_t point = digits.size() - static_cast<size_t>(scale);
  out->append(digits, 0, point);
  out->push_back('.');
  out->append(digits, point, std::string::npos);
}

void append_date(int32_t days, std::string* out) {
  int64_t y = 0;
  unsigned m = 0, d = 0;
  civil_from_days(days, &y, &m, &d);
  fmt::format_to(std::back_inserter(*out), "{:04d}-{:02d}-{:02d}", y, m, d);
}

void append_time_of_day(int64_t micros_of_day, std::string* out) {
  int64_t secs = micros_of_day / kMicrosPerSecond, frac = micros_of_day % kMicrosPerSecond;
  fmt::format_to(std::back_inserter(*out), "{:02d}:{:02d}:{:02d}", secs / 3600, (secs / 60) % 60,
                 secs % 60);
  if (frac) {
    char buf[8];
    fmt::format_to_n(buf, 7, "{:06d}", frac);
    int len = 6;
    while (len > 0 && buf[len - 1] == '0') --len;
    out->push_back('.');
    out->append(buf, static_cast<size_t>(len));
  }
}

}  // namespace

void format_timestamp_text(int64_t micros, std::string* out) {
  int64_t day = floor_div(micros, kMicrosPerDay);
  append_date(static_cast<int32_t>(day), out);
  out->push_back(' ');
  append_time_of_day(micros - day * kMicrosPerDay, out);
}

void value_text(const ColumnVector& col, int64_t row, std::string* out) {
  switch (col.type_id()) {
    case TypeId::kBoolean:
      out->append(col.raw<uint8_t>()[row] ? "true" : "false");
      return;
    case TypeId::kInt:
      fmt::format_to(std::back_inserter(*out), "{}", col.raw<int32_t>()[row]);
      return;
    case TypeId::kLong:
      fmt::format_to(std::back_inserter(*out), "{}", col.raw<int64_t>()[row]);
      return;
    case TypeId::kFloat:
      out->append(java_float_to_string(col.raw<float>()[row]));
      return;
    case TypeId::kDouble:
      out->append(java_double_to_string(col.raw<double>()[row]));
      return;
    case TypeId::kDecimal:
      append_decimal(col.raw<int128>()[row], col.type()->scale(), out);
      return;
    case TypeId::kDate:
      append_date(col.raw<int32_t>()[row], out);
      return;
    case TypeId::kTime:
      append_time_of_day(floor_mod(col.raw<int64_t>()[row], kMicrosPerDay), out);
      return;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      format_timestamp_text(col.raw<int64_t>()[row], out);
      return;
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      format_timestamp_text(floor_div(col.raw<int64_t>()[row], 1000), out);
      return;
    case TypeId::kUuid: {
      Uuid u;
      std::memcpy(u.bytes.data(), col.bytes_at(row).data(), 16);
      out->append(u.to_string());
      return;
    }
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixed:
      out->append(col.bytes_at(row));
      return;
    case TypeId::kStruct: {
      out->push_back('{');
      for (size_t c = 0; c < col.num_children(); ++c) {
        if (c) out->append(", ");
        if (col.child(c).is_null(row)) {
          out->append("null");
        } else {
          value_text(col.child(c), row, out);
        }
      }
      out->push_back('}');
      return;
    }
    case TypeId::kList:
    case TypeId::kMap: {
      bool map = col.type_id() == TypeId::kMap;
      out->push_back(map ? '{' : '[');
      for (int32_t j = col.list_begin(row); j < col.list_end(row); ++j) {
        if (j > col.list_begin(row)) out->append(", ");
        const ColumnVector& k = col.child(0);
        if (k.is_null(j)) {
          out->append("null");
        } else {
          value_text(k, j, out);
        }
        if (map) {
          out->append(" -> ");
          const ColumnVector& v = col.child(1);
          if (v.is_null(j)) {
            out->append("null");
          } else {
            value_text(v, j, out);
          }
        }
      }
      out->push_back(map ? '}' : ']');
      return;
    }
    default:
      out->append(col.literal_at(row).to_string());
  }
}

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// Reads 1..max digits.
bool read_num(std::string_view s, size_t* pos, int max, int64_t* out) {
  size_t start = *pos;
  int64_t v = 0;
  while (*pos < s.size() && digit(s[*pos]) && static_cast<int>(*pos - start) < max) {
    v = v * 10 + (s[*pos] - '0');
    ++*pos;
  }
  if (*pos == start) return false;
  *out = v;
  return true;
}

bool valid_day(int64_t y, int64_t m, int64_t d) {
  if (m < 1 || m > 12 || d < 1) return false;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return d <= (m == 2 && leap ? 29 : kDays[m - 1]);
}

// Days since 1970-01-01 of a proleptic Gregorian date, in 64 bits: a 7-digit year is past the
// 32-bit day range, which the caller checks instead of wrapping.
int64_t days_from_civil_64(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// [+-]y{4,7}[-m[m][-d[d]]]; stops before a ' ' or 'T'.
bool parse_date_part(std::string_view s, size_t* pos, int64_t* days) {
  bool neg = false;
  if (*pos < s.size() && (s[*pos] == '-' || s[*pos] == '+')) {
    neg = s[*pos] == '-';
    ++*pos;
  }
  size_t start = *pos;
  int64_t y = 0, m = 1, d = 1;
  if (!read_num(s, pos, 7, &y) || *pos - start < 4) return false;
  if (neg) y = -y;
  if (*pos < s.size() && s[*pos] == '-') {
    ++*pos;
    if (!read_num(s, pos, 2, &m)) return false;
    if (*pos < s.size() && s[*pos] == '-') {
      ++*pos;
      if (!read_num(s, pos, 2, &d)) return false;
    }
  }
  if (!valid_day(y, m, d)) return false;
  *days = days_from_civil_64(y, m, d);
  return true;
}

}  // namespace

bool parse_date_text(std::string_view s, int32_t* days) {
  s = trim(s);
  size_t pos = 0;
  int64_t d = 0;
  if (!parse_date_part(s, &pos, &d)) return false;
  if (pos != s.size() && s[pos] != ' ' && s[pos] != 'T') return false;
  // A date is a 32-bit day count: a later (or earlier) one is not a date, not a wrapped one.
  if (d < INT32_MIN || d > INT32_MAX) return false;
  *days = static_cast<int32_t>(d);
  return true;
}

bool parse_timestamp_text(std::string_view s, int64_t* micros) {
  s = trim(s);
  size_t pos = 0;
  int64_t days = 0;
  if (!parse_date_part(s, &pos, &days)) return false;
  int64_t tod = 0, offset = 0;
  if (pos < s.size() && (s[pos] == ' ' || s[pos] == 'T')) {
    ++pos;
    int64_t h = 0, mi = 0, sec = 0, frac = 0;
    if (!read_num(s, &pos, 2, &h)) return false;
    if (pos >= s.size() || s[pos] != ':') return false;
    ++pos;
    if (!read_num(s, &pos, 2, &mi)) return false;
    if (pos < s.size() && s[pos] == ':') {
      ++pos;
      if (!read_num(s, &pos, 2, &sec)) return false;
      if (pos < s.size() && s[pos] == '.') {
        ++pos;
        size_t start = pos;
        int digits = 0;
        while (pos < s.size() && digit(s[pos])) {
          if (digits < 6) {
            frac = frac * 10 + (s[pos] - '0');
            ++digits;
          }
          ++pos;
        }
        if (pos == start) return false;
        for (; digits < 6; ++digits) frac *= 10;
      }
    }
    if (h > 23 || mi > 59 || sec > 59) return false;
    tod = ((h * 60 + mi) * 60 + sec) * kMicrosPerSecond + frac;
    // Zone: Z, UTC, GMT, [+-]h[h][[:]mm].
    while (pos < s.size() && s[pos] == ' ') ++pos;
    std::string_view zone = s.substr(pos);
    if (!zone.empty()) {
      if (zone == "Z" || zone == "z" || iequals(zone, "UTC") || iequals(zone, "GMT")) {
        pos = s.size();
      } else {
        if (iequals(zone.substr(0, 3), "UTC") || iequals(zone.substr(0, 3), "GMT")) pos += 3;
        if (pos >= s.size() || (s[pos] != '+' && s[pos] != '-')) return false;
        bool neg = s[pos] == '-';
        ++pos;
        int64_t oh = 0, om = 0;
        if (!read_num(s, &pos, 2, &oh)) return false;
        if (pos < s.size() && s[pos] == ':') ++pos;
        if (pos < s.size() && !read_num(s, &pos, 2, &om)) return false;
        if (oh > 18 || om > 59) return false;
        offset = (oh * 3600 + om * 60) * (neg ? -1 : 1);
      }
    }
  }
  if (pos != s.size()) return false;
  // Microseconds are 64-bit (years -290308 to 294247): past that the text is no timestamp.
  int64_t at_midnight = 0, local = 0;
  if (__builtin_mul_overflow(days, kMicrosPerDay, &at_midnight) ||
      __builtin_add_overflow(at_midnight, tod, &local) ||
      __builtin_sub_overflow(local, offset * kMicrosPerSecond, micros)) {
    return false;
  }
  return true;
}

// ----- cast kernels -----------------------------------------------------------------------------

namespace {

// Applies conv(row) -> bool (false = NULL) writing To values.
template <typename To, typename Conv>
Datum map_rows(const TypePtr& to, const Datum& in, int64_t n, Conv conv) {
  FixedWriter<To> w(to, n);
  for (int64_t i = 0; i < n; ++i) {
    if (!datum_valid(in, i)) {
      w.valid[i] = 0;
      w.data[i] = To{};
      continue;
    }
    To v{};
    w.valid[i] = conv(i, &v);
    w.data[i] = v;
  }
  return {w.finish(n), in.scalar};
}

template <typename Conv>
Datum map_bytes(const TypePtr& to, const Datum& in, int64_t n, Conv conv) {
  auto out = ColumnVector::make(to);
  std::string scratch;
  for (int64_t i = 0; i < n; ++i) {
    scratch.clear();
    if (!datum_valid(in, i) || !conv(i, &scratch)) {
      out->append_null();
    } else {
      out->append_bytes(scratch);
    }
  }
  return {out, in.scalar};
}

// Java's (int)/(long) conversion of a double: NaN -> 0, saturating.
template <typename I>
I saturate(double d) {
  if (std::isnan(d)) return 0;
  if (d >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  if (d <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  return static_cast<I>(d);
}

// Spark's UTF8String.toLong: optional sign, digits, an optional fraction that is dropped.
bool parse_integral(std::string_view s, int64_t min, int64_t max, int64_t* out) {
  s = trim(s);
  if (s.empty()) return false;
  size_t pos = 0;
  bool neg = false;
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    ++pos;
  }
  if (pos >= s.size()) return false;
  int128 v = 0;
  bool any = false;
  while (pos < s.size() && digit(s[pos])) {
    v = v * 10 + (s[pos] - '0');
    if (v > int128(max) + 1) return false;
    any = true;
    ++pos;
  }
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    while (pos < s.size() && digit(s[pos])) ++pos;
  }
  if (!any || pos != s.size()) return false;
  if (neg) v = -v;
  if (v < min || v > max) return false;
  *out = static_cast<int64_t>(v);
  return true;
}

bool parse_double_text(std::string_view s, double* out) {
  s = trim(s);
  if (s.empty() || s.size() > 400) return false;
  std::string_view body = s;
  bool neg = false;
  if (body[0] == '+' || body[0] == '-') {
    neg = body[0] == '-';
    body.remove_prefix(1);
  }
  if (iequals(body, "nan")) {
    *out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (iequals(body, "inf") || iequals(body, "infinity")) {
    *out = neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return true;
  }
  for (char c : body) {
    if (!(digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) {
      // Java also accepts a trailing d/D/f/F type suffix.
      if ((c == 'd' || c == 'D' || c == 'f' || c == 'F') && &c == &body.back()) continue;
      return false;
    }
  }
  char buf[420];
  std::memcpy(buf, s.data(), s.size());
  buf[s.size()] = '\0';
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(buf, &end);
  size_t used = static_cast<size_t>(end - buf);
  if (used == 0) return false;
  if (used != s.size() && !(used + 1 == s.size() && std::strchr("dDfF", s.back()))) return false;
  *out = v;
  return true;
}

bool parse_decimal_text(std::string_view s, int precision, int scale, int128* out) {
  s = trim(s);
  size_t pos = 0;
  bool neg = false;
  if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    neg = s[pos] == '-';
    ++pos;
  }
  int128 digits = 0;
  int exp = 0, count = 0;
  bool any = false, frac = false;
  for (; pos < s.size(); ++pos) {
    char c = s[pos];
    if (c == '.' && !frac) {
      frac = true;
      continue;
    }
    if (!digit(c)) break;
    any = true;
    if (count < 38 || c != '0' || digits != 0) {
      if (count >= 38) {
        // Too many significant digits: drop the rest (rounded below).
        if (!frac) ++exp;
        continue;
      }
      digits = digits * 10 + (c - '0');
      if (digits != 0) ++count;
    }
    if (frac) --exp;
  }
  if (!any) return false;
  if (pos < s.size() && (s[pos] == 'e' || s[pos] == 'E')) {
    ++pos;
    int64_t e = 0;
    bool eneg = false;
    if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
      eneg = s[pos] == '-';
      ++pos;
    }
    if (!read_num(s, &pos, 4, &e)) return false;
    exp += static_cast<int>(eneg ? -e : e);
  }
  if (pos != s.size()) return false;
  int shift = exp + scale;
  int128 r = 0;
  if (shift >= 0) {
    if (shift > 38 || __builtin_mul_overflow(digits, pow10_128(shift), &r)) return false;
  } else {
    r = -shift > 38 ? 0 : div_half_up(digits, pow10_128(-shift));
  }
  if (neg) r = -r;
  if (!fits_precision(r, precision)) return false;
  *out = r;
  return true;
}

bool parse_bool_text(std::string_view s, uint8_t* out) {
  s = trim(s);
  if (iequals(s, "t") || iequals(s, "true") || iequals(s, "y") || iequals(s, "yes") || s == "1") {
    *out = 1;
    return true;
  }
  if (iequals(s, "f") || iequals(s, "false") || iequals(s, "n") || iequals(s, "no") || s == "0") {
    *out = 0;
    return true;
  }
  return false;
}

// Reads a numeric/boolean source row as double.
template <typename T>
double as_double(T v, int scale) {
  if constexpr (std::is_same_v<T, int128>) {
    return decimal_to_double(v, scale);
  } else {
    return static_cast<double>(v);
  }
}

// numeric/boolean -> numeric/boolean.
template <typename From>
Datum cast_numeric(const Datum& in, const TypePtr& to, int64_t n) {
  FixedReader<From> r(in);
  const Type& from_t = *in.col->type();
  int fs = from_t.scale();
  TypeId t = to->id();
  constexpr bool kFromDec = std::is_same_v<From, int128>;
  constexpr bool kFromFloat = std::is_floating_point_v<From>;
  switch (t) {
    case TypeId::kBoolean:
      return map_rows<uint8_t>(to, in, n, [&](int64_t i, uint8_t* o) {
        *o = r[i] != From{};
        return true;
      });
    case TypeId::kInt:
    case TypeId::kLong: {
      if (t == TypeId::kInt) {
        return map_rows<int32_t>(to, in, n, [&](int64_t i, int32_t* o) {
          if constexpr (kFromDec) {
            int128 v = r[i] / pow10_128(fs);
            *o = static_cast<int32_t>(static_cast<int64_t>(v));
          } else if constexpr (kFromFloat) {
            *o = saturate<int32_t>(static_cast<double>(r[i]));
          } else {
            *o = static_cast<int32_t>(r[i]);
          }
          return true;
        });
      }
      return map_rows<int64_t>(to, in, n, [&](int64_t i, int64_t* o) {
        if constexpr (kFromDec) {
          int128 v = r[i] / pow10_128(fs);
          *o = static_cast<int64_t>(v);
        } else if constexpr (kFromFloat) {
          *o = saturate<int64_t>(static_cast<double>(r[i]));
        } else {
          *o = static_cast<int64_t>(r[i]);
        }
        return true;
      });
    }
    case TypeId::kFloat:
      return map_rows<float>(to, in, n, [&](int64_t i, float* o) {
        *o = static_cast<float>(as_double<From>(r[i], fs));
        return true;
      });
    case TypeId::kDouble:
      return map_rows<double>(to, in, n, [&](int64_t i, double* o) {
        *o = as_double<From>(r[i], fs);
        return true;
      });
    case TypeId::kDecimal: {
      int p = to->precision(), s = to->scale();
      return map_rows<int128>(to, in, n, [&](int64_t i, int128* o) {
        if constexpr (kFromDec) {
          return rescale_decimal(r[i], fs, s, o) && fits_precision(*o, p);
        } else if constexpr (kFromFloat) {
          return double_to_decimal(static_cast<double>(r[i]), p, s, o);
        } else {
          return rescale_decimal(static_cast<int128>(r[i]), 0, s, o) && fits_precision(*o, p);
        }
      });
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      int64_t unit = is_nanos(t) ? 1'000'000'000 : kMicrosPerSecond;
      return map_rows<int64_t>(to, in, n, [&](int64_t i, int64_t* o) {
        double secs = as_double<From>(r[i], fs);
        if constexpr (!kFromFloat && !kFromDec) {
          int64_t v = static_cast<int64_t>(r[i]);
          if (__builtin_mul_overflow(v, unit, o)) return false;
          return true;
        }
        if (!std::isfinite(secs)) return false;
        *o = saturate<int64_t>(secs * static_cast<double>(unit));
        return true;
      });
    }
    default:
      return null_scalar(to);
  }
}

Result<Datum> cast_from_string(const Datum& in, const TypePtr& to, int64_t n) {
  BytesReader r(in);
  switch (to->id()) {
    case TypeId::kBoolean:
      return map_rows<uint8_t>(to, in, n,
                               [&](int64_t i, uint8_t* o) { return parse_bool_text(r[i], o); });
    case TypeId::kInt:
      return map_rows<int32_t>(to, in, n, [&](int64_t i, int32_t* o) {
        int64_t v = 0;
        if (!parse_integral(r[i], INT32_MIN, INT32_MAX, &v)) return false;
        *o = static_cast<int32_t>(v);
        return true;
      });
    case TypeId::kLong:
      return map_rows<int64_t>(to, in, n, [&](int64_t i, int64_t* o) {
        return parse_integral(r[i], INT64_MIN, INT64_MAX, o);
      });
    case TypeId::kFloat:
      return map_rows<float>(to, in, n, [&](int64_t i, float* o) {
        double d = 0;
        if (!parse_double_text(r[i], &d)) return false;
        *o = static_cast<float>(d);
        return true;
      });
    case TypeId::kDouble:
      return map_rows<double>(to, in, n,
                              [&](int64_t i, double* o) { return parse_double_text(r[i], o); });
    case TypeId::kDecimal:
      return map_rows<int128>(to, in, n, [&](int64_t i, int128* o) {
        return parse_decimal_text(r[i], to->precision(), to->scale(), o);
      });
    case TypeId::kDate:
      return map_rows<int32_t>(to, in, n,
                               [&](int64_t i, int32_t* o) { return parse_date_text(r[i], o); });
    case TypeId::kTime:
      return map_rows<int64_t>(to, in, n, [&](int64_t i, int64_t* o) {
        auto t = parse_time(trim(r[i]));
        if (!t.ok()) return false;
        *o = *t;
        return true;
      });
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      bool ns = is_nanos(to->id());
      return map_rows<int64_t>(to, in, n, [&](int64_t i, int64_t* o) {
        int64_t us = 0;
        if (!parse_timestamp_text(r[i], &us)) return false;
        if (ns) return !__builtin_mul_overflow(us, int64_t{1000}, o);
        *o = us;
        return true;
      });
    }
    case TypeId::kUuid:
      return map_bytes(to, in, n, [&](int64_t i, std::string* o) {
        auto u = Uuid::parse(trim(r[i]));
        if (!u.ok()) return false;
        o->assign(reinterpret_cast<const char*>(u->bytes.data()), 16);
        return true;
      });
    case TypeId::kBinary:
      return map_bytes(to, in, n, [&](int64_t i, std::string* o) {
        o->assign(r[i]);
        return true;
      });
    case TypeId::kFixed:
      return map_bytes(to, in, n, [&](int64_t i, std::string* o) {
        std::string_view v = r[i];
        if (v.size() != static_cast<size_t>(to->length())) return false;
        o->assign(v);
        return true;
      });
    default:
      return invalid_argument("cannot cast string to {}", to->to_string());
  }
}

Result<Datum> cast_datetime(const Datum& in, const TypePtr& to, int64_t n) {
  TypeId f = in.col->type_id(), t = to->id();
  if (f == TypeId::kDate) {
    FixedReader<int32_t> r(in);
    int64_t per_day = is_nanos(t) ? kMicrosPerDay * 1000 : kMicrosPerDay;
    // A date past the timestamp range is NULL, not a wrapped instant.
    return map_rows<int64_t>(to, in, n, [&](int64_t i, int64_t* o) {
      return !__builtin_mul_overflow(static_cast<int64_t>(r[i]), per_day, o);
    });
  }
  FixedReader<int64_t> r(in);
  bool from_ns = is_nanos(f);
  if (t == TypeId::kDate) {
    int64_t per_day = from_ns ? kMicrosPerDay * 1000 : kMicrosPerDay;
    return map_rows<int32_t>(to, in, n, [&](int64_t i, int32_t* o) {
      *o = static_cast<int32_t>(floor_div(r[i], per_day));
      return true;
    });
  }
  bool to_ns = is_nanos(t);
  return map_rows<int64_t>(to, in, n, [&](int64_t i, int64_t* o) {
    if (from_ns == to_ns) {
      *o = r[i];
    } else if (from_ns) {
      *o = floor_div(r[i], 1000);
    } else {
      return !__builtin_mul_overflow(r[i], int64_t{1000}, o);
    }
    return true;
  });
}

// timestamp -> numbers: seconds since the epoch (Spark).
Result<Datum> cast_timestamp_to_number(const Datum& in, const TypePtr& to, int64_t n) {
  FixedReader<int64_t> r(in);
  double unit = is_nanos(in.col->type_id()) ? 1e9 : 1e6;
  int64_t iunit = is_nanos(in.col->type_id()) ? 1'000'000'000 : kMicrosPerSecond;
  auto as_double_col = map_rows<double>(Type::float64(), in, n, [&](int64_t i, double* o) {
    *o = static_cast<double>(r[i]) / unit;
    return true;
  });
  switch (to->id()) {
    case TypeId::kLong:
      return map_rows<int64_t>(to, in, n, [&](int64_t i, int64_t* o) {
        *o = floor_div(r[i], iunit);
        return true;
      });
    case TypeId::kInt:
      return map_rows<int32_t>(to, in, n, [&](int64_t i, int32_t* o) {
        *o = static_cast<int32_t>(floor_div(r[i], iunit));
        return true;
      });
    case TypeId::kDouble:
      return as_double_col;
    default:
      return cast_numeric<double>(as_double_col, to, n);
  }
}

// A child column of `len` rows cast to `to` (NULLs of `to` for an untyped child).
Result<ColumnPtr> cast_child(const ColumnPtr& child, const TypePtr& to, int64_t len) {
  if (child->type_id() == TypeId::kUnknown) {
    auto nulls = ColumnVector::make(to);
    for (int64_t i = 0; i < len; ++i) nulls->append_null();
    return nulls;
  }
  Datum d = FLOE_TRY(cast_datum(Datum{child, false}, to, len));
  return to_column(d, len);
}

// Struct, list and map values: the same validity and offsets, children cast member by member.
Result<Datum> cast_nested(const Datum& in, const TypePtr& to) {
  const ColumnVector& src = *in.col;
  auto out = ColumnVector::make(to);
  if (src.null_count() != 0) {
    out->validity().append(src.validity().data(), src.validity().size());
  }
  out->set_length(src.length());
  out->set_null_count(src.null_count());
  if (to->is_struct()) {
    for (size_t i = 0; i < to->fields().size(); ++i) {
      out->set_child(
          i, FLOE_TRY(cast_child(src.child_ptr(i), to->fields()[i].type, src.child(i).length())));
    }
  } else {
    out->offsets().clear();  // a new list column starts with its leading 0 offset
    out->offsets().append(src.offsets().data(), src.offsets().size());
    for (size_t i = 0; i < to->fields().size(); ++i) {
      out->set_child(
          i, FLOE_TRY(cast_child(src.child_ptr(i), to->fields()[i].type, src.child(i).length())));
    }
  }
  return Datum{out, in.scalar};
}

}  // namespace

Result<Datum> cast_datum(const Datum& in, const TypePtr& to, int64_t n) {
  const TypePtr& from = in.col->type();
  if (same_type(from, to)) return in;
  TypeId f = from->id(), t = to->id();
  if (f == TypeId::kUnknown) return null_scalar(to);
  if (from->is_nested() && f == t) return cast_nested(in, to);
  if (t == TypeId::kString) {
    return map_bytes(to, in, n, [&](int64_t i, std::string* o) {
      value_text(*in.col, in.scalar ? 0 : i, o);
      return true;
    });
  }
  if (f == TypeId::kString) return cast_from_string(in, to, n);
  bool fnum = is_numeric(f) || f == TypeId::kBoolean;
  bool tnum = is_numeric(t) || t == TypeId::kBoolean;
  if (fnum && (tnum || is_timestamp(t))) {
    return visit_fixed(phys_of(f), [&](auto tag) -> Result<Datum> {
      using T = decltype(tag);
      return cast_numeric<T>(in, to, n);
    });
  }
  if (is_datetime(f) && is_datetime(t)) return cast_datetime(in, to, n);
  if (is_timestamp(f) && tnum) return cast_timestamp_to_number(in, to, n);
  if ((f == TypeId::kBinary || f == TypeId::kFixed || f == TypeId::kUuid) &&
      (t == TypeId::kBinary || t == TypeId::kFixed)) {
    BytesReader r(in);
    return map_bytes(to, in, n, [&](int64_t i, std::string* o) {
      std::string_view v = r[i];
      if (t == TypeId::kFixed && v.size() != static_cast<size_t>(to->length())) return false;
      o->assign(v);
      return true;
    });
  }
  return invalid_argument("cannot cast {} to {}", from->to_string(), to->to_string());
}

}  // namespace floe::sql::internal

// ----- ANSI refusals: store assignment and TRY_CAST ----------------------------------------------

namespace floe::sql::internal {

namespace {

// x truncated toward zero lies in [lo, hi] (Spark's ANSI double -> integral check; NaN fails).
bool integral_fits(double x, int64_t lo, int64_t hi) {
  // 2^63 is the first double past INT64_MAX; every double below it truncates into range.
  const double upper = hi == INT64_MAX ? 9223372036854775808.0 : static_cast<double>(hi) + 1.0;
  const double lower = lo == INT64_MIN ? -9223372036854775808.0 : static_cast<double>(lo) - 1.0;
  return lo == INT64_MIN ? (x >= lower && x < upper) : (x > lower && x < upper);
}

// Rows [b, e) of a primitive cast `src` -> `dst` (dst = cast_datum(src)): the first whose valid
// input the ANSI cast refuses, or -1. The non-ANSI cast already turned most refusals into NULL
// (an unparsable string, an overflowing decimal, a date or timestamp out of range); the checks
// below catch what it wraps, saturates or truncates instead.
int64_t refused_primitive(const ColumnVector& src, const ColumnVector& dst, int64_t b, int64_t e) {
  const TypeId f = src.type_id(), t = dst.type_id();
  // The cast keeps every NULL: as many NULLs out as in means none was added.
  const bool added = dst.null_count() > src.null_count();
  auto scan = [&](auto refuse) -> int64_t {
    for (int64_t i = b; i < e; ++i) {
      if (src.is_null(i)) continue;
      if ((added && dst.is_null(i)) || refuse(i)) return i;
    }
    return -1;
  };
  if (t == TypeId::kInt || t == TypeId::kLong) {
    const int64_t lo = t == TypeId::kInt ? INT32_MIN : INT64_MIN;
    const int64_t hi = t == TypeId::kInt ? INT32_MAX : INT64_MAX;
    switch (f) {
      case TypeId::kLong:
        if (t == TypeId::kInt) {
          const int64_t* v = src.raw<int64_t>();
          return scan([&](int64_t i) { return v[i] < lo || v[i] > hi; });
        }
        break;
      case TypeId::kFloat: {
        const float* v = src.raw<float>();
        return scan([&](int64_t i) { return !integral_fits(v[i], lo, hi); });
      }
      case TypeId::kDouble: {
        const double* v = src.raw<double>();
        return scan([&](int64_t i) { return !integral_fits(v[i], lo, hi); });
      }
      case TypeId::kDecimal: {
        const int128* v = src.raw<int128>();
        const int128 unit = pow10_128(src.type()->scale());
        return scan([&](int64_t i) {
          int128 whole = v[i] / unit;
          return whole < lo || whole > hi;
        });
      }
      case TypeId::kString:
        // Spark's ANSI string -> integral cast takes no fraction ("1.9" is no int).
        return scan([&](int64_t i) { return src.bytes_at(i).find('.') != std::string_view::npos; });
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz:
      case TypeId::kTimestampNs:
      case TypeId::kTimestampTzNs: {
        const int64_t* v = src.raw<int64_t>();
        const int64_t unit = is_nanos(f) ? 1'000'000'000 : kMicrosPerSecond;
        return scan([&](int64_t i) {
          int64_t secs = floor_div(v[i], unit);
          return secs < lo || secs > hi;
        });
      }
      default:
        break;
    }
  } else if (t == TypeId::kFloat && f == TypeId::kDouble) {
    // A finite double past the float range would become an infinity.
    const double* v = src.raw<double>();
    return scan(
        [&](int64_t i) { return std::isfinite(v[i]) && !std::isfinite(static_cast<float>(v[i])); });
  } else if (is_timestamp(t) && (f == TypeId::kFloat || f == TypeId::kDouble)) {
    // Seconds as a double: the non-ANSI cast saturates past the 64-bit range.
    const double unit = is_nanos(t) ? 1e9 : 1e6;
    auto out_of_range = [&](double secs) {
      return !integral_fits(secs * unit, INT64_MIN, INT64_MAX);
    };
    if (f == TypeId::kFloat) {
      const float* v = src.raw<float>();
      return scan([&](int64_t i) { return out_of_range(v[i]); });
    }
    const double* v = src.raw<double>();
    return scan([&](int64_t i) { return out_of_range(v[i]); });
  }
  if (!added) return -1;
  return scan([](int64_t) { return false; });
}

// Rows [b, e) of `src` cast to `dst` (any type): the first refused row, or -1. A nested row is
// refused when any of its (valid) members is.
int64_t refused_rows(const ColumnVector& src, const ColumnVector& dst, int64_t b, int64_t e) {
  if (&src == &dst || b >= e || src.type_id() == TypeId::kUnknown) return -1;
  if (!src.type()->is_nested()) return refused_primitive(src, dst, b, e);
  if (src.type_id() != dst.type_id() || src.num_children() != dst.num_children()) return -1;
  int64_t first = -1;
  const bool lists = !src.type()->is_struct();
  for (size_t k = 0; k < src.num_children(); ++k) {
    const ColumnVector& sc = src.child(k);
    const ColumnVector& dc = dst.child(k);
    int64_t from = lists ? src.list_begin(b) : b;
    const int64_t to = lists ? src.list_end(e - 1) : e;
    while (true) {
      int64_t c = refused_rows(sc, dc, from, to);
      if (c < 0) break;
      int64_t row = c;
      if (lists) {
        // The list holding element c: the last row whose elements begin at or before it.
        const int32_t* o = src.offsets().as<int32_t>();
        row = (std::upper_bound(o + b, o + e + 1, static_cast<int32_t>(c)) - o) - 1;
      }
      if (!src.is_null(row)) {
        if (first < 0 || row < first) first = row;
        break;
      }
      from = lists ? src.list_end(row) : row + 1;  // a NULL row's members are not values
    }
  }
  return first;
}

}  // namespace

int64_t first_refused(const Datum& in, const Datum& out, int64_t start, int64_t n) {
  if (start >= n) return -1;
  if (in.scalar) return refused_rows(*in.col, *out.col, 0, 1) < 0 ? -1 : start;
  return refused_rows(*in.col, *out.col, start, n);
}

Result<Datum> try_cast_datum(const Datum& in, const TypePtr& to, int64_t n) {
  Datum out = FLOE_TRY(cast_datum(in, to, n));
  const int64_t rows = in.scalar ? 1 : n;
  int64_t r = first_refused(Datum{in.col, false}, Datum{out.col, false}, 0, rows);
  if (r < 0) return out;
  // The cast made a new column (a same-type cast refuses nothing): clear the refused rows.
  std::vector<uint8_t> valid(static_cast<size_t>(rows));
  for (int64_t i = 0; i < rows; ++i) valid[i] = out.col->is_valid(i);
  for (; r >= 0; r = first_refused(Datum{in.col, false}, Datum{out.col, false}, r + 1, rows)) {
    valid[r] = 0;
  }
  out.col->set_validity_from_bytes(valid.data(), rows);
  return out;
}

}  // namespace floe::sql::internal
