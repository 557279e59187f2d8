// Merge-on-read reads and writes (bench/README.md workloads M1-M3 and M5, anchor H13).
//
// BM_MergeOnReadScan: one 1M-row data file (7 columns: long, int, float, double, date,
// timestamptz, string; zstd; the file a partition of a table would hold) read through floe's
// read path (ScanReader over a FileScanTask with its delete files attached, as planning attaches
// them; a new reader per run, so every delete file is loaded as in a new scan) with
//   - no deletes (the clean scan every ratio is taken to),
//   - v2 file-scoped position delete files (PositionDeleteWriter): 1 row; 5 % of the rows spread
//     over 1, 25 and 100 files; 50 % in one file,
//   - one v3 deletion vector (DeletionVectorWriter) with the same 5 % and 50 %,
//   - equality delete files on the long key (EqualityDeleteWriter): 5 % of the keys spread over
//     1, 25 and 180 files, data sequence numbers above the data file's,
// and DuckDB (1 thread) on the same files in the same run: a sum of every column of
// read_parquet(data, file_row_number = true) ANTI JOIN read_parquet(position delete files) ON
// file_row_number = pos, or ANTI JOIN read_parquet(equality delete files) ON the key
// (tests/oracle/merge_on_read_bench_duckdb.mjs). DuckDB cannot read a Puffin DV: the DV rows
// show its anti-join of the same positions as a Parquet file. floe's side decodes every column
// to batches (its sink adds up the key to check the rows left against DuckDB's and the
// generator's). Ratios to the clean scan are of the best process CPU time (steadier on a shared
// machine), with the wall-time ratio beside them. Targets: position deletes and DVs at most
// +10 % over the clean scan at <= 5 % deleted and +20 % at 50 % (M1); equality-delete scans
// flat in the number of files, within 1.5x from 1 to 180 files (M3).
//
// BM_MergeOnReadDelete (M5): a merge-on-read `DELETE FROM t WHERE id % 100 = 0` (1 % of the
// rows) on a 10M-row table of the same 7 columns, v2 (position delete files) and v3 (deletion
// vectors), through floe::sql::Session, timing the statement; then the same change by hand, to
// split it: the scan that finds the rows (ScanReader with `_pos` and the key), the write of the
// delete files (PositionDeleteFanout) and the commit (RowDelta). The table is rolled back to its
// insert snapshot between runs.
//
// Sizes: FLOE_BENCH_MOR_SCALE multiplies both row counts (default 1; e.g. 0.1 for a quick
// check); FLOE_BENCH_MOR_RUNS the runs of each read case (default 5; best kept);
// FLOE_BENCH_THREADS the SQL session's threads (default 1). To profile one case:
// FLOE_BENCH_MOR_ONLY (the cases whose name holds it, and the clean scan),
// FLOE_BENCH_MOR_NO_DUCKDB (set: no DuckDB side).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>

#include "bench_support.h"
#include "floe/read/task_reader.h"
#include "floe/spec/metadata_columns.h"
#include "floe/sql/session.h"
#include "floe/table/table.h"
#include "floe/write/data_writer.h"
#include "floe/write/delete_fanout.h"
#include "floe/write/delete_writer.h"
#include "floe/write/deletion_vector_writer.h"

namespace {

using namespace floe;
using bench::best_times;
using bench::field;
using bench::Timing;
namespace fs = std::filesystem;

double mor_scale() {
  const char* env = std::getenv("FLOE_BENCH_MOR_SCALE");
  double s = env ? std::atof(env) : 1.0;
  return s > 0 ? s : 1.0;
}

int64_t scaled(int64_t rows) {
  return std::max<int64_t>(1000, static_cast<int64_t>(static_cast<double>(rows) * mor_scale()));
}

int read_runs() {
  const char* env = std::getenv("FLOE_BENCH_MOR_RUNS");
  return env ? std::max(1, std::atoi(env)) : 5;
}

int session_threads() {
  const char* env = std::getenv("FLOE_BENCH_THREADS");
  return env ? std::max(1, std::atoi(env)) : 1;
}

fs::path bench_dir() {
  static fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("floe-mor-bench-" + std::to_string(::getpid()));
    fs::create_directories(d);
    std::atexit([] {
      if (std::getenv("FLOE_BENCH_KEEP")) return;  // keep the files to inspect them
      fs::remove_all(fs::temp_directory_path() / ("floe-mor-bench-" + std::to_string(::getpid())));
    });
    return d;
  }();
  return dir;
}

// M1's seven columns (Java's IcebergSourceDeleteBenchmark without its decimal).
std::shared_ptr<const Schema> seven_column_schema() {
  static auto schema = std::make_shared<const Schema>(
      0, std::vector<NestedField>{
             field(1, "id", Type::int64(), true), field(2, "int_col", Type::int32()),
             field(3, "float_col", Type::float32()), field(4, "double_col", Type::float64()),
             field(5, "date_col", Type::date()), field(6, "ts_col", Type::timestamptz()),
             field(7, "string_col", Type::string())});
  return schema;
}

std::shared_ptr<const TableMetadata> read_table(int format_version) {
  auto m = std::make_shared<TableMetadata>();
  m->format_version = format_version;
  m->table_uuid = "00000000-0000-4000-8000-000000000001";
  m->location = bench_dir().string();
  m->schemas = {seven_column_schema()};
  m->last_column_id = 7;
  m->specs = {PartitionSpec::unpartitioned()};
  m->last_partition_id = 999;
  m->sort_orders = {std::make_shared<const SortOrder>()};
  return m;
}

// The data file: id = row position (the equality key), the other columns pseudo-random.
Result<DataFile> write_data_file(int64_t rows) {
  const auto schema = seven_column_schema();
  WriteOptions options = FLOE_TRY(WriteOptions::from_properties({}, *schema, bench_dir().string()));
  OutputFileFactory files(options, ".parquet");
  auto writer =
      FLOE_TRY(DataFileWriter::make(make_local_file_io(), schema, options, &files, {}, "", 0));
  std::mt19937_64 rng(7);
  for (int64_t start = 0; start < rows; start += 65536) {
    ColumnBatch b = ColumnBatch::make(schema->fields());
    const int64_t n = std::min<int64_t>(65536, rows - start);
    for (int64_t i = start; i < start + n; ++i) {
      uint64_t x = rng();
      b.columns[0]->append_fixed<int64_t>(i);
      b.columns[1]->append_fixed<int32_t>(static_cast<int32_t>(x % 100000));
      b.columns[2]->append_fixed<float>(static_cast<float>(x % 1000000) / 100.0f);
      b.columns[3]->append_fixed<double>(static_cast<double>(x >> 11) * 0x1.0p-53 * 1000.0);
      b.columns[4]->append_fixed<int32_t>(18000 + static_cast<int32_t>((x >> 20) % 3650));
      b.columns[5]->append_fixed<int64_t>(1700000000000000LL + i * 1000 +
                                          static_cast<int64_t>((x >> 30) % 1000));
      b.columns[6]->append_bytes(fmt::format("str-{:012x}", x >> 16));
    }
    b.num_rows = n;
    FLOE_TRY(writer->write(b));
  }
  auto written = FLOE_TRY(writer->close());
  if (written.size() != 1)
    return make_error(ErrorKind::kInternal, "expected one data file, got {}", written.size());
  return written[0];
}

// `count` distinct positions of [0, rows), a pseudo-random sample in random order.
std::vector<int64_t> sample(int64_t rows, int64_t count, uint64_t seed) {
  std::vector<int64_t> all(static_cast<size_t>(rows));
  std::iota(all.begin(), all.end(), 0);
  std::mt19937_64 rng(seed);
  for (int64_t i = 0; i < count; ++i) {
    std::uniform_int_distribution<int64_t> pick(i, rows - 1);
    std::swap(all[static_cast<size_t>(i)], all[static_cast<size_t>(pick(rng))]);
  }
  all.resize(static_cast<size_t>(count));
  return all;
}

// `positions` dealt round-robin into `files` groups.
std::vector<std::vector<int64_t>> deal(const std::vector<int64_t>& positions, int files) {
  std::vector<std::vector<int64_t>> out(static_cast<size_t>(files));
  for (size_t i = 0; i < positions.size(); ++i) out[i % out.size()].push_back(positions[i]);
  return out;
}

struct ReadCase {
  std::string name;
  std::string kind;  // clean, position, dv, equality
  int files = 0;
  int64_t deleted = 0;
  std::vector<DeleteFilePtr> deletes;
  std::vector<std::string> duck_files;  // Parquet delete files for DuckDB
  std::string duck_case;                // the DuckDB case timed for this one
  int64_t rows_left = 0;
  int64_t key_sum = 0;  // of the ids left
  // Target: ratio to the clean scan (position deletes, DVs) or to the one-file equality case.
  double target = 0;
};

struct DeletesWritten {
  std::vector<DeleteFilePtr> deletes;
  std::vector<std::string> paths;
};

Result<DeletesWritten> write_position_files(const DataFile& data,
                                            const std::vector<int64_t>& positions, int files,
                                            const std::string& tag) {
  DeletesWritten out;
  auto groups = deal(positions, files);
  for (int f = 0; f < files; ++f) {
    std::string path = (bench_dir() / fmt::format("{}-pos-{:04d}.parquet", tag, f)).string();
    PositionDeleteWriter w(make_local_file_io(), path, parquet::WriterOptions{});
    w.add(data.file_path, groups[static_cast<size_t>(f)]);
    auto file = FLOE_TRY(w.close());
    if (!file) return make_error(ErrorKind::kInternal, "no position delete file written");
    out.deletes.push_back(DeleteFile::make(*file, 2 + f, 2 + f));
    out.paths.push_back(path);
  }
  return out;
}

Result<DeletesWritten> write_dv(const DataFile& data, const std::vector<int64_t>& positions,
                                const std::string& tag) {
  DeletesWritten out;
  std::string path = (bench_dir() / fmt::format("{}-dv.puffin", tag)).string();
  DeletionVectorWriter w(make_local_file_io(), path);
  FLOE_TRY(w.add(data, positions));
  auto files = FLOE_TRY(w.close());
  for (const auto& f : files) out.deletes.push_back(DeleteFile::make(f, 2, 2));
  out.paths.push_back(path);
  return out;
}

Result<DeletesWritten> write_equality_files(const std::vector<int64_t>& keys, int files) {
  DeletesWritten out;
  auto delete_schema = std::make_shared<const Schema>(
      0, std::vector<NestedField>{seven_column_schema()->fields()[0]});
  auto groups = deal(keys, files);
  for (int f = 0; f < files; ++f) {
    std::string path = (bench_dir() / fmt::format("eq{}-{:04d}.parquet", files, f)).string();
    auto w = FLOE_TRY(EqualityDeleteWriter::open(make_local_file_io(), path, delete_schema, {1},
                                                 parquet::WriterOptions{}));
    ColumnBatch b = ColumnBatch::make(delete_schema->fields());
    auto& group = groups[static_cast<size_t>(f)];
    std::sort(group.begin(), group.end());
    for (int64_t k : group) b.columns[0]->append_fixed<int64_t>(k);
    b.num_rows = static_cast<int64_t>(group.size());
    FLOE_TRY(w->write(b));
    DataFile file = FLOE_TRY(w->close());
    // Each later than the data file (sequence number 1) and than the one before.
    out.deletes.push_back(DeleteFile::make(file, 2 + f, 2 + f));
    out.paths.push_back(path);
  }
  return out;
}

struct ScanResult {
  int64_t rows = 0;
  int64_t key_sum = 0;
};

Result<ScanResult> scan_once(const std::shared_ptr<const TableMetadata>& table,
                             const FileScanTask& task) {
  ScanReader reader(make_local_file_io(), table, *table->schemas[0]);
  ScanResult r;
  FLOE_TRY(reader.read(task, [&](ColumnBatch&& b) {
    r.rows += b.num_rows;
    const int64_t* id = b.columns[0]->raw<int64_t>();
    for (int64_t i = 0; i < b.num_rows; ++i) r.key_sum += id[i];
    return Status::OK();
  }));
  return r;
}

std::string pct(double ratio) { return fmt::format("{:+.1f} %", (ratio - 1) * 100); }

void BM_MergeOnReadScan(benchmark::State& state) {
  const int64_t rows = scaled(1000000);
  const int runs = read_runs();
  std::string oracle = fs::path(FLOE_SOURCE_DIR) / "tests" / "oracle";
  for (auto _ : state) {
    auto data = write_data_file(rows);
    if (!data.ok()) {
      state.SkipWithError(data.status().to_string().c_str());
      return;
    }
    const int64_t all_sum = rows * (rows - 1) / 2;
    const int64_t five = rows / 20, half = rows / 2;
    const std::vector<int64_t> pos5 = sample(rows, five, 1), pos50 = sample(rows, half, 2),
                               keys5 = sample(rows, five, 3), one_row = {rows / 2};
    auto sum_of = [](const std::vector<int64_t>& v) {
      return std::accumulate(v.begin(), v.end(), int64_t{0});
    };

    std::vector<ReadCase> cases;
    const char* only = std::getenv("FLOE_BENCH_MOR_ONLY");
    Status st = [&]() -> Status {
      auto add = [&](std::string name, std::string kind, int files, std::string duck_case,
                     double target, const std::vector<int64_t>& deleted, DeletesWritten w) {
        ReadCase c;
        c.name = std::move(name);
        c.kind = std::move(kind);
        c.files = files;
        c.duck_case = std::move(duck_case);
        c.target = target;
        c.deleted = static_cast<int64_t>(deleted.size());
        c.rows_left = rows - c.deleted;
        c.key_sum = all_sum - sum_of(deleted);
        c.deletes = std::move(w.deletes);
        if (c.kind != "dv") c.duck_files = std::move(w.paths);
        if (c.kind == "clean" || !only || c.name.find(only) != std::string::npos) {
          cases.push_back(std::move(c));
        }
      };
      add("clean", "clean", 0, "clean", 0, {}, {});
      add("position, 1 row", "position", 1, "position, 1 row", 1.10, one_row,
          FLOE_TRY(write_position_files(*data, one_row, 1, "row")));
      for (int files : {1, 25, 100}) {
        std::string name = fmt::format("position, 5 %, {} file{}", files, files > 1 ? "s" : "");
        add(name, "position", files, name, 1.10, pos5,
            FLOE_TRY(write_position_files(*data, pos5, files, fmt::format("p5x{}", files))));
      }
      add("DV, 5 %", "dv", 1, "position, 5 %, 1 file", 1.10, pos5,
          FLOE_TRY(write_dv(*data, pos5, "dv5")));
      add("position, 50 %, 1 file", "position", 1, "position, 50 %, 1 file", 1.20, pos50,
          FLOE_TRY(write_position_files(*data, pos50, 1, "p50")));
      add("DV, 50 %", "dv", 1, "position, 50 %, 1 file", 1.20, pos50,
          FLOE_TRY(write_dv(*data, pos50, "dv50")));
      for (int files : {1, 25, 180}) {
        std::string name = fmt::format("equality, 5 %, {} file{}", files, files > 1 ? "s" : "");
        add(name, "equality", files, name, files > 1 ? 1.5 : 0, keys5,
            FLOE_TRY(write_equality_files(keys5, files)));
      }
      return Status::OK();
    }();
    if (!st.ok()) {
      state.SkipWithError(st.to_string().c_str());
      return;
    }

    // DuckDB first (its own process), then floe.
    nlohmann::json spec = {
        {"data", data->file_path}, {"runs", runs}, {"cases", nlohmann::json::array()}};
    for (const auto& c : cases) {
      if (c.kind == "dv") continue;
      spec["cases"].push_back({{"name", c.name},
                               {"kind", c.kind == "clean" ? "clean" : c.kind},
                               {"files", c.duck_files},
                               {"key", "id"}});
    }
    std::string spec_path = (bench_dir() / "duckdb_cases.json").string();
    std::ofstream(spec_path) << spec.dump();
    const bool skip_duck = std::getenv("FLOE_BENCH_MOR_NO_DUCKDB") != nullptr;
    std::string text =
        skip_duck
            ? ""
            : bench::command_output("cd '" + oracle + "' && node merge_on_read_bench_duckdb.mjs '" +
                                    spec_path + "'");
    auto duck = nlohmann::json::parse(text, nullptr, false);
    const bool have_duck = !duck.is_discarded() && duck.contains("cases");
    if (!have_duck && !skip_duck) std::fprintf(stderr, "DuckDB timing failed: %s\n", text.c_str());

    const auto table = read_table(3);
    FileScanTask base;
    base.file = std::make_shared<const DataFile>(*data);
    base.data_sequence_number = 1;
    base.length = data->file_size_in_bytes;
    std::map<std::string, Timing> floe_times;
    std::vector<FileScanTask> tasks;
    for (const auto& c : cases) {
      FileScanTask task = base;
      task.deletes = DeleteFileList(c.deletes);
      auto check = scan_once(table, task);
      if (!check.ok() || check->rows != c.rows_left || check->key_sum != c.key_sum) {
        std::string why = check.ok()
                              ? fmt::format(
                                    "{}: floe left {} rows (key sum {}), expected "
                                    "{} ({})",
                                    c.name, check->rows, check->key_sum, c.rows_left, c.key_sum)
                              : check.status().to_string();
        state.SkipWithError(why.c_str());
        return;
      }
      if (have_duck && duck["cases"].contains(c.duck_case)) {
        const auto& d = duck["cases"][c.duck_case];
        if (d["count"].get<int64_t>() != c.rows_left ||
            (c.rows_left > 0 && d["key_sum"].get<std::string>() != std::to_string(c.key_sum))) {
          state.SkipWithError(("DuckDB disagrees on " + c.name + ": " + d.dump()).c_str());
          return;
        }
      }
      tasks.push_back(std::move(task));
    }
    // Round robin over the cases, so that the load of the shared machine spreads over all of
    // them, each round starting one case later (a case that follows a memory-hungry one pays
    // for its freed pages: no case, the clean scan included, always comes first); the best of
    // each is kept.
    for (int run = 0; run < runs; ++run) {
      for (size_t k = 0; k < cases.size(); ++k) {
        const size_t i = (k + static_cast<size_t>(run)) % cases.size();
        Timing t = best_times(1, [&] { benchmark::DoNotOptimize(scan_once(table, tasks[i])); });
        Timing& best = floe_times[cases[i].name];
        best.wall = std::min(best.wall, t.wall);
        best.cpu = std::min(best.cpu, t.cpu);
      }
    }

    const Timing clean = floe_times["clean"];
    const Timing eq1 = floe_times["equality, 5 %, 1 file"];
    double duck_clean_cpu = have_duck ? duck["cases"]["clean"]["cpu_s"].get<double>() : 0;
    const double r = static_cast<double>(rows);
    std::printf(
        "\nmerge-on-read scan of one %lld-row data file (7 columns, zstd), 1 thread, best of %d; "
        "ratios of CPU time (wall beside); floe/DuckDB = DuckDB's CPU time / floe's\n",
        static_cast<long long>(rows), runs);
    std::printf(
        "| case | rows deleted | floe Mrows/s | floe vs clean | (wall) | +ns/row | DuckDB Mrows/s "
        "| DuckDB vs clean | floe/DuckDB | target | check |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n");
    int misses = 0;
    double worst_pos = 0, worst_eq = 0;
    for (const auto& c : cases) {
      const Timing t = floe_times[c.name];
      const double ratio = t.cpu / clean.cpu, wall_ratio = t.wall / clean.wall;
      std::string target = "-", check = "-";
      if (c.kind == "position" || c.kind == "dv") {
        target = fmt::format("<= {} vs clean", pct(c.target));
        check = ratio <= c.target ? "PASS" : "MISS";
        worst_pos = std::max(worst_pos, ratio);
      } else if (c.kind == "equality" && c.target > 0) {
        const double flat = t.cpu / eq1.cpu;
        target = fmt::format("<= {:.1f}x the 1-file case", c.target);
        check = fmt::format("{} ({:.2f}x)", flat <= c.target ? "PASS" : "MISS", flat);
        worst_eq = std::max(worst_eq, flat);
      }
      if (check.starts_with("MISS")) ++misses;
      std::string duck_cells = "- | - | -";
      if (have_duck && duck["cases"].contains(c.duck_case)) {
        const auto& d = duck["cases"][c.duck_case];
        double ds = d["s"], dc = d["cpu_s"];
        duck_cells =
            fmt::format("{:.1f}{} | {} | {:.2f}x", r / ds / 1e6, c.kind == "dv" ? " (Parquet)" : "",
                        pct(dc / duck_clean_cpu), dc / t.cpu);
      }
      std::printf("| %s | %lld | %.1f | %s | %s | %.1f | %s | %s | %s |\n", c.name.c_str(),
                  static_cast<long long>(c.deleted), r / t.wall / 1e6, pct(ratio).c_str(),
                  pct(wall_ratio).c_str(), (t.cpu - clean.cpu) / r * 1e9, duck_cells.c_str(),
                  target.c_str(), check.c_str());
    }
    std::printf("%d target(s) missed\n", misses);
    std::fflush(stdout);
    state.counters["clean_Mrows_s"] = r / clean.wall / 1e6;
    state.counters["worst_position_ratio"] = worst_pos;
    state.counters["worst_equality_flatness"] = worst_eq;
    state.counters["misses"] = misses;
  }
}
BENCHMARK(BM_MergeOnReadScan)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

// ---- M5: the merge-on-read DELETE statement ----

Status run_sql(sql::Session& session, const std::string& text) {
  return session.run(text, sql::ResultSink{});
}

Result<int64_t> count_rows(sql::Session& session, const std::string& table) {
  int64_t n = -1;
  sql::ResultSink sink;
  sink.rows = [&](const ColumnBatch& b) {
    if (b.num_rows > 0) n = b.columns[0]->raw<int64_t>()[0];
    return Status::OK();
  };
  FLOE_TRY(session.run("SELECT count(*) FROM " + table, sink));
  return n;
}

struct DeleteSplit {
  Timing scan, write, commit;
  int64_t deleted = 0;
  int64_t delete_files = 0;
};

// The statement's change made by hand: scan for the rows, write their deletes, commit.
Result<DeleteSplit> delete_by_hand(const std::shared_ptr<Table>& table) {
  DeleteSplit out;
  auto metadata = table->metadata();
  std::map<std::string, std::pair<std::shared_ptr<const DataFile>, std::vector<int64_t>>> found;
  Status st;
  out.scan = best_times(1, [&] {
    st = [&]() -> Status {
      auto scan = FLOE_TRY(table->new_scan());
      auto tasks = FLOE_TRY(scan.plan_files());
      ScanReader reader(table->io(), metadata, scan.schema(), {1, kPositionColumnId});
      for (const auto& task : tasks) {
        auto& [file, positions] = found[task.file->file_path];
        file = task.file;
        FLOE_TRY(reader.read(task, [&](ColumnBatch&& b) {
          const int64_t* id = b.columns[0]->raw<int64_t>();
          const int64_t* pos = b.columns[1]->raw<int64_t>();
          for (int64_t i = 0; i < b.num_rows; ++i) {
            if (id[i] % 100 == 0) positions.push_back(pos[i]);
          }
          return Status::OK();
        }));
      }
      return Status::OK();
    }();
  });
  FLOE_TRY(st);
  PositionDeleteFanout::Written written;
  out.write = best_times(1, [&] {
    st = [&]() -> Status {
      auto fanout = FLOE_TRY(PositionDeleteFanout::make(table->io(), *metadata));
      for (const auto& [path, f] : found) {
        if (f.second.empty()) continue;
        out.deleted += static_cast<int64_t>(f.second.size());
        FLOE_TRY(fanout->add(*f.first, f.second));
      }
      written = FLOE_TRY(fanout->close());
      return Status::OK();
    }();
  });
  FLOE_TRY(st);
  out.delete_files = static_cast<int64_t>(written.delete_files.size());
  const int64_t scanned = *metadata->current_snapshot_id;
  out.commit = best_times(1, [&] {
    RowDelta delta = table->new_row_delta();
    for (auto& d : written.delete_files) delta.add_deletes(std::move(d));
    std::vector<std::string> referenced;
    for (const auto& [path, f] : found) referenced.push_back(path);
    delta.validate_data_files_exist(std::move(referenced));
    delta.validate_from_snapshot(scanned);
    delta.validate_deleted_files();
    delta.validate_no_conflicting_data_files();
    delta.validate_no_conflicting_delete_files();
    st = delta.commit();
  });
  FLOE_TRY(st);
  return out;
}

void BM_MergeOnReadDelete(benchmark::State& state) {
  const int64_t rows = scaled(10000000);
  const int runs = mor_scale() >= 1 ? 2 : 3;
  for (auto _ : state) {
    std::printf(
        "\nmerge-on-read DELETE FROM t WHERE id %% 100 = 0 on a %lld-row table (7 columns), "
        "session threads %d, best of %d; the split: the same change by hand\n",
        static_cast<long long>(rows), session_threads(), runs);
    std::printf(
        "| format | insert s | rows deleted | delete files | statement s | statement Mrows/s | "
        "scan s | write s | commit s | write + commit s |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n");
    for (int version : {2, 3}) {
      Status st = [&]() -> Status {
        Status inner;
        sql::SessionOptions options;
        options.warehouse = (bench_dir() / fmt::format("wh{}", version)).string();
        options.threads = session_threads();
        sql::Session session(options);
        FLOE_TRY(run_sql(session, "CREATE NAMESPACE db"));
        FLOE_TRY(run_sql(session,
                         fmt::format("CREATE TABLE db.t (id BIGINT, int_col INT, float_col FLOAT, "
                                     "double_col DOUBLE, date_col DATE, ts_col TIMESTAMP, "
                                     "string_col STRING) USING iceberg TBLPROPERTIES "
                                     "('format-version'='{}', 'write.delete.mode'='merge-on-read')",
                                     version)));
        Timing insert = best_times(1, [&] {
          inner = run_sql(
              session,
              fmt::format("INSERT INTO db.t SELECT id, CAST(id % 100000 AS INT), "
                          "CAST(id % 1000000 AS FLOAT) / 100, CAST(id AS DOUBLE) * 0.001, "
                          "date_add(DATE '2019-04-14', CAST(id % 3650 AS INT)), "
                          "CAST(1700000000 + id AS TIMESTAMP), concat('str-', CAST(id AS STRING)) "
                          "FROM range({})",
                          rows));
        });
        FLOE_TRY(inner);
        auto id = FLOE_TRY(session.identifier({"db", "t"}));
        auto catalog = FLOE_TRY(session.catalog());
        auto table = FLOE_TRY(Table::load(catalog, id));
        const int64_t inserted = *table->metadata()->current_snapshot_id;
        auto rollback = [&]() -> Status {
          FLOE_TRY(table->refresh());
          FLOE_TRY(table->manage_snapshots().rollback_to(inserted).commit());
          return Status::OK();
        };
        Timing statement;
        for (int run = 0; run < runs; ++run) {
          Timing t = best_times(
              1, [&] { inner = run_sql(session, "DELETE FROM db.t WHERE id % 100 = 0"); });
          FLOE_TRY(inner);
          statement.wall = std::min(statement.wall, t.wall);
          statement.cpu = std::min(statement.cpu, t.cpu);
          // Each run must have deleted the rows (not found them gone already).
          FLOE_TRY(table->refresh());
          const Snapshot* after = table->metadata()->current_snapshot();
          auto added = after ? after->summary.find("added-position-deletes")
                             : std::map<std::string, std::string>::const_iterator();
          if (!after || after->snapshot_id == inserted || added == after->summary.end() ||
              added->second != std::to_string((rows + 99) / 100)) {
            return make_error(ErrorKind::kInternal, "run {} of the DELETE did not delete {} rows",
                              run, (rows + 99) / 100);
          }
          if (run == 0) {
            int64_t left = FLOE_TRY(count_rows(session, "db.t"));
            if (left != rows - (rows + 99) / 100) {
              return make_error(ErrorKind::kInternal, "DELETE left {} rows of {}", left, rows);
            }
          }
          FLOE_TRY(rollback());
        }
        DeleteSplit split;
        split.scan = split.write = split.commit = Timing{};
        for (int run = 0; run < runs; ++run) {
          FLOE_TRY(table->refresh());
          DeleteSplit one = FLOE_TRY(delete_by_hand(table));
          if (one.deleted != (rows + 99) / 100) {
            return make_error(ErrorKind::kInternal, "the scan found {} rows to delete",
                              one.deleted);
          }
          split.deleted = one.deleted;
          split.delete_files = one.delete_files;
          split.scan.wall = std::min(split.scan.wall, one.scan.wall);
          split.write.wall = std::min(split.write.wall, one.write.wall);
          split.commit.wall = std::min(split.commit.wall, one.commit.wall);
          FLOE_TRY(rollback());
        }
        std::printf("| v%d (%s) | %.2f | %lld | %lld | %.2f | %.1f | %.2f | %.3f | %.3f | %.3f |\n",
                    version, version == 2 ? "position delete files" : "deletion vectors",
                    insert.wall, static_cast<long long>(split.deleted),
                    static_cast<long long>(split.delete_files), statement.wall,
                    static_cast<double>(rows) / statement.wall / 1e6, split.scan.wall,
                    split.write.wall, split.commit.wall, split.write.wall + split.commit.wall);
        std::fflush(stdout);
        state.counters[fmt::format("v{}_statement_s", version)] = statement.wall;
        state.counters[fmt::format("v{}_write_commit_s", version)] =
            split.write.wall + split.commit.wall;
        return Status::OK();
      }();
      if (!st.ok()) {
        state.SkipWithError(st.to_string().c_str());
        return;
      }
    }
  }
}
BENCHMARK(BM_MergeOnReadDelete)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

// ---- Issue 20 / lesson B: compaction restores the read cost ----

// The sum a full scan computes (every column read: id and amount).
Result<double> scan_sum(sql::Session& session) {
  double sum = 0;
  sql::ResultSink sink;
  sink.rows = [&](const ColumnBatch& b) {
    if (b.num_rows > 0) sum = b.columns[0]->raw<double>()[0];
    return Status::OK();
  };
  FLOE_TRY(session.run(
      "SELECT sum(CAST(order_id AS DOUBLE) + amount + length(status)) FROM db.orders", sink));
  return sum;
}

// Lesson B's orders partition: one day of 1M orders in 4 files, merge-on-read; the read (a full
// scan through SQL) clean, after 25 point DELETE statements (25 position delete files), and after
// CALL system.rewrite_data_files applied them. Target: after compaction within +10 % of clean.
void BM_CompactionRestoresReads(benchmark::State& state) {
  const int64_t rows = scaled(1000000);
  const int runs = read_runs();
  for (auto _ : state) {
    Status st = [&]() -> Status {
      sql::SessionOptions options;
      options.warehouse = (bench_dir() / "compaction").string();
      options.threads = session_threads();
      sql::Session session(options);
      FLOE_TRY(run_sql(session, "CREATE NAMESPACE db"));
      FLOE_TRY(run_sql(session,
                       "CREATE TABLE db.orders (order_id BIGINT, order_date DATE, amount DOUBLE, "
                       "status STRING) USING iceberg PARTITIONED BY (order_date) TBLPROPERTIES "
                       "('format-version' = '2', 'write.delete.mode' = 'merge-on-read')"));
      for (int f = 0; f < 4; ++f) {
        FLOE_TRY(run_sql(
            session, fmt::format("INSERT INTO db.orders SELECT id, DATE '2026-06-01', "
                                 "CAST(id % 1000 AS DOUBLE) / 10, CASE id % 3 WHEN 0 THEN 'new' "
                                 "WHEN 1 THEN 'paid' ELSE 'shipped' END FROM range({}, {})",
                                 rows / 4 * f, rows / 4 * (f + 1))));
      }
      auto read = [&](double* sum) -> Timing {
        Status inner;
        Timing t = best_times(runs, [&] {
          auto r = scan_sum(session);
          inner = r.status();
          if (r.ok()) *sum = *r;
        });
        if (!inner.ok()) t.cpu = t.wall = -1;
        return t;
      };
      double clean_sum = 0, deleted_sum = 0, compacted_sum = 0;
      const Timing clean = read(&clean_sum);
      for (int d = 0; d < 25; ++d) {
        // Point deletes spread over the four files, as the lesson's orders cancelled one by one.
        FLOE_TRY(run_sql(session, fmt::format("DELETE FROM db.orders WHERE order_id = {}",
                                              (d * 7919) % (rows / 4 * 4))));
      }
      const int64_t delete_files_before = FLOE_TRY(count_rows(session, "db.orders.delete_files"));
      const Timing deleted = read(&deleted_sum);
      FLOE_TRY(run_sql(session,
                       "CALL system.rewrite_data_files(table => 'db.orders', options => "
                       "map('delete-file-threshold', '1'))"));
      const int64_t delete_files_after = FLOE_TRY(count_rows(session, "db.orders.delete_files"));
      const Timing compacted = read(&compacted_sum);
      if (clean.cpu < 0 || deleted.cpu < 0 || compacted.cpu < 0) {
        return make_error(ErrorKind::kInternal, "a scan failed");
      }
      if (deleted_sum != compacted_sum || deleted_sum >= clean_sum) {
        return make_error(ErrorKind::kInternal,
                          "compaction changed the rows: sums {} (deleted) and {} (compacted)",
                          deleted_sum, compacted_sum);
      }
      const double before = deleted.cpu / clean.cpu, after = compacted.cpu / clean.cpu;
      std::printf(
          "\nlesson B read cost: a full scan of one %lld-row partition (4 files), session threads "
          "%d, best of %d, CPU time\n"
          "| state | delete files | scan ms | vs clean | target | check "
          "|\n|---|---|---|---|---|---|\n"
          "| clean | 0 | %.1f | +0.0 %% | - | - |\n"
          "| 25 point deletes (merge-on-read) | %lld | %.1f | %+.1f %% | - | - |\n"
          "| after rewrite_data_files | %lld | %.1f | %+.1f %% | <= +10.0 %% vs clean | %s |\n",
          static_cast<long long>(rows), session_threads(), runs, clean.cpu * 1e3,
          static_cast<long long>(delete_files_before), deleted.cpu * 1e3, (before - 1) * 100,
          static_cast<long long>(delete_files_after), compacted.cpu * 1e3, (after - 1) * 100,
          after <= 1.10 && delete_files_after == 0 ? "PASS" : "MISS");
      std::fflush(stdout);
      state.counters["deleted_vs_clean"] = before;
      state.counters["compacted_vs_clean"] = after;
      return Status::OK();
    }();
    if (!st.ok()) {
      state.SkipWithError(st.to_string().c_str());
      return;
    }
  }
}
BENCHMARK(BM_CompactionRestoresReads)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

}  // namespace
