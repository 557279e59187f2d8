// The Spark-SQL parser: a hand-written lexer and a recursive-descent parser (precedence
// climbing for expressions) producing the tree in sql/parser/ast_internal.h.
//
//   auto stmts = FLOE_TRY(floe::sql::parse_sql("USE analytics; SELECT * FROM sales LIMIT 3"));
//   auto expr = FLOE_TRY(floe::sql::parse_expression("country = 'DE' AND age > 18"));
//
// Errors are kInvalidArgument with one line naming the position (1-based line:column) and the
// offending token: "syntax error at 1:17 near 'FORM': expected ..." or "... near end of input".
#pragma once

#include <string_view>
#include <vector>

#include "floe/util/result.h"
#include "sql/parser/ast_internal.h"

namespace floe::sql {

// A script of statements separated by ';' (comments `--` and `/* */`, empty statements
// allowed). Positions are relative to the whole script.
Result<std::vector<ast::Statement>> parse_sql(std::string_view script);

// Exactly one statement (a trailing ';' is allowed).
Result<ast::Statement> parse_statement(std::string_view text);

// A scalar expression (a WHERE clause, a CHECK, a CALL argument).
Result<ast::ExprPtr> parse_expression(std::string_view text);

// A query (SELECT / WITH / VALUES / set operations).
Result<ast::QueryPtr> parse_query(std::string_view text);

// A Spark type name: "DECIMAL(10, 2)", "MAP<STRING, ARRAY<INT>>".
Result<ast::TypePtr> parse_type(std::string_view text);

// A sort order as Spark's rewrite_data_files takes it: "id DESC NULLS LAST, bucket(4, name)".
Result<std::vector<ast::SortTerm>> parse_sort_order(std::string_view text);

}  // namespace floe::sql
