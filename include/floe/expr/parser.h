// A parser for the SQL WHERE syntax, producing unbound expressions:
//   event_ts >= '2024-06-15' AND country = 'DE' AND name LIKE 'Mo%'
//   id IN (1, 2, 3) OR (amount BETWEEN 10.5 AND 20 AND NOT isnan(score))
// Literals keep their SQL type (string, long, decimal, double, boolean, DATE '...',
// TIMESTAMP '...'); binding converts them to the column types. Errors point at the line,
// column and token: "syntax error at 1:17 near 'FORM'".
#pragma once

#include <string_view>

#include "floe/expr/expression.h"

namespace floe {

Result<ExprPtr> parse_filter(std::string_view text);

}  // namespace floe
