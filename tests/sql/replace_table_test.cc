// CREATE OR REPLACE TABLE and REPLACE TABLE [AS SELECT] (floe/table/replace_table.h): one atomic
// commit that keeps the table's uuid, history, tags and field ids, clears main and appends the
// query's rows; a failed replacement leaves the table as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "floe/sql/session.h"
#include "floe/table/table.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

namespace fs = std::filesystem;
using testing::error_of;
using testing::must;
using testing::rows;

class ReplaceTable : public ::testing::Test {
 protected:
  void SetUp() override {
    SessionOptions o;
    o.warehouse = dir_.str();
    session_ = std::make_unique<Session>(o);
    must(s(), "CREATE NAMESPACE db");
  }
  Session& s() { return *session_; }
  std::shared_ptr<const TableMetadata> metadata() {
    return testing::load_table(dir_.str(), "t")->metadata();
  }
  std::set<std::string> data_files_on_disk() const {
    std::set<std::string> out;
    if (!fs::exists(dir_.path / "db" / "t" / "data")) return out;
    for (const auto& e : fs::recursive_directory_iterator(dir_.path / "db" / "t" / "data")) {
      if (e.is_regular_file()) out.insert(e.path().string());
    }
    return out;
  }
  floe::test_support::TempDir dir_{"floe-replace"};
  std::unique_ptr<Session> session_;
};

TEST_F(ReplaceTable, KeepsHistoryAndIds) {
  must(s(),
       "CREATE TABLE db.t (id BIGINT, name STRING, cat STRING) USING iceberg PARTITIONED BY "
       "(bucket(4, id))");
  must(s(), "INSERT INTO db.t VALUES (1, 'a', 'x'), (2, 'b', 'y')");
  must(s(), "ALTER TABLE db.t CREATE TAG before");
  const auto before = metadata();
  const int64_t old_snapshot = *before->current_snapshot_id;
  must(s(),
       "CREATE OR REPLACE TABLE db.t USING iceberg PARTITIONED BY (bucket(4, id), cat) AS "
       "SELECT id * 10 AS id, cat, upper(name) AS label FROM db.t");
  const auto after = metadata();
  EXPECT_EQ(after->table_uuid, before->table_uuid);
  EXPECT_EQ(after->snapshots.size(), 2u);
  const Snapshot* current = after->current_snapshot();
  ASSERT_NE(current, nullptr);
  EXPECT_FALSE(current->parent_snapshot_id);  // main was cleared, then appended to
  EXPECT_EQ(after->refs.at("before").snapshot_id, old_snapshot);
  // Ids by name: id and cat keep 1 and 3, label is new (4); bucket(4, id) keeps 1000.
  const Schema& schema = *after->schema();
  EXPECT_EQ(schema.find_field("id")->id, 1);
  EXPECT_EQ(schema.find_field("cat")->id, 3);
  EXPECT_EQ(schema.find_field("label")->id, 4);
  EXPECT_EQ(after->last_column_id, 4);
  ASSERT_EQ(after->spec()->fields().size(), 2u);
  EXPECT_EQ(after->spec()->fields()[0].field_id, 1000);
  EXPECT_EQ(after->spec()->fields()[1].field_id, 1001);
  EXPECT_EQ(after->spec()->fields()[1].source_id, 3);
  EXPECT_EQ(rows(s(), "SELECT * FROM db.t ORDER BY id"),
            (std::vector<std::string>{"[10,\"x\",\"A\"]", "[20,\"y\",\"B\"]"}));
  // The old snapshot still reads with its own schema.
  EXPECT_EQ(rows(s(), "SELECT * FROM db.t VERSION AS OF 'before' ORDER BY id"),
            (std::vector<std::string>{"[1,\"a\",\"x\"]", "[2,\"b\",\"y\"]"}));
  // Without a query: the table is empty under the new definition; the format can go up.
  must(s(),
       "CREATE OR REPLACE TABLE db.t (id BIGINT, note STRING) USING iceberg "
       "TBLPROPERTIES ('format-version' = '3', 'k' = 'v')");
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t"), std::vector<std::string>{"[0]"});
  const auto empty = metadata();
  EXPECT_EQ(empty->format_version, 3);
  EXPECT_EQ(empty->properties.at("k"), "v");
  EXPECT_FALSE(empty->current_snapshot_id);
  EXPECT_EQ(empty->schema()->find_field("note")->id, 5);
  EXPECT_EQ(empty->snapshots.size(), 2u);
}

TEST_F(ReplaceTable, MissingTablesAndFailures) {
  EXPECT_NE(error_of(s(), "REPLACE TABLE db.t AS SELECT 1 AS x").find("does not exist"),
            std::string::npos);
  must(s(), "CREATE OR REPLACE TABLE db.t USING iceberg AS SELECT 1 AS x");  // creates it
  EXPECT_EQ(rows(s(), "SELECT x FROM db.t"), std::vector<std::string>{"[1]"});
  must(s(), "REPLACE TABLE db.t AS SELECT CAST(id AS STRING) AS y FROM range(3)");
  EXPECT_EQ(rows(s(), "SELECT y FROM db.t ORDER BY y"),
            (std::vector<std::string>{"[\"0\"]", "[\"1\"]", "[\"2\"]"}));
  // A query that fails while writing: nothing commits, no file is left behind.
  const auto before = metadata();
  const auto files = data_files_on_disk();
  // (an invalid regular expression at row 4,000)
  EXPECT_NE(error_of(s(),
                     "REPLACE TABLE db.t AS SELECT CAST(id AS STRING) AS y FROM range(5000) "
                     "WHERE 'a' RLIKE CASE WHEN id = 4000 THEN '[' ELSE 'a' END")
                .find("invalid regular expression"),
            std::string::npos);
  EXPECT_EQ(metadata()->metadata_log.size(), before->metadata_log.size());
  EXPECT_EQ(data_files_on_disk(), files);
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t"), std::vector<std::string>{"[3]"});
}

}  // namespace
}  // namespace floe::sql
