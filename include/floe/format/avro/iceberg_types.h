// How Iceberg's types are written in Avro schemas (spec Appendix A), shared by the manifest writer
// (partition tuples) and the Avro data-file writer: primitive types with their logical types,
// named fixed types defined once per schema, Java's name sanitising, and the fixed size of a
// decimal's precision.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "floe/spec/type.h"

namespace floe::avro {

// The Avro type of a primitive Iceberg type: "int", {"type": "int", "logicalType": "date"},
// timestamps as long with timestamp-micros/-nanos and adjust-to-utc, uuid as fixed(16), fixed
// as fixed_<L>, decimals as decimal_<P>_<S> fixed of the minimal size. A named type is defined
// the first time and referenced by name after (`defined` remembers the names). Strings and any
// other type give "string".
nlohmann::ordered_json iceberg_primitive_type(const Type& type, std::set<std::string>* defined);

// Java's AvroSchemaUtil.makeCompatibleName: a leading digit becomes "_<digit>", any other
// character invalid in an Avro name "_x<HEX>"; an empty name "_".
std::string compatible_name(const std::string& name);

// Bytes of the smallest two's-complement fixed that holds every decimal of `precision` digits
// (Java's TypeUtil.decimalRequiredBytes).
int decimal_required_bytes(int precision);

}  // namespace floe::avro
