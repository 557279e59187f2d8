// floe bench s3-read: full-table scan throughput from S3 against local disk. Writes the same
// table (INSERT ... SELECT FROM range(N), floe's normal write path) into a local warehouse in a
// temporary directory and into the S3 warehouse, then runs a scan that decodes every column
// (count and sums of all of them) on each, best of 3, and reports MB/s, rows/s, the requests
// the reads made and the ratio of the two (docs/architecture.md, "The path of a query", step 6).
#include <fmt/format.h>
#include <stdlib.h>

#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/bench_internal.h"
#include "cli/text_table_internal.h"
#include "floe/sql/session.h"

namespace floe::cli {

namespace {

using bench::ms_since;
using Clock = std::chrono::steady_clock;

constexpr int kRuns = 3;

// Reads every column of every row: the aggregates touch each of them.
constexpr const char* kScan =
    "SELECT count(*), sum(id), sum(user_id), sum(amount), sum(quantity), sum(length(category)), "
    "max(ts) FROM {}";

struct Side {
  std::string name;  // "local" | "s3"
  std::string location;
  int64_t files = 0;
  int64_t data_bytes = 0;
  double write_s = 0;
  double best_ms = std::numeric_limits<double>::infinity();
  bench::RequestCounts requests;  // of the best run
  std::vector<std::string> result;

  double seconds() const { return best_ms / 1000; }
  double mb_per_s() const { return static_cast<double>(requests.bytes_read) / 1e6 / seconds(); }
};

Result<int64_t> cell_int(const std::vector<std::string>& row, size_t i, const std::string& what) {
  if (row.size() <= i) return invalid_data("{}: no value", what);
  char* end = nullptr;
  const long long v = std::strtoll(row[i].c_str(), &end, 10);
  if (row[i].empty() || *end != '\0') return invalid_data("{}: not an integer: '{}'", what, row[i]);
  return static_cast<int64_t>(v);
}

// Writes the table on one side and times the scan.
Result<Side> run_side(const std::string& name, const bench::Storage& storage,
                      const GlobalOptions& options, const std::string& table,
                      const std::string& location, int64_t rows) {
  Side side;
  side.name = name;
  side.location = location;
  sql::Session session(bench::session_options(storage, options));
  FLOE_TRY(bench::run_sql(
      session, fmt::format("CREATE TABLE {} (id BIGINT, user_id BIGINT, amount DOUBLE, quantity "
                           "INT, category STRING, ts TIMESTAMP) USING iceberg LOCATION '{}'",
                           table, location)));
  auto start = Clock::now();
  FLOE_TRY(bench::run_sql(
      session,
      fmt::format("INSERT INTO {} SELECT id, pmod(id * 2654435761, 1000003), CAST(pmod(id * "
                  "40503, 100000) AS DOUBLE) / 100, CAST(pmod(id, 17) AS INT), concat('category-', "
                  "CAST(pmod(id * 7, 97) AS STRING)), CAST(1767225600 + id AS TIMESTAMP) FROM "
                  "range({})",
                  table, rows)));
  side.write_s = ms_since(start) / 1000;
  auto files = FLOE_TRY(bench::run_sql(
      session, fmt::format("SELECT count(*), sum(file_size_in_bytes) FROM {}.files", table)));
  side.files = FLOE_TRY(cell_int(files, 0, "files"));
  side.data_bytes = FLOE_TRY(cell_int(files, 1, "file sizes"));

  for (int run = 0; run < kRuns; ++run) {
    const bench::RequestCounts before = storage.io->counts();
    start = Clock::now();
    std::vector<std::string> result =
        FLOE_TRY(bench::run_sql(session, fmt::format(fmt::runtime(kScan), table)));
    const double ms = ms_since(start);
    if (ms < side.best_ms) {
      side.best_ms = ms;
      side.requests = storage.io->counts() - before;
    }
    side.result = std::move(result);
  }
  const int64_t counted = FLOE_TRY(cell_int(side.result, 0, "count(*)"));
  if (counted != rows) {
    return invalid_data("the {} table holds {} rows, not the {} written", name, counted, rows);
  }
  return side;
}

nlohmann::ordered_json side_json(const Side& s, int64_t rows) {
  nlohmann::ordered_json j;
  j["location"] = s.location;
  j["files"] = s.files;
  j["data_bytes"] = s.data_bytes;
  j["write_seconds"] = s.write_s;
  j["scan_ms"] = s.best_ms;
  j["get_requests"] = s.requests.get;
  j["head_requests"] = s.requests.head;
  j["bytes_read"] = s.requests.bytes_read;
  j["mb_per_s"] = s.mb_per_s();
  j["rows_per_s"] = static_cast<double>(rows) / s.seconds();
  return j;
}

}  // namespace

Status run_bench_s3_read(const GlobalOptions& options, const BenchS3ReadCommand& cmd,
                         std::ostream& out) {
  if (cmd.rows < 1 || cmd.rows > 1000000000) {
    return invalid_argument("--rows must be between 1 and 1000000000 (got {})", cmd.rows);
  }
  bench::Storage s3 = FLOE_TRY(bench::open_storage(options.warehouse, options.catalog, options));
  if (!s3.on_s3) {
    return invalid_argument(
        "floe bench s3-read compares an S3 warehouse with local disk: give --warehouse "
        "s3://bucket/prefix (got {})",
        options.warehouse);
  }
  std::string tmpl =
      (std::filesystem::temp_directory_path() / "floe-bench-s3-read-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) return io_error("cannot create a directory like {}", tmpl);
  const std::string local_dir = tmpl;

  const bench::RunLocation run = bench::new_run_location(s3, "s3-read");
  const TableIdentifier id{{"floe_bench"}, "reads_" + run.id};
  const std::string table = "floe_bench.reads_" + run.id;
  Side local, remote;
  Status status = [&]() -> Status {
    bench::Storage disk = FLOE_TRY(bench::open_storage(local_dir, "", options));
    FLOE_TRY(bench::ensure_bench_namespace(disk));
    local = FLOE_TRY(run_side("local", disk, options, table,
                              join_path(local_dir, "floe_bench/reads"), cmd.rows));
    FLOE_TRY(bench::ensure_bench_namespace(s3));
    remote = FLOE_TRY(run_side("s3", s3, options, table, join_path(run.prefix, "table"), cmd.rows));
    return Status::OK();
  }();
  std::error_code ec;
  std::filesystem::remove_all(local_dir, ec);
  if (!cmd.keep || !status.ok()) {
    Status removed = bench::remove_run(s3, id, run.prefix);
    if (status.ok()) status = removed;
  }
  FLOE_TRY(status);

  const bool results_agree = local.result == remote.result;
  const double ratio = remote.best_ms / local.best_ms;
  if (options.output_format() == OutputFormat::kJson) {
    nlohmann::ordered_json j;
    j["rows"] = cmd.rows;
    j["runs"] = kRuns;
    j["query"] = fmt::format(fmt::runtime(kScan), table);
    j["local"] = side_json(local, cmd.rows);
    j["s3"] = side_json(remote, cmd.rows);
    j["s3_time_over_local"] = ratio;
    j["results_agree"] = results_agree;
    j["kept"] = cmd.keep;
    out << j.dump(2) << "\n";
  } else {
    out << fmt::format(
        "floe bench s3-read: {} rows written to a local warehouse in a temporary directory and "
        "to {}\nscan: {} (best of {})\n\n",
        cmd.rows, run.prefix, fmt::format(fmt::runtime(kScan), table), kRuns);
    TextTable t({"side", "files", "data", "write", "scan", "MB/s", "rows/s", "GET", "bytes read",
                 "bytes per GET"});
    for (const Side* s : {&local, &remote}) {
      t.add_row({s->name, std::to_string(s->files), bench::human_bytes(s->data_bytes),
                 fmt::format("{:.1f} s", s->write_s), fmt::format("{:.0f} ms", s->best_ms),
                 fmt::format("{:.0f}", s->mb_per_s()),
                 fmt::format("{:.2f}M", static_cast<double>(cmd.rows) / s->seconds() / 1e6),
                 std::to_string(s->requests.get), bench::human_bytes(s->requests.bytes_read),
                 s->requests.get > 0 ? bench::human_bytes(s->requests.bytes_read / s->requests.get)
                                     : std::string("-")});
    }
    t.print(out);
    out << fmt::format("\nS3 scan time / local scan time: {:.2f} (target: within 2x: {})\n", ratio,
                       ratio <= 2 ? "met" : "NOT met");
    out << fmt::format("results agree: {}\n", results_agree ? "yes" : "NO");
    if (cmd.keep) out << fmt::format("kept: {} and table {} (S3 side)\n", run.prefix, table);
  }
  if (!results_agree) {
    return invalid_data("the local and S3 scans returned different results; see the report above");
  }
  return Status::OK();
}

}  // namespace floe::cli
