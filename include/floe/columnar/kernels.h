// Row kernels over columns and batches, every type nested included: keeping the rows of a mask,
// gathering rows by index, appending, concatenating and slicing. The one implementation the
// reader, the SQL executor and the writers share.
#pragma once

#include <cstdint>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/util/result.h"

namespace floe {

// Rows i with keep[i] != 0, in order. `kept` is their count.
ColumnPtr take_rows(const ColumnVector& col, const uint8_t* keep, int64_t kept);
// The rows of a mask over every column; the batch itself when every row is kept.
ColumnBatch take_rows(const ColumnBatch& batch, const uint8_t* keep);
// The same in place: a flat column only this batch holds is compacted in its own buffers (no
// allocation, no second copy of the data); any other is replaced by a copy of its kept rows.
void keep_rows(ColumnBatch& batch, const uint8_t* keep);
// The mask takes above compact 4- and 8-byte values with AVX-512 when the CPU has it. Tests
// turn that off (and on again) to check the portable path on the same machine; returns the
// previous setting.
bool set_simd_kernels(bool enabled);

// Rows indices[k] of `col` in order; -1 gives a null row.
ColumnPtr gather(const ColumnVector& col, const int32_t* indices, int64_t n);
ColumnPtr gather(const ColumnVector& col, const std::vector<int32_t>& indices);
ColumnBatch gather(const ColumnBatch& batch, const std::vector<int32_t>& indices);
// Appends rows indices[k] of `src` (-1 = null) to `dst` (same type).
void append_rows(const ColumnVector& src, const int32_t* indices, int64_t n, ColumnVector* dst);
// Appends rows [offset, offset + length) of `src` to `dst` (same type).
void append_range(const ColumnVector& src, int64_t offset, int64_t length, ColumnVector* dst);

// All rows of `batches` in order; the fields are the first batch's (column types must match).
// An empty list gives an empty batch with `fields`.
Result<ColumnBatch> concat_batches(const std::vector<ColumnBatch>& batches,
                                   const std::vector<NestedField>& fields = {});
// Rows [offset, offset + length) clamped to the batch (LIMIT / OFFSET).
ColumnBatch slice_batch(const ColumnBatch& batch, int64_t offset, int64_t length);
// A column of n nulls of `type`.
ColumnPtr null_column(const TypePtr& type, int64_t n);

}  // namespace floe
