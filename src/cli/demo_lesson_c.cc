// floe demo, lesson C (docs/lessons.md): partition evolution. The logs table moved from days to
// hours without rewriting data (both path layouts side by side), planning split per spec,
// partition field ids given back on re-add, rewriting old files into the new spec, the
// drop-column guard, and the IoT table's three eras (unpartitioned -> months -> days + bucket).
#include <fmt/format.h>

#include "cli/demo_internal.h"

namespace floe::cli::demo {

Status lesson_c(Demo& demo) {
  const int64_t per_day = demo.rows() / 2000;  // the lesson's 500 rows a day
  const int64_t per_hour = demo.rows() / 500;  // and 2000 an hour after the traffic grew
  const int64_t era = demo.rows() / 10;        // IoT rows per era
  const std::string logs = "lakehouse.analytics.logs";
  demo.lesson("Lesson C: partition evolution");

  // Live files by partition directory layout: the lesson lists the S3 prefixes.
  const std::string layout =
      "SELECT regexp_replace(directory, '=[^/]*', '') AS layout, count(*) AS directories, "
      "min(directory) AS first, max(directory) AS last FROM (SELECT DISTINCT "
      "regexp_extract(file_path, '/data/(.*)/[^/]+$', 1) AS directory FROM " +
      logs + ".files) GROUP BY 1 ORDER BY 1";

  demo.step("C1. Case 1: the logs table, partitioned by days(event_ts), and a month of history");
  FLOE_TRY(demo.sql("CREATE NAMESPACE IF NOT EXISTS lakehouse.analytics"));
  FLOE_TRY(demo.sql("CREATE TABLE " + logs +
                    " (\n    log_id BIGINT, service STRING, level STRING, event_ts TIMESTAMP\n)\n"
                    "USING iceberg\nPARTITIONED BY (days(event_ts))\nTBLPROPERTIES "
                    "('format-version' = '2')"));
  FLOE_TRY(demo.sql(fmt::format(
      "INSERT INTO {} SELECT CAST(floor(rand(1) * 10000000) AS BIGINT) + 1 AS log_id, "
      "element_at(array('api', 'worker', 'scheduler'), CAST(floor(rand(2) * 3) AS INT) + 1) AS "
      "service, element_at(array('INFO', 'WARN', 'ERROR'), CAST(floor(rand(3) * 3) AS INT) + 1) "
      "AS level, CAST(1777593600 + (id DIV {}) * 86400 + CAST(floor(rand(4) * 86400) AS BIGINT) "
      "AS TIMESTAMP) AS event_ts FROM range(0, {})",
      logs, per_day, 30 * per_day)));
  FLOE_TRY(demo.sql(layout));

  demo.step("C2. Case 2: days -> hours; no snapshot, no file rewritten");
  FLOE_TRY(demo.sql("SELECT count(*) AS cnt FROM " + logs + ".snapshots"));
  FLOE_TRY(demo.sql("ALTER TABLE " + logs + "\nADD PARTITION FIELD hours(event_ts)"));
  FLOE_TRY(demo.sql("SELECT count(*) AS cnt FROM " + logs + ".snapshots"));
  FLOE_TRY(demo.sql("ALTER TABLE " + logs + "\nDROP PARTITION FIELD days(event_ts)"));
  FLOE_TRY(demo.sql(fmt::format(
      "INSERT INTO {} SELECT CAST(floor(rand(5) * 10000000) AS BIGINT) + 1 AS log_id, "
      "element_at(array('api', 'worker', 'scheduler'), CAST(floor(rand(6) * 3) AS INT) + 1) AS "
      "service, element_at(array('INFO', 'WARN', 'ERROR'), CAST(floor(rand(7) * 3) AS INT) + 1) "
      "AS level, CAST(1781913600 + (id DIV {}) * 3600 + CAST(floor(rand(8) * 3600) AS BIGINT) AS "
      "TIMESTAMP) AS event_ts FROM range(0, {})",
      logs, per_hour, 24 * per_hour)));
  FLOE_TRY(demo.sql(layout));

  demo.step("C3. Case 3: reading across both specs, and the metadata");
  FLOE_TRY(demo.sql("DESCRIBE TABLE EXTENDED " + logs, 40));
  FLOE_TRY(demo.sql_error("SELECT spec_id, count(*) AS manifest_count\nFROM " + logs +
                          ".manifests\nGROUP BY spec_id"));
  FLOE_TRY(demo.sql("SELECT partition_spec_id, count(*) AS manifest_count\nFROM " + logs +
                    ".manifests\nGROUP BY partition_spec_id"));
  const std::string unified = "SELECT service, count(*) AS error_count\nFROM " + logs +
                              "\nWHERE event_ts >= '2026-05-15' AND event_ts < '2026-06-21'\n  "
                              "AND level = 'ERROR'\nGROUP BY service";
  FLOE_TRY(demo.sql(unified));
  FLOE_TRY(demo.sql("EXPLAIN FORMATTED " + unified));
  demo.note(
      "Each manifest is pruned with the predicate projected onto its own spec: a two-hour "
      "window skips the day manifest and the other hours.");
  FLOE_TRY(demo.explain("SELECT * FROM " + logs +
                        " WHERE event_ts >= '2026-06-20 10:00:00' AND event_ts < '2026-06-20 "
                        "12:00:00'"));

  demo.step("C4. Case 4: drop and re-add hours(event_ts): the field id comes back");
  FLOE_TRY(demo.inspect_specs("analytics/logs"));
  FLOE_TRY(demo.sql("ALTER TABLE " + logs + " DROP PARTITION FIELD hours(event_ts)"));
  FLOE_TRY(demo.sql("ALTER TABLE " + logs + " ADD PARTITION FIELD hours(event_ts)"));
  FLOE_TRY(demo.inspect_specs("analytics/logs"));
  demo.note("Another engine on the same catalog sees the change at once (the lesson's Trino):");
  FLOE_TRY(demo.sql("DESCRIBE " + logs));
  FLOE_TRY(demo.sql("SELECT service, count(*)\nFROM " + logs +
                    "\nWHERE event_ts >= TIMESTAMP '2026-05-15' AND event_ts < TIMESTAMP "
                    "'2026-06-21'\nGROUP BY service"));

  demo.step("C5. Rewriting the old files into the current spec");
  FLOE_TRY(
      demo.sql("CALL lakehouse.system.rewrite_data_files(\n    table => 'analytics.logs',\n"
               "    where => 'event_ts < TIMESTAMP \\'2026-06-01\\''\n)"));
  FLOE_TRY(demo.sql("SELECT spec_id, count(*) AS files, sum(record_count) AS records FROM " + logs +
                    ".files GROUP BY spec_id ORDER BY spec_id"));

  demo.step("C6. Adding bucket(32, service): the next append uses the new spec");
  FLOE_TRY(demo.sql("ALTER TABLE " + logs + "\nADD PARTITION FIELD bucket(32, service)"));
  FLOE_TRY(demo.sql(fmt::format(
      "INSERT INTO {} SELECT CAST(floor(rand(9) * 10000000) AS BIGINT) + 1 AS log_id, "
      "element_at(array('api', 'worker', 'scheduler'), CAST(floor(rand(10) * 3) AS INT) + 1) AS "
      "service, element_at(array('INFO', 'WARN', 'ERROR'), CAST(floor(rand(11) * 3) AS INT) + 1) "
      "AS level, CAST(1782000000 + (id DIV {}) * 3600 + CAST(floor(rand(12) * 3600) AS BIGINT) AS "
      "TIMESTAMP) AS event_ts FROM range(0, {})",
      logs, per_hour, 4 * per_hour)));
  FLOE_TRY(demo.sql(layout));

  demo.step("C7. The drop-column guard");
  FLOE_TRY(demo.sql_error("ALTER TABLE " + logs + " DROP COLUMN event_ts"));
  FLOE_TRY(demo.sql("ALTER TABLE " + logs + " DROP PARTITION FIELD hours(event_ts)"));
  demo.note("days(event_ts) left the spec in C2 already:");
  FLOE_TRY(demo.sql_error("ALTER TABLE " + logs + " DROP PARTITION FIELD days(event_ts)"));
  demo.note(
      "floe also keeps a column while live files are partitioned by it (their partition values "
      "are computed from it); rewriting them into the current spec releases it.");
  FLOE_TRY(demo.sql_error("ALTER TABLE " + logs + " DROP COLUMN event_ts"));
  FLOE_TRY(
      demo.sql("CALL lakehouse.system.rewrite_data_files(table => 'analytics.logs', options "
               "=> map('rewrite-all', 'true'))"));
  FLOE_TRY(demo.sql("ALTER TABLE " + logs + " DROP COLUMN event_ts"));
  FLOE_TRY(demo.sql("DESCRIBE " + logs));

  demo.step("C8. The IoT table: three eras, three specs");
  const std::string readings = "lakehouse.sensors.readings";
  auto era_rows = [&](int seed, int64_t start, int64_t span_seconds) {
    return fmt::format(
        "INSERT INTO {} SELECT CAST(floor(rand({}) * 5000) AS BIGINT) AS sensor_id, "
        "round(rand({}) * 100, 2) AS value, CAST({} + id * {} DIV {} AS TIMESTAMP) AS reading_ts "
        "FROM range(0, {})",
        readings, seed, seed + 1, start, span_seconds, era, era);
  };
  FLOE_TRY(demo.sql("CREATE NAMESPACE IF NOT EXISTS lakehouse.sensors"));
  FLOE_TRY(demo.sql("CREATE TABLE " + readings +
                    " (\n    sensor_id BIGINT, value DOUBLE, reading_ts TIMESTAMP\n)\nUSING "
                    "iceberg"));
  FLOE_TRY(demo.sql(era_rows(21, 1704067200, 31536000)));  // 2024
  FLOE_TRY(demo.sql("ALTER TABLE " + readings + "\nADD PARTITION FIELD months(reading_ts)"));
  FLOE_TRY(demo.sql(era_rows(23, 1735689600, 31536000)));  // 2025
  FLOE_TRY(demo.sql("ALTER TABLE " + readings +
                    "\nREPLACE PARTITION FIELD months(reading_ts) WITH days(reading_ts)"));
  FLOE_TRY(demo.sql("ALTER TABLE " + readings + "\nADD PARTITION FIELD bucket(32, sensor_id)"));
  FLOE_TRY(demo.sql(era_rows(25, 1767225600, 3110400)));  // 36 days of 2026
  FLOE_TRY(demo.sql("SELECT spec_id, count(*) AS files, sum(record_count) AS records FROM " +
                    readings + ".files GROUP BY spec_id ORDER BY spec_id"));
  const std::string across =
      " FROM " + readings +
      " WHERE sensor_id = 42 AND reading_ts >= '2024-12-01' AND reading_ts < '2026-01-03'";
  FLOE_TRY(demo.explain("SELECT count(*), round(avg(value), 2)" + across));
  FLOE_TRY(demo.sql("SELECT count(*), round(avg(value), 2)" + across));
  demo.note(
      "RENAME PARTITION FIELD (the lesson's fourth command) renames the field in a new spec, "
      "as Java does: names belong to a spec and specs are never edited in place.");
  FLOE_TRY(demo.sql("ALTER TABLE " + readings +
                    "\nRENAME PARTITION FIELD reading_ts_day TO day_bucket"));
  FLOE_TRY(demo.inspect_specs("sensors/readings"));
  return Status::OK();
}

}  // namespace floe::cli::demo
