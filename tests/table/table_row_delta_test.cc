// RowDelta (merge-on-read DELETE/UPDATE/MERGE and CDC commits): delete manifests and sequence
// numbers, summaries, the operation, format-version rules for deletion vectors (DVs), replacing
// and dropping DVs, delete files dropped by other producers, every validation with its conflict
// and its independent change, retries, branches, metadata tables, and deletes applied on read.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "floe/expr/expression.h"
#include "floe/format/parquet/writer.h"
#include "floe/read/task_reader.h"
#include "floe/table/metadata_tables.h"
#include "floe/util/compression.h"
#include "floe/write/delete_writer.h"
#include "table_test_util.h"

namespace floe::testing {
namespace {

using json = nlohmann::json;

ExprPtr category_is(const std::string& value) {
  return make_predicate(Operation::kEq, "category", {Literal::string(value)});
}

// A position delete file of `records` positions in `category`, scoped to `target` if given.
DataFile pos_delete(const std::string& name, const std::string& category, int64_t records,
                    const std::string& target = "") {
  DataFile f;
  f.content = FileContent::kPositionDeletes;
  f.file_path = "wh/db/t/data/" + name + "-deletes.parquet";
  f.file_format = "PARQUET";
  f.partition = {Literal::string(category)};
  f.record_count = records;
  f.file_size_in_bytes = records * 4 + 100;
  if (!target.empty()) f.referenced_data_file = target;
  return f;
}

// An equality delete file on id of `records` rows in `category`.
DataFile eq_delete(const std::string& name, const std::string& category, int64_t records) {
  DataFile f;
  f.content = FileContent::kEqualityDeletes;
  f.file_path = "wh/db/t/data/" + name + "-eq-deletes.parquet";
  f.file_format = "PARQUET";
  f.partition = {Literal::string(category)};
  f.record_count = records;
  f.file_size_in_bytes = records * 4 + 100;
  f.equality_ids = std::vector<int32_t>{1};
  return f;
}

// A deletion vector of `cardinality` positions for `data`, the blob at `offset` in `puffin`.
DataFile dv(const std::string& puffin, const DataFile& data, int64_t offset, int64_t length,
            int64_t cardinality) {
  DataFile f;
  f.content = FileContent::kPositionDeletes;
  f.file_path = "wh/db/t/data/" + puffin + ".puffin";
  f.file_format = "PUFFIN";
  f.partition = data.partition;
  f.spec_id = data.spec_id;
  f.record_count = cardinality;
  f.file_size_in_bytes = 824;
  f.referenced_data_file = data.file_path;
  f.content_offset = offset;
  f.content_size_in_bytes = length;
  return f;
}

std::string describe(const DataFile& f) {
  return f.content_offset ? fmt::format("{}@{}", f.file_path, *f.content_offset) : f.file_path;
}

class RowDeltaTest : public CommitTest {
 protected:
  std::vector<ManifestFile> manifests(const Table& t, ManifestContent content,
                                      const Snapshot* s = nullptr) {
    auto m = t.metadata();
    if (!s) s = m->current_snapshot();
    std::vector<ManifestFile> out;
    for (auto& mf : must(snapshot_manifests(*fio, *m, *s))) {
      if (mf.content == content) out.push_back(std::move(mf));
    }
    return out;
  }

  std::vector<ManifestEntry> entries(const Table& t, ManifestContent content,
                                     const Snapshot* s = nullptr) {
    auto m = t.metadata();
    std::vector<ManifestEntry> out;
    for (const auto& mf : manifests(t, content, s)) {
      auto e = must(read_manifest(*fio, mf, m.get()));
      out.insert(out.end(), e.begin(), e.end());
    }
    return out;
  }

  // The live delete files, as "path" or "path@offset".
  std::set<std::string> live_deletes(const Table& t, const Snapshot* s = nullptr) {
    std::set<std::string> out;
    for (const auto& e : entries(t, ManifestContent::kDeletes, s)) {
      if (e.is_live()) out.insert(describe(e.data_file));
    }
    return out;
  }

  // Data file path -> the delete files a scan attaches to it.
  std::map<std::string, std::set<std::string>> planned(const Table& t, ScanOptions options = {}) {
    auto scan = must(t.new_scan(options));
    std::map<std::string, std::set<std::string>> out;
    for (const auto& task : must(scan.plan_files())) {
      auto& deletes = out[task.file->file_path];
      for (const auto& d : task.deletes) deletes.insert(std::string(d->file_path()));
    }
    return out;
  }

  std::vector<json> rows(const Table& t, MetadataTableType type) {
    auto table = must(read_metadata_table(*fio, *t.metadata(), type));
    std::vector<json> out;
    for (const auto& b : table.batches) {
      for (int64_t r = 0; r < b.num_rows; ++r) {
        std::string line;
        write_row_json(b, r, JsonOptions{}, &line);
        out.push_back(json::parse(line));
      }
    }
    return out;
  }

  int64_t head(const Table& t) { return *t.metadata()->current_snapshot_id; }
};

// --- sequence numbers and manifests ---

TEST_F(RowDeltaTest, AddedDeletesTakeTheNewSequenceNumber) {
  auto t = create();
  auto a = file("a", "x", 10), b = file("b", "y", 5);
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());
  ASSERT_OK(t->new_row_delta()
                .add_deletes(pos_delete("p1", "x", 2, a.file_path))
                .add_deletes(eq_delete("e1", "y", 1))
                .commit());
  auto m = t->metadata();
  const Snapshot* s = m->current_snapshot();
  EXPECT_EQ(s->sequence_number, 2);
  EXPECT_EQ(m->last_sequence_number, 2);

  auto deletes = manifests(*t, ManifestContent::kDeletes);
  ASSERT_EQ(deletes.size(), 1u);
  EXPECT_EQ(deletes[0].sequence_number, 2);
  EXPECT_EQ(deletes[0].min_sequence_number, 2);
  EXPECT_EQ(deletes[0].added_snapshot_id, s->snapshot_id);
  EXPECT_EQ(deletes[0].added_files_count, 2);
  EXPECT_EQ(deletes[0].added_rows_count, 3);
  // The delete manifest's partition summary spans the partitions of its delete files.
  ASSERT_TRUE(deletes[0].partitions.has_value());
  ASSERT_EQ(deletes[0].partitions->size(), 1u);
  EXPECT_EQ((*deletes[0].partitions)[0].lower_bound, "x");
  EXPECT_EQ((*deletes[0].partitions)[0].upper_bound, "y");
  EXPECT_FALSE((*deletes[0].partitions)[0].contains_null);
  for (const auto& e : entries(*t, ManifestContent::kDeletes)) {
    EXPECT_EQ(e.status, ManifestEntryStatus::kAdded);
    EXPECT_EQ(e.sequence_number, 2);
    EXPECT_EQ(e.file_sequence_number, 2);
    EXPECT_EQ(e.snapshot_id, s->snapshot_id);
  }
  // The data files keep their own data sequence number.
  auto data = manifests(*t, ManifestContent::kData);
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(data[0].sequence_number, 1);

  // Data and deletes added together: the equality delete does not apply to the new data file of
  // its own commit, the partition-scoped position delete does (spec: data seq <= delete seq).
  auto c = file("c", "x", 3), d = file("d", "y", 4);
  ASSERT_OK(t->new_row_delta()
                .add_rows(c)
                .add_rows(d)
                .add_deletes(eq_delete("e2", "x", 1))
                .add_deletes(pos_delete("p2", "y", 1))
                .commit());
  EXPECT_EQ(t->metadata()->current_snapshot()->sequence_number, 3);
  auto plan = planned(*t);
  EXPECT_EQ(plan[a.file_path], (std::set<std::string>{pos_delete("p1", "x", 0).file_path,
                                                      eq_delete("e2", "x", 0).file_path}));
  EXPECT_EQ(plan[b.file_path], (std::set<std::string>{eq_delete("e1", "y", 0).file_path,
                                                      pos_delete("p2", "y", 0).file_path}));
  EXPECT_EQ(plan[c.file_path], (std::set<std::string>{}));
  EXPECT_EQ(plan[d.file_path], (std::set<std::string>{pos_delete("p2", "y", 0).file_path}));
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
}

TEST_F(RowDeltaTest, ManifestsAreWrittenOnlyForWhatIsAdded) {
  auto t = create();
  ASSERT_OK(t->new_append().append_file(file("a", "x", 10)).commit());
  auto data_before = manifests(*t, ManifestContent::kData);
  // Deletes only: no new data manifest.
  ASSERT_OK(t->new_row_delta().add_deletes(eq_delete("e1", "x", 1)).commit());
  EXPECT_EQ(manifests(*t, ManifestContent::kData), data_before);
  auto deletes_before = manifests(*t, ManifestContent::kDeletes);
  ASSERT_EQ(deletes_before.size(), 1u);
  // Rows only: no new delete manifest.
  ASSERT_OK(t->new_row_delta().add_rows(file("b", "x", 1)).commit());
  EXPECT_EQ(manifests(*t, ManifestContent::kDeletes), deletes_before);
  // A delete manifest left without live files is not carried into later snapshots.
  ASSERT_OK(t->new_row_delta().remove_deletes(eq_delete("e1", "x", 1)).commit());
  auto rewritten = manifests(*t, ManifestContent::kDeletes);
  ASSERT_EQ(rewritten.size(), 1u);  // written by this commit: records the removal
  EXPECT_EQ(rewritten[0].deleted_files_count, 1);
  EXPECT_EQ(rewritten[0].added_files_count, 0);
  EXPECT_EQ(rewritten[0].existing_files_count, 0);
  ASSERT_OK(t->new_append().append_file(file("c", "x", 1)).commit());
  EXPECT_TRUE(manifests(*t, ManifestContent::kDeletes).empty());
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
}

TEST_F(RowDeltaTest, DeleteManifestsMerge) {
  auto t = create({{"commit.manifest.min-count-to-merge", "2"}});
  auto a = file("a", "x", 10);
  ASSERT_OK(t->new_append().append_file(a).commit());
  ASSERT_OK(t->new_row_delta().add_deletes(pos_delete("p1", "x", 1, a.file_path)).commit());
  ASSERT_OK(t->new_row_delta().add_deletes(eq_delete("e1", "x", 1)).commit());
  auto deletes = manifests(*t, ManifestContent::kDeletes);
  ASSERT_EQ(deletes.size(), 1u);
  EXPECT_EQ(deletes[0].added_files_count, 1);
  EXPECT_EQ(deletes[0].existing_files_count, 1);
  EXPECT_EQ(deletes[0].min_sequence_number, 2);
  std::map<std::string, int64_t> seqs;
  for (const auto& e : entries(*t, ManifestContent::kDeletes)) {
    seqs[e.data_file.file_path] = *e.sequence_number;
  }
  EXPECT_EQ(seqs[pos_delete("p1", "x", 0).file_path], 2);
  EXPECT_EQ(seqs[eq_delete("e1", "x", 0).file_path], 3);
  EXPECT_EQ(summary(*t, "manifests-replaced"), "2");
}

// --- summaries and operation ---

TEST_F(RowDeltaTest, SummaryCountsDeleteFiles) {
  auto t = create({{"write.summary.partition-limit", "10"}});
  auto a = file("a", "x", 10), b = file("b", "y", 5);  // 107 and 57 bytes
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());
  auto p1 = pos_delete("p1", "x", 3, a.file_path);  // 112 bytes
  auto e1 = eq_delete("e1", "y", 2);                // 108 bytes
  ASSERT_OK(t->new_row_delta().add_deletes(p1).add_deletes(e1).commit());
  std::map<std::string, std::string> expected = {
      {"added-delete-files", "2"},
      {"added-position-delete-files", "1"},
      {"added-equality-delete-files", "1"},
      {"added-position-deletes", "3"},
      {"added-equality-deletes", "2"},
      {"added-files-size", "220"},
      {"total-delete-files", "2"},
      {"total-position-deletes", "3"},
      {"total-equality-deletes", "2"},
      {"total-files-size", "384"},
      {"total-data-files", "2"},
      {"total-records", "15"},
      {"changed-partition-count", "2"},
      {"operation", "delete"},
      {"partition-summaries-included", "true"},
      {"partitions.category=x",
       "added-position-delete-files=1,added-delete-files=1,added-files-size=112,"
       "added-position-deletes=3"},
      {"partitions.category=y",
       "added-equality-delete-files=1,added-delete-files=1,added-files-size=108,"
       "added-equality-deletes=2"},
  };
  for (const auto& [k, v] : expected) EXPECT_EQ(summary(*t, k), v) << k;
  for (const char* k : {"added-data-files", "added-records", "added-dvs", "removed-delete-files",
                        "deleted-data-files"}) {
    EXPECT_EQ(summary(*t, k), "<unset>") << k;
  }

  auto c = file("c", "y", 4);  // 47 bytes
  ASSERT_OK(
      t->new_row_delta().remove_deletes(p1).remove_deletes(e1).remove_rows(b).add_rows(c).commit());
  expected = {
      {"removed-delete-files", "2"},
      {"removed-position-delete-files", "1"},
      {"removed-equality-delete-files", "1"},
      {"removed-position-deletes", "3"},
      {"removed-equality-deletes", "2"},
      {"deleted-data-files", "1"},
      {"deleted-records", "5"},
      {"added-data-files", "1"},
      {"added-records", "4"},
      {"added-files-size", "47"},
      {"removed-files-size", "277"},
      {"total-delete-files", "0"},
      {"total-position-deletes", "0"},
      {"total-equality-deletes", "0"},
      {"total-data-files", "2"},
      {"total-records", "14"},
      {"total-files-size", "154"},
      {"changed-partition-count", "2"},
      {"operation", "overwrite"},
  };
  for (const auto& [k, v] : expected) EXPECT_EQ(summary(*t, k), v) << k;
  EXPECT_EQ(summary(*t, "added-delete-files"), "<unset>");
}

TEST_F(RowDeltaTest, DeletionVectorSummaries) {
  auto t = create({}, true, 3);
  auto a = file("a", "x", 10), b = file("b", "x", 5);
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());
  auto dva = dv("dv1", a, 4, 42, 2), dvb = dv("dv1", b, 46, 40, 1);
  ASSERT_OK(t->new_row_delta().add_deletes(dva).add_deletes(dvb).commit());
  // A DV counts as a delete file and a DV, not as a position delete file; its size is its
  // blob's (as the fixture impala/iceberg_v3_deletion_vectors written by Java shows).
  EXPECT_EQ(summary(*t, "added-dvs"), "2");
  EXPECT_EQ(summary(*t, "added-delete-files"), "2");
  EXPECT_EQ(summary(*t, "added-position-deletes"), "3");
  EXPECT_EQ(summary(*t, "added-files-size"), "82");
  EXPECT_EQ(summary(*t, "added-position-delete-files"), "<unset>");
  EXPECT_EQ(summary(*t, "total-delete-files"), "2");
  EXPECT_EQ(summary(*t, "total-position-deletes"), "3");
  EXPECT_EQ(summary(*t, "total-files-size"), "246");

  // Replacing a's DV: one DV in, one out; b's DV in the same Puffin file stays.
  auto dva2 = dv("dv2", a, 4, 50, 3);
  ASSERT_OK(t->new_row_delta().remove_deletes(dva).add_deletes(dva2).commit());
  EXPECT_EQ(summary(*t, "added-dvs"), "1");
  EXPECT_EQ(summary(*t, "removed-dvs"), "1");
  EXPECT_EQ(summary(*t, "added-delete-files"), "1");
  EXPECT_EQ(summary(*t, "removed-delete-files"), "1");
  EXPECT_EQ(summary(*t, "added-position-deletes"), "3");
  EXPECT_EQ(summary(*t, "removed-position-deletes"), "2");
  EXPECT_EQ(summary(*t, "added-files-size"), "50");
  EXPECT_EQ(summary(*t, "removed-files-size"), "42");
  EXPECT_EQ(summary(*t, "removed-position-delete-files"), "<unset>");
  EXPECT_EQ(summary(*t, "total-delete-files"), "2");
  EXPECT_EQ(summary(*t, "total-position-deletes"), "4");
  EXPECT_EQ(live_deletes(*t), (std::set<std::string>{describe(dva2), describe(dvb)}));
}

TEST_F(RowDeltaTest, OperationFollowsJava) {
  auto t = create();
  auto a = file("a", "x", 10), b = file("b", "x", 10);
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());
  ASSERT_OK(t->new_row_delta().add_deletes(eq_delete("e1", "x", 1)).commit());
  EXPECT_EQ(summary(*t, "operation"), "delete");
  ASSERT_OK(
      t->new_row_delta().add_rows(file("c", "x", 1)).add_deletes(eq_delete("e2", "x", 1)).commit());
  EXPECT_EQ(summary(*t, "operation"), "overwrite");
  ASSERT_OK(t->new_row_delta().add_rows(file("d", "x", 1)).commit());
  EXPECT_EQ(summary(*t, "operation"), "overwrite");
  ASSERT_OK(t->new_row_delta().remove_rows(a).commit());
  EXPECT_EQ(summary(*t, "operation"), "overwrite");
  // Deletes added, a data file removed, none added: Java's rule says delete.
  ASSERT_OK(t->new_row_delta().remove_rows(b).add_deletes(eq_delete("e3", "x", 1)).commit());
  EXPECT_EQ(summary(*t, "operation"), "delete");
  // Extra summary properties.
  ASSERT_OK(
      t->new_row_delta().add_deletes(eq_delete("e4", "x", 1)).set("engine-name", "floe").commit());
  EXPECT_EQ(summary(*t, "engine-name"), "floe");
}

// --- format versions and deletion vectors ---

TEST_F(RowDeltaTest, FormatVersionDecidesTheKindsOfDeletes) {
  auto v1 = create({}, true, 1);
  auto a = file("a", "x", 10);
  ASSERT_OK(v1->new_append().append_file(a).commit());
  auto s = v1->new_row_delta().add_deletes(eq_delete("e1", "x", 1)).commit();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(s.message().find("format version 2 or later"), std::string::npos) << s.to_string();

  id = TableIdentifier{{"db"}, "t2"};
  auto v2 = create();
  ASSERT_OK(v2->new_append().append_file(a).commit());
  s = v2->new_row_delta().add_deletes(dv("dv1", a, 4, 40, 1)).commit();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(s.message().find("need format version 3"), std::string::npos) << s.to_string();
  ASSERT_OK(v2->new_row_delta().add_deletes(pos_delete("p1", "x", 1, a.file_path)).commit());

  id = TableIdentifier{{"db"}, "t3"};
  auto v3 = create({}, true, 3);
  ASSERT_OK(v3->new_append().append_file(a).commit());
  int64_t before = head(*v3);
  s = v3->new_row_delta().add_deletes(pos_delete("p1", "x", 1, a.file_path)).commit();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(s.message().find("only as deletion vectors (Puffin)"), std::string::npos)
      << s.to_string();
  EXPECT_NE(s.message().find("p1-deletes.parquet"), std::string::npos);
  auto no_target = dv("dv1", a, 4, 40, 1);
  no_target.referenced_data_file.reset();
  s = v3->new_row_delta().add_deletes(no_target).commit();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(s.message().find("no referenced_data_file"), std::string::npos) << s.to_string();
  auto no_offset = dv("dv1", a, 4, 40, 1);
  no_offset.content_offset.reset();
  s = v3->new_row_delta().add_deletes(no_offset).commit();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  s = v3->new_row_delta().add_deletes(file("not-a-delete", "x", 1)).commit();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(head(*v3), before);
  EXPECT_EQ(stored_avro(*v3), referenced_metadata(*v3));
  // Equality deletes and DVs are what v3 takes.
  ASSERT_OK(v3->new_row_delta()
                .add_deletes(eq_delete("e1", "x", 1))
                .add_deletes(dv("dv1", a, 4, 40, 1))
                .commit());
  EXPECT_EQ(summary(*v3, "total-delete-files"), "2");
}

TEST_F(RowDeltaTest, ReplacingADeletionVectorRemovesTheOldOne) {
  auto t = create({}, true, 3);
  auto a = file("a", "x", 10), b = file("b", "x", 10);
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());
  auto dva = dv("dv1", a, 4, 42, 2), dvb = dv("dv1", b, 46, 40, 1);
  ASSERT_OK(t->new_row_delta().add_deletes(dva).add_deletes(dvb).commit());
  int64_t before = head(*t);

  // A second live DV for a is refused.
  auto dva2 = dv("dv2", a, 4, 50, 3);
  auto s = t->new_row_delta().add_deletes(dva2).commit();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(s.message().find("already has deletion vector " + describe(dva)), std::string::npos)
      << s.to_string();
  EXPECT_NE(s.message().find("remove_deletes"), std::string::npos);
  // So are two new DVs for one data file in one commit.
  s = t->new_row_delta()
          .remove_deletes(dva)
          .add_deletes(dva2)
          .add_deletes(dv("dv3", a, 4, 30, 1))
          .commit();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(s.message().find("two deletion vectors"), std::string::npos) << s.to_string();
  // Removing a DV by path alone does not name it: blobs are told apart by offset.
  auto by_path = dva;
  by_path.content_offset.reset();
  s = t->new_row_delta()
          .remove_deletes(by_path)
          .add_deletes(dva2)
          .validate_deleted_files()
          .commit();
  EXPECT_EQ(s.kind(), ErrorKind::kCommitConflict);
  EXPECT_NE(s.message().find("Missing required delete files"), std::string::npos);
  EXPECT_EQ(head(*t), before);

  ASSERT_OK(t->new_row_delta().remove_deletes(dva).add_deletes(dva2).commit());
  EXPECT_EQ(live_deletes(*t), (std::set<std::string>{describe(dva2), describe(dvb)}));
  std::map<std::string, ManifestEntryStatus> status;
  for (const auto& e : entries(*t, ManifestContent::kDeletes)) {
    status[describe(e.data_file)] = e.status;
  }
  EXPECT_EQ(status[describe(dva)], ManifestEntryStatus::kDeleted);
  EXPECT_EQ(status[describe(dvb)], ManifestEntryStatus::kExisting);
  EXPECT_EQ(status[describe(dva2)], ManifestEntryStatus::kAdded);
  // The scan sees the new DV only.
  auto plan = planned(*t);
  EXPECT_EQ(plan[a.file_path], std::set<std::string>{dva2.file_path});
  EXPECT_EQ(plan[b.file_path], std::set<std::string>{dvb.file_path});
}

TEST_F(RowDeltaTest, RemovingADataFileDropsItsDeletionVectors) {
  auto t = create({}, true, 3);
  auto a = file("a", "x", 10), b = file("b", "x", 10), c = file("c", "y", 10);
  ASSERT_OK(t->new_append().append_file(a).append_file(b).append_file(c).commit());
  auto dva = dv("dv1", a, 4, 42, 2), dvb = dv("dv1", b, 46, 40, 1), dvc = dv("dv2", c, 4, 40, 1);
  ASSERT_OK(t->new_row_delta().add_deletes(dva).add_deletes(dvb).add_deletes(dvc).commit());

  // Any producer that removes a data file: DeleteFiles by path.
  ASSERT_OK(t->new_delete().delete_file(a.file_path).commit());
  EXPECT_EQ(summary(*t, "removed-dvs"), "1");
  EXPECT_EQ(summary(*t, "removed-delete-files"), "1");
  EXPECT_EQ(summary(*t, "deleted-data-files"), "1");
  EXPECT_EQ(live_deletes(*t), (std::set<std::string>{describe(dvb), describe(dvc)}));
  // A row delta rewriting b.
  ASSERT_OK(t->new_row_delta().remove_rows(b).add_rows(file("b2", "x", 9)).commit());
  EXPECT_EQ(summary(*t, "removed-dvs"), "1");
  EXPECT_EQ(live_deletes(*t), std::set<std::string>{describe(dvc)});
  // An overwrite by filter.
  ASSERT_OK(t->new_overwrite().overwrite_by_row_filter(category_is("y")).commit());
  EXPECT_EQ(summary(*t, "removed-dvs"), "1");
  EXPECT_EQ(summary(*t, "total-delete-files"), "0");
  EXPECT_TRUE(live_deletes(*t).empty());
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
}

TEST_F(RowDeltaTest, DeletesOlderThanEveryDataFileAreDropped) {
  auto t = create();
  auto a = file("a", "x", 10), b = file("b", "y", 10);
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());  // seq 1
  ASSERT_OK(t->new_row_delta().add_deletes(pos_delete("p1", "x", 1, a.file_path)).commit());
  // b still has data sequence number 1: the delete (2) may apply to it, it stays.
  ASSERT_OK(t->new_overwrite().delete_file(a).add_file(file("a2", "x", 9)).commit());  // seq 3
  EXPECT_EQ(summary(*t, "total-delete-files"), "1");
  // With b gone too, every live data file is newer than the delete: Java drops it.
  ASSERT_OK(t->new_overwrite().delete_file(b).add_file(file("b2", "y", 9)).commit());  // seq 4
  EXPECT_EQ(summary(*t, "removed-position-delete-files"), "1");
  EXPECT_EQ(summary(*t, "total-delete-files"), "0");
  EXPECT_TRUE(live_deletes(*t).empty());
}

TEST_F(RowDeltaTest, OverwritesAndReplacedPartitionsTakeTheirDeletes) {
  auto t = create();
  auto a = file("a", "x", 10), b = file("b", "y", 10);
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());
  auto ex = eq_delete("ex", "x", 1), ey = eq_delete("ey", "y", 1);
  ASSERT_OK(t->new_row_delta().add_deletes(ex).add_deletes(ey).commit());
  // Every row of partition x is overwritten: its deletes apply to nothing.
  ASSERT_OK(t->new_overwrite()
                .overwrite_by_row_filter(category_is("x"))
                .add_file(file("a2", "x", 2))
                .commit());
  EXPECT_EQ(summary(*t, "removed-equality-delete-files"), "1");
  EXPECT_EQ(live_deletes(*t), std::set<std::string>{ey.file_path});
  ASSERT_OK(t->new_replace_partitions().add_file(file("b2", "y", 2)).commit());
  EXPECT_EQ(summary(*t, "removed-equality-delete-files"), "1");
  EXPECT_TRUE(live_deletes(*t).empty());
}

// --- validations ---

TEST_F(RowDeltaTest, ValidateDataFilesExist) {
  auto t = create();
  auto a = file("a", "x", 10), b = file("b", "y", 10);
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());
  int64_t start = head(*t);
  auto stale = must(Table::load(catalog, id));
  // Independent: b is rewritten concurrently; the delta refers to a only.
  ASSERT_OK(t->new_overwrite().delete_file(b).add_file(file("b2", "y", 9)).commit());
  ASSERT_OK(stale->new_row_delta()
                .add_deletes(pos_delete("p1", "x", 1, a.file_path))
                .validate_from_snapshot(start)
                .validate_data_files_exist({a.file_path})
                .commit());

  ASSERT_OK(t->refresh());
  start = head(*t);
  stale = must(Table::load(catalog, id));
  ASSERT_OK(t->new_overwrite().delete_file(a).add_file(file("a2", "x", 9)).commit());
  int64_t remover = head(*t);
  auto s = stale->new_row_delta()
               .add_deletes(pos_delete("p2", "x", 1, a.file_path))
               .validate_from_snapshot(start)
               .validate_data_files_exist({a.file_path})
               .commit();
  EXPECT_EQ(s.kind(), ErrorKind::kCommitConflict);
  EXPECT_NE(s.message().find("missing data files"), std::string::npos) << s.to_string();
  EXPECT_NE(s.message().find(a.file_path), std::string::npos);
  EXPECT_NE(s.message().find(std::to_string(remover)), std::string::npos);
  EXPECT_EQ(head(*must(Table::load(catalog, id))), remover);

  // A delete-only snapshot removing the file counts only with validate_deleted_files.
  auto c = file("c", "x", 10);
  ASSERT_OK(t->new_append().append_file(c).commit());
  ASSERT_OK(t->refresh());
  start = head(*t);
  auto stale1 = must(Table::load(catalog, id));
  auto stale2 = must(Table::load(catalog, id));
  ASSERT_OK(t->new_delete().delete_file(c.file_path).commit());
  EXPECT_EQ(summary(*t, "operation"), "delete");
  ASSERT_OK(stale1->new_row_delta()
                .add_deletes(pos_delete("p3", "x", 1, c.file_path))
                .validate_from_snapshot(start)
                .validate_data_files_exist({c.file_path})
                .commit());
  s = stale2->new_row_delta()
          .add_deletes(pos_delete("p4", "x", 1, c.file_path))
          .validate_from_snapshot(start)
          .validate_data_files_exist({c.file_path})
          .validate_deleted_files()
          .commit();
  EXPECT_EQ(s.kind(), ErrorKind::kCommitConflict);
  EXPECT_NE(s.message().find(c.file_path), std::string::npos) << s.to_string();
}

TEST_F(RowDeltaTest, ValidateDeletedFilesNeedsTheRemovedFilesLive) {
  auto t = create();
  auto a = file("a", "x", 10), b = file("b", "y", 10);
  auto p1 = pos_delete("p1", "x", 1, a.file_path);
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());
  ASSERT_OK(t->new_row_delta().add_deletes(p1).commit());
  auto stale1 = must(Table::load(catalog, id));
  auto stale2 = must(Table::load(catalog, id));
  auto stale3 = must(Table::load(catalog, id));
  // Concurrently, p1 and a go.
  ASSERT_OK(t->new_row_delta().remove_deletes(p1).remove_rows(a).commit());
  int64_t after = head(*t);
  auto s = stale1->new_row_delta()
               .remove_deletes(p1)
               .add_deletes(pos_delete("p2", "x", 2, a.file_path))
               .validate_deleted_files()
               .commit();
  EXPECT_EQ(s.kind(), ErrorKind::kCommitConflict);
  EXPECT_NE(s.message().find(p1.file_path + fmt::format(" (removed by snapshot {})", after)),
            std::string::npos)
      << s.to_string();
  s = stale2->new_row_delta().remove_rows(a).validate_deleted_files().commit();
  EXPECT_EQ(s.kind(), ErrorKind::kCommitConflict);
  EXPECT_NE(s.message().find(a.file_path + fmt::format(" (removed by snapshot {})", after)),
            std::string::npos)
      << s.to_string();
  EXPECT_EQ(head(*must(Table::load(catalog, id))), after);
  // Without the validation, removing what is gone already is a no-op.
  ASSERT_OK(stale3->new_row_delta()
                .remove_deletes(p1)
                .remove_rows(a)
                .add_rows(file("d", "y", 1))
                .commit());
  EXPECT_EQ(summary(*stale3, "removed-delete-files"), "<unset>");
  EXPECT_EQ(summary(*stale3, "deleted-data-files"), "<unset>");
}

TEST_F(RowDeltaTest, ValidateNoConflictingDataFiles) {
  auto t = create();
  ASSERT_OK(t->new_append().append_file(file("a", "x", 10)).commit());
  int64_t start = head(*t);
  auto stale = must(Table::load(catalog, id));
  // Independent: data added in y while the delta's filter reads x (names matched without case
  // when asked to).
  ASSERT_OK(t->new_append().append_file(file("y1", "y", 1)).commit());
  auto upper = make_predicate(Operation::kEq, "CATEGORY", {Literal::string("x")});
  auto s = stale->new_row_delta()
               .add_deletes(eq_delete("e1", "x", 1))
               .validate_from_snapshot(start)
               .conflict_detection_filter(upper)
               .validate_no_conflicting_data_files()
               .commit();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument) << s.to_string();
  ASSERT_OK(stale->new_row_delta()
                .add_deletes(eq_delete("e1", "x", 1))
                .validate_from_snapshot(start)
                .conflict_detection_filter(upper)
                .case_sensitive(false)
                .validate_no_conflicting_data_files()
                .commit());

  ASSERT_OK(t->refresh());
  start = head(*t);
  stale = must(Table::load(catalog, id));
  ASSERT_OK(t->new_append().append_file(file("x2", "x", 1)).commit());
  int64_t adder = head(*t);
  s = stale->new_row_delta()
          .add_deletes(eq_delete("e2", "x", 1))
          .validate_from_snapshot(start)
          .conflict_detection_filter(category_is("x"))
          .validate_no_conflicting_data_files()
          .commit();
  EXPECT_EQ(s.kind(), ErrorKind::kCommitConflict);
  EXPECT_NE(s.message().find("x2.parquet"), std::string::npos) << s.to_string();
  EXPECT_NE(s.message().find(std::to_string(adder)), std::string::npos);
}

TEST_F(RowDeltaTest, ValidateNoConflictingDeleteFiles) {
  auto t = create();
  auto a = file("a", "x", 10), b = file("b", "y", 10);
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());
  int64_t start = head(*t);
  auto stale = must(Table::load(catalog, id));
  // Independent: deletes added in y while the delta's filter reads x.
  ASSERT_OK(t->new_row_delta().add_deletes(eq_delete("ey", "y", 1)).commit());
  ASSERT_OK(stale->new_row_delta()
                .add_deletes(eq_delete("ex", "x", 1))
                .validate_from_snapshot(start)
                .conflict_detection_filter(category_is("x"))
                .validate_no_conflicting_delete_files()
                .commit());

  ASSERT_OK(t->refresh());
  start = head(*t);
  auto stale1 = must(Table::load(catalog, id));
  auto stale2 = must(Table::load(catalog, id));
  ASSERT_OK(t->new_row_delta().add_deletes(pos_delete("px", "x", 1, a.file_path)).commit());
  int64_t adder = head(*t);
  auto s = stale1->new_row_delta()
               .add_deletes(eq_delete("ex2", "x", 1))
               .validate_from_snapshot(start)
               .conflict_detection_filter(category_is("x"))
               .validate_no_conflicting_delete_files()
               .commit();
  EXPECT_EQ(s.kind(), ErrorKind::kCommitConflict);
  EXPECT_NE(s.message().find("Found new conflicting delete files"), std::string::npos)
      << s.to_string();
  EXPECT_NE(s.message().find("px-deletes.parquet"), std::string::npos) << s.to_string();
  EXPECT_NE(s.message().find(std::to_string(adder)), std::string::npos);
  // A delta rewriting a (copy-on-write inside a row delta) names the data file.
  s = stale2->new_row_delta()
          .remove_rows(a)
          .add_rows(file("a2", "x", 9))
          .validate_from_snapshot(start)
          .validate_no_conflicting_delete_files()
          .commit();
  EXPECT_EQ(s.kind(), ErrorKind::kCommitConflict);
  EXPECT_NE(s.message().find("found new delete for replaced data file: [" + a.file_path),
            std::string::npos)
      << s.to_string();
}

TEST_F(RowDeltaTest, OverwriteValidateNoConflictingDeletes) {
  auto t = create();
  auto a = file("a", "x", 10), b = file("b", "x", 10), c = file("c", "y", 10);
  ASSERT_OK(t->new_append().append_file(a).append_file(b).append_file(c).commit());
  int64_t start = head(*t);
  auto stale = must(Table::load(catalog, id));
  // Independent: a delete scoped to b (same partition) and one in y do not apply to a.
  ASSERT_OK(t->new_row_delta()
                .add_deletes(pos_delete("pb", "x", 1, b.file_path))
                .add_deletes(eq_delete("ey", "y", 1))
                .commit());
  ASSERT_OK(stale->new_overwrite()
                .delete_file(a)
                .add_file(file("a2", "x", 9))
                .validate_from_snapshot(start)
                .validate_no_conflicting_deletes()
                .commit());

  // A partition-scoped position delete in x applies to b: the rewrite of b conflicts.
  ASSERT_OK(t->refresh());
  start = head(*t);
  stale = must(Table::load(catalog, id));
  ASSERT_OK(t->new_row_delta().add_deletes(pos_delete("px", "x", 1)).commit());
  int64_t adder = head(*t);
  auto s = stale->new_overwrite()
               .delete_file(b)
               .add_file(file("b2", "x", 9))
               .validate_from_snapshot(start)
               .validate_no_conflicting_deletes()
               .commit();
  EXPECT_EQ(s.kind(), ErrorKind::kCommitConflict);
  EXPECT_NE(s.message().find("found new delete for replaced data file"), std::string::npos)
      << s.to_string();
  EXPECT_NE(s.message().find(b.file_path), std::string::npos);
  EXPECT_NE(s.message().find("px-deletes.parquet"), std::string::npos);
  EXPECT_NE(s.message().find(std::to_string(adder)), std::string::npos);
  // Without the validation the overwrite goes through (and the rows deleted come back).
  ASSERT_OK(stale->new_overwrite().delete_file(b).add_file(file("b2", "x", 9)).commit());

  // By row filter: new deletes that may match the filter conflict, others do not.
  ASSERT_OK(t->refresh());
  start = head(*t);
  auto stale1 = must(Table::load(catalog, id));
  auto stale2 = must(Table::load(catalog, id));
  ASSERT_OK(t->new_row_delta().add_deletes(eq_delete("ey2", "y", 1)).commit());
  ASSERT_OK(stale1->new_overwrite()
                .overwrite_by_row_filter(category_is("x"))
                .add_file(file("x3", "x", 1))
                .validate_from_snapshot(start)
                .validate_no_conflicting_deletes()
                .commit());
  ASSERT_OK(t->refresh());
  start = head(*t);
  stale2 = must(Table::load(catalog, id));
  ASSERT_OK(t->new_row_delta().add_deletes(eq_delete("ex", "x", 1)).commit());
  s = stale2->new_overwrite()
          .overwrite_by_row_filter(category_is("x"))
          .validate_from_snapshot(start)
          .validate_no_conflicting_deletes()
          .commit();
  EXPECT_EQ(s.kind(), ErrorKind::kCommitConflict);
  EXPECT_NE(s.message().find("ex-eq-deletes.parquet"), std::string::npos) << s.to_string();
}

TEST_F(RowDeltaTest, ConcurrentDeletionVectorsForOneDataFileConflict) {
  auto t = create({}, true, 3);
  auto a = file("a", "x", 10), b = file("b", "x", 10);
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());
  auto stale = must(Table::load(catalog, id));
  // Independent: a DV for b.
  ASSERT_OK(t->new_row_delta().add_deletes(dv("dv1", b, 4, 40, 1)).commit());
  ASSERT_OK(stale->new_row_delta().add_deletes(dv("dv2", a, 4, 40, 1)).commit());

  // Two writers deleting rows of a: the second conflicts, without validate_from_snapshot too.
  ASSERT_OK(t->refresh());
  stale = must(Table::load(catalog, id));
  auto old = dv("dv2", a, 4, 40, 1);
  ASSERT_OK(t->new_row_delta().remove_deletes(old).add_deletes(dv("dv3", a, 4, 40, 2)).commit());
  int64_t winner = head(*t);
  auto s = stale->new_row_delta().remove_deletes(old).add_deletes(dv("dv4", a, 4, 40, 2)).commit();
  EXPECT_EQ(s.kind(), ErrorKind::kCommitConflict);
  EXPECT_NE(s.message().find("Found concurrently added DV for " + a.file_path), std::string::npos)
      << s.to_string();
  EXPECT_NE(s.message().find("dv3.puffin@4"), std::string::npos);
  EXPECT_NE(s.message().find(std::to_string(winner)), std::string::npos);
}

TEST_F(RowDeltaTest, RemovedDataFilesCannotGetNewDeletes) {
  auto t = create({}, true, 3);
  auto a = file("a", "x", 10);
  ASSERT_OK(t->new_append().append_file(a).commit());
  auto s = t->new_row_delta().remove_rows(a).add_deletes(dv("dv1", a, 4, 40, 1)).commit();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(s.message().find("referenced by new delete files"), std::string::npos) << s.to_string();
  s = t->new_row_delta()
          .remove_rows(a)
          .add_deletes(eq_delete("e1", "x", 1))
          .validate_data_files_exist({a.file_path})
          .commit();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  s = t->new_row_delta().remove_deletes(a).commit();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  s = t->new_row_delta().remove_rows(eq_delete("e1", "x", 1)).commit();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(stored_avro(*t), referenced_metadata(*t));
}

// --- retries and branches ---

TEST_F(RowDeltaTest, RetriesKeepTheNewManifestsAndValidateEachAttempt) {
  auto t = create();
  auto a = file("a", "x", 10), b = file("b", "y", 10);
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());
  int64_t start = head(*t);
  auto stale = must(Table::load(catalog, id));
  auto txn = stale->new_transaction();
  ASSERT_OK(txn.new_row_delta()
                .add_deletes(pos_delete("p1", "x", 2, a.file_path))
                .add_rows(file("c", "x", 3))
                .validate_from_snapshot(start)
                .conflict_detection_filter(category_is("x"))
                .validate_no_conflicting_data_files()
                .validate_no_conflicting_delete_files()
                .commit());
  const Snapshot* staged = txn.pending().current_snapshot();
  std::set<std::string> staged_new;
  for (const auto& m : must(snapshot_manifests(*fio, txn.pending(), *staged))) {
    if (m.added_snapshot_id == staged->snapshot_id) staged_new.insert(m.manifest_path);
  }
  ASSERT_EQ(staged_new.size(), 2u);  // one data, one delete manifest
  // Concurrent changes in y: the delta is applied again on top of them.
  ASSERT_OK(t->new_append().append_file(file("y2", "y", 1)).commit());
  ASSERT_OK(t->new_row_delta().add_deletes(eq_delete("ey", "y", 1)).commit());
  int64_t concurrent = head(*t);
  ASSERT_OK(txn.commit());

  auto now = must(Table::load(catalog, id));
  const Snapshot* s = now->metadata()->current_snapshot();
  EXPECT_EQ(s->parent_snapshot_id, concurrent);
  EXPECT_EQ(s->sequence_number, 4);
  EXPECT_NE(s->manifest_list.find(fmt::format("snap-{}-2-", s->snapshot_id)), std::string::npos);
  std::set<std::string> committed_new;
  for (const auto& m : manifests(*now, ManifestContent::kData)) {
    if (m.added_snapshot_id == s->snapshot_id) committed_new.insert(m.manifest_path);
  }
  for (const auto& m : manifests(*now, ManifestContent::kDeletes)) {
    if (m.added_snapshot_id == s->snapshot_id) committed_new.insert(m.manifest_path);
  }
  EXPECT_EQ(committed_new, staged_new);  // written once, kept across the retry
  for (const auto& e : entries(*now, ManifestContent::kDeletes)) {
    if (e.data_file.file_path == pos_delete("p1", "x", 0).file_path) {
      EXPECT_EQ(e.sequence_number, 4);  // the sequence number of the attempt that landed
    }
  }
  EXPECT_EQ(summary(*now, "total-delete-files"), "2");
  EXPECT_EQ(stored_avro(*now), referenced_metadata(*now));

  // A conflict found on the retry fails the commit and leaves nothing behind.
  start = head(*now);
  auto stale2 = must(Table::load(catalog, id));
  auto txn2 = stale2->new_transaction();
  ASSERT_OK(txn2.new_row_delta()
                .add_deletes(eq_delete("ex", "x", 1))
                .validate_from_snapshot(start)
                .conflict_detection_filter(category_is("x"))
                .validate_no_conflicting_data_files()
                .commit());
  ASSERT_OK(t->new_append().append_file(file("x9", "x", 1)).commit());
  int64_t adder = head(*t);
  auto st = txn2.commit();
  EXPECT_EQ(st.kind(), ErrorKind::kCommitConflict);
  EXPECT_NE(st.message().find("x9.parquet"), std::string::npos) << st.to_string();
  EXPECT_NE(st.message().find(std::to_string(adder)), std::string::npos);
  auto after = must(Table::load(catalog, id));
  EXPECT_EQ(head(*after), adder);
  EXPECT_EQ(stored_avro(*after), referenced_metadata(*after));
}

TEST_F(RowDeltaTest, BranchCommits) {
  auto t = create();
  auto a = file("a", "x", 10);
  ASSERT_OK(t->new_append().append_file(a).commit());
  int64_t main_head = head(*t);
  ASSERT_OK(t->manage_snapshots().create_branch("audit").commit());
  ASSERT_OK(t->new_row_delta()
                .add_deletes(pos_delete("p1", "x", 2, a.file_path))
                .to_branch("audit")
                .commit());
  auto m = t->metadata();
  EXPECT_EQ(head(*t), main_head);
  int64_t audit = m->refs.at("audit").snapshot_id;
  const Snapshot* branch_head = m->snapshot_by_id(audit);
  EXPECT_EQ(branch_head->parent_snapshot_id, main_head);
  EXPECT_EQ(branch_head->summary.at("total-delete-files"), "1");
  EXPECT_EQ(summary(*t, "total-delete-files"), "0");
  ScanOptions on_branch;
  on_branch.ref = "audit";
  EXPECT_EQ(planned(*t, on_branch)[a.file_path],
            std::set<std::string>{pos_delete("p1", "x", 0).file_path});
  EXPECT_TRUE(planned(*t)[a.file_path].empty());

  // Validation follows the branch: a main append does not conflict, a branch append does.
  auto stale = must(Table::load(catalog, id));
  ASSERT_OK(t->new_append().append_file(file("m1", "x", 1)).commit());
  ASSERT_OK(stale->new_row_delta()
                .add_deletes(eq_delete("e1", "x", 1))
                .to_branch("audit")
                .validate_from_snapshot(audit)
                .validate_no_conflicting_data_files()
                .commit());
  ASSERT_OK(t->refresh());
  audit = t->metadata()->refs.at("audit").snapshot_id;
  stale = must(Table::load(catalog, id));
  ASSERT_OK(t->new_append().append_file(file("b1", "x", 1)).to_branch("audit").commit());
  auto s = stale->new_row_delta()
               .add_deletes(eq_delete("e2", "x", 1))
               .to_branch("audit")
               .validate_from_snapshot(audit)
               .validate_no_conflicting_data_files()
               .commit();
  EXPECT_EQ(s.kind(), ErrorKind::kCommitConflict);
  EXPECT_NE(s.message().find("b1.parquet"), std::string::npos) << s.to_string();
}

// --- metadata tables ---

TEST_F(RowDeltaTest, MetadataTablesShowTheDeletes) {
  auto t = create({}, true, 3);
  auto a = file("a", "x", 10), b = file("b", "y", 10);
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());
  auto dva = dv("dv1", a, 4, 42, 2);
  auto ey = eq_delete("ey", "y", 1);
  ASSERT_OK(t->new_row_delta().add_deletes(dva).add_deletes(ey).commit());
  auto deletes = rows(*t, MetadataTableType::kDeleteFiles);
  ASSERT_EQ(deletes.size(), 2u);
  std::map<int, json> by_content;
  for (const auto& d : deletes) by_content[d["content"].get<int>()] = d;
  EXPECT_EQ(by_content[1]["file_path"], dva.file_path);
  EXPECT_EQ(by_content[1]["file_format"], "PUFFIN");
  EXPECT_EQ(by_content[1]["referenced_data_file"], a.file_path);
  EXPECT_EQ(by_content[1]["content_offset"], 4);
  EXPECT_EQ(by_content[1]["content_size_in_bytes"], 42);
  EXPECT_EQ(by_content[1]["record_count"], 2);
  EXPECT_EQ(by_content[1]["partition"]["category"], "x");
  EXPECT_EQ(by_content[2]["file_path"], ey.file_path);
  EXPECT_EQ(by_content[2]["equality_ids"], json::array({1}));
  EXPECT_EQ(rows(*t, MetadataTableType::kFiles).size(), 4u);
  EXPECT_EQ(rows(*t, MetadataTableType::kDataFiles).size(), 2u);

  // Replace the DV: entries show the removal, the carried equality delete and the new DV with
  // their sequence numbers.
  auto dva2 = dv("dv2", a, 4, 50, 3);
  ASSERT_OK(t->new_row_delta().remove_deletes(dva).add_deletes(dva2).commit());
  std::map<std::string, json> by_file;
  for (const auto& e : rows(*t, MetadataTableType::kEntries)) {
    if (e["data_file"]["content"] == 0) continue;
    by_file[e["data_file"]["file_path"].get<std::string>() + "@" +
            e["data_file"]["content_offset"].dump()] = e;
  }
  ASSERT_EQ(by_file.size(), 3u);
  const json& removed = by_file[dva.file_path + "@4"];
  EXPECT_EQ(removed["status"], 2);
  EXPECT_EQ(removed["sequence_number"], 2);
  const json& added = by_file[dva2.file_path + "@4"];
  EXPECT_EQ(added["status"], 1);
  EXPECT_EQ(added["sequence_number"], 3);
  EXPECT_EQ(added["file_sequence_number"], 3);
  const json& kept = by_file[ey.file_path + "@null"];
  EXPECT_EQ(kept["status"], 0);
  EXPECT_EQ(kept["sequence_number"], 2);
  deletes = rows(*t, MetadataTableType::kDeleteFiles);
  ASSERT_EQ(deletes.size(), 2u);
  auto manifest_rows = rows(*t, MetadataTableType::kManifests);
  int delete_manifests = 0;
  for (const auto& r : manifest_rows) delete_manifests += r["content"] == 1 ? 1 : 0;
  EXPECT_EQ(delete_manifests, 2);  // the new DV's and the rewritten one
}

// --- deletes applied on read ---

template <typename V>
ColumnMetrics<V> to_metrics(const std::map<int32_t, V>& m) {
  return ColumnMetrics<V>(m.begin(), m.end());
}

// Writes rows (id, category, id * 10) and describes the file.
DataFile write_rows(const Table& table, const std::string& name, const std::string& category,
                    const std::vector<int64_t>& ids) {
  const Schema& schema = *table.metadata()->schema();
  ColumnBatch batch = ColumnBatch::make(schema.fields());
  for (int64_t id : ids) {
    batch.columns[0]->append_fixed<int64_t>(id);
    batch.columns[1]->append_bytes(category);
    batch.columns[2]->append_fixed<int64_t>(id * 10);
    ++batch.num_rows;
  }
  std::string path = table.location() + "/data/" + name + ".parquet";
  auto writer = must(parquet::ParquetWriter::open(table.io(), path, schema));
  EXPECT_TRUE(writer->write(batch).ok());
  auto metrics = must(writer->close());
  DataFile f;
  f.file_path = path;
  f.file_format = "PARQUET";
  f.partition = {Literal::string(category)};
  f.record_count = metrics.record_count;
  f.file_size_in_bytes = metrics.file_size;
  f.value_counts = to_metrics(metrics.value_counts);
  f.null_value_counts = to_metrics(metrics.null_value_counts);
  f.lower_bounds = to_metrics(metrics.lower_bounds);
  f.upper_bounds = to_metrics(metrics.upper_bounds);
  return f;
}

std::vector<int64_t> read_ids(const Table& table) {
  auto scan = must(table.new_scan());
  std::vector<int64_t> ids;
  auto summary = read_scan(
      scan, table.io(), table.metadata(), {"id"},
      [&](ColumnBatch&& batch) {
        const int64_t* values = batch.columns[0]->raw<int64_t>();
        ids.insert(ids.end(), values, values + batch.num_rows);
        return Status::OK();
      },
      1);
  EXPECT_TRUE(summary.ok()) << summary.status().to_string();
  std::sort(ids.begin(), ids.end());
  return ids;
}

void put_le(std::string* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void put_u32_be(std::string* out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// A deletion-vector-v1 blob (Puffin spec) of `positions`, ascending and below 2^16: length,
// magic, a portable 64-bit Roaring bitmap of one 32-bit bitmap with one array container, CRC.
std::string dv_blob(const std::vector<int64_t>& positions) {
  std::string bitmap;
  put_le(&bitmap, 1, 8);      // 32-bit bitmaps
  put_le(&bitmap, 0, 4);      // their key: the positions' high 32 bits
  put_le(&bitmap, 12346, 4);  // cookie: no run containers
  put_le(&bitmap, 1, 4);      // containers
  put_le(&bitmap, 0, 2);      // container key
  put_le(&bitmap, positions.size() - 1, 2);
  put_le(&bitmap, 16, 4);  // the container's offset in the 32-bit bitmap
  for (int64_t p : positions) put_le(&bitmap, static_cast<uint64_t>(p), 2);
  std::string body = std::string("\xD1\xD3\x39\x64", 4) + bitmap;
  std::string blob;
  put_u32_be(&blob, static_cast<uint32_t>(body.size()));
  blob += body;
  put_u32_be(&blob, crc32(body));
  return blob;
}

// Writes a Puffin file with one deletion-vector blob per (data file, positions) and returns the
// DVs as delete files.
std::vector<DataFile> write_dvs(const Table& table, const std::string& name,
                                const std::vector<std::pair<DataFile, std::vector<int64_t>>>& dvs) {
  std::string bytes = "PFA1";
  json blobs = json::array();
  std::vector<DataFile> out;
  for (const auto& [data, positions] : dvs) {
    std::string blob = dv_blob(positions);
    DataFile f;
    f.content = FileContent::kPositionDeletes;
    f.file_path = table.location() + "/data/" + name + ".puffin";
    f.file_format = "PUFFIN";
    f.partition = data.partition;
    f.record_count = static_cast<int64_t>(positions.size());
    f.referenced_data_file = data.file_path;
    f.content_offset = static_cast<int64_t>(bytes.size());
    f.content_size_in_bytes = static_cast<int64_t>(blob.size());
    blobs.push_back({{"type", "deletion-vector-v1"},
                     {"fields", json::array({2147483645})},
                     {"snapshot-id", -1},
                     {"sequence-number", -1},
                     {"offset", *f.content_offset},
                     {"length", *f.content_size_in_bytes},
                     {"properties",
                      {{"referenced-data-file", data.file_path},
                       {"cardinality", std::to_string(positions.size())}}}});
    bytes += blob;
    out.push_back(std::move(f));
  }
  std::string payload =
      json{{"blobs", blobs}, {"properties", {{"created-by", "floe test"}}}}.dump();
  bytes += "PFA1";
  bytes += payload;
  put_le(&bytes, payload.size(), 4);
  bytes.append(4, '\0');  // flags: uncompressed
  bytes += "PFA1";
  EXPECT_TRUE(table.io()->write_file(out[0].file_path, bytes, WriteMode::kOverwrite).ok());
  for (auto& f : out) f.file_size_in_bytes = static_cast<int64_t>(bytes.size());
  return out;
}

TEST_F(RowDeltaTest, PositionAndEqualityDeletesApplyOnRead) {
  auto t = create();
  auto a = write_rows(*t, "a", "x", {1, 2, 3, 4});
  auto b = write_rows(*t, "b", "y", {10, 11, 12});
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());

  // Positions 1 and 3 of a (ids 2 and 4); id 11 in partition y, where c, added in the same
  // commit, also holds an 11 that the delete must not touch.
  PositionDeleteWriter positions(t->io(), t->location() + "/data/a-deletes.parquet",
                                 parquet::WriterOptions{}, 0, {Literal::string("x")});
  positions.add(a.file_path, 1);
  positions.add(a.file_path, 3);
  auto p = must(positions.close());
  ASSERT_TRUE(p.has_value());
  auto key_schema = std::make_shared<const Schema>(
      0, std::vector<NestedField>{t->metadata()->schema()->fields()[0]});
  auto eq =
      must(EqualityDeleteWriter::open(t->io(), t->location() + "/data/y-eq.parquet", key_schema,
                                      {1}, parquet::WriterOptions{}, 0, {Literal::string("y")}));
  ColumnBatch keys = ColumnBatch::make(key_schema->fields());
  keys.columns[0]->append_fixed<int64_t>(11);
  keys.num_rows = 1;
  ASSERT_OK(eq->write(keys));
  auto e = must(eq->close());
  auto c = write_rows(*t, "c", "y", {11, 13});
  ASSERT_OK(t->new_row_delta().add_deletes(*p).add_deletes(e).add_rows(c).commit());
  EXPECT_EQ(read_ids(*t), (std::vector<int64_t>{1, 3, 10, 11, 12, 13}));
  EXPECT_EQ(summary(*t, "added-position-deletes"), "2");
  EXPECT_EQ(summary(*t, "added-equality-deletes"), "1");

  // Removing the position delete file brings a's rows back.
  ASSERT_OK(t->new_row_delta().remove_deletes(*p).commit());
  EXPECT_EQ(read_ids(*t), (std::vector<int64_t>{1, 2, 3, 4, 10, 11, 12, 13}));
}

TEST_F(RowDeltaTest, DeletionVectorsApplyOnRead) {
  auto t = create({}, true, 3);
  auto a = write_rows(*t, "a", "x", {1, 2, 3, 4, 5});
  auto b = write_rows(*t, "b", "x", {6, 7});
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());
  auto first = write_dvs(*t, "dv1", {{a, {0, 2}}, {b, {1}}});
  ASSERT_OK(t->new_row_delta().add_deletes(first[0]).add_deletes(first[1]).commit());
  EXPECT_EQ(read_ids(*t), (std::vector<int64_t>{2, 4, 5, 6}));
  // A merge-on-read DELETE of id 5: a's DV is rewritten with one more position.
  auto second = write_dvs(*t, "dv2", {{a, {0, 2, 4}}});
  ASSERT_OK(t->new_row_delta()
                .remove_deletes(first[0])
                .add_deletes(second[0])
                .validate_from_snapshot(head(*t))
                .validate_deleted_files()
                .validate_data_files_exist({a.file_path})
                .commit());
  EXPECT_EQ(read_ids(*t), (std::vector<int64_t>{2, 4, 6}));
  // An UPDATE rewriting a whole: its DV goes with it, b's stays.
  auto a2 = write_rows(*t, "a2", "x", {2, 40});
  ASSERT_OK(t->new_row_delta().remove_rows(a).add_rows(a2).commit());
  EXPECT_EQ(read_ids(*t), (std::vector<int64_t>{2, 6, 40}));
  EXPECT_EQ(live_deletes(*t), std::set<std::string>{describe(first[1])});
}

// RewriteFiles (compaction's commit): a "replace" snapshot whose new files keep the given data
// sequence number and take the replaced files' delete files along; the replaced files must be
// live, files removed as rows must be data files and files removed as deletes must not, and a
// rewrite cannot add files without replacing some.
TEST_F(RowDeltaTest, RewriteFilesKeepsTheSequenceNumberAndChecksItsFiles) {
  auto t = create({}, true, 2);
  DataFile a = file("a", "x", 10), b = file("b", "x", 10);
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());
  DataFile del = pos_delete("pa", "x", 2, a.file_path);
  ASSERT_OK(t->new_row_delta().add_deletes(del).commit());
  const int64_t start = t->metadata()->current_snapshot()->sequence_number;  // 2
  DataFile ab = file("ab", "x", 18);
  ASSERT_OK(t->new_rewrite()
                .remove_data(a)
                .remove_data(b)
                .remove_deletes(del)
                .add_file(ab)
                .data_sequence_number(start)
                .commit());
  EXPECT_EQ(t->metadata()->current_snapshot()->operation(), "replace");
  EXPECT_EQ(t->metadata()->current_snapshot()->sequence_number, 3);
  EXPECT_EQ(live_files(*t), std::set<std::string>{ab.file_path});
  EXPECT_TRUE(live_deletes(*t).empty());
  for (const auto& e : entries(*t, ManifestContent::kData)) {
    if (e.status == ManifestEntryStatus::kAdded) {
      EXPECT_EQ(e.sequence_number, start);
    }
  }
  // Replacing a file that is gone, the wrong content on either side, adding without replacing.
  EXPECT_EQ(t->new_rewrite().remove_data(a).add_file(file("c", "x", 1)).commit().kind(),
            ErrorKind::kCommitConflict);
  EXPECT_NE(t->new_rewrite().remove_data(del).commit().message().find("as rows"),
            std::string::npos);
  EXPECT_NE(t->new_rewrite().remove_deletes(ab).commit().message().find("as deletes"),
            std::string::npos);
  EXPECT_NE(t->new_rewrite().add_file(file("d", "x", 1)).commit().message().find("must replace"),
            std::string::npos);
  EXPECT_EQ(live_files(*t), std::set<std::string>{ab.file_path});
}

// RewriteFiles of delete files (rewrite_position_delete_files' commit): the new delete file keeps
// the data sequence number it is given, so it applies to the data files the replaced ones did
// and not to data added since; the replaced delete files must be live, and a rewrite cannot add
// delete files without replacing some.
TEST_F(RowDeltaTest, RewriteFilesOfDeleteFilesKeepsTheirSequenceNumber) {
  auto t = create({}, true, 2);
  DataFile a = file("a", "x", 10);
  ASSERT_OK(t->new_append().append_file(a).commit());
  DataFile d1 = pos_delete("d1", "x", 1, a.file_path), d2 = pos_delete("d2", "x", 1, a.file_path);
  ASSERT_OK(t->new_row_delta().add_deletes(d1).commit());
  ASSERT_OK(t->new_row_delta().add_deletes(d2).commit());
  const int64_t highest = t->metadata()->current_snapshot()->sequence_number;  // 3
  DataFile later = file("later", "x", 10);
  ASSERT_OK(t->new_append().append_file(later).commit());
  DataFile merged = pos_delete("d12", "x", 2, a.file_path);
  ASSERT_OK(
      t->new_rewrite().remove_deletes(d1).remove_deletes(d2).add_deletes(merged, highest).commit());
  const Snapshot* s = t->metadata()->current_snapshot();
  EXPECT_EQ(s->operation(), "replace");
  EXPECT_EQ(s->sequence_number, 5);
  EXPECT_EQ(s->summary.at("added-position-delete-files"), "1");
  EXPECT_EQ(s->summary.at("removed-position-delete-files"), "2");
  EXPECT_EQ(live_deletes(*t), std::set<std::string>{merged.file_path});
  int added = 0;
  for (const auto& e : entries(*t, ManifestContent::kDeletes)) {
    if (e.status != ManifestEntryStatus::kAdded) continue;
    ++added;
    EXPECT_EQ(e.sequence_number, highest);
    EXPECT_EQ(e.file_sequence_number, 5);
  }
  EXPECT_EQ(added, 1);
  // Gone already, or added without replacing.
  EXPECT_EQ(t->new_rewrite()
                .remove_deletes(d1)
                .add_deletes(pos_delete("d3", "x", 1, a.file_path), highest)
                .commit()
                .kind(),
            ErrorKind::kCommitConflict);
  EXPECT_NE(t->new_rewrite()
                .add_deletes(pos_delete("d4", "x", 1, a.file_path))
                .commit()
                .message()
                .find("must replace some"),
            std::string::npos);
  EXPECT_EQ(live_deletes(*t), std::set<std::string>{merged.file_path});
}

}  // namespace
}  // namespace floe::testing
