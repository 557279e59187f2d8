// UpdateSchema (include/floe/table/update_schema.h): operations recorded as called and
// replayed on the current schema by every apply, as Java's SchemaUpdate tracks them (deletes,
// per-field updates, additions by parent, moves by parent, identifier fields), then the new
// struct built in one walk of the old one and the guards checked against the table.
#include "floe/table/update_schema.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>
#include <variant>

#include "floe/expr/expression.h"
#include "floe/manifest/manifest_list_reader.h"
#include "floe/spec/name_mapping.h"
#include "floe/spec/table_properties.h"
#include "floe/table/table.h"
#include "floe/util/strings.h"

namespace floe {

namespace {

constexpr int32_t kRoot = -1;  // the parent id of top-level columns
constexpr const char* kNameMappingProperty = "schema.name-mapping.default";
// Properties keyed by column name that follow renames and go with deleted columns (Java's
// SchemaUpdate.applyChangesToMetadata).
constexpr std::string_view kColumnPropertyPrefixes[] = {
    "write.metadata.metrics.column.",
    "write.parquet.bloom-filter-enabled.column.",
    "write.parquet.stats-enabled.column.",
};

struct Move {
  enum class Kind { kFirst, kBefore, kAfter };
  Kind kind = Kind::kFirst;
  int32_t field_id = 0;
  int32_t reference_id = 0;
  std::string name;            // as the caller named the moved column
  std::string reference_name;  // and the reference column
};

// An identifier field: an id carried over from the current schema (it follows renames), or a
// name given to set_identifier_fields (resolved in the new schema, as Java does).
using IdentifierField = std::variant<int32_t, std::string>;

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

bool is_v3_type(TypeId id) {
  switch (id) {
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
    case TypeId::kUnknown:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return true;
    default:
      return false;
  }
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

// Every id nested in `type`.
void nested_ids(const Type& type, std::set<int32_t>& out) {
  for (const auto& f : type.fields()) {
    out.insert(f.id);
    nested_ids(*f.type, out);
  }
}

std::string transform_term(const Transform& t, const std::string& column) {
  return t.is_identity() ? column : fmt::format("{}({})", t.to_string(), column);
}

// The replay state of one apply: Java's SchemaUpdate fields.
struct State {
  const TableMetadata& base;
  const Schema& schema;
  bool case_sensitive = true;
  bool allow_incompatible = false;
  int32_t last_column_id = 0;
  std::unordered_map<int32_t, int32_t> added_parent;  // parents of added nested columns
  std::set<int32_t> deletes;
  std::vector<int32_t> delete_order;
  std::map<int32_t, NestedField> updates;  // also the added columns, by their new id
  std::map<int32_t, std::vector<int32_t>> added_by_parent;
  std::map<std::string, int32_t> added_by_name;
  std::map<int32_t, std::vector<Move>> moves;
  std::vector<IdentifierField> identifiers;

  State(const TableMetadata& m, const Schema& s)
      : base(m), schema(s), last_column_id(std::max(m.last_column_id, s.highest_field_id())) {
    for (int32_t id : s.identifier_field_ids()) identifiers.emplace_back(id);
  }

  std::string key(const std::string& name) const { return case_sensitive ? name : to_lower(name); }
  const NestedField* find(const std::string& name) const {
    return schema.find_field(name, case_sensitive);
  }
  bool deleted(int32_t id) const { return deletes.count(id) > 0; }
  std::optional<int32_t> parent_of(int32_t id) const {
    auto it = added_parent.find(id);
    if (it != added_parent.end()) return it->second;
    return schema.parent_id(id);
  }
  std::string full_name(int32_t id) const {
    return schema.find_column_name(id).value_or(std::to_string(id));
  }

  // An existing column with its pending update, or a column added in this update.
  const NestedField* find_for_update(const std::string& name) const {
    if (const NestedField* f = find(name)) {
      auto it = updates.find(f->id);
      return it != updates.end() ? &it->second : f;
    }
    auto added = added_by_name.find(key(name));
    if (added != added_by_name.end()) return &updates.at(added->second);
    return nullptr;
  }
  std::optional<int32_t> find_for_move(const std::string& name) const {
    auto added = added_by_name.find(key(name));
    if (added != added_by_name.end()) return added->second;
    if (const NestedField* f = find(name)) return f->id;
    return std::nullopt;
  }
};

using Op = std::function<Status(State&)>;

Status apply_add(State& s, const std::optional<std::string>& parent, const std::string& name,
                 bool required, const TypePtr& type, const std::string& doc,
                 const std::optional<Literal>& default_value) {
  if (!type) return invalid_argument("Cannot add column {} without a type", name);
  if (name.empty()) return invalid_argument("Cannot add a column with an empty name");
  int32_t parent_id = kRoot;
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
  if (parent_id != kRoot) s.added_parent[id] = parent_id;
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

Status apply_delete(State& s, const std::string& name) {
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

Status apply_rename(State& s, const std::string& name, const std::string& new_name) {
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

Status apply_promote(State& s, const std::string& name, const TypePtr& new_type) {
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

Status apply_doc(State& s, const std::string& name, const std::string& doc) {
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

Status apply_default(State& s, const std::string& name, const std::optional<Literal>& value) {
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

Status apply_requirement(State& s, const std::string& name, bool optional) {
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

Status apply_move(State& s, Move::Kind kind, const std::string& name,
                  const std::string& reference) {
  auto id = s.find_for_move(name);
  if (!id) return invalid_argument("Cannot move missing column: {}", name);
  Move move{kind, *id, 0, name, reference};
  if (kind != Move::Kind::kFirst) {
    const char* where = kind == Move::Kind::kBefore ? "before" : "after";
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
  if (kind != Move::Kind::kFirst && s.parent_of(move.reference_id) != parent) {
    return invalid_argument("Cannot move field {} to a different struct", name);
  }
  s.moves[parent.value_or(kRoot)].push_back(std::move(move));
  return Status::OK();
}

// Builds the new struct from the old one: deletes, updates, additions, then moves (additions
// first so that added columns can be moved), as Java's ApplyChanges.
class Builder {
 public:
  explicit Builder(const State& s) : s_(s) {}

  Result<std::vector<NestedField>> struct_fields(const Type& st, int32_t owner) {
    std::vector<NestedField> out;
    for (const auto& f : st.fields()) {
      if (s_.deleted(f.id)) continue;
      auto it = s_.updates.find(f.id);
      NestedField nf = it != s_.updates.end() ? it->second : f;
      nf.type = FLOE_TRY(field_type(f));
      out.push_back(std::move(nf));
    }
    if (auto it = s_.added_by_parent.find(owner); it != s_.added_by_parent.end()) {
      for (int32_t id : it->second) out.push_back(s_.updates.at(id));
    }
    if (auto it = s_.moves.find(owner); it != s_.moves.end()) {
      for (const Move& m : it->second) FLOE_TRY(move_in(out, m));
    }
    return out;
  }

 private:
  // The type of `f` with the changes below it applied.
  Result<TypePtr> field_type(const NestedField& f) {
    const Type& t = *f.type;
    if (t.is_struct()) return Type::struct_of(FLOE_TRY(struct_fields(t, f.id)));
    if (t.is_list()) {
      const NestedField& e = t.element();
      if (s_.deleted(e.id)) {
        return invalid_argument("Cannot delete element type from list: {}", t.to_string());
      }
      return Type::list_of(FLOE_TRY(inner_field(e)));
    }
    if (t.is_map()) {
      const NestedField& k = t.key();
      if (s_.deleted(k.id)) return invalid_argument("Cannot delete map keys: {}", t.to_string());
      if (s_.updates.count(k.id)) {
        return invalid_argument("Cannot update map keys: {}", t.to_string());
      }
      if (s_.added_by_parent.count(k.id)) {
        return invalid_argument("Cannot add fields to map keys: {}", t.to_string());
      }
      if (!FLOE_TRY(field_type(k))->equals(*k.type)) {
        return invalid_argument("Cannot alter map keys: {}", t.to_string());
      }
      const NestedField& v = t.value();
      if (s_.deleted(v.id)) {
        return invalid_argument("Cannot delete value type from map: {}", t.to_string());
      }
      return Type::map_of(k, FLOE_TRY(inner_field(v)));
    }
    auto it = s_.updates.find(f.id);
    return it != s_.updates.end() ? it->second.type : f.type;
  }

  // A list element or map value: only its type and optionality change (its name is fixed).
  Result<NestedField> inner_field(const NestedField& f) {
    NestedField out = f;
    out.type = FLOE_TRY(field_type(f));
    if (auto it = s_.updates.find(f.id); it != s_.updates.end()) out.required = it->second.required;
    return out;
  }

  static Status move_in(std::vector<NestedField>& fields, const Move& m) {
    auto find = [&](int32_t id) {
      return std::find_if(fields.begin(), fields.end(),
                          [id](const NestedField& f) { return f.id == id; });
    };
    auto it = find(m.field_id);
    if (it == fields.end()) {
      return invalid_argument("Cannot move column {}: it will be deleted", m.name);
    }
    NestedField moved = std::move(*it);
    fields.erase(it);
    if (m.kind == Move::Kind::kFirst) {
      fields.insert(fields.begin(), std::move(moved));
      return Status::OK();
    }
    auto ref = find(m.reference_id);
    if (ref == fields.end()) {
      return invalid_argument("Cannot move {} {} column {}: it will be deleted", m.name,
                              m.kind == Move::Kind::kBefore ? "before" : "after", m.reference_name);
    }
    if (m.kind == Move::Kind::kAfter) ++ref;
    fields.insert(ref, std::move(moved));
    return Status::OK();
  }

  const State& s_;
};

// Two fields of one struct with the same name (Java: "multiple fields for name").
Status check_unique_names(const Type& st, const std::string& prefix, bool case_sensitive) {
  std::map<std::string, int32_t> seen;
  for (const auto& f : st.fields()) {
    std::string full = prefix.empty() ? f.name : prefix + "." + f.name;
    auto [it, fresh] = seen.emplace(case_sensitive ? f.name : to_lower(f.name), f.id);
    if (!fresh) {
      return invalid_argument("Invalid schema: multiple fields for name {}: {} and {}", full,
                              it->second, f.id);
    }
  }
  for (const auto& f : st.fields()) {
    std::string full = prefix.empty() ? f.name : prefix + "." + f.name;
    if (f.type->is_nested()) FLOE_TRY(check_unique_names(*f.type, full, case_sensitive));
  }
  return Status::OK();
}

// What every field of a schema must satisfy in a table of `format_version` (Java's
// Schema.checkCompatibility), and required fields cannot be of the unknown type.
Status check_fields(const Schema& schema, const Type& st, int format_version) {
  for (const auto& f : st.fields()) {
    std::string name = schema.find_column_name(f.id).value_or(f.name);
    if (format_version < 3 && is_v3_type(f.type->id())) {
      return invalid_argument("Invalid type for {}: {} is not supported until v3", name,
                              f.type->to_string());
    }
    if (format_version < 3 && f.initial_default) {
      return invalid_argument(
          "Invalid initial default for {}: non-null default ({}) is not "
          "supported until v3",
          name, f.initial_default->to_string());
    }
    if (format_version < 3 && f.write_default) {
      return invalid_argument(
          "Invalid write default for {}: non-null default ({}) is not "
          "supported until v3",
          name, f.write_default->to_string());
    }
    if (f.required && f.type->id() == TypeId::kUnknown) {
      return invalid_argument("Cannot create required field with unknown type: {}", name);
    }
    FLOE_TRY(check_fields(schema, *f.type, format_version));
  }
  return Status::OK();
}

// Java's Schema.validateIdentifierField, with the parents taken from the new schema.
Status check_identifier(const Schema& schema, int32_t id) {
  const NestedField* f = schema.find_field(id);
  std::string name = schema.find_column_name(id).value_or(std::to_string(id));
  if (!f->type->is_primitive() || f->type->id() == TypeId::kVariant) {
    return invalid_argument(
        "Cannot add field {} as an identifier field: not a primitive type field", name);
  }
  if (!f->required) {
    return invalid_argument("Cannot add field {} as an identifier field: not a required field",
                            name);
  }
  if (f->type->id() == TypeId::kFloat || f->type->id() == TypeId::kDouble) {
    return invalid_argument(
        "Cannot add field {} as an identifier field: must not be float or double field", name);
  }
  std::vector<int32_t> parents;  // outermost first, for the clearest message
  for (auto p = schema.parent_id(id); p; p = schema.parent_id(*p))
    parents.insert(parents.begin(), *p);
  for (int32_t p : parents) {
    const NestedField* pf = schema.find_field(p);
    std::string pname = schema.find_column_name(p).value_or(pf->name);
    if (!pf->type->is_struct()) {
      return invalid_argument(
          "Cannot add field {} as an identifier field: must not be nested in {} {}", name,
          pf->type->is_list() ? "list" : "map", pname);
    }
    if (!pf->required) {
      return invalid_argument(
          "Cannot add field {} as an identifier field: must not be nested in an optional field {}",
          name, pname);
    }
  }
  return Status::OK();
}

// Deleting an identifier field, or a struct holding one, needs set_identifier_fields to leave
// it out (Java).
Status check_identifier_deletes(const State& s) {
  for (const auto& ident : s.identifiers) {
    const NestedField* f = nullptr;
    if (const auto* id = std::get_if<int32_t>(&ident)) {
      f = s.schema.find_field(*id);
    } else {
      f = s.find(std::get<std::string>(ident));
    }
    if (!f) continue;
    std::string name = s.full_name(f->id);
    if (s.deleted(f->id)) {
      return invalid_argument(
          "Cannot delete identifier field {}. To force deletion, also call "
          "set_identifier_fields to update identifier fields.",
          name);
    }
    for (auto p = s.schema.parent_id(f->id); p; p = s.schema.parent_id(*p)) {
      if (s.deleted(*p)) {
        return invalid_argument(
            "Cannot delete field {} as it will delete nested identifier field {}", s.full_name(*p),
            name);
      }
    }
  }
  return Status::OK();
}

// Specs that still have files in the head of some branch or tag: manifests of the spec with
// added or existing files, or uncounted ones (v1 lists may omit the counts).
Result<std::set<int32_t>> live_spec_ids(FileIO& io, const TableMetadata& m) {
  std::set<int64_t> heads;
  if (m.current_snapshot_id) heads.insert(*m.current_snapshot_id);
  for (const auto& [name, ref] : m.refs) heads.insert(ref.snapshot_id);
  std::set<int32_t> live;
  for (int64_t id : heads) {
    const Snapshot* snapshot = m.snapshot_by_id(id);
    if (!snapshot) continue;
    auto manifests = snapshot_manifests(io, m, *snapshot);
    if (!manifests.ok()) {
      return manifests.status().with_context("listing the files of snapshot " + std::to_string(id));
    }
    for (const auto& mf : *manifests) {
      bool counted = mf.added_files_count && mf.existing_files_count;
      if (!counted || *mf.added_files_count + *mf.existing_files_count > 0) {
        live.insert(mf.partition_spec_id);
      }
    }
  }
  return live;
}

// Columns deleted with their struct or alone must not feed the current partition spec, the
// default sort order, or an older spec that still has live files.
Status check_delete_guards(const State& s, FileIO* io) {
  if (s.deletes.empty()) return Status::OK();
  std::map<int32_t, int32_t> dropped;  // dropped id -> the deleted column that takes it
  for (int32_t id : s.delete_order) {
    dropped.emplace(id, id);
    std::set<int32_t> inner;
    nested_ids(*s.schema.find_field(id)->type, inner);
    for (int32_t i : inner) dropped.emplace(i, id);
  }
  auto describe = [&](int32_t source) {
    int32_t column = dropped.at(source);
    if (column == source) return fmt::format("Cannot drop column '{}': it is", s.full_name(column));
    return fmt::format("Cannot drop column '{}': its field '{}' is", s.full_name(column),
                       s.full_name(source));
  };
  auto sources = [](int32_t source_id, const std::vector<int32_t>& source_ids) {
    std::vector<int32_t> out = source_ids;
    if (out.empty()) out.push_back(source_id);
    return out;
  };
  const TableMetadata& m = s.base;
  std::optional<std::set<int32_t>> live;
  for (const auto& spec : m.specs) {
    const bool current = spec->spec_id() == m.default_spec_id;
    for (const auto& pf : spec->fields()) {
      for (int32_t source : sources(pf.source_id, pf.source_ids)) {
        if (!dropped.count(source)) continue;
        if (current) {
          return invalid_argument(
              "{} the source of partition field '{}' of the current partition spec",
              describe(source), pf.name);
        }
        if (!live) {
          if (!io)
            return invalid_argument("cannot check the files of partition spec {}", spec->spec_id());
          live = FLOE_TRY(live_spec_ids(*io, m));
        }
        if (live->count(spec->spec_id())) {
          return invalid_argument(
              "{} the source of partition field '{}' of partition spec {}, which still has live "
              "files (rewrite them first)",
              describe(source), pf.name, spec->spec_id());
        }
      }
    }
  }
  if (const SortOrder* order = m.sort_order()) {
    for (const auto& sf : order->fields) {
      for (int32_t source : sources(sf.source_id, sf.source_ids)) {
        if (!dropped.count(source)) continue;
        return invalid_argument("{} the source of sort field '{} {}' of the default sort order",
                                describe(source), transform_term(sf.transform, s.full_name(source)),
                                sf.direction == SortDirection::kAsc ? "ASC" : "DESC");
      }
    }
  }
  return Status::OK();
}

// Column-level properties follow renames and go with deleted columns.
void update_column_properties(std::map<std::string, std::string>& props, const Schema& old_schema,
                              const Schema& new_schema, const State& s) {
  std::set<std::string> deleted;
  std::map<std::string, std::string> renamed;
  for (int32_t id : s.delete_order) {
    deleted.insert(s.full_name(id));
    std::set<int32_t> inner;
    nested_ids(*old_schema.find_field(id)->type, inner);
    for (int32_t i : inner) deleted.insert(s.full_name(i));
  }
  std::set<int32_t> all;
  nested_ids(*old_schema.as_struct(), all);
  for (int32_t id : all) {
    auto before = old_schema.find_column_name(id);
    auto after = new_schema.find_column_name(id);
    if (before && after && *before != *after) renamed[*before] = *after;
  }
  if (deleted.empty() && renamed.empty()) return;
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : props) {
    std::string_view prefix;
    for (auto p : kColumnPropertyPrefixes) {
      if (key.starts_with(p)) prefix = p;
    }
    if (prefix.empty()) {
      out[key] = value;
      continue;
    }
    std::string column = key.substr(prefix.size());
    if (auto it = renamed.find(column); it != renamed.end()) {
      out[std::string(prefix) + it->second] = value;
    } else if (!deleted.count(column)) {
      out[key] = value;
    }
  }
  props = std::move(out);
}

// A name mapping entry for every field of `type` (Java's MappingUtil.create).
std::vector<MappedField> mapping_of(const Type& type) {
  std::vector<MappedField> out;
  for (const auto& f : type.fields()) {
    MappedField m;
    m.field_id = f.id;
    m.names = {f.name};
    m.fields = mapping_of(*f.type);
    out.push_back(std::move(m));
  }
  return out;
}

// Java's MappingUtil.update: renamed fields gain their new name, added fields get entries,
// and a name now taken by another field leaves the entry that had it.
void update_mapping(std::vector<MappedField>& fields, int32_t parent, const State& s) {
  for (auto& m : fields) {
    if (!m.field_id) continue;
    if (auto it = s.updates.find(*m.field_id); it != s.updates.end()) {
      const std::string& name = it->second.name;
      if (std::find(m.names.begin(), m.names.end(), name) == m.names.end()) m.names.push_back(name);
    }
    update_mapping(m.fields, *m.field_id, s);
  }
  std::map<std::string, int32_t> taken;
  for (const auto& m : fields) {
    if (m.field_id && s.updates.count(*m.field_id))
      taken[s.updates.at(*m.field_id).name] = *m.field_id;
  }
  std::vector<MappedField> added;
  if (auto it = s.added_by_parent.find(parent); it != s.added_by_parent.end()) {
    for (int32_t id : it->second) {
      const NestedField& f = s.updates.at(id);
      taken[f.name] = id;
      added.push_back(MappedField{id, {f.name}, mapping_of(*f.type)});
    }
  }
  for (auto& m : fields) {
    std::erase_if(m.names, [&](const std::string& n) {
      auto it = taken.find(n);
      return it != taken.end() && m.field_id != it->second;
    });
  }
  fields.insert(fields.end(), added.begin(), added.end());
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

  // The new schema on `base` (its schema id still to be chosen) and the replay state.
  Result<std::shared_ptr<Schema>> build(const TableMetadata& base, State& s) const {
    for (const auto& op : ops) FLOE_TRY(op(s));
    FLOE_TRY(check_identifier_deletes(s));
    Builder builder(s);
    std::vector<NestedField> fields = FLOE_TRY(builder.struct_fields(*s.schema.as_struct(), kRoot));
    auto probe = std::make_shared<Schema>(0, fields);
    FLOE_TRY(check_unique_names(*probe->as_struct(), "", s.case_sensitive));
    FLOE_TRY(check_fields(*probe, *probe->as_struct(), base.format_version));
    std::set<int32_t> identifier_ids;
    for (const auto& ident : s.identifiers) {
      if (const auto* id = std::get_if<int32_t>(&ident)) {
        identifier_ids.insert(*id);
        continue;
      }
      const std::string& name = std::get<std::string>(ident);
      const NestedField* f = probe->find_field(name, s.case_sensitive);
      if (!f) {
        return invalid_argument(
            "Cannot add field {} as an identifier field: not found in current schema or added "
            "columns",
            name);
      }
      identifier_ids.insert(f->id);
    }
    for (int32_t id : identifier_ids) FLOE_TRY(check_identifier(*probe, id));
    return std::make_shared<Schema>(
        0, std::move(fields), std::vector<int32_t>(identifier_ids.begin(), identifier_ids.end()));
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
    State s(base, *current);
    auto built = FLOE_TRY(build(base, s));
    FLOE_TRY(check_delete_guards(s, io.get()));

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
    update_column_properties(m.properties, *current, *schema, s);
    if (auto it = m.properties.find(kNameMappingProperty); it != m.properties.end()) {
      // A mapping that does not parse is left as it is (Java logs and goes on).
      if (auto mapping = parse_name_mapping(it->second); mapping.ok()) {
        update_mapping(*mapping, kRoot, s);
        it->second = name_mapping_to_json(*mapping);
      }
    }
    changed = true;
    return m;
  }
};

UpdateSchema::UpdateSchema(Transaction txn, bool auto_commit)
    : impl_(std::make_shared<Impl>()), txn_(std::move(txn)), auto_commit_(auto_commit) {
  impl_->io = txn_.table()->io();
}

UpdateSchema& UpdateSchema::allow_incompatible_changes() {
  impl_->ops.push_back([](State& s) {
    s.allow_incompatible = true;
    return Status::OK();
  });
  return *this;
}

UpdateSchema& UpdateSchema::case_sensitive(bool value) {
  impl_->ops.push_back([value](State& s) {
    s.case_sensitive = value;
    return Status::OK();
  });
  return *this;
}

UpdateSchema& UpdateSchema::add_column(const std::string& name, TypePtr type,
                                       const std::string& doc) {
  if (name.find('.') != std::string::npos) {
    impl_->ops.push_back([name](State&) {
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
  impl_->ops.push_back(
      [=](State& s) { return apply_add(s, parent, name, false, type, doc, default_value); });
  return *this;
}

UpdateSchema& UpdateSchema::add_required_column(const std::string& name, TypePtr type,
                                                const std::string& doc) {
  if (name.find('.') != std::string::npos) {
    impl_->ops.push_back([name](State&) {
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
      [=](State& s) { return apply_add(s, parent, name, true, type, doc, default_value); });
  return *this;
}

UpdateSchema& UpdateSchema::delete_column(const std::string& name) {
  impl_->ops.push_back([name](State& s) { return apply_delete(s, name); });
  return *this;
}

UpdateSchema& UpdateSchema::rename_column(const std::string& name, const std::string& new_name) {
  impl_->ops.push_back([name, new_name](State& s) { return apply_rename(s, name, new_name); });
  return *this;
}

UpdateSchema& UpdateSchema::update_column(const std::string& name, TypePtr new_type) {
  impl_->ops.push_back([name, new_type](State& s) { return apply_promote(s, name, new_type); });
  return *this;
}

UpdateSchema& UpdateSchema::update_column_doc(const std::string& name, const std::string& doc) {
  impl_->ops.push_back([name, doc](State& s) { return apply_doc(s, name, doc); });
  return *this;
}

UpdateSchema& UpdateSchema::update_column_default(const std::string& name,
                                                  std::optional<Literal> default_value) {
  impl_->ops.push_back(
      [name, default_value](State& s) { return apply_default(s, name, default_value); });
  return *this;
}

UpdateSchema& UpdateSchema::make_column_optional(const std::string& name) {
  impl_->ops.push_back([name](State& s) { return apply_requirement(s, name, true); });
  return *this;
}

UpdateSchema& UpdateSchema::require_column(const std::string& name) {
  impl_->ops.push_back([name](State& s) { return apply_requirement(s, name, false); });
  return *this;
}

UpdateSchema& UpdateSchema::move_first(const std::string& name) {
  impl_->ops.push_back([name](State& s) { return apply_move(s, Move::Kind::kFirst, name, ""); });
  return *this;
}

UpdateSchema& UpdateSchema::move_before(const std::string& name, const std::string& before_name) {
  impl_->ops.push_back([name, before_name](State& s) {
    return apply_move(s, Move::Kind::kBefore, name, before_name);
  });
  return *this;
}

UpdateSchema& UpdateSchema::move_after(const std::string& name, const std::string& after_name) {
  impl_->ops.push_back(
      [name, after_name](State& s) { return apply_move(s, Move::Kind::kAfter, name, after_name); });
  return *this;
}

UpdateSchema& UpdateSchema::set_identifier_fields(std::vector<std::string> names) {
  impl_->ops.push_back([names](State& s) {
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
  State s(base, *current);
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
