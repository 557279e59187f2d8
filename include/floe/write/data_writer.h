// The write path below the snapshot producers: ColumnBatches of a table's schema become data
// files (Parquet, or Avro with Iceberg's Avro schema mapping) plus the DataFile entries a
// commit adds to manifests. Metrics follow the table's write.metadata.metrics.* properties,
// files roll at write.target-file-size-bytes, rows fan out to one writer per partition of the
// default spec, and files land under Java's layout:
// <data dir>/<name>=<value>/.../<partitionId>-<taskId>-<operation uuid>-<counter>.<ext>.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/format/avro/container.h"
#include "floe/format/parquet/writer.h"
#include "floe/io/file_io.h"
#include "floe/manifest/manifest.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/table_metadata.h"

namespace floe {

// How a table writes, read from its properties (names and defaults of the Java implementation).
struct WriteOptions {
  std::string format = "parquet";          // write.format.default: parquet | avro
  int64_t target_file_size = 512LL << 20;  // write.target-file-size-bytes
  // Codec, sizes, metrics modes (also used for Avro); with parquet.threads > 1 every Parquet
  // file of a TableWriter runs on one pool of that many threads.
  parquet::WriterOptions parquet;
  avro::Codec avro_codec = avro::Codec::kDeflate;  // write.avro.compression-codec (gzip)
  int avro_level = -1;                             // write.avro.compression-level
  std::string data_location;                       // write.data.path, else <table location>/data
  // write.object-storage.enabled: Java's ObjectStoreLocationProvider (20 bits of murmur3 of the
  // file name as directories 0101/1100/0011/10101010 after the data location).
  bool object_storage = false;
  bool object_storage_partitioned_paths = true;  // write.object-storage.partitioned-paths
  std::string object_storage_context;    // "<db>/<table>" when the data is outside the table
  std::optional<int32_t> sort_order_id;  // stamped on every data file when set
  // One open file per partition (true) or clustered input: a partition's file closes when the
  // next partition starts and a partition seen before is an error (false).
  // write.spark.fanout.enabled=false selects clustered.
  bool fanout = true;
  int32_t partition_id = 0;  // Spark's partition id in file names
  int64_t task_id = 0;
  std::string operation_id;  // uuid in file names; empty = a random one per writer

  static Result<WriteOptions> from_properties(const std::map<std::string, std::string>& props,
                                              const Schema& schema, const std::string& location,
                                              const SortOrder* sort_order = nullptr);
  // From the table's current schema, properties, location and default sort order (sorted
  // columns get truncate(16) bounds when the default mode is none or counts, as in Java).
  static Result<WriteOptions> from_table(const TableMetadata& table);
};

// Names files that never collide: Java's "%05d-%d-%s-%05d.<ext>" (partition id, task id,
// operation uuid, counter from 1) under the data location and a partition path, or under
// Java's object-storage hash directories. Thread-unsafe.
class OutputFileFactory {
 public:
  OutputFileFactory(const WriteOptions& options, std::string extension);
  // `partition_path` may be empty (unpartitioned). `suffix` ("deletes" for delete files, as in
  // Java) is appended to the name with a dash.
  std::string next_path(const std::string& partition_path, std::string_view suffix = {});
  const std::string& operation_id() const { return operation_id_; }

 private:
  WriteOptions options_;
  std::string operation_id_;
  std::string extension_;
  int64_t counter_ = 0;
};

// Java's ObjectStoreLocationProvider.computeHash: the low 20 bits of murmur3_32 of the name as
// "bbbb/bbbb/bbbb/bbbbbbbb".
std::string object_storage_hash_dirs(std::string_view name);

// "parquet" -> ".parquet", "avro" -> ".avro"; other formats are kNotSupported.
Result<std::string> file_extension(const std::string& format);

// A DataFile of the given content from a written file's metrics (the manifest entry of a file
// written by floe's Parquet or Avro writer).
DataFile to_data_file(const DataFileMetrics& m, FileContent content, std::string path,
                      std::string format, std::vector<Literal> partition, int32_t spec_id);

class FileAppender;

// Writes the rows of one partition (or of an unpartitioned table) into one or more data files,
// rolling to a new file when the current one reaches the target size. Every file becomes one
// DataFile with the partition tuple, metrics and spec id given here.
class DataFileWriter {
 public:
  static Result<std::unique_ptr<DataFileWriter>> make(FileIOPtr io,
                                                      std::shared_ptr<const Schema> schema,
                                                      const WriteOptions& options,
                                                      OutputFileFactory* files,
                                                      std::vector<Literal> partition,
                                                      std::string partition_path, int32_t spec_id);
  ~DataFileWriter();

  // Columns are the schema's top-level fields in order, of exactly the schema's types.
  Status write(const ColumnBatch& batch);
  // Closes the open file; returns every file written by this writer.
  Result<std::vector<DataFile>> close();
  // Deletes every file this writer wrote (also after close()).
  Status abort();
  int64_t rows_written() const { return rows_written_; }

 private:
  DataFileWriter() = default;
  Status open_file();
  Status close_file();
  Status write_chunk(const ColumnBatch& batch);

  FileIOPtr io_;
  std::shared_ptr<const Schema> schema_;
  WriteOptions options_;
  OutputFileFactory* files_ = nullptr;
  std::vector<Literal> partition_;
  std::string partition_path_;
  int32_t spec_id_ = 0;
  std::unique_ptr<FileAppender> appender_;
  std::string current_path_;
  int64_t rows_in_file_ = 0;
  int64_t rows_written_ = 0;
  std::vector<DataFile> written_;
};

// Writes batches of a table's current schema under its default partition spec: computes each
// row's partition tuple column-wise, groups rows per partition, and feeds one DataFileWriter
// per partition (fan-out) or one at a time (clustered). close() hands back every DataFile for
// the commit; abort() removes every file written if the commit fails.
class TableWriter {
 public:
  static Result<std::unique_ptr<TableWriter>> make(FileIOPtr io, const TableMetadata& table,
                                                   std::optional<WriteOptions> options = {});
  // Same with an explicit schema and spec (the spec's fields must resolve in the schema);
  // options.data_location must be set.
  static Result<std::unique_ptr<TableWriter>> make(FileIOPtr io,
                                                   std::shared_ptr<const Schema> schema,
                                                   std::shared_ptr<const PartitionSpec> spec,
                                                   WriteOptions options);
  ~TableWriter();

  // Rows in an order the caller supplies (the table's sort order, sorted by the SQL engine):
  // batches are checked and held until close(), which hands them all, concatenated, to
  // `order` and writes the rows it returns, so every file holds its rows in that order and
  // carries `sort_order_id`. Set before the first write.
  using RowOrder = std::function<Result<ColumnBatch>(ColumnBatch all)>;
  void order_rows(RowOrder order, int32_t sort_order_id);

  // Columns are the schema's top-level fields in order.
  Status write(const ColumnBatch& batch);
  Result<std::vector<DataFile>> close();
  Status abort();
  int64_t rows_written() const { return rows_written_; }
  const std::string& operation_id() const { return files_->operation_id(); }

 private:
  TableWriter() = default;
  Result<DataFileWriter*> writer_for(const std::vector<Literal>& partition);
  Status write_rows(const ColumnBatch& batch);
  Status retire_current();

  FileIOPtr io_;
  std::shared_ptr<const Schema> schema_;
  std::shared_ptr<const PartitionSpec> spec_;
  WriteOptions options_;
  std::unique_ptr<OutputFileFactory> files_;
  std::map<std::string, std::unique_ptr<DataFileWriter>> open_;  // by partition key
  std::map<std::string, bool> closed_keys_;                      // clustered mode
  std::vector<std::unique_ptr<DataFileWriter>> retired_;
  int64_t rows_written_ = 0;
  bool closed_ = false;
  RowOrder order_;
  std::vector<ColumnBatch> held_;  // batches waiting for order_
};

// Rows of a batch that share one partition tuple (in order of first appearance).
struct PartitionGroup {
  std::vector<Literal> partition;  // one per spec field, transform results or nulls
  std::vector<int32_t> rows;       // ascending row indices
};

// Groups a batch's rows by partition tuple. Transforms run column-wise on fast paths (identity,
// bucket, truncate, time transforms over the common types); Transform::apply computes each
// distinct tuple's values once. Source columns may be nested in structs (a null parent makes
// the value null).
Result<std::vector<PartitionGroup>> group_by_partition(const PartitionSpec& spec,
                                                       const Schema& schema,
                                                       const ColumnBatch& batch);

}  // namespace floe
