// Random numbers: rand([seed]) (uniform in [0, 1)) and randn([seed]) (standard normal), as
// Spark's functions of the same names.
//
// What floe guarantees: the values come from a counter-based generator (SplitMix64 of the seed
// and a row number), so with a seed the same query over the same input gives the same values:
// the k-th row to reach the expression within the query gets the k-th value of the seed's
// sequence (rows reach an expression in scan order: tasks in planned order, rows in file
// order). Spark instead seeds one generator per partition (seed + partition index), so the
// numbers differ from Spark's and Spark's depend on the partitioning. Without a seed, one is
// drawn when the query is bound and EXPLAIN shows it, as Spark's plan does.
#include <atomic>
#include <random>

#include "sql/functions/function_internal.h"

namespace floe::sql::internal {

namespace {

// Rows handed out so far by one bound call (shared by every batch of the query).
struct RandState {
  mutable std::atomic<int64_t> next{0};
};

uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The k-th uniform double in [0, 1) of `seed`'s sequence: 53 random bits.
double uniform(uint64_t seed, uint64_t k) {
  return static_cast<double>(splitmix64(seed ^ splitmix64(k)) >> 11) * 0x1.0p-53;
}

// Spark's seed: an int or bigint constant (NULL counts as 0); none draws one.
Status bind_rand(BindCtx& c) {
  int64_t seed = 0;
  if (c.args.empty()) {
    std::random_device device;
    seed = static_cast<int64_t>((static_cast<uint64_t>(device()) << 32) | device());
  } else {
    const BoundExpr& a = *c.args[0];
    const TypeId t = a.type->id();
    if (!a.is_literal() || (t != TypeId::kUnknown && !is_integral(t))) {
      return invalid_argument("the seed must be an integer constant");
    }
    seed = a.value.is_null() ? 0 : a.value.as_int64();
  }
  c.args.assign(1, FLOE_TRY(make_literal_expr(Literal::int64(seed))));
  c.type = Type::float64();
  c.state = std::make_shared<RandState>();
  return Status::OK();
}

Result<Datum> eval_rand(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  const auto& state = *std::static_pointer_cast<const RandState>(e.state);
  const auto seed = static_cast<uint64_t>(FixedReader<int64_t>(args[0])[0]);
  const auto first = static_cast<uint64_t>(state.next.fetch_add(n));
  FixedWriter<double> w(e.type, n);
  if (e.name != "randn") {  // rand, random
    for (int64_t i = 0; i < n; ++i) w.data[i] = uniform(seed, first + i);
  } else {
    // Box-Muller over two uniforms per row; 1 - u is in (0, 1], so the logarithm is finite.
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t k = 2 * (first + i);
      const double radius = std::sqrt(-2.0 * std::log(1.0 - uniform(seed, k)));
      w.data[i] = radius * std::cos(2.0 * M_PI * uniform(seed, k + 1));
    }
  }
  return Datum{w.finish(n), false};
}

}  // namespace

void register_random_functions(std::vector<FunctionDef>* defs) {
  defs->push_back({"rand", 0, 1, bind_rand, eval_rand, false});
  defs->push_back({"random", 0, 1, bind_rand, eval_rand, false});
  defs->push_back({"randn", 0, 1, bind_rand, eval_rand, false});
}

}  // namespace floe::sql::internal
