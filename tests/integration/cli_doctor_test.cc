// End-to-end: `floe doctor TABLE` through the built binary — exit 1 and the failing checks with
// their fix on a table that needs maintenance, exit 0 on a healthy one, JSON for monitoring, and
// one clear error for a missing table.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "integration/cli_runner.h"
#include "test_support.h"

namespace {

using floe_test::run_floe;

class CliDoctor : public ::testing::Test {
 protected:
  std::string floe(const std::string& args) { return "--warehouse " + dir_.str() + " " + args; }
  void sql(const std::string& statements) {
    auto r = run_floe(floe("sql \"" + statements + "\""));
    ASSERT_EQ(r.exit_code, 0) << r.out;
  }
  floe::test_support::TempDir dir_{"floe-cli-doctor"};
};

TEST_F(CliDoctor, ExitsOneWhenMaintenanceIsDue) {
  std::string s =
      "CREATE NAMESPACE db; CREATE TABLE db.t (id BIGINT, day DATE) USING iceberg PARTITIONED "
      "BY (day) TBLPROPERTIES ('write.delete.mode' = 'merge-on-read')";
  for (int i = 0; i < 6; ++i) {
    s += fmt::format(
        "; INSERT INTO db.t VALUES ({}, DATE '2026-01-01'), ({}, DATE "
        "'2026-01-01')",
        2 * i, 2 * i + 1);
  }
  for (int i = 0; i < 12; ++i) s += fmt::format("; DELETE FROM db.t WHERE id = {}", i % 6 * 2);
  sql(s);
  auto text = run_floe(floe("doctor db.t"));
  EXPECT_EQ(text.exit_code, 1) << text.out;
  EXPECT_NE(text.out.find("[WARN] small-files"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("fix: CALL system.rewrite_data_files(table => 'db.t')"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("read metadata only:"), std::string::npos) << text.out;

  auto json = run_floe(floe("doctor db.t --format json --no-orphans"));
  EXPECT_EQ(json.exit_code, 1) << json.out;
  auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["table"], "db.t");
  EXPECT_EQ(j["passed"], false);
  EXPECT_TRUE(j["took_ms"].is_number());
  bool small_warned = false, orphans_checked = false;
  for (const auto& f : j["findings"]) {
    if (f["check"] == "small-files") {
      small_warned = f["status"] == "warn";
      EXPECT_EQ(f["numbers"]["data_files"], 6);
    }
    orphans_checked |= f["check"] == "orphans";
  }
  EXPECT_TRUE(small_warned);
  EXPECT_FALSE(orphans_checked);
  // Raised thresholds pass the same table.
  auto lenient = run_floe(
      floe("doctor db.t --min-small-files 100 --deleted-ratio 1.5 --max-delete-files-per-partition "
           "100 --max-deletes-per-file 100"));
  EXPECT_EQ(lenient.exit_code, 0) << lenient.out;
}

TEST_F(CliDoctor, ExitsZeroOnAHealthyTable) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (id BIGINT) USING iceberg; INSERT INTO db.t "
      "VALUES (1), (2)");
  auto r = run_floe(floe("doctor db.t"));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("healthy"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("[WARN]"), std::string::npos) << r.out;
}

TEST_F(CliDoctor, AMissingTableIsOneError) {
  sql("CREATE NAMESPACE db");
  auto r = run_floe(floe("doctor db.nope"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out.rfind("floe: ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("nope"), std::string::npos) << r.out;
}

}  // namespace
