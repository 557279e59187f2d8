// Statements that write tables through the commit layer (floe/table): CREATE TABLE [AS SELECT],
// INSERT INTO / OVERWRITE, ALTER TABLE SET / UNSET TBLPROPERTIES, CREATE / REPLACE / DROP
// BRANCH and TAG (CALL lives in procedures.cc). Rows are
// cast to the table schema (store_assignment_internal.h), written by the table writer (floe/write)
// and committed as one snapshot; a failed commit removes the files it wrote.
#include <fmt/format.h>

#include <algorithm>

#include "floe/spec/table_properties.h"
#include "floe/table/replace_sort_order.h"
#include "floe/table/replace_table.h"
#include "floe/table/table.h"
#include "floe/util/strings.h"
#include "floe/write/data_writer.h"
#include "sql/binder/store_assignment_internal.h"
#include "sql/statements/evolution_internal.h"
#include "sql/statements/procedures_internal.h"
#include "sql/statements/row_level_internal.h"
#include "sql/statements/statements_internal.h"
#include "sql/statements/table_definition_internal.h"
#include "sql/statements/table_write_internal.h"

namespace floe::sql {

namespace {

// ---- CREATE TABLE ----

// The query of CREATE / REPLACE TABLE ... AS SELECT, planned, and its columns.
Status plan_table_query(WriteContext& ctx, const ast::CreateTableStatement& s, PlanPtr* query,
                        std::vector<NestedField>* columns) {
  if (!s.as_query) return Status::OK();
  if (!s.columns.empty()) {
    return invalid_argument("CREATE TABLE ... AS SELECT takes its columns from the query");
  }
  *query = FLOE_TRY(ctx.binder.plan_query(*s.as_query));
  for (const auto& f : (*query)->fields()) {
    NestedField c = f;
    c.required = false;
    if (c.type->id() == TypeId::kUnknown) {
      return invalid_argument("CREATE TABLE ... AS SELECT: column {} has no type (a bare NULL)",
                              c.name);
    }
    columns->push_back(std::move(c));
  }
  return Status::OK();
}

// CREATE OR REPLACE TABLE / REPLACE TABLE [AS SELECT] of an existing table: one transaction that
// replaces its definition (replace_table.h: history and ids kept, main cleared) and appends the
// query's rows, written with the new schema and spec.
Status replace_existing_table(WriteContext& ctx, const ast::CreateTableStatement& s,
                              const TableIdentifier& id) {
  std::shared_ptr<Table> table = FLOE_TRY(load_table(ctx, s.table.parts));
  PlanPtr query;
  std::vector<NestedField> columns;
  FLOE_TRY(plan_table_query(ctx, s, &query, &columns));
  TableDefinition def = FLOE_TRY(table_definition(s, columns));
  TableReplacement r;
  r.schema = def.schema;
  r.spec = def.spec;
  r.properties = def.properties;
  for (const auto& [k, v] : s.properties) {
    if (k == table_properties::kFormatVersion) r.properties[k] = v;
  }
  if (def.location) r.location = *def.location;
  Transaction txn = table->new_transaction();
  FLOE_TRY(replace_table(txn, std::move(r)));
  if (!query) {
    FLOE_TRY(txn.commit());
    say(ctx, "replaced table " + id.to_string());
    return Status::OK();
  }
  const TableMetadata& pending = txn.pending();
  PlanPtr projected =
      FLOE_TRY(project_to_schema(std::move(query), *pending.schema(), {}, id.to_string()));
  bool ordered = false;
  projected = FLOE_TRY(order_for_write(std::move(projected), pending, ctx.binder, &ordered));
  auto written = FLOE_TRY(write_rows(
      *table, plan_source(*projected, ctx.exec),
      [&](std::vector<DataFile> files) -> Status {
        AppendFiles append = txn.new_append();
        stamp_engine(append);
        for (auto& f : files) append.append_file(std::move(f));
        FLOE_TRY(append.commit());
        return txn.commit();
      },
      ctx.exec.threads, &pending, ordered));
  say(ctx, fmt::format("replaced table {} with {} rows in {} files", id.to_string(), written.rows,
                       written.files));
  return Status::OK();
}

Status create_table(WriteContext& ctx, const ast::CreateTableStatement& s) {
  CatalogPtr catalog = FLOE_TRY(ctx.catalog.catalog(true));
  TableIdentifier id = FLOE_TRY(ctx.catalog.identifier(s.table.parts));
  if (FLOE_TRY(catalog->table_exists(id))) {
    if (s.or_replace || s.replace) return replace_existing_table(ctx, s, id);
    if (s.if_not_exists) return Status::OK();
    return make_error(ErrorKind::kAlreadyExists, "table {} already exists", id.to_string());
  }
  if (s.replace && !s.or_replace) {
    return not_found(
        "cannot replace table {}: it does not exist (CREATE OR REPLACE TABLE creates it)",
        id.to_string());
  }
  if (!FLOE_TRY(catalog->namespace_exists(id.ns))) {
    return not_found("namespace {} not found in catalog {} (CREATE NAMESPACE {} first)",
                     namespace_to_string(id.ns), ctx.options.catalog_name,
                     namespace_to_string(id.ns));
  }
  PlanPtr query;
  std::vector<NestedField> columns;
  FLOE_TRY(plan_table_query(ctx, s, &query, &columns));
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
  bool ordered = false;
  projected =
      FLOE_TRY(order_for_write(std::move(projected), *table->metadata(), ctx.binder, &ordered));
  auto written = write_rows(
      *table, plan_source(*projected, ctx.exec),
      [&](std::vector<DataFile> files) {
        AppendFiles append = table->new_append();
        stamp_engine(append);
        for (auto& f : files) append.append_file(std::move(f));
        return append.commit();
      },
      ctx.exec.threads, nullptr, ordered);
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
  bool ordered = false;
  projected =
      FLOE_TRY(order_for_write(std::move(projected), *table->metadata(), ctx.binder, &ordered));
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
      ctx.exec.threads, nullptr, ordered);
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

// WRITE [LOCALLY] ORDERED BY ..., WRITE DISTRIBUTED BY PARTITION [[LOCALLY] ORDERED BY ...],
// WRITE UNORDERED, as Spark's Iceberg extensions set them: the default sort order and
// write.distribution-mode (range for a global order, hash by partition, none otherwise), in one
// commit.
Status set_write_order(WriteContext& ctx, const ast::AlterTableStatement& a,
                       const ast::SetWriteOrder& w) {
  std::shared_ptr<Table> table = FLOE_TRY(load_table(ctx, a.table.parts));
  auto metadata = table->metadata();
  const Schema& schema = *metadata->schema();
  Transaction txn = table->new_transaction();
  ReplaceSortOrder order = txn.replace_sort_order();
  order.case_sensitive(false);
  for (const auto& term : w.order) {
    PartitionField f = FLOE_TRY(partition_field(schema, term.term));
    const std::string source =
        schema.find_column_name(f.source_id).value_or(dotted_name(term.term.column));
    std::optional<NullOrder> nulls;
    if (term.nulls_first)
      nulls = *term.nulls_first ? NullOrder::kNullsFirst : NullOrder::kNullsLast;
    if (term.descending) {
      order.desc(source, f.transform, nulls);
    } else {
      order.asc(source, f.transform, nulls);
    }
  }
  FLOE_TRY(order.commit());
  const char* mode = w.distributed_by_partition     ? "hash"
                     : (!w.unordered && !w.locally) ? "range"
                                                    : "none";
  FLOE_TRY(txn.update_properties().set("write.distribution-mode", mode).commit());
  FLOE_TRY(txn.commit());
  say(ctx, fmt::format("write order of {} is now sort order {} ({}), distribution mode {}",
                       table->id().to_string(), table->metadata()->default_sort_order_id,
                       w.order.empty() ? "unsorted" : "sorted", mode));
  return Status::OK();
}

Status alter_table(WriteContext& ctx, const ast::AlterTableStatement& a) {
  if (const auto* w = std::get_if<ast::SetWriteOrder>(&a.action))
    return set_write_order(ctx, a, *w);
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
  if (std::holds_alternative<ast::AddPartitionField>(a.action) ||
      std::holds_alternative<ast::DropPartitionField>(a.action) ||
      std::holds_alternative<ast::ReplacePartitionField>(a.action) ||
      std::holds_alternative<ast::RenamePartitionField>(a.action)) {
    return alter_partitioning(ctx, a);
  }
  if (std::holds_alternative<ast::AddColumns>(a.action) ||
      std::holds_alternative<ast::DropColumns>(a.action) ||
      std::holds_alternative<ast::RenameColumn>(a.action) ||
      std::holds_alternative<ast::AlterColumn>(a.action) ||
      std::holds_alternative<ast::SetIdentifierFields>(a.action) ||
      std::holds_alternative<ast::DropIdentifierFields>(a.action)) {
    return alter_schema(ctx, a);
  }
  return not_supported("this ALTER TABLE action is not supported");
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
      return run_call(ctx, statement.as<ast::CallStatement>());
    case ast::StatementKind::kDelete:
    case ast::StatementKind::kUpdate:
    case ast::StatementKind::kMerge:
      return run_row_level_statement(ctx, statement);
    default:
      return not_supported("{} is not supported yet", statement_kind_name(statement.kind()));
  }
}

}  // namespace floe::sql
