// Compaction: CALL system.rewrite_data_files and the library's rewrite_data_files
// (floe/table/rewrite_data_files.h) on tables written through a Session: the rows stay the same
// with every delete applied, delete files that applied only to rewritten files go, the new files
// keep the starting snapshot's sequence number, candidates and groups follow Java's bin-pack
// options, and concurrent commits either survive (appends) or fail the rewrite cleanly.
#include "floe/table/rewrite_data_files.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "floe/sql/session.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

namespace fs = std::filesystem;
using testing::error_of;
using testing::must;
using testing::rows;

class RewriteDataFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    session_ = std::make_unique<Session>(options());
    must(s(), "CREATE NAMESPACE db");
  }
  SessionOptions options() const {
    SessionOptions o;
    o.warehouse = dir_.str();
    return o;
  }
  Session& s() { return *session_; }

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

  std::shared_ptr<Table> table() {
    CatalogOptions o;
    o.warehouse = dir_.str();
    auto catalog = open_catalog("sqlite:" + dir_.str() + "/catalog.db", o);
    EXPECT_TRUE(catalog.ok()) << catalog.status().to_string();
    auto t = Table::load(*catalog, TableIdentifier{{"db"}, "t"});
    EXPECT_TRUE(t.ok()) << t.status().to_string();
    return *t;
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

  floe::test_support::TempDir dir_{"floe-rewrite"};
  std::unique_ptr<Session> session_;
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

}  // namespace
}  // namespace floe::sql
