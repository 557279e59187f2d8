// Decoding helpers shared by the manifest-list reader and the manifest (entry) reader: Avro
// values read by Iceberg field id (Iceberg spec, Manifests and Manifest Lists).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/format/avro/binary.h"
#include "floe/format/avro/schema.h"

namespace floe::internal {

// Reads a union's branch index when `t` is a union; returns the value's node, or nullptr when
// the value is null.
FLOE_AVRO_INLINE const avro::Node* value_node(avro::Decoder& d, const avro::Node* t) {
  if (t->type != avro::AvroType::kUnion) return t->type == avro::AvroType::kNull ? nullptr : t;
  int64_t i = d.read_long();
  if (i < 0 || static_cast<size_t>(i) >= t->branches.size()) {
    d.fail("union branch out of range");
    return nullptr;
  }
  const avro::Node* b = t->branches[static_cast<size_t>(i)];
  return b->type == avro::AvroType::kNull ? nullptr : b;
}

inline int64_t read_integer(avro::Decoder& d, const avro::Node* t) {
  if (t->type == avro::AvroType::kInt || t->type == avro::AvroType::kLong) return d.read_long();
  d.fail("expected an int or long");
  return 0;
}

inline int32_t read_int32(avro::Decoder& d, const avro::Node* t) {
  int64_t v = read_integer(d, t);
  if (v < INT32_MIN || v > INT32_MAX) {
    d.fail("int out of range");
    return 0;
  }
  return static_cast<int32_t>(v);
}

inline std::string_view read_text(avro::Decoder& d, const avro::Node* t) {
  if (t->type == avro::AvroType::kString || t->type == avro::AvroType::kBytes)
    return d.read_bytes();
  if (t->type == avro::AvroType::kFixed) return d.read_fixed(static_cast<size_t>(t->size));
  d.fail("expected a string or bytes");
  return {};
}

template <typename T>
void read_opt_int(avro::Decoder& d, const avro::Node* t, std::optional<T>* out) {
  const avro::Node* v = value_node(d, t);
  if (v == nullptr) {
    out->reset();
  } else if constexpr (sizeof(T) == 4) {
    *out = read_int32(d, v);
  } else {
    *out = read_integer(d, v);
  }
}

inline void read_opt_text(avro::Decoder& d, const avro::Node* t, std::optional<std::string>* out) {
  const avro::Node* v = value_node(d, t);
  if (v == nullptr) {
    out->reset();
  } else {
    std::string_view s = read_text(d, v);
    if (out->has_value()) {
      (*out)->assign(s);
    } else {
      out->emplace(s);
    }
  }
}

// The id of a field: its field-id, or the id of a known name.
inline int32_t resolve_id(const avro::Field& f,
                          const std::map<std::string_view, int32_t>& by_name) {
  if (f.field_id) return *f.field_id;
  auto it = by_name.find(f.name);
  return it == by_name.end() ? -1 : it->second;
}

// The record inside an optional array of records (e.g. column_sizes), or nullptr.
inline const avro::Node* array_items(const avro::Node* t) {
  const avro::Node* a = t->non_null();
  return a->type == avro::AvroType::kArray ? a->items : nullptr;
}

// One field of a record to decode: its writer type and the Iceberg field id it holds.
struct Step {
  const avro::Node* type;
  int32_t id;
};

}  // namespace floe::internal
