// The catalog conformance suite on the catalogs that need no server (PostgreSQL: tests/postgres).
#include "catalog/catalog_conformance_suite.h"

namespace floe::catalog_test {

INSTANTIATE_TEST_SUITE_P(Catalogs, CatalogConformance,
                         ::testing::Values("memory", "sqlite", "hadoop"),
                         [](const auto& info) { return info.param; });

}  // namespace floe::catalog_test
