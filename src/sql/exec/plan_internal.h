// Physical query plans of the SQL layer: a tree of nodes that push column batches to a sink.
// A node's execute() runs its children and hands every output batch to the sink; a sink may
// return ErrorKind::kCancelled to stop early (LIMIT), which the nodes propagate upwards and the
// root's caller treats as success. Blocking nodes (aggregate, sort, join build) collect their
// input first. Scans push the WHERE clause into planning and the reader.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/format/text/csv_reader.h"
#include "floe/scan/table_scan.h"
#include "floe/spec/metadata_file.h"
#include "floe/util/result.h"
#include "sql/exec/bound_expr_internal.h"
#include "sql/exec/relational_internal.h"

namespace floe::sql {

using BatchSink = std::function<Status(ColumnBatch&&)>;

// Per-query execution settings.
struct ExecContext {
  int threads = 0;  // 0 = one per core
  // Called with rows produced so far by scans (progress line); may be empty.
  std::function<void(int64_t rows)> progress;
};

class PlanNode {
 public:
  virtual ~PlanNode() = default;

  // The output columns (names as the query sees them; ids are positions + 1 unless the node
  // passes table field ids through).
  const std::vector<NestedField>& fields() const { return fields_; }

  virtual Status execute(ExecContext& ctx, const BatchSink& sink) = 0;

  // One line describing the node for EXPLAIN, and its inputs.
  virtual std::string describe() const = 0;
  virtual std::vector<const PlanNode*> inputs() const { return {}; }
  // Extra indented lines under the node in EXPLAIN (a scan's funnel).
  virtual std::vector<std::string> details() const { return {}; }

 protected:
  std::vector<NestedField> fields_;
};
using PlanPtr = std::unique_ptr<PlanNode>;

// A stop asked for by a sink (LIMIT reached), not a failure.
inline bool is_cancel(const Status& s) { return !s.ok() && s.kind() == ErrorKind::kCancelled; }

// Runs a plan, treating a kCancelled stop as the normal end.
Status run_plan(PlanNode& plan, ExecContext& ctx, const BatchSink& sink);
// Runs a plan and concatenates its output into one batch (fields = plan fields).
Result<ColumnBatch> collect(PlanNode& plan, ExecContext& ctx);

// EXPLAIN text: the plan tree, one node per line, details indented under it.
std::string explain_plan(const PlanNode& plan);

// ---- Sources ----

// An Iceberg table scan: planning (partition, metrics pruning, delete matching) happens in
// prepare(), so EXPLAIN shows the funnel without reading data.
class IcebergScanNode : public PlanNode {
 public:
  // `columns`: names in the scan schema to read (empty = all). Picks the snapshot (and so the
  // schema) without planning.
  static Result<std::unique_ptr<IcebergScanNode>> make(std::string name, StoredTable table,
                                                       ScanOptions options,
                                                       std::vector<std::string> columns);
  // Plans the scan (idempotent). Called by execute() and by EXPLAIN.
  Status prepare();
  Status execute(ExecContext& ctx, const BatchSink& sink) override;
  std::string describe() const override;
  std::vector<std::string> details() const override;

  const StoredTable& table() const { return table_; }
  const ScanReport& report() const { return scan_->report(); }
  // The schema of the snapshot being read.
  const Schema& schema() const { return scan_->schema(); }
  // The planned tasks (after prepare()) and the snapshot they read.
  const std::vector<CombinedScanTask>& tasks() const { return tasks_; }
  const TableScan& scan() const { return *scan_; }
  // Reads only the tasks `keep` accepts (DELETE skips files it removes whole).
  void set_task_filter(std::function<bool(const FileScanTask&)> keep) {
    task_filter_ = std::move(keep);
  }

 private:
  IcebergScanNode() = default;
  std::string name_;
  StoredTable table_;
  ScanOptions options_;
  std::vector<int32_t> projection_;
  std::optional<TableScan> scan_;
  bool prepared_ = false;
  std::vector<CombinedScanTask> tasks_;
  std::function<bool(const FileScanTask&)> task_filter_;
};

// A Parquet file read directly (`parquet.`path``): columns by name.
class ParquetFileNode : public PlanNode {
 public:
  static Result<PlanPtr> make(std::string path);
  Status execute(ExecContext& ctx, const BatchSink& sink) override;
  std::string describe() const override;

 private:
  std::string path_;
};

using text::CsvOptions;

// A CSV file, streamed. Without options as Spark reads `csv.`path``: no header, columns _c0,
// _c1, ... (as many as the first record has) of type string; quoted fields with "" escapes.
class CsvFileNode : public PlanNode {
 public:
  static Result<PlanPtr> make(std::string path, CsvOptions options = {});
  Status execute(ExecContext& ctx, const BatchSink& sink) override;
  std::string describe() const override;

 private:
  std::string path_;
  CsvOptions options_;
};

// A JSON Lines file, streamed: one object per line; the given columns (matched to keys
// case-insensitively) as strings: JSON strings as their text, other values as JSON text, null
// or a missing key as NULL. Loading casts them to the table's types.
class JsonLinesNode : public PlanNode {
 public:
  static Result<PlanPtr> make(std::string path, std::vector<std::string> columns);
  Status execute(ExecContext& ctx, const BatchSink& sink) override;
  std::string describe() const override;

 private:
  std::string path_;
  std::vector<std::string> columns_;
};

// range(start, end, step): one bigint column `id`.
class RangeNode : public PlanNode {
 public:
  RangeNode(int64_t start, int64_t end, int64_t step);
  Status execute(ExecContext& ctx, const BatchSink& sink) override;
  std::string describe() const override;

 private:
  int64_t start_, end_, step_;
};

// Batches computed at plan time (VALUES, metadata tables, SHOW output).
class BatchesNode : public PlanNode {
 public:
  BatchesNode(std::string label, std::vector<NestedField> fields, std::vector<ColumnBatch> batches);
  Status execute(ExecContext& ctx, const BatchSink& sink) override;
  std::string describe() const override { return label_; }

 private:
  std::string label_;
  std::vector<ColumnBatch> batches_;
};

// Rows a session keeps in memory (CACHE TABLE): the batches of one table snapshot or one
// temporary view's query, immutable once built and shared by every plan that reads them.
struct CachedBatches {
  std::vector<NestedField> fields;
  std::vector<ColumnBatch> batches;
  int64_t rows = 0;
};
using CachedBatchesPtr = std::shared_ptr<const CachedBatches>;

// A scan of cached rows (Spark's InMemoryTableScan): the columns at `columns` (positions in
// the cached fields) of every cached batch, without copying them. `load` hands the batches
// over, materialising them first when the cache holds none yet (CACHE LAZY TABLE, or after a
// write made them stale); `notes` are EXPLAIN's lines about the cache entry.
class InMemoryTableNode : public PlanNode {
 public:
  using Loader = std::function<Result<CachedBatchesPtr>(ExecContext& ctx)>;
  InMemoryTableNode(std::string name, const std::vector<NestedField>& cached_fields,
                    std::vector<int> columns, Loader load, std::vector<std::string> notes);
  Status execute(ExecContext& ctx, const BatchSink& sink) override;
  std::string describe() const override;
  std::vector<std::string> details() const override { return notes_; }

 private:
  std::string name_;
  std::vector<int> columns_;
  Loader load_;
  std::vector<std::string> notes_;
};

// ---- Row-preserving operators ----

// LIMIT n OFFSET m.
class LimitNode : public PlanNode {
 public:
  LimitNode(PlanPtr input, int64_t limit, int64_t offset);
  Status execute(ExecContext& ctx, const BatchSink& sink) override;
  std::string describe() const override;
  std::vector<const PlanNode*> inputs() const override { return {input_.get()}; }

 private:
  PlanPtr input_;
  int64_t limit_, offset_;
};

// UNION ALL of inputs with the same column types (the binder casts them first).
class UnionAllNode : public PlanNode {
 public:
  explicit UnionAllNode(std::vector<PlanPtr> inputs);
  Status execute(ExecContext& ctx, const BatchSink& sink) override;
  std::string describe() const override { return "UnionAll"; }
  std::vector<const PlanNode*> inputs() const override;

 private:
  std::vector<PlanPtr> inputs_;
};

// Output fields for derived columns: sequential ids starting at 1.
std::vector<NestedField> make_fields(const std::vector<std::string>& names,
                                     const std::vector<TypePtr>& types);

// ---- Operators over bound expressions (sql/exec/bound_expr_internal.h) and relational kernels
// ----

// WHERE / HAVING: keeps rows where the predicate is TRUE.
class FilterNode : public PlanNode {
 public:
  FilterNode(PlanPtr input, BoundExprPtr predicate);
  Status execute(ExecContext& ctx, const BatchSink& sink) override;
  std::string describe() const override;
  std::vector<const PlanNode*> inputs() const override { return {input_.get()}; }

 private:
  PlanPtr input_;
  BoundExprPtr predicate_;
};

// SELECT list: one output column per expression.
class ProjectNode : public PlanNode {
 public:
  ProjectNode(PlanPtr input, std::vector<BoundExprPtr> exprs, std::vector<std::string> names);
  Status execute(ExecContext& ctx, const BatchSink& sink) override;
  std::string describe() const override;
  std::vector<const PlanNode*> inputs() const override { return {input_.get()}; }

 private:
  PlanPtr input_;
  std::vector<BoundExprPtr> exprs_;
};

// GROUP BY keys (input columns 0..num_keys-1) and aggregates over the input's columns.
class AggregateNode : public PlanNode {
 public:
  static Result<PlanPtr> make(PlanPtr input, int num_keys, std::vector<AggregateSpec> aggregates,
                              std::vector<std::string> names);
  Status execute(ExecContext& ctx, const BatchSink& sink) override;
  std::string describe() const override;
  std::vector<const PlanNode*> inputs() const override { return {input_.get()}; }

 private:
  AggregateNode() = default;
  PlanPtr input_;
  int num_keys_ = 0;
  std::vector<AggregateSpec> aggregates_;
};

// SELECT DISTINCT / UNION: distinct rows over every column.
class DistinctNode : public PlanNode {
 public:
  explicit DistinctNode(PlanPtr input);
  Status execute(ExecContext& ctx, const BatchSink& sink) override;
  std::string describe() const override { return "Distinct"; }
  std::vector<const PlanNode*> inputs() const override { return {input_.get()}; }

 private:
  PlanPtr input_;
};

// ORDER BY (with an optional limit for top-N).
class SortNode : public PlanNode {
 public:
  SortNode(PlanPtr input, std::vector<SortKey> keys, std::optional<int64_t> limit);
  Status execute(ExecContext& ctx, const BatchSink& sink) override;
  std::string describe() const override;
  std::vector<const PlanNode*> inputs() const override { return {input_.get()}; }

 private:
  PlanPtr input_;
  std::vector<SortKey> keys_;
  std::optional<int64_t> limit_;
};

// Hash join; the right input is the build side. Output: left columns then right columns
// (semi / anti: left only).
class JoinNode : public PlanNode {
 public:
  static Result<PlanPtr> make(PlanPtr left, PlanPtr right, JoinOptions options,
                              BoundExprPtr residual, std::string condition_text);
  Status execute(ExecContext& ctx, const BatchSink& sink) override;
  std::string describe() const override;
  std::vector<const PlanNode*> inputs() const override { return {left_.get(), right_.get()}; }

 private:
  JoinNode() = default;
  PlanPtr left_, right_;
  JoinOptions options_;
  BoundExprPtr residual_;
  std::string condition_text_;
};

}  // namespace floe::sql
