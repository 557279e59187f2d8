#include "floe/spec/transform.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "floe/util/date_time_text.h"
#include "floe/util/utf8.h"

namespace floe {
namespace {

std::string bytes_of(std::initializer_list<int> v) {
  std::string out;
  for (int b : v) out.push_back(static_cast<char>(b));
  return out;
}

int32_t hash_of(const Literal& v) {
  auto r = bucket_hash(v);
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  return r.ok() ? *r : 0;
}

Literal apply(const Transform& t, const Literal& v) {
  auto r = t.apply(v);
  EXPECT_TRUE(r.ok()) << t.to_string() << "(" << v.to_string() << "): " << r.status().to_string();
  return r.ok() ? *r : Literal();
}

int64_t ts(std::string_view text) { return parse_timestamp(text, false).value(); }
int64_t tstz(std::string_view text) { return parse_timestamp(text, true).value(); }
int64_t ts_ns(std::string_view text) { return parse_timestamp_ns(text, false).value(); }
int64_t tstz_ns(std::string_view text) { return parse_timestamp_ns(text, true).value(); }
int32_t date(std::string_view text) { return parse_date(text).value(); }

// ---------------------------------------------------------------------------------------------
// Murmur3 / Appendix B

TEST(BucketHashTest, AppendixBBucketableTypes) {
  EXPECT_EQ(hash_of(Literal::int32(34)), 2017239379);
  EXPECT_EQ(hash_of(Literal::int64(34)), 2017239379);
  EXPECT_EQ(hash_of(Literal::decimal(1420, 9, 2)), -500754589);
  EXPECT_EQ(hash_of(Literal::date(date("2017-11-16"))), -653330422);
  EXPECT_EQ(date("2017-11-16"), 17486);
  EXPECT_EQ(hash_of(Literal::time(parse_time("22:31:08").value())), -662762989);
  EXPECT_EQ(parse_time("22:31:08").value(), 81068000000);
  EXPECT_EQ(hash_of(Literal::timestamp(ts("2017-11-16T22:31:08"))), -2047944441);
  EXPECT_EQ(ts("2017-11-16T22:31:08"), 1510871468000000);
  EXPECT_EQ(hash_of(Literal::timestamp(ts("2017-11-16T22:31:08.000001"))), -1207196810);
  EXPECT_EQ(hash_of(Literal::timestamptz(tstz("2017-11-16T14:31:08-08:00"))), -2047944441);
  EXPECT_EQ(hash_of(Literal::timestamptz(tstz("2017-11-16T14:31:08.000001-08:00"))), -1207196810);
  EXPECT_EQ(hash_of(Literal::timestamp_ns(ts_ns("2017-11-16T22:31:08"))), -2047944441);
  EXPECT_EQ(hash_of(Literal::timestamp_ns(ts_ns("2017-11-16T22:31:08.000001001"))), -1207196810);
  EXPECT_EQ(hash_of(Literal::timestamptz_ns(tstz_ns("2017-11-16T14:31:08-08:00"))), -2047944441);
  EXPECT_EQ(hash_of(Literal::timestamptz_ns(tstz_ns("2017-11-16T14:31:08.000001001-08:00"))),
            -1207196810);
  EXPECT_EQ(hash_of(Literal::string("iceberg")), 1210000089);
  EXPECT_EQ(hash_of(Literal::uuid(Uuid::parse("f79c3e09-677c-4bbd-a479-3f349cb785e7").value())),
            1488055340);
  EXPECT_EQ(hash_of(Literal::fixed(bytes_of({0, 1, 2, 3}))), -188683207);
  EXPECT_EQ(hash_of(Literal::binary(bytes_of({0, 1, 2, 3}))), -188683207);
}

TEST(BucketHashTest, AppendixBNotBucketableTypes) {
  EXPECT_EQ(hash_of(Literal::boolean(true)), 1392991556);
  EXPECT_EQ(hash_of(Literal::boolean(false)), 1669671676);
  EXPECT_EQ(hash_of(Literal::float32(1.0f)), -142385009);
  EXPECT_EQ(hash_of(Literal::float32(0.0f)), 1669671676);
  EXPECT_EQ(hash_of(Literal::float32(-0.0f)), 1669671676);
  EXPECT_EQ(hash_of(Literal::float64(1.0)), -142385009);
  EXPECT_EQ(hash_of(Literal::float64(0.0)), 1669671676);
  EXPECT_EQ(hash_of(Literal::float64(-0.0)), 1669671676);
  // Every NaN hashes as the canonical 0x7ff8000000000000.
  int32_t canonical = hash_long(0x7ff8000000000000LL);
  EXPECT_EQ(hash_of(Literal::float64(std::numeric_limits<double>::quiet_NaN())), canonical);
  EXPECT_EQ(hash_of(Literal::float64(-std::numeric_limits<double>::quiet_NaN())), canonical);
  EXPECT_EQ(hash_of(Literal::float32(std::numeric_limits<float>::quiet_NaN())), canonical);
  EXPECT_EQ(bucket_hash(Literal::null(Type::unknown())).status().kind(),
            ErrorKind::kInvalidArgument);
  EXPECT_EQ(bucket_hash(Literal::of_bytes(Type::variant(), "x")).status().kind(),
            ErrorKind::kNotSupported);
}

TEST(BucketHashTest, ExtraValues) {
  EXPECT_EQ(hash_long(1), 1392991556);
  EXPECT_EQ(hash_long(0), 1669671676);
  EXPECT_EQ(hash_long(34), 2017239379);
  EXPECT_EQ(hash_bytes("34"), -427558391);
  EXPECT_EQ(hash_bytes("iceberg"), 1210000089);
  EXPECT_EQ(hash_bytes(bytes_of({0x05, 0x8C})), -500754589);
  const char raw[] = {0, 1, 2, 3};
  EXPECT_EQ(murmur3_x86_32(raw, 4), -188683207);
  EXPECT_EQ(murmur3_x86_32("", 0), 0);
}

TEST(BucketHashTest, FixtureBucketValues) {
  struct Row {
    const char* value;
    int32_t hash;
    int32_t bucket;
  };
  // duckdb-iceberg/partition_bucket_test (Spark 3.5): bucket[10] on a string.
  const Row spark[] = {
      {"partition_0", -734455796, 2}, {"partition_1", 558827372, 2},
      {"partition_2", -433513848, 0}, {"partition_3", -527727712, 6},
      {"partition_4", -288155554, 4}, {"partition_5", 16337674, 4},
      {"partition_6", 683848567, 7},  {"partition_7", 1700030627, 7},
      {"partition_8", -402302130, 8}, {"partition_9", -1113502020, 8},
  };
  Transform b10 = Transform::bucket(10);
  for (const auto& r : spark) {
    EXPECT_EQ(hash_of(Literal::string(r.value)), r.hash) << r.value;
    EXPECT_EQ(bucket_of(r.hash, 10), r.bucket) << r.value;
    EXPECT_EQ(apply(b10, Literal::string(r.value)).as_int32(), r.bucket) << r.value;
  }
  // impala/iceberg_column_case_sensitivity_issue: bucket[16] on a string.
  EXPECT_EQ(hash_of(Literal::string("1")), -1810453357);
  EXPECT_EQ(apply(Transform::bucket(16), Literal::string("1")).as_int32(), 3);
  EXPECT_EQ(hash_of(Literal::string("2")), 19522071);
  EXPECT_EQ(apply(Transform::bucket(16), Literal::string("2")).as_int32(), 7);
  // duckdb-iceberg/equality_delete_extra_column: bucket[1].
  EXPECT_EQ(hash_of(Literal::string("a")), 1009084850);
  EXPECT_EQ(hash_of(Literal::string("b")), -1780580861);
  EXPECT_EQ(hash_of(Literal::string("c")), -516762017);
  for (const char* v : {"a", "b", "c"}) {
    EXPECT_EQ(apply(Transform::bucket(1), Literal::string(v)).as_int32(), 0);
  }
}

TEST(BucketTransformTest, BucketValues) {
  Literal r = apply(Transform::bucket(16), Literal::int32(34));
  EXPECT_EQ(r.type()->id(), TypeId::kInt);
  EXPECT_EQ(r.as_int32(), 3);
  EXPECT_EQ(apply(Transform::bucket(16), Literal::int64(34)).as_int32(), 3);
  EXPECT_EQ(bucket_of(-500754589, 100), (-500754589 & 0x7FFFFFFF) % 100);
  EXPECT_EQ(bucket_of(std::numeric_limits<int32_t>::min(), 7), 0);
  // Null in, null out (of the result type).
  Literal n = apply(Transform::bucket(16), Literal::null(Type::string()));
  EXPECT_TRUE(n.is_null());
  EXPECT_EQ(n.type()->id(), TypeId::kInt);
  // Not bucketable.
  EXPECT_EQ(Transform::bucket(16).apply(Literal::float64(1.0)).status().kind(),
            ErrorKind::kInvalidArgument);
  EXPECT_FALSE(Transform::bucket(16).apply(Literal::boolean(true)).ok());
}

// ---------------------------------------------------------------------------------------------
// Truncate

TEST(TruncateTransformTest, Integers) {
  const std::pair<int32_t, int32_t> cases[] = {{0, 0},     {1, 0},    {5, 0},    {9, 0},
                                               {10, 10},   {11, 10},  {-1, -10}, {-5, -10},
                                               {-10, -10}, {-11, -20}};
  Transform t = Transform::truncate(10);
  for (auto [in, out] : cases) {
    Literal i = apply(t, Literal::int32(in));
    EXPECT_EQ(i.type()->id(), TypeId::kInt);
    EXPECT_EQ(i.as_int32(), out) << in;
    Literal l = apply(t, Literal::int64(in));
    EXPECT_EQ(l.type()->id(), TypeId::kLong);
    EXPECT_EQ(l.as_int64(), out) << in;
    EXPECT_EQ(truncate_integer(in, 10), out);
  }
}

TEST(TruncateTransformTest, Decimals) {
  Literal a = apply(Transform::truncate(50), Literal::decimal(1065, 9, 2));
  EXPECT_EQ(a.to_string(), "10.50");
  EXPECT_EQ(a.type()->scale(), 2);
  EXPECT_EQ(a.type()->precision(), 9);
  Transform t = Transform::truncate(10);
  EXPECT_EQ(apply(t, Literal::decimal(1234, 9, 2)).to_string(), "12.30");
  EXPECT_EQ(apply(t, Literal::decimal(1230, 9, 2)).to_string(), "12.30");
  EXPECT_EQ(apply(t, Literal::decimal(1229, 9, 2)).to_string(), "12.20");
  EXPECT_EQ(apply(t, Literal::decimal(5, 9, 2)).to_string(), "0.00");
  EXPECT_EQ(apply(t, Literal::decimal(-5, 9, 2)).to_string(), "-0.10");
  EXPECT_EQ(apply(t, Literal::decimal(-5, 9, 2)), Literal::decimal(-10, 9, 2));
}

TEST(TruncateTransformTest, StringsAndBinary) {
  EXPECT_EQ(apply(Transform::truncate(3), Literal::string("iceberg")).as_bytes(), "ice");
  Transform t5 = Transform::truncate(5);
  EXPECT_EQ(apply(t5, Literal::string("abcdefg")).as_bytes(), "abcde");
  EXPECT_EQ(apply(t5, Literal::string("abc")).as_bytes(), "abc");
  EXPECT_EQ(apply(t5, Literal::string("abcde")).as_bytes(), "abcde");
  EXPECT_EQ(apply(t5, Literal::string("abc")).type()->id(), TypeId::kString);
  // Code points, not bytes: é is 2 bytes, 😀 is 4 bytes.
  EXPECT_EQ(apply(Transform::truncate(2), Literal::string("éé😀x")).as_bytes(), "éé");
  EXPECT_EQ(apply(Transform::truncate(3), Literal::string("éé😀x")).as_bytes(), "éé😀");
  EXPECT_EQ(utf8_truncate("😀😀", 1), "😀");
  EXPECT_EQ(utf8_truncate("abc", 0), "");
  EXPECT_EQ(utf8_truncate("", 4), "");

  Literal b = apply(Transform::truncate(3), Literal::binary(bytes_of({1, 2, 3, 4, 5})));
  EXPECT_EQ(b.type()->id(), TypeId::kBinary);
  EXPECT_EQ(b.as_bytes(), bytes_of({1, 2, 3}));
  EXPECT_EQ(apply(Transform::truncate(4), Literal::binary("abcdefg")).as_bytes(), "abcd");
  EXPECT_EQ(apply(Transform::truncate(4), Literal::binary("abc")).as_bytes(), "abc");
}

TEST(TruncateTransformTest, InvalidSources) {
  EXPECT_FALSE(Transform::truncate(3).apply(Literal::null(Type::unknown())).ok());
  EXPECT_FALSE(Transform::truncate(3).apply(Literal::fixed("abcd")).ok());
  EXPECT_FALSE(Transform::truncate(3).apply(Literal::date(1)).ok());
  EXPECT_FALSE(Transform::parse("truncate[0]").ok());
}

// ---------------------------------------------------------------------------------------------
// Time transforms

struct TimeRow {
  Literal value;
  int32_t year, month, day, hour;  // hour unused for dates
};

TEST(TimeTransformTest, SpecTable) {
  const TimeRow dates[] = {
      {Literal::date(date("2017-12-01")), 47, 575, 17501, 0},
      {Literal::date(date("1970-01-01")), 0, 0, 0, 0},
      {Literal::date(date("1969-12-31")), -1, -1, -1, 0},
  };
  for (const auto& r : dates) {
    EXPECT_EQ(apply(Transform::year(), r.value).as_int32(), r.year) << r.value.to_string();
    EXPECT_EQ(apply(Transform::month(), r.value).as_int32(), r.month) << r.value.to_string();
    Literal d = apply(Transform::day(), r.value);
    EXPECT_EQ(d.type()->id(), TypeId::kDate);
    EXPECT_EQ(d.as_int32(), r.day) << r.value.to_string();
    EXPECT_FALSE(Transform::hour().apply(r.value).ok());
  }
  const TimeRow stamps[] = {
      {Literal::timestamp(ts("2017-12-01T10:12:55.038194")), 47, 575, 17501, 420034},
      {Literal::timestamp(ts("1970-01-01T00:00:01.000001")), 0, 0, 0, 0},
      {Literal::timestamp(ts("1969-12-31T23:59:59.999999")), -1, -1, -1, -1},
      {Literal::timestamptz(ts("2017-12-01T10:12:55.038194")), 47, 575, 17501, 420034},
      {Literal::timestamptz(ts("1969-12-31T23:59:59.999999")), -1, -1, -1, -1},
      {Literal::timestamp_ns(ts_ns("2017-12-01T10:12:55.038194789")), 47, 575, 17501, 420034},
      {Literal::timestamp_ns(ts_ns("1969-12-31T23:59:59.999999999")), -1, -1, -1, -1},
      {Literal::timestamptz_ns(ts_ns("2017-12-01T10:12:55.038194789")), 47, 575, 17501, 420034},
      {Literal::timestamptz_ns(ts_ns("1969-12-31T23:59:59.999999999")), -1, -1, -1, -1},
  };
  for (const auto& r : stamps) {
    std::string what = r.value.type()->to_string() + " " + r.value.to_string();
    EXPECT_EQ(apply(Transform::year(), r.value).as_int32(), r.year) << what;
    EXPECT_EQ(apply(Transform::month(), r.value).as_int32(), r.month) << what;
    Literal d = apply(Transform::day(), r.value);
    EXPECT_EQ(d.type()->id(), TypeId::kDate);
    EXPECT_EQ(d.as_int32(), r.day) << what;
    Literal h = apply(Transform::hour(), r.value);
    EXPECT_EQ(h.type()->id(), TypeId::kInt);
    EXPECT_EQ(h.as_int32(), r.hour) << what;
  }
}

TEST(TimeTransformTest, Helpers) {
  EXPECT_EQ(year_from_days(17501), 47);
  EXPECT_EQ(month_from_days(17501), 575);
  EXPECT_EQ(year_from_days(-1), -1);
  EXPECT_EQ(month_from_days(-1), -1);
  EXPECT_EQ(month_from_days(-31), -1);  // 1969-12-01
  EXPECT_EQ(month_from_days(-32), -2);  // 1969-11-30
  EXPECT_EQ(year_from_days(-365), -1);  // 1969-01-01
  EXPECT_EQ(year_from_days(-366), -2);  // 1968-12-31
  EXPECT_EQ(day_from_micros(-1), -1);
  EXPECT_EQ(day_from_micros(-86400000000LL), -1);
  EXPECT_EQ(day_from_micros(-86400000001LL), -2);
  EXPECT_EQ(hour_from_micros(-1), -1);
  EXPECT_EQ(hour_from_micros(-3600000000LL), -1);
  EXPECT_EQ(hour_from_micros(-3600000001LL), -2);
  EXPECT_EQ(year_from_micros(ts("2017-12-01T10:12:55.038194")), 47);
  EXPECT_EQ(month_from_micros(ts("2017-12-01T10:12:55.038194")), 575);
  EXPECT_EQ(hour_from_micros(ts("2017-12-01T10:12:55.038194")), 420034);
  // Hour values written by iceberg-cpp.
  EXPECT_EQ(hour_from_micros(ts("2021-01-27T00:00:00")), 447696);
  EXPECT_EQ(hour_from_micros(ts("2024-01-27T00:30:00")), 473976);
  EXPECT_EQ(hour_from_micros(ts("2023-01-26T00:59:59.999999")), 465192);
  EXPECT_EQ(hour_from_micros(ts("2021-01-26T00:00:00")), 447672);
}

// ---------------------------------------------------------------------------------------------
// Identity and void

TEST(IdentityVoidTest, Apply) {
  Literal v = Literal::decimal(1420, 9, 2);
  EXPECT_EQ(apply(Transform::identity(), v), v);
  EXPECT_EQ(apply(Transform::identity(), Literal::string("x")), Literal::string("x"));
  EXPECT_FALSE(Transform::identity().apply(Literal::null(Type::unknown())).ok());
  EXPECT_FALSE(Transform::identity().apply(Literal::of_bytes(Type::variant(), "x")).ok());

  Literal n = apply(Transform::void_transform(), Literal::int64(5));
  EXPECT_TRUE(n.is_null());
  EXPECT_EQ(n.type()->id(), TypeId::kLong);
  Literal nu = apply(Transform::void_transform(), Literal::null(Type::unknown()));
  EXPECT_TRUE(nu.is_null());
  EXPECT_EQ(nu.type()->id(), TypeId::kUnknown);

  auto unknown = Transform::unknown("zorder");
  EXPECT_EQ(unknown.apply(Literal::int32(1)).status().kind(), ErrorKind::kNotSupported);
}

// ---------------------------------------------------------------------------------------------
// Parsing, names, properties

TEST(TransformParseTest, KnownTransforms) {
  const std::pair<const char*, Transform> cases[] = {
      {"identity", Transform::identity()},
      {"bucket[16]", Transform::bucket(16)},
      {"truncate[10]", Transform::truncate(10)},
      {"year", Transform::year()},
      {"month", Transform::month()},
      {"day", Transform::day()},
      {"hour", Transform::hour()},
      {"void", Transform::void_transform()},
  };
  for (const auto& [text, expected] : cases) {
    auto t = Transform::parse(text);
    ASSERT_TRUE(t.ok()) << text;
    EXPECT_EQ(*t, expected) << text;
    EXPECT_EQ(t->to_string(), text);
  }
  EXPECT_EQ(*Transform::parse("IDENTITY"), Transform::identity());
  EXPECT_EQ(*Transform::parse("Bucket[4]"), Transform::bucket(4));
  EXPECT_EQ(Transform::parse("TRUNCATE[3]")->to_string(), "truncate[3]");
  EXPECT_EQ(*Transform::parse("Day"), Transform::day());
  EXPECT_EQ(Transform::parse("bucket[16]")->param(), 16);
  EXPECT_EQ(Transform::parse("bucket[2147483647]")->param(), 2147483647);
  EXPECT_EQ(Transform().kind(), Transform::Kind::kIdentity);
}

TEST(TransformParseTest, UnknownAndErrors) {
  auto z = Transform::parse("zorder");
  ASSERT_TRUE(z.ok());
  EXPECT_TRUE(z->is_unknown());
  EXPECT_EQ(z->to_string(), "zorder");
  auto z2 = Transform::parse("Custom[3]");
  ASSERT_TRUE(z2.ok());
  EXPECT_EQ(z2->kind(), Transform::Kind::kUnknown);
  EXPECT_EQ(z2->to_string(), "Custom[3]");
  EXPECT_EQ(*z, Transform::unknown("zorder"));
  EXPECT_FALSE(*z == Transform::unknown("other"));

  for (const char* bad : {"bucket[0]", "truncate[0]", "bucket[x]", "truncate[-1]", "bucket[]",
                          "bucket", "truncate", "bucket[16", "bucket[2147483648]"}) {
    auto r = Transform::parse(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData) << bad;
    }
  }
}

TEST(TransformPropertiesTest, PreservesOrderAndDedupName) {
  EXPECT_TRUE(Transform::identity().preserves_order());
  EXPECT_TRUE(Transform::truncate(3).preserves_order());
  EXPECT_TRUE(Transform::year().preserves_order());
  EXPECT_TRUE(Transform::month().preserves_order());
  EXPECT_TRUE(Transform::day().preserves_order());
  EXPECT_TRUE(Transform::hour().preserves_order());
  EXPECT_FALSE(Transform::bucket(3).preserves_order());
  EXPECT_FALSE(Transform::void_transform().preserves_order());
  EXPECT_FALSE(Transform::unknown("x").preserves_order());

  EXPECT_EQ(Transform::year().dedup_name(), "time");
  EXPECT_EQ(Transform::month().dedup_name(), "time");
  EXPECT_EQ(Transform::day().dedup_name(), "time");
  EXPECT_EQ(Transform::hour().dedup_name(), "time");
  EXPECT_EQ(Transform::identity().dedup_name(), "identity");
  EXPECT_EQ(Transform::bucket(8).dedup_name(), "bucket[8]");
  EXPECT_EQ(Transform::truncate(4).dedup_name(), "truncate[4]");
  EXPECT_EQ(Transform::void_transform().dedup_name(), "void");
  EXPECT_EQ(Transform::unknown("zorder").dedup_name(), "zorder");
}

TEST(TransformPropertiesTest, CanTransform) {
  const TypePtr all[] = {
      Type::boolean(),     Type::int32(),        Type::int64(),
      Type::float32(),     Type::float64(),      Type::decimal(9, 2),
      Type::date(),        Type::time(),         Type::timestamp(),
      Type::timestamptz(), Type::timestamp_ns(), Type::timestamptz_ns(),
      Type::string(),      Type::uuid(),         Type::fixed(4),
      Type::binary(),      Type::unknown(),      Type::variant(),
      Type::geometry(),    Type::geography(),    Type::list_of(1, Type::int32(), false)};
  auto names = [&](const Transform& t) {
    std::string out;
    for (const auto& type : all) {
      if (t.can_transform(*type)) out += (out.empty() ? "" : ",") + type->to_string();
    }
    return out;
  };
  EXPECT_EQ(names(Transform::identity()),
            "boolean,int,long,float,double,decimal(9, 2),date,time,timestamp,timestamptz,"
            "timestamp_ns,timestamptz_ns,string,uuid,fixed[4],binary");
  EXPECT_EQ(names(Transform::bucket(4)),
            "int,long,decimal(9, 2),date,time,timestamp,timestamptz,timestamp_ns,timestamptz_ns,"
            "string,uuid,fixed[4],binary");
  EXPECT_EQ(names(Transform::truncate(4)), "int,long,decimal(9, 2),string,binary");
  EXPECT_EQ(names(Transform::year()), "date,timestamp,timestamptz,timestamp_ns,timestamptz_ns");
  EXPECT_EQ(names(Transform::month()), "date,timestamp,timestamptz,timestamp_ns,timestamptz_ns");
  EXPECT_EQ(names(Transform::day()), "date,timestamp,timestamptz,timestamp_ns,timestamptz_ns");
  EXPECT_EQ(names(Transform::hour()), "timestamp,timestamptz,timestamp_ns,timestamptz_ns");
  EXPECT_EQ(names(Transform::void_transform()),
            "boolean,int,long,float,double,decimal(9, 2),date,time,timestamp,timestamptz,"
            "timestamp_ns,timestamptz_ns,string,uuid,fixed[4],binary,unknown,variant,geometry,"
            "geography,list<int>");
}

TEST(TransformPropertiesTest, ResultTypes) {
  auto result = [](const Transform& t, const TypePtr& source) {
    auto r = t.result_type(source);
    return r.ok() ? (*r)->to_string() : "error";
  };
  EXPECT_EQ(result(Transform::identity(), Type::decimal(9, 2)), "decimal(9, 2)");
  EXPECT_EQ(result(Transform::identity(), Type::timestamptz()), "timestamptz");
  EXPECT_EQ(result(Transform::bucket(16), Type::string()), "int");
  EXPECT_EQ(result(Transform::bucket(16), Type::int64()), "int");
  EXPECT_EQ(result(Transform::truncate(4), Type::string()), "string");
  EXPECT_EQ(result(Transform::truncate(4), Type::int64()), "long");
  EXPECT_EQ(result(Transform::truncate(4), Type::decimal(10, 3)), "decimal(10, 3)");
  EXPECT_EQ(result(Transform::year(), Type::timestamp()), "int");
  EXPECT_EQ(result(Transform::month(), Type::date()), "int");
  EXPECT_EQ(result(Transform::day(), Type::timestamptz()), "date");
  EXPECT_EQ(result(Transform::day(), Type::date()), "date");
  EXPECT_EQ(result(Transform::hour(), Type::timestamp_ns()), "int");
  EXPECT_EQ(result(Transform::void_transform(), Type::string()), "string");
  EXPECT_EQ(result(Transform::void_transform(), Type::unknown()), "unknown");
  EXPECT_EQ(result(Transform::unknown("zorder"), Type::int32()), "string");
  EXPECT_EQ(result(Transform::hour(), Type::date()), "error");
  EXPECT_EQ(result(Transform::bucket(2), Type::float64()), "error");
  EXPECT_EQ(Transform::bucket(2).result_type(Type::boolean()).status().kind(),
            ErrorKind::kInvalidArgument);
}

// ---------------------------------------------------------------------------------------------
// Human strings (Java toHumanString)

TEST(HumanStringTest, TimeTransforms) {
  EXPECT_EQ(Transform::year().to_human_string(Literal::int32(56)), "2026");
  EXPECT_EQ(Transform::year().to_human_string(Literal::int32(0)), "1970");
  EXPECT_EQ(Transform::year().to_human_string(Literal::int32(-1)), "1969");
  EXPECT_EQ(Transform::month().to_human_string(Literal::int32(676)), "2026-05");
  EXPECT_EQ(Transform::month().to_human_string(Literal::int32(575)), "2017-12");
  EXPECT_EQ(Transform::month().to_human_string(Literal::int32(-1)), "1969-12");
  EXPECT_EQ(Transform::month().to_human_string(Literal::int32(-13)), "1968-12");
  EXPECT_EQ(Transform::day().to_human_string(Literal::date(20574)), "2026-05-01");
  EXPECT_EQ(Transform::day().to_human_string(Literal::int32(20574)), "2026-05-01");
  EXPECT_EQ(Transform::day().to_human_string(Literal::date(-1)), "1969-12-31");
  EXPECT_EQ(Transform::hour().to_human_string(Literal::int32(494976)), "2026-06-20-00");
  EXPECT_EQ(Transform::hour().to_human_string(Literal::int32(447696)), "2021-01-27-00");
  EXPECT_EQ(Transform::hour().to_human_string(Literal::int32(473976)), "2024-01-27-00");
  EXPECT_EQ(Transform::hour().to_human_string(Literal::int32(465192)), "2023-01-26-00");
  EXPECT_EQ(Transform::hour().to_human_string(Literal::int32(447672)), "2021-01-26-00");
  EXPECT_EQ(Transform::hour().to_human_string(Literal::int32(420034)), "2017-12-01-10");
  EXPECT_EQ(Transform::hour().to_human_string(Literal::int32(-1)), "1969-12-31-23");
  EXPECT_EQ(Transform::day().to_human_string(Literal::null(Type::date())), "null");
}

TEST(HumanStringTest, ValuesByType) {
  Transform id = Transform::identity();
  EXPECT_EQ(id.to_human_string(Literal::date(date("2017-12-01"))), "2017-12-01");
  EXPECT_EQ(id.to_human_string(Literal::time(parse_time("10:12:55.038194").value())),
            "10:12:55.038194");
  EXPECT_EQ(id.to_human_string(Literal::time(parse_time("22:31:00").value())), "22:31");
  EXPECT_EQ(id.to_human_string(Literal::time(parse_time("22:31:08").value())), "22:31:08");
  EXPECT_EQ(id.to_human_string(Literal::time(parse_time("22:31:08.1").value())), "22:31:08.100");
  EXPECT_EQ(id.to_human_string(Literal::timestamp(ts("2017-12-01T10:12:55.038194"))),
            "2017-12-01T10:12:55.038194");
  EXPECT_EQ(id.to_human_string(Literal::timestamp(ts("2017-11-16T22:31:08"))),
            "2017-11-16T22:31:08");
  EXPECT_EQ(id.to_human_string(Literal::timestamp(ts("2017-11-16T22:31:08.5"))),
            "2017-11-16T22:31:08.5");
  EXPECT_EQ(id.to_human_string(Literal::timestamptz(tstz("2017-12-01T10:12:55.038194-08:00"))),
            "2017-12-01T18:12:55.038194+00:00");
  EXPECT_EQ(id.to_human_string(Literal::timestamp_ns(ts_ns("2017-12-01T10:12:55.038194789"))),
            "2017-12-01T10:12:55.038194789");
  EXPECT_EQ(id.to_human_string(Literal::timestamptz_ns(ts_ns("2017-12-01T10:12:55"))),
            "2017-12-01T10:12:55+00:00");
  EXPECT_EQ(id.to_human_string(Literal::binary(bytes_of({0, 1, 2, 3}))), "AAECAw==");
  EXPECT_EQ(id.to_human_string(Literal::fixed("abcde")), "YWJjZGU=");
  EXPECT_EQ(id.to_human_string(Literal::binary("abc")), "YWJj");
  EXPECT_EQ(id.to_human_string(Literal::binary("")), "");
  EXPECT_EQ(id.to_human_string(Literal::decimal(1420, 9, 2)), "14.20");
  EXPECT_EQ(id.to_human_string(Literal::decimal(-1420, 9, 2)), "-14.20");
  EXPECT_EQ(id.to_human_string(Literal::decimal(1, 38, 10)), "1E-10");  // BigDecimal.toString
  EXPECT_EQ(id.to_human_string(
                Literal::uuid(Uuid::parse("F79C3E09-677C-4BBD-A479-3F349CB785E7").value())),
            "f79c3e09-677c-4bbd-a479-3f349cb785e7");
  EXPECT_EQ(id.to_human_string(Literal::boolean(true)), "true");
  EXPECT_EQ(id.to_human_string(Literal::boolean(false)), "false");
  EXPECT_EQ(id.to_human_string(Literal::int64(-34)), "-34");
  EXPECT_EQ(id.to_human_string(Literal::string("a b/c")), "a b/c");
  EXPECT_EQ(id.to_human_string(Literal::null(Type::string())), "null");
  EXPECT_EQ(Transform::bucket(16).to_human_string(Literal::int32(3)), "3");
  EXPECT_EQ(Transform::truncate(3).to_human_string(Literal::string("ice")), "ice");
  EXPECT_EQ(Transform::void_transform().to_human_string(Literal::int32(3)), "null");
}

TEST(HumanStringTest, JavaFloatingPoint) {
  Transform id = Transform::identity();
  EXPECT_EQ(id.to_human_string(Literal::float32(1.0f)), "1.0");
  EXPECT_EQ(id.to_human_string(Literal::float64(1.0)), "1.0");
  EXPECT_EQ(id.to_human_string(Literal::float64(1.5e10)), "1.5E10");
  EXPECT_EQ(id.to_human_string(Literal::float64(1e7)), "1.0E7");
  EXPECT_EQ(id.to_human_string(Literal::float64(9999999.0)), "9999999.0");
  EXPECT_EQ(id.to_human_string(Literal::float64(0.001)), "0.001");
  EXPECT_EQ(id.to_human_string(Literal::float64(0.0001)), "1.0E-4");
  EXPECT_EQ(id.to_human_string(Literal::float64(123456.789)), "123456.789");
  EXPECT_EQ(id.to_human_string(Literal::float64(-2.5)), "-2.5");
  EXPECT_EQ(id.to_human_string(Literal::float64(0.0)), "0.0");
  EXPECT_EQ(id.to_human_string(Literal::float64(-0.0)), "-0.0");
  EXPECT_EQ(id.to_human_string(Literal::float64(100.0)), "100.0");
  EXPECT_EQ(id.to_human_string(Literal::float64(1.2345678901234567e-20)), "1.2345678901234567E-20");
  EXPECT_EQ(id.to_human_string(Literal::float32(0.1f)), "0.1");
  EXPECT_EQ(id.to_human_string(Literal::float32(3.4028235e38f)), "3.4028235E38");
  EXPECT_EQ(id.to_human_string(Literal::float64(std::nan(""))), "NaN");
  EXPECT_EQ(id.to_human_string(Literal::float64(-std::numeric_limits<double>::infinity())),
            "-Infinity");
}

}  // namespace
}  // namespace floe
