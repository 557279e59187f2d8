// Calendar maths: civil date <-> day number, leap years, floor division.
#include "floe/util/calendar.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(CalendarTest, CivilConversions) {
  EXPECT_EQ(days_from_civil(1970, 1, 1), 0);
  EXPECT_EQ(days_from_civil(1969, 12, 31), -1);
  EXPECT_EQ(days_from_civil(2017, 11, 16), 17486);
  EXPECT_EQ(days_from_civil(2003, 10, 20), 12345);
  EXPECT_EQ(days_from_civil(2000, 2, 29), 11016);
  EXPECT_EQ(days_from_civil(1, 1, 1), -719162);
  int64_t y = 0;
  unsigned m = 0, d = 0;
  civil_from_days(-1, &y, &m, &d);
  EXPECT_EQ(y, 1969);
  EXPECT_EQ(m, 12u);
  EXPECT_EQ(d, 31u);
  civil_from_days(20574, &y, &m, &d);
  EXPECT_EQ(y, 2026);
  EXPECT_EQ(m, 5u);
  EXPECT_EQ(d, 1u);
  for (int64_t days = -800000; days <= 800000; days += 97) {
    civil_from_days(days, &y, &m, &d);
    ASSERT_EQ(days_from_civil(y, m, d), days);
  }
}

TEST(CalendarTest, LeapYearsAndMonthLengths) {
  EXPECT_TRUE(is_leap_year(2000));
  EXPECT_TRUE(is_leap_year(2024));
  EXPECT_FALSE(is_leap_year(1900));
  EXPECT_FALSE(is_leap_year(2023));
  EXPECT_TRUE(is_leap_year(0));
  EXPECT_TRUE(is_leap_year(-4));
  EXPECT_EQ(days_in_month(2024, 2), 29u);
  EXPECT_EQ(days_in_month(2023, 2), 28u);
  EXPECT_EQ(days_in_month(1900, 2), 28u);
  EXPECT_EQ(days_in_month(2023, 1), 31u);
  EXPECT_EQ(days_in_month(2023, 4), 30u);
  EXPECT_EQ(days_in_month(2023, 12), 31u);
}

TEST(CalendarTest, FloorDivisionAndUnits) {
  EXPECT_EQ(floor_div(7, 2), 3);
  EXPECT_EQ(floor_div(-7, 2), -4);
  EXPECT_EQ(floor_div(-8, 2), -4);
  EXPECT_EQ(floor_div(-1, kMicrosPerDay), -1);
  EXPECT_EQ(floor_mod(-1, kMicrosPerDay), kMicrosPerDay - 1);
  EXPECT_EQ(floor_mod(7, 3), 1);
  EXPECT_EQ(floor_mod(-7, 3), 2);
  EXPECT_EQ(kMicrosPerDay, 86'400'000'000);
  EXPECT_EQ(kNanosPerDay, kMicrosPerDay * kNanosPerMicro);
  EXPECT_EQ(kMicrosPerHour * 24, kMicrosPerDay);
}

}  // namespace
}  // namespace floe
