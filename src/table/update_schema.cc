// UpdateSchema (include/floe/table/update_schema.h): operations recorded as called and
// replayed on the current schema by every apply into the changes Java's SchemaUpdate tracks
// (update_schema_internal.h), with Java's checks as each operation is replayed; then the new
// schema built and checked (schema_changes.cc) and committed with a schema id.
#include "floe/table/update_schema.h"

#include <algorithm>
#include <functional>

#include "floe/expr/expression.h"
#include "floe/table/table.h"
#include "table/update_schema_internal.h"

namespace floe {

using namespace internal;

namespace {

// Assigns fresh ids to every field nested in `type`: a struct's fields get consecutive ids
// before any of their children (Java's AssignFreshIds).
TypePtr fresh_ids(const TypePtr& type, int32_t& last_id) {
  auto renumber = [&](std::vector<NestedField> fields) {
    for (auto& f : fields) f.id = ++last_id;
    for (auto& f : fields) f.type = fresh_ids(f.type, last_id);
    return fields;
  };
  if (type->is_struct()) return Type::struct_of(renumber(type->fields()));
  if (type->is_list()) return Type::list_of(renumber({type->element()})[0]);
  if (type->is_map()) {
    auto kv = renumber({type->key(), type->value()});
    return Type::map_of(kv[0], kv[1]);
  }
  return type;
}

// Types that take no default but null (spec "Default values").
bool takes_default(const Type& type) {
  if (!type.is_primitive()) return false;
  switch (type.id()) {
    case TypeId::kUnknown:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return false;
    default:
      return true;
  }
}

// The spec's type promotions (spec "Schema Evolution"): v1/v2 int -> long, float -> double,
// decimal precision widening; v3 adds date -> timestamp / timestamp_ns and unknown -> any
// primitive.
bool promotion_allowed(const Type& from, const Type& to, int format_version) {
  if (!to.is_primitive()) return false;
  if (from.equals(to)) return true;
  switch (from.id()) {
    case TypeId::kInt:
      return to.id() == TypeId::kLong;
    case TypeId::kFloat:
      return to.id() == TypeId::kDouble;
    case TypeId::kDecimal:
      return to.id() == TypeId::kDecimal && to.scale() == from.scale() &&
             to.precision() >= from.precision();
    case TypeId::kDate:
      return format_version >= 3 &&
             (to.id() == TypeId::kTimestamp || to.id() == TypeId::kTimestampNs);
    case TypeId::kUnknown:
      return format_version >= 3;
    default:
      return false;
  }
}

// A default converted to the field type; a null literal means no default.
Result<std::optional<Literal>> convert_default(const std::optional<Literal>& value,
                                               const TypePtr& type, const std::string& column) {
  if (!value || value->is_null()) return std::optional<Literal>();
  if (!takes_default(*type)) {
    return invalid_argument("Invalid default value for {}: a {} column can only default to null",
                            column, type->to_string());
  }
  auto converted = convert_literal(*value, type);
  if (!converted.ok() || converted->first != Conversion::kOk) {
    return invalid_argument("Invalid default value for {}: cannot convert '{}' to {}", column,
                            value->to_string(), type->to_string());
  }
  return std::optional<Literal>(converted->second);
}

using Op = std::function<Status(SchemaChanges&)>;

Status apply_add(SchemaChanges& s, const std::optional<std::string>& parent,
                 const std::string& name, bool required, const TypePtr& type,
                 const std::string& doc, const std::optional<Literal>& default_value) {
  if (!type) return invalid_argument("Cannot add column {} without a type", name);
  if (name.empty()) return invalid_argument("Cannot add a column with an empty name");
  int32_t parent_id = kRootParent;
  std::string full;
  if (parent) {
    const NestedField* p = s.find(*parent);
    if (!p) return invalid_argument("Cannot find parent struct: {}", *parent);
    if (p->type->is_map()) {
      p = &p->type->value();  // fields go into the map's value struct
    } else if (p->type->is_list()) {
      p = &p->type->element();  // or the list's element struct
    }
    if (!p->type->is_struct()) {
      return invalid_argument("Cannot add to non-struct column: {}: {}", *parent,
                              p->type->to_string());
    }
    parent_id = p->id;
    if (s.deleted(parent_id)) {
      return invalid_argument("Cannot add to a column that will be deleted: {}", *parent);
    }
    const NestedField* current = s.find(*parent + "." + name);
    if (current && !s.deleted(current->id)) {
      return invalid_argument("Cannot add column, name already exists: {}.{}", *parent, name);
    }
    full = s.full_name(parent_id) + "." + name;
  } else {
    const NestedField* current = s.find(name);
    if (current && !s.deleted(current->id)) {
      return invalid_argument("Cannot add column, name already exists: {}", name);
    }
    full = name;
  }
  if (s.added_by_name.count(s.key(full))) {
    return invalid_argument("Cannot add column, name already exists: {}", full);
  }
  std::optional<Literal> value = FLOE_TRY(convert_default(default_value, type, full));
  if (required && !value && !s.allow_incompatible) {
    return invalid_argument(
        "Incompatible change: cannot add required column without a default value: {}", full);
  }
  const int32_t id = ++s.last_column_id;  // the column's id first, then its nested fields'
  s.added_by_name[s.key(full)] = id;
  if (parent_id != kRootParent) s.added_parent[id] = parent_id;
  NestedField f;
  f.id = id;
  f.name = name;
  f.type = fresh_ids(type, s.last_column_id);
  f.required = required;
  f.doc = doc;
  f.initial_default = value;
  f.write_default = value;
  s.updates[id] = std::move(f);
  s.added_by_parent[parent_id].push_back(id);
  return Status::OK();
}

Status apply_delete(SchemaChanges& s, const std::string& name) {
  const NestedField* f = s.find(name);
  if (!f) return invalid_argument("Cannot delete missing column: {}", name);
  if (s.added_by_parent.count(f->id)) {
    return invalid_argument("Cannot delete a column that has additions: {}", name);
  }
  if (s.updates.count(f->id)) {
    return invalid_argument("Cannot delete a column that has updates: {}", name);
  }
  if (s.deletes.insert(f->id).second) s.delete_order.push_back(f->id);
  return Status::OK();
}

Status apply_rename(SchemaChanges& s, const std::string& name, const std::string& new_name) {
  const NestedField* f = s.find(name);
  if (!f) return invalid_argument("Cannot rename missing column: {}", name);
  if (new_name.empty()) return invalid_argument("Cannot rename column {} to an empty name", name);
  if (s.deleted(f->id)) {
    return invalid_argument("Cannot rename a column that will be deleted: {}", f->name);
  }
  auto it = s.updates.find(f->id);
  NestedField updated = it != s.updates.end() ? it->second : *f;
  updated.name = new_name;
  s.updates[f->id] = std::move(updated);
  // Identifier fields named by set_identifier_fields follow the rename (Java); those kept by
  // id follow it anyway.
  std::string old_full = s.full_name(f->id);
  auto parent = s.schema.parent_id(f->id);
  std::string new_full = parent ? s.full_name(*parent) + "." + new_name : new_name;
  for (auto& ident : s.identifiers) {
    auto* n = std::get_if<std::string>(&ident);
    if (n && (s.key(*n) == s.key(name) || s.key(*n) == s.key(old_full))) *n = new_full;
  }
  return Status::OK();
}

Status apply_promote(SchemaChanges& s, const std::string& name, const TypePtr& new_type) {
  const NestedField* f = s.find_for_update(name);
  if (!f) return invalid_argument("Cannot update missing column: {}", name);
  if (s.deleted(f->id)) {
    return invalid_argument("Cannot update a column that will be deleted: {}", f->name);
  }
  if (!new_type) return invalid_argument("Cannot update column {} to no type", name);
  if (f->type->equals(*new_type)) return Status::OK();
  if (!promotion_allowed(*f->type, *new_type, s.base.format_version)) {
    return invalid_argument("Cannot change column type: {}: {} -> {}", name, f->type->to_string(),
                            new_type->to_string());
  }
  // Spec: no promotion of a partition source whose transform would give other values. Of
  // the allowed promotions only date -> timestamp does (identity and bucket of a date differ
  // from those of the timestamp at its midnight; year, month and day agree).
  if (f->type->id() == TypeId::kDate) {
    for (const auto& spec : s.base.specs) {
      for (const auto& pf : spec->fields()) {
        bool uses = pf.source_id == f->id ||
                    std::count(pf.source_ids.begin(), pf.source_ids.end(), f->id) > 0;
        if (!uses || pf.transform.is_time() || pf.transform.is_void()) continue;
        return invalid_argument(
            "Cannot change column type: {}: {} -> {}: partition field '{}' ({}) of partition "
            "spec {} would change its values",
            name, f->type->to_string(), new_type->to_string(), pf.name,
            transform_term(pf.transform, name), spec->spec_id());
      }
    }
  }
  NestedField updated = *f;
  updated.type = new_type;
  updated.initial_default = FLOE_TRY(convert_default(f->initial_default, new_type, name));
  updated.write_default = FLOE_TRY(convert_default(f->write_default, new_type, name));
  s.updates[f->id] = std::move(updated);
  return Status::OK();
}

Status apply_doc(SchemaChanges& s, const std::string& name, const std::string& doc) {
  const NestedField* f = s.find_for_update(name);
  if (!f) return invalid_argument("Cannot update missing column: {}", name);
  if (s.deleted(f->id)) {
    return invalid_argument("Cannot update a column that will be deleted: {}", f->name);
  }
  if (f->doc == doc) return Status::OK();
  NestedField updated = *f;
  updated.doc = doc;
  s.updates[f->id] = std::move(updated);
  return Status::OK();
}

Status apply_default(SchemaChanges& s, const std::string& name,
                     const std::optional<Literal>& value) {
  const NestedField* f = s.find_for_update(name);
  if (!f) return invalid_argument("Cannot update missing column: {}", name);
  if (s.deleted(f->id)) {
    return invalid_argument("Cannot update a column that will be deleted: {}", f->name);
  }
  std::optional<Literal> converted = FLOE_TRY(convert_default(value, f->type, name));
  if (converted == f->write_default) return Status::OK();
  NestedField updated = *f;
  updated.write_default = std::move(converted);
  s.updates[f->id] = std::move(updated);
  return Status::OK();
}

Status apply_requirement(SchemaChanges& s, const std::string& name, bool optional) {
  const NestedField* f = s.find_for_update(name);
  if (!f) return invalid_argument("Cannot update missing column: {}", name);
  if (f->required != optional) return Status::OK();  // no change: allowed either way
  bool defaulted_add = s.added_by_name.count(s.key(name)) && f->initial_default.has_value();
  if (!optional && !defaulted_add && !s.allow_incompatible) {
    return invalid_argument("Cannot change column nullability: {}: optional -> required", name);
  }
  if (s.deleted(f->id)) {
    return invalid_argument("Cannot update a column that will be deleted: {}", f->name);
  }
  NestedField updated = *f;
  updated.required = !optional;
  s.updates[f->id] = std::move(updated);
  return Status::OK();
}

Status apply_move(SchemaChanges& s, ColumnMove::Kind kind, const std::string& name,
                  const std::string& reference) {
  auto id = s.find_for_move(name);
  if (!id) return invalid_argument("Cannot move missing column: {}", name);
  ColumnMove move{kind, *id, 0, name, reference};
  if (kind != ColumnMove::Kind::kFirst) {
    const char* where = kind == ColumnMove::Kind::kBefore ? "before" : "after";
    auto ref = s.find_for_move(reference);
    if (!ref) {
      return invalid_argument("Cannot move {} {} missing column: {}", name, where, reference);
    }
    if (*ref == *id) return invalid_argument("Cannot move {} {} itself", name, where);
    move.reference_id = *ref;
  }
  auto parent = s.parent_of(*id);
  if (parent) {
    const NestedField* p = s.schema.find_field(*parent);
    if (!p || !p->type->is_struct()) {
      return invalid_argument("Cannot move fields in non-struct type: {}",
                              p ? p->type->to_string() : std::to_string(*parent));
    }
  }
  if (kind != ColumnMove::Kind::kFirst && s.parent_of(move.reference_id) != parent) {
    return invalid_argument("Cannot move field {} to a different struct", name);
  }
  s.moves[parent.value_or(kRootParent)].push_back(std::move(move));
  return Status::OK();
}

// Identical schemas compare identifier fields as sets.
bool same_schema(const Schema& a, const Schema& b) {
  auto ids = [](const Schema& s) {
    std::vector<int32_t> v = s.identifier_field_ids();
    std::sort(v.begin(), v.end());
    return v;
  };
  return ids(a) == ids(b) && a.as_struct()->equals(*b.as_struct());
}

}  // namespace

struct UpdateSchema::Impl : PendingUpdate {
  FileIOPtr io;
  std::vector<Op> ops;
  bool staged = false;
  bool changed = false;  // the last apply changed the metadata
  // The schema the update was first applied to; a retry on another one is a conflict.
  SchemaPtr first_schema;
  int32_t first_last_column_id = 0;

  // The new schema on `base` (its schema id still to be chosen), replaying the operations
  // into `changes`.
  Result<std::shared_ptr<Schema>> build(const TableMetadata& base, SchemaChanges& changes) const {
    for (const auto& op : ops) FLOE_TRY(op(changes));
    return build_schema(changes, base.format_version);
  }

  Result<TableMetadata> apply(const TableMetadata& base) override {
    const Schema* current = base.schema();
    if (!current) return invalid_data("table has no current schema");
    if (!first_schema) {
      first_schema = std::make_shared<Schema>(*current);
      first_last_column_id = base.last_column_id;
    } else if (!same_schema(*current, *first_schema) ||
               base.last_column_id != first_last_column_id) {
      return make_error(ErrorKind::kCommitConflict,
                        "cannot commit the schema update: the table's schema changed since the "
                        "update was made (schema {} is now current)",
                        current->schema_id());
    }
    SchemaChanges s(base, *current);
    auto built = FLOE_TRY(build(base, s));
    FLOE_TRY(check_drop_guards(s, io.get()));

    TableMetadata m = base;
    changed = false;
    if (same_schema(*built, *current)) return m;
    int32_t schema_id = -1;
    int32_t next_id = base.current_schema_id;
    for (const auto& existing : base.schemas) {
      if (same_schema(*existing, *built)) {
        schema_id = existing->schema_id();
        break;
      }
      next_id = std::max(next_id, existing->schema_id() + 1);
    }
    SchemaPtr schema;
    if (schema_id < 0) {
      schema_id = next_id;
      schema =
          std::make_shared<const Schema>(schema_id, built->fields(), built->identifier_field_ids());
      FLOE_TRY(schema->validate());
      m.schemas.push_back(schema);
    } else {
      for (const auto& existing : m.schemas) {
        if (existing->schema_id() == schema_id) schema = existing;
      }
    }
    m.current_schema_id = schema_id;
    m.last_column_id = std::max(base.last_column_id, s.last_column_id);
    update_properties_for_schema(m.properties, *current, *schema, s);
    changed = true;
    return m;
  }
};

UpdateSchema::UpdateSchema(Transaction txn, bool auto_commit)
    : impl_(std::make_shared<Impl>()), txn_(std::move(txn)), auto_commit_(auto_commit) {
  impl_->io = txn_.table()->io();
}

UpdateSchema& UpdateSchema::allow_incompatible_changes() {
  impl_->ops.push_back([](SchemaChanges& s) {
    s.allow_incompatible = true;
    return Status::OK();
  });
  return *this;
}

UpdateSchema& UpdateSchema::case_sensitive(bool value) {
  impl_->ops.push_back([value](SchemaChanges& s) {
    s.case_sensitive = value;
    return Status::OK();
  });
  return *this;
}

UpdateSchema& UpdateSchema::add_column(const std::string& name, TypePtr type,
                                       const std::string& doc) {
  if (name.find('.') != std::string::npos) {
    impl_->ops.push_back([name](SchemaChanges&) {
      return invalid_argument(
          "Cannot add column with ambiguous name: {}, use add_column(parent, name, type)", name);
    });
    return *this;
  }
  return add_column(std::nullopt, name, std::move(type), doc);
}

UpdateSchema& UpdateSchema::add_column(std::optional<std::string> parent, const std::string& name,
                                       TypePtr type, const std::string& doc,
                                       std::optional<Literal> default_value) {
  impl_->ops.push_back([=](SchemaChanges& s) {
    return apply_add(s, parent, name, false, type, doc, default_value);
  });
  return *this;
}

UpdateSchema& UpdateSchema::add_required_column(const std::string& name, TypePtr type,
                                                const std::string& doc) {
  if (name.find('.') != std::string::npos) {
    impl_->ops.push_back([name](SchemaChanges&) {
      return invalid_argument(
          "Cannot add column with ambiguous name: {}, use add_required_column(parent, name, "
          "type)",
          name);
    });
    return *this;
  }
  return add_required_column(std::nullopt, name, std::move(type), doc);
}

UpdateSchema& UpdateSchema::add_required_column(std::optional<std::string> parent,
                                                const std::string& name, TypePtr type,
                                                const std::string& doc,
                                                std::optional<Literal> default_value) {
  impl_->ops.push_back(
      [=](SchemaChanges& s) { return apply_add(s, parent, name, true, type, doc, default_value); });
  return *this;
}

UpdateSchema& UpdateSchema::delete_column(const std::string& name) {
  impl_->ops.push_back([name](SchemaChanges& s) { return apply_delete(s, name); });
  return *this;
}

UpdateSchema& UpdateSchema::rename_column(const std::string& name, const std::string& new_name) {
  impl_->ops.push_back(
      [name, new_name](SchemaChanges& s) { return apply_rename(s, name, new_name); });
  return *this;
}

UpdateSchema& UpdateSchema::update_column(const std::string& name, TypePtr new_type) {
  impl_->ops.push_back(
      [name, new_type](SchemaChanges& s) { return apply_promote(s, name, new_type); });
  return *this;
}

UpdateSchema& UpdateSchema::update_column_doc(const std::string& name, const std::string& doc) {
  impl_->ops.push_back([name, doc](SchemaChanges& s) { return apply_doc(s, name, doc); });
  return *this;
}

UpdateSchema& UpdateSchema::update_column_default(const std::string& name,
                                                  std::optional<Literal> default_value) {
  impl_->ops.push_back(
      [name, default_value](SchemaChanges& s) { return apply_default(s, name, default_value); });
  return *this;
}

UpdateSchema& UpdateSchema::make_column_optional(const std::string& name) {
  impl_->ops.push_back([name](SchemaChanges& s) { return apply_requirement(s, name, true); });
  return *this;
}

UpdateSchema& UpdateSchema::require_column(const std::string& name) {
  impl_->ops.push_back([name](SchemaChanges& s) { return apply_requirement(s, name, false); });
  return *this;
}

UpdateSchema& UpdateSchema::move_first(const std::string& name) {
  impl_->ops.push_back(
      [name](SchemaChanges& s) { return apply_move(s, ColumnMove::Kind::kFirst, name, ""); });
  return *this;
}

UpdateSchema& UpdateSchema::move_before(const std::string& name, const std::string& before_name) {
  impl_->ops.push_back([name, before_name](SchemaChanges& s) {
    return apply_move(s, ColumnMove::Kind::kBefore, name, before_name);
  });
  return *this;
}

UpdateSchema& UpdateSchema::move_after(const std::string& name, const std::string& after_name) {
  impl_->ops.push_back([name, after_name](SchemaChanges& s) {
    return apply_move(s, ColumnMove::Kind::kAfter, name, after_name);
  });
  return *this;
}

UpdateSchema& UpdateSchema::set_identifier_fields(std::vector<std::string> names) {
  impl_->ops.push_back([names](SchemaChanges& s) {
    s.identifiers.clear();
    std::set<std::string> seen;
    for (const auto& n : names) {
      if (seen.insert(s.key(n)).second) s.identifiers.emplace_back(n);
    }
    return Status::OK();
  });
  return *this;
}

Result<SchemaPtr> UpdateSchema::apply() const {
  const TableMetadata& base = txn_.pending();
  const Schema* current = base.schema();
  if (!current) return invalid_data("table has no current schema");
  SchemaChanges s(base, *current);
  return SchemaPtr(FLOE_TRY(impl_->build(base, s)));
}

Status UpdateSchema::commit() {
  if (impl_->staged) return invalid_argument("schema update already committed");
  FLOE_TRY(txn_.stage(impl_));
  impl_->staged = true;
  if (!auto_commit_ || !impl_->changed) return Status::OK();
  return txn_.commit();
}

}  // namespace floe