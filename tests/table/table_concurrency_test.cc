// Optimistic concurrency and failure handling: retries on a refreshed base, validation of
// conflicting overwrites, cleanup of files written by failed or superseded attempts, unknown
// commit outcomes, storage faults, and the metadata log.
#include <gtest/gtest.h>

#include <thread>

#include "floe/expr/expression.h"
#include "forwarding_catalog.h"
#include "table_test_util.h"

namespace floe::testing {
namespace {

using Concurrency = CommitTest;

// Forwards to a catalog but reports every commit's outcome as unknown (optionally after
// performing it), as a catalog whose connection dropped mid-commit would.
class UnknownOutcomeCatalog : public test_support::ForwardingCatalog {
 public:
  UnknownOutcomeCatalog(CatalogPtr inner, bool commit_first)
      : ForwardingCatalog(std::move(inner)), commit_first_(commit_first) {}
  Result<std::string> commit_table(const TableIdentifier& id, std::string_view base,
                                   const TableMetadata& m) override {
    commits++;
    if (commit_first_) FLOE_TRY(inner()->commit_table(id, base, m));
    return Status(ErrorKind::kCommitStateUnknown, "connection lost while committing");
  }
  int commits = 0;

 private:
  bool commit_first_;
};

TEST_F(Concurrency, AppendsFromTheSameBaseBothLand) {
  create();
  auto t1 = must(Table::load(catalog, id));
  auto t2 = must(Table::load(catalog, id));
  ASSERT_OK(t1->new_append().append_file(file("a", "x", 10)).commit());
  ASSERT_OK(t2->new_append().append_file(file("b", "y", 5)).commit());  // stale base: retried
  auto m = must(Table::load(catalog, id))->metadata();
  ASSERT_EQ(m->snapshots.size(), 2u);
  const Snapshot* head = m->current_snapshot();
  EXPECT_EQ(head->sequence_number, 2);
  EXPECT_EQ(head->parent_snapshot_id, m->snapshots[0]->snapshot_id);
  EXPECT_EQ(head->summary.at("total-records"), "15");
  EXPECT_EQ(head->summary.at("total-data-files"), "2");
  // The second attempt wrote a new manifest list; the first attempt's list is gone.
  EXPECT_NE(head->manifest_list.find(fmt::format("snap-{}-2-", head->snapshot_id)),
            std::string::npos)
      << head->manifest_list;
  EXPECT_EQ(stored_avro(*t2), referenced_metadata(*t2));
  EXPECT_EQ(t2->metadata_location(), must(Table::load(catalog, id))->metadata_location());
  EXPECT_EQ(live_files(*t2).size(), 2u);
}

TEST_F(Concurrency, RetriedMergeAppendAndOverwriteRebuildOnTheNewBase) {
  auto t = create({{"commit.manifest.min-count-to-merge", "2"}});
  ASSERT_OK(
      t->new_append().append_file(file("a", "x", 10)).append_file(file("b", "y", 5)).commit());
  auto stale1 = must(Table::load(catalog, id));
  auto stale2 = must(Table::load(catalog, id));
  ASSERT_OK(t->new_append().append_file(file("c", "x", 1)).commit());
  // Retried on top of c's snapshot: merges three manifests' worth of files.
  ASSERT_OK(stale1->new_append().append_file(file("d", "y", 2)).commit());
  // Retried twice: the overwrite by filter is re-evaluated on each new base.
  ASSERT_OK(stale2->new_overwrite()
                .overwrite_by_row_filter(
                    make_predicate(Operation::kEq, "category", {Literal::string("y")}))
                .add_file(file("e", "y", 4))
                .commit());
  auto now = must(Table::load(catalog, id));
  EXPECT_EQ(live_files(*now),
            (std::set<std::string>{"wh/db/t/data/a.parquet", "wh/db/t/data/c.parquet",
                                   "wh/db/t/data/e.parquet"}));
  EXPECT_EQ(summary(*now, "deleted-data-files"), "2");
  EXPECT_EQ(summary(*now, "total-records"), "15");
  EXPECT_EQ(now->metadata()->current_snapshot()->sequence_number, 4);
  EXPECT_EQ(stored_avro(*now), referenced_metadata(*now));
}

TEST_F(Concurrency, ReplacePartitionsValidatesConcurrentAdds) {
  auto t = create();
  ASSERT_OK(t->new_append().append_file(file("a", "x", 10)).commit());
  int64_t start = *t->metadata()->current_snapshot_id;
  auto other = must(Table::load(catalog, id));
  ASSERT_OK(other->new_append().append_file(file("y1", "y", 1)).commit());
  // A concurrent add elsewhere is fine.
  ASSERT_OK(t->new_replace_partitions()
                .add_file(file("a2", "x", 2))
                .validate_from_snapshot(start)
                .validate_no_conflicting_data()
                .commit());
  int64_t start2 = *t->metadata()->current_snapshot_id;
  auto stale = must(Table::load(catalog, id));
  ASSERT_OK(other->new_append().append_file(file("y2", "y", 1)).commit());
  auto s = stale->new_replace_partitions()
               .add_file(file("y3", "y", 2))
               .validate_from_snapshot(start2)
               .validate_no_conflicting_data()
               .commit();
  ASSERT_EQ(s.kind(), ErrorKind::kCommitConflict) << s.to_string();
  EXPECT_NE(s.message().find("y2.parquet"), std::string::npos) << s.message();
  auto append_only =
      t->new_replace_partitions().add_file(file("x9", "x", 1)).validate_append_only();
  EXPECT_EQ(append_only.commit().kind(), ErrorKind::kInvalidArgument);
  ASSERT_OK(t->refresh());
  ASSERT_OK(
      t->new_replace_partitions().add_file(file("z1", "z", 1)).validate_append_only().commit());
  EXPECT_EQ(live_files(*t),
            (std::set<std::string>{"wh/db/t/data/a2.parquet", "wh/db/t/data/y1.parquet",
                                   "wh/db/t/data/y2.parquet", "wh/db/t/data/z1.parquet"}));
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
}

TEST_F(Concurrency, RetriedV3AppendTakesFreshRowIds) {
  create({}, true, 3);
  auto t1 = must(Table::load(catalog, id));
  auto t2 = must(Table::load(catalog, id));
  ASSERT_OK(t1->new_append().append_file(file("a", "x", 10)).commit());
  ASSERT_OK(t2->new_append().append_file(file("b", "x", 4)).commit());
  auto m = t2->metadata();
  const Snapshot* head = m->current_snapshot();
  EXPECT_EQ(head->first_row_id, 10);
  EXPECT_EQ(head->added_rows, 4);
  EXPECT_EQ(m->next_row_id, 14);
  std::map<std::string, int64_t> first_row_ids;
  for (const auto& mf : must(snapshot_manifests(*fio, *m, *head))) {
    for (const auto& e : must(read_manifest(*fio, mf, m.get()))) {
      first_row_ids[e.data_file.file_path] = e.data_file.first_row_id.value_or(-1);
    }
  }
  EXPECT_EQ(first_row_ids.at("wh/db/t/data/a.parquet"), 0);
  EXPECT_EQ(first_row_ids.at("wh/db/t/data/b.parquet"), 10);
}

TEST_F(Concurrency, ConflictingOverwriteFailsAndLeavesTableUnchanged) {
  auto t = create();
  ASSERT_OK(
      t->new_append().append_file(file("a", "x", 10)).append_file(file("b", "y", 5)).commit());
  auto t1 = must(Table::load(catalog, id));
  auto t2 = must(Table::load(catalog, id));
  ASSERT_OK(t1->new_delete().delete_file("wh/db/t/data/a.parquet").commit());
  auto after_t1 = must(Table::load(catalog, id));
  auto s = t2->new_overwrite().delete_file(file("a", "x", 10)).add_file(file("c", "x", 3)).commit();
  ASSERT_EQ(s.kind(), ErrorKind::kCommitConflict) << s.to_string();
  EXPECT_NE(s.message().find("wh/db/t/data/a.parquet"), std::string::npos) << s.message();
  auto now = must(Table::load(catalog, id));
  EXPECT_EQ(now->metadata_location(), after_t1->metadata_location());
  EXPECT_EQ(*now->metadata(), *after_t1->metadata());
  EXPECT_EQ(live_files(*now), std::set<std::string>{"wh/db/t/data/b.parquet"});
  EXPECT_EQ(stored_avro(*now), referenced_metadata(*now));
}

TEST_F(Concurrency, OverwriteValidatesConcurrentlyAddedData) {
  auto t = create();
  ASSERT_OK(t->new_append().append_file(file("a", "x", 10)).commit());
  int64_t start = *t->metadata()->current_snapshot_id;
  auto other = must(Table::load(catalog, id));
  // A concurrent append outside the overwrite's filter does not conflict.
  ASSERT_OK(other->new_append().append_file(file("y1", "y", 1)).commit());
  ASSERT_OK(t->new_overwrite()
                .overwrite_by_row_filter(
                    make_predicate(Operation::kEq, "category", {Literal::string("x")}))
                .add_file(file("a2", "x", 4))
                .validate_from_snapshot(start)
                .validate_no_conflicting_data()
                .commit());
  EXPECT_EQ(live_files(*t),
            (std::set<std::string>{"wh/db/t/data/a2.parquet", "wh/db/t/data/y1.parquet"}));
  // One inside it does.
  int64_t start2 = *t->metadata()->current_snapshot_id;
  auto stale = must(Table::load(catalog, id));
  ASSERT_OK(other->new_append().append_file(file("x2", "x", 1)).commit());
  auto s = stale->new_overwrite()
               .overwrite_by_row_filter(
                   make_predicate(Operation::kEq, "category", {Literal::string("x")}))
               .add_file(file("a3", "x", 4))
               .validate_from_snapshot(start2)
               .validate_no_conflicting_data()
               .commit();
  ASSERT_EQ(s.kind(), ErrorKind::kCommitConflict) << s.to_string();
  EXPECT_NE(s.message().find("x2.parquet"), std::string::npos) << s.message();
  EXPECT_EQ(live_files(*must(Table::load(catalog, id))),
            (std::set<std::string>{"wh/db/t/data/a2.parquet", "wh/db/t/data/y1.parquet",
                                   "wh/db/t/data/x2.parquet"}));
}

TEST_F(Concurrency, ManyThreadsAppending) {
  create({{"commit.retry.num-retries", "1000"}, {"commit.retry.max-wait-ms", "10"}});
  constexpr int kThreads = 6;
  constexpr int kPerThread = 5;
  auto shared = must(Table::load(catalog, id));
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      // Half the threads share one Table object, the others load their own.
      auto table = i % 2 ? shared : must(Table::load(catalog, id));
      for (int j = 0; j < kPerThread; ++j) {
        auto name = fmt::format("t{}-{}", i, j);
        auto s = (j % 2 ? table->new_fast_append() : table->new_append())
                     .append_file(file(name, i % 2 ? "x" : "y", i * 10 + j + 1))
                     .commit();
        if (!s.ok()) failures++;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  auto t = must(Table::load(catalog, id));
  auto m = t->metadata();
  int64_t expected_records = 0;
  for (int i = 0; i < kThreads; ++i) {
    for (int j = 0; j < kPerThread; ++j) expected_records += i * 10 + j + 1;
  }
  EXPECT_EQ(m->snapshots.size(), size_t{kThreads * kPerThread});
  EXPECT_EQ(m->last_sequence_number, kThreads * kPerThread);
  EXPECT_EQ(summary(*t, "total-records"), std::to_string(expected_records));
  EXPECT_EQ(summary(*t, "total-data-files"), std::to_string(kThreads * kPerThread));
  EXPECT_EQ(live_files(*t).size(), size_t{kThreads * kPerThread});
  // One linear history.
  int chain = 0;
  for (const Snapshot* s = m->current_snapshot(); s;
       s = s->parent_snapshot_id ? m->snapshot_by_id(*s->parent_snapshot_id) : nullptr) {
    EXPECT_EQ(s->sequence_number, kThreads * kPerThread - chain);
    chain++;
  }
  EXPECT_EQ(chain, kThreads * kPerThread);
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
}

TEST_F(Concurrency, RetriesExhaustedCleansUp) {
  auto t = create({{"commit.retry.num-retries", "0"}});
  auto stale = must(Table::load(catalog, id));
  ASSERT_OK(t->new_append().append_file(file("a", "x", 1)).commit());
  auto append = stale->new_append().append_file(file("b", "x", 1));
  EXPECT_EQ(append.commit().kind(), ErrorKind::kCommitConflict);
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
  EXPECT_EQ(live_files(*must(Table::load(catalog, id))),
            std::set<std::string>{"wh/db/t/data/a.parquet"});
  // Committed again (the table now knows the latest metadata), it lands.
  ASSERT_OK(append.commit());
  EXPECT_EQ(live_files(*stale).size(), 2u);
  EXPECT_EQ(stored_avro(*stale), referenced_metadata(*stale));
}

TEST_F(Concurrency, FailedManifestListWriteLeavesPreviousSnapshot) {
  auto t = create();
  ASSERT_OK(t->new_append().append_file(file("a", "x", 10)).commit());
  auto before = t->metadata();
  std::string before_location = t->metadata_location();
  fio->fail_writes({.path_contains = "/snap-"});
  size_t deleted_before = fio->deleted_paths().size();
  auto append = t->new_append().append_file(file("b", "x", 10));
  auto s = append.commit();
  ASSERT_EQ(s.kind(), ErrorKind::kIo) << s.to_string();
  EXPECT_EQ(fio->writes_failed(), 1);
  auto now = must(Table::load(catalog, id));
  EXPECT_EQ(now->metadata_location(), before_location);
  EXPECT_EQ(*now->metadata(), *before);
  EXPECT_EQ(live_files(*now), std::set<std::string>{"wh/db/t/data/a.parquet"});
  // The new manifest it wrote was removed.
  auto deleted = fio->deleted_paths();
  ASSERT_GT(deleted.size(), deleted_before);
  EXPECT_NE(deleted.back().find("-m0.avro"), std::string::npos) << deleted.back();
  EXPECT_EQ(stored_avro(*now), referenced_metadata(*now));
  // The same update commits once storage recovers (its deleted manifest is rewritten).
  ASSERT_OK(append.commit());
  EXPECT_EQ(summary(*t, "total-records"), "20");
  EXPECT_EQ(live_files(*t).size(), 2u);
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
}

TEST_F(Concurrency, FailedMetadataWriteCleansUp) {
  auto t = create();
  ASSERT_OK(t->new_append().append_file(file("a", "x", 10)).commit());
  fio->fail_writes({.path_contains = ".metadata.json"});
  auto s = t->new_append().append_file(file("b", "x", 10)).commit();
  ASSERT_EQ(s.kind(), ErrorKind::kIo) << s.to_string();
  auto now = must(Table::load(catalog, id));
  EXPECT_EQ(live_files(*now), std::set<std::string>{"wh/db/t/data/a.parquet"});
  EXPECT_EQ(stored_avro(*now), referenced_metadata(*now));
}

TEST_F(Concurrency, CrashedStorageFailsTheCommit) {
  auto t = create();
  ASSERT_OK(t->new_append().append_file(file("a", "x", 10)).commit());
  fio->crash();
  EXPECT_EQ(t->new_append().append_file(file("b", "x", 10)).commit().kind(), ErrorKind::kIo);
  fio->heal();
  EXPECT_EQ(live_files(*must(Table::load(catalog, id))),
            std::set<std::string>{"wh/db/t/data/a.parquet"});
}

TEST_F(Concurrency, UnknownOutcomeDeletesNothing) {
  create();
  for (bool committed : {true, false}) {
    auto unknown = std::make_shared<UnknownOutcomeCatalog>(catalog, committed);
    auto t = must(Table::load(unknown, id));
    // Without a snapshot to look for, the outcome stays unknown.
    EXPECT_EQ(t->update_properties().set("k", committed ? "1" : "2").commit().kind(),
              ErrorKind::kCommitStateUnknown);
    ASSERT_OK(t->refresh());  // the property change may have landed
    unknown->commits = 0;
    size_t deleted_before = fio->deleted_paths().size();
    auto s = t->new_append().append_file(file(committed ? "a" : "b", "x", 10)).commit();
    // A commit that went through is recognised by its snapshot; otherwise it stays unknown.
    ASSERT_EQ(s.kind(), committed ? ErrorKind::kOk : ErrorKind::kCommitStateUnknown)
        << s.to_string();
    if (committed) {
      EXPECT_EQ(t->metadata_location(), must(Table::load(catalog, id))->metadata_location());
    }
    EXPECT_EQ(unknown->commits, 1);  // never retried
    EXPECT_EQ(fio->deleted_paths().size(), deleted_before);
    // Every file the attempt wrote is still there.
    for (const auto& p : fio->written_paths()) {
      if (p.find(".avro") != std::string::npos) {
        EXPECT_TRUE(must(fio->exists(p))) << p;
      }
    }
  }
  // The commit that went through is live and readable.
  auto t = must(Table::load(catalog, id));
  EXPECT_EQ(live_files(*t), std::set<std::string>{"wh/db/t/data/a.parquet"});
}

TEST_F(Concurrency, MetadataLogIsTrimmedAndOldFilesDeleted) {
  auto t = create({{"write.metadata.previous-versions-max", "2"},
                   {"write.metadata.delete-after-commit.enabled", "true"}});
  std::vector<std::string> locations{t->metadata_location()};
  for (int i = 0; i < 4; ++i) {
    ASSERT_OK(t->new_fast_append().append_file(file(fmt::format("f{}", i), "x", 1)).commit());
    locations.push_back(t->metadata_location());
  }
  auto m = t->metadata();
  ASSERT_EQ(m->metadata_log.size(), 2u);
  EXPECT_EQ(m->metadata_log[0].metadata_file, locations[2]);
  EXPECT_EQ(m->metadata_log[1].metadata_file, locations[3]);
  EXPECT_FALSE(must(fio->exists(locations[0])));
  EXPECT_FALSE(must(fio->exists(locations[1])));
  for (size_t i = 2; i < locations.size(); ++i) EXPECT_TRUE(must(fio->exists(locations[i])));
  // Without delete-after-commit the dropped files stay.
  ASSERT_OK(
      t->update_properties().set("write.metadata.delete-after-commit.enabled", "false").commit());
  ASSERT_OK(t->new_fast_append().append_file(file("g", "x", 1)).commit());
  EXPECT_EQ(t->metadata()->metadata_log.size(), 2u);
  EXPECT_TRUE(must(fio->exists(locations[3])));
  EXPECT_TRUE(must(fio->exists(locations[4])));
}

}  // namespace
}  // namespace floe::testing
