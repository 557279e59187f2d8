// The vectorised evaluator: column references, literals, casts, CASE, boolean logic, IS NULL,
// IN, LIKE, subscripts and struct fields. Functions and operators live in sql/functions/.
#include <algorithm>
#include <unordered_set>

#include "floe/read/batch_ops.h"
#include "sql/exec/bound_expr_internal.h"
#include "sql/functions/function_internal.h"
#include "sql/functions/like_matcher_internal.h"
#include "sql/parser/stack_guard_internal.h"

namespace floe::sql {

using namespace internal;

namespace internal {

Result<ColumnPtr> scalar_column(const TypePtr& type, const Literal& value) {
  auto col = ColumnVector::make(type);
  if (value.is_null()) {
    col->append_null();
  } else {
    FLOE_TRY(col->append_literal(value));
  }
  return col;
}

Datum null_scalar(const TypePtr& type) {
  auto col = ColumnVector::make(type);
  col->append_null();
  return {col, true};
}

bool all_scalar(const std::vector<Datum>& args) {
  for (const auto& a : args) {
    if (!a.scalar) return false;
  }
  return true;
}

int64_t rows_for(const std::vector<Datum>& args, int64_t n) { return all_scalar(args) ? 1 : n; }

void append_value(ColumnVector* dst, const ColumnVector& src, int64_t i) {
  if (src.is_null(i)) {
    dst->append_null();
    return;
  }
  switch (src.type_id()) {
    case TypeId::kStruct:
      for (size_t c = 0; c < src.num_children(); ++c) {
        append_value(&dst->child(c), src.child(c), i);
      }
      dst->append_struct();
      return;
    case TypeId::kList: {
      int32_t b = src.list_begin(i), e = src.list_end(i);
      for (int32_t j = b; j < e; ++j) append_value(&dst->child(0), src.child(0), j);
      dst->append_list(e - b);
      return;
    }
    case TypeId::kMap: {
      int32_t b = src.list_begin(i), e = src.list_end(i);
      for (int32_t j = b; j < e; ++j) {
        append_value(&dst->child(0), src.child(0), j);
        append_value(&dst->child(1), src.child(1), j);
      }
      dst->append_list(e - b);
      return;
    }
    case TypeId::kUnknown:
      dst->append_null();
      return;
    default:
      dst->append_bytes(src.bytes_at(i));
      return;
  }
}

namespace {

template <int W>
void select_fixed(ColumnVector* out, const std::vector<Datum>& sources, const int32_t* choice,
                  int64_t n, uint8_t* valid) {
  struct Src {
    const uint8_t* data;
    const uint8_t* bits;
    int64_t step;
  };
  std::vector<Src> src;
  for (const auto& s : sources) {
    src.push_back({s.col->values().data(), s.col->null_count() ? s.col->validity().data() : nullptr,
                   s.scalar ? 0 : 1});
  }
  out->values().resize(static_cast<size_t>(n) * W);
  uint8_t* dst = out->values().data();
  for (int64_t i = 0; i < n; ++i) {
    int32_t c = choice[i];
    uint8_t* d = dst + i * W;
    if (c < 0) {
      std::memset(d, 0, W);
      valid[i] = 0;
      continue;
    }
    const Src& s = src[c];
    int64_t j = i * s.step;
    if (s.bits && !test_bit(s.bits, j)) {
      std::memset(d, 0, W);
      valid[i] = 0;
      continue;
    }
    std::memcpy(d, s.data + j * W, W);
    valid[i] = 1;
  }
}

}  // namespace

ColumnPtr select_rows(const TypePtr& type, const std::vector<Datum>& sources, const int32_t* choice,
                      int64_t n) {
  auto out = ColumnVector::make(type);
  Phys p = phys_of(type->id());
  if (p == Phys::kNull) {
    for (int64_t i = 0; i < n; ++i) out->append_null();
    return out;
  }
  int w = out->value_width();
  if (p != Phys::kNested && w > 0) {
    std::vector<uint8_t> valid(static_cast<size_t>(n));
    switch (w) {
      case 1:
        select_fixed<1>(out.get(), sources, choice, n, valid.data());
        break;
      case 4:
        select_fixed<4>(out.get(), sources, choice, n, valid.data());
        break;
      case 8:
        select_fixed<8>(out.get(), sources, choice, n, valid.data());
        break;
      case 16:
        select_fixed<16>(out.get(), sources, choice, n, valid.data());
        break;
      default:
        for (int64_t i = 0; i < n; ++i) {
          int32_t c = choice[i];
          if (c < 0) {
            out->append_null();
          } else {
            append_value(out.get(), *sources[c].col, sources[c].scalar ? 0 : i);
          }
        }
        return out;
    }
    out->set_length(n);
    out->set_validity_from_bytes(valid.data(), n);
    return out;
  }
  if (p == Phys::kBytes) {
    std::vector<BytesReader> rs;
    for (const auto& s : sources) rs.emplace_back(s);
    for (int64_t i = 0; i < n; ++i) {
      int32_t c = choice[i];
      if (c < 0 || !rs[c].valid(i)) {
        out->append_null();
      } else {
        out->append_bytes(rs[c][i]);
      }
    }
    return out;
  }
  for (int64_t i = 0; i < n; ++i) {
    int32_t c = choice[i];
    if (c < 0) {
      out->append_null();
    } else {
      append_value(out.get(), *sources[c].col, sources[c].scalar ? 0 : i);
    }
  }
  return out;
}

Result<ColumnPtr> to_column(const Datum& d, int64_t n) {
  if (!d.scalar) return d.col;
  if (n == 1) return d.col;
  if (d.col->type()->is_nested() || d.col->type_id() == TypeId::kUnknown) {
    std::vector<int32_t> choice(static_cast<size_t>(n), 0);
    return select_rows(d.col->type(), {d}, choice.data(), n);
  }
  return constant_column(d.col->type(), d.col->literal_at(0), n);
}

}  // namespace internal

namespace {

// ----- boolean logic
// ------------------------------------------------------------------------------

Datum eval_and_or(const Datum& a, const Datum& b, bool is_and, int64_t n) {
  bool sc = a.scalar && b.scalar;
  int64_t m = sc ? 1 : n;
  FixedReader<uint8_t> ra(a), rb(b);
  FixedWriter<uint8_t> w(Type::boolean(), m);
  for (int64_t i = 0; i < m; ++i) {
    bool va = ra.valid(i), vb = rb.valid(i);
    bool xa = ra[i] != 0, xb = rb[i] != 0;
    if (is_and) {
      if ((va && !xa) || (vb && !xb)) {
        w.data[i] = 0;
      } else if (va && vb) {
        w.data[i] = 1;
      } else {
        w.data[i] = 0;
        w.valid[i] = 0;
      }
    } else {
      if ((va && xa) || (vb && xb)) {
        w.data[i] = 1;
      } else if (va && vb) {
        w.data[i] = 0;
      } else {
        w.data[i] = 0;
        w.valid[i] = 0;
      }
    }
  }
  return {w.finish(m), sc};
}

Datum eval_not(const Datum& a, int64_t n) {
  int64_t m = a.scalar ? 1 : n;
  FixedReader<uint8_t> r(a);
  FixedWriter<uint8_t> w(Type::boolean(), m);
  for (int64_t i = 0; i < m; ++i) {
    w.valid[i] = r.valid(i);
    w.data[i] = r[i] == 0;
  }
  return {w.finish(m), a.scalar};
}

Datum eval_is_null(const Datum& a, bool negated, int64_t n) {
  int64_t m = a.scalar ? 1 : n;
  FixedWriter<uint8_t> w(Type::boolean(), m);
  for (int64_t i = 0; i < m; ++i) w.data[i] = datum_valid(a, i) == negated;
  return {w.finish(m), a.scalar};
}

// ----- IN ---------------------------------------------------------------------------------------

template <typename T>
bool values_equal(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    return a == b || (std::isnan(a) && std::isnan(b));
  } else {
    return a == b;
  }
}

template <typename Reader>
Datum in_kernel(const std::vector<Datum>& args, bool negated, int64_t n) {
  int64_t m = rows_for(args, n);
  Reader v(args[0]);
  std::vector<Reader> items;
  for (size_t k = 1; k < args.size(); ++k) items.emplace_back(args[k]);
  FixedWriter<uint8_t> w(Type::boolean(), m);
  for (int64_t i = 0; i < m; ++i) {
    if (!v.valid(i)) {
      w.valid[i] = 0;
      w.data[i] = 0;
      continue;
    }
    auto x = v[i];
    bool match = false, saw_null = false;
    for (const auto& it : items) {
      if (!it.valid(i)) {
        saw_null = true;
      } else if (values_equal(it[i], x)) {
        match = true;
        break;
      }
    }
    if (match) {
      w.data[i] = !negated;
    } else if (saw_null) {
      w.data[i] = 0;
      w.valid[i] = 0;
    } else {
      w.data[i] = negated;
    }
  }
  return {w.finish(m), all_scalar(args)};
}

// Long lists of constants: binary search in the sorted values instead of a scan per row.
template <typename T, typename Reader>
Datum in_sorted_kernel(const std::vector<Datum>& args, bool negated, int64_t n) {
  int64_t m = args[0].scalar ? 1 : n;
  std::vector<T> values;
  bool has_null = false;
  for (size_t k = 1; k < args.size(); ++k) {
    Reader r(args[k]);
    if (r.valid(0)) {
      values.push_back(r[0]);
    } else {
      has_null = true;
    }
  }
  auto less = [](const T& a, const T& b) {
    if constexpr (std::is_floating_point_v<T>) {
      // NaN sorts last and equals NaN, as Spark orders doubles.
      if (std::isnan(a)) return false;
      if (std::isnan(b)) return true;
    }
    return a < b;
  };
  std::sort(values.begin(), values.end(), less);
  Reader v(args[0]);
  FixedWriter<uint8_t> w(Type::boolean(), m);
  for (int64_t i = 0; i < m; ++i) {
    w.data[i] = 0;
    if (!v.valid(i)) {
      w.valid[i] = 0;
      continue;
    }
    T x = v[i];
    auto it = std::lower_bound(values.begin(), values.end(), x, less);
    bool match = it != values.end() && values_equal(*it, x);
    if (match) {
      w.data[i] = !negated;
    } else if (has_null) {
      w.valid[i] = 0;
    } else {
      w.data[i] = negated;
    }
  }
  return {w.finish(m), args[0].scalar};
}

bool items_scalar(const std::vector<Datum>& args) {
  for (size_t k = 1; k < args.size(); ++k) {
    if (!args[k].scalar) return false;
  }
  return true;
}

// x IN (c1, c2, ...) over constants: a hash set built once when the expression is bound, one
// lookup per row.
class InSet {
 public:
  virtual ~InSet() = default;
  virtual Datum eval(const Datum& operand, bool negated, int64_t n) const = 0;
};

struct Int128Hash {
  size_t operator()(int128 v) const {
    auto u = static_cast<unsigned __int128>(v);
    return std::hash<uint64_t>{}(static_cast<uint64_t>(u) ^
                                 (static_cast<uint64_t>(u >> 64) * 0x9E3779B97F4A7C15ULL));
  }
};

struct BytesHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

template <typename T>
using HashSetOf = std::conditional_t<
    std::is_same_v<T, std::string_view>,
    std::unordered_set<std::string, BytesHash, std::equal_to<>>,
    std::conditional_t<std::is_same_v<T, int128>, std::unordered_set<int128, Int128Hash>,
                       std::unordered_set<T>>>;

template <typename T, typename Reader>
class TypedInSet : public InSet {
 public:
  explicit TypedInSet(const std::vector<BoundExprPtr>& items) {
    values_.reserve(items.size());
    for (const auto& item : items) {
      Reader r(Datum{item->scalar, true});
      if (!r.valid(0)) {
        has_null_ = true;
        continue;
      }
      T v = r[0];
      if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(v)) {
          has_nan_ = true;  // NaN equals NaN in Spark's IN
          continue;
        }
      }
      values_.insert(typename HashSetOf<T>::key_type(v));
    }
  }

  Datum eval(const Datum& operand, bool negated, int64_t n) const override {
    int64_t m = operand.scalar ? 1 : n;
    Reader v(operand);
    FixedWriter<uint8_t> w(Type::boolean(), m);
    for (int64_t i = 0; i < m; ++i) {
      w.data[i] = 0;
      if (!v.valid(i)) {
        w.valid[i] = 0;
        continue;
      }
      T x = v[i];
      bool match;
      if constexpr (std::is_floating_point_v<T>) {
        match = std::isnan(x) ? has_nan_ : values_.find(x) != values_.end();
      } else {
        match = values_.find(x) != values_.end();
      }
      if (match) {
        w.data[i] = !negated;
      } else if (has_null_) {
        w.valid[i] = 0;
      } else {
        w.data[i] = negated;
      }
    }
    return {w.finish(m), operand.scalar};
  }

 private:
  HashSetOf<T> values_;
  bool has_null_ = false;
  bool has_nan_ = false;
};

Result<Datum> eval_in(const BoundExpr& e, const std::vector<Datum>& args, int64_t n) {
  Phys p = phys_of(e.args[0]->type->id());
  bool sorted = args.size() > 9 && items_scalar(args);
  switch (p) {
    case Phys::kBytes:
      if (sorted) return in_sorted_kernel<std::string_view, BytesReader>(args, e.negated, n);
      return in_kernel<BytesReader>(args, e.negated, n);
    case Phys::kNested:
      return not_supported("IN over {} values", e.args[0]->type->to_string());
    case Phys::kNull:
      return null_scalar(Type::boolean());
    default:
      return visit_fixed(p, [&](auto tag) -> Datum {
        using T = decltype(tag);
        if (sorted) return in_sorted_kernel<T, FixedReader<T>>(args, e.negated, n);
        return in_kernel<FixedReader<T>>(args, e.negated, n);
      });
  }
}

// ----- LIKE -------------------------------------------------------------------------------------

Result<Datum> eval_like(const BoundExpr& e, const std::vector<Datum>& args, int64_t n) {
  int64_t m = rows_for(args, n);
  BytesReader s(args[0]), p(args[1]);
  FixedWriter<uint8_t> w(Type::boolean(), m);
  std::string scratch;
  auto fixed = std::static_pointer_cast<const PatternMatcher>(e.state);
  std::shared_ptr<const PatternMatcher> current;
  std::string current_text;
  bool have_current = false;
  for (int64_t i = 0; i < m; ++i) {
    if (!s.valid(i) || !p.valid(i)) {
      w.valid[i] = 0;
      w.data[i] = 0;
      continue;
    }
    const PatternMatcher* matcher = fixed.get();
    if (!matcher) {
      std::string_view pt = p[i];
      if (!have_current || pt != current_text) {
        current = FLOE_TRY(compile_pattern(pt, e.like_kind, e.escape));
        current_text.assign(pt);
        have_current = true;
      }
      matcher = current.get();
    }
    w.data[i] = matcher->matches(s[i], &scratch) != e.negated;
  }
  return Datum{w.finish(m), all_scalar(args)};
}

// ----- CASE -------------------------------------------------------------------------------------

Result<Datum> eval_case(const BoundExpr& e, const ColumnBatch& input) {
  int64_t n = input.num_rows;
  size_t pairs = (e.args.size() - 1) / 2;
  std::vector<Datum> conds, values;
  bool sc = true;
  for (size_t k = 0; k < pairs; ++k) {
    conds.push_back(FLOE_TRY(eval_datum(*e.args[2 * k], input)));
    values.push_back(FLOE_TRY(eval_datum(*e.args[2 * k + 1], input)));
    sc = sc && conds.back().scalar && values.back().scalar;
  }
  values.push_back(FLOE_TRY(eval_datum(*e.args.back(), input)));
  sc = sc && values.back().scalar;
  int64_t m = sc ? 1 : n;
  std::vector<int32_t> choice(static_cast<size_t>(m), static_cast<int32_t>(pairs));
  std::vector<uint8_t> decided(static_cast<size_t>(m), 0);
  for (size_t k = 0; k < pairs; ++k) {
    FixedReader<uint8_t> c(conds[k]);
    for (int64_t i = 0; i < m; ++i) {
      if (!decided[i] && c.valid(i) && c[i]) {
        decided[i] = 1;
        choice[i] = static_cast<int32_t>(k);
      }
    }
  }
  return Datum{select_rows(e.type, values, choice.data(), m), sc};
}

// ----- subscripts and fields --------------------------------------------------------------------

ColumnPtr gather(const ColumnVector& src, const std::vector<int64_t>& idx) {
  auto out = ColumnVector::make(src.type());
  for (int64_t j : idx) {
    if (j < 0) {
      out->append_null();
    } else {
      append_value(out.get(), src, j);
    }
  }
  return out;
}

template <typename Reader>
void map_lookup(const Datum& base, const Datum& key, int64_t m, std::vector<int64_t>* idx) {
  const ColumnVector& map = *base.col;
  Datum keys{map.child_ptr(0), false};
  Reader kr(keys), k(key);
  for (int64_t i = 0; i < m; ++i) {
    int64_t row = base.scalar ? 0 : i;
    (*idx)[i] = -1;
    if (map.is_null(row) || !k.valid(i)) continue;
    auto want = k[i];
    for (int32_t j = map.list_begin(row); j < map.list_end(row); ++j) {
      if (values_equal(kr[j], want)) {
        (*idx)[i] = j;
        break;
      }
    }
  }
}

Result<Datum> eval_subscript(const BoundExpr& e, const std::vector<Datum>& args, int64_t n) {
  int64_t m = rows_for(args, n);
  const Datum& base = args[0];
  std::vector<int64_t> idx(static_cast<size_t>(m), -1);
  if (base.col->type()->is_map()) {
    Phys p = phys_of(base.col->type()->key().type->id());
    if (p == Phys::kBytes) {
      map_lookup<BytesReader>(base, args[1], m, &idx);
    } else if (p == Phys::kNested || p == Phys::kNull) {
      return not_supported("map keys of type {}", base.col->type()->key().type->to_string());
    } else {
      visit_fixed(p, [&](auto tag) {
        using T = decltype(tag);
        map_lookup<FixedReader<T>>(base, args[1], m, &idx);
      });
    }
    return Datum{gather(base.col->child(1), idx), all_scalar(args)};
  }
  FixedReader<int32_t> k(args[1]);
  const ColumnVector& list = *base.col;
  for (int64_t i = 0; i < m; ++i) {
    int64_t row = base.scalar ? 0 : i;
    if (list.is_null(row) || !k.valid(i)) continue;
    int64_t b = list.list_begin(row), len = list.list_end(row) - b;
    int64_t at = k[i];
    if (at >= 0 && at < len) idx[i] = b + at;
  }
  return Datum{gather(base.col->child(0), idx), all_scalar(args)};
}

Datum eval_field(const BoundExpr& e, const Datum& base, int64_t n) {
  const ColumnVector& s = *base.col;
  const ColumnPtr& child = s.child_ptr(static_cast<size_t>(e.column_index));
  if (s.null_count() == 0) return {child, base.scalar};
  int64_t m = base.scalar ? 1 : n;
  std::vector<int64_t> idx(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; ++i) idx[i] = s.is_null(i) ? -1 : i;
  return {gather(*child, idx), base.scalar};
}

}  // namespace

namespace internal {

std::shared_ptr<const void> build_in_set(const TypePtr& type,
                                         const std::vector<BoundExprPtr>& items) {
  for (const auto& item : items) {
    if (!item->is_literal() || !item->scalar) return nullptr;
  }
  Phys p = phys_of(type->id());
  switch (p) {
    case Phys::kBytes:
      return std::make_shared<TypedInSet<std::string_view, BytesReader>>(items);
    case Phys::kNested:
    case Phys::kNull:
      return nullptr;
    default:
      return visit_fixed(p, [&](auto tag) -> std::shared_ptr<const void> {
        using T = decltype(tag);
        return std::make_shared<TypedInSet<T, FixedReader<T>>>(items);
      });
  }
}

Result<Datum> eval_datum(const BoundExpr& e, const ColumnBatch& input) {
  int64_t n = input.num_rows;
  FLOE_TRY(check_stack("to evaluate"));
  switch (e.kind) {
    case ExprKind::kColumn: {
      if (e.column_index >= static_cast<int>(input.columns.size())) {
        return invalid_argument("column #{} is not in the batch ({} columns)", e.column_index,
                                input.columns.size());
      }
      const ColumnPtr& col = input.columns[e.column_index];
      if (col->type_id() != e.type->id() ||
          (e.type->id() == TypeId::kDecimal && col->type()->scale() != e.type->scale())) {
        return invalid_argument("column #{} has type {}, expected {}", e.column_index,
                                col->type()->to_string(), e.type->to_string());
      }
      return Datum{col, false};
    }
    case ExprKind::kLiteral:
      return Datum{e.scalar, true};
    case ExprKind::kCase:
      return eval_case(e, input);
    case ExprKind::kInList:
      if (e.state) {  // constant items: only the operand is evaluated
        Datum operand = FLOE_TRY(eval_datum(*e.args[0], input));
        return std::static_pointer_cast<const InSet>(e.state)->eval(operand, e.negated, n);
      }
      break;
    default:
      break;
  }
  std::vector<Datum> args;
  args.reserve(e.args.size());
  for (const auto& a : e.args) args.push_back(FLOE_TRY(eval_datum(*a, input)));
  switch (e.kind) {
    case ExprKind::kCall:
      return e.function->eval(e, args, n);
    case ExprKind::kCast:
      if (e.try_cast) return try_cast_datum(args[0], e.type, args[0].scalar ? 1 : n);
      return cast_datum(args[0], e.type, args[0].scalar ? 1 : n);
    case ExprKind::kAnd:
    case ExprKind::kOr:
      return eval_and_or(args[0], args[1], e.kind == ExprKind::kAnd, n);
    case ExprKind::kNot:
      return eval_not(args[0], n);
    case ExprKind::kIsNull:
      return eval_is_null(args[0], e.negated, n);
    case ExprKind::kInList:
      return eval_in(e, args, n);
    case ExprKind::kLike:
      return eval_like(e, args, n);
    case ExprKind::kSubscript:
      return eval_subscript(e, args, n);
    case ExprKind::kField:
      return eval_field(e, args[0], n);
    default:
      return make_error(ErrorKind::kInternal, "unexpected expression kind");
  }
}

}  // namespace internal

Result<ColumnPtr> evaluate(const BoundExpr& expr, const ColumnBatch& input) {
  Datum d = FLOE_TRY(eval_datum(expr, input));
  return to_column(d, input.num_rows);
}

Status evaluate_predicate(const BoundExpr& expr, const ColumnBatch& input,
                          std::vector<uint8_t>* keep) {
  if (expr.type->id() != TypeId::kBoolean && expr.type->id() != TypeId::kUnknown) {
    return invalid_argument("a filter must be boolean, got {}", expr.type->to_string());
  }
  int64_t n = input.num_rows;
  keep->assign(static_cast<size_t>(n), 0);
  if (expr.type->id() == TypeId::kUnknown) return Status::OK();
  Datum d = FLOE_TRY(eval_datum(expr, input));
  FixedReader<uint8_t> r(d);
  for (int64_t i = 0; i < n; ++i) (*keep)[i] = r.valid(i) && r[i] != 0;
  return Status::OK();
}

Result<Literal> evaluate_constant(const BoundExpr& expr) {
  ColumnBatch empty;
  empty.num_rows = 1;
  Datum d = FLOE_TRY(eval_datum(expr, empty));
  if (d.col->length() < 1) return make_error(ErrorKind::kInternal, "constant gave no value");
  if (d.col->is_null(0)) return Literal::null(expr.type);
  return d.col->literal_at(0);
}

}  // namespace floe::sql
