#include "floe/util/json_depth.h"

#include <gtest/gtest.h>

#include <string>

namespace floe {
namespace {

std::string nested(size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(JsonDepth, CountsArraysAndObjects) {
  EXPECT_EQ(json_depth(""), 0u);
  EXPECT_EQ(json_depth("42"), 0u);
  EXPECT_EQ(json_depth("[]"), 1u);
  EXPECT_EQ(json_depth(R"({"a": [1, {"b": [[]]}], "c": {}})"), 5u);
  EXPECT_EQ(json_depth(nested(90000)), 90000u);
}

TEST(JsonDepth, BracketsInStringsDoNotCount) {
  EXPECT_EQ(json_depth(R"(["[[[{{{", "]]]"])"), 1u);
  // An escaped quote does not end the string; an escaped backslash does not escape the quote.
  EXPECT_EQ(json_depth(R"(["\"[[[", "\\", [2]])"), 2u);
  EXPECT_EQ(json_depth(R"({"k\"{": "\\"})"), 1u);
}

TEST(JsonDepth, CheckNamesWhatTheLimitAndTheByte) {
  EXPECT_TRUE(check_json_depth(nested(kMaxJsonDepth), "x").ok());
  Status st = check_json_depth("{\"a\": " + nested(kMaxJsonDepth), "table metadata");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "table metadata nests JSON deeper than 1000 levels (at byte 1005)");
  EXPECT_FALSE(check_json_depth(nested(90000), "Puffin footer").ok());
  EXPECT_TRUE(check_json_depth(nested(3), "x", 3).ok());
  EXPECT_FALSE(check_json_depth(nested(4), "x", 3).ok());
}

}  // namespace
}  // namespace floe
