// Relocation rules, checked on the interoperability fixtures' real path styles
// (the path styles the fixture tables were written with).
#include "floe/io/relocating_file_io.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace floe {
namespace {

const std::string kFixtures = FLOE_FIXTURES_DIR;

std::string resolve(const std::string& location, const std::string& dir, const std::string& path) {
  auto io = make_local_file_io();
  auto r = relocate_path(*io, {location, kFixtures + "/" + dir}, path);
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  return r.ok() ? std::filesystem::path(*r).lexically_normal().string() : "";
}

std::string fixture(const std::string& rel) {
  return std::filesystem::path(kFixtures + "/" + rel).lexically_normal().string();
}

TEST(RelocatingFileIOTest, PathsUnderTheLocation) {
  EXPECT_EQ(resolve("file:///tmp/iceberg", "dremio/nation",
                    "file:/tmp/iceberg/metadata/v1.metadata.json"),
            fixture("dremio/nation/metadata/v1.metadata.json"));
  EXPECT_EQ(resolve("file:///tmp/iceberg", "dremio/nation",
                    "file:///tmp/iceberg/metadata/v2.metadata.json"),
            fixture("dremio/nation/metadata/v2.metadata.json"));
}

TEST(RelocatingFileIOTest, StripsComponentsUntilTheFileExists) {
  // ./lineitem_iceberg location with lineitem_iceberg/... paths.
  EXPECT_EQ(
      resolve("./lineitem_iceberg", "duckdb-iceberg/lineitem_iceberg",
              "lineitem_iceberg/data/00000-1-66fee7c2-c97c-4af9-963d-930afd99ace4-00001.parquet"),
      fixture("duckdb-iceberg/lineitem_iceberg/data/"
              "00000-1-66fee7c2-c97c-4af9-963d-930afd99ace4-00001.parquet"));
  // A sibling data directory of another table location (write.data.path changed).
  EXPECT_EQ(
      resolve("/test-warehouse/iceberg_test/hadoop_catalog/ice/iceberg_multiple_storage_locations",
              "impala/iceberg_multiple_storage_locations",
              "hdfs://localhost:20500/test-warehouse/iceberg_test/hadoop_catalog/ice/"
              "iceberg_multiple_storage_locations_data01/col_int=1/"
              "00001-1-7ac79643-e19f-4294-914e-7b122aff576c-00001.parquet"),
      fixture("impala/iceberg_multiple_storage_locations_data01/col_int=1/"
              "00001-1-7ac79643-e19f-4294-914e-7b122aff576c-00001.parquet"));
}

TEST(RelocatingFileIOTest, MissingFilesAreNotFound) {
  auto io = make_local_file_io();
  auto r =
      relocate_path(*io, {"s3://b/t", kFixtures + "/dremio/nation"}, "s3://b/t/data/none.parquet");
  // Under the location, the mapped path is returned even if absent (it may be about to be written).
  ASSERT_TRUE(r.ok());
  r = relocate_path(*io, {"s3://b/t", kFixtures + "/dremio/nation"}, "s3://other/zzz/none.parquet");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kNotFound);
}

TEST(RelocatingFileIOTest, WrapperReadsAndCountsOnTheInnerIO) {
  auto inner = make_local_file_io();
  auto io = make_relocating_file_io(inner, {"file:///tmp/iceberg", kFixtures + "/dremio/nation"});
  auto bytes = io->read_file("file:/tmp/iceberg/metadata/version-hint.text");
  ASSERT_TRUE(bytes.ok()) << bytes.status().to_string();
  EXPECT_EQ(io->counters().read_requests.load(), 1);
  EXPECT_EQ(&io->counters(), &inner->counters());
  EXPECT_TRUE(*io->exists("file:/tmp/iceberg/metadata/v1.metadata.json"));
  EXPECT_FALSE(*io->exists("s3://nowhere/at/all.parquet"));
}

}  // namespace
}  // namespace floe
