// CSV and JSON Lines loading (src/format/text): the input read as CSV with and without a
// header and with ',' and '|' delimiters, then as JSON Lines, each in small batches. Property:
// every column of a batch is as long as the batch.
#include "floe/format/text/csv_reader.h"
#include "floe/format/text/json_lines_reader.h"
#include "fuzz_support.h"

namespace {

constexpr int64_t kBatchRows = 7;  // several batches even for small inputs
constexpr int kMaxBatches = 100000;

void check_batch(const floe::ColumnBatch& batch) {
  for (const auto& column : batch.columns) {
    FUZZ_CHECK(column->length() == batch.num_rows, "column of " + std::to_string(column->length()) +
                                                       " rows in a batch of " +
                                                       std::to_string(batch.num_rows));
  }
}

template <typename Reader>
void read_all(Reader& reader, const std::vector<std::string>& columns) {
  std::vector<floe::NestedField> fields;
  for (size_t i = 0; i < columns.size(); ++i) {
    floe::NestedField field;
    field.id = static_cast<int32_t>(i + 1);
    field.name = columns[i];
    field.type = floe::Type::string();
    fields.push_back(std::move(field));
  }
  for (int i = 0; i < kMaxBatches; ++i) {
    floe::ColumnBatch batch = floe::ColumnBatch::make(fields);
    auto more = reader.read_batch(&batch, kBatchRows);
    if (!more.ok()) return;
    check_batch(batch);
    if (!*more) return;
  }
}

void read_csv(const std::string& path, bool header, char delimiter) {
  floe::text::CsvOptions options;
  options.header = header;
  options.delimiter = delimiter;
  options.empty_as_null = !header;
  auto columns = floe::text::CsvReader::column_names(path, options);
  if (!columns.ok()) return;
  auto reader = floe::text::CsvReader::open(path, options);
  if (!reader.ok()) return;
  read_all(**reader, *columns);
}

void read_json_lines(const std::string& path) {
  const std::vector<std::string> columns = {"id", "name", "amount", "ts", "tags", "nested"};
  auto reader = floe::text::JsonLinesReader::open(path, columns);
  if (!reader.ok()) return;
  read_all(**reader, columns);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static floe::fuzz::MemoryPathFile file;
  const std::string& path = file.write(floe::fuzz::as_text(data, size));
  read_csv(path, true, ',');
  read_csv(path, false, ',');
  read_csv(path, true, '|');
  read_json_lines(path);
  return 0;
}
