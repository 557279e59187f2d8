// Row kernels of floe/columnar/kernels.h over every type, nested included: gather (with null
// rows), mask take, concat and slice.
#include "floe/columnar/kernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "floe/util/uuid.h"

namespace floe {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

NestedField field(int32_t id, std::string name, TypePtr type) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.type = std::move(type);
  return f;
}

ColumnPtr column(const TypePtr& type, const std::vector<Literal>& values) {
  auto c = ColumnVector::make(type);
  for (const auto& v : values) {
    Status s = c->append_literal(v);
    EXPECT_TRUE(s.ok()) << s.to_string();
  }
  return c;
}

ColumnPtr longs(const std::vector<std::optional<int64_t>>& v) {
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

ColumnPtr doubles(const std::vector<std::optional<double>>& v) {
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

ColumnBatch batch_of(std::vector<NestedField> fields, std::vector<ColumnPtr> cols) {
  ColumnBatch b;
  b.fields = std::move(fields);
  b.num_rows = cols.empty() ? 0 : cols[0]->length();
  b.columns = std::move(cols);
  return b;
}

std::string cell(const ColumnVector& c, int64_t i) {
  std::string s;
  JsonOptions o;
  o.maps_as_pairs = true;
  write_value_json(c, i, o, &s);
  return s;
}

std::string row_text(const ColumnBatch& b, int64_t r) {
  std::string s;
  JsonOptions o;
  o.rows_as_arrays = true;
  o.maps_as_pairs = true;
  write_row_json(b, r, o, &s);
  return s;
}

std::vector<std::string> rows_text(const ColumnBatch& b) {
  std::vector<std::string> out;
  for (int64_t r = 0; r < b.num_rows; ++r) out.push_back(row_text(b, r));
  return out;
}

// Every type the kernels handle, with small value domains so ties and duplicates are common.
std::vector<NestedField> all_type_fields() {
  auto st = Type::struct_of({field(101, "a", Type::int32()), field(102, "b", Type::string())});
  return {
      field(1, "b", Type::boolean()),
      field(2, "i", Type::int32()),
      field(3, "l", Type::int64()),
      field(4, "f", Type::float32()),
      field(5, "d", Type::float64()),
      field(6, "dec", Type::decimal(10, 2)),
      field(7, "dt", Type::date()),
      field(8, "t", Type::time()),
      field(9, "ts", Type::timestamp()),
      field(10, "tz", Type::timestamptz()),
      field(11, "s", Type::string()),
      field(12, "bin", Type::binary()),
      field(13, "u", Type::uuid()),
      field(14, "fx", Type::fixed(3)),
      field(15, "st", st),
      field(16, "li", Type::list_of(103, Type::int64(), false)),
      field(17, "m", Type::map_of(104, Type::string(), 105, Type::int32(), false)),
  };
}

Literal random_literal(std::mt19937_64& rng, const TypePtr& t, double null_rate = 0.15) {
  std::bernoulli_distribution nul(null_rate);
  if (nul(rng)) return Literal::null(t);
  std::uniform_int_distribution<int> small(-3, 3);
  auto str = [&](int max_len) {
    std::uniform_int_distribution<int> len(0, max_len);
    std::string s;
    int n = len(rng);
    for (int i = 0; i < n; ++i) s.push_back(static_cast<char>('a' + (rng() % 3)));
    return s;
  };
  static const double kDoubles[] = {-1.5, -0.0, 0.0, 1.0, 2.5, kNaN, kInf, -kInf};
  switch (t->id()) {
    case TypeId::kBoolean:
      return Literal::boolean(rng() % 2);
    case TypeId::kInt:
      return Literal::int32(small(rng));
    case TypeId::kLong:
      return Literal::int64(small(rng) * 1000000000000LL);
    case TypeId::kFloat:
      return Literal::float32(static_cast<float>(kDoubles[rng() % 8]));
    case TypeId::kDouble:
      return Literal::float64(kDoubles[rng() % 8]);
    case TypeId::kDecimal:
      return Literal::decimal(static_cast<int128_t>(small(rng)) * 12345, t->precision(),
                              t->scale());
    case TypeId::kDate:
      return Literal::date(small(rng) * 1000);
    case TypeId::kTime:
      return Literal::time((small(rng) + 3) * 1000000LL);
    case TypeId::kTimestamp:
      return Literal::timestamp(small(rng) * 86400000000LL);
    case TypeId::kTimestampTz:
      return Literal::timestamptz(small(rng) * 3600000000LL);
    case TypeId::kString:
      return Literal::string(str(3));
    case TypeId::kBinary:
      return Literal::binary(str(10));
    case TypeId::kUuid: {
      Uuid u;
      u.bytes[15] = static_cast<uint8_t>(rng() % 3);
      u.bytes[0] = static_cast<uint8_t>(rng() % 2 ? 0xff : 0x01);
      return Literal::uuid(u);
    }
    case TypeId::kFixed: {
      std::string s(3, 'x');
      s[2] = static_cast<char>(rng() % 3);
      return Literal::fixed(s);
    }
    case TypeId::kStruct: {
      std::vector<Literal> f;
      for (const auto& c : t->fields()) f.push_back(random_literal(rng, c.type, 0.2));
      return Literal::struct_value(t, f);
    }
    case TypeId::kList: {
      std::vector<Literal> e;
      int n = static_cast<int>(rng() % 3);
      for (int i = 0; i < n; ++i) e.push_back(random_literal(rng, t->element().type, 0.1));
      return Literal::list_value(t, e);
    }
    case TypeId::kMap: {
      std::vector<Literal> k, v;
      int n = static_cast<int>(rng() % 3);
      for (int i = 0; i < n; ++i) {
        k.push_back(Literal::string(std::string(1, static_cast<char>('a' + i))));
        v.push_back(random_literal(rng, t->value().type, 0.1));
      }
      return Literal::map_value(t, k, v);
    }
    default:
      return Literal::null(t);
  }
}

ColumnBatch random_batch(std::mt19937_64& rng, const std::vector<NestedField>& fields, int64_t n) {
  std::vector<ColumnPtr> cols;
  for (const auto& f : fields) {
    std::vector<Literal> v;
    for (int64_t i = 0; i < n; ++i) v.push_back(random_literal(rng, f.type));
    cols.push_back(column(f.type, v));
  }
  return batch_of(fields, cols);
}

TEST(ColumnKernels, GatherConcatSliceEveryType) {
  std::mt19937_64 rng(11);
  auto fields = all_type_fields();
  ColumnBatch a = random_batch(rng, fields, 100);
  ColumnBatch b = random_batch(rng, fields, 57);
  std::vector<int32_t> idx;
  for (int i = 0; i < 300; ++i) idx.push_back(static_cast<int32_t>(rng() % 101) - 1);
  ColumnBatch g = gather(a, idx);
  ASSERT_EQ(g.num_rows, 300);
  for (size_t c = 0; c < fields.size(); ++c) {
    ASSERT_EQ(g.columns[c]->length(), 300);
    for (size_t k = 0; k < idx.size(); ++k) {
      std::string want = idx[k] < 0 ? "null" : cell(*a.columns[c], idx[k]);
      EXPECT_EQ(cell(*g.columns[c], static_cast<int64_t>(k)), want) << fields[c].name;
    }
  }
  // Gathering an already gathered (null-carrying) batch again, then concat and slice.
  ColumnBatch all = *concat_batches({a, g, b});
  ASSERT_EQ(all.num_rows, 457);
  auto ta = rows_text(a), tg = rows_text(g), tb = rows_text(b), tall = rows_text(all);
  std::vector<std::string> want = ta;
  want.insert(want.end(), tg.begin(), tg.end());
  want.insert(want.end(), tb.begin(), tb.end());
  EXPECT_EQ(tall, want);
  ColumnBatch s = slice_batch(all, 90, 20);
  EXPECT_EQ(rows_text(s), std::vector<std::string>(want.begin() + 90, want.begin() + 110));
  EXPECT_EQ(slice_batch(all, 450, 100).num_rows, 7);
  EXPECT_EQ(slice_batch(all, 500, 10).num_rows, 0);
  EXPECT_EQ(rows_text(slice_batch(all, 0, 1000)), want);
  // A slice of a nested column re-based at zero gathers correctly.
  ColumnBatch gs = gather(s, {19, -1, 0});
  EXPECT_EQ(row_text(gs, 0), want[109]);
  EXPECT_EQ(row_text(gs, 2), want[90]);
  auto nulls = null_column(fields[16].type, 3);
  EXPECT_EQ(nulls->null_count(), 3);
  EXPECT_EQ(cell(*nulls, 1), "null");
}

TEST(ColumnKernels, ConcatRejectsMismatchedTypes) {
  auto a = batch_of({field(1, "x", Type::int64())}, {longs({1})});
  auto b = batch_of({field(1, "x", Type::float64())}, {doubles({1.0})});
  EXPECT_FALSE(concat_batches({a, b}).ok());
  auto empty = *concat_batches({}, {field(1, "x", Type::int64())});
  EXPECT_EQ(empty.num_rows, 0);
  EXPECT_EQ(empty.columns.size(), 1u);
}

TEST(ColumnKernels, GatherKeepsNestedRows) {
  // Gathering repeats and reorders rows of nested columns (the partitioned writer's fan-out).
  std::mt19937_64 rng(9);
  auto fields = all_type_fields();
  ColumnBatch b = random_batch(rng, fields, 50);
  std::vector<int32_t> idx = {49, 0, 3, 3, 17};
  ColumnBatch g = gather(b, idx);
  auto all = rows_text(b);
  auto got = rows_text(g);
  ASSERT_EQ(got.size(), idx.size());
  for (size_t i = 0; i < idx.size(); ++i) EXPECT_EQ(got[i], all[static_cast<size_t>(idx[i])]);
}

TEST(ColumnKernels, TakeRowsOfAMaskEveryType) {
  std::mt19937_64 rng(5);
  auto fields = all_type_fields();
  ColumnBatch a = random_batch(rng, fields, 200);
  std::vector<uint8_t> keep(200);
  std::vector<int32_t> kept_rows;
  for (int i = 0; i < 200; ++i) {
    keep[static_cast<size_t>(i)] = rng() % 3 == 0;
    if (keep[static_cast<size_t>(i)]) kept_rows.push_back(i);
  }
  ColumnBatch t = take_rows(a, keep.data());
  ASSERT_EQ(t.num_rows, static_cast<int64_t>(kept_rows.size()));
  EXPECT_EQ(rows_text(t), rows_text(gather(a, kept_rows)));
  // Long runs (deletes of a few rows, as merge-on-read leaves them), the ends dropped or kept.
  for (int percent : {1, 5, 50, 99}) {
    for (int ends = 0; ends < 2; ++ends) {
      std::vector<int32_t> rows;
      for (int i = 0; i < 200; ++i) {
        bool k = static_cast<int>(rng() % 100) >= percent;
        if (i == 0 || i == 199) k = ends == 1;
        keep[static_cast<size_t>(i)] = k;
        if (k) rows.push_back(i);
      }
      SCOPED_TRACE(std::to_string(percent) + "% dropped, ends kept: " + std::to_string(ends));
      EXPECT_EQ(rows_text(take_rows(a, keep.data())), rows_text(gather(a, rows)));
    }
  }
  // Every row kept: the batch itself.
  std::vector<uint8_t> all(200, 1);
  EXPECT_EQ(take_rows(a, all.data()).columns[0].get(), a.columns[0].get());
}

// keep_rows compacts the columns only the batch holds in their own buffers and copies the rest;
// either way the rows are those of take_rows, and a column shared with another batch is left
// as it was.
TEST(ColumnKernels, KeepRowsInPlaceMatchesTakeRows) {
  std::mt19937_64 rng(7);
  auto fields = all_type_fields();
  const ColumnBatch a = random_batch(rng, fields, 300);
  std::vector<int32_t> all_rows(300);
  for (int i = 0; i < 300; ++i) all_rows[static_cast<size_t>(i)] = i;
  const auto before = rows_text(a);
  std::vector<uint8_t> keep(300);
  for (int percent : {0, 1, 5, 50, 90, 100}) {
    std::vector<int32_t> rows;
    for (int i = 0; i < 300; ++i) {
      bool k = static_cast<int>(rng() % 100) >= percent;
      keep[static_cast<size_t>(i)] = k;
      if (k) rows.push_back(i);
    }
    SCOPED_TRACE(std::to_string(percent) + "% dropped");
    const auto expected = rows_text(gather(a, rows));
    ColumnBatch own = gather(a, all_rows);  // columns no one else holds: compacted in place
    const ColumnVector* first = own.columns[0].get();
    keep_rows(own, keep.data());
    EXPECT_EQ(own.num_rows, static_cast<int64_t>(rows.size()));
    for (const auto& c : own.columns) EXPECT_EQ(c->length(), own.num_rows);
    EXPECT_EQ(rows_text(own), expected);
    EXPECT_EQ(own.columns[0].get(), first);  // a flat column stays the same object
    ColumnBatch shared = a;                  // columns shared with `a`: copied, `a` untouched
    keep_rows(shared, keep.data());
    EXPECT_EQ(rows_text(shared), expected);
    EXPECT_EQ(rows_text(a), before);
  }
}

// The AVX-512 compaction of 4- and 8-byte values (where the CPU has it) and the portable copies
// give the rows of gather for every batch length around the 8-, 16- and 64-row blocks, masks
// that drop nothing but the last row, keep the first 64 rows whole, drop everything, or use
// nonzero bytes other than 1 for kept rows, in place and into new columns.
TEST(ColumnKernels, MaskTakesAgreeWithAndWithoutSimd) {
  std::mt19937_64 rng(11);
  auto fields = all_type_fields();
  for (int64_t n : {1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 127, 128, 129, 200, 1000}) {
    const ColumnBatch a = random_batch(rng, fields, n);
    std::vector<int32_t> all_rows(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) all_rows[static_cast<size_t>(i)] = static_cast<int32_t>(i);
    for (int pattern = 0; pattern < 6; ++pattern) {
      std::vector<uint8_t> keep(static_cast<size_t>(n));
      std::vector<int32_t> rows;
      for (int64_t i = 0; i < n; ++i) {
        bool k = true;
        switch (pattern) {
          case 0:
            k = i != n - 1;
            break;  // the last row only
          case 1:
            k = i < 64 || rng() % 10 != 0;
            break;  // 64 whole rows first
          case 2:
            k = false;
            break;  // everything
          case 3:
            k = rng() % 20 != 0;
            break;  // 5 %
          case 4:
            k = rng() % 2 == 0;
            break;  // half
          default:
            k = rng() % 3 != 0;
            break;  // with bytes other than 1
        }
        keep[static_cast<size_t>(i)] =
            k ? (pattern == 5 ? static_cast<uint8_t>(1 + rng() % 255) : 1) : 0;
        if (k) rows.push_back(static_cast<int32_t>(i));
      }
      const auto expected = rows_text(gather(a, rows));
      for (bool simd : {true, false}) {
        SCOPED_TRACE(std::to_string(n) + " rows, pattern " + std::to_string(pattern) +
                     (simd ? ", simd" : ", portable"));
        const bool before = set_simd_kernels(simd);
        ColumnBatch own = gather(a, all_rows);
        keep_rows(own, keep.data());
        EXPECT_EQ(own.num_rows, static_cast<int64_t>(rows.size()));
        for (const auto& c : own.columns) EXPECT_EQ(c->length(), own.num_rows);
        EXPECT_EQ(rows_text(own), expected);
        EXPECT_EQ(rows_text(take_rows(a, keep.data())), expected);
        set_simd_kernels(before);
      }
    }
  }
}

}  // namespace
}  // namespace floe
