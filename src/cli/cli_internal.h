// The floe command line: global options shared by every command, and one function per command.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "floe/sql/session.h"
#include "floe/table/table_doctor.h"
#include "floe/util/result.h"

namespace floe {
struct StoredTable;
struct MetadataParseOptions;
struct TableMetadata;
struct ScanReport;
}  // namespace floe

namespace floe::cli {

enum class OutputFormat { kTable, kCsv, kJson };

// Options every command accepts, before or after the command name.
struct GlobalOptions {
  std::string warehouse = "warehouse";
  std::string catalog;  // default: sqlite:<warehouse>/catalog.db
  std::string catalog_name = "lakehouse";
  std::string format = "table";
  // --conf KEY=VALUE: catalog properties (s3.endpoint, s3.access-key-id, ... for an S3
  // warehouse).
  std::map<std::string, std::string> conf;
  bool verbose = false;  // --verbose: the storage requests each command made, by kind

  OutputFormat output_format() const;
  // The session these options describe (`threads` 0: one per core).
  sql::SessionOptions session_options(int threads = 0) const;
};

struct InspectOptions {
  bool manifests = false;              // --manifests: manifest list entries per snapshot
  bool entries = false;                // --entries: also the entries of each manifest
  std::optional<int64_t> snapshot_id;  // --snapshot ID: only this snapshot
};

// floe inspect PATH: prints a table's metadata (see docs/cli.md).
Status run_inspect(const GlobalOptions& options, const std::string& path,
                   const InspectOptions& inspect, std::ostream& out);

struct CatOptions {
  bool schema = false;  // --schema: schema and header/footer metadata instead of records
  bool meta = false;    // --meta: Parquet row groups, chunks, encodings, statistics
  int64_t limit = -1;   // --limit N
  std::vector<std::string> columns;  // --columns a,b
};

// floe cat FILE: records of an Avro or Parquet file as JSON lines; picks the reader by the
// file's magic bytes.
Status run_cat(const GlobalOptions& options, const std::string& path, const CatOptions& cat,
               std::ostream& out);

// floe cat on an Avro file (cat_avro.cc): records as JSON lines, or with --schema the schema,
// codec and header metadata.
Status cat_avro(const std::string& path, const CatOptions& cat, std::ostream& out);
// floe cat on a Parquet file (cat_parquet.cc): rows as JSON lines (--limit, --columns), or with
// --schema the Parquet schema with field ids and Iceberg types, or with --meta the row groups,
// column chunks, encodings, codecs and statistics.
Status cat_parquet(const std::string& path, const CatOptions& cat, std::ostream& out);

// floe inspect --manifests [--entries] [--snapshot ID] (inspect_manifests.cc): manifest list
// entries per snapshot and optionally the entries of each manifest.
Status inspect_manifests(const GlobalOptions& options, const std::string& metadata_path,
                         const TableMetadata& metadata, const InspectOptions& inspect,
                         std::ostream& out);

struct DemoOptions {
  std::string lesson = "all";  // --lesson a|b|c: one lesson
  int64_t rows = 1000000;      // --rows N: scales the data (the orders table has N rows)
  bool keep = false;           // --keep: keep the demo's directory
};

// floe demo: the three lessons of docs/lessons.md end to end on generated data, in a fresh
// directory under the warehouse (demo.cc, demo_lesson_a.cc, demo_lesson_b.cc, demo_lesson_c.cc).
Status run_demo(const GlobalOptions& options, const DemoOptions& demo, std::ostream& out);

struct ScanCommand {
  std::string table;  // metadata JSON file or table directory
  std::string where;  // WHERE-syntax filter
  std::vector<std::string> columns;
  std::optional<int64_t> snapshot_id;
  std::optional<std::string> as_of;  // timestamp text
  std::optional<std::string> ref;
  int64_t limit = -1;
  int threads = 0;
  bool explain = false;
};

// The planning funnel as the JSON object `floe scan --explain` and EXPLAIN print.
nlohmann::ordered_json scan_report_json(const ScanReport& report);

// floe scan TABLE: plans a scan; --explain prints the planning funnel (ScanReport).
Status run_scan(const GlobalOptions& options, const ScanCommand& cmd, std::ostream& out);

struct SqlCommand {
  std::string sql;   // statements separated by ';'
  std::string file;  // -f FILE
  int threads = 0;
};

// floe sql "SQL; SQL" | -f FILE: runs the statements, printing each result set (sql.cc).
Status run_sql(const GlobalOptions& options, const SqlCommand& cmd, std::ostream& out);
// floe shell: an interactive prompt with line editing and history; errors do not end it.
Status run_shell(const GlobalOptions& options, const SqlCommand& cmd, std::ostream& out);
struct MetaCommand {
  std::string table;  // metadata JSON file or table directory
  std::string name;   // metadata table name: snapshots, manifests, files, ...
  std::optional<int64_t> snapshot_id;
  int64_t limit = -1;
  int threads = 0;
};

// floe meta TABLE NAME: the rows of a metadata table (meta.cc).
Status run_meta(const GlobalOptions& options, const MetaCommand& cmd, std::ostream& out);

// A table argument: a metadata JSON file or table directory on disk, else a catalog table name
// ([catalog.]namespace.table).
Result<StoredTable> open_table_arg(const GlobalOptions& options, const std::string& arg,
                                   const MetadataParseOptions* parse = nullptr);

struct LoadCommand {
  std::string table;   // [catalog.]namespace.table
  std::string file;    // .csv, .parquet, .jsonl
  std::string format;  // --file-format: csv | parquet | jsonl (default: by extension)
  bool no_header = false;
  std::string delimiter = ",";
  int threads = 0;
};

// floe load TABLE FILE: appends a file's rows to a table, with a progress bar on a terminal.
Status run_load(const GlobalOptions& options, const LoadCommand& cmd, std::ostream& out);

struct DoctorCommand {
  std::string table;  // [catalog.]namespace.table
  DoctorOptions options;
};

// floe doctor TABLE: the planning checklist (floe/table/table_doctor.h), as text or JSON.
// `needs_maintenance` is set when some check crossed its threshold (the exit code is then 1).
Status run_doctor(const GlobalOptions& options, const DoctorCommand& cmd, std::ostream& out,
                  bool* needs_maintenance);

struct CdcCommand {
  std::string table;              // [catalog.]namespace.table
  std::string file;               // JSON Lines of change records, "-" for stdin
  std::vector<std::string> keys;  // --key COL (repeated); empty: the identifier fields
  int64_t batch_rows = 10000;     // --batch-rows
  int64_t batch_ms = 1000;        // --batch-ms (0: no time limit)
};

// floe cdc TABLE FILE|-: applies change records (Debezium or plain envelopes) as one snapshot
// per batch (cdc.cc), with a progress line on a terminal and a summary at the end.
Status run_cdc(const GlobalOptions& options, const CdcCommand& cmd, std::ostream& out);

struct BenchListingCommand {
  int64_t partitions = 2000;        // --partitions N
  int64_t files_per_partition = 1;  // --files-per-partition K
  int64_t rows_per_file = 1000;     // --rows-per-file R
  bool keep = false;                // --keep: keep the files and the table
};

// floe bench listing: finding one partition's files by listing a Hive layout against Iceberg's
// planning over the same files, with the requests, bytes and time of each (bench_listing.cc).
Status run_bench_listing(const GlobalOptions& options, const BenchListingCommand& cmd,
                         std::ostream& out);

struct BenchS3ReadCommand {
  int64_t rows = 5000000;  // --rows N
  bool keep = false;       // --keep: keep the S3 table
};

// floe bench s3-read: a full scan of the same table on local disk and on S3 (bench_s3_read.cc).
Status run_bench_s3_read(const GlobalOptions& options, const BenchS3ReadCommand& cmd,
                         std::ostream& out);

}  // namespace floe::cli
