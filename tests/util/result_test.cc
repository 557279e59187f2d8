#include "floe/util/result.h"

#include <gtest/gtest.h>

#include <memory>

namespace floe {
namespace {

Result<int> parse_positive(int v) {
  if (v <= 0) return invalid_argument("value {} is not positive", v);
  return v;
}

Result<int> doubled(int v) {
  int x = FLOE_TRY(parse_positive(v));
  return x * 2;
}

Status check(int v) {
  FLOE_TRY(parse_positive(v));
  return Status::OK();
}

Result<std::unique_ptr<int>> make_owned(int v) { return std::make_unique<int>(v); }

Result<int> use_owned(int v) {
  std::unique_ptr<int> p = FLOE_TRY(make_owned(v));
  return *p + 1;
}

Result<int> with_context(int v) { return FLOE_TRY_CTX(parse_positive(v), "reading x.json"); }

TEST(ResultTest, ValuesAndErrorsPropagate) {
  auto ok = doubled(21);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 42);
  auto bad = doubled(-1);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(bad.status().message(), "value -1 is not positive");
  EXPECT_EQ(bad.status().to_string(), "invalid argument: value -1 is not positive");
  EXPECT_TRUE(check(3).ok());
  EXPECT_EQ(check(0).kind(), ErrorKind::kInvalidArgument);
}

TEST(ResultTest, MoveOnlyValues) {
  auto r = use_owned(4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 5);
}

TEST(ResultTest, ContextPrefixesTheMessage) {
  auto r = with_context(-2);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "reading x.json: value -2 is not positive");
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(*with_context(2), 2);
}

TEST(ResultTest, ValueOrAndOkStatus) {
  EXPECT_EQ(parse_positive(-1).value_or(7), 7);
  EXPECT_EQ(parse_positive(3).value_or(7), 3);
  EXPECT_TRUE(parse_positive(3).status().ok());
  EXPECT_STREQ(error_kind_name(ErrorKind::kCommitConflict), "commit conflict");
}

}  // namespace
}  // namespace floe
