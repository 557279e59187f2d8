// Delete files in Parquet. PositionDeleteWriter buffers (data file path, position) pairs and
// writes them sorted by path then position with the reserved columns file_path (2147483546)
// and pos (2147483545), full metrics, and referenced_data_file when every row names one data
// file. EqualityDeleteWriter writes rows of a delete schema (columns of the table schema) and
// records the equality field ids.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/format/parquet/writer.h"
#include "floe/io/file_io.h"
#include "floe/manifest/manifest.h"
#include "floe/spec/schema.h"

namespace floe {

constexpr int32_t kDeleteFilePathFieldId = 2147483546;
constexpr int32_t kDeleteFilePosFieldId = 2147483545;

// The position delete file schema: file_path string, pos long (both required).
const Schema& position_delete_schema();

class PositionDeleteWriter {
 public:
  // `options` supplies codec and sizes; metrics are full for both columns (as in Java).
  PositionDeleteWriter(FileIOPtr io, std::string path, parquet::WriterOptions options,
                       int32_t spec_id = 0, std::vector<Literal> partition = {});

  void add(std::string_view data_file_path, int64_t pos);
  // Rows of a batch with a file_path string column and a pos long column (by field id).
  Status add(const ColumnBatch& batch);
  int64_t size() const { return static_cast<int64_t>(rows_.size()); }
  // Writes the file (kNotFound-free: an empty writer writes nothing and returns nullopt).
  Result<std::optional<DataFile>> close();
  // Deletes the file if close() wrote it.
  Status abort();

 private:
  FileIOPtr io_;
  std::string path_;
  parquet::WriterOptions options_;
  int32_t spec_id_;
  std::vector<Literal> partition_;
  std::vector<std::pair<std::string, int64_t>> rows_;
  bool written_ = false;
};

class EqualityDeleteWriter {
 public:
  // `delete_schema` is the rows' schema (columns of the table schema with their ids);
  // `equality_ids` must name fields of it.
  static Result<std::unique_ptr<EqualityDeleteWriter>> open(
      FileIOPtr io, std::string path, std::shared_ptr<const Schema> delete_schema,
      std::vector<int32_t> equality_ids, parquet::WriterOptions options, int32_t spec_id = 0,
      std::vector<Literal> partition = {}, std::optional<int32_t> sort_order_id = {});

  Status write(const ColumnBatch& batch);
  Result<DataFile> close();
  Status abort();

 private:
  EqualityDeleteWriter() = default;
  FileIOPtr io_;
  std::string path_;
  std::vector<int32_t> equality_ids_;
  int32_t spec_id_ = 0;
  std::vector<Literal> partition_;
  std::optional<int32_t> sort_order_id_;
  std::unique_ptr<parquet::ParquetWriter> writer_;
  bool written_ = false;
};

}  // namespace floe
