// Reliability of writes and loads through the built `floe` binary: no value is silently changed
// on the way into a table (Spark's ANSI store assignment for INSERT and `floe load`, with
// errors naming the row or line and the column, and nothing committed), CSV and JSON Lines are
// read strictly, deep JSON and huge inputs end in clear errors, wide tables write within a
// memory limit, and a failing statement in a list says which one failed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "integration/cli_runner.h"
#include "test_support.h"

namespace {

using floe::test_support::shell_quote;
using floe_test::run_floe;
namespace fs = std::filesystem;

class StoreLoad : public ::testing::Test {
 protected:
  void SetUp() override { warehouse_ = dir_.str() + "/warehouse"; }

  std::string wh() const { return "--warehouse " + shell_quote(warehouse_); }

  // Runs statements; fails the test on a non-zero exit.
  std::string sql(const std::string& statements, const std::string& format = "table") {
    auto r = run_floe(wh() + " --format " + format + " sql " + shell_quote(statements));
    EXPECT_EQ(r.exit_code, 0) << statements << "\n" << r.out;
    return r.out;
  }
  floe_test::CliRun sql_fails(const std::string& statements) {
    auto r = run_floe(wh() + " sql " + shell_quote(statements));
    EXPECT_NE(r.exit_code, 0) << statements << "\n" << r.out;
    return r;
  }
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
  int64_t snapshots(const std::string& table) {
    return rows("SELECT count(*) AS n FROM " + table + ".snapshots")[0]["n"].get<int64_t>();
  }
  std::string write_file(const std::string& name, const std::string& bytes) {
    std::string path = dir_.str() + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  floe_test::CliRun load(const std::string& table, const std::string& file,
                         const std::string& extra = "") {
    return run_floe(wh() + " load " + table + " " + shell_quote(file) + extra);
  }

  floe::test_support::TempDir dir_{"floe-store-load"};
  std::string warehouse_;
};

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ---- 1. INSERT: ANSI store assignment ----

TEST_F(StoreLoad, IntOverflowIsAnErrorNamingRowAndColumn) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (id INT, x INT)");
  auto r = sql_fails("INSERT INTO db.t VALUES (1, 1), (2, 3000000000)");
  EXPECT_TRUE(has(r.out, "row 2")) << r.out;
  EXPECT_TRUE(has(r.out, "`x`")) << r.out;
  EXPECT_TRUE(has(r.out, "3000000000")) << r.out;
  EXPECT_FALSE(has(r.out, "-1294967296")) << r.out;
  EXPECT_EQ(snapshots("db.t"), 0);
  // From a query too, and from a static partition value.
  r = sql_fails("INSERT INTO db.t SELECT 1, id * 1000000000 FROM range(5)");
  EXPECT_TRUE(has(r.out, "row 4")) << r.out;
  sql("CREATE TABLE db.p (k INT, v INT) PARTITIONED BY (k)");
  r = sql_fails("INSERT INTO db.p PARTITION (k = 3000000000) SELECT 1");
  EXPECT_TRUE(has(r.out, "`k`")) << r.out;
  EXPECT_EQ(snapshots("db.t"), 0);
  EXPECT_EQ(snapshots("db.p"), 0);
  // Values that fit are stored as they are.
  sql("INSERT INTO db.t VALUES (1, 2147483647), (2, -2147483648)");
  auto stored = rows("SELECT x FROM db.t ORDER BY id");
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_EQ(stored[0]["x"], 2147483647);
  EXPECT_EQ(stored[1]["x"], -2147483648LL);
}

TEST_F(StoreLoad, DecimalOverflowIsAnErrorNotNull) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.d (id BIGINT, amount DECIMAL(5,2))");
  auto r = sql_fails("INSERT INTO db.d VALUES (1, 123456.789)");
  EXPECT_TRUE(has(r.out, "row 1")) << r.out;
  EXPECT_TRUE(has(r.out, "`amount`")) << r.out;
  EXPECT_TRUE(has(r.out, "123456.789")) << r.out;
  // One overflowing row in 100,000 from a query.
  r = sql_fails(
      "INSERT INTO db.d SELECT id, CASE WHEN id = 76543 THEN 123456.789 ELSE 1.5 END "
      "FROM range(100000)");
  EXPECT_TRUE(has(r.out, "row 76544")) << r.out;
  // ... and from a VALUES list of 100,000 rows.
  std::string values = "INSERT INTO db.d VALUES ";
  for (int i = 0; i < 100000; ++i) {
    if (i) values += ", ";
    values += "(" + std::to_string(i) + (i == 54321 ? ", 123456.789)" : ", 1.25)");
  }
  std::string script = write_file("values.sql", values);
  r = run_floe(wh() + " sql -f " + shell_quote(script));
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "row 54322")) << r.out;
  EXPECT_EQ(snapshots("db.d"), 0);
  // Rounding to the column's scale is not an overflow (Spark rounds HALF_UP).
  sql("INSERT INTO db.d VALUES (1, 1.239)");
  EXPECT_EQ(rows("SELECT CAST(amount AS STRING) AS a FROM db.d")[0]["a"], "1.24");
}

TEST_F(StoreLoad, OutOfRangeDatesAndTimestampsAreErrors) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.ts (ts TIMESTAMP_NTZ, d DATE)");
  auto r = sql_fails("INSERT INTO db.ts VALUES (TIMESTAMP_NTZ '294248-01-01', NULL)");
  EXPECT_TRUE(has(r.out, "294248-01-01")) << r.out;
  r = sql_fails("INSERT INTO db.ts VALUES (TIMESTAMP '294248-01-01', NULL)");
  EXPECT_TRUE(has(r.out, "294248-01-01")) << r.out;
  // A date past the timestamp range, as a timestamp.
  r = sql_fails("INSERT INTO db.ts VALUES (DATE '300000-01-01', NULL)");
  EXPECT_TRUE(has(r.out, "`ts`")) << r.out;
  // Strings parsed into a date or timestamp column.
  r = sql_fails("INSERT INTO db.ts VALUES ('294248-01-01', NULL)");
  EXPECT_TRUE(has(r.out, "'294248-01-01' is not a valid timestamp")) << r.out;
  r = sql_fails("INSERT INTO db.ts VALUES (NULL, '9999999-01-01')");
  EXPECT_TRUE(has(r.out, "`d`")) << r.out;
  r = sql_fails("INSERT INTO db.ts VALUES (NULL, '2024-13-01')");
  EXPECT_TRUE(has(r.out, "'2024-13-01' is not a valid date")) << r.out;
  EXPECT_EQ(snapshots("db.ts"), 0);
  // The largest timestamp still works.
  sql("INSERT INTO db.ts VALUES (TIMESTAMP_NTZ '294247-01-01', DATE '5000000-01-01')");
  auto stored = rows("SELECT year(ts) AS y, year(d) AS dy FROM db.ts");
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0]["y"], 294247);
  EXPECT_EQ(stored[0]["dy"], 5000000);
}

TEST_F(StoreLoad, StringsAreNotStoredInNumberColumns) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (x INT)");
  auto r = sql_fails("INSERT INTO db.t VALUES ('5')");
  EXPECT_TRUE(has(r.out, "cannot safely cast")) << r.out;
  EXPECT_EQ(snapshots("db.t"), 0);
}

TEST_F(StoreLoad, CastStaysNonAnsiAndTryCastIsNullWhereAnsiFails) {
  auto got = rows(
      "SELECT CAST(3000000000 AS INT) AS a, TRY_CAST(3000000000 AS INT) AS b, "
      "CAST('1.9' AS INT) AS c, TRY_CAST('1.9' AS INT) AS d, "
      "CAST(123456.789 AS DECIMAL(5,2)) AS e, TRY_CAST(2147483647 AS INT) AS f, "
      "TRY_CAST(1.9 AS INT) AS g, CAST('294248-01-01' AS TIMESTAMP) AS h, "
      "TRY_CAST(1e10 AS INT) AS i");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]["a"], -1294967296LL);  // Spark's default CAST wraps
  EXPECT_TRUE(got[0]["b"].is_null());
  EXPECT_EQ(got[0]["c"], 1);
  EXPECT_TRUE(got[0]["d"].is_null());
  EXPECT_TRUE(got[0]["e"].is_null());
  EXPECT_EQ(got[0]["f"], 2147483647);
  EXPECT_EQ(got[0]["g"], 1);  // ANSI truncates a fraction of a number
  EXPECT_TRUE(got[0]["h"].is_null());
  EXPECT_TRUE(got[0]["i"].is_null());
  // Over a column: only the rows that do not fit are NULL.
  auto col = rows("SELECT TRY_CAST(id * 1000000000 AS INT) AS v FROM range(4) ORDER BY id");
  ASSERT_EQ(col.size(), 4u);
  EXPECT_EQ(col[2]["v"], 2000000000);
  EXPECT_TRUE(col[3]["v"].is_null());
}

// ---- 1. floe load: ANSI store assignment ----

TEST_F(StoreLoad, LoadedValuesThatDoNotFitAreErrorsNamingFileLineAndColumn) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (id INT, amount DECIMAL(5,2))");
  std::string jsonl = write_file("a.jsonl", "{\"id\": 1}\n\n{\"id\": 1.9}\n");
  auto r = load("db.t", jsonl);
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "a.jsonl line 3")) << r.out;
  EXPECT_TRUE(has(r.out, "'id'")) << r.out;
  EXPECT_TRUE(has(r.out, "'1.9' is not a valid int")) << r.out;
  std::string csv = write_file("a.csv", "id,amount\n1,1.00\n3000000000,2.00\n");
  r = load("db.t", csv);
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "a.csv line 3")) << r.out;
  csv = write_file("b.csv", "id,amount\n1,1.00\n2,123456.789\n");
  r = load("db.t", csv);
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "b.csv line 3, column 'amount'")) << r.out;
  // Parquet: rows by number (a floe data file with a bigint column too wide for INT).
  sql("CREATE TABLE db.src AS SELECT CAST(id AS INT) AS id, CAST(1 AS DECIMAL(5,2)) AS amount "
      "FROM range(3) UNION ALL SELECT 3000000000, CAST(1 AS DECIMAL(5,2))");
  auto files = rows("SELECT file_path FROM db.src.files");
  ASSERT_EQ(files.size(), 1u);
  r = load("db.t", files[0]["file_path"].get<std::string>());
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "row 4, column 'id'")) << r.out;
  EXPECT_EQ(snapshots("db.t"), 0);
}

// ---- 2. CSV and JSON Lines read strictly ----

TEST_F(StoreLoad, CsvRecordsMustMatchTheHeader) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (a STRING, b STRING)");
  auto r = load("db.t", write_file("many.csv", "a,b\nx,y\nx,y,z\n"));
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "many.csv line 3: 3 fields, but the header has 2")) << r.out;
  r = load("db.t", write_file("few.csv", "a,b\nx,y\n\"multi\nline\",y\nx\n"));
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "few.csv line 5: 1 fields, but the header has 2")) << r.out;
  r = load("db.t", write_file("dup.csv", "a,A\nx,y\n"));
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "dup.csv line 1: columns 1 and 2 are both named `A`")) << r.out;
  EXPECT_EQ(snapshots("db.t"), 0);
}

TEST_F(StoreLoad, CsvTextMustBeUtf8WithoutNul) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (a STRING, b STRING)");
  auto r = load("db.t", write_file("bad.csv", "a,b\nx,y\nx,caf\xE9\n"));
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "bad.csv line 3, column 2 (`b`): the field is not valid UTF-8")) << r.out;
  r = load("db.t", write_file("nul.csv", std::string("a,b\nx\0y,z\n", 10)));
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "nul.csv line 2, column 1 (`a`): the field holds a NUL byte")) << r.out;
  EXPECT_EQ(snapshots("db.t"), 0);
}

TEST_F(StoreLoad, CsvByteOrderMarkIsSkipped) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (a STRING, b INT)");
  auto r = load("db.t", write_file("bom.csv",
                                   "\xEF\xBB\xBF"
                                   "a,b\nx,1\n"));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto got = rows("SELECT a, b FROM db.t");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]["a"], "x");
  EXPECT_EQ(got[0]["b"], 1);
}

TEST_F(StoreLoad, FileWithoutRowsCommitsNothing) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (a STRING, b STRING)");
  auto r = load("db.t", write_file("header.csv", "a,b\n"));
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "header.csv has no rows")) << r.out;
  r = load("db.t", write_file("empty.jsonl", "\n"));
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "no rows")) << r.out;
  EXPECT_EQ(snapshots("db.t"), 0);
}

TEST_F(StoreLoad, JsonLinesAreReadStrictly) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (a STRING, b STRING)");
  auto r = load("db.t", write_file("utf8.jsonl", "{\"a\": \"x\"}\n{\"a\": \"caf\xE9\"}\n"));
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "utf8.jsonl line 2")) << r.out;
  EXPECT_TRUE(has(r.out, "UTF-8")) << r.out;
  r = load("db.t", write_file("array.jsonl", "{\"a\": \"x\"}\n[1, 2]\n"));
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "array.jsonl line 2: the line is a JSON array, not an object")) << r.out;
  r = load("db.t", write_file("dup.jsonl", "{\"a\": \"x\", \"b\": \"1\", \"a\": \"y\"}\n"));
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "dup.jsonl line 1: key \"a\" appears twice")) << r.out;
  r = load("db.t", write_file("case.jsonl", "{\"a\": \"x\", \"A\": \"y\"}\n"));
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "case.jsonl line 1")) << r.out;
  EXPECT_EQ(snapshots("db.t"), 0);
}

// ---- 3. Deep JSON ----

TEST_F(StoreLoad, DeeplyNestedJsonIsRefusedNotAStackOverflow) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (a STRING)");
  const int depth = 90000;
  std::string deep = "{\"a\": " + std::string(depth, '[') + std::string(depth, ']') + "}\n";
  auto r = load("db.t", write_file("deep.jsonl", "{\"a\": \"ok\"}\n" + deep));
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "deep.jsonl line 2: values nest deeper than 1000 levels")) << r.out;
  EXPECT_EQ(snapshots("db.t"), 0);
  // Nesting up to the limit loads, as JSON text.
  std::string fine = "{\"a\": " + std::string(999, '[') + std::string(999, ']') + "}\n";
  r = load("db.t", write_file("fine.jsonl", fine));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto got = rows("SELECT length(a) AS n FROM db.t");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]["n"], 2 * 999);
}

// ---- 4. Memory ----

TEST_F(StoreLoad, TenThousandColumnInsertFitsInFourGigabytes) {
  if (floe::test_support::kAddressSanitizer) {
    GTEST_SKIP() << floe::test_support::kNoAddressLimitUnderAsan;
  }
  const int columns = 10000;
  std::string create = "CREATE NAMESPACE db; CREATE TABLE db.wide (";
  std::string insert = "INSERT INTO db.wide VALUES (";
  for (int i = 0; i < columns; ++i) {
    create += (i ? ", c" : "c") + std::to_string(i) + " BIGINT";
    insert += (i ? ", " : "") + std::to_string(i);
  }
  std::string script = write_file("wide.sql", create + ");\n" + insert + ");\n");
  std::string cmd = "ulimit -v 4000000; exec " + std::string(FLOE_CLI_PATH) + " " + wh() +
                    " sql -f " + shell_quote(script);
  int code = -1;
  std::string out = floe::test_support::run_command("sh -c " + shell_quote(cmd) + " 2>&1", &code);
  ASSERT_EQ(code, 0) << out.substr(0, 2000);
  auto got = rows("SELECT c0, c9999 FROM db.wide");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]["c9999"], 9999);
}

TEST_F(StoreLoad, DevZeroAsCsvEndsInAClearError) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (a STRING)");
  int code = -1;
  std::string out =
      floe::test_support::run_command("timeout 120 " + std::string(FLOE_CLI_PATH) + " " + wh() +
                                          " load db.t /dev/zero --file-format csv 2>&1",
                                      &code);
  EXPECT_NE(code, 0) << out;
  EXPECT_NE(code, 124) << "timed out: " << out;  // not an endless run
  EXPECT_LT(code, 128) << "killed by a signal: " << out;
  EXPECT_TRUE(has(out, "/dev/zero line 1: the record is longer than")) << out;
  EXPECT_EQ(snapshots("db.t"), 0);
}

// ---- 5. Statement lists ----

TEST_F(StoreLoad, FailingStatementInAListSaysWhichAndThatEarlierOnesCommitted) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (x INT)");
  auto r = sql_fails(
      "ALTER TABLE db.t SET TBLPROPERTIES ('owner' = 'me'); INSERT INTO db.t VALUES "
      "(3000000000)");
  EXPECT_TRUE(has(r.out, "statement 2 of 2 (INSERT INTO db.t VALUES (3000000000)) failed"))
      << r.out;
  EXPECT_TRUE(has(r.out, "statement 1 before it stays committed")) << r.out;
  // The ALTER is committed (each statement is its own commit, as in Spark); the INSERT is not.
  EXPECT_TRUE(has(sql("SHOW TBLPROPERTIES db.t"), "owner")) << r.out;
  EXPECT_EQ(snapshots("db.t"), 0);
}

}  // namespace
