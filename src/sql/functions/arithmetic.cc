// Arithmetic and comparison operators, math functions and NULL handling.
#include <algorithm>

#include "sql/functions/function_internal.h"

namespace floe::sql::internal {

namespace {

// ----- binding helpers --------------------------------------------------------------------------

Status coerce_all(BindCtx& c, const TypePtr& t) {
  for (auto& a : c.args) a = FLOE_TRY(coerce(a, t));
  return Status::OK();
}

Status coerce_at(BindCtx& c, size_t i, const TypePtr& t) {
  c.args[i] = FLOE_TRY(coerce(c.args[i], t));
  return Status::OK();
}

// Arguments of string or unknown type in arithmetic become double (Spark).
TypePtr arith_operand(const TypePtr& t) {
  if (t->id() == TypeId::kString) return Type::float64();
  return t;
}

TypePtr remainder_decimal_type(const Type& a, const Type& b) {
  int scale = std::max(a.scale(), b.scale());
  int precision = std::min(a.precision() - a.scale(), b.precision() - b.scale()) + scale;
  return Type::decimal(std::min(std::max(precision, 1), 38), scale);
}

Status bind_arith_op(BindCtx& c, std::string_view op) {
  TypePtr a = arith_operand(c.args[0]->type), b = arith_operand(c.args[1]->type);
  TypeId x = a->id(), y = b->id();
  // Date arithmetic on the int32 day number: date + int, int + date, date - int, date - date.
  if ((op == "+" || op == "-") && x == TypeId::kDate && (is_integral(y) || y == TypeId::kUnknown)) {
    FLOE_TRY(coerce_at(c, 1, Type::int32()));
    c.type = Type::date();
    return Status::OK();
  }
  if (op == "+" && y == TypeId::kDate && is_integral(x)) {
    FLOE_TRY(coerce_at(c, 0, Type::int32()));
    c.type = Type::date();
    return Status::OK();
  }
  if (op == "-" && x == TypeId::kDate && y == TypeId::kDate) {
    c.type = Type::int32();
    return Status::OK();
  }
  if (x == TypeId::kUnknown && y == TypeId::kUnknown) a = b = Type::float64();
  if (x == TypeId::kUnknown) a = b;
  if (y == TypeId::kUnknown) b = a;
  x = a->id();
  y = b->id();
  if (!is_numeric(x) || !is_numeric(y)) {
    return invalid_argument("operator {} needs numbers", op);
  }
  bool dec = (x == TypeId::kDecimal || y == TypeId::kDecimal) && !is_floating(x) && !is_floating(y);
  if (op == "div") {
    if (dec) {
      // The exact decimal quotient, truncated to a long (1.5 div 0.5 = 3).
      FLOE_TRY(coerce_at(c, 0, decimal_for(a)));
      FLOE_TRY(coerce_at(c, 1, decimal_for(b)));
    } else {
      FLOE_TRY(coerce_all(c, Type::int64()));
    }
    c.type = Type::int64();
    return Status::OK();
  }
  if (op == "/") {
    if (!dec) {
      FLOE_TRY(coerce_all(c, Type::float64()));
      c.type = Type::float64();
      return Status::OK();
    }
  }
  if (dec) {
    TypePtr da = decimal_for(a), db = decimal_for(b);
    FLOE_TRY(coerce_at(c, 0, da));
    FLOE_TRY(coerce_at(c, 1, db));
    if (op == "+" || op == "-") {
      c.type = decimal_add_type(*da, *db);
    } else if (op == "*") {
      c.type = decimal_multiply_type(*da, *db);
    } else if (op == "/") {
      c.type = decimal_divide_type(*da, *db);
    } else {
      c.type = remainder_decimal_type(*da, *db);
    }
    return Status::OK();
  }
  TypePtr t = FLOE_TRY(numeric_wider(a, b));
  FLOE_TRY(coerce_all(c, t));
  c.type = t;
  return Status::OK();
}

// ----- arithmetic kernels -----------------------------------------------------------------------

enum class Op : uint8_t { kAdd, kSub, kMul, kDiv, kRem, kIntDiv, kPmod };

Op op_of(const std::string& name) {
  if (name == "+") return Op::kAdd;
  if (name == "-") return Op::kSub;
  if (name == "*") return Op::kMul;
  if (name == "/") return Op::kDiv;
  if (name == "div") return Op::kIntDiv;
  if (name == "pmod") return Op::kPmod;
  return Op::kRem;
}

template <typename T>
Datum int_arith(const BoundExpr& e, const Datum& a, const Datum& b, int64_t n, Op op) {
  using U = std::make_unsigned_t<T>;
  bool sc = a.scalar && b.scalar;
  int64_t m = sc ? 1 : n;
  FixedReader<T> ra(a), rb(b);
  auto run = [&](auto f) { return kernel<T>(e.type, m, sc, f, ra, rb); };
  switch (op) {
    case Op::kAdd:
      return run([](T* o, T x, T y) {
        *o = static_cast<T>(static_cast<U>(x) + static_cast<U>(y));
        return true;
      });
    case Op::kSub:
      return run([](T* o, T x, T y) {
        *o = static_cast<T>(static_cast<U>(x) - static_cast<U>(y));
        return true;
      });
    case Op::kMul:
      return run([](T* o, T x, T y) {
        *o = static_cast<T>(static_cast<U>(x) * static_cast<U>(y));
        return true;
      });
    case Op::kIntDiv:
      return run([](T* o, T x, T y) {
        if (y == 0) return false;
        *o = y == -1 ? static_cast<T>(U(0) - static_cast<U>(x)) : static_cast<T>(x / y);
        return true;
      });
    case Op::kPmod:
      return run([](T* o, T x, T y) {
        if (y == 0) return false;
        T r = y == -1 ? 0 : static_cast<T>(x % y);
        if (r < 0) r = static_cast<T>(y < 0 ? r - y : r + y);
        *o = r;
        return true;
      });
    default:
      return run([](T* o, T x, T y) {
        if (y == 0) return false;
        *o = y == -1 ? 0 : static_cast<T>(x % y);
        return true;
      });
  }
}

template <typename T>
Datum float_arith(const BoundExpr& e, const Datum& a, const Datum& b, int64_t n, Op op) {
  bool sc = a.scalar && b.scalar;
  int64_t m = sc ? 1 : n;
  FixedReader<T> ra(a), rb(b);
  auto run = [&](auto f) { return kernel<T>(e.type, m, sc, f, ra, rb); };
  switch (op) {
    case Op::kAdd:
      return run([](T* o, T x, T y) { return *o = x + y, true; });
    case Op::kSub:
      return run([](T* o, T x, T y) { return *o = x - y, true; });
    case Op::kMul:
      return run([](T* o, T x, T y) { return *o = x * y, true; });
    case Op::kDiv:
      return run([](T* o, T x, T y) {
        if (y == 0) return false;
        *o = x / y;
        return true;
      });
    case Op::kPmod:
      return run([](T* o, T x, T y) {
        if (y == 0) return false;
        T r = std::fmod(x, y);
        if (r < 0) r = y < 0 ? r - y : r + y;
        *o = r;
        return true;
      });
    default:
      return run([](T* o, T x, T y) {
        if (y == 0) return false;
        *o = std::fmod(x, y);
        return true;
      });
  }
}

Datum decimal_arith(const BoundExpr& e, const Datum& a, const Datum& b, int64_t n, Op op) {
  bool sc = a.scalar && b.scalar;
  int64_t m = sc ? 1 : n;
  FixedReader<int128> ra(a), rb(b);
  int sa = e.args[0]->type->scale(), sb = e.args[1]->type->scale();
  int sr = e.type->scale(), pr = e.type->precision();
  int s = std::max(sa, sb);
  auto finish = [pr, sr](int128 v, int scale, int128* o) {
    return rescale_decimal(v, scale, sr, o) && fits_precision(*o, pr);
  };
  auto run = [&](auto f) { return kernel<int128>(e.type, m, sc, f, ra, rb); };
  switch (op) {
    case Op::kAdd:
    case Op::kSub: {
      bool sub = op == Op::kSub;
      return run([=](int128* o, int128 x, int128 y) {
        int128 xs, ys, r;
        if (!rescale_decimal(x, sa, s, &xs) || !rescale_decimal(y, sb, s, &ys)) return false;
        if (sub ? __builtin_sub_overflow(xs, ys, &r) : __builtin_add_overflow(xs, ys, &r)) {
          return false;
        }
        return finish(r, s, o);
      });
    }
    case Op::kMul:
      return run([=](int128* o, int128 x, int128 y) {
        int128 r;
        if (__builtin_mul_overflow(x, y, &r)) return false;
        return finish(r, sa + sb, o);
      });
    case Op::kDiv:
      return run([=](int128* o, int128 x, int128 y) {
        if (y == 0) return false;
        // x/10^sa / (y/10^sb) at scale sr: x * 10^(sr - sa + sb) / y.
        int k = sr - sa + sb;
        int128 num = x, den = y;
        if (k >= 0) {
          if (k > 38 || __builtin_mul_overflow(x, pow10_128(k), &num)) return false;
        } else {
          if (-k > 38 || __builtin_mul_overflow(y, pow10_128(-k), &den)) return false;
        }
        *o = div_half_up(num, den);
        return fits_precision(*o, pr);
      });
    default: {
      bool positive = op == Op::kPmod;
      return run([=](int128* o, int128 x, int128 y) {
        int128 xs, ys;
        if (!rescale_decimal(x, sa, s, &xs) || !rescale_decimal(y, sb, s, &ys)) return false;
        if (ys == 0) return false;
        int128 r = xs % ys;
        if (positive && r < 0) r = ys < 0 ? r - ys : r + ys;
        return finish(r, s, o);
      });
    }
  }
}

Datum decimal_int_div(const BoundExpr& e, const Datum& a, const Datum& b, int64_t n) {
  bool sc = a.scalar && b.scalar;
  FixedReader<int128> ra(a), rb(b);
  int sa = e.args[0]->type->scale(), sb = e.args[1]->type->scale();
  int s = std::max(sa, sb);
  return kernel<int64_t>(
      e.type, sc ? 1 : n, sc,
      [=](int64_t* o, int128 x, int128 y) {
        int128 xs, ys;
        if (!rescale_decimal(x, sa, s, &xs) || !rescale_decimal(y, sb, s, &ys) || ys == 0) {
          return false;
        }
        *o = static_cast<int64_t>(xs / ys);
        return true;
      },
      ra, rb);
}

Result<Datum> eval_arith(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  Op op = op_of(e.name);
  if (op == Op::kIntDiv && e.args[0]->type->id() == TypeId::kDecimal) {
    return decimal_int_div(e, args[0], args[1], n);
  }
  TypeId t = e.args[0]->type->id();
  if (e.type->id() == TypeId::kDate || t == TypeId::kDate) {
    return int_arith<int32_t>(e, args[0], args[1], n, op);
  }
  switch (phys_of(e.args[0]->type->id())) {
    case Phys::kI32:
      return int_arith<int32_t>(e, args[0], args[1], n, op);
    case Phys::kI64:
      return int_arith<int64_t>(e, args[0], args[1], n, op);
    case Phys::kF32:
      return float_arith<float>(e, args[0], args[1], n, op);
    case Phys::kF64:
      return float_arith<double>(e, args[0], args[1], n, op);
    case Phys::kI128:
      return decimal_arith(e, args[0], args[1], n, op);
    default:
      return invalid_argument("operator {} over {}", e.name, e.args[0]->type->to_string());
  }
}

Status bind_arith(BindCtx& c) { return bind_arith_op(c, c.name); }

// mod/pmod are % with a function name.
Status bind_mod(BindCtx& c) { return bind_arith_op(c, "%"); }

Status bind_unary_numeric(BindCtx& c) {
  TypePtr t = arith_operand(c.args[0]->type);
  if (t->id() == TypeId::kUnknown) t = Type::float64();
  if (!is_numeric(t->id())) return invalid_argument("needs a number");
  FLOE_TRY(coerce_at(c, 0, t));
  c.type = t;
  return Status::OK();
}

template <typename F>
Datum map_numeric(const BoundExpr& e, const Datum& a, int64_t n, F f) {
  int64_t m = a.scalar ? 1 : n;
  return visit_fixed(phys_of(e.type->id()), [&](auto tag) -> Datum {
    using T = decltype(tag);
    FixedReader<T> r(a);
    return kernel<T>(
        e.type, m, a.scalar, [&](T* o, T x) { return f(o, x); }, r);
  });
}

Result<Datum> eval_negate(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  return map_numeric(e, args[0], n, [](auto* o, auto x) {
    using T = std::remove_pointer_t<decltype(o)>;
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      *o = static_cast<T>(U(0) - static_cast<U>(x));
    } else if constexpr (std::is_same_v<T, int128>) {
      *o = -x;
    } else {
      *o = -x;
    }
    return true;
  });
}

Result<Datum> eval_pos(const BoundExpr&, std::vector<Datum>& args, int64_t) { return args[0]; }

Result<Datum> eval_abs(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  return map_numeric(e, args[0], n, [](auto* o, auto x) {
    using T = std::remove_pointer_t<decltype(o)>;
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      *o = x < 0 ? static_cast<T>(U(0) - static_cast<U>(x)) : x;
    } else if constexpr (std::is_floating_point_v<T>) {
      *o = std::fabs(x);
    } else {
      *o = x < 0 ? -x : x;
    }
    return true;
  });
}

// ----- comparisons -----------------------------------------------------------------------------

enum class Cmp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };

template <typename T>
int compare3(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a < b) return -1;
    if (a > b) return 1;
    if (a == b) return 0;
    bool na = std::isnan(a), nb = std::isnan(b);
    return na && nb ? 0 : na ? 1 : -1;
  } else if constexpr (std::is_same_v<T, std::string_view>) {
    int c = a.compare(b);
    return c < 0 ? -1 : c > 0 ? 1 : 0;
  } else {
    return a < b ? -1 : a > b ? 1 : 0;
  }
}

template <Cmp C>
bool test(int c) {
  switch (C) {
    case Cmp::kEq:
      return c == 0;
    case Cmp::kNe:
      return c != 0;
    case Cmp::kLt:
      return c < 0;
    case Cmp::kLe:
      return c <= 0;
    case Cmp::kGt:
      return c > 0;
    default:
      return c >= 0;
  }
}

template <typename Reader, Cmp C>
Datum compare_kernel(const Datum& a, const Datum& b, int64_t n) {
  bool sc = a.scalar && b.scalar;
  int64_t m = sc ? 1 : n;
  Reader ra(a), rb(b);
  return kernel<uint8_t>(
      Type::boolean(), m, sc,
      [](uint8_t* o, auto x, auto y) {
        *o = test<C>(compare3(x, y));
        return true;
      },
      ra, rb);
}

template <typename Reader>
Datum compare_dispatch(Cmp c, const Datum& a, const Datum& b, int64_t n) {
  switch (c) {
    case Cmp::kEq:
      return compare_kernel<Reader, Cmp::kEq>(a, b, n);
    case Cmp::kNe:
      return compare_kernel<Reader, Cmp::kNe>(a, b, n);
    case Cmp::kLt:
      return compare_kernel<Reader, Cmp::kLt>(a, b, n);
    case Cmp::kLe:
      return compare_kernel<Reader, Cmp::kLe>(a, b, n);
    case Cmp::kGt:
      return compare_kernel<Reader, Cmp::kGt>(a, b, n);
    default:
      return compare_kernel<Reader, Cmp::kGe>(a, b, n);
  }
}

Cmp cmp_of(const std::string& name) {
  if (name == "=") return Cmp::kEq;
  if (name == "!=") return Cmp::kNe;
  if (name == "<") return Cmp::kLt;
  if (name == "<=") return Cmp::kLe;
  if (name == ">") return Cmp::kGt;
  return Cmp::kGe;
}

Status bind_compare(BindCtx& c) {
  TypePtr t = FLOE_TRY(comparison_type(c.args[0]->type, c.args[1]->type));
  if (t->id() == TypeId::kUnknown) t = Type::boolean();
  if (t->is_nested()) return invalid_argument("cannot compare {} values", t->to_string());
  FLOE_TRY(coerce_all(c, t));
  c.type = Type::boolean();
  return Status::OK();
}

Result<Datum> eval_compare(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  Phys p = phys_of(e.args[0]->type->id());
  Cmp c = cmp_of(e.name);
  if (p == Phys::kBytes) return compare_dispatch<BytesReader>(c, args[0], args[1], n);
  if (p == Phys::kNested || p == Phys::kNull) return null_scalar(Type::boolean());
  return visit_fixed(p, [&](auto tag) -> Datum {
    using T = decltype(tag);
    return compare_dispatch<FixedReader<T>>(c, args[0], args[1], n);
  });
}

template <typename Reader>
Datum null_safe_eq(const Datum& a, const Datum& b, int64_t n) {
  bool sc = a.scalar && b.scalar;
  int64_t m = sc ? 1 : n;
  Reader ra(a), rb(b);
  FixedWriter<uint8_t> w(Type::boolean(), m);
  for (int64_t i = 0; i < m; ++i) {
    bool va = ra.valid(i), vb = rb.valid(i);
    w.data[i] = (!va && !vb) || (va && vb && compare3(ra[i], rb[i]) == 0);
  }
  return {w.finish(m), sc};
}

Result<Datum> eval_null_safe_eq(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  Phys p = phys_of(e.args[0]->type->id());
  if (p == Phys::kBytes) return null_safe_eq<BytesReader>(args[0], args[1], n);
  if (p == Phys::kNull) {
    FixedWriter<uint8_t> w(Type::boolean(), 1);
    w.data[0] = 1;
    return Datum{w.finish(1), true};
  }
  if (p == Phys::kNested) return not_supported("<=> over nested values");
  return visit_fixed(p, [&](auto tag) -> Datum {
    using T = decltype(tag);
    return null_safe_eq<FixedReader<T>>(args[0], args[1], n);
  });
}

// ----- math --------------------------------------------------------------------------------

Status bind_double1(BindCtx& c) {
  FLOE_TRY(coerce_all(c, Type::float64()));
  c.type = Type::float64();
  return Status::OK();
}

using D1 = double (*)(double);
template <D1 F, bool kPositiveOnly = false>
Result<Datum> eval_double1(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  FixedReader<double> r(args[0]);
  int64_t m = args[0].scalar ? 1 : n;
  return kernel<double>(
      e.type, m, args[0].scalar,
      [](double* o, double x) {
        if (kPositiveOnly && x <= 0) return false;
        *o = F(x);
        return true;
      },
      r);
}

double d_sqrt(double x) { return std::sqrt(x); }
double d_cbrt(double x) { return std::cbrt(x); }
double d_exp(double x) { return std::exp(x); }
double d_ln(double x) { return std::log(x); }
double d_log10(double x) { return std::log10(x); }
double d_log2(double x) { return std::log2(x); }
double d_sin(double x) { return std::sin(x); }
double d_cos(double x) { return std::cos(x); }
double d_tan(double x) { return std::tan(x); }
double d_asin(double x) { return std::asin(x); }
double d_acos(double x) { return std::acos(x); }
double d_atan(double x) { return std::atan(x); }
double d_degrees(double x) { return x * 180.0 / M_PI; }
double d_radians(double x) { return x * M_PI / 180.0; }
double d_sign(double x) { return std::isnan(x) ? x : x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }

using D2 = double (*)(double, double);
template <D2 F>
Result<Datum> eval_double2(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  FixedReader<double> a(args[0]), b(args[1]);
  return kernel<double>(
      e.type, rows_for(args, n), all_scalar(args),
      [](double* o, double x, double y) {
        *o = F(x, y);
        return true;
      },
      a, b);
}
double d_pow(double x, double y) { return std::pow(x, y); }
double d_atan2(double x, double y) { return std::atan2(x, y); }

Result<Datum> eval_log(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  if (args.size() == 1) return eval_double1<d_ln, true>(e, args, n);
  FixedReader<double> a(args[0]), b(args[1]);
  return kernel<double>(
      e.type, rows_for(args, n), all_scalar(args),
      [](double* o, double base, double x) {
        if (base <= 0 || x <= 0) return false;
        *o = std::log(x) / std::log(base);
        return true;
      },
      a, b);
}

Status bind_constant(BindCtx& c) {
  c.type = Type::float64();
  c.state = std::make_shared<Literal>(Literal::float64(c.name == "pi" ? M_PI : M_E));
  return Status::OK();
}

// ceil/floor: double/float/integral -> long; decimal(p,s) -> decimal(p-s+1, 0).
Status bind_ceil_floor(BindCtx& c) {
  TypePtr t = arith_operand(c.args[0]->type);
  if (t->id() == TypeId::kUnknown) t = Type::float64();
  if (!is_numeric(t->id())) return invalid_argument("needs a number");
  if (t->id() == TypeId::kDecimal) {
    FLOE_TRY(coerce_at(c, 0, t));
    c.type = Type::decimal(std::min(38, std::max(1, t->precision() - t->scale() + 1)), 0);
    return Status::OK();
  }
  FLOE_TRY(coerce_at(c, 0, is_integral(t->id()) ? Type::int64() : Type::float64()));
  c.type = Type::int64();
  return Status::OK();
}

Result<Datum> eval_ceil_floor(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  bool ceil = e.name == "ceil" || e.name == "ceiling";
  int64_t m = args[0].scalar ? 1 : n;
  TypeId t = e.args[0]->type->id();
  if (t == TypeId::kLong) return args[0];
  if (t == TypeId::kDecimal) {
    FixedReader<int128> r(args[0]);
    int128 p = pow10_128(e.args[0]->type->scale());
    return kernel<int128>(
        e.type, m, args[0].scalar,
        [=](int128* o, int128 x) {
          int128 q = x / p, rem = x % p;
          if (rem != 0 && ceil && x > 0) ++q;
          if (rem != 0 && !ceil && x < 0) --q;
          *o = q;
          return true;
        },
        r);
  }
  FixedReader<double> r(args[0]);
  return kernel<int64_t>(
      e.type, m, args[0].scalar,
      [=](int64_t* o, double x) {
        double v = ceil ? std::ceil(x) : std::floor(x);
        if (std::isnan(v)) {
          *o = 0;
        } else if (v >= 9.2233720368547758e18) {
          *o = INT64_MAX;
        } else if (v <= -9.2233720368547758e18) {
          *o = INT64_MIN;
        } else {
          *o = static_cast<int64_t>(v);
        }
        return true;
      },
      r);
}

// round(x[, d]) / bround: d must be a constant integer.
Status bind_round(BindCtx& c) {
  int32_t d = 0;
  if (c.args.size() == 2) {
    const auto& s = c.args[1];
    if (!s->is_literal() || !is_integral(s->type->id())) {
      return invalid_argument("the scale must be a constant integer");
    }
    if (s->value.is_null()) return invalid_argument("the scale must not be NULL");
    d = static_cast<int32_t>(s->value.as_int64());
  }
  TypePtr t = arith_operand(c.args[0]->type);
  if (t->id() == TypeId::kUnknown) t = Type::float64();
  if (!is_numeric(t->id())) return invalid_argument("needs a number");
  FLOE_TRY(coerce_at(c, 0, t));
  if (t->id() == TypeId::kDecimal) {
    int p = t->precision(), s = t->scale();
    int integral = p - s + 1;
    if (d < 0) {
      c.type = Type::decimal(std::min(38, std::max(integral, -d + 1)), 0);
    } else {
      int ns = std::min(s, d);
      c.type = Type::decimal(std::min(38, integral + ns), ns);
    }
  } else {
    c.type = t;
  }
  c.state = std::make_shared<int32_t>(d);
  return Status::OK();
}

int128 div_half_even(int128 a, int128 b) {
  int128 q = a / b, r = a % b;
  if (r == 0) return q;
  int128 ar = r < 0 ? -r : r, ab = b < 0 ? -b : b;
  int128 twice = ar * 2;
  bool away = twice > ab || (twice == ab && (q % 2 != 0));
  if (away) q += ((a < 0) == (b < 0)) ? 1 : -1;
  return q;
}

// HALF_UP / HALF_EVEN on the double's shortest decimal representation, as BigDecimal(d).
double round_double(double x, int d, bool even) {
  if (!std::isfinite(x)) return x;
  char buf[64];
  // Shortest digits, then mantissa/exponent.
  auto r2 = fmt::format_to_n(buf, sizeof(buf) - 1, "{}", x);
  *r2.out = '\0';
  int128 digits = 0;
  int exp = 0;
  bool neg = false, frac = false;
  const char* p = buf;
  if (*p == '-') {
    neg = true;
    ++p;
  }
  for (; *p && *p != 'e'; ++p) {
    if (*p == '.') {
      frac = true;
      continue;
    }
    digits = digits * 10 + (*p - '0');
    if (frac) --exp;
  }
  if (*p == 'e') exp += std::atoi(p + 1);
  if (exp >= -d) return x;
  int shift = -d - exp;
  if (shift > 38) return neg ? -0.0 : 0.0;
  int128 q = even ? div_half_even(digits, pow10_128(shift)) : div_half_up(digits, pow10_128(shift));
  char out[64];
  std::string qs;
  int128 t = q;
  do {
    qs.insert(qs.begin(), static_cast<char>('0' + static_cast<int>(t % 10)));
    t /= 10;
  } while (t);
  auto r3 = fmt::format_to_n(out, sizeof(out) - 1, "{}{}e{}", neg ? "-" : "", qs, -d);
  *r3.out = '\0';
  return std::strtod(out, nullptr);
}

Result<Datum> eval_round(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int32_t d = *std::static_pointer_cast<const int32_t>(e.state);
  bool even = e.name == "bround";
  int64_t m = args[0].scalar ? 1 : n;
  bool sc = args[0].scalar;
  TypeId t = e.args[0]->type->id();
  switch (t) {
    case TypeId::kDouble:
    case TypeId::kFloat: {
      if (t == TypeId::kDouble) {
        FixedReader<double> r(args[0]);
        return kernel<double>(
            e.type, m, sc, [=](double* o, double x) { return *o = round_double(x, d, even), true; },
            r);
      }
      FixedReader<float> r(args[0]);
      return kernel<float>(
          e.type, m, sc,
          [=](float* o, float x) {
            *o = static_cast<float>(round_double(static_cast<double>(x), d, even));
            return true;
          },
          r);
    }
    case TypeId::kInt:
    case TypeId::kLong: {
      auto go = [&](auto tag) -> Datum {
        using T = decltype(tag);
        FixedReader<T> r(args[0]);
        return kernel<T>(
            e.type, m, sc,
            [=](T* o, T x) {
              if (d >= 0) return *o = x, true;
              if (-d > 18) return *o = 0, true;
              int128 p = pow10_128(-d);
              int128 q = even ? div_half_even(x, p) : div_half_up(x, p);
              *o = static_cast<T>(static_cast<int64_t>(q * p));
              return true;
            },
            r);
      };
      return t == TypeId::kInt ? go(int32_t{}) : go(int64_t{});
    }
    case TypeId::kDecimal: {
      int s = e.args[0]->type->scale(), pr = e.type->precision(), sr = e.type->scale();
      FixedReader<int128> r(args[0]);
      return kernel<int128>(
          e.type, m, sc,
          [=](int128* o, int128 x) {
            int drop = s - (d < 0 ? 0 : std::min(s, d)) + (d < 0 ? -d : 0);
            if (drop > 38) {
              *o = 0;
              return true;
            }
            int128 p = pow10_128(drop);
            int128 q = drop == 0 ? x : (even ? div_half_even(x, p) : div_half_up(x, p));
            if (d < 0) {
              if (__builtin_mul_overflow(q, pow10_128(-d), &q)) return false;
            }
            *o = q;
            (void)sr;
            return fits_precision(q, pr);
          },
          r);
    }
    default:
      return invalid_argument("round over {}", e.args[0]->type->to_string());
  }
}

// ----- greatest / least / NULL handling ----------------------------------------------------------

Status bind_common(BindCtx& c) {
  TypePtr t = Type::unknown();
  for (const auto& a : c.args) t = FLOE_TRY(common_type(t, a->type));
  FLOE_TRY(coerce_all(c, t));
  c.type = t;
  return Status::OK();
}

template <typename Reader>
void pick_extreme(const std::vector<Datum>& args, bool greatest, int64_t m, int32_t* choice) {
  std::vector<Reader> rs;
  for (const auto& a : args) rs.emplace_back(a);
  for (int64_t i = 0; i < m; ++i) {
    int32_t best = -1;
    for (size_t k = 0; k < rs.size(); ++k) {
      if (!rs[k].valid(i)) continue;
      if (best < 0) {
        best = static_cast<int32_t>(k);
        continue;
      }
      int c = compare3(rs[k][i], rs[best][i]);
      if (greatest ? c > 0 : c < 0) best = static_cast<int32_t>(k);
    }
    choice[i] = best;
  }
}

Result<Datum> eval_greatest(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = rows_for(args, n);
  std::vector<int32_t> choice(static_cast<size_t>(m), -1);
  bool greatest = e.name == "greatest";
  Phys p = phys_of(e.type->id());
  if (p == Phys::kBytes) {
    pick_extreme<BytesReader>(args, greatest, m, choice.data());
  } else if (p == Phys::kNested) {
    return not_supported("{} over {}", e.name, e.type->to_string());
  } else if (p != Phys::kNull) {
    visit_fixed(p, [&](auto tag) {
      using T = decltype(tag);
      pick_extreme<FixedReader<T>>(args, greatest, m, choice.data());
    });
  }
  return Datum{select_rows(e.type, args, choice.data(), m), all_scalar(args)};
}

Result<Datum> eval_coalesce(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = rows_for(args, n);
  std::vector<int32_t> choice(static_cast<size_t>(m), -1);
  for (int64_t i = 0; i < m; ++i) {
    for (size_t k = 0; k < args.size(); ++k) {
      if (datum_valid(args[k], i)) {
        choice[i] = static_cast<int32_t>(k);
        break;
      }
    }
  }
  return Datum{select_rows(e.type, args, choice.data(), m), all_scalar(args)};
}

Status bind_if(BindCtx& c) {
  FLOE_TRY(coerce_at(c, 0, Type::boolean()));
  TypePtr t = FLOE_TRY(common_type(c.args[1]->type, c.args[2]->type));
  FLOE_TRY(coerce_at(c, 1, t));
  FLOE_TRY(coerce_at(c, 2, t));
  c.type = t;
  return Status::OK();
}

Result<Datum> eval_if(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = rows_for(args, n);
  std::vector<int32_t> choice(static_cast<size_t>(m));
  FixedReader<uint8_t> c(args[0]);
  for (int64_t i = 0; i < m; ++i) choice[i] = c.valid(i) && c[i] ? 0 : 1;
  std::vector<Datum> values{args[1], args[2]};
  return Datum{select_rows(e.type, values, choice.data(), m), all_scalar(args)};
}

Status bind_nvl2(BindCtx& c) {
  TypePtr t = FLOE_TRY(common_type(c.args[1]->type, c.args[2]->type));
  FLOE_TRY(coerce_at(c, 1, t));
  FLOE_TRY(coerce_at(c, 2, t));
  c.type = t;
  return Status::OK();
}

Result<Datum> eval_nvl2(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = rows_for(args, n);
  std::vector<int32_t> choice(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; ++i) choice[i] = datum_valid(args[0], i) ? 0 : 1;
  std::vector<Datum> values{args[1], args[2]};
  return Datum{select_rows(e.type, values, choice.data(), m), all_scalar(args)};
}

Status bind_nullif(BindCtx& c) {
  TypePtr t = FLOE_TRY(comparison_type(c.args[0]->type, c.args[1]->type));
  if (t->is_nested()) return invalid_argument("cannot compare {} values", t->to_string());
  FLOE_TRY(coerce_all(c, t));
  c.type = t;
  return Status::OK();
}

Result<Datum> eval_nullif(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = rows_for(args, n);
  Phys p = phys_of(e.type->id());
  Datum eq;
  if (p == Phys::kBytes) {
    eq = compare_dispatch<BytesReader>(Cmp::kEq, args[0], args[1], n);
  } else if (p == Phys::kNull) {
    return args[0];
  } else {
    eq = visit_fixed(p, [&](auto tag) -> Datum {
      using T = decltype(tag);
      return compare_dispatch<FixedReader<T>>(Cmp::kEq, args[0], args[1], n);
    });
  }
  FixedReader<uint8_t> r(eq);
  std::vector<int32_t> choice(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; ++i) choice[i] = r.valid(i) && r[i] ? -1 : 0;
  std::vector<Datum> values{args[0]};
  return Datum{select_rows(e.type, values, choice.data(), m), all_scalar(args)};
}

Status bind_isnull_fn(BindCtx& c) {
  c.type = Type::boolean();
  return Status::OK();
}

Result<Datum> eval_isnull_fn(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = args[0].scalar ? 1 : n;
  FixedWriter<uint8_t> w(Type::boolean(), m);
  bool want_null = e.name == "isnull";
  for (int64_t i = 0; i < m; ++i) w.data[i] = datum_valid(args[0], i) != want_null;
  return Datum{w.finish(m), args[0].scalar};
}

Result<Datum> eval_nanvl(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = rows_for(args, n);
  FixedReader<double> a(args[0]);
  std::vector<int32_t> choice(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; ++i) choice[i] = a.valid(i) && std::isnan(a[i]) ? 1 : 0;
  return Datum{select_rows(e.type, args, choice.data(), m), all_scalar(args)};
}

}  // namespace

void register_arith_functions(std::vector<FunctionDef>* defs) {
  for (const char* op : {"+", "-", "*", "/", "%", "div"}) {
    defs->push_back({op, 2, 2, bind_arith, eval_arith});
  }
  defs->push_back({"mod", 2, 2, bind_mod, eval_arith});
  defs->push_back({"pmod", 2, 2, bind_mod, eval_arith});
  defs->push_back({"negate", 1, 1, bind_unary_numeric, eval_negate});
  defs->push_back({"pos", 1, 1, bind_unary_numeric, eval_pos});
  defs->push_back({"positive", 1, 1, bind_unary_numeric, eval_pos});
  defs->push_back({"abs", 1, 1, bind_unary_numeric, eval_abs});
  for (const char* op : {"=", "!=", "<", "<=", ">", ">="}) {
    defs->push_back({op, 2, 2, bind_compare, eval_compare});
  }
  defs->push_back({"<=>", 2, 2, bind_compare, eval_null_safe_eq});
  defs->push_back({"sqrt", 1, 1, bind_double1, eval_double1<d_sqrt>});
  defs->push_back({"cbrt", 1, 1, bind_double1, eval_double1<d_cbrt>});
  defs->push_back({"exp", 1, 1, bind_double1, eval_double1<d_exp>});
  defs->push_back({"ln", 1, 1, bind_double1, eval_double1<d_ln, true>});
  defs->push_back({"log", 1, 2, bind_double1, eval_log});
  defs->push_back({"log10", 1, 1, bind_double1, eval_double1<d_log10, true>});
  defs->push_back({"log2", 1, 1, bind_double1, eval_double1<d_log2, true>});
  defs->push_back({"sin", 1, 1, bind_double1, eval_double1<d_sin>});
  defs->push_back({"cos", 1, 1, bind_double1, eval_double1<d_cos>});
  defs->push_back({"tan", 1, 1, bind_double1, eval_double1<d_tan>});
  defs->push_back({"asin", 1, 1, bind_double1, eval_double1<d_asin>});
  defs->push_back({"acos", 1, 1, bind_double1, eval_double1<d_acos>});
  defs->push_back({"atan", 1, 1, bind_double1, eval_double1<d_atan>});
  defs->push_back({"degrees", 1, 1, bind_double1, eval_double1<d_degrees>});
  defs->push_back({"radians", 1, 1, bind_double1, eval_double1<d_radians>});
  defs->push_back({"sign", 1, 1, bind_double1, eval_double1<d_sign>});
  defs->push_back({"signum", 1, 1, bind_double1, eval_double1<d_sign>});
  defs->push_back({"pow", 2, 2, bind_double1, eval_double2<d_pow>});
  defs->push_back({"power", 2, 2, bind_double1, eval_double2<d_pow>});
  defs->push_back({"atan2", 2, 2, bind_double1, eval_double2<d_atan2>});
  defs->push_back({"pi", 0, 0, bind_constant, nullptr});
  defs->push_back({"e", 0, 0, bind_constant, nullptr});
  defs->push_back({"ceil", 1, 1, bind_ceil_floor, eval_ceil_floor});
  defs->push_back({"ceiling", 1, 1, bind_ceil_floor, eval_ceil_floor});
  defs->push_back({"floor", 1, 1, bind_ceil_floor, eval_ceil_floor});
  defs->push_back({"round", 1, 2, bind_round, eval_round});
  defs->push_back({"bround", 1, 2, bind_round, eval_round});
  defs->push_back({"greatest", 1, -1, bind_common, eval_greatest});
  defs->push_back({"least", 1, -1, bind_common, eval_greatest});
  defs->push_back({"coalesce", 1, -1, bind_common, eval_coalesce});
  defs->push_back({"ifnull", 2, 2, bind_common, eval_coalesce});
  defs->push_back({"nvl", 2, 2, bind_common, eval_coalesce});
  defs->push_back({"nvl2", 3, 3, bind_nvl2, eval_nvl2});
  defs->push_back({"if", 3, 3, bind_if, eval_if});
  defs->push_back({"iff", 3, 3, bind_if, eval_if});
  defs->push_back({"nullif", 2, 2, bind_nullif, eval_nullif});
  defs->push_back({"isnull", 1, 1, bind_isnull_fn, eval_isnull_fn});
  defs->push_back({"isnotnull", 1, 1, bind_isnull_fn, eval_isnull_fn});
  defs->push_back({"nanvl", 2, 2, bind_double1, eval_nanvl});
}

}  // namespace floe::sql::internal
