// Proleptic Gregorian calendar maths (Iceberg spec, Primitive Types: dates are days from
// 1970-01-01) and the time-unit constants, with floor semantics for values before the epoch.
#pragma once

#include <cstdint>

namespace floe {

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kMicrosPerHour = 3'600 * kMicrosPerSecond;
constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;
constexpr int64_t kNanosPerMicro = 1'000;
constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kNanosPerDay = 86'400 * kNanosPerSecond;

// Division rounding towards negative infinity, and the matching non-negative remainder
// (for b > 0).
inline int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
inline int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

inline bool is_leap_year(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// Days in month m (1-12) of year y.
inline unsigned days_in_month(int64_t y, unsigned m) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap_year(y) ? 29 : kDays[m - 1];
}

// Days since 1970-01-01 of a civil date, and back.
int32_t days_from_civil(int64_t year, unsigned month, unsigned day);
void civil_from_days(int64_t days, int64_t* year, unsigned* month, unsigned* day);

}  // namespace floe
