// JSON text read from files (table metadata, the schema and partition spec in manifest headers,
// name mappings, Avro schemas, Puffin footers) parsed with every failure as an error value:
// a syntax error, a number out of range (1e309), or nesting deeper than kMaxJsonDepth
// (floe/util/json_depth.h) never throws or overflows the stack.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "floe/util/json_depth.h"
#include "floe/util/result.h"

namespace floe {

// Parses `text`; errors name `what` ("table metadata", "avro schema", ...) and the byte or value.
Result<nlohmann::json> parse_json_text(std::string_view text, std::string_view what);

// What a JSON value is, for error messages: "null", "a boolean", "an integer", "a number",
// "a string", "an array", "an object".
const char* json_kind(const nlohmann::json& j);

// A short text of a value for error messages, never recursive: scalars as JSON (strings cut
// after 64 bytes, invalid UTF-8 replaced), arrays and objects by kind ("an array").
std::string json_for_message(const nlohmann::json& j);

// A JSON value that must be a string (a property or summary value): its text, with numbers and
// booleans as their JSON text (some writers store them unquoted). Null, arrays and objects are
// an error naming `where`.
Result<std::string> json_scalar_text(const nlohmann::json& j, std::string_view where);

}  // namespace floe
