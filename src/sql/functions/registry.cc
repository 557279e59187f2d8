// The function registry: every scalar function of the SQL layer by its lower-case name (without
// `system.`), built once from the function libraries in this folder.
#include <string>
#include <unordered_map>
#include <vector>

#include "sql/functions/function_internal.h"

namespace floe::sql {

namespace internal {

const FunctionDef* find_function(std::string_view name) {
  static const auto* registry = [] {
    auto* defs = new std::vector<FunctionDef>();
    register_arith_functions(defs);
    register_string_functions(defs);
    register_datetime_functions(defs);
    register_collection_functions(defs);
    auto* map = new std::unordered_map<std::string, const FunctionDef*>();
    for (const auto& d : *defs) map->emplace(d.name, &d);
    return map;
  }();
  auto it = registry->find(std::string(name));
  return it == registry->end() ? nullptr : it->second;
}

}  // namespace internal

}  // namespace floe::sql
