// StringArena: bump allocation in doubling HugePageBlocks.
#include "floe/util/string_arena.h"

#include <algorithm>
#include <cstdint>

namespace floe {

char* StringArena::allocate(size_t bytes, size_t align) {
  size_t pad = (align - reinterpret_cast<uintptr_t>(at_) % align) % align;
  if (at_ == nullptr || pad + bytes > left_) {
    // Blocks double up to 2 MB: small arenas stay small.
    size_t size =
        blocks_.empty() ? kFirstBlock : std::min(HugePageBlock::kHuge, blocks_.back().size() * 2);
    size = std::max(size, bytes + align);
    blocks_.emplace_back(size);
    at_ = blocks_.back().data();
    left_ = size;
    pad = (align - reinterpret_cast<uintptr_t>(at_) % align) % align;
  }
  char* out = at_ + pad;
  at_ += pad + bytes;
  left_ -= pad + bytes;
  return out;
}

std::string_view StringArena::copy(std::string_view s) {
  if (s.empty()) return {};
  char* out = allocate(s.size(), 1);
  std::memcpy(out, s.data(), s.size());
  return {out, s.size()};
}

}  // namespace floe
