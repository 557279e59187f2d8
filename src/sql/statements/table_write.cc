#include "floe/util/thread_pool.h"
#include "floe/write/data_writer.h"
#include "sql/statements/table_write_internal.h"

namespace floe::sql {

Result<WriteResult> write_rows(Table& table, const RowSource& source, const FileCommit& commit,
                               int threads) {
  auto metadata = table.metadata();
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

void stamp_engine(SnapshotUpdate& update) {
  update.set_summary("engine-name", "floe");
  update.set_summary("engine-version", "0.1.0");
}

RowSource plan_source(PlanNode& plan, ExecContext& exec) {
  return [&plan, &exec](const BatchSink& sink) { return run_plan(plan, exec, sink); };
}

}  // namespace floe::sql
