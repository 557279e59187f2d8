// Planning queries: FROM (tables, files, range(), subqueries, VALUES, joins), WHERE with scan
// pushdown, GROUP BY / aggregates / HAVING, SELECT lists, DISTINCT, set operations, ORDER BY and
// LIMIT.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "floe/catalog/path_read.h"
#include "floe/spec/metadata_columns.h"
#include "floe/util/strings.h"
#include "sql/binder/aggregate_binder_internal.h"
#include "sql/binder/binder_internal.h"

namespace floe::sql {

namespace {

// Lower-cased names that column references in these expressions may mean ("*" for a star).
void referenced_names(const ast::Expr& e, std::set<std::string>* out) {
  if (e.kind == ast::ExprKind::kColumnRef) {
    const auto& parts = e.as<ast::ColumnRefExpr>().parts;
    out->insert(to_lower(parts[0]));
    if (parts.size() >= 2) out->insert(to_lower(parts[1]));
    return;
  }
  if (e.kind == ast::ExprKind::kStar) {
    out->insert("*");
    return;
  }
  if (e.kind == ast::ExprKind::kFunction) {
    const auto& f = e.as<ast::FunctionExpr>();
    // count(*) reads no column.
    if (f.args.size() == 1 && f.args[0]->kind == ast::ExprKind::kStar &&
        iequals(f.name.back(), "count")) {
      return;
    }
  }
  if (internal::stack_low()) return;  // binding the expression reports it too deep
  for_each_expr_child(e, [&](const ast::Expr& c) { referenced_names(c, out); });
}

void referenced_in_ref(const ast::TableRef& ref, std::vector<const ast::Expr*>* out,
                       std::set<std::string>* using_names) {
  if (ref.kind != ast::TableRefKind::kJoin) return;
  const auto& j = ref.as<ast::JoinTableRef>();
  if (j.on) out->push_back(j.on.get());
  for (const auto& u : j.using_) using_names->insert(to_lower(u));
  referenced_in_ref(*j.left, out, using_names);
  referenced_in_ref(*j.right, out, using_names);
}

JoinType join_type_of(ast::JoinType t) {
  switch (t) {
    case ast::JoinType::kInner:
      return JoinType::kInner;
    case ast::JoinType::kLeft:
      return JoinType::kLeftOuter;
    case ast::JoinType::kRight:
      return JoinType::kRightOuter;
    case ast::JoinType::kFull:
      return JoinType::kFullOuter;
    case ast::JoinType::kCross:
      return JoinType::kCross;
    case ast::JoinType::kLeftSemi:
      return JoinType::kLeftSemi;
    case ast::JoinType::kLeftAnti:
      return JoinType::kLeftAnti;
  }
  return JoinType::kInner;
}

// A projection of every input column plus extra computed columns.
PlanPtr project_with(PlanPtr input, const std::vector<BoundExprPtr>& extra,
                     const std::vector<std::string>& extra_names) {
  std::vector<BoundExprPtr> exprs;
  std::vector<std::string> names;
  const auto& fields = input->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    exprs.push_back(column(static_cast<int>(i), fields[i].type).value());
    names.push_back(fields[i].name);
  }
  for (size_t i = 0; i < extra.size(); ++i) {
    exprs.push_back(extra[i]);
    names.push_back(extra_names[i]);
  }
  return std::make_unique<ProjectNode>(std::move(input), std::move(exprs), std::move(names));
}

// Keeps columns [begin, end) ranges of the input.
PlanPtr keep_columns(PlanPtr input, const std::vector<std::pair<int, int>>& ranges) {
  std::vector<BoundExprPtr> exprs;
  std::vector<std::string> names;
  const auto& fields = input->fields();
  for (auto [b, e] : ranges) {
    for (int i = b; i < e; ++i) {
      exprs.push_back(column(i, fields[i].type).value());
      names.push_back(fields[i].name);
    }
  }
  return std::make_unique<ProjectNode>(std::move(input), std::move(exprs), std::move(names));
}

Result<int64_t> constant_int(Binder& binder, const ast::Expr& e, const char* what) {
  BoundExprPtr b = FLOE_TRY(binder.bind(e, Scope{}));
  Literal v = FLOE_TRY(evaluate_constant(*b));
  if (v.is_null() || !v.type() ||
      (v.type()->id() != TypeId::kInt && v.type()->id() != TypeId::kLong)) {
    return error_at(e.pos, fmt::format("{} must be an integer constant", what));
  }
  int64_t n = v.as_int64();
  if (n < 0) return error_at(e.pos, fmt::format("{} must not be negative", what));
  return n;
}

std::optional<int64_t> ordinal_of(const ast::Expr& e) {
  if (e.kind != ast::ExprKind::kLiteral) return std::nullopt;
  const auto& lit = e.as<ast::LiteralExpr>();
  if (lit.literal_kind != ast::LiteralKind::kInteger || !lit.int_value) return std::nullopt;
  return *lit.int_value;
}

}  // namespace

void Binder::collect_scans(PlanNode* plan, std::vector<IcebergScanNode*>* out) {
  if (auto* scan = dynamic_cast<IcebergScanNode*>(plan)) out->push_back(scan);
  for (const PlanNode* in : plan->inputs()) collect_scans(const_cast<PlanNode*>(in), out);
}

Result<PlanPtr> Binder::plan_query(const ast::Query& query) {
  std::map<std::string, const ast::CommonTableExpr*> frame;
  for (const auto& cte : query.ctes) frame[to_lower(cte.name)] = &cte;
  ctes_.push_back(std::move(frame));
  Result<PlanPtr> result = [&]() -> Result<PlanPtr> {
    if (query.body->kind == ast::QueryBodyKind::kSelect) {
      return plan_select(query.body->as<ast::SelectBody>(), &query);
    }
    std::vector<std::string> unused;
    PlanPtr plan = FLOE_TRY(plan_body(*query.body, nullptr, &unused));
    return finish_query(std::move(plan), query);
  }();
  ctes_.pop_back();
  return result;
}

Result<PlanPtr> Binder::plan_body(const ast::QueryBody& body, const ast::Query* outer,
                                  std::vector<std::string>* order_names) {
  if (internal::stack_low()) return error_at(body.pos, std::string(internal::kTooDeep));
  switch (body.kind) {
    case ast::QueryBodyKind::kSelect:
      return plan_select(body.as<ast::SelectBody>(), outer);
    case ast::QueryBodyKind::kSetOp:
      return plan_set_op(body.as<ast::SetOpBody>());
    case ast::QueryBodyKind::kValues:
      return plan_values(body.as<ast::ValuesBody>().rows, {});
    case ast::QueryBodyKind::kNested:
      return plan_query(*body.as<ast::NestedBody>().query);
  }
  return error_at(body.pos, "unsupported query");
}

// ORDER BY and LIMIT over a finished result (set operations, VALUES, nested queries): keys are
// output columns by ordinal, name, or an expression over the output columns.
Result<PlanPtr> Binder::finish_query(PlanPtr plan, const ast::Query& query) {
  if (!query.order_by.empty()) {
    Scope scope = Scope::of(plan->fields(), "");
    std::vector<SortKey> keys;
    std::vector<BoundExprPtr> extra;
    std::vector<std::string> extra_names;
    const int width = static_cast<int>(plan->fields().size());
    for (const auto& item : query.order_by) {
      SortKey key;
      key.ascending = !item.descending;
      key.nulls_first = item.nulls_first;
      if (auto ord = ordinal_of(*item.expr)) {
        if (*ord < 1 || *ord > width) {
          return error_at(item.expr->pos, fmt::format("ORDER BY position {} is not in the select "
                                                      "list (1..{})",
                                                      *ord, width));
        }
        key.column = static_cast<int>(*ord - 1);
      } else {
        BoundExprPtr b = FLOE_TRY(bind(*item.expr, scope));
        if (b->kind == ExprKind::kColumn) {
          key.column = b->column_index;
        } else {
          key.column = width + static_cast<int>(extra.size());
          extra.push_back(b);
          extra_names.push_back(fmt::format("_order{}", extra.size()));
        }
      }
      keys.push_back(key);
    }
    if (!extra.empty()) plan = project_with(std::move(plan), extra, extra_names);
    std::optional<int64_t> top;
    if (query.limit && !query.offset) top = FLOE_TRY(constant_int(*this, *query.limit, "LIMIT"));
    plan = std::make_unique<SortNode>(std::move(plan), std::move(keys), top);
    if (!extra.empty()) plan = keep_columns(std::move(plan), {{0, width}});
  }
  if (query.limit || query.offset) {
    int64_t limit = -1, offset = 0;
    if (query.limit) limit = FLOE_TRY(constant_int(*this, *query.limit, "LIMIT"));
    if (query.offset) offset = FLOE_TRY(constant_int(*this, *query.offset, "OFFSET"));
    plan = std::make_unique<LimitNode>(std::move(plan), limit, offset);
  }
  return plan;
}

Result<PlanPtr> Binder::plan_select(const ast::SelectBody& select, const ast::Query* outer) {
  // Every expression of the query block, for column pruning.
  std::vector<const ast::Expr*> referenced;
  for (const auto& item : select.items) referenced.push_back(item.expr.get());
  if (select.where) referenced.push_back(select.where.get());
  for (const auto& g : select.group_by) referenced.push_back(g.get());
  if (select.having) referenced.push_back(select.having.get());
  if (outer) {
    for (const auto& o : outer->order_by) referenced.push_back(o.expr.get());
  }
  Relation from = FLOE_TRY(plan_from(select, referenced));
  PlanPtr plan = std::move(from.plan);
  if (select.where) {
    if (contains_aggregate(*select.where)) {
      return error_at(select.where->pos, "aggregate functions are not allowed in WHERE");
    }
    BoundExprPtr predicate = FLOE_TRY(bind(*select.where, from.scope));
    plan = std::make_unique<FilterNode>(std::move(plan), predicate);
  }

  bool aggregate = !select.group_by.empty() || (select.having != nullptr);
  for (const auto& item : select.items) aggregate = aggregate || contains_aggregate(*item.expr);
  if (outer) {
    for (const auto& o : outer->order_by) aggregate = aggregate || contains_aggregate(*o.expr);
  }

  // After aggregation expressions bind against the aggregate's output.
  AggregateContext agg_context;
  const AggregateContext* agg = nullptr;
  Scope scope = from.scope;
  if (aggregate) {
    agg_context.input_scope = from.scope;
    std::vector<BoundExprPtr> pre;
    std::vector<std::string> pre_names;
    std::vector<std::string> out_names;
    for (const auto& g : select.group_by) {
      const ast::Expr* key = g.get();
      if (auto ord = ordinal_of(*key)) {
        if (*ord < 1 || *ord > static_cast<int64_t>(select.items.size())) {
          return error_at(key->pos,
                          fmt::format("GROUP BY position {} is not in the select list", *ord));
        }
        key = select.items[*ord - 1].expr.get();
      } else if (key->kind == ast::ExprKind::kColumnRef && !bind(*key, from.scope).ok()) {
        // GROUP BY a select-list alias.
        const auto& parts = key->as<ast::ColumnRefExpr>().parts;
        for (const auto& item : select.items) {
          if (parts.size() == 1 && item.alias && iequals(*item.alias, parts[0])) {
            key = item.expr.get();
            break;
          }
        }
      }
      if (contains_aggregate(*key)) {
        return error_at(key->pos, "aggregate functions are not allowed in GROUP BY");
      }
      BoundExprPtr b = FLOE_TRY(bind(*key, from.scope));
      agg_context.key_texts.push_back(ast::to_string(*key));
      agg_context.key_columns.push_back(b->kind == ExprKind::kColumn ? b->column_index : -1);
      agg_context.types.push_back(b->type);
      pre.push_back(b);
      pre_names.push_back(auto_column_name(*key));
      out_names.push_back(auto_column_name(*key));
    }
    std::vector<const ast::FunctionExpr*> calls;
    for (const auto& item : select.items) collect_aggregates(*item.expr, &calls);
    if (select.having) collect_aggregates(*select.having, &calls);
    if (outer) {
      for (const auto& o : outer->order_by) collect_aggregates(*o.expr, &calls);
    }
    std::vector<AggregateSpec> specs;
    for (const ast::FunctionExpr* call_expr : calls) {
      std::string text = ast::to_string(*call_expr);
      bool seen = false;
      for (const auto& t : agg_context.aggregate_texts) seen = seen || t == text;
      if (seen) continue;
      AggregateSpec spec;
      spec.kind =
          FLOE_TRY_CTX(aggregate_kind_from_name(call_expr->name.back(), call_expr->distinct),
                       position_text(call_expr->pos));
      spec.distinct = call_expr->distinct;
      spec.name = auto_column_name(*call_expr);
      const auto& args = call_expr->args;
      bool star = args.size() == 1 && args[0]->kind == ast::ExprKind::kStar;
      TypePtr arg_type;
      if (star || args.empty()) {
        if (spec.kind != AggregateKind::kCount && spec.kind != AggregateKind::kCountStar) {
          return error_at(call_expr->pos,
                          fmt::format("'{}' needs an argument", call_expr->name.back()));
        }
        spec.kind = AggregateKind::kCountStar;
        spec.column = -1;
      } else {
        for (size_t a = 0; a < args.size(); ++a) {
          if (contains_aggregate(*args[a])) {
            return error_at(args[a]->pos, "aggregate functions cannot be nested");
          }
          BoundExprPtr b = FLOE_TRY(bind(*args[a], from.scope));
          int index = static_cast<int>(pre.size());
          pre.push_back(b);
          pre_names.push_back(fmt::format("_arg{}", index));
          if (a == 0) {
            spec.column = index;
            arg_type = b->type;
          } else if (spec.kind == AggregateKind::kCount && spec.distinct) {
            spec.extra_columns.push_back(index);
          } else {
            return error_at(call_expr->pos,
                            fmt::format("'{}' takes one argument", call_expr->name.back()));
          }
        }
        // count(1), count('x'): a non-null constant counts every row.
        if (spec.kind == AggregateKind::kCount && !spec.distinct && args.size() == 1 &&
            args[0]->kind == ast::ExprKind::kLiteral &&
            args[0]->as<ast::LiteralExpr>().literal_kind != ast::LiteralKind::kNull) {
          spec.kind = AggregateKind::kCountStar;
          spec.column = -1;
        }
      }
      TypePtr result_type =
          FLOE_TRY_CTX(aggregate_result_type(spec.kind, arg_type), position_text(call_expr->pos));
      agg_context.aggregate_texts.push_back(text);
      agg_context.types.push_back(result_type);
      out_names.push_back(spec.name);
      specs.push_back(std::move(spec));
    }
    int num_keys = static_cast<int>(agg_context.key_texts.size());
    PlanPtr projected = std::make_unique<ProjectNode>(std::move(plan), pre, pre_names);
    plan = FLOE_TRY(AggregateNode::make(std::move(projected), num_keys, specs, out_names));
    scope = Scope::of(plan->fields(), "");
    agg = &agg_context;
    if (select.having) {
      BoundExprPtr predicate = FLOE_TRY(bind_expr(*select.having, scope, agg));
      plan = std::make_unique<FilterNode>(std::move(plan), predicate);
    }
  }

  // The SELECT list.
  std::vector<BoundExprPtr> items;
  std::vector<std::string> names;
  std::vector<std::string> item_texts;
  for (const auto& item : select.items) {
    if (item.expr->kind == ast::ExprKind::kStar) {
      if (agg) return error_at(item.expr->pos, "'*' cannot be used with GROUP BY or aggregates");
      const auto& qualifier = item.expr->as<ast::StarExpr>().qualifier;
      bool any = false;
      for (const auto& c : scope.columns) {
        if (c.hidden || c.metadata) continue;
        if (!qualifier.empty() && !iequals(c.qualifier, qualifier.back())) continue;
        items.push_back(FLOE_TRY(column(c.index, c.type)));
        names.push_back(c.name);
        item_texts.push_back("");
        any = true;
      }
      if (!any && !qualifier.empty()) {
        return error_at(item.expr->pos, fmt::format("cannot resolve '{}.*'", qualifier.back()));
      }
      continue;
    }
    items.push_back(FLOE_TRY(bind_expr(*item.expr, scope, agg)));
    names.push_back(item.alias ? *item.alias : auto_column_name(*item.expr));
    item_texts.push_back(ast::to_string(*item.expr));
  }
  const int width = static_cast<int>(items.size());

  // ORDER BY: select-list positions, aliases, select expressions, or other expressions of the
  // FROM scope (computed as hidden columns).
  std::vector<SortKey> keys;
  if (outer && !outer->order_by.empty()) {
    for (const auto& o : outer->order_by) {
      SortKey key;
      key.ascending = !o.descending;
      key.nulls_first = o.nulls_first;
      int index = -1;
      if (auto ord = ordinal_of(*o.expr)) {
        if (*ord < 1 || *ord > width) {
          return error_at(o.expr->pos, fmt::format("ORDER BY position {} is not in the select "
                                                   "list (1..{})",
                                                   *ord, width));
        }
        index = static_cast<int>(*ord - 1);
      } else {
        if (o.expr->kind == ast::ExprKind::kColumnRef &&
            o.expr->as<ast::ColumnRefExpr>().parts.size() == 1) {
          const std::string& n = o.expr->as<ast::ColumnRefExpr>().parts[0];
          for (int i = 0; i < width && index < 0; ++i) {
            if (select.items[0].expr && iequals(names[i], n)) index = i;
          }
        }
        std::string text = ast::to_string(*o.expr);
        for (int i = 0; i < width && index < 0; ++i) {
          if (item_texts[i] == text) index = i;
        }
        if (index < 0) {
          if (select.distinct) {
            return error_at(o.expr->pos,
                            "with SELECT DISTINCT, ORDER BY expressions must "
                            "appear in the select list");
          }
          index = static_cast<int>(items.size());
          items.push_back(FLOE_TRY(bind_expr(*o.expr, scope, agg)));
          names.push_back(fmt::format("_order{}", index - width + 1));
        }
      }
      key.column = index;
      keys.push_back(key);
    }
  }
  plan = std::make_unique<ProjectNode>(std::move(plan), std::move(items), std::move(names));
  if (select.distinct) plan = std::make_unique<DistinctNode>(std::move(plan));
  std::optional<int64_t> limit;
  int64_t offset = 0;
  if (outer && outer->limit) limit = FLOE_TRY(constant_int(*this, *outer->limit, "LIMIT"));
  if (outer && outer->offset) offset = FLOE_TRY(constant_int(*this, *outer->offset, "OFFSET"));
  if (!keys.empty()) {
    std::optional<int64_t> top;
    if (limit) top = *limit + offset;
    plan = std::make_unique<SortNode>(std::move(plan), std::move(keys), top);
  }
  if (static_cast<int>(plan->fields().size()) > width) {
    plan = keep_columns(std::move(plan), {{0, width}});
  }
  if (limit || offset)
    plan = std::make_unique<LimitNode>(std::move(plan), limit.value_or(-1), offset);
  return plan;
}

Result<Binder::Relation> Binder::plan_from(const ast::SelectBody& select,
                                           const std::vector<const ast::Expr*>& referenced) {
  if (select.from.empty()) {
    // SELECT without FROM: one row, no columns.
    ColumnBatch one;
    one.num_rows = 1;
    std::vector<ColumnBatch> batches;
    batches.push_back(std::move(one));
    Relation r;
    r.plan =
        std::make_unique<BatchesNode>("OneRow", std::vector<NestedField>{}, std::move(batches));
    return r;
  }
  std::vector<const ast::Expr*> all = referenced;
  std::set<std::string> using_names;
  for (const auto& ref : select.from) referenced_in_ref(*ref, &all, &using_names);
  const ast::Expr* where = select.from.size() == 1 ? select.where.get() : nullptr;
  Relation result = FLOE_TRY(plan_table_ref(*select.from[0], all, where));
  for (size_t i = 1; i < select.from.size(); ++i) {
    Relation next = FLOE_TRY(plan_table_ref(*select.from[i], all, nullptr));
    result = FLOE_TRY(plan_cross(std::move(result), std::move(next)));
  }
  return result;
}

Result<Binder::Relation> Binder::plan_cross(Relation left, Relation right) {
  JoinOptions options;
  options.type = JoinType::kCross;
  Relation out;
  int width = static_cast<int>(left.plan->fields().size());
  out.scope = left.scope;
  for (auto c : right.scope.columns) {
    c.index += width;
    out.scope.columns.push_back(c);
  }
  out.plan = FLOE_TRY(
      JoinNode::make(std::move(left.plan), std::move(right.plan), std::move(options), nullptr, ""));
  return out;
}

namespace {
// Renames the output columns (AS t(a, b)).
Result<PlanPtr> rename_columns(PlanPtr plan, const std::vector<std::string>& names,
                               const ast::SourcePos& pos) {
  if (names.empty()) return plan;
  const auto& fields = plan->fields();
  if (names.size() != fields.size()) {
    return error_at(
        pos, fmt::format("{} column aliases given for {} columns", names.size(), fields.size()));
  }
  std::vector<BoundExprPtr> exprs;
  for (size_t i = 0; i < fields.size(); ++i) {
    exprs.push_back(FLOE_TRY(column(static_cast<int>(i), fields[i].type)));
  }
  return PlanPtr(std::make_unique<ProjectNode>(std::move(plan), std::move(exprs), names));
}
}  // namespace

Result<Binder::Relation> Binder::plan_table_ref(const ast::TableRef& ref,
                                                const std::vector<const ast::Expr*>& referenced,
                                                const ast::Expr* where, bool column_stats) {
  Relation out;
  std::string qualifier = ref.alias ? *ref.alias : "";
  switch (ref.kind) {
    case ast::TableRefKind::kNamed:
    case ast::TableRefKind::kPath: {
      const ast::TimeTravel* travel = nullptr;
      std::optional<std::string> ref_name;
      StoredTable table;
      std::string display;
      if (ref.kind == ast::TableRefKind::kNamed) {
        const auto& named = ref.as<ast::NamedTableRef>();
        const auto& parts = named.name.parts;
        if (qualifier.empty()) qualifier = parts.back();
        // A CTE of an enclosing WITH.
        if (parts.size() == 1) {
          for (auto it = ctes_.rbegin(); it != ctes_.rend(); ++it) {
            auto found = it->find(to_lower(parts[0]));
            if (found == it->end()) continue;
            const ast::CommonTableExpr* cte = found->second;
            // The CTE's own frame and those inside it must not see later CTEs.
            PlanPtr plan = FLOE_TRY(plan_query(*cte->query));
            plan = FLOE_TRY(rename_columns(std::move(plan), cte->columns, cte->pos));
            plan = FLOE_TRY(rename_columns(std::move(plan), ref.column_aliases, ref.pos));
            out.scope = Scope::of(plan->fields(), qualifier);
            out.plan = std::move(plan);
            return out;
          }
        }
        // A temporary view of the session (CACHE TABLE v AS SELECT) before any table.
        if (parts.size() == 1 && !named.time_travel) {
          if (auto view = catalog_.temp_view(parts[0], &reads_)) {
            if (!view->ok()) return view->status().with_context(position_text(named.name.pos));
            PlanPtr plan = std::move(view->value());
            plan = FLOE_TRY(rename_columns(std::move(plan), ref.column_aliases, ref.pos));
            out.scope = Scope::of(plan->fields(), qualifier);
            out.plan = std::move(plan);
            return out;
          }
        }
        auto meta =
            catalog_.metadata_table(parts, named.time_travel ? &*named.time_travel : nullptr);
        if (meta) {
          if (!meta->ok()) return meta->status();
          PlanPtr plan = std::move(meta->value());
          plan = FLOE_TRY(rename_columns(std::move(plan), ref.column_aliases, ref.pos));
          out.scope = Scope::of(plan->fields(), qualifier);
          out.plan = std::move(plan);
          return out;
        }
        auto loaded = catalog_.load_table(parts);
        // `db.t.branch_audit` / `db.t.tag_v1`: the table's branch or tag (Spark's identifiers).
        if (!loaded.ok() && loaded.status().kind() == ErrorKind::kNotFound) {
          if (auto suffix = ref_suffix(parts)) {
            auto base = catalog_.load_table(suffix->table);
            if (base.ok()) {
              loaded = std::move(base);
              ref_name = suffix->ref;
            }
          }
        }
        if (!loaded.ok()) return loaded.status().with_context(position_text(named.name.pos));
        table = std::move(*loaded);
        display = dotted_name(parts);
        if (named.time_travel) travel = &*named.time_travel;
        if (ref_name && travel) {
          return error_at(named.name.pos,
                          "a branch or tag name cannot be combined with time travel");
        }
      } else {
        const auto& path = ref.as<ast::PathTableRef>();
        if (path.format == "parquet" || path.format == "csv") {
          PlanPtr plan = path.format == "parquet" ? FLOE_TRY(ParquetFileNode::make(path.path))
                                                  : FLOE_TRY(CsvFileNode::make(path.path));
          plan = FLOE_TRY(rename_columns(std::move(plan), ref.column_aliases, ref.pos));
          out.scope = Scope::of(plan->fields(), qualifier);
          out.plan = std::move(plan);
          return out;
        }
        if (path.format != "iceberg") {
          return error_at(ref.pos, fmt::format("reading '{}' files is not supported (iceberg, "
                                               "parquet and csv are)",
                                               path.format));
        }
        // A catalog-managed directory reads what the catalog committed, never a newer
        // metadata file a killed writer left behind (catalog/path_read.h).
        PathReadOptions read;
        read.open_catalog = [this]() { return catalog_.catalog(/*create=*/false); };
        table = FLOE_TRY_CTX(open_table_by_path(make_local_file_io(), path.path, read),
                             position_text(ref.pos));
        display = "iceberg.`" + path.path + "`";
        if (path.time_travel) travel = &*path.time_travel;
      }
      ScanOptions options;
      options.case_sensitive = false;
      options.threads = catalog_.options().threads;
      options.include_column_stats = column_stats;
      if (ref_name) options.ref = *ref_name;
      if (travel) {
        BoundExprPtr value = FLOE_TRY(bind(*travel->value, Scope{}));
        Literal v = FLOE_TRY(evaluate_constant(*value));
        if (v.is_null()) return error_at(travel->value->pos, "time travel value is NULL");
        if (travel->kind == ast::TimeTravelKind::kVersion) {
          TypeId id = v.type()->id();
          if (id == TypeId::kInt || id == TypeId::kLong) {
            options.snapshot_id = v.as_int64();
          } else if (id == TypeId::kString) {
            options.ref = v.as_bytes();
          } else {
            return error_at(travel->value->pos,
                            "VERSION AS OF takes a snapshot id or a branch or tag name");
          }
        } else {
          BoundExprPtr ts =
              FLOE_TRY_CTX(cast(value, Type::timestamptz()), position_text(travel->value->pos));
          Literal t = FLOE_TRY(evaluate_constant(*ts));
          if (t.is_null()) {
            return error_at(travel->value->pos, "TIMESTAMP AS OF needs a timestamp");
          }
          options.as_of_timestamp_ms = t.as_int64() / 1000;
        }
      }
      // Read only the columns the query mentions.
      auto probe = FLOE_TRY(IcebergScanNode::make(display, table, options, {}));
      std::set<std::string> names;
      for (const ast::Expr* e : referenced) referenced_names(*e, &names);
      std::vector<std::string> columns;
      for (const auto& f : probe->schema().fields()) {
        if (names.count("*") || names.count(to_lower(f.name))) columns.push_back(f.name);
      }
      // The metadata columns the query names (_file, _pos), unless the table has such a column.
      for (const NestedField* m : {&file_column(), &position_column()}) {
        if (names.count(m->name) && !probe->schema().find_field(m->name, false)) {
          columns.push_back(m->name);
        }
      }
      if (columns.empty() && !probe->schema().fields().empty()) {
        columns.push_back(probe->schema().fields()[0].name);
      }
      // A plain read of a table's current state: remembered (cached views built on it), and
      // served from the session's cache when the table is cached there (CACHE TABLE) and still
      // at the cached snapshot. Metadata columns and row-level targets (column_stats) need the
      // files themselves.
      const bool plain = ref.kind == ast::TableRefKind::kNamed && !travel && !ref_name;
      if (plain) {
        const Snapshot* current = table.metadata->current_snapshot();
        reads_.push_back({ref.as<ast::NamedTableRef>().name.parts, table_key(*table.metadata),
                          current ? current->snapshot_id : -1, table.metadata->current_schema_id});
      }
      const bool needs_files =
          column_stats || std::any_of(columns.begin(), columns.end(), [](const std::string& c) {
            return find_metadata_column(c) != nullptr;
          });
      if (plain && !needs_files) {
        if (auto cached = catalog_.cached_table(table, display, columns)) {
          if (!cached->ok()) return cached->status();
          PlanPtr plan = std::move(cached->value());
          plan = FLOE_TRY(rename_columns(std::move(plan), ref.column_aliases, ref.pos));
          out.scope = Scope::of(plan->fields(), qualifier);
          out.plan = std::move(plan);
          return out;
        }
      }
      if (where) {
        std::vector<std::string> qualifiers = {qualifier};
        options.filter = pushdown_filter(*where, probe->schema(), qualifiers);
      }
      auto node = FLOE_TRY(IcebergScanNode::make(display, table, options, columns));
      PlanPtr plan(std::move(node));
      plan = FLOE_TRY(rename_columns(std::move(plan), ref.column_aliases, ref.pos));
      out.scope = Scope::of(plan->fields(), qualifier);
      out.plan = std::move(plan);
      return out;
    }
    case ast::TableRefKind::kFunction: {
      const auto& f = ref.as<ast::FunctionTableRef>();
      if (!iequals(f.name.back(), "range")) {
        return error_at(ref.pos, fmt::format("unknown table function '{}'", f.name.back()));
      }
      std::vector<int64_t> args;
      for (const auto& a : f.args) {
        BoundExprPtr b = FLOE_TRY(bind(*a, Scope{}));
        Literal v = FLOE_TRY(evaluate_constant(*b));
        if (v.is_null() || (v.type()->id() != TypeId::kInt && v.type()->id() != TypeId::kLong)) {
          return error_at(a->pos, "range() takes integer arguments");
        }
        args.push_back(v.as_int64());
      }
      if (args.empty() || args.size() > 3) {
        return error_at(ref.pos,
                        "range() takes 1 to 3 arguments: range(end), range(start, end[, "
                        "step])");
      }
      int64_t start = args.size() == 1 ? 0 : args[0];
      int64_t end = args.size() == 1 ? args[0] : args[1];
      int64_t step = args.size() == 3 ? args[2] : 1;
      if (step == 0) return error_at(ref.pos, "range() step must not be 0");
      PlanPtr plan = std::make_unique<RangeNode>(start, end, step);
      plan = FLOE_TRY(rename_columns(std::move(plan), ref.column_aliases, ref.pos));
      if (qualifier.empty()) qualifier = "range";
      out.scope = Scope::of(plan->fields(), qualifier);
      out.plan = std::move(plan);
      return out;
    }
    case ast::TableRefKind::kSubquery: {
      PlanPtr plan = FLOE_TRY(plan_query(*ref.as<ast::SubqueryTableRef>().query));
      plan = FLOE_TRY(rename_columns(std::move(plan), ref.column_aliases, ref.pos));
      out.scope = Scope::of(plan->fields(), qualifier);
      out.plan = std::move(plan);
      return out;
    }
    case ast::TableRefKind::kValues: {
      PlanPtr plan = FLOE_TRY(plan_values(ref.as<ast::ValuesTableRef>().rows, ref.column_aliases));
      out.scope = Scope::of(plan->fields(), qualifier);
      out.plan = std::move(plan);
      return out;
    }
    case ast::TableRefKind::kJoin:
      return plan_join(ref.as<ast::JoinTableRef>(), referenced);
  }
  return error_at(ref.pos, "unsupported table reference");
}

Result<Binder::Relation> Binder::plan_join(const ast::JoinTableRef& join,
                                           const std::vector<const ast::Expr*>& referenced) {
  Relation left = FLOE_TRY(plan_table_ref(*join.left, referenced, nullptr));
  Relation right = FLOE_TRY(plan_table_ref(*join.right, referenced, nullptr));
  const JoinType type = join_type_of(join.join_type);
  if (type == JoinType::kCross || (!join.on && join.using_.empty())) {
    if (type != JoinType::kCross && type != JoinType::kInner) {
      return error_at(join.pos, "this join needs an ON or USING condition");
    }
    return plan_cross(std::move(left), std::move(right));
  }
  return join_on(std::move(left), std::move(right), type, join.on.get(), join.using_, join.pos);
}

Result<Binder::Relation> Binder::join_relations(Relation left, Relation right, JoinType type,
                                                const ast::Expr& on, const ast::SourcePos& pos) {
  return join_on(std::move(left), std::move(right), type, &on, {}, pos);
}

Result<Binder::Relation> Binder::join_on(Relation left, Relation right, JoinType type,
                                         const ast::Expr* on,
                                         const std::vector<std::string>& using_names,
                                         const ast::SourcePos& pos) {
  const int lw = static_cast<int>(left.plan->fields().size());
  const int rw = static_cast<int>(right.plan->fields().size());
  std::vector<BoundExprPtr> lkeys, rkeys;
  std::vector<bool> null_safe;
  std::vector<const ast::Expr*> residual_parts;
  std::vector<int> hidden_right;  // USING columns of the right side
  if (!using_names.empty()) {
    for (const auto& name : using_names) {
      ast::ColumnRefExpr ref(pos);
      ref.parts = {name};
      lkeys.push_back(FLOE_TRY(bind(ref, left.scope)));
      BoundExprPtr r = FLOE_TRY(bind(ref, right.scope));
      rkeys.push_back(r);
      null_safe.push_back(false);
      hidden_right.push_back(r->column_index);
    }
  } else {
    std::vector<const ast::Expr*> conjuncts;
    split_conjuncts(*on, &conjuncts);
    for (const ast::Expr* c : conjuncts) {
      bool used = false;
      if (c->kind == ast::ExprKind::kBinary) {
        const auto& b = c->as<ast::BinaryExpr>();
        if (b.op == ast::BinaryOp::kEq || b.op == ast::BinaryOp::kNullSafeEq) {
          auto ll = bind(*b.left, left.scope);
          auto rr = bind(*b.right, right.scope);
          if (ll.ok() && rr.ok()) {
            lkeys.push_back(*ll);
            rkeys.push_back(*rr);
            used = true;
          } else {
            auto lr = bind(*b.right, left.scope);
            auto rl = bind(*b.left, right.scope);
            if (lr.ok() && rl.ok()) {
              lkeys.push_back(*lr);
              rkeys.push_back(*rl);
              used = true;
            }
          }
          if (used) null_safe.push_back(b.op == ast::BinaryOp::kNullSafeEq);
        }
      }
      if (!used) residual_parts.push_back(c);
    }
  }
  // Keys of a common type, appended as extra columns on both sides.
  const int nk = static_cast<int>(lkeys.size());
  std::vector<std::string> lnames, rnames;
  for (int k = 0; k < nk; ++k) {
    TypePtr t = FLOE_TRY_CTX(common_type(lkeys[k]->type, rkeys[k]->type), position_text(pos));
    if (!same_type(t, lkeys[k]->type)) lkeys[k] = FLOE_TRY(cast(lkeys[k], t));
    if (!same_type(t, rkeys[k]->type)) rkeys[k] = FLOE_TRY(cast(rkeys[k], t));
    lnames.push_back(fmt::format("_lkey{}", k));
    rnames.push_back(fmt::format("_rkey{}", k));
  }
  std::vector<std::string> ltexts = Scope::of(left.plan->fields(), "").names();
  std::vector<std::string> rtexts = Scope::of(right.plan->fields(), "").names();
  std::string condition;
  for (int k = 0; k < nk; ++k) {
    condition += fmt::format("{}{} {} {}", k ? " AND " : "", to_string(*lkeys[k], ltexts),
                             null_safe[k] ? "<=>" : "=", to_string(*rkeys[k], rtexts));
  }
  PlanPtr lplan = nk ? project_with(std::move(left.plan), lkeys, lnames) : std::move(left.plan);
  PlanPtr rplan = nk ? project_with(std::move(right.plan), rkeys, rnames) : std::move(right.plan);
  // The residual sees left columns (+ keys) then right columns (+ keys).
  Scope pair_scope = left.scope;
  for (auto c : right.scope.columns) {
    c.index += lw + nk;
    pair_scope.columns.push_back(c);
  }
  BoundExprPtr residual;
  for (const ast::Expr* part : residual_parts) {
    BoundExprPtr b = FLOE_TRY(bind(*part, pair_scope));
    residual = residual ? FLOE_TRY(and_(residual, b)) : b;
    condition += (condition.empty() ? "" : " AND ") + ast::to_string(*part);
  }
  JoinOptions options;
  options.type = type;
  for (int k = 0; k < nk; ++k) {
    options.left_keys.push_back(lw + k);
    options.right_keys.push_back(rw + k);
  }
  options.null_safe = null_safe;
  PlanPtr joined = FLOE_TRY(
      JoinNode::make(std::move(lplan), std::move(rplan), std::move(options), residual, condition));
  Relation out;
  out.scope = left.scope;
  if (type == JoinType::kLeftSemi || type == JoinType::kLeftAnti) {
    out.plan = nk ? keep_columns(std::move(joined), {{0, lw}}) : std::move(joined);
    return out;
  }
  out.plan =
      nk ? keep_columns(std::move(joined), {{0, lw}, {lw + nk, lw + nk + rw}}) : std::move(joined);
  for (auto c : right.scope.columns) {
    for (int h : hidden_right) c.hidden = c.hidden || c.index == h;
    c.index += lw;
    out.scope.columns.push_back(c);
  }
  return out;
}

Result<PlanPtr> Binder::cast_columns(PlanPtr plan, const std::vector<TypePtr>& types) {
  const auto& fields = plan->fields();
  bool same = true;
  for (size_t i = 0; i < fields.size(); ++i) same = same && same_type(fields[i].type, types[i]);
  if (same) return plan;
  std::vector<BoundExprPtr> exprs;
  std::vector<std::string> names;
  for (size_t i = 0; i < fields.size(); ++i) {
    BoundExprPtr c = FLOE_TRY(column(static_cast<int>(i), fields[i].type));
    if (!same_type(fields[i].type, types[i])) c = FLOE_TRY(cast(c, types[i]));
    exprs.push_back(c);
    names.push_back(fields[i].name);
  }
  return PlanPtr(std::make_unique<ProjectNode>(std::move(plan), std::move(exprs), names));
}

// q1 UNION ALL q2 UNION ALL ... qn: one n-ary union (Spark's CombineUnions), its branches
// collected down the left spine in a loop, so 100,000 branches bind without deep recursion.
// Column types widen left to right across all branches, as nested binary unions would.
Result<PlanPtr> Binder::plan_union_all_chain(const ast::SetOpBody& op) {
  std::vector<const ast::QueryBody*> branches;
  const ast::QueryBody* b = &op;
  while (b->kind == ast::QueryBodyKind::kSetOp) {
    const auto& s = b->as<ast::SetOpBody>();
    if (s.op != ast::SetOpKind::kUnion || !s.all) break;
    branches.push_back(s.right.get());
    b = s.left.get();
  }
  branches.push_back(b);
  std::reverse(branches.begin(), branches.end());
  std::vector<std::string> unused;
  std::vector<PlanPtr> inputs;
  inputs.reserve(branches.size());
  for (const ast::QueryBody* branch : branches) {
    inputs.push_back(FLOE_TRY(plan_body(*branch, nullptr, &unused)));
  }
  const auto& first = inputs[0]->fields();
  std::vector<TypePtr> types;
  for (const auto& f : first) types.push_back(f.type);
  for (size_t k = 1; k < inputs.size(); ++k) {
    const auto& fields = inputs[k]->fields();
    if (fields.size() != first.size()) {
      return error_at(op.pos, fmt::format("UNION needs the same number of columns on both sides "
                                          "({} and {}, in branch {})",
                                          first.size(), fields.size(), k + 1));
    }
    for (size_t i = 0; i < first.size(); ++i) {
      types[i] = FLOE_TRY_CTX(common_type(types[i], fields[i].type),
                              fmt::format("UNION column {} ({})", i + 1, first[i].name));
    }
  }
  for (auto& input : inputs) input = FLOE_TRY(cast_columns(std::move(input), types));
  return PlanPtr(std::make_unique<UnionAllNode>(std::move(inputs)));
}

Result<PlanPtr> Binder::plan_set_op(const ast::SetOpBody& op) {
  if (op.op == ast::SetOpKind::kUnion && op.all) return plan_union_all_chain(op);
  std::vector<std::string> unused;
  PlanPtr left = FLOE_TRY(plan_body(*op.left, nullptr, &unused));
  PlanPtr right = FLOE_TRY(plan_body(*op.right, nullptr, &unused));
  const auto& lf = left->fields();
  const auto& rf = right->fields();
  const char* name = op.op == ast::SetOpKind::kUnion       ? "UNION"
                     : op.op == ast::SetOpKind::kIntersect ? "INTERSECT"
                                                           : "EXCEPT";
  if (lf.size() != rf.size()) {
    return error_at(op.pos, fmt::format("{} needs the same number of columns on both sides ({} "
                                        "and {})",
                                        name, lf.size(), rf.size()));
  }
  std::vector<TypePtr> types;
  for (size_t i = 0; i < lf.size(); ++i) {
    types.push_back(FLOE_TRY_CTX(common_type(lf[i].type, rf[i].type),
                                 fmt::format("{} column {} ({})", name, i + 1, lf[i].name)));
  }
  left = FLOE_TRY(cast_columns(std::move(left), types));
  right = FLOE_TRY(cast_columns(std::move(right), types));
  if (op.op == ast::SetOpKind::kUnion) {
    std::vector<PlanPtr> inputs;
    inputs.push_back(std::move(left));
    inputs.push_back(std::move(right));
    PlanPtr plan = std::make_unique<UnionAllNode>(std::move(inputs));
    if (!op.all) plan = std::make_unique<DistinctNode>(std::move(plan));
    return plan;
  }
  if (op.all) return error_at(op.pos, fmt::format("{} ALL is not supported", name));
  JoinOptions options;
  options.type = op.op == ast::SetOpKind::kIntersect ? JoinType::kLeftSemi : JoinType::kLeftAnti;
  for (size_t i = 0; i < lf.size(); ++i) {
    options.left_keys.push_back(static_cast<int>(i));
    options.right_keys.push_back(static_cast<int>(i));
    options.null_safe.push_back(true);
  }
  PlanPtr joined =
      FLOE_TRY(JoinNode::make(std::move(left), std::move(right), std::move(options), nullptr, ""));
  return PlanPtr(std::make_unique<DistinctNode>(std::move(joined)));
}

Result<PlanPtr> Binder::plan_values(const std::vector<std::vector<ast::ExprPtr>>& rows,
                                    const std::vector<std::string>& names) {
  if (rows.empty()) return Status(ErrorKind::kInvalidArgument, "VALUES needs at least one row");
  const size_t width = rows[0].size();
  std::vector<std::vector<BoundExprPtr>> bound(rows.size());
  std::vector<TypePtr> types(width, Type::unknown());
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() != width) {
      return error_at(rows[r].empty() ? ast::SourcePos{} : rows[r][0]->pos,
                      fmt::format("VALUES rows must have the same number of values ({} and {})",
                                  width, rows[r].size()));
    }
    for (size_t c = 0; c < width; ++c) {
      BoundExprPtr b = FLOE_TRY(bind(*rows[r][c], Scope{}));
      types[c] = FLOE_TRY_CTX(common_type(types[c], b->type), position_text(rows[r][c]->pos));
      bound[r].push_back(std::move(b));
    }
  }
  std::vector<std::string> column_names = names;
  if (column_names.empty()) {
    for (size_t c = 0; c < width; ++c) column_names.push_back(fmt::format("col{}", c + 1));
  } else if (column_names.size() != width) {
    return Status(
        ErrorKind::kInvalidArgument,
        fmt::format("{} column aliases given for {} VALUES columns", column_names.size(), width));
  }
  // A column of NULLs only keeps the NULL type (Spark's void), so INSERT can store it in a
  // column of any type.
  std::vector<NestedField> fields = make_fields(column_names, types);
  ColumnBatch batch = ColumnBatch::make(fields);
  for (size_t r = 0; r < rows.size(); ++r) {
    for (size_t c = 0; c < width; ++c) {
      BoundExprPtr b = bound[r][c];
      if (!same_type(b->type, types[c])) b = FLOE_TRY(cast(b, types[c]));
      Literal v = FLOE_TRY(evaluate_constant(*b));
      if (v.is_null()) {
        batch.columns[c]->append_null();
      } else {
        FLOE_TRY(batch.columns[c]->append_literal(v));
      }
    }
    ++batch.num_rows;
  }
  std::vector<ColumnBatch> batches;
  batches.push_back(std::move(batch));
  return PlanPtr(std::make_unique<BatchesNode>(fmt::format("LocalRelation ({} rows)", rows.size()),
                                               fields, std::move(batches)));
}

}  // namespace floe::sql
