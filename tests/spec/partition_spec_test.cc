#include "floe/spec/partition_spec.h"

#include <gtest/gtest.h>

#include "floe/util/date_time_text.h"
#include "test_support.h"

namespace floe {
namespace {

using test_support::field;

PartitionField pfield(int32_t source_id, int32_t field_id, std::string name, Transform t) {
  PartitionField f;
  f.source_id = source_id;
  f.field_id = field_id;
  f.name = std::move(name);
  f.transform = t;
  return f;
}

Schema test_schema() {
  return Schema(
      0,
      {
          field(1, "id", Type::int64(), true),
          field(2, "data", Type::string()),
          field(3, "event_ts", Type::timestamptz()),
          field(4, "ts", Type::timestamp()),
          field(5, "price", Type::decimal(9, 2)),
          field(6, "location",
                Type::struct_of({field(7, "lat", Type::float64()), field(8, "day", Type::date())})),
          field(9, "payload", Type::binary()),
          field(10, "ok", Type::boolean()),
      });
}

TEST(PartitionSpecTest, Unpartitioned) {
  auto spec = PartitionSpec::unpartitioned();
  EXPECT_EQ(spec->spec_id(), 0);
  EXPECT_TRUE(spec->fields().empty());
  EXPECT_TRUE(spec->is_unpartitioned());
  EXPECT_EQ(spec->last_assigned_field_id(), 999);
  EXPECT_EQ(PartitionSpec::unpartitioned(3)->spec_id(), 3);
  EXPECT_EQ(spec->partition_to_path({}), "");
  auto type = spec->partition_type(test_schema());
  ASSERT_TRUE(type.ok());
  EXPECT_TRUE((*type)->is_struct());
  EXPECT_TRUE((*type)->fields().empty());
}

TEST(PartitionSpecTest, VoidOnlySpecIsUnpartitioned) {
  PartitionSpec spec(1, {pfield(2, 1000, "data", Transform::void_transform()),
                         pfield(1, 1003, "id_null", Transform::void_transform())});
  EXPECT_TRUE(spec.is_unpartitioned());
  EXPECT_EQ(spec.last_assigned_field_id(), 1003);
  PartitionSpec real(2, {pfield(2, 1000, "data", Transform::void_transform()),
                         pfield(1, 1001, "id_bucket", Transform::bucket(4))});
  EXPECT_FALSE(real.is_unpartitioned());
  EXPECT_EQ(real.last_assigned_field_id(), 1001);
}

TEST(PartitionSpecTest, PartitionTypeUsesResultTypes) {
  PartitionSpec spec(0, {
                            pfield(3, 1000, "event_ts_day", Transform::day()),
                            pfield(1, 1001, "id_bucket", Transform::bucket(16)),
                            pfield(2, 1002, "data_trunc", Transform::truncate(4)),
                            pfield(4, 1003, "ts_hour", Transform::hour()),
                            pfield(4, 1004, "ts_month", Transform::month()),
                            pfield(4, 1005, "ts_year", Transform::year()),
                            pfield(5, 1006, "price", Transform::identity()),
                            pfield(8, 1007, "location.day", Transform::identity()),
                            pfield(9, 1008, "payload_null", Transform::void_transform()),
                            pfield(1, 1009, "id_z", Transform::unknown("zorder")),
                        });
  auto type = spec.partition_type(test_schema());
  ASSERT_TRUE(type.ok()) << type.status().to_string();
  const auto& fields = (*type)->fields();
  ASSERT_EQ(fields.size(), 10u);
  const std::pair<int32_t, std::string> expected[] = {
      {1000, "date"}, {1001, "int"},           {1002, "string"}, {1003, "int"},    {1004, "int"},
      {1005, "int"},  {1006, "decimal(9, 2)"}, {1007, "date"},   {1008, "binary"}, {1009, "string"},
  };
  for (size_t i = 0; i < fields.size(); ++i) {
    EXPECT_EQ(fields[i].id, expected[i].first);
    EXPECT_EQ(fields[i].name, spec.fields()[i].name);
    EXPECT_FALSE(fields[i].required);
    EXPECT_EQ(fields[i].type->to_string(), expected[i].second) << fields[i].name;
  }
}

TEST(PartitionSpecTest, PartitionTypeMissingSource) {
  PartitionSpec bad(4, {pfield(42, 1000, "gone_bucket", Transform::bucket(2))});
  auto r = bad.partition_type(test_schema());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData);
  EXPECT_NE(r.status().message().find("gone_bucket"), std::string::npos);
  EXPECT_NE(r.status().message().find("42"), std::string::npos);

  // A void field whose source column was dropped is always null.
  PartitionSpec dropped(5, {pfield(42, 1000, "gone", Transform::void_transform())});
  auto t = dropped.partition_type(test_schema());
  ASSERT_TRUE(t.ok());
  EXPECT_EQ((*t)->fields()[0].type->id(), TypeId::kUnknown);

  // Unknown transforms are string-typed even when the source is gone.
  PartitionSpec unknown(6, {pfield(42, 1000, "z", Transform::unknown("zorder"))});
  auto u = unknown.partition_type(test_schema());
  ASSERT_TRUE(u.ok());
  EXPECT_EQ((*u)->fields()[0].type->id(), TypeId::kString);

  // A transform that cannot apply to its source.
  PartitionSpec wrong(7, {pfield(2, 1000, "data_hour", Transform::hour())});
  auto w = wrong.partition_type(test_schema());
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("data_hour"), std::string::npos);
}

TEST(PartitionSpecTest, PartitionToPathTimeTransforms) {
  PartitionSpec day(0, {pfield(3, 1000, "event_ts_day", Transform::day())});
  EXPECT_EQ(day.partition_to_path({Literal::date(20574)}), "event_ts_day=2026-05-01");
  EXPECT_EQ(day.partition_to_path({Literal::int32(20574)}), "event_ts_day=2026-05-01");
  PartitionSpec hour(0, {pfield(4, 1000, "ts_hour", Transform::hour())});
  EXPECT_EQ(hour.partition_to_path({Literal::int32(494976)}), "ts_hour=2026-06-20-00");
  PartitionSpec month(0, {pfield(4, 1000, "ts_month", Transform::month())});
  EXPECT_EQ(month.partition_to_path({Literal::int32(676)}), "ts_month=2026-05");
  PartitionSpec year(0, {pfield(4, 1000, "ts_year", Transform::year())});
  EXPECT_EQ(year.partition_to_path({Literal::int32(56)}), "ts_year=2026");
  EXPECT_EQ(year.partition_to_path({Literal::null(Type::int32())}), "ts_year=null");
}

TEST(PartitionSpecTest, PartitionToPathMultipleFieldsAndEncoding) {
  PartitionSpec spec(0, {
                            pfield(1, 1000, "id_bucket", Transform::bucket(16)),
                            pfield(2, 1001, "data", Transform::identity()),
                            pfield(2, 1002, "data_trunc", Transform::truncate(3)),
                            pfield(4, 1003, "ts", Transform::identity()),
                            pfield(9, 1004, "payload", Transform::identity()),
                            pfield(5, 1005, "price", Transform::identity()),
                            pfield(10, 1006, "ok", Transform::identity()),
                        });
  // bucket[16](34) = 3
  Literal bucket = Transform::bucket(16).apply(Literal::int64(34)).value();
  Literal trunc = Transform::truncate(3).apply(Literal::string("a b/c")).value();
  std::string path = spec.partition_to_path({
      bucket,
      Literal::string("a b/c"),
      trunc,
      Literal::timestamp(parse_timestamp("2017-11-16T22:31:08", false).value()),
      Literal::binary("abc"),
      Literal::decimal(1420, 9, 2),
      Literal::boolean(true),
  });
  EXPECT_EQ(path,
            "id_bucket=3/data=a+b%2Fc/data_trunc=a+b/ts=2017-11-16T22%3A31%3A08/payload=YWJj/"
            "price=14.20/ok=true");
  // Names are encoded too; missing values print as null.
  PartitionSpec odd(0, {pfield(2, 1000, "a b", Transform::identity()),
                        pfield(2, 1001, "c", Transform::identity())});
  EXPECT_EQ(odd.partition_to_path({Literal::string("x")}), "a+b=x/c=null");
}

TEST(PartitionSpecTest, UrlEncodeForm) {
  EXPECT_EQ(url_encode_form("a b/c"), "a+b%2Fc");
  EXPECT_EQ(url_encode_form("AZaz09.-*_"), "AZaz09.-*_");
  EXPECT_EQ(url_encode_form("a+b=c&d~e:f"), "a%2Bb%3Dc%26d%7Ee%3Af");
  EXPECT_EQ(url_encode_form("é"), "%C3%A9");
  EXPECT_EQ(url_encode_form("%"), "%25");
  EXPECT_EQ(url_encode_form(""), "");
}

TEST(PartitionSpecTest, CompatibleWith) {
  PartitionSpec a(0, {pfield(1, 1000, "id_bucket", Transform::bucket(16)),
                      pfield(3, 1001, "event_ts_day", Transform::day())});
  PartitionSpec renamed(
      1, {pfield(1, 1005, "b", Transform::bucket(16)), pfield(3, 1006, "d", Transform::day())});
  PartitionSpec other_n(2, {pfield(1, 1000, "id_bucket", Transform::bucket(8)),
                            pfield(3, 1001, "event_ts_day", Transform::day())});
  PartitionSpec other_source(3, {pfield(2, 1000, "id_bucket", Transform::bucket(16)),
                                 pfield(3, 1001, "event_ts_day", Transform::day())});
  PartitionSpec shorter(4, {pfield(1, 1000, "id_bucket", Transform::bucket(16))});
  EXPECT_TRUE(a.compatible_with(a));
  EXPECT_TRUE(a.compatible_with(renamed));
  EXPECT_FALSE(a.compatible_with(other_n));
  EXPECT_FALSE(a.compatible_with(other_source));
  EXPECT_FALSE(a.compatible_with(shorter));
  EXPECT_FALSE(a.same_fields(renamed));
  EXPECT_TRUE(a.same_fields(PartitionSpec(9, a.fields())));
  EXPECT_FALSE(a == PartitionSpec(9, a.fields()));
  EXPECT_TRUE(PartitionSpec::unpartitioned()->compatible_with(*PartitionSpec::unpartitioned(4)));
}

TEST(PartitionSpecTest, FieldNames) {
  EXPECT_EQ(PartitionSpec::default_field_name("location.lat", Transform::identity()),
            "location.lat");
  EXPECT_EQ(PartitionSpec::default_field_name("id", Transform::bucket(16)), "id_bucket");
  EXPECT_EQ(PartitionSpec::default_field_name("data", Transform::truncate(4)), "data_trunc");
  EXPECT_EQ(PartitionSpec::default_field_name("ts", Transform::year()), "ts_year");
  EXPECT_EQ(PartitionSpec::default_field_name("ts", Transform::month()), "ts_month");
  EXPECT_EQ(PartitionSpec::default_field_name("event_ts", Transform::day()), "event_ts_day");
  EXPECT_EQ(PartitionSpec::default_field_name("ts", Transform::hour()), "ts_hour");
  EXPECT_EQ(PartitionSpec::default_field_name("id", Transform::void_transform()), "id_null");

  EXPECT_EQ(PartitionSpec::evolution_field_name("id", Transform::bucket(16)), "id_bucket_16");
  EXPECT_EQ(PartitionSpec::evolution_field_name("data", Transform::truncate(4)), "data_trunc_4");
  EXPECT_EQ(PartitionSpec::evolution_field_name("event_ts", Transform::day()), "event_ts_day");
  EXPECT_EQ(PartitionSpec::evolution_field_name("ts", Transform::hour()), "ts_hour");
  EXPECT_EQ(PartitionSpec::evolution_field_name("data", Transform::identity()), "data");
  EXPECT_EQ(PartitionSpec::evolution_field_name("id", Transform::void_transform()), "id_null");
}

TEST(PartitionSpecTest, ValidateAcceptsGoodSpecs) {
  Schema schema = test_schema();
  PartitionSpec good(0, {pfield(3, 1000, "event_ts_day", Transform::day()),
                         pfield(1, 1001, "id_bucket", Transform::bucket(16)),
                         pfield(42, 1002, "dropped", Transform::void_transform()),
                         pfield(10, 1003, "ok_z", Transform::unknown("zorder")),
                         pfield(7, 1004, "lat", Transform::identity())});
  EXPECT_TRUE(good.validate(schema).ok()) << good.validate(schema).to_string();
  EXPECT_TRUE(PartitionSpec::unpartitioned()->validate(schema).ok());
}

TEST(PartitionSpecTest, ValidateRejectsBadSpecs) {
  Schema schema = test_schema();
  auto check = [&](const PartitionSpec& spec, const std::string& needle) {
    Status s = spec.validate(schema);
    ASSERT_FALSE(s.ok()) << needle;
    EXPECT_EQ(s.kind(), ErrorKind::kInvalidData);
    EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
  };
  check(PartitionSpec(0, {pfield(1, 1000, "a", Transform::identity()),
                          pfield(2, 1000, "b", Transform::identity())}),
        "1000");
  check(PartitionSpec(0, {pfield(1, 1000, "a", Transform::identity()),
                          pfield(2, 1001, "a", Transform::identity())}),
        "'a'");
  check(PartitionSpec(0, {pfield(1, 1000, "", Transform::identity())}), "empty name");
  check(PartitionSpec(0, {pfield(42, 1000, "gone", Transform::identity())}), "42");
  check(PartitionSpec(0, {pfield(2, 1000, "data_hour", Transform::hour())}), "hour");
  check(PartitionSpec(0, {pfield(7, 1000, "lat_bucket", Transform::bucket(4))}), "double");
  check(PartitionSpec(0, {pfield(6, 1000, "location", Transform::identity())}), "location");
  check(PartitionSpec(0, {pfield(10, 1000, "ok_trunc", Transform::truncate(2))}), "boolean");
}

}  // namespace
}  // namespace floe
