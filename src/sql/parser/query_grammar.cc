// Queries: WITH, set operations, SELECT blocks, VALUES, ORDER BY / LIMIT, table references.
#include "floe/util/strings.h"
#include "sql/parser/grammar_internal.h"

namespace floe::sql::internal {
using namespace floe::sql::ast;  // NOLINT: the parser builds the AST

namespace {

constexpr std::string_view kPathFormats[] = {"iceberg", "parquet", "csv",  "json",
                                             "orc",     "avro",    "text", "delta"};

// Words that end a relation or a select item instead of naming its alias.
constexpr std::string_view kAliasStop[] = {
    "FROM",  "WHERE",       "GROUP",   "HAVING",  "ORDER", "LIMIT",   "OFFSET",
    "UNION", "INTERSECT",   "EXCEPT",  "MINUS",   "JOIN",  "INNER",   "LEFT",
    "RIGHT", "FULL",        "CROSS",   "SEMI",    "ANTI",  "NATURAL", "ON",
    "USING", "WINDOW",      "LATERAL", "SET",     "WHEN",  "CLUSTER", "DISTRIBUTE",
    "SORT",  "TABLESAMPLE", "PIVOT",   "UNPIVOT", "FOR",   "QUALIFY",
};

std::string join_alternatives(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " or " : ", ";
    out += items[i];
  }
  return out;
}

}  // namespace

bool Parser::can_be_implicit_alias(size_t ahead) const {
  if (!is_identifier_token(ahead)) return false;
  const Token& t = peek(ahead);
  if (t.kind == TokenKind::kQuotedIdent) return true;
  for (std::string_view w : kAliasStop) {
    if (iequals(t.text, w)) return false;
  }
  if ((iequals(t.text, "VERSION") || iequals(t.text, "TIMESTAMP") ||
       iequals(t.text, "SYSTEM_VERSION") || iequals(t.text, "SYSTEM_TIME")) &&
      is_kw("AS", ahead + 1) && is_kw("OF", ahead + 2)) {
    return false;
  }
  return true;
}

Result<QueryPtr> Parser::query() {
  DepthGuard guard(*this);
  FLOE_TRY(enter(peek()));
  auto q = std::make_unique<Query>();
  q->pos = peek().pos;
  if (accept_kw("WITH")) q->ctes = FLOE_TRY(with_clause());
  q->body = FLOE_TRY(set_expression());
  if (is_kw("ORDER") && is_kw("BY", 1)) {
    pos_ += 2;
    q->order_by = FLOE_TRY(order_by_list());
  }
  while (true) {
    if (!q->limit && is_kw("LIMIT")) {
      advance();
      if (accept_kw("ALL")) continue;
      q->limit = FLOE_TRY(expr());
    } else if (!q->offset && is_kw("OFFSET")) {
      advance();
      q->offset = FLOE_TRY(expr());
    } else {
      break;
    }
  }
  return q;
}

Result<std::vector<CommonTableExpr>> Parser::with_clause() {
  std::vector<CommonTableExpr> ctes;
  accept_kw("RECURSIVE");
  do {
    CommonTableExpr cte;
    cte.pos = peek().pos;
    cte.name = FLOE_TRY(identifier("a common table expression name"));
    if (is_sym("(")) cte.columns = FLOE_TRY(identifier_list_in_parens());
    FLOE_TRY(expect_kw("AS"));
    FLOE_TRY(expect_sym("("));
    cte.query = FLOE_TRY(query());
    FLOE_TRY(expect_sym(")"));
    ctes.push_back(std::move(cte));
  } while (accept_sym(","));
  return ctes;
}

Result<QueryBodyPtr> Parser::set_expression() {
  QueryBodyPtr left = FLOE_TRY(set_term());
  while (is_kw("UNION") || is_kw("EXCEPT") || is_kw("MINUS")) {
    const Token& t = advance();
    auto s = std::make_unique<SetOpBody>(t.pos);
    s->op = iequals(t.text, "UNION") ? SetOpKind::kUnion : SetOpKind::kExcept;
    if (accept_kw("ALL")) {
      s->all = true;
    } else {
      accept_kw("DISTINCT");
    }
    s->left = std::move(left);
    s->right = FLOE_TRY(set_term());
    left = std::move(s);
  }
  return left;
}

Result<QueryBodyPtr> Parser::set_term() {
  QueryBodyPtr left = FLOE_TRY(set_primary());
  while (is_kw("INTERSECT")) {
    const Token& t = advance();
    auto s = std::make_unique<SetOpBody>(t.pos);
    s->op = SetOpKind::kIntersect;
    if (accept_kw("ALL")) {
      s->all = true;
    } else {
      accept_kw("DISTINCT");
    }
    s->left = std::move(left);
    s->right = FLOE_TRY(set_primary());
    left = std::move(s);
  }
  return left;
}

Result<QueryBodyPtr> Parser::set_primary() {
  SourcePos pos = peek().pos;
  if (is_kw("SELECT")) return select_body();
  if (is_kw("VALUES")) {
    advance();
    auto v = std::make_unique<ValuesBody>(pos);
    v->rows = FLOE_TRY(values_rows());
    return QueryBodyPtr(std::move(v));
  }
  if (is_sym("(") && at_query_start(1)) {
    advance();
    auto n = std::make_unique<NestedBody>(pos);
    n->query = FLOE_TRY(query());
    FLOE_TRY(expect_sym(")"));
    return QueryBodyPtr(std::move(n));
  }
  return error_expected("SELECT, VALUES, WITH or '('");
}

Result<std::vector<std::vector<ExprPtr>>> Parser::values_rows() {
  std::vector<std::vector<ExprPtr>> rows;
  do {
    if (is_sym("(")) {
      rows.push_back(FLOE_TRY(expression_list_in_parens()));
      if (rows.back().empty()) return error_expected("a value");
    } else {
      std::vector<ExprPtr> row;
      row.push_back(FLOE_TRY(expr()));
      rows.push_back(std::move(row));
    }
  } while (accept_sym(","));
  return rows;
}

Result<std::vector<OrderItem>> Parser::order_by_list() {
  std::vector<OrderItem> items;
  do {
    OrderItem item;
    item.expr = FLOE_TRY(expr());
    if (accept_kw("DESC")) {
      item.descending = true;
    } else {
      accept_kw("ASC");
    }
    if (accept_kw("NULLS")) {
      if (accept_kw("FIRST")) {
        item.nulls_first = true;
      } else if (accept_kw("LAST")) {
        item.nulls_first = false;
      } else {
        return error_expected("FIRST or LAST after NULLS");
      }
    }
    items.push_back(std::move(item));
  } while (accept_sym(","));
  return items;
}

Result<QueryBodyPtr> Parser::select_body() {
  auto s = std::make_unique<SelectBody>(advance().pos);  // SELECT
  if (accept_kw("DISTINCT")) {
    s->distinct = true;
  } else {
    accept_kw("ALL");
  }
  do {
    SelectItem item;
    item.pos = peek().pos;
    item.expr = FLOE_TRY(expr());
    if (accept_kw("AS")) {
      item.alias = FLOE_TRY(any_identifier("an alias"));
    } else if (can_be_implicit_alias()) {
      implicit_alias_ = pos_;
      item.alias = FLOE_TRY(identifier());
    }
    s->items.push_back(std::move(item));
  } while (accept_sym(","));
  bool from = false;
  if (accept_kw("FROM")) {
    from = true;
    do {
      s->from.push_back(FLOE_TRY(relation()));
    } while (accept_sym(","));
  }
  if (accept_kw("WHERE")) s->where = FLOE_TRY(expr());
  bool group = false;
  if (is_kw("GROUP") && is_kw("BY", 1)) {
    pos_ += 2;
    group = true;
    do {
      s->group_by.push_back(FLOE_TRY(expr()));
    } while (accept_sym(","));
  }
  if (accept_kw("HAVING")) s->having = FLOE_TRY(expr());

  if ((is_kw("GROUP") || is_kw("ORDER")) && !is_kw("BY", 1)) {
    advance();
    return error_expected("BY");
  }
  // What may follow a SELECT block; anything else gets a message listing the clauses.
  if (at_end() || is_sym(";") || is_sym(")") || is_kw("UNION") || is_kw("INTERSECT") ||
      is_kw("EXCEPT") || is_kw("MINUS") || is_kw("ORDER") || is_kw("LIMIT") || is_kw("OFFSET")) {
    return QueryBodyPtr(std::move(s));
  }
  std::vector<std::string> expected;
  if (!from && !s->where && !group && !s->having) expected.push_back("FROM");
  if (from && !s->where && !group && !s->having) expected.push_back("JOIN");
  if (!s->where && !group && !s->having) expected.push_back("WHERE");
  if (!group && !s->having) expected.push_back("GROUP BY");
  if (!s->having) expected.push_back("HAVING");
  expected.push_back("ORDER BY");
  expected.push_back("LIMIT");
  expected.push_back("end of input");
  return error_expected(join_alternatives(expected));
}

Result<TableRefPtr> Parser::relation() {
  TableRefPtr left = FLOE_TRY(primary_relation());
  while (true) {
    SourcePos pos = peek().pos;
    JoinType type;
    size_t words = 0;
    if (is_kw("JOIN")) {
      type = JoinType::kInner;
      words = 1;
    } else if (is_kw("INNER") && is_kw("JOIN", 1)) {
      type = JoinType::kInner;
      words = 2;
    } else if (is_kw("CROSS") && is_kw("JOIN", 1)) {
      type = JoinType::kCross;
      words = 2;
    } else if (is_kw("LEFT") || is_kw("RIGHT") || is_kw("FULL")) {
      type = is_kw("LEFT") ? JoinType::kLeft : is_kw("RIGHT") ? JoinType::kRight : JoinType::kFull;
      words = 1;
      if (type == JoinType::kLeft && is_kw("SEMI", 1)) {
        type = JoinType::kLeftSemi;
        words = 2;
      } else if (type == JoinType::kLeft && is_kw("ANTI", 1)) {
        type = JoinType::kLeftAnti;
        words = 2;
      } else if (is_kw("OUTER", 1)) {
        words = 2;
      }
      if (!is_kw("JOIN", words)) {
        pos_ += words;
        return error_expected("JOIN");
      }
      ++words;
    } else if ((is_kw("SEMI") || is_kw("ANTI")) && is_kw("JOIN", 1)) {
      type = is_kw("SEMI") ? JoinType::kLeftSemi : JoinType::kLeftAnti;
      words = 2;
    } else {
      return left;
    }
    pos_ += words;
    auto j = std::make_unique<JoinTableRef>(pos);
    j->join_type = type;
    j->left = std::move(left);
    j->right = FLOE_TRY(primary_relation());
    if (type != JoinType::kCross) {
      if (accept_kw("ON")) {
        j->on = FLOE_TRY(expr());
      } else if (accept_kw("USING")) {
        j->using_ = FLOE_TRY(identifier_list_in_parens());
      }
    }
    left = std::move(j);
  }
}

Result<std::optional<TimeTravel>> Parser::time_travel() {
  size_t skip = is_kw("FOR") ? 1 : 0;
  std::optional<TimeTravelKind> kind;
  if (is_kw("VERSION", skip) || is_kw("SYSTEM_VERSION", skip)) {
    kind = TimeTravelKind::kVersion;
  } else if (is_kw("TIMESTAMP", skip) || is_kw("SYSTEM_TIME", skip)) {
    kind = TimeTravelKind::kTimestamp;
  }
  if (!kind || !is_kw("AS", skip + 1) || !is_kw("OF", skip + 2)) {
    if (skip == 1) {
      advance();
      return error_expected("VERSION AS OF or TIMESTAMP AS OF after FOR");
    }
    return std::optional<TimeTravel>();
  }
  pos_ += skip + 3;
  TimeTravel tt;
  tt.kind = *kind;
  tt.value = FLOE_TRY(concat_expr());
  return std::optional<TimeTravel>(std::move(tt));
}

Status Parser::table_alias(TableRef& ref, bool allow_columns) {
  if (accept_kw("AS")) {
    ref.alias = FLOE_TRY(any_identifier("an alias"));
  } else if (can_be_implicit_alias()) {
    implicit_alias_ = pos_;
    ref.alias = FLOE_TRY(identifier());
  } else {
    return Status::OK();
  }
  if (allow_columns && is_sym("(")) ref.column_aliases = FLOE_TRY(identifier_list_in_parens());
  return Status::OK();
}

Result<TableRefPtr> Parser::primary_relation() {
  DepthGuard guard(*this);
  FLOE_TRY(enter(peek()));
  SourcePos pos = peek().pos;
  if (is_sym("(")) {
    if (at_query_start(1)) {
      advance();
      auto s = std::make_unique<SubqueryTableRef>(pos);
      s->query = FLOE_TRY(query());
      FLOE_TRY(expect_sym(")"));
      FLOE_TRY(table_alias(*s, true));
      return TableRefPtr(std::move(s));
    }
    advance();
    TableRefPtr inner = FLOE_TRY(relation());
    FLOE_TRY(expect_sym(")"));
    FLOE_TRY(table_alias(*inner, true));
    return inner;
  }
  if (is_kw("VALUES")) {
    advance();
    auto v = std::make_unique<ValuesTableRef>(pos);
    v->rows = FLOE_TRY(values_rows());
    FLOE_TRY(table_alias(*v, true));
    return TableRefPtr(std::move(v));
  }
  // iceberg.`path/to/table`, parquet.`file.parquet`, csv.`f.csv`
  if (peek().kind == TokenKind::kWord && is_sym(".", 1) &&
      peek(2).kind == TokenKind::kQuotedIdent && !is_sym(".", 3) && !is_sym("(", 3)) {
    for (std::string_view f : kPathFormats) {
      if (iequals(peek().text, f)) {
        auto p = std::make_unique<PathTableRef>(pos);
        p->format = to_lower(advance().text);
        advance();
        p->path = decode_quoted_identifier(advance());
        p->time_travel = FLOE_TRY(time_travel());
        FLOE_TRY(table_alias(*p, true));
        return TableRefPtr(std::move(p));
      }
    }
  }
  QualifiedName name = FLOE_TRY(qualified_name("a table name"));
  if (is_sym("(")) {
    auto f = std::make_unique<FunctionTableRef>(pos);
    f->name = std::move(name.parts);
    f->args = FLOE_TRY(expression_list_in_parens());
    FLOE_TRY(table_alias(*f, true));
    return TableRefPtr(std::move(f));
  }
  auto t = std::make_unique<NamedTableRef>(pos);
  t->name = std::move(name);
  t->time_travel = FLOE_TRY(time_travel());
  FLOE_TRY(table_alias(*t, true));
  return TableRefPtr(std::move(t));
}

}  // namespace floe::sql::internal
