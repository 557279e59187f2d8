// Inclusive and strict projection through every transform (Iceberg spec, "Scan Planning" and
// "Partition Transforms"), and the residual evaluator.
#include "floe/expr/projection.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

#include "floe/spec/type_visitor.h"

namespace floe {

namespace {

enum class Mode { kInclusive, kStrict };

// The value one source step away: 1, 1 day, 1 micro (1 nano for _ns), one unscaled unit.
std::optional<Literal> step(const Literal& v, int delta) {
  const TypePtr& t = v.type();
  return visit_type(t->id(), [&](auto tag) -> std::optional<Literal> {
    using T = typename decltype(tag)::Value;
    if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
      int64_t x = v.as_int64();
      if ((delta > 0 && x == std::numeric_limits<T>::max()) ||
          (delta < 0 && x == std::numeric_limits<T>::min())) {
        return std::nullopt;
      }
      return Literal::of_int(t, x + delta);
    } else if constexpr (std::is_same_v<T, int128_t>) {
      return Literal::decimal(v.as_decimal() + delta, t->precision(), t->scale());
    } else {
      return std::nullopt;
    }
  });
}

size_t code_points(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

struct Target {
  Term term;  // bound to the partition field
  const PartitionField* field;
};

ExprPtr pred(Operation op, const Target& t, std::vector<Literal> lits = {}) {
  return make_predicate(op, t.term, std::move(lits));
}

// Java compensates for writers that rounded negative time ordinals toward zero.
bool needs_pre_epoch_fix(const Transform& t, const TypePtr& source) {
  if (!t.is_time()) return false;
  return !(t.kind() == Transform::Kind::kDay && source->id() == TypeId::kDate);
}

ExprPtr fix_inclusive_time(const Target& tgt, ExprPtr p) {
  if (!p->is_predicate()) return p;
  auto plus_one = [](const Literal& l) { return Literal::of_int(l.type(), l.as_int64() + 1); };
  switch (p->op()) {
    case Operation::kLt:
    case Operation::kLtEq:
      if (p->literal().as_int64() < 0) return pred(p->op(), tgt, {plus_one(p->literal())});
      return p;
    case Operation::kEq:
      if (p->literal().as_int64() < 0) {
        return pred(Operation::kIn, tgt, {p->literal(), plus_one(p->literal())});
      }
      return p;
    case Operation::kIn: {
      std::vector<Literal> lits = p->literals();
      for (const auto& l : p->literals()) {
        if (l.as_int64() < 0) {
          Literal next = plus_one(l);
          if (std::find(lits.begin(), lits.end(), next) == lits.end()) lits.push_back(next);
        }
      }
      return pred(Operation::kIn, tgt, std::move(lits));
    }
    default:
      return p;
  }
}

ExprPtr fix_strict_time(const Target& tgt, ExprPtr p) {
  if (!p->is_predicate()) return p;
  auto plus_one = [](const Literal& l) { return Literal::of_int(l.type(), l.as_int64() + 1); };
  switch (p->op()) {
    case Operation::kGt:
    case Operation::kGtEq:
      if (p->literal().as_int64() <= 0) return pred(p->op(), tgt, {plus_one(p->literal())});
      return p;
    case Operation::kNotEq:
      if (p->literal().as_int64() < 0) {
        return pred(Operation::kNotIn, tgt, {p->literal(), plus_one(p->literal())});
      }
      return p;
    case Operation::kNotIn: {
      std::vector<Literal> lits = p->literals();
      for (const auto& l : p->literals()) {
        if (l.as_int64() < 0) {
          Literal next = plus_one(l);
          if (std::find(lits.begin(), lits.end(), next) == lits.end()) lits.push_back(next);
        }
      }
      return pred(Operation::kNotIn, tgt, std::move(lits));
    }
    default:
      return p;
  }
}

Result<std::vector<Literal>> apply_all(const Transform& t, const std::vector<Literal>& lits) {
  std::vector<Literal> out;
  for (const auto& l : lits) {
    Literal r = FLOE_TRY(t.apply(l));
    if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(std::move(r));
  }
  return out;
}

// Projection of one predicate through one partition field; nullptr = "none".
Result<ExprPtr> project_one(const Expression& p, const Target& tgt, Mode mode) {
  const Transform& t = tgt.field->transform;
  const Operation op = p.op();
  const bool inclusive = mode == Mode::kInclusive;

  // A predicate already on this field's transform carries over unchanged.
  if (p.term().transform) {
    if (*p.term().transform == t) return make_predicate(op, tgt.term, p.literals());
    return ExprPtr();
  }
  if (t.is_void() || t.is_unknown() || !tgt.field->source_ids.empty()) return ExprPtr();
  if (t.is_identity()) return make_predicate(op, tgt.term, p.literals());
  if (op == Operation::kIsNull || op == Operation::kNotNull) return pred(op, tgt);
  if (op == Operation::kIsNan || op == Operation::kNotNan) return ExprPtr();

  const TypePtr& source = p.term().type;
  if (t.kind() == Transform::Kind::kBucket) {
    if (inclusive && (op == Operation::kEq || op == Operation::kIn)) {
      return pred(op, tgt, FLOE_TRY(apply_all(t, p.literals())));
    }
    if (!inclusive && (op == Operation::kNotEq || op == Operation::kNotIn)) {
      return pred(op, tgt, FLOE_TRY(apply_all(t, p.literals())));
    }
    return ExprPtr();
  }

  const bool text = source->id() == TypeId::kString || source->id() == TypeId::kBinary;
  if (t.kind() == Transform::Kind::kTruncate && text) {
    const bool is_string = source->id() == TypeId::kString;
    if (op == Operation::kStartsWith || op == Operation::kNotStartsWith) {
      if (!is_string) return ExprPtr();
      const std::string& prefix = p.literal().as_bytes();
      size_t len = code_points(prefix);
      size_t width = static_cast<size_t>(t.param());
      bool starts = op == Operation::kStartsWith;
      if (len < width) return pred(op, tgt, {p.literal()});
      if (len == width) {
        return pred(starts ? Operation::kEq : Operation::kNotEq, tgt, {p.literal()});
      }
      Literal cut = FLOE_TRY(t.apply(p.literal()));
      if (starts && inclusive) return pred(op, tgt, {cut});
      if (!starts && !inclusive) return pred(op, tgt, {cut});
      return ExprPtr();
    }
    switch (op) {
      case Operation::kLt:
      case Operation::kLtEq:
        return pred(inclusive ? Operation::kLtEq : Operation::kLt, tgt,
                    {FLOE_TRY(t.apply(p.literal()))});
      case Operation::kGt:
      case Operation::kGtEq:
        return pred(inclusive ? Operation::kGtEq : Operation::kGt, tgt,
                    {FLOE_TRY(t.apply(p.literal()))});
      case Operation::kEq:
      case Operation::kIn:
        if (!inclusive) return ExprPtr();
        return pred(op, tgt, FLOE_TRY(apply_all(t, p.literals())));
      case Operation::kNotEq:
      case Operation::kNotIn:
        if (inclusive) return ExprPtr();
        return pred(op, tgt, FLOE_TRY(apply_all(t, p.literals())));
      default:
        return ExprPtr();
    }
  }

  // Order-preserving numeric/time transforms: truncate on int/long/decimal, year/month/day/hour.
  if (op == Operation::kStartsWith || op == Operation::kNotStartsWith) return ExprPtr();
  ExprPtr out;
  auto at = [&](int delta) -> Result<std::optional<Literal>> {
    std::optional<Literal> v =
        delta == 0 ? std::optional<Literal>(p.literal()) : step(p.literal(), delta);
    if (!v) return std::optional<Literal>();
    return std::optional<Literal>(FLOE_TRY(t.apply(*v)));
  };
  auto with = [&](Operation result_op, int delta) -> Result<ExprPtr> {
    auto v = FLOE_TRY(at(delta));
    if (!v) return ExprPtr();
    return pred(result_op, tgt, {*v});
  };
  if (inclusive) {
    switch (op) {
      case Operation::kLt:
        out = FLOE_TRY(with(Operation::kLtEq, -1));
        break;
      case Operation::kLtEq:
        out = FLOE_TRY(with(Operation::kLtEq, 0));
        break;
      case Operation::kGt:
        out = FLOE_TRY(with(Operation::kGtEq, +1));
        break;
      case Operation::kGtEq:
        out = FLOE_TRY(with(Operation::kGtEq, 0));
        break;
      case Operation::kEq:
      case Operation::kIn:
        out = pred(op, tgt, FLOE_TRY(apply_all(t, p.literals())));
        break;
      default:
        return ExprPtr();
    }
    if (out && needs_pre_epoch_fix(t, source)) out = fix_inclusive_time(tgt, out);
    return out;
  }
  switch (op) {
    case Operation::kLt:
      out = FLOE_TRY(with(Operation::kLt, 0));
      break;
    case Operation::kLtEq:
      out = FLOE_TRY(with(Operation::kLt, +1));
      break;
    case Operation::kGt:
      out = FLOE_TRY(with(Operation::kGt, 0));
      break;
    case Operation::kGtEq:
      out = FLOE_TRY(with(Operation::kGt, -1));
      break;
    case Operation::kNotEq:
    case Operation::kNotIn:
      out = pred(op, tgt, FLOE_TRY(apply_all(t, p.literals())));
      break;
    default:
      return ExprPtr();
  }
  if (out && needs_pre_epoch_fix(t, source)) out = fix_strict_time(tgt, out);
  return out;
}

Result<std::vector<Target>> targets_for(const Expression& p, const PartitionSpec& spec,
                                        const Schema& schema) {
  std::vector<Target> out;
  for (const auto& f : spec.fields()) {
    if (f.source_id != p.term().field_id) continue;
    Target t;
    t.field = &f;
    t.term.name = f.name;
    t.term.field_id = f.field_id;
    const NestedField* src = schema.find_field(f.source_id);
    if (src == nullptr) continue;
    auto rt = f.transform.result_type(src->type);
    if (!rt.ok()) continue;
    t.term.type = *rt;
    t.term.source_type = *rt;
    out.push_back(std::move(t));
  }
  return out;
}

Result<ExprPtr> project(const ExprPtr& e, const PartitionSpec& spec, const Schema& schema,
                        Mode mode) {
  switch (e->op()) {
    case Operation::kTrue:
    case Operation::kFalse:
      return e;
    case Operation::kAnd:
      return make_and(FLOE_TRY(project(e->left(), spec, schema, mode)),
                      FLOE_TRY(project(e->right(), spec, schema, mode)));
    case Operation::kOr:
      return make_or(FLOE_TRY(project(e->left(), spec, schema, mode)),
                     FLOE_TRY(project(e->right(), spec, schema, mode)));
    case Operation::kNot:
      return invalid_argument("internal: projection needs NOT rewritten first");
    default: {
      if (!e->term().bound()) {
        return invalid_argument("cannot project unbound predicate {}", e->to_string());
      }
      std::vector<Target> targets = FLOE_TRY(targets_for(*e, spec, schema));
      ExprPtr result = mode == Mode::kInclusive ? always_true() : always_false();
      for (const auto& t : targets) {
        ExprPtr p = FLOE_TRY(project_one(*e, t, mode));
        if (!p) continue;
        result = mode == Mode::kInclusive ? make_and(result, p) : make_or(result, p);
      }
      return result;
    }
  }
}

}  // namespace

Result<ExprPtr> project_inclusive(const ExprPtr& bound, const PartitionSpec& spec,
                                  const Schema& schema) {
  return project(rewrite_not(bound), spec, schema, Mode::kInclusive);
}

Result<ExprPtr> project_strict(const ExprPtr& bound, const PartitionSpec& spec,
                               const Schema& schema) {
  return project(rewrite_not(bound), spec, schema, Mode::kStrict);
}

// ---------------------------------------------------------------------------------------------
// Evaluation

namespace {

bool is_nan(const Literal& v) {
  if (!v.type()) return false;
  if (v.type()->id() == TypeId::kFloat) return std::isnan(v.as_float());
  if (v.type()->id() == TypeId::kDouble) return std::isnan(v.as_double());
  return false;
}

bool starts_with(const Literal& v, const Literal& prefix) {
  const std::string& s = v.as_bytes();
  const std::string& p = prefix.as_bytes();
  return s.size() >= p.size() && s.compare(0, p.size(), p) == 0;
}

}  // namespace

bool evaluate_predicate(Operation op, const Literal* value, const std::vector<Literal>& literals) {
  const bool null = value == nullptr || value->is_null();
  switch (op) {
    case Operation::kIsNull:
      return null;
    case Operation::kNotNull:
      return !null;
    case Operation::kIsNan:
      return !null && is_nan(*value);
    case Operation::kNotNan:
      return null || !is_nan(*value);
    default:
      break;
  }
  if (null) return false;
  switch (op) {
    case Operation::kLt:
      return !is_nan(*value) && value->compare(literals[0]) < 0;
    case Operation::kLtEq:
      return !is_nan(*value) && value->compare(literals[0]) <= 0;
    case Operation::kGt:
      return !is_nan(*value) && value->compare(literals[0]) > 0;
    case Operation::kGtEq:
      return !is_nan(*value) && value->compare(literals[0]) >= 0;
    case Operation::kEq:
      return value->compare(literals[0]) == 0 && !is_nan(*value);
    case Operation::kNotEq:
      return is_nan(*value) || value->compare(literals[0]) != 0;
    case Operation::kIn:
      return std::any_of(literals.begin(), literals.end(),
                         [&](const Literal& l) { return value->compare(l) == 0; }) &&
             !is_nan(*value);
    case Operation::kNotIn:
      return is_nan(*value) ||
             std::none_of(literals.begin(), literals.end(),
                          [&](const Literal& l) { return value->compare(l) == 0; });
    case Operation::kStartsWith:
      return starts_with(*value, literals[0]);
    case Operation::kNotStartsWith:
      return !starts_with(*value, literals[0]);
    default:
      return false;
  }
}

namespace {

// NOT is evaluated by negating the predicates below it (De Morgan), exactly as rewrite_not()
// would: a comparison with null stays false under NOT, matching SQL's three-valued filter.
bool evaluate_with(const ExprPtr& e, const FieldLookup& lookup, bool negated) {
  switch (e->op()) {
    case Operation::kTrue:
      return !negated;
    case Operation::kFalse:
      return negated;
    case Operation::kAnd:
      return negated ? (evaluate_with(e->left(), lookup, true) ||
                        evaluate_with(e->right(), lookup, true))
                     : (evaluate_with(e->left(), lookup, false) &&
                        evaluate_with(e->right(), lookup, false));
    case Operation::kOr:
      return negated ? (evaluate_with(e->left(), lookup, true) &&
                        evaluate_with(e->right(), lookup, true))
                     : (evaluate_with(e->left(), lookup, false) ||
                        evaluate_with(e->right(), lookup, false));
    case Operation::kNot:
      return evaluate_with(e->child(), lookup, !negated);
    default: {
      Operation op = negated ? negate(e->op()) : e->op();
      const Literal* v = lookup(e->term().field_id);
      if (e->term().transform && v && !v->is_null()) {
        auto r = e->term().transform->apply(*v);
        if (!r.ok()) return true;  // cannot decide: keep (conservative)
        return evaluate_predicate(op, &*r, e->literals());
      }
      return evaluate_predicate(op, v, e->literals());
    }
  }
}

}  // namespace

bool evaluate(const ExprPtr& e, const FieldLookup& lookup) {
  return evaluate_with(e, lookup, false);
}

// ---------------------------------------------------------------------------------------------
// Residuals

Result<ResidualEvaluator> ResidualEvaluator::make(const ExprPtr& bound, const PartitionSpec& spec,
                                                  const Schema& schema) {
  ResidualEvaluator r;
  r.expr_ = rewrite_not(bound);
  r.spec_ = std::make_shared<const PartitionSpec>(spec);
  // Precompute the per-field projections of every predicate once; residual_for() then only
  // evaluates them against each partition tuple.
  std::vector<const Expression*> stack{r.expr_.get()};
  while (!stack.empty()) {
    const Expression* e = stack.back();
    stack.pop_back();
    if (e->op() == Operation::kAnd || e->op() == Operation::kOr) {
      stack.push_back(e->left().get());
      stack.push_back(e->right().get());
      continue;
    }
    if (!e->is_predicate()) continue;
    PredicateProjection pp{e, {}, {}};
    std::vector<Target> targets = FLOE_TRY(targets_for(*e, *r.spec_, schema));
    for (const auto& t : targets) {
      pp.strict.push_back(FLOE_TRY(project_one(*e, t, Mode::kStrict)));
      pp.inclusive.push_back(FLOE_TRY(project_one(*e, t, Mode::kInclusive)));
    }
    r.projections_.push_back(std::move(pp));
  }
  return r;
}

ExprPtr ResidualEvaluator::residual(const ExprPtr& e, const FieldLookup& lookup) const {
  switch (e->op()) {
    case Operation::kTrue:
    case Operation::kFalse:
      return e;
    case Operation::kAnd:
      return make_and(residual(e->left(), lookup), residual(e->right(), lookup));
    case Operation::kOr:
      return make_or(residual(e->left(), lookup), residual(e->right(), lookup));
    default:
      break;
  }
  for (const auto& pp : projections_) {
    if (pp.predicate != e.get()) continue;
    for (size_t i = 0; i < pp.strict.size(); ++i) {
      if (pp.strict[i] && evaluate(pp.strict[i], lookup)) return always_true();
      if (pp.inclusive[i] && !evaluate(pp.inclusive[i], lookup)) return always_false();
    }
    break;
  }
  return e;
}

ExprPtr ResidualEvaluator::residual_for(const std::vector<Literal>& partition) const {
  const auto& fields = spec_->fields();
  FieldLookup lookup = [&](int32_t field_id) -> const Literal* {
    for (size_t i = 0; i < fields.size() && i < partition.size(); ++i) {
      if (fields[i].field_id == field_id) return &partition[i];
    }
    return nullptr;
  };
  return residual(expr_, lookup);
}

}  // namespace floe
