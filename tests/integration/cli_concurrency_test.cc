// Several `floe` processes appending to one table at once on the SQLite catalog lose no commit,
// and a process killed in the middle of a write leaves the table readable at its previous
// snapshot. (The PostgreSQL variant is in tests/postgres.)
#include "integration/cli_concurrency.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace {

using floe_test::CliConcurrency;

TEST_F(CliConcurrency, SqliteAppendsFromManyProcessesLoseNoCommit) {
  EXPECT_EQ(concurrent_appends(4, 25), 100);
}

// Without retries some writers lose the race: each says so, and commits nothing.
TEST_F(CliConcurrency, SqliteConflictsWithoutRetriesCommitNothing) {
  int successes = concurrent_appends(4, 10, /*retries=*/0);
  EXPECT_GT(successes, 0);
}

TEST_F(CliConcurrency, KilledWriterLeavesThePreviousSnapshotReadable) {
  sql("CREATE NAMESPACE db; CREATE TABLE db.t (id BIGINT, s STRING) PARTITIONED BY "
      "(bucket(8, id)); INSERT INTO db.t SELECT id, CAST(id AS STRING) FROM range(1000)",
      "table");
  auto before = rows("SELECT snapshot_id FROM db.t.snapshots");
  ASSERT_EQ(before.size(), 1u);

  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::string args = global() +
                       " sql \"INSERT INTO db.t SELECT id, repeat('x', 50) FROM "
                       "range(1000, 200000000)\"";
    execl("/bin/sh", "sh", "-c", (std::string("exec ") + FLOE_CLI_PATH + " " + args).c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  // Let it write data files for a while, then kill it before it can commit.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status));

  auto after = rows("SELECT snapshot_id FROM db.t.snapshots");
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0]["snapshot_id"], before[0]["snapshot_id"]);
  auto count = rows("SELECT count(*) AS n, sum(id) AS s FROM db.t");
  EXPECT_EQ(count[0]["n"], 1000);
  EXPECT_EQ(count[0]["s"], 999 * 1000 / 2);
  // The table still takes writes.
  sql("INSERT INTO db.t VALUES (5000, 'z')", "table");
  EXPECT_EQ(rows("SELECT count(*) AS n FROM db.t")[0]["n"], 1001);
}

}  // namespace
