// The evaluators scan planning runs over manifest metadata (Iceberg spec, Scan Planning):
// - ManifestEvaluator: can any row of a manifest match, from its partition field summaries?
// - InclusiveMetricsEvaluator: can any row of a file match, from its partition value and
//   column metrics (bounds, value/null/NaN counts)?
// - StrictMetricsEvaluator: do all rows of a file match (whole-file deletes, residuals)?
// All are conservative: missing or unusable metadata means "might match" (inclusive) and
// "might not match" (strict).
#pragma once

#include "floe/expr/projection.h"
#include "floe/manifest/manifest.h"

namespace floe {

class ManifestEvaluator {
 public:
  // `row_filter` is bound to `schema`; it is projected inclusively onto `spec`, the spec of the
  // manifests this evaluator will see.
  static Result<ManifestEvaluator> make(const ExprPtr& row_filter, const PartitionSpec& spec,
                                        const Schema& schema);
  bool might_match(const ManifestFile& manifest) const;
  const ExprPtr& partition_filter() const { return partition_filter_; }

 private:
  ExprPtr partition_filter_;
  std::vector<int32_t> field_ids_;  // partition field id by spec position
  std::vector<TypePtr> types_;      // partition field result type by spec position
};

class InclusiveMetricsEvaluator {
 public:
  // `row_filter` bound to the table schema.
  explicit InclusiveMetricsEvaluator(ExprPtr row_filter);
  bool might_match(const DataFile& file) const;

 private:
  ExprPtr expr_;
};

class StrictMetricsEvaluator {
 public:
  explicit StrictMetricsEvaluator(ExprPtr row_filter);
  bool must_match(const DataFile& file) const;

 private:
  ExprPtr expr_;
};

// Java skips range pruning for IN lists longer than this.
constexpr size_t kInPredicateLimit = 200;

}  // namespace floe
