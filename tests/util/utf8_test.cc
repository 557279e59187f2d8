// The UTF-8 helpers of util/utf8.h.
#include "floe/util/utf8.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

// "aé€😀": code points of 1, 2, 3 and 4 bytes.
const std::string kMixed = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";

TEST(Utf8, SequenceLength) {
  EXPECT_EQ(utf8_len('a'), 1u);
  EXPECT_EQ(utf8_len(0xc3), 2u);
  EXPECT_EQ(utf8_len(0xe2), 3u);
  EXPECT_EQ(utf8_len(0xf0), 4u);
  EXPECT_EQ(utf8_len(0x80), 1u);  // a continuation byte as a lead: invalid
  EXPECT_EQ(utf8_len(0xff), 1u);
}

TEST(Utf8, Count) {
  EXPECT_EQ(utf8_count(""), 0);
  EXPECT_EQ(utf8_count("abc"), 3);
  EXPECT_EQ(utf8_count(kMixed), 4);
}

TEST(Utf8, Offset) {
  EXPECT_EQ(utf8_offset(kMixed, 0), 0u);
  EXPECT_EQ(utf8_offset(kMixed, 1), 1u);
  EXPECT_EQ(utf8_offset(kMixed, 2), 3u);
  EXPECT_EQ(utf8_offset(kMixed, 3), 6u);
  EXPECT_EQ(utf8_offset(kMixed, 4), 10u);
  EXPECT_EQ(utf8_offset(kMixed, 9), 10u);  // clamped
  EXPECT_EQ(utf8_offset(kMixed, -1), 0u);
  EXPECT_EQ(utf8_offset("\xe2\x82", 1), 2u);  // a sequence cut short ends at the end
}

TEST(Utf8, Truncate) {
  EXPECT_EQ(utf8_truncate(kMixed, 2), "a\xc3\xa9");
  EXPECT_EQ(utf8_truncate(kMixed, 4), kMixed);
  EXPECT_EQ(utf8_truncate(kMixed, 0), "");
  EXPECT_EQ(utf8_truncate("", 3), "");
}

TEST(Utf8, Decode) {
  size_t used = 0;
  EXPECT_EQ(utf8_decode(kMixed, 10, &used), (std::vector<uint32_t>{0x61, 0xe9, 0x20ac, 0x1f600}));
  EXPECT_EQ(used, kMixed.size());
  EXPECT_EQ(utf8_decode(kMixed, 2, &used), (std::vector<uint32_t>{0x61, 0xe9}));
  EXPECT_EQ(used, 3u);
  // A sequence cut short decodes byte by byte.
  EXPECT_EQ(utf8_decode("\xe2\x82", 5, &used), (std::vector<uint32_t>{0xe2, 0x82}));
  EXPECT_EQ(used, 2u);
}

TEST(Utf8, Append) {
  std::string s;
  for (uint32_t cp : {0x61u, 0xe9u, 0x20acu, 0x1f600u}) utf8_append(cp, &s);
  EXPECT_EQ(s, kMixed);
  std::string latin;
  utf8_append(0xff, &latin);
  EXPECT_EQ(latin, "\xc3\xbf");
}

TEST(Utf8, Increment) {
  EXPECT_EQ(*utf8_increment("abc"), "abd");
  EXPECT_EQ(*utf8_increment("a\xc3\xa9"), "a\xc3\xaa");
  // U+D7FF steps over the surrogates.
  EXPECT_EQ(*utf8_increment("\xed\x9f\xbf"), "\xee\x80\x80");
  // U+10FFFF cannot be incremented: it is dropped and the one before is.
  EXPECT_EQ(*utf8_increment("a\xf4\x8f\xbf\xbf"), "b");
  EXPECT_FALSE(utf8_increment("\xf4\x8f\xbf\xbf").has_value());
  EXPECT_FALSE(utf8_increment("").has_value());
}

}  // namespace
}  // namespace floe
