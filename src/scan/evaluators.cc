#include "floe/scan/evaluators.h"

#include <cmath>

#include "floe/util/strings.h"

namespace floe {

namespace {

bool is_floating(const TypePtr& t) {
  return t && (t->id() == TypeId::kFloat || t->id() == TypeId::kDouble);
}

bool is_nan_literal(const Literal& v) {
  if (v.is_null() || !v.type()) return false;
  if (v.type()->id() == TypeId::kFloat) return std::isnan(v.as_float());
  if (v.type()->id() == TypeId::kDouble) return std::isnan(v.as_double());
  return false;
}

// Walks and/or of a NOT-free expression; `leaf` decides predicates. `not_result` is what a
// stray NOT yields (projections and rewrite_not never produce one).
template <typename Leaf>
bool eval_tree(const ExprPtr& e, const Leaf& leaf, bool not_result) {
  switch (e->op()) {
    case Operation::kTrue:
      return true;
    case Operation::kFalse:
      return false;
    case Operation::kAnd:
      return eval_tree(e->left(), leaf, not_result) && eval_tree(e->right(), leaf, not_result);
    case Operation::kOr:
      return eval_tree(e->left(), leaf, not_result) || eval_tree(e->right(), leaf, not_result);
    case Operation::kNot:
      return not_result;
    default:
      return leaf(*e);
  }
}

// Java compares uuid bounds as two signed longs, so bounds written by Java are not in byte
// order: never prune ranges on them.
bool orderable_bounds(const TypePtr& t) { return t->id() != TypeId::kUuid; }

// Bytes compared as unsigned, after cutting `bound` to the prefix length.
int compare_prefix(const std::string& bound, const std::string& prefix) {
  std::string_view b(bound);
  b = b.substr(0, std::min(b.size(), prefix.size()));
  int c = b.compare(std::string_view(prefix));
  // std::string_view::compare uses char_traits<char>, which compares as unsigned char.
  return c;
}

// Range checks shared by manifest summaries and file bounds. `lower`/`upper` may be absent.
// Returns false when no value within [lower, upper] can satisfy the predicate.
bool range_might_match(Operation op, const std::optional<Literal>& lower,
                       const std::optional<Literal>& upper, const std::vector<Literal>& lits) {
  switch (op) {
    case Operation::kLt:
      return !lower || lower->compare(lits[0]) < 0;
    case Operation::kLtEq:
      return !lower || lower->compare(lits[0]) <= 0;
    case Operation::kGt:
      return !upper || upper->compare(lits[0]) > 0;
    case Operation::kGtEq:
      return !upper || upper->compare(lits[0]) >= 0;
    case Operation::kEq:
      if (lower && lower->compare(lits[0]) > 0) return false;
      if (upper && upper->compare(lits[0]) < 0) return false;
      return true;
    case Operation::kIn: {
      if (lits.size() > kInPredicateLimit) return true;
      for (const auto& l : lits) {
        if (lower && lower->compare(l) > 0) continue;
        if (upper && upper->compare(l) < 0) continue;
        return true;
      }
      return false;
    }
    case Operation::kStartsWith: {
      const std::string& p = lits[0].as_bytes();
      if (lower && compare_prefix(lower->as_bytes(), p) > 0) return false;
      if (upper && compare_prefix(upper->as_bytes(), p) < 0) return false;
      return true;
    }
    default:
      return true;
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// ManifestEvaluator

Result<ManifestEvaluator> ManifestEvaluator::make(const ExprPtr& row_filter,
                                                  const PartitionSpec& spec, const Schema& schema) {
  ManifestEvaluator e;
  e.partition_filter_ = FLOE_TRY(project_inclusive(row_filter, spec, schema));
  for (const auto& f : spec.fields()) {
    e.field_ids_.push_back(f.field_id);
    const NestedField* src = schema.find_field(f.source_id);
    TypePtr t;
    if (src) {
      auto rt = f.transform.result_type(src->type);
      if (rt.ok()) t = *rt;
    }
    e.types_.push_back(t);
  }
  return e;
}

namespace {

struct SummaryContext {
  const std::vector<PartitionFieldSummary>& summaries;
  const std::vector<int32_t>& field_ids;
  const std::vector<TypePtr>& types;
};

bool summary_might_match(const Expression& p, const SummaryContext& ctx) {
  size_t pos = 0;
  while (pos < ctx.field_ids.size() && ctx.field_ids[pos] != p.term().field_id) ++pos;
  if (pos >= ctx.field_ids.size() || pos >= ctx.summaries.size() || !ctx.types[pos]) return true;
  const PartitionFieldSummary& s = ctx.summaries[pos];
  const TypePtr& type = ctx.types[pos];
  const bool floating = is_floating(type);
  auto all_null = [&] {
    return s.contains_null && !s.lower_bound && (!floating || s.contains_nan == false);
  };
  switch (p.op()) {
    case Operation::kIsNull:
      return s.contains_null;
    case Operation::kNotNull:
      return !all_null();
    case Operation::kIsNan:
      if (s.contains_nan == false) return false;
      return !all_null();
    case Operation::kNotNan:
      // Only NaN values: NaN present, no nulls, no bounds.
      return !(s.contains_nan == true && !s.contains_null && !s.lower_bound);
    default:
      break;
  }
  std::optional<Literal> lower, upper;
  if (s.lower_bound) {
    auto l = Literal::from_bytes(type, *s.lower_bound);
    if (l.ok()) lower = std::move(*l);
  }
  if (s.upper_bound) {
    auto u = Literal::from_bytes(type, *s.upper_bound);
    if (u.ok()) upper = std::move(*u);
  }
  switch (p.op()) {
    case Operation::kNotEq:
    case Operation::kNotIn: {
      // Prunes only a single-valued manifest whose value is excluded.
      if (s.contains_null || (floating && s.contains_nan != false)) return true;
      if (!lower || !upper || lower->compare(*upper) != 0) return true;
      for (const auto& l : p.literals()) {
        if (lower->compare(l) == 0) return false;
      }
      return true;
    }
    case Operation::kNotStartsWith: {
      if (s.contains_null || !lower || !upper) return true;
      const std::string& prefix = p.literal().as_bytes();
      return !(starts_with(lower->as_bytes(), prefix) && starts_with(upper->as_bytes(), prefix));
    }
    default:
      break;
  }
  // Range, equality, IN and prefix predicates need a non-null, non-NaN value; a missing lower
  // bound means every value is null or NaN.
  if (!s.lower_bound) return false;
  if (!orderable_bounds(type)) return true;
  return range_might_match(p.op(), lower, upper, p.literals());
}

}  // namespace

bool ManifestEvaluator::might_match(const ManifestFile& manifest) const {
  if (partition_filter_->op() == Operation::kTrue) return true;
  if (!manifest.partitions) return partition_filter_->op() != Operation::kFalse;
  SummaryContext ctx{*manifest.partitions, field_ids_, types_};
  return eval_tree(
      partition_filter_, [&](const Expression& p) { return summary_might_match(p, ctx); }, true);
}

// ---------------------------------------------------------------------------------------------
// Metrics evaluators

namespace {

struct FileStats {
  const DataFile& file;

  std::optional<int64_t> value_count(int32_t id) const { return get(file.value_counts, id); }
  std::optional<int64_t> null_count(int32_t id) const { return get(file.null_value_counts, id); }
  std::optional<int64_t> nan_count(int32_t id) const { return get(file.nan_value_counts, id); }

  bool may_contain_null(int32_t id) const {
    auto n = null_count(id);
    return !n || *n > 0;
  }
  bool only_nulls(int32_t id) const {
    auto v = value_count(id);
    auto n = null_count(id);
    return v && n && *v == *n;
  }
  bool may_contain_nan(int32_t id) const {
    auto n = nan_count(id);
    return !n || *n > 0;
  }
  bool only_nans(int32_t id) const {
    auto v = value_count(id);
    auto n = nan_count(id);
    return v && n && *v == *n;
  }
  static std::optional<int64_t> get(const ColumnMetrics<int64_t>& m, int32_t id) {
    const int64_t* v = find_metric(m, id);
    return v ? std::optional<int64_t>(*v) : std::nullopt;
  }
};

// Bounds of the predicate's term: the column's bounds, through an order-preserving transform if
// the term has one. A NaN bound (written by ORC) is unusable.
void term_bounds(const Expression& p, const DataFile& f, std::optional<Literal>* lower,
                 std::optional<Literal>* upper) {
  const Term& t = p.term();
  const TypePtr& source = t.source_type ? t.source_type : t.type;
  *lower = f.lower_bound(t.field_id, source);
  *upper = f.upper_bound(t.field_id, source);
  if (*lower && is_nan_literal(**lower)) lower->reset();
  if (*upper && is_nan_literal(**upper)) upper->reset();
  if (t.transform) {
    if (!t.transform->preserves_order()) {
      lower->reset();
      upper->reset();
      return;
    }
    if (*lower) {
      auto r = t.transform->apply(**lower);
      if (r.ok())
        *lower = std::move(*r);
      else
        lower->reset();
    }
    if (*upper) {
      auto r = t.transform->apply(**upper);
      if (r.ok())
        *upper = std::move(*r);
      else
        upper->reset();
    }
  }
  if (!orderable_bounds(t.type)) {
    lower->reset();
    upper->reset();
  }
}

bool file_might_match(const Expression& p, const DataFile& f) {
  FileStats st{f};
  const int32_t id = p.term().field_id;
  const bool floating = is_floating(p.term().type);
  switch (p.op()) {
    case Operation::kIsNull:
      return st.may_contain_null(id);
    case Operation::kNotNull:
      return !st.only_nulls(id);
    case Operation::kIsNan:
      if (st.only_nulls(id)) return false;
      return st.may_contain_nan(id);
    case Operation::kNotNan:
      return !st.only_nans(id);
    default:
      break;
  }
  // Comparisons are never true for null (SQL semantics); NaN only satisfies != and NOT IN.
  if (st.only_nulls(id)) return false;
  if (floating && st.only_nans(id)) {
    return p.op() == Operation::kNotEq || p.op() == Operation::kNotIn;
  }
  std::optional<Literal> lower, upper;
  term_bounds(p, f, &lower, &upper);
  switch (p.op()) {
    case Operation::kNotEq:
    case Operation::kNotIn: {
      // Single-valued files only.
      auto nulls = st.null_count(id);
      if (!nulls || *nulls > 0) return true;
      if (floating && st.may_contain_nan(id)) return true;
      if (!lower || !upper || lower->compare(*upper) != 0) return true;
      // A truncated string bound is not the value itself.
      for (const auto& l : p.literals()) {
        if (lower->compare(l) == 0) return false;
      }
      return true;
    }
    case Operation::kNotStartsWith: {
      if (st.may_contain_null(id) || !lower || !upper) return true;
      const std::string& prefix = p.literal().as_bytes();
      return !(starts_with(lower->as_bytes(), prefix) && starts_with(upper->as_bytes(), prefix));
    }
    default:
      return range_might_match(p.op(), lower, upper, p.literals());
  }
}

bool file_must_match(const Expression& p, const DataFile& f) {
  FileStats st{f};
  const int32_t id = p.term().field_id;
  const bool floating = is_floating(p.term().type);
  switch (p.op()) {
    case Operation::kIsNull:
      return st.only_nulls(id);
    case Operation::kNotNull: {
      auto n = st.null_count(id);
      return n && *n == 0;
    }
    case Operation::kIsNan:
      return st.only_nans(id);
    case Operation::kNotNan: {
      if (st.only_nulls(id)) return true;
      auto n = st.nan_count(id);
      return n && *n == 0;
    }
    default:
      break;
  }
  // Every other predicate is false for null (and, except != / NOT IN, for NaN) values.
  auto nulls = st.null_count(id);
  if (!nulls || *nulls > 0) return false;
  if (floating) {
    auto nans = st.nan_count(id);
    if (!nans || *nans > 0) return false;
  }
  if (p.term().transform) return false;
  std::optional<Literal> lower, upper;
  term_bounds(p, f, &lower, &upper);
  const auto& lits = p.literals();
  switch (p.op()) {
    case Operation::kLt:
      return upper && upper->compare(lits[0]) < 0;
    case Operation::kLtEq:
      return upper && upper->compare(lits[0]) <= 0;
    case Operation::kGt:
      return lower && lower->compare(lits[0]) > 0;
    case Operation::kGtEq:
      return lower && lower->compare(lits[0]) >= 0;
    case Operation::kEq:
      return lower && upper && lower->compare(lits[0]) == 0 && upper->compare(lits[0]) == 0;
    case Operation::kNotEq:
      return (lower && lower->compare(lits[0]) > 0) || (upper && upper->compare(lits[0]) < 0);
    case Operation::kIn:
      if (!lower || !upper || lower->compare(*upper) != 0) return false;
      for (const auto& l : lits) {
        if (lower->compare(l) == 0) return true;
      }
      return false;
    case Operation::kNotIn:
      if (!lower || !upper) return false;
      for (const auto& l : lits) {
        if (lower->compare(l) <= 0 && upper->compare(l) >= 0) return false;
      }
      return true;
    case Operation::kStartsWith: {
      if (!lower || !upper) return false;
      const std::string& prefix = lits[0].as_bytes();
      return starts_with(lower->as_bytes(), prefix) && starts_with(upper->as_bytes(), prefix);
    }
    case Operation::kNotStartsWith: {
      const std::string& prefix = lits[0].as_bytes();
      if (lower && compare_prefix(lower->as_bytes(), prefix) > 0) return true;
      if (upper && compare_prefix(upper->as_bytes(), prefix) < 0) return true;
      return false;
    }
    default:
      return false;
  }
}

}  // namespace

InclusiveMetricsEvaluator::InclusiveMetricsEvaluator(ExprPtr row_filter)
    : expr_(rewrite_not(row_filter)) {}

bool InclusiveMetricsEvaluator::might_match(const DataFile& file) const {
  if (file.record_count == 0) return false;
  if (file.record_count < 0) return true;  // imported Avro files have unknown counts
  return eval_tree(
      expr_, [&](const Expression& p) { return file_might_match(p, file); }, true);
}

StrictMetricsEvaluator::StrictMetricsEvaluator(ExprPtr row_filter)
    : expr_(rewrite_not(row_filter)) {}

bool StrictMetricsEvaluator::must_match(const DataFile& file) const {
  if (file.record_count <= 0) return true;
  return eval_tree(
      expr_, [&](const Expression& p) { return file_must_match(p, file); }, false);
}

}  // namespace floe
