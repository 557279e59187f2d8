// Per-row keys of a transform over a source column, column-wise: the partition writer groups
// rows by them (partition_rows.cc) and the sort-order writer orders rows by them
// (sort_rows.cc). Integers or byte views on the fast paths; Transform::apply per row otherwise.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/spec/schema.h"
#include "floe/spec/transform.h"
#include "floe/util/result.h"

namespace floe::internal {

// The source column of a field (by id, nested in structs) and the combined validity of its
// struct ancestors.
struct SourceColumn {
  const ColumnVector* col = nullptr;
  const NestedField* field = nullptr;
  std::vector<uint8_t> parent_valid;  // empty: every parent present

  bool valid(int64_t i) const {
    return (parent_valid.empty() || parent_valid[i]) && col->is_valid(i);
  }
};

Result<SourceColumn> resolve_source(const Schema& schema, const ColumnBatch& batch, int32_t id);

// One transform's per-row key: an integer or a byte view, or null (valid[i] == 0). On the
// fast paths the integers and bytes order as the transform's results do, except for identity
// over float, double and decimal (bit patterns); the slow path's bytes are the single-value
// serialisation, which groups but does not order.
struct KeyColumn {
  bool bytes = false;
  std::vector<int64_t> ints;
  std::vector<std::string_view> views;
  std::vector<uint8_t> valid;
  std::deque<std::string> owned;  // slow-path values the views point into

  uint64_t hash(int64_t i) const {
    if (!valid[i]) return 0x51ed27;
    if (!bytes) return std::hash<int64_t>()(ints[i]) * 0x9E3779B97F4A7C15ull;
    return std::hash<std::string_view>()(views[i]);
  }
  bool equal(int64_t a, int64_t b) const {
    if (valid[a] != valid[b]) return false;
    if (!valid[a]) return true;
    return bytes ? views[a] == views[b] : ints[a] == ints[b];
  }
};

// Fills `k` (whose `valid` is set) on the fast paths; false when the type and transform need
// the slow path.
bool fast_keys(const Transform& t, const SourceColumn& s, int64_t n, KeyColumn* k);
// Any transform over any type: Transform::apply per row, keyed by the single-value bytes.
Status slow_keys(const Transform& t, const SourceColumn& s, int64_t n, KeyColumn* k);

}  // namespace floe::internal
