// Private pieces shared by the expression binder, evaluator, casts and function libraries:
// datums (a column or a broadcast one-row scalar), typed readers and writers, the function
// registry, and decimal/date helpers.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/util/calendar.h"
#include "floe/util/strings.h"
#include "floe/util/utf8.h"
#include "sql/exec/bound_expr_internal.h"

namespace floe::sql {

// A node's value over a batch: a column of n rows, or a one-row column broadcast to every row.
struct Datum {
  ColumnPtr col;
  bool scalar = false;
};

// What a function implementation sees while binding: the (already coerced) arguments it may
// replace with casts, and the result type and constant state it decides.
struct BindCtx {
  std::string name;
  std::vector<BoundExprPtr> args;
  TypePtr type;
  std::shared_ptr<const void> state;
};

using BindFn = Status (*)(BindCtx& ctx);
using EvalFn = Result<Datum> (*)(const BoundExpr& expr, std::vector<Datum>& args, int64_t n);

struct FunctionDef {
  const char* name;
  int min_args;
  int max_args;  // -1: variadic
  BindFn bind;
  EvalFn eval;
  bool deterministic = true;
};

namespace internal {

using int128 = __int128;

// ----- physical types --------------------------------------------------------------------------

enum class Phys : uint8_t { kBool, kI32, kI64, kF32, kF64, kI128, kBytes, kNested, kNull };

inline Phys phys_of(TypeId id) {
  switch (id) {
    case TypeId::kBoolean:
      return Phys::kBool;
    case TypeId::kInt:
    case TypeId::kDate:
      return Phys::kI32;
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return Phys::kI64;
    case TypeId::kFloat:
      return Phys::kF32;
    case TypeId::kDouble:
      return Phys::kF64;
    case TypeId::kDecimal:
      return Phys::kI128;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kUuid:
    case TypeId::kFixed:
      return Phys::kBytes;
    case TypeId::kUnknown:
      return Phys::kNull;
    default:
      return Phys::kNested;
  }
}

inline bool is_integral(TypeId id) { return id == TypeId::kInt || id == TypeId::kLong; }
inline bool is_floating(TypeId id) { return id == TypeId::kFloat || id == TypeId::kDouble; }
inline bool is_numeric(TypeId id) {
  return is_integral(id) || is_floating(id) || id == TypeId::kDecimal;
}
inline bool is_timestamp(TypeId id) {
  return id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTimestampNs ||
         id == TypeId::kTimestampTzNs;
}
inline bool is_nanos(TypeId id) {
  return id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs;
}
inline bool is_datetime(TypeId id) { return id == TypeId::kDate || is_timestamp(id); }

// Calls f(T{}) with T the C++ value type of a fixed-width physical type.
template <typename F>
decltype(auto) visit_fixed(Phys p, F&& f) {
  switch (p) {
    case Phys::kBool:
      return f(uint8_t{});
    case Phys::kI32:
      return f(int32_t{});
    case Phys::kI64:
      return f(int64_t{});
    case Phys::kF32:
      return f(float{});
    case Phys::kF64:
      return f(double{});
    default:
      return f(int128{});
  }
}

// ----- readers: a column or a broadcast scalar, read without branching on which -------------

inline bool test_bit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }

template <typename T>
struct FixedReader {
  const T* data;
  const uint8_t* bits;
  int64_t step;
  explicit FixedReader(const Datum& d)
      : data(d.col->raw<T>()),
        bits(d.col->null_count() ? d.col->validity().data() : nullptr),
        step(d.scalar ? 0 : 1) {}
  T operator[](int64_t i) const { return data[i * step]; }
  bool valid(int64_t i) const { return bits == nullptr || test_bit(bits, i * step); }
};

struct BytesReader {
  const int32_t* offsets;
  const char* data;
  int64_t width;
  const uint8_t* bits;
  int64_t step;
  explicit BytesReader(const Datum& d)
      : offsets(d.col->value_width() ? nullptr : d.col->offsets().as<int32_t>()),
        data(d.col->value_width() ? reinterpret_cast<const char*>(d.col->values().data())
                                  : reinterpret_cast<const char*>(d.col->data().data())),
        width(d.col->value_width()),
        bits(d.col->null_count() ? d.col->validity().data() : nullptr),
        step(d.scalar ? 0 : 1) {}
  std::string_view operator[](int64_t i) const {
    int64_t j = i * step;
    if (width) return {data + j * width, static_cast<size_t>(width)};
    return {data + offsets[j], static_cast<size_t>(offsets[j + 1] - offsets[j])};
  }
  bool valid(int64_t i) const { return bits == nullptr || test_bit(bits, i * step); }
};

// Validity of row i of any datum.
inline bool datum_valid(const Datum& d, int64_t i) {
  return d.col->null_count() == 0 || test_bit(d.col->validity().data(), d.scalar ? 0 : i);
}

// ----- writers ---------------------------------------------------------------------------------

// A fixed-width output column of n rows with a per-row validity byte array.
template <typename T>
struct FixedWriter {
  ColumnPtr col;
  T* data;
  std::vector<uint8_t> valid;
  FixedWriter(const TypePtr& type, int64_t n) : col(ColumnVector::make(type)) {
    col->values().resize(static_cast<size_t>(n) * sizeof(T));
    data = col->mutable_raw<T>();
    valid.assign(static_cast<size_t>(n), 1);
  }
  ColumnPtr finish(int64_t n) {
    col->set_length(n);
    col->set_validity_from_bytes(valid.data(), n);
    return col;
  }
};

// Runs op(&out, reader[i]...) -> bool (false = NULL) over rows whose inputs are all valid.
template <typename R, typename Op, typename... Rd>
Datum kernel(const TypePtr& type, int64_t n, bool scalar, Op op, const Rd&... rd) {
  FixedWriter<R> w(type, n);
  for (int64_t i = 0; i < n; ++i) {
    R out{};
    bool v = (rd.valid(i) && ...);
    if (v) v = op(&out, rd[i]...);
    w.data[i] = out;
    w.valid[i] = v;
  }
  return {w.finish(n), scalar};
}

// As kernel() for string/binary results: op appends the value to a reused std::string.
template <typename Op, typename... Rd>
Datum str_kernel(const TypePtr& type, int64_t n, bool scalar, Op op, const Rd&... rd) {
  auto col = ColumnVector::make(type);
  std::string s;
  for (int64_t i = 0; i < n; ++i) {
    if ((rd.valid(i) && ...)) {
      s.clear();
      if (op(&s, rd[i]...)) {
        col->append_bytes(s);
        continue;
      }
    }
    col->append_null();
  }
  return {col, scalar};
}

// The largest string or binary value a function builds: a column addresses its bytes with 32-bit
// offsets, so one value stays well under 2 GB (Spark's own per-value limit).
inline constexpr int64_t kMaxStringBytes = int64_t{1} << 30;

// An error when `fn` would build a value of `bytes` bytes, over kMaxStringBytes.
inline Status check_string_size(int64_t bytes, const char* fn) {
  if (bytes <= kMaxStringBytes) return Status::OK();
  return invalid_argument(
      "{}: the result would be {} bytes, over the maximum of {} bytes for one "
      "string value",
      fn, bytes, kMaxStringBytes);
}

// ----- shared helpers ---------------------------------------------------------------------------

// A one-row column holding `value` (typed null included).
Result<ColumnPtr> scalar_column(const TypePtr& type, const Literal& value);
Datum null_scalar(const TypePtr& type);
// Number of rows a kernel computes: 1 when every argument is a scalar.
int64_t rows_for(const std::vector<Datum>& args, int64_t n);
bool all_scalar(const std::vector<Datum>& args);

// out[i] = sources[choice[i]] at row i (a scalar source at row 0); choice -1 gives NULL.
// Every source has the result type.
ColumnPtr select_rows(const TypePtr& type, const std::vector<Datum>& sources, const int32_t* choice,
                      int64_t n);
// Appends row i of src to dst (same type), any type.
void append_value(ColumnVector* dst, const ColumnVector& src, int64_t i);

// Evaluates a node over a batch.
Result<Datum> eval_datum(const BoundExpr& expr, const ColumnBatch& input);
// The state of `x IN (items)` when every item is a literal of `type`: a hash set the
// evaluator looks each row up in (null otherwise, or for types it does not hash).
std::shared_ptr<const void> build_in_set(const TypePtr& type,
                                         const std::vector<BoundExprPtr>& items);
// Materialises a datum as a column of n rows.
Result<ColumnPtr> to_column(const Datum& d, int64_t n);

// Implicit casts (folded when the argument is a literal).
Result<BoundExprPtr> coerce(const BoundExprPtr& expr, const TypePtr& type);
Result<BoundExprPtr> make_literal_expr(Literal value);
// Type of comparing a with b (string vs date compares as date, ...).
Result<TypePtr> comparison_type(const TypePtr& a, const TypePtr& b);
// Wider numeric type for arithmetic (int, long, decimal, double).
Result<TypePtr> numeric_wider(const TypePtr& a, const TypePtr& b);
// Decimal type that can hold every value of an integral type (int -> decimal(10,0)).
TypePtr decimal_for(const TypePtr& t);
bool can_cast(const Type& from, const Type& to);
bool can_implicit_cast(const Type& from, const Type& to);
std::string arg_types_text(const std::vector<BoundExprPtr>& args);

// Casts a datum (every row, n rows) to `to`.
Result<Datum> cast_datum(const Datum& in, const TypePtr& to, int64_t n);
// `out` = cast_datum(in, ...): the first row in [start, n) whose valid input Spark's ANSI cast
// refuses (an overflow, an unparsable string, a date or timestamp out of range, a fraction in
// a string cast to an integer), or -1. Store assignment errors on it; TRY_CAST makes it NULL.
int64_t first_refused(const Datum& in, const Datum& out, int64_t start, int64_t n);
// TRY_CAST: the cast with every refused row NULL (Spark's try_cast follows the ANSI cast).
Result<Datum> try_cast_datum(const Datum& in, const TypePtr& to, int64_t n);

// Function registry (name lower-case, without "system.").
const FunctionDef* find_function(std::string_view name);
void register_arith_functions(std::vector<FunctionDef>* defs);
void register_string_functions(std::vector<FunctionDef>* defs);
void register_datetime_functions(std::vector<FunctionDef>* defs);
void register_collection_functions(std::vector<FunctionDef>* defs);
void register_random_functions(std::vector<FunctionDef>* defs);

// ----- decimals -------------------------------------------------------------------------------

int128 pow10_128(int n);  // n in [0, 38]
int decimal_digits(int128 v);
// v * 10^(to - from), rounding HALF_UP when scaling down; false on overflow of 38 digits.
bool rescale_decimal(int128 v, int from_scale, int to_scale, int128* out);
bool fits_precision(int128 v, int precision);
// Division rounding HALF_UP (b != 0).
int128 div_half_up(int128 a, int128 b);
double decimal_to_double(int128 v, int scale);
// Double to decimal(p,s), HALF_UP on the shortest decimal representation; false if it does
// not fit (or NaN/inf).
bool double_to_decimal(double v, int precision, int scale, int128* out);

// ----- text --------------------------------------------------------------------------------

// Spark's text of a value for CAST(x AS STRING) and string concatenation.
void value_text(const ColumnVector& col, int64_t row, std::string* out);
void format_timestamp_text(int64_t micros, std::string* out);  // 2024-06-15 10:00:00[.123]
// Spark's lenient date / timestamp text ("2024-6-5", "2024-06-15 10:00", ISO with 'T' and
// offsets, "2024-06-15T10:00:00Z"); false if invalid.
bool parse_date_text(std::string_view s, int32_t* days);
bool parse_timestamp_text(std::string_view s, int64_t* micros);

// Calendar maths and time units are util/calendar.h's.
using floe::floor_div;
using floe::floor_mod;
using floe::kMicrosPerDay;
using floe::kMicrosPerSecond;

}  // namespace internal
}  // namespace floe::sql
