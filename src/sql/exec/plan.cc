// Running a plan, collecting its output and its EXPLAIN text (see sql/exec/plan_internal.h).
#include <string>

#include "sql/exec/plan_internal.h"

namespace floe::sql {

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

}  // namespace floe::sql
