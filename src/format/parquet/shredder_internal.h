// Record shredding of the Parquet writer (Dremel): values of a column become the dense values
// and definition/repetition levels of its leaves' pages.
#pragma once

#include <cstdint>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "format/parquet/writer_leaf_internal.h"

namespace floe::parquet::internal {

// Adds a null at levels def/rep to every leaf under `n`.
void null_all(std::vector<WLeaf>& leaves, const WNode& n, int16_t def, int16_t rep);

// Shreds value i of `col` (of node `n`, under levels def/rep) into the pages of its leaves.
Status shred(std::vector<WLeaf>& leaves, const ColumnVector& col, int64_t i, const WNode& n,
             int16_t def, int16_t rep);

// Appends rows [b, e) of the top-level primitive column `col` to the page of its leaf: levels
// from the validity bitmap (left implied while the page has no null), values copied in bulk.
void append_flat(const ColumnVector& col, WLeaf& l, int64_t b, int64_t e);

}  // namespace floe::parquet::internal
