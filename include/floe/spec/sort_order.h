// Sort orders (spec "Sorting"): fields with a transform over a source column, a direction and
// a null order. Order id 0 is reserved for the unsorted order.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "floe/spec/transform.h"

namespace floe {

enum class SortDirection : uint8_t { kAsc, kDesc };
enum class NullOrder : uint8_t { kNullsFirst, kNullsLast };

struct SortField {
  Transform transform;
  int32_t source_id = 0;
  std::vector<int32_t> source_ids;  // v3 multi-argument transforms only
  SortDirection direction = SortDirection::kAsc;
  NullOrder null_order = NullOrder::kNullsFirst;

  bool operator==(const SortField& other) const = default;
};

struct SortOrder {
  int32_t order_id = 0;
  std::vector<SortField> fields;

  bool is_unsorted() const { return fields.empty(); }
  bool operator==(const SortOrder& other) const = default;
};

using SortOrderPtr = std::shared_ptr<const SortOrder>;

const char* sort_direction_name(SortDirection d);  // "asc" / "desc"
const char* null_order_name(NullOrder n);          // "nulls-first" / "nulls-last"

}  // namespace floe
