// Maintenance procedures (procedures_internal.h):
//   CALL system.rewrite_data_files(table => 'db.t' [, strategy => 'binpack']
//       [, options => map('min-input-files', '2', ...)] [, where => 'day >= ''2026-06-01''']);
// as Spark runs them: the work is the library's (floe/table/rewrite_data_files.h), the result
// row has Spark's columns.
#include <fmt/format.h>

#include "floe/sql/filter.h"
#include "floe/table/rewrite_data_files.h"
#include "floe/util/strings.h"
#include "sql/statements/procedures_internal.h"

namespace floe::sql {

namespace {

// A map(...) argument of string keys and values (Spark's options).
Result<std::map<std::string, std::string>> options_arg(const WriteContext& ctx,
                                                       const ast::Expr& expr) {
  Literal v = FLOE_TRY(constant_value(ctx, expr));
  if (v.is_null()) return std::map<std::string, std::string>{};
  if (!v.type() || v.type()->id() != TypeId::kMap) {
    return error_at(expr.pos, "options must be a map, e.g. map('min-input-files', '2')");
  }
  std::map<std::string, std::string> out;
  const auto& keys = v.map_keys();
  const auto& values = v.map_values();
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i].is_null() || values[i].is_null()) {
      return error_at(expr.pos, "options must not hold NULL keys or values");
    }
    auto text = [](const Literal& l) {
      return l.type() && l.type()->id() == TypeId::kString ? l.as_bytes() : l.to_string();
    };
    out[text(keys[i])] = text(values[i]);
  }
  return out;
}

}  // namespace

Status call_rewrite_data_files(WriteContext& ctx, const ast::CallStatement& call) {
  CallArgs args(call, {"table", "strategy", "sort_order", "options", "where"});
  FLOE_TRY(args.check());
  std::shared_ptr<Table> table = FLOE_TRY(load_table(ctx, FLOE_TRY(table_name_arg(ctx, args))));
  if (const ast::Expr* e = args.get("strategy")) {
    std::string strategy = to_lower(FLOE_TRY(constant_string(ctx, *e, "strategy")));
    if (strategy != "binpack") {
      return not_supported(
          "{}: strategy '{}' is not supported yet (binpack is; sort and zorder are not)",
          args.procedure(), strategy);
    }
  }
  if (args.get("sort_order")) {
    return not_supported("{}: sort_order needs the sort strategy, which is not supported yet",
                         args.procedure());
  }
  RewriteDataFilesOptions options;
  if (const ast::Expr* e = args.get("options")) {
    options = FLOE_TRY(RewriteDataFilesOptions::from_map(FLOE_TRY(options_arg(ctx, *e))));
  }
  if (const ast::Expr* e = args.get("where")) {
    std::string where = FLOE_TRY(constant_string(ctx, *e, "where"));
    options.filter = FLOE_TRY(parse_filter(where, *table->metadata()->schema()));
  }
  options.threads = ctx.exec.threads;
  if (ctx.sink.work) {
    options.progress = [&ctx](int64_t files, int64_t files_total, int64_t bytes,
                              int64_t bytes_total) {
      ctx.sink.work("rewrite_data_files", files, files_total, bytes, bytes_total);
    };
  }
  RewriteDataFilesResult r = FLOE_TRY(rewrite_data_files(*table, options));
  return emit_row(
      ctx,
      {"rewritten_data_files_count", "added_data_files_count", "rewritten_bytes_count",
       "failed_data_files_count", "removed_delete_files_count"},
      {Type::int32(), Type::int32(), Type::int64(), Type::int32(), Type::int32()},
      {Literal::int32(static_cast<int32_t>(r.rewritten_data_files)),
       Literal::int32(static_cast<int32_t>(r.added_data_files)), Literal::int64(r.rewritten_bytes),
       Literal::int32(static_cast<int32_t>(r.failed_data_files)),
       Literal::int32(static_cast<int32_t>(r.removed_delete_files))});
}

}  // namespace floe::sql
