// Snapshot expiration (floe/table/expire_snapshots.h) on the commit-layer fixture: which
// snapshots and refs stay (retain_last, older_than, the history.expire.* properties, ref
// retention fields, named snapshots, snapshots orphaned by a rollback), the snapshot log, the
// files deleted (exactly those no kept snapshot reaches: data and delete files, a Puffin file
// another live DV shares, manifests, manifest lists, statistics files), failed deletes, dry
// runs, unused specs and schemas, and commits racing the expiration.
#include "floe/table/expire_snapshots.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <thread>

#include "floe/table/update_partition_spec.h"
#include "forwarding_catalog.h"
#include "table/table_internal.h"
#include "table_test_util.h"

namespace floe::testing {
namespace {

DataFile eq_delete(const std::string& name) {
  DataFile f;
  f.content = FileContent::kEqualityDeletes;
  f.file_path = "wh/db/t/data/" + name + "-eq-deletes.parquet";
  f.file_format = "PARQUET";
  f.partition = {Literal::string("x")};
  f.record_count = 1;
  f.file_size_in_bytes = 104;
  f.equality_ids = std::vector<int32_t>{1};
  return f;
}

DataFile dv(const std::string& puffin, const DataFile& data, int64_t offset) {
  DataFile f;
  f.content = FileContent::kPositionDeletes;
  f.file_path = "wh/db/t/data/" + puffin + ".puffin";
  f.file_format = "PUFFIN";
  f.partition = data.partition;
  f.record_count = 1;
  f.file_size_in_bytes = 824;
  f.referenced_data_file = data.file_path;
  f.content_offset = offset;
  f.content_size_in_bytes = 40;
  return f;
}

// Statistics files attached to snapshots (Java's UpdateStatistics), to see them expire.
struct SetStatistics : PendingUpdate {
  std::vector<StatisticsFile> files;
  std::vector<PartitionStatisticsFile> partition_files;
  Result<TableMetadata> apply(const TableMetadata& base) override {
    TableMetadata m = base;
    m.statistics.insert(m.statistics.end(), files.begin(), files.end());
    m.partition_statistics.insert(m.partition_statistics.end(), partition_files.begin(),
                                  partition_files.end());
    return m;
  }
};

// Forwards to a catalog and runs `before_commit` once, just before the first commit it
// forwards: another writer's commit landing between an update's load and its commit.
class InterposingCatalog : public test_support::ForwardingCatalog {
 public:
  using ForwardingCatalog::ForwardingCatalog;
  Result<std::string> commit_table(const TableIdentifier& id, std::string_view base,
                                   const TableMetadata& m) override {
    commits++;
    if (before_commit) {
      auto hook = std::move(before_commit);
      before_commit = nullptr;
      hook();
    }
    return inner()->commit_table(id, base, m);
  }
  std::function<void()> before_commit;
  int commits = 0;
};

class Expire : public CommitTest {
 protected:
  // Stores `f` (so that a cleanup can delete it) and commits it in an append.
  int64_t append(Table& t, const DataFile& f) {
    EXPECT_TRUE(fio->write_file(f.file_path, "data").ok());
    Status st = t.new_append().append_file(f).commit();
    EXPECT_TRUE(st.ok()) << st.to_string();
    return settle(t);
  }
  // The current snapshot id, after a pause so that snapshots get distinct timestamps.
  static int64_t settle(const Table& t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    return *t.metadata()->current_snapshot_id;
  }
  void store(const DataFile& f) { EXPECT_TRUE(fio->write_file(f.file_path, "deletes").ok()); }
  bool stored(const std::string& path) { return must(fio->exists(path)); }

  static std::vector<int64_t> ids(const Table& t) {
    std::vector<int64_t> out;
    for (const auto& s : t.metadata()->snapshots) out.push_back(s->snapshot_id);
    std::sort(out.begin(), out.end());
    return out;
  }
  static std::vector<int64_t> sorted(std::vector<int64_t> v) {
    std::sort(v.begin(), v.end());
    return v;
  }
  static std::vector<int64_t> log_ids(const Table& t) {
    std::vector<int64_t> out;
    for (const auto& e : t.metadata()->snapshot_log) out.push_back(e.snapshot_id);
    return out;
  }
  static int64_t ts(const Table& t, int64_t id) {
    return t.metadata()->snapshot_by_id(id)->timestamp_ms;
  }
  static int64_t later() { return internal::now_ms() + 60'000; }

  // Main: s0 -> s1 -> s2; branch "b" from s1: b1 -> b2; tag "t" on s0.
  struct History {
    int64_t s0, s1, s2, b1, b2;
  };
  History branchy(Table& t) {
    History h{};
    h.s0 = append(t, file("m0", "x", 1));
    h.s1 = append(t, file("m1", "x", 1));
    EXPECT_TRUE(t.manage_snapshots().create_branch("b").create_tag("t", h.s0).commit().ok());
    h.s2 = append(t, file("m2", "x", 1));
    for (auto* id : {&h.b1, &h.b2}) {
      auto f = file(id == &h.b1 ? "b1" : "b2", "x", 1);
      EXPECT_TRUE(fio->write_file(f.file_path, "data").ok());
      EXPECT_TRUE(t.new_append().append_file(f).to_branch("b").commit().ok());
      std::this_thread::sleep_for(std::chrono::milliseconds(3));
      *id = t.metadata()->refs.at("b").snapshot_id;
    }
    return h;
  }
};

TEST_F(Expire, RetainLastKeepsThatManyAncestorsOlderThanTheCutoff) {
  auto t = create();
  std::vector<int64_t> s;
  for (int i = 0; i < 5; ++i) s.push_back(append(*t, file(fmt::format("f{}", i), "x", 1)));
  const std::string before_location = t->metadata_location();
  const auto before = t->metadata();

  // What would go, without committing.
  auto would = must(t->expire_snapshots().expire_older_than(later()).retain_last(2).apply());
  std::vector<int64_t> would_ids;
  for (const auto& snap : would) would_ids.push_back(snap->snapshot_id);
  EXPECT_EQ(sorted(would_ids), sorted({s[0], s[1], s[2]}));
  EXPECT_EQ(t->metadata_location(), before_location);

  auto r = must(t->expire_snapshots().expire_older_than(later()).retain_last(2).commit());
  EXPECT_TRUE(r.committed);
  EXPECT_EQ(r.expired_snapshot_ids, sorted({s[0], s[1], s[2]}));
  EXPECT_EQ(ids(*t), sorted({s[3], s[4]}));
  EXPECT_EQ(t->metadata()->current_snapshot_id, s[4]);
  // The log loses every entry up to the last removed snapshot's.
  EXPECT_EQ(log_ids(*t), (std::vector<int64_t>{s[3], s[4]}));
  // Appends keep every older manifest in the newer lists: only the three lists go.
  EXPECT_EQ(r.deleted_manifest_lists_count, 3);
  EXPECT_EQ(r.deleted_manifest_files_count, 0);
  EXPECT_EQ(r.deleted_data_files_count, 0);
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(stored(before->snapshot_by_id(s[i])->manifest_list));
  }
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
  EXPECT_EQ(live_files(*t).size(), 5u);
  // The new metadata is what the catalog holds.
  auto loaded = must(Table::load(catalog, id));
  EXPECT_EQ(ids(*loaded), ids(*t));
  EXPECT_EQ(loaded->metadata()->metadata_log.back().metadata_file, before_location);
}

TEST_F(Expire, OlderThanAloneKeepsOnlyTheYoungerSnapshotsAndTheHead) {
  auto t = create();
  std::vector<int64_t> s;
  for (int i = 0; i < 4; ++i) s.push_back(append(*t, file(fmt::format("f{}", i), "x", 1)));
  // A snapshot exactly at the cutoff is not older than it.
  auto r = must(t->expire_snapshots().expire_older_than(ts(*t, s[2])).commit());
  EXPECT_EQ(r.expired_snapshot_ids, sorted({s[0], s[1]}));
  EXPECT_EQ(ids(*t), sorted({s[2], s[3]}));
  r = must(t->expire_snapshots().expire_older_than(later()).commit());
  EXPECT_EQ(r.expired_snapshot_ids, std::vector<int64_t>{s[2]});
  EXPECT_EQ(ids(*t), std::vector<int64_t>{s[3]});
  EXPECT_EQ(log_ids(*t), std::vector<int64_t>{s[3]});
}

TEST_F(Expire, DefaultsComeFromTableProperties) {
  auto t = create();
  std::vector<int64_t> s;
  for (int i = 0; i < 5; ++i) s.push_back(append(*t, file(fmt::format("f{}", i), "x", 1)));
  // Java's defaults: five days, one snapshot: nothing is old enough, and nothing is committed.
  const std::string location = t->metadata_location();
  auto r = must(t->expire_snapshots().commit());
  EXPECT_FALSE(r.committed);
  EXPECT_TRUE(r.expired_snapshot_ids.empty());
  EXPECT_EQ(t->metadata_location(), location);

  ASSERT_OK(t->update_properties()
                .set("history.expire.max-snapshot-age-ms", "1")
                .set("history.expire.min-snapshots-to-keep", "3")
                .commit());
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  r = must(t->expire_snapshots().commit());
  EXPECT_EQ(r.expired_snapshot_ids, sorted({s[0], s[1]}));
  // retain_last replaces the property; older_than replaces the age.
  r = must(t->expire_snapshots().retain_last(2).commit());
  EXPECT_EQ(r.expired_snapshot_ids, std::vector<int64_t>{s[2]});
  r = must(t->expire_snapshots().expire_older_than(0).retain_last(1).commit());
  EXPECT_TRUE(r.expired_snapshot_ids.empty());
  r = must(t->expire_snapshots().retain_last(1).commit());
  EXPECT_EQ(r.expired_snapshot_ids, std::vector<int64_t>{s[3]});
  EXPECT_EQ(ids(*t), std::vector<int64_t>{s[4]});

  EXPECT_EQ(t->expire_snapshots().retain_last(0).commit().status().message(),
            "Number of snapshots to retain must be at least 1, cannot be: 0");
}

TEST_F(Expire, GcDisabledIsRefused) {
  auto t = create({{"gc.enabled", "false"}});
  append(*t, file("a", "x", 1));
  append(*t, file("b", "x", 1));
  const std::string location = t->metadata_location();
  auto r = t->expire_snapshots().expire_older_than(later()).commit();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("GC is disabled"), std::string::npos);
  EXPECT_EQ(t->metadata_location(), location);
  EXPECT_EQ(t->metadata()->snapshots.size(), 2u);
}

TEST_F(Expire, BranchHeadsAndTagsStayAndTheirRetentionFieldsWin) {
  auto t = create();
  History h = branchy(*t);
  // Every head stays; the ancestors beyond one per branch go.
  auto r = must(t->expire_snapshots().expire_older_than(later()).dry_run(true).commit());
  EXPECT_FALSE(r.committed);
  EXPECT_EQ(r.expired_snapshot_ids, sorted({h.s1, h.b1}));
  EXPECT_EQ(t->metadata()->snapshots.size(), 5u);  // a dry run changes nothing

  // The branch keeps two snapshots by its own min-snapshots-to-keep.
  ASSERT_OK(t->manage_snapshots().set_min_snapshots_to_keep("b", 2).commit());
  r = must(t->expire_snapshots().expire_older_than(later()).dry_run(true).commit());
  EXPECT_EQ(r.expired_snapshot_ids, std::vector<int64_t>{h.s1});
  // ... or everything younger than its max-snapshot-age-ms, over the caller's cutoff.
  ASSERT_OK(t->manage_snapshots().set_max_snapshot_age_ms("b", 3'600'000).commit());
  r = must(t->expire_snapshots().expire_older_than(later()).retain_last(1).dry_run(true).commit());
  EXPECT_TRUE(r.expired_snapshot_ids.empty());

  r = must(t->expire_snapshots().expire_older_than(later()).commit());
  EXPECT_TRUE(r.expired_snapshot_ids.empty());
  EXPECT_EQ(ids(*t), sorted({h.s0, h.s1, h.s2, h.b1, h.b2}));
}

TEST_F(Expire, RefsOlderThanTheirMaxRefAgeAreDropped) {
  auto t = create();
  History h = branchy(*t);
  ASSERT_OK(
      t->manage_snapshots().set_max_ref_age_ms("t", 1).set_max_ref_age_ms("main", 1).commit());
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  // The tag goes and its snapshot with it (old, and main keeps one); main never goes.
  auto r = must(t->expire_snapshots().expire_older_than(later()).commit());
  EXPECT_EQ(r.removed_refs, std::vector<std::string>{"t"});
  EXPECT_EQ(r.expired_snapshot_ids, sorted({h.s0, h.s1, h.b1}));
  EXPECT_EQ(ids(*t), sorted({h.s2, h.b2}));
  EXPECT_EQ(t->metadata()->refs.count("t"), 0u);
  EXPECT_EQ(t->metadata()->refs.count("main"), 1u);
  // Files only the dropped tag and removed snapshots reached are gone: m0 and m1 stay (live in
  // main's head), b1 stays (live in b's head).
  EXPECT_EQ(r.deleted_data_files_count, 0);
  EXPECT_EQ(r.deleted_manifest_lists_count, 3);
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));

  // The table property drops every other ref older than it: the branch goes, and its head with
  // it once it is older than the cutoff, and then b1 and b2 are deleted.
  ASSERT_OK(t->update_properties().set("history.expire.max-ref-age-ms", "1").commit());
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  r = must(t->expire_snapshots().expire_older_than(later()).commit());
  EXPECT_EQ(r.removed_refs, std::vector<std::string>{"b"});
  EXPECT_EQ(r.expired_snapshot_ids, std::vector<int64_t>{h.b2});
  EXPECT_EQ(ids(*t), std::vector<int64_t>{h.s2});
  EXPECT_EQ(r.deleted_data_files_count, 2);
  EXPECT_FALSE(stored("wh/db/t/data/b1.parquet"));
  EXPECT_FALSE(stored("wh/db/t/data/b2.parquet"));
  EXPECT_TRUE(stored("wh/db/t/data/m0.parquet"));
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
  EXPECT_EQ(live_files(*t).size(), 3u);
}

TEST_F(Expire, NamedSnapshotsGoWhateverTheirAgeButNotRefHeads) {
  auto t = create();
  History h = branchy(*t);
  const std::string location = t->metadata_location();
  const std::string s1_list = t->metadata()->snapshot_by_id(h.s1)->manifest_list;

  auto r = t->expire_snapshots().expire_snapshot_id(h.s1).expire_snapshot_id(h.s0).commit();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            fmt::format("cannot expire snapshot {}: it is the head of tag 't'", h.s0));
  r = t->expire_snapshots().expire_snapshot_id(h.s2).commit();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            fmt::format("cannot expire snapshot {}: it is the head of branch 'main'", h.s2));
  ASSERT_OK(t->manage_snapshots().create_tag("t2", h.b2).commit());
  r = t->expire_snapshots().expire_snapshot_id(h.b2).commit();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            fmt::format("cannot expire snapshot {}: it is the head of branch 'b', tag 't2'", h.b2));
  ASSERT_OK(t->manage_snapshots().remove_tag("t2").commit());
  EXPECT_EQ(t->metadata()->snapshots.size(), 5u);

  // Young as it is, s1 goes; an unknown id is ignored, as Java does.
  auto done = must(t->expire_snapshots().expire_snapshot_id(h.s1).expire_snapshot_id(42).commit());
  EXPECT_EQ(done.expired_snapshot_ids, std::vector<int64_t>{h.s1});
  EXPECT_EQ(ids(*t), sorted({h.s0, h.s2, h.b1, h.b2}));
  EXPECT_EQ(done.deleted_manifest_lists_count, 1);
  EXPECT_EQ(done.deleted_data_files_count, 0);  // m1 is live in s2 and on the branch
  EXPECT_FALSE(stored(s1_list));
  EXPECT_NE(t->metadata_location(), location);
  // b1's parent is gone; the branch still reads its four files.
  ScanOptions on_branch;
  on_branch.ref = "b";
  EXPECT_EQ(live_files(*t, on_branch).size(), 4u);
}

TEST_F(Expire, SnapshotsOrphanedByARollbackExpireWhenOld) {
  auto t = create();
  int64_t s0 = append(*t, file("f0", "x", 1));
  int64_t s1 = append(*t, file("f1", "x", 1));
  int64_t s2 = append(*t, file("f2", "x", 1));
  ASSERT_OK(t->manage_snapshots().rollback_to(s0).commit());
  int64_t s3 = append(*t, file("f3", "x", 1));
  // Younger than the default five days: they stay.
  auto r = must(t->expire_snapshots().commit());
  EXPECT_TRUE(r.expired_snapshot_ids.empty());
  EXPECT_EQ(ids(*t).size(), 4u);
  // Older than the cutoff: they go, and so do the files only they reached.
  r = must(t->expire_snapshots().expire_older_than(ts(*t, s3)).commit());
  EXPECT_EQ(r.expired_snapshot_ids, sorted({s0, s1, s2}));
  EXPECT_EQ(ids(*t), std::vector<int64_t>{s3});
  EXPECT_EQ(log_ids(*t), std::vector<int64_t>{s3});
  EXPECT_EQ(r.deleted_data_files_count, 2);
  EXPECT_FALSE(stored("wh/db/t/data/f1.parquet"));
  EXPECT_FALSE(stored("wh/db/t/data/f2.parquet"));
  EXPECT_TRUE(stored("wh/db/t/data/f0.parquet"));
  EXPECT_TRUE(stored("wh/db/t/data/f3.parquet"));
  EXPECT_EQ(r.deleted_manifest_files_count, 2);  // f1's and f2's manifests
  EXPECT_EQ(r.deleted_manifest_lists_count, 3);
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
  EXPECT_EQ(live_files(*t),
            (std::set<std::string>{"wh/db/t/data/f0.parquet", "wh/db/t/data/f3.parquet"}));
}

// Files deleted are exactly those no kept snapshot reads: a data file overwritten, a position
// delete file replaced, and an equality delete file whose data file went; a Puffin file that
// still holds a live DV stays although a removed DV in it went.
TEST_F(Expire, DeletesExactlyTheUnreachableFiles) {
  auto t = create({}, true, 3);
  auto a = file("a", "x", 5), b = file("b", "x", 5), c = file("c", "x", 5);
  int64_t s0 = append(*t, a);
  int64_t s1 = append(*t, b);
  store(c);
  ASSERT_OK(t->new_overwrite().delete_file(a).add_file(c).commit());
  int64_t s2 = settle(*t);
  // One Puffin file with DVs for b and c; then c's DV is replaced in another file.
  auto dvb = dv("p1", b, 4), dvc = dv("p1", c, 44), dvc2 = dv("p2", c, 4);
  store(dvb);
  ASSERT_OK(t->new_row_delta().add_deletes(dvb).add_deletes(dvc).commit());
  int64_t s3 = settle(*t);
  store(dvc2);
  ASSERT_OK(t->new_row_delta().remove_deletes(dvc).add_deletes(dvc2).commit());
  int64_t s4 = settle(*t);
  int64_t s5 = append(*t, file("d", "x", 1));

  const auto before = t->metadata();
  const std::set<std::string> metadata_before = referenced_metadata(*t);
  {
    auto stats = std::make_shared<SetStatistics>();
    for (int64_t s : {s2, s5}) {
      StatisticsFile f;
      f.snapshot_id = s;
      f.statistics_path = fmt::format("wh/db/t/metadata/stats-{}.puffin", s);
      f.file_size_in_bytes = 10;
      stats->files.push_back(f);
      ASSERT_OK(fio->write_file(f.statistics_path, "stats"));
    }
    PartitionStatisticsFile p;
    p.snapshot_id = s1;
    p.statistics_path = "wh/db/t/metadata/partition-stats-s1.parquet";
    stats->partition_files.push_back(p);
    ASSERT_OK(fio->write_file(p.statistics_path, "stats"));
    auto txn = t->new_transaction();
    ASSERT_OK(txn.stage(stats));
    ASSERT_OK(txn.commit());
  }
  const auto deleted_before = fio->deleted_paths().size();

  // Dry run first: the same list, nothing deleted.
  auto dry = must(t->expire_snapshots().expire_older_than(later()).dry_run(true).commit());
  EXPECT_EQ(fio->deleted_paths().size(), deleted_before);

  auto r = must(t->expire_snapshots().expire_older_than(later()).commit());
  EXPECT_EQ(r.expired_snapshot_ids, sorted({s0, s1, s2, s3, s4}));
  EXPECT_EQ(ids(*t), std::vector<int64_t>{s5});

  std::set<std::string> metadata_after = referenced_metadata(*t);
  std::set<std::string> expected;
  for (const auto& f : metadata_before) {
    if (!metadata_after.count(f)) expected.insert(f);
  }
  // a was overwritten in s2. p1 holds b's DV, still live: it stays although c's DV in it was
  // removed.
  expected.insert(a.file_path);
  expected.insert("wh/db/t/metadata/stats-" + std::to_string(s2) + ".puffin");
  expected.insert("wh/db/t/metadata/partition-stats-s1.parquet");
  const std::vector<std::string> all_deleted = fio->deleted_paths();
  std::vector<std::string> deleted(all_deleted.begin() + deleted_before, all_deleted.end());
  EXPECT_EQ(std::set<std::string>(deleted.begin(), deleted.end()), expected);
  EXPECT_EQ(deleted.size(), expected.size());  // each once
  std::set<std::string> dry_paths;
  for (const auto& f : dry.deleted_files) dry_paths.insert(f.path);
  EXPECT_EQ(dry_paths, expected);

  EXPECT_EQ(r.deleted_data_files_count, 1);
  EXPECT_EQ(r.deleted_position_delete_files_count, 0);
  EXPECT_EQ(r.deleted_equality_delete_files_count, 0);
  EXPECT_EQ(r.deleted_manifest_lists_count, 5);
  EXPECT_EQ(r.deleted_statistics_files_count, 2);
  EXPECT_EQ(r.deleted_manifest_files_count, static_cast<int64_t>(expected.size()) - 1 - 5 - 2);
  EXPECT_EQ(dry.deleted_manifest_files_count, r.deleted_manifest_files_count);
  EXPECT_TRUE(stored("wh/db/t/data/p1.puffin"));
  EXPECT_TRUE(stored("wh/db/t/data/p2.puffin"));
  // Statistics entries of removed snapshots left the metadata.
  ASSERT_EQ(t->metadata()->statistics.size(), 1u);
  EXPECT_EQ(t->metadata()->statistics[0].snapshot_id, s5);
  EXPECT_TRUE(t->metadata()->partition_statistics.empty());
  EXPECT_EQ(live_files(*t).size(), 3u);

  // Replacing the last DV in p1 and removing b: the next expiration deletes p1 (a position
  // delete file) and b; an equality delete file removed with it goes too.
  auto e = eq_delete("e");
  store(e);
  ASSERT_OK(t->new_row_delta().add_deletes(e).commit());
  // Removing b removes its DV too.
  ASSERT_OK(t->new_row_delta().remove_deletes(e).remove_rows(b).commit());
  r = must(t->expire_snapshots().expire_older_than(later()).commit());
  EXPECT_EQ(r.deleted_data_files_count, 1);
  EXPECT_EQ(r.deleted_position_delete_files_count, 1);
  EXPECT_EQ(r.deleted_equality_delete_files_count, 1);
  EXPECT_FALSE(stored("wh/db/t/data/p1.puffin"));
  EXPECT_FALSE(stored(b.file_path));
  EXPECT_FALSE(stored(e.file_path));
  EXPECT_TRUE(stored("wh/db/t/data/p2.puffin"));
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
}

TEST_F(Expire, FailedDeletesAreCountedAndTheTableStaysReadable) {
  auto t = create();
  auto a = file("a", "x", 1);
  append(*t, a);
  auto b = file("b", "x", 1);
  store(b);
  ASSERT_OK(t->new_overwrite().delete_file(a).add_file(b).commit());
  settle(*t);
  append(*t, file("c", "x", 1));
  std::vector<std::string> attempted;
  std::mutex mu;
  auto r = must(t->expire_snapshots()
                    .expire_older_than(later())
                    .max_concurrent_deletes(2)
                    .delete_with([&](const std::string& path) -> Status {
                      std::lock_guard lock(mu);
                      attempted.push_back(path);
                      if (path.find(".parquet") != std::string::npos) {
                        return io_error("storage said no to {}", path);
                      }
                      return fio->delete_file(path);
                    })
                    .commit());
  EXPECT_TRUE(r.committed);
  EXPECT_EQ(r.failed_deletes, 1);
  EXPECT_NE(r.first_delete_error.find("storage said no"), std::string::npos);
  EXPECT_EQ(r.deleted_data_files_count, 0);
  EXPECT_EQ(r.deleted_manifest_lists_count, 2);
  EXPECT_TRUE(std::find(attempted.begin(), attempted.end(), a.file_path) != attempted.end());
  EXPECT_TRUE(stored(a.file_path));
  EXPECT_EQ(live_files(*t).size(), 2u);
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
}

// Without a kept snapshot's manifests nothing is known safe to delete: the expiration stands,
// no file goes, and the error says so.
TEST_F(Expire, UnreadableKeptManifestStopsTheCleanup) {
  auto t = create();
  auto a = file("a", "x", 1), b = file("b", "x", 1);
  append(*t, a);
  store(b);
  ASSERT_OK(t->new_overwrite().delete_file(a).add_file(b).commit());
  const int64_t head = settle(*t);
  std::string lost;
  for (const auto& mf :
       must(snapshot_manifests(*fio, *t->metadata(), *t->metadata()->current_snapshot()))) {
    if (mf.added_snapshot_id == head && mf.added_files_count.value_or(0) > 0)
      lost = mf.manifest_path;
  }
  ASSERT_FALSE(lost.empty());
  ASSERT_OK(fio->delete_file(lost));
  const auto deleted_before = fio->deleted_paths().size();
  auto r = t->expire_snapshots().expire_older_than(later()).commit();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("1 snapshots expired, but their files were left in place"),
            std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find(lost), std::string::npos) << r.status().message();
  EXPECT_EQ(ids(*must(Table::load(catalog, id))), std::vector<int64_t>{head});
  EXPECT_EQ(fio->deleted_paths().size(), deleted_before);
  EXPECT_TRUE(stored(a.file_path));
}

TEST_F(Expire, CleanExpiredFilesFalseOnlyCommits) {
  auto t = create();
  auto a = file("a", "x", 1);
  append(*t, a);
  ASSERT_OK(t->new_delete().delete_file(a.file_path).commit());
  const std::string list = t->metadata()->snapshots[0]->manifest_list;
  auto r =
      must(t->expire_snapshots().expire_older_than(later()).clean_expired_files(false).commit());
  EXPECT_EQ(r.expired_snapshot_ids.size(), 1u);
  EXPECT_TRUE(r.deleted_files.empty());
  EXPECT_TRUE(stored(a.file_path));
  EXPECT_TRUE(stored(list));
}

TEST_F(Expire, CleanExpiredMetadataRemovesUnusedSpecsAndSchemas) {
  auto t = create();
  ASSERT_OK(t->update_schema().add_column("note", Type::string()).commit());
  ASSERT_OK(t->update_spec().remove_field("category").commit());
  for (const char* name : {"a", "b"}) {
    auto f = file(name, "x", 1, 1, 100, false);
    f.spec_id = 1;
    append(*t, f);
  }
  ASSERT_EQ(t->metadata()->specs.size(), 2u);
  ASSERT_EQ(t->metadata()->schemas.size(), 2u);
  // Without the option only snapshots go.
  auto r = must(t->expire_snapshots().expire_older_than(later()).commit());
  EXPECT_EQ(r.expired_snapshot_ids.size(), 1u);
  EXPECT_EQ(t->metadata()->specs.size(), 2u);
  r = must(t->expire_snapshots().clean_expired_metadata(true).commit());
  EXPECT_TRUE(r.committed);
  EXPECT_TRUE(r.expired_snapshot_ids.empty());
  EXPECT_EQ(r.removed_spec_ids, std::vector<int32_t>{0});
  EXPECT_EQ(r.removed_schema_ids, std::vector<int32_t>{0});
  auto loaded = must(Table::load(catalog, id));
  ASSERT_EQ(loaded->metadata()->specs.size(), 1u);
  EXPECT_EQ(loaded->metadata()->specs[0]->spec_id(), 1);
  ASSERT_EQ(loaded->metadata()->schemas.size(), 1u);
  EXPECT_EQ(loaded->metadata()->schemas[0]->schema_id(), 1);
  EXPECT_EQ(live_files(*loaded).size(), 2u);
}

TEST_F(Expire, ConcurrentCommitIsRetriedAndSurvives) {
  create();
  auto hook = std::make_shared<InterposingCatalog>(catalog);
  auto t = must(Table::load(hook, id));
  std::vector<int64_t> s;
  for (int i = 0; i < 3; ++i) s.push_back(append(*t, file(fmt::format("f{}", i), "x", 1)));
  auto other = must(Table::load(catalog, id));
  int64_t concurrent = 0;
  hook->before_commit = [&] {
    auto f = file("late", "x", 1);
    EXPECT_TRUE(fio->write_file(f.file_path, "data").ok());
    EXPECT_TRUE(other->new_append().append_file(f).commit().ok());
    concurrent = *other->metadata()->current_snapshot_id;
  };
  hook->commits = 0;
  auto r = must(t->expire_snapshots().expire_older_than(later()).commit());
  EXPECT_EQ(hook->commits, 2);  // the first attempt lost the race
  // Re-planned on the new base: the concurrent snapshot is main's head, s2 is not kept.
  EXPECT_EQ(r.expired_snapshot_ids, sorted({s[0], s[1], s[2]}));
  auto now = must(Table::load(catalog, id));
  EXPECT_EQ(ids(*now), std::vector<int64_t>{concurrent});
  EXPECT_EQ(live_files(*now).size(), 4u);
  EXPECT_TRUE(stored("wh/db/t/data/late.parquet"));
  EXPECT_EQ(stored_avro(*now), referenced_metadata(*now));
}

TEST_F(Expire, ConflictThatInvalidatesTheExpirationLeavesTheTableAsTheOtherWriterLeftIt) {
  create();
  auto hook = std::make_shared<InterposingCatalog>(catalog);
  auto t = must(Table::load(hook, id));
  int64_t s0 = append(*t, file("f0", "x", 1));
  append(*t, file("f1", "x", 1));
  append(*t, file("f2", "x", 1));
  auto other = must(Table::load(catalog, id));
  hook->before_commit = [&] {
    EXPECT_TRUE(other->manage_snapshots().create_tag("keep", s0).commit().ok());
  };
  // Files deleted, but for the metadata files of the attempts that lost (the catalog's).
  auto deleted_files = [&] {
    std::vector<std::string> out;
    for (const auto& p : fio->deleted_paths()) {
      if (!p.ends_with(".metadata.json")) out.push_back(p);
    }
    return out;
  };
  auto r = t->expire_snapshots().expire_snapshot_id(s0).commit();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            fmt::format("cannot expire snapshot {}: it is the head of tag 'keep'", s0));
  auto now = must(Table::load(catalog, id));
  EXPECT_EQ(now->metadata_location(), other->metadata_location());
  EXPECT_EQ(now->metadata()->snapshots.size(), 3u);
  EXPECT_TRUE(deleted_files().empty());
  EXPECT_EQ(stored_avro(*now), referenced_metadata(*now));

  // With no retries left, a lost race is a conflict, and nothing changes either.
  ASSERT_OK(t->update_properties().set("commit.retry.num-retries", "0").commit());
  hook->before_commit = [&] {
    EXPECT_TRUE(other->refresh().ok());
    EXPECT_TRUE(other->new_append().append_file(file("g", "x", 1)).commit().ok());
  };
  const std::string other_location_before = other->metadata_location();
  auto conflict = t->expire_snapshots().expire_older_than(later()).commit();
  ASSERT_FALSE(conflict.ok());
  EXPECT_EQ(conflict.status().kind(), ErrorKind::kCommitConflict);
  now = must(Table::load(catalog, id));
  EXPECT_NE(now->metadata_location(), other_location_before);
  EXPECT_EQ(now->metadata_location(), other->metadata_location());
  EXPECT_EQ(now->metadata()->snapshots.size(), 4u);
  EXPECT_TRUE(deleted_files().empty());
}

}  // namespace
}  // namespace floe::testing
