// Snapshot summaries of the snapshot producer: added/removed file counters per table and per
// partition, and the totals carried from the parent (Iceberg spec, Snapshots; Java's
// SnapshotSummary).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "floe/manifest/manifest.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/table_metadata.h"

namespace floe::internal {

// Java's SnapshotSummary.UpdateMetrics for data files: counters written only when positive.
struct UpdateMetrics {
  int64_t added_files = 0, deleted_files = 0;
  int64_t added_records = 0, deleted_records = 0;
  int64_t added_size = 0, removed_size = 0;

  void add(const DataFile& f) {
    added_files++;
    added_records += f.record_count;
    added_size += f.file_size_in_bytes;
  }
  void remove(const DataFile& f) {
    deleted_files++;
    deleted_records += f.record_count;
    removed_size += f.file_size_in_bytes;
  }
  // Pairs in Java's order (partition summaries print them in this order).
  std::vector<std::pair<std::string, int64_t>> entries() const;
};

class SummaryBuilder {
 public:
  void added(const PartitionSpec& spec, const DataFile& f) {
    total_.add(f);
    partitions_[spec.partition_to_path(f.partition)].add(f);
  }
  void removed(const PartitionSpec& spec, const DataFile& f) {
    total_.remove(f);
    partitions_[spec.partition_to_path(f.partition)].remove(f);
  }
  bool removed_any() const { return total_.deleted_files > 0; }

  // The summary of a snapshot whose parent (branch head) is `parent`: totals, partition
  // summaries up to write.summary.partition-limit partitions.
  std::map<std::string, std::string> build(const TableMetadata& base, const Snapshot* parent) const;

 private:
  // Previous branch head's total + added - removed; a new branch starts at 0. Omitted when
  // the parent's summary lacks the total or the result is negative (Java updateTotal).
  static void total(std::map<std::string, std::string>& s, const Snapshot* parent, const char* key,
                    int64_t added, int64_t removed);

  UpdateMetrics total_;
  std::map<std::string, UpdateMetrics> partitions_;
};

}  // namespace floe::internal
