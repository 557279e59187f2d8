// What the file rewrite actions share (rewrite_data_files.h, rewrite_position_deletes.h): the
// values of Spark's options map, Java's SizeBasedFileRewriter file sizes, and its bin packing of
// candidates into groups.
#pragma once

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

}  // namespace floe::internal
