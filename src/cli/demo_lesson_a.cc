// floe demo, lesson A (docs/lessons.md): scan planning from the manifest list and manifests.
// The sales table written in 16 commits, its manifests and their partition summaries, the EXPLAIN
// funnel, metrics modes and manifest sizes, bucket vs day partitioning on range and equality
// predicates, rewrite_manifests, and the planning checklist (`floe doctor`).
#include <fmt/format.h>

#include "cli/demo_internal.h"

namespace floe::cli::demo {

namespace {

// The 80 columns of the wide table: 5 that queries filter on and 75 payload strings.
std::string wide_columns() {
  std::string cols =
      "id AS event_id, element_at(array('view', 'click', 'cart', 'purchase'), CAST(id % 4 AS "
      "INT) + 1) AS event_type, date_add(DATE '2024-06-01', CAST(id % 8 AS INT)) AS event_date, "
      "CAST(1717200000 + (id % 8) * 86400 + id % 86400 AS TIMESTAMP) AS event_ts, "
      "CAST(floor(rand(99) * 1000000) AS BIGINT) AS user_id";
  for (int i = 1; i <= 75; ++i) cols += fmt::format(", concat('v', rand({})) AS attr_{:02}", i, i);
  return cols;
}

// "truncate(4)" -> "truncate4": a table name for a metrics mode.
std::string metrics_name(const std::string& mode) {
  std::string name;
  for (char c : mode) {
    if (c != '(' && c != ')') name += c;
  }
  return name;
}

}  // namespace

Status lesson_a(Demo& demo) {
  const int64_t sales_rows = 2 * demo.rows();
  const std::string sales = "lakehouse.analytics.sales";
  demo.lesson("Lesson A: how Iceberg plans a scan from the manifest list and manifests");

  demo.step("A1. The sales table: PARTITIONED BY (country, days(event_ts)), 16 commits");
  demo.note(fmt::format(
      "The lesson assumes a sales table of several million rows. Here: {} rows over 8 countries "
      "and 4 weeks of June 2024, appended in 16 commits (one per week and pair of countries), so "
      "each commit leaves one manifest covering 2 countries and 7 days.",
      sales_rows));
  FLOE_TRY(demo.sql("CREATE NAMESPACE IF NOT EXISTS lakehouse.analytics"));
  FLOE_TRY(demo.sql("CREATE TABLE " + sales +
                    " (sale_id BIGINT, user_id BIGINT, country STRING, age INT, amount "
                    "DECIMAL(12, 2), event_ts TIMESTAMP) USING iceberg PARTITIONED BY (country, "
                    "days(event_ts))"));
  FLOE_TRY(demo.sql(fmt::format(
      "CACHE TABLE sales_source AS SELECT id AS sale_id, CAST(floor(rand(7) * {}) AS BIGINT) AS "
      "user_id, element_at(array('DE', 'DK', 'FR', 'IT', 'NL', 'PL', 'SE', 'US'), CAST(id % 8 AS "
      "INT) + 1) AS country, CAST(10 + floor(rand(8) * 60) AS INT) AS age, CAST(5 + rand(9) * 495 "
      "AS DECIMAL(12, 2)) AS amount, CAST(1717200000 + id * 2419200 DIV {} AS TIMESTAMP) AS "
      "event_ts FROM range(0, {})",
      sales_rows / 4, sales_rows, sales_rows)));
  const char* pairs[] = {"'DE', 'DK'", "'FR', 'IT'", "'NL', 'PL'", "'SE', 'US'"};
  const char* weeks[] = {"2024-06-01", "2024-06-08", "2024-06-15", "2024-06-22", "2024-06-29"};
  for (int w = 0; w < 4; ++w) {
    for (const char* pair : pairs) {
      FLOE_TRY(demo.sql(fmt::format(
          "INSERT INTO {} SELECT * FROM sales_source WHERE country IN ({}) AND event_ts >= '{}' "
          "AND event_ts < '{}'",
          sales, pair, weeks[w], weeks[w + 1])));
    }
  }

  demo.step("A2. Case 1: the manifests metadata table");
  FLOE_TRY(demo.sql(
      "SELECT\n    path,\n    length,\n    partition_spec_id,\n    added_snapshot_id,\n    "
      "added_data_files_count,\n    existing_data_files_count,\n    deleted_data_files_count,\n "
      "   partition_summaries\nFROM " +
          sales + ".manifests",
      4));
  demo.note(
      "The lesson's Python loop over these rows, as one query: a manifest whose country range "
      "cannot hold 'DE' is pruned without being read.");
  FLOE_TRY(demo.sql(
      "SELECT substring_index(path, '/', -1) AS manifest, partition_summaries[0].lower_bound AS "
      "lower, partition_summaries[0].upper_bound AS upper, added_data_files_count AS files, CASE "
      "WHEN 'DE' BETWEEN partition_summaries[0].lower_bound AND partition_summaries[0].upper_bound "
      "THEN 'kept for file-level pruning' ELSE 'PRUNED' END AS verdict FROM " +
          sales + ".manifests",
      8));

  demo.step("A3. Case 2: EXPLAIN and the planning funnel");
  FLOE_TRY(demo.sql("EXPLAIN FORMATTED SELECT *\nFROM " + sales +
                    "\nWHERE country = 'DE' AND age > 18"));
  demo.note(
      "Homework 1: no filter, a filter on the partition column only, and one on a partition "
      "and a non-partition column (sale_id grows with event_ts, so file metrics prune it).");
  FLOE_TRY(demo.explain("SELECT * FROM " + sales));
  FLOE_TRY(demo.explain("SELECT * FROM " + sales + " WHERE country = 'DE'"));
  FLOE_TRY(demo.explain(fmt::format("SELECT * FROM {} WHERE country = 'DE' AND sale_id < {}", sales,
                                    sales_rows / 100)));

  demo.step("A4. Case 3: write.metadata.metrics.default and per-column overrides");
  FLOE_TRY(demo.sql("ALTER TABLE " + sales +
                    " SET TBLPROPERTIES ('write.metadata.metrics.default' = 'truncate(16)')"));
  FLOE_TRY(demo.sql("ALTER TABLE " + sales +
                    " SET TBLPROPERTIES (\n    'write.metadata.metrics.default'              = "
                    "'none',\n    'write.metadata.metrics.column.event_ts'      = 'full',\n    "
                    "'write.metadata.metrics.column.country'       = 'full',\n    "
                    "'write.metadata.metrics.column.user_id'       = 'truncate(16)'\n)"));
  FLOE_TRY(demo.sql("SHOW TBLPROPERTIES " + sales));
  demo.note(
      "Homework 3: a copy written with metrics 'none' cannot prune files on a non-partition "
      "column; its manifest entries are smaller.");
  FLOE_TRY(
      demo.sql("CREATE TABLE lakehouse.analytics.sales_no_metrics USING iceberg "
               "PARTITIONED BY (country, days(event_ts)) TBLPROPERTIES "
               "('write.metadata.metrics.default' = 'none') AS SELECT * FROM " +
               sales));
  FLOE_TRY(
      demo.explain(fmt::format("SELECT * FROM {} WHERE sale_id < {}", sales, sales_rows / 100)));
  FLOE_TRY(demo.explain(fmt::format(
      "SELECT * FROM lakehouse.analytics.sales_no_metrics WHERE sale_id < {}", sales_rows / 100)));
  FLOE_TRY(
      demo.sql("SELECT 'sales' AS table_name, sum(length) DIV sum(added_data_files_count + "
               "existing_data_files_count) AS manifest_bytes_per_file FROM " +
               sales +
               ".manifests UNION ALL SELECT 'sales_no_metrics', sum(length) DIV "
               "sum(added_data_files_count + existing_data_files_count) FROM "
               "lakehouse.analytics.sales_no_metrics.manifests"));

  const std::string wide = "lakehouse.analytics.user_events_enriched";
  demo.step("A5. Case 3 measured: one batch of an 80-column table, full metrics vs 3 columns");
  FLOE_TRY(demo.sql(fmt::format("CACHE TABLE events_source AS SELECT {} FROM range(0, {})",
                                wide_columns(), demo.rows() / 25),
                    12));
  FLOE_TRY(demo.sql("CREATE TABLE " + wide +
                    " USING iceberg PARTITIONED BY (event_date, bucket(16, user_id)) "
                    "TBLPROPERTIES ('write.metadata.metrics.default' = 'full') AS SELECT * FROM "
                    "events_source"));
  FLOE_TRY(
      demo.sql("SELECT path, length FROM " + wide + ".manifests ORDER BY length DESC LIMIT 1"));
  FLOE_TRY(demo.sql("ALTER TABLE " + wide +
                    " SET TBLPROPERTIES ('write.metadata.metrics.default' = 'none', "
                    "'write.metadata.metrics.column.event_ts' = 'full', "
                    "'write.metadata.metrics.column.event_type' = 'full', "
                    "'write.metadata.metrics.column.user_id' = 'full')"));
  FLOE_TRY(demo.sql("SELECT count(*) AS cnt FROM " + wide + ".snapshots"));
  FLOE_TRY(demo.sql("INSERT INTO " + wide + " SELECT * FROM events_source"));
  FLOE_TRY(
      demo.sql("SELECT substring_index(path, '/', -1) AS manifest, length, "
               "added_data_files_count FROM " +
               wide + ".manifests ORDER BY length DESC"));

  demo.step("A6. The production case: measure manifests, change the metrics, rewrite_manifests");
  const std::string stats =
      "SELECT\n    count(*)                              AS manifest_count,\n    "
      "round(sum(length) / 1024.0 / 1024, 3)  AS total_size_mb,\n    round(avg(length) / 1024.0, "
      "1)        AS avg_size_kb,\n    sum(added_data_files_count\n        + "
      "existing_data_files_count)       AS total_files\nFROM " +
      wide + ".manifests";
  FLOE_TRY(demo.sql(stats));
  FLOE_TRY(demo.sql("ALTER TABLE " + wide +
                    " SET TBLPROPERTIES (\n    'write.metadata.metrics.default' = 'none',\n    "
                    "'write.metadata.metrics.column.event_date' = 'full',\n    "
                    "'write.metadata.metrics.column.event_type' = 'full',\n    "
                    "'write.metadata.metrics.column.user_id'    = 'truncate(16)',\n    "
                    "'write.metadata.metrics.column.event_ts'   = 'full'\n)"));
  FLOE_TRY(
      demo.sql("CALL lakehouse.system.rewrite_manifests(\n    table => "
               "'analytics.user_events_enriched'\n)"));
  FLOE_TRY(demo.sql(stats));

  demo.step("A7. Case 4: days(event_ts) vs bucket(16, user_id) on range and equality predicates");
  const std::string by_day = "lakehouse.analytics.sales_by_day";
  const std::string by_bucket = "lakehouse.analytics.sales_by_user_bucket";
  FLOE_TRY(demo.sql("CREATE TABLE IF NOT EXISTS " + by_day +
                    " (\n    sale_id BIGINT, user_id BIGINT, amount DOUBLE, event_ts TIMESTAMP\n)"
                    "\nUSING iceberg\nPARTITIONED BY (days(event_ts))"));
  FLOE_TRY(demo.sql("CREATE TABLE IF NOT EXISTS " + by_bucket +
                    " (\n    sale_id BIGINT, user_id BIGINT, amount DOUBLE, event_ts TIMESTAMP\n)"
                    "\nUSING iceberg\nPARTITIONED BY (bucket(16, user_id))"));
  demo.note("The same rows into both tables, one append per week (so each has 4 manifests).");
  for (int w = 0; w < 4; ++w) {
    for (const std::string& t : {by_day, by_bucket}) {
      FLOE_TRY(demo.sql(fmt::format(
          "INSERT INTO {} SELECT sale_id, user_id, amount, event_ts FROM {} WHERE event_ts >= "
          "'{}' AND event_ts < '{}'",
          t, sales, weeks[w], weeks[w + 1])));
    }
  }
  const std::string range = "\nWHERE event_ts >= '2024-06-15' AND event_ts < '2024-06-16'";
  FLOE_TRY(demo.explain("SELECT * FROM " + by_day + range));
  FLOE_TRY(demo.explain("SELECT * FROM " + by_bucket + range));
  FLOE_TRY(demo.explain("SELECT * FROM " + by_day + " WHERE user_id = 482910"));
  FLOE_TRY(demo.explain("SELECT * FROM " + by_bucket + " WHERE user_id = 482910"));
  demo.note(
      "Each weekly manifest holds all 16 buckets, so the equality predicate prunes files, not "
      "manifests. rewrite_manifests sorts entries by partition; with manifests small enough to "
      "hold a bucket or two (a large table fills its 8 MB ones), the predicate skips manifests.");
  FLOE_TRY(demo.sql("ALTER TABLE " + by_bucket +
                    " SET TBLPROPERTIES ('commit.manifest.target-size-bytes' = '4096')"));
  FLOE_TRY(demo.sql(
      "CALL lakehouse.system.rewrite_manifests(table => 'analytics.sales_by_user_bucket')"));
  FLOE_TRY(demo.explain("SELECT * FROM " + by_bucket + " WHERE user_id = 482910"));
  FLOE_TRY(demo.sql("SELECT count(*) FROM " + by_bucket + " WHERE user_id = 482910"));

  demo.step("A8. Problematic manifests (find_problematic_manifests)");
  demo.note(
      "Homework 2: age the table - a DELETE without compaction, and one append covering 60 "
      "days - then the lesson's find_problematic_manifests as two queries.");
  FLOE_TRY(demo.sql("DELETE FROM " + sales + " WHERE country = 'SE' AND event_ts < '2024-06-08'"));
  FLOE_TRY(demo.sql(fmt::format(
      "INSERT INTO {} SELECT {} + id AS sale_id, CAST(floor(rand(17) * {}) AS BIGINT) AS user_id, "
      "'DE' AS country, CAST(10 + floor(rand(18) * 60) AS INT) AS age, CAST(5 + rand(19) * 495 AS "
      "DECIMAL(12, 2)) AS amount, CAST(1714521600 + id * 5184000 DIV {} AS TIMESTAMP) AS event_ts "
      "FROM range(0, {})",
      sales, sales_rows, sales_rows / 4, sales_rows / 20, sales_rows / 20)));
  const std::string total =
      "added_data_files_count + existing_data_files_count + deleted_data_files_count";
  FLOE_TRY(demo.sql(fmt::format(
      "SELECT substring_index(path, '/', -1) AS manifest, round(deleted_data_files_count / ({}), "
      "2) AS deleted_ratio, {} AS total_files FROM {}.manifests WHERE deleted_data_files_count / "
      "({}) >= 0.3 ORDER BY deleted_ratio DESC LIMIT 5",
      total, total, sales, total)));
  const std::string range_days =
      "datediff(CAST(partition_summaries[1].upper_bound AS DATE), "
      "CAST(partition_summaries[1].lower_bound AS DATE))";
  FLOE_TRY(demo.sql(fmt::format(
      "SELECT substring_index(path, '/', -1) AS manifest, {} AS range_days, {} AS total_files "
      "FROM {}.manifests WHERE {} >= 30 ORDER BY range_days DESC LIMIT 5",
      range_days, total, sales, range_days)));
  demo.step("A9. floe doctor: the checklist from metadata, and the fix it names");
  FLOE_TRY(demo.doctor(sales));
  FLOE_TRY(demo.sql("CALL lakehouse.system.rewrite_manifests(table => 'analytics.sales')"));
  FLOE_TRY(demo.doctor(sales));

  demo.step("A10. Homework 4: STARTS_WITH under truncate(4), truncate(16) and full metrics");
  demo.note(
      "Three files per table, one per batch: real Mozilla agents, agents that share only 'Mozi' "
      "with them, and curl/Wget. truncate(4) keeps bounds 'Mozi'..'Mozj' for the second batch, "
      "which cannot rule out 'Mozilla'; longer bounds can.");
  FLOE_TRY(demo.sql(fmt::format(
      "CACHE TABLE hits_source AS SELECT id AS hit_id, CAST(id % 3 AS INT) AS batch, CASE id % 3 "
      "WHEN 0 THEN element_at(array('Mozilla/5.0 (X11; Linux x86_64)', 'Mozilla/5.0 (Macintosh; "
      "Intel Mac OS X 14_5)'), CAST(id % 2 AS INT) + 1) WHEN 1 THEN element_at(array('Mozio/2.0 "
      "(crawler)', 'Mozip/1.0'), CAST(id % 2 AS INT) + 1) ELSE element_at(array('curl/8.4.0', "
      "'Wget/1.21.4'), CAST(id % 2 AS INT) + 1) END AS user_agent FROM range(0, {})",
      demo.rows() / 50)));
  for (const char* mode : {"truncate(4)", "truncate(16)", "full"}) {
    FLOE_TRY(demo.sql(fmt::format(
        "CREATE TABLE lakehouse.analytics.hits_{} USING iceberg PARTITIONED BY (batch) "
        "TBLPROPERTIES ('write.metadata.metrics.default' = '{}') AS SELECT * FROM hits_source",
        metrics_name(mode), mode)));
  }
  for (const char* mode : {"truncate(4)", "truncate(16)", "full"}) {
    FLOE_TRY(demo.explain(fmt::format(
        "SELECT count(*) FROM lakehouse.analytics.hits_{} WHERE STARTS_WITH(user_agent, 'Mozilla')",
        metrics_name(mode))));
  }
  return Status::OK();
}

}  // namespace floe::cli::demo
