// Replacing a table in place (floe/table/replace_table.h; Java's TableMetadata.buildReplacement).
#include "floe/table/replace_table.h"

#include <fmt/format.h>

#include <map>

#include "floe/spec/table_properties.h"
#include "floe/table/table.h"
#include "table/table_internal.h"

namespace floe {

namespace {

// Full names of every field of a type ("a.b", "l.element", "m.key", "m.value") -> id.
void index_names(const std::vector<NestedField>& fields, const std::string& prefix,
                 std::map<std::string, int32_t>* out);
void index_type(const TypePtr& type, const std::string& path, std::map<std::string, int32_t>* out) {
  if (type->is_struct()) {
    index_names(type->fields(), path + ".", out);
  } else if (type->is_list()) {
    (*out)[path + ".element"] = type->element().id;
    index_type(type->element().type, path + ".element", out);
  } else if (type->is_map()) {
    (*out)[path + ".key"] = type->key().id;
    (*out)[path + ".value"] = type->value().id;
    index_type(type->key().type, path + ".key", out);
    index_type(type->value().type, path + ".value", out);
  }
}
void index_names(const std::vector<NestedField>& fields, const std::string& prefix,
                 std::map<std::string, int32_t>* out) {
  for (const auto& f : fields) {
    (*out)[prefix + f.name] = f.id;
    index_type(f.type, prefix + f.name, out);
  }
}

// Java's TypeUtil.assignFreshIds(schema, baseSchema, nextId): a field keeps the id of the base
// field of the same full name, else takes the next id; a struct's fields first, then each
// one's nested types.
class Reassign {
 public:
  Reassign(const Schema& base, int32_t last_id) : last_id_(last_id) {
    index_names(base.fields(), "", &base_ids_);
  }
  std::vector<NestedField> fields(const std::vector<NestedField>& in, const std::string& prefix) {
    std::vector<NestedField> out = in;
    for (auto& f : out) {
      old_to_new_[f.id] = id_for(prefix + f.name);
      f.id = old_to_new_[f.id];
    }
    for (auto& f : out) f.type = type(f.type, prefix + f.name);
    return out;
  }
  int32_t last_id() const { return last_id_; }
  // The new id of a field of the statement's schema.
  std::optional<int32_t> new_id(int32_t old_id) const {
    auto it = old_to_new_.find(old_id);
    return it == old_to_new_.end() ? std::nullopt : std::optional<int32_t>(it->second);
  }

 private:
  int32_t id_for(const std::string& name) {
    auto it = base_ids_.find(name);
    return it != base_ids_.end() ? it->second : ++last_id_;
  }
  TypePtr type(const TypePtr& t, const std::string& path) {
    if (t->is_struct()) return Type::struct_of(fields(t->fields(), path + "."));
    if (t->is_list()) {
      NestedField e = t->element();
      old_to_new_[e.id] = id_for(path + ".element");
      e.id = old_to_new_[e.id];
      e.type = type(e.type, path + ".element");
      return Type::list_of(std::move(e));
    }
    if (t->is_map()) {
      NestedField k = t->key(), v = t->value();
      old_to_new_[k.id] = id_for(path + ".key");
      old_to_new_[v.id] = id_for(path + ".value");
      k.id = old_to_new_[k.id];
      v.id = old_to_new_[v.id];
      k.type = type(k.type, path + ".key");
      v.type = type(v.type, path + ".value");
      return Type::map_of(std::move(k), std::move(v));
    }
    return t;
  }

  std::map<std::string, int32_t> base_ids_;
  std::map<int32_t, int32_t> old_to_new_;
  int32_t last_id_;
};

struct ReplaceUpdate : PendingUpdate {
  TableReplacement r;

  Result<TableMetadata> apply(const TableMetadata& base) override {
    if (!r.schema) return invalid_argument("a table replacement needs a schema");
    const Schema* current = base.schema();
    if (!current) return invalid_argument("the table has no current schema");
    TableMetadata m = base;
    // Format version first: it decides how partition field ids are assigned.
    auto fv = r.properties.find(std::string(table_properties::kFormatVersion));
    if (fv != r.properties.end()) FLOE_TRY(internal::upgrade_format_version(m, fv->second));
    // The schema, ids reused by name.
    Reassign ids(*current, base.last_column_id);
    std::vector<int32_t> identifier;
    std::vector<NestedField> fields = ids.fields(r.schema->fields(), "");
    for (int32_t id : r.schema->identifier_field_ids()) {
      if (auto n = ids.new_id(id)) identifier.push_back(*n);
    }
    int32_t schema_id = -1, next_schema_id = 0;
    Schema candidate(0, fields, identifier);
    for (const auto& s : m.schemas) {
      if (schema_id < 0 && s->same_schema(candidate)) schema_id = s->schema_id();
      next_schema_id = std::max(next_schema_id, s->schema_id() + 1);
    }
    if (schema_id < 0) {
      schema_id = next_schema_id;
      auto schema = std::make_shared<const Schema>(schema_id, fields, identifier);
      FLOE_TRY(schema->validate());
      m.schemas.push_back(schema);
    }
    m.current_schema_id = schema_id;
    m.last_column_id = std::max(base.last_column_id, ids.last_id());
    const Schema& schema = *m.schema();
    // The spec: sources by their new ids; field ids of equivalent fields reused (v2+).
    std::vector<PartitionField> spec_fields;
    int32_t last_partition_id = base.last_partition_id;
    int32_t v1_next = kPartitionDataIdStart;
    if (r.spec) {
      for (const auto& f : r.spec->fields()) {
        PartitionField g = f;
        auto source = ids.new_id(f.source_id);
        if (!source) {
          return invalid_argument("partition field {} has no source column in the new schema",
                                  f.name);
        }
        g.source_id = *source;
        g.field_id = 0;
        if (m.format_version >= 2) {
          for (const auto& spec : base.specs) {
            for (const auto& old : spec->fields()) {
              if (old.source_id == g.source_id &&
                  old.transform.to_string() == g.transform.to_string()) {
                g.field_id = std::max(g.field_id, old.field_id);
              }
            }
          }
          if (g.field_id == 0) g.field_id = ++last_partition_id;
        } else {
          g.field_id = v1_next++;
        }
        spec_fields.push_back(std::move(g));
      }
    }
    int32_t spec_id = -1, next_spec_id = 0;
    for (const auto& spec : m.specs) {
      if (spec_id < 0 && spec->fields() == spec_fields) spec_id = spec->spec_id();
      next_spec_id = std::max(next_spec_id, spec->spec_id() + 1);
    }
    if (spec_id < 0) {
      auto spec = std::make_shared<const PartitionSpec>(next_spec_id, spec_fields);
      FLOE_TRY(spec->validate(schema));
      m.specs.push_back(spec);
      spec_id = next_spec_id;
    }
    m.default_spec_id = spec_id;
    m.last_partition_id = std::max(last_partition_id, m.spec()->last_assigned_field_id());
    // Unsorted, as a replacement without an order is (order 0 is always the unsorted one).
    m.default_sort_order_id = 0;
    bool has_unsorted = false;
    for (const auto& o : m.sort_orders) has_unsorted |= o->order_id == 0;
    if (!has_unsorted) m.sort_orders.push_back(std::make_shared<const SortOrder>());
    for (const auto& [k, v] : r.properties) {
      if (k != table_properties::kFormatVersion) m.properties[k] = v;
    }
    if (!r.location.empty()) m.location = r.location;
    // Main is cleared; every snapshot and every other ref stays.
    m.refs.erase(kMainBranch);
    m.current_snapshot_id.reset();
    return m;
  }
};

}  // namespace

Status replace_table(Transaction& txn, TableReplacement replacement) {
  auto update = std::make_shared<ReplaceUpdate>();
  update->r = std::move(replacement);
  return txn.stage(update);
}

}  // namespace floe
