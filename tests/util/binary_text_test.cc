// Hex and Base64 text of bytes.
#include "floe/util/binary_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

TEST(BinaryTextTest, Base64Decode) {
  std::string out;
  const std::vector<std::string> samples = {
      "", "f", "fo", "foo", "foob", "fooba", "foobar", std::string("\xff\xfe\0", 3)};
  for (const std::string& s : samples) {
    ASSERT_TRUE(base64_decode(base64_encode(s), &out)) << s;
    EXPECT_EQ(out, s);
  }
  EXPECT_FALSE(base64_decode("Zg=", &out));       // length not a multiple of 4
  EXPECT_FALSE(base64_decode("Z===", &out));      // three pad characters
  EXPECT_FALSE(base64_decode("Zg==Zg==", &out));  // padding before the end
  EXPECT_FALSE(base64_decode("Zh==", &out));      // unused bits set
  EXPECT_FALSE(base64_decode("Zm9-", &out));      // not the standard alphabet
  EXPECT_FALSE(base64_decode("Zm 9", &out));
}

}  // namespace
}  // namespace floe
