// Table metadata changes as the Iceberg REST catalog protocol carries them (the OpenAPI spec's
// TableUpdate and TableRequirement): a commit is a list of requirements the table's current
// metadata must meet and a list of updates applied to it in order.
//
// A client derives both from the metadata it based its change on and the metadata it wants
// (diff_metadata, requirements_for_update); a server checks the requirements against the
// table's current metadata (check_requirements) and applies the updates to it
// (apply_metadata_updates), so two writers changing different things both land, and a writer
// whose base went stale gets kCommitConflict (the protocol's 409) and retries.
//
// JSON uses the spec's discriminators: an update's "action" ("add-snapshot", ...) and a
// requirement's "type" ("assert-ref-snapshot-id", ...). Parsing rejects unknown actions and
// fields of the wrong type with an error naming the action and field.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "floe/spec/table_metadata.h"
#include "floe/util/result.h"

namespace floe {

// --- Updates ("action") ---
namespace metadata_update {

struct AssignUuid {  // assign-uuid
  std::string uuid;
};
struct UpgradeFormatVersion {  // upgrade-format-version
  int format_version = 2;
};
struct AddSchema {  // add-schema; last-column-id is deprecated but still read and written
  SchemaPtr schema;
  std::optional<int32_t> last_column_id;
};
struct SetCurrentSchema {  // set-current-schema; -1 = the schema added last in this list
  int32_t schema_id = -1;
};
struct AddPartitionSpec {  // add-spec
  PartitionSpecPtr spec;
};
struct SetDefaultSpec {  // set-default-spec; -1 = the spec added last in this list
  int32_t spec_id = -1;
};
struct AddSortOrder {  // add-sort-order
  SortOrderPtr sort_order;
};
struct SetDefaultSortOrder {  // set-default-sort-order; -1 = the order added last
  int32_t sort_order_id = -1;
};
struct AddSnapshot {  // add-snapshot
  SnapshotPtr snapshot;
};
struct SetSnapshotRef {  // set-snapshot-ref ("ref-name" plus the ref's own fields)
  std::string ref_name;
  SnapshotRef ref;
};
struct RemoveSnapshots {  // remove-snapshots
  std::vector<int64_t> snapshot_ids;
};
struct RemoveSnapshotRef {  // remove-snapshot-ref
  std::string ref_name;
};
struct SetLocation {  // set-location
  std::string location;
};
struct SetProperties {  // set-properties
  std::map<std::string, std::string> updates;
};
struct RemoveProperties {  // remove-properties
  std::vector<std::string> removals;
};
struct SetStatistics {  // set-statistics
  StatisticsFile statistics;
};
struct RemoveStatistics {  // remove-statistics
  int64_t snapshot_id = 0;
};
struct SetPartitionStatistics {  // set-partition-statistics
  PartitionStatisticsFile partition_statistics;
};
struct RemovePartitionStatistics {  // remove-partition-statistics
  int64_t snapshot_id = 0;
};
struct RemovePartitionSpecs {  // remove-partition-specs
  std::vector<int32_t> spec_ids;
};
struct RemoveSchemas {  // remove-schemas
  std::vector<int32_t> schema_ids;
};
struct AddEncryptionKey {  // add-encryption-key
  EncryptedKey encryption_key;
};
struct RemoveEncryptionKey {  // remove-encryption-key
  std::string key_id;
};

}  // namespace metadata_update

using MetadataUpdate =
    std::variant<metadata_update::AssignUuid, metadata_update::UpgradeFormatVersion,
                 metadata_update::AddSchema, metadata_update::SetCurrentSchema,
                 metadata_update::AddPartitionSpec, metadata_update::SetDefaultSpec,
                 metadata_update::AddSortOrder, metadata_update::SetDefaultSortOrder,
                 metadata_update::AddSnapshot, metadata_update::SetSnapshotRef,
                 metadata_update::RemoveSnapshots, metadata_update::RemoveSnapshotRef,
                 metadata_update::SetLocation, metadata_update::SetProperties,
                 metadata_update::RemoveProperties, metadata_update::SetStatistics,
                 metadata_update::RemoveStatistics, metadata_update::SetPartitionStatistics,
                 metadata_update::RemovePartitionStatistics, metadata_update::RemovePartitionSpecs,
                 metadata_update::RemoveSchemas, metadata_update::AddEncryptionKey,
                 metadata_update::RemoveEncryptionKey>;

// The update's "action" ("add-snapshot", ...).
std::string_view metadata_update_action(const MetadataUpdate& update);

// --- Requirements ("type") ---
namespace table_requirement {

struct AssertCreate {};   // assert-create: the table must not exist
struct AssertTableUuid {  // assert-table-uuid
  std::string uuid;
};
struct AssertRefSnapshotId {  // assert-ref-snapshot-id; nullopt = the ref must not exist
  std::string ref;
  std::optional<int64_t> snapshot_id;
};
struct AssertLastAssignedFieldId {  // assert-last-assigned-field-id
  int32_t last_assigned_field_id = 0;
};
struct AssertCurrentSchemaId {  // assert-current-schema-id
  int32_t current_schema_id = 0;
};
struct AssertLastAssignedPartitionId {  // assert-last-assigned-partition-id
  int32_t last_assigned_partition_id = 0;
};
struct AssertDefaultSpecId {  // assert-default-spec-id
  int32_t default_spec_id = 0;
};
struct AssertDefaultSortOrderId {  // assert-default-sort-order-id
  int32_t default_sort_order_id = 0;
};

}  // namespace table_requirement

using TableRequirement = std::variant<
    table_requirement::AssertCreate, table_requirement::AssertTableUuid,
    table_requirement::AssertRefSnapshotId, table_requirement::AssertLastAssignedFieldId,
    table_requirement::AssertCurrentSchemaId, table_requirement::AssertLastAssignedPartitionId,
    table_requirement::AssertDefaultSpecId, table_requirement::AssertDefaultSortOrderId>;

// The requirement's "type" ("assert-create", ...).
std::string_view table_requirement_type(const TableRequirement& requirement);

// --- JSON --- (written with keys in the spec's order, "action" / "type" first)
nlohmann::ordered_json metadata_update_to_json(const MetadataUpdate& update);
// kInvalidArgument naming the action and the field at fault.
Result<MetadataUpdate> parse_metadata_update(const nlohmann::json& json);
nlohmann::ordered_json table_requirement_to_json(const TableRequirement& requirement);
Result<TableRequirement> parse_table_requirement(const nlohmann::json& json);
// A JSON array of updates / requirements; errors name the element's index.
Result<std::vector<MetadataUpdate>> parse_metadata_updates(const nlohmann::json& json);
Result<std::vector<TableRequirement>> parse_table_requirements(const nlohmann::json& json);
nlohmann::ordered_json metadata_updates_to_json(const std::vector<MetadataUpdate>& updates);
nlohmann::ordered_json table_requirements_to_json(
    const std::vector<TableRequirement>& requirements);
// Table metadata embedded in a larger document (the REST protocol's LoadTableResult), parsed
// as parse_table_metadata parses a file.
Result<TableMetadata> table_metadata_from_json(const nlohmann::json& json);

// --- Server side ---
// Checks each requirement against the table's current metadata (`current` null when the table
// does not exist). kCommitConflict naming the first requirement that fails and what the table
// has instead (the protocol's 409 CommitFailedException).
Status check_requirements(const std::vector<TableRequirement>& requirements,
                          const TableMetadata* current);

// Applies `updates` to `base` in order, as Java's TableMetadata.Builder does: ids checked (a
// snapshot's parent and sequence number, a ref's snapshot, a schema's / spec's / order's id
// unique), last-column-id / last-partition-id / last-sequence-number / next-row-id advanced,
// the snapshot log extended when main moves, statistics of removed snapshots dropped.
// kInvalidArgument naming the update at fault (the protocol's 400); the result passes
// TableMetadata::validate(). The metadata log and last-updated-ms are left to
// finish_commit_metadata.
Result<TableMetadata> apply_metadata_updates(const TableMetadata& base,
                                             const std::vector<MetadataUpdate>& updates);
// A new table from a create commit's updates (assign-uuid, upgrade-format-version, add-schema,
// set-current-schema, add-spec, ..., set-location, set-properties, and snapshots): applied to
// empty metadata. kInvalidArgument when the result lacks a schema, spec, order or location.
Result<TableMetadata> metadata_from_updates(const std::vector<MetadataUpdate>& updates);

// The next metadata file's bookkeeping: a metadata log entry for `base_location` (trimmed to
// write.metadata.previous-versions-max) and last-updated-ms (at least `now_ms`, after the
// base's and every snapshot's timestamp). Used by every commit, local or through a REST server.
TableMetadata finish_commit_metadata(TableMetadata next, const TableMetadata& base,
                                     std::string_view base_location, int64_t now_ms);

// --- Client side ---
// The updates that turn `base` into `next` (what a client sends): format version, schemas,
// specs, sort orders (added, removed, default), snapshots added and removed, refs set and
// removed, location, properties, statistics and encryption keys. The metadata log, the
// snapshot log and last-updated-ms are the server's to keep and are not compared.
// apply_metadata_updates(base, diff_metadata(base, next)) equals `next` in everything else.
std::vector<MetadataUpdate> diff_metadata(const TableMetadata& base, const TableMetadata& next);
// The updates that create `metadata` as a new table (assign-uuid first).
std::vector<MetadataUpdate> updates_for_new_table(const TableMetadata& metadata);

// The requirements a client sends with `updates` based on `base`, as Java's
// UpdateRequirements.forUpdateTable: assert-table-uuid always; assert-last-assigned-field-id
// with add-schema, assert-current-schema-id with set-current-schema,
// assert-last-assigned-partition-id with add-spec, assert-default-spec-id with
// set-default-spec, assert-default-sort-order-id with set-default-sort-order, and
// assert-ref-snapshot-id (the base's head, or "absent") for every ref set or removed;
// remove-partition-specs / remove-schemas also assert the default spec / current schema and
// every branch head. Each requirement once.
std::vector<TableRequirement> requirements_for_update(const TableMetadata& base,
                                                      const std::vector<MetadataUpdate>& updates);

}  // namespace floe
