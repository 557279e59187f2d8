// An arena for many small strings and arrays that live and die together.
#pragma once

#include <cstddef>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "floe/util/huge_page_allocator.h"

namespace floe {

// Bump allocation in blocks that double from 16 KB up to 2 MB (HugePageBlocks, so the large
// ones get huge pages): small arenas stay small, and millions of strings cost no allocation
// each. Nothing is freed before the arena; objects placed in it are never destroyed.
class StringArena {
 public:
  StringArena() = default;
  StringArena(const StringArena&) = delete;
  StringArena& operator=(const StringArena&) = delete;

  // `bytes` of uninitialized memory aligned to `align` (a power of two).
  char* allocate(size_t bytes, size_t align);
  // A copy of `s` in the arena (empty strings take no space).
  std::string_view copy(std::string_view s);
  // A copy of the trivially copyable `v` in the arena.
  template <typename T>
  std::span<const T> copy_array(const std::vector<T>& v) {
    if (v.empty()) return {};
    T* out = reinterpret_cast<T*>(allocate(v.size() * sizeof(T), alignof(T)));
    std::memcpy(out, v.data(), v.size() * sizeof(T));
    return {out, v.size()};
  }

 private:
  static constexpr size_t kFirstBlock = 16 * 1024;
  std::vector<HugePageBlock> blocks_;
  char* at_ = nullptr;
  size_t left_ = 0;
};

}  // namespace floe
