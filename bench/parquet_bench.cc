// Parquet read and write throughput (bench/README.md workloads Q1 and Q2, anchors H11/H12): a
// 10-column table (ids, ints, doubles, timestamps, low- and high-cardinality strings, a flag).
// BM_ParquetWrite / BM_ParquetRead time floe alone; BM_ParquetVsDuckDB times floe and DuckDB on
// the same files in the same run, for every codec and 1 or 2 threads, and prints the Q1 matrix
// (bench/parquet_vs_duckdb.sh runs it). Rows: FLOE_BENCH_ROWS (default 1M; the workload is 10M).
// Codec of the floe-only benchmarks: FLOE_BENCH_CODEC (zstd, snappy, uncompressed; default zstd,
// level 3), threads: FLOE_BENCH_THREADS (default 1).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "bench_support.h"
#include "floe/format/parquet/reader.h"
#include "floe/format/parquet/writer.h"
#include "floe/spec/literal.h"
#include "floe/util/decimal.h"
#include "format/parquet/codec_internal.h"
#include "format/parquet/column_decoder_internal.h"

namespace {

using namespace floe;
using bench::best_times;
using bench::Timing;
namespace fs = std::filesystem;

int64_t bench_rows() {
  const char* env = std::getenv("FLOE_BENCH_ROWS");
  return env ? std::atoll(env) : 1000000;
}

std::string bench_codec() {
  const char* env = std::getenv("FLOE_BENCH_CODEC");
  return env ? env : "zstd";
}

int bench_threads() {  // DuckDB's threads and floe's
  const char* env = std::getenv("FLOE_BENCH_THREADS");
  return env ? std::max(1, std::atoi(env)) : 1;
}

const Schema& bench_schema() {
  static const Schema schema(0, bench::ten_column_fields());
  return schema;
}

parquet::WriterOptions bench_writer_options(const std::string& codec, int threads) {
  std::map<std::string, std::string> props = {{"write.parquet.compression-codec", codec}};
  auto o = parquet::WriterOptions::from_properties(props, bench_schema());
  if (!o.ok()) std::abort();
  o->threads = threads;
  return *o;
}

// Batches of 64k rows, generated once.
const std::vector<ColumnBatch>& bench_batches() {
  static std::vector<ColumnBatch> batches = [] {
    std::vector<ColumnBatch> out;
    std::mt19937_64 rng(1);
    const char* countries[] = {"DE", "FR", "US", "JP", "BR", "IN", "CN", "GB", "IT", "ES"};
    int64_t rows = bench_rows();
    for (int64_t start = 0; start < rows; start += 65536) {
      ColumnBatch b = ColumnBatch::make(bench_schema().fields());
      int64_t n = std::min<int64_t>(65536, rows - start);
      for (int64_t i = start; i < start + n; ++i) {
        uint64_t x = rng();
        b.columns[0]->append_fixed<int64_t>(i);
        b.columns[1]->append_fixed<int32_t>(static_cast<int32_t>(x % 1000));
        b.columns[2]->append_fixed<int64_t>(static_cast<int64_t>(x >> 20));
        b.columns[3]->append_fixed<double>(static_cast<double>(x % 100000) / 100.0);
        if (i % 17 == 0) {
          b.columns[4]->append_null();
        } else {
          b.columns[4]->append_fixed<double>(static_cast<double>(x >> 11) * 0x1.0p-53);
        }
        b.columns[5]->append_fixed<int64_t>(1700000000000000LL + i * 1000 +
                                            static_cast<int64_t>(x % 1000));
        b.columns[6]->append_fixed<int64_t>(1600000000000000LL +
                                            static_cast<int64_t>(x % 100000000000LL));
        b.columns[7]->append_bytes(countries[x % 10]);
        b.columns[8]->append_bytes(fmt::format("user-{:016x}", rng()));
        b.columns[9]->append_bool(x & 1);
      }
      b.num_rows = n;
      out.push_back(std::move(b));
    }
    return out;
  }();
  return batches;
}

fs::path bench_dir() {
  static fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("floe-parquet-bench-" + std::to_string(::getpid()));
    fs::create_directories(d);
    std::atexit([] {
      if (std::getenv("FLOE_BENCH_KEEP")) return;  // keep the files to inspect them
      fs::remove_all(fs::temp_directory_path() /
                     ("floe-parquet-bench-" + std::to_string(::getpid())));
    });
    return d;
  }();
  return dir;
}

// Removes the file first, as DuckDB's COPY truncates its target: the old file's pages go back to
// the kernel before the write rather than after it (floe's local files are written under a
// temporary name and renamed over the old one, which frees them only then). On this VM the
// write calls of a 364 MB file take 0.2 s into pages just freed, and up to 1.1 s into new ones.
Result<DataFileMetrics> write_file(const std::string& path,
                                   const std::string& codec = bench_codec(),
                                   int threads = bench_threads()) {
  std::error_code ignored;
  fs::remove(path, ignored);
  auto w = FLOE_TRY(parquet::ParquetWriter::open(make_local_file_io(), path, bench_schema(),
                                                 bench_writer_options(codec, threads)));
  for (const auto& b : bench_batches()) FLOE_TRY(w->write(b));
  return w->close();
}

Result<int64_t> read_file(const std::string& path, const std::vector<int32_t>& ids = {},
                          int threads = bench_threads()) {
  parquet::ReaderOptions options;
  options.threads = threads;
  if (const char* b = std::getenv("FLOE_BENCH_BATCH_ROWS")) options.batch_rows = std::atoll(b);
  auto r = FLOE_TRY(parquet::ParquetReader::open(make_local_file_io(), path, options));
  if (!ids.empty()) FLOE_TRY(r->select(ids));
  int64_t rows = 0;
  while (true) {
    auto b = FLOE_TRY(r->next_batch());
    if (!b) break;
    rows += b->num_rows;
  }
  return rows;
}

// The file the floe-only read benchmarks read: FLOE_BENCH_FILE (any file with the 10-column
// schema's field ids, e.g. one DuckDB wrote), else one floe writes.
const std::string& bench_file() {
  static std::string path = [] {
    if (const char* f = std::getenv("FLOE_BENCH_FILE")) return std::string(f);
    std::string p = (bench_dir() / "floe.parquet").string();
    auto m = write_file(p);
    if (!m.ok()) std::fprintf(stderr, "%s\n", m.status().to_string().c_str());
    return p;
  }();
  return path;
}

void BM_ParquetWrite(benchmark::State& state) {
  bench_batches();
  std::string path = (bench_dir() / "write.parquet").string();
  int64_t bytes = 0;
  for (auto _ : state) {
    auto m = write_file(path);
    if (!m.ok()) state.SkipWithError(m.status().to_string().c_str());
    bytes = m.ok() ? m->file_size : 0;
  }
  state.SetItemsProcessed(state.iterations() * bench_rows());
  state.counters["file_MB"] = static_cast<double>(bytes) / 1e6;
}
BENCHMARK(BM_ParquetWrite)->Unit(benchmark::kMillisecond)->UseRealTime();

// Q1's projections: every column, the 8 numeric ones (all but the two strings), two columns.
struct Projection {
  const char* name;
  std::vector<int32_t> ids;  // empty: every column
};
const std::vector<Projection>& projections() {
  static const std::vector<Projection> p = {
      {"all", {}}, {"numeric8", {1, 2, 3, 4, 5, 6, 7, 10}}, {"two", {1, 4}}};
  return p;
}

std::string projections_json() {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& p : projections()) {
    nlohmann::json names = nlohmann::json::array();
    for (int32_t id : p.ids) names.push_back(bench_schema().find_field(id)->name);
    j[p.name] = names;
  }
  return j.dump();
}

// floe alone reading its own file, with each Q1 projection (0: all, 1: numeric8, 2: two).
void BM_ParquetRead(benchmark::State& state) {
  const std::string& path = bench_file();
  const auto& p = projections()[static_cast<size_t>(state.range(0))];
  for (auto _ : state) {
    auto rows = read_file(path, p.ids);
    if (!rows.ok()) state.SkipWithError(rows.status().to_string().c_str());
  }
  state.SetLabel(p.name);
  state.SetItemsProcessed(state.iterations() * bench_rows());
}
BENCHMARK(BM_ParquetRead)
    ->ArgName("projection")
    ->DenseRange(0, 2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

const char* kCodecs[] = {"zstd", "snappy", "uncompressed"};

// The pages of a Parquet file held in `file`: per page, its (compressed) body without v2
// levels, its uncompressed size, and its column's field id.
struct PageBody {
  const uint8_t* data;
  size_t size, uncompressed;
  int32_t field_id;
};
Result<std::vector<PageBody>> page_bodies(const parquet::ParquetReader& r,
                                          const std::string& file) {
  std::vector<PageBody> pages;
  for (const auto& rg : r.metadata().row_groups) {
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      const parquet::ColumnMetaData& m = *rg.columns[c].meta_data;
      int32_t id = r.schema().fields()[c].id;  // the bench table is flat
      size_t pos = static_cast<size_t>(parquet::internal::chunk_start(m));
      size_t end = pos + static_cast<size_t>(m.total_compressed_size);
      while (pos < end) {
        parquet::PageHeader h;
        size_t hsize = 0;
        FLOE_TRY(parquet::decode_page_header(std::string_view(file).substr(pos), &h, &hsize));
        size_t levels = 0;  // v2 levels stay uncompressed
        if (h.data_page_header_v2) {
          levels = static_cast<size_t>(h.data_page_header_v2->repetition_levels_byte_length +
                                       h.data_page_header_v2->definition_levels_byte_length);
        }
        pages.push_back({reinterpret_cast<const uint8_t*>(file.data()) + pos + hsize + levels,
                         static_cast<size_t>(h.compressed_page_size) - levels,
                         static_cast<size_t>(h.uncompressed_page_size) - levels, id});
        pos += hsize + static_cast<size_t>(h.compressed_page_size);
      }
    }
  }
  return pages;
}

// The time zstd alone takes to compress every page floe writes for the table (at the writer's
// level, one thread): the bytes of each page of the same table written uncompressed, compressed
// as the writer does. The write can be no faster than this, whatever else it does.
Result<Timing> zstd_compress_time() {
  std::string path = (bench_dir() / "zstd-floor.parquet").string();
  FLOE_TRY(write_file(path, "uncompressed", 1));
  auto io = make_local_file_io();
  auto r = FLOE_TRY(parquet::ParquetReader::open(io, path));
  std::string file = FLOE_TRY(io->read_range(path, 0, r->file_size()));
  auto pages = FLOE_TRY(page_bodies(*r, file));
  int level = bench_writer_options("zstd", 1).compression_level;
  parquet::internal::PageCodec codec;
  Buffer out;
  Status st;
  Timing t = best_times(2, [&] {
    for (const auto& p : pages) {
      out.clear();
      Status s = codec.compress(parquet::Codec::kZstd, p.data, p.size, level, &out);
      if (!s.ok()) st = s;
    }
  });
  FLOE_TRY(st);
  fs::remove(path);
  return t;
}

// The time zstd alone takes to decompress the pages of a zstd file's columns `ids` (one
// thread, into one reused buffer): what reading them costs before any decoding.
Result<Timing> zstd_decompress_time(const std::string& path, const std::vector<int32_t>& ids) {
  auto io = make_local_file_io();
  auto r = FLOE_TRY(parquet::ParquetReader::open(io, path));
  std::string file = FLOE_TRY(io->read_range(path, 0, r->file_size()));
  auto pages = FLOE_TRY(page_bodies(*r, file));
  parquet::internal::PageCodec codec;
  Buffer out;
  Status st;
  Timing t = best_times(3, [&] {
    for (const auto& p : pages) {
      if (std::find(ids.begin(), ids.end(), p.field_id) == ids.end()) continue;
      out.resize(p.uncompressed);
      Status s =
          codec.decompress(parquet::Codec::kZstd, p.data, p.size, out.data(), p.uncompressed);
      if (!s.ok()) st = s;
    }
  });
  FLOE_TRY(st);
  return t;
}

// The sums of the rows the benchmark writes, column by column, as the DuckDB side aggregates a
// file (parquet_bench_duckdb.mjs): sums of numbers and of timestamps in microseconds, of string
// lengths, the count of true flags; nulls skipped. Integers exactly (as text), doubles as
// doubles.
struct ColumnSums {
  std::map<std::string, std::string> exact;
  std::map<std::string, double> approx;
};

const ColumnSums& written_sums() {
  static const ColumnSums sums = [] {
    ColumnSums s;
    const auto& fields = bench_schema().fields();
    std::vector<int128_t> ints(fields.size(), 0);
    std::vector<double> doubles(fields.size(), 0);
    int64_t rows = 0;
    for (const auto& b : bench_batches()) {
      rows += b.num_rows;
      for (size_t c = 0; c < fields.size(); ++c) {
        const ColumnVector& v = *b.columns[c];
        for (int64_t i = 0; i < b.num_rows; ++i) {
          if (v.is_null(i)) continue;
          switch (fields[c].type->id()) {
            case TypeId::kInt:
              ints[c] += v.raw<int32_t>()[i];
              break;
            case TypeId::kDouble:
              doubles[c] += v.raw<double>()[i];
              break;
            case TypeId::kString:
              ints[c] += static_cast<int64_t>(v.bytes_at(i).size());  // all ASCII
              break;
            case TypeId::kBoolean:
              ints[c] += v.raw<uint8_t>()[i] != 0 ? 1 : 0;
              break;
            default:  // long, timestamps (micros)
              ints[c] += v.raw<int64_t>()[i];
              break;
          }
        }
      }
    }
    s.exact["count"] = std::to_string(rows);
    for (size_t c = 0; c < fields.size(); ++c) {
      if (fields[c].type->id() == TypeId::kDouble) {
        s.approx[fields[c].name] = doubles[c];
      } else {
        s.exact[fields[c].name] = format_decimal(ints[c], 0);
      }
    }
    return s;
  }();
  return sums;
}

// Whether DuckDB's aggregates of floe's file (`got`) equal the sums of the rows written: the
// integers exactly, the doubles to 1e-9 (DuckDB adds them in another order).
Status check_sums(const nlohmann::json& got) {
  const ColumnSums& want = written_sums();
  for (const auto& [name, v] : want.exact) {
    if (!got.contains(name) || got[name].get<std::string>() != v) {
      return invalid_data("DuckDB reads floe's file with {} = {}, written {}", name,
                          got.contains(name) ? got[name].get<std::string>() : "nothing", v);
    }
  }
  for (const auto& [name, v] : want.approx) {
    double d = got.contains(name) ? std::strtod(got[name].get<std::string>().c_str(), nullptr) : 0;
    if (!(std::abs(d - v) <= 1e-9 * std::max(1.0, std::abs(v)))) {
      return invalid_data("DuckDB reads floe's file with {} = {}, written {}", name, d, v);
    }
  }
  return Status::OK();
}

// floe vs DuckDB on the same files in the same run, both with the same threads (the second
// argument); the first picks the codec. Q1: every projection of the file floe wrote and of the
// file DuckDB wrote (its default 122,880-row row groups); Q2: the write of the whole table. Ratios
// are DuckDB's time / floe's (> 1: floe faster), of wall time and of process CPU time (steadier
// on a shared machine; with threads it sums them). Prints the cells as a table; the counters hold
// the write ratio and the worst read ratio. Targets: read >= 1x on every cell, write >= 2x.
void BM_ParquetVsDuckDB(benchmark::State& state) {
  const std::string codec = kCodecs[state.range(0)];
  const int threads = static_cast<int>(state.range(1));
  bench_batches();
  std::string oracle = fs::path(FLOE_SOURCE_DIR) / "tests" / "oracle";
  for (auto _ : state) {
    std::string path = (bench_dir() / ("floe-" + codec + ".parquet")).string();
    Timing floe_write = best_times(2, [&] { (void)write_file(path, codec, threads); });
    std::string cmd = "cd '" + oracle + "' && node parquet_bench_duckdb.mjs '" + path + "' '" +
                      bench_dir().string() + "' " + codec + " " + std::to_string(threads) + " '" +
                      projections_json() + "'";
    std::string text = bench::command_output(cmd);
    auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.contains("reads")) {
      state.SkipWithError(("DuckDB timing failed: " + text).c_str());
      return;
    }
    if (Status sums = check_sums(j["sums"]); !sums.ok()) {
      state.SkipWithError(sums.to_string().c_str());
      return;
    }
    double rows = static_cast<double>(bench_rows());
    double duck_write = j["write_s"], duck_write_cpu = j["write_cpu_s"];
    std::string duck_file = j["duckdb_file"];
    std::printf(
        "\n%s, %d thread(s), %.0f rows: write floe %.2f / DuckDB %.2f Mrows/s = %.2fx "
        "(CPU %.2fx); DuckDB reads floe's file with the written sums\n",
        codec.c_str(), threads, rows, rows / floe_write.wall / 1e6, rows / duck_write / 1e6,
        duck_write / floe_write.wall, duck_write_cpu / floe_write.cpu);
    if (codec == "zstd" && threads == 1) {
      auto z = zstd_compress_time();
      if (!z.ok()) {
        state.SkipWithError(z.status().to_string().c_str());
        return;
      }
      // The most the write ratio could be, were encoding free.
      std::printf(
          "zstd alone on floe's pages: %.2f s of floe's %.2f s; DuckDB's write / it = %.2fx\n",
          z->cpu, floe_write.cpu, duck_write_cpu / z->cpu);
      state.counters["zstd_ceiling_ratio"] = duck_write_cpu / z->cpu;
    }
    std::printf("| file | projection | floe Mrows/s | DuckDB Mrows/s | ratio | CPU ratio |\n");
    std::printf("|---|---|---|---|---|---|\n");
    double worst = 1e30, worst_cpu = 1e30;
    for (const auto& [file_name, file] :
         {std::pair<std::string, std::string>{"floe", path}, {"duckdb", duck_file}}) {
      for (const auto& p : projections()) {
        Timing t = best_times(3, [&] { (void)read_file(file, p.ids, threads); });
        const auto& d = j["reads"][file_name + "/" + p.name];
        double ds = d["s"], dc = d["cpu_s"];
        worst = std::min(worst, ds / t.wall);
        worst_cpu = std::min(worst_cpu, dc / t.cpu);
        std::printf("| %s | %s | %.1f | %.1f | %.2f | %.2f |\n", file_name.c_str(), p.name,
                    rows / t.wall / 1e6, rows / ds / 1e6, ds / t.wall, dc / t.cpu);
      }
    }
    if (codec == "zstd" && threads == 1) {
      // How much of reading two columns of DuckDB's file is zstd's own decompression.
      const auto& two = projections().back();
      auto z = zstd_decompress_time(duck_file, two.ids);
      if (!z.ok()) {
        state.SkipWithError(z.status().to_string().c_str());
        return;
      }
      std::printf("zstd alone decompressing the %s columns of DuckDB's file: %.1f Mrows/s\n",
                  two.name, rows / z->wall / 1e6);
    }
    std::fflush(stdout);
    state.counters["threads"] = threads;
    state.counters["write_ratio"] = duck_write / floe_write.wall;
    state.counters["write_ratio_cpu"] = duck_write_cpu / floe_write.cpu;
    state.counters["floe_write_Mrows_s"] = rows / floe_write.wall / 1e6;
    state.counters["worst_read_ratio"] = worst;
    state.counters["worst_read_ratio_cpu"] = worst_cpu;
    state.counters["floe_file_MB"] = static_cast<double>(fs::file_size(path)) / 1e6;
    state.counters["duckdb_file_MB"] = static_cast<double>(fs::file_size(duck_file)) / 1e6;
  }
}
BENCHMARK(BM_ParquetVsDuckDB)
    ->ArgNames({"codec", "threads"})
    ->ArgsProduct({{0, 1, 2}, {1, 2}})
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();

}  // namespace
