// Schema evolution (spec "Schema Evolution"; Java's SchemaUpdate): columns added, deleted,
// renamed, promoted, documented, made optional or required, reordered, and the identifier
// fields set, as one change that commits a new current schema and no snapshot.
//
//   FLOE_TRY(table->update_schema()
//                .add_column("region", Type::string(), "sales region")
//                .rename_column("amt", "amount")
//                .update_column("amount", Type::int64())  // int -> long
//                .move_after("region", "id")
//                .commit());
//
// Operations name columns by their dotted name in the current schema ("point.x"; list
// elements and map values may be spelled "tags.element" / "props.value" or left out), or by
// the full name of a column added earlier in the same update (to change or move it). They
// are recorded as called and replayed by every apply, so errors (a missing column,
// conflicting changes such as renaming a column that is also deleted, a refused promotion)
// surface when the update is applied or committed, with Java's rules and messages:
// - New columns, and every field nested in their types, get fresh ids from the table's
//   `last-column-id` + 1, in order. A column named like an existing one is an error unless
//   that one is deleted in the same update. Nested columns go into a struct, or into the
//   struct element of a list or value of a map named as the parent.
// - A required column needs a default value (v3) or allow_incompatible_changes(); so does
//   making an optional column required. Defaults are v3 only and set both `initial-default`
//   (what rows written before the column read) and `write-default`.
// - Type changes are the spec's promotions only: int -> long, float -> double,
//   decimal(P, S) -> decimal(P', S) with P' >= P, and in v3 date -> timestamp or
//   timestamp_ns (only while every partition field of every spec over the column is a year,
//   month, day or void transform: identity and bucket values would change) and unknown ->
//   any primitive type.
// - Identifier fields must be required primitive columns that are not float or double, not
//   inside a list or map, with every enclosing struct required. Deleting one is an error
//   unless set_identifier_fields leaves it out in the same update.
// - Renames keep field ids, so partition specs, sort orders and equality deletes keep
//   working; column-level properties (metrics mode, Parquet bloom filters and statistics)
//   follow renames and go with deleted columns, and a `schema.name-mapping.default` mapping
//   gains added columns and new names, as Java updates them.
// Guards floe adds to Java's rules (Java leaves such tables unreadable): a column cannot be
// deleted, with its struct or alone, while
// - a field of the current partition spec or of the default sort order uses it, or
// - a field of an older partition spec uses it and that spec still has files: a manifest of
//   that spec with added or existing files (or uncounted ones) in the manifest list of the
//   head of any branch or tag. Snapshots that are no ref's head are read with the schema
//   they were written with, so they do not hold a drop back.
// The new schema takes the id of an identical schema the table already has (Java reuses it),
// else the highest schema id + 1; it becomes current and `last-column-id` grows to cover the
// new ids. An update that changes nothing commits nothing. When a concurrent commit changes
// the current schema (or `last-column-id`) before this update lands, the commit fails with
// kCommitConflict instead of re-resolving the names on another schema; other concurrent
// commits are retried as usual.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "floe/spec/literal.h"
#include "floe/spec/schema.h"
#include "floe/table/transaction.h"

namespace floe {

class UpdateSchema {
 public:
  UpdateSchema(Transaction txn, bool auto_commit);

  // Allows adding required columns without a default and making optional columns required
  // (existing rows may then break the requirement).
  UpdateSchema& allow_incompatible_changes();
  // Whether the names given to later operations, and identifier field names, match the
  // schema's case exactly (default true).
  UpdateSchema& case_sensitive(bool value);

  // A top-level optional column; `name` must not contain '.' (use the parent form).
  UpdateSchema& add_column(const std::string& name, TypePtr type, const std::string& doc = "");
  // An optional column in `parent` (nullopt: top level), with an optional v3 default.
  UpdateSchema& add_column(std::optional<std::string> parent, const std::string& name, TypePtr type,
                           const std::string& doc = "",
                           std::optional<Literal> default_value = std::nullopt);
  UpdateSchema& add_required_column(const std::string& name, TypePtr type,
                                    const std::string& doc = "");
  UpdateSchema& add_required_column(std::optional<std::string> parent, const std::string& name,
                                    TypePtr type, const std::string& doc = "",
                                    std::optional<Literal> default_value = std::nullopt);

  UpdateSchema& delete_column(const std::string& name);
  // Keeps the column's id; `new_name` is the new last segment.
  UpdateSchema& rename_column(const std::string& name, const std::string& new_name);
  // Promotes a primitive column to `new_type` (see above); the same type is a no-op.
  UpdateSchema& update_column(const std::string& name, TypePtr new_type);
  UpdateSchema& update_column_doc(const std::string& name, const std::string& doc);
  // The v3 `write-default` (nullopt removes it); `initial-default` never changes.
  UpdateSchema& update_column_default(const std::string& name,
                                      std::optional<Literal> default_value);
  UpdateSchema& make_column_optional(const std::string& name);
  UpdateSchema& require_column(const std::string& name);

  // Reorders a column (existing or added in this update) within its struct.
  UpdateSchema& move_first(const std::string& name);
  UpdateSchema& move_before(const std::string& name, const std::string& before_name);
  UpdateSchema& move_after(const std::string& name, const std::string& after_name);

  // Replaces the identifier fields (names resolve in the new schema); empty drops them all.
  UpdateSchema& set_identifier_fields(std::vector<std::string> names);

  // The schema this update would make current on the transaction's pending metadata, before
  // commit (nothing is staged); its schema id is not chosen yet (0).
  Result<SchemaPtr> apply() const;
  // Stages into the transaction (and commits it for one-shot handles). Once only.
  Status commit();

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
  Transaction txn_;
  bool auto_commit_;
};

}  // namespace floe
