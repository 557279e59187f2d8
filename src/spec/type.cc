#include "floe/spec/type.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "floe/util/strings.h"

namespace floe {

namespace {

bool parse_int(std::string_view s, int* out) {
  s = trim(s);
  if (s.empty() || s.size() > 9) return false;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

}  // namespace

bool NestedField::operator==(const NestedField& other) const {
  return id == other.id && name == other.name && required == other.required && doc == other.doc &&
         same_type(type, other.type) && initial_default == other.initial_default &&
         write_default == other.write_default;
}

const char* type_id_name(TypeId id) {
  switch (id) {
    case TypeId::kBoolean:
      return "boolean";
    case TypeId::kInt:
      return "int";
    case TypeId::kLong:
      return "long";
    case TypeId::kFloat:
      return "float";
    case TypeId::kDouble:
      return "double";
    case TypeId::kDecimal:
      return "decimal";
    case TypeId::kDate:
      return "date";
    case TypeId::kTime:
      return "time";
    case TypeId::kTimestamp:
      return "timestamp";
    case TypeId::kTimestampTz:
      return "timestamptz";
    case TypeId::kTimestampNs:
      return "timestamp_ns";
    case TypeId::kTimestampTzNs:
      return "timestamptz_ns";
    case TypeId::kString:
      return "string";
    case TypeId::kUuid:
      return "uuid";
    case TypeId::kFixed:
      return "fixed";
    case TypeId::kBinary:
      return "binary";
    case TypeId::kUnknown:
      return "unknown";
    case TypeId::kVariant:
      return "variant";
    case TypeId::kGeometry:
      return "geometry";
    case TypeId::kGeography:
      return "geography";
    case TypeId::kStruct:
      return "struct";
    case TypeId::kList:
      return "list";
    case TypeId::kMap:
      return "map";
  }
  return "?";
}

const NestedField* Type::child(int32_t field_id) const {
  for (const auto& f : fields_) {
    if (f.id == field_id) return &f;
  }
  return nullptr;
}

const NestedField* Type::child(std::string_view name, bool case_sensitive) const {
  if (case_sensitive) {
    for (const auto& f : fields_) {
      if (f.name == name) return &f;
    }
    return nullptr;
  }
  std::string needle = to_lower(name);
  for (const auto& f : fields_) {
    if (to_lower(f.name) == needle) return &f;
  }
  return nullptr;
}

std::string Type::to_string() const {
  switch (id_) {
    case TypeId::kDecimal:
      return "decimal(" + std::to_string(precision_) + ", " + std::to_string(scale_) + ")";
    case TypeId::kFixed:
      return "fixed[" + std::to_string(length_) + "]";
    case TypeId::kGeometry:
      return crs_.empty() ? "geometry" : "geometry(" + crs_ + ")";
    case TypeId::kGeography:
      if (crs_.empty() && algorithm_.empty()) return "geography";
      if (algorithm_.empty()) return "geography(" + crs_ + ")";
      return "geography(" + (crs_.empty() ? std::string("OGC:CRS84") : crs_) + ", " + algorithm_ +
             ")";
    case TypeId::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < fields_.size(); ++i) {
        if (i) out += ", ";
        out += fields_[i].name + ": " + fields_[i].type->to_string();
        if (fields_[i].required) out += " not null";
      }
      return out + ">";
    }
    case TypeId::kList:
      return "list<" + fields_[0].type->to_string() + ">";
    case TypeId::kMap:
      return "map<" + fields_[0].type->to_string() + ", " + fields_[1].type->to_string() + ">";
    default:
      return type_id_name(id_);
  }
}

bool Type::equals(const Type& other) const {
  if (this == &other) return true;
  if (id_ != other.id_ || precision_ != other.precision_ || scale_ != other.scale_ ||
      length_ != other.length_ || crs_ != other.crs_ || algorithm_ != other.algorithm_) {
    return false;
  }
  return fields_ == other.fields_;
}

bool same_type(const TypePtr& a, const TypePtr& b) {
  if (a == b) return true;
  if (!a || !b) return false;
  return a->equals(*b);
}

TypePtr Type::primitive(TypeId id) {
  static const std::array<TypePtr, 23> kSingletons = [] {
    std::array<TypePtr, 23> out;
    for (int i = 0; i < 23; ++i) out[i] = std::make_shared<const Type>(static_cast<TypeId>(i));
    return out;
  }();
  return kSingletons[static_cast<int>(id)];
}

TypePtr Type::boolean() { return primitive(TypeId::kBoolean); }
TypePtr Type::int32() { return primitive(TypeId::kInt); }
TypePtr Type::int64() { return primitive(TypeId::kLong); }
TypePtr Type::float32() { return primitive(TypeId::kFloat); }
TypePtr Type::float64() { return primitive(TypeId::kDouble); }
TypePtr Type::date() { return primitive(TypeId::kDate); }
TypePtr Type::time() { return primitive(TypeId::kTime); }
TypePtr Type::timestamp() { return primitive(TypeId::kTimestamp); }
TypePtr Type::timestamptz() { return primitive(TypeId::kTimestampTz); }
TypePtr Type::timestamp_ns() { return primitive(TypeId::kTimestampNs); }
TypePtr Type::timestamptz_ns() { return primitive(TypeId::kTimestampTzNs); }
TypePtr Type::string() { return primitive(TypeId::kString); }
TypePtr Type::uuid() { return primitive(TypeId::kUuid); }
TypePtr Type::binary() { return primitive(TypeId::kBinary); }
TypePtr Type::unknown() { return primitive(TypeId::kUnknown); }
TypePtr Type::variant() { return primitive(TypeId::kVariant); }

TypePtr Type::fixed(int length) {
  auto t = std::make_shared<Type>(TypeId::kFixed);
  t->length_ = length;
  return t;
}

TypePtr Type::decimal(int precision, int scale) {
  auto t = std::make_shared<Type>(TypeId::kDecimal);
  t->precision_ = precision;
  t->scale_ = scale;
  return t;
}

TypePtr Type::geometry(std::string crs) {
  auto t = std::make_shared<Type>(TypeId::kGeometry);
  t->crs_ = std::move(crs);
  return t;
}

TypePtr Type::geography(std::string crs, std::string algorithm) {
  auto t = std::make_shared<Type>(TypeId::kGeography);
  t->crs_ = std::move(crs);
  t->algorithm_ = std::move(algorithm);
  return t;
}

TypePtr Type::struct_of(std::vector<NestedField> fields) {
  auto t = std::make_shared<Type>(TypeId::kStruct);
  t->fields_ = std::move(fields);
  return t;
}

TypePtr Type::list_of(NestedField element) {
  auto t = std::make_shared<Type>(TypeId::kList);
  if (element.name.empty()) element.name = "element";
  t->fields_.push_back(std::move(element));
  return t;
}

TypePtr Type::map_of(NestedField key, NestedField value) {
  auto t = std::make_shared<Type>(TypeId::kMap);
  if (key.name.empty()) key.name = "key";
  if (value.name.empty()) value.name = "value";
  key.required = true;  // map keys are always required
  t->fields_.push_back(std::move(key));
  t->fields_.push_back(std::move(value));
  return t;
}

TypePtr Type::list_of(int32_t element_id, TypePtr element, bool element_required) {
  NestedField f;
  f.id = element_id;
  f.name = "element";
  f.type = std::move(element);
  f.required = element_required;
  return list_of(std::move(f));
}

TypePtr Type::map_of(int32_t key_id, TypePtr key, int32_t value_id, TypePtr value,
                     bool value_required) {
  NestedField k;
  k.id = key_id;
  k.name = "key";
  k.type = std::move(key);
  k.required = true;
  NestedField v;
  v.id = value_id;
  v.name = "value";
  v.type = std::move(value);
  v.required = value_required;
  return map_of(std::move(k), std::move(v));
}

Result<TypePtr> Type::parse_primitive(std::string_view text) {
  std::string_view t = trim(text);
  std::string low = to_lower(t);
  static const std::pair<const char*, TypeId> kSimple[] = {
      {"boolean", TypeId::kBoolean},
      {"int", TypeId::kInt},
      {"integer", TypeId::kInt},
      {"long", TypeId::kLong},
      {"float", TypeId::kFloat},
      {"double", TypeId::kDouble},
      {"date", TypeId::kDate},
      {"time", TypeId::kTime},
      {"timestamp", TypeId::kTimestamp},
      {"timestamptz", TypeId::kTimestampTz},
      {"timestamp_ns", TypeId::kTimestampNs},
      {"timestamptz_ns", TypeId::kTimestampTzNs},
      {"string", TypeId::kString},
      {"uuid", TypeId::kUuid},
      {"binary", TypeId::kBinary},
      {"unknown", TypeId::kUnknown},
      {"variant", TypeId::kVariant},
      {"geometry", TypeId::kGeometry},
      {"geography", TypeId::kGeography},
  };
  for (const auto& [name, id] : kSimple) {
    if (low == name) return primitive(id);
  }
  auto args_of = [&](std::string_view prefix, char open,
                     char close) -> std::optional<std::string_view> {
    if (low.rfind(prefix, 0) != 0) return std::nullopt;
    std::string_view rest = trim(t.substr(prefix.size()));
    if (rest.size() < 2 || rest.front() != open || rest.back() != close) return std::nullopt;
    return rest.substr(1, rest.size() - 2);
  };
  if (auto args = args_of("fixed", '[', ']')) {
    int len = 0;
    if (!parse_int(*args, &len) || len <= 0) {
      return invalid_data("invalid fixed type '{}': length must be a positive integer", text);
    }
    return fixed(len);
  }
  if (auto args = args_of("decimal", '(', ')')) {
    auto comma = args->find(',');
    int p = 0, s = 0;
    if (comma == std::string_view::npos || !parse_int(args->substr(0, comma), &p) ||
        !parse_int(args->substr(comma + 1), &s)) {
      return invalid_data("invalid decimal type '{}': expected decimal(P, S)", text);
    }
    if (p < 1 || p > 38 || s > p) {
      return invalid_data(
          "invalid decimal type '{}': precision must be 1..38 and scale <= precision", text);
    }
    return decimal(p, s);
  }
  if (auto args = args_of("geometry", '(', ')')) {
    return geometry(std::string(trim(*args)));
  }
  if (auto args = args_of("geography", '(', ')')) {
    auto comma = args->find(',');
    if (comma == std::string_view::npos) return geography(std::string(trim(*args)));
    return geography(std::string(trim(args->substr(0, comma))),
                     std::string(trim(args->substr(comma + 1))));
  }
  return invalid_data("unknown type '{}'", text);
}

}  // namespace floe
