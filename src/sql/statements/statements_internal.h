// Statements other than queries and EXPLAIN: DESCRIBE, SHOW, USE, SET (and, later, DDL/DML).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/table/table.h"
#include "sql/binder/binder_internal.h"

namespace floe::sql {

struct StatementContext {
  const Catalogish& catalog;
  SessionOptions& options;  // USE changes the current namespace
  std::vector<std::string> unused;
  const ResultSink& sink;
};

Status run_other_statement(StatementContext& ctx, const ast::Statement& statement);

// Statements that write through the commit layer need the binder (queries, constants).
struct WriteContext {
  const Catalogish& catalog;
  SessionOptions& options;
  Binder& binder;
  ExecContext& exec;
  const ResultSink& sink;
};

// A message line for the user ("inserted 3 rows into db.t").
void say(const WriteContext& ctx, const std::string& text);

// A catalog table to write to; not found names the catalog.
Result<std::shared_ptr<Table>> load_table(const WriteContext& ctx,
                                          const std::vector<std::string>& name);

// The table a write goes to, and the branch when the name ends in `branch_<name>` (Spark's
// identifier for writing to a branch, as in write-audit-publish).
struct WriteTarget {
  std::shared_ptr<Table> table;
  std::optional<std::string> branch;
};
Result<WriteTarget> load_write_target(const WriteContext& ctx,
                                      const std::vector<std::string>& name);

// CREATE TABLE [AS SELECT], INSERT, ALTER TABLE, CALL (table_statements.cc); DELETE, UPDATE,
// MERGE (row_level.cc).
Status run_table_statement(WriteContext& ctx, const ast::Statement& statement);

// Catalog-only statements (catalog_statements.cc).
Status create_namespace(StatementContext& ctx, const ast::CreateNamespaceStatement& s);
Status drop_namespace(StatementContext& ctx, const ast::DropNamespaceStatement& s);
Status drop_table(StatementContext& ctx, const ast::DropTableStatement& s);
Status rename_table(StatementContext& ctx, const ast::QualifiedName& from,
                    const ast::QualifiedName& to);
Status register_table(StatementContext& ctx, const std::vector<std::string>& name,
                      const std::string& metadata_file);

}  // namespace floe::sql
