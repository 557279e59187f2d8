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

// The filesystem (Hadoop) catalog rooted at the local directory `dir` (the warehouse).
Result<CatalogPtr> make_hadoop_catalog(std::string dir, std::string uri, CatalogOptions options);

}  // namespace floe
