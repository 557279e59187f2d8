// Snapshot summaries (Java's SnapshotSummary): the counters of the added and removed data and
// delete files and the totals carried from the parent snapshot.
#include <fmt/format.h>

#include "floe/spec/table_properties.h"
#include "floe/util/strings.h"
#include "table/snapshot_summary_internal.h"

namespace floe::internal {

bool is_deletion_vector(const DataFile& f) {
  return f.content == FileContent::kPositionDeletes && iequals(f.file_format, "puffin");
}

int64_t content_size(const DataFile& f) {
  if (is_deletion_vector(f) && f.content_size_in_bytes) return *f.content_size_in_bytes;
  return f.file_size_in_bytes;
}

void UpdateMetrics::add(const DataFile& f) {
  added_size += content_size(f);
  switch (f.content) {
    case FileContent::kData:
      added_files++;
      added_records += f.record_count;
      break;
    case FileContent::kPositionDeletes:
      (is_deletion_vector(f) ? added_dvs : added_pos_delete_files)++;
      added_delete_files++;
      added_pos_deletes += f.record_count;
      break;
    case FileContent::kEqualityDeletes:
      added_eq_delete_files++;
      added_delete_files++;
      added_eq_deletes += f.record_count;
      break;
  }
}

void UpdateMetrics::remove(const DataFile& f) {
  removed_size += content_size(f);
  switch (f.content) {
    case FileContent::kData:
      deleted_files++;
      deleted_records += f.record_count;
      break;
    case FileContent::kPositionDeletes:
      (is_deletion_vector(f) ? removed_dvs : removed_pos_delete_files)++;
      removed_delete_files++;
      removed_pos_deletes += f.record_count;
      break;
    case FileContent::kEqualityDeletes:
      removed_eq_delete_files++;
      removed_delete_files++;
      removed_eq_deletes += f.record_count;
      break;
  }
}

// Java's order: file counts by kind, records, then sizes and row counts of deletes.
std::vector<std::pair<std::string, int64_t>> UpdateMetrics::entries() const {
  std::vector<std::pair<std::string, int64_t>> out;
  auto put = [&](const char* key, int64_t v) {
    if (v > 0) out.emplace_back(key, v);
  };
  put("added-data-files", added_files);
  put("deleted-data-files", deleted_files);
  put("added-equality-delete-files", added_eq_delete_files);
  put("removed-equality-delete-files", removed_eq_delete_files);
  put("added-position-delete-files", added_pos_delete_files);
  put("removed-position-delete-files", removed_pos_delete_files);
  put("added-delete-files", added_delete_files);
  put("removed-delete-files", removed_delete_files);
  put("added-dvs", added_dvs);
  put("removed-dvs", removed_dvs);
  put("added-records", added_records);
  put("deleted-records", deleted_records);
  put("added-files-size", added_size);
  put("removed-files-size", removed_size);
  put("added-position-deletes", added_pos_deletes);
  put("removed-position-deletes", removed_pos_deletes);
  put("added-equality-deletes", added_eq_deletes);
  put("removed-equality-deletes", removed_eq_deletes);
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
  if (!partitions_.empty() && static_cast<int64_t>(partitions_.size()) <= limit) {
    s["partition-summaries-included"] = "true";
    for (const auto& [path, metrics] : partitions_) {
      if (path.empty()) continue;  // the unpartitioned spec's one partition has no key
      std::string text;
      for (const auto& [k, v] : metrics.entries()) {
        if (!text.empty()) text += ',';
        text += fmt::format("{}={}", k, v);
      }
      s["partitions." + path] = text;
    }
  }
  const UpdateMetrics& t = total_;
  total(s, parent, "total-records", t.added_records, t.deleted_records);
  total(s, parent, "total-files-size", t.added_size, t.removed_size);
  total(s, parent, "total-data-files", t.added_files, t.deleted_files);
  total(s, parent, "total-delete-files", t.added_delete_files, t.removed_delete_files);
  total(s, parent, "total-position-deletes", t.added_pos_deletes, t.removed_pos_deletes);
  total(s, parent, "total-equality-deletes", t.added_eq_deletes, t.removed_eq_deletes);
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
