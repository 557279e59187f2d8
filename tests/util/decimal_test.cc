// Decimal text (plain and BigDecimal) and the Appendix D minimal two's-complement bytes.
#include "floe/util/decimal.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

std::string bytes_of(std::initializer_list<int> v) {
  std::string out;
  for (int b : v) out.push_back(static_cast<char>(b));
  return out;
}

TEST(DecimalTest, MinimalTwosComplement) {
  EXPECT_EQ(decimal_to_bytes(0), bytes_of({0x00}));
  EXPECT_EQ(decimal_to_bytes(1), bytes_of({0x01}));
  EXPECT_EQ(decimal_to_bytes(-1), bytes_of({0xFF}));
  EXPECT_EQ(decimal_to_bytes(127), bytes_of({0x7F}));
  EXPECT_EQ(decimal_to_bytes(128), bytes_of({0x00, 0x80}));
  EXPECT_EQ(decimal_to_bytes(-128), bytes_of({0x80}));
  EXPECT_EQ(decimal_to_bytes(-129), bytes_of({0xFF, 0x7F}));
  EXPECT_EQ(decimal_to_bytes(1420), bytes_of({0x05, 0x8C}));
  EXPECT_EQ(decimal_to_bytes(-1420), bytes_of({0xFA, 0x74}));
  EXPECT_EQ(decimal_to_bytes(65536), bytes_of({0x01, 0x00, 0x00}));
  EXPECT_TRUE(decimal_from_bytes(bytes_of({0xFA, 0x74})) == -1420);
  EXPECT_TRUE(decimal_from_bytes(bytes_of({0x00, 0x80})) == 128);
  EXPECT_TRUE(decimal_from_bytes(bytes_of({0x80})) == -128);
  // 38 nines: the largest decimal(38, s) unscaled value, 16 bytes.
  int128_t max38 = 0;
  for (int i = 0; i < 38; ++i) max38 = max38 * 10 + 9;
  std::string b = decimal_to_bytes(max38);
  EXPECT_EQ(b.size(), 16u);
  EXPECT_TRUE(decimal_from_bytes(b) == max38);
  EXPECT_TRUE(decimal_from_bytes(decimal_to_bytes(-max38)) == -max38);
}

TEST(DecimalTest, FormatAndParse) {
  EXPECT_EQ(format_decimal(1420, 2), "14.20");
  EXPECT_EQ(format_decimal(-1420, 2), "-14.20");
  EXPECT_EQ(format_decimal(5, 2), "0.05");
  EXPECT_EQ(format_decimal(-5, 3), "-0.005");
  EXPECT_EQ(format_decimal(0, 2), "0.00");
  EXPECT_EQ(format_decimal(7, 0), "7");
  EXPECT_EQ(format_decimal(2, -20), "2E+20");
  EXPECT_EQ(format_decimal(123, -2), "1.23E+4");
  EXPECT_EQ(format_decimal(-123, -2), "-1.23E+4");
  EXPECT_TRUE(*parse_decimal("14.20", 2) == 1420);
  EXPECT_TRUE(*parse_decimal("14.2", 2) == 1420);    // exact: padded
  EXPECT_TRUE(*parse_decimal("14.200", 2) == 1420);  // exact: only zeros dropped
  EXPECT_TRUE(*parse_decimal("-0.05", 2) == -5);
  EXPECT_TRUE(*parse_decimal("2E+20", -20) == 2);
  EXPECT_TRUE(*parse_decimal("1.23E+4", -2) == 123);
  EXPECT_TRUE(*parse_decimal("1E-2", 2) == 1);
  EXPECT_FALSE(parse_decimal("14.201", 2).ok());
  EXPECT_FALSE(parse_decimal("1.2.3", 2).ok());
  EXPECT_FALSE(parse_decimal("", 2).ok());
  EXPECT_FALSE(parse_decimal("1e", 2).ok());
  EXPECT_FALSE(parse_decimal("123456789012345678901234567890123456789", 0).ok());  // 39 digits
}

TEST(DecimalTest, BigDecimalText) {
  int128_t unscaled = 0;
  int scale = 0;
  ASSERT_TRUE(parse_decimal_text("1.50", &unscaled, &scale));
  EXPECT_TRUE(unscaled == 150);
  EXPECT_EQ(scale, 2);
  ASSERT_TRUE(parse_decimal_text("-1E+3", &unscaled, &scale));
  EXPECT_TRUE(unscaled == -1);
  EXPECT_EQ(scale, -3);
  ASSERT_TRUE(parse_decimal_text("+.5", &unscaled, &scale));
  EXPECT_TRUE(unscaled == 5);
  EXPECT_EQ(scale, 1);
  EXPECT_FALSE(parse_decimal_text(".", &unscaled, &scale));
  EXPECT_FALSE(parse_decimal_text("1x", &unscaled, &scale));
  EXPECT_FALSE(parse_decimal_text("1E1234567890", &unscaled, &scale));
  EXPECT_EQ(java_decimal_to_string(1420, 2), "14.20");
  EXPECT_EQ(java_decimal_to_string(1, 7), "1E-7");
  EXPECT_EQ(java_decimal_to_string(1, 6), "0.000001");
  EXPECT_EQ(java_decimal_to_string(-123, 9), "-1.23E-7");
  EXPECT_EQ(java_decimal_to_string(2, -20), "2E+20");
}

TEST(DecimalTest, DigitCountAndPowers) {
  EXPECT_EQ(decimal_digit_count(0), 1);
  EXPECT_EQ(decimal_digit_count(9), 1);
  EXPECT_EQ(decimal_digit_count(-10), 2);
  EXPECT_EQ(decimal_digit_count(pow10_i128(38) - 1), 38);
  EXPECT_EQ(decimal_digit_count(-(pow10_i128(37))), 38);
  EXPECT_TRUE(pow10_i128(0) == 1);
  EXPECT_TRUE(pow10_i128(3) == 1000);
}

}  // namespace
}  // namespace floe
