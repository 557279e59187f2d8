// Expressions: the WHERE parser, binding with literal conversion, NOT rewriting, projections
// through every transform (iceberg-spec-notes §7) and residuals.
#include <gtest/gtest.h>

#include "floe/expr/parser.h"
#include "floe/expr/projection.h"
#include "floe/util/date_time_text.h"

namespace floe {
namespace {

NestedField field(int32_t id, std::string name, TypePtr type, bool required = false) {
  return NestedField{id, std::move(name), std::move(type), required,
                     "", std::nullopt,    std::nullopt};
}

const Schema& schema() {
  static const Schema s(
      0, {field(1, "id", Type::int64(), true), field(2, "country", Type::string()),
          field(3, "event_ts", Type::timestamptz()), field(4, "amount", Type::decimal(10, 2)),
          field(5, "score", Type::float64()), field(6, "d", Type::date()),
          field(7, "n", Type::int32()), field(8, "name", Type::string())});
  return s;
}

ExprPtr parse_bind(const std::string& text) {
  auto parsed = parse_filter(text);
  EXPECT_TRUE(parsed.ok()) << parsed.status().to_string();
  if (!parsed.ok()) return always_false();
  auto bound = bind_expression(*parsed, schema(), false);
  EXPECT_TRUE(bound.ok()) << bound.status().to_string();
  return bound.ok() ? *bound : always_false();
}

std::string inclusive(const std::string& filter, const PartitionSpec& spec) {
  auto p = project_inclusive(parse_bind(filter), spec, schema());
  EXPECT_TRUE(p.ok()) << p.status().to_string();
  return p.ok() ? (*p)->to_string() : "";
}

std::string strict(const std::string& filter, const PartitionSpec& spec) {
  auto p = project_strict(parse_bind(filter), spec, schema());
  EXPECT_TRUE(p.ok()) << p.status().to_string();
  return p.ok() ? (*p)->to_string() : "";
}

PartitionSpec spec_of(int32_t source, Transform t, std::string name) {
  return PartitionSpec(0, {PartitionField{source, {}, 1000, std::move(name), t}});
}

TEST(ParserTest, ParsesTheLessonFilters) {
  auto e = parse_filter("event_ts >= '2024-06-15' AND country = 'DE' AND name LIKE 'Mo%'");
  ASSERT_TRUE(e.ok()) << e.status().to_string();
  EXPECT_EQ((*e)->to_string(),
            "((event_ts >= '2024-06-15' AND country = 'DE') AND name LIKE 'Mo%')");
  e = parse_filter("id IN (1, 2, 3) OR NOT (amount BETWEEN 10.50 AND 20 OR isnan(score))");
  ASSERT_TRUE(e.ok()) << e.status().to_string();
  EXPECT_EQ((*e)->to_string(),
            "(id IN (1, 2, 3) OR NOT ((amount >= 10.50 AND amount <= 20) OR isnan(score)))");
  e = parse_filter("5 < n and `country` is not null and d = DATE '2024-01-02'");
  ASSERT_TRUE(e.ok()) << e.status().to_string();
  EXPECT_EQ((*e)->to_string(), "((n > 5 AND country IS NOT NULL) AND d = 2024-01-02)");
  e = parse_filter("name = 'it''s' AND n <> -3 AND score != 1.5e3");
  ASSERT_TRUE(e.ok()) << e.status().to_string();
  EXPECT_EQ((*e)->to_string(), "((name = 'it''s' AND n != -3) AND score != 1500.0)");
}

TEST(ParserTest, ErrorsPointAtTheToken) {
  auto e = parse_filter("country = 'DE' AND amount FORM 3");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message(),
            "syntax error at 1:27 near 'FORM': expected a comparison, IS, IN, LIKE or BETWEEN");
  e = parse_filter("id IN (1, 2");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("at the end of the filter"), std::string::npos);
  e = parse_filter("a = 'x\n  AND b = ");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("unterminated string"), std::string::npos);
  e = parse_filter("id = 1\n AND name LIKE '%x'");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("2:16 near '%x'"), std::string::npos) << e.status().message();
  e = parse_filter("id = NULL");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("IS NULL"), std::string::npos);
}

TEST(BindTest, ConvertsLiteralsToColumnTypes) {
  EXPECT_EQ(parse_bind("event_ts >= '2024-06-15'")->literal().as_int64(), 1718409600000000LL);
  EXPECT_EQ(parse_bind("event_ts < '2024-06-15T10:00:00+02:00'")->literal().as_int64(),
            1718438400000000LL);
  EXPECT_EQ(parse_bind("amount = 10.5")->literal().as_decimal(), 1050);
  EXPECT_EQ(parse_bind("amount = '12.30'")->literal().as_decimal(), 1230);
  EXPECT_EQ(parse_bind("d = '2024-01-02'")->literal().as_int32(), 19724);
  EXPECT_EQ(parse_bind("n = 7")->literal().type()->id(), TypeId::kInt);
  EXPECT_EQ(parse_bind("score > 1")->literal().as_double(), 1.0);
  // Names resolve case-insensitively and report the schema's name.
  EXPECT_EQ(parse_bind("COUNTRY = 'DE'")->term().name, "country");
  EXPECT_EQ(parse_bind("COUNTRY = 'DE'")->term().field_id, 2);
}

TEST(BindTest, DecidesWhatTheTypeAlreadyDecides) {
  // Out of int range.
  EXPECT_EQ(parse_bind("n < 3000000000")->op(), Operation::kTrue);
  EXPECT_EQ(parse_bind("n > 3000000000")->op(), Operation::kFalse);
  EXPECT_EQ(parse_bind("n = 3000000000")->op(), Operation::kFalse);
  EXPECT_EQ(parse_bind("n != -3000000000")->op(), Operation::kTrue);
  EXPECT_EQ(parse_bind("n IN (3000000000, 4)")->to_string(), "n = 4");
  EXPECT_EQ(parse_bind("n NOT IN (3000000000)")->op(), Operation::kTrue);
  // Required columns are never null.
  EXPECT_EQ(parse_bind("id IS NULL")->op(), Operation::kFalse);
  EXPECT_EQ(parse_bind("id IS NOT NULL AND n = 1")->to_string(), "n = 1");
  EXPECT_EQ(parse_bind("n IN (1, 1, 2)")->literals().size(), 2u);
}

TEST(BindTest, ErrorsNameTheColumn) {
  auto e = bind_expression(*parse_filter("missing = 1"), schema());
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("'missing'"), std::string::npos);
  e = bind_expression(*parse_filter("d = 'yesterday'"), schema());
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("'d'"), std::string::npos);
  EXPECT_NE(e.status().message().find("yesterday"), std::string::npos);
  e = bind_expression(*parse_filter("isnan(n)"), schema());
  ASSERT_FALSE(e.ok());
  e = bind_expression(*parse_filter("n LIKE 'a%'"), schema());
  ASSERT_FALSE(e.ok());
  e = bind_expression(*parse_filter("amount = 1.234"), schema());
  ASSERT_FALSE(e.ok());
  e = bind_expression(*parse_filter("COUNTRY = 'DE'"), schema(), /*case_sensitive=*/true);
  ASSERT_FALSE(e.ok());
}

TEST(RewriteNotTest, PushesNotToThePredicates) {
  auto e = rewrite_not(parse_bind("NOT (n < 5 AND (country = 'DE' OR name IS NULL))"));
  EXPECT_EQ(e->to_string(), "(n >= 5 OR (country != 'DE' AND name IS NOT NULL))");
  e = rewrite_not(parse_bind("NOT NOT n IN (1, 2) AND NOT name LIKE 'ab%'"));
  EXPECT_EQ(e->to_string(), "(n IN (1, 2) AND name NOT LIKE 'ab%')");
}

TEST(ProjectionTest, IdentityCarriesEveryPredicate) {
  PartitionSpec s = spec_of(2, Transform::identity(), "country");
  EXPECT_EQ(inclusive("country = 'DE' AND n = 1", s), "country = 'DE'");
  EXPECT_EQ(strict("country = 'DE' AND n = 1", s), "false");
  EXPECT_EQ(strict("country != 'DE'", s), "country != 'DE'");
  EXPECT_EQ(inclusive("country IS NULL OR country NOT IN ('a', 'b')", s),
            "(country IS NULL OR country NOT IN ('a', 'b'))");
}

TEST(ProjectionTest, BucketProjectsOnlyEqualityAndIn) {
  PartitionSpec s = spec_of(1, Transform::bucket(16), "id_bucket");
  EXPECT_EQ(inclusive("id = 34", s), "id_bucket = 3");
  EXPECT_EQ(inclusive("id IN (34, 34)", s), "id_bucket = 3");
  EXPECT_EQ(inclusive("id < 34", s), "true");
  EXPECT_EQ(inclusive("id != 34", s), "true");
  EXPECT_EQ(strict("id != 34", s), "id_bucket != 3");
  EXPECT_EQ(strict("id = 34", s), "false");
  EXPECT_EQ(inclusive("id IS NOT NULL", s), "true");  // id is required: bound to true
}

TEST(ProjectionTest, TimeTransformsOnRanges) {
  PartitionSpec day = spec_of(3, Transform::day(), "event_ts_day");
  // ts > X -> ts_day >= day(X + 1us)
  EXPECT_EQ(inclusive("event_ts > '2024-06-15T23:59:59.999999+00:00'", day),
            "event_ts_day >= 2024-06-16");
  EXPECT_EQ(inclusive("event_ts >= '2024-06-15'", day), "event_ts_day >= 2024-06-15");
  EXPECT_EQ(inclusive("event_ts < '2024-06-15'", day), "event_ts_day <= 2024-06-14");
  EXPECT_EQ(inclusive("event_ts <= '2024-06-15'", day), "event_ts_day <= 2024-06-15");
  EXPECT_EQ(inclusive("event_ts = '2024-06-15T10:00:00'", day), "event_ts_day = 2024-06-15");
  EXPECT_EQ(strict("event_ts < '2024-06-15'", day), "event_ts_day < 2024-06-15");
  EXPECT_EQ(strict("event_ts <= '2024-06-15'", day), "event_ts_day < 2024-06-15");
  EXPECT_EQ(strict("event_ts >= '2024-06-15'", day), "event_ts_day > 2024-06-14");
  EXPECT_EQ(strict("event_ts >= '2024-06-15T00:00:01'", day), "event_ts_day > 2024-06-15");
  EXPECT_EQ(strict("event_ts = '2024-06-15'", day), "false");
  PartitionSpec hour = spec_of(3, Transform::hour(), "event_ts_hour");
  EXPECT_EQ(inclusive("event_ts >= '2026-06-20T00:30:00'", hour), "event_ts_hour >= 494976");
  PartitionSpec month = spec_of(6, Transform::month(), "d_month");
  EXPECT_EQ(inclusive("d < '2026-05-01'", month), "d_month <= 675");
}

TEST(ProjectionTest, PreEpochCompensation) {
  // Java widens negative time ordinals (old writers rounded toward zero).
  PartitionSpec hour = spec_of(3, Transform::hour(), "h");
  EXPECT_EQ(inclusive("event_ts = '1969-12-31T23:30:00'", hour), "h IN (-1, 0)");
  EXPECT_EQ(inclusive("event_ts < '1969-12-31T22:00:00'", hour), "h <= -2");
  PartitionSpec day_of_date = spec_of(6, Transform::day(), "d_day");
  EXPECT_EQ(inclusive("d = '1969-12-31'", day_of_date), "d_day = 1969-12-31");
}

TEST(ProjectionTest, PreEpochCompensationEveryOperator) {
  // iceberg-spec-notes §7: for a negative projected literal, inclusive < and <= use lit+1, =
  // becomes IN (lit, lit+1), IN adds lit+1; strict > and >= use lit+1 when lit <= 0, != becomes
  // NOT IN (lit, lit+1), NOT IN adds lit+1. Old writers rounded -1 us to hour 0, so a file of
  // 23:xx on 1969-12-31 may sit in partition 0 or -1.
  PartitionSpec hour = spec_of(3, Transform::hour(), "h");
  // Inclusive.
  EXPECT_EQ(inclusive("event_ts <= '1969-12-31T22:00:00'", hour), "h <= -1");  // t = -2
  EXPECT_EQ(inclusive("event_ts < '1969-12-31T23:00:01'", hour), "h <= 0");    // t(v-1) = -1
  EXPECT_EQ(inclusive("event_ts IN ('1969-12-31T23:30:00', '1970-01-01T01:00:00')", hour),
            "h IN (-1, 1, 0)");
  EXPECT_EQ(inclusive("event_ts >= '1969-12-31T22:00:00'", hour), "h >= -2");  // unchanged
  EXPECT_EQ(inclusive("event_ts > '1969-12-31T21:59:59.999999'", hour), "h >= -2");
  // Non-negative literals are left alone.
  EXPECT_EQ(inclusive("event_ts = '1970-01-01T00:30:00'", hour), "h = 0");
  EXPECT_EQ(inclusive("event_ts < '1970-01-01T05:00:00'", hour), "h <= 4");
  // Strict.
  EXPECT_EQ(strict("event_ts > '1969-12-31T22:00:00'", hour), "h > -1");   // t = -2
  EXPECT_EQ(strict("event_ts >= '1969-12-31T22:00:00'", hour), "h > -2");  // t(v-1) = -3
  EXPECT_EQ(strict("event_ts > '1970-01-01T00:30:00'", hour), "h > 1");    // t = 0: <= 0
  EXPECT_EQ(strict("event_ts > '1970-01-01T05:30:00'", hour), "h > 5");    // positive: as is
  EXPECT_EQ(strict("event_ts != '1969-12-31T23:00:00'", hour), "h NOT IN (-1, 0)");
  EXPECT_EQ(strict("event_ts NOT IN ('1969-12-31T22:00:00', '1970-01-01T03:00:00')", hour),
            "h NOT IN (-2, 3, -1)");
  EXPECT_EQ(strict("event_ts < '1969-12-31T22:00:00'", hour), "h < -2");   // unchanged
  EXPECT_EQ(strict("event_ts <= '1969-12-31T22:00:00'", hour), "h < -2");  // t(v+1) = -2
  EXPECT_EQ(strict("event_ts != '1970-01-01T03:00:00'", hour), "h != 3");

  // day, month and year of a timestamp are compensated too...
  PartitionSpec day = spec_of(3, Transform::day(), "ts_day");
  EXPECT_EQ(inclusive("event_ts = '1969-12-31T10:00:00'", day),
            "ts_day IN (1969-12-31, 1970-01-01)");
  EXPECT_EQ(strict("event_ts > '1969-12-30T10:00:00'", day), "ts_day > 1969-12-31");
  PartitionSpec month = spec_of(3, Transform::month(), "ts_month");
  EXPECT_EQ(inclusive("event_ts < '1969-11-01'", month), "ts_month <= -2");  // t(v-1) = -3
  PartitionSpec year = spec_of(3, Transform::year(), "ts_year");
  EXPECT_EQ(inclusive("event_ts = '1968-06-01T00:00:00'", year), "ts_year IN (-2, -1)");
  // ...and so are month and year of a date; only day of a date is exact (a date is a day).
  PartitionSpec d_month = spec_of(6, Transform::month(), "d_month");
  EXPECT_EQ(inclusive("d = '1969-12-15'", d_month), "d_month IN (-1, 0)");
  PartitionSpec d_day = spec_of(6, Transform::day(), "d_day");
  EXPECT_EQ(inclusive("d < '1969-12-31'", d_day), "d_day <= 1969-12-30");
  EXPECT_EQ(strict("d > '1969-12-30'", d_day), "d_day > 1969-12-30");
  EXPECT_EQ(strict("d != '1969-12-30'", d_day), "d_day != 1969-12-30");
}

TEST(ProjectionTest, TruncateIntegersDecimalsAndStrings) {
  PartitionSpec n = spec_of(7, Transform::truncate(10), "n_trunc");
  EXPECT_EQ(inclusive("n < 10", n), "n_trunc <= 0");
  EXPECT_EQ(inclusive("n > 9", n), "n_trunc >= 10");
  EXPECT_EQ(inclusive("n = -1", n), "n_trunc = -10");
  EXPECT_EQ(strict("n < 10", n), "n_trunc < 10");
  EXPECT_EQ(strict("n > 9", n), "n_trunc > 0");
  EXPECT_EQ(strict("n NOT IN (1, 2, 15)", n), "n_trunc NOT IN (0, 10)");
  PartitionSpec dec = spec_of(4, Transform::truncate(50), "amount_trunc");
  EXPECT_EQ(inclusive("amount >= 10.65", dec), "amount_trunc >= 10.50");
  PartitionSpec s = spec_of(8, Transform::truncate(3), "name_trunc");
  EXPECT_EQ(inclusive("name LIKE 'ic%'", s), "name_trunc LIKE 'ic%'");
  EXPECT_EQ(inclusive("name LIKE 'ice%'", s), "name_trunc = 'ice'");
  EXPECT_EQ(inclusive("name LIKE 'iceberg%'", s), "name_trunc LIKE 'ice%'");
  EXPECT_EQ(strict("name LIKE 'iceberg%'", s), "false");
  EXPECT_EQ(strict("name NOT LIKE 'iceberg%'", s), "name_trunc NOT LIKE 'ice%'");
  EXPECT_EQ(inclusive("name NOT LIKE 'iceberg%'", s), "true");
  EXPECT_EQ(inclusive("name < 'iceberg'", s), "name_trunc <= 'ice'");
  EXPECT_EQ(strict("name < 'iceberg'", s), "name_trunc < 'ice'");
}

TEST(ProjectionTest, SeveralFieldsOnOneSource) {
  PartitionSpec s(0, {PartitionField{3, {}, 1000, "event_ts_day", Transform::day()},
                      PartitionField{3, {}, 1001, "event_ts_hour", Transform::hour()}});
  EXPECT_EQ(inclusive("event_ts >= '2026-06-20'", s),
            "(event_ts_day >= 2026-06-20 AND event_ts_hour >= 494976)");
  EXPECT_EQ(strict("event_ts >= '2026-06-20'", s),
            "(event_ts_day > 2026-06-19 OR event_ts_hour > 494975)");
  PartitionSpec v(0, {PartitionField{3, {}, 1000, "event_ts_null", Transform::void_transform()}});
  EXPECT_EQ(inclusive("event_ts >= '2026-06-20'", v), "true");
}

TEST(ResidualTest, PartitionValuesDecidePredicates) {
  PartitionSpec s(0, {PartitionField{3, {}, 1000, "event_ts_day", Transform::day()},
                      PartitionField{2, {}, 1001, "country", Transform::identity()}});
  auto r = ResidualEvaluator::make(
      parse_bind("event_ts >= '2024-06-15T12:00:00' AND country = 'DE' AND n > 5"), s, schema());
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  int32_t d14 = *parse_date("2024-06-14"), d15 = *parse_date("2024-06-15"),
          d16 = *parse_date("2024-06-16");
  // The whole day is after noon of the 15th: only n > 5 remains.
  EXPECT_EQ(r->residual_for({Literal::date(d16), Literal::string("DE")})->to_string(), "n > 5");
  // Partition that cannot match.
  EXPECT_EQ(r->residual_for({Literal::date(d14), Literal::string("DE")})->to_string(), "false");
  EXPECT_EQ(r->residual_for({Literal::date(d16), Literal::string("FR")})->to_string(), "false");
  // The day of the 15th is partly before noon: the timestamp predicate stays.
  EXPECT_EQ(r->residual_for({Literal::date(d15), Literal::string("DE")})->to_string(),
            "(event_ts >= 2024-06-15T12:00:00+00:00 AND n > 5)");
  // A null partition value cannot satisfy the equality.
  EXPECT_EQ(r->residual_for({Literal::date(d16), Literal::null(Type::string())})->to_string(),
            "false");
}

TEST(EvaluateTest, SqlNullSemantics) {
  Literal five = Literal::int64(5);
  Literal null = Literal::null(Type::int64());
  std::vector<Literal> lits{Literal::int64(5)};
  EXPECT_TRUE(evaluate_predicate(Operation::kEq, &five, lits));
  EXPECT_FALSE(evaluate_predicate(Operation::kEq, &null, lits));
  EXPECT_FALSE(evaluate_predicate(Operation::kNotEq, &null, lits));
  EXPECT_TRUE(evaluate_predicate(Operation::kIsNull, &null, {}));
  EXPECT_FALSE(evaluate_predicate(Operation::kIsNull, &five, {}));
  Literal nan = Literal::float64(std::nan(""));
  std::vector<Literal> one{Literal::float64(1.0)};
  EXPECT_TRUE(evaluate_predicate(Operation::kIsNan, &nan, {}));
  EXPECT_FALSE(evaluate_predicate(Operation::kLt, &nan, one));
  EXPECT_FALSE(evaluate_predicate(Operation::kGt, &nan, one));
  EXPECT_TRUE(evaluate_predicate(Operation::kNotEq, &nan, one));
}

}  // namespace
}  // namespace floe
