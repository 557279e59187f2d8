// Large memory blocks backed by transparent huge pages where the kernel offers them.
#pragma once

#include <cstddef>

namespace floe {

// One block of memory for large arrays. Blocks of 2 MB and more are mapped with transparent
// huge pages where the kernel offers them (madvise mode): touching fresh 4 KB pages costs
// 5-25 us each on virtual machines, which for arrays of hundreds of MB is most of the time spent
// filling them. Smaller blocks come from malloc. The memory is uninitialized.
class HugePageBlock {
 public:
  static constexpr size_t kHuge = size_t{2} << 20;
  HugePageBlock() = default;
  // Throws std::bad_alloc when no memory is available.
  explicit HugePageBlock(size_t bytes);
  ~HugePageBlock();
  HugePageBlock(HugePageBlock&& o) noexcept : data_(o.data_), size_(o.size_), mapped_(o.mapped_) {
    o.data_ = nullptr;
  }
  HugePageBlock& operator=(HugePageBlock&& o) noexcept;
  char* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  char* data_ = nullptr;
  size_t size_ = 0;
  size_t mapped_ = 0;  // the whole mapping (data_ is 2 MB-aligned inside it); 0 = malloc
};

}  // namespace floe
