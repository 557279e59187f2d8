// HashJoin: a GroupTable over the build (right) keys with per-key row chains, probed per left
// batch; candidate pairs pass through the residual before they count as matches.
#include <algorithm>

#include "sql/exec/join_internal.h"

namespace floe::sql {
namespace {

constexpr int64_t kResidualChunk = 1 << 16;

// Rows whose keys can match: no NULL in a key that is not null-safe.
std::vector<uint8_t> eligible_rows(const std::vector<const ColumnVector*>& keys,
                                   const std::vector<bool>& null_safe, int64_t n, bool* all) {
  std::vector<uint8_t> ok(static_cast<size_t>(n), 1);
  *all = true;
  for (size_t k = 0; k < keys.size(); ++k) {
    if (null_safe[k] || keys[k]->null_count() == 0) continue;
    for (int64_t i = 0; i < n; ++i) {
      if (keys[k]->is_null(i)) {
        ok[static_cast<size_t>(i)] = 0;
        *all = false;
      }
    }
  }
  return ok;
}

std::vector<NestedField> optional_fields(std::vector<NestedField> fields) {
  for (auto& f : fields) f.required = false;
  return fields;
}

}  // namespace

const char* join_type_name(JoinType type) {
  switch (type) {
    case JoinType::kInner:
      return "inner";
    case JoinType::kLeftOuter:
      return "left outer";
    case JoinType::kRightOuter:
      return "right outer";
    case JoinType::kFullOuter:
      return "full outer";
    case JoinType::kLeftSemi:
      return "left semi";
    case JoinType::kLeftAnti:
      return "left anti";
    case JoinType::kCross:
      return "cross";
  }
  return "?";
}

Result<std::unique_ptr<HashJoin>> HashJoin::make(std::vector<NestedField> left_fields,
                                                 std::vector<NestedField> right_fields,
                                                 JoinOptions options) {
  if (options.left_keys.size() != options.right_keys.size()) {
    return invalid_argument("join: {} left keys but {} right keys", options.left_keys.size(),
                            options.right_keys.size());
  }
  if (options.type == JoinType::kCross && !options.left_keys.empty()) {
    return invalid_argument("a cross join takes no join keys");
  }
  if (options.null_safe.empty()) options.null_safe.assign(options.left_keys.size(), false);
  if (options.null_safe.size() != options.left_keys.size()) {
    return invalid_argument("join: {} null-safe flags for {} keys", options.null_safe.size(),
                            options.left_keys.size());
  }
  for (size_t k = 0; k < options.left_keys.size(); ++k) {
    int l = options.left_keys[k], r = options.right_keys[k];
    if (l < 0 || static_cast<size_t>(l) >= left_fields.size() || r < 0 ||
        static_cast<size_t>(r) >= right_fields.size()) {
      return invalid_argument("join key {} out of range (left {}, right {})", k, l, r);
    }
    const TypePtr& lt = left_fields[static_cast<size_t>(l)].type;
    const TypePtr& rt = right_fields[static_cast<size_t>(r)].type;
    if (!lt->equals(*rt)) {
      return invalid_argument("join key {} compares {} with {}: cast both sides to one type",
                              left_fields[static_cast<size_t>(l)].name, lt->to_string(),
                              rt->to_string());
    }
  }
  std::unique_ptr<HashJoin> j(new HashJoin());
  JoinType t = options.type;
  bool left_nullable = t == JoinType::kRightOuter || t == JoinType::kFullOuter;
  bool right_nullable = t == JoinType::kLeftOuter || t == JoinType::kFullOuter;
  j->output_fields_ = left_nullable ? optional_fields(left_fields) : left_fields;
  if (t != JoinType::kLeftSemi && t != JoinType::kLeftAnti) {
    auto rf = right_nullable ? optional_fields(right_fields) : right_fields;
    j->output_fields_.insert(j->output_fields_.end(), rf.begin(), rf.end());
  }
  j->left_fields_ = std::move(left_fields);
  j->right_fields_ = std::move(right_fields);
  j->options_ = std::move(options);
  return j;
}

HashJoin::~HashJoin() = default;

Status HashJoin::add_build(const ColumnBatch& right) {
  if (built_) return invalid_argument("HashJoin::add_build after finish_build");
  if (right.columns.size() != right_fields_.size()) {
    return invalid_argument("join build batch has {} columns, expected {}", right.columns.size(),
                            right_fields_.size());
  }
  if (right.num_rows > 0) pending_.push_back(right);
  return Status::OK();
}

Status HashJoin::finish_build() {
  if (built_) return Status::OK();
  built_ = true;
  build_ = FLOE_TRY(concat_batches(pending_, right_fields_));
  build_.fields = right_fields_;
  pending_.clear();
  const int64_t n = build_.num_rows;
  if (n > INT32_MAX) return invalid_argument("join build side of {} rows is too large", n);
  std::vector<TypePtr> types;
  std::vector<const ColumnVector*> keys;
  for (int r : options_.right_keys) {
    types.push_back(right_fields_[static_cast<size_t>(r)].type);
    keys.push_back(build_.columns[static_cast<size_t>(r)].get());
  }
  table_ = std::make_unique<GroupTable>(types);
  bool all = true;
  std::vector<uint8_t> ok = eligible_rows(keys, options_.null_safe, n, &all);
  std::vector<int32_t> ids(static_cast<size_t>(n), -1);
  if (all) {
    table_->find_or_insert(keys, n, nullptr, ids.data(), nullptr);
  } else {
    std::vector<int32_t> rows;
    for (int64_t i = 0; i < n; ++i) {
      if (ok[static_cast<size_t>(i)]) rows.push_back(static_cast<int32_t>(i));
    }
    std::vector<ColumnPtr> sub;
    std::vector<const ColumnVector*> sub_keys;
    for (auto* k : keys) {
      sub.push_back(gather(*k, rows));
      sub_keys.push_back(sub.back().get());
    }
    std::vector<int32_t> sub_ids(rows.size());
    table_->find_or_insert(sub_keys, static_cast<int64_t>(rows.size()), nullptr, sub_ids.data(),
                           nullptr);
    for (size_t k = 0; k < rows.size(); ++k) ids[static_cast<size_t>(rows[k])] = sub_ids[k];
  }
  first_.assign(static_cast<size_t>(table_->num_groups()), -1);
  next_.assign(static_cast<size_t>(n), -1);
  for (int64_t i = n - 1; i >= 0; --i) {
    int32_t g = ids[static_cast<size_t>(i)];
    if (g < 0) continue;
    next_[static_cast<size_t>(i)] = first_[static_cast<size_t>(g)];
    first_[static_cast<size_t>(g)] = static_cast<int32_t>(i);
  }
  if (options_.type == JoinType::kRightOuter || options_.type == JoinType::kFullOuter) {
    matched_.assign(static_cast<size_t>(n), 0);
  }
  return Status::OK();
}

// Candidate pairs (left row, build row) in left order, then build order; residual applied.
Status HashJoin::collect_candidates(const ColumnBatch& left, std::vector<int32_t>* lidx,
                                    std::vector<int32_t>* ridx) {
  const int64_t n = left.num_rows;
  std::vector<const ColumnVector*> keys;
  for (int l : options_.left_keys) keys.push_back(left.columns[static_cast<size_t>(l)].get());
  std::vector<int32_t> ids(static_cast<size_t>(n));
  table_->find(keys, n, nullptr, ids.data());
  bool all = true;
  std::vector<uint8_t> ok = eligible_rows(keys, options_.null_safe, n, &all);
  const bool exists_only = !options_.residual && (options_.type == JoinType::kLeftSemi ||
                                                  options_.type == JoinType::kLeftAnti);
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    int32_t g = ids[static_cast<size_t>(i)];
    if (g < 0 || !ok[static_cast<size_t>(i)]) continue;
    for (int32_t r = first_[static_cast<size_t>(g)]; r >= 0; r = next_[static_cast<size_t>(r)]) {
      lidx->push_back(static_cast<int32_t>(i));
      ridx->push_back(r);
      if (exists_only) break;
      if (++total > options_.max_cross_rows) {
        return invalid_argument(
            "join produces more than {} candidate rows for one input batch; add a join condition",
            options_.max_cross_rows);
      }
    }
  }
  if (!options_.residual || lidx->empty()) return Status::OK();
  std::vector<NestedField> fields = left_fields_;
  fields.insert(fields.end(), right_fields_.begin(), right_fields_.end());
  size_t kept = 0;
  for (size_t begin = 0; begin < lidx->size(); begin += kResidualChunk) {
    size_t end = std::min(lidx->size(), begin + kResidualChunk);
    std::vector<int32_t> l(lidx->begin() + static_cast<std::ptrdiff_t>(begin),
                           lidx->begin() + static_cast<std::ptrdiff_t>(end));
    std::vector<int32_t> r(ridx->begin() + static_cast<std::ptrdiff_t>(begin),
                           ridx->begin() + static_cast<std::ptrdiff_t>(end));
    ColumnBatch pairs;
    pairs.fields = fields;
    pairs.num_rows = static_cast<int64_t>(l.size());
    for (const auto& c : left.columns) pairs.columns.push_back(gather(*c, l));
    for (const auto& c : build_.columns) pairs.columns.push_back(gather(*c, r));
    std::vector<uint8_t> mask = FLOE_TRY(options_.residual(pairs));
    if (mask.size() != l.size()) {
      return invalid_argument("join condition returned {} values for {} rows", mask.size(),
                              l.size());
    }
    for (size_t k = 0; k < l.size(); ++k) {
      if (mask[k]) {
        (*lidx)[kept] = l[k];
        (*ridx)[kept] = r[k];
        ++kept;
      }
    }
  }
  lidx->resize(kept);
  ridx->resize(kept);
  return Status::OK();
}

Result<ColumnBatch> HashJoin::probe(const ColumnBatch& left) {
  if (!built_) FLOE_TRY(finish_build());
  if (finished_) return invalid_argument("HashJoin::probe after finish");
  if (left.columns.size() != left_fields_.size()) {
    return invalid_argument("join probe batch has {} columns, expected {}", left.columns.size(),
                            left_fields_.size());
  }
  const int64_t n = left.num_rows;
  if (options_.left_keys.empty() && n * build_.num_rows > options_.max_cross_rows &&
      options_.type != JoinType::kLeftSemi && options_.type != JoinType::kLeftAnti) {
    return invalid_argument("join without equality keys produces {} x {} rows, more than {}", n,
                            build_.num_rows, options_.max_cross_rows);
  }
  std::vector<int32_t> lidx, ridx;
  FLOE_TRY(collect_candidates(left, &lidx, &ridx));
  if (!matched_.empty()) {
    for (int32_t r : ridx) matched_[static_cast<size_t>(r)] = 1;
  }
  ColumnBatch out;
  out.fields = output_fields_;
  JoinType t = options_.type;
  if (t == JoinType::kLeftSemi || t == JoinType::kLeftAnti) {
    std::vector<uint8_t> hit(static_cast<size_t>(n), 0);
    for (int32_t l : lidx) hit[static_cast<size_t>(l)] = 1;
    std::vector<int32_t> rows;
    for (int64_t i = 0; i < n; ++i) {
      if ((hit[static_cast<size_t>(i)] != 0) == (t == JoinType::kLeftSemi)) {
        rows.push_back(static_cast<int32_t>(i));
      }
    }
    out.num_rows = static_cast<int64_t>(rows.size());
    for (const auto& c : left.columns) out.columns.push_back(gather(*c, rows));
    return out;
  }
  if (t == JoinType::kLeftOuter || t == JoinType::kFullOuter) {
    // Every left row: its matches in order, or one row padded with NULLs.
    std::vector<int32_t> l2, r2;
    l2.reserve(lidx.size() + static_cast<size_t>(n));
    r2.reserve(lidx.size() + static_cast<size_t>(n));
    size_t p = 0;
    for (int64_t i = 0; i < n; ++i) {
      bool any = false;
      while (p < lidx.size() && lidx[p] == i) {
        l2.push_back(lidx[p]);
        r2.push_back(ridx[p]);
        ++p;
        any = true;
      }
      if (!any) {
        l2.push_back(static_cast<int32_t>(i));
        r2.push_back(-1);
      }
    }
    lidx.swap(l2);
    ridx.swap(r2);
  }
  out.num_rows = static_cast<int64_t>(lidx.size());
  for (const auto& c : left.columns) out.columns.push_back(gather(*c, lidx));
  for (const auto& c : build_.columns) out.columns.push_back(gather(*c, ridx));
  return out;
}

Result<std::optional<ColumnBatch>> HashJoin::finish() {
  if (!built_) FLOE_TRY(finish_build());
  if (finished_) return invalid_argument("HashJoin::finish called twice");
  finished_ = true;
  if (options_.type != JoinType::kRightOuter && options_.type != JoinType::kFullOuter) {
    return std::optional<ColumnBatch>();
  }
  std::vector<int32_t> rows;
  for (size_t r = 0; r < matched_.size(); ++r) {
    if (!matched_[r]) rows.push_back(static_cast<int32_t>(r));
  }
  ColumnBatch out;
  out.fields = output_fields_;
  out.num_rows = static_cast<int64_t>(rows.size());
  for (const auto& f : left_fields_) out.columns.push_back(null_column(f.type, out.num_rows));
  for (const auto& c : build_.columns) out.columns.push_back(gather(*c, rows));
  return std::optional<ColumnBatch>(std::move(out));
}

}  // namespace floe::sql
