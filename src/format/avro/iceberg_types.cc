#include "floe/format/avro/iceberg_types.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>

namespace floe::avro {

namespace {

using ojson = nlohmann::ordered_json;

ojson logical(const char* base, const char* logical_type) {
  ojson j = ojson::object();
  j["type"] = base;
  j["logicalType"] = logical_type;
  return j;
}

ojson timestamp(const char* logical_type, bool utc) {
  ojson j = logical("long", logical_type);
  j["adjust-to-utc"] = utc;
  return j;
}

ojson named_fixed(const std::string& name, int size, std::set<std::string>* defined) {
  if (!defined->insert(name).second) return name;
  ojson j = ojson::object();
  j["type"] = "fixed";
  j["name"] = name;
  j["size"] = size;
  return j;
}

}  // namespace

ojson iceberg_primitive_type(const Type& t, std::set<std::string>* defined) {
  switch (t.id()) {
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
    case TypeId::kBinary:
      return "bytes";
    case TypeId::kDate:
      return logical("int", "date");
    case TypeId::kTime:
      return logical("long", "time-micros");
    case TypeId::kTimestamp:
      return timestamp("timestamp-micros", false);
    case TypeId::kTimestampTz:
      return timestamp("timestamp-micros", true);
    case TypeId::kTimestampNs:
      return timestamp("timestamp-nanos", false);
    case TypeId::kTimestampTzNs:
      return timestamp("timestamp-nanos", true);
    case TypeId::kUuid: {
      ojson j = named_fixed("uuid_fixed", 16, defined);
      if (j.is_object()) j["logicalType"] = "uuid";
      return j;
    }
    case TypeId::kFixed:
      return named_fixed(fmt::format("fixed_{}", t.length()), t.length(), defined);
    case TypeId::kDecimal: {
      ojson j = named_fixed(fmt::format("decimal_{}_{}", t.precision(), t.scale()),
                            decimal_required_bytes(t.precision()), defined);
      if (j.is_object()) {
        j["logicalType"] = "decimal";
        j["precision"] = t.precision();
        j["scale"] = t.scale();
      }
      return j;
    }
    default:
      return "string";
  }
}

std::string compatible_name(const std::string& name) {
  auto valid = [](char c, bool first) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
           (!first && std::isdigit(static_cast<unsigned char>(c)));
  };
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (valid(c, i == 0)) {
      out.push_back(c);
    } else if (i == 0 && std::isdigit(static_cast<unsigned char>(c))) {
      out += "_";
      out.push_back(c);
    } else {
      out += fmt::format("_x{:X}", static_cast<unsigned char>(c));
    }
  }
  return out.empty() ? "_" : out;
}

int decimal_required_bytes(int precision) {
  for (int n = 1; n < 16; ++n) {
    // The largest positive value of n bytes, 2^(8n-1) - 1, must hold 10^precision - 1.
    if (std::pow(2.0L, 8 * n - 1) >= std::pow(10.0L, precision)) return n;
  }
  return 16;
}

}  // namespace floe::avro
