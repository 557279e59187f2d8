// Date, time and timestamp text: the JSON single-value forms and the fraction styles.
#include "floe/util/date_time_text.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(DateTimeTextTest, FormatAndParse) {
  EXPECT_EQ(format_date(0), "1970-01-01");
  EXPECT_EQ(format_date(-1), "1969-12-31");
  EXPECT_EQ(format_date(-719162), "0001-01-01");
  EXPECT_EQ(format_date(-719528), "0000-01-01");
  EXPECT_EQ(format_date(-719529), "-0001-12-31");
  EXPECT_EQ(format_date(2932897), "+10000-01-01");
  EXPECT_EQ(*parse_date("+10000-01-01"), 2932897);
  EXPECT_EQ(*parse_date("-0001-12-31"), -719529);
  EXPECT_FALSE(parse_date("10000-01-01").ok());
  EXPECT_FALSE(parse_date("2017-11-16x").ok());

  EXPECT_EQ(format_time(0), "00:00:00.000000");
  EXPECT_EQ(format_time(81068000000), "22:31:08.000000");
  EXPECT_EQ(format_time(81068123456), "22:31:08.123456");
  EXPECT_EQ(*parse_time("22:31:08.123456"), 81068123456);
  EXPECT_EQ(*parse_time("22:31:08.123456789"), 81068123456);
  EXPECT_EQ(*parse_time("00:00:00.5"), 500000);

  EXPECT_EQ(format_timestamp(0, false), "1970-01-01T00:00:00.000000");
  EXPECT_EQ(format_timestamp(-1, false), "1969-12-31T23:59:59.999999");
  EXPECT_EQ(format_timestamp(-1, true), "1969-12-31T23:59:59.999999+00:00");
  EXPECT_EQ(format_timestamp_ns(-1, false), "1969-12-31T23:59:59.999999999");
  EXPECT_EQ(format_timestamp_ns(1510871468123456789, true), "2017-11-16T22:31:08.123456789+00:00");
  EXPECT_EQ(*parse_timestamp("1969-12-31T23:59:59.999999", false), -1);
  EXPECT_EQ(*parse_timestamp("1969-12-31T23:59:59.9999999", false), -1);  // floor to micros
  EXPECT_EQ(*parse_timestamp("2017-11-16T14:31:08-08:00", true), 1510871468000000);
  EXPECT_EQ(*parse_timestamp("2017-11-16T14:31:08-0800", true), 1510871468000000);
  EXPECT_EQ(*parse_timestamp("2017-11-16T22:31:08z", true), 1510871468000000);
  EXPECT_EQ(*parse_timestamp_ns("1969-12-31T23:59:59.999999999", false), -1);
  EXPECT_EQ(parse_timestamp("2017-11-16T14:31:08-08:00", false).status().kind(),
            ErrorKind::kInvalidData);
  EXPECT_FALSE(parse_timestamp_ns("2300-01-01T00:00:00", false).ok());  // beyond int64 nanos
  EXPECT_FALSE(parse_timestamp("2017-11-16T14:31:08+25:00", true).ok());
}

TEST(DateTimeTextTest, FractionStyles) {
  int64_t t = ((22 * 60 + 31) * 60 + 8) * 1'000'000'000LL + 120'000'000;  // 22:31:08.12
  EXPECT_EQ(format_time_of_day(t, FractionStyle::kMicros), "22:31:08.120000");
  EXPECT_EQ(format_time_of_day(t, FractionStyle::kNanos), "22:31:08.120000000");
  EXPECT_EQ(format_time_of_day(t, FractionStyle::kTrimmed), "22:31:08.12");
  EXPECT_EQ(format_time_of_day(t, FractionStyle::kLocalTime), "22:31:08.120");
  int64_t whole_minute = (22 * 60 + 31) * 60 * 1'000'000'000LL;
  EXPECT_EQ(format_time_of_day(whole_minute, FractionStyle::kTrimmed), "22:31:00");
  EXPECT_EQ(format_time_of_day(whole_minute, FractionStyle::kLocalTime), "22:31");
  EXPECT_EQ(format_time_of_day(whole_minute + 1'000, FractionStyle::kLocalTime), "22:31:00.000001");
  EXPECT_EQ(format_time_of_day(whole_minute + 1, FractionStyle::kLocalTime), "22:31:00.000000001");
  EXPECT_EQ(format_micros(-1, FractionStyle::kTrimmed, false), "1969-12-31T23:59:59.999999");
  EXPECT_EQ(format_micros(0, FractionStyle::kTrimmed, true), "1970-01-01T00:00:00+00:00");
  EXPECT_EQ(format_nanos(-1, FractionStyle::kTrimmed, false), "1969-12-31T23:59:59.999999999");
  EXPECT_EQ(format_date_time(1, 0, FractionStyle::kMicros, false), "1970-01-02T00:00:00.000000");
}

TEST(DateTimeTextTest, ParseEdges) {
  EXPECT_EQ(*parse_date("2024-02-29"), 19782);
  EXPECT_FALSE(parse_date("2023-02-29").ok());
  EXPECT_FALSE(parse_date("2023-13-01").ok());
  EXPECT_FALSE(parse_date("2023-1-01").ok());
  EXPECT_EQ(*parse_time("22:31"), 81060000000);
  EXPECT_FALSE(parse_time("24:00:00").ok());
  EXPECT_FALSE(parse_time("22:31:08.").ok());
  EXPECT_FALSE(parse_time("22:31:08.1234567890").ok());
  EXPECT_EQ(*parse_timestamp("1970-01-01 00:00:01", false), 1'000'000);  // space separator
  EXPECT_EQ(*parse_timestamp("1970-01-01T01:00+01", true), 0);
  EXPECT_EQ(*parse_timestamp("1970-01-01T01:00:00+01:00:00", true), 0);
  EXPECT_FALSE(parse_timestamp("1970-01-01", false).ok());
  EXPECT_FALSE(parse_timestamp("1970-01-01T00:00:00Zx", true).ok());
}

}  // namespace
}  // namespace floe
