#include "floe/columnar/column_vector.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <mutex>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "floe/spec/type_visitor.h"
#include "floe/util/date_time_text.h"
#include "floe/util/decimal.h"

namespace floe {

// ---------------------------------------------------------------------------------------------
// ColumnVector

int ColumnVector::value_width(const Type& type) {
  return visit_type(type.id(), [&](auto tag) -> int {
    using T = typename decltype(tag)::Value;
    if constexpr (std::is_same_v<T, bool>) {
      return 1;  // one uint8_t per value
    } else if constexpr (tag.kFixedValue) {
      return sizeof(T);
    } else if constexpr (tag.kId == TypeId::kUuid) {
      return 16;
    } else if constexpr (tag.kId == TypeId::kFixed) {
      return type.length();
    } else {
      return 0;
    }
  });
}

ColumnVector::ColumnVector(TypePtr type) : type_(std::move(type)) {
  width_ = value_width(*type_);
  for (const auto& f : type_->fields()) children_.push_back(make(f.type));
  TypeId id = type_->id();
  if (id == TypeId::kString || id == TypeId::kBinary || id == TypeId::kList || id == TypeId::kMap ||
      id == TypeId::kVariant || id == TypeId::kGeometry || id == TypeId::kGeography) {
    offsets_.push<int32_t>(0);
  }
}

void ColumnVector::clear() {
  length_ = 0;
  null_count_ = 0;
  validity_.clear();
  values_.clear();
  data_.clear();
  if (!offsets_.empty()) {
    offsets_.clear();
    offsets_.push<int32_t>(0);
  }
  for (auto& c : children_) c->clear();
}

std::string_view ColumnVector::bytes_at(int64_t i) const {
  if (width_ > 0) {
    return {reinterpret_cast<const char*>(values_.data()) + i * width_,
            static_cast<size_t>(width_)};
  }
  const int32_t* o = offsets_.as<int32_t>();
  return {reinterpret_cast<const char*>(data_.data()) + o[i], static_cast<size_t>(o[i + 1] - o[i])};
}

void ColumnVector::set_bit(int64_t i, bool v) {
  size_t need = static_cast<size_t>(i / 8 + 1);
  if (validity_.size() < need) {
    size_t old = validity_.size();
    validity_.resize(need);
    std::memset(validity_.data() + old, 0, need - old);
  }
  uint8_t mask = static_cast<uint8_t>(1u << (i & 7));
  if (v) {
    validity_.data()[i >> 3] |= mask;
  } else {
    validity_.data()[i >> 3] &= static_cast<uint8_t>(~mask);
  }
}

void ColumnVector::materialize_validity() {
  if (null_count_ != 0) return;
  size_t bytes = static_cast<size_t>((length_ + 7) / 8);
  validity_.resize(bytes);
  if (bytes == 0) return;  // an empty buffer may have no memory to set
  std::memset(validity_.data(), 0xFF, bytes);
  // Bits past length must be zero so later set_bit(true) calls only need OR.
  if (length_ % 8) validity_.data()[bytes - 1] = static_cast<uint8_t>((1u << (length_ % 8)) - 1);
}

void ColumnVector::append_null() {
  materialize_validity();
  set_bit(length_, false);
  ++null_count_;
  ++length_;
  if (width_ > 0) {
    size_t old = values_.size();
    values_.resize(old + width_);
    std::memset(values_.data() + old, 0, width_);
  } else if (!offsets_.empty()) {
    offsets_.push<int32_t>(offsets_.as<int32_t>()[offsets_.size() / 4 - 1]);
  } else if (type_->is_struct()) {
    for (auto& c : children_) c->append_null();
  }
}

void ColumnVector::append_bytes(std::string_view v) {
  if (width_ > 0) {
    size_t old = values_.size();
    values_.resize(old + width_);
    size_t n = std::min(v.size(), static_cast<size_t>(width_));
    std::memcpy(values_.data() + old, v.data(), n);
    if (n < static_cast<size_t>(width_)) std::memset(values_.data() + old + n, 0, width_ - n);
  } else {
    data_.append(v.data(), v.size());
    offsets_.push<int32_t>(static_cast<int32_t>(data_.size()));
  }
  mark_valid();
}

void ColumnVector::append_list(int32_t count) {
  int32_t last = offsets_.as<int32_t>()[offsets_.size() / 4 - 1];
  offsets_.push<int32_t>(last + count);
  mark_valid();
}

void ColumnVector::append_struct() { mark_valid(); }

void ColumnVector::set_validity_from_bytes(const uint8_t* valid, int64_t n) {
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) nulls += valid[i] == 0;
  null_count_ = nulls;
  if (nulls == 0) {
    validity_.clear();
    return;
  }
  size_t bytes = static_cast<size_t>((n + 7) / 8);
  validity_.resize(bytes);
  uint8_t* bits = validity_.data();
  int64_t full = n / 8;
  for (int64_t b = 0; b < full; ++b) {
    const uint8_t* v = valid + b * 8;
    bits[b] = static_cast<uint8_t>((v[0] != 0) | (v[1] != 0) << 1 | (v[2] != 0) << 2 |
                                   (v[3] != 0) << 3 | (v[4] != 0) << 4 | (v[5] != 0) << 5 |
                                   (v[6] != 0) << 6 | (v[7] != 0) << 7);
  }
  if (n % 8) {
    uint8_t last = 0;
    for (int64_t i = full * 8; i < n; ++i) last |= static_cast<uint8_t>((valid[i] != 0) << (i % 8));
    bits[full] = last;
  }
}

Status ColumnVector::append_literal(const Literal& v) {
  if (v.is_null()) {
    append_null();
    return Status::OK();
  }
  bool appended = visit_type(type_->id(), [&](auto tag) {
    using T = typename decltype(tag)::Value;
    if constexpr (std::is_same_v<T, bool>) {
      append_bool(v.as_bool());
    } else if constexpr (tag.kFixedValue) {
      append_fixed<T>(fixed_value<T>(v));
    }
    return tag.kFixedValue;
  });
  if (appended) return Status::OK();
  switch (type_->id()) {
    case TypeId::kUuid:
      append_bytes(std::string_view(reinterpret_cast<const char*>(v.as_uuid().bytes.data()), 16));
      break;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixed:
      append_bytes(v.as_bytes());
      break;
    case TypeId::kStruct: {
      const auto& fields = v.struct_fields();
      if (fields.size() != children_.size()) return invalid_argument("struct arity mismatch");
      for (size_t i = 0; i < fields.size(); ++i) FLOE_TRY(children_[i]->append_literal(fields[i]));
      append_struct();
      break;
    }
    case TypeId::kList: {
      for (const auto& e : v.list_elements()) FLOE_TRY(children_[0]->append_literal(e));
      append_list(static_cast<int32_t>(v.list_elements().size()));
      break;
    }
    case TypeId::kMap: {
      for (const auto& k : v.map_keys()) FLOE_TRY(children_[0]->append_literal(k));
      for (const auto& x : v.map_values()) FLOE_TRY(children_[1]->append_literal(x));
      append_list(static_cast<int32_t>(v.map_keys().size()));
      break;
    }
    default:
      return not_supported("columns of type {} are not supported", type_->to_string());
  }
  return Status::OK();
}

Literal ColumnVector::literal_at(int64_t i) const {
  if (is_null(i)) return Literal::null(type_);
  switch (type_->id()) {
    case TypeId::kBoolean:
      return Literal::boolean(raw<uint8_t>()[i] != 0);
    case TypeId::kInt:
    case TypeId::kDate:
      return Literal::of_int(type_, raw<int32_t>()[i]);
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return Literal::of_int(type_, raw<int64_t>()[i]);
    case TypeId::kFloat:
      return Literal::float32(raw<float>()[i]);
    case TypeId::kDouble:
      return Literal::float64(raw<double>()[i]);
    case TypeId::kDecimal: {
      int128_t v;
      std::memcpy(&v, values_.data() + i * 16, 16);
      return Literal::decimal(v, type_->precision(), type_->scale());
    }
    case TypeId::kUuid: {
      Uuid u;
      std::memcpy(u.bytes.data(), values_.data() + i * 16, 16);
      return Literal::uuid(u);
    }
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixed:
      return Literal::of_bytes(type_, std::string(bytes_at(i)));
    case TypeId::kStruct: {
      std::vector<Literal> f;
      for (const auto& c : children_) f.push_back(c->literal_at(i));
      return Literal::struct_value(type_, std::move(f));
    }
    case TypeId::kList: {
      std::vector<Literal> e;
      for (int32_t j = list_begin(i); j < list_end(i); ++j)
        e.push_back(children_[0]->literal_at(j));
      return Literal::list_value(type_, std::move(e));
    }
    case TypeId::kMap: {
      std::vector<Literal> k, v;
      for (int32_t j = list_begin(i); j < list_end(i); ++j) {
        k.push_back(children_[0]->literal_at(j));
        v.push_back(children_[1]->literal_at(j));
      }
      return Literal::map_value(type_, std::move(k), std::move(v));
    }
    default:
      return Literal::null(type_);
  }
}

// ---------------------------------------------------------------------------------------------
// ColumnBatch

ColumnBatch ColumnBatch::make(std::vector<NestedField> fields) {
  ColumnBatch b;
  for (const auto& f : fields) b.columns.push_back(ColumnVector::make(f.type));
  b.fields = std::move(fields);
  return b;
}

int ColumnBatch::find(int32_t field_id) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].id == field_id) return static_cast<int>(i);
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------
// JSON

namespace {

void json_string(std::string_view s, std::string* out) {
  out->push_back('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (c < 0x20) {
          out->append(fmt::format("\\u{:04x}", c));
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
  }
  out->push_back('"');
}

void json_hex(std::string_view s, std::string* out) {
  static const char* kHex = "0123456789abcdef";
  out->push_back('"');
  for (unsigned char c : s) {
    out->push_back(kHex[c >> 4]);
    out->push_back(kHex[c & 15]);
  }
  out->push_back('"');
}

template <typename F>
void json_float(F v, std::string* out) {
  if (std::isnan(v)) {
    out->append("\"NaN\"");
  } else if (std::isinf(v)) {
    out->append(v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
  } else {
    // Shortest text that round-trips as a double (floats widened first, as JavaScript does).
    fmt::format_to(std::back_inserter(*out), "{}", static_cast<double>(v));
  }
}

}  // namespace

void write_value_json(const ColumnVector& col, int64_t i, const JsonOptions& options,
                      std::string* out) {
  if (col.is_null(i)) {
    out->append("null");
    return;
  }
  const Type& type = *col.type();
  switch (type.id()) {
    case TypeId::kBoolean:
      out->append(col.raw<uint8_t>()[i] ? "true" : "false");
      return;
    case TypeId::kInt:
      fmt::format_to(std::back_inserter(*out), "{}", col.raw<int32_t>()[i]);
      return;
    case TypeId::kLong:
      fmt::format_to(std::back_inserter(*out), "{}", col.raw<int64_t>()[i]);
      return;
    case TypeId::kFloat:
      json_float(col.raw<float>()[i], out);
      return;
    case TypeId::kDouble:
      json_float(col.raw<double>()[i], out);
      return;
    case TypeId::kDate:
      json_string(format_date(col.raw<int32_t>()[i]), out);
      return;
    case TypeId::kTime:
      json_string(format_time(col.raw<int64_t>()[i]), out);
      return;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      json_string(format_timestamp(col.raw<int64_t>()[i],
                                   type.id() == TypeId::kTimestampTz && options.tz_suffix),
                  out);
      return;
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      json_string(format_timestamp_ns(col.raw<int64_t>()[i],
                                      type.id() == TypeId::kTimestampTzNs && options.tz_suffix),
                  out);
      return;
    case TypeId::kDecimal: {
      int128_t v;
      std::memcpy(&v, col.values().data() + i * 16, 16);
      json_string(format_decimal(v, type.scale()), out);
      return;
    }
    case TypeId::kUuid: {
      Uuid u;
      std::memcpy(u.bytes.data(), col.values().data() + i * 16, 16);
      json_string(u.to_string(), out);
      return;
    }
    case TypeId::kString:
      json_string(col.bytes_at(i), out);
      return;
    case TypeId::kBinary:
    case TypeId::kFixed:
      json_hex(col.bytes_at(i), out);
      return;
    case TypeId::kStruct: {
      out->push_back('{');
      for (size_t c = 0; c < col.num_children(); ++c) {
        if (c) out->push_back(',');
        json_string(type.fields()[c].name, out);
        out->push_back(':');
        write_value_json(col.child(c), i, options, out);
      }
      out->push_back('}');
      return;
    }
    case TypeId::kList: {
      out->push_back('[');
      for (int32_t j = col.list_begin(i); j < col.list_end(i); ++j) {
        if (j != col.list_begin(i)) out->push_back(',');
        write_value_json(col.child(0), j, options, out);
      }
      out->push_back(']');
      return;
    }
    case TypeId::kMap: {
      bool as_object = !options.maps_as_pairs && type.key().type->id() == TypeId::kString;
      out->push_back(as_object ? '{' : '[');
      for (int32_t j = col.list_begin(i); j < col.list_end(i); ++j) {
        if (j != col.list_begin(i)) out->push_back(',');
        if (as_object) {
          json_string(col.child(0).bytes_at(j), out);
          out->push_back(':');
          write_value_json(col.child(1), j, options, out);
        } else {
          out->append("{\"key\":");
          write_value_json(col.child(0), j, options, out);
          out->append(",\"value\":");
          write_value_json(col.child(1), j, options, out);
          out->push_back('}');
        }
      }
      out->push_back(as_object ? '}' : ']');
      return;
    }
    default:
      out->append("null");
      return;
  }
}

void write_row_json(const ColumnBatch& batch, int64_t row, const JsonOptions& options,
                    std::string* out) {
  out->push_back(options.rows_as_arrays ? '[' : '{');
  for (size_t c = 0; c < batch.columns.size(); ++c) {
    if (c) out->push_back(',');
    if (!options.rows_as_arrays) {
      json_string(batch.fields[c].name, out);
      out->push_back(':');
    }
    write_value_json(*batch.columns[c], row, options, out);
  }
  out->push_back(options.rows_as_arrays ? ']' : '}');
}

}  // namespace floe
