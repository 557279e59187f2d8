// End-to-end: `floe bench listing` and `floe bench s3-read` through the built binary against the
// S3 test server (scripts/start-s3). Listing a Hive layout costs a LIST request per 1,000 keys
// and Iceberg's planning none, both find the same files and the query's rows agree; s3-read
// reports throughput for both sides; each run removes what it wrote. Listing on local disk is a
// directory walk.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "floe/io/s3_file_io.h"
#include "integration/cli_runner.h"
#include "s3/s3_test_util.h"
#include "test_support.h"

namespace floe {
namespace {

using floe_test::run_floe;
using s3_testing::s3_server;
using s3_testing::unique_prefix;

class CliBench : public ::testing::Test {
 protected:
  // Global options for a warehouse on the S3 server with its catalog in a local SQLite file.
  std::string on_s3(const std::string& args) {
    const auto& srv = s3_server();
    return "--warehouse " + warehouse_ + " --catalog sqlite:" + dir_.str() +
           "/catalog.db --conf s3.endpoint=" + srv.endpoint +
           " --conf s3.access-key-id=" + srv.access_key_id +
           " --conf s3.secret-access-key=" + srv.secret_access_key +
           " --conf client.region=" + (srv.region.empty() ? "us-east-1" : srv.region) +
           " --conf s3.path-style-access=true " + args;
  }
  // What is left under an S3 location.
  size_t files_under(const std::string& location) {
    auto io = make_s3_file_io(s3_testing::server_options());
    EXPECT_TRUE(io.ok()) << io.status().to_string();
    auto listed = (*io)->list(location);
    EXPECT_TRUE(listed.ok()) << listed.status().to_string();
    return listed.ok() ? listed->size() : 0;
  }
  nlohmann::json run_json(const std::string& args) {
    auto r = run_floe(args);
    EXPECT_EQ(r.exit_code, 0) << r.out;
    auto j = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(j.is_discarded()) << r.out;
    return j;
  }

  test_support::TempDir dir_{"floe-cli-bench"};
  std::string warehouse_ = unique_prefix("cli-bench");
};

TEST_F(CliBench, ListingCostsListRequestsThatPlanningAvoids) {
  FLOE_REQUIRE_S3_SERVER();
  auto j = run_json(on_s3("bench listing --partitions 120 --format json"));
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["storage"], "s3");
  EXPECT_EQ(j["files"], 120);
  const auto& hive = j["hive"];
  const auto& iceberg = j["iceberg"];
  // The Hive way listed every key of the layout, at least one LIST page per 1,000 keys.
  EXPECT_EQ(hive["keys_listed"], 120);
  const int64_t keys = hive["keys_listed"];
  EXPECT_GE(hive["list_requests"].get<int64_t>(), (keys + 999) / 1000);
  EXPECT_GT(hive["bytes_read"].get<int64_t>(), 0);
  // The Iceberg way never listed: it read the metadata JSON, the manifest list and the one
  // manifest its partition summaries could not skip (one commit a day: 5 manifests).
  EXPECT_EQ(iceberg["list_requests"], 0);
  EXPECT_GE(iceberg["get_requests"].get<int64_t>(), 3);
  EXPECT_EQ(iceberg["manifests_total"], 5);
  EXPECT_EQ(iceberg["manifests_scanned"], 1);
  EXPECT_EQ(iceberg["data_files_scanned"], 1);
  // Both found the one file of the partition, the same one, and the query's rows agree.
  EXPECT_EQ(hive["files"], 1);
  EXPECT_EQ(iceberg["files"], hive["files"]);
  EXPECT_EQ(j["same_files"], true);
  EXPECT_EQ(j["query"]["hive_rows"], 1000);
  EXPECT_EQ(j["query"]["iceberg_rows"], j["query"]["hive_rows"]);
  EXPECT_EQ(j["query"]["rows_agree"], true);
  EXPECT_GT(hive["ms"].get<double>(), 0);
  EXPECT_GT(iceberg["ms"].get<double>(), 0);
  // Nothing is left behind.
  EXPECT_EQ(j["kept"], false);
  EXPECT_EQ(files_under(j["location"].get<std::string>()), 0u);
}

TEST_F(CliBench, ListingOnLocalDiskWalksTheDirectory) {
  test_support::TempDir local{"floe-cli-bench-local"};
  auto r = run_floe("--warehouse " + local.str() +
                    " bench listing --partitions 30 --files-per-partition 2 --rows-per-file 10 "
                    "--keep");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("Hive: walk the directory"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Hive: listed 60 keys to keep 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("same files both ways: yes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Hive 20 rows"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Iceberg 20 rows"), std::string::npos) << r.out;
  // --keep: the Hive layout and the table stay.
  auto tables = run_floe("--warehouse " + local.str() + " sql \"SHOW TABLES IN floe_bench\"");
  EXPECT_NE(tables.out.find("listing_"), std::string::npos) << tables.out;
}

TEST_F(CliBench, S3ReadReportsBothSides) {
  FLOE_REQUIRE_S3_SERVER();
  auto j = run_json(on_s3("bench s3-read --rows 20000 --format json"));
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["rows"], 20000);
  for (const char* side : {"local", "s3"}) {
    const auto& s = j[side];
    EXPECT_GT(s["mb_per_s"].get<double>(), 0) << side;
    EXPECT_GT(s["rows_per_s"].get<double>(), 0) << side;
    EXPECT_GT(s["get_requests"].get<int64_t>(), 0) << side;
    EXPECT_GE(s["bytes_read"].get<int64_t>(), s["data_bytes"].get<int64_t>()) << side;
  }
  EXPECT_EQ(j["local"]["data_bytes"], j["s3"]["data_bytes"]);
  EXPECT_GT(j["s3_time_over_local"].get<double>(), 0);
  EXPECT_EQ(j["results_agree"], true);
  EXPECT_EQ(files_under(j["s3"]["location"].get<std::string>()), 0u);
}

TEST_F(CliBench, S3ReadWantsAnS3Warehouse) {
  auto r = run_floe("--warehouse " + dir_.str() + " bench s3-read --rows 10");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("give --warehouse s3://bucket/prefix"), std::string::npos) << r.out;
}

TEST_F(CliBench, AnS3WarehouseNeedsACatalog) {
  FLOE_REQUIRE_S3_SERVER();
  auto r = run_floe("--warehouse " + warehouse_ + " bench listing --partitions 2");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("needs its catalog named"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace floe
