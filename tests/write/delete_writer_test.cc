// Position and equality delete files: content, sort order, reserved field ids, metrics,
// referenced_data_file, and the rows read back by floe's Parquet reader.
#include "floe/write/delete_writer.h"

#include <gtest/gtest.h>

#include "floe/format/avro/data_reader.h"
#include "floe/format/parquet/reader.h"
#include "floe/write/data_writer.h"
#include "write/write_test_util.h"

namespace floe {
namespace {

using namespace write_testing;

TEST(PositionDeleteWriter, SortsByPathThenPosWithReservedIds) {
  TempDir dir;
  auto io = make_local_file_io();
  std::string path = dir.str() + "/data/deletes-1.parquet";
  PositionDeleteWriter w(io, path, parquet::WriterOptions{}, 3, {Literal::string("DE")});
  w.add("s3://b/t/data/b.parquet", 1);
  w.add("s3://b/t/data/a.parquet", 5);
  w.add("s3://b/t/data/a.parquet", 2);
  EXPECT_EQ(w.size(), 3);
  auto f = w.close();
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ASSERT_TRUE(f->has_value());
  const DataFile& d = **f;
  EXPECT_EQ(d.content, FileContent::kPositionDeletes);
  EXPECT_EQ(d.file_format, "PARQUET");
  EXPECT_EQ(d.record_count, 3);
  EXPECT_EQ(d.spec_id, 3);
  EXPECT_EQ(d.partition, std::vector<Literal>{Literal::string("DE")});
  EXPECT_FALSE(d.referenced_data_file.has_value());
  // Java's metrics for a delete file of two data files: sizes only.
  EXPECT_TRUE(d.lower_bounds.empty());
  EXPECT_TRUE(d.upper_bounds.empty());
  EXPECT_TRUE(d.value_counts.empty());
  EXPECT_TRUE(d.null_value_counts.empty());
  EXPECT_NE(find_metric(d.column_sizes, kDeleteFilePathFieldId), nullptr);

  auto r = parquet::ParquetReader::open(io, path);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  ASSERT_EQ((*r)->schema().fields().size(), 2u);
  EXPECT_EQ((*r)->schema().fields()[0].id, kDeleteFilePathFieldId);
  EXPECT_EQ((*r)->schema().fields()[0].name, "file_path");
  EXPECT_EQ((*r)->schema().fields()[1].id, kDeleteFilePosFieldId);
  EXPECT_EQ(read_parquet_rows(io, path),
            (std::vector<std::string>{R"(["s3://b/t/data/a.parquet",2])",
                                      R"(["s3://b/t/data/a.parquet",5])",
                                      R"(["s3://b/t/data/b.parquet",1])"}));
  std::map<std::string, std::string> kv;
  for (const auto& e : (*r)->metadata().key_value_metadata) kv[e.key] = e.value.value_or("");
  EXPECT_EQ(kv["delete-type"], "position");
  ASSERT_TRUE(w.abort().ok());
  EXPECT_FALSE(fs::exists(path));
}

TEST(PositionDeleteWriter, OneDataFileSetsReferencedDataFile) {
  TempDir dir;
  auto io = make_local_file_io();
  PositionDeleteWriter w(io, dir.str() + "/d.parquet", parquet::WriterOptions{});
  ColumnBatch b = ColumnBatch::make(position_delete_schema().fields());
  for (int64_t p : {9, 3, 7}) {
    b.columns[0]->append_bytes("/t/data/x.parquet");
    b.columns[1]->append_fixed<int64_t>(p);
  }
  b.num_rows = 3;
  ASSERT_TRUE(w.add(b).ok());
  auto f = w.close();
  ASSERT_TRUE(f.ok() && f->has_value());
  EXPECT_EQ((*f)->referenced_data_file, "/t/data/x.parquet");
  // One data file: file_path and pos bounds are kept, counts are not.
  EXPECT_EQ(*find_metric((*f)->lower_bounds, kDeleteFilePathFieldId), "/t/data/x.parquet");
  EXPECT_EQ(*find_metric((*f)->upper_bounds, kDeleteFilePathFieldId), "/t/data/x.parquet");
  EXPECT_EQ((*f)->lower_bound(kDeleteFilePosFieldId, Type::int64())->as_int64(), 3);
  EXPECT_EQ((*f)->upper_bound(kDeleteFilePosFieldId, Type::int64())->as_int64(), 9);
  EXPECT_TRUE((*f)->value_counts.empty());
  EXPECT_EQ(read_parquet_rows(io, dir.str() + "/d.parquet"),
            (std::vector<std::string>{R"(["/t/data/x.parquet",3])", R"(["/t/data/x.parquet",7])",
                                      R"(["/t/data/x.parquet",9])"}));

  PositionDeleteWriter empty(io, dir.str() + "/e.parquet", parquet::WriterOptions{});
  auto none = empty.close();
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  EXPECT_FALSE(fs::exists(dir.str() + "/e.parquet"));
}

TEST(EqualityDeleteWriter, WritesRowsWithEqualityIds) {
  TempDir dir;
  auto io = make_local_file_io();
  auto schema = std::make_shared<Schema>(
      0,
      std::vector<NestedField>{field(1, "id", Type::int64(), true), field(2, "s", Type::string())});
  std::string path = dir.str() + "/eq.parquet";
  auto w = EqualityDeleteWriter::open(io, path, schema, {1}, parquet::WriterOptions{}, 0, {}, 1);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  ColumnBatch b = ColumnBatch::make(schema->fields());
  for (int64_t id : {4, 8}) {
    b.columns[0]->append_fixed<int64_t>(id);
    b.columns[1]->append_bytes(fmt::format("row{}", id));
  }
  b.num_rows = 2;
  ASSERT_TRUE((*w)->write(b).ok());
  auto f = (*w)->close();
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  EXPECT_EQ(f->content, FileContent::kEqualityDeletes);
  EXPECT_EQ(f->equality_ids, std::vector<int32_t>{1});
  EXPECT_EQ(f->sort_order_id, 1);
  EXPECT_EQ(f->record_count, 2);
  EXPECT_EQ(f->upper_bound(1, Type::int64())->as_int64(), 8);
  EXPECT_EQ(read_parquet_rows(io, path),
            (std::vector<std::string>{R"([4,"row4"])", R"([8,"row8"])"}));

  auto r = parquet::ParquetReader::open(io, path);
  ASSERT_TRUE(r.ok());
  std::map<std::string, std::string> kv;
  for (const auto& e : (*r)->metadata().key_value_metadata) kv[e.key] = e.value.value_or("");
  EXPECT_EQ(kv["delete-type"], "equality");
  EXPECT_EQ(kv["delete-field-ids"], "1");
  EXPECT_TRUE(kv.count("iceberg.schema"));

  auto bad = EqualityDeleteWriter::open(io, dir.str() + "/bad.parquet", schema, {7},
                                        parquet::WriterOptions{});
  EXPECT_FALSE(bad.ok());
  ASSERT_TRUE((*w)->abort().ok());
  EXPECT_FALSE(fs::exists(path));
}

TEST(PositionDeleteWriter, BulkAddDropsDuplicatesAndWritesAvro) {
  TempDir dir;
  auto io = make_local_file_io();
  WriteOptions o;
  o.format = "AVRO";
  o.parquet.metrics.default_mode = MetricsMode{MetricsMode::kNone, 0};  // still full
  const std::string path = dir.str() + "/d.avro";
  PositionDeleteWriter w(io, path, o, 2, {Literal::int32(7)});
  w.add("/t/data/b.parquet", std::vector<int64_t>{8, 2, 8});
  w.add("/t/data/a.parquet", std::vector<int64_t>{});
  w.add("/t/data/b.parquet", 5);
  EXPECT_EQ(w.size(), 4);
  auto f = w.close();
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ASSERT_TRUE(f->has_value());
  const DataFile& d = **f;
  EXPECT_EQ(d.file_format, "AVRO");
  EXPECT_EQ(d.record_count, 3);
  EXPECT_EQ(d.spec_id, 2);
  EXPECT_EQ(d.referenced_data_file, "/t/data/b.parquet");
  EXPECT_EQ(d.lower_bound(kDeleteFilePosFieldId, Type::int64())->as_int64(), 2);
  EXPECT_EQ(d.upper_bound(kDeleteFilePosFieldId, Type::int64())->as_int64(), 8);
  EXPECT_EQ(*find_metric(d.lower_bounds, kDeleteFilePathFieldId), "/t/data/b.parquet");
  auto r = avro::DataReader::open(io, path, position_delete_schema().fields());
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  auto batch = (*r)->next_batch();
  ASSERT_TRUE(batch.ok() && batch->has_value());
  EXPECT_EQ(rows_of(**batch),
            (std::vector<std::string>{R"(["/t/data/b.parquet",2])", R"(["/t/data/b.parquet",5])",
                                      R"(["/t/data/b.parquet",8])"}));
}

TEST(EqualityDeleteWriter, WritesAvroWithDeleteMetadata) {
  TempDir dir;
  auto io = make_local_file_io();
  auto schema =
      std::make_shared<Schema>(0, std::vector<NestedField>{field(1, "id", Type::int64(), true)});
  WriteOptions o;
  o.format = "avro";
  const std::string path = dir.str() + "/eq.avro";
  auto w = EqualityDeleteWriter::open(io, path, schema, {1}, o);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  ColumnBatch b = ColumnBatch::make(schema->fields());
  b.columns[0]->append_fixed<int64_t>(42);
  b.num_rows = 1;
  ASSERT_TRUE((*w)->write(b).ok());
  EXPECT_EQ((*w)->rows_written(), 1);
  auto f = (*w)->close();
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  EXPECT_EQ(f->file_format, "AVRO");
  EXPECT_EQ(f->upper_bound(1, Type::int64())->as_int64(), 42);
  auto bytes = io->read_file(path);
  ASSERT_TRUE(bytes.ok());
  EXPECT_NE(bytes->find("delete-type"), std::string::npos);
  EXPECT_NE(bytes->find("equality"), std::string::npos);
  EXPECT_FALSE((*w)->close().ok());
  ASSERT_TRUE((*w)->abort().ok());
  EXPECT_FALSE(fs::exists(path));
}

}  // namespace
}  // namespace floe
