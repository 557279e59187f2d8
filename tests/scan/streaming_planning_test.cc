// Streaming planning (issue 5: "planning streams tasks with bounded memory rather than
// materialising every entry first"). A table of 300 manifests x 1,000 files written by the test
// streams every task, in manifest order, with deletes attached, while the count of tasks held
// between the manifest readers and the consumer never passes the configured bound.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "floe/manifest/manifest_writer.h"
#include "floe/scan/table_scan.h"
#include "test_support.h"

namespace floe {
namespace {

using test_support::field;

constexpr int kManifests = 300;
constexpr int kPerManifest = 1000;
constexpr int kPartitions = 10;

std::string data_path(int m, int j) {
  return "mem://t/data/m" + std::to_string(m) + "-f" + std::to_string(j) + ".parquet";
}

struct BigTable {
  FileIOPtr io;
  std::shared_ptr<TableMetadata> metadata;
  std::vector<ManifestFile> manifests;
};

// Data manifest m holds partition m % 10; its files have sequence number 1. Deletes (sequence
// number 2): one partition-scoped position file for every even partition, one equality file for
// partition 3, and a DV for the first file of every manifest.
const BigTable& big_table() {
  static BigTable t = [] {
    BigTable b;
    b.io = make_memory_file_io();
    auto schema = std::make_shared<const Schema>(
        0, std::vector<NestedField>{field(1, "id", Type::int64()), field(2, "p", Type::int32())});
    auto spec = std::make_shared<const PartitionSpec>(
        0, std::vector<PartitionField>{{2, {}, 1000, "p", Transform::identity()}});
    auto write = [&](const std::string& name, int64_t snapshot, ManifestContent content,
                     const std::vector<DataFile>& files) {
      ManifestWriterOptions wo;
      wo.format_version = 3;
      wo.snapshot_id = snapshot;
      wo.content = content;
      wo.codec = avro::Codec::kNull;
      wo.target_size_bytes = int64_t{1} << 40;
      auto w = ManifestWriter::make(
          *b.io,
          [&](int k) { return "mem://t/metadata/" + name + "-" + std::to_string(k) + ".avro"; },
          schema, spec, wo);
      if (!w.ok()) std::abort();
      for (const auto& f : files) {
        if (!(*w)->add(f).ok()) std::abort();
      }
      auto written = (*w)->finish();
      if (!written.ok()) std::abort();
      for (auto m : *written) {
        m.sequence_number = snapshot;
        m.min_sequence_number = snapshot;
        b.manifests.push_back(std::move(m));
      }
    };
    for (int m = 0; m < kManifests; ++m) {
      std::vector<DataFile> files;
      for (int j = 0; j < kPerManifest; ++j) {
        DataFile f;
        f.file_path = data_path(m, j);
        f.file_format = "PARQUET";
        f.partition = {Literal::int32(m % kPartitions)};
        f.record_count = 100;
        f.file_size_in_bytes = 1 << 20;
        files.push_back(std::move(f));
      }
      write("d" + std::to_string(m), 1, ManifestContent::kData, files);
    }
    std::vector<DataFile> deletes;
    for (int p = 0; p < kPartitions; p += 2) {
      DataFile d;
      d.content = FileContent::kPositionDeletes;
      d.file_path = "mem://t/data/pos-" + std::to_string(p) + ".parquet";
      d.file_format = "PARQUET";
      d.partition = {Literal::int32(p)};
      d.record_count = 1;
      d.file_size_in_bytes = 100;
      deletes.push_back(std::move(d));
    }
    DataFile eq;
    eq.content = FileContent::kEqualityDeletes;
    eq.file_path = "mem://t/data/eq-3.parquet";
    eq.file_format = "PARQUET";
    eq.partition = {Literal::int32(3)};
    eq.record_count = 1;
    eq.file_size_in_bytes = 100;
    eq.equality_ids = std::vector<int32_t>{1};
    deletes.push_back(std::move(eq));
    for (int m = 0; m < kManifests; ++m) {
      DataFile dv;
      dv.content = FileContent::kPositionDeletes;
      dv.file_path = "mem://t/data/dvs.puffin";
      dv.file_format = "puffin";
      dv.partition = {Literal::int32(m % kPartitions)};
      dv.record_count = 1;
      dv.file_size_in_bytes = 100000;
      dv.referenced_data_file = data_path(m, 0);
      dv.content_offset = 4 + 40 * m;
      dv.content_size_in_bytes = 40;
      deletes.push_back(std::move(dv));
    }
    write("del", 2, ManifestContent::kDeletes, deletes);

    ManifestListWriterOptions lo;
    lo.snapshot_id = 2;
    lo.sequence_number = 2;
    lo.format_version = 3;
    if (!write_manifest_list(*b.io, "mem://t/metadata/snap-2.avro", b.manifests, lo).ok()) {
      std::abort();
    }
    auto table = std::make_shared<TableMetadata>();
    table->format_version = 3;
    table->table_uuid = "00000000-0000-4000-8000-000000000005";
    table->location = "mem://t";
    table->schemas = {schema};
    table->last_column_id = 2;
    table->specs = {spec};
    table->last_partition_id = 1000;
    table->sort_orders = {std::make_shared<const SortOrder>()};
    test_support::set_current_snapshot(table.get(), 2, "mem://t/metadata/snap-2.avro");
    b.metadata = std::move(table);
    return b;
  }();
  return t;
}

// The deletes file (m, j) must get.
std::vector<std::string> expected_deletes(int m, int j) {
  std::vector<std::string> out;
  int p = m % kPartitions;
  if (j == 0) {
    out.push_back("mem://t/data/dvs.puffin");  // the DV replaces the partition's position file
  } else if (p % 2 == 0) {
    out.push_back("mem://t/data/pos-" + std::to_string(p) + ".parquet");
  }
  if (p == 3) out.push_back("mem://t/data/eq-3.parquet");
  return out;
}

ScanOptions options(int threads, int64_t max_buffered) {
  ScanOptions o;
  o.threads = threads;
  o.max_buffered_tasks = max_buffered;
  return o;
}

// Tasks held at once can exceed the queue capacity only by the chunks being filled (one per
// reader), the chunk being consumed and the allowance of the manifest at the head.
int64_t held_bound(int threads, int64_t capacity) { return capacity + (threads + 4) * 128; }

TEST(StreamingPlanningTest, StreamsEveryTaskInOrderWithBoundedMemory) {
  const BigTable& t = big_table();
  for (int threads : {1, 2, 4}) {
    SCOPED_TRACE(threads);
    auto scan = TableScan::make(t.io, t.metadata, options(threads, 1000));
    ASSERT_TRUE(scan.ok()) << scan.status().to_string();
    int64_t n = 0;
    bool order_ok = true, deletes_ok = true;
    std::string first_bad;
    Status s = scan->plan_files([&](FileScanTask&& task) {
      int m = static_cast<int>(n / kPerManifest), j = static_cast<int>(n % kPerManifest);
      if (task.file->file_path != data_path(m, j)) {
        if (order_ok) first_bad = task.file->file_path;
        order_ok = false;
      }
      std::vector<std::string> got;
      for (const auto& d : task.deletes) got.emplace_back(d->file_path());
      if (got != expected_deletes(m, j)) deletes_ok = false;
      ++n;
      // A slow consumer: the readers must wait for it rather than run ahead.
      if (n % 50000 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      return true;
    });
    ASSERT_TRUE(s.ok()) << s.to_string();
    EXPECT_EQ(n, int64_t{kManifests} * kPerManifest);
    EXPECT_TRUE(order_ok) << "first out of order: " << first_bad;
    EXPECT_TRUE(deletes_ok);
    const ScanReport& r = scan->report();
    EXPECT_EQ(r.scanned_data_files, n);
    EXPECT_EQ(r.scanned_data_manifests, kManifests);
    EXPECT_EQ(r.total_delete_files, kPartitions / 2 + 1 + kManifests);
    EXPECT_EQ(r.matched_delete_files, kPartitions / 2 + 1 + kManifests);
    EXPECT_GT(r.peak_buffered_tasks, 0);
    EXPECT_LE(r.peak_buffered_tasks, held_bound(threads, 1000));
  }
}

TEST(StreamingPlanningTest, MaterialisedPlanIsTheStreamedPlan) {
  const BigTable& t = big_table();
  auto streamed = TableScan::make(t.io, t.metadata, options(2, 500));
  auto whole = TableScan::make(t.io, t.metadata, options(2, 0));
  ASSERT_TRUE(streamed.ok() && whole.ok());
  auto files = whole->plan_files();
  ASSERT_TRUE(files.ok()) << files.status().to_string();
  ASSERT_EQ(files->size(), size_t{kManifests} * kPerManifest);
  size_t i = 0;
  bool same = true;
  ASSERT_TRUE(streamed
                  ->plan_files([&](FileScanTask&& task) {
                    const FileScanTask& w = (*files)[i++];
                    same &= task.file->file_path == w.file->file_path &&
                            task.deletes.size() == w.deletes.size() &&
                            task.data_sequence_number == w.data_sequence_number;
                    return true;
                  })
                  .ok());
  EXPECT_TRUE(same);
  EXPECT_EQ(i, files->size());
  EXPECT_EQ(streamed->report().matched_delete_refs, whole->report().matched_delete_refs);
  EXPECT_LE(streamed->report().peak_buffered_tasks, held_bound(2, 500));
}

TEST(StreamingPlanningTest, CombinedTasksStreamThroughTheLookbackWindow) {
  const BigTable& t = big_table();
  ScanOptions o = options(2, 1000);
  o.split_target_size = 16 << 20;  // 16 files of 1 MB per bin
  o.split_open_file_cost = 0;
  o.split_lookback = 4;
  auto scan = TableScan::make(t.io, t.metadata, o);
  ASSERT_TRUE(scan.ok());
  int64_t bins = 0, files = 0;
  size_t largest = 0;
  ASSERT_TRUE(scan->plan_tasks([&](CombinedScanTask&& c) {
                    ++bins;
                    files += static_cast<int64_t>(c.tasks.size());
                    largest = std::max(largest, c.tasks.size());
                    EXPECT_LE(c.total_bytes, int64_t{16} << 20);
                    return true;
                  })
                  .ok());
  EXPECT_EQ(files, int64_t{kManifests} * kPerManifest);
  EXPECT_EQ(bins, files / 16);
  EXPECT_EQ(largest, 16u);
  EXPECT_EQ(scan->report().tasks, bins);
  EXPECT_LE(scan->report().peak_buffered_tasks, held_bound(2, 1000));
}

TEST(StreamingPlanningTest, ConsumerCanStopEarly) {
  const BigTable& t = big_table();
  auto scan = TableScan::make(t.io, t.metadata, options(2, 1000));
  ASSERT_TRUE(scan.ok());
  int64_t n = 0;
  ASSERT_TRUE(scan->plan_files([&](FileScanTask&&) { return ++n < 5000; }).ok());
  EXPECT_EQ(n, 5000);
  // The readers stopped too: far fewer manifests were read than the table has.
  EXPECT_LT(scan->report().total_data_files, int64_t{kManifests} * kPerManifest / 2);
}

TEST(StreamingPlanningTest, AReaderErrorEndsTheStream) {
  const BigTable& t = big_table();
  // A copy of the table whose 200th data manifest is missing.
  auto io = make_memory_file_io();
  for (const auto& m : t.manifests) {
    auto bytes = t.io->read_file(m.manifest_path);
    ASSERT_TRUE(bytes.ok());
    if (m.manifest_path.find("/d199-") != std::string::npos) continue;
    ASSERT_TRUE(io->write_file(m.manifest_path, *bytes).ok());
  }
  auto list = t.io->read_file("mem://t/metadata/snap-2.avro");
  ASSERT_TRUE(list.ok());
  ASSERT_TRUE(io->write_file("mem://t/metadata/snap-2.avro", *list).ok());
  for (int threads : {1, 2}) {
    auto scan = TableScan::make(io, t.metadata, options(threads, 1000));
    ASSERT_TRUE(scan.ok());
    int64_t n = 0;
    Status s = scan->plan_files([&](FileScanTask&&) {
      ++n;
      return true;
    });
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.to_string().find("d199"), std::string::npos) << s.to_string();
    EXPECT_LE(n, 199 * kPerManifest);
  }
}

}  // namespace
}  // namespace floe
