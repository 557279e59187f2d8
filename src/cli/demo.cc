// floe demo: a walk through what floe does so far, on generated data. It grows with each
// feature; today: partition transforms and their paths (lesson C), then the lesson A table
// created in the catalog, written in two commits, its files and manifests, and the planning
// funnel of a query on it.
#include <fmt/format.h>

#include <chrono>
#include <ostream>

#include "cli/cli_internal.h"
#include "floe/spec/literal.h"
#include "floe/spec/partition_spec.h"
#include "floe/util/date_time_text.h"

namespace floe::cli {

Status run_demo(const GlobalOptions& options, std::ostream& out) {
  out << "== 1. Partition transforms and paths (lesson C) ==\n";
  // PARTITIONED BY (days(event_ts), bucket(16, user_id)) on (user_id 2, event_ts 5).
  const PartitionSpec spec(0, {{5, {}, 1000, "event_ts_day", Transform::day()},
                               {2, {}, 1001, "user_id_bucket", Transform::bucket(16)}});
  struct Row {
    int64_t user_id;
    const char* ts;
  };
  for (Row row : {Row{482910, "2026-05-01T10:15:00+00:00"}, Row{17, "2026-06-20T00:30:00+00:00"},
                  Row{482910, "1969-12-31T23:59:59.999999+00:00"}}) {
    int64_t micros = FLOE_TRY(parse_timestamp(row.ts, true));
    Literal day = FLOE_TRY(spec.fields()[0].transform.apply(Literal::timestamptz(micros)));
    Literal bucket = FLOE_TRY(spec.fields()[1].transform.apply(Literal::int64(row.user_id)));
    out << "  user_id=" << row.user_id << " event_ts=" << row.ts << "  ->  "
        << spec.partition_to_path({day, bucket}) << "\n";
  }

  // The lesson's table through the write path: catalog, partitioned writes, commits.
  auto step = [&](const std::string& title, const std::string& script) -> Status {
    out << "\n== " << title << " ==\n";
    for (size_t start = 0; start < script.size();) {
      size_t end = script.find(";\n", start);
      if (end == std::string::npos) end = script.size();
      std::string statement = script.substr(start, end - start);
      start = end + 2;
      if (statement.find_first_not_of(" \n") == std::string::npos) continue;
      out << "floe> " << statement << ";\n";
      SqlCommand sql;
      sql.sql = statement;
      FLOE_TRY(run_sql(options, sql, out));
    }
    return Status::OK();
  };
  // Rows spread over 4 countries and the two days from `day` (2024-06-<day>).
  auto rows = [](int64_t first, int64_t end, int day) {
    return fmt::format(
        "SELECT id AS sale_id, id % 100000 AS user_id, CASE id % 4 WHEN 0 THEN 'DE' WHEN 1 THEN "
        "'FR' WHEN 2 THEN 'US' ELSE 'PL' END AS country, CAST(id % 60 AS INT) + 10 AS age, "
        "CAST((id % 100000) / 100.0 AS DECIMAL(12, 2)) AS amount, CAST({} + id % 172800 AS "
        "TIMESTAMP) AS event_ts FROM range({}, {})",
        1718409600 + (day - 15) * 86400, first, end);
  };
  FLOE_TRY(step("2. A partitioned table in the catalog, written in two commits (lesson A)",
                "CREATE NAMESPACE IF NOT EXISTS lakehouse.analytics;\n"
                "DROP TABLE IF EXISTS lakehouse.analytics.sales PURGE;\n"
                "CREATE TABLE lakehouse.analytics.sales (sale_id BIGINT, user_id BIGINT, "
                "country STRING, age INT, amount DECIMAL(12, 2), event_ts TIMESTAMP) USING "
                "iceberg PARTITIONED BY (country, days(event_ts));\n"
                "INSERT INTO lakehouse.analytics.sales " +
                    rows(0, 500000, 15) + ";\n" + "INSERT INTO lakehouse.analytics.sales " +
                    rows(500000, 1000000, 17) +
                    ";\n"
                    "SELECT country, count(*) AS rows, sum(amount) AS amount FROM "
                    "lakehouse.analytics.sales GROUP BY country ORDER BY country"));
  FLOE_TRY(step("3. What the commits wrote: files per partition, manifests with summaries",
                "SELECT partition, count(*) AS files, sum(record_count) AS records FROM "
                "lakehouse.analytics.sales.files GROUP BY partition ORDER BY partition LIMIT 5;\n"
                "SELECT added_snapshot_id, added_data_files_count, "
                "partition_summaries[0].lower_bound AS country_lo, "
                "partition_summaries[0].upper_bound AS country_hi, "
                "partition_summaries[1].lower_bound AS day_lo, "
                "partition_summaries[1].upper_bound AS day_hi FROM "
                "lakehouse.analytics.sales.manifests;\n"
                "SELECT snapshot_id, operation, summary['added-data-files'] AS added_files, "
                "summary['total-records'] AS total_records FROM "
                "lakehouse.analytics.sales.snapshots ORDER BY committed_at"));
  FLOE_TRY(step("4. Scan planning: manifests and files skipped (EXPLAIN)",
                "EXPLAIN SELECT * FROM lakehouse.analytics.sales WHERE country = 'DE' AND age > "
                "18 AND event_ts >= '2024-06-15' AND event_ts < '2024-06-16'"));

  // The SQL engine on generated rows: Iceberg's bucket and day transforms as functions, grouped.
  out << "\n== 5. SQL: transforms as functions, aggregation (floe sql) ==\n";
  const std::string query =
      "SELECT system.bucket(16, id) AS bucket, count(*) AS rows, min(id), max(id), "
      "days(TIMESTAMP '2026-05-01 10:15:00' + INTERVAL 1 DAY) AS day "
      "FROM range(1000) WHERE id % 7 = 3 GROUP BY 1 ORDER BY rows DESC, bucket LIMIT 3";
  out << "  " << query << "\n";
  SqlCommand sql;
  sql.sql = query;
  return run_sql(options, sql, out);
}

}  // namespace floe::cli
