// Avro data-file read throughput: a 10-column table (ids, ints, doubles, timestamps, strings,
// a flag; every optional column a union with null) written deflate by AvroDataWriter into
// memory, then decoded by avro::DataReader, all columns and a 2-column projection (the others
// skipped). Rows: FLOE_BENCH_ROWS (default 1M).
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "bench_support.h"
#include "floe/format/avro/data_reader.h"
#include "floe/write/avro_data_writer.h"

namespace {

using namespace floe;

std::vector<NestedField> avro_bench_fields() { return bench::ten_column_fields(); }

struct AvroBenchFile {
  FileIOPtr io = make_memory_file_io();
  std::string path = "mem://bench/data.avro";
  int64_t rows = 0;
  int64_t bytes = 0;
};

const AvroBenchFile& avro_bench_file() {
  static const AvroBenchFile file = [] {
    AvroBenchFile f;
    const char* env = std::getenv("FLOE_BENCH_ROWS");
    f.rows = env ? std::atoll(env) : 1000000;
    Schema schema(0, avro_bench_fields());
    auto w = AvroDataWriter::open(f.io, f.path, schema, MetricsConfig());
    if (!w.ok()) std::abort();
    const int64_t chunk = 65536;
    for (int64_t start = 0; start < f.rows; start += chunk) {
      int64_t n = std::min(chunk, f.rows - start);
      ColumnBatch b = ColumnBatch::make(avro_bench_fields());
      for (int64_t i = start; i < start + n; ++i) {
        b.columns[0]->append_fixed<int64_t>(i);
        i % 17 == 0 ? b.columns[1]->append_null() : b.columns[1]->append_fixed<int32_t>(i % 1000);
        b.columns[2]->append_fixed<int64_t>(i * 37);
        b.columns[3]->append_fixed<double>(i * 0.01);
        b.columns[4]->append_fixed<double>(static_cast<double>(i % 997) / 7);
        b.columns[5]->append_fixed<int64_t>(1700000000000000LL + i * 1000);
        b.columns[6]->append_fixed<int64_t>(1700000000000000LL - i);
        b.columns[7]->append_bytes(i % 3 ? "DE" : "US");
        b.columns[8]->append_bytes("user-" + std::to_string(i % 50000));
        b.columns[9]->append_bool(i % 2 == 0);
      }
      b.num_rows = n;
      if (!(*w)->write(b).ok()) std::abort();
    }
    auto m = (*w)->close();
    if (!m.ok()) std::abort();
    f.bytes = m->file_size;
    return f;
  }();
  return file;
}

void read_all_blocks(benchmark::State& state, std::vector<NestedField> fields) {
  const AvroBenchFile& f = avro_bench_file();
  for (auto _ : state) {
    auto r = avro::DataReader::open(f.io, f.path, fields);
    if (!r.ok()) state.SkipWithError(r.status().to_string().c_str());
    int64_t rows = 0;
    while (true) {
      auto b = (*r)->next_batch();
      if (!b.ok() || !*b) break;
      rows += (*b)->num_rows;
    }
    benchmark::DoNotOptimize(rows);
  }
  state.counters["rows/s"] = benchmark::Counter(static_cast<double>(f.rows),
                                                benchmark::Counter::kIsIterationInvariantRate);
  state.counters["file_MB"] = static_cast<double>(f.bytes) / 1e6;
}

void BM_AvroDataReadAll(benchmark::State& state) { read_all_blocks(state, avro_bench_fields()); }
BENCHMARK(BM_AvroDataReadAll)->Unit(benchmark::kMillisecond);

void BM_AvroDataReadTwoColumns(benchmark::State& state) {
  auto all = avro_bench_fields();
  read_all_blocks(state, {all[0], all[8]});
}
BENCHMARK(BM_AvroDataReadTwoColumns)->Unit(benchmark::kMillisecond);

}  // namespace
