// DELETE FROM, UPDATE and MERGE INTO: the half that finds the rows a statement changes
// (sql/statements/row_level_internal.h). The target is read with its `_file` and `_pos`
// metadata columns; removed rows are collected as positions per data file and new rows (updated
// versions, inserts) are stored into the table's columns with Spark's ANSI store assignment and
// written as they are found.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "floe/scan/evaluators.h"
#include "floe/spec/metadata_columns.h"
#include "floe/spec/table_properties.h"
#include "floe/util/strings.h"
#include "floe/util/thread_pool.h"
#include "sql/binder/store_assignment_internal.h"
#include "sql/statements/row_level_internal.h"
#include "sql/statements/table_write_internal.h"

namespace floe::sql {

namespace {

namespace props = table_properties;

// ---- The target and its mode ----

Result<RowLevelTarget> open_target(const WriteContext& ctx, const ast::QualifiedName& name,
                                   std::string_view mode_property, const char* operation) {
  WriteTarget loaded = FLOE_TRY(load_write_target(ctx, name.parts));
  RowLevelTarget target;
  target.table = loaded.table;
  target.branch = loaded.branch;
  target.name = loaded.table->id().to_string() + (loaded.branch ? " branch " + *loaded.branch : "");
  if (target.branch && !loaded.table->metadata()->refs.count(*target.branch)) {
    return not_found("table {} has no branch {} (ALTER TABLE ... CREATE BRANCH first)",
                     loaded.table->id().to_string(), *target.branch);
  }
  auto metadata = loaded.table->metadata();
  const auto& props = metadata->properties;
  auto mode = props.find(std::string(mode_property));
  std::string value = mode == props.end() ? std::string(props::kRowLevelModeDefault) : mode->second;
  if (iequals(value, "copy-on-write")) {
    target.mode = RowLevelMode::kCopyOnWrite;
  } else if (iequals(value, "merge-on-read")) {
    target.mode = RowLevelMode::kMergeOnRead;
    if (metadata->format_version < 2) {
      return invalid_argument(
          "{} on {}: {}=merge-on-read requires format version 2 or later (the table is v{}; "
          "upgrade it with ALTER TABLE ... SET TBLPROPERTIES ('format-version'='2') or use "
          "copy-on-write)",
          operation, target.name, mode_property, metadata->format_version);
    }
  } else {
    return invalid_argument("{} on {}: {} must be copy-on-write or merge-on-read, not '{}'",
                            operation, target.name, mode_property, value);
  }
  // write.<op>.isolation-level (Java's IsolationLevel): serializable (default) also fails on
  // data files added concurrently that the statement's condition may match.
  std::string isolation_key = std::string(mode_property);
  isolation_key.replace(isolation_key.rfind(".mode"), 5, ".isolation-level");
  auto isolation = props.find(isolation_key);
  if (isolation != props.end()) {
    if (iequals(isolation->second, "snapshot")) {
      target.serializable = false;
    } else if (!iequals(isolation->second, "serializable")) {
      return invalid_argument("{} on {}: {} must be serializable or snapshot, not '{}'", operation,
                              target.name, isolation_key, isolation->second);
    }
  }
  return target;
}

// ---- Reading the target ----

struct TargetScan {
  Binder::Relation relation;
  IcebergScanNode* scan = nullptr;
  int file_index = -1;  // of _file and _pos in the relation's columns
  int pos_index = -1;
};

// The target table with the columns `referenced` names plus _file and _pos, `where` pushed
// into planning, planned. The file map lists every data file of the scan.
Result<TargetScan> scan_target(WriteContext& ctx, const ast::QualifiedName& name,
                               const std::optional<std::string>& alias,
                               std::vector<const ast::Expr*> referenced, const ast::Expr* where,
                               const char* operation, RowLevelChanges* changes) {
  ast::NamedTableRef ref(name.pos);
  ref.name = name;
  ref.alias = alias;
  ast::ColumnRefExpr file_ref(name.pos), pos_ref(name.pos);
  file_ref.parts = {std::string(file_column().name)};
  pos_ref.parts = {std::string(position_column().name)};
  referenced.push_back(&file_ref);
  referenced.push_back(&pos_ref);
  TargetScan out;
  out.relation = FLOE_TRY(ctx.binder.plan_table_ref(ref, referenced, where, /*column_stats=*/true));
  out.scan = dynamic_cast<IcebergScanNode*>(out.relation.plan.get());
  if (!out.scan) {
    return invalid_argument("{} needs an Iceberg table: {} is not one", operation,
                            dotted_name(name.parts));
  }
  const auto& fields = out.scan->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].id == kFileColumnId) out.file_index = static_cast<int>(i);
    if (fields[i].id == kPositionColumnId) out.pos_index = static_cast<int>(i);
  }
  if (out.file_index < 0 || out.pos_index < 0) {
    // The table has its own columns named _file or _pos.
    return invalid_argument(
        "{} on {}: the table has a column named _file or _pos, which hides "
        "the metadata column row-level changes need",
        operation, dotted_name(name.parts));
  }
  FLOE_TRY(out.scan->prepare());
  changes->scan = out.scan;
  for (const auto& combined : out.scan->tasks()) {
    for (const auto& task : combined.tasks) {
      ChangedFile& f = changes->files[task.file->file_path];
      f.file = task.file;
      f.tasks.push_back(&task);
    }
  }
  // Conflicts: only rows the pushed filter may match concern the statement.
  if (where) {
    std::string qualifier = alias ? *alias : name.parts.back();
    changes->conflict_filter = pushdown_filter(*where, out.scan->schema(), {qualifier});
  }
  return out;
}

// Collects the positions of a batch's rows (every row, or those with mask[i] set) into the
// changed files. Rows of one batch come from one data file, so the lookup is per run of path.
class PositionCollector {
 public:
  PositionCollector(RowLevelChanges& changes, int file_index, int pos_index)
      : changes_(changes), file_index_(file_index), pos_index_(pos_index) {}

  Status add(const ColumnBatch& batch, const uint8_t* mask = nullptr,
             std::map<std::string, std::vector<int64_t>>* into = nullptr) {
    const ColumnVector& paths = *batch.columns[static_cast<size_t>(file_index_)];
    const int64_t* pos = batch.columns[static_cast<size_t>(pos_index_)]->raw<int64_t>();
    std::string_view current;
    std::vector<int64_t>* out = nullptr;
    for (int64_t i = 0; i < batch.num_rows; ++i) {
      if (mask && !mask[i]) continue;
      std::string_view path = paths.bytes_at(i);
      if (!out || path != current) {
        if (into) {
          out = &(*into)[std::string(path)];
        } else {
          auto it = changes_.files.find(std::string(path));
          if (it == changes_.files.end()) {
            return make_error(ErrorKind::kInternal, "row of {} which the scan did not plan", path);
          }
          out = &it->second.positions;
        }
        current = path;
      }
      out->push_back(pos[i]);
    }
    return Status::OK();
  }

 private:
  RowLevelChanges& changes_;
  int file_index_, pos_index_;
};

// ---- New rows ----

// Builds rows of the table's schema from batches of a relation: one bound expression per table
// column, stored with ANSI store assignment.
class RowBuilder {
 public:
  RowBuilder(std::string table, std::vector<NestedField> fields)
      : table_(std::move(table)), fields_(std::move(fields)), exprs_(fields_.size()) {}

  const std::vector<NestedField>& fields() const { return fields_; }
  bool has(size_t column) const { return exprs_[column] != nullptr; }

  // Column `column` takes `value` (checked: the value's type must store into the column's).
  Status set(size_t column, BoundExprPtr value) {
    const NestedField& f = fields_[column];
    if (!can_store_assign(*value->type, *f.type)) {
      return invalid_argument("cannot write to {}: cannot safely cast `{}`: {} to {}", table_,
                              f.name, spark_type_name(*value->type), spark_type_name(*f.type));
    }
    exprs_[column] = std::move(value);
    return Status::OK();
  }

  // Columns without a value take their write default or NULL; a required one is an error.
  Status fill_defaults() {
    for (size_t c = 0; c < fields_.size(); ++c) {
      if (exprs_[c]) continue;
      const NestedField& f = fields_[c];
      if (f.required && !f.write_default) {
        return invalid_argument("cannot write to {}: required column `{}` has no value", table_,
                                f.name);
      }
      Literal v = f.write_default ? *f.write_default : Literal::null(f.type);
      exprs_[c] = FLOE_TRY(literal(FLOE_TRY(store_assign_value(v, f.type, table_, f.name))));
    }
    return Status::OK();
  }

  Result<ColumnBatch> build(const ColumnBatch& input) const {
    ColumnBatch out;
    out.fields = fields_;
    out.num_rows = input.num_rows;
    for (size_t c = 0; c < fields_.size(); ++c) {
      ColumnPtr v = FLOE_TRY(evaluate(*exprs_[c], input));
      if (!same_type(v->type(), fields_[c].type)) {
        AssignFailure failure;
        ColumnPtr stored = FLOE_TRY(store_assign(v, fields_[c].type, &failure));
        if (!stored) {
          return invalid_data("cannot write to {}: column `{}`: {}", table_, fields_[c].name,
                              failure.reason);
        }
        v = std::move(stored);
      }
      if (fields_[c].required && v->null_count() > 0) {
        return invalid_data("cannot write to {}: NULL value in required column `{}`", table_,
                            fields_[c].name);
      }
      out.columns.push_back(std::move(v));
    }
    return out;
  }

 private:
  std::string table_;
  std::vector<NestedField> fields_;
  std::vector<BoundExprPtr> exprs_;
};

// The table column an assignment names (top-level columns).
Result<size_t> assigned_column(const std::vector<NestedField>& fields, const ast::Assignment& a,
                               const std::string& table, const std::string& qualifier = "") {
  // `SET t.v = ...` names column v of the target t.
  if (a.column.size() == 2 && !qualifier.empty() && iequals(a.column[0], qualifier)) {
    ast::Assignment plain;
    plain.column = {a.column[1]};
    plain.pos = a.pos;
    return assigned_column(fields, plain, table);
  }
  if (a.column.size() != 1) {
    return error_at(a.pos, fmt::format("cannot update nested field {} of {}: assign the whole "
                                       "column `{}` (with named_struct) instead",
                                       dotted_name(a.column), table, a.column[0]));
  }
  for (size_t c = 0; c < fields.size(); ++c) {
    if (iequals(fields[c].name, a.column[0])) return c;
  }
  std::string names;
  for (const auto& f : fields) names += (names.empty() ? "`" : ", `") + f.name + "`";
  return error_at(a.pos, fmt::format("cannot resolve column `{}` of {} (columns: {})", a.column[0],
                                     table, names));
}

// The scope's column index of table column `name` (qualified by the target), for an
// unchanged value.
Result<BoundExprPtr> target_column(const Scope& scope, const std::string& qualifier,
                                   const NestedField& field) {
  for (const auto& c : scope.columns) {
    if (!c.metadata && iequals(c.qualifier, qualifier) && iequals(c.name, field.name)) {
      return column(c.index, c.type);
    }
  }
  return make_error(ErrorKind::kInternal, "column {} of the target is not in the scan", field.name);
}

Result<BoundExprPtr> bind_predicate(WriteContext& ctx, const ast::Expr& e, const Scope& scope,
                                    const char* what) {
  BoundExprPtr b = FLOE_TRY(ctx.binder.bind(e, scope));
  if (b->type->id() != TypeId::kBoolean && b->type->id() != TypeId::kUnknown) {
    return error_at(e.pos, fmt::format("{} must be a boolean condition, not {}", what,
                                       spark_type_name(*b->type)));
  }
  return b;
}

// UPDATE SET a = ..., b = ...: the assigned columns take their values (bound in `scope`), the
// others keep the target row's (UPDATE and MERGE's WHEN MATCHED / NOT MATCHED BY SOURCE).
Status assign_update(WriteContext& ctx, RowBuilder& rows,
                     const std::vector<ast::Assignment>& assignments, const Scope& scope,
                     const Scope& target_scope, const std::string& qualifier,
                     const std::string& table) {
  for (const auto& a : assignments) {
    size_t c = FLOE_TRY(assigned_column(rows.fields(), a, table, qualifier));
    if (rows.has(c)) {
      return error_at(a.pos,
                      fmt::format("column `{}` is assigned more than once", rows.fields()[c].name));
    }
    FLOE_TRY(rows.set(c, FLOE_TRY(ctx.binder.bind(*a.value, scope))));
  }
  for (size_t c = 0; c < rows.fields().size(); ++c) {
    if (!rows.has(c)) {
      FLOE_TRY(rows.set(c, FLOE_TRY(target_column(target_scope, qualifier, rows.fields()[c]))));
    }
  }
  return Status::OK();
}

Result<std::unique_ptr<TableWriter>> open_writer(const WriteContext& ctx, const Table& table) {
  auto metadata = table.metadata();
  WriteOptions options = FLOE_TRY(WriteOptions::from_table(*metadata));
  options.parquet.threads = ctx.exec.threads > 0 ? ctx.exec.threads : ThreadPool::default_threads();
  auto writer = FLOE_TRY(TableWriter::make(table.io(), *metadata, std::move(options)));
  // New row versions and rewritten rows in the table's write order.
  TableWriter::RowOrder order = FLOE_TRY(table_row_order(*metadata));
  if (order) writer->order_rows(std::move(order), metadata->default_sort_order_id);
  return writer;
}

// The current schema must be the scanned one: new rows are written with it.
Status check_schema(const RowLevelTarget& target, const IcebergScanNode& scan) {
  auto metadata = target.table->metadata();
  if (metadata->schema()->schema_id() != scan.schema().schema_id()) {
    return invalid_argument(
        "{}: the scanned snapshot's schema {} is not the table's current "
        "schema {}",
        target.name, scan.schema().schema_id(), metadata->schema()->schema_id());
  }
  return Status::OK();
}

void count_removed(const RowLevelChanges& changes, int64_t* rows) {
  for (const auto& [path, f] : changes.files) {
    *rows += f.whole ? f.file->record_count - f.deleted_before
                     : static_cast<int64_t>(f.positions.size());
  }
}

// Runs the first half, then the second; a failure removes the rows written so far.
Result<RowLevelResult> run_change(WriteContext& ctx, const RowLevelTarget& target,
                                  RowLevelChanges& changes, const std::string& operation,
                                  const std::function<Status()>& find) {
  Status found = find();
  if (!found.ok()) {
    (void)changes.writer->abort();
    return found;
  }
  return apply_row_level_change(ctx, target, changes, operation);
}

std::string mode_text(const RowLevelTarget& target, const RowLevelResult& r) {
  if (!r.committed) return "no change committed";
  std::vector<std::string> parts;
  if (r.removed_files) parts.push_back(fmt::format("{} data files removed", r.removed_files));
  if (r.rewritten_files) parts.push_back(fmt::format("{} rewritten", r.rewritten_files));
  if (r.delete_files) parts.push_back(fmt::format("{} delete files written", r.delete_files));
  if (r.data_files) parts.push_back(fmt::format("{} data files written", r.data_files));
  std::string text = target.mode == RowLevelMode::kCopyOnWrite ? "copy-on-write" : "merge-on-read";
  for (size_t i = 0; i < parts.size(); ++i) text += (i ? ", " : ": ") + parts[i];
  return text;
}

// ---- DELETE ----

Status run_delete(WriteContext& ctx, const ast::DeleteStatement& s) {
  RowLevelTarget target = FLOE_TRY(open_target(ctx, s.table, props::kDeleteMode, "DELETE"));
  RowLevelChanges changes;
  TargetScan ts = FLOE_TRY(
      scan_target(ctx, s.table, s.alias, {s.where.get()}, s.where.get(), "DELETE", &changes));
  changes.writer = FLOE_TRY(open_writer(ctx, *target.table));
  auto result = run_change(ctx, target, changes, "DELETE", [&]() -> Status {
    BoundExprPtr condition;
    if (s.where) {
      auto bound = bind_predicate(ctx, *s.where, ts.relation.scope, "WHERE");
      if (!bound.ok()) {
        // The scan reads only the columns the condition names: an error about a name lists
        // every column of the table.
        std::string qualifier = s.alias ? *s.alias : s.table.parts.back();
        auto again = bind_predicate(ctx, *s.where, Scope::of(ts.scan->schema().fields(), qualifier),
                                    "WHERE");
        return again.ok() ? bound.status() : again.status();
      }
      condition = *bound;
    }
    // Files whose every row matches go whole, unread: the condition converts to an Iceberg
    // filter in full and the partition (residual true) or the column metrics prove it.
    ExprPtr full = always_true();
    if (s.where) {
      auto converted = filter_expression(*s.where, ts.scan->schema());
      full = converted.ok() ? *converted : nullptr;
    }
    if (full) {
      ExprPtr bound = FLOE_TRY(bind_expression(full, ts.scan->schema(), false));
      StrictMetricsEvaluator strict(bound);
      for (auto& [path, f] : changes.files) {
        bool residual_true = true, countable = true;
        for (const FileScanTask* t : f.tasks) {
          residual_true = residual_true && (!t->residual || t->residual->op() == Operation::kTrue);
        }
        // The rows counted must be the live ones: a file whose deletes are all its own (a
        // deletion vector, position delete files scoped to it, which name live rows only) has
        // record_count minus theirs; a file with deletes shared with others is read.
        int64_t deleted_before = 0;
        if (!f.tasks.empty()) {
          for (const DeleteFilePtr& d : f.tasks.front()->deletes) {
            bool own =
                d->content() == FileContent::kPositionDeletes && d->scoped_data_file() == path;
            countable = countable && own;
            if (own) deleted_before += d->record_count();
          }
        }
        f.whole = countable && (residual_true || strict.must_match(*f.file));
        if (f.whole) f.deleted_before = deleted_before;
      }
      ts.scan->set_task_filter(
          [&changes](const FileScanTask& t) { return !changes.files.at(t.file->file_path).whole; });
    }
    PlanPtr plan = std::move(ts.relation.plan);
    if (condition) plan = std::make_unique<FilterNode>(std::move(plan), condition);
    PositionCollector collect(changes, ts.file_index, ts.pos_index);
    FLOE_TRY(run_plan(*plan, ctx.exec, [&](ColumnBatch&& b) { return collect.add(b); }));
    ts.relation.plan = std::move(plan);  // keeps the scan alive for the second half
    count_removed(changes, &changes.deleted);
    return Status::OK();
  });
  if (!result.ok()) return result.status();
  say(ctx, fmt::format("deleted {} rows from {} ({})", changes.deleted, target.name,
                       mode_text(target, *result)));
  return Status::OK();
}

// ---- UPDATE ----

Status run_update(WriteContext& ctx, const ast::UpdateStatement& s) {
  RowLevelTarget target = FLOE_TRY(open_target(ctx, s.table, props::kUpdateMode, "UPDATE"));
  RowLevelChanges changes;
  ast::StarExpr star(s.table.pos);
  TargetScan ts =
      FLOE_TRY(scan_target(ctx, s.table, s.alias, {&star}, s.where.get(), "UPDATE", &changes));
  FLOE_TRY(check_schema(target, *ts.scan));
  changes.writer = FLOE_TRY(open_writer(ctx, *target.table));
  auto result = run_change(ctx, target, changes, "UPDATE", [&]() -> Status {
    const std::string qualifier = s.alias ? *s.alias : s.table.parts.back();
    const Scope& scope = ts.relation.scope;
    RowBuilder rows(target.name, target.table->metadata()->schema()->fields());
    FLOE_TRY(assign_update(ctx, rows, s.assignments, scope, scope, qualifier, target.name));
    PlanPtr plan = std::move(ts.relation.plan);
    if (s.where) {
      plan = std::make_unique<FilterNode>(std::move(plan),
                                          FLOE_TRY(bind_predicate(ctx, *s.where, scope, "WHERE")));
    }
    PositionCollector collect(changes, ts.file_index, ts.pos_index);
    FLOE_TRY(run_plan(*plan, ctx.exec, [&](ColumnBatch&& b) -> Status {
      FLOE_TRY(collect.add(b));
      changes.updated += b.num_rows;
      return changes.writer->write(FLOE_TRY(rows.build(b)));
    }));
    ts.relation.plan = std::move(plan);
    return Status::OK();
  });
  if (!result.ok()) return result.status();
  say(ctx, fmt::format("updated {} rows of {} ({})", changes.updated, target.name,
                       mode_text(target, *result)));
  return Status::OK();
}

// ---- MERGE ----

// One WHEN clause, bound.
struct BoundClause {
  ast::MergeMatch match;
  ast::MergeAction action;
  BoundExprPtr condition;  // null = always
  std::optional<RowBuilder> rows;
};

// The scope of one side of the joined relation (the other side's columns left out).
Scope side_scope(const Scope& joined, size_t begin, size_t end) {
  Scope out;
  for (const auto& c : joined.columns) {
    if (static_cast<size_t>(c.index) >= begin && static_cast<size_t>(c.index) < end) {
      out.columns.push_back(c);
    }
  }
  return out;
}

// The source column named like a table column (UPDATE SET * / INSERT *).
Result<BoundExprPtr> source_column(const Scope& source, const NestedField& field,
                                   const ast::SourcePos& pos) {
  for (const auto& c : source.columns) {
    if (!c.hidden && !c.metadata && iequals(c.name, field.name)) return column(c.index, c.type);
  }
  return error_at(pos, fmt::format("cannot resolve `{}` in the MERGE source for * (the source "
                                   "has no column of that name)",
                                   field.name));
}

// UPDATE SET * / INSERT *: every table column from the source column of its name.
Status set_from_source(RowBuilder& rows, const Scope& source, const ast::SourcePos& pos) {
  for (size_t i = 0; i < rows.fields().size(); ++i) {
    FLOE_TRY(rows.set(i, FLOE_TRY(source_column(source, rows.fields()[i], pos))));
  }
  return Status::OK();
}

constexpr const char* kSourceMarker = "__floe_merge_source_row";

Status run_merge(WriteContext& ctx, const ast::MergeStatement& s) {
  RowLevelTarget target = FLOE_TRY(open_target(ctx, s.target, props::kMergeMode, "MERGE"));
  bool matched = false, not_matched = false, by_source = false;
  for (const auto& c : s.clauses) {
    matched = matched || c.match == ast::MergeMatch::kMatched;
    not_matched = not_matched || c.match == ast::MergeMatch::kNotMatched;
    by_source = by_source || c.match == ast::MergeMatch::kNotMatchedBySource;
  }
  if (s.clauses.empty()) return invalid_argument("MERGE needs at least one WHEN clause");
  RowLevelChanges changes;
  ast::StarExpr star(s.target.pos);
  // Target rows no source row matches matter only to WHEN NOT MATCHED BY SOURCE: without one,
  // the ON condition's conjuncts on target columns prune the target scan.
  TargetScan ts = FLOE_TRY(scan_target(ctx, s.target, s.target_alias, {&star},
                                       by_source ? nullptr : s.on.get(), "MERGE", &changes));
  if (by_source) changes.conflict_filter = nullptr;
  FLOE_TRY(check_schema(target, *ts.scan));
  const std::string qualifier = s.target_alias ? *s.target_alias : s.target.parts.back();
  const size_t target_width = ts.relation.plan->fields().size();

  // The source, with a marker column that is NULL on target rows no source row matched.
  Binder::Relation source = FLOE_TRY(ctx.binder.plan_table_ref(*s.source, {&star}, nullptr));
  {
    std::vector<BoundExprPtr> exprs;
    std::vector<std::string> names;
    const auto& fields = source.plan->fields();
    for (size_t i = 0; i < fields.size(); ++i) {
      exprs.push_back(FLOE_TRY(column(static_cast<int>(i), fields[i].type)));
      names.push_back(fields[i].name);
    }
    const int marker_index = static_cast<int>(fields.size());
    exprs.push_back(FLOE_TRY(literal(Literal::boolean(true))));
    names.push_back(kSourceMarker);
    source.plan = std::make_unique<ProjectNode>(std::move(source.plan), exprs, names);
    ScopeColumn marker;
    marker.qualifier = source.scope.columns.empty() ? "" : source.scope.columns[0].qualifier;
    marker.name = kSourceMarker;
    marker.type = Type::boolean();
    marker.index = marker_index;
    marker.hidden = true;
    source.scope.columns.push_back(marker);
  }
  const size_t source_width = source.plan->fields().size();
  JoinType type = JoinType::kInner;
  if (not_matched && by_source) {
    type = JoinType::kFullOuter;
  } else if (not_matched) {
    type = JoinType::kRightOuter;
  } else if (by_source) {
    type = JoinType::kLeftOuter;
  }
  Binder::Relation joined = FLOE_TRY(
      ctx.binder.join_relations(std::move(ts.relation), std::move(source), type, *s.on, s.on->pos));
  const size_t marker_index = target_width + source_width - 1;
  const Scope target_scope = side_scope(joined.scope, 0, target_width);
  const Scope source_scope = side_scope(joined.scope, target_width, target_width + source_width);
  const std::vector<NestedField>& table_fields = target.table->metadata()->schema()->fields();

  std::vector<BoundClause> clauses;
  for (const auto& c : s.clauses) {
    BoundClause b{c.match, c.action, nullptr, std::nullopt};
    // WHEN MATCHED sees both sides, NOT MATCHED only the source, NOT MATCHED BY SOURCE only
    // the target (Spark's resolution rules).
    const Scope& scope = c.match == ast::MergeMatch::kMatched      ? joined.scope
                         : c.match == ast::MergeMatch::kNotMatched ? source_scope
                                                                   : target_scope;
    if (c.condition)
      b.condition = FLOE_TRY(bind_predicate(ctx, *c.condition, scope, "WHEN ... AND"));
    switch (c.action) {
      case ast::MergeAction::kDelete:
        break;
      case ast::MergeAction::kUpdate:
      case ast::MergeAction::kUpdateStar: {
        RowBuilder rows(target.name, table_fields);
        if (c.action == ast::MergeAction::kUpdateStar) {
          FLOE_TRY(set_from_source(rows, source_scope, c.pos));
        } else {
          FLOE_TRY(
              assign_update(ctx, rows, c.assignments, scope, joined.scope, qualifier, target.name));
        }
        b.rows.emplace(std::move(rows));
        break;
      }
      case ast::MergeAction::kInsert:
      case ast::MergeAction::kInsertStar: {
        RowBuilder rows(target.name, table_fields);
        if (c.action == ast::MergeAction::kInsertStar) {
          FLOE_TRY(set_from_source(rows, source_scope, c.pos));
        } else {
          if (!c.insert_columns.empty() && c.insert_columns.size() != c.insert_values.size()) {
            return error_at(c.pos, fmt::format("INSERT lists {} columns and {} values",
                                               c.insert_columns.size(), c.insert_values.size()));
          }
          if (c.insert_columns.empty() && c.insert_values.size() != table_fields.size()) {
            return error_at(c.pos,
                            fmt::format("INSERT VALUES gives {} values for the {} columns "
                                        "of {}",
                                        c.insert_values.size(), table_fields.size(), target.name));
          }
          for (size_t v = 0; v < c.insert_values.size(); ++v) {
            size_t i = v;
            if (!c.insert_columns.empty()) {
              ast::Assignment named;
              named.column = {c.insert_columns[v]};
              named.pos = c.insert_values[v]->pos;
              i = FLOE_TRY(assigned_column(table_fields, named, target.name));
              if (rows.has(i)) {
                return error_at(c.pos, fmt::format("column `{}` is listed more than once",
                                                   table_fields[i].name));
              }
            }
            FLOE_TRY(rows.set(i, FLOE_TRY(ctx.binder.bind(*c.insert_values[v], scope))));
          }
          FLOE_TRY(rows.fill_defaults());
        }
        b.rows.emplace(std::move(rows));
        break;
      }
    }
    if (c.match == ast::MergeMatch::kNotMatched && c.action != ast::MergeAction::kInsert &&
        c.action != ast::MergeAction::kInsertStar) {
      return error_at(c.pos, "WHEN NOT MATCHED can only INSERT");
    }
    if (c.match != ast::MergeMatch::kNotMatched &&
        (c.action == ast::MergeAction::kInsert || c.action == ast::MergeAction::kInsertStar)) {
      return error_at(c.pos, "only WHEN NOT MATCHED can INSERT");
    }
    clauses.push_back(std::move(b));
  }
  // Spark checks that no target row matches two source rows, unless the only MATCHED clause is
  // an unconditional DELETE (deleting a row twice is still one delete).
  size_t matched_clauses = 0;
  bool only_unconditional_delete = true;
  for (const auto& c : clauses) {
    if (c.match != ast::MergeMatch::kMatched) continue;
    ++matched_clauses;
    only_unconditional_delete = c.action == ast::MergeAction::kDelete && !c.condition;
  }
  const bool check_cardinality = matched && !(matched_clauses == 1 && only_unconditional_delete);

  changes.writer = FLOE_TRY(open_writer(ctx, *target.table));
  auto result = run_change(ctx, target, changes, "MERGE", [&]() -> Status {
    PositionCollector collect(changes, ts.file_index, ts.pos_index);
    std::map<std::string, std::vector<int64_t>> matched_rows;  // cardinality check
    std::vector<int32_t> clause_of;
    std::vector<uint8_t> mask, cond;
    FLOE_TRY(run_plan(*joined.plan, ctx.exec, [&](ColumnBatch&& b) -> Status {
      const int64_t n = b.num_rows;
      const ColumnVector& pos = *b.columns[static_cast<size_t>(ts.pos_index)];
      const ColumnVector& marker = *b.columns[marker_index];
      clause_of.assign(static_cast<size_t>(n), -1);
      mask.assign(static_cast<size_t>(n), 0);
      if (check_cardinality) {
        for (int64_t i = 0; i < n; ++i) mask[i] = !pos.is_null(i) && !marker.is_null(i);
        FLOE_TRY(collect.add(b, mask.data(), &matched_rows));
      }
      for (size_t k = 0; k < clauses.size(); ++k) {
        const BoundClause& c = clauses[k];
        if (c.condition) FLOE_TRY(evaluate_predicate(*c.condition, b, &cond));
        for (int64_t i = 0; i < n; ++i) {
          if (clause_of[i] >= 0) continue;
          const bool t = !pos.is_null(i), src = !marker.is_null(i);
          const bool category = c.match == ast::MergeMatch::kMatched      ? t && src
                                : c.match == ast::MergeMatch::kNotMatched ? src && !t
                                                                          : t && !src;
          if (category && (!c.condition || cond[i])) clause_of[i] = static_cast<int32_t>(k);
        }
      }
      for (size_t k = 0; k < clauses.size(); ++k) {
        const BoundClause& c = clauses[k];
        int64_t count = 0;
        for (int64_t i = 0; i < n; ++i) {
          mask[i] = clause_of[i] == static_cast<int32_t>(k);
          count += mask[i];
        }
        if (count == 0) continue;
        if (c.match != ast::MergeMatch::kNotMatched) FLOE_TRY(collect.add(b, mask.data()));
        switch (c.action) {
          case ast::MergeAction::kDelete:
            changes.deleted += count;
            break;
          case ast::MergeAction::kUpdate:
          case ast::MergeAction::kUpdateStar:
            changes.updated += count;
            break;
          default:
            changes.inserted += count;
            break;
        }
        if (c.rows) {
          ColumnBatch chosen = count == n ? b : take_rows(b, mask.data());
          FLOE_TRY(changes.writer->write(FLOE_TRY(c.rows->build(chosen))));
        }
      }
      return Status::OK();
    }));
    for (auto& [path, positions] : matched_rows) {
      std::sort(positions.begin(), positions.end());
      auto dup = std::adjacent_find(positions.begin(), positions.end());
      if (dup != positions.end()) {
        return invalid_argument(
            "MERGE INTO {}: the ON condition matched the target row at position {} of {} with "
            "more than one source row; a target row may match at most one source row",
            target.name, *dup, path);
      }
    }
    return Status::OK();
  });
  if (!result.ok()) return result.status();
  say(ctx,
      fmt::format("merged into {}: {} rows updated, {} deleted, {} inserted ({})", target.name,
                  changes.updated, changes.deleted, changes.inserted, mode_text(target, *result)));
  return Status::OK();
}

}  // namespace

Status run_row_level_statement(WriteContext& ctx, const ast::Statement& statement) {
  switch (statement.kind()) {
    case ast::StatementKind::kDelete:
      return run_delete(ctx, statement.as<ast::DeleteStatement>());
    case ast::StatementKind::kUpdate:
      return run_update(ctx, statement.as<ast::UpdateStatement>());
    case ast::StatementKind::kMerge:
      return run_merge(ctx, statement.as<ast::MergeStatement>());
    default:
      return make_error(ErrorKind::kInternal, "not a row-level statement");
  }
}

}  // namespace floe::sql
