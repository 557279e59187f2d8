// Differential test: a few hundred random scalar expressions over random data, evaluated by
// floe's vectorised evaluator and by DuckDB (npm @duckdb/node-api), restricted to operations
// where DuckDB and Spark agree (arithmetic without overflow or division by zero, comparisons,
// three-valued logic, IN, LIKE, CASE, COALESCE, string functions on ASCII, decimal rounding,
// casts of integers/decimals/dates, date parts).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "floe/util/date_time_text.h"
#include "floe/util/decimal.h"
#include "sql/exec/bound_expr_internal.h"
#include "sql/functions/function_internal.h"
#include "test_support.h"

namespace floe::sql {
namespace {

namespace fs = std::filesystem;

using test_support::shell_quote;

std::string run_command(const std::string& cmd, int* rc) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    *rc = -1;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  *rc = pclose(p);
  return out;
}

struct X {
  std::string sql;
  BoundExprPtr e;
};

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}

  // Column layout: id, i, l, d, s, dt, dc (decimal), b.
  std::vector<std::string> names{"id", "i", "l", "d", "s", "dt", "dc", "b"};
  std::vector<TypePtr> types{Type::int32(),  Type::int32(), Type::int64(),        Type::float64(),
                             Type::string(), Type::date(),  Type::decimal(10, 2), Type::boolean()};

  int rnd(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool coin(int percent) { return rnd(0, 99) < percent; }

  X col(int index) { return {names[index], *column(index, types[index])}; }
  X lit_int(int v) { return {fmt::format("{}", v), *literal(Literal::int32(v))}; }
  X lit_double(double v) {
    return {fmt::format("CAST({} AS DOUBLE)", v), *literal(Literal::float64(v))};
  }
  X lit_dec(int cents) {
    std::string text = format_decimal(cents, 2);
    return {text, *literal(Literal::decimal(cents, 9, 2))};
  }
  X lit_str(const std::string& s) { return {"'" + s + "'", *literal(Literal::string(s))}; }
  X null_lit() { return {"NULL", *literal(Literal::null(Type::unknown()))}; }

  X fn(const std::string& name, std::vector<X> args, const std::string& duck_name = "") {
    std::vector<BoundExprPtr> bound;
    std::string sql = (duck_name.empty() ? name : duck_name) + "(";
    for (size_t i = 0; i < args.size(); ++i) {
      if (i) sql += ", ";
      sql += args[i].sql;
      bound.push_back(args[i].e);
    }
    auto r = call(name, bound);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().to_string();
    return {sql + ")", r.ok() ? *r : nullptr};
  }
  X op(const std::string& o, const X& a, const X& b) {
    auto r = call(o, {a.e, b.e});
    EXPECT_TRUE(r.ok()) << a.sql << " " << o << " " << b.sql << ": " << r.status().to_string();
    return {"(" + a.sql + " " + o + " " + b.sql + ")", r.ok() ? *r : nullptr};
  }

  TypeId tid(const X& x) { return x.e->type->id(); }
  bool exact(const X& x) {
    TypeId t = tid(x);
    return t == TypeId::kInt || t == TypeId::kLong || t == TypeId::kDecimal;
  }

  X num(int depth) {
    if (depth <= 0 || coin(25)) {
      switch (rnd(0, 6)) {
        case 0:
        case 1:
          return col(1);
        case 2:
          return col(2);
        case 3:
          return col(3);
        case 4:
          return col(6);
        case 5:
          return lit_int(rnd(-9, 9));
        default:
          return coin(50) ? lit_double(rnd(-300, 300) / 4.0) : lit_dec(rnd(-9999, 9999));
      }
    }
    switch (rnd(0, 23)) {
      case 18:
        return fn(coin(50) ? "greatest" : "least", {num(depth - 1), num(depth - 1)});
      case 19:
        return fn("instr", {str(depth - 1), lit_str(coin(50) ? "a" : "")});
      case 20: {
        X a = num(depth - 1);
        X ab = fn("abs", {a});
        return coin(50) ? fn("sqrt", {ab}) : fn("ln", {op("+", ab, lit_int(1))});
      }
      case 21: {
        X a = str(depth - 1);
        auto r = cast(a.e, Type::int64(), true);
        return {"TRY_CAST(" + a.sql + " AS BIGINT)", *r};
      }
      case 22:
        return fn("nullif", {num(depth - 1), lit_int(rnd(-3, 3))});
      case 23:
        return fn("sign", {num(depth - 1)});
      case 0:
        return op("+", num(depth - 1), num(depth - 1));
      case 1:
        return op("-", num(depth - 1), num(depth - 1));
      case 2:
        if (mul_budget_ > 0) {
          --mul_budget_;
          return op("*", num(depth - 1), num(depth - 1));
        }
        return op("+", num(depth - 1), col(1));
      case 3:
        return op("/", num(depth - 1), coin(50) ? lit_int(rnd(1, 9)) : lit_dec(rnd(1, 999)));
      case 4:
        return op("%", num(depth - 1), lit_int(rnd(2, 9)));
      case 5:
        return fn("abs", {num(depth - 1)});
      case 6: {
        X a = num(depth - 1);
        auto r = call("-", {a.e});
        EXPECT_TRUE(r.ok());
        return {"(- " + a.sql + ")", *r};
      }
      case 7:
        return fn("coalesce", {num(depth - 1), num(depth - 1)});
      case 8: {
        X c = boolean(depth - 1), a = num(depth - 1), b = num(depth - 1);
        auto r = case_when(std::nullopt, {c.e}, {a.e}, b.e);
        EXPECT_TRUE(r.ok()) << r.status().to_string();
        return {"(CASE WHEN " + c.sql + " THEN " + a.sql + " ELSE " + b.sql + " END)", *r};
      }
      case 9:
        return fn("length", {str(depth - 1)});
      case 10: {
        static const char* kParts[] = {"year", "month", "day", "quarter", "dayofyear"};
        return fn(kParts[rnd(0, 4)], {date(depth - 1)});
      }
      case 11: {
        X a = num(depth - 1);
        if (!exact(a)) a = col(6);
        return fn("round", {a, lit_int(rnd(0, 1))});
      }
      case 12:
        return fn(coin(50) ? "ceil" : "floor", {num(depth - 1)});
      case 13: {
        X a = num(depth - 1);
        auto r = cast(a.e, Type::float64());
        return {"CAST(" + a.sql + " AS DOUBLE)", *r};
      }
      case 14: {
        X a = date(depth - 1), b = date(depth - 1);
        auto r = call("datediff", {a.e, b.e});
        EXPECT_TRUE(r.ok());
        return {"date_diff('day', " + b.sql + ", " + a.sql + ")", *r};
      }
      case 15: {
        X a = exact(col(1)) && coin(50) ? col(1) : col(2);
        auto r = cast(a.e, Type::decimal(14, 2));
        return {"CAST(" + a.sql + " AS DECIMAL(14, 2))", *r};
      }
      case 16: {
        X a = col(6);
        auto r = cast(a.e, Type::float64());
        return {"CAST(" + a.sql + " AS DOUBLE)", *r};
      }
      default:
        return op("-", date(depth - 1), date(depth - 1));
    }
  }

  X str(int depth) {
    if (depth <= 0 || coin(30)) {
      int k = rnd(0, 5);
      if (k < 3) return col(4);
      static const char* kLits[] = {"ab", "Q z", " x "};
      return lit_str(kLits[k - 3]);
    }
    switch (rnd(0, 15)) {
      case 15:
        return fn("concat_ws", {lit_str("-"), str(depth - 1), str(depth - 1)});
      case 0:
        return fn("lower", {str(depth - 1)});
      case 1:
        return fn("upper", {str(depth - 1)});
      case 2:
        return fn("substr", {str(depth - 1), lit_int(rnd(1, 4)), lit_int(rnd(0, 5))}, "substring");
      case 3:
        return fn("trim", {str(depth - 1)});
      case 4:
        return fn(coin(50) ? "ltrim" : "rtrim", {str(depth - 1)});
      case 5:
        return fn("replace", {str(depth - 1), lit_str("a"), lit_str("zz")});
      case 6:
        return op("||", str(depth - 1), str(depth - 1));
      case 7: {
        X a = coin(30) ? col(5) : coin(50) ? col(1) : col(coin(50) ? 2 : 6);
        auto r = cast(a.e, Type::string());
        return {"CAST(" + a.sql + " AS VARCHAR)", *r};
      }
      case 8:
        return fn("coalesce", {str(depth - 1), str(depth - 1)});
      case 9: {
        X c = boolean(depth - 1), a = str(depth - 1), b = str(depth - 1);
        auto r = case_when(std::nullopt, {c.e}, {a.e}, b.e);
        return {"(CASE WHEN " + c.sql + " THEN " + a.sql + " ELSE " + b.sql + " END)", *r};
      }
      case 10:
        return fn(coin(50) ? "lpad" : "rpad",
                  {str(depth - 1), lit_int(rnd(0, 6)), lit_str(coin(50) ? "*" : "xy")});
      case 11:
        return fn("reverse", {str(depth - 1)});
      case 12:
        return fn("repeat", {str(depth - 1), lit_int(rnd(0, 2))});
      case 13:
        return fn(coin(50) ? "left" : "right", {str(depth - 1), lit_int(rnd(0, 3))});
      default: {
        X a = str(depth - 1), b = str(depth - 1);
        auto r = call("concat", {a.e, *literal(Literal::string("-")), b.e});
        return {"(" + a.sql + " || '-' || " + b.sql + ")", *r};
      }
    }
  }

  X date(int depth) {
    if (depth <= 0 || coin(40)) {
      if (coin(70)) return col(5);
      int day = rnd(19000, 20500);
      std::string text = format_date(day);
      return {"DATE '" + text + "'", *literal(Literal::date(day))};
    }
    switch (rnd(0, 2)) {
      case 0:
        return op("+", date(depth - 1), lit_int(rnd(-40, 40)));
      case 1:
        return fn("coalesce", {date(depth - 1), date(depth - 1)});
      default: {
        X c = boolean(depth - 1), a = date(depth - 1), b = date(depth - 1);
        auto r = case_when(std::nullopt, {c.e}, {a.e}, b.e);
        return {"(CASE WHEN " + c.sql + " THEN " + a.sql + " ELSE " + b.sql + " END)", *r};
      }
    }
  }

  X cmp(const X& a, const X& b) {
    static const char* kOps[] = {"=", "<>", "<", "<=", ">", ">="};
    return op(kOps[rnd(0, 5)], a, b);
  }

  X boolean(int depth) {
    if (depth <= 0 || coin(20)) {
      if (coin(50)) return col(7);
      return cmp(col(1), lit_int(rnd(-20, 20)));
    }
    switch (rnd(0, 14)) {
      case 0:
        return cmp(num(depth - 1), num(depth - 1));
      case 1:
        return cmp(str(depth - 1), str(depth - 1));
      case 2:
        return cmp(date(depth - 1), date(depth - 1));
      case 3: {
        X a = boolean(depth - 1), b = boolean(depth - 1);
        return {"(" + a.sql + " AND " + b.sql + ")", *and_(a.e, b.e)};
      }
      case 4: {
        X a = boolean(depth - 1), b = boolean(depth - 1);
        return {"(" + a.sql + " OR " + b.sql + ")", *or_(a.e, b.e)};
      }
      case 5: {
        X a = boolean(depth - 1);
        return {"(NOT " + a.sql + ")", *not_(a.e)};
      }
      case 6: {
        X a = coin(50) ? num(depth - 1) : str(depth - 1);
        bool neg = coin(50);
        return {"(" + a.sql + (neg ? " IS NOT NULL)" : " IS NULL)"), *is_null(a.e, neg)};
      }
      case 7: {
        X a = num(depth - 1);
        std::vector<X> items;
        int k = rnd(1, 4);
        for (int j = 0; j < k; ++j) items.push_back(coin(15) ? null_lit() : lit_int(rnd(-10, 10)));
        bool neg = coin(40);
        std::string sql = "(" + a.sql + (neg ? " NOT IN (" : " IN (");
        std::vector<BoundExprPtr> list;
        for (size_t j = 0; j < items.size(); ++j) {
          if (j) sql += ", ";
          sql += items[j].sql;
          list.push_back(items[j].e);
        }
        auto r = in_list(a.e, list, neg);
        EXPECT_TRUE(r.ok()) << r.status().to_string();
        return {sql + "))", *r};
      }
      case 8: {
        X a = str(depth - 1);
        std::vector<X> items{lit_str("ab"), lit_str(random_word())};
        if (coin(20)) items.push_back(null_lit());
        std::string sql = "(" + a.sql + " IN (";
        std::vector<BoundExprPtr> list;
        for (size_t j = 0; j < items.size(); ++j) {
          if (j) sql += ", ";
          sql += items[j].sql;
          list.push_back(items[j].e);
        }
        return {sql + "))", *in_list(a.e, list)};
      }
      case 9:
      case 10: {
        static const char* kPatterns[] = {"a%", "%b", "_c%", "%", "%a%b%", "A_", "__", "%z"};
        X a = str(depth - 1);
        std::string p = kPatterns[rnd(0, 7)];
        bool neg = coin(30);
        bool ilike = coin(30);
        auto r = like(a.e, *literal(Literal::string(p)), neg,
                      ilike ? LikeKind::kILike : LikeKind::kLike);
        EXPECT_TRUE(r.ok());
        return {"(" + a.sql + (neg ? " NOT" : "") + (ilike ? " ILIKE '" : " LIKE '") + p + "')",
                *r};
      }
      case 11: {
        X a = num(depth - 1), lo = lit_int(rnd(-30, 0)), hi = lit_int(rnd(0, 30));
        return {"(" + a.sql + " BETWEEN " + lo.sql + " AND " + hi.sql + ")",
                *between(a.e, lo.e, hi.e)};
      }
      case 12:
        return fn(coin(50) ? "starts_with" : "contains", {str(depth - 1), lit_str("a")});
      case 13: {
        X a = num(depth - 1), b = num(depth - 1);
        return {"(" + a.sql + " IS NOT DISTINCT FROM " + b.sql + ")", *call("<=>", {a.e, b.e})};
      }
      default:
        return fn("coalesce", {boolean(depth - 1), boolean(depth - 1)});
    }
  }

  std::string random_word() {
    std::string s;
    int len = rnd(0, 6);
    for (int k = 0; k < len; ++k) {
      int c = rnd(0, 9);
      s += c == 0 ? ' ' : static_cast<char>(coin(70) ? 'a' + rnd(0, 3) : 'A' + rnd(0, 3));
    }
    return s;
  }

  X any(int depth) {
    mul_budget_ = 2;
    switch (rnd(0, 3)) {
      case 0:
        return num(depth);
      case 1:
        return str(depth);
      case 2:
        return boolean(depth);
      default:
        return coin(50) ? date(depth) : num(depth);
    }
  }

 private:
  std::mt19937_64 rng_;
  int mul_budget_ = 2;
};

bool close(double a, double b) {
  if (a == b) return true;
  double diff = std::fabs(a - b);
  return diff <= 1e-5 + 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

// Compares row `row` of `col` with DuckDB's JSON value; returns a description on mismatch.
std::string compare_value(const ColumnVector& col, int64_t row, const nlohmann::json& want) {
  if (col.is_null(row)) return want.is_null() ? "" : "floe NULL, duckdb " + want.dump();
  if (want.is_null()) {
    std::string got;
    internal::value_text(col, row, &got);
    return "floe " + got + ", duckdb NULL";
  }
  switch (col.type_id()) {
    case TypeId::kBoolean:
      if (!want.is_boolean() || want.get<bool>() != (col.raw<uint8_t>()[row] != 0)) {
        return "boolean differs: duckdb " + want.dump();
      }
      return "";
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kDecimal: {
      std::string text;
      internal::value_text(col, row, &text);
      double got = std::strtod(text.c_str(), nullptr);
      if (!want.is_number() || !close(got, want.get<double>())) {
        return "floe " + text + ", duckdb " + want.dump();
      }
      return "";
    }
    default: {
      std::string text;
      internal::value_text(col, row, &text);
      if (!want.is_string() || want.get<std::string>() != text) {
        return "floe '" + text + "', duckdb " + want.dump();
      }
      return "";
    }
  }
}

TEST(ExprDuckDb, RandomExpressionsAgree) {
  // FLOE_EXPR_SEED explores other seeds locally; CI uses the fixed one.
  const char* seed_env = std::getenv("FLOE_EXPR_SEED");
  Generator g(seed_env ? std::strtoull(seed_env, nullptr, 10) : 20240615);
  const int rows = 75;  // not a multiple of 8: partial validity bytes
  ColumnBatch batch;
  for (size_t c = 0; c < g.names.size(); ++c) {
    NestedField f;
    f.id = static_cast<int32_t>(c + 1);
    f.name = g.names[c];
    f.type = g.types[c];
    batch.fields.push_back(f);
    batch.columns.push_back(ColumnVector::make(g.types[c]));
  }
  batch.num_rows = rows;
  std::string insert = "INSERT INTO t VALUES ";
  for (int r = 0; r < rows; ++r) {
    auto null = [&] { return r > 0 && g.coin(10); };
    std::vector<std::string> sql;
    auto add = [&](size_t c, const Literal& v, const std::string& text) {
      ASSERT_TRUE(batch.columns[c]->append_literal(v).ok());
      sql.push_back(v.is_null() ? "NULL" : text);
    };
    add(0, Literal::int32(r), std::to_string(r));
    int i = g.rnd(-50, 50);
    add(1, null() ? Literal::null(Type::int32()) : Literal::int32(i), std::to_string(i));
    int64_t l = g.rnd(-100000, 100000);
    add(2, null() ? Literal::null(Type::int64()) : Literal::int64(l), std::to_string(l));
    std::string dtext = format_decimal(g.rnd(-10000, 10000), 2);
    add(3,
        null() ? Literal::null(Type::float64())
               : Literal::float64(std::strtod(dtext.c_str(), nullptr)),
        "CAST(" + dtext + " AS DOUBLE)");
    std::string s = g.coin(10) ? std::to_string(g.rnd(-99, 99)) : g.random_word();
    add(4, null() ? Literal::null(Type::string()) : Literal::string(s), "'" + s + "'");
    int day = g.rnd(19000, 20500);
    add(5, null() ? Literal::null(Type::date()) : Literal::date(day),
        "DATE '" + format_date(day) + "'");
    int cents = g.rnd(-99999, 99999);
    add(6, null() ? Literal::null(Type::decimal(10, 2)) : Literal::decimal(cents, 10, 2),
        format_decimal(cents, 2));
    bool b = g.coin(50);
    add(7, null() ? Literal::null(Type::boolean()) : Literal::boolean(b), b ? "true" : "false");
    insert += (r ? ", (" : "(");
    for (size_t k = 0; k < sql.size(); ++k) insert += (k ? ", " : "") + sql[k];
    insert += ")";
  }

  const int count = 300;
  std::vector<X> exprs;
  std::string select = "SELECT id";
  for (int k = 0; k < count; ++k) {
    X x = g.any(g.rnd(1, 4));
    ASSERT_TRUE(x.e) << x.sql;
    select += fmt::format(", {} AS c{}", x.sql, k);
    exprs.push_back(std::move(x));
  }
  fs::path out = fs::temp_directory_path() /
                 fmt::format("floe-expr-duckdb-{}-{}.json", ::getpid(), std::random_device()());
  std::string create =
      "CREATE TABLE t(id INTEGER, i INTEGER, l BIGINT, d DOUBLE, s VARCHAR, dt DATE, "
      "dc DECIMAL(10, 2), b BOOLEAN)";
  std::string copy =
      "COPY (" + select + " FROM t ORDER BY id) TO '" + out.string() + "' (FORMAT JSON)";
  std::string cmd = "cd " + shell_quote(std::string(FLOE_SOURCE_DIR) + "/tests/oracle") +
                    " && node parquet_duckdb.mjs --exec " + shell_quote(create) + " " +
                    shell_quote(insert) + " " + shell_quote(copy) + " 2>&1";
  int rc = 0;
  std::string log = run_command(cmd, &rc);
  ASSERT_EQ(rc, 0) << log.substr(0, 2000);
  std::ifstream in(out);
  std::vector<nlohmann::json> duck;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) duck.push_back(nlohmann::json::parse(line));
  }
  fs::remove(out);
  ASSERT_EQ(duck.size(), static_cast<size_t>(rows));

  int compared = 0, failures = 0;
  for (int k = 0; k < count; ++k) {
    auto col = evaluate(*exprs[k].e, batch);
    ASSERT_TRUE(col.ok()) << exprs[k].sql << ": " << col.status().to_string();
    for (int r = 0; r < rows; ++r) {
      ASSERT_EQ(duck[r]["id"].get<int>(), r);
      std::string diff = compare_value(**col, r, duck[r][fmt::format("c{}", k)]);
      ++compared;
      if (!diff.empty() && ++failures <= 10) {
        ADD_FAILURE() << "expression " << k << ": " << exprs[k].sql
                      << "\n  floe: " << to_string(*exprs[k].e, g.names) << "\n  row " << r << ": "
                      << diff;
      }
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(compared, count * rows);
}

}  // namespace
}  // namespace floe::sql
