// Private: the delete-file index of one scan (iceberg-spec-notes §8 step 5). Matches delete
// files to a data file by sequence number, spec and partition, and by referenced path:
//   deletion vector      referenced_data_file == path, data seq <= dv seq; beats position files
//   position deletes     data seq <= delete seq, same spec + partition, or scoped to the path
//   equality deletes     data seq <  delete seq, same spec + partition, or global (unpartitioned)
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "floe/scan/table_scan.h"

namespace floe {

// spec id + partition values as one hashable string.
std::string partition_key(int32_t spec_id, const std::vector<Literal>& values);
// The key two paths that name one data file share: without a file: scheme (file:/x,
// file:///x and /x) and without scheme + authority (hdfs://host:port/x and /x, as Impala's
// manifests and Spark's delete files spell one file). Used by the delete index and by the reader
// for the file_path column of position-delete files.
std::string normalize_file_path(std::string_view path);

class DeleteFileIndex {
 public:
  // `unpartitioned_spec`: the delete's spec has no partition fields (global equality deletes).
  void add(DeleteFilePtr file, bool unpartitioned_spec);
  // Sorts by sequence number; call once after the last add().
  void finish();

  // The delete files that apply to a data file with data sequence number `data_seq`.
  std::vector<DeleteFilePtr> for_data_file(const DataFile& file, int64_t data_seq) const;

  size_t size() const { return count_; }

 private:
  using Bucket = std::vector<DeleteFilePtr>;  // sorted by data sequence number
  std::unordered_map<std::string, Bucket> dvs_by_path_;
  std::unordered_map<std::string, Bucket> positions_by_path_;
  std::unordered_map<std::string, Bucket> positions_by_partition_;
  std::unordered_map<std::string, Bucket> equality_by_partition_;
  Bucket global_equality_;
  size_t count_ = 0;
};

}  // namespace floe
