// Change streams (`floe cdc`, src/sql/statements/cdc.cc): the input read as change records,
// Debezium or plain envelopes, by sql::ChangeStreamReader in small batches. Properties: every
// column of a batch is as long as the batch, one kind and one line per record, lines rising,
// and a delete carries nothing but its key column.
#include "floe/sql/cdc.h"
#include "fuzz_support.h"

namespace {

constexpr int kMaxBatches = 100000;

void read_changes(const std::string& path) {
  const std::vector<std::string> columns = {"id", "name", "amount", "ts", "tags", "nested"};
  floe::sql::ChangeStreamOptions options;
  options.batch_rows = 3;  // several batches even for small inputs
  options.batch_ms = 0;
  auto reader = floe::sql::ChangeStreamReader::open(path, columns, {0}, options);
  if (!reader.ok()) return;
  floe::sql::ChangeBatch batch;
  int64_t last_line = 0;
  for (int i = 0; i < kMaxBatches; ++i) {
    auto more = (*reader)->next(&batch);
    if (!more.ok() || !*more) return;
    const int64_t n = batch.size();
    FUZZ_CHECK(batch.records > 0 && batch.records <= options.batch_rows,
               "batch of " + std::to_string(batch.records) + " records");
    FUZZ_CHECK(n >= batch.records && n <= 2 * batch.records,
               std::to_string(n) + " rows for " + std::to_string(batch.records) + " records");
    FUZZ_CHECK(static_cast<int64_t>(batch.kinds.size()) == n, "one kind per row");
    FUZZ_CHECK(static_cast<int64_t>(batch.lines.size()) == n, "one line per row");
    for (const auto& column : batch.rows.columns) {
      FUZZ_CHECK(column->length() == n, "column of " + std::to_string(column->length()) +
                                            " rows in a batch of " + std::to_string(n));
    }
    for (int64_t r = 0; r < n; ++r) {
      // A line repeats only for an update that changes its key: the old key's delete first.
      const bool repeat = r > 0 && batch.lines[r] == last_line;
      FUZZ_CHECK(batch.lines[r] > last_line ||
                     (repeat && batch.kinds[r - 1] == floe::ChangeKind::kDelete &&
                      batch.kinds[r] == floe::ChangeKind::kUpsert),
                 "lines rise");
      last_line = batch.lines[r];
      FUZZ_CHECK(batch.rows.columns[0]->is_valid(r), "a record without its key");
      if (batch.kinds[r] != floe::ChangeKind::kDelete) continue;
      for (size_t c = 1; c < batch.rows.columns.size(); ++c) {
        FUZZ_CHECK(batch.rows.columns[c]->is_null(r), "a delete with more than its key");
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static floe::fuzz::MemoryPathFile file;
  read_changes(file.write(floe::fuzz::as_text(data, size)));
  return 0;
}
