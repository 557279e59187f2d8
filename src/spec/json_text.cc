#include "floe/spec/json_text.h"

namespace floe {

namespace {

// nlohmann's messages start with "[json.exception.<kind>.<id>] ".
std::string_view without_prefix(const char* what) {
  std::string_view s(what);
  if (!s.empty() && s.front() == '[') {
    auto end = s.find("] ");
    if (end != std::string_view::npos) s.remove_prefix(end + 2);
  }
  return s;
}

}  // namespace

Result<nlohmann::json> parse_json_text(std::string_view text, std::string_view what) {
  FLOE_TRY(check_json_depth(text, what));
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    return invalid_data("{} is not valid JSON: syntax error at byte {}", what, e.byte);
  } catch (const nlohmann::json::out_of_range& e) {
    // "number overflow parsing '1e309'": a number no double holds.
    return invalid_data("{} is not valid JSON: {}", what, without_prefix(e.what()));
  } catch (const nlohmann::json::exception& e) {
    return invalid_data("{} is not valid JSON: {}", what, without_prefix(e.what()));
  }
}

const char* json_kind(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::object:
      return "an object";
    case nlohmann::json::value_t::array:
      return "an array";
    case nlohmann::json::value_t::string:
      return "a string";
    case nlohmann::json::value_t::boolean:
      return "a boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
      return "an integer";
    case nlohmann::json::value_t::number_float:
      return "a number";
    default:
      return "a value";
  }
}

std::string json_for_message(const nlohmann::json& j) {
  if (j.is_array() || j.is_object() || j.is_binary() || j.is_discarded()) return json_kind(j);
  constexpr size_t kMaxString = 64;
  if (j.is_string() && j.get_ref<const std::string&>().size() > kMaxString) {
    nlohmann::json cut = j.get_ref<const std::string&>().substr(0, kMaxString);
    return cut.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "...";
  }
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<std::string> json_scalar_text(const nlohmann::json& j, std::string_view where) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_boolean() || j.is_number()) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return invalid_data("{} must be a string, got {}", where, json_kind(j));
}

}  // namespace floe
