// floe load TABLE FILE: appends a CSV, Parquet or JSON Lines file to a catalog table.
#include "floe/sql/load.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <new>
#include <ostream>

#include "cli/cli_internal.h"

namespace floe::cli {

Status run_load(const GlobalOptions& options, const LoadCommand& cmd, std::ostream& out) {
  sql::SessionOptions so = options.session_options(cmd.threads);
  sql::Session session(so);

  sql::LoadOptions lo;
  lo.format = cmd.format;
  lo.header = !cmd.no_header;
  if (cmd.delimiter.size() != 1) {
    return invalid_argument("--delimiter must be one character, not '{}'", cmd.delimiter);
  }
  lo.delimiter = cmd.delimiter[0];
  const auto start = std::chrono::steady_clock::now();
  std::error_code ec;
  const auto total_bytes = std::filesystem::file_size(cmd.file, ec);
  const bool terminal = isatty(STDERR_FILENO);
  bool shown = false;
  if (terminal) {
    lo.progress = [&](int64_t rows) {
      double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "\r[load] %lld rows  %.1f s  (%s, %.1f MB)",
                   static_cast<long long>(rows), seconds, cmd.file.c_str(),
                   ec ? 0.0 : static_cast<double>(total_bytes) / 1e6);
      shown = true;
    };
  }
  Result<sql::LoadResult> result = invalid_argument("not loaded");
  try {
    result = sql::load_file(session, cmd.table, cmd.file, lo);
  } catch (const std::bad_alloc&) {
    // Buffers grow with what they hold; a machine (or ulimit) without room for them is an
    // error, not an abort. Nothing was committed.
    result = make_error(ErrorKind::kIo, "out of memory loading {} into {}; nothing was committed",
                        cmd.file, cmd.table);
  }
  if (shown) std::fprintf(stderr, "\r\033[K");
  if (!result.ok()) return result.status();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (options.output_format() == OutputFormat::kJson) {
    nlohmann::ordered_json j;
    j["table"] = cmd.table;
    j["file"] = cmd.file;
    j["rows"] = result->rows;
    j["data_files"] = result->files;
    if (result->snapshot_id) j["snapshot_id"] = *result->snapshot_id;
    j["seconds"] = seconds;
    out << j.dump() << "\n";
  } else {
    out << fmt::format("loaded {} rows into {} ({} data files, snapshot {}) in {:.2f} s\n",
                       result->rows, cmd.table, result->files,
                       result->snapshot_id ? std::to_string(*result->snapshot_id) : "-", seconds);
  }
  return Status::OK();
}

}  // namespace floe::cli
