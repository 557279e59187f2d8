// Delete files in Parquet or Avro (Iceberg spec, "Delete Formats"). PositionDeleteWriter
// collects (data file path, position) pairs and writes them sorted by path then position, each
// pair once, with the reserved columns file_path (2147483546) and pos (2147483545). Their metrics
// are Java's: column sizes, no counts, and bounds plus referenced_data_file only when every row
// names one data file. EqualityDeleteWriter
// writes rows of a delete schema (columns of the table schema) and records the equality field
// ids. Both stamp the footer (Parquet key/value metadata, Avro file metadata) with delete-type
// and, for equality deletes, delete-field-ids, as Java does.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/format/parquet/writer.h"
#include "floe/io/file_io.h"
#include "floe/manifest/manifest.h"
#include "floe/spec/schema.h"
#include "floe/spec/table_metadata.h"
#include "floe/write/data_writer.h"

namespace floe {

constexpr int32_t kDeleteFilePathFieldId = 2147483546;
constexpr int32_t kDeleteFilePosFieldId = 2147483545;

// The position delete file schema: file_path string, pos long (both required).
const Schema& position_delete_schema();

// How a table writes delete files, from its properties with Java's names and fallbacks:
// write.delete.format.default (else write.format.default; parquet | avro),
// write.delete.parquet.{compression-codec, compression-level, row-group-size-bytes,
// page-size-bytes, page-row-limit, dict-size-bytes} and write.delete.avro.{compression-codec,
// compression-level} (each else its write.parquet.* / write.avro.* twin), target_file_size from
// write.delete.target-file-size-bytes (64 MB), data location and metrics as for data files.
Result<WriteOptions> delete_write_options(const std::map<std::string, std::string>& props,
                                          const Schema& schema, const std::string& location,
                                          const SortOrder* sort_order = nullptr);
Result<WriteOptions> delete_write_options(const TableMetadata& table);

class PositionDeleteWriter {
 public:
  // `options` supplies format, codecs and sizes (its metrics modes do not apply: see above).
  // The Parquet-only form writes Parquet.
  PositionDeleteWriter(FileIOPtr io, std::string path, WriteOptions options, int32_t spec_id = 0,
                       std::vector<Literal> partition = {});
  PositionDeleteWriter(FileIOPtr io, std::string path, parquet::WriterOptions options,
                       int32_t spec_id = 0, std::vector<Literal> partition = {});

  void add(std::string_view data_file_path, int64_t pos);
  // Many positions of one data file, in any order.
  void add(std::string_view data_file_path, std::span<const int64_t> positions);
  // Rows of a batch with a file_path string column and a pos long column (by field id).
  Status add(const ColumnBatch& batch);
  // Pairs added so far (before duplicates are dropped).
  int64_t size() const { return size_; }
  // Writes the file (an empty writer writes nothing and returns nullopt).
  Result<std::optional<DataFile>> close();
  // Deletes the file if close() wrote it.
  Status abort();

 private:
  void delta_encode_positions();

  FileIOPtr io_;
  std::string path_;
  WriteOptions options_;
  int32_t spec_id_;
  std::vector<Literal> partition_;
  std::map<std::string, std::vector<int64_t>, std::less<>> by_path_;
  int64_t size_ = 0;
  bool written_ = false;
};

class FileAppender;

class EqualityDeleteWriter {
 public:
  // `delete_schema` is the rows' schema (columns of the table schema with their ids);
  // `equality_ids` must name primitive fields of it. `options` gives the format (parquet or
  // avro), codecs and metrics.
  static Result<std::unique_ptr<EqualityDeleteWriter>> open(
      FileIOPtr io, std::string path, std::shared_ptr<const Schema> delete_schema,
      std::vector<int32_t> equality_ids, const WriteOptions& options, int32_t spec_id = 0,
      std::vector<Literal> partition = {}, std::optional<int32_t> sort_order_id = {});
  // The same in Parquet.
  static Result<std::unique_ptr<EqualityDeleteWriter>> open(
      FileIOPtr io, std::string path, std::shared_ptr<const Schema> delete_schema,
      std::vector<int32_t> equality_ids, parquet::WriterOptions options, int32_t spec_id = 0,
      std::vector<Literal> partition = {}, std::optional<int32_t> sort_order_id = {});
  ~EqualityDeleteWriter();

  Status write(const ColumnBatch& batch);
  // Bytes written or buffered so far (for rolling files by size).
  int64_t estimated_size() const;
  int64_t rows_written() const { return rows_; }
  Result<DataFile> close();
  Status abort();
  const std::string& path() const { return path_; }

 private:
  EqualityDeleteWriter() = default;
  FileIOPtr io_;
  std::string path_;
  std::string format_;  // "PARQUET" or "AVRO"
  std::vector<int32_t> equality_ids_;
  int32_t spec_id_ = 0;
  std::vector<Literal> partition_;
  std::optional<int32_t> sort_order_id_;
  std::unique_ptr<FileAppender> appender_;
  int64_t rows_ = 0;
  bool written_ = false;
};

}  // namespace floe
