// End-to-end: `floe scan --explain` shows the lesson-A funnel on fixture tables.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "integration/cli_runner.h"

namespace {

namespace fs = std::filesystem;
const fs::path kFixtures = FLOE_FIXTURES_DIR;

using floe_test::CliRun;
using floe_test::run_floe;

nlohmann::json explain(const std::string& table, const std::string& where) {
  CliRun r = run_floe("scan " + (kFixtures / table).string() + " --explain --format json" +
                      (where.empty() ? "" : " --where \"" + where + "\""));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json();
}

TEST(CliScanTest, BucketPredicateSkipsFilesByBucket) {
  auto all = explain("duckdb-iceberg/partition_bucket_test", "");
  EXPECT_EQ(all["total_data_files"], 6);
  EXPECT_EQ(all["skipped_data_files"], 0);
  auto one = explain("duckdb-iceberg/partition_bucket_test", "partition_col = 'partition_3'");
  EXPECT_EQ(one["total_data_files"], 6);
  EXPECT_EQ(one["skipped_data_files"], 5);  // bucket[10]('partition_3') = 6: one file
  EXPECT_EQ(one["scanned_data_files"], 1);
  EXPECT_EQ(one["residual"], "partition_col = 'partition_3'");  // bucket cannot decide rows
  // Ranges cannot use bucket partitions.
  auto range = explain("duckdb-iceberg/partition_bucket_test", "partition_col > 'partition_3'");
  EXPECT_EQ(range["skipped_manifests"], 0);
}

TEST(CliScanTest, RangePredicateSkipsByDay) {
  auto r = explain("duckdb-iceberg/map_stats", "timestamp >= '2026-01-02'");
  EXPECT_EQ(r["total_manifests"], 2);
  EXPECT_EQ(r["skipped_manifests"], 1);  // the 2026-01-01 manifest, from its day summary
  EXPECT_EQ(r["scanned_data_files"], 1);
  EXPECT_EQ(r["residual"], "true");  // whole days after the bound: nothing left per row
  for (const char* key :
       {"snapshot_id", "total_manifests", "skipped_manifests", "scanned_manifests",
        "total_data_files", "skipped_data_files", "scanned_data_files", "delete_files", "residual",
        "planning_ms", "io_requests", "io_bytes", "tasks"}) {
    EXPECT_TRUE(r.contains(key)) << key;
  }
  EXPECT_GT(r["io_requests"].get<int>(), 0);
}

TEST(CliScanTest, DeletesAreMatchedAndCounted) {
  auto r = explain("duckdb-iceberg/equality_delete_cross_partition", "");
  EXPECT_EQ(r["scanned_data_files"], 2);
  EXPECT_EQ(r["total_delete_files"], 1);
  EXPECT_EQ(r["delete_files"], 1);
  EXPECT_EQ(r["delete_file_references"], 1);  // only the part=0 file: no cross-partition leak
}

TEST(CliScanTest, TimeTravelAndErrors) {
  std::string t = (kFixtures / "duckdb-iceberg/equality_deletes_mytable").string();
  CliRun bad = run_floe("scan " + t + " --explain --snapshot 42");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.out.find("snapshot 42"), std::string::npos) << bad.out;
  CliRun syntax = run_floe("scan " + t + " --explain --where \"id FORM 3\"");
  EXPECT_NE(syntax.exit_code, 0);
  EXPECT_NE(syntax.out.find("syntax error at 1:4 near 'FORM'"), std::string::npos) << syntax.out;
  CliRun column = run_floe("scan " + t + " --explain --where \"nope = 3\"");
  EXPECT_NE(column.out.find("'nope'"), std::string::npos) << column.out;
  CliRun ref = run_floe("scan " + t + " --explain --ref nosuchbranch");
  EXPECT_NE(ref.out.find("nosuchbranch"), std::string::npos) << ref.out;
  CliRun early = run_floe("scan " + t + " --explain --as-of 2000-01-01T00:00:00Z");
  EXPECT_NE(early.exit_code, 0);
  EXPECT_NE(early.out.find("no snapshot was current"), std::string::npos) << early.out;
}

}  // namespace

namespace {

TEST(CliScanTest, PrintsRowsInEveryFormat) {
  std::string t = (kFixtures / "duckdb-iceberg/equality_delete_cross_partition").string();
  CliRun json = run_floe("scan " + t + " --format json");
  ASSERT_EQ(json.exit_code, 0) << json.out;
  EXPECT_EQ(json.out,
            "{\"part\":0,\"key\":999,\"val\":\"p0-k999\"}\n"
            "{\"part\":1,\"key\":100,\"val\":\"p1-k100\"}\n"
            "{\"part\":1,\"key\":888,\"val\":\"p1-k888\"}\n");
  CliRun csv = run_floe("scan " + t + " --format csv --columns val,key --where \"part = 1\"");
  ASSERT_EQ(csv.exit_code, 0) << csv.out;
  EXPECT_EQ(csv.out, "val,key\np1-k100,100\np1-k888,888\n");
  CliRun table = run_floe("scan " + t + " --limit 1");
  ASSERT_EQ(table.exit_code, 0) << table.out;
  EXPECT_NE(table.out.find("part  key  val"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("(1 row)"), std::string::npos) << table.out;
  CliRun bad = run_floe("scan " + t + " --columns nope");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.out.find("'nope'"), std::string::npos);
}

TEST(CliScanTest, OrcTablesReportNotSupported) {
  CliRun r = run_floe("scan " + (kFixtures / "impala/iceberg_partitioned_orc").string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find("ORC"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not supported"), std::string::npos) << r.out;
}

}  // namespace
