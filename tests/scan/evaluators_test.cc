// Manifest and metrics evaluators: every pruning rule of the Iceberg spec's "Scan Planning".
#include "floe/scan/evaluators.h"

#include <gtest/gtest.h>

#include <cmath>

#include "floe/expr/parser.h"
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

ExprPtr filter(const std::string& text) {
  auto parsed = parse_filter(text);
  EXPECT_TRUE(parsed.ok()) << parsed.status().to_string();
  auto bound = bind_expression(*parsed, schema());
  EXPECT_TRUE(bound.ok()) << bound.status().to_string();
  return *bound;
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

bool might(const std::string& text, const DataFile& f) {
  return InclusiveMetricsEvaluator(filter(text)).might_match(f);
}
bool must(const std::string& text, const DataFile& f) {
  return StrictMetricsEvaluator(filter(text)).must_match(f);
}

TEST(InclusiveMetricsTest, RangesAndEquality) {
  DataFile f = file_with();
  EXPECT_FALSE(might("id < 10", f));
  EXPECT_TRUE(might("id < 11", f));
  EXPECT_FALSE(might("id <= 9", f));
  EXPECT_TRUE(might("id <= 10", f));
  EXPECT_FALSE(might("id > 20", f));
  EXPECT_TRUE(might("id > 19", f));
  EXPECT_FALSE(might("id >= 21", f));
  EXPECT_FALSE(might("id = 5", f));
  EXPECT_TRUE(might("id = 15", f));
  EXPECT_FALSE(might("id IN (1, 2, 30)", f));
  EXPECT_TRUE(might("id IN (1, 12)", f));
  EXPECT_TRUE(might("id != 15", f));  // not single-valued
  EXPECT_FALSE(might("id = 5 AND country = 'DE'", f));
  EXPECT_TRUE(might("id = 5 OR country = 'DE'", f));
  EXPECT_FALSE(might("NOT (id >= 10)", f));
}

TEST(InclusiveMetricsTest, NullsAndNaNs) {
  DataFile f = file_with();
  EXPECT_FALSE(might("id IS NULL", f));  // null count 0
  EXPECT_TRUE(might("country IS NULL", f));
  EXPECT_TRUE(might("isnan(score)", f));
  DataFile no_nan = f;
  no_nan.nan_value_counts = {{4, 0}};
  EXPECT_FALSE(might("isnan(score)", no_nan));
  DataFile all_null = f;
  all_null.null_value_counts = {{1, 100}, {2, 5}, {4, 0}};
  EXPECT_FALSE(might("id IS NOT NULL", all_null));
  EXPECT_FALSE(might("id = 15", all_null));
  EXPECT_FALSE(might("id != 15", all_null));
  DataFile all_nan = f;
  all_nan.nan_value_counts = {{4, 100}};
  EXPECT_FALSE(might("NOT isnan(score)", all_nan));
  EXPECT_FALSE(might("score > 0", all_nan));
  EXPECT_TRUE(might("score != 1", all_nan));
}

TEST(InclusiveMetricsTest, MissingMetricsMightMatch) {
  DataFile bare;
  bare.record_count = 10;
  for (const char* f : {"id = 5", "id IS NULL", "isnan(score)", "country LIKE 'x%'", "id != 3"}) {
    EXPECT_TRUE(might(f, bare)) << f;
  }
  EXPECT_FALSE(might("id = 5", file_with(0)));  // empty file
  EXPECT_TRUE(might("id = 5", file_with(-1)));  // unknown count (imported Avro)
  // A NaN lower bound (ORC) cannot be used.
  DataFile nan_lower = file_with();
  nan_lower.lower_bounds[2].second = bytes(Literal::float64(std::nan("")));
  EXPECT_TRUE(might("score < 1", nan_lower));
}

TEST(InclusiveMetricsTest, SingleValueAndPrefixes) {
  DataFile f = file_with();
  f.lower_bounds[0].second = bytes(Literal::int64(7));
  f.upper_bounds[0].second = bytes(Literal::int64(7));
  EXPECT_FALSE(might("id != 7", f));
  EXPECT_FALSE(might("id NOT IN (7, 8)", f));
  EXPECT_TRUE(might("id != 8", f));
  EXPECT_TRUE(might("country LIKE 'D%'", f));
  EXPECT_TRUE(might("country LIKE 'E%'", f));
  EXPECT_FALSE(might("country LIKE 'G%'", f));
  EXPECT_FALSE(might("country LIKE 'A%'", f));
  DataFile same = f;
  same.lower_bounds[1].second = "DEU";
  same.upper_bounds[1].second = "DEX";
  same.null_value_counts = {{1, 0}, {2, 0}, {4, 0}};
  EXPECT_FALSE(might("country NOT LIKE 'DE%'", same));
  EXPECT_TRUE(might("country NOT LIKE 'DEU%'", same));
}

TEST(InclusiveMetricsTest, UuidBoundsAreNotTrustedForRanges) {
  DataFile f = file_with();
  auto lo = Uuid::parse("00000000-0000-0000-0000-000000000001");
  auto hi = Uuid::parse("00000000-0000-0000-0000-000000000002");
  f.lower_bounds.push_back({5, bytes(Literal::uuid(*lo))});
  f.upper_bounds.push_back({5, bytes(Literal::uuid(*hi))});
  EXPECT_TRUE(might("u = 'ffffffff-0000-0000-0000-000000000000'", f));
}

TEST(StrictMetricsTest, AllRowsMatch) {
  DataFile f = file_with();
  EXPECT_TRUE(must("id < 21", f));
  EXPECT_FALSE(must("id < 20", f));
  EXPECT_TRUE(must("id <= 20", f));
  EXPECT_TRUE(must("id > 9", f));
  EXPECT_TRUE(must("id >= 10", f));
  EXPECT_FALSE(must("id > 10", f));
  EXPECT_TRUE(must("id != 30", f));
  EXPECT_FALSE(must("id != 15", f));
  EXPECT_TRUE(must("id NOT IN (1, 30)", f));
  EXPECT_FALSE(must("country != 'XX'", f));  // has nulls
  EXPECT_TRUE(must("id IS NOT NULL", f));
  EXPECT_FALSE(must("country IS NOT NULL", f));
  EXPECT_FALSE(must("score < 10", f));  // NaN values do not satisfy <
  DataFile single = f;
  single.lower_bounds[0].second = bytes(Literal::int64(7));
  single.upper_bounds[0].second = bytes(Literal::int64(7));
  EXPECT_TRUE(must("id = 7", single));
  EXPECT_TRUE(must("id IN (7, 9)", single));
  EXPECT_TRUE(must("id = 7 OR country = 'ZZ'", single));
  EXPECT_FALSE(must("id = 7 AND country = 'ZZ'", single));
  DataFile bare;
  bare.record_count = 10;
  EXPECT_FALSE(must("id = 7", bare));
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
  auto eval = [&](const std::string& f) {
    auto e = ManifestEvaluator::make(filter(f), spec, schema());
    EXPECT_TRUE(e.ok()) << e.status().to_string();
    return e->might_match(m);
  };
  EXPECT_TRUE(eval("ts >= '2024-06-10T23:00:00'"));
  EXPECT_FALSE(eval("ts >= '2024-06-11'"));
  EXPECT_FALSE(eval("ts < '2024-06-01'"));
  EXPECT_TRUE(eval("ts < '2024-06-01T00:00:01'"));
  EXPECT_TRUE(eval("id = 34"));    // bucket 3
  EXPECT_FALSE(eval("id = 35"));   // another bucket
  EXPECT_TRUE(eval("id > 1000"));  // bucket cannot prune ranges
  EXPECT_TRUE(eval("country IS NULL"));
  EXPECT_FALSE(eval("country = 'AT'"));
  EXPECT_FALSE(eval("country IN ('AA', 'ZZ')"));
  EXPECT_TRUE(eval("country IN ('AA', 'EE')"));
  EXPECT_FALSE(eval("country LIKE 'G%'"));
  EXPECT_TRUE(eval("score > 1"));  // not a partition source
  // No summaries: might match.
  ManifestFile none;
  auto e = ManifestEvaluator::make(filter("id = 35"), spec, schema());
  EXPECT_TRUE(e->might_match(none));
}

TEST(ManifestEvaluatorTest, NullNaNAndSingleValueRules) {
  PartitionSpec spec(0, {PartitionField{4, {}, 1000, "score", Transform::identity()}});
  auto eval = [&](const std::string& f, const ManifestFile& m) {
    return ManifestEvaluator::make(filter(f), spec, schema())->might_match(m);
  };
  ManifestFile all_null = manifest({summary(true, false, std::nullopt, std::nullopt)});
  EXPECT_FALSE(eval("score IS NOT NULL", all_null));
  EXPECT_FALSE(eval("score = 1", all_null));
  EXPECT_FALSE(eval("isnan(score)", all_null));
  EXPECT_TRUE(eval("score IS NULL", all_null));
  ManifestFile nan_unknown = manifest({summary(true, std::nullopt, std::nullopt, std::nullopt)});
  EXPECT_TRUE(eval("score IS NOT NULL", nan_unknown));  // could be NaN
  EXPECT_TRUE(eval("isnan(score)", nan_unknown));
  ManifestFile all_nan = manifest({summary(false, true, std::nullopt, std::nullopt)});
  EXPECT_FALSE(eval("NOT isnan(score)", all_nan));
  ManifestFile no_nulls =
      manifest({summary(false, false, Literal::float64(1), Literal::float64(2))});
  EXPECT_FALSE(eval("score IS NULL", no_nulls));
  EXPECT_FALSE(eval("isnan(score)", no_nulls));
  ManifestFile single = manifest({summary(false, false, Literal::float64(1), Literal::float64(1))});
  EXPECT_FALSE(eval("score != 1", single));
  EXPECT_TRUE(eval("score != 2", single));
  ManifestFile single_nan_unknown =
      manifest({summary(false, std::nullopt, Literal::float64(1), Literal::float64(1))});
  EXPECT_TRUE(eval("score != 1", single_nan_unknown));
}

}  // namespace
}  // namespace floe
