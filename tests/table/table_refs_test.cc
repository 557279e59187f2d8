// Snapshot management: rollback, set-current, branches and tags, commits to branches.
#include <gtest/gtest.h>

#include <thread>

#include "table_test_util.h"

namespace floe::testing {
namespace {

using Refs = CommitTest;

TEST_F(Refs, RollbackAndSetCurrent) {
  auto t = create();
  std::vector<int64_t> ids;
  for (int i = 0; i < 3; ++i) {
    ASSERT_OK(t->new_append().append_file(file(fmt::format("f{}", i), "x", 1)).commit());
    ids.push_back(*t->metadata()->current_snapshot_id);
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
  }
  ASSERT_OK(t->manage_snapshots().rollback_to(ids[0]).commit());
  EXPECT_EQ(t->metadata()->current_snapshot_id, ids[0]);
  EXPECT_EQ(t->metadata()->refs.at("main").snapshot_id, ids[0]);
  EXPECT_EQ(live_files(*t), std::set<std::string>{"wh/db/t/data/f0.parquet"});
  EXPECT_EQ(t->metadata()->snapshot_log.back().snapshot_id, ids[0]);
  // ids[2] is no longer an ancestor of the current snapshot.
  auto s = t->manage_snapshots().rollback_to(ids[2]).commit();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(s.message().find("not an ancestor"), std::string::npos);
  ASSERT_OK(t->manage_snapshots().set_current_snapshot(ids[2]).commit());
  EXPECT_EQ(live_files(*t).size(), 3u);
  EXPECT_FALSE(t->manage_snapshots().set_current_snapshot(42).commit().ok());
  // Rolling back by time picks the newest ancestor older than the timestamp.
  int64_t ts = t->metadata()->snapshot_by_id(ids[2])->timestamp_ms;
  ASSERT_OK(t->manage_snapshots().rollback_to_time(ts).commit());
  EXPECT_EQ(t->metadata()->current_snapshot_id, ids[1]);
  EXPECT_FALSE(t->manage_snapshots().rollback_to_time(0).commit().ok());
  // A new append continues from the rolled-back head.
  ASSERT_OK(t->new_append().append_file(file("g", "x", 1)).commit());
  EXPECT_EQ(t->metadata()->current_snapshot()->parent_snapshot_id, ids[1]);
  EXPECT_EQ(summary(*t, "total-data-files"), "3");
}

TEST_F(Refs, BranchesAndTags) {
  auto t = create();
  ASSERT_OK(t->new_append().append_file(file("a", "x", 1)).commit());
  int64_t base = *t->metadata()->current_snapshot_id;
  ASSERT_OK(t->manage_snapshots().create_branch("audit").create_tag("v1", base).commit());
  EXPECT_EQ(t->metadata()->refs.at("audit").snapshot_id, base);
  EXPECT_FALSE(t->metadata()->refs.at("v1").is_branch());
  EXPECT_EQ(t->manage_snapshots().create_branch("audit").commit().kind(),
            ErrorKind::kInvalidArgument);

  // Commits to a branch leave main alone.
  ASSERT_OK(t->new_append().append_file(file("b", "x", 2)).to_branch("audit").commit());
  auto m = t->metadata();
  int64_t audit_head = m->refs.at("audit").snapshot_id;
  EXPECT_EQ(m->current_snapshot_id, base);
  EXPECT_EQ(m->snapshot_by_id(audit_head)->parent_snapshot_id, base);
  EXPECT_EQ(m->snapshot_by_id(audit_head)->summary.at("total-records"), "3");
  EXPECT_EQ(live_files(*t), std::set<std::string>{"wh/db/t/data/a.parquet"});
  ScanOptions on_branch;
  on_branch.ref = "audit";
  EXPECT_EQ(live_files(*t, on_branch).size(), 2u);
  EXPECT_EQ(t->new_append().append_file(file("c", "x", 1)).to_branch("v1").commit().kind(),
            ErrorKind::kInvalidArgument);

  // A branch that does not exist yet starts from main's head.
  ASSERT_OK(t->new_append().append_file(file("d", "x", 1)).to_branch("fresh").commit());
  EXPECT_EQ(t->metadata()
                ->snapshot_by_id(t->metadata()->refs.at("fresh").snapshot_id)
                ->parent_snapshot_id,
            base);

  // Fast-forward main to the branch, then replace and remove refs.
  ASSERT_OK(t->manage_snapshots().fast_forward("main", "audit").commit());
  EXPECT_EQ(t->metadata()->current_snapshot_id, audit_head);
  EXPECT_FALSE(t->manage_snapshots().fast_forward("fresh", "audit").commit().ok());
  ASSERT_OK(t->manage_snapshots().replace_branch("audit", base).commit());
  EXPECT_EQ(t->metadata()->refs.at("audit").snapshot_id, base);
  EXPECT_FALSE(t->manage_snapshots().remove_tag("audit").commit().ok());
  EXPECT_FALSE(t->manage_snapshots().remove_branch("main").commit().ok());
  ASSERT_OK(t->manage_snapshots()
                .set_min_snapshots_to_keep("audit", 3)
                .set_max_snapshot_age_ms("audit", 1000)
                .set_max_ref_age_ms("v1", 5000)
                .commit());
  EXPECT_EQ(t->metadata()->refs.at("audit").min_snapshots_to_keep, 3);
  EXPECT_EQ(t->metadata()->refs.at("audit").max_snapshot_age_ms, 1000);
  EXPECT_EQ(t->metadata()->refs.at("v1").max_ref_age_ms, 5000);
  EXPECT_FALSE(t->manage_snapshots().set_min_snapshots_to_keep("v1", 1).commit().ok());
  // Retention settings survive commits to the branch and renames.
  ASSERT_OK(t->new_append().append_file(file("e", "x", 1)).to_branch("audit").commit());
  ASSERT_OK(t->manage_snapshots().rename_branch("audit", "review").commit());
  EXPECT_EQ(t->metadata()->refs.at("review").min_snapshots_to_keep, 3);
  EXPECT_EQ(t->metadata()->refs.count("audit"), 0u);
  EXPECT_FALSE(t->manage_snapshots().rename_branch("main", "x").commit().ok());
  ASSERT_OK(t->manage_snapshots().rename_branch("review", "audit").commit());
  ASSERT_OK(t->manage_snapshots().remove_branch("audit").remove_tag("v1").commit());
  EXPECT_EQ(t->metadata()->refs.count("audit"), 0u);
  EXPECT_EQ(t->metadata()->refs.count("v1"), 0u);
  auto reloaded = must(Table::load(catalog, id));
  EXPECT_EQ(*reloaded->metadata(), *t->metadata());
}

}  // namespace
}  // namespace floe::testing
