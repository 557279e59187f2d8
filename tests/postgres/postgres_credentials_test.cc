// PostgreSQL catalogs through the `floe` binary: the password of the connection string never
// shows (statements, EXPLAIN, DESCRIBE, SHOW, inspect, server errors), a libpq keyword string
// is a PostgreSQL catalog rather than a directory, and a path read given the catalog reads
// what it committed.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "catalog/catalog_test_support.h"
#include "catalog/sql_connection_internal.h"
#include "integration/cli_runner.h"

namespace {

namespace fs = std::filesystem;
using floe_test::CliRun;

// `floe <args>` with stdout and stderr (appended step by step: GCC 12 misreports the
// concatenation chain once inlined here).
CliRun run_floe(const std::string& args) {
  std::string cmd = FLOE_CLI_PATH;
  cmd += ' ';
  cmd += args;
  cmd += " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  int status = pclose(pipe);
  return {WEXITSTATUS(status), out};
}

constexpr const char* kSecret = "Zq9Secret";

class PostgresCredentials : public ::testing::Test {
 protected:
  void SetUp() override {
    auto uri = floe::catalog_test::postgres_uri();
    if (!uri) {
      if (floe::catalog_test::in_ci()) FAIL() << "PostgreSQL test server unavailable (CI=true)";
      GTEST_SKIP() << "no PostgreSQL: run scripts/start-postgres or set FLOE_TEST_POSTGRES_URI";
    }
    plain_ = *uri;
    // postgresql://postgres@host:port/db -> with a password (trust auth ignores it).
    auto at = plain_.find('@');
    ASSERT_NE(at, std::string::npos) << plain_;
    with_password_ = plain_.substr(0, at) + ":" + kSecret + plain_.substr(at);
    char tmpl[] = "/tmp/floe-pgcred-XXXXXX";
    dir_ = mkdtemp(tmpl);
    static int next = 0;
    name_ = "cred" + std::to_string(getpid()) + "_" + std::to_string(next++);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  CliRun floe(const std::string& catalog, const std::string& args) {
    return run_floe("--warehouse '" + dir_ + "/wh' --catalog \"" + catalog + "\" --catalog-name " +
                    name_ + " " + args);
  }
  void expect_no_secret(const CliRun& r, const std::string& what) {
    EXPECT_EQ(r.out.find(kSecret), std::string::npos) << what << ": " << r.out;
    EXPECT_EQ(r.out.find("Zq9"), std::string::npos) << what << ": " << r.out;
  }

  std::string plain_, with_password_, dir_, name_;
};

TEST_F(PostgresCredentials, PasswordNeverShows) {
  const std::string statements[] = {
      "CREATE NAMESPACE db",
      "CREATE TABLE db.t (i INT, s STRING) PARTITIONED BY (i)",
      "INSERT INTO db.t VALUES (1, 'a'), (2, 'b')",
      "SELECT count(*) FROM db.t",
      "EXPLAIN SELECT * FROM db.t WHERE i = 1",
      "DESCRIBE TABLE EXTENDED db.t",
      "SHOW TBLPROPERTIES db.t",
      "SHOW NAMESPACES",
      "SHOW TABLES IN db",
      "SHOW CREATE TABLE db.t",
      "SELECT * FROM db.t.snapshots",
      "SELECT * FROM db.nosuch",  // an error naming the catalog
  };
  for (const auto& s : statements) {
    auto r = floe(with_password_, "sql \"" + s + "\"");
    if (s.find("nosuch") == std::string::npos) {
      EXPECT_EQ(r.exit_code, 0) << s << ": " << r.out;
    }
    expect_no_secret(r, s);
  }
  auto inspect = floe(with_password_, "inspect db.t");
  EXPECT_EQ(inspect.exit_code, 0) << inspect.out;
  expect_no_secret(inspect, "inspect db.t");
  auto path = floe(with_password_, "--format json inspect '" + dir_ + "/wh/db/t'");
  EXPECT_EQ(path.exit_code, 0) << path.out;
  expect_no_secret(path, "inspect DIR");
  EXPECT_NE(path.out.find(":***@"), std::string::npos) << path.out;
  // Errors from the server and from libpq.
  std::string no_db = with_password_.substr(0, with_password_.rfind('/')) + "/no_such_db_x";
  auto missing = floe(no_db, "sql \"SHOW NAMESPACES\"");
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.out.find("no_such_db_x"), std::string::npos) << missing.out;
  expect_no_secret(missing, "missing database");
}

TEST_F(PostgresCredentials, KeywordStringIsAPostgresCatalog) {
  // postgresql://postgres@HOST:PORT/DB -> host=HOST port=PORT user=postgres dbname=DB
  std::string rest = plain_.substr(plain_.find('@') + 1);
  std::string host = rest.substr(0, rest.find(':'));
  std::string port = rest.substr(rest.find(':') + 1, rest.find('/') - rest.find(':') - 1);
  std::string db = rest.substr(rest.find('/') + 1);
  std::string keywords =
      "host=" + host + " port=" + port + " user=postgres dbname=" + db + " password=" + kSecret;
  auto r = floe(keywords,
                "--format json sql \"CREATE NAMESPACE db; CREATE TABLE db.k (i INT); INSERT INTO "
                "db.k VALUES (1), (2), (3); SELECT count(*) AS n FROM db.k\"");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("{\"n\":3}"), std::string::npos) << r.out;
  expect_no_secret(r, "keyword string");
  // The same table seen through the URI form: it is one catalog.
  auto same = floe(plain_, "--format json sql \"SELECT count(*) AS n FROM db.k\"");
  EXPECT_NE(same.out.find("{\"n\":3}"), std::string::npos) << same.out;
  for (const auto& e : fs::recursive_directory_iterator(dir_)) {
    EXPECT_EQ(e.path().string().find("host="), std::string::npos) << e.path();
  }
}

TEST_F(PostgresCredentials, PathReadGivenTheCatalogReadsWhatItCommitted) {
  ASSERT_EQ(floe(plain_,
                 "sql \"CREATE NAMESPACE db; CREATE TABLE db.t (i BIGINT); INSERT INTO "
                 "db.t SELECT id FROM range(400)\"")
                .exit_code,
            0);
  auto db = floe::open_postgres_connection(plain_);
  ASSERT_TRUE(db.ok()) << db.status().to_string();
  auto pointer = [&]() {
    auto rows = (*db)->query(
        "SELECT metadata_location FROM iceberg_tables WHERE catalog_name = ? AND table_name = 't'",
        {name_});
    return rows.ok() && rows->size() == 1 ? (*rows)[0][0].value_or("") : std::string();
  };
  std::string committed = pointer();
  ASSERT_EQ(floe(plain_, "sql \"INSERT INTO db.t SELECT id FROM range(200)\"").exit_code, 0);
  // As if the writer was killed before its swap: the newer file is uncommitted.
  ASSERT_TRUE((*db)
                  ->execute("UPDATE iceberg_tables SET metadata_location = ? WHERE "
                            "catalog_name = ? AND table_name = 't'",
                            {committed, name_})
                  .ok());
  auto scan = floe(plain_, "--format csv scan '" + dir_ + "/wh/db/t'");
  ASSERT_EQ(scan.exit_code, 0) << scan.out.substr(0, 1000);
  EXPECT_EQ(std::count(scan.out.begin(), scan.out.end(), '\n'), 401);  // header + 400 rows
}

}  // namespace
