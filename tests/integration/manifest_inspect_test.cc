// End-to-end: `floe inspect --manifests / --entries` on fixture tables, table and JSON output.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "integration/cli_runner.h"

namespace {

namespace fs = std::filesystem;
const fs::path kFixtures = FLOE_FIXTURES_DIR;

using floe_test::CliRun;
using floe_test::run_floe;

// JSON lines after the first (the table metadata object).
std::vector<nlohmann::json> rows_after_metadata(const std::string& out) {
  std::vector<nlohmann::json> v;
  std::istringstream in(out);
  std::string line;
  bool first = true;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (first) {
      first = false;
      continue;
    }
    v.push_back(nlohmann::json::parse(line));
  }
  return v;
}

TEST(InspectManifests, TableReportShowsListEntriesAndTypedSummaries) {
  fs::path dir = kFixtures / "duckdb-iceberg/partition_timestamp";
  CliRun r = run_floe("inspect --manifests " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("snapshot 2508913168551256223"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("6b55fc2b-ce03-407e-9585-336c4675e611-m0.avro"), std::string::npos);
  EXPECT_NE(r.out.find("lower_bound: 2023-05-15T14:30:45"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("upper_bound: 2023-08-22T09:15:20"), std::string::npos) << r.out;
}

TEST(InspectManifests, DaySummariesRenderAsDates) {
  fs::path dir = kFixtures / "duckdb-iceberg/map_stats";
  CliRun r = run_floe("inspect --manifests " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("lower_bound: 2026-01-0"), std::string::npos) << r.out;
}

TEST(InspectManifests, JsonOneObjectPerManifest) {
  fs::path dir = kFixtures / "impala/iceberg_v2_delete_positional";
  CliRun r = run_floe("--format json inspect --manifests " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto rows = rows_after_metadata(r.out);
  ASSERT_GE(rows.size(), 2u);
  bool saw_deletes = false;
  for (const auto& m : rows) {
    EXPECT_TRUE(m.contains("manifest_path"));
    EXPECT_TRUE(m.contains("added_snapshot_id"));
    EXPECT_TRUE(m.contains("partitions"));
    saw_deletes |= m["content"] == "deletes";
  }
  EXPECT_TRUE(saw_deletes);
}

TEST(InspectManifests, EntriesWithMetricsByColumnName) {
  fs::path dir = kFixtures / "impala/iceberg_partitioned";
  CliRun r = run_floe("--format json inspect --entries " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto rows = rows_after_metadata(r.out);
  int entries = 0;
  for (const auto& row : rows) {
    if (!row.contains("data_file")) continue;
    ++entries;
    const auto& f = row["data_file"];
    EXPECT_EQ(row["status"], "ADDED");
    EXPECT_EQ(row["sequence_number"], 0);  // v1
    EXPECT_EQ(f["file_format"], "PARQUET");
    EXPECT_TRUE(f["partition"].contains("event_time_hour"));
    EXPECT_TRUE(f["partition"].contains("action"));
    EXPECT_TRUE(f["value_counts"].contains("event_time"));
    EXPECT_TRUE(f["lower_bounds"]["event_time"].is_string());
    EXPECT_EQ(f["record_count"], 1);
  }
  EXPECT_EQ(entries, 20);

  CliRun table = run_floe("inspect --entries " + dir.string());
  ASSERT_EQ(table.exit_code, 0);
  EXPECT_NE(table.out.find("event_time_hour=2020-01-01-09"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("2020-01-01T09:00:00+00:00"), std::string::npos);
}

TEST(InspectManifests, OneSnapshotAndUnknownSnapshot) {
  fs::path dir = kFixtures / "dremio/products_with_eq_deletes";
  CliRun all = run_floe("--format json inspect --manifests " + dir.string());
  CliRun one =
      run_floe("--format json inspect --manifests --snapshot " +
               std::to_string(rows_after_metadata(all.out).front()["snapshot-id"].get<int64_t>()) +
               " " + dir.string());
  ASSERT_EQ(one.exit_code, 0) << one.out;
  EXPECT_LT(rows_after_metadata(one.out).size(), rows_after_metadata(all.out).size());
  CliRun bad = run_floe("inspect --snapshot 42 " + dir.string());
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.out.find("42"), std::string::npos);
}

TEST(InspectManifests, ManifestsWithoutKeyValueMetadata) {
  fs::path dir = kFixtures / "duckdb-iceberg/large_partitioned_table";
  CliRun r = run_floe("--format json inspect --entries " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  int live = 0;
  for (const auto& row : rows_after_metadata(r.out)) {
    if (row.contains("data_file") && row["status"] != "DELETED") {
      ++live;
      EXPECT_TRUE(row["data_file"]["partition"].contains("joined_month"));
    }
  }
  EXPECT_EQ(live, 15);
}

}  // namespace
