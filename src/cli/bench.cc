// `floe bench` shared pieces (bench_internal.h): the request-counting FileIO, the storage and
// catalog of a run, run locations and their cleanup.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "cli/bench_internal.h"
#include "cli/result_format_internal.h"
#include "floe/io/s3_file_io.h"
#include "floe/sql/session.h"
#include "floe/util/thread_pool.h"
#include "floe/util/uuid.h"

namespace floe::cli::bench {

namespace {
constexpr size_t kDeleteBatch = 100;
constexpr int kDeleteThreads = 8;
}  // namespace

RequestCounts CountingFileIO::counts() const {
  return {list_.load(), get_.load(), head_.load(), inner_->counters().bytes_read.load()};
}

Result<std::string> CountingFileIO::read_file(std::string_view path) {
  ++get_;
  return inner_->read_file(path);
}

Result<std::string> CountingFileIO::read_range(std::string_view path, int64_t offset,
                                               int64_t length) {
  ++get_;
  return inner_->read_range(path, offset, length);
}

Status CountingFileIO::read_range_into(std::string_view path, int64_t offset, int64_t length,
                                       Buffer* out) {
  ++get_;
  return inner_->read_range_into(path, offset, length, out);
}

Result<int64_t> CountingFileIO::file_size(std::string_view path) {
  ++head_;
  return inner_->file_size(path);
}

Status CountingFileIO::write_file(std::string_view path, std::string_view data, WriteMode mode) {
  return inner_->write_file(path, data, mode);
}

Result<std::unique_ptr<OutputStream>> CountingFileIO::open_output(std::string_view path,
                                                                  WriteMode mode) {
  return inner_->open_output(path, mode);
}

Result<bool> CountingFileIO::exists(std::string_view path) {
  ++head_;
  return inner_->exists(path);
}

Status CountingFileIO::delete_file(std::string_view path) { return inner_->delete_file(path); }

Status CountingFileIO::delete_files(const std::vector<std::string>& paths,
                                    std::vector<std::string>* failed) {
  return inner_->delete_files(paths, failed);
}

Result<std::vector<FileInfo>> CountingFileIO::list(std::string_view prefix) {
  const int64_t before = inner_->counters().metadata_requests.load();
  auto files = inner_->list(prefix);
  list_ += inner_->counters().metadata_requests.load() - before;
  return files;
}

Result<Storage> open_storage(const std::string& warehouse, const std::string& catalog_uri,
                             const GlobalOptions& options) {
  Storage s;
  s.on_s3 = is_s3_uri(warehouse);
  s.warehouse = warehouse;
  if (!s.on_s3) {
    std::error_code ec;
    std::filesystem::create_directories(warehouse, ec);
    if (ec) return io_error("cannot create the warehouse {}: {}", warehouse, ec.message());
    s.warehouse = std::filesystem::absolute(warehouse).lexically_normal().string();
    while (s.warehouse.size() > 1 && s.warehouse.back() == '/') s.warehouse.pop_back();
  }
  std::string uri = catalog_uri;
  if (uri.empty()) {
    if (s.on_s3) {
      return invalid_argument(
          "floe bench on an S3 warehouse ({}) needs its catalog named: --catalog sqlite:PATH (a "
          "local file) or --catalog postgresql://...",
          warehouse);
    }
    uri = "sqlite:" + join_path(s.warehouse, "catalog.db");
  }
  FileIOPtr inner = FLOE_TRY(make_file_io_for(s.warehouse, options.conf));
  s.io = std::make_shared<CountingFileIO>(std::move(inner));
  CatalogOptions co;
  co.name = options.catalog_name;
  co.warehouse = s.warehouse;
  co.io = s.io;
  co.properties = options.conf;
  s.catalog = FLOE_TRY(open_catalog(uri, co));
  return s;
}

RunLocation new_run_location(const Storage& storage, const std::string& kind) {
  RunLocation r;
  r.id = random_uuid().substr(0, 8);
  r.prefix = join_path(join_path(storage.warehouse, "floe-bench"), kind + "-" + r.id);
  return r;
}

Status ensure_bench_namespace(const Storage& storage) {
  if (FLOE_TRY(storage.catalog->namespace_exists({"floe_bench"}))) return Status::OK();
  Status s = storage.catalog->create_namespace({"floe_bench"});
  if (!s.ok() && s.kind() != ErrorKind::kAlreadyExists) return s;
  return Status::OK();
}

Status remove_run(const Storage& storage, const TableIdentifier& table, const std::string& prefix) {
  Status dropped = storage.catalog->drop_table(table, /*purge=*/false);
  if (!dropped.ok() && dropped.kind() != ErrorKind::kNotFound) return dropped;
  std::vector<FileInfo> files = FLOE_TRY(storage.io->list(prefix));
  // Batches of kDeleteBatch keys, several at a time: servers that delete a batch's keys one by
  // one (Swift's s3api) then still remove thousands of files in seconds.
  std::vector<std::vector<std::string>> batches((files.size() + kDeleteBatch - 1) / kDeleteBatch);
  for (size_t i = 0; i < files.size(); ++i) {
    batches[i / kDeleteBatch].push_back(std::move(files[i].path));
  }
  ThreadPool pool(std::min(kDeleteThreads, ThreadPool::max_threads()));
  FLOE_TRY(pool.parallel_for(
      batches.size(), [&](size_t i) { return storage.io->delete_files(batches[i], nullptr); }));
  if (!storage.on_s3) {
    std::error_code ec;
    std::filesystem::remove_all(local_path_of(prefix), ec);
    std::filesystem::remove(std::filesystem::path(local_path_of(prefix)).parent_path(), ec);
  }
  auto left = storage.catalog->list_tables({"floe_bench"});
  if (left.ok() && left->empty()) (void)storage.catalog->drop_namespace({"floe_bench"});
  return Status::OK();
}

sql::SessionOptions session_options(const Storage& storage, const GlobalOptions& options) {
  sql::SessionOptions o;
  o.warehouse = storage.warehouse;
  o.catalog = storage.catalog;
  o.catalog_name = options.catalog_name;
  o.catalog_properties = options.conf;
  return o;
}

Result<std::vector<std::string>> run_sql(sql::Session& session, const std::string& statements) {
  std::vector<std::string> first_row;
  bool have_row = false;
  sql::ResultSink sink;
  sink.begin = [&](const std::vector<NestedField>&) {
    first_row.clear();
    have_row = false;
  };
  sink.rows = [&](const ColumnBatch& batch) {
    if (!have_row && batch.num_rows > 0) {
      first_row.clear();
      for (const auto& c : batch.columns) first_row.push_back(spark_cell(*c, 0));
      have_row = true;
    }
    return Status::OK();
  };
  FLOE_TRY(session.run(statements, sink));
  return first_row;
}

std::string human_bytes(int64_t bytes) {
  if (bytes < 1000) return fmt::format("{} B", bytes);
  if (bytes < 1000000) return fmt::format("{:.1f} kB", bytes / 1e3);
  if (bytes < 1000000000) return fmt::format("{:.1f} MB", bytes / 1e6);
  return fmt::format("{:.2f} GB", bytes / 1e9);
}

}  // namespace floe::cli::bench
