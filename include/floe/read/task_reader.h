// Reading planned scan tasks into column batches (spec "Scan Planning" and "Row-level
// Deletes"): columns projected by field id with schema evolution (renamed columns follow their
// ids; added columns read as their identity-partition value, initial-default or null; promoted
// types widen), row groups pruned with the residual, then position deletes, deletion vectors and
// equality deletes applied, then the residual filter.
//
// One ScanReader serves a whole scan: each delete file is read once and shared by every data
// file it applies to. It is safe to call read() from several threads.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/read/position_delete_set.h"
#include "floe/read/puffin.h"
#include "floe/scan/table_scan.h"
#include "floe/util/once_cache.h"

namespace floe {

struct ReadStats {
  std::atomic<int64_t> files{0};
  std::atomic<int64_t> row_groups_read{0};
  std::atomic<int64_t> row_groups_skipped{0};
  std::atomic<int64_t> rows_read{0};
  std::atomic<int64_t> rows_deleted{0};   // by position, DV or equality deletes
  std::atomic<int64_t> rows_filtered{0};  // by the residual
  std::atomic<int64_t> delete_files_loaded{0};
};

class ScanReader {
 public:
  // `schema`: the schema rows are read with (the scan's); `projection`: top-level field ids
  // to output, in order (empty = every column of the schema).
  ScanReader(FileIOPtr io, std::shared_ptr<const TableMetadata> table, const Schema& schema,
             std::vector<int32_t> projection = {});

  using BatchSink = std::function<Status(ColumnBatch&&)>;
  // Reads one task; batches go to `sink` (at most one Parquet reader batch of rows each, empty
  // ones skipped).
  Status read(const FileScanTask& task, const BatchSink& sink);

  // The output fields (projected columns of the schema).
  const std::vector<NestedField>& fields() const { return fields_; }
  const ReadStats& stats() const { return stats_; }

 private:
  struct EqualityDeletes;
  struct FileDeletes;
  // Each delete file and Puffin footer is loaded once per scan, even when tasks on several
  // threads need it at the same time.
  Result<std::shared_ptr<const FileDeletes>> position_deletes_of(const DeleteFile& d);
  Result<std::shared_ptr<const FileDeletes>> load_position_deletes(const DeleteFile& d);
  Result<std::shared_ptr<const EqualityDeletes>> equality_deletes_of(const DeleteFile& d);
  Result<std::shared_ptr<const EqualityDeletes>> load_equality_deletes(const DeleteFile& d);
  Result<std::shared_ptr<const PositionDeleteSet>> positions_for(const FileScanTask& task);
  Result<std::vector<std::shared_ptr<const EqualityDeletes>>> equality_sets_for(
      const FileScanTask& task);
  Result<std::shared_ptr<const PuffinFooter>> puffin_footer_of(const DeleteFile& puffin);
  Result<std::shared_ptr<const PuffinFooter>> load_puffin_footer(const DeleteFile& puffin);
  // A task's deletes, residual and columns to read, shared by the Parquet and Avro paths.
  struct TaskState;
  Result<std::vector<ColumnBatch>> read_all(const DeleteFile& file,
                                            const std::vector<NestedField>& fields,
                                            const std::optional<std::string>& name_mapping);
  Status read_parquet(const FileScanTask& task, TaskState& state, const BatchSink& sink);
  Status read_avro(const FileScanTask& task, TaskState& state, const BatchSink& sink);
  // Projects one raw batch (file rows [first_row, first_row + num_rows)) to the output
  // fields, applies deletes and the residual, and hands the survivors to `sink`.
  Status process_batch(TaskState& state, ColumnBatch& raw, int64_t first_row,
                       const BatchSink& sink);

  FileIOPtr io_;
  std::shared_ptr<const TableMetadata> table_;
  const Schema& schema_;
  std::vector<NestedField> fields_;
  std::optional<std::string> name_mapping_;
  ReadStats stats_;
  OnceCache<FileDeletes> position_cache_;
  OnceCache<EqualityDeletes> equality_cache_;  // by file, and merged sets by their file list
  OnceCache<PuffinFooter> puffin_cache_;
};

// Plans `scan` and reads every task, `threads` at a time (0 = one per core), delivering batches
// in task order. `columns` are names in the scan's schema (empty = all). A sink error stops the
// scan and is returned (ErrorKind::kCancelled is how a sink asks to stop early).
struct ReadSummary {
  int64_t files = 0;
  int64_t row_groups_read = 0;
  int64_t row_groups_skipped = 0;
  int64_t rows_read = 0;
  int64_t rows_deleted = 0;
  int64_t rows_filtered = 0;
  int64_t delete_files_loaded = 0;
};
Result<ReadSummary> read_scan(TableScan& scan, FileIOPtr io,
                              std::shared_ptr<const TableMetadata> table,
                              const std::vector<std::string>& columns,
                              const ScanReader::BatchSink& sink, int threads = 0);

}  // namespace floe
