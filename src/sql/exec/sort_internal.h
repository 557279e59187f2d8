// ORDER BY over column batches: a stable sort (or top-N) computing a permutation with one
// specialised comparator per key type (order-preserving 64-bit prefixes, exact for fixed-width
// keys), then a gather.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/util/result.h"
#include "sql/exec/relational_internal.h"

namespace floe::sql {

// The stable order of rows 0..batch.num_rows by `keys`, the first `limit` only when given.
Result<std::vector<int32_t>> sort_indices(const ColumnBatch& batch,
                                          const std::vector<SortKey>& keys,
                                          std::optional<int64_t> limit = std::nullopt);

// Concatenates `batches` and sorts the rows by `keys` (stable); with a limit returns the
// first `limit` rows only (top-N with a partial sort).
Result<ColumnBatch> sort(std::vector<ColumnBatch> batches, const std::vector<SortKey>& keys,
                         std::optional<int64_t> limit = std::nullopt);
// The same as sort(); a name argument-dependent lookup cannot confuse with std::sort when
// called unqualified with braced arguments.
inline Result<ColumnBatch> sort_batches(std::vector<ColumnBatch> batches,
                                        const std::vector<SortKey>& keys,
                                        std::optional<int64_t> limit = std::nullopt) {
  return sort(std::move(batches), keys, limit);
}

}  // namespace floe::sql
