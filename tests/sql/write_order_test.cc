// Write ordering (ALTER TABLE ... WRITE [LOCALLY] ORDERED BY / DISTRIBUTED BY PARTITION /
// UNORDERED; floe/table/replace_sort_order.h): the sort order and write.distribution-mode each
// form sets, orders reused, and INSERTs that write every data file's rows in the order (keys
// through the transforms) and stamp its sort_order_id.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "floe/sql/load.h"
#include "floe/sql/session.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

using testing::error_of;
using testing::must;
using testing::rows;

class WriteOrder : public ::testing::Test {
 protected:
  void SetUp() override {
    SessionOptions o;
    o.warehouse = dir_.str();
    session_ = std::make_unique<Session>(o);
    must(s(), "CREATE NAMESPACE db");
    must(s(),
         "CREATE TABLE db.t (id BIGINT, cat STRING, ts TIMESTAMP) USING iceberg "
         "PARTITIONED BY (cat)");
  }
  Session& s() { return *session_; }
  std::string property(const std::string& key) {
    for (const auto& r : rows(s(), "SHOW TBLPROPERTIES db.t")) {
      auto j = nlohmann::json::parse(r);
      if (j[0] == key) return j[1];
    }
    return "<unset>";
  }
  // Rows of each data file in file order, by the given key expression: every file's keys must
  // not decrease (or not increase when `descending`).
  void expect_files_ordered(const std::string& key, bool descending = false) {
    auto out = rows(s(), "SELECT _file, _pos, " + key + " FROM db.t");
    std::map<std::string, std::map<int64_t, nlohmann::json>> by_file;
    for (const auto& r : out) {
      auto j = nlohmann::json::parse(r);
      by_file[j[0]][j[1].get<int64_t>()] = j[2];
    }
    for (const auto& [file, keys] : by_file) {
      const nlohmann::json* prev = nullptr;
      for (const auto& [pos, k] : keys) {
        if (prev && !prev->is_null() && !k.is_null()) {
          EXPECT_TRUE(descending ? *prev >= k : *prev <= k)
              << file << " pos " << pos << ": " << prev->dump() << " then " << k.dump();
        }
        prev = &k;
      }
    }
  }
  floe::test_support::TempDir dir_{"floe-write-order"};
  std::unique_ptr<Session> session_;
};

std::string random_rows(int n, int seed) {
  std::string values;
  for (int i = 0; i < n; ++i) {
    const int id = (i * 7919 + seed * 104729) % 1000;
    values += fmt::format(
        "{}({}, 'c{}', {})", i ? ", " : "", id, id % 3,
        id % 5 == 0 ? std::string("NULL")
                    : fmt::format("TIMESTAMP '2026-03-{:02d} {:02d}:00:00'", 1 + id % 28, id % 24));
  }
  return values;
}

TEST_F(WriteOrder, EachFormSetsOrderAndDistribution) {
  must(s(), "ALTER TABLE db.t WRITE ORDERED BY cat, id DESC");
  EXPECT_EQ(property("write.distribution-mode"), "range");
  must(s(), "INSERT INTO db.t VALUES " + random_rows(300, 1));
  expect_files_ordered("id", /*descending=*/true);
  EXPECT_EQ(rows(s(), "SELECT DISTINCT sort_order_id FROM db.t.files"),
            std::vector<std::string>{"[1]"});
  // Through transforms: bucket then day, nulls last.
  must(s(), "ALTER TABLE db.t WRITE LOCALLY ORDERED BY bucket(4, id), days(ts) NULLS LAST");
  EXPECT_EQ(property("write.distribution-mode"), "none");
  must(s(), "DELETE FROM db.t WHERE true");
  must(s(), "INSERT INTO db.t VALUES " + random_rows(300, 2));
  expect_files_ordered(
      "bucket(4, id) * 100000 + coalesce(datediff(days(ts), DATE '1970-01-01'), 99999)");
  EXPECT_EQ(rows(s(), "SELECT DISTINCT sort_order_id FROM db.t.files"),
            std::vector<std::string>{"[2]"});
  // The same order again is order 1 again.
  must(s(), "ALTER TABLE db.t WRITE DISTRIBUTED BY PARTITION LOCALLY ORDERED BY cat, id DESC");
  EXPECT_EQ(property("write.distribution-mode"), "hash");
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t.snapshots"), std::vector<std::string>{"[3]"});
  must(s(), "ALTER TABLE db.t WRITE UNORDERED");
  EXPECT_EQ(property("write.distribution-mode"), "none");
  must(s(), "INSERT INTO db.t VALUES (1, 'c1', NULL)");
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t.files WHERE sort_order_id IS NULL"),
            std::vector<std::string>{"[1]"});
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t"), std::vector<std::string>{"[301]"});
}

// floe load writes a CSV file's rows in the table's write order too.
TEST_F(WriteOrder, LoadFollowsTheWriteOrder) {
  must(s(), "ALTER TABLE db.t WRITE ORDERED BY cat, id DESC");
  const std::string csv = (dir_.path / "rows.csv").string();
  {
    std::ofstream out(csv);
    out << "id,cat,ts\n";
    for (int i = 0; i < 500; ++i) {
      const int id = (i * 7919) % 1000;
      out << id << ",c" << id % 3 << ",2026-03-0" << 1 + id % 9 << " 10:00:00\n";
    }
  }
  auto loaded = load_file(s(), "db.t", csv, LoadOptions{});
  ASSERT_TRUE(loaded.ok()) << loaded.status().to_string();
  EXPECT_EQ(loaded->rows, 500);
  expect_files_ordered("id", /*descending=*/true);
  EXPECT_EQ(rows(s(), "SELECT DISTINCT sort_order_id FROM db.t.files"),
            std::vector<std::string>{"[1]"});
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t"), std::vector<std::string>{"[500]"});
}

TEST_F(WriteOrder, BadOrdersAreRefused) {
  EXPECT_NE(error_of(s(), "ALTER TABLE db.t WRITE ORDERED BY nope").find("nope"),
            std::string::npos);
  EXPECT_NE(error_of(s(), "ALTER TABLE db.t WRITE ORDERED BY days(cat)").find("does not apply"),
            std::string::npos);
  EXPECT_EQ(property("write.distribution-mode"), "<unset>");
}

// Row-level writes follow the order too: MERGE's inserted rows and UPDATE's new versions (both
// modes) land in files sorted by the table order and stamped with it.
TEST_F(WriteOrder, RowLevelWritesFollowTheOrder) {
  for (const std::string mode : {"copy-on-write", "merge-on-read"}) {
    SCOPED_TRACE(mode);
    must(s(), "DROP TABLE IF EXISTS db.t");
    must(s(),
         "CREATE TABLE db.t (id BIGINT, cat STRING, ts TIMESTAMP) USING iceberg "
         "TBLPROPERTIES ('format-version'='2', 'write.update.mode'='" +
             mode + "', 'write.merge.mode'='" + mode + "')");
    must(s(), "ALTER TABLE db.t WRITE ORDERED BY id");
    must(s(), "INSERT INTO db.t VALUES " + random_rows(200, 3));
    must(s(),
         "MERGE INTO db.t USING (SELECT 2000 - id AS id FROM range(100)) src ON t.id = "
         "src.id WHEN NOT MATCHED THEN INSERT (id, cat, ts) VALUES (src.id, 'new', NULL)");
    must(s(), "UPDATE db.t SET id = 5000 - id WHERE id % 3 = 0");
    expect_files_ordered("id");
    EXPECT_EQ(rows(s(), "SELECT DISTINCT sort_order_id FROM db.t.data_files"),
              std::vector<std::string>{"[1]"});
    EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t"), std::vector<std::string>{"[300]"});
  }
}

}  // namespace
}  // namespace floe::sql
