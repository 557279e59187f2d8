// Expressions: binding with literal conversion, NOT rewriting, projections through every
// transform (Iceberg spec, Partition Transforms) and residuals. The WHERE syntax that builds
// filters is tests/sql/filter_test.cc.
#include <gtest/gtest.h>

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

// Unbound filters, as a WHERE clause's `column op literal` predicates (literals keep their SQL
// type: binding converts them to the column's type).
ExprPtr pred(std::string column, Operation op, std::vector<Literal> literals = {}) {
  return make_predicate(op, std::move(column), std::move(literals));
}
Literal str(std::string v) { return Literal::string(std::move(v)); }
Literal lng(int64_t v) { return Literal::int64(v); }

ExprPtr bound(const ExprPtr& filter) {
  auto bound = bind_expression(filter, schema(), false);
  EXPECT_TRUE(bound.ok()) << bound.status().to_string();
  return bound.ok() ? *bound : always_false();
}

std::string inclusive(const ExprPtr& filter, const PartitionSpec& spec) {
  auto p = project_inclusive(bound(filter), spec, schema());
  EXPECT_TRUE(p.ok()) << p.status().to_string();
  return p.ok() ? (*p)->to_string() : "";
}

std::string strict(const ExprPtr& filter, const PartitionSpec& spec) {
  auto p = project_strict(bound(filter), spec, schema());
  EXPECT_TRUE(p.ok()) << p.status().to_string();
  return p.ok() ? (*p)->to_string() : "";
}

PartitionSpec spec_of(int32_t source, Transform t, std::string name) {
  return PartitionSpec(0, {PartitionField{source, {}, 1000, std::move(name), t}});
}

TEST(BindTest, ConvertsLiteralsToColumnTypes) {
  EXPECT_EQ(bound(pred("event_ts", Operation::kGtEq, {str("2024-06-15")}))->literal().as_int64(),
            1718409600000000LL);
  EXPECT_EQ(bound(pred("event_ts", Operation::kLt, {str("2024-06-15T10:00:00+02:00")}))
                ->literal()
                .as_int64(),
            1718438400000000LL);
  EXPECT_EQ(
      bound(pred("amount", Operation::kEq, {Literal::decimal(105, 3, 1)}))->literal().as_decimal(),
      1050);
  EXPECT_EQ(bound(pred("amount", Operation::kEq, {str("12.30")}))->literal().as_decimal(), 1230);
  EXPECT_EQ(bound(pred("d", Operation::kEq, {str("2024-01-02")}))->literal().as_int32(), 19724);
  EXPECT_EQ(bound(pred("n", Operation::kEq, {lng(7)}))->literal().type()->id(), TypeId::kInt);
  EXPECT_EQ(bound(pred("score", Operation::kGt, {lng(1)}))->literal().as_double(), 1.0);
  // Names resolve case-insensitively and report the schema's name.
  EXPECT_EQ(bound(pred("COUNTRY", Operation::kEq, {str("DE")}))->term().name, "country");
  EXPECT_EQ(bound(pred("COUNTRY", Operation::kEq, {str("DE")}))->term().field_id, 2);
}

TEST(BindTest, DecidesWhatTheTypeAlreadyDecides) {
  // Out of int range.
  EXPECT_EQ(bound(pred("n", Operation::kLt, {lng(3000000000)}))->op(), Operation::kTrue);
  EXPECT_EQ(bound(pred("n", Operation::kGt, {lng(3000000000)}))->op(), Operation::kFalse);
  EXPECT_EQ(bound(pred("n", Operation::kEq, {lng(3000000000)}))->op(), Operation::kFalse);
  EXPECT_EQ(bound(pred("n", Operation::kNotEq, {lng(-3000000000)}))->op(), Operation::kTrue);
  EXPECT_EQ(bound(pred("n", Operation::kIn, {lng(3000000000), lng(4)}))->to_string(), "n = 4");
  EXPECT_EQ(bound(pred("n", Operation::kNotIn, {lng(3000000000)}))->op(), Operation::kTrue);
  // Required columns are never null.
  EXPECT_EQ(bound(pred("id", Operation::kIsNull))->op(), Operation::kFalse);
  EXPECT_EQ(bound(make_and(pred("id", Operation::kNotNull), pred("n", Operation::kEq, {lng(1)})))
                ->to_string(),
            "n = 1");
  EXPECT_EQ(bound(pred("n", Operation::kIn, {lng(1), lng(1), lng(2)}))->literals().size(), 2u);
}

TEST(BindTest, ErrorsNameTheColumn) {
  auto e = bind_expression(pred("missing", Operation::kEq, {lng(1)}), schema());
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("'missing'"), std::string::npos);
  e = bind_expression(pred("d", Operation::kEq, {str("yesterday")}), schema());
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("'d'"), std::string::npos);
  EXPECT_NE(e.status().message().find("yesterday"), std::string::npos);
  e = bind_expression(pred("n", Operation::kIsNan), schema());
  ASSERT_FALSE(e.ok());
  e = bind_expression(pred("n", Operation::kStartsWith, {str("a")}), schema());
  ASSERT_FALSE(e.ok());
  e = bind_expression(pred("amount", Operation::kEq, {Literal::decimal(1234, 4, 3)}), schema());
  ASSERT_FALSE(e.ok());
  e = bind_expression(pred("COUNTRY", Operation::kEq, {str("DE")}), schema(),
                      /*case_sensitive=*/true);
  ASSERT_FALSE(e.ok());
}

TEST(RewriteNotTest, PushesNotToThePredicates) {
  auto e = rewrite_not(bound(make_not(make_and(
      pred("n", Operation::kLt, {lng(5)}),
      make_or(pred("country", Operation::kEq, {str("DE")}), pred("name", Operation::kIsNull))))));
  EXPECT_EQ(e->to_string(), "(n >= 5 OR (country != 'DE' AND name IS NOT NULL))");
  e = rewrite_not(bound(make_and(pred("n", Operation::kIn, {lng(1), lng(2)}),
                                 make_not(pred("name", Operation::kStartsWith, {str("ab")})))));
  EXPECT_EQ(e->to_string(), "(n IN (1, 2) AND name NOT LIKE 'ab%')");
}

TEST(ProjectionTest, IdentityCarriesEveryPredicate) {
  PartitionSpec s = spec_of(2, Transform::identity(), "country");
  EXPECT_EQ(inclusive(make_and(pred("country", Operation::kEq, {str("DE")}),
                               pred("n", Operation::kEq, {lng(1)})),
                      s),
            "country = 'DE'");
  EXPECT_EQ(strict(make_and(pred("country", Operation::kEq, {str("DE")}),
                            pred("n", Operation::kEq, {lng(1)})),
                   s),
            "false");
  EXPECT_EQ(strict(pred("country", Operation::kNotEq, {str("DE")}), s), "country != 'DE'");
  EXPECT_EQ(inclusive(make_or(pred("country", Operation::kIsNull),
                              pred("country", Operation::kNotIn, {str("a"), str("b")})),
                      s),
            "(country IS NULL OR country NOT IN ('a', 'b'))");
}

TEST(ProjectionTest, BucketProjectsOnlyEqualityAndIn) {
  PartitionSpec s = spec_of(1, Transform::bucket(16), "id_bucket");
  EXPECT_EQ(inclusive(pred("id", Operation::kEq, {lng(34)}), s), "id_bucket = 3");
  EXPECT_EQ(inclusive(pred("id", Operation::kIn, {lng(34), lng(34)}), s), "id_bucket = 3");
  EXPECT_EQ(inclusive(pred("id", Operation::kLt, {lng(34)}), s), "true");
  EXPECT_EQ(inclusive(pred("id", Operation::kNotEq, {lng(34)}), s), "true");
  EXPECT_EQ(strict(pred("id", Operation::kNotEq, {lng(34)}), s), "id_bucket != 3");
  EXPECT_EQ(strict(pred("id", Operation::kEq, {lng(34)}), s), "false");
  EXPECT_EQ(inclusive(pred("id", Operation::kNotNull), s),
            "true");  // id is required: bound to true
}

TEST(ProjectionTest, TimeTransformsOnRanges) {
  PartitionSpec day = spec_of(3, Transform::day(), "event_ts_day");
  // ts > X -> ts_day >= day(X + 1us)
  EXPECT_EQ(
      inclusive(pred("event_ts", Operation::kGt, {str("2024-06-15T23:59:59.999999+00:00")}), day),
      "event_ts_day >= 2024-06-16");
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kGtEq, {str("2024-06-15")}), day),
            "event_ts_day >= 2024-06-15");
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kLt, {str("2024-06-15")}), day),
            "event_ts_day <= 2024-06-14");
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kLtEq, {str("2024-06-15")}), day),
            "event_ts_day <= 2024-06-15");
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kEq, {str("2024-06-15T10:00:00")}), day),
            "event_ts_day = 2024-06-15");
  EXPECT_EQ(strict(pred("event_ts", Operation::kLt, {str("2024-06-15")}), day),
            "event_ts_day < 2024-06-15");
  EXPECT_EQ(strict(pred("event_ts", Operation::kLtEq, {str("2024-06-15")}), day),
            "event_ts_day < 2024-06-15");
  EXPECT_EQ(strict(pred("event_ts", Operation::kGtEq, {str("2024-06-15")}), day),
            "event_ts_day > 2024-06-14");
  EXPECT_EQ(strict(pred("event_ts", Operation::kGtEq, {str("2024-06-15T00:00:01")}), day),
            "event_ts_day > 2024-06-15");
  EXPECT_EQ(strict(pred("event_ts", Operation::kEq, {str("2024-06-15")}), day), "false");
  PartitionSpec hour = spec_of(3, Transform::hour(), "event_ts_hour");
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kGtEq, {str("2026-06-20T00:30:00")}), hour),
            "event_ts_hour >= 494976");
  PartitionSpec month = spec_of(6, Transform::month(), "d_month");
  EXPECT_EQ(inclusive(pred("d", Operation::kLt, {str("2026-05-01")}), month), "d_month <= 675");
}

TEST(ProjectionTest, PreEpochCompensation) {
  // Java widens negative time ordinals (old writers rounded toward zero).
  PartitionSpec hour = spec_of(3, Transform::hour(), "h");
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kEq, {str("1969-12-31T23:30:00")}), hour),
            "h IN (-1, 0)");
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kLt, {str("1969-12-31T22:00:00")}), hour),
            "h <= -2");
  PartitionSpec day_of_date = spec_of(6, Transform::day(), "d_day");
  EXPECT_EQ(inclusive(pred("d", Operation::kEq, {str("1969-12-31")}), day_of_date),
            "d_day = 1969-12-31");
}

TEST(ProjectionTest, PreEpochCompensationEveryOperator) {
  // Iceberg spec, "Partition Transforms" (negative values): for a negative projected literal,
  // inclusive < and <= use lit+1, = becomes IN (lit, lit+1), IN adds lit+1; strict > and >= use
  // lit+1 when lit <= 0, != becomes NOT IN (lit, lit+1), NOT IN adds lit+1. Old writers rounded -1
  // us to hour 0, so a file of 23:xx on 1969-12-31 may sit in partition 0 or -1.
  PartitionSpec hour = spec_of(3, Transform::hour(), "h");
  // Inclusive.
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kLtEq, {str("1969-12-31T22:00:00")}), hour),
            "h <= -1");  // t = -2
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kLt, {str("1969-12-31T23:00:01")}), hour),
            "h <= 0");  // t(v-1) = -1
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kIn,
                           {str("1969-12-31T23:30:00"), str("1970-01-01T01:00:00")}),
                      hour),
            "h IN (-1, 1, 0)");
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kGtEq, {str("1969-12-31T22:00:00")}), hour),
            "h >= -2");  // unchanged
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kGt, {str("1969-12-31T21:59:59.999999")}), hour),
            "h >= -2");
  // Non-negative literals are left alone.
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kEq, {str("1970-01-01T00:30:00")}), hour),
            "h = 0");
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kLt, {str("1970-01-01T05:00:00")}), hour),
            "h <= 4");
  // Strict.
  EXPECT_EQ(strict(pred("event_ts", Operation::kGt, {str("1969-12-31T22:00:00")}), hour),
            "h > -1");  // t = -2
  EXPECT_EQ(strict(pred("event_ts", Operation::kGtEq, {str("1969-12-31T22:00:00")}), hour),
            "h > -2");  // t(v-1) = -3
  EXPECT_EQ(strict(pred("event_ts", Operation::kGt, {str("1970-01-01T00:30:00")}), hour),
            "h > 1");  // t = 0: <= 0
  EXPECT_EQ(strict(pred("event_ts", Operation::kGt, {str("1970-01-01T05:30:00")}), hour),
            "h > 5");  // positive: as is
  EXPECT_EQ(strict(pred("event_ts", Operation::kNotEq, {str("1969-12-31T23:00:00")}), hour),
            "h NOT IN (-1, 0)");
  EXPECT_EQ(strict(pred("event_ts", Operation::kNotIn,
                        {str("1969-12-31T22:00:00"), str("1970-01-01T03:00:00")}),
                   hour),
            "h NOT IN (-2, 3, -1)");
  EXPECT_EQ(strict(pred("event_ts", Operation::kLt, {str("1969-12-31T22:00:00")}), hour),
            "h < -2");  // unchanged
  EXPECT_EQ(strict(pred("event_ts", Operation::kLtEq, {str("1969-12-31T22:00:00")}), hour),
            "h < -2");  // t(v+1) = -2
  EXPECT_EQ(strict(pred("event_ts", Operation::kNotEq, {str("1970-01-01T03:00:00")}), hour),
            "h != 3");

  // day, month and year of a timestamp are compensated too...
  PartitionSpec day = spec_of(3, Transform::day(), "ts_day");
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kEq, {str("1969-12-31T10:00:00")}), day),
            "ts_day IN (1969-12-31, 1970-01-01)");
  EXPECT_EQ(strict(pred("event_ts", Operation::kGt, {str("1969-12-30T10:00:00")}), day),
            "ts_day > 1969-12-31");
  PartitionSpec month = spec_of(3, Transform::month(), "ts_month");
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kLt, {str("1969-11-01")}), month),
            "ts_month <= -2");  // t(v-1) = -3
  PartitionSpec year = spec_of(3, Transform::year(), "ts_year");
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kEq, {str("1968-06-01T00:00:00")}), year),
            "ts_year IN (-2, -1)");
  // ...and so are month and year of a date; only day of a date is exact (a date is a day).
  PartitionSpec d_month = spec_of(6, Transform::month(), "d_month");
  EXPECT_EQ(inclusive(pred("d", Operation::kEq, {str("1969-12-15")}), d_month),
            "d_month IN (-1, 0)");
  PartitionSpec d_day = spec_of(6, Transform::day(), "d_day");
  EXPECT_EQ(inclusive(pred("d", Operation::kLt, {str("1969-12-31")}), d_day),
            "d_day <= 1969-12-30");
  EXPECT_EQ(strict(pred("d", Operation::kGt, {str("1969-12-30")}), d_day), "d_day > 1969-12-30");
  EXPECT_EQ(strict(pred("d", Operation::kNotEq, {str("1969-12-30")}), d_day),
            "d_day != 1969-12-30");
}

TEST(ProjectionTest, TruncateIntegersDecimalsAndStrings) {
  PartitionSpec n = spec_of(7, Transform::truncate(10), "n_trunc");
  EXPECT_EQ(inclusive(pred("n", Operation::kLt, {lng(10)}), n), "n_trunc <= 0");
  EXPECT_EQ(inclusive(pred("n", Operation::kGt, {lng(9)}), n), "n_trunc >= 10");
  EXPECT_EQ(inclusive(pred("n", Operation::kEq, {lng(-1)}), n), "n_trunc = -10");
  EXPECT_EQ(strict(pred("n", Operation::kLt, {lng(10)}), n), "n_trunc < 10");
  EXPECT_EQ(strict(pred("n", Operation::kGt, {lng(9)}), n), "n_trunc > 0");
  EXPECT_EQ(strict(pred("n", Operation::kNotIn, {lng(1), lng(2), lng(15)}), n),
            "n_trunc NOT IN (0, 10)");
  PartitionSpec dec = spec_of(4, Transform::truncate(50), "amount_trunc");
  EXPECT_EQ(inclusive(pred("amount", Operation::kGtEq, {Literal::decimal(1065, 4, 2)}), dec),
            "amount_trunc >= 10.50");
  PartitionSpec s = spec_of(8, Transform::truncate(3), "name_trunc");
  EXPECT_EQ(inclusive(pred("name", Operation::kStartsWith, {str("ic")}), s),
            "name_trunc LIKE 'ic%'");
  EXPECT_EQ(inclusive(pred("name", Operation::kStartsWith, {str("ice")}), s), "name_trunc = 'ice'");
  EXPECT_EQ(inclusive(pred("name", Operation::kStartsWith, {str("iceberg")}), s),
            "name_trunc LIKE 'ice%'");
  EXPECT_EQ(strict(pred("name", Operation::kStartsWith, {str("iceberg")}), s), "false");
  EXPECT_EQ(strict(pred("name", Operation::kNotStartsWith, {str("iceberg")}), s),
            "name_trunc NOT LIKE 'ice%'");
  EXPECT_EQ(inclusive(pred("name", Operation::kNotStartsWith, {str("iceberg")}), s), "true");
  EXPECT_EQ(inclusive(pred("name", Operation::kLt, {str("iceberg")}), s), "name_trunc <= 'ice'");
  EXPECT_EQ(strict(pred("name", Operation::kLt, {str("iceberg")}), s), "name_trunc < 'ice'");
}

TEST(ProjectionTest, SeveralFieldsOnOneSource) {
  PartitionSpec s(0, {PartitionField{3, {}, 1000, "event_ts_day", Transform::day()},
                      PartitionField{3, {}, 1001, "event_ts_hour", Transform::hour()}});
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kGtEq, {str("2026-06-20")}), s),
            "(event_ts_day >= 2026-06-20 AND event_ts_hour >= 494976)");
  EXPECT_EQ(strict(pred("event_ts", Operation::kGtEq, {str("2026-06-20")}), s),
            "(event_ts_day > 2026-06-19 OR event_ts_hour > 494975)");
  PartitionSpec v(0, {PartitionField{3, {}, 1000, "event_ts_null", Transform::void_transform()}});
  EXPECT_EQ(inclusive(pred("event_ts", Operation::kGtEq, {str("2026-06-20")}), v), "true");
}

TEST(ResidualTest, PartitionValuesDecidePredicates) {
  PartitionSpec s(0, {PartitionField{3, {}, 1000, "event_ts_day", Transform::day()},
                      PartitionField{2, {}, 1001, "country", Transform::identity()}});
  auto r = ResidualEvaluator::make(
      bound(make_and(make_and(pred("event_ts", Operation::kGtEq, {str("2024-06-15T12:00:00")}),
                              pred("country", Operation::kEq, {str("DE")})),
                     pred("n", Operation::kGt, {lng(5)}))),
      s, schema());
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
