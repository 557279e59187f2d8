// Snapshot summaries (Java's SnapshotSummary): the counters of the added and removed files and
// the totals carried from the parent snapshot.
#include <fmt/format.h>

#include "floe/spec/table_properties.h"
#include "table/snapshot_summary_internal.h"

namespace floe::internal {

std::vector<std::pair<std::string, int64_t>> UpdateMetrics::entries() const {
  std::vector<std::pair<std::string, int64_t>> out;
  auto put = [&](const char* key, int64_t v) {
    if (v > 0) out.emplace_back(key, v);
  };
  put("added-files-size", added_size);
  put("removed-files-size", removed_size);
  put("added-data-files", added_files);
  put("deleted-data-files", deleted_files);
  put("added-records", added_records);
  put("deleted-records", deleted_records);
  return out;
}

std::map<std::string, std::string> SummaryBuilder::build(const TableMetadata& base,
                                                         const Snapshot* parent) const {
  std::map<std::string, std::string> s;
  for (const auto& [k, v] : total_.entries()) s[k] = std::to_string(v);
  s["changed-partition-count"] = std::to_string(partitions_.size());
  int64_t limit =
      table_properties::int_property(base.properties, table_properties::kWriteSummaryPartitionLimit,
                                     table_properties::kWriteSummaryPartitionLimitDefault);
  if (limit > 0 && static_cast<int64_t>(partitions_.size()) <= limit) {
    s["partition-summaries-included"] = "true";
    for (const auto& [path, metrics] : partitions_) {
      std::string text;
      for (const auto& [k, v] : metrics.entries()) {
        if (!text.empty()) text += ',';
        text += fmt::format("{}={}", k, v);
      }
      s["partitions." + path] = text;
    }
  }
  total(s, parent, "total-records", total_.added_records, total_.deleted_records);
  total(s, parent, "total-files-size", total_.added_size, total_.removed_size);
  total(s, parent, "total-data-files", total_.added_files, total_.deleted_files);
  total(s, parent, "total-delete-files", 0, 0);
  total(s, parent, "total-position-deletes", 0, 0);
  total(s, parent, "total-equality-deletes", 0, 0);
  return s;
}

void SummaryBuilder::total(std::map<std::string, std::string>& s, const Snapshot* parent,
                           const char* key, int64_t added, int64_t removed) {
  int64_t previous = 0;
  if (parent) {
    auto it = parent->summary.find(key);
    if (it == parent->summary.end()) return;
    try {
      previous = std::stoll(it->second);
    } catch (...) {
      return;
    }
  }
  int64_t value = previous + added - removed;
  if (value >= 0) s[key] = std::to_string(value);
}

}  // namespace floe::internal
