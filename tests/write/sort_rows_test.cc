// Rows in a table sort order (floe/write/sort_rows.h): every transform the writers use, both
// directions and null orders, nested sources, NaN and ties. The expected order is computed
// independently, per row through Transform::apply and Literal::compare.
#include "floe/write/sort_rows.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "floe/columnar/compare.h"
#include "write/write_test_util.h"

namespace floe {
namespace {

using test_support::field;

SchemaPtr test_schema() {
  return std::make_shared<Schema>(
      0,
      std::vector<NestedField>{field(1, "id", Type::int64()), field(2, "name", Type::string()),
                               field(3, "ts", Type::timestamp()), field(4, "d", Type::float64()),
                               field(5, "dec", Type::decimal(9, 2)),
                               field(6, "loc", Type::struct_of({field(7, "zip", Type::int32())}))});
}

// n rows of few distinct values (so ties are common), about one in seven null per column.
ColumnBatch random_batch(int n, uint32_t seed) {
  ColumnBatch b = ColumnBatch::make(test_schema()->fields());
  std::mt19937 rng(seed);
  auto null = [&] { return rng() % 7 == 0; };
  const char* names[] = {"apple", "apricot", "banana", "b", "", "\xc3\xa9t\xc3\xa9", "zz"};
  const double doubles[] = {-1.5,
                            0.0,
                            -0.0,
                            2.25,
                            std::numeric_limits<double>::quiet_NaN(),
                            -std::numeric_limits<double>::infinity(),
                            1e300};
  for (int i = 0; i < n; ++i) {
    if (null()) {
      b.columns[0]->append_null();
    } else {
      b.columns[0]->append_fixed<int64_t>(static_cast<int64_t>(rng() % 40) - 20);
    }
    if (null()) {
      b.columns[1]->append_null();
    } else {
      b.columns[1]->append_bytes(names[rng() % 7]);
    }
    if (null()) {
      b.columns[2]->append_null();
    } else {
      // Around 1970 too: negative micros exercise floor division in day and hour.
      b.columns[2]->append_fixed<int64_t>((static_cast<int64_t>(rng() % 200) - 100) *
                                          3'600'000'000LL / 7);
    }
    if (null()) {
      b.columns[3]->append_null();
    } else {
      b.columns[3]->append_fixed<double>(doubles[rng() % 7]);
    }
    if (null()) {
      b.columns[4]->append_null();
    } else {
      b.columns[4]->append_fixed<int128_t>(static_cast<int128_t>(rng() % 2000) - 1000);
    }
    ColumnVector& loc = *b.columns[5];
    if (null()) {
      loc.child(0).append_null();
      loc.append_null();
    } else {
      if (null()) {
        loc.child(0).append_null();
      } else {
        loc.child(0).append_fixed<int32_t>(static_cast<int32_t>(rng() % 5));
      }
      loc.append_struct();
    }
  }
  b.num_rows = n;
  return b;
}

SortField sort_field(int32_t source, Transform t, bool asc, bool nulls_first) {
  SortField f;
  f.source_id = source;
  f.transform = t;
  f.direction = asc ? SortDirection::kAsc : SortDirection::kDesc;
  f.null_order = nulls_first ? NullOrder::kNullsFirst : NullOrder::kNullsLast;
  return f;
}

// The value of `source` in row i (a nested field is null when its struct is).
Literal source_value(const ColumnBatch& b, int32_t source, int64_t i) {
  if (source == 7) {
    const ColumnVector& loc = *b.columns[5];
    if (loc.is_null(i)) return Literal::null(Type::int32());
    return loc.child(0).literal_at(i);
  }
  return b.columns[static_cast<size_t>(source - 1)]->literal_at(i);
}

// Spark's double order (NaN above everything, -0.0 = 0.0), which Literal::compare may not share.
int compare_keys(const Literal& a, const Literal& b) {
  if (a.type() && a.type()->id() == TypeId::kDouble) {
    return compare_doubles(a.as_double(), b.as_double());
  }
  return a.compare(b);
}

std::vector<int32_t> expected_order(const SortOrder& order, const ColumnBatch& b) {
  const int64_t n = b.num_rows;
  std::vector<std::vector<Literal>> keys(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    for (const SortField& f : order.fields) {
      Literal v = source_value(b, f.source_id, i);
      keys[i].push_back(v.is_null() ? v : *f.transform.apply(v));
    }
  }
  std::vector<int32_t> rows(static_cast<size_t>(n));
  std::iota(rows.begin(), rows.end(), 0);
  std::stable_sort(rows.begin(), rows.end(), [&](int32_t x, int32_t y) {
    for (size_t k = 0; k < order.fields.size(); ++k) {
      const SortField& f = order.fields[k];
      const Literal &a = keys[x][k], &c = keys[y][k];
      if (a.is_null() || c.is_null()) {
        if (a.is_null() && c.is_null()) continue;
        return a.is_null() == (f.null_order == NullOrder::kNullsFirst);
      }
      const int r = compare_keys(a, c);
      if (r != 0) return f.direction == SortDirection::kAsc ? r < 0 : r > 0;
    }
    return false;
  });
  return rows;
}

struct Case {
  const char* name;
  std::vector<SortField> fields;
};

TEST(SortRows, EveryTransformDirectionAndNullOrder) {
  const std::vector<Case> cases = {
      {"id asc nulls first", {sort_field(1, Transform::identity(), true, true)}},
      {"id desc nulls last", {sort_field(1, Transform::identity(), false, false)}},
      {"id asc nulls last", {sort_field(1, Transform::identity(), true, false)}},
      {"name desc nulls first, id",
       {sort_field(2, Transform::identity(), false, true),
        sort_field(1, Transform::identity(), true, true)}},
      {"truncate(2, name), id desc",
       {sort_field(2, Transform::truncate(2), true, true),
        sort_field(1, Transform::identity(), false, false)}},
      {"bucket(4, id), name",
       {sort_field(1, Transform::bucket(4), true, true),
        sort_field(2, Transform::identity(), true, true)}},
      {"bucket(3, name) desc", {sort_field(2, Transform::bucket(3), false, false)}},
      {"truncate(10, id)", {sort_field(1, Transform::truncate(10), true, false)}},
      {"days(ts) desc, hours(ts)",
       {sort_field(3, Transform::day(), false, true),
        sort_field(3, Transform::hour(), true, true)}},
      {"years(ts), months(ts)",
       {sort_field(3, Transform::year(), true, true),
        sort_field(3, Transform::month(), true, false)}},
      {"d (NaN, -0.0, infinities)", {sort_field(4, Transform::identity(), true, true)}},
      {"d desc", {sort_field(4, Transform::identity(), false, false)}},
      {"dec", {sort_field(5, Transform::identity(), true, true)}},
      {"truncate(100, dec) desc, id",
       {sort_field(5, Transform::truncate(100), false, true),
        sort_field(1, Transform::identity(), true, true)}},
      {"loc.zip, id",
       {sort_field(7, Transform::identity(), true, false),
        sort_field(1, Transform::identity(), true, true)}},
      {"bucket(2, loc.zip) desc", {sort_field(7, Transform::bucket(2), false, true)}},
  };
  SchemaPtr schema = test_schema();
  for (uint32_t seed : {1u, 2u, 3u}) {
    ColumnBatch b = random_batch(300, seed);
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(c.name) + " seed " + std::to_string(seed));
      SortOrder order;
      order.order_id = 1;
      order.fields = c.fields;
      auto got = sort_permutation(order, *schema, b);
      ASSERT_TRUE(got.ok()) << got.status().to_string();
      EXPECT_EQ(*got, expected_order(order, b));
    }
  }
}

TEST(SortRows, SortsTheRowsAndKeepsTiesInOrder) {
  SchemaPtr schema = test_schema();
  ColumnBatch b = random_batch(50, 9);
  SortOrder order;
  order.fields = {sort_field(1, Transform::identity(), false, false)};
  auto sorted = sort_rows(order, *schema, b);
  ASSERT_TRUE(sorted.ok()) << sorted.status().to_string();
  ASSERT_EQ(sorted->num_rows, 50);
  // Descending ids, nulls last; among equal ids the original order (the names follow it).
  std::vector<int32_t> perm = expected_order(order, b);
  for (int64_t i = 0; i < 50; ++i) {
    EXPECT_EQ(sorted->columns[0]->literal_at(i).to_string(),
              b.columns[0]->literal_at(perm[i]).to_string());
    EXPECT_EQ(sorted->columns[1]->literal_at(i).to_string(),
              b.columns[1]->literal_at(perm[i]).to_string());
  }
  for (int64_t i = 1; i < 50; ++i) {
    const ColumnVector& id = *sorted->columns[0];
    if (id.is_null(i)) continue;
    ASSERT_FALSE(id.is_null(i - 1));
    EXPECT_GE(id.raw<int64_t>()[i - 1], id.raw<int64_t>()[i]);
  }
}

TEST(SortRows, UnknownSourceIsAnError) {
  SchemaPtr schema = test_schema();
  ColumnBatch b = random_batch(3, 1);
  SortOrder order;
  order.fields = {sort_field(99, Transform::identity(), true, true)};
  auto got = sort_permutation(order, *schema, b);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("99"), std::string::npos);
}

}  // namespace
}  // namespace floe
