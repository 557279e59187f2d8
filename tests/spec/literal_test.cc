#include "floe/spec/literal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "floe/spec/type.h"

namespace floe {
namespace {

using nlohmann::json;

std::string bytes_of(std::initializer_list<int> v) {
  std::string out;
  for (int b : v) out.push_back(static_cast<char>(b));
  return out;
}

NestedField nf(int32_t id, std::string name, TypePtr type) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.type = std::move(type);
  return f;
}

Uuid example_uuid() { return Uuid::parse("f79c3e09-677c-4bbd-a479-3f349cb785e7").value(); }

std::string to_bytes(const Literal& l) {
  auto r = l.to_bytes();
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  return r.ok() ? *r : std::string();
}

std::string json_text(const Literal& l) {
  json j;
  Status s = l.to_json(&j);
  EXPECT_TRUE(s.ok()) << s.to_string();
  return j.dump();
}

Literal from_json_text(const TypePtr& type, const std::string& text) {
  auto r = Literal::from_json(type, json::parse(text));
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().to_string();
  return r.ok() ? *r : Literal();
}

// ---------------------------------------------------------------------------------------------
// Factories and accessors

TEST(LiteralTest, FactoriesSetTypesAndValues) {
  EXPECT_EQ(Literal::boolean(true).type()->id(), TypeId::kBoolean);
  EXPECT_TRUE(Literal::boolean(true).as_bool());
  EXPECT_EQ(Literal::int32(-7).as_int32(), -7);
  EXPECT_EQ(Literal::int32(-7).as_int64(), -7);
  EXPECT_EQ(Literal::int64(1LL << 40).as_int64(), 1LL << 40);
  EXPECT_EQ(Literal::float32(1.5f).as_float(), 1.5f);
  EXPECT_EQ(Literal::float64(2.25).as_double(), 2.25);
  EXPECT_EQ(Literal::date(17486).type()->id(), TypeId::kDate);
  EXPECT_EQ(Literal::date(17486).as_int32(), 17486);
  EXPECT_EQ(Literal::date(17486).as_int64(), 17486);
  EXPECT_EQ(Literal::time(81068000000).as_int64(), 81068000000);
  EXPECT_EQ(Literal::timestamp(1).type()->id(), TypeId::kTimestamp);
  EXPECT_EQ(Literal::timestamptz(1).type()->id(), TypeId::kTimestampTz);
  EXPECT_EQ(Literal::timestamp_ns(1).type()->id(), TypeId::kTimestampNs);
  EXPECT_EQ(Literal::timestamptz_ns(1).type()->id(), TypeId::kTimestampTzNs);
  EXPECT_EQ(Literal::string("abc").as_bytes(), "abc");
  EXPECT_EQ(Literal::uuid(example_uuid()).as_uuid(), example_uuid());
  Literal fixed = Literal::fixed(bytes_of({0, 1, 2}));
  EXPECT_EQ(fixed.type()->id(), TypeId::kFixed);
  EXPECT_EQ(fixed.type()->length(), 3);
  EXPECT_EQ(Literal::binary("xy").type()->id(), TypeId::kBinary);
  Literal dec = Literal::decimal(1420, 9, 2);
  EXPECT_EQ(dec.type()->precision(), 9);
  EXPECT_EQ(dec.type()->scale(), 2);
  EXPECT_TRUE(dec.as_decimal() == 1420);
  EXPECT_EQ(Literal::of_int(Type::date(), 5).as_int32(), 5);
  EXPECT_EQ(Literal::of_int(Type::timestamp(), -5).as_int64(), -5);
  EXPECT_EQ(Literal::of_bytes(Type::string(), "s").as_bytes(), "s");
}

TEST(LiteralTest, NullsAndNested) {
  Literal n = Literal::null(Type::int32());
  EXPECT_TRUE(n.is_null());
  EXPECT_EQ(n.type()->id(), TypeId::kInt);
  EXPECT_TRUE(Literal().is_null());
  EXPECT_EQ(Literal().type(), nullptr);

  auto st = Type::struct_of({nf(1, "a", Type::int32()), nf(2, "b", Type::string())});
  Literal s = Literal::struct_value(st, {Literal::int32(1), Literal::string("bar")});
  ASSERT_EQ(s.struct_fields().size(), 2u);
  EXPECT_EQ(s.struct_fields()[1].as_bytes(), "bar");

  auto mt = Type::map_of(3, Type::string(), 4, Type::int32(), false);
  Literal m = Literal::map_value(mt, {Literal::string("a")}, {Literal::int32(1)});
  EXPECT_EQ(m.map_keys().size(), 1u);
  EXPECT_EQ(m.map_values()[0].as_int32(), 1);

  auto lt = Type::list_of(5, Type::int32(), false);
  Literal l = Literal::list_value(lt, {Literal::int32(1), Literal::int32(2)});
  EXPECT_EQ(l.list_elements().size(), 2u);
  EXPECT_TRUE(Literal::null(lt).list_elements().empty());
}

// ---------------------------------------------------------------------------------------------
// Binary single-value serialization (Appendix D)

TEST(LiteralBytesTest, SpecExamples) {
  EXPECT_EQ(to_bytes(Literal::int32(473976)), bytes_of({0x78, 0x3B, 0x07, 0x00}));
  EXPECT_EQ(to_bytes(Literal::int64(1234)), bytes_of({0xD2, 0x04, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(to_bytes(Literal::decimal(1420, 9, 2)), bytes_of({0x05, 0x8C}));
  EXPECT_EQ(to_bytes(Literal::uuid(example_uuid())),
            bytes_of({0xF7, 0x9C, 0x3E, 0x09, 0x67, 0x7C, 0x4B, 0xBD, 0xA4, 0x79, 0x3F, 0x34, 0x9C,
                      0xB7, 0x85, 0xE7}));

  auto i = Literal::from_bytes(Type::int32(), bytes_of({0x78, 0x3B, 0x07, 0x00}));
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(i->as_int32(), 473976);
  auto l = Literal::from_bytes(Type::int64(), bytes_of({0xD2, 0x04, 0, 0, 0, 0, 0, 0}));
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->as_int64(), 1234);
  auto d = Literal::from_bytes(Type::decimal(9, 2), bytes_of({0x05, 0x8C}));
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->as_decimal() == 1420);
  EXPECT_EQ(d->to_string(), "14.20");
}

TEST(LiteralBytesTest, EveryPrimitiveEncoding) {
  EXPECT_EQ(to_bytes(Literal::boolean(true)), bytes_of({0x01}));
  EXPECT_EQ(to_bytes(Literal::boolean(false)), bytes_of({0x00}));
  EXPECT_EQ(to_bytes(Literal::int32(-1)), bytes_of({0xFF, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(to_bytes(Literal::date(17486)), bytes_of({0x4E, 0x44, 0x00, 0x00}));
  EXPECT_EQ(to_bytes(Literal::time(81068000000)),
            bytes_of({0x00, 0x83, 0x07, 0xE0, 0x12, 0x00, 0x00, 0x00}));
  // 1510871468000000 = 0x00055E212D26C300
  EXPECT_EQ(to_bytes(Literal::timestamp(1510871468000000)),
            bytes_of({0x00, 0xC3, 0x26, 0x2D, 0x21, 0x5E, 0x05, 0x00}));
  EXPECT_EQ(to_bytes(Literal::timestamptz(1510871468000000)),
            bytes_of({0x00, 0xC3, 0x26, 0x2D, 0x21, 0x5E, 0x05, 0x00}));
  EXPECT_EQ(to_bytes(Literal::timestamp_ns(1)), bytes_of({1, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(to_bytes(Literal::timestamptz_ns(-1)),
            bytes_of({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(to_bytes(Literal::float32(1.0f)), bytes_of({0x00, 0x00, 0x80, 0x3F}));
  EXPECT_EQ(to_bytes(Literal::float64(1.0)), bytes_of({0, 0, 0, 0, 0, 0, 0xF0, 0x3F}));
  EXPECT_EQ(to_bytes(Literal::float64(-0.0)), bytes_of({0, 0, 0, 0, 0, 0, 0, 0x80}));
  EXPECT_EQ(to_bytes(Literal::string("iceberg")), "iceberg");
  EXPECT_EQ(to_bytes(Literal::string("")), "");
  EXPECT_EQ(to_bytes(Literal::fixed(bytes_of({0, 1, 2, 3}))), bytes_of({0, 1, 2, 3}));
  EXPECT_EQ(to_bytes(Literal::binary(bytes_of({0, 1, 2, 3}))), bytes_of({0, 1, 2, 3}));
}

TEST(LiteralBytesTest, RoundTripEveryPrimitive) {
  std::vector<Literal> values = {
      Literal::boolean(true),
      Literal::boolean(false),
      Literal::int32(std::numeric_limits<int32_t>::min()),
      Literal::int32(473976),
      Literal::int64(std::numeric_limits<int64_t>::min()),
      Literal::int64(std::numeric_limits<int64_t>::max()),
      Literal::float32(-0.0f),
      Literal::float32(3.25f),
      Literal::float64(std::numeric_limits<double>::infinity()),
      Literal::float64(-1e300),
      Literal::date(-1),
      Literal::date(17486),
      Literal::time(81068123456),
      Literal::timestamp(-1),
      Literal::timestamptz(1510871468123456),
      Literal::timestamp_ns(1510871468123456789),
      Literal::timestamptz_ns(-1510871468123456789),
      Literal::string("ünïcödé ✓"),
      Literal::uuid(example_uuid()),
      Literal::fixed(bytes_of({0xFF, 0x00, 0x7F})),
      Literal::binary(bytes_of({0x00, 0xFF})),
      Literal::binary(""),
      Literal::decimal(-1420, 9, 2),
      Literal::decimal(0, 38, 10),
  };
  for (const auto& v : values) {
    auto bytes = v.to_bytes();
    ASSERT_TRUE(bytes.ok()) << v.type()->to_string();
    auto back = Literal::from_bytes(v.type(), *bytes);
    ASSERT_TRUE(back.ok()) << v.type()->to_string() << ": " << back.status().to_string();
    EXPECT_EQ(*back, v) << v.type()->to_string() << " " << v.to_string();
  }
}

TEST(LiteralBytesTest, BooleanAnyNonZeroIsTrue) {
  auto b = Literal::from_bytes(Type::boolean(), bytes_of({0x02}));
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(b->as_bool());
  auto f = Literal::from_bytes(Type::boolean(), bytes_of({0x00}));
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE(f->as_bool());
}

TEST(LiteralBytesTest, PromotionCases) {
  // int -> long: old 4-byte bounds.
  auto l = Literal::from_bytes(Type::int64(), bytes_of({0xFB, 0xFF, 0xFF, 0xFF}));
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->type()->id(), TypeId::kLong);
  EXPECT_EQ(l->as_int64(), -5);
  // float -> double
  auto d = Literal::from_bytes(Type::float64(), bytes_of({0x00, 0x00, 0xC0, 0x3F}));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->type()->id(), TypeId::kDouble);
  EXPECT_EQ(d->as_double(), 1.5);
  // date -> timestamp: days become micros.
  auto ts = Literal::from_bytes(Type::timestamp(), bytes_of({0x4E, 0x44, 0x00, 0x00}));
  ASSERT_TRUE(ts.ok());
  EXPECT_EQ(ts->as_int64(), 17486LL * 86400000000LL);
  auto tstz = Literal::from_bytes(Type::timestamptz(), bytes_of({0xFF, 0xFF, 0xFF, 0xFF}));
  ASSERT_TRUE(tstz.ok());
  EXPECT_EQ(tstz->as_int64(), -86400000000LL);
  auto tsns = Literal::from_bytes(Type::timestamp_ns(), bytes_of({0x01, 0x00, 0x00, 0x00}));
  ASSERT_TRUE(tsns.ok());
  EXPECT_EQ(tsns->as_int64(), 86400000000000LL);
}

TEST(LiteralBytesTest, WrongLengthsNameTypeAndLength) {
  auto i = Literal::from_bytes(Type::int32(), bytes_of({1, 2, 3}));
  ASSERT_FALSE(i.ok());
  EXPECT_EQ(i.status().kind(), ErrorKind::kInvalidData);
  EXPECT_NE(i.status().message().find("int"), std::string::npos);
  EXPECT_NE(i.status().message().find("3"), std::string::npos);

  auto l = Literal::from_bytes(Type::int64(), bytes_of({1, 2, 3, 4, 5}));
  ASSERT_FALSE(l.ok());
  EXPECT_EQ(l.status().kind(), ErrorKind::kInvalidData);
  EXPECT_NE(l.status().message().find("long"), std::string::npos);
  EXPECT_NE(l.status().message().find("5"), std::string::npos);

  auto f = Literal::from_bytes(Type::fixed(4), bytes_of({1, 2, 3}));
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().kind(), ErrorKind::kInvalidData);
  EXPECT_NE(f.status().message().find("fixed[4]"), std::string::npos);

  EXPECT_EQ(Literal::from_bytes(Type::uuid(), std::string(15, 'x')).status().kind(),
            ErrorKind::kInvalidData);
  EXPECT_EQ(Literal::from_bytes(Type::boolean(), "").status().kind(), ErrorKind::kInvalidData);
  EXPECT_EQ(Literal::from_bytes(Type::float32(), std::string(8, '\0')).status().kind(),
            ErrorKind::kInvalidData);
  EXPECT_EQ(Literal::from_bytes(Type::float64(), std::string(2, '\0')).status().kind(),
            ErrorKind::kInvalidData);
  EXPECT_EQ(Literal::from_bytes(Type::time(), std::string(4, '\0')).status().kind(),
            ErrorKind::kInvalidData);
  EXPECT_EQ(Literal::from_bytes(Type::date(), std::string(8, '\0')).status().kind(),
            ErrorKind::kInvalidData);
  EXPECT_EQ(Literal::from_bytes(Type::timestamp(), std::string(7, '\0')).status().kind(),
            ErrorKind::kInvalidData);
  EXPECT_EQ(Literal::from_bytes(Type::decimal(9, 2), "").status().kind(), ErrorKind::kInvalidData);
  EXPECT_EQ(Literal::from_bytes(Type::decimal(38, 2), std::string(17, '\1')).status().kind(),
            ErrorKind::kInvalidData);
}

TEST(LiteralBytesTest, UnsupportedTypes) {
  auto st = Type::struct_of({nf(1, "a", Type::int32())});
  EXPECT_EQ(Literal::from_bytes(st, "").status().kind(), ErrorKind::kNotSupported);
  EXPECT_EQ(Literal::from_bytes(Type::unknown(), "").status().kind(), ErrorKind::kNotSupported);
  Literal s = Literal::struct_value(st, {Literal::int32(1)});
  EXPECT_EQ(s.to_bytes().status().kind(), ErrorKind::kNotSupported);
  EXPECT_FALSE(Literal::null(Type::int32()).to_bytes().ok());
}

// ---------------------------------------------------------------------------------------------
// JSON single-value serialization

TEST(LiteralJsonTest, AddColumnsWithDefaultsFixture) {
  Literal dec = from_json_text(Type::decimal(16, 2), R"("12345.00")");
  EXPECT_TRUE(dec.as_decimal() == 1234500);
  EXPECT_EQ(json_text(dec), R"("12345.00")");

  Literal date = from_json_text(Type::date(), R"("2003-10-20")");
  EXPECT_EQ(date.as_int32(), 12345);
  EXPECT_EQ(json_text(date), R"("2003-10-20")");

  Literal time = from_json_text(Type::time(), R"("00:00:00.012345")");
  EXPECT_EQ(time.as_int64(), 12345);
  EXPECT_EQ(json_text(time), R"("00:00:00.012345")");

  Literal ts = from_json_text(Type::timestamp(), R"("1970-01-01T00:00:00.012345")");
  EXPECT_EQ(ts.as_int64(), 12345);
  EXPECT_EQ(json_text(ts), R"("1970-01-01T00:00:00.012345")");

  Literal tstz = from_json_text(Type::timestamptz(), R"("1970-01-01T00:00:00.012345+00:00")");
  EXPECT_EQ(tstz.as_int64(), 12345);
  EXPECT_EQ(json_text(tstz), R"("1970-01-01T00:00:00.012345+00:00")");

  Literal uuid = from_json_text(Type::uuid(), R"("f79c3e09-677c-4bbd-a479-3f349cb785e7")");
  EXPECT_EQ(uuid.as_uuid(), example_uuid());
  EXPECT_EQ(json_text(uuid), R"("f79c3e09-677c-4bbd-a479-3f349cb785e7")");

  Literal fixed = from_json_text(Type::fixed(5), R"("010203ff03")");
  EXPECT_EQ(fixed.as_bytes(), bytes_of({0x01, 0x02, 0x03, 0xFF, 0x03}));
  EXPECT_EQ(json_text(fixed), R"("010203ff03")");

  Literal binary = from_json_text(Type::binary(), R"("0102")");
  EXPECT_EQ(binary.as_bytes(), bytes_of({0x01, 0x02}));
  EXPECT_EQ(json_text(binary), R"("0102")");

  Literal lng = from_json_text(Type::int64(), "-9223372036854775808");
  EXPECT_EQ(lng.as_int64(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(json_text(lng), "-9223372036854775808");

  Literal flt = from_json_text(Type::float32(), "0.34234");
  EXPECT_EQ(flt.as_float(), 0.34234f);
  EXPECT_EQ(json_text(flt), "0.34234");
}

TEST(LiteralJsonTest, SpecTableExamples) {
  EXPECT_EQ(json_text(Literal::boolean(true)), "true");
  EXPECT_EQ(json_text(Literal::int32(34)), "34");
  EXPECT_EQ(json_text(Literal::int64(34)), "34");
  EXPECT_EQ(json_text(Literal::float64(1.0)), "1.0");
  EXPECT_EQ(json_text(Literal::float32(1.0f)), "1.0");
  EXPECT_EQ(json_text(Literal::decimal(1420, 9, 2)), R"("14.20")");
  EXPECT_EQ(json_text(Literal::decimal(2, 9, -20)), R"("2E+20")");
  EXPECT_EQ(json_text(Literal::date(17486)), R"("2017-11-16")");
  EXPECT_EQ(json_text(Literal::time(81068123456)), R"("22:31:08.123456")");
  EXPECT_EQ(json_text(Literal::timestamp(1510871468123456)), R"("2017-11-16T22:31:08.123456")");
  EXPECT_EQ(json_text(Literal::timestamptz(1510871468123456)),
            R"("2017-11-16T22:31:08.123456+00:00")");
  EXPECT_EQ(json_text(Literal::timestamp_ns(1510871468123456789)),
            R"("2017-11-16T22:31:08.123456789")");
  EXPECT_EQ(json_text(Literal::timestamptz_ns(1510871468123456789)),
            R"("2017-11-16T22:31:08.123456789+00:00")");
  EXPECT_EQ(json_text(Literal::string("iceberg")), R"("iceberg")");
  EXPECT_EQ(json_text(Literal::binary(bytes_of({0x00, 0x01, 0x02, 0xFF}))), R"("000102ff")");
  EXPECT_EQ(json_text(Literal::null(Type::string())), "null");

  auto st = Type::struct_of({nf(1, "a", Type::int32()), nf(2, "b", Type::string())});
  Literal s = from_json_text(st, R"({"1": 1, "2": "bar"})");
  ASSERT_EQ(s.struct_fields().size(), 2u);
  EXPECT_EQ(s.struct_fields()[0].as_int32(), 1);
  EXPECT_EQ(s.struct_fields()[1].as_bytes(), "bar");
  EXPECT_EQ(json_text(s), R"({"1":1,"2":"bar"})");

  auto lt = Type::list_of(3, Type::int32(), false);
  Literal l = from_json_text(lt, "[1, 2, 3]");
  ASSERT_EQ(l.list_elements().size(), 3u);
  EXPECT_EQ(l.list_elements()[2].as_int32(), 3);
  EXPECT_EQ(json_text(l), "[1,2,3]");

  auto mt = Type::map_of(4, Type::string(), 5, Type::int32(), false);
  Literal m = from_json_text(mt, R"({"keys": ["a", "b"], "values": [1, 2]})");
  ASSERT_EQ(m.map_keys().size(), 2u);
  EXPECT_EQ(m.map_keys()[1].as_bytes(), "b");
  EXPECT_EQ(m.map_values()[1].as_int32(), 2);
  EXPECT_EQ(json_text(m), R"({"keys":["a","b"],"values":[1,2]})");
}

TEST(LiteralJsonTest, StructMissingFieldsAreNullAndNullsAreOmitted) {
  auto st = Type::struct_of({nf(1, "a", Type::int32()), nf(2, "b", Type::string())});
  Literal s = from_json_text(st, R"({"2": "x"})");
  ASSERT_EQ(s.struct_fields().size(), 2u);
  EXPECT_TRUE(s.struct_fields()[0].is_null());
  EXPECT_EQ(s.struct_fields()[0].type()->id(), TypeId::kInt);
  EXPECT_EQ(json_text(s), R"({"2":"x"})");
  EXPECT_EQ(Literal::from_json(st, json::parse("[1]")).status().kind(), ErrorKind::kInvalidData);
}

TEST(LiteralJsonTest, NestedInNested) {
  auto inner = Type::struct_of({nf(3, "x", Type::decimal(9, 2))});
  auto lt = Type::list_of(2, inner, false);
  auto outer = Type::struct_of({nf(1, "items", lt)});
  Literal v = from_json_text(outer, R"({"1": [{"3": "1.50"}, null]})");
  EXPECT_EQ(json_text(v), R"({"1":[{"3":"1.50"},null]})");
  EXPECT_EQ(v.to_string(), "{[{1.50}, null]}");
}

TEST(LiteralJsonTest, MapErrors) {
  auto mt = Type::map_of(4, Type::string(), 5, Type::int32(), false);
  EXPECT_FALSE(Literal::from_json(mt, json::parse(R"({"keys": ["a"], "values": []})")).ok());
  EXPECT_FALSE(Literal::from_json(mt, json::parse(R"({"keys": ["a"]})")).ok());
  EXPECT_FALSE(Literal::from_json(mt, json::parse(R"([["a", 1]])")).ok());
  EXPECT_FALSE(Literal::from_json(Type::list_of(1, Type::int32(), false), json::parse("{}")).ok());
}

TEST(LiteralJsonTest, DecimalScaleMustMatch) {
  EXPECT_TRUE(from_json_text(Type::decimal(9, 2), R"("14.20")").as_decimal() == 1420);
  EXPECT_TRUE(from_json_text(Type::decimal(9, 2), R"("-0.05")").as_decimal() == -5);
  EXPECT_TRUE(from_json_text(Type::decimal(9, -20), R"("2E+20")").as_decimal() == 2);
  EXPECT_TRUE(from_json_text(Type::decimal(9, 0), R"("7")").as_decimal() == 7);
  auto wrong = Literal::from_json(Type::decimal(9, 2), json::parse(R"("14.2")"));
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().kind(), ErrorKind::kInvalidData);
  EXPECT_NE(wrong.status().message().find("scale"), std::string::npos);
  EXPECT_FALSE(Literal::from_json(Type::decimal(16, 2), json::parse(R"("12345.000")")).ok());
  EXPECT_FALSE(Literal::from_json(Type::decimal(9, 2), json::parse("14.20")).ok());
  EXPECT_FALSE(Literal::from_json(Type::decimal(9, 2), json::parse(R"("abc")")).ok());
  EXPECT_FALSE(Literal::from_json(Type::decimal(3, 2), json::parse(R"("14.20")")).ok());
}

TEST(LiteralJsonTest, TimesAndTimestamps) {
  EXPECT_EQ(from_json_text(Type::time(), R"("22:31:08.1")").as_int64(), 81068100000);
  EXPECT_EQ(from_json_text(Type::time(), R"("22:31:08")").as_int64(), 81068000000);
  EXPECT_EQ(from_json_text(Type::time(), R"("22:31")").as_int64(), 81060000000);
  EXPECT_EQ(from_json_text(Type::timestamp(), R"("2017-11-16T22:31:08")").as_int64(),
            1510871468000000);
  // Any offset converts to UTC; 'Z' is UTC.
  EXPECT_EQ(from_json_text(Type::timestamptz(), R"("2017-11-16T14:31:08.123456-08:00")").as_int64(),
            1510871468123456);
  EXPECT_EQ(from_json_text(Type::timestamptz(), R"("2017-11-16T22:31:08.123456Z")").as_int64(),
            1510871468123456);
  EXPECT_EQ(from_json_text(Type::timestamptz(), R"("2017-11-17T00:01:08.123456+01:30")").as_int64(),
            1510871468123456);
  EXPECT_EQ(from_json_text(Type::timestamp_ns(), R"("2017-11-16T22:31:08.123456789")").as_int64(),
            1510871468123456789);
  EXPECT_EQ(
      from_json_text(Type::timestamptz_ns(), R"("2017-11-16T14:31:08.000001001-08:00")").as_int64(),
      1510871468000001001);
  EXPECT_EQ(json_text(from_json_text(Type::timestamptz(), R"("2017-11-16T14:31:08-08:00")")),
            R"("2017-11-16T22:31:08.000000+00:00")");
  EXPECT_EQ(from_json_text(Type::timestamp(), R"("1969-12-31T23:59:59.999999")").as_int64(), -1);

  EXPECT_FALSE(Literal::from_json(Type::timestamp(), json::parse(R"("2017-11-16T22:31:08+00:00")"))
                   .ok());  // no zone allowed
  EXPECT_FALSE(Literal::from_json(Type::date(), json::parse(R"("2017-13-01")")).ok());
  EXPECT_FALSE(Literal::from_json(Type::date(), json::parse(R"("2017-02-29")")).ok());
  EXPECT_FALSE(Literal::from_json(Type::date(), json::parse("17486")).ok());
  EXPECT_FALSE(Literal::from_json(Type::time(), json::parse(R"("24:00:00")")).ok());
  EXPECT_FALSE(Literal::from_json(Type::time(), json::parse(R"("22:31:08.")")).ok());
  EXPECT_FALSE(Literal::from_json(Type::timestamp(), json::parse(R"("2017-11-16")")).ok());
}

TEST(LiteralJsonTest, FloatsAndSpecialValues) {
  EXPECT_TRUE(std::isnan(from_json_text(Type::float32(), R"("NaN")").as_float()));
  EXPECT_EQ(from_json_text(Type::float64(), R"("Infinity")").as_double(),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(from_json_text(Type::float64(), R"("-Infinity")").as_double(),
            -std::numeric_limits<double>::infinity());
  EXPECT_EQ(from_json_text(Type::float64(), "3").as_double(), 3.0);
  EXPECT_EQ(json_text(Literal::float64(std::nan(""))), R"("NaN")");
  EXPECT_EQ(json_text(Literal::float32(-std::numeric_limits<float>::infinity())), R"("-Infinity")");
  EXPECT_EQ(json_text(Literal::float64(0.1)), "0.1");
  EXPECT_EQ(json_text(Literal::float32(0.1f)), "0.1");
  EXPECT_FALSE(Literal::from_json(Type::float64(), json::parse(R"("1.5")")).ok());
}

TEST(LiteralJsonTest, IntegerRanges) {
  EXPECT_EQ(from_json_text(Type::int64(), "9223372036854775807").as_int64(),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(json_text(Literal::int64(std::numeric_limits<int64_t>::max())), "9223372036854775807");
  EXPECT_FALSE(Literal::from_json(Type::int64(), json::parse("9223372036854775808")).ok());
  EXPECT_FALSE(Literal::from_json(Type::int64(), json::parse("1.5")).ok());
  EXPECT_EQ(from_json_text(Type::int32(), "-2147483648").as_int32(),
            std::numeric_limits<int32_t>::min());
  EXPECT_FALSE(Literal::from_json(Type::int32(), json::parse("2147483648")).ok());
  EXPECT_FALSE(Literal::from_json(Type::int32(), json::parse(R"("1")")).ok());
  EXPECT_FALSE(Literal::from_json(Type::boolean(), json::parse("1")).ok());
}

TEST(LiteralJsonTest, BytesAndUuidErrors) {
  EXPECT_FALSE(Literal::from_json(Type::fixed(4), json::parse(R"("010203ff03")")).ok());
  EXPECT_FALSE(Literal::from_json(Type::binary(), json::parse(R"("0g")")).ok());
  EXPECT_FALSE(Literal::from_json(Type::binary(), json::parse(R"("012")")).ok());
  EXPECT_EQ(from_json_text(Type::binary(), R"("ABCDEF")").as_bytes(), bytes_of({0xAB, 0xCD, 0xEF}));
  EXPECT_FALSE(Literal::from_json(Type::uuid(), json::parse(R"("not-a-uuid")")).ok());
  EXPECT_EQ(Literal::from_json(Type::unknown(), json::parse("1")).status().kind(),
            ErrorKind::kNotSupported);
  EXPECT_TRUE(Literal::from_json(Type::int32(), json::parse("null"))->is_null());
}

TEST(LiteralJsonTest, RoundTripEveryType) {
  auto st = Type::struct_of({nf(1, "a", Type::int32()), nf(2, "b", Type::string())});
  auto lt = Type::list_of(3, Type::date(), false);
  auto mt = Type::map_of(4, Type::string(), 5, Type::float64(), false);
  std::vector<Literal> values = {
      Literal::boolean(false),
      Literal::int32(-42),
      Literal::int64(std::numeric_limits<int64_t>::min()),
      Literal::float32(0.34234f),
      Literal::float32(-3.4028235e38f),
      Literal::float64(1.7976931348623157e308),
      Literal::float64(-0.0),
      Literal::decimal(-123456789, 38, 4),
      Literal::decimal(5, 9, -3),
      Literal::date(-719162),
      Literal::time(0),
      Literal::time(86399999999),
      Literal::timestamp(-62135596800000000),
      Literal::timestamptz(253402300799999999),
      Literal::timestamp_ns(-1),
      Literal::timestamptz_ns(1),
      Literal::string("ünï \"quoted\""),
      Literal::uuid(example_uuid()),
      Literal::fixed(bytes_of({0xDE, 0xAD})),
      Literal::binary(""),
      Literal::struct_value(st, {Literal::int32(1), Literal::string("bar")}),
      Literal::list_value(lt, {Literal::date(1), Literal::null(Type::date())}),
      Literal::map_value(mt, {Literal::string("a")}, {Literal::float64(2.5)}),
      Literal::null(Type::timestamptz()),
  };
  for (const auto& v : values) {
    json j;
    ASSERT_TRUE(v.to_json(&j).ok()) << v.type()->to_string();
    auto back = Literal::from_json(v.type(), json::parse(j.dump()));
    ASSERT_TRUE(back.ok()) << v.type()->to_string() << " " << j.dump() << ": "
                           << back.status().to_string();
    EXPECT_EQ(*back, v) << v.type()->to_string() << " " << j.dump();
  }
}

// ---------------------------------------------------------------------------------------------
// Text

TEST(LiteralTextTest, ToString) {
  EXPECT_EQ(Literal::decimal(1420, 9, 2).to_string(), "14.20");
  EXPECT_EQ(Literal::decimal(-5, 9, 2).to_string(), "-0.05");
  EXPECT_EQ(Literal::decimal(2, 9, -20).to_string(), "2E+20");
  EXPECT_EQ(Literal::date(17486).to_string(), "2017-11-16");
  EXPECT_EQ(Literal::date(20574).to_string(), "2026-05-01");
  EXPECT_EQ(Literal::boolean(true).to_string(), "true");
  EXPECT_EQ(Literal::boolean(false).to_string(), "false");
  EXPECT_EQ(Literal::string("abc").to_string(), "abc");
  EXPECT_EQ(Literal::uuid(example_uuid()).to_string(), "f79c3e09-677c-4bbd-a479-3f349cb785e7");
  EXPECT_EQ(Literal::binary(bytes_of({0x00, 0x01, 0xAB})).to_string(), "0001ab");
  EXPECT_EQ(Literal::fixed(bytes_of({0xFF})).to_string(), "ff");
  EXPECT_EQ(Literal::int32(-3).to_string(), "-3");
  EXPECT_EQ(Literal::int64(std::numeric_limits<int64_t>::min()).to_string(),
            "-9223372036854775808");
  EXPECT_EQ(Literal::float64(1.0).to_string(), "1.0");
  EXPECT_EQ(Literal::float32(0.34234f).to_string(), "0.34234");
  EXPECT_EQ(Literal::timestamp(20574LL * 86400000000 + 36000000000).to_string(),
            "2026-05-01T10:00:00");
  EXPECT_EQ(Literal::timestamp(1510871468123456).to_string(), "2017-11-16T22:31:08.123456");
  EXPECT_EQ(Literal::timestamptz(1510871468500000).to_string(), "2017-11-16T22:31:08.5+00:00");
  EXPECT_EQ(Literal::timestamp_ns(1510871468123456789).to_string(),
            "2017-11-16T22:31:08.123456789");
  EXPECT_EQ(Literal::time(81068000000).to_string(), "22:31:08");
  EXPECT_EQ(Literal::null(Type::int32()).to_string(), "null");
  auto mt = Type::map_of(4, Type::string(), 5, Type::int32(), false);
  EXPECT_EQ(Literal::map_value(mt, {Literal::string("a"), Literal::string("b")},
                               {Literal::int32(1), Literal::int32(2)})
                .to_string(),
            "{a -> 1, b -> 2}");
}

// ---------------------------------------------------------------------------------------------
// Ordering and equality

TEST(LiteralCompareTest, SpecOrdering) {
  EXPECT_LT(Literal::float64(-0.0).compare(Literal::float64(0.0)), 0);
  EXPECT_GT(Literal::float32(0.0f).compare(Literal::float32(-0.0f)), 0);
  EXPECT_LT(Literal::float64(-1.0).compare(Literal::float64(-0.0)), 0);
  EXPECT_LT(Literal::float64(std::numeric_limits<double>::infinity())
                .compare(Literal::float64(std::nan(""))),
            0);
  EXPECT_LT(Literal::string("a").compare(Literal::string("\xff")), 0);
  EXPECT_LT(Literal::string("a").compare(Literal::string("ab")), 0);
  EXPECT_EQ(Literal::string("ab").compare(Literal::string("ab")), 0);
  EXPECT_LT(Literal::binary(bytes_of({0x7F})).compare(Literal::binary(bytes_of({0x80}))), 0);
  EXPECT_LT(Literal::fixed(bytes_of({0x00, 0xFF})).compare(Literal::fixed(bytes_of({0x01, 0x00}))),
            0);
  EXPECT_LT(Literal::int32(-5).compare(Literal::int32(3)), 0);
  EXPECT_LT(Literal::int64(std::numeric_limits<int64_t>::min()).compare(Literal::int64(0)), 0);
  EXPECT_GT(Literal::date(1).compare(Literal::date(-1)), 0);
  EXPECT_LT(Literal::decimal(-1420, 9, 2).compare(Literal::decimal(5, 9, 2)), 0);
  EXPECT_EQ(Literal::decimal(1420, 9, 2).compare(Literal::decimal(142, 9, 1)), 0);
  EXPECT_LT(Literal::boolean(false).compare(Literal::boolean(true)), 0);
  EXPECT_LT(
      Literal::null(Type::int32()).compare(Literal::int32(std::numeric_limits<int32_t>::min())), 0);
  EXPECT_GT(Literal::int32(0).compare(Literal::null(Type::int32())), 0);
  EXPECT_EQ(Literal::null(Type::int32()).compare(Literal::null(Type::int32())), 0);
  Uuid low{}, high{};
  high.bytes[0] = 0x80;
  EXPECT_LT(Literal::uuid(low).compare(Literal::uuid(high)), 0);
  // int vs long compare numerically (promotion).
  EXPECT_LT(Literal::int32(5).compare(Literal::int64(6)), 0);
}

TEST(LiteralCompareTest, Equality) {
  EXPECT_EQ(Literal::float64(std::nan("")), Literal::float64(std::nan("")));
  EXPECT_FALSE(Literal::float64(0.0) == Literal::float64(-0.0));
  EXPECT_FALSE(Literal::int32(1) == Literal::int64(1));
  EXPECT_FALSE(Literal::date(1) == Literal::int32(1));
  EXPECT_FALSE(Literal::decimal(1420, 9, 2) == Literal::decimal(1420, 9, 3));
  EXPECT_EQ(Literal::decimal(1420, 9, 2), Literal::decimal(1420, 9, 2));
  EXPECT_EQ(Literal::fixed("ab"), Literal::fixed("ab"));
  EXPECT_FALSE(Literal::fixed("ab") == Literal::binary("ab"));
  EXPECT_FALSE(Literal::null(Type::int32()) == Literal::int32(0));
  EXPECT_EQ(Literal::null(Type::int32()), Literal::null(Type::int32()));
  EXPECT_EQ(Literal(), Literal());
  auto lt = Type::list_of(1, Type::int32(), false);
  EXPECT_EQ(Literal::list_value(lt, {Literal::int32(1)}),
            Literal::list_value(lt, {Literal::int32(1)}));
  EXPECT_FALSE(Literal::list_value(lt, {Literal::int32(1)}) ==
               Literal::list_value(lt, {Literal::int32(2)}));
}

}  // namespace
}  // namespace floe
