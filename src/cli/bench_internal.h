// `floe bench` shared pieces: the warehouse's FileIO wrapped to count requests by kind (LIST
// pages, GETs, HEADs), the catalog opened over it, a fresh directory per run and its removal.
// The commands are in bench_listing.cc (listing vs planning, docs/architecture.md "The path of a
// query", step 5) and bench_s3_read.cc (full scans from S3 and from local disk).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli_internal.h"
#include "floe/catalog/catalog.h"
#include "floe/io/file_io.h"
#include "floe/util/result.h"

namespace floe::cli::bench {

// Requests by kind, as a storage server sees them.
struct RequestCounts {
  int64_t list = 0;        // LIST pages (ListObjectsV2 requests; one walk per list on disk)
  int64_t get = 0;         // whole and ranged reads
  int64_t head = 0;        // existence and size checks
  int64_t bytes_read = 0;  // bytes received (listing answers included on S3)

  RequestCounts operator-(const RequestCounts& o) const {
    return {list - o.list, get - o.get, head - o.head, bytes_read - o.bytes_read};
  }
};

// Forwards every call to the storage's FileIO and counts reads, size checks and the LIST pages
// each list() made (the inner FileIO's metadata requests during the call: list() must not run
// beside other metadata calls, which the benches never do).
class CountingFileIO final : public FileIO {
 public:
  explicit CountingFileIO(FileIOPtr inner) : inner_(std::move(inner)) {}

  RequestCounts counts() const;

  Result<std::string> read_file(std::string_view path) override;
  Result<std::string> read_range(std::string_view path, int64_t offset, int64_t length) override;
  Status read_range_into(std::string_view path, int64_t offset, int64_t length,
                         Buffer* out) override;
  Result<int64_t> file_size(std::string_view path) override;
  Status write_file(std::string_view path, std::string_view data, WriteMode mode) override;
  Result<std::unique_ptr<OutputStream>> open_output(std::string_view path, WriteMode mode) override;
  Result<bool> exists(std::string_view path) override;
  Status delete_file(std::string_view path) override;
  Status delete_files(const std::vector<std::string>& paths,
                      std::vector<std::string>* failed) override;
  bool bulk_deletes() const override { return inner_->bulk_deletes(); }
  Result<std::vector<FileInfo>> list(std::string_view prefix) override;
  const IoCounters& counters() const override { return inner_->counters(); }
  IoCounters& counters() override { return inner_->counters(); }

 private:
  FileIOPtr inner_;
  std::atomic<int64_t> list_{0};
  std::atomic<int64_t> get_{0};
  std::atomic<int64_t> head_{0};
};

// A warehouse's storage and catalog for one bench run.
struct Storage {
  std::string warehouse;  // as given (s3://bucket/prefix or a directory, made absolute)
  bool on_s3 = false;
  std::shared_ptr<CountingFileIO> io;
  CatalogPtr catalog;
};

// Opens the warehouse's FileIO (S3 options from the --conf properties and the AWS_* variables)
// and the catalog over it: `catalog_uri`, else the embedded SQLite catalog of a local warehouse.
// An S3 warehouse without a catalog is an error naming the option.
Result<Storage> open_storage(const std::string& warehouse, const std::string& catalog_uri,
                             const GlobalOptions& options);

// A fresh location for one run: <warehouse>/floe-bench/<kind>-<8 hex digits>, and the id.
struct RunLocation {
  std::string id;
  std::string prefix;
};
RunLocation new_run_location(const Storage& storage, const std::string& kind);

// Creates namespace floe_bench when missing.
Status ensure_bench_namespace(const Storage& storage);
// Drops the table (files kept), deletes every file under the run's prefix (one listing, batched
// deletes) and the namespace when no table is left in it.
Status remove_run(const Storage& storage, const TableIdentifier& table, const std::string& prefix);

// Session options for SQL over the storage's catalog.
sql::SessionOptions session_options(const Storage& storage, const GlobalOptions& options);

// Runs SQL, discarding what it prints; returns the cells of the last result set's first row.
Result<std::vector<std::string>> run_sql(sql::Session& session, const std::string& statements);

inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// 1234567 -> "1.2 MB" (powers of 1000, as storage bills count).
std::string human_bytes(int64_t bytes);

}  // namespace floe::cli::bench
