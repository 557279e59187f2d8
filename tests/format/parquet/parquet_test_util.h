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

namespace floe::parquet::testing {

inline std::string run_command(const std::string& cmd, int* exit_code = nullptr) {
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  if (!pipe) return out;
  std::array<char, 65536> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  int status = pclose(pipe);
  if (exit_code) *exit_code = WEXITSTATUS(status);
  return out;
}

inline std::string oracle_dir() { return std::string(FLOE_SOURCE_DIR) + "/tests/oracle"; }

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

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
