// Table creation and the snapshot producers on a memory catalog: snapshots, sequence numbers,
// summaries, manifest merging, overwrites, deletes, partition replacement, properties.
#include <gtest/gtest.h>

#include "floe/expr/expression.h"
#include "table_test_util.h"

namespace floe::testing {
namespace {

using Commit = CommitTest;

TEST_F(Commit, CreateAssignsFreshIdsLikeJava) {
  auto nested = std::make_shared<const Schema>(
      3, std::vector<NestedField>{field(10, "id", Type::int64(), true),
                                  field(20, "point",
                                        Type::struct_of({field(21, "x", Type::float64(), false),
                                                         field(22, "y", Type::float64(), false)})),
                                  field(30, "category", Type::string(), false)});
  auto spec = std::make_shared<const PartitionSpec>(
      4, std::vector<PartitionField>{{30, {}, 7, "category", Transform::identity()},
                                     {10, {}, 8, "id_bucket", Transform::bucket(4)}});
  auto t = must(Table::create(catalog, id, nested, spec, nullptr, {{"format-version", "1"}}));
  auto m = t->metadata();
  EXPECT_EQ(m->format_version, 1);
  EXPECT_EQ(m->properties.count("format-version"), 0u);
  EXPECT_EQ(m->property("write.parquet.compression-codec"), "zstd");
  const Schema& s = *m->schema();
  EXPECT_EQ(s.schema_id(), 0);
  // Top-level fields first (1, 2, 3), then the nested struct's fields (4, 5).
  EXPECT_EQ(s.find_field("id")->id, 1);
  EXPECT_EQ(s.find_field("point")->id, 2);
  EXPECT_EQ(s.find_field("category")->id, 3);
  EXPECT_EQ(s.find_field("point.x")->id, 4);
  EXPECT_EQ(s.find_field("point.y")->id, 5);
  EXPECT_EQ(m->last_column_id, 5);
  ASSERT_EQ(m->spec()->fields().size(), 2u);
  EXPECT_EQ(m->spec()->spec_id(), 0);
  EXPECT_EQ(m->spec()->fields()[0].source_id, 3);
  EXPECT_EQ(m->spec()->fields()[0].field_id, 1000);
  EXPECT_EQ(m->spec()->fields()[1].source_id, 1);
  EXPECT_EQ(m->spec()->fields()[1].field_id, 1001);
  EXPECT_EQ(m->last_partition_id, 1001);
  EXPECT_EQ(m->location, "wh/db/t");
  EXPECT_FALSE(m->current_snapshot_id.has_value());

  auto again = Table::create(catalog, id, nested, spec);
  EXPECT_EQ(status_of(again).kind(), ErrorKind::kAlreadyExists);
  auto loaded = must(Table::load(catalog, id));
  EXPECT_EQ(loaded->metadata_location(), t->metadata_location());
  EXPECT_EQ(loaded->metadata()->table_uuid, m->table_uuid);
}

TEST_F(Commit, AppendTwiceBuildsTwoSnapshotsWithTotals) {
  auto t = create();
  std::string created_location = t->metadata_location();
  int64_t created_ms = t->metadata()->last_updated_ms;
  ASSERT_OK(
      t->new_append().append_file(file("a", "x", 10)).append_file(file("b", "y", 5)).commit());
  auto m1 = t->metadata();
  const Snapshot* s1 = m1->current_snapshot();
  ASSERT_NE(s1, nullptr);
  EXPECT_GT(s1->snapshot_id, 0);
  EXPECT_EQ(s1->sequence_number, 1);
  EXPECT_FALSE(s1->parent_snapshot_id.has_value());
  EXPECT_EQ(s1->operation(), "append");
  EXPECT_EQ(s1->schema_id, 0);
  EXPECT_EQ(s1->summary.at("added-data-files"), "2");
  EXPECT_EQ(s1->summary.at("added-records"), "15");
  EXPECT_EQ(s1->summary.at("added-files-size"), std::to_string(107 + 57));
  EXPECT_EQ(s1->summary.at("changed-partition-count"), "2");
  EXPECT_EQ(s1->summary.at("total-records"), "15");
  EXPECT_EQ(s1->summary.at("total-data-files"), "2");
  EXPECT_EQ(s1->summary.at("total-files-size"), std::to_string(107 + 57));
  EXPECT_EQ(s1->summary.at("total-delete-files"), "0");
  EXPECT_EQ(s1->summary.at("total-position-deletes"), "0");
  EXPECT_EQ(s1->summary.at("total-equality-deletes"), "0");
  EXPECT_EQ(s1->summary.count("deleted-data-files"), 0u);
  EXPECT_EQ(s1->summary.count("partition-summaries-included"), 0u);
  std::string list_name = s1->manifest_list.substr(s1->manifest_list.rfind('/') + 1);
  EXPECT_EQ(s1->manifest_list.rfind("wh/db/t/metadata/snap-", 0), 0u) << s1->manifest_list;
  EXPECT_EQ(list_name.rfind(fmt::format("snap-{}-1-", s1->snapshot_id), 0), 0u) << list_name;
  EXPECT_EQ(m1->last_sequence_number, 1);
  ASSERT_EQ(m1->metadata_log.size(), 1u);
  EXPECT_EQ(m1->metadata_log[0].metadata_file, created_location);
  EXPECT_EQ(m1->metadata_log[0].timestamp_ms, created_ms);
  EXPECT_GT(m1->last_updated_ms, created_ms);
  EXPECT_EQ(m1->refs.at("main").snapshot_id, s1->snapshot_id);
  ASSERT_EQ(m1->snapshot_log.size(), 1u);

  ASSERT_OK(t->new_append().append_file(file("c", "x", 20)).commit());
  auto m2 = t->metadata();
  const Snapshot* s2 = m2->current_snapshot();
  EXPECT_EQ(s2->sequence_number, 2);
  EXPECT_EQ(s2->parent_snapshot_id, s1->snapshot_id);
  EXPECT_EQ(s2->summary.at("added-records"), "20");
  EXPECT_EQ(s2->summary.at("total-records"), "35");
  EXPECT_EQ(s2->summary.at("total-data-files"), "3");
  EXPECT_EQ(s2->summary.at("changed-partition-count"), "1");
  EXPECT_EQ(m2->snapshots.size(), 2u);
  EXPECT_EQ(m2->metadata_log.size(), 2u);
  EXPECT_GT(m2->last_updated_ms, m1->last_updated_ms);
  EXPECT_EQ(live_files(*t),
            (std::set<std::string>{"wh/db/t/data/a.parquet", "wh/db/t/data/b.parquet",
                                   "wh/db/t/data/c.parquet"}));
  // The committed manifests carry the snapshot's sequence number.
  auto manifests = must(snapshot_manifests(*fio, *m2, *s2));
  ASSERT_EQ(manifests.size(), 2u);
  EXPECT_EQ(manifests[0].sequence_number, 2);
  EXPECT_EQ(manifests[0].added_snapshot_id, s2->snapshot_id);
  EXPECT_EQ(manifests[1].sequence_number, 1);
  // A fresh load sees the same state.
  auto reloaded = must(Table::load(catalog, id));
  EXPECT_EQ(*reloaded->metadata(), *m2);
  // Nothing is left behind.
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
}

TEST_F(Commit, PartitionSummariesWhenLimitSet) {
  auto t = create({{"write.summary.partition-limit", "10"}});
  ASSERT_OK(
      t->new_append().append_file(file("a", "x", 10)).append_file(file("b", "x", 5)).commit());
  EXPECT_EQ(summary(*t, "partition-summaries-included"), "true");
  EXPECT_EQ(summary(*t, "partitions.category=x"),
            "added-data-files=2,added-records=15,added-files-size=164");
}

TEST_F(Commit, FastAppendKeepsOneManifestPerCommit) {
  auto t = create({{"commit.manifest.min-count-to-merge", "2"}});
  for (int i = 0; i < 3; ++i) {
    ASSERT_OK(t->new_fast_append().append_file(file(fmt::format("f{}", i), "x", 1)).commit());
  }
  auto m = t->metadata();
  EXPECT_EQ(must(snapshot_manifests(*fio, *m, *m->current_snapshot())).size(), 3u);
}

TEST_F(Commit, MergeAppendMergesOnceMinCountIsReached) {
  auto t = create({{"commit.manifest.min-count-to-merge", "3"}});
  auto manifests = [&] {
    auto m = t->metadata();
    return must(snapshot_manifests(*fio, *m, *m->current_snapshot()));
  };
  ASSERT_OK(t->new_append().append_file(file("f0", "x", 1)).commit());
  EXPECT_EQ(manifests().size(), 1u);
  ASSERT_OK(t->new_append().append_file(file("f1", "x", 2)).commit());
  EXPECT_EQ(manifests().size(), 2u);
  ASSERT_OK(t->new_append().append_file(file("f2", "x", 3)).commit());
  auto merged = manifests();
  ASSERT_EQ(merged.size(), 1u);
  const Snapshot* s3 = t->metadata()->current_snapshot();
  EXPECT_EQ(merged[0].added_files_count, 1);
  EXPECT_EQ(merged[0].existing_files_count, 2);
  EXPECT_EQ(merged[0].min_sequence_number, 1);
  auto entries = must(read_manifest(*fio, merged[0], t->metadata().get()));
  ASSERT_EQ(entries.size(), 3u);
  std::map<std::string, ManifestEntry> by_path;
  for (const auto& e : entries) by_path[e.data_file.file_path] = e;
  auto& f2 = by_path.at("wh/db/t/data/f2.parquet");
  EXPECT_EQ(f2.status, ManifestEntryStatus::kAdded);
  EXPECT_EQ(f2.snapshot_id, s3->snapshot_id);
  EXPECT_EQ(f2.sequence_number, 3);
  auto& f0 = by_path.at("wh/db/t/data/f0.parquet");
  EXPECT_EQ(f0.status, ManifestEntryStatus::kExisting);
  EXPECT_EQ(f0.sequence_number, 1);
  EXPECT_NE(f0.snapshot_id, s3->snapshot_id);
  EXPECT_EQ(summary(*t, "total-records"), "6");
  EXPECT_EQ(live_files(*t).size(), 3u);
  ASSERT_OK(t->new_append().append_file(file("f3", "x", 4)).commit());
  EXPECT_EQ(manifests().size(), 2u);  // new + merged: below the minimum again
  // Disabled merging behaves as a fast append.
  ASSERT_OK(t->update_properties().set("commit.manifest-merge.enabled", "false").commit());
  ASSERT_OK(t->new_append().append_file(file("f4", "x", 4)).commit());
  EXPECT_EQ(manifests().size(), 3u);
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
}

TEST_F(Commit, OverwriteByFilterDeletesWholeFilesAndAddsNew) {
  auto t = create();
  ASSERT_OK(
      t->new_append().append_file(file("a", "x", 10)).append_file(file("b", "y", 5)).commit());
  ASSERT_OK(t->new_overwrite()
                .overwrite_by_row_filter(
                    make_predicate(Operation::kEq, "category", {Literal::string("x")}))
                .add_file(file("c", "x", 7))
                .commit());
  EXPECT_EQ(live_files(*t),
            (std::set<std::string>{"wh/db/t/data/b.parquet", "wh/db/t/data/c.parquet"}));
  EXPECT_EQ(summary(*t, "operation"), "overwrite");
  EXPECT_EQ(summary(*t, "deleted-data-files"), "1");
  EXPECT_EQ(summary(*t, "deleted-records"), "10");
  EXPECT_EQ(summary(*t, "removed-files-size"), "107");
  EXPECT_EQ(summary(*t, "added-data-files"), "1");
  EXPECT_EQ(summary(*t, "total-records"), "12");
  EXPECT_EQ(summary(*t, "total-data-files"), "2");
  // The deletion is recorded as a DELETED entry of this snapshot.
  auto m = t->metadata();
  int deleted = 0;
  for (const auto& mf : must(snapshot_manifests(*fio, *m, *m->current_snapshot()))) {
    for (const auto& e : must(read_manifest(*fio, mf, m.get()))) {
      if (e.status == ManifestEntryStatus::kDeleted) {
        deleted++;
        EXPECT_EQ(e.data_file.file_path, "wh/db/t/data/a.parquet");
        EXPECT_EQ(e.snapshot_id, m->current_snapshot_id);
        EXPECT_EQ(e.sequence_number, 1);  // the data sequence number is kept
      }
    }
  }
  EXPECT_EQ(deleted, 1);
}

TEST_F(Commit, OverwriteByMetricsAndPartialMatchError) {
  auto t = create();
  ASSERT_OK(t->new_append()
                .append_file(file("a", "x", 10, 1, 10))
                .append_file(file("b", "x", 10, 20, 30))
                .commit());
  auto before = t->metadata();
  // Every row of a (ids 1..10) matches id <= 10; b's rows cannot.
  ASSERT_OK(
      t->new_overwrite()
          .overwrite_by_row_filter(make_predicate(Operation::kLtEq, "id", {Literal::int64(10)}))
          .commit());
  EXPECT_EQ(live_files(*t), std::set<std::string>{"wh/db/t/data/b.parquet"});
  EXPECT_EQ(summary(*t, "operation"), "delete");
  auto after_delete = t->metadata();
  auto partial =
      t->new_overwrite()
          .overwrite_by_row_filter(make_predicate(Operation::kGt, "id", {Literal::int64(25)}))
          .commit();
  ASSERT_EQ(partial.kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(partial.message().find("Cannot delete file where some, but not all, rows match filter"),
            std::string::npos)
      << partial.message();
  EXPECT_NE(partial.message().find("b.parquet"), std::string::npos);
  EXPECT_EQ(*t->metadata(), *after_delete);
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
}

TEST_F(Commit, OverwriteMissingFileFails) {
  auto t = create();
  ASSERT_OK(t->new_append().append_file(file("a", "x", 10)).commit());
  auto s =
      t->new_overwrite().delete_file(file("nope", "x", 1)).add_file(file("c", "x", 1)).commit();
  EXPECT_EQ(s.kind(), ErrorKind::kCommitConflict);
  EXPECT_NE(s.message().find("nope.parquet"), std::string::npos) << s.message();
}

TEST_F(Commit, ReplacePartitionsDropsOnlyTouchedPartitions) {
  auto t = create();
  ASSERT_OK(t->new_append()
                .append_file(file("a", "x", 10))
                .append_file(file("b", "y", 5))
                .append_file(file("c", "x", 3))
                .commit());
  ASSERT_OK(t->new_replace_partitions().add_file(file("d", "x", 4)).commit());
  EXPECT_EQ(live_files(*t),
            (std::set<std::string>{"wh/db/t/data/b.parquet", "wh/db/t/data/d.parquet"}));
  EXPECT_EQ(summary(*t, "operation"), "overwrite");
  EXPECT_EQ(summary(*t, "replace-partitions"), "true");
  EXPECT_EQ(summary(*t, "deleted-data-files"), "2");
  EXPECT_EQ(summary(*t, "total-records"), "9");
}

TEST_F(Commit, ReplacePartitionsUnpartitionedReplacesEverything) {
  auto t = create({}, false);
  ASSERT_OK(t->new_append().append_file(file("a", "", 10, 1, 100, false)).commit());
  ASSERT_OK(t->new_append().append_file(file("b", "", 10, 1, 100, false)).commit());
  ASSERT_OK(t->new_replace_partitions().add_file(file("c", "", 1, 1, 100, false)).commit());
  EXPECT_EQ(live_files(*t), std::set<std::string>{"wh/db/t/data/c.parquet"});
  EXPECT_EQ(summary(*t, "total-records"), "1");
}

TEST_F(Commit, DeleteByFilterAndPath) {
  auto t = create();
  ASSERT_OK(t->new_append()
                .append_file(file("a", "x", 10))
                .append_file(file("b", "y", 5))
                .append_file(file("c", "z", 3))
                .commit());
  ASSERT_OK(t->new_delete()
                .delete_from_row_filter(
                    make_predicate(Operation::kEq, "category", {Literal::string("y")}))
                .commit());
  EXPECT_EQ(summary(*t, "operation"), "delete");
  EXPECT_EQ(summary(*t, "deleted-records"), "5");
  EXPECT_EQ(summary(*t, "total-records"), "13");
  ASSERT_OK(t->new_delete().delete_file("wh/db/t/data/a.parquet").commit());
  EXPECT_EQ(live_files(*t), std::set<std::string>{"wh/db/t/data/c.parquet"});
  EXPECT_EQ(summary(*t, "total-data-files"), "1");
  // Deleting a path that is not live is a no-op unless the files must exist.
  ASSERT_OK(t->new_delete().delete_file("wh/db/t/data/a.parquet").commit());
  EXPECT_EQ(summary(*t, "total-data-files"), "1");
  EXPECT_EQ(summary(*t, "deleted-data-files"), "<unset>");
  auto missing =
      t->new_delete().delete_file("wh/db/t/data/a.parquet").validate_files_exist().commit();
  EXPECT_EQ(missing.kind(), ErrorKind::kCommitConflict);
  EXPECT_NE(missing.message().find("a.parquet"), std::string::npos);
  // A filter on a column without metrics or partition cannot be decided per file.
  auto s = t->new_delete()
               .delete_from_row_filter(make_predicate(Operation::kEq, "value", {Literal::int64(3)}))
               .commit();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
}

TEST_F(Commit, PropertiesSetAndRemove) {
  auto t = create({{"a", "1"}, {"b", "2"}});
  ASSERT_OK(t->update_properties().set("a", "10").set("c", "3").remove("b").commit());
  auto props = t->properties();
  EXPECT_EQ(props.at("a"), "10");
  EXPECT_EQ(props.at("c"), "3");
  EXPECT_EQ(props.count("b"), 0u);
  EXPECT_EQ(must(Table::load(catalog, id))->properties(), props);
  auto conflict = t->update_properties().set("a", "1").remove("a").commit();
  EXPECT_EQ(conflict.kind(), ErrorKind::kInvalidArgument);
  ASSERT_OK(t->update_properties().set("format-version", "3").commit());
  EXPECT_EQ(t->metadata()->format_version, 3);
  EXPECT_EQ(t->metadata()->next_row_id, 0);
  EXPECT_FALSE(t->update_properties().set("format-version", "2").commit().ok());
}

TEST_F(Commit, TransactionCommitsOnceForManyUpdates) {
  auto t = create();
  size_t log_before = t->metadata()->metadata_log.size();
  auto txn = t->new_transaction();
  ASSERT_OK(txn.new_append().append_file(file("a", "x", 1)).commit());
  ASSERT_OK(txn.new_append().append_file(file("b", "x", 2)).commit());
  ASSERT_OK(txn.update_properties().set("k", "v").commit());
  EXPECT_FALSE(t->metadata()->current_snapshot_id.has_value());  // nothing visible yet
  EXPECT_EQ(txn.pending().snapshots.size(), 2u);
  ASSERT_OK(txn.commit());
  auto m = t->metadata();
  EXPECT_EQ(m->snapshots.size(), 2u);
  EXPECT_EQ(m->metadata_log.size(), log_before + 1);
  EXPECT_EQ(m->property("k"), "v");
  EXPECT_EQ(m->current_snapshot()->sequence_number, 2);
  EXPECT_EQ(summary(*t, "total-records"), "3");
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
}

TEST_F(Commit, FormatVersionOneHasNoSequenceNumbers) {
  auto t = create({}, true, 1);
  ASSERT_OK(t->new_append().append_file(file("a", "x", 10)).commit());
  ASSERT_OK(t->new_append().append_file(file("b", "x", 10)).commit());
  auto m = t->metadata();
  EXPECT_EQ(m->format_version, 1);
  EXPECT_EQ(m->last_sequence_number, 0);
  for (const auto& s : m->snapshots) EXPECT_EQ(s->sequence_number, 0);
  EXPECT_EQ(summary(*t, "total-records"), "20");
  EXPECT_EQ(live_files(*t).size(), 2u);
  auto reloaded = must(Table::load(catalog, id));
  EXPECT_EQ(reloaded->metadata()->snapshots.size(), 2u);
}

TEST_F(Commit, FormatVersionThreeAssignsRowIds) {
  auto t = create({}, true, 3);
  EXPECT_EQ(t->metadata()->next_row_id, 0);
  ASSERT_OK(
      t->new_append().append_file(file("a", "x", 10)).append_file(file("b", "y", 5)).commit());
  auto m1 = t->metadata();
  const Snapshot* s1 = m1->current_snapshot();
  EXPECT_EQ(s1->first_row_id, 0);
  EXPECT_EQ(s1->added_rows, 15);
  EXPECT_EQ(m1->next_row_id, 15);
  ASSERT_OK(t->new_fast_append().append_file(file("c", "x", 7)).commit());
  auto m2 = t->metadata();
  const Snapshot* s2 = m2->current_snapshot();
  EXPECT_EQ(s2->first_row_id, 15);
  EXPECT_EQ(s2->added_rows, 7);
  EXPECT_EQ(m2->next_row_id, 22);
  auto manifests = must(snapshot_manifests(*fio, *m2, *s2));
  ASSERT_EQ(manifests.size(), 2u);
  EXPECT_EQ(manifests[0].first_row_id, 15);
  EXPECT_EQ(manifests[1].first_row_id, 0);
  auto entries = must(read_manifest(*fio, manifests[1], m2.get()));
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].data_file.first_row_id, 0);
  EXPECT_EQ(entries[1].data_file.first_row_id, 10);
}

TEST_F(Commit, ManifestCountsInSummary) {
  auto t = create({{"commit.manifest-merge.enabled", "false"}});
  for (const char* c : {"x", "y", "z"}) {
    ASSERT_OK(t->new_append().append_file(file(std::string("f") + c, c, 1)).commit());
  }
  EXPECT_EQ(summary(*t, "manifests-created"), "1");
  EXPECT_EQ(summary(*t, "manifests-kept"), "2");
  EXPECT_EQ(summary(*t, "manifests-replaced"), "0");
  ASSERT_OK(t->new_delete()
                .delete_from_row_filter(
                    make_predicate(Operation::kEq, "category", {Literal::string("y")}))
                .commit());
  EXPECT_EQ(summary(*t, "manifests-created"), "1");  // y's manifest rewritten
  EXPECT_EQ(summary(*t, "manifests-kept"), "2");
  EXPECT_EQ(summary(*t, "manifests-replaced"), "1");
  EXPECT_EQ(live_files(*t),
            (std::set<std::string>{"wh/db/t/data/fx.parquet", "wh/db/t/data/fz.parquet"}));
}

TEST_F(Commit, UpdateCommitsOnlyOnce) {
  auto t = create();
  auto append = t->new_append().append_file(file("a", "x", 1));
  ASSERT_OK(append.commit());
  EXPECT_EQ(append.commit().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(t->metadata()->snapshots.size(), 1u);
  EXPECT_EQ(append.snapshot_id(), *t->metadata()->current_snapshot_id);
}

TEST_F(Commit, AddedFilesMustMatchOverwriteFilter) {
  auto t = create();
  ASSERT_OK(t->new_append().append_file(file("a", "x", 10)).commit());
  auto s = t->new_overwrite()
               .overwrite_by_row_filter(
                   make_predicate(Operation::kEq, "category", {Literal::string("x")}))
               .add_file(file("b", "y", 1))
               .validate_added_files_match_overwrite_filter()
               .commit();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(s.message().find("b.parquet"), std::string::npos) << s.message();
  ASSERT_OK(t->new_overwrite()
                .overwrite_by_row_filter(
                    make_predicate(Operation::kEq, "category", {Literal::string("x")}))
                .add_file(file("c", "x", 1))
                .validate_added_files_match_overwrite_filter()
                .commit());
  EXPECT_EQ(live_files(*t), std::set<std::string>{"wh/db/t/data/c.parquet"});
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
}

}  // namespace
}  // namespace floe::testing
