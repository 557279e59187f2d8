#include "floe/expr/expression.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "floe/util/date_time_text.h"
#include "floe/util/decimal.h"

namespace floe {

// ---------------------------------------------------------------------------------------------
// Operations

const char* operation_name(Operation op) {
  switch (op) {
    case Operation::kTrue:
      return "true";
    case Operation::kFalse:
      return "false";
    case Operation::kAnd:
      return "and";
    case Operation::kOr:
      return "or";
    case Operation::kNot:
      return "not";
    case Operation::kIsNull:
      return "is_null";
    case Operation::kNotNull:
      return "not_null";
    case Operation::kIsNan:
      return "is_nan";
    case Operation::kNotNan:
      return "not_nan";
    case Operation::kLt:
      return "<";
    case Operation::kLtEq:
      return "<=";
    case Operation::kGt:
      return ">";
    case Operation::kGtEq:
      return ">=";
    case Operation::kEq:
      return "=";
    case Operation::kNotEq:
      return "!=";
    case Operation::kIn:
      return "in";
    case Operation::kNotIn:
      return "not_in";
    case Operation::kStartsWith:
      return "starts_with";
    case Operation::kNotStartsWith:
      return "not_starts_with";
  }
  return "?";
}

Operation negate(Operation op) {
  switch (op) {
    case Operation::kTrue:
      return Operation::kFalse;
    case Operation::kFalse:
      return Operation::kTrue;
    case Operation::kAnd:
      return Operation::kOr;
    case Operation::kOr:
      return Operation::kAnd;
    case Operation::kNot:
      return Operation::kNot;
    case Operation::kIsNull:
      return Operation::kNotNull;
    case Operation::kNotNull:
      return Operation::kIsNull;
    case Operation::kIsNan:
      return Operation::kNotNan;
    case Operation::kNotNan:
      return Operation::kIsNan;
    case Operation::kLt:
      return Operation::kGtEq;
    case Operation::kLtEq:
      return Operation::kGt;
    case Operation::kGt:
      return Operation::kLtEq;
    case Operation::kGtEq:
      return Operation::kLt;
    case Operation::kEq:
      return Operation::kNotEq;
    case Operation::kNotEq:
      return Operation::kEq;
    case Operation::kIn:
      return Operation::kNotIn;
    case Operation::kNotIn:
      return Operation::kIn;
    case Operation::kStartsWith:
      return Operation::kNotStartsWith;
    case Operation::kNotStartsWith:
      return Operation::kStartsWith;
  }
  return op;
}

Operation flip(Operation op) {
  switch (op) {
    case Operation::kLt:
      return Operation::kGt;
    case Operation::kLtEq:
      return Operation::kGtEq;
    case Operation::kGt:
      return Operation::kLt;
    case Operation::kGtEq:
      return Operation::kLtEq;
    default:
      return op;
  }
}

bool is_unary(Operation op) {
  return op == Operation::kIsNull || op == Operation::kNotNull || op == Operation::kIsNan ||
         op == Operation::kNotNan;
}

bool is_set_op(Operation op) { return op == Operation::kIn || op == Operation::kNotIn; }

// ---------------------------------------------------------------------------------------------
// Construction and printing

std::string Term::to_string() const {
  if (!transform) return name;
  std::string t = transform->to_string();
  auto bracket = t.find('[');
  if (bracket != std::string::npos) {
    return t.substr(0, bracket) + "(" + t.substr(bracket + 1, t.size() - bracket - 2) + ", " +
           name + ")";
  }
  return t + "(" + name + ")";
}

namespace {

std::string literal_text(const Literal& v) {
  if (v.is_null()) return "null";
  if (v.type() && v.type()->id() == TypeId::kString) {
    std::string out = "'";
    for (char c : v.as_bytes()) {
      if (c == '\'') out += '\'';
      out += c;
    }
    return out + "'";
  }
  return v.to_string();
}

}  // namespace

bool Expression::is_bound() const {
  switch (op_) {
    case Operation::kTrue:
    case Operation::kFalse:
      return true;
    case Operation::kAnd:
    case Operation::kOr:
      return left_->is_bound() && right_->is_bound();
    case Operation::kNot:
      return left_->is_bound();
    default:
      return term_.bound();
  }
}

std::string Expression::to_string() const {
  switch (op_) {
    case Operation::kTrue:
      return "true";
    case Operation::kFalse:
      return "false";
    case Operation::kAnd:
      return "(" + left_->to_string() + " AND " + right_->to_string() + ")";
    case Operation::kOr:
      return "(" + left_->to_string() + " OR " + right_->to_string() + ")";
    case Operation::kNot:
      return "NOT " + left_->to_string();
    case Operation::kIsNull:
      return term_.to_string() + " IS NULL";
    case Operation::kNotNull:
      return term_.to_string() + " IS NOT NULL";
    case Operation::kIsNan:
      return "isnan(" + term_.to_string() + ")";
    case Operation::kNotNan:
      return "NOT isnan(" + term_.to_string() + ")";
    case Operation::kIn:
    case Operation::kNotIn: {
      std::string out = term_.to_string() + (op_ == Operation::kIn ? " IN (" : " NOT IN (");
      for (size_t i = 0; i < literals_.size(); ++i) {
        out += (i ? ", " : "") + literal_text(literals_[i]);
      }
      return out + ")";
    }
    case Operation::kStartsWith:
    case Operation::kNotStartsWith: {
      std::string pattern = literal_text(literals_.front());
      pattern.insert(pattern.size() - 1, "%");
      return term_.to_string() + (op_ == Operation::kStartsWith ? " LIKE " : " NOT LIKE ") +
             pattern;
    }
    default:
      return term_.to_string() + " " + operation_name(op_) + " " + literal_text(literals_.front());
  }
}

bool Expression::equals(const Expression& o) const {
  if (op_ != o.op_) return false;
  switch (op_) {
    case Operation::kTrue:
    case Operation::kFalse:
      return true;
    case Operation::kAnd:
    case Operation::kOr:
      return left_->equals(*o.left_) && right_->equals(*o.right_);
    case Operation::kNot:
      return left_->equals(*o.left_);
    default:
      return term_.name == o.term_.name && term_.field_id == o.term_.field_id &&
             term_.transform == o.term_.transform && literals_ == o.literals_;
  }
}

ExprPtr always_true() {
  static const ExprPtr kTrue = std::make_shared<const Expression>(
      Operation::kTrue, nullptr, nullptr, Term{}, std::vector<Literal>{});
  return kTrue;
}

ExprPtr always_false() {
  static const ExprPtr kFalse = std::make_shared<const Expression>(
      Operation::kFalse, nullptr, nullptr, Term{}, std::vector<Literal>{});
  return kFalse;
}

ExprPtr make_and(ExprPtr left, ExprPtr right) {
  if (left->op() == Operation::kFalse || right->op() == Operation::kFalse) return always_false();
  if (left->op() == Operation::kTrue) return right;
  if (right->op() == Operation::kTrue) return left;
  return std::make_shared<const Expression>(Operation::kAnd, std::move(left), std::move(right),
                                            Term{}, std::vector<Literal>{});
}

ExprPtr make_or(ExprPtr left, ExprPtr right) {
  if (left->op() == Operation::kTrue || right->op() == Operation::kTrue) return always_true();
  if (left->op() == Operation::kFalse) return right;
  if (right->op() == Operation::kFalse) return left;
  return std::make_shared<const Expression>(Operation::kOr, std::move(left), std::move(right),
                                            Term{}, std::vector<Literal>{});
}

ExprPtr make_not(ExprPtr child) {
  if (child->op() == Operation::kTrue) return always_false();
  if (child->op() == Operation::kFalse) return always_true();
  if (child->op() == Operation::kNot) return child->child();
  return std::make_shared<const Expression>(Operation::kNot, std::move(child), nullptr, Term{},
                                            std::vector<Literal>{});
}

ExprPtr make_predicate(Operation op, Term term, std::vector<Literal> literals) {
  return std::make_shared<const Expression>(op, nullptr, nullptr, std::move(term),
                                            std::move(literals));
}

ExprPtr make_predicate(Operation op, std::string column, std::vector<Literal> literals) {
  Term t;
  t.name = std::move(column);
  return make_predicate(op, std::move(t), std::move(literals));
}

ExprPtr rewrite_not(const ExprPtr& e) {
  switch (e->op()) {
    case Operation::kAnd:
      return make_and(rewrite_not(e->left()), rewrite_not(e->right()));
    case Operation::kOr:
      return make_or(rewrite_not(e->left()), rewrite_not(e->right()));
    case Operation::kNot: {
      const ExprPtr& c = e->child();
      switch (c->op()) {
        case Operation::kTrue:
          return always_false();
        case Operation::kFalse:
          return always_true();
        case Operation::kNot:
          return rewrite_not(c->child());
        case Operation::kAnd:
          return make_or(rewrite_not(make_not(c->left())), rewrite_not(make_not(c->right())));
        case Operation::kOr:
          return make_and(rewrite_not(make_not(c->left())), rewrite_not(make_not(c->right())));
        default:
          return make_predicate(negate(c->op()), c->term(), c->literals());
      }
    }
    default:
      return e;
  }
}

namespace {
void collect_ids(const ExprPtr& e, std::set<int32_t>* out) {
  switch (e->op()) {
    case Operation::kTrue:
    case Operation::kFalse:
      return;
    case Operation::kAnd:
    case Operation::kOr:
      collect_ids(e->left(), out);
      collect_ids(e->right(), out);
      return;
    case Operation::kNot:
      collect_ids(e->child(), out);
      return;
    default:
      if (e->term().bound()) out->insert(e->term().field_id);
  }
}
}  // namespace

std::vector<int32_t> referenced_field_ids(const ExprPtr& expr) {
  std::set<int32_t> ids;
  collect_ids(expr, &ids);
  return {ids.begin(), ids.end()};
}

// ---------------------------------------------------------------------------------------------
// Literal conversion

namespace {

using Conv = std::pair<Conversion, Literal>;

Conv ok(Literal v) { return {Conversion::kOk, std::move(v)}; }
Conv above(const TypePtr& t) { return {Conversion::kAboveMax, Literal::null(t)}; }
Conv below(const TypePtr& t) { return {Conversion::kBelowMin, Literal::null(t)}; }

int128_t pow10(int n) {
  int128_t v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

// Decimal digits needed for |v|.
int digits_of(int128_t v) {
  if (v < 0) v = -v;
  int d = 1;
  while (v >= 10) {
    v /= 10;
    ++d;
  }
  return d;
}

Result<Conv> decimal_to_decimal(int128_t unscaled, int from_scale, const TypePtr& target) {
  int128_t v = unscaled;
  if (target->scale() >= from_scale) {
    v *= pow10(target->scale() - from_scale);
  } else {
    int128_t div = pow10(from_scale - target->scale());
    if (v % div != 0) {
      return invalid_argument("cannot convert {} to {} without losing digits",
                              format_decimal(unscaled, from_scale), target->to_string());
    }
    v /= div;
  }
  if (digits_of(v) > target->precision()) {
    return v > 0 ? above(target) : below(target);
  }
  return ok(Literal::decimal(v, target->precision(), target->scale()));
}

double decimal_to_double(int128_t unscaled, int scale) {
  return static_cast<double>(unscaled) / std::pow(10.0, scale);
}

Result<int64_t> timestamp_from_text(const std::string& s, bool tz) {
  auto ts = parse_timestamp(s, tz);
  if (ts.ok()) return ts;
  // A date alone means midnight, as Spark casts '2024-06-15' to a timestamp.
  auto d = parse_date(s);
  if (d.ok()) return static_cast<int64_t>(*d) * 86400000000LL;
  return ts.status();
}

}  // namespace

Result<std::pair<Conversion, Literal>> convert_literal(const Literal& value,
                                                       const TypePtr& target) {
  if (value.is_null()) return invalid_argument("cannot compare with NULL (use IS NULL)");
  const TypeId from = value.type()->id();
  const TypeId to = target->id();
  auto unsupported = [&]() -> Status {
    return invalid_argument("cannot convert {} literal {} to {}", value.type()->to_string(),
                            value.to_string(), target->to_string());
  };
  if (same_type(value.type(), target)) return ok(value);

  switch (from) {
    case TypeId::kInt:
    case TypeId::kLong: {
      int64_t v = value.as_int64();
      switch (to) {
        case TypeId::kInt:
          if (v > INT32_MAX) return above(target);
          if (v < INT32_MIN) return below(target);
          return ok(Literal::int32(static_cast<int32_t>(v)));
        case TypeId::kLong:
          return ok(Literal::int64(v));
        case TypeId::kFloat:
          return ok(Literal::float32(static_cast<float>(v)));
        case TypeId::kDouble:
          return ok(Literal::float64(static_cast<double>(v)));
        case TypeId::kDecimal:
          return decimal_to_decimal(v, 0, target);
        case TypeId::kDate:
          if (v > INT32_MAX) return above(target);
          if (v < INT32_MIN) return below(target);
          return ok(Literal::date(static_cast<int32_t>(v)));
        case TypeId::kTime:
        case TypeId::kTimestamp:
        case TypeId::kTimestampTz:
        case TypeId::kTimestampNs:
        case TypeId::kTimestampTzNs:
          return ok(Literal::of_int(target, v));
        default:
          return unsupported();
      }
    }
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double v = from == TypeId::kFloat ? value.as_float() : value.as_double();
      switch (to) {
        case TypeId::kFloat:
          if (v > std::numeric_limits<float>::max()) return above(target);
          if (v < -std::numeric_limits<float>::max()) return below(target);
          return ok(Literal::float32(static_cast<float>(v)));
        case TypeId::kDouble:
          return ok(Literal::float64(v));
        case TypeId::kDecimal: {
          if (std::isnan(v)) return unsupported();
          // Java: BigDecimal.valueOf(v).setScale(scale, HALF_UP).
          double scaled = std::round(v * std::pow(10.0, target->scale()));
          if (std::fabs(scaled) >= 1e38) return scaled > 0 ? above(target) : below(target);
          return decimal_to_decimal(static_cast<int128_t>(scaled), target->scale(), target);
        }
        default:
          return unsupported();
      }
    }
    case TypeId::kDecimal: {
      switch (to) {
        case TypeId::kDecimal:
          return decimal_to_decimal(value.as_decimal(), value.type()->scale(), target);
        case TypeId::kDouble:
          return ok(Literal::float64(decimal_to_double(value.as_decimal(), value.type()->scale())));
        case TypeId::kFloat:
          return ok(Literal::float32(
              static_cast<float>(decimal_to_double(value.as_decimal(), value.type()->scale()))));
        case TypeId::kInt:
        case TypeId::kLong: {
          int128_t div = pow10(value.type()->scale());
          if (value.as_decimal() % div != 0) return unsupported();
          int128_t v = value.as_decimal() / div;
          int128_t max = to == TypeId::kInt ? INT32_MAX : INT64_MAX;
          int128_t min = to == TypeId::kInt ? INT32_MIN : INT64_MIN;
          if (v > max) return above(target);
          if (v < min) return below(target);
          return ok(Literal::of_int(target, static_cast<int64_t>(v)));
        }
        default:
          return unsupported();
      }
    }
    case TypeId::kString: {
      const std::string& s = value.as_bytes();
      switch (to) {
        case TypeId::kDate: {
          auto d = parse_date(s);
          if (!d.ok()) return d.status().with_context("invalid date literal '" + s + "'");
          return ok(Literal::date(*d));
        }
        case TypeId::kTime: {
          auto t = parse_time(s);
          if (!t.ok()) return t.status().with_context("invalid time literal '" + s + "'");
          return ok(Literal::time(*t));
        }
        case TypeId::kTimestamp:
        case TypeId::kTimestampTz: {
          auto ts = timestamp_from_text(s, to == TypeId::kTimestampTz);
          if (!ts.ok()) return ts.status().with_context("invalid timestamp literal '" + s + "'");
          return ok(Literal::of_int(target, *ts));
        }
        case TypeId::kTimestampNs:
        case TypeId::kTimestampTzNs: {
          bool tz = to == TypeId::kTimestampTzNs;
          auto ts = parse_timestamp_ns(s, tz);
          if (!ts.ok()) {
            auto d = parse_date(s);
            if (!d.ok()) return ts.status().with_context("invalid timestamp literal '" + s + "'");
            return ok(Literal::of_int(target, static_cast<int64_t>(*d) * 86400000000000LL));
          }
          return ok(Literal::of_int(target, *ts));
        }
        case TypeId::kDecimal: {
          auto d = parse_decimal(s, target->scale());
          if (!d.ok()) return d.status().with_context("invalid decimal literal '" + s + "'");
          return decimal_to_decimal(*d, target->scale(), target);
        }
        case TypeId::kUuid: {
          auto u = Uuid::parse(s);
          if (!u.ok()) return u.status().with_context("invalid uuid literal '" + s + "'");
          return ok(Literal::uuid(*u));
        }
        default:
          return unsupported();
      }
    }
    case TypeId::kDate:
      switch (to) {
        case TypeId::kTimestamp:
        case TypeId::kTimestampTz:
          return ok(
              Literal::of_int(target, static_cast<int64_t>(value.as_int32()) * 86400000000LL));
        case TypeId::kTimestampNs:
        case TypeId::kTimestampTzNs:
          return ok(
              Literal::of_int(target, static_cast<int64_t>(value.as_int32()) * 86400000000000LL));
        default:
          return unsupported();
      }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      switch (to) {
        case TypeId::kTimestamp:
        case TypeId::kTimestampTz:
          return ok(Literal::of_int(target, value.as_int64()));
        case TypeId::kTimestampNs:
        case TypeId::kTimestampTzNs:
          return ok(Literal::of_int(target, value.as_int64() * 1000));
        case TypeId::kDate:
          return ok(Literal::date(day_from_micros(value.as_int64())));
        default:
          return unsupported();
      }
    case TypeId::kBinary:
    case TypeId::kFixed:
      if (to == TypeId::kBinary) return ok(Literal::binary(value.as_bytes()));
      if (to == TypeId::kFixed) {
        if (static_cast<int>(value.as_bytes().size()) != target->length()) return unsupported();
        return ok(Literal::fixed(value.as_bytes()));
      }
      return unsupported();
    default:
      return unsupported();
  }
}

// ---------------------------------------------------------------------------------------------
// Binding

namespace {

bool is_floating(TypeId id) { return id == TypeId::kFloat || id == TypeId::kDouble; }

Result<ExprPtr> bind_predicate(const Expression& p, const Schema& schema, bool case_sensitive) {
  const NestedField* field = schema.find_field(p.term().name, case_sensitive);
  if (field == nullptr) {
    return invalid_argument("cannot find column '{}' in the table schema", p.term().name);
  }
  if (!field->type->is_primitive()) {
    return invalid_argument("cannot filter on '{}': it is a {}, not a primitive column",
                            p.term().name, type_id_name(field->type->id()));
  }
  Term term;
  term.name = schema.find_column_name(field->id).value_or(field->name);
  term.field_id = field->id;
  term.source_type = field->type;
  term.type = field->type;
  if (p.term().transform) {
    const Transform& t = *p.term().transform;
    if (!t.can_transform(*field->type)) {
      return invalid_argument("transform {} cannot apply to column '{}' of type {}", t.to_string(),
                              term.name, field->type->to_string());
    }
    term.transform = t;
    term.type = FLOE_TRY(t.result_type(field->type));
  }
  const Operation op = p.op();
  const TypeId id = term.type->id();

  if (is_unary(op)) {
    if ((op == Operation::kIsNan || op == Operation::kNotNan) && !is_floating(id)) {
      return invalid_argument("isnan needs a float or double column, '{}' is {}", term.name,
                              term.type->to_string());
    }
    if (field->required && !term.transform) {
      if (op == Operation::kIsNull) return always_false();
      if (op == Operation::kNotNull) return always_true();
    }
    return make_predicate(op, std::move(term));
  }

  if (op == Operation::kStartsWith || op == Operation::kNotStartsWith) {
    if (id != TypeId::kString) {
      return invalid_argument("LIKE needs a string column, '{}' is {}", term.name,
                              term.type->to_string());
    }
  }

  std::vector<Literal> converted;
  std::vector<Conversion> outcomes;
  for (const Literal& v : p.literals()) {
    auto c = convert_literal(v, term.type);
    if (!c.ok()) return c.status().with_context("column '" + term.name + "'");
    if (c->first == Conversion::kOk && is_floating(id) &&
        (id == TypeId::kFloat ? std::isnan(c->second.as_float())
                              : std::isnan(c->second.as_double()))) {
      return invalid_argument("comparing '{}' with NaN is always false; use isnan()", term.name);
    }
    outcomes.push_back(c->first);
    converted.push_back(std::move(c->second));
  }

  if (is_set_op(op)) {
    std::vector<Literal> kept;
    for (size_t i = 0; i < converted.size(); ++i) {
      if (outcomes[i] != Conversion::kOk) continue;
      bool dup = std::any_of(kept.begin(), kept.end(),
                             [&](const Literal& k) { return k == converted[i]; });
      if (!dup) kept.push_back(converted[i]);
    }
    if (kept.empty()) return op == Operation::kIn ? always_false() : always_true();
    if (kept.size() == 1) {
      return make_predicate(op == Operation::kIn ? Operation::kEq : Operation::kNotEq,
                            std::move(term), std::move(kept));
    }
    return make_predicate(op, std::move(term), std::move(kept));
  }

  if (converted.size() != 1) {
    return invalid_argument("predicate {} on '{}' needs one value", operation_name(op), term.name);
  }
  Conversion c = outcomes.front();
  if (c != Conversion::kOk) {
    bool is_above = c == Conversion::kAboveMax;
    switch (op) {
      case Operation::kLt:
      case Operation::kLtEq:
        return is_above ? always_true() : always_false();
      case Operation::kGt:
      case Operation::kGtEq:
        return is_above ? always_false() : always_true();
      case Operation::kEq:
        return always_false();
      case Operation::kNotEq:
        return always_true();
      default:
        return invalid_argument("value out of range for column '{}'", term.name);
    }
  }
  return make_predicate(op, std::move(term), std::move(converted));
}

}  // namespace

Result<ExprPtr> bind_expression(const ExprPtr& e, const Schema& schema, bool case_sensitive) {
  switch (e->op()) {
    case Operation::kTrue:
    case Operation::kFalse:
      return e;
    case Operation::kAnd:
      return make_and(FLOE_TRY(bind_expression(e->left(), schema, case_sensitive)),
                      FLOE_TRY(bind_expression(e->right(), schema, case_sensitive)));
    case Operation::kOr:
      return make_or(FLOE_TRY(bind_expression(e->left(), schema, case_sensitive)),
                     FLOE_TRY(bind_expression(e->right(), schema, case_sensitive)));
    case Operation::kNot:
      return make_not(FLOE_TRY(bind_expression(e->child(), schema, case_sensitive)));
    default:
      if (e->term().bound()) return e;
      return bind_predicate(*e, schema, case_sensitive);
  }
}

}  // namespace floe
