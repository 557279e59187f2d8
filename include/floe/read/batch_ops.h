// Column-at-a-time operations the task reader applies to batches: evaluating a bound filter
// into a row mask, widening promoted types, and building constant
// columns (identity partition values, initial defaults, nulls).
#pragma once

#include <cstdint>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/expr/expression.h"

namespace floe {

// ANDs the rows satisfying `filter` (bound to ids of the batch's fields) into keep[0..n).
// Semantics as floe::evaluate: comparisons with null or NaN are false, NOT negates predicates.
// A predicate on a column the batch lacks keeps every row (the caller decides columns).
Status filter_mask(const ExprPtr& filter, const ColumnBatch& batch, uint8_t* keep);

// Converts a column to a promoted type (int -> long, float -> double, decimal(P,S) ->
// decimal(P',S), date -> timestamp/timestamp_ns); same type returns the input.
Result<ColumnPtr> widen_column(const ColumnPtr& col, const TypePtr& target);

// Converts a column read from a data file to the table's type by field id at every depth:
// struct fields follow their ids (a renamed field keeps its data, a field the file lacks reads
// as its initial-default or null, a field the table dropped is left out, order is the table's),
// list elements and map keys/values are converted the same way, primitives widen as in
// widen_column. A column already of the target type is returned as is.
Result<ColumnPtr> evolve_column(const ColumnPtr& col, const TypePtr& target);

// A column of n copies of `value` (a typed null gives an all-null column).
Result<ColumnPtr> constant_column(const TypePtr& type, const Literal& value, int64_t n);

}  // namespace floe
