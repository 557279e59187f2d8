// The catalog conformance suite on PostgreSQL (the server scripts/start-postgres runs; CTest's
// `postgres` fixture starts it), and the JdbcCatalog table layout there.
#include "catalog/catalog_conformance_suite.h"
#include "catalog/sql_connection_internal.h"

namespace floe::catalog_test {

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

}  // namespace floe::catalog_test
