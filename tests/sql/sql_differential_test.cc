// Differential SQL tests: a few hundred queries (filters of every predicate kind, expressions,
// aggregates, GROUP BY, joins, set operations, ORDER BY / LIMIT, NULLs, every common type) run
// by floe and by DuckDB (@duckdb/node-api, tests/oracle/sql_duckdb.mjs) over the same Parquet
// files and range() data; results must be equal (as multisets, or in order when the query
// orders every row).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "floe/format/parquet/writer.h"
#include "floe/io/file_io.h"
#include "floe/scan/table_scan.h"
#include "floe/spec/metadata_file.h"
#include "floe/sql/session.h"
#include "format/parquet/parquet_test_util.h"

namespace floe::sql {
namespace {

namespace fs = std::filesystem;
using parquet::testing::oracle_dir;
using parquet::testing::run_command;
using parquet::testing::shell_quote;

NestedField field(int32_t id, const char* name, TypePtr type) {
  NestedField f;
  f.id = id;
  f.name = name;
  f.type = std::move(type);
  return f;
}

// t: 2000 rows of every common type with NULLs; u: join partner with duplicate keys.
void write_tables(const fs::path& dir) {
  auto io = make_local_file_io();
  {
    Schema schema(0, {field(1, "id", Type::int64()), field(2, "k", Type::int32()),
                      field(3, "g", Type::string()), field(4, "name", Type::string()),
                      field(5, "d", Type::float64()), field(6, "amt", Type::decimal(10, 2)),
                      field(7, "dt", Type::date()), field(8, "ts", Type::timestamptz()),
                      field(9, "b", Type::boolean())});
    ColumnBatch batch = ColumnBatch::make(schema.fields());
    const char* groups[] = {"a", "b", "c", "d"};
    for (int64_t i = 0; i < 2000; ++i) {
      batch.columns[0]->append_fixed<int64_t>(i);
      if (i % 11 == 0) {
        batch.columns[1]->append_null();
      } else {
        batch.columns[1]->append_fixed<int32_t>(static_cast<int32_t>(i % 7));
      }
      if (i % 13 == 0) {
        batch.columns[2]->append_null();
      } else {
        batch.columns[2]->append_bytes(groups[(i * 7 / 3) % 4]);
      }
      batch.columns[3]->append_bytes("user_" + std::to_string(i * 37 % 1000));
      if (i % 17 == 0) {
        batch.columns[4]->append_null();
      } else {
        batch.columns[4]->append_fixed<double>(static_cast<double>(i % 100) / 4.0 - 10.0);
      }
      batch.columns[5]->append_fixed<int128_t>(static_cast<int128_t>((i * 123) % 100000 - 20000));
      batch.columns[6]->append_fixed<int32_t>(static_cast<int32_t>(19000 + i % 60));
      batch.columns[7]->append_fixed<int64_t>(int64_t{1700000000000000} + i * int64_t{3600000000});
      batch.columns[8]->append_bool(i % 3 == 0);
      ++batch.num_rows;
    }
    auto w = parquet::ParquetWriter::open(io, (dir / "t.parquet").string(), schema);
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    ASSERT_TRUE((*w)->write(batch).ok());
    ASSERT_TRUE((*w)->close().ok());
  }
  {
    Schema schema(0, {field(1, "id", Type::int64()), field(2, "w", Type::int32()),
                      field(3, "label", Type::string())});
    ColumnBatch batch = ColumnBatch::make(schema.fields());
    for (int64_t i = 0; i < 400; i += 3) {
      for (int copy = 0; copy < (i % 10 == 0 ? 2 : 1); ++copy) {
        batch.columns[0]->append_fixed<int64_t>(i);
        batch.columns[1]->append_fixed<int32_t>(static_cast<int32_t>((i + copy) % 5));
        if (i % 7 == 0) {
          batch.columns[2]->append_null();
        } else {
          batch.columns[2]->append_bytes("L" + std::to_string(i % 4));
        }
        ++batch.num_rows;
      }
    }
    auto w = parquet::ParquetWriter::open(io, (dir / "u.parquet").string(), schema);
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    ASSERT_TRUE((*w)->write(batch).ok());
    ASSERT_TRUE((*w)->close().ok());
  }
}

// A query in floe's dialect and DuckDB's: placeholders {t}, {u}, {range:N}, {semi}, {anti}.
struct Query {
  std::string text;
  bool ordered = false;  // ORDER BY fixes the order of every row
};

std::vector<Query> make_queries() {
  std::vector<Query> q;
  auto add = [&](std::string text, bool ordered = false) {
    q.push_back({std::move(text), ordered});
  };
  // Comparisons of every column kind with literals.
  const std::vector<std::pair<std::string, std::vector<std::string>>> comparisons = {
      {"id", {"0", "1000", "1999", "-5"}},
      {"k", {"3", "0", "6"}},
      {"d", {"0.5", "-10", "14.75"}},
      {"amt", {"12.34", "-200.00", "0"}},
      {"g", {"'b'", "'a'", "'zz'"}},
      {"name", {"'user_5'", "'user_999'"}},
      {"dt", {"DATE '2022-01-20'", "'2022-02-01'"}},
  };
  for (const auto& [col, literals] : comparisons) {
    for (const auto& lit : literals) {
      for (const char* op : {"=", "<>", "<", "<=", ">", ">="}) {
        add("SELECT id FROM {t} WHERE " + col + " " + op + " " + lit);
      }
    }
  }
  for (const char* pred : {"k IS NULL",
                           "k IS NOT NULL",
                           "g IS NULL",
                           "d IS NOT NULL",
                           "k IN (1, 2, 3)",
                           "k IN (1, NULL)",
                           "k NOT IN (1, 2)",
                           "k NOT IN (1, NULL)",
                           "g IN ('a', 'c')",
                           "g NOT IN ('a')",
                           "id BETWEEN 100 AND 120",
                           "id NOT BETWEEN 10 AND 1990",
                           "d BETWEEN -1 AND 1",
                           "name LIKE 'user_1%'",
                           "name LIKE '%9'",
                           "name LIKE 'user__2%'",
                           "name NOT LIKE '%1%'",
                           "b",
                           "NOT b",
                           "b AND k > 3",
                           "(k = 1 OR g = 'a') AND NOT (d > 0)",
                           "k > 2 OR d < -5 OR g IS NULL",
                           "NOT (k = 3)",
                           "NOT (k IS NULL OR g = 'b')",
                           "id % 7 = 3 AND name >= 'user_5'",
                           "amt > 100 AND amt < 300.5",
                           "dt = '2022-01-10'",
                           "length(name) = 7",
                           "upper(g) = 'C'",
                           "coalesce(k, -1) = -1",
                           "k + 1 = 4",
                           "d * 2 > 10",
                           "id / 3 > 600",
                           "abs(d) < 1"}) {
    add(std::string("SELECT id FROM {t} WHERE ") + pred);
  }
  // Expressions in the select list.
  for (const char* expr : {"id + k",
                           "id * 2 - k",
                           "-k",
                           "k % 3",
                           "d * 2",
                           "d + k",
                           "amt + 1",
                           "amt * 2",
                           "amt - amt",
                           "abs(d)",
                           "round(d, 1)",
                           "id / 4",
                           "upper(g)",
                           "lower(name)",
                           "length(name)",
                           "substr(name, 2, 3)",
                           "substr(name, 6)",
                           "concat(name, '-x')",
                           "g || '-' || name",
                           "replace(name, 'user', 'u')",
                           "coalesce(g, 'none')",
                           "coalesce(k, d)",
                           "CASE WHEN k > 3 THEN 'hi' WHEN k IS NULL THEN 'null' ELSE 'lo' END",
                           "CASE g WHEN 'a' THEN 1 WHEN 'b' THEN 2 END",
                           "CAST(k AS STRING)",
                           "CAST(id AS DOUBLE)",
                           "CAST(amt AS DOUBLE)",
                           "CAST('12' AS INT) + k",
                           "k IS NULL",
                           "k > 3",
                           "g = 'a' OR k = 1",
                           "nullif(k, 3)",
                           "greatest(k, 2)",
                           "least(d, 0.0)",
                           "trim('  x ')",
                           "dt",
                           "ts",
                           "b",
                           "NOT b",
                           "id IN (1, 2, 3)",
                           "ceil(d)",
                           "floor(d)",
                           "sqrt(id)",
                           "year(dt)",
                           "month(dt)",
                           "dayofmonth(dt)",
                           "starts_with(name, 'user_1')"}) {
    add(std::string("SELECT id, ") + expr + " FROM {t}");
  }
  // Aggregates and grouping.
  add("SELECT count(*), count(k), count(g), sum(k), min(d), max(d), min(name), max(name), "
      "min(dt), max(dt), min(ts), max(ts), sum(amt), min(amt), max(amt) FROM {t}");
  add("SELECT g, count(*), count(k), sum(k), min(d), max(d), avg(k), avg(d), sum(amt) FROM {t} "
      "GROUP BY g");
  add("SELECT k, g, count(*) FROM {t} GROUP BY k, g HAVING count(*) > 10");
  add("SELECT b, sum(id), max(name) FROM {t} GROUP BY b");
  add("SELECT count(DISTINCT k), count(DISTINCT g), count(DISTINCT name) FROM {t}");
  add("SELECT g, count(DISTINCT k) FROM {t} GROUP BY g");
  add("SELECT dt, count(*) FROM {t} GROUP BY dt ORDER BY dt LIMIT 5", true);
  add("SELECT k % 2 AS parity, sum(d) FROM {t} WHERE d IS NOT NULL GROUP BY k % 2");
  add("SELECT g, sum(k) AS s FROM {t} GROUP BY g HAVING sum(k) > 1000");
  add("SELECT k, count(*) FROM {t} WHERE g = 'a' GROUP BY k");
  add("SELECT count(*) FROM {t} WHERE k > 100");
  add("SELECT sum(k), avg(d), min(name) FROM {t} WHERE k > 100");
  add("SELECT DISTINCT g FROM {t}");
  add("SELECT DISTINCT k, b FROM {t}");
  add("SELECT g, min(id), max(id) FROM {t} GROUP BY g ORDER BY g NULLS FIRST", true);
  add("SELECT name, count(*) AS c FROM {t} GROUP BY name ORDER BY c DESC, name LIMIT 10", true);
  for (const char* col : {"k", "g", "d", "dt", "b", "amt"}) {
    add(std::string("SELECT ") + col + ", count(*), min(id), max(id) FROM {t} GROUP BY " + col);
  }
  // Ordering and limits (a unique tie-breaker keeps the order defined).
  add("SELECT id, d FROM {t} ORDER BY d DESC NULLS LAST, id LIMIT 10", true);
  add("SELECT id, g FROM {t} ORDER BY g NULLS FIRST, id DESC LIMIT 7 OFFSET 3", true);
  add("SELECT id, name FROM {t} ORDER BY name, id LIMIT 20", true);
  add("SELECT id, k FROM {t} WHERE k IS NOT NULL ORDER BY k DESC, id LIMIT 15", true);
  add("SELECT id, amt FROM {t} ORDER BY amt, id LIMIT 12", true);
  add("SELECT id, dt, ts FROM {t} ORDER BY ts DESC LIMIT 5", true);
  add("SELECT id FROM {t} ORDER BY id LIMIT 3 OFFSET 1990", true);
  // Joins.
  add("SELECT t.id, u.w FROM {t} t JOIN {u} u ON t.id = u.id");
  add("SELECT t.id, u.w, u.label FROM {t} t LEFT JOIN {u} u ON t.id = u.id WHERE t.id < 100");
  add("SELECT u.id, t.k FROM {t} t RIGHT JOIN {u} u ON t.id = u.id");
  add("SELECT t.id, u.id FROM (SELECT * FROM {t} WHERE id < 50) t FULL OUTER JOIN "
      "(SELECT * FROM {u} WHERE id > 30) u ON t.id = u.id");
  add("SELECT t.id, u.w FROM {t} t JOIN {u} u ON t.id = u.id AND t.k > u.w");
  add("SELECT t.id, u.w FROM {t} t LEFT JOIN {u} u ON t.id = u.id AND u.w < 2 WHERE t.id < 60");
  add("SELECT t.id FROM {t} t {semi} {u} u ON t.id = u.id");
  add("SELECT t.id FROM {t} t {anti} {u} u ON t.id = u.id");
  add("SELECT t.id FROM {t} t {semi} {u} u ON t.id = u.id AND u.w = 1");
  add("SELECT u.label, count(*), sum(t.k) FROM {t} t JOIN {u} u ON t.id = u.id GROUP BY u.label");
  add("SELECT t.g, u.label, count(*) FROM {t} t JOIN {u} u ON t.k = u.w GROUP BY t.g, u.label");
  add("SELECT a.id, b.id FROM {t} a JOIN {t} b ON a.id = b.id + 1 WHERE a.id < 20");
  add("SELECT t.id FROM {t} t WHERE t.id IN (SELECT id FROM {u} WHERE w = 3)");
  add("SELECT t.id FROM {t} t WHERE t.k > (SELECT avg(w) FROM {u})");
  add("SELECT t.id, u.id FROM {t} t, {u} u WHERE t.id = u.id AND u.w = 2");
  add("SELECT count(*) FROM {t} t CROSS JOIN (SELECT * FROM {u} WHERE id < 10) u");
  // Set operations, CTEs, subqueries, range().
  add("SELECT k FROM {t} UNION ALL SELECT w FROM {u}");
  add("SELECT k FROM {t} UNION SELECT w FROM {u}");
  add("SELECT id FROM {t} INTERSECT SELECT id FROM {u}");
  add("SELECT id FROM {u} EXCEPT SELECT id FROM {t} WHERE k = 1");
  add("WITH big AS (SELECT id, k FROM {t} WHERE k > 4) SELECT k, count(*) FROM big GROUP BY k");
  add("SELECT s.g, s.c FROM (SELECT g, count(*) AS c FROM {t} GROUP BY g) s WHERE s.c > 400");
  add("SELECT id * id FROM {range:1000} WHERE id % 7 = 3");
  add("SELECT sum(id), count(*), min(id), max(id), avg(id) FROM {range:100000}");
  add("SELECT id % 10 AS m, count(*) FROM {range:12345} GROUP BY id % 10");
  add("SELECT r.id, t.name FROM {range:30} r JOIN {t} t ON r.id = t.id");
  add("SELECT id FROM {range:50} WHERE id NOT IN (SELECT id FROM {u})");
  add("SELECT 1 + 2, 'x', NULL IS NULL, 10 % 3, 2.5 * 2");
  // Iceberg fixture tables (floe plans and reads the table; DuckDB reads its live data files).
  // avg(decimal) is a decimal with scale + 4 in Spark and a double in DuckDB: compared as
  // averages of doubles.
  add("SELECT l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice), "
      "sum(l_extendedprice * (1 - l_discount)), "
      "sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)), avg(CAST(l_quantity AS DOUBLE)), "
      "avg(CAST(l_extendedprice AS DOUBLE)), avg(CAST(l_discount AS DOUBLE)), count(*) "
      "FROM {lineitem} "
      "WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL 90 DAY "
      "GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus",
      true);
  add("SELECT sum(l_extendedprice * l_discount) AS revenue FROM {lineitem} "
      "WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' "
      "AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24");
  add("SELECT l_shipmode, count(*), min(l_shipdate), max(l_receiptdate) FROM {lineitem} "
      "GROUP BY l_shipmode");
  add("SELECT l_orderkey, l_linenumber, l_comment FROM {lineitem} "
      "ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber LIMIT 10",
      true);
  add("SELECT count(*) FROM {lineitem} WHERE l_comment LIKE '%special%'");
  add("SELECT l_suppkey, sum(l_quantity) AS q FROM {lineitem} GROUP BY l_suppkey "
      "HAVING sum(l_quantity) > 1500");
  add("SELECT count(DISTINCT l_partkey), count(DISTINCT l_orderkey) FROM {lineitem}");
  add("SELECT upper(l_shipinstruct), count(*) FROM {lineitem} WHERE l_shipdate > '1997-06-01' "
      "GROUP BY 1");
  add("SELECT id, name, joined FROM {large} WHERE id > 200");
  add("SELECT count(*), min(joined), max(joined), max(name) FROM {large}");
  add("SELECT year(joined), count(*) FROM {large} GROUP BY 1");
  add("SELECT a.id, b.name FROM {large} a JOIN {large} b ON a.id = b.id + 1 WHERE a.id < 40");
  return q;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) {
    s.replace(p, from.size(), to);
  }
  return s;
}

const fs::path kFixtures = FLOE_FIXTURES_DIR;

// The live data file of the lineitem fixture (its other file was rewritten away).
std::string lineitem_live_file() {
  fs::path dir = kFixtures / "duckdb-iceberg/lineitem_iceberg";
  auto table = open_table_at(make_local_file_io(), dir.string());
  EXPECT_TRUE(table.ok());
  auto scan = TableScan::make(table->io, table->metadata, {});
  auto files = scan->plan_files();
  EXPECT_TRUE(files.ok() && files->size() == 1u);
  std::string name = fs::path((*files)[0].file->file_path).filename().string();
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().filename() == name) return e.path().string();
  }
  return "";
}

std::string dialect(std::string s, const fs::path& dir, bool duckdb) {
  static const std::string lineitem = lineitem_live_file();
  const std::string lineitem_dir = (kFixtures / "duckdb-iceberg/lineitem_iceberg").string();
  const std::string large = (kFixtures / "duckdb-iceberg/large_partitioned_table").string();
  s = replace_all(s, "{lineitem}",
                  duckdb ? "read_parquet('" + lineitem + "')" : "iceberg.`" + lineitem_dir + "`");
  s = replace_all(s, "{large}",
                  duckdb ? "read_parquet('" + large + "/**/*.parquet', hive_partitioning = false)"
                         : "iceberg.`" + large + "`");
  std::string t = (dir / "t.parquet").string(), u = (dir / "u.parquet").string();
  s = replace_all(s, "{t}", duckdb ? "read_parquet('" + t + "')" : "parquet.`" + t + "`");
  s = replace_all(s, "{u}", duckdb ? "read_parquet('" + u + "')" : "parquet.`" + u + "`");
  s = replace_all(s, "{semi}", duckdb ? "SEMI JOIN" : "LEFT SEMI JOIN");
  s = replace_all(s, "{anti}", duckdb ? "ANTI JOIN" : "LEFT ANTI JOIN");
  for (size_t p = s.find("{range:"); p != std::string::npos; p = s.find("{range:")) {
    size_t end = s.find('}', p);
    std::string n = s.substr(p + 7, end - p - 7);
    s.replace(p, end - p + 1,
              duckdb ? "(SELECT range AS id FROM range(" + n + "))" : "range(" + n + ")");
  }
  return s;
}

// One value in a form both engines agree on: numbers with 12 significant digits (so sums of
// doubles in different orders compare equal), decimal strings as numbers, timestamps without
// trailing zero fractions.
std::string canonical_value(const nlohmann::json& v) {
  if (v.is_number()) {
    double d = v.get<double>();
    if (d == 0) d = 0;  // -0.0
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.12g", d);
    return buf;
  }
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    char* end = nullptr;
    double d = std::strtod(s.c_str(), &end);
    bool numeric = !s.empty() && end == s.c_str() + s.size() &&
                   std::isdigit(static_cast<unsigned char>(s[s[0] == '-' ? 1 : 0]));
    if (numeric) {
      return canonical_value(nlohmann::json(d));
    }
    if (s.size() > 19 && s[10] == 'T') {
      while (s.back() == '0') s.pop_back();
      if (s.back() == '.') s.pop_back();
    }
    return "\"" + s + "\"";
  }
  if (v.is_array()) {
    std::string out = "[";
    for (const auto& e : v) out += canonical_value(e) + ",";
    return out + "]";
  }
  return v.dump();
}

std::string canonical_row(const std::string& json_array) {
  nlohmann::json row = nlohmann::json::parse(json_array);
  std::string out;
  for (const auto& v : row) out += canonical_value(v) + "|";
  return out;
}

Result<std::vector<std::string>> floe_rows(Session& session, const std::string& sql) {
  std::vector<std::string> rows;
  ResultSink sink;
  sink.rows = [&](const ColumnBatch& b) {
    JsonOptions o;
    o.rows_as_arrays = true;
    o.tz_suffix = false;
    o.maps_as_pairs = true;
    for (int64_t r = 0; r < b.num_rows; ++r) {
      std::string line;
      write_row_json(b, r, o, &line);
      rows.push_back(canonical_row(line));
    }
    return Status::OK();
  };
  FLOE_TRY(session.run(sql, sink));
  return rows;
}

TEST(SqlDifferential, FloeAgreesWithDuckDB) {
  fs::path dir = fs::temp_directory_path() / ("floe_sql_diff_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_tables(dir);
  std::vector<Query> queries = make_queries();
  ASSERT_GE(queries.size(), 250u);

  nlohmann::json duck = nlohmann::json::array();
  for (const auto& q : queries) duck.push_back(dialect(q.text, dir, true));
  std::ofstream(dir / "queries.json") << duck.dump();
  int rc = 0;
  std::string out = run_command("cd " + shell_quote(oracle_dir()) + " && node sql_duckdb.mjs " +
                                    shell_quote((dir / "queries.json").string()) + " 2>&1",
                                &rc);
  ASSERT_EQ(rc, 0) << out;
  std::map<size_t, std::vector<std::string>> expected;
  std::map<size_t, std::string> duck_errors;
  {
    std::istringstream in(out);
    std::string line;
    size_t current = 0;
    while (std::getline(in, line)) {
      if (line.rfind("##Q ", 0) == 0) {
        current = std::stoul(line.substr(4));
        expected[current];
      } else if (line.rfind("##ERROR ", 0) == 0) {
        duck_errors[current] = line.substr(8);
      } else if (line.rfind("##END", 0) != 0 && !line.empty()) {
        expected[current].push_back(canonical_row(line));
      }
    }
  }
  Session session;
  int compared = 0;
  for (size_t i = 0; i < queries.size(); ++i) {
    const std::string sql = dialect(queries[i].text, dir, false);
    SCOPED_TRACE(queries[i].text);
    ASSERT_FALSE(duck_errors.count(i)) << "DuckDB: " << duck_errors[i];
    auto got = floe_rows(session, sql);
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    std::vector<std::string> want = expected[i];
    std::vector<std::string> have = *got;
    if (!queries[i].ordered) {
      std::sort(want.begin(), want.end());
      std::sort(have.begin(), have.end());
    }
    EXPECT_EQ(have.size(), want.size());
    if (have != want) {
      for (size_t r = 0; r < std::min(have.size(), want.size()); ++r) {
        if (have[r] != want[r]) {
          ADD_FAILURE() << "first difference at row " << r << ": floe " << have[r] << " duckdb "
                        << want[r];
          break;
        }
      }
    } else {
      ++compared;
    }
  }
  EXPECT_EQ(compared, static_cast<int>(queries.size()));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace floe::sql
