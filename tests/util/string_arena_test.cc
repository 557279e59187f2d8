// StringArena: copies of strings and arrays that stay valid as the arena grows.
#include "floe/util/string_arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace floe {
namespace {

TEST(StringArenaTest, CopiesStrings) {
  StringArena arena;
  std::string s = "hello";
  std::string_view c = arena.copy(s);
  s[0] = 'j';
  EXPECT_EQ(c, "hello");
  EXPECT_NE(c.data(), s.data());
}

TEST(StringArenaTest, EmptyStringTakesNoSpace) {
  StringArena arena;
  std::string_view c = arena.copy("");
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(c.data(), nullptr);
}

TEST(StringArenaTest, CopiesArrays) {
  StringArena arena;
  std::vector<int64_t> v = {1, -2, 3};
  auto c = arena.copy_array(v);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[1], -2);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(c.data()) % alignof(int64_t), 0u);
  EXPECT_TRUE(arena.copy_array(std::vector<int32_t>{}).empty());
}

TEST(StringArenaTest, AllocationsAreAligned) {
  StringArena arena;
  arena.allocate(3, 1);
  char* p = arena.allocate(16, 16);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 16, 0u);
}

TEST(StringArenaTest, ManyStringsStayValidAcrossBlocks) {
  StringArena arena;
  std::vector<std::string_view> views;
  for (int i = 0; i < 100000; ++i) views.push_back(arena.copy("path/" + std::to_string(i)));
  for (int i = 0; i < 100000; ++i) ASSERT_EQ(views[i], "path/" + std::to_string(i));
}

TEST(StringArenaTest, LargerThanABlock) {
  StringArena arena;
  std::string big(5 << 20, 'x');
  std::string_view c = arena.copy(big);
  EXPECT_EQ(c.size(), big.size());
  EXPECT_EQ(c, big);
  EXPECT_EQ(arena.copy("after"), "after");
}

}  // namespace
}  // namespace floe
