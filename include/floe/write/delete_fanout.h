// The delete files of a merge-on-read DELETE / UPDATE / MERGE or of CDC, fanned out the way
// Java's Spark writers do.
//
// PositionDeleteFanout takes the deleted positions of data files and writes, for a v2 table,
// position delete files in the table's delete format (one per data file at granularity `file`,
// one per partition of each spec at granularity `partition`; rows sorted by path then position;
// each file under the partition spec and tuple of the data files it deletes from, named
// <data location>/<partition path>/<partition id>-<task id>-<operation id>-<n>-deletes.<ext> and
// rolled at write.delete.target-file-size-bytes), and for a v3 table one deletion vector per
// data file, all in one Puffin file <data location>/...-deletes.puffin. A data file that already
// has a deletion vector gets a new one holding the union, and close() reports the old one as
// replaced (the commit removes it).
//
// EqualityDeleteFanout writes equality delete rows under the table's current partition spec
// (the rows carry the partition source columns), one rolling writer per partition.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/io/file_io.h"
#include "floe/manifest/manifest.h"
#include "floe/spec/table_metadata.h"
#include "floe/write/data_writer.h"
#include "floe/write/delete_writer.h"

namespace floe {

// write.delete.granularity: one position delete file per data file, or per partition.
enum class DeleteGranularity { kFile, kPartition };

std::string_view to_string(DeleteGranularity g);
// From table properties: "file" or "partition" (any case); unset is "file", as Spark writes
// since Iceberg 1.8. Another value is kInvalidArgument naming the property.
Result<DeleteGranularity> delete_granularity_of(const std::map<std::string, std::string>& props);

class PositionDeleteFanout {
 public:
  struct Written {
    std::vector<DataFile> delete_files;  // new delete files (DVs: one entry per data file)
    std::vector<DataFile> replaced_dvs;  // deletion vectors the new ones replace
  };

  // `options`: default delete_write_options(table); `granularity`: default from the table's
  // properties (v3 writes one deletion vector per data file whatever it is).
  static Result<std::unique_ptr<PositionDeleteFanout>> make(
      FileIOPtr io, const TableMetadata& table, std::optional<WriteOptions> options = {},
      std::optional<DeleteGranularity> granularity = {});
  ~PositionDeleteFanout();

  // Deletes `positions` (any order; duplicates are dropped) of `data_file`, a data file of the
  // table: its spec id must be one of the table's and its partition tuple must fit that spec.
  // Repeated calls for one data file add up.
  Status add(const DataFile& data_file, std::span<const int64_t> positions);
  // v3: `data_file_path` already has the deletion vector `dv` (a PUFFIN position-delete entry
  // referencing it). Its positions are read at close() and written with the new ones; the entry
  // is reported in Written::replaced_dvs. Only data files that get new positions are rewritten.
  Status set_existing_dv(const std::string& data_file_path, const DataFile& dv);
  // Writes every file. Call once.
  Result<Written> close();
  // Deletes every file written (also after close()).
  Status abort();

  int format_version() const { return format_version_; }
  DeleteGranularity granularity() const { return granularity_; }
  const std::string& operation_id() const;

 private:
  PositionDeleteFanout() = default;
  struct DataFileDeletes {
    int32_t spec_id = 0;
    std::vector<Literal> partition;
    std::string partition_key;
    int64_t record_count = 0;  // of the data file; 0 when unknown
    std::vector<int64_t> positions;
  };
  // The positions of `dv`, none at or past the data file's `record_count` (when known).
  Result<std::vector<int64_t>> existing_positions(const std::string& path, const DataFile& dv,
                                                  int64_t record_count) const;
  Status write_position_files(Written* out);
  Status write_deletion_vectors(Written* out);
  Status write_group(const std::vector<const std::pair<const std::string, DataFileDeletes>*>& group,
                     std::vector<DataFile>* out);

  FileIOPtr io_;
  std::map<int32_t, std::shared_ptr<const PartitionSpec>> specs_;
  WriteOptions options_;
  DeleteGranularity granularity_ = DeleteGranularity::kFile;
  int format_version_ = 2;
  std::unique_ptr<OutputFileFactory> files_;         // position delete files
  std::unique_ptr<OutputFileFactory> puffin_files_;  // v3
  std::map<std::string, DataFileDeletes, std::less<>> by_path_;
  std::map<std::string, DataFile, std::less<>> existing_dvs_;
  std::vector<std::string> written_;
  bool closed_ = false;
};

class EqualityDeleteFanout {
 public:
  // `delete_schema`: columns of the table's current schema (same ids and types) including the
  // source columns of the current spec's fields; `equality_ids` name primitive fields of it.
  static Result<std::unique_ptr<EqualityDeleteFanout>> make(
      FileIOPtr io, const TableMetadata& table, std::shared_ptr<const Schema> delete_schema,
      std::vector<int32_t> equality_ids, std::optional<WriteOptions> options = {});
  ~EqualityDeleteFanout();

  // Columns are the delete schema's top-level fields in order.
  Status write(const ColumnBatch& batch);
  Result<std::vector<DataFile>> close();
  Status abort();
  int32_t spec_id() const { return spec_->spec_id(); }
  int64_t rows_written() const { return rows_; }

 private:
  EqualityDeleteFanout() = default;
  struct Partition {
    std::vector<Literal> values;
    std::string path;
    std::unique_ptr<EqualityDeleteWriter> open;
  };
  Status write_rows(Partition& p, const ColumnBatch& rows);

  FileIOPtr io_;
  std::shared_ptr<const Schema> schema_;
  std::shared_ptr<const PartitionSpec> spec_;
  std::vector<int32_t> equality_ids_;
  WriteOptions options_;
  std::unique_ptr<OutputFileFactory> files_;
  std::map<std::string, Partition> partitions_;  // by partition key
  std::vector<DataFile> done_;
  std::vector<std::string> written_;
  int64_t rows_ = 0;
  bool closed_ = false;
};

}  // namespace floe
