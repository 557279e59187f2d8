// Statements other than queries: EXPLAIN, DESCRIBE, SHOW, USE, DDL, DML, ALTER TABLE, CALL, SET.
#include <algorithm>

#include "floe/util/strings.h"
#include "sql/parser/grammar_internal.h"

namespace floe::sql::internal {
using namespace floe::sql::ast;  // NOLINT: the parser builds the AST

namespace {

bool is_namespace_word(const Parser& p, size_t ahead = 0) {
  return p.is_kw("NAMESPACE", ahead) || p.is_kw("DATABASE", ahead) || p.is_kw("SCHEMA", ahead);
}
bool is_namespaces_word(const Parser& p, size_t ahead = 0) {
  return p.is_kw("NAMESPACES", ahead) || p.is_kw("DATABASES", ahead) || p.is_kw("SCHEMAS", ahead);
}

}  // namespace

Result<StatementNode> Parser::statement_node() {
  if (is_kw("WITH")) {
    // Spark also allows WITH ... INSERT: the CTEs then belong to the inserted query.
    size_t start = pos_;
    advance();
    std::vector<CommonTableExpr> ctes = FLOE_TRY(with_clause());
    if (is_kw("INSERT")) {
      StatementNode node = FLOE_TRY(insert());
      auto& source_ctes = std::get<InsertStatement>(node).source->ctes;
      for (auto& c : source_ctes) ctes.push_back(std::move(c));
      source_ctes = std::move(ctes);
      return node;
    }
    pos_ = start;
  }
  if (at_query_start()) return StatementNode(QueryStatement{FLOE_TRY(query())});
  const Token& t = peek();
  if (t.kind == TokenKind::kWord) {
    if (is_kw("EXPLAIN")) return explain();
    if (is_kw("DESCRIBE") || is_kw("DESC")) return describe();
    if (is_kw("SHOW")) return show();
    if (is_kw("USE")) return use();
    if (is_kw("CREATE")) return create();
    if (is_kw("REPLACE") && is_kw("TABLE", 1)) {
      pos_ += 2;
      return create_table(false, true);
    }
    if (is_kw("DROP")) return drop();
    if (is_kw("INSERT")) return insert();
    if (is_kw("DELETE")) return delete_from();
    if (is_kw("UPDATE")) return update();
    if (is_kw("MERGE")) return merge();
    if (is_kw("ALTER")) return alter();
    if (is_kw("CALL")) return call();
    if (is_kw("SET")) return set();
    if (is_kw("CACHE")) return cache();
    if (is_kw("UNCACHE")) return uncache();
    if (is_kw("CLEAR") && is_kw("CACHE", 1)) {
      pos_ += 2;
      return StatementNode(ClearCacheStatement{});
    }
  }
  return error_expected("a statement (SELECT, INSERT, CREATE, ...)");
}

Result<StatementNode> Parser::explain() {
  DepthGuard guard(*this);
  FLOE_TRY(enter(advance()));
  ExplainStatement e;
  if (accept_kw("EXTENDED")) {
    e.mode = ExplainMode::kExtended;
  } else if (accept_kw("FORMATTED")) {
    e.mode = ExplainMode::kFormatted;
  } else if (accept_kw("COST")) {
    e.mode = ExplainMode::kCost;
  } else if (accept_kw("CODEGEN")) {
    e.mode = ExplainMode::kCodegen;
  }
  if (at_end() || is_sym(";")) return error_expected("a statement after EXPLAIN");
  e.statement = std::make_unique<Statement>(FLOE_TRY(statement()));
  return StatementNode(std::move(e));
}

Result<StatementNode> Parser::describe() {
  advance();
  if (is_namespace_word(*this)) {
    advance();
    DescribeNamespaceStatement d;
    d.extended = accept_kw("EXTENDED");
    d.ns = FLOE_TRY(qualified_name("a namespace name"));
    return StatementNode(std::move(d));
  }
  DescribeTableStatement d;
  if (is_kw("TABLE") && (is_identifier_token(1) || is_kw("EXTENDED", 1) || is_kw("FORMATTED", 1))) {
    advance();
  }
  if (accept_kw("EXTENDED")) {
    d.extended = true;
  } else if (accept_kw("FORMATTED")) {
    d.extended = true;
    d.formatted = true;
  }
  d.table = FLOE_TRY(qualified_name("a table name"));
  if (is_identifier_token()) d.column = FLOE_TRY(column_path());
  return StatementNode(std::move(d));
}

Result<StatementNode> Parser::show() {
  advance();
  if (is_namespaces_word(*this) || is_kw("TABLES")) {
    bool tables = is_kw("TABLES");
    advance();
    std::optional<QualifiedName> in;
    std::optional<std::string> like;
    if (accept_kw("IN") || accept_kw("FROM")) in = FLOE_TRY(qualified_name("a namespace name"));
    if (accept_kw("LIKE") || peek().kind == TokenKind::kString) {
      like = FLOE_TRY(string_literal("a pattern string"));
    }
    if (tables) return StatementNode(ShowTablesStatement{std::move(in), std::move(like)});
    return StatementNode(ShowNamespacesStatement{std::move(in), std::move(like)});
  }
  if (accept_kw("TBLPROPERTIES")) {
    ShowTblPropertiesStatement s;
    s.table = FLOE_TRY(qualified_name("a table name"));
    if (accept_sym("(")) {
      s.key = FLOE_TRY(property_key());
      FLOE_TRY(expect_sym(")"));
    }
    return StatementNode(std::move(s));
  }
  if (is_kw("CREATE") && is_kw("TABLE", 1)) {
    pos_ += 2;
    ShowCreateTableStatement s;
    s.table = FLOE_TRY(qualified_name("a table name"));
    return StatementNode(std::move(s));
  }
  if (accept_kw("CATALOGS")) return StatementNode(ShowCatalogsStatement{});
  if (accept_kw("COLUMNS")) {
    if (!accept_kw("IN") && !accept_kw("FROM")) return error_expected("IN or FROM");
    ShowColumnsStatement s;
    s.table = FLOE_TRY(qualified_name("a table name"));
    return StatementNode(std::move(s));
  }
  return error_expected("NAMESPACES, TABLES, TBLPROPERTIES, CREATE TABLE, COLUMNS or CATALOGS");
}

Result<StatementNode> Parser::use() {
  advance();
  UseStatement u;
  if (is_namespace_word(*this) && (is_identifier_token(1))) {
    advance();
    u.namespace_keyword = true;
  }
  u.ns = FLOE_TRY(qualified_name("a namespace name"));
  return StatementNode(std::move(u));
}

Result<StatementNode> Parser::create() {
  advance();
  bool or_replace = false;
  if (is_kw("OR") && is_kw("REPLACE", 1)) {
    pos_ += 2;
    or_replace = true;
  }
  if (accept_kw("TABLE")) return create_table(or_replace, false);
  if (!or_replace && is_namespace_word(*this)) {
    advance();
    CreateNamespaceStatement c;
    if (is_kw("IF")) {
      advance();
      FLOE_TRY(expect_kw("NOT"));
      FLOE_TRY(expect_kw("EXISTS"));
      c.if_not_exists = true;
    }
    c.ns = FLOE_TRY(qualified_name("a namespace name"));
    while (true) {
      if (accept_kw("COMMENT")) {
        c.comment = FLOE_TRY(string_literal("a comment string"));
      } else if (accept_kw("LOCATION")) {
        c.location = FLOE_TRY(string_literal("a location string"));
      } else if (accept_kw("WITH")) {
        if (!accept_kw("DBPROPERTIES") && !accept_kw("PROPERTIES")) {
          return error_expected("DBPROPERTIES or PROPERTIES");
        }
        PropertyList props = FLOE_TRY(property_list());
        for (auto& kv : props) c.properties.push_back(std::move(kv));
      } else {
        break;
      }
    }
    return StatementNode(std::move(c));
  }
  return error_expected(or_replace ? "TABLE" : "TABLE, NAMESPACE, DATABASE or SCHEMA");
}

Result<ColumnDef> Parser::column_def() {
  ColumnDef c;
  c.pos = peek().pos;
  c.name = FLOE_TRY(any_identifier("a column name"));
  c.type = FLOE_TRY(type());
  while (true) {
    if (is_kw("NOT") && is_kw("NULL", 1)) {
      pos_ += 2;
      c.not_null = true;
    } else if (accept_kw("COMMENT")) {
      c.comment = FLOE_TRY(string_literal("a comment string"));
    } else {
      return c;
    }
  }
}

Result<std::vector<std::string>> Parser::column_path() {
  std::vector<std::string> parts;
  parts.push_back(FLOE_TRY(any_identifier("a column name")));
  while (is_sym(".") &&
         (peek(1).kind == TokenKind::kWord || peek(1).kind == TokenKind::kQuotedIdent)) {
    advance();
    parts.push_back(FLOE_TRY(any_identifier("a field name")));
  }
  return parts;
}

Result<TransformTerm> Parser::transform_term() {
  TransformTerm term;
  term.pos = peek().pos;
  if (peek().kind == TokenKind::kWord && is_sym("(", 1)) {
    term.transform = to_lower(advance().text);
    advance();
    do {
      if (peek().kind == TokenKind::kInteger) {
        if (term.param) return error_expected("a column name");
        term.param = static_cast<int32_t>(FLOE_TRY(integer_literal()));
      } else {
        if (!term.column.empty()) return error_expected("')'");
        term.column = FLOE_TRY(column_path());
      }
    } while (accept_sym(","));
    FLOE_TRY(expect_sym(")"));
    if (term.column.empty()) return error_at(peek(), "expected a source column in the transform");
    return term;
  }
  term.transform = "identity";
  term.column = FLOE_TRY(column_path());
  return term;
}

// term [ASC|DESC] [NULLS FIRST|LAST], ... (WRITE ORDERED BY, rewrite_data_files sort_order).
Result<std::vector<SortTerm>> Parser::sort_terms() {
  std::vector<SortTerm> out;
  do {
    SortTerm s;
    s.term = FLOE_TRY(transform_term());
    if (accept_kw("DESC")) {
      s.descending = true;
    } else {
      accept_kw("ASC");
    }
    if (accept_kw("NULLS")) {
      if (accept_kw("FIRST")) {
        s.nulls_first = true;
      } else {
        FLOE_TRY(expect_kw("LAST"));
        s.nulls_first = false;
      }
    }
    out.push_back(std::move(s));
  } while (accept_sym(","));
  return out;
}

Result<StatementNode> Parser::create_table(bool or_replace, bool replace) {
  CreateTableStatement c;
  c.or_replace = or_replace;
  c.replace = replace;
  if (is_kw("IF")) {
    advance();
    FLOE_TRY(expect_kw("NOT"));
    FLOE_TRY(expect_kw("EXISTS"));
    c.if_not_exists = true;
  }
  c.table = FLOE_TRY(qualified_name("a table name"));
  if (is_sym("(") && !at_query_start(1)) {
    advance();
    do {
      c.columns.push_back(FLOE_TRY(column_def()));
    } while (accept_sym(","));
    FLOE_TRY(expect_sym(")"));
  }
  while (true) {
    if (accept_kw("USING")) {
      c.using_ = FLOE_TRY(any_identifier("a table format"));
    } else if (is_kw("PARTITIONED") && is_kw("BY", 1)) {
      pos_ += 2;
      FLOE_TRY(expect_sym("("));
      do {
        c.partitioned_by.push_back(FLOE_TRY(transform_term()));
      } while (accept_sym(","));
      FLOE_TRY(expect_sym(")"));
    } else if (accept_kw("LOCATION")) {
      c.location = FLOE_TRY(string_literal("a location string"));
    } else if (accept_kw("COMMENT")) {
      c.comment = FLOE_TRY(string_literal("a comment string"));
    } else if (accept_kw("TBLPROPERTIES")) {
      PropertyList props = FLOE_TRY(property_list());
      for (auto& kv : props) c.properties.push_back(std::move(kv));
    } else if (accept_kw("OPTIONS")) {
      PropertyList props = FLOE_TRY(property_list());
      for (auto& kv : props) c.options.push_back(std::move(kv));
    } else {
      break;
    }
  }
  if (is_kw("AS") && at_query_start(1)) advance();
  if (at_query_start()) c.as_query = FLOE_TRY(query());
  if (c.columns.empty() && !c.as_query) {
    if (at_end() || is_sym(";")) return error_expected("a column list or AS SELECT");
    return error_expected("'(', USING, PARTITIONED BY, LOCATION, COMMENT, TBLPROPERTIES or AS");
  }
  if (!at_end() && !is_sym(";")) {
    return error_expected(
        "USING, PARTITIONED BY, LOCATION, COMMENT, TBLPROPERTIES, AS or end of input");
  }
  return StatementNode(std::move(c));
}

Result<StatementNode> Parser::drop() {
  advance();
  bool namespace_kind = is_namespace_word(*this);
  const bool view = is_kw("VIEW");
  if (!namespace_kind && !view && !is_kw("TABLE")) {
    return error_expected("TABLE, VIEW, NAMESPACE or DATABASE");
  }
  advance();
  bool if_exists = false;
  if (is_kw("IF") && is_kw("EXISTS", 1)) {
    pos_ += 2;
    if_exists = true;
  }
  if (namespace_kind) {
    DropNamespaceStatement d;
    d.if_exists = if_exists;
    d.ns = FLOE_TRY(qualified_name("a namespace name"));
    if (accept_kw("CASCADE")) {
      d.cascade = true;
    } else {
      accept_kw("RESTRICT");
    }
    return StatementNode(std::move(d));
  }
  DropTableStatement d;
  d.if_exists = if_exists;
  d.view = view;
  d.table = FLOE_TRY(qualified_name(view ? "a view name" : "a table name"));
  if (!view) d.purge = accept_kw("PURGE");
  return StatementNode(std::move(d));
}

// CACHE [LAZY] TABLE name [[AS] query] (Spark's OPTIONS ('storageLevel' ...) is not taken:
// floe keeps cached rows in memory).
Result<StatementNode> Parser::cache() {
  advance();
  CacheTableStatement c;
  c.lazy = accept_kw("LAZY");
  FLOE_TRY(expect_kw("TABLE"));
  c.table = FLOE_TRY(qualified_name("a table name"));
  if (is_kw("AS") && at_query_start(1)) advance();
  if (at_query_start()) c.as_query = FLOE_TRY(query());
  if (!at_end() && !is_sym(";")) return error_expected("AS SELECT or end of input");
  return StatementNode(std::move(c));
}

Result<StatementNode> Parser::uncache() {
  advance();
  FLOE_TRY(expect_kw("TABLE"));
  UncacheTableStatement u;
  if (is_kw("IF") && is_kw("EXISTS", 1)) {
    pos_ += 2;
    u.if_exists = true;
  }
  u.table = FLOE_TRY(qualified_name("a table name"));
  return StatementNode(std::move(u));
}

Result<StatementNode> Parser::insert() {
  advance();
  InsertStatement ins;
  if (accept_kw("OVERWRITE")) {
    ins.overwrite = true;
  } else {
    FLOE_TRY(expect_kw("INTO"));
  }
  if (is_kw("TABLE") && (is_identifier_token(1))) advance();
  ins.table = FLOE_TRY(qualified_name("a table name"));
  if (accept_kw("PARTITION")) {
    FLOE_TRY(expect_sym("("));
    do {
      std::string key = FLOE_TRY(any_identifier("a partition column"));
      ExprPtr value;
      if (accept_sym("=")) value = FLOE_TRY(expr());
      ins.partition.emplace_back(std::move(key), std::move(value));
    } while (accept_sym(","));
    FLOE_TRY(expect_sym(")"));
  }
  if (is_sym("(") && !at_query_start(1)) ins.columns = FLOE_TRY(identifier_list_in_parens());
  if (!at_query_start()) return error_expected("VALUES or a query");
  ins.source = FLOE_TRY(query());
  return StatementNode(std::move(ins));
}

Result<std::optional<std::string>> Parser::optional_alias() {
  if (accept_kw("AS")) return std::optional<std::string>(FLOE_TRY(any_identifier("an alias")));
  if (can_be_implicit_alias()) {
    implicit_alias_ = pos_;
    return std::optional<std::string>(FLOE_TRY(identifier()));
  }
  return std::optional<std::string>();
}

Result<StatementNode> Parser::delete_from() {
  advance();
  FLOE_TRY(expect_kw("FROM"));
  DeleteStatement d;
  d.table = FLOE_TRY(qualified_name("a table name"));
  d.alias = FLOE_TRY(optional_alias());
  if (accept_kw("WHERE")) d.where = FLOE_TRY(expr());
  if (!at_end() && !is_sym(";"))
    return error_expected(d.where ? "end of input" : "WHERE or end of input");
  return StatementNode(std::move(d));
}

Result<std::vector<Assignment>> Parser::assignments() {
  std::vector<Assignment> out;
  do {
    Assignment a;
    a.pos = peek().pos;
    a.column = FLOE_TRY(column_path());
    FLOE_TRY(expect_sym("="));
    a.value = FLOE_TRY(expr());
    out.push_back(std::move(a));
  } while (accept_sym(","));
  return out;
}

Result<StatementNode> Parser::update() {
  advance();
  UpdateStatement u;
  u.table = FLOE_TRY(qualified_name("a table name"));
  u.alias = FLOE_TRY(optional_alias());
  FLOE_TRY(expect_kw("SET"));
  u.assignments = FLOE_TRY(assignments());
  if (accept_kw("WHERE")) u.where = FLOE_TRY(expr());
  return StatementNode(std::move(u));
}

Result<StatementNode> Parser::merge() {
  advance();
  FLOE_TRY(expect_kw("INTO"));
  MergeStatement m;
  m.target = FLOE_TRY(qualified_name("a table name"));
  m.target_alias = FLOE_TRY(optional_alias());
  FLOE_TRY(expect_kw("USING"));
  m.source = FLOE_TRY(primary_relation());
  FLOE_TRY(expect_kw("ON"));
  m.on = FLOE_TRY(expr());
  while (is_kw("WHEN")) {
    MergeClause c;
    c.pos = advance().pos;
    if (accept_kw("MATCHED")) {
      c.match = MergeMatch::kMatched;
    } else {
      FLOE_TRY(expect_kw("NOT"));
      FLOE_TRY(expect_kw("MATCHED"));
      c.match = MergeMatch::kNotMatched;
      if (accept_kw("BY")) {
        if (accept_kw("SOURCE")) {
          c.match = MergeMatch::kNotMatchedBySource;
        } else {
          FLOE_TRY(expect_kw("TARGET"));
        }
      }
    }
    if (accept_kw("AND")) c.condition = FLOE_TRY(expr());
    FLOE_TRY(expect_kw("THEN"));
    if (accept_kw("UPDATE")) {
      FLOE_TRY(expect_kw("SET"));
      if (accept_sym("*")) {
        c.action = MergeAction::kUpdateStar;
      } else {
        c.action = MergeAction::kUpdate;
        c.assignments = FLOE_TRY(assignments());
      }
    } else if (accept_kw("DELETE")) {
      c.action = MergeAction::kDelete;
    } else if (accept_kw("INSERT")) {
      if (accept_sym("*")) {
        c.action = MergeAction::kInsertStar;
      } else {
        c.action = MergeAction::kInsert;
        if (is_sym("(")) c.insert_columns = FLOE_TRY(identifier_list_in_parens());
        FLOE_TRY(expect_kw("VALUES"));
        c.insert_values = FLOE_TRY(expression_list_in_parens());
      }
    } else {
      return error_expected("UPDATE, DELETE or INSERT");
    }
    bool insert = c.action == MergeAction::kInsert || c.action == MergeAction::kInsertStar;
    if (c.match == MergeMatch::kNotMatched && !insert) {
      return error_at(tokens_[pos_ - 1], "WHEN NOT MATCHED allows only INSERT");
    }
    if (c.match != MergeMatch::kNotMatched && insert) {
      return error_at(tokens_[pos_ - 1], "INSERT is allowed only in WHEN NOT MATCHED");
    }
    m.clauses.push_back(std::move(c));
  }
  if (m.clauses.empty()) return error_expected("WHEN");
  return StatementNode(std::move(m));
}

Result<ColumnPosition> Parser::column_position() {
  ColumnPosition p;
  if (accept_kw("FIRST")) {
    p.kind = ColumnPositionKind::kFirst;
  } else if (accept_kw("AFTER")) {
    p.kind = ColumnPositionKind::kAfter;
    p.after = FLOE_TRY(column_path());
  }
  return p;
}

Result<RetentionPeriod> Parser::retention_period() {
  RetentionPeriod r;
  r.amount = FLOE_TRY(integer_literal("a number"));
  if (!is_kw("DAYS") && !is_kw("HOURS") && !is_kw("MINUTES")) {
    return error_expected("DAYS, HOURS or MINUTES");
  }
  std::string unit(advance().text);
  for (char& ch : unit) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  r.unit = std::move(unit);
  return r;
}

Result<StatementNode> Parser::alter() {
  advance();
  FLOE_TRY(expect_kw("TABLE"));
  AlterTableStatement a;
  a.table = FLOE_TRY(qualified_name("a table name"));

  auto ref_options = [&](CreateRef& r) -> Status {
    r.name = FLOE_TRY(any_identifier(r.tag ? "a tag name" : "a branch name"));
    if (is_kw("AS") && is_kw("OF", 1)) {
      pos_ += 2;
      FLOE_TRY(expect_kw("VERSION"));
      r.snapshot_id = FLOE_TRY(integer_literal("a snapshot id"));
    }
    if (accept_kw("RETAIN")) r.retain = FLOE_TRY(retention_period());
    if (is_kw("WITH") && is_kw("SNAPSHOT", 1)) {
      pos_ += 2;
      FLOE_TRY(expect_kw("RETENTION"));
      if (peek().kind == TokenKind::kInteger && is_kw("SNAPSHOTS", 1)) {
        r.min_snapshots_to_keep = FLOE_TRY(integer_literal());
        advance();
      }
      if (peek().kind == TokenKind::kInteger) r.max_snapshot_age = FLOE_TRY(retention_period());
      if (!r.min_snapshots_to_keep && !r.max_snapshot_age) {
        return error_expected("a snapshot count (n SNAPSHOTS) or an age (n DAYS)");
      }
    }
    return Status::OK();
  };
  auto column_list = [&]() -> Result<std::vector<std::vector<std::string>>> {
    std::vector<std::vector<std::string>> out;
    bool parens = accept_sym("(");
    do {
      out.push_back(FLOE_TRY(column_path()));
    } while (accept_sym(","));
    if (parens) FLOE_TRY(expect_sym(")"));
    return out;
  };

  if (accept_kw("SET")) {
    if (accept_kw("TBLPROPERTIES") || accept_kw("PROPERTIES")) {
      a.action = SetTblProperties{FLOE_TRY(property_list())};
    } else if (is_kw("IDENTIFIER") && is_kw("FIELDS", 1)) {
      pos_ += 2;
      a.action = SetIdentifierFields{FLOE_TRY(column_list())};
    } else {
      return error_expected("TBLPROPERTIES or IDENTIFIER FIELDS");
    }
  } else if (accept_kw("UNSET")) {
    if (!accept_kw("TBLPROPERTIES") && !accept_kw("PROPERTIES")) {
      return error_expected("TBLPROPERTIES");
    }
    UnsetTblProperties u;
    if (is_kw("IF") && is_kw("EXISTS", 1)) {
      pos_ += 2;
      u.if_exists = true;
    }
    FLOE_TRY(expect_sym("("));
    do {
      u.keys.push_back(FLOE_TRY(property_key()));
    } while (accept_sym(","));
    FLOE_TRY(expect_sym(")"));
    a.action = std::move(u);
  } else if (accept_kw("RENAME")) {
    if (accept_kw("TO")) {
      a.action = RenameTable{FLOE_TRY(qualified_name("a table name"))};
    } else if (accept_kw("COLUMN")) {
      RenameColumn r;
      r.column = FLOE_TRY(column_path());
      FLOE_TRY(expect_kw("TO"));
      r.new_name = FLOE_TRY(any_identifier("a column name"));
      a.action = std::move(r);
    } else if (is_kw("PARTITION") && is_kw("FIELD", 1)) {
      pos_ += 2;
      RenamePartitionField r;
      r.from = FLOE_TRY(any_identifier("a partition field name"));
      FLOE_TRY(expect_kw("TO"));
      r.to = FLOE_TRY(any_identifier("a partition field name"));
      a.action = std::move(r);
    } else {
      return error_expected("TO, COLUMN or PARTITION FIELD");
    }
  } else if (accept_kw("ADD")) {
    if (is_kw("PARTITION") && is_kw("FIELD", 1)) {
      pos_ += 2;
      AddPartitionField f;
      f.term = FLOE_TRY(transform_term());
      if (accept_kw("AS")) f.name = FLOE_TRY(any_identifier("a partition field name"));
      a.action = std::move(f);
    } else if (accept_kw("COLUMN") || accept_kw("COLUMNS")) {
      AddColumns add;
      bool parens = accept_sym("(");
      do {
        AddColumnDef c;
        c.pos = peek().pos;
        c.name = FLOE_TRY(column_path());
        c.type = FLOE_TRY(type());
        while (true) {
          if (is_kw("NOT") && is_kw("NULL", 1)) {
            pos_ += 2;
            c.not_null = true;
          } else if (accept_kw("COMMENT")) {
            c.comment = FLOE_TRY(string_literal("a comment string"));
          } else if (accept_kw("DEFAULT")) {
            c.default_value = FLOE_TRY(expr());
          } else {
            break;
          }
        }
        c.position = FLOE_TRY(column_position());
        add.columns.push_back(std::move(c));
      } while (accept_sym(","));
      if (parens) FLOE_TRY(expect_sym(")"));
      a.action = std::move(add);
    } else {
      return error_expected("COLUMN, COLUMNS or PARTITION FIELD");
    }
  } else if (accept_kw("DROP")) {
    if (is_kw("PARTITION") && is_kw("FIELD", 1)) {
      pos_ += 2;
      a.action = DropPartitionField{FLOE_TRY(transform_term())};
    } else if (accept_kw("COLUMN") || accept_kw("COLUMNS")) {
      DropColumns d;
      if (is_kw("IF") && is_kw("EXISTS", 1)) {
        pos_ += 2;
        d.if_exists = true;
      }
      d.columns = FLOE_TRY(column_list());
      a.action = std::move(d);
    } else if (is_kw("IDENTIFIER") && is_kw("FIELDS", 1)) {
      pos_ += 2;
      a.action = DropIdentifierFields{FLOE_TRY(column_list())};
    } else if (is_kw("BRANCH") || is_kw("TAG")) {
      DropRef d;
      d.tag = is_kw("TAG");
      advance();
      if (is_kw("IF") && is_kw("EXISTS", 1)) {
        pos_ += 2;
        d.if_exists = true;
      }
      d.name = FLOE_TRY(any_identifier(d.tag ? "a tag name" : "a branch name"));
      a.action = std::move(d);
    } else {
      return error_expected("COLUMN, COLUMNS, PARTITION FIELD, IDENTIFIER FIELDS, BRANCH or TAG");
    }
  } else if (accept_kw("ALTER") || accept_kw("CHANGE")) {
    accept_kw("COLUMN");
    AlterColumn c;
    c.column = FLOE_TRY(column_path());
    bool any = false;
    while (true) {
      if (accept_kw("TYPE")) {
        c.new_type = FLOE_TRY(type());
      } else if (is_kw("SET") && is_kw("NOT", 1) && is_kw("NULL", 2)) {
        pos_ += 3;
        c.not_null = true;
      } else if (is_kw("DROP") && is_kw("NOT", 1) && is_kw("NULL", 2)) {
        pos_ += 3;
        c.not_null = false;
      } else if (is_kw("SET") && is_kw("DEFAULT", 1)) {
        pos_ += 2;
        c.set_default = FLOE_TRY(expr());
      } else if (is_kw("DROP") && is_kw("DEFAULT", 1)) {
        pos_ += 2;
        c.drop_default = true;
      } else if (accept_kw("COMMENT")) {
        c.comment = FLOE_TRY(string_literal("a comment string"));
      } else if (is_kw("FIRST") || is_kw("AFTER")) {
        c.position = FLOE_TRY(column_position());
      } else {
        break;
      }
      any = true;
    }
    if (!any)
      return error_expected(
          "TYPE, SET NOT NULL, DROP NOT NULL, SET DEFAULT, DROP DEFAULT, COMMENT, FIRST or AFTER");
    a.action = std::move(c);
  } else if (accept_kw("REPLACE")) {
    if (is_kw("PARTITION") && is_kw("FIELD", 1)) {
      pos_ += 2;
      ReplacePartitionField r;
      r.from = FLOE_TRY(transform_term());
      FLOE_TRY(expect_kw("WITH"));
      r.to = FLOE_TRY(transform_term());
      if (accept_kw("AS")) r.name = FLOE_TRY(any_identifier("a partition field name"));
      a.action = std::move(r);
    } else if (is_kw("BRANCH") || is_kw("TAG")) {
      CreateRef r;
      r.tag = is_kw("TAG");
      advance();
      r.create = false;
      r.replace = true;
      FLOE_TRY(ref_options(r));
      a.action = std::move(r);
    } else {
      return error_expected("PARTITION FIELD, BRANCH or TAG");
    }
  } else if (accept_kw("CREATE")) {
    CreateRef r;
    if (is_kw("OR") && is_kw("REPLACE", 1)) {
      pos_ += 2;
      r.replace = true;
    }
    if (!is_kw("BRANCH") && !is_kw("TAG")) return error_expected("BRANCH or TAG");
    r.tag = is_kw("TAG");
    advance();
    if (is_kw("IF") && is_kw("NOT", 1) && is_kw("EXISTS", 2)) {
      pos_ += 3;
      r.if_not_exists = true;
    }
    FLOE_TRY(ref_options(r));
    a.action = std::move(r);
  } else if (accept_kw("WRITE")) {
    SetWriteOrder w;
    if (accept_kw("UNORDERED")) {
      w.unordered = true;
    } else {
      if (is_kw("DISTRIBUTED")) {
        advance();
        FLOE_TRY(expect_kw("BY"));
        FLOE_TRY(expect_kw("PARTITION"));
        w.distributed_by_partition = true;
      }
      if (accept_kw("LOCALLY")) w.locally = true;
      if (accept_kw("ORDERED")) {
        FLOE_TRY(expect_kw("BY"));
        w.order = FLOE_TRY(sort_terms());
      } else if (w.locally || !w.distributed_by_partition) {
        return error_expected(
            w.locally ? "ORDERED BY"
                      : "ORDERED BY, LOCALLY ORDERED BY, DISTRIBUTED BY PARTITION or UNORDERED");
      }
    }
    a.action = std::move(w);
  } else {
    return error_expected(
        "SET, UNSET, RENAME, ADD, DROP, ALTER, REPLACE, CREATE or WRITE after the table name");
  }
  return StatementNode(std::move(a));
}

Result<StatementNode> Parser::call() {
  advance();
  CallStatement c;
  c.procedure = FLOE_TRY(qualified_name("a procedure name"));
  FLOE_TRY(expect_sym("("));
  if (!accept_sym(")")) {
    do {
      CallArgument arg;
      arg.pos = peek().pos;
      if ((peek().kind == TokenKind::kWord || peek().kind == TokenKind::kQuotedIdent) &&
          is_sym("=>", 1)) {
        arg.name = FLOE_TRY(any_identifier());
        advance();
      }
      arg.value = FLOE_TRY(expr());
      if (!c.args.empty() && c.args.back().name && !arg.name) {
        return error_at(tokens_[pos_ - 1], "positional argument after a named argument");
      }
      c.args.push_back(std::move(arg));
    } while (accept_sym(","));
    FLOE_TRY(expect_sym(")"));
  }
  return StatementNode(std::move(c));
}

Result<StatementNode> Parser::set() {
  advance();
  SetStatement s;
  // The key and value are raw text up to '=' and to the end of the statement.
  size_t key_begin = pos_;
  while (!at_end() && !is_sym(";") && !is_sym("=")) advance();
  if (pos_ > key_begin) {
    const Token& first = tokens_[key_begin];
    const Token& last = tokens_[pos_ - 1];
    s.key =
        std::string(source_.substr(first.offset, last.offset + last.text.size() - first.offset));
  }
  if (accept_sym("=")) {
    if (s.key.empty()) return error_at(tokens_[pos_ - 1], "expected a key before '='");
    size_t value_begin = pos_;
    while (!at_end() && !is_sym(";")) advance();
    if (pos_ == value_begin) return error_expected("a value");
    if (pos_ == value_begin + 1 && tokens_[value_begin].kind == TokenKind::kString) {
      s.value = decode_string(tokens_[value_begin]);
    } else {
      const Token& first = tokens_[value_begin];
      const Token& last = tokens_[pos_ - 1];
      s.value =
          std::string(source_.substr(first.offset, last.offset + last.text.size() - first.offset));
    }
  }
  return StatementNode(std::move(s));
}

}  // namespace floe::sql::internal
