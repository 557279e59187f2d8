// Parquet schema -> Iceberg fields: ids from field_id, else from the name mapping, else by
// position; list and map encodings of every writer (3-level, legacy 2-level, bare repeated).
#include "floe/format/parquet/reader.h"
#include "floe/spec/name_mapping.h"
#include "format/parquet/schema_internal.h"

namespace floe::parquet {

namespace internal {

Result<TypePtr> primitive_type(const SchemaElement& e, Conv* conv) {
  *conv = Conv::kNone;
  const LogicalType& lt = e.logical_type;
  ConvertedType ct = e.converted_type;
  bool is_decimal = lt.kind == LogicalType::kDecimal || ct == ConvertedType::kDecimal;
  int precision = lt.kind == LogicalType::kDecimal ? lt.precision : e.precision;
  int scale = lt.kind == LogicalType::kDecimal ? lt.scale : e.scale;
  if (is_decimal && (precision <= 0 || precision > 38 || scale < 0 || scale > precision)) {
    return not_supported("column {}: decimal({}, {}) is not supported", e.name, precision, scale);
  }
  switch (*e.type) {
    case PhysicalType::kBoolean:
      return Type::boolean();
    case PhysicalType::kInt32:
      if (is_decimal) {
        *conv = Conv::kI32ToDecimal;
        return Type::decimal(precision, scale);
      }
      if (lt.kind == LogicalType::kDate || ct == ConvertedType::kDate) return Type::date();
      if ((lt.kind == LogicalType::kTime && lt.unit == TimeUnit::kMillis) ||
          ct == ConvertedType::kTimeMillis) {
        *conv = Conv::kMillis32ToMicros;
        return Type::time();
      }
      if ((lt.kind == LogicalType::kInteger && !lt.is_signed && lt.bit_width == 32) ||
          ct == ConvertedType::kUint32) {
        *conv = Conv::kU32ToI64;
        return Type::int64();
      }
      return Type::int32();
    case PhysicalType::kInt64:
      if (is_decimal) {
        *conv = Conv::kI64ToDecimal;
        return Type::decimal(precision, scale);
      }
      if (lt.kind == LogicalType::kTimestamp) {
        bool tz = lt.adjusted_to_utc;
        if (lt.unit == TimeUnit::kNanos) return tz ? Type::timestamptz_ns() : Type::timestamp_ns();
        if (lt.unit == TimeUnit::kMillis) *conv = Conv::kMillisToMicros;
        return tz ? Type::timestamptz() : Type::timestamp();
      }
      if (ct == ConvertedType::kTimestampMicros || ct == ConvertedType::kTimestampMillis) {
        // Converted types predate isAdjustedToUTC; they meant instants (UTC).
        if (ct == ConvertedType::kTimestampMillis) *conv = Conv::kMillisToMicros;
        return Type::timestamptz();
      }
      if (lt.kind == LogicalType::kTime || ct == ConvertedType::kTimeMicros) {
        if (lt.kind == LogicalType::kTime && lt.unit == TimeUnit::kNanos) {
          *conv = Conv::kNanosToMicros;
        }
        return Type::time();
      }
      return Type::int64();
    case PhysicalType::kInt96:
      *conv = Conv::kInt96;
      return Type::timestamptz();
    case PhysicalType::kFloat:
      return Type::float32();
    case PhysicalType::kDouble:
      return Type::float64();
    case PhysicalType::kByteArray:
      if (is_decimal) {
        *conv = Conv::kBytesToDecimal;
        return Type::decimal(precision, scale);
      }
      if (lt.kind == LogicalType::kString || lt.kind == LogicalType::kEnum ||
          lt.kind == LogicalType::kJson || ct == ConvertedType::kUtf8 ||
          ct == ConvertedType::kEnum || ct == ConvertedType::kJson) {
        return Type::string();
      }
      return Type::binary();
    case PhysicalType::kFixedLenByteArray:
      if (e.type_length <= 0)
        return invalid_data("column {}: bad FIXED_LEN_BYTE_ARRAY length", e.name);
      if (is_decimal) {
        if (e.type_length > 16)
          return not_supported("column {}: decimal wider than 16 bytes", e.name);
        *conv = Conv::kBytesToDecimal;
        return Type::decimal(precision, scale);
      }
      if (lt.kind == LogicalType::kUuid && e.type_length == 16) return Type::uuid();
      if (lt.kind == LogicalType::kFloat16) {
        return not_supported("column {}: FLOAT16 is not supported", e.name);
      }
      return Type::fixed(e.type_length);
  }
  return invalid_data("column {}: unknown physical type", e.name);
}

namespace {

constexpr int kMaxSchemaDepth = 64;
constexpr int32_t kSyntheticIdBase = 1000000000;

struct Builder {
  const FileMetaData& md;
  FileSchema& fs;
  bool file_has_ids = false;
  bool use_mapping = false;
  int32_t synthetic_id = 0;

  const SchemaElement& el(int p) const { return md.schema[fs.nodes[p].element]; }
  bool repeated(int p) const {
    return el(p).repetition && *el(p).repetition == Repetition::kRepeated;
  }
  bool required(int p) const {
    return !el(p).repetition || *el(p).repetition == Repetition::kRequired;
  }
  bool is_group(int p) const { return !el(p).type.has_value(); }
  bool is_list(int p) const {
    return el(p).logical_type.kind == LogicalType::kList ||
           el(p).converted_type == ConvertedType::kList;
  }
  bool is_map(int p) const {
    return el(p).logical_type.kind == LogicalType::kMap ||
           el(p).converted_type == ConvertedType::kMap ||
           el(p).converted_type == ConvertedType::kMapKeyValue;
  }

  Status build_tree() {
    if (md.schema.empty()) return invalid_data("Parquet schema is empty");
    fs.nodes.clear();
    fs.nodes.push_back(PNode{0, -1, {}, 0, 0, -1});
    size_t next = 1;
    FLOE_TRY(add_children(0, md.schema[0].num_children, &next, 0));
    if (next != md.schema.size()) {
      return invalid_data("Parquet schema has {} elements, the tree uses {}", md.schema.size(),
                          next);
    }
    return Status::OK();
  }

  Status add_children(int parent, int count, size_t* next, int depth) {
    if (depth > kMaxSchemaDepth) return invalid_data("Parquet schema nests too deep");
    if (count < 0) return invalid_data("Parquet schema: negative num_children");
    for (int i = 0; i < count; ++i) {
      if (*next >= md.schema.size())
        return invalid_data("Parquet schema: num_children past the end");
      int idx = static_cast<int>(fs.nodes.size());
      PNode n;
      n.element = static_cast<int>(*next);
      n.parent = parent;
      const SchemaElement& e = md.schema[*next];
      n.def = fs.nodes[parent].def;
      n.rep = fs.nodes[parent].rep;
      if (e.repetition && *e.repetition != Repetition::kRequired) ++n.def;
      if (e.repetition && *e.repetition == Repetition::kRepeated) ++n.rep;
      fs.nodes.push_back(n);
      fs.nodes[parent].children.push_back(idx);
      ++*next;
      if (!e.type) {
        if (e.num_children <= 0) return invalid_data("Parquet group {} has no children", e.name);
        FLOE_TRY(add_children(idx, e.num_children, next, depth + 1));
      } else {
        fs.nodes[idx].leaf = static_cast<int>(fs.leaves.size());
        fs.leaves.push_back(idx);
      }
    }
    return Status::OK();
  }

  static const MappedField* find_mapped(const std::vector<MappedField>* list,
                                        const std::string& name) {
    if (!list) return nullptr;
    for (const auto& m : *list) {
      for (const auto& n : m.names) {
        if (n == name) return &m;
      }
    }
    return nullptr;
  }

  // Id for a field at Parquet node p. Columns without an id (when others have one) or without a
  // mapping get a synthetic id from kSyntheticIdBase up: they stay readable on their own, but a
  // projection by table field ids never selects them, which is the spec's "invisible". Iceberg
  // ids are positive: a file's zero or negative field_id counts as none.
  bool has_file_id(int p) const { return el(p).field_id && *el(p).field_id > 0; }
  std::optional<int32_t> field_id(int p, const MappedField* mapped, bool /*synthetic_ok*/) {
    if (file_has_ids) {
      if (has_file_id(p)) return *el(p).field_id;
      return --synthetic_id;
    }
    if (use_mapping) {
      if (mapped && mapped->field_id) return *mapped->field_id;
      return --synthetic_id;
    }
    return 0;  // assigned later by position
  }

  // Maps the Iceberg field held by node p. as_element: p is a repeated node acting as the list
  // element (its own repetition ignored).
  Result<std::optional<MNode>> map_field(int p, std::string name, int16_t def,
                                         const MappedField* mapped, bool synthetic_ok,
                                         bool in_repeated, bool as_element) {
    auto id = field_id(p, mapped, synthetic_ok);
    if (!id) return std::optional<MNode>();
    MNode m;
    m.pnode = p;
    m.def = def;
    m.in_repeated = in_repeated;
    m.field.id = *id;
    m.has_id = file_has_ids ? has_file_id(p) : (mapped && mapped->field_id);
    m.field.name = std::move(name);
    m.field.required = as_element ? true : required(p);
    const std::vector<MappedField>* sub = mapped ? &mapped->fields : nullptr;

    if (repeated(p) && !as_element) {
      // A bare repeated field: a required list whose elements are the node itself.
      m.kind = MNode::kList;
      m.field.required = true;
      m.def = static_cast<int16_t>(fs.nodes[p].def - 1);
      m.entry_def = fs.nodes[p].def;
      m.rep = fs.nodes[p].rep;
      const MappedField* em = find_mapped(sub, "element");
      auto e = FLOE_TRY(map_field(p, "element", fs.nodes[p].def, em, true, true, true));
      if (!e) return std::optional<MNode>();
      m.children.push_back(std::move(*e));
      return std::optional<MNode>(std::move(m));
    }
    if (is_group(p) && !as_element && is_list(p)) {
      const PNode& n = fs.nodes[p];
      if (n.children.size() != 1 || !repeated(n.children[0])) {
        return invalid_data("LIST group {} must have one repeated child", el(p).name);
      }
      int r = n.children[0];
      m.kind = MNode::kList;
      m.entry_def = fs.nodes[r].def;
      m.rep = fs.nodes[r].rep;
      const SchemaElement& re = el(r);
      bool two_level = !is_group(r) || fs.nodes[r].children.size() > 1 || re.name == "array" ||
                       re.name == el(p).name + "_tuple";
      const MappedField* em = find_mapped(sub, "element");
      std::optional<MNode> e;
      if (two_level) {
        e = FLOE_TRY(map_field(r, "element", fs.nodes[r].def, em, true, true, true));
      } else {
        int c = fs.nodes[r].children[0];
        e = FLOE_TRY(map_field(c, "element", fs.nodes[c].def, em, true, true, false));
      }
      if (!e) return std::optional<MNode>();
      m.children.push_back(std::move(*e));
      return std::optional<MNode>(std::move(m));
    }
    if (is_group(p) && !as_element && is_map(p)) {
      const PNode& n = fs.nodes[p];
      if (n.children.size() != 1 || !repeated(n.children[0]) || !is_group(n.children[0]) ||
          fs.nodes[n.children[0]].children.size() != 2) {
        return not_supported("MAP group {} must have one repeated key_value group of two fields",
                             el(p).name);
      }
      int r = n.children[0];
      m.kind = MNode::kMap;
      m.entry_def = fs.nodes[r].def;
      m.rep = fs.nodes[r].rep;
      int kc = fs.nodes[r].children[0];
      int vc = fs.nodes[r].children[1];
      auto k = FLOE_TRY(
          map_field(kc, "key", fs.nodes[kc].def, find_mapped(sub, "key"), true, true, false));
      auto v = FLOE_TRY(
          map_field(vc, "value", fs.nodes[vc].def, find_mapped(sub, "value"), true, true, false));
      if (!k || !v) return std::optional<MNode>();
      k->field.required = true;
      m.children.push_back(std::move(*k));
      m.children.push_back(std::move(*v));
      return std::optional<MNode>(std::move(m));
    }
    if (is_group(p)) {
      m.kind = MNode::kStruct;
      for (int c : fs.nodes[p].children) {
        const std::string& cname = el(c).name;
        auto f = FLOE_TRY(map_field(c, cname, fs.nodes[c].def, find_mapped(sub, cname), false,
                                    in_repeated, false));
        if (f) m.children.push_back(std::move(*f));
      }
      if (m.children.empty()) return std::optional<MNode>();
      return std::optional<MNode>(std::move(m));
    }
    m.kind = MNode::kPrimitive;
    m.leaf = fs.nodes[p].leaf;
    m.physical = *el(p).type;
    m.type_length = el(p).type_length;
    auto type = primitive_type(el(p), &m.conv);
    if (!type.ok()) {
      if (type.status().kind() == ErrorKind::kNotSupported) {
        // Unreadable type: the column is invisible rather than the whole file unreadable.
        return std::optional<MNode>();
      }
      return type.status();
    }
    m.field.type = *type;
    return std::optional<MNode>(std::move(m));
  }
};

void assign_ids(std::vector<MNode>& fields, int32_t* next) {
  for (auto& f : fields) {
    if (f.field.id == 0) f.field.id = ++*next;
  }
  for (auto& f : fields) assign_ids(f.children, next);
}

void fix_synthetic(std::vector<MNode>& fields, int32_t base) {
  for (auto& f : fields) {
    if (f.field.id < 0) f.field.id = base - f.field.id;
    fix_synthetic(f.children, base);
  }
}

void finalize(MNode& m) {
  for (auto& c : m.children) finalize(c);
  std::vector<NestedField> kids;
  for (auto& c : m.children) kids.push_back(c.field);
  switch (m.kind) {
    case MNode::kStruct:
      m.field.type = Type::struct_of(std::move(kids));
      break;
    case MNode::kList:
      m.field.type = Type::list_of(std::move(kids[0]));
      break;
    case MNode::kMap:
      m.field.type = Type::map_of(std::move(kids[0]), std::move(kids[1]));
      break;
    case MNode::kPrimitive:
      break;
  }
}

void record_ids(const std::vector<MNode>& fields, const FileSchema& fs, std::vector<int32_t>* ids) {
  for (const auto& f : fields) {
    (*ids)[fs.nodes[f.pnode].element] = f.field.id;
    record_ids(f.children, fs, ids);
  }
}

}  // namespace

Result<FileSchema> map_schema(const FileMetaData& md, const std::optional<std::string>& mapping) {
  FileSchema fs;
  Builder b{md, fs};
  FLOE_TRY(b.build_tree());
  for (size_t i = 1; i < md.schema.size(); ++i) {
    if (md.schema[i].field_id) b.file_has_ids = true;
  }
  std::vector<MappedField> mapped;
  if (!b.file_has_ids && mapping) {
    mapped = FLOE_TRY(parse_name_mapping(*mapping));
    b.use_mapping = true;
  }
  fs.id_source = b.file_has_ids  ? IdSource::kFieldIds
                 : b.use_mapping ? IdSource::kNameMapping
                                 : IdSource::kPosition;
  for (int c : fs.nodes[0].children) {
    const std::string& name = md.schema[fs.nodes[c].element].name;
    auto f = FLOE_TRY(b.map_field(c, name, fs.nodes[c].def,
                                  Builder::find_mapped(b.use_mapping ? &mapped : nullptr, name),
                                  false, false, false));
    if (f) fs.fields.push_back(std::move(*f));
  }
  if (fs.id_source == IdSource::kPosition) {
    int32_t next = 0;
    assign_ids(fs.fields, &next);
  }
  fix_synthetic(fs.fields, kSyntheticIdBase);
  for (auto& f : fs.fields) finalize(f);
  fs.element_ids.assign(md.schema.size(), 0);
  record_ids(fs.fields, fs, &fs.element_ids);
  return fs;
}

}  // namespace internal
}  // namespace floe::parquet
