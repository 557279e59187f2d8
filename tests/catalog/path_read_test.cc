// Reading a table by path follows the catalog that manages it: an uncommitted metadata file a
// killed writer left behind is not read; where no catalog can tell, the error says how to
// choose.
#include "floe/catalog/path_read.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "catalog/catalog_test_support.h"

namespace floe::catalog_test {
namespace {

namespace fs = std::filesystem;

class PathRead : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir();
    CatalogOptions options;
    options.warehouse = dir_ + "/wh";
    auto catalog = open_catalog("sqlite:" + dir_ + "/wh/catalog.db", options);
    ASSERT_TRUE(catalog.ok()) << catalog.status().to_string();
    catalog_ = *catalog;
    ASSERT_TRUE(catalog_->create_namespace({"db"}).ok());
    auto first = catalog_->create_table(id_, make_metadata(catalog_->default_table_location(id_)));
    ASSERT_TRUE(first.ok()) << first.status().to_string();
    TableMetadata next = *catalog_->load_metadata(id_)->metadata;
    next.properties["step"] = "committed";
    auto second = catalog_->commit_table(id_, *first, next);
    ASSERT_TRUE(second.ok()) << second.status().to_string();
    committed_ = *second;
    // A writer killed before its swap: the next version's file exists, uncommitted.
    TableMetadata orphan = next;
    orphan.properties["step"] = "orphan";
    orphan_ = next_metadata_location(orphan, committed_);
    ASSERT_TRUE(write_table_metadata(*catalog_->io(), orphan_, orphan).ok());
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string table_dir() const { return dir_ + "/wh/db/t"; }

  std::string dir_;
  CatalogPtr catalog_;
  TableIdentifier id_{{"db"}, "t"};
  std::string committed_, orphan_;
};

TEST_F(PathRead, TheWarehouseCatalogSaysWhichFileIsCurrent) {
  fs::remove(table_dir() + "/metadata/version-hint.text");
  for (const auto& path : {table_dir(), table_dir() + "/", table_dir() + "/metadata"}) {
    auto table = open_table_by_path(make_local_file_io(), path);
    ASSERT_TRUE(table.ok()) << table.status().to_string();
    EXPECT_EQ(table->metadata->property("step"), "committed") << path;
    EXPECT_EQ(table->metadata_file.path, committed_);
    EXPECT_NE(table->metadata_file.reason.find("catalog sqlite:"), std::string::npos);
    EXPECT_NE(table->metadata_file.reason.find("lakehouse.db.t"), std::string::npos);
  }
  // A file given by name is read as given.
  auto given = open_table_by_path(make_local_file_io(), orphan_);
  ASSERT_TRUE(given.ok());
  EXPECT_EQ(given->metadata->property("step"), "orphan");
}

TEST_F(PathRead, AGivenCatalogIsAskedToo) {
  // The table's files copied out of the warehouse, registered in a memory catalog.
  fs::copy(table_dir(), dir_ + "/copy", fs::copy_options::recursive);
  auto memory = make_memory_catalog();
  ASSERT_TRUE(memory->create_namespace({"m"}).ok());
  std::string copy_committed = dir_ + "/copy/metadata/" + fs::path(committed_).filename().string();
  ASSERT_TRUE(memory->register_table({{"m"}, "t"}, copy_committed).ok());
  fs::remove(dir_ + "/copy/metadata/version-hint.text");
  PathReadOptions options;
  options.catalogs = {memory};
  auto table = open_table_by_path(make_local_file_io(), dir_ + "/copy", options);
  ASSERT_TRUE(table.ok()) << table.status().to_string();
  EXPECT_EQ(table->metadata->property("step"), "committed");
  EXPECT_NE(table->metadata_file.reason.find("catalog memory:"), std::string::npos);
  // A lazily opened catalog that fails stops the read with a clear error.
  options.catalogs.clear();
  options.open_catalog = []() -> Result<CatalogPtr> { return io_error("server down"); };
  auto failed = open_table_by_path(make_local_file_io(), dir_ + "/copy", options);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("server down"), std::string::npos);
  EXPECT_NE(failed.status().message().find("pass the metadata file"), std::string::npos);
}

TEST_F(PathRead, CatalogsThatDisagreeAreAnError) {
  auto memory = make_memory_catalog();
  ASSERT_TRUE(memory->create_namespace({"m"}).ok());
  ASSERT_TRUE(memory->register_table({{"m"}, "t"}, orphan_).ok());
  PathReadOptions options;
  options.catalogs = {memory};
  auto table = open_table_by_path(make_local_file_io(), table_dir(), options);
  ASSERT_FALSE(table.ok());
  EXPECT_NE(table.status().message().find("cannot tell which metadata file"), std::string::npos)
      << table.status().message();
  EXPECT_NE(table.status().message().find(orphan_), std::string::npos);
  EXPECT_NE(table.status().message().find(committed_), std::string::npos);
}

TEST_F(PathRead, WithoutACatalogTwoFilesOfOneVersionAreAnError) {
  fs::copy(table_dir(), dir_ + "/copy", fs::copy_options::recursive);
  // The next commit after the kill made a second file of the orphan's version.
  TableMetadata m = *catalog_->load_metadata(id_)->metadata;
  std::string again = next_metadata_location(m, committed_);
  fs::copy_file(orphan_, dir_ + "/copy/metadata/" + fs::path(again).filename().string());
  // The committed hint settles it ...
  std::ofstream(dir_ + "/copy/metadata/version-hint.text")
      << fs::path(committed_).stem().stem().string();
  auto hinted = open_table_by_path(make_local_file_io(), dir_ + "/copy");
  ASSERT_TRUE(hinted.ok()) << hinted.status().to_string();
  EXPECT_EQ(hinted->metadata->property("step"), "committed");
  // ... without it, nothing can.
  fs::remove(dir_ + "/copy/metadata/version-hint.text");
  auto table = open_table_by_path(make_local_file_io(), dir_ + "/copy");
  ASSERT_FALSE(table.ok());
  EXPECT_NE(table.status().message().find("all claim version 2"), std::string::npos)
      << table.status().message();
}

TEST_F(PathRead, TheSqlCatalogKeepsAHintOfTheCommittedFile) {
  std::ifstream in(table_dir() + "/metadata/version-hint.text");
  std::string hint;
  std::getline(in, hint);
  EXPECT_EQ(hint + ".metadata.json", fs::path(committed_).filename().string());
  // Readers that cannot ask the catalog (open_table_at) follow it past the orphan.
  auto table = open_table_at(make_local_file_io(), table_dir());
  ASSERT_TRUE(table.ok()) << table.status().to_string();
  EXPECT_EQ(table->metadata->property("step"), "committed");
  // A purge removes it with the table's files.
  ASSERT_TRUE(catalog_->drop_table(id_, /*purge=*/true).ok());
  EXPECT_FALSE(fs::exists(table_dir() + "/metadata/version-hint.text"));
}

}  // namespace
}  // namespace floe::catalog_test
