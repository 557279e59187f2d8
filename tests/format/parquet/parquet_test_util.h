// Helpers shared by the Parquet tests: running the npm oracles, finding fixture files,
// canonical JSON rows.
#pragma once

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "test_support.h"

namespace floe::parquet::testing {

using test_support::run_command;
using test_support::shell_quote;

inline std::string oracle_dir() { return FLOE_SOURCE_DIR "/tests/oracle"; }

inline std::string file_magic(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  char m[4] = {0, 0, 0, 0};
  in.read(m, 4);
  return std::string(m, static_cast<size_t>(in.gcount()));
}

// Canonical rows (see tests/oracle/parquet_duckdb.mjs) of a batch.
inline void canonical_rows(const ColumnBatch& batch, std::vector<std::string>* out) {
  JsonOptions o;
  o.tz_suffix = false;
  o.maps_as_pairs = true;
  o.rows_as_arrays = true;
  for (int64_t r = 0; r < batch.num_rows; ++r) {
    std::string line;
    write_row_json(batch, r, o, &line);
    out->push_back(std::move(line));
  }
}

}  // namespace floe::parquet::testing
