// Filter, project, aggregate, distinct, sort, join, limit and union nodes (see
// sql/exec/plan_internal.h).
#include <fmt/format.h>

#include "floe/columnar/kernels.h"
#include "sql/exec/plan_internal.h"

namespace floe::sql {

namespace {
std::vector<std::string> field_names(const std::vector<NestedField>& fields) {
  std::vector<std::string> out;
  for (const auto& f : fields) out.push_back(f.name);
  return out;
}

NestedField optional_field(int32_t id, std::string name, TypePtr type) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.type = std::move(type);
  return f;
}
}  // namespace

// ---- FilterNode ----

FilterNode::FilterNode(PlanPtr input, BoundExprPtr predicate)
    : input_(std::move(input)), predicate_(std::move(predicate)) {
  fields_ = input_->fields();
}

Status FilterNode::execute(ExecContext& ctx, const BatchSink& sink) {
  std::vector<uint8_t> keep;
  return input_->execute(ctx, [&](ColumnBatch&& b) -> Status {
    if (b.num_rows == 0) return Status::OK();
    FLOE_TRY(evaluate_predicate(*predicate_, b, &keep));
    int64_t kept = 0;
    for (int64_t i = 0; i < b.num_rows; ++i) kept += keep[i] != 0;
    if (kept == 0) return Status::OK();
    if (kept == b.num_rows) return sink(std::move(b));
    ColumnBatch out = take_rows(b, keep.data());
    out.fields = fields_;
    return sink(std::move(out));
  });
}

std::string FilterNode::describe() const {
  return "Filter " + to_string(*predicate_, field_names(input_->fields()));
}

// ---- ProjectNode ----

ProjectNode::ProjectNode(PlanPtr input, std::vector<BoundExprPtr> exprs,
                         std::vector<std::string> names)
    : input_(std::move(input)), exprs_(std::move(exprs)) {
  for (size_t i = 0; i < exprs_.size(); ++i) {
    fields_.push_back(optional_field(static_cast<int32_t>(i + 1), names[i], exprs_[i]->type));
  }
}

Status ProjectNode::execute(ExecContext& ctx, const BatchSink& sink) {
  return input_->execute(ctx, [&](ColumnBatch&& b) -> Status {
    ColumnBatch out;
    out.fields = fields_;
    out.num_rows = b.num_rows;
    out.columns.reserve(exprs_.size());
    for (const auto& e : exprs_) {
      if (e->kind == ExprKind::kColumn) {
        out.columns.push_back(b.columns[e->column_index]);
      } else {
        out.columns.push_back(FLOE_TRY(evaluate(*e, b)));
      }
    }
    return sink(std::move(out));
  });
}

std::string ProjectNode::describe() const {
  std::vector<std::string> in = field_names(input_->fields());
  std::string out = "Project [";
  for (size_t i = 0; i < exprs_.size(); ++i) {
    std::string text = to_string(*exprs_[i], in);
    if (i) out += ", ";
    out += text;
    if (text != fields_[i].name) out += " AS " + fields_[i].name;
  }
  return out + "]";
}

// ---- AggregateNode ----

Result<PlanPtr> AggregateNode::make(PlanPtr input, int num_keys,
                                    std::vector<AggregateSpec> aggregates,
                                    std::vector<std::string> names) {
  std::unique_ptr<AggregateNode> node(new AggregateNode());
  std::vector<int> keys;
  for (int i = 0; i < num_keys; ++i) keys.push_back(i);
  auto probe = FLOE_TRY(HashAggregator::make(input->fields(), keys, aggregates));
  const auto& out = probe->output_fields();
  for (size_t i = 0; i < out.size(); ++i) {
    node->fields_.push_back(optional_field(static_cast<int32_t>(i + 1),
                                           i < names.size() ? names[i] : out[i].name, out[i].type));
  }
  node->input_ = std::move(input);
  node->num_keys_ = num_keys;
  node->aggregates_ = std::move(aggregates);
  return PlanPtr(std::move(node));
}

Status AggregateNode::execute(ExecContext& ctx, const BatchSink& sink) {
  std::vector<int> keys;
  for (int i = 0; i < num_keys_; ++i) keys.push_back(i);
  auto agg = FLOE_TRY(HashAggregator::make(input_->fields(), keys, aggregates_));
  FLOE_TRY(input_->execute(ctx, [&](ColumnBatch&& b) { return agg->consume(b); }));
  ColumnBatch out = FLOE_TRY(agg->finish());
  out.fields = fields_;
  if (out.num_rows == 0) return Status::OK();
  return sink(std::move(out));
}

std::string AggregateNode::describe() const {
  std::vector<std::string> in = field_names(input_->fields());
  std::string keys, aggs;
  for (int i = 0; i < num_keys_; ++i) keys += (i ? ", " : "") + in[i];
  for (size_t i = 0; i < aggregates_.size(); ++i) {
    const AggregateSpec& a = aggregates_[i];
    std::string arg = a.column < 0 ? "*" : in[a.column];
    for (int extra : a.extra_columns) arg += ", " + in[extra];
    aggs += fmt::format("{}{}({}{})", i ? ", " : "", aggregate_kind_name(a.kind),
                        a.distinct ? "DISTINCT " : "", arg);
  }
  return fmt::format("HashAggregate keys=[{}] functions=[{}]", keys, aggs);
}

// ---- DistinctNode ----

DistinctNode::DistinctNode(PlanPtr input) : input_(std::move(input)) { fields_ = input_->fields(); }

Status DistinctNode::execute(ExecContext& ctx, const BatchSink& sink) {
  std::vector<int> keys;
  for (size_t i = 0; i < fields_.size(); ++i) keys.push_back(static_cast<int>(i));
  auto agg = FLOE_TRY(HashAggregator::make(fields_, keys, {}));
  FLOE_TRY(input_->execute(ctx, [&](ColumnBatch&& b) { return agg->consume(b); }));
  ColumnBatch out = FLOE_TRY(agg->finish());
  out.fields = fields_;
  if (out.num_rows == 0) return Status::OK();
  return sink(std::move(out));
}

// ---- SortNode ----

SortNode::SortNode(PlanPtr input, std::vector<SortKey> keys, std::optional<int64_t> limit)
    : input_(std::move(input)), keys_(std::move(keys)), limit_(limit) {
  fields_ = input_->fields();
}

Status SortNode::execute(ExecContext& ctx, const BatchSink& sink) {
  std::vector<ColumnBatch> batches;
  FLOE_TRY(input_->execute(ctx, [&](ColumnBatch&& b) {
    if (b.num_rows) batches.push_back(std::move(b));
    return Status::OK();
  }));
  if (batches.empty()) return Status::OK();
  ColumnBatch out = FLOE_TRY(sort(std::move(batches), keys_, limit_));
  out.fields = fields_;
  return sink(std::move(out));
}

std::string SortNode::describe() const {
  std::string out = limit_ ? fmt::format("TopN {} [", *limit_) : std::string("Sort [");
  for (size_t i = 0; i < keys_.size(); ++i) {
    const SortKey& k = keys_[i];
    out += fmt::format("{}{} {} NULLS {}", i ? ", " : "", fields_[k.column].name,
                       k.ascending ? "ASC" : "DESC", k.effective_nulls_first() ? "FIRST" : "LAST");
  }
  return out + "]";
}

// ---- JoinNode ----

Result<PlanPtr> JoinNode::make(PlanPtr left, PlanPtr right, JoinOptions options,
                               BoundExprPtr residual, std::string condition_text) {
  std::unique_ptr<JoinNode> node(new JoinNode());
  if (residual) {
    BoundExprPtr predicate = residual;
    options.residual = [predicate](const ColumnBatch& pairs) -> Result<std::vector<uint8_t>> {
      std::vector<uint8_t> keep;
      FLOE_TRY(evaluate_predicate(*predicate, pairs, &keep));
      return keep;
    };
  }
  auto probe = FLOE_TRY(HashJoin::make(left->fields(), right->fields(), options));
  const auto& out = probe->output_fields();
  for (size_t i = 0; i < out.size(); ++i) {
    NestedField f = out[i];
    f.id = static_cast<int32_t>(i + 1);
    node->fields_.push_back(std::move(f));
  }
  node->left_ = std::move(left);
  node->right_ = std::move(right);
  node->options_ = std::move(options);
  node->residual_ = std::move(residual);
  node->condition_text_ = std::move(condition_text);
  return PlanPtr(std::move(node));
}

Status JoinNode::execute(ExecContext& ctx, const BatchSink& sink) {
  auto join = FLOE_TRY(HashJoin::make(left_->fields(), right_->fields(), options_));
  FLOE_TRY(right_->execute(ctx, [&](ColumnBatch&& b) { return join->add_build(b); }));
  FLOE_TRY(join->finish_build());
  FLOE_TRY(left_->execute(ctx, [&](ColumnBatch&& b) -> Status {
    ColumnBatch out = FLOE_TRY(join->probe(b));
    if (out.num_rows == 0) return Status::OK();
    out.fields = fields_;
    return sink(std::move(out));
  }));
  std::optional<ColumnBatch> rest = FLOE_TRY(join->finish());
  if (rest && rest->num_rows) {
    rest->fields = fields_;
    FLOE_TRY(sink(std::move(*rest)));
  }
  return Status::OK();
}

std::string JoinNode::describe() const {
  std::string out = fmt::format("HashJoin {}", join_type_name(options_.type));
  if (!condition_text_.empty()) out += " ON " + condition_text_;
  return out;
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
