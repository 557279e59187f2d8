// Several `floe` processes appending to one table at once on the PostgreSQL catalog (JdbcCatalog
// layout) lose no commit: the final row count is the sum and every snapshot's totals follow from
// its parent's.
#include "catalog/catalog_test_support.h"
#include "integration/cli_concurrency.h"

namespace {

using floe_test::CliConcurrency;

TEST_F(CliConcurrency, PostgresAppendsFromManyProcessesLoseNoCommit) {
  auto uri = floe::catalog_test::postgres_uri();
  if (!uri) {
    if (floe::catalog_test::in_ci()) FAIL() << "PostgreSQL test server unavailable (CI=true)";
    GTEST_SKIP() << "no PostgreSQL: run scripts/start-postgres or set FLOE_TEST_POSTGRES_URI";
  }
  catalog_ = *uri;
  // A catalog name of its own keeps this test's tables apart from other tests on the server.
  catalog_name_ = "conc" + std::to_string(getpid());
  EXPECT_EQ(concurrent_appends(4, 25), 100);
}

TEST_F(CliConcurrency, PostgresConflictsWithoutRetriesCommitNothing) {
  auto uri = floe::catalog_test::postgres_uri();
  if (!uri) {
    if (floe::catalog_test::in_ci()) FAIL() << "PostgreSQL test server unavailable (CI=true)";
    GTEST_SKIP() << "no PostgreSQL: run scripts/start-postgres or set FLOE_TEST_POSTGRES_URI";
  }
  catalog_ = *uri;
  catalog_name_ = "confl" + std::to_string(getpid());
  EXPECT_GT(concurrent_appends(4, 10, /*retries=*/0), 0);
}

}  // namespace
