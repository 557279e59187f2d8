// Scanning a table whose data and delete files are Avro: files written by AvroDataWriter under
// an older schema (a renamed column, a promoted float, a partition column the file lacks),
// manifests and a snapshot built by hand, and position deletes spanning container blocks plus
// equality deletes (both Avro files) applied, with and without a residual filter; the
// Spark-written Avro fixture; a table written with write.format.default=avro by TableWriter.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "floe/catalog/catalog.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/read/task_reader.h"
#include "floe/scan/table_scan.h"
#include "floe/spec/metadata_file.h"
#include "floe/table/table.h"
#include "floe/write/avro_data_writer.h"
#include "floe/write/data_writer.h"
#include "test_support.h"

namespace floe {
namespace {

using test_support::field;

constexpr int32_t kFilePathId = 2147483546;
constexpr int32_t kPosId = 2147483545;

// Writes `batch` as an Avro file with small blocks; returns its DataFile.
DataFile write_avro(FileIOPtr io, const std::string& path, const ColumnBatch& batch,
                    FileContent content, std::vector<Literal> partition) {
  Schema schema(0, batch.fields);
  avro::ContainerWriterOptions co;
  co.block_size = 300;
  auto w = AvroDataWriter::open(io, path, schema, MetricsConfig(), co);
  EXPECT_TRUE(w.ok()) << w.status().to_string();
  EXPECT_TRUE((*w)->write(batch).ok());
  auto m = (*w)->close();
  EXPECT_TRUE(m.ok()) << m.status().to_string();
  DataFile f;
  f.content = content;
  f.file_path = path;
  f.file_format = "AVRO";
  f.partition = std::move(partition);
  f.record_count = m->record_count;
  f.file_size_in_bytes = m->file_size;
  return f;
}

class AvroScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    io_ = make_memory_file_io();
    // The current schema: name -> label renamed, score float -> double, note added.
    auto schema = std::make_shared<const Schema>(
        1, std::vector<NestedField>{field(1, "id", Type::int64(), true),
                                    field(2, "p", Type::int32()), field(3, "label", Type::string()),
                                    field(4, "score", Type::float64()),
                                    field(5, "note", Type::string())});
    auto spec = std::make_shared<const PartitionSpec>(
        0, std::vector<PartitionField>{{2, {}, 1000, "p", Transform::identity()}});

    // File A (p = 1) lacks the partition column; file B (p = 2) has it.
    ColumnBatch a =
        ColumnBatch::make({field(1, "id", Type::int64(), true), field(3, "name", Type::string()),
                           field(4, "score", Type::float32())});
    for (int i = 0; i < 300; ++i) {
      a.columns[0]->append_fixed<int64_t>(1000000 + i);
      i % 10 == 9 ? a.columns[1]->append_null() : a.columns[1]->append_bytes(fmt::format("a{}", i));
      a.columns[2]->append_fixed<float>(i * 0.5f);
    }
    a.num_rows = 300;
    ColumnBatch b =
        ColumnBatch::make({field(1, "id", Type::int64(), true), field(2, "p", Type::int32()),
                           field(3, "name", Type::string()), field(4, "score", Type::float32())});
    for (int i = 0; i < 100; ++i) {
      b.columns[0]->append_fixed<int64_t>(2000000 + i);
      b.columns[1]->append_fixed<int32_t>(2);
      b.columns[2]->append_bytes(fmt::format("b{}", i));
      b.columns[3]->append_fixed<float>(-i * 1.0f);
    }
    b.num_rows = 100;
    DataFile fa =
        write_avro(io_, "mem://t/data/a.avro", a, FileContent::kData, {Literal::int32(1)});
    DataFile fb =
        write_avro(io_, "mem://t/data/b.avro", b, FileContent::kData, {Literal::int32(2)});

    // Position deletes in both files (several blocks of A), equality deletes by id in B.
    ColumnBatch pos = ColumnBatch::make({field(kFilePathId, "file_path", Type::string(), true),
                                         field(kPosId, "pos", Type::int64(), true)});
    for (int64_t p : deleted_a_) {
      pos.columns[0]->append_bytes(fa.file_path);
      pos.columns[1]->append_fixed<int64_t>(p);
    }
    pos.num_rows = static_cast<int64_t>(deleted_a_.size());
    DataFile pa = write_avro(io_, "mem://t/data/pos-a.avro", pos, FileContent::kPositionDeletes,
                             {Literal::int32(1)});
    ColumnBatch posb = ColumnBatch::make(pos.fields);
    posb.columns[0]->append_bytes(fb.file_path);
    posb.columns[1]->append_fixed<int64_t>(7);
    posb.num_rows = 1;
    DataFile pb = write_avro(io_, "mem://t/data/pos-b.avro", posb, FileContent::kPositionDeletes,
                             {Literal::int32(2)});
    ColumnBatch eq = ColumnBatch::make({field(1, "id", Type::int64(), true)});
    eq.columns[0]->append_fixed<int64_t>(2000020);
    eq.columns[0]->append_fixed<int64_t>(2000021);
    eq.columns[0]->append_fixed<int64_t>(1000050);  // other partition: must not apply
    eq.num_rows = 3;
    DataFile eb = write_avro(io_, "mem://t/data/eq-b.avro", eq, FileContent::kEqualityDeletes,
                             {Literal::int32(2)});
    eb.equality_ids = std::vector<int32_t>{1};

    std::vector<ManifestFile> manifests;
    auto write = [&](const std::string& name, int64_t snapshot, ManifestContent content,
                     const std::vector<DataFile>& files) {
      ManifestWriterOptions wo;
      wo.format_version = 2;
      wo.snapshot_id = snapshot;
      wo.content = content;
      auto w = ManifestWriter::make(
          *io_, [&](int k) { return "mem://t/metadata/" + name + std::to_string(k) + ".avro"; },
          schema, spec, wo);
      ASSERT_TRUE(w.ok()) << w.status().to_string();
      for (const auto& f : files) ASSERT_TRUE((*w)->add(f).ok());
      auto written = (*w)->finish();
      ASSERT_TRUE(written.ok()) << written.status().to_string();
      for (auto m : *written) {
        m.sequence_number = snapshot;
        m.min_sequence_number = snapshot;
        manifests.push_back(std::move(m));
      }
    };
    write("data", 1, ManifestContent::kData, {fa, fb});
    write("deletes", 2, ManifestContent::kDeletes, {pa, pb, eb});
    ManifestListWriterOptions lo;
    lo.snapshot_id = 2;
    lo.sequence_number = 2;
    lo.format_version = 2;
    ASSERT_TRUE(write_manifest_list(*io_, "mem://t/metadata/snap-2.avro", manifests, lo).ok());

    auto table = std::make_shared<TableMetadata>();
    table->format_version = 2;
    table->table_uuid = "00000000-0000-4000-8000-000000000007";
    table->location = "mem://t";
    table->schemas = {schema};
    table->current_schema_id = 1;
    table->last_column_id = 5;
    table->specs = {spec};
    table->last_partition_id = 1000;
    table->sort_orders = {std::make_shared<const SortOrder>()};
    table->properties = {{"write.format.default", "avro"}};
    test_support::set_current_snapshot(table.get(), 2, "mem://t/metadata/snap-2.avro");
    table_ = std::move(table);
  }

  Result<std::vector<std::string>> scan(ExprPtr filter, std::vector<std::string> columns = {},
                                        ReadSummary* summary = nullptr) {
    ScanOptions options;
    options.filter = std::move(filter);
    auto scan = FLOE_TRY(TableScan::make(io_, table_, options));
    std::vector<std::string> rows;
    auto s = FLOE_TRY(read_scan(scan, io_, table_, columns, [&](ColumnBatch&& b) {
      for (int64_t i = 0; i < b.num_rows; ++i) {
        std::string r;
        write_row_json(b, i, JsonOptions{}, &r);
        rows.push_back(std::move(r));
      }
      return Status::OK();
    }));
    if (summary) *summary = s;
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  // The rows a correct reader returns, sorted.
  std::vector<std::string> expected(bool (*keep)(int64_t id, double score) = nullptr) const {
    std::vector<std::string> out;
    auto add = [&](int64_t id, int p, std::optional<std::string> label, double score) {
      if (keep && !keep(id, score)) return;
      out.push_back(fmt::format(R"({{"id":{},"p":{},"label":{},"score":{},"note":null}})", id, p,
                                label ? "\"" + *label + "\"" : "null", score));
    };
    for (int i = 0; i < 300; ++i) {
      if (std::count(deleted_a_.begin(), deleted_a_.end(), i)) continue;
      add(1000000 + i, 1, i % 10 == 9 ? std::nullopt : std::optional(fmt::format("a{}", i)),
          i * 0.5);
    }
    for (int i = 0; i < 100; ++i) {
      if (i == 7 || i == 20 || i == 21) continue;
      add(2000000 + i, 2, fmt::format("b{}", i), -i * 1.0);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  FileIOPtr io_;
  std::shared_ptr<const TableMetadata> table_;
  std::vector<int64_t> deleted_a_ = {0, 5, 77, 150, 151, 298, 299};
};

TEST_F(AvroScanTest, AppliesPositionAndEqualityDeletesAcrossBlocks) {
  ReadSummary summary;
  auto rows = scan(nullptr, {}, &summary);
  ASSERT_TRUE(rows.ok()) << rows.status().to_string();
  auto want = expected();
  EXPECT_EQ(rows->size(), want.size());
  EXPECT_EQ(*rows, want);
  EXPECT_EQ(summary.files, 2);
  EXPECT_EQ(summary.rows_read, 400);
  EXPECT_EQ(summary.rows_deleted, 10);
  EXPECT_GT(summary.row_groups_read, 4);  // Avro blocks
  EXPECT_EQ(summary.delete_files_loaded, 3);
}

TEST_F(AvroScanTest, ResidualFilterAndProjection) {
  auto rows =
      scan(make_predicate(Operation::kGtEq, "score", {Literal::float64(100.0)}), {"label", "id"});
  ASSERT_TRUE(rows.ok()) << rows.status().to_string();
  std::vector<std::string> want;
  for (int i = 200; i < 300; ++i) {
    if (std::count(deleted_a_.begin(), deleted_a_.end(), i)) continue;
    std::string label = i % 10 == 9 ? "null" : fmt::format("\"a{}\"", i);
    want.push_back(fmt::format(R"({{"label":{},"id":{}}})", label, 1000000 + i));
  }
  std::sort(want.begin(), want.end());
  EXPECT_EQ(*rows, want);
}

TEST_F(AvroScanTest, PartitionFilterOnAColumnTheFileLacks) {
  auto rows = scan(make_predicate(Operation::kEq, "p", {Literal::int32(1)}));
  ASSERT_TRUE(rows.ok()) << rows.status().to_string();
  auto want = expected(+[](int64_t id, double) { return id < 2000000; });
  EXPECT_EQ(*rows, want);
}

TEST_F(AvroScanTest, CorruptDataFileNamesTheFile) {
  std::string bytes = *io_->read_file("mem://t/data/b.avro");
  ASSERT_TRUE(io_->write_file("mem://t/data/b.avro", bytes.substr(0, bytes.size() - 40)).ok());
  auto rows = scan(nullptr);
  ASSERT_FALSE(rows.ok());
  EXPECT_NE(rows.status().message().find("mem://t/data/b.avro"), std::string::npos)
      << rows.status().to_string();
}

// Avro data files written by Spark (impala fixture): row 1 predates column j and reads its
// initial-default -1.
TEST(AvroScanFixture, SparkWrittenAvroWithInitialDefault) {
  std::string dir = std::string(FLOE_FIXTURES_DIR) + "/impala/iceberg_v3_default_value_avro";
  auto t = open_table_at(make_local_file_io(), dir);
  ASSERT_TRUE(t.ok()) << t.status().to_string();
  auto scan = TableScan::make(t->io, t->metadata, {});
  ASSERT_TRUE(scan.ok()) << scan.status().to_string();
  std::vector<std::string> rows;
  auto s = read_scan(*scan, t->io, t->metadata, {}, [&](ColumnBatch&& b) {
    for (int64_t i = 0; i < b.num_rows; ++i) {
      std::string r;
      write_row_json(b, i, JsonOptions{}, &r);
      rows.push_back(std::move(r));
    }
    return Status::OK();
  });
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows, (std::vector<std::string>{R"({"i":1,"j":-1})", R"({"i":2,"j":2})"}));
}

// The whole path: a partitioned table with write.format.default=avro written by TableWriter,
// appended through the Table API, scanned with and without a filter.
TEST(AvroScanTable, TableWriterAvroFilesScanBack) {
  CatalogOptions options;
  options.warehouse = "mem://wh";
  options.io = make_memory_file_io();
  CatalogPtr catalog = make_memory_catalog(options);
  ASSERT_TRUE(catalog->create_namespace({"db"}).ok());
  auto schema = std::make_shared<const Schema>(
      0,
      std::vector<NestedField>{field(1, "id", Type::int64(), true), field(2, "cat", Type::string()),
                               field(3, "tags", Type::list_of(4, Type::string(), false))});
  auto spec = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{2, {}, 1000, "cat", Transform::identity()}});
  auto table = Table::create(catalog, TableIdentifier{{"db"}, "t"}, schema, spec, nullptr,
                             {{"write.format.default", "avro"}});
  ASSERT_TRUE(table.ok()) << table.status().to_string();
  ColumnBatch batch = ColumnBatch::make((*table)->metadata()->schema()->fields());
  std::vector<std::string> want;
  for (int i = 0; i < 500; ++i) {
    std::string cat = i % 3 == 0 ? "x" : "y";
    batch.columns[0]->append_fixed<int64_t>(i);
    batch.columns[1]->append_bytes(cat);
    for (int k = 0; k < i % 3; ++k) batch.columns[2]->child(0).append_bytes(fmt::format("t{}", k));
    batch.columns[2]->append_list(i % 3);
    std::string tags;
    for (int k = 0; k < i % 3; ++k) tags += fmt::format("{}\"t{}\"", k ? "," : "", k);
    want.push_back(fmt::format(R"({{"id":{},"cat":"{}","tags":[{}]}})", i, cat, tags));
  }
  batch.num_rows = 500;
  auto writer = TableWriter::make((*table)->io(), *(*table)->metadata());
  ASSERT_TRUE(writer.ok()) << writer.status().to_string();
  ASSERT_TRUE((*writer)->write(batch).ok());
  auto files = (*writer)->close();
  ASSERT_TRUE(files.ok()) << files.status().to_string();
  ASSERT_EQ(files->size(), 2u);
  auto append = (*table)->new_append();
  for (const auto& f : *files) {
    EXPECT_EQ(f.file_format, "AVRO");
    append.append_file(f);
  }
  ASSERT_TRUE(append.commit().ok());

  auto read = [&](ExprPtr filter) -> Result<std::vector<std::string>> {
    ScanOptions o;
    o.filter = std::move(filter);
    auto scan = FLOE_TRY((*table)->new_scan(o));
    std::vector<std::string> rows;
    FLOE_TRY(read_scan(scan, (*table)->io(), (*table)->metadata(), {}, [&](ColumnBatch&& b) {
      for (int64_t i = 0; i < b.num_rows; ++i) {
        std::string r;
        write_row_json(b, i, JsonOptions{}, &r);
        rows.push_back(std::move(r));
      }
      return Status::OK();
    }));
    std::sort(rows.begin(), rows.end());
    return rows;
  };
  auto all = read(nullptr);
  ASSERT_TRUE(all.ok()) << all.status().to_string();
  std::sort(want.begin(), want.end());
  EXPECT_EQ(*all, want);
  auto some = read(make_predicate(Operation::kLt, "id", {Literal::int64(10)}));
  ASSERT_TRUE(some.ok()) << some.status().to_string();
  std::vector<std::string> first;
  for (const auto& r : want) {
    if (r.starts_with(R"({"id":)") && r[6] >= '0' && r[6] <= '9' && r[7] == ',') first.push_back(r);
  }
  EXPECT_EQ(first.size(), 10u);
  EXPECT_EQ(*some, first);
}

}  // namespace
}  // namespace floe
