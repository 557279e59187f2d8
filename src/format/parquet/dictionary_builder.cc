// The dictionary builder of the Parquet writer: open addressing, values looked up in blocks
// of hashes (see dictionary_builder_internal.h).
#include <algorithm>
#include <cstring>

#include "format/parquet/dictionary_builder_internal.h"
#include "format/parquet/encoding_internal.h"

namespace floe::parquet::internal {

namespace {

// Keys of at most 16 bytes as two words, from loads that stay inside the key (they overlap
// when it is shorter than 16 or 8 bytes): equal keys of one length give equal words.
void short_key_words(const uint8_t* p, size_t n, uint64_t* a, uint64_t* b) {
  if (n >= 8) {
    *a = load_le64(p);
    *b = load_le64(p + n - 8);
  } else if (n >= 4) {
    *a = load_le32(p);
    *b = load_le32(p + n - 4);
  } else if (n > 0) {
    *a = (uint64_t{p[0]} << 16) | (uint64_t{p[n / 2]} << 8) | p[n - 1];
    *b = 0;
  } else {
    *a = *b = 0;
  }
}

uint64_t hash_bytes(const uint8_t* p, size_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  if (n <= 16) {
    uint64_t a, b;
    short_key_words(p, n, &a, &b);
    h = (h ^ (a * 0xBF58476D1CE4E5B9ull)) * 0x94D049BB133111EBull;
    h = (h ^ (b * 0xBF58476D1CE4E5B9ull)) * 0x94D049BB133111EBull;
    return h ^ (h >> 32);
  }
  while (n >= 8) {
    uint64_t v = load_le64(p);
    h = (h ^ (v * 0xBF58476D1CE4E5B9ull)) * 0x94D049BB133111EBull;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  uint64_t v = 0;
  std::memcpy(&v, p, n);
  h = (h ^ (v * 0xBF58476D1CE4E5B9ull)) * 0x94D049BB133111EBull;
  return h ^ (h >> 32);
}

bool same_bytes(const uint8_t* a, const uint8_t* b, size_t n) {
  if (n > 16) return std::memcmp(a, b, n) == 0;
  uint64_t a0, a1, b0, b1;
  short_key_words(a, n, &a0, &a1);
  short_key_words(b, n, &b0, &b1);
  return a0 == b0 && a1 == b1;
}

}  // namespace

uint64_t DictBuilder::mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xFF51AFD7ED558CCDull;
  x ^= x >> 33;
  x *= 0xC4CEB9FE1A85EC53ull;
  return x ^ (x >> 33);
}

void DictBuilder::reset(const TypePtr& type, bool presize) {
  // Small to start with (a table of 10,000 columns has 10,000 dictionaries); it doubles as
  // values come, and `presize` starts the next chunk at this one's size.
  size_t slots = 64;
  while (presize && static_cast<int64_t>(slots) < 2 * count_) slots *= 2;
  type_ = type;
  width_ = ColumnVector::value_width(*type);
  slots4_.clear();
  slots8_.clear();
  slotsb_.clear();
  if (width_ == 4) {
    slots4_.assign(slots, Slot<uint32_t>{0, -1});
  } else if (width_ == 8) {
    slots8_.assign(slots, Slot<uint64_t>{0, -1});
  } else {
    slotsb_.assign(slots, Slot<uint64_t>{0, -1});
  }
  keys4_.clear();
  keys8_.clear();
  if (!bytes_uniques_ || !same_type(bytes_uniques_->type(), type)) {
    bytes_uniques_ = ColumnVector::make(type);
  } else {
    bytes_uniques_->clear();
  }
  count_ = 0;
  bytes_ = 0;
  seen_ = 0;
}

template <typename S, typename H>
void DictBuilder::hash_block(const std::vector<S>& table, int64_t m, H hash, uint64_t* hashes) {
  for (int64_t j = 0; j < m; ++j) hashes[j] = hash(j);
  if (table.size() * sizeof(S) > kCachedSlotBytes) {
    size_t mask = table.size() - 1;
    for (int64_t j = 0; j < m; ++j) __builtin_prefetch(&table[hashes[j] & mask]);
  }
}

template <typename K>
std::vector<DictBuilder::Slot<K>>& DictBuilder::slots() {
  if constexpr (sizeof(K) == 4) {
    return slots4_;
  } else {
    return slots8_;
  }
}

template <typename K, typename H>
void DictBuilder::grow_slots(std::vector<Slot<K>>* table, H hash) {
  std::vector<Slot<K>> next(table->size() * 2, Slot<K>{0, -1});
  size_t m2 = next.size() - 1;
  for (const Slot<K>& e : *table) {
    if (e.index < 0) continue;
    size_t sl = hash(e) & m2;
    while (next[sl].index >= 0) sl = (sl + 1) & m2;
    next[sl] = e;
  }
  *table = std::move(next);
}

template <typename K>
bool DictBuilder::add_fixed(const ColumnVector& v, uint32_t* indices, int64_t limit,
                            std::vector<K>* keys) {
  const int64_t n = v.length();
  const K* in = reinterpret_cast<const K*>(v.values().data());
  std::vector<Slot<K>>& table = slots<K>();
  if (table.empty()) table.assign(1024, Slot<K>{0, -1});
  uint64_t hashes[kBlock];
  for (int64_t b = 0; b < n; b += kBlock) {
    const int64_t m = std::min(kBlock, n - b);
    const K* x = in + b;
    hash_block(
        table, m, [&](int64_t j) { return mix(x[j]); }, hashes);
    for (int64_t j = 0; j < m; ++j) {
      K key = x[j];
      size_t mask = table.size() - 1;
      size_t slot = hashes[j] & mask;
      bool added = false;
      while (true) {
        Slot<K>& e = table[slot];
        if (e.key == key && e.index >= 0) {
          indices[b + j] = static_cast<uint32_t>(e.index);
          break;
        }
        if (e.index < 0) {
          e.key = key;
          e.index = static_cast<int32_t>(count_);
          keys->push_back(key);
          indices[b + j] = static_cast<uint32_t>(count_++);
          if (static_cast<size_t>(count_) * 2 > table.size()) {
            grow_slots(&table, [](const Slot<K>& s) { return mix(s.key); });
          }
          added = true;
          break;
        }
        slot = (slot + 1) & mask;
      }
      ++seen_;
      if ((added && count_ * static_cast<int64_t>(sizeof(K)) > limit) || too_distinct()) {
        return false;
      }
    }
  }
  return true;
}

bool DictBuilder::add_bytes(const ColumnVector& v, uint32_t* indices, int64_t limit) {
  const int64_t n = v.length();
  ColumnVector& u = *bytes_uniques_;
  const bool fixed = width_ > 0;
  const auto* vdata = fixed ? v.values().data() : v.data().data();
  const int32_t* voff = fixed ? nullptr : v.offsets().as<int32_t>();
  auto key_at = [&](int64_t i, size_t* len) {
    if (fixed) {
      *len = static_cast<size_t>(width_);
      return vdata + i * width_;
    }
    *len = static_cast<size_t>(voff[i + 1] - voff[i]);
    return vdata + voff[i];
  };
  auto unique_at = [&](int64_t e, size_t* len) {
    if (fixed) {
      *len = static_cast<size_t>(width_);
      return u.values().data() + e * width_;
    }
    const int32_t* o = u.offsets().as<int32_t>();
    *len = static_cast<size_t>(o[e + 1] - o[e]);
    return u.data().data() + o[e];
  };
  std::vector<Slot<uint64_t>>& table = slotsb_;
  if (table.empty()) table.assign(1024, Slot<uint64_t>{0, -1});
  uint64_t hashes[kBlock];
  for (int64_t b = 0; b < n; b += kBlock) {
    const int64_t m = std::min(kBlock, n - b);
    hash_block(
        table, m,
        [&](int64_t j) {
          size_t len;
          const uint8_t* p = key_at(b + j, &len);
          return hash_bytes(p, len);
        },
        hashes);
    for (int64_t j = 0; j < m; ++j) {
      const uint64_t h = hashes[j];
      size_t len;
      const uint8_t* p = key_at(b + j, &len);
      size_t mask = table.size() - 1;
      size_t slot = h & mask;
      bool added = false;
      while (true) {
        Slot<uint64_t>& e = table[slot];
        if (e.index < 0) {
          e.key = h;
          e.index = static_cast<int32_t>(count_);
          u.append_bytes(std::string_view(reinterpret_cast<const char*>(p), len));
          bytes_ += static_cast<int64_t>(len) + (fixed ? 0 : 4);
          indices[b + j] = static_cast<uint32_t>(count_++);
          if (static_cast<size_t>(count_) * 2 > table.size()) {
            grow_slots(&table, [](const Slot<uint64_t>& s) { return s.key; });
          }
          added = true;
          break;
        }
        if (e.key == h) {
          size_t ulen;
          const uint8_t* q = unique_at(e.index, &ulen);
          if (ulen == len && same_bytes(p, q, len)) {
            indices[b + j] = static_cast<uint32_t>(e.index);
            break;
          }
        }
        slot = (slot + 1) & mask;
      }
      ++seen_;
      if ((added && bytes_ > limit) || too_distinct()) return false;
    }
  }
  return true;
}

bool DictBuilder::add(const ColumnVector& v, uint32_t* indices, int64_t limit) {
  if (width_ == 4) return add_fixed<uint32_t>(v, indices, limit, &keys4_);
  if (width_ == 8) return add_fixed<uint64_t>(v, indices, limit, &keys8_);
  return add_bytes(v, indices, limit);
}

ColumnPtr DictBuilder::uniques() const {
  if (width_ != 4 && width_ != 8) return bytes_uniques_;
  ColumnPtr u = ColumnVector::make(type_);
  if (width_ == 4) {
    u->values().append(keys4_.data(), keys4_.size() * 4);
  } else {
    u->values().append(keys8_.data(), keys8_.size() * 8);
  }
  u->set_length(count_);
  return u;
}

}  // namespace floe::parquet::internal
