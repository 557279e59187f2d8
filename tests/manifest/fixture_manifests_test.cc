// Every manifest list and manifest of the fixture tables (FLOE_FIXTURES_DIR) reads, with the
// values the fixtures' README quotes (iceberg-cpp, iceberg-rust and iceberg-go lone files; full
// tables through their metadata with a relocating FileIO).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "floe/format/avro/container.h"
#include "floe/io/relocating_file_io.h"
#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/spec/metadata_file.h"
#include "floe/spec/type.h"
#include "floe/util/decimal.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
const fs::path kFixtures = FLOE_FIXTURES_DIR;

ManifestList list_of(const fs::path& p) {
  auto io = make_local_file_io();
  auto l = read_manifest_list(*io, p.string());
  EXPECT_TRUE(l.ok()) << p << ": " << l.status().to_string();
  return l.ok() ? std::move(l).value() : ManifestList{};
}

// Reads a manifest on its own (no table, no inheritance).
std::vector<ManifestEntry> entries_of(const fs::path& p, ManifestFile mf = {},
                                      const TableMetadata* table = nullptr) {
  auto io = make_local_file_io();
  mf.manifest_path = p.string();
  auto e = read_manifest(*io, mf, table);
  EXPECT_TRUE(e.ok()) << p << ": " << e.status().to_string();
  return e.ok() ? std::move(e).value() : std::vector<ManifestEntry>{};
}

ManifestFile lone() {
  ManifestFile mf;
  mf.sequence_number = kUnassignedSequenceNumber;  // nothing to inherit
  return mf;
}

int64_t long_bound(const std::string& b) {
  return Literal::from_bytes(Type::int64(), b)->as_int64();
}

TEST(IcebergCppManifests, V1PartitionedManifest) {
  auto entries = entries_of(
      kFixtures / "iceberg-cpp/manifests/56357cd7-391f-4df8-aa24-e7e667da8870-m4.avro", lone());
  ASSERT_EQ(entries.size(), 4u);
  const int32_t hours[] = {447696, 473976, 465192, 447672};
  const int64_t f1[] = {1234, 1234, 123, 123};
  const int64_t f2[] = {5678, 5678, 456, 456};
  const int64_t f3[] = {4834, 4835, 3618, 3617};
  const int64_t f4[] = {1611706223000000, 1706314223000000, 1674691823000000, 1611619823000000};
  for (size_t i = 0; i < 4; ++i) {
    const auto& e = entries[i];
    const DataFile& f = e.data_file;
    EXPECT_EQ(e.status, ManifestEntryStatus::kAdded);
    EXPECT_EQ(e.snapshot_id, 6387266376565973956);
    EXPECT_EQ(f.file_format, "PARQUET");
    EXPECT_EQ(f.record_count, 1);
    EXPECT_EQ(f.file_size_in_bytes, 1375);
    EXPECT_EQ(f.column_sizes, (ColumnMetrics<int64_t>{{1, 49}, {2, 49}, {3, 49}, {4, 49}}));
    EXPECT_EQ(f.value_counts, (ColumnMetrics<int64_t>{{1, 1}, {2, 1}, {3, 1}, {4, 1}}));
    EXPECT_EQ(f.null_value_counts, (ColumnMetrics<int64_t>{{1, 0}, {2, 0}, {3, 0}, {4, 0}}));
    EXPECT_EQ(f.split_offsets, std::vector<int64_t>{4});
    EXPECT_EQ(f.sort_order_id, 0);
    EXPECT_NE(f.file_path.find("/tmp/db/db/iceberg_test/data/order_ts_hour="), std::string::npos);
    ASSERT_EQ(f.partition.size(), 1u);
    EXPECT_EQ(f.partition[0].as_int32(), hours[i]);
    EXPECT_EQ(f.partition[0].type()->id(), TypeId::kInt);  // hour transform result
    EXPECT_EQ(long_bound(*find_metric(f.lower_bounds, 1)), f1[i]);
    EXPECT_EQ(long_bound(*find_metric(f.upper_bounds, 1)), f1[i]);
    EXPECT_EQ(long_bound(*find_metric(f.lower_bounds, 2)), f2[i]);
    EXPECT_EQ(decimal_from_bytes(*find_metric(f.lower_bounds, 3)), f3[i]);
    EXPECT_EQ(decimal_from_bytes(*find_metric(f.upper_bounds, 3)), f3[i]);
    EXPECT_EQ(f.lower_bound(4, Type::timestamp())->as_int64(), f4[i]);
    EXPECT_EQ(f.upper_bound(4, Type::timestamp())->as_int64(), f4[i]);
  }
  // Paths name the hour partition directories in README order.
  EXPECT_NE(entries[0].data_file.file_path.find("order_ts_hour=2021-01-27-00"), std::string::npos);
  EXPECT_NE(entries[1].data_file.file_path.find("order_ts_hour=2024-01-27-00"), std::string::npos);
}

TEST(IcebergCppManifests, V2UnpartitionedManifestInheritsFromItsListEntry) {
  fs::path p = kFixtures / "iceberg-cpp/manifests/2ddf1bc9-830b-4015-aced-c060df36f150-m0.avro";
  auto alone = entries_of(p, lone());
  ASSERT_EQ(alone.size(), 1u);
  const auto& e = alone[0];
  EXPECT_EQ(e.status, ManifestEntryStatus::kAdded);
  EXPECT_EQ(e.snapshot_id, 679879563479918846);
  EXPECT_FALSE(e.sequence_number.has_value());
  EXPECT_FALSE(e.file_sequence_number.has_value());
  const DataFile& f = e.data_file;
  EXPECT_EQ(f.file_path,
            "/tmp/db/db/v2_manifest_non_partitioned/data/"
            "00000-0-b0f98903-6d21-45fd-9e0b-afbd4963e365-0-00001.parquet");
  EXPECT_EQ(f.record_count, 4);
  EXPECT_EQ(f.file_size_in_bytes, 1344);
  EXPECT_EQ(f.column_sizes, (ColumnMetrics<int64_t>{{1, 56}, {2, 73}, {3, 66}, {4, 67}}));
  EXPECT_EQ(f.value_counts, (ColumnMetrics<int64_t>{{1, 4}, {2, 4}, {3, 4}, {4, 4}}));
  EXPECT_EQ(f.null_value_counts, (ColumnMetrics<int64_t>{{1, 0}, {2, 0}, {3, 0}, {4, 0}}));
  EXPECT_EQ(f.nan_value_counts, (ColumnMetrics<int64_t>{{4, 0}}));
  EXPECT_EQ(f.lower_bound(1, Type::int64())->as_int64(), 1);
  EXPECT_EQ(*find_metric(f.lower_bounds, 2), "record_four");
  EXPECT_EQ(*find_metric(f.lower_bounds, 3), "data_content_1");
  EXPECT_EQ(f.lower_bound(4, Type::float64())->as_double(), 123.45);
  EXPECT_EQ(f.upper_bound(1, Type::int64())->as_int64(), 4);
  EXPECT_EQ(*find_metric(f.upper_bounds, 2), "record_two");
  EXPECT_EQ(*find_metric(f.upper_bounds, 3), "data_content_4");
  EXPECT_EQ(f.upper_bound(4, Type::float64())->as_double(), 456.78);
  EXPECT_EQ(f.split_offsets, std::vector<int64_t>{4});
  EXPECT_EQ(f.sort_order_id, 0);
  EXPECT_TRUE(f.partition.empty());

  ManifestFile mf;
  mf.sequence_number = 15;
  mf.partition_spec_id = 12;
  auto inherited = entries_of(p, mf);
  ASSERT_EQ(inherited.size(), 1u);
  EXPECT_EQ(inherited[0].sequence_number, 15);
  EXPECT_EQ(inherited[0].file_sequence_number, 15);
  EXPECT_EQ(inherited[0].snapshot_id, 679879563479918846);  // explicit value kept
}

TEST(IcebergCppManifests, V1ManifestLists) {
  {
    auto l = list_of(kFixtures /
                     "iceberg-cpp/manifests/"
                     "snap-7532614258660258098-1-eafd2972-f58e-4185-9237-6378f564787e.avro");
    ASSERT_EQ(l.manifests.size(), 2u);
    const auto& a = l.manifests[0];
    EXPECT_EQ(a.manifest_path,
              "iceberg-warehouse/db/v1_partition_test/metadata/"
              "eafd2972-f58e-4185-9237-6378f564787e-m1.avro");
    EXPECT_EQ(a.manifest_length, 6185);
    EXPECT_EQ(a.partition_spec_id, 0);
    EXPECT_EQ(a.added_snapshot_id, 7532614258660258098);
    EXPECT_EQ(a.added_files_count, 4);
    EXPECT_EQ(a.added_rows_count, 6);
    EXPECT_EQ(a.sequence_number, 0);
    ASSERT_TRUE(a.partitions.has_value());
    ASSERT_EQ(a.partitions->size(), 1u);
    EXPECT_EQ((*a.partitions)[0].lower_bound, "2022-02-22");
    EXPECT_EQ((*a.partitions)[0].upper_bound, "2022-2-23");
    const auto& b = l.manifests[1];
    EXPECT_NE(b.manifest_path.find("-m0.avro"), std::string::npos);
    EXPECT_EQ(b.manifest_length, 6113);
    EXPECT_EQ(b.deleted_files_count, 2);
    EXPECT_EQ(b.deleted_rows_count, 6);
    EXPECT_EQ((*b.partitions)[0].lower_bound, "2022-2-22");
    EXPECT_EQ((*b.partitions)[0].upper_bound, "2022-2-23");
    EXPECT_EQ(l.metadata.at("format-version"), "1");
  }
  {
    auto l = list_of(kFixtures /
                     "iceberg-cpp/manifests/"
                     "snap-4134160420377642835-1-aeffe099-3bac-4011-bc17-5875210d8dc0.avro");
    ASSERT_EQ(l.manifests.size(), 2u);
    EXPECT_EQ(
        l.manifests[0].manifest_path,
        "iceberg-warehouse/db/v1_type_test/metadata/aeffe099-3bac-4011-bc17-5875210d8dc0-m1.avro");
    EXPECT_EQ(l.manifests[0].manifest_length, 6498);
    EXPECT_EQ(l.manifests[0].added_files_count, 1);
    EXPECT_EQ(l.manifests[0].added_rows_count, 2);
    EXPECT_EQ(l.manifests[1].manifest_length, 6513);
    EXPECT_EQ(l.manifests[1].deleted_files_count, 1);
    EXPECT_EQ(l.manifests[1].deleted_rows_count, 3);
    EXPECT_TRUE(!l.manifests[0].partitions || l.manifests[0].partitions->empty());
  }
  {
    auto l = list_of(kFixtures /
                     "iceberg-cpp/manifests/"
                     "snap-7522296285847100621-1-5d690750-8fb4-4cd1-8ae7-85c7b39abe14.avro");
    ASSERT_EQ(l.manifests.size(), 2u);
    const auto& a = l.manifests[0];
    EXPECT_NE(a.manifest_path.find("-m0.avro"), std::string::npos);
    EXPECT_EQ(a.manifest_length, 6402);
    EXPECT_EQ(a.existing_files_count, 3);
    EXPECT_EQ(a.existing_rows_count, 4);
    EXPECT_EQ(a.deleted_files_count, 1);
    EXPECT_EQ(a.deleted_rows_count, 2);
    ASSERT_EQ(a.partitions->size(), 2u);
    EXPECT_EQ((*a.partitions)[0].lower_bound, "2022-2-22");
    EXPECT_EQ((*a.partitions)[0].upper_bound, "2022-2-24");
    EXPECT_EQ(long_bound(*(*a.partitions)[1].lower_bound), 2);
    EXPECT_EQ(long_bound(*(*a.partitions)[1].upper_bound), 5);
    const auto& b = l.manifests[1];
    EXPECT_EQ(b.manifest_length, 6318);
    EXPECT_EQ(b.existing_files_count, 1);
    EXPECT_EQ(b.existing_rows_count, 1);
    EXPECT_EQ(b.deleted_files_count, 1);
    EXPECT_EQ(b.deleted_rows_count, 1);
    EXPECT_EQ((*b.partitions)[0].upper_bound, "2022-2-23");
    EXPECT_EQ(long_bound(*(*b.partitions)[1].upper_bound), 4);
  }
}

TEST(IcebergCppManifests, V2ManifestLists) {
  {
    auto l = list_of(kFixtures /
                     "iceberg-cpp/manifests/"
                     "snap-7412193043800610213-1-2bccd69e-d642-4816-bba0-261cd9bd0d93.avro");
    ASSERT_EQ(l.manifests.size(), 4u);
    const char* prefixes[] = {"2bccd69e-", "9b6ffacd-", "2541e6b5-", "3118c801-"};
    const int64_t lengths[] = {7433, 7431, 7433, 7431};
    const int64_t snaps[] = {7412193043800610213, 5485972788975780755, 1679468743751242972,
                             1579605567338877265};
    const int32_t bounds[] = {473976, 465192, 447696, 447672};
    for (size_t i = 0; i < 4; ++i) {
      const auto& m = l.manifests[i];
      EXPECT_EQ(
          m.manifest_path.rfind(std::string("/tmp/db/db/iceberg_test/metadata/") + prefixes[i], 0),
          0u)
          << m.manifest_path;
      EXPECT_EQ(m.manifest_length, lengths[i]);
      EXPECT_EQ(m.sequence_number, 4 - static_cast<int64_t>(i));
      EXPECT_EQ(m.min_sequence_number, 4 - static_cast<int64_t>(i));
      EXPECT_EQ(m.added_snapshot_id, snaps[i]);
      EXPECT_EQ(m.added_files_count, 1);
      EXPECT_EQ(m.added_rows_count, 1);
      EXPECT_EQ(m.content, ManifestContent::kData);
      ASSERT_EQ(m.partitions->size(), 1u);
      auto lo = Literal::from_bytes(Type::int32(), *(*m.partitions)[0].lower_bound);
      EXPECT_EQ(lo->as_int32(), bounds[i]);
      EXPECT_EQ(Literal::from_bytes(Type::int32(), *(*m.partitions)[0].upper_bound)->as_int32(),
                bounds[i]);
    }
  }
  {
    auto l = list_of(kFixtures /
                     "iceberg-cpp/manifests/"
                     "snap-251167482216575399-1-ccb6dbcb-0611-48da-be68-bd506ea63188.avro");
    ASSERT_EQ(l.manifests.size(), 4u);
    const char* prefixes[] = {"ccb6dbcb-", "b89a10c9-", "a74d20fa-", "ae7d5fce-"};
    const int64_t lengths[] = {7169, 7170, 7169, 7170};
    const int64_t snaps[] = {251167482216575399, 4248697313956014690, 281757490425433194,
                             5521202581490753283};
    for (size_t i = 0; i < 4; ++i) {
      const auto& m = l.manifests[i];
      EXPECT_EQ(m.manifest_path.rfind(
                    std::string("/tmp/db/db/v2_non_partitioned_test/metadata/") + prefixes[i], 0),
                0u);
      EXPECT_EQ(m.manifest_length, lengths[i]);
      EXPECT_EQ(m.sequence_number, 4 - static_cast<int64_t>(i));
      EXPECT_EQ(m.added_snapshot_id, snaps[i]);
      EXPECT_EQ(m.added_files_count, 1);
      EXPECT_EQ(m.added_rows_count, 1);
    }
  }
}

TEST(IcebergRustManifestLists, LegacyAndCurrentFieldNames) {
  for (const char* name : {"manifest-list-v2-1.avro", "manifest-list-v2-2.avro"}) {
    auto l = list_of(kFixtures / "iceberg-rust/manifests_lists" / name);
    ASSERT_EQ(l.manifests.size(), 1u) << name;
    const auto& m = l.manifests[0];
    EXPECT_EQ(m.manifest_path.rfind("iceberg-warehouse", 0), 0u);
    EXPECT_NE(m.manifest_path.find("/people/metadata/"), std::string::npos);
    EXPECT_EQ(m.partition_spec_id, 0);
    EXPECT_EQ(m.content, ManifestContent::kData);
    EXPECT_EQ(m.sequence_number, 1);
    EXPECT_EQ(m.added_rows_count, 1);
    EXPECT_EQ(m.added_files_count, 1) << name;  // legacy added_data_files_count in v2-1
    if (std::string(name) == "manifest-list-v2-1.avro") {
      EXPECT_EQ(m.manifest_length, 6658);
      EXPECT_EQ(m.added_snapshot_id, 6653143792592159268);
    } else {
      EXPECT_EQ(m.manifest_length, 6660);
      EXPECT_EQ(m.added_snapshot_id, 3083072880052097243);
    }
  }
}

TEST(IcebergRustManifestLists, EncryptedListIsAClearError) {
  auto io = make_local_file_io();
  auto l = read_manifest_list(
      *io, (kFixtures / "iceberg-rust/manifests_lists/manifest-list-v3-encrypted.avro").string());
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.status().message().find("manifest-list-v3-encrypted.avro"), std::string::npos);
  EXPECT_NE(l.status().message().find("magic"), std::string::npos);
}

TEST(IcebergGoManifestLists, DuckDbV3ListWithoutMetadata) {
  auto l = list_of(kFixtures / "iceberg-go/misc/duckdb_v3_manifest_list.avro");
  ASSERT_EQ(l.manifests.size(), 2u);
  const auto& a = l.manifests[0];
  EXPECT_EQ(a.manifest_path.rfind("s3://warehouse/wh/db/logs/metadata/d0a470ec-", 0), 0u);
  EXPECT_EQ(a.content, ManifestContent::kData);
  EXPECT_EQ(a.sequence_number, 1);
  EXPECT_EQ(a.added_rows_count, 100);
  EXPECT_EQ(a.first_row_id, 0);
  const auto& b = l.manifests[1];
  EXPECT_EQ(b.manifest_path.rfind("s3://warehouse/wh/db/logs/metadata/66408406-", 0), 0u);
  EXPECT_EQ(b.content, ManifestContent::kDeletes);
  EXPECT_EQ(b.sequence_number, 2);
  EXPECT_EQ(b.added_rows_count, 10);
  EXPECT_EQ(b.first_row_id, 100);
  EXPECT_EQ(l.codec, avro::Codec::kNull);
}

// Every *.avro under the fixtures that is a manifest list or a manifest reads on its own.
TEST(AllFixtureAvroFiles, EveryManifestAndListReads) {
  int lists = 0, manifests = 0, data = 0, entries = 0;
  std::vector<std::string> failures;
  auto io = make_local_file_io();
  for (const auto& de : fs::recursive_directory_iterator(kFixtures)) {
    if (!de.is_regular_file() || de.path().extension() != ".avro") continue;
    std::string p = de.path().string();
    if (p.find("manifest-list-v3-encrypted") != std::string::npos) continue;  // tested above
    auto bytes = io->read_file(p);
    ASSERT_TRUE(bytes.ok());
    auto r = avro::ContainerReader::open(*bytes, p);
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    const auto& root = (*r)->schema().root();
    if (root.field("manifest_path")) {
      auto l = parse_manifest_list(*bytes, p);
      if (!l.ok()) failures.push_back(l.status().to_string());
      ++lists;
    } else if (root.field("data_file")) {
      ManifestFile mf = lone();
      mf.manifest_path = p;
      auto reader = ManifestReader::open_bytes(*bytes, mf, nullptr);
      if (!reader.ok()) {
        failures.push_back(reader.status().to_string());
        continue;
      }
      auto st = (*reader)->for_each([&](const ManifestEntry&) {
        ++entries;
        return true;
      });
      if (!st.ok()) failures.push_back(st.to_string());
      ++manifests;
    } else {
      ++data;  // an Avro data file
    }
  }
  EXPECT_TRUE(failures.empty()) << failures.size() << " failures, first: " << failures[0];
  EXPECT_GT(lists, 150);
  EXPECT_GT(manifests, 200);
  EXPECT_GT(entries, manifests);
  RecordProperty("lists", lists);
  RecordProperty("manifests", manifests);
  std::cout << "read " << lists << " manifest lists, " << manifests << " manifests (" << entries
            << " entries), skipped " << data << " Avro data files\n";
}

// Full tables: every snapshot's manifests read through the table's metadata (relocated paths,
// inheritance, fallback to the table's specs for manifests without key-value metadata).
struct TableRead {
  TableMetadata metadata;
  FileIOPtr io;
  std::vector<std::pair<ManifestFile, std::vector<ManifestEntry>>> current;  // current snapshot
  int manifests = 0;
  int without_metadata = 0;
};

TableRead read_table(const fs::path& dir, const std::string& metadata_file = "") {
  TableRead t;
  auto local = make_local_file_io();
  std::string path =
      metadata_file.empty() ? dir.string() : (dir / "metadata" / metadata_file).string();
  auto file = find_current_metadata_file(*local, path);
  EXPECT_TRUE(file.ok()) << dir << ": " << file.status().to_string();
  if (!file.ok()) return t;
  auto md = read_table_metadata(*local, file->path);
  EXPECT_TRUE(md.ok()) << md.status().to_string();
  if (!md.ok()) return t;
  t.metadata = std::move(md).value();
  t.io = make_relocating_file_io(
      local, {.from_location = t.metadata.location, .to_directory = dir.string()});
  for (const auto& snap : t.metadata.snapshots) {
    bool current = t.metadata.current_snapshot_id == snap->snapshot_id;
    auto mfs = snapshot_manifests(*t.io, t.metadata, *snap);
    // equality_deletes_mytable lacks the manifest list of one older snapshot.
    if (!current && !mfs.ok() && mfs.status().kind() == ErrorKind::kNotFound) continue;
    EXPECT_TRUE(mfs.ok()) << dir << " snapshot " << snap->snapshot_id << ": "
                          << mfs.status().to_string();
    if (!mfs.ok()) continue;
    for (const auto& mf : *mfs) {
      auto reader = ManifestReader::open(*t.io, mf, &t.metadata);
      EXPECT_TRUE(reader.ok()) << dir << ": " << reader.status().to_string();
      if (!reader.ok()) continue;
      ++t.manifests;
      if (!(*reader)->info().has_iceberg_metadata) ++t.without_metadata;
      auto entries = (*reader)->read_all();
      EXPECT_TRUE(entries.ok()) << dir << ": " << entries.status().to_string();
      if (current && entries.ok()) t.current.emplace_back(mf, std::move(entries).value());
    }
  }
  return t;
}

int64_t live_records(const TableRead& t, FileContent content = FileContent::kData) {
  int64_t n = 0;
  for (const auto& [mf, entries] : t.current) {
    for (const auto& e : entries) {
      if (e.is_live() && e.data_file.content == content) n += e.data_file.record_count;
    }
  }
  return n;
}

TEST(FixtureTables, EveryTableSnapshotManifestReads) {
  int tables = 0, manifests = 0, without = 0;
  for (const char* source : {"dremio", "duckdb-iceberg", "glaredb", "impala"}) {
    for (const auto& de : fs::recursive_directory_iterator(kFixtures / source)) {
      if (!de.is_directory() || de.path().filename() != "metadata") continue;
      fs::path table = de.path().parent_path();
      bool has_json = false;
      for (const auto& f : fs::directory_iterator(de.path())) {
        has_json |= f.path().string().find(".metadata.json") != std::string::npos;
      }
      if (!has_json) continue;
      SCOPED_TRACE(table.string());
      TableRead t = read_table(table);
      ++tables;
      manifests += t.manifests;
      without += t.without_metadata;
    }
  }
  EXPECT_GT(tables, 100);
  EXPECT_GT(manifests, 200);
  EXPECT_GT(without, 0);  // re-encoded manifests were read through the table's specs
  std::cout << tables << " tables, " << manifests << " manifests read (" << without
            << " without Iceberg key-value metadata)\n";
}

TEST(FixtureTables, ComputedLiveRowCountsFromEntries) {
  // Tables without deletes: live data records in the current snapshot = README computed count.
  struct Case {
    const char* dir;
    int64_t rows;
  };
  for (const Case& c :
       {Case{"duckdb-iceberg/lineitem_iceberg", 51793},
        Case{"duckdb-iceberg/lineitem_iceberg_gz", 111968},
        Case{"duckdb-iceberg/large_partitioned_table", 267},
        Case{"duckdb-iceberg/name_mapping", 10000}, Case{"glaredb/v2_lineitem_partitioned", 1000},
        Case{"glaredb/v1_lineitem_versioned", 2000}, Case{"impala/iceberg_partitioned", 20},
        Case{"dremio/orders", 600}, Case{"duckdb-iceberg/partition_bucket_test", 100}}) {
    SCOPED_TRACE(c.dir);
    TableRead t = read_table(kFixtures / c.dir);
    EXPECT_EQ(live_records(t), c.rows);
  }
}

TEST(FixtureTables, LargePartitionedTableWithoutKeyValueMetadataUsesTableSpec) {
  TableRead t = read_table(kFixtures / "duckdb-iceberg/large_partitioned_table");
  ASSERT_EQ(t.current.size(), 1u);
  EXPECT_EQ(t.without_metadata, t.manifests);
  const auto& entries = t.current[0].second;
  int live = 0;
  for (const auto& e : entries) {
    if (!e.is_live()) continue;
    ++live;
    ASSERT_EQ(e.data_file.partition.size(), 1u);
    // month(joined) → int months since 1970; the path says joined_month=YYYY-MM.
    const Literal& month = e.data_file.partition[0];
    ASSERT_FALSE(month.is_null());
    int64_t m = month.as_int32();
    std::string text =
        fmt::format("joined_month={:04d}-{:02d}", 1970 + (m >= 0 ? m / 12 : (m - 11) / 12),
                    ((m % 12) + 12) % 12 + 1);
    EXPECT_NE(e.data_file.file_path.find(text), std::string::npos) << e.data_file.file_path;
  }
  EXPECT_EQ(live, 15);
}

TEST(FixtureTables, V1EntriesReadSequenceNumberZero) {
  for (const char* dir :
       {"duckdb-iceberg/iceberg_v1_deprecated", "duckdb-iceberg/iceberg_v1_repro"}) {
    SCOPED_TRACE(dir);
    TableRead t =
        read_table(kFixtures / dir, std::string(dir) == "duckdb-iceberg/iceberg_v1_repro"
                                        ? "00003-8d01e4aa-d143-49c9-898e-b5e477577b70.metadata.json"
                                        : "");
    ASSERT_FALSE(t.current.empty());
    int n = 0;
    for (const auto& [mf, entries] : t.current) {
      for (const auto& e : entries) {
        EXPECT_EQ(e.sequence_number, 0);
        EXPECT_EQ(e.file_sequence_number, 0);
        EXPECT_TRUE(e.snapshot_id.has_value());
        n += e.is_live();
      }
    }
    EXPECT_GT(n, 0);
  }
  TableRead repro = read_table(kFixtures / "duckdb-iceberg/iceberg_v1_repro",
                               "00003-8d01e4aa-d143-49c9-898e-b5e477577b70.metadata.json");
  EXPECT_EQ(live_records(repro), 4);
}

TEST(FixtureTables, DeletionVectorManifest) {
  TableRead t = read_table(kFixtures / "duckdb-iceberg/legacy_bare_deletion_vector");
  ASSERT_EQ(t.current.size(), 2u);
  int data_manifests = 0, delete_manifests = 0, dvs = 0;
  for (const auto& [mf, entries] : t.current) {
    if (mf.content == ManifestContent::kData) ++data_manifests;
    if (mf.content == ManifestContent::kDeletes) {
      ++delete_manifests;
      for (const auto& e : entries) {
        EXPECT_EQ(e.data_file.content, FileContent::kPositionDeletes);
        EXPECT_EQ(e.data_file.file_format, "PUFFIN");
        EXPECT_TRUE(e.data_file.referenced_data_file.has_value());
        EXPECT_TRUE(e.data_file.content_offset.has_value());
        EXPECT_TRUE(e.data_file.content_size_in_bytes.has_value());
        EXPECT_FALSE(e.data_file.first_row_id.has_value());  // delete files get no row ids
        ++dvs;
      }
    }
  }
  EXPECT_EQ(data_manifests, 1);
  EXPECT_EQ(delete_manifests, 1);
  EXPECT_EQ(dvs, 1);
}

TEST(FixtureTables, SequenceNumbersOfEqualityDeletes) {
  // products_with_eq_deletes: the equality delete at seq 4 precedes the appends at seq 5.
  TableRead t = read_table(kFixtures / "dremio/products_with_eq_deletes");
  std::set<int64_t> eq_delete_seqs, data_seqs;
  for (const auto& [mf, entries] : t.current) {
    for (const auto& e : entries) {
      if (!e.is_live()) continue;
      ASSERT_TRUE(e.sequence_number.has_value());
      EXPECT_EQ(e.sequence_number, e.file_sequence_number);
      if (e.data_file.content == FileContent::kEqualityDeletes) {
        eq_delete_seqs.insert(*e.sequence_number);
        EXPECT_TRUE(e.data_file.equality_ids.has_value());
      } else if (e.data_file.content == FileContent::kData) {
        data_seqs.insert(*e.sequence_number);
      }
    }
  }
  EXPECT_TRUE(eq_delete_seqs.count(4));
  EXPECT_TRUE(data_seqs.count(5));
}

TEST(FixtureTables, RowLineageFirstRowIds) {
  TableRead t = read_table(kFixtures / "impala/iceberg_v3_row_lineage");
  ASSERT_FALSE(t.current.empty());
  for (const auto& [mf, entries] : t.current) {
    if (mf.content != ManifestContent::kData) {
      for (const auto& e : entries) EXPECT_FALSE(e.data_file.first_row_id.has_value());
      continue;
    }
    for (const auto& e : entries) {
      if (e.is_live() && mf.first_row_id) {
        EXPECT_TRUE(e.data_file.first_row_id.has_value());
      }
    }
  }
}

TEST(FixtureTables, StatsProjectionSkipsUnneededColumns) {
  auto local = make_local_file_io();
  fs::path dir = kFixtures / "duckdb-iceberg/lineitem_iceberg";
  TableRead t = read_table(dir);
  ASSERT_FALSE(t.current.empty());
  const ManifestFile& mf = t.current[0].first;
  ManifestReadOptions only_ship;
  only_ship.stats_columns = {11};
  auto some = read_manifest(*t.io, mf, &t.metadata, only_ship);
  ASSERT_TRUE(some.ok());
  ManifestReadOptions none;
  none.read_stats = false;
  auto no_stats = read_manifest(*t.io, mf, &t.metadata, none);
  ASSERT_TRUE(no_stats.ok());
  const auto& full = t.current[0].second;
  ASSERT_EQ(some->size(), full.size());
  for (size_t i = 0; i < full.size(); ++i) {
    const DataFile& f = (*some)[i].data_file;
    EXPECT_EQ(f.file_path, full[i].data_file.file_path);
    for (const auto& [id, v] : f.lower_bounds) EXPECT_EQ(id, 11);
    if (find_metric(full[i].data_file.lower_bounds, 11)) {
      EXPECT_EQ(*find_metric(f.lower_bounds, 11), *find_metric(full[i].data_file.lower_bounds, 11));
    }
    EXPECT_LE(f.value_counts.size(), 1u);
    EXPECT_TRUE((*no_stats)[i].data_file.lower_bounds.empty());
    EXPECT_TRUE((*no_stats)[i].data_file.column_sizes.empty());
    EXPECT_EQ((*no_stats)[i].data_file.record_count, full[i].data_file.record_count);
  }
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

// Flipped and truncated bytes in a real manifest and list: an error or valid data, never a
// crash or an over-read (run under ASan in CI builds that enable it).
TEST(CorruptManifests, FlippedAndTruncatedBytesNeverCrash) {
  auto io = make_local_file_io();
  for (const char* name :
       {"iceberg-cpp/manifests/56357cd7-391f-4df8-aa24-e7e667da8870-m4.avro",
        "iceberg-cpp/manifests/"
        "snap-7412193043800610213-1-2bccd69e-d642-4816-bba0-261cd9bd0d93.avro"}) {
    std::string path = (kFixtures / name).string();
    std::string good = *io->read_file(path);
    bool is_list = std::string(name).find("snap-") != std::string::npos;
    auto read = [&](const std::string& bytes) -> Status {
      if (is_list) return parse_manifest_list(bytes, path).status();
      ManifestFile mf;
      mf.manifest_path = path;
      auto r = ManifestReader::open_bytes(bytes, mf, nullptr);
      if (!r.ok()) return r.status();
      return (*r)->for_each([](const ManifestEntry&) { return true; });
    };
    ASSERT_TRUE(read(good).ok());
    int errors = 0;
    for (size_t i = 0; i < good.size(); i += 5) {
      std::string b = good;
      b[i] = static_cast<char>(b[i] ^ 0x5a);
      if (!read(b).ok()) ++errors;
      Status t = read(good.substr(0, i));
      if (!t.ok()) {
        ++errors;
        EXPECT_NE(t.message().find(name), std::string::npos) << t.message();
      }
    }
    EXPECT_GT(errors, 0);
  }
}

}  // namespace
}  // namespace floe
