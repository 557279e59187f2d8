// Orphan files: CALL system.remove_orphan_files and the library's remove_orphan_files
// (floe/table/remove_orphan_files.h) on a table written through a Session. Every file the
// metadata references stays (data and delete files of older snapshots too), files no metadata
// names go once older than the cutoff (among them a metadata file a killed writer never
// committed), younger ones and hidden ones stay, and every snapshot still reads the same.
#include "floe/table/remove_orphan_files.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
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

class RemoveOrphanFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    SessionOptions o;
    o.warehouse = dir_.str();
    session_ = std::make_unique<Session>(o);
    must(s(), "CREATE NAMESPACE db");
    must(s(),
         "CREATE TABLE db.t (id BIGINT, cat STRING) USING iceberg PARTITIONED BY (cat) "
         "TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read')");
    for (int i = 0; i < 3; ++i) {
      must(s(), "INSERT INTO db.t VALUES (" + std::to_string(i) + ", 'a'), (" +
                    std::to_string(10 + i) + ", 'b')");
    }
    must(s(), "DELETE FROM db.t WHERE id = 1");
    must(s(),
         "CALL system.rewrite_data_files(table => 'db.t', options => map('rewrite-all', "
         "'true'))");  // the older snapshots' data and delete files stay referenced
    must(s(), "INSERT INTO db.t VALUES (20, 'c')");
  }
  Session& s() { return *session_; }
  fs::path table_dir() const { return dir_.path / "db" / "t"; }

  std::shared_ptr<Table> table() { return testing::load_table(dir_.str(), "t"); }

  std::set<std::string> stored() const {
    std::set<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(table_dir())) {
      if (e.is_regular_file()) out.insert(e.path().string());
    }
    return out;
  }
  void write(const fs::path& p, const std::string& text = "x") const {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  // Every stored file last modified `days` ago.
  void age_everything(int days) const {
    const auto when = fs::file_time_type::clock::now() - std::chrono::hours(24 * days);
    for (const auto& f : stored()) fs::last_write_time(f, when);
  }
  // Each snapshot's row count, by time travel.
  std::map<std::string, std::string> counts_per_snapshot() {
    std::map<std::string, std::string> out;
    for (const auto& id : rows(s(), "SELECT snapshot_id FROM db.t.snapshots")) {
      const std::string sid = id.substr(1, id.size() - 2);
      out[sid] = rows(s(), "SELECT count(*), sum(id) FROM db.t VERSION AS OF " + sid)[0];
    }
    return out;
  }

  floe::test_support::TempDir dir_{"floe-orphans"};
  std::unique_ptr<Session> session_;
};

TEST_F(RemoveOrphanFiles, RemovesOnlyWhatNoMetadataReferences) {
  const auto before = counts_per_snapshot();
  const auto referenced = stored();
  // A killed writer's leftovers: a data file, a manifest and a metadata file never committed.
  const fs::path stray_data = table_dir() / "data" / "cat=a" / "00000-9-stray.parquet";
  const fs::path stray_manifest = table_dir() / "metadata" / "stray-m0.avro";
  const fs::path uncommitted = table_dir() / "metadata" / "00099-uncommitted.metadata.json";
  write(stray_data);
  write(stray_manifest);
  write(uncommitted, "{}");
  write(table_dir() / "data" / ".hidden-file");
  write(table_dir() / "_temporary" / "part-0");
  age_everything(4);
  const fs::path young = table_dir() / "data" / "cat=b" / "00000-8-young.parquet";
  write(young);  // a write still running: younger than the cutoff

  auto t = table();
  RemoveOrphanFilesOptions dry;
  dry.dry_run = true;
  auto found = remove_orphan_files(*t, dry);
  ASSERT_TRUE(found.ok()) << found.status().to_string();
  const std::vector<std::string> expected = {stray_data.string(), uncommitted.string(),
                                             stray_manifest.string()};
  std::vector<std::string> sorted_expected = expected;
  std::sort(sorted_expected.begin(), sorted_expected.end());
  EXPECT_EQ(found->orphans, sorted_expected);
  EXPECT_TRUE(fs::exists(stray_data));  // a dry run removes nothing

  auto removed = remove_orphan_files(*t, {});
  ASSERT_TRUE(removed.ok()) << removed.status().to_string();
  EXPECT_EQ(removed->orphans, sorted_expected);
  for (const auto& f : expected) EXPECT_FALSE(fs::exists(f)) << f;
  // Every referenced file, the young one and the hidden ones stay.
  for (const auto& f : referenced) EXPECT_TRUE(fs::exists(f)) << f;
  EXPECT_TRUE(fs::exists(young));
  EXPECT_TRUE(fs::exists(table_dir() / "data" / ".hidden-file"));
  EXPECT_TRUE(fs::exists(table_dir() / "_temporary" / "part-0"));
  // Everything left (but the young and hidden files) is referenced: a cutoff of now finds only
  // the young file, and every snapshot reads as before.
  RemoveOrphanFilesOptions now;
  now.dry_run = true;
  now.older_than_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count() +
                      1000;
  auto left = remove_orphan_files(*t, now);
  ASSERT_TRUE(left.ok());
  EXPECT_EQ(left->orphans, std::vector<std::string>{young.string()});
  EXPECT_EQ(counts_per_snapshot(), before);
  must(s(), "INSERT INTO db.t VALUES (30, 'a')");
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t"), std::vector<std::string>{"[7]"});
}

// The procedure: Spark's result column; a dry run; a cutoff under 24 hours and a location
// outside the table are refused.
TEST_F(RemoveOrphanFiles, Procedure) {
  const fs::path stray = table_dir() / "data" / "cat=a" / "stray.parquet";
  write(stray);
  age_everything(4);
  auto out = must(s(), "CALL system.remove_orphan_files(table => 'db.t', dry_run => true)");
  EXPECT_EQ(out.columns, std::vector<std::string>{"orphan_file_location"});
  EXPECT_EQ(out.rows, std::vector<std::string>{"[\"" + stray.string() + "\"]"});
  EXPECT_TRUE(fs::exists(stray));
  EXPECT_NE(error_of(s(),
                     "CALL system.remove_orphan_files(table => 'db.t', older_than => "
                     "current_timestamp() - INTERVAL 1 HOUR)")
                .find("less than 24 hours"),
            std::string::npos);
  EXPECT_NE(error_of(s(), "CALL system.remove_orphan_files(table => 'db.t', dry_run => 'yes')")
                .find("dry_run must be true or false"),
            std::string::npos);
  EXPECT_NE(
      error_of(s(), "CALL system.remove_orphan_files(table => 'db.t', max_concurrent_deletes => 0)")
          .find("max_concurrent_deletes must be 1 to 1024"),
      std::string::npos);
  EXPECT_NE(error_of(s(), "CALL system.remove_orphan_files(table => 'db.t', location => '" +
                              dir_.str() + "')")
                .find("not inside the table location"),
            std::string::npos);
  EXPECT_TRUE(fs::exists(stray));
  out = must(s(),
             "CALL system.remove_orphan_files(table => 'db.t', older_than => "
             "current_timestamp() - INTERVAL 2 DAYS, location => '" +
                 (table_dir() / "data").string() + "')");
  EXPECT_EQ(out.rows, std::vector<std::string>{"[\"" + stray.string() + "\"]"});
  EXPECT_FALSE(fs::exists(stray));
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t"), std::vector<std::string>{"[6]"});
}

}  // namespace
}  // namespace floe::sql
