// Statements that write tables through the commit layer (floe/table): CREATE TABLE [AS SELECT],
// INSERT INTO / OVERWRITE, ALTER TABLE SET / UNSET TBLPROPERTIES, CREATE / REPLACE / DROP
// BRANCH and TAG, and the CALL system.* procedures for snapshots and registration. Rows are
// cast to the table schema (store_assignment_internal.h), written by the table writer (floe/write)
// and committed as one snapshot; a failed commit removes the files it wrote.
#include <fmt/format.h>

#include <algorithm>

#include "floe/table/table.h"
#include "floe/util/strings.h"
#include "floe/write/data_writer.h"
#include "sql/binder/store_assignment_internal.h"
#include "sql/statements/row_level_internal.h"
#include "sql/statements/statements_internal.h"
#include "sql/statements/table_definition_internal.h"
#include "sql/statements/table_write_internal.h"

namespace floe::sql {

namespace {

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

// ---- CREATE TABLE ----

Status create_table(WriteContext& ctx, const ast::CreateTableStatement& s) {
  if (s.or_replace || s.replace) {
    return not_supported("REPLACE TABLE is not supported yet; DROP TABLE and CREATE TABLE instead");
  }
  CatalogPtr catalog = FLOE_TRY(ctx.catalog.catalog(true));
  TableIdentifier id = FLOE_TRY(ctx.catalog.identifier(s.table.parts));
  if (FLOE_TRY(catalog->table_exists(id))) {
    if (s.if_not_exists) return Status::OK();
    return make_error(ErrorKind::kAlreadyExists, "table {} already exists", id.to_string());
  }
  if (!FLOE_TRY(catalog->namespace_exists(id.ns))) {
    return not_found("namespace {} not found in catalog {} (CREATE NAMESPACE {} first)",
                     namespace_to_string(id.ns), ctx.options.catalog_name,
                     namespace_to_string(id.ns));
  }
  PlanPtr query;
  std::vector<NestedField> columns;
  if (s.as_query) {
    if (!s.columns.empty()) {
      return invalid_argument("CREATE TABLE ... AS SELECT takes its columns from the query");
    }
    query = FLOE_TRY(ctx.binder.plan_query(*s.as_query));
    for (const auto& f : query->fields()) {
      NestedField c = f;
      c.required = false;
      if (c.type->id() == TypeId::kUnknown) {
        return invalid_argument("CREATE TABLE ... AS SELECT: column {} has no type (a bare NULL)",
                                c.name);
      }
      columns.push_back(std::move(c));
    }
  }
  TableDefinition def = FLOE_TRY(table_definition(s, columns));
  std::shared_ptr<Table> table =
      FLOE_TRY(Table::create(catalog, id, def.schema, def.spec, nullptr, def.properties,
                             def.location.value_or(""), def.format_version));
  if (!query) {
    say(ctx, "created table " + id.to_string());
    return Status::OK();
  }
  const Schema& schema = *table->metadata()->schema();
  PlanPtr projected = FLOE_TRY(project_to_schema(std::move(query), schema, {}, id.to_string()));
  auto written = write_rows(
      *table, plan_source(*projected, ctx.exec),
      [&](std::vector<DataFile> files) {
        AppendFiles append = table->new_append();
        stamp_engine(append);
        for (auto& f : files) append.append_file(std::move(f));
        return append.commit();
      },
      ctx.exec.threads);
  if (!written.ok()) {
    // CTAS is all or nothing: the new table goes away with the failed write.
    (void)catalog->drop_table(id, /*purge=*/true);
    return written.status();
  }
  say(ctx, fmt::format("created table {} with {} rows in {} files", id.to_string(), written->rows,
                       written->files));
  return Status::OK();
}

// ---- INSERT ----

Status insert(WriteContext& ctx, const ast::InsertStatement& s) {
  WriteTarget target = FLOE_TRY(load_write_target(ctx, s.table.parts));
  std::shared_ptr<Table> table = target.table;
  const std::string name =
      table->id().to_string() + (target.branch ? " branch " + *target.branch : "");
  if (target.branch && !table->metadata()->refs.count(*target.branch)) {
    return not_found("table {} has no branch {} (ALTER TABLE ... CREATE BRANCH first)",
                     table->id().to_string(), *target.branch);
  }
  auto metadata = table->metadata();
  const Schema& schema = *metadata->schema();

  // PARTITION (k = v, k2): static values become constants and an overwrite filter.
  std::vector<std::pair<std::string, BoundExprPtr>> fixed;
  ExprPtr static_filter;
  for (const auto& [column, value] : s.partition) {
    if (!value) continue;
    const NestedField* field = schema.find_field(column, /*case_sensitive=*/false);
    if (!field) return invalid_argument("cannot write to {}: no column `{}`", name, column);
    Literal v = FLOE_TRY(constant_value(ctx, *value));
    Literal typed = FLOE_TRY(store_assign_value(v, field->type, name, field->name));
    BoundExprPtr e = FLOE_TRY(literal(typed));
    ExprPtr term = typed.is_null() ? make_predicate(Operation::kIsNull, field->name)
                                   : make_predicate(Operation::kEq, field->name, {typed});
    static_filter = static_filter ? make_and(static_filter, term) : term;
    fixed.emplace_back(field->name, std::move(e));
  }

  PlanPtr query = FLOE_TRY(ctx.binder.plan_query(*s.source));
  PlanPtr projected = FLOE_TRY(project_to_schema(std::move(query), schema, s.columns, name, fixed));
  auto written = write_rows(
      *table, plan_source(*projected, ctx.exec),
      [&](std::vector<DataFile> files) {
        if (!s.overwrite) {
          AppendFiles append = table->new_append();
          stamp_engine(append);
          if (target.branch) append.to_branch(*target.branch);
          for (auto& f : files) append.append_file(std::move(f));
          return append.commit();
        }
        if (static_filter) {
          // Static overwrite: every row matching the PARTITION values is replaced.
          OverwriteFiles overwrite = table->new_overwrite();
          stamp_engine(overwrite);
          if (target.branch) overwrite.to_branch(*target.branch);
          overwrite.overwrite_by_row_filter(static_filter);
          for (auto& f : files) overwrite.add_file(std::move(f));
          return overwrite.commit();
        }
        // Dynamic overwrite: partitions that receive rows are replaced.
        ReplacePartitions replace = table->new_replace_partitions();
        stamp_engine(replace);
        if (target.branch) replace.to_branch(*target.branch);
        for (auto& f : files) replace.add_file(std::move(f));
        return replace.commit();
      },
      ctx.exec.threads);
  if (!written.ok()) return written.status();
  say(ctx, fmt::format("{} {} rows into {} ({} files)", s.overwrite ? "wrote" : "inserted",
                       written->rows, name, written->files));
  return Status::OK();
}

// ---- ALTER TABLE ----

Status set_properties(WriteContext& ctx, const ast::AlterTableStatement& a,
                      const ast::SetTblProperties& set) {
  std::shared_ptr<Table> table = FLOE_TRY(load_table(ctx, a.table.parts));
  UpdateProperties update = table->update_properties();
  for (const auto& [k, v] : set.properties) update.set(k, v);
  FLOE_TRY(update.commit());
  say(ctx, "updated properties of " + table->id().to_string());
  return Status::OK();
}

Status unset_properties(WriteContext& ctx, const ast::AlterTableStatement& a,
                        const ast::UnsetTblProperties& unset) {
  std::shared_ptr<Table> table = FLOE_TRY(load_table(ctx, a.table.parts));
  auto props = table->properties();
  UpdateProperties update = table->update_properties();
  for (const auto& key : unset.keys) {
    if (!props.count(key) && !unset.if_exists) {
      return invalid_argument("attempted to unset non-existent property '{}' in table {}", key,
                              table->id().to_string());
    }
    update.remove(key);
  }
  FLOE_TRY(update.commit());
  say(ctx, "updated properties of " + table->id().to_string());
  return Status::OK();
}

// RETAIN n DAYS / HOURS / MINUTES in milliseconds.
Result<int64_t> retention_ms(const ast::RetentionPeriod& p) {
  const std::string unit = to_upper(p.unit);
  int64_t per = unit.starts_with("DAY")      ? 86400000
                : unit.starts_with("HOUR")   ? 3600000
                : unit.starts_with("MINUTE") ? 60000
                                             : 0;
  if (per == 0) return invalid_argument("unknown retention unit {}", p.unit);
  if (p.amount <= 0) return invalid_argument("retention must be positive, not {}", p.amount);
  return p.amount * per;
}

Status create_ref(WriteContext& ctx, const ast::AlterTableStatement& a, const ast::CreateRef& r) {
  std::shared_ptr<Table> table = FLOE_TRY(load_table(ctx, a.table.parts));
  auto metadata = table->metadata();
  const char* kind = r.tag ? "tag" : "branch";
  auto existing = metadata->refs.find(r.name);
  bool exists = existing != metadata->refs.end();
  if (exists && existing->second.is_branch() == r.tag) {
    return invalid_argument("{} is a {} of {}, not a {}", r.name, r.tag ? "branch" : "tag",
                            table->id().to_string(), kind);
  }
  if (r.tag && (r.min_snapshots_to_keep || r.max_snapshot_age)) {
    return invalid_argument("tag {}: snapshot retention applies to branches only", r.name);
  }
  std::optional<int64_t> snapshot_id = r.snapshot_id;
  if (!snapshot_id) {
    const Snapshot* current = metadata->current_snapshot();
    if (current) snapshot_id = current->snapshot_id;
  }
  if (r.tag && !snapshot_id) {
    return invalid_argument("cannot create tag {}: table {} has no snapshot", r.name,
                            table->id().to_string());
  }
  ManageSnapshots manage = table->manage_snapshots();
  if (exists) {
    if (r.create && !r.replace) {
      if (r.if_not_exists) return Status::OK();
      return make_error(ErrorKind::kAlreadyExists, "{} {} already exists in {}", kind, r.name,
                        table->id().to_string());
    }
    if (!snapshot_id) return invalid_argument("cannot replace {} {}: no snapshot", kind, r.name);
    if (r.tag) {
      manage.remove_tag(r.name).create_tag(r.name, *snapshot_id);
    } else {
      manage.replace_branch(r.name, *snapshot_id);
    }
  } else {
    if (!r.create) {
      return not_found("cannot replace {} {}: it does not exist in {}", kind, r.name,
                       table->id().to_string());
    }
    if (r.tag) {
      manage.create_tag(r.name, *snapshot_id);
    } else {
      manage.create_branch(r.name, snapshot_id);
    }
  }
  if (r.retain) manage.set_max_ref_age_ms(r.name, FLOE_TRY(retention_ms(*r.retain)));
  if (r.min_snapshots_to_keep) {
    manage.set_min_snapshots_to_keep(r.name, static_cast<int32_t>(*r.min_snapshots_to_keep));
  }
  if (r.max_snapshot_age) {
    manage.set_max_snapshot_age_ms(r.name, FLOE_TRY(retention_ms(*r.max_snapshot_age)));
  }
  FLOE_TRY(manage.commit());
  say(ctx, fmt::format("{} {} of {} at snapshot {}", kind, r.name, table->id().to_string(),
                       snapshot_id ? std::to_string(*snapshot_id) : "none"));
  return Status::OK();
}

Status drop_ref(WriteContext& ctx, const ast::AlterTableStatement& a, const ast::DropRef& r) {
  std::shared_ptr<Table> table = FLOE_TRY(load_table(ctx, a.table.parts));
  auto metadata = table->metadata();
  auto it = metadata->refs.find(r.name);
  if (it == metadata->refs.end() || it->second.is_branch() == r.tag) {
    if (r.if_exists) return Status::OK();
    return not_found("{} {} does not exist in {}", r.tag ? "tag" : "branch", r.name,
                     table->id().to_string());
  }
  ManageSnapshots manage = table->manage_snapshots();
  if (r.tag) {
    manage.remove_tag(r.name);
  } else {
    manage.remove_branch(r.name);
  }
  FLOE_TRY(manage.commit());
  say(ctx, fmt::format("dropped {} {} of {}", r.tag ? "tag" : "branch", r.name,
                       table->id().to_string()));
  return Status::OK();
}

Status alter_table(WriteContext& ctx, const ast::AlterTableStatement& a) {
  if (const auto* set = std::get_if<ast::SetTblProperties>(&a.action)) {
    return set_properties(ctx, a, *set);
  }
  if (const auto* unset = std::get_if<ast::UnsetTblProperties>(&a.action)) {
    return unset_properties(ctx, a, *unset);
  }
  if (const auto* r = std::get_if<ast::RenameTable>(&a.action)) {
    StatementContext sc{ctx.catalog, ctx.options, {}, ctx.sink};
    return rename_table(sc, a.table, r->to);
  }
  if (const auto* ref = std::get_if<ast::CreateRef>(&a.action)) return create_ref(ctx, a, *ref);
  if (const auto* ref = std::get_if<ast::DropRef>(&a.action)) return drop_ref(ctx, a, *ref);
  return not_supported(
      "this ALTER TABLE action is not supported yet (schema and partition "
      "evolution come with the evolution work)");
}

// ---- CALL ----

// Procedure arguments by name or position (Spark: positional first, then named).
class CallArgs {
 public:
  CallArgs(const ast::CallStatement& call, std::vector<std::string> names)
      : call_(call), names_(std::move(names)) {}

  Status check() const {
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

  const ast::Expr* get(const std::string& name) const {
    for (size_t i = 0; i < call_.args.size(); ++i) {
      const auto& a = call_.args[i];
      if (a.name ? iequals(*a.name, name) : (i < names_.size() && names_[i] == name)) {
        return a.value.get();
      }
    }
    return nullptr;
  }

  Result<const ast::Expr*> require(const std::string& name) const {
    const ast::Expr* e = get(name);
    if (!e) return invalid_argument("{}: missing argument '{}'", procedure(), name);
    return e;
  }

  std::string procedure() const { return dotted_name(call_.procedure.parts); }

 private:
  const ast::CallStatement& call_;
  std::vector<std::string> names_;
};

Result<std::vector<std::string>> table_name_arg(const WriteContext& ctx, const CallArgs& args) {
  const ast::Expr* e = FLOE_TRY(args.require("table"));
  std::string text = FLOE_TRY(constant_string(ctx, *e, "table"));
  return split(text, '.');
}

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

Status call(WriteContext& ctx, const ast::CallStatement& call) {
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
  return not_found("unknown procedure system.{}", parts[1]);
}

}  // namespace

Status run_table_statement(WriteContext& ctx, const ast::Statement& statement) {
  switch (statement.kind()) {
    case ast::StatementKind::kCreateTable:
      return create_table(ctx, statement.as<ast::CreateTableStatement>());
    case ast::StatementKind::kInsert:
      return insert(ctx, statement.as<ast::InsertStatement>());
    case ast::StatementKind::kAlterTable:
      return alter_table(ctx, statement.as<ast::AlterTableStatement>());
    case ast::StatementKind::kCall:
      return call(ctx, statement.as<ast::CallStatement>());
    case ast::StatementKind::kDelete:
    case ast::StatementKind::kUpdate:
    case ast::StatementKind::kMerge:
      return run_row_level_statement(ctx, statement);
    default:
      return not_supported("{} is not supported yet", statement_kind_name(statement.kind()));
  }
}

}  // namespace floe::sql
