// Parquet files: ParquetReader over an in-memory file (footer, schema, row-group statistics,
// every column's pages through the decoders and codecs), once batch by batch and once a row
// group at a time. Properties: every column of a batch is as long as the batch, and a file
// read without error yields the rows its footer counts.
#include "floe/format/parquet/reader.h"
#include "floe/io/file_io.h"
#include "fuzz_support.h"

namespace {

constexpr const char* kPath = "fuzz.parquet";
// Rows a file may claim and still be read: decoding more takes too long per input.
constexpr int64_t kMaxRows = 1 << 20;

void check_batch(const floe::ColumnBatch& batch) {
  for (const auto& column : batch.columns) {
    FUZZ_CHECK(column->length() == batch.num_rows, "column of " + std::to_string(column->length()) +
                                                       " rows in a batch of " +
                                                       std::to_string(batch.num_rows));
  }
}

void read_batches(const floe::FileIOPtr& io) {
  floe::parquet::ReaderOptions options;
  options.batch_rows = 1000;
  auto reader = floe::parquet::ParquetReader::open(io, kPath, options);
  if (!reader.ok()) return;
  floe::parquet::ParquetReader& r = **reader;
  int64_t claimed = 0;
  for (const auto& group : r.metadata().row_groups) claimed += group.num_rows;
  if (claimed < 0 || claimed > kMaxRows) return;
  for (int i = 0; i < r.num_row_groups(); ++i) (void)r.row_group_info(i);
  int64_t rows = 0;
  while (true) {
    auto batch = r.next_batch();
    if (!batch.ok()) return;
    if (!batch->has_value()) break;
    check_batch(**batch);
    rows += (*batch)->num_rows;
  }
  FUZZ_CHECK(rows == claimed, "read " + std::to_string(rows) + " rows of a file claiming " +
                                  std::to_string(claimed));
}

void read_row_groups(const floe::FileIOPtr& io) {
  floe::parquet::ReaderOptions options;
  options.batch_rows = 0;
  auto reader = floe::parquet::ParquetReader::open(io, kPath, options);
  if (!reader.ok()) return;
  floe::parquet::ParquetReader& r = **reader;
  for (int i = 0; i < r.num_row_groups(); ++i) {
    if (r.metadata().row_groups[i].num_rows > kMaxRows) return;
    auto batch = r.read_row_group(i);
    if (batch.ok()) check_batch(*batch);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const floe::FileIOPtr io = floe::make_memory_file_io();
  if (!io->write_file(kPath, floe::fuzz::as_text(data, size)).ok()) return 0;
  read_batches(io);
  read_row_groups(io);
  return 0;
}
