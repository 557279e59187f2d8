#include "floe/util/strings.h"
#include "sql/binder/aggregate_binder_internal.h"
#include "sql/exec/relational_internal.h"

namespace floe::sql {

namespace {

// Calls fn on each direct sub-expression (subqueries are not entered).
template <typename Fn>
void for_each_child(const ast::Expr& e, Fn&& fn) {
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::kUnary:
      fn(*e.as<ast::UnaryExpr>().operand);
      break;
    case K::kBinary:
      fn(*e.as<ast::BinaryExpr>().left);
      fn(*e.as<ast::BinaryExpr>().right);
      break;
    case K::kIsNull:
      fn(*e.as<ast::IsNullExpr>().operand);
      break;
    case K::kIsBool:
      fn(*e.as<ast::IsBoolExpr>().operand);
      break;
    case K::kInList:
      fn(*e.as<ast::InListExpr>().operand);
      for (const auto& x : e.as<ast::InListExpr>().list) fn(*x);
      break;
    case K::kInSubquery:
      fn(*e.as<ast::InSubqueryExpr>().operand);
      break;
    case K::kBetween:
      fn(*e.as<ast::BetweenExpr>().operand);
      fn(*e.as<ast::BetweenExpr>().low);
      fn(*e.as<ast::BetweenExpr>().high);
      break;
    case K::kLike:
      fn(*e.as<ast::LikeExpr>().operand);
      fn(*e.as<ast::LikeExpr>().pattern);
      break;
    case K::kCase: {
      const auto& c = e.as<ast::CaseExpr>();
      if (c.operand) fn(*c.operand);
      for (const auto& w : c.whens) {
        fn(*w.condition);
        fn(*w.result);
      }
      if (c.else_result) fn(*c.else_result);
      break;
    }
    case K::kCast:
      fn(*e.as<ast::CastExpr>().operand);
      break;
    case K::kFunction:
      for (const auto& a : e.as<ast::FunctionExpr>().args) fn(*a);
      break;
    case K::kSubscript:
      fn(*e.as<ast::SubscriptExpr>().base);
      fn(*e.as<ast::SubscriptExpr>().index);
      break;
    case K::kFieldAccess:
      fn(*e.as<ast::FieldAccessExpr>().base);
      break;
    default:
      break;
  }
}

bool is_aggregate_call(const ast::Expr& e) {
  return e.kind == ast::ExprKind::kFunction &&
         is_aggregate_function(e.as<ast::FunctionExpr>().name.back());
}

}  // namespace

void for_each_expr_child(const ast::Expr& e, const std::function<void(const ast::Expr&)>& fn) {
  for_each_child(e, fn);
}

// The walkers below stop at a depth the stack cannot take; binding the same expression then
// fails with "expression too deeply nested" (sql/parser/stack_guard_internal.h).
bool contains_aggregate(const ast::Expr& expr) {
  if (is_aggregate_call(expr)) return true;
  if (internal::stack_low()) return false;
  bool found = false;
  for_each_child(expr, [&](const ast::Expr& c) { found = found || contains_aggregate(c); });
  return found;
}

void collect_aggregates(const ast::Expr& expr, std::vector<const ast::FunctionExpr*>* out) {
  if (is_aggregate_call(expr)) {
    out->push_back(&expr.as<ast::FunctionExpr>());
    return;
  }
  if (internal::stack_low()) return;
  for_each_child(expr, [&](const ast::Expr& c) { collect_aggregates(c, out); });
}

std::optional<int> AggregateContext::lookup(const ast::Expr& expr) const {
  if (expr.kind == ast::ExprKind::kColumnRef) {
    // A plain column matches a grouping column that resolves to the same input column.
    const auto& parts = expr.as<ast::ColumnRefExpr>().parts;
    for (size_t k = 0; k < key_columns.size(); ++k) {
      if (key_columns[k] < 0) continue;
      const ScopeColumn& c = input_scope.columns[key_columns[k]];
      bool same =
          (parts.size() == 1 && iequals(parts[0], c.name)) ||
          (parts.size() == 2 && iequals(parts[0], c.qualifier) && iequals(parts[1], c.name));
      if (same) return static_cast<int>(k);
    }
  }
  if (expr.kind == ast::ExprKind::kLiteral) return std::nullopt;
  std::string text = ast::to_string(expr);
  for (size_t k = 0; k < key_texts.size(); ++k) {
    if (key_texts[k] == text) return static_cast<int>(k);
  }
  if (is_aggregate_call(expr)) {
    for (size_t a = 0; a < aggregate_texts.size(); ++a) {
      if (aggregate_texts[a] == text) return static_cast<int>(key_texts.size() + a);
    }
  }
  return std::nullopt;
}

}  // namespace floe::sql
