// Commits on S3 under failures (S3Options::inject_fault in place of requests): with a share of
// requests failing by 503, SlowDown, resets and timeouts, a whole workload succeeds through
// retries with the same rows; when the retry budget runs out in the middle of a commit, the
// commit fails cleanly: the table is as it was, every file its metadata references is there,
// and the files the failed write made are gone.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <set>

#include "floe/catalog/catalog.h"
#include "floe/io/s3_file_io.h"
#include "floe/sql/session.h"
#include "s3/s3_test_util.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

using s3_testing::server_options;
using s3_testing::unique_prefix;

class S3CommitFaults : public ::testing::Test {
 protected:
  // A session on an S3 warehouse whose FileIO asks `fault` before every request.
  std::unique_ptr<Session> session(
      const std::string& warehouse,
      std::function<S3Options::Fault(std::string_view, std::string_view)> fault) {
    S3Options o = server_options();
    o.retry_base_delay_ms = 1;
    o.retry_max_delay_ms = 4;
    o.max_attempts = 4;
    o.inject_fault = std::move(fault);
    io_ = *make_s3_file_io(o);
    CatalogOptions co;
    co.warehouse = warehouse;
    co.io = io_;
    auto catalog = open_catalog("sqlite:" + (dir_.path / "catalog.db").string(), co);
    EXPECT_TRUE(catalog.ok()) << catalog.status().to_string();
    SessionOptions so;
    so.warehouse = warehouse;
    so.catalog = *catalog;
    so.current_namespace = {"db"};
    return std::make_unique<Session>(so);
  }

  std::set<std::string> files_under(const std::string& prefix) {
    FileIOPtr io = *make_s3_file_io(server_options());
    auto listed = io->list(prefix);  // kept: the loop must not range over a temporary's value
    EXPECT_TRUE(listed.ok()) << listed.status().to_string();
    std::set<std::string> out;
    if (listed.ok()) {
      for (const auto& f : *listed) out.insert(f.path);
    }
    return out;
  }

  test_support::TempDir dir_{"floe-s3-faults"};
  FileIOPtr io_;
};

TEST_F(S3CommitFaults, WorkloadSucceedsThroughRetries) {
  FLOE_REQUIRE_S3_SERVER();
  std::atomic<int64_t> calls{0};
  auto s = session(unique_prefix("flaky"), [&](std::string_view, std::string_view) {
    switch (calls++ % 5) {
      case 1:
        return S3Options::Fault::kServiceUnavailable;
      case 3:
        return calls % 2 ? S3Options::Fault::kReset : S3Options::Fault::kTimeout;
      default:
        return S3Options::Fault::kNone;
    }
  });
  testing::must(*s, "CREATE NAMESPACE db");
  testing::must(*s,
                "CREATE TABLE t (id BIGINT, cat STRING) USING iceberg PARTITIONED BY (cat) "
                "TBLPROPERTIES ('format-version' = '2', 'write.delete.mode' = 'merge-on-read')");
  for (int i = 0; i < 4; ++i) {
    testing::must(*s, fmt::format("INSERT INTO t SELECT id, concat('c', id % 3) FROM range({}, {})",
                                  i * 1000, (i + 1) * 1000));
  }
  testing::must(*s, "DELETE FROM t WHERE id % 10 = 0");
  EXPECT_EQ(testing::rows(*s, "SELECT count(*), sum(id) FROM t"),
            std::vector<std::string>{"[3600,7200000]"});
  EXPECT_EQ(testing::rows(*s, "SELECT count(*) FROM t.snapshots"), std::vector<std::string>{"[5]"});
  // A fifth of the requests failed and were sent again.
  EXPECT_GT(io_->counters().snapshot().retried_requests, calls.load() / 6);
}

TEST_F(S3CommitFaults, ExhaustedRetriesLeaveTheTableAsItWas) {
  FLOE_REQUIRE_S3_SERVER();
  const std::string warehouse = unique_prefix("budget");
  std::atomic<bool> broken{false};
  // Once broken: every PUT of table metadata fails, so INSERT's data files and manifests are
  // written and its commit cannot be.
  auto s = session(warehouse, [&](std::string_view method, std::string_view url) {
    if (broken && method == "PUT" && url.find(".metadata.json") != std::string_view::npos) {
      return S3Options::Fault::kServiceUnavailable;
    }
    return S3Options::Fault::kNone;
  });
  testing::must(*s, "CREATE NAMESPACE db");
  testing::must(*s, "CREATE TABLE t (id BIGINT, cat STRING) USING iceberg PARTITIONED BY (cat)");
  testing::must(*s, "INSERT INTO t SELECT id, concat('c', id % 3) FROM range(0, 1000)");
  const auto before_rows = testing::rows(*s, "SELECT count(*), sum(id) FROM t");
  const auto before_snapshots = testing::rows(*s, "SELECT snapshot_id FROM t.snapshots");
  const std::set<std::string> before_files = files_under(warehouse);

  broken = true;
  auto r = testing::run(*s, "INSERT INTO t SELECT id, concat('c', id % 3) FROM range(1000, 2000)");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("503"), std::string::npos) << r.status().message();
  broken = false;

  EXPECT_EQ(testing::rows(*s, "SELECT count(*), sum(id) FROM t"), before_rows);
  EXPECT_EQ(testing::rows(*s, "SELECT snapshot_id FROM t.snapshots"), before_snapshots);
  // Every file the metadata references is there ...
  FileIOPtr io = *make_s3_file_io(server_options());
  for (const auto& row : testing::rows(*s, "SELECT file_path FROM t.all_files")) {
    const std::string path = nlohmann::json::parse(row)[0];
    EXPECT_TRUE(*io->exists(path)) << path;
  }
  // ... and the failed write left nothing behind.
  EXPECT_EQ(files_under(warehouse), before_files);
  // The table takes the next write.
  testing::must(*s, "INSERT INTO t VALUES (5000, 'c9')");
  EXPECT_EQ(testing::rows(*s, "SELECT count(*) FROM t"), std::vector<std::string>{"[1001]"});
}

}  // namespace
}  // namespace floe::sql
