// Constructors of the catalog implementations, used by open_catalog().
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "catalog/sql_connection_internal.h"
#include "floe/catalog/catalog.h"

namespace floe {

// The JdbcCatalog-layout SQL catalog over an open connection; creates the catalog tables when
// missing. `uri` is what uri() reports.
Result<CatalogPtr> make_sql_catalog(std::unique_ptr<SqlConnection> connection, std::string uri,
                                    CatalogOptions options);

// The error of a compare-and-swap that lost: the table's metadata moved from `base` (what the
// commit was built on) to `current`.
Status commit_conflict(const TableIdentifier& id, std::string_view base, std::string_view current);

// True when `location` is the catalog's default location for `id` (the name is then a path).
bool is_default_location(const Catalog& catalog, const TableIdentifier& id,
                         std::string_view location);

// The checks of a new table's name: check_identifier_path_names when its location derives from
// the name.
Status check_new_table_name(const Catalog& catalog, const TableIdentifier& id,
                            const TableMetadata& metadata);

// The directory part of a metadata file location ("" when it has none).
std::string parent_of(std::string_view location);

// Writes `<dir of metadata_location>/version-hint.text` naming the metadata file's stem
// ("00003-<uuid>"), so that a table read by path without its catalog reads the last committed
// metadata, not a newer file a killed writer left behind. Best effort, and never moves the hint
// back to an older version. Called only after the catalog committed `metadata_location`.
void write_committed_hint(FileIO& io, std::string_view metadata_location);

// The rows of a JdbcCatalog-layout database (any catalog_name) whose metadata_location lies
// directly in the local directory `metadata_dir`.
Result<std::vector<CatalogTablePointer>> sql_tables_with_metadata_in(SqlConnection& db,
                                                                     std::string_view metadata_dir);

// The local path `path` made absolute, normalized, with symlinks resolved where they exist.
std::string canonical_local_path(std::string_view path);

// The filesystem (Hadoop) catalog rooted at the local directory `dir` (the warehouse).
Result<CatalogPtr> make_hadoop_catalog(std::string dir, std::string uri, CatalogOptions options);

}  // namespace floe
