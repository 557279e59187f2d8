// Property readers of include/floe/spec/table_properties.h.
#include "floe/spec/table_properties.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace floe::table_properties {

namespace {

const std::string* find(const Properties& props, std::string_view key) {
  auto it = props.find(std::string(key));
  return it == props.end() ? nullptr : &it->second;
}

}  // namespace

int64_t int_property(const Properties& props, std::string_view key, int64_t fallback) {
  const std::string* v = find(props, key);
  if (!v) return fallback;
  // As std::stoll: leading blanks and a leading '+' are accepted, trailing text is ignored.
  const char* b = v->data();
  const char* e = b + v->size();
  while (b < e && std::isspace(static_cast<unsigned char>(*b))) ++b;
  if (b < e && *b == '+') ++b;
  int64_t out = 0;
  auto r = std::from_chars(b, e, out);
  if (r.ec != std::errc()) return fallback;
  return out;
}

bool bool_property(const Properties& props, std::string_view key, bool fallback) {
  const std::string* v = find(props, key);
  if (!v) return fallback;
  std::string lower = *v;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower == "true";
}

std::string string_property(const Properties& props, std::string_view key,
                            std::string_view fallback) {
  const std::string* v = find(props, key);
  return v ? *v : std::string(fallback);
}

}  // namespace floe::table_properties
