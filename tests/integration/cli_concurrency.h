// Shared by the concurrency tests (tests/integration for SQLite, tests/postgres for PostgreSQL):
// a temp warehouse, `floe` runs against a chosen catalog, and N processes appending at once.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "integration/cli_runner.h"

namespace floe_test {

class CliConcurrency : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/floe-conc-XXXXXX";
    dir_ = mkdtemp(tmpl);
    warehouse_ = dir_ + "/warehouse";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string global() const {
    std::string g = "--warehouse '" + warehouse_ + "'";
    if (!catalog_.empty()) g += " --catalog '" + catalog_ + "' --catalog-name " + catalog_name_;
    return g;
  }
  std::string sql(const std::string& statements, const std::string& format = "json") {
    auto r = run_floe(global() + " --format " + format + " sql \"" + statements + "\"");
    EXPECT_EQ(r.exit_code, 0) << statements << "\n" << r.out;
    return r.out;
  }
  std::vector<nlohmann::json> rows(const std::string& query) {
    std::vector<nlohmann::json> out;
    std::string text = sql(query);
    size_t start = 0;
    while (start < text.size()) {
      size_t nl = text.find('\n', start);
      std::string line = text.substr(start, nl == std::string::npos ? nl : nl - start);
      if (!line.empty()) out.push_back(nlohmann::json::parse(line));
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
    return out;
  }

  // `processes` shells each run `inserts` INSERT statements one after another, all at once.
  void concurrent_appends(int processes, int inserts) {
    // Many writers hammering one table retry more than Java's default 4 times, as such
    // deployments configure commit.retry.num-retries.
    sql("CREATE NAMESPACE IF NOT EXISTS db; CREATE TABLE db.t (p INT, i INT, payload STRING) "
        "PARTITIONED BY (p) TBLPROPERTIES ('commit.retry.num-retries' = '20', "
        "'commit.retry.min-wait-ms' = '20')",
        "table");
    std::string script = dir_ + "/appenders.sh";
    {
      std::ofstream s(script);
      s << "#!/bin/sh\n";
      for (int p = 0; p < processes; ++p) {
        s << "( for i in $(seq 1 " << inserts << "); do " << FLOE_CLI_PATH << " " << global()
          << " sql \"INSERT INTO db.t VALUES (" << p << ", $i, 'x'), (" << p
          << ", $i, 'y')\" || echo FAILED; done ) &\n";
      }
      s << "wait\n";
    }
    std::string out;
    {
      FILE* pipe = popen(("sh " + script + " 2>&1").c_str(), "r");
      char buf[4096];
      size_t n;
      while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
      pclose(pipe);
    }
    EXPECT_EQ(out.find("FAILED"), std::string::npos) << out;

    const int64_t expected = 2LL * processes * inserts;
    auto count = rows("SELECT count(*) AS n, count(DISTINCT p * 1000 + i) AS k FROM db.t");
    ASSERT_EQ(count.size(), 1u);
    EXPECT_EQ(count[0]["n"], expected);
    EXPECT_EQ(count[0]["k"], processes * inserts);

    // Every snapshot's totals follow from its parent's: nothing was lost or counted twice.
    auto snaps = rows("SELECT snapshot_id, parent_id, summary FROM db.t.snapshots");
    ASSERT_EQ(snaps.size(), static_cast<size_t>(processes * inserts));
    std::map<int64_t, nlohmann::json> by_id;
    for (const auto& s : snaps) by_id[s["snapshot_id"].get<int64_t>()] = s;
    int roots = 0;
    for (const auto& s : snaps) {
      const auto& summary = s["summary"];
      int64_t total = std::stoll(summary["total-records"].get<std::string>());
      int64_t added = std::stoll(summary["added-records"].get<std::string>());
      EXPECT_EQ(added, 2);
      if (s["parent_id"].is_null()) {
        ++roots;
        EXPECT_EQ(total, added);
        continue;
      }
      const auto& parent = by_id.at(s["parent_id"].get<int64_t>())["summary"];
      EXPECT_EQ(total, std::stoll(parent["total-records"].get<std::string>()) + added);
    }
    EXPECT_EQ(roots, 1);
    // The current snapshot holds every row, and every snapshot is its ancestor.
    auto main_ref = rows("SELECT snapshot_id FROM db.t.refs WHERE name = 'main'");
    ASSERT_EQ(main_ref.size(), 1u);
    const auto& current = by_id.at(main_ref[0]["snapshot_id"].get<int64_t>())["summary"];
    EXPECT_EQ(std::stoll(current["total-records"].get<std::string>()), expected);
    auto history = rows("SELECT snapshot_id FROM db.t.history WHERE is_current_ancestor");
    EXPECT_EQ(history.size(), static_cast<size_t>(processes * inserts));
  }

  std::string dir_, warehouse_, catalog_, catalog_name_ = "lakehouse";
};

}  // namespace floe_test
