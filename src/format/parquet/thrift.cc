// Thrift compact protocol, hand-written for the parquet.thrift structs floe needs. The reader
// keeps a sticky error instead of checking every call: once a read runs past the end, nests too
// deep or meets a bad type, every later read returns zero and the caller reports the first
// error.
#include <cstring>

#include "floe/format/parquet/metadata.h"

namespace floe::parquet {

namespace {

enum CType : uint8_t {
  kStop = 0,
  kTrue = 1,
  kFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

constexpr int kMaxDepth = 64;

class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), end_(p + n), begin_(p) {}

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  size_t consumed() const { return static_cast<size_t>(p_ - begin_); }

  void fail(std::string msg) {
    if (error_.empty()) error_ = std::move(msg);
    p_ = end_;
  }

  uint8_t byte() {
    if (p_ >= end_) {
      fail("truncated Thrift data");
      return 0;
    }
    return *p_++;
  }
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (p_ >= end_) {
        fail("truncated Thrift varint");
        return 0;
      }
      uint8_t b = *p_++;
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    fail("Thrift varint longer than 10 bytes");
    return 0;
  }
  int64_t zigzag() {
    uint64_t v = varint();
    return static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1));
  }
  int32_t i32() { return static_cast<int32_t>(zigzag()); }
  int64_t i64() { return zigzag(); }
  std::string binary() {
    uint64_t n = varint();
    if (n > static_cast<uint64_t>(end_ - p_)) {
      fail("Thrift string length past the end of the data");
      return {};
    }
    std::string s(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return s;
  }
  // List header: element type and count.
  uint32_t list_begin(uint8_t* elem_type) {
    uint8_t h = byte();
    *elem_type = h & 0x0f;
    uint64_t n = h >> 4;
    if (n == 15) n = varint();
    // Every element takes at least one byte (except empty structs, which take one stop byte).
    if (n > static_cast<uint64_t>(end_ - p_)) {
      fail("Thrift list size past the end of the data");
      return 0;
    }
    return static_cast<uint32_t>(n);
  }

  bool enter() {
    if (++depth_ > kMaxDepth) {
      fail("Thrift nesting deeper than 64");
      return false;
    }
    return true;
  }
  void leave() { --depth_; }

  // Reads a struct, calling on_field(id, type) for each field; on_field must consume the value
  // (or call skip) and returns nothing.
  template <typename F>
  void read_struct(F&& on_field) {
    if (!enter()) return;
    int16_t last = 0;
    while (ok()) {
      uint8_t h = byte();
      uint8_t type = h & 0x0f;
      if (type == kStop) break;
      int16_t id;
      uint8_t delta = h >> 4;
      if (delta) {
        id = static_cast<int16_t>(last + delta);
      } else {
        id = static_cast<int16_t>(zigzag());
      }
      last = id;
      bool_value_ = type == kTrue;
      on_field(id, type);
    }
    leave();
  }
  bool bool_field() const { return bool_value_; }

  void skip(uint8_t type) {
    switch (type) {
      case kTrue:
      case kFalse:
        return;
      case kByte:
        byte();
        return;
      case kI16:
      case kI32:
      case kI64:
        varint();
        return;
      case kDouble:
        if (end_ - p_ < 8) return fail("truncated Thrift double");
        p_ += 8;
        return;
      case kBinary: {
        uint64_t n = varint();
        if (n > static_cast<uint64_t>(end_ - p_)) return fail("truncated Thrift binary");
        p_ += n;
        return;
      }
      case kList:
      case kSet: {
        if (!enter()) return;
        uint8_t et;
        uint32_t n = list_begin(&et);
        for (uint32_t i = 0; i < n && ok(); ++i) {
          if (et == kTrue || et == kFalse) {
            byte();
          } else {
            skip(et);
          }
        }
        leave();
        return;
      }
      case kMap: {
        if (!enter()) return;
        uint64_t n = varint();
        if (n == 0) {
          leave();
          return;
        }
        uint8_t kv = byte();
        if (n > static_cast<uint64_t>(end_ - p_)) return fail("Thrift map size past the end");
        for (uint64_t i = 0; i < n && ok(); ++i) {
          skip(kv >> 4);
          skip(kv & 0x0f);
        }
        leave();
        return;
      }
      case kStruct:
        read_struct([&](int16_t, uint8_t t) { skip(t); });
        return;
      default:
        fail("bad Thrift type " + std::to_string(type));
    }
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  const uint8_t* begin_;
  int depth_ = 0;
  bool bool_value_ = false;
  std::string error_;
};

// Typed field readers: check the wire type, then read.
#define EXPECT_TYPE(t)                                                                  \
  if (type != (t)) {                                                                    \
    r.fail("field " + std::to_string(id) + " has Thrift type " + std::to_string(type) + \
           ", expected " + std::to_string(t));                                          \
    return;                                                                             \
  }

template <typename F>
void read_list(Reader& r, uint8_t expect, F&& each) {
  if (!r.enter()) return;
  uint8_t et;
  uint32_t n = r.list_begin(&et);
  if (n > 0 && et != expect) {
    r.fail("Thrift list of type " + std::to_string(et) + ", expected " + std::to_string(expect));
    r.leave();
    return;
  }
  for (uint32_t i = 0; i < n && r.ok(); ++i) each();
  r.leave();
}

void read_statistics(Reader& r, Statistics* s) {
  r.read_struct([&](int16_t id, uint8_t type) {
    switch (id) {
      case 1:
        EXPECT_TYPE(kBinary);
        s->max = r.binary();
        break;
      case 2:
        EXPECT_TYPE(kBinary);
        s->min = r.binary();
        break;
      case 3:
        EXPECT_TYPE(kI64);
        s->null_count = r.i64();
        break;
      case 4:
        EXPECT_TYPE(kI64);
        s->distinct_count = r.i64();
        break;
      case 5:
        EXPECT_TYPE(kBinary);
        s->max_value = r.binary();
        break;
      case 6:
        EXPECT_TYPE(kBinary);
        s->min_value = r.binary();
        break;
      default:
        r.skip(type);
    }
  });
}

void read_time_unit(Reader& r, TimeUnit* unit) {
  r.read_struct([&](int16_t id, uint8_t type) {
    if (id == 1) *unit = TimeUnit::kMillis;
    if (id == 2) *unit = TimeUnit::kMicros;
    if (id == 3) *unit = TimeUnit::kNanos;
    r.skip(type);
  });
}

void read_logical_type(Reader& r, LogicalType* lt) {
  r.read_struct([&](int16_t id, uint8_t type) {
    if (type != kStruct) return r.skip(type);
    lt->kind = static_cast<LogicalType::Kind>(id);
    switch (id) {
      case LogicalType::kDecimal:
        r.read_struct([&](int16_t fid, uint8_t t) {
          if (fid == 1 && t == kI32) {
            lt->scale = r.i32();
          } else if (fid == 2 && t == kI32) {
            lt->precision = r.i32();
          } else {
            r.skip(t);
          }
        });
        break;
      case LogicalType::kTime:
      case LogicalType::kTimestamp:
        r.read_struct([&](int16_t fid, uint8_t t) {
          if (fid == 1 && (t == kTrue || t == kFalse)) {
            lt->adjusted_to_utc = r.bool_field();
          } else if (fid == 2 && t == kStruct) {
            read_time_unit(r, &lt->unit);
          } else {
            r.skip(t);
          }
        });
        break;
      case LogicalType::kInteger:
        r.read_struct([&](int16_t fid, uint8_t t) {
          if (fid == 1 && t == kByte) {
            lt->bit_width = static_cast<int8_t>(r.byte());
          } else if (fid == 2 && (t == kTrue || t == kFalse)) {
            lt->is_signed = r.bool_field();
          } else {
            r.skip(t);
          }
        });
        break;
      default:
        if (id > 16 || id == 9) lt->kind = LogicalType::kNone;
        r.skip(type);
    }
  });
}

void read_schema_element(Reader& r, SchemaElement* e) {
  r.read_struct([&](int16_t id, uint8_t type) {
    switch (id) {
      case 1:
        EXPECT_TYPE(kI32);
        e->type = static_cast<PhysicalType>(r.i32());
        break;
      case 2:
        EXPECT_TYPE(kI32);
        e->type_length = r.i32();
        break;
      case 3:
        EXPECT_TYPE(kI32);
        e->repetition = static_cast<Repetition>(r.i32());
        break;
      case 4:
        EXPECT_TYPE(kBinary);
        e->name = r.binary();
        break;
      case 5:
        EXPECT_TYPE(kI32);
        e->num_children = r.i32();
        break;
      case 6:
        EXPECT_TYPE(kI32);
        e->converted_type = static_cast<ConvertedType>(r.i32());
        break;
      case 7:
        EXPECT_TYPE(kI32);
        e->scale = r.i32();
        break;
      case 8:
        EXPECT_TYPE(kI32);
        e->precision = r.i32();
        break;
      case 9:
        EXPECT_TYPE(kI32);
        e->field_id = r.i32();
        break;
      case 10:
        EXPECT_TYPE(kStruct);
        read_logical_type(r, &e->logical_type);
        break;
      default:
        r.skip(type);
    }
  });
}

void read_column_metadata(Reader& r, ColumnMetaData* m) {
  r.read_struct([&](int16_t id, uint8_t type) {
    switch (id) {
      case 1:
        EXPECT_TYPE(kI32);
        m->type = static_cast<PhysicalType>(r.i32());
        break;
      case 2:
        EXPECT_TYPE(kList);
        read_list(r, kI32, [&] { m->encodings.push_back(static_cast<Encoding>(r.i32())); });
        break;
      case 3:
        EXPECT_TYPE(kList);
        read_list(r, kBinary, [&] { m->path_in_schema.push_back(r.binary()); });
        break;
      case 4:
        EXPECT_TYPE(kI32);
        m->codec = static_cast<Codec>(r.i32());
        break;
      case 5:
        EXPECT_TYPE(kI64);
        m->num_values = r.i64();
        break;
      case 6:
        EXPECT_TYPE(kI64);
        m->total_uncompressed_size = r.i64();
        break;
      case 7:
        EXPECT_TYPE(kI64);
        m->total_compressed_size = r.i64();
        break;
      case 9:
        EXPECT_TYPE(kI64);
        m->data_page_offset = r.i64();
        break;
      case 10:
        EXPECT_TYPE(kI64);
        m->index_page_offset = r.i64();
        break;
      case 11:
        EXPECT_TYPE(kI64);
        m->dictionary_page_offset = r.i64();
        break;
      case 12:
        EXPECT_TYPE(kStruct);
        read_statistics(r, &m->statistics.emplace());
        break;
      default:
        r.skip(type);
    }
  });
}

void read_column_chunk(Reader& r, ColumnChunk* c) {
  r.read_struct([&](int16_t id, uint8_t type) {
    switch (id) {
      case 1:
        EXPECT_TYPE(kBinary);
        c->file_path = r.binary();
        break;
      case 2:
        EXPECT_TYPE(kI64);
        c->file_offset = r.i64();
        break;
      case 3:
        EXPECT_TYPE(kStruct);
        read_column_metadata(r, &c->meta_data.emplace());
        break;
      case 4:
        EXPECT_TYPE(kI64);
        c->offset_index_offset = r.i64();
        break;
      case 5:
        EXPECT_TYPE(kI32);
        c->offset_index_length = r.i32();
        break;
      case 6:
        EXPECT_TYPE(kI64);
        c->column_index_offset = r.i64();
        break;
      case 7:
        EXPECT_TYPE(kI32);
        c->column_index_length = r.i32();
        break;
      default:
        r.skip(type);
    }
  });
}

void read_row_group(Reader& r, RowGroup* g) {
  r.read_struct([&](int16_t id, uint8_t type) {
    switch (id) {
      case 1:
        EXPECT_TYPE(kList);
        read_list(r, kStruct, [&] { read_column_chunk(r, &g->columns.emplace_back()); });
        break;
      case 2:
        EXPECT_TYPE(kI64);
        g->total_byte_size = r.i64();
        break;
      case 3:
        EXPECT_TYPE(kI64);
        g->num_rows = r.i64();
        break;
      case 5:
        EXPECT_TYPE(kI64);
        g->file_offset = r.i64();
        break;
      case 6:
        EXPECT_TYPE(kI64);
        g->total_compressed_size = r.i64();
        break;
      case 7:
        EXPECT_TYPE(kI16);
        g->ordinal = static_cast<int16_t>(r.i32());
        break;
      default:
        r.skip(type);
    }
  });
}

void read_key_value(Reader& r, KeyValue* kv) {
  r.read_struct([&](int16_t id, uint8_t type) {
    if (id == 1 && type == kBinary) {
      kv->key = r.binary();
    } else if (id == 2 && type == kBinary) {
      kv->value = r.binary();
    } else {
      r.skip(type);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Writer

class Writer {
 public:
  explicit Writer(std::string* out) : out_(out) {}

  void varint(uint64_t v) {
    while (v >= 0x80) {
      out_->push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_->push_back(static_cast<char>(v));
  }
  void zigzag(int64_t v) {
    varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
  }

  void field(int16_t id, uint8_t type) {
    int delta = id - last_;
    if (delta > 0 && delta <= 15) {
      out_->push_back(static_cast<char>((delta << 4) | type));
    } else {
      out_->push_back(static_cast<char>(type));
      zigzag(id);
    }
    last_ = id;
  }
  void i32(int16_t id, int32_t v) {
    field(id, kI32);
    zigzag(v);
  }
  void i64(int16_t id, int64_t v) {
    field(id, kI64);
    zigzag(v);
  }
  void boolean(int16_t id, bool v) { field(id, v ? kTrue : kFalse); }
  void bin(int16_t id, std::string_view s) {
    field(id, kBinary);
    raw_bin(s);
  }
  void raw_bin(std::string_view s) {
    varint(s.size());
    out_->append(s.data(), s.size());
  }
  void list(int16_t id, uint8_t elem_type, size_t n) {
    field(id, kList);
    if (n < 15) {
      out_->push_back(static_cast<char>((n << 4) | elem_type));
    } else {
      out_->push_back(static_cast<char>(0xf0 | elem_type));
      varint(n);
    }
  }
  void begin(int16_t id) {
    field(id, kStruct);
    push();
  }
  void push() {
    stack_.push_back(last_);
    last_ = 0;
  }
  void end() {
    out_->push_back(0);
    last_ = stack_.back();
    stack_.pop_back();
  }
  std::string* out() { return out_; }

 private:
  std::string* out_;
  int16_t last_ = 0;
  std::vector<int16_t> stack_;
};

void write_statistics(Writer& w, int16_t id, const Statistics& s) {
  w.begin(id);
  if (s.max) w.bin(1, *s.max);
  if (s.min) w.bin(2, *s.min);
  if (s.null_count) w.i64(3, *s.null_count);
  if (s.distinct_count) w.i64(4, *s.distinct_count);
  if (s.max_value) w.bin(5, *s.max_value);
  if (s.min_value) w.bin(6, *s.min_value);
  w.end();
}

void write_logical_type(Writer& w, const LogicalType& lt) {
  w.begin(10);
  w.begin(static_cast<int16_t>(lt.kind));
  switch (lt.kind) {
    case LogicalType::kDecimal:
      w.i32(1, lt.scale);
      w.i32(2, lt.precision);
      break;
    case LogicalType::kTime:
    case LogicalType::kTimestamp:
      w.boolean(1, lt.adjusted_to_utc);
      w.begin(2);
      w.begin(lt.unit == TimeUnit::kMillis ? 1 : lt.unit == TimeUnit::kMicros ? 2 : 3);
      w.end();
      w.end();
      break;
    case LogicalType::kInteger:
      w.field(1, kByte);
      w.out()->push_back(static_cast<char>(lt.bit_width));
      w.boolean(2, lt.is_signed);
      break;
    default:
      break;
  }
  w.end();
  w.end();
}

void write_schema_element(Writer& w, const SchemaElement& e) {
  w.push();
  if (e.type) w.i32(1, static_cast<int32_t>(*e.type));
  if (e.type && *e.type == PhysicalType::kFixedLenByteArray) w.i32(2, e.type_length);
  if (e.repetition) w.i32(3, static_cast<int32_t>(*e.repetition));
  w.bin(4, e.name);
  if (e.num_children > 0 || !e.type) w.i32(5, e.num_children);
  if (e.converted_type != ConvertedType::kNone) w.i32(6, static_cast<int32_t>(e.converted_type));
  if (e.converted_type == ConvertedType::kDecimal) {
    w.i32(7, e.scale);
    w.i32(8, e.precision);
  }
  if (e.field_id) w.i32(9, *e.field_id);
  if (e.logical_type.kind != LogicalType::kNone) write_logical_type(w, e.logical_type);
  w.end();
}

void write_column_chunk(Writer& w, const ColumnChunk& c) {
  w.push();
  if (!c.file_path.empty()) w.bin(1, c.file_path);
  w.i64(2, c.file_offset);
  if (c.meta_data) {
    const ColumnMetaData& m = *c.meta_data;
    w.begin(3);
    w.i32(1, static_cast<int32_t>(m.type));
    w.list(2, kI32, m.encodings.size());
    for (Encoding e : m.encodings) w.zigzag(static_cast<int32_t>(e));
    w.list(3, kBinary, m.path_in_schema.size());
    for (const auto& p : m.path_in_schema) w.raw_bin(p);
    w.i32(4, static_cast<int32_t>(m.codec));
    w.i64(5, m.num_values);
    w.i64(6, m.total_uncompressed_size);
    w.i64(7, m.total_compressed_size);
    w.i64(9, m.data_page_offset);
    if (m.index_page_offset) w.i64(10, *m.index_page_offset);
    if (m.dictionary_page_offset) w.i64(11, *m.dictionary_page_offset);
    if (m.statistics) write_statistics(w, 12, *m.statistics);
    w.end();
  }
  w.end();
}

}  // namespace

Status decode_file_metadata(std::string_view bytes, FileMetaData* out) {
  Reader r(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  *out = FileMetaData();
  r.read_struct([&](int16_t id, uint8_t type) {
    switch (id) {
      case 1:
        EXPECT_TYPE(kI32);
        out->version = r.i32();
        break;
      case 2:
        EXPECT_TYPE(kList);
        read_list(r, kStruct, [&] { read_schema_element(r, &out->schema.emplace_back()); });
        break;
      case 3:
        EXPECT_TYPE(kI64);
        out->num_rows = r.i64();
        break;
      case 4:
        EXPECT_TYPE(kList);
        read_list(r, kStruct, [&] { read_row_group(r, &out->row_groups.emplace_back()); });
        break;
      case 5:
        EXPECT_TYPE(kList);
        read_list(r, kStruct, [&] { read_key_value(r, &out->key_value_metadata.emplace_back()); });
        break;
      case 6:
        EXPECT_TYPE(kBinary);
        out->created_by = r.binary();
        break;
      default:
        r.skip(type);
    }
  });
  if (!r.ok()) return invalid_data("bad Parquet footer: {}", r.error());
  return Status::OK();
}

Status decode_page_header(std::string_view bytes, PageHeader* out, size_t* header_size) {
  Reader r(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  *out = PageHeader();
  r.read_struct([&](int16_t id, uint8_t type) {
    switch (id) {
      case 1:
        EXPECT_TYPE(kI32);
        out->type = static_cast<PageType>(r.i32());
        break;
      case 2:
        EXPECT_TYPE(kI32);
        out->uncompressed_page_size = r.i32();
        break;
      case 3:
        EXPECT_TYPE(kI32);
        out->compressed_page_size = r.i32();
        break;
      case 4:
        EXPECT_TYPE(kI32);
        out->crc = r.i32();
        break;
      case 5: {
        EXPECT_TYPE(kStruct);
        auto& h = out->data_page_header.emplace();
        r.read_struct([&](int16_t fid, uint8_t t) {
          if (t == kI32 && fid >= 1 && fid <= 4) {
            int32_t v = r.i32();
            if (fid == 1) h.num_values = v;
            if (fid == 2) h.encoding = static_cast<Encoding>(v);
            if (fid == 3) h.definition_level_encoding = static_cast<Encoding>(v);
            if (fid == 4) h.repetition_level_encoding = static_cast<Encoding>(v);
          } else if (fid == 5 && t == kStruct) {
            read_statistics(r, &h.statistics.emplace());
          } else {
            r.skip(t);
          }
        });
        break;
      }
      case 7: {
        EXPECT_TYPE(kStruct);
        auto& h = out->dictionary_page_header.emplace();
        r.read_struct([&](int16_t fid, uint8_t t) {
          if (fid == 1 && t == kI32) {
            h.num_values = r.i32();
          } else if (fid == 2 && t == kI32) {
            h.encoding = static_cast<Encoding>(r.i32());
          } else if (fid == 3 && (t == kTrue || t == kFalse)) {
            h.is_sorted = r.bool_field();
          } else {
            r.skip(t);
          }
        });
        break;
      }
      case 8: {
        EXPECT_TYPE(kStruct);
        auto& h = out->data_page_header_v2.emplace();
        r.read_struct([&](int16_t fid, uint8_t t) {
          if (t == kI32 && fid >= 1 && fid <= 6) {
            int32_t v = r.i32();
            if (fid == 1) h.num_values = v;
            if (fid == 2) h.num_nulls = v;
            if (fid == 3) h.num_rows = v;
            if (fid == 4) h.encoding = static_cast<Encoding>(v);
            if (fid == 5) h.definition_levels_byte_length = v;
            if (fid == 6) h.repetition_levels_byte_length = v;
          } else if (fid == 7 && (t == kTrue || t == kFalse)) {
            h.is_compressed = r.bool_field();
          } else if (fid == 8 && t == kStruct) {
            read_statistics(r, &h.statistics.emplace());
          } else {
            r.skip(t);
          }
        });
        break;
      }
      default:
        r.skip(type);
    }
  });
  if (!r.ok()) return invalid_data("bad Parquet page header: {}", r.error());
  *header_size = r.consumed();
  return Status::OK();
}

std::string encode_file_metadata(const FileMetaData& m) {
  std::string out;
  Writer w(&out);
  w.push();
  w.i32(1, m.version);
  w.list(2, kStruct, m.schema.size());
  for (const auto& e : m.schema) write_schema_element(w, e);
  w.i64(3, m.num_rows);
  w.list(4, kStruct, m.row_groups.size());
  for (const auto& g : m.row_groups) {
    w.push();
    w.list(1, kStruct, g.columns.size());
    for (const auto& c : g.columns) write_column_chunk(w, c);
    w.i64(2, g.total_byte_size);
    w.i64(3, g.num_rows);
    if (g.file_offset) w.i64(5, *g.file_offset);
    if (g.total_compressed_size) w.i64(6, *g.total_compressed_size);
    if (g.ordinal) {
      w.field(7, kI16);
      w.zigzag(*g.ordinal);
    }
    w.end();
  }
  if (!m.key_value_metadata.empty()) {
    w.list(5, kStruct, m.key_value_metadata.size());
    for (const auto& kv : m.key_value_metadata) {
      w.push();
      w.bin(1, kv.key);
      if (kv.value) w.bin(2, *kv.value);
      w.end();
    }
  }
  if (m.created_by) w.bin(6, *m.created_by);
  w.end();
  return out;
}

void encode_page_header(const PageHeader& h, std::string* out) {
  Writer w(out);
  w.push();
  w.i32(1, static_cast<int32_t>(h.type));
  w.i32(2, h.uncompressed_page_size);
  w.i32(3, h.compressed_page_size);
  if (h.crc) w.i32(4, *h.crc);
  if (h.data_page_header) {
    const auto& d = *h.data_page_header;
    w.begin(5);
    w.i32(1, d.num_values);
    w.i32(2, static_cast<int32_t>(d.encoding));
    w.i32(3, static_cast<int32_t>(d.definition_level_encoding));
    w.i32(4, static_cast<int32_t>(d.repetition_level_encoding));
    if (d.statistics) write_statistics(w, 5, *d.statistics);
    w.end();
  }
  if (h.dictionary_page_header) {
    const auto& d = *h.dictionary_page_header;
    w.begin(7);
    w.i32(1, d.num_values);
    w.i32(2, static_cast<int32_t>(d.encoding));
    if (d.is_sorted) w.boolean(3, true);
    w.end();
  }
  if (h.data_page_header_v2) {
    const auto& d = *h.data_page_header_v2;
    w.begin(8);
    w.i32(1, d.num_values);
    w.i32(2, d.num_nulls);
    w.i32(3, d.num_rows);
    w.i32(4, static_cast<int32_t>(d.encoding));
    w.i32(5, d.definition_levels_byte_length);
    w.i32(6, d.repetition_levels_byte_length);
    w.boolean(7, d.is_compressed);
    if (d.statistics) write_statistics(w, 8, *d.statistics);
    w.end();
  }
  w.end();
}

const char* physical_type_name(PhysicalType t) {
  switch (t) {
    case PhysicalType::kBoolean:
      return "BOOLEAN";
    case PhysicalType::kInt32:
      return "INT32";
    case PhysicalType::kInt64:
      return "INT64";
    case PhysicalType::kInt96:
      return "INT96";
    case PhysicalType::kFloat:
      return "FLOAT";
    case PhysicalType::kDouble:
      return "DOUBLE";
    case PhysicalType::kByteArray:
      return "BYTE_ARRAY";
    case PhysicalType::kFixedLenByteArray:
      return "FIXED_LEN_BYTE_ARRAY";
  }
  return "?";
}

const char* encoding_name(Encoding e) {
  switch (e) {
    case Encoding::kPlain:
      return "PLAIN";
    case Encoding::kPlainDictionary:
      return "PLAIN_DICTIONARY";
    case Encoding::kRle:
      return "RLE";
    case Encoding::kBitPacked:
      return "BIT_PACKED";
    case Encoding::kDeltaBinaryPacked:
      return "DELTA_BINARY_PACKED";
    case Encoding::kDeltaLengthByteArray:
      return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::kDeltaByteArray:
      return "DELTA_BYTE_ARRAY";
    case Encoding::kRleDictionary:
      return "RLE_DICTIONARY";
    case Encoding::kByteStreamSplit:
      return "BYTE_STREAM_SPLIT";
  }
  return "?";
}

const char* codec_name(Codec c) {
  switch (c) {
    case Codec::kUncompressed:
      return "UNCOMPRESSED";
    case Codec::kSnappy:
      return "SNAPPY";
    case Codec::kGzip:
      return "GZIP";
    case Codec::kLzo:
      return "LZO";
    case Codec::kBrotli:
      return "BROTLI";
    case Codec::kLz4:
      return "LZ4";
    case Codec::kZstd:
      return "ZSTD";
    case Codec::kLz4Raw:
      return "LZ4_RAW";
  }
  return "?";
}

const char* converted_type_name(ConvertedType t) {
  static const char* kNames[] = {"UTF8",
                                 "MAP",
                                 "MAP_KEY_VALUE",
                                 "LIST",
                                 "ENUM",
                                 "DECIMAL",
                                 "DATE",
                                 "TIME_MILLIS",
                                 "TIME_MICROS",
                                 "TIMESTAMP_MILLIS",
                                 "TIMESTAMP_MICROS",
                                 "UINT_8",
                                 "UINT_16",
                                 "UINT_32",
                                 "UINT_64",
                                 "INT_8",
                                 "INT_16",
                                 "INT_32",
                                 "INT_64",
                                 "JSON",
                                 "BSON",
                                 "INTERVAL"};
  int i = static_cast<int>(t);
  if (i < 0 || i > 21) return "";
  return kNames[i];
}

std::string logical_type_string(const LogicalType& t) {
  auto unit = [&] {
    return t.unit == TimeUnit::kMillis   ? "MILLIS"
           : t.unit == TimeUnit::kMicros ? "MICROS"
                                         : "NANOS";
  };
  switch (t.kind) {
    case LogicalType::kNone:
      return "";
    case LogicalType::kString:
      return "STRING";
    case LogicalType::kMap:
      return "MAP";
    case LogicalType::kList:
      return "LIST";
    case LogicalType::kEnum:
      return "ENUM";
    case LogicalType::kDecimal:
      return fmt::format("DECIMAL({},{})", t.precision, t.scale);
    case LogicalType::kDate:
      return "DATE";
    case LogicalType::kTime:
      return fmt::format("TIME({},{})", unit(), t.adjusted_to_utc);
    case LogicalType::kTimestamp:
      return fmt::format("TIMESTAMP({},{})", unit(), t.adjusted_to_utc);
    case LogicalType::kInteger:
      return fmt::format("INTEGER({},{})", t.bit_width, t.is_signed);
    case LogicalType::kUnknown:
      return "UNKNOWN";
    case LogicalType::kJson:
      return "JSON";
    case LogicalType::kBson:
      return "BSON";
    case LogicalType::kUuid:
      return "UUID";
    case LogicalType::kFloat16:
      return "FLOAT16";
    case LogicalType::kVariant:
      return "VARIANT";
  }
  return "";
}

}  // namespace floe::parquet
