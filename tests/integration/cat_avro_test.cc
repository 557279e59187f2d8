// End-to-end: `floe cat` on Avro files (manifests, manifest lists, Avro data files) prints
// records as JSON lines and, with --schema, the schema with field ids, codec and metadata.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "integration/cli_runner.h"

namespace {

namespace fs = std::filesystem;
const fs::path kFixtures = FLOE_FIXTURES_DIR;

using floe_test::CliRun;
using floe_test::run_floe;

std::vector<nlohmann::json> lines(const std::string& out) {
  std::vector<nlohmann::json> v;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) v.push_back(nlohmann::json::parse(line));
  }
  return v;
}

const std::string kList =
    (kFixtures /
     "iceberg-cpp/manifests/snap-7412193043800610213-1-2bccd69e-d642-4816-bba0-261cd9bd0d93.avro")
        .string();

TEST(CatAvro, ManifestListRecordsAsJsonLines) {
  CliRun r = run_floe("cat " + kList);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto recs = lines(r.out);
  ASSERT_EQ(recs.size(), 4u);
  EXPECT_EQ(recs[0]["manifest_length"], 7433);
  EXPECT_EQ(recs[0]["sequence_number"], 4);
  EXPECT_EQ(recs[0]["added_snapshot_id"].get<int64_t>(), 7412193043800610213);
  EXPECT_EQ(recs[3]["added_snapshot_id"].get<int64_t>(), 1579605567338877265);
  // 473976 little-endian = 78 3b 07 00, one code point per byte.
  EXPECT_EQ(recs[0]["partitions"][0]["lower_bound"], std::string("x;\x07\x00", 4));
}

TEST(CatAvro, ManifestEntriesLimitAndColumns) {
  fs::path m = kFixtures / "iceberg-cpp/manifests/56357cd7-391f-4df8-aa24-e7e667da8870-m4.avro";
  CliRun all = run_floe("cat " + m.string());
  ASSERT_EQ(all.exit_code, 0) << all.out;
  auto recs = lines(all.out);
  ASSERT_EQ(recs.size(), 4u);
  EXPECT_EQ(recs[0]["data_file"]["file_format"], "PARQUET");
  EXPECT_EQ(recs[0]["data_file"]["partition"]["order_ts_hour"], 447696);
  EXPECT_EQ(recs[0]["data_file"]["column_sizes"][0]["key"], 1);
  EXPECT_EQ(recs[0]["data_file"]["column_sizes"][0]["value"], 49);

  CliRun some = run_floe("cat --limit 2 --columns status,snapshot_id " + m.string());
  ASSERT_EQ(some.exit_code, 0) << some.out;
  auto two = lines(some.out);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].size(), 2u);
  EXPECT_EQ(two[0]["status"], 1);
  EXPECT_EQ(two[0]["snapshot_id"].get<int64_t>(), 6387266376565973956);

  CliRun bad = run_floe("cat --columns nope " + m.string());
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.out.find("nope"), std::string::npos);
}

TEST(CatAvro, SchemaShowsFieldIdsCodecAndMetadata) {
  CliRun r = run_floe("cat --schema " + kList);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["codec"], "deflate");
  EXPECT_EQ(j["schema"]["name"], "manifest_file");
  EXPECT_EQ(j["schema"]["fields"][0]["field-id"], 500);
  EXPECT_EQ(j["metadata"]["snapshot-id"], "7412193043800610213");
  EXPECT_EQ(j["metadata"]["format-version"], "2");
  EXPECT_FALSE(j["metadata"].contains("avro.schema"));
}

TEST(CatAvro, AvroDataFile) {
  // Impala's v3 table with Avro data files.
  fs::path dir = kFixtures / "impala/iceberg_v3_default_value_avro";
  std::string data;
  for (const auto& de : fs::recursive_directory_iterator(dir)) {
    if (de.path().extension() == ".avro" &&
        de.path().string().find("/metadata/") == std::string::npos) {
      data = de.path().string();
      break;
    }
  }
  ASSERT_FALSE(data.empty());
  CliRun r = run_floe("cat " + data);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_FALSE(lines(r.out).empty());
}

TEST(CatAvro, CorruptFileIsOneClearError) {
  fs::path tmp = fs::temp_directory_path() / "floe_cat_corrupt.avro";
  {
    FILE* f = fopen(tmp.c_str(), "wb");
    std::string junk("Obj\x01\x04\x16", 6);
    fwrite(junk.data(), 1, junk.size(), f);
    fclose(f);
  }
  CliRun r = run_floe("cat " + tmp.string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find("floe_cat_corrupt.avro"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("offset"), std::string::npos) << r.out;
  fs::remove(tmp);
}

}  // namespace
