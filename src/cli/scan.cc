// floe scan: plans (and with the reader, reads) a table scan; --explain prints the planning
// funnel of lesson A: manifests and files total / skipped / scanned, deletes, residuals, time
// and I/O.
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli_internal.h"
#include "cli/row_printer_internal.h"
#include "cli/text_table_internal.h"
#include "floe/read/task_reader.h"
#include "floe/scan/table_scan.h"
#include "floe/spec/metadata_file.h"
#include "floe/sql/filter.h"
#include "floe/util/date_time_text.h"

namespace floe::cli {

namespace {

std::string thousands(int64_t v) {
  const std::string digits = std::to_string(v < 0 ? -v : v);
  std::string out = v < 0 ? "-" : "";
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(' ');
    out.push_back(digits[i]);
  }
  return out;
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

void print_explain(std::ostream& out, const ScanReport& r, const StoredTable& table) {
  out << "== Iceberg scan: " << table.directory << " ==\n";
  out << "ScanStatistics:\n";
  TextTable t({"", ""});
  t.add_row(
      {"Snapshot ID:", r.snapshot_id < 0 ? "(none: empty table)" : std::to_string(r.snapshot_id)});
  t.add_row({"Filter:", r.filter});
  t.add_row({"Total Manifests:", thousands(r.total_data_manifests + r.total_delete_manifests) +
                                     " (data " + thousands(r.total_data_manifests) + ", delete " +
                                     thousands(r.total_delete_manifests) + ")"});
  t.add_row({"Manifests skipped (pruned):",
             thousands(r.skipped_data_manifests + r.skipped_delete_manifests) +
                 "   <- stage 2: manifest pruning on partition summaries"});
  t.add_row(
      {"Manifests scanned:", thousands(r.scanned_data_manifests + r.scanned_delete_manifests)});
  t.add_row({"Total Data Files (scanned manifests):", thousands(r.total_data_files)});
  t.add_row(
      {"Data Files skipped (pruned):",
       thousands(r.skipped_data_files) + "   <- stage 3: partition values and column metrics"});
  t.add_row({"Data Files scanned:", thousands(r.scanned_data_files)});
  t.add_row({"Delete Files:", thousands(r.matched_delete_files) + " matched of " +
                                  thousands(r.total_delete_files) + " (" +
                                  thousands(r.matched_delete_refs) +
                                  " data-file references)   <- stage 3.1"});
  t.add_row({"Residual Filter:", join(r.residuals, " | ") + "   <- stage 4"});
  t.add_row({"Tasks:", thousands(r.tasks) + " (" + thousands(r.task_bytes) + " bytes)"});
  t.add_row({"Planning Time:", fmt::format("{:.2f} ms ({} thread{})", r.planning_ms, r.threads,
                                           r.threads == 1 ? "" : "s")});
  t.add_row({"I/O:", thousands(r.io_requests) + " requests, " + thousands(r.io_bytes) + " bytes"});
  t.print(out, /*header=*/false, 4);
}

}  // namespace

nlohmann::ordered_json scan_report_json(const ScanReport& r) {
  nlohmann::ordered_json j;
  j["snapshot_id"] =
      r.snapshot_id < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.snapshot_id);
  j["filter"] = r.filter;
  j["total_manifests"] = r.total_data_manifests + r.total_delete_manifests;
  j["skipped_manifests"] = r.skipped_data_manifests + r.skipped_delete_manifests;
  j["scanned_manifests"] = r.scanned_data_manifests + r.scanned_delete_manifests;
  j["total_data_manifests"] = r.total_data_manifests;
  j["skipped_data_manifests"] = r.skipped_data_manifests;
  j["total_delete_manifests"] = r.total_delete_manifests;
  j["skipped_delete_manifests"] = r.skipped_delete_manifests;
  j["total_data_files"] = r.total_data_files;
  j["skipped_data_files"] = r.skipped_data_files;
  j["scanned_data_files"] = r.scanned_data_files;
  j["delete_files"] = r.matched_delete_files;
  j["total_delete_files"] = r.total_delete_files;
  j["delete_file_references"] = r.matched_delete_refs;
  j["residual"] = join(r.residuals, " | ");
  j["residuals"] = r.residuals;
  j["planning_ms"] = r.planning_ms;
  j["threads"] = r.threads;
  j["io_requests"] = r.io_requests;
  j["io_bytes"] = r.io_bytes;
  j["tasks"] = r.tasks;
  j["task_bytes"] = r.task_bytes;
  return j;
}

namespace {

Status print_rows(const GlobalOptions& options, const ScanCommand& cmd, TableScan& scan,
                  const StoredTable& table, std::ostream& out) {
  std::vector<std::string> names;
  for (const auto& f : scan.schema().fields()) names.push_back(f.name);
  RowPrinter printer(options.output_format(), out, std::move(names), cmd.limit);
  auto sink = [&](ColumnBatch&& batch) -> Status { return printer.add(batch); };
  auto summary = read_scan(scan, table.io, table.metadata, cmd.columns, sink, cmd.threads);
  if (!summary.ok() && summary.status().kind() != ErrorKind::kCancelled) return summary.status();
  printer.finish();
  return Status::OK();
}

}  // namespace

Status run_scan(const GlobalOptions& options, const ScanCommand& cmd, std::ostream& out) {
  // Reading the current state, a branch or a tag needs only the snapshots refs name: the rest
  // of a long history is skipped unparsed. Time travel by id or time reads them all.
  MetadataParseOptions parse;
  parse.referenced_snapshots_only = !cmd.snapshot_id && !cmd.as_of;
  StoredTable table = FLOE_TRY(open_table_arg(options, cmd.table, &parse));
  ScanOptions scan_options;
  scan_options.case_sensitive = false;  // Spark resolves column names case-insensitively
  scan_options.snapshot_id = cmd.snapshot_id;
  scan_options.ref = cmd.ref;
  if (cmd.as_of) {
    int64_t micros = FLOE_TRY_CTX(parse_timestamp(*cmd.as_of, true), "--as-of");
    scan_options.as_of_timestamp_ms = micros / 1000;
  }
  scan_options.threads = cmd.threads;
  TableScan scan = FLOE_TRY(TableScan::make(table.io, table.metadata, scan_options));
  if (!cmd.where.empty()) {
    // The filter names the columns of the schema the scan reads (a snapshot's, time traveling).
    scan_options.filter = FLOE_TRY(sql::parse_filter(cmd.where, scan.schema()));
    scan = FLOE_TRY(TableScan::make(table.io, table.metadata, scan_options));
  }
  if (cmd.explain) {
    FLOE_TRY(scan.plan_tasks([](CombinedScanTask&&) { return true; }));
    if (options.output_format() == OutputFormat::kJson) {
      out << scan_report_json(scan.report()).dump() << "\n";
    } else {
      print_explain(out, scan.report(), table);
    }
    return Status::OK();
  }
  return print_rows(options, cmd, scan, table, out);
}

}  // namespace floe::cli
