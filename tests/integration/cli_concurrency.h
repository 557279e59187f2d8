// Shared by the concurrency tests (tests/integration for SQLite, tests/postgres for PostgreSQL):
// a temp warehouse, `floe` runs against a chosen catalog, and N processes appending at once.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
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
  // With `retries` = commit.retry.num-retries high enough every commit lands; with few, some
  // fail with a commit conflict: each must say so and commit nothing, so the table holds
  // exactly the commits that succeeded. Returns the number that succeeded.
  int concurrent_appends(int processes, int inserts, int retries = 20) {
    // Many writers hammering one table retry more than Java's default 4 times, as such
    // deployments configure commit.retry.num-retries.
    sql("CREATE NAMESPACE IF NOT EXISTS db; CREATE TABLE db.t (p INT, i INT, payload STRING) "
        "PARTITIONED BY (p) TBLPROPERTIES ('commit.retry.num-retries' = '" +
            std::to_string(retries) + "', 'commit.retry.min-wait-ms' = '20')",
        "table");
    std::string script = dir_ + "/appenders.sh";
    {
      std::ofstream s(script);
      s << "#!/bin/sh\n";
      for (int p = 0; p < processes; ++p) {
        s << "( for i in $(seq 1 " << inserts << "); do if out=$(" << FLOE_CLI_PATH << " "
          << global() << " sql \"INSERT INTO db.t VALUES (" << p << ", $i, 'x'), (" << p
          << ", $i, 'y')\" 2>&1); then echo \"OK " << p << " $i\"; else echo \"FAILED " << p
          << " $i: $out\"; fi; done ) &\n";
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
    // Which (p, i) committed, and every failure is a clearly reported commit conflict.
    std::set<int64_t> committed;
    int failed = 0;
    {
      std::istringstream lines(out);
      std::string line;
      while (std::getline(lines, line)) {
        int p = 0, i = 0;
        if (std::sscanf(line.c_str(), "OK %d %d", &p, &i) == 2) {
          committed.insert(p * 1000 + i);
        } else if (line.starts_with("FAILED")) {
          ++failed;
          EXPECT_NE(line.find("failed, nothing of it was committed: the table changed since"),
                    std::string::npos)
              << line;
        }
      }
    }
    if (retries >= 20) {
      EXPECT_EQ(failed, 0) << out;
    }
    EXPECT_EQ(static_cast<int>(committed.size()) + failed, processes * inserts) << out;
    const int successes = static_cast<int>(committed.size());

    const int64_t expected = 2LL * successes;
    auto count = rows("SELECT count(*) AS n, count(DISTINCT p * 1000 + i) AS k FROM db.t");
    EXPECT_EQ(count.size(), 1u);
    if (count.size() != 1) return successes;
    EXPECT_EQ(count[0]["n"], expected);
    EXPECT_EQ(count[0]["k"], successes);
    // Exactly the inserts that reported success are in the table.
    auto keys = rows("SELECT DISTINCT p * 1000 + i AS k FROM db.t");
    std::set<int64_t> found;
    for (const auto& k : keys) found.insert(k["k"].get<int64_t>());
    EXPECT_EQ(found, committed);

    // Every snapshot's totals follow from its parent's: nothing was lost or counted twice.
    auto snaps = rows("SELECT snapshot_id, parent_id, summary FROM db.t.snapshots");
    EXPECT_EQ(snaps.size(), static_cast<size_t>(successes));
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
    EXPECT_EQ(roots, successes > 0 ? 1 : 0);
    if (successes == 0) return 0;
    // The current snapshot holds every row, and every snapshot is its ancestor.
    auto main_ref = rows("SELECT snapshot_id FROM db.t.refs WHERE name = 'main'");
    EXPECT_EQ(main_ref.size(), 1u);
    if (main_ref.size() != 1) return successes;
    const auto& current = by_id.at(main_ref[0]["snapshot_id"].get<int64_t>())["summary"];
    EXPECT_EQ(std::stoll(current["total-records"].get<std::string>()), expected);
    auto history = rows("SELECT snapshot_id FROM db.t.history WHERE is_current_ancestor");
    EXPECT_EQ(history.size(), static_cast<size_t>(successes));
    // A failed commit leaves no metadata file behind: one per commit plus the table's first.
    int metadata_files = 0;
    for (const auto& e : std::filesystem::directory_iterator(warehouse_ + "/db/t/metadata")) {
      if (e.path().string().ends_with(".metadata.json")) ++metadata_files;
    }
    EXPECT_EQ(metadata_files, successes + 1);
    return successes;
  }

  std::string dir_, warehouse_, catalog_, catalog_name_ = "lakehouse";
};

}  // namespace floe_test
