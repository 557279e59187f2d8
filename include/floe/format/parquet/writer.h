// ParquetWriter: writes ColumnBatches of an Iceberg schema as a Parquet file the way Iceberg
// needs it: field ids on every node (except the repeated list/key_value groups), zstd by
// default, dictionary encoding with fallback to PLAIN, row groups and pages by size, column
// statistics, and on close the per-column metrics Iceberg stores in manifests (value, null and
// NaN counts, lower/upper bounds per metrics mode, column sizes) plus split offsets.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/format/parquet/metadata.h"
#include "floe/io/file_io.h"
#include "floe/spec/file_metrics.h"
#include "floe/spec/metrics_config.h"
#include "floe/spec/schema.h"

namespace floe {
class ThreadPool;
}

namespace floe::parquet {

struct WriterOptions {
  Codec codec = Codec::kZstd;                // write.parquet.compression-codec
  int compression_level = 3;                 // write.parquet.compression-level (zstd, gzip)
  int64_t row_group_size_bytes = 128 << 20;  // write.parquet.row-group-size-bytes
  int64_t page_size_bytes = 1 << 20;         // write.parquet.page-size-bytes
  int64_t page_row_limit = 20000;            // write.parquet.page-row-limit
  bool dictionary_enabled = true;
  int64_t dict_size_bytes = 2 << 20;  // write.parquet.dict-size-bytes
  // Ids of int and long columns whose pages are DELTA_BINARY_PACKED instead of dictionary or
  // PLAIN: sorted values such as a position delete file's positions take a few bits each.
  std::vector<int32_t> delta_fields;
  MetricsConfig metrics;                     // write.metadata.metrics.*
  std::vector<KeyValue> key_value_metadata;  // footer key/value pairs
  std::string created_by = "floe version 0.1.0";
  // Threads encoding columns in parallel and compressing their pages while encoding goes on (1:
  // the calling thread only). The file is the same for any number.
  int threads = 1;
  // A pool to run on instead of a pool of `threads` of its own (e.g. one pool for every file of
  // a table write); its size counts as the threads. Jobs of several writers may share it.
  std::shared_ptr<ThreadPool> pool;

  // From Iceberg table properties (names and defaults of the Java implementation).
  static Result<WriterOptions> from_properties(const std::map<std::string, std::string>& props,
                                               const Schema& schema);
};

class ParquetWriter {
 public:
  static Result<std::unique_ptr<ParquetWriter>> open(FileIOPtr io, std::string path,
                                                     const Schema& schema,
                                                     WriterOptions options = {});
  ~ParquetWriter();

  // Columns are matched to the schema's top-level fields by position; types must match.
  Status write(const ColumnBatch& batch);
  // Flushes the last row group, writes the footer and the file; returns the metrics.
  Result<DataFileMetrics> close();
  // Bytes buffered or written so far (for rolling files by size). With threads, it first waits
  // for the pages still compressing, so that it does not depend on their timing.
  int64_t estimated_size() const;

  struct Impl;

 private:
  ParquetWriter() = default;
  std::unique_ptr<Impl> impl_;
};

}  // namespace floe::parquet
