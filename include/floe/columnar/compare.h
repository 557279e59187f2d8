// The total order over column values that sorting uses everywhere (the SQL engine's ORDER BY,
// writers that sort rows by a table's sort order): Spark's order, which is also the order the
// Iceberg spec's sort orders ask for. NaN sorts above every other number and -0.0 equals 0.0;
// strings and binary compare by unsigned bytes (UTF-8 code point order); structs and lists
// compare element-wise, then by length; maps entry-wise in stored order.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "floe/columnar/column_vector.h"

namespace floe {

// Three-way comparison of two doubles in that order (NaN equal to NaN and above everything).
inline int compare_doubles(double a, double b) {
  bool an = std::isnan(a), bn = std::isnan(b);
  if (an || bn) return an == bn ? 0 : (an ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}

// Total order of a[i] against b[j] (same types), <0, 0, >0; nulls before everything when
// nulls_first, else after. Ascending order; callers negate for DESC (keeping null placement).
int compare_values(const ColumnVector& a, int64_t i, const ColumnVector& b, int64_t j,
                   bool nulls_first = true);

// One sort key: a column index, a direction and where nulls go (Spark default: nulls first for
// ASC, last for DESC).
struct SortKey {
  int column = 0;
  bool ascending = true;
  std::optional<bool> nulls_first;

  SortKey() = default;
  SortKey(int column, bool ascending = true, std::optional<bool> nulls_first = std::nullopt)
      : column(column), ascending(ascending), nulls_first(nulls_first) {}

  bool effective_nulls_first() const { return nulls_first.value_or(ascending); }
};

// Compares row i of `a` with row j of `b` by `keys` (columns by index in both).
int compare_rows(const std::vector<ColumnPtr>& a, int64_t i, const std::vector<ColumnPtr>& b,
                 int64_t j, const std::vector<SortKey>& keys);

}  // namespace floe
