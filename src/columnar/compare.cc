// The total order over column values (floe/columnar/compare.h).
#include "floe/columnar/compare.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string_view>

namespace floe {

namespace {

template <typename T>
inline int three_way(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

inline int bytes_cmp(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size());
  int c = n ? std::memcmp(a.data(), b.data(), n) : 0;
  if (c != 0) return c < 0 ? -1 : 1;
  return three_way(a.size(), b.size());
}

}  // namespace

int compare_values(const ColumnVector& a, int64_t i, const ColumnVector& b, int64_t j,
                   bool nulls_first) {
  bool an = a.is_null(i), bn = b.is_null(j);
  if (an || bn) {
    if (an && bn) return 0;
    return (an == nulls_first) ? -1 : 1;
  }
  switch (a.type_id()) {
    case TypeId::kBoolean:
      return three_way(a.raw<uint8_t>()[i] != 0, b.raw<uint8_t>()[j] != 0);
    case TypeId::kInt:
    case TypeId::kDate:
      return three_way(a.raw<int32_t>()[i], b.raw<int32_t>()[j]);
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return three_way(a.raw<int64_t>()[i], b.raw<int64_t>()[j]);
    case TypeId::kFloat:
      return compare_doubles(a.raw<float>()[i], b.raw<float>()[j]);
    case TypeId::kDouble:
      return compare_doubles(a.raw<double>()[i], b.raw<double>()[j]);
    case TypeId::kDecimal:
      return three_way(a.raw<int128_t>()[i], b.raw<int128_t>()[j]);
    case TypeId::kStruct:
      for (size_t c = 0; c < a.num_children(); ++c) {
        int r = compare_values(a.child(c), i, b.child(c), j, true);
        if (r != 0) return r;
      }
      return 0;
    case TypeId::kList:
    case TypeId::kMap: {
      int32_t ab = a.list_begin(i), ae = a.list_end(i);
      int32_t bb = b.list_begin(j), be = b.list_end(j);
      int32_t n = std::min(ae - ab, be - bb);
      for (int32_t k = 0; k < n; ++k) {
        for (size_t c = 0; c < a.num_children(); ++c) {
          int r = compare_values(a.child(c), ab + k, b.child(c), bb + k, true);
          if (r != 0) return r;
        }
      }
      return three_way(ae - ab, be - bb);
    }
    case TypeId::kUnknown:
      return 0;
    default:
      return bytes_cmp(a.bytes_at(i), b.bytes_at(j));
  }
}

int compare_rows(const std::vector<ColumnPtr>& a, int64_t i, const std::vector<ColumnPtr>& b,
                 int64_t j, const std::vector<SortKey>& keys) {
  for (const SortKey& k : keys) {
    const ColumnVector& x = *a[static_cast<size_t>(k.column)];
    const ColumnVector& y = *b[static_cast<size_t>(k.column)];
    bool xn = x.is_null(i), yn = y.is_null(j);
    if (xn || yn) {
      if (xn && yn) continue;
      return (xn == k.effective_nulls_first()) ? -1 : 1;
    }
    int c = compare_values(x, i, y, j, true);
    if (c != 0) return k.ascending ? c : -c;
  }
  return 0;
}

}  // namespace floe
