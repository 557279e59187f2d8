// floe demo: the three Iceberg lessons end to end on generated data (docs/lessons.md), in a fresh
// directory with the embedded SQLite catalog: each statement as the lesson writes it and what
// floe prints for it. The lessons are in demo_lesson_a.cc, demo_lesson_b.cc, demo_lesson_c.cc;
// this file holds the runner they share and the command.
#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <ostream>
#include <sstream>

#include "cli/cli_internal.h"
#include "cli/demo_internal.h"
#include "cli/error_text_internal.h"
#include "cli/result_format_internal.h"
#include "floe/util/strings.h"

namespace floe::cli {

namespace demo {

namespace {

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

sql::SessionOptions session_options(const std::string& warehouse, const std::string& catalog) {
  sql::SessionOptions o;
  o.warehouse = warehouse;
  o.catalog_name = catalog;
  return o;
}

}  // namespace

Demo::Demo(std::string warehouse, int64_t rows, std::ostream& out)
    : warehouse_(std::move(warehouse)),
      rows_(rows),
      out_(out),
      session_(std::make_unique<sql::Session>(session_options(warehouse_, "lakehouse"))),
      prod_(std::make_unique<sql::Session>(session_options(warehouse_, "prod"))) {}

Demo::~Demo() = default;

void Demo::lesson(const std::string& title) {
  out_ << "\n" << std::string(96, '=') << "\n" << title << "\n" << std::string(96, '=') << "\n";
}

void Demo::step(const std::string& title) { out_ << "\n--- " << title << " ---\n"; }

void Demo::note(const std::string& text) {
  std::string line;
  for (const std::string& word : split(text, ' ', /*skip_empty=*/true)) {
    if (!line.empty() && line.size() + 1 + word.size() > 93) {
      out_ << "-- " << line << "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out_ << "-- " << line << "\n";
}

std::string Demo::shorten(std::string text) const {
  return replace_all(std::move(text), warehouse_ + "/", "$WH/");
}

Status Demo::run(sql::Session& session, const std::string& statement, int64_t max_rows,
                 bool expect_error) {
  out_ << "\nfloe> " << replace_all(statement, "\n", "\n      ") << ";\n";
  std::unique_ptr<ResultPrinter> printer;
  sql::ResultSink sink;
  sink.begin = [&](const std::vector<NestedField>& fields) {
    printer = std::make_unique<ResultPrinter>(out_, ResultPrinter::Format::kTable);
    printer->max_rows = max_rows;
    printer->cell_text = [this](std::string cell) { return shorten(std::move(cell)); };
    printer->begin(fields);
  };
  sink.rows = [&](const ColumnBatch& batch) {
    printer->add(batch);
    return Status::OK();
  };
  sink.end = [&] {
    printer->end();
    printer.reset();
  };
  sink.explain = [&](const std::string& text, const std::vector<ScanReport>&) { out_ << text; };
  sink.message = [&](const std::string& m) { out_ << shorten(m) << "\n"; };
  Status s = run_guarded([&] { return session.run(statement, sink); });
  if (expect_error) {
    if (s.ok()) return invalid_argument("the lesson expects an error from: {}", statement);
    out_ << "Error: " << shorten(escape_control_chars(s.message())) << "\n";
    return Status::OK();
  }
  return s;
}

Status Demo::sql(const std::string& statement, int64_t max_rows) {
  return run(*session_, statement, max_rows, false);
}

Status Demo::sql_prod(const std::string& statement) { return run(*prod_, statement, 12, false); }

Status Demo::sql_error(const std::string& statement) { return run(*session_, statement, 12, true); }

Status Demo::explain(const std::string& query) {
  out_ << "\nfloe> EXPLAIN " << replace_all(query, "\n", "\n      ") << ";\n";
  std::vector<ScanReport> reports;
  sql::ResultSink sink;
  sink.explain = [&](const std::string&, const std::vector<ScanReport>& r) { reports = r; };
  FLOE_TRY(session_->run("EXPLAIN " + query, sink));
  for (const ScanReport& r : reports) {
    out_ << fmt::format(
        "Manifests: {} total, {} skipped, {} scanned | Data Files: {} in scanned manifests, {} "
        "skipped, {} scanned | Delete Files matched: {} | Residual: {}\n",
        r.total_data_manifests, r.skipped_data_manifests, r.scanned_data_manifests,
        r.total_data_files, r.skipped_data_files, r.scanned_data_files, r.matched_delete_files,
        r.residuals.empty() ? std::string("true") : join(r.residuals, " | "));
  }
  return Status::OK();
}

GlobalOptions Demo::cli_options() const {
  GlobalOptions o;
  o.warehouse = warehouse_;
  o.catalog_name = "lakehouse";
  return o;
}

Status Demo::doctor(const std::string& table) {
  out_ << "\n$ floe --warehouse $WH doctor " << table << "\n";
  DoctorCommand cmd;
  cmd.table = table;
  bool needs_maintenance = false;
  FLOE_TRY(run_doctor(cli_options(), cmd, out_, &needs_maintenance));
  out_ << "(exit code " << (needs_maintenance ? 1 : 0) << ")\n";
  return Status::OK();
}

Status Demo::cdc(const std::string& table, const std::vector<std::string>& keys,
                 const std::string& file) {
  out_ << "\n$ floe --warehouse $WH cdc " << table;
  for (const auto& k : keys) out_ << " --key " << k;
  out_ << " " << shorten(file) << "\n";
  CdcCommand cmd;
  cmd.table = table;
  cmd.keys = keys;
  cmd.file = file;
  return run_cdc(cli_options(), cmd, out_);
}

Status Demo::inspect_specs(const std::string& table_dir) {
  out_ << "\n$ floe inspect $WH/" << table_dir << "   # its partition specs\n";
  std::ostringstream report;
  FLOE_TRY(run_inspect(cli_options(), warehouse_ + "/" + table_dir, InspectOptions{}, report));
  bool in_specs = false;
  std::istringstream lines(report.str());
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("partition specs")) in_specs = true;
    if (in_specs && line.empty()) break;
    if (in_specs) out_ << line << "\n";
  }
  return Status::OK();
}

Result<std::vector<std::vector<std::string>>> Demo::query(const std::string& query) {
  std::vector<std::vector<std::string>> rows;
  sql::ResultSink sink;
  sink.rows = [&](const ColumnBatch& batch) {
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      std::vector<std::string> row;
      for (const auto& c : batch.columns) row.push_back(spark_cell(*c, r));
      rows.push_back(std::move(row));
    }
    return Status::OK();
  };
  FLOE_TRY(session_->run(query, sink));
  return rows;
}

Result<double> Demo::time_ms(const std::string& query, int runs) {
  std::vector<double> ms;
  sql::ResultSink sink;
  sink.rows = [](const ColumnBatch&) { return Status::OK(); };
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    FLOE_TRY(session_->run(query, sink));
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

Result<std::shared_ptr<Table>> Demo::table(const std::string& name) {
  CatalogPtr catalog = FLOE_TRY(session_->catalog(/*create=*/false));
  TableIdentifier id = FLOE_TRY(session_->identifier(split(name, '.')));
  return Table::load(catalog, id);
}

}  // namespace demo

Status run_demo(const GlobalOptions& options, const DemoOptions& demo_options, std::ostream& out) {
  if (demo_options.lesson != "all" && demo_options.lesson != "a" && demo_options.lesson != "b" &&
      demo_options.lesson != "c") {
    return invalid_argument("--lesson must be a, b or c (got '{}')", demo_options.lesson);
  }
  if (demo_options.rows < 10000) {
    return invalid_argument("--rows must be at least 10000 (got {})", demo_options.rows);
  }
  // A fresh directory under the warehouse, with its own embedded catalog.
  std::error_code ec;
  std::filesystem::create_directories(options.warehouse, ec);
  if (ec) return io_error("cannot create {}: {}", options.warehouse, ec.message());
  std::string tmpl = (std::filesystem::absolute(options.warehouse) / "floe-demo-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) return io_error("cannot create a directory in {}", tmpl);
  const std::string dir = std::filesystem::path(tmpl).lexically_normal().string();

  out << "floe demo: the lessons of docs/lessons.md on generated data (" << demo_options.rows
      << " rows)\nWH=" << dir << " (the warehouse; "
      << (demo_options.keep ? "kept" : "removed at the end, --keep keeps it") << ")\n";
  const auto start = std::chrono::steady_clock::now();
  Status status = [&]() -> Status {
    demo::Demo demo(dir, demo_options.rows, out);
    const std::string& l = demo_options.lesson;
    if (l == "all" || l == "a") FLOE_TRY(demo::lesson_a(demo));
    if (l == "all" || l == "b") FLOE_TRY(demo::lesson_b(demo));
    if (l == "all" || l == "c") FLOE_TRY(demo::lesson_c(demo));
    return Status::OK();
  }();
  if (status.ok()) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out << fmt::format("\nfloe demo finished in {:.1f} s\n", seconds);
    if (demo_options.keep) {
      out << "the tables stay in " << dir << ": floe --warehouse " << dir
          << " sql \"SHOW TABLES IN analytics\"\n";
    }
  }
  if (!demo_options.keep) std::filesystem::remove_all(dir, ec);
  return status;
}

}  // namespace floe::cli
