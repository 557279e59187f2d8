// Scan planning (Iceberg spec, "Scan Planning"): from a snapshot's manifest list
// to file scan tasks, without listing storage.
//   1. pick the snapshot (current, id, ref, or time) and read its manifest list;
//   2. skip manifests whose partition summaries cannot match (each manifest with its own spec);
//   3. skip files by partition value and column metrics;
//   3.1 attach delete files by sequence number and partition (DeleteFileIndex);
//   4. compute residuals per partition, split files at their split offsets and bin-pack tasks.
// Manifests are read in parallel; a ScanReport records the funnel for EXPLAIN.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/expr/expression.h"
#include "floe/io/file_io.h"
#include "floe/manifest/manifest.h"
#include "floe/spec/table_metadata.h"

namespace floe {

struct ScanOptions {
  ExprPtr filter;  // unbound (names) or bound to the scan schema; null = everything
  bool case_sensitive = true;
  // Which snapshot: at most one of these; none = the current snapshot.
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> as_of_timestamp_ms;
  std::optional<std::string> ref;
  int threads = 0;  // manifest reader threads; 0 = one per core
  // Split planning; negative = the table property or its default.
  int64_t split_target_size = -1;     // read.split.target-size (128 MB)
  int64_t split_open_file_cost = -1;  // read.split.open-file-cost (4 MB)
  int split_lookback = -1;            // read.split.planning-lookback (10)
  // Keep column metrics (sizes, counts, bounds) in the tasks' DataFiles. Planning needs them
  // only to prune; tasks are lighter without them (Java's includeColumnStats).
  bool include_column_stats = false;
  // Streaming: how many file tasks may wait between the manifest readers and the consumer
  // (a bound on planning memory whatever the table size); 0 = 4096 per reader thread.
  int64_t max_buffered_tasks = 0;
  // Plan only these data manifests of the snapshot (by path; others are left out as if the
  // snapshot did not list them): a REST plan task plans one batch of a scan's manifests. Empty
  // = every data manifest. Delete manifests are always read whole.
  std::vector<std::string> data_manifests;
};

// A delete file as a scan task carries it: what readers need to apply it and to match it, in
// 96 bytes. Scans of tables with millions of deletion vectors or file-scoped position deletes
// (workload P3) index every delete file, so the text fields are views into storage shared by the
// delete files of one manifest, kept alive by the DeleteFilePtr that points here: hold the
// pointer, not the object. Rarely set fields (an unusual format spelling, key metadata,
// equality ids, sort order) live in a side record; column metrics and split offsets only when
// the scan keeps column stats. make() builds a standalone one from a DataFile; to_data_file()
// gives the full description back.
class DeleteFile;
using DeleteFilePtr = std::shared_ptr<const DeleteFile>;

class DeleteFile {
 public:
  FileContent content() const { return static_cast<FileContent>(content_); }
  std::string_view file_path() const { return {path_, path_length_}; }
  std::string_view file_format() const;  // as written ("PARQUET", "puffin", ...)
  // Empty: not scoped to one data file by reference.
  std::string_view referenced_data_file() const {
    return flags_ & kTargetIsReference ? target() : std::string_view();
  }
  // The one data file a position-delete file applies to: referenced_data_file, else its equal
  // file_path lower and upper bounds (Java's ContentFileUtil.referencedDataFile); empty when
  // the file may hold deletes for several data files of its partition.
  std::string_view scoped_data_file() const { return target(); }
  int64_t record_count() const { return record_count_; }
  int64_t file_size_in_bytes() const { return file_size_in_bytes_; }
  // Deletion vectors (v3): the blob in the Puffin file.
  std::optional<int64_t> content_offset() const {
    return flags_ & kHasOffset ? std::optional<int64_t>(content_offset_) : std::nullopt;
  }
  std::optional<int64_t> content_size_in_bytes() const {
    return flags_ & kHasSize ? std::optional<int64_t>(content_size_) : std::nullopt;
  }
  int64_t data_sequence_number() const { return data_sequence_number_; }
  int64_t file_sequence_number() const { return file_sequence_number_; }
  int32_t spec_id() const { return spec_id_; }
  std::span<const Literal> partition() const { return {partition_, partition_size_}; }
  std::span<const int32_t> equality_ids() const;  // equality deletes only
  std::string_view key_metadata() const;          // empty: none
  std::optional<int32_t> sort_order_id() const;
  // Column metrics and split offsets, only when the scan keeps column stats
  // (ScanOptions::include_column_stats); null otherwise.
  const DataFile* details() const;

  // The full data_file description.
  DataFile to_data_file() const;
  // A delete file owning copies of `file`'s fields (metrics and split offsets dropped unless
  // `keep_details`).
  static DeleteFilePtr make(const DataFile& file, int64_t data_sequence_number,
                            int64_t file_sequence_number, bool keep_details = false);

  // The rarely set fields.
  struct Extras {
    std::string_view file_format;
    std::string_view key_metadata;
    std::span<const int32_t> equality_ids;
    std::optional<int32_t> sort_order_id;
    const DataFile* details = nullptr;
  };

 private:
  friend class DeleteFileBuilder;
  static constexpr uint8_t kHasOffset = 1, kHasSize = 2, kTargetIsReference = 4;
  std::string_view target() const { return {target_, target_length_}; }

  const char* path_ = nullptr;
  const char* target_ = nullptr;  // referenced_data_file or the file_path bounds
  const Literal* partition_ = nullptr;
  const Extras* extras_ = nullptr;
  int64_t record_count_ = 0;
  int64_t file_size_in_bytes_ = 0;
  int64_t content_offset_ = 0;
  int64_t content_size_ = 0;
  int64_t data_sequence_number_ = 0;
  int64_t file_sequence_number_ = 0;
  uint32_t path_length_ = 0;
  uint32_t target_length_ = 0;
  int32_t spec_id_ = 0;
  uint16_t partition_size_ = 0;
  uint8_t content_ = 0;
  uint8_t format_ : 4 = 0;  // an index into the usual spellings; 0 = in extras
  uint8_t flags_ : 4 = 0;
};

// The delete files of one task, in sequence-number order. Shared, not copied: the data files of
// one partition and sequence number hold one list, and a file with a single delete (a DV, a
// file-scoped position file) holds just that delete, so attaching deletes costs one reference
// count whatever the number of delete files.
class DeleteFileList {
 public:
  DeleteFileList() = default;
  explicit DeleteFileList(DeleteFilePtr one) : one_(std::move(one)) {}
  explicit DeleteFileList(std::shared_ptr<const std::vector<DeleteFilePtr>> many)
      : many_(std::move(many)) {}
  explicit DeleteFileList(std::vector<DeleteFilePtr> files)
      : many_(std::make_shared<const std::vector<DeleteFilePtr>>(std::move(files))) {}

  const DeleteFilePtr* begin() const { return many_ ? many_->data() : (one_ ? &one_ : nullptr); }
  const DeleteFilePtr* end() const { return begin() + size(); }
  size_t size() const { return many_ ? many_->size() : (one_ ? 1 : 0); }
  bool empty() const { return size() == 0; }
  const DeleteFilePtr& operator[](size_t i) const { return begin()[i]; }

 private:
  DeleteFilePtr one_;
  std::shared_ptr<const std::vector<DeleteFilePtr>> many_;
};

// One data file (or a byte range of it) to read, with the deletes that apply and the filter
// its rows still have to pass.
struct FileScanTask {
  std::shared_ptr<const DataFile> file;
  int64_t data_sequence_number = 0;
  int64_t start = 0;
  int64_t length = 0;
  DeleteFileList deletes;
  ExprPtr residual;
};

// Tasks bin-packed to about read.split.target-size bytes.
struct CombinedScanTask {
  std::vector<FileScanTask> tasks;
  int64_t total_bytes = 0;
};

// The planning funnel (what EXPLAIN prints).
struct ScanReport {
  int64_t snapshot_id = -1;
  int32_t schema_id = 0;
  std::string filter;  // bound filter text
  int64_t total_data_manifests = 0;
  int64_t skipped_data_manifests = 0;
  int64_t scanned_data_manifests = 0;
  int64_t total_delete_manifests = 0;
  int64_t skipped_delete_manifests = 0;
  int64_t scanned_delete_manifests = 0;
  int64_t total_data_files = 0;  // live data files in the scanned manifests
  int64_t skipped_data_files = 0;
  int64_t scanned_data_files = 0;
  int64_t total_delete_files = 0;      // live delete files in the scanned delete manifests
  int64_t skipped_delete_files = 0;    // pruned by the filter
  int64_t matched_delete_files = 0;    // distinct delete files attached to some data file
  int64_t matched_delete_refs = 0;     // (data file, delete file) pairs
  std::vector<std::string> residuals;  // distinct residual filters
  double planning_ms = 0;
  int64_t io_requests = 0;
  int64_t io_bytes = 0;
  int64_t tasks = 0;
  int64_t task_bytes = 0;
  int threads = 1;
  // Streaming instrumentation: the most file tasks ever held at once between the manifest
  // readers and the consumer (queued or being handed over; each reader also fills one chunk
  // of 128 before queueing it). Bounded by max_buffered_tasks plus a few chunks.
  int64_t peak_buffered_tasks = 0;
};

// Consumers of streamed planning. Called on the thread that called plan_files/plan_tasks, in
// manifest order; return false to stop planning early.
using FileTaskSink = std::function<bool(FileScanTask&&)>;
using CombinedTaskSink = std::function<bool(CombinedScanTask&&)>;

class TableScan {
 public:
  static Result<TableScan> make(FileIOPtr io, std::shared_ptr<const TableMetadata> table,
                                ScanOptions options = {});

  // The snapshot being scanned (nullptr for a table without snapshots).
  const Snapshot* snapshot() const { return snapshot_; }
  const Schema& schema() const { return *schema_; }
  // The bound filter (always_true() when none was given).
  const ExprPtr& filter() const { return filter_; }

  // The snapshot's data manifests planning reads (within ScanOptions::data_manifests): those
  // that may hold live files and whose partition summaries might match the filter. Reads only
  // the manifest list.
  Result<std::vector<ManifestFile>> matching_data_manifests() const;

  // One task per surviving data file, in manifest order, streamed to `sink` as manifests are
  // read: data manifests are read in parallel (ScanOptions::threads) into a bounded queue
  // (ScanOptions::max_buffered_tasks), so memory does not grow with the table. Delete manifests
  // are read completely first (the delete index must be whole before any data file is matched).
  Status plan_files(const FileTaskSink& sink);
  // Files split at their split offsets and bin-packed (read.split.* properties), streamed: a
  // combined task is handed over when it leaves the planning-lookback window of open bins.
  Status plan_tasks(const CombinedTaskSink& sink);

  // The same, materialised.
  Result<std::vector<FileScanTask>> plan_files();
  Result<std::vector<CombinedScanTask>> plan_tasks();

  const ScanReport& report() const { return report_; }

 private:
  TableScan() = default;
  struct SplitSettings {
    int64_t target = 0;
    int64_t open_cost = 0;
    int lookback = 1;
  };
  SplitSettings split_settings() const;

  FileIOPtr io_;
  std::shared_ptr<const TableMetadata> table_;
  ScanOptions options_;
  const Snapshot* snapshot_ = nullptr;
  const Schema* schema_ = nullptr;
  ExprPtr filter_;
  ScanReport report_;
};

// Splits one file task at its split offsets into ranges of about target_size bytes.
std::vector<FileScanTask> split_file_task(const FileScanTask& task, int64_t target_size);
// Bin-packs tasks (each weighing max(length, open_file_cost)) into bins of target_size, looking
// back over the last `lookback` open bins (Java's BinPacking.PackingIterable).
std::vector<CombinedScanTask> bin_pack_tasks(std::vector<FileScanTask> tasks, int64_t target_size,
                                             int64_t open_file_cost, int lookback);

// The streaming form of bin_pack_tasks: add() tasks one at a time; a bin is handed to the sink
// when it is closed (the lookback window is full), and finish() flushes the open bins. Holds at
// most `lookback` bins.
class BinPacker {
 public:
  BinPacker(int64_t target_size, int64_t open_file_cost, int lookback,
            std::function<bool(CombinedScanTask&&)> sink);
  // False once the sink asked to stop.
  bool add(FileScanTask task);
  bool finish();

 private:
  int64_t target_;
  int64_t open_cost_;
  size_t lookback_;
  std::function<bool(CombinedScanTask&&)> sink_;
  std::deque<CombinedScanTask> open_;
  std::deque<int64_t> weights_;
};

}  // namespace floe
