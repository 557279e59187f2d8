// Manifest and metrics evaluators: every pruning rule of the Iceberg spec's "Scan Planning".
#include "floe/scan/evaluators.h"

#include <gtest/gtest.h>

#include <cmath>

#include "floe/util/date_time_text.h"

namespace floe {
namespace {

NestedField field(int32_t id, std::string name, TypePtr type, bool required = false) {
  return NestedField{id, std::move(name), std::move(type), required,
                     "", std::nullopt,    std::nullopt};
}

const Schema& schema() {
  static const Schema s(0, {field(1, "id", Type::int64()), field(2, "country", Type::string()),
                            field(3, "ts", Type::timestamp()), field(4, "score", Type::float64()),
                            field(5, "u", Type::uuid())});
  return s;
}

// Unbound filters, as a WHERE clause's `column op literal` predicates (literals keep their SQL
// type: binding converts them to the column's type).
ExprPtr pred(std::string column, Operation op, std::vector<Literal> literals = {}) {
  return make_predicate(op, std::move(column), std::move(literals));
}
Literal str(std::string v) { return Literal::string(std::move(v)); }
Literal lng(int64_t v) { return Literal::int64(v); }

ExprPtr filter(const ExprPtr& unbound) {
  auto bound = bind_expression(unbound, schema());
  EXPECT_TRUE(bound.ok()) << bound.status().to_string();
  return bound.ok() ? *bound : always_false();
}

std::string bytes(const Literal& v) { return *v.to_bytes(); }

// ---- files --------------------------------------------------------------------------------

DataFile file_with(int64_t records = 100) {
  DataFile f;
  f.record_count = records;
  // id in [10, 20], no nulls; country in ["DE", "FR"] with 5 nulls; score [1.5, 2.5], 3 NaNs.
  f.value_counts = {{1, 100}, {2, 100}, {4, 100}};
  f.null_value_counts = {{1, 0}, {2, 5}, {4, 0}};
  f.nan_value_counts = {{4, 3}};
  f.lower_bounds = {{1, bytes(Literal::int64(10))}, {2, "DE"}, {4, bytes(Literal::float64(1.5))}};
  f.upper_bounds = {{1, bytes(Literal::int64(20))}, {2, "FR"}, {4, bytes(Literal::float64(2.5))}};
  return f;
}

bool might(const ExprPtr& text, const DataFile& f) {
  return InclusiveMetricsEvaluator(filter(text)).might_match(f);
}
bool must(const ExprPtr& text, const DataFile& f) {
  return StrictMetricsEvaluator(filter(text)).must_match(f);
}

TEST(InclusiveMetricsTest, RangesAndEquality) {
  DataFile f = file_with();
  EXPECT_FALSE(might(pred("id", Operation::kLt, {lng(10)}), f));
  EXPECT_TRUE(might(pred("id", Operation::kLt, {lng(11)}), f));
  EXPECT_FALSE(might(pred("id", Operation::kLtEq, {lng(9)}), f));
  EXPECT_TRUE(might(pred("id", Operation::kLtEq, {lng(10)}), f));
  EXPECT_FALSE(might(pred("id", Operation::kGt, {lng(20)}), f));
  EXPECT_TRUE(might(pred("id", Operation::kGt, {lng(19)}), f));
  EXPECT_FALSE(might(pred("id", Operation::kGtEq, {lng(21)}), f));
  EXPECT_FALSE(might(pred("id", Operation::kEq, {lng(5)}), f));
  EXPECT_TRUE(might(pred("id", Operation::kEq, {lng(15)}), f));
  EXPECT_FALSE(might(pred("id", Operation::kIn, {lng(1), lng(2), lng(30)}), f));
  EXPECT_TRUE(might(pred("id", Operation::kIn, {lng(1), lng(12)}), f));
  EXPECT_TRUE(might(pred("id", Operation::kNotEq, {lng(15)}), f));  // not single-valued
  EXPECT_FALSE(might(
      make_and(pred("id", Operation::kEq, {lng(5)}), pred("country", Operation::kEq, {str("DE")})),
      f));
  EXPECT_TRUE(might(
      make_or(pred("id", Operation::kEq, {lng(5)}), pred("country", Operation::kEq, {str("DE")})),
      f));
  EXPECT_FALSE(might(make_not(pred("id", Operation::kGtEq, {lng(10)})), f));
}

TEST(InclusiveMetricsTest, NullsAndNaNs) {
  DataFile f = file_with();
  EXPECT_FALSE(might(pred("id", Operation::kIsNull), f));  // null count 0
  EXPECT_TRUE(might(pred("country", Operation::kIsNull), f));
  EXPECT_TRUE(might(pred("score", Operation::kIsNan), f));
  DataFile no_nan = f;
  no_nan.nan_value_counts = {{4, 0}};
  EXPECT_FALSE(might(pred("score", Operation::kIsNan), no_nan));
  DataFile all_null = f;
  all_null.null_value_counts = {{1, 100}, {2, 5}, {4, 0}};
  EXPECT_FALSE(might(pred("id", Operation::kNotNull), all_null));
  EXPECT_FALSE(might(pred("id", Operation::kEq, {lng(15)}), all_null));
  EXPECT_FALSE(might(pred("id", Operation::kNotEq, {lng(15)}), all_null));
  DataFile all_nan = f;
  all_nan.nan_value_counts = {{4, 100}};
  EXPECT_FALSE(might(make_not(pred("score", Operation::kIsNan)), all_nan));
  EXPECT_FALSE(might(pred("score", Operation::kGt, {lng(0)}), all_nan));
  EXPECT_TRUE(might(pred("score", Operation::kNotEq, {lng(1)}), all_nan));
}

TEST(InclusiveMetricsTest, MissingMetricsMightMatch) {
  DataFile bare;
  bare.record_count = 10;
  for (const ExprPtr& f :
       {pred("id", Operation::kEq, {lng(5)}), pred("id", Operation::kIsNull),
        pred("score", Operation::kIsNan), pred("country", Operation::kStartsWith, {str("x")}),
        pred("id", Operation::kNotEq, {lng(3)})}) {
    EXPECT_TRUE(might(f, bare)) << f->to_string();
  }
  EXPECT_FALSE(might(pred("id", Operation::kEq, {lng(5)}), file_with(0)));  // empty file
  EXPECT_TRUE(
      might(pred("id", Operation::kEq, {lng(5)}), file_with(-1)));  // unknown count (imported Avro)
  // A NaN lower bound (ORC) cannot be used.
  DataFile nan_lower = file_with();
  nan_lower.lower_bounds[2].second = bytes(Literal::float64(std::nan("")));
  EXPECT_TRUE(might(pred("score", Operation::kLt, {lng(1)}), nan_lower));
}

TEST(InclusiveMetricsTest, SingleValueAndPrefixes) {
  DataFile f = file_with();
  f.lower_bounds[0].second = bytes(Literal::int64(7));
  f.upper_bounds[0].second = bytes(Literal::int64(7));
  EXPECT_FALSE(might(pred("id", Operation::kNotEq, {lng(7)}), f));
  EXPECT_FALSE(might(pred("id", Operation::kNotIn, {lng(7), lng(8)}), f));
  EXPECT_TRUE(might(pred("id", Operation::kNotEq, {lng(8)}), f));
  EXPECT_TRUE(might(pred("country", Operation::kStartsWith, {str("D")}), f));
  EXPECT_TRUE(might(pred("country", Operation::kStartsWith, {str("E")}), f));
  EXPECT_FALSE(might(pred("country", Operation::kStartsWith, {str("G")}), f));
  EXPECT_FALSE(might(pred("country", Operation::kStartsWith, {str("A")}), f));
  DataFile same = f;
  same.lower_bounds[1].second = "DEU";
  same.upper_bounds[1].second = "DEX";
  same.null_value_counts = {{1, 0}, {2, 0}, {4, 0}};
  EXPECT_FALSE(might(pred("country", Operation::kNotStartsWith, {str("DE")}), same));
  EXPECT_TRUE(might(pred("country", Operation::kNotStartsWith, {str("DEU")}), same));
}

TEST(InclusiveMetricsTest, UuidBoundsAreNotTrustedForRanges) {
  DataFile f = file_with();
  auto lo = Uuid::parse("00000000-0000-0000-0000-000000000001");
  auto hi = Uuid::parse("00000000-0000-0000-0000-000000000002");
  f.lower_bounds.push_back({5, bytes(Literal::uuid(*lo))});
  f.upper_bounds.push_back({5, bytes(Literal::uuid(*hi))});
  EXPECT_TRUE(might(pred("u", Operation::kEq, {str("ffffffff-0000-0000-0000-000000000000")}), f));
}

TEST(StrictMetricsTest, AllRowsMatch) {
  DataFile f = file_with();
  EXPECT_TRUE(must(pred("id", Operation::kLt, {lng(21)}), f));
  EXPECT_FALSE(must(pred("id", Operation::kLt, {lng(20)}), f));
  EXPECT_TRUE(must(pred("id", Operation::kLtEq, {lng(20)}), f));
  EXPECT_TRUE(must(pred("id", Operation::kGt, {lng(9)}), f));
  EXPECT_TRUE(must(pred("id", Operation::kGtEq, {lng(10)}), f));
  EXPECT_FALSE(must(pred("id", Operation::kGt, {lng(10)}), f));
  EXPECT_TRUE(must(pred("id", Operation::kNotEq, {lng(30)}), f));
  EXPECT_FALSE(must(pred("id", Operation::kNotEq, {lng(15)}), f));
  EXPECT_TRUE(must(pred("id", Operation::kNotIn, {lng(1), lng(30)}), f));
  EXPECT_FALSE(must(pred("country", Operation::kNotEq, {str("XX")}), f));  // has nulls
  EXPECT_TRUE(must(pred("id", Operation::kNotNull), f));
  EXPECT_FALSE(must(pred("country", Operation::kNotNull), f));
  EXPECT_FALSE(must(pred("score", Operation::kLt, {lng(10)}), f));  // NaN values do not satisfy <
  DataFile single = f;
  single.lower_bounds[0].second = bytes(Literal::int64(7));
  single.upper_bounds[0].second = bytes(Literal::int64(7));
  EXPECT_TRUE(must(pred("id", Operation::kEq, {lng(7)}), single));
  EXPECT_TRUE(must(pred("id", Operation::kIn, {lng(7), lng(9)}), single));
  EXPECT_TRUE(must(
      make_or(pred("id", Operation::kEq, {lng(7)}), pred("country", Operation::kEq, {str("ZZ")})),
      single));
  EXPECT_FALSE(must(
      make_and(pred("id", Operation::kEq, {lng(7)}), pred("country", Operation::kEq, {str("ZZ")})),
      single));
  DataFile bare;
  bare.record_count = 10;
  EXPECT_FALSE(must(pred("id", Operation::kEq, {lng(7)}), bare));
}

// ---- manifests ----------------------------------------------------------------------------

PartitionFieldSummary summary(bool nulls, std::optional<bool> nans, std::optional<Literal> lo,
                              std::optional<Literal> hi) {
  PartitionFieldSummary s;
  s.contains_null = nulls;
  s.contains_nan = nans;
  if (lo) s.lower_bound = bytes(*lo);
  if (hi) s.upper_bound = bytes(*hi);
  return s;
}

ManifestFile manifest(std::vector<PartitionFieldSummary> s) {
  ManifestFile m;
  m.partitions = std::move(s);
  return m;
}

TEST(ManifestEvaluatorTest, PrunesOnProjectedSummaries) {
  PartitionSpec spec(0, {PartitionField{3, {}, 1000, "ts_day", Transform::day()},
                         PartitionField{1, {}, 1001, "id_bucket", Transform::bucket(16)},
                         PartitionField{2, {}, 1002, "country", Transform::identity()}});
  int32_t d1 = *parse_date("2024-06-01"), d10 = *parse_date("2024-06-10");
  ManifestFile m =
      manifest({summary(false, std::nullopt, Literal::date(d1), Literal::date(d10)),
                summary(false, std::nullopt, Literal::int32(3), Literal::int32(3)),
                summary(true, std::nullopt, Literal::string("DE"), Literal::string("FR"))});
  auto eval = [&](const ExprPtr& f) {
    auto e = ManifestEvaluator::make(filter(f), spec, schema());
    EXPECT_TRUE(e.ok()) << e.status().to_string();
    return e->might_match(m);
  };
  EXPECT_TRUE(eval(pred("ts", Operation::kGtEq, {str("2024-06-10T23:00:00")})));
  EXPECT_FALSE(eval(pred("ts", Operation::kGtEq, {str("2024-06-11")})));
  EXPECT_FALSE(eval(pred("ts", Operation::kLt, {str("2024-06-01")})));
  EXPECT_TRUE(eval(pred("ts", Operation::kLt, {str("2024-06-01T00:00:01")})));
  EXPECT_TRUE(eval(pred("id", Operation::kEq, {lng(34)})));    // bucket 3
  EXPECT_FALSE(eval(pred("id", Operation::kEq, {lng(35)})));   // another bucket
  EXPECT_TRUE(eval(pred("id", Operation::kGt, {lng(1000)})));  // bucket cannot prune ranges
  EXPECT_TRUE(eval(pred("country", Operation::kIsNull)));
  EXPECT_FALSE(eval(pred("country", Operation::kEq, {str("AT")})));
  EXPECT_FALSE(eval(pred("country", Operation::kIn, {str("AA"), str("ZZ")})));
  EXPECT_TRUE(eval(pred("country", Operation::kIn, {str("AA"), str("EE")})));
  EXPECT_FALSE(eval(pred("country", Operation::kStartsWith, {str("G")})));
  EXPECT_TRUE(eval(pred("score", Operation::kGt, {lng(1)})));  // not a partition source
  // No summaries: might match.
  ManifestFile none;
  auto e = ManifestEvaluator::make(filter(pred("id", Operation::kEq, {lng(35)})), spec, schema());
  EXPECT_TRUE(e->might_match(none));
}

TEST(ManifestEvaluatorTest, NullNaNAndSingleValueRules) {
  PartitionSpec spec(0, {PartitionField{4, {}, 1000, "score", Transform::identity()}});
  auto eval = [&](const ExprPtr& f, const ManifestFile& m) {
    return ManifestEvaluator::make(filter(f), spec, schema())->might_match(m);
  };
  ManifestFile all_null = manifest({summary(true, false, std::nullopt, std::nullopt)});
  EXPECT_FALSE(eval(pred("score", Operation::kNotNull), all_null));
  EXPECT_FALSE(eval(pred("score", Operation::kEq, {lng(1)}), all_null));
  EXPECT_FALSE(eval(pred("score", Operation::kIsNan), all_null));
  EXPECT_TRUE(eval(pred("score", Operation::kIsNull), all_null));
  ManifestFile nan_unknown = manifest({summary(true, std::nullopt, std::nullopt, std::nullopt)});
  EXPECT_TRUE(eval(pred("score", Operation::kNotNull), nan_unknown));  // could be NaN
  EXPECT_TRUE(eval(pred("score", Operation::kIsNan), nan_unknown));
  ManifestFile all_nan = manifest({summary(false, true, std::nullopt, std::nullopt)});
  EXPECT_FALSE(eval(make_not(pred("score", Operation::kIsNan)), all_nan));
  ManifestFile no_nulls =
      manifest({summary(false, false, Literal::float64(1), Literal::float64(2))});
  EXPECT_FALSE(eval(pred("score", Operation::kIsNull), no_nulls));
  EXPECT_FALSE(eval(pred("score", Operation::kIsNan), no_nulls));
  ManifestFile single = manifest({summary(false, false, Literal::float64(1), Literal::float64(1))});
  EXPECT_FALSE(eval(pred("score", Operation::kNotEq, {lng(1)}), single));
  EXPECT_TRUE(eval(pred("score", Operation::kNotEq, {lng(2)}), single));
  ManifestFile single_nan_unknown =
      manifest({summary(false, std::nullopt, Literal::float64(1), Literal::float64(1))});
  EXPECT_TRUE(eval(pred("score", Operation::kNotEq, {lng(1)}), single_nan_unknown));
}

}  // namespace
}  // namespace floe
