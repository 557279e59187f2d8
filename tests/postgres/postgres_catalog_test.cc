// The catalog conformance suite on PostgreSQL (the server scripts/start-postgres runs; CTest's
// `postgres` fixture starts it), and the JdbcCatalog table layout there.
#include <functional>

#include "catalog/catalog_conformance_suite.h"
#include "catalog/sql_connection_internal.h"
#include "forwarding_file_io.h"

namespace floe::catalog_test {
namespace {

// Local FileIO that runs a hook before each write (to break the connection mid-commit).
class HookedFileIO : public test_support::ForwardingFileIO {
 public:
  explicit HookedFileIO(std::function<void()> before_write)
      : ForwardingFileIO(make_local_file_io()), before_write_(std::move(before_write)) {}
  Status write_file(std::string_view path, std::string_view data, WriteMode mode) override {
    if (armed) before_write_();
    return inner_->write_file(path, data, mode);
  }
  bool armed = false;

 private:
  std::function<void()> before_write_;
};

}  // namespace

INSTANTIATE_TEST_SUITE_P(PostgresCatalog, CatalogConformance, ::testing::Values("postgres"),
                         [](const auto& info) { return info.param; });

TEST(PostgresCatalogLayout, TablesLookLikeJdbcCatalogs) {
  auto uri = postgres_uri();
  if (!uri) {
    if (in_ci()) FAIL() << "PostgreSQL test server unavailable (CI=true): no URI";
    GTEST_SKIP() << "no PostgreSQL: run scripts/start-postgres or set FLOE_TEST_POSTGRES_URI";
  }
  std::string dir = make_temp_dir();
  CatalogOptions options;
  options.name = "layout_" + random_uuid();
  options.warehouse = dir + "/wh";
  auto catalog = open_catalog(*uri, options);
  if (!catalog.ok() && !in_ci()) GTEST_SKIP() << catalog.status().to_string();
  ASSERT_TRUE(catalog.ok()) << catalog.status().to_string();
  EXPECT_EQ((*catalog)->uri(), *uri);
  ASSERT_TRUE((*catalog)->create_namespace({"a", "b"}).ok());
  TableIdentifier id{{"a", "b"}, "t"};
  auto first = (*catalog)->create_table(id, make_metadata((*catalog)->default_table_location(id)));
  ASSERT_TRUE(first.ok()) << first.status().to_string();
  auto second = (*catalog)->commit_table(id, *first, *(*catalog)->load_metadata(id)->metadata);
  ASSERT_TRUE(second.ok()) << second.status().to_string();

  auto db = open_postgres_connection(*uri);
  ASSERT_TRUE(db.ok()) << db.status().to_string();
  EXPECT_EQ(*(*db)->table_columns("iceberg_tables"),
            (std::vector<std::string>{"catalog_name", "table_namespace", "table_name",
                                      "metadata_location", "previous_metadata_location",
                                      "iceberg_type"}));
  EXPECT_EQ(
      *(*db)->table_columns("iceberg_namespace_properties"),
      (std::vector<std::string>{"catalog_name", "namespace", "property_key", "property_value"}));
  auto rows = (*db)->query(
      "SELECT table_namespace, table_name, metadata_location, previous_metadata_location, "
      "iceberg_type FROM iceberg_tables WHERE catalog_name = ?",
      {options.name});
  ASSERT_TRUE(rows.ok()) << rows.status().to_string();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0], (SqlRow{"a.b", "t", *second, *first, "TABLE"}));
  auto props = (*db)->query(
      "SELECT namespace, property_key, property_value FROM iceberg_namespace_properties "
      "WHERE catalog_name = ?",
      {options.name});
  ASSERT_TRUE(props.ok());
  EXPECT_EQ(*props, (std::vector<SqlRow>{{"a.b", "exists", "true"}}));
  std::filesystem::remove_all(dir);
}

// The connection dies between writing the new metadata file and the CAS UPDATE: the outcome is
// unknown, so the file must stay; the catalog reconnects for the next call.
TEST(PostgresCatalogFailures, LostConnectionDuringCommitIsStateUnknown) {
  auto uri = postgres_uri();
  if (!uri) {
    if (in_ci()) FAIL() << "PostgreSQL test server unavailable (CI=true): no URI";
    GTEST_SKIP() << "no PostgreSQL: run scripts/start-postgres or set FLOE_TEST_POSTGRES_URI";
  }
  auto admin = open_postgres_connection(*uri);
  if (!admin.ok() && !in_ci()) GTEST_SKIP() << admin.status().to_string();
  ASSERT_TRUE(admin.ok()) << admin.status().to_string();
  std::string app = "floe_victim_" + random_uuid().substr(0, 8);
  auto kill_victim = [&] {
    auto killed = (*admin)->query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?", {app});
    ASSERT_TRUE(killed.ok()) << killed.status().to_string();
    ASSERT_EQ(killed->size(), 1u);
    for (int i = 0; i < 500; ++i) {  // wait until the backend is really gone
      auto left =
          (*admin)->query("SELECT 1 FROM pg_stat_activity WHERE application_name = ?", {app});
      if (left.ok() && left->empty()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL() << "backend did not terminate";
  };
  auto io = std::make_shared<HookedFileIO>(kill_victim);
  std::string dir = make_temp_dir();
  CatalogOptions options;
  options.name = "unknown_" + random_uuid();
  options.warehouse = dir + "/wh";
  options.io = io;
  std::string victim_uri =
      *uri + (uri->find('?') == std::string::npos ? "?" : "&") + "application_name=" + app;
  auto catalog = open_catalog(victim_uri, options);
  ASSERT_TRUE(catalog.ok()) << catalog.status().to_string();
  ASSERT_TRUE((*catalog)->create_namespace({"ns"}).ok());
  TableIdentifier id{{"ns"}, "t"};
  auto base = (*catalog)->create_table(id, make_metadata((*catalog)->default_table_location(id)));
  ASSERT_TRUE(base.ok()) << base.status().to_string();
  auto loaded = (*catalog)->load_metadata(id);
  ASSERT_TRUE(loaded.ok());

  io->armed = true;
  auto commit = (*catalog)->commit_table(id, *base, *loaded->metadata);
  io->armed = false;
  EXPECT_EQ(commit.status().kind(), ErrorKind::kCommitStateUnknown) << commit.status().to_string();
  EXPECT_EQ(count_metadata_files((*catalog)->default_table_location(id) + "/metadata"), 2);

  auto after = (*catalog)->load_metadata(id);  // reconnects
  ASSERT_TRUE(after.ok()) << after.status().to_string();
  EXPECT_EQ(after->location, *base);
  std::filesystem::remove_all(dir);
}

}  // namespace floe::catalog_test
