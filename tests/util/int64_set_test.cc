// Int64Set against std::unordered_set: random values, the marker value INT64_MIN, keys that
// collide in the low bits, growth from empty and after reserve.
#include "floe/util/int64_set.h"

#include <gtest/gtest.h>

#include <climits>
#include <random>
#include <unordered_set>

namespace floe {
namespace {

TEST(Int64Set, AgreesWithUnorderedSet) {
  std::mt19937_64 rng(11);
  for (size_t reserve : {size_t{0}, size_t{1000}}) {
    Int64Set set;
    set.reserve(reserve);
    std::unordered_set<int64_t> ref;
    for (int i = 0; i < 20000; ++i) {
      int64_t v;
      switch (rng() % 4) {
        case 0:
          v = static_cast<int64_t>(rng() % 1000) - 500;
          break;  // small, negative
        case 1:
          v = static_cast<int64_t>(rng() % 64) << 40;
          break;  // low bits all zero
        case 2:
          v = static_cast<int64_t>(rng());
          break;
        default:
          v = rng() % 50 == 0 ? INT64_MIN : INT64_MAX - static_cast<int64_t>(rng() % 8);
      }
      set.insert(v);
      ref.insert(v);
    }
    EXPECT_EQ(set.size(), ref.size());
    for (int64_t v : ref) EXPECT_TRUE(set.contains(v)) << v;
    for (int i = 0; i < 20000; ++i) {
      int64_t v = static_cast<int64_t>(rng() % 4000) - 2000;
      EXPECT_EQ(set.contains(v), ref.count(v) == 1) << v;
    }
    std::unordered_set<int64_t> seen;
    set.for_each([&](int64_t v) { EXPECT_TRUE(seen.insert(v).second) << v; });
    EXPECT_EQ(seen, ref);
  }
}

TEST(Int64Set, EmptyAndTheMarkerValue) {
  Int64Set set;
  EXPECT_TRUE(set.empty());
  EXPECT_FALSE(set.contains(0));
  EXPECT_FALSE(set.contains(INT64_MIN));
  set.insert(INT64_MIN);
  EXPECT_TRUE(set.contains(INT64_MIN));
  EXPECT_FALSE(set.contains(0));
  EXPECT_EQ(set.size(), 1u);
  set.insert(0);
  set.insert(0);
  EXPECT_EQ(set.size(), 2u);
  EXPECT_TRUE(set.contains(0));
}

}  // namespace
}  // namespace floe
