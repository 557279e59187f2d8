// Compaction: CALL system.rewrite_data_files and the library's rewrite_data_files
// (floe/table/rewrite_data_files.h) on tables written through a Session: the rows stay the same
// with every delete applied, delete files that applied only to rewritten files go, the new files
// keep the starting snapshot's sequence number, candidates and groups follow Java's bin-pack
// options, and concurrent commits either survive (appends) or fail the rewrite cleanly.
#include "floe/table/rewrite_data_files.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "floe/sql/session.h"
#include "floe/table/upsert.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

namespace fs = std::filesystem;
using testing::error_of;
using testing::must;
using testing::rows;

class RewriteDataFiles : public testing::WarehouseTest {
 protected:
  // Partitions a and b, `files` single-insert files each of two rows (ids 10*i+1, 10*i+2 in a,
  // 100+... in b), in a table with `properties`.
  void make_table(const std::string& properties, int files = 6) {
    must(s(),
         "CREATE TABLE db.t (id BIGINT, cat STRING, v STRING) USING iceberg PARTITIONED BY "
         "(cat) TBLPROPERTIES (" +
             properties + ")");
    for (int i = 0; i < files; ++i) {
      const int a = 10 * i + 1, b = 100 + 10 * i + 1;
      must(s(), "INSERT INTO db.t VALUES (" + std::to_string(a) + ", 'a', 'x" + std::to_string(a) +
                    "'), (" + std::to_string(a + 1) + ", 'a', 'y'), (" + std::to_string(b) +
                    ", 'b', 'z'), (" + std::to_string(b + 1) + ", 'b', NULL)");
    }
  }

  std::vector<std::string> all_rows() { return rows(s(), "SELECT * FROM db.t ORDER BY id"); }
  int64_t count(const std::string& sql) { return std::stoll(rows(s(), sql)[0].substr(1)); }
  int64_t data_files() { return count("SELECT count(*) FROM db.t.data_files"); }
  int64_t delete_files() { return count("SELECT count(*) FROM db.t.delete_files"); }
  int64_t snapshots() { return count("SELECT count(*) FROM db.t.snapshots"); }
  std::string last_operation() {
    return rows(s(), "SELECT operation FROM db.t.snapshots ORDER BY committed_at DESC LIMIT 1")[0];
  }
  std::set<std::string> stored_data_files() const {
    std::set<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir_.path / "db" / "t" / "data")) {
      if (e.is_regular_file()) out.insert(e.path().string());
    }
    return out;
  }
};

// Merge-on-read deletes on v2 (position delete files) and v3 (deletion vectors): the rewrite
// keeps exactly the live rows, writes one file per partition, removes every delete file with
// the files they applied to, commits a "replace" snapshot and keeps the starting sequence
// number on the new files.
TEST_F(RewriteDataFiles, CompactsSmallFilesAndAppliesEveryDelete) {
  for (int version : {2, 3}) {
    SCOPED_TRACE("v" + std::to_string(version));
    must(s(), "DROP TABLE IF EXISTS db.t");
    make_table("'format-version'='" + std::to_string(version) +
               "', 'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read'");
    must(s(), "DELETE FROM db.t WHERE id IN (2, 31, 101, 152)");
    must(s(), "UPDATE db.t SET v = 'u' WHERE id = 41");
    const auto before = all_rows();
    ASSERT_EQ(before.size(), 20u);
    const int64_t files_before = data_files();
    const int64_t deletes_before = delete_files();
    const int64_t bytes_before = count("SELECT sum(file_size_in_bytes) FROM db.t.data_files");
    ASSERT_GT(deletes_before, 0);
    const int64_t start_seq = table()->metadata()->current_snapshot()->sequence_number;
    auto out = must(s(), "CALL system.rewrite_data_files('db.t')");
    EXPECT_EQ(out.columns,
              (std::vector<std::string>{"rewritten_data_files_count", "added_data_files_count",
                                        "rewritten_bytes_count", "failed_data_files_count",
                                        "removed_delete_files_count"}));
    EXPECT_EQ(out.rows, std::vector<std::string>{fmt::format("[{},2,{},0,{}]", files_before,
                                                             bytes_before, deletes_before)});
    EXPECT_EQ(all_rows(), before);
    EXPECT_EQ(data_files(), 2);
    EXPECT_EQ(delete_files(), 0);
    EXPECT_EQ(last_operation(), "[\"replace\"]");
    // The new files keep the sequence number of the snapshot the rewrite started from.
    EXPECT_EQ(rows(s(), "SELECT DISTINCT sequence_number FROM db.t.entries WHERE status = 1"),
              std::vector<std::string>{fmt::format("[{}]", start_seq)});
  }
}

// Java's candidates and groups: small files of a partition are rewritten when there are at least
// min-input-files of them (5), a partition of two small files only with a lower minimum, and
// `where` limits the rewrite to files that may hold matching rows.
TEST_F(RewriteDataFiles, MinInputFilesAndWhereChooseTheFiles) {
  make_table("'format-version'='2'");
  for (int i = 0; i < 2; ++i) {
    must(s(), "INSERT INTO db.t VALUES (" + std::to_string(500 + i) + ", 'c', 'w')");
  }
  const auto before = all_rows();
  // a and b: 6 files each; c: 2 files.
  auto out = must(s(), "CALL system.rewrite_data_files(table => 'db.t')");
  EXPECT_EQ(out.rows[0].substr(0, 6), "[12,2,");
  EXPECT_EQ(count("SELECT count(*) FROM db.t.data_files WHERE partition.cat = 'c'"), 2);
  out = must(s(),
             "CALL system.rewrite_data_files(table => 'db.t', options => map('min-input-files', "
             "'2'), where => 'cat = ''c''')");
  EXPECT_EQ(out.rows[0].substr(0, 5), "[2,1,");
  EXPECT_EQ(data_files(), 3);
  EXPECT_EQ(all_rows(), before);
  // Nothing left to do: no new snapshot.
  const int64_t n = snapshots();
  out = must(s(), "CALL system.rewrite_data_files(table => 'db.t')");
  EXPECT_EQ(out.rows, std::vector<std::string>{"[0,0,0,0,0]"});
  EXPECT_EQ(snapshots(), n);
  // rewrite-all rewrites even a partition of one file.
  out = must(s(),
             "CALL system.rewrite_data_files(table => 'db.t', options => map('rewrite-all', "
             "'true'))");
  EXPECT_EQ(out.rows[0].substr(0, 5), "[3,3,");
  EXPECT_EQ(all_rows(), before);
}

// A table without snapshots has nothing to rewrite; bad arguments are one clear error each and
// change nothing.
TEST_F(RewriteDataFiles, ArgumentsAreChecked) {
  must(s(), "CREATE TABLE db.t (id BIGINT, cat STRING) USING iceberg");
  EXPECT_EQ(rows(s(), "CALL system.rewrite_data_files('db.t')"),
            std::vector<std::string>{"[0,0,0,0,0]"});
  must(s(), "INSERT INTO db.t VALUES (1, 'a')");
  must(s(), "INSERT INTO db.t VALUES (2, 'a')");
  const int64_t n = snapshots();
  auto error = [&](const std::string& args) {
    return error_of(s(), "CALL system.rewrite_data_files(table => 'db.t', " + args + ")");
  };
  EXPECT_NE(error("options => map('min-input-file', '2')").find("no option 'min-input-file'"),
            std::string::npos);
  EXPECT_NE(error("options => map('min-input-files', 'two')").find("'two' is not an integer"),
            std::string::npos);
  EXPECT_NE(
      error("options => map('min-input-files', '0')").find("min-input-files must be positive"),
      std::string::npos);
  EXPECT_NE(error("options => map('target-file-size-bytes', '1000', 'min-file-size-bytes', "
                  "'1000')")
                .find("must be less than target-file-size-bytes"),
            std::string::npos);
  EXPECT_NE(error("options => map('rewrite-all', 'yes')").find("not true or false"),
            std::string::npos);
  EXPECT_NE(error("strategy => 'zorder'").find("unknown strategy 'zorder' (binpack or sort)"),
            std::string::npos);
  EXPECT_NE(error("strategy => 'sort'").find("Cannot sort data without a valid sort order"),
            std::string::npos);
  EXPECT_NE(error("sort_order => 'zorder(id, cat)'").find("z-order"), std::string::npos);
  EXPECT_NE(error("strategy => 'binpack', sort_order => 'id'").find("needs strategy => 'sort'"),
            std::string::npos);
  EXPECT_NE(error("sort_order => 'nope DESC'").find("cannot sort by nope: no column nope"),
            std::string::npos);
  EXPECT_NE(error("sort_order => 'id DESC NULLS'").find("cannot parse sort_order 'id DESC NULLS'"),
            std::string::npos);
  EXPECT_NE(error("sort_order => 'bucket(0, id)'").find("needs a positive width"),
            std::string::npos);
  EXPECT_NE(error("sort_order => 'id', options => map('shuffle-partitions-per-file', '0')")
                .find("shuffle-partitions-per-file must be positive"),
            std::string::npos);
  EXPECT_NE(error("where => 'nope > 1'").find("nope"), std::string::npos);
  EXPECT_NE(error("options => 'min-input-files=2'").find("options must be a map"),
            std::string::npos);
  EXPECT_NE(error_of(s(), "CALL system.rewrite_data_files(table => 'db.missing')").find("missing"),
            std::string::npos);
  EXPECT_EQ(snapshots(), n);
}

// The sort strategy: the same candidates as bin-pack, each group's live rows written in the
// order given (sort_order, Spark's syntax) or the table's write order. Files carry the order's
// id when the table has that order, else 0.
TEST_F(RewriteDataFiles, SortStrategyWritesEachFileInOrder) {
  make_table("'format-version'='2', 'write.delete.mode'='merge-on-read'");
  must(s(), "DELETE FROM db.t WHERE id IN (12, 41, 111)");
  const auto before = all_rows();
  // Rows of each file in file order (by _pos), as [id, v].
  auto files_in_order = [&]() {
    std::map<std::string, std::map<int64_t, std::string>> by_file;
    for (const auto& r : rows(s(), "SELECT _file, _pos, id, v FROM db.t")) {
      auto j = nlohmann::json::parse(r);
      by_file[j[0]][j[1].get<int64_t>()] = nlohmann::json::array({j[2], j[3]}).dump();
    }
    std::vector<std::vector<std::string>> out;
    for (const auto& [file, at] : by_file) {
      out.emplace_back();
      for (const auto& [pos, row] : at) out.back().push_back(row);
    }
    return out;
  };
  auto out = must(s(),
                  "CALL system.rewrite_data_files(table => 'db.t', strategy => 'sort', "
                  "sort_order => 'id DESC NULLS LAST')");
  EXPECT_EQ(out.rows[0].substr(0, 6), "[12,2,");
  EXPECT_EQ(all_rows(), before);
  EXPECT_EQ(delete_files(), 0);
  auto files = files_in_order();
  ASSERT_EQ(files.size(), 2u);
  for (const auto& f : files) {
    std::vector<std::string> want = f;
    std::sort(want.begin(), want.end(), [](const std::string& a, const std::string& b) {
      return nlohmann::json::parse(a)[0] > nlohmann::json::parse(b)[0];
    });
    EXPECT_EQ(f, want);
  }
  // Not one of the table's orders: the files say unsorted.
  EXPECT_EQ(rows(s(), "SELECT DISTINCT sort_order_id FROM db.t.files"),
            std::vector<std::string>{"[0]"});

  // The table's write order, nulls first: v ASC, then id DESC. A sort_order alone means the
  // sort strategy, as in Spark.
  must(s(), "ALTER TABLE db.t WRITE ORDERED BY v, id DESC");
  const int32_t order_id = table()->metadata()->default_sort_order_id;
  ASSERT_GT(order_id, 0);
  out = must(s(),
             "CALL system.rewrite_data_files(table => 'db.t', strategy => 'sort', options => "
             "map('rewrite-all', 'true'))");
  EXPECT_EQ(out.rows[0].substr(0, 5), "[2,2,");
  EXPECT_EQ(all_rows(), before);
  EXPECT_EQ(rows(s(), "SELECT DISTINCT sort_order_id FROM db.t.files"),
            std::vector<std::string>{fmt::format("[{}]", order_id)});
  for (const auto& f : files_in_order()) {
    std::vector<std::string> want = f;
    std::stable_sort(want.begin(), want.end(), [](const std::string& a, const std::string& b) {
      auto x = nlohmann::json::parse(a), y = nlohmann::json::parse(b);
      if (x[1].is_null() != y[1].is_null()) return x[1].is_null();
      if (!x[1].is_null() && x[1] != y[1]) return x[1] < y[1];
      return x[0] > y[0];
    });
    EXPECT_EQ(f, want);
  }
  // The same order given as sort_order is the table's order: its id again.
  out = must(s(),
             "CALL system.rewrite_data_files(table => 'db.t', sort_order => 'v ASC NULLS FIRST, "
             "id DESC NULLS LAST', options => map('rewrite-all', 'true'))");
  EXPECT_EQ(out.rows[0].substr(0, 5), "[2,2,");
  EXPECT_EQ(rows(s(), "SELECT DISTINCT sort_order_id FROM db.t.files"),
            std::vector<std::string>{fmt::format("[{}]", order_id)});
  // Through a transform: truncate(1, v) groups 'x..' values, then id ascending.
  out = must(s(),
             "CALL system.rewrite_data_files(table => 'db.t', sort_order => 'truncate(v, 1) DESC "
             "NULLS LAST, id', options => map('rewrite-all', 'true'))");
  for (const auto& f : files_in_order()) {
    std::vector<std::string> want = f;
    std::stable_sort(want.begin(), want.end(), [](const std::string& a, const std::string& b) {
      auto x = nlohmann::json::parse(a), y = nlohmann::json::parse(b);
      if (x[1].is_null() != y[1].is_null()) return y[1].is_null();
      if (!x[1].is_null()) {
        std::string p = x[1].get<std::string>().substr(0, 1);
        std::string q = y[1].get<std::string>().substr(0, 1);
        if (p != q) return p > q;
      }
      return x[0] < y[0];
    });
    EXPECT_EQ(f, want);
  }
  EXPECT_EQ(all_rows(), before);
}

// With partial progress each group (partition) commits on its own.
TEST_F(RewriteDataFiles, PartialProgressCommitsGroupsApart) {
  make_table("'format-version'='2'");
  const auto before = all_rows();
  const int64_t n = snapshots();
  auto out = must(s(),
                  "CALL system.rewrite_data_files(table => 'db.t', options => "
                  "map('partial-progress.enabled', 'true', 'partial-progress.max-commits', '5'))");
  EXPECT_EQ(out.rows[0].substr(0, 6), "[12,2,");
  EXPECT_EQ(snapshots(), n + 2);
  EXPECT_EQ(all_rows(), before);
}

// A position delete file of partition granularity covering two data files goes only when both
// are rewritten; until then it still applies to the other one.
TEST_F(RewriteDataFiles, DeleteFilesOfFilesLeftAloneStay) {
  make_table(
      "'format-version'='2', 'write.delete.mode'='merge-on-read', "
      "'write.delete.granularity'='partition'");
  must(s(), "DELETE FROM db.t WHERE id IN (1, 11)");  // two files of partition a, one delete file
  ASSERT_EQ(delete_files(), 1);
  const auto before = all_rows();
  auto out = must(s(),
                  "CALL system.rewrite_data_files(table => 'db.t', where => 'id = 1', options => "
                  "map('rewrite-all', 'true'))");
  EXPECT_EQ(out.rows[0].substr(0, 5), "[1,1,");
  EXPECT_EQ(delete_files(), 1);
  EXPECT_EQ(all_rows(), before);
  out = must(s(),
             "CALL system.rewrite_data_files(table => 'db.t', where => 'cat = ''a''', options => "
             "map('rewrite-all', 'true'))");
  EXPECT_EQ(delete_files(), 0);
  EXPECT_EQ(out.rows[0].substr(out.rows[0].size() - 3), ",1]");
  EXPECT_EQ(all_rows(), before);
}

// Commits made while the rewrite runs (between its planning and its commit): an append
// survives, and so does a delete elsewhere; a copy-on-write delete, a merge-on-read delete or a
// deletion vector for a rewritten file fails the rewrite with a conflict, leaving the table as
// the concurrent commit left it and no file of the rewrite behind.
TEST_F(RewriteDataFiles, ConcurrentCommits) {
  struct Case {
    std::string name, table_properties, concurrent;
    bool conflict;
  };
  const std::vector<Case> cases = {
      {"append", "'format-version'='2'", "INSERT INTO db.t VALUES (999, 'a', 'new')", false},
      {"copy-on-write delete", "'format-version'='2'", "DELETE FROM db.t WHERE id = 1", true},
      {"merge-on-read delete", "'format-version'='2', 'write.delete.mode'='merge-on-read'",
       "DELETE FROM db.t WHERE id = 1", true},
      {"v3 deletion vector", "'format-version'='3', 'write.delete.mode'='merge-on-read'",
       "DELETE FROM db.t WHERE id = 1", true},
      {"delete in another partition", "'format-version'='2', 'write.delete.mode'='merge-on-read'",
       "DELETE FROM db.t WHERE id = 101", false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    must(s(), "DROP TABLE IF EXISTS db.t");
    make_table(c.table_properties);
    Session other(options());
    auto t = table();
    RewriteDataFilesOptions o;
    o.filter = make_predicate(Operation::kEq, "cat", {Literal::string("a")});
    bool ran = false;
    o.progress = [&](int64_t, int64_t, int64_t, int64_t) {
      if (ran) return;
      ran = true;
      must(other, c.concurrent);
    };
    const auto files_before = stored_data_files();
    auto r = rewrite_data_files(*t, o);
    EXPECT_TRUE(ran);
    const auto after_concurrent = rows(other, "SELECT * FROM db.t ORDER BY id");
    if (c.conflict) {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.status().kind(), ErrorKind::kCommitConflict) << r.status().to_string();
      EXPECT_NE(last_operation(), "[\"replace\"]");
      // Only the concurrent statement's files were added.
      for (const auto& f : stored_data_files()) {
        if (files_before.count(f)) continue;
        EXPECT_EQ(count("SELECT count(*) FROM db.t.all_files WHERE file_path = '" + f + "'"), 1)
            << f << " was left behind";
      }
    } else {
      ASSERT_TRUE(r.ok()) << r.status().to_string();
      EXPECT_EQ(r->rewritten_data_files, 6);
      EXPECT_EQ(last_operation(), "[\"replace\"]");
    }
    EXPECT_EQ(all_rows(), after_concurrent);
  }
}

// An equality delete committed while the rewrite runs (change data capture) still applies to the
// rewritten rows: the new files keep the starting sequence number, which the delete's is above.
// Without use-starting-sequence-number the new files would take a later one and bring the row
// back, so the rewrite fails with a conflict instead (Java's validation).
TEST_F(RewriteDataFiles, ConcurrentEqualityDeletesKeepApplying) {
  for (bool starting : {true, false}) {
    SCOPED_TRACE(starting ? "starting sequence number" : "new sequence number");
    must(s(), "DROP TABLE IF EXISTS db.t");
    make_table("'format-version'='2'");
    auto t = table();
    RewriteDataFilesOptions o;
    o.use_starting_sequence_number = starting;
    bool ran = false;
    o.progress = [&](int64_t, int64_t, int64_t, int64_t) {
      if (ran) return;
      ran = true;
      const Schema& schema = *t->metadata()->schema();
      UpsertOptions uo;
      uo.key_ids = {schema.find_field("id")->id, schema.find_field("cat")->id};
      auto writer = UpsertWriter::make(table(), uo);
      ASSERT_TRUE(writer.ok()) << writer.status().to_string();
      ColumnBatch b = ColumnBatch::make(schema.fields());
      b.columns[0]->append_fixed<int64_t>(11);
      b.columns[1]->append_bytes("a");
      b.columns[2]->append_null();
      b.num_rows = 1;
      ASSERT_TRUE((*writer)->remove(b).ok());
      ASSERT_TRUE((*writer)->commit().ok());
    };
    auto r = rewrite_data_files(*t, o);
    EXPECT_TRUE(ran);
    const auto ids = rows(s(), "SELECT id FROM db.t WHERE cat = 'a' ORDER BY id");
    EXPECT_EQ(std::count(ids.begin(), ids.end(), "[11]"), 0);
    EXPECT_EQ(ids.size(), 11u);
    if (starting) {
      ASSERT_TRUE(r.ok()) << r.status().to_string();
      EXPECT_EQ(last_operation(), "[\"replace\"]");
    } else {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.status().kind(), ErrorKind::kCommitConflict) << r.status().to_string();
    }
  }
}

// The lesson's orders table (merge-on-read, days(event_ts)): 25 point deletes on one day leave
// 25 position delete files on that day's data file; after rewrite_data_files the rows are the
// same and that partition has no delete file left, while another day's deletes stay untouched
// when the rewrite is limited to the first day.
TEST_F(RewriteDataFiles, LessonOrdersAfterTwentyFivePointDeletes) {
  must(s(),
       "CREATE TABLE db.orders (order_id BIGINT, customer_id BIGINT, status STRING, "
       "event_ts TIMESTAMP) USING iceberg PARTITIONED BY (days(event_ts)) TBLPROPERTIES "
       "('format-version'='2', 'write.delete.mode'='merge-on-read')");
  must(s(),
       "INSERT INTO db.orders SELECT id, id % 1000, CASE WHEN id % 7 = 0 THEN 'cancelled' "
       "ELSE 'done' END, CAST(date_add(DATE '2026-06-01', CAST(id % 3 AS INT)) AS TIMESTAMP) "
       "FROM range(30000)");
  for (int k = 0; k < 25; ++k) {
    must(s(), fmt::format("DELETE FROM db.orders WHERE order_id = {}", k * 3 * 397));
  }
  must(s(), "DELETE FROM db.orders WHERE order_id = 1");  // another day
  const std::string day0 = "partition.event_ts_day = DATE '2026-06-01'";
  EXPECT_EQ(
      std::stoll(
          rows(s(), "SELECT count(*) FROM db.orders.delete_files WHERE " + day0)[0].substr(1)),
      25);
  const auto before = rows(s(), "SELECT * FROM db.orders ORDER BY order_id");
  auto out = must(s(),
                  "CALL system.rewrite_data_files(table => 'db.orders', where => "
                  "'event_ts < TIMESTAMP ''2026-06-02 00:00:00''', options => "
                  "map('delete-file-threshold', '10'))");
  EXPECT_EQ(out.rows[0].substr(0, 5), "[1,1,");
  EXPECT_EQ(rows(s(), "SELECT * FROM db.orders ORDER BY order_id"), before);
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.orders.delete_files WHERE " + day0),
            std::vector<std::string>{"[0]"});
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.orders.delete_files"),
            std::vector<std::string>{"[1]"});
  EXPECT_EQ(before.size(), 30000u - 26u);
}

}  // namespace
}  // namespace floe::sql
