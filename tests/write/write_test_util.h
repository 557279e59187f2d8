// Helpers for the write tests: temp dirs, schemas, table metadata, reading files back.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/format/parquet/reader.h"
#include "floe/spec/table_metadata.h"
#include "format/parquet/parquet_test_util.h"
#include "test_support.h"

namespace floe::write_testing {

namespace fs = std::filesystem;

using test_support::field;
using test_support::TempDir;

inline TableMetadata make_table(const std::string& location, std::vector<NestedField> fields,
                                std::vector<PartitionField> pfields = {},
                                std::map<std::string, std::string> props = {}) {
  TableMetadata t;
  t.location = location;
  t.schemas.push_back(std::make_shared<Schema>(0, std::move(fields)));
  t.specs.push_back(std::make_shared<PartitionSpec>(0, std::move(pfields)));
  t.sort_orders.push_back(std::make_shared<SortOrder>());
  t.properties = std::move(props);
  return t;
}

// Canonical JSON rows (as the Parquet oracle prints them).
inline std::vector<std::string> rows_of(const ColumnBatch& batch) {
  std::vector<std::string> out;
  parquet::testing::canonical_rows(batch, &out);
  return out;
}

inline std::vector<std::string> read_parquet_rows(FileIOPtr io, const std::string& path) {
  std::vector<std::string> out;
  auto batches = parquet::read_parquet_file(io, path);
  EXPECT_TRUE(batches.ok()) << batches.status().to_string();
  if (!batches.ok()) return out;
  for (const auto& b : *batches) parquet::testing::canonical_rows(b, &out);
  return out;
}

inline std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace floe::write_testing
