// Partitioned writing: each file's partition tuple equals Transform::apply of its rows, Hive
// paths as Java's partitionToPath, URL escaping and nulls, fan-out vs clustered input, and the
// column-wise grouping against a per-row Literal reference.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "floe/format/parquet/reader.h"
#include "floe/write/data_writer.h"
#include "write/write_test_util.h"

namespace floe {
namespace {

using namespace write_testing;

std::vector<NestedField> event_fields() {
  return {
      field(1, "id", Type::int64(), true), field(2, "country", Type::string()),
      field(3, "ts", Type::timestamptz()), field(4, "s", Type::string()),
      field(5, "loc",
            Type::struct_of({field(6, "city", Type::string()), field(7, "zip", Type::int32())}))};
}

std::vector<PartitionField> event_spec() {
  return {PartitionField{2, {}, 1000, "country", Transform::identity()},
          PartitionField{3, {}, 1001, "ts_day", Transform::day()},
          PartitionField{1, {}, 1002, "id_bucket", Transform::bucket(16)},
          PartitionField{4, {}, 1003, "s_trunc", Transform::truncate(4)}};
}

const std::vector<std::string> kCountries = {"DE", "FR", "A B/é", ""};
constexpr int64_t kJune15 = 1718445600000000LL;  // 2024-06-15T10:00:00Z

ColumnBatch event_batch(int n, uint32_t seed, int64_t first_id) {
  std::mt19937 rng(seed);
  ColumnBatch b = ColumnBatch::make(event_fields());
  for (int i = 0; i < n; ++i) {
    b.columns[0]->append_fixed<int64_t>(first_id + i);
    uint32_t c = rng() % 5;
    if (c == 4) {
      b.columns[1]->append_null();
    } else {
      b.columns[1]->append_bytes(kCountries[c]);
    }
    b.columns[2]->append_fixed<int64_t>(kJune15 + static_cast<int64_t>(rng() % 3) * 86400000000LL -
                                        static_cast<int64_t>(rng() % 2) * 11 * 3600000000LL);
    b.columns[3]->append_bytes(fmt::format("{}{}-tail", rng() % 2 ? "abcd" : "wxyz", rng() % 3));
    ColumnVector& loc = *b.columns[4];
    if (i % 7 == 3) {
      loc.child(0).append_null();
      loc.child(1).append_null();
      loc.append_null();
    } else {
      loc.child(0).append_bytes(i % 2 ? "Berlin" : "Paris");
      loc.child(1).append_fixed<int32_t>(10000 + i % 3);
      loc.append_struct();
    }
  }
  b.num_rows = n;
  return b;
}

std::vector<Literal> reference_partition(const std::vector<PartitionField>& spec,
                                         const ColumnBatch& b, int64_t row) {
  std::vector<Literal> out;
  for (const auto& pf : spec) {
    int c = b.find(pf.source_id);
    auto v = pf.transform.apply(b.columns[c]->literal_at(row));
    EXPECT_TRUE(v.ok());
    out.push_back(*v);
  }
  return out;
}

TEST(PartitionedWriter, TuplesPathsAndRowsMatchTheTransforms) {
  TempDir dir;
  TableMetadata t = make_table(dir.str(), event_fields(), event_spec());
  auto w = TableWriter::make(make_local_file_io(), t);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  std::vector<std::string> want;
  for (int b = 0; b < 3; ++b) {
    ColumnBatch batch = event_batch(500, 11 + b, b * 500);
    for (auto& r : rows_of(batch)) want.push_back(r);
    ASSERT_TRUE((*w)->write(batch).ok());
  }
  auto files = (*w)->close();
  ASSERT_TRUE(files.ok()) << files.status().to_string();
  EXPECT_GT(files->size(), 20u);
  const std::string uuid = (*w)->operation_id();
  const PartitionSpec spec(0, event_spec());
  auto io = make_local_file_io();
  std::vector<std::string> got;
  std::set<std::string> paths;
  bool saw_null = false, saw_escaped = false;
  int64_t total = 0;
  for (const auto& f : *files) {
    total += f.record_count;
    EXPECT_TRUE(paths.insert(f.file_path).second) << "duplicate " << f.file_path;
    ASSERT_EQ(f.partition.size(), 4u);
    std::string dir_part = dir.str() + "/data/" + spec.partition_to_path(f.partition) + "/";
    ASSERT_EQ(f.file_path.rfind(dir_part, 0), 0u) << f.file_path;
    std::string name = f.file_path.substr(dir_part.size());
    EXPECT_EQ(name.rfind("00000-0-" + uuid + "-", 0), 0u) << name;
    EXPECT_TRUE(name.ends_with(".parquet")) << name;
    if (f.partition[0].is_null()) {
      saw_null = true;
      EXPECT_NE(f.file_path.find("/country=null/"), std::string::npos) << f.file_path;
    } else if (f.partition[0].as_bytes() == "A B/é") {
      saw_escaped = true;
      EXPECT_NE(f.file_path.find("/country=A+B%2F%C3%A9/"), std::string::npos) << f.file_path;
    }
    auto batches = parquet::read_parquet_file(io, f.file_path);
    ASSERT_TRUE(batches.ok()) << batches.status().to_string();
    int64_t rows = 0;
    for (const auto& b : *batches) {
      for (int64_t r = 0; r < b.num_rows; ++r) {
        EXPECT_EQ(reference_partition(event_spec(), b, r), f.partition) << f.file_path;
      }
      rows += b.num_rows;
      for (auto& r : rows_of(b)) got.push_back(r);
    }
    EXPECT_EQ(rows, f.record_count);
    EXPECT_EQ(f.spec_id, 0);
  }
  EXPECT_TRUE(saw_null);
  EXPECT_TRUE(saw_escaped);
  EXPECT_EQ(total, 1500);
  EXPECT_EQ(sorted(got), sorted(want));
}

// With threads, every open file of a fan-out write runs on one pool; the files are the ones a
// single thread writes, byte for byte, with the same metrics.
TEST(PartitionedWriter, ThreadsShareOnePoolAndWriteTheSameFiles) {
  TempDir dir;
  TableMetadata t = make_table(dir.str(), event_fields(), event_spec());
  auto io = make_local_file_io();
  std::map<std::string, std::pair<DataFile, std::string>> written[2];
  for (int run = 0; run < 2; ++run) {
    auto o = WriteOptions::from_table(t);
    ASSERT_TRUE(o.ok()) << o.status().to_string();
    o->parquet.threads = run == 0 ? 1 : 3;
    o->parquet.page_size_bytes = 512;  // several pages per file, compressed on the pool
    o->operation_id = "op";
    o->data_location = dir.str() + fmt::format("/run{}", run);
    auto w = TableWriter::make(io, t, *o);
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    for (int b = 0; b < 4; ++b) ASSERT_TRUE((*w)->write(event_batch(800, 5 + b, b * 800)).ok());
    auto files = (*w)->close();
    ASSERT_TRUE(files.ok()) << files.status().to_string();
    for (auto& f : *files) {
      std::string name = f.file_path.substr(o->data_location.size());
      std::string bytes = *io->read_file(f.file_path);
      written[run][name] = {std::move(f), std::move(bytes)};
    }
  }
  ASSERT_GT(written[0].size(), 20u);
  ASSERT_EQ(written[0].size(), written[1].size());
  for (const auto& [name, one] : written[0]) {
    auto it = written[1].find(name);
    ASSERT_NE(it, written[1].end()) << name;
    const auto& [f, bytes] = it->second;
    EXPECT_TRUE(bytes == one.second) << name << " differs with threads";
    EXPECT_EQ(f.record_count, one.first.record_count) << name;
    EXPECT_EQ(f.column_sizes, one.first.column_sizes) << name;
    EXPECT_EQ(f.lower_bounds, one.first.lower_bounds) << name;
    EXPECT_EQ(f.upper_bounds, one.first.upper_bounds) << name;
    EXPECT_EQ(f.split_offsets, one.first.split_offsets) << name;
  }
}

TEST(PartitionedWriter, HivePathOfDayAndIdentity) {
  TempDir dir;
  std::vector<PartitionField> spec = {PartitionField{2, {}, 1000, "country", Transform::identity()},
                                      PartitionField{3, {}, 1001, "ts_day", Transform::day()}};
  WriteOptions o;
  o.data_location = dir.str() + "/data";
  o.operation_id = "11111111-2222-4333-8444-555555555555";
  auto w = TableWriter::make(make_local_file_io(), std::make_shared<Schema>(0, event_fields()),
                             std::make_shared<PartitionSpec>(0, spec), o);
  ASSERT_TRUE(w.ok());
  ColumnBatch b = ColumnBatch::make(event_fields());
  b.columns[0]->append_fixed<int64_t>(1);
  b.columns[1]->append_bytes("DE");
  b.columns[2]->append_fixed<int64_t>(kJune15);
  b.columns[3]->append_bytes("x");
  b.columns[4]->child(0).append_null();
  b.columns[4]->child(1).append_null();
  b.columns[4]->append_null();
  b.num_rows = 1;
  ASSERT_TRUE((*w)->write(b).ok());
  auto files = (*w)->close();
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].file_path,
            dir.str() +
                "/data/country=DE/ts_day=2024-06-15/"
                "00000-0-11111111-2222-4333-8444-555555555555-00001.parquet");
  EXPECT_EQ((*files)[0].partition[1], Literal::date(19889));
}

TEST(PartitionedWriter, OtherTransformsAndNestedSources) {
  // Time transforms of several granularities, bucket/truncate of other types, a source inside
  // a struct (a null struct gives a null partition value), void.
  std::vector<PartitionField> spec = {
      PartitionField{3, {}, 1000, "ts_hour", Transform::hour()},
      PartitionField{3, {}, 1001, "ts_month", Transform::month()},
      PartitionField{3, {}, 1002, "ts_year", Transform::year()},
      PartitionField{6, {}, 1003, "city", Transform::identity()},
      PartitionField{7, {}, 1004, "zip_trunc", Transform::truncate(2)},
      PartitionField{2, {}, 1005, "country_bucket", Transform::bucket(3)},
      PartitionField{1, {}, 1006, "id_null", Transform::void_transform()}};
  PartitionSpec ps(0, spec);
  Schema schema(0, event_fields());
  ColumnBatch b = event_batch(300, 5, 0);
  auto groups = group_by_partition(ps, schema, b);
  ASSERT_TRUE(groups.ok()) << groups.status().to_string();
  int64_t rows = 0;
  for (const auto& g : *groups) {
    rows += static_cast<int64_t>(g.rows.size());
    for (int32_t r : g.rows) {
      std::vector<Literal> want;
      for (const auto& pf : spec) {
        Literal src;
        if (pf.source_id == 6 || pf.source_id == 7) {
          const ColumnVector& loc = *b.columns[4];
          src = loc.is_null(r) ? Literal::null(pf.source_id == 6 ? Type::string() : Type::int32())
                               : loc.child(pf.source_id - 6).literal_at(r);
        } else {
          src = b.columns[b.find(pf.source_id)]->literal_at(r);
        }
        want.push_back(*pf.transform.apply(src));
      }
      ASSERT_EQ(want, g.partition) << "row " << r;
    }
  }
  EXPECT_EQ(rows, 300);
  std::string path = ps.partition_to_path((*groups)[0].partition);
  EXPECT_NE(path.find("ts_hour=2024-06-"), std::string::npos) << path;
  EXPECT_NE(path.find("ts_month=2024-06/ts_year=2024/"), std::string::npos) << path;
  EXPECT_NE(path.find("id_null=null"), std::string::npos) << path;
}

TEST(PartitionedWriter, ClusteredRejectsAPartitionSeenBefore) {
  TempDir dir;
  std::vector<PartitionField> spec = {
      PartitionField{2, {}, 1000, "country", Transform::identity()}};
  auto make_batch = [](std::vector<std::string> countries) {
    ColumnBatch b = ColumnBatch::make(event_fields());
    for (size_t i = 0; i < countries.size(); ++i) {
      b.columns[0]->append_fixed<int64_t>(static_cast<int64_t>(i));
      b.columns[1]->append_bytes(countries[i]);
      b.columns[2]->append_fixed<int64_t>(kJune15);
      b.columns[3]->append_bytes("x");
      b.columns[4]->child(0).append_null();
      b.columns[4]->child(1).append_null();
      b.columns[4]->append_null();
    }
    b.num_rows = static_cast<int64_t>(countries.size());
    return b;
  };
  TableMetadata t =
      make_table(dir.str(), event_fields(), spec, {{"write.spark.fanout.enabled", "false"}});
  auto w = TableWriter::make(make_local_file_io(), t);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->write(make_batch({"DE", "DE"})).ok());
  ASSERT_TRUE((*w)->write(make_batch({"DE", "FR"})).ok());
  ASSERT_TRUE((*w)->write(make_batch({"FR", "IT"})).ok());
  Status again = (*w)->write(make_batch({"DE"}));
  EXPECT_FALSE(again.ok());
  EXPECT_NE(again.message().find("country=DE"), std::string::npos) << again.to_string();
  auto files = (*w)->close();
  ASSERT_TRUE(files.ok());
  EXPECT_EQ(files->size(), 3u);
  int64_t total = 0;
  for (const auto& f : *files) total += f.record_count;
  EXPECT_EQ(total, 6);

  // Fan-out (the default) takes the same input.
  t.properties.clear();
  auto fan = TableWriter::make(make_local_file_io(), t);
  ASSERT_TRUE(fan.ok());
  for (auto c : std::vector<std::vector<std::string>>{{"DE"}, {"FR"}, {"DE", "IT"}}) {
    ASSERT_TRUE((*fan)->write(make_batch(c)).ok());
  }
  auto fan_files = (*fan)->close();
  ASSERT_TRUE(fan_files.ok());
  EXPECT_EQ(fan_files->size(), 3u);
}

TEST(PartitionedWriter, AvroFilesPerPartition) {
  TempDir dir;
  TableMetadata t =
      make_table(dir.str(), event_fields(), event_spec(), {{"write.format.default", "avro"}});
  auto w = TableWriter::make(make_local_file_io(), t);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->write(event_batch(200, 3, 0)).ok());
  auto files = (*w)->close();
  ASSERT_TRUE(files.ok()) << files.status().to_string();
  int64_t total = 0;
  for (const auto& f : *files) {
    total += f.record_count;
    EXPECT_EQ(f.file_format, "AVRO");
    EXPECT_TRUE(f.file_path.ends_with(".avro"));
    EXPECT_TRUE(fs::exists(f.file_path));
  }
  EXPECT_EQ(total, 200);
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

// Expected hashes are those of the Java ObjectStoreLocationProvider (as pyiceberg's tests
// record them).
TEST(ObjectStorage, HashDirectoriesMatchJava) {
  EXPECT_EQ(object_storage_hash_dirs("a"), "0101/0110/1001/10110010");
  EXPECT_EQ(object_storage_hash_dirs("b"), "1110/0111/1110/00000011");
  EXPECT_EQ(object_storage_hash_dirs("test.parquet"), "0110/1010/0011/11101000");
  EXPECT_EQ(object_storage_hash_dirs("string_field=example_string/test.parquet"),
            "0001/0010/1001/00000011");
}

TEST(ObjectStorage, PathsUnderTheDataLocation) {
  Schema schema(0, {write_testing::field(1, "id", Type::int64())});
  auto o = WriteOptions::from_properties({{"write.object-storage.enabled", "true"}}, schema,
                                         "s3://b/wh/db/tbl");
  ASSERT_TRUE(o.ok());
  EXPECT_TRUE(o->object_storage);
  EXPECT_TRUE(o->object_storage_context.empty());
  o->operation_id = "u";
  OutputFileFactory files(*o, ".parquet");
  std::string p = files.next_path("x=1");
  const std::string file = "x=1/00000-0-u-00001.parquet";
  EXPECT_EQ(p, "s3://b/wh/db/tbl/data/" + object_storage_hash_dirs(file) + "/" + file);
  o->object_storage = false;
  OutputFileFactory plain(*o, ".parquet");
  EXPECT_EQ(plain.next_path("", "deletes"),
            "s3://b/wh/db/tbl/data/00000-0-u-00001-deletes.parquet");

  auto outside = WriteOptions::from_properties(
      {{"write.object-storage.enabled", "true"}, {"write.object-storage.path", "s3://other/p/"}},
      schema, "s3://b/wh/db/tbl");
  ASSERT_TRUE(outside.ok());
  EXPECT_EQ(outside->data_location, "s3://other/p");
  EXPECT_EQ(outside->object_storage_context, "db/tbl");
  outside->operation_id = "u";
  outside->object_storage_partitioned_paths = false;
  OutputFileFactory f2(*outside, ".avro");
  const std::string name = "00000-0-u-00001.avro";
  EXPECT_EQ(f2.next_path("x=1"),
            "s3://other/p/" + object_storage_hash_dirs(name) + "/db/tbl/" + name);
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

using write_testing::field;

// Types without a column-wise fast path go through Transform::apply per row.
TEST(PartitionedWriter, SlowPathTransformsMatchApply) {
  std::vector<NestedField> fields = {field(1, "dec", Type::decimal(9, 2)),
                                     field(2, "tsns", Type::timestamp_ns()),
                                     field(3, "f", Type::float32())};
  std::vector<PartitionField> spec = {
      PartitionField{1, {}, 1000, "dec_bucket", Transform::bucket(4)},
      PartitionField{1, {}, 1001, "dec_trunc", Transform::truncate(100)},
      PartitionField{2, {}, 1002, "tsns_day", Transform::day()},
      PartitionField{2, {}, 1003, "tsns_bucket", Transform::bucket(5)},
      PartitionField{3, {}, 1004, "f", Transform::identity()}};
  ColumnBatch b = ColumnBatch::make(fields);
  for (int i = 0; i < 200; ++i) {
    if (i % 13 == 0) {
      b.columns[0]->append_null();
    } else {
      b.columns[0]->append_fixed<int128_t>(static_cast<int128_t>(i * 37 - 3000));
    }
    b.columns[1]->append_fixed<int64_t>(1718445600000000000LL + (i % 4) * 86400000000000LL - i);
    b.columns[2]->append_fixed<float>(static_cast<float>(i % 3) - 1.0f);
  }
  b.num_rows = 200;
  PartitionSpec ps(0, spec);
  Schema schema(0, fields);
  auto groups = group_by_partition(ps, schema, b);
  ASSERT_TRUE(groups.ok()) << groups.status().to_string();
  int64_t rows = 0;
  std::set<std::string> seen;
  for (const auto& g : *groups) {
    EXPECT_TRUE(seen.insert(ps.partition_to_path(g.partition)).second);
    for (int32_t r : g.rows) {
      ++rows;
      for (size_t f = 0; f < spec.size(); ++f) {
        auto want = spec[f].transform.apply(b.columns[b.find(spec[f].source_id)]->literal_at(r));
        ASSERT_TRUE(want.ok());
        EXPECT_EQ(*want, g.partition[f]) << "row " << r << " field " << spec[f].name;
      }
    }
  }
  EXPECT_EQ(rows, 200);
}

TEST(PartitionedWriter, MemoryFileIoAndAvroRolling) {
  auto io = make_memory_file_io();
  TableMetadata t = write_testing::make_table(
      "mem/wh/t", event_fields(), {PartitionField{2, {}, 1000, "country", Transform::identity()}},
      {{"write.format.default", "avro"}, {"write.target-file-size-bytes", "2000"}});
  auto w = TableWriter::make(io, t);
  ASSERT_TRUE(w.ok());
  for (int b = 0; b < 4; ++b) ASSERT_TRUE((*w)->write(event_batch(250, 40 + b, b * 250)).ok());
  auto files = (*w)->close();
  ASSERT_TRUE(files.ok()) << files.status().to_string();
  int64_t total = 0;
  std::map<std::string, int> per_partition;
  for (const auto& f : *files) {
    total += f.record_count;
    ++per_partition[f.file_path.substr(0, f.file_path.rfind('/'))];
    auto size = io->file_size(f.file_path);
    ASSERT_TRUE(size.ok()) << f.file_path;
    EXPECT_EQ(*size, f.file_size_in_bytes);
    EXPECT_EQ(f.file_path.rfind("mem/wh/t/data/country=", 0), 0u) << f.file_path;
  }
  EXPECT_EQ(total, 1000);
  for (const auto& [dir, n] : per_partition) EXPECT_GT(n, 1) << dir;  // rolled
  ASSERT_TRUE((*w)->abort().ok());
  auto left = io->list("mem/wh/t");
  ASSERT_TRUE(left.ok());
  EXPECT_TRUE(left->empty());
}

}  // namespace
}  // namespace floe
