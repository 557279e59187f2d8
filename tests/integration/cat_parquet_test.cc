// End-to-end: `floe cat` on Parquet files (fixtures and files floe writes).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "integration/cli_runner.h"

namespace {

namespace fs = std::filesystem;
const fs::path kFixtures = FLOE_FIXTURES_DIR;
const fs::path kMock =
    kFixtures / "duckdb-iceberg/column_mapping/warehouse/example/mock_data.parquet";

using floe_test::CliRun;
using floe_test::run_floe;

std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> rows;
  size_t pos = 0;
  while (pos < out.size()) {
    size_t nl = out.find('\n', pos);
    if (nl == std::string::npos) nl = out.size();
    if (nl > pos) rows.push_back(nlohmann::json::parse(out.substr(pos, nl - pos)));
    pos = nl + 1;
  }
  return rows;
}

TEST(CatParquet, PrintsRowsAsJsonLines) {
  CliRun r = run_floe("cat " + kMock.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto rows = json_lines(r.out);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0]["name"], "Alice");
  EXPECT_EQ(rows[0]["age"], 25);
  EXPECT_EQ(rows[1]["scores"], nlohmann::json::array({78, 82, 88}));
  EXPECT_EQ(rows[0]["attributes"]["height"], "5.5");
  EXPECT_EQ(rows[2]["profile"]["email"], "charlie@example.com");
}

TEST(CatParquet, LimitAndColumns) {
  CliRun r = run_floe("cat --limit 2 --columns age,name " + kMock.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto rows = json_lines(r.out);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].dump(), R"({"age":30,"name":"Bob"})");
  CliRun bad = run_floe("cat --columns nope " + kMock.string());
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.out.find("no column nope"), std::string::npos) << bad.out;
}

TEST(CatParquet, SchemaShowsFieldIdsAndIcebergTypes) {
  // A Spark-written position-delete file: Iceberg's reserved ids on file_path and pos.
  fs::path file;
  for (const auto& e :
       fs::recursive_directory_iterator(kFixtures / "impala/iceberg_v2_delete_positional")) {
    if (e.path().extension() == ".parquet") {
      CliRun probe = run_floe("cat --schema " + e.path().string());
      if (probe.out.find("file_path") != std::string::npos) file = e.path();
    }
  }
  ASSERT_FALSE(file.empty());
  CliRun r = run_floe("cat --schema " + file.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("file_path (STRING) = 2147483546  -- iceberg 2147483546: string"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("field ids from: Parquet field ids"), std::string::npos) << r.out;
  CliRun m = run_floe("cat --schema " + kMock.string());
  ASSERT_EQ(m.exit_code, 0) << m.out;
  EXPECT_NE(m.out.find("optional group scores (LIST) {  -- iceberg 5: list"), std::string::npos)
      << m.out;
  EXPECT_NE(m.out.find("field ids from: position"), std::string::npos) << m.out;
}

TEST(CatParquet, MetaShowsRowGroupsChunksAndStatistics) {
  CliRun r = run_floe("cat --meta " + kMock.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("rows: 3, row groups: 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("row group 0: 3 rows"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("column name: BYTE_ARRAY SNAPPY [PLAIN,RLE,RLE_DICTIONARY]"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("min Alice, max Charlie"), std::string::npos) << r.out;
}

TEST(CatParquet, CorruptFileGivesOneClearLine) {
  fs::path tmp =
      fs::temp_directory_path() / ("floe-cat-bad-" + std::to_string(::getpid()) + ".parquet");
  {
    FILE* f = std::fopen(tmp.c_str(), "wb");
    std::fputs("PAR1 this is not parquet PAR1", f);
    std::fclose(f);
  }
  CliRun r = run_floe("cat " + tmp.string());
  fs::remove(tmp);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find("invalid data"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(tmp.filename().string()), std::string::npos) << r.out;
}

}  // namespace
