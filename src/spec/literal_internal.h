// Private text helpers shared by literal.cc, transform.cc and partition_spec.cc: Java-compatible
// renderings (Double.toString, BigDecimal.toString, LocalTime.toString, ISO local date-time),
// hex and Base64.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "floe/spec/literal.h"

namespace floe::spec_internal {

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kMicrosPerHour = 3'600 * kMicrosPerSecond;
constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;
constexpr int64_t kNanosPerMicro = 1'000;
constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kNanosPerDay = 86'400 * kNanosPerSecond;

inline int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
inline int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

// How the fraction of a second is printed.
enum class Fraction {
  kMicros,     // always 6 digits (JSON single values)
  kNanos,      // always 9 digits (JSON single values of _ns types)
  kTrimmed,    // ISO_LOCAL_TIME: seconds always, fraction without trailing zeros
  kLocalTime,  // LocalTime.toString: HH:mm when seconds are 0, fraction in groups of 3
};

// "HH:MM:SS[.f]" for a time of day in nanoseconds (0 <= nanos < 86400e9).
std::string format_time_of_day(int64_t nanos_of_day, Fraction style);
// "<date>T<time>" for a day number and a time of day; tz appends "+00:00".
std::string format_date_time(int64_t days, int64_t nanos_of_day, Fraction style, bool tz);
// Splits epoch micros / nanos into (days, nanos of day) with floor semantics.
std::string format_micros(int64_t micros, Fraction style, bool tz);
std::string format_nanos(int64_t nanos, Fraction style, bool tz);

// Java's Float.toString / Double.toString (shortest round-trip digits).
std::string java_double_to_string(double v);
std::string java_float_to_string(float v);
// Java's BigDecimal.toString (scientific for negative scale or tiny adjusted exponents).
std::string java_decimal_to_string(int128_t unscaled, int scale);

std::string hex_encode(std::string_view bytes);     // lowercase
std::string base64_encode(std::string_view bytes);  // standard alphabet, padded

}  // namespace floe::spec_internal
