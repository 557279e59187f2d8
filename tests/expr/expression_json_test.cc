// Expressions as REST catalog JSON (REST OpenAPI spec, "Expression"): every operator and every
// literal type written and read back, the spec's and Java's forms read, malformed JSON rejected
// with an error naming the place at fault.
#include "floe/expr/expression_json.h"

#include <gtest/gtest.h>

#include <string>

namespace floe {
namespace {

using json = nlohmann::json;

NestedField field(int32_t id, std::string name, TypePtr type, bool required = false) {
  return NestedField{id, std::move(name), std::move(type), required,
                     "", std::nullopt,    std::nullopt};
}

// One column of every primitive type the JSON single-value serialization defines.
const Schema& schema() {
  static const Schema s(
      0,
      {field(1, "b", Type::boolean()), field(2, "i", Type::int32()), field(3, "l", Type::int64()),
       field(4, "f", Type::float32()), field(5, "d", Type::float64()),
       field(6, "dec", Type::decimal(9, 2)), field(7, "day", Type::date()),
       field(8, "t", Type::time()), field(9, "ts", Type::timestamp()),
       field(10, "tstz", Type::timestamptz()), field(11, "ts_ns", Type::timestamp_ns()),
       field(12, "tstz_ns", Type::timestamptz_ns()), field(13, "s", Type::string()),
       field(14, "u", Type::uuid()), field(15, "fx", Type::fixed(3)),
       field(16, "bin", Type::binary()), field(17, "Mixed", Type::string())});
  return s;
}

ExprPtr parse(const json& j, const Schema* s = nullptr) {
  auto e = expression_from_json(j, s);
  EXPECT_TRUE(e.ok()) << j.dump() << ": " << e.status().to_string();
  return e.ok() ? *e : nullptr;
}

json write(const ExprPtr& e) {
  auto j = expression_to_json(*e);
  EXPECT_TRUE(j.ok()) << j.status().to_string();
  return j.ok() ? *j : json();
}

ExprPtr bind_to_schema(const ExprPtr& e) {
  auto b = bind_expression(e, schema());
  EXPECT_TRUE(b.ok()) << e->to_string() << ": " << b.status().to_string();
  return b.ok() ? *b : always_false();
}

// The error of reading `j`; fails the test when it reads.
Status error_of(const json& j, const Schema* s = nullptr) {
  auto e = expression_from_json(j, s, true, "filter");
  EXPECT_FALSE(e.ok()) << j.dump() << " was read as " << (*e)->to_string();
  return e.ok() ? Status::OK() : e.status();
}

TEST(ExpressionJsonTest, EveryOperatorRoundTrips) {
  auto id = [](Operation op, std::vector<Literal> v = {}) {
    return make_predicate(op, "l", std::move(v));
  };
  const std::vector<std::pair<ExprPtr, json>> cases = {
      {id(Operation::kLt, {Literal::int64(5)}), {{"type", "lt"}, {"term", "l"}, {"value", 5}}},
      {id(Operation::kLtEq, {Literal::int64(5)}), {{"type", "lt-eq"}, {"term", "l"}, {"value", 5}}},
      {id(Operation::kGt, {Literal::int64(-7)}), {{"type", "gt"}, {"term", "l"}, {"value", -7}}},
      {id(Operation::kGtEq, {Literal::int64(0)}), {{"type", "gt-eq"}, {"term", "l"}, {"value", 0}}},
      {id(Operation::kEq, {Literal::int64(34)}), {{"type", "eq"}, {"term", "l"}, {"value", 34}}},
      {id(Operation::kNotEq, {Literal::int64(34)}),
       {{"type", "not-eq"}, {"term", "l"}, {"value", 34}}},
      {id(Operation::kIn, {Literal::int64(1), Literal::int64(2)}),
       {{"type", "in"}, {"term", "l"}, {"values", {1, 2}}}},
      {id(Operation::kNotIn, {Literal::int64(1), Literal::int64(2), Literal::int64(3)}),
       {{"type", "not-in"}, {"term", "l"}, {"values", {1, 2, 3}}}},
      {id(Operation::kIsNull), {{"type", "is-null"}, {"term", "l"}}},
      {id(Operation::kNotNull), {{"type", "not-null"}, {"term", "l"}}},
      {make_predicate(Operation::kIsNan, "d"), {{"type", "is-nan"}, {"term", "d"}}},
      {make_predicate(Operation::kNotNan, "d"), {{"type", "not-nan"}, {"term", "d"}}},
      {make_predicate(Operation::kStartsWith, "s", {Literal::string("abc")}),
       {{"type", "starts-with"}, {"term", "s"}, {"value", "abc"}}},
      {make_predicate(Operation::kNotStartsWith, "s", {Literal::string("abc")}),
       {{"type", "not-starts-with"}, {"term", "s"}, {"value", "abc"}}},
      {make_predicate(Operation::kEq, "d", {Literal::float64(1.5)}),
       {{"type", "eq"}, {"term", "d"}, {"value", 1.5}}},
      {make_predicate(Operation::kEq, "b", {Literal::boolean(true)}),
       {{"type", "eq"}, {"term", "b"}, {"value", true}}},
      {always_true(), true},
      {always_false(), false},
  };
  for (const auto& [expr, expected] : cases) {
    json j = write(expr);
    EXPECT_EQ(j, expected) << expr->to_string();
    ExprPtr back = parse(j);
    ASSERT_TRUE(back);
    EXPECT_TRUE(back->equals(*expr)) << expr->to_string() << " read back as " << back->to_string();
  }

  // and / or / not, nested.
  ExprPtr lt = id(Operation::kLt, {Literal::int64(5)});
  ExprPtr null = make_predicate(Operation::kIsNull, "s");
  ExprPtr tree = make_or(make_and(lt, make_not(null)),
                         make_predicate(Operation::kEq, "s", {Literal::string("x")}));
  json j = write(tree);
  EXPECT_EQ(j["type"], "or");
  EXPECT_EQ(j["left"]["type"], "and");
  EXPECT_EQ(j["left"]["right"],
            (json{{"type", "not"}, {"child", {{"type", "is-null"}, {"term", "s"}}}}));
  EXPECT_TRUE(parse(j)->equals(*tree));
}

TEST(ExpressionJsonTest, TransformTermsRoundTrip) {
  for (Transform t : {Transform::bucket(16), Transform::truncate(4), Transform::identity()}) {
    Term term;
    term.name = "s";
    term.transform = t;
    ExprPtr e = make_predicate(Operation::kEq, term, {Literal::int64(3)});
    json j = write(e);
    EXPECT_EQ(j["term"],
              (json{{"type", "transform"}, {"transform", t.to_string()}, {"term", "s"}}));
    EXPECT_TRUE(parse(j)->equals(*e)) << j.dump();
  }
  // A bound transform predicate writes its column name and the transform.
  json day = {{"type", "gt-eq"},
              {"term", {{"type", "transform"}, {"transform", "day"}, {"term", "ts"}}},
              {"value", "2024-06-15"}};
  ExprPtr bound = bind_to_schema(parse(day, &schema()));
  EXPECT_EQ(bound->term().type->id(), TypeId::kDate);
  EXPECT_EQ(write(bound), day);
}

// Each type's single-value JSON, written from a bound literal and read back through a schema
// (and, where binding converts text, without one).
TEST(ExpressionJsonTest, EveryLiteralTypeRoundTrips) {
  const std::vector<std::pair<std::string, json>> values = {
      {"b", true},
      {"i", 42},
      {"l", 9223372036854775807LL},
      {"f", 3.5},
      {"d", 123.456},
      {"dec", "123.45"},
      {"day", "2007-12-03"},
      {"t", "22:31:08.123456"},
      {"ts", "2007-12-03T10:15:30.123456"},
      {"tstz", "2007-12-03T10:15:30.123456+00:00"},
      {"ts_ns", "2007-12-03T10:15:30.123456789"},
      {"tstz_ns", "2007-12-03T10:15:30.123456789+00:00"},
      {"s", "hello"},
      {"u", "eb26bdb1-a1d8-4aa6-990e-da940875492c"},
      {"fx", "78797a"},
      {"bin", "0001ff"},
  };
  for (const auto& [column, value] : values) {
    json j = {{"type", "eq"}, {"term", column}, {"value", value}};
    ExprPtr typed = parse(j, &schema());
    ASSERT_TRUE(typed);
    ExprPtr bound = bind_to_schema(typed);
    ASSERT_EQ(bound->op(), Operation::kEq) << column;
    EXPECT_EQ(bound->literal().type()->id(), schema().find_field(column)->type->id()) << column;
    // The bound predicate writes the same JSON, and reads back to the same bound predicate.
    EXPECT_EQ(write(bound), j) << column;
    EXPECT_TRUE(bind_to_schema(parse(write(bound), &schema()))->equals(*bound)) << column;
    if (column != "fx" && column != "bin") {
      // Without a schema the value keeps its JSON kind and binding converts it.
      EXPECT_TRUE(bind_to_schema(parse(j))->equals(*bound)) << column;
    }
  }
  // Set predicates read each value with the column's type.
  json in = {{"type", "in"}, {"term", "bin"}, {"values", {"00", "ff"}}};
  ExprPtr bound_in = bind_to_schema(parse(in, &schema()));
  ASSERT_EQ(bound_in->literals().size(), 2u);
  EXPECT_EQ(bound_in->literals()[1].as_bytes(), std::string("\xff", 1));
  EXPECT_EQ(write(bound_in), in);
  // Hex is binary only with the schema: without it the text stays a string, which binding
  // refuses for a binary column.
  EXPECT_FALSE(bind_expression(parse(in), schema()).ok());
}

// Examples in the REST OpenAPI document and the forms Java's ExpressionParser writes.
TEST(ExpressionJsonTest, SpecAndJavaForms) {
  EXPECT_EQ(parse(json{{"type", "true"}})->op(), Operation::kTrue);
  EXPECT_EQ(parse(json{{"type", "false"}})->op(), Operation::kFalse);
  EXPECT_EQ(parse(json{{"type", "literal"}, {"value", true}})->op(), Operation::kTrue);
  EXPECT_EQ(parse(json{{"type", "literal"}, {"value", false}})->op(), Operation::kFalse);
  EXPECT_EQ(parse(json::parse("true"))->op(), Operation::kTrue);

  ExprPtr e = parse(json::parse(R"({"type": "and",
      "left": {"type": "eq", "term": {"type": "reference", "term": "l"},
               "value": {"type": "literal", "value": 34}},
      "right": {"type": "not", "child": {"type": "in", "term": "s", "values": ["a", "b"]}}})"));
  ExprPtr expected = make_and(
      make_predicate(Operation::kEq, "l", {Literal::int64(34)}),
      make_not(make_predicate(Operation::kIn, "s", {Literal::string("a"), Literal::string("b")})));
  EXPECT_TRUE(e->equals(*expected)) << e->to_string();

  // Java reads operation names case-insensitively, with '_' for '-'.
  EXPECT_TRUE(parse(json{{"type", "LT_EQ"}, {"term", "l"}, {"value", 1}})
                  ->equals(*make_predicate(Operation::kLtEq, "l", {Literal::int64(1)})));
  // Constants simplify as floe's constructors do.
  EXPECT_TRUE(
      parse(json{{"type", "and"}, {"left", true}, {"right", {{"type", "is-null"}, {"term", "s"}}}})
          ->equals(*make_predicate(Operation::kIsNull, "s")));
  EXPECT_EQ(parse(json{{"type", "or"}, {"left", true}, {"right", false}})->op(), Operation::kTrue);
  // Case-insensitive lookups type values through the schema too.
  ExprPtr mixed = *expression_from_json(json{{"type", "eq"}, {"term", "mixed"}, {"value", "x"}},
                                        &schema(), false);
  EXPECT_TRUE(bind_expression(mixed, schema(), false).ok());
}

TEST(ExpressionJsonTest, MalformedJsonNamesThePlaceAtFault) {
  // JSON text, and what the error says.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("id")", "filter: expected an expression"},
      {R"(42)", "filter: expected an expression"},
      {R"({})", "filter: missing \"type\""},
      {R"({"type": 3})", "filter.type: expected a string"},
      {R"({"type": "lte"})", "filter.type: unknown expression type \"lte\""},
      {R"({"type": "and", "left": true})", "filter: missing \"right\""},
      {R"({"type": "not", "left": true})", "filter: missing \"child\""},
      {R"({"type": "lt", "value": 1})", "filter: missing \"term\""},
      {R"({"type": "lt", "term": "l"})", "filter: missing \"value\""},
      {R"({"type": "lt", "term": "l", "values": [1]})", "takes \"value\", not \"values\""},
      {R"({"type": "in", "term": "l", "value": 1})", "takes \"values\", not \"value\""},
      {R"({"type": "in", "term": "l", "values": 1})", "filter.values: expected an array"},
      {R"({"type": "is-null", "term": "l", "value": 1})", "takes no \"value\""},
      {R"({"type": "eq", "term": "l", "value": null})",
       "filter.value: a predicate value cannot be null"},
      {R"({"type": "eq", "term": "l", "value": [1, 2]})", "filter.value: expected a single value"},
      {R"({"type": "eq", "term": "l", "value": {"x": 1}})", "filter.value: expected a value or"},
      {R"({"type": "in", "term": "l", "values": [1, null]})",
       "filter.values[1]: a predicate value cannot be null"},
      {R"({"type": "eq", "term": "l", "value": 18446744073709551615})",
       "out of the range of a long"},
      {R"({"type": "eq", "term": 5, "value": 1})", "filter.term: expected a column name"},
      {R"({"type": "eq", "term": "", "value": 1})", "filter.term: the column name is empty"},
      {R"({"type": "eq", "term": {"type": "transform", "transform": "bucket[x]", "term": "l"},
           "value": 1})",
       "filter.term.transform:"},
      {R"({"type": "eq", "term": {"type": "transform", "transform": "zorder", "term": "l"},
           "value": 1})",
       "filter.term.transform: unknown transform \"zorder\""},
      {R"({"type": "eq", "term": {"type": "transform", "transform": "day"}, "value": 1})",
       "filter.term: missing \"term\""},
      {R"({"type": "eq", "term": {"type": "column", "term": "l"}, "value": 1})",
       "filter.term.type: expected"},
      {R"({"type": "literal", "value": 1})", "filter.value: expected true or false"},
      {R"({"type": "or", "left": true,
           "right": {"type": "and", "left": false, "right": {"type": "gt", "term": "l"}}})",
       "filter.right.right: missing \"value\""},
  };
  for (const auto& [text, message] : cases) {
    Status s = error_of(json::parse(text));
    EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument) << text;
    EXPECT_NE(s.message().find(message), std::string::npos)
        << text << " -> " << s.message() << " (expected: " << message << ")";
  }
}

TEST(ExpressionJsonTest, DeepNestingIsAnErrorNotACrash) {
  json j = {{"type", "is-null"}, {"term", "l"}};
  for (int i = 0; i < 1100; ++i) j = json{{"type", "not"}, {"child", std::move(j)}};
  Status s = error_of(j);
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(s.message().find("deeper than"), std::string::npos) << s.message();
  // Within the limit it reads.
  json shallow = {{"type", "is-null"}, {"term", "l"}};
  for (int i = 0; i < 100; ++i) shallow = json{{"type", "not"}, {"child", std::move(shallow)}};
  EXPECT_TRUE(expression_from_json(shallow).ok());
}

TEST(ExpressionJsonTest, ValuesOfTheWrongTypeFallBackToBinding) {
  // "5" is not an int's JSON form; read as a string, binding refuses it for an int column.
  ExprPtr e = parse(json{{"type", "eq"}, {"term", "i"}, {"value", "5"}}, &schema());
  EXPECT_EQ(e->literal().type()->id(), TypeId::kString);
  auto bound = bind_expression(e, schema());
  ASSERT_FALSE(bound.ok());
  EXPECT_NE(bound.status().message().find("column 'i'"), std::string::npos)
      << bound.status().message();
  // A date for a timestamp column is not its single-value form, but binding reads it as
  // midnight.
  ExprPtr ts = bind_to_schema(
      parse(json{{"type", "lt"}, {"term", "ts"}, {"value", "2024-06-15"}}, &schema()));
  EXPECT_EQ(write(ts)["value"], "2024-06-15T00:00:00.000000");
  // An unknown column is binding's to report.
  ExprPtr unknown = parse(json{{"type", "eq"}, {"term", "nope"}, {"value", 1}}, &schema());
  EXPECT_FALSE(bind_expression(unknown, schema()).ok());
}

}  // namespace
}  // namespace floe
