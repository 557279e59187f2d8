#include "floe/read/position_delete_set.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>

#include "floe/util/compression.h"

namespace floe {

void PositionDeleteSet::add_range(int64_t begin, int64_t end) {
  positions_.reserve(positions_.size() + static_cast<size_t>(std::max<int64_t>(0, end - begin)));
  for (int64_t p = begin; p < end; ++p) positions_.push_back(p);
}

void PositionDeleteSet::merge(const PositionDeleteSet& other) {
  positions_.insert(positions_.end(), other.positions_.begin(), other.positions_.end());
}

void PositionDeleteSet::finish() {
  if (!std::is_sorted(positions_.begin(), positions_.end())) {
    std::sort(positions_.begin(), positions_.end());
  }
  positions_.erase(std::unique(positions_.begin(), positions_.end()), positions_.end());
}

namespace {

// Sets one bit per position (offset by `lo`) and reads them back in order: two linear passes,
// free of the data-dependent branches of a merge, when the range is dense enough.
std::vector<int64_t> union_by_bitmap(const std::vector<const PositionDeleteSet*>& finished,
                                     int64_t lo, uint64_t words, size_t total) {
  std::vector<uint64_t> bits(static_cast<size_t>(words), 0);
  for (const PositionDeleteSet* s : finished) {
    for (int64_t p : s->positions()) {
      const uint64_t d = static_cast<uint64_t>(p) - static_cast<uint64_t>(lo);
      bits[static_cast<size_t>(d >> 6)] |= uint64_t{1} << (d & 63);
    }
  }
  std::vector<int64_t> out;
  out.reserve(total);
  for (size_t w = 0; w < bits.size(); ++w) {
    for (uint64_t word = bits[w]; word != 0; word &= word - 1) {
      const uint64_t d =
          (static_cast<uint64_t>(w) << 6) | static_cast<uint64_t>(__builtin_ctzll(word));
      out.push_back(static_cast<int64_t>(static_cast<uint64_t>(lo) + d));
    }
  }
  return out;
}

std::vector<int64_t> union_by_merging(const std::vector<const PositionDeleteSet*>& finished) {
  std::vector<std::vector<int64_t>> runs;
  runs.reserve(finished.size());
  for (const PositionDeleteSet* s : finished) runs.push_back(s->positions());
  while (runs.size() > 1) {
    std::vector<std::vector<int64_t>> next;
    next.reserve((runs.size() + 1) / 2);
    for (size_t i = 0; i + 1 < runs.size(); i += 2) {
      std::vector<int64_t> m;
      m.reserve(runs[i].size() + runs[i + 1].size());
      std::set_union(runs[i].begin(), runs[i].end(), runs[i + 1].begin(), runs[i + 1].end(),
                     std::back_inserter(m));
      next.push_back(std::move(m));
    }
    if (runs.size() % 2 == 1) next.push_back(std::move(runs.back()));
    runs = std::move(next);
  }
  return std::move(runs[0]);
}

}  // namespace

PositionDeleteSet PositionDeleteSet::union_of(
    const std::vector<const PositionDeleteSet*>& finished) {
  PositionDeleteSet out;
  size_t total = 0;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (const PositionDeleteSet* s : finished) {
    if (s->empty()) continue;
    total += s->positions_.size();
    lo = std::min(lo, s->positions_.front());
    hi = std::max(hi, s->positions_.back());
  }
  if (total == 0) return out;
  // A bitmap over [lo, hi] when it has at most 4 words per position (deletes spread over a
  // data file's rows, the usual case); else pairwise merges (log2(k) passes for k sets).
  const uint64_t words = ((static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo)) >> 6) + 1;
  if (finished.size() > 2 && words <= 4 * static_cast<uint64_t>(total)) {
    out.positions_ = union_by_bitmap(finished, lo, words, total);
  } else {
    out.positions_ = union_by_merging(finished);
  }
  return out;
}

bool PositionDeleteSet::contains(int64_t pos) const {
  return std::binary_search(positions_.begin(), positions_.end(), pos);
}

void PositionDeleteSet::apply(int64_t first_row, int64_t n, uint8_t* keep) const {
  auto it = std::lower_bound(positions_.begin(), positions_.end(), first_row);
  const int64_t end = first_row + n;
  for (; it != positions_.end() && *it < end; ++it) keep[*it - first_row] = 0;
}

namespace {

constexpr uint32_t kCookieNoRuns = 12346;
constexpr uint32_t kCookieRuns = 12347;
constexpr uint32_t kMaxKey = 0x7FFFFFFE;  // Java: positions are non-negative longs

class Cursor {
 public:
  Cursor(std::string_view b, std::string_view what) : b_(b), what_(what) {}
  size_t pos() const { return pos_; }
  size_t remaining() const { return b_.size() - pos_; }
  Status need(size_t n) const {
    if (remaining() < n) {
      return invalid_data("{}: truncated Roaring bitmap at byte {} (needs {} more bytes)", what_,
                          pos_, n);
    }
    return Status::OK();
  }
  Result<uint16_t> u16() {
    FLOE_TRY(need(2));
    uint16_t v = static_cast<uint8_t>(b_[pos_]) | (static_cast<uint8_t>(b_[pos_ + 1]) << 8);
    pos_ += 2;
    return v;
  }
  Result<uint32_t> u32() {
    FLOE_TRY(need(4));
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b_[pos_ + i]);
    pos_ += 4;
    return v;
  }
  Result<uint64_t> u64() {
    uint64_t lo = FLOE_TRY(u32());
    uint64_t hi = FLOE_TRY(u32());
    return lo | (hi << 32);
  }
  Result<std::string_view> bytes(size_t n) {
    FLOE_TRY(need(n));
    std::string_view v = b_.substr(pos_, n);
    pos_ += n;
    return v;
  }
  std::string_view what() const { return what_; }

 private:
  std::string_view b_;
  std::string_view what_;
  size_t pos_ = 0;
};

Status beyond_limit(const Cursor& c, uint64_t position, int64_t limit) {
  return invalid_data("{}: position {} is past the end of a data file of {} rows", c.what(),
                      position, limit);
}

// One standard 32-bit Roaring bitmap (RoaringFormatSpec), positions offset by key << 32.
Status parse_roaring32(Cursor& c, uint64_t high, int64_t limit, PositionDeleteSet* out) {
  uint32_t cookie = FLOE_TRY(c.u32());
  uint32_t size = 0;
  std::string_view run_flags;
  bool has_offsets = true;
  if ((cookie & 0xFFFF) == kCookieRuns) {
    size = (cookie >> 16) + 1;
    run_flags = FLOE_TRY(c.bytes((size + 7) / 8));
    has_offsets = size >= 4;
  } else if (cookie == kCookieNoRuns) {
    size = FLOE_TRY(c.u32());
    if (size > 65536) return invalid_data("{}: Roaring bitmap with {} containers", c.what(), size);
  } else {
    return invalid_data("{}: bad Roaring cookie {} at byte {}", c.what(), cookie, c.pos() - 4);
  }
  std::vector<uint16_t> keys(size), cards(size);
  for (uint32_t i = 0; i < size; ++i) {
    keys[i] = FLOE_TRY(c.u16());
    cards[i] = FLOE_TRY(c.u16());
    if (i > 0 && keys[i] <= keys[i - 1]) {
      return invalid_data("{}: Roaring container keys out of order", c.what());
    }
  }
  if (has_offsets) FLOE_TRY(c.bytes(size * 4u));  // offsets: containers follow in order anyway
  for (uint32_t i = 0; i < size; ++i) {
    uint64_t base = (high << 32) | (static_cast<uint64_t>(keys[i]) << 16);
    uint32_t card = static_cast<uint32_t>(cards[i]) + 1;
    // Checked before a container is expanded: a few bytes of runs must not become billions of
    // positions of a file that has far fewer rows.
    if (static_cast<int64_t>(base) >= limit) return beyond_limit(c, base, limit);
    bool is_run = !run_flags.empty() && ((static_cast<uint8_t>(run_flags[i / 8]) >> (i % 8)) & 1);
    if (is_run) {
      uint16_t runs = FLOE_TRY(c.u16());
      for (uint16_t r = 0; r < runs; ++r) {
        uint32_t start = FLOE_TRY(c.u16());
        uint32_t len = static_cast<uint32_t>(FLOE_TRY(c.u16())) + 1;
        if (start + len > 65536) return invalid_data("{}: Roaring run past 65535", c.what());
        if (static_cast<int64_t>(base + start + len) > limit) {
          return beyond_limit(c, base + start + len - 1, limit);
        }
        out->add_range(static_cast<int64_t>(base + start),
                       static_cast<int64_t>(base + start + len));
      }
    } else if (card <= 4096) {
      std::string_view arr = FLOE_TRY(c.bytes(card * 2u));
      for (uint32_t k = 0; k < card; ++k) {
        uint16_t v = static_cast<uint8_t>(arr[2 * k]) | (static_cast<uint8_t>(arr[2 * k + 1]) << 8);
        if (static_cast<int64_t>(base + v) >= limit) return beyond_limit(c, base + v, limit);
        out->add(static_cast<int64_t>(base + v));
      }
    } else {
      std::string_view bits = FLOE_TRY(c.bytes(8192));
      for (uint32_t w = 0; w < 1024; ++w) {
        uint64_t word;
        std::memcpy(&word, bits.data() + w * 8, 8);
        while (word) {
          int bit = __builtin_ctzll(word);
          if (static_cast<int64_t>(base + w * 64 + bit) >= limit) {
            return beyond_limit(c, base + w * 64 + bit, limit);
          }
          out->add(static_cast<int64_t>(base + w * 64 + bit));
          word &= word - 1;
        }
      }
    }
  }
  return Status::OK();
}

}  // namespace

Status parse_roaring64_portable(std::string_view bytes, PositionDeleteSet* out, int64_t limit) {
  Cursor c(bytes, "deletion vector");
  uint64_t count = FLOE_TRY(c.u64());
  if (count > bytes.size()) {
    return invalid_data("deletion vector: {} bitmaps cannot fit in {} bytes", count, bytes.size());
  }
  int64_t last_key = -1;
  for (uint64_t i = 0; i < count; ++i) {
    uint32_t key = FLOE_TRY(c.u32());
    if (key > kMaxKey) return invalid_data("deletion vector: invalid unsigned key {}", key);
    if (static_cast<int64_t>(key) <= last_key) {
      return invalid_data("deletion vector: keys out of order ({} after {})", key, last_key);
    }
    last_key = key;
    FLOE_TRY(parse_roaring32(c, key, limit, out));
  }
  if (c.remaining() != 0) {
    return invalid_data("deletion vector: {} unexpected bytes after the bitmap", c.remaining());
  }
  out->finish();
  return Status::OK();
}

Result<PositionDeleteSet> parse_deletion_vector(std::string_view blob, std::string_view what,
                                                int64_t limit) {
  if (blob.size() < 12) {
    return invalid_data("{}: deletion vector of {} bytes is too short", what, blob.size());
  }
  auto be32 = [](const char* p) {
    return (static_cast<uint32_t>(static_cast<uint8_t>(p[0])) << 24) |
           (static_cast<uint32_t>(static_cast<uint8_t>(p[1])) << 16) |
           (static_cast<uint32_t>(static_cast<uint8_t>(p[2])) << 8) |
           static_cast<uint32_t>(static_cast<uint8_t>(p[3]));
  };
  uint32_t length = be32(blob.data());
  if (length + 8ull != blob.size()) {
    return invalid_data("{}: deletion vector length {} does not match the blob size {}", what,
                        length, blob.size());
  }
  std::string_view body = blob.substr(4, length);
  if (body.substr(0, 4) != std::string_view("\xD1\xD3\x39\x64", 4)) {
    return invalid_data("{}: bad deletion vector magic (not a deletion-vector-v1 blob)", what);
  }
  uint32_t stored_crc = be32(blob.data() + 4 + length);
  if (crc32(body) != stored_crc) {
    return invalid_data("{}: deletion vector CRC mismatch", what);
  }
  PositionDeleteSet set;
  Status s = parse_roaring64_portable(body.substr(4), &set, limit);
  if (!s.ok()) return s.with_context(std::string(what));
  return set;
}

}  // namespace floe
