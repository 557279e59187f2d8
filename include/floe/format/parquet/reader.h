// ParquetReader: opens a Parquet file through FileIO, maps its schema to Iceberg fields (by
// field id; else by a name mapping; else by position), and decodes row groups into
// ColumnBatches. Supports projection by field id, byte-range splits (only row groups whose start
// falls in the split), per-row-group statistics decoded to Iceberg literals for pruning, pages
// v1 and v2, every standard encoding, and the codecs uncompressed, snappy, gzip, zstd, lz4_raw
// and legacy (Hadoop) lz4. Corrupt input fails with kInvalidData naming the file.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/format/parquet/metadata.h"
#include "floe/io/file_io.h"
#include "floe/spec/schema.h"

namespace floe::parquet {

// How the file's columns got their Iceberg field ids.
enum class IdSource { kFieldIds, kNameMapping, kPosition };

// Statistics of one column chunk, decoded to Iceberg values of the column's type.
struct ColumnStats {
  int32_t field_id = 0;
  int64_t value_count = 0;  // includes nulls (Parquet num_values)
  std::optional<int64_t> null_count;
  std::optional<Literal> lower;  // absent when unknown, NaN, or inside a list/map
  std::optional<Literal> upper;
};

struct RowGroupInfo {
  int index = 0;
  int64_t num_rows = 0;
  int64_t start_offset = 0;  // first page of the first column: the split offset
  int64_t compressed_size = 0;
  std::map<int32_t, ColumnStats> stats;  // by field id, primitive columns only
};

struct ReaderOptions {
  // JSON of `schema.name-mapping.default`; used only when the file has no field ids.
  std::optional<std::string> name_mapping;
  // Byte-range split [split_start, split_start + split_length): only row groups whose start
  // offset falls inside are read. split_length < 0 = to the end of the file.
  int64_t split_start = 0;
  int64_t split_length = -1;
  // Known file size (saves a request).
  std::optional<int64_t> file_size;
  // Threads decoding the columns of a row group in parallel (1: the calling thread only).
  int threads = 1;
  // Rows per batch of next_batch(): row groups are handed out in batches of at most this many
  // rows, decoded page by page, so memory stays bounded however large the row groups are
  // (0: a whole row group per batch).
  int64_t batch_rows = 131072;
};

class ParquetReader {
 public:
  static Result<std::unique_ptr<ParquetReader>> open(FileIOPtr io, std::string path,
                                                     ReaderOptions options = {});
  ~ParquetReader();

  const std::string& path() const { return path_; }
  const FileMetaData& metadata() const { return metadata_; }
  int64_t file_size() const { return file_size_; }
  // The file's columns as Iceberg fields (all of them, before projection).
  const Schema& schema() const { return *schema_; }
  IdSource id_source() const { return id_source_; }
  // Iceberg type of each Parquet schema element (nullptr for groups and invisible columns), and
  // the Iceberg id given to it (0 if none): what `floe cat --schema` prints.
  const std::vector<int32_t>& element_field_ids() const { return element_ids_; }

  // Keeps only these fields (any depth; a nested id keeps its top-level ancestor with the
  // struct children on the way). Unknown ids are ignored (the column is absent from the file).
  // next_batch() then starts again from the first selected row group.
  Status select(const std::vector<int32_t>& field_ids);
  // The fields a batch will have, after select().
  const std::vector<NestedField>& output_fields() const { return output_fields_; }

  int num_row_groups() const { return static_cast<int>(metadata_.row_groups.size()); }
  Result<RowGroupInfo> row_group_info(int index) const;
  // Row groups inside the split that the filter keeps (all when no filter), in file order.
  // Set the filter before the first next_batch().
  void set_row_group_filter(std::function<bool(const RowGroupInfo&)> filter);
  Result<std::vector<int>> selected_row_groups() const;

  // Decodes one row group (with the current selection) as one batch.
  Result<ColumnBatch> read_row_group(int index);
  // The next batch of the selected row groups (at most options.batch_rows rows, never spanning
  // two row groups), or nullopt at the end.
  Result<std::optional<ColumnBatch>> next_batch();
  // The file row number (from 0, counting every row group) of the first row of the batch
  // next_batch() returned last: what position deletes refer to.
  int64_t batch_first_row() const;
  // The row group that batch came from.
  int batch_row_group() const;

  struct Impl;

  // A column chunk's bytes: read from the file, or copied from the whole file when open() read
  // all of it with the footer (files up to 64 KiB, such as most position-delete files, then
  // cost one request in all).
  Status read_chunk(const ColumnMetaData& meta, Buffer* out) const;

 private:
  ParquetReader() = default;
  struct LeafState;
  struct GroupChunks;
  struct Ahead;
  // Rows [first, first + rows) of row group `index`. A leaf whose decoder is not positioned
  // there starts its chunk (read from the file, or taken from `chunks`) and skips to `first`.
  // `parallel`: the columns on the pool.
  Result<ColumnBatch> decode_rows(int index, int64_t first, int64_t rows,
                                  std::vector<std::unique_ptr<LeafState>>* leaves,
                                  bool parallel = true, GroupChunks* chunks = nullptr);
  // next_batch() when row ranges are decoded ahead on the pool: whole row groups of at most
  // batch_rows rows, or ranges of larger ones ending at page ends.
  Result<std::optional<ColumnBatch>> next_ahead();
  // Where the pages of the group's most compressed selected column end (Impl::ahead_page_ends).
  void locate_pages(int group, GroupChunks& chunks);
  void decode_ahead(Ahead& a);
  // Waits for the row groups being decoded ahead and drops them.
  void drain_ahead();
  std::string path_;
  FileIOPtr io_;
  ReaderOptions options_;
  FileMetaData metadata_;
  int64_t file_size_ = 0;
  std::string whole_file_;  // the file's bytes when the tail read held all of it
  std::unique_ptr<Schema> schema_;
  IdSource id_source_ = IdSource::kFieldIds;
  std::vector<int32_t> element_ids_;
  std::vector<NestedField> output_fields_;
  std::function<bool(const RowGroupInfo&)> filter_;
  std::optional<std::vector<int>> pending_;
  size_t next_ = 0;
  std::unique_ptr<Impl> impl_;
};

// Reads a whole file into one batch per row group (tests, CLI).
Result<std::vector<ColumnBatch>> read_parquet_file(FileIOPtr io, const std::string& path,
                                                   ReaderOptions options = {});

}  // namespace floe::parquet
