// Table: a catalog table's current metadata, with reads (new_scan) and writes (transactions
// and one-shot updates). A Table caches the metadata it last loaded or committed; refresh()
// reloads it. Thread-safe: several threads may commit through one Table (each commit
// retries against the catalog's latest metadata).
//
//   auto table = FLOE_TRY(Table::load(catalog, {{"db"}, "events"}));
//   FLOE_TRY(table->new_append().append_file(file).commit());       // commits at once
//   auto txn = table->new_transaction();
//   FLOE_TRY(txn.new_overwrite().overwrite_by_row_filter(f).add_file(g).commit());
//   FLOE_TRY(txn.new_row_delta().add_deletes(dv).remove_deletes(old_dv).commit());
//   FLOE_TRY(txn.update_properties().set("k", "v").commit());
//   FLOE_TRY(txn.update_schema().add_column("note", Type::string()).commit());
//   FLOE_TRY(txn.commit());                                          // one catalog commit
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "floe/catalog/catalog.h"
#include "floe/scan/table_scan.h"
#include "floe/table/snapshot_producer.h"
#include "floe/table/transaction.h"
#include "floe/table/update_schema.h"

namespace floe {

class ExpireSnapshots;

class Table : public std::enable_shared_from_this<Table> {
 public:
  static Result<std::shared_ptr<Table>> load(CatalogPtr catalog, TableIdentifier id);
  // Creates the table as Java's TableMetadata.newTableMetadata does: column ids reassigned
  // from 1 in order, partition field ids from 1000 (sources matched by name), sort order id 1
  // when sorted. `location` defaults to the catalog's default location; `format_version` 0
  // means the `format-version` property, else 2.
  static Result<std::shared_ptr<Table>> create(CatalogPtr catalog, TableIdentifier id,
                                               SchemaPtr schema, PartitionSpecPtr spec = nullptr,
                                               SortOrderPtr sort_order = nullptr,
                                               std::map<std::string, std::string> properties = {},
                                               std::string location = "", int format_version = 0);

  const TableIdentifier& id() const { return id_; }
  const CatalogPtr& catalog() const { return catalog_; }
  const FileIOPtr& io() const { return io_; }
  std::shared_ptr<const TableMetadata> metadata() const;
  std::string metadata_location() const;
  std::string location() const { return metadata()->location; }
  std::map<std::string, std::string> properties() const { return metadata()->properties; }

  Status refresh();
  Result<TableScan> new_scan(ScanOptions options = {}) const;

  Transaction new_transaction();
  // One-shot updates: their commit() commits a transaction of their own.
  AppendFiles new_append();
  AppendFiles new_fast_append();
  OverwriteFiles new_overwrite();
  DeleteFiles new_delete();
  ReplacePartitions new_replace_partitions();
  RowDelta new_row_delta();
  RewriteFiles new_rewrite();
  UpdateProperties update_properties();
  UpdateSchema update_schema();
  UpdatePartitionSpec update_spec();
  ReplaceSortOrder replace_sort_order();
  ManageSnapshots manage_snapshots();
  // Snapshot expiration and the cleanup of the files it leaves unreachable
  // (floe/table/expire_snapshots.h); commits a transaction of its own.
  ExpireSnapshots expire_snapshots();

  // Installs committed or reloaded metadata (used by Transaction).
  void set_current(std::shared_ptr<const TableMetadata> metadata, std::string location);

  Table(CatalogPtr catalog, TableIdentifier id, LoadedMetadata loaded);

 private:
  CatalogPtr catalog_;
  TableIdentifier id_;
  FileIOPtr io_;
  mutable std::mutex mu_;
  std::shared_ptr<const TableMetadata> metadata_;
  std::string metadata_location_;
};

// Java TableMetadata.newTableMetadata: fresh column ids, partition field ids and sort order
// bound to the fresh schema, reserved properties stripped.
Result<TableMetadata> new_table_metadata(const Schema& schema, const PartitionSpec* spec,
                                         const SortOrder* sort_order, std::string location,
                                         std::map<std::string, std::string> properties,
                                         int format_version);

}  // namespace floe
