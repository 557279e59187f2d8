// Maintenance procedures (procedures_internal.h):
//   CALL system.rewrite_data_files(table => 'db.t' [, strategy => 'binpack' | 'sort']
//       [, sort_order => 'id DESC NULLS LAST, days(ts)']
//       [, options => map('min-input-files', '2', ...)] [, where => 'day >= ''2026-06-01''']);
//   CALL system.remove_orphan_files(table => 'db.t' [, older_than => TIMESTAMP '...']
//       [, location => '...'] [, dry_run => true] [, max_concurrent_deletes => 4]);
//   CALL system.rewrite_manifests(table => 'db.t' [, use_caching => false] [, spec_id => 0]);
//   CALL system.rewrite_position_delete_files(table => 'db.t'
//       [, options => map('rewrite-all', 'true', ...)] [, where => 'day >= ''2026-06-01''']);
//   CALL system.expire_snapshots(table => 'db.t' [, older_than => TIMESTAMP '...']
//       [, retain_last => 1] [, max_concurrent_deletes => 4] [, stream_results => true]
//       [, snapshot_ids => array(1, 2)] [, clean_expired_metadata => false]);
// as Spark runs them: the work is the library's (floe/table/rewrite_data_files.h,
// remove_orphan_files.h, rewrite_manifests.h, rewrite_position_deletes.h, expire_snapshots.h),
// the result row has Spark's columns.
#include <fmt/format.h>

#include <chrono>
#include <functional>

#include "floe/sql/filter.h"
#include "floe/table/expire_snapshots.h"
#include "floe/table/remove_orphan_files.h"
#include "floe/table/rewrite_data_files.h"
#include "floe/table/rewrite_manifests.h"
#include "floe/table/rewrite_position_deletes.h"
#include "floe/util/strings.h"
#include "sql/parser/parser_internal.h"
#include "sql/statements/procedures_internal.h"
#include "sql/statements/table_definition_internal.h"

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

// A boolean argument; NULL gives nullopt (Spark's procedures take NULL as not given).
Result<std::optional<bool>> optional_bool(const WriteContext& ctx, const CallArgs& args,
                                          const char* name) {
  const ast::Expr* e = args.get(name);
  if (!e) return std::optional<bool>{};
  Literal v = FLOE_TRY(constant_value(ctx, *e));
  if (v.is_null()) return std::optional<bool>{};
  if (!v.type() || v.type()->id() != TypeId::kBoolean) {
    return error_at(e->pos, fmt::format("{} must be true or false", name));
  }
  return std::optional<bool>{v.as_bool()};
}

// An integer argument; NULL gives nullopt.
Result<std::optional<int64_t>> optional_long(const WriteContext& ctx, const CallArgs& args,
                                             const char* name) {
  const ast::Expr* e = args.get(name);
  if (!e) return std::optional<int64_t>{};
  Literal v = FLOE_TRY(constant_value(ctx, *e));
  if (v.is_null()) return std::optional<int64_t>{};
  return std::optional<int64_t>{FLOE_TRY(constant_long(ctx, *e, name))};
}

// A TIMESTAMP argument in milliseconds; NULL gives nullopt.
Result<std::optional<int64_t>> optional_timestamp_ms(const WriteContext& ctx, const CallArgs& args,
                                                     const char* name) {
  const ast::Expr* e = args.get(name);
  if (!e) return std::optional<int64_t>{};
  BoundExprPtr ts = FLOE_TRY(ctx.binder.bind(*e, Scope{}));
  ts = FLOE_TRY(cast(std::move(ts), Type::timestamptz()));
  Literal v = FLOE_TRY(evaluate_constant(*ts));
  if (v.is_null()) return std::optional<int64_t>{};
  const int64_t micros = v.as_int64();
  return std::optional<int64_t>{micros >= 0 ? micros / 1000 : -((-micros + 999) / 1000)};
}

// The `where` argument as an unbound filter on the table's columns (null when absent).
Result<ExprPtr> where_arg(const WriteContext& ctx, const CallArgs& args, const Table& table) {
  const ast::Expr* e = args.get("where");
  if (!e) return ExprPtr();
  std::string where = FLOE_TRY(constant_string(ctx, *e, "where"));
  return parse_filter(where, *table.metadata()->schema());
}

using Progress =
    std::function<void(int64_t files, int64_t files_total, int64_t bytes, int64_t bytes_total)>;

// The terminal's progress bar for procedure `what` (empty when there is none).
Progress progress_of(const WriteContext& ctx, const char* what) {
  if (!ctx.sink.work) return {};
  return [&ctx, what](int64_t files, int64_t files_total, int64_t bytes, int64_t bytes_total) {
    ctx.sink.work(what, files, files_total, bytes, bytes_total);
  };
}

}  // namespace

Status call_rewrite_data_files(WriteContext& ctx, const ast::CallStatement& call) {
  CallArgs args(call, {"table", "strategy", "sort_order", "options", "where"});
  FLOE_TRY(args.check());
  std::shared_ptr<Table> table = FLOE_TRY(load_table(ctx, FLOE_TRY(table_name_arg(ctx, args))));
  RewriteDataFilesOptions options;
  if (const ast::Expr* e = args.get("options")) {
    options = FLOE_TRY(RewriteDataFilesOptions::from_map(FLOE_TRY(options_arg(ctx, *e))));
  }
  if (const ast::Expr* e = args.get("strategy")) {
    std::string strategy = to_lower(FLOE_TRY(constant_string(ctx, *e, "strategy")));
    if (strategy == "sort") {
      options.strategy = RewriteStrategy::kSort;
    } else if (strategy != "binpack") {
      return error_at(e->pos, fmt::format("{}: unknown strategy '{}' (binpack or sort)",
                                          args.procedure(), strategy));
    }
  }
  if (const ast::Expr* e = args.get("sort_order")) {
    const std::string text = FLOE_TRY(constant_string(ctx, *e, "sort_order"));
    if (to_lower(trim(text)).starts_with("zorder")) {
      return not_supported("{}: z-order sort orders are not supported (sort by columns instead)",
                           args.procedure());
    }
    // Spark: a sort_order alone means the sort strategy; with binpack it is an error.
    if (args.get("strategy") && options.strategy != RewriteStrategy::kSort) {
      return error_at(e->pos, fmt::format("{}: sort_order needs strategy => 'sort', not binpack",
                                          args.procedure()));
    }
    options.strategy = RewriteStrategy::kSort;
    auto terms = parse_sort_order(text);
    if (!terms.ok()) {
      return invalid_argument("{}: cannot parse sort_order '{}': {}", args.procedure(), text,
                              terms.status().message());
    }
    SortOrder order;
    for (const auto& term : *terms) {
      order.fields.push_back(FLOE_TRY(sort_field(*table->metadata()->schema(), term)));
    }
    options.sort_order = std::move(order);
  }
  options.filter = FLOE_TRY(where_arg(ctx, args, *table));
  options.threads = ctx.exec.threads;
  options.progress = progress_of(ctx, "rewrite_data_files");
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

Status call_remove_orphan_files(WriteContext& ctx, const ast::CallStatement& call) {
  CallArgs args(call, {"table", "older_than", "location", "dry_run", "max_concurrent_deletes"});
  FLOE_TRY(args.check());
  std::shared_ptr<Table> table = FLOE_TRY(load_table(ctx, FLOE_TRY(table_name_arg(ctx, args))));
  RemoveOrphanFilesOptions options;
  if (auto older_than = FLOE_TRY(optional_timestamp_ms(ctx, args, "older_than"))) {
    options.older_than_ms = *older_than;
    // Spark's procedure: a short interval may remove files of commits still running.
    const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
    if (now_ms - options.older_than_ms < 24LL * 3600 * 1000) {
      return invalid_argument(
          "Cannot remove orphan files with an interval less than 24 hours: files of writes still "
          "running could go (the library's remove_orphan_files takes any cutoff)");
    }
  }
  if (const ast::Expr* e = args.get("location")) {
    options.location = FLOE_TRY(constant_string(ctx, *e, "location"));
  }
  if (auto dry_run = FLOE_TRY(optional_bool(ctx, args, "dry_run"))) options.dry_run = *dry_run;
  if (auto n = FLOE_TRY(optional_long(ctx, args, "max_concurrent_deletes"))) {
    if (*n < 1 || *n > 1024) {
      return error_at(args.get("max_concurrent_deletes")->pos,
                      "max_concurrent_deletes must be 1 to 1024");
    }
    options.max_concurrent_deletes = static_cast<int>(*n);
  }
  RemoveOrphanFilesResult r = FLOE_TRY(remove_orphan_files(*table, options));
  std::vector<NestedField> fields = make_fields({"orphan_file_location"}, {Type::string()});
  if (ctx.sink.begin) ctx.sink.begin(fields);
  ColumnBatch batch = ColumnBatch::make(fields);
  for (const auto& path : r.orphans) batch.columns[0]->append_bytes(path);
  batch.num_rows = static_cast<int64_t>(r.orphans.size());
  if (ctx.sink.rows && batch.num_rows > 0) FLOE_TRY(ctx.sink.rows(batch));
  if (ctx.sink.end) ctx.sink.end();
  return Status::OK();
}

// rewrite_manifests(table, use_caching, spec_id): use_caching is accepted and ignored (Spark's
// caching of the entries it shuffles).
Status call_rewrite_manifests(WriteContext& ctx, const ast::CallStatement& call) {
  CallArgs args(call, {"table", "use_caching", "spec_id"});
  FLOE_TRY(args.check());
  std::shared_ptr<Table> table = FLOE_TRY(load_table(ctx, FLOE_TRY(table_name_arg(ctx, args))));
  RewriteManifestsOptions options;
  if (const ast::Expr* e = args.get("use_caching")) {
    Literal v = FLOE_TRY(constant_value(ctx, *e));
    if (v.is_null() || !v.type() || v.type()->id() != TypeId::kBoolean) {
      return error_at(e->pos, "use_caching must be true or false");
    }
  }
  if (const ast::Expr* e = args.get("spec_id")) {
    const int64_t id = FLOE_TRY(constant_long(ctx, *e, "spec_id"));
    if (id < 0 || id > INT32_MAX) return error_at(e->pos, "spec_id must be a partition spec id");
    options.spec_id = static_cast<int32_t>(id);
  }
  options.threads = ctx.exec.threads;
  options.progress = progress_of(ctx, "rewrite_manifests");
  RewriteManifestsResult r = FLOE_TRY(rewrite_manifests(*table, options));
  return emit_row(ctx, {"rewritten_manifests_count", "added_manifests_count"},
                  {Type::int32(), Type::int32()},
                  {Literal::int32(static_cast<int32_t>(r.rewritten_manifests)),
                   Literal::int32(static_cast<int32_t>(r.added_manifests))});
}

Status call_rewrite_position_delete_files(WriteContext& ctx, const ast::CallStatement& call) {
  CallArgs args(call, {"table", "options", "where"});
  FLOE_TRY(args.check());
  std::shared_ptr<Table> table = FLOE_TRY(load_table(ctx, FLOE_TRY(table_name_arg(ctx, args))));
  RewritePositionDeletesOptions options;
  if (const ast::Expr* e = args.get("options")) {
    options = FLOE_TRY(RewritePositionDeletesOptions::from_map(FLOE_TRY(options_arg(ctx, *e))));
  }
  options.filter = FLOE_TRY(where_arg(ctx, args, *table));
  options.threads = ctx.exec.threads;
  options.progress = progress_of(ctx, "rewrite_position_delete_files");
  RewritePositionDeletesResult r = FLOE_TRY(rewrite_position_deletes(*table, options));
  return emit_row(ctx,
                  {"rewritten_delete_files_count", "added_delete_files_count",
                   "rewritten_bytes_count", "added_bytes_count"},
                  {Type::int32(), Type::int32(), Type::int64(), Type::int64()},
                  {Literal::int32(static_cast<int32_t>(r.rewritten_delete_files)),
                   Literal::int32(static_cast<int32_t>(r.added_delete_files)),
                   Literal::int64(r.rewritten_bytes), Literal::int64(r.added_bytes)});
}

Status call_expire_snapshots(WriteContext& ctx, const ast::CallStatement& call) {
  CallArgs args(call, {"table", "older_than", "retain_last", "max_concurrent_deletes",
                       "stream_results", "snapshot_ids", "clean_expired_metadata"});
  FLOE_TRY(args.check());
  std::shared_ptr<Table> table = FLOE_TRY(load_table(ctx, FLOE_TRY(table_name_arg(ctx, args))));
  ExpireSnapshots expire = table->expire_snapshots();
  if (auto older_than = FLOE_TRY(optional_timestamp_ms(ctx, args, "older_than"))) {
    expire.expire_older_than(*older_than);
  }
  if (auto n = FLOE_TRY(optional_long(ctx, args, "retain_last"))) {
    if (*n < 1 || *n > INT32_MAX) {
      return invalid_argument("Number of snapshots to retain must be at least 1, cannot be: {}",
                              *n);
    }
    expire.retain_last(static_cast<int32_t>(*n));
  }
  if (auto n = FLOE_TRY(optional_long(ctx, args, "max_concurrent_deletes"))) {
    if (*n < 1 || *n > 1024) {
      return invalid_argument(
          "max_concurrent_deletes should have value > 0 (at most 1024), value: {}", *n);
    }
    expire.max_concurrent_deletes(static_cast<int>(*n));
  }
  // stream_results: Spark streams the files to delete to its driver instead of collecting
  // them; here they never leave the process, so it changes nothing.
  (void)FLOE_TRY(optional_bool(ctx, args, "stream_results"));
  if (const ast::Expr* e = args.get("snapshot_ids")) {
    Literal v = FLOE_TRY(constant_value(ctx, *e));
    if (!v.is_null()) {
      if (!v.type() || v.type()->id() != TypeId::kList) {
        return error_at(e->pos, "snapshot_ids must be an array of snapshot ids, e.g. array(1, 2)");
      }
      for (const Literal& id : v.list_elements()) {
        if (id.is_null() || !id.type() ||
            (id.type()->id() != TypeId::kInt && id.type()->id() != TypeId::kLong)) {
          return error_at(e->pos, "snapshot_ids must hold snapshot ids (integers), not NULL");
        }
        expire.expire_snapshot_id(id.type()->id() == TypeId::kInt ? id.as_int32() : id.as_int64());
      }
    }
  }
  if (auto clean = FLOE_TRY(optional_bool(ctx, args, "clean_expired_metadata"))) {
    expire.clean_expired_metadata(*clean);
  }
  expire.plan_threads(ctx.exec.threads);
  if (Progress progress = progress_of(ctx, "expire_snapshots")) expire.on_progress(progress);
  ExpireSnapshotsResult r = FLOE_TRY(expire.commit());
  if (r.failed_deletes > 0) {
    // Spark logs these and leaves the files for remove_orphan_files; say so instead.
    say(ctx, fmt::format("expire_snapshots: {} files could not be deleted (remove_orphan_files "
                         "can remove them later); first: {}",
                         r.failed_deletes, r.first_delete_error));
  }
  return emit_row(ctx,
                  {"deleted_data_files_count", "deleted_position_delete_files_count",
                   "deleted_equality_delete_files_count", "deleted_manifest_files_count",
                   "deleted_manifest_lists_count", "deleted_statistics_files_count"},
                  std::vector<TypePtr>(6, Type::int64()),
                  {Literal::int64(r.deleted_data_files_count),
                   Literal::int64(r.deleted_position_delete_files_count),
                   Literal::int64(r.deleted_equality_delete_files_count),
                   Literal::int64(r.deleted_manifest_files_count),
                   Literal::int64(r.deleted_manifest_lists_count),
                   Literal::int64(r.deleted_statistics_files_count)});
}

}  // namespace floe::sql
