// Table arguments of floe scan / meta / inspect: a path on disk (metadata JSON file or table
// directory), else a catalog table name such as analytics.sales. A directory is read as the
// catalog that manages it says (floe/catalog/path_read.h): the command's catalog (--catalog,
// FLOE_CATALOG, or the warehouse's catalog.db) and the catalog.db of the warehouse holding it.
#include <filesystem>

#include "cli/cli_internal.h"
#include "floe/catalog/path_read.h"
#include "floe/io/file_io.h"
#include "floe/sql/session.h"
#include "floe/util/strings.h"

namespace floe::cli {

Result<StoredTable> open_table_arg(const GlobalOptions& options, const std::string& arg,
                                   const MetadataParseOptions* parse) {
  sql::SessionOptions so;
  so.warehouse = options.warehouse;
  so.catalog_uri = options.catalog;
  so.catalog_name = options.catalog_name;
  sql::Session session(so);
  std::error_code ec;
  if (std::filesystem::exists(local_path_of(arg), ec) || arg.find('/') != std::string::npos) {
    PathReadOptions read;
    if (parse) read.parse = *parse;
    read.open_catalog = [&session]() { return session.catalog(/*create=*/false); };
    return open_table_by_path(make_local_file_io(), arg, read);
  }
  return session.load_table(split(arg, '.'));
}

}  // namespace floe::cli
