// Partition transforms (spec "Partition Transforms"): identity, bucket[N], truncate[W],
// year, month, day, hour, void, and unknown transforms kept by name. Computes result types and
// values exactly as the spec says (Murmur3 bucket hashes, floor semantics for negatives).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "floe/spec/literal.h"
#include "floe/spec/type.h"
#include "floe/util/result.h"

namespace floe {

class Transform {
 public:
  enum class Kind : uint8_t {
    kIdentity,
    kBucket,
    kTruncate,
    kYear,
    kMonth,
    kDay,
    kHour,
    kVoid,
    kUnknown,
  };

  Transform() = default;  // identity
  static Transform identity() { return Transform(Kind::kIdentity, 0); }
  static Transform bucket(int32_t n) { return Transform(Kind::kBucket, n); }
  static Transform truncate(int32_t width) { return Transform(Kind::kTruncate, width); }
  static Transform year() { return Transform(Kind::kYear, 0); }
  static Transform month() { return Transform(Kind::kMonth, 0); }
  static Transform day() { return Transform(Kind::kDay, 0); }
  static Transform hour() { return Transform(Kind::kHour, 0); }
  static Transform void_transform() { return Transform(Kind::kVoid, 0); }
  static Transform unknown(std::string text);

  // "identity", "bucket[16]", "truncate[10]", "year", ...; case-insensitive. Anything
  // unrecognised parses as an unknown transform that keeps its text. Malformed parameters
  // ("bucket[0]", "bucket[x]") are errors.
  static Result<Transform> parse(std::string_view text);

  Kind kind() const { return kind_; }
  int32_t param() const { return param_; }  // N for bucket, W for truncate
  bool is_identity() const { return kind_ == Kind::kIdentity; }
  bool is_void() const { return kind_ == Kind::kVoid; }
  bool is_unknown() const { return kind_ == Kind::kUnknown; }
  bool is_time() const {
    return kind_ == Kind::kYear || kind_ == Kind::kMonth || kind_ == Kind::kDay ||
           kind_ == Kind::kHour;
  }
  // identity, truncate and the time transforms keep the source order.
  bool preserves_order() const;

  std::string to_string() const;
  // Java's dedup name: time transforms share "time"; others are their string.
  std::string dedup_name() const;

  bool can_transform(const Type& source) const;
  // Result type for a source type: bucket/year/month/hour -> int, day -> date, others -> source.
  Result<TypePtr> result_type(const TypePtr& source) const;
  // Applies the transform to one value; null gives null. The literal's type must be a type the
  // transform accepts. Errors for unknown transforms.
  Result<Literal> apply(const Literal& value) const;

  // Human text of a transform *result* for partition paths: day 20574 -> "2026-05-01",
  // hour 494976 -> "2026-06-20-00", month 676 -> "2026-05", year 56 -> "2026", others by
  // type (Java's toHumanString). Null gives "null".
  std::string to_human_string(const Literal& result) const;

  bool operator==(const Transform& other) const {
    return kind_ == other.kind_ && param_ == other.param_ &&
           (kind_ != Kind::kUnknown || text_ == other.text_);
  }

 private:
  Transform(Kind kind, int32_t param) : kind_(kind), param_(param) {}

  Kind kind_ = Kind::kIdentity;
  int32_t param_ = 0;
  std::string text_;  // for unknown transforms
};

// Bucket hashing (spec Appendix B): 32-bit Murmur3 x86, seed 0.
int32_t murmur3_x86_32(const void* data, size_t length, uint32_t seed = 0);
int32_t hash_long(int64_t v);                // 8-byte little-endian
int32_t hash_bytes(std::string_view bytes);  // strings (UTF-8), binary, fixed, uuid, decimal
// The Appendix B hash of any bucketable literal (and the defined-for-completeness types).
Result<int32_t> bucket_hash(const Literal& value);
inline int32_t bucket_of(int32_t hash, int32_t n) { return (hash & 0x7FFFFFFF) % n; }

// Time transform ordinals with floor semantics (1969-12-31T23:59:59.999999 -> -1 for all).
int32_t year_from_days(int32_t days);
int32_t month_from_days(int32_t days);
int32_t year_from_micros(int64_t micros);
int32_t month_from_micros(int64_t micros);
int32_t day_from_micros(int64_t micros);
int32_t hour_from_micros(int64_t micros);

// Truncation helpers (floor semantics for negatives).
inline int64_t truncate_integer(int64_t v, int64_t width) {
  return v - (((v % width) + width) % width);
}

}  // namespace floe
