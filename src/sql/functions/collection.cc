// Functions over lists and maps (metadata tables carry both): size/cardinality, array_contains,
// map_keys, map_values; and the constructors array(...), map(k, v, ...), struct(...),
// named_struct('name', v, ...) that INSERT ... VALUES uses for nested columns; element_at on
// lists (on maps it is a subscript, see call()).
#include "floe/columnar/kernels.h"
#include "sql/functions/function_internal.h"

namespace floe::sql::internal {

namespace {

Status bind_size(BindCtx& c) {
  const TypePtr& t = c.args[0]->type;
  if (!t->is_list() && !t->is_map()) return invalid_argument("needs a list or a map");
  c.type = Type::int32();
  return Status::OK();
}

// Spark's legacy (non-ANSI) size: -1 for NULL.
Result<Datum> eval_size(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = args[0].scalar ? 1 : n;
  const ColumnVector& c = *args[0].col;
  FixedWriter<int32_t> w(e.type, m);
  for (int64_t i = 0; i < m; ++i) w.data[i] = c.is_null(i) ? -1 : c.list_end(i) - c.list_begin(i);
  return Datum{w.finish(m), args[0].scalar};
}

Status bind_array_contains(BindCtx& c) {
  const TypePtr& t = c.args[0]->type;
  if (!t->is_list()) return invalid_argument("needs a list");
  const TypePtr& elem = t->element().type;
  if (elem->is_nested())
    return invalid_argument("lists of {} are not supported", elem->to_string());
  c.args[1] = FLOE_TRY(coerce(c.args[1], elem));
  c.type = Type::boolean();
  return Status::OK();
}

template <typename Reader>
Datum contains_kernel(const BoundExpr& e, const std::vector<Datum>& args, int64_t n) {
  int64_t m = rows_for(args, n);
  const ColumnVector& list = *args[0].col;
  Datum elems{list.child_ptr(0), false};
  Reader er(elems), v(args[1]);
  FixedWriter<uint8_t> w(e.type, m);
  for (int64_t i = 0; i < m; ++i) {
    int64_t row = args[0].scalar ? 0 : i;
    w.data[i] = 0;
    if (list.is_null(row) || !v.valid(i)) {
      w.valid[i] = 0;
      continue;
    }
    auto want = v[i];
    bool found = false, saw_null = false;
    for (int32_t j = list.list_begin(row); j < list.list_end(row) && !found; ++j) {
      if (!er.valid(j)) {
        saw_null = true;
      } else if (er[j] == want) {
        found = true;
      }
    }
    w.data[i] = found;
    w.valid[i] = found || !saw_null;
  }
  return {w.finish(m), all_scalar(args)};
}

Result<Datum> eval_array_contains(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  Phys p = phys_of(e.args[0]->type->element().type->id());
  if (p == Phys::kBytes) return contains_kernel<BytesReader>(e, args, n);
  if (p == Phys::kNested || p == Phys::kNull) return null_scalar(Type::boolean());
  return visit_fixed(p, [&](auto tag) -> Datum {
    using T = decltype(tag);
    return contains_kernel<FixedReader<T>>(e, args, n);
  });
}

Status bind_map_parts(BindCtx& c) {
  const TypePtr& t = c.args[0]->type;
  if (!t->is_map()) return invalid_argument("needs a map");
  const NestedField& f = c.name == "map_keys" ? t->key() : t->value();
  c.type = Type::list_of(f.id, f.type, f.required);
  return Status::OK();
}

Result<Datum> eval_map_parts(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = args[0].scalar ? 1 : n;
  const ColumnVector& map = *args[0].col;
  const ColumnVector& part = map.child(e.name == "map_keys" ? 0 : 1);
  auto out = ColumnVector::make(e.type);
  for (int64_t i = 0; i < m; ++i) {
    if (map.is_null(i)) {
      out->append_null();
      continue;
    }
    int32_t b = map.list_begin(i), end = map.list_end(i);
    for (int32_t j = b; j < end; ++j) append_value(&out->child(0), part, j);
    out->append_list(end - b);
  }
  return Datum{out, args[0].scalar};
}

// element_at(list, i): Spark's 1-based index, negative from the end (-1 is the last element).
// floe's expressions follow Spark's default non-ANSI mode (sql/exec/bound_expr_internal.h), so
// an index past either end gives NULL, as Spark 3.5 does with spark.sql.ansi.enabled=false
// (ANSI mode would raise INVALID_ARRAY_INDEX_IN_ELEMENT_AT). Index 0 is an error in both modes.
Status bind_element_at(BindCtx& c) {
  const TypePtr& t = c.args[0]->type;
  if (t->id() != TypeId::kUnknown && !t->is_list())
    return invalid_argument("needs a list or a map");
  const TypeId k = c.args[1]->type->id();
  if (!is_integral(k) && k != TypeId::kUnknown) {
    return invalid_argument("the index must be an integer, got {}", c.args[1]->type->to_string());
  }
  c.args[1] = FLOE_TRY(coerce(c.args[1], Type::int32()));
  c.type = t->is_list() ? t->element().type : Type::unknown();
  return Status::OK();
}

Result<Datum> eval_element_at(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  if (!args[0].col->type()->is_list()) return null_scalar(e.type);
  const int64_t m = rows_for(args, n);
  const ColumnVector& list = *args[0].col;
  FixedReader<int32_t> k(args[1]);
  std::vector<int32_t> idx(static_cast<size_t>(m), -1);
  for (int64_t i = 0; i < m; ++i) {
    const int64_t row = args[0].scalar ? 0 : i;
    if (list.is_null(row) || !k.valid(i)) continue;
    const int64_t at = k[i];
    if (at == 0) {
      return invalid_argument(
          "element_at: index 0 is invalid: array indices start at 1 (-1 is the last element)");
    }
    const int64_t begin = list.list_begin(row), len = list.list_end(row) - begin;
    if (at > 0 && at <= len) idx[i] = static_cast<int32_t>(begin + at - 1);
    if (at < 0 && -at <= len) idx[i] = static_cast<int32_t>(begin + len + at);
  }
  return Datum{gather(list.child(0), idx), all_scalar(args)};
}

// The common type of args[first], args[first + step], ... (unknown when there are none), with
// every one of them coerced to it.
Result<TypePtr> unify(BindCtx& c, size_t first, size_t step, const char* what) {
  TypePtr type = Type::unknown();
  for (size_t i = first; i < c.args.size(); i += step) {
    auto wider = common_type(type, c.args[i]->type);
    if (!wider.ok()) {
      return invalid_argument("{} of different types: {} and {}", what, type->to_string(),
                              c.args[i]->type->to_string());
    }
    type = *wider;
  }
  for (size_t i = first; i < c.args.size(); i += step) {
    if (type->id() != TypeId::kUnknown) c.args[i] = FLOE_TRY(coerce(c.args[i], type));
  }
  return type;
}

Status bind_array(BindCtx& c) {
  TypePtr element = FLOE_TRY(unify(c, 0, 1, "array elements"));
  c.type = Type::list_of(1, element, false);
  return Status::OK();
}

Result<Datum> eval_array(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = rows_for(args, n);
  auto out = ColumnVector::make(e.type);
  for (int64_t i = 0; i < m; ++i) {
    for (const Datum& a : args) append_value(&out->child(0), *a.col, a.scalar ? 0 : i);
    out->append_list(static_cast<int32_t>(args.size()));
  }
  return Datum{out, all_scalar(args)};
}

Status bind_map(BindCtx& c) {
  if (c.args.size() % 2 != 0) return invalid_argument("needs key, value pairs");
  TypePtr key = FLOE_TRY(unify(c, 0, 2, "map keys"));
  TypePtr value = FLOE_TRY(unify(c, 1, 2, "map values"));
  if (key->is_nested())
    return invalid_argument("map keys of {} are not supported", key->to_string());
  c.type = Type::map_of(1, key, 2, value, false);
  return Status::OK();
}

Result<Datum> eval_map(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = rows_for(args, n);
  auto out = ColumnVector::make(e.type);
  for (int64_t i = 0; i < m; ++i) {
    for (size_t k = 0; k + 1 < args.size(); k += 2) {
      const Datum& key = args[k];
      int64_t row = key.scalar ? 0 : i;
      if (key.col->is_null(row)) return invalid_argument("map(): a map key cannot be NULL");
      append_value(&out->child(0), *key.col, row);
      append_value(&out->child(1), *args[k + 1].col, args[k + 1].scalar ? 0 : i);
    }
    out->append_list(static_cast<int32_t>(args.size() / 2));
  }
  return Datum{out, all_scalar(args)};
}

// struct(a, b): fields col1, col2, ...; named_struct('x', a, 'y', b): the given names.
Status bind_struct(BindCtx& c) {
  const bool named = c.name == "named_struct";
  if (named && c.args.size() % 2 != 0) return invalid_argument("needs name, value pairs");
  std::vector<NestedField> fields;
  for (size_t i = named ? 1 : 0; i < c.args.size(); i += named ? 2 : 1) {
    NestedField f;
    f.id = static_cast<int32_t>(fields.size() + 1);
    f.type = c.args[i]->type;
    if (named) {
      const BoundExpr& name = *c.args[i - 1];
      if (!name.is_literal() || name.value.is_null() || name.type->id() != TypeId::kString) {
        return invalid_argument("field names must be string literals");
      }
      f.name = name.value.as_bytes();
    } else {
      f.name = "col" + std::to_string(fields.size() + 1);
    }
    fields.push_back(std::move(f));
  }
  c.type = Type::struct_of(std::move(fields));
  return Status::OK();
}

Result<Datum> eval_struct(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  const bool named = e.name == "named_struct";
  int64_t m = rows_for(args, n);
  auto out = ColumnVector::make(e.type);
  for (int64_t i = 0; i < m; ++i) {
    size_t field = 0;
    for (size_t k = named ? 1 : 0; k < args.size(); k += named ? 2 : 1) {
      append_value(&out->child(field++), *args[k].col, args[k].scalar ? 0 : i);
    }
    out->append_struct();
  }
  return Datum{out, all_scalar(args)};
}

}  // namespace

void register_collection_functions(std::vector<FunctionDef>* defs) {
  defs->push_back({"size", 1, 1, bind_size, eval_size});
  defs->push_back({"cardinality", 1, 1, bind_size, eval_size});
  defs->push_back({"array_contains", 2, 2, bind_array_contains, eval_array_contains});
  defs->push_back({"element_at", 2, 2, bind_element_at, eval_element_at});
  defs->push_back({"map_keys", 1, 1, bind_map_parts, eval_map_parts});
  defs->push_back({"map_values", 1, 1, bind_map_parts, eval_map_parts});
  defs->push_back({"array", 0, -1, bind_array, eval_array});
  defs->push_back({"map", 0, -1, bind_map, eval_map});
  defs->push_back({"struct", 1, -1, bind_struct, eval_struct});
  defs->push_back({"named_struct", 2, -1, bind_struct, eval_struct});
}

}  // namespace floe::sql::internal
