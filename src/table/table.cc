#include "floe/table/table.h"

#include <chrono>
#include <unordered_map>

#include "floe/spec/table_properties.h"
#include "floe/table/expire_snapshots.h"
#include "floe/util/uuid.h"

namespace floe {

namespace {

using IdMap = std::unordered_map<int32_t, int32_t>;

TypePtr assign_fresh_ids(const TypePtr& type, int32_t& last_id, IdMap& ids);

// Java's AssignFreshIds: the fields of a struct get consecutive ids before any nested field.
std::vector<NestedField> fresh_fields(const std::vector<NestedField>& fields, int32_t& last_id,
                                      IdMap& ids) {
  std::vector<NestedField> out = fields;
  for (auto& f : out) {
    ids[f.id] = ++last_id;
    f.id = last_id;
  }
  for (auto& f : out) f.type = assign_fresh_ids(f.type, last_id, ids);
  return out;
}

TypePtr assign_fresh_ids(const TypePtr& type, int32_t& last_id, IdMap& ids) {
  if (type->is_struct()) return Type::struct_of(fresh_fields(type->fields(), last_id, ids));
  if (type->is_list()) {
    auto element = fresh_fields({type->element()}, last_id, ids);
    return Type::list_of(element[0]);
  }
  if (type->is_map()) {
    auto kv = fresh_fields({type->key(), type->value()}, last_id, ids);
    return Type::map_of(kv[0], kv[1]);
  }
  return type;
}

Result<int32_t> fresh_source(const IdMap& ids, int32_t old_id, std::string_view what) {
  auto it = ids.find(old_id);
  if (it == ids.end())
    return invalid_argument("{} source column id {} is not in the schema", what, old_id);
  return it->second;
}

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Result<TableMetadata> new_table_metadata(const Schema& schema, const PartitionSpec* spec,
                                         const SortOrder* sort_order, std::string location,
                                         std::map<std::string, std::string> properties,
                                         int format_version) {
  auto fv = properties.find(std::string(table_properties::kFormatVersion));
  if (format_version == 0) {
    format_version = 2;
    if (fv != properties.end()) {
      try {
        format_version = std::stoi(fv->second);
      } catch (...) {
        return invalid_argument("invalid format-version property '{}'", fv->second);
      }
    }
  }
  if (fv != properties.end()) properties.erase(fv);
  if (format_version < 1 || format_version > kMaxFormatVersion) {
    return invalid_argument("unsupported format version {}", format_version);
  }
  TableMetadata m;
  m.format_version = format_version;
  m.table_uuid = random_uuid();
  m.location = std::move(location);
  m.last_updated_ms = now_ms();

  int32_t last_id = 0;
  IdMap ids;
  auto fields = fresh_fields(schema.fields(), last_id, ids);
  std::vector<int32_t> identifiers;
  for (int32_t id : schema.identifier_field_ids()) {
    identifiers.push_back(FLOE_TRY(fresh_source(ids, id, "identifier field")));
  }
  auto fresh_schema = std::make_shared<const Schema>(0, std::move(fields), identifiers);
  FLOE_TRY(fresh_schema->validate());
  m.schemas = {fresh_schema};
  m.current_schema_id = 0;
  m.last_column_id = last_id;

  std::vector<PartitionField> partition_fields;
  int32_t next_partition_id = kPartitionDataIdStart;
  if (spec) {
    for (const auto& f : spec->fields()) {
      PartitionField pf = f;
      pf.source_id = FLOE_TRY(fresh_source(ids, f.source_id, "partition field " + f.name));
      for (auto& s : pf.source_ids) s = FLOE_TRY(fresh_source(ids, s, "partition field"));
      pf.field_id = next_partition_id++;
      partition_fields.push_back(std::move(pf));
    }
  }
  auto fresh_spec = std::make_shared<const PartitionSpec>(0, std::move(partition_fields));
  FLOE_TRY(fresh_spec->validate(*fresh_schema));
  m.specs = {fresh_spec};
  m.default_spec_id = 0;
  m.last_partition_id = fresh_spec->last_assigned_field_id();

  auto order = std::make_shared<SortOrder>();
  if (sort_order && !sort_order->is_unsorted()) {
    order->order_id = 1;
    for (const auto& f : sort_order->fields) {
      SortField sf = f;
      sf.source_id = FLOE_TRY(fresh_source(ids, f.source_id, "sort field"));
      for (auto& s : sf.source_ids) s = FLOE_TRY(fresh_source(ids, s, "sort field"));
      order->fields.push_back(std::move(sf));
    }
  }
  m.sort_orders = {order};
  m.default_sort_order_id = order->order_id;

  // Tables created by Java >= 1.4 record zstd explicitly so later default changes keep them.
  properties.try_emplace(std::string(table_properties::kParquetCompression),
                         table_properties::kParquetCompressionDefault);
  m.properties = std::move(properties);
  if (format_version >= 3) m.next_row_id = 0;
  FLOE_TRY(m.validate());
  return m;
}

Table::Table(CatalogPtr catalog, TableIdentifier id, LoadedMetadata loaded)
    : catalog_(std::move(catalog)),
      id_(std::move(id)),
      io_(catalog_->io()),
      metadata_(std::move(loaded.metadata)),
      metadata_location_(std::move(loaded.location)) {}

Result<std::shared_ptr<Table>> Table::load(CatalogPtr catalog, TableIdentifier id) {
  auto loaded = FLOE_TRY(catalog->load_metadata(id));
  return std::make_shared<Table>(std::move(catalog), std::move(id), std::move(loaded));
}

Result<std::shared_ptr<Table>> Table::create(CatalogPtr catalog, TableIdentifier id,
                                             SchemaPtr schema, PartitionSpecPtr spec,
                                             SortOrderPtr sort_order,
                                             std::map<std::string, std::string> properties,
                                             std::string location, int format_version) {
  if (!schema) return invalid_argument("creating table '{}': no schema", id.to_string());
  if (location.empty()) location = catalog->default_table_location(id);
  auto metadata =
      FLOE_TRY_CTX(new_table_metadata(*schema, spec.get(), sort_order.get(), std::move(location),
                                      std::move(properties), format_version),
                   fmt::format("creating table '{}'", id.to_string()));
  auto metadata_location = FLOE_TRY(catalog->create_table(id, metadata));
  LoadedMetadata loaded{metadata_location,
                        std::make_shared<const TableMetadata>(std::move(metadata))};
  return std::make_shared<Table>(std::move(catalog), std::move(id), std::move(loaded));
}

std::shared_ptr<const TableMetadata> Table::metadata() const {
  std::lock_guard lock(mu_);
  return metadata_;
}

std::string Table::metadata_location() const {
  std::lock_guard lock(mu_);
  return metadata_location_;
}

void Table::set_current(std::shared_ptr<const TableMetadata> metadata, std::string location) {
  std::lock_guard lock(mu_);
  metadata_ = std::move(metadata);
  metadata_location_ = std::move(location);
}

Status Table::refresh() {
  auto loaded = FLOE_TRY(catalog_->load_metadata(id_));
  set_current(std::move(loaded.metadata), std::move(loaded.location));
  return Status::OK();
}

Result<TableScan> Table::new_scan(ScanOptions options) const {
  return TableScan::make(io_, metadata(), std::move(options));
}

Transaction Table::new_transaction() { return Transaction(shared_from_this()); }

AppendFiles Table::new_append() { return AppendFiles(true, new_transaction(), true); }
AppendFiles Table::new_fast_append() { return AppendFiles(false, new_transaction(), true); }
OverwriteFiles Table::new_overwrite() { return OverwriteFiles(new_transaction(), true); }
DeleteFiles Table::new_delete() { return DeleteFiles(new_transaction(), true); }
ReplacePartitions Table::new_replace_partitions() {
  return ReplacePartitions(new_transaction(), true);
}
RowDelta Table::new_row_delta() { return RowDelta(new_transaction(), true); }
RewriteFiles Table::new_rewrite() { return RewriteFiles(new_transaction(), true); }
UpdateProperties Table::update_properties() { return UpdateProperties(new_transaction(), true); }
UpdateSchema Table::update_schema() { return UpdateSchema(new_transaction(), true); }
ManageSnapshots Table::manage_snapshots() { return ManageSnapshots(new_transaction(), true); }
ExpireSnapshots Table::expire_snapshots() { return ExpireSnapshots(shared_from_this()); }

}  // namespace floe
