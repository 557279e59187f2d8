// DELETE, UPDATE and MERGE INTO through a Session on the embedded catalog: Spark's semantics,
// the files each mode writes and removes, the snapshot each commits, and statements that fail
// leaving the table exactly as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "floe/sql/session.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

namespace fs = std::filesystem;
using testing::error_of;
using testing::must;
using testing::rows;

class RowLevel : public ::testing::Test {
 protected:
  void SetUp() override {
    SessionOptions o;
    o.warehouse = dir_.str();
    session_ = std::make_unique<Session>(o);
    must(s(), "CREATE NAMESPACE db");
  }
  Session& s() { return *session_; }

  // The orders table: 3 categories (partitions) of 4 rows, one file each.
  void make_orders(const std::string& properties = "") {
    must(s(),
         "CREATE TABLE db.t (id BIGINT, cat STRING, v DOUBLE) USING iceberg "
         "PARTITIONED BY (cat)" +
             (properties.empty() ? "" : " TBLPROPERTIES (" + properties + ")"));
    must(s(),
         "INSERT INTO db.t VALUES (1,'a',1.0),(2,'a',2.0),(3,'a',3.0),(4,'a',4.0),"
         "(5,'b',5.0),(6,'b',6.0),(7,'b',7.0),(8,'b',8.0),"
         "(9,'c',9.0),(10,'c',10.0),(11,'c',11.0),(12,'c',12.0)");
  }

  // Every file under the table's directory (data and metadata).
  std::set<std::string> files() const {
    std::set<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir_.path / "db" / "t")) {
      if (e.is_regular_file()) out.insert(e.path().string());
    }
    return out;
  }
  std::set<std::string> data_files() const {
    std::set<std::string> out;
    for (const auto& f : files()) {
      if (f.find("/data/") != std::string::npos) out.insert(f);
    }
    return out;
  }
  std::vector<std::string> ids() { return rows(s(), "SELECT id FROM db.t ORDER BY id"); }
  std::string last_operation() {
    auto r = rows(s(), "SELECT operation FROM db.t.snapshots ORDER BY committed_at DESC LIMIT 1");
    return r.empty() ? "" : r[0];
  }
  std::string summary(const std::string& key) {
    auto r = rows(s(), "SELECT summary['" + key +
                           "'] FROM db.t.snapshots ORDER BY committed_at DESC LIMIT 1");
    return r.empty() ? "" : r[0];
  }
  int64_t snapshots() {
    return std::stoll(rows(s(), "SELECT count(*) FROM db.t.snapshots")[0].substr(1));
  }

  floe::test_support::TempDir dir_{"floe-row-level"};
  std::unique_ptr<Session> session_;
};

std::vector<std::string> strs(std::initializer_list<int> ids) {
  std::vector<std::string> out;
  for (int i : ids) out.push_back("[" + std::to_string(i) + "]");
  return out;
}

TEST_F(RowLevel, MetadataColumnsFileAndPos) {
  make_orders();
  auto r = rows(s(), "SELECT _pos, id FROM db.t WHERE cat = 'b' ORDER BY id");
  EXPECT_EQ(r, (std::vector<std::string>{"[0,5]", "[1,6]", "[2,7]", "[3,8]"}));
  auto f = rows(s(), "SELECT DISTINCT _file FROM db.t WHERE cat = 'c'");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].find("/data/cat=c/"), std::string::npos) << f[0];
  // * does not expand to the metadata columns.
  EXPECT_EQ(must(s(), "SELECT * FROM db.t LIMIT 1").columns,
            (std::vector<std::string>{"id", "cat", "v"}));
}

TEST_F(RowLevel, CopyOnWriteDeleteRewritesOnlyTheFileHoldingTheRows) {
  make_orders();
  auto before = data_files();
  auto out = must(s(), "DELETE FROM db.t WHERE id = 6");
  ASSERT_EQ(out.messages.size(), 1u);
  EXPECT_EQ(out.messages[0].rfind("deleted 1 rows from db.t", 0), 0u) << out.messages[0];
  EXPECT_EQ(ids(), strs({1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12}));
  EXPECT_EQ(last_operation(), "[\"overwrite\"]");
  EXPECT_EQ(summary("deleted-data-files"), "[\"1\"]");
  EXPECT_EQ(summary("deleted-records"), "[\"4\"]");
  EXPECT_EQ(summary("added-records"), "[\"3\"]");
  // The live files: a and c untouched, b replaced.
  auto live = rows(s(), "SELECT file_path FROM db.t.files ORDER BY file_path");
  ASSERT_EQ(live.size(), 3u);
  int kept = 0;
  for (const auto& l : live) {
    for (const auto& b : before) kept += l.find(b) != std::string::npos;
  }
  EXPECT_EQ(kept, 2);
}

TEST_F(RowLevel, DeleteOfWholePartitionsIsMetadataOnly) {
  make_orders();
  auto before = data_files();
  must(s(), "DELETE FROM db.t WHERE cat = 'a' OR cat = 'c'");
  EXPECT_EQ(ids(), strs({5, 6, 7, 8}));
  EXPECT_EQ(last_operation(), "[\"delete\"]");
  EXPECT_EQ(summary("deleted-data-files"), "[\"2\"]");
  EXPECT_EQ(summary("deleted-records"), "[\"8\"]");
  EXPECT_EQ(data_files(), before);  // nothing written
  // Metrics prove it too: every row of file b has id >= 5.
  must(s(), "DELETE FROM db.t WHERE id >= 5");
  EXPECT_TRUE(ids().empty());
  EXPECT_EQ(last_operation(), "[\"delete\"]");
  EXPECT_EQ(data_files(), before);
}

TEST_F(RowLevel, DeleteWithSubqueryAndNoMatchCommitsNothingWhenNothingMatches) {
  make_orders();
  int64_t n = snapshots();
  auto out = must(s(), "DELETE FROM db.t WHERE id > 100");
  EXPECT_EQ(snapshots(), n);
  EXPECT_NE(out.messages[0].find("no change committed"), std::string::npos);
  must(s(), "DELETE FROM db.t WHERE id IN (SELECT id * 2 FROM range(1, 4) AS r(id))");
  EXPECT_EQ(ids(), strs({1, 3, 5, 7, 8, 9, 10, 11, 12}));
  // NULLs: a row whose condition is NULL stays (DELETE removes rows where it is TRUE).
  must(s(), "INSERT INTO db.t VALUES (13, 'a', NULL)");
  must(s(), "DELETE FROM db.t WHERE v < 100 AND id > 11");
  EXPECT_EQ(ids(), strs({1, 3, 5, 7, 8, 9, 10, 11, 13}));
}

TEST_F(RowLevel, UpdateSetsValuesAndMovesRowsBetweenPartitions) {
  make_orders();
  auto out = must(s(), "UPDATE db.t SET v = v * 10, cat = 'z' WHERE id IN (2, 10)");
  EXPECT_EQ(out.messages[0].rfind("updated 2 rows of db.t", 0), 0u) << out.messages[0];
  EXPECT_EQ(rows(s(), "SELECT id, cat, v FROM db.t WHERE cat = 'z' ORDER BY id"),
            (std::vector<std::string>{"[2,\"z\",20]", "[10,\"z\",100]"}));
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t"), (std::vector<std::string>{"[12]"}));
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t WHERE cat = 'a'"),
            (std::vector<std::string>{"[3]"}));
  // An alias and a value computed from several columns; unassigned columns keep their values.
  must(s(), "UPDATE db.t AS o SET o.v = o.id + o.v WHERE o.cat = 'b'");
  EXPECT_EQ(rows(s(), "SELECT v FROM db.t WHERE cat = 'b' ORDER BY id"),
            (std::vector<std::string>{"[10]", "[12]", "[14]", "[16]"}));
}

TEST_F(RowLevel, MergeAppliesTheFirstMatchingClauseOfEachKind) {
  make_orders();
  auto out = must(s(),
                  "MERGE INTO db.t t USING (SELECT * FROM VALUES (1, 'a', 100.0), (5, 'b', 500.0), "
                  "(20, 'd', 20.0), (21, 'd', 21.0) AS s(id, cat, v)) s ON t.id = s.id "
                  "WHEN MATCHED AND s.id = 1 THEN DELETE "
                  "WHEN MATCHED THEN UPDATE SET v = s.v "
                  "WHEN NOT MATCHED AND s.id = 21 THEN INSERT (id, cat) VALUES (s.id, 'e') "
                  "WHEN NOT MATCHED THEN INSERT * "
                  "WHEN NOT MATCHED BY SOURCE AND t.cat = 'c' THEN UPDATE SET v = -t.v");
  EXPECT_EQ(out.messages[0].rfind("merged into db.t: 5 rows updated, 1 deleted, 2 inserted", 0), 0u)
      << out.messages[0];
  EXPECT_EQ(rows(s(), "SELECT id, cat, v FROM db.t WHERE id IN (1, 5, 9, 20, 21) ORDER BY id"),
            (std::vector<std::string>{"[5,\"b\",500]", "[9,\"c\",-9]", "[20,\"d\",20]",
                                      "[21,\"e\",null]"}));
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t"), (std::vector<std::string>{"[13]"}));
  // UPDATE SET * and a NOT MATCHED BY SOURCE DELETE.
  must(s(),
       "MERGE INTO db.t t USING (SELECT 2 AS id, 'a' AS cat, 2.5 AS v) s ON t.id = s.id "
       "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED BY SOURCE AND t.id > 10 THEN DELETE");
  EXPECT_EQ(ids(), strs({2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(rows(s(), "SELECT v FROM db.t WHERE id = 2"), (std::vector<std::string>{"[2.5]"}));
}

TEST_F(RowLevel, FailedStatementsLeaveTheTableAsItWas) {
  make_orders();
  const int64_t n = snapshots();
  const auto before = files();
  // A target row matched by two source rows: nothing commits, nothing stays behind.
  EXPECT_NE(error_of(s(),
                     "MERGE INTO db.t t USING (SELECT * FROM VALUES (3, 1.0), (3, 2.0) "
                     "AS s(id, v)) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v")
                .find("more than one source row"),
            std::string::npos);
  EXPECT_NE(error_of(s(), "DELETE FROM db.t WHERE nope = 1").find("nope"), std::string::npos);
  EXPECT_NE(error_of(s(), "UPDATE db.t SET v = 'abc'").find("cannot safely cast `v`"),
            std::string::npos);
  EXPECT_NE(error_of(s(), "UPDATE db.t SET id = 1.5e300 WHERE id = 1").find("does not fit"),
            std::string::npos);
  EXPECT_NE(error_of(s(), "DELETE FROM db.t WHERE id = (SELECT id FROM range(2) AS r(id))")
                .find("more than one row"),
            std::string::npos);
  EXPECT_NE(error_of(s(), "UPDATE db.t SET nope = 1").find("cannot resolve column `nope`"),
            std::string::npos);
  EXPECT_NE(error_of(s(), "DELETE FROM db.t WHERE id").find("boolean"), std::string::npos);
  EXPECT_NE(error_of(s(), "DELETE FROM db.missing WHERE id = 1").find("not found"),
            std::string::npos);
  EXPECT_EQ(snapshots(), n);
  EXPECT_EQ(files(), before);
  EXPECT_EQ(ids(), strs({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
}

TEST_F(RowLevel, ModesAreCheckedPerOperation) {
  make_orders("'format-version'='1', 'write.delete.mode'='merge-on-read'");
  EXPECT_NE(error_of(s(), "DELETE FROM db.t WHERE id = 1").find("requires format version 2"),
            std::string::npos);
  // UPDATE has its own mode (copy-on-write by default) and works on v1.
  must(s(), "UPDATE db.t SET v = 0 WHERE id = 1");
  EXPECT_EQ(rows(s(), "SELECT v FROM db.t WHERE id = 1"), (std::vector<std::string>{"[0]"}));
  must(s(), "ALTER TABLE db.t SET TBLPROPERTIES ('write.update.mode'='sideways')");
  EXPECT_NE(error_of(s(), "UPDATE db.t SET v = 1").find("copy-on-write or merge-on-read"),
            std::string::npos);
}

TEST_F(RowLevel, TimeTravelSeesEveryEarlierVersion) {
  make_orders();
  std::vector<std::vector<std::string>> versions = {ids()};
  must(s(), "DELETE FROM db.t WHERE id % 3 = 0");
  versions.push_back(ids());
  must(s(), "UPDATE db.t SET id = id + 100 WHERE id < 3");
  versions.push_back(ids());
  must(s(),
       "MERGE INTO db.t t USING (SELECT 50 AS id, 'q' AS cat, 1.0 AS v) s ON t.id = s.id "
       "WHEN NOT MATCHED THEN INSERT *");
  versions.push_back(ids());
  auto snaps = rows(s(), "SELECT snapshot_id FROM db.t.snapshots ORDER BY committed_at");
  ASSERT_EQ(snaps.size(), versions.size());
  for (size_t i = 0; i < snaps.size(); ++i) {
    std::string id = snaps[i].substr(1, snaps[i].size() - 2);
    EXPECT_EQ(rows(s(), "SELECT id FROM db.t VERSION AS OF " + id + " ORDER BY id"), versions[i])
        << i;
  }
}

TEST_F(RowLevel, MergeOnReadDeleteOnV2WritesPositionDeleteFiles) {
  make_orders("'format-version'='2', 'write.delete.mode'='merge-on-read'");
  auto before = data_files();
  auto out = must(s(), "DELETE FROM db.t WHERE id IN (2, 3, 6)");
  ASSERT_EQ(out.messages.size(), 1u);
  EXPECT_NE(out.messages[0].find("2 delete files written"), std::string::npos) << out.messages[0];
  EXPECT_EQ(ids(), strs({1, 4, 5, 7, 8, 9, 10, 11, 12}));
  EXPECT_EQ(last_operation(), "[\"delete\"]");
  EXPECT_EQ(summary("added-position-delete-files"), "[\"2\"]");
  EXPECT_EQ(summary("added-delete-files"), "[\"2\"]");
  EXPECT_EQ(summary("added-position-deletes"), "[\"3\"]");
  EXPECT_EQ(summary("total-position-deletes"), "[\"3\"]");
  EXPECT_EQ(summary("added-data-files"), "[null]");
  // No data file is touched: the files of the table are the old ones plus two delete files.
  auto now = data_files();
  for (const auto& f : before) EXPECT_TRUE(now.count(f)) << f;
  EXPECT_EQ(now.size(), before.size() + 2);
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t.files WHERE content = 0"),
            (std::vector<std::string>{"[3]"}));
  // One file per data file (granularity file), in Parquet, holding its positions.
  auto deletes = rows(s(),
                      "SELECT content, file_format, record_count, partition.cat FROM "
                      "db.t.delete_files ORDER BY partition.cat");
  EXPECT_EQ(deletes,
            (std::vector<std::string>{"[1,\"PARQUET\",2,\"a\"]", "[1,\"PARQUET\",1,\"b\"]"}));
  // A second delete adds another file for partition a; reads apply both.
  must(s(), "DELETE FROM db.t WHERE id = 1");
  EXPECT_EQ(ids(), strs({4, 5, 7, 8, 9, 10, 11, 12}));
  EXPECT_EQ(summary("total-delete-files"), "[\"3\"]");
  EXPECT_EQ(summary("total-position-deletes"), "[\"4\"]");
}

TEST_F(RowLevel, MergeOnReadDeleteFormatAndGranularityFollowTheTable) {
  make_orders(
      "'format-version'='2', 'write.delete.mode'='merge-on-read', "
      "'write.delete.format.default'='avro'");
  // Two data files in partition a, so granularity decides how many delete files it gets.
  must(s(), "INSERT INTO db.t VALUES (13, 'a', 13.0), (14, 'a', 14.0)");
  must(s(), "DELETE FROM db.t WHERE id IN (1, 13)");
  EXPECT_EQ(rows(s(), "SELECT file_format, record_count FROM db.t.delete_files"),
            (std::vector<std::string>{"[\"AVRO\",1]", "[\"AVRO\",1]"}));
  must(s(), "ALTER TABLE db.t SET TBLPROPERTIES ('write.delete.granularity'='partition')");
  must(s(), "DELETE FROM db.t WHERE id IN (2, 14)");
  EXPECT_EQ(summary("added-position-delete-files"), "[\"1\"]");
  EXPECT_EQ(summary("added-position-deletes"), "[\"2\"]");
  EXPECT_EQ(ids(), strs({3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
}

TEST_F(RowLevel, MergeOnReadOnV3WritesOneDeletionVectorPerDataFile) {
  make_orders("'format-version'='3', 'write.delete.mode'='merge-on-read'");
  must(s(), "DELETE FROM db.t WHERE id IN (2, 6)");
  EXPECT_EQ(summary("added-dvs"), "[\"2\"]");
  EXPECT_EQ(summary("added-position-deletes"), "[\"2\"]");
  auto dvs = rows(s(),
                  "SELECT file_format, record_count, referenced_data_file IS NOT NULL, "
                  "content_offset IS NOT NULL, content_size_in_bytes > 0 FROM db.t.delete_files "
                  "ORDER BY partition.cat");
  EXPECT_EQ(dvs, (std::vector<std::string>{"[\"PUFFIN\",1,true,true,true]",
                                           "[\"PUFFIN\",1,true,true,true]"}));
  // A new delete on a file with a vector writes the union and removes the old one.
  must(s(), "DELETE FROM db.t WHERE id = 3");
  EXPECT_EQ(summary("added-dvs"), "[\"1\"]");
  EXPECT_EQ(summary("removed-dvs"), "[\"1\"]");
  EXPECT_EQ(rows(s(), "SELECT record_count FROM db.t.delete_files ORDER BY partition.cat"),
            (std::vector<std::string>{"[2]", "[1]"}));
  EXPECT_EQ(ids(), strs({1, 4, 5, 7, 8, 9, 10, 11, 12}));
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t.delete_files WHERE file_format = 'PARQUET'"),
            (std::vector<std::string>{"[0]"}));
}

TEST_F(RowLevel, MergeOnReadUpdateAndMergeAddRowsAndDeletes) {
  make_orders(
      "'format-version'='2', 'write.update.mode'='merge-on-read', "
      "'write.merge.mode'='merge-on-read'");
  auto before = data_files();
  must(s(), "UPDATE db.t SET v = -v WHERE id IN (1, 5)");
  EXPECT_EQ(last_operation(), "[\"overwrite\"]");
  EXPECT_EQ(summary("added-position-deletes"), "[\"2\"]");
  EXPECT_EQ(summary("added-records"), "[\"2\"]");
  EXPECT_EQ(rows(s(), "SELECT id, v FROM db.t WHERE id IN (1, 2, 5) ORDER BY id"),
            (std::vector<std::string>{"[1,-1]", "[2,2]", "[5,-5]"}));
  must(s(),
       "MERGE INTO db.t t USING (SELECT 2 AS id, 'a' AS cat, 20.0 AS v UNION ALL "
       "SELECT 3, 'a', 0.0 UNION ALL SELECT 40, 'd', 40.0) s ON t.id = s.id "
       "WHEN MATCHED AND s.v = 0 THEN DELETE WHEN MATCHED THEN UPDATE SET v = s.v "
       "WHEN NOT MATCHED THEN INSERT *");
  EXPECT_EQ(rows(s(), "SELECT id, v FROM db.t WHERE id IN (2, 3, 40) ORDER BY id"),
            (std::vector<std::string>{"[2,20]", "[40,40]"}));
  for (const auto& f : before) EXPECT_TRUE(data_files().count(f)) << f;
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t"), (std::vector<std::string>{"[12]"}));
}

TEST_F(RowLevel, MergeOnReadDeleteOfWholeFilesRemovesThemAndTheirDeletes) {
  make_orders("'format-version'='3', 'write.delete.mode'='merge-on-read'");
  must(s(), "DELETE FROM db.t WHERE id = 9");
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t.delete_files"), (std::vector<std::string>{"[1]"}));
  // Every row of partition c goes: the file is removed whole, with its deletion vector.
  auto out = must(s(), "DELETE FROM db.t WHERE cat = 'c'");
  ASSERT_EQ(out.messages.size(), 1u);
  // The live rows are counted: 4 in the file, 1 already deleted by its vector.
  EXPECT_EQ(out.messages[0].rfind("deleted 3 rows from db.t", 0), 0u) << out.messages[0];
  EXPECT_EQ(ids(), strs({1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(summary("deleted-data-files"), "[\"1\"]");
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t.delete_files"), (std::vector<std::string>{"[0]"}));
}

// Lesson B's orders table: 1,000,000 orders over 30 days, partitioned by days(event_ts), deletes
// in merge-on-read mode. A customer's 40 orders are consecutive, so they fall on one day.
TEST_F(RowLevel, LessonOrdersMergeOnReadDeletes) {
  must(s(),
       "CREATE TABLE db.orders (order_id BIGINT, customer_id BIGINT, status STRING, "
       "event_ts TIMESTAMP) USING iceberg PARTITIONED BY (days(event_ts)) TBLPROPERTIES "
       "('format-version'='2', 'write.delete.mode'='merge-on-read')");
  must(s(),
       "INSERT INTO db.orders SELECT id, CAST(id / 40 AS BIGINT), "
       "CASE WHEN id % 7 = 0 THEN 'cancelled' ELSE 'paid' END, "
       "CAST(1767225600 + id * 2.592 AS TIMESTAMP) FROM range(1000000)");
  auto data_before =
      rows(s(), "SELECT file_path FROM db.orders.files WHERE content = 0 ORDER BY file_path");
  EXPECT_EQ(data_before.size(), 30u);
  const std::string where = "status = 'cancelled' AND customer_id = 12345";
  auto matched = rows(s(), "SELECT count(*) FROM db.orders WHERE " + where);
  ASSERT_EQ(matched, (std::vector<std::string>{"[6]"}));
  must(s(), "DELETE FROM db.orders WHERE " + where);
  auto last = [&](const std::string& key) {
    return rows(s(), "SELECT summary['" + key +
                         "'] FROM db.orders.snapshots ORDER BY committed_at DESC LIMIT 1")[0];
  };
  EXPECT_EQ(last("added-delete-files"), "[\"1\"]");
  EXPECT_EQ(last("added-position-delete-files"), "[\"1\"]");
  EXPECT_EQ(last("added-position-deletes"), "[\"6\"]");
  EXPECT_EQ(
      rows(s(), "SELECT operation FROM db.orders.snapshots ORDER BY committed_at DESC LIMIT 1"),
      (std::vector<std::string>{"[\"delete\"]"}));
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.orders WHERE " + where),
            (std::vector<std::string>{"[0]"}));
  EXPECT_EQ(rows(s(), "SELECT file_path FROM db.orders.files WHERE content = 0 ORDER BY file_path"),
            data_before);
  // 25 point deletes on the same day: 25 more position delete files on that day's data file.
  auto day = rows(s(), "SELECT DISTINCT partition FROM db.orders.delete_files");
  ASSERT_EQ(day.size(), 1u);
  for (int k = 0; k < 25; ++k) {
    must(s(), "DELETE FROM db.orders WHERE order_id = " + std::to_string(493000 + 7 * k + 1));
  }
  EXPECT_EQ(rows(s(), "SELECT DISTINCT partition FROM db.orders.delete_files"), day);
  EXPECT_EQ(rows(s(),
                 "SELECT count(*), sum(record_count) FROM db.orders.delete_files "
                 "WHERE content = 1"),
            (std::vector<std::string>{"[26,31]"}));
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.orders"), (std::vector<std::string>{"[999969]"}));
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.orders WHERE order_id BETWEEN 493000 AND 493200"),
            (std::vector<std::string>{"[176]"}));
  // Time travel before the first delete sees every row.
  auto first =
      rows(s(), "SELECT snapshot_id FROM db.orders.snapshots ORDER BY committed_at LIMIT 1");
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.orders VERSION AS OF " +
                          first[0].substr(1, first[0].size() - 2)),
            (std::vector<std::string>{"[1000000]"}));
}

}  // namespace
}  // namespace floe::sql
