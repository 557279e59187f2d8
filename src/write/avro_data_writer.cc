#include "floe/write/avro_data_writer.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "floe/format/avro/iceberg_types.h"

namespace floe {

namespace {

using Json = nlohmann::ordered_json;

class SchemaBuilder {
 public:
  Json type_of(const TypePtr& type) {
    switch (type->id()) {
      case TypeId::kStruct:
        return record(fmt::format("r{}", struct_id_), type->fields());
      case TypeId::kList: {
        const NestedField& e = type->element();
        return Json{{"type", "array"}, {"items", optional_of(e)}, {"element-id", e.id}};
      }
      case TypeId::kMap: {
        const NestedField& k = type->key();
        const NestedField& v = type->value();
        if (k.type->id() == TypeId::kString) {
          return Json{
              {"type", "map"}, {"values", optional_of(v)}, {"key-id", k.id}, {"value-id", v.id}};
        }
        Json kv = record(fmt::format("k{}_v{}", k.id, v.id), {k, v});
        kv["fields"][0]["name"] = "key";
        kv["fields"][1]["name"] = "value";
        return Json{{"type", "array"}, {"items", kv}, {"logicalType", "map"}};
      }
      default:
        return avro::iceberg_primitive_type(*type, &defined_);
    }
  }

  Json record(const std::string& name, const std::vector<NestedField>& fields) {
    Json out{{"type", "record"}, {"name", name}, {"fields", Json::array()}};
    for (const auto& f : fields) {
      std::string avro_name = avro::compatible_name(f.name);
      Json field{{"name", avro_name}};
      struct_id_ = f.id;
      field["type"] = optional_of(f);
      if (!f.required) field["default"] = nullptr;
      field["field-id"] = f.id;
      if (avro_name != f.name) field["iceberg-field-name"] = f.name;
      out["fields"].push_back(std::move(field));
    }
    return out;
  }

 private:
  Json optional_of(const NestedField& f) {
    struct_id_ = f.id;
    Json t = type_of(f.type);
    if (f.required) return t;
    return Json::array({"null", std::move(t)});
  }
  std::set<std::string> defined_;
  int32_t struct_id_ = 0;  // id of the field whose struct type is being converted
};

// ---- encoding

void encode_field(const ColumnVector& col, int64_t i, const NestedField& f, avro::Encoder& e);

void encode_decimal(int128_t v, int size, avro::Encoder& e) {
  char buf[16];
  for (int b = 0; b < 16; ++b) buf[15 - b] = static_cast<char>(static_cast<uint64_t>(v >> (8 * b)));
  e.write_fixed(std::string_view(buf + 16 - size, static_cast<size_t>(size)));
}

void encode_value(const ColumnVector& col, int64_t i, const Type& type, avro::Encoder& e) {
  switch (type.id()) {
    case TypeId::kBoolean:
      e.write_bool(col.raw<uint8_t>()[i] != 0);
      break;
    case TypeId::kInt:
    case TypeId::kDate:
      e.write_int(col.raw<int32_t>()[i]);
      break;
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      e.write_long(col.raw<int64_t>()[i]);
      break;
    case TypeId::kFloat:
      e.write_float(col.raw<float>()[i]);
      break;
    case TypeId::kDouble:
      e.write_double(col.raw<double>()[i]);
      break;
    case TypeId::kString:
    case TypeId::kBinary:
      e.write_bytes(col.bytes_at(i));
      break;
    case TypeId::kUuid:
    case TypeId::kFixed:
      e.write_fixed(col.bytes_at(i));
      break;
    case TypeId::kDecimal:
      encode_decimal(col.raw<int128_t>()[i], avro::decimal_required_bytes(type.precision()), e);
      break;
    case TypeId::kStruct:
      for (size_t k = 0; k < type.fields().size(); ++k) {
        encode_field(col.child(k), i, type.fields()[k], e);
      }
      break;
    case TypeId::kList: {
      int32_t b = col.list_begin(i), end = col.list_end(i);
      if (end > b) {
        e.write_long(end - b);
        for (int32_t j = b; j < end; ++j) encode_field(col.child(0), j, type.element(), e);
      }
      e.write_long(0);
      break;
    }
    case TypeId::kMap: {
      int32_t b = col.list_begin(i), end = col.list_end(i);
      bool string_keys = type.key().type->id() == TypeId::kString;
      if (end > b) {
        e.write_long(end - b);
        for (int32_t j = b; j < end; ++j) {
          if (string_keys) {
            e.write_string(col.child(0).bytes_at(j));
          } else {
            encode_field(col.child(0), j, type.key(), e);
          }
          encode_field(col.child(1), j, type.value(), e);
        }
      }
      e.write_long(0);
      break;
    }
    default:
      break;
  }
}

void encode_field(const ColumnVector& col, int64_t i, const NestedField& f, avro::Encoder& e) {
  if (!f.required) {
    if (col.is_null(i)) {
      e.write_branch(0);
      return;
    }
    e.write_branch(1);
  }
  encode_value(col, i, *f.type, e);
}

bool encodable(const Type& t) {
  switch (t.id()) {
    case TypeId::kUnknown:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return false;
    default:
      break;
  }
  for (const auto& f : t.fields()) {
    if (!encodable(*f.type)) return false;
  }
  return true;
}

// ---- metrics

bool float_less(double a, double b) {
  return a < b || (a == b && std::signbit(a) && !std::signbit(b));
}

// Counts and bounds of one leaf column outside lists and maps.
struct LeafStats {
  int32_t id = 0;
  TypePtr type;
  MetricsMode mode;
  int64_t values = 0, nulls = 0, nans = 0;
  bool has_bounds = false;
  int64_t imin = 0, imax = 0;
  double dmin = 0, dmax = 0;
  int128_t cmin = 0, cmax = 0;
  std::string smin, smax;

  void add(const ColumnVector& col, const uint8_t* parent_valid, int64_t n) {
    values += n;
    for (int64_t i = 0; i < n; ++i) {
      if ((parent_valid && !parent_valid[i]) || col.is_null(i)) {
        ++nulls;
        continue;
      }
      if (mode.kind == MetricsMode::kNone) continue;
      add_value(col, i);
    }
  }

  void add_value(const ColumnVector& col, int64_t i) {
    switch (type->id()) {
      case TypeId::kBoolean:
        add_int(col.raw<uint8_t>()[i]);
        break;
      case TypeId::kInt:
      case TypeId::kDate:
        add_int(col.raw<int32_t>()[i]);
        break;
      case TypeId::kLong:
      case TypeId::kTime:
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz:
      case TypeId::kTimestampNs:
      case TypeId::kTimestampTzNs:
        add_int(col.raw<int64_t>()[i]);
        break;
      case TypeId::kFloat:
        add_double(col.raw<float>()[i]);
        break;
      case TypeId::kDouble:
        add_double(col.raw<double>()[i]);
        break;
      case TypeId::kDecimal: {
        int128_t v = col.raw<int128_t>()[i];
        if (!has_bounds || v < cmin) cmin = v;
        if (!has_bounds || v > cmax) cmax = v;
        has_bounds = true;
        break;
      }
      default: {
        std::string_view v = col.bytes_at(i);
        if (!has_bounds || v < smin) smin.assign(v);
        if (!has_bounds || v > smax) smax.assign(v);
        has_bounds = true;
      }
    }
  }
  void add_int(int64_t v) {
    if (!has_bounds || v < imin) imin = v;
    if (!has_bounds || v > imax) imax = v;
    has_bounds = true;
  }
  void add_double(double v) {
    if (std::isnan(v)) {
      ++nans;
      return;
    }
    if (!has_bounds || float_less(v, dmin)) dmin = v;
    if (!has_bounds || float_less(dmax, v)) dmax = v;
    has_bounds = true;
  }

  Literal bound(bool lower) const {
    switch (type->id()) {
      case TypeId::kBoolean:
        return Literal::boolean((lower ? imin : imax) != 0);
      case TypeId::kFloat:
        return Literal::float32(static_cast<float>(lower ? dmin : dmax));
      case TypeId::kDouble:
        return Literal::float64(lower ? dmin : dmax);
      case TypeId::kDecimal:
        return Literal::decimal(lower ? cmin : cmax, type->precision(), type->scale());
      case TypeId::kString:
      case TypeId::kBinary:
      case TypeId::kFixed:
        return Literal::of_bytes(type, lower ? smin : smax);
      case TypeId::kUuid: {
        Uuid u;
        const std::string& s = lower ? smin : smax;
        std::memcpy(u.bytes.data(), s.data(), 16);
        return Literal::uuid(u);
      }
      default:
        return Literal::of_int(type, lower ? imin : imax);
    }
  }

  // Bounds per mode (truncate applies to strings and binary only).
  void emit(DataFileMetrics* m) const {
    if (mode.kind == MetricsMode::kNone) return;
    m->value_counts[id] = values;
    m->null_value_counts[id] = nulls;
    if (type->id() == TypeId::kFloat || type->id() == TypeId::kDouble)
      m->nan_value_counts[id] = nans;
    if (mode.kind == MetricsMode::kCounts || !has_bounds) return;
    auto lo = bound(true).to_bytes();
    auto hi = bound(false).to_bytes();
    if (!lo.ok() || !hi.ok()) return;
    std::string lower = std::move(*lo);
    std::optional<std::string> upper = std::move(*hi);
    if (mode.kind == MetricsMode::kTruncate) {
      if (type->id() == TypeId::kString) {
        lower = truncate_lower_string(lower, mode.length);
        upper = truncate_upper_string(*upper, mode.length);
      } else if (type->id() == TypeId::kBinary) {
        lower = truncate_lower_binary(lower, mode.length);
        upper = truncate_upper_binary(*upper, mode.length);
      }
    }
    m->lower_bounds[id] = std::move(lower);
    if (upper) m->upper_bounds[id] = std::move(*upper);
  }
};

}  // namespace

std::string iceberg_avro_schema_json(const Schema& schema) {
  SchemaBuilder b;
  return b.record("table", schema.fields()).dump();
}

struct AvroDataWriter::Impl {
  FileIOPtr io;
  std::string path;
  std::shared_ptr<const Schema> schema;
  std::unique_ptr<avro::ContainerWriter> writer;
  std::vector<LeafStats> leaves;
  std::map<int32_t, size_t> leaf_index;
  int64_t rows = 0;

  void collect_leaves(const NestedField& f, const MetricsConfig& metrics) {
    if (f.type->is_primitive()) {
      LeafStats s;
      s.id = f.id;
      s.type = f.type;
      s.mode = metrics.mode(f.id);
      leaf_index[f.id] = leaves.size();
      leaves.push_back(std::move(s));
    } else if (f.type->is_struct()) {
      for (const auto& c : f.type->fields()) collect_leaves(c, metrics);
    }
  }

  void add_stats(const ColumnVector& col, const NestedField& f, const uint8_t* parent, int64_t n) {
    if (f.type->is_primitive()) {
      leaves[leaf_index[f.id]].add(col, parent, n);
      return;
    }
    if (!f.type->is_struct()) return;
    std::vector<uint8_t> valid(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) valid[i] = (!parent || parent[i]) && col.is_valid(i);
    for (size_t k = 0; k < f.type->fields().size(); ++k) {
      add_stats(col.child(k), f.type->fields()[k], valid.data(), n);
    }
  }
};

Result<std::unique_ptr<AvroDataWriter>> AvroDataWriter::open(
    FileIOPtr io, std::string path, const Schema& schema, const MetricsConfig& metrics,
    avro::ContainerWriterOptions container, const std::map<std::string, std::string>& metadata) {
  for (const auto& f : schema.fields()) {
    if (!encodable(*f.type)) {
      return not_supported("Avro data file {}: column {} of type {} cannot be written to Avro",
                           path, f.name, f.type->to_string());
    }
  }
  auto w = std::unique_ptr<AvroDataWriter>(new AvroDataWriter());
  w->impl_ = std::make_unique<Impl>();
  Impl& im = *w->impl_;
  im.io = std::move(io);
  im.path = std::move(path);
  im.schema = std::make_shared<Schema>(schema);
  im.writer = std::make_unique<avro::ContainerWriter>(iceberg_avro_schema_json(schema), metadata,
                                                      container);
  for (const auto& f : schema.fields()) im.collect_leaves(f, metrics);
  return w;
}

AvroDataWriter::~AvroDataWriter() = default;

Status AvroDataWriter::write(const ColumnBatch& batch) {
  Impl& im = *impl_;
  const auto& fields = im.schema->fields();
  if (batch.columns.size() != fields.size()) {
    return invalid_argument("Avro data file {}: batch has {} columns, the schema {}", im.path,
                            batch.columns.size(), fields.size());
  }
  for (size_t c = 0; c < fields.size(); ++c) {
    if (!batch.columns[c]->type()->equals(*fields[c].type)) {
      return invalid_argument("Avro data file {}: column {} is {}, the schema says {}", im.path,
                              fields[c].name, batch.columns[c]->type()->to_string(),
                              fields[c].type->to_string());
    }
    if (fields[c].required && batch.columns[c]->null_count() > 0) {
      return invalid_argument("Avro data file {}: required column {} has nulls", im.path,
                              fields[c].name);
    }
  }
  for (int64_t r = 0; r < batch.num_rows; ++r) {
    for (size_t c = 0; c < fields.size(); ++c) {
      encode_field(*batch.columns[c], r, fields[c], im.writer->encoder());
    }
    FLOE_TRY(im.writer->end_object());
  }
  for (size_t c = 0; c < fields.size(); ++c) {
    im.add_stats(*batch.columns[c], fields[c], nullptr, batch.num_rows);
  }
  im.rows += batch.num_rows;
  return Status::OK();
}

int64_t AvroDataWriter::estimated_size() const {
  return static_cast<int64_t>(impl_->writer->estimated_size());
}

Result<DataFileMetrics> AvroDataWriter::close() {
  Impl& im = *impl_;
  std::string bytes = FLOE_TRY(im.writer->finish());
  FLOE_TRY(im.io->write_file(im.path, bytes, WriteMode::kCreateNew));
  DataFileMetrics m;
  m.record_count = im.rows;
  m.file_size = static_cast<int64_t>(bytes.size());
  for (const auto& l : im.leaves) l.emit(&m);
  return m;
}

}  // namespace floe
