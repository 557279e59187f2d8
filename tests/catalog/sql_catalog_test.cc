// The SQLite catalog's on-disk layout (what Java's JdbcCatalog reads), databases Java created
// (V0 without iceberg_type, V1 with views), and several processes committing to one file.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalog/catalog_test_support.h"
#include "catalog/sql_connection_internal.h"

namespace floe::catalog_test {
namespace {

class SqliteCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir();
    db_path_ = dir_ + "/nested/dir/catalog.db";
    options_.warehouse = dir_ + "/wh";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  CatalogPtr open() {
    auto catalog = open_catalog("sqlite:" + db_path_, options_);
    EXPECT_TRUE(catalog.ok()) << catalog.status().to_string();
    return catalog.ok() ? *catalog : nullptr;
  }
  std::unique_ptr<SqlConnection> raw() {
    auto db = open_sqlite_connection(db_path_);
    EXPECT_TRUE(db.ok());
    return std::move(*db);
  }
  std::vector<SqlRow> rows(const std::string& sql) {
    auto result = raw()->query(sql);
    EXPECT_TRUE(result.ok()) << result.status().to_string();
    return result.ok() ? *result : std::vector<SqlRow>{};
  }
  std::string write_metadata(const TableIdentifier& id, const std::string& file) {
    auto m = make_metadata(join_path(options_.warehouse, id.to_string()));
    std::string path = dir_ + "/" + file;
    EXPECT_TRUE(write_table_metadata(*make_local_file_io(), path, m).ok());
    return path;
  }

  std::string dir_, db_path_;
  CatalogOptions options_;
};

TEST_F(SqliteCatalogTest, TablesAndRowsLookLikeJdbcCatalogs) {
  auto catalog = open();
  ASSERT_TRUE(catalog);
  EXPECT_EQ(catalog->uri(), "sqlite:" + db_path_);
  EXPECT_EQ(rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"),
            (std::vector<SqlRow>{{"iceberg_namespace_properties"}, {"iceberg_tables"}}));
  EXPECT_EQ(rows("SELECT name, type, pk FROM pragma_table_info('iceberg_tables')"),
            (std::vector<SqlRow>{{"catalog_name", "VARCHAR(255)", "1"},
                                 {"table_namespace", "VARCHAR(255)", "2"},
                                 {"table_name", "VARCHAR(255)", "3"},
                                 {"metadata_location", "VARCHAR(1000)", "0"},
                                 {"previous_metadata_location", "VARCHAR(1000)", "0"},
                                 {"iceberg_type", "VARCHAR(5)", "0"}}));
  EXPECT_EQ(rows("SELECT name, type, pk FROM pragma_table_info('iceberg_namespace_properties')"),
            (std::vector<SqlRow>{{"catalog_name", "VARCHAR(255)", "1"},
                                 {"namespace", "VARCHAR(255)", "2"},
                                 {"property_key", "VARCHAR(255)", "3"},
                                 {"property_value", "VARCHAR(1000)", "0"}}));
  EXPECT_EQ(rows("PRAGMA journal_mode"), (std::vector<SqlRow>{{"wal"}}));

  ASSERT_TRUE(catalog->create_namespace({"analytics", "eu"}, {{"owner", "ana"}}).ok());
  TableIdentifier id{{"analytics", "eu"}, "sales"};
  auto first = catalog->create_table(id, make_metadata(catalog->default_table_location(id)));
  ASSERT_TRUE(first.ok()) << first.status().to_string();
  EXPECT_EQ(rows("SELECT * FROM iceberg_tables"),
            (std::vector<SqlRow>{{"lakehouse", "analytics.eu", "sales", *first, {}, "TABLE"}}));
  auto second = catalog->commit_table(id, *first, *catalog->load_metadata(id)->metadata);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(
      rows("SELECT * FROM iceberg_tables"),
      (std::vector<SqlRow>{{"lakehouse", "analytics.eu", "sales", *second, *first, "TABLE"}}));
  EXPECT_EQ(rows("SELECT * FROM iceberg_namespace_properties ORDER BY property_key"),
            (std::vector<SqlRow>{{"lakehouse", "analytics.eu", "exists", "true"},
                                 {"lakehouse", "analytics.eu", "owner", "ana"}}));
  EXPECT_EQ(second->rfind(options_.warehouse + "/analytics/eu/sales/metadata/00001-", 0), 0u)
      << *second;
  // The parent namespace exists through its child, as in JdbcCatalog.
  EXPECT_TRUE(*catalog->namespace_exists({"analytics"}));
  EXPECT_EQ(*catalog->list_namespaces({}), (std::vector<Namespace>{{"analytics"}}));
  EXPECT_EQ(catalog->drop_namespace({"analytics"}).kind(), ErrorKind::kInvalidArgument);
}

TEST_F(SqliteCatalogTest, OtherCatalogNamesAreInvisible) {
  auto lakehouse = open();
  ASSERT_TRUE(lakehouse->create_namespace({"ns"}).ok());
  options_.name = "other";
  auto other = open();
  EXPECT_FALSE(*other->namespace_exists({"ns"}));
  EXPECT_TRUE(other->list_namespaces({})->empty());
}

TEST_F(SqliteCatalogTest, AcceptsJavaV0DatabaseWithoutIcebergType) {
  auto db = raw();
  ASSERT_TRUE(db->execute("CREATE TABLE iceberg_tables(catalog_name VARCHAR(255) NOT NULL, "
                          "table_namespace VARCHAR(255) NOT NULL, table_name VARCHAR(255) NOT "
                          "NULL, metadata_location VARCHAR(1000), previous_metadata_location "
                          "VARCHAR(1000), PRIMARY KEY (catalog_name, table_namespace, "
                          "table_name))")
                  .ok());
  std::string java_file = write_metadata({{"db"}, "java_t"}, "java.metadata.json");
  ASSERT_TRUE(db->execute("INSERT INTO iceberg_tables VALUES ('lakehouse', 'db', 'java_t', ?, "
                          "NULL)",
                          {java_file})
                  .ok());
  db.reset();

  auto catalog = open();
  ASSERT_TRUE(catalog);
  EXPECT_TRUE(*catalog->namespace_exists({"db"}));  // implied by its table
  EXPECT_EQ(*catalog->list_tables({"db"}), (std::vector<TableIdentifier>{{{"db"}, "java_t"}}));
  auto loaded = catalog->load_metadata({{"db"}, "java_t"});
  ASSERT_TRUE(loaded.ok()) << loaded.status().to_string();
  EXPECT_EQ(loaded->location, java_file);
  TableIdentifier mine{{"db"}, "floe_t"};
  ASSERT_TRUE(
      catalog->create_table(mine, make_metadata(catalog->default_table_location(mine))).ok());
  ASSERT_TRUE(catalog->commit_table({{"db"}, "java_t"}, java_file, *loaded->metadata).ok());
  EXPECT_EQ(rows("SELECT count(*) FROM pragma_table_info('iceberg_tables')"),
            (std::vector<SqlRow>{{"5"}}));  // left as Java made it
  auto previous = raw()->query(
      "SELECT count(*) FROM iceberg_tables WHERE previous_metadata_location = ?", {java_file});
  ASSERT_TRUE(previous.ok());
  EXPECT_EQ(*previous, (std::vector<SqlRow>{{"1"}}));
}

TEST_F(SqliteCatalogTest, ViewsOfAV1DatabaseAreNotTables) {
  auto catalog = open();
  ASSERT_TRUE(catalog->create_namespace({"db"}).ok());
  std::string view_file = write_metadata({{"db"}, "v"}, "view.metadata.json");
  ASSERT_TRUE(raw()
                  ->execute("INSERT INTO iceberg_tables VALUES ('lakehouse', 'db', 'v', ?, "
                            "NULL, 'VIEW')",
                            {view_file})
                  .ok());
  EXPECT_TRUE(catalog->list_tables({"db"})->empty());
  EXPECT_FALSE(*catalog->table_exists({{"db"}, "v"}));
  EXPECT_EQ(catalog->load_metadata({{"db"}, "v"}).status().kind(), ErrorKind::kNotFound);
  TableIdentifier id{{"db"}, "v"};
  EXPECT_EQ(
      catalog->create_table(id, make_metadata(catalog->default_table_location(id))).status().kind(),
      ErrorKind::kAlreadyExists);
  EXPECT_EQ(catalog->drop_namespace({"db"}).kind(), ErrorKind::kInvalidArgument);
}

// Several processes, each with its own catalog on the same database file, increment a counter
// in the table properties with compare-and-swap retries; no increment may be lost.
TEST_F(SqliteCatalogTest, SeveralProcessesCommitWithoutLostUpdates) {
  TableIdentifier id{{"ns"}, "counter"};
  {
    auto catalog = open();
    ASSERT_TRUE(catalog->create_namespace({"ns"}).ok());
    auto m = make_metadata(catalog->default_table_location(id));
    m.properties["counter"] = "0";
    ASSERT_TRUE(catalog->create_table(id, m).ok());
  }
  constexpr int kProcesses = 3, kCommits = 10;
  increment_counter_from_processes("sqlite:" + db_path_, options_, id, kProcesses, kCommits);
  auto catalog = open();
  auto loaded = catalog->load_metadata(id);
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->metadata->property("counter"), std::to_string(kProcesses * kCommits));
  EXPECT_EQ(count_metadata_files(catalog->default_table_location(id) + "/metadata"),
            kProcesses * kCommits + 1);
}

}  // namespace
}  // namespace floe::catalog_test
