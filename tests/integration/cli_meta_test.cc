// End-to-end: `floe meta TABLE NAME` prints metadata tables (JSON lines, CSV, aligned table).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "integration/cli_runner.h"

namespace {

namespace fs = std::filesystem;
using floe_test::CliRun;
using floe_test::run_floe;
using json = nlohmann::json;

std::string fixture(const std::string& name) { return (floe_test::fixtures_dir() / name).string(); }

std::vector<json> json_rows(const std::string& args) {
  CliRun r = run_floe("meta " + args + " --format json");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  std::vector<json> out;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(json::parse(line));
  }
  return out;
}

TEST(CliMetaTest, ManifestsWithPartitionSummaries) {
  auto rows = json_rows(fixture("duckdb-iceberg/map_stats") + " manifests");
  ASSERT_EQ(rows.size(), 2u);
  std::set<std::string> bounds;
  for (const auto& r : rows) {
    EXPECT_EQ(r["added_data_files_count"], 1);
    bounds.insert(r["partition_summaries"][0]["lower_bound"].get<std::string>());
  }
  EXPECT_EQ(bounds, (std::set<std::string>{"2026-01-01", "2026-01-02"}));
}

TEST(CliMetaTest, SnapshotsSummaryAndTimeTravel) {
  auto snaps =
      json_rows(fixture("duckdb-iceberg/equality_deletes_mytable_partitioned") + " SNAPSHOTS");
  ASSERT_EQ(snaps.size(), 5u);
  EXPECT_EQ(snaps[4]["summary"]["total-equality-deletes"], "3");
  auto files = json_rows(fixture("duckdb-iceberg/equality_deletes_mytable_partitioned") +
                         " files --snapshot 6447922032991303611");
  EXPECT_EQ(files.size(), 4u);
  auto deletes =
      json_rows(fixture("duckdb-iceberg/equality_deletes_mytable_partitioned") + " delete_files");
  ASSERT_EQ(deletes.size(), 3u);
  EXPECT_EQ(deletes[0]["content"], 2);
  EXPECT_TRUE(deletes[0]["equality_ids"].is_array());
}

TEST(CliMetaTest, TableAndCsvFormats) {
  CliRun t = run_floe("meta " + fixture("duckdb-iceberg/partition_bucket_test") + " partitions");
  ASSERT_EQ(t.exit_code, 0) << t.out;
  EXPECT_NE(t.out.find("record_count"), std::string::npos);
  EXPECT_NE(t.out.find("{\"partition_col_bucket\":0}"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("(6 rows)"), std::string::npos) << t.out;

  CliRun c =
      run_floe("meta " + fixture("duckdb-iceberg/partition_bucket_test") + " history --format csv");
  ASSERT_EQ(c.exit_code, 0) << c.out;
  EXPECT_EQ(c.out,
            "made_current_at,snapshot_id,parent_id,is_current_ancestor\n"
            "2026-02-25T07:55:37.33+00:00,8614859770535311463,NULL,true\n");
}

TEST(CliMetaTest, ErrorsAreOneLine) {
  CliRun bad = run_floe("meta " + fixture("duckdb-iceberg/map_stats") + " manifest");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.out.find("unknown metadata table 'manifest'"), std::string::npos) << bad.out;
  CliRun snap = run_floe("meta " + fixture("duckdb-iceberg/map_stats") + " files --snapshot 42");
  EXPECT_NE(snap.exit_code, 0);
  EXPECT_NE(snap.out.find("snapshot 42"), std::string::npos) << snap.out;
}

}  // namespace
