// Types and schemas: parsing type strings, nested field lookups by id and name, identifier
// field rules.
#include "floe/spec/schema.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

NestedField field(int32_t id, std::string name, TypePtr type, bool required = false) {
  return NestedField{id, std::move(name), std::move(type), required,
                     "", std::nullopt,    std::nullopt};
}

Schema nested_schema(std::vector<int32_t> identifiers = {1}) {
  // id, location struct<lat, long>, tags list<string>, props map<string, struct<v>>
  return Schema(
      3,
      {field(1, "id", Type::int64(), true),
       field(
           2, "Location",
           Type::struct_of({field(5, "lat", Type::float64()), field(6, "long", Type::float64())})),
       field(3, "tags", Type::list_of(7, Type::string(), true)),
       field(4, "props",
             Type::map_of(8, Type::string(), 9,
                          Type::struct_of({field(10, "v", Type::int32(), true)}), false))},
      std::move(identifiers));
}

TEST(TypeTest, ParsesPrimitiveStrings) {
  EXPECT_EQ((*Type::parse_primitive("long"))->id(), TypeId::kLong);
  EXPECT_EQ((*Type::parse_primitive("TimestampTZ"))->id(), TypeId::kTimestampTz);
  EXPECT_EQ((*Type::parse_primitive("timestamp_ns"))->id(), TypeId::kTimestampNs);
  auto dec = *Type::parse_primitive("decimal( 38 , 10 )");
  EXPECT_EQ(dec->precision(), 38);
  EXPECT_EQ(dec->scale(), 10);
  EXPECT_EQ(dec->to_string(), "decimal(38, 10)");
  EXPECT_EQ((*Type::parse_primitive("fixed[16]"))->length(), 16);
  EXPECT_EQ((*Type::parse_primitive("fixed[16]"))->to_string(), "fixed[16]");
  EXPECT_EQ((*Type::parse_primitive("geography(srid:4326, vincenty)"))->algorithm(), "vincenty");
  EXPECT_EQ((*Type::parse_primitive("unknown"))->id(), TypeId::kUnknown);
  EXPECT_EQ((*Type::parse_primitive("variant"))->id(), TypeId::kVariant);
  EXPECT_FALSE(Type::parse_primitive("decimal(39, 1)").ok());
  EXPECT_FALSE(Type::parse_primitive("decimal(5, 6)").ok());
  EXPECT_FALSE(Type::parse_primitive("fixed[0]").ok());
  EXPECT_FALSE(Type::parse_primitive("fixed[x]").ok());
  auto bad = Type::parse_primitive("varchar");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("varchar"), std::string::npos);
}

TEST(TypeTest, EqualityIsStructural) {
  EXPECT_TRUE(same_type(Type::decimal(9, 2), Type::decimal(9, 2)));
  EXPECT_FALSE(same_type(Type::decimal(9, 2), Type::decimal(9, 3)));
  EXPECT_FALSE(same_type(Type::fixed(3), Type::fixed(4)));
  EXPECT_TRUE(
      same_type(Type::list_of(1, Type::int32(), true), Type::list_of(1, Type::int32(), true)));
  EXPECT_FALSE(
      same_type(Type::list_of(1, Type::int32(), true), Type::list_of(2, Type::int32(), true)));
  EXPECT_FALSE(
      same_type(Type::list_of(1, Type::int32(), true), Type::list_of(1, Type::int32(), false)));
  // Map keys are always required.
  EXPECT_TRUE(Type::map_of(1, Type::string(), 2, Type::int32(), false)->key().required);
}

TEST(SchemaTest, LooksUpFieldsAtAnyDepth) {
  Schema s = nested_schema();
  EXPECT_EQ(s.highest_field_id(), 10);
  EXPECT_EQ(s.find_field(6)->name, "long");
  EXPECT_EQ(s.find_field(10)->type->id(), TypeId::kInt);
  EXPECT_EQ(s.find_field(99), nullptr);
  EXPECT_EQ(s.find_field("Location.lat")->id, 5);
  EXPECT_EQ(s.find_field("location.lat"), nullptr);  // case-sensitive by default
  EXPECT_EQ(s.find_field("location.LAT", false)->id, 5);
  EXPECT_EQ(s.find_field("tags.element")->id, 7);
  EXPECT_EQ(s.find_field("props.key")->id, 8);
  EXPECT_EQ(s.find_field("props.value")->id, 9);
  EXPECT_EQ(s.find_field("props.value.v")->id, 10);
  EXPECT_EQ(s.find_field("props.v")->id, 10);  // short name skips "value"
  EXPECT_EQ(s.find_column_name(10).value(), "props.value.v");
  EXPECT_EQ(s.find_column_name(7).value(), "tags.element");
  EXPECT_EQ(s.parent_id(10).value(), 9);
  EXPECT_EQ(s.parent_id(9).value(), 4);
  EXPECT_FALSE(s.parent_id(1).has_value());
  EXPECT_TRUE(s.validate().ok());
}

TEST(SchemaTest, IdentifierFieldRules) {
  EXPECT_TRUE(nested_schema({1}).validate().ok());
  // Optional field, float field, list element, field under a map, missing id.
  EXPECT_NE(nested_schema({5}).validate().message().find("required"), std::string::npos);
  Schema floats(0, {field(1, "f", Type::float64(), true)}, {1});
  EXPECT_NE(floats.validate().message().find("float or double"), std::string::npos);
  EXPECT_NE(nested_schema({7}).validate().message().find("list or map"), std::string::npos);
  EXPECT_NE(nested_schema({10}).validate().message().find("list or map"), std::string::npos);
  EXPECT_NE(nested_schema({42}).validate().message().find("42"), std::string::npos);
  EXPECT_NE(nested_schema({2}).validate().message().find("primitive"), std::string::npos);
}

TEST(SchemaTest, DuplicateIdsAreInvalid) {
  Schema s(0, {field(1, "a", Type::int32()), field(1, "b", Type::int32())});
  auto st = s.validate();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("field id 1"), std::string::npos);
}

}  // namespace
}  // namespace floe
