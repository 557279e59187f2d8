// End-to-end writes through the built `floe` binary on the embedded SQLite catalog: the
// lesson's partitioned sales table (files per partition in Hive-style paths, manifest
// summaries, EXPLAIN skipping manifests and files), metrics modes and manifest size, DuckDB
// reading floe's data files, python3-avro reading its manifests, `floe load`, and DDL errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "integration/cli_runner.h"
#include "test_support.h"

namespace {

using floe_test::run_floe;
namespace fs = std::filesystem;

using floe::test_support::shell_quote;

// Output and errors of a shell command.
std::string run_command(const std::string& cmd) {
  return floe::test_support::run_command(cmd + " 2>&1");
}

class CliWrite : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/floe-write-XXXXXX";
    dir_ = mkdtemp(tmpl);
    warehouse_ = dir_ + "/warehouse";
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs statements; fails the test on a non-zero exit.
  std::string sql(const std::string& statements, const std::string& format = "table") {
    auto r = run_floe("--warehouse " + shell_quote(warehouse_) + " --format " + format + " sql " +
                      shell_quote(statements));
    EXPECT_EQ(r.exit_code, 0) << statements << "\n" << r.out;
    return r.out;
  }
  // JSON rows of a query.
  std::vector<nlohmann::json> rows(const std::string& query) {
    std::vector<nlohmann::json> out;
    std::string text = sql(query, "json");
    size_t start = 0;
    while (start < text.size()) {
      size_t nl = text.find('\n', start);
      std::string line = text.substr(start, nl - start);
      if (!line.empty()) out.push_back(nlohmann::json::parse(line));
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
    return out;
  }
  floe_test::CliRun sql_fails(const std::string& statements) {
    auto r = run_floe("--warehouse " + shell_quote(warehouse_) + " sql " + shell_quote(statements));
    EXPECT_NE(r.exit_code, 0) << statements << "\n" << r.out;
    return r;
  }

  std::string dir_, warehouse_;
};

// The lesson's table, filled with two million rows in four inserts (two days each).
constexpr const char* kSalesSetup = R"(
CREATE NAMESPACE lakehouse.analytics;
CREATE TABLE lakehouse.analytics.sales (
  sale_id BIGINT, user_id BIGINT, country STRING, age INT, amount DOUBLE, event_ts TIMESTAMP)
USING iceberg
PARTITIONED BY (country, days(event_ts));
)";

std::string sales_insert(int64_t first, int64_t count, int day, bool east = true) {
  // Rows spread over 2 countries (DE and FR, or PL and US) and 2 days from 2024-06-<day>: like
  // the lesson's loads, each commit's manifest covers a narrow range of countries and days.
  return "INSERT INTO lakehouse.analytics.sales SELECT id AS sale_id, id % 100000 AS user_id, "
         "CASE id % 2 WHEN 0 THEN '" +
         std::string(east ? "DE" : "PL") + "' ELSE '" + std::string(east ? "FR" : "US") +
         "' END AS country, CAST(id % 60 AS INT) + 10 AS age, (id % 1000) / 10.0 AS amount, "
         "CAST(" +
         std::to_string(1718409600LL + (day - 15) * 86400LL) +
         " + id % 172800 AS TIMESTAMP) AS event_ts FROM range(" + std::to_string(first) + ", " +
         std::to_string(first + count) + ")";
}

TEST_F(CliWrite, LessonSalesTablePartitionsFilesManifestsAndExplain) {
  sql(kSalesSetup);
  const int64_t per_insert = 500000;
  for (int i = 0; i < 4; ++i) {
    sql(sales_insert(i * per_insert, per_insert, 10 + 2 * i, /*east=*/i % 2 == 0));
  }

  auto count = rows("SELECT count(*) AS n, sum(sale_id) AS s FROM lakehouse.analytics.sales");
  ASSERT_EQ(count.size(), 1u);
  EXPECT_EQ(count[0]["n"], 4 * per_insert);
  const int64_t n = 4 * per_insert;
  EXPECT_EQ(count[0]["s"], n * (n - 1) / 2);

  // t.files: one or more files per partition (2 countries x 2 days per insert), Hive-style
  // paths.
  auto files = rows("SELECT file_path, partition, record_count FROM analytics.sales.files");
  std::set<std::string> partitions;
  int64_t records = 0;
  for (const auto& f : files) {
    std::string path = f["file_path"];
    std::string country = f["partition"]["country"];
    EXPECT_NE(path.find("/data/country=" + country + "/event_ts_day=2024-06-"), std::string::npos)
        << path;
    partitions.insert(country + "/" + f["partition"]["event_ts_day"].get<std::string>());
    records += f["record_count"].get<int64_t>();
  }
  EXPECT_EQ(partitions.size(), 16u);
  EXPECT_GE(files.size(), 16u);
  EXPECT_EQ(records, n);

  // t.manifests: the partition summaries bound each manifest's countries and days.
  auto manifests = rows("SELECT path, partition_summaries FROM analytics.sales.manifests");
  ASSERT_FALSE(manifests.empty());
  std::multiset<std::string> ranges;
  for (const auto& m : manifests) {
    const auto& summaries = m["partition_summaries"];
    ASSERT_EQ(summaries.size(), 2u) << m.dump();
    EXPECT_EQ(summaries[0]["contains_null"], false);
    ranges.insert(summaries[0]["lower_bound"].get<std::string>() + "-" +
                  summaries[0]["upper_bound"].get<std::string>() + " " +
                  summaries[1]["lower_bound"].get<std::string>() + ".." +
                  summaries[1]["upper_bound"].get<std::string>());
  }
  EXPECT_EQ(ranges, (std::multiset<std::string>{
                        "DE-FR 2024-06-10..2024-06-11", "PL-US 2024-06-12..2024-06-13",
                        "DE-FR 2024-06-14..2024-06-15", "PL-US 2024-06-16..2024-06-17"}));

  // EXPLAIN of the lesson's query: manifests skipped by their country range, files by country,
  // age left as the residual.
  auto lesson = nlohmann::json::parse(sql(
      "EXPLAIN SELECT * FROM lakehouse.analytics.sales WHERE country = 'DE' AND age > 18", "json"));
  EXPECT_EQ(lesson["total_manifests"], 4);
  EXPECT_EQ(lesson["skipped_manifests"], 2);
  EXPECT_EQ(lesson["total_data_files"], 8);
  EXPECT_EQ(lesson["skipped_data_files"], 4);
  EXPECT_EQ(lesson["scanned_data_files"], 4);
  EXPECT_EQ(lesson["residual"], "age > 18");

  // A day range prunes further.
  auto explain = nlohmann::json::parse(
      sql("EXPLAIN SELECT * FROM lakehouse.analytics.sales WHERE event_ts >= '2024-06-10' AND "
          "event_ts < '2024-06-12' AND country = 'DE' AND age > 18",
          "json"));
  EXPECT_EQ(explain["total_manifests"], 4);
  EXPECT_EQ(explain["skipped_manifests"], 3);
  EXPECT_EQ(explain["scanned_data_files"].get<int64_t>(), 2);
  EXPECT_GT(explain["skipped_data_files"].get<int64_t>(), 0);
  EXPECT_NE(explain["residual"].get<std::string>().find("age"), std::string::npos);
  auto de =
      rows("SELECT count(*) AS n FROM lakehouse.analytics.sales WHERE country = 'DE' AND age > 18");
  auto de_all = rows(
      "SELECT sum(CASE WHEN country = 'DE' AND age > 18 THEN 1 ELSE 0 END) AS n FROM "
      "lakehouse.analytics.sales");
  EXPECT_EQ(de[0]["n"], de_all[0]["n"]);
}

TEST_F(CliWrite, DuckDbReadsTheDataFilesAndPythonAvroTheManifests) {
  sql(kSalesSetup);
  sql(sales_insert(0, 20000, 10));
  sql(sales_insert(20000, 20000, 12, /*east=*/false));
  auto files = rows("SELECT file_path FROM analytics.sales.files");
  ASSERT_FALSE(files.empty());
  std::string list;
  for (const auto& f : files) {
    list += (list.empty() ? "" : ", ") + ("'" + f["file_path"].get<std::string>() + "'");
  }
  nlohmann::json queries = nlohmann::json::array();
  queries.push_back(
      "SELECT count(*), sum(sale_id), sum(user_id), sum(age), round(sum(amount), 2), "
      "count(DISTINCT country), min(event_ts), max(event_ts) FROM read_parquet([" +
      list + "])");
  std::string qfile = dir_ + "/queries.json";
  std::ofstream(qfile) << queries.dump();
  std::string duck =
      run_command("cd " + shell_quote(std::string(FLOE_SOURCE_DIR) + "/tests/oracle") +
                  " && node sql_duckdb.mjs " + shell_quote(qfile));
  auto floe_row = rows(
      "SELECT count(*) AS a, sum(sale_id) AS b, sum(user_id) AS c, sum(age) AS d, "
      "round(sum(amount), 2) AS e, count(DISTINCT country) AS f, "
      "date_format(min(event_ts), 'yyyy-MM-dd HH:mm:ss') AS g, "
      "date_format(max(event_ts), 'yyyy-MM-dd HH:mm:ss') AS h FROM analytics.sales");
  ASSERT_EQ(floe_row.size(), 1u);
  const auto& r = floe_row[0];
  std::string expected = "[" + std::to_string(r["a"].get<int64_t>()) + "," +
                         std::to_string(r["b"].get<int64_t>()) + "," +
                         std::to_string(r["c"].get<int64_t>()) + "," +
                         std::to_string(r["d"].get<int64_t>()) + ",";
  EXPECT_NE(duck.find(expected), std::string::npos) << duck << "\nfloe: " << r.dump();
  EXPECT_NE(duck.find("\"2024-06-10"), std::string::npos) << duck;
  EXPECT_NE(duck.find("##END 1"), std::string::npos) << duck;

  // Manifests and the manifest list in python3-avro, field ids intact.
  auto manifests = rows("SELECT path FROM analytics.sales.manifests");
  ASSERT_FALSE(manifests.empty());
  std::string dump =
      run_command("/usr/bin/python3 " +
                  shell_quote(std::string(FLOE_SOURCE_DIR) + "/tests/oracle/avro_dump.py") + " " +
                  shell_quote(manifests[0]["path"].get<std::string>()));
  auto j = nlohmann::json::parse(dump);
  EXPECT_EQ(j["metadata"]["format-version"], "2");
  EXPECT_EQ(j["metadata"]["content"], "data");
  std::string schema = j["schema"].dump();
  EXPECT_NE(schema.find("\"field-id\":2"), std::string::npos);    // data_file
  EXPECT_NE(schema.find("\"field-id\":102"), std::string::npos);  // partition
  EXPECT_NE(schema.find("\"field-id\":1000"), std::string::npos);
  int64_t dumped = 0;
  for (const auto& rec : j["records"]) dumped += rec["data_file"]["record_count"].get<int64_t>();
  EXPECT_GT(dumped, 0);
}

// The lesson's measurement: a wide table with `full` metrics everywhere has manifests many times
// larger than with `none` plus three `full` columns.
TEST_F(CliWrite, MetricsModesChangeManifestSize) {
  std::string columns = "id BIGINT, country STRING, event_ts TIMESTAMP";
  std::string select =
      "SELECT id, CASE WHEN id % 2 = 0 THEN 'DE' ELSE 'FR' END, "
      "CAST(1718409600 + id AS TIMESTAMP)";
  for (int c = 0; c < 80; ++c) {
    columns += ", note" + std::to_string(c) + " STRING";
    // High-cardinality text, like the lesson's free-text and JSON columns.
    std::string k = std::to_string(c + 7);
    select += ", concat(CAST(bucket(2147483647, id * " + k + ") AS STRING), '-', " +
              "CAST(bucket(2147483629, id + " + k + ") AS STRING), '-', " +
              "CAST(bucket(2147483587, id * 3 + " + k + ") AS STRING))";
  }
  select += " FROM range(0, 2000)";
  auto make = [&](const std::string& name, const std::string& props) {
    sql("CREATE NAMESPACE IF NOT EXISTS db; CREATE TABLE db." + name + " (" + columns +
        ") PARTITIONED BY (bucket(32, id)) TBLPROPERTIES (" + props + "); INSERT INTO db." + name +
        " " + select);
    auto m = rows("SELECT length FROM db." + name + ".manifests");
    EXPECT_EQ(m.size(), 1u);
    return m.empty() ? 0 : m[0]["length"].get<int64_t>();
  };
  int64_t full = make("wide_full", "'write.metadata.metrics.default' = 'full'");
  int64_t slim = make("wide_slim",
                      "'write.metadata.metrics.default' = 'none', "
                      "'write.metadata.metrics.column.event_ts' = 'full', "
                      "'write.metadata.metrics.column.country' = 'full', "
                      "'write.metadata.metrics.column.id' = 'full'");
  ASSERT_GT(slim, 0);
  EXPECT_GT(full, 5 * slim) << "full " << full << " vs none+3 full " << slim;
  // Pruning still works on the columns that kept their metrics.
  auto explain = nlohmann::json::parse(
      sql("EXPLAIN SELECT * FROM db.wide_slim WHERE event_ts < '2024-06-15 00:00:10'", "json"));
  EXPECT_EQ(explain["total_data_files"], 32);
  EXPECT_GT(explain["skipped_data_files"].get<int64_t>(), 20);
}

// INSERT writes with the session's threads (SET floe.threads), every partition's file on one
// pool: the files are the ones one thread writes, the same sizes and bounds per partition.
TEST_F(CliWrite, InsertWithThreadsWritesTheFilesOfOneThread) {
  std::string select =
      "SELECT id, concat('user-', CAST(bucket(2147483647, id) AS STRING)), id * 0.5 "
      "FROM range(0, 60000)";
  for (int threads : {1, 3}) {
    std::string t = "db.t" + std::to_string(threads);
    sql("CREATE NAMESPACE IF NOT EXISTS db; CREATE TABLE " + t +
        " (id BIGINT, name STRING, half DOUBLE) PARTITIONED BY (bucket(8, id)) TBLPROPERTIES "
        "('write.parquet.page-size-bytes' = '4096'); SET floe.threads = " +
        std::to_string(threads) + "; INSERT INTO " + t + " " + select);
  }
  auto files = [&](const std::string& t) {
    std::vector<std::string> out;
    for (const auto& r : rows("SELECT partition, record_count, file_size_in_bytes, lower_bounds, "
                              "upper_bounds, split_offsets FROM " +
                              t + ".files")) {
      out.push_back(r.dump());
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  auto one = files("db.t1");
  EXPECT_EQ(one.size(), 8u);
  EXPECT_EQ(one, files("db.t3"));
  EXPECT_EQ(rows("SELECT count(*), sum(id), sum(length(name)), sum(half) FROM db.t3"),
            rows("SELECT count(*), sum(id), sum(length(name)), sum(half) FROM db.t1"));
}

TEST_F(CliWrite, InsertOverwriteReplacesOnlyThePartitionsWritten) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (id INT, country STRING) PARTITIONED BY (country);"
      "INSERT INTO db.t VALUES (1, 'DE'), (2, 'DE'), (3, 'FR');"
      "INSERT OVERWRITE db.t VALUES (10, 'DE');");
  auto r = rows("SELECT id, country FROM db.t ORDER BY id");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0]["id"], 3);
  EXPECT_EQ(r[1]["id"], 10);
  auto snaps = rows("SELECT operation FROM db.t.snapshots ORDER BY committed_at");
  ASSERT_EQ(snaps.size(), 2u);
  EXPECT_EQ(snaps[1]["operation"], "overwrite");
  for (const auto& e : rows("SELECT summary['engine-name'] AS e FROM db.t.snapshots")) {
    EXPECT_EQ(e["e"], "floe");
  }
  // Static overwrite of one partition.
  sql("INSERT OVERWRITE db.t PARTITION (country = 'FR') SELECT 30");
  r = rows("SELECT id, country FROM db.t ORDER BY id");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0]["id"], 10);
  EXPECT_EQ(r[1]["id"], 30);
  EXPECT_EQ(r[1]["country"], "FR");
}

TEST_F(CliWrite, CreateTableAsSelectPropertiesRefsAndSnapshots) {
  sql("CREATE NAMESPACE db;"
      "CREATE TABLE db.src AS SELECT id, CAST(id AS STRING) AS s FROM range(5);"
      "ALTER TABLE db.src SET TBLPROPERTIES ('owner' = 'me', 'write.format.default' = 'avro');"
      "INSERT INTO db.src VALUES (5, '5');");
  auto props = rows("SHOW TBLPROPERTIES db.src ('owner')");
  ASSERT_EQ(props.size(), 1u);
  EXPECT_EQ(props[0]["value"], "me");
  auto files = rows("SELECT file_format FROM db.src.files ORDER BY file_format");
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0]["file_format"], "AVRO");
  EXPECT_EQ(files[1]["file_format"], "PARQUET");
  EXPECT_EQ(rows("SELECT count(*) AS n FROM db.src")[0]["n"], 6);

  auto snaps = rows("SELECT snapshot_id FROM db.src.snapshots ORDER BY committed_at");
  ASSERT_EQ(snaps.size(), 2u);
  const int64_t first = snaps[0]["snapshot_id"];
  sql("ALTER TABLE db.src CREATE TAG v1 AS OF VERSION " + std::to_string(first));
  sql("ALTER TABLE db.src CREATE BRANCH dev RETAIN 7 DAYS WITH SNAPSHOT RETENTION 2 SNAPSHOTS");
  auto refs = rows(
      "SELECT name, type, max_reference_age_in_ms, min_snapshots_to_keep FROM "
      "db.src.refs ORDER BY name");
  ASSERT_EQ(refs.size(), 3u);
  EXPECT_EQ(refs[0]["name"], "dev");
  EXPECT_EQ(refs[0]["max_reference_age_in_ms"], 7 * 86400000LL);
  EXPECT_EQ(refs[0]["min_snapshots_to_keep"], 2);
  EXPECT_EQ(refs[2]["name"], "v1");
  EXPECT_EQ(refs[2]["type"], "TAG");
  EXPECT_EQ(rows("SELECT count(*) AS n FROM db.src VERSION AS OF 'v1'")[0]["n"], 5);

  auto rolled =
      rows("CALL lakehouse.system.rollback_to_snapshot('db.src', " + std::to_string(first) + ")");
  ASSERT_EQ(rolled.size(), 1u);
  EXPECT_EQ(rolled[0]["current_snapshot_id"], first);
  EXPECT_EQ(rows("SELECT count(*) AS n FROM db.src")[0]["n"], 5);
  sql("CALL system.set_current_snapshot(table => 'db.src', snapshot_id => " +
      std::to_string(snaps[1]["snapshot_id"].get<int64_t>()) + ")");
  EXPECT_EQ(rows("SELECT count(*) AS n FROM db.src")[0]["n"], 6);

  sql("ALTER TABLE db.src UNSET TBLPROPERTIES ('owner'); ALTER TABLE db.src RENAME TO db.dst");
  EXPECT_TRUE(rows("SHOW TABLES IN db LIKE 'src'").empty());
  EXPECT_EQ(rows("SELECT count(*) AS n FROM db.dst")[0]["n"], 6);
  EXPECT_TRUE(rows("SHOW TBLPROPERTIES db.dst ('owner')")[0]["value"].get<std::string>().find(
                  "does not have") != std::string::npos);
}

// Write-audit-publish: INSERT into `t.branch_audit` leaves main alone until fast_forward.
TEST_F(CliWrite, WritesToABranchAndPublishesIt) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (id INT); INSERT INTO db.t VALUES (1);"
      "ALTER TABLE db.t CREATE BRANCH audit; INSERT INTO db.t.branch_audit VALUES (2), (3)");
  EXPECT_EQ(rows("SELECT count(*) AS n FROM db.t")[0]["n"], 1);
  EXPECT_EQ(rows("SELECT count(*) AS n FROM db.t.branch_audit")[0]["n"], 3);
  EXPECT_EQ(rows("SELECT count(*) AS n FROM db.t VERSION AS OF 'audit'")[0]["n"], 3);
  auto r = rows("CALL system.fast_forward('db.t', 'main', 'audit')");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["branch_updated"], "main");
  EXPECT_NE(r[0]["previous_ref"], r[0]["updated_ref"]);
  EXPECT_EQ(rows("SELECT count(*) AS n FROM db.t")[0]["n"], 3);
  auto bad = sql_fails("INSERT INTO db.t.branch_nope VALUES (4)");
  EXPECT_NE(bad.out.find("has no branch nope"), std::string::npos) << bad.out;
}

TEST_F(CliWrite, LocationLikeRollbackToTimestampAndCascade) {
  const std::string location = dir_ + "/custom/a";
  sql("CREATE NAMESPACE db; CREATE TABLE db.a (id INT) LOCATION '" + location +
      "'; CREATE TABLE db.b (id INT); INSERT INTO db.a VALUES (1); INSERT INTO db.a VALUES (2)");
  for (const auto& f : rows("SELECT file_path FROM db.a.files")) {
    EXPECT_EQ(f["file_path"].get<std::string>().rfind(location + "/data/", 0), 0u) << f.dump();
  }
  auto like = rows("SHOW TABLES IN db LIKE 'A|x*'");
  ASSERT_EQ(like.size(), 1u);
  EXPECT_EQ(like[0]["tableName"], "a");

  // Rolls back to the newest snapshot older than the second one's commit time.
  auto snaps = rows("SELECT snapshot_id, committed_at FROM db.a.snapshots ORDER BY committed_at");
  ASSERT_EQ(snaps.size(), 2u);
  auto rolled = rows("CALL system.rollback_to_timestamp('db.a', TIMESTAMP '" +
                     snaps[1]["committed_at"].get<std::string>() + "')");
  ASSERT_EQ(rolled.size(), 1u);
  EXPECT_EQ(rolled[0]["previous_snapshot_id"], snaps[1]["snapshot_id"]);
  EXPECT_EQ(rolled[0]["current_snapshot_id"], snaps[0]["snapshot_id"]);
  EXPECT_EQ(rows("SELECT sum(id) AS s FROM db.a")[0]["s"], 1);

  // CASCADE drops the tables from the catalog (their files stay) and then the namespace.
  sql("DROP NAMESPACE db CASCADE");
  EXPECT_TRUE(rows("SHOW NAMESPACES").empty());
  EXPECT_TRUE(fs::exists(location + "/metadata"));
}

TEST_F(CliWrite, RegisterAndDropPurge) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (id BIGINT); INSERT INTO db.t VALUES (1), (2)");
  auto meta = rows("DESCRIBE TABLE EXTENDED db.t");
  std::string metadata_file, location;
  for (const auto& r : meta) {
    if (r["col_name"] == "Metadata file") metadata_file = r["data_type"];
    if (r["col_name"] == "Location") location = r["data_type"];
  }
  ASSERT_FALSE(metadata_file.empty());
  auto reg = rows("CALL system.register_table('db.copy', '" + metadata_file + "')");
  ASSERT_EQ(reg.size(), 1u);
  EXPECT_EQ(reg[0]["total_records_count"], 2);
  EXPECT_EQ(reg[0]["total_data_files_count"], 1);
  EXPECT_EQ(rows("SELECT sum(id) AS s FROM db.copy")[0]["s"], 3);
  sql("DROP TABLE db.copy");  // without PURGE the files stay
  EXPECT_TRUE(fs::exists(metadata_file));
  sql("DROP TABLE db.t PURGE");
  EXPECT_FALSE(fs::exists(metadata_file));
  int left = 0;
  for (const auto& e : fs::recursive_directory_iterator(location)) left += e.is_regular_file();
  EXPECT_EQ(left, 0);
  sql("DROP NAMESPACE db");
  EXPECT_TRUE(rows("SHOW NAMESPACES").empty());
}

TEST_F(CliWrite, BadStatementsGiveOneClearError) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (id INT, s STRING)");
  auto r = sql_fails("CREATE TABLE db.t (id INT)");
  EXPECT_NE(r.out.find("already exists"), std::string::npos) << r.out;
  r = sql_fails("INSERT INTO db.t VALUES (1)");
  EXPECT_NE(r.out.find("not enough data columns"), std::string::npos) << r.out;
  r = sql_fails("INSERT INTO db.t VALUES ('x', 'y')");
  EXPECT_NE(r.out.find("cannot safely cast"), std::string::npos) << r.out;
  r = sql_fails("INSERT INTO db.missing VALUES (1, 'a')");
  EXPECT_NE(r.out.find("db.missing"), std::string::npos) << r.out;
  r = sql_fails("CREATE TABLE nowhere.t (id INT)");
  EXPECT_NE(r.out.find("namespace nowhere"), std::string::npos) << r.out;
  r = sql_fails("CREATE TABLE db.p (id INT) PARTITIONED BY (bucket(16, nope))");
  EXPECT_NE(r.out.find("nope"), std::string::npos) << r.out;
  sql("CREATE TABLE db.req (id INT NOT NULL, s STRUCT<x: INT NOT NULL, y: INT>)");
  r = sql_fails("INSERT INTO db.req VALUES (1, named_struct('x', CAST(NULL AS INT), 'y', 1))");
  EXPECT_NE(r.out.find("required field s.x is NULL"), std::string::npos) << r.out;
  r = sql_fails("INSERT INTO db.req VALUES (NULL, NULL)");
  EXPECT_NE(r.out.find("required column id"), std::string::npos) << r.out;
  sql("INSERT INTO db.req VALUES (1, NULL), (2, named_struct('x', 2, 'y', NULL))");
  r = sql_fails("DROP NAMESPACE db");
  EXPECT_NE(r.out.find("not empty"), std::string::npos) << r.out;
  // Nothing was committed by the failed statements.
  EXPECT_TRUE(rows("SELECT * FROM db.t.snapshots").empty());
}

TEST_F(CliWrite, LoadCsvJsonLinesAndParquet) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (id BIGINT, name STRING, d DATE, amount "
      "DECIMAL(10,2)) PARTITIONED BY (d)");
  std::string csv = dir_ + "/in.csv";
  std::ofstream(csv) << "id,name,d,amount\n1,\"Smith, J\",2024-06-15,10.50\n2,,2024-06-16,\n";
  auto r = run_floe("--warehouse " + shell_quote(warehouse_) + " load db.t " + shell_quote(csv));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("loaded 2 rows"), std::string::npos) << r.out;

  std::string jsonl = dir_ + "/in.jsonl";
  std::ofstream(jsonl) << "{\"id\": 3, \"name\": \"x\", \"d\": \"2024-06-15\", \"amount\": 1.25}\n"
                       << "{\"ID\": 4, \"amount\": \"7\"}\n";
  r = run_floe("--warehouse " + shell_quote(warehouse_) + " load db.t " + shell_quote(jsonl));
  ASSERT_EQ(r.exit_code, 0) << r.out;

  // A Parquet file written by floe itself (CTAS + the file of its table).
  sql("CREATE TABLE db.src AS SELECT CAST(5 AS BIGINT) AS id, 'p' AS name");
  auto src = rows("SELECT file_path FROM db.src.files");
  ASSERT_EQ(src.size(), 1u);
  r = run_floe("--warehouse " + shell_quote(warehouse_) + " load db.t " +
               shell_quote(src[0]["file_path"].get<std::string>()));
  ASSERT_EQ(r.exit_code, 0) << r.out;

  auto all = rows(
      "SELECT id, name, CAST(d AS STRING) AS d, CAST(amount AS STRING) AS amount "
      "FROM db.t ORDER BY id");
  ASSERT_EQ(all.size(), 5u);
  EXPECT_EQ(all[0]["name"], "Smith, J");
  EXPECT_EQ(all[0]["amount"], "10.50");
  EXPECT_TRUE(all[1]["name"].is_null());
  EXPECT_EQ(all[1]["d"], "2024-06-16");
  EXPECT_EQ(all[2]["amount"], "1.25");
  EXPECT_EQ(all[3]["amount"], "7.00");
  EXPECT_TRUE(all[3]["d"].is_null());
  EXPECT_EQ(all[4]["name"], "p");

  // A bad value names the line and column; nothing is committed.
  std::string bad = dir_ + "/bad.csv";
  std::ofstream(bad) << "id,name\n1,a\nnope,b\n";
  r = run_floe("--warehouse " + shell_quote(warehouse_) + " load db.t " + shell_quote(bad));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find("line 3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("'id'"), std::string::npos) << r.out;
  EXPECT_EQ(rows("SELECT count(*) AS n FROM db.t")[0]["n"], 5);
}

}  // namespace

namespace {

class CliWriteTypes : public CliWrite {};

// Every Spark type through INSERT ... VALUES (nested constructors and casts included), read back
// by floe and by DuckDB from the data files.
TEST_F(CliWriteTypes, EveryTypeRoundTripsThroughInsertAndCtas) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.types (b BOOLEAN, i INT, l BIGINT, f FLOAT, "
      "d DOUBLE, dec DECIMAL(10,2), dt DATE, ts TIMESTAMP, tsn TIMESTAMP_NTZ, s STRING, "
      "bin BINARY, st STRUCT<x: INT, y: STRING>, arr ARRAY<BIGINT>, m MAP<STRING, DOUBLE>) "
      "PARTITIONED BY (truncate(2, s), bucket(4, l), months(dt));"
      "INSERT INTO db.types VALUES (true, 1, 2, 1.5, 2.5, 3.25, DATE '2024-06-15', "
      "TIMESTAMP '2024-06-15 10:00:00', TIMESTAMP_NTZ '2024-06-15 10:00:00', 'hello', X'CAFE', "
      "named_struct('x', 1, 'y', 'a'), array(1, 2, 3), map('k', 7)), (NULL, NULL, NULL, NULL, "
      "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), (false, 3, 4, 0.5, 1.0, 1, "
      "DATE '2024-07-01', '2024-07-01 00:00:00', '2024-07-01 00:00:00', 'world', X'00', "
      "named_struct('x', 2, 'y', NULL), array(), map());"
      "CREATE TABLE db.copy AS SELECT * FROM db.types");
  for (const char* table : {"db.types", "db.copy"}) {
    auto r = rows(std::string("SELECT i, CAST(dec AS STRING) AS dec, CAST(ts AS STRING) AS ts, "
                              "st.x AS x, st.y AS y, arr, m['k'] AS k FROM ") +
                  table + " ORDER BY i");
    ASSERT_EQ(r.size(), 3u) << table;
    EXPECT_TRUE(r[0]["i"].is_null());
    EXPECT_EQ(r[1]["dec"], "3.25");
    EXPECT_EQ(r[1]["ts"], "2024-06-15 10:00:00");
    EXPECT_EQ(r[1]["y"], "a");
    EXPECT_EQ(r[1]["arr"], nlohmann::json::parse("[1,2,3]"));
    EXPECT_EQ(r[1]["k"], 7.0);
    EXPECT_EQ(r[2]["dec"], "1.00");
    EXPECT_EQ(r[2]["x"], 2);
    EXPECT_TRUE(r[2]["y"].is_null());
    EXPECT_EQ(r[2]["arr"], nlohmann::json::array());
  }
  auto files = rows("SELECT file_path, partition FROM db.types.files");
  ASSERT_EQ(files.size(), 3u);
  std::string list;
  for (const auto& f : files) {
    list += (list.empty() ? "" : ", ") + ("'" + f["file_path"].get<std::string>() + "'");
    std::string path = f["file_path"];
    EXPECT_TRUE(path.find("/s_trunc=he/l_bucket=0/dt_month=2024-06/") != std::string::npos ||
                path.find("/s_trunc=wo/l_bucket=2/dt_month=2024-07/") != std::string::npos ||
                path.find("/s_trunc=null/l_bucket=null/dt_month=null/") != std::string::npos)
        << path;
  }
  nlohmann::json queries = nlohmann::json::array();
  queries.push_back(
      "SELECT i, st.y, arr, m['k'], CAST(\"dec\" AS VARCHAR), tsn FROM read_parquet([" + list +
      "]) ORDER BY i NULLS FIRST");
  std::string qfile = dir_ + "/queries.json";
  std::ofstream(qfile) << queries.dump();
  std::string duck =
      run_command("cd " + shell_quote(std::string(FLOE_SOURCE_DIR) + "/tests/oracle") +
                  " && node sql_duckdb.mjs " + shell_quote(qfile));
  EXPECT_NE(duck.find("[1,\"a\",[1,2,3],7,\"3.25\",\"2024-06-15T10:00:00.000000\"]"),
            std::string::npos)
      << duck;
  EXPECT_NE(duck.find("##END 3"), std::string::npos) << duck;
}

}  // namespace
