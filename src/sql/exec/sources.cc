// Plan sources: Iceberg tables, Parquet, CSV and JSON Lines files, range(), literal batches and
// the rows a session cached (CACHE TABLE).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "floe/format/parquet/reader.h"
#include "floe/format/text/csv_reader.h"
#include "floe/format/text/json_lines_reader.h"
#include "floe/io/file_io.h"
#include "floe/read/task_reader.h"
#include "floe/spec/metadata_columns.h"
#include "floe/util/strings.h"
#include "floe/util/thread_pool.h"
#include "sql/exec/plan_internal.h"

namespace floe::sql {

namespace {

constexpr int64_t kBatchRows = 64 * 1024;

// Fills batches of `fields` with read(batch) (true while the source has more) and hands every
// non-empty one to the sink.
template <typename Read>
Status stream_batches(const std::vector<NestedField>& fields, const BatchSink& sink, Read&& read) {
  while (true) {
    ColumnBatch batch = ColumnBatch::make(fields);
    bool more = FLOE_TRY(read(&batch));
    if (batch.num_rows) FLOE_TRY(sink(std::move(batch)));
    if (!more) return Status::OK();
  }
}

}  // namespace

// ---- IcebergScanNode ----

Result<std::unique_ptr<IcebergScanNode>> IcebergScanNode::make(std::string name, StoredTable table,
                                                               ScanOptions options,
                                                               std::vector<std::string> columns) {
  std::unique_ptr<IcebergScanNode> node(new IcebergScanNode());
  node->name_ = std::move(name);
  node->table_ = std::move(table);
  node->options_ = std::move(options);
  node->scan_.emplace(
      FLOE_TRY(TableScan::make(node->table_.io, node->table_.metadata, node->options_)));
  const Schema& schema = node->scan_->schema();
  if (columns.empty()) {
    for (const auto& f : schema.fields()) {
      node->projection_.push_back(f.id);
      node->fields_.push_back(f);
    }
  } else {
    for (const auto& c : columns) {
      const NestedField* f = schema.find_field(c, false);
      if (!f) f = find_metadata_column(c);  // _file, _pos
      if (!f || schema.parent_id(f->id)) {
        return invalid_argument("cannot find column '{}' in table {}", c, node->name_);
      }
      node->projection_.push_back(f->id);
      node->fields_.push_back(*f);
    }
  }
  return node;
}

Status IcebergScanNode::prepare() {
  if (prepared_) return Status::OK();
  tasks_ = FLOE_TRY(scan_->plan_tasks());
  prepared_ = true;
  return Status::OK();
}

Status IcebergScanNode::execute(ExecContext& ctx, const BatchSink& sink) {
  FLOE_TRY(prepare());
  std::vector<const FileScanTask*> tasks;
  for (const auto& c : tasks_) {
    for (const auto& t : c.tasks) {
      if (!task_filter_ || task_filter_(t)) tasks.push_back(&t);
    }
  }
  ScanReader reader(table_.io, table_.metadata, scan_->schema(), projection_);
  ThreadPool pool(ctx.threads);
  const size_t window = static_cast<size_t>(std::max(1, pool.size())) * 2;
  int64_t rows = 0;
  for (size_t begin = 0; begin < tasks.size(); begin += window) {
    size_t end = std::min(tasks.size(), begin + window);
    std::vector<std::vector<ColumnBatch>> results(end - begin);
    FLOE_TRY(pool.parallel_for(end - begin, [&](size_t i) {
      return reader.read(*tasks[begin + i], [&](ColumnBatch&& b) {
        results[i].push_back(std::move(b));
        return Status::OK();
      });
    }));
    for (auto& batches : results) {
      for (auto& b : batches) {
        rows += b.num_rows;
        b.fields = fields_;
        FLOE_TRY(sink(std::move(b)));
      }
    }
    if (ctx.progress) ctx.progress(rows);
  }
  return Status::OK();
}

std::string IcebergScanNode::describe() const {
  std::string cols;
  for (const auto& f : fields_) cols += (cols.empty() ? "" : ", ") + f.name;
  return fmt::format("BatchScan {} [{}]", name_, cols);
}

std::vector<std::string> IcebergScanNode::details() const {
  std::vector<std::string> out;
  const ScanReport& r = scan_->report();
  out.push_back(fmt::format("PushedFilters: [{}]",
                            r.filter.empty() || r.filter == "true" ? std::string() : r.filter));
  if (!prepared_) return out;
  auto line = [&](const char* label, const std::string& value) {
    out.push_back(fmt::format("    {:<42}{}", label, value));
  };
  out.push_back("ScanStatistics:");
  line("Snapshot ID:", r.snapshot_id < 0 ? std::string("none") : std::to_string(r.snapshot_id));
  line("Total Manifests:", std::to_string(r.total_data_manifests));
  line("Manifests skipped (pruned):", std::to_string(r.skipped_data_manifests));
  line("Manifests scanned:", std::to_string(r.scanned_data_manifests));
  line("Delete Manifests (total/skipped/scanned):",
       fmt::format("{} / {} / {}", r.total_delete_manifests, r.skipped_delete_manifests,
                   r.scanned_delete_manifests));
  line("Total Data Files (scanned manifests):", std::to_string(r.total_data_files));
  line("Data Files skipped (pruned):", std::to_string(r.skipped_data_files));
  line("Data Files scanned:", std::to_string(r.scanned_data_files));
  line("Delete Files matched:", std::to_string(r.matched_delete_files));
  std::string residuals;
  for (const auto& res : r.residuals) residuals += (residuals.empty() ? "" : " | ") + res;
  line("Residual Filter:", residuals.empty() ? std::string("true") : residuals);
  line("Tasks:", fmt::format("{} ({} bytes)", r.tasks, r.task_bytes));
  line("Planning time:", fmt::format("{:.1f} ms ({} threads)", r.planning_ms, r.threads));
  line("I/O requests:", fmt::format("{} ({} bytes)", r.io_requests, r.io_bytes));
  return out;
}

// ---- ParquetFileNode ----

Result<PlanPtr> ParquetFileNode::make(std::string path) {
  auto reader = FLOE_TRY(parquet::ParquetReader::open(make_local_file_io(), path));
  auto node = std::unique_ptr<ParquetFileNode>(new ParquetFileNode());
  node->path_ = std::move(path);
  node->fields_ = reader->output_fields();
  return PlanPtr(std::move(node));
}

Status ParquetFileNode::execute(ExecContext& ctx, const BatchSink& sink) {
  auto reader = FLOE_TRY(parquet::ParquetReader::open(make_local_file_io(), path_));
  int64_t rows = 0;
  while (true) {
    std::optional<ColumnBatch> batch = FLOE_TRY(reader->next_batch());
    if (!batch) break;
    rows += batch->num_rows;
    batch->fields = fields_;
    FLOE_TRY(sink(std::move(*batch)));
    if (ctx.progress) ctx.progress(rows);
  }
  return Status::OK();
}

std::string ParquetFileNode::describe() const { return "ParquetScan " + path_; }

// ---- CsvFileNode ----

Result<PlanPtr> CsvFileNode::make(std::string path, CsvOptions options) {
  std::vector<std::string> names = FLOE_TRY(text::CsvReader::column_names(path, options));
  auto node = std::unique_ptr<CsvFileNode>(new CsvFileNode());
  node->path_ = std::move(path);
  node->options_ = options;
  node->fields_ = make_fields(names, std::vector<TypePtr>(names.size(), Type::string()));
  return PlanPtr(std::move(node));
}

Status CsvFileNode::execute(ExecContext& ctx, const BatchSink& sink) {
  auto reader = FLOE_TRY(text::CsvReader::open(path_, options_));
  return stream_batches(fields_, sink,
                        [&](ColumnBatch* batch) { return reader->read_batch(batch, kBatchRows); });
}

std::string CsvFileNode::describe() const { return "CsvScan " + path_; }

// ---- JsonLinesNode ----

Result<PlanPtr> JsonLinesNode::make(std::string path, std::vector<std::string> columns) {
  FLOE_TRY(text::JsonLinesReader::open(path, columns));  // fails now if the file is missing
  auto node = std::unique_ptr<JsonLinesNode>(new JsonLinesNode());
  node->path_ = std::move(path);
  node->fields_ = make_fields(columns, std::vector<TypePtr>(columns.size(), Type::string()));
  node->columns_ = std::move(columns);
  return PlanPtr(std::move(node));
}

Status JsonLinesNode::execute(ExecContext& ctx, const BatchSink& sink) {
  auto reader = FLOE_TRY(text::JsonLinesReader::open(path_, columns_));
  return stream_batches(fields_, sink,
                        [&](ColumnBatch* batch) { return reader->read_batch(batch, kBatchRows); });
}

std::string JsonLinesNode::describe() const { return "JsonLinesScan " + path_; }

// ---- RangeNode ----

RangeNode::RangeNode(int64_t start, int64_t end, int64_t step)
    : start_(start), end_(end), step_(step) {
  fields_ = make_fields({"id"}, {Type::int64()});
}

Status RangeNode::execute(ExecContext& ctx, const BatchSink& sink) {
  if (step_ == 0) return invalid_argument("range: step must not be 0");
  int64_t next = start_;
  auto more = [&] { return step_ > 0 ? next < end_ : next > end_; };
  while (more()) {
    ColumnBatch batch = ColumnBatch::make(fields_);
    ColumnVector& col = *batch.columns[0];
    // Count the rows of this batch without overflowing near INT64 limits.
    int64_t n = 0;
    __int128 remaining = step_ > 0 ? (static_cast<__int128>(end_) - next + step_ - 1) / step_
                                   : (static_cast<__int128>(next) - end_ - step_ - 1) / -step_;
    n = static_cast<int64_t>(std::min<__int128>(remaining, kBatchRows));
    col.values().resize(n * sizeof(int64_t));
    int64_t* v = col.mutable_raw<int64_t>();
    for (int64_t i = 0; i < n; ++i) v[i] = next + i * step_;
    col.set_length(n);
    batch.num_rows = n;
    next = static_cast<int64_t>(static_cast<__int128>(next) + static_cast<__int128>(n) * step_);
    FLOE_TRY(sink(std::move(batch)));
    if (n < kBatchRows) break;
  }
  return Status::OK();
}

std::string RangeNode::describe() const {
  return fmt::format("Range ({}, {}, step={})", start_, end_, step_);
}

// ---- BatchesNode ----

BatchesNode::BatchesNode(std::string label, std::vector<NestedField> fields,
                         std::vector<ColumnBatch> batches)
    : label_(std::move(label)), batches_(std::move(batches)) {
  fields_ = std::move(fields);
}

Status BatchesNode::execute(ExecContext& ctx, const BatchSink& sink) {
  for (const auto& b : batches_) {
    if (b.num_rows == 0) continue;
    ColumnBatch copy;
    copy.fields = fields_;
    copy.columns = b.columns;  // columns are immutable once built; sharing is safe
    copy.num_rows = b.num_rows;
    FLOE_TRY(sink(std::move(copy)));
  }
  return Status::OK();
}

// ---- InMemoryTableNode ----

InMemoryTableNode::InMemoryTableNode(std::string name,
                                     const std::vector<NestedField>& cached_fields,
                                     std::vector<int> columns, Loader load,
                                     std::vector<std::string> notes)
    : name_(std::move(name)),
      columns_(std::move(columns)),
      load_(std::move(load)),
      notes_(std::move(notes)) {
  for (int c : columns_) fields_.push_back(cached_fields[static_cast<size_t>(c)]);
}

Status InMemoryTableNode::execute(ExecContext& ctx, const BatchSink& sink) {
  CachedBatchesPtr cached = FLOE_TRY(load_(ctx));
  for (const auto& b : cached->batches) {
    if (b.num_rows == 0) continue;
    ColumnBatch out;
    out.fields = fields_;
    out.num_rows = b.num_rows;
    out.columns.reserve(columns_.size());
    for (int c : columns_) {
      if (static_cast<size_t>(c) >= b.columns.size()) {
        return make_error(ErrorKind::kInternal, "cached {} has no column #{}", name_, c);
      }
      out.columns.push_back(b.columns[static_cast<size_t>(c)]);  // shared, never changed
    }
    FLOE_TRY(sink(std::move(out)));
  }
  return Status::OK();
}

std::string InMemoryTableNode::describe() const {
  std::string cols;
  for (const auto& f : fields_) cols += (cols.empty() ? "" : ", ") + f.name;
  return fmt::format("InMemoryTableScan {} [{}]", name_, cols);
}

}  // namespace floe::sql
