#include "floe/read/batch_ops.h"

#include <cmath>
#include <cstring>

#include "floe/expr/projection.h"

namespace floe {

namespace {

// ---------------------------------------------------------------------------------------------
// Predicate evaluation over one column

template <typename V>
int cmp3(const V& a, const V& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

template <typename V, typename Get, typename IsNan>
void eval_values(Operation op, const ColumnVector& col, int64_t n, Get get, IsNan is_nan,
                 const std::vector<V>& lits, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    if (col.is_null(i)) {
      out[i] = 0;
      continue;
    }
    V v = get(i);
    bool nan = is_nan(v);
    bool r = false;
    switch (op) {
      case Operation::kLt:
        r = !nan && cmp3(v, lits[0]) < 0;
        break;
      case Operation::kLtEq:
        r = !nan && cmp3(v, lits[0]) <= 0;
        break;
      case Operation::kGt:
        r = !nan && cmp3(v, lits[0]) > 0;
        break;
      case Operation::kGtEq:
        r = !nan && cmp3(v, lits[0]) >= 0;
        break;
      case Operation::kEq:
        r = !nan && cmp3(v, lits[0]) == 0;
        break;
      case Operation::kNotEq:
        r = nan || cmp3(v, lits[0]) != 0;
        break;
      case Operation::kIn:
        r = false;
        if (!nan) {
          for (const auto& l : lits) r |= cmp3(v, l) == 0;
        }
        break;
      case Operation::kNotIn:
        r = true;
        if (!nan) {
          for (const auto& l : lits) r &= cmp3(v, l) != 0;
        }
        break;
      default:
        r = true;
    }
    out[i] = r;
  }
}

Status eval_predicate(Operation op, const Expression& p, const ColumnVector& col, int64_t n,
                      uint8_t* out) {
  switch (op) {
    case Operation::kIsNull:
      for (int64_t i = 0; i < n; ++i) out[i] = col.is_null(i);
      return Status::OK();
    case Operation::kNotNull:
      for (int64_t i = 0; i < n; ++i) out[i] = !col.is_null(i);
      return Status::OK();
    default:
      break;
  }
  const TypeId id = col.type_id();
  auto no_nan = [](const auto&) { return false; };
  const auto& lits = p.literals();
  if (op == Operation::kIsNan || op == Operation::kNotNan) {
    bool want = op == Operation::kIsNan;
    for (int64_t i = 0; i < n; ++i) {
      bool nan = false;
      if (!col.is_null(i)) {
        nan = id == TypeId::kFloat ? std::isnan(col.raw<float>()[i])
                                   : (id == TypeId::kDouble && std::isnan(col.raw<double>()[i]));
      }
      out[i] = want ? nan : !nan;
    }
    return Status::OK();
  }
  if (op == Operation::kStartsWith || op == Operation::kNotStartsWith) {
    const std::string& prefix = lits[0].as_bytes();
    bool want = op == Operation::kStartsWith;
    for (int64_t i = 0; i < n; ++i) {
      if (col.is_null(i)) {
        out[i] = 0;
        continue;
      }
      std::string_view v = col.bytes_at(i);
      bool starts = v.size() >= prefix.size() && v.compare(0, prefix.size(), prefix) == 0;
      out[i] = want ? starts : !starts;
    }
    return Status::OK();
  }
  switch (id) {
    case TypeId::kBoolean: {
      std::vector<uint8_t> l;
      for (const auto& x : lits) l.push_back(x.as_bool());
      const uint8_t* v = col.raw<uint8_t>();
      eval_values<uint8_t>(
          op, col, n, [&](int64_t i) { return static_cast<uint8_t>(v[i] != 0); }, no_nan, l, out);
      return Status::OK();
    }
    case TypeId::kInt:
    case TypeId::kDate: {
      std::vector<int32_t> l;
      for (const auto& x : lits) l.push_back(x.as_int32());
      const int32_t* v = col.raw<int32_t>();
      eval_values<int32_t>(
          op, col, n, [&](int64_t i) { return v[i]; }, no_nan, l, out);
      return Status::OK();
    }
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      std::vector<int64_t> l;
      for (const auto& x : lits) l.push_back(x.as_int64());
      const int64_t* v = col.raw<int64_t>();
      eval_values<int64_t>(
          op, col, n, [&](int64_t i) { return v[i]; }, no_nan, l, out);
      return Status::OK();
    }
    case TypeId::kFloat: {
      std::vector<float> l;
      for (const auto& x : lits) l.push_back(x.as_float());
      const float* v = col.raw<float>();
      eval_values<float>(
          op, col, n, [&](int64_t i) { return v[i]; }, [](float x) { return std::isnan(x); }, l,
          out);
      return Status::OK();
    }
    case TypeId::kDouble: {
      std::vector<double> l;
      for (const auto& x : lits) l.push_back(x.as_double());
      const double* v = col.raw<double>();
      eval_values<double>(
          op, col, n, [&](int64_t i) { return v[i]; }, [](double x) { return std::isnan(x); }, l,
          out);
      return Status::OK();
    }
    case TypeId::kDecimal: {
      std::vector<int128_t> l;
      for (const auto& x : lits) l.push_back(x.as_decimal());
      eval_values<int128_t>(
          op, col, n,
          [&](int64_t i) {
            int128_t v;
            std::memcpy(&v, col.values().data() + i * 16, 16);
            return v;
          },
          no_nan, l, out);
      return Status::OK();
    }
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixed:
    case TypeId::kUuid: {
      std::vector<std::string_view> l;
      std::vector<std::string> uuid_bytes;
      for (const auto& x : lits) {
        if (id == TypeId::kUuid) {
          const auto& b = x.as_uuid().bytes;
          uuid_bytes.emplace_back(reinterpret_cast<const char*>(b.data()), b.size());
        }
      }
      if (id == TypeId::kUuid) {
        for (const auto& s : uuid_bytes) l.push_back(s);
      } else {
        for (const auto& x : lits) l.push_back(x.as_bytes());
      }
      eval_values<std::string_view>(
          op, col, n, [&](int64_t i) { return col.bytes_at(i); }, no_nan, l, out);
      return Status::OK();
    }
    default:
      return not_supported("cannot filter on a {} column", type_id_name(id));
  }
}

Status eval_mask(const ExprPtr& e, const ColumnBatch& batch, uint8_t* out, bool negated) {
  const int64_t n = batch.num_rows;
  switch (e->op()) {
    case Operation::kTrue:
      std::memset(out, negated ? 0 : 1, static_cast<size_t>(n));
      return Status::OK();
    case Operation::kFalse:
      std::memset(out, negated ? 1 : 0, static_cast<size_t>(n));
      return Status::OK();
    case Operation::kNot:
      return eval_mask(e->child(), batch, out, !negated);
    case Operation::kAnd:
    case Operation::kOr: {
      bool is_and = (e->op() == Operation::kAnd) != negated;
      FLOE_TRY(eval_mask(e->left(), batch, out, negated));
      std::vector<uint8_t> right(static_cast<size_t>(n));
      FLOE_TRY(eval_mask(e->right(), batch, right.data(), negated));
      for (int64_t i = 0; i < n; ++i) out[i] = is_and ? (out[i] & right[i]) : (out[i] | right[i]);
      return Status::OK();
    }
    default: {
      int idx = batch.find(e->term().field_id);
      if (idx < 0) {
        std::memset(out, 1, static_cast<size_t>(n));
        return Status::OK();
      }
      const ColumnVector& col = *batch.columns[static_cast<size_t>(idx)];
      Operation op = negated ? negate(e->op()) : e->op();
      if (e->term().transform) {
        // Rare (filters on transforms): evaluate value by value.
        for (int64_t i = 0; i < n; ++i) {
          Literal v = col.literal_at(i);
          Literal t = v.is_null() ? v : *e->term().transform->apply(v);
          out[i] = evaluate_predicate(op, &t, e->literals());
        }
        return Status::OK();
      }
      return eval_predicate(op, *e, col, n, out);
    }
  }
}

}  // namespace

Status filter_mask(const ExprPtr& filter, const ColumnBatch& batch, uint8_t* keep) {
  if (filter->op() == Operation::kTrue) return Status::OK();
  std::vector<uint8_t> mask(static_cast<size_t>(batch.num_rows));
  FLOE_TRY(eval_mask(filter, batch, mask.data(), false));
  for (int64_t i = 0; i < batch.num_rows; ++i) keep[i] &= mask[static_cast<size_t>(i)];
  return Status::OK();
}

Result<ColumnPtr> widen_column(const ColumnPtr& col, const TypePtr& target) {
  const Type& from = *col->type();
  if (from.equals(*target)) return col;
  TypeId f = from.id(), t = target->id();
  auto out = ColumnVector::make(target);
  const int64_t n = col->length();
  out->set_length(n);
  if (f == TypeId::kInt && t == TypeId::kLong) {
    out->values().resize(static_cast<size_t>(n) * 8);
    const int32_t* s = col->raw<int32_t>();
    int64_t* d = out->mutable_raw<int64_t>();
    for (int64_t i = 0; i < n; ++i) d[i] = s[i];
  } else if (f == TypeId::kFloat && t == TypeId::kDouble) {
    out->values().resize(static_cast<size_t>(n) * 8);
    const float* s = col->raw<float>();
    double* d = out->mutable_raw<double>();
    for (int64_t i = 0; i < n; ++i) d[i] = s[i];
  } else if (f == TypeId::kDecimal && t == TypeId::kDecimal && from.scale() == target->scale()) {
    out->values().resize(col->values().size());
    std::memcpy(out->values().data(), col->values().data(), col->values().size());
  } else if (f == TypeId::kDate && (t == TypeId::kTimestamp || t == TypeId::kTimestampTz ||
                                    t == TypeId::kTimestampNs || t == TypeId::kTimestampTzNs)) {
    int64_t unit = (t == TypeId::kTimestampNs || t == TypeId::kTimestampTzNs) ? 86400000000000LL
                                                                              : 86400000000LL;
    out->values().resize(static_cast<size_t>(n) * 8);
    const int32_t* s = col->raw<int32_t>();
    int64_t* d = out->mutable_raw<int64_t>();
    for (int64_t i = 0; i < n; ++i) d[i] = s[i] * unit;
  } else if ((f == TypeId::kFixed && from.length() == 16 && t == TypeId::kUuid) ||
             (f == TypeId::kUuid && t == TypeId::kFixed && target->length() == 16) ||
             (f == TypeId::kBinary && t == TypeId::kString) ||
             (f == TypeId::kString && t == TypeId::kBinary)) {
    // Same bytes, another logical type (writers that omit the UUID or UTF8 annotation).
    out->values().resize(col->values().size());
    if (col->values().size()) {
      std::memcpy(out->values().data(), col->values().data(), col->values().size());
    }
    out->offsets().resize(col->offsets().size());
    if (col->offsets().size()) {
      std::memcpy(out->offsets().data(), col->offsets().data(), col->offsets().size());
    }
    out->data().resize(col->data().size());
    if (col->data().size()) std::memcpy(out->data().data(), col->data().data(), col->data().size());
  } else if ((f == TypeId::kTimestamp || f == TypeId::kTimestampTz) &&
             (t == TypeId::kTimestamp || t == TypeId::kTimestampTz)) {
    out->values().resize(col->values().size());
    std::memcpy(out->values().data(), col->values().data(), col->values().size());
  } else {
    return not_supported("cannot read a {} column as {}", from.to_string(), target->to_string());
  }
  if (col->null_count() > 0) {
    out->validity().resize(col->validity().size());
    std::memcpy(out->validity().data(), col->validity().data(), col->validity().size());
  }
  out->set_null_count(col->null_count());
  return out;
}

Result<ColumnPtr> constant_column(const TypePtr& type, const Literal& value, int64_t n) {
  auto out = ColumnVector::make(type);
  if (value.is_null() && type->is_nested()) {
    for (int64_t i = 0; i < n; ++i) out->append_null();
    return out;
  }
  if (value.is_null()) {
    // All-null primitive column: zeroed validity, values or offsets sized for n rows.
    out->set_length(n);
    out->set_null_count(n);
    out->validity().resize(static_cast<size_t>((n + 7) / 8));
    if (out->value_width() > 0) {
      out->values().resize(static_cast<size_t>(n * out->value_width()));
    } else {
      out->offsets().resize(static_cast<size_t>(n + 1) * 4);
    }
    if (!out->validity().empty()) std::memset(out->validity().data(), 0, out->validity().size());
    if (out->value_width() == 0) std::memset(out->offsets().data(), 0, out->offsets().size());
    return out;
  }
  if (n == 0) return out;
  // Encode the value once, then replicate its bytes: no per-row Literal work.
  FLOE_TRY(out->append_literal(value));
  if (type->is_nested()) {
    for (int64_t i = 1; i < n; ++i) FLOE_TRY(out->append_literal(value));
    return out;
  }
  if (out->value_width() > 0) {
    const size_t w = static_cast<size_t>(out->value_width());
    out->values().resize(static_cast<size_t>(n) * w);
    uint8_t* v = out->values().data();
    for (int64_t i = 1; i < n; ++i) std::memcpy(v + static_cast<size_t>(i) * w, v, w);
  } else {
    const size_t len = out->data().size();
    out->data().resize(len * static_cast<size_t>(n));
    out->offsets().resize(static_cast<size_t>(n + 1) * 4);
    uint8_t* d = out->data().data();
    int32_t* o = out->offsets().as<int32_t>();
    for (int64_t i = 1; i < n; ++i) {
      if (len != 0) std::memcpy(d + static_cast<size_t>(i) * len, d, len);  // "" has no bytes
      o[i + 1] = static_cast<int32_t>((i + 1) * static_cast<int64_t>(len));
    }
  }
  out->set_length(n);
  return out;
}

namespace {

// Types a data file stores as opaque values: read as they are, never converted.
bool convertible_primitive(const Type& t) {
  TypeId id = t.id();
  return t.is_primitive() && id != TypeId::kVariant && id != TypeId::kGeometry &&
         id != TypeId::kGeography && id != TypeId::kUnknown;
}

// Both primitive, or the same nested type (struct, list, map).
bool same_kind(const Type& a, const Type& b) {
  return a.is_primitive() ? b.is_primitive() : a.id() == b.id();
}

// Copies the shape of a nested column (length, nulls, list/map offsets) but not its children.
void copy_shape(const ColumnVector& from, ColumnVector& to) {
  to.set_length(from.length());
  to.set_null_count(from.null_count());
  if (from.null_count() > 0) to.validity().append(from.validity().data(), from.validity().size());
  if (from.type()->is_list() || from.type()->is_map()) {
    to.offsets().clear();
    to.offsets().append(from.offsets().data(), from.offsets().size());
  }
}

}  // namespace

Result<ColumnPtr> evolve_column(const ColumnPtr& col, const TypePtr& target) {
  const Type& from = *col->type();
  if (from.equals(*target)) return col;
  // Variant, geometry and unknown columns keep their stored shape (a variant is a struct of
  // binaries in Parquet).
  if (target->is_primitive() && !convertible_primitive(*target)) return col;
  if (target->is_primitive() && from.is_primitive()) return widen_column(col, target);
  if (from.id() != target->id()) {
    return invalid_data("cannot read a {} column as {}", from.to_string(), target->to_string());
  }
  auto out = ColumnVector::make(target);
  copy_shape(*col, *out);
  const auto& want = target->fields();
  const auto& have = from.fields();
  for (size_t i = 0; i < want.size(); ++i) {
    const NestedField& f = want[i];
    // Struct fields match by id; a list's element and a map's key and value by position (their
    // ids cannot change, and a name-mapped file may not carry them).
    int src = -1;
    if (target->is_struct()) {
      // A field whose stored kind differs (a list where the file has a string: ids reused by an
      // inconsistent name mapping, as in Impala's migrated tables) is not this field's data;
      // it reads as absent rather than failing the whole column.
      for (size_t j = 0; j < have.size(); ++j) {
        if (have[j].id == f.id && same_kind(*have[j].type, *f.type)) src = static_cast<int>(j);
      }
    } else if (i < have.size()) {
      src = static_cast<int>(i);
    }
    ColumnPtr child;
    if (src >= 0) {
      auto evolved = evolve_column(col->child_ptr(static_cast<size_t>(src)), f.type);
      if (!evolved.ok()) return evolved.status().with_context("field '" + f.name + "'");
      child = std::move(*evolved);
    } else {
      const int64_t n = target->is_struct() ? col->length() : 0;
      child = FLOE_TRY(constant_column(
          f.type, f.initial_default ? *f.initial_default : Literal::null(f.type), n));
    }
    out->set_child(i, std::move(child));
  }
  return out;
}

namespace {

// The path to field `id` inside struct column `col` (children by the struct type's fields).
bool find_nested(const ColumnVector& col, int32_t id, EqualityColumn* out) {
  if (col.type_id() != TypeId::kStruct) return false;
  const auto& fields = col.type()->fields();
  for (size_t f = 0; f < fields.size() && f < col.num_children(); ++f) {
    if (fields[f].id == id) {
      out->parents.push_back(&col);
      out->leaf = &col.child(f);
      return true;
    }
  }
  for (size_t f = 0; f < fields.size() && f < col.num_children(); ++f) {
    out->parents.push_back(&col);
    if (find_nested(col.child(f), id, out)) return true;
    out->parents.pop_back();
  }
  return false;
}

}  // namespace

EqualityColumn find_equality_column(const ColumnBatch& batch, int32_t field_id) {
  EqualityColumn out;
  int idx = batch.find(field_id);
  if (idx >= 0) {
    out.leaf = batch.columns[static_cast<size_t>(idx)].get();
    return out;
  }
  for (const auto& c : batch.columns) {
    if (find_nested(*c, field_id, &out)) return out;
  }
  return out;
}

bool is_integer_key_type(TypeId type) {
  switch (type) {
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return true;
    default:
      return false;
  }
}

bool equality_key_is_null(const EqualityColumn& column, int64_t i) {
  bool null = column.leaf == nullptr || column.leaf->is_null(i);
  for (size_t p = 0; !null && p < column.parents.size(); ++p) null = column.parents[p]->is_null(i);
  return null;
}

int64_t integer_key_at(const ColumnVector& leaf, int64_t i) {
  return leaf.value_width() == 4 ? leaf.raw<int32_t>()[i] : leaf.raw<int64_t>()[i];
}

void append_null_key(std::string* key) { key->push_back('\0'); }

void append_integer_key(int64_t v, std::string* key) {
  key->push_back('\1');
  key->append(reinterpret_cast<const char*>(&v), 8);
}

void append_equality_key(const EqualityColumn& column, int64_t i, std::string* key) {
  const ColumnVector* col = column.leaf;
  if (equality_key_is_null(column, i)) {
    append_null_key(key);
    return;
  }
  if (is_integer_key_type(col->type_id())) {
    append_integer_key(integer_key_at(*col, i), key);
    return;
  }
  key->push_back('\1');
  auto put64 = [&](int64_t v) { key->append(reinterpret_cast<const char*>(&v), 8); };
  switch (col->type_id()) {
    case TypeId::kBoolean:
      key->push_back(col->raw<uint8_t>()[i] ? 1 : 0);
      break;
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double d = col->type_id() == TypeId::kFloat ? col->raw<float>()[i] : col->raw<double>()[i];
      if (std::isnan(d)) d = std::nan("");
      if (d == 0) d = 0;  // -0.0 == 0.0
      int64_t bits;
      std::memcpy(&bits, &d, 8);
      put64(bits);
      break;
    }
    case TypeId::kDecimal:
      key->append(reinterpret_cast<const char*>(col->values().data()) + i * 16, 16);
      break;
    default: {
      std::string_view b = col->bytes_at(i);
      uint32_t len = static_cast<uint32_t>(b.size());
      key->append(reinterpret_cast<const char*>(&len), 4);
      key->append(b);
    }
  }
}

}  // namespace floe
