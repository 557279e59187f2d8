// Java's Float.toString / Double.toString.
#include "floe/util/float_text.h"

#include <gtest/gtest.h>

#include <limits>

namespace floe {
namespace {

TEST(FloatTextTest, JavaDoubleToString) {
  EXPECT_EQ(java_double_to_string(1.0), "1.0");
  EXPECT_EQ(java_double_to_string(-0.0), "-0.0");
  EXPECT_EQ(java_double_to_string(0.0), "0.0");
  EXPECT_EQ(java_double_to_string(0.1), "0.1");
  EXPECT_EQ(java_double_to_string(100.5), "100.5");
  EXPECT_EQ(java_double_to_string(0.001), "0.001");
  EXPECT_EQ(java_double_to_string(0.0001), "1.0E-4");
  EXPECT_EQ(java_double_to_string(1234567.0), "1234567.0");
  EXPECT_EQ(java_double_to_string(12345678.0), "1.2345678E7");
  EXPECT_EQ(java_double_to_string(1e21), "1.0E21");
  EXPECT_EQ(java_double_to_string(std::numeric_limits<double>::quiet_NaN()), "NaN");
  EXPECT_EQ(java_double_to_string(std::numeric_limits<double>::infinity()), "Infinity");
  EXPECT_EQ(java_double_to_string(-std::numeric_limits<double>::infinity()), "-Infinity");
}

TEST(FloatTextTest, JavaFloatToString) {
  EXPECT_EQ(java_float_to_string(0.34234f), "0.34234");
  EXPECT_EQ(java_float_to_string(1.5f), "1.5");
  EXPECT_EQ(java_float_to_string(-2.0f), "-2.0");
  EXPECT_EQ(java_float_to_string(1e10f), "1.0E10");
  EXPECT_EQ(java_float_to_string(std::numeric_limits<float>::quiet_NaN()), "NaN");
}

}  // namespace
}  // namespace floe
