// Pruning is never wrong: random files (rows -> exact metrics, sometimes truncated or missing)
// and random predicates. If any row of a file matches, the inclusive evaluators must keep the
// file (and its partition); if the strict evaluator says "all rows match", every row must.
#include <gtest/gtest.h>

#include <random>

#include "floe/scan/evaluators.h"

namespace floe {
namespace {

NestedField field(int32_t id, std::string name, TypePtr type) {
  return NestedField{id, std::move(name), std::move(type), false, "", std::nullopt, std::nullopt};
}

struct Row {
  std::optional<int64_t> id;
  std::optional<std::string> name;
  std::optional<double> score;
};

const Schema& schema() {
  static const Schema s(0, {field(1, "id", Type::int64()), field(2, "name", Type::string()),
                            field(3, "score", Type::float64())});
  return s;
}

std::string upper_truncated(const std::string& s, size_t n) {
  if (s.size() <= n) return s;
  std::string p = s.substr(0, n);
  while (!p.empty()) {
    unsigned char c = static_cast<unsigned char>(p.back());
    if (c < 0x7f) {
      p.back() = static_cast<char>(c + 1);
      return p;
    }
    p.pop_back();
  }
  return "";
}

// Metrics as a writer computes them; `mode` 0 = full, 1 = truncate(2), 2 = counts only.
DataFile metrics_of(const std::vector<Row>& rows, int mode) {
  DataFile f;
  f.record_count = static_cast<int64_t>(rows.size());
  int64_t n = f.record_count;
  int64_t id_nulls = 0, name_nulls = 0, score_nulls = 0, nans = 0;
  std::optional<int64_t> id_lo, id_hi;
  std::optional<std::string> name_lo, name_hi;
  std::optional<double> s_lo, s_hi;
  for (const auto& r : rows) {
    if (!r.id)
      ++id_nulls;
    else {
      id_lo = id_lo ? std::min(*id_lo, *r.id) : *r.id;
      id_hi = id_hi ? std::max(*id_hi, *r.id) : *r.id;
    }
    if (!r.name)
      ++name_nulls;
    else {
      name_lo = name_lo ? std::min(*name_lo, *r.name) : *r.name;
      name_hi = name_hi ? std::max(*name_hi, *r.name) : *r.name;
    }
    if (!r.score)
      ++score_nulls;
    else if (std::isnan(*r.score))
      ++nans;
    else {
      s_lo = s_lo ? std::min(*s_lo, *r.score) : *r.score;
      s_hi = s_hi ? std::max(*s_hi, *r.score) : *r.score;
    }
  }
  f.value_counts = {{1, n}, {2, n}, {3, n}};
  f.null_value_counts = {{1, id_nulls}, {2, name_nulls}, {3, score_nulls}};
  f.nan_value_counts = {{3, nans}};
  if (mode == 2) return f;
  if (id_lo) {
    f.lower_bounds.push_back({1, *Literal::int64(*id_lo).to_bytes()});
    f.upper_bounds.push_back({1, *Literal::int64(*id_hi).to_bytes()});
  }
  if (name_lo) {
    size_t cut = mode == 1 ? 2 : 1000;
    f.lower_bounds.push_back({2, name_lo->substr(0, std::min(cut, name_lo->size()))});
    std::string up = upper_truncated(*name_hi, cut);
    if (!up.empty()) f.upper_bounds.push_back({2, up});
  }
  if (s_lo) {
    f.lower_bounds.push_back({3, *Literal::float64(*s_lo).to_bytes()});
    f.upper_bounds.push_back({3, *Literal::float64(*s_hi).to_bytes()});
  }
  return f;
}

const Literal* value_of(const Row& r, int32_t id, Literal* slot) {
  switch (id) {
    case 1:
      *slot = r.id ? Literal::int64(*r.id) : Literal::null(Type::int64());
      break;
    case 2:
      *slot = r.name ? Literal::string(*r.name) : Literal::null(Type::string());
      break;
    default:
      *slot = r.score ? Literal::float64(*r.score) : Literal::null(Type::float64());
  }
  return slot;
}

bool row_matches(const ExprPtr& e, const Row& r) {
  Literal slot;
  return evaluate(e, [&](int32_t id) { return value_of(r, id, &slot); });
}

struct Gen {
  std::mt19937_64 rng{12345};
  int64_t small() { return static_cast<int64_t>(rng() % 21) - 10; }
  bool chance(int pct) { return static_cast<int>(rng() % 100) < pct; }
  std::string word() {
    static const char* kWords[] = {"a", "ab", "abc", "abd", "b", "ba", "bcd", "c", "ca", "zz"};
    return kWords[rng() % 10];
  }
  Row row() {
    Row r;
    if (!chance(15)) r.id = small();
    if (!chance(15)) r.name = word();
    if (!chance(10)) r.score = chance(10) ? std::nan("") : static_cast<double>(small()) / 2;
    return r;
  }
  ExprPtr predicate() {
    static const Operation kOps[] = {Operation::kLt,     Operation::kLtEq,  Operation::kGt,
                                     Operation::kGtEq,   Operation::kEq,    Operation::kNotEq,
                                     Operation::kIn,     Operation::kNotIn, Operation::kIsNull,
                                     Operation::kNotNull};
    int col = static_cast<int>(rng() % 3);
    Operation op = kOps[rng() % 10];
    if (col == 2 && chance(20)) op = chance(50) ? Operation::kIsNan : Operation::kNotNan;
    if (col == 1 && chance(20))
      op = chance(50) ? Operation::kStartsWith : Operation::kNotStartsWith;
    const char* names[] = {"id", "name", "score"};
    auto lit = [&]() -> Literal {
      if (col == 0) return Literal::int64(small());
      if (col == 1) return Literal::string(word());
      return Literal::float64(static_cast<double>(small()) / 2);
    };
    std::vector<Literal> lits;
    if (is_set_op(op)) {
      for (int i = 0; i < 3; ++i) lits.push_back(lit());
    } else if (!is_unary(op)) {
      lits.push_back(lit());
    }
    return make_predicate(op, names[col], std::move(lits));
  }
  ExprPtr expr(int depth) {
    if (depth == 0 || chance(40)) return predicate();
    switch (rng() % 3) {
      case 0:
        return make_and(expr(depth - 1), expr(depth - 1));
      case 1:
        return make_or(expr(depth - 1), expr(depth - 1));
      default:
        return make_not(expr(depth - 1));
    }
  }
};

TEST(PruningPropertyTest, MetricsNeverSkipAMatchingFile) {
  Gen g;
  int skipped = 0, must = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::vector<Row> rows(1 + g.rng() % 6);
    for (auto& r : rows) r = g.row();
    DataFile f = metrics_of(rows, static_cast<int>(g.rng() % 3));
    auto bound = bind_expression(g.expr(3), schema());
    ASSERT_TRUE(bound.ok()) << bound.status().to_string();
    bool any = false, all = true;
    for (const auto& r : rows) {
      bool m = row_matches(*bound, r);
      any |= m;
      all &= m;
    }
    bool might = InclusiveMetricsEvaluator(*bound).might_match(f);
    if (any) {
      ASSERT_TRUE(might) << (*bound)->to_string() << " skipped a file with a matching row";
    }
    if (!might) ++skipped;
    if (StrictMetricsEvaluator(*bound).must_match(f)) {
      ++must;
      ASSERT_TRUE(all) << (*bound)->to_string() << " claimed every row matches";
    }
  }
  // The property is only meaningful if pruning actually happens.
  EXPECT_GT(skipped, 300);
  EXPECT_GT(must, 100);
}

TEST(PruningPropertyTest, PartitionPruningNeverSkipsAMatchingFile) {
  Gen g;
  PartitionSpec spec(0, {PartitionField{1, {}, 1000, "id_trunc", Transform::truncate(4)},
                         PartitionField{2, {}, 1001, "name_trunc", Transform::truncate(1)},
                         PartitionField{1, {}, 1002, "id_bucket", Transform::bucket(3)}});
  int skipped = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    Row r = g.row();
    auto bound = bind_expression(g.expr(3), schema());
    ASSERT_TRUE(bound.ok());
    auto incl = project_inclusive(*bound, spec, schema());
    auto strict = project_strict(*bound, spec, schema());
    ASSERT_TRUE(incl.ok() && strict.ok());
    std::vector<Literal> part;
    Literal slot;
    for (const auto& pf : spec.fields()) {
      part.push_back(*pf.transform.apply(*value_of(r, pf.source_id, &slot)));
    }
    auto lookup = [&](int32_t fid) -> const Literal* {
      return fid >= 1000 && fid <= 1002 ? &part[fid - 1000] : nullptr;
    };
    bool matches = row_matches(*bound, r);
    bool might = evaluate(*incl, lookup);
    if (matches) {
      ASSERT_TRUE(might) << (*bound)->to_string() << " -> " << (*incl)->to_string();
    }
    if (!might) ++skipped;
    if (evaluate(*strict, lookup)) {
      ASSERT_TRUE(matches) << (*bound)->to_string() << " -> strict " << (*strict)->to_string();
    }
    // The residual keeps the row's outcome.
    auto residual = ResidualEvaluator::make(*bound, spec, schema());
    ASSERT_TRUE(residual.ok());
    ExprPtr res = residual->residual_for(part);
    ASSERT_EQ(row_matches(res, r), matches)
        << (*bound)->to_string() << " residual " << res->to_string();
  }
  EXPECT_GT(skipped, 300);
}

}  // namespace
}  // namespace floe
