// floe meta TABLE NAME: prints an Iceberg metadata table (snapshots, manifests, files, ...)
// with the columns Spark shows, until the SQL layer queries them.
#include <ostream>

#include "cli/cli_internal.h"
#include "cli/row_printer_internal.h"
#include "floe/spec/metadata_file.h"
#include "floe/table/metadata_tables.h"

namespace floe::cli {

Status run_meta(const GlobalOptions& options, const MetaCommand& cmd, std::ostream& out) {
  auto type = metadata_table_type_from_name(cmd.name);
  if (!type) {
    std::string names;
    for (const auto& n : metadata_table_names()) names += (names.empty() ? "" : ", ") + n;
    return invalid_argument("unknown metadata table '{}' (one of: {})", cmd.name, names);
  }
  StoredTable table = FLOE_TRY(open_table_arg(options, cmd.table));
  MetadataTableOptions meta_options;
  meta_options.snapshot_id = cmd.snapshot_id;
  meta_options.threads = cmd.threads;
  meta_options.metadata_file_location = table.metadata_file.path;
  if (cmd.snapshot_id && table.metadata->snapshot_by_id(*cmd.snapshot_id) == nullptr) {
    return not_found("snapshot {} is not in the table", *cmd.snapshot_id);
  }
  SchemaPtr schema = FLOE_TRY(metadata_table_schema(*table.metadata, *type));
  std::vector<std::string> names;
  for (const auto& f : schema->fields()) names.push_back(f.name);
  RowPrinter printer(options.output_format(), out, std::move(names), cmd.limit);
  Status st = scan_metadata_table(*table.io, *table.metadata, *type, meta_options,
                                  [&](ColumnBatch&& batch) { return printer.add(batch); });
  if (!st.ok() && st.kind() != ErrorKind::kCancelled) return st;
  printer.finish();
  return Status::OK();
}

}  // namespace floe::cli
