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
  EXPECT_EQ(filter_text("event_ts >= '2024-06-15' AND country = 'DE' AND name LIKE 'Mo%'"), "X");
  EXPECT_EQ(filter_text("id IN (1, 2, 3) OR NOT (amount BETWEEN 10.50 AND 20 OR isnan(score))"),
            "X");
  EXPECT_EQ(filter_text("5 < n and `country` is not null and d = DATE '2024-01-02'"), "X");
  EXPECT_EQ(filter_text("name = 'it''s' AND n <> -3 AND score != 1.5e3"), "X");
}

TEST(FilterTest, ErrorsPointAtTheToken) {
  EXPECT_EQ(error_of("country = 'DE' AND amount FORM 3"), "X");
  EXPECT_EQ(error_of("id IN (1, 2"), "X");
  EXPECT_EQ(error_of("a = 'x\n  AND b = "), "X");
  EXPECT_EQ(error_of("id = 1\n AND name LIKE '%x'"), "X");
  EXPECT_EQ(error_of("id = NULL"), "X");
}

}  // namespace
}  // namespace floe::sql
