// Row hashing, grouping equality, the Spark total order, and GroupTable.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "sql/exec/relational_internal.h"

namespace floe::sql {
namespace {

constexpr uint64_t kNullHash = 0x6a09e667f3bcc909ULL;
constexpr uint64_t kSeed = 0x9e3779b97f4a7c15ULL;

inline uint64_t fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

inline uint64_t combine(uint64_t h, uint64_t v) {
  return fmix64(h ^ (v + kSeed + (h << 6) + (h >> 2)));
}

inline uint64_t hash_bytes(const char* p, size_t n) {
  uint64_t h = n * kSeed;
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0x87c37b91114253d5ULL;
    h = std::rotl(h, 31);
    p += 8;
    n -= 8;
  }
  uint64_t w = 0;  // tail of < 8 bytes: a loop, not a libc call per value
  for (size_t i = 0; i < n; ++i) w |= uint64_t{static_cast<uint8_t>(p[i])} << (8 * i);
  h ^= w;
  return fmix64(h);
}

inline uint64_t float_bits(double v) {
  if (v == 0.0) return 0;  // -0.0 = 0.0
  if (std::isnan(v)) return 0x7ff8000000000000ULL;
  return std::bit_cast<uint64_t>(v);
}

template <typename T, typename F>
void hash_fixed(const ColumnVector& col, int64_t n, uint64_t* out, F bits) {
  const T* v = col.raw<T>();
  if (col.null_count() == 0) {
    for (int64_t i = 0; i < n; ++i) out[i] = combine(out[i], bits(v[i]));
  } else {
    for (int64_t i = 0; i < n; ++i) {
      out[i] = combine(out[i], col.is_null(i) ? kNullHash : bits(v[i]));
    }
  }
}

bool has_offsets_bytes(const ColumnVector& col) {
  return col.value_width() == 0 && col.num_children() == 0 && !col.offsets().empty();
}

}  // namespace

void hash_column_into(const ColumnVector& col, int64_t n, uint64_t* out) {
  const Type& t = *col.type();
  switch (t.id()) {
    case TypeId::kBoolean:
      return hash_fixed<uint8_t>(col, n, out, [](uint8_t v) { return uint64_t{v != 0}; });
    case TypeId::kInt:
    case TypeId::kDate:
      return hash_fixed<int32_t>(col, n, out, [](int32_t v) { return uint64_t(int64_t{v}); });
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return hash_fixed<int64_t>(col, n, out, [](int64_t v) { return uint64_t(v); });
    case TypeId::kFloat:
      return hash_fixed<float>(col, n, out, [](float v) { return float_bits(v); });
    case TypeId::kDouble:
      return hash_fixed<double>(col, n, out, [](double v) { return float_bits(v); });
    case TypeId::kDecimal:
      return hash_fixed<int128_t>(col, n, out, [](int128_t v) {
        return uint64_t(v) ^ fmix64(uint64_t(static_cast<unsigned __int128>(v) >> 64));
      });
    case TypeId::kStruct: {
      std::vector<uint64_t> tmp(static_cast<size_t>(n), kSeed);
      for (size_t c = 0; c < col.num_children(); ++c) hash_column_into(col.child(c), n, tmp.data());
      for (int64_t i = 0; i < n; ++i) out[i] = combine(out[i], col.is_null(i) ? kNullHash : tmp[i]);
      return;
    }
    case TypeId::kList:
    case TypeId::kMap: {
      int64_t m = col.num_children() ? col.child(0).length() : 0;
      std::vector<uint64_t> tmp(static_cast<size_t>(m), kSeed);
      for (size_t c = 0; c < col.num_children(); ++c) hash_column_into(col.child(c), m, tmp.data());
      for (int64_t i = 0; i < n; ++i) {
        if (col.is_null(i)) {
          out[i] = combine(out[i], kNullHash);
          continue;
        }
        int32_t b = col.list_begin(i), e = col.list_end(i);
        uint64_t h = static_cast<uint64_t>(e - b);
        for (int32_t k = b; k < e; ++k) h = combine(h, tmp[static_cast<size_t>(k)]);
        out[i] = combine(out[i], h);
      }
      return;
    }
    case TypeId::kUnknown:
      for (int64_t i = 0; i < n; ++i) out[i] = combine(out[i], kNullHash);
      return;
    default:
      break;
  }
  // string, binary, uuid, fixed, variant, geo: bytes.
  if (col.value_width() == 0 && !has_offsets_bytes(col)) {
    for (int64_t i = 0; i < n; ++i) out[i] = combine(out[i], kNullHash);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    if (col.is_null(i)) {
      out[i] = combine(out[i], kNullHash);
    } else {
      std::string_view s = col.bytes_at(i);
      out[i] = combine(out[i], hash_bytes(s.data(), s.size()));
    }
  }
}

void hash_rows(const std::vector<const ColumnVector*>& columns, int64_t n, uint64_t* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = kSeed;
  for (const ColumnVector* c : columns) hash_column_into(*c, n, out);
}

void hash_rows(const std::vector<ColumnPtr>& columns, int64_t n, uint64_t* out) {
  std::vector<const ColumnVector*> cols;
  for (const auto& c : columns) cols.push_back(c.get());
  hash_rows(cols, n, out);
}

namespace {

inline bool double_eq(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

}  // namespace

bool values_equal(const ColumnVector& a, int64_t i, const ColumnVector& b, int64_t j) {
  bool an = a.is_null(i), bn = b.is_null(j);
  if (an || bn) return an && bn;
  switch (a.type_id()) {
    case TypeId::kBoolean:
      return (a.raw<uint8_t>()[i] != 0) == (b.raw<uint8_t>()[j] != 0);
    case TypeId::kInt:
    case TypeId::kDate:
      return a.raw<int32_t>()[i] == b.raw<int32_t>()[j];
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return a.raw<int64_t>()[i] == b.raw<int64_t>()[j];
    case TypeId::kFloat:
      return double_eq(a.raw<float>()[i], b.raw<float>()[j]);
    case TypeId::kDouble:
      return double_eq(a.raw<double>()[i], b.raw<double>()[j]);
    case TypeId::kDecimal:
      return a.raw<int128_t>()[i] == b.raw<int128_t>()[j];
    case TypeId::kStruct:
      for (size_t c = 0; c < a.num_children(); ++c) {
        if (!values_equal(a.child(c), i, b.child(c), j)) return false;
      }
      return true;
    case TypeId::kList:
    case TypeId::kMap: {
      int32_t ab = a.list_begin(i), ae = a.list_end(i);
      int32_t bb = b.list_begin(j), be = b.list_end(j);
      if (ae - ab != be - bb) return false;
      for (size_t c = 0; c < a.num_children(); ++c) {
        for (int32_t k = 0; k < ae - ab; ++k) {
          if (!values_equal(a.child(c), ab + k, b.child(c), bb + k)) return false;
        }
      }
      return true;
    }
    case TypeId::kUnknown:
      return true;
    default:
      return a.bytes_at(i) == b.bytes_at(j);
  }
}

bool rows_equal(const std::vector<const ColumnVector*>& a, int64_t i,
                const std::vector<const ColumnVector*>& b, int64_t j) {
  for (size_t c = 0; c < a.size(); ++c) {
    if (!values_equal(*a[c], i, *b[c], j)) return false;
  }
  return true;
}

bool rows_equal(const std::vector<ColumnPtr>& a, int64_t i, const std::vector<ColumnPtr>& b,
                int64_t j) {
  for (size_t c = 0; c < a.size(); ++c) {
    if (!values_equal(*a[c], i, *b[c], j)) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// GroupTable

namespace {
constexpr size_t kInitialSlots = 1024;
// A slot holds the upper 32 bits of the hash (a cheap first filter) and the group id.
constexpr uint64_t kEmptySlot = ~uint64_t{0};
inline uint64_t make_slot(uint64_t h, int32_t g) {
  return (h & 0xFFFFFFFF00000000ULL) | static_cast<uint32_t>(g);
}

int fast_width(const TypePtr& type) {
  switch (type->id()) {
    case TypeId::kBoolean:
      return 1;
    case TypeId::kInt:
    case TypeId::kDate:
      return 4;
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return 8;
    default:
      return 0;
  }
}

template <typename T>
void normalize_floats(T* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if (v[i] == T(0)) {
      v[i] = T(0);
    } else if (std::isnan(v[i])) {
      v[i] = std::numeric_limits<T>::quiet_NaN();
    }
  }
}

inline uint64_t load_key(const ColumnVector& c, int64_t i, int width) {
  switch (width) {
    case 1:
      return c.raw<uint8_t>()[i] != 0;
    case 4:
      return static_cast<uint32_t>(c.raw<int32_t>()[i]);
    default:
      return static_cast<uint64_t>(c.raw<int64_t>()[i]);
  }
}
}  // namespace

GroupTable::GroupTable(std::vector<TypePtr> key_types) : key_types_(std::move(key_types)) {
  for (const auto& t : key_types_) {
    key_columns_.push_back(ColumnVector::make(t));
    stored_.push_back(key_columns_.back().get());
  }
  slots_.assign(kInitialSlots, kEmptySlot);
  mask_ = kInitialSlots - 1;
  for (const auto& t : key_types_) fixed_widths_.push_back(fast_width(t));
  if (std::find(fixed_widths_.begin(), fixed_widths_.end(), 0) != fixed_widths_.end()) {
    fixed_widths_.clear();
  }
  if (key_types_.empty()) num_groups_ = 1;
}

void GroupTable::grow() {
  size_t cap = slots_.size() * 2;
  slots_.assign(cap, kEmptySlot);
  mask_ = cap - 1;
  for (int64_t g = 0; g < num_groups_; ++g) {
    uint64_t h = group_hashes_[static_cast<size_t>(g)];
    uint64_t s = h & mask_;
    while (slots_[s] != kEmptySlot) s = (s + 1) & mask_;
    slots_[s] = make_slot(h, static_cast<int32_t>(g));
  }
}

int32_t GroupTable::probe(const std::vector<const ColumnVector*>& keys, int64_t row, uint64_t h,
                          const int32_t* pending, int64_t base) const {
  // Groups >= base were created by this call and are still rows pending[g - base] of `keys`.
  uint64_t s = h & mask_;
  if (!fixed_widths_.empty()) {
    // Integer-like keys: compare null flags and bits, no type dispatch per value.
    auto same = [&](int32_t g) {
      const bool stored = g < base;
      const int64_t at = stored ? g : pending[g - base];
      for (size_t c = 0; c < keys.size(); ++c) {
        const ColumnVector& k = *keys[c];
        const ColumnVector& o = stored ? *stored_[c] : k;
        bool null = k.is_null(row), onull = o.is_null(at);
        if (null != onull) return false;
        if (!null && load_key(k, row, fixed_widths_[c]) != load_key(o, at, fixed_widths_[c])) {
          return false;
        }
      }
      return true;
    };
    for (;;) {
      uint64_t e = slots_[s];
      if (e == kEmptySlot) return -1 - static_cast<int32_t>(s);
      int32_t g = static_cast<int32_t>(static_cast<uint32_t>(e));
      if ((e >> 32) == (h >> 32) && same(g)) return g;
      s = (s + 1) & mask_;
    }
  }
  for (;;) {
    uint64_t e = slots_[s];
    if (e == kEmptySlot) return -1 - static_cast<int32_t>(s);
    int32_t g = static_cast<int32_t>(static_cast<uint32_t>(e));
    if ((e >> 32) == (h >> 32) && group_hashes_[static_cast<size_t>(g)] == h) {
      bool eq = g < base ? rows_equal(keys, row, stored_, g)
                         : rows_equal(keys, row, keys, pending[g - base]);
      if (eq) return g;
    }
    s = (s + 1) & mask_;
  }
}

void GroupTable::find_or_insert(const std::vector<const ColumnVector*>& keys, int64_t n,
                                const uint64_t* hashes, int32_t* ids,
                                std::vector<int32_t>* new_rows) {
  if (key_types_.empty()) {
    std::fill(ids, ids + n, 0);
    return;
  }
  std::vector<uint64_t> local;
  if (hashes == nullptr) {
    local.resize(static_cast<size_t>(n));
    hash_rows(keys, n, local.data());
    hashes = local.data();
  }
  const int64_t base = num_groups_;
  std::vector<int32_t>& pending = pending_;
  pending.clear();
  constexpr int64_t kAhead = 16;
  for (int64_t r = 0; r < n; ++r) {
    if (r + kAhead < n) __builtin_prefetch(&slots_[hashes[r + kAhead] & mask_]);
    uint64_t h = hashes[r];
    int32_t g = probe(keys, r, h, pending.data(), base);
    if (g < 0) {
      size_t slot = static_cast<size_t>(-1 - g);
      g = static_cast<int32_t>(num_groups_++);
      pending.push_back(static_cast<int32_t>(r));
      group_hashes_.push_back(h);
      slots_[slot] = make_slot(h, g);
      if (static_cast<size_t>(num_groups_) * 2 > slots_.size()) grow();
    }
    ids[r] = g;
  }
  if (!pending.empty()) {
    for (size_t c = 0; c < keys.size(); ++c) {
      ColumnVector* dst = key_columns_[c].get();
      const int64_t from = dst->length();
      append_rows(*keys[c], pending.data(), static_cast<int64_t>(pending.size()), dst);
      // Like Spark's float normalisation: a group of -0.0 / 0.0 shows 0.0, every NaN one NaN.
      if (dst->type_id() == TypeId::kDouble) {
        normalize_floats(dst->mutable_raw<double>() + from, dst->length() - from);
      } else if (dst->type_id() == TypeId::kFloat) {
        normalize_floats(dst->mutable_raw<float>() + from, dst->length() - from);
      }
    }
    if (new_rows) new_rows->insert(new_rows->end(), pending.begin(), pending.end());
  }
}

void GroupTable::find(const std::vector<const ColumnVector*>& keys, int64_t n,
                      const uint64_t* hashes, int32_t* ids) const {
  if (key_types_.empty()) {
    std::fill(ids, ids + n, 0);
    return;
  }
  std::vector<uint64_t> local;
  if (hashes == nullptr) {
    local.resize(static_cast<size_t>(n));
    hash_rows(keys, n, local.data());
    hashes = local.data();
  }
  for (int64_t r = 0; r < n; ++r) {
    int32_t g = probe(keys, r, hashes[r], nullptr, num_groups_);
    ids[r] = g < 0 ? -1 : g;
  }
}

}  // namespace floe::sql
