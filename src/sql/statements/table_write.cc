#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "floe/columnar/kernels.h"
#include "floe/util/strings.h"
#include "floe/util/thread_pool.h"
#include "floe/write/data_writer.h"
#include "floe/write/sort_rows.h"
#include "sql/exec/bound_expr_internal.h"
#include "sql/exec/relational_internal.h"
#include "sql/parser/parser_internal.h"
#include "sql/statements/statements_internal.h"
#include "sql/statements/table_write_internal.h"

namespace floe::sql {

void say(const WriteContext& ctx, const std::string& text) {
  if (ctx.sink.message) ctx.sink.message(text);
}

Result<std::shared_ptr<Table>> load_table(const WriteContext& ctx,
                                          const std::vector<std::string>& name) {
  CatalogPtr catalog = FLOE_TRY(ctx.catalog.catalog(false));
  TableIdentifier id = FLOE_TRY(ctx.catalog.identifier(name));
  if (catalog) {
    auto table = Table::load(catalog, id);
    if (table.ok() || table.status().kind() != ErrorKind::kNotFound) return table;
  }
  return not_found(
      "table {} not found in catalog {} (floe writes to catalog tables; add one "
      "with CALL system.register_table)",
      id.to_string(), ctx.options.catalog_name);
}

Result<WriteTarget> load_write_target(const WriteContext& ctx,
                                      const std::vector<std::string>& name) {
  auto table = load_table(ctx, name);
  if (table.ok()) return WriteTarget{std::move(*table), std::nullopt};
  auto suffix = ref_suffix(name);
  if (table.status().kind() == ErrorKind::kNotFound && suffix && suffix->branch) {
    auto base = load_table(ctx, suffix->table);
    if (base.ok()) return WriteTarget{std::move(*base), suffix->ref};
  }
  return table.status();
}

Result<WriteResult> write_rows(Table& table, const RowSource& source, const FileCommit& commit,
                               int threads, const TableMetadata* pending, bool ordered,
                               TableWriter::RowOrder row_order) {
  auto current = table.metadata();
  const TableMetadata* metadata = pending ? pending : current.get();
  WriteOptions options = FLOE_TRY(WriteOptions::from_table(*metadata));
  const SortOrder* order = metadata->sort_order();
  if (ordered && order && !order->is_unsorted()) options.sort_order_id = order->order_id;
  options.parquet.threads = threads > 0 ? threads : ThreadPool::default_threads();
  std::unique_ptr<TableWriter> writer =
      FLOE_TRY(TableWriter::make(table.io(), *metadata, std::move(options)));
  if (row_order) writer->order_rows(std::move(row_order), metadata->default_sort_order_id);
  const std::vector<NestedField>& fields = metadata->schema()->fields();
  Status status = source([&](ColumnBatch&& batch) -> Status {
    batch.fields = fields;
    return writer->write(batch);
  });
  WriteResult result;
  result.rows = writer->rows_written();
  if (status.ok()) {
    auto files = writer->close();
    if (files.ok()) {
      result.files = files->size();
      status = commit(std::move(*files));
    } else {
      status = files.status();
    }
  }
  if (!status.ok()) {
    if (status.kind() != ErrorKind::kCommitStateUnknown) (void)writer->abort();
    return status;
  }
  return result;
}

std::map<std::string, std::string> engine_summary() {
  return {{"engine-name", "floe"}, {"engine-version", "0.1.0"}};
}

void stamp_engine(SnapshotUpdate& update) {
  for (const auto& [key, value] : engine_summary()) update.set_summary(key, value);
}

namespace {

// A sort field as the SQL expression that computes its key.
Result<std::string> sort_key_text(const SortField& f, const Schema& schema) {
  auto name = schema.find_column_name(f.source_id);
  if (!name) return invalid_argument("sort field source id {} is not in the schema", f.source_id);
  std::string column;
  for (const auto& part : split(*name, '.')) {
    std::string quoted;
    for (char c : part) {
      quoted.push_back(c);
      if (c == '`') quoted.push_back('`');
    }
    column += (column.empty() ? "`" : ".`") + quoted + "`";
  }
  const Transform& t = f.transform;
  switch (t.kind()) {
    case Transform::Kind::kIdentity:
      return column;
    case Transform::Kind::kBucket:
      return fmt::format("bucket({}, {})", t.param(), column);
    case Transform::Kind::kTruncate:
      return fmt::format("truncate({}, {})", t.param(), column);
    case Transform::Kind::kYear:
      return fmt::format("years({})", column);
    case Transform::Kind::kMonth:
      return fmt::format("months({})", column);
    case Transform::Kind::kDay:
      return fmt::format("days({})", column);
    case Transform::Kind::kHour:
      return fmt::format("hours({})", column);
    default:
      return not_supported("cannot write rows ordered by {}({})", t.to_string(), *name);
  }
}

// The order's keys bound in `scope`, appended to `exprs`; `keys` sorts by them (by their
// positions in `exprs`).
Status bind_sort_keys(const SortOrder& order, const Schema& schema, const Scope& scope,
                      Binder& binder, std::vector<BoundExprPtr>* exprs,
                      std::vector<SortKey>* keys) {
  for (const auto& f : order.fields) {
    ast::ExprPtr expr = FLOE_TRY(parse_expression(FLOE_TRY(sort_key_text(f, schema))));
    keys->emplace_back(static_cast<int>(exprs->size()), f.direction == SortDirection::kAsc,
                       f.null_order == NullOrder::kNullsFirst);
    exprs->push_back(FLOE_TRY(binder.bind(*expr, scope)));
  }
  return Status::OK();
}

}  // namespace

Result<PlanPtr> order_for_write(PlanPtr plan, const TableMetadata& table, Binder& binder,
                                bool* sorted) {
  *sorted = false;
  const SortOrder* order = table.sort_order();
  const Schema* schema = table.schema();
  if (!order || order->is_unsorted() || !schema) return plan;
  const std::vector<NestedField> fields = plan->fields();
  const Scope scope = Scope::of(fields, "");
  // The plan's columns, then the keys; sorted; then the plan's columns alone again.
  std::vector<BoundExprPtr> columns;
  std::vector<std::string> names;
  for (size_t i = 0; i < fields.size(); ++i) {
    columns.push_back(FLOE_TRY(column(static_cast<int>(i), fields[i].type)));
    names.push_back(fields[i].name);
  }
  std::vector<BoundExprPtr> with_keys = columns;
  std::vector<SortKey> keys;
  FLOE_TRY(bind_sort_keys(*order, *schema, scope, binder, &with_keys, &keys));
  std::vector<std::string> key_names = names;
  while (key_names.size() < with_keys.size()) {
    key_names.push_back(fmt::format("_sort_key_{}", key_names.size()));
  }
  PlanPtr keyed =
      std::make_unique<ProjectNode>(std::move(plan), std::move(with_keys), std::move(key_names));
  PlanPtr sorted_plan = std::make_unique<SortNode>(std::move(keyed), std::move(keys), std::nullopt);
  *sorted = true;
  return PlanPtr(
      std::make_unique<ProjectNode>(std::move(sorted_plan), std::move(columns), std::move(names)));
}

Result<TableWriter::RowOrder> table_row_order(const TableMetadata& table) {
  const SortOrder* order = table.sort_order();
  const Schema* schema = table.schema();
  if (!order || order->is_unsorted() || !schema) return TableWriter::RowOrder{};
  SchemaPtr schema_ptr;
  for (const auto& sp : table.schemas) {
    if (sp.get() == schema) schema_ptr = sp;
  }
  return TableWriter::RowOrder([order = *order, schema = std::move(schema_ptr)](ColumnBatch all) {
    return sort_rows(order, *schema, all);
  });
}

RowSource plan_source(PlanNode& plan, ExecContext& exec) {
  return [&plan, &exec](const BatchSink& sink) { return run_plan(plan, exec, sink); };
}

}  // namespace floe::sql
