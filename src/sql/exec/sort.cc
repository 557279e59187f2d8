// Sort and top-N: a permutation computed with order-preserving 64-bit key prefixes (exact for
// fixed-width keys up to 8 bytes, a first cut for decimals and bytes), then a gather.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <numeric>

#include "sql/exec/sort_internal.h"

namespace floe::sql {
namespace {

enum class PrefixKind { kExact, kPartial, kNone };

struct KeyData {
  const ColumnVector* col = nullptr;
  PrefixKind kind = PrefixKind::kNone;
  std::vector<uint64_t> prefix;
  bool ascending = true;
  bool nulls_first = true;
  bool has_nulls = false;
};

inline uint64_t double_key(double v) {
  if (v == 0.0) v = 0.0;
  if (std::isnan(v)) return ~uint64_t{0};  // above +inf
  uint64_t b = std::bit_cast<uint64_t>(v);
  return (b >> 63) ? ~b : (b | (uint64_t{1} << 63));
}

inline uint64_t bytes_key(std::string_view s) {
  const size_t n = std::min<size_t>(8, s.size());
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint64_t{static_cast<uint8_t>(s[i])} << (56 - 8 * i);
  return v;
}

template <typename F>
void fill(KeyData* k, int64_t n, F f) {
  k->prefix.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) k->prefix[static_cast<size_t>(i)] = f(i);
}

void build_prefix(KeyData* k, int64_t n) {
  const ColumnVector& c = *k->col;
  switch (c.type_id()) {
    case TypeId::kBoolean: {
      const uint8_t* v = c.raw<uint8_t>();
      fill(k, n, [&](int64_t i) { return uint64_t{v[i] != 0}; });
      k->kind = PrefixKind::kExact;
      return;
    }
    case TypeId::kInt:
    case TypeId::kDate: {
      const int32_t* v = c.raw<int32_t>();
      fill(k, n, [&](int64_t i) { return uint64_t(static_cast<uint32_t>(v[i]) ^ 0x80000000u); });
      k->kind = PrefixKind::kExact;
      return;
    }
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      const int64_t* v = c.raw<int64_t>();
      fill(k, n, [&](int64_t i) { return static_cast<uint64_t>(v[i]) ^ (uint64_t{1} << 63); });
      k->kind = PrefixKind::kExact;
      return;
    }
    case TypeId::kFloat: {
      const float* v = c.raw<float>();
      fill(k, n, [&](int64_t i) { return double_key(v[i]); });
      k->kind = PrefixKind::kExact;
      return;
    }
    case TypeId::kDouble: {
      const double* v = c.raw<double>();
      fill(k, n, [&](int64_t i) { return double_key(v[i]); });
      k->kind = PrefixKind::kExact;
      return;
    }
    case TypeId::kDecimal: {
      const int128_t* v = c.raw<int128_t>();
      bool small = true;  // every value fits a long: the low word is an exact key
      for (int64_t i = 0; i < n && small; ++i) {
        small = v[i] >= INT64_MIN && v[i] <= INT64_MAX;
      }
      if (small) {
        fill(k, n, [&](int64_t i) {
          return static_cast<uint64_t>(static_cast<int64_t>(v[i])) ^ (uint64_t{1} << 63);
        });
        k->kind = PrefixKind::kExact;
        return;
      }
      fill(k, n, [&](int64_t i) {
        return static_cast<uint64_t>(static_cast<unsigned __int128>(v[i]) >> 64) ^
               (uint64_t{1} << 63);
      });
      k->kind = PrefixKind::kPartial;
      return;
    }
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kUuid:
    case TypeId::kFixed:
      fill(k, n, [&](int64_t i) { return c.is_null(i) ? 0 : bytes_key(c.bytes_at(i)); });
      k->kind = PrefixKind::kPartial;
      return;
    default:
      k->kind = PrefixKind::kNone;
  }
}

// <0, 0, >0 for rows a, b by all keys (without the index tie-break).
inline int compare_keyed(const std::vector<KeyData>& keys, int32_t a, int32_t b) {
  for (const KeyData& k : keys) {
    if (k.has_nulls) {
      bool an = k.col->is_null(a), bn = k.col->is_null(b);
      if (an || bn) {
        if (an && bn) continue;
        return (an == k.nulls_first) ? -1 : 1;
      }
    }
    int c = 0;
    if (k.kind != PrefixKind::kNone) {
      uint64_t pa = k.prefix[static_cast<size_t>(a)], pb = k.prefix[static_cast<size_t>(b)];
      if (pa != pb) {
        c = pa < pb ? -1 : 1;
      } else if (k.kind == PrefixKind::kPartial) {
        c = compare_values(*k.col, a, *k.col, b, true);
      }
    } else {
      c = compare_values(*k.col, a, *k.col, b, true);
    }
    if (c != 0) return k.ascending ? c : -c;
  }
  return 0;
}

}  // namespace

Result<std::vector<int32_t>> sort_indices(const ColumnBatch& batch,
                                          const std::vector<SortKey>& keys,
                                          std::optional<int64_t> limit) {
  const int64_t n = batch.num_rows;
  if (n > INT32_MAX) return invalid_argument("sort: {} rows exceed the 2^31 row limit", n);
  std::vector<KeyData> kd;
  for (const SortKey& k : keys) {
    if (k.column < 0 || static_cast<size_t>(k.column) >= batch.columns.size()) {
      return invalid_argument("sort: key column {} out of range (batch has {} columns)", k.column,
                              batch.columns.size());
    }
    KeyData d;
    d.col = batch.columns[static_cast<size_t>(k.column)].get();
    d.ascending = k.ascending;
    d.nulls_first = k.effective_nulls_first();
    d.has_nulls = d.col->null_count() > 0;
    build_prefix(&d, n);
    kd.push_back(std::move(d));
  }
  int64_t want = limit ? std::clamp<int64_t>(*limit, 0, n) : n;

  if (kd.empty()) {
    std::vector<int32_t> idx(static_cast<size_t>(want));
    std::iota(idx.begin(), idx.end(), 0);
    return idx;
  }
  // The first key's prefix and null rank travel inline with the row index, so most comparisons
  // touch no column; ties fall back to the remaining keys (and to the first one when its
  // prefix is not exact), then to the index, which makes the order stable.
  struct Item {
    uint64_t key;
    int32_t index;
    uint16_t len;  // byte keys: value length (saturated); ties of short values resolve inline
    uint8_t rank;  // nulls first 0, values 1, nulls last 2
  };
  const bool bytes_key0 = kd[0].kind == PrefixKind::kPartial && kd[0].col->value_width() == 0;
  std::vector<Item> items(static_cast<size_t>(n));
  {
    const KeyData& k0 = kd[0];
    const bool desc = !k0.ascending;
    const uint8_t null_rank = k0.nulls_first ? 0 : 2;
    for (int64_t i = 0; i < n; ++i) {
      Item& it = items[static_cast<size_t>(i)];
      it.index = static_cast<int32_t>(i);
      if (k0.has_nulls && k0.col->is_null(i)) {
        it.rank = null_rank;
        it.key = 0;
        continue;
      }
      it.rank = 1;
      it.len = 0;
      uint64_t p = k0.kind == PrefixKind::kNone ? 0 : k0.prefix[static_cast<size_t>(i)];
      it.key = desc ? ~p : p;
      if (bytes_key0) {
        it.len = static_cast<uint16_t>(std::min<size_t>(k0.col->bytes_at(i).size(), 0xFFFF));
      }
    }
  }
  // `full`: every key but an exact first one; `tail`: the keys after the first.
  const bool desc0 = !kd[0].ascending;
  std::vector<KeyData> full, tail;
  for (size_t k = kd[0].kind == PrefixKind::kExact ? 1 : 0; k < kd.size(); ++k) {
    full.push_back(kd[k]);
  }
  for (size_t k = 1; k < kd.size(); ++k) tail.push_back(std::move(kd[k]));
  auto less = [&](const Item& a, const Item& b) {
    if (a.rank != b.rank) return a.rank < b.rank;
    if (a.key != b.key) return a.key < b.key;
    const std::vector<KeyData>* rest = &full;
    if (bytes_key0 && a.rank == 1 && a.len <= 8 && b.len <= 8) {
      // Both values lie entirely in the equal prefix: the shorter one is smaller.
      if (a.len != b.len) return desc0 ? a.len > b.len : a.len < b.len;
      rest = &tail;
    }
    if (!rest->empty()) {
      int c = compare_keyed(*rest, a.index, b.index);
      if (c != 0) return c < 0;
    }
    return a.index < b.index;
  };
  if (want < n && want < n / 4) {
    std::partial_sort(items.begin(), items.begin() + want, items.end(), less);
  } else {
    std::sort(items.begin(), items.end(), less);
  }
  std::vector<int32_t> out(static_cast<size_t>(want));
  for (int64_t i = 0; i < want; ++i) {
    out[static_cast<size_t>(i)] = items[static_cast<size_t>(i)].index;
  }
  return out;
}

Result<ColumnBatch> sort(std::vector<ColumnBatch> batches, const std::vector<SortKey>& keys,
                         std::optional<int64_t> limit) {
  if (batches.empty()) return ColumnBatch{};
  if (limit && !keys.empty() && batches.size() > 1) {
    // Top-N: cut every batch to its own first N rows before concatenating. Stable, because
    // each cut keeps the earliest of equal rows and the batches keep their order.
    int64_t total = 0;
    for (const auto& b : batches) total += b.num_rows;
    if (*limit < total / 4) {
      for (auto& b : batches) {
        if (b.num_rows <= *limit) continue;
        std::vector<int32_t> top = FLOE_TRY(sort_indices(b, keys, limit));
        b = gather(b, top);
      }
    }
  }
  ColumnBatch all = FLOE_TRY(concat_batches(batches));
  batches.clear();
  if (keys.empty()) return limit ? slice_batch(all, 0, *limit) : all;
  std::vector<int32_t> order = FLOE_TRY(sort_indices(all, keys, limit));
  return gather(all, order);
}

}  // namespace floe::sql
