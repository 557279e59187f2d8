// HugePageBlock: mmap + madvise(MADV_HUGEPAGE) for blocks of 2 MB and more, malloc otherwise.
#include "floe/util/huge_page_allocator.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>

namespace floe {

HugePageBlock::HugePageBlock(size_t bytes) : size_(bytes) {
#ifdef MADV_HUGEPAGE
  if (bytes >= kHuge) {
    // Over-map by 2 MB and trim to an aligned range: huge pages need aligned addresses.
    size_t length = bytes + kHuge;
    void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
      uintptr_t start = reinterpret_cast<uintptr_t>(p);
      uintptr_t aligned = (start + kHuge - 1) & ~(uintptr_t{kHuge} - 1);
      if (aligned > start) munmap(p, aligned - start);
      size_t tail = start + length - (aligned + bytes);
      if (tail > 0) munmap(reinterpret_cast<void*>(aligned + bytes), tail);
      data_ = reinterpret_cast<char*>(aligned);
      mapped_ = bytes;
      madvise(data_, bytes, MADV_HUGEPAGE);
      return;
    }
  }
#endif
  data_ = static_cast<char*>(std::malloc(bytes));
  if (data_ == nullptr) throw std::bad_alloc();
}

HugePageBlock::~HugePageBlock() {
  if (data_ == nullptr) return;
#ifdef MADV_HUGEPAGE
  if (mapped_ > 0) {
    munmap(data_, mapped_);
    return;
  }
#endif
  std::free(data_);
}

HugePageBlock& HugePageBlock::operator=(HugePageBlock&& o) noexcept {
  if (this != &o) {
    this->~HugePageBlock();
    data_ = o.data_;
    size_ = o.size_;
    mapped_ = o.mapped_;
    o.data_ = nullptr;
  }
  return *this;
}

}  // namespace floe
