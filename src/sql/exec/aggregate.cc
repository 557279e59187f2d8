// HashAggregator: group ids from a GroupTable, then typed accumulator loops per aggregate.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "sql/exec/aggregate_internal.h"

namespace floe::sql {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_integral(TypeId id) { return id == TypeId::kInt || id == TypeId::kLong; }
bool is_floating(TypeId id) { return id == TypeId::kFloat || id == TypeId::kDouble; }

int128_t pow10(int n) {
  int128_t v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

bool fits_precision(int128_t v, int precision) {
  int128_t limit = pow10(precision);
  return v < limit && v > -limit;
}

// A fixed-width column of `type` from values and per-row presence flags.
template <typename T>
ColumnPtr fixed_column(const TypePtr& type, const std::vector<T>& values,
                       const std::vector<uint8_t>* has, int64_t n) {
  auto col = ColumnVector::make(type);
  col->values().resize(static_cast<size_t>(n) * sizeof(T));
  if (n) std::memcpy(col->values().data(), values.data(), static_cast<size_t>(n) * sizeof(T));
  col->set_length(n);
  if (has) col->set_validity_from_bytes(has->data(), n);
  return col;
}

}  // namespace

const char* aggregate_kind_name(AggregateKind kind) {
  switch (kind) {
    case AggregateKind::kCountStar:
    case AggregateKind::kCount:
      return "count";
    case AggregateKind::kSum:
      return "sum";
    case AggregateKind::kMin:
      return "min";
    case AggregateKind::kMax:
      return "max";
    case AggregateKind::kAvg:
      return "avg";
    case AggregateKind::kFirst:
      return "first";
    case AggregateKind::kBoolAnd:
      return "bool_and";
    case AggregateKind::kBoolOr:
      return "bool_or";
  }
  return "?";
}

Result<TypePtr> aggregate_result_type(AggregateKind kind, const TypePtr& arg) {
  if (kind == AggregateKind::kCountStar || kind == AggregateKind::kCount) return Type::int64();
  if (!arg) return invalid_argument("{} needs an argument", aggregate_kind_name(kind));
  TypeId id = arg->id();
  switch (kind) {
    case AggregateKind::kSum:
      if (is_integral(id)) return Type::int64();
      if (is_floating(id)) return Type::float64();
      if (id == TypeId::kDecimal) {
        return Type::decimal(std::min(38, arg->precision() + 10), arg->scale());
      }
      break;
    case AggregateKind::kAvg:
      if (is_integral(id) || is_floating(id)) return Type::float64();
      if (id == TypeId::kDecimal) {
        return Type::decimal(std::min(38, arg->precision() + 4), std::min(38, arg->scale() + 4));
      }
      break;
    case AggregateKind::kMin:
    case AggregateKind::kMax:
    case AggregateKind::kFirst:
      return arg;
    case AggregateKind::kBoolAnd:
    case AggregateKind::kBoolOr:
      if (id == TypeId::kBoolean) return Type::boolean();
      break;
    default:
      break;
  }
  return invalid_argument("function {} does not accept an argument of type {}",
                          aggregate_kind_name(kind), arg->to_string());
}

Result<AggregateKind> aggregate_kind_from_name(std::string_view name, bool distinct) {
  std::string n = lower(name);
  if (n == "count") return AggregateKind::kCount;
  if (n == "sum") return AggregateKind::kSum;
  if (n == "avg" || n == "mean") return AggregateKind::kAvg;
  if (n == "min") return AggregateKind::kMin;
  if (n == "max") return AggregateKind::kMax;
  if (n == "any_value" || n == "first" || n == "first_value") return AggregateKind::kFirst;
  if (n == "bool_and" || n == "every") return AggregateKind::kBoolAnd;
  if (n == "bool_or" || n == "any" || n == "some") return AggregateKind::kBoolOr;
  return not_found("unknown aggregate function {}{}", name, distinct ? " (DISTINCT)" : "");
}

bool is_aggregate_function(std::string_view name) {
  return aggregate_kind_from_name(name, false).ok();
}

// ---------------------------------------------------------------------------------------------
// Accumulators

struct HashAggregator::Accumulator {
  AggregateSpec spec;
  TypePtr arg_type;  // null for count(*)
  TypePtr result_type;
  int64_t groups = 0;

  std::vector<int64_t> count;  // count, avg
  std::vector<uint8_t> has;    // a value was seen (sum, min, max, bool_*)
  std::vector<int64_t> i64;    // long sums; min/max of int-backed and boolean; bool_* state
  std::vector<double> f64;     // double sums and avg; min/max of float/double
  std::vector<int128_t> i128;  // decimal sums; min/max of decimals
  std::vector<uint8_t> overflow;
  // min/max of other types: best row per group in `candidates` (-1 none).
  ColumnPtr candidates;
  std::vector<int32_t> best;
  ColumnPtr first_values;  // kFirst: one value per group, in group order
  std::unique_ptr<GroupTable> distinct;

  bool generic_minmax() const {
    TypeId id = arg_type->id();
    return !(is_integral(id) || id == TypeId::kDate || id == TypeId::kTime ||
             id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTimestampNs ||
             id == TypeId::kTimestampTzNs || is_floating(id) || id == TypeId::kDecimal ||
             id == TypeId::kBoolean);
  }

  void resize(int64_t g) {
    if (g == groups) return;
    groups = g;
    size_t n = static_cast<size_t>(g);
    switch (spec.kind) {
      case AggregateKind::kCountStar:
      case AggregateKind::kCount:
        count.resize(n, 0);
        break;
      case AggregateKind::kSum:
      case AggregateKind::kAvg:
        count.resize(n, 0);
        has.resize(n, 0);
        if (arg_type->id() == TypeId::kDecimal) {
          i128.resize(n, 0);
          overflow.resize(n, 0);
        } else if (spec.kind == AggregateKind::kSum && is_integral(arg_type->id())) {
          i64.resize(n, 0);
        } else {
          f64.resize(n, 0.0);
        }
        break;
      case AggregateKind::kMin:
      case AggregateKind::kMax:
        has.resize(n, 0);
        if (generic_minmax()) {
          best.resize(n, -1);
        } else if (arg_type->id() == TypeId::kDecimal) {
          i128.resize(n, 0);
        } else if (is_floating(arg_type->id())) {
          f64.resize(n, 0.0);
        } else {
          i64.resize(n, 0);
        }
        break;
      case AggregateKind::kBoolAnd:
      case AggregateKind::kBoolOr:
        has.resize(n, 0);
        i64.resize(n, 0);
        break;
      case AggregateKind::kFirst:
        break;
    }
  }

  template <typename T>
  void sum_loop(const ColumnVector& c, const int32_t* ids, int64_t n) {
    const T* v = c.raw<T>();
    const bool nulls = c.null_count() > 0;
    if (arg_type->id() == TypeId::kDecimal) {
      for (int64_t i = 0; i < n; ++i) {
        if (nulls && c.is_null(i)) continue;
        size_t g = static_cast<size_t>(ids[i]);
        int128_t r;
        if (__builtin_add_overflow(i128[g], static_cast<int128_t>(v[i]), &r)) overflow[g] = 1;
        i128[g] = r;
        has[g] = 1;
        ++count[g];
      }
    } else if (!i64.empty() || (spec.kind == AggregateKind::kSum && is_integral(arg_type->id()))) {
      for (int64_t i = 0; i < n; ++i) {
        if (nulls && c.is_null(i)) continue;
        size_t g = static_cast<size_t>(ids[i]);
        // Spark (non-ANSI) wraps on long overflow.
        i64[g] = static_cast<int64_t>(static_cast<uint64_t>(i64[g]) +
                                      static_cast<uint64_t>(static_cast<int64_t>(v[i])));
        has[g] = 1;
        ++count[g];
      }
    } else {
      for (int64_t i = 0; i < n; ++i) {
        if (nulls && c.is_null(i)) continue;
        size_t g = static_cast<size_t>(ids[i]);
        f64[g] += static_cast<double>(v[i]);
        has[g] = 1;
        ++count[g];
      }
    }
  }

  template <typename T, typename S, bool kMax>
  void minmax_loop(const ColumnVector& c, const int32_t* ids, int64_t n, std::vector<S>& state) {
    const T* v = c.raw<T>();
    const bool nulls = c.null_count() > 0;
    for (int64_t i = 0; i < n; ++i) {
      if (nulls && c.is_null(i)) continue;
      size_t g = static_cast<size_t>(ids[i]);
      S x = static_cast<S>(v[i]);
      if (!has[g]) {
        state[g] = x;
        has[g] = 1;
        continue;
      }
      bool better;
      if constexpr (std::is_floating_point_v<S>) {
        better = kMax ? compare_doubles(x, state[g]) > 0 : compare_doubles(x, state[g]) < 0;
      } else {
        better = kMax ? x > state[g] : x < state[g];
      }
      if (better) state[g] = x;
    }
  }

  template <bool kMax>
  void minmax(const ColumnVector& c, const int32_t* ids, int64_t n) {
    switch (arg_type->id()) {
      case TypeId::kBoolean:
        return minmax_loop<uint8_t, int64_t, kMax>(c, ids, n, i64);
      case TypeId::kInt:
      case TypeId::kDate:
        return minmax_loop<int32_t, int64_t, kMax>(c, ids, n, i64);
      case TypeId::kFloat:
        return minmax_loop<float, double, kMax>(c, ids, n, f64);
      case TypeId::kDouble:
        return minmax_loop<double, double, kMax>(c, ids, n, f64);
      case TypeId::kDecimal:
        return minmax_loop<int128_t, int128_t, kMax>(c, ids, n, i128);
      default:
        break;
    }
    if (!generic_minmax()) return minmax_loop<int64_t, int64_t, kMax>(c, ids, n, i64);
    if (!candidates) candidates = ColumnVector::make(arg_type);
    for (int64_t i = 0; i < n; ++i) {
      if (c.is_null(i)) continue;
      size_t g = static_cast<size_t>(ids[i]);
      if (best[g] >= 0) {
        int r = compare_values(c, i, *candidates, best[g], true);
        if (kMax ? r <= 0 : r >= 0) continue;
      }
      int32_t row = static_cast<int32_t>(i);
      best[g] = static_cast<int32_t>(candidates->length());
      append_rows(c, &row, 1, candidates.get());
    }
  }

  void bool_loop(const ColumnVector& c, const int32_t* ids, int64_t n) {
    const uint8_t* v = c.raw<uint8_t>();
    const bool is_and = spec.kind == AggregateKind::kBoolAnd;
    for (int64_t i = 0; i < n; ++i) {
      if (c.is_null(i)) continue;
      size_t g = static_cast<size_t>(ids[i]);
      int64_t x = v[i] != 0;
      i64[g] = !has[g] ? x : (is_and ? (i64[g] & x) : (i64[g] | x));
      has[g] = 1;
    }
  }

  // Non-distinct update over rows 0..n of `args` with group ids `ids`.
  void update(const std::vector<const ColumnVector*>& args, const int32_t* ids, int64_t n) {
    switch (spec.kind) {
      case AggregateKind::kCountStar:
        for (int64_t i = 0; i < n; ++i) ++count[static_cast<size_t>(ids[i])];
        return;
      case AggregateKind::kCount: {
        bool any_nulls = false;
        for (auto* a : args) any_nulls |= a->null_count() > 0;
        if (!any_nulls) {
          for (int64_t i = 0; i < n; ++i) ++count[static_cast<size_t>(ids[i])];
          return;
        }
        for (int64_t i = 0; i < n; ++i) {
          bool ok = true;
          for (auto* a : args) ok &= a->is_valid(i);
          count[static_cast<size_t>(ids[i])] += ok;
        }
        return;
      }
      case AggregateKind::kSum:
      case AggregateKind::kAvg: {
        const ColumnVector& c = *args[0];
        switch (arg_type->id()) {
          case TypeId::kInt:
            return sum_loop<int32_t>(c, ids, n);
          case TypeId::kLong:
            return sum_loop<int64_t>(c, ids, n);
          case TypeId::kFloat:
            return sum_loop<float>(c, ids, n);
          case TypeId::kDouble:
            return sum_loop<double>(c, ids, n);
          default:
            return sum_loop<int128_t>(c, ids, n);
        }
      }
      case AggregateKind::kMin:
        return minmax<false>(*args[0], ids, n);
      case AggregateKind::kMax:
        return minmax<true>(*args[0], ids, n);
      case AggregateKind::kBoolAnd:
      case AggregateKind::kBoolOr:
        return bool_loop(*args[0], ids, n);
      case AggregateKind::kFirst:
        return;
    }
  }

  // Distinct: only the first (group, value) occurrence of non-null values is aggregated.
  void update_distinct(const std::vector<const ColumnVector*>& args, const int32_t* ids,
                       int64_t n) {
    auto gid = ColumnVector::make(Type::int64());
    gid->values().resize(static_cast<size_t>(n) * 8);
    for (int64_t i = 0; i < n; ++i) gid->mutable_raw<int64_t>()[i] = ids[i];
    gid->set_length(n);
    std::vector<const ColumnVector*> keys{gid.get()};
    keys.insert(keys.end(), args.begin(), args.end());
    std::vector<int32_t> tmp_ids(static_cast<size_t>(n));
    std::vector<int32_t> fresh;
    distinct->find_or_insert(keys, n, nullptr, tmp_ids.data(), &fresh);
    std::vector<int32_t> rows;
    rows.reserve(fresh.size());
    for (int32_t r : fresh) {
      bool ok = true;
      for (auto* a : args) ok &= a->is_valid(r);
      if (ok) rows.push_back(r);
    }
    if (rows.empty()) return;
    std::vector<int32_t> sub_ids(rows.size());
    for (size_t k = 0; k < rows.size(); ++k) sub_ids[k] = ids[rows[k]];
    std::vector<ColumnPtr> sub;
    std::vector<const ColumnVector*> sub_args;
    for (auto* a : args) {
      sub.push_back(gather(*a, rows));
      sub_args.push_back(sub.back().get());
    }
    update(sub_args, sub_ids.data(), static_cast<int64_t>(rows.size()));
  }

  void consume(const ColumnBatch& batch, const int32_t* ids, int64_t n,
               const std::vector<int32_t>& new_rows, int64_t num_groups) {
    resize(num_groups);
    std::vector<const ColumnVector*> args;
    if (spec.column >= 0) args.push_back(batch.columns[static_cast<size_t>(spec.column)].get());
    for (int c : spec.extra_columns) args.push_back(batch.columns[static_cast<size_t>(c)].get());
    if (spec.kind == AggregateKind::kFirst) {
      if (!first_values) first_values = ColumnVector::make(arg_type);
      if (first_values->length() == 0 && num_groups == 1 && new_rows.empty() && n > 0) {
        int32_t row = 0;  // no keys: the single group's first row
        append_rows(*args[0], &row, 1, first_values.get());
      } else if (!new_rows.empty()) {
        append_rows(*args[0], new_rows.data(), static_cast<int64_t>(new_rows.size()),
                    first_values.get());
      }
      return;
    }
    if (distinct) return update_distinct(args, ids, n);
    update(args, ids, n);
  }

  Result<ColumnPtr> finish(int64_t n) {
    resize(n);
    switch (spec.kind) {
      case AggregateKind::kCountStar:
      case AggregateKind::kCount:
        return fixed_column<int64_t>(result_type, count, nullptr, n);
      case AggregateKind::kSum:
        if (arg_type->id() == TypeId::kDecimal) {
          for (int64_t g = 0; g < n; ++g) {
            size_t i = static_cast<size_t>(g);
            if (overflow[i] || !fits_precision(i128[i], result_type->precision())) has[i] = 0;
          }
          return fixed_column<int128_t>(result_type, i128, &has, n);
        }
        if (is_integral(arg_type->id())) return fixed_column<int64_t>(result_type, i64, &has, n);
        return fixed_column<double>(result_type, f64, &has, n);
      case AggregateKind::kAvg:
        if (arg_type->id() == TypeId::kDecimal) {
          std::vector<int128_t> out(static_cast<size_t>(n), 0);
          int128_t mult = pow10(result_type->scale() - arg_type->scale());
          for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
            if (!has[i] || overflow[i]) {
              has[i] = 0;
              continue;
            }
            // round_half_up(sum * mult / count) without overflowing the product.
            int128_t s = i128[i], c = count[i];
            bool neg = s < 0;
            if (neg) s = -s;
            int128_t q = s / c, r = s % c;
            int128_t frac = (r * mult * 2 + c) / (2 * c);
            int128_t v;
            if (__builtin_mul_overflow(q, mult, &v) || __builtin_add_overflow(v, frac, &v) ||
                !fits_precision(v, result_type->precision())) {
              has[i] = 0;
              continue;
            }
            out[i] = neg ? -v : v;
          }
          return fixed_column<int128_t>(result_type, out, &has, n);
        } else {
          std::vector<double> out(static_cast<size_t>(n), 0.0);
          for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
            if (has[i]) out[i] = f64[i] / static_cast<double>(count[i]);
          }
          return fixed_column<double>(result_type, out, &has, n);
        }
      case AggregateKind::kMin:
      case AggregateKind::kMax:
        return finish_minmax(n);
      case AggregateKind::kBoolAnd:
      case AggregateKind::kBoolOr: {
        std::vector<uint8_t> v(static_cast<size_t>(n));
        for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>(i64[i] != 0);
        return fixed_column<uint8_t>(result_type, v, &has, n);
      }
      case AggregateKind::kFirst: {
        if (!first_values) first_values = ColumnVector::make(arg_type);
        if (first_values->length() < n) {
          std::vector<int32_t> nulls(static_cast<size_t>(n - first_values->length()), -1);
          append_rows(*first_values, nulls.data(), static_cast<int64_t>(nulls.size()),
                      first_values.get());
        }
        return first_values;
      }
    }
    return invalid_argument("unknown aggregate");
  }

  Result<ColumnPtr> finish_minmax(int64_t n) {
    if (generic_minmax()) {
      if (!candidates) candidates = ColumnVector::make(arg_type);
      return gather(*candidates, best.data(), n);
    }
    switch (arg_type->id()) {
      case TypeId::kBoolean: {
        std::vector<uint8_t> v(static_cast<size_t>(n));
        for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>(i64[i] != 0);
        return fixed_column<uint8_t>(result_type, v, &has, n);
      }
      case TypeId::kInt:
      case TypeId::kDate: {
        std::vector<int32_t> v(static_cast<size_t>(n));
        for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int32_t>(i64[i]);
        return fixed_column<int32_t>(result_type, v, &has, n);
      }
      case TypeId::kFloat: {
        std::vector<float> v(static_cast<size_t>(n));
        for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(f64[i]);
        return fixed_column<float>(result_type, v, &has, n);
      }
      case TypeId::kDouble:
        return fixed_column<double>(result_type, f64, &has, n);
      case TypeId::kDecimal:
        return fixed_column<int128_t>(result_type, i128, &has, n);
      default:
        return fixed_column<int64_t>(result_type, i64, &has, n);
    }
  }
};

// ---------------------------------------------------------------------------------------------
// HashAggregator

namespace {
std::string default_name(const AggregateSpec& spec, const std::vector<NestedField>& fields) {
  if (spec.kind == AggregateKind::kCountStar) return "count(1)";
  std::string args;
  if (spec.column >= 0) args = fields[static_cast<size_t>(spec.column)].name;
  for (int c : spec.extra_columns) args += ", " + fields[static_cast<size_t>(c)].name;
  return fmt::format("{}({}{})", aggregate_kind_name(spec.kind), spec.distinct ? "DISTINCT " : "",
                     args);
}
}  // namespace

Result<std::unique_ptr<HashAggregator>> HashAggregator::make(
    std::vector<NestedField> input_fields, std::vector<int> group_keys,
    std::vector<AggregateSpec> aggregates) {
  std::unique_ptr<HashAggregator> agg(new HashAggregator());
  const int nf = static_cast<int>(input_fields.size());
  auto check = [&](int c, const char* what) -> Status {
    if (c < 0 || c >= nf) {
      return invalid_argument("{} column {} out of range ({} input columns)", what, c, nf);
    }
    return Status::OK();
  };
  int32_t max_id = 0;
  for (const auto& f : input_fields) max_id = std::max(max_id, f.id);
  std::vector<TypePtr> key_types;
  for (int k : group_keys) {
    FLOE_TRY(check(k, "group key"));
    key_types.push_back(input_fields[static_cast<size_t>(k)].type);
    agg->output_fields_.push_back(input_fields[static_cast<size_t>(k)]);
  }
  agg->groups_ = std::make_unique<GroupTable>(key_types);
  for (size_t i = 0; i < aggregates.size(); ++i) {
    AggregateSpec& spec = aggregates[i];
    auto acc = std::make_unique<Accumulator>();
    if (spec.kind == AggregateKind::kCount && spec.column < 0)
      spec.kind = AggregateKind::kCountStar;
    if (spec.kind != AggregateKind::kCountStar) {
      FLOE_TRY(check(spec.column, aggregate_kind_name(spec.kind)));
      acc->arg_type = input_fields[static_cast<size_t>(spec.column)].type;
    }
    if (!spec.extra_columns.empty() && spec.kind != AggregateKind::kCount) {
      return invalid_argument("{} takes one argument", aggregate_kind_name(spec.kind));
    }
    for (int c : spec.extra_columns) FLOE_TRY(check(c, "count"));
    acc->result_type = FLOE_TRY(aggregate_result_type(spec.kind, acc->arg_type));
    if (spec.kind == AggregateKind::kCountStar) spec.distinct = false;
    bool dedup =
        spec.distinct && (spec.kind == AggregateKind::kCount || spec.kind == AggregateKind::kSum ||
                          spec.kind == AggregateKind::kAvg);
    if (dedup) {
      std::vector<TypePtr> dk{Type::int64(), acc->arg_type};
      for (int c : spec.extra_columns) dk.push_back(input_fields[static_cast<size_t>(c)].type);
      acc->distinct = std::make_unique<GroupTable>(dk);
    }
    NestedField f;
    f.id = max_id + 1 + static_cast<int32_t>(i);
    f.name = spec.name.empty() ? default_name(spec, input_fields) : spec.name;
    f.type = acc->result_type;
    f.required = spec.kind == AggregateKind::kCountStar || spec.kind == AggregateKind::kCount;
    agg->output_fields_.push_back(std::move(f));
    acc->spec = spec;
    agg->accumulators_.push_back(std::move(acc));
  }
  agg->input_fields_ = std::move(input_fields);
  agg->group_keys_ = std::move(group_keys);
  agg->aggregates_ = std::move(aggregates);
  return agg;
}

HashAggregator::~HashAggregator() = default;

int64_t HashAggregator::num_groups() const { return groups_->num_groups(); }

Status HashAggregator::consume(const ColumnBatch& batch) {
  if (finished_) return invalid_argument("HashAggregator::consume after finish");
  if (batch.columns.size() < input_fields_.size()) {
    return invalid_argument("aggregate input has {} columns, expected {}", batch.columns.size(),
                            input_fields_.size());
  }
  const int64_t n = batch.num_rows;
  if (n == 0) return Status::OK();
  ids_.resize(static_cast<size_t>(n));
  new_rows_.clear();
  if (!group_keys_.empty()) {
    std::vector<const ColumnVector*> keys;
    for (int k : group_keys_) keys.push_back(batch.columns[static_cast<size_t>(k)].get());
    hashes_.resize(static_cast<size_t>(n));
    hash_rows(keys, n, hashes_.data());
    groups_->find_or_insert(keys, n, hashes_.data(), ids_.data(), &new_rows_);
  } else {
    std::fill(ids_.begin(), ids_.end(), 0);
  }
  const int64_t g = groups_->num_groups();
  for (auto& acc : accumulators_) acc->consume(batch, ids_.data(), n, new_rows_, g);
  return Status::OK();
}

Result<ColumnBatch> HashAggregator::finish() {
  if (finished_) return invalid_argument("HashAggregator::finish called twice");
  finished_ = true;
  const int64_t g = groups_->num_groups();
  ColumnBatch out;
  out.fields = output_fields_;
  out.num_rows = g;
  if (!group_keys_.empty()) out.columns = groups_->take_key_columns();
  for (auto& acc : accumulators_) out.columns.push_back(FLOE_TRY(acc->finish(g)));
  return out;
}

Result<ColumnBatch> distinct_rows(const std::vector<ColumnBatch>& batches) {
  if (batches.empty()) return ColumnBatch{};
  std::vector<int> keys;
  for (size_t i = 0; i < batches[0].fields.size(); ++i) keys.push_back(static_cast<int>(i));
  auto agg = FLOE_TRY(HashAggregator::make(batches[0].fields, keys, {}));
  for (const auto& b : batches) FLOE_TRY(agg->consume(b));
  return agg->finish();
}

}  // namespace floe::sql
