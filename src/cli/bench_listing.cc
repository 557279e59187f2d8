// floe bench listing: what Iceberg's scan planning saves over listing storage. Writes one set of
// Parquet files in a Hive layout (<run>/hive/day=2026-01-01/hour=07/part-0.parquet) and commits
// the very same files to an Iceberg table partitioned by identity(day), identity(hour), one fast
// append a day as a daily load would. Then finds the files of one partition both ways, counting
// the requests each made: a Hive-layout reader without a metastore lists the table prefix
// (every ListObjectsV2 page of 1,000 keys) and keeps the keys of the partition's directory;
// Iceberg plans the filter from the metadata JSON, the manifest list and the manifests it cannot
// skip (Iceberg spec, "Scan Planning"; docs/architecture.md, "The path of a query"). Finally it
// runs the query both ways and checks that the rows agree.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/bench_internal.h"
#include "cli/text_table_internal.h"
#include "floe/format/parquet/reader.h"
#include "floe/format/parquet/writer.h"
#include "floe/sql/filter.h"
#include "floe/sql/session.h"
#include "floe/table/table.h"
#include "floe/util/calendar.h"
#include "floe/util/date_time_text.h"
#include "floe/util/thread_pool.h"
#include "floe/write/data_writer.h"

namespace floe::cli {

namespace {

using bench::ms_since;
using Clock = std::chrono::steady_clock;

constexpr int kRuns = 3;           // each way is timed this often; the best run is reported
constexpr int kHoursPerDay = 24;   // partition p is day p / 24, hour p % 24
constexpr int kWriteThreads = 16;  // files written at a time (at most ThreadPool::max_threads())

struct Layout {
  int64_t partitions = 0;
  int64_t files_per_partition = 0;
  int64_t rows_per_file = 0;
  int32_t first_day = days_from_civil(2026, 1, 1);

  int64_t files() const { return partitions * files_per_partition; }
  int32_t day(int64_t partition) const {
    return first_day + static_cast<int32_t>(partition / kHoursPerDay);
  }
  int32_t hour(int64_t partition) const { return static_cast<int32_t>(partition % kHoursPerDay); }
  // "day=2026-01-01/hour=07"
  std::string directory(int64_t partition) const {
    return fmt::format("day={}/hour={:02d}", format_date(day(partition)), hour(partition));
  }
};

// The rows of file `index` (partition index / files_per_partition): ids follow the file order;
// user_id and amount are spread by multiplicative hashing.
ColumnBatch file_rows(const Schema& schema, const Layout& layout, int64_t index) {
  const int64_t partition = index / layout.files_per_partition;
  ColumnBatch batch = ColumnBatch::make(schema.fields());
  for (int64_t r = 0; r < layout.rows_per_file; ++r) {
    const int64_t id = index * layout.rows_per_file + r;
    batch.columns[0]->append_fixed<int64_t>(id);
    batch.columns[1]->append_fixed<int64_t>((id * 2654435761LL) % 1000003);
    batch.columns[2]->append_fixed<double>(static_cast<double>((id * 40503) % 100000) / 100);
    batch.columns[3]->append_fixed<int32_t>(layout.day(partition));
    batch.columns[4]->append_fixed<int32_t>(layout.hour(partition));
    ++batch.num_rows;
  }
  return batch;
}

// Writes every file of the Hive layout under `hive_prefix`, with the table's schema (field ids)
// and write properties, and describes each as a DataFile of the table's spec.
Result<std::vector<DataFile>> write_hive_files(const Table& table, const Layout& layout,
                                               const std::string& hive_prefix) {
  const auto metadata = table.metadata();
  const Schema& schema = *metadata->schema();
  parquet::WriterOptions options = FLOE_TRY(WriteOptions::from_table(*metadata)).parquet;
  options.threads = 1;
  options.pool = nullptr;
  std::vector<DataFile> files(static_cast<size_t>(layout.files()));
  ThreadPool pool(std::min(kWriteThreads, ThreadPool::max_threads()));
  FLOE_TRY(pool.parallel_for(files.size(), [&](size_t i) -> Status {
    const int64_t index = static_cast<int64_t>(i);
    const int64_t partition = index / layout.files_per_partition;
    const std::string path =
        fmt::format("{}/{}/part-{}.parquet", hive_prefix, layout.directory(partition),
                    index % layout.files_per_partition);
    auto writer = FLOE_TRY(parquet::ParquetWriter::open(table.io(), path, schema, options));
    FLOE_TRY(writer->write(file_rows(schema, layout, index)));
    DataFileMetrics m = FLOE_TRY(writer->close());
    files[i] =
        to_data_file(m, FileContent::kData, path, "PARQUET",
                     {Literal::date(layout.day(partition)), Literal::int32(layout.hour(partition))},
                     metadata->default_spec_id);
    return Status::OK();
  }));
  return files;
}

// How one way found the partition's files.
struct Found {
  bench::RequestCounts requests;
  double ms = std::numeric_limits<double>::infinity();
  std::vector<std::string> paths;  // sorted
  std::vector<int64_t> sizes;      // of each path
  int64_t keys_listed = 0;         // Hive
  ScanReport report;               // Iceberg
};

// The Hive way: list the table prefix, keep the keys in the partition's directory.
Result<Found> find_by_listing(bench::CountingFileIO& io, const std::string& hive_prefix,
                              const std::string& directory) {
  Found found;
  const bench::RequestCounts before = io.counts();
  const auto start = Clock::now();
  std::vector<FileInfo> listed = FLOE_TRY(io.list(hive_prefix));
  const std::string wanted = "/" + directory + "/";
  for (const FileInfo& f : listed) {
    if (f.path.find(wanted) != std::string::npos) {
      found.paths.push_back(f.path);
      found.sizes.push_back(f.size);
    }
  }
  found.ms = ms_since(start);
  found.requests = io.counts() - before;
  found.keys_listed = static_cast<int64_t>(listed.size());
  return found;
}

// The Iceberg way: load the table (catalog, metadata JSON) and plan the filter.
Result<Found> find_by_planning(const bench::Storage& storage, const TableIdentifier& id,
                               const std::string& where) {
  Found found;
  const bench::RequestCounts before = storage.io->counts();
  const auto start = Clock::now();
  auto table = FLOE_TRY(Table::load(storage.catalog, id));
  ScanOptions options;
  options.filter = FLOE_TRY(sql::parse_filter(where, *table->metadata()->schema()));
  TableScan scan = FLOE_TRY(table->new_scan(options));
  std::vector<FileScanTask> tasks = FLOE_TRY(scan.plan_files());
  found.ms = ms_since(start);
  found.requests = storage.io->counts() - before;
  found.report = scan.report();
  std::vector<std::pair<std::string, int64_t>> files;
  for (const FileScanTask& t : tasks)
    files.emplace_back(t.file->file_path, t.file->file_size_in_bytes);
  std::sort(files.begin(), files.end());
  for (auto& [path, size] : files) {
    found.paths.push_back(path);
    found.sizes.push_back(size);
  }
  return found;
}

// Runs a way kRuns times: the requests of the last run, the best time.
template <typename Way>
Result<Found> best_of(const Way& way) {
  Found best;
  for (int run = 0; run < kRuns; ++run) {
    Found f = FLOE_TRY(way());
    const double ms = std::min(best.ms, f.ms);
    best = std::move(f);
    best.ms = ms;
  }
  return best;
}

struct QueryResult {
  int64_t rows = 0;
  int64_t id_sum = 0;
  double ms = 0;
};

// The query as a Hive-layout reader runs it on the files it found: every row of them (the
// partition columns come from the directory, so every row matches).
Result<QueryResult> query_hive_files(const bench::Storage& storage, const Found& found) {
  QueryResult q;
  const auto start = Clock::now();
  for (size_t i = 0; i < found.paths.size(); ++i) {
    parquet::ReaderOptions options;
    options.file_size = found.sizes[i];
    auto reader = FLOE_TRY(parquet::ParquetReader::open(storage.io, found.paths[i], options));
    const NestedField* id = reader->schema().find_field("id");
    if (id == nullptr) return invalid_data("{} has no column id", found.paths[i]);
    FLOE_TRY(reader->select({id->id}));
    while (auto batch = FLOE_TRY(reader->next_batch())) {
      const int64_t* ids = batch->columns[0]->raw<int64_t>();
      for (int64_t r = 0; r < batch->num_rows; ++r) q.id_sum += ids[r];
      q.rows += batch->num_rows;
    }
  }
  q.ms = ms_since(start);
  return q;
}

Result<int64_t> parse_count(const std::string& cell, const std::string& what) {
  char* end = nullptr;
  const long long v = std::strtoll(cell.c_str(), &end, 10);
  if (cell.empty() || *end != '\0') return invalid_data("{}: not an integer: '{}'", what, cell);
  return static_cast<int64_t>(v);
}

Result<QueryResult> query_iceberg(sql::Session& session, const std::string& table,
                                  const std::string& where) {
  QueryResult q;
  const auto start = Clock::now();
  auto row = FLOE_TRY(bench::run_sql(
      session,
      fmt::format("SELECT count(*), coalesce(sum(id), 0) FROM {} WHERE {}", table, where)));
  q.ms = ms_since(start);
  if (row.size() != 2) return invalid_data("the Iceberg query returned no row");
  q.rows = FLOE_TRY(parse_count(row[0], "count(*)"));
  q.id_sum = FLOE_TRY(parse_count(row[1], "sum(id)"));
  return q;
}

nlohmann::ordered_json requests_json(const Found& f) {
  nlohmann::ordered_json j;
  j["list_requests"] = f.requests.list;
  j["get_requests"] = f.requests.get;
  j["head_requests"] = f.requests.head;
  j["bytes_read"] = f.requests.bytes_read;
  j["files"] = f.paths.size();
  j["ms"] = f.ms;
  return j;
}

struct Report {
  std::string storage;  // "s3" | "local"
  std::string location;
  std::string table;
  Layout layout;
  int64_t data_bytes = 0;
  double write_s = 0;
  double commit_s = 0;
  int64_t commits = 0;
  std::string where;
  Found hive;
  Found iceberg;
  QueryResult hive_query;
  QueryResult iceberg_query;
  bool kept = false;

  bool same_files() const { return hive.paths == iceberg.paths; }
  bool rows_agree() const {
    return hive_query.rows == iceberg_query.rows && hive_query.id_sum == iceberg_query.id_sum;
  }
};

void print_json(const Report& r, std::ostream& out) {
  nlohmann::ordered_json j;
  j["storage"] = r.storage;
  j["location"] = r.location;
  j["table"] = r.table;
  j["partitions"] = r.layout.partitions;
  j["files_per_partition"] = r.layout.files_per_partition;
  j["rows_per_file"] = r.layout.rows_per_file;
  j["files"] = r.layout.files();
  j["rows"] = r.layout.files() * r.layout.rows_per_file;
  j["data_bytes"] = r.data_bytes;
  j["write_seconds"] = r.write_s;
  j["commits"] = r.commits;
  j["commit_seconds"] = r.commit_s;
  j["filter"] = r.where;
  j["runs"] = kRuns;
  nlohmann::ordered_json hive = requests_json(r.hive);
  hive["keys_listed"] = r.hive.keys_listed;
  j["hive"] = std::move(hive);
  nlohmann::ordered_json iceberg = requests_json(r.iceberg);
  const ScanReport& s = r.iceberg.report;
  iceberg["manifests_total"] = s.total_data_manifests;
  iceberg["manifests_skipped"] = s.skipped_data_manifests;
  iceberg["manifests_scanned"] = s.scanned_data_manifests;
  iceberg["data_files_in_scanned_manifests"] = s.total_data_files;
  iceberg["data_files_skipped"] = s.skipped_data_files;
  iceberg["data_files_scanned"] = s.scanned_data_files;
  j["iceberg"] = std::move(iceberg);
  j["same_files"] = r.same_files();
  nlohmann::ordered_json query;
  query["hive_rows"] = r.hive_query.rows;
  query["iceberg_rows"] = r.iceberg_query.rows;
  query["hive_id_sum"] = r.hive_query.id_sum;
  query["iceberg_id_sum"] = r.iceberg_query.id_sum;
  query["hive_ms"] = r.hive_query.ms;
  query["iceberg_ms"] = r.iceberg_query.ms;
  query["rows_agree"] = r.rows_agree();
  j["query"] = std::move(query);
  j["kept"] = r.kept;
  out << j.dump(2) << "\n";
}

void print_text(const Report& r, std::ostream& out) {
  const Layout& l = r.layout;
  out << fmt::format("floe bench listing: {} partitions x {} file{} x {} rows on {} ({})\n",
                     l.partitions, l.files_per_partition, l.files_per_partition == 1 ? "" : "s",
                     l.rows_per_file, r.location, r.storage == "s3" ? "S3" : "local disk");
  out << fmt::format(
      "wrote {} Parquet files ({}) in a Hive layout in {:.1f} s; committed the same "
      "files to {} in {} appends (one a day) in {:.1f} s\n",
      l.files(), bench::human_bytes(r.data_bytes), r.write_s, r.table, r.commits, r.commit_s);
  out << fmt::format("query: WHERE {} (1 partition of {})\n\n", r.where, l.partitions);
  TextTable t({"finding the files", "LIST", "GET", "HEAD", "bytes read", "files found",
               fmt::format("time (best of {})", kRuns)});
  auto row = [&](const std::string& name, const Found& f) {
    t.add_row({name, std::to_string(f.requests.list), std::to_string(f.requests.get),
               std::to_string(f.requests.head), bench::human_bytes(f.requests.bytes_read),
               std::to_string(f.paths.size()), fmt::format("{:.1f} ms", f.ms)});
  };
  row(r.storage == "s3" ? "Hive: list the prefix" : "Hive: walk the directory", r.hive);
  row("Iceberg: plan the filter", r.iceberg);
  t.print(out);
  const ScanReport& s = r.iceberg.report;
  out << fmt::format("\nHive: listed {} keys to keep {}\n", r.hive.keys_listed,
                     r.hive.paths.size());
  out << fmt::format(
      "Iceberg: {} manifests, {} skipped by their partition summaries, {} read; {} data files in "
      "them, {} skipped, {} kept\n",
      s.total_data_manifests, s.skipped_data_manifests, s.scanned_data_manifests,
      s.total_data_files, s.skipped_data_files, s.scanned_data_files);
  out << fmt::format("same files both ways: {}\n", r.same_files() ? "yes" : "NO");
  out << fmt::format(
      "the query both ways: Hive {} rows (sum(id) {}) in {:.1f} ms, Iceberg {} rows (sum(id) {}) "
      "in {:.1f} ms: {}\n",
      r.hive_query.rows, r.hive_query.id_sum, r.hive_query.ms, r.iceberg_query.rows,
      r.iceberg_query.id_sum, r.iceberg_query.ms,
      r.rows_agree() ? "the rows agree" : "THE ROWS DIFFER");
  if (r.kept) out << fmt::format("kept: {} and table {}\n", r.location, r.table);
}

}  // namespace

Status run_bench_listing(const GlobalOptions& options, const BenchListingCommand& cmd,
                         std::ostream& out) {
  if (cmd.partitions < 1 || cmd.partitions > 100000) {
    return invalid_argument("--partitions must be between 1 and 100000 (got {})", cmd.partitions);
  }
  if (cmd.files_per_partition < 1 || cmd.files_per_partition > 1000) {
    return invalid_argument("--files-per-partition must be between 1 and 1000 (got {})",
                            cmd.files_per_partition);
  }
  if (cmd.rows_per_file < 1 || cmd.rows_per_file > 10000000) {
    return invalid_argument("--rows-per-file must be between 1 and 10000000 (got {})",
                            cmd.rows_per_file);
  }
  if (cmd.partitions * cmd.files_per_partition > 1000000) {
    return invalid_argument("--partitions x --files-per-partition must be at most 1000000 (got {})",
                            cmd.partitions * cmd.files_per_partition);
  }
  bench::Storage storage =
      FLOE_TRY(bench::open_storage(options.warehouse, options.catalog, options));
  const bench::RunLocation run = bench::new_run_location(storage, "listing");
  const TableIdentifier id{{"floe_bench"}, "listing_" + run.id};
  const std::string table_name = "floe_bench.listing_" + run.id;

  Report report;
  report.storage = storage.on_s3 ? "s3" : "local";
  report.location = run.prefix;
  report.table = table_name;
  report.layout.partitions = cmd.partitions;
  report.layout.files_per_partition = cmd.files_per_partition;
  report.layout.rows_per_file = cmd.rows_per_file;
  report.kept = cmd.keep;
  const Layout& layout = report.layout;
  const int64_t selected = cmd.partitions / 2;
  report.where = fmt::format("day = DATE '{}' AND hour = {}", format_date(layout.day(selected)),
                             layout.hour(selected));

  sql::Session session(bench::session_options(storage, options));
  FLOE_TRY(bench::ensure_bench_namespace(storage));
  Status status = [&]() -> Status {
    FLOE_TRY(bench::run_sql(
        session, fmt::format("CREATE TABLE {} (id BIGINT, user_id BIGINT, amount DOUBLE, day DATE, "
                             "hour INT) USING iceberg PARTITIONED BY (day, hour) LOCATION '{}'",
                             table_name, join_path(run.prefix, "iceberg"))));
    auto table = FLOE_TRY(Table::load(storage.catalog, id));
    const std::string hive_prefix = join_path(run.prefix, "hive");

    auto start = Clock::now();
    std::vector<DataFile> files = FLOE_TRY(write_hive_files(*table, layout, hive_prefix));
    report.write_s = ms_since(start) / 1000;
    for (const DataFile& f : files) report.data_bytes += f.file_size_in_bytes;

    // One fast append per day, in day order, as a daily load commits.
    start = Clock::now();
    for (size_t at = 0; at < files.size();) {
      const int64_t day = files[at].partition[0].as_int32();
      AppendFiles append = table->new_fast_append();
      for (; at < files.size() && files[at].partition[0].as_int32() == day; ++at) {
        append.append_file(std::move(files[at]));
      }
      FLOE_TRY(append.commit());
      ++report.commits;
    }
    report.commit_s = ms_since(start) / 1000;

    report.hive = FLOE_TRY(best_of(
        [&] { return find_by_listing(*storage.io, hive_prefix, layout.directory(selected)); }));
    report.iceberg = FLOE_TRY(best_of([&] { return find_by_planning(storage, id, report.where); }));
    report.hive_query = FLOE_TRY(query_hive_files(storage, report.hive));
    report.iceberg_query = FLOE_TRY(query_iceberg(session, table_name, report.where));
    return Status::OK();
  }();
  if (!cmd.keep || !status.ok()) {
    Status removed = bench::remove_run(storage, id, run.prefix);
    if (status.ok()) status = removed;
    report.kept = false;
  }
  FLOE_TRY(status);
  if (options.output_format() == OutputFormat::kJson) {
    print_json(report, out);
  } else {
    print_text(report, out);
  }
  if (!report.same_files() || !report.rows_agree()) {
    return invalid_data("the Hive and Iceberg ways disagree (files or rows); see the report above");
  }
  return Status::OK();
}

}  // namespace floe::cli
