// Literal: one typed Iceberg value (or a typed null), with the spec's two single-value
// serializations: binary (Appendix D; manifest bounds and partition summaries) and JSON
// (defaults, REST). Nested values (struct, list, map) exist for v3 defaults and JSON.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "floe/util/result.h"

namespace floe {

class Type;
using TypePtr = std::shared_ptr<const Type>;

using int128_t = __int128;

struct Uuid {
  std::array<uint8_t, 16> bytes{};  // big-endian (the order of the textual form)
  bool operator==(const Uuid&) const = default;
  auto operator<=>(const Uuid&) const = default;
  std::string to_string() const;  // lowercase 8-4-4-4-12
  static Result<Uuid> parse(std::string_view text);
};

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

// Date/time text helpers shared by literals, partition paths and the CLI.
std::string format_date(int32_t days);    // 2017-11-16
std::string format_time(int64_t micros);  // 22:31:08.123456 (fraction trimmed? no: 6 digits)
std::string format_timestamp(int64_t micros, bool tz);  // 2017-11-16T22:31:08.123456[+00:00]
std::string format_timestamp_ns(int64_t nanos, bool tz);
Result<int32_t> parse_date(std::string_view text);
Result<int64_t> parse_time(std::string_view text);                // micros
Result<int64_t> parse_timestamp(std::string_view text, bool tz);  // micros; tz accepts offsets
Result<int64_t> parse_timestamp_ns(std::string_view text, bool tz);
// Civil-date conversion (proleptic Gregorian, floor semantics for negatives).
int32_t days_from_civil(int64_t year, unsigned month, unsigned day);
void civil_from_days(int64_t days, int64_t* year, unsigned* month, unsigned* day);

// Decimal text: unscaled 1420, scale 2 -> "14.20"; negative scale -> scientific ("2E+20").
std::string format_decimal(int128_t unscaled, int scale);
Result<int128_t> parse_decimal(std::string_view text, int scale);  // exact; rejects extra digits
// Minimal big-endian two's-complement bytes (14.20 -> 05 8C) and back.
std::string decimal_to_bytes(int128_t unscaled);
int128_t decimal_from_bytes(std::string_view bytes);

}  // namespace floe
