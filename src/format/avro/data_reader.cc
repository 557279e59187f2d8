#include "floe/format/avro/data_reader.h"

#include <fmt/format.h>

#include "floe/format/avro/container.h"
#include "floe/format/avro/generic.h"
#include "floe/spec/name_mapping.h"

namespace floe::avro {

namespace {

// How one writer datum becomes one value of the target column.
enum class Op : uint8_t {
  kNull,  // the null branch of a union
  kBool,
  kInt,                // int -> int32 (int, date)
  kIntToLong,          // int -> int64 (long promotion, time-millis)
  kLong,               // long -> int64
  kMillisToMicros,     // long timestamp-millis -> micros
  kIntMillisToMicros,  // int time-millis -> micros
  kIntToFloat,
  kLongToFloat,
  kFloat,
  kIntToDouble,
  kLongToDouble,
  kFloatToDouble,
  kDouble,
  kBytes,          // string/bytes -> string/binary
  kFixedToBinary,  // fixed -> binary
  kEnum,           // enum symbol -> string
  kFixed,          // fixed(L) -> fixed[L] / uuid
  kBytesToFixed,   // bytes of length L -> fixed[L]
  kUuidString,     // text uuid -> uuid
  kDecimalFixed,
  kDecimalBytes,
  kRecord,
  kList,
  kMap,       // Avro map with string keys
  kArrayMap,  // array of key/value records
  kUnion,
  kError,  // a union branch that cannot be read as the target type
};

struct Plan {
  Op op = Op::kError;
  const Node* node = nullptr;  // the writer node
  int size = 0;                // fixed size
  std::vector<Plan> children;  // union branches, record fields, list element, map key/value
  std::vector<int> targets;    // record: target child per writer field (-1 = skip)
  std::vector<std::pair<int, Literal>> fills;  // record: target children absent from the file
  std::string error;
};

bool has_name(const MappedField& m, const std::string& name) {
  for (const auto& n : m.names) {
    if (n == name) return true;
  }
  return false;
}

const MappedField* mapped(const std::vector<MappedField>* level, const std::string& name) {
  if (!level) return nullptr;
  for (const auto& m : *level) {
    if (has_name(m, name)) return &m;
  }
  return nullptr;
}

int decimal_scale(const Node& n) {
  auto it = n.props.find("scale");
  return it != n.props.end() && it->is_number_integer() ? it->get<int>() : 0;
}

class Resolver {
 public:
  explicit Resolver(std::string path) : path_(std::move(path)) {}

  // `mapping`: name-mapping entries for the children of the writer node, or null.
  Result<Plan> resolve(const Node* w, const TypePtr& target, const std::string& where,
                       const std::vector<MappedField>* mapping) {
    Plan p;
    p.node = w;
    if (w->type == AvroType::kUnion) {
      p.op = Op::kUnion;
      bool any = false;
      std::optional<Status> only_error;  // the reason when the one non-null branch fails
      int non_null = 0;
      for (const Node* b : w->branches) {
        if (b->type == AvroType::kNull) {
          Plan n;
          n.op = Op::kNull;
          p.children.push_back(std::move(n));
          continue;
        }
        auto r = resolve(b, target, where, mapping);
        ++non_null;
        if (!r.ok()) only_error = r.status();
        if (r.ok()) {
          any = true;
          p.children.push_back(std::move(*r));
        } else {
          Plan e;
          e.op = Op::kError;
          e.node = b;
          e.error = r.status().message();
          p.children.push_back(std::move(e));
        }
      }
      if (!any && non_null == 1 && only_error) return *only_error;
      if (!any) return mismatch(w, target, where);
      return p;
    }
    switch (target->id()) {
      case TypeId::kBoolean:
        if (w->type == AvroType::kBoolean) return op(p, Op::kBool);
        break;
      case TypeId::kInt:
      case TypeId::kDate:
        if (w->type == AvroType::kInt) return op(p, Op::kInt);
        break;
      case TypeId::kLong:
        if (w->type == AvroType::kInt) return op(p, Op::kIntToLong);
        if (w->type == AvroType::kLong) return op(p, Op::kLong);
        break;
      case TypeId::kTime:
        if (w->type == AvroType::kLong) return op(p, Op::kLong);
        if (w->type == AvroType::kInt && w->logical_type == "time-millis") {
          return op(p, Op::kIntMillisToMicros);
        }
        break;
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz:
      case TypeId::kTimestampNs:
      case TypeId::kTimestampTzNs: {
        if (w->type != AvroType::kLong) break;
        bool ns = target->id() == TypeId::kTimestampNs || target->id() == TypeId::kTimestampTzNs;
        if (w->logical_type == "timestamp-millis" && !ns) return op(p, Op::kMillisToMicros);
        if (w->logical_type == "timestamp-nanos" && !ns) break;
        if (w->logical_type == "timestamp-micros" && ns) break;
        return op(p, Op::kLong);
      }
      case TypeId::kFloat:
        if (w->type == AvroType::kFloat) return op(p, Op::kFloat);
        if (w->type == AvroType::kInt) return op(p, Op::kIntToFloat);
        if (w->type == AvroType::kLong) return op(p, Op::kLongToFloat);
        break;
      case TypeId::kDouble:
        if (w->type == AvroType::kDouble) return op(p, Op::kDouble);
        if (w->type == AvroType::kFloat) return op(p, Op::kFloatToDouble);
        if (w->type == AvroType::kInt) return op(p, Op::kIntToDouble);
        if (w->type == AvroType::kLong) return op(p, Op::kLongToDouble);
        break;
      case TypeId::kString:
        if (w->type == AvroType::kString || w->type == AvroType::kBytes) return op(p, Op::kBytes);
        if (w->type == AvroType::kEnum) return op(p, Op::kEnum);
        break;
      case TypeId::kBinary:
        if (w->type == AvroType::kString || w->type == AvroType::kBytes) return op(p, Op::kBytes);
        if (w->type == AvroType::kFixed) return op(p, Op::kFixedToBinary);
        break;
      case TypeId::kUuid:
        if (w->type == AvroType::kFixed && w->size == 16) return op(p, Op::kFixed);
        if (w->type == AvroType::kString) return op(p, Op::kUuidString);
        break;
      case TypeId::kFixed:
        p.size = target->length();
        if (w->type == AvroType::kFixed && w->size == target->length()) return op(p, Op::kFixed);
        if (w->type == AvroType::kBytes) return op(p, Op::kBytesToFixed);
        break;
      case TypeId::kDecimal:
        if (w->logical_type == "decimal" && decimal_scale(*w) != target->scale()) {
          return invalid_data(
              "{}: field '{}' is a decimal of scale {} in the file, the table expects {}", path_,
              where, decimal_scale(*w), target->to_string());
        }
        if (w->type == AvroType::kFixed && w->size <= 16) return op(p, Op::kDecimalFixed);
        if (w->type == AvroType::kBytes) return op(p, Op::kDecimalBytes);
        break;
      case TypeId::kStruct:
        if (w->type == AvroType::kRecord) return record(std::move(p), *target, where, mapping);
        break;
      case TypeId::kList:
        if (w->type == AvroType::kArray) {
          p.op = Op::kList;
          const NestedField& e = target->element();
          const MappedField* m = mapped(mapping, "element");
          FLOE_TRY(check_id(w->element_id, e, where + ".element"));
          p.children.push_back(
              FLOE_TRY(resolve(w->items, e.type, where + ".element", m ? &m->fields : nullptr)));
          return p;
        }
        break;
      case TypeId::kMap:
        if (w->type == AvroType::kMap) {
          if (target->key().type->id() != TypeId::kString) break;
          p.op = Op::kMap;
          const NestedField& v = target->value();
          FLOE_TRY(check_id(w->value_id, v, where + ".value"));
          const MappedField* m = mapped(mapping, "value");
          p.children.push_back(
              FLOE_TRY(resolve(w->items, v.type, where + ".value", m ? &m->fields : nullptr)));
          return p;
        }
        if (w->type == AvroType::kArray && w->items->type == AvroType::kRecord) {
          return array_map(std::move(p), *target, where, mapping);
        }
        break;
      default:
        break;
    }
    return mismatch(w, target, where);
  }

  // The top-level record: the requested fields the file has (order of `fields`).
  Result<Plan> top(const Node* w, const std::vector<NestedField>& fields,
                   const std::vector<MappedField>* mapping, std::vector<NestedField>* present) {
    if (w->type != AvroType::kRecord) {
      return invalid_data("{}: the Avro schema is a {}, not a record", path_,
                          avro_type_name(w->type));
    }
    // Each writer field feeds at most one column (a repeated id is read once).
    std::vector<bool> used(w->fields.size(), false);
    for (const auto& f : fields) {
      int i = find_field(*w, f, mapping);
      if (i < 0 || used[static_cast<size_t>(i)]) continue;
      used[static_cast<size_t>(i)] = true;
      present->push_back(f);
    }
    Plan p;
    p.node = w;
    return record(std::move(p), *Type::struct_of(*present), "", mapping, /*fill=*/false);
  }

 private:
  static Result<Plan> op(Plan& p, Op o) {
    p.op = o;
    if (p.node->type == AvroType::kFixed) p.size = p.node->size;
    return std::move(p);
  }

  Status mismatch(const Node* w, const TypePtr& target, const std::string& where) const {
    std::string type = avro_type_name(w->type);
    if (!w->logical_type.empty()) type += "/" + w->logical_type;
    return invalid_data("{}: field '{}' is Avro {} in the file, which cannot be read as {}", path_,
                        where, type, target->to_string());
  }

  Status check_id(std::optional<int32_t> id, const NestedField& f, const std::string& where) {
    if (id && *id != f.id) {
      return invalid_data("{}: '{}' has id {} in the file, the table expects {}", path_, where, *id,
                          f.id);
    }
    return Status::OK();
  }

  // Index of the writer field for `f`: by field-id, else name mapping, else name.
  int find_field(const Node& w, const NestedField& f, const std::vector<MappedField>* mapping) {
    for (size_t i = 0; i < w.fields.size(); ++i) {
      if (field_id_of(w.fields[i], mapping) == f.id) return static_cast<int>(i);
    }
    for (size_t i = 0; i < w.fields.size(); ++i) {
      const Field& wf = w.fields[i];
      if (wf.field_id || (mapping && mapped(mapping, wf.name))) continue;
      if (iceberg_name(wf) == f.name) return static_cast<int>(i);
    }
    return -1;
  }

  static std::string iceberg_name(const Field& wf) {
    auto it = wf.props.find("iceberg-field-name");
    if (it != wf.props.end() && it->is_string()) return it->get<std::string>();
    return wf.name;
  }

  static std::optional<int32_t> field_id_of(const Field& wf,
                                            const std::vector<MappedField>* mapping) {
    if (wf.field_id) return wf.field_id;
    if (const MappedField* m = mapped(mapping, iceberg_name(wf))) return m->field_id;
    return std::nullopt;
  }

  static const std::vector<MappedField>* sub_mapping(const Field& wf,
                                                     const std::vector<MappedField>* mapping) {
    const MappedField* m = mapped(mapping, iceberg_name(wf));
    return m ? &m->fields : nullptr;
  }

  Result<Plan> record(Plan p, const Type& target, const std::string& where,
                      const std::vector<MappedField>* mapping, bool fill = true) {
    p.op = Op::kRecord;
    const Node& w = *p.node;
    p.targets.assign(w.fields.size(), -1);
    p.children.resize(w.fields.size());
    for (size_t t = 0; t < target.fields().size(); ++t) {
      const NestedField& f = target.fields()[t];
      int i = find_field(w, f, mapping);
      if (i < 0 || p.targets[static_cast<size_t>(i)] >= 0) {
        if (fill) p.fills.push_back({static_cast<int>(t), missing(f)});
        continue;
      }
      const Field& wf = w.fields[static_cast<size_t>(i)];
      std::string name = where.empty() ? f.name : where + "." + f.name;
      p.targets[static_cast<size_t>(i)] = static_cast<int>(t);
      p.children[static_cast<size_t>(i)] =
          FLOE_TRY(resolve(wf.type, f.type, name, sub_mapping(wf, mapping)));
    }
    return p;
  }

  static Literal missing(const NestedField& f) {
    return f.initial_default ? *f.initial_default : Literal::null(f.type);
  }

  Result<Plan> array_map(Plan p, const Type& target, const std::string& where,
                         const std::vector<MappedField>* mapping) {
    p.op = Op::kArrayMap;
    const Node& rec = *p.node->items;
    Plan items;
    items.node = &rec;
    items.op = Op::kRecord;
    items.targets.assign(rec.fields.size(), -1);
    items.children.resize(rec.fields.size());
    const NestedField* kv[2] = {&target.key(), &target.value()};
    const char* names[2] = {"key", "value"};
    for (int k = 0; k < 2; ++k) {
      int idx = -1;
      for (size_t i = 0; i < rec.fields.size() && idx < 0; ++i) {
        const Field& wf = rec.fields[i];
        if (wf.field_id ? *wf.field_id == kv[k]->id : wf.name == names[k])
          idx = static_cast<int>(i);
      }
      if (idx < 0) {
        return invalid_data("{}: map '{}' is an Avro array of records without a {} field", path_,
                            where, names[k]);
      }
      const MappedField* m = mapped(mapping, names[k]);
      items.targets[static_cast<size_t>(idx)] = k;
      items.children[static_cast<size_t>(idx)] =
          FLOE_TRY(resolve(rec.fields[static_cast<size_t>(idx)].type, kv[k]->type,
                           where + "." + names[k], m ? &m->fields : nullptr));
    }
    p.children.push_back(std::move(items));
    return p;
  }

  std::string path_;
};

// ---- decoding

int128_t big_endian_decimal(std::string_view b, Decoder& d) {
  if (b.size() > 16) {
    d.fail("decimal wider than 16 bytes");
    return 0;
  }
  if (b.empty()) return 0;
  int128_t v = static_cast<int8_t>(b[0]) < 0 ? -1 : 0;
  for (char c : b)
    v = static_cast<int128_t>((static_cast<unsigned __int128>(v) << 8) | static_cast<uint8_t>(c));
  return v;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_uuid_text(std::string_view s, Decoder& d, ColumnVector& col) {
  char out[16];
  int n = 0;
  for (char c : s) {
    if (c == '-') continue;
    int h = hex_digit(c);
    if (h < 0 || n >= 32) return d.fail("invalid uuid text");
    if (n % 2 == 0) {
      out[n / 2] = static_cast<char>(h << 4);
    } else {
      out[n / 2] = static_cast<char>(out[n / 2] | h);
    }
    ++n;
  }
  if (n != 32) return d.fail("invalid uuid text");
  col.append_bytes(std::string_view(out, 16));
}

void decode(const Plan& p, Decoder& d, ColumnVector& col);

void decode_record(const Plan& p, Decoder& d, ColumnVector& col) {
  const Node& w = *p.node;
  for (size_t i = 0; i < w.fields.size(); ++i) {
    int t = p.targets[i];
    if (t < 0) {
      skip_datum(*w.fields[i].type, d);
    } else {
      decode(p.children[i], d, col.child(static_cast<size_t>(t)));
    }
  }
  for (const auto& [t, v] : p.fills) {
    if (!col.child(static_cast<size_t>(t)).append_literal(v).ok()) {
      col.child(static_cast<size_t>(t)).append_null();
    }
  }
}

void decode(const Plan& p, Decoder& d, ColumnVector& col) {
  switch (p.op) {
    case Op::kNull:
      col.append_null();
      break;
    case Op::kBool:
      col.append_bool(d.read_bool());
      break;
    case Op::kInt:
      col.append_fixed<int32_t>(d.read_int());
      break;
    case Op::kIntToLong:
      col.append_fixed<int64_t>(d.read_int());
      break;
    case Op::kLong:
      col.append_fixed<int64_t>(d.read_long());
      break;
    case Op::kMillisToMicros:
      col.append_fixed<int64_t>(d.read_long() * 1000);
      break;
    case Op::kIntMillisToMicros:
      col.append_fixed<int64_t>(int64_t{d.read_int()} * 1000);
      break;
    case Op::kIntToFloat:
      col.append_fixed<float>(static_cast<float>(d.read_int()));
      break;
    case Op::kLongToFloat:
      col.append_fixed<float>(static_cast<float>(d.read_long()));
      break;
    case Op::kFloat:
      col.append_fixed<float>(d.read_float());
      break;
    case Op::kIntToDouble:
      col.append_fixed<double>(d.read_int());
      break;
    case Op::kLongToDouble:
      col.append_fixed<double>(static_cast<double>(d.read_long()));
      break;
    case Op::kFloatToDouble:
      col.append_fixed<double>(d.read_float());
      break;
    case Op::kDouble:
      col.append_fixed<double>(d.read_double());
      break;
    case Op::kBytes:
      col.append_bytes(d.read_bytes());
      break;
    case Op::kFixedToBinary:
    case Op::kFixed:
      col.append_bytes(d.read_fixed(static_cast<size_t>(p.size)));
      break;
    case Op::kBytesToFixed: {
      std::string_view b = d.read_bytes();
      if (b.size() != static_cast<size_t>(p.size)) d.fail("fixed value of the wrong length");
      col.append_bytes(b);
      break;
    }
    case Op::kEnum: {
      int64_t i = d.read_long();
      if (i < 0 || static_cast<size_t>(i) >= p.node->symbols.size()) {
        d.fail("enum index out of range");
        col.append_null();
        break;
      }
      col.append_bytes(p.node->symbols[static_cast<size_t>(i)]);
      break;
    }
    case Op::kUuidString:
      append_uuid_text(d.read_bytes(), d, col);
      if (!d.ok()) col.append_null();
      break;
    case Op::kDecimalFixed:
      col.append_fixed<int128_t>(big_endian_decimal(d.read_fixed(static_cast<size_t>(p.size)), d));
      break;
    case Op::kDecimalBytes:
      col.append_fixed<int128_t>(big_endian_decimal(d.read_bytes(), d));
      break;
    case Op::kRecord:
      decode_record(p, d, col);
      col.append_struct();
      break;
    case Op::kList: {
      int64_t count = 0;
      for (int64_t n = d.read_block_count(); n > 0; n = d.read_block_count()) {
        for (int64_t i = 0; i < n && d.ok(); ++i) decode(p.children[0], d, col.child(0));
        count += n;
      }
      col.append_list(d.ok() ? static_cast<int32_t>(count) : 0);
      break;
    }
    case Op::kMap: {
      int64_t count = 0;
      for (int64_t n = d.read_block_count(); n > 0; n = d.read_block_count()) {
        for (int64_t i = 0; i < n && d.ok(); ++i) {
          col.child(0).append_bytes(d.read_bytes());
          decode(p.children[0], d, col.child(1));
        }
        count += n;
      }
      col.append_list(d.ok() ? static_cast<int32_t>(count) : 0);
      break;
    }
    case Op::kArrayMap: {
      int64_t count = 0;
      for (int64_t n = d.read_block_count(); n > 0; n = d.read_block_count()) {
        for (int64_t i = 0; i < n && d.ok(); ++i) decode_record(p.children[0], d, col);
        count += n;
      }
      col.append_list(d.ok() ? static_cast<int32_t>(count) : 0);
      break;
    }
    case Op::kUnion: {
      int64_t b = d.read_long();
      if (b < 0 || static_cast<size_t>(b) >= p.children.size()) {
        d.fail("union branch index out of range");
        col.append_null();
        break;
      }
      decode(p.children[static_cast<size_t>(b)], d, col);
      break;
    }
    case Op::kError:
      d.fail(p.error.c_str());
      col.append_null();
      break;
  }
}

// The fewest bytes one datum of `n` takes, so a corrupt object count cannot make the reader
// loop far beyond the block's data. Unions and collections take at least their index/count.
// Length of the container header (magic, metadata map, sync marker) at the start of `prefix`,
// or nullopt when the prefix is too short or not a header.
std::optional<size_t> header_length(std::string_view prefix) {
  if (prefix.substr(0, 4) != kAvroMagic) return std::nullopt;
  Decoder d(prefix.data() + 4, prefix.size() - 4);
  for (int64_t n = d.read_block_count(); n > 0 && d.ok(); n = d.read_block_count()) {
    for (int64_t i = 0; i < n && d.ok(); ++i) {
      d.read_bytes();
      d.read_bytes();
    }
  }
  d.read_fixed(16);
  if (!d.ok()) return std::nullopt;
  return d.offset() + 4;
}

// Bytes of the whole blocks at the start of `buf`. When not even the first block fits,
// `*needed` is its length (0 if its header cannot be read).
size_t whole_blocks(std::string_view buf, int64_t* needed) {
  size_t p = 0;
  *needed = 0;
  while (p < buf.size()) {
    Decoder d(buf.data() + p, buf.size() - p);
    d.read_long();
    int64_t size = d.read_long();
    if (!d.ok() || size < 0) break;
    uint64_t end = p + d.offset() + static_cast<uint64_t>(size) + 16;
    if (end > buf.size()) {
      if (p == 0) *needed = static_cast<int64_t>(end);
      break;
    }
    p = static_cast<size_t>(end);
  }
  return p;
}

}  // namespace

struct DataReader::Impl {
  FileIOPtr io;
  std::string path;
  std::string data;  // the whole file, or the header plus the blocks of the current window
  std::unique_ptr<ContainerReader> head;  // owns the schema the plan points into
  std::unique_ptr<ContainerReader> window;
  ContainerReader* current = nullptr;  // head (whole file) or window
  bool streaming = false;
  int64_t file_size = 0;
  std::string header;
  int64_t next_pos = 0;  // file offset of the next window
  int64_t window_start = 0;
  std::vector<NestedField> present;
  TypePtr row_type;
  Plan plan;
  DataReaderOptions options;
  int64_t next_row = 0;
  int64_t first_row = 0;

  Status open_streaming() {
    streaming = true;
    int64_t want = std::min<int64_t>(file_size, 64 * 1024);
    while (true) {
      std::string prefix = FLOE_TRY(io->read_range(path, 0, want));
      if (auto n = header_length(prefix)) {
        header = prefix.substr(0, *n);
        break;
      }
      if (want >= file_size) {
        FLOE_TRY(ContainerReader::open(std::move(prefix), path));  // names the fault
        return invalid_data("{}: invalid Avro header", path);
      }
      want = std::min(file_size, want * 4);
    }
    head = FLOE_TRY(ContainerReader::open(header, path));
    next_pos = static_cast<int64_t>(header.size());
    return Status::OK();
  }

  // Reads the next run of whole blocks (at least one) into a container of its own.
  Result<bool> next_window() {
    if (next_pos >= file_size) return false;
    const int64_t rest = file_size - next_pos;
    std::string buf =
        FLOE_TRY(io->read_range(path, next_pos, std::min(rest, options.window_bytes)));
    int64_t needed = 0;
    size_t used = whole_blocks(buf, &needed);
    if (used == 0 && static_cast<int64_t>(buf.size()) < rest) {
      buf = FLOE_TRY(io->read_range(path, next_pos, needed > 0 ? std::min(needed, rest) : rest));
      used = whole_blocks(buf, &needed);
    }
    if (used == 0) used = buf.size();  // corrupt or truncated: the container reports it
    data = header;
    data.append(buf, 0, used);
    window_start = next_pos;
    next_pos += static_cast<int64_t>(used);
    auto opened = ContainerReader::open_view(data, path);
    if (!opened.ok()) return in_window(opened.status(), header.size());
    window = std::move(*opened);
    current = window.get();
    return true;
  }

  // File offset of a block of the current container.
  int64_t file_offset(size_t block_offset) const {
    if (!streaming) return static_cast<int64_t>(block_offset);
    return window_start + static_cast<int64_t>(block_offset - header.size());
  }
  // Errors of a window's container count offsets from the window: name the file offset too.
  Status in_window(const Status& s, size_t block_offset) const {
    if (!streaming) return s;
    return s.with_context(
        fmt::format("{}: block at file offset {}", path, file_offset(block_offset)));
  }
};

DataReader::~DataReader() = default;

Result<std::unique_ptr<DataReader>> DataReader::open(FileIOPtr io, const std::string& path,
                                                     std::vector<NestedField> fields,
                                                     DataReaderOptions options) {
  int64_t size = FLOE_TRY(io->file_size(path));
  if (size <= options.window_bytes) {
    std::string data = FLOE_TRY(io->read_file(path));
    return open_bytes(std::move(data), path, std::move(fields), std::move(options));
  }
  auto r = std::unique_ptr<DataReader>(new DataReader());
  r->impl_ = std::make_unique<Impl>();
  Impl& im = *r->impl_;
  im.io = std::move(io);
  im.path = path;
  im.file_size = size;
  im.options = std::move(options);
  FLOE_TRY(im.open_streaming());
  FLOE_TRY(r->resolve(std::move(fields)));
  return r;
}

Result<std::unique_ptr<DataReader>> DataReader::open_bytes(std::string data, std::string path,
                                                           std::vector<NestedField> fields,
                                                           DataReaderOptions options) {
  auto r = std::unique_ptr<DataReader>(new DataReader());
  r->impl_ = std::make_unique<Impl>();
  Impl& im = *r->impl_;
  im.path = path;
  im.data = std::move(data);
  im.options = std::move(options);
  im.head = FLOE_TRY(ContainerReader::open_view(im.data, path));
  im.current = im.head.get();
  FLOE_TRY(r->resolve(std::move(fields)));
  return r;
}

Status DataReader::resolve(std::vector<NestedField> fields) {
  Impl& im = *impl_;
  std::vector<MappedField> mapping;
  bool has_mapping = false;
  if (im.options.name_mapping) {
    auto parsed = parse_name_mapping(*im.options.name_mapping);
    if (!parsed.ok()) return parsed.status().with_context(im.path + ": name mapping");
    mapping = std::move(*parsed);
    has_mapping = true;
  }
  Resolver resolver(im.path);
  im.plan = FLOE_TRY(resolver.top(&im.head->schema().root(), fields,
                                  has_mapping ? &mapping : nullptr, &im.present));
  im.row_type = Type::struct_of(im.present);
  return Status::OK();
}

const std::vector<NestedField>& DataReader::present_fields() const { return impl_->present; }

int64_t DataReader::batch_first_row() const { return impl_->first_row; }

Result<std::optional<ColumnBatch>> DataReader::next_batch() {
  Impl& im = *impl_;
  while (true) {
    if (im.current == nullptr && !FLOE_TRY(im.next_window())) break;
    ContainerReader& c = *im.current;
    auto more = c.next_block();
    if (!more.ok()) return im.in_window(more.status(), c.block_offset());
    if (!*more) {
      if (!im.streaming) break;
      im.current = nullptr;
      continue;
    }
    const int64_t n = c.block_count();
    const int64_t first = im.next_row;
    im.next_row += n;
    const int64_t offset = im.file_offset(c.block_offset());
    const int64_t start = im.options.split_start;
    const int64_t length = im.options.split_length;
    if (offset < start || (length >= 0 && offset >= start + length)) continue;
    Decoder& d = c.decoder();  // next_block() bounded n by the block's bytes
    ColumnVector row(im.row_type);
    for (size_t i = 0; i < row.num_children(); ++i) {
      ColumnVector& col = row.child(i);
      if (col.value_width() > 0) col.values().reserve(static_cast<size_t>(n * col.value_width()));
    }
    for (int64_t i = 0; i < n && d.ok(); ++i) decode_record(im.plan, d, row);
    Status finished = c.finish_block();
    if (!finished.ok()) return im.in_window(finished, c.block_offset());
    im.first_row = first;
    ColumnBatch batch;
    batch.fields = im.present;
    batch.num_rows = n;
    for (size_t i = 0; i < row.num_children(); ++i) batch.columns.push_back(row.child_ptr(i));
    return std::optional<ColumnBatch>(std::move(batch));
  }
  return std::optional<ColumnBatch>();
}

}  // namespace floe::avro
