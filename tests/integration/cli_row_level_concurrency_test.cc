// Row-level changes from concurrent `floe` processes on the SQLite catalog: merge-on-read
// deletes of disjoint partitions all commit (their retries pass Java's row-delta validation),
// and a delete racing a process that removes the files it refers to either commits before the
// removal or fails with a clear conflict, never adding deletes of a file that is gone.
#include <fstream>

#include "integration/cli_concurrency.h"

namespace {

using floe_test::CliConcurrency;

class RowLevelConcurrency : public CliConcurrency {
 protected:
  // Runs each shell loop in the background at once; returns the output of all.
  std::string run_parallel(const std::vector<std::string>& loops) {
    std::string script = dir_ + "/parallel.sh";
    {
      std::ofstream s(script);
      s << "#!/bin/sh\n";
      for (const auto& loop : loops) s << "( " << loop << " ) &\n";
      s << "wait\n";
    }
    std::string out;
    FILE* pipe = popen(("sh " + script + " 2>&1").c_str(), "r");
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
    pclose(pipe);
    return out;
  }
  // A shell loop running `statement` (with $k = 0..count-1) and printing OK/FAILED per run.
  std::string loop(const std::string& tag, int count, const std::string& statement) {
    return "for k in $(seq 0 " + std::to_string(count - 1) + "); do if out=$(" + FLOE_CLI_PATH +
           " " + global() + " sql \"" + statement + "\" 2>&1); then echo \"OK " + tag +
           " $k\"; else echo \"FAILED " + tag + " $k: $out\"; fi; done";
  }
  int64_t count(const std::string& where) {
    return rows("SELECT count(*) AS n FROM db.t WHERE " + where)[0]["n"].get<int64_t>();
  }
};

TEST_F(RowLevelConcurrency, DeletesOfDisjointPartitionsAllCommit) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (p INT, id BIGINT) PARTITIONED BY (p) "
      "TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read', "
      "'commit.retry.num-retries'='20', 'commit.retry.min-wait-ms'='20'); "
      "INSERT INTO db.t SELECT CAST(id % 2 AS INT), id FROM range(200000)",
      "table");
  std::string out =
      run_parallel({loop("p0", 6, "DELETE FROM db.t WHERE p = 0 AND id % 12 = 2 * $k"),
                    loop("p1", 6, "DELETE FROM db.t WHERE p = 1 AND id % 12 = 2 * $k + 1")});
  EXPECT_EQ(out.find("FAILED"), std::string::npos) << out;
  // Every row with id % 12 in 0..11 went: each partition kept nothing of its residues.
  EXPECT_EQ(count("true"), 0) << out;
  auto snaps = rows("SELECT count(*) AS n FROM db.t.snapshots WHERE operation = 'delete'");
  EXPECT_EQ(snaps[0]["n"], 12);
  auto deletes = rows("SELECT count(*) AS n, sum(record_count) AS r FROM db.t.delete_files");
  EXPECT_EQ(deletes[0]["n"], 12);
  EXPECT_EQ(deletes[0]["r"], 200000);
}

TEST_F(RowLevelConcurrency, DeleteRacingTheRemovalOfItsFileFailsCleanly) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (p INT, id BIGINT) PARTITIONED BY (p) "
      "TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read', "
      "'commit.retry.num-retries'='20', 'commit.retry.min-wait-ms'='5'); "
      "INSERT INTO db.t SELECT CAST(id % 2 AS INT), id FROM range(400000)",
      "table");
  // One process deletes rows of partition 0 again and again; the other drops partition 0 (a
  // metadata-only delete of its file) partway through.
  std::string out =
      run_parallel({loop("rows", 12, "DELETE FROM db.t WHERE p = 0 AND id % 24 = 2 * $k"),
                    "sleep 0.3; " + loop("partition", 1, "DELETE FROM db.t WHERE p = 0")});
  std::istringstream lines(out);
  std::string line;
  int failed = 0;
  while (std::getline(lines, line)) {
    if (!line.starts_with("FAILED")) continue;
    ++failed;
    // Only the row deletes can lose: their file was removed under them.
    EXPECT_TRUE(line.starts_with("FAILED rows")) << line;
    EXPECT_NE(line.find("commit conflict: DELETE on db.t: Cannot commit, missing data files"),
              std::string::npos)
        << line;
  }
  EXPECT_NE(out.find("OK partition 0"), std::string::npos) << out;
  // The table reads: partition 0 is gone, partition 1 untouched, and no snapshot after the
  // removal added deletes (a row delete that scanned the removed file and committed after it
  // would have).
  EXPECT_EQ(count("p = 0"), 0);
  EXPECT_EQ(count("p = 1"), 200000);
  auto snaps = rows("SELECT summary FROM db.t.snapshots ORDER BY committed_at");
  bool removed = false;
  for (const auto& snap : snaps) {
    const auto& summary = snap["summary"];
    if (removed) {
      EXPECT_FALSE(summary.contains("added-delete-files")) << summary.dump();
    }
    removed |= summary.contains("deleted-data-files");
  }
  EXPECT_TRUE(removed);
  std::cout << failed << " of 12 row deletes lost the race\n";
}

}  // namespace
