// Fitting a query's output to a table's columns for INSERT and CTAS, with Spark's ANSI store
// assignment rules: columns by position (or by an explicit column list), implicit casts only
// where no value can be silently misread (numbers to numbers, anything to string, dates and
// timestamps among themselves, strings to dates and timestamps), NULL for omitted nullable
// columns.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "floe/spec/schema.h"
#include "sql/exec/bound_expr_internal.h"
#include "sql/exec/plan_internal.h"

namespace floe::sql {

// Whether a value of `from` may be stored in a column of `to`.
bool can_store_assign(const Type& from, const Type& to);

// A projection of `input` whose output fields are exactly `schema`'s top-level fields (ids,
// names, types). `columns` (INSERT INTO t (a, b)) names the input's columns in order; empty means
// every column of the table in order but those in `fixed` (INSERT ... PARTITION (k = v)), which
// take the given constant. Errors name the table and the column at fault.
Result<PlanPtr> project_to_schema(
    PlanPtr input, const Schema& schema, const std::vector<std::string>& columns,
    std::string_view table_name,
    const std::vector<std::pair<std::string, BoundExprPtr>>& fixed = {});

}  // namespace floe::sql
