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

// A deletion vector (v3): a position-delete blob in a Puffin file (Java's ContentFileUtil.isDV
// tests the format alone).
bool is_deletion_vector(const DataFile& f);
// What a file weighs in a summary: a DV its blob, any other file the whole file (Java's
// ScanTaskUtil.contentSizeInBytes).
int64_t content_size(const DataFile& f);

// Java's SnapshotSummary.UpdateMetrics for data and delete files: counters written only when
// positive. A DV counts as a delete file and its positions as position deletes, but as a DV,
// not as a position-delete file.
struct UpdateMetrics {
  int64_t added_files = 0, deleted_files = 0;
  int64_t added_records = 0, deleted_records = 0;
  int64_t added_size = 0, removed_size = 0;
  int64_t added_delete_files = 0, removed_delete_files = 0;
  int64_t added_eq_delete_files = 0, removed_eq_delete_files = 0;
  int64_t added_pos_delete_files = 0, removed_pos_delete_files = 0;
  int64_t added_dvs = 0, removed_dvs = 0;
  int64_t added_pos_deletes = 0, removed_pos_deletes = 0;
  int64_t added_eq_deletes = 0, removed_eq_deletes = 0;

  void add(const DataFile& f);
  void remove(const DataFile& f);
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
  const UpdateMetrics& totals() const { return total_; }

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
