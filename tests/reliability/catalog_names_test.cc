// Catalog names, locations, secrets and crash safety, end to end through the `floe` binary:
//  - table and namespace names that would escape the warehouse or share a directory with another
//    name are refused where the location derives from the name; explicit LOCATIONs stay
//    allowed and are stored absolute;
//  - a PostgreSQL password never shows in an error, and a libpq keyword string is PostgreSQL,
//    not a directory;
//  - a path read of a catalog table reads what the catalog committed, not a newer metadata file
//    a killed writer left behind.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "integration/cli_runner.h"

namespace {

namespace fs = std::filesystem;
using floe_test::CliRun;
using floe_test::run_floe;

class CatalogNames : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/floe-names-XXXXXX";
    dir_ = mkdtemp(tmpl);
    // Deep enough that ../../../.. from a table stays inside the temp dir.
    warehouse_ = dir_ + "/a/b/warehouse";
    fs::create_directories(warehouse_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  CliRun floe(const std::string& args, const std::string& extra_global = "") {
    return run_floe("--warehouse '" + warehouse_ + "' " + extra_global + " " + args);
  }
  CliRun sql(const std::string& statements, const std::string& extra_global = "") {
    return floe("--format json sql \"" + shell_escaped(statements) + "\"", extra_global);
  }
  // Text for inside "..." of sh: backticks and the like stay literal.
  static std::string shell_escaped(const std::string& text) {
    std::string out;
    for (char c : text) {
      if (c == '`' || c == '"' || c == '$' || c == '\\') out += '\\';
      out += c;
    }
    return out;
  }
  // `floe` run from `cwd` (relative paths resolve there).
  CliRun floe_in(const std::string& cwd, const std::string& args) {
    return run_floe_cmd("cd '" + cwd + "' && " + FLOE_CLI_PATH + " " + args);
  }
  static CliRun run_floe_cmd(const std::string& cmd) {
    FILE* pipe = popen((cmd + " 2>&1").c_str(), "r");
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
    int status = pclose(pipe);
    return {WEXITSTATUS(status), out};
  }
  static int64_t count_of(const CliRun& r) {
    auto nl = r.out.find('\n');
    auto j = nlohmann::json::parse(r.out.substr(0, nl));
    return j.begin()->get<int64_t>();
  }
  // Every metadata file anywhere under `root`.
  static int metadata_files_under(const fs::path& root) {
    int n = 0;
    std::error_code ec;
    if (!fs::exists(root, ec)) return 0;
    for (const auto& e : fs::recursive_directory_iterator(root, ec)) {
      if (e.path().string().ends_with(".metadata.json")) ++n;
    }
    return n;
  }

  std::string dir_, warehouse_;
};

TEST_F(CatalogNames, TableNameWithParentStepsCannotWriteOutsideTheWarehouse) {
  ASSERT_EQ(sql("CREATE NAMESPACE db").exit_code, 0);
  auto r = sql("CREATE TABLE db.`../../../../elsewhere/x` (i INT)");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("table name '../../../../elsewhere/x' is not allowed"), std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(dir_ + "/elsewhere")) << "a table was written outside the warehouse";
  EXPECT_EQ(metadata_files_under(dir_), 0);
}

TEST_F(CatalogNames, DotDotTableNameDoesNotPutATableInTheWarehouseRoot) {
  ASSERT_EQ(sql("CREATE NAMESPACE db").exit_code, 0);
  auto r = sql("CREATE TABLE db.`..` (i INT)");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("table name '..' is not allowed"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(warehouse_ + "/metadata"));
  r = sql("CREATE TABLE db.`.` (i INT)");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_FALSE(fs::exists(warehouse_ + "/db/metadata"));
}

TEST_F(CatalogNames, SlashAndBackslashNamesCannotShareAnotherTablesDirectory) {
  ASSERT_EQ(sql("CREATE NAMESPACE db2; CREATE NAMESPACE db2.a").exit_code, 0);
  auto r = sql("CREATE TABLE db2.`a/b` (i INT)");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("'/' (byte 2) would split it into nested directories"), std::string::npos)
      << r.out;
  r = sql("CREATE TABLE db2.`a\\b` (i INT)");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("is not allowed"), std::string::npos) << r.out;
  // db2.a.b keeps its directory to itself.
  r = sql("CREATE TABLE db2.a.b (i INT); INSERT INTO db2.a.b VALUES (1), (2)");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(count_of(sql("SELECT count(*) FROM db2.a.b")), 2);
  EXPECT_EQ(metadata_files_under(warehouse_ + "/db2/a/b/metadata"), 2);
}

TEST_F(CatalogNames, NamespaceNamesThatAreNotDirectoriesAreRefused) {
  for (std::string ns : {"`..`", "`.`", "`x/y`", "db.`..`"}) {
    auto r = sql("CREATE NAMESPACE " + ns);
    EXPECT_NE(r.exit_code, 0) << ns << ": " << r.out;
    EXPECT_NE(r.out.find("namespace name"), std::string::npos) << ns << ": " << r.out;
  }
  // A level holding '.' would be another namespace in the SQL catalog's table layout.
  auto r = sql("CREATE NAMESPACE `p.q`");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("it would be the namespace p.q"), std::string::npos) << r.out;
  // With its own location the name is no directory.
  r = sql("CREATE NAMESPACE `x/y` LOCATION '" + dir_ + "/nsloc'");
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

TEST_F(CatalogNames, RenameToAPathNameIsRefused) {
  ASSERT_EQ(sql("CREATE NAMESPACE db; CREATE TABLE db.t (i INT)").exit_code, 0);
  for (std::string to : {"db.`../t2`", "db.`..`", "db.`a/b`"}) {
    auto r = sql("ALTER TABLE db.t RENAME TO " + to);
    EXPECT_NE(r.exit_code, 0) << to << ": " << r.out;
    EXPECT_NE(r.out.find("is not allowed"), std::string::npos) << to << ": " << r.out;
  }
  EXPECT_EQ(sql("ALTER TABLE db.t RENAME TO db.t2").exit_code, 0);
}

TEST_F(CatalogNames, FilesystemCatalogRefusesPathNames) {
  std::string hadoop = "--catalog 'hadoop:" + dir_ + "/hwh'";
  ASSERT_EQ(sql("CREATE NAMESPACE db", hadoop).exit_code, 0);
  auto r = sql("CREATE TABLE db.`..` (i INT)", hadoop);
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("table name '..' is not allowed"), std::string::npos) << r.out;
  r = sql("CREATE NAMESPACE `../up`", hadoop);
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_FALSE(fs::exists(dir_ + "/up"));
  EXPECT_EQ(metadata_files_under(dir_), 0);
}

TEST_F(CatalogNames, ExplicitLocationKeepsAnyNameAndIsStoredAbsolute) {
  std::string cwd = dir_ + "/work";
  fs::create_directories(cwd);
  std::string global = "--warehouse '" + warehouse_ + "' --format json ";
  auto r = floe_in(cwd, global + "sql \"" +
                            shell_escaped("CREATE NAMESPACE db; CREATE TABLE db.`a/b` (i INT) "
                                          "LOCATION 'rel/tbl'; INSERT INTO db.`a/b` VALUES (1), "
                                          "(2), (3)") +
                            "\"");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(fs::is_directory(cwd + "/rel/tbl/metadata"));
  // Read from another directory: the stored location is absolute.
  r = floe_in(dir_, global + "sql \"" + shell_escaped("SELECT count(*) FROM db.`a/b`") + "\"");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(count_of(r), 3);
  r = floe_in(dir_, global + "sql \"" + shell_escaped("DESCRIBE TABLE EXTENDED db.`a/b`") + "\"");
  EXPECT_NE(r.out.find(cwd + "/rel/tbl"), std::string::npos) << r.out;
}

TEST_F(CatalogNames, PostgresPasswordNeverShowsInConnectionErrors) {
  // Port 1: connection refused, no server needed.
  const std::string forms[] = {
      "postgresql://floe:Zq9Secret@127.0.0.1:1/iceberg",
      "postgresql://floe@127.0.0.1:1/iceberg?password=Zq9Secret&connect_timeout=2",
      "postgres://floe:Zq9%53ecret@127.0.0.1:1/iceberg",
      "host=127.0.0.1 port=1 user=floe password=Zq9Secret dbname=iceberg",
      "host=127.0.0.1 port=1 password='Zq9 Secret' dbname=iceberg",
      // Unquoted with a space: libpq's parse error cites the second word.
      "host=127.0.0.1 port=1 password=Zq9 SecretTail dbname=iceberg",
      // An unencoded '/' in the password: libpq misreads the URI and cites a piece.
      "postgresql://floe:Zq9/SecretTail@127.0.0.1:1/iceberg",
  };
  for (const auto& uri : forms) {
    for (bool env : {false, true}) {
      CliRun r =
          env ? run_floe_cmd("cd '" + dir_ + "' && FLOE_CATALOG=\"" + uri + "\" " + FLOE_CLI_PATH +
                             " --warehouse '" + warehouse_ + "' sql \"SHOW NAMESPACES\"")
              : sql("SHOW NAMESPACES", "--catalog \"" + uri + "\"");
      EXPECT_NE(r.exit_code, 0) << uri << ": " << r.out;
      EXPECT_EQ(r.out.find("Zq9"), std::string::npos) << uri << ": " << r.out;
      EXPECT_EQ(r.out.find("Secret"), std::string::npos) << uri << ": " << r.out;
      EXPECT_NE(r.out.find("PostgreSQL"), std::string::npos) << uri << ": " << r.out;
      EXPECT_NE(r.out.find("***"), std::string::npos) << uri << ": " << r.out;
    }
  }
  // The keyword string was not taken as a directory name.
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().find("host="), std::string::npos) << e.path();
  }
  for (const auto& e : fs::directory_iterator(warehouse_)) {
    EXPECT_EQ(e.path().filename().string().find("host="), std::string::npos) << e.path();
  }
}

// Sets the catalog's pointer for db.t back to `location` (what a writer killed after writing
// its metadata file, before the compare-and-swap, leaves: the newer file is uncommitted).
void set_pointer(const std::string& db_path, const std::string& location) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(db_path.c_str(), &db), SQLITE_OK);
  sqlite3_busy_timeout(db, 10000);
  std::string sql =
      "UPDATE iceberg_tables SET metadata_location = '" + location + "' WHERE table_name = 't'";
  char* err = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << err;
  sqlite3_free(err);
  EXPECT_EQ(sqlite3_changes(db), 1);
  sqlite3_close(db);
}

std::string query_pointer(const std::string& db_path) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(db_path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db, "SELECT metadata_location FROM iceberg_tables WHERE table_name = 't'", -1,
                     &stmt, nullptr);
  std::string out;
  if (sqlite3_step(stmt) == SQLITE_ROW) {
    out = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

TEST_F(CatalogNames, PathReadsFollowTheCatalogNotAnUncommittedMetadataFile) {
  ASSERT_EQ(sql("CREATE NAMESPACE db; CREATE TABLE db.t (i BIGINT); "
                "INSERT INTO db.t SELECT id FROM range(40000)")
                .exit_code,
            0);
  const std::string catalog_db = warehouse_ + "/catalog.db";
  const std::string committed = query_pointer(catalog_db);
  ASSERT_FALSE(committed.empty());
  // The next write's metadata file exists, but (as after a kill before the swap) the catalog
  // still names the previous one.
  ASSERT_EQ(sql("INSERT INTO db.t SELECT id FROM range(20000)").exit_code, 0);
  const std::string orphan = query_pointer(catalog_db);
  set_pointer(catalog_db, committed);
  // The hint beside the metadata is written after a swap, so it still names the committed file.
  {
    std::string stem = fs::path(committed).filename().string();
    stem = stem.substr(0, stem.size() - std::string(".metadata.json").size());
    std::ofstream(fs::path(orphan).parent_path() / "version-hint.text") << stem;
  }
  EXPECT_EQ(count_of(sql("SELECT count(*) FROM iceberg.`" + warehouse_ + "/db/t`")), 40000);

  const std::string table_dir = warehouse_ + "/db/t";
  EXPECT_EQ(count_of(sql("SELECT count(*) FROM db.t")), 40000);
  auto scan = floe("--format json scan '" + table_dir + "' --limit 100000");
  ASSERT_EQ(scan.exit_code, 0) << scan.out.substr(0, 2000);
  EXPECT_EQ(std::count(scan.out.begin(), scan.out.end(), '\n'), 40000);
  auto inspect = floe("--format json inspect '" + table_dir + "'");
  ASSERT_EQ(inspect.exit_code, 0) << inspect.out;
  EXPECT_NE(inspect.out.find(fs::path(committed).filename().string()), std::string::npos)
      << inspect.out;
  EXPECT_EQ(inspect.out.find(fs::path(orphan).filename().string()), std::string::npos)
      << inspect.out;
  auto meta = floe("--format json meta '" + table_dir + "' snapshots");
  ASSERT_EQ(meta.exit_code, 0) << meta.out;
  EXPECT_EQ(std::count(meta.out.begin(), meta.out.end(), '\n'), 1) << meta.out;

  // The next commit makes a second version-2 file; the orphan must still not win.
  ASSERT_EQ(sql("INSERT INTO db.t VALUES (1)").exit_code, 0);
  EXPECT_EQ(count_of(sql("SELECT count(*) FROM db.t")), 40001);
  scan = floe("--format json scan '" + table_dir + "' --limit 100000");
  EXPECT_EQ(std::count(scan.out.begin(), scan.out.end(), '\n'), 40001);
  // SQL's path read follows the hint the catalog keeps beside the metadata.
  EXPECT_EQ(count_of(sql("SELECT count(*) FROM iceberg.`" + table_dir + "`")), 40001);

  // Without the catalog (a copy of the files) the two version-2 files cannot be told apart,
  // and the error says how to choose.
  fs::copy(table_dir, dir_ + "/copy", fs::copy_options::recursive);
  fs::remove(dir_ + "/copy/metadata/version-hint.text");
  auto copy = floe("scan '" + dir_ + "/copy'");
  EXPECT_NE(copy.exit_code, 0) << copy.out;
  EXPECT_NE(copy.out.find("all claim version 2"), std::string::npos) << copy.out;
  EXPECT_NE(copy.out.find("pass the metadata file"), std::string::npos) << copy.out;
}

TEST_F(CatalogNames, PathReadsOfFilesystemAndCatalogFreeTablesStillWork) {
  std::string hadoop = "--catalog 'hadoop:" + dir_ + "/hwh'";
  ASSERT_EQ(sql("CREATE NAMESPACE db; CREATE TABLE db.t (i INT); INSERT INTO db.t VALUES (1), "
                "(2); INSERT INTO db.t VALUES (3)",
                hadoop)
                .exit_code,
            0);
  auto scan = floe("--format json scan '" + dir_ + "/hwh/db/t'");
  ASSERT_EQ(scan.exit_code, 0) << scan.out;
  EXPECT_EQ(std::count(scan.out.begin(), scan.out.end(), '\n'), 3);
  // A fixture written by another engine, with no catalog anywhere above it.
  fs::path fixture = floe_test::fixtures_dir() / "duckdb-iceberg" / "partition_time";
  if (!fs::exists(fixture)) GTEST_SKIP() << "fixtures not available";
  auto inspect = floe("inspect '" + fixture.string() + "'");
  EXPECT_EQ(inspect.exit_code, 0) << inspect.out;
  auto read = floe("--format json scan '" + fixture.string() + "' --limit 1");
  EXPECT_EQ(read.exit_code, 0) << read.out;
}

}  // namespace

namespace {

// scripts/crash-test, briefly: writers killed with SIGKILL at random points leave a table that
// loads through the catalog and by path, counts what its current snapshot says, and takes the
// next write.
TEST(CrashTest, KilledWritersLeaveOnlyCommittedData) {
  std::string cmd = std::string("FLOE='") + FLOE_CLI_PATH + "' CRASH_SEED=7 '" + FLOE_SOURCE_DIR +
                    "/scripts/crash-test' 10 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  int status = pclose(pipe);
  EXPECT_EQ(WEXITSTATUS(status), 0) << out;
  EXPECT_NE(out.find("crash-test: 10 rounds"), std::string::npos) << out;
  EXPECT_NE(out.find("0 unreadable, 0 count mismatches, 0 stale SQL path reads, 0 failed next "
                     "writes"),
            std::string::npos)
      << out;
}

}  // namespace
