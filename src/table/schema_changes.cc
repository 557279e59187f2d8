// Building and checking the schema an UpdateSchema makes, and the metadata that follows it
// (update_schema_internal.h).
#include <algorithm>

#include "floe/manifest/manifest_list_reader.h"
#include "floe/spec/name_mapping.h"
#include "table/update_schema_internal.h"

namespace floe::internal {

namespace {

constexpr const char* kNameMappingProperty = "schema.name-mapping.default";
// Properties keyed by column name that follow renames and go with deleted columns (Java's
// SchemaUpdate.applyChangesToMetadata).
constexpr std::string_view kColumnPropertyPrefixes[] = {
    "write.metadata.metrics.column.",
    "write.parquet.bloom-filter-enabled.column.",
    "write.parquet.stats-enabled.column.",
};

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

// Every id nested in `type`.
void nested_ids(const Type& type, std::set<int32_t>& out) {
  for (const auto& f : type.fields()) {
    out.insert(f.id);
    nested_ids(*f.type, out);
  }
}

// Builds the new struct from the old one: deletes, updates, additions, then moves (additions
// first so that added columns can be moved), as Java's ApplyChanges.
class Builder {
 public:
  explicit Builder(const SchemaChanges& s) : s_(s) {}

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
      for (const ColumnMove& m : it->second) FLOE_TRY(move_in(out, m));
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

  static Status move_in(std::vector<NestedField>& fields, const ColumnMove& m) {
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
    if (m.kind == ColumnMove::Kind::kFirst) {
      fields.insert(fields.begin(), std::move(moved));
      return Status::OK();
    }
    auto ref = find(m.reference_id);
    if (ref == fields.end()) {
      return invalid_argument("Cannot move {} {} column {}: it will be deleted", m.name,
                              m.kind == ColumnMove::Kind::kBefore ? "before" : "after",
                              m.reference_name);
    }
    if (m.kind == ColumnMove::Kind::kAfter) ++ref;
    fields.insert(ref, std::move(moved));
    return Status::OK();
  }

  const SchemaChanges& s_;
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
Status check_identifier_deletes(const SchemaChanges& s) {
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

Status drop_guards(const SchemaChanges& s, FileIO* io) {
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
                              const Schema& new_schema, const SchemaChanges& s) {
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
void update_mapping(std::vector<MappedField>& fields, int32_t parent, const SchemaChanges& s) {
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

}  // namespace

std::string transform_term(const Transform& t, const std::string& column) {
  return t.is_identity() ? column : fmt::format("{}({})", t.to_string(), column);
}

Result<std::shared_ptr<Schema>> build_schema(const SchemaChanges& s, int format_version) {
  FLOE_TRY(check_identifier_deletes(s));
  Builder builder(s);
  std::vector<NestedField> fields =
      FLOE_TRY(builder.struct_fields(*s.schema.as_struct(), kRootParent));
  auto probe = std::make_shared<Schema>(0, fields);
  FLOE_TRY(check_unique_names(*probe->as_struct(), "", s.case_sensitive));
  FLOE_TRY(check_fields(*probe, *probe->as_struct(), format_version));
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

Status check_drop_guards(const SchemaChanges& changes, FileIO* io) {
  return drop_guards(changes, io);
}

void update_properties_for_schema(std::map<std::string, std::string>& properties,
                                  const Schema& old_schema, const Schema& new_schema,
                                  const SchemaChanges& changes) {
  update_column_properties(properties, old_schema, new_schema, changes);
  if (auto it = properties.find(kNameMappingProperty); it != properties.end()) {
    // A mapping that does not parse is left as it is (Java logs and goes on).
    if (auto mapping = parse_name_mapping(it->second); mapping.ok()) {
      update_mapping(*mapping, kRootParent, changes);
      it->second = name_mapping_to_json(*mapping);
    }
  }
}

}  // namespace floe::internal
