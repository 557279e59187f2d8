// Reading a v2 position-delete file (spec "Position Delete Files": rows of file_path, pos,
// sorted by both) into the deleted positions of each data file it names, keyed by the
// normalized data-file path the scan matches tasks with (file:/x, file:///x and /x are one key,
// as are s3://bucket/x and /x).
//
// Parquet files are read without materialising the paths: the file_path column is decoded as
// runs of dictionary indices (a sorted column has few, long runs), each dictionary entry is
// normalized once, and pos is decoded only where a kept path needs it; pages in another encoding
// (PLAIN after a dictionary fallback) take the generic string decode. Filtering to one data file
// also skips row groups by the file_path statistics where that is sound (path_bounds_may_match).
// Avro files, and Parquet files whose columns are laid out otherwise, are read row by row.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "floe/io/file_io.h"
#include "floe/read/position_delete_set.h"
#include "floe/util/result.h"

namespace floe {

struct PositionDeleteReadOptions {
  // Keep only the rows of this data file (matched after normalization); every file when unset.
  std::optional<std::string> data_file;
  // The file's size if known (a manifest's file_size_in_bytes); a wrong one is retried without.
  std::optional<int64_t> file_size;
  // The dictionary-aware Parquet read; false reads every row through the generic batch reader
  // (the reference the fast path is tested and measured against).
  bool dictionary_runs = true;
};

struct PositionDeletes {
  // Finished sets (sorted, unique) by normalized data-file path; rows with a null file_path or
  // pos are ignored, as Java does.
  std::unordered_map<std::string, PositionDeleteSet> by_path;
  int64_t row_groups_read = 0;
  int64_t row_groups_skipped = 0;  // by the file_path statistics
  bool used_dictionary_runs = false;
};

// `format`: the delete file's file_format ("parquet" or "avro", any case).
Result<PositionDeletes> read_position_delete_file(FileIOPtr io, const std::string& path,
                                                  std::string_view format,
                                                  const PositionDeleteReadOptions& options = {});

// Whether a row group whose raw file_path values lie in [lower, upper] may hold rows of the
// data file `target` once paths are normalized. Normalizing drops a prefix P (a scheme and
// authority such as "s3://bucket", or "file://"): when target and both bounds start with P + "/"
// (P != "file:", whose "file:/" also starts "file://" paths), so does every value between the
// bounds, each normalizes by dropping P, and only the raw target itself matches. Otherwise
// another spelling of the same file may sort anywhere, and the row group must be read.
bool path_bounds_may_match(std::string_view target, std::string_view lower, std::string_view upper);

}  // namespace floe
