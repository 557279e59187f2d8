// KeyRunReader: reads a BYTE_ARRAY key column and a long value column of a Parquet file as runs
// of rows sharing a key the way the key column stores it (a dictionary code or a plain value).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/io/file_io.h"

namespace floe::parquet {

class ParquetReader;

// Reads two flat columns of a Parquet file, a BYTE_ARRAY key (no logical conversion) and a value
// read as an Iceberg long, as runs of rows sharing a key the way the key column stores it: a
// code into the current dictionary, or a plain value. Iceberg position-delete files (file_path,
// pos) use it so that each distinct path is resolved once per dictionary instead of per row.
// Errors name the file, the row group and the column ("{path}: row group {g} column {name}").
class KeyRunReader {
 public:
  // A run of rows of one key: a dictionary index, kPlain | i for plain_key(kPlain | i) (pages in
  // another encoding than the dictionary), or kNull.
  struct Run {
    uint32_t code;
    uint32_t rows;
  };
  static constexpr uint32_t kNull = 0xFFFFFFFFu;
  static constexpr uint32_t kPlain = 0x80000000u;

  // The reader of `file`'s columns with these field ids (io and file must outlive it), or
  // nullptr when the file's layout does not fit (a column missing, nested or repeated, a key not
  // an unconverted BYTE_ARRAY, a value not a long): the caller then reads rows.
  static Result<std::unique_ptr<KeyRunReader>> open(FileIO& io, const ParquetReader& file,
                                                    int32_t key_field_id, int32_t value_field_id);
  ~KeyRunReader();

  // The key column's min/max statistics in row group g, if written.
  std::optional<std::pair<std::string_view, std::string_view>> key_bounds(int g) const;
  // Fails when a column chunk of row group g holds another number of values than its rows.
  Status check_row_counts(int g) const;
  // Checks the row counts, reads both column chunks of row group g and starts reading them.
  Status start_row_group(int g);
  // Starts the key column of the current row group again (after a first pass over its runs).
  Status restart_keys();

  // The key column's next data page as runs; *rows = its rows (0 at the end of the row group).
  Status next_runs(std::vector<Run>* runs, int64_t* rows);
  // The dictionary the runs' dictionary indices refer to, and a number that changes whenever it
  // is replaced (0 before any dictionary).
  uint64_t dictionary_generation() const;
  const ColumnVector& dictionary() const;
  // The key of a run whose code has kPlain set (valid until the next next_runs()).
  std::string_view plain_key(uint32_t code) const;

  // The values of the next `rows` rows: the non-null ones appended to `values`; *defs replaced
  // by their definition levels (left empty when there are no nulls).
  Status next_values(int64_t rows, ColumnVector* values, std::vector<int16_t>* defs);
  // Passes over the values of the next `rows` rows.
  Status skip_values(int64_t rows);
  // The definition level of a non-null value (0: the column is required).
  int16_t value_max_def() const;
  const TypePtr& value_type() const;

  struct Impl;

 private:
  explicit KeyRunReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace floe::parquet
