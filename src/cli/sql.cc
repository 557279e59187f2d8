// floe sql / floe shell: runs Spark-SQL statements and prints their results.
#include <fmt/format.h>
#include <readline/history.h>
#include <readline/readline.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli_internal.h"
#include "cli/error_text_internal.h"
#include "cli/result_format_internal.h"
#include "floe/sql/session.h"
#include "floe/util/thread_pool.h"

namespace floe::cli {

namespace {

struct Output {
  Output(std::ostream& out, OutputFormat format, bool timing, bool interactive)
      : out(out), format(format), timing(timing), interactive(interactive) {}
  std::ostream& out;
  OutputFormat format;
  bool timing;
  bool interactive;
  std::unique_ptr<ResultPrinter> printer;
  bool progress_shown = false;

  sql::ResultSink sink() {
    sql::ResultSink s;
    s.begin = [this](const std::vector<NestedField>& fields) {
      ResultPrinter::Format f = format == OutputFormat::kJson  ? ResultPrinter::Format::kJson
                                : format == OutputFormat::kCsv ? ResultPrinter::Format::kCsv
                                                               : ResultPrinter::Format::kTable;
      printer = std::make_unique<ResultPrinter>(out, f);
      printer->begin(fields);
    };
    s.rows = [this](const ColumnBatch& b) {
      clear_progress();
      printer->add(b);
      return Status::OK();
    };
    s.end = [this] {
      clear_progress();
      int64_t n = printer->end();
      if (format == OutputFormat::kTable && timing) {
        out << n << (n == 1 ? " row" : " rows");
      }
      printer.reset();
    };
    s.explain = [this](const std::string& text, const std::vector<ScanReport>& reports) {
      if (format == OutputFormat::kJson) {
        nlohmann::ordered_json j =
            reports.size() == 1 ? scan_report_json(reports[0]) : nlohmann::ordered_json::array();
        if (reports.size() != 1) {
          for (const auto& r : reports) j.push_back(scan_report_json(r));
        }
        out << j.dump() << "\n";
      } else {
        out << text;
      }
    };
    s.message = [this](const std::string& m) {
      if (format == OutputFormat::kTable) out << m << "\n";
    };
    if (interactive) {
      s.progress = [this](int64_t rows) {
        std::fprintf(stderr, "\r[scan] %lld rows read", static_cast<long long>(rows));
        progress_shown = true;
      };
      s.work = [this](const std::string& what, int64_t files, int64_t files_total, int64_t bytes,
                      int64_t bytes_total) {
        const double share =
            bytes_total > 0 ? static_cast<double>(bytes) / static_cast<double>(bytes_total) : 1;
        const int filled = static_cast<int>(share * 30);
        std::fprintf(stderr, "\r\033[K[%s] [%s%s] %lld/%lld files, %.1f/%.1f MB", what.c_str(),
                     std::string(static_cast<size_t>(filled), '#').c_str(),
                     std::string(static_cast<size_t>(30 - filled), '.').c_str(),
                     static_cast<long long>(files), static_cast<long long>(files_total),
                     static_cast<double>(bytes) / 1e6, static_cast<double>(bytes_total) / 1e6);
        progress_shown = true;
      };
    }
    return s;
  }

  void clear_progress() {
    if (progress_shown) {
      std::fprintf(stderr, "\r\033[K");
      progress_shown = false;
    }
  }
};

// --threads beyond what a pool starts: clamped, with a warning.
int clamped_threads(int threads) {
  std::string warning;
  int n = ThreadPool::clamp_threads(threads, &warning);
  if (!warning.empty()) std::cerr << "floe: warning: " << warning << std::endl;
  return n;
}

// Runs a script; with timing, prints "Time taken" per script like spark-sql.
// --verbose: the catalog storage's requests by kind (GET, PUT, HEAD, LIST, DELETE), bytes and
// retries, on stderr.
void print_io(sql::Session& session) {
  auto catalog = session.catalog(/*create=*/false);
  if (!catalog.ok() || !*catalog) return;
  const IoCounters::Snapshot c = (*catalog)->io()->counters().snapshot();
  const int64_t heads = c.metadata_requests - c.list_requests - c.delete_requests;
  std::cerr << fmt::format(
      "floe: I/O: {} GET ({} bytes), {} PUT ({} bytes), {} HEAD, {} LIST, {} DELETE, {} "
      "retried\n",
      c.read_requests, c.bytes_read, c.write_requests, c.bytes_written, heads, c.list_requests,
      c.delete_requests, c.retried_requests);
}

Status run_script(sql::Session& session, Output& output, const std::string& script) {
  auto start = std::chrono::steady_clock::now();
  Status s = run_guarded([&] { return session.run(script, output.sink()); });
  output.clear_progress();

  if (output.timing && s.ok()) {
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    output.out << (output.format == OutputFormat::kTable ? "" : "")
               << "\nTime taken: " << std::fixed << std::setprecision(3) << seconds << " seconds\n";
    output.out.unsetf(std::ios::fixed);
  }
  return s;
}

// True when the buffered text ends a statement: a ';' outside quotes and comments.
bool statement_complete(const std::string& text) {
  char quote = 0;
  bool line_comment = false, block_comment = false, complete = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    char next = i + 1 < text.size() ? text[i + 1] : 0;
    if (line_comment) {
      if (c == '\n') line_comment = false;
      continue;
    }
    if (block_comment) {
      if (c == '*' && next == '/') {
        block_comment = false;
        ++i;
      }
      continue;
    }
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') {
      quote = c;
      complete = false;
    } else if (c == '-' && next == '-') {
      line_comment = true;
    } else if (c == '/' && next == '*') {
      block_comment = true;
    } else if (c == ';') {
      complete = true;
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      complete = false;
    }
  }
  return complete;
}

}  // namespace

Status run_sql(const GlobalOptions& options, const SqlCommand& cmd, std::ostream& out) {
  std::string script = cmd.sql;
  if (!cmd.file.empty()) {
    std::ifstream in(cmd.file);
    if (!in) return Status(ErrorKind::kNotFound, "cannot read SQL file " + cmd.file);
    std::stringstream buffer;
    buffer << in.rdbuf();
    script = buffer.str();
  }
  if (script.empty()) return invalid_argument("no SQL given: floe sql \"SELECT ...\" or -f FILE");
  sql::Session session(options.session_options(clamped_threads(cmd.threads)));
  bool tty = isatty(STDOUT_FILENO) && isatty(STDERR_FILENO);
  Output output(out, options.output_format(), false, tty);
  Status st = run_script(session, output, script);
  if (options.verbose) print_io(session);
  return st;
}

Status run_shell(const GlobalOptions& options, const SqlCommand& cmd, std::ostream& out) {
  sql::Session session(options.session_options(clamped_threads(cmd.threads)));
  bool tty = isatty(STDIN_FILENO);
  Output output(out, options.output_format(), true, tty);
  std::string history_file;
  if (const char* home = std::getenv("HOME")) history_file = std::string(home) + "/.floe_history";
  if (tty && !history_file.empty()) read_history(history_file.c_str());
  if (tty) {
    out << "floe shell: Spark SQL on Iceberg. End statements with ';'. "
           "Type exit; or press Ctrl-D to leave.\n";
  }
  std::string buffer;
  while (true) {
    std::string line;
    if (tty) {
      char* raw = readline(buffer.empty() ? "floe> " : "   -> ");
      if (!raw) break;
      line = raw;
      std::free(raw);
    } else if (!std::getline(std::cin, line)) {
      break;
    }
    if (buffer.empty()) {
      std::string trimmed = line;
      while (!trimmed.empty() && (trimmed.back() == ';' || std::isspace(trimmed.back()))) {
        trimmed.pop_back();
      }
      if (trimmed == "exit" || trimmed == "quit" || trimmed == "\\q") break;
      if (trimmed == "\\d" || trimmed == "\\dt") line = "SHOW TABLES;";
      if (trimmed == "\\dn") line = "SHOW NAMESPACES;";
      if (trimmed.empty()) continue;
    }
    buffer += line + "\n";
    if (!statement_complete(buffer)) continue;
    if (tty) {
      std::string entry = buffer;
      while (!entry.empty() && entry.back() == '\n') entry.pop_back();
      add_history(entry.c_str());
    }
    Status s = run_script(session, output, buffer);
    if (!s.ok()) std::cerr << "Error: " << escape_control_chars(s.message()) << std::endl;
    out.flush();
    buffer.clear();
  }
  if (tty && !history_file.empty()) write_history(history_file.c_str());
  if (!buffer.empty()) {
    Status s = run_script(session, output, buffer);
    if (!s.ok()) std::cerr << "Error: " << escape_control_chars(s.message()) << std::endl;
  }
  return Status::OK();
}

}  // namespace floe::cli
