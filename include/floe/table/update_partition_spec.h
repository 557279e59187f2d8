// Partition evolution (spec "Partition Evolution"; Java's BaseUpdatePartitionSpec): fields added,
// removed and renamed on the table's default spec, as one metadata change that writes no
// snapshot and touches no data file. Old files keep their specs; planning projects filters per
// spec; new writes use the new default spec.
//
// Field ids never change meaning. A new field takes `last-partition-id + 1`; on v2+ a field
// equivalent to one in any earlier spec of the table (same source column, same transform, and
// the same name when one is given) is that field again, id and name ("Partition field IDs must
// be reused if an existing partition spec contains an equivalent field"). A resulting spec equal
// to an existing one (same sources, transforms and names) is that spec, not a copy. On v1 a
// removed field stays in place as a `void` transform (v1 readers match fields by position).
// Names: Java's evolution defaults (id, id_bucket_16, name_trunc_4, ts_year/_month/_day/_hour);
// a void field in the way of a new name is renamed to `<name>_<field id>`.
//
// Errors, as Java's: adding a field the spec has (or adding one twice), two time transforms of
// one column added together (`hours(ts)` with `days(ts)`), removing or renaming a field the
// spec does not have, removing or renaming a field added in the same update, renaming and
// removing one field, a transform the column's type does not take, a spec with an unknown
// transform.
//
//   FLOE_TRY(table->update_spec().add_field("event_ts", Transform::hour())
//                .remove_field("event_ts_day").commit());
#pragma once

#include <memory>
#include <string>

#include "floe/spec/transform.h"
#include "floe/table/transaction.h"

namespace floe {

class UpdatePartitionSpec {
 public:
  UpdatePartitionSpec(Transaction txn, bool auto_commit);
  // A field on column `source` (dotted for nested fields; case-insensitive unless
  // case_sensitive(true)); `name` empty: the recycled field's name or the default.
  UpdatePartitionSpec& add_field(const std::string& source, Transform transform,
                                 const std::string& name = "");
  // By partition field name, or by source column and transform.
  UpdatePartitionSpec& remove_field(const std::string& name);
  UpdatePartitionSpec& remove_field(const std::string& source, Transform transform);
  UpdatePartitionSpec& rename_field(const std::string& name, const std::string& new_name);
  UpdatePartitionSpec& case_sensitive(bool value);
  // Adds the new spec without making it the default (Java addNonDefaultSpec).
  UpdatePartitionSpec& add_non_default_spec();
  Status commit();

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
  Transaction txn_;
  bool auto_commit_;
};

}  // namespace floe
