// Rows in a table sort order (floe/write/sort_rows.h): one key per sort field, computed
// column-wise (the partition writer's transform keys), then a stable sort of row indices.
#include "floe/write/sort_rows.h"

#include <algorithm>
#include <numeric>

#include "floe/columnar/compare.h"
#include "floe/columnar/kernels.h"
#include "write/partition_keys_internal.h"

namespace floe {

namespace {

using internal::KeyColumn;
using internal::SourceColumn;

// One sort field's per-row key, in one of three shapes: the source column itself (identity),
// the transform's integers or bytes (fast paths), or its results as literals (any other
// transform and type).
struct SortColumn {
  SourceColumn source;
  bool identity = false;
  KeyColumn keys;
  std::vector<Literal> literals;
  bool ascending = true;
  bool nulls_first = true;

  bool valid(int64_t i) const { return identity ? source.valid(i) : keys.valid[i] != 0; }

  // a and b are both valid.
  int compare(int64_t a, int64_t b) const {
    if (identity) return compare_values(*source.col, a, *source.col, b);
    if (!literals.empty()) return literals[a].compare(literals[b]);
    if (keys.bytes) {
      int c = keys.views[a].compare(keys.views[b]);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    return keys.ints[a] < keys.ints[b] ? -1 : (keys.ints[a] > keys.ints[b] ? 1 : 0);
  }
};

Status fill(const SortField& f, int64_t n, SortColumn* c) {
  if (f.transform.kind() == Transform::Kind::kIdentity) {
    c->identity = true;
    return Status::OK();
  }
  KeyColumn& k = c->keys;
  k.valid.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) k.valid[i] = c->source.valid(i);
  if (internal::fast_keys(f.transform, c->source, n, &k)) return Status::OK();
  // The slow path's bytes do not order: keep the results themselves.
  c->literals.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    if (!k.valid[i]) continue;
    c->literals[i] = FLOE_TRY(f.transform.apply(c->source.col->literal_at(i)));
    if (c->literals[i].is_null()) k.valid[i] = 0;
  }
  return Status::OK();
}

}  // namespace

Result<std::vector<int32_t>> sort_permutation(const SortOrder& order, const Schema& schema,
                                              const ColumnBatch& batch) {
  const int64_t n = batch.num_rows;
  std::vector<SortColumn> columns(order.fields.size());
  for (size_t i = 0; i < order.fields.size(); ++i) {
    const SortField& f = order.fields[i];
    if (!f.source_ids.empty() || f.transform.is_unknown()) {
      return not_supported("sort field {} cannot be written by floe", f.transform.to_string());
    }
    SortColumn& c = columns[i];
    c.source = FLOE_TRY(internal::resolve_source(schema, batch, f.source_id));
    c.ascending = f.direction == SortDirection::kAsc;
    c.nulls_first = f.null_order == NullOrder::kNullsFirst;
    FLOE_TRY(fill(f, n, &c));
  }
  std::vector<int32_t> rows(static_cast<size_t>(n));
  std::iota(rows.begin(), rows.end(), 0);
  std::stable_sort(rows.begin(), rows.end(), [&](int32_t a, int32_t b) {
    for (const SortColumn& c : columns) {
      const bool av = c.valid(a), bv = c.valid(b);
      if (!av || !bv) {
        if (av == bv) continue;
        return !av == c.nulls_first;  // the null goes first exactly when nulls come first
      }
      const int r = c.compare(a, b);
      if (r != 0) return c.ascending ? r < 0 : r > 0;
    }
    return false;
  });
  return rows;
}

Result<ColumnBatch> sort_rows(const SortOrder& order, const Schema& schema,
                              const ColumnBatch& batch) {
  return gather(batch, FLOE_TRY(sort_permutation(order, schema, batch)));
}

}  // namespace floe
