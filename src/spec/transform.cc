#include "floe/spec/transform.h"

#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>

#include "floe/util/binary_text.h"
#include "floe/util/calendar.h"
#include "floe/util/date_time_text.h"
#include "floe/util/decimal.h"
#include "floe/util/float_text.h"
#include "floe/util/strings.h"
#include "floe/util/utf8.h"

namespace floe {

// ----------------------------------------------------------------------------------------------
// Murmur3 and bucket hashes (spec Appendix B)

namespace {

uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return h;
}

}  // namespace

int32_t murmur3_x86_32(const void* data, size_t length, uint32_t seed) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  constexpr uint32_t c1 = 0xcc9e2d51;
  constexpr uint32_t c2 = 0x1b873593;
  uint32_t h = seed;
  size_t nblocks = length / 4;
  for (size_t i = 0; i < nblocks; ++i) {
    const uint8_t* p = bytes + i * 4;
    uint32_t k =
        uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
    k *= c1;
    k = rotl32(k, 15);
    k *= c2;
    h ^= k;
    h = rotl32(h, 13);
    h = h * 5 + 0xe6546b64;
  }
  const uint8_t* tail = bytes + nblocks * 4;
  uint32_t k = 0;
  switch (length & 3) {
    case 3:
      k ^= uint32_t(tail[2]) << 16;
      [[fallthrough]];
    case 2:
      k ^= uint32_t(tail[1]) << 8;
      [[fallthrough]];
    case 1:
      k ^= tail[0];
      k *= c1;
      k = rotl32(k, 15);
      k *= c2;
      h ^= k;
  }
  h ^= static_cast<uint32_t>(length);
  return static_cast<int32_t>(fmix32(h));
}

int32_t hash_long(int64_t v) {
  uint8_t buf[8];
  auto u = static_cast<uint64_t>(v);
  for (int i = 0; i < 8; ++i) buf[i] = static_cast<uint8_t>(u >> (8 * i));
  return murmur3_x86_32(buf, 8);
}

int32_t hash_bytes(std::string_view bytes) { return murmur3_x86_32(bytes.data(), bytes.size()); }

namespace {

// Java's doubleToLongBits: every NaN is 0x7ff8000000000000; -0.0 hashes as 0.0 (spec).
int32_t hash_double(double d) {
  if (std::isnan(d)) return hash_long(0x7ff8000000000000LL);
  if (d == 0.0) d = 0.0;
  int64_t bits = 0;
  std::memcpy(&bits, &d, 8);
  return hash_long(bits);
}

}  // namespace

Result<int32_t> bucket_hash(const Literal& value) {
  if (!value.type()) return invalid_argument("cannot hash a literal without a type");
  if (value.is_null()) return invalid_argument("cannot hash a null {}", value.type()->to_string());
  switch (value.type()->id()) {
    case TypeId::kBoolean:
      return hash_long(value.as_bool() ? 1 : 0);
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return hash_long(value.as_int64());
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return hash_long(floor_div(value.as_int64(), kNanosPerMicro));
    case TypeId::kFloat:
      return hash_double(static_cast<double>(value.as_float()));
    case TypeId::kDouble:
      return hash_double(value.as_double());
    case TypeId::kDecimal:
      return hash_bytes(decimal_to_bytes(value.as_decimal()));
    case TypeId::kString:
    case TypeId::kFixed:
    case TypeId::kBinary:
      return hash_bytes(value.as_bytes());
    case TypeId::kUuid:
      return murmur3_x86_32(value.as_uuid().bytes.data(), 16);
    default:
      return not_supported("no bucket hash is defined for {}", value.type()->to_string());
  }
}

// ----------------------------------------------------------------------------------------------
// Time ordinals

int32_t year_from_days(int32_t days) {
  int64_t y = 0;
  unsigned m = 0, d = 0;
  civil_from_days(days, &y, &m, &d);
  return static_cast<int32_t>(y - 1970);
}

int32_t month_from_days(int32_t days) {
  int64_t y = 0;
  unsigned m = 0, d = 0;
  civil_from_days(days, &y, &m, &d);
  return static_cast<int32_t>((y - 1970) * 12 + (m - 1));
}

int32_t day_from_micros(int64_t micros) {
  return static_cast<int32_t>(floor_div(micros, kMicrosPerDay));
}

int32_t year_from_micros(int64_t micros) { return year_from_days(day_from_micros(micros)); }
int32_t month_from_micros(int64_t micros) { return month_from_days(day_from_micros(micros)); }

int32_t hour_from_micros(int64_t micros) {
  return static_cast<int32_t>(floor_div(micros, kMicrosPerHour));
}

// ----------------------------------------------------------------------------------------------
// Transform

namespace {

bool parse_positive_int(std::string_view s, int32_t* out) {
  if (s.empty() || s.size() > 10) return false;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  if (v <= 0 || v > std::numeric_limits<int32_t>::max()) return false;
  *out = static_cast<int32_t>(v);
  return true;
}

bool is_timestamp(TypeId id) {
  return id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTimestampNs ||
         id == TypeId::kTimestampTzNs;
}

bool is_nanos(TypeId id) { return id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs; }

// Epoch micros of a timestamp literal (nanos are floored to micros first).
int64_t timestamp_micros(const Literal& v) {
  int64_t raw = v.as_int64();
  return is_nanos(v.type()->id()) ? floor_div(raw, kNanosPerMicro) : raw;
}

}  // namespace

Transform Transform::unknown(std::string text) {
  Transform t(Kind::kUnknown, 0);
  t.text_ = std::move(text);
  return t;
}

Result<Transform> Transform::parse(std::string_view text) {
  std::string low = to_lower(text);
  size_t open = low.find('[');
  if (open != std::string::npos && !low.empty() && low.back() == ']') {
    std::string name = low.substr(0, open);
    std::string_view arg = std::string_view(low).substr(open + 1, low.size() - open - 2);
    if (name == "bucket" || name == "truncate") {
      int32_t n = 0;
      if (!parse_positive_int(arg, &n)) {
        return invalid_data("invalid transform '{}': {} needs a positive integer parameter", text,
                            name);
      }
      return name == "bucket" ? bucket(n) : truncate(n);
    }
    return unknown(std::string(text));
  }
  if (low == "identity") return identity();
  if (low == "year") return year();
  if (low == "month") return month();
  if (low == "day") return day();
  if (low == "hour") return hour();
  if (low == "void") return void_transform();
  if (low == "bucket" || low == "truncate" || low.rfind("bucket[", 0) == 0 ||
      low.rfind("truncate[", 0) == 0) {
    return invalid_data("invalid transform '{}': expected {}[N]", text,
                        low.rfind("bucket", 0) == 0 ? "bucket" : "truncate");
  }
  return unknown(std::string(text));
}

bool Transform::preserves_order() const {
  switch (kind_) {
    case Kind::kIdentity:
    case Kind::kTruncate:
    case Kind::kYear:
    case Kind::kMonth:
    case Kind::kDay:
    case Kind::kHour:
      return true;
    default:
      return false;
  }
}

std::string Transform::to_string() const {
  switch (kind_) {
    case Kind::kIdentity:
      return "identity";
    case Kind::kBucket:
      return fmt::format("bucket[{}]", param_);
    case Kind::kTruncate:
      return fmt::format("truncate[{}]", param_);
    case Kind::kYear:
      return "year";
    case Kind::kMonth:
      return "month";
    case Kind::kDay:
      return "day";
    case Kind::kHour:
      return "hour";
    case Kind::kVoid:
      return "void";
    case Kind::kUnknown:
      return text_;
  }
  return text_;
}

std::string Transform::dedup_name() const { return is_time() ? "time" : to_string(); }

bool Transform::can_transform(const Type& source) const {
  TypeId id = source.id();
  switch (kind_) {
    case Kind::kIdentity:
      return source.is_primitive() && id != TypeId::kUnknown && id != TypeId::kVariant &&
             id != TypeId::kGeometry && id != TypeId::kGeography;
    case Kind::kBucket:
      switch (id) {
        case TypeId::kInt:
        case TypeId::kLong:
        case TypeId::kDecimal:
        case TypeId::kDate:
        case TypeId::kTime:
        case TypeId::kTimestamp:
        case TypeId::kTimestampTz:
        case TypeId::kTimestampNs:
        case TypeId::kTimestampTzNs:
        case TypeId::kString:
        case TypeId::kUuid:
        case TypeId::kFixed:
        case TypeId::kBinary:
          return true;
        default:
          return false;
      }
    case Kind::kTruncate:
      return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDecimal ||
             id == TypeId::kString || id == TypeId::kBinary;
    case Kind::kYear:
    case Kind::kMonth:
    case Kind::kDay:
      return id == TypeId::kDate || is_timestamp(id);
    case Kind::kHour:
      return is_timestamp(id);
    case Kind::kVoid:
      return true;
    case Kind::kUnknown:
      // Written by another implementation that knew the transform; trust it.
      return true;
  }
  return false;
}

Result<TypePtr> Transform::result_type(const TypePtr& source) const {
  if (!source) return invalid_argument("transform {}: no source type", to_string());
  if (kind_ == Kind::kUnknown) return Type::string();
  if (!can_transform(*source)) {
    return invalid_argument("transform {} cannot be applied to {}", to_string(),
                            source->to_string());
  }
  switch (kind_) {
    case Kind::kBucket:
    case Kind::kYear:
    case Kind::kMonth:
    case Kind::kHour:
      return Type::int32();
    case Kind::kDay:
      return Type::date();
    default:
      return source;
  }
}

Result<Literal> Transform::apply(const Literal& value) const {
  if (kind_ == Kind::kUnknown) {
    return not_supported("cannot apply unknown transform '{}'", text_);
  }
  const TypePtr& type = value.type();
  if (!type) return invalid_argument("transform {}: value has no type", to_string());
  if (!can_transform(*type)) {
    return invalid_argument("transform {} cannot be applied to {}", to_string(), type->to_string());
  }
  if (kind_ == Kind::kVoid) return Literal::null(type);
  if (value.is_null()) {
    return Literal::null(FLOE_TRY(result_type(type)));
  }
  TypeId id = type->id();
  switch (kind_) {
    case Kind::kIdentity:
      return value;
    case Kind::kBucket: {
      int32_t hash = FLOE_TRY(bucket_hash(value));
      return Literal::int32(bucket_of(hash, param_));
    }
    case Kind::kTruncate: {
      int64_t w = param_;
      if (id == TypeId::kInt || id == TypeId::kLong) {
        int64_t v = value.as_int64();
        // Wrapping subtraction, as Java's arithmetic at the extremes.
        auto r =
            static_cast<int64_t>(static_cast<uint64_t>(v) - static_cast<uint64_t>(floor_mod(v, w)));
        return Literal::of_int(type, r);
      }
      if (id == TypeId::kDecimal) {
        int128_t v = value.as_decimal();
        int128_t m = v % w;
        if (m < 0) m += w;
        return Literal::decimal(v - m, type->precision(), type->scale());
      }
      if (id == TypeId::kString) {
        return Literal::of_bytes(type, std::string(utf8_truncate(value.as_bytes(), param_)));
      }
      const std::string& b = value.as_bytes();
      return Literal::of_bytes(type, b.substr(0, std::min<size_t>(b.size(), param_)));
    }
    case Kind::kYear:
      if (id == TypeId::kDate) return Literal::int32(year_from_days(value.as_int32()));
      return Literal::int32(year_from_micros(timestamp_micros(value)));
    case Kind::kMonth:
      if (id == TypeId::kDate) return Literal::int32(month_from_days(value.as_int32()));
      return Literal::int32(month_from_micros(timestamp_micros(value)));
    case Kind::kDay:
      if (id == TypeId::kDate) return Literal::date(value.as_int32());
      return Literal::date(day_from_micros(timestamp_micros(value)));
    case Kind::kHour:
      return Literal::int32(hour_from_micros(timestamp_micros(value)));
    default:
      break;
  }
  return not_supported("transform {} is not implemented", to_string());
}

namespace {

// Java's Transform.toHumanString of a value by its type (identity, bucket, truncate, unknown).
std::string human_value(const Literal& v) {
  switch (v.type()->id()) {
    case TypeId::kBoolean:
      return v.as_bool() ? "true" : "false";
    case TypeId::kInt:
    case TypeId::kLong:
      return std::to_string(v.as_int64());
    case TypeId::kFloat:
      return java_float_to_string(v.as_float());
    case TypeId::kDouble:
      return java_double_to_string(v.as_double());
    case TypeId::kDecimal:
      return java_decimal_to_string(v.as_decimal(), v.type()->scale());
    case TypeId::kDate:
      return format_date(v.as_int32());
    case TypeId::kTime:
      return format_time_of_day(floor_mod(v.as_int64(), kMicrosPerDay) * 1000,
                                FractionStyle::kLocalTime);
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return format_micros(v.as_int64(), FractionStyle::kTrimmed,
                           v.type()->id() == TypeId::kTimestampTz);
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return format_nanos(v.as_int64(), FractionStyle::kTrimmed,
                          v.type()->id() == TypeId::kTimestampTzNs);
    case TypeId::kString:
      return v.as_bytes();
    case TypeId::kUuid:
      return v.as_uuid().to_string();
    case TypeId::kFixed:
    case TypeId::kBinary:
      return base64_encode(v.as_bytes());
    default:
      return v.to_string();
  }
}

}  // namespace

std::string Transform::to_human_string(const Literal& result) const {
  if (!result.type() || result.is_null() || kind_ == Kind::kVoid) return "null";
  switch (kind_) {
    case Kind::kYear:
      return fmt::format("{:04d}", 1970 + result.as_int64());
    case Kind::kMonth: {
      int64_t m = result.as_int64();
      return fmt::format("{:04d}-{:02d}", 1970 + floor_div(m, 12), 1 + floor_mod(m, 12));
    }
    case Kind::kDay:
      return format_date(result.as_int32());
    case Kind::kHour: {
      int64_t h = result.as_int64();
      return fmt::format("{}-{:02d}", format_date(static_cast<int32_t>(floor_div(h, 24))),
                         floor_mod(h, 24));
    }
    default:
      return human_value(result);
  }
}

}  // namespace floe
