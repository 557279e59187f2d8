// The SQL session end to end in-process: queries over range(), VALUES, fixture tables and
// metadata tables; EXPLAIN funnels; DESCRIBE / SHOW / USE; error messages with positions.
#include "floe/sql/session.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "integration/fixture_readme.h"
#include "sql/session_test_util.h"

namespace floe::sql {
namespace {

namespace fs = std::filesystem;
const fs::path kFixtures = FLOE_FIXTURES_DIR;
using testing::error_of;
using testing::must;
using testing::rows;
using testing::run;

std::string table(const std::string& rel) { return "iceberg.`" + (kFixtures / rel).string() + "`"; }

TEST(SqlSession, RangeFilterProjectOrderLimit) {
  Session s;
  EXPECT_EQ(rows(s, "SELECT id, id * 2 AS d FROM range(10) WHERE id % 3 = 0 ORDER BY id DESC"),
            (std::vector<std::string>{"[9,18]", "[6,12]", "[3,6]", "[0,0]"}));
  EXPECT_EQ(rows(s, "SELECT id FROM range(2, 20, 5)"),
            (std::vector<std::string>{"[2]", "[7]", "[12]", "[17]"}));
  EXPECT_EQ(rows(s, "SELECT id FROM range(100) ORDER BY id DESC LIMIT 2 OFFSET 1"),
            (std::vector<std::string>{"[98]", "[97]"}));
  auto out = must(s, "SELECT 1 + 1, 'x' AS s, upper('ab') FROM range(1)");
  EXPECT_EQ(out.columns, (std::vector<std::string>{"(1 + 1)", "s", "upper(ab)"}));
  EXPECT_EQ(out.rows, (std::vector<std::string>{"[2,\"x\",\"AB\"]"}));
  EXPECT_EQ(rows(s, "SELECT 7 / 2, 7 DIV 2, NULL IS NULL"),
            (std::vector<std::string>{"[3.5,3,true]"}));
}

TEST(SqlSession, GroupByHavingAggregates) {
  Session s;
  auto out = must(s,
                  "SELECT id % 3 AS k, count(*), sum(id), min(id), max(id), avg(id) FROM range(10) "
                  "GROUP BY id % 3 HAVING count(*) > 3 ORDER BY k");
  EXPECT_EQ(out.columns[1], "count(1)");
  EXPECT_EQ(out.rows, (std::vector<std::string>{"[0,4,18,0,9,4.5]"}));
  EXPECT_EQ(rows(s, "SELECT count(*), count(DISTINCT id % 4), sum(id) FROM range(0)"),
            (std::vector<std::string>{"[0,0,null]"}));
  EXPECT_EQ(rows(s,
                 "SELECT k, count(*) c FROM VALUES ('a'), ('b'), ('a'), (NULL) AS t(k) "
                 "GROUP BY 1 ORDER BY c DESC, k NULLS FIRST"),
            (std::vector<std::string>{"[\"a\",2]", "[null,1]", "[\"b\",1]"}));
  EXPECT_EQ(rows(s, "SELECT DISTINCT id % 2 AS p FROM range(6) ORDER BY p"),
            (std::vector<std::string>{"[0]", "[1]"}));
}

TEST(SqlSession, JoinsSetOperationsSubqueries) {
  Session s;
  const std::string a = "VALUES (1, 'one'), (2, 'two'), (3, 'three') AS a(id, name)";
  const std::string b = "VALUES (2, 20), (3, 30), (3, 31), (4, 40) AS b(id, v)";
  EXPECT_EQ(rows(s, "SELECT a.id, name, v FROM " + a + " JOIN " + b + " ON a.id = b.id ORDER BY v"),
            (std::vector<std::string>{"[2,\"two\",20]", "[3,\"three\",30]", "[3,\"three\",31]"}));
  EXPECT_EQ(rows(s, "SELECT a.id, v FROM " + a + " LEFT JOIN " + b +
                        " ON a.id = b.id AND v > 30 ORDER BY a.id"),
            (std::vector<std::string>{"[1,null]", "[2,null]", "[3,31]"}));
  EXPECT_EQ(rows(s, "SELECT id FROM " + a + " LEFT SEMI JOIN " + b + " USING (id) ORDER BY id"),
            (std::vector<std::string>{"[2]", "[3]"}));
  EXPECT_EQ(rows(s, "SELECT id FROM " + a + " LEFT ANTI JOIN " + b + " USING (id)"),
            (std::vector<std::string>{"[1]"}));
  EXPECT_EQ(rows(s, "SELECT b.id FROM " + a + " RIGHT JOIN " + b +
                        " ON a.id = b.id "
                        "WHERE a.id IS NULL"),
            (std::vector<std::string>{"[4]"}));
  EXPECT_EQ(rows(s,
                 "WITH t AS (SELECT id FROM range(3)) SELECT id FROM t UNION ALL "
                 "SELECT id + 10 FROM t ORDER BY 1 DESC LIMIT 2"),
            (std::vector<std::string>{"[12]", "[11]"}));
  EXPECT_EQ(rows(s, "SELECT id FROM range(5) INTERSECT SELECT id FROM range(3, 8) ORDER BY 1"),
            (std::vector<std::string>{"[3]", "[4]"}));
  EXPECT_EQ(rows(s, "SELECT id FROM range(5) EXCEPT SELECT id FROM range(1, 8)"),
            (std::vector<std::string>{"[0]"}));
  EXPECT_EQ(rows(s, "SELECT id FROM range(5) UNION SELECT id FROM range(3) ORDER BY id"),
            (std::vector<std::string>{"[0]", "[1]", "[2]", "[3]", "[4]"}));
  EXPECT_EQ(rows(s,
                 "SELECT id FROM range(10) WHERE id IN (SELECT id * 3 FROM range(3)) "
                 "AND id > (SELECT min(id) FROM range(1, 4)) ORDER BY id"),
            (std::vector<std::string>{"[3]", "[6]"}));
  EXPECT_EQ(rows(s,
                 "SELECT x.n FROM (SELECT id AS n FROM range(3)) x WHERE EXISTS (SELECT 1) "
                 "ORDER BY n LIMIT 1"),
            (std::vector<std::string>{"[0]"}));
}

TEST(SqlSession, NestedConstructorsAndCasts) {
  Session s;
  EXPECT_EQ(rows(s,
                 "SELECT array(1, 2L), map('a', 1, 'b', NULL), named_struct('x', 1, 'y', 'z'), "
                 "struct(1.5, array())"),
            std::vector<std::string>{
                R"([[1,2],{"a":1,"b":null},{"x":1,"y":"z"},{"col1":"1.5","col2":[]}])"});
  // Casts member by member: struct fields by position, list elements, map keys and values.
  EXPECT_EQ(rows(s,
                 "SELECT CAST(named_struct('x', 1, 'y', array(2)) AS "
                 "STRUCT<a: STRING, b: ARRAY<DOUBLE>>), CAST(map(1, '2') AS MAP<STRING, INT>), "
                 "CAST(a AS ARRAY<STRING>) FROM VALUES (array(1, NULL)), (NULL) AS t(a)"),
            (std::vector<std::string>{R"([{"a":"1","b":[2]},{"1":2},["1",null]])",
                                      R"([{"a":"1","b":[2]},{"1":2},null])"}));
  EXPECT_NE(error_of(s, "SELECT map(1)").find("key, value pairs"), std::string::npos);
  EXPECT_NE(error_of(s, "SELECT CAST(array(1) AS MAP<INT, INT>)").find("cannot cast"),
            std::string::npos);
  EXPECT_NE(error_of(s, "SELECT map(NULL, 1)").find("map key cannot be NULL"), std::string::npos);
}

TEST(SqlSession, ErrorsNameThePosition) {
  Session s;
  EXPECT_EQ(error_of(s, "SELECT id FORM range(3)").find("syntax error at 1:"), 0u);
  std::string col = error_of(s, "SELECT nope FROM range(3)");
  EXPECT_NE(col.find("cannot resolve column 'nope'"), std::string::npos) << col;
  EXPECT_NE(col.find("1:8"), std::string::npos) << col;
  EXPECT_NE(error_of(s, "SELECT id, count(*) FROM range(3)").find("GROUP BY"), std::string::npos);
  EXPECT_NE(error_of(s, "SELECT id FROM range(3) WHERE count(*) > 1").find("WHERE"),
            std::string::npos);
  EXPECT_NE(error_of(s, "SELECT * FROM no_such_table").find("not found"), std::string::npos);
  EXPECT_NE(error_of(s, "SELECT nosuchfn(id) FROM range(3)").find("nosuchfn"), std::string::npos);
  EXPECT_NE(error_of(s, "SELECT (SELECT id FROM range(3))").find("more than one row"),
            std::string::npos);
}

TEST(SqlSession, FixtureTablesScanToTheReadmeCounts) {
  Session s;
  int checked = 0;
  for (const auto& t : floe_test::readme_tables()) {
    if (t.rows < 0 || t.metadata.empty()) continue;
    SCOPED_TRACE(t.name);
    auto r = run(s, "SELECT count(*) FROM " + table(t.name + "/" + t.metadata));
    if (!r.ok()) {
      // Only ORC/Avro-backed and deliberately malformed fixtures may fail, clearly.
      bool expected = t.formats.find("ORC") != std::string::npos ||
                      t.formats.find("AVRO") != std::string::npos ||
                      t.name == "duckdb-iceberg/legacy_bare_deletion_vector";
      EXPECT_TRUE(expected) << r.status().to_string();
      continue;
    }
    EXPECT_EQ(r->rows, (std::vector<std::string>{"[" + std::to_string(t.rows) + "]"}));
    ++checked;
  }
  EXPECT_GE(checked, 90);
}

// The fixture README quotes pyspark's answer for TPC-H Q6 on this table.
TEST(SqlSession, TpchQ6MatchesSpark) {
  Session s;
  EXPECT_EQ(rows(s, "SELECT sum(l_extendedprice * l_discount) AS revenue FROM " +
                        table("duckdb-iceberg/lineitem_iceberg") +
                        " WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE "
                        "'1994-01-01' + INTERVAL 1 YEAR AND l_discount BETWEEN 0.06 - 0.01 AND "
                        "0.06 + 0.01 AND l_quantity < 24"),
            (std::vector<std::string>{"[\"1077536.9101\"]"}));
}

TEST(SqlSession, ExplainShowsTheFunnel) {
  Session s;
  auto out =
      must(s, "EXPLAIN SELECT id, name FROM " + table("duckdb-iceberg/partition_bucket_test") +
                  " WHERE partition_col = 'partition_5' AND id > 10");
  ASSERT_EQ(out.reports.size(), 1u);
  const ScanReport& r = out.reports[0];
  EXPECT_EQ(r.total_data_files, 6);
  EXPECT_GT(r.skipped_data_files, 0);
  EXPECT_NE(out.explain.find("BatchScan"), std::string::npos) << out.explain;
  EXPECT_NE(out.explain.find("Data Files skipped (pruned):"), std::string::npos) << out.explain;
  EXPECT_NE(out.explain.find("Residual Filter:"), std::string::npos);
  EXPECT_EQ(rows(s, "SELECT count(*) FROM " + table("duckdb-iceberg/partition_bucket_test") +
                        " WHERE partition_col = 'partition_5'"),
            (std::vector<std::string>{"[10]"}));

  // A day-partitioned table: a range predicate skips by day.
  auto day = must(s, "EXPLAIN SELECT * FROM " + table("duckdb-iceberg/map_stats") +
                         " WHERE timestamp >= '2026-01-02'");
  ASSERT_EQ(day.reports.size(), 1u);
  EXPECT_EQ(day.reports[0].skipped_data_manifests + day.reports[0].skipped_data_files, 1);
}

// A warehouse whose analytics namespace holds fixture tables (symlinks: fixtures stay
// read-only).
class WarehouseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("floe_sql_wh_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "analytics");
    fs::create_directories(dir_ / "other");
    fs::create_directory_symlink(kFixtures / "duckdb-iceberg/partition_bucket_test",
                                 dir_ / "analytics/sales");
    fs::create_directory_symlink(kFixtures / "duckdb-iceberg/map_stats", dir_ / "analytics/events");
    SessionOptions o;
    o.warehouse = dir_.string();
    session_ = std::make_unique<Session>(o);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  std::unique_ptr<Session> session_;
};

TEST_F(WarehouseTest, NamesResolveThroughCatalogNamespaceAndUse) {
  Session& s = *session_;
  EXPECT_EQ(rows(s, "SELECT count(*) FROM lakehouse.analytics.sales"),
            (std::vector<std::string>{"[100]"}));
  EXPECT_EQ(rows(s, "SELECT count(*) FROM analytics.sales WHERE partition_col = 'partition_1'"),
            (std::vector<std::string>{"[10]"}));
  EXPECT_NE(error_of(s, "SELECT * FROM sales").find("default.sales"), std::string::npos);
  must(s, "USE analytics");
  EXPECT_EQ(rows(s, "SELECT max(id) FROM sales"), (std::vector<std::string>{"[99]"}));
  EXPECT_EQ(rows(s, "SHOW TABLES"),
            (std::vector<std::string>{"[\"analytics\",\"events\",\"false\"]",
                                      "[\"analytics\",\"sales\",\"false\"]"}));
  EXPECT_EQ(rows(s, "SHOW NAMESPACES"),
            (std::vector<std::string>{"[\"analytics\"]", "[\"other\"]"}));
  auto desc = must(s, "DESCRIBE TABLE EXTENDED sales");
  std::string all;
  for (const auto& r : desc.rows) all += r + "\n";
  EXPECT_NE(all.find("[\"id\",\"bigint\",\"\"]"), std::string::npos) << all;
  EXPECT_NE(all.find("[\"Part 0\",\"bucket(10, partition_col)\",\"\"]"), std::string::npos) << all;
  EXPECT_NE(all.find("(default)"), std::string::npos) << all;
  EXPECT_NE(all.find("write.update.mode=merge-on-read"), std::string::npos) << all;
  auto props = rows(s, "SHOW TBLPROPERTIES sales ('write.parquet.compression-codec')");
  EXPECT_EQ(props, (std::vector<std::string>{"[\"write.parquet.compression-codec\",\"zstd\"]"}));
}

TEST_F(WarehouseTest, LessonMetadataTableQueries) {
  Session& s = *session_;
  auto manifests = must(s,
                        "SELECT path, length, partition_spec_id, added_snapshot_id, "
                        "added_data_files_count, existing_data_files_count, "
                        "deleted_data_files_count, partition_summaries "
                        "FROM lakehouse.analytics.sales.manifests");
  ASSERT_EQ(manifests.rows.size(), 1u);
  auto m = nlohmann::json::parse(manifests.rows[0]);
  EXPECT_EQ(m[4], 6);
  EXPECT_EQ(m[7][0]["contains_null"], false);
  EXPECT_EQ(rows(s,
                 "SELECT partition_summaries[0].lower_bound, "
                 "partition_summaries[0].upper_bound FROM analytics.sales.manifests"),
            (std::vector<std::string>{"[\"0\",\"8\"]"}));
  EXPECT_EQ(rows(s,
                 "SELECT summary['added-data-files'], summary['total-records'] "
                 "FROM analytics.sales.snapshots ORDER BY committed_at DESC LIMIT 1"),
            (std::vector<std::string>{"[\"6\",\"100\"]"}));
  EXPECT_EQ(rows(s, "SELECT count(*), sum(record_count) FROM analytics.sales.files"),
            (std::vector<std::string>{"[6,100]"}));
  EXPECT_EQ(rows(s, "SELECT count(*) FROM analytics.sales.delete_files"),
            (std::vector<std::string>{"[0]"}));
  EXPECT_EQ(rows(s, "SELECT data_file.content, count(*) FROM analytics.events.entries GROUP BY 1"),
            (std::vector<std::string>{"[0,2]"}));
  // Time travel: the first snapshot of the events table holds one row.
  auto snaps = rows(s, "SELECT snapshot_id FROM analytics.events.snapshots ORDER BY committed_at");
  ASSERT_EQ(snaps.size(), 2u);
  std::string first = snaps[0].substr(1, snaps[0].size() - 2);
  EXPECT_EQ(rows(s, "SELECT count(*) FROM analytics.events VERSION AS OF " + first),
            (std::vector<std::string>{"[1]"}));
  EXPECT_EQ(rows(s, "SELECT count(*) FROM analytics.events.files FOR VERSION AS OF " + first),
            (std::vector<std::string>{"[1]"}));
}

}  // namespace
}  // namespace floe::sql
