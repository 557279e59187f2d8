// Bound scalar expressions: typing and implicit casts, every operator and function family over
// small batches with NULLs, casts, NaN and decimals, and the transform functions against floe's
// partition transforms.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <set>

#include "floe/spec/transform.h"
#include "floe/util/date_time_text.h"
#include "sql/exec/bound_expr_internal.h"
#include "sql/functions/function_internal.h"

namespace floe::sql {
namespace {

using internal::value_text;

NestedField field_of(int32_t id, const std::string& name, const TypePtr& type) {
  NestedField f;
  f.id = id;
  f.name = name;
  f.type = type;
  return f;
}

ColumnPtr make_col(const TypePtr& t, const std::vector<Literal>& values) {
  auto c = ColumnVector::make(t);
  for (const auto& v : values) EXPECT_TRUE(c->append_literal(v).ok());
  return c;
}

// One row per value; NULL as Literal::null(type).
struct TestBatch {
  ColumnBatch batch;
  std::vector<std::string> names;
  void add(const std::string& name, const TypePtr& t, const std::vector<Literal>& values) {
    batch.fields.push_back(field_of(static_cast<int32_t>(names.size() + 1), name, t));
    batch.columns.push_back(make_col(t, values));
    batch.num_rows = static_cast<int64_t>(values.size());
    names.push_back(name);
  }
  BoundExprPtr operator[](const std::string& name) const {
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] == name) return *column(static_cast<int>(i), batch.fields[i].type);
    }
    ADD_FAILURE() << "no column " << name;
    return nullptr;
  }
};

Literal null_of(const TypePtr& t) { return Literal::null(t); }
Literal I(int32_t v) { return Literal::int32(v); }
Literal Lg(int64_t v) { return Literal::int64(v); }
Literal D(double v) { return Literal::float64(v); }
Literal S(std::string v) { return Literal::string(std::move(v)); }
Literal Dec(int128_t v, int p, int s) { return Literal::decimal(v, p, s); }
Literal Dt(const char* text) { return Literal::date(*parse_date(text)); }
Literal Ts(const char* text) { return Literal::timestamp(*parse_timestamp(text, false)); }

BoundExprPtr lit(Literal v) {
  auto r = literal(std::move(v));
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  return *r;
}
BoundExprPtr NUL() { return lit(Literal::null(Type::unknown())); }

BoundExprPtr fn(std::string_view name, std::vector<BoundExprPtr> args) {
  auto r = call(name, std::move(args));
  EXPECT_TRUE(r.ok()) << name << ": " << r.status().to_string();
  return r.ok() ? *r : nullptr;
}

BoundExprPtr ok(Result<BoundExprPtr> r) {
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  return r.ok() ? *r : nullptr;
}

// Rows joined by '|', NULL for nulls, values as CAST(x AS STRING).
std::string show(const ColumnVector& c) {
  std::string out;
  for (int64_t i = 0; i < c.length(); ++i) {
    if (i) out += "|";
    if (c.is_null(i)) {
      out += "NULL";
    } else {
      value_text(c, i, &out);
    }
  }
  return out;
}

std::string run(const BoundExprPtr& e, const ColumnBatch& b) {
  if (!e) return "<unbound>";
  auto r = evaluate(*e, b);
  if (!r.ok()) return "error: " + r.status().message();
  EXPECT_EQ((*r)->length(), b.num_rows);
  EXPECT_TRUE(same_type((*r)->type(), e->type))
      << (*r)->type()->to_string() << " vs " << e->type->to_string();
  return show(**r);
}

// A constant expression on a one-row batch.
std::string run1(const BoundExprPtr& e) {
  ColumnBatch b;
  b.num_rows = 1;
  return run(e, b);
}

std::string type_of(const BoundExprPtr& e) { return e ? e->type->to_string() : "<unbound>"; }

// ----- arithmetic -------------------------------------------------------------------------------

TEST(BoundExprArith, IntegersWrapAndDivideToDouble) {
  TestBatch t;
  t.add("a", Type::int32(), {I(1), I(7), null_of(Type::int32()), I(INT32_MAX), I(-7)});
  t.add("b", Type::int32(), {I(2), I(0), I(3), I(1), I(2)});
  EXPECT_EQ(run(fn("+", {t["a"], t["b"]}), t.batch), "3|7|NULL|-2147483648|-5");
  EXPECT_EQ(run(fn("-", {t["a"], t["b"]}), t.batch), "-1|7|NULL|2147483646|-9");
  EXPECT_EQ(run(fn("*", {t["a"], t["b"]}), t.batch), "2|0|NULL|2147483647|-14");
  auto div = fn("/", {t["a"], t["b"]});
  EXPECT_EQ(type_of(div), "double");
  EXPECT_EQ(run(div, t.batch), "0.5|NULL|NULL|2.147483647E9|-3.5");
  auto idiv = fn("DIV", {t["a"], t["b"]});
  EXPECT_EQ(type_of(idiv), "long");
  EXPECT_EQ(run(idiv, t.batch), "0|NULL|NULL|2147483647|-3");
  EXPECT_EQ(run(fn("%", {t["a"], t["b"]}), t.batch), "1|NULL|NULL|0|-1");
  EXPECT_EQ(run(fn("pmod", {t["a"], t["b"]}), t.batch), "1|NULL|NULL|0|1");
  EXPECT_EQ(run(fn("negate", {t["a"]}), t.batch), "-1|-7|NULL|-2147483647|7");
  EXPECT_EQ(run(fn("-", {t["a"]}), t.batch), "-1|-7|NULL|-2147483647|7");
}

TEST(BoundExprArith, LongOverflowWrapsAndMixedTypesWiden) {
  TestBatch t;
  t.add("l", Type::int64(), {Lg(INT64_MAX), Lg(-3)});
  t.add("i", Type::int32(), {I(1), I(2)});
  auto sum = fn("+", {t["l"], t["i"]});
  EXPECT_EQ(type_of(sum), "long");
  EXPECT_EQ(run(sum, t.batch), "-9223372036854775808|-1");
  auto mixed = fn("*", {t["i"], lit(D(1.5))});
  EXPECT_EQ(type_of(mixed), "double");
  EXPECT_EQ(run(mixed, t.batch), "1.5|3.0");
  // A string operand becomes a double.
  EXPECT_EQ(run(fn("+", {t["i"], lit(S("0.5"))}), t.batch), "1.5|2.5");
  EXPECT_EQ(abs(INT32_MIN), INT32_MIN);
  EXPECT_EQ(run1(fn("abs", {lit(I(INT32_MIN))})), "-2147483648");
}

TEST(BoundExprArith, DecimalResultTypesFollowSpark) {
  auto a = Type::decimal(10, 2), b = Type::decimal(5, 3);
  EXPECT_EQ(decimal_add_type(*a, *b)->to_string(), "decimal(12, 3)");
  EXPECT_EQ(decimal_multiply_type(*a, *b)->to_string(), "decimal(16, 5)");
  EXPECT_EQ(decimal_divide_type(*a, *b)->to_string(), "decimal(19, 8)");
  // Capped at 38 with the scale reduced but kept at >= 6.
  auto big = Type::decimal(38, 10);
  EXPECT_EQ(decimal_add_type(*big, *big)->to_string(), "decimal(38, 9)");
  EXPECT_EQ(decimal_multiply_type(*big, *big)->to_string(), "decimal(38, 6)");
  EXPECT_EQ(decimal_add_type(*Type::int32(), *Type::decimal(5, 2))->to_string(), "decimal(13, 2)");
}

TEST(BoundExprArith, DecimalValues) {
  TestBatch t;
  t.add("a", Type::decimal(10, 2),
        {Dec(100, 10, 2), Dec(-1234, 10, 2), null_of(Type::decimal(10, 2))});
  t.add("b", Type::decimal(5, 3), {Dec(3000, 5, 3), Dec(500, 5, 3), Dec(1, 5, 3)});
  auto sum = fn("+", {t["a"], t["b"]});
  EXPECT_EQ(type_of(sum), "decimal(12, 3)");
  EXPECT_EQ(run(sum, t.batch), "4.000|-11.840|NULL");
  auto prod = fn("*", {t["a"], t["b"]});
  EXPECT_EQ(run(prod, t.batch), "3.00000|-6.17000|NULL");
  auto quot = fn("/", {t["a"], t["b"]});
  EXPECT_EQ(type_of(quot), "decimal(19, 8)");
  EXPECT_EQ(run(quot, t.batch), "0.33333333|-24.68000000|NULL");
  EXPECT_EQ(run(fn("%", {t["a"], t["b"]}), t.batch), "1.000|-0.340|NULL");
  // decimal with int -> decimal; decimal with double -> double.
  EXPECT_EQ(type_of(fn("+", {t["a"], lit(I(1))})), "decimal(13, 2)");
  EXPECT_EQ(type_of(fn("+", {t["a"], lit(D(1))})), "double");
  EXPECT_EQ(run(fn("+", {t["a"], lit(I(1))}), t.batch), "2.00|-11.34|NULL");
  // Division by zero is NULL.
  EXPECT_EQ(run1(fn("/", {lit(Dec(100, 5, 2)), lit(Dec(0, 5, 2))})), "NULL");
}

TEST(BoundExprArith, DateArithmetic) {
  TestBatch t;
  t.add("d", Type::date(), {Dt("2024-02-28"), Dt("2024-12-31")});
  auto plus = fn("+", {t["d"], lit(I(2))});
  EXPECT_EQ(type_of(plus), "date");
  EXPECT_EQ(run(plus, t.batch), "2024-03-01|2025-01-02");
  EXPECT_EQ(run(fn("-", {t["d"], lit(Dt("2024-01-01"))}), t.batch), "58|365");
}

// ----- comparisons
// --------------------------------------------------------------------------------

TEST(BoundExprCompare, StringIsCastToTheOtherSide) {
  TestBatch t;
  t.add("d", Type::date(), {Dt("2024-06-15"), Dt("2024-06-16"), null_of(Type::date())});
  t.add("i", Type::int32(), {I(1), I(10), I(2)});
  auto eq = fn("=", {t["d"], lit(S("2024-06-15"))});
  // The string literal was folded into a date literal.
  ASSERT_TRUE(eq);
  EXPECT_EQ(eq->args[1]->kind, ExprKind::kLiteral);
  EXPECT_EQ(eq->args[1]->type->to_string(), "date");
  EXPECT_EQ(run(eq, t.batch), "true|false|NULL");
  EXPECT_EQ(run(fn(">", {t["i"], lit(S("2"))}), t.batch), "false|true|false");
  EXPECT_EQ(run(fn("<", {t["d"], lit(Ts("2024-06-15 12:00:00"))}), t.batch), "true|false|NULL");
  EXPECT_EQ(to_string(*eq, t.names), "(d = DATE '2024-06-15')");
}

TEST(BoundExprCompare, NaNAndBytes) {
  TestBatch t;
  double nan = std::nan("");
  t.add("x", Type::float64(), {D(nan), D(nan), D(1e308), D(-0.0), D(1)});
  t.add("y", Type::float64(), {D(nan), D(1e308), D(nan), D(0.0), null_of(Type::float64())});
  EXPECT_EQ(run(fn("=", {t["x"], t["y"]}), t.batch), "true|false|false|true|NULL");
  EXPECT_EQ(run(fn(">", {t["x"], t["y"]}), t.batch), "false|true|false|false|NULL");
  EXPECT_EQ(run(fn("<=>", {t["x"], t["y"]}), t.batch), "true|false|false|true|false");
  EXPECT_EQ(run(fn("<>", {t["x"], t["y"]}), t.batch), "false|true|true|false|NULL");
  TestBatch s;
  s.add("a", Type::string(), {S("a"), S("\xC3\xA9"), S("ab"), null_of(Type::string())});
  s.add("b", Type::string(), {S("b"), S("z"), S("ab"), null_of(Type::string())});
  EXPECT_EQ(run(fn("<", {s["a"], s["b"]}), s.batch), "true|false|false|NULL");
  EXPECT_EQ(run(fn("==", {s["a"], s["b"]}), s.batch), "false|false|true|NULL");
  EXPECT_EQ(run(fn("<=>", {s["a"], s["b"]}), s.batch), "false|false|true|true");
}

TEST(BoundExprCompare, TimestampVsTimestamptzComparesMicros) {
  TestBatch t;
  t.add("a", Type::timestamp(), {Ts("2024-06-15 10:00:00")});
  t.add("b", Type::timestamptz(),
        {Literal::timestamptz(*parse_timestamp("2024-06-15T10:00:00+00:00", true))});
  EXPECT_EQ(run(fn("=", {t["a"], t["b"]}), t.batch), "true");
}

TEST(BoundExprCompare, Errors) {
  auto m = Type::map_of(1, Type::string(), 2, Type::int32(), false);
  auto c = *column(0, m);
  auto r = call("=", {c, lit(I(1))});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("cannot compare"), std::string::npos) << r.status().message();
  auto unknown = call("foo", {lit(S("x")), lit(I(1))});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(), "function foo(string, int) does not exist");
  auto arity = call("substr", {lit(S("x"))});
  ASSERT_FALSE(arity.ok());
  EXPECT_EQ(arity.status().message(),
            "wrong number of arguments for substr: expected 2 to 3, got 1");
  auto bad_cast = cast(c, Type::int32());
  ASSERT_FALSE(bad_cast.ok());
  EXPECT_NE(bad_cast.status().message().find("cannot cast"), std::string::npos);
}

// ----- logic, IN, LIKE, CASE --------------------------------------------------------------------

TEST(BoundExprLogic, ThreeValued) {
  TestBatch t;
  auto B = [](int v) { return v < 0 ? Literal::null(Type::boolean()) : Literal::boolean(v); };
  t.add("p", Type::boolean(), {B(1), B(1), B(1), B(0), B(0), B(0), B(-1), B(-1), B(-1)});
  t.add("q", Type::boolean(), {B(1), B(0), B(-1), B(1), B(0), B(-1), B(1), B(0), B(-1)});
  EXPECT_EQ(run(ok(and_(t["p"], t["q"])), t.batch),
            "true|false|NULL|false|false|false|NULL|false|NULL");
  EXPECT_EQ(run(ok(or_(t["p"], t["q"])), t.batch), "true|true|true|true|false|NULL|true|NULL|NULL");
  EXPECT_EQ(run(ok(not_(t["q"])), t.batch), "false|true|NULL|false|true|NULL|false|true|NULL");
  EXPECT_EQ(run(ok(is_null(t["q"])), t.batch),
            "false|false|true|false|false|true|false|false|true");
  EXPECT_EQ(run(ok(is_null(t["q"], true)), t.batch),
            "true|true|false|true|true|false|true|true|false");
  std::vector<uint8_t> keep;
  ASSERT_TRUE(evaluate_predicate(*ok(or_(t["p"], t["q"])), t.batch, &keep).ok());
  EXPECT_EQ(keep, (std::vector<uint8_t>{1, 1, 1, 1, 0, 0, 1, 0, 0}));
  // NULL AND FALSE folds to FALSE.
  auto folded = ok(and_(NUL(), lit(Literal::boolean(false))));
  EXPECT_TRUE(folded->is_literal());
  EXPECT_EQ(run1(folded), "false");
}

TEST(BoundExprLogic, InListNullSemantics) {
  TestBatch t;
  t.add("x", Type::int32(), {I(1), I(2), I(3), null_of(Type::int32())});
  EXPECT_EQ(run(ok(in_list(t["x"], {lit(I(1)), NUL()})), t.batch), "true|NULL|NULL|NULL");
  EXPECT_EQ(run(ok(in_list(t["x"], {lit(I(1)), NUL()}, true)), t.batch), "false|NULL|NULL|NULL");
  EXPECT_EQ(run(ok(in_list(t["x"], {lit(I(1)), lit(Lg(3))})), t.batch), "true|false|true|NULL");
  EXPECT_EQ(run(ok(in_list(t["x"], {lit(S("2")), lit(D(3.0))}, true)), t.batch),
            "true|false|false|NULL");
  TestBatch s;
  s.add("s", Type::string(), {S("a"), S("b")});
  EXPECT_EQ(run(ok(in_list(s["s"], {lit(S("b")), lit(S("c"))})), s.batch), "false|true");
  EXPECT_EQ(run(ok(between(t["x"], lit(I(2)), lit(I(3)))), t.batch), "false|true|true|NULL");
}

TEST(BoundExprLogic, Like) {
  TestBatch t;
  t.add("s", Type::string(),
        {S("apple"), S("Banana"), S("a_b"), S("axb"), S(""), S("h\xC3\xA9llo"),
         null_of(Type::string())});
  auto L = [&](const char* p, LikeKind k = LikeKind::kLike, bool neg = false) {
    return run(ok(like(t["s"], lit(S(p)), neg, k)), t.batch);
  };
  EXPECT_EQ(L("a%"), "true|false|true|true|false|false|NULL");
  EXPECT_EQ(L("%a"), "false|true|false|false|false|false|NULL");
  EXPECT_EQ(L("%an%"), "false|true|false|false|false|false|NULL");
  EXPECT_EQ(L("a_b"), "false|false|true|true|false|false|NULL");
  EXPECT_EQ(L("a\\_b"), "false|false|true|false|false|false|NULL");
  EXPECT_EQ(L("h_llo"), "false|false|false|false|false|true|NULL");
  EXPECT_EQ(L("%"), "true|true|true|true|true|true|NULL");
  EXPECT_EQ(L("a%p%e"), "true|false|false|false|false|false|NULL");
  EXPECT_EQ(L("a%", LikeKind::kLike, true), "false|true|false|false|true|true|NULL");
  EXPECT_EQ(L("b%", LikeKind::kILike), "false|true|false|false|false|false|NULL");
  EXPECT_EQ(L("^a.b$", LikeKind::kRLike), "false|false|true|true|false|false|NULL");
  EXPECT_EQ(L("an", LikeKind::kRLike), "false|true|false|false|false|false|NULL");
  // A pattern from a column.
  TestBatch p;
  p.add("s", Type::string(), {S("abc"), S("abc")});
  p.add("p", Type::string(), {S("a%"), S("b%")});
  EXPECT_EQ(run(ok(like(p["s"], p["p"])), p.batch), "true|false");
  EXPECT_FALSE(like(t["s"], lit(S("(")), false, LikeKind::kRLike).ok());
}

TEST(BoundExprLogic, CaseWhen) {
  TestBatch t;
  t.add("x", Type::int32(), {I(1), I(2), I(3), null_of(Type::int32())});
  auto searched =
      ok(case_when(std::nullopt, {fn("=", {t["x"], lit(I(1))}), fn(">", {t["x"], lit(I(2))})},
                   {lit(S("one")), lit(S("big"))}, lit(S("other"))));
  EXPECT_EQ(run(searched, t.batch), "one|other|big|other");
  EXPECT_EQ(to_string(*searched, t.names),
            "CASE WHEN (x = 1) THEN 'one' WHEN (x > 2) THEN 'big' ELSE 'other' END");
  auto simple = ok(case_when(t["x"], {lit(I(1)), lit(I(2))}, {lit(I(10)), lit(D(2.5))}));
  EXPECT_EQ(type_of(simple), "double");
  EXPECT_EQ(run(simple, t.batch), "10.0|2.5|NULL|NULL");
  auto mixed = ok(case_when(nullptr, {fn("=", {t["x"], lit(I(1))})}, {t["x"]}, lit(S("n/a"))));
  EXPECT_EQ(type_of(mixed), "string");
  EXPECT_EQ(run(mixed, t.batch), "1|n/a|n/a|n/a");
  EXPECT_FALSE(case_when(std::nullopt, {t["x"]}, {t["x"]}).ok());
}

// ----- casts
// --------------------------------------------------------------------------------------

std::string cast_text(Literal v, const TypePtr& to, bool try_cast = false) {
  return run1(ok(cast(lit(std::move(v)), to, try_cast)));
}

TEST(BoundExprCast, StringToNumbers) {
  EXPECT_EQ(cast_text(S("12"), Type::int32()), "12");
  EXPECT_EQ(cast_text(S(" -7 "), Type::int32()), "-7");
  EXPECT_EQ(cast_text(S("1.9"), Type::int32()), "1");
  EXPECT_EQ(cast_text(S("x"), Type::int32()), "NULL");
  EXPECT_EQ(cast_text(S("99999999999"), Type::int32()), "NULL");
  EXPECT_EQ(cast_text(S("99999999999"), Type::int64()), "99999999999");
  EXPECT_EQ(cast_text(S("1e3"), Type::float64()), "1000.0");
  EXPECT_EQ(cast_text(S("NaN"), Type::float64()), "NaN");
  EXPECT_EQ(cast_text(S("-Infinity"), Type::float64()), "-Infinity");
  EXPECT_EQ(cast_text(S("abc"), Type::float64(), true), "NULL");
  EXPECT_EQ(cast_text(S("2.675"), Type::decimal(5, 2)), "2.68");
  EXPECT_EQ(cast_text(S("-2.675"), Type::decimal(5, 2)), "-2.68");
  EXPECT_EQ(cast_text(S("1.5e2"), Type::decimal(5, 1)), "150.0");
  EXPECT_EQ(cast_text(S("123456"), Type::decimal(5, 2)), "NULL");
  EXPECT_EQ(cast_text(S("true"), Type::boolean()), "true");
  EXPECT_EQ(cast_text(S("N"), Type::boolean()), "false");
  EXPECT_EQ(cast_text(S("maybe"), Type::boolean()), "NULL");
}

TEST(BoundExprCast, StringToDatesAndTimestamps) {
  EXPECT_EQ(cast_text(S("2024-06-15"), Type::date()), "2024-06-15");
  EXPECT_EQ(cast_text(S("2024-6-5"), Type::date()), "2024-06-05");
  EXPECT_EQ(cast_text(S("2024-06-15 10:00:00"), Type::date()), "2024-06-15");
  EXPECT_EQ(cast_text(S("2024-02-30"), Type::date()), "NULL");
  EXPECT_EQ(cast_text(S("bad"), Type::date()), "NULL");
  EXPECT_EQ(cast_text(S("2024-06-15 10:00:00"), Type::timestamp()), "2024-06-15 10:00:00");
  EXPECT_EQ(cast_text(S("2024-06-15T10:00:00.5"), Type::timestamp()), "2024-06-15 10:00:00.5");
  EXPECT_EQ(cast_text(S("2024-06-15T10:00:00+02:00"), Type::timestamptz()), "2024-06-15 08:00:00");
  EXPECT_EQ(cast_text(S("2024-06-15T10:00:00Z"), Type::timestamptz()), "2024-06-15 10:00:00");
  EXPECT_EQ(cast_text(S("2024-06-15"), Type::timestamp()), "2024-06-15 00:00:00");
  EXPECT_EQ(cast_text(S("2024-06-15 25:00:00"), Type::timestamp()), "NULL");
}

TEST(BoundExprCast, NumbersDatesAndText) {
  EXPECT_EQ(cast_text(D(2.675), Type::decimal(5, 2)), "2.68");
  EXPECT_EQ(cast_text(D(-0.125), Type::decimal(5, 2)), "-0.13");
  EXPECT_EQ(cast_text(D(1e10), Type::decimal(5, 2)), "NULL");
  EXPECT_EQ(cast_text(D(std::nan("")), Type::int32()), "0");
  EXPECT_EQ(cast_text(D(1e20), Type::int32()), "2147483647");
  EXPECT_EQ(cast_text(D(-3.9), Type::int64()), "-3");
  EXPECT_EQ(cast_text(Lg(4294967297LL), Type::int32()), "1");
  EXPECT_EQ(cast_text(Dec(-1999, 10, 2), Type::int32()), "-19");
  EXPECT_EQ(cast_text(Dec(1999, 10, 2), Type::float64()), "19.99");
  EXPECT_EQ(cast_text(Dec(1999, 10, 2), Type::decimal(10, 1)), "20.0");
  EXPECT_EQ(cast_text(I(7), Type::decimal(3, 1)), "7.0");
  EXPECT_EQ(cast_text(I(700), Type::decimal(3, 1)), "NULL");
  EXPECT_EQ(cast_text(I(0), Type::boolean()), "false");
  EXPECT_EQ(cast_text(Literal::boolean(true), Type::int32()), "1");
  EXPECT_EQ(cast_text(D(0.1), Type::string()), "0.1");
  EXPECT_EQ(cast_text(D(1e10), Type::string()), "1.0E10");
  EXPECT_EQ(cast_text(Dec(5, 10, 3), Type::string()), "0.005");
  EXPECT_EQ(cast_text(Dt("2024-06-15"), Type::timestamp()), "2024-06-15 00:00:00");
  EXPECT_EQ(cast_text(Ts("2024-06-15 23:59:59.5"), Type::date()), "2024-06-15");
  EXPECT_EQ(cast_text(Ts("1969-12-31 23:59:59"), Type::date()), "1969-12-31");
  EXPECT_EQ(cast_text(Ts("1970-01-01 00:01:40.9"), Type::int64()), "100");
  EXPECT_EQ(cast_text(Lg(100), Type::timestamp()), "1970-01-01 00:01:40");
  EXPECT_EQ(cast_text(Ts("2024-06-15 10:00:00"), Type::string()), "2024-06-15 10:00:00");
  EXPECT_EQ(cast_text(Literal::null(Type::unknown()), Type::int32()), "NULL");
  auto u = *Uuid::parse("f79c3e09-677c-4bbd-a479-3f349cb785e7");
  EXPECT_EQ(cast_text(Literal::uuid(u), Type::string()), "f79c3e09-677c-4bbd-a479-3f349cb785e7");
  EXPECT_EQ(cast_text(S("f79c3e09-677c-4bbd-a479-3f349cb785e7"), Type::uuid()),
            "f79c3e09-677c-4bbd-a479-3f349cb785e7");
  // Columns: a vectorised cast with NULLs.
  TestBatch t;
  t.add("s", Type::string(), {S("1"), S("x"), null_of(Type::string()), S("3.5")});
  EXPECT_EQ(run(ok(cast(t["s"], Type::float64())), t.batch), "1.0|NULL|NULL|3.5");
  EXPECT_EQ(to_string(*ok(cast(t["s"], Type::int32(), true)), t.names), "TRY_CAST(s AS int)");
}

// ----- string functions
// -----------------------------------------------------------------------------

TEST(BoundExprString, Basics) {
  TestBatch t;
  t.add("s", Type::string(), {S("Hello World"), S("h\xC3\xA9llo"), S(""), null_of(Type::string())});
  EXPECT_EQ(run(fn("lower", {t["s"]}), t.batch), "hello world|h\xC3\xA9llo||NULL");
  EXPECT_EQ(run(fn("UPPER", {t["s"]}), t.batch), "HELLO WORLD|H\xC3\xA9LLO||NULL");
  EXPECT_EQ(run(fn("length", {t["s"]}), t.batch), "11|5|0|NULL");
  EXPECT_EQ(run(fn("octet_length", {t["s"]}), t.batch), "11|6|0|NULL");
  EXPECT_EQ(run(fn("reverse", {t["s"]}), t.batch), "dlroW olleH|oll\xC3\xA9h||NULL");
  EXPECT_EQ(run(fn("initcap", {lit(S("hELLO wORLD"))}), t.batch),
            "Hello World|Hello World|Hello World|Hello World");
  EXPECT_EQ(run(fn("substr", {t["s"], lit(I(2)), lit(I(3))}), t.batch), "ell|\xC3\xA9ll||NULL");
  EXPECT_EQ(run(fn("concat", {t["s"], lit(S("!")), lit(I(1))}), t.batch),
            "Hello World!1|h\xC3\xA9llo!1|!1|NULL");
  EXPECT_EQ(run(fn("||", {t["s"], lit(S("?"))}), t.batch), "Hello World?|h\xC3\xA9llo?|?|NULL");
  EXPECT_EQ(run(fn("concat_ws", {lit(S("-")), t["s"], NUL(), lit(S("x"))}), t.batch),
            "Hello World-x|h\xC3\xA9llo-x|-x|x");
}

TEST(BoundExprString, SubstrSparkSemantics) {
  auto sub = [](int pos, std::optional<int> len) {
    std::vector<BoundExprPtr> args{lit(S("abcdef")), lit(I(pos))};
    if (len) args.push_back(lit(I(*len)));
    return run1(fn("substring", args));
  };
  EXPECT_EQ(sub(1, 3), "abc");
  EXPECT_EQ(sub(0, 3), "abc");
  EXPECT_EQ(sub(-2, std::nullopt), "ef");
  EXPECT_EQ(sub(-3, 2), "de");
  EXPECT_EQ(sub(-10, 6), "ab");
  EXPECT_EQ(sub(3, std::nullopt), "cdef");
  EXPECT_EQ(sub(10, 2), "");
  EXPECT_EQ(sub(2, -1), "");
  EXPECT_EQ(run1(fn("left", {lit(S("abcdef")), lit(I(2))})), "ab");
  EXPECT_EQ(run1(fn("right", {lit(S("abcdef")), lit(I(2))})), "ef");
}

TEST(BoundExprString, SubstringIndexSparkSemantics) {
  auto si = [](const char* str, const char* delim, int count) {
    return run1(fn("substring_index", {lit(S(str)), lit(S(delim)), lit(I(count))}));
  };
  EXPECT_EQ(si("www.apache.org", ".", 2), "www.apache");
  EXPECT_EQ(si("www.apache.org", ".", 1), "www");
  EXPECT_EQ(si("www.apache.org", ".", -1), "org");
  EXPECT_EQ(si("www.apache.org", ".", -2), "apache.org");
  EXPECT_EQ(si("www.apache.org", ".", 3), "www.apache.org");  // fewer delims than asked
  EXPECT_EQ(si("www.apache.org", ".", -3), "www.apache.org");
  EXPECT_EQ(si("www.apache.org", ".", 0), "");
  EXPECT_EQ(si("www.apache.org", "", 1), "");
  EXPECT_EQ(si("www.apache.org", "", -1), "");
  EXPECT_EQ(si("", ".", 1), "");
  EXPECT_EQ(si(".a.b", ".", 1), "");
  EXPECT_EQ(si("a.b.", ".", -1), "");
  EXPECT_EQ(si("a", "abc", -1), "a");  // a delim longer than the string
  EXPECT_EQ(si("s3://lake/db/t/data/f.parquet", "/", -1), "f.parquet");
  EXPECT_EQ(si("a::b::c", "::", -2), "b::c");
  // Overlapping delims match as Spark's byte search does.
  EXPECT_EQ(si("aaaa", "aa", 2), "a");
  EXPECT_EQ(si("aaaa", "aa", -2), "a");
  EXPECT_EQ(si("ünï·cödé·x", "·", 1), "ünï");
  EXPECT_EQ(si("ünï·cödé·x", "·", -2), "cödé·x");
  EXPECT_EQ(si("a.b", ".", std::numeric_limits<int32_t>::min()), "a.b");
  // NULL in, NULL out; over columns.
  EXPECT_EQ(run1(fn("substring_index", {NUL(), lit(S(".")), lit(I(1))})), "NULL");
  EXPECT_EQ(run1(fn("substring_index", {lit(S("a.b")), NUL(), lit(I(1))})), "NULL");
  EXPECT_EQ(run1(fn("substring_index", {lit(S("a.b")), lit(S(".")), NUL()})), "NULL");
  TestBatch t;
  t.add("s", Type::string(), {S("a.b.c"), S("x.y"), null_of(Type::string()), S("p.q.r")});
  t.add("n", Type::int32(), {I(2), I(-1), I(1), null_of(Type::int32())});
  EXPECT_EQ(run(fn("substring_index", {t["s"], lit(S(".")), t["n"]}), t.batch), "a.b|y|NULL|NULL");
  EXPECT_EQ(type_of(fn("substring_index", {t["s"], lit(S(".")), t["n"]})), "string");
  EXPECT_FALSE(call("substring_index", {t["s"], lit(S("."))}).ok());
}

TEST(BoundExprString, SearchPadTrim) {
  auto s = [](const char* v) { return lit(S(v)); };
  EXPECT_EQ(run1(fn("trim", {s("  a b  ")})), "a b");
  EXPECT_EQ(run1(fn("ltrim", {s("  a b  ")})), "a b  ");
  EXPECT_EQ(run1(fn("rtrim", {s("  a b  ")})), "  a b");
  EXPECT_EQ(run1(fn("trim", {s("xxaxx"), s("x")})), "a");
  EXPECT_EQ(run1(fn("replace", {s("a.b.c"), s("."), s("::")})), "a::b::c");
  EXPECT_EQ(run1(fn("replace", {s("a.b.c"), s(".")})), "abc");
  EXPECT_EQ(run1(fn("starts_with", {s("iceberg"), s("ice")})), "true");
  EXPECT_EQ(run1(fn("startswith", {s("iceberg"), s("berg")})), "false");
  EXPECT_EQ(run1(fn("ends_with", {s("iceberg"), s("berg")})), "true");
  EXPECT_EQ(run1(fn("contains", {s("iceberg"), s("ceb")})), "true");
  EXPECT_EQ(run1(fn("lpad", {s("7"), lit(I(3)), s("0")})), "007");
  EXPECT_EQ(run1(fn("lpad", {s("hello"), lit(I(3)), s("0")})), "hel");
  EXPECT_EQ(run1(fn("rpad", {s("ab"), lit(I(5)), s("xy")})), "abxyx");
  EXPECT_EQ(run1(fn("rpad", {s("ab"), lit(I(4))})), "ab  ");
  EXPECT_EQ(run1(fn("instr", {s("h\xC3\xA9llo"), s("l")})), "3");
  EXPECT_EQ(run1(fn("instr", {s("hello"), s("z")})), "0");
  EXPECT_EQ(run1(fn("locate", {s("l"), s("hello")})), "3");
  EXPECT_EQ(run1(fn("locate", {s("l"), s("hello"), lit(I(4))})), "4");
  EXPECT_EQ(run1(fn("locate", {s("l"), s("hello"), lit(I(0))})), "0");
  EXPECT_EQ(run1(fn("repeat", {s("ab"), lit(I(3))})), "ababab");
  EXPECT_EQ(run1(fn("ascii", {s("A")})), "65");
  EXPECT_EQ(run1(fn("chr", {lit(I(66))})), "B");
  EXPECT_EQ(run1(fn("regexp_replace", {s("2024-06-15"), s("(\\d+)-(\\d+)"), s("$2/$1")})),
            "06/2024-15");
  EXPECT_EQ(run1(fn("regexp_extract", {s("id=42;x=7"), s("x=(\\d+)"), lit(I(1))})), "7");
  EXPECT_EQ(run1(fn("regexp_extract", {s("none"), s("x=(\\d+)")})), "");
  EXPECT_EQ(run1(fn("regexp_like", {s("abc"), s("b.")})), "true");
  EXPECT_EQ(run1(fn("split", {s("a,b,,c"), s(",")})), "[a, b, , c]");
  EXPECT_EQ(run1(fn("split", {s("a,b,c"), s(","), lit(I(2))})), "[a, b,c]");
  EXPECT_EQ(run1(fn("lower", {NUL()})), "NULL");
  EXPECT_EQ(run1(fn("length", {lit(I(12345))})), "5");
}

// ----- math
// -------------------------------------------------------------------------------------------

TEST(BoundExprMath, RoundingAndFunctions) {
  EXPECT_EQ(run1(fn("round", {lit(D(2.5))})), "3.0");
  EXPECT_EQ(run1(fn("round", {lit(D(-2.5))})), "-3.0");
  EXPECT_EQ(run1(fn("round", {lit(D(2.675)), lit(I(2))})), "2.68");
  EXPECT_EQ(run1(fn("round", {lit(D(1234.5)), lit(I(-2))})), "1200.0");
  EXPECT_EQ(run1(fn("bround", {lit(D(2.5))})), "2.0");
  EXPECT_EQ(run1(fn("bround", {lit(D(3.5))})), "4.0");
  EXPECT_EQ(run1(fn("round", {lit(I(15)), lit(I(-1))})), "20");
  EXPECT_EQ(run1(fn("round", {lit(I(-15)), lit(I(-1))})), "-20");
  auto rd = fn("round", {lit(Dec(12345, 10, 3)), lit(I(1))});
  EXPECT_EQ(type_of(rd), "decimal(9, 1)");
  EXPECT_EQ(run1(rd), "12.3");
  EXPECT_EQ(run1(fn("round", {lit(Dec(-12350, 10, 3)), lit(I(1))})), "-12.4");
  auto c = fn("ceil", {lit(D(1.2))});
  EXPECT_EQ(type_of(c), "long");
  EXPECT_EQ(run1(c), "2");
  EXPECT_EQ(run1(fn("floor", {lit(D(-1.2))})), "-2");
  auto cd = fn("ceil", {lit(Dec(-125, 5, 2))});
  EXPECT_EQ(type_of(cd), "decimal(4, 0)");
  EXPECT_EQ(run1(cd), "-1");
  EXPECT_EQ(run1(fn("floor", {lit(Dec(-125, 5, 2))})), "-2");
  EXPECT_EQ(run1(fn("sqrt", {lit(I(16))})), "4.0");
  EXPECT_EQ(run1(fn("sqrt", {lit(I(-1))})), "NaN");
  EXPECT_EQ(run1(fn("pow", {lit(I(2)), lit(I(10))})), "1024.0");
  EXPECT_EQ(run1(fn("ln", {lit(I(0))})), "NULL");
  EXPECT_EQ(run1(fn("log10", {lit(I(1000))})), "3.0");
  EXPECT_EQ(run1(fn("log2", {lit(I(8))})), "3.0");
  EXPECT_EQ(run1(fn("log", {lit(I(2)), lit(I(8))})), "3.0");
  EXPECT_EQ(run1(fn("exp", {lit(I(0))})), "1.0");
  EXPECT_EQ(run1(fn("sign", {lit(I(-5))})), "-1.0");
  EXPECT_EQ(run1(fn("abs", {lit(Dec(-125, 5, 2))})), "1.25");
  EXPECT_EQ(run1(fn("mod", {lit(I(-7)), lit(I(3))})), "-1");
  EXPECT_EQ(run1(fn("pmod", {lit(I(-7)), lit(I(3))})), "2");
  EXPECT_EQ(run1(fn("%", {lit(D(7.5)), lit(I(2))})), "1.5");
  auto ddiv = fn("div", {lit(Dec(15, 2, 1)), lit(Dec(5, 2, 1))});
  EXPECT_EQ(type_of(ddiv), "long");
  EXPECT_EQ(run1(ddiv), "3");
  EXPECT_EQ(run1(fn("div", {lit(Dec(-75, 2, 1)), lit(I(2))})), "-3");
  TestBatch t;
  t.add("a", Type::int32(), {I(1), null_of(Type::int32()), I(5)});
  t.add("b", Type::float64(), {D(2.5), D(3), D(std::nan(""))});
  EXPECT_EQ(run(fn("greatest", {t["a"], t["b"]}), t.batch), "2.5|3.0|NaN");
  EXPECT_EQ(run(fn("least", {t["a"], t["b"], NUL()}), t.batch), "1.0|3.0|5.0");
  EXPECT_EQ(run1(fn("greatest", {lit(S("b")), lit(S("a"))})), "b");
}

TEST(BoundExprMath, NullHandling) {
  TestBatch t;
  t.add("a", Type::int32(), {I(1), null_of(Type::int32()), null_of(Type::int32()), I(4)});
  t.add("b", Type::int64(), {Lg(10), Lg(20), null_of(Type::int64()), Lg(4)});
  auto co = fn("coalesce", {t["a"], t["b"], lit(I(0))});
  EXPECT_EQ(type_of(co), "long");
  EXPECT_EQ(run(co, t.batch), "1|20|0|4");
  EXPECT_EQ(run(fn("nvl", {t["a"], lit(I(-1))}), t.batch), "1|-1|-1|4");
  EXPECT_EQ(run(fn("ifnull", {t["a"], lit(S("x"))}), t.batch), "1|x|x|4");
  EXPECT_EQ(run(fn("nullif", {t["a"], lit(I(4))}), t.batch), "1|NULL|NULL|NULL");
  EXPECT_EQ(run(fn("nvl2", {t["a"], lit(S("set")), lit(S("unset"))}), t.batch),
            "set|unset|unset|set");
  EXPECT_EQ(run(fn("if", {fn(">", {t["b"], lit(I(15))}), t["a"], t["b"]}), t.batch),
            "10|NULL|NULL|4");
  EXPECT_EQ(run(fn("isnull", {t["a"]}), t.batch), "false|true|true|false");
  EXPECT_EQ(run1(fn("nanvl", {lit(D(std::nan(""))), lit(D(1))})), "1.0");
  EXPECT_EQ(run1(fn("coalesce", {NUL(), NUL()})), "NULL");
}

// ----- dates
// -----------------------------------------------------------------------------------------

TEST(BoundExprDate, Fields) {
  TestBatch t;
  t.add("d", Type::date(),
        {Dt("2024-06-15"), Dt("1969-12-31"), Dt("2021-01-03"), null_of(Type::date())});
  t.add("ts", Type::timestamp(),
        {Ts("2024-06-15 13:45:30"), Ts("1969-12-31 23:59:59"), Ts("2021-01-03 00:00:00"),
         null_of(Type::timestamp())});
  EXPECT_EQ(run(fn("year", {t["d"]}), t.batch), "2024|1969|2021|NULL");
  EXPECT_EQ(run(fn("month", {t["d"]}), t.batch), "6|12|1|NULL");
  EXPECT_EQ(run(fn("day", {t["d"]}), t.batch), "15|31|3|NULL");
  EXPECT_EQ(run(fn("dayofmonth", {t["ts"]}), t.batch), "15|31|3|NULL");
  EXPECT_EQ(run(fn("dayofweek", {t["d"]}), t.batch), "7|4|1|NULL");
  EXPECT_EQ(run(fn("weekday", {t["d"]}), t.batch), "5|2|6|NULL");
  EXPECT_EQ(run(fn("dayofyear", {t["d"]}), t.batch), "167|365|3|NULL");
  EXPECT_EQ(run(fn("weekofyear", {t["d"]}), t.batch), "24|1|53|NULL");
  EXPECT_EQ(run(fn("quarter", {t["d"]}), t.batch), "2|4|1|NULL");
  EXPECT_EQ(run(fn("hour", {t["ts"]}), t.batch), "13|23|0|NULL");
  EXPECT_EQ(run(fn("minute", {t["ts"]}), t.batch), "45|59|0|NULL");
  EXPECT_EQ(run(fn("second", {t["ts"]}), t.batch), "30|59|0|NULL");
  EXPECT_EQ(run(fn("year", {lit(S("2024-06-15"))}), t.batch), "2024|2024|2024|2024");
  EXPECT_EQ(run(fn("last_day", {t["d"]}), t.batch), "2024-06-30|1969-12-31|2021-01-31|NULL");
}

TEST(BoundExprDate, Arithmetic) {
  auto d = [](const char* s) { return lit(Dt(s)); };
  EXPECT_EQ(run1(fn("date_add", {d("2024-02-28"), lit(I(2))})), "2024-03-01");
  EXPECT_EQ(run1(fn("date_sub", {d("2024-03-01"), lit(I(1))})), "2024-02-29");
  EXPECT_EQ(run1(fn("datediff", {d("2024-03-01"), d("2024-02-01")})), "29");
  EXPECT_EQ(run1(fn("datediff", {lit(S("2024-01-01")), d("2024-02-01")})), "-31");
  EXPECT_EQ(run1(fn("add_months", {d("2024-01-31"), lit(I(1))})), "2024-02-29");
  EXPECT_EQ(run1(fn("add_months", {d("2024-03-31"), lit(I(-13))})), "2023-02-28");
  EXPECT_EQ(run1(fn("make_date", {lit(I(2024)), lit(I(2)), lit(I(29))})), "2024-02-29");
  EXPECT_EQ(run1(fn("make_date", {lit(I(2023)), lit(I(2)), lit(I(29))})), "NULL");
  EXPECT_EQ(
      run1(fn("months_between", {lit(Ts("1997-02-28 10:30:00")), lit(Ts("1996-10-30 00:00:00"))})),
      "3.94959677");
  EXPECT_EQ(run1(ok(interval_add(d("2024-01-31"), 1, 0, 0))), "2024-02-29");
  EXPECT_EQ(run1(ok(interval_add(d("2024-01-31"), 0, 1, 0, true))), "2024-01-30");
  auto ts_plus = ok(interval_add(lit(Ts("2024-06-15 10:00:00")), 0, 1, 3600 * 1000000LL));
  EXPECT_EQ(type_of(ts_plus), "timestamp");
  EXPECT_EQ(run1(ts_plus), "2024-06-16 11:00:00");
  auto date_plus_hours = ok(interval_add(d("2024-06-15"), 0, 0, 3600 * 1000000LL));
  EXPECT_EQ(type_of(date_plus_hours), "timestamp");
  EXPECT_EQ(run1(date_plus_hours), "2024-06-15 01:00:00");
}

TEST(BoundExprDate, TruncAndFormat) {
  auto ts = lit(Ts("2024-08-15 13:45:30.123456"));
  auto tr = [&](const char* unit) { return run1(fn("date_trunc", {lit(S(unit)), ts})); };
  EXPECT_EQ(tr("year"), "2024-01-01 00:00:00");
  EXPECT_EQ(tr("QUARTER"), "2024-07-01 00:00:00");
  EXPECT_EQ(tr("month"), "2024-08-01 00:00:00");
  EXPECT_EQ(tr("week"), "2024-08-12 00:00:00");
  EXPECT_EQ(tr("day"), "2024-08-15 00:00:00");
  EXPECT_EQ(tr("hour"), "2024-08-15 13:00:00");
  EXPECT_EQ(tr("minute"), "2024-08-15 13:45:00");
  EXPECT_EQ(tr("second"), "2024-08-15 13:45:30");
  EXPECT_EQ(tr("bogus"), "NULL");
  EXPECT_EQ(run1(fn("trunc", {lit(Dt("2024-08-15")), lit(S("MM"))})), "2024-08-01");
  EXPECT_EQ(run1(fn("trunc", {lit(Dt("2024-08-15")), lit(S("year"))})), "2024-01-01");
  EXPECT_EQ(run1(fn("trunc", {lit(Dt("2024-08-15")), lit(S("day"))})), "NULL");
  EXPECT_EQ(run1(fn("date_format", {ts, lit(S("yyyy-MM-dd HH:mm:ss"))})), "2024-08-15 13:45:30");
  EXPECT_EQ(run1(fn("date_format", {ts, lit(S("dd/MM/yy hh:mm a, EEE MMM SSS"))})),
            "15/08/24 01:45 PM, Thu Aug 123");
  EXPECT_EQ(run1(fn("date_format", {lit(Dt("2024-08-15")), lit(S("yyyyMMdd"))})), "20240815");
  EXPECT_EQ(run1(fn("to_date", {lit(S("15/08/2024")), lit(S("dd/MM/yyyy"))})), "2024-08-15");
  EXPECT_EQ(run1(fn("to_date", {lit(S("20240815")), lit(S("yyyyMMdd"))})), "2024-08-15");
  EXPECT_EQ(run1(fn("to_date", {lit(S("2024-08-15 10:00")), lit(S("yyyy-MM-dd"))})), "NULL");
  EXPECT_EQ(run1(fn("to_date", {lit(S("2024-08-15"))})), "2024-08-15");
  EXPECT_EQ(run1(fn("to_timestamp", {lit(S("2024-08-15 10:11:12"))})), "2024-08-15 10:11:12");
  EXPECT_EQ(run1(fn("to_timestamp", {lit(S("08/15/2024 10:11")), lit(S("MM/dd/yyyy HH:mm"))})),
            "2024-08-15 10:11:00");
  EXPECT_EQ(run1(fn("from_unixtime", {lit(Lg(0))})), "1970-01-01 00:00:00");
  EXPECT_EQ(run1(fn("unix_timestamp", {lit(Ts("1970-01-02 00:00:00"))})), "86400");
  EXPECT_EQ(run1(fn("unix_timestamp", {lit(S("1970/01/02")), lit(S("yyyy/MM/dd"))})), "86400");
  // current_date is fixed when the expression is bound.
  auto today = fn("current_date", {});
  ASSERT_TRUE(today);
  EXPECT_TRUE(today->is_literal());
  EXPECT_EQ(type_of(fn("current_timestamp", {})), "timestamptz");
}

// ----- transforms
// ---------------------------------------------------------------------------------------

// Bucket hashes from the spec's Appendix B.
TEST(BoundExprTransform, BucketMatchesSpecVectors) {
  auto bucket_of_lit = [](Literal v) {
    auto e = fn("system.bucket", {lit(I(INT32_MAX)), lit(std::move(v))});
    return run1(e);
  };
  auto expect = [](int32_t hash) { return std::to_string(bucket_of(hash, INT32_MAX)); };
  EXPECT_EQ(bucket_of_lit(I(34)), expect(2017239379));
  EXPECT_EQ(bucket_of_lit(Lg(34)), expect(2017239379));
  EXPECT_EQ(bucket_of_lit(Dec(1420, 4, 2)), expect(-500754589));
  EXPECT_EQ(bucket_of_lit(Dt("2017-11-16")), expect(-653330422));
  EXPECT_EQ(bucket_of_lit(Literal::time(*parse_time("22:31:08"))), expect(-662762989));
  EXPECT_EQ(bucket_of_lit(Ts("2017-11-16 22:31:08")), expect(-2047944441));
  EXPECT_EQ(
      bucket_of_lit(Literal::timestamptz(*parse_timestamp("2017-11-16T14:31:08-08:00", true))),
      expect(-2047944441));
  EXPECT_EQ(bucket_of_lit(S("iceberg")), expect(1210000089));
  EXPECT_EQ(bucket_of_lit(Literal::uuid(*Uuid::parse("f79c3e09-677c-4bbd-a479-3f349cb785e7"))),
            expect(1488055340));
  EXPECT_EQ(bucket_of_lit(Literal::binary(std::string("\x00\x01\x02\x03", 4))), expect(-188683207));
  EXPECT_EQ(bucket_of_lit(Literal::fixed(std::string("\x00\x01\x02\x03", 4))), expect(-188683207));
  EXPECT_FALSE(call("bucket", {lit(I(0)), lit(I(1))}).ok());
  EXPECT_FALSE(call("bucket", {lit(I(4)), lit(D(1.0))}).ok());
}

// Random columns: every transform function equals Transform::apply row by row.
TEST(BoundExprTransform, EqualsPartitionTransforms) {
  std::mt19937_64 rng(42);
  auto rnd = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  const int n = 300;
  TestBatch t;
  std::vector<Literal> ints, longs, dates, tss, strs, decs, bins, nss;
  for (int i = 0; i < n; ++i) {
    bool null = i % 17 == 0;
    ints.push_back(null ? null_of(Type::int32())
                        : I(static_cast<int32_t>(rnd(INT32_MIN, INT32_MAX))));
    longs.push_back(null ? null_of(Type::int64()) : Lg(rnd(INT64_MIN / 2, INT64_MAX / 2)));
    dates.push_back(null ? null_of(Type::date())
                         : Literal::date(static_cast<int32_t>(rnd(-30000, 30000))));
    tss.push_back(null ? null_of(Type::timestamptz())
                       : Literal::timestamptz(rnd(-2000000000000000LL, 4000000000000000LL)));
    nss.push_back(null ? null_of(Type::timestamp_ns())
                       : Literal::timestamp_ns(rnd(-2000000000000000000LL, 4000000000000000000LL)));
    std::string s;
    int len = static_cast<int>(rnd(0, 12));
    for (int k = 0; k < len; ++k) {
      if (rnd(0, 5) == 0) {
        s += "\xC3\xA9";
      } else {
        s += static_cast<char>('a' + rnd(0, 25));
      }
    }
    strs.push_back(null ? null_of(Type::string()) : S(s));
    bins.push_back(null ? null_of(Type::binary()) : Literal::binary(s));
    decs.push_back(null ? null_of(Type::decimal(18, 3))
                        : Dec(rnd(-999999999999999999LL, 999999999999999999LL), 18, 3));
  }
  t.add("i", Type::int32(), ints);
  t.add("l", Type::int64(), longs);
  t.add("d", Type::date(), dates);
  t.add("ts", Type::timestamptz(), tss);
  t.add("ns", Type::timestamp_ns(), nss);
  t.add("s", Type::string(), strs);
  t.add("b", Type::binary(), bins);
  t.add("dec", Type::decimal(18, 3), decs);
  struct Case {
    std::string fn;
    int param;
    Transform transform;
  };
  std::vector<Case> cases = {
      {"bucket", 16, Transform::bucket(16)},
      {"bucket", 1000, Transform::bucket(1000)},
      {"truncate", 10, Transform::truncate(10)},
      {"truncate", 3, Transform::truncate(3)},
      {"years", 0, Transform::year()},
      {"months", 0, Transform::month()},
      {"days", 0, Transform::day()},
      {"hours", 0, Transform::hour()},
  };
  int checked = 0;
  for (const auto& c : cases) {
    for (size_t col = 0; col < t.names.size(); ++col) {
      const auto& type = t.batch.fields[col].type;
      if (!c.transform.can_transform(*type)) continue;
      std::vector<BoundExprPtr> args;
      if (c.param) args.push_back(lit(I(c.param)));
      args.push_back(t[t.names[col]]);
      auto e = fn("system." + c.fn, args);
      ASSERT_TRUE(e);
      auto out = evaluate(*e, t.batch);
      ASSERT_TRUE(out.ok()) << out.status().to_string();
      for (int64_t r = 0; r < n; ++r) {
        Literal want = *c.transform.apply(t.batch.columns[col]->literal_at(r));
        Literal got = (*out)->literal_at(r);
        ASSERT_EQ(got.to_string(), want.to_string())
            << c.fn << "(" << c.param << ", " << t.names[col] << ") row " << r;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 5000);
}

// ----- nested access
// ------------------------------------------------------------------------------------

TEST(BoundExprNested, SubscriptAndFields) {
  auto map_t = Type::map_of(1, Type::string(), 2, Type::string(), false);
  auto list_t = Type::list_of(3, Type::int64(), false);
  auto struct_t =
      Type::struct_of({field_of(4, "a", Type::int32()), field_of(5, "b", Type::string())});
  TestBatch t;
  t.add("m", map_t,
        {Literal::map_value(map_t, {S("added-data-files"), S("x")}, {S("3"), S("y")}),
         Literal::map_value(map_t, {}, {}), Literal::null(map_t)});
  t.add("l", list_t,
        {Literal::list_value(list_t, {Lg(10), Lg(20)}), Literal::list_value(list_t, {}),
         Literal::null(list_t)});
  t.add("st", struct_t,
        {Literal::struct_value(struct_t, {I(1), S("p")}), Literal::null(struct_t),
         Literal::struct_value(struct_t, {null_of(Type::int32()), S("q")})});
  EXPECT_EQ(run(ok(subscript(t["m"], lit(S("added-data-files")))), t.batch), "3|NULL|NULL");
  EXPECT_EQ(run(ok(subscript(t["l"], lit(I(1)))), t.batch), "20|NULL|NULL");
  EXPECT_EQ(run(ok(subscript(t["l"], lit(I(0)))), t.batch), "10|NULL|NULL");
  EXPECT_EQ(run(ok(subscript(t["l"], lit(I(5)))), t.batch), "NULL|NULL|NULL");
  EXPECT_EQ(run(ok(field(t["st"], 0)), t.batch), "1|NULL|NULL");
  EXPECT_EQ(run(ok(field(t["st"], "B")), t.batch), "p|NULL|q");
  EXPECT_EQ(to_string(*ok(field(t["st"], "b")), t.names), "st.b");
  EXPECT_EQ(to_string(*ok(subscript(t["m"], lit(S("k")))), t.names), "m['k']");
  EXPECT_FALSE(field(t["m"], 0).ok());
  EXPECT_FALSE(subscript(t["st"], lit(I(0))).ok());
  // A whole nested column passes through CASE/coalesce.
  EXPECT_EQ(run(fn("coalesce", {t["l"], t["l"]}), t.batch), "[10, 20]|[]|NULL");
}

// typeof: Spark's catalog names of the argument's type, a constant string.
TEST(BoundExprTypes, TypeofNamesSparkTypes) {
  auto list_t = Type::list_of(3, Type::int32(), false);
  auto map_t = Type::map_of(1, Type::string(), 2, Type::int64(), false);
  auto struct_t =
      Type::struct_of({field_of(4, "a", Type::int32()), field_of(5, "b", Type::string())});
  TestBatch t;
  t.add("l", list_t, {Literal::list_value(list_t, {I(1)})});
  t.add("m", map_t, {Literal::null(map_t)});
  t.add("st", struct_t, {Literal::null(struct_t)});
  t.add("ts", Type::timestamp(), {Ts("2024-01-01 00:00:00")});
  t.add("tz", Type::timestamptz(), {null_of(Type::timestamptz())});
  auto type_name = [&](BoundExprPtr e) {
    auto r = fn("typeof", {std::move(e)});
    EXPECT_TRUE(r && r->is_literal());
    return run(r, t.batch);
  };
  EXPECT_EQ(type_name(lit(I(1))), "int");
  EXPECT_EQ(type_name(lit(Lg(1))), "bigint");
  EXPECT_EQ(type_name(lit(D(1))), "double");
  EXPECT_EQ(type_name(lit(S("x"))), "string");
  EXPECT_EQ(type_name(lit(Dec(1234, 10, 2))), "decimal(10,2)");
  EXPECT_EQ(type_name(lit(Dt("2024-01-01"))), "date");
  EXPECT_EQ(type_name(NUL()), "void");
  EXPECT_EQ(type_name(t["l"]), "array<int>");
  EXPECT_EQ(type_name(t["m"]), "map<string,bigint>");
  EXPECT_EQ(type_name(t["st"]), "struct<a:int,b:string>");
  EXPECT_EQ(type_name(t["ts"]), "timestamp_ntz");
  EXPECT_EQ(type_name(t["tz"]), "timestamp");
  EXPECT_EQ(type_name(fn("+", {lit(I(1)), lit(Lg(2))})), "bigint");
  EXPECT_EQ(type_name(fn("array", {lit(S("a"))})), "array<string>");
  EXPECT_TRUE(is_scalar_function("TYPEOF"));
  EXPECT_EQ(call("typeof", {lit(I(1)), lit(I(2))}).status().message(),
            "wrong number of arguments for typeof: expected 1, got 2");
}

// rand / randn: uniform [0, 1) and standard normal doubles; a seed fixes the sequence (the k-th
// row evaluated gets the k-th value), no seed draws one.
TEST(BoundExprMath, RandomNumbers) {
  const int64_t n = 20000;
  std::vector<Literal> ids;
  for (int64_t i = 0; i < n; ++i) ids.push_back(Lg(i));
  TestBatch t;
  t.add("id", Type::int64(), ids);
  auto values = [&](const BoundExprPtr& e) {
    std::vector<double> out;
    auto col = evaluate(*e, t.batch);
    EXPECT_TRUE(col.ok()) << col.status().to_string();
    if (!col.ok()) return out;
    EXPECT_EQ((*col)->length(), n);
    EXPECT_EQ((*col)->null_count(), 0);
    for (int64_t i = 0; i < (*col)->length(); ++i) out.push_back((*col)->raw<double>()[i]);
    return out;
  };
  auto seeded = fn("rand", {lit(I(42))});
  ASSERT_TRUE(seeded);
  EXPECT_EQ(type_of(seeded), "double");
  EXPECT_FALSE(seeded->is_literal());
  EXPECT_FALSE(is_deterministic(*seeded));
  std::vector<double> a = values(seeded);
  ASSERT_EQ(static_cast<int64_t>(a.size()), n);
  double sum = 0;
  for (double v : a) {
    EXPECT_TRUE(v >= 0 && v < 1) << v;
    sum += v;
  }
  EXPECT_NEAR(sum / n, 0.5, 0.01);
  EXPECT_EQ(std::set<double>(a.begin(), a.end()).size(), a.size());
  // The same seed bound again gives the same sequence; an int or bigint seed is the same seed.
  EXPECT_EQ(values(fn("rand", {lit(Lg(42))})), a);
  EXPECT_EQ(values(fn("RANDOM", {lit(I(42))})), a);
  // Evaluating the same bound call again continues its sequence.
  EXPECT_NE(values(seeded), a);
  EXPECT_NE(values(fn("rand", {lit(I(43))})), a);
  EXPECT_EQ(values(fn("rand", {NUL()})), values(fn("rand", {lit(I(0))})));
  // No seed: one drawn at bind time, shown in the expression.
  auto unseeded = fn("rand", {});
  ASSERT_TRUE(unseeded);
  EXPECT_EQ(to_string(*unseeded).rfind("rand(", 0), 0u) << to_string(*unseeded);
  EXPECT_NE(values(unseeded), values(fn("rand", {})));
  // randn: mean 0, variance 1.
  std::vector<double> g = values(fn("randn", {lit(I(7))}));
  double mean = 0, sq = 0;
  for (double v : g) mean += v;
  mean /= n;
  for (double v : g) sq += (v - mean) * (v - mean);
  EXPECT_NEAR(mean, 0, 0.03);
  EXPECT_NEAR(sq / n, 1, 0.05);
  EXPECT_EQ(values(fn("randn", {lit(I(7))})), g);
  // The seed must be an integer constant.
  EXPECT_FALSE(call("rand", {t["id"]}).ok());
  EXPECT_FALSE(call("rand", {lit(S("1"))}).ok());
  EXPECT_FALSE(call("rand", {lit(I(1)), lit(I(2))}).ok());
}

// ----- typing helpers
// -------------------------------------------------------------------------------------

TEST(BoundExprTypes, CommonType) {
  auto ct = [](const TypePtr& a, const TypePtr& b) {
    auto r = common_type(a, b);
    return r.ok() ? (*r)->to_string() : "error";
  };
  EXPECT_EQ(ct(Type::int32(), Type::int64()), "long");
  EXPECT_EQ(ct(Type::int64(), Type::decimal(10, 2)), "decimal(22, 2)");
  EXPECT_EQ(ct(Type::decimal(10, 2), Type::float64()), "double");
  EXPECT_EQ(ct(Type::float32(), Type::int64()), "float");
  EXPECT_EQ(ct(Type::date(), Type::timestamp()), "timestamp");
  EXPECT_EQ(ct(Type::timestamp(), Type::timestamptz()), "timestamptz");
  EXPECT_EQ(ct(Type::string(), Type::int32()), "string");
  EXPECT_EQ(ct(Type::unknown(), Type::date()), "date");
  EXPECT_EQ(ct(Type::boolean(), Type::int32()), "error");
  EXPECT_TRUE(is_scalar_function("SYSTEM.Bucket"));
  EXPECT_TRUE(is_scalar_function("substr"));
  EXPECT_FALSE(is_scalar_function("count"));
}

TEST(BoundExprTypes, ToStringAndFolding) {
  TestBatch t;
  t.add("x", Type::int32(), {I(1)});
  t.add("name", Type::string(), {S("it's")});
  auto e = ok(and_(fn(">=", {t["x"], lit(Lg(2))}), ok(like(t["name"], lit(S("a%")), true))));
  EXPECT_EQ(to_string(*e, t.names), "((CAST(x AS long) >= 2L) AND (name NOT LIKE 'a%'))");
  auto folded = fn("+", {lit(I(1)), fn("*", {lit(I(2)), lit(I(3))})});
  ASSERT_TRUE(folded);
  EXPECT_TRUE(folded->is_literal());
  EXPECT_EQ(run1(folded), "7");
  EXPECT_EQ(to_string(*fn("upper", {t["name"]}), t.names), "upper(name)");
  EXPECT_EQ(to_string(*ok(in_list(t["x"], {lit(I(1)), lit(I(2))})), t.names), "(x IN (1, 2))");
  EXPECT_EQ(run(fn("concat", {t["name"], lit(S("!"))}), t.batch), "it's!");
  auto c = evaluate_constant(*fn("+", {lit(I(40)), lit(I(2))}));
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->as_int64(), 42);
}

TEST(BoundExprTypes, LiteralsBroadcastOverBatches) {
  TestBatch t;
  t.add("x", Type::int32(), {I(1), I(2), I(3)});
  // A column-free expression over a batch gives one value per row.
  EXPECT_EQ(run(lit(S("k")), t.batch), "k|k|k");
  EXPECT_EQ(run(NUL(), t.batch), "NULL|NULL|NULL");
  EXPECT_EQ(run(fn("+", {lit(I(10)), t["x"]}), t.batch), "11|12|13");
  // An empty batch.
  ColumnBatch empty;
  empty.num_rows = 0;
  auto r = evaluate(*fn("upper", {lit(S("a"))}), empty);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->length(), 0);
}

}  // namespace
}  // namespace floe::sql

namespace floe::sql {
namespace {

// Column-vs-column, column-vs-scalar and scalar-vs-scalar kernels give the same values.
TEST(BoundExprKernels, ColumnsAndScalarsAgree) {
  std::mt19937 rng(7);
  const int n = 203;
  TestBatch t;
  std::vector<Literal> a, b, s, u;
  for (int i = 0; i < n; ++i) {
    a.push_back(i % 11 == 0 ? null_of(Type::int64()) : Lg(static_cast<int>(rng() % 200) - 100));
    b.push_back(i % 13 == 0 ? null_of(Type::decimal(9, 2))
                            : Dec(static_cast<int>(rng() % 20000) - 10000, 9, 2));
    std::string text(rng() % 6, 'a');
    for (auto& c : text) c = static_cast<char>('a' + rng() % 4);
    s.push_back(i % 7 == 0 ? null_of(Type::string()) : S(text));
    u.push_back(i % 5 == 0 ? null_of(Type::string()) : S(text.substr(0, 2)));
  }
  t.add("a", Type::int64(), a);
  t.add("b", Type::decimal(9, 2), b);
  t.add("s", Type::string(), s);
  t.add("u", Type::string(), u);
  auto per_row = [&](const std::function<BoundExprPtr(BoundExprPtr, BoundExprPtr)>& make,
                     const std::string& x, const std::string& y) {
    auto whole = make(t[x], t[y]);
    ASSERT_TRUE(whole);
    auto col = evaluate(*whole, t.batch);
    ASSERT_TRUE(col.ok()) << col.status().to_string();
    size_t xi = std::find(t.names.begin(), t.names.end(), x) - t.names.begin();
    size_t yi = std::find(t.names.begin(), t.names.end(), y) - t.names.begin();
    for (int64_t i = 0; i < n; ++i) {
      auto lx = lit(t.batch.columns[xi]->literal_at(i));
      auto ly = lit(t.batch.columns[yi]->literal_at(i));
      std::string want = run1(make(lx, ly));
      std::string left = run1(make(lx, lit(t.batch.columns[yi]->literal_at(i))));
      ColumnBatch one;
      one.num_rows = 1;
      std::string got;
      if ((*col)->is_null(i)) {
        got = "NULL";
      } else {
        value_text(**col, i, &got);
      }
      ASSERT_EQ(got, want) << to_string(*whole, t.names) << " row " << i;
      ASSERT_EQ(left, want);
    }
    // Column with a broadcast scalar on either side.
    auto scalar_y = lit(t.batch.columns[yi]->literal_at(3));
    auto mixed = evaluate(*make(t[x], scalar_y), t.batch);
    ASSERT_TRUE(mixed.ok());
    for (int64_t i = 0; i < n; ++i) {
      std::string want = run1(make(lit(t.batch.columns[xi]->literal_at(i)), scalar_y));
      std::string got;
      if ((*mixed)->is_null(i)) {
        got = "NULL";
      } else {
        value_text(**mixed, i, &got);
      }
      ASSERT_EQ(got, want) << "row " << i;
    }
  };
  for (const char* op : {"+", "-", "*", "/", "%", "<", "=", "<=>"}) {
    per_row([&](BoundExprPtr x, BoundExprPtr y) { return fn(op, {x, y}); }, "a", "b");
  }
  for (const char* f : {"concat", "instr", "starts_with", "<", "coalesce", "nullif"}) {
    per_row([&](BoundExprPtr x, BoundExprPtr y) { return fn(f, {x, y}); }, "s", "u");
  }
  per_row(
      [&](BoundExprPtr x, BoundExprPtr y) {
        return ok(case_when(std::nullopt, {fn(">", {x, lit(I(0))})}, {y}, lit(Dec(-1, 9, 2))));
      },
      "a", "b");
  per_row([&](BoundExprPtr x, BoundExprPtr y) { return ok(like(x, y)); }, "s", "u");
  per_row(
      [&](BoundExprPtr x, BoundExprPtr y) {
        return ok(in_list(x, {y, lit(S("ab"))}));
      },
      "s", "u");
}

TEST(BoundExprKernels, TreeHelpersAndErrors) {
  TestBatch t;
  t.add("x", Type::int32(), {I(1), I(2)});
  t.add("y", Type::string(), {S("a"), null_of(Type::string())});
  auto e = fn("concat", {t["y"], fn("+", {t["x"], t["x"]})});
  EXPECT_EQ(referenced_columns(*e), (std::vector<int>{0, 1}));
  EXPECT_TRUE(is_deterministic(*e));
  // Swap the two columns.
  auto swapped = remap_columns(e, {1, 0});
  ASSERT_TRUE(swapped.ok());
  EXPECT_EQ(to_string(**swapped, {"y", "x"}), to_string(*e, t.names));
  ColumnBatch reordered;
  reordered.fields = {t.batch.fields[1], t.batch.fields[0]};
  reordered.columns = {t.batch.columns[1], t.batch.columns[0]};
  reordered.num_rows = 2;
  EXPECT_EQ(run(*swapped, reordered), "a2|NULL");
  EXPECT_FALSE(remap_columns(e, {0}).ok());
  // Wrong column types and non-boolean filters are errors, not crashes.
  auto wrong = evaluate(*e, reordered);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("has type"), std::string::npos);
  std::vector<uint8_t> keep;
  EXPECT_FALSE(evaluate_predicate(*t["x"], t.batch, &keep).ok());
  ASSERT_TRUE(evaluate_predicate(*NUL(), t.batch, &keep).ok());
  EXPECT_EQ(keep, (std::vector<uint8_t>{0, 0}));
  auto missing = evaluate(**column(5, Type::int32()), t.batch);
  EXPECT_FALSE(missing.ok());
  // A CASE over strings and decimals from columns with NULLs.
  TestBatch c;
  c.add("k", Type::int32(), {I(1), I(2), I(3), null_of(Type::int32())});
  c.add("s", Type::string(), {S("one"), null_of(Type::string()), S("three"), S("four")});
  c.add("d", Type::decimal(5, 1),
        {Dec(11, 5, 1), Dec(22, 5, 1), null_of(Type::decimal(5, 1)), Dec(44, 5, 1)});
  auto cs = ok(case_when(c["k"], {lit(I(1)), lit(I(3))}, {c["s"], c["d"]}, lit(S("other"))));
  EXPECT_EQ(run(cs, c.batch), "one|other|NULL|other");
  auto cd = ok(case_when(std::nullopt, {fn("<", {c["k"], lit(I(3))})}, {c["d"]}, lit(I(7))));
  EXPECT_EQ(type_of(cd), "decimal(11, 1)");
  EXPECT_EQ(run(cd, c.batch), "1.1|2.2|7.0|7.0");
}

}  // namespace
}  // namespace floe::sql

namespace floe::sql {
namespace {

TEST(BoundExprCollections, SizeContainsKeysValues) {
  auto map_t = Type::map_of(1, Type::string(), 2, Type::int64(), false);
  auto list_t = Type::list_of(3, Type::int32(), false);
  TestBatch t;
  t.add("m", map_t,
        {Literal::map_value(map_t, {S("a"), S("b")}, {Lg(1), Lg(2)}), Literal::null(map_t)});
  t.add("l", list_t,
        {Literal::list_value(list_t, {I(5), null_of(Type::int32()), I(7)}), Literal::null(list_t)});
  EXPECT_EQ(run(fn("size", {t["m"]}), t.batch), "2|-1");
  EXPECT_EQ(run(fn("cardinality", {t["l"]}), t.batch), "3|-1");
  EXPECT_EQ(run(fn("array_contains", {t["l"], lit(I(7))}), t.batch), "true|NULL");
  EXPECT_EQ(run(fn("array_contains", {t["l"], lit(I(6))}), t.batch), "NULL|NULL");
  EXPECT_EQ(run(fn("map_keys", {t["m"]}), t.batch), "[a, b]|NULL");
  EXPECT_EQ(run(fn("map_values", {t["m"]}), t.batch), "[1, 2]|NULL");
  EXPECT_EQ(run(fn("element_at", {t["l"], lit(I(1))}), t.batch), "5|NULL");
  EXPECT_EQ(run(fn("element_at", {t["m"], lit(S("b"))}), t.batch), "2|NULL");
  EXPECT_FALSE(call("size", {lit(I(1))}).ok());
}

// Spark's element_at on arrays: 1-based, negative from the end, NULL out of range (floe's
// non-ANSI mode), index 0 an error wherever the array is not NULL; maps unchanged.
TEST(BoundExprCollections, ElementAtCountsFromEitherEnd) {
  auto list_t = Type::list_of(3, Type::int32(), false);
  auto map_t = Type::map_of(1, Type::string(), 2, Type::int64(), false);
  TestBatch t;
  t.add("l", list_t,
        {Literal::list_value(list_t, {I(5), null_of(Type::int32()), I(7)}), Literal::null(list_t),
         Literal::list_value(list_t, {})});
  t.add("i", Type::int32(), {I(-1), I(0), I(-1)});
  t.add("m", map_t,
        {Literal::map_value(map_t, {S("a")}, {Lg(1)}), Literal::null(map_t),
         Literal::map_value(map_t, {}, {})});
  auto at = [&](BoundExprPtr index) { return run(fn("element_at", {t["l"], index}), t.batch); };
  EXPECT_EQ(at(lit(I(-1))), "7|NULL|NULL");
  EXPECT_EQ(at(lit(I(-3))), "5|NULL|NULL");
  EXPECT_EQ(at(lit(I(1))), "5|NULL|NULL");
  EXPECT_EQ(at(lit(I(2))), "NULL|NULL|NULL");  // the element itself is NULL
  EXPECT_EQ(at(lit(I(3))), "7|NULL|NULL");
  EXPECT_EQ(at(lit(I(4))), "NULL|NULL|NULL");
  EXPECT_EQ(at(lit(I(-4))), "NULL|NULL|NULL");
  EXPECT_EQ(at(lit(Lg(-2))), "NULL|NULL|NULL");
  EXPECT_EQ(at(NUL()), "NULL|NULL|NULL");
  // Index 0 only fails on a row whose array is not NULL.
  EXPECT_EQ(at(t["i"]), "7|NULL|NULL");
  EXPECT_EQ(at(lit(I(0))),
            "error: element_at: index 0 is invalid: array indices start at 1 "
            "(-1 is the last element)");
  // Constants fold; a constant index 0 fails when evaluated.
  auto arr = fn("array", {lit(I(1)), lit(I(2)), lit(I(3))});
  EXPECT_EQ(run1(fn("element_at", {arr, lit(I(-1))})), "3");
  EXPECT_TRUE(fn("element_at", {arr, lit(I(-1))})->is_literal());
  EXPECT_NE(run1(fn("element_at", {arr, lit(I(0))})).find("index 0 is invalid"), std::string::npos);
  EXPECT_EQ(type_of(fn("element_at", {t["l"], lit(I(1))})), "int");
  EXPECT_EQ(to_string(*fn("element_at", {t["l"], lit(I(-1))}), t.names), "element_at(l, -1)");
  EXPECT_FALSE(call("element_at", {t["l"], lit(S("x"))}).ok());
  EXPECT_FALSE(call("element_at", {lit(I(1)), lit(I(1))}).ok());
  EXPECT_EQ(run(fn("element_at", {t["m"], lit(S("a"))}), t.batch), "1|NULL|NULL");
  EXPECT_EQ(run1(fn("element_at", {NUL(), lit(I(1))})), "NULL");
}

TEST(BoundExprCollections, ConnectivesByNameAndLongInLists) {
  EXPECT_EQ(run1(fn("AND", {lit(Literal::boolean(true)), NUL()})), "NULL");
  EXPECT_EQ(run1(fn("or", {lit(Literal::boolean(true)), NUL()})), "true");
  EXPECT_EQ(run1(fn("not", {lit(Literal::boolean(true))})), "false");
  EXPECT_TRUE(is_scalar_function("element_at"));
  TestBatch t;
  double nan = std::nan("");
  t.add("x", Type::float64(), {D(1), D(nan), D(4.5), D(100), null_of(Type::float64())});
  t.add("s", Type::string(), {S("k3"), S("zz"), S(""), S("k11"), S("k0")});
  std::vector<BoundExprPtr> nums, nums_null, strs;
  for (int i = 0; i < 12; ++i) {
    nums.push_back(lit(D(i * 1.5)));
    strs.push_back(lit(S("k" + std::to_string(i))));
  }
  nums.push_back(lit(D(nan)));
  nums_null = nums;
  nums_null.push_back(NUL());
  EXPECT_EQ(run(ok(in_list(t["x"], nums)), t.batch), "false|true|true|false|NULL");
  EXPECT_EQ(run(ok(in_list(t["x"], nums_null)), t.batch), "NULL|true|true|NULL|NULL");
  EXPECT_EQ(run(ok(in_list(t["x"], nums, true)), t.batch), "true|false|false|true|NULL");
  EXPECT_EQ(run(ok(in_list(t["s"], strs)), t.batch), "true|false|false|true|true");
}

}  // namespace
}  // namespace floe::sql
