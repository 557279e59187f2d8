// Micro-benchmarks for the spec layer: table metadata JSON parse/write (large snapshot
// histories, as in long-lived streaming tables) and partition transforms.
#include <benchmark/benchmark.h>

#include <random>

#include "bench_support.h"
#include "floe/spec/table_metadata.h"
#include "floe/spec/transform.h"

namespace floe {
namespace {

TableMetadata synthetic_metadata(int snapshots) {
  TableMetadata m;
  m.format_version = 2;
  m.table_uuid = "9c12d441-03fe-4693-9a96-a0705ddf69c1";
  m.location = "s3://bucket/warehouse/analytics/sales";
  std::vector<NestedField> fields;
  for (int i = 1; i <= 20; ++i) {
    fields.push_back({i, "col_" + std::to_string(i), i % 2 ? Type::int64() : Type::string(), false,
                      "", std::nullopt, std::nullopt});
  }
  m.schemas = {std::make_shared<const Schema>(0, fields)};
  m.last_column_id = 20;
  m.specs = {std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{1, {}, 1000, "col_1_bucket", Transform::bucket(16)}})};
  m.last_partition_id = 1000;
  m.sort_orders = {std::make_shared<const SortOrder>()};
  std::mt19937_64 rng(42);
  int64_t parent = 0;
  for (int i = 0; i < snapshots; ++i) {
    auto s = std::make_shared<Snapshot>();
    s->snapshot_id = static_cast<int64_t>(rng() >> 1);
    if (parent) s->parent_snapshot_id = parent;
    s->sequence_number = i + 1;
    s->timestamp_ms = 1700000000000 + i * 60000;
    s->manifest_list = m.location + "/metadata/snap-" + std::to_string(s->snapshot_id) +
                       "-1-6f1a2b3c-4d5e-6f70-8192-a3b4c5d6e7f8.avro";
    s->summary = bench::java_append_summary(i + 1, 3, 30000, 4534534);
    s->schema_id = 0;
    parent = s->snapshot_id;
    m.snapshot_log.push_back({s->timestamp_ms, s->snapshot_id});
    m.snapshots.push_back(s);
  }
  m.last_sequence_number = snapshots;
  if (parent) {
    m.current_snapshot_id = parent;
    SnapshotRef main;
    main.snapshot_id = parent;
    m.refs["main"] = main;
  }
  return m;
}

void BM_ParseTableMetadata(benchmark::State& state) {
  std::string text = table_metadata_to_json(synthetic_metadata(state.range(0)));
  for (auto _ : state) {
    auto m = parse_table_metadata(text);
    benchmark::DoNotOptimize(m);
  }
  state.SetBytesProcessed(state.iterations() * text.size());
  state.counters["snapshots"] = state.range(0);
}
BENCHMARK(BM_ParseTableMetadata)->Arg(10)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

// What a scan reads: only the snapshots refs point at (bench/README.md C3: >= 700 MB/s).
void BM_ParseTableMetadataForScan(benchmark::State& state) {
  std::string text = table_metadata_to_json(synthetic_metadata(state.range(0)));
  MetadataParseOptions options;
  options.referenced_snapshots_only = true;
  for (auto _ : state) {
    auto m = parse_table_metadata(text, options);
    if (!m.ok() || m->snapshots.size() != 1) state.SkipWithError("parse failed");
    benchmark::DoNotOptimize(m);
  }
  state.SetBytesProcessed(state.iterations() * text.size());
  state.counters["snapshots"] = state.range(0);
}
BENCHMARK(BM_ParseTableMetadataForScan)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_WriteTableMetadata(benchmark::State& state) {
  TableMetadata m = synthetic_metadata(state.range(0));
  size_t bytes = 0;
  for (auto _ : state) {
    std::string text = table_metadata_to_json(m);
    bytes += text.size();
    benchmark::DoNotOptimize(text);
  }
  state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_WriteTableMetadata)->Arg(10)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_BucketHashLong(benchmark::State& state) {
  std::vector<int64_t> values(4096);
  std::mt19937_64 rng(7);
  for (auto& v : values) v = static_cast<int64_t>(rng());
  for (auto _ : state) {
    uint32_t acc = 0;
    for (int64_t v : values) acc += bucket_of(hash_long(v), 16);
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations() * values.size());
}
BENCHMARK(BM_BucketHashLong);

void BM_DayFromMicros(benchmark::State& state) {
  std::vector<int64_t> values(4096);
  std::mt19937_64 rng(9);
  for (auto& v : values) v = static_cast<int64_t>(rng() % 4000000000000000ULL) - 1000000000000000LL;
  for (auto _ : state) {
    int64_t acc = 0;
    for (int64_t v : values) acc += day_from_micros(v);
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations() * values.size());
}
BENCHMARK(BM_DayFromMicros);

}  // namespace
}  // namespace floe
