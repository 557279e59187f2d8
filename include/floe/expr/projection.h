// Projections of row filters onto partition specs, and residuals (spec "Scan Planning").
// Inclusive: a row matches the filter => its partition matches the projection (prunes
// manifests and files). Strict: a partition matches the projection => every row in it matches
// the filter (residuals, whole-file deletes). Projected predicates are bound to the spec's
// partition struct: term field ids are partition field ids.
#pragma once

#include <functional>
#include <vector>

#include "floe/expr/expression.h"
#include "floe/spec/partition_spec.h"

namespace floe {

// `bound` must be bound to `schema`. Predicates on columns without partition fields, or on
// transforms that cannot project the operation, project to true (inclusive) / false (strict).
Result<ExprPtr> project_inclusive(const ExprPtr& bound, const PartitionSpec& spec,
                                  const Schema& schema);
Result<ExprPtr> project_strict(const ExprPtr& bound, const PartitionSpec& spec,
                               const Schema& schema);

// Evaluates a bound expression against values looked up by field id. Semantics (floe's, and
// Iceberg's): a comparison with null or NaN is false, != and NOT IN are true for NaN, IS NULL /
// isnan test exactly; NOT negates the predicates below it (as rewrite_not does), so
// NOT (x < 5) is false for a null x, as in SQL.
using FieldLookup = std::function<const Literal*(int32_t field_id)>;
bool evaluate(const ExprPtr& bound, const FieldLookup& lookup);

// One bound predicate on one value (the building block of evaluate()).
bool evaluate_predicate(Operation op, const Literal* value, const std::vector<Literal>& literals);

// What a scan still has to check per row for files of one partition: predicates decided by
// the partition value become true/false; the rest remain.
class ResidualEvaluator {
 public:
  static Result<ResidualEvaluator> make(const ExprPtr& bound, const PartitionSpec& spec,
                                        const Schema& schema);
  // `partition` holds one value per spec field, in spec order.
  ExprPtr residual_for(const std::vector<Literal>& partition) const;
  const ExprPtr& filter() const { return expr_; }

 private:
  struct PredicateProjection {
    const Expression* predicate;
    std::vector<ExprPtr> strict;     // one per partition field on the predicate's source
    std::vector<ExprPtr> inclusive;  // same order
  };
  ExprPtr residual(const ExprPtr& e, const FieldLookup& lookup) const;

  ExprPtr expr_;
  std::shared_ptr<const PartitionSpec> spec_;
  std::vector<PredicateProjection> projections_;
};

}  // namespace floe
