// Column statistics of the Parquet writer: min/max of each page folded into the chunk's
// Parquet statistics, and on close the Iceberg metrics of each leaf by its metrics mode (Iceberg
// spec, Manifests: value, null and NaN counts, lower and upper bounds).
#include <cmath>
#include <cstring>

#include "format/parquet/column_statistics_internal.h"
#include "format/parquet/page_encoder_internal.h"

namespace floe::parquet::internal {

namespace {

// Smallest-first order of non-NaN floats with -0.0 < +0.0 (Iceberg's order).
template <typename F>
bool float_less(F a, F b) {
  return a < b || (a == b && std::signbit(a) && !std::signbit(b));
}

}  // namespace

// Parquet statistics bytes of dense value i.
std::string stat_bytes(const WLeaf& l, const ColumnVector& v, int64_t i) {
  std::string s;
  if (l.type->id() == TypeId::kString || l.type->id() == TypeId::kBinary) {
    return std::string(v.bytes_at(i));
  }
  encode_plain(l, v, i, i + 1, &s);
  return s;
}

// Index of the smallest and largest of the dense byte values of `v` (unsigned byte order). An
// 8-byte big-endian prefix decides most comparisons; the current extremes keep theirs.
void scan_bytes(const ColumnVector& v, int64_t* lo, int64_t* hi) {
  int64_t n = v.length();
  if (n == 0) return;
  bool var = v.value_width() == 0;
  const int32_t* off = var ? v.offsets().as<int32_t>() : nullptr;
  const char* base = reinterpret_cast<const char*>(var ? v.data().data() : v.values().data());
  size_t w = static_cast<size_t>(v.value_width());
  auto at = [&](int64_t i) {
    return var ? std::string_view(base + off[i], static_cast<size_t>(off[i + 1] - off[i]))
               : std::string_view(base + static_cast<size_t>(i) * w, w);
  };
  // Buffers keep 64 readable bytes past their end, so 8 bytes can always be loaded.
  auto prefix = [](std::string_view s) -> uint64_t {
    if (s.empty()) return 0;
    uint64_t x;
    std::memcpy(&x, s.data(), 8);
    if (s.size() < 8) x &= (uint64_t{1} << (s.size() * 8)) - 1;
    return __builtin_bswap64(x);
  };
  int64_t a = 0, b = 0;
  std::string_view sa = at(0), sb = sa;
  uint64_t pa = prefix(sa), pb = pa;
  for (int64_t i = 1; i < n; ++i) {
    std::string_view s = at(i);
    uint64_t p = prefix(s);
    if (p < pa || (p == pa && s < sa)) {
      a = i;
      sa = s;
      pa = p;
    }
    if (p > pb || (p == pb && sb < s)) {
      b = i;
      sb = s;
      pb = p;
    }
  }
  *lo = a;
  *hi = b;
}

// Index of the smallest and largest non-NaN dense value; false when there is none.
bool min_max(const WLeaf& l, const ColumnVector& v, int64_t* lo, int64_t* hi, int64_t* nans) {
  int64_t n = v.length();
  *nans = 0;
  *lo = *hi = -1;
  auto scan = [&](auto less, auto skip) {
    for (int64_t i = 0; i < n; ++i) {
      if (skip(i)) continue;
      if (*lo < 0) {
        *lo = *hi = i;
        continue;
      }
      if (less(i, *lo)) *lo = i;
      if (less(*hi, i)) *hi = i;
    }
  };
  auto never = [](int64_t) { return false; };
  // Plain numbers: branch-free running min/max, then the first index holding each.
  auto scan_num = [&](const auto* x) {
    if (n == 0) return;
    auto mn = x[0], mx = x[0];
    for (int64_t i = 1; i < n; ++i) {
      mn = x[i] < mn ? x[i] : mn;
      mx = x[i] > mx ? x[i] : mx;
    }
    int64_t a = 0, b = 0;
    while (x[a] != mn) ++a;
    while (x[b] != mx) ++b;
    *lo = a;
    *hi = b;
  };
  switch (l.type->id()) {
    case TypeId::kBoolean:
      scan_num(v.raw<uint8_t>());
      break;
    case TypeId::kInt:
    case TypeId::kDate:
      scan_num(v.raw<int32_t>());
      break;
    case TypeId::kFloat: {
      const float* x = v.raw<float>();
      scan([&](int64_t a, int64_t b) { return float_less(x[a], x[b]); },
           [&](int64_t i) {
             bool nan = std::isnan(x[i]);
             *nans += nan;
             return nan;
           });
      break;
    }
    case TypeId::kDouble: {
      const double* x = v.raw<double>();
      scan([&](int64_t a, int64_t b) { return float_less(x[a], x[b]); },
           [&](int64_t i) {
             bool nan = std::isnan(x[i]);
             *nans += nan;
             return nan;
           });
      break;
    }
    case TypeId::kDecimal: {
      auto at = [&](int64_t i) {
        int128_t y;
        std::memcpy(&y, v.values().data() + i * 16, 16);
        return y;
      };
      scan([&](int64_t a, int64_t b) { return at(a) < at(b); }, never);
      break;
    }
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixed:
    case TypeId::kUuid: {
      scan_bytes(v, lo, hi);
      break;
    }
    default:
      scan_num(v.raw<int64_t>());
      break;
  }
  return *lo >= 0;
}

void fold_page_statistics(WLeaf& l, const ColumnVector& v) {
  int64_t lo, hi, nans;
  if (min_max(l, v, &lo, &hi, &nans)) {
    Literal a = v.literal_at(lo), b = v.literal_at(hi);
    if (!l.rg_lo || a.compare(*l.rg_lo) < 0) {
      l.rg_lo = std::move(a);
      l.rg_lo_bytes = stat_bytes(l, v, lo);
    }
    if (!l.rg_hi || b.compare(*l.rg_hi) > 0) {
      l.rg_hi = std::move(b);
      l.rg_hi_bytes = stat_bytes(l, v, hi);
    }
  }
  l.rg_nans += nans;
}

Statistics finish_chunk_statistics(WLeaf& l) {
  int64_t nulls = l.rg_entries - l.rg_dense;
  Statistics stats;
  stats.null_count = nulls;
  if (l.rg_lo && l.rg_hi) {
    std::string mn = l.rg_lo_bytes, mx = l.rg_hi_bytes;
    if (l.type->id() == TypeId::kFloat || l.type->id() == TypeId::kDouble) {
      // Parquet: a zero minimum is written as -0.0, a zero maximum as +0.0.
      bool f = l.type->id() == TypeId::kFloat;
      double av = f ? l.rg_lo->as_float() : l.rg_lo->as_double();
      double bv = f ? l.rg_hi->as_float() : l.rg_hi->as_double();
      if (av == 0) mn[mn.size() - 1] = static_cast<char>(mn.back() | 0x80);
      if (bv == 0) mx[mx.size() - 1] = static_cast<char>(mx.back() & 0x7f);
    }
    stats.min_value = std::move(mn);
    stats.max_value = std::move(mx);
    if (!l.lower || l.rg_lo->compare(*l.lower) < 0) l.lower = *l.rg_lo;
    if (!l.upper || l.rg_hi->compare(*l.upper) > 0) l.upper = *l.rg_hi;
  }
  l.value_count += l.rg_entries;
  l.null_count += nulls;
  l.nan_count += l.rg_nans;
  return stats;
}

Status add_leaf_metrics(const WLeaf& l, DataFileMetrics* m) {
  if (l.mode.kind == MetricsMode::kNone) return Status::OK();
  m->value_counts[l.field_id] = l.value_count;
  m->null_value_counts[l.field_id] = l.null_count;
  if (l.type->id() == TypeId::kFloat || l.type->id() == TypeId::kDouble) {
    m->nan_value_counts[l.field_id] = l.nan_count;
  }
  if (l.mode.kind == MetricsMode::kCounts || l.in_repeated || !l.lower || !l.upper)
    return Status::OK();
  std::string lo = FLOE_TRY(l.lower->to_bytes());
  std::string hi = FLOE_TRY(l.upper->to_bytes());
  if (l.mode.kind == MetricsMode::kTruncate) {
    int n = l.mode.length;
    if (l.type->id() == TypeId::kString) {
      lo = truncate_lower_string(lo, n);
      auto up = truncate_upper_string(hi, n);
      m->lower_bounds[l.field_id] = lo;
      if (up) m->upper_bounds[l.field_id] = *up;
      return Status::OK();
    }
    if (l.type->id() == TypeId::kBinary) {
      lo = truncate_lower_binary(lo, n);
      auto up = truncate_upper_binary(hi, n);
      m->lower_bounds[l.field_id] = lo;
      if (up) m->upper_bounds[l.field_id] = *up;
      return Status::OK();
    }
  }
  m->lower_bounds[l.field_id] = lo;
  m->upper_bounds[l.field_id] = hi;
  return Status::OK();
}

}  // namespace floe::parquet::internal
