#include "floe/columnar/arrow.h"

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

namespace floe {

namespace {

// ---------------------------------------------------------------------------------------------
// Schema

struct SchemaPrivate {
  std::string format;
  std::string name;
  std::string metadata;
  std::vector<ArrowSchema> child_storage;
  std::vector<ArrowSchema*> children;
};

void release_schema(ArrowSchema* s) {
  if (s == nullptr || s->release == nullptr) return;
  auto* p = static_cast<SchemaPrivate*>(s->private_data);
  for (auto& c : p->child_storage) {
    if (c.release) c.release(&c);
  }
  delete p;
  s->release = nullptr;
}

Result<std::string> format_of(const Type& t) {
  switch (t.id()) {
    case TypeId::kBoolean:
      return std::string("b");
    case TypeId::kInt:
      return std::string("i");
    case TypeId::kLong:
      return std::string("l");
    case TypeId::kFloat:
      return std::string("f");
    case TypeId::kDouble:
      return std::string("g");
    case TypeId::kDecimal:
      return fmt::format("d:{},{}", t.precision(), t.scale());
    case TypeId::kDate:
      return std::string("tdD");
    case TypeId::kTime:
      return std::string("ttu");
    case TypeId::kTimestamp:
      return std::string("tsu:");
    case TypeId::kTimestampTz:
      return std::string("tsu:UTC");
    case TypeId::kTimestampNs:
      return std::string("tsn:");
    case TypeId::kTimestampTzNs:
      return std::string("tsn:UTC");
    case TypeId::kString:
      return std::string("u");
    case TypeId::kBinary:
      return std::string("z");
    case TypeId::kUuid:
      return std::string("w:16");
    case TypeId::kFixed:
      return fmt::format("w:{}", t.length());
    case TypeId::kStruct:
      return std::string("+s");
    case TypeId::kList:
      return std::string("+l");
    case TypeId::kMap:
      return std::string("+m");
    default:
      return not_supported("no Arrow export for {}", t.to_string());
  }
}

// Arrow metadata encoding: int32 pair count, then (int32 length, bytes) for each key and value.
std::string field_id_metadata(int32_t id) {
  std::string out;
  auto put = [&](std::string_view s) {
    int32_t n = static_cast<int32_t>(s.size());
    out.append(reinterpret_cast<const char*>(&n), 4);
    out.append(s.data(), s.size());
  };
  int32_t pairs = 1;
  out.append(reinterpret_cast<const char*>(&pairs), 4);
  put("PARQUET:field_id");
  put(std::to_string(id));
  return out;
}

Status fill_schema(const std::string& name, const TypePtr& type, bool nullable,
                   std::optional<int32_t> field_id, ArrowSchema* s) {
  auto p = std::make_unique<SchemaPrivate>();
  p->format = FLOE_TRY(format_of(*type));
  p->name = name;
  if (field_id) p->metadata = field_id_metadata(*field_id);
  if (type->is_map()) {
    // A map's single child is the non-nullable "entries" struct of key and value.
    p->child_storage.resize(1);
    auto ep = std::make_unique<SchemaPrivate>();
    ep->format = "+s";
    ep->name = "entries";
    ep->child_storage.resize(2);
    const NestedField& k = type->key();
    const NestedField& v = type->value();
    FLOE_TRY(fill_schema("key", k.type, false, k.id, &ep->child_storage[0]));
    FLOE_TRY(fill_schema("value", v.type, !v.required, v.id, &ep->child_storage[1]));
    for (auto& c : ep->child_storage) ep->children.push_back(&c);
    ArrowSchema& e = p->child_storage[0];
    e.format = ep->format.c_str();
    e.name = ep->name.c_str();
    e.metadata = nullptr;
    e.flags = 0;
    e.n_children = 2;
    e.children = ep->children.data();
    e.dictionary = nullptr;
    e.release = release_schema;
    e.private_data = ep.release();
  } else {
    const auto& fields = type->fields();
    p->child_storage.resize(fields.size());
    for (size_t i = 0; i < fields.size(); ++i) {
      std::string cname = type->is_list() ? "element" : fields[i].name;
      FLOE_TRY(fill_schema(cname, fields[i].type, !fields[i].required, fields[i].id,
                           &p->child_storage[i]));
    }
  }
  for (auto& c : p->child_storage) p->children.push_back(&c);
  s->format = p->format.c_str();
  s->name = p->name.c_str();
  s->metadata = p->metadata.empty() ? nullptr : p->metadata.data();
  s->flags = nullable ? ARROW_FLAG_NULLABLE : 0;
  s->n_children = static_cast<int64_t>(p->children.size());
  s->children = p->children.empty() ? nullptr : p->children.data();
  s->dictionary = nullptr;
  s->release = release_schema;
  s->private_data = p.release();
  return Status::OK();
}

// ---------------------------------------------------------------------------------------------
// Arrays

struct ArrayPrivate {
  std::vector<ColumnPtr> keep;  // columns whose buffers the array points into
  std::vector<const void*> buffers;
  std::vector<ArrowArray> child_storage;
  std::vector<ArrowArray*> children;
  Buffer bits;  // booleans repacked
};

void release_array(ArrowArray* a) {
  if (a == nullptr || a->release == nullptr) return;
  auto* p = static_cast<ArrayPrivate*>(a->private_data);
  for (auto& c : p->child_storage) {
    if (c.release) c.release(&c);
  }
  delete p;
  a->release = nullptr;
}

void finish_array(std::unique_ptr<ArrayPrivate> p, int64_t length, int64_t nulls, ArrowArray* a) {
  for (auto& c : p->child_storage) p->children.push_back(&c);
  a->length = length;
  a->null_count = nulls;
  a->offset = 0;
  a->n_buffers = static_cast<int64_t>(p->buffers.size());
  a->n_children = static_cast<int64_t>(p->children.size());
  a->buffers = p->buffers.empty() ? nullptr : p->buffers.data();
  a->children = p->children.empty() ? nullptr : p->children.data();
  a->dictionary = nullptr;
  a->release = release_array;
  a->private_data = p.release();
}

Status fill_array(const ColumnPtr& col, ArrowArray* a) {
  auto p = std::make_unique<ArrayPrivate>();
  p->keep.push_back(col);
  const ColumnVector& c = *col;
  const void* validity = c.null_count() > 0 ? c.validity().data() : nullptr;
  p->buffers.push_back(validity);
  switch (c.type_id()) {
    case TypeId::kBoolean: {
      int64_t n = c.length();
      p->bits.resize(static_cast<size_t>((n + 7) / 8));
      std::memset(p->bits.data(), 0, p->bits.size());
      const uint8_t* v = c.raw<uint8_t>();
      for (int64_t i = 0; i < n; ++i) p->bits.data()[i >> 3] |= (v[i] & 1) << (i & 7);
      p->buffers.push_back(p->bits.data());
      break;
    }
    case TypeId::kString:
    case TypeId::kBinary:
      p->buffers.push_back(c.offsets().data());
      p->buffers.push_back(c.data().data());
      break;
    case TypeId::kStruct:
      p->child_storage.resize(c.num_children());
      for (size_t i = 0; i < c.num_children(); ++i) {
        FLOE_TRY(fill_array(c.child_ptr(i), &p->child_storage[i]));
      }
      break;
    case TypeId::kList:
      p->buffers.push_back(c.offsets().data());
      p->child_storage.resize(1);
      FLOE_TRY(fill_array(c.child_ptr(0), &p->child_storage[0]));
      break;
    case TypeId::kMap: {
      p->buffers.push_back(c.offsets().data());
      p->child_storage.resize(1);
      auto ep = std::make_unique<ArrayPrivate>();
      ep->buffers.push_back(nullptr);
      ep->child_storage.resize(2);
      FLOE_TRY(fill_array(c.child_ptr(0), &ep->child_storage[0]));
      FLOE_TRY(fill_array(c.child_ptr(1), &ep->child_storage[1]));
      finish_array(std::move(ep), c.child(0).length(), 0, &p->child_storage[0]);
      break;
    }
    default:
      if (c.value_width() == 0)
        return not_supported("no Arrow export for {}", c.type()->to_string());
      p->buffers.push_back(c.values().data());
      break;
  }
  finish_array(std::move(p), c.length(), c.null_count(), a);
  return Status::OK();
}

// ---------------------------------------------------------------------------------------------
// Stream

struct StreamPrivate {
  std::vector<NestedField> fields;
  BatchSource next;
  std::string last_error;
};

int stream_get_schema(ArrowArrayStream* s, ArrowSchema* out) {
  auto* p = static_cast<StreamPrivate*>(s->private_data);
  Status st = export_arrow_schema(p->fields, out);
  if (!st.ok()) {
    p->last_error = st.to_string();
    return EINVAL;
  }
  return 0;
}

int stream_get_next(ArrowArrayStream* s, ArrowArray* out) {
  auto* p = static_cast<StreamPrivate*>(s->private_data);
  auto b = p->next();
  if (!b.ok()) {
    p->last_error = b.status().to_string();
    return EIO;
  }
  if (!b->has_value()) {
    std::memset(out, 0, sizeof(*out));  // release == nullptr marks the end
    return 0;
  }
  Status st = export_arrow_array(**b, out);
  if (!st.ok()) {
    p->last_error = st.to_string();
    return EINVAL;
  }
  return 0;
}

const char* stream_last_error(ArrowArrayStream* s) {
  auto* p = static_cast<StreamPrivate*>(s->private_data);
  return p->last_error.empty() ? nullptr : p->last_error.c_str();
}

void stream_release(ArrowArrayStream* s) {
  if (s == nullptr || s->release == nullptr) return;
  delete static_cast<StreamPrivate*>(s->private_data);
  s->release = nullptr;
}

}  // namespace

Status export_arrow_schema(const std::vector<NestedField>& fields, ArrowSchema* out) {
  return fill_schema("", Type::struct_of(fields), false, std::nullopt, out);
}

Status export_arrow_array(const ColumnBatch& batch, ArrowArray* out) {
  auto p = std::make_unique<ArrayPrivate>();
  p->buffers.push_back(nullptr);
  p->child_storage.resize(batch.columns.size());
  for (size_t i = 0; i < batch.columns.size(); ++i) {
    if (batch.columns[i]->length() != batch.num_rows) {
      return invalid_argument("column {} has {} values for {} rows", i, batch.columns[i]->length(),
                              batch.num_rows);
    }
    Status st = fill_array(batch.columns[i], &p->child_storage[i]);
    if (!st.ok()) {
      for (size_t j = 0; j < i; ++j) release_array(&p->child_storage[j]);
      return st;
    }
  }
  finish_array(std::move(p), batch.num_rows, 0, out);
  return Status::OK();
}

Status export_arrow_stream(std::vector<NestedField> fields, BatchSource next,
                           ArrowArrayStream* out) {
  auto p = std::make_unique<StreamPrivate>();
  p->fields = std::move(fields);
  p->next = std::move(next);
  out->get_schema = stream_get_schema;
  out->get_next = stream_get_next;
  out->get_last_error = stream_last_error;
  out->release = stream_release;
  out->private_data = p.release();
  return Status::OK();
}

}  // namespace floe
