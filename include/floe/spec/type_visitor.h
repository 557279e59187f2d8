// One dispatch over Iceberg type ids (Iceberg spec, Schemas and Data Types): visit_type calls a
// function with a tag per id, which carries the id and the C++ type a fixed-width value of it is
// held in, so a switch over every id becomes one generic lambda.
#pragma once

#include <cstdint>
#include <type_traits>

#include "floe/spec/type.h"
#include "floe/util/int128.h"

namespace floe {

// The C++ type a value of a fixed-width primitive is held in (column values, Literal): int and
// date int32_t; long, time and the timestamps int64_t; float, double; decimal's unscaled
// int128_t; boolean bool (columns store it as one uint8_t). void for every other type.
template <TypeId Id>
struct FixedValue {
  using type = void;
};
template <>
struct FixedValue<TypeId::kBoolean> {
  using type = bool;
};
template <>
struct FixedValue<TypeId::kInt> {
  using type = int32_t;
};
template <>
struct FixedValue<TypeId::kDate> {
  using type = int32_t;
};
template <>
struct FixedValue<TypeId::kLong> {
  using type = int64_t;
};
template <>
struct FixedValue<TypeId::kTime> {
  using type = int64_t;
};
template <>
struct FixedValue<TypeId::kTimestamp> {
  using type = int64_t;
};
template <>
struct FixedValue<TypeId::kTimestampTz> {
  using type = int64_t;
};
template <>
struct FixedValue<TypeId::kTimestampNs> {
  using type = int64_t;
};
template <>
struct FixedValue<TypeId::kTimestampTzNs> {
  using type = int64_t;
};
template <>
struct FixedValue<TypeId::kFloat> {
  using type = float;
};
template <>
struct FixedValue<TypeId::kDouble> {
  using type = double;
};
template <>
struct FixedValue<TypeId::kDecimal> {
  using type = int128_t;
};

// The tag visit_type passes: TypeTag<Id>::kId, and Value (FixedValue<Id>::type).
template <TypeId Id>
struct TypeTag {
  static constexpr TypeId kId = Id;
  using Value = typename FixedValue<Id>::type;
  static constexpr bool kFixedValue = !std::is_void_v<Value>;
};

// The value of a non-null literal of a fixed-width primitive as its FixedValue type T.
template <class T>
T fixed_value(const Literal& v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v.as_bool();
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return v.as_int32();
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return v.as_int64();
  } else if constexpr (std::is_same_v<T, float>) {
    return v.as_float();
  } else if constexpr (std::is_same_v<T, double>) {
    return v.as_double();
  } else {
    static_assert(std::is_same_v<T, int128_t>);
    return v.as_decimal();
  }
}

// Calls f(TypeTag<id>{}) and returns what it returns (every call must return the same type).
template <class F>
decltype(auto) visit_type(TypeId id, F&& f) {
  switch (id) {
    case TypeId::kBoolean:
      return f(TypeTag<TypeId::kBoolean>{});
    case TypeId::kInt:
      return f(TypeTag<TypeId::kInt>{});
    case TypeId::kLong:
      return f(TypeTag<TypeId::kLong>{});
    case TypeId::kFloat:
      return f(TypeTag<TypeId::kFloat>{});
    case TypeId::kDouble:
      return f(TypeTag<TypeId::kDouble>{});
    case TypeId::kDecimal:
      return f(TypeTag<TypeId::kDecimal>{});
    case TypeId::kDate:
      return f(TypeTag<TypeId::kDate>{});
    case TypeId::kTime:
      return f(TypeTag<TypeId::kTime>{});
    case TypeId::kTimestamp:
      return f(TypeTag<TypeId::kTimestamp>{});
    case TypeId::kTimestampTz:
      return f(TypeTag<TypeId::kTimestampTz>{});
    case TypeId::kTimestampNs:
      return f(TypeTag<TypeId::kTimestampNs>{});
    case TypeId::kTimestampTzNs:
      return f(TypeTag<TypeId::kTimestampTzNs>{});
    case TypeId::kString:
      return f(TypeTag<TypeId::kString>{});
    case TypeId::kUuid:
      return f(TypeTag<TypeId::kUuid>{});
    case TypeId::kFixed:
      return f(TypeTag<TypeId::kFixed>{});
    case TypeId::kBinary:
      return f(TypeTag<TypeId::kBinary>{});
    case TypeId::kUnknown:
      return f(TypeTag<TypeId::kUnknown>{});
    case TypeId::kVariant:
      return f(TypeTag<TypeId::kVariant>{});
    case TypeId::kGeometry:
      return f(TypeTag<TypeId::kGeometry>{});
    case TypeId::kGeography:
      return f(TypeTag<TypeId::kGeography>{});
    case TypeId::kStruct:
      return f(TypeTag<TypeId::kStruct>{});
    case TypeId::kList:
      return f(TypeTag<TypeId::kList>{});
    case TypeId::kMap:
      break;
  }
  return f(TypeTag<TypeId::kMap>{});
}

}  // namespace floe
