// Manifest decode throughput (entries/s) for manifests shaped like bench/README.md workloads P0
// (unpartitioned, 10 columns of jmh-style metrics, v2) and P2 (100 columns), deflate and zstd,
// against Debian's Avro C generic reader (avro_file_reader_read_value) on the same deflate
// files. Files are generated once with floe's ManifestWriter into a temp dir; reads start from
// bytes in memory for floe and from the (page-cached) file for Avro C.
#include <avro.h>
#include <benchmark/benchmark.h>
#include <time.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <random>

#include "floe/manifest/manifest_reader.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/spec/type.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

struct Shape {
  int columns;
  int entries;
  avro::Codec codec;
};

std::string le(uint64_t v, int n) {
  std::string s(n, '\0');
  for (int i = 0; i < n; ++i) s[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  return s;
}

// Generates (once) a manifest of the given shape and returns its path.
const std::string& manifest_file(const Shape& shape) {
  static std::map<std::tuple<int, int, int>, std::string> cache;
  auto key = std::make_tuple(shape.columns, shape.entries, static_cast<int>(shape.codec));
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  struct Dir {  // removed at exit
    fs::path path = fs::temp_directory_path() / fmt::format("floe_manifest_bench_{}", getpid());
    Dir() { fs::create_directories(path); }
    ~Dir() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  };
  static Dir scratch;
  const fs::path& dir = scratch.path;
  std::string path = (dir / fmt::format("p_{}c_{}e_{}.avro", shape.columns, shape.entries,
                                        avro::codec_name(shape.codec)))
                         .string();
  std::vector<NestedField> fields;
  for (int c = 1; c <= shape.columns; ++c) {
    TypePtr t = c % 4 == 1   ? Type::int64()
                : c % 4 == 2 ? Type::string()
                : c % 4 == 3 ? Type::float64()
                             : Type::timestamptz();
    NestedField nf;
    nf.id = c;
    nf.name = fmt::format("col_{}", c);
    nf.type = t;
    fields.push_back(std::move(nf));
  }
  auto schema = std::make_shared<Schema>(0, fields);
  auto spec = PartitionSpec::unpartitioned(0);
  auto io = make_local_file_io();
  ManifestWriterOptions opts;
  opts.snapshot_id = 3055729675574597004;
  opts.codec = shape.codec;
  opts.level = shape.codec == avro::Codec::kZstd ? 3 : 6;
  opts.target_size_bytes = int64_t{1} << 40;
  auto writer = *ManifestWriter::make(
      *io, [&](int) { return path; }, schema, spec, opts);
  std::mt19937_64 rng(7);
  for (int i = 0; i < shape.entries; ++i) {
    DataFile f;
    f.file_path = fmt::format(
        "s3://bucket/warehouse/db/table/data/"
        "00{:03d}-{}-8b3f1c2e-4d5a-4e6f-9a0b-{:012x}-00001.parquet",
        i % 1000, i, rng() & 0xffffffffffffULL);
    f.file_format = "PARQUET";
    f.record_count = 100000 + static_cast<int64_t>(rng() % 1000);
    f.file_size_in_bytes = 50000000 + static_cast<int64_t>(rng() % 1000000);
    for (int c = 1; c <= shape.columns; ++c) {
      f.column_sizes.emplace_back(c, static_cast<int64_t>(rng() % 5000000));
      f.value_counts.emplace_back(c, f.record_count);
      f.null_value_counts.emplace_back(c, static_cast<int64_t>(rng() % 100));
      if (c % 4 == 3) f.nan_value_counts.emplace_back(c, 0);
      uint64_t lo = rng(), hi = lo + rng() % 100000;
      if (c % 4 == 2) {
        f.lower_bounds.emplace_back(c, fmt::format("value_{:010d}", lo % 1000000000));
        f.upper_bounds.emplace_back(c, fmt::format("value_{:010d}", hi % 1000000000));
      } else {
        f.lower_bounds.emplace_back(c, le(lo, 8));
        f.upper_bounds.emplace_back(c, le(hi, 8));
      }
    }
    f.split_offsets = std::vector<int64_t>{4};
    f.sort_order_id = 0;
    (void)writer->add(f);
  }
  (void)writer->finish();
  return cache[key] = path;
}

std::string file_bytes(const std::string& path) { return *make_local_file_io()->read_file(path); }

ManifestFile list_entry(const std::string& path) {
  ManifestFile mf;
  mf.manifest_path = path;
  mf.sequence_number = 1;
  mf.added_snapshot_id = 3055729675574597004;
  return mf;
}

// floe: decode every entry (all stats, or none, or one column's) and sum record_count.
int64_t floe_read(const std::string& bytes, const std::string& path, ManifestReadOptions options,
                  int64_t* entries) {
  auto reader = *ManifestReader::open_view(bytes, list_entry(path), nullptr, std::move(options));
  int64_t records = 0;
  Status st = reader->for_each([&](const ManifestEntry& e) {
    records += e.data_file.record_count;
    ++*entries;
    return true;
  });
  if (!st.ok()) std::abort();
  return records;
}

// Avro C: the generic value reader over the whole record, as H6 measured it.
int64_t avro_c_read(const std::string& path, int64_t* entries) {
  avro_file_reader_t reader;
  if (avro_file_reader(path.c_str(), &reader) != 0) {
    fprintf(stderr, "avro-c: %s\n", avro_strerror());
    std::abort();
  }
  avro_schema_t schema = avro_file_reader_get_writer_schema(reader);
  avro_value_iface_t* iface = avro_generic_class_from_schema(schema);
  avro_value_t value;
  avro_generic_value_new(iface, &value);
  int64_t records = 0;
  while (avro_file_reader_read_value(reader, &value) == 0) {
    avro_value_t data_file, record_count;
    int64_t n = 0;
    avro_value_get_by_name(&value, "data_file", &data_file, nullptr);
    avro_value_get_by_name(&data_file, "record_count", &record_count, nullptr);
    avro_value_get_long(&record_count, &n);
    records += n;
    ++*entries;
  }
  avro_value_decref(&value);
  avro_value_iface_decref(iface);
  avro_file_reader_close(reader);
  return records;
}

// Thread CPU time: the per-core figure, unaffected by other processes sharing the cores.
double thread_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

enum Mode { kAllStats = 0, kNoStats = 1, kOneColumn = 2 };

void BM_FloeManifestDecode(benchmark::State& state) {
  Shape shape{static_cast<int>(state.range(0)), static_cast<int>(state.range(1)),
              static_cast<avro::Codec>(state.range(2))};
  const std::string& path = manifest_file(shape);
  std::string bytes = file_bytes(path);
  ManifestReadOptions options;
  if (state.range(3) == kNoStats) options.read_stats = false;
  if (state.range(3) == kOneColumn) options.stats_columns = {1};
  int64_t entries = 0;
  for (auto _ : state) benchmark::DoNotOptimize(floe_read(bytes, path, options, &entries));
  state.counters["entries/s"] =
      benchmark::Counter(static_cast<double>(entries), benchmark::Counter::kIsRate);
  state.counters["bytes/entry"] = static_cast<double>(bytes.size()) / shape.entries;
  state.SetLabel(fmt::format("{} cols, {}, {}", shape.columns, avro::codec_name(shape.codec),
                             state.range(3) == kAllStats  ? "all stats"
                             : state.range(3) == kNoStats ? "no stats"
                                                          : "stats of 1 column"));
}

void BM_AvroCManifestDecode(benchmark::State& state) {
  Shape shape{static_cast<int>(state.range(0)), static_cast<int>(state.range(1)),
              avro::Codec::kDeflate};
  const std::string& path = manifest_file(shape);
  int64_t entries = 0;
  for (auto _ : state) benchmark::DoNotOptimize(avro_c_read(path, &entries));
  state.counters["entries/s"] =
      benchmark::Counter(static_cast<double>(entries), benchmark::Counter::kIsRate);
  state.SetLabel(fmt::format("{} cols, deflate, avro-c generic", shape.columns));
}

// The container layer alone (block framing + decompression, no entry decoding): the floor
// under the decoder, to see where the time of BM_FloeManifestDecode goes.
void BM_ManifestInflateOnly(benchmark::State& state) {
  Shape shape{static_cast<int>(state.range(0)), static_cast<int>(state.range(1)),
              static_cast<avro::Codec>(state.range(2))};
  const std::string& path = manifest_file(shape);
  std::string bytes = file_bytes(path);
  int64_t entries = 0;
  for (auto _ : state) {
    auto reader = *avro::ContainerReader::open_view(bytes, path);
    while (*reader->next_block()) entries += reader->block_count();
  }
  state.counters["entries/s"] =
      benchmark::Counter(static_cast<double>(entries), benchmark::Counter::kIsRate);
  state.SetLabel(
      fmt::format("{} cols, {}, decompress only", shape.columns, avro::codec_name(shape.codec)));
}

// Both readers on the same deflate file, best of 3 runs each (thread CPU time): entries/s and
// floe / Avro C.
void BM_FloeVsAvroC(benchmark::State& state) {
  Shape shape{static_cast<int>(state.range(0)), static_cast<int>(state.range(1)),
              avro::Codec::kDeflate};
  const std::string& path = manifest_file(shape);
  std::string bytes = file_bytes(path);
  double floe_best = 1e30, avro_best = 1e30;
  for (auto _ : state) {
    for (int run = 0; run < 3; ++run) {
      int64_t n = 0;
      double t0 = thread_seconds();
      benchmark::DoNotOptimize(floe_read(bytes, path, {}, &n));
      double t1 = thread_seconds();
      benchmark::DoNotOptimize(avro_c_read(path, &n));
      double t2 = thread_seconds();
      floe_best = std::min(floe_best, t1 - t0);
      avro_best = std::min(avro_best, t2 - t1);
    }
  }
  state.counters["floe_entries/s"] = shape.entries / floe_best;
  state.counters["avroc_entries/s"] = shape.entries / avro_best;
  state.counters["ratio"] = avro_best / floe_best;
  state.SetLabel(fmt::format("{} cols, deflate: floe / avro-c", shape.columns));
}

constexpr int kDeflate = static_cast<int>(avro::Codec::kDeflate);
constexpr int kZstd = static_cast<int>(avro::Codec::kZstd);

// P0: 100,000 entries, 10 columns. P2: 2,700 entries (one 8 MB-class manifest), 100 columns.
BENCHMARK(BM_FloeManifestDecode)
    ->Args({10, 100000, kDeflate, kAllStats})
    ->Args({10, 100000, kZstd, kAllStats})
    ->Args({10, 100000, kDeflate, kNoStats})
    ->Args({10, 100000, kDeflate, kOneColumn})
    ->Args({100, 2700, kDeflate, kAllStats})
    ->Args({100, 2700, kZstd, kAllStats})
    ->Args({100, 2700, kDeflate, kOneColumn})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ManifestInflateOnly)
    ->Args({10, 100000, kDeflate})
    ->Args({10, 100000, kZstd})
    ->Args({100, 2700, kDeflate})
    ->Args({100, 2700, kZstd})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AvroCManifestDecode)
    ->Args({10, 100000})
    ->Args({100, 2700})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FloeVsAvroC)
    ->Args({10, 100000})
    ->Args({100, 2700})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace floe
