// floe/sql/filter.h: a WHERE expression parsed by the SQL parser, converted as a whole by the
// scan pushdown's converter and checked by binding it to the table schema.
#include "floe/sql/filter.h"

#include "sql/binder/binder_internal.h"
#include "sql/parser/parser_internal.h"

namespace floe::sql {

Result<ExprPtr> parse_filter(std::string_view where, const Schema& schema) {
  ast::ExprPtr parsed = FLOE_TRY(parse_expression(where));
  floe::ExprPtr filter = FLOE_TRY(filter_expression(*parsed, schema));
  FLOE_TRY(bind_expression(filter, schema, false));
  return filter;
}

}  // namespace floe::sql
