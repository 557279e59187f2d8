// Relational kernels of the SQL executor over column batches: row hashing, equality and the
// Spark total order over columns of every Iceberg type; and GroupTable, the open-addressing
// hash table from key rows to dense ids that the hash aggregator, DISTINCT and the hash join
// share (gather / concat / slice are floe/columnar/kernels.h). The kernels never evaluate
// expressions: the planner projects expressions into columns first and passes column indices.
//
// Value semantics (Spark): NULL equals NULL for grouping and DISTINCT (joins drop NULL keys
// unless the key is null-safe); NaN equals NaN and sorts above every other number; -0.0 equals
// 0.0; strings and binary compare by bytes; structs and lists compare element-wise, then by
// length; maps compare entry-wise (keys then values) in stored order.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/columnar/compare.h"
#include "floe/columnar/kernels.h"
#include "floe/util/result.h"

namespace floe::sql {

// ---------------------------------------------------------------------------------------------
// Hashing and comparison

// Hash of every row 0..n of `columns` (combined left to right) into out[0..n). Equal rows in
// the grouping sense (see above) hash alike. Vectorised per column.
void hash_rows(const std::vector<const ColumnVector*>& columns, int64_t n, uint64_t* out);
void hash_rows(const std::vector<ColumnPtr>& columns, int64_t n, uint64_t* out);
// Mixes the hashes of rows [0, n) of one column into out[] (out must hold the running hash).
void hash_column_into(const ColumnVector& col, int64_t n, uint64_t* out);

// Grouping equality of a[i] and b[j] (same types): NULL = NULL, NaN = NaN, -0.0 = 0.0.
bool values_equal(const ColumnVector& a, int64_t i, const ColumnVector& b, int64_t j);
bool rows_equal(const std::vector<const ColumnVector*>& a, int64_t i,
                const std::vector<const ColumnVector*>& b, int64_t j);
bool rows_equal(const std::vector<ColumnPtr>& a, int64_t i, const std::vector<ColumnPtr>& b,
                int64_t j);

// The total order (compare_values, SortKey, compare_rows) is floe/columnar/compare.h.

// ---------------------------------------------------------------------------------------------
// GroupTable

// Maps distinct key rows to dense ids 0, 1, 2, ... in first-seen order, keeping one copy of
// each distinct key (key_columns()). Open addressing with linear probing over stored hashes;
// the key equality is the grouping one (NULL = NULL). With no key columns every row maps to
// id 0. Used by HashAggregator (groups), DISTINCT, distinct aggregates and HashJoin (build).
class GroupTable {
 public:
  explicit GroupTable(std::vector<TypePtr> key_types);

  // Ids of rows 0..n of `keys` (one column per key type), inserting new keys. `hashes` may be
  // null (computed here). New ids are those >= num_groups() before the call; the row that
  // created each new id is appended to *new_rows when not null.
  void find_or_insert(const std::vector<const ColumnVector*>& keys, int64_t n,
                      const uint64_t* hashes, int32_t* ids, std::vector<int32_t>* new_rows);
  // Ids of rows 0..n without inserting: -1 where the key is absent.
  void find(const std::vector<const ColumnVector*>& keys, int64_t n, const uint64_t* hashes,
            int32_t* ids) const;

  int64_t num_groups() const { return num_groups_; }
  const std::vector<ColumnPtr>& key_columns() const { return key_columns_; }
  // Moves the stored keys out (the table is unusable afterwards).
  std::vector<ColumnPtr> take_key_columns() { return std::move(key_columns_); }

 private:
  void grow();
  int32_t probe(const std::vector<const ColumnVector*>& keys, int64_t row, uint64_t h,
                const int32_t* pending, int64_t base) const;

  std::vector<TypePtr> key_types_;
  std::vector<ColumnPtr> key_columns_;
  std::vector<const ColumnVector*> stored_;
  std::vector<uint64_t> group_hashes_;
  std::vector<uint64_t> slots_;  // hash tag << 32 | group id; all ones = empty
  std::vector<int32_t> pending_;
  uint64_t mask_ = 0;
  int64_t num_groups_ = 0;
  // Fast path: every key integer-like (boolean, int, long, date, time, timestamps) with its
  // width; empty otherwise.
  std::vector<int> fixed_widths_;
};

}  // namespace floe::sql

#include "sql/exec/aggregate_internal.h"  // IWYU pragma: export
#include "sql/exec/join_internal.h"       // IWYU pragma: export
#include "sql/exec/sort_internal.h"       // IWYU pragma: export
