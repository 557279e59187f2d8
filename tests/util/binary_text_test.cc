// Hex and Base64 text of bytes.
#include "floe/util/binary_text.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(BinaryTextTest, Hex) {
  EXPECT_EQ(hex_encode(""), "");
  EXPECT_EQ(hex_encode(std::string("\x00\x7f\x80\xff", 4)), "007f80ff");
  std::string out;
  ASSERT_TRUE(hex_decode("007F80ff", &out));
  EXPECT_EQ(out, std::string("\x00\x7f\x80\xff", 4));
  EXPECT_FALSE(hex_decode("abc", &out));
  EXPECT_FALSE(hex_decode("zz", &out));
  EXPECT_EQ(hex_digit_value('7'), 7);
  EXPECT_EQ(hex_digit_value('b'), 11);
  EXPECT_EQ(hex_digit_value('F'), 15);
  EXPECT_EQ(hex_digit_value('g'), -1);
}

TEST(BinaryTextTest, Base64) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64_encode(std::string("\xff\xfe", 2)), "//4=");
}

}  // namespace
}  // namespace floe
