// The function registry: every scalar function of the SQL layer by its lower-case name (without
// `system.`), built once from the function libraries in this folder.
#include <string>
#include <unordered_map>
#include <vector>

#include "sql/functions/function_internal.h"

namespace floe::sql {

namespace internal {

namespace {

// Built once and never destroyed (functions may be looked up during static destruction); held
// by one static pointer, so leak checkers see it reachable.
struct Registry {
  std::vector<FunctionDef> defs;
  std::unordered_map<std::string, const FunctionDef*> by_name;  // into defs
};

}  // namespace

const FunctionDef* find_function(std::string_view name) {
  static const Registry* registry = [] {
    auto* r = new Registry();
    register_arith_functions(&r->defs);
    register_string_functions(&r->defs);
    register_datetime_functions(&r->defs);
    register_collection_functions(&r->defs);
    register_random_functions(&r->defs);
    for (const auto& d : r->defs) r->by_name.emplace(d.name, &d);
    return r;
  }();
  auto it = registry->by_name.find(std::string(name));
  return it == registry->by_name.end() ? nullptr : it->second;
}

}  // namespace internal

}  // namespace floe::sql
