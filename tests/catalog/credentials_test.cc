// Catalog URIs are shown without their passwords, libpq keyword strings are recognised, and
// secrets are scrubbed from messages that quote pieces of the connection string.
#include <gtest/gtest.h>

#include "floe/catalog/catalog.h"

namespace floe {
namespace {

TEST(CatalogCredentials, RedactsEveryPasswordForm) {
  EXPECT_EQ(redact_catalog_uri("postgresql://ana:pw@db:5432/iceberg"),
            "postgresql://ana:***@db:5432/iceberg");
  EXPECT_EQ(redact_catalog_uri("postgresql://ana:p@ss/w@db/iceberg"),
            "postgresql://ana:***@db/iceberg");
  EXPECT_EQ(redact_catalog_uri("postgres://ana@db/iceberg?sslmode=off&password=pw&x=1"),
            "postgres://ana@db/iceberg?sslmode=off&password=***&x=1");
  EXPECT_EQ(redact_catalog_uri("host=db user=ana password=pw dbname=iceberg"),
            "host=db user=ana password=*** dbname=iceberg");
  EXPECT_EQ(redact_catalog_uri("host=db password = 'a b\\'c' dbname=x"),
            "host=db password = *** dbname=x");
  // An unquoted value with a space (a libpq syntax error) is hidden up to the next keyword.
  EXPECT_EQ(redact_catalog_uri("password=two words host=db"), "password=*** host=db");
  EXPECT_EQ(redact_catalog_uri("host=db sslpassword=k"), "host=db sslpassword=***");
  // Nothing secret: unchanged.
  EXPECT_EQ(redact_catalog_uri("postgresql://ana@db:5432/iceberg"),
            "postgresql://ana@db:5432/iceberg");
  EXPECT_EQ(redact_catalog_uri("sqlite:/wh/catalog.db"), "sqlite:/wh/catalog.db");
  EXPECT_EQ(redact_catalog_uri("/data/host=1/wh"), "/data/host=1/wh");
}

TEST(CatalogCredentials, RecognisesKeywordStrings) {
  EXPECT_TRUE(is_postgres_keyword_string("host=db dbname=x"));
  EXPECT_TRUE(is_postgres_keyword_string("  dbname = x"));
  EXPECT_TRUE(is_postgres_keyword_string("service=prod"));
  EXPECT_FALSE(is_postgres_keyword_string("warehouse"));
  EXPECT_FALSE(is_postgres_keyword_string("/tmp/host=x"));
  EXPECT_FALSE(is_postgres_keyword_string("color=blue"));
  EXPECT_FALSE(is_postgres_keyword_string("postgresql://a@b/c"));
}

TEST(CatalogCredentials, ScrubsSecretsAndTheirPiecesFromMessages) {
  auto secrets = catalog_uri_secrets("host=db password=two words dbname=x");
  EXPECT_EQ(scrub_secrets("missing \"=\" after \"words\" in connection info string", secrets),
            "missing \"=\" after \"***\" in connection info string");
  EXPECT_EQ(scrub_secrets("bad: two words", secrets), "bad: ***");
  EXPECT_EQ(scrub_secrets("bad: words", secrets), "bad: ***");
  auto encoded = catalog_uri_secrets("postgresql://a:p%40ss@db/x");
  EXPECT_EQ(scrub_secrets("auth failed for p@ss and p%40ss", encoded),
            "auth failed for *** and ***");
  EXPECT_EQ(scrub_secrets("nothing here", {}), "nothing here");
}

}  // namespace
}  // namespace floe
