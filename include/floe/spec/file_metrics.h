// The metrics a written data or delete file reports for its DataFile entry (Iceberg spec,
// Manifests: record count, file size, per-column sizes, counts and bounds, split offsets).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace floe {

// What Iceberg's DataFile needs from a written file. Maps are keyed by field id.
struct DataFileMetrics {
  int64_t record_count = 0;
  int64_t file_size = 0;
  std::map<int32_t, int64_t> column_sizes;
  std::map<int32_t, int64_t> value_counts;
  std::map<int32_t, int64_t> null_value_counts;
  std::map<int32_t, int64_t> nan_value_counts;
  std::map<int32_t, std::string> lower_bounds;  // Iceberg single-value binary form
  std::map<int32_t, std::string> upper_bounds;
  std::vector<int64_t> split_offsets;  // row group start offsets
};

}  // namespace floe
