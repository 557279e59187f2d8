#include "floe/util/buffer.h"

#include <cstdlib>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace floe {

namespace {

// Large blocks are recycled through a small process-wide cache. Decoders fill a fresh batch per
// row group and writers fresh pages per chunk; handing back the memory of the batch the caller
// just dropped saves page-faulting (and the kernel zeroing) tens of megabytes each time.
// Capacities are powers of two, so blocks of one size class fit each other exactly.
constexpr size_t kMinCachedBlock = size_t{1} << 20;
constexpr size_t kBlockCacheLimit = size_t{1} << 30;

struct BlockCache {
  std::mutex mu;
  std::vector<std::pair<size_t, void*>> blocks;  // (capacity, block), oldest first
  size_t bytes = 0;
};

BlockCache& block_cache() {
  static BlockCache* cache = new BlockCache();  // never destroyed: buffers may outlive statics
  return *cache;
}

void* alloc_block(size_t cap) {
  if (cap >= kMinCachedBlock) {
    BlockCache& c = block_cache();
    std::lock_guard<std::mutex> lock(c.mu);
    for (size_t i = c.blocks.size(); i-- > 0;) {
      if (c.blocks[i].first == cap) {
        void* p = c.blocks[i].second;
        c.blocks.erase(c.blocks.begin() + static_cast<std::ptrdiff_t>(i));
        c.bytes -= cap;
        return p;
      }
    }
  }
  // 64 bytes of slack let word-at-a-time writers run past the end safely.
  return std::aligned_alloc(64, cap + 64);
}

void free_block(void* p, size_t cap) {
  if (p == nullptr) return;
  if (cap >= kMinCachedBlock && cap <= kBlockCacheLimit / 4) {
    BlockCache& c = block_cache();
    std::vector<void*> evicted;
    {
      std::lock_guard<std::mutex> lock(c.mu);
      size_t drop = 0;
      while (c.bytes + cap > kBlockCacheLimit && drop < c.blocks.size()) {
        c.bytes -= c.blocks[drop].first;
        evicted.push_back(c.blocks[drop].second);
        ++drop;
      }
      c.blocks.erase(c.blocks.begin(), c.blocks.begin() + static_cast<std::ptrdiff_t>(drop));
      c.blocks.emplace_back(cap, p);
      c.bytes += cap;
    }
    for (void* e : evicted) std::free(e);
    return;
  }
  std::free(p);
}

}  // namespace

Buffer::~Buffer() { free_block(data_, capacity_); }

Buffer::Buffer(Buffer&& other) noexcept
    : data_(other.data_), size_(other.size_), capacity_(other.capacity_) {
  other.data_ = nullptr;
  other.size_ = other.capacity_ = 0;
}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    free_block(data_, capacity_);
    data_ = other.data_;
    size_ = other.size_;
    capacity_ = other.capacity_;
    other.data_ = nullptr;
    other.size_ = other.capacity_ = 0;
  }
  return *this;
}

void Buffer::grow(size_t n) {
  // Callers validate sizes; this only stops arithmetic overflow from looping or wrapping.
  if (n > (size_t{1} << 40)) throw std::bad_alloc();
  size_t cap = capacity_ < 64 ? 64 : capacity_;
  while (cap < n) cap *= 2;
  cap = (cap + 63) & ~size_t{63};
  void* p = alloc_block(cap);
  if (p == nullptr) throw std::bad_alloc();
  if (size_) std::memcpy(p, data_, size_);
  free_block(data_, capacity_);
  data_ = static_cast<uint8_t*>(p);
  capacity_ = cap;
}

}  // namespace floe
