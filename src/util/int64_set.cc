// Int64Set (include/floe/util/int64_set.h).
#include "floe/util/int64_set.h"

namespace floe {

void Int64Set::reserve(size_t n) {
  size_t capacity = 16;
  while (capacity < 2 * n) capacity *= 2;
  if (capacity > slots_.size()) rehash(capacity);
}

void Int64Set::insert(int64_t v) {
  if (v == kEmpty) {
    has_empty_value_ = true;
    return;
  }
  if (2 * (size_ + 1) > slots_.size()) rehash(slots_.empty() ? 16 : 2 * slots_.size());
  for (size_t i = slot_of(v);; i = (i + 1) & mask_) {
    if (slots_[i] == v) return;
    if (slots_[i] == kEmpty) {
      slots_[i] = v;
      ++size_;
      return;
    }
  }
}

void Int64Set::rehash(size_t capacity) {
  std::vector<int64_t> old;
  old.swap(slots_);
  slots_.assign(capacity, kEmpty);
  mask_ = capacity - 1;
  shift_ = 64;
  for (size_t c = capacity; c > 1; c >>= 1) --shift_;
  size_ = 0;
  for (int64_t s : old) {
    if (s == kEmpty) continue;
    for (size_t i = slot_of(s);; i = (i + 1) & mask_) {
      if (slots_[i] == kEmpty) {
        slots_[i] = s;
        ++size_;
        break;
      }
    }
  }
}

}  // namespace floe
