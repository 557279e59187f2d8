// Uuid text: parse and format (moved from tests/spec/literal_test.cc), and random_uuid.
#include "floe/util/uuid.h"

#include <gtest/gtest.h>

#include <set>

namespace floe {
namespace {

TEST(UuidTest, ParseAndFormat) {
  Uuid u = Uuid::parse("f79c3e09-677c-4bbd-a479-3f349cb785e7").value();
  EXPECT_EQ(u.bytes, (std::array<uint8_t, 16>{0xF7, 0x9C, 0x3E, 0x09, 0x67, 0x7C, 0x4B, 0xBD, 0xA4,
                                              0x79, 0x3F, 0x34, 0x9C, 0xB7, 0x85, 0xE7}));
  EXPECT_EQ(u.to_string(), "f79c3e09-677c-4bbd-a479-3f349cb785e7");
  auto upper = Uuid::parse("F79C3E09-677C-4BBD-A479-3F349CB785E7");
  ASSERT_TRUE(upper.ok());
  EXPECT_EQ(*upper, u);
  EXPECT_EQ(upper->to_string(), "f79c3e09-677c-4bbd-a479-3f349cb785e7");
}

TEST(UuidTest, RejectsMalformed) {
  EXPECT_EQ(Uuid::parse("f79c3e09677c4bbda4793f349cb785e7").status().kind(),
            ErrorKind::kInvalidData);
  EXPECT_FALSE(Uuid::parse("f79c3e09-677c-4bbd-a479-3f349cb785eg").ok());
  EXPECT_FALSE(Uuid::parse("f79c3e09-677c-4bbd-a4793-f349cb785e7").ok());
  EXPECT_FALSE(Uuid::parse("").ok());
}

TEST(UuidTest, RandomUuidsAreVersion4AndDistinct) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    std::string u = random_uuid();
    ASSERT_EQ(u.size(), 36u);
    EXPECT_EQ(u[14], '4');
    EXPECT_TRUE(u[19] == '8' || u[19] == '9' || u[19] == 'a' || u[19] == 'b') << u;
    auto parsed = Uuid::parse(u);
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(parsed->to_string(), u);
    seen.insert(u);
  }
  EXPECT_EQ(seen.size(), 100u);
}

}  // namespace
}  // namespace floe
