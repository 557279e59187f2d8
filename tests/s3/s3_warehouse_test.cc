// A warehouse on S3 (scripts/start-s3's server) with the catalog in SQLite: the lessons' three
// tables (sales, orders, logs) created, written, deleted from in merge-on-read mode, evolved,
// queried, compacted and maintained, statement by statement with the same results as the same
// script on local disk. Planning never lists the bucket; the filesystem catalog refuses S3.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "catalog/catalog_test_support.h"
#include "floe/io/s3_file_io.h"
#include "floe/sql/session.h"
#include "floe/table/remove_orphan_files.h"
#include "floe/table/table.h"
#include "s3/s3_test_util.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

using s3_testing::s3_server;
using s3_testing::unique_prefix;

// The lessons' tables, smaller: every statement's rows are compared between the two warehouses,
// except byte counts (files on S3 name longer paths: position delete files are larger).
const char* kScript[] = {
    "CREATE NAMESPACE analytics",
    // Lesson A: sales by day, metrics, pruning.
    "CREATE TABLE analytics.sales (sale_id BIGINT, user_id BIGINT, country STRING, amount "
    "DECIMAL(10, 2), event_ts TIMESTAMP) USING iceberg PARTITIONED BY (country, days(event_ts))",
    "INSERT INTO analytics.sales SELECT id, id % 997, element_at(array('DE', 'FR', 'US', 'JP'), "
    "CAST(id % 4 AS INT) + 1), CAST(id % 10000 AS DECIMAL(10, 2)) / 100, CAST(1780272000 + (id % "
    "7200) * "
    "60 AS TIMESTAMP) FROM range(0, 60000)",
    "INSERT INTO analytics.sales SELECT id, id % 13, 'BR', 1.50, TIMESTAMP '2026-06-07 10:00:00' "
    "FROM range(60000, 61000)",
    "SELECT country, count(*), sum(amount) FROM analytics.sales GROUP BY country ORDER BY country",
    "SELECT count(*) FROM analytics.sales WHERE event_ts >= TIMESTAMP '2026-06-03 00:00:00' AND "
    "event_ts < TIMESTAMP '2026-06-04 00:00:00' AND country = 'FR'",
    "SELECT count(*), min(sale_id), max(sale_id) FROM analytics.sales WHERE user_id = 42",
    "SELECT partition.country, count(*) FROM analytics.sales.files GROUP BY partition.country "
    "ORDER BY 1",
    "ALTER TABLE analytics.sales SET TBLPROPERTIES ('write.metadata.metrics.default' = 'none', "
    "'write.metadata.metrics.column.user_id' = 'full')",
    "CALL system.rewrite_manifests('analytics.sales')",
    "SELECT count(*), sum(amount) FROM analytics.sales WHERE user_id BETWEEN 10 AND 20",
    // Lesson B: orders in merge-on-read mode, point deletes, CDC upserts, compaction.
    "CREATE TABLE analytics.orders (order_id BIGINT, customer_id BIGINT, status STRING, total "
    "DOUBLE, order_date DATE) USING iceberg PARTITIONED BY (order_date) TBLPROPERTIES "
    "('format-version' = '2', 'write.delete.mode' = 'merge-on-read', 'write.update.mode' = "
    "'merge-on-read', 'write.merge.mode' = 'merge-on-read')",
    "INSERT INTO analytics.orders SELECT id, id % 500, element_at(array('new', 'paid', "
    "'shipped'), CAST(id % 3 AS INT) + 1), id * 1.25, DATE '2026-06-01' + CAST(id % 5 AS INT) "
    "FROM range(0, 40000)",
    "DELETE FROM analytics.orders WHERE order_id % 97 = 0",
    "DELETE FROM analytics.orders WHERE order_id = 5",
    "DELETE FROM analytics.orders WHERE order_id = 6",
    "UPDATE analytics.orders SET status = 'cancelled' WHERE customer_id = 7",
    "MERGE INTO analytics.orders t USING (SELECT id AS order_id, 'refunded' AS status FROM "
    "range(100, 120)) s ON t.order_id = s.order_id WHEN MATCHED THEN UPDATE SET t.status = "
    "s.status",
    "SELECT status, count(*), sum(total) FROM analytics.orders GROUP BY status ORDER BY status",
    "SELECT content, count(*), sum(record_count) FROM analytics.orders.delete_files GROUP BY "
    "content ORDER BY content",
    "CALL system.rewrite_position_delete_files(table => 'analytics.orders', options => "
    "map('rewrite-all', 'true'))",
    "CALL system.rewrite_data_files(table => 'analytics.orders', options => "
    "map('delete-file-threshold', '1'))",
    "SELECT count(*) FROM analytics.orders.delete_files",
    "SELECT status, count(*), sum(total) FROM analytics.orders GROUP BY status ORDER BY status",
    "SELECT order_id, status FROM analytics.orders WHERE order_id IN (5, 6, 7, 97, 100, 119) "
    "ORDER BY order_id",
    // Lesson C: logs from days to hours, schema evolution, the drop-column guard.
    "CREATE TABLE analytics.logs (log_id BIGINT, level STRING, message STRING, event_ts "
    "TIMESTAMP) USING iceberg PARTITIONED BY (days(event_ts))",
    "INSERT INTO analytics.logs SELECT id, element_at(array('INFO', 'WARN', 'ERROR'), CAST(id % "
    "3 AS INT) + 1), concat('m', id), CAST(1780272000 + (id % 48) * 3600 "
    "AS TIMESTAMP) FROM range(0, 20000)",
    "ALTER TABLE analytics.logs REPLACE PARTITION FIELD days(event_ts) WITH hours(event_ts)",
    "INSERT INTO analytics.logs SELECT id, 'DEBUG', concat('n', id), CAST(1780444800 + (id % 24) * "
    "3600 AS TIMESTAMP) FROM range(20000, 30000)",
    "ALTER TABLE analytics.logs ADD COLUMN host STRING",
    "ALTER TABLE analytics.logs RENAME COLUMN message TO msg",
    "INSERT INTO analytics.logs VALUES (30000, 'INFO', 'late', TIMESTAMP '2026-06-03 05:00:00', "
    "'web-1')",
    "SELECT level, count(*), count(host) FROM analytics.logs GROUP BY level ORDER BY level",
    "SELECT count(*) FROM analytics.logs WHERE event_ts >= TIMESTAMP '2026-06-03 04:00:00' AND "
    "event_ts < TIMESTAMP '2026-06-03 06:00:00'",
    "SELECT spec_id, count(*) FROM analytics.logs.files GROUP BY spec_id ORDER BY spec_id",
    "CALL system.rewrite_data_files(table => 'analytics.logs', options => map('rewrite-all', "
    "'true'))",
    "SELECT spec_id, count(*) FROM analytics.logs.files GROUP BY spec_id ORDER BY spec_id",
    "SELECT log_id, level, msg, host FROM analytics.logs WHERE log_id IN (0, 19999, 29999, 30000) "
    "ORDER BY log_id",
    "SELECT count(*) FROM analytics.logs.snapshots",
};

struct Outcome {
  bool ok = true;
  std::vector<std::string> rows;
  std::string error;
};

std::vector<Outcome> run_script(Session& s) {
  std::vector<Outcome> out;
  for (const char* sql : kScript) {
    auto r = testing::run(s, sql);
    Outcome o;
    o.ok = r.ok();
    if (r.ok()) {
      for (const auto& row : r->rows) {
        nlohmann::json values = nlohmann::json::parse(row), kept = nlohmann::json::array();
        for (size_t c = 0; c < values.size(); ++c) {
          if (c >= r->columns.size() || r->columns[c].find("bytes") == std::string::npos) {
            kept.push_back(values[c]);
          }
        }
        o.rows.push_back(kept.dump());
      }
    } else {
      o.error = r.status().message();
    }
    out.push_back(std::move(o));
  }
  return out;
}

class S3Warehouse : public ::testing::Test {
 protected:
  SessionOptions s3_options(const std::string& warehouse) {
    const auto& srv = s3_server();
    SessionOptions o;
    o.warehouse = warehouse;
    o.catalog_uri = "sqlite:" + (dir_.path / "s3-catalog.db").string();
    o.current_namespace = {"analytics"};
    o.catalog_properties = {{"s3.endpoint", srv.endpoint},
                            {"s3.access-key-id", srv.access_key_id},
                            {"s3.secret-access-key", srv.secret_access_key},
                            {"client.region", srv.region.empty() ? "us-east-1" : srv.region},
                            {"s3.path-style-access", "true"}};
    return o;
  }
  test_support::TempDir dir_{"floe-s3-warehouse"};
};

TEST_F(S3Warehouse, LessonTablesGiveTheSameResultsAsLocalDisk) {
  FLOE_REQUIRE_S3_SERVER();
  SessionOptions local;
  local.warehouse = (dir_.path / "local").string();
  local.current_namespace = {"analytics"};
  Session on_disk(local);
  const std::vector<Outcome> expected = run_script(on_disk);

  const std::string warehouse = unique_prefix("warehouse");
  Session on_s3(s3_options(warehouse));
  const std::vector<Outcome> got = run_script(on_s3);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE(kScript[i]);
    ASSERT_TRUE(expected[i].ok) << "on local disk: " << expected[i].error;
    ASSERT_TRUE(got[i].ok) << "on S3: " << got[i].error;
    EXPECT_EQ(got[i].rows, expected[i].rows);
  }

  // Everything lives in the bucket: data and metadata files, under the table locations.
  FileIOPtr io = *make_s3_file_io(s3_testing::server_options());
  auto files = io->list(warehouse);
  ASSERT_TRUE(files.ok()) << files.status().to_string();
  size_t data = 0, metadata = 0;
  for (const auto& f : *files) {
    if (f.path.ends_with(".parquet")) data++;
    if (f.path.ends_with(".metadata.json")) metadata++;
  }
  EXPECT_GT(data, 10u);
  EXPECT_GT(metadata, 10u);
  // remove_orphan_files lists the table's prefix of the bucket (the one operation that lists)
  // and, with a cutoff in the future, finds exactly a stray file: every other file under the
  // location is referenced.
  auto orders = on_s3.load_table({"analytics", "orders"});
  ASSERT_TRUE(orders.ok()) << orders.status().to_string();
  const std::string stray = orders->metadata->location + "/data/stray.parquet";
  ASSERT_TRUE(io->write_file(stray, "not parquet").ok());
  CatalogPtr catalog = *on_s3.catalog(false);
  auto table = Table::load(catalog, TableIdentifier{{"analytics"}, "orders"});
  ASSERT_TRUE(table.ok()) << table.status().to_string();
  RemoveOrphanFilesOptions ro;
  ro.older_than_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count() +
                     3600 * 1000;
  auto removed = remove_orphan_files(**table, ro);
  ASSERT_TRUE(removed.ok()) << removed.status().to_string();
  EXPECT_EQ(removed->orphans, std::vector<std::string>{stray});
  EXPECT_FALSE(*io->exists(stray));
  EXPECT_EQ(testing::rows(on_s3, "SELECT count(*) FROM analytics.orders"),
            testing::rows(on_disk, "SELECT count(*) FROM analytics.orders"));

  // expire_snapshots deletes what only old snapshots reached in bulk: DeleteObjects requests,
  // not one per file. What is left reads the same, and every file it references is there.
  const auto before = catalog->io()->counters().snapshot();
  auto expired = testing::run(on_s3,
                              "CALL system.expire_snapshots(table => 'analytics.orders', "
                              "older_than => TIMESTAMP '2100-01-01 00:00:00', retain_last => 1)");
  ASSERT_TRUE(expired.ok()) << expired.status().message();
  int64_t deleted = 0;
  for (auto& v : nlohmann::json::parse(expired->rows.at(0))) deleted += v.get<int64_t>();
  EXPECT_GT(deleted, 20);
  const auto used = catalog->io()->counters().snapshot() - before;
  EXPECT_LT(used.metadata_requests, deleted / 4) << deleted << " files deleted";
  EXPECT_EQ(testing::rows(on_s3,
                          "SELECT status, count(*) FROM analytics.orders GROUP BY status "
                          "ORDER BY status"),
            testing::rows(on_disk,
                          "SELECT status, count(*) FROM analytics.orders GROUP BY "
                          "status ORDER BY status"));
  for (const auto& row : testing::rows(on_s3, "SELECT file_path FROM analytics.orders.all_files")) {
    const std::string path = nlohmann::json::parse(row)[0];
    EXPECT_TRUE(*io->exists(path)) << path;
  }
}

// A scan plans from metadata alone: planning a filtered query reads the metadata, manifest
// list and manifests by GET and never lists the bucket.
TEST_F(S3Warehouse, PlanningNeverLists) {
  FLOE_REQUIRE_S3_SERVER();
  Session s(s3_options(unique_prefix("planning")));
  testing::must(s, "CREATE NAMESPACE analytics");
  testing::must(s, "CREATE TABLE t (id BIGINT, day DATE) USING iceberg PARTITIONED BY (day)");
  for (int i = 0; i < 5; ++i) {
    testing::must(s, fmt::format("INSERT INTO t VALUES ({}, DATE '2026-06-0{}')", i, i + 1));
  }
  auto table = s.catalog(false);
  ASSERT_TRUE(table.ok() && *table);
  const auto before = (*table)->io()->counters().snapshot();
  EXPECT_EQ(testing::rows(s, "SELECT id FROM t WHERE day = DATE '2026-06-03'"),
            std::vector<std::string>{"[2]"});
  const auto used = (*table)->io()->counters().snapshot() - before;
  EXPECT_EQ(used.metadata_requests, 0);  // no LIST, no HEAD
  EXPECT_GE(used.read_requests, 3);      // metadata.json, manifest list, manifest(s), data
}

// Two writers on one table on S3, through one SQLite catalog: the catalog's compare-and-swap
// decides each commit, the loser retries, and no insert is lost.
TEST_F(S3Warehouse, ConcurrentWritersLoseNothing) {
  FLOE_REQUIRE_S3_SERVER();
  const std::string warehouse = unique_prefix("concurrent");
  {
    Session s(s3_options(warehouse));
    testing::must(s, "CREATE NAMESPACE analytics");
    testing::must(s, "CREATE TABLE t (writer INT, n INT) USING iceberg");
  }
  constexpr int kWriters = 3, kInserts = 6;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      Session s(s3_options(warehouse));
      for (int i = 0; i < kInserts; ++i) {
        auto r = testing::run(s, fmt::format("INSERT INTO t VALUES ({}, {})", w, i));
        if (!r.ok()) {
          ADD_FAILURE() << r.status().message();
          failures++;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  Session s(s3_options(warehouse));
  EXPECT_EQ(
      testing::rows(s, "SELECT count(*), count(DISTINCT writer * 100 + n) FROM t"),
      std::vector<std::string>{fmt::format("[{},{}]", kWriters * kInserts, kWriters * kInserts)});
  EXPECT_EQ(testing::rows(s, "SELECT count(*) FROM t.snapshots"),
            std::vector<std::string>{fmt::format("[{}]", kWriters * kInserts)});
}

// The shared setup: tables on S3, the catalog in PostgreSQL (Java JdbcCatalog's tables), two
// sessions (two engines) seeing each other's commits.
TEST_F(S3Warehouse, PostgresCatalog) {
  FLOE_REQUIRE_S3_SERVER();
  auto pg = catalog_test::postgres_uri();
  ASSERT_TRUE(pg) << "no PostgreSQL test server: scripts/start-postgres";
  SessionOptions o = s3_options(unique_prefix("postgres"));
  o.catalog_uri = *pg;
  o.catalog_name = "s3_" + std::to_string(std::random_device{}());
  Session writer(o), reader(o);
  testing::must(writer, "CREATE NAMESPACE analytics");
  testing::must(writer,
                "CREATE TABLE orders (id BIGINT, status STRING) USING iceberg TBLPROPERTIES "
                "('format-version' = '2', 'write.delete.mode' = 'merge-on-read')");
  testing::must(writer, "INSERT INTO orders SELECT id, 'new' FROM range(0, 1000)");
  testing::must(writer, "DELETE FROM orders WHERE id % 4 = 0");
  EXPECT_EQ(testing::rows(reader, "SELECT count(*), sum(id) FROM orders"),
            std::vector<std::string>{"[750,375000]"});
  EXPECT_EQ(testing::rows(reader, "SELECT count(*) FROM orders.delete_files"),
            std::vector<std::string>{"[1]"});
  auto location = testing::rows(reader, "SELECT file_path FROM orders.files LIMIT 1");
  ASSERT_EQ(location.size(), 1u);
  EXPECT_NE(location[0].find("s3://" + s3_server().bucket + "/postgres-"), std::string::npos)
      << location[0];
  testing::must(writer, "DROP TABLE orders PURGE");
  testing::must(writer, "DROP NAMESPACE analytics");
}

// The filesystem catalog needs create-if-absent commits, which S3 lacks: refused, clearly.
// An S3 warehouse without a named catalog is an error too (no SQLite file in a bucket).
TEST_F(S3Warehouse, WarehouseNeedsASqlCatalog) {
  FLOE_REQUIRE_S3_SERVER();
  SessionOptions o = s3_options(unique_prefix("hadoop"));
  o.catalog_uri = "hadoop:" + o.warehouse;
  Session hadoop(o);
  auto r = testing::run(hadoop, "CREATE NAMESPACE analytics");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("cannot keep tables on S3"), std::string::npos)
      << r.status().message();
  o.catalog_uri.clear();
  Session unnamed(o);
  r = testing::run(unnamed, "CREATE NAMESPACE analytics");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("needs its catalog named"), std::string::npos)
      << r.status().message();
}

}  // namespace
}  // namespace floe::sql
