// Binding after GROUP BY: grouping expressions and aggregate calls become columns of the
// aggregate node's output (keys first, then aggregates).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sql/binder/binder_internal.h"

namespace floe::sql {

struct AggregateContext {
  Scope input_scope;  // the FROM clause's columns
  // Grouping expressions: canonical text, and the input column when the key is a plain column.
  std::vector<std::string> key_texts;
  std::vector<int> key_columns;  // -1 when the key is not a plain column
  std::vector<std::string> aggregate_texts;
  std::vector<TypePtr> types;  // output column types (keys, then aggregates)

  // The output column computing `expr`, if it is a grouping expression or an aggregate.
  std::optional<int> lookup(const ast::Expr& expr) const;
  TypePtr type_of(int index) const { return types[index]; }
};

// Calls fn on each direct sub-expression of `e` (subqueries are not entered).
void for_each_expr_child(const ast::Expr& e, const std::function<void(const ast::Expr&)>& fn);
// True when an expression contains an aggregate call (outside subqueries).
bool contains_aggregate(const ast::Expr& expr);
// The aggregate calls in an expression, outermost first (their arguments are not searched).
void collect_aggregates(const ast::Expr& expr, std::vector<const ast::FunctionExpr*>* out);

}  // namespace floe::sql
