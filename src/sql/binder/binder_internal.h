// The binder: turns parsed queries (sql/parser/ast_internal.h) into physical plans
// (sql/exec/plan_internal.h) with bound expressions (sql/exec/bound_expr_internal.h). Name
// resolution is case-insensitive, like Spark.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/sql/session.h"
#include "sql/exec/bound_expr_internal.h"
#include "sql/exec/plan_internal.h"
#include "sql/parser/ast_internal.h"
#include "sql/parser/stack_guard_internal.h"

namespace floe::sql {

// A column visible to expressions: the relation it comes from and its index in the plan's
// output.
struct ScopeColumn {
  std::string qualifier;  // table alias or name ("" for derived columns)
  std::string name;
  TypePtr type;
  int index = 0;
  bool hidden = false;  // not matched by * nor by an unqualified name (USING duplicates)
  // A table's metadata column (_file, _pos): matched by name, not by *.
  bool metadata = false;
};

struct Scope {
  std::vector<ScopeColumn> columns;

  static Scope of(const std::vector<NestedField>& fields, const std::string& qualifier);
  std::vector<std::string> names() const;
};

// A table a query reads at its current snapshot: a cached view built from the query is stale
// once any of them has moved on.
struct TableRead {
  std::vector<std::string> name;  // as written
  std::string key;                // table_key()
  int64_t snapshot_id = -1;       // -1: no snapshot
  int32_t schema_id = -1;
};

// What identifies a table across renames: its uuid (its location when it has none, as v1
// tables may).
std::string table_key(const TableMetadata& metadata);

// The session state a binder needs: table lookup and settings.
class Catalogish {
 public:
  virtual ~Catalogish() = default;
  virtual Result<StoredTable> load_table(const std::vector<std::string>& name) const = 0;
  // When `name` ends in a metadata table's name (`db.t.snapshots`) and the rest names a table:
  // that metadata table as a plan. nullopt when the name is not a metadata table's.
  virtual std::optional<Result<PlanPtr>> metadata_table(const std::vector<std::string>& name,
                                                        const ast::TimeTravel* travel) const = 0;
  virtual const SessionOptions& options() const = 0;
  // The session's catalog, opened on first use. With `create` false, nullptr (not an error)
  // when the embedded catalog's database does not exist yet: reads never create it.
  virtual Result<CatalogPtr> catalog(bool create) const = 0;
  // A SQL name (catalog name and namespace optional) as a catalog identifier.
  virtual Result<TableIdentifier> identifier(const std::vector<std::string>& name) const = 0;
  // The session's temporary view `name` (CACHE TABLE name AS SELECT) as a plan, adding the
  // tables its query reads to `reads`; nullopt when there is no such view.
  virtual std::optional<Result<PlanPtr>> temp_view(const std::string& name,
                                                   std::vector<TableRead>* reads) const {
    return std::nullopt;
  }
  // When the session has cached `table` (CACHE TABLE) and it is still at the cached snapshot
  // and schema: a plan reading `columns` (names in its schema) from memory. nullopt otherwise.
  virtual std::optional<Result<PlanPtr>> cached_table(
      const StoredTable& table, const std::string& display,
      const std::vector<std::string>& columns) const {
    return std::nullopt;
  }
};

// How an expression is being bound.
struct AggregateContext;

class Binder {
 public:
  Binder(const Catalogish& catalog, ExecContext& ctx) : catalog_(catalog), ctx_(ctx) {}

  // A whole query (WITH, set operations, ORDER BY, LIMIT).
  Result<PlanPtr> plan_query(const ast::Query& query);

  // A scalar expression over `scope` (no aggregates).
  Result<BoundExprPtr> bind(const ast::Expr& expr, const Scope& scope);

  // Every IcebergScanNode of a plan (EXPLAIN prepares and reports them).
  static void collect_scans(PlanNode* plan, std::vector<IcebergScanNode*>* out);

  // The tables the plans bound so far read at their current snapshot (not time travel, branches
  // or tags), through temporary views too.
  const std::vector<TableRead>& table_reads() const { return reads_; }

  // A relation of the FROM clause: its plan and the columns it shows.
  struct Relation {
    PlanPtr plan;
    Scope scope;
  };
  // One table reference, reading the columns `referenced` expressions name (a `*` reads every
  // column; `_file` and `_pos` add those metadata columns of an Iceberg table) with the
  // conjuncts of `where` that convert pushed into the scan. DELETE, UPDATE and MERGE plan
  // their target and source with it.
  // `column_stats` keeps the data files' column metrics in an Iceberg scan's tasks.
  Result<Relation> plan_table_ref(const ast::TableRef& ref,
                                  const std::vector<const ast::Expr*>& referenced,
                                  const ast::Expr* where, bool column_stats = false);
  // `left` joined with `right` on `on` (equality conjuncts become hash keys, the rest a
  // residual): output left columns then right columns.
  Result<Relation> join_relations(Relation left, Relation right, JoinType type, const ast::Expr& on,
                                  const ast::SourcePos& pos);

 private:
  Result<BoundExprPtr> bind_expr(const ast::Expr& expr, const Scope& scope,
                                 const AggregateContext* agg);
  Result<BoundExprPtr> bind_function(const ast::FunctionExpr& f, const Scope& scope,
                                     const AggregateContext* agg);
  Result<BoundExprPtr> bind_column(const ast::ColumnRefExpr& ref, const Scope& scope);
  Result<BoundExprPtr> bind_literal(const ast::LiteralExpr& lit);
  Result<BoundExprPtr> bind_subquery_value(const ast::Query& q);
  Result<std::vector<BoundExprPtr>> bind_subquery_list(const ast::Query& q);

  Result<PlanPtr> plan_body(const ast::QueryBody& body, const ast::Query* outer,
                            std::vector<std::string>* order_names);
  Result<PlanPtr> plan_select(const ast::SelectBody& select, const ast::Query* outer);
  Result<PlanPtr> plan_values(const std::vector<std::vector<ast::ExprPtr>>& rows,
                              const std::vector<std::string>& names);
  Result<Relation> plan_from(const ast::SelectBody& select,
                             const std::vector<const ast::Expr*>& referenced);
  Result<Relation> plan_join(const ast::JoinTableRef& join,
                             const std::vector<const ast::Expr*>& referenced);
  Result<Relation> join_on(Relation left, Relation right, JoinType type, const ast::Expr* on,
                           const std::vector<std::string>& using_names, const ast::SourcePos& pos);
  Result<Relation> plan_cross(Relation left, Relation right);
  Result<PlanPtr> plan_union_all_chain(const ast::SetOpBody& op);
  Result<PlanPtr> plan_set_op(const ast::SetOpBody& op);
  Result<PlanPtr> cast_columns(PlanPtr plan, const std::vector<TypePtr>& types);
  Result<PlanPtr> finish_query(PlanPtr plan, const ast::Query& query);

  const Catalogish& catalog_;
  ExecContext& ctx_;
  std::vector<std::map<std::string, const ast::CommonTableExpr*>> ctes_;
  std::vector<TableRead> reads_;
};

// "line:column" of a node, and an error naming it: "<message> at 1:8".
std::string position_text(const ast::SourcePos& pos);
Status error_at(const ast::SourcePos& pos, std::string message);
// a.b.c
std::string dotted_name(const std::vector<std::string>& parts);
// The conjuncts of an AND tree, left to right.
void split_conjuncts(const ast::Expr& e, std::vector<const ast::Expr*>* out);

// Maps a Spark type name to an Iceberg type (ids assigned from 1 for nested fields).
Result<TypePtr> iceberg_type(const ast::TypeName& type);

// Spark's identifiers for a table's refs: `db.t.branch_audit` and `db.t.tag_v1` name table
// `db.t` at branch `audit` / tag `v1`. nullopt for other names.
struct RefSuffix {
  std::vector<std::string> table;  // the name without the suffix
  std::string ref;
  bool branch = true;
};
std::optional<RefSuffix> ref_suffix(const std::vector<std::string>& name);
// Spark's name for an Iceberg type: bigint, timestamp, timestamp_ntz, decimal(10,2), ...
std::string spark_type_name(const Type& type);
// Spark's auto-generated column name for an expression (`count(1)`, `(a + 1)`).
std::string auto_column_name(const ast::Expr& expr);

// The Iceberg filter equivalent of a WHERE clause's conjuncts that can be pushed into a scan
// of `schema` (the rest stay in the Filter node). Null when nothing can be pushed.
floe::ExprPtr pushdown_filter(const ast::Expr& where, const Schema& schema,
                              const std::vector<std::string>& qualifiers);

// The Iceberg filter equivalent of a whole WHERE expression over the columns of `schema`
// (floe/sql/filter.h); an error names the first predicate that does not convert exactly.
Result<floe::ExprPtr> filter_expression(const ast::Expr& where, const Schema& schema);

}  // namespace floe::sql
