// floe/sql/filter.h: WHERE filters in the SQL grammar (floe scan --where) converted to Iceberg
// expressions over a table schema, and the errors that name the offending token or predicate.
#include "floe/sql/filter.h"

#include <gtest/gtest.h>

namespace floe::sql {
namespace {

NestedField field(int32_t id, std::string name, TypePtr type, bool required = false) {
  return NestedField{id, std::move(name), std::move(type), required,
                     "", std::nullopt,    std::nullopt};
}

const Schema& schema() {
  static const Schema s(
      0, {field(1, "id", Type::int64(), true), field(2, "country", Type::string()),
          field(3, "event_ts", Type::timestamptz()), field(4, "amount", Type::decimal(10, 2)),
          field(5, "score", Type::float64()), field(6, "d", Type::date()),
          field(7, "n", Type::int32()), field(8, "name", Type::string())});
  return s;
}

std::string filter_text(std::string_view where) {
  auto e = parse_filter(where, schema());
  EXPECT_TRUE(e.ok()) << e.status().to_string();
  return e.ok() ? (*e)->to_string() : "";
}

std::string error_of(std::string_view where) {
  auto e = parse_filter(where, schema());
  EXPECT_FALSE(e.ok()) << where;
  return e.ok() ? "" : e.status().message();
}

TEST(FilterTest, ParsesTheLessonFilters) {
  EXPECT_EQ(filter_text("event_ts >= '2024-06-15' AND country = 'DE' AND name LIKE 'Mo%'"),
            "((event_ts >= 2024-06-15T00:00:00+00:00 AND country = 'DE') AND name LIKE 'Mo%')");
  EXPECT_EQ(filter_text("id IN (1, 2, 3) OR NOT (amount BETWEEN 10.50 AND 20 OR isnan(score))"),
            "(id IN (1, 2, 3) OR NOT ((amount >= 10.50 AND amount <= 20.00) OR isnan(score)))");
  EXPECT_EQ(filter_text("5 < n and `country` is not null and d = DATE '2024-01-02'"),
            "((n > 5 AND country IS NOT NULL) AND d = 2024-01-02)");
  EXPECT_EQ(filter_text("name = 'it''s' AND n <> -3 AND score != 1.5e3"),
            "((name = 'it''s' AND n != -3) AND score != 1500.0)");
}

TEST(FilterTest, ErrorsPointAtTheToken) {
  EXPECT_EQ(error_of("country = 'DE' AND amount FORM 3"),
            "syntax error at 1:27 near 'FORM': expected end of expression");
  EXPECT_EQ(error_of("id IN (1, 2"), "syntax error at 1:12 near end of input: expected ')'");
  EXPECT_EQ(error_of("a = 'x\n  AND b = "),
            "syntax error at 1:5 near ''x': unterminated string literal");
  EXPECT_EQ(error_of("id = 1\n AND name LIKE '%x'"),
            "filter predicate at 2:11 cannot be converted to an Iceberg filter: (name LIKE '%x') "
            "(only [NOT] LIKE 'prefix%' converts)");
  EXPECT_EQ(error_of("id = NULL"),
            "filter predicate at 1:6 cannot be converted to an Iceberg filter: NULL (comparison "
            "with NULL is never true; use IS NULL or IS NOT NULL)");
}

TEST(FilterTest, NamesResolveAgainstTheSchema) {
  // Case-insensitive names report the schema's name; literals take the column's type.
  auto e = parse_filter("COUNTRY = 'DE' AND D < '2024-01-02' AND Amount = 10.5", schema());
  ASSERT_TRUE(e.ok()) << e.status().to_string();
  EXPECT_EQ((*e)->to_string(), "((country = 'DE' AND d < 2024-01-02) AND amount = 10.50)");
  EXPECT_NE(error_of("missing = 1").find("'missing'"), std::string::npos);
  EXPECT_EQ(error_of("n + 1 = 2"),
            "filter predicate at 1:7 cannot be converted to an Iceberg filter: ((n + 1) = 2) "
            "(expected a column compared with a literal)");
  EXPECT_NE(error_of("isnan(n)").find("isnan"), std::string::npos);
  EXPECT_NE(error_of("amount = 1.234").find("1.234 (expected a value of type decimal(10, 2)"),
            std::string::npos);
  // A string literal binds to the column's type (checked when parse_filter binds), as the
  // scan's filter always has; one that does not convert is an error.
  EXPECT_EQ(filter_text("amount = '12.30'"), "amount = '12.30'");
  EXPECT_FALSE(parse_filter("amount = 'x'", schema()).ok());
  EXPECT_EQ(filter_text("NOT FALSE AND name NOT LIKE 'ab%'"), "name NOT LIKE 'ab%'");
  EXPECT_EQ(filter_text("n NOT BETWEEN 1 AND 3"), "NOT (n >= 1 AND n <= 3)");
}

TEST(FilterTest, StartsWithIsLikePrefix) {
  EXPECT_EQ(filter_text("startswith(name, 'Mo')"), filter_text("name LIKE 'Mo%'"));
  EXPECT_EQ(filter_text("STARTS_WITH(name, 'Mo') AND NOT startswith(country, 'D')"),
            filter_text("name LIKE 'Mo%' AND NOT (country LIKE 'D%')"));
  EXPECT_NE(error_of("startswith(name, country)").find("constant string"), std::string::npos);
  EXPECT_NE(error_of("startswith(n, '1')").find("string column"), std::string::npos);
  EXPECT_NE(error_of("startswith(upper(name), 'M')").find("expected a column"), std::string::npos);
}

}  // namespace
}  // namespace floe::sql
