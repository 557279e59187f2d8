// Reading v2 position-delete files (bench/README.md workload Q3, anchor H13; target >= 50M
// positions/s): (file_path, pos) Parquet files as floe writes them (zstd, sorted, file_path
// dictionary-encoded) for 100 data files with ~90-character s3:// paths, every 10th position
// deleted. Times (a) the decode of the whole file grouped by data file and (b) the filter to one
// data file, through the dictionary-aware read and the generic row decode, and DuckDB (1 thread)
// on the same file in the same run: `SELECT count(*), max(pos)` for (a), with
// `WHERE file_path = ...` for (b). Throughput = rows of the file / time. Sizes:
// FLOE_BENCH_SCALE, a comma-separated list of row counts (default 1000000; the workload is
// "1000000,10000000").
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench_support.h"
#include "floe/format/parquet/writer.h"
#include "floe/read/position_delete_file.h"
#include "floe/write/delete_writer.h"

namespace {

using namespace floe;
using bench::best_times;
using bench::Timing;
namespace fs = std::filesystem;

constexpr int kDataFiles = 100;

std::vector<int64_t> bench_sizes() {
  const char* env = std::getenv("FLOE_BENCH_SCALE");
  std::vector<int64_t> out;
  std::stringstream in(env ? env : "1000000");
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(std::atoll(item.c_str()));
  }
  return out;
}

std::string data_file(int i) {
  return fmt::format(
      "s3://warehouse-bucket/analytics/events_table/data/event_date=2024-01-15/"
      "{:05d}-{:04d}-a1b2c3d4.parquet",
      i, i % 7);
}

fs::path bench_dir() {
  static fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("floe-posdel-bench-" + std::to_string(::getpid()));
    fs::create_directories(d);
    std::atexit([] {
      fs::remove_all(fs::temp_directory_path() /
                     ("floe-posdel-bench-" + std::to_string(::getpid())));
    });
    return d;
  }();
  return dir;
}

// Rows sorted by (file_path, pos): file f deletes positions 0, 10, 20, ... Written in batches
// straight to floe's Parquet writer with its defaults (PositionDeleteWriter would sort them).
Status write_file(const std::string& path, int64_t rows) {
  const parquet::WriterOptions options;
  auto w = FLOE_TRY(
      parquet::ParquetWriter::open(make_local_file_io(), path, position_delete_schema(), options));
  const auto& fields = position_delete_schema().fields();
  const int64_t per_file = rows / kDataFiles;
  ColumnBatch b = ColumnBatch::make(fields);
  for (int f = 0; f < kDataFiles; ++f) {
    std::string p = data_file(f);
    int64_t n = f == kDataFiles - 1 ? rows - per_file * (kDataFiles - 1) : per_file;
    for (int64_t i = 0; i < n; ++i) {
      b.columns[0]->append_bytes(p);
      b.columns[1]->append_fixed<int64_t>(i * 10);
      if (++b.num_rows == 65536) {
        FLOE_TRY(w->write(b));
        b = ColumnBatch::make(fields);
      }
    }
  }
  if (b.num_rows > 0) FLOE_TRY(w->write(b));
  FLOE_TRY(w->close());
  return Status::OK();
}

// Reads the file; returns the positions found (so the work is not optimized away) or -1.
int64_t read_file(const std::string& path, bool runs, const std::optional<std::string>& target) {
  PositionDeleteReadOptions o;
  o.dictionary_runs = runs;
  o.data_file = target;
  auto r = read_position_delete_file(make_local_file_io(), path, "parquet", o);
  if (!r.ok()) {
    std::fprintf(stderr, "%s\n", r.status().to_string().c_str());
    return -1;
  }
  int64_t n = 0;
  for (const auto& [_, s] : r->by_path) n += static_cast<int64_t>(s.cardinality());
  return n;
}

// Every size, both modes: floe (dictionary runs and generic) and DuckDB, printed as a table.
// Counters: the worst floe rate of each mode in M positions/s.
void BM_PositionDeleteVsDuckDB(benchmark::State& state) {
  std::string oracle = fs::path(FLOE_SOURCE_DIR) / "tests" / "oracle";
  const std::string target = data_file(kDataFiles / 2);
  double worst_full = 1e30, worst_filter = 1e30;
  for (auto _ : state) {
    std::printf(
        "\n| rows | mode | floe Mpos/s | floe generic Mpos/s | DuckDB Mpos/s | floe/DuckDB | "
        "CPU ratio |\n|---|---|---|---|---|---|---|\n");
    for (int64_t rows : bench_sizes()) {
      std::string path = (bench_dir() / fmt::format("pos-{}.parquet", rows)).string();
      Status st = write_file(path, rows);
      if (!st.ok()) {
        state.SkipWithError(st.to_string().c_str());
        return;
      }
      // Check both modes agree with the generator before timing.
      if (read_file(path, true, std::nullopt) != rows ||
          read_file(path, true, target) != read_file(path, false, target)) {
        state.SkipWithError("position-delete read returned wrong positions");
        return;
      }
      std::string cmd = "cd '" + oracle + "' && node position_delete_bench_duckdb.mjs '" + path +
                        "' '" + target + "'";
      std::string text = bench::command_output(cmd);
      auto j = nlohmann::json::parse(text, nullptr, false);
      bool duck = !j.is_discarded() && j.contains("full");
      if (!duck) std::fprintf(stderr, "DuckDB timing failed: %s\n", text.c_str());
      const int runs = rows >= 5000000 ? 3 : 5;
      for (bool filter : {false, true}) {
        std::optional<std::string> t = filter ? std::optional<std::string>(target) : std::nullopt;
        Timing fast = best_times(runs, [&] { benchmark::DoNotOptimize(read_file(path, true, t)); });
        Timing slow = best_times(2, [&] { benchmark::DoNotOptimize(read_file(path, false, t)); });
        double r = static_cast<double>(rows);
        double floe_rate = r / fast.wall / 1e6;
        (filter ? worst_filter : worst_full) =
            std::min(filter ? worst_filter : worst_full, floe_rate);
        const char* mode = filter ? "(b) filter to one file" : "(a) decode, group by file";
        if (duck) {
          const auto& d = j[filter ? "filter" : "full"];
          double ds = d["s"], dc = d["cpu_s"];
          std::printf("| %lld | %s | %.1f | %.1f | %.1f | %.2fx | %.2fx |\n",
                      static_cast<long long>(rows), mode, floe_rate, r / slow.wall / 1e6,
                      r / ds / 1e6, ds / fast.wall, dc / fast.cpu);
        } else {
          std::printf("| %lld | %s | %.1f | %.1f | - | - | - |\n", static_cast<long long>(rows),
                      mode, floe_rate, r / slow.wall / 1e6);
        }
        std::fflush(stdout);
      }
      fs::remove(path);
    }
  }
  state.counters["worst_full_Mpos_s"] = worst_full;
  state.counters["worst_filter_Mpos_s"] = worst_filter;
}
BENCHMARK(BM_PositionDeleteVsDuckDB)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

}  // namespace
