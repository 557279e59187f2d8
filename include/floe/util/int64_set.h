// A set of 64-bit integers by open addressing (linear probing, at most half full): one probe
// is a multiply and, usually, one cache line, where std::unordered_set chases a node per
// lookup. Equality deletes on one integer column probe it once per data row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace floe {

class Int64Set {
 public:
  // Room for n values without growing.
  void reserve(size_t n);
  void insert(int64_t v);
  bool contains(int64_t v) const {
    if (v == kEmpty) return has_empty_value_;
    if (slots_.empty()) return false;
    for (size_t i = slot_of(v);; i = (i + 1) & mask_) {
      const int64_t s = slots_[i];
      if (s == v) return true;
      if (s == kEmpty) return false;
    }
  }
  size_t size() const { return size_ + (has_empty_value_ ? 1 : 0); }
  bool empty() const { return size() == 0; }
  // Calls fn(v) for every value, in no particular order.
  template <typename Fn>
  void for_each(Fn fn) const {
    if (has_empty_value_) fn(kEmpty);
    for (int64_t s : slots_) {
      if (s != kEmpty) fn(s);
    }
  }

 private:
  // The slot marker; the value itself is kept aside in has_empty_value_.
  static constexpr int64_t kEmpty = INT64_MIN;
  size_t slot_of(int64_t v) const {
    uint64_t x = static_cast<uint64_t>(v) * 0x9E3779B97F4A7C15ULL;  // Fibonacci hashing
    return static_cast<size_t>(x >> shift_);
  }
  void rehash(size_t capacity);

  std::vector<int64_t> slots_;
  size_t mask_ = 0;
  int shift_ = 64;
  size_t size_ = 0;  // values in slots_
  bool has_empty_value_ = false;
};

}  // namespace floe
