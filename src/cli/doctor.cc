// floe doctor TABLE: runs the planning checklist (floe/table/table_doctor.h) on a catalog table
// and prints each check's finding and fix, or with --format json one object for monitoring.
#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli_internal.h"
#include "floe/catalog/catalog.h"
#include "floe/sql/session.h"
#include "floe/util/strings.h"

namespace floe::cli {

namespace {

nlohmann::json to_json(const DoctorReport& r) {
  nlohmann::json j;
  j["table"] = r.table;
  j["snapshot_id"] = r.snapshot_id >= 0 ? nlohmann::json(r.snapshot_id) : nlohmann::json();
  j["passed"] = r.passed();
  j["took_ms"] = r.took_ms;
  j["manifests_read"] = r.manifests_read;
  j["io_requests"] = r.io_requests;
  j["findings"] = nlohmann::json::array();
  for (const auto& f : r.findings) {
    nlohmann::json o;
    o["check"] = f.check;
    o["status"] = f.crossed ? "warn" : "ok";
    o["summary"] = f.summary;
    o["fix"] = f.fix.empty() ? nlohmann::json() : nlohmann::json(f.fix);
    o["details"] = f.details;
    nlohmann::json numbers = nlohmann::json::object();
    for (const auto& [name, value] : f.numbers) {
      // Counts as integers, averages and shares as they are.
      if (value == std::floor(value) && std::fabs(value) < 9e15) {
        numbers[name] = static_cast<int64_t>(value);
      } else {
        numbers[name] = value;
      }
    }
    o["numbers"] = std::move(numbers);
    j["findings"].push_back(std::move(o));
  }
  return j;
}

void print_text(const DoctorReport& r, std::ostream& out) {
  int crossed = 0;
  for (const auto& f : r.findings) crossed += f.crossed;
  out << fmt::format(
      "floe doctor {} ({}): {}\n", r.table,
      r.snapshot_id >= 0 ? fmt::format("snapshot {}", r.snapshot_id) : std::string("no snapshot"),
      crossed == 0 ? std::string("healthy")
                   : fmt::format("{} of {} checks need maintenance", crossed, r.findings.size()));
  for (const auto& f : r.findings) {
    out << fmt::format("{:<6} {:<16} {}\n", f.crossed ? "[WARN]" : "[ok]", f.check, f.summary);
    for (const auto& d : f.details) out << "         " << d << "\n";
    if (!f.fix.empty()) out << "         fix: " << f.fix << "\n";
  }
  out << fmt::format("read metadata only: {} manifests in {} I/O requests, {:.1f} ms\n",
                     r.manifests_read, r.io_requests, r.took_ms);
}

}  // namespace

Status run_doctor(const GlobalOptions& options, const DoctorCommand& cmd, std::ostream& out,
                  bool* needs_maintenance) {
  sql::SessionOptions so = options.session_options();
  sql::Session session(so);
  CatalogPtr catalog = FLOE_TRY(session.catalog(/*create=*/false));
  TableIdentifier id = FLOE_TRY(session.identifier(split(cmd.table, '.')));
  std::shared_ptr<Table> table = FLOE_TRY(Table::load(catalog, id));
  DoctorReport report = FLOE_TRY(diagnose_table(*table, cmd.options));
  if (options.output_format() == OutputFormat::kJson) {
    out << to_json(report).dump(2) << "\n";
  } else {
    print_text(report, out);
  }
  if (needs_maintenance) *needs_maintenance = !report.passed();
  return Status::OK();
}

}  // namespace floe::cli
