// Differential test: GROUP BY aggregates and joins computed by floe's kernels and by DuckDB
// (npm @duckdb/node-api, tests/oracle) on the same random data, written as Parquet by floe.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "floe/format/parquet/writer.h"
#include "floe/io/file_io.h"
#include "floe/spec/schema.h"
#include "sql/exec/relational_internal.h"
#include "sql/relational_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

namespace fs = std::filesystem;
using namespace floe::sql::relational_testing;
using K = AggregateKind;
using test_support::run_command;
using test_support::TempDir;

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A value in one canonical spelling: numbers with 12 significant digits, strings as they are.
std::string canon_value(const nlohmann::json& v) {
  if (v.is_null()) return "null";
  if (v.is_number()) return fmt::format("{:.12g}", v.get<double>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_string()) return "'" + v.get<std::string>() + "'";
  return v.dump();
}

std::string canon_row(const std::string& json_array) {
  auto a = nlohmann::json::parse(json_array);
  std::string out;
  for (const auto& v : a) out += canon_value(v) + "|";
  return out;
}

std::vector<std::string> canon_rows(const ColumnBatch& b, const std::vector<int>& cols) {
  JsonOptions o;
  o.tz_suffix = false;
  o.rows_as_arrays = true;
  std::vector<std::string> out;
  for (int64_t r = 0; r < b.num_rows; ++r) {
    std::string row = "[";
    for (size_t k = 0; k < cols.size(); ++k) {
      if (k) row += ",";
      write_value_json(*b.columns[static_cast<size_t>(cols[k])], r, o, &row);
    }
    out.push_back(canon_row(row + "]"));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int> first_n(int n) {
  std::vector<int> v;
  for (int i = 0; i < n; ++i) v.push_back(i);
  return v;
}

class RelationalDuckDB : public ::testing::Test {
 protected:
  void SetUp() override {
    std::mt19937_64 rng(77);
    auto dec = Type::decimal(9, 2);
    lfields_ = {field(1, "k", Type::int32()), field(2, "g", Type::string()),
                field(3, "v", Type::int64()), field(4, "d", Type::float64()),
                field(5, "dec", dec),         field(6, "b", Type::boolean())};
    rfields_ = {field(11, "k", Type::int32()), field(12, "w", Type::int64())};
    const int64_t n = 20000, m = 3000;
    std::vector<Literal> k, g, v, d, de, b, rk, rw;
    auto maybe = [&](double rate) {
      return std::uniform_real_distribution<double>(0, 1)(rng) < rate;
    };
    for (int64_t i = 0; i < n; ++i) {
      k.push_back(maybe(0.02) ? Literal::null(Type::int32())
                              : Literal::int32(static_cast<int32_t>(rng() % 500)));
      g.push_back(maybe(0.05) ? Literal::null(Type::string())
                              : Literal::string("g" + std::to_string(rng() % 7)));
      v.push_back(maybe(0.1) ? Literal::null(Type::int64())
                             : Literal::int64(static_cast<int64_t>(rng() % 20001) - 10000));
      if (maybe(0.1)) {
        d.push_back(Literal::null(Type::float64()));
      } else if (maybe(0.002)) {
        d.push_back(Literal::float64(std::numeric_limits<double>::quiet_NaN()));
      } else {
        d.push_back(Literal::float64(static_cast<double>(rng() % 4001) / 4 - 500));
      }
      de.push_back(maybe(0.1)
                       ? Literal::null(dec)
                       : Literal::decimal(static_cast<int64_t>(rng() % 2000001) - 1000000, 9, 2));
      b.push_back(maybe(0.1) ? Literal::null(Type::boolean()) : Literal::boolean(rng() % 8 != 0));
    }
    for (int64_t i = 0; i < m; ++i) {
      rk.push_back(maybe(0.02) ? Literal::null(Type::int32())
                               : Literal::int32(static_cast<int32_t>(rng() % 700)));
      rw.push_back(maybe(0.1) ? Literal::null(Type::int64())
                              : Literal::int64(static_cast<int64_t>(rng() % 20001) - 10000));
    }
    left_ = batch_of(lfields_, {column(lfields_[0].type, k), column(lfields_[1].type, g),
                                column(lfields_[2].type, v), column(lfields_[3].type, d),
                                column(dec, de), column(Type::boolean(), b)});
    right_ = batch_of(rfields_, {column(rfields_[0].type, rk), column(rfields_[1].type, rw)});
    lpath_ = (dir_.path / "l.parquet").string();
    rpath_ = (dir_.path / "r.parquet").string();
    write(lpath_, lfields_, left_);
    write(rpath_, rfields_, right_);
  }

  void write(const std::string& path, const std::vector<NestedField>& fields,
             const ColumnBatch& b) {
    auto w = parquet::ParquetWriter::open(make_local_file_io(), path, Schema(0, fields));
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    ASSERT_TRUE((*w)->write(b).ok());
    ASSERT_TRUE((*w)->close().ok());
  }

  // Runs each query in DuckDB (L and R are views over the Parquet files); canonical sorted rows.
  std::vector<std::vector<std::string>> duckdb(const std::vector<std::string>& queries) {
    std::string cmd = "cd " + quote(std::string(FLOE_SOURCE_DIR) + "/tests/oracle") +
                      " && node parquet_duckdb.mjs --exec " +
                      quote("CREATE VIEW L AS SELECT * FROM read_parquet('" + lpath_ + "')") + " " +
                      quote("CREATE VIEW R AS SELECT * FROM read_parquet('" + rpath_ + "')");
    std::vector<std::string> outs;
    for (size_t i = 0; i < queries.size(); ++i) {
      outs.push_back((dir_.path / fmt::format("q{}.parquet", i)).string());
      cmd += " " + quote("COPY (" + queries[i] + ") TO '" + outs.back() + "' (FORMAT parquet)");
    }
    cmd += " 2>&1";
    int rc = 0;
    std::string out = run_command(cmd, &rc);
    EXPECT_EQ(rc, 0) << out.substr(0, 2000);
    std::string read = "cd " + quote(std::string(FLOE_SOURCE_DIR) + "/tests/oracle") +
                       " && node parquet_duckdb.mjs";
    for (const auto& o : outs) read += " " + quote(o);
    out = run_command(read + " 2>&1", &rc);
    EXPECT_EQ(rc, 0) << out.substr(0, 2000);
    EXPECT_EQ(out.find("##ERROR"), std::string::npos) << out.substr(0, 2000);
    std::vector<std::vector<std::string>> result;
    size_t pos = 0;
    while (pos < out.size()) {
      size_t nl = out.find('\n', pos);
      if (nl == std::string::npos) nl = out.size();
      std::string line = out.substr(pos, nl - pos);
      pos = nl + 1;
      if (line.rfind("##FILE", 0) == 0) {
        result.emplace_back();
      } else if (!line.empty() && line[0] == '[' && !result.empty()) {
        result.back().push_back(canon_row(line));
      }
    }
    for (auto& r : result) std::sort(r.begin(), r.end());
    EXPECT_EQ(result.size(), queries.size()) << out.substr(0, 2000);
    result.resize(queries.size());
    return result;
  }

  ColumnBatch aggregate(std::vector<int> keys, std::vector<AggregateSpec> aggs) {
    auto agg = HashAggregator::make(lfields_, std::move(keys), std::move(aggs));
    EXPECT_TRUE(agg.ok()) << agg.status().to_string();
    for (int64_t off = 0; off < left_.num_rows; off += 4096) {
      EXPECT_TRUE((*agg)->consume(slice_batch(left_, off, 4096)).ok());
    }
    return *(*agg)->finish();
  }

  ColumnBatch join(JoinType type, JoinResidual residual = nullptr) {
    JoinOptions o;
    o.type = type;
    o.left_keys = {0};
    o.right_keys = {0};
    o.residual = std::move(residual);
    auto j = *HashJoin::make(lfields_, rfields_, o);
    EXPECT_TRUE(j->add_build(slice_batch(right_, 0, 1000)).ok());
    EXPECT_TRUE(j->add_build(slice_batch(right_, 1000, 5000)).ok());
    std::vector<ColumnBatch> parts;
    for (int64_t off = 0; off < left_.num_rows; off += 4096) {
      parts.push_back(*j->probe(slice_batch(left_, off, 4096)));
    }
    auto tail = *j->finish();
    if (tail) parts.push_back(*tail);
    return *concat_batches(parts, j->output_fields());
  }

  TempDir dir_;
  std::vector<NestedField> lfields_, rfields_;
  ColumnBatch left_, right_;
  std::string lpath_, rpath_;
};

TEST_F(RelationalDuckDB, GroupByAggregates) {
  auto q = duckdb({
      "SELECT k, count(*), count(v), CAST(sum(v) AS BIGINT), min(v), max(v), avg(d), "
      "count(DISTINCT v), min(g), max(g), sum(dec), min(d), max(d), avg(v), "
      "bool_and(b), bool_or(b), CAST(sum(DISTINCT v) AS BIGINT), count(DISTINCT g) "
      "FROM L GROUP BY k",
      "SELECT k, g, count(*), CAST(sum(v) AS BIGINT), sum(d) FROM L GROUP BY k, g",
      "SELECT count(*), CAST(sum(v) AS BIGINT), avg(v), count(DISTINCT g), min(dec), max(g) "
      "FROM L",
      "SELECT count(*), CAST(sum(v) AS BIGINT), avg(v), min(g) FROM L WHERE k = -1",
      "SELECT DISTINCT g, b FROM L",
  });
  auto a1 = aggregate({0}, {{K::kCountStar},
                            {K::kCount, 2},
                            {K::kSum, 2},
                            {K::kMin, 2},
                            {K::kMax, 2},
                            {K::kAvg, 3},
                            {K::kCount, 2, true},
                            {K::kMin, 1},
                            {K::kMax, 1},
                            {K::kSum, 4},
                            {K::kMin, 3},
                            {K::kMax, 3},
                            {K::kAvg, 2},
                            {K::kBoolAnd, 5},
                            {K::kBoolOr, 5},
                            {K::kSum, 2, true},
                            {K::kCount, 1, true}});
  EXPECT_GT(a1.num_rows, 400);
  EXPECT_EQ(canon_rows(a1, first_n(18)), q[0]);
  auto a2 = aggregate({0, 1}, {{K::kCountStar}, {K::kSum, 2}, {K::kSum, 3}});
  EXPECT_EQ(canon_rows(a2, first_n(5)), q[1]);
  auto a3 = aggregate({}, {{K::kCountStar},
                           {K::kSum, 2},
                           {K::kAvg, 2},
                           {K::kCount, 1, true},
                           {K::kMin, 4},
                           {K::kMax, 1}});
  EXPECT_EQ(canon_rows(a3, first_n(6)), q[2]);
  auto empty = *HashAggregator::make(lfields_, {},
                                     {{K::kCountStar}, {K::kSum, 2}, {K::kAvg, 2}, {K::kMin, 1}});
  ASSERT_TRUE(empty->consume(slice_batch(left_, 0, 0)).ok());
  EXPECT_EQ(canon_rows(*empty->finish(), first_n(4)), q[3]);
  std::vector<ColumnBatch> proj;
  for (int64_t off = 0; off < left_.num_rows; off += 5000) {
    auto s = slice_batch(left_, off, 5000);
    proj.push_back(batch_of({lfields_[1], lfields_[5]}, {s.columns[1], s.columns[5]}));
  }
  EXPECT_EQ(canon_rows(*distinct_rows(proj), first_n(2)), q[4]);
}

TEST_F(RelationalDuckDB, Joins) {
  const std::string cols = "L.k AS lk, L.v AS lv, R.k AS rk, R.w AS rw";
  auto q = duckdb({
      "SELECT " + cols + " FROM L JOIN R ON L.k = R.k",
      "SELECT " + cols + " FROM L LEFT JOIN R ON L.k = R.k",
      "SELECT " + cols + " FROM L RIGHT JOIN R ON L.k = R.k",
      "SELECT " + cols + " FROM L FULL JOIN R ON L.k = R.k",
      "SELECT L.k, L.v FROM L WHERE EXISTS (SELECT 1 FROM R WHERE R.k = L.k)",
      "SELECT L.k, L.v FROM L WHERE NOT EXISTS (SELECT 1 FROM R WHERE R.k = L.k)",
      "SELECT " + cols + " FROM L LEFT JOIN R ON L.k = R.k AND L.v < R.w",
      "SELECT " + cols + " FROM L FULL JOIN R ON L.k = R.k AND L.v < R.w",
      "SELECT L.k, L.v FROM L WHERE NOT EXISTS (SELECT 1 FROM R WHERE R.k = L.k AND L.v < R.w)",
  });
  const std::vector<int> out_cols = {0, 2, 6, 7};
  const std::vector<int> semi_cols = {0, 2};
  auto residual = [](const ColumnBatch& p) -> Result<std::vector<uint8_t>> {
    const ColumnVector& v = *p.columns[2];
    const ColumnVector& w = *p.columns[7];
    std::vector<uint8_t> m(static_cast<size_t>(p.num_rows));
    for (int64_t i = 0; i < p.num_rows; ++i) {
      m[static_cast<size_t>(i)] =
          v.is_valid(i) && w.is_valid(i) && v.raw<int64_t>()[i] < w.raw<int64_t>()[i];
    }
    return m;
  };
  EXPECT_EQ(canon_rows(join(JoinType::kInner), out_cols), q[0]);
  EXPECT_EQ(canon_rows(join(JoinType::kLeftOuter), out_cols), q[1]);
  EXPECT_EQ(canon_rows(join(JoinType::kRightOuter), out_cols), q[2]);
  EXPECT_EQ(canon_rows(join(JoinType::kFullOuter), out_cols), q[3]);
  EXPECT_EQ(canon_rows(join(JoinType::kLeftSemi), semi_cols), q[4]);
  EXPECT_EQ(canon_rows(join(JoinType::kLeftAnti), semi_cols), q[5]);
  EXPECT_EQ(canon_rows(join(JoinType::kLeftOuter, residual), out_cols), q[6]);
  EXPECT_EQ(canon_rows(join(JoinType::kFullOuter, residual), out_cols), q[7]);
  EXPECT_EQ(canon_rows(join(JoinType::kLeftAnti, residual), semi_cols), q[8]);
  EXPECT_GT(q[0].size(), 1000u);
}

}  // namespace
}  // namespace floe::sql
