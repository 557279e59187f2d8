// ISO-8601 date, time and timestamp parsing and printing.
#include "floe/util/date_time_text.h"

#include <limits>

#include "floe/util/calendar.h"
#include "floe/util/int128.h"

namespace floe {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

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
  *nanos = ((h * 60 + m) * 60 + sec) * kNanosPerSecond + frac;
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
  *epoch_nanos = int128_t(days) * kNanosPerDay + nanos - int128_t(offset) * kNanosPerSecond;
  return {};
}

}  // namespace

std::string format_time_of_day(int64_t nanos_of_day, FractionStyle style) {
  int64_t total_seconds = nanos_of_day / kNanosPerSecond;
  int64_t frac = nanos_of_day % kNanosPerSecond;
  int64_t h = total_seconds / 3600, m = (total_seconds / 60) % 60, s = total_seconds % 60;
  switch (style) {
    case FractionStyle::kMicros:
      return fmt::format("{:02d}:{:02d}:{:02d}.{:06d}", h, m, s, frac / 1000);
    case FractionStyle::kNanos:
      return fmt::format("{:02d}:{:02d}:{:02d}.{:09d}", h, m, s, frac);
    case FractionStyle::kTrimmed: {
      std::string out = fmt::format("{:02d}:{:02d}:{:02d}", h, m, s);
      if (frac != 0) {
        std::string f = fmt::format("{:09d}", frac);
        while (f.back() == '0') f.pop_back();
        out += "." + f;
      }
      return out;
    }
    case FractionStyle::kLocalTime: {
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

std::string format_date_time(int64_t days, int64_t nanos_of_day, FractionStyle style, bool tz) {
  std::string out = format_date(static_cast<int32_t>(days));
  out += 'T';
  out += format_time_of_day(nanos_of_day, style);
  if (tz) out += "+00:00";
  return out;
}

std::string format_micros(int64_t micros, FractionStyle style, bool tz) {
  int64_t days = floor_div(micros, kMicrosPerDay);
  int64_t rem = floor_mod(micros, kMicrosPerDay);
  return format_date_time(days, rem * kNanosPerMicro, style, tz);
}

std::string format_nanos(int64_t nanos, FractionStyle style, bool tz) {
  int64_t days = floor_div(nanos, kNanosPerDay);
  int64_t rem = floor_mod(nanos, kNanosPerDay);
  return format_date_time(days, rem, style, tz);
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
  return format_time_of_day(floor_mod(micros, kMicrosPerDay) * kNanosPerMicro,
                            FractionStyle::kMicros);
}

std::string format_timestamp(int64_t micros, bool tz) {
  return format_micros(micros, FractionStyle::kMicros, tz);
}

std::string format_timestamp_ns(int64_t nanos, bool tz) {
  return format_nanos(nanos, FractionStyle::kNanos, tz);
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

}  // namespace floe
