// The dictionary of one column chunk the Parquet writer builds page by page: the distinct
// values and each value's index, with the fallback to PLAIN when it grows too large or the
// values look mostly distinct.
#pragma once

#include <cstdint>
#include <vector>

#include "floe/columnar/column_vector.h"

namespace floe::parquet::internal {

// Open-addressing dictionary of one column chunk, fed page by page.
class DictBuilder {
 public:
  // `presize`: the next chunk likely has as many distinct values as this one, so its table
  // starts at this one's size instead of growing (and rehashing) up to it again.
  void reset(const TypePtr& type, bool presize = false);
  // Adds the dense values of `v`, writing their indices. Returns false when the dictionary
  // passes `limit` bytes or the values look mostly distinct (the caller stops using it).
  bool add(const ColumnVector& v, uint32_t* indices, int64_t limit);
  int64_t size() const { return count_; }
  int64_t seen() const { return seen_; }
  // Bytes of the dictionary page's values (for estimated_size).
  int64_t byte_size() const { return width_ == 4 || width_ == 8 ? count_ * width_ : bytes_; }
  // The dictionary values, in index order.
  ColumnPtr uniques() const;

 private:
  template <typename K>
  struct Slot {
    K key;
    int32_t index;
  };

  // Every input bit reaches the low bits the table uses (doubles differ mostly in high bits).
  static uint64_t mix(uint64_t x);

  // Mostly distinct values: a dictionary would not pay.
  bool too_distinct() const { return seen_ == 65536 && count_ > 60000; }

  // Values are looked up in blocks: their hashes first (and, once the table outgrows the
  // cache, a prefetch of each one's slot), then the probes.
  static constexpr int64_t kBlock = 64;
  static constexpr size_t kCachedSlotBytes = 256 << 10;
  // hashes[j] = hash(j) for the m values of a block, and their slots fetched when `table` is
  // larger than the cache.
  template <typename S, typename H>
  static void hash_block(const std::vector<S>& table, int64_t m, H hash, uint64_t* hashes);

  // 4- and 8-byte values: keys compared as integers, not bytes, and stored in the slots so a
  // probe touches one cache line.
  template <typename K>
  bool add_fixed(const ColumnVector& v, uint32_t* indices, int64_t limit, std::vector<K>* keys);

  template <typename K>
  std::vector<Slot<K>>& slots();
  // Doubles the table; `hash` gives a slot's hash.
  template <typename K, typename H>
  static void grow_slots(std::vector<Slot<K>>* table, H hash);

  // Byte keys (strings, binary, fixed, uuid, decimal): slots hold each key's hash and index
  // into the uniques, whose bytes are compared only when the hashes match.
  bool add_bytes(const ColumnVector& v, uint32_t* indices, int64_t limit);

  TypePtr type_;
  int width_ = 0;
  std::vector<Slot<uint32_t>> slots4_;
  std::vector<Slot<uint64_t>> slots8_;
  std::vector<Slot<uint64_t>> slotsb_;  // byte keys: hash and index into the uniques
  std::vector<uint32_t> keys4_;
  std::vector<uint64_t> keys8_;
  ColumnPtr bytes_uniques_;
  int64_t count_ = 0, bytes_ = 0, seen_ = 0;
};

}  // namespace floe::parquet::internal
