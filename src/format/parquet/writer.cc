#include "floe/format/parquet/writer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "format/parquet/codec.h"
#include "format/parquet/encoding.h"

namespace floe::parquet {

using internal::bit_width_of;
using internal::encode_rle;
using internal::PageCodec;

// ---------------------------------------------------------------------------------------------
// Metrics modes and truncation

Result<MetricsMode> MetricsMode::parse(std::string_view text) {
  std::string t;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) {
      t.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  MetricsMode m;
  if (t == "none") {
    m.kind = kNone;
  } else if (t == "counts") {
    m.kind = kCounts;
  } else if (t == "full") {
    m.kind = kFull;
  } else if (t.rfind("truncate(", 0) == 0 && t.back() == ')') {
    std::string n = t.substr(9, t.size() - 10);
    if (n.empty() || n.size() > 9 || n.find_first_not_of("0123456789") != std::string::npos) {
      return invalid_argument("bad metrics mode {}", text);
    }
    m.kind = kTruncate;
    m.length = std::stoi(n);
    if (m.length <= 0) return invalid_argument("truncate length must be positive: {}", text);
  } else {
    return invalid_argument("bad metrics mode {}", text);
  }
  return m;
}

std::string MetricsMode::to_string() const {
  switch (kind) {
    case kNone:
      return "none";
    case kCounts:
      return "counts";
    case kFull:
      return "full";
    case kTruncate:
      return fmt::format("truncate({})", length);
  }
  return "";
}

namespace {

// Length in bytes of the UTF-8 sequence starting with byte c (1 for invalid bytes).
int utf8_len(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c >> 5) == 6) return 2;
  if ((c >> 4) == 14) return 3;
  if ((c >> 3) == 30) return 4;
  return 1;
}

std::vector<uint32_t> decode_utf8(std::string_view s, size_t max_points, size_t* consumed) {
  std::vector<uint32_t> cps;
  size_t i = 0;
  while (i < s.size() && cps.size() < max_points) {
    auto c = static_cast<unsigned char>(s[i]);
    int n = utf8_len(c);
    if (i + n > s.size()) n = 1;
    uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1f) : n == 3 ? (c & 0x0f) : (c & 0x07);
    for (int k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
    cps.push_back(cp);
    i += n;
  }
  *consumed = i;
  return cps;
}

void encode_utf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out->push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

}  // namespace

std::string truncate_lower_string(std::string_view utf8, int n) {
  size_t used = 0;
  decode_utf8(utf8, static_cast<size_t>(n), &used);
  return std::string(utf8.substr(0, used));
}

std::optional<std::string> truncate_upper_string(std::string_view utf8, int n) {
  size_t used = 0;
  auto cps = decode_utf8(utf8, static_cast<size_t>(n), &used);
  if (used == utf8.size()) return std::string(utf8);
  for (size_t k = cps.size(); k-- > 0;) {
    uint32_t cp = cps[k];
    if (cp >= 0x10FFFF) continue;  // overflow: drop it and increment the previous one
    uint32_t next = cp == 0xD7FF ? 0xE000 : cp + 1;
    std::string out;
    for (size_t j = 0; j < k; ++j) encode_utf8(cps[j], &out);
    encode_utf8(next, &out);
    return out;
  }
  return std::nullopt;
}

std::string truncate_lower_binary(std::string_view bytes, int n) {
  return std::string(bytes.substr(0, static_cast<size_t>(n)));
}

std::optional<std::string> truncate_upper_binary(std::string_view bytes, int n) {
  if (bytes.size() <= static_cast<size_t>(n)) return std::string(bytes);
  std::string out(bytes.substr(0, static_cast<size_t>(n)));
  while (!out.empty()) {
    auto last = static_cast<unsigned char>(out.back());
    if (last != 0xFF) {
      out.back() = static_cast<char>(last + 1);
      return out;
    }
    out.pop_back();
  }
  return std::nullopt;
}

Result<WriterOptions> WriterOptions::from_properties(
    const std::map<std::string, std::string>& props, const Schema& schema) {
  WriterOptions o;
  auto get = [&](const char* key) -> const std::string* {
    auto it = props.find(key);
    return it == props.end() ? nullptr : &it->second;
  };
  auto get_int = [&](const char* key, int64_t* out) -> Status {
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
  if (const std::string* c = get("write.parquet.compression-codec")) {
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
      return not_supported("write.parquet.compression-codec={} is not supported", *c);
    }
  }
  int64_t level = o.compression_level;
  FLOE_TRY(get_int("write.parquet.compression-level", &level));
  o.compression_level = static_cast<int>(level);
  FLOE_TRY(get_int("write.parquet.row-group-size-bytes", &o.row_group_size_bytes));
  FLOE_TRY(get_int("write.parquet.page-size-bytes", &o.page_size_bytes));
  FLOE_TRY(get_int("write.parquet.page-row-limit", &o.page_row_limit));
  FLOE_TRY(get_int("write.parquet.dict-size-bytes", &o.dict_size_bytes));
  bool default_set = false;
  if (const std::string* m = get("write.metadata.metrics.default")) {
    o.default_metrics = FLOE_TRY(MetricsMode::parse(*m));
    default_set = true;
  }
  // Without an explicit default only the first 100 columns get truncate(16) (Java's
  // write.metadata.metrics.max-inferred-column-defaults).
  int64_t max_inferred = 100;
  FLOE_TRY(get_int("write.metadata.metrics.max-inferred-column-defaults", &max_inferred));
  if (!default_set) {
    std::vector<int32_t> leaves;
    std::function<void(const NestedField&)> walk = [&](const NestedField& f) {
      if (f.type->is_primitive()) leaves.push_back(f.id);
      for (const auto& c : f.type->fields()) walk(c);
    };
    for (const auto& f : schema.fields()) walk(f);
    for (size_t i = static_cast<size_t>(max_inferred); i < leaves.size(); ++i) {
      o.column_metrics[leaves[i]] = MetricsMode{MetricsMode::kNone, 0};
    }
  }
  const std::string prefix = "write.metadata.metrics.column.";
  for (const auto& [k, v] : props) {
    if (k.rfind(prefix, 0) != 0) continue;
    std::string name = k.substr(prefix.size());
    const NestedField* f = schema.find_field(name);
    if (!f) continue;  // Java ignores metrics settings for unknown columns
    o.column_metrics[f->id] = FLOE_TRY(MetricsMode::parse(v));
  }
  return o;
}

// ---------------------------------------------------------------------------------------------
// Writer internals

namespace {

uint64_t hash_bytes(const uint8_t* p, size_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  while (n >= 8) {
    uint64_t v;
    std::memcpy(&v, p, 8);
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

struct WLeaf {
  int32_t field_id = 0;
  std::vector<std::string> path;
  TypePtr type;
  PhysicalType physical = PhysicalType::kInt32;
  int type_length = 0;
  int16_t max_def = 0;
  int16_t max_rep = 0;
  bool in_repeated = false;
  MetricsMode mode;
  ColumnPtr values;  // dense (non-null) values of the current row group
  std::vector<int16_t> defs, reps;
  int64_t entries = 0;
  // File totals for the Iceberg metrics.
  int64_t value_count = 0, null_count = 0, nan_count = 0, column_size = 0;
  std::optional<Literal> lower, upper;
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

// Open-addressing dictionary over the dense values of one column chunk.
class DictBuilder {
 public:
  // Returns false when the dictionary would pass `limit` bytes (the caller falls back to PLAIN).
  bool build(const ColumnVector& v, int64_t limit) {
    uniques_ = ColumnVector::make(v.type());
    indices_.resize(static_cast<size_t>(v.length()));
    table_.assign(1024, -1);
    int w = v.value_width();
    if (w == 4) return build_fixed<uint32_t>(v, limit);
    if (w == 8) return build_fixed<uint64_t>(v, limit);
    return build_bytes(v, limit);
  }
  const ColumnVector& uniques() const { return *uniques_; }
  const std::vector<uint32_t>& indices() const { return indices_; }

 private:
  static uint64_t mix(uint64_t x) {
    x *= 0x9E3779B97F4A7C15ull;
    return x ^ (x >> 29);
  }

  // 4- and 8-byte values: keys compared as integers, not bytes.
  template <typename K>
  bool build_fixed(const ColumnVector& v, int64_t limit) {
    int64_t n = v.length();
    const K* in = reinterpret_cast<const K*>(v.values().data());
    std::vector<K> keys;
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i) {
      K key = in[i];
      size_t mask = table_.size() - 1;
      size_t slot = mix(key) & mask;
      while (true) {
        int32_t e = table_[slot];
        if (e < 0) {
          table_[slot] = static_cast<int32_t>(count);
          keys.push_back(key);
          indices_[i] = static_cast<uint32_t>(count++);
          break;
        }
        if (keys[e] == key) {
          indices_[i] = static_cast<uint32_t>(e);
          break;
        }
        slot = (slot + 1) & mask;
      }
      if (count * static_cast<int64_t>(sizeof(K)) > limit) return false;
      if (i == 65535 && count > 60000) return false;
      if (static_cast<size_t>(count) * 2 > table_.size()) {
        std::vector<int32_t> next(table_.size() * 2, -1);
        size_t m2 = next.size() - 1;
        for (int64_t e = 0; e < count; ++e) {
          size_t sl = mix(keys[e]) & m2;
          while (next[sl] >= 0) sl = (sl + 1) & m2;
          next[sl] = static_cast<int32_t>(e);
        }
        table_ = std::move(next);
      }
    }
    uniques_->values().append(keys.data(), keys.size() * sizeof(K));
    uniques_->set_length(count);
    return true;
  }

  bool build_bytes(const ColumnVector& v, int64_t limit) {
    int64_t n = v.length();
    int w = v.value_width();
    int64_t count = 0;
    int64_t bytes = 0;
    hashes_.clear();
    for (int64_t i = 0; i < n; ++i) {
      std::string_view key = v.bytes_at(i);
      uint64_t h = hash_bytes(reinterpret_cast<const uint8_t*>(key.data()), key.size());
      size_t mask = table_.size() - 1;
      size_t slot = h & mask;
      while (true) {
        int32_t e = table_[slot];
        if (e < 0) {
          table_[slot] = static_cast<int32_t>(count);
          uniques_->append_bytes(key);
          hashes_.push_back(h);
          bytes += static_cast<int64_t>(key.size()) + (w > 0 ? 0 : 4);
          indices_[i] = static_cast<uint32_t>(count++);
          break;
        }
        if (hashes_[e] == h && uniques_->bytes_at(e) == key) {
          indices_[i] = static_cast<uint32_t>(e);
          break;
        }
        slot = (slot + 1) & mask;
      }
      if (bytes > limit) return false;
      // Mostly distinct values: a dictionary would not pay.
      if (i == 65535 && count > 60000) return false;
      if (static_cast<size_t>(count) * 2 > table_.size()) {
        std::vector<int32_t> next(table_.size() * 2, -1);
        size_t m2 = next.size() - 1;
        for (int64_t e = 0; e < count; ++e) {
          size_t sl = hashes_[e] & m2;
          while (next[sl] >= 0) sl = (sl + 1) & m2;
          next[sl] = static_cast<int32_t>(e);
        }
        table_ = std::move(next);
      }
    }
    return true;
  }

  ColumnPtr uniques_;
  std::vector<uint32_t> indices_;
  std::vector<int32_t> table_;
  std::vector<uint64_t> hashes_;
};

void put_le32(uint32_t v, std::string* out) { out->append(reinterpret_cast<const char*>(&v), 4); }

}  // namespace

struct ParquetWriter::Impl {
  FileIOPtr io;
  std::string path;
  WriterOptions options;
  std::vector<NestedField> fields;
  FileMetaData metadata;
  std::vector<WNode> nodes;  // per top-level field
  std::vector<WLeaf> leaves;
  std::string out;
  int64_t buffered_rows = 0;
  int64_t total_rows = 0;
  PageCodec codec;
  DictBuilder dict;
  std::string page, compressed, header;
  std::vector<int64_t> split_offsets;
  bool closed = false;

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
      l.max_def = d;
      l.max_rep = rep;
      l.in_repeated = in_rep;
      auto it = options.column_metrics.find(f.id);
      l.mode = it != options.column_metrics.end() ? it->second : options.default_metrics;
      l.values = ColumnVector::make(f.type);
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

  void null_all(const WNode& n, int16_t def, int16_t rep) {
    for (int li : n.leaves) {
      WLeaf& l = leaves[li];
      l.defs.push_back(def);
      if (l.max_rep > 0) l.reps.push_back(rep);
      ++l.entries;
    }
  }

  static void push_value(WLeaf& l, const ColumnVector& c, int64_t i) {
    int w = c.value_width();
    ColumnVector& v = *l.values;
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
        ++l.entries;
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

  // Top-level primitive columns: levels from the validity bitmap, values copied in bulk.
  Status write_flat(const ColumnVector& col, WLeaf& l) {
    int64_t n = col.length();
    if (l.max_def == 0 && col.null_count() > 0) {
      return invalid_argument("null value in required column {}", l.path.back());
    }
    if (l.max_def > 0) {
      size_t old = l.defs.size();
      l.defs.resize(old + static_cast<size_t>(n));
      int16_t* d = l.defs.data() + old;
      if (col.null_count() == 0) {
        std::fill(d, d + n, int16_t{1});
      } else {
        for (int64_t i = 0; i < n; ++i) d[i] = col.is_valid(i) ? 1 : 0;
      }
    }
    l.entries += n;
    ColumnVector& v = *l.values;
    int w = col.value_width();
    if (col.null_count() == 0) {
      if (w > 0) {
        v.values().append(col.values().data(), static_cast<size_t>(n) * w);
      } else {
        const int32_t* so = col.offsets().as<int32_t>();
        int32_t base = static_cast<int32_t>(v.data().size());
        int64_t bytes = so[n] - so[0];
        if (static_cast<int64_t>(base) + bytes > INT32_MAX) {
          return not_supported("more than 2 GiB of strings in one row group");
        }
        v.data().append(col.data().data() + so[0], static_cast<size_t>(bytes));
        size_t old = v.offsets().size();
        v.offsets().resize(old + static_cast<size_t>(n) * 4);
        int32_t* o = reinterpret_cast<int32_t*>(v.offsets().data() + old);
        int32_t shift = base - so[0];
        for (int64_t i = 0; i < n; ++i) o[i] = so[i + 1] + shift;
      }
      v.set_length(v.length() + n);
    } else {
      for (int64_t i = 0; i < n; ++i) {
        if (col.is_valid(i)) push_value(l, col, i);
      }
    }
    return Status::OK();
  }

  // Sizes the row-group buffers once from the first batch, so appending never reallocates (and
  // re-faults) tens of megabytes per column.
  void reserve_for(const ColumnBatch& batch) {
    int64_t before = buffered_bytes();
    int64_t per_row = std::max<int64_t>(1, before / std::max<int64_t>(1, batch.num_rows));
    int64_t rows = options.row_group_size_bytes / per_row + batch.num_rows;
    double scale = static_cast<double>(rows) / static_cast<double>(batch.num_rows);
    for (auto& l : leaves) {
      ColumnVector& v = *l.values;
      v.values().reserve(static_cast<size_t>(static_cast<double>(v.values().size()) * scale));
      v.data().reserve(static_cast<size_t>(static_cast<double>(v.data().size()) * scale));
      v.offsets().reserve(static_cast<size_t>(static_cast<double>(v.offsets().size()) * scale));
      l.defs.reserve(static_cast<size_t>(static_cast<double>(l.defs.size()) * scale));
      l.reps.reserve(static_cast<size_t>(static_cast<double>(l.reps.size()) * scale));
    }
  }

  int64_t buffered_bytes() const {
    int64_t b = 0;
    for (const auto& l : leaves) {
      b += static_cast<int64_t>(l.values->values().size() + l.values->data().size() +
                                l.values->offsets().size() + l.defs.size() + l.reps.size());
    }
    return b;
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
    switch (l.type->id()) {
      case TypeId::kBoolean: {
        const uint8_t* x = v.raw<uint8_t>();
        scan([&](int64_t a, int64_t b) { return x[a] < x[b]; }, never);
        break;
      }
      case TypeId::kInt:
      case TypeId::kDate: {
        const int32_t* x = v.raw<int32_t>();
        scan([&](int64_t a, int64_t b) { return x[a] < x[b]; }, never);
        break;
      }
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
        // Unsigned byte order; an 8-byte big-endian prefix decides most comparisons.
        auto prefix = [&](std::string_view s) {
          uint64_t x = 0;
          std::memcpy(&x, s.data(), std::min<size_t>(8, s.size()));
          return __builtin_bswap64(x);
        };
        scan(
            [&](int64_t a, int64_t b) {
              std::string_view x = v.bytes_at(a), y = v.bytes_at(b);
              uint64_t px = prefix(x), py = prefix(y);
              if (px != py) return px < py;
              return x < y;
            },
            never);
        break;
      }
      default: {
        const int64_t* x = v.raw<int64_t>();
        scan([&](int64_t a, int64_t b) { return x[a] < x[b]; }, never);
        break;
      }
    }
    return *lo >= 0;
  }

  Status write_page(const WLeaf& l, Encoding enc, const std::string& body, int32_t num_values,
                    ColumnMetaData* meta, bool dictionary) {
    compressed.clear();
    FLOE_TRY(codec.compress(options.codec, reinterpret_cast<const uint8_t*>(body.data()),
                            body.size(), options.compression_level, &compressed));
    PageHeader h;
    h.uncompressed_page_size = static_cast<int32_t>(body.size());
    h.compressed_page_size = static_cast<int32_t>(compressed.size());
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
    out.append(header);
    out.append(compressed);
    meta->total_uncompressed_size += static_cast<int64_t>(header.size() + body.size());
    meta->total_compressed_size += static_cast<int64_t>(header.size() + compressed.size());
    return Status::OK();
  }

  Status write_chunk(WLeaf& l, ColumnChunk* chunk) {
    const ColumnVector& v = *l.values;
    int64_t n = v.length();
    ColumnMetaData meta;
    meta.type = l.physical;
    meta.path_in_schema = l.path;
    meta.codec = options.codec;
    meta.num_values = l.entries;
    int64_t start = static_cast<int64_t>(out.size());
    chunk->file_offset = start;

    // Statistics and Iceberg metrics.
    int64_t nulls = l.entries - n;
    int64_t lo, hi, nans;
    bool has = min_max(l, v, &lo, &hi, &nans);
    Statistics stats;
    stats.null_count = nulls;
    if (has) {
      std::string mn = stat_bytes(l, v, lo), mx = stat_bytes(l, v, hi);
      if (l.type->id() == TypeId::kFloat || l.type->id() == TypeId::kDouble) {
        // Parquet: a zero minimum is written as -0.0, a zero maximum as +0.0.
        Literal a = v.literal_at(lo), b = v.literal_at(hi);
        double av = l.type->id() == TypeId::kFloat ? a.as_float() : a.as_double();
        double bv = l.type->id() == TypeId::kFloat ? b.as_float() : b.as_double();
        if (av == 0) mn[mn.size() - 1] = static_cast<char>(mn.back() | 0x80);
        if (bv == 0) mx[mx.size() - 1] = static_cast<char>(mx.back() & 0x7f);
      }
      stats.min_value = std::move(mn);
      stats.max_value = std::move(mx);
      Literal a = v.literal_at(lo), b = v.literal_at(hi);
      if (!l.lower || a.compare(*l.lower) < 0) l.lower = a;
      if (!l.upper || b.compare(*l.upper) > 0) l.upper = b;
    }
    l.value_count += l.entries;
    l.null_count += nulls;
    l.nan_count += nans;
    meta.statistics = std::move(stats);

    // Dictionary, or PLAIN when it grows past the limit.
    bool use_dict = options.dictionary_enabled && l.type->id() != TypeId::kBoolean && n > 0 &&
                    dict.build(v, options.dict_size_bytes);
    int bw = 0;
    if (use_dict) {
      meta.dictionary_page_offset = start;
      page.clear();
      encode_plain(l, dict.uniques(), 0, dict.uniques().length(), &page);
      FLOE_TRY(write_page(l, Encoding::kPlain, page, static_cast<int32_t>(dict.uniques().length()),
                          &meta, true));
      bw = std::max(1, bit_width_of(static_cast<uint64_t>(dict.uniques().length() - 1)));
      meta.encodings = {Encoding::kPlain, Encoding::kRle, Encoding::kRleDictionary};
    } else {
      meta.encodings = {Encoding::kPlain, Encoding::kRle};
    }
    meta.data_page_offset = static_cast<int64_t>(out.size());

    // Pages: cut at row starts, by entry count and by estimated value bytes.
    double avg =
        n > 0 ? static_cast<double>(v.values().size() + v.data().size() + v.offsets().size()) /
                    static_cast<double>(n)
              : 1.0;
    if (use_dict) avg = std::max(1.0, bw / 8.0);
    int64_t per_page = std::max<int64_t>(1, static_cast<int64_t>(options.page_size_bytes / avg));
    per_page = std::min(per_page, options.page_row_limit);
    int64_t e0 = 0, vb = 0;
    do {
      int64_t e1 = std::min(l.entries, e0 + per_page);
      if (l.max_rep > 0) {
        while (e1 < l.entries && l.reps[e1] != 0) ++e1;
      }
      int64_t count = e1 - e0;
      int64_t nv = count;
      page.clear();
      if (l.max_rep > 0) {
        size_t at = page.size();
        put_le32(0, &page);
        encode_rle(l.reps.data() + e0, count, bit_width_of(l.max_rep), &page);
        uint32_t len = static_cast<uint32_t>(page.size() - at - 4);
        std::memcpy(page.data() + at, &len, 4);
      }
      if (l.max_def > 0) {
        size_t at = page.size();
        put_le32(0, &page);
        encode_rle(l.defs.data() + e0, count, bit_width_of(l.max_def), &page);
        uint32_t len = static_cast<uint32_t>(page.size() - at - 4);
        std::memcpy(page.data() + at, &len, 4);
        nv = 0;
        for (int64_t i = e0; i < e1; ++i) nv += l.defs[i] == l.max_def;
      }
      if (use_dict) {
        page.push_back(static_cast<char>(bw));
        encode_rle(dict.indices().data() + vb, nv, bw, &page);
      } else {
        encode_plain(l, v, vb, vb + nv, &page);
      }
      FLOE_TRY(write_page(l, use_dict ? Encoding::kRleDictionary : Encoding::kPlain, page,
                          static_cast<int32_t>(count), &meta, false));
      vb += nv;
      e0 = e1;
    } while (e0 < l.entries);
    l.column_size += meta.total_compressed_size;
    chunk->meta_data = std::move(meta);
    return Status::OK();
  }

  Status flush_row_group() {
    if (buffered_rows == 0) return Status::OK();
    RowGroup rg;
    rg.num_rows = buffered_rows;
    int64_t start = static_cast<int64_t>(out.size());
    rg.file_offset = start;
    for (auto& l : leaves) {
      ColumnChunk c;
      FLOE_TRY(write_chunk(l, &c));
      rg.total_byte_size += c.meta_data->total_uncompressed_size;
      rg.columns.push_back(std::move(c));
      l.values->clear();
      l.defs.clear();
      l.reps.clear();
      l.entries = 0;
    }
    rg.total_compressed_size = static_cast<int64_t>(out.size()) - start;
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
  im.out = "PAR1";
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
    const WNode& n = im.nodes[c];
    if (n.kind == WNode::kPrim) {
      Status st = im.write_flat(col, im.leaves[n.leaf]);
      if (!st.ok()) return st.with_context(im.path);
    } else {
      for (int64_t i = 0; i < batch.num_rows; ++i) {
        Status st = im.shred(col, i, n, 0, 0);
        if (!st.ok())
          return st.with_context(fmt::format("{}: column {}", im.path, im.fields[c].name));
      }
    }
  }
  if (im.buffered_rows == 0 && batch.num_rows > 0 && im.total_rows == 0) im.reserve_for(batch);
  im.buffered_rows += batch.num_rows;
  if (im.buffered_bytes() >= im.options.row_group_size_bytes) FLOE_TRY(im.flush_row_group());
  return Status::OK();
}

int64_t ParquetWriter::estimated_size() const {
  return static_cast<int64_t>(impl_->out.size()) + impl_->buffered_bytes();
}

Result<DataFileMetrics> ParquetWriter::close() {
  Impl& im = *impl_;
  if (im.closed) return invalid_argument("{}: writer is already closed", im.path);
  im.closed = true;
  FLOE_TRY(im.flush_row_group());
  im.metadata.num_rows = im.total_rows;
  im.metadata.created_by = im.options.created_by;
  im.metadata.key_value_metadata = im.options.key_value_metadata;
  std::string footer = encode_file_metadata(im.metadata);
  im.out.append(footer);
  put_le32(static_cast<uint32_t>(footer.size()), &im.out);
  im.out.append("PAR1");
  FLOE_TRY(im.io->write_file(im.path, im.out));

  DataFileMetrics m;
  m.record_count = im.total_rows;
  m.file_size = static_cast<int64_t>(im.out.size());
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
  im.out.clear();
  im.out.shrink_to_fit();
  return m;
}

}  // namespace floe::parquet
