// HashJoin: every join type with NULL keys, duplicates, null-safe keys and residuals, checked
// against a nested-loop reference on random data.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "sql/exec/join_internal.h"
#include "sql/relational_test_util.h"

namespace floe::sql {
namespace {

using namespace floe::sql::relational_testing;

// Left: pos, k1 (long), k2 (string), p (long). Right: k1, k2, p, id.
std::vector<NestedField> left_fields() {
  return {field(1, "pos", Type::int64()), field(2, "k1", Type::int64()),
          field(3, "k2", Type::string()), field(4, "p", Type::int64())};
}
std::vector<NestedField> right_fields() {
  return {field(11, "k1", Type::int64()), field(12, "k2", Type::string()),
          field(13, "p", Type::int64()), field(14, "id", Type::int64())};
}

ColumnBatch random_side(std::mt19937_64& rng, int64_t n, bool left, int64_t start) {
  auto pos = ColumnVector::make(Type::int64());
  for (int64_t i = 0; i < n; ++i) pos->append_fixed<int64_t>(start + i);
  auto k1 = random_longs(rng, n, 0, 6, 0.15);
  auto k2 = ColumnVector::make(Type::string());
  for (int64_t i = 0; i < n; ++i) {
    if (rng() % 6 == 0) {
      k2->append_null();
    } else {
      k2->append_bytes(std::string(1, static_cast<char>('a' + rng() % 3)));
    }
  }
  auto p = random_longs(rng, n, 0, 20, 0.1);
  if (left) return batch_of(left_fields(), {pos, k1, k2, p});
  return batch_of(right_fields(), {k1, k2, p, pos});
}

std::string strip(const std::string& row, bool open) {
  return open ? row.substr(0, row.size() - 1) : row.substr(1);
}

struct Case {
  JoinType type;
  std::vector<int> lk, rk;
  std::vector<bool> null_safe;
  bool residual;
};

bool key_match(const ColumnBatch& l, int64_t i, const ColumnBatch& r, int64_t j, const Case& c) {
  for (size_t k = 0; k < c.lk.size(); ++k) {
    const ColumnVector& a = *l.columns[static_cast<size_t>(c.lk[k])];
    const ColumnVector& b = *r.columns[static_cast<size_t>(c.rk[k])];
    bool ns = !c.null_safe.empty() && c.null_safe[k];
    if (a.is_null(i) || b.is_null(j)) {
      if (ns && a.is_null(i) && b.is_null(j)) continue;
      return false;
    }
    if (cell(a, i) != cell(b, j)) return false;
  }
  return true;
}

bool residual_match(const ColumnBatch& l, int64_t i, const ColumnBatch& r, int64_t j) {
  const ColumnVector& a = *l.columns[3];
  const ColumnVector& b = *r.columns[2];
  return a.is_valid(i) && b.is_valid(j) && a.raw<int64_t>()[i] < b.raw<int64_t>()[j];
}

std::vector<std::string> reference(const ColumnBatch& l, const ColumnBatch& r, const Case& c) {
  std::vector<std::string> out;
  const std::string lnull = "[null,null,null,null", rnull = "null,null,null,null]";
  std::vector<bool> rmatched(static_cast<size_t>(r.num_rows), false);
  for (int64_t i = 0; i < l.num_rows; ++i) {
    bool any = false;
    for (int64_t j = 0; j < r.num_rows; ++j) {
      bool m = key_match(l, i, r, j, c) && (!c.residual || residual_match(l, i, r, j));
      if (!m) continue;
      any = true;
      rmatched[static_cast<size_t>(j)] = true;
      if (c.type != JoinType::kLeftSemi && c.type != JoinType::kLeftAnti) {
        out.push_back(strip(row_text(l, i), true) + "," + strip(row_text(r, j), false));
      }
    }
    if (c.type == JoinType::kLeftSemi && any) out.push_back(row_text(l, i));
    if (c.type == JoinType::kLeftAnti && !any) out.push_back(row_text(l, i));
    if (!any && (c.type == JoinType::kLeftOuter || c.type == JoinType::kFullOuter)) {
      out.push_back(strip(row_text(l, i), true) + "," + rnull);
    }
  }
  if (c.type == JoinType::kRightOuter || c.type == JoinType::kFullOuter) {
    for (int64_t j = 0; j < r.num_rows; ++j) {
      if (!rmatched[static_cast<size_t>(j)])
        out.push_back(lnull + "," + strip(row_text(r, j), false));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

JoinResidual residual_fn() {
  return [](const ColumnBatch& pairs) -> Result<std::vector<uint8_t>> {
    std::vector<uint8_t> m(static_cast<size_t>(pairs.num_rows));
    const ColumnVector& a = *pairs.columns[3];
    const ColumnVector& b = *pairs.columns[4 + 2];
    for (int64_t i = 0; i < pairs.num_rows; ++i) {
      m[static_cast<size_t>(i)] =
          a.is_valid(i) && b.is_valid(i) && a.raw<int64_t>()[i] < b.raw<int64_t>()[i];
    }
    return m;
  };
}

TEST(RelationalHashJoin, EveryTypeAgainstNestedLoopReference) {
  std::mt19937_64 rng(1234);
  const std::vector<JoinType> types = {JoinType::kInner,      JoinType::kLeftOuter,
                                       JoinType::kRightOuter, JoinType::kFullOuter,
                                       JoinType::kLeftSemi,   JoinType::kLeftAnti};
  std::vector<Case> cases;
  for (JoinType t : types) {
    for (bool res : {false, true}) {
      cases.push_back({t, {1}, {0}, {}, res});
      cases.push_back({t, {1, 2}, {0, 1}, {}, res});
      cases.push_back({t, {1, 2}, {0, 1}, {true, false}, res});
      cases.push_back({t, {2}, {1}, {true}, res});
      cases.push_back({t, {}, {}, {}, res});  // nested loop
    }
  }
  cases.push_back({JoinType::kCross, {}, {}, {}, false});
  cases.push_back({JoinType::kCross, {}, {}, {}, true});
  for (int round = 0; round < 3; ++round) {
    std::vector<ColumnBatch> lefts, rights;
    int64_t pos = 0;
    for (int b = 0; b < 3; ++b) {
      int64_t n = static_cast<int64_t>(rng() % 60);
      lefts.push_back(random_side(rng, n, true, pos));
      pos += n;
    }
    for (int b = 0; b < 2; ++b) {
      rights.push_back(random_side(rng, static_cast<int64_t>(rng() % 50), false, b * 1000));
    }
    ColumnBatch l = *concat_batches(lefts), r = *concat_batches(rights);
    for (const Case& c : cases) {
      JoinOptions o;
      o.type = c.type;
      o.left_keys = c.lk;
      o.right_keys = c.rk;
      o.null_safe = c.null_safe;
      if (c.residual) o.residual = residual_fn();
      auto j = HashJoin::make(left_fields(), right_fields(), o);
      ASSERT_TRUE(j.ok()) << j.status().to_string();
      for (const auto& b : rights) ASSERT_TRUE((*j)->add_build(b).ok());
      ASSERT_TRUE((*j)->finish_build().ok());
      std::vector<std::string> got;
      int64_t last_pos = -1;
      for (const auto& b : lefts) {
        auto out = (*j)->probe(b);
        ASSERT_TRUE(out.ok()) << out.status().to_string();
        ASSERT_EQ(out->fields.size(), out->columns.size());
        for (int64_t i = 0; i < out->num_rows; ++i) {
          got.push_back(row_text(*out, i));
          int64_t p = out->columns[0]->raw<int64_t>()[i];
          ASSERT_GE(p, last_pos) << "rows follow the left input order";
          last_pos = p;
        }
      }
      auto tail = (*j)->finish();
      ASSERT_TRUE(tail.ok());
      bool outer_right = c.type == JoinType::kRightOuter || c.type == JoinType::kFullOuter;
      ASSERT_EQ(tail->has_value(), outer_right);
      if (tail->has_value()) {
        for (auto& row : rows_text(**tail)) got.push_back(row);
      }
      std::sort(got.begin(), got.end());
      ASSERT_EQ(got, reference(l, r, c))
          << join_type_name(c.type) << " keys " << c.lk.size() << " residual " << c.residual;
    }
  }
}

TEST(RelationalHashJoin, OutputFieldsAndErrors) {
  JoinOptions o;
  o.type = JoinType::kLeftOuter;
  o.left_keys = {1};
  o.right_keys = {0};
  auto j = *HashJoin::make(left_fields(), right_fields(), o);
  ASSERT_EQ(j->output_fields().size(), 8u);
  EXPECT_EQ(j->output_fields()[4].name, "k1");
  EXPECT_FALSE(j->output_fields()[4].required);
  o.type = JoinType::kLeftSemi;
  EXPECT_EQ((*HashJoin::make(left_fields(), right_fields(), o))->output_fields().size(), 4u);
  o.right_keys = {1};  // long vs string
  EXPECT_FALSE(HashJoin::make(left_fields(), right_fields(), o).ok());
  o.right_keys = {0, 1};
  EXPECT_FALSE(HashJoin::make(left_fields(), right_fields(), o).ok());
  o.right_keys = {9};
  EXPECT_FALSE(HashJoin::make(left_fields(), right_fields(), o).ok());

  // Cross join row guard.
  JoinOptions x;
  x.type = JoinType::kCross;
  x.max_cross_rows = 100;
  auto cj = *HashJoin::make(left_fields(), right_fields(), x);
  std::mt19937_64 rng(1);
  ASSERT_TRUE(cj->add_build(random_side(rng, 20, false, 0)).ok());
  EXPECT_TRUE(cj->probe(random_side(rng, 5, true, 0)).ok());
  auto big = cj->probe(random_side(rng, 6, true, 0));
  EXPECT_FALSE(big.ok());
}

TEST(RelationalHashJoin, EmptyBuildSide) {
  std::mt19937_64 rng(2);
  auto left = random_side(rng, 10, true, 0);
  for (JoinType t : {JoinType::kInner, JoinType::kLeftOuter, JoinType::kLeftAnti,
                     JoinType::kFullOuter, JoinType::kRightOuter}) {
    JoinOptions o;
    o.type = t;
    o.left_keys = {1};
    o.right_keys = {0};
    auto j = *HashJoin::make(left_fields(), right_fields(), o);
    auto out = *j->probe(left);
    int64_t want = (t == JoinType::kInner || t == JoinType::kRightOuter) ? 0 : 10;
    EXPECT_EQ(out.num_rows, want) << join_type_name(t);
    auto tail = *j->finish();
    if (tail) {
      EXPECT_EQ(tail->num_rows, 0);
    }
  }
}

TEST(RelationalHashJoin, LargeManyToMany) {
  std::mt19937_64 rng(3);
  const int64_t n = 100000;
  auto lk = random_longs(rng, n, 0, 50000, 0.01);
  auto rk = random_longs(rng, n, 0, 50000, 0.01);
  auto lb = batch_of({field(1, "k", Type::int64())}, {lk});
  auto rb = batch_of({field(2, "k", Type::int64())}, {rk});
  JoinOptions o;
  o.left_keys = {0};
  o.right_keys = {0};
  auto j = *HashJoin::make(lb.fields, rb.fields, o);
  ASSERT_TRUE(j->add_build(rb).ok());
  auto out = *j->probe(lb);
  std::map<int64_t, int64_t> lc, rc;
  for (int64_t i = 0; i < n; ++i) {
    if (lk->is_valid(i)) ++lc[lk->raw<int64_t>()[i]];
    if (rk->is_valid(i)) ++rc[rk->raw<int64_t>()[i]];
  }
  int64_t want = 0;
  for (auto& [k, c] : lc) {
    auto it = rc.find(k);
    if (it != rc.end()) want += c * it->second;
  }
  EXPECT_EQ(out.num_rows, want);
  for (int64_t i = 0; i < out.num_rows; ++i) {
    ASSERT_EQ(out.columns[0]->raw<int64_t>()[i], out.columns[1]->raw<int64_t>()[i]);
  }
}

}  // namespace
}  // namespace floe::sql
