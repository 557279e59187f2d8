// floe cdc TABLE FILE|-: applies a change stream (Debezium or plain JSON Lines) to a catalog
// table, one snapshot per batch.
#include "floe/sql/cdc.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <new>
#include <ostream>

#include "cli/cli_internal.h"

namespace floe::cli {

Status run_cdc(const GlobalOptions& options, const CdcCommand& cmd, std::ostream& out) {
  sql::SessionOptions so = options.session_options();
  sql::Session session(so);

  sql::CdcOptions co;
  co.keys = cmd.keys;
  co.batch_rows = cmd.batch_rows;
  co.batch_ms = cmd.batch_ms;
  const auto start = std::chrono::steady_clock::now();
  auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const std::string source = cmd.file == "-" ? "stdin" : cmd.file;
  bool shown = false;
  if (isatty(STDERR_FILENO)) {
    co.progress = [&](const sql::CdcResult& done) {
      std::fprintf(stderr, "\r[cdc] %lld records  %lld batches  %lld snapshots  %.1f s  (%s)",
                   static_cast<long long>(done.records), static_cast<long long>(done.batches),
                   static_cast<long long>(done.snapshots), seconds(), source.c_str());
      std::fflush(stderr);
      shown = true;
    };
  }
  Result<sql::CdcResult> result = invalid_argument("not applied");
  try {
    result = sql::apply_changes(session, cmd.table, cmd.file, co);
  } catch (const std::bad_alloc&) {
    result = make_error(ErrorKind::kIo,
                        "out of memory applying {} to {}; the batch being read was not committed",
                        source, cmd.table);
  }
  if (shown) std::fprintf(stderr, "\r\033[K");
  if (!result.ok()) return result.status();
  const sql::CdcResult& done = *result;
  if (options.output_format() == OutputFormat::kJson) {
    nlohmann::ordered_json j;
    j["table"] = cmd.table;
    j["file"] = cmd.file;
    j["records"] = done.records;
    j["upserts"] = done.upserts;
    j["deletes"] = done.deletes;
    j["batches"] = done.batches;
    j["snapshots"] = done.snapshots;
    j["data_files"] = done.data_files;
    j["delete_files"] = done.delete_files;
    if (done.last_snapshot_id) j["snapshot_id"] = *done.last_snapshot_id;
    j["seconds"] = seconds();
    out << j.dump() << "\n";
  } else {
    out << fmt::format(
        "applied {} change records to {} ({} upserts, {} deletes): {} snapshots committed{} "
        "({} data files, {} equality delete files) in {:.2f} s\n",
        done.records, cmd.table, done.upserts, done.deletes, done.snapshots,
        done.last_snapshot_id ? fmt::format(", the last {}", *done.last_snapshot_id) : "",
        done.data_files, done.delete_files, seconds());
  }
  return Status::OK();
}

}  // namespace floe::cli
