// Private helpers for reading spec JSON with nlohmann::json: typed field access whose errors
// name the object path and field ("snapshots[2]: field 'timestamp-ms' must be an integer").
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "floe/spec/json_text.h"
#include "floe/util/result.h"

namespace floe::internal {

using json = nlohmann::json;

inline const char* kind_of(const json& j) { return json_kind(j); }

// A JSON object being read, with the path used in error messages.
class Obj {
 public:
  Obj(const json& j, std::string path) : j_(j), path_(std::move(path)) {}

  static Result<Obj> of(const json& j, std::string path) {
    if (!j.is_object()) {
      return invalid_data("{}: expected a JSON object, got {}", path, kind_of(j));
    }
    return Obj(j, std::move(path));
  }

  const std::string& path() const { return path_; }
  const json& raw() const { return j_; }
  bool has(const char* key) const {
    auto it = j_.find(key);
    return it != j_.end() && !it->is_null();
  }
  const json* get(const char* key) const {
    auto it = j_.find(key);
    return (it == j_.end() || it->is_null()) ? nullptr : &*it;
  }
  std::string where(const char* key) const {
    return path_.empty() ? fmt::format("field '{}'", key)
                         : fmt::format("{}: field '{}'", path_, key);
  }
  Status missing(const char* key) const {
    return invalid_data("{}: missing required field '{}'", path_.empty() ? "table metadata" : path_,
                        key);
  }
  Status wrong(const char* key, const char* expected) const {
    return invalid_data("{} must be {}, got {}", where(key), expected, kind_of(j_.at(key)));
  }

  Result<int64_t> i64(const char* key) const {
    const json* v = get(key);
    if (!v) return missing(key);
    return as_i64(*v, key);
  }
  Result<std::optional<int64_t>> opt_i64(const char* key) const {
    const json* v = get(key);
    if (!v) return std::optional<int64_t>();
    auto r = FLOE_TRY(as_i64(*v, key));
    return std::optional<int64_t>(r);
  }
  Result<int32_t> i32(const char* key) const {
    int64_t v = FLOE_TRY(i64(key));
    if (v < INT32_MIN || v > INT32_MAX) {
      return invalid_data("{} is out of the int range: {}", where(key), v);
    }
    return static_cast<int32_t>(v);
  }
  Result<std::optional<int32_t>> opt_i32(const char* key) const {
    if (!has(key)) return std::optional<int32_t>();
    auto v = FLOE_TRY(i32(key));
    return std::optional<int32_t>(v);
  }
  Result<std::string> str(const char* key) const {
    const json* v = get(key);
    if (!v) return missing(key);
    if (!v->is_string()) return wrong(key, "a string");
    return v->get<std::string>();
  }
  Result<std::optional<std::string>> opt_str(const char* key) const {
    if (!has(key)) return std::optional<std::string>();
    auto v = FLOE_TRY(str(key));
    return std::optional<std::string>(std::move(v));
  }
  Result<bool> boolean(const char* key) const {
    const json* v = get(key);
    if (!v) return missing(key);
    if (!v->is_boolean()) return wrong(key, "a boolean");
    return v->get<bool>();
  }
  Result<const json*> array(const char* key) const {
    const json* v = get(key);
    if (!v) return missing(key);
    if (!v->is_array()) return wrong(key, "an array");
    return v;
  }
  Result<const json*> opt_array(const char* key) const {
    const json* v = get(key);
    if (!v) return static_cast<const json*>(nullptr);
    if (!v->is_array()) return wrong(key, "an array");
    return v;
  }
  Result<Obj> object(const char* key) const {
    const json* v = get(key);
    if (!v) return missing(key);
    return Obj::of(*v, path_.empty() ? key : path_ + "." + key);
  }
  Result<std::map<std::string, std::string>> string_map(const char* key) const {
    std::map<std::string, std::string> out;
    const json* v = get(key);
    if (!v) return out;
    if (!v->is_object()) return wrong(key, "an object");
    for (auto it = v->begin(); it != v->end(); ++it) {
      // Numbers and booleans as their JSON text; null, arrays and objects are an error.
      out[it.key()] =
          FLOE_TRY(json_scalar_text(*it, fmt::format("{}: value of '{}'", where(key), it.key())));
    }
    return out;
  }
  Result<std::vector<int32_t>> int_list(const char* key) const {
    std::vector<int32_t> out;
    const json* v = get(key);
    if (!v) return out;
    if (!v->is_array()) return wrong(key, "an array");
    for (const auto& e : *v) {
      if (!e.is_number_integer()) {
        return invalid_data("{} must hold integers, got {}", where(key), kind_of(e));
      }
      int64_t x = e.get<int64_t>();
      if (x < INT32_MIN || x > INT32_MAX) {
        return invalid_data("{} holds an out-of-range int: {}", where(key), x);
      }
      out.push_back(static_cast<int32_t>(x));
    }
    return out;
  }

  // An integer as int64. Integers above INT64_MAX (some hand-written fixtures use unsigned
  // 64-bit snapshot ids) keep their bit pattern, as a 64-bit Avro long would.
  Result<int64_t> as_i64(const json& v, const char* key) const {
    if (v.is_number_unsigned()) return static_cast<int64_t>(v.get<uint64_t>());
    if (v.is_number_integer()) return v.get<int64_t>();
    return invalid_data("{} must be an integer, got {}", where(key), kind_of(v));
  }

 private:
  const json& j_;
  std::string path_;
};

}  // namespace floe::internal
