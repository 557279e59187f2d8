// floe: the command-line tool. Parses global options and dispatches to src/cli commands.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "cli/cli_internal.h"
#include "cli/error_text_internal.h"
#include "floe/util/strings.h"
#include "floe/util/thread_pool.h"

namespace {
// "a,b" -> {"a", "b"} (empty items dropped).
std::vector<std::string> split_list(const std::string& text) {
  return floe::split(text, ',', /*skip_empty=*/true);
}

// --threads beyond what a thread pool starts is clamped, with a warning.
void clamp_threads(int& threads) {
  std::string warning;
  threads = floe::ThreadPool::clamp_threads(threads, &warning);
  if (!warning.empty()) std::cerr << "floe: warning: " << warning << std::endl;
}
}  // namespace

int main(int argc, char** argv) {
  floe::cli::GlobalOptions options;
  if (const char* w = std::getenv("FLOE_WAREHOUSE")) options.warehouse = w;
  if (const char* c = std::getenv("FLOE_CATALOG")) options.catalog = c;

  CLI::App app{"floe: a native Apache Iceberg implementation"};
  app.fallthrough();  // global options are accepted after the command name too
  app.require_subcommand(1);
  app.add_option("--warehouse", options.warehouse, "Warehouse directory (default ./warehouse)");
  app.add_option("--catalog", options.catalog,
                 "Catalog URI (default sqlite:<warehouse>/catalog.db)");
  app.add_option("--catalog-name", options.catalog_name, "Catalog name (default lakehouse)");
  app.add_flag("-v,--verbose", options.verbose,
               "Print the storage requests each command made (GET, PUT, HEAD, LIST, DELETE)");
  std::vector<std::string> conf;
  app.add_option("--conf", conf,
                 "Catalog property KEY=VALUE, repeatable (s3.endpoint, s3.access-key-id, "
                 "s3.secret-access-key, s3.path-style-access, client.region, ...)");
  app.add_option("--format", options.format, "Output format")
      ->check(CLI::IsMember({"table", "csv", "json"}));

  std::string inspect_path;
  floe::cli::InspectOptions inspect_options;
  int64_t inspect_snapshot = 0;
  auto* inspect = app.add_subcommand(
      "inspect", "Print a table's metadata: format, schemas, specs, sort orders, refs, snapshots");
  inspect->add_option("path", inspect_path, "Metadata JSON file or table directory")->required();
  inspect->add_flag("--manifests", inspect_options.manifests,
                    "Also print each snapshot's manifest list entries");
  inspect->add_flag("--entries", inspect_options.entries,
                    "Also print the entries of every manifest (implies --manifests)");
  auto* snapshot_opt =
      inspect->add_option("--snapshot", inspect_snapshot, "Only this snapshot (with --manifests)");

  std::string cat_path;
  floe::cli::CatOptions cat_options;
  std::string cat_columns;
  auto* cat =
      app.add_subcommand("cat", "Print the records of an Avro or Parquet file as JSON lines");
  cat->add_option("file", cat_path, "Avro or Parquet file")->required();
  cat->add_flag("--schema", cat_options.schema, "Print the schema and file metadata instead");
  cat->add_flag("--meta", cat_options.meta, "Print Parquet row groups, column chunks, statistics");
  cat->add_option("--limit", cat_options.limit, "Print at most N records");
  cat->add_option("--columns", cat_columns, "Comma-separated column names to print");

  floe::cli::ScanCommand scan_cmd;
  std::string scan_columns;
  int64_t scan_snapshot = 0;
  std::string scan_as_of, scan_ref;
  auto* scan = app.add_subcommand("scan", "Plan and read a table scan (--explain: the funnel)");
  scan->add_option("table", scan_cmd.table, "Metadata JSON file or table directory")->required();
  scan->add_option("--where", scan_cmd.where, "Filter, in SQL WHERE syntax");
  scan->add_option("--columns", scan_columns, "Comma-separated columns to read");
  auto* scan_snapshot_opt = scan->add_option("--snapshot", scan_snapshot, "Snapshot id");
  auto* scan_as_of_opt =
      scan->add_option("--as-of", scan_as_of, "Timestamp: the snapshot current at that time");
  auto* scan_ref_opt = scan->add_option("--ref", scan_ref, "Branch or tag");
  scan->add_option("--limit", scan_cmd.limit, "Print at most N rows");
  scan->add_option("--threads", scan_cmd.threads, "Planning threads (default: one per core)");
  scan->add_flag("--explain", scan_cmd.explain, "Print the planning funnel instead of rows");

  floe::cli::SqlCommand sql_cmd;
  auto* sql =
      app.add_subcommand("sql", "Run Spark-SQL statements (queries, EXPLAIN, DESCRIBE, SHOW)");
  sql->add_option("statements", sql_cmd.sql, "SQL statements separated by ';'");
  sql->add_option("-f,--file", sql_cmd.file, "Read the statements from a file");
  sql->add_option("--threads", sql_cmd.threads, "Worker threads (default: one per core)");
  auto* shell = app.add_subcommand("shell", "Interactive SQL shell with line editing and history");
  shell->add_option("--threads", sql_cmd.threads, "Worker threads (default: one per core)");
  floe::cli::MetaCommand meta_cmd;
  int64_t meta_snapshot = 0;
  auto* meta = app.add_subcommand(
      "meta", "Print a metadata table: snapshots, history, manifests, files, entries, ...");
  meta->add_option("table", meta_cmd.table, "Metadata JSON file or table directory")->required();
  meta->add_option("name", meta_cmd.name,
                   "Metadata table: entries, files, data_files, delete_files, history, "
                   "metadata_log_entries, snapshots, refs, manifests, partitions, all_data_files, "
                   "all_delete_files, all_files, all_manifests, all_entries")
      ->required();
  auto* meta_snapshot_opt =
      meta->add_option("--snapshot", meta_snapshot, "Snapshot id (time travel)");
  meta->add_option("--limit", meta_cmd.limit, "Print at most N rows");
  meta->add_option("--threads", meta_cmd.threads, "Manifest reading threads (default: per core)");

  floe::cli::LoadCommand load_cmd;
  auto* load = app.add_subcommand("load", "Append a CSV, Parquet or JSON Lines file to a table");
  load->add_option("table", load_cmd.table, "Table: [catalog.]namespace.table")->required();
  load->add_option("file", load_cmd.file, "File to load (.csv, .parquet, .jsonl)")->required();
  load->add_option("--file-format", load_cmd.format,
                   "csv | parquet | jsonl (default: by extension)")
      ->check(CLI::IsMember({"csv", "parquet", "jsonl"}));
  load->add_flag("--no-header", load_cmd.no_header, "CSV: the first record is data");
  load->add_option("--delimiter", load_cmd.delimiter, "CSV field delimiter (default ,)");
  load->add_option("--threads", load_cmd.threads, "Worker threads (default: one per core)");

  floe::cli::CdcCommand cdc_cmd;
  auto* cdc = app.add_subcommand(
      "cdc", "Apply a change stream (Debezium or plain JSON Lines) to a table by key");
  cdc->add_option("table", cdc_cmd.table, "Table: [catalog.]namespace.table")->required();
  cdc->add_option("file", cdc_cmd.file, "JSON Lines of change records, or - for stdin")->required();
  cdc->add_option("--key", cdc_cmd.keys,
                  "Key column (repeat for several; default: the table's identifier fields)")
      ->allow_extra_args(false);
  cdc->add_option("--batch-rows", cdc_cmd.batch_rows,
                  "Commit after this many records (default 10000)");
  cdc->add_option("--batch-ms", cdc_cmd.batch_ms,
                  "Commit a batch this many ms after its first record, also when the input is "
                  "idle (default 1000; 0: no time limit)");

  floe::cli::DoctorCommand doctor_cmd;
  auto* doctor = app.add_subcommand(
      "doctor",
      "Diagnose slow planning and reads from a table's metadata; exit 1 when maintenance is due");
  doctor->add_option("table", doctor_cmd.table, "Table: [catalog.]namespace.table")->required();
  auto& d = doctor_cmd.options;
  doctor->add_option("--deleted-ratio", d.deleted_ratio,
                     "Share of DELETED entries that flags a manifest (default 0.3)");
  doctor->add_option("--range-days", d.partition_range_days,
                     "Days of a time partition that flag a manifest as wide (default 30)");
  doctor->add_option("--max-entry-bytes", d.max_entry_bytes,
                     "Manifest bytes per entry that flag metrics as too wide (default 1024)");
  doctor->add_option("--min-files-per-manifest", d.min_files_per_manifest,
                     "Fewer data files per manifest flag many small manifests (default 10)");
  doctor->add_option("--max-deletes-per-file", d.max_deletes_per_file,
                     "Average delete files per data file that flags merge-on-read (default 1)");
  doctor->add_option("--max-delete-files-per-partition", d.max_delete_files_per_partition,
                     "Delete files in one partition that flag it (default 10)");
  doctor->add_option("--min-small-files", d.min_small_files,
                     "Small files in one partition that call for compaction (default 5)");
  doctor->add_option("--max-expirable-snapshots", d.max_expirable_snapshots,
                     "Snapshots past retention tolerated (default 0)");
  bool doctor_no_orphans = false;
  doctor->add_flag("--no-orphans", doctor_no_orphans,
                   "Skip the orphan check (the one that lists storage)");
  doctor->add_option("--threads", d.threads, "Manifest reading threads (default: one per core)");

  floe::cli::DemoOptions demo_options;
  auto* demo = app.add_subcommand(
      "demo", "Run the three Iceberg lessons (docs/lessons.md) end to end on generated data");
  demo->add_option("--lesson", demo_options.lesson, "Run one lesson: a, b or c")
      ->check(CLI::IsMember({"a", "b", "c"}));
  demo->add_option("--rows", demo_options.rows,
                   "Rows of the orders table; the other tables scale with it (default 1000000)");
  demo->add_flag("--keep", demo_options.keep, "Keep the demo's warehouse directory");

  auto* bench = app.add_subcommand("bench", "Measure floe on the warehouse's storage (S3 or disk)");
  bench->require_subcommand(1);
  floe::cli::BenchListingCommand listing_cmd;
  auto* bench_listing = bench->add_subcommand(
      "listing", "Find one partition's files by listing a Hive layout and by Iceberg planning");
  bench_listing->add_option("--partitions", listing_cmd.partitions,
                            "Partitions (day, hour) to write (default 2000)");
  bench_listing->add_option("--files-per-partition", listing_cmd.files_per_partition,
                            "Parquet files per partition (default 1)");
  bench_listing->add_option("--rows-per-file", listing_cmd.rows_per_file,
                            "Rows per file (default 1000)");
  bench_listing->add_flag("--keep", listing_cmd.keep, "Keep the files and the table");
  floe::cli::BenchS3ReadCommand s3_read_cmd;
  auto* bench_s3_read = bench->add_subcommand(
      "s3-read", "Full-table scan throughput from the S3 warehouse against local disk");
  bench_s3_read->add_option("--rows", s3_read_cmd.rows, "Rows of the table (default 5000000)");
  bench_s3_read->add_flag("--keep", s3_read_cmd.keep, "Keep the table on S3");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  for (const auto& kv : conf) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::cerr << "floe: --conf wants KEY=VALUE, not '" << kv << "'" << std::endl;
      return 2;
    }
    options.conf[kv.substr(0, eq)] = kv.substr(eq + 1);
  }

  for (int* threads : {&scan_cmd.threads, &sql_cmd.threads, &meta_cmd.threads, &load_cmd.threads,
                       &doctor_cmd.options.threads}) {
    clamp_threads(*threads);
  }
  // Every command runs guarded: an exception (out of memory, a thread the system will not start)
  // is one error message, never an abort.
  bool needs_maintenance = false;
  floe::Status status = floe::cli::run_guarded([&]() -> floe::Status {
    floe::Status status;
    if (inspect->parsed()) {
      if (*snapshot_opt) inspect_options.snapshot_id = inspect_snapshot;
      if (inspect_options.entries || inspect_options.snapshot_id) inspect_options.manifests = true;
      status = floe::cli::run_inspect(options, inspect_path, inspect_options, std::cout);
    } else if (scan->parsed()) {
      if (*scan_snapshot_opt) scan_cmd.snapshot_id = scan_snapshot;
      if (*scan_as_of_opt) scan_cmd.as_of = scan_as_of;
      if (*scan_ref_opt) scan_cmd.ref = scan_ref;
      scan_cmd.columns = split_list(scan_columns);
      status = floe::cli::run_scan(options, scan_cmd, std::cout);
    } else if (cat->parsed()) {
      cat_options.columns = split_list(cat_columns);
      status = floe::cli::run_cat(options, cat_path, cat_options, std::cout);
    } else if (sql->parsed()) {
      status = floe::cli::run_sql(options, sql_cmd, std::cout);
    } else if (shell->parsed()) {
      status = floe::cli::run_shell(options, sql_cmd, std::cout);
    } else if (meta->parsed()) {
      if (*meta_snapshot_opt) meta_cmd.snapshot_id = meta_snapshot;
      status = floe::cli::run_meta(options, meta_cmd, std::cout);
    } else if (load->parsed()) {
      status = floe::cli::run_load(options, load_cmd, std::cout);
    } else if (cdc->parsed()) {
      status = floe::cli::run_cdc(options, cdc_cmd, std::cout);
    } else if (doctor->parsed()) {
      doctor_cmd.options.check_orphans = !doctor_no_orphans;
      status = floe::cli::run_doctor(options, doctor_cmd, std::cout, &needs_maintenance);
    } else if (demo->parsed()) {
      status = floe::cli::run_demo(options, demo_options, std::cout);
    } else if (bench_listing->parsed()) {
      status = floe::cli::run_bench_listing(options, listing_cmd, std::cout);
    } else if (bench_s3_read->parsed()) {
      status = floe::cli::run_bench_s3_read(options, s3_read_cmd, std::cout);
    }
    return status;
  });
  if (!status.ok()) {
    std::cerr << "floe: " << floe::cli::escape_control_chars(status.to_string()) << std::endl;
    return 1;
  }
  return needs_maintenance ? 1 : 0;
}
