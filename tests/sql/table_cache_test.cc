// CACHE [LAZY] TABLE, CACHE TABLE name AS SELECT, UNCACHE TABLE, CLEAR CACHE and DROP VIEW: a
// cached table is read from memory (its data files can be gone) while its snapshot stays, read
// again after a write, bypassed by time travel; a cached view runs its query again once a table
// under it changed.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "floe/sql/session.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

namespace fs = std::filesystem;
using testing::error_of;
using testing::must;
using testing::rows;
using testing::run;

class SessionCache : public ::testing::Test {
 protected:
  void SetUp() override {
    session_ = open_session();
    must(s(), "CREATE NAMESPACE db");
    must(s(), "CREATE TABLE db.t (id BIGINT, cat STRING) USING iceberg PARTITIONED BY (cat)");
    must(s(), "INSERT INTO db.t VALUES (1, 'a'), (2, 'b')");
    must(s(), "INSERT INTO db.t VALUES (3, 'a'), (4, 'c')");
  }
  std::unique_ptr<Session> open_session() {
    SessionOptions o;
    o.warehouse = dir_.str();
    return std::make_unique<Session>(o);
  }
  Session& s() { return *session_; }

  // Moves every data file of the warehouse away (`hide`) or back: a read that still works
  // while they are away did not read them.
  int hide_data_files(bool hide) {
    int moved = 0;
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(dir_.path)) {
      if (hide && e.path().extension() == ".parquet" &&
          e.path().string().find("/data/") != std::string::npos) {
        files.push_back(e.path());
      } else if (!hide && e.path().extension() == ".hidden") {
        files.push_back(e.path());
      }
    }
    for (const auto& f : files) {
      fs::path to = f;
      if (hide) {
        to += ".hidden";
      } else {
        to.replace_extension();
      }
      fs::rename(f, to);
      ++moved;
    }
    return moved;
  }
  std::string plan(const std::string& query) { return must(s(), "EXPLAIN " + query).explain; }
  std::string message(const std::string& sql) {
    auto out = must(s(), sql);
    return out.messages.empty() ? "" : out.messages.back();
  }
  std::string snapshot_id() {
    auto r = rows(s(), "SHOW TBLPROPERTIES db.t ('current-snapshot-id')");
    return r.empty() ? "" : nlohmann::json::parse(r[0])[1].get<std::string>();
  }

  floe::test_support::TempDir dir_{"floe-table-cache"};
  std::unique_ptr<Session> session_;
};

const std::vector<std::string> kAll = {"[1,\"a\"]", "[2,\"b\"]", "[3,\"a\"]", "[4,\"c\"]"};

TEST_F(SessionCache, CachedTableIsReadFromMemory) {
  const std::string snap = snapshot_id();
  EXPECT_EQ(message("CACHE TABLE db.t"), "cached table db.t: 4 rows of snapshot " + snap);
  // EXPLAIN: an in-memory scan, no Iceberg scan to plan.
  auto out = must(s(), "EXPLAIN SELECT id FROM db.t WHERE cat = 'a'");
  EXPECT_NE(out.explain.find("InMemoryTableScan db.t [id, cat]"), std::string::npos) << out.explain;
  EXPECT_NE(out.explain.find("Cached table db.t at snapshot " + snap + ": 4 rows"),
            std::string::npos)
      << out.explain;
  EXPECT_EQ(out.explain.find("BatchScan"), std::string::npos) << out.explain;
  EXPECT_TRUE(out.reports.empty());
  // With every data file gone, queries still answer from the cache, by any name of the table.
  EXPECT_EQ(hide_data_files(true), 4);
  EXPECT_EQ(rows(s(), "SELECT * FROM db.t ORDER BY id"), kAll);
  EXPECT_EQ(rows(s(), "SELECT id FROM lakehouse.db.t WHERE cat = 'a' ORDER BY id"),
            (std::vector<std::string>{"[1]", "[3]"}));
  EXPECT_EQ(rows(s(), "USE db; SELECT count(*), max(x.id) FROM t AS x JOIN t y ON x.id = y.id"),
            (std::vector<std::string>{"[4,4]"}));
  // Uncached, the table is read from its files again (which are gone).
  EXPECT_EQ(message("UNCACHE TABLE db.t"), "uncached table db.t");
  EXPECT_FALSE(run(s(), "SELECT * FROM db.t").ok());
  EXPECT_NE(plan("SELECT * FROM db.t").find("BatchScan"), std::string::npos);
  EXPECT_EQ(hide_data_files(false), 4);
  EXPECT_EQ(rows(s(), "SELECT * FROM db.t ORDER BY id"), kAll);
}

TEST_F(SessionCache, WritesRefreshTheCachedRows) {
  must(s(), "CACHE TABLE db.t");
  must(s(), "INSERT INTO db.t VALUES (5, 'b')");
  // The write left the cached rows stale: the next read reads the table and keeps its rows.
  EXPECT_NE(plan("SELECT * FROM db.t").find("read on this scan and kept"), std::string::npos);
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t"), std::vector<std::string>{"[5]"});
  EXPECT_NE(plan("SELECT * FROM db.t").find("at snapshot " + snapshot_id() + ": 5 rows"),
            std::string::npos);
  EXPECT_EQ(hide_data_files(true), 5);
  EXPECT_EQ(rows(s(), "SELECT max(id) FROM db.t"), std::vector<std::string>{"[5]"});
  EXPECT_EQ(hide_data_files(false), 5);
  // Row-level writes read the files (not the cache), then refresh it.
  must(s(), "DELETE FROM db.t WHERE cat = 'a'");
  EXPECT_EQ(rows(s(), "SELECT id FROM db.t ORDER BY id"),
            (std::vector<std::string>{"[2]", "[4]", "[5]"}));
  must(s(), "UPDATE db.t SET cat = 'z' WHERE id = 2");
  EXPECT_EQ(rows(s(), "SELECT cat FROM db.t WHERE id = 2"), std::vector<std::string>{"[\"z\"]"});
  // A schema change shows at once.
  must(s(), "ALTER TABLE db.t ADD COLUMN note STRING");
  EXPECT_EQ(rows(s(), "SELECT * FROM db.t WHERE id = 4"),
            std::vector<std::string>{"[4,\"c\",null]"});
  // Another writer's commit moves the snapshot: this session reads the new rows too.
  auto other = open_session();
  must(*other, "INSERT INTO db.t VALUES (6, 'd', 'x')");
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t"), std::vector<std::string>{"[4]"});
  // Metadata columns come from the files.
  EXPECT_EQ(rows(s(), "SELECT count(DISTINCT _file) > 0 FROM db.t"),
            std::vector<std::string>{"[true]"});
}

TEST_F(SessionCache, TimeTravelReadsTheFiles) {
  const std::string first = snapshot_id();
  must(s(), "INSERT INTO db.t VALUES (5, 'b')");
  must(s(), "CACHE TABLE db.t");
  const std::string travel = "SELECT count(*) FROM db.t VERSION AS OF " + first;
  EXPECT_EQ(rows(s(), travel), std::vector<std::string>{"[4]"});
  auto out = must(s(), "EXPLAIN " + travel);
  EXPECT_NE(out.explain.find("BatchScan"), std::string::npos) << out.explain;
  ASSERT_EQ(out.reports.size(), 1u);
  EXPECT_EQ(std::to_string(out.reports[0].snapshot_id), first);
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t"), std::vector<std::string>{"[5]"});
}

TEST_F(SessionCache, LazyCacheReadsOnFirstUse) {
  EXPECT_EQ(message("CACHE LAZY TABLE db.t"),
            "cached table db.t lazily: its rows are read on first use");
  EXPECT_NE(plan("SELECT * FROM db.t").find("read on this scan and kept"), std::string::npos);
  EXPECT_EQ(rows(s(), "SELECT id FROM db.t WHERE id > 3"), std::vector<std::string>{"[4]"});
  EXPECT_NE(plan("SELECT * FROM db.t").find(": 4 rows"), std::string::npos);
  hide_data_files(true);
  EXPECT_EQ(rows(s(), "SELECT * FROM db.t ORDER BY id"), kAll);
  hide_data_files(false);
}

TEST_F(SessionCache, CacheTableAsSelectMakesACachedView) {
  EXPECT_EQ(message("CACHE TABLE per_cat AS SELECT cat, count(*) AS n FROM db.t GROUP BY cat"),
            "cached view per_cat: 3 rows");
  const std::string q = "SELECT * FROM per_cat ORDER BY cat";
  EXPECT_EQ(rows(s(), q), (std::vector<std::string>{"[\"a\",2]", "[\"b\",1]", "[\"c\",1]"}));
  auto out = must(s(), "EXPLAIN " + q);
  EXPECT_NE(out.explain.find("InMemoryTableScan per_cat [cat, n]"), std::string::npos)
      << out.explain;
  EXPECT_TRUE(out.reports.empty());
  hide_data_files(true);
  EXPECT_EQ(rows(s(), "SELECT v.n FROM PER_CAT v WHERE v.cat = 'a'"),
            std::vector<std::string>{"[2]"});
  hide_data_files(false);
  // A write to a table under the view: the view's query runs again on its next read.
  must(s(), "INSERT INTO db.t VALUES (5, 'c'), (6, 'd')");
  EXPECT_EQ(rows(s(), q),
            (std::vector<std::string>{"[\"a\",2]", "[\"b\",1]", "[\"c\",2]", "[\"d\",1]"}));
  // Views over views, and a view joined with its table.
  must(s(), "CACHE LAZY TABLE big AS SELECT cat FROM per_cat WHERE n > 1");
  EXPECT_EQ(rows(s(), "SELECT t.id FROM db.t t JOIN big ON t.cat = big.cat ORDER BY t.id"),
            (std::vector<std::string>{"[1]", "[3]", "[4]", "[5]"}));
  // Uncached, a view still answers by running its query.
  EXPECT_EQ(message("UNCACHE TABLE per_cat"), "uncached view per_cat");
  EXPECT_NE(plan(q).find("BatchScan"), std::string::npos);
  EXPECT_EQ(rows(s(), "SELECT sum(n) FROM per_cat"), std::vector<std::string>{"[6]"});
  EXPECT_EQ(message("CACHE TABLE per_cat"), "cached view per_cat: 4 rows");
  // Names: one part, not taken; DROP VIEW frees it.
  EXPECT_EQ(error_of(s(), "CACHE TABLE db.v AS SELECT 1"),
            "CACHE TABLE ... AS SELECT makes a temporary view, whose name has no catalog or "
            "namespace: db.v");
  EXPECT_EQ(error_of(s(), "CACHE TABLE per_cat AS SELECT 1"),
            "temporary view per_cat already exists (DROP VIEW per_cat first)");
  EXPECT_EQ(message("DROP VIEW per_cat"), "dropped view per_cat");
  // A view built on a dropped view keeps its cached rows; uncached, its query fails.
  EXPECT_EQ(rows(s(), "SELECT * FROM big ORDER BY cat"),
            (std::vector<std::string>{"[\"a\"]", "[\"c\"]"}));
  must(s(), "UNCACHE TABLE big");
  EXPECT_NE(error_of(s(), "SELECT * FROM big").find("per_cat"), std::string::npos);
  must(s(), "DROP VIEW IF EXISTS per_cat");
  EXPECT_NE(error_of(s(), "DROP VIEW per_cat").find("view per_cat not found"), std::string::npos);
  EXPECT_EQ(message("CACHE TABLE per_cat AS SELECT 1 AS one"), "cached view per_cat: 1 row");
  EXPECT_EQ(rows(s(), "SELECT * FROM per_cat"), std::vector<std::string>{"[1]"});
  // A failing query caches nothing.
  EXPECT_FALSE(run(s(), "CACHE TABLE broken AS SELECT * FROM db.missing").ok());
  EXPECT_FALSE(run(s(), "SELECT * FROM broken").ok());
}

TEST_F(SessionCache, UncacheClearAndDrop) {
  EXPECT_NE(error_of(s(), "CACHE TABLE db.missing").find("not found"), std::string::npos);
  EXPECT_NE(error_of(s(), "UNCACHE TABLE db.missing").find("not found"), std::string::npos);
  EXPECT_TRUE(must(s(), "UNCACHE TABLE IF EXISTS db.missing").messages.empty());
  EXPECT_EQ(message("UNCACHE TABLE db.t"), "table db.t was not cached");
  must(s(), "CACHE TABLE db.t");
  must(s(), "CACHE TABLE v AS SELECT max(id) FROM db.t");
  EXPECT_EQ(message("CLEAR CACHE"), "cleared the cache (1 table, 1 view)");
  EXPECT_NE(plan("SELECT * FROM db.t").find("BatchScan"), std::string::npos);
  EXPECT_EQ(rows(s(), "SELECT * FROM v"), std::vector<std::string>{"[4]"});
  // A dropped table leaves the cache; a new table of that name is not cached.
  must(s(), "CACHE TABLE db.t");
  must(s(), "DROP TABLE db.t");
  must(s(), "CREATE TABLE db.t (id BIGINT, cat STRING) USING iceberg");
  EXPECT_TRUE(rows(s(), "SELECT * FROM db.t").empty());
  EXPECT_NE(plan("SELECT * FROM db.t").find("BatchScan"), std::string::npos);
  // A renamed cached table stays cached under its new name.
  must(s(), "INSERT INTO db.t VALUES (7, 'x')");
  must(s(), "CACHE TABLE db.t");
  must(s(), "ALTER TABLE db.t RENAME TO db.u");
  EXPECT_NE(plan("SELECT * FROM db.u").find("InMemoryTableScan db.u"), std::string::npos);
  EXPECT_EQ(rows(s(), "SELECT * FROM db.u"), std::vector<std::string>{"[7,\"x\"]"});
}

}  // namespace
}  // namespace floe::sql
