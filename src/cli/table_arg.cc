// Table arguments of floe scan / meta / inspect: a path on disk (metadata JSON file or table
// directory), else a catalog table name such as analytics.sales.
#include <filesystem>

#include "cli/cli_internal.h"
#include "floe/io/file_io.h"
#include "floe/sql/session.h"
#include "floe/util/strings.h"

namespace floe::cli {

Result<StoredTable> open_table_arg(const GlobalOptions& options, const std::string& arg,
                                   const MetadataParseOptions* parse) {
  std::error_code ec;
  if (std::filesystem::exists(local_path_of(arg), ec) || arg.find('/') != std::string::npos) {
    return open_table_at(make_local_file_io(), arg, parse ? *parse : MetadataParseOptions());
  }
  sql::SessionOptions so;
  so.warehouse = options.warehouse;
  so.catalog_uri = options.catalog;
  so.catalog_name = options.catalog_name;
  sql::Session session(so);
  return session.load_table(split(arg, '.'));
}

}  // namespace floe::cli
