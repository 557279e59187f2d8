// purge_table_files: every file reachable from the metadata is deleted exactly once (manifests
// shared by snapshots, delete files, statistics, the metadata log), and missing files are fine.
#include <gtest/gtest.h>

#include "catalog/catalog_test_support.h"
#include "floe/manifest/manifest_writer.h"
#include "forwarding_file_io.h"

namespace floe::catalog_test {
namespace {

// Memory FileIO that counts deletes per path.
class CountingFileIO : public test_support::ForwardingFileIO {
 public:
  CountingFileIO() : ForwardingFileIO(make_memory_file_io()) {}
  Status delete_file(std::string_view path) override {
    ++deletes[std::string(path)];
    return inner_->delete_file(path);
  }
  std::map<std::string, int> deletes;
};

class PurgeTest : public ::testing::Test {
 protected:
  std::string touch(const std::string& path) {
    EXPECT_TRUE(io_.write_file(path, "x", WriteMode::kOverwrite).ok());
    return path;
  }
  DataFile file(const std::string& path, FileContent content = FileContent::kData) {
    DataFile f;
    f.content = content;
    f.file_path = touch(path);
    f.file_format = "PARQUET";
    f.record_count = 1;
    f.file_size_in_bytes = 1;
    return f;
  }
  ManifestFile manifest(const std::string& path, int64_t snapshot_id,
                        const std::vector<DataFile>& files,
                        ManifestContent content = ManifestContent::kData) {
    ManifestWriterOptions options;
    options.snapshot_id = snapshot_id;
    options.content = content;
    auto writer = ManifestWriter::make(
        io_, [&](int) { return path; }, m_.schemas[0], m_.specs[0], options);
    EXPECT_TRUE(writer.ok()) << writer.status().to_string();
    for (const auto& f : files) EXPECT_TRUE((*writer)->add(f).ok());
    auto written = (*writer)->finish();
    EXPECT_TRUE(written.ok() && written->size() == 1u);
    return written->at(0);
  }
  void snapshot(int64_t id, int64_t sequence, const std::string& list,
                const std::vector<ManifestFile>& manifests) {
    ManifestListWriterOptions options;
    options.snapshot_id = id;
    options.sequence_number = sequence;
    if (!list.empty()) {
      ASSERT_TRUE(write_manifest_list(io_, list, manifests, options).ok());
    }
    auto s = std::make_shared<Snapshot>();
    s->snapshot_id = id;
    s->sequence_number = sequence;
    s->timestamp_ms = m_.last_updated_ms;
    s->manifest_list = list.empty() ? "/t/metadata/snap-missing.avro" : list;
    s->summary = {{"operation", "append"}};
    m_.snapshots.push_back(s);
    m_.current_snapshot_id = id;
    m_.refs[kMainBranch] = SnapshotRef();
    m_.refs[kMainBranch].snapshot_id = id;
    m_.last_sequence_number = sequence;
  }

  CountingFileIO io_;
  TableMetadata m_ = make_metadata("/t");
};

TEST_F(PurgeTest, DeletesEveryReachableFileOnce) {
  auto data1 = file("/t/data/a.parquet");
  auto data2 = file("/t/data/b.parquet");
  auto deletes = file("/t/data/a-deletes.parquet", FileContent::kPositionDeletes);
  auto m1 = manifest("/t/metadata/m1.avro", 1, {data1});
  auto m2 = manifest("/t/metadata/m2.avro", 2, {data2});
  auto m3 = manifest("/t/metadata/m3.avro", 3, {deletes}, ManifestContent::kDeletes);
  snapshot(1, 1, "/t/metadata/snap-1.avro", {m1});
  snapshot(2, 2, "/t/metadata/snap-2.avro", {m1, m2});
  snapshot(3, 3, "/t/metadata/snap-3.avro", {m1, m2, m3});
  snapshot(4, 4, "", {});  // its manifest list is already gone
  StatisticsFile stats;
  stats.snapshot_id = 3;
  stats.statistics_path = touch("/t/metadata/stats.puffin");
  m_.statistics = {stats};
  PartitionStatisticsFile partition_stats;
  partition_stats.snapshot_id = 3;
  partition_stats.statistics_path = touch("/t/metadata/partition-stats.parquet");
  m_.partition_statistics = {partition_stats};
  m_.metadata_log = {{1, touch("/t/metadata/00000-a.metadata.json")},
                     {2, "/t/metadata/00001-gone.metadata.json"}};
  std::string current = touch("/t/metadata/00002-b.metadata.json");
  ASSERT_TRUE(m_.validate().ok()) << m_.validate().to_string();
  touch("/t/data/unreferenced.parquet");

  ASSERT_TRUE(purge_table_files(io_, m_, current).ok());

  std::map<std::string, int> expected;
  for (const char* path :
       {"/t/data/a.parquet", "/t/data/b.parquet", "/t/data/a-deletes.parquet",
        "/t/metadata/m1.avro", "/t/metadata/m2.avro", "/t/metadata/m3.avro",
        "/t/metadata/snap-1.avro", "/t/metadata/snap-2.avro", "/t/metadata/snap-3.avro",
        "/t/metadata/snap-missing.avro", "/t/metadata/stats.puffin",
        "/t/metadata/partition-stats.parquet", "/t/metadata/00000-a.metadata.json",
        "/t/metadata/00001-gone.metadata.json", "/t/metadata/00002-b.metadata.json"}) {
    expected[path] = 1;
  }
  EXPECT_EQ(io_.deletes, expected);
  auto left = io_.list("/t");
  ASSERT_TRUE(left.ok());
  ASSERT_EQ(left->size(), 1u);
  EXPECT_EQ(left->at(0).path, "/t/data/unreferenced.parquet");
}

}  // namespace
}  // namespace floe::catalog_test
