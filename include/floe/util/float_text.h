// Floats as Java prints them: Float.toString / Double.toString (shortest round-trip digits,
// scientific outside [1e-3, 1e7)), as Iceberg partition paths and Spark casts show them.
#pragma once

#include <string>

namespace floe {

std::string java_double_to_string(double v);
std::string java_float_to_string(float v);

}  // namespace floe
