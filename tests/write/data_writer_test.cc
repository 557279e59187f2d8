// Unpartitioned writing: metrics per metrics mode in Parquet and Avro files, the inferred
// column limit, rolling by target size, abort, and readback by floe, DuckDB and python3-avro.
#include "floe/write/data_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "floe/format/avro/generic.h"
#include "floe/write/avro_data_writer.h"
#include "write/write_test_util.h"

namespace floe {
namespace {

using namespace write_testing;
using parquet::testing::oracle_dir;
using parquet::testing::run_command;
using parquet::testing::shell_quote;

std::vector<NestedField> simple_fields() {
  return {field(1, "id", Type::int64(), true), field(2, "s", Type::string()),
          field(3, "d", Type::float64()), field(4, "day", Type::date())};
}

// Row 1 has a NaN double and a null date.
ColumnBatch simple_batch(const std::vector<std::string>& strings, int64_t first_id = 0) {
  ColumnBatch b = ColumnBatch::make(simple_fields());
  for (size_t i = 0; i < strings.size(); ++i) {
    b.columns[0]->append_fixed<int64_t>(first_id + static_cast<int64_t>(i));
    b.columns[1]->append_bytes(strings[i]);
    if (i == 1) {
      b.columns[2]->append_fixed<double>(std::nan(""));
      b.columns[3]->append_null();
    } else {
      b.columns[2]->append_fixed<double>(static_cast<double>(i) - 0.5);
      b.columns[3]->append_fixed<int32_t>(19000 + static_cast<int32_t>(i));
    }
  }
  b.num_rows = static_cast<int64_t>(strings.size());
  return b;
}

std::string bound(const DataFile& f, int32_t id, bool lower) {
  const std::string* raw =
      lower ? find_metric(f.lower_bounds, id) : find_metric(f.upper_bounds, id);
  return raw ? *raw : std::string("<none>");
}
int64_t count(const ColumnMetrics<int64_t>& m, int32_t id) {
  const int64_t* v = find_metric(m, id);
  return v ? *v : -1;
}

Result<DataFile> write_one(const TempDir& dir, const std::string& format,
                           std::map<std::string, std::string> props, const ColumnBatch& batch) {
  props["write.format.default"] = format;
  TableMetadata t = make_table(dir.str(), simple_fields(), {}, props);
  auto w = FLOE_TRY(TableWriter::make(make_local_file_io(), t));
  FLOE_TRY(w->write(batch));
  auto files = FLOE_TRY(w->close());
  if (files.size() != 1) return invalid_argument("expected one file, got {}", files.size());
  return files[0];
}

const std::vector<std::string> kStrings = {"abcdefgh", "abzzzzzz", "b", "abc"};

class MetricsModes : public ::testing::TestWithParam<std::string> {};

TEST_P(MetricsModes, DefaultIsTruncate16WithCountsAndBounds) {
  TempDir dir;
  auto f = write_one(dir, GetParam(), {}, simple_batch(kStrings));
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  EXPECT_EQ(f->record_count, 4);
  EXPECT_EQ(f->file_format, GetParam() == "avro" ? "AVRO" : "PARQUET");
  EXPECT_EQ(f->content, FileContent::kData);
  EXPECT_EQ(count(f->value_counts, 1), 4);
  EXPECT_EQ(count(f->null_value_counts, 4), 1);
  EXPECT_EQ(count(f->nan_value_counts, 3), 1);
  EXPECT_EQ(bound(*f, 2, true), "abc");
  EXPECT_EQ(bound(*f, 2, false), "b");
  auto lo = f->lower_bound(3, Type::float64());
  auto hi = f->upper_bound(3, Type::float64());
  ASSERT_TRUE(lo && hi);
  EXPECT_EQ(lo->as_double(), -0.5);  // NaN excluded
  EXPECT_EQ(hi->as_double(), 2.5);
  auto day_lo = f->lower_bound(4, Type::date());
  ASSERT_TRUE(day_lo);
  EXPECT_EQ(day_lo->as_int32(), 19000);
  EXPECT_EQ(f->upper_bound(4, Type::date())->as_int32(), 19003);
  EXPECT_EQ(f->lower_bound(1, Type::int64())->as_int64(), 0);
  EXPECT_EQ(f->upper_bound(1, Type::int64())->as_int64(), 3);
  EXPECT_GT(f->file_size_in_bytes, 0);
  EXPECT_EQ(f->file_size_in_bytes, static_cast<int64_t>(fs::file_size(f->file_path)));
}

TEST_P(MetricsModes, NoneCountsTruncateFull) {
  TempDir dir;
  auto none = write_one(dir, GetParam(), {{"write.metadata.metrics.default", "none"}},
                        simple_batch(kStrings));
  ASSERT_TRUE(none.ok()) << none.status().to_string();
  EXPECT_TRUE(none->value_counts.empty());
  EXPECT_TRUE(none->null_value_counts.empty());
  EXPECT_TRUE(none->lower_bounds.empty());

  auto counts = write_one(dir, GetParam(), {{"write.metadata.metrics.default", "counts"}},
                          simple_batch(kStrings));
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(count(counts->value_counts, 2), 4);
  EXPECT_EQ(count(counts->null_value_counts, 4), 1);
  EXPECT_TRUE(counts->lower_bounds.empty());
  EXPECT_TRUE(counts->upper_bounds.empty());

  // Max "b" truncated to 4 stays "b"; use strings whose max is long.
  std::vector<std::string> s = {"abcdefgh", "abzzzzzz", "abc", "ab"};
  auto trunc = write_one(dir, GetParam(), {{"write.metadata.metrics.default", "truncate(4)"}},
                         simple_batch(s));
  ASSERT_TRUE(trunc.ok());
  EXPECT_EQ(bound(*trunc, 2, true), "ab");
  EXPECT_EQ(bound(*trunc, 2, false), "abz{");  // "abzz" with its last unit incremented
  auto full =
      write_one(dir, GetParam(), {{"write.metadata.metrics.default", "full"}}, simple_batch(s));
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(bound(*full, 2, true), "ab");
  EXPECT_EQ(bound(*full, 2, false), "abzzzzzz");
}

TEST_P(MetricsModes, TruncateIncrementsTheUpperBound) {
  TempDir dir;
  std::vector<std::string> s = {"apple-pie", "banana-split", "cherry", "avocado"};
  auto f = write_one(dir, GetParam(), {{"write.metadata.metrics.default", "truncate(4)"}},
                     simple_batch(s));
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  EXPECT_EQ(bound(*f, 2, true), "appl");
  EXPECT_EQ(bound(*f, 2, false), "ches");  // "cher" + 1 on the last code point
}

TEST_P(MetricsModes, PerColumnOverride) {
  TempDir dir;
  std::vector<std::string> s = {"apple-pie", "banana-split", "cherry-tart", "avocado"};
  auto f = write_one(dir, GetParam(),
                     {{"write.metadata.metrics.default", "counts"},
                      {"write.metadata.metrics.column.s", "full"},
                      {"write.metadata.metrics.column.d", "none"}},
                     simple_batch(s));
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  EXPECT_EQ(bound(*f, 2, false), "cherry-tart");
  EXPECT_EQ(bound(*f, 1, true), "<none>");
  EXPECT_EQ(count(f->value_counts, 1), 4);
  EXPECT_EQ(count(f->value_counts, 3), -1);
  EXPECT_EQ(count(f->nan_value_counts, 3), -1);
}

INSTANTIATE_TEST_SUITE_P(Formats, MetricsModes, ::testing::Values("parquet", "avro"));

// Java's write.metadata.metrics.max-inferred-column-defaults: with more than 100 top-level
// columns and no explicit default, only the first 100 keep metrics.
TEST(WriteMetrics, InferredDefaultCoversOnlyTheFirst100Columns) {
  TempDir dir;
  std::vector<NestedField> fields;
  for (int i = 1; i <= 120; ++i) fields.push_back(field(i, fmt::format("c{}", i), Type::int32()));
  ColumnBatch b = ColumnBatch::make(fields);
  for (int r = 0; r < 3; ++r) {
    for (auto& c : b.columns) c->append_fixed<int32_t>(r);
  }
  b.num_rows = 3;
  for (const char* format : {"parquet", "avro"}) {
    for (bool explicit_default : {false, true}) {
      std::map<std::string, std::string> props = {{"write.format.default", format}};
      if (explicit_default) props["write.metadata.metrics.default"] = "truncate(16)";
      TableMetadata t = make_table(dir.str(), fields, {}, props);
      auto w = TableWriter::make(make_local_file_io(), t);
      ASSERT_TRUE(w.ok()) << w.status().to_string();
      ASSERT_TRUE((*w)->write(b).ok());
      auto files = (*w)->close();
      ASSERT_TRUE(files.ok()) << files.status().to_string();
      const DataFile& f = (*files)[0];
      for (int id = 1; id <= 120; ++id) {
        bool want = explicit_default || id <= 100;
        EXPECT_EQ(find_metric(f.value_counts, id) != nullptr, want) << format << " " << id;
        EXPECT_EQ(find_metric(f.lower_bounds, id) != nullptr, want) << format << " " << id;
      }
    }
  }
}

TEST(WriteOptions, FromTableProperties) {
  TableMetadata t = make_table("/wh/t", simple_fields(), {},
                               {{"write.target-file-size-bytes", "1000"},
                                {"write.parquet.compression-codec", "snappy"},
                                {"write.parquet.row-group-size-bytes", "4096"}});
  auto o = WriteOptions::from_table(t);
  ASSERT_TRUE(o.ok()) << o.status().to_string();
  EXPECT_EQ(o->format, "parquet");
  EXPECT_EQ(o->target_file_size, 1000);
  EXPECT_EQ(o->parquet.codec, parquet::Codec::kSnappy);
  EXPECT_EQ(o->parquet.row_group_size_bytes, 4096);
  EXPECT_EQ(o->data_location, "/wh/t/data");
  EXPECT_TRUE(o->fanout);

  auto d = WriteOptions::from_table(make_table("/wh/t", simple_fields(), {}, {}));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->target_file_size, 512LL << 20);
  EXPECT_EQ(d->parquet.codec, parquet::Codec::kZstd);

  t.properties = {{"write.data.path", "s3://b/elsewhere"}, {"write.spark.fanout.enabled", "false"}};
  auto e = WriteOptions::from_table(t);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->data_location, "s3://b/elsewhere");
  EXPECT_FALSE(e->fanout);

  t.properties = {{"write.format.default", "orc"}};
  auto orc = WriteOptions::from_table(t);
  ASSERT_FALSE(orc.ok());
  EXPECT_EQ(orc.status().kind(), ErrorKind::kNotSupported);
  EXPECT_NE(orc.status().message().find("orc"), std::string::npos);
}

TEST(WriteOptions, SortedColumnsKeepBoundsUnderCountsDefault) {
  SortOrder order;
  order.order_id = 1;
  SortField sf;
  sf.source_id = 2;
  order.fields.push_back(sf);
  Schema schema(0, simple_fields());
  auto o = WriteOptions::from_properties({{"write.metadata.metrics.default", "counts"}}, schema,
                                         "/t", &order);
  ASSERT_TRUE(o.ok());
  ASSERT_TRUE(o->parquet.metrics.column_modes.count(2));
  EXPECT_EQ(o->parquet.metrics.column_modes.at(2).kind, MetricsMode::kTruncate);
  EXPECT_EQ(o->parquet.metrics.column_modes.at(2).length, 16);
  EXPECT_FALSE(o->parquet.metrics.column_modes.count(1));
}

// Many rows with a small target size roll into several files; every row comes back.
TEST(DataFileWriter, RollsAtTargetSize) {
  TempDir dir;
  TableMetadata t = make_table(dir.str(), simple_fields(), {},
                               {{"write.target-file-size-bytes", "60000"},
                                {"write.parquet.row-group-size-bytes", "20000"},
                                {"write.parquet.page-size-bytes", "4096"}});
  auto w = TableWriter::make(make_local_file_io(), t);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  std::vector<std::string> want;
  std::mt19937 rng(7);
  for (int b = 0; b < 4; ++b) {
    std::vector<std::string> s;
    for (int i = 0; i < 10000; ++i) s.push_back(fmt::format("value-{}-{}", rng(), i));
    ColumnBatch batch = simple_batch(s, b * 10000);
    for (auto& r : rows_of(batch)) want.push_back(r);
    ASSERT_TRUE((*w)->write(batch).ok());
  }
  EXPECT_EQ((*w)->rows_written(), 40000);
  auto files = (*w)->close();
  ASSERT_TRUE(files.ok()) << files.status().to_string();
  EXPECT_GE(files->size(), 4u);
  int64_t total = 0;
  std::vector<std::string> got;
  auto io = make_local_file_io();
  for (const auto& f : *files) {
    total += f.record_count;
    EXPECT_LT(f.file_size_in_bytes, 60000 * 2) << f.file_path;
    ASSERT_TRUE(f.split_offsets.has_value());
    for (auto& r : read_parquet_rows(io, f.file_path)) got.push_back(r);
  }
  EXPECT_EQ(total, 40000);
  EXPECT_EQ(sorted(got), sorted(want));
}

TEST(DataFileWriter, FileNamesFollowJavaAndNeverCollide) {
  TempDir dir;
  WriteOptions o;
  o.data_location = dir.str() + "/data";
  o.partition_id = 3;
  o.task_id = 42;
  o.operation_id = "0e5b6f9c-0000-4000-8000-000000000001";
  auto w = TableWriter::make(make_local_file_io(), std::make_shared<Schema>(0, simple_fields()),
                             PartitionSpec::unpartitioned(), o);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->write(simple_batch(kStrings)).ok());
  auto files = (*w)->close();
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].file_path,
            dir.str() + "/data/00003-42-0e5b6f9c-0000-4000-8000-000000000001-00001.parquet");

  // A second writer with a random operation id writes a different name.
  auto w2 = TableWriter::make(make_local_file_io(), make_table(dir.str(), simple_fields()));
  ASSERT_TRUE(w2.ok());
  ASSERT_TRUE((*w2)->write(simple_batch(kStrings)).ok());
  auto files2 = (*w2)->close();
  ASSERT_TRUE(files2.ok());
  EXPECT_NE((*files2)[0].file_path, (*files)[0].file_path);
  EXPECT_TRUE(fs::exists((*files2)[0].file_path));
}

TEST(DataFileWriter, AbortDeletesEveryFile) {
  TempDir dir;
  TableMetadata t = make_table(dir.str(), simple_fields(),
                               {PartitionField{2, {}, 1000, "s", Transform::identity()}},
                               {{"write.target-file-size-bytes", "1"}});
  auto w = TableWriter::make(make_local_file_io(), t);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->write(simple_batch(kStrings)).ok());
  ASSERT_TRUE((*w)->write(simple_batch(kStrings)).ok());
  auto files = (*w)->close();
  ASSERT_TRUE(files.ok());
  EXPECT_EQ(files->size(), 8u);  // 4 partitions, every batch rolls (target 1 byte)
  for (const auto& f : *files) EXPECT_TRUE(fs::exists(f.file_path)) << f.file_path;
  ASSERT_TRUE((*w)->abort().ok());
  for (const auto& f : *files) EXPECT_FALSE(fs::exists(f.file_path)) << f.file_path;
}

TEST(DataFileWriter, AbortBeforeCloseLeavesNoFile) {
  TempDir dir;
  auto w = TableWriter::make(make_local_file_io(), make_table(dir.str(), simple_fields(), {},
                                                              {{"write.format.default", "avro"}}));
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->write(simple_batch(kStrings)).ok());
  ASSERT_TRUE((*w)->abort().ok());
  auto io = make_local_file_io();
  auto listed = io->list(dir.str());
  EXPECT_TRUE(!listed.ok() || listed->empty());
}

TEST(DataFileWriter, DuckDbReadsTheParquetFile) {
  TempDir dir;
  std::vector<std::string> s = {"x", "DuckDB's row", "", "ünïcode"};
  auto f = write_one(dir, "parquet", {}, simple_batch(s));
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  int rc = 0;
  std::string out = run_command("cd " + shell_quote(oracle_dir()) + " && node parquet_duckdb.mjs " +
                                    shell_quote(f->file_path) + " 2>&1",
                                &rc);
  ASSERT_EQ(rc, 0) << out;
  std::vector<std::string> got;
  size_t pos = 0;
  while (pos < out.size()) {
    size_t nl = out.find('\n', pos);
    std::string line = out.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    if (!line.empty() && line.rfind("##", 0) != 0) got.push_back(line);
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  EXPECT_EQ(sorted(got), sorted(rows_of(simple_batch(s))));
  EXPECT_EQ(sorted(read_parquet_rows(make_local_file_io(), f->file_path)),
            sorted(rows_of(simple_batch(s))));
}

// ---- Avro data files

std::vector<NestedField> avro_fields() {
  return {field(1, "id", Type::int64(), true),
          field(2, "name", Type::string()),
          field(3, "ts", Type::timestamptz()),
          field(4, "price", Type::decimal(9, 2)),
          field(5, "u", Type::uuid()),
          field(6, "day", Type::date()),
          field(7, "point",
                Type::struct_of(
                    {field(8, "x", Type::float64(), true), field(9, "y-coord", Type::float64())})),
          field(10, "tags", Type::list_of(11, Type::string(), false)),
          field(12, "attrs",
                Type::map_of(field(13, "key", Type::string(), true),
                             field(14, "value", Type::int32()))),
          field(15, "ids",
                Type::map_of(field(16, "key", Type::int32(), true),
                             field(17, "value", Type::string())))};
}

ColumnBatch avro_batch() {
  ColumnBatch b = ColumnBatch::make(avro_fields());
  for (int i = 0; i < 3; ++i) {
    b.columns[0]->append_fixed<int64_t>(100 + i);
    if (i == 2) {
      b.columns[1]->append_null();
    } else {
      b.columns[1]->append_bytes(i == 0 ? "alpha" : "beta");
    }
    b.columns[2]->append_fixed<int64_t>(1718445600000000LL + i);
    b.columns[3]->append_fixed<int128_t>(static_cast<int128_t>(-12345 + i));
    b.columns[4]->append_bytes(std::string(16, static_cast<char>(0x10 + i)));
    b.columns[5]->append_fixed<int32_t>(19889 + i);
    ColumnVector& p = *b.columns[6];
    p.child(0).append_fixed<double>(1.5 * i);
    if (i == 1) {
      p.child(1).append_null();
    } else {
      p.child(1).append_fixed<double>(-2.0 * i);
    }
    p.append_struct();
    ColumnVector& tags = *b.columns[7];
    for (int k = 0; k < i; ++k) tags.child(0).append_bytes(fmt::format("t{}", k));
    tags.append_list(i);
    ColumnVector& attrs = *b.columns[8];
    attrs.child(0).append_bytes("k");
    attrs.child(1).append_fixed<int32_t>(i);
    attrs.append_list(1);
    ColumnVector& ids = *b.columns[9];
    ids.child(0).append_fixed<int32_t>(i);
    ids.child(1).append_bytes("v");
    ids.append_list(1);
  }
  b.num_rows = 3;
  return b;
}

void expect_field_ids(const nlohmann::json& node, int* count) {
  if (node.is_array()) {
    for (const auto& n : node) expect_field_ids(n, count);
  } else if (node.is_object()) {
    if (node.value("type", "") == "record") {
      for (const auto& f : node["fields"]) {
        EXPECT_TRUE(f.contains("field-id")) << f.dump();
        ++*count;
        expect_field_ids(f["type"], count);
      }
    } else if (node.value("type", "") == "array") {
      if (node.value("logicalType", "") != "map") {
        EXPECT_TRUE(node.contains("element-id"));
      }
      expect_field_ids(node["items"], count);
    } else if (node.value("type", "") == "map") {
      EXPECT_TRUE(node.contains("key-id") && node.contains("value-id"));
      expect_field_ids(node["values"], count);
    }
  }
}

TEST(AvroDataFile, SchemaFollowsIcebergMapping) {
  Schema schema(0, avro_fields());
  auto j = nlohmann::json::parse(iceberg_avro_schema_json(schema));
  EXPECT_EQ(j["name"], "table");
  const auto& f = j["fields"];
  EXPECT_EQ(f[0]["type"], "long");
  EXPECT_EQ(f[1]["type"], nlohmann::json::parse(R"(["null","string"])"));
  EXPECT_TRUE(f[1]["default"].is_null());
  EXPECT_EQ(f[2]["type"][1],
            nlohmann::json::parse(
                R"({"type":"long","logicalType":"timestamp-micros","adjust-to-utc":true})"));
  EXPECT_EQ(f[3]["type"][1]["type"], "fixed");
  EXPECT_EQ(f[3]["type"][1]["size"], 4);
  EXPECT_EQ(f[3]["type"][1]["logicalType"], "decimal");
  EXPECT_EQ(f[4]["type"][1]["size"], 16);
  EXPECT_EQ(f[4]["type"][1]["logicalType"], "uuid");
  EXPECT_EQ(f[5]["type"][1]["logicalType"], "date");
  EXPECT_EQ(f[6]["type"][1]["name"], "r7");
  EXPECT_EQ(f[6]["type"][1]["fields"][1]["name"], "y_x2Dcoord");
  EXPECT_EQ(f[6]["type"][1]["fields"][1]["iceberg-field-name"], "y-coord");
  EXPECT_EQ(f[7]["type"][1]["element-id"], 11);
  EXPECT_EQ(f[8]["type"][1]["type"], "map");
  EXPECT_EQ(f[9]["type"][1]["logicalType"], "map");
  EXPECT_EQ(f[9]["type"][1]["items"]["name"], "k16_v17");
  int n = 0;
  expect_field_ids(j, &n);
  EXPECT_EQ(n, 14);  // 10 top-level + 2 struct members + 2 of the key/value record
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(AvroDataFile, FloeAndPython3AvroReadItBack) {
  TempDir dir;
  TableMetadata t = make_table(dir.str(), avro_fields(), {}, {{"write.format.default", "avro"}});
  auto w = TableWriter::make(make_local_file_io(), t);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  ASSERT_TRUE((*w)->write(avro_batch()).ok());
  auto files = (*w)->close();
  ASSERT_TRUE(files.ok()) << files.status().to_string();
  ASSERT_EQ(files->size(), 1u);
  const DataFile& f = (*files)[0];
  EXPECT_EQ(f.file_format, "AVRO");
  EXPECT_TRUE(f.file_path.ends_with(".avro"));
  EXPECT_EQ(f.record_count, 3);
  EXPECT_FALSE(f.split_offsets.has_value());
  // Metrics: struct members count nulls, decimal bounds decode.
  EXPECT_EQ(*find_metric(f.null_value_counts, 9), 1);
  EXPECT_EQ(*find_metric(f.null_value_counts, 2), 1);
  EXPECT_EQ(f.lower_bound(4, Type::decimal(9, 2))->as_decimal(), -12345);
  EXPECT_EQ(f.upper_bound(4, Type::decimal(9, 2))->as_decimal(), -12343);
  EXPECT_EQ(f.upper_bound(2, Type::string())->as_bytes(), "beta");

  // floe's container reader
  auto reader = avro::ContainerReader::open(read_text(f.file_path), f.file_path);
  ASSERT_TRUE(reader.ok()) << reader.status().to_string();
  EXPECT_EQ((*reader)->codec(), avro::Codec::kDeflate);
  std::vector<nlohmann::ordered_json> records;
  auto st = avro::for_each_json(**reader, [&](nlohmann::ordered_json& r) {
    records.push_back(r);
    return true;
  });
  ASSERT_TRUE(st.ok()) << st.to_string();
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0]["id"], 100);
  EXPECT_EQ(records[0]["name"], "alpha");
  EXPECT_TRUE(records[2]["name"].is_null());
  EXPECT_EQ(records[1]["ts"], 1718445600000001LL);
  EXPECT_EQ(records[2]["tags"].size(), 2u);
  EXPECT_EQ(records[1]["point"]["x"], 1.5);
  EXPECT_TRUE(records[1]["point"]["y_x2Dcoord"].is_null());
  EXPECT_EQ(records[2]["attrs"]["k"], 2);

  // python3-avro
  int rc = 0;
  std::string out = run_command(
      "/usr/bin/python3 " + oracle_dir() + "/avro_dump.py " + shell_quote(f.file_path) + " 2>&1",
      &rc);
  ASSERT_EQ(rc, 0) << out;
  auto dump = nlohmann::json::parse(out);
  EXPECT_EQ(dump["codec"], "deflate");
  ASSERT_EQ(dump["records"].size(), 3u);
  EXPECT_EQ(dump["records"][0]["name"], "alpha");
  EXPECT_EQ(dump["records"][2]["id"], 102);
  EXPECT_EQ(dump["records"][1]["day"], 19890);
  EXPECT_EQ(dump["records"][0]["ids"][0]["key"], 0);
  EXPECT_EQ(dump["records"][0]["ids"][0]["value"], "v");
  // Decimal -12345 as 4 big-endian bytes.
  EXPECT_EQ(dump["records"][0]["price"], avro::bytes_to_latin1(std::string("\xff\xff\xcf\xc7", 4)));
  int n = 0;
  expect_field_ids(dump["schema"], &n);
  EXPECT_EQ(n, 14);

  // Every record as floe decodes it equals python3-avro's and avsc's.
  nlohmann::json floe_records = nlohmann::json::array();
  for (const auto& r : records) floe_records.push_back(nlohmann::json::parse(r.dump()));
  EXPECT_EQ(dump["records"], floe_records);
  std::string js = run_command(
      "node " + oracle_dir() + "/avro_dump.mjs " + shell_quote(f.file_path) + " 2>&1", &rc);
  ASSERT_EQ(rc, 0) << js;
  auto avsc = nlohmann::json::parse(js);
  EXPECT_EQ(avsc["records"], floe_records);
  EXPECT_EQ(avsc["schema"], dump["schema"]);
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

// The limit counts top-level columns (Java's schema.columns()), and a struct among the first
// 100 keeps metrics for all its leaves.
TEST(WriteMetrics, InferredLimitCountsTopLevelColumns) {
  std::vector<NestedField> fields;
  fields.push_back(
      write_testing::field(1, "st",
                           Type::struct_of({write_testing::field(2, "a", Type::int32()),
                                            write_testing::field(3, "b", Type::int32())})));
  for (int i = 4; i <= 103; ++i) {
    fields.push_back(write_testing::field(i, fmt::format("c{}", i), Type::int32()));
  }
  Schema schema(0, fields);  // 101 top-level columns, 102 leaves
  auto o = parquet::WriterOptions::from_properties({}, schema);
  ASSERT_TRUE(o.ok());
  EXPECT_FALSE(o->metrics.column_modes.count(2));
  EXPECT_FALSE(o->metrics.column_modes.count(3));
  EXPECT_FALSE(o->metrics.column_modes.count(102));
  ASSERT_TRUE(o->metrics.column_modes.count(103));
  EXPECT_EQ(o->metrics.column_modes.at(103).kind, MetricsMode::kNone);

  auto limit = parquet::WriterOptions::from_properties(
      {{"write.metadata.metrics.max-inferred-column-defaults", "1"}}, schema);
  ASSERT_TRUE(limit.ok());
  EXPECT_FALSE(limit->metrics.column_modes.count(2));
  EXPECT_EQ(limit->metrics.column_modes.at(4).kind, MetricsMode::kNone);
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

TEST(TableWriter, RejectsBatchesThatDoNotMatchTheSchema) {
  write_testing::TempDir dir;
  auto w = TableWriter::make(make_local_file_io(),
                             write_testing::make_table(dir.str(), simple_fields()));
  ASSERT_TRUE(w.ok());
  ColumnBatch nulls = simple_batch({"a", "b"});
  nulls.columns[0] = ColumnVector::make(Type::int64());
  nulls.columns[0]->append_null();
  nulls.columns[0]->append_fixed<int64_t>(1);
  Status s = (*w)->write(nulls);
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(s.message().find("required column id"), std::string::npos) << s.to_string();

  ColumnBatch wrong = simple_batch({"a"});
  wrong.columns[3] = ColumnVector::make(Type::int32());
  wrong.columns[3]->append_fixed<int32_t>(1);
  s = (*w)->write(wrong);
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(s.message().find("column day is int"), std::string::npos) << s.to_string();

  auto files = (*w)->close();
  ASSERT_TRUE(files.ok());
  EXPECT_TRUE(files->empty());
  EXPECT_FALSE((*w)->write(simple_batch({"a"})).ok());  // after close
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

std::string footer_value(const std::string& path, const std::string& key) {
  auto r = parquet::ParquetReader::open(make_local_file_io(), path);
  EXPECT_TRUE(r.ok());
  if (!r.ok()) return "";
  for (const auto& kv : (*r)->metadata().key_value_metadata) {
    if (kv.key == key) return kv.value.value_or("");
  }
  return "<absent>";
}

TEST(DataFileWriter, ParquetFooterCarriesTheIcebergSchema) {
  write_testing::TempDir dir;
  auto w = TableWriter::make(make_local_file_io(),
                             write_testing::make_table(dir.str(), simple_fields()));
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->write(simple_batch({"a"})).ok());
  auto files = (*w)->close();
  ASSERT_TRUE(files.ok());
  auto schema = parse_schema_json(footer_value((*files)[0].file_path, "iceberg.schema"));
  ASSERT_TRUE(schema.ok()) << schema.status().to_string();
  EXPECT_TRUE((*schema)->same_schema(Schema(0, simple_fields())));
}

}  // namespace
}  // namespace floe
