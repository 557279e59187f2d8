// Column statistics of the Parquet writer: each page's min/max and NaN count folded into its
// column chunk's Parquet statistics and the file's bounds, and the Iceberg metrics of a leaf
// (counts and bounds by its metrics mode).
#pragma once

#include <cstdint>
#include <string>

#include "floe/columnar/column_vector.h"
#include "floe/format/parquet/metadata.h"
#include "floe/spec/file_metrics.h"
#include "format/parquet/writer_leaf_internal.h"

namespace floe::parquet::internal {

// Parquet statistics bytes of dense value i.
std::string stat_bytes(const WLeaf& l, const ColumnVector& v, int64_t i);

// Index of the smallest and largest of the dense byte values of `v` (unsigned byte order).
void scan_bytes(const ColumnVector& v, int64_t* lo, int64_t* hi);

// Index of the smallest and largest non-NaN dense value (Iceberg's order: -0.0 < +0.0), and the
// NaN count; false when there is no such value.
bool min_max(const WLeaf& l, const ColumnVector& v, int64_t* lo, int64_t* hi, int64_t* nans);

// Folds the dense values `v` of the page of `l` being flushed into its chunk's min/max and NaN
// count.
void fold_page_statistics(WLeaf& l, const ColumnVector& v);

// The Parquet statistics of the chunk of `l` (null count, min/max), folding the chunk into the
// file's bounds and counts of `l`.
Statistics finish_chunk_statistics(WLeaf& l);

// The Iceberg metrics of `l` by its metrics mode, into `m` (all but the column size).
Status add_leaf_metrics(const WLeaf& l, DataFileMetrics* m);

}  // namespace floe::parquet::internal
