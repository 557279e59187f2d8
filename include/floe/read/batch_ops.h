// Column-at-a-time operations the task reader applies to batches: evaluating a bound filter
// into a row mask, widening promoted types, and building constant
// columns (identity partition values, initial defaults, nulls).
#pragma once

#include <cstdint>
#include <string>
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

// A column equality deletes match on, found by field id at the top level or nested in structs
// (spec "Equality Delete Files"): the struct columns around it, outermost first, and the leaf.
// No leaf when the batch lacks the field.
struct EqualityColumn {
  std::vector<const ColumnVector*> parents;
  const ColumnVector* leaf = nullptr;
};
EqualityColumn find_equality_column(const ColumnBatch& batch, int32_t field_id);

// Appends row i of `column` to an equality key. A null value, one under a null struct and one
// of a column the batch lacks encode as null, which matches only null; numbers are widened to
// one encoding per type family, so an int delete column matches a long data column after
// promotion, and -0.0 / NaN are canonical.
void append_equality_key(const EqualityColumn& column, int64_t i, std::string* key);

// The parts of that key for one integer column (int, long, date, time, timestamps), which
// equality deletes keep as integers: whether row i's key is null, and its value widened to 64
// bits (what append_equality_key encodes after the '\1' of a present value).
bool is_integer_key_type(TypeId type);
bool equality_key_is_null(const EqualityColumn& column, int64_t i);
int64_t integer_key_at(const ColumnVector& leaf, int64_t i);
// What append_equality_key appends for a null, and for an integer value.
void append_null_key(std::string* key);
void append_integer_key(int64_t v, std::string* key);

}  // namespace floe
