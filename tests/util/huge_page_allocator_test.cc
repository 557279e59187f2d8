// HugePageBlock: small blocks from malloc, 2 MB and larger ones 2 MB-aligned mappings.
#include "floe/util/huge_page_allocator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace floe {
namespace {

TEST(HugePageBlockTest, DefaultIsEmpty) {
  HugePageBlock b;
  EXPECT_EQ(b.data(), nullptr);
  EXPECT_EQ(b.size(), 0u);
}

TEST(HugePageBlockTest, SmallBlockIsWritable) {
  HugePageBlock b(4096);
  ASSERT_NE(b.data(), nullptr);
  EXPECT_EQ(b.size(), 4096u);
  std::memset(b.data(), 0xab, b.size());
  EXPECT_EQ(static_cast<unsigned char>(b.data()[4095]), 0xab);
}

TEST(HugePageBlockTest, LargeBlockIsWritable) {
  const size_t bytes = HugePageBlock::kHuge + 12345;
  HugePageBlock b(bytes);
  ASSERT_NE(b.data(), nullptr);
  EXPECT_EQ(b.size(), bytes);
  std::memset(b.data(), 1, bytes);
  EXPECT_EQ(b.data()[0], 1);
  EXPECT_EQ(b.data()[bytes - 1], 1);
}

TEST(HugePageBlockTest, MoveTransfersOwnership) {
  HugePageBlock a(HugePageBlock::kHuge);
  char* data = a.data();
  HugePageBlock b(std::move(a));
  EXPECT_EQ(b.data(), data);
  EXPECT_EQ(b.size(), HugePageBlock::kHuge);
  EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move)

  HugePageBlock c(100);
  c = std::move(b);
  EXPECT_EQ(c.data(), data);
  EXPECT_EQ(b.data(), nullptr);  // NOLINT(bugprone-use-after-move)
}

TEST(HugePageBlockTest, BlocksSurviveVectorGrowth) {
  std::vector<HugePageBlock> blocks;
  std::vector<char*> data;
  for (int i = 0; i < 20; ++i) {
    blocks.emplace_back(1024 * (i + 1));
    data.push_back(blocks.back().data());
    blocks.back().data()[0] = static_cast<char>(i);
  }
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(blocks[i].data(), data[i]);
    EXPECT_EQ(blocks[i].data()[0], static_cast<char>(i));
  }
}

}  // namespace
}  // namespace floe
