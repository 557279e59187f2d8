// Manifests and manifest lists floe writes read back equal in floe, and in two independent
// Avro implementations: python3-avro (Debian, /usr/bin/python3) and avsc (npm), with field ids,
// header metadata and every codec intact.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "floe/format/avro/generic.h"
#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/spec/table_metadata.h"
#include "floe/spec/type.h"
#include "floe/util/decimal.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
using avro::Codec;

// A per-process scratch directory, removed at exit.
fs::path temp_dir() {
  struct Dir {
    fs::path path = fs::temp_directory_path() / fmt::format("floe_manifest_rt_{}", getpid());
    Dir() { fs::create_directories(path); }
    ~Dir() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  };
  static Dir dir;
  return dir.path;
}

std::string run(const std::string& cmd, int* exit_code) {
  FILE* pipe = popen((cmd + " 2>/dev/null").c_str(), "r");
  std::string out;
  std::array<char, 65536> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  *exit_code = WEXITSTATUS(pclose(pipe));
  return out;
}

NestedField column(int32_t id, const char* name, TypePtr type, bool required = false) {
  NestedField f;
  f.id = id;
  f.name = name;
  f.type = std::move(type);
  f.required = required;
  return f;
}

SchemaPtr test_schema() {
  std::vector<NestedField> f = {
      column(1, "id", Type::int64(), true),  column(2, "ts", Type::timestamptz()),
      column(3, "category", Type::string()), column(4, "price", Type::decimal(9, 2)),
      column(5, "score", Type::float64()),   column(6, "u", Type::uuid()),
      column(7, "d", Type::date()),          column(8, "1st", Type::boolean()),
  };
  return std::make_shared<Schema>(0, std::move(f));
}

PartitionSpecPtr test_spec() {
  auto t = [](const char* s) { return *Transform::parse(s); };
  return std::make_shared<PartitionSpec>(
      3, std::vector<PartitionField>{{3, {}, 1000, "category", t("identity")},
                                     {2, {}, 1001, "ts_day", t("day")},
                                     {1, {}, 1002, "id_bucket", t("bucket[16]")},
                                     {4, {}, 1003, "price", t("identity")},
                                     {5, {}, 1004, "score", t("identity")},
                                     {6, {}, 1005, "u", t("identity")},
                                     {8, {}, 1006, "1st", t("identity")}});
}

std::string le(int64_t v, int n) {
  std::string s(n, '\0');
  for (int i = 0; i < n; ++i)
    s[i] = static_cast<char>((static_cast<uint64_t>(v) >> (8 * i)) & 0xff);
  return s;
}

DataFile make_file(int i, int version, FileContent content = FileContent::kData) {
  DataFile f;
  f.content = content;
  f.file_path = fmt::format("s3://bucket/wh/db/t/data/category=c{}/file-{:05d}.parquet", i % 3, i);
  f.file_format = "PARQUET";
  double scores[] = {-0.0, 0.0, std::nan(""), 1.5};
  Uuid u;
  u.bytes[0] = static_cast<uint8_t>(i);
  u.bytes[15] = 0xab;
  f.partition = {
      i % 5 == 4 ? Literal::null(Type::string()) : Literal::string(fmt::format("c{}", i % 3)),
      Literal::date(19889 + i % 7),
      Literal::int32(i % 16),
      Literal::decimal(i % 2 ? -142000 - i : 1420 + i, 9, 2),
      Literal::float64(scores[i % 4]),
      Literal::uuid(u),
      Literal::boolean(i % 2 == 0)};
  f.record_count = 1000 + i;
  f.file_size_in_bytes = 123456 + i;
  for (int c = 1; c <= 8; ++c) {
    f.column_sizes.emplace_back(c, 100 * c + i);
    f.value_counts.emplace_back(c, 1000 + i);
    f.null_value_counts.emplace_back(c, c % 2);
    f.lower_bounds.emplace_back(c, le(i, 8));
    f.upper_bounds.emplace_back(c, le(i + 1000, 8));
  }
  f.nan_value_counts.emplace_back(5, i % 3);
  if (i % 4 == 1) f.key_metadata = std::string("\x00\x01\xff", 3);
  f.split_offsets = std::vector<int64_t>{4, 4 + 1000 * i};
  if (content != FileContent::kPositionDeletes) f.sort_order_id = i % 2;
  if (version >= 2 && content == FileContent::kEqualityDeletes) f.equality_ids = {{1, 3}};
  if (version >= 2 && content == FileContent::kPositionDeletes) {
    f.referenced_data_file = "s3://bucket/wh/db/t/data/x.parquet";
  }
  if (version >= 3 && content == FileContent::kPositionDeletes) {
    f.file_format = "PUFFIN";
    f.content_offset = 4;
    f.content_size_in_bytes = 40 + i;
  }
  if (version >= 3 && content == FileContent::kData && i % 2) f.first_row_id = 5000 + i;
  f.spec_id = 3;
  return f;
}

struct Written {
  std::vector<ManifestFile> manifests;  // as stamped by the list writer
  std::string list_path;
  std::vector<std::vector<ManifestEntry>> entries;  // what was written, per manifest
};

constexpr int64_t kSnapshot = 6387266376565973956;

// Writes a data manifest (ADDED, EXISTING, DELETED entries) and, for v2+, a delete manifest,
// then a manifest list.
Written write_table_files(int version, Codec codec, const std::string& tag) {
  auto io = make_local_file_io();
  Written w;
  ManifestWriterOptions opts;
  opts.format_version = version;
  opts.snapshot_id = kSnapshot;
  opts.codec = codec;
  std::string base = (temp_dir() / tag).string();
  auto writer = *ManifestWriter::make(
      *io, [&](int i) { return fmt::format("{}-m{}.avro", base, i); }, test_schema(), test_spec(),
      opts);
  std::vector<ManifestEntry> data_entries;
  for (int i = 0; i < 40; ++i) {
    ManifestEntry e;
    e.data_file = make_file(i, version);
    if (i % 10 == 3) {
      e.status = ManifestEntryStatus::kExisting;
      e.snapshot_id = 1234;
      e.sequence_number = version >= 2 ? std::optional<int64_t>(2) : std::nullopt;
      e.file_sequence_number = e.sequence_number;
      EXPECT_TRUE(writer->existing(e).ok());
    } else if (i % 10 == 7) {
      e.status = ManifestEntryStatus::kDeleted;
      e.snapshot_id = kSnapshot;
      e.sequence_number = version >= 2 ? std::optional<int64_t>(1) : std::nullopt;
      e.file_sequence_number = e.sequence_number;
      EXPECT_TRUE(writer->deleted(e).ok());
    } else {
      e.status = ManifestEntryStatus::kAdded;
      e.snapshot_id = kSnapshot;
      EXPECT_TRUE(writer->add(e.data_file).ok());
    }
    data_entries.push_back(e);
  }
  auto data = *writer->finish();
  EXPECT_EQ(data.size(), 1u);
  std::vector<ManifestFile> all = data;
  w.entries.push_back(data_entries);
  if (version >= 2) {
    ManifestWriterOptions dopts = opts;
    dopts.content = ManifestContent::kDeletes;
    auto dw = *ManifestWriter::make(
        *io, [&](int i) { return fmt::format("{}-d{}.avro", base, i); }, test_schema(), test_spec(),
        dopts);
    std::vector<ManifestEntry> del_entries;
    for (int i = 0; i < 6; ++i) {
      ManifestEntry e;
      e.status = ManifestEntryStatus::kAdded;
      e.snapshot_id = kSnapshot;
      e.data_file = make_file(
          i, version, i % 2 ? FileContent::kEqualityDeletes : FileContent::kPositionDeletes);
      EXPECT_TRUE(dw->add(e.data_file).ok());
      del_entries.push_back(e);
    }
    auto dels = *dw->finish();
    all.insert(all.end(), dels.begin(), dels.end());
    w.entries.push_back(del_entries);
  }
  ManifestListWriterOptions lo;
  lo.format_version = version;
  lo.snapshot_id = kSnapshot;
  lo.parent_snapshot_id = version == 2 ? std::nullopt : std::optional<int64_t>(1234);
  lo.sequence_number = version >= 2 ? 7 : 0;
  if (version >= 3) lo.first_row_id = 100000;
  lo.codec = codec;
  w.list_path = fmt::format("{}-snap.avro", base);
  auto res = write_manifest_list(*io, w.list_path, all, lo);
  EXPECT_TRUE(res.ok()) << res.status().to_string();
  w.manifests = res->manifests;
  if (version >= 3) {
    // Only the data manifest gets row ids: 100000 + added + existing rows.
    EXPECT_EQ(w.manifests[0].first_row_id, 100000);
    EXPECT_FALSE(w.manifests[1].first_row_id.has_value());
    EXPECT_EQ(res->next_row_id,
              100000 + *w.manifests[0].added_rows_count + *w.manifests[0].existing_rows_count);
  }
  return w;
}

struct Param {
  int version;
  Codec codec;
};

class ManifestRoundTrip : public ::testing::TestWithParam<Param> {};

std::string tag_of(const Param& p) {
  return fmt::format("v{}_{}", p.version, avro::codec_name(p.codec));
}

TEST_P(ManifestRoundTrip, FloeReadsBackWhatItWrote) {
  const Param p = GetParam();
  Written w = write_table_files(p.version, p.codec, tag_of(p) + "_floe");
  auto io = make_local_file_io();
  auto list = read_manifest_list(*io, w.list_path);
  ASSERT_TRUE(list.ok()) << list.status().to_string();
  EXPECT_EQ(list->manifests, w.manifests);
  EXPECT_EQ(list->codec, p.codec);
  EXPECT_EQ(list->metadata.at("snapshot-id"), std::to_string(kSnapshot));
  EXPECT_EQ(list->metadata.at("parent-snapshot-id"), p.version == 2 ? "null" : "1234");
  EXPECT_EQ(list->metadata.at("format-version"), std::to_string(p.version));
  if (p.version >= 2) {
    EXPECT_EQ(list->metadata.at("sequence-number"), "7");
  }
  if (p.version >= 3) {
    EXPECT_EQ(list->metadata.at("first-row-id"), "100000");
  }

  const ManifestFile& dm = list->manifests[0];
  EXPECT_EQ(dm.partition_spec_id, 3);
  EXPECT_EQ(dm.added_files_count, 32);
  EXPECT_EQ(dm.existing_files_count, 4);
  EXPECT_EQ(dm.deleted_files_count, 4);
  EXPECT_EQ(dm.manifest_length, static_cast<int64_t>(fs::file_size(dm.manifest_path)));
  if (p.version >= 2) {
    EXPECT_EQ(dm.sequence_number, 7);
    EXPECT_EQ(dm.min_sequence_number, 2);  // the EXISTING entries' explicit seq
  }
  // Partition summaries: nulls, NaN, and -0.0/+0.0 as bounds.
  ASSERT_TRUE(dm.partitions.has_value());
  ASSERT_EQ(dm.partitions->size(), 7u);
  const auto& cat = (*dm.partitions)[0];
  EXPECT_TRUE(cat.contains_null);
  EXPECT_EQ(cat.lower_bound, "c0");
  EXPECT_EQ(cat.upper_bound, "c2");
  const auto& score = (*dm.partitions)[4];
  EXPECT_FALSE(score.contains_null);
  EXPECT_EQ(score.contains_nan, true);
  EXPECT_EQ(Literal::from_bytes(Type::float64(), *score.lower_bound)->as_double(), 0.0);
  EXPECT_TRUE(std::signbit(Literal::from_bytes(Type::float64(), *score.lower_bound)->as_double()));
  EXPECT_EQ(Literal::from_bytes(Type::float64(), *score.upper_bound)->as_double(), 1.5);
  const auto& price = (*dm.partitions)[3];
  EXPECT_EQ(decimal_from_bytes(*price.lower_bound), -142000 - 39);
  EXPECT_EQ(decimal_from_bytes(*price.upper_bound), 1420 + 38);

  for (size_t m = 0; m < list->manifests.size(); ++m) {
    auto reader = ManifestReader::open(*io, list->manifests[m], nullptr);
    ASSERT_TRUE(reader.ok()) << reader.status().to_string();
    EXPECT_TRUE((*reader)->info().has_iceberg_metadata);
    EXPECT_EQ((*reader)->info().format_version, p.version);
    EXPECT_EQ((*reader)->info().spec_id, 3);
    EXPECT_EQ((*reader)->info().content, list->manifests[m].content);
    auto got = (*reader)->read_all();
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    ASSERT_EQ(got->size(), w.entries[m].size());
    int64_t next_row_id = list->manifests[m].first_row_id.value_or(0);
    for (size_t i = 0; i < got->size(); ++i) {
      ManifestEntry expected = w.entries[m][i];
      // Inheritance: ADDED entries take the manifest's sequence number (v1: everything 0).
      if (expected.status == ManifestEntryStatus::kAdded || p.version == 1) {
        if (!expected.sequence_number) expected.sequence_number = p.version >= 2 ? 7 : 0;
        if (!expected.file_sequence_number) expected.file_sequence_number = p.version >= 2 ? 7 : 0;
      }
      if (p.version >= 3 && list->manifests[m].first_row_id && expected.is_live() &&
          !expected.data_file.first_row_id) {
        expected.data_file.first_row_id = next_row_id;
        next_row_id += expected.data_file.record_count;
      }
      EXPECT_EQ((*got)[i], expected) << "manifest " << m << " entry " << i;
    }
  }
}

nlohmann::json floe_view(const std::string& path) {
  auto io = make_local_file_io();
  auto reader = *avro::ContainerReader::open(*io->read_file(path), path);
  nlohmann::json out;
  out["codec"] = avro::codec_name(reader->codec());
  out["metadata"] = nlohmann::json::object();
  for (const auto& [k, v] : reader->metadata()) out["metadata"][k] = avro::bytes_to_latin1(v);
  out["schema"] = nlohmann::json::parse(*reader->meta("avro.schema"));
  out["records"] = nlohmann::json::array();
  auto st = avro::for_each_json(*reader, [&](nlohmann::ordered_json& rec) {
    out["records"].push_back(nlohmann::json::parse(rec.dump()));
    return true;
  });
  EXPECT_TRUE(st.ok()) << st.to_string();
  return out;
}

void expect_oracle_agrees(const std::string& oracle, const std::string& cmd,
                          const std::string& path) {
  SCOPED_TRACE(oracle + " on " + path);
  int code = 0;
  std::string out = run(cmd + " '" + path + "'", &code);
  ASSERT_EQ(code, 0) << oracle << " failed: " << out;
  auto got = nlohmann::json::parse(out, nullptr, false);
  ASSERT_FALSE(got.is_discarded()) << out.substr(0, 500);
  nlohmann::json want = floe_view(path);
  EXPECT_EQ(got["codec"], want["codec"]);
  EXPECT_EQ(got["metadata"], want["metadata"]);
  EXPECT_EQ(got["schema"], want["schema"]);  // field ids and every attribute
  ASSERT_EQ(got["records"].size(), want["records"].size());
  for (size_t i = 0; i < want["records"].size(); ++i) {
    EXPECT_EQ(got["records"][i], want["records"][i]) << "record " << i;
  }
}

const std::string kPython = "/usr/bin/python3 " FLOE_SOURCE_DIR "/tests/oracle/avro_dump.py";
const std::string kNode = "node " FLOE_SOURCE_DIR "/tests/oracle/avro_dump.mjs";

TEST_P(ManifestRoundTrip, Python3AvroReadsWhatFloeWrote) {
  const Param p = GetParam();
  Written w = write_table_files(p.version, p.codec, tag_of(p) + "_py");
  expect_oracle_agrees("python3-avro", kPython, w.list_path);
  for (const auto& m : w.manifests) expect_oracle_agrees("python3-avro", kPython, m.manifest_path);
}

TEST_P(ManifestRoundTrip, AvscReadsWhatFloeWrote) {
  const Param p = GetParam();
  Written w = write_table_files(p.version, p.codec, tag_of(p) + "_js");
  expect_oracle_agrees("avsc", kNode, w.list_path);
  for (const auto& m : w.manifests) expect_oracle_agrees("avsc", kNode, m.manifest_path);
}

std::vector<Param> all_params() {
  std::vector<Param> out;
  for (int v : {1, 2, 3}) {
    for (Codec c : {Codec::kNull, Codec::kDeflate, Codec::kSnappy, Codec::kZstd}) {
      out.push_back({v, c});
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(VersionsAndCodecs, ManifestRoundTrip, ::testing::ValuesIn(all_params()),
                         [](const auto& info) { return tag_of(info.param); });

TEST(ManifestWriterTest, JavaSchemaShapeAndHeaderKeys) {
  Written w = write_table_files(2, Codec::kDeflate, "shape");
  nlohmann::json view = floe_view(w.manifests[0].manifest_path);
  const auto& meta = view["metadata"];
  EXPECT_EQ(meta["format-version"], "2");
  EXPECT_EQ(meta["partition-spec-id"], "3");
  EXPECT_EQ(meta["content"], "data");
  EXPECT_EQ(meta["avro.codec"], "deflate");
  auto spec_fields = nlohmann::json::parse(meta["partition-spec"].get<std::string>());
  ASSERT_TRUE(spec_fields.is_array());
  EXPECT_EQ(spec_fields[1]["transform"], "day");
  EXPECT_EQ(spec_fields[1]["field-id"], 1001);
  auto schema = nlohmann::json::parse(meta["schema"].get<std::string>());
  EXPECT_EQ(schema["fields"][0]["name"], "id");
  const auto& s = view["schema"];
  EXPECT_EQ(s["name"], "manifest_entry");
  std::vector<std::string> names;
  for (const auto& f : s["fields"]) names.push_back(f["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"status", "snapshot_id", "sequence_number",
                                             "file_sequence_number", "data_file"}));
  const auto& df = s["fields"][4]["type"];
  EXPECT_EQ(df["name"], "r2");
  EXPECT_EQ(s["fields"][4]["field-id"], 2);
  EXPECT_EQ(df["fields"][0]["name"], "content");
  EXPECT_EQ(df["fields"][0]["field-id"], 134);
  const auto& part = df["fields"][3]["type"];
  EXPECT_EQ(part["name"], "r102");
  EXPECT_EQ(part["fields"][1]["field-id"], 1001);
  EXPECT_EQ(part["fields"][1]["type"][1]["logicalType"], "date");
  EXPECT_EQ(part["fields"][3]["type"][1]["logicalType"], "decimal");
  EXPECT_EQ(part["fields"][3]["type"][1]["size"], 4);  // decimal(9, 2)
  EXPECT_EQ(part["fields"][5]["type"][1]["logicalType"], "uuid");
  // "1st" is not a valid Avro name: sanitized, original kept.
  EXPECT_EQ(part["fields"][6]["name"], "_1st");
  EXPECT_EQ(part["fields"][6]["iceberg-field-name"], "1st");
  const auto& sizes = df["fields"][6];
  EXPECT_EQ(sizes["name"], "column_sizes");
  EXPECT_EQ(sizes["field-id"], 108);
  EXPECT_EQ(sizes["type"][1]["logicalType"], "map");
  EXPECT_EQ(sizes["type"][1]["items"]["name"], "k117_v118");
  EXPECT_EQ(sizes["type"][1]["items"]["fields"][0]["field-id"], 117);

  nlohmann::json lview = floe_view(w.list_path);
  const auto& ls = lview["schema"];
  EXPECT_EQ(ls["name"], "manifest_file");
  std::vector<int> ids;
  for (const auto& f : ls["fields"]) ids.push_back(f["field-id"]);
  EXPECT_EQ(ids, (std::vector<int>{500, 501, 502, 517, 515, 516, 503, 504, 505, 506, 512, 513, 514,
                                   507, 519}));
  EXPECT_EQ(ls["fields"][13]["type"][1]["items"]["name"], "r508");
  EXPECT_EQ(ls["fields"][13]["type"][1]["element-id"], 508);
}

TEST(ManifestWriterTest, RollsAtTargetSize) {
  auto io = make_local_file_io();
  ManifestWriterOptions opts;
  opts.snapshot_id = 1;
  opts.target_size_bytes = 16 * 1024;
  std::string base = (temp_dir() / "roll").string();
  auto writer = *ManifestWriter::make(
      *io, [&](int i) { return fmt::format("{}-m{}.avro", base, i); }, test_schema(), test_spec(),
      opts);
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(writer->add(make_file(i, 2)).ok());
  auto manifests = *writer->finish();
  EXPECT_GT(manifests.size(), 3u);
  int64_t total = 0;
  for (const auto& m : manifests) {
    total += *m.added_files_count;
    auto entries = read_manifest(*io, m, nullptr);
    ASSERT_TRUE(entries.ok());
    EXPECT_EQ(static_cast<int64_t>(entries->size()), *m.added_files_count);
    EXPECT_LT(m.manifest_length, 2 * opts.target_size_bytes);
  }
  EXPECT_EQ(total, 500);
}

TEST(ManifestReaderTest, EmptyBoundsReadBackEmpty) {
  // A string column whose minimum is "" has an empty lower bound; entries after the first reuse
  // the previous entry's storage, which for an empty bound must copy nothing (the fuzzer found
  // a memcpy from a null pointer there, reported by UBSan under `make sanitize`).
  auto io = make_local_file_io();
  ManifestWriterOptions opts;
  opts.snapshot_id = 1;
  std::string base = (temp_dir() / "empty-bounds").string();
  auto writer = *ManifestWriter::make(
      *io, [&](int i) { return fmt::format("{}-m{}.avro", base, i); }, test_schema(), test_spec(),
      opts);
  for (int i = 0; i < 4; ++i) {
    DataFile f = make_file(i, 2);
    f.lower_bounds[2].second = i == 2 ? "x" : "";
    f.upper_bounds[2].second = "";
    ASSERT_TRUE(writer->add(f).ok());
  }
  auto manifests = *writer->finish();
  ASSERT_EQ(manifests.size(), 1u);
  auto entries = read_manifest(*io, manifests[0], nullptr);
  ASSERT_TRUE(entries.ok()) << entries.status().to_string();
  ASSERT_EQ(entries->size(), 4u);
  for (int i = 0; i < 4; ++i) {
    const DataFile& f = (*entries)[static_cast<size_t>(i)].data_file;
    EXPECT_EQ(*find_metric(f.lower_bounds, 3), i == 2 ? "x" : "") << i;
    EXPECT_EQ(*find_metric(f.upper_bounds, 3), "") << i;
    EXPECT_EQ(*find_metric(f.lower_bounds, 4), le(i, 8)) << i;
  }
}

TEST(ManifestReaderTest, ManifestWithoutKeyValueMetadataFallsBackToTable) {
  // Re-encode a floe manifest without Iceberg metadata (as avro-tools does), then read it with
  // the table's specs and the list entry's spec id and content.
  Written w = write_table_files(2, Codec::kNull, "nometa");
  auto io = make_local_file_io();
  const ManifestFile& dm = w.manifests[1];  // the delete manifest
  auto original = *avro::ContainerReader::open(*io->read_file(dm.manifest_path), dm.manifest_path);
  avro::ContainerWriterOptions null_codec;
  null_codec.codec = Codec::kNull;
  avro::ContainerWriter rewritten(original->schema_json(), {}, null_codec);
  while (*original->next_block()) {
    avro::Decoder& d = original->decoder();
    for (int64_t i = 0; i < original->block_count(); ++i) {
      size_t start = d.offset();
      avro::skip_datum(original->schema().root(), d);
      rewritten.encoder().buffer().append(d.slice(start, d.offset()));
      ASSERT_TRUE(rewritten.end_object().ok());
    }
  }
  std::string path = (temp_dir() / "nometa-m0.avro").string();
  ASSERT_TRUE(io->write_file(path, *rewritten.finish()).ok());

  TableMetadata table;
  table.format_version = 2;
  table.schemas = {test_schema()};
  table.current_schema_id = 0;
  table.specs = {PartitionSpec::unpartitioned(0), test_spec()};
  ManifestFile mf = dm;
  mf.manifest_path = path;
  auto reader = ManifestReader::open(*io, mf, &table);
  ASSERT_TRUE(reader.ok()) << reader.status().to_string();
  EXPECT_FALSE((*reader)->info().has_iceberg_metadata);
  EXPECT_EQ((*reader)->info().spec_id, 3);
  EXPECT_EQ((*reader)->info().content, ManifestContent::kDeletes);
  auto entries = (*reader)->read_all();
  ASSERT_TRUE(entries.ok()) << entries.status().to_string();
  ASSERT_EQ(entries->size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ((*entries)[i].data_file.partition, w.entries[1][i].data_file.partition);
    EXPECT_EQ((*entries)[i].data_file.partition[1].type()->id(), TypeId::kDate);
    EXPECT_EQ((*entries)[i].sequence_number, 7);
  }
}

}  // namespace
}  // namespace floe
