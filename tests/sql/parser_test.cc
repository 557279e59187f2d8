#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sql/parser/parser_internal.h"

namespace floe::sql {
using namespace floe::sql::ast;  // NOLINT
namespace {

// Canonical text of one statement; a parse error becomes the test failure message.
std::string canon(std::string_view sql) {
  auto r = parse_statement(sql);
  EXPECT_TRUE(r.ok()) << sql << "\n  " << r.status().to_string();
  if (!r.ok()) return "<error>";
  return to_string(*r);
}

std::string canon_expr(std::string_view sql) {
  auto r = parse_expression(sql);
  EXPECT_TRUE(r.ok()) << sql << "\n  " << r.status().to_string();
  if (!r.ok()) return "<error>";
  return to_string(**r);
}

// The one-line error message of a script that must fail.
std::string error_of(std::string_view sql) {
  auto r = parse_sql(sql);
  EXPECT_FALSE(r.ok()) << "parsed: " << sql;
  if (r.ok()) return "<parsed>";
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidArgument);
  return r.status().message();
}

std::string expr_error_of(std::string_view sql) {
  auto r = parse_expression(sql);
  EXPECT_FALSE(r.ok()) << "parsed: " << sql;
  return r.ok() ? "<parsed>" : r.status().message();
}

Statement parse_ok(std::string_view sql) {
  auto r = parse_statement(sql);
  EXPECT_TRUE(r.ok()) << sql << "\n  " << r.status().to_string();
  if (!r.ok()) return Statement{QueryStatement{}, {}, ""};
  return std::move(r).value();
}

// Printing is a fixed point: parse(to_string(parse(sql))) prints the same text.
void expect_round_trip(std::string_view sql) {
  std::string first = canon(sql);
  std::string second = canon(first);
  EXPECT_EQ(first, second) << "original: " << sql;
}

const SelectBody& select_of(const Statement& s) {
  return s.as<QueryStatement>().query->body->as<SelectBody>();
}

// ---------------------------------------------------------------------------------------------
// The lessons' SQL, as written.

TEST(SqlParserLessons, ManifestsQuery) {
  EXPECT_EQ(canon(R"(
    SELECT
        path,
        length,
        partition_spec_id,
        added_snapshot_id,
        added_data_files_count,
        existing_data_files_count,
        deleted_data_files_count,
        partition_summaries
    FROM lakehouse.analytics.sales.manifests)"),
            "SELECT path, length, partition_spec_id, added_snapshot_id, added_data_files_count, "
            "existing_data_files_count, deleted_data_files_count, partition_summaries "
            "FROM lakehouse.analytics.sales.manifests");
  Statement s =
      parse_ok("SELECT path, length FROM analytics.sales.manifests ORDER BY length DESC LIMIT 1");
  const auto& q = *s.as<QueryStatement>().query;
  ASSERT_EQ(q.order_by.size(), 1u);
  EXPECT_TRUE(q.order_by[0].descending);
  ASSERT_TRUE(q.limit);
  EXPECT_EQ(q.limit->as<LiteralExpr>().int_value, 1);
  const auto& from = *select_of(s).from.at(0);
  ASSERT_EQ(from.kind, TableRefKind::kNamed);
  EXPECT_EQ(from.as<NamedTableRef>().name.parts,
            (std::vector<std::string>{"analytics", "sales", "manifests"}));
}

TEST(SqlParserLessons, ManifestSizeAggregates) {
  EXPECT_EQ(canon(R"(
    SELECT
        count(*)                              AS manifest_count,
        sum(length) / 1024.0 / 1024            AS total_size_mb,
        avg(length) / 1024.0                   AS avg_size_kb,
        sum(added_data_files_count
            + existing_data_files_count)       AS total_files
    FROM lakehouse.analytics.user_events_enriched.manifests)"),
            "SELECT count(*) AS manifest_count, ((sum(length) / 1024.0) / 1024) AS total_size_mb, "
            "(avg(length) / 1024.0) AS avg_size_kb, "
            "sum((added_data_files_count + existing_data_files_count)) AS total_files "
            "FROM lakehouse.analytics.user_events_enriched.manifests");
}

TEST(SqlParserLessons, FilterQueries) {
  EXPECT_EQ(
      canon("SELECT *\n    FROM lakehouse.analytics.sales\n    WHERE country = 'DE' AND age > 18"),
      "SELECT * FROM lakehouse.analytics.sales WHERE ((country = 'DE') AND (age > 18))");
  EXPECT_EQ(canon("SELECT * FROM lakehouse.analytics.sales_by_day\n"
                  "    WHERE event_ts >= '2024-06-15' AND event_ts < '2024-06-16'"),
            "SELECT * FROM lakehouse.analytics.sales_by_day "
            "WHERE ((event_ts >= '2024-06-15') AND (event_ts < '2024-06-16'))");
  EXPECT_EQ(canon("SELECT service, count(*)\nFROM lakehouse.analytics.logs\n"
                  "WHERE event_ts >= TIMESTAMP '2026-05-15' AND event_ts < TIMESTAMP '2026-06-21'\n"
                  "GROUP BY service;"),
            "SELECT service, count(*) FROM lakehouse.analytics.logs WHERE ((event_ts >= "
            "TIMESTAMP '2026-05-15') AND (event_ts < TIMESTAMP '2026-06-21')) GROUP BY service");
  EXPECT_EQ(canon(R"(SELECT service, count(*) AS error_count
    FROM lakehouse.analytics.logs
    WHERE event_ts >= '2026-05-15' AND event_ts < '2026-06-21'
      AND level = 'ERROR'
    GROUP BY service)"),
            "SELECT service, count(*) AS error_count FROM lakehouse.analytics.logs WHERE "
            "(((event_ts >= '2026-05-15') AND (event_ts < '2026-06-21')) AND (level = 'ERROR')) "
            "GROUP BY service");
  EXPECT_EQ(canon("SELECT spec_id, count(*) AS manifest_count FROM "
                  "lakehouse.analytics.logs.manifests GROUP BY spec_id"),
            "SELECT spec_id, count(*) AS manifest_count FROM lakehouse.analytics.logs.manifests "
            "GROUP BY spec_id");
}

TEST(SqlParserLessons, MetadataTableQueries) {
  EXPECT_EQ(canon(R"(
    SELECT snapshot_id, summary['added-data-files']    AS added_data,
           summary['deleted-data-files']                AS deleted_data,
           summary['added-delete-files']                AS added_delete,
           summary['added-position-deletes']            AS added_pos_deletes
    FROM lakehouse.analytics.orders.snapshots
    ORDER BY committed_at DESC LIMIT 1)"),
            "SELECT snapshot_id, summary['added-data-files'] AS added_data, "
            "summary['deleted-data-files'] AS deleted_data, summary['added-delete-files'] AS "
            "added_delete, summary['added-position-deletes'] AS added_pos_deletes FROM "
            "lakehouse.analytics.orders.snapshots ORDER BY committed_at DESC LIMIT 1");
  EXPECT_EQ(canon("SELECT content, file_path, file_format, record_count, file_size_in_bytes\n"
                  "    FROM lakehouse.analytics.orders.delete_files"),
            "SELECT content, file_path, file_format, record_count, file_size_in_bytes FROM "
            "lakehouse.analytics.orders.delete_files");
  EXPECT_EQ(canon("SELECT content, file_path, record_count, file_size_in_bytes, equality_ids\n"
                  "    FROM lakehouse.analytics.orders.delete_files\n"
                  "    WHERE content = 'EQUALITY_DELETES'"),
            "SELECT content, file_path, record_count, file_size_in_bytes, equality_ids FROM "
            "lakehouse.analytics.orders.delete_files WHERE (content = 'EQUALITY_DELETES')");
  EXPECT_EQ(canon("SELECT count(*) AS n FROM lakehouse.analytics.orders.delete_files "
                  "WHERE content = 'POSITION_DELETES'"),
            "SELECT count(*) AS n FROM lakehouse.analytics.orders.delete_files WHERE (content = "
            "'POSITION_DELETES')");
  EXPECT_EQ(canon("SELECT count(*) AS total_files, sum(file_size_in_bytes) AS total_bytes\n"
                  "    FROM lakehouse.analytics.orders.files"),
            "SELECT count(*) AS total_files, sum(file_size_in_bytes) AS total_bytes FROM "
            "lakehouse.analytics.orders.files");
  EXPECT_EQ(canon(R"(SELECT data_file.file_path, count(*) AS applicable_deletes
    FROM lakehouse.analytics.orders.entries
    WHERE data_file.content = 0
    GROUP BY data_file.file_path
    ORDER BY applicable_deletes DESC
    LIMIT 1)"),
            "SELECT data_file.file_path, count(*) AS applicable_deletes FROM "
            "lakehouse.analytics.orders.entries WHERE (data_file.content = 0) GROUP BY "
            "data_file.file_path ORDER BY applicable_deletes DESC LIMIT 1");
  EXPECT_EQ(canon("SELECT count(*) AS n FROM lakehouse.analytics.orders.files "
                  "WHERE partition.event_ts_day = '2024-01-01'"),
            "SELECT count(*) AS n FROM lakehouse.analytics.orders.files WHERE "
            "(partition.event_ts_day = '2024-01-01')");
  EXPECT_EQ(canon("SELECT path, partition_summaries[0].lower_bound, "
                  "partition_summaries[0].upper_bound FROM t.manifests"),
            "SELECT path, partition_summaries[0].lower_bound, partition_summaries[0].upper_bound "
            "FROM t.manifests");
}

TEST(SqlParserLessons, DdlAndDml) {
  EXPECT_EQ(canon(R"(
    CREATE TABLE IF NOT EXISTS lakehouse.analytics.sales_by_user_bucket (
        sale_id BIGINT, user_id BIGINT, amount DOUBLE, event_ts TIMESTAMP
    )
    USING iceberg
    PARTITIONED BY (bucket(16, user_id)))"),
            "CREATE TABLE IF NOT EXISTS lakehouse.analytics.sales_by_user_bucket (sale_id BIGINT, "
            "user_id BIGINT, amount DOUBLE, event_ts TIMESTAMP) USING iceberg PARTITIONED BY "
            "(bucket(16, user_id))");
  Statement s = parse_ok(R"(
    CREATE TABLE lakehouse.analytics.orders (
        order_id    BIGINT,
        customer_id BIGINT,
        status      STRING,
        amount      DECIMAL(10, 2),
        event_ts    TIMESTAMP
    )
    USING iceberg
    PARTITIONED BY (days(event_ts))
    TBLPROPERTIES (
        'format-version'    = '2',
        'write.delete.mode' = 'merge-on-read',
        'write.update.mode' = 'merge-on-read',
        'write.merge.mode'  = 'merge-on-read'
    ))");
  ASSERT_EQ(s.kind(), StatementKind::kCreateTable);
  const auto& c = s.as<CreateTableStatement>();
  ASSERT_EQ(c.columns.size(), 5u);
  EXPECT_EQ(c.columns[3].name, "amount");
  EXPECT_EQ(c.columns[3].type->kind, TypeKind::kDecimal);
  EXPECT_EQ(c.columns[3].type->precision, 10);
  EXPECT_EQ(c.columns[3].type->scale, 2);
  EXPECT_EQ(c.columns[4].type->kind, TypeKind::kTimestamp);
  ASSERT_EQ(c.partitioned_by.size(), 1u);
  EXPECT_EQ(c.partitioned_by[0].transform, "days");
  EXPECT_EQ(c.partitioned_by[0].column, std::vector<std::string>{"event_ts"});
  EXPECT_EQ(c.using_, "iceberg");
  ASSERT_EQ(c.properties.size(), 4u);
  EXPECT_EQ(c.properties[0], (std::pair<std::string, std::string>{"format-version", "2"}));
  EXPECT_EQ(c.properties[3].second, "merge-on-read");

  EXPECT_EQ(canon("DELETE FROM lakehouse.analytics.orders\n"
                  "    WHERE status = 'cancelled' AND customer_id = 12345"),
            "DELETE FROM lakehouse.analytics.orders WHERE ((status = 'cancelled') AND "
            "(customer_id = 12345))");
  EXPECT_EQ(canon("DELETE FROM lakehouse.analytics.orders WHERE customer_id IN (1, 2, 3)\n"
                  "  AND event_ts >= '2024-01-01' AND event_ts < '2024-01-02'"),
            "DELETE FROM lakehouse.analytics.orders WHERE (((customer_id IN (1, 2, 3)) AND "
            "(event_ts >= '2024-01-01')) AND (event_ts < '2024-01-02'))");
}

TEST(SqlParserLessons, AlterTable) {
  EXPECT_EQ(canon(R"(ALTER TABLE lakehouse.analytics.sales SET TBLPROPERTIES (
        'write.metadata.metrics.default'              = 'none',
        'write.metadata.metrics.column.event_ts'      = 'full',
        'write.metadata.metrics.column.country'       = 'full',
        'write.metadata.metrics.column.user_id'       = 'truncate(16)'
    ))"),
            "ALTER TABLE lakehouse.analytics.sales SET TBLPROPERTIES "
            "('write.metadata.metrics.default' = 'none', "
            "'write.metadata.metrics.column.event_ts' = 'full', "
            "'write.metadata.metrics.column.country' = 'full', "
            "'write.metadata.metrics.column.user_id' = 'truncate(16)')");
  EXPECT_EQ(canon("ALTER TABLE lakehouse.analytics.logs\nADD PARTITION FIELD hours(event_ts);"),
            "ALTER TABLE lakehouse.analytics.logs ADD PARTITION FIELD hours(event_ts)");
  EXPECT_EQ(canon("ALTER TABLE lakehouse.analytics.logs\nDROP PARTITION FIELD days(event_ts);"),
            "ALTER TABLE lakehouse.analytics.logs DROP PARTITION FIELD days(event_ts)");
  EXPECT_EQ(canon("ALTER TABLE lakehouse.analytics.logs\n"
                  "REPLACE PARTITION FIELD days(event_ts) WITH hours(event_ts);"),
            "ALTER TABLE lakehouse.analytics.logs REPLACE PARTITION FIELD days(event_ts) WITH "
            "hours(event_ts)");
  EXPECT_EQ(canon("ALTER TABLE lakehouse.analytics.logs\n"
                  "RENAME PARTITION FIELD event_ts_day TO day_bucket;"),
            "ALTER TABLE lakehouse.analytics.logs RENAME PARTITION FIELD event_ts_day TO "
            "day_bucket");
  EXPECT_EQ(canon("ALTER TABLE lakehouse.analytics.logs ADD PARTITION FIELD bucket(32, service)"),
            "ALTER TABLE lakehouse.analytics.logs ADD PARTITION FIELD bucket(32, service)");
  EXPECT_EQ(canon("ALTER TABLE lakehouse.analytics.logs DROP COLUMN event_ts"),
            "ALTER TABLE lakehouse.analytics.logs DROP COLUMNS (event_ts)");

  Statement s = parse_ok(
      "ALTER TABLE lakehouse.sensors.readings REPLACE PARTITION FIELD months(reading_ts) WITH "
      "days(reading_ts)");
  const auto& alter = s.as<AlterTableStatement>();
  const auto& r = std::get<ReplacePartitionField>(alter.action);
  EXPECT_EQ(r.from.transform, "months");
  EXPECT_EQ(r.to.transform, "days");
  EXPECT_EQ(r.to.column, std::vector<std::string>{"reading_ts"});
}

TEST(SqlParserLessons, CallsAndDescribe) {
  Statement s = parse_ok(R"(
    CALL lakehouse.system.rewrite_data_files(
        table => 'analytics.logs',
        where => 'event_ts < TIMESTAMP \'2026-06-01\''
    ))");
  const auto& call = s.as<CallStatement>();
  EXPECT_EQ(call.procedure.parts,
            (std::vector<std::string>{"lakehouse", "system", "rewrite_data_files"}));
  ASSERT_EQ(call.args.size(), 2u);
  EXPECT_EQ(call.args[0].name, "table");
  EXPECT_EQ(call.args[1].name, "where");
  EXPECT_EQ(call.args[1].value->as<LiteralExpr>().text, "event_ts < TIMESTAMP '2026-06-01'");
  // The argument is itself a filter the engine parses later.
  EXPECT_EQ(canon_expr(call.args[1].value->as<LiteralExpr>().text),
            "(event_ts < TIMESTAMP '2026-06-01')");

  EXPECT_EQ(canon("CALL lakehouse.system.rewrite_manifests(\n"
                  "        table => 'analytics.user_events_enriched'\n    )"),
            "CALL lakehouse.system.rewrite_manifests(table => 'analytics.user_events_enriched')");

  Statement d = parse_ok("DESCRIBE TABLE EXTENDED lakehouse.analytics.logs");
  ASSERT_EQ(d.kind(), StatementKind::kDescribeTable);
  EXPECT_TRUE(d.as<DescribeTableStatement>().extended);
  EXPECT_EQ(d.as<DescribeTableStatement>().table.parts.size(), 3u);
  Statement d2 = parse_ok("DESCRIBE lakehouse.analytics.logs;");
  EXPECT_FALSE(d2.as<DescribeTableStatement>().extended);
}

// ---------------------------------------------------------------------------------------------
// Expressions.

TEST(SqlParserExpr, Precedence) {
  EXPECT_EQ(canon_expr("a OR b AND c"), "(a OR (b AND c))");
  EXPECT_EQ(canon_expr("a AND b OR c AND d"), "((a AND b) OR (c AND d))");
  EXPECT_EQ(canon_expr("NOT a = b"), "(NOT (a = b))");
  EXPECT_EQ(canon_expr("NOT a AND b"), "((NOT a) AND b)");
  EXPECT_EQ(canon_expr("NOT NOT a"), "(NOT (NOT a))");
  EXPECT_EQ(canon_expr("a = b + c * d"), "(a = (b + (c * d)))");
  EXPECT_EQ(canon_expr("a + b - c"), "((a + b) - c)");
  EXPECT_EQ(canon_expr("a * b / c % d DIV e"), "((((a * b) / c) % d) DIV e)");
  EXPECT_EQ(canon_expr("a || b + c"), "(a || (b + c))");
  EXPECT_EQ(canon_expr("a || b = c || d"), "((a || b) = (c || d))");
  EXPECT_EQ(canon_expr("-a * b"), "((- a) * b)");
  EXPECT_EQ(canon_expr("-a[0]"), "(- a[0])");
  EXPECT_EQ(canon_expr("- -a"), "(- (- a))");
  EXPECT_EQ(canon_expr("(a + b) * c"), "((a + b) * c)");
  EXPECT_EQ(canon_expr("a + b IS NULL"), "((a + b) IS NULL)");
  EXPECT_EQ(canon_expr("a IS NOT NULL AND b IS NULL"), "((a IS NOT NULL) AND (b IS NULL))");
  EXPECT_EQ(canon_expr("a BETWEEN 1 AND 2 AND b"), "((a BETWEEN 1 AND 2) AND b)");
  EXPECT_EQ(canon_expr("a NOT BETWEEN b + 1 AND c * 2"), "(a NOT BETWEEN (b + 1) AND (c * 2))");
  EXPECT_EQ(canon_expr("a IN (1, 2) OR b NOT IN ('x')"), "((a IN (1, 2)) OR (b NOT IN ('x')))");
  EXPECT_EQ(canon_expr("NOT a IN (1)"), "(NOT (a IN (1)))");
  EXPECT_EQ(canon_expr("s LIKE 'a%' AND s NOT ILIKE 'b%' OR s RLIKE '^c'"),
            "(((s LIKE 'a%') AND (s NOT ILIKE 'b%')) OR (s RLIKE '^c'))");
  EXPECT_EQ(canon_expr("s LIKE 'a!%' ESCAPE '!'"), "(s LIKE 'a!%' ESCAPE '!')");
  EXPECT_EQ(canon_expr("a = b = c"), "((a = b) = c)");
  // A chain of AND (or OR) is a balanced tree, as Spark's AstBuilder builds it.
  EXPECT_EQ(canon_expr("a < b AND c >= d AND e <> f AND g != h AND i == j AND k <=> l"),
            "((((a < b) AND (c >= d)) AND (e != f)) AND (((g != h) AND (i = j)) AND (k <=> l)))");
  EXPECT_EQ(canon_expr("a IS TRUE OR b IS NOT FALSE"), "((a IS TRUE) OR (b IS NOT FALSE))");
  EXPECT_EQ(canon_expr("a IS DISTINCT FROM b"), "(NOT (a <=> b))");
  EXPECT_EQ(canon_expr("a IS NOT DISTINCT FROM b"), "(a <=> b)");
  EXPECT_EQ(canon_expr("x::bigint + 1"), "(CAST(x AS BIGINT) + 1)");
  EXPECT_EQ(canon_expr("m['k'][0].f.g"), "m['k'][0].f.g");
  EXPECT_EQ(canon_expr("!a"), "(NOT a)");
}

TEST(SqlParserExpr, Literals) {
  std::vector<ExprPtr> keep;  // the parsed trees outlive the references lit() returns
  auto lit = [&keep](std::string_view sql) -> const LiteralExpr& {
    auto r = parse_expression(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().to_string();
    if (!r.ok() || (*r)->kind != ExprKind::kLiteral) {
      keep.push_back(std::make_unique<LiteralExpr>(LiteralKind::kNull));
    } else {
      keep.push_back(std::move(r).value());
    }
    return keep.back()->as<LiteralExpr>();
  };
  EXPECT_EQ(lit("NULL").literal_kind, LiteralKind::kNull);
  EXPECT_TRUE(lit("true").bool_value);
  EXPECT_FALSE(lit("FALSE").bool_value);
  EXPECT_EQ(lit("42").int_value, 42);
  EXPECT_EQ(lit("42").text, "42");
  EXPECT_EQ(lit("-42").int_value, -42);
  EXPECT_EQ(lit("9223372036854775807").int_value, INT64_MAX);
  EXPECT_EQ(lit("-9223372036854775808").int_value, INT64_MIN);
  EXPECT_EQ(lit("9223372036854775808").int_value, std::nullopt);
  EXPECT_EQ(lit("9223372036854775808").literal_kind, LiteralKind::kInteger);
  EXPECT_EQ(lit("10L").suffix, 'L');
  EXPECT_EQ(lit("10L").int_value, 10);
  EXPECT_EQ(lit("1.50").literal_kind, LiteralKind::kDecimal);
  EXPECT_EQ(lit("1.50").text, "1.50");
  EXPECT_EQ(lit(".5").text, ".5");
  EXPECT_EQ(lit("2.5BD").literal_kind, LiteralKind::kDecimal);
  EXPECT_EQ(lit("1e10").literal_kind, LiteralKind::kDouble);
  EXPECT_EQ(lit("1.5E-3").text, "1.5E-3");
  EXPECT_EQ(lit("1.5D").literal_kind, LiteralKind::kDouble);
  EXPECT_EQ(lit("'it''s'").text, "it's");
  EXPECT_EQ(lit("'it\\'s'").text, "it's");
  EXPECT_EQ(lit("'a\\nb'").text, "a\nb");
  EXPECT_EQ(lit("\"double\"").literal_kind, LiteralKind::kString);
  EXPECT_EQ(lit("\"say \"\"hi\"\"\"").text, "say \"hi\"");
  EXPECT_EQ(lit("'a' 'b'").text, "ab");
  EXPECT_EQ(lit("DATE '2024-06-15'").literal_kind, LiteralKind::kDate);
  EXPECT_EQ(lit("DATE '2024-06-15'").text, "2024-06-15");
  EXPECT_EQ(lit("timestamp '2024-06-15 10:00:00'").literal_kind, LiteralKind::kTimestamp);
  EXPECT_EQ(lit("TIMESTAMP_NTZ '2024-06-15 10:00:00'").literal_kind, LiteralKind::kTimestampNtz);
  EXPECT_EQ(lit("X'CAFE'").text, "\xCA\xFE");
  const LiteralExpr& iv = lit("INTERVAL '1' DAY");
  ASSERT_EQ(iv.interval.size(), 1u);
  EXPECT_EQ(iv.interval[0].value, "1");
  EXPECT_EQ(iv.interval[0].unit, "DAY");
  const LiteralExpr& iv2 = lit("INTERVAL 3 HOURS");
  EXPECT_EQ(iv2.interval[0].value, "3");
  EXPECT_EQ(iv2.interval[0].unit, "HOUR");
  const LiteralExpr& iv3 = lit("INTERVAL 1 DAY 2 HOURS");
  ASSERT_EQ(iv3.interval.size(), 2u);
  EXPECT_EQ(iv3.text, "1 DAY 2 HOUR");
  EXPECT_EQ(lit("INTERVAL '1 day'").interval[0].unit, "");
  EXPECT_EQ(canon_expr("INTERVAL '1-2' YEAR TO MONTH"), "INTERVAL '1-2' YEAR TO MONTH");
  EXPECT_EQ(canon_expr("ts - INTERVAL 3 HOURS"), "(ts - INTERVAL '3' HOUR)");
}

TEST(SqlParserExpr, NamesFunctionsAndSpecialForms) {
  auto r = parse_expression("lakehouse.analytics.sales.amount");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ((*r)->kind, ExprKind::kColumnRef);
  EXPECT_EQ((*r)->as<ColumnRefExpr>().parts.size(), 4u);

  r = parse_expression("`My Col`.`a``b`");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->as<ColumnRefExpr>().parts, (std::vector<std::string>{"My Col", "a`b"}));
  EXPECT_EQ(to_string(**r), "`My Col`.`a``b`");

  r = parse_expression("Event_TS");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->as<ColumnRefExpr>().parts[0], "Event_TS");

  r = parse_expression("system.bucket(16, id)");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ((*r)->kind, ExprKind::kFunction);
  const auto& f = (*r)->as<FunctionExpr>();
  EXPECT_EQ(f.name, (std::vector<std::string>{"system", "bucket"}));
  ASSERT_EQ(f.args.size(), 2u);
  EXPECT_EQ(f.args[0]->as<LiteralExpr>().int_value, 16);

  r = parse_expression("count(*)");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ((*r)->as<FunctionExpr>().args.size(), 1u);
  EXPECT_EQ((*r)->as<FunctionExpr>().args[0]->kind, ExprKind::kStar);

  r = parse_expression("COUNT(DISTINCT a, b)");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE((*r)->as<FunctionExpr>().distinct);
  EXPECT_EQ(to_string(**r), "COUNT(DISTINCT a, b)");

  EXPECT_EQ(canon_expr("lakehouse.system.days(ts)"), "lakehouse.system.days(ts)");
  EXPECT_EQ(canon_expr("now()"), "now()");
  EXPECT_EQ(canon_expr("left(s, 3) || right(s, 2)"), "(left(s, 3) || right(s, 2))");
  EXPECT_EQ(canon_expr("coalesce(a, b, 0)"), "coalesce(a, b, 0)");
  EXPECT_EQ(canon_expr("if(a > 1, 'x', 'y')"), "if((a > 1), 'x', 'y')");
  EXPECT_EQ(canon_expr("CASE WHEN a > 1 THEN 'x' WHEN a < 0 THEN 'y' ELSE 'z' END"),
            "CASE WHEN (a > 1) THEN 'x' WHEN (a < 0) THEN 'y' ELSE 'z' END");
  EXPECT_EQ(canon_expr("case a when 1 then 2 end"), "CASE a WHEN 1 THEN 2 END");
  EXPECT_EQ(canon_expr("CAST(a AS DECIMAL(10,2))"), "CAST(a AS DECIMAL(10, 2))");
  EXPECT_EQ(canon_expr("try_cast(b AS integer)"), "TRY_CAST(b AS INT)");
  EXPECT_EQ(canon_expr("extract(YEAR FROM ts)"), "date_part('YEAR', ts)");
  EXPECT_EQ(canon_expr("partition_summaries[0].lower_bound"), "partition_summaries[0].lower_bound");
  EXPECT_EQ(canon_expr("f(x).y"), "f(x).y");
  EXPECT_EQ(canon_expr("(s).a"), "(s).a");
  EXPECT_EQ(canon_expr("array('a', 'b')[1]"), "array('a', 'b')[1]");

  r = parse_expression("summary['added-data-files']");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ((*r)->kind, ExprKind::kSubscript);
  const auto& sub = (*r)->as<SubscriptExpr>();
  EXPECT_EQ(sub.base->as<ColumnRefExpr>().parts[0], "summary");
  EXPECT_EQ(sub.index->as<LiteralExpr>().text, "added-data-files");

  r = parse_expression("partition_summaries[0].lower_bound");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ((*r)->kind, ExprKind::kFieldAccess);
  EXPECT_EQ((*r)->as<FieldAccessExpr>().field, "lower_bound");
  EXPECT_EQ((*r)->as<FieldAccessExpr>().base->kind, ExprKind::kSubscript);
}

TEST(SqlParserExpr, Subqueries) {
  EXPECT_EQ(canon_expr("a IN (SELECT b FROM u)"), "(a IN (SELECT b FROM u))");
  EXPECT_EQ(canon_expr("a NOT IN (SELECT b FROM u WHERE c = 1)"),
            "(a NOT IN (SELECT b FROM u WHERE (c = 1)))");
  auto r = parse_expression("NOT EXISTS (SELECT 1 FROM u WHERE u.id = t.id)");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ((*r)->kind, ExprKind::kExists);
  EXPECT_TRUE((*r)->as<ExistsExpr>().negated);
  EXPECT_EQ(to_string(**r), "(NOT EXISTS (SELECT 1 FROM u WHERE (u.id = t.id)))");
  EXPECT_EQ(canon_expr("(SELECT max(x) FROM t) + 1"), "((SELECT max(x) FROM t) + 1)");
  EXPECT_EQ(canon_expr("EXISTS (SELECT 1) AND b"), "((EXISTS (SELECT 1)) AND b)");
  // '((' starts either a parenthesised expression or a parenthesised query.
  EXPECT_EQ(canon_expr("((SELECT 1) * 2)"), "((SELECT 1) * 2)");
  EXPECT_EQ(canon_expr("((SELECT 1) UNION (SELECT 2))"), "((SELECT 1) UNION (SELECT 2))");
  EXPECT_EQ(canon_expr("((SELECT 1))"), "(SELECT 1)");
  EXPECT_EQ(canon_expr("a IN ((SELECT 1), 2)"), "(a IN ((SELECT 1), 2))");
  EXPECT_EQ(canon_expr("a IN ((SELECT 1) UNION ALL (SELECT 2))"),
            "(a IN ((SELECT 1) UNION ALL (SELECT 2)))");
  EXPECT_EQ(expr_error_of("((SELECT 1) * )"),
            "syntax error at 1:15 near ')': expected an expression");
  EXPECT_EQ(expr_error_of("((SELECT 1) UNION (SELECT 2)"),
            "syntax error at 1:29 near end of input: expected ')'");
}

TEST(SqlParserExpr, Types) {
  auto type_text = [](std::string_view sql) {
    auto r = parse_type(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().to_string();
    return r.ok() ? to_string(**r) : std::string("<error>");
  };
  EXPECT_EQ(type_text("boolean"), "BOOLEAN");
  EXPECT_EQ(type_text("BYTE"), "TINYINT");
  EXPECT_EQ(type_text("short"), "SMALLINT");
  EXPECT_EQ(type_text("Integer"), "INT");
  EXPECT_EQ(type_text("LONG"), "BIGINT");
  EXPECT_EQ(type_text("REAL"), "FLOAT");
  EXPECT_EQ(type_text("DOUBLE"), "DOUBLE");
  EXPECT_EQ(type_text("NUMERIC(38, 10)"), "DECIMAL(38, 10)");
  EXPECT_EQ(type_text("DECIMAL"), "DECIMAL");
  EXPECT_EQ(type_text("varchar(10)"), "VARCHAR(10)");
  EXPECT_EQ(type_text("CHAR(3)"), "CHAR(3)");
  EXPECT_EQ(type_text("timestamp_ntz"), "TIMESTAMP_NTZ");
  EXPECT_EQ(type_text("TIMESTAMP_LTZ"), "TIMESTAMP_LTZ");
  EXPECT_EQ(type_text("uuid"), "UUID");
  EXPECT_EQ(type_text("TIME"), "TIME");
  EXPECT_EQ(type_text("MAP<STRING,ARRAY<INT>>"), "MAP<STRING, ARRAY<INT>>");
  EXPECT_EQ(type_text("struct<a:int not null comment 'x', `b c` string>"),
            "STRUCT<a: INT NOT NULL COMMENT 'x', `b c`: STRING>");
  auto r = parse_type("ARRAY<STRUCT<x: DOUBLE, y: DOUBLE>>");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->kind, TypeKind::kArray);
  EXPECT_EQ((*r)->element->kind, TypeKind::kStruct);
  EXPECT_EQ((*r)->element->fields[1].name, "y");
  EXPECT_FALSE(parse_type("INTEGR").ok());
}

// ---------------------------------------------------------------------------------------------
// Queries.

TEST(SqlParserQuery, SelectClausesAndAliases) {
  Statement s = parse_ok(
      "select distinct a, b c, t.*, count(*) as n from t1 as t where a > 1 group by 1, b "
      "having count(*) > 1 order by 2 desc nulls last, a asc nulls first limit 10 offset 5");
  const auto& q = *s.as<QueryStatement>().query;
  const auto& sel = q.body->as<SelectBody>();
  EXPECT_TRUE(sel.distinct);
  ASSERT_EQ(sel.items.size(), 4u);
  EXPECT_FALSE(sel.items[0].alias);
  EXPECT_EQ(sel.items[1].alias, "c");
  EXPECT_EQ(sel.items[2].expr->kind, ExprKind::kStar);
  EXPECT_EQ(sel.items[2].expr->as<StarExpr>().qualifier, std::vector<std::string>{"t"});
  EXPECT_EQ(sel.items[3].alias, "n");
  EXPECT_EQ(sel.from[0]->alias, "t");
  ASSERT_EQ(sel.group_by.size(), 2u);
  EXPECT_EQ(sel.group_by[0]->as<LiteralExpr>().int_value, 1);
  ASSERT_TRUE(sel.having);
  ASSERT_EQ(q.order_by.size(), 2u);
  EXPECT_EQ(q.order_by[0].nulls_first, false);
  EXPECT_EQ(q.order_by[1].nulls_first, true);
  EXPECT_FALSE(q.order_by[1].descending);
  EXPECT_EQ(q.offset->as<LiteralExpr>().int_value, 5);
  EXPECT_EQ(to_string(s),
            "SELECT DISTINCT a, b AS c, t.*, count(*) AS n FROM t1 AS t WHERE (a > 1) GROUP BY "
            "1, b HAVING (count(*) > 1) ORDER BY 2 DESC NULLS LAST, a NULLS FIRST LIMIT 10 "
            "OFFSET 5");
  EXPECT_EQ(canon("SELECT 1 + 1"), "SELECT (1 + 1)");
  EXPECT_EQ(canon("SELECT ALL a FROM t"), "SELECT a FROM t");
}

TEST(SqlParserQuery, Joins) {
  Statement s = parse_ok(
      "SELECT * FROM a JOIN b ON a.id = b.id LEFT OUTER JOIN c USING (k) RIGHT JOIN d ON true "
      "FULL OUTER JOIN e ON x CROSS JOIN f LEFT SEMI JOIN g ON y LEFT ANTI JOIN h ON z "
      "SEMI JOIN i ON w ANTI JOIN j ON v INNER JOIN k ON u, l");
  const auto& from = select_of(s).from;
  ASSERT_EQ(from.size(), 2u);
  EXPECT_EQ(from[1]->as<NamedTableRef>().name.parts[0], "l");
  std::vector<JoinType> types;
  const TableRef* ref = from[0].get();
  while (ref->kind == TableRefKind::kJoin) {
    types.insert(types.begin(), ref->as<JoinTableRef>().join_type);
    ref = ref->as<JoinTableRef>().left.get();
  }
  EXPECT_EQ(types, (std::vector<JoinType>{JoinType::kInner, JoinType::kLeft, JoinType::kRight,
                                          JoinType::kFull, JoinType::kCross, JoinType::kLeftSemi,
                                          JoinType::kLeftAnti, JoinType::kLeftSemi,
                                          JoinType::kLeftAnti, JoinType::kInner}));
  EXPECT_EQ(to_string(s),
            "SELECT * FROM a JOIN b ON (a.id = b.id) LEFT JOIN c USING (k) RIGHT JOIN d ON TRUE "
            "FULL JOIN e ON x CROSS JOIN f LEFT SEMI JOIN g ON y LEFT ANTI JOIN h ON z LEFT SEMI "
            "JOIN i ON w LEFT ANTI JOIN j ON v JOIN k ON u, l");
  EXPECT_EQ(canon("SELECT * FROM (SELECT * FROM t) s JOIN (a JOIN b ON a.x = b.x) ON s.x = a.x"),
            "SELECT * FROM (SELECT * FROM t) AS s JOIN (a JOIN b ON (a.x = b.x)) ON (s.x = a.x)");
}

TEST(SqlParserQuery, Sources) {
  Statement s = parse_ok(
      "SELECT * FROM iceberg.`warehouse/analytics/sales`, parquet.`data/f.parquet` p, "
      "csv.`/tmp/x.csv`, range(10) r, range(1, 10, 2), VALUES (1, 'a'), (2, 'b') AS v(id, s), "
      "lakehouse.analytics.sales.manifests m");
  const auto& from = select_of(s).from;
  ASSERT_EQ(from.size(), 7u);
  ASSERT_EQ(from[0]->kind, TableRefKind::kPath);
  EXPECT_EQ(from[0]->as<PathTableRef>().format, "iceberg");
  EXPECT_EQ(from[0]->as<PathTableRef>().path, "warehouse/analytics/sales");
  EXPECT_EQ(from[1]->as<PathTableRef>().format, "parquet");
  EXPECT_EQ(from[1]->alias, "p");
  EXPECT_EQ(from[2]->as<PathTableRef>().format, "csv");
  ASSERT_EQ(from[3]->kind, TableRefKind::kFunction);
  EXPECT_EQ(from[3]->as<FunctionTableRef>().name, std::vector<std::string>{"range"});
  EXPECT_EQ(from[3]->as<FunctionTableRef>().args.size(), 1u);
  EXPECT_EQ(from[4]->as<FunctionTableRef>().args.size(), 3u);
  ASSERT_EQ(from[5]->kind, TableRefKind::kValues);
  EXPECT_EQ(from[5]->as<ValuesTableRef>().rows.size(), 2u);
  EXPECT_EQ(from[5]->column_aliases, (std::vector<std::string>{"id", "s"}));
  EXPECT_EQ(from[6]->as<NamedTableRef>().name.parts.size(), 4u);
  EXPECT_EQ(to_string(s),
            "SELECT * FROM iceberg.`warehouse/analytics/sales`, parquet.`data/f.parquet` AS p, "
            "csv.`/tmp/x.csv`, range(10) AS r, range(1, 10, 2), VALUES (1, 'a'), (2, 'b') AS "
            "v(id, s), lakehouse.analytics.sales.manifests AS m");
}

TEST(SqlParserQuery, TimeTravel) {
  Statement s = parse_ok(
      "SELECT * FROM t FOR VERSION AS OF 123 AS x, t FOR VERSION AS OF 'audit-branch', "
      "t FOR SYSTEM_VERSION AS OF 5, t FOR TIMESTAMP AS OF '2024-01-01 00:00:00', "
      "t FOR SYSTEM_TIME AS OF TIMESTAMP '2024-01-01', t VERSION AS OF 7 v, "
      "t TIMESTAMP AS OF '2024-01-01', iceberg.`p/t` VERSION AS OF 9");
  const auto& from = select_of(s).from;
  ASSERT_EQ(from.size(), 8u);
  const auto& t0 = from[0]->as<NamedTableRef>();
  ASSERT_TRUE(t0.time_travel);
  EXPECT_EQ(t0.time_travel->kind, TimeTravelKind::kVersion);
  EXPECT_EQ(t0.time_travel->value->as<LiteralExpr>().int_value, 123);
  EXPECT_EQ(t0.alias, "x");
  EXPECT_EQ(from[1]->as<NamedTableRef>().time_travel->value->as<LiteralExpr>().text,
            "audit-branch");
  EXPECT_EQ(from[2]->as<NamedTableRef>().time_travel->kind, TimeTravelKind::kVersion);
  EXPECT_EQ(from[3]->as<NamedTableRef>().time_travel->kind, TimeTravelKind::kTimestamp);
  EXPECT_EQ(from[4]->as<NamedTableRef>().time_travel->value->as<LiteralExpr>().literal_kind,
            LiteralKind::kTimestamp);
  EXPECT_EQ(from[5]->as<NamedTableRef>().time_travel->kind, TimeTravelKind::kVersion);
  EXPECT_EQ(from[5]->alias, "v");
  EXPECT_EQ(from[6]->as<NamedTableRef>().time_travel->kind, TimeTravelKind::kTimestamp);
  EXPECT_FALSE(from[6]->alias);
  EXPECT_TRUE(from[7]->as<PathTableRef>().time_travel);
  // A table may still be aliased `version` or `timestamp`.
  Statement a = parse_ok("SELECT version.x FROM t version");
  EXPECT_EQ(select_of(a).from[0]->alias, "version");
}

TEST(SqlParserQuery, SetOperationsCtesAndValues) {
  Statement s = parse_ok(
      "WITH q(a, b) AS (SELECT 1, 2), r AS (VALUES (1, 'a'), (2, 'b')) "
      "SELECT * FROM q UNION ALL SELECT * FROM r INTERSECT SELECT 3, 4 ORDER BY 1 LIMIT 10");
  const auto& q = *s.as<QueryStatement>().query;
  ASSERT_EQ(q.ctes.size(), 2u);
  EXPECT_EQ(q.ctes[0].name, "q");
  EXPECT_EQ(q.ctes[0].columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(q.ctes[1].query->body->kind, QueryBodyKind::kValues);
  ASSERT_EQ(q.body->kind, QueryBodyKind::kSetOp);
  const auto& u = q.body->as<SetOpBody>();
  EXPECT_EQ(u.op, SetOpKind::kUnion);
  EXPECT_TRUE(u.all);
  ASSERT_EQ(u.right->kind, QueryBodyKind::kSetOp);  // INTERSECT binds tighter
  EXPECT_EQ(u.right->as<SetOpBody>().op, SetOpKind::kIntersect);

  Statement e = parse_ok("SELECT 1 EXCEPT SELECT 2 UNION DISTINCT SELECT 3 MINUS SELECT 4");
  const auto& top = e.as<QueryStatement>().query->body->as<SetOpBody>();
  EXPECT_EQ(top.op, SetOpKind::kExcept);
  EXPECT_EQ(top.left->as<SetOpBody>().op, SetOpKind::kUnion);
  EXPECT_FALSE(top.left->as<SetOpBody>().all);

  EXPECT_EQ(canon("(SELECT a FROM t ORDER BY a LIMIT 1) UNION (SELECT 2) ORDER BY 1"),
            "(SELECT a FROM t ORDER BY a LIMIT 1) UNION (SELECT 2) ORDER BY 1");
  EXPECT_EQ(canon("VALUES (1, 'a'), (2, 'b')"), "VALUES (1, 'a'), (2, 'b')");
  EXPECT_EQ(canon("VALUES 1, 2"), "VALUES (1), (2)");
  EXPECT_EQ(canon("SELECT * FROM (VALUES (1), (2)) AS t(x)"),
            "SELECT * FROM (VALUES (1), (2)) AS t(x)");
}

TEST(SqlParserQuery, NonReservedWordsAsNames) {
  Statement s = parse_ok(
      "SELECT date, timestamp, type, comment, location, partition, files, snapshots, "
      "manifests, history, data, key, value, `from` FROM history h JOIN files ON h.date = "
      "files.date WHERE date = DATE '2024-01-01' AND type = 'x'");
  const auto& sel = select_of(s);
  ASSERT_EQ(sel.items.size(), 14u);
  EXPECT_EQ(sel.items[0].expr->as<ColumnRefExpr>().parts[0], "date");
  EXPECT_EQ(sel.items[1].expr->as<ColumnRefExpr>().parts[0], "timestamp");
  EXPECT_EQ(sel.items[13].expr->as<ColumnRefExpr>().parts[0], "from");
  EXPECT_EQ(canon("SELECT * FROM db.snapshots"), "SELECT * FROM db.snapshots");
  EXPECT_EQ(canon("CREATE TABLE t (date DATE, timestamp TIMESTAMP, type STRING, comment STRING, "
                  "location STRING, partition INT)"),
            "CREATE TABLE t (date DATE, timestamp TIMESTAMP, type STRING, comment STRING, "
            "location STRING, partition INT)");
  EXPECT_EQ(canon("SELECT a AS `select`, b AS `order` FROM t"),
            "SELECT a AS `select`, b AS `order` FROM t");
}

// ---------------------------------------------------------------------------------------------
// Statements.

TEST(SqlParserStatements, ExplainDescribeShowUse) {
  Statement e = parse_ok("EXPLAIN SELECT * FROM lakehouse.analytics.sales WHERE country = 'DE'");
  ASSERT_EQ(e.kind(), StatementKind::kExplain);
  EXPECT_EQ(e.as<ExplainStatement>().mode, ExplainMode::kDefault);
  EXPECT_EQ(e.as<ExplainStatement>().statement->kind(), StatementKind::kQuery);
  EXPECT_EQ(parse_ok("EXPLAIN EXTENDED SELECT 1").as<ExplainStatement>().mode,
            ExplainMode::kExtended);
  EXPECT_EQ(parse_ok("explain formatted select 1").as<ExplainStatement>().mode,
            ExplainMode::kFormatted);

  EXPECT_EQ(canon("DESC t"), "DESCRIBE TABLE t");
  EXPECT_EQ(canon("DESCRIBE EXTENDED a.b"), "DESCRIBE TABLE EXTENDED a.b");
  EXPECT_EQ(canon("describe table formatted a.b"), "DESCRIBE TABLE FORMATTED a.b");
  EXPECT_EQ(canon("DESCRIBE NAMESPACE EXTENDED analytics"),
            "DESCRIBE NAMESPACE EXTENDED analytics");
  EXPECT_EQ(canon("DESCRIBE DATABASE analytics"), "DESCRIBE NAMESPACE analytics");

  EXPECT_EQ(parse_ok("SHOW NAMESPACES").kind(), StatementKind::kShowNamespaces);
  EXPECT_EQ(canon("SHOW DATABASES IN lakehouse"), "SHOW NAMESPACES IN lakehouse");
  EXPECT_EQ(canon("SHOW SCHEMAS"), "SHOW NAMESPACES");
  EXPECT_EQ(canon("SHOW TABLES"), "SHOW TABLES");
  EXPECT_EQ(canon("SHOW TABLES FROM lakehouse.analytics LIKE 'sa*'"),
            "SHOW TABLES IN lakehouse.analytics LIKE 'sa*'");
  Statement tp = parse_ok("SHOW TBLPROPERTIES t ('format-version')");
  EXPECT_EQ(tp.as<ShowTblPropertiesStatement>().key, "format-version");
  EXPECT_EQ(canon("SHOW TBLPROPERTIES a.b"), "SHOW TBLPROPERTIES a.b");
  EXPECT_EQ(canon("SHOW CREATE TABLE a.b"), "SHOW CREATE TABLE a.b");
  EXPECT_EQ(parse_ok("SHOW CATALOGS").kind(), StatementKind::kShowCatalogs);
  EXPECT_EQ(canon("SHOW COLUMNS FROM t"), "SHOW COLUMNS IN t");

  Statement cache = parse_ok("CACHE TABLE db.t");
  ASSERT_EQ(cache.kind(), StatementKind::kCacheTable);
  EXPECT_FALSE(cache.as<CacheTableStatement>().lazy);
  EXPECT_EQ(cache.as<CacheTableStatement>().as_query, nullptr);
  EXPECT_TRUE(parse_ok("cache lazy table t").as<CacheTableStatement>().lazy);
  EXPECT_EQ(canon("CACHE TABLE v SELECT 1"), "CACHE TABLE v AS SELECT 1");
  EXPECT_EQ(canon("uncache table t"), "UNCACHE TABLE t");
  EXPECT_EQ(parse_ok("CLEAR CACHE").kind(), StatementKind::kClearCache);
  EXPECT_TRUE(parse_ok("DROP VIEW v").as<DropTableStatement>().view);
  EXPECT_EQ(error_of("CACHE t"), "syntax error at 1:7 near 't': expected TABLE");
  EXPECT_EQ(error_of("CACHE TABLE t x"),
            "syntax error at 1:15 near 'x': expected AS SELECT or end of input");

  Statement u = parse_ok("USE lakehouse.analytics");
  EXPECT_EQ(u.as<UseStatement>().ns.parts, (std::vector<std::string>{"lakehouse", "analytics"}));
  EXPECT_EQ(canon("USE NAMESPACE analytics"), "USE NAMESPACE analytics");
}

TEST(SqlParserStatements, Namespaces) {
  Statement c = parse_ok(
      "CREATE DATABASE IF NOT EXISTS lakehouse.analytics COMMENT 'c' LOCATION 's3://x' WITH "
      "DBPROPERTIES ('a' = 'b')");
  const auto& cn = c.as<CreateNamespaceStatement>();
  EXPECT_TRUE(cn.if_not_exists);
  EXPECT_EQ(cn.comment, "c");
  EXPECT_EQ(cn.location, "s3://x");
  EXPECT_EQ(cn.properties.size(), 1u);
  EXPECT_EQ(canon("CREATE NAMESPACE analytics"), "CREATE NAMESPACE analytics");
  EXPECT_EQ(canon("CREATE SCHEMA x WITH PROPERTIES ('k'='v')"),
            "CREATE NAMESPACE x WITH PROPERTIES ('k' = 'v')");
  Statement d = parse_ok("DROP DATABASE IF EXISTS a CASCADE");
  EXPECT_TRUE(d.as<DropNamespaceStatement>().if_exists);
  EXPECT_TRUE(d.as<DropNamespaceStatement>().cascade);
  EXPECT_EQ(canon("DROP NAMESPACE analytics"), "DROP NAMESPACE analytics");
}

TEST(SqlParserStatements, CreateTable) {
  Statement s = parse_ok(
      "CREATE OR REPLACE TABLE t (id BIGINT NOT NULL COMMENT 'the id', s STRING, d DATE, "
      "ts TIMESTAMP_NTZ, m MAP<STRING, ARRAY<INT>>, st STRUCT<a: INT NOT NULL, b STRING>) "
      "USING iceberg PARTITIONED BY (years(d), months(d), hours(ts), truncate(4, s), "
      "bucket(16, id), country) LOCATION '/tmp/t' COMMENT 'tbl' "
      "TBLPROPERTIES ('format-version'=2, write.format.default = 'parquet')");
  const auto& c = s.as<CreateTableStatement>();
  EXPECT_TRUE(c.or_replace);
  EXPECT_TRUE(c.columns[0].not_null);
  EXPECT_EQ(c.columns[0].comment, "the id");
  EXPECT_EQ(c.columns[3].type->kind, TypeKind::kTimestampNtz);
  EXPECT_EQ(c.columns[4].type->value->element->kind, TypeKind::kInt);
  EXPECT_TRUE(c.columns[5].type->fields[0].not_null);
  ASSERT_EQ(c.partitioned_by.size(), 6u);
  EXPECT_EQ(c.partitioned_by[3].transform, "truncate");
  EXPECT_EQ(c.partitioned_by[3].param, 4);
  EXPECT_EQ(c.partitioned_by[4].transform, "bucket");
  EXPECT_EQ(c.partitioned_by[4].param, 16);
  EXPECT_EQ(c.partitioned_by[4].column, std::vector<std::string>{"id"});
  EXPECT_EQ(c.partitioned_by[5].transform, "identity");
  EXPECT_EQ(c.location, "/tmp/t");
  EXPECT_EQ(c.comment, "tbl");
  EXPECT_EQ(c.properties[0].second, "2");
  EXPECT_EQ(c.properties[1].first, "write.format.default");
  EXPECT_EQ(to_string(s),
            "CREATE OR REPLACE TABLE t (id BIGINT NOT NULL COMMENT 'the id', s STRING, d DATE, "
            "ts TIMESTAMP_NTZ, m MAP<STRING, ARRAY<INT>>, st STRUCT<a: INT NOT NULL, b: STRING>) "
            "USING iceberg PARTITIONED BY (years(d), months(d), hours(ts), truncate(4, s), "
            "bucket(16, id), country) LOCATION '/tmp/t' COMMENT 'tbl' TBLPROPERTIES "
            "('format-version' = '2', 'write.format.default' = 'parquet')");

  Statement ctas = parse_ok("CREATE TABLE t2 USING iceberg PARTITIONED BY (c) AS SELECT * FROM t");
  EXPECT_TRUE(ctas.as<CreateTableStatement>().as_query);
  EXPECT_TRUE(ctas.as<CreateTableStatement>().columns.empty());
  EXPECT_EQ(canon("CREATE TABLE t3 AS SELECT 1 AS x"), "CREATE TABLE t3 AS SELECT 1 AS x");
  Statement r = parse_ok("REPLACE TABLE t (a INT) USING iceberg");
  EXPECT_TRUE(r.as<CreateTableStatement>().replace);
  EXPECT_EQ(to_string(r), "REPLACE TABLE t (a INT) USING iceberg");
}

TEST(SqlParserStatements, InsertDeleteUpdate) {
  Statement i = parse_ok("INSERT INTO lakehouse.analytics.t VALUES (1, 'a'), (2, 'b')");
  const auto& ins = i.as<InsertStatement>();
  EXPECT_FALSE(ins.overwrite);
  ASSERT_EQ(ins.source->body->kind, QueryBodyKind::kValues);
  EXPECT_EQ(ins.source->body->as<ValuesBody>().rows.size(), 2u);
  EXPECT_EQ(canon("INSERT INTO TABLE t (id, s) VALUES (1, 'a')"),
            "INSERT INTO t (id, s) VALUES (1, 'a')");
  EXPECT_EQ(canon("INSERT INTO t SELECT * FROM u WHERE x > 1"),
            "INSERT INTO t SELECT * FROM u WHERE (x > 1)");
  EXPECT_EQ(canon("INSERT INTO t (SELECT * FROM u)"), "INSERT INTO t (SELECT * FROM u)");
  EXPECT_EQ(canon("insert into t with c as (select 1) select * from c"),
            "INSERT INTO t WITH c AS (SELECT 1) SELECT * FROM c");
  Statement o =
      parse_ok("INSERT OVERWRITE TABLE t PARTITION (d = '2024-01-01', h) SELECT * FROM u");
  const auto& ow = o.as<InsertStatement>();
  EXPECT_TRUE(ow.overwrite);
  ASSERT_EQ(ow.partition.size(), 2u);
  EXPECT_EQ(ow.partition[0].first, "d");
  EXPECT_TRUE(ow.partition[0].second);
  EXPECT_FALSE(ow.partition[1].second);
  EXPECT_EQ(to_string(o), "INSERT OVERWRITE t PARTITION (d = '2024-01-01', h) SELECT * FROM u");

  Statement d = parse_ok("DELETE FROM t AS x WHERE x.a = 1");
  EXPECT_EQ(d.as<DeleteStatement>().alias, "x");
  EXPECT_EQ(canon("DELETE FROM t"), "DELETE FROM t");
  EXPECT_EQ(canon("DELETE FROM t x WHERE x.a = 1"), "DELETE FROM t AS x WHERE (x.a = 1)");

  Statement u = parse_ok("UPDATE t AS x SET x.a = 1, b = b + 1 WHERE c = 2");
  const auto& up = u.as<UpdateStatement>();
  EXPECT_EQ(up.alias, "x");
  ASSERT_EQ(up.assignments.size(), 2u);
  EXPECT_EQ(up.assignments[0].column, (std::vector<std::string>{"x", "a"}));
  EXPECT_EQ(to_string(u), "UPDATE t AS x SET x.a = 1, b = (b + 1) WHERE (c = 2)");
}

TEST(SqlParserStatements, Merge) {
  Statement m = parse_ok(
      "MERGE INTO db.t AS t USING (SELECT * FROM u) AS s ON t.id = s.id "
      "WHEN MATCHED AND s.op = 'D' THEN DELETE "
      "WHEN MATCHED THEN UPDATE SET t.v = s.v, c = 1 "
      "WHEN NOT MATCHED AND s.x > 1 THEN INSERT (id, v) VALUES (s.id, s.v) "
      "WHEN NOT MATCHED BY TARGET THEN INSERT * "
      "WHEN NOT MATCHED BY SOURCE AND t.x < 0 THEN DELETE "
      "WHEN NOT MATCHED BY SOURCE THEN UPDATE SET v = NULL");
  const auto& mg = m.as<MergeStatement>();
  EXPECT_EQ(mg.target_alias, "t");
  EXPECT_EQ(mg.source->kind, TableRefKind::kSubquery);
  EXPECT_EQ(mg.source->alias, "s");
  ASSERT_EQ(mg.clauses.size(), 6u);
  EXPECT_EQ(mg.clauses[0].match, MergeMatch::kMatched);
  EXPECT_EQ(mg.clauses[0].action, MergeAction::kDelete);
  EXPECT_TRUE(mg.clauses[0].condition);
  EXPECT_EQ(mg.clauses[1].action, MergeAction::kUpdate);
  EXPECT_EQ(mg.clauses[1].assignments.size(), 2u);
  EXPECT_EQ(mg.clauses[2].match, MergeMatch::kNotMatched);
  EXPECT_EQ(mg.clauses[2].insert_columns, (std::vector<std::string>{"id", "v"}));
  EXPECT_EQ(mg.clauses[2].insert_values.size(), 2u);
  EXPECT_EQ(mg.clauses[3].action, MergeAction::kInsertStar);
  EXPECT_EQ(mg.clauses[4].match, MergeMatch::kNotMatchedBySource);
  EXPECT_EQ(mg.clauses[5].action, MergeAction::kUpdate);
  EXPECT_EQ(canon("MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * "
                  "WHEN NOT MATCHED THEN INSERT *"),
            "MERGE INTO t USING s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET * WHEN NOT "
            "MATCHED THEN INSERT *");
}

TEST(SqlParserStatements, AlterTableActions) {
  auto action_of = [](std::string_view sql) {
    auto r = parse_statement(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().to_string();
    return r.ok() ? std::move(r->as<AlterTableStatement>().action) : AlterTableAction{};
  };
  auto unset = std::get<UnsetTblProperties>(
      action_of("ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('a', b.c)"));
  EXPECT_TRUE(unset.if_exists);
  EXPECT_EQ(unset.keys, (std::vector<std::string>{"a", "b.c"}));
  EXPECT_EQ(std::get<RenameTable>(action_of("ALTER TABLE t RENAME TO db.u")).to.parts.size(), 2u);
  auto add =
      std::get<AddColumns>(action_of("ALTER TABLE t ADD COLUMNS (x INT COMMENT 'c' FIRST, y STRING "
                                     "AFTER x, p.z DOUBLE NOT NULL)"));
  ASSERT_EQ(add.columns.size(), 3u);
  EXPECT_EQ(add.columns[0].position.kind, ColumnPositionKind::kFirst);
  EXPECT_EQ(add.columns[1].position.after, std::vector<std::string>{"x"});
  EXPECT_EQ(add.columns[2].name, (std::vector<std::string>{"p", "z"}));
  EXPECT_TRUE(add.columns[2].not_null);
  EXPECT_EQ(std::get<AddColumns>(action_of("ALTER TABLE t ADD COLUMN x INT")).columns.size(), 1u);
  EXPECT_EQ(std::get<DropColumns>(action_of("ALTER TABLE t DROP COLUMNS x, y")).columns.size(), 2u);
  auto rc = std::get<RenameColumn>(action_of("ALTER TABLE t RENAME COLUMN p.a TO b"));
  EXPECT_EQ(rc.column, (std::vector<std::string>{"p", "a"}));
  EXPECT_EQ(rc.new_name, "b");
  auto ac = std::get<AlterColumn>(action_of("ALTER TABLE t ALTER COLUMN c TYPE BIGINT"));
  EXPECT_EQ(ac.new_type->kind, TypeKind::kBigint);
  EXPECT_EQ(std::get<AlterColumn>(action_of("ALTER TABLE t ALTER c SET NOT NULL")).not_null, true);
  EXPECT_EQ(std::get<AlterColumn>(action_of("ALTER TABLE t ALTER COLUMN c DROP NOT NULL")).not_null,
            false);
  EXPECT_TRUE(std::get<AlterColumn>(action_of("ALTER TABLE t ALTER COLUMN c SET DEFAULT 1 + 2"))
                  .set_default);
  EXPECT_TRUE(
      std::get<AlterColumn>(action_of("ALTER TABLE t ALTER COLUMN c DROP DEFAULT")).drop_default);
  EXPECT_TRUE(std::get<AddColumns>(action_of("ALTER TABLE t ADD COLUMN c INT DEFAULT 5"))
                  .columns[0]
                  .default_value);
  EXPECT_EQ(std::get<AlterColumn>(action_of("ALTER TABLE t ALTER COLUMN c COMMENT 'x'")).comment,
            "x");
  EXPECT_EQ(std::get<AlterColumn>(action_of("ALTER TABLE t ALTER COLUMN c AFTER d")).position->kind,
            ColumnPositionKind::kAfter);
  auto apf = std::get<AddPartitionField>(
      action_of("ALTER TABLE t ADD PARTITION FIELD bucket(16, id) AS shard"));
  EXPECT_EQ(apf.name, "shard");
  EXPECT_EQ(apf.term.param, 16);
  auto dpf = std::get<DropPartitionField>(action_of("ALTER TABLE t DROP PARTITION FIELD shard"));
  EXPECT_EQ(dpf.term.transform, "identity");
  EXPECT_EQ(dpf.term.column, std::vector<std::string>{"shard"});
  auto w = std::get<SetWriteOrder>(action_of(
      "ALTER TABLE t WRITE DISTRIBUTED BY PARTITION LOCALLY ORDERED BY a, bucket(4, b) DESC "
      "NULLS FIRST"));
  EXPECT_TRUE(w.distributed_by_partition);
  EXPECT_TRUE(w.locally);
  ASSERT_EQ(w.order.size(), 2u);
  EXPECT_TRUE(w.order[1].descending);
  EXPECT_EQ(w.order[1].nulls_first, true);
  EXPECT_TRUE(std::get<SetWriteOrder>(action_of("ALTER TABLE t WRITE UNORDERED")).unordered);
  EXPECT_EQ(std::get<SetIdentifierFields>(action_of("ALTER TABLE t SET IDENTIFIER FIELDS id, s"))
                .columns.size(),
            2u);
  auto br = std::get<CreateRef>(
      action_of("ALTER TABLE t CREATE BRANCH IF NOT EXISTS b AS OF VERSION 123 RETAIN 7 DAYS WITH "
                "SNAPSHOT RETENTION 2 SNAPSHOTS 3 DAYS"));
  EXPECT_FALSE(br.tag);
  EXPECT_TRUE(br.if_not_exists);
  EXPECT_EQ(br.snapshot_id, 123);
  EXPECT_EQ(br.retain->amount, 7);
  EXPECT_EQ(br.min_snapshots_to_keep, 2);
  EXPECT_EQ(br.max_snapshot_age->unit, "DAYS");
  auto tag =
      std::get<CreateRef>(action_of("ALTER TABLE t CREATE OR REPLACE TAG v1 AS OF VERSION 5"));
  EXPECT_TRUE(tag.tag);
  EXPECT_TRUE(tag.replace);
  EXPECT_TRUE(tag.create);
  auto rep = std::get<CreateRef>(action_of("ALTER TABLE t REPLACE BRANCH b AS OF VERSION 9"));
  EXPECT_FALSE(rep.create);
  EXPECT_TRUE(rep.replace);
  auto drop = std::get<DropRef>(action_of("ALTER TABLE t DROP TAG IF EXISTS v1"));
  EXPECT_TRUE(drop.tag);
  EXPECT_TRUE(drop.if_exists);
}

TEST(SqlParserStatements, DropCallSet) {
  Statement d = parse_ok("DROP TABLE IF EXISTS a.b.c PURGE");
  EXPECT_TRUE(d.as<DropTableStatement>().if_exists);
  EXPECT_TRUE(d.as<DropTableStatement>().purge);
  EXPECT_EQ(d.as<DropTableStatement>().table.parts.size(), 3u);

  Statement c = parse_ok(
      "CALL system.expire_snapshots(table => 'db.t', older_than => TIMESTAMP '2024-01-01', "
      "retain_last => 5, snapshot_ids => array(1, 2), options => map('k', 'v'))");
  const auto& call = c.as<CallStatement>();
  ASSERT_EQ(call.args.size(), 5u);
  EXPECT_EQ(call.args[3].value->as<FunctionExpr>().name, std::vector<std::string>{"array"});
  EXPECT_EQ(call.args[4].value->as<FunctionExpr>().args.size(), 2u);
  Statement p = parse_ok("CALL lakehouse.system.rollback_to_snapshot('db.t', 123)");
  EXPECT_FALSE(p.as<CallStatement>().args[0].name);
  EXPECT_EQ(p.as<CallStatement>().args[1].value->as<LiteralExpr>().int_value, 123);

  Statement s = parse_ok("SET spark.sql.shuffle.partitions = 4");
  EXPECT_EQ(s.as<SetStatement>().key, "spark.sql.shuffle.partitions");
  EXPECT_EQ(s.as<SetStatement>().value, "4");
  EXPECT_EQ(parse_ok("SET a.b = 'x y'").as<SetStatement>().value, "x y");
  EXPECT_FALSE(parse_ok("SET").as<SetStatement>().value);
}

// ---------------------------------------------------------------------------------------------
// Scripts, positions and errors.

TEST(SqlParserScript, SplitsStatementsWithComments) {
  auto r = parse_sql(
      "-- a comment; with a semicolon\n"
      "USE analytics;;\n"
      "SELECT ';' AS s, 1 /* a ; b /* nested */ */ FROM t; \n"
      "  SHOW TABLES -- trailing\n"
      ";");
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].kind(), StatementKind::kUse);
  EXPECT_EQ((*r)[0].text, "USE analytics");
  EXPECT_EQ((*r)[0].pos.line, 2u);
  EXPECT_EQ((*r)[1].kind(), StatementKind::kQuery);
  EXPECT_EQ((*r)[1].text, "SELECT ';' AS s, 1 /* a ; b /* nested */ */ FROM t");
  EXPECT_EQ((*r)[2].pos.line, 4u);
  EXPECT_EQ((*r)[2].pos.column, 3u);
  EXPECT_EQ((*r)[2].text, "SHOW TABLES");

  auto empty = parse_sql("  -- nothing\n ; ");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  EXPECT_FALSE(parse_statement("SELECT 1; SELECT 2").ok());
}

TEST(SqlParserScript, NodePositions) {
  Statement s = parse_ok("SELECT a,\n  b + 1 AS c\nFROM t\nWHERE x = 'y'");
  const auto& sel = select_of(s);
  EXPECT_EQ(sel.items[1].expr->pos.line, 2u);
  EXPECT_EQ(sel.items[1].expr->pos.column, 5u);  // the '+'
  EXPECT_EQ(sel.items[1].expr->as<BinaryExpr>().left->pos.column, 3u);
  EXPECT_EQ(sel.from[0]->pos.line, 3u);
  EXPECT_EQ(sel.from[0]->pos.column, 6u);
  EXPECT_EQ(sel.where->as<BinaryExpr>().right->pos.line, 4u);
  EXPECT_EQ(sel.where->as<BinaryExpr>().right->pos.column, 11u);
}

TEST(SqlParserErrors, PointAtTheOffendingToken) {
  EXPECT_EQ(error_of("SELECT id, name FORM t"),
            "syntax error at 1:17 near 'FORM': expected FROM, WHERE, GROUP BY, HAVING, ORDER BY, "
            "LIMIT or end of input");
  EXPECT_EQ(error_of("SELECT * FROM t WHRE x = 1"),
            "syntax error at 1:17 near 'WHRE': expected JOIN, WHERE, GROUP BY, HAVING, ORDER BY, "
            "LIMIT or end of input");
  EXPECT_EQ(error_of("SELECT * FROM"),
            "syntax error at 1:14 near end of input: expected a table name");
  EXPECT_EQ(error_of("SELECT a FROM t WHERE"),
            "syntax error at 1:22 near end of input: expected an expression");
  EXPECT_EQ(error_of("SELECT 1;\nSELECT * FROM t\nWHERE a = = 1"),
            "syntax error at 3:11 near '=': expected an expression");
  EXPECT_EQ(error_of("SELEC 1"),
            "syntax error at 1:1 near 'SELEC': expected a statement (SELECT, INSERT, CREATE, ...)");
  EXPECT_EQ(error_of("SELECT (a"), "syntax error at 1:10 near end of input: expected ')'");
  EXPECT_EQ(error_of("SELECT * FROM t ORDER a"), "syntax error at 1:23 near 'a': expected BY");
  EXPECT_EQ(error_of("SELECT * FROM t GROUP a"), "syntax error at 1:23 near 'a': expected BY");
  EXPECT_EQ(error_of("SELECT * FROM t WHERE a NOT 5"),
            "syntax error at 1:29 near '5': expected IN, BETWEEN, LIKE, ILIKE or RLIKE after NOT");
  EXPECT_EQ(error_of("SELECT * FROM t LEFT t2 ON a"),
            "syntax error at 1:22 near 't2': expected JOIN");
  EXPECT_EQ(error_of("SELECT CAST(a AS)"), "syntax error at 1:17 near ')': expected a type name");
  EXPECT_EQ(error_of("CREATE TABLE t (a INTEGR)"),
            "syntax error at 1:19 near 'INTEGR': unknown type name");
  EXPECT_EQ(error_of("CREATE TABLE t"),
            "syntax error at 1:15 near end of input: expected a column list or AS SELECT");
  EXPECT_EQ(error_of("INSERT t VALUES (1)"), "syntax error at 1:8 near 't': expected INTO");
  EXPECT_EQ(error_of("ALTER TABLE t FOO"),
            "syntax error at 1:15 near 'FOO': expected SET, UNSET, RENAME, ADD, DROP, ALTER, "
            "REPLACE, CREATE or WRITE after the table name");
  EXPECT_EQ(error_of("MERGE INTO t USING s ON a = b WHEN MATCHED THEN INSERT *"),
            "syntax error at 1:56 near '*': INSERT is allowed only in WHEN NOT MATCHED");
  EXPECT_EQ(error_of("CALL system.x(a => 1, 2)"),
            "syntax error at 1:23 near '2': positional argument after a named argument");
  EXPECT_EQ(error_of("DELETE FROM t WHERE a = 1 b"),
            "syntax error at 1:27 near 'b': expected end of input");
  EXPECT_EQ(error_of("SELECT a IN () FROM t"),
            "syntax error at 1:14 near ')': expected an expression in the IN list");
  EXPECT_EQ(error_of("SELECT 1 SELECT 2"),
            "syntax error at 1:10 near 'SELECT': expected FROM, WHERE, GROUP BY, HAVING, ORDER "
            "BY, LIMIT or end of input");
  EXPECT_EQ(error_of("EXPLAIN"),
            "syntax error at 1:8 near end of input: expected a statement after EXPLAIN");
}

TEST(SqlParserErrors, LexicalErrors) {
  EXPECT_EQ(error_of("SELECT 'abc"),
            "syntax error at 1:8 near ''abc': unterminated string literal");
  EXPECT_EQ(error_of("SELECT \"abc"),
            "syntax error at 1:8 near '\"abc': unterminated string literal");
  EXPECT_EQ(error_of("SELECT 1 /* x"), "syntax error at 1:10 near '/* x': unterminated comment");
  EXPECT_EQ(error_of("SELECT `abc"),
            "syntax error at 1:8 near '`abc': unterminated quoted identifier");
  EXPECT_EQ(error_of("SELECT 1e"),
            "syntax error at 1:8 near '1e': invalid number: exponent needs digits");
  EXPECT_EQ(error_of("SELECT 12abc"), "syntax error at 1:8 near '12abc': invalid number");
  EXPECT_EQ(error_of("SELECT 1.5L"), "syntax error at 1:8 near '1.5L': invalid number");
  EXPECT_EQ(error_of("SELECT x'ABC'"),
            "syntax error at 1:8 near 'x'ABC'': binary literal needs an even number of hex digits");
  EXPECT_EQ(error_of("SELECT #"), "syntax error at 1:8 near '#': unexpected character");
  EXPECT_EQ(error_of("SELECT 'two\nlines"),
            "syntax error at 1:8 near ''two': unterminated string literal");
  EXPECT_EQ(error_of("SELECT 1;\n  SELECT 'unterminated\nmore"),
            "syntax error at 2:10 near ''unterminated': unterminated string literal");
  EXPECT_EQ(expr_error_of("a = "), "syntax error at 1:5 near end of input: expected an expression");
  EXPECT_EQ(expr_error_of("a b"), "syntax error at 1:3 near 'b': expected end of expression");
  EXPECT_EQ(expr_error_of("INTERVAL 3"),
            "syntax error at 1:11 near end of input: expected an interval unit (DAY, HOUR, ...)");
}

TEST(SqlParserErrors, DeepNestingIsAnErrorNotACrash) {
  std::string deep = "SELECT " + std::string(5000, '(') + "1" + std::string(5000, ')');
  std::string message = error_of(deep);
  EXPECT_NE(message.find("statement is nested too deeply"), std::string::npos) << message;
  std::string nots = "SELECT ";
  for (int i = 0; i < 5000; ++i) nots += "NOT ";
  EXPECT_NE(error_of(nots + "1").find("nested too deeply"), std::string::npos);
  std::string explains;
  for (int i = 0; i < 5000; ++i) explains += "EXPLAIN ";
  EXPECT_NE(error_of(explains + "SELECT 1").find("nested too deeply"), std::string::npos);
  // Ordinary nesting is fine.
  std::string ok = "SELECT " + std::string(200, '(') + "1" + std::string(200, ')');
  EXPECT_EQ(canon(ok), "SELECT 1");
}

// '(' before VALUES may open a parenthesised expression or a subquery; a failed guess is
// remembered, not retried from every enclosing level (10 chains of 12 took hours, a fuzz finding).
TEST(SqlParserErrors, UnclosedParenthesesBeforeQueriesAreOneErrorQuickly) {
  std::string chains;
  for (int i = 0; i < 10; ++i) chains += "VALUES (1), " + std::string(12, '(');
  EXPECT_EQ(error_of(chains), "syntax error at 1:241 near end of input: expected an expression");
  // Past the nesting limit no other reading is tried either (each would go as deep).
  std::string deep;
  for (int i = 0; i < 10; ++i) deep += "VALUES (1), " + std::string(120, '(');
  EXPECT_NE(error_of(deep).find("statement is nested too deeply"), std::string::npos);
  // The same shape closed is a valid query: the remembered failures do not get in the way.
  EXPECT_EQ(canon("SELECT ((((VALUES (1)))) + 1), ((SELECT 2) UNION (SELECT 3)) FROM t"),
            "SELECT ((VALUES (1)) + 1), ((SELECT 2) UNION (SELECT 3)) FROM t");
}

TEST(SqlParserErrors, EntryPoints) {
  auto q = parse_query("SELECT a FROM t UNION ALL SELECT b FROM u;");
  ASSERT_TRUE(q.ok()) << q.status().to_string();
  EXPECT_EQ(to_string(**q), "SELECT a FROM t UNION ALL SELECT b FROM u");
  EXPECT_FALSE(parse_query("DROP TABLE t").ok());
  EXPECT_EQ(parse_statement("").status().message(),
            "syntax error at 1:1 near end of input: expected a statement");
  EXPECT_EQ(parse_statement("SELECT 1; SELECT 2").status().message(),
            "syntax error at 1:11 near 'SELECT': expected ';' or end of input");
  auto t = parse_type("DECIMAL(10, 2) x");
  EXPECT_EQ(t.status().message(), "syntax error at 1:16 near 'x': expected end of type");
}

// A sign directly before a number is part of the literal; a negated parenthesised number is a
// negation, and prints so that it reads back as one (a fuzz finding: VALUES- (1)).
TEST(SqlParserRoundTrip, NegatedNumbersStayNegations) {
  EXPECT_EQ(canon_expr("-1"), "-1");
  EXPECT_EQ(canon_expr("- (1)"), "(- (1))");
  EXPECT_EQ(canon_expr("(- (1))"), "(- (1))");
  EXPECT_EQ(canon_expr("-(2.5)"), "(- (2.5))");
  EXPECT_EQ(canon_expr("- - 1"), "(- (-1))");
  EXPECT_EQ(canon_expr("(- (-1))"), "(- (-1))");
  EXPECT_EQ(canon("VALUES- (1), (2)"), "VALUES ((- (1))), (2)");
  EXPECT_EQ(canon("VALUES ((- (1))), (2)"), "VALUES ((- (1))), (2)");
}

TEST(SqlParserRoundTrip, AmbiguousNamesAreQuoted) {
  // A column named `values` or `interval` must not print as the start of a query or literal.
  EXPECT_EQ(canon("SELECT `values` - 1, t.`interval` FROM t"),
            "SELECT (`values` - 1), t.`interval` FROM t");
  EXPECT_EQ(canon("SELECT values - 1 FROM t"), "SELECT (`values` - 1) FROM t");
  expect_round_trip("SELECT values - 1 FROM t");
  EXPECT_EQ(canon("INSERT INTO TABLE `table` SELECT 1"), "INSERT INTO `table` SELECT 1");
  expect_round_trip("INSERT INTO TABLE `table` PARTITION (p) SELECT 1");
  expect_round_trip("DESCRIBE TABLE `extended`");
  EXPECT_EQ(canon("SELECT `a b`, `select`, `1x`, _ok FROM `my table`"),
            "SELECT `a b`, `select`, `1x`, _ok FROM `my table`");
}

TEST(SqlParserErrors, KeywordsAreCaseInsensitive) {
  EXPECT_EQ(canon("sElEcT a FrOm t wHeRe a iS nOt NuLl"), "SELECT a FROM t WHERE (a IS NOT NULL)");
  EXPECT_EQ(canon("select * from t where x in (1) order by x desc limit 2"),
            "SELECT * FROM t WHERE (x IN (1)) ORDER BY x DESC LIMIT 2");
}

// Every statement form prints text that parses back to the same text.
TEST(SqlParserRoundTrip, AllForms) {
  const char* kStatements[] = {
      "select a, b c, t.* from t1 as t left outer join t2 u on t.id = u.id where not a = 1 or b "
      "is not null and c between 1 and 2",
      "WITH q(a, b) AS (SELECT 1, 2) SELECT * FROM q UNION ALL SELECT * FROM q INTERSECT SELECT "
      "3, 4 ORDER BY 1 DESC NULLS LAST LIMIT 10 OFFSET 5",
      "SELECT * FROM VALUES (1,'a'), (2,'b') AS t(id, s)",
      "SELECT * FROM iceberg.`a/b`, parquet.`f.parquet` p, csv.`x``y.csv`",
      "SELECT * FROM t FOR VERSION AS OF 123 AS x, t TIMESTAMP AS OF '2024-01-01'",
      "SELECT (SELECT max(x) FROM t) AS m, EXISTS (SELECT 1), a IN (SELECT b FROM u)",
      "SELECT DATE '2024-06-15', TIMESTAMP_NTZ '2024-06-15 10:00:00', INTERVAL '1' DAY, "
      "X'CAFE', 1e10, 1.5, 10L, 2.5BD, 1.0D, -5, 'it''s', 'a\\\\b', NULL, true",
      "SELECT a || b, a + b * c - d / e % f, a DIV b, -a, - -a, +a, ~a, a <=> b",
      "SELECT m['key'], arr[0], s.a.b, f(x).y, (a).b, x::int FROM t",
      "SELECT CASE WHEN a THEN 1 ELSE 2 END, CAST(a AS MAP<STRING, STRUCT<x: INT>>)",
      "SELECT * FROM a JOIN (b JOIN c ON b.x = c.x) ON a.x = b.x",
      "SELECT * FROM (a JOIN b ON a.x = b.x) AS j",
      "(SELECT 1) UNION (SELECT 2) ORDER BY 1",
      "EXPLAIN FORMATTED SELECT 1",
      "CREATE TABLE IF NOT EXISTS db.t (a INT NOT NULL COMMENT 'x') USING iceberg PARTITIONED BY "
      "(bucket(16, a), `weird col`) TBLPROPERTIES ('k' = 'v') AS SELECT 1",
      "INSERT OVERWRITE t PARTITION (d = DATE '2024-01-01') SELECT * FROM u",
      "MERGE INTO t USING (VALUES (1, 2)) AS s(a, b) ON t.a = s.a WHEN NOT MATCHED BY SOURCE THEN "
      "DELETE",
      "ALTER TABLE t WRITE ORDERED BY a DESC NULLS FIRST, truncate(4, b)",
      "ALTER TABLE t CREATE OR REPLACE BRANCH b RETAIN 3 HOURS",
      "ALTER TABLE t ADD COLUMNS (`a b` STRUCT<c: INT> COMMENT 'x' AFTER d)",
      "CALL system.rewrite_data_files(table => 'db.t', options => map('a', '1'))",
      "SET a.b.c = 'v'",
      "SHOW TABLES IN db LIKE 'x*'",
      "DROP TABLE IF EXISTS t PURGE",
      "CACHE LAZY TABLE lakehouse.db.t",
      "CACHE TABLE v AS SELECT a, count(*) FROM t GROUP BY a",
      "UNCACHE TABLE IF EXISTS db.t",
      "CLEAR CACHE",
      "DROP VIEW IF EXISTS v",
  };
  for (const char* sql : kStatements) expect_round_trip(sql);
}

}  // namespace
}  // namespace floe::sql
