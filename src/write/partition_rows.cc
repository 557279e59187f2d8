// Column-wise partition keys: each partition field becomes a key column (integers or byte
// views) so rows group by hashing without building a Literal per row; the Literal tuple of a
// group is computed once from its first row with Transform::apply.
#include <bit>
#include <cstring>
#include <deque>
#include <unordered_map>

#include "floe/util/utf8.h"
#include "floe/write/data_writer.h"
#include "write/partition_keys_internal.h"

namespace floe {

namespace {

using internal::fast_keys;
using internal::KeyColumn;
using internal::resolve_source;
using internal::slow_keys;
using internal::SourceColumn;

bool find_path(const std::vector<NestedField>& fields, int32_t id, std::vector<size_t>* path) {
  for (size_t k = 0; k < fields.size(); ++k) {
    path->push_back(k);
    if (fields[k].id == id) return true;
    if (fields[k].type->is_struct() && find_path(fields[k].type->fields(), id, path)) return true;
    path->pop_back();
  }
  return false;
}

int64_t int_value(const ColumnVector& col, int64_t i) {
  switch (col.value_width()) {
    case 1:
      return col.raw<uint8_t>()[i];
    case 4:
      return col.raw<int32_t>()[i];
    default:
      return col.raw<int64_t>()[i];
  }
}

bool is_int_like(TypeId t) {
  switch (t) {
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return true;
    default:
      return false;
  }
}
bool is_bytes_like(TypeId t) {
  return t == TypeId::kString || t == TypeId::kBinary || t == TypeId::kFixed || t == TypeId::kUuid;
}

}  // namespace

namespace internal {

Result<SourceColumn> resolve_source(const Schema& schema, const ColumnBatch& batch, int32_t id) {
  std::vector<size_t> path;
  if (!find_path(schema.fields(), id, &path)) {
    return invalid_argument("partition source field {} is not a struct-nested column of the schema",
                            id);
  }
  if (path[0] >= batch.columns.size()) {
    return invalid_argument("batch has {} columns, partition source field {} needs column {}",
                            batch.columns.size(), id, path[0]);
  }
  SourceColumn s;
  const std::vector<NestedField>* fields = &schema.fields();
  const ColumnVector* col = batch.columns[path[0]].get();
  s.field = &(*fields)[path[0]];
  for (size_t d = 1; d < path.size(); ++d) {
    if (col->null_count() > 0) {
      if (s.parent_valid.empty()) s.parent_valid.assign(static_cast<size_t>(batch.num_rows), 1);
      for (int64_t i = 0; i < batch.num_rows; ++i) s.parent_valid[i] &= col->is_valid(i);
    }
    fields = &s.field->type->fields();
    col = &col->child(path[d]);
    s.field = &(*fields)[path[d]];
  }
  s.col = col;
  return s;
}

bool fast_keys(const Transform& t, const SourceColumn& s, int64_t n, KeyColumn* k) {
  const ColumnVector& col = *s.col;
  const TypeId type = col.type_id();
  auto fill_ints = [&](auto fn) {
    k->ints.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) k->ints[i] = k->valid[i] ? fn(i) : 0;
  };
  auto fill_views = [&](auto fn) {
    k->bytes = true;
    k->views.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) k->views[i] = k->valid[i] ? fn(i) : std::string_view();
  };
  switch (t.kind()) {
    case Transform::Kind::kIdentity:
      if (is_bytes_like(type)) {
        fill_views([&](int64_t i) { return col.bytes_at(i); });
      } else if (type == TypeId::kDecimal) {
        fill_views([&](int64_t i) {
          return std::string_view(reinterpret_cast<const char*>(col.values().data()) + 16 * i, 16);
        });
      } else if (type == TypeId::kFloat) {
        fill_ints([&](int64_t i) { return int64_t{std::bit_cast<int32_t>(col.raw<float>()[i])}; });
      } else if (type == TypeId::kDouble) {
        fill_ints([&](int64_t i) { return std::bit_cast<int64_t>(col.raw<double>()[i]); });
      } else if (col.value_width() == 1 || col.value_width() == 4 || col.value_width() == 8) {
        fill_ints([&](int64_t i) { return int_value(col, i); });
      } else {
        return false;
      }
      return true;
    case Transform::Kind::kBucket:
      if (is_int_like(type)) {
        fill_ints([&](int64_t i) { return bucket_of(hash_long(int_value(col, i)), t.param()); });
      } else if (is_bytes_like(type)) {
        fill_ints([&](int64_t i) { return bucket_of(hash_bytes(col.bytes_at(i)), t.param()); });
      } else {
        return false;
      }
      return true;
    case Transform::Kind::kTruncate:
      if (type == TypeId::kInt || type == TypeId::kLong) {
        fill_ints([&](int64_t i) { return truncate_integer(int_value(col, i), t.param()); });
      } else if (type == TypeId::kString) {
        fill_views([&](int64_t i) { return utf8_truncate(col.bytes_at(i), t.param()); });
      } else if (type == TypeId::kBinary) {
        fill_views(
            [&](int64_t i) { return col.bytes_at(i).substr(0, static_cast<size_t>(t.param())); });
      } else {
        return false;
      }
      return true;
    case Transform::Kind::kYear:
    case Transform::Kind::kMonth:
    case Transform::Kind::kDay:
    case Transform::Kind::kHour: {
      const auto kind = t.kind();
      if (type == TypeId::kDate && kind != Transform::Kind::kHour) {
        fill_ints([&](int64_t i) -> int64_t {
          int32_t d = col.raw<int32_t>()[i];
          return kind == Transform::Kind::kYear    ? year_from_days(d)
                 : kind == Transform::Kind::kMonth ? month_from_days(d)
                                                   : d;
        });
      } else if (type == TypeId::kTimestamp || type == TypeId::kTimestampTz) {
        fill_ints([&](int64_t i) -> int64_t {
          int64_t us = col.raw<int64_t>()[i];
          return kind == Transform::Kind::kYear    ? year_from_micros(us)
                 : kind == Transform::Kind::kMonth ? month_from_micros(us)
                 : kind == Transform::Kind::kDay   ? day_from_micros(us)
                                                   : hour_from_micros(us);
        });
      } else {
        return false;
      }
      return true;
    }
    case Transform::Kind::kVoid:
      std::fill(k->valid.begin(), k->valid.end(), 0);
      fill_ints([](int64_t) { return int64_t{0}; });
      return true;
    default:
      return false;
  }
}

Status slow_keys(const Transform& t, const SourceColumn& s, int64_t n, KeyColumn* k) {
  k->bytes = true;
  k->views.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    if (!k->valid[i]) continue;
    Literal v = FLOE_TRY(t.apply(s.col->literal_at(i)));
    if (v.is_null()) {
      k->valid[i] = 0;
      continue;
    }
    k->owned.push_back(FLOE_TRY(v.to_bytes()));
    k->views[i] = k->owned.back();
  }
  return Status::OK();
}

}  // namespace internal

Result<std::vector<PartitionGroup>> group_by_partition(const PartitionSpec& spec,
                                                       const Schema& schema,
                                                       const ColumnBatch& batch) {
  const int64_t n = batch.num_rows;
  const auto& pfields = spec.fields();
  std::vector<PartitionGroup> groups;
  if (n == 0) return groups;
  TypePtr ptype = FLOE_TRY(spec.partition_type(schema));
  std::vector<SourceColumn> sources;
  std::vector<KeyColumn> keys(pfields.size());
  for (size_t f = 0; f < pfields.size(); ++f) {
    const PartitionField& pf = pfields[f];
    if (pf.transform.is_unknown() || !pf.source_ids.empty()) {
      return not_supported("partition field {} ({}) cannot be written by floe", pf.name,
                           pf.transform.to_string());
    }
    sources.push_back(FLOE_TRY(resolve_source(schema, batch, pf.source_id)));
    const SourceColumn& s = sources.back();
    KeyColumn& k = keys[f];
    k.valid.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) k.valid[i] = s.valid(i);
    if (!fast_keys(pf.transform, s, n, &k)) FLOE_TRY(slow_keys(pf.transform, s, n, &k));
  }

  std::unordered_map<uint64_t, std::vector<int32_t>> by_hash;  // hash -> group indices
  for (int64_t r = 0; r < n; ++r) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (const auto& k : keys) h = (h ^ k.hash(r)) * 0x100000001b3ull + (h >> 29);
    auto& candidates = by_hash[h];
    int32_t found = -1;
    for (int32_t g : candidates) {
      int64_t rep = groups[g].rows.front();
      bool same = true;
      for (const auto& k : keys) same = same && k.equal(rep, r);
      if (same) {
        found = g;
        break;
      }
    }
    if (found < 0) {
      found = static_cast<int32_t>(groups.size());
      candidates.push_back(found);
      groups.emplace_back();
    }
    groups[found].rows.push_back(static_cast<int32_t>(r));
  }

  for (auto& g : groups) {
    int64_t rep = g.rows.front();
    for (size_t f = 0; f < pfields.size(); ++f) {
      const TypePtr& rtype = ptype->fields()[f].type;
      if (!keys[f].valid[rep]) {
        g.partition.push_back(Literal::null(rtype));
      } else {
        g.partition.push_back(
            FLOE_TRY(pfields[f].transform.apply(sources[f].col->literal_at(rep))));
      }
    }
  }
  return groups;
}

}  // namespace floe
