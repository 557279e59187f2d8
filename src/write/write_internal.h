// One open data file of either format behind a common interface, so rolling and partition
// fan-out do not care which format the table writes.
#pragma once

#include <memory>
#include <string>

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

Result<std::unique_ptr<FileAppender>> open_appender(FileIOPtr io, const std::string& path,
                                                    const Schema& schema,
                                                    const WriteOptions& options);

// `o` plus the footer entries Java writes: iceberg.schema, then `extra` (delete-type, ...).
parquet::WriterOptions with_iceberg_schema(parquet::WriterOptions o, const Schema& schema,
                                           std::vector<parquet::KeyValue> extra = {});

// A DataFile of the given content from a written file's metrics.
DataFile to_data_file(const DataFileMetrics& m, FileContent content, std::string path,
                      std::string format, std::vector<Literal> partition, int32_t spec_id);

}  // namespace floe
