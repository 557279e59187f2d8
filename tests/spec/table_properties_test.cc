#include "floe/spec/table_properties.h"

#include <gtest/gtest.h>

namespace floe::table_properties {
namespace {

TEST(TableProperties, IntPropertyParsesOrFallsBack) {
  Properties p{{"a", "42"}, {"b", "x"}, {"c", " +7"}, {"d", "-3"}};
  EXPECT_EQ(int_property(p, "a", 1), 42);
  EXPECT_EQ(int_property(p, "b", 1), 1);
  EXPECT_EQ(int_property(p, "c", 1), 7);
  EXPECT_EQ(int_property(p, "d", 1), -3);
  EXPECT_EQ(int_property(p, "missing", 9), 9);
}

TEST(TableProperties, BoolPropertyIsTrueOnlyForTrue) {
  Properties p{{"a", "TRUE"}, {"b", "yes"}, {"c", "false"}};
  EXPECT_TRUE(bool_property(p, "a", false));
  EXPECT_FALSE(bool_property(p, "b", true));
  EXPECT_FALSE(bool_property(p, "c", true));
  EXPECT_TRUE(bool_property(p, "missing", true));
}

TEST(TableProperties, KeysAndDefaultsMatchJava) {
  EXPECT_EQ(kManifestTargetSizeBytes, "commit.manifest.target-size-bytes");
  EXPECT_EQ(kManifestTargetSizeBytesDefault, 8388608);
  EXPECT_EQ(kSplitSizeDefault, 134217728);
  EXPECT_EQ(kSplitOpenFileCostDefault, 4194304);
  EXPECT_EQ(kCommitTotalRetryTimeMsDefault, 1800000);
  EXPECT_EQ(string_property({}, kDefaultFileFormat, kDefaultFileFormatDefault), "parquet");
}

}  // namespace
}  // namespace floe::table_properties
