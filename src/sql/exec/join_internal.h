// Hash join (and the nested-loop cross / non-equi join) over column batches.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/util/result.h"
#include "sql/exec/relational_internal.h"

namespace floe::sql {

enum class JoinType { kInner, kLeftOuter, kRightOuter, kFullOuter, kLeftSemi, kLeftAnti, kCross };

const char* join_type_name(JoinType type);

// A residual (non-equi) condition over candidate pairs: a batch of left columns then right
// columns, one row per pair; returns one byte per pair (non-zero = the pair matches; NULL
// results must be 0).
using JoinResidual = std::function<Result<std::vector<uint8_t>>(const ColumnBatch&)>;

struct JoinOptions {
  JoinType type = JoinType::kInner;
  // Equality keys by column index; left_keys[k] pairs with right_keys[k]. Both sides must have
  // the same type (the planner casts first). No keys: every pair is a candidate (cross join, or
  // a nested-loop join with a residual for every join type).
  std::vector<int> left_keys;
  std::vector<int> right_keys;
  // Per key: true for `<=>` (NULL matches NULL). Empty = all false. Otherwise NULL keys never
  // match.
  std::vector<bool> null_safe;
  JoinResidual residual;  // optional
  // Guard on candidate pairs produced by one probe() call without equality keys.
  int64_t max_cross_rows = int64_t{1} << 28;
};

// Hash join with the right input as the build side. Feed the right input with add_build(),
// call finish_build(), then probe() every left batch; the output is the left columns then the
// right columns (semi / anti: left columns only), the side that may be NULL padded made
// optional. Rows come out in left order, matches of one left row in build order. After the
// last probe, finish() returns the unmatched build rows (left side NULL) for right / full
// outer joins, nullopt otherwise.
class HashJoin {
 public:
  static Result<std::unique_ptr<HashJoin>> make(std::vector<NestedField> left_fields,
                                                std::vector<NestedField> right_fields,
                                                JoinOptions options);
  ~HashJoin();

  Status add_build(const ColumnBatch& right);
  Status finish_build();
  Result<ColumnBatch> probe(const ColumnBatch& left);
  Result<std::optional<ColumnBatch>> finish();

  const std::vector<NestedField>& output_fields() const { return output_fields_; }
  int64_t build_rows() const { return build_.num_rows; }

 private:
  HashJoin() = default;
  Status collect_candidates(const ColumnBatch& left, std::vector<int32_t>* lidx,
                            std::vector<int32_t>* ridx);

  std::vector<NestedField> left_fields_;
  std::vector<NestedField> right_fields_;
  std::vector<NestedField> output_fields_;
  JoinOptions options_;
  std::vector<ColumnBatch> pending_;
  ColumnBatch build_;
  std::unique_ptr<GroupTable> table_;
  std::vector<int32_t> first_;  // per key id: first build row, chained by next_
  std::vector<int32_t> next_;
  std::vector<uint8_t> matched_;  // per build row (right / full outer)
  bool built_ = false;
  bool finished_ = false;
};

}  // namespace floe::sql
