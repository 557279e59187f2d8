// Position delete compaction: CALL system.rewrite_position_delete_files and the library's
// rewrite_position_deletes (floe/table/rewrite_position_deletes.h) on merge-on-read tables
// written through a Session: many small delete files of a partition become one with the same
// rows deleted, the new file keeps the highest data sequence number of those it replaces,
// positions of data files no longer live are dropped (and a file left with none goes), and a
// concurrent DELETE survives while a concurrent compaction that removed the delete files fails
// the rewrite cleanly.
#include "floe/table/rewrite_position_deletes.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "floe/sql/session.h"
#include "floe/table/rewrite_data_files.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

namespace fs = std::filesystem;
using testing::error_of;
using testing::must;
using testing::rows;

class RewritePositionDeletes : public testing::WarehouseTest {
 protected:
  // Partitions a and b, 4 INSERTs of 5 rows in each (ids 10*i+1..10*i+5 in a, 100+... in b):
  // one data file per partition and INSERT.
  void make_table(const std::string& properties) {
    must(s(),
         "CREATE TABLE db.t (id BIGINT, cat STRING, v STRING) USING iceberg PARTITIONED BY "
         "(cat) TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read'" +
             properties + ")");
    for (int i = 0; i < 4; ++i) {
      std::string values;
      for (int k = 1; k <= 5; ++k) {
        values += fmt::format("{}({}, 'a', 'x{}'), ({}, 'b', 'y')", values.empty() ? "" : ", ",
                              10 * i + k, k, 100 + 10 * i + k);
      }
      must(s(), "INSERT INTO db.t VALUES " + values);
    }
  }

  std::vector<std::string> all_rows() { return rows(s(), "SELECT * FROM db.t ORDER BY id"); }
  std::vector<std::string> deletes_per_partition() {
    return rows(s(), "SELECT partition.cat, count(*) FROM db.t.delete_files GROUP BY 1 ORDER BY 1");
  }
  std::string last_operation() {
    return rows(s(), "SELECT operation FROM db.t.snapshots ORDER BY committed_at DESC LIMIT 1")[0];
  }
  // Position delete files on disk that no snapshot references.
  std::vector<std::string> unreferenced_delete_files() {
    std::set<std::string> referenced;
    for (const auto& r : rows(s(), "SELECT file_path FROM db.t.all_delete_files")) {
      referenced.insert(r.substr(2, r.size() - 4));
    }
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir_.path / "db" / "t" / "data")) {
      const std::string p = e.path().string();
      if (e.is_regular_file() && p.find("-deletes.") != std::string::npos && !referenced.count(p)) {
        out.push_back(p);
      }
    }
    return out;
  }
};

// Six merge-on-read DELETEs leave six small delete files in each partition; the rewrite leaves
// one per partition deleting the same rows, committed as "replace", each new file keeping the
// highest data sequence number of the files it replaced.
TEST_F(RewritePositionDeletes, CompactsSmallDeleteFilesPerPartition) {
  make_table("");
  for (int k = 0; k < 6; ++k) {
    must(s(), fmt::format("DELETE FROM db.t WHERE id IN ({}, {})", 10 * (k % 4) + 1 + k / 4,
                          100 + 10 * (k % 4) + 1 + k / 4));
  }
  ASSERT_EQ(deletes_per_partition(), (std::vector<std::string>{R"(["a",6])", R"(["b",6])"}));
  const auto before = all_rows();
  ASSERT_EQ(before.size(), 40u - 12u);
  const int64_t last_delete_seq = table()->metadata()->current_snapshot()->sequence_number;
  const std::string bytes_before =
      rows(s(), "SELECT sum(file_size_in_bytes) FROM db.t.delete_files")[0];
  auto out = must(s(), "CALL system.rewrite_position_delete_files(table => 'db.t')");
  EXPECT_EQ(out.columns,
            (std::vector<std::string>{"rewritten_delete_files_count", "added_delete_files_count",
                                      "rewritten_bytes_count", "added_bytes_count"}));
  ASSERT_EQ(out.rows.size(), 1u);
  EXPECT_EQ(out.rows[0].substr(0, 6), "[12,2,");
  EXPECT_EQ("[" + out.rows[0].substr(6, out.rows[0].find(',', 6) - 6) + "]", bytes_before);
  const std::string added_bytes = out.rows[0].substr(
      out.rows[0].rfind(',') + 1, out.rows[0].size() - out.rows[0].rfind(',') - 2);
  EXPECT_EQ(rows(s(), "SELECT sum(file_size_in_bytes) FROM db.t.delete_files"),
            std::vector<std::string>{"[" + added_bytes + "]"});
  EXPECT_EQ(deletes_per_partition(), (std::vector<std::string>{R"(["a",1])", R"(["b",1])"}));
  EXPECT_EQ(rows(s(), "SELECT sum(record_count) FROM db.t.delete_files"),
            std::vector<std::string>{"[12]"});
  EXPECT_EQ(all_rows(), before);
  EXPECT_EQ(last_operation(), "[\"replace\"]");
  const int64_t rewrite_seq = table()->metadata()->current_snapshot()->sequence_number;
  EXPECT_EQ(rows(s(),
                 "SELECT DISTINCT status, sequence_number, file_sequence_number FROM db.t.entries "
                 "WHERE data_file.content = 1 AND status <> 2"),
            std::vector<std::string>{fmt::format("[1,{},{}]", last_delete_seq, rewrite_seq)});
  // Rows added after the rewrite are not deleted by it, and new deletes still apply.
  must(s(), "INSERT INTO db.t VALUES (1, 'a', 'again')");
  must(s(), "DELETE FROM db.t WHERE id = 3");
  EXPECT_EQ(rows(s(), "SELECT v FROM db.t WHERE id IN (1, 3)"),
            std::vector<std::string>{R"(["again"])"});
  // Nothing left to rewrite: no new snapshot.
  const auto snapshots = rows(s(), "SELECT count(*) FROM db.t.snapshots");
  EXPECT_EQ(rows(s(), "CALL system.rewrite_position_delete_files('db.t')"),
            std::vector<std::string>{"[0,0,0,0]"});
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t.snapshots"), snapshots);
}

// `where` limits the rewrite to the partitions that may hold matching rows; rewrite-all
// rewrites a partition of fewer files than min-input-files.
TEST_F(RewritePositionDeletes, WhereAndRewriteAll) {
  make_table("");
  must(s(), "DELETE FROM db.t WHERE id IN (1, 101)");
  must(s(), "DELETE FROM db.t WHERE id IN (11, 111)");
  const auto before = all_rows();
  EXPECT_EQ(rows(s(), "CALL system.rewrite_position_delete_files('db.t')"),
            std::vector<std::string>{"[0,0,0,0]"});
  auto out = must(s(),
                  "CALL system.rewrite_position_delete_files(table => 'db.t', options => "
                  "map('rewrite-all', 'true'), where => 'cat = ''a''')");
  EXPECT_EQ(out.rows[0].substr(0, 5), "[2,1,");
  EXPECT_EQ(deletes_per_partition(), (std::vector<std::string>{R"(["a",1])", R"(["b",2])"}));
  EXPECT_EQ(all_rows(), before);
  out = must(s(),
             "CALL system.rewrite_position_delete_files(table => 'db.t', options => "
             "map('min-input-files', '2'))");
  EXPECT_EQ(out.rows[0].substr(0, 5), "[2,1,");
  EXPECT_EQ(deletes_per_partition(), (std::vector<std::string>{R"(["a",1])", R"(["b",1])"}));
  EXPECT_EQ(all_rows(), before);
}

// Positions of data files a copy-on-write DELETE or a compaction removed apply to nothing: the
// rewrite drops them, and a delete file left with no position goes without a replacement.
TEST_F(RewritePositionDeletes, DanglingDeletesAreDropped) {
  make_table(", 'write.delete.granularity'='partition'");
  must(s(), "DELETE FROM db.t WHERE id IN (1, 11)");  // data files 0 and 1 of a
  must(s(), "DELETE FROM db.t WHERE id = 21");        // data file 2
  must(s(), "DELETE FROM db.t WHERE id IN (2, 32)");  // data files 0 and 3
  ASSERT_EQ(deletes_per_partition(), std::vector<std::string>{R"(["a",3])"});
  // Copy-on-write: data file 2 is rewritten without its deleted row and removed.
  must(s(), "ALTER TABLE db.t SET TBLPROPERTIES ('write.delete.mode'='copy-on-write')");
  must(s(), "DELETE FROM db.t WHERE id = 22");
  // A compaction of data file 3 that leaves the delete files.
  must(s(),
       "CALL system.rewrite_data_files(table => 'db.t', where => 'id = 31', options => "
       "map('rewrite-all', 'true', 'remove-dangling-deletes', 'false'))");
  ASSERT_EQ(deletes_per_partition(), std::vector<std::string>{R"(["a",3])"});
  const auto before = all_rows();
  auto t = table();
  RewritePositionDeletesOptions o;
  o.rewrite_all = true;
  auto r = rewrite_position_deletes(*t, o);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(r->rewritten_delete_files, 3);
  EXPECT_EQ(r->added_delete_files, 1);
  EXPECT_EQ(r->dangling_positions, 2);  // ids 21 and 32
  EXPECT_EQ(rows(s(), "SELECT record_count FROM db.t.delete_files"),
            std::vector<std::string>{"[3]"});  // ids 1, 2 and 11
  EXPECT_EQ(all_rows(), before);
  // Copy-on-write deletes in both remaining data files with deletes: every position dangles.
  must(s(), "DELETE FROM db.t WHERE id IN (3, 13)");
  const auto after_cow = all_rows();
  auto out = must(s(),
                  "CALL system.rewrite_position_delete_files(table => 'db.t', options => "
                  "map('rewrite-all', 'true'))");
  EXPECT_EQ(out.rows[0].substr(0, 5), "[1,0,");
  EXPECT_EQ(out.rows[0].substr(out.rows[0].size() - 3), ",0]");
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t.delete_files"), std::vector<std::string>{"[0]"});
  EXPECT_EQ(all_rows(), after_cow);
  EXPECT_EQ(after_cow.size(), 40u - 8u);
}

// Commits made while the rewrite reads the delete files: a merge-on-read DELETE in the same
// partition survives and both its deletes and the rewritten ones apply; a compaction that
// removed the rewritten delete files (as dangling) makes the rewrite fail with a conflict,
// leaving the table as the compaction left it and no file of the rewrite behind.
TEST_F(RewritePositionDeletes, ConcurrentCommits) {
  for (bool compaction : {false, true}) {
    SCOPED_TRACE(compaction ? "compaction" : "delete");
    must(s(), "DROP TABLE IF EXISTS db.t PURGE");
    make_table("");
    for (int i = 0; i < 4; ++i)
      must(s(), fmt::format("DELETE FROM db.t WHERE id = {}", 10 * i + 1));
    Session other(options());
    auto t = table();
    RewritePositionDeletesOptions o;
    o.min_input_files = 2;
    bool ran = false;
    o.progress = [&](int64_t, int64_t, int64_t, int64_t) {
      if (ran) return;
      ran = true;
      if (compaction) {
        must(other,
             "CALL system.rewrite_data_files(table => 'db.t', where => 'cat = ''a''', options "
             "=> map('rewrite-all', 'true'))");
      } else {
        must(other, "DELETE FROM db.t WHERE id IN (2, 12)");
      }
    };
    auto r = rewrite_position_deletes(*t, o);
    EXPECT_TRUE(ran);
    const auto after_concurrent = rows(other, "SELECT * FROM db.t ORDER BY id");
    const int64_t snapshots =
        std::stoll(rows(s(), "SELECT count(*) FROM db.t.snapshots")[0].substr(1));
    const int64_t concurrent_snapshot = table()->metadata()->current_snapshot()->snapshot_id;
    if (compaction) {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.status().kind(), ErrorKind::kCommitConflict) << r.status().to_string();
      EXPECT_NE(r.status().message().find("Missing required delete files"), std::string::npos);
      EXPECT_EQ(snapshots, 4 + 4 + 1);  // the INSERTs, the DELETEs and the compaction
      EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t.snapshots WHERE snapshot_id = " +
                              std::to_string(concurrent_snapshot) + " AND operation = 'replace'"),
                std::vector<std::string>{"[1]"});
      EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t.delete_files"),
                std::vector<std::string>{"[0]"});
    } else {
      ASSERT_TRUE(r.ok()) << r.status().to_string();
      EXPECT_EQ(r->rewritten_delete_files, 4);
      EXPECT_EQ(snapshots, 4 + 4 + 1 + 1);  // ..., the concurrent DELETE and the rewrite
      EXPECT_EQ(last_operation(), "[\"replace\"]");
      // The rewritten file and the concurrent DELETE's two.
      EXPECT_EQ(deletes_per_partition(), std::vector<std::string>{R"(["a",3])"});
    }
    EXPECT_EQ(all_rows(), after_concurrent);
    EXPECT_EQ(all_rows().size(), compaction ? 36u : 34u);
    EXPECT_EQ(unreferenced_delete_files(), std::vector<std::string>{});
  }
}

// Bad options are one clear error each and change nothing; a v3 table's deletion vectors are
// left alone.
TEST_F(RewritePositionDeletes, ArgumentsAndDeletionVectors) {
  make_table("");
  must(s(), "DELETE FROM db.t WHERE id = 1");
  const auto snapshots = rows(s(), "SELECT count(*) FROM db.t.snapshots");
  auto error = [&](const std::string& args) {
    return error_of(s(),
                    "CALL system.rewrite_position_delete_files(table => 'db.t', " + args + ")");
  };
  EXPECT_NE(error("options => map('min-input-file', '2')").find("no option 'min-input-file'"),
            std::string::npos);
  EXPECT_NE(error("options => map('rewrite-all', 'yes')").find("not true or false"),
            std::string::npos);
  EXPECT_NE(error("options => map('target-file-size-bytes', '100', 'max-file-size-bytes', '50')")
                .find("must be greater than target-file-size-bytes"),
            std::string::npos);
  EXPECT_NE(error("where => 'nope = 1'").find("nope"), std::string::npos);
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t.snapshots"), snapshots);

  must(s(),
       "CREATE TABLE db.v3 (id BIGINT) USING iceberg TBLPROPERTIES ('format-version'='3', "
       "'write.delete.mode'='merge-on-read')");
  for (int i = 0; i < 3; ++i) {
    must(s(), fmt::format("INSERT INTO db.v3 VALUES ({}), ({})", 2 * i, 2 * i + 1));
    must(s(), fmt::format("DELETE FROM db.v3 WHERE id = {}", 2 * i));
  }
  EXPECT_EQ(rows(s(),
                 "CALL system.rewrite_position_delete_files(table => 'db.v3', options => "
                 "map('rewrite-all', 'true'))"),
            std::vector<std::string>{"[0,0,0,0]"});
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.v3.delete_files"), std::vector<std::string>{"[3]"});
}

}  // namespace
}  // namespace floe::sql
