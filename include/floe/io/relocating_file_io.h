// A FileIO for tables that moved: metadata written at one location (s3://bucket/t,
// /test-warehouse/t, file:/tmp/t, or a relative path) read from another directory. Paths under
// the recorded location map to the same place under the new directory; other paths (files
// written under an older location, external files) are found by stripping leading path
// components until the rest exists under the new directory or one of its ancestors.
#pragma once

#include <string>
#include <string_view>

#include "floe/io/file_io.h"

namespace floe {

struct RelocationOptions {
  std::string from_location;  // the table location recorded in metadata
  std::string to_directory;   // where the table's files actually are
  // How many ancestors of to_directory are searched for paths outside from_location.
  int ancestor_levels = 3;
};

// Wraps `inner`; every path is resolved before use. Counters are the inner FileIO's.
FileIOPtr make_relocating_file_io(FileIOPtr inner, RelocationOptions options);

// Resolves one path by the rules above without a FileIO wrapper (exists() probes `io`).
Result<std::string> relocate_path(FileIO& io, const RelocationOptions& options,
                                  std::string_view path);

}  // namespace floe
