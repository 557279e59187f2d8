// Rows in a table sort order (spec "Sorting"): each sort field's transform of its source
// column, ascending or descending, nulls first or last, compared in the total order of
// floe/columnar/compare.h (transform results by value: bucket numbers, truncated prefixes,
// year/month/day/hour ordinals). The sort is stable, so rows equal on every field keep their
// order. Writers use it to give each data file rows in order and the sort_order_id to match;
// compaction's sort strategy uses it for the order it is given.
#pragma once

#include <cstdint>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/spec/schema.h"
#include "floe/spec/sort_order.h"
#include "floe/util/result.h"

namespace floe {

// The row indices of `batch` (columns = the schema's top-level fields) in `order`.
Result<std::vector<int32_t>> sort_permutation(const SortOrder& order, const Schema& schema,
                                              const ColumnBatch& batch);

// `batch`'s rows in `order`.
Result<ColumnBatch> sort_rows(const SortOrder& order, const Schema& schema,
                              const ColumnBatch& batch);

}  // namespace floe
