// HashAggregator: result types, names, nulls / NaN / empty input, DISTINCT aggregates, and 100k
// groups against a std::map reference.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <set>

#include "sql/exec/aggregate_internal.h"
#include "sql/relational_test_util.h"

namespace floe::sql {
namespace {

using namespace floe::sql::relational_testing;
using K = AggregateKind;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

ColumnBatch run(const std::vector<ColumnBatch>& batches, std::vector<int> keys,
                std::vector<AggregateSpec> aggs) {
  auto agg = HashAggregator::make(batches.at(0).fields, std::move(keys), std::move(aggs));
  EXPECT_TRUE(agg.ok()) << agg.status().to_string();
  for (const auto& b : batches) {
    Status s = (*agg)->consume(b);
    EXPECT_TRUE(s.ok()) << s.to_string();
  }
  auto out = (*agg)->finish();
  EXPECT_TRUE(out.ok()) << out.status().to_string();
  return std::move(*out);
}

TEST(RelationalAggregate, ResultTypesLikeSpark) {
  auto t = [](K k, TypePtr arg) { return (*aggregate_result_type(k, arg))->to_string(); };
  EXPECT_EQ(t(K::kCountStar, nullptr), "long");
  EXPECT_EQ(t(K::kCount, Type::string()), "long");
  EXPECT_EQ(t(K::kSum, Type::int32()), "long");
  EXPECT_EQ(t(K::kSum, Type::int64()), "long");
  EXPECT_EQ(t(K::kSum, Type::float32()), "double");
  EXPECT_EQ(t(K::kSum, Type::decimal(9, 2)), "decimal(19, 2)");
  EXPECT_EQ(t(K::kSum, Type::decimal(30, 2)), "decimal(38, 2)");
  EXPECT_EQ(t(K::kAvg, Type::int32()), "double");
  EXPECT_EQ(t(K::kAvg, Type::float64()), "double");
  EXPECT_EQ(t(K::kAvg, Type::decimal(9, 2)), "decimal(13, 6)");
  EXPECT_EQ(t(K::kAvg, Type::decimal(38, 36)), "decimal(38, 38)");
  EXPECT_EQ(t(K::kMin, Type::string()), "string");
  EXPECT_EQ(t(K::kMax, Type::timestamptz()), "timestamptz");
  EXPECT_EQ(t(K::kBoolAnd, Type::boolean()), "boolean");
  EXPECT_FALSE(aggregate_result_type(K::kSum, Type::string()).ok());
  EXPECT_FALSE(aggregate_result_type(K::kAvg, Type::date()).ok());
  EXPECT_FALSE(aggregate_result_type(K::kBoolOr, Type::int32()).ok());
}

TEST(RelationalAggregate, Names) {
  EXPECT_EQ(*aggregate_kind_from_name("COUNT", true), K::kCount);
  EXPECT_EQ(*aggregate_kind_from_name("Sum", false), K::kSum);
  EXPECT_EQ(*aggregate_kind_from_name("mean", false), K::kAvg);
  EXPECT_EQ(*aggregate_kind_from_name("any_value", false), K::kFirst);
  EXPECT_EQ(*aggregate_kind_from_name("first", false), K::kFirst);
  EXPECT_EQ(*aggregate_kind_from_name("every", false), K::kBoolAnd);
  EXPECT_EQ(*aggregate_kind_from_name("some", false), K::kBoolOr);
  EXPECT_EQ(*aggregate_kind_from_name("any", false), K::kBoolOr);
  EXPECT_TRUE(is_aggregate_function("MAX"));
  EXPECT_FALSE(is_aggregate_function("upper"));
  EXPECT_FALSE(aggregate_kind_from_name("coalesce", false).ok());
}

TEST(RelationalAggregate, EmptyInputGlobalAndGrouped) {
  auto fields =
      std::vector<NestedField>{field(1, "k", Type::int64()), field(2, "v", Type::int64())};
  auto empty = batch_of(fields, {longs({}), longs({})});
  std::vector<AggregateSpec> aggs = {{K::kCountStar},      {K::kCount, 1}, {K::kSum, 1},
                                     {K::kMin, 1},         {K::kMax, 1},   {K::kAvg, 1},
                                     {K::kCount, 1, true}, {K::kFirst, 1}};
  auto g = run({empty}, {}, aggs);
  ASSERT_EQ(g.num_rows, 1);
  EXPECT_EQ(row_text(g, 0), "[0,0,null,null,null,null,0,null]");
  EXPECT_EQ(g.fields[0].name, "count(1)");
  EXPECT_EQ(g.fields[2].name, "sum(v)");
  EXPECT_EQ(g.fields[6].name, "count(DISTINCT v)");
  EXPECT_EQ(g.fields[5].type->to_string(), "double");
  auto grouped = run({empty}, {0}, aggs);
  EXPECT_EQ(grouped.num_rows, 0);
  EXPECT_EQ(grouped.columns.size(), 9u);
  // No batch at all.
  auto agg = *HashAggregator::make(fields, {}, {{K::kCountStar}});
  EXPECT_EQ(row_text(*agg->finish(), 0), "[0]");
}

TEST(RelationalAggregate, NullsNaNAndDistinct) {
  auto fields =
      std::vector<NestedField>{field(1, "k", Type::string()), field(2, "v", Type::int64()),
                               field(3, "d", Type::float64()), field(4, "b", Type::boolean())};
  auto bools = column(Type::boolean(), {Literal::boolean(true), Literal::boolean(false),
                                        Literal::null(Type::boolean()), Literal::boolean(true),
                                        Literal::null(Type::boolean()), Literal::boolean(true),
                                        Literal::boolean(true)});
  auto b =
      batch_of(fields, {strings({"a", "a", "a", std::nullopt, "b", std::nullopt, "a"}),
                        longs({1, 1, std::nullopt, 5, std::nullopt, 7, 3}),
                        doubles({1.5, kNaN, std::nullopt, -0.0, std::nullopt, 0.0, 2.0}), bools});
  std::vector<AggregateSpec> aggs = {{K::kCountStar},    {K::kCount, 1},     {K::kCount, 1, true},
                                     {K::kSum, 1},       {K::kSum, 1, true}, {K::kAvg, 1},
                                     {K::kAvg, 1, true}, {K::kMin, 2},       {K::kMax, 2},
                                     {K::kSum, 2},       {K::kBoolAnd, 3},   {K::kBoolOr, 3},
                                     {K::kFirst, 2},     {K::kMin, 0},       {K::kCount, 2, true}};
  // Split across two batches to check state carries over.
  auto out = run({slice_batch(b, 0, 3), slice_batch(b, 3, 4)}, {0}, aggs);
  ASSERT_EQ(out.num_rows, 3);
  EXPECT_EQ(row_text(out, 0),
            "[\"a\",4,3,2,5,4,1.6666666666666667,2,1.5,\"NaN\",\"NaN\",false,true,1.5,\"a\",3]");
  EXPECT_EQ(row_text(out, 1), "[null,2,2,2,12,12,6,6,-0,-0,0,true,true,-0,null,1]");
  EXPECT_EQ(row_text(out, 2),
            "[\"b\",1,0,0,null,null,null,null,null,null,null,null,null,null,"
            "\"b\",0]");
  // Global: one row.
  auto g = run({b}, {}, {{K::kCountStar}, {K::kMax, 1}, {K::kCount, 2, true}, {K::kFirst, 0}});
  EXPECT_EQ(row_text(g, 0), "[7,7,4,\"a\"]");
}

TEST(RelationalAggregate, DecimalStringDateMinMaxAndAvg) {
  auto dec = Type::decimal(9, 2);
  auto fields = std::vector<NestedField>{field(1, "x", dec), field(2, "s", Type::string()),
                                         field(3, "dt", Type::date())};
  auto b =
      batch_of(fields, {column(dec, {Literal::decimal(100, 9, 2), Literal::decimal(-250, 9, 2),
                                     Literal::decimal(1, 9, 2), Literal::null(dec)}),
                        strings({"pear", "apple", std::nullopt, "zoo"}),
                        column(Type::date(), {Literal::date(5), Literal::date(-3),
                                              Literal::date(10), Literal::null(Type::date())})});
  auto out = run({b}, {},
                 {{K::kSum, 0},
                  {K::kAvg, 0},
                  {K::kMin, 0},
                  {K::kMax, 0},
                  {K::kMin, 1},
                  {K::kMax, 1},
                  {K::kMin, 2},
                  {K::kMax, 2},
                  {K::kFirst, 1}});
  EXPECT_EQ(out.fields[0].type->to_string(), "decimal(19, 2)");
  EXPECT_EQ(out.fields[1].type->to_string(), "decimal(13, 6)");
  // avg = -1.49 / 3 = -0.496666.. -> -0.496667 (half up)
  EXPECT_EQ(row_text(out, 0),
            "[\"-1.49\",\"-0.496667\",\"-2.50\",\"1.00\",\"apple\",\"zoo\","
            "\"1969-12-29\",\"1970-01-11\",\"pear\"]");
}

TEST(RelationalAggregate, CountDistinctSeveralColumnsAndErrors) {
  auto fields = std::vector<NestedField>{field(1, "k", Type::int64()), field(2, "a", Type::int64()),
                                         field(3, "b", Type::string())};
  auto b = batch_of(fields, {longs({1, 1, 1, 1, 2}), longs({1, 1, 2, std::nullopt, 1}),
                             strings({"x", "x", "x", "y", std::nullopt})});
  AggregateSpec s{K::kCount, 1, true, {2}, "n"};
  auto out = run({b}, {0}, {s});
  EXPECT_EQ(rows_text(out), (std::vector<std::string>{"[1,2]", "[2,0]"}));
  EXPECT_EQ(out.fields[1].name, "n");
  EXPECT_FALSE(HashAggregator::make(fields, {7}, {}).ok());
  EXPECT_FALSE(HashAggregator::make(fields, {0}, {{K::kSum, 2}}).ok());
  EXPECT_FALSE(HashAggregator::make(fields, {0}, {{K::kSum, 9}}).ok());
}

TEST(RelationalAggregate, SumOverflowAndNestedKeys) {
  auto dec = Type::decimal(38, 0);
  int128_t big = 1;
  for (int i = 0; i < 37; ++i) big *= 10;
  auto fields = std::vector<NestedField>{field(1, "x", dec)};
  std::vector<Literal> v(20, Literal::decimal(big * 9, 38, 0));
  auto out = run({batch_of(fields, {column(dec, v)})}, {}, {{K::kSum, 0}, {K::kAvg, 0}});
  EXPECT_EQ(row_text(out, 0), "[null,null]");  // Spark: overflow gives NULL (non-ANSI)

  auto lt = Type::list_of(10, Type::int32(), false);
  auto lf = std::vector<NestedField>{field(1, "l", lt), field(2, "v", Type::int64())};
  auto lists = column(lt, {Literal::list_value(lt, {Literal::int32(1), Literal::int32(2)}),
                           Literal::list_value(lt, {Literal::int32(1)}),
                           Literal::list_value(lt, {Literal::int32(1), Literal::int32(2)}),
                           Literal::null(lt), Literal::list_value(lt, {})});
  auto g = run({batch_of(lf, {lists, longs({1, 2, 3, 4, 5})})}, {0}, {{K::kSum, 1}, {K::kMax, 0}});
  EXPECT_EQ(rows_text(g), (std::vector<std::string>{"[[1,2],4,[1,2]]", "[[1],2,[1]]",
                                                    "[null,4,null]", "[[],5,[]]"}));
}

// 100k groups over several batches, against a std::map reference.
TEST(RelationalAggregate, ManyGroupsAgainstReference) {
  std::mt19937_64 rng(42);
  const int64_t n = 300000;
  const int64_t groups = 100000;
  auto fields =
      std::vector<NestedField>{field(1, "k", Type::int64()), field(2, "v", Type::int64()),
                               field(3, "d", Type::float64()), field(4, "s", Type::string())};
  auto k = random_longs(rng, n, 0, groups - 1, 0.001);
  auto v = random_longs(rng, n, -1000, 1000, 0.1);
  auto d = ColumnVector::make(Type::float64());
  auto s = ColumnVector::make(Type::string());
  for (int64_t i = 0; i < n; ++i) {
    if (rng() % 10 == 0) {
      d->append_null();
    } else {
      d->append_fixed<double>(static_cast<double>(static_cast<int64_t>(rng() % 2001) - 1000) / 4);
    }
    if (rng() % 10 == 0) {
      s->append_null();
    } else {
      s->append_bytes("s" + std::to_string(rng() % 1000));
    }
  }
  auto all = batch_of(fields, {k, v, d, s});
  std::vector<ColumnBatch> parts;
  for (int64_t off = 0; off < n; off += 65536) parts.push_back(slice_batch(all, off, 65536));
  auto out = run(parts, {0},
                 {{K::kCountStar},
                  {K::kCount, 1},
                  {K::kSum, 1},
                  {K::kMin, 1},
                  {K::kMax, 1},
                  {K::kAvg, 2},
                  {K::kCount, 1, true},
                  {K::kSum, 1, true},
                  {K::kMin, 3},
                  {K::kMax, 3},
                  {K::kFirst, 1}});

  struct Ref {
    int64_t rows = 0, count = 0, sum = 0, dcount = 0;
    double dsum = 0;
    std::optional<int64_t> min, max, first;
    bool first_set = false;
    std::set<int64_t> distinct;
    std::optional<std::string> smin, smax;
  };
  std::map<std::optional<int64_t>, Ref> ref;
  for (int64_t i = 0; i < n; ++i) {
    std::optional<int64_t> key;
    if (k->is_valid(i)) key = k->raw<int64_t>()[i];
    Ref& r = ref[key];
    ++r.rows;
    std::optional<int64_t> x;
    if (v->is_valid(i)) x = v->raw<int64_t>()[i];
    if (!r.first_set) {
      r.first = x;
      r.first_set = true;
    }
    if (x) {
      ++r.count;
      r.sum += *x;
      r.min = r.min ? std::min(*r.min, *x) : *x;
      r.max = r.max ? std::max(*r.max, *x) : *x;
      r.distinct.insert(*x);
    }
    if (d->is_valid(i)) {
      ++r.dcount;
      r.dsum += d->raw<double>()[i];
    }
    if (s->is_valid(i)) {
      std::string t(s->bytes_at(i));
      if (!r.smin || t < *r.smin) r.smin = t;
      if (!r.smax || t > *r.smax) r.smax = t;
    }
  }
  ASSERT_EQ(out.num_rows, static_cast<int64_t>(ref.size()));
  EXPECT_GT(out.num_rows, 90000);
  auto opt = [](const ColumnVector& c, int64_t i) -> std::optional<int64_t> {
    if (c.is_null(i)) return std::nullopt;
    return c.raw<int64_t>()[i];
  };
  std::set<std::optional<int64_t>> seen;
  for (int64_t g = 0; g < out.num_rows; ++g) {
    auto key = opt(*out.columns[0], g);
    ASSERT_TRUE(seen.insert(key).second);
    ASSERT_TRUE(ref.count(key));
    const Ref& r = ref[key];
    ASSERT_EQ(out.columns[1]->raw<int64_t>()[g], r.rows);
    ASSERT_EQ(out.columns[2]->raw<int64_t>()[g], r.count);
    ASSERT_EQ(opt(*out.columns[3], g), r.count ? std::optional<int64_t>(r.sum) : std::nullopt);
    ASSERT_EQ(opt(*out.columns[4], g), r.min);
    ASSERT_EQ(opt(*out.columns[5], g), r.max);
    if (r.dcount) {
      ASSERT_NEAR(out.columns[6]->raw<double>()[g], r.dsum / static_cast<double>(r.dcount), 1e-9);
    } else {
      ASSERT_TRUE(out.columns[6]->is_null(g));
    }
    ASSERT_EQ(out.columns[7]->raw<int64_t>()[g], static_cast<int64_t>(r.distinct.size()));
    int64_t dsum = 0;
    for (int64_t x : r.distinct) dsum += x;
    ASSERT_EQ(opt(*out.columns[8], g),
              r.distinct.empty() ? std::nullopt : std::optional<int64_t>(dsum));
    auto str = [&](int c) -> std::optional<std::string> {
      if (out.columns[static_cast<size_t>(c)]->is_null(g)) return std::nullopt;
      return std::string(out.columns[static_cast<size_t>(c)]->bytes_at(g));
    };
    ASSERT_EQ(str(9), r.smin);
    ASSERT_EQ(str(10), r.smax);
    ASSERT_EQ(opt(*out.columns[11], g), r.first);
  }
}

TEST(RelationalAggregate, FloatKeysNormalised) {
  auto fields = std::vector<NestedField>{field(1, "d", Type::float64())};
  auto b = batch_of(fields, {doubles({-0.0, 0.0, -kNaN, kNaN, -0.0})});
  auto out = run({b}, {0}, {{K::kCountStar}});
  EXPECT_EQ(rows_text(out), (std::vector<std::string>{"[0,3]", "[\"NaN\",2]"}));
  EXPECT_FALSE(std::signbit(out.columns[0]->raw<double>()[0]));
}

TEST(RelationalAggregate, SelectDistinctIsKeysOnly) {
  auto fields =
      std::vector<NestedField>{field(1, "a", Type::int64()), field(2, "d", Type::float64())};
  auto b = batch_of(fields, {longs({1, 1, std::nullopt, std::nullopt, 1, 1}),
                             doubles({0.0, -0.0, kNaN, kNaN, std::nullopt, std::nullopt})});
  auto out = *distinct_rows({b});
  EXPECT_EQ(rows_text(out), (std::vector<std::string>{"[1,0]", "[null,\"NaN\"]", "[1,null]"}));
}

}  // namespace
}  // namespace floe::sql
