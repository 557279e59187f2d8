// Scan-planning benchmarks with the generators of workloads P1, P3 and P5 in
// bench/README.md. Tables are generated in memory with floe's own manifest
// writer. Sizes are scaled down by default so `make bench` stays short; FLOE_BENCH_SCALE=1
// gives the full published shapes (P1: 10,000 manifests x 500 files; P3: 50 x 50,000 files;
// P5: 50,000 manifests).
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>

#include "bench_support.h"
#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/scan/delete_index.h"
#include "floe/scan/table_scan.h"
#include "floe/spec/metadata_file.h"
#include "floe/sql/filter.h"

namespace floe {
namespace {

double scale() {
  const char* s = std::getenv("FLOE_BENCH_SCALE");
  return s ? std::atof(s) : 0.05;
}

using bench::field;

struct GeneratedTable {
  FileIOPtr io;
  std::shared_ptr<const TableMetadata> metadata;
  int64_t files = 0;
  std::string metadata_file;  // P1: the metadata.json with the whole snapshot history
  int64_t metadata_bytes = 0;
};

std::shared_ptr<TableMetadata> base_table(PartitionSpecPtr spec) {
  auto m = std::make_shared<TableMetadata>();
  m->format_version = 2;
  m->table_uuid = "00000000-0000-4000-8000-000000000000";
  m->location = "mem://warehouse/t";
  std::vector<NestedField> fields{field(1, "id", Type::int64()), field(2, "ts", Type::timestamp()),
                                  field(3, "part", Type::int32())};
  for (int i = 4; i <= 10; ++i) fields.push_back(field(i, "c" + std::to_string(i), Type::int64()));
  m->schemas = {std::make_shared<const Schema>(0, fields)};
  m->last_column_id = 10;
  m->specs = {std::move(spec)};
  m->last_partition_id = std::max(999, m->specs[0]->last_assigned_field_id());
  m->sort_orders = {std::make_shared<const SortOrder>()};
  return m;
}

DataFile data_file(int64_t index, int32_t spec_id, std::vector<Literal> partition, int64_t ts) {
  DataFile f;
  f.file_path = "mem://warehouse/t/data/" + std::to_string(index) +
                "-00000-0-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee-00001.parquet";
  f.file_format = "PARQUET";
  f.spec_id = spec_id;
  f.partition = std::move(partition);
  f.record_count = 10000;
  f.file_size_in_bytes = 4 << 20;
  // "real" metrics: sorted bounds that grow with the file index.
  for (int32_t id = 1; id <= 10; ++id) {
    f.column_sizes.push_back({id, 400000});
    f.value_counts.push_back({id, 10000});
    f.null_value_counts.push_back({id, 0});
    int64_t lo = id == 2 ? ts : index * 1000 + id, hi = id == 2 ? ts + 3599999999 : lo + 999;
    f.lower_bounds.push_back({id, *Literal::int64(lo).to_bytes()});
    f.upper_bounds.push_back({id, *Literal::int64(hi).to_bytes()});
  }
  f.split_offsets = std::vector<int64_t>{4};
  return f;
}

// Commits the manifests as one snapshot.
void finish_table(GeneratedTable* g, std::shared_ptr<TableMetadata> m,
                  const std::vector<ManifestFile>& manifests) {
  ManifestListWriterOptions lo;
  lo.snapshot_id = 1;
  lo.sequence_number = 1;
  lo.codec = avro::Codec::kDeflate;
  lo.level = 6;
  std::string list = m->location + "/metadata/snap-1.avro";
  auto written = write_manifest_list(*g->io, list, manifests, lo);
  if (!written.ok()) std::abort();
  auto s = std::make_shared<Snapshot>();
  s->snapshot_id = 1;
  s->sequence_number = 1;
  s->timestamp_ms = 1700000000000;
  s->manifest_list = list;
  s->summary = {{"operation", "append"}};
  m->snapshots = {s};
  m->current_snapshot_id = 1;
  m->last_sequence_number = 1;
  SnapshotRef main;
  main.snapshot_id = 1;
  m->refs["main"] = main;
  g->metadata = std::move(m);
}

std::vector<ManifestFile> write_manifests(FileIO& io, const TableMetadata& m, int count,
                                          int per_manifest, ManifestContent content,
                                          const std::function<DataFile(int, int)>& make) {
  std::vector<ManifestFile> out;
  for (int i = 0; i < count; ++i) {
    ManifestWriterOptions wo;
    wo.snapshot_id = 1;
    wo.content = content;
    wo.level = 6;
    auto w = ManifestWriter::make(
        io,
        [&](int k) {
          return m.location + "/metadata/m" +
                 std::to_string(content == ManifestContent::kData ? 0 : 1) + "-" +
                 std::to_string(i) + "-" + std::to_string(k) + ".avro";
        },
        m.schemas[0], m.specs[0], wo);
    if (!w.ok()) std::abort();
    for (int j = 0; j < per_manifest; ++j) {
      if (!(*w)->add(make(i, j)).ok()) std::abort();
    }
    auto files = (*w)->finish();
    if (!files.ok()) std::abort();
    out.insert(out.end(), files->begin(), files->end());
  }
  return out;
}

// One snapshot per hourly commit before the current one, as a streaming table keeps them (Java's
// 12-key append summaries, manifest lists, the snapshot log, 100 metadata-log entries); written
// as the table's metadata.json (about 1 KB per snapshot).
void add_history(GeneratedTable* g, int snapshots) {
  auto m = std::make_shared<TableMetadata>(*g->metadata);
  auto current = std::make_shared<Snapshot>(*m->snapshots[0]);
  std::vector<SnapshotPtr> history;
  m->snapshot_log.clear();
  for (int i = 0; i < snapshots; ++i) {
    bool last = i + 1 == snapshots;
    auto s = last ? current : std::make_shared<Snapshot>();
    s->snapshot_id = 1000000000000LL + i;
    s->sequence_number = i + 1;
    s->timestamp_ms = 1700000000000 + static_cast<int64_t>(i) * 3600000;
    if (i > 0) s->parent_snapshot_id = s->snapshot_id - 1;
    if (!last) {
      s->manifest_list = m->location + "/metadata/snap-" + std::to_string(s->snapshot_id) +
                         "-1-6f1a2b3c-4d5e-6f70-8192-a3b4c5d6e7f8.avro";
    }
    s->summary = bench::java_append_summary(i + 1, 500, 5000000, 2097152000);
    s->schema_id = 0;
    history.push_back(s);
    m->snapshot_log.push_back({s->timestamp_ms, s->snapshot_id});
  }
  for (int i = 0; i < 100; ++i) {
    m->metadata_log.push_back({1700000000000 + i, m->location + "/metadata/" + std::to_string(i) +
                                                      "-8a1c9e2f-4b3d-4e5f-9a8b-7c6d5e4f3a2b"
                                                      ".metadata.json"});
  }
  m->snapshots = std::move(history);
  m->current_snapshot_id = current->snapshot_id;
  m->refs["main"].snapshot_id = current->snapshot_id;
  m->last_sequence_number = snapshots;
  g->metadata_file =
      m->location + "/metadata/00001-8a1c9e2f-4b3d-4e5f-9a8b-7c6d5e4f3a2b.metadata.json";
  if (!write_table_metadata(*g->io, g->metadata_file, *m).ok()) std::abort();
  g->metadata_bytes = static_cast<int64_t>(g->io->read_file(g->metadata_file)->size());
  g->metadata = std::move(m);
}

// P1: a streaming-appended table, day(ts)-partitioned, one manifest per hour.
const GeneratedTable& p1() {
  static GeneratedTable g = [] {
    GeneratedTable t;
    t.io = make_memory_file_io();
    auto spec = std::make_shared<const PartitionSpec>(
        0, std::vector<PartitionField>{{2, {}, 1000, "ts_day", Transform::day()}});
    auto m = base_table(spec);
    int manifests = std::max(48, static_cast<int>(10000 * scale()));
    const int per = 500;
    const int64_t start = 1700000000000000LL;
    auto data =
        write_manifests(*t.io, *m, manifests, per, ManifestContent::kData, [&](int i, int j) {
          int64_t ts = start + static_cast<int64_t>(i) * 3600000000LL;
          return data_file(static_cast<int64_t>(i) * per + j, 0,
                           {Literal::date(day_from_micros(ts))}, ts);
        });
    t.files = static_cast<int64_t>(manifests) * per;
    finish_table(&t, m, data);
    add_history(&t, manifests);
    return t;
  }();
  return g;
}

// `read_metadata`: each run starts from the metadata.json, read for a scan (the snapshots refs
// name), as `floe scan` does; otherwise from the parsed metadata.
void run_plan(benchmark::State& state, const GeneratedTable& t, const std::string& filter,
              bool read_metadata = false) {
  int64_t planned = 0;
  ScanReport report;
  for (auto _ : state) {
    ScanOptions o;
    if (!filter.empty()) o.filter = *sql::parse_filter(filter, *t.metadata->schema());
    o.threads = static_cast<int>(state.range(0));
    std::shared_ptr<const TableMetadata> metadata = t.metadata;
    if (read_metadata) {
      MetadataParseOptions mo;
      mo.referenced_snapshots_only = true;
      auto m = read_table_metadata(*t.io, t.metadata_file, mo);
      if (!m.ok()) {
        state.SkipWithError(m.status().to_string().c_str());
        return;
      }
      metadata = std::make_shared<const TableMetadata>(std::move(*m));
    }
    auto scan = TableScan::make(t.io, metadata, o);
    // Streamed: the consumer sees every task (and its deletes) and keeps none.
    int64_t n = 0, deletes = 0;
    Status s = scan->plan_files([&](FileScanTask&& task) {
      ++n;
      deletes += static_cast<int64_t>(task.deletes.size());
      return true;
    });
    if (!s.ok()) {
      state.SkipWithError(s.to_string().c_str());
      return;
    }
    planned = n;
    report = scan->report();
    benchmark::DoNotOptimize(deletes);
  }
  state.counters["files_total"] = static_cast<double>(t.files);
  if (read_metadata) state.counters["metadata_MB"] = static_cast<double>(t.metadata_bytes) / 1e6;
  state.counters["files_planned"] = static_cast<double>(planned);
  state.counters["manifests_scanned"] = static_cast<double>(report.scanned_data_manifests);
  state.counters["entries_per_s"] =
      benchmark::Counter(static_cast<double>(report.total_data_files + report.total_delete_files),
                         benchmark::Counter::kIsIterationInvariantRate);
}

void BM_P1_NoFilter(benchmark::State& state) { run_plan(state, p1(), ""); }
// The metadata.json read for a scan alone (part of P1(b)).
void BM_P1_ReadMetadata(benchmark::State& state) {
  const GeneratedTable& t = p1();
  MetadataParseOptions mo;
  mo.referenced_snapshots_only = state.range(0) == 1;
  for (auto _ : state) {
    auto m = read_table_metadata(*t.io, t.metadata_file, mo);
    if (!m.ok()) state.SkipWithError(m.status().to_string().c_str());
    benchmark::DoNotOptimize(m);
  }
  state.counters["metadata_MB"] = static_cast<double>(t.metadata_bytes) / 1e6;
  state.counters["referenced_only"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_P1_ReadMetadata)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The current snapshot's manifest list alone (10,000 entries with partition summaries).
void BM_P1_ManifestList(benchmark::State& state) {
  const GeneratedTable& t = p1();
  for (auto _ : state) {
    auto list = read_manifest_list(*t.io, t.metadata->current_snapshot()->manifest_list);
    if (!list.ok()) state.SkipWithError(list.status().to_string().c_str());
    benchmark::DoNotOptimize(list);
  }
}
BENCHMARK(BM_P1_ManifestList)->Unit(benchmark::kMillisecond);

// Target (b): <= 30 ms on 2 cores including metadata.json and the manifest list.
void BM_P1_OneDay(benchmark::State& state) {
  run_plan(state, p1(), "ts >= '2023-11-16' AND ts < '2023-11-17'", true);
}
// (b) without the metadata.json read: planning alone, from metadata already parsed.
void BM_P1_OneDayPlanOnly(benchmark::State& state) {
  run_plan(state, p1(), "ts >= '2023-11-16' AND ts < '2023-11-17'", false);
}
BENCHMARK(BM_P1_OneDayPlanOnly)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
void BM_P1_MinMax(benchmark::State& state) {
  // id bounds grow with the file index: selects about 0.1 % of the files.
  int64_t n = p1().files;
  run_plan(state, p1(),
           "id >= " + std::to_string(n / 2 * 1000) + " AND id < " +
               std::to_string((n / 2 + n / 1000 + 1) * 1000));
}
BENCHMARK(BM_P1_NoFilter)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(BM_P1_OneDay)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(BM_P1_MinMax)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

// P3: delete index. 50 partitions; (i) 100 partition-scoped position deletes per partition,
// (ii) one file-scoped position delete per data file, (iii) one DV per data file.
const GeneratedTable& p3(int kind) {
  static std::map<int, GeneratedTable> tables;
  auto it = tables.find(kind);
  if (it != tables.end()) return it->second;
  GeneratedTable t;
  t.io = make_memory_file_io();
  auto spec = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{3, {}, 1000, "part", Transform::identity()}});
  auto m = base_table(spec);
  const int partitions = 50;
  const int per_partition = std::max(200, static_cast<int>(50000 * scale()));
  auto data = write_manifests(
      *t.io, *m, partitions, per_partition, ManifestContent::kData, [&](int p, int j) {
        return data_file(static_cast<int64_t>(p) * per_partition + j, 0, {Literal::int32(p)}, 0);
      });
  int deletes_per = kind == 0 ? 100 : per_partition;
  auto deletes = write_manifests(
      *t.io, *m, partitions, deletes_per, ManifestContent::kDeletes, [&](int p, int j) {
        DataFile d;
        d.content = FileContent::kPositionDeletes;
        d.file_path = m->location + "/data/del-" + std::to_string(p) + "-" + std::to_string(j) +
                      (kind == 2 ? ".puffin" : ".parquet");
        d.file_format = kind == 2 ? "puffin" : "PARQUET";
        d.partition = {Literal::int32(p)};
        d.record_count = 10;
        d.file_size_in_bytes = 1000;
        if (kind > 0) {
          d.referenced_data_file =
              data_file(static_cast<int64_t>(p) * per_partition + j, 0, {}, 0).file_path;
        }
        if (kind == 2) {
          d.content_offset = 4;
          d.content_size_in_bytes = 40;
        }
        return d;
      });
  data.insert(data.end(), deletes.begin(), deletes.end());
  t.files = static_cast<int64_t>(partitions) * per_partition;
  finish_table(&t, m, data);
  return tables.emplace(kind, std::move(t)).first->second;
}

void BM_P3_PartitionScopedDeletes(benchmark::State& state) { run_plan(state, p3(0), ""); }
void BM_P3_FileScopedDeletes(benchmark::State& state) { run_plan(state, p3(1), ""); }
void BM_P3_DeletionVectors(benchmark::State& state) { run_plan(state, p3(2), ""); }
BENCHMARK(BM_P3_PartitionScopedDeletes)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(BM_P3_FileScopedDeletes)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(BM_P3_DeletionVectors)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

// P3 as Java's DeleteFileIndexBenchmark measures it: the data files are already in memory; time
// reading the delete manifests into the index plus one lookup per data file (2 threads).
struct LoadedDataFiles {
  std::vector<DataFile> files;
  std::vector<int64_t> seqs;
  std::vector<ManifestFile> delete_manifests;
};

const LoadedDataFiles& p3_data_files(int kind) {
  static std::map<int, LoadedDataFiles> loaded;
  auto it = loaded.find(kind);
  if (it != loaded.end()) return it->second;
  const GeneratedTable& t = p3(kind);
  LoadedDataFiles l;
  auto manifests = snapshot_manifests(*t.io, *t.metadata, *t.metadata->current_snapshot());
  if (!manifests.ok()) std::abort();
  ManifestReadOptions o;
  o.read_stats = false;
  o.include_deleted = false;
  for (const auto& m : *manifests) {
    if (m.content != ManifestContent::kData) {
      l.delete_manifests.push_back(m);
      continue;
    }
    auto r = ManifestReader::open(*t.io, m, t.metadata.get(), o);
    if (!r.ok()) std::abort();
    Status s = (*r)->for_each([&](const ManifestEntry& e) {
      l.files.push_back(e.data_file);
      l.seqs.push_back(e.sequence_number.value_or(0));
      return true;
    });
    if (!s.ok()) std::abort();
  }
  return loaded.emplace(kind, std::move(l)).first->second;
}

void run_index(benchmark::State& state, int kind) {
  const GeneratedTable& t = p3(kind);
  const LoadedDataFiles& data = p3_data_files(kind);
  ManifestReadOptions o;
  o.include_deleted = false;
  o.read_stats = true;
  o.stats_columns = {2147483546};  // position deletes' file_path bounds only
  int64_t refs = 0, indexed = 0;
  // Where the time goes (wall, last iteration): reading the delete manifests into the index,
  // matching the data files, freeing the index.
  double build_s = 0, match_s = 0, free_s = 0;
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  for (auto _ : state) {
    ThreadPool pool(static_cast<int>(state.range(0)));
    auto index = std::make_unique<DeleteFileIndex>();
    std::vector<DeleteManifest> sources;
    for (const auto& m : data.delete_manifests) sources.push_back({&m, false});
    auto t0 = Clock::now();
    Status s = read_delete_manifests(*t.io, *t.metadata, sources, o, false, pool, {}, index.get(),
                                     nullptr, nullptr);
    if (!s.ok()) {
      state.SkipWithError(s.to_string().c_str());
      return;
    }
    build_s = since(t0);
    auto t1 = Clock::now();
    constexpr size_t kBatch = 8192;
    std::atomic<int64_t> total{0};
    s = pool.parallel_for((data.files.size() + kBatch - 1) / kBatch, [&](size_t b) {
      auto cache = DeleteFileIndex::make_cache();
      size_t begin = b * kBatch, end = std::min(data.files.size(), (b + 1) * kBatch);
      std::vector<const DataFile*> files;
      for (size_t i = begin; i < end; ++i) files.push_back(&data.files[i]);
      std::vector<DeleteFileList> lists(end - begin);
      index->for_data_files(files, {data.seqs.data() + begin, end - begin}, lists, cache.get());
      int64_t n = 0;
      for (const auto& l : lists) n += static_cast<int64_t>(l.size());
      total += n;
      return Status::OK();
    });
    match_s = since(t1);
    refs = total.load();
    indexed = static_cast<int64_t>(index->size());
    auto t2 = Clock::now();
    index.reset();
    free_s = since(t2);
  }
  state.counters["data_files"] = static_cast<double>(data.files.size());
  state.counters["delete_files"] = static_cast<double>(indexed);
  state.counters["delete_refs"] = static_cast<double>(refs);
  state.counters["build_ms"] = build_s * 1000;
  state.counters["match_ms"] = match_s * 1000;
  state.counters["free_ms"] = free_s * 1000;
}

void BM_P3_Index_PartitionScoped(benchmark::State& state) { run_index(state, 0); }
void BM_P3_Index_FileScoped(benchmark::State& state) { run_index(state, 1); }
void BM_P3_Index_DeletionVectors(benchmark::State& state) { run_index(state, 2); }
BENCHMARK(BM_P3_Index_PartitionScoped)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(BM_P3_Index_FileScoped)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(BM_P3_Index_DeletionVectors)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

// P4: PlanningBenchmark parity: 30 partitions x 50,001 files, a 23-column schema with stats on
// every column, and partition-scoped position deletes (one per partition).
const GeneratedTable& p4() {
  static GeneratedTable g = [] {
    GeneratedTable t;
    t.io = make_memory_file_io();
    auto spec = std::make_shared<const PartitionSpec>(
        0, std::vector<PartitionField>{{3, {}, 1000, "part", Transform::identity()}});
    auto m = base_table(spec);
    std::vector<NestedField> fields = m->schemas[0]->fields();
    for (int i = 11; i <= 23; ++i)
      fields.push_back(field(i, "c" + std::to_string(i), Type::int64()));
    m->schemas = {std::make_shared<const Schema>(0, fields)};
    m->last_column_id = 23;
    const int partitions = 30;
    const int per = std::max(200, static_cast<int>(50001 * scale()));
    auto wide = [&](int p, int j) {
      DataFile f = data_file(static_cast<int64_t>(p) * per + j, 0, {Literal::int32(p)}, 0);
      for (int32_t id = 11; id <= 23; ++id) {
        f.column_sizes.push_back({id, 400000});
        f.value_counts.push_back({id, 10000});
        f.null_value_counts.push_back({id, 0});
        f.lower_bounds.push_back({id, *Literal::int64(j * 7 + id).to_bytes()});
        f.upper_bounds.push_back({id, *Literal::int64(j * 7 + id + 500).to_bytes()});
      }
      return f;
    };
    auto data = write_manifests(*t.io, *m, partitions, per, ManifestContent::kData, wide);
    auto deletes =
        write_manifests(*t.io, *m, partitions, 1, ManifestContent::kDeletes, [&](int p, int) {
          DataFile d;
          d.content = FileContent::kPositionDeletes;
          d.file_path = m->location + "/data/pdel-" + std::to_string(p) + ".parquet";
          d.file_format = "PARQUET";
          d.partition = {Literal::int32(p)};
          d.record_count = 100;
          d.file_size_in_bytes = 5000;
          return d;
        });
    data.insert(data.end(), deletes.begin(), deletes.end());
    t.files = static_cast<int64_t>(partitions) * per;
    finish_table(&t, m, data);
    return t;
  }();
  return g;
}

void BM_P4_NoFilter(benchmark::State& state) { run_plan(state, p4(), ""); }
void BM_P4_MinMax(benchmark::State& state) { run_plan(state, p4(), "c15 < 1000"); }
void BM_P4_PartitionAndMinMax(benchmark::State& state) {
  run_plan(state, p4(), "part = 7 AND c15 < 1000");
}
BENCHMARK(BM_P4_NoFilter)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(BM_P4_MinMax)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(BM_P4_PartitionAndMinMax)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

// P5: many tiny manifests (a never-compacted streaming table).
const GeneratedTable& p5() {
  static GeneratedTable g = [] {
    GeneratedTable t;
    t.io = make_memory_file_io();
    auto m = base_table(PartitionSpec::unpartitioned());
    int manifests = std::max(500, static_cast<int>(50000 * scale()));
    auto data = write_manifests(*t.io, *m, manifests, 1, ManifestContent::kData,
                                [&](int i, int) { return data_file(i, 0, {}, 0); });
    t.files = manifests;
    finish_table(&t, m, data);
    return t;
  }();
  return g;
}

void BM_P5_TinyManifests(benchmark::State& state) { run_plan(state, p5(), ""); }
BENCHMARK(BM_P5_TinyManifests)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

}  // namespace
}  // namespace floe
