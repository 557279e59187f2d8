// Hash aggregation (GROUP BY, global aggregates, SELECT DISTINCT) over column batches.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/util/result.h"
#include "sql/exec/relational_internal.h"

namespace floe::sql {

enum class AggregateKind {
  kCountStar,  // count(*), count(1)
  kCount,      // count(x): non-null values (count(DISTINCT x, y, ...) with extra_columns)
  kSum,
  kMin,
  kMax,
  kAvg,
  kFirst,    // any_value / first / first_value: the value of the group's first row (nulls too)
  kBoolAnd,  // bool_and / every
  kBoolOr,   // bool_or / any / some
};

const char* aggregate_kind_name(AggregateKind kind);

// One aggregate: kind, input column index (-1 for count(*)), DISTINCT, and for
// count(DISTINCT a, b, ...) the further columns (a row counts when every column is non-null).
struct AggregateSpec {
  AggregateKind kind = AggregateKind::kCountStar;
  int column = -1;
  bool distinct = false;
  std::vector<int> extra_columns;
  std::string name;  // output field name; empty: "count(x)" style from the input field

  AggregateSpec() = default;
  AggregateSpec(AggregateKind kind, int column = -1, bool distinct = false,
                std::vector<int> extra_columns = {}, std::string name = {})
      : kind(kind),
        column(column),
        distinct(distinct),
        extra_columns(std::move(extra_columns)),
        name(std::move(name)) {}
};

// Spark's result types: count -> long; sum(int/long) -> long; sum(float/double) -> double;
// sum(decimal(p,s)) -> decimal(min(38,p+10), s); avg(numeric) -> double;
// avg(decimal(p,s)) -> decimal(min(38,p+4), min(38,s+4)); min/max/first -> the argument type;
// bool_and/bool_or -> boolean. `arg` may be null for count(*).
Result<TypePtr> aggregate_result_type(AggregateKind kind, const TypePtr& arg);
// By (case-insensitive) function name: count, sum, min, max, avg/mean, any_value/first/
// first_value, bool_and/every, bool_or/any/some. DISTINCT is accepted for count, sum, avg
// (and min/max/any_value/bool_* where it makes no difference).
Result<AggregateKind> aggregate_kind_from_name(std::string_view name, bool distinct);
bool is_aggregate_function(std::string_view name);

// Hash aggregation. consume() hashes the key columns of a whole batch, maps rows to group ids
// through a GroupTable, then updates each aggregate's accumulator arrays in one typed loop over
// the batch by group id. finish() returns the key columns (in first-seen group order) then one
// column per aggregate. Without keys there is exactly one output row (count = 0, other
// aggregates NULL on empty input). DISTINCT aggregates first deduplicate (group, value) pairs
// in their own GroupTable and feed only first occurrences to the accumulator.
// SELECT DISTINCT is a HashAggregator with every column a key and no aggregates.
class HashAggregator {
 public:
  static Result<std::unique_ptr<HashAggregator>> make(std::vector<NestedField> input_fields,
                                                      std::vector<int> group_keys,
                                                      std::vector<AggregateSpec> aggregates);
  ~HashAggregator();

  Status consume(const ColumnBatch& batch);
  // Output fields: the key fields, then one optional field per aggregate.
  const std::vector<NestedField>& output_fields() const { return output_fields_; }
  int64_t num_groups() const;
  Result<ColumnBatch> finish();

  struct Accumulator;

 private:
  HashAggregator() = default;

  std::vector<NestedField> input_fields_;
  std::vector<int> group_keys_;
  std::vector<AggregateSpec> aggregates_;
  std::vector<NestedField> output_fields_;
  std::unique_ptr<GroupTable> groups_;
  std::vector<std::unique_ptr<Accumulator>> accumulators_;
  std::vector<int32_t> ids_;
  std::vector<uint64_t> hashes_;
  std::vector<int32_t> new_rows_;
  bool finished_ = false;
};

// SELECT DISTINCT over all columns of the batches, first occurrences in input order.
Result<ColumnBatch> distinct_rows(const std::vector<ColumnBatch>& batches);

}  // namespace floe::sql
