// Literal: one typed Iceberg value (or a typed null), with the spec's two single-value
// serializations: binary (Appendix D; manifest bounds and partition summaries) and JSON
// (defaults, REST). Nested values (struct, list, map) exist for v3 defaults and JSON.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "floe/util/int128.h"
#include "floe/util/result.h"
#include "floe/util/uuid.h"

namespace floe {

class Type;
using TypePtr = std::shared_ptr<const Type>;

class Literal {
 public:
  struct Nested;  // struct fields (by position), list elements, or map keys + values

  Literal() = default;  // a null of no type; only useful as a placeholder

  static Literal null(TypePtr type);
  static Literal boolean(bool v);
  static Literal int32(int32_t v);
  static Literal int64(int64_t v);
  static Literal float32(float v);
  static Literal float64(double v);
  static Literal date(int32_t days);
  static Literal time(int64_t micros);
  static Literal timestamp(int64_t micros);
  static Literal timestamptz(int64_t micros);
  static Literal timestamp_ns(int64_t nanos);
  static Literal timestamptz_ns(int64_t nanos);
  static Literal string(std::string v);
  static Literal uuid(const Uuid& v);
  static Literal fixed(std::string bytes);  // fixed[L] with L = bytes.size()
  static Literal binary(std::string bytes);
  static Literal decimal(int128_t unscaled, int precision, int scale);
  // A value of any primitive type stored in its natural representation (see accessors).
  static Literal of_int(TypePtr type, int64_t v);        // int, long, date, time, timestamps
  static Literal of_bytes(TypePtr type, std::string v);  // string, binary, fixed
  static Literal struct_value(TypePtr type, std::vector<Literal> fields);
  static Literal list_value(TypePtr type, std::vector<Literal> elements);
  static Literal map_value(TypePtr type, std::vector<Literal> keys, std::vector<Literal> values);

  const TypePtr& type() const { return type_; }
  bool is_null() const { return std::holds_alternative<std::monostate>(value_); }

  // Accessors; the caller must know the type.
  bool as_bool() const { return std::get<bool>(value_); }
  int32_t as_int32() const;  // int, date
  int64_t as_int64() const;  // any integer-backed type (int, long, date, time, timestamps)
  float as_float() const { return std::get<float>(value_); }
  double as_double() const { return std::get<double>(value_); }
  const std::string& as_bytes() const {
    return std::get<std::string>(value_);
  }  // string/binary/fixed
  const Uuid& as_uuid() const { return std::get<Uuid>(value_); }
  int128_t as_decimal() const { return std::get<int128_t>(value_); }  // unscaled
  const std::vector<Literal>& struct_fields() const;
  const std::vector<Literal>& list_elements() const;
  const std::vector<Literal>& map_keys() const;
  const std::vector<Literal>& map_values() const;

  // Appendix D binary form. Errors for nested and unknown types.
  Result<std::string> to_bytes() const;
  static Result<Literal> from_bytes(const TypePtr& type, std::string_view bytes);

  // JSON single-value form.
  Status to_json(nlohmann::json* out) const;
  static Result<Literal> from_json(const TypePtr& type, const nlohmann::json& json);

  // Human-readable text: 14.20, 2026-05-01, 2026-05-01T10:00:00, true, 'abc' is plain abc.
  std::string to_string() const;

  // Spec ordering for two values of the same type: signed numbers, unsigned bytes for
  // string/binary/fixed, -0.0 < +0.0. Nulls sort first. Returns <0, 0, >0.
  int compare(const Literal& other) const;
  // Equality of type and value (floats by bit pattern, so NaN == NaN here).
  bool operator==(const Literal& other) const;

 private:
  using Value = std::variant<std::monostate, bool, int32_t, int64_t, float, double, std::string,
                             int128_t, Uuid, std::shared_ptr<const Nested>>;
  Literal(TypePtr type, Value value) : type_(std::move(type)), value_(std::move(value)) {}

  TypePtr type_;
  Value value_;
};

struct Literal::Nested {
  std::vector<Literal> first;   // struct fields, list elements, map keys
  std::vector<Literal> second;  // map values
};

}  // namespace floe
