// floe cat: dispatches to the Avro or Parquet printer by the file's magic bytes.
#include <ostream>

#include "cli/cli_internal.h"
#include "floe/io/file_io.h"

namespace floe::cli {

Status run_cat(const GlobalOptions& options, const std::string& path, const CatOptions& cat,
               std::ostream& out) {
  auto io = make_local_file_io();
  int64_t size = FLOE_TRY(io->file_size(path));
  if (size < 4) return invalid_data("{}: too short to be an Avro or Parquet file", path);
  std::string magic = FLOE_TRY(io->read_range(path, 0, 4));
  if (magic == std::string("Obj\x01", 4)) {
    return cat_avro(path, cat, out);
  }
  if (magic == "PAR1") {
    return cat_parquet(path, cat, out);
  }
  return invalid_data("{}: not an Avro (Obj\\x01) or Parquet (PAR1) file", path);
}

}  // namespace floe::cli
