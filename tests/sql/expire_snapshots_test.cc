// Snapshot expiration: CALL system.expire_snapshots and the library's ExpireSnapshots
// (floe/table/expire_snapshots.h) on tables written through a Session. After appends,
// overwrites, merge-on-read DELETE and UPDATE (position delete files on v2, deletion vectors on
// v3) and a compaction, the files deleted are exactly those no kept snapshot reaches (the table
// directory listed before and after), every kept snapshot reads the same rows by time travel,
// and with remove_orphan_files every file left is referenced, but for the file of a write still
// running. The metadata tables follow, and the procedure takes Spark's arguments.
#include "floe/table/expire_snapshots.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "floe/manifest/manifest_list_reader.h"
#include "floe/sql/session.h"
#include "floe/table/remove_orphan_files.h"
#include "floe/util/strings.h"
#include "format/parquet/parquet_test_util.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

namespace fs = std::filesystem;
using testing::error_of;
using testing::must;
using testing::rows;

// A path as metadata spells it, as the directory listing does.
std::string plain(std::string_view path) {
  if (path.starts_with("file://")) path.remove_prefix(7);
  if (path.starts_with("file:")) path.remove_prefix(5);
  return std::string(path);
}

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class ExpireSnapshotsSql : public testing::WarehouseTest {
 protected:
  fs::path table_dir() const { return dir_.path / "db" / "t"; }

  // With `merge_count`, commits merge manifests once there are that many (files then move to
  // new manifests, and the old ones go while their files stay live).
  void create(int format_version, int merge_count = 100) {
    must(s(), fmt::format("CREATE TABLE db.t (id BIGINT, cat STRING) USING iceberg "
                          "PARTITIONED BY (cat) TBLPROPERTIES ('format-version'='{}', "
                          "'write.delete.mode'='merge-on-read', "
                          "'write.update.mode'='merge-on-read', "
                          "'commit.manifest.min-count-to-merge'='{}')",
                          format_version, merge_count));
  }
  // Appends, an overwrite, merge-on-read DELETE (one delete file in each of two partitions, in
  // one manifest) and UPDATE, a compaction of one partition (which rewrites that manifest, the
  // other partition's delete file carried over) and writes after it.
  void write_history() {
    for (int i = 0; i < 3; ++i) {
      must(s(), fmt::format("INSERT INTO db.t VALUES ({}, 'a'), ({}, 'a'), ({}, 'b'), ({}, 'b'), "
                            "({}, 'c')",
                            i, 50 + i, 10 + i, 60 + i, 20 + i));
    }
    must(s(), "INSERT OVERWRITE db.t SELECT id + 100, cat FROM db.t WHERE cat = 'c'");
    must(s(), "DELETE FROM db.t WHERE id IN (1, 11)");
    must(s(), "UPDATE db.t SET id = id + 1000 WHERE id = 12");
    must(s(), "INSERT INTO db.t VALUES (5, 'a')");
    must(s(),
         "CALL system.rewrite_data_files(table => 'db.t', where => 'cat = ''a''', "
         "options => map('rewrite-all', 'true'))");
    must(s(), "INSERT INTO db.t VALUES (30, 'a'), (32, 'a'), (31, 'd')");
    must(s(), "DELETE FROM db.t WHERE id = 30");
  }

  std::set<std::string> stored() const {
    std::set<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(table_dir())) {
      if (e.is_regular_file()) out.insert(e.path().string());
    }
    return out;
  }
  std::vector<std::string> snapshot_ids() {
    std::vector<std::string> out;
    for (const auto& id :
         rows(s(), "SELECT snapshot_id FROM db.t.snapshots ORDER BY committed_at")) {
      out.push_back(id.substr(1, id.size() - 2));
    }
    return out;
  }
  // Each snapshot's rows, by time travel.
  std::map<std::string, std::vector<std::string>> rows_per_snapshot() {
    std::map<std::string, std::vector<std::string>> out;
    for (const auto& id : snapshot_ids()) {
      out[id] = rows(s(), "SELECT id, cat FROM db.t VERSION AS OF " + id + " ORDER BY id");
    }
    return out;
  }
  // Every file a snapshot of the table can reach: its manifest list, its manifests, and the data
  // and delete files its scan plans.
  std::set<std::string> reachable(const Table& t) {
    std::set<std::string> out;
    auto m = t.metadata();
    for (const auto& snap : m->snapshots) {
      out.insert(plain(snap->manifest_list));
      auto manifests = snapshot_manifests(*t.io(), *m, *snap);
      EXPECT_TRUE(manifests.ok()) << manifests.status().to_string();
      if (!manifests.ok()) continue;
      for (const auto& mf : *manifests) out.insert(plain(mf.manifest_path));
      ScanOptions o;
      o.snapshot_id = snap->snapshot_id;
      auto scan = t.new_scan(o);
      EXPECT_TRUE(scan.ok());
      auto tasks = scan->plan_files();
      EXPECT_TRUE(tasks.ok()) << tasks.status().to_string();
      for (const auto& task : *tasks) {
        out.insert(plain(task.file->file_path));
        for (const auto& d : task.deletes) out.insert(plain(d->file_path()));
      }
    }
    return out;
  }
  // Files under the table no metadata references (remove_orphan_files, cutoff in the future).
  std::vector<std::string> unreferenced() {
    RemoveOrphanFilesOptions o;
    o.dry_run = true;
    o.older_than_ms = now_ms() + 60'000;
    auto r = remove_orphan_files(*table(), o);
    EXPECT_TRUE(r.ok()) << r.status().to_string();
    return r.ok() ? r->orphans : std::vector<std::string>{};
  }
  // An Avro file's records, read by python3-avro (an independent reader).
  static nlohmann::json avro_records(const std::string& path) {
    int rc = 0;
    std::string out =
        test_support::run_command("/usr/bin/python3 " + parquet::testing::oracle_dir() +
                                      "/avro_dump.py " + test_support::shell_quote(path) + " 2>&1",
                                  &rc);
    EXPECT_EQ(rc, 0) << out;
    return rc == 0 ? nlohmann::json::parse(out)["records"] : nlohmann::json::array();
  }
  // Through python3-avro: every manifest the kept snapshots' lists name exists, and so does every
  // file those manifests list as live (status EXISTING 0 or ADDED 1). Returns the files seen.
  size_t check_with_python_avro(const Table& t) {
    size_t files = 0;
    for (const auto& snap : t.metadata()->snapshots) {
      for (const auto& mf : avro_records(plain(snap->manifest_list))) {
        const std::string manifest = plain(mf["manifest_path"].get<std::string>());
        EXPECT_TRUE(fs::exists(manifest)) << manifest;
        if (!fs::exists(manifest)) continue;
        for (const auto& e : avro_records(manifest)) {
          if (e["status"].get<int>() == 2) continue;
          const std::string path = plain(e["data_file"]["file_path"].get<std::string>());
          EXPECT_TRUE(fs::exists(path)) << path;
          ++files;
        }
      }
    }
    return files;
  }
  void write(const fs::path& p, const std::string& text = "x") const {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
};

// Expiring all but the current snapshot deletes exactly the files no kept snapshot reaches, on
// v2 (position delete files) and v3 (deletion vectors), with and without manifest merging.
TEST_F(ExpireSnapshotsSql, DeletesExactlyWhatNoKeptSnapshotReaches) {
  for (auto [version, merge_count] : {std::pair{2, 100}, std::pair{2, 2}, std::pair{3, 2}}) {
    SCOPED_TRACE(fmt::format("v{}, merge at {}", version, merge_count));
    if (fs::exists(table_dir())) must(s(), "DROP TABLE db.t PURGE");
    create(version, merge_count);
    write_history();
    // A tag keeps an older snapshot (and what it reads) alive.
    const auto ids = snapshot_ids();
    ASSERT_GE(ids.size(), 10u);
    const std::string tagged = ids[3];  // the overwrite
    must(s(), "ALTER TABLE db.t CREATE TAG keep AS OF VERSION " + tagged);
    const auto reads = rows_per_snapshot();
    const auto before = stored();
    EXPECT_TRUE(unreferenced().empty());  // nothing unreachable yet
    const std::string current = snapshot_ids().back();

    auto out = must(s(),
                    "CALL system.expire_snapshots(table => 'db.t', older_than => "
                    "current_timestamp(), retain_last => 1)");
    EXPECT_EQ(out.columns,
              (std::vector<std::string>{
                  "deleted_data_files_count", "deleted_position_delete_files_count",
                  "deleted_equality_delete_files_count", "deleted_manifest_files_count",
                  "deleted_manifest_lists_count", "deleted_statistics_files_count"}));
    ASSERT_EQ(out.rows.size(), 1u);
    std::vector<int64_t> counts;
    {
      std::string r = out.rows[0].substr(1, out.rows[0].size() - 2);
      for (const auto& part : split(r, ',')) counts.push_back(std::stoll(part));
    }
    ASSERT_EQ(counts.size(), 6u);

    EXPECT_EQ(snapshot_ids(), (std::vector<std::string>{tagged, current}));
    // Kept snapshots read as before; removed ones cannot be read.
    EXPECT_EQ(rows(s(), "SELECT id, cat FROM db.t VERSION AS OF " + tagged + " ORDER BY id"),
              reads.at(tagged));
    EXPECT_EQ(rows(s(), "SELECT id, cat FROM db.t ORDER BY id"), reads.at(current));
    EXPECT_EQ(rows(s(), "SELECT id, cat FROM db.t VERSION AS OF 'keep' ORDER BY id"),
              reads.at(tagged));
    EXPECT_FALSE(error_of(s(), "SELECT * FROM db.t VERSION AS OF " + ids[1]).empty());

    // Deleted = listed before and not after; none of them is reachable from a kept snapshot,
    // and everything left is referenced: so exactly the unreachable files went.
    const auto after = stored();
    std::set<std::string> deleted;
    for (const auto& f : before) {
      if (!after.count(f)) deleted.insert(f);
    }
    for (const auto& f : after) EXPECT_TRUE(before.count(f) || f.ends_with(".metadata.json")) << f;
    auto t = table();
    const auto keep = reachable(*t);
    for (const auto& f : deleted) EXPECT_FALSE(keep.count(f)) << f;
    for (const auto& f : keep) EXPECT_TRUE(after.count(f)) << f;
    EXPECT_TRUE(unreferenced().empty());
    EXPECT_GT(check_with_python_avro(*t), 0u);

    int64_t lists = 0, manifests = 0, content = 0;
    for (const auto& f : deleted) {
      const std::string name = fs::path(f).filename().string();
      if (f.find("/metadata/") != std::string::npos) {
        (name.starts_with("snap-") ? lists : manifests)++;
      } else {
        content++;
      }
    }
    EXPECT_EQ(counts[4], lists);
    EXPECT_EQ(lists, static_cast<int64_t>(ids.size()) - 2);
    EXPECT_EQ(counts[3], manifests);
    EXPECT_EQ(counts[0] + counts[1] + counts[2], content);
    EXPECT_GT(counts[0], 0);  // the file of (5, 'a'), compacted away
    // v2: the delete file of id 1, compacted away. v3: the DVs of ids 1 and 11 share one Puffin
    // file, which stays for the live DV of 11.
    EXPECT_EQ(counts[1] > 0, version == 2);
    EXPECT_EQ(counts[2], 0);
    EXPECT_EQ(counts[5], 0);

    // The metadata tables follow: two snapshots, history of the current one only (the log is
    // cut at the last removed snapshot), both refs.
    EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t.snapshots"), std::vector<std::string>{"[2]"});
    EXPECT_EQ(rows(s(), "SELECT snapshot_id, is_current_ancestor FROM db.t.history"),
              std::vector<std::string>{"[" + current + ",true]"});
    EXPECT_EQ(rows(s(), "SELECT name, type, snapshot_id FROM db.t.refs ORDER BY name"),
              (std::vector<std::string>{"[\"keep\",\"TAG\"," + tagged + "]",
                                        "[\"main\",\"BRANCH\"," + current + "]"}));
    // Writes go on.
    must(s(), "INSERT INTO db.t VALUES (40, 'a')");
    EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t"),
              std::vector<std::string>{fmt::format("[{}]", reads.at(current).size() + 1)});
  }
}

// The check: expire_snapshots then remove_orphan_files leaves only referenced files,
// every kept snapshot reads correctly, and the file of an INSERT still running survives.
TEST_F(ExpireSnapshotsSql, WithRemoveOrphanFilesEveryFileLeftIsReferenced) {
  create(2);
  write_history();
  const auto ids = snapshot_ids();
  const auto reads = rows_per_snapshot();
  // A killed writer's data file, old; and the data file of an INSERT not yet committed, young.
  const fs::path killed = table_dir() / "data" / "cat=a" / "00000-7-killed.parquet";
  write(killed);
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(24 * 4);
  for (const auto& f : stored()) fs::last_write_time(f, old);
  const fs::path running = table_dir() / "data" / "cat=b" / "00000-9-running.parquet";
  write(running);

  must(s(),
       "CALL system.expire_snapshots(table => 'db.t', older_than => current_timestamp(), "
       "retain_last => 3)");
  const auto kept = snapshot_ids();
  EXPECT_EQ(kept, (std::vector<std::string>{ids.end() - 3, ids.end()}));
  auto out = must(s(), "CALL system.remove_orphan_files(table => 'db.t')");
  EXPECT_EQ(out.rows, std::vector<std::string>{"[\"" + killed.string() + "\"]"});

  EXPECT_FALSE(fs::exists(killed));
  EXPECT_TRUE(fs::exists(running));
  // Every file under the location is referenced, but for the running write's.
  EXPECT_EQ(unreferenced(), std::vector<std::string>{running.string()});
  const auto keep = reachable(*table());
  for (const auto& f : keep) EXPECT_TRUE(fs::exists(f)) << f;
  for (const auto& id : kept) {
    EXPECT_EQ(rows(s(), "SELECT id, cat FROM db.t VERSION AS OF " + id + " ORDER BY id"),
              reads.at(id))
        << id;
  }
}

TEST_F(ExpireSnapshotsSql, ProcedureArguments) {
  create(2);
  for (int i = 0; i < 4; ++i) must(s(), fmt::format("INSERT INTO db.t VALUES ({}, 'a')", i));
  auto ids = snapshot_ids();
  // Defaults: snapshots younger than five days stay, and the row says nothing was deleted.
  auto out = must(s(), "CALL system.expire_snapshots(table => 'db.t')");
  EXPECT_EQ(out.rows, std::vector<std::string>{"[0,0,0,0,0,0]"});
  EXPECT_EQ(snapshot_ids().size(), 4u);
  // Positional, as Spark's order: table, older_than, retain_last.
  out = must(s(), "CALL lakehouse.system.expire_snapshots('db.t', current_timestamp(), 3)");
  EXPECT_EQ(out.rows, std::vector<std::string>{"[0,0,0,0,1,0]"});
  EXPECT_EQ(snapshot_ids(), (std::vector<std::string>{ids[1], ids[2], ids[3]}));
  // Named snapshots go whatever their age; the current one is refused, naming its branch.
  out = must(s(), "CALL system.expire_snapshots(table => 'db.t', snapshot_ids => array(" + ids[1] +
                      "), max_concurrent_deletes => 2, stream_results => true, "
                      "clean_expired_metadata => false)");
  EXPECT_EQ(out.rows, std::vector<std::string>{"[0,0,0,0,1,0]"});
  EXPECT_EQ(snapshot_ids(), (std::vector<std::string>{ids[2], ids[3]}));
  EXPECT_EQ(error_of(s(), "CALL system.expire_snapshots(table => 'db.t', snapshot_ids => array(" +
                              ids[3] + "))"),
            "cannot expire snapshot " + ids[3] + ": it is the head of branch 'main'");
  EXPECT_NE(error_of(s(), "CALL system.expire_snapshots(table => 'db.t', retain_last => 0)")
                .find("Number of snapshots to retain must be at least 1"),
            std::string::npos);
  EXPECT_NE(
      error_of(s(), "CALL system.expire_snapshots(table => 'db.t', max_concurrent_deletes => 0)")
          .find("max_concurrent_deletes should have value > 0"),
      std::string::npos);
  EXPECT_NE(error_of(s(), "CALL system.expire_snapshots(table => 'db.t', dry_run => true)")
                .find("has no parameter 'dry_run'"),
            std::string::npos);
  EXPECT_NE(error_of(s(), "CALL system.expire_snapshots(table => 'db.t', snapshot_ids => 5)")
                .find("snapshot_ids must be an array"),
            std::string::npos);
  EXPECT_EQ(snapshot_ids(), (std::vector<std::string>{ids[2], ids[3]}));
  // The table property sets the default age.
  must(s(), "ALTER TABLE db.t SET TBLPROPERTIES ('history.expire.max-snapshot-age-ms'='1')");
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  out = must(s(), "CALL system.expire_snapshots(table => 'db.t')");
  EXPECT_EQ(out.rows, std::vector<std::string>{"[0,0,0,0,1,0]"});
  EXPECT_EQ(snapshot_ids(), std::vector<std::string>{ids[3]});
}

// Branch retention set in SQL, refs dropped by age (set through the library: SQL's RETAIN counts
// whole minutes), and the refs and history tables after it.
TEST_F(ExpireSnapshotsSql, RefRetentionAndMetadataTables) {
  create(2);
  must(s(), "INSERT INTO db.t VALUES (1, 'a')");
  must(s(), "ALTER TABLE db.t CREATE BRANCH audit WITH SNAPSHOT RETENTION 2 SNAPSHOTS");
  for (int i = 2; i < 5; ++i) {
    must(s(), fmt::format("INSERT INTO db.t.branch_audit VALUES ({}, 'a')", i));
    must(s(), fmt::format("INSERT INTO db.t VALUES ({}, 'b')", 10 + i));
  }
  must(s(), "ALTER TABLE db.t CREATE TAG old AS OF VERSION " + snapshot_ids()[0]);
  ASSERT_EQ(snapshot_ids().size(), 7u);
  auto t = table();
  ASSERT_TRUE(t->manage_snapshots().set_max_ref_age_ms("old", 1).commit().ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(5));

  // main keeps its head, audit its two newest, and the old tag goes with its snapshot.
  must(s(), "CALL system.expire_snapshots(table => 'db.t', older_than => current_timestamp())");
  EXPECT_EQ(rows(s(), "SELECT name, min_snapshots_to_keep FROM db.t.refs ORDER BY name"),
            (std::vector<std::string>{"[\"audit\",2]", "[\"main\",null]"}));
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t.snapshots"), std::vector<std::string>{"[3]"});
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t.history"), std::vector<std::string>{"[1]"});
  EXPECT_EQ(rows(s(), "SELECT id FROM db.t.branch_audit ORDER BY id"),
            (std::vector<std::string>{"[1]", "[2]", "[3]", "[4]"}));
  EXPECT_EQ(rows(s(), "SELECT id FROM db.t ORDER BY id"),
            (std::vector<std::string>{"[1]", "[12]", "[13]", "[14]"}));
  EXPECT_TRUE(unreferenced().empty());
}

// The library: a dry run lists the files without deleting or committing; progress counts them.
TEST_F(ExpireSnapshotsSql, DryRunAndProgress) {
  create(2);
  write_history();
  auto t = table();
  const auto before = stored();
  const std::string location = t->metadata_location();
  ExpireSnapshots dry = t->expire_snapshots();
  auto planned = dry.expire_older_than(now_ms()).dry_run(true).commit();
  ASSERT_TRUE(planned.ok()) << planned.status().to_string();
  EXPECT_FALSE(planned->committed);
  EXPECT_EQ(stored(), before);
  EXPECT_EQ(table()->metadata_location(), location);
  ASSERT_FALSE(planned->deleted_files.empty());

  std::vector<std::pair<int64_t, int64_t>> progress;
  auto done = t->expire_snapshots()
                  .expire_older_than(now_ms())
                  .on_progress([&](int64_t files, int64_t total, int64_t, int64_t) {
                    progress.emplace_back(files, total);
                  })
                  .commit();
  ASSERT_TRUE(done.ok()) << done.status().to_string();
  EXPECT_TRUE(done->committed);
  EXPECT_EQ(done->expired_snapshot_ids, planned->expired_snapshot_ids);
  std::set<std::string> a, b;
  for (const auto& f : planned->deleted_files) a.insert(f.path);
  for (const auto& f : done->deleted_files) b.insert(f.path);
  EXPECT_EQ(a, b);
  for (const auto& f : b) EXPECT_FALSE(fs::exists(f)) << f;
  ASSERT_EQ(progress.size(), b.size());
  EXPECT_EQ(progress.back(),
            std::make_pair(static_cast<int64_t>(b.size()), static_cast<int64_t>(b.size())));
}

}  // namespace
}  // namespace floe::sql
