// visit_type: one call per type id with the right tag, and the fixed-width value types.
#include "floe/spec/type_visitor.h"

#include <gtest/gtest.h>

#include <string>
#include <type_traits>

namespace floe {
namespace {

constexpr TypeId kAllIds[] = {
    TypeId::kBoolean,   TypeId::kInt,         TypeId::kLong,        TypeId::kFloat,
    TypeId::kDouble,    TypeId::kDecimal,     TypeId::kDate,        TypeId::kTime,
    TypeId::kTimestamp, TypeId::kTimestampTz, TypeId::kTimestampNs, TypeId::kTimestampTzNs,
    TypeId::kString,    TypeId::kUuid,        TypeId::kFixed,       TypeId::kBinary,
    TypeId::kUnknown,   TypeId::kVariant,     TypeId::kGeometry,    TypeId::kGeography,
    TypeId::kStruct,    TypeId::kList,        TypeId::kMap,
};

TEST(TypeVisitorTest, PassesTheTagOfEveryId) {
  for (TypeId id : kAllIds) {
    TypeId seen = visit_type(id, [](auto tag) { return tag.kId; });
    EXPECT_EQ(seen, id);
  }
}

TEST(TypeVisitorTest, FixedValueTypes) {
  auto size_of = [](TypeId id) {
    return visit_type(id, [](auto tag) -> int {
      using T = typename decltype(tag)::Value;
      if constexpr (tag.kFixedValue) {
        return static_cast<int>(sizeof(T));
      } else {
        return 0;
      }
    });
  };
  EXPECT_EQ(size_of(TypeId::kBoolean), 1);
  EXPECT_EQ(size_of(TypeId::kInt), 4);
  EXPECT_EQ(size_of(TypeId::kDate), 4);
  EXPECT_EQ(size_of(TypeId::kFloat), 4);
  EXPECT_EQ(size_of(TypeId::kLong), 8);
  EXPECT_EQ(size_of(TypeId::kTime), 8);
  EXPECT_EQ(size_of(TypeId::kTimestampTzNs), 8);
  EXPECT_EQ(size_of(TypeId::kDouble), 8);
  EXPECT_EQ(size_of(TypeId::kDecimal), 16);
  EXPECT_EQ(size_of(TypeId::kString), 0);
  EXPECT_EQ(size_of(TypeId::kUuid), 0);
  EXPECT_EQ(size_of(TypeId::kFixed), 0);
  EXPECT_EQ(size_of(TypeId::kStruct), 0);
  static_assert(std::is_same_v<TypeTag<TypeId::kTimestamp>::Value, int64_t>);
  static_assert(std::is_same_v<TypeTag<TypeId::kDecimal>::Value, int128_t>);
  static_assert(!TypeTag<TypeId::kBinary>::kFixedValue);
}

TEST(TypeVisitorTest, FixedValueOfLiterals) {
  EXPECT_EQ(fixed_value<bool>(Literal::boolean(true)), true);
  EXPECT_EQ(fixed_value<int32_t>(Literal::date(-3)), -3);
  EXPECT_EQ(fixed_value<int64_t>(Literal::timestamp(1234)), 1234);
  EXPECT_EQ(fixed_value<int64_t>(Literal::int32(7)), 7);
  EXPECT_EQ(fixed_value<float>(Literal::float32(1.5f)), 1.5f);
  EXPECT_EQ(fixed_value<double>(Literal::float64(2.5)), 2.5);
  EXPECT_TRUE(fixed_value<int128_t>(Literal::decimal(1420, 4, 2)) == 1420);
}

TEST(TypeVisitorTest, ReturnsReferences) {
  std::string name = "x";
  std::string& r = visit_type(TypeId::kInt, [&](auto) -> std::string& { return name; });
  EXPECT_EQ(&r, &name);
}

}  // namespace
}  // namespace floe
