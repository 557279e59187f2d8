// End-to-end: `floe inspect` on fixture tables reports what the metadata file itself says.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "integration/cli_runner.h"

namespace {

namespace fs = std::filesystem;
const fs::path kFixtures = FLOE_FIXTURES_DIR;

using floe_test::CliRun;
using floe_test::run_floe;

nlohmann::json raw_json(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

struct Case {
  const char* table;
  const char* current_file;
};

class InspectJsonTest : public ::testing::TestWithParam<Case> {};

TEST_P(InspectJsonTest, ReportsWhatTheFileSays) {
  const Case& c = GetParam();
  fs::path dir = kFixtures / c.table;
  CliRun r = run_floe("inspect --format json " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto got = nlohmann::json::parse(r.out);
  fs::path file = dir / "metadata" / c.current_file;
  EXPECT_EQ(fs::path(got["metadata-file"].get<std::string>()).filename(), file.filename());
  auto raw = raw_json(file);

  EXPECT_EQ(got["format-version"], raw["format-version"]);
  EXPECT_EQ(got["snapshots"].size(), raw.value("snapshots", nlohmann::json::array()).size());
  auto raw_current = raw.value("current-snapshot-id", nlohmann::json(-1));
  if (raw_current.is_null()) raw_current = -1;
  auto got_current =
      got["current-snapshot-id"].is_null() ? nlohmann::json(-1) : got["current-snapshot-id"];
  EXPECT_EQ(got_current, raw_current);
  // Schema fields of the current schema, by id, name, type and required flag.
  auto find_by_id = [](const nlohmann::json& list, const char* key, const nlohmann::json& id) {
    for (const auto& x : list) {
      if (x.value(key, 0) == id) return x;
    }
    return nlohmann::json();
  };
  nlohmann::json raw_schema =
      raw.contains("schemas") ? find_by_id(raw["schemas"], "schema-id", raw["current-schema-id"])
                              : raw["schema"];
  nlohmann::json got_schema = find_by_id(got["schemas"], "schema-id", got["current-schema-id"]);
  ASSERT_EQ(got_schema["fields"].size(), raw_schema["fields"].size());
  for (size_t i = 0; i < raw_schema["fields"].size(); ++i) {
    EXPECT_EQ(got_schema["fields"][i]["id"], raw_schema["fields"][i]["id"]);
    EXPECT_EQ(got_schema["fields"][i]["name"], raw_schema["fields"][i]["name"]);
    EXPECT_EQ(got_schema["fields"][i]["required"], raw_schema["fields"][i]["required"]);
  }
  // Partition fields of every spec.
  if (raw.contains("partition-specs")) {
    ASSERT_EQ(got["partition-specs"].size(), raw["partition-specs"].size());
    for (size_t s = 0; s < raw["partition-specs"].size(); ++s) {
      const auto& rf = raw["partition-specs"][s]["fields"];
      const auto& gf = got["partition-specs"][s]["fields"];
      ASSERT_EQ(gf.size(), rf.size());
      for (size_t i = 0; i < rf.size(); ++i) {
        EXPECT_EQ(gf[i]["source-id"], rf[i]["source-id"]);
        EXPECT_EQ(gf[i]["name"], rf[i]["name"]);
        EXPECT_EQ(gf[i]["transform"], rf[i]["transform"]);
        if (rf[i].contains("field-id")) {
          EXPECT_EQ(gf[i]["field-id"], rf[i]["field-id"]);
        }
      }
    }
  } else {
    ASSERT_EQ(got["partition-spec"].size(), raw["partition-spec"].size());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, InspectJsonTest,
    ::testing::Values(Case{"duckdb-iceberg/equality_deletes_mytable", "v7.metadata.json"},
                      Case{"duckdb-iceberg/partition_bucket_test", "v2.metadata.json"},
                      Case{"duckdb-iceberg/hive_partitioned_table", "v4.metadata.json"},
                      Case{"impala/iceberg_v3_deletion_vectors", "v3.metadata.json"},
                      Case{"impala/iceberg_v2_delete_equality_partition_evolution",
                           "v4.metadata.json"},
                      Case{"dremio/partitionednation", "v2.metadata.json"},
                      Case{"impala/iceberg_timestamp_part", "v2.metadata.json"}));

TEST(InspectTest, TableReportNamesEverySection) {
  CliRun r = run_floe("inspect " + (kFixtures / "duckdb-iceberg/partition_bucket_test").string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  for (const char* s : {"format version", "table uuid", "location", "current snapshot",
                        "last sequence number", "schemas (", "partition specs (", "bucket[10]",
                        "sort orders (", "refs (", "snapshots (", "properties ("}) {
    EXPECT_NE(r.out.find(s), std::string::npos) << "missing '" << s << "' in\n" << r.out;
  }
}

TEST(InspectTest, GlobalOptionsWorkBeforeAndAfterTheCommand) {
  std::string dir = (kFixtures / "duckdb-iceberg/partition_bucket_test").string();
  CliRun before = run_floe("--format json inspect " + dir);
  CliRun after = run_floe("inspect " + dir + " --format json");
  ASSERT_EQ(before.exit_code, 0) << before.out;
  EXPECT_EQ(before.out, after.out);
  EXPECT_EQ(before.out.front(), '{');
}

TEST(InspectTest, ErrorsAreOneClearLine) {
  CliRun missing = run_floe("inspect /nonexistent/table");
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.out.find("floe: not found"), std::string::npos) << missing.out;
  EXPECT_EQ(std::count(missing.out.begin(), missing.out.end(), '\n'), 1) << missing.out;

  CliRun invalid = run_floe(
      "inspect " +
      (kFixtures / "iceberg-java/table-metadata/TableMetadataV2MissingSchemas.json").string());
  EXPECT_NE(invalid.exit_code, 0);
  EXPECT_NE(invalid.out.find("schemas"), std::string::npos) << invalid.out;
  EXPECT_NE(invalid.out.find("TableMetadataV2MissingSchemas.json"), std::string::npos);
}

}  // namespace
