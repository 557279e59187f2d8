// Date, time and timestamp text (Iceberg spec, JSON single-value serialization; ISO-8601 as
// Java's LocalDate / LocalTime / LocalDateTime / OffsetDateTime read and print it).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "floe/util/result.h"

namespace floe {

// How the fraction of a second is printed.
enum class FractionStyle {
  kMicros,     // always 6 digits (JSON single values)
  kNanos,      // always 9 digits (JSON single values of _ns types)
  kTrimmed,    // ISO_LOCAL_TIME: seconds always, fraction without trailing zeros
  kLocalTime,  // LocalTime.toString: HH:mm when seconds are 0, fraction in groups of 3
};

// "HH:MM:SS[.f]" for a time of day in nanoseconds (0 <= nanos < 86400e9).
std::string format_time_of_day(int64_t nanos_of_day, FractionStyle style);
// "<date>T<time>" for a day number and a time of day; tz appends "+00:00".
std::string format_date_time(int64_t days, int64_t nanos_of_day, FractionStyle style, bool tz);
// Epoch micros / nanos as "<date>T<time>" (split into day and time of day with floor semantics).
std::string format_micros(int64_t micros, FractionStyle style, bool tz);
std::string format_nanos(int64_t nanos, FractionStyle style, bool tz);

// The JSON single-value forms.
std::string format_date(int32_t days);    // 2017-11-16
std::string format_time(int64_t micros);  // 22:31:08.123456 (always 6 fraction digits)
std::string format_timestamp(int64_t micros, bool tz);  // 2017-11-16T22:31:08.123456[+00:00]
std::string format_timestamp_ns(int64_t nanos, bool tz);
Result<int32_t> parse_date(std::string_view text);
Result<int64_t> parse_time(std::string_view text);                // micros
Result<int64_t> parse_timestamp(std::string_view text, bool tz);  // micros; tz accepts offsets
Result<int64_t> parse_timestamp_ns(std::string_view text, bool tz);

}  // namespace floe
