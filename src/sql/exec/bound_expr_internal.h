// Bound scalar expressions of the SQL layer and their vectorised evaluator.
//
// The binder turns parsed SQL expressions into BoundExpr trees by calling the factories below;
// each factory type-checks its arguments, inserts the implicit casts Spark would insert (string
// to number/date in comparisons, int to long/decimal/double in arithmetic, NULL to anything)
// and returns an error naming the operator or function at fault. A bound tree is immutable and
// can be shared and evaluated from several threads at once.
//
// evaluate() works a whole ColumnBatch at a time: every node evaluates its children into
// columns, then runs one tight loop per physical type (no per-row virtual calls or
// allocations). Literals stay one-row scalars that kernels broadcast. Semantics follow Spark
// SQL's default (non-ANSI) mode: invalid casts and division by zero give NULL, integer
// overflow wraps, NaN equals NaN and sorts above every other value, strings compare by bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/spec/literal.h"
#include "floe/spec/type.h"
#include "floe/util/result.h"

namespace floe::sql {

struct BoundExpr;
using BoundExprPtr = std::shared_ptr<const BoundExpr>;
struct FunctionDef;  // internal: a resolved function or operator

enum class ExprKind : uint8_t {
  kColumn,     // column_index into the input batch's columns
  kLiteral,    // value (an untyped NULL has type unknown)
  kCall,       // function or operator: name, function, args
  kCast,       // args[0] cast to type; try_cast marks TRY_CAST
  kCase,       // args = when1, then1, ..., whenN, thenN, else (a NULL literal when absent)
  kAnd,        // args[0] AND args[1], three-valued
  kOr,         // args[0] OR args[1], three-valued
  kNot,        // NOT args[0]
  kIsNull,     // args[0] IS [NOT] NULL (negated)
  kInList,     // args[0] [NOT] IN (args[1..])
  kLike,       // args[0] [NOT] LIKE/ILIKE/RLIKE args[1]
  kSubscript,  // args[0][args[1]]: map lookup or 0-based list index
  kField,      // args[0].field(column_index): struct field by position
};

enum class LikeKind : uint8_t { kLike, kILike, kRLike };

// One node of a bound expression. Build with the factories; fields are read-only afterwards.
struct BoundExpr {
  ExprKind kind = ExprKind::kLiteral;
  TypePtr type;                           // result type
  std::vector<BoundExprPtr> args;         // children (see ExprKind)
  int column_index = -1;                  // kColumn: batch column; kField: struct field position
  Literal value;                          // kLiteral
  std::string name;                       // kCall: canonical lower-case name ("+", "substr", ...)
  const FunctionDef* function = nullptr;  // kCall
  bool negated = false;                   // IS NOT NULL, NOT IN, NOT LIKE
  bool try_cast = false;                  // kCast
  bool has_else = false;                  // kCase: an ELSE was written (for to_string)
  LikeKind like_kind = LikeKind::kLike;
  char escape = '\\';  // kLike
  int32_t months = 0;  // kCall "interval_add"
  int32_t days = 0;
  int64_t micros = 0;
  ColumnPtr scalar;                   // kLiteral: the value as a one-row column
  std::shared_ptr<const void> state;  // compiled pattern or other per-node constant

  bool is_literal() const { return kind == ExprKind::kLiteral; }
  bool is_null_literal() const { return kind == ExprKind::kLiteral && value.is_null(); }
};

// ----- factories ------------------------------------------------------------------------------

// A column of the input batch (index into ColumnBatch::columns) of the given type.
Result<BoundExprPtr> column(int index, TypePtr type);
// A literal; Literal::null(Type::unknown()) is SQL's untyped NULL.
Result<BoundExprPtr> literal(Literal value);
// An operator or function by name, case-insensitively (a "system." prefix is ignored):
//   arithmetic  + - * / % div negate (unary -) pos (unary +); int / int is double, div is long
//   comparison  = == != <> < <= > >= <=> (null-safe); and or not (same as and_/or_/not_)
//   string      || concat concat_ws lower/lcase upper/ucase length/char_length/character_length
//               octet_length substr/substring left right trim/btrim/ltrim/rtrim (str[, chars])
//               replace starts_with/startswith ends_with/endswith contains lpad rpad instr
//               substring_index (str, delim, count)
//               locate/position (substr, str[, pos]) reverse repeat initcap ascii chr split
//               regexp_replace regexp_extract regexp_like/regexp
//   math        abs ceil/ceiling floor round bround (x[, constant scale]) sqrt cbrt pow/power
//               exp ln log (x or base, x) log10 log2 mod pmod sign/signum greatest least pi e
//               sin cos tan asin acos atan atan2 degrees radians
//   nulls       coalesce nullif ifnull nvl nvl2 if/iff isnull isnotnull nanvl
//   date/time   year month day/dayofmonth hour minute second dayofweek (1 = Sunday) weekday
//               dayofyear weekofyear quarter last_day date_trunc(unit, ts) trunc(date, unit)
//               to_date/to_timestamp (str[, Java pattern]) date_add date_sub datediff
//               add_months months_between current_date current_timestamp/now (fixed when
//               bound) unix_timestamp from_unixtime date_format make_date
//   collections size/cardinality (-1 for NULL) array_contains map_keys map_values element_at
//               (1-based on lists, -1 the last element, NULL out of range, 0 an error)
//   other       rand/random randn ([integer seed]; see sql/functions/random.cc) typeof (Spark's
//               type name, fixed when bound)
//   Iceberg     bucket(N, x) truncate(W, x) years months days hours: the partition transforms'
//               values (floe/spec/transform.h)
// Errors: "function foo(string, int) does not exist", "wrong number of arguments for substr:
// expected 2 to 3, got 1", "cannot compare map<...> with int", ...
Result<BoundExprPtr> call(std::string_view name, std::vector<BoundExprPtr> args);
// CAST(expr AS type) / TRY_CAST. CAST is non-ANSI: an unparsable string or an overflowing
// decimal gives NULL, an overflowing integer wraps. TRY_CAST follows Spark's ANSI cast and
// gives NULL wherever that one fails (overflow, "1.9" as int). Casts that can never work (int
// to map) are errors.
Result<BoundExprPtr> cast(BoundExprPtr expr, TypePtr type, bool try_cast = false);
// CASE [operand] WHEN w THEN t ... [ELSE e] END. With an operand, each WHEN is compared with
// `operand = w`. An absent operand is std::nullopt or a null pointer.
Result<BoundExprPtr> case_when(std::optional<BoundExprPtr> operand, std::vector<BoundExprPtr> whens,
                               std::vector<BoundExprPtr> thens,
                               std::optional<BoundExprPtr> else_expr = std::nullopt);
Result<BoundExprPtr> and_(BoundExprPtr left, BoundExprPtr right);
Result<BoundExprPtr> or_(BoundExprPtr left, BoundExprPtr right);
Result<BoundExprPtr> not_(BoundExprPtr operand);
Result<BoundExprPtr> is_null(BoundExprPtr operand, bool negated = false);
// x [NOT] IN (list): NULL when nothing matches and x or an item is NULL.
Result<BoundExprPtr> in_list(BoundExprPtr operand, std::vector<BoundExprPtr> list,
                             bool negated = false);
// x BETWEEN lo AND hi, as x >= lo AND x <= hi.
Result<BoundExprPtr> between(BoundExprPtr operand, BoundExprPtr low, BoundExprPtr high,
                             bool negated = false);
// LIKE / ILIKE with '%', '_' and an escape character; RLIKE: a regular expression that may
// match anywhere in the string (Java's find()).
Result<BoundExprPtr> like(BoundExprPtr operand, BoundExprPtr pattern, bool negated = false,
                          LikeKind kind = LikeKind::kLike, char escape = '\\');
// map[key] (NULL when absent) or list[index] (0-based like Spark's arr[0]; NULL out of range).
Result<BoundExprPtr> subscript(BoundExprPtr base, BoundExprPtr key);
// struct.field by position, or by name (case-insensitive).
Result<BoundExprPtr> field(BoundExprPtr base, int index);
Result<BoundExprPtr> field(BoundExprPtr base, std::string_view name);
// expr +/- INTERVAL: months, then days, then micros. A date stays a date when micros is 0.
Result<BoundExprPtr> interval_add(BoundExprPtr expr, int32_t months, int32_t days, int64_t micros,
                                  bool subtract = false);

// Spark's wider common type, for UNION, CASE, COALESCE, IN and join keys: numbers widen
// (int < long < decimal < double; int/long with float give float, decimal with float gives
// double), date < timestamp < timestamptz, string with any primitive but binary gives string,
// unknown (NULL) with X gives X, lists widen their elements; other nested types must be equal.
Result<TypePtr> common_type(const TypePtr& a, const TypePtr& b);
// Decimal result types of Spark's arithmetic (precision capped at 38 with scale reduction).
TypePtr decimal_add_type(const Type& a, const Type& b);
TypePtr decimal_multiply_type(const Type& a, const Type& b);
TypePtr decimal_divide_type(const Type& a, const Type& b);

// True when `name` (case-insensitive, optional "system." prefix) is a scalar function or
// operator call() knows.
bool is_scalar_function(std::string_view name);

// ----- tree helpers ---------------------------------------------------------------------------

// Indices of the batch columns the expression reads, sorted, without duplicates.
std::vector<int> referenced_columns(const BoundExpr& expr);
// A copy reading column new_index[i] wherever the expression read column i (for projection
// pruning or pushing a filter through a projection). An index outside the mapping or mapped to
// a negative value is an error.
Result<BoundExprPtr> remap_columns(const BoundExprPtr& expr, const std::vector<int>& new_index);
// False when the value can differ between evaluations of the same row (rand, randn; the clock
// functions are fixed when bound).
bool is_deterministic(const BoundExpr& expr);

// ----- evaluation -----------------------------------------------------------------------------

// The expression's values for every row of `input` (a column of input.num_rows rows). A column
// reference returns the input's column itself: treat results as read-only.
Result<ColumnPtr> evaluate(const BoundExpr& expr, const ColumnBatch& input);
// A boolean expression as a row mask: keep[i] = 1 only where the value is TRUE (not NULL).
Status evaluate_predicate(const BoundExpr& expr, const ColumnBatch& input,
                          std::vector<uint8_t>* keep);
// Evaluates an expression without column references (LIMIT, constant folding) to a Literal.
Result<Literal> evaluate_constant(const BoundExpr& expr);

// SQL text for EXPLAIN, naming columns by column_names[index] (or #index).
std::string to_string(const BoundExpr& expr, const std::vector<std::string>& column_names = {});

}  // namespace floe::sql
