// Functions over lists and maps (metadata tables carry both): size/cardinality, array_contains,
// map_keys, map_values. element_at is a subscript (see call()).
#include "sql/expr_internal.h"

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

}  // namespace

void register_collection_functions(std::vector<FunctionDef>* defs) {
  defs->push_back({"size", 1, 1, bind_size, eval_size});
  defs->push_back({"cardinality", 1, 1, bind_size, eval_size});
  defs->push_back({"array_contains", 2, 2, bind_array_contains, eval_array_contains});
  defs->push_back({"map_keys", 1, 1, bind_map_parts, eval_map_parts});
  defs->push_back({"map_values", 1, 1, bind_map_parts, eval_map_parts});
}

}  // namespace floe::sql::internal
