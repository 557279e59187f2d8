// CALL system.* (procedures_internal.h): argument handling, and the snapshot and registration
// procedures.
#include <fmt/format.h>

#include <algorithm>

#include "floe/table/table.h"
#include "floe/util/strings.h"
#include "sql/statements/procedures_internal.h"

namespace floe::sql {

Status emit_row(const WriteContext& ctx, const std::vector<std::string>& names,
                const std::vector<TypePtr>& types, const std::vector<Literal>& values) {
  std::vector<NestedField> fields = make_fields(names, types);
  if (ctx.sink.begin) ctx.sink.begin(fields);
  ColumnBatch batch = ColumnBatch::make(fields);
  for (size_t i = 0; i < values.size(); ++i) FLOE_TRY(batch.columns[i]->append_literal(values[i]));
  batch.num_rows = 1;
  if (ctx.sink.rows) FLOE_TRY(ctx.sink.rows(batch));
  if (ctx.sink.end) ctx.sink.end();
  return Status::OK();
}

Literal snapshot_literal(const TableMetadata& m) {
  const Snapshot* s = m.current_snapshot();
  return s ? Literal::int64(s->snapshot_id) : Literal::null(Type::int64());
}

int64_t summary_total(const TableMetadata& m, const char* key) {
  const Snapshot* s = m.current_snapshot();
  if (!s) return 0;
  auto it = s->summary.find(key);
  return it == s->summary.end() ? 0 : std::atoll(it->second.c_str());
}

Result<Literal> constant_value(const WriteContext& ctx, const ast::Expr& expr) {
  BoundExprPtr bound = FLOE_TRY(ctx.binder.bind(expr, Scope{}));
  return evaluate_constant(*bound);
}

Result<int64_t> constant_long(const WriteContext& ctx, const ast::Expr& expr, const char* what) {
  Literal v = FLOE_TRY(constant_value(ctx, expr));
  if (v.is_null() || !v.type() ||
      (v.type()->id() != TypeId::kInt && v.type()->id() != TypeId::kLong)) {
    return error_at(expr.pos, fmt::format("{} must be an integer", what));
  }
  return v.type()->id() == TypeId::kInt ? v.as_int32() : v.as_int64();
}

Result<std::string> constant_string(const WriteContext& ctx, const ast::Expr& expr,
                                    const char* what) {
  Literal v = FLOE_TRY(constant_value(ctx, expr));
  if (v.is_null() || !v.type() || v.type()->id() != TypeId::kString) {
    return error_at(expr.pos, fmt::format("{} must be a string", what));
  }
  return v.as_bytes();
}

Status CallArgs::check() const {
  for (size_t i = 0; i < call_.args.size(); ++i) {
    const auto& a = call_.args[i];
    if (!a.name && i >= names_.size()) {
      return error_at(a.pos, fmt::format("too many arguments for {}", procedure()));
    }
    if (a.name && std::find_if(names_.begin(), names_.end(), [&](const std::string& n) {
                    return iequals(n, *a.name);
                  }) == names_.end()) {
      return error_at(a.pos, fmt::format("{} has no parameter '{}'", procedure(), *a.name));
    }
  }
  return Status::OK();
}

const ast::Expr* CallArgs::get(const std::string& name) const {
  for (size_t i = 0; i < call_.args.size(); ++i) {
    const auto& a = call_.args[i];
    if (a.name ? iequals(*a.name, name) : (i < names_.size() && names_[i] == name)) {
      return a.value.get();
    }
  }
  return nullptr;
}

Result<const ast::Expr*> CallArgs::require(const std::string& name) const {
  const ast::Expr* e = get(name);
  if (!e) return invalid_argument("{}: missing argument '{}'", procedure(), name);
  return e;
}

Result<std::vector<std::string>> table_name_arg(const WriteContext& ctx, const CallArgs& args) {
  const ast::Expr* e = FLOE_TRY(args.require("table"));
  std::string text = FLOE_TRY(constant_string(ctx, *e, "table"));
  return split(text, '.');
}

namespace {

Status call_snapshot_procedure(WriteContext& ctx, const ast::CallStatement& call,
                               const std::string& proc) {
  const bool by_time = proc == "rollback_to_timestamp";
  const bool set_current = proc == "set_current_snapshot";
  CallArgs args(call, {"table", by_time ? "timestamp" : "snapshot_id", "ref"});
  FLOE_TRY(args.check());
  std::shared_ptr<Table> table = FLOE_TRY(load_table(ctx, FLOE_TRY(table_name_arg(ctx, args))));
  auto before = table->metadata();
  const Snapshot* previous = before->current_snapshot();
  ManageSnapshots manage = table->manage_snapshots();
  if (by_time) {
    const ast::Expr* e = FLOE_TRY(args.require("timestamp"));
    BoundExprPtr ts = FLOE_TRY(ctx.binder.bind(*e, Scope{}));
    ts = FLOE_TRY(cast(std::move(ts), Type::timestamptz()));
    Literal v = FLOE_TRY(evaluate_constant(*ts));
    if (v.is_null()) return error_at(e->pos, "timestamp must not be NULL");
    manage.rollback_to_time(v.as_int64() / 1000);
  } else {
    const ast::Expr* id_arg = args.get("snapshot_id");
    const ast::Expr* ref_arg = args.get("ref");
    if (set_current && ((id_arg == nullptr) == (ref_arg == nullptr))) {
      return invalid_argument("{}: give either snapshot_id or ref", args.procedure());
    }
    int64_t id = 0;
    if (id_arg) {
      id = FLOE_TRY(constant_long(ctx, *id_arg, "snapshot_id"));
    } else if (set_current) {
      std::string ref = FLOE_TRY(constant_string(ctx, *ref_arg, "ref"));
      auto it = before->refs.find(ref);
      if (it == before->refs.end()) {
        return not_found("{}: no branch or tag '{}' in {}", args.procedure(), ref,
                         table->id().to_string());
      }
      id = it->second.snapshot_id;
    } else {
      return invalid_argument("{}: missing argument 'snapshot_id'", args.procedure());
    }
    if (set_current) {
      manage.set_current_snapshot(id);
    } else {
      manage.rollback_to(id);
    }
  }
  FLOE_TRY(manage.commit());
  auto after = table->metadata();
  return emit_row(ctx, {"previous_snapshot_id", "current_snapshot_id"},
                  {Type::int64(), Type::int64()},
                  {previous ? Literal::int64(previous->snapshot_id) : Literal::null(Type::int64()),
                   snapshot_literal(*after)});
}

Status call_register_table(WriteContext& ctx, const ast::CallStatement& call) {
  CallArgs args(call, {"table", "metadata_file"});
  FLOE_TRY(args.check());
  std::vector<std::string> name = FLOE_TRY(table_name_arg(ctx, args));
  std::string file =
      FLOE_TRY(constant_string(ctx, *FLOE_TRY(args.require("metadata_file")), "metadata_file"));
  CatalogPtr catalog = FLOE_TRY(ctx.catalog.catalog(true));
  TableIdentifier id = FLOE_TRY(ctx.catalog.identifier(name));
  FLOE_TRY(catalog->register_table(id, file));
  LoadedMetadata loaded = FLOE_TRY(catalog->load_metadata(id));
  const TableMetadata& m = *loaded.metadata;
  return emit_row(ctx, {"current_snapshot_id", "total_records_count", "total_data_files_count"},
                  {Type::int64(), Type::int64(), Type::int64()},
                  {snapshot_literal(m), Literal::int64(summary_total(m, "total-records")),
                   Literal::int64(summary_total(m, "total-data-files"))});
}

// fast_forward(table, branch, to): moves `branch` to the head of `to` when it is an ancestor
// (publishing a write-audit-publish branch).
Status call_fast_forward(WriteContext& ctx, const ast::CallStatement& call) {
  CallArgs args(call, {"table", "branch", "to"});
  FLOE_TRY(args.check());
  std::shared_ptr<Table> table = FLOE_TRY(load_table(ctx, FLOE_TRY(table_name_arg(ctx, args))));
  std::string branch = FLOE_TRY(constant_string(ctx, *FLOE_TRY(args.require("branch")), "branch"));
  std::string to = FLOE_TRY(constant_string(ctx, *FLOE_TRY(args.require("to")), "to"));
  auto before = table->metadata();
  const Snapshot* previous = before->snapshot_for_ref(branch);
  FLOE_TRY(table->manage_snapshots().fast_forward(branch, to).commit());
  const Snapshot* updated = table->metadata()->snapshot_for_ref(branch);
  return emit_row(ctx, {"branch_updated", "previous_ref", "updated_ref"},
                  {Type::string(), Type::int64(), Type::int64()},
                  {Literal::string(branch),
                   previous ? Literal::int64(previous->snapshot_id) : Literal::null(Type::int64()),
                   updated ? Literal::int64(updated->snapshot_id) : Literal::null(Type::int64())});
}

Status dispatch(WriteContext& ctx, const ast::CallStatement& call) {
  std::vector<std::string> parts = call.procedure.parts;
  if (parts.size() == 3 && iequals(parts[0], ctx.options.catalog_name)) parts.erase(parts.begin());
  if (parts.size() != 2 || !iequals(parts[0], "system")) {
    return not_found("unknown procedure {} (procedures live in system.*)",
                     dotted_name(call.procedure.parts));
  }
  const std::string proc = to_lower(parts[1]);
  if (proc == "rollback_to_snapshot" || proc == "set_current_snapshot" ||
      proc == "rollback_to_timestamp") {
    return call_snapshot_procedure(ctx, call, proc);
  }
  if (proc == "register_table") return call_register_table(ctx, call);
  if (proc == "fast_forward") return call_fast_forward(ctx, call);
  if (proc == "rewrite_data_files") return call_rewrite_data_files(ctx, call);
  if (proc == "rewrite_manifests") return call_rewrite_manifests(ctx, call);
  if (proc == "rewrite_position_delete_files") return call_rewrite_position_delete_files(ctx, call);
  if (proc == "remove_orphan_files") return call_remove_orphan_files(ctx, call);
  if (proc == "expire_snapshots") return call_expire_snapshots(ctx, call);
  return not_found("unknown procedure system.{}", parts[1]);
}

}  // namespace

Status run_call(WriteContext& ctx, const ast::CallStatement& call) { return dispatch(ctx, call); }

}  // namespace floe::sql
