// floe demo: a walk through what floe does so far, on generated data. It grows with each
// feature; today it covers the table metadata model (lesson A stage 1) and partition
// transforms with their paths (lesson C).
#include <chrono>
#include <ostream>

#include "cli/cli.h"
#include "floe/io/file_io.h"
#include "floe/spec/metadata_file.h"
#include "floe/util/uuid.h"

namespace floe::cli {

namespace {

NestedField field(int32_t id, std::string name, TypePtr type, bool required) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.type = std::move(type);
  f.required = required;
  return f;
}

TableMetadata demo_table(const std::string& location) {
  TableMetadata m;
  m.format_version = 2;
  m.table_uuid = random_uuid();
  m.location = location;
  m.last_updated_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  auto schema = std::make_shared<const Schema>(
      0,
      std::vector<NestedField>{field(1, "sale_id", Type::int64(), true),
                               field(2, "user_id", Type::int64(), false),
                               field(3, "country", Type::string(), false),
                               field(4, "amount", Type::decimal(12, 2), false),
                               field(5, "event_ts", Type::timestamptz(), false)},
      std::vector<int32_t>{1});
  m.schemas = {schema};
  m.last_column_id = schema->highest_field_id();
  m.specs = {std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{5, {}, 1000, "event_ts_day", Transform::day()},
                                     {2, {}, 1001, "user_id_bucket", Transform::bucket(16)}})};
  m.last_partition_id = 1001;
  auto order = std::make_shared<SortOrder>();
  order->order_id = 1;
  order->fields.push_back(
      {Transform::identity(), 3, {}, SortDirection::kAsc, NullOrder::kNullsFirst});
  m.sort_orders = {std::make_shared<const SortOrder>(), order};
  m.default_sort_order_id = 1;
  m.properties = {{"write.parquet.compression-codec", "zstd"},
                  {"write.metadata.metrics.default", "truncate(16)"}};
  return m;
}

}  // namespace

Status run_demo(const GlobalOptions& options, std::ostream& out) {
  auto io = make_local_file_io();
  std::string location = join_path(options.warehouse, "analytics/sales");
  TableMetadata m = demo_table(location);

  out << "== 1. Partition transforms and paths (lesson C) ==\n";
  const PartitionSpec& spec = *m.specs[0];
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

  out << "\n== 2. Table metadata written and read back (lesson A, stage 1) ==\n";
  // A second run continues the table: the next version records the previous file in
  // metadata-log, stamped with that file's last-updated-ms.
  int64_t version = 0;
  auto previous = find_current_metadata_file(*io, location);
  if (previous.ok()) {
    auto old = read_table_metadata(*io, previous->path);
    if (old.ok()) {
      version = metadata_file_version(previous->path).value_or(0) + 1;
      m.table_uuid = old->table_uuid;
      m.metadata_log = old->metadata_log;
      m.metadata_log.push_back({old->last_updated_ms, previous->path});
    }
  }
  std::string path = join_path(location, "metadata/" + catalog_metadata_file_name(version));
  FLOE_TRY(write_table_metadata(*io, path, m));
  TableMetadata back = FLOE_TRY(read_table_metadata(*io, path));
  if (!(back == m)) return make_error(ErrorKind::kInternal, "demo metadata did not round-trip");
  out << "  wrote " << path << " and read it back: identical model\n\n";
  FLOE_TRY(run_inspect(options, path, InspectOptions{}, out));

  // The SQL engine on generated rows: Iceberg's bucket and day transforms as functions, grouped.
  out << "\n== 3. SQL: transforms as functions, aggregation (floe sql) ==\n";
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
