// Deleted row positions of one data file, and the decoders that produce them: Iceberg
// deletion vectors (Puffin `deletion-vector-v1` blobs) and the portable 64-bit Roaring format
// inside them, parsed here (not by CRoaring, whose 0.2 readSafe is unsafe on bad input).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "floe/util/result.h"

namespace floe {

class PositionDeleteSet {
 public:
  void add(int64_t pos) { positions_.push_back(pos); }
  void add_many(const int64_t* pos, size_t n) { positions_.insert(positions_.end(), pos, pos + n); }
  // Room for n more positions (so adding them does not reallocate).
  void reserve_more(int64_t n) { positions_.reserve(positions_.size() + static_cast<size_t>(n)); }
  void add_range(int64_t begin, int64_t end);  // [begin, end)
  void merge(const PositionDeleteSet& other);
  // Sorts and removes duplicates; call after adding.
  void finish();
  // The union of finished sets, finished: merged pairwise in linear passes (log2(k) of them for
  // k sets), not concatenated and sorted again.
  static PositionDeleteSet union_of(const std::vector<const PositionDeleteSet*>& finished);

  size_t cardinality() const { return positions_.size(); }
  bool empty() const { return positions_.empty(); }
  bool contains(int64_t pos) const;
  const std::vector<int64_t>& positions() const { return positions_; }

  // Clears keep[i] for every deleted position first_row + i, i < n. Walks the sorted
  // positions once (no per-row lookup).
  void apply(int64_t first_row, int64_t n, uint8_t* keep) const;

 private:
  std::vector<int64_t> positions_;  // sorted and unique after finish()
};

// The portable 64-bit Roaring serialization: u64 count, then per key (ascending) a u32 key and
// a standard 32-bit Roaring bitmap (cookie 12346 or 12347). Keys above 2^31 - 2 cannot hold row
// positions and are rejected, as Java does. A position at or past `limit` (the data file's
// record count, when known) is an error, found before a container is expanded: a few bytes of
// runs cannot turn into billions of positions.
Status parse_roaring64_portable(std::string_view bytes, PositionDeleteSet* out,
                                int64_t limit = INT64_MAX);

// A deletion-vector blob: u32 big-endian length (4 + bitmap bytes), magic D1 D3 39 64, the
// portable 64-bit bitmap, and a big-endian CRC-32 of magic + bitmap. `what` names the blob in
// errors; `limit` as for parse_roaring64_portable.
Result<PositionDeleteSet> parse_deletion_vector(std::string_view blob, std::string_view what,
                                                int64_t limit = INT64_MAX);

// Writing deletion vectors: include/floe/write/deletion_vector_writer.h.

}  // namespace floe
