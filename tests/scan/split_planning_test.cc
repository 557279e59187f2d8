// Split planning: files split at split offsets, tasks bin-packed to the target size with the
// open-file cost and lookback of Java's planner; and the thread pool the planner runs on.
#include <gtest/gtest.h>

#include <atomic>

#include "floe/scan/table_scan.h"
#include "floe/util/thread_pool.h"

namespace floe {
namespace {

FileScanTask task_of(int64_t size, std::optional<std::vector<int64_t>> offsets = std::nullopt) {
  auto f = std::make_shared<DataFile>();
  f->file_path = "f" + std::to_string(size);
  f->file_size_in_bytes = size;
  f->split_offsets = std::move(offsets);
  FileScanTask t;
  t.file = f;
  t.length = size;
  return t;
}

TEST(SplitPlanningTest, SplitsAtOffsets) {
  // Row groups at 4, 44, 84, 124 in a 160-byte file; target 100. As Java's offsets-aware
  // iterator, a split grows by whole row groups until it reaches the target:
  // [4, 124) then [124, 160).
  auto parts = split_file_task(task_of(160, std::vector<int64_t>{4, 44, 84, 124}), 100);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].start, 4);
  EXPECT_EQ(parts[0].length, 120);
  EXPECT_EQ(parts[1].start, 124);
  EXPECT_EQ(parts[1].length, 36);
  auto fine = split_file_task(task_of(160, std::vector<int64_t>{4, 44, 84, 124}), 40);
  EXPECT_EQ(fine.size(), 4u);
  // Small files, missing or invalid offsets stay whole.
  EXPECT_EQ(split_file_task(task_of(50, std::vector<int64_t>{4, 20}), 100).size(), 1u);
  EXPECT_EQ(split_file_task(task_of(500), 100).size(), 1u);
  EXPECT_EQ(split_file_task(task_of(500, std::vector<int64_t>{4, 300, 200}), 100).size(), 1u);
  EXPECT_EQ(split_file_task(task_of(500, std::vector<int64_t>{4, 600}), 100).size(), 1u);
}

TEST(SplitPlanningTest, BinPacksWithOpenFileCost) {
  std::vector<FileScanTask> tasks;
  for (int i = 0; i < 10; ++i) tasks.push_back(task_of(10));
  // Each weighs max(10, 25) = 25: four per bin of 100.
  auto bins = bin_pack_tasks(tasks, 100, 25, 10);
  ASSERT_EQ(bins.size(), 3u);
  EXPECT_EQ(bins[0].tasks.size(), 4u);
  EXPECT_EQ(bins[0].total_bytes, 40);
  EXPECT_EQ(bins[2].tasks.size(), 2u);
  // A file larger than the target gets its own bin.
  auto big = bin_pack_tasks({task_of(500), task_of(10)}, 100, 1, 10);
  ASSERT_EQ(big.size(), 2u);
  // Lookback 1: no going back to earlier bins.
  auto strict = bin_pack_tasks({task_of(60), task_of(60), task_of(30)}, 100, 1, 1);
  ASSERT_EQ(strict.size(), 2u);
  EXPECT_EQ(strict[1].tasks.size(), 2u);
  auto lookback = bin_pack_tasks({task_of(60), task_of(60), task_of(30)}, 100, 1, 10);
  ASSERT_EQ(lookback.size(), 2u);
  EXPECT_EQ(lookback[0].tasks.size(), 2u);  // 60 + 30 packed into the first bin
}

TEST(ThreadPoolTest, RunsEveryItemAndReportsTheFirstError) {
  ThreadPool pool(4);
  EXPECT_EQ(pool.size(), 4);
  std::vector<std::atomic<int>> hits(1000);
  ASSERT_TRUE(pool.parallel_for(hits.size(),
                                [&](size_t i) {
                                  hits[i]++;
                                  return Status::OK();
                                })
                  .ok());
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);
  Status s = pool.parallel_for(
      100, [&](size_t i) { return i == 37 ? invalid_data("item {} is bad", i) : Status::OK(); });
  EXPECT_EQ(s.message(), "item 37 is bad");
  EXPECT_TRUE(pool.parallel_for(0, [](size_t) { return Status::OK(); }).ok());
  ThreadPool single(1);
  int n = 0;
  ASSERT_TRUE(single
                  .parallel_for(5,
                                [&](size_t) {
                                  ++n;
                                  return Status::OK();
                                })
                  .ok());
  EXPECT_EQ(n, 5);
}

}  // namespace
}  // namespace floe
