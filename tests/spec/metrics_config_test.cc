// Metrics modes, their table properties and the truncation of bounds (spec/metrics_config.h).
#include "floe/spec/metrics_config.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

NestedField column(int32_t id, std::string name) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.type = Type::int32();
  return f;
}

TEST(MetricsConfig, TruncationRules) {
  EXPECT_EQ(truncate_lower_string("iceberg", 3), "ice");
  EXPECT_EQ(*truncate_upper_string("iceberg", 3), "icf");
  EXPECT_EQ(*truncate_upper_string("ice", 3), "ice");
  // U+D7FF increments to U+E000 (surrogates are skipped).
  EXPECT_EQ(*truncate_upper_string("a\xed\x9f\xbfzz", 2), "a\xee\x80\x80");
  // The last unit overflows: drop it and increment the previous one.
  EXPECT_EQ(*truncate_upper_string("a\xf4\x8f\xbf\xbfzz", 2), "b");
  EXPECT_FALSE(truncate_upper_binary(std::string("\xff\xff\xff", 3), 2).has_value());
  EXPECT_EQ(*truncate_upper_binary(std::string("\x01\xff\x05", 3), 2), "\x02");
  EXPECT_EQ(MetricsMode::parse("truncate(16)")->length, 16);
  EXPECT_FALSE(MetricsMode::parse("truncate(x)").ok());
}

TEST(MetricsConfig, TruncateLowerKeepsWholeCodePoints) {
  EXPECT_EQ(truncate_lower_string("\xc3\xa9\xc3\xa9x", 1), "\xc3\xa9");
  EXPECT_EQ(truncate_lower_string("ab", 5), "ab");
  EXPECT_EQ(truncate_lower_binary("abcdef", 2), "ab");
  EXPECT_EQ(*truncate_upper_binary("ab", 2), "ab");
}

TEST(MetricsConfig, ParseAndPrintModes) {
  EXPECT_EQ(MetricsMode::parse(" None ")->kind, MetricsMode::kNone);
  EXPECT_EQ(MetricsMode::parse("counts")->kind, MetricsMode::kCounts);
  EXPECT_EQ(MetricsMode::parse("FULL")->kind, MetricsMode::kFull);
  EXPECT_FALSE(MetricsMode::parse("truncate(0)").ok());
  EXPECT_FALSE(MetricsMode::parse("some").ok());
  EXPECT_EQ(MetricsMode::parse("truncate(8)")->to_string(), "truncate(8)");
  EXPECT_EQ(MetricsMode{}.to_string(), "truncate(16)");
}

TEST(MetricsConfig, FromPropertiesDefaultAndColumns) {
  Schema schema(0, {column(1, "a"), column(2, "b")});
  auto c = MetricsConfig::from_properties({{"write.metadata.metrics.default", "counts"},
                                           {"write.metadata.metrics.column.b", "full"},
                                           {"write.metadata.metrics.column.zz", "none"}},
                                          schema);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->default_mode.kind, MetricsMode::kCounts);
  EXPECT_EQ(c->mode(1).kind, MetricsMode::kCounts);
  EXPECT_EQ(c->mode(2).kind, MetricsMode::kFull);
  EXPECT_EQ(c->column_modes.size(), 1u);
  EXPECT_FALSE(
      MetricsConfig::from_properties({{"write.metadata.metrics.default", "x"}}, schema).ok());
  EXPECT_FALSE(MetricsConfig::from_properties(
                   {{"write.metadata.metrics.max-inferred-column-defaults", "0"}}, schema)
                   .ok());
}

TEST(MetricsConfig, InferredLimitTurnsLaterColumnsOff) {
  Schema schema(0, {column(1, "a"), column(2, "b"), column(3, "c")});
  auto c = MetricsConfig::from_properties(
      {{"write.metadata.metrics.max-inferred-column-defaults", "2"}}, schema);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->mode(2).kind, MetricsMode::kTruncate);
  EXPECT_EQ(c->mode(3).kind, MetricsMode::kNone);
  // An explicit default applies to every column.
  auto d =
      MetricsConfig::from_properties({{"write.metadata.metrics.max-inferred-column-defaults", "2"},
                                      {"write.metadata.metrics.default", "full"}},
                                     schema);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->mode(3).kind, MetricsMode::kFull);
}

}  // namespace
}  // namespace floe
