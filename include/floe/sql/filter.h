// Row filters written in the SQL WHERE syntax (the SQL parser's expression grammar) as Iceberg
// expressions over a table's columns, e.g. for `floe scan --where`:
//   event_ts >= '2024-06-15' AND country = 'DE' AND name LIKE 'Mo%'
//   id IN (1, 2, 3) OR NOT (amount BETWEEN 10.5 AND 20 OR isnan(score))
#pragma once

#include <string_view>

#include "floe/expr/expression.h"

namespace floe::sql {

// Parses `where`, resolves its column names against the top-level columns of `schema` (case
// insensitively; the result uses the schema's names) and converts it to an unbound Iceberg
// expression whose literals have the columns' types. Predicates: comparisons of a column with
// a literal (either side), IS [NOT] NULL, [NOT] IN, [NOT] BETWEEN, [NOT] LIKE 'prefix%',
// startswith(col, 'prefix') (or starts_with), isnan(col), TRUE, FALSE, combined with AND, OR
// and NOT. A syntax error names its line, column
// and token; a predicate that cannot be converted exactly is an error naming it.
Result<ExprPtr> parse_filter(std::string_view where, const Schema& schema);

}  // namespace floe::sql
