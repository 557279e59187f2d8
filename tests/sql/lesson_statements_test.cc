// Statements of the lessons that needed more of Spark's SQL: startswith(col, 'x') planned as
// Iceberg's STARTS WITH exactly as LIKE 'x%' is, SHOW TBLPROPERTIES with Iceberg's reserved
// properties, and element_at / substring_index / typeof / rand in queries and writes.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "floe/sql/session.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

using testing::error_of;
using testing::must;
using testing::rows;

class LessonStatements : public testing::WarehouseTest {
 protected:
  ScanReport explain(const std::string& query) {
    auto out = must(s(), "EXPLAIN " + query);
    EXPECT_EQ(out.reports.size(), 1u) << query;
    return out.reports.empty() ? ScanReport{} : out.reports[0];
  }
  // SHOW TBLPROPERTIES as key -> value, checking the keys come sorted.
  std::vector<std::pair<std::string, std::string>> properties(const std::string& table) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& r : rows(s(), "SHOW TBLPROPERTIES " + table)) {
      auto j = nlohmann::json::parse(r);
      out.emplace_back(j[0], j[1]);
    }
    EXPECT_TRUE(std::is_sorted(out.begin(), out.end()));
    return out;
  }
  std::string property(const std::string& table, const std::string& key) {
    auto r = rows(s(), "SHOW TBLPROPERTIES " + table + " ('" + key + "')");
    EXPECT_EQ(r.size(), 1u);
    if (r.size() != 1) return "";
    auto j = nlohmann::json::parse(r[0]);
    EXPECT_EQ(j[0], key);
    return j[1];
  }
};

// The lesson's exercise: STARTS_WITH(user_agent, 'Mozilla') prunes files by their bounds as
// user_agent LIKE 'Mozilla%' does, with the same pushed filter, the same skipped files and the
// same rows; a NULL never matches.
TEST_F(LessonStatements, StartsWithIsPushedAsLikePrefix) {
  must(s(),
       "CREATE TABLE db.hits (id BIGINT, user_agent STRING) USING iceberg "
       "TBLPROPERTIES ('write.metadata.metrics.default' = 'full')");
  // One data file per INSERT: two that may hold Mozilla, one that cannot, one all NULL.
  must(s(), "INSERT INTO db.hits VALUES (1, 'Mozilla/5.0 (X11)'), (2, 'Mozilla/5.0 (Mac)')");
  must(s(), "INSERT INTO db.hits VALUES (3, 'curl/8.4.0'), (4, 'Wget/1.21')");
  must(s(), "INSERT INTO db.hits VALUES (5, 'Mozilla/4.0'), (6, NULL)");
  must(s(), "INSERT INTO db.hits VALUES (7, NULL), (8, NULL)");
  const std::string select = "SELECT id FROM db.hits WHERE ";
  const std::string order = " ORDER BY id";
  const ScanReport like = explain(select + "user_agent LIKE 'Mozilla%'");
  EXPECT_NE(like.filter.find("Mozilla"), std::string::npos) << like.filter;
  EXPECT_EQ(like.scanned_data_files, 2);
  EXPECT_EQ(like.skipped_data_files, 2);
  const std::vector<std::string> expected = {"[1]", "[2]", "[5]"};
  EXPECT_EQ(rows(s(), select + "user_agent LIKE 'Mozilla%'" + order), expected);
  for (const std::string pred :
       {"startswith(user_agent, 'Mozilla')", "STARTS_WITH(user_agent, 'Mozilla')",
        "starts_with(hits.user_agent, 'Mozilla')",
        "id > 0 AND startswith(user_agent, 'Mozilla')"}) {
    SCOPED_TRACE(pred);
    const ScanReport r = explain(select + pred);
    if (pred.starts_with("id")) {
      EXPECT_NE(r.filter.find(like.filter), std::string::npos) << r.filter;
    } else {
      EXPECT_EQ(r.filter, like.filter);
    }
    EXPECT_EQ(r.total_data_files, like.total_data_files);
    EXPECT_EQ(r.skipped_data_files, like.skipped_data_files);
    EXPECT_EQ(r.scanned_data_files, like.scanned_data_files);
    EXPECT_EQ(rows(s(), select + pred + order), expected);
  }
  auto text = must(s(), "EXPLAIN " + select + "startswith(user_agent, 'Mozilla')").explain;
  EXPECT_NE(text.find("PushedFilters: [" + like.filter + "]"), std::string::npos) << text;
  // What is not a constant string prefix stays above the scan, with the same results as Spark.
  for (const std::string pred :
       {"startswith(user_agent, substr(user_agent, 1, 4))", "startswith(user_agent, NULL)",
        "NOT startswith(user_agent, 'Mozilla')", "startswith('Mozilla/5.0', user_agent)"}) {
    SCOPED_TRACE(pred);
    EXPECT_EQ(explain(select + pred).skipped_data_files, 0);
  }
  EXPECT_EQ(rows(s(), select + "startswith(user_agent, substr(user_agent, 1, 4))" + order),
            (std::vector<std::string>{"[1]", "[2]", "[3]", "[4]", "[5]"}));
  EXPECT_TRUE(rows(s(), select + "startswith(user_agent, NULL)").empty());
  EXPECT_EQ(rows(s(), select + "NOT startswith(user_agent, 'Mozilla')" + order),
            (std::vector<std::string>{"[3]", "[4]"}));
  EXPECT_EQ(rows(s(),
                 "SELECT startswith(user_agent, 'Mo') FROM db.hits WHERE id IN (1, 3, 6)"
                 " ORDER BY id"),
            (std::vector<std::string>{"[true]", "[false]", "[null]"}));
  // An empty prefix matches every non-NULL value.
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.hits WHERE startswith(user_agent, '')"),
            std::vector<std::string>{"[5]"});
}

// SHOW TBLPROPERTIES lists what Spark with Iceberg's catalog lists: format, current-snapshot-id
// (none before the first write), format-version, sort-order and identifier-fields when set,
// and the table's properties; each works as a single key.
TEST_F(LessonStatements, ShowTblPropertiesHasReservedProperties) {
  must(s(),
       "CREATE TABLE db.orders (order_id BIGINT NOT NULL, status STRING) USING iceberg "
       "TBLPROPERTIES ('format-version' = '2', 'write.delete.mode' = 'merge-on-read')");
  auto props = properties("db.orders");
  EXPECT_NE(std::find(props.begin(), props.end(),
                      std::pair<std::string, std::string>("current-snapshot-id", "none")),
            props.end());
  EXPECT_NE(std::find(props.begin(), props.end(),
                      std::pair<std::string, std::string>("format", "iceberg/parquet")),
            props.end());
  EXPECT_NE(std::find(props.begin(), props.end(),
                      std::pair<std::string, std::string>("format-version", "2")),
            props.end());
  EXPECT_NE(std::find(props.begin(), props.end(),
                      std::pair<std::string, std::string>("write.delete.mode", "merge-on-read")),
            props.end());
  for (const auto& [k, v] : props) {
    EXPECT_NE(k, "sort-order");
    EXPECT_NE(k, "identifier-fields");
    EXPECT_NE(k, "location");
    EXPECT_NE(k, "provider");
  }
  EXPECT_EQ(property("db.orders", "current-snapshot-id"), "none");
  EXPECT_EQ(property("db.orders", "format-version"), "2");
  EXPECT_EQ(property("db.orders", "write.delete.mode"), "merge-on-read");
  EXPECT_EQ(property("db.orders", "nope"), "Table db.orders does not have property: nope");

  must(s(), "INSERT INTO db.orders VALUES (1, 'paid')");
  const std::string current =
      nlohmann::json::parse(rows(s(), "SELECT snapshot_id FROM db.orders.snapshots")[0])[0].dump();
  EXPECT_EQ(property("db.orders", "current-snapshot-id"), current);
  must(s(), "ALTER TABLE db.orders WRITE ORDERED BY order_id DESC, bucket(4, status)");
  EXPECT_EQ(property("db.orders", "sort-order"),
            "order_id DESC NULLS LAST, bucket(4, status) ASC NULLS FIRST");
  must(s(), "ALTER TABLE db.orders SET IDENTIFIER FIELDS order_id");
  EXPECT_EQ(property("db.orders", "identifier-fields"), "[order_id]");
  must(s(), "ALTER TABLE db.orders SET TBLPROPERTIES ('write.format.default' = 'avro')");
  EXPECT_EQ(property("db.orders", "format"), "iceberg/avro");

  must(s(), "CREATE TABLE db.old (id BIGINT) USING iceberg TBLPROPERTIES ('format-version' = '1')");
  EXPECT_EQ(property("db.old", "format-version"), "1");
}

// The lessons' Python, as SQL: the last path segment, the type of a column, and random test
// data generated by INSERT ... SELECT with rand and element_at.
TEST_F(LessonStatements, FunctionsInQueriesAndWrites) {
  must(s(),
       "CREATE TABLE db.orders (order_id BIGINT, customer_id BIGINT, status STRING, "
       "amount DECIMAL(10, 2), event_ts TIMESTAMP) USING iceberg PARTITIONED BY (days(event_ts))");
  must(s(),
       "INSERT INTO db.orders SELECT id, CAST(floor(rand(11) * 50000) AS BIGINT) + 1, "
       "element_at(array('created', 'paid', 'shipped', 'cancelled', 'refunded'), "
       "CAST(floor(rand(12) * 5) AS INT) + 1), CAST(5 + rand(13) * 495 AS DECIMAL(10, 2)), "
       "CAST(date_add(DATE '2024-01-01', CAST(id % 30 AS INT)) AS TIMESTAMP) "
       "FROM range(1, 3001)");
  EXPECT_EQ(rows(s(),
                 "SELECT count(*), count(DISTINCT status), min(customer_id) >= 1, "
                 "max(customer_id) <= 50000, min(amount) >= 5, max(amount) <= 500 "
                 "FROM db.orders"),
            std::vector<std::string>{"[3000,5,true,true,true,true]"});
  EXPECT_EQ(rows(s(),
                 "SELECT count(*) FROM db.orders WHERE status NOT IN ('created', 'paid', "
                 "'shipped', 'cancelled', 'refunded')"),
            std::vector<std::string>{"[0]"});
  // The same seed gives the same values again.
  const std::string sample = "SELECT id, rand(5) FROM range(100)";
  EXPECT_EQ(rows(s(), sample), rows(s(), sample));
  EXPECT_NE(rows(s(), sample), rows(s(), "SELECT id, rand(6) FROM range(100)"));
  EXPECT_EQ(rows(s(),
                 "SELECT min(r) >= 0, max(r) < 1, count(DISTINCT r) FROM "
                 "(SELECT rand() AS r FROM range(1000))"),
            std::vector<std::string>{"[true,true,1000]"});
  // file_path.split('/')[-1] two ways.
  auto names = rows(s(),
                    "SELECT element_at(split(file_path, '/'), -1), "
                    "substring_index(file_path, '/', -1) FROM db.orders.files");
  ASSERT_EQ(names.size(), 30u);
  for (const auto& r : names) {
    auto j = nlohmann::json::parse(r);
    EXPECT_EQ(j[0], j[1]);
    EXPECT_TRUE(j[0].get<std::string>().ends_with(".parquet")) << r;
    EXPECT_EQ(j[0].get<std::string>().find('/'), std::string::npos) << r;
  }
  EXPECT_EQ(rows(s(),
                 "SELECT typeof(order_id), typeof(status), typeof(amount), typeof(event_ts)"
                 " FROM db.orders LIMIT 1"),
            std::vector<std::string>{"[\"bigint\",\"string\",\"decimal(10,2)\",\"timestamp\"]"});
  EXPECT_EQ(rows(s(), "SELECT typeof(partition) FROM db.orders.files LIMIT 1"),
            std::vector<std::string>{"[\"struct<event_ts_day:date>\"]"});
  EXPECT_NE(error_of(s(), "SELECT element_at(array(1, 2), 0)").find("index 0 is invalid"),
            std::string::npos);
  EXPECT_EQ(rows(s(),
                 "SELECT element_at(array(1, 2), -1), element_at(array(1, 2), 3), "
                 "element_at(map('a', 1), 'a')"),
            std::vector<std::string>{"[2,null,1]"});
}

}  // namespace
}  // namespace floe::sql
