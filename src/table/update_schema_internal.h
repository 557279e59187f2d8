// The pending changes of an UpdateSchema (include/floe/table/update_schema.h), as Java's
// SchemaUpdate tracks them: deletes, per-field updates (renames, promotions, docs,
// optionality, defaults, and the added columns), additions and moves by parent, identifier
// fields. update_schema.cc records them from the operations; schema_changes.cc builds the
// new schema from them, checks it, and carries the changes into the table metadata.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "floe/io/file_io.h"
#include "floe/spec/table_metadata.h"
#include "floe/util/strings.h"

namespace floe::internal {

constexpr int32_t kRootParent = -1;  // the parent id of top-level columns

struct ColumnMove {
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

// The changes of one apply, replayed from the recorded operations on the current schema.
struct SchemaChanges {
  const TableMetadata& base;
  const Schema& schema;  // the current schema: every name resolves here
  bool case_sensitive = true;
  bool allow_incompatible = false;
  int32_t last_column_id = 0;                         // the last id assigned so far
  std::unordered_map<int32_t, int32_t> added_parent;  // parents of added nested columns
  std::set<int32_t> deletes;
  std::vector<int32_t> delete_order;       // the deletes as called
  std::map<int32_t, NestedField> updates;  // changed fields, and the added ones by new id
  std::map<int32_t, std::vector<int32_t>> added_by_parent;  // kRootParent: top level
  std::map<std::string, int32_t> added_by_name;      // full names (lower case when insensitive)
  std::map<int32_t, std::vector<ColumnMove>> moves;  // by parent, in call order
  std::vector<IdentifierField> identifiers;

  SchemaChanges(const TableMetadata& m, const Schema& s)
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

// "bucket[16](x)", or "x" for identity.
std::string transform_term(const Transform& t, const std::string& column);

// The new schema (schema id 0: the caller chooses one) with its identifier fields, checked:
// no conflicting deletes of identifier fields, unique names in every struct, v3 types and
// defaults only in v3 tables, identifier fields by Java's rules.
Result<std::shared_ptr<Schema>> build_schema(const SchemaChanges& changes, int format_version);

// Deleted columns (alone or with their struct) must not feed the current partition spec, the
// default sort order, or an older spec that still has live files (read through `io`).
Status check_drop_guards(const SchemaChanges& changes, FileIO* io);

// Column-level properties (metrics modes, Parquet bloom filters and statistics) follow renames
// and go with deleted columns; `schema.name-mapping.default` gains new names and columns.
void update_properties_for_schema(std::map<std::string, std::string>& properties,
                                  const Schema& old_schema, const Schema& new_schema,
                                  const SchemaChanges& changes);

}  // namespace floe::internal
