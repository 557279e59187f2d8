// Table arguments of floe scan / meta / inspect: a path on disk or S3 (metadata JSON file or
// table directory), else a catalog table name such as analytics.sales. A directory is read as the
// catalog that manages it says (floe/catalog/path_read.h): the command's catalog (--catalog,
// FLOE_CATALOG, or the warehouse's catalog.db) and the catalog.db of the warehouse holding it.
#include <filesystem>

#include "cli/cli_internal.h"
#include "floe/catalog/path_read.h"
#include "floe/io/file_io.h"
#include "floe/io/s3_file_io.h"
#include "floe/sql/session.h"
#include "floe/util/strings.h"

namespace floe::cli {

Result<StoredTable> open_table_arg(const GlobalOptions& options, const std::string& arg,
                                   const MetadataParseOptions* parse) {
  sql::SessionOptions so = options.session_options();
  sql::Session session(so);
  std::error_code ec;
  if (std::filesystem::exists(local_path_of(arg), ec) || arg.find('/') != std::string::npos) {
    PathReadOptions read;
    if (parse) read.parse = *parse;
    read.open_catalog = [&session]() { return session.catalog(/*create=*/false); };
    // s3://bucket/.../metadata/v3.metadata.json: read through S3 (--conf s3.*, AWS_* variables).
    FileIOPtr io = FLOE_TRY(make_file_io_for(arg, options.conf));
    return open_table_by_path(io, arg, read);
  }
  return session.load_table(split(arg, '.'));
}

}  // namespace floe::cli
