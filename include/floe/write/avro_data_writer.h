// Avro data files as Iceberg writes them: the table schema mapped to Avro with a field-id on
// every field (element-id / key-id / value-id on collections), optional fields as a union with
// null first and default null, date as int/date, time as long/time-micros, timestamps as long
// with timestamp-micros (or -nanos) and adjust-to-utc, uuid as fixed(16), decimals as fixed of
// the minimal size, maps with non-string keys as arrays of key/value records. Metrics (value,
// null and NaN counts, bounds per metrics mode) are computed while encoding since Avro has no
// footer statistics.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "floe/columnar/column_vector.h"
#include "floe/format/avro/container.h"
#include "floe/io/file_io.h"
#include "floe/spec/file_metrics.h"
#include "floe/spec/metrics_config.h"
#include "floe/spec/schema.h"

namespace floe {

// The Iceberg Avro schema JSON of a table schema (record name "table", structs "r<id>").
std::string iceberg_avro_schema_json(const Schema& schema);

class AvroDataWriter {
 public:
  // `metrics` gives each column's metrics mode; the file is written with kCreateNew on close().
  // `metadata` is added to the container's file metadata (e.g. delete-type of delete files).
  static Result<std::unique_ptr<AvroDataWriter>> open(
      FileIOPtr io, std::string path, const Schema& schema, const MetricsConfig& metrics,
      avro::ContainerWriterOptions container = {},
      const std::map<std::string, std::string>& metadata = {});
  ~AvroDataWriter();

  Status write(const ColumnBatch& batch);
  int64_t estimated_size() const;
  Result<DataFileMetrics> close();

  struct Impl;

 private:
  AvroDataWriter() = default;
  std::unique_ptr<Impl> impl_;
};

}  // namespace floe
