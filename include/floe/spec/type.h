// Iceberg types (spec "Schemas and Data Types"): primitives, and the nested struct, list and
// map types whose fields carry ids. Types are immutable and shared (TypePtr).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/spec/literal.h"
#include "floe/util/result.h"

namespace floe {

enum class TypeId : uint8_t {
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kDecimal,
  kDate,
  kTime,
  kTimestamp,
  kTimestampTz,
  kTimestampNs,
  kTimestampTzNs,
  kString,
  kUuid,
  kFixed,
  kBinary,
  kUnknown,    // v3
  kVariant,    // v3
  kGeometry,   // v3
  kGeography,  // v3
  kStruct,
  kList,
  kMap,
};

// A field of a struct, or the element of a list, or the key/value of a map.
struct NestedField {
  int32_t id = 0;
  std::string name;
  TypePtr type;
  bool required = false;
  std::string doc;
  std::optional<Literal> initial_default;  // v3: fills rows written before the field existed
  std::optional<Literal> write_default;    // v3: fills values a writer omits

  bool operator==(const NestedField& other) const;
};

class Type {
 public:
  TypeId id() const { return id_; }
  bool is_primitive() const { return id_ < TypeId::kStruct; }
  bool is_nested() const { return !is_primitive(); }
  bool is_struct() const { return id_ == TypeId::kStruct; }
  bool is_list() const { return id_ == TypeId::kList; }
  bool is_map() const { return id_ == TypeId::kMap; }

  // decimal(P,S)
  int precision() const { return precision_; }
  int scale() const { return scale_; }
  // fixed[L]
  int length() const { return length_; }
  // geometry(C) / geography(C, A); empty = defaults
  const std::string& crs() const { return crs_; }
  const std::string& algorithm() const { return algorithm_; }

  // Struct fields; a list's single element field; a map's key then value field.
  const std::vector<NestedField>& fields() const { return fields_; }
  const NestedField& element() const { return fields_[0]; }
  const NestedField& key() const { return fields_[0]; }
  const NestedField& value() const { return fields_[1]; }
  // Direct child by id or by name (nullptr if absent).
  const NestedField* child(int32_t field_id) const;
  const NestedField* child(std::string_view name, bool case_sensitive = true) const;

  // The spec's type string for primitives ("decimal(9, 2)", "fixed[16]", "timestamptz");
  // nested types print as struct<a: int, ...>, list<...>, map<..., ...> (not JSON).
  std::string to_string() const;
  bool equals(const Type& other) const;

  static TypePtr boolean();
  static TypePtr int32();
  static TypePtr int64();
  static TypePtr float32();
  static TypePtr float64();
  static TypePtr date();
  static TypePtr time();
  static TypePtr timestamp();
  static TypePtr timestamptz();
  static TypePtr timestamp_ns();
  static TypePtr timestamptz_ns();
  static TypePtr string();
  static TypePtr uuid();
  static TypePtr binary();
  static TypePtr unknown();
  static TypePtr variant();
  static TypePtr fixed(int length);
  static TypePtr decimal(int precision, int scale);
  static TypePtr geometry(std::string crs = "");
  static TypePtr geography(std::string crs = "", std::string algorithm = "");
  static TypePtr primitive(TypeId id);  // singleton for parameterless primitives
  static TypePtr struct_of(std::vector<NestedField> fields);
  static TypePtr list_of(NestedField element);
  static TypePtr map_of(NestedField key, NestedField value);
  static TypePtr list_of(int32_t element_id, TypePtr element, bool element_required);
  static TypePtr map_of(int32_t key_id, TypePtr key, int32_t value_id, TypePtr value,
                        bool value_required);

  // Parses a primitive type string as it appears in schema JSON. Accepts spaces
  // ("decimal( 9 , 2 )") and any letter case for the type name.
  static Result<TypePtr> parse_primitive(std::string_view text);

  Type(TypeId id) : id_(id) {}  // use the factories

 private:
  TypeId id_;
  int precision_ = 0;
  int scale_ = 0;
  int length_ = 0;
  std::string crs_;
  std::string algorithm_;
  std::vector<NestedField> fields_;
};

const char* type_id_name(TypeId id);

inline bool operator==(const Type& a, const Type& b) { return a.equals(b); }
// Compares two possibly-null type pointers by value.
bool same_type(const TypePtr& a, const TypePtr& b);

}  // namespace floe
