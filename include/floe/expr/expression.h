// Filter expressions (Iceberg's expression API): true/false, and/or/not, and predicates over
// a term (a column, or a transform of a column). Unbound predicates name columns; binding to a
// schema resolves them to field ids and converts literals to the column's type.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/spec/literal.h"
#include "floe/spec/schema.h"
#include "floe/spec/transform.h"

namespace floe {

enum class Operation : uint8_t {
  kTrue,
  kFalse,
  kAnd,
  kOr,
  kNot,
  kIsNull,
  kNotNull,
  kIsNan,
  kNotNan,
  kLt,
  kLtEq,
  kGt,
  kGtEq,
  kEq,
  kNotEq,
  kIn,
  kNotIn,
  kStartsWith,
  kNotStartsWith,
};

const char* operation_name(Operation op);  // "<", "is_null", "starts_with", ...
// The operation that holds when `op` does not (NOT pushed into predicates).
Operation negate(Operation op);
// The operation with its operands swapped (5 < x  ==  x > 5).
Operation flip(Operation op);
bool is_unary(Operation op);   // is/not null, is/not NaN
bool is_set_op(Operation op);  // in, not in

// What a predicate tests: a column, optionally through a transform (`day(ts)`).
struct Term {
  std::string name;  // column name as written (unbound) or its full name (bound)
  int32_t field_id = 0;
  TypePtr type;         // the column's type when bound; the transform's result type if transformed
  TypePtr source_type;  // bound: the column's type (== type without a transform)
  std::optional<Transform> transform;

  bool bound() const { return type != nullptr; }
  std::string to_string() const;
};

class Expression;
using ExprPtr = std::shared_ptr<const Expression>;

class Expression {
 public:
  Operation op() const { return op_; }
  bool is_constant() const { return op_ == Operation::kTrue || op_ == Operation::kFalse; }
  bool is_predicate() const { return op_ > Operation::kNot; }

  // and / or: left and right; not: child.
  const ExprPtr& left() const { return left_; }
  const ExprPtr& right() const { return right_; }
  const ExprPtr& child() const { return left_; }

  // Predicates.
  const Term& term() const { return term_; }
  const std::vector<Literal>& literals() const { return literals_; }
  const Literal& literal() const { return literals_.front(); }
  bool is_bound() const;  // every predicate below is bound

  // Readable form: `(a < 5 AND b IS NULL)`, `day(ts) >= 2024-06-15`.
  std::string to_string() const;
  bool equals(const Expression& other) const;

  // Use the factory functions below.
  Expression(Operation op, ExprPtr left, ExprPtr right, Term term, std::vector<Literal> literals)
      : op_(op),
        left_(std::move(left)),
        right_(std::move(right)),
        term_(std::move(term)),
        literals_(std::move(literals)) {}

 private:
  Operation op_;
  ExprPtr left_, right_;
  Term term_;
  std::vector<Literal> literals_;
};

ExprPtr always_true();
ExprPtr always_false();
// Simplifying constructors: and(false, x) = false, and(true, x) = x, or(true, x) = true, ...
ExprPtr make_and(ExprPtr left, ExprPtr right);
ExprPtr make_or(ExprPtr left, ExprPtr right);
ExprPtr make_not(ExprPtr child);
// An unbound predicate on a column name. Set ops take several literals, unary ops none.
ExprPtr make_predicate(Operation op, std::string column, std::vector<Literal> literals = {});
ExprPtr make_predicate(Operation op, Term term, std::vector<Literal> literals = {});

// Binds column names to field ids of `schema` and converts literals to the column types
// (string -> date/time/timestamp/decimal/uuid, long -> int with range checks, ...). Predicates
// decided by the conversion (x < value above int max) become true/false. Errors name the
// column or literal at fault.
Result<ExprPtr> bind_expression(const ExprPtr& expr, const Schema& schema,
                                bool case_sensitive = true);

// Pushes NOT down to the predicates (NOT (a < 5) -> a >= 5); the result has no kNot.
ExprPtr rewrite_not(const ExprPtr& expr);

// Field ids referenced by an expression.
std::vector<int32_t> referenced_field_ids(const ExprPtr& expr);

// Converts a literal to a column type for binding. kAboveMax / kBelowMin report values out of
// the target's range (the predicate is then decided without data).
enum class Conversion { kOk, kAboveMax, kBelowMin };
Result<std::pair<Conversion, Literal>> convert_literal(const Literal& value, const TypePtr& target);

}  // namespace floe
