// The filesystem catalog's layout on disk (v<N>.metadata.json + version-hint.text), its
// recovery from a stale hint, and open_catalog's URI dispatch.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "catalog/catalog_test_support.h"

namespace floe::catalog_test {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class HadoopCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = make_temp_dir(); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

TEST_F(HadoopCatalogTest, VersionedFilesAndHint) {
  auto catalog = open_catalog("hadoop:" + dir_ + "/wh");
  ASSERT_TRUE(catalog.ok()) << catalog.status().to_string();
  EXPECT_EQ((*catalog)->warehouse(), dir_ + "/wh");
  ASSERT_TRUE((*catalog)->create_namespace({"db"}).ok());
  EXPECT_TRUE(std::filesystem::is_directory(dir_ + "/wh/db"));
  TableIdentifier id{{"db"}, "t"};
  std::string meta = dir_ + "/wh/db/t/metadata";
  auto v1 = (*catalog)->create_table(id, make_metadata(dir_ + "/wh/db/t"));
  ASSERT_TRUE(v1.ok()) << v1.status().to_string();
  EXPECT_EQ(*v1, meta + "/v1.metadata.json");
  EXPECT_EQ(read_text(meta + "/version-hint.text"), "1");

  auto m = *(*catalog)->load_metadata(id)->metadata;
  auto v2 = (*catalog)->commit_table(id, *v1, m);
  ASSERT_TRUE(v2.ok());
  EXPECT_EQ(*v2, meta + "/v2.metadata.json");
  auto v3 = (*catalog)->commit_table(id, *v2, m);
  ASSERT_TRUE(v3.ok());
  EXPECT_EQ(read_text(meta + "/version-hint.text"), "3");
  EXPECT_EQ((*catalog)->commit_table(id, *v2, m).status().kind(), ErrorKind::kCommitConflict);

  // A committer that died before updating the hint: readers still find the newest version,
  // and a commit from the stale version conflicts.
  { std::ofstream(meta + "/version-hint.text") << "1"; }
  EXPECT_EQ((*catalog)->load_metadata(id)->location, *v3);
  EXPECT_EQ((*catalog)->commit_table(id, *v1, m).status().kind(), ErrorKind::kCommitConflict);
  { std::ofstream(meta + "/version-hint.text") << "garbage"; }
  EXPECT_EQ((*catalog)->load_metadata(id)->location, *v3);
  std::filesystem::remove(meta + "/version-hint.text");
  EXPECT_EQ((*catalog)->load_metadata(id)->location, *v3);

  // A table directory is not a namespace.
  EXPECT_TRUE((*catalog)->list_namespaces({"db"})->empty());
  EXPECT_FALSE(*(*catalog)->namespace_exists({"db", "t"}));
  // The table must live where the catalog puts it.
  TableIdentifier other{{"db"}, "u"};
  EXPECT_EQ((*catalog)->create_table(other, make_metadata(dir_ + "/elsewhere")).status().kind(),
            ErrorKind::kInvalidArgument);
}

TEST(OpenCatalog, DispatchesOnTheUri) {
  std::string dir = make_temp_dir();
  EXPECT_EQ((*open_catalog("memory:"))->uri(), "memory:");
  auto sqlite = open_catalog("sqlite:" + dir + "/a/b/c.db");
  ASSERT_TRUE(sqlite.ok()) << sqlite.status().to_string();
  EXPECT_TRUE(std::filesystem::exists(dir + "/a/b/c.db"));
  auto triple = open_catalog("sqlite://" + dir + "/d.db");
  ASSERT_TRUE(triple.ok()) << triple.status().to_string();
  EXPECT_TRUE(std::filesystem::exists(dir + "/d.db"));
  for (const std::string& uri : {"hadoop:" + dir + "/h1", dir + "/h2", "file:" + dir + "/h3"}) {
    auto catalog = open_catalog(uri);
    ASSERT_TRUE(catalog.ok()) << uri << ": " << catalog.status().to_string();
    EXPECT_EQ((*catalog)->uri(), uri);
    ASSERT_TRUE((*catalog)->create_namespace({"ns"}).ok()) << uri;
  }
  EXPECT_TRUE(std::filesystem::is_directory(dir + "/h1/ns"));
  EXPECT_TRUE(std::filesystem::is_directory(dir + "/h2/ns"));
  EXPECT_TRUE(std::filesystem::is_directory(dir + "/h3/ns"));
  EXPECT_EQ(open_catalog("s3://bucket/x").status().kind(), ErrorKind::kNotSupported);
  auto bad_pg = open_catalog("postgresql://nobody@127.0.0.1:1/none");
  EXPECT_EQ(bad_pg.status().kind(), ErrorKind::kIo);
  EXPECT_NE(bad_pg.status().message().find("127.0.0.1:1"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace floe::catalog_test

namespace floe::catalog_test {
namespace {

// Processes committing to one filesystem table: creating v<N+1> is the compare-and-swap.
TEST_F(HadoopCatalogTest, SeveralProcessesCommitWithoutLostUpdates) {
  std::string uri = "hadoop:" + dir_ + "/wh";
  TableIdentifier id{{"ns"}, "counter"};
  {
    auto catalog = open_catalog(uri);
    ASSERT_TRUE((*catalog)->create_namespace({"ns"}).ok());
    auto m = make_metadata((*catalog)->default_table_location(id));
    m.properties["counter"] = "0";
    ASSERT_TRUE((*catalog)->create_table(id, m).ok());
  }
  constexpr int kProcesses = 3, kCommits = 10;
  increment_counter_from_processes(uri, {}, id, kProcesses, kCommits);
  auto catalog = open_catalog(uri);
  auto loaded = (*catalog)->load_metadata(id);
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->metadata->property("counter"), std::to_string(kProcesses * kCommits));
  EXPECT_EQ(loaded->location, dir_ + "/wh/ns/counter/metadata/v" +
                                  std::to_string(kProcesses * kCommits + 1) + ".metadata.json");
}

}  // namespace
}  // namespace floe::catalog_test
