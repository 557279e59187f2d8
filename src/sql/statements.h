// Statements other than queries and EXPLAIN: DESCRIBE, SHOW, USE, SET (and, later, DDL/DML).
#pragma once

#include <string>
#include <vector>

#include "binder_internal.h"

namespace floe::sql {

struct StatementContext {
  const Catalogish& catalog;
  SessionOptions& options;  // USE changes the current namespace
  std::vector<std::string> unused;
  const ResultSink& sink;
};

Status run_other_statement(StatementContext& ctx, const ast::Statement& statement);

}  // namespace floe::sql
