// What the file rewrite actions share (rewrite_data_files.h, rewrite_position_deletes.h): the
// values of Spark's options map, Java's SizeBasedFileRewriter file sizes, and its bin packing of
// candidates into groups.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "floe/util/result.h"

namespace floe::internal {

// Option `key` of `action` as an integer, true/false or a number; an error names both
// ("rewrite_data_files option 'min-input-files': 'two' is not an integer").
Result<int64_t> long_option(std::string_view action, const std::string& key,
                            const std::string& text);
Result<bool> bool_option(std::string_view action, const std::string& key, const std::string& text);
Result<double> double_option(std::string_view action, const std::string& key,
                             const std::string& text);

// Java's SizeBasedFileRewriter sizes: files under `min` or over `max` are wrongly sized, groups
// are written into files of about `target`.
struct FileRewriteSizes {
  int64_t target = 0;
  int64_t min = 0;
  int64_t max = 0;
};

// From the options (target <= 0: `default_target`; min -1: 75 % of the target; max -1: 180 %),
// checked as Java's validateOptions does (min < target < max).
Result<FileRewriteSizes> resolve_file_sizes(int64_t target_option, int64_t default_target,
                                            int64_t min_option, int64_t max_option);

// Java's BinPacking.ListPacker with a lookback of one, in the given order: a bin is closed when
// the next item would take it past `max_bytes`.
// The group options both file rewrite actions take: min-input-files,
// max-file-group-size-bytes, partial-progress.max-commits and
// max-concurrent-file-group-rewrites; an error names the first out of range.
Status check_group_options(int64_t min_input_files, int64_t max_file_group_size_bytes,
                           int64_t partial_progress_max_commits,
                           int64_t max_concurrent_file_group_rewrites);

template <typename T, typename Weight>
std::vector<std::vector<T>> pack_in_order(const std::vector<T>& items, int64_t max_bytes,
                                          Weight weight) {
  std::vector<std::vector<T>> bins;
  std::vector<T> bin;
  int64_t bytes = 0;
  for (const T& item : items) {
    const int64_t w = weight(item);
    if (!bin.empty() && bytes + w > max_bytes) {
      bins.push_back(std::move(bin));
      bin.clear();
      bytes = 0;
    }
    bin.push_back(item);
    bytes += w;
  }
  if (!bin.empty()) bins.push_back(std::move(bin));
  return bins;
}

// Commits whole groups: all in one commit, or with partial progress in up to `max_commits`
// batches of consecutive groups, where a batch whose commit fails is skipped and the others go
// on. `commit(batch)` rewrites and commits one batch. Returns the files of the failed batches;
// without partial progress, the commit's error.
template <typename Group, typename Commit>
Result<int64_t> commit_in_batches(const std::vector<Group>& groups, bool partial_progress,
                                  int64_t max_commits, Commit commit) {
  if (groups.empty()) return int64_t{0};
  const size_t commits =
      partial_progress ? std::min(groups.size(), static_cast<size_t>(max_commits)) : 1;
  const size_t per_commit = (groups.size() + commits - 1) / commits;
  int64_t failed_files = 0;
  for (size_t begin = 0; begin < groups.size(); begin += per_commit) {
    const size_t end = std::min(groups.size(), begin + per_commit);
    std::vector<Group> batch(groups.begin() + static_cast<ptrdiff_t>(begin),
                             groups.begin() + static_cast<ptrdiff_t>(end));
    Status st = commit(batch);
    if (!st.ok()) {
      if (!partial_progress) return st;
      for (const auto& g : batch) failed_files += static_cast<int64_t>(g.size());
    }
  }
  return failed_files;
}

}  // namespace floe::internal
