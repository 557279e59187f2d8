#include "floe/format/parquet/writer.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

#include "floe/spec/table_properties.h"
#include "floe/util/thread_pool.h"
#include "format/parquet/codec_internal.h"
#include "format/parquet/encoding_internal.h"

namespace floe::parquet {

using internal::bit_width_of;
using internal::encode_rle;
using internal::PageCodec;

Result<WriterOptions> WriterOptions::from_properties(
    const std::map<std::string, std::string>& props, const Schema& schema) {
  namespace tp = table_properties;
  WriterOptions o;
  auto get = [&](std::string_view key) -> const std::string* {
    auto it = props.find(std::string(key));
    return it == props.end() ? nullptr : &it->second;
  };
  auto get_int = [&](std::string_view key, int64_t* out) -> Status {
    if (const std::string* v = get(key)) {
      char* end = nullptr;
      long long x = std::strtoll(v->c_str(), &end, 10);
      if (end == v->c_str() || *end != '\0' || x <= 0) {
        return invalid_argument("table property {}={} is not a positive integer", key, *v);
      }
      *out = x;
    }
    return Status::OK();
  };
  if (const std::string* c = get(tp::kParquetCompression)) {
    std::string v;
    for (char ch : *c) v.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
    if (v == "zstd") {
      o.codec = Codec::kZstd;
    } else if (v == "snappy") {
      o.codec = Codec::kSnappy;
    } else if (v == "gzip") {
      o.codec = Codec::kGzip;
      o.compression_level = 6;
    } else if (v == "lz4" || v == "lz4_raw") {
      o.codec = Codec::kLz4Raw;
    } else if (v == "uncompressed" || v == "none") {
      o.codec = Codec::kUncompressed;
    } else {
      return not_supported("{}={} is not supported", tp::kParquetCompression, *c);
    }
  }
  int64_t level = o.compression_level;
  FLOE_TRY(get_int(tp::kParquetCompressionLevel, &level));
  o.compression_level = static_cast<int>(level);
  FLOE_TRY(get_int(tp::kParquetRowGroupSizeBytes, &o.row_group_size_bytes));
  FLOE_TRY(get_int(tp::kParquetPageSizeBytes, &o.page_size_bytes));
  FLOE_TRY(get_int(tp::kParquetPageRowLimit, &o.page_row_limit));
  FLOE_TRY(get_int(tp::kParquetDictSizeBytes, &o.dict_size_bytes));
  o.metrics = FLOE_TRY(MetricsConfig::from_properties(props, schema));
  return o;
}

// ---------------------------------------------------------------------------------------------
// Writer internals

namespace {

// Keys of at most 16 bytes as two words, from loads that stay inside the key (they overlap
// when it is shorter than 16 or 8 bytes): equal keys of one length give equal words.
void short_key_words(const uint8_t* p, size_t n, uint64_t* a, uint64_t* b) {
  if (n >= 8) {
    *a = internal::load_le64(p);
    *b = internal::load_le64(p + n - 8);
  } else if (n >= 4) {
    *a = internal::load_le32(p);
    *b = internal::load_le32(p + n - 4);
  } else if (n > 0) {
    *a = (uint64_t{p[0]} << 16) | (uint64_t{p[n / 2]} << 8) | p[n - 1];
    *b = 0;
  } else {
    *a = *b = 0;
  }
}

uint64_t hash_bytes(const uint8_t* p, size_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  if (n <= 16) {
    uint64_t a, b;
    short_key_words(p, n, &a, &b);
    h = (h ^ (a * 0xBF58476D1CE4E5B9ull)) * 0x94D049BB133111EBull;
    h = (h ^ (b * 0xBF58476D1CE4E5B9ull)) * 0x94D049BB133111EBull;
    return h ^ (h >> 32);
  }
  while (n >= 8) {
    uint64_t v = internal::load_le64(p);
    h = (h ^ (v * 0xBF58476D1CE4E5B9ull)) * 0x94D049BB133111EBull;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  uint64_t v = 0;
  std::memcpy(&v, p, n);
  h = (h ^ (v * 0xBF58476D1CE4E5B9ull)) * 0x94D049BB133111EBull;
  return h ^ (h >> 32);
}

bool same_bytes(const uint8_t* a, const uint8_t* b, size_t n) {
  if (n > 16) return std::memcmp(a, b, n) == 0;
  uint64_t a0, a1, b0, b1;
  short_key_words(a, n, &a0, &a1);
  short_key_words(b, n, &b0, &b1);
  return a0 == b0 && a1 == b1;
}

struct WNode {
  enum Kind { kPrim, kStruct, kList, kMap };
  Kind kind = kPrim;
  bool optional = false;
  bool required_field = false;
  int16_t rep = 0;  // list/map: rep level of the repeated group
  int leaf = -1;
  std::vector<WNode> children;
  std::vector<int> leaves;  // every leaf under this node
};

int decimal_flba_length(int precision) {
  static const int kLen[] = {9,  9,  9,  10, 10, 11, 11, 11, 12, 12,
                             13, 13, 13, 14, 14, 15, 15, 16, 16, 16};
  return precision <= 18 ? 8 : kLen[std::min(precision, 38) - 19];
}

Status primitive_element(const Type& t, SchemaElement* e) {
  LogicalType& lt = e->logical_type;
  switch (t.id()) {
    case TypeId::kBoolean:
      e->type = PhysicalType::kBoolean;
      return Status::OK();
    case TypeId::kInt:
      e->type = PhysicalType::kInt32;
      return Status::OK();
    case TypeId::kLong:
      e->type = PhysicalType::kInt64;
      return Status::OK();
    case TypeId::kFloat:
      e->type = PhysicalType::kFloat;
      return Status::OK();
    case TypeId::kDouble:
      e->type = PhysicalType::kDouble;
      return Status::OK();
    case TypeId::kDate:
      e->type = PhysicalType::kInt32;
      lt.kind = LogicalType::kDate;
      e->converted_type = ConvertedType::kDate;
      return Status::OK();
    case TypeId::kTime:
      e->type = PhysicalType::kInt64;
      lt.kind = LogicalType::kTime;
      lt.unit = TimeUnit::kMicros;
      lt.adjusted_to_utc = false;
      e->converted_type = ConvertedType::kTimeMicros;
      return Status::OK();
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      e->type = PhysicalType::kInt64;
      lt.kind = LogicalType::kTimestamp;
      bool ns = t.id() == TypeId::kTimestampNs || t.id() == TypeId::kTimestampTzNs;
      lt.unit = ns ? TimeUnit::kNanos : TimeUnit::kMicros;
      lt.adjusted_to_utc = t.id() == TypeId::kTimestampTz || t.id() == TypeId::kTimestampTzNs;
      // The converted type implies UTC; write it only where it is true.
      if (!ns && lt.adjusted_to_utc) e->converted_type = ConvertedType::kTimestampMicros;
      return Status::OK();
    }
    case TypeId::kString:
      e->type = PhysicalType::kByteArray;
      lt.kind = LogicalType::kString;
      e->converted_type = ConvertedType::kUtf8;
      return Status::OK();
    case TypeId::kBinary:
      e->type = PhysicalType::kByteArray;
      return Status::OK();
    case TypeId::kUuid:
      e->type = PhysicalType::kFixedLenByteArray;
      e->type_length = 16;
      lt.kind = LogicalType::kUuid;
      return Status::OK();
    case TypeId::kFixed:
      e->type = PhysicalType::kFixedLenByteArray;
      e->type_length = t.length();
      return Status::OK();
    case TypeId::kDecimal:
      if (t.precision() <= 9) {
        e->type = PhysicalType::kInt32;
      } else if (t.precision() <= 18) {
        e->type = PhysicalType::kInt64;
      } else {
        e->type = PhysicalType::kFixedLenByteArray;
        e->type_length = decimal_flba_length(t.precision());
      }
      lt.kind = LogicalType::kDecimal;
      lt.precision = t.precision();
      lt.scale = t.scale();
      e->converted_type = ConvertedType::kDecimal;
      e->precision = t.precision();
      e->scale = t.scale();
      return Status::OK();
    default:
      return not_supported("writing {} columns to Parquet is not supported", t.to_string());
  }
}

// Smallest-first order of non-NaN floats with -0.0 < +0.0 (Iceberg's order).
template <typename F>
bool float_less(F a, F b) {
  return a < b || (a == b && std::signbit(a) && !std::signbit(b));
}

// Open-addressing dictionary of one column chunk, fed page by page.
class DictBuilder {
 public:
  // `presize`: the next chunk likely has as many distinct values as this one, so its table
  // starts at this one's size instead of growing (and rehashing) up to it again.
  void reset(const TypePtr& type, bool presize = false) {
    size_t slots = 1024;
    while (presize && static_cast<int64_t>(slots) < 2 * count_) slots *= 2;
    type_ = type;
    width_ = ColumnVector::value_width(*type);
    slots4_.clear();
    slots8_.clear();
    slotsb_.clear();
    if (width_ == 4) {
      slots4_.assign(slots, Slot<uint32_t>{0, -1});
    } else if (width_ == 8) {
      slots8_.assign(slots, Slot<uint64_t>{0, -1});
    } else {
      slotsb_.assign(slots, Slot<uint64_t>{0, -1});
    }
    keys4_.clear();
    keys8_.clear();
    if (!bytes_uniques_ || !same_type(bytes_uniques_->type(), type)) {
      bytes_uniques_ = ColumnVector::make(type);
    } else {
      bytes_uniques_->clear();
    }
    count_ = 0;
    bytes_ = 0;
    seen_ = 0;
  }
  // Adds the dense values of `v`, writing their indices. Returns false when the dictionary
  // passes `limit` bytes or the values look mostly distinct (the caller stops using it).
  bool add(const ColumnVector& v, uint32_t* indices, int64_t limit) {
    if (width_ == 4) return add_fixed<uint32_t>(v, indices, limit, &keys4_);
    if (width_ == 8) return add_fixed<uint64_t>(v, indices, limit, &keys8_);
    return add_bytes(v, indices, limit);
  }
  int64_t size() const { return count_; }
  int64_t seen() const { return seen_; }
  // Bytes of the dictionary page's values (for estimated_size).
  int64_t byte_size() const { return width_ == 4 || width_ == 8 ? count_ * width_ : bytes_; }
  // The dictionary values, in index order.
  ColumnPtr uniques() const {
    if (width_ != 4 && width_ != 8) return bytes_uniques_;
    ColumnPtr u = ColumnVector::make(type_);
    if (width_ == 4) {
      u->values().append(keys4_.data(), keys4_.size() * 4);
    } else {
      u->values().append(keys8_.data(), keys8_.size() * 8);
    }
    u->set_length(count_);
    return u;
  }

 private:
  // Every input bit reaches the low bits the table uses (doubles differ mostly in high bits).
  static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ull;
    return x ^ (x >> 33);
  }

  // Mostly distinct values: a dictionary would not pay.
  bool too_distinct() const { return seen_ == 65536 && count_ > 60000; }

  // Values are looked up in blocks: their hashes first (and, once the table outgrows the
  // cache, a prefetch of each one's slot), then the probes.
  static constexpr int64_t kBlock = 64;
  static constexpr size_t kCachedSlotBytes = 256 << 10;
  // hashes[j] = hash(j) for the m values of a block, and their slots fetched when `table` is
  // larger than the cache.
  template <typename S, typename H>
  static void hash_block(const std::vector<S>& table, int64_t m, H hash, uint64_t* hashes) {
    for (int64_t j = 0; j < m; ++j) hashes[j] = hash(j);
    if (table.size() * sizeof(S) > kCachedSlotBytes) {
      size_t mask = table.size() - 1;
      for (int64_t j = 0; j < m; ++j) __builtin_prefetch(&table[hashes[j] & mask]);
    }
  }

  // 4- and 8-byte values: keys compared as integers, not bytes, and stored in the slots so a
  // probe touches one cache line.
  template <typename K>
  bool add_fixed(const ColumnVector& v, uint32_t* indices, int64_t limit, std::vector<K>* keys) {
    const int64_t n = v.length();
    const K* in = reinterpret_cast<const K*>(v.values().data());
    std::vector<Slot<K>>& table = slots<K>();
    if (table.empty()) table.assign(1024, Slot<K>{0, -1});
    uint64_t hashes[kBlock];
    for (int64_t b = 0; b < n; b += kBlock) {
      const int64_t m = std::min(kBlock, n - b);
      const K* x = in + b;
      hash_block(
          table, m, [&](int64_t j) { return mix(x[j]); }, hashes);
      for (int64_t j = 0; j < m; ++j) {
        K key = x[j];
        size_t mask = table.size() - 1;
        size_t slot = hashes[j] & mask;
        bool added = false;
        while (true) {
          Slot<K>& e = table[slot];
          if (e.key == key && e.index >= 0) {
            indices[b + j] = static_cast<uint32_t>(e.index);
            break;
          }
          if (e.index < 0) {
            e.key = key;
            e.index = static_cast<int32_t>(count_);
            keys->push_back(key);
            indices[b + j] = static_cast<uint32_t>(count_++);
            if (static_cast<size_t>(count_) * 2 > table.size()) {
              grow_slots(&table, [](const Slot<K>& s) { return mix(s.key); });
            }
            added = true;
            break;
          }
          slot = (slot + 1) & mask;
        }
        ++seen_;
        if ((added && count_ * static_cast<int64_t>(sizeof(K)) > limit) || too_distinct()) {
          return false;
        }
      }
    }
    return true;
  }

  template <typename K>
  struct Slot {
    K key;
    int32_t index;
  };
  template <typename K>
  std::vector<Slot<K>>& slots() {
    if constexpr (sizeof(K) == 4) {
      return slots4_;
    } else {
      return slots8_;
    }
  }
  // Doubles the table; `hash` gives a slot's hash.
  template <typename K, typename H>
  static void grow_slots(std::vector<Slot<K>>* table, H hash) {
    std::vector<Slot<K>> next(table->size() * 2, Slot<K>{0, -1});
    size_t m2 = next.size() - 1;
    for (const Slot<K>& e : *table) {
      if (e.index < 0) continue;
      size_t sl = hash(e) & m2;
      while (next[sl].index >= 0) sl = (sl + 1) & m2;
      next[sl] = e;
    }
    *table = std::move(next);
  }

  // Byte keys (strings, binary, fixed, uuid, decimal): slots hold each key's hash and index
  // into the uniques, whose bytes are compared only when the hashes match.
  bool add_bytes(const ColumnVector& v, uint32_t* indices, int64_t limit) {
    const int64_t n = v.length();
    ColumnVector& u = *bytes_uniques_;
    const bool fixed = width_ > 0;
    const auto* vdata = fixed ? v.values().data() : v.data().data();
    const int32_t* voff = fixed ? nullptr : v.offsets().as<int32_t>();
    auto key_at = [&](int64_t i, size_t* len) {
      if (fixed) {
        *len = static_cast<size_t>(width_);
        return vdata + i * width_;
      }
      *len = static_cast<size_t>(voff[i + 1] - voff[i]);
      return vdata + voff[i];
    };
    auto unique_at = [&](int64_t e, size_t* len) {
      if (fixed) {
        *len = static_cast<size_t>(width_);
        return u.values().data() + e * width_;
      }
      const int32_t* o = u.offsets().as<int32_t>();
      *len = static_cast<size_t>(o[e + 1] - o[e]);
      return u.data().data() + o[e];
    };
    std::vector<Slot<uint64_t>>& table = slotsb_;
    if (table.empty()) table.assign(1024, Slot<uint64_t>{0, -1});
    uint64_t hashes[kBlock];
    for (int64_t b = 0; b < n; b += kBlock) {
      const int64_t m = std::min(kBlock, n - b);
      hash_block(
          table, m,
          [&](int64_t j) {
            size_t len;
            const uint8_t* p = key_at(b + j, &len);
            return hash_bytes(p, len);
          },
          hashes);
      for (int64_t j = 0; j < m; ++j) {
        const uint64_t h = hashes[j];
        size_t len;
        const uint8_t* p = key_at(b + j, &len);
        size_t mask = table.size() - 1;
        size_t slot = h & mask;
        bool added = false;
        while (true) {
          Slot<uint64_t>& e = table[slot];
          if (e.index < 0) {
            e.key = h;
            e.index = static_cast<int32_t>(count_);
            u.append_bytes(std::string_view(reinterpret_cast<const char*>(p), len));
            bytes_ += static_cast<int64_t>(len) + (fixed ? 0 : 4);
            indices[b + j] = static_cast<uint32_t>(count_++);
            if (static_cast<size_t>(count_) * 2 > table.size()) {
              grow_slots(&table, [](const Slot<uint64_t>& s) { return s.key; });
            }
            added = true;
            break;
          }
          if (e.key == h) {
            size_t ulen;
            const uint8_t* q = unique_at(e.index, &ulen);
            if (ulen == len && same_bytes(p, q, len)) {
              indices[b + j] = static_cast<uint32_t>(e.index);
              break;
            }
          }
          slot = (slot + 1) & mask;
        }
        ++seen_;
        if ((added && bytes_ > limit) || too_distinct()) return false;
      }
    }
    return true;
  }

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

// Bytes held as a list of 1 MB blocks: growing never copies or touches more memory than it
// holds, and freed blocks go back to the Buffer block cache for the next file's column chunks
// (fresh memory costs a page fault per 4 KB).
class SegmentedBuffer {
 public:
  static constexpr size_t kSegment = size_t{1} << 20;

  void append(const void* p, size_t n) {
    const auto* src = static_cast<const uint8_t*>(p);
    size_ += n;
    while (n > 0) {
      if (cur_ == segs_.size()) {
        segs_.emplace_back();
        segs_.back().reserve(kSegment);
      }
      Buffer& seg = segs_[cur_];
      size_t k = std::min(n, kSegment - seg.size());
      seg.append(src, k);
      src += k;
      n -= k;
      if (seg.size() == kSegment) ++cur_;
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

struct WLeaf;

// A data page encoded and waiting for its compression on the writer's pool, then for its turn
// to be appended to its column chunk.
struct PendingPage {
  WLeaf* leaf = nullptr;
  std::string body;  // encoded, uncompressed
  Buffer compressed;
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  bool done = false;  // compressed
  Status status;
};

struct WLeaf {
  int32_t field_id = 0;
  std::vector<std::string> path;
  TypePtr type;
  PhysicalType physical = PhysicalType::kInt32;
  int type_length = 0;
  int width = 0;  // bytes per value in the column vector (0: strings, binary)
  int16_t max_def = 0;
  int16_t max_rep = 0;
  bool in_repeated = false;
  MetricsMode mode;
  // The page being filled: dense (non-null) values and the levels of every entry.
  ColumnPtr page;
  // Top-level columns leave `defs` empty while every entry of the page is valid: the levels are
  // one RLE run, written at flush without being materialised.
  std::vector<int16_t> defs, reps;
  int64_t page_entries = 0;
  // The column chunk of the current row group: finished data pages (headers and bodies).
  SegmentedBuffer pages;
  // Pages after those, in order, still being compressed on the pool (threads > 1). Whichever
  // thread finishes the oldest appends it, and the done ones after it, to `pages`, holding `mu`;
  // `pages`, `pending` and the rg_ sizes below are shared with those jobs until drain_pages().
  std::deque<std::unique_ptr<PendingPage>> pending;
  std::unique_ptr<std::mutex> mu = std::make_unique<std::mutex>();
  int64_t rg_entries = 0, rg_dense = 0, rg_nans = 0;
  int64_t rg_uncompressed = 0, rg_compressed = 0;  // data pages, headers included
  int64_t rg_body_bytes = 0;  // data page bodies before compression (what row groups cut by)
  bool dict_on = false;       // pages are still dictionary-encoded
  bool dict_pages = false;    // some page of this chunk is
  bool plain_pages = false;
  DictBuilder dict;
  std::optional<Literal> rg_lo, rg_hi;  // chunk min/max and their statistics bytes
  std::string rg_lo_bytes, rg_hi_bytes;
  // File totals for the Iceberg metrics.
  int64_t value_count = 0, null_count = 0, nan_count = 0, column_size = 0;
  std::optional<Literal> lower, upper;

  int64_t page_bytes() const {
    return static_cast<int64_t>(page->values().size() + page->data().size() +
                                page->offsets().size() + (max_def > 0 ? page_entries * 2 : 0) +
                                reps.size() * 2);
  }
};

void put_le32(uint32_t v, std::string* out) { out->append(reinterpret_cast<const char*>(&v), 4); }

// Page bytes an encoder may queue for compression before it compresses pages itself.
constexpr int64_t kQueuedBytes = int64_t{16} << 20;

}  // namespace

struct ParquetWriter::Impl {
  FileIOPtr io;
  std::string path;
  WriterOptions options;
  std::vector<NestedField> fields;
  FileMetaData metadata;
  std::vector<WNode> nodes;  // per top-level field
  std::vector<WLeaf> leaves;
  std::unique_ptr<OutputStream> stream;  // the file
  Buffer out;  // small parts (headers, dictionary pages, footer) not yet handed to `stream`
  int64_t buffered_rows = 0;
  int64_t total_rows = 0;
  std::vector<int64_t> split_offsets;
  bool closed = false;

  int64_t handed = 0;  // bytes handed to `stream`, or to the job writing a row group

  // Offset in the file of the next byte written.
  int64_t file_pos() const { return handed + static_cast<int64_t>(out.size()); }
  // The file is opened when the first megabyte is ready, so that writers of small files (one per
  // partition) hold no file descriptor while they fill.
  Status open_stream() {
    if (stream) return Status::OK();
    auto s = io->open_output(path);
    if (!s.ok()) return s.status();
    stream = std::move(*s);
    return Status::OK();
  }
  Status write_stream(const uint8_t* p, size_t n) {
    return stream->write(std::string_view(reinterpret_cast<const char*>(p), n));
  }
  Status flush_out() {
    FLOE_TRY(open_stream());
    if (out.empty()) return Status::OK();
    handed += static_cast<int64_t>(out.size());
    Status st = write_stream(out.data(), out.size());
    out.clear();
    return st;
  }
  // Appends to the file: large parts go to the stream as they are, small ones are gathered.
  Status put(const uint8_t* p, size_t n) {
    if (n < (256 << 10)) {
      out.append(p, n);
      return out.size() >= (1 << 20) ? flush_out() : Status::OK();
    }
    FLOE_TRY(flush_out());
    handed += static_cast<int64_t>(n);
    return write_stream(p, n);
  }

  // With threads, a row group's bytes go to the file from a pool job while the next row group
  // fills. The job writes each piece's small parts, then its pages; the next row group's write
  // (and close) waits for it first.
  struct Piece {
    Buffer small;
    SegmentedBuffer pages;
  };
  struct RowGroupWrite {
    std::vector<Piece> pieces;
    bool running = false;
    Status status;
  };
  std::mutex write_mu;
  std::condition_variable write_cv;
  RowGroupWrite row_group_write;
  std::vector<Piece> spare_pieces;  // written, kept for their blocks

  // Waits for the row group being written, if any, and returns how its write went.
  Status wait_row_group_write() {
    std::unique_lock<std::mutex> lock(write_mu);
    write_cv.wait(lock, [&] { return !row_group_write.running; });
    for (auto& p : row_group_write.pieces) spare_pieces.push_back(std::move(p));
    row_group_write.pieces.clear();
    return row_group_write.status;
  }
  // The next piece of the row group being gathered: the small parts so far, and `pages`, which
  // is left empty (holding a written piece's blocks).
  void add_piece(SegmentedBuffer* pages, std::vector<Piece>* pieces) {
    Piece p;
    if (!spare_pieces.empty()) {
      p = std::move(spare_pieces.back());
      spare_pieces.pop_back();
    }
    std::swap(p.small, out);
    out.clear();
    std::swap(p.pages, *pages);
    pages->clear();
    handed += static_cast<int64_t>(p.small.size() + p.pages.size());
    pieces->push_back(std::move(p));
  }
  void start_row_group_write(std::vector<Piece> pieces) {
    {
      std::lock_guard<std::mutex> lock(write_mu);
      row_group_write.pieces = std::move(pieces);
      row_group_write.running = true;
    }
    run_job([this] {
      Status st;
      for (const Piece& p : row_group_write.pieces) {
        if (!st.ok()) break;
        if (!p.small.empty()) st = write_stream(p.small.data(), p.small.size());
        if (st.ok()) {
          st = p.pages.for_each([&](const uint8_t* d, size_t n) { return write_stream(d, n); });
        }
      }
      std::lock_guard<std::mutex> lock(write_mu);
      if (!st.ok() && row_group_write.status.ok()) row_group_write.status = std::move(st);
      row_group_write.running = false;
      write_cv.notify_all();
    });
  }

  // Encoding scratch: one per task running at a time (columns encode in parallel with threads).
  struct Scratch {
    PageCodec codec;
    std::string page, header;
    Buffer compressed, dict_page;
    std::vector<uint32_t> indices;
  };
  std::mutex scratch_mu;
  std::vector<std::unique_ptr<Scratch>> scratches;
  // With threads, pages are compressed as pool jobs while encoding goes on (queue_page); each is
  // appended to its chunk, in order, by whichever job finishes the oldest. Row groups are cut by
  // sizes known before compression, and whatever reads a compressed size drains the pool first
  // (drain_pages), so the file is the same whatever the thread count.
  std::mutex pages_mu;
  std::condition_variable pages_cv;
  std::deque<PendingPage*> to_compress;
  int64_t queued_bytes = 0;  // bodies of the pages not yet taken by a job
  int64_t compressing = 0;   // pages queued or being compressed
  Status page_error;         // the first failure of a job
  std::vector<std::unique_ptr<PendingPage>> spare_pages;
  using ColumnFn = std::function<Status(size_t, Scratch&)>;
  // With threads: the writer's own pool, or one it shares (WriterOptions::pool). Every job is
  // started by run_job and counted, and the destructor waits for them: a shared pool outlives the
  // writer, and jobs of other writers may be queued ahead of this one's.
  std::shared_ptr<ThreadPool> pool;
  std::mutex jobs_mu;
  std::condition_variable jobs_cv;
  int64_t jobs = 0;  // started and not yet finished

  ~Impl() {
    std::unique_lock<std::mutex> lock(jobs_mu);
    jobs_cv.wait(lock, [&] { return jobs == 0; });
  }
  void run_job(std::function<void()> job) {
    {
      std::lock_guard<std::mutex> lock(jobs_mu);
      ++jobs;
    }
    pool->submit([this, job = std::move(job)] {
      job();
      // Notified under the lock: once it is released the writer may be gone.
      std::lock_guard<std::mutex> lock(jobs_mu);
      if (--jobs == 0) jobs_cv.notify_all();
    });
  }

  std::unique_ptr<Scratch> take_scratch() {
    std::lock_guard<std::mutex> lock(scratch_mu);
    if (scratches.empty()) return std::make_unique<Scratch>();
    auto s = std::move(scratches.back());
    scratches.pop_back();
    return s;
  }
  void give_scratch(std::unique_ptr<Scratch> s) {
    std::lock_guard<std::mutex> lock(scratch_mu);
    scratches.push_back(std::move(s));
  }

  bool async_pages() const { return pool && options.codec != Codec::kUncompressed; }

  // Hands the encoded `body` (left holding a spare buffer) of the next page of `l` to the pool.
  // An encoder that gets ahead of compression by more than kQueuedBytes compresses pages itself
  // until it is not, which bounds the memory the queue holds.
  void queue_page(WLeaf& l, std::string* body, int32_t num_values, Encoding encoding) {
    std::unique_ptr<PendingPage> p;
    {
      std::lock_guard<std::mutex> lock(pages_mu);
      if (!spare_pages.empty()) {
        p = std::move(spare_pages.back());
        spare_pages.pop_back();
      }
    }
    if (!p) p = std::make_unique<PendingPage>();
    p->leaf = &l;
    p->body.swap(*body);
    p->num_values = num_values;
    p->encoding = encoding;
    p->done = false;
    p->status = Status::OK();
    PendingPage* raw = p.get();
    {
      std::lock_guard<std::mutex> lock(*l.mu);
      l.pending.push_back(std::move(p));
    }
    bool over = false;
    {
      std::lock_guard<std::mutex> lock(pages_mu);
      to_compress.push_back(raw);
      queued_bytes += static_cast<int64_t>(raw->body.size());
      ++compressing;
      over = queued_bytes > kQueuedBytes;
    }
    run_job([this] { compress_next(); });
    while (over && compress_next()) {
      std::lock_guard<std::mutex> lock(pages_mu);
      over = queued_bytes > kQueuedBytes;
    }
  }

  // Compresses the oldest queued page, and appends the done pages at the head of its leaf's
  // queue to the chunk; false when no page is queued.
  bool compress_next() {
    PendingPage* p = nullptr;
    {
      std::lock_guard<std::mutex> lock(pages_mu);
      if (to_compress.empty()) return false;
      p = to_compress.front();
      to_compress.pop_front();
      queued_bytes -= static_cast<int64_t>(p->body.size());
    }
    auto sc = take_scratch();
    p->compressed.clear();
    p->status = sc->codec.compress(options.codec, reinterpret_cast<const uint8_t*>(p->body.data()),
                                   p->body.size(), options.compression_level, &p->compressed);
    WLeaf& l = *p->leaf;
    std::vector<std::unique_ptr<PendingPage>> spent;
    Status failed;
    {
      std::lock_guard<std::mutex> lock(*l.mu);
      p->done = true;
      while (!l.pending.empty() && l.pending.front()->done) {
        PendingPage& q = *l.pending.front();
        if (q.status.ok()) {
          append_page(*sc, q.body.size(), q.compressed.data(), q.compressed.size(), q.num_values,
                      false, q.encoding, &l.pages, &l.rg_uncompressed, &l.rg_compressed);
        } else if (failed.ok()) {
          failed = q.status;
        }
        spent.push_back(std::move(l.pending.front()));
        l.pending.pop_front();
      }
    }
    give_scratch(std::move(sc));
    std::lock_guard<std::mutex> lock(pages_mu);
    if (!failed.ok() && page_error.ok()) page_error = failed;
    for (auto& q : spent) spare_pages.push_back(std::move(q));
    if (--compressing == 0) pages_cv.notify_all();
    return true;
  }

  // Compresses what is still queued (with the pool) and waits for the rest: afterwards every
  // page is in its chunk. Returns the first failure of a job.
  Status drain_pages() {
    if (!pool) return Status::OK();
    while (compress_next()) {
    }
    std::unique_lock<std::mutex> lock(pages_mu);
    pages_cv.wait(lock, [&] { return compressing == 0; });
    return page_error;
  }
  // The first failure of a job so far.
  Status page_failure() {
    if (!pool) return Status::OK();
    std::lock_guard<std::mutex> lock(pages_mu);
    return page_error;
  }

  // Runs fn(i) for i in [0, n): on the pool when there is one.
  Status for_each(size_t n, const ColumnFn& fn) {
    if (!pool || n < 2) {
      auto s = take_scratch();
      for (size_t i = 0; i < n; ++i) {
        Status st = fn(i, *s);
        if (!st.ok()) {
          give_scratch(std::move(s));
          return st;
        }
      }
      give_scratch(std::move(s));
      return Status::OK();
    }
    return pool->parallel_for(n, [&](size_t i) {
      auto s = take_scratch();
      Status st = fn(i, *s);
      give_scratch(std::move(s));
      return st;
    });
  }

  Status add_field(const NestedField& f, int16_t def, int16_t rep, bool in_rep,
                   std::vector<std::string> path, const std::string& name, WNode* node) {
    node->optional = !f.required;
    node->required_field = f.required;
    int16_t d = static_cast<int16_t>(def + (f.required ? 0 : 1));
    SchemaElement e;
    e.name = name;
    e.repetition = f.required ? Repetition::kRequired : Repetition::kOptional;
    e.field_id = f.id;
    path.push_back(name);
    const Type& t = *f.type;
    if (t.is_primitive()) {
      FLOE_TRY(primitive_element(t, &e));
      node->kind = WNode::kPrim;
      node->leaf = static_cast<int>(leaves.size());
      node->leaves.push_back(node->leaf);
      WLeaf l;
      l.field_id = f.id;
      l.path = path;
      l.type = f.type;
      l.physical = *e.type;
      l.type_length = e.type_length;
      l.width = ColumnVector::value_width(t);
      l.max_def = d;
      l.max_rep = rep;
      l.in_repeated = in_rep;
      l.mode = options.metrics.mode(f.id);
      l.page = ColumnVector::make(f.type);
      start_chunk(l);
      leaves.push_back(std::move(l));
      metadata.schema.push_back(std::move(e));
      return Status::OK();
    }
    if (t.is_struct()) {
      node->kind = WNode::kStruct;
      e.num_children = static_cast<int32_t>(t.fields().size());
      if (e.num_children == 0) return not_supported("empty struct {} cannot be written", name);
      metadata.schema.push_back(std::move(e));
      for (const auto& c : t.fields()) {
        WNode child;
        FLOE_TRY(add_field(c, d, rep, in_rep, path, c.name, &child));
        node->leaves.insert(node->leaves.end(), child.leaves.begin(), child.leaves.end());
        node->children.push_back(std::move(child));
      }
      return Status::OK();
    }
    bool is_list = t.is_list();
    node->kind = is_list ? WNode::kList : WNode::kMap;
    node->rep = static_cast<int16_t>(rep + 1);
    e.num_children = 1;
    e.converted_type = is_list ? ConvertedType::kList : ConvertedType::kMap;
    e.logical_type.kind = is_list ? LogicalType::kList : LogicalType::kMap;
    metadata.schema.push_back(std::move(e));
    SchemaElement r;
    r.name = is_list ? "list" : "key_value";
    r.repetition = Repetition::kRepeated;
    r.num_children = is_list ? 1 : 2;
    metadata.schema.push_back(std::move(r));
    path.push_back(is_list ? "list" : "key_value");
    int16_t ed = static_cast<int16_t>(d + 1);
    int16_t er = static_cast<int16_t>(rep + 1);
    if (is_list) {
      WNode child;
      FLOE_TRY(add_field(t.element(), ed, er, true, path, "element", &child));
      node->leaves = child.leaves;
      node->children.push_back(std::move(child));
    } else {
      NestedField key = t.key();
      key.required = true;
      WNode kn, vn;
      FLOE_TRY(add_field(key, ed, er, true, path, "key", &kn));
      FLOE_TRY(add_field(t.value(), ed, er, true, path, "value", &vn));
      node->leaves = kn.leaves;
      node->leaves.insert(node->leaves.end(), vn.leaves.begin(), vn.leaves.end());
      node->children.push_back(std::move(kn));
      node->children.push_back(std::move(vn));
    }
    return Status::OK();
  }

  // Resets the per-row-group state of a leaf.
  void start_chunk(WLeaf& l) {
    l.pages.clear();
    l.rg_entries = l.rg_dense = l.rg_nans = 0;
    l.rg_uncompressed = l.rg_compressed = l.rg_body_bytes = 0;
    l.dict_on = options.dictionary_enabled && l.type->id() != TypeId::kBoolean;
    l.dict_pages = l.plain_pages = false;
    if (l.dict_on) l.dict.reset(l.type, /*presize=*/true);
    l.rg_lo.reset();
    l.rg_hi.reset();
  }

  void null_all(const WNode& n, int16_t def, int16_t rep) {
    for (int li : n.leaves) {
      WLeaf& l = leaves[li];
      l.defs.push_back(def);
      if (l.max_rep > 0) l.reps.push_back(rep);
      ++l.page_entries;
    }
  }

  static void push_value(WLeaf& l, const ColumnVector& c, int64_t i) {
    int w = l.width;
    ColumnVector& v = *l.page;
    if (w > 0) {
      v.values().append(c.values().data() + i * w, static_cast<size_t>(w));
    } else {
      std::string_view b = c.bytes_at(i);
      v.data().append(b.data(), b.size());
      v.offsets().push<int32_t>(static_cast<int32_t>(v.data().size()));
    }
    v.set_length(v.length() + 1);
  }

  Status shred(const ColumnVector& col, int64_t i, const WNode& n, int16_t def, int16_t rep) {
    if (col.is_null(i)) {
      if (n.required_field) return invalid_argument("null value in a required column");
      null_all(n, def, rep);
      return Status::OK();
    }
    int16_t d = static_cast<int16_t>(def + (n.optional ? 1 : 0));
    switch (n.kind) {
      case WNode::kPrim: {
        WLeaf& l = leaves[n.leaf];
        if (l.max_def > 0) l.defs.push_back(d);
        if (l.max_rep > 0) l.reps.push_back(rep);
        ++l.page_entries;
        push_value(l, col, i);
        return Status::OK();
      }
      case WNode::kStruct:
        for (size_t c = 0; c < n.children.size(); ++c) {
          FLOE_TRY(shred(col.child(c), i, n.children[c], d, rep));
        }
        return Status::OK();
      case WNode::kList:
      case WNode::kMap: {
        int32_t b = col.list_begin(i), e = col.list_end(i);
        if (b == e) {
          null_all(n, d, rep);
          return Status::OK();
        }
        for (int32_t j = b; j < e; ++j) {
          int16_t r = j == b ? rep : n.rep;
          for (size_t c = 0; c < n.children.size(); ++c) {
            FLOE_TRY(shred(col.child(c), j, n.children[c], static_cast<int16_t>(d + 1), r));
          }
        }
        return Status::OK();
      }
    }
    return Status::OK();
  }

  bool page_full(const WLeaf& l) const {
    return l.page_entries >= options.page_row_limit || l.page_bytes() >= options.page_size_bytes;
  }

  // Rows [b, b + k) of a flat column that still fit in the current page (at least one).
  int64_t page_room(const WLeaf& l, const ColumnVector& col, int64_t b, int64_t n) const {
    int64_t k = std::min(n - b, options.page_row_limit - l.page_entries);
    int64_t left = options.page_size_bytes - l.page_bytes();
    int64_t per_row = (l.max_def > 0 ? 2 : 0) + (l.width > 0 ? l.width : 4);
    k = std::min(k, left / per_row);
    if (l.width == 0 && k > 0) {
      // Strings: as many as fit by their bytes (offsets are sorted).
      const int32_t* so = col.offsets().as<int32_t>();
      int64_t budget = left - k * per_row;
      const int32_t* end = std::upper_bound(so + b + 1, so + b + k + 1, so[b] + budget);
      k = std::min<int64_t>(k, end - (so + b + 1));
    }
    return std::max<int64_t>(1, k);
  }

  // Top-level primitive columns: levels from the validity bitmap, values copied in bulk, pages
  // encoded and compressed as they fill.
  Status write_flat(const ColumnVector& col, WLeaf& l, Scratch& sc) {
    if (l.max_def == 0 && col.null_count() > 0) {
      return invalid_argument("null value in required column {}", l.path.back());
    }
    const int64_t n = col.length();
    for (int64_t b = 0; b < n;) {
      int64_t k = page_room(l, col, b, n);
      append_flat(col, l, b, b + k);
      b += k;
      if (page_full(l)) FLOE_TRY(flush_page(l, sc));
    }
    return Status::OK();
  }

  static void append_flat(const ColumnVector& col, WLeaf& l, int64_t b, int64_t e) {
    int64_t n = e - b;
    bool nulls = col.null_count() > 0;
    if (l.max_def > 0 && (nulls || !l.defs.empty())) {
      // The first null of the page: the levels implied so far become real.
      if (l.defs.empty()) l.defs.assign(static_cast<size_t>(l.page_entries), l.max_def);
      size_t old = l.defs.size();
      l.defs.resize(old + static_cast<size_t>(n));
      int16_t* d = l.defs.data() + old;
      if (!nulls) {
        std::fill(d, d + n, int16_t{1});
      } else {
        for (int64_t i = 0; i < n; ++i) d[i] = col.is_valid(b + i) ? 1 : 0;
      }
    }
    l.page_entries += n;
    ColumnVector& v = *l.page;
    int w = l.width;
    if (!nulls) {
      if (w > 0) {
        v.values().append(col.values().data() + b * w, static_cast<size_t>(n) * w);
      } else {
        const int32_t* so = col.offsets().as<int32_t>();
        int32_t base = static_cast<int32_t>(v.data().size());
        v.data().append(col.data().data() + so[b], static_cast<size_t>(so[e] - so[b]));
        size_t old = v.offsets().size();
        v.offsets().resize(old + static_cast<size_t>(n) * 4);
        int32_t* o = reinterpret_cast<int32_t*>(v.offsets().data() + old);
        int32_t shift = base - so[b];
        for (int64_t i = 0; i < n; ++i) o[i] = so[b + i + 1] + shift;
      }
      v.set_length(v.length() + n);
    } else if (w == 8 || w == 4) {
      size_t old = v.values().size();
      v.values().resize(old + static_cast<size_t>(n) * w);
      uint8_t* o = v.values().data() + old;
      const uint8_t* in = col.values().data() + b * w;
      int64_t k = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (w == 8) {
          std::memcpy(o + k * 8, in + i * 8, 8);
        } else {
          std::memcpy(o + k * 4, in + i * 4, 4);
        }
        k += col.is_valid(b + i);
      }
      v.values().resize(old + static_cast<size_t>(k) * w);
      v.set_length(v.length() + k);
    } else {
      for (int64_t i = b; i < e; ++i) {
        if (col.is_valid(i)) push_value(l, col, i);
      }
    }
  }

  // PLAIN encoding of dense values [b, e) of `v` for leaf `l`.
  void encode_plain(const WLeaf& l, const ColumnVector& v, int64_t b, int64_t e, std::string* out) {
    switch (l.type->id()) {
      case TypeId::kBoolean: {
        size_t base = out->size();
        out->resize(base + static_cast<size_t>((e - b + 7) / 8), '\0');
        auto* o = reinterpret_cast<uint8_t*>(out->data() + base);
        const uint8_t* in = v.raw<uint8_t>();
        for (int64_t i = b; i < e; ++i) o[(i - b) >> 3] |= (in[i] & 1) << ((i - b) & 7);
        return;
      }
      case TypeId::kDecimal: {
        const uint8_t* in = v.values().data();
        for (int64_t i = b; i < e; ++i) {
          int128_t x;
          std::memcpy(&x, in + i * 16, 16);
          append_decimal(l, x, out);
        }
        return;
      }
      case TypeId::kString:
      case TypeId::kBinary: {
        const int32_t* o = v.offsets().as<int32_t>();
        const char* d = reinterpret_cast<const char*>(v.data().data());
        size_t base = out->size();
        out->resize(base + static_cast<size_t>(e - b) * 4 + static_cast<size_t>(o[e] - o[b]));
        char* p = out->data() + base;
        for (int64_t i = b; i < e; ++i) {
          uint32_t len = static_cast<uint32_t>(o[i + 1] - o[i]);
          std::memcpy(p, &len, 4);
          std::memcpy(p + 4, d + o[i], len);
          p += 4 + len;
        }
        return;
      }
      default: {
        int w = v.value_width();
        out->append(reinterpret_cast<const char*>(v.values().data()) + b * w,
                    static_cast<size_t>(e - b) * w);
        return;
      }
    }
  }

  static void append_decimal(const WLeaf& l, int128_t x, std::string* out) {
    if (l.physical == PhysicalType::kInt32) {
      auto v = static_cast<int32_t>(x);
      out->append(reinterpret_cast<const char*>(&v), 4);
    } else if (l.physical == PhysicalType::kInt64) {
      auto v = static_cast<int64_t>(x);
      out->append(reinterpret_cast<const char*>(&v), 8);
    } else {
      auto u = static_cast<unsigned __int128>(x);
      char be[16];
      for (int k = 15; k >= 0; --k) {
        be[k] = static_cast<char>(u & 0xff);
        u >>= 8;
      }
      out->append(be + 16 - l.type_length, static_cast<size_t>(l.type_length));
    }
  }

  // Parquet statistics bytes of dense value i.
  std::string stat_bytes(const WLeaf& l, const ColumnVector& v, int64_t i) {
    std::string s;
    if (l.type->id() == TypeId::kString || l.type->id() == TypeId::kBinary) {
      return std::string(v.bytes_at(i));
    }
    encode_plain(l, v, i, i + 1, &s);
    return s;
  }

  // Index of the smallest and largest of the dense byte values of `v` (unsigned byte order). An
  // 8-byte big-endian prefix decides most comparisons; the current extremes keep theirs.
  static void scan_bytes(const ColumnVector& v, int64_t* lo, int64_t* hi) {
    int64_t n = v.length();
    if (n == 0) return;
    bool var = v.value_width() == 0;
    const int32_t* off = var ? v.offsets().as<int32_t>() : nullptr;
    const char* base = reinterpret_cast<const char*>(var ? v.data().data() : v.values().data());
    size_t w = static_cast<size_t>(v.value_width());
    auto at = [&](int64_t i) {
      return var ? std::string_view(base + off[i], static_cast<size_t>(off[i + 1] - off[i]))
                 : std::string_view(base + static_cast<size_t>(i) * w, w);
    };
    // Buffers keep 64 readable bytes past their end, so 8 bytes can always be loaded.
    auto prefix = [](std::string_view s) -> uint64_t {
      if (s.empty()) return 0;
      uint64_t x;
      std::memcpy(&x, s.data(), 8);
      if (s.size() < 8) x &= (uint64_t{1} << (s.size() * 8)) - 1;
      return __builtin_bswap64(x);
    };
    int64_t a = 0, b = 0;
    std::string_view sa = at(0), sb = sa;
    uint64_t pa = prefix(sa), pb = pa;
    for (int64_t i = 1; i < n; ++i) {
      std::string_view s = at(i);
      uint64_t p = prefix(s);
      if (p < pa || (p == pa && s < sa)) {
        a = i;
        sa = s;
        pa = p;
      }
      if (p > pb || (p == pb && sb < s)) {
        b = i;
        sb = s;
        pb = p;
      }
    }
    *lo = a;
    *hi = b;
  }

  // Index of the smallest and largest non-NaN dense value; false when there is none.
  bool min_max(const WLeaf& l, const ColumnVector& v, int64_t* lo, int64_t* hi, int64_t* nans) {
    int64_t n = v.length();
    *nans = 0;
    *lo = *hi = -1;
    auto scan = [&](auto less, auto skip) {
      for (int64_t i = 0; i < n; ++i) {
        if (skip(i)) continue;
        if (*lo < 0) {
          *lo = *hi = i;
          continue;
        }
        if (less(i, *lo)) *lo = i;
        if (less(*hi, i)) *hi = i;
      }
    };
    auto never = [](int64_t) { return false; };
    // Plain numbers: branch-free running min/max, then the first index holding each.
    auto scan_num = [&](const auto* x) {
      if (n == 0) return;
      auto mn = x[0], mx = x[0];
      for (int64_t i = 1; i < n; ++i) {
        mn = x[i] < mn ? x[i] : mn;
        mx = x[i] > mx ? x[i] : mx;
      }
      int64_t a = 0, b = 0;
      while (x[a] != mn) ++a;
      while (x[b] != mx) ++b;
      *lo = a;
      *hi = b;
    };
    switch (l.type->id()) {
      case TypeId::kBoolean:
        scan_num(v.raw<uint8_t>());
        break;
      case TypeId::kInt:
      case TypeId::kDate:
        scan_num(v.raw<int32_t>());
        break;
      case TypeId::kFloat: {
        const float* x = v.raw<float>();
        scan([&](int64_t a, int64_t b) { return float_less(x[a], x[b]); },
             [&](int64_t i) {
               bool nan = std::isnan(x[i]);
               *nans += nan;
               return nan;
             });
        break;
      }
      case TypeId::kDouble: {
        const double* x = v.raw<double>();
        scan([&](int64_t a, int64_t b) { return float_less(x[a], x[b]); },
             [&](int64_t i) {
               bool nan = std::isnan(x[i]);
               *nans += nan;
               return nan;
             });
        break;
      }
      case TypeId::kDecimal: {
        auto at = [&](int64_t i) {
          int128_t y;
          std::memcpy(&y, v.values().data() + i * 16, 16);
          return y;
        };
        scan([&](int64_t a, int64_t b) { return at(a) < at(b); }, never);
        break;
      }
      case TypeId::kString:
      case TypeId::kBinary:
      case TypeId::kFixed:
      case TypeId::kUuid: {
        scan_bytes(v, lo, hi);
        break;
      }
      default:
        scan_num(v.raw<int64_t>());
        break;
    }
    return *lo >= 0;
  }

  // Compresses `body` and appends the page (header + body) to `dst` (a Buffer or a
  // SegmentedBuffer).
  template <typename Dst>
  Status emit_page(Scratch& sc, const std::string& body, int32_t num_values, bool dictionary,
                   Encoding enc, Dst* dst, int64_t* uncompressed, int64_t* compressed_size) {
    Buffer& compressed = sc.compressed;
    const auto* data = reinterpret_cast<const uint8_t*>(body.data());
    size_t size = body.size();
    if (options.codec != Codec::kUncompressed) {
      compressed.clear();
      FLOE_TRY(
          sc.codec.compress(options.codec, data, size, options.compression_level, &compressed));
      data = compressed.data();
      size = compressed.size();
    }
    append_page(sc, body.size(), data, size, num_values, dictionary, enc, dst, uncompressed,
                compressed_size);
    return Status::OK();
  }

  // Appends a page's header and its `size` stored bytes (of `body_size` before compression).
  template <typename Dst>
  void append_page(Scratch& sc, size_t body_size, const uint8_t* data, size_t size,
                   int32_t num_values, bool dictionary, Encoding enc, Dst* dst,
                   int64_t* uncompressed, int64_t* compressed_size) {
    std::string& header = sc.header;
    PageHeader h;
    h.uncompressed_page_size = static_cast<int32_t>(body_size);
    h.compressed_page_size = static_cast<int32_t>(size);
    if (dictionary) {
      h.type = PageType::kDictionaryPage;
      h.dictionary_page_header = DictionaryPageHeader{num_values, Encoding::kPlain, false};
    } else {
      h.type = PageType::kDataPage;
      DataPageHeader d;
      d.num_values = num_values;
      d.encoding = enc;
      d.definition_level_encoding = Encoding::kRle;
      d.repetition_level_encoding = Encoding::kRle;
      h.data_page_header = d;
    }
    header.clear();
    encode_page_header(h, &header);
    dst->append(header.data(), header.size());
    dst->append(data, size);
    *uncompressed += static_cast<int64_t>(header.size() + body_size);
    *compressed_size += static_cast<int64_t>(header.size() + size);
  }

  // Levels of a page that are all `level`: one RLE run with its 4-byte length prefix (bytes
  // equal to what put_levels writes for them).
  static void put_level_run(int16_t level, int64_t n, std::string* out) {
    if (n < 8) {  // bit-packed
      std::vector<int16_t> levels(static_cast<size_t>(n), level);
      put_levels(levels.data(), n, level, out);
      return;
    }
    size_t at = out->size();
    put_le32(0, out);
    uint64_t header = static_cast<uint64_t>(n) << 1;
    while (header >= 0x80) {
      out->push_back(static_cast<char>((header & 0x7f) | 0x80));
      header >>= 7;
    }
    out->push_back(static_cast<char>(header));
    int bytes = (bit_width_of(static_cast<uint64_t>(level)) + 7) / 8;
    auto v = static_cast<uint16_t>(level);
    out->append(reinterpret_cast<const char*>(&v), static_cast<size_t>(bytes));
    uint32_t len = static_cast<uint32_t>(out->size() - at - 4);
    std::memcpy(out->data() + at, &len, 4);
  }

  // Levels of a page: RLE with a 4-byte length prefix.
  static void put_levels(const int16_t* levels, int64_t n, int16_t max, std::string* out) {
    size_t at = out->size();
    put_le32(0, out);
    encode_rle(levels, n, bit_width_of(static_cast<uint64_t>(max)), out);
    uint32_t len = static_cast<uint32_t>(out->size() - at - 4);
    std::memcpy(out->data() + at, &len, 4);
  }

  // Encodes, compresses and appends the current page of `l` to its column chunk, and folds its
  // values into the chunk statistics.
  Status flush_page(WLeaf& l, Scratch& sc) {
    if (l.page_entries == 0) return Status::OK();
    std::string& page = sc.page;
    std::vector<uint32_t>& indices = sc.indices;
    const ColumnVector& v = *l.page;
    int64_t n = v.length();
    int64_t lo, hi, nans;
    if (min_max(l, v, &lo, &hi, &nans)) {
      Literal a = v.literal_at(lo), b = v.literal_at(hi);
      if (!l.rg_lo || a.compare(*l.rg_lo) < 0) {
        l.rg_lo = std::move(a);
        l.rg_lo_bytes = stat_bytes(l, v, lo);
      }
      if (!l.rg_hi || b.compare(*l.rg_hi) > 0) {
        l.rg_hi = std::move(b);
        l.rg_hi_bytes = stat_bytes(l, v, hi);
      }
    }
    l.rg_nans += nans;
    page.clear();
    if (l.max_rep > 0) put_levels(l.reps.data(), l.page_entries, l.max_rep, &page);
    if (l.max_def > 0) {
      if (l.defs.empty()) {
        put_level_run(l.max_def, l.page_entries, &page);
      } else {
        put_levels(l.defs.data(), l.page_entries, l.max_def, &page);
      }
    }
    bool dict = false;
    int bw = 0;
    if (l.dict_on && n > 0) {
      bool first = l.dict.seen() == 0;
      indices.resize(static_cast<size_t>(n));
      dict = l.dict.add(v, indices.data(), options.dict_size_bytes);
      // A first page of nearly distinct values: the dictionary would not pay.
      if (dict && first && n >= 4096 && l.dict.size() * 20 > n * 19) dict = false;
      if (dict) {
        bw = std::max(1, bit_width_of(static_cast<uint64_t>(l.dict.size() - 1)));
      } else {
        l.dict_on = false;
        if (!l.dict_pages) l.dict.reset(l.type);
      }
    }
    if (dict) {
      page.push_back(static_cast<char>(bw));
      encode_rle(indices.data(), n, bw, &page);
      l.dict_pages = true;
    } else {
      encode_plain(l, v, 0, n, &page);
      l.plain_pages = true;
    }
    Encoding enc = dict ? Encoding::kRleDictionary : Encoding::kPlain;
    l.rg_body_bytes += static_cast<int64_t>(page.size());
    if (async_pages()) {
      queue_page(l, &page, static_cast<int32_t>(l.page_entries), enc);
    } else {
      FLOE_TRY(emit_page(sc, page, static_cast<int32_t>(l.page_entries), false, enc, &l.pages,
                         &l.rg_uncompressed, &l.rg_compressed));
    }
    l.rg_entries += l.page_entries;
    l.rg_dense += n;
    l.page->clear();
    l.defs.clear();
    l.reps.clear();
    l.page_entries = 0;
    return Status::OK();
  }

  // Bytes of the row group so far: encoded page bodies before compression plus the open pages
  // (known before compression finishes, so row groups cut at the same rows with any threads).
  int64_t buffered_bytes() const {
    int64_t b = 0;
    for (const auto& l : leaves) b += l.rg_body_bytes + l.page_bytes();
    return b;
  }

  // Writes the chunk of `l`, or with `pieces`, adds it to them for a row-group write job.
  Status write_chunk(WLeaf& l, ColumnChunk* chunk, Scratch& sc, std::vector<Piece>* pieces) {
    std::string& page = sc.page;
    ColumnMetaData meta;
    meta.type = l.physical;
    meta.path_in_schema = l.path;
    meta.codec = options.codec;
    meta.num_values = l.rg_entries;
    int64_t start = file_pos();
    chunk->file_offset = start;

    // Statistics and Iceberg metrics.
    int64_t nulls = l.rg_entries - l.rg_dense;
    Statistics stats;
    stats.null_count = nulls;
    if (l.rg_lo && l.rg_hi) {
      std::string mn = l.rg_lo_bytes, mx = l.rg_hi_bytes;
      if (l.type->id() == TypeId::kFloat || l.type->id() == TypeId::kDouble) {
        // Parquet: a zero minimum is written as -0.0, a zero maximum as +0.0.
        bool f = l.type->id() == TypeId::kFloat;
        double av = f ? l.rg_lo->as_float() : l.rg_lo->as_double();
        double bv = f ? l.rg_hi->as_float() : l.rg_hi->as_double();
        if (av == 0) mn[mn.size() - 1] = static_cast<char>(mn.back() | 0x80);
        if (bv == 0) mx[mx.size() - 1] = static_cast<char>(mx.back() & 0x7f);
      }
      stats.min_value = std::move(mn);
      stats.max_value = std::move(mx);
      if (!l.lower || l.rg_lo->compare(*l.lower) < 0) l.lower = *l.rg_lo;
      if (!l.upper || l.rg_hi->compare(*l.upper) > 0) l.upper = *l.rg_hi;
    }
    l.value_count += l.rg_entries;
    l.null_count += nulls;
    l.nan_count += l.rg_nans;
    meta.statistics = std::move(stats);

    if (l.dict_pages) {
      meta.dictionary_page_offset = start;
      ColumnPtr u = l.dict.uniques();
      page.clear();
      encode_plain(l, *u, 0, u->length(), &page);
      Buffer& dict_page = sc.dict_page;
      dict_page.clear();
      FLOE_TRY(emit_page(sc, page, static_cast<int32_t>(u->length()), true, Encoding::kPlain,
                         &dict_page, &meta.total_uncompressed_size, &meta.total_compressed_size));
      if (pieces) {
        out.append(dict_page.data(), dict_page.size());
      } else {
        FLOE_TRY(put(dict_page.data(), dict_page.size()));
      }
      meta.encodings = {Encoding::kPlain, Encoding::kRle, Encoding::kRleDictionary};
    } else {
      meta.encodings = {Encoding::kPlain, Encoding::kRle};
    }
    meta.data_page_offset = file_pos();
    if (pieces) {
      add_piece(&l.pages, pieces);
    } else {
      FLOE_TRY(l.pages.for_each([&](const uint8_t* p, size_t n) { return put(p, n); }));
    }
    meta.total_uncompressed_size += l.rg_uncompressed;
    meta.total_compressed_size += l.rg_compressed;
    l.column_size += meta.total_compressed_size;
    chunk->meta_data = std::move(meta);
    return Status::OK();
  }

  Status flush_row_group() {
    if (buffered_rows == 0) return Status::OK();
    Status flushed =
        for_each(leaves.size(), [&](size_t i, Scratch& sc) { return flush_page(leaves[i], sc); });
    Status drained = drain_pages();
    FLOE_TRY(flushed);
    FLOE_TRY(drained);
    // With threads, the bytes go to the file from a pool job, after the previous row group's.
    const bool in_job = pool != nullptr;
    std::vector<Piece> pieces;
    if (in_job) {
      FLOE_TRY(wait_row_group_write());
      FLOE_TRY(open_stream());
    }
    RowGroup rg;
    rg.num_rows = buffered_rows;
    int64_t start = file_pos();
    rg.file_offset = start;
    auto sc = take_scratch();
    for (auto& l : leaves) {
      ColumnChunk c;
      Status st = write_chunk(l, &c, *sc, in_job ? &pieces : nullptr);
      if (!st.ok()) return st;
      rg.total_byte_size += c.meta_data->total_uncompressed_size;
      rg.columns.push_back(std::move(c));
      start_chunk(l);
    }
    give_scratch(std::move(sc));
    if (in_job) start_row_group_write(std::move(pieces));
    rg.total_compressed_size = file_pos() - start;
    rg.ordinal = static_cast<int16_t>(metadata.row_groups.size());
    metadata.row_groups.push_back(std::move(rg));
    split_offsets.push_back(start);
    total_rows += buffered_rows;
    buffered_rows = 0;
    return Status::OK();
  }
};

ParquetWriter::~ParquetWriter() = default;

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::open(FileIOPtr io, std::string path,
                                                           const Schema& schema,
                                                           WriterOptions options) {
  std::unique_ptr<ParquetWriter> w(new ParquetWriter());
  w->impl_ = std::make_unique<Impl>();
  Impl& im = *w->impl_;
  im.io = std::move(io);
  im.path = std::move(path);
  im.options = std::move(options);
  im.fields = schema.fields();
  SchemaElement root;
  root.name = "table";
  root.num_children = static_cast<int32_t>(im.fields.size());
  im.metadata.schema.push_back(root);
  for (const auto& f : im.fields) {
    WNode n;
    Status st = im.add_field(f, 0, 0, false, {}, f.name, &n);
    if (!st.ok()) return st.with_context(im.path);
    im.nodes.push_back(std::move(n));
  }
  im.out.append("PAR1", 4);
  if (im.options.pool) {
    if (im.options.pool->size() > 1) im.pool = im.options.pool;
  } else if (im.options.threads > 1) {
    im.pool = std::make_shared<ThreadPool>(im.options.threads);
  }
  return w;
}

Status ParquetWriter::write(const ColumnBatch& batch) {
  Impl& im = *impl_;
  if (im.closed) return invalid_argument("{}: writer is closed", im.path);
  if (batch.columns.size() != im.fields.size()) {
    return invalid_argument("{}: batch has {} columns, the schema {}", im.path,
                            batch.columns.size(), im.fields.size());
  }
  for (size_t c = 0; c < batch.columns.size(); ++c) {
    const ColumnVector& col = *batch.columns[c];
    if (!same_type(col.type(), im.fields[c].type)) {
      return invalid_argument("{}: column {} is {}, the schema says {}", im.path, im.fields[c].name,
                              col.type()->to_string(), im.fields[c].type->to_string());
    }
    if (col.length() != batch.num_rows) {
      return invalid_argument("{}: column {} has {} values for {} rows", im.path, im.fields[c].name,
                              col.length(), batch.num_rows);
    }
  }
  if (Status failed = im.page_failure(); !failed.ok()) return failed.with_context(im.path);
  // Columns encode independently (in parallel with threads; pages compress on the pool
  // meanwhile, and may still be compressing when this returns).
  Status st = im.for_each(batch.columns.size(), [&](size_t c, Impl::Scratch& sc) -> Status {
    const ColumnVector& col = *batch.columns[c];
    const WNode& n = im.nodes[c];
    if (n.kind == WNode::kPrim) return im.write_flat(col, im.leaves[n.leaf], sc);
    for (int64_t i = 0; i < batch.num_rows; ++i) {
      Status st = im.shred(col, i, n, 0, 0);
      if (!st.ok()) return st.with_context(fmt::format("column {}", im.fields[c].name));
      // Pages end at row boundaries, so a page never splits a list.
      for (int li : n.leaves) {
        if (im.page_full(im.leaves[li])) FLOE_TRY(im.flush_page(im.leaves[li], sc));
      }
    }
    return Status::OK();
  });
  if (!st.ok()) {
    (void)im.drain_pages();
    return st.with_context(im.path);
  }
  im.buffered_rows += batch.num_rows;
  if (im.buffered_bytes() >= im.options.row_group_size_bytes) FLOE_TRY(im.flush_row_group());
  return Status::OK();
}

int64_t ParquetWriter::estimated_size() const {
  // Compressed sizes are known once the pages queued for compression are done (a failure shows
  // at the next write or close).
  (void)impl_->drain_pages();
  int64_t b = impl_->file_pos();
  for (const auto& l : impl_->leaves) {
    b += static_cast<int64_t>(l.pages.size()) + l.page_bytes();
    // The dictionary page is written with the chunk: without it, rolling by size overshoots.
    if (l.dict_on || l.dict_pages) b += l.dict.byte_size();
  }
  return b;
}

Result<DataFileMetrics> ParquetWriter::close() {
  Impl& im = *impl_;
  if (im.closed) return invalid_argument("{}: writer is already closed", im.path);
  im.closed = true;
  FLOE_TRY(im.flush_row_group());
  FLOE_TRY(im.wait_row_group_write());
  im.metadata.num_rows = im.total_rows;
  im.metadata.created_by = im.options.created_by;
  im.metadata.key_value_metadata = im.options.key_value_metadata;
  std::string footer = encode_file_metadata(im.metadata);
  uint32_t footer_len = static_cast<uint32_t>(footer.size());
  im.out.append(footer.data(), footer.size());
  im.out.append(&footer_len, 4);
  im.out.append("PAR1", 4);
  im.pool.reset();
  int64_t file_size = im.file_pos();
  FLOE_TRY(im.flush_out());
  FLOE_TRY(im.stream->close());

  DataFileMetrics m;
  m.record_count = im.total_rows;
  m.file_size = file_size;
  m.split_offsets = im.split_offsets;
  for (const auto& l : im.leaves) {
    m.column_sizes[l.field_id] = l.column_size;
    if (l.mode.kind == MetricsMode::kNone) continue;
    m.value_counts[l.field_id] = l.value_count;
    m.null_value_counts[l.field_id] = l.null_count;
    if (l.type->id() == TypeId::kFloat || l.type->id() == TypeId::kDouble) {
      m.nan_value_counts[l.field_id] = l.nan_count;
    }
    if (l.mode.kind == MetricsMode::kCounts || l.in_repeated || !l.lower || !l.upper) continue;
    std::string lo = FLOE_TRY(l.lower->to_bytes());
    std::string hi = FLOE_TRY(l.upper->to_bytes());
    if (l.mode.kind == MetricsMode::kTruncate) {
      int n = l.mode.length;
      if (l.type->id() == TypeId::kString) {
        lo = truncate_lower_string(lo, n);
        auto up = truncate_upper_string(hi, n);
        m.lower_bounds[l.field_id] = lo;
        if (up) m.upper_bounds[l.field_id] = *up;
        continue;
      }
      if (l.type->id() == TypeId::kBinary) {
        lo = truncate_lower_binary(lo, n);
        auto up = truncate_upper_binary(hi, n);
        m.lower_bounds[l.field_id] = lo;
        if (up) m.upper_bounds[l.field_id] = *up;
        continue;
      }
    }
    m.lower_bounds[l.field_id] = lo;
    m.upper_bounds[l.field_id] = hi;
  }
  im.out = Buffer();
  return m;
}

}  // namespace floe::parquet
