// UpsertWriter (blind upserts for CDC): each batch is one RowDelta snapshot of equality delete
// files (equality_ids = the key, partitioned like the table) and data files; reads after
// several batches give the upserted state; the last change per key wins within a batch;
// deletes of unknown keys are harmless; summaries and operations; key and partition checks;
// nested key columns; and no data file is ever read while writing.
#include <gtest/gtest.h>

#include <atomic>
#include <map>

#include "floe/read/task_reader.h"
#include "floe/table/upsert.h"
#include "forwarding_file_io.h"
#include "table_test_util.h"

namespace floe::testing {
namespace {

// Counts reads of files under a data directory (data and delete files), never of metadata.
class CountingFileIO : public test_support::ForwardingFileIO {
 public:
  using ForwardingFileIO::ForwardingFileIO;
  Result<std::string> read_file(std::string_view path) override {
    count(path);
    return inner_->read_file(path);
  }
  Result<std::string> read_range(std::string_view path, int64_t offset, int64_t length) override {
    count(path);
    return inner_->read_range(path, offset, length);
  }
  std::atomic<int64_t> data_reads{0};

 private:
  void count(std::string_view path) {
    if (path.find("/data/") != std::string_view::npos) ++data_reads;
  }
};

class UpsertTest : public CommitTest {
 protected:
  void SetUp() override {
    CommitTest::SetUp();
    counting = std::make_shared<CountingFileIO>(fio);
    CatalogOptions options;
    options.warehouse = "wh";
    options.io = counting;
    catalog = make_memory_catalog(options);
    ASSERT_TRUE(catalog->create_namespace({"db"}).ok());
  }

  // Rows (id, category, value); `value` < 0 leaves value null.
  static ColumnBatch rows(const Table& t,
                          const std::vector<std::tuple<int64_t, std::string, int64_t>>& values) {
    ColumnBatch b = ColumnBatch::make(t.metadata()->schema()->fields());
    for (const auto& [id, category, value] : values) {
      b.columns[0]->append_fixed<int64_t>(id);
      b.columns[1]->append_bytes(category);
      if (value < 0) {
        b.columns[2]->append_null();
      } else {
        b.columns[2]->append_fixed<int64_t>(value);
      }
      ++b.num_rows;
    }
    return b;
  }

  // Key rows (id, category) only, as a delete carries them.
  static ColumnBatch keys(const Table& t,
                          const std::vector<std::pair<int64_t, std::string>>& values) {
    const auto& fields = t.metadata()->schema()->fields();
    ColumnBatch b = ColumnBatch::make({fields[0], fields[1]});
    for (const auto& [id, category] : values) {
      b.columns[0]->append_fixed<int64_t>(id);
      b.columns[1]->append_bytes(category);
      ++b.num_rows;
    }
    return b;
  }

  // Every row of the table as "id,category,value", sorted.
  std::vector<std::string> read_all(const Table& t) {
    auto scan = must(t.new_scan());
    std::vector<std::string> out;
    auto summary = read_scan(
        scan, t.io(), t.metadata(), {},
        [&](ColumnBatch&& b) {
          for (int64_t r = 0; r < b.num_rows; ++r) {
            std::string row;
            for (size_t c = 0; c < b.columns.size(); ++c) {
              if (c) row += ",";
              row += b.columns[c]->is_null(r) ? "null" : b.columns[c]->literal_at(r).to_string();
            }
            out.push_back(row);
          }
          return Status::OK();
        },
        1);
    EXPECT_TRUE(summary.ok()) << summary.status().to_string();
    std::sort(out.begin(), out.end());
    return out;
  }

  std::vector<ManifestEntry> added(const Table& t, ManifestContent content) {
    auto m = t.metadata();
    std::vector<ManifestEntry> out;
    for (const auto& mf : must(snapshot_manifests(*fio, *m, *m->current_snapshot()))) {
      if (mf.content != content) continue;
      for (auto& e : must(read_manifest(*fio, mf, m.get()))) {
        if (e.status == ManifestEntryStatus::kAdded && e.snapshot_id == m->current_snapshot_id) {
          out.push_back(std::move(e));
        }
      }
    }
    return out;
  }

  std::unique_ptr<UpsertWriter> writer(const std::shared_ptr<Table>& t,
                                       std::vector<int32_t> key = {1, 2}) {
    UpsertOptions o;
    o.key_ids = std::move(key);
    return must(UpsertWriter::make(t, o));
  }

  std::shared_ptr<CountingFileIO> counting;
};

const std::vector<ChangeKind> kU{ChangeKind::kUpsert};

TEST_F(UpsertTest, BatchesCommitEqualityDeletesAndDataFiles) {
  auto t = create();
  auto w = writer(t);
  EXPECT_EQ(w->key_names(), (std::vector<std::string>{"id", "category"}));

  counting->data_reads = 0;
  ASSERT_OK(w->upsert(rows(*t, {{1, "x", 10}, {2, "x", 20}, {3, "y", 30}})));
  EXPECT_EQ(w->pending(), 3);
  auto first = must(w->commit());
  ASSERT_TRUE(first.snapshot_id);
  EXPECT_EQ(first.upserts, 3);
  EXPECT_EQ(first.deletes, 0);
  EXPECT_EQ(first.delete_rows, 3);
  EXPECT_EQ(first.data_files, 2u);    // partitions x and y
  EXPECT_EQ(first.delete_files, 2u);  // the same
  EXPECT_EQ(w->pending(), 0);
  EXPECT_EQ(*t->metadata()->current_snapshot_id, *first.snapshot_id);
  EXPECT_EQ(t->metadata()->current_snapshot()->operation(), "overwrite");
  EXPECT_EQ(summary(*t, "added-data-files"), "2");
  EXPECT_EQ(summary(*t, "added-records"), "3");
  EXPECT_EQ(summary(*t, "added-delete-files"), "2");
  EXPECT_EQ(summary(*t, "added-equality-delete-files"), "2");
  EXPECT_EQ(summary(*t, "added-equality-deletes"), "3");
  EXPECT_EQ(summary(*t, "total-equality-deletes"), "3");
  EXPECT_EQ(summary(*t, "total-records"), "3");

  // The delete files: equality ids = the key, one per partition, in the partition's directory.
  std::map<std::string, int64_t> delete_rows;
  for (const auto& e : added(*t, ManifestContent::kDeletes)) {
    const DataFile& f = e.data_file;
    EXPECT_EQ(f.content, FileContent::kEqualityDeletes);
    ASSERT_TRUE(f.equality_ids);
    EXPECT_EQ(*f.equality_ids, (std::vector<int32_t>{1, 2}));
    ASSERT_EQ(f.partition.size(), 1u);
    const std::string category = f.partition[0].to_string();
    EXPECT_NE(f.file_path.find("/data/category=" + category + "/"), std::string::npos)
        << f.file_path;
    EXPECT_EQ(f.spec_id, t->metadata()->default_spec_id);
    delete_rows[category] = f.record_count;
  }
  EXPECT_EQ(delete_rows, (std::map<std::string, int64_t>{{"x", 2}, {"y", 1}}));
  EXPECT_EQ(added(*t, ManifestContent::kData).size(), 2u);

  // Batch 2: an update, a delete and a delete of a key the table never had.
  ASSERT_OK(w->upsert(rows(*t, {{1, "x", 11}})));
  ASSERT_OK(w->remove(keys(*t, {{3, "y"}, {99, "z"}})));
  auto second = must(w->commit());
  EXPECT_EQ(second.upserts, 1);
  EXPECT_EQ(second.deletes, 2);
  EXPECT_EQ(t->metadata()->current_snapshot()->operation(), "overwrite");
  EXPECT_EQ(summary(*t, "added-equality-deletes"), "3");
  EXPECT_EQ(summary(*t, "added-equality-delete-files"), "3");  // x, y and z
  EXPECT_EQ(summary(*t, "added-data-files"), "1");

  // Batch 3: deletes only.
  ASSERT_OK(w->remove(keys(*t, {{2, "x"}})));
  auto third = must(w->commit());
  EXPECT_EQ(third.upserts, 0);
  EXPECT_EQ(third.data_files, 0u);
  EXPECT_EQ(t->metadata()->current_snapshot()->operation(), "delete");
  EXPECT_EQ(summary(*t, "added-equality-deletes"), "1");
  EXPECT_EQ(summary(*t, "added-data-files"), "<unset>");
  EXPECT_EQ(counting->data_reads, 0) << "an upsert must not read the table's data";

  EXPECT_EQ(read_all(*t), (std::vector<std::string>{"1,x,11"}));
  EXPECT_EQ(t->metadata()->snapshots.size(), 3u);

  // An empty batch commits nothing.
  auto none = must(w->commit());
  EXPECT_FALSE(none.snapshot_id);
  EXPECT_EQ(t->metadata()->snapshots.size(), 3u);
}

TEST_F(UpsertTest, LastChangePerKeyWinsWithinABatch) {
  auto t = create();
  auto w = writer(t);
  ASSERT_OK(w->upsert(rows(*t, {{1, "x", 10}, {2, "x", 20}, {3, "x", 30}})));
  ASSERT_OK(w->commit().status());

  // 1: upsert then delete -> only the delete. 2: two upserts -> the last row.
  // 3: delete then upsert -> the upsert. 4: new key upserted twice -> the last row.
  ColumnBatch b = rows(*t, {{1, "x", 11},
                            {2, "x", 21},
                            {1, "x", -1},
                            {2, "x", 22},
                            {3, "x", -1},
                            {3, "x", 33},
                            {4, "x", 40},
                            {4, "x", 44}});
  std::vector<ChangeKind> kinds{ChangeKind::kUpsert, ChangeKind::kUpsert, ChangeKind::kDelete,
                                ChangeKind::kUpsert, ChangeKind::kDelete, ChangeKind::kUpsert,
                                ChangeKind::kUpsert, ChangeKind::kUpsert};
  ASSERT_OK(w->add(b, kinds));
  auto done = must(w->commit());
  EXPECT_EQ(done.changes, 8);
  EXPECT_EQ(done.upserts, 3);      // 2, 3, 4
  EXPECT_EQ(done.deletes, 1);      // 1
  EXPECT_EQ(done.delete_rows, 4);  // one per key
  EXPECT_EQ(summary(*t, "added-records"), "3");
  EXPECT_EQ(summary(*t, "added-equality-deletes"), "4");
  EXPECT_EQ(read_all(*t), (std::vector<std::string>{"2,x,22", "3,x,33", "4,x,44"}));

  // The same key in two calls of one batch: the later call wins.
  ASSERT_OK(w->upsert(rows(*t, {{5, "x", 50}})));
  ASSERT_OK(w->remove(keys(*t, {{5, "x"}})));
  ASSERT_OK(w->upsert(rows(*t, {{6, "y", 60}})));
  ASSERT_OK(w->upsert(rows(*t, {{6, "y", 66}})));
  ASSERT_OK(w->commit().status());
  EXPECT_EQ(read_all(*t), (std::vector<std::string>{"2,x,22", "3,x,33", "4,x,44", "6,y,66"}));
}

TEST_F(UpsertTest, IdentifierFieldsAreTheDefaultKey) {
  auto schema = std::make_shared<const Schema>(
      0,
      std::vector<NestedField>{field(1, "id", Type::int64(), true),
                               field(2, "name", Type::string(), false)},
      std::vector<int32_t>{1});
  auto t = must(Table::create(catalog, id, schema));
  auto w = must(UpsertWriter::make(t));
  EXPECT_EQ(w->key_ids(), (std::vector<int32_t>{1}));
  ColumnBatch b = ColumnBatch::make(t->metadata()->schema()->fields());
  for (int64_t i : {1, 2, 1}) {
    b.columns[0]->append_fixed<int64_t>(i);
    b.columns[1]->append_bytes("v" + std::to_string(b.num_rows));
    ++b.num_rows;
  }
  ASSERT_OK(w->upsert(b));
  ASSERT_OK(w->commit().status());
  EXPECT_EQ(read_all(*t), (std::vector<std::string>{"1,v2", "2,v1"}));
  auto deletes = added(*t, ManifestContent::kDeletes);
  ASSERT_EQ(deletes.size(), 1u);
  EXPECT_EQ(*deletes[0].data_file.equality_ids, (std::vector<int32_t>{1}));
  EXPECT_TRUE(deletes[0].data_file.partition.empty());
}

TEST_F(UpsertTest, KeyColumnsFollowTheEqualityDeleteRules) {
  auto error = [&](const std::shared_ptr<Table>& t, std::vector<int32_t> key) {
    UpsertOptions o;
    o.key_ids = std::move(key);
    auto w = UpsertWriter::make(t, o);
    EXPECT_FALSE(w.ok());
    return w.ok() ? std::string() : w.status().message();
  };
  auto unpartitioned = create({}, /*partitioned=*/false);
  EXPECT_NE(error(unpartitioned, {}).find("no key columns"), std::string::npos);
  EXPECT_NE(error(unpartitioned, {42}).find("key field id 42 is not in the schema"),
            std::string::npos);
  EXPECT_NE(error(unpartitioned, {1, 1}).find("key column id is given twice"), std::string::npos);

  // The partition source column must be part of the key (Flink's upsert rule).
  id = {{"db"}, "p"};
  auto partitioned = create();
  std::string message = error(partitioned, {1});
  EXPECT_NE(message.find("partition field category (identity) comes from column category, which "
                         "is not a key column"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("Flink"), std::string::npos) << message;

  auto schema = std::make_shared<const Schema>(
      0, std::vector<NestedField>{
             field(1, "id", Type::int64(), true), field(2, "score", Type::float64()),
             field(3, "tags", Type::list_of(4, Type::string(), false)),
             field(5, "loc", Type::struct_of({field(6, "zip", Type::string())})),
             field(7, "points",
                   Type::list_of(8, Type::struct_of({field(9, "x", Type::int32())}), false))});
  TableIdentifier other{{"db"}, "nested"};
  auto t = must(Table::create(catalog, other, schema));
  auto id_of = [&](const std::string& name) {
    return t->metadata()->schema()->find_field(name)->id;
  };
  EXPECT_NE(error(t, {id_of("score")})
                .find("key column score is double: float and double columns cannot be equality "
                      "delete columns"),
            std::string::npos);
  EXPECT_NE(error(t, {id_of("tags")}).find("key column tags is list<string>, not a primitive type"),
            std::string::npos)
      << error(t, {id_of("tags")});
  EXPECT_NE(error(t, {id_of("tags.element")}).find("is nested in a list or map"),
            std::string::npos);
  EXPECT_NE(error(t, {id_of("points.element.x")}).find("is nested in a list or map"),
            std::string::npos);
  UpsertOptions nested;
  nested.key_ids = {id_of("id"), id_of("loc.zip")};
  EXPECT_TRUE(UpsertWriter::make(t, nested).ok());
}

TEST_F(UpsertTest, VersionOneTablesHaveNoEqualityDeletes) {
  auto t = must(Table::create(catalog, id, test_schema(), nullptr, nullptr, {}, "", 1));
  UpsertOptions o;
  o.key_ids = {1};
  auto w = UpsertWriter::make(t, o);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("need format version 2 or later"), std::string::npos)
      << w.status().message();
}

TEST_F(UpsertTest, BadBatchesAreRefused) {
  auto t = create();
  auto w = writer(t);
  std::vector<ChangeKind> two{ChangeKind::kUpsert, ChangeKind::kUpsert};
  EXPECT_FALSE(w->add(rows(*t, {{1, "x", 1}}), two).ok());
  // An upsert needs every required column; a delete only its key.
  ColumnBatch no_id = ColumnBatch::make({t->metadata()->schema()->fields()[1]});
  no_id.columns[0]->append_bytes("x");
  no_id.num_rows = 1;
  Status s = w->upsert(no_id);
  EXPECT_NE(s.message().find("upsert row 0 has no value for column id"), std::string::npos)
      << s.to_string();
  s = w->remove(no_id);
  EXPECT_NE(s.message().find("the rows have no key column id"), std::string::npos) << s.to_string();
  ColumnBatch wrong = ColumnBatch::make({field(1, "id", Type::string(), true)});
  wrong.columns[0]->append_bytes("1");
  wrong.num_rows = 1;
  s = w->remove(wrong);
  EXPECT_NE(s.message().find("column id is string, the table's is long"), std::string::npos)
      << s.to_string();
  EXPECT_EQ(w->pending(), 0);
}

TEST_F(UpsertTest, NestedKeyColumns) {
  // The key is a field of a struct: deletes carry the struct column, reads match inside it.
  auto schema = std::make_shared<const Schema>(
      0, std::vector<NestedField>{field(1, "ref",
                                        Type::struct_of({field(2, "region", Type::string(), true),
                                                         field(3, "code", Type::int32(), true)})),
                                  field(4, "amount", Type::int64())});
  auto t = must(Table::create(catalog, id, schema));
  const Schema& created = *t->metadata()->schema();
  UpsertOptions o;
  o.key_ids = {created.find_field("ref.region")->id, created.find_field("ref.code")->id};
  auto w = must(UpsertWriter::make(t, o));
  EXPECT_EQ(w->key_names(), (std::vector<std::string>{"ref.region", "ref.code"}));
  ASSERT_EQ(w->delete_schema()->fields().size(), 1u);
  EXPECT_EQ(w->delete_schema()->fields()[0].name, "ref");

  auto batch = [&](const std::vector<std::tuple<std::string, int32_t, int64_t>>& values) {
    ColumnBatch b = ColumnBatch::make(t->metadata()->schema()->fields());
    for (const auto& [region, code, amount] : values) {
      b.columns[0]->child(0).append_bytes(region);
      b.columns[0]->child(1).append_fixed<int32_t>(code);
      b.columns[0]->append_struct();
      b.columns[1]->append_fixed<int64_t>(amount);
      ++b.num_rows;
    }
    return b;
  };
  ASSERT_OK(w->upsert(batch({{"eu", 1, 10}, {"eu", 2, 20}, {"us", 1, 30}})));
  ASSERT_OK(w->commit().status());
  ASSERT_OK(w->upsert(batch({{"eu", 2, 22}})));
  ColumnBatch gone = batch({{"us", 1, 0}});
  ASSERT_OK(w->remove(gone));
  ASSERT_OK(w->commit().status());
  EXPECT_EQ(read_all(*t), (std::vector<std::string>{"{eu, 1},10", "{eu, 2},22"}));
  auto deletes = added(*t, ManifestContent::kDeletes);
  ASSERT_EQ(deletes.size(), 1u);
  EXPECT_EQ(*deletes[0].data_file.equality_ids, o.key_ids);
}

TEST_F(UpsertTest, OneIntegerKeyAcrossManyDeleteFiles) {
  // An int key alone: reads keep its deleted keys as integers, merged over every delete file
  // of a data file (the first file's rows meet the deletes of three later commits).
  auto schema = std::make_shared<const Schema>(
      0, std::vector<NestedField>{field(1, "id", Type::int32(), true),
                                  field(2, "name", Type::string())});
  auto t = must(Table::create(catalog, id, schema));
  UpsertOptions o;
  o.key_ids = {t->metadata()->schema()->find_field("id")->id};
  auto w = must(UpsertWriter::make(t, o));
  auto batch = [&](int from, int to, int step, const std::string& name) {
    ColumnBatch b = ColumnBatch::make(t->metadata()->schema()->fields());
    for (int i = from; i <= to; i += step) {
      b.columns[0]->append_fixed<int32_t>(i);
      b.columns[1]->append_bytes(name + std::to_string(i));
      ++b.num_rows;
    }
    return b;
  };
  ASSERT_OK(w->upsert(batch(1, 100, 1, "a")));
  ASSERT_OK(w->commit().status());
  ASSERT_OK(w->remove(batch(2, 100, 2, "")));  // the even ids
  ASSERT_OK(w->commit().status());
  ASSERT_OK(w->upsert(batch(3, 3, 1, "b")));
  ASSERT_OK(w->commit().status());
  ASSERT_OK(w->remove(batch(5, 7, 2, "")));
  ASSERT_OK(w->commit().status());
  std::vector<std::string> expected;
  for (int i = 1; i <= 99; i += 2) {
    if (i == 5 || i == 7) continue;
    expected.push_back(std::to_string(i) + "," + (i == 3 ? "b" : "a") + std::to_string(i));
  }
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(read_all(*t), expected);
}

TEST_F(UpsertTest, OtherBranchesAndSummaryProperties) {
  auto t = create();
  UpsertOptions o;
  o.key_ids = {1, 2};
  o.branch = "cdc";
  o.summary = {{"engine-name", "floe"}};
  auto w = must(UpsertWriter::make(t, o));
  ASSERT_OK(w->upsert(rows(*t, {{1, "x", 10}})));
  auto done = must(w->commit());
  EXPECT_FALSE(t->metadata()->current_snapshot_id);  // main has nothing
  auto ref = t->metadata()->refs.find("cdc");
  ASSERT_NE(ref, t->metadata()->refs.end());
  EXPECT_EQ(ref->second.snapshot_id, *done.snapshot_id);
  const Snapshot* s = t->metadata()->snapshot_by_id(*done.snapshot_id);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->summary.at("engine-name"), "floe");
}

}  // namespace
}  // namespace floe::testing
