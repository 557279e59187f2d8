// End-to-end: `floe sql` and `floe shell` through the built binary — output formats, EXPLAIN
// as JSON, one-line errors with positions and a non-zero exit, a shell that survives errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "integration/cli_runner.h"

namespace {

using floe_test::fixtures_dir;
using floe_test::run_floe;

std::string bucket_table() {
  return "iceberg.\\`" + (fixtures_dir() / "duckdb-iceberg/partition_bucket_test").string() + "\\`";
}

TEST(CliSql, PrintsAnAlignedTableCsvAndJsonLines) {
  auto table = run_floe("sql \"SELECT id, id * 2 AS twice FROM range(3) ORDER BY id DESC\"");
  ASSERT_EQ(table.exit_code, 0) << table.out;
  EXPECT_EQ(table.out,
            "+--+-----+\n"
            "|id|twice|\n"
            "+--+-----+\n"
            "| 2|    4|\n"
            "| 1|    2|\n"
            "| 0|    0|\n"
            "+--+-----+\n");
  auto csv = run_floe("sql --format csv \"SELECT 'a,b' AS s, 1.5 AS x, NULL AS n\"");
  ASSERT_EQ(csv.exit_code, 0) << csv.out;
  EXPECT_EQ(csv.out, "s,x,n\n\"a,b\",1.5,NULL\n");
  auto json = run_floe("--format json sql \"SELECT id, DATE '2024-06-15' AS d FROM range(2)\"");
  ASSERT_EQ(json.exit_code, 0) << json.out;
  EXPECT_EQ(json.out, "{\"id\":0,\"d\":\"2024-06-15\"}\n{\"id\":1,\"d\":\"2024-06-15\"}\n");
}

TEST(CliSql, ExplainJsonCarriesTheScanReport) {
  auto r = run_floe("sql --format json \"EXPLAIN SELECT * FROM " + bucket_table() +
                    " WHERE partition_col = 'partition_3'\"");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  for (const char* key :
       {"snapshot_id", "total_manifests", "skipped_manifests", "scanned_manifests",
        "total_data_files", "skipped_data_files", "scanned_data_files", "delete_files", "residual",
        "planning_ms", "io_requests", "io_bytes", "tasks"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["total_data_files"], 6);
  EXPECT_EQ(j["skipped_data_files"], 5);
  auto text = run_floe("sql \"EXPLAIN SELECT * FROM " + bucket_table() +
                       " WHERE partition_col = 'partition_3'\"");
  EXPECT_NE(text.out.find("Data Files skipped (pruned):"), std::string::npos) << text.out;
}

TEST(CliSql, ErrorsAreOneLineWithAPositionAndExitNonZero) {
  auto r = run_floe("sql \"SELECT id FORM range(3)\"");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("floe: ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("syntax error at 1:11 near 'FORM'"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  auto name = run_floe("sql \"SELECT idd FROM range(3)\"");
  EXPECT_NE(name.exit_code, 0);
  EXPECT_NE(name.out.find("cannot resolve column 'idd'"), std::string::npos) << name.out;
  EXPECT_NE(name.out.find("at 1:8"), std::string::npos) << name.out;
}

TEST(CliSql, RunsScriptsFromFiles) {
  auto dir = std::filesystem::temp_directory_path() / ("floe_cli_sql_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "q.sql") << "-- two statements\nSELECT 1 AS a;\nSELECT count(*) AS n FROM "
                                  "range(10) WHERE id > 4;\n";
  auto r = run_floe("--format csv sql -f " + (dir / "q.sql").string());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "a\n1\nn\n5\n");
  std::filesystem::remove_all(dir);
}

TEST(CliShell, KeepsRunningAfterAnErrorAndTimesStatements) {
  auto r = run_floe(
      "shell 2>&1 <<'EOF'\nSELECT nope FROM range(1);\nSELECT 40 +\n  2 AS answer;\nSHOW "
      "NAMESPACES;\nEOF\n");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("Error: cannot resolve column 'nope'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("|    42|"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Time taken:"), std::string::npos) << r.out;
}

}  // namespace
