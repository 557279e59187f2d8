// In-memory columns and batches: the one currency between readers, filters, writers and the
// SQL executor. A ColumnVector holds the values of one Iceberg-typed column in Arrow-like
// buffers (validity bitmap, fixed-width values, int32 offsets + bytes, children for nested
// types), so a batch can be exported through the Arrow C Data Interface without copies.
//
// Physical layout by Iceberg type:
//   boolean                      values: 1 byte per value (0/1); bit-packed only on export
//   int, date                    values: int32
//   long, time, timestamp*       values: int64 (micros; the _ns types nanos)
//   float, double                values: float / double
//   decimal(P,S)                 values: int128 unscaled (Arrow decimal128 layout)
//   uuid, fixed[L]               values: 16 / L bytes per value (uuid big-endian)
//   string, binary               offsets: int32 (length + 1), data: bytes
//   struct                       children: one per field
//   list                         offsets: int32 (length + 1), children[0]: elements
//   map                          offsets: int32 (length + 1), children[0]: keys, [1]: values
// The validity bitmap (bit i set = value i present, LSB first) is empty when there is no null.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/spec/literal.h"
#include "floe/spec/type.h"
#include "floe/util/buffer.h"
#include "floe/util/result.h"

namespace floe {

class ColumnVector;
using ColumnPtr = std::shared_ptr<ColumnVector>;

// One column of an Iceberg type. Builders (append_*) keep length, offsets and validity
// consistent; decoders may instead fill the buffers directly and call set_length /
// set_null_count.
class ColumnVector {
 public:
  explicit ColumnVector(TypePtr type);

  static ColumnPtr make(TypePtr type) { return std::make_shared<ColumnVector>(std::move(type)); }

  const TypePtr& type() const { return type_; }
  TypeId type_id() const { return type_->id(); }
  int64_t length() const { return length_; }
  int64_t null_count() const { return null_count_; }
  void set_length(int64_t n) { length_ = n; }
  void set_null_count(int64_t n) { null_count_ = n; }

  // Bytes per value in values() for fixed-width types, 0 for variable-length and nested ones.
  static int value_width(const Type& type);
  int value_width() const { return width_; }

  Buffer& validity() { return validity_; }
  const Buffer& validity() const { return validity_; }
  Buffer& values() { return values_; }
  const Buffer& values() const { return values_; }
  Buffer& offsets() { return offsets_; }
  const Buffer& offsets() const { return offsets_; }
  Buffer& data() { return data_; }
  const Buffer& data() const { return data_; }

  size_t num_children() const { return children_.size(); }
  ColumnVector& child(size_t i) { return *children_[i]; }
  const ColumnVector& child(size_t i) const { return *children_[i]; }
  const ColumnPtr& child_ptr(size_t i) const { return children_[i]; }
  // Replaces child i, so a reader can re-assemble a nested column around existing children
  // without copying them (the child must be as long as the parent expects).
  void set_child(size_t i, ColumnPtr c) { children_[i] = std::move(c); }

  bool is_null(int64_t i) const {
    return null_count_ != 0 && !((validity_.data()[i >> 3] >> (i & 7)) & 1);
  }
  bool is_valid(int64_t i) const { return !is_null(i); }

  template <typename T>
  const T* raw() const {
    return values_.as<T>();
  }
  template <typename T>
  T* mutable_raw() {
    return values_.as<T>();
  }
  // string/binary: the i-th value; uuid/fixed: the i-th fixed-size value.
  std::string_view bytes_at(int64_t i) const;
  // list/map: element range [begin, end) in the child(ren).
  int32_t list_begin(int64_t i) const { return offsets_.as<int32_t>()[i]; }
  int32_t list_end(int64_t i) const { return offsets_.as<int32_t>()[i + 1]; }

  // Empties the column (and its children) keeping capacity.
  void clear();

  // Builders. For list/map: append the elements to the child(ren) first, then call
  // append_list(number of elements). For struct: append to every child, then append_struct().
  void append_null();
  void append_bool(bool v) { append_fixed(static_cast<uint8_t>(v)); }
  template <typename T>
  void append_fixed(T v) {
    values_.push(v);
    mark_valid();
  }
  void append_bytes(std::string_view v);  // string, binary, uuid (16 bytes), fixed
  void append_list(int32_t count);
  void append_struct();
  // Any primitive or nested value as a Literal (slow path: tests, defaults, CLI).
  Status append_literal(const Literal& v);
  // The i-th value as a Literal (slow path).
  Literal literal_at(int64_t i) const;

  // Builds the validity bitmap from per-slot flags (1 = valid) for `n` slots, setting
  // null_count; leaves the bitmap empty when every slot is valid.
  void set_validity_from_bytes(const uint8_t* valid, int64_t n);
  // Ensures the bitmap exists (all set so far) so bits can be cleared.
  void materialize_validity();

 private:
  void mark_valid() {
    if (null_count_ != 0) set_bit(length_, true);
    ++length_;
  }
  void set_bit(int64_t i, bool v);

  TypePtr type_;
  int width_ = 0;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
  Buffer validity_;
  Buffer values_;
  Buffer offsets_;
  Buffer data_;
  std::vector<ColumnPtr> children_;
};

// A set of equally long columns with their Iceberg fields, so field ids travel with the data.
struct ColumnBatch {
  std::vector<NestedField> fields;
  std::vector<ColumnPtr> columns;
  int64_t num_rows = 0;

  // Empty columns for these fields.
  static ColumnBatch make(std::vector<NestedField> fields);
  // Index of the column with this field id, or -1.
  int find(int32_t field_id) const;
};

// JSON text of one value (row `i` of `col`), as `floe cat` prints it: numbers, booleans,
// strings; decimals as strings; date/time/timestamps ISO-8601 (timestamptz with +00:00);
// uuid text; binary/fixed as lowercase hex; NaN/Infinity as strings; structs as objects;
// lists as arrays; maps as objects when keys are strings, else arrays of {"key","value"}.
struct JsonOptions {
  bool tz_suffix = true;        // timestamptz with "+00:00"
  bool maps_as_pairs = false;   // always [{"key":k,"value":v}, ...]
  bool rows_as_arrays = false;  // write_row_json: [v1, v2] instead of {"name": v1, ...}
};
void write_value_json(const ColumnVector& col, int64_t i, const JsonOptions& options,
                      std::string* out);
void write_row_json(const ColumnBatch& batch, int64_t row, const JsonOptions& options,
                    std::string* out);

}  // namespace floe
