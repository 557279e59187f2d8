// Fitting a query's output to a table's columns for INSERT, CTAS and `floe load`, with Spark's
// ANSI store assignment rules (spark.sql.storeAssignmentPolicy=ANSI): columns by position (or
// by an explicit column list), implicit casts only where no value can be silently misread
// (numbers to numbers, anything to string, dates and timestamps among themselves, strings to
// dates and timestamps), NULL for omitted nullable columns. A value the column cannot hold
// exactly (3000000000 into an int, 123456.789 into a decimal(5,2), a timestamp past year
// 294247, '1.9' into an int) is an error naming the row and the column, never a wrapped,
// rounded-away or NULL value; the checks run a column at a time without allocating per row.
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

// Why a value could not be stored: its row in the column given and a description ("the
// bigint value 3000000000 does not fit in int", "'1.9' is not a valid int").
struct AssignFailure {
  int64_t row = -1;
  std::string reason;
};

// `in` as a column of `to` (a pair can_store_assign accepts, or strings parsed by `floe load`).
// Returns null and fills `failure` at the first value `to` cannot hold exactly.
Result<ColumnPtr> store_assign(const ColumnPtr& in, const TypePtr& to, AssignFailure* failure);

// One constant (a static partition value, a default) stored as `to`; a string is parsed as any
// primitive type (partition values are text in Spark). Errors name the table and the column.
Result<Literal> store_assign_value(const Literal& value, const TypePtr& to,
                                   std::string_view table_name, std::string_view column);

// A projection of `input` whose output fields are exactly `schema`'s top-level fields (ids,
// names, types). `columns` (INSERT INTO t (a, b)) names the input's columns in order; empty means
// every column of the table in order but those in `fixed` (INSERT ... PARTITION (k = v)), which
// take the given constant. Errors name the table and the column at fault.
Result<PlanPtr> project_to_schema(
    PlanPtr input, const Schema& schema, const std::vector<std::string>& columns,
    std::string_view table_name,
    const std::vector<std::pair<std::string, BoundExprPtr>>& fixed = {});

}  // namespace floe::sql
