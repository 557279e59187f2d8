// The write half shared by INSERT, CTAS and `floe load`: rows of a table's schema go through the
// table writer (partition fan-out, metrics, rolling) into data files, which one commit adds.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "floe/table/table.h"
#include "floe/write/data_writer.h"
#include "sql/binder/binder_internal.h"
#include "sql/exec/plan_internal.h"

namespace floe::sql {

struct WriteResult {
  int64_t rows = 0;
  size_t files = 0;
};

// Produces batches (columns = the table schema's top-level fields) into the sink it is given.
using RowSource = std::function<Status(const BatchSink& sink)>;
// Commits the written files (append, overwrite, ...).
using FileCommit = std::function<Status(std::vector<DataFile> files)>;

// Writes every row of `source`, then calls `commit`. When writing or the commit fails, the
// files written are removed, except when the commit's outcome is unknown (they may be live).
// `threads` (0 = one per core) encode and compress the Parquet files, on one pool they share.
// `metadata`: the schema, spec and properties to write with (default: the table's current
// metadata; a transaction's pending metadata for a replacement).
// `ordered`: the rows come in the table's default sort order, which the data files then carry
// as their sort_order_id. `row_order` (when set): the writer holds the rows and writes them in that
// order instead (TableWriter::order_rows), for sources that cannot sort (floe load).
Result<WriteResult> write_rows(Table& table, const RowSource& source, const FileCommit& commit,
                               int threads, const TableMetadata* metadata = nullptr,
                               bool ordered = false, TableWriter::RowOrder row_order = {});

// Marks a snapshot as written by floe's SQL engine, as Spark adds engine-name and
// engine-version to the summaries it commits.
void stamp_engine(SnapshotUpdate& update);
// Those summary properties.
std::map<std::string, std::string> engine_summary();

// Rows in the table's write order (its default sort order, ALTER TABLE ... WRITE ORDERED BY):
// the plan sorted by the order's terms (transforms through the SQL functions of the same names:
// bucket, truncate, years, months, days, hours), so every data file holds its rows in order.
// The plan itself for an unsorted table. `sorted` says which.
Result<PlanPtr> order_for_write(PlanPtr plan, const TableMetadata& table, Binder& binder,
                                bool* sorted);

// The same order for a TableWriter's rows (TableWriter::order_rows: held until close, then
// sorted by floe/write/sort_rows.h), for writers that are not fed by one plan (row-level
// changes, floe load). Empty for an unsorted table.
Result<TableWriter::RowOrder> table_row_order(const TableMetadata& table);

// A plan as a row source.
RowSource plan_source(PlanNode& plan, ExecContext& exec);

}  // namespace floe::sql
