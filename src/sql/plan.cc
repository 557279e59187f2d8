// Plan execution helpers, sources and row-preserving operators (see floe/sql/plan.h).
#include "floe/sql/plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "floe/format/parquet/reader.h"
#include "floe/io/file_io.h"
#include "floe/read/task_reader.h"
#include "floe/util/strings.h"
#include "floe/util/thread_pool.h"

namespace floe::sql {

namespace {

constexpr int64_t kBatchRows = 64 * 1024;

bool is_cancel(const Status& s) { return !s.ok() && s.kind() == ErrorKind::kCancelled; }

}  // namespace

std::vector<NestedField> make_fields(const std::vector<std::string>& names,
                                     const std::vector<TypePtr>& types) {
  std::vector<NestedField> out;
  out.reserve(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    NestedField f;
    f.id = static_cast<int32_t>(i + 1);
    f.name = names[i];
    f.type = types[i];
    out.push_back(std::move(f));
  }
  return out;
}

Status run_plan(PlanNode& plan, ExecContext& ctx, const BatchSink& sink) {
  Status s = plan.execute(ctx, sink);
  if (is_cancel(s)) return Status::OK();
  return s;
}

Result<ColumnBatch> collect(PlanNode& plan, ExecContext& ctx) {
  std::vector<ColumnBatch> batches;
  FLOE_TRY(run_plan(plan, ctx, [&](ColumnBatch&& b) -> Status {
    if (b.num_rows) batches.push_back(std::move(b));
    return Status::OK();
  }));
  ColumnBatch out = FLOE_TRY(concat_batches(batches, plan.fields()));
  out.fields = plan.fields();  // a reader may name columns by the file
  return out;
}

namespace {
void explain_into(const PlanNode& node, int depth, std::string* out) {
  // Spark's tree: children under "+- ", their details aligned under the node name.
  std::string pad = depth ? std::string((depth - 1) * 3, ' ') + "+- " : "";
  std::string detail_pad(depth * 3 + 2, ' ');
  *out += pad + node.describe() + "\n";
  for (const auto& line : node.details()) *out += detail_pad + line + "\n";
  for (const PlanNode* in : node.inputs()) explain_into(*in, depth + 1, out);
}
}  // namespace

std::string explain_plan(const PlanNode& plan) {
  std::string out;
  explain_into(plan, 0, &out);
  return out;
}

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
    for (const auto& t : c.tasks) tasks.push_back(&t);
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

namespace {

// Streams RFC 4180 records (quoted fields with "" escapes, CRLF or LF line ends) from a file
// in blocks; a record may straddle blocks. Field bytes go to a reused buffer.
class CsvRecordReader {
 public:
  CsvRecordReader(std::string path, char delimiter) : path_(std::move(path)), delim_(delimiter) {}

  Status open() {
    in_.open(path_, std::ios::binary);
    if (!in_) return not_found("cannot open CSV file {}", path_);
    return Status::OK();
  }

  // Calls on_field(index, bytes, quoted) per field and returns true per record; false at EOF.
  template <typename OnField>
  Result<bool> next(OnField&& on_field) {
    field_.clear();
    int index = 0;
    bool in_quotes = false, quoted = false, any = false;
    while (true) {
      if (pos_ == buf_.size()) {
        FLOE_TRY(refill());
        if (buf_.empty()) break;
      }
      char c = buf_[pos_++];
      if (in_quotes) {
        if (c == '"') {
          if (pos_ == buf_.size()) FLOE_TRY(refill());
          if (pos_ < buf_.size() && buf_[pos_] == '"') {
            field_ += '"';
            ++pos_;
          } else {
            in_quotes = false;
          }
        } else {
          field_ += c;
        }
        continue;
      }
      if (c == '"') {
        in_quotes = quoted = any = true;
      } else if (c == delim_) {
        on_field(index++, std::string_view(field_), quoted);
        field_.clear();
        quoted = false;
        any = true;
      } else if (c == '\n' || c == '\r') {
        if (c == '\r') {
          if (pos_ == buf_.size()) FLOE_TRY(refill());
          if (pos_ < buf_.size() && buf_[pos_] == '\n') ++pos_;
        }
        if (any || !field_.empty()) {
          on_field(index, std::string_view(field_), quoted);
          return true;
        }
      } else {
        field_ += c;
        any = true;
      }
    }
    if (in_quotes) return invalid_data("CSV file {}: a quoted field is not closed", path_);
    if (any || !field_.empty()) {
      on_field(index, std::string_view(field_), quoted);
      return true;
    }
    return false;
  }

 private:
  Status refill() {
    buf_.resize(1 << 20);
    in_.read(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    if (in_.bad()) return io_error("reading CSV file {} failed", path_);
    buf_.resize(static_cast<size_t>(in_.gcount()));
    pos_ = 0;
    return Status::OK();
  }

  std::string path_;
  char delim_;
  std::ifstream in_;
  std::string buf_;
  size_t pos_ = 0;
  std::string field_;
};

}  // namespace

Result<PlanPtr> CsvFileNode::make(std::string path, CsvOptions options) {
  CsvRecordReader reader(path, options.delimiter);
  FLOE_TRY(reader.open());
  std::vector<std::string> first;
  bool has_record =
      FLOE_TRY(reader.next([&](int, std::string_view f, bool) { first.emplace_back(f); }));
  auto node = std::unique_ptr<CsvFileNode>(new CsvFileNode());
  node->path_ = std::move(path);
  node->options_ = options;
  std::vector<std::string> names;
  std::vector<TypePtr> types;
  for (size_t i = 0; has_record && i < first.size(); ++i) {
    names.push_back(options.header ? first[i] : fmt::format("_c{}", i));
    types.push_back(Type::string());
  }
  node->fields_ = make_fields(names, types);
  return PlanPtr(std::move(node));
}

Status CsvFileNode::execute(ExecContext& ctx, const BatchSink& sink) {
  CsvRecordReader reader(path_, options_.delimiter);
  FLOE_TRY(reader.open());
  if (options_.header) FLOE_TRY(reader.next([](int, std::string_view, bool) {}));
  const int width = static_cast<int>(fields_.size());
  ColumnBatch batch = ColumnBatch::make(fields_);
  while (true) {
    int seen = 0;
    bool more = FLOE_TRY(reader.next([&](int i, std::string_view f, bool quoted) {
      if (i >= width) return;
      if (f.empty() && !quoted && options_.empty_as_null) {
        batch.columns[i]->append_null();
      } else {
        batch.columns[i]->append_bytes(f);
      }
      seen = i + 1;
    }));
    if (!more) break;
    for (int c = seen; c < width; ++c) batch.columns[c]->append_null();
    if (++batch.num_rows == kBatchRows) {
      FLOE_TRY(sink(std::move(batch)));
      batch = ColumnBatch::make(fields_);
    }
  }
  if (batch.num_rows) FLOE_TRY(sink(std::move(batch)));
  return Status::OK();
}

std::string CsvFileNode::describe() const { return "CsvScan " + path_; }

// ---- JsonLinesNode ----

Result<PlanPtr> JsonLinesNode::make(std::string path, std::vector<std::string> columns) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return not_found("cannot open JSON Lines file {}", path);
  auto node = std::unique_ptr<JsonLinesNode>(new JsonLinesNode());
  node->path_ = std::move(path);
  node->fields_ = make_fields(columns, std::vector<TypePtr>(columns.size(), Type::string()));
  for (size_t i = 0; i < columns.size(); ++i) node->index_[to_lower(columns[i])] = i;
  return PlanPtr(std::move(node));
}

Status JsonLinesNode::execute(ExecContext& ctx, const BatchSink& sink) {
  std::ifstream in(path_, std::ios::binary);
  if (!in) return not_found("cannot open JSON Lines file {}", path_);
  const size_t width = fields_.size();
  ColumnBatch batch = ColumnBatch::make(fields_);
  std::vector<uint8_t> seen(width);
  std::string line, key, text;
  int64_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (trim(line).empty()) continue;
    nlohmann::json object = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (object.is_discarded() || !object.is_object()) {
      return invalid_data("{} line {}: not a JSON object", path_, line_no);
    }
    std::fill(seen.begin(), seen.end(), 0);
    for (auto it = object.begin(); it != object.end(); ++it) {
      key = to_lower(it.key());
      auto col = index_.find(key);
      if (col == index_.end() || seen[col->second]) continue;
      seen[col->second] = 1;
      ColumnVector& out = *batch.columns[col->second];
      const nlohmann::json& v = it.value();
      if (v.is_null()) {
        out.append_null();
      } else if (v.is_string()) {
        out.append_bytes(v.get_ref<const std::string&>());
      } else {
        text = v.dump();
        out.append_bytes(text);
      }
    }
    for (size_t c = 0; c < width; ++c) {
      if (!seen[c]) batch.columns[c]->append_null();
    }
    if (++batch.num_rows == kBatchRows) {
      FLOE_TRY(sink(std::move(batch)));
      batch = ColumnBatch::make(fields_);
    }
  }
  if (batch.num_rows) FLOE_TRY(sink(std::move(batch)));
  return Status::OK();
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

// ---- LimitNode ----

LimitNode::LimitNode(PlanPtr input, int64_t limit, int64_t offset)
    : input_(std::move(input)), limit_(limit), offset_(offset) {
  fields_ = input_->fields();
}

Status LimitNode::execute(ExecContext& ctx, const BatchSink& sink) {
  int64_t skipped = 0, emitted = 0;
  bool reached = false;
  if (limit_ == 0) return Status::OK();
  Status s = input_->execute(ctx, [&](ColumnBatch&& b) -> Status {
    int64_t begin = 0;
    if (skipped < offset_) {
      begin = std::min(b.num_rows, offset_ - skipped);
      skipped += begin;
    }
    int64_t count = b.num_rows - begin;
    if (limit_ >= 0) count = std::min(count, limit_ - emitted);
    if (count > 0) {
      emitted += count;
      if (begin == 0 && count == b.num_rows) {
        FLOE_TRY(sink(std::move(b)));
      } else {
        FLOE_TRY(sink(slice_batch(b, begin, count)));
      }
    }
    if (limit_ >= 0 && emitted >= limit_) {
      reached = true;  // stop the input; a stop asked by our own sink propagates instead
      return Status(ErrorKind::kCancelled, "limit reached");
    }
    return Status::OK();
  });
  if (reached && is_cancel(s)) return Status::OK();
  return s;
}

std::string LimitNode::describe() const {
  if (offset_ > 0) return fmt::format("Limit {} Offset {}", limit_, offset_);
  return fmt::format("Limit {}", limit_);
}

// ---- UnionAllNode ----

UnionAllNode::UnionAllNode(std::vector<PlanPtr> inputs) : inputs_(std::move(inputs)) {
  fields_ = inputs_.front()->fields();
}

Status UnionAllNode::execute(ExecContext& ctx, const BatchSink& sink) {
  for (auto& in : inputs_) {
    FLOE_TRY(in->execute(ctx, [&](ColumnBatch&& b) {
      b.fields = fields_;
      return sink(std::move(b));
    }));
  }
  return Status::OK();
}

std::vector<const PlanNode*> UnionAllNode::inputs() const {
  std::vector<const PlanNode*> out;
  for (const auto& in : inputs_) out.push_back(in.get());
  return out;
}

}  // namespace floe::sql
