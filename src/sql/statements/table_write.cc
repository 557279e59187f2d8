#include "floe/util/thread_pool.h"
#include "floe/write/data_writer.h"
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
                               int threads, const TableMetadata* pending) {
  auto current = table.metadata();
  const TableMetadata* metadata = pending ? pending : current.get();
  WriteOptions options = FLOE_TRY(WriteOptions::from_table(*metadata));
  options.parquet.threads = threads > 0 ? threads : ThreadPool::default_threads();
  std::unique_ptr<TableWriter> writer =
      FLOE_TRY(TableWriter::make(table.io(), *metadata, std::move(options)));
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

RowSource plan_source(PlanNode& plan, ExecContext& exec) {
  return [&plan, &exec](const BatchSink& sink) { return run_plan(plan, exec, sink); };
}

}  // namespace floe::sql
