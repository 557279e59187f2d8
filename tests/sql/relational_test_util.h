// Helpers shared by the relational kernel tests: building columns from literals, rendering rows
// as canonical JSON text, random data.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "sql/exec/relational_internal.h"

namespace floe::sql::relational_testing {

inline NestedField field(int32_t id, std::string name, TypePtr type) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.type = std::move(type);
  return f;
}

inline ColumnPtr column(const TypePtr& type, const std::vector<Literal>& values) {
  auto c = ColumnVector::make(type);
  for (const auto& v : values) {
    Status s = c->append_literal(v);
    EXPECT_TRUE(s.ok()) << s.to_string();
  }
  return c;
}

inline ColumnPtr longs(const std::vector<std::optional<int64_t>>& v) {
  auto c = ColumnVector::make(Type::int64());
  for (auto x : v) {
    if (x) {
      c->append_fixed<int64_t>(*x);
    } else {
      c->append_null();
    }
  }
  return c;
}

inline ColumnPtr doubles(const std::vector<std::optional<double>>& v) {
  auto c = ColumnVector::make(Type::float64());
  for (auto x : v) {
    if (x) {
      c->append_fixed<double>(*x);
    } else {
      c->append_null();
    }
  }
  return c;
}

inline ColumnPtr strings(const std::vector<std::optional<std::string>>& v) {
  auto c = ColumnVector::make(Type::string());
  for (const auto& x : v) {
    if (x) {
      c->append_bytes(*x);
    } else {
      c->append_null();
    }
  }
  return c;
}

inline ColumnBatch batch_of(std::vector<NestedField> fields, std::vector<ColumnPtr> cols) {
  ColumnBatch b;
  b.fields = std::move(fields);
  b.num_rows = cols.empty() ? 0 : cols[0]->length();
  b.columns = std::move(cols);
  return b;
}

inline std::string cell(const ColumnVector& c, int64_t i) {
  std::string s;
  JsonOptions o;
  o.maps_as_pairs = true;
  write_value_json(c, i, o, &s);
  return s;
}

inline std::string row_text(const ColumnBatch& b, int64_t r) {
  std::string s;
  JsonOptions o;
  o.rows_as_arrays = true;
  o.maps_as_pairs = true;
  write_row_json(b, r, o, &s);
  return s;
}

inline std::vector<std::string> rows_text(const ColumnBatch& b) {
  std::vector<std::string> out;
  for (int64_t r = 0; r < b.num_rows; ++r) out.push_back(row_text(b, r));
  return out;
}

inline std::vector<std::string> sorted_rows(const ColumnBatch& b) {
  auto v = rows_text(b);
  std::sort(v.begin(), v.end());
  return v;
}

// A random nullable long column over [lo, hi].
inline ColumnPtr random_longs(std::mt19937_64& rng, int64_t n, int64_t lo, int64_t hi,
                              double null_rate) {
  std::uniform_int_distribution<int64_t> d(lo, hi);
  std::bernoulli_distribution nul(null_rate);
  auto c = ColumnVector::make(Type::int64());
  for (int64_t i = 0; i < n; ++i) {
    if (nul(rng)) {
      c->append_null();
    } else {
      c->append_fixed<int64_t>(d(rng));
    }
  }
  return c;
}

}  // namespace floe::sql::relational_testing
