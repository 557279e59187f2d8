// One open data file of either format behind a common interface, so rolling and partition
// fan-out do not care which format the table writes.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/write/avro_data_writer.h"
#include "floe/write/data_writer.h"

namespace floe {

class FileAppender {
 public:
  virtual ~FileAppender() = default;
  virtual Status write(const ColumnBatch& batch) = 0;
  virtual int64_t estimated_size() const = 0;
  virtual Result<DataFileMetrics> close() = 0;
};

// `extra`: footer entries after iceberg.schema in Parquet, file metadata in Avro (delete-type,
// delete-field-ids of delete files).
Result<std::unique_ptr<FileAppender>> open_appender(FileIOPtr io, const std::string& path,
                                                    const Schema& schema,
                                                    const WriteOptions& options,
                                                    std::vector<parquet::KeyValue> extra = {});

// A map key for a partition tuple that tells null from every value.
std::string partition_key(const std::vector<Literal>& values);

// Equality field ids must name primitive fields of the delete schema; `what` starts errors.
Status check_equality_ids(const Schema& delete_schema, const std::vector<int32_t>& ids,
                          std::string_view what);

// "PARQUET" or "AVRO", as Java names the formats in manifests.
std::string manifest_format_name(const std::string& format);

// One position delete file being written: rows go in as sorted runs of one data file's
// positions; the caller writes data files in ascending path order and each one's positions
// ascending and unique. Metrics are full for both columns.
class PositionDeleteAppender {
 public:
  static Result<std::unique_ptr<PositionDeleteAppender>> open(FileIOPtr io, std::string path,
                                                              WriteOptions options);
  Status write(std::string_view data_file_path, std::span<const int64_t> positions);
  int64_t estimated_size() const;
  int64_t rows() const { return rows_; }
  const std::string& path() const { return path_; }
  // The DataFile of the written file; referenced_data_file is set when it names one data file.
  Result<DataFile> close(int32_t spec_id, std::vector<Literal> partition);

 private:
  PositionDeleteAppender() = default;
  std::string path_;
  std::string format_;
  std::unique_ptr<FileAppender> appender_;
  std::string first_path_;
  bool one_path_ = true;
  int64_t rows_ = 0;
};

// `o` plus the footer entries Java writes: iceberg.schema, then `extra` (delete-type, ...).
parquet::WriterOptions with_iceberg_schema(parquet::WriterOptions o, const Schema& schema,
                                           std::vector<parquet::KeyValue> extra = {});

}  // namespace floe
