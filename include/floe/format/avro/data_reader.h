// Columnar reader for Avro data files (Iceberg's Avro data and delete files). The writer's
// schema is resolved against the requested Iceberg fields by field id (field-id, element-id,
// key-id, value-id), falling back to the table's name mapping and then to the field name when
// the file carries no ids. Each container block decodes straight into a ColumnBatch of the
// requested Iceberg types: unions with null in any position, int->long and float->double
// promotions, decimals from fixed or bytes, uuids from fixed(16) or text, maps from Avro maps
// or arrays of key/value records. Unrequested fields are skipped without allocation.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/io/file_io.h"
#include "floe/spec/schema.h"

namespace floe::avro {

struct DataReaderOptions {
  // JSON of `schema.name-mapping.default`; used for fields without a field-id.
  std::optional<std::string> name_mapping;
  // Byte-range split [split_start, split_start + split_length): only blocks starting inside
  // are returned (row positions still count every block). split_length < 0 = to the end.
  int64_t split_start = 0;
  int64_t split_length = -1;
  // Files up to this size are read whole; larger ones in windows of about this many bytes
  // (whole blocks, at least one), so memory stays bounded by the window and one block.
  int64_t window_bytes = 16 << 20;
};

class DataReader {
 public:
  // Reads the file through `io` (whole, or in windows when larger than
  // options.window_bytes). `fields` are the requested top-level Iceberg fields.
  static Result<std::unique_ptr<DataReader>> open(FileIOPtr io, const std::string& path,
                                                  std::vector<NestedField> fields,
                                                  DataReaderOptions options = {});
  // Same over file bytes already in memory.
  static Result<std::unique_ptr<DataReader>> open_bytes(std::string data, std::string path,
                                                        std::vector<NestedField> fields,
                                                        DataReaderOptions options = {});
  ~DataReader();

  // The requested fields the file has, in request order: the columns of every batch. Nested
  // fields the file lacks are filled with their initial default or null.
  const std::vector<NestedField>& present_fields() const;
  // The next block of the split as a batch, or nullopt at the end.
  Result<std::optional<ColumnBatch>> next_batch();
  // Row position in the file of the first row of the batch last returned.
  int64_t batch_first_row() const;

  struct Impl;

 private:
  DataReader() = default;
  Status resolve(std::vector<NestedField> fields);
  std::unique_ptr<Impl> impl_;
};

}  // namespace floe::avro
