// CALL [catalog.]system.<procedure>(...): Spark's procedures, with their argument names and
// result columns. procedures.cc holds the argument handling and the snapshot and registration
// procedures (rollback_to_snapshot, rollback_to_timestamp, set_current_snapshot, fast_forward,
// register_table); maintenance_procedures.cc the maintenance ones (rewrite_data_files,
// remove_orphan_files, rewrite_manifests, rewrite_position_delete_files, expire_snapshots).
#pragma once

#include <string>
#include <vector>

#include "sql/statements/statements_internal.h"

namespace floe::sql {

Status run_call(WriteContext& ctx, const ast::CallStatement& call);

// Procedure arguments by name or position (Spark: positional first, then named).
class CallArgs {
 public:
  CallArgs(const ast::CallStatement& call, std::vector<std::string> names)
      : call_(call), names_(std::move(names)) {}

  Status check() const;
  const ast::Expr* get(const std::string& name) const;
  Result<const ast::Expr*> require(const std::string& name) const;
  std::string procedure() const { return dotted_name(call_.procedure.parts); }

 private:
  const ast::CallStatement& call_;
  std::vector<std::string> names_;
};

// The `table` argument as name parts.
Result<std::vector<std::string>> table_name_arg(const WriteContext& ctx, const CallArgs& args);
// One result row.
Status emit_row(const WriteContext& ctx, const std::vector<std::string>& names,
                const std::vector<TypePtr>& types, const std::vector<Literal>& values);
// The current snapshot id (null without one), and a long total of its summary.
Literal snapshot_literal(const TableMetadata& m);
int64_t summary_total(const TableMetadata& m, const char* key);
// A constant argument, evaluated; of a given kind (an error names `what`).
Result<Literal> constant_value(const WriteContext& ctx, const ast::Expr& expr);
Result<int64_t> constant_long(const WriteContext& ctx, const ast::Expr& expr, const char* what);
Result<std::string> constant_string(const WriteContext& ctx, const ast::Expr& expr,
                                    const char* what);

// Maintenance procedures (maintenance_procedures.cc).
Status call_rewrite_data_files(WriteContext& ctx, const ast::CallStatement& call);
Status call_remove_orphan_files(WriteContext& ctx, const ast::CallStatement& call);
Status call_rewrite_manifests(WriteContext& ctx, const ast::CallStatement& call);
Status call_rewrite_position_delete_files(WriteContext& ctx, const ast::CallStatement& call);
Status call_expire_snapshots(WriteContext& ctx, const ast::CallStatement& call);

}  // namespace floe::sql
