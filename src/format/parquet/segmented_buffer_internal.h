// SegmentedBuffer: bytes of a column chunk held in blocks (up to 1 MB) that are reused, never
// copied as they grow (the Parquet writer's pages wait there for their row group to be written).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "floe/util/buffer.h"
#include "floe/util/result.h"

namespace floe::parquet::internal {

// Bytes held as a list of blocks: growing never copies or touches more memory than it holds,
// and freed blocks go back to the Buffer block cache for the next file's column chunks (fresh
// memory costs a page fault per 4 KB). Blocks double from 4 KB up to 1 MB, so a chunk holds
// about what it has written: a file of 10,000 small columns does not reserve 10,000 MB.
class SegmentedBuffer {
 public:
  static constexpr size_t kFirstSegment = size_t{4} << 10;
  static constexpr size_t kSegment = size_t{1} << 20;

  void append(const void* p, size_t n) {
    const auto* src = static_cast<const uint8_t*>(p);
    size_ += n;
    while (n > 0) {
      if (cur_ == segs_.size()) {
        size_t cap =
            segs_.empty() ? kFirstSegment : std::min(kSegment, 2 * segs_.back().capacity());
        segs_.emplace_back();
        segs_.back().reserve(cap);
      }
      Buffer& seg = segs_[cur_];
      size_t k = std::min(n, seg.capacity() - seg.size());
      seg.append(src, k);
      src += k;
      n -= k;
      if (seg.size() == seg.capacity()) ++cur_;
    }
  }
  size_t size() const { return size_; }
  // Keeps the blocks for reuse.
  void clear() {
    for (size_t i = 0; i <= cur_ && i < segs_.size(); ++i) segs_[i].clear();
    cur_ = 0;
    size_ = 0;
  }
  // Calls f(data, size) on each block in order.
  template <typename F>
  Status for_each(F&& f) const {
    for (size_t i = 0; i <= cur_ && i < segs_.size(); ++i) {
      if (!segs_[i].empty()) FLOE_TRY(f(segs_[i].data(), segs_[i].size()));
    }
    return Status::OK();
  }

 private:
  std::vector<Buffer> segs_;
  size_t cur_ = 0;  // the block being filled
  size_t size_ = 0;
};

}  // namespace floe::parquet::internal
