#include "floe/spec/literal.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <type_traits>

#include "floe/spec/json_text.h"
#include "floe/spec/type.h"
#include "floe/spec/type_visitor.h"
#include "floe/util/binary_text.h"
#include "floe/util/calendar.h"
#include "floe/util/date_time_text.h"
#include "floe/util/decimal.h"
#include "floe/util/float_text.h"

namespace floe {

namespace {

template <typename T>
void put_le(std::string* out, T v) {
  for (size_t i = 0; i < sizeof(T); ++i) {
    out->push_back(static_cast<char>((static_cast<uint64_t>(v) >> (8 * i)) & 0xFF));
  }
}

uint64_t get_le(std::string_view b) {
  uint64_t v = 0;
  for (size_t i = 0; i < b.size(); ++i) v |= uint64_t(static_cast<uint8_t>(b[i])) << (8 * i);
  return v;
}

// Integer-backed literals hold int32_t for int/date and int64_t for the rest.
bool is_int32_backed(TypeId id) { return id == TypeId::kInt || id == TypeId::kDate; }

int compare_float_values(double a, double b) {
  bool an = std::isnan(a), bn = std::isnan(b);
  if (an || bn) return an == bn ? 0 : (an ? 1 : -1);
  if (a < b) return -1;
  if (a > b) return 1;
  bool as = std::signbit(a), bs = std::signbit(b);
  if (as == bs) return 0;
  return as ? -1 : 1;
}

template <typename T>
int three_way(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int compare_bytes(const std::string& a, const std::string& b) {
  size_t n = std::min(a.size(), b.size());
  int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c < 0 ? -1 : 1;
  return three_way(a.size(), b.size());
}

}  // namespace

// ----------------------------------------------------------------------------------------------
// Literal factories and accessors

Literal Literal::null(TypePtr type) { return Literal(std::move(type), std::monostate{}); }
Literal Literal::boolean(bool v) { return Literal(Type::boolean(), v); }
Literal Literal::int32(int32_t v) { return Literal(Type::int32(), v); }
Literal Literal::int64(int64_t v) { return Literal(Type::int64(), v); }
Literal Literal::float32(float v) { return Literal(Type::float32(), v); }
Literal Literal::float64(double v) { return Literal(Type::float64(), v); }
Literal Literal::date(int32_t days) { return Literal(Type::date(), days); }
Literal Literal::time(int64_t micros) { return Literal(Type::time(), micros); }
Literal Literal::timestamp(int64_t micros) { return Literal(Type::timestamp(), micros); }
Literal Literal::timestamptz(int64_t micros) { return Literal(Type::timestamptz(), micros); }
Literal Literal::timestamp_ns(int64_t nanos) { return Literal(Type::timestamp_ns(), nanos); }
Literal Literal::timestamptz_ns(int64_t nanos) { return Literal(Type::timestamptz_ns(), nanos); }
Literal Literal::string(std::string v) { return Literal(Type::string(), std::move(v)); }
Literal Literal::uuid(const Uuid& v) { return Literal(Type::uuid(), v); }
Literal Literal::binary(std::string bytes) { return Literal(Type::binary(), std::move(bytes)); }

Literal Literal::fixed(std::string bytes) {
  auto type = Type::fixed(static_cast<int>(bytes.size()));
  return Literal(std::move(type), std::move(bytes));
}

Literal Literal::decimal(int128_t unscaled, int precision, int scale) {
  return Literal(Type::decimal(precision, scale), unscaled);
}

Literal Literal::of_int(TypePtr type, int64_t v) {
  if (type && is_int32_backed(type->id())) {
    return Literal(std::move(type), static_cast<int32_t>(v));
  }
  return Literal(std::move(type), v);
}

Literal Literal::of_bytes(TypePtr type, std::string v) {
  return Literal(std::move(type), std::move(v));
}

Literal Literal::struct_value(TypePtr type, std::vector<Literal> fields) {
  auto nested = std::make_shared<Nested>();
  nested->first = std::move(fields);
  return Literal(std::move(type), std::shared_ptr<const Nested>(std::move(nested)));
}

Literal Literal::list_value(TypePtr type, std::vector<Literal> elements) {
  auto nested = std::make_shared<Nested>();
  nested->first = std::move(elements);
  return Literal(std::move(type), std::shared_ptr<const Nested>(std::move(nested)));
}

Literal Literal::map_value(TypePtr type, std::vector<Literal> keys, std::vector<Literal> values) {
  auto nested = std::make_shared<Nested>();
  nested->first = std::move(keys);
  nested->second = std::move(values);
  return Literal(std::move(type), std::shared_ptr<const Nested>(std::move(nested)));
}

int32_t Literal::as_int32() const {
  if (const auto* v = std::get_if<int32_t>(&value_)) return *v;
  return static_cast<int32_t>(std::get<int64_t>(value_));
}

int64_t Literal::as_int64() const {
  if (const auto* v = std::get_if<int32_t>(&value_)) return *v;
  return std::get<int64_t>(value_);
}

namespace {
const std::vector<Literal>& empty_literals() {
  static const std::vector<Literal> kEmpty;
  return kEmpty;
}
}  // namespace

const std::vector<Literal>& Literal::struct_fields() const {
  const auto* n = std::get_if<std::shared_ptr<const Nested>>(&value_);
  return n ? (*n)->first : empty_literals();
}
const std::vector<Literal>& Literal::list_elements() const { return struct_fields(); }
const std::vector<Literal>& Literal::map_keys() const { return struct_fields(); }
const std::vector<Literal>& Literal::map_values() const {
  const auto* n = std::get_if<std::shared_ptr<const Nested>>(&value_);
  return n ? (*n)->second : empty_literals();
}

// ----------------------------------------------------------------------------------------------
// Binary single-value serialization (Appendix D)

Result<std::string> Literal::to_bytes() const {
  if (!type_) return invalid_argument("cannot serialize a literal without a type");
  if (is_null()) return invalid_argument("cannot serialize a null {} to bytes", type_->to_string());
  // int, long, float, double, date, time and timestamps: the little-endian bits of the value.
  std::optional<std::string> fixed = visit_type(type_->id(), [&](auto tag) {
    using T = typename decltype(tag)::Value;
    std::optional<std::string> bytes;
    if constexpr (tag.kFixedValue) {
      if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {  // not bool (1) nor decimal (16)
        T value = fixed_value<T>(*this);
        std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t> bits = 0;
        std::memcpy(&bits, &value, sizeof(T));
        put_le(&bytes.emplace(), bits);
      }
    }
    return bytes;
  });
  if (fixed) return std::move(*fixed);
  std::string out;
  switch (type_->id()) {
    case TypeId::kBoolean:
      out.push_back(as_bool() ? '\x01' : '\x00');
      return out;
    case TypeId::kString:
    case TypeId::kFixed:
    case TypeId::kBinary:
      return as_bytes();
    case TypeId::kUuid:
      return std::string(reinterpret_cast<const char*>(as_uuid().bytes.data()), 16);
    case TypeId::kDecimal:
      return decimal_to_bytes(as_decimal());
    default:
      return not_supported("binary single-value serialization is not defined for {}",
                           type_->to_string());
  }
}

Result<Literal> Literal::from_bytes(const TypePtr& type, std::string_view bytes) {
  if (!type) return invalid_argument("cannot deserialize a value without a type");
  auto wrong_length = [&]() -> Status {
    return invalid_data("invalid {} value: {} bytes", type->to_string(), bytes.size());
  };
  switch (type->id()) {
    case TypeId::kBoolean:
      if (bytes.size() != 1) return wrong_length();
      return Literal(type, bytes[0] != 0);
    case TypeId::kInt:
    case TypeId::kDate:
      if (bytes.size() != 4) return wrong_length();
      return Literal(type, static_cast<int32_t>(static_cast<uint32_t>(get_le(bytes))));
    case TypeId::kLong:
    case TypeId::kTime:
      // A long column promoted from int keeps its old 4-byte bounds.
      if (bytes.size() == 4 && type->id() == TypeId::kLong) {
        return Literal(type, int64_t{static_cast<int32_t>(static_cast<uint32_t>(get_le(bytes)))});
      }
      if (bytes.size() != 8) return wrong_length();
      return Literal(type, static_cast<int64_t>(get_le(bytes)));
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      // Promoted from date: 4 bytes of days.
      if (bytes.size() == 4) {
        int64_t days = static_cast<int32_t>(static_cast<uint32_t>(get_le(bytes)));
        bool nanos = type->id() == TypeId::kTimestampNs || type->id() == TypeId::kTimestampTzNs;
        return Literal(type, days * (nanos ? kNanosPerDay : kMicrosPerDay));
      }
      if (bytes.size() != 8) return wrong_length();
      return Literal(type, static_cast<int64_t>(get_le(bytes)));
    case TypeId::kFloat: {
      if (bytes.size() != 4) return wrong_length();
      auto bits = static_cast<uint32_t>(get_le(bytes));
      float f = 0;
      std::memcpy(&f, &bits, 4);
      return Literal(type, f);
    }
    case TypeId::kDouble: {
      if (bytes.size() == 4) {  // promoted from float
        auto bits = static_cast<uint32_t>(get_le(bytes));
        float f = 0;
        std::memcpy(&f, &bits, 4);
        return Literal(type, static_cast<double>(f));
      }
      if (bytes.size() != 8) return wrong_length();
      uint64_t bits = get_le(bytes);
      double d = 0;
      std::memcpy(&d, &bits, 8);
      return Literal(type, d);
    }
    case TypeId::kString:
    case TypeId::kBinary:
      return Literal(type, std::string(bytes));
    case TypeId::kFixed:
      if (bytes.size() != static_cast<size_t>(type->length())) return wrong_length();
      return Literal(type, std::string(bytes));
    case TypeId::kUuid: {
      if (bytes.size() != 16) return wrong_length();
      Uuid u;
      std::memcpy(u.bytes.data(), bytes.data(), 16);
      return Literal(type, u);
    }
    case TypeId::kDecimal:
      if (bytes.empty() || bytes.size() > 16) return wrong_length();
      return Literal(type, decimal_from_bytes(bytes));
    default:
      return not_supported("binary single-value serialization is not defined for {}",
                           type->to_string());
  }
}

// ----------------------------------------------------------------------------------------------
// JSON single-value serialization

namespace {

// Floats go through their shortest decimal text so 0.34234f prints as 0.34234, not as the
// widened double 0.3423400032520294.
nlohmann::json float_json(double v, bool is_float) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (!is_float) return v;
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), static_cast<float>(v));
  double widened = 0;
  std::from_chars(buf, res.ptr, widened);
  return widened;
}

Result<double> float_from_json(const TypePtr& type, const nlohmann::json& json) {
  if (json.is_number()) return json.get<double>();
  if (json.is_string()) {
    const auto& s = json.get_ref<const std::string&>();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  return invalid_data("cannot parse {} as a {} value", json_for_message(json), type->to_string());
}

Result<int64_t> integer_from_json(const TypePtr& type, const nlohmann::json& json, int64_t lo,
                                  int64_t hi) {
  if (json.is_number_unsigned()) {
    uint64_t v = json.get<uint64_t>();
    if (v <= static_cast<uint64_t>(hi)) return static_cast<int64_t>(v);
  } else if (json.is_number_integer()) {
    int64_t v = json.get<int64_t>();
    if (v >= lo && v <= hi) return v;
  }
  return invalid_data("cannot parse {} as a {} value", json_for_message(json), type->to_string());
}

Result<std::string> text_from_json(const TypePtr& type, const nlohmann::json& json) {
  if (!json.is_string()) {
    return invalid_data("cannot parse {} as a {} value: expected a string", json_for_message(json),
                        type->to_string());
  }
  return json.get<std::string>();
}

}  // namespace

Status Literal::to_json(nlohmann::json* out) const {
  if (!type_) return invalid_argument("cannot write a literal without a type as JSON");
  if (is_null()) {
    *out = nullptr;
    return Status::OK();
  }
  switch (type_->id()) {
    case TypeId::kBoolean:
      *out = as_bool();
      return Status::OK();
    case TypeId::kInt:
    case TypeId::kLong:
      *out = as_int64();
      return Status::OK();
    case TypeId::kFloat:
      *out = float_json(as_float(), true);
      return Status::OK();
    case TypeId::kDouble:
      *out = float_json(as_double(), false);
      return Status::OK();
    case TypeId::kDecimal:
      *out = format_decimal(as_decimal(), type_->scale());
      return Status::OK();
    case TypeId::kDate:
      *out = format_date(as_int32());
      return Status::OK();
    case TypeId::kTime:
      *out = format_time(as_int64());
      return Status::OK();
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      *out = format_timestamp(as_int64(), type_->id() == TypeId::kTimestampTz);
      return Status::OK();
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      *out = format_timestamp_ns(as_int64(), type_->id() == TypeId::kTimestampTzNs);
      return Status::OK();
    case TypeId::kString:
      *out = as_bytes();
      return Status::OK();
    case TypeId::kUuid:
      *out = as_uuid().to_string();
      return Status::OK();
    case TypeId::kFixed:
    case TypeId::kBinary:
      *out = hex_encode(as_bytes());
      return Status::OK();
    case TypeId::kStruct: {
      nlohmann::json obj = nlohmann::json::object();
      const auto& values = struct_fields();
      const auto& fields = type_->fields();
      if (values.size() != fields.size()) {
        return invalid_argument("struct value has {} fields, its type {} has {}", values.size(),
                                type_->to_string(), fields.size());
      }
      for (size_t i = 0; i < fields.size(); ++i) {
        if (values[i].is_null()) continue;
        nlohmann::json v;
        FLOE_TRY(values[i].to_json(&v));
        obj[std::to_string(fields[i].id)] = std::move(v);
      }
      *out = std::move(obj);
      return Status::OK();
    }
    case TypeId::kList: {
      nlohmann::json arr = nlohmann::json::array();
      for (const auto& e : list_elements()) {
        nlohmann::json v;
        FLOE_TRY(e.to_json(&v));
        arr.push_back(std::move(v));
      }
      *out = std::move(arr);
      return Status::OK();
    }
    case TypeId::kMap: {
      nlohmann::json keys = nlohmann::json::array();
      nlohmann::json values = nlohmann::json::array();
      for (const auto& k : map_keys()) {
        nlohmann::json v;
        FLOE_TRY(k.to_json(&v));
        keys.push_back(std::move(v));
      }
      for (const auto& e : map_values()) {
        nlohmann::json v;
        FLOE_TRY(e.to_json(&v));
        values.push_back(std::move(v));
      }
      *out = nlohmann::json{{"keys", std::move(keys)}, {"values", std::move(values)}};
      return Status::OK();
    }
    default:
      return not_supported("JSON single-value serialization is not defined for {}",
                           type_->to_string());
  }
}

Result<Literal> Literal::from_json(const TypePtr& type, const nlohmann::json& json) {
  if (!type) return invalid_argument("cannot read a JSON value without a type");
  if (json.is_null()) return Literal::null(type);
  switch (type->id()) {
    case TypeId::kBoolean:
      if (!json.is_boolean()) {
        return invalid_data("cannot parse {} as a boolean value", json_for_message(json));
      }
      return Literal(type, json.get<bool>());
    case TypeId::kInt: {
      int64_t v = FLOE_TRY(integer_from_json(type, json, std::numeric_limits<int32_t>::min(),
                                             std::numeric_limits<int32_t>::max()));
      return Literal(type, static_cast<int32_t>(v));
    }
    case TypeId::kLong: {
      int64_t v = FLOE_TRY(integer_from_json(type, json, std::numeric_limits<int64_t>::min(),
                                             std::numeric_limits<int64_t>::max()));
      return Literal(type, v);
    }
    case TypeId::kFloat: {
      double v = FLOE_TRY(float_from_json(type, json));
      // Past FLT_MAX by half an ulp or more (2^128 - 2^103) the value rounds to infinity.
      if (std::isfinite(v) && std::fabs(v) >= 0x1.ffffffp127) {
        return invalid_data("cannot parse {} as a float value: out of the float range",
                            json_for_message(json));
      }
      return Literal(type, static_cast<float>(v));
    }
    case TypeId::kDouble: {
      double v = FLOE_TRY(float_from_json(type, json));
      return Literal(type, v);
    }
    case TypeId::kDecimal: {
      std::string text = FLOE_TRY(text_from_json(type, json));
      int128_t unscaled = 0;
      int scale = 0;
      if (!parse_decimal_text(text, &unscaled, &scale)) {
        return invalid_data("cannot parse \"{}\" as a {} value", text, type->to_string());
      }
      if (scale != type->scale()) {
        return invalid_data("cannot parse \"{}\" as a {} value: the scale {} does not match", text,
                            type->to_string(), scale);
      }
      if (type->precision() > 0 && unscaled != 0 &&
          decimal_digit_count(unscaled) > type->precision()) {
        return invalid_data("cannot parse \"{}\" as a {} value: too many digits", text,
                            type->to_string());
      }
      return Literal(type, unscaled);
    }
    case TypeId::kDate: {
      std::string text = FLOE_TRY(text_from_json(type, json));
      return Literal(type, FLOE_TRY(parse_date(text)));
    }
    case TypeId::kTime: {
      std::string text = FLOE_TRY(text_from_json(type, json));
      return Literal(type, FLOE_TRY(parse_time(text)));
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      std::string text = FLOE_TRY(text_from_json(type, json));
      return Literal(type, FLOE_TRY(parse_timestamp(text, type->id() == TypeId::kTimestampTz)));
    }
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      std::string text = FLOE_TRY(text_from_json(type, json));
      return Literal(type,
                     FLOE_TRY(parse_timestamp_ns(text, type->id() == TypeId::kTimestampTzNs)));
    }
    case TypeId::kString:
      return Literal(type, FLOE_TRY(text_from_json(type, json)));
    case TypeId::kUuid: {
      std::string text = FLOE_TRY(text_from_json(type, json));
      return Literal(type, FLOE_TRY(Uuid::parse(text)));
    }
    case TypeId::kFixed:
    case TypeId::kBinary: {
      std::string text = FLOE_TRY(text_from_json(type, json));
      std::string bytes;
      if (!hex_decode(text, &bytes)) {
        return invalid_data("cannot parse \"{}\" as a {} value: expected hex", text,
                            type->to_string());
      }
      if (type->id() == TypeId::kFixed && bytes.size() != static_cast<size_t>(type->length())) {
        return invalid_data("cannot parse \"{}\" as a {} value: {} bytes", text, type->to_string(),
                            bytes.size());
      }
      return Literal(type, std::move(bytes));
    }
    case TypeId::kStruct: {
      if (!json.is_object()) {
        return invalid_data("cannot parse {} as a {} value: expected an object",
                            json_for_message(json), type->to_string());
      }
      std::vector<Literal> values;
      for (const auto& f : type->fields()) {
        auto it = json.find(std::to_string(f.id));
        if (it == json.end()) {
          values.push_back(Literal::null(f.type));
        } else {
          values.push_back(FLOE_TRY_CTX(from_json(f.type, *it), "field " + f.name));
        }
      }
      return struct_value(type, std::move(values));
    }
    case TypeId::kList: {
      if (!json.is_array()) {
        return invalid_data("cannot parse {} as a {} value: expected an array",
                            json_for_message(json), type->to_string());
      }
      std::vector<Literal> elements;
      for (const auto& e : json) elements.push_back(FLOE_TRY(from_json(type->element().type, e)));
      return list_value(type, std::move(elements));
    }
    case TypeId::kMap: {
      if (!json.is_object() || !json.contains("keys") || !json.contains("values") ||
          !json["keys"].is_array() || !json["values"].is_array() ||
          json["keys"].size() != json["values"].size()) {
        return invalid_data(
            "cannot parse {} as a {} value: expected {{\"keys\": [...], \"values\": [...]}} of "
            "equal length",
            json_for_message(json), type->to_string());
      }
      std::vector<Literal> keys, values;
      for (const auto& k : json["keys"]) keys.push_back(FLOE_TRY(from_json(type->key().type, k)));
      for (const auto& v : json["values"]) {
        values.push_back(FLOE_TRY(from_json(type->value().type, v)));
      }
      return map_value(type, std::move(keys), std::move(values));
    }
    default:
      return not_supported("JSON single-value serialization is not defined for {}",
                           type->to_string());
  }
}

// ----------------------------------------------------------------------------------------------
// Text, ordering, equality

std::string Literal::to_string() const {
  if (!type_ || is_null()) return "null";
  switch (type_->id()) {
    case TypeId::kBoolean:
      return as_bool() ? "true" : "false";
    case TypeId::kInt:
    case TypeId::kLong:
      return std::to_string(as_int64());
    case TypeId::kFloat:
      return java_float_to_string(as_float());
    case TypeId::kDouble:
      return java_double_to_string(as_double());
    case TypeId::kDecimal:
      return format_decimal(as_decimal(), type_->scale());
    case TypeId::kDate:
      return format_date(as_int32());
    case TypeId::kTime:
      return format_time_of_day(floor_mod(as_int64(), kMicrosPerDay) * 1000,
                                FractionStyle::kTrimmed);
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return format_micros(as_int64(), FractionStyle::kTrimmed,
                           type_->id() == TypeId::kTimestampTz);
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return format_nanos(as_int64(), FractionStyle::kTrimmed,
                          type_->id() == TypeId::kTimestampTzNs);
    case TypeId::kString:
      return as_bytes();
    case TypeId::kUuid:
      return as_uuid().to_string();
    case TypeId::kFixed:
    case TypeId::kBinary:
      return hex_encode(as_bytes());
    case TypeId::kStruct:
    case TypeId::kList: {
      // Spark's rendering: {1, bar} for structs, [1, 2] for lists.
      bool is_struct = type_->id() == TypeId::kStruct;
      std::string out = is_struct ? "{" : "[";
      const auto& items = struct_fields();
      for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ", ";
        out += items[i].to_string();
      }
      return out + (is_struct ? "}" : "]");
    }
    case TypeId::kMap: {
      std::string out = "{";
      const auto& keys = map_keys();
      const auto& values = map_values();
      for (size_t i = 0; i < keys.size(); ++i) {
        if (i) out += ", ";
        out += keys[i].to_string() + " -> " +
               (i < values.size() ? values[i].to_string() : std::string("null"));
      }
      return out + "}";
    }
    default:
      if (const auto* s = std::get_if<std::string>(&value_)) return *s;
      return "?";
  }
}

namespace {

int compare_decimals(int128_t a, int a_scale, int128_t b, int b_scale) {
  // Bring both to the larger scale; if that overflows, the value with more integer digits wins.
  if (a_scale == b_scale) return three_way(a, b);
  bool swap = a_scale > b_scale;
  if (swap) {
    std::swap(a, b);
    std::swap(a_scale, b_scale);
  }
  int shift = b_scale - a_scale;
  int128_t scaled = a;
  bool overflow =
      shift > kMaxDecimalDigits || (a != 0 && decimal_digit_count(a) + shift > kMaxDecimalDigits);
  int result = 0;
  if (!overflow) {
    scaled = a * pow10_i128(shift);
    result = three_way(scaled, b);
  } else {
    result = a < 0 ? -1 : 1;
  }
  return swap ? -result : result;
}

int compare_lists(const std::vector<Literal>& a, const std::vector<Literal>& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    int c = a[i].compare(b[i]);
    if (c != 0) return c;
  }
  return three_way(a.size(), b.size());
}

}  // namespace

int Literal::compare(const Literal& other) const {
  if (is_null() || other.is_null()) {
    if (is_null() && other.is_null()) return 0;
    return is_null() ? -1 : 1;
  }
  const Value& a = value_;
  const Value& b = other.value_;
  // Integer-backed values compare numerically even across int/long (type promotion).
  bool a_int = std::holds_alternative<int32_t>(a) || std::holds_alternative<int64_t>(a);
  bool b_int = std::holds_alternative<int32_t>(b) || std::holds_alternative<int64_t>(b);
  if (a_int && b_int) return three_way(as_int64(), other.as_int64());
  bool a_float = std::holds_alternative<float>(a) || std::holds_alternative<double>(a);
  bool b_float = std::holds_alternative<float>(b) || std::holds_alternative<double>(b);
  if (a_float && b_float) {
    double x = std::holds_alternative<float>(a) ? as_float() : as_double();
    double y = std::holds_alternative<float>(b) ? other.as_float() : other.as_double();
    return compare_float_values(x, y);
  }
  if (a.index() != b.index()) return three_way(a.index(), b.index());
  if (const auto* v = std::get_if<bool>(&a)) return three_way(*v, std::get<bool>(b));
  if (const auto* v = std::get_if<std::string>(&a))
    return compare_bytes(*v, std::get<std::string>(b));
  if (const auto* v = std::get_if<Uuid>(&a)) return three_way(v->bytes, std::get<Uuid>(b).bytes);
  if (const auto* v = std::get_if<int128_t>(&a)) {
    int as = type_ ? type_->scale() : 0;
    int bs = other.type_ ? other.type_->scale() : 0;
    return compare_decimals(*v, as, std::get<int128_t>(b), bs);
  }
  if (std::holds_alternative<std::shared_ptr<const Nested>>(a)) {
    int c = compare_lists(struct_fields(), other.struct_fields());
    return c != 0 ? c : compare_lists(map_values(), other.map_values());
  }
  return 0;
}

namespace {

bool same_literals(const std::vector<Literal>& a, const std::vector<Literal>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(a[i] == b[i])) return false;
  }
  return true;
}

}  // namespace

bool Literal::operator==(const Literal& other) const {
  if (!same_type(type_, other.type_)) return false;
  if (value_.index() != other.value_.index()) return false;
  return std::visit(
      [&](const auto& v) -> bool {
        using T = std::decay_t<decltype(v)>;
        const T& w = std::get<T>(other.value_);
        if constexpr (std::is_same_v<T, std::monostate>) {
          return true;
        } else if constexpr (std::is_same_v<T, float>) {
          return std::memcmp(&v, &w, sizeof(float)) == 0;
        } else if constexpr (std::is_same_v<T, double>) {
          return std::memcmp(&v, &w, sizeof(double)) == 0;
        } else if constexpr (std::is_same_v<T, std::shared_ptr<const Nested>>) {
          if (v == w) return true;
          return same_literals(v->first, w->first) && same_literals(v->second, w->second);
        } else {
          return v == w;
        }
      },
      value_);
}

}  // namespace floe
