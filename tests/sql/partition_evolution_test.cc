// Partition evolution through SQL (ALTER TABLE ADD / DROP / REPLACE / RENAME PARTITION FIELD) on
// tables written through a Session: the lessons' logs and IoT cases end to end, field ids that
// never change meaning, split planning per spec, v1's void fields, delete files under the spec
// of the data they delete, and errors that leave the table as it was.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "floe/sql/session.h"
#include "floe/table/table.h"
#include "floe/util/strings.h"
#include "format/parquet/parquet_test_util.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

using testing::error_of;
using testing::must;
using testing::rows;

class PartitionEvolution : public ::testing::Test {
 protected:
  void SetUp() override {
    SessionOptions o;
    o.warehouse = dir_.str();
    session_ = std::make_unique<Session>(o);
    must(s(), "CREATE NAMESPACE db");
  }
  Session& s() { return *session_; }

  std::shared_ptr<Table> table(const std::string& name) {
    return testing::load_table(dir_.str(), name);
  }
  int64_t count(const std::string& sql) { return std::stoll(rows(s(), sql)[0].substr(1)); }

  // The default spec's fields as "name:transform:field id".
  std::vector<std::string> spec_fields(const std::string& name) {
    auto m = table(name)->metadata();
    std::vector<std::string> out;
    for (const auto& f : m->spec()->fields()) {
      out.push_back(fmt::format("{}:{}:{}", f.name, f.transform.to_string(), f.field_id));
    }
    return out;
  }
  // Across every spec of the table, each partition field id means one (source, transform).
  void expect_ids_keep_meaning(const std::string& name) {
    std::map<int32_t, std::string> meaning;
    const auto m = table(name)->metadata();
    for (const auto& spec : m->specs) {
      for (const auto& f : spec->fields()) {
        if (f.transform.is_void()) continue;  // v1's removed fields
        const std::string m = fmt::format("{}:{}", f.source_id, f.transform.to_string());
        auto [it, fresh] = meaning.emplace(f.field_id, m);
        EXPECT_EQ(it->second, m) << "field id " << f.field_id << " in spec " << spec->spec_id();
      }
    }
  }
  ScanReport explain(const std::string& query) {
    auto out = must(s(), "EXPLAIN " + query);
    EXPECT_EQ(out.reports.size(), 1u) << query;
    return out.reports.empty() ? ScanReport{} : out.reports[0];
  }

  floe::test_support::TempDir dir_{"floe-partition-evolution"};
  std::unique_ptr<Session> session_;
};

// The lesson's logs: 30 days by days(event_ts), then hours(event_ts) added and days dropped,
// one more day written by hour. Both layouts live side by side, each era prunes on its own
// spec, counts stay right, and no ALTER makes a snapshot.
TEST_F(PartitionEvolution, LogsFromDaysToHours) {
  for (const std::string replace : {"", "replace"}) {
    SCOPED_TRACE(replace.empty() ? "add then drop" : "one replace");
    const std::string t = replace.empty() ? "logs" : "logs_copy";
    must(s(), "CREATE TABLE db." + t +
                  " (id BIGINT, event_ts TIMESTAMP, level STRING) USING iceberg "
                  "PARTITIONED BY (days(event_ts))");
    std::string values;
    for (int day = 1; day <= 30; ++day) {
      for (int k = 0; k < 4; ++k) {
        values += fmt::format("{}({}, TIMESTAMP '2026-05-{:02d} {:02d}:15:00', 'INFO')",
                              values.empty() ? "" : ", ", day * 10 + k, day, k * 5);
      }
    }
    must(s(), "INSERT INTO db." + t + " VALUES " + values);
    const int64_t snapshots = count("SELECT count(*) FROM db." + t + ".snapshots");
    if (replace.empty()) {
      must(s(), "ALTER TABLE db." + t + " ADD PARTITION FIELD hours(event_ts)");
      must(s(), "ALTER TABLE db." + t + " DROP PARTITION FIELD days(event_ts)");
    } else {
      must(s(),
           "ALTER TABLE db." + t + " REPLACE PARTITION FIELD days(event_ts) WITH hours(event_ts)");
    }
    EXPECT_EQ(count("SELECT count(*) FROM db." + t + ".snapshots"), snapshots);
    EXPECT_EQ(spec_fields(t), std::vector<std::string>{"event_ts_hour:hour:1001"});
    values.clear();
    for (int hour = 0; hour < 24; ++hour) {
      values += fmt::format("{}({}, TIMESTAMP '2026-06-20 {:02d}:30:00', 'WARN')",
                            values.empty() ? "" : ", ", 1000 + hour, hour);
    }
    must(s(), "INSERT INTO db." + t + " VALUES " + values);
    // Both path layouts; the manifests of both specs.
    EXPECT_EQ(count("SELECT count(*) FROM db." + t +
                    ".files WHERE file_path LIKE '%/event_ts_day=2026-05-%'"),
              30);
    EXPECT_EQ(count("SELECT count(*) FROM db." + t +
                    ".files WHERE file_path LIKE '%/event_ts_hour=2026-06-20-%'"),
              24);
    EXPECT_EQ(rows(s(),
                   "SELECT partition_spec_id, sum(added_data_files_count + "
                   "existing_data_files_count) FROM db." +
                       t + ".manifests GROUP BY partition_spec_id ORDER BY 1"),
              (std::vector<std::string>{"[0,30]", replace.empty() ? "[2,24]" : "[1,24]"}));
    EXPECT_EQ(count("SELECT count(*) FROM db." + t), 144);
    // Each era prunes on its own spec.
    const std::string one_day = "SELECT count(*) FROM db." + t +
                                " WHERE event_ts >= TIMESTAMP '2026-05-05 00:00:00' AND "
                                "event_ts < TIMESTAMP '2026-05-06 00:00:00'";
    EXPECT_EQ(count(one_day), 4);
    EXPECT_EQ(explain(one_day).scanned_data_files, 1);
    const std::string one_hour = "SELECT count(*) FROM db." + t +
                                 " WHERE event_ts >= TIMESTAMP '2026-06-20 05:00:00' AND "
                                 "event_ts < TIMESTAMP '2026-06-20 06:00:00'";
    EXPECT_EQ(count(one_hour), 1);
    EXPECT_EQ(explain(one_hour).scanned_data_files, 1);
    const std::string both = "SELECT count(*) FROM db." + t +
                             " WHERE event_ts >= TIMESTAMP '2026-05-30 00:00:00' AND "
                             "event_ts < TIMESTAMP '2026-06-20 02:00:00'";
    EXPECT_EQ(count(both), 4 + 2);
    EXPECT_EQ(explain(both).scanned_data_files, 1 + 2);
    expect_ids_keep_meaning(t);
  }
}

// A field dropped and added back is the same field (id 1001 and its name), as the spec requires;
// bucket(16, id) -> bucket(32, id) is a new field; a spec equal to an earlier one is that spec.
TEST_F(PartitionEvolution, FieldIdsNeverChangeMeaning) {
  must(s(),
       "CREATE TABLE db.t (id BIGINT, event_ts TIMESTAMP) USING iceberg PARTITIONED BY "
       "(days(event_ts))");
  must(s(), "ALTER TABLE db.t ADD PARTITION FIELD hours(event_ts)");
  must(s(), "ALTER TABLE db.t DROP PARTITION FIELD event_ts_hour");
  must(s(), "ALTER TABLE db.t ADD PARTITION FIELD hours(event_ts)");
  EXPECT_EQ(spec_fields("t"),
            (std::vector<std::string>{"event_ts_day:day:1000", "event_ts_hour:hour:1001"}));
  EXPECT_EQ(table("t")->metadata()->default_spec_id, 1);  // spec 1 again, not a copy
  must(s(), "ALTER TABLE db.t ADD PARTITION FIELD bucket(16, id)");
  must(s(), "ALTER TABLE db.t REPLACE PARTITION FIELD bucket(16, id) WITH bucket(32, id)");
  EXPECT_EQ(spec_fields("t"),
            (std::vector<std::string>{"event_ts_day:day:1000", "event_ts_hour:hour:1001",
                                      "id_bucket_32:bucket[32]:1003"}));
  must(s(), "ALTER TABLE db.t RENAME PARTITION FIELD id_bucket_32 TO shard");
  must(s(), "ALTER TABLE db.t DROP PARTITION FIELD shard");
  must(s(), "ALTER TABLE db.t ADD PARTITION FIELD bucket(16, id) AS b16");
  // A name that differs from the old field's: a new field.
  EXPECT_EQ(spec_fields("t").back(), "b16:bucket[16]:1004");
  EXPECT_EQ(table("t")->metadata()->last_partition_id, 1004);
  expect_ids_keep_meaning("t");
  EXPECT_EQ(count("SELECT count(*) FROM db.t.snapshots"), 0);
}

// The lesson's IoT table: unpartitioned, then months(reading_ts), then days(reading_ts) +
// bucket(32, sensor_id); queries across the three eras return what an unpartitioned copy does.
TEST_F(PartitionEvolution, IotThreeEras) {
  for (const std::string t : {"iot", "flat"}) {
    must(s(), "CREATE TABLE db." + t +
                  " (sensor_id BIGINT, reading_ts TIMESTAMP, value DOUBLE) USING iceberg");
  }
  auto era = [&](int month, int first_sensor) {
    std::string values;
    for (int i = 0; i < 40; ++i) {
      values += fmt::format("{}({}, TIMESTAMP '2026-{:02d}-{:02d} {:02d}:00:00', {}.5)",
                            values.empty() ? "" : ", ", first_sensor + i % 7, month, 1 + i % 28,
                            i % 24, i);
    }
    for (const std::string t : {"iot", "flat"})
      must(s(), "INSERT INTO db." + t + " VALUES " + values);
  };
  era(1, 1);
  must(s(), "ALTER TABLE db.iot ADD PARTITION FIELD months(reading_ts)");
  era(2, 3);
  must(s(), "ALTER TABLE db.iot REPLACE PARTITION FIELD months(reading_ts) WITH days(reading_ts)");
  must(s(), "ALTER TABLE db.iot ADD PARTITION FIELD bucket(32, sensor_id)");
  era(3, 5);
  EXPECT_EQ(spec_fields("iot"), (std::vector<std::string>{"reading_ts_day:day:1001",
                                                          "sensor_id_bucket_32:bucket[32]:1002"}));
  EXPECT_EQ(rows(s(), "SELECT DISTINCT spec_id FROM db.iot.files ORDER BY 1"),
            (std::vector<std::string>{"[0]", "[1]", "[3]"}));
  for (const std::string where :
       {"", "WHERE sensor_id = 5", "WHERE sensor_id IN (2, 6, 9)",
        "WHERE reading_ts >= TIMESTAMP '2026-01-20 00:00:00' AND reading_ts < TIMESTAMP "
        "'2026-03-03 00:00:00'",
        "WHERE reading_ts < TIMESTAMP '2026-02-10 00:00:00' OR sensor_id = 11",
        "WHERE reading_ts >= TIMESTAMP '2026-03-05 00:00:00' AND sensor_id > 6"}) {
    SCOPED_TRACE(where);
    const std::string q = " {} GROUP BY sensor_id ORDER BY sensor_id";
    EXPECT_EQ(rows(s(), "SELECT sensor_id, count(*), sum(value) FROM db.iot " + where +
                            " GROUP BY sensor_id ORDER BY sensor_id"),
              rows(s(), "SELECT sensor_id, count(*), sum(value) FROM db.flat " + where +
                            " GROUP BY sensor_id ORDER BY sensor_id"));
  }
  expect_ids_keep_meaning("iot");
}

// Split planning on evolved tables: a predicate on a field an old spec lacks keeps that era's
// files (only their metrics can prune); bucket(16) -> bucket(32) prunes each era by its own
// bucket of the value.
TEST_F(PartitionEvolution, PlanningProjectsPerSpec) {
  must(s(), "CREATE TABLE db.t (id BIGINT, cat STRING) USING iceberg PARTITIONED BY (cat)");
  std::string values;
  for (int i = 0; i < 64; ++i) values += fmt::format("{}({}, 'c{}')", i ? ", " : "", i, i % 2);
  must(s(), "INSERT INTO db.t VALUES " + values);  // 2 files, by cat only
  must(s(), "ALTER TABLE db.t ADD PARTITION FIELD bucket(16, id)");
  must(s(), "INSERT INTO db.t VALUES " + values);  // one file per (cat, bucket of 16)
  must(s(), "ALTER TABLE db.t REPLACE PARTITION FIELD bucket(16, id) WITH bucket(32, id)");
  must(s(), "INSERT INTO db.t VALUES " + values);  // one file per (cat, bucket of 32)
  // Each file's spec and buckets.
  struct FileInfo {
    std::string spec, b16, b32;
  };
  std::map<std::string, FileInfo> files;
  for (const auto& r : rows(s(),
                            "SELECT file_path, spec_id, partition.id_bucket_16, "
                            "partition.id_bucket_32 FROM db.t.files")) {
    auto parts = split(r.substr(1, r.size() - 2), ',');
    ASSERT_EQ(parts.size(), 4u) << r;
    files[parts[0].substr(1, parts[0].size() - 2)] = {parts[1], parts[2], parts[3]};
  }
  int checked = 0;
  for (int id = 0; id < 64 && checked < 3; ++id) {
    // The file of each era holding `id`, and the files each era may scan: the first era's two
    // (cat cannot prune on id), the second's and third's of the same bucket as id's.
    std::map<std::string, FileInfo> holding;
    for (const auto& r :
         rows(s(), fmt::format("SELECT DISTINCT _file FROM db.t WHERE id = {}", id))) {
      const std::string path = r.substr(2, r.size() - 4);
      holding[files[path].spec] = files[path];
    }
    ASSERT_EQ(holding.size(), 3u);
    if (holding["1"].b16 == holding["2"].b32) continue;  // want buckets that differ per spec
    int64_t expected = 0;
    for (const auto& [path, f] : files) {
      expected += f.spec == "0" || (f.spec == "1" && f.b16 == holding["1"].b16) ||
                  (f.spec == "2" && f.b32 == holding["2"].b32);
    }
    SCOPED_TRACE(fmt::format("id = {}", id));
    const std::string q = fmt::format("SELECT count(*) FROM db.t WHERE id = {}", id);
    // At least the three files holding it; at most the bucket's (column metrics may prune
    // more within a bucket).
    const int64_t scanned = explain(q).scanned_data_files;
    EXPECT_GE(scanned, 3);
    EXPECT_LE(scanned, expected);
    EXPECT_LT(expected, static_cast<int64_t>(files.size()) / 4);
    EXPECT_EQ(rows(s(), q), std::vector<std::string>{"[3]"});
    ++checked;
  }
  EXPECT_EQ(checked, 3);
  EXPECT_EQ(rows(s(), "SELECT count(*), sum(id) FROM db.t"),
            std::vector<std::string>{"[192,6048]"});
}

// Merge-on-read deletes of rows in files of an older spec are written under that spec.
TEST_F(PartitionEvolution, DeleteFilesTakeTheSpecOfTheirData) {
  must(s(),
       "CREATE TABLE db.t (id BIGINT, day DATE) USING iceberg PARTITIONED BY (day) "
       "TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read')");
  must(s(), "INSERT INTO db.t VALUES (1, DATE '2026-01-01'), (2, DATE '2026-01-01')");
  must(s(), "ALTER TABLE db.t ADD PARTITION FIELD truncate(10, id)");
  must(s(), "INSERT INTO db.t VALUES (3, DATE '2026-01-01'), (4, DATE '2026-01-01')");
  must(s(), "DELETE FROM db.t WHERE id IN (1, 3)");
  EXPECT_EQ(
      rows(s(), "SELECT spec_id, count(*) FROM db.t.delete_files GROUP BY spec_id ORDER BY 1"),
      (std::vector<std::string>{"[0,1]", "[1,1]"}));
  EXPECT_EQ(rows(s(), "SELECT id FROM db.t ORDER BY id"), (std::vector<std::string>{"[2]", "[4]"}));
}

// v1 keeps a removed field in place as void (readers match by position); a field added later
// takes a new id (no reuse on v1) and a void field in the way of its name steps aside.
TEST_F(PartitionEvolution, V1KeepsRemovedFieldsAsVoid) {
  must(s(),
       "CREATE TABLE db.t (id BIGINT, cat STRING) USING iceberg PARTITIONED BY (cat) "
       "TBLPROPERTIES ('format-version'='1')");
  must(s(), "INSERT INTO db.t VALUES (1, 'a'), (2, 'b')");
  must(s(), "ALTER TABLE db.t DROP PARTITION FIELD cat");
  EXPECT_EQ(spec_fields("t"), std::vector<std::string>{"cat:void:1000"});
  must(s(), "INSERT INTO db.t VALUES (3, 'a')");
  must(s(), "ALTER TABLE db.t ADD PARTITION FIELD cat");
  EXPECT_EQ(spec_fields("t"),
            (std::vector<std::string>{"cat_1000:void:1000", "cat:identity:1001"}));
  must(s(), "INSERT INTO db.t VALUES (4, 'b')");
  EXPECT_EQ(rows(s(), "SELECT id FROM db.t WHERE cat = 'a' ORDER BY id"),
            (std::vector<std::string>{"[1]", "[3]"}));
  EXPECT_EQ(count("SELECT count(*) FROM db.t"), 4);
}

// Errors name what is wrong and change nothing.
TEST_F(PartitionEvolution, BadChangesAreRefused) {
  must(s(),
       "CREATE TABLE db.t (id BIGINT, flag BOOLEAN, event_ts TIMESTAMP) USING iceberg "
       "PARTITIONED BY (days(event_ts))");
  const auto before = table("t")->metadata_location();
  auto error = [&](const std::string& action) {
    return error_of(s(), "ALTER TABLE db.t " + action);
  };
  EXPECT_NE(
      error("ADD PARTITION FIELD days(event_ts)").find("Cannot add duplicate partition field"),
      std::string::npos);
  EXPECT_NE(
      error("DROP PARTITION FIELD hours(event_ts)").find("Cannot find partition field to remove"),
      std::string::npos);
  EXPECT_NE(error("DROP PARTITION FIELD nope").find("Cannot find partition field to remove: nope"),
            std::string::npos);
  EXPECT_NE(error("ADD PARTITION FIELD bucket(4, flag)").find("does not apply"), std::string::npos);
  EXPECT_NE(error("ADD PARTITION FIELD days(id)").find("does not apply"), std::string::npos);
  EXPECT_NE(error("ADD PARTITION FIELD missing").find("no column missing"), std::string::npos);
  EXPECT_NE(error("ADD PARTITION FIELD bucket(4, id) AS flag").find("a column of the schema"),
            std::string::npos);
  EXPECT_NE(error("RENAME PARTITION FIELD nope TO x").find("Cannot find partition field to rename"),
            std::string::npos);
  EXPECT_EQ(table("t")->metadata_location(), before);
}

// Evolution written by floe reads back in independent implementations: python3-avro on every
// manifest (its partition-spec-id header names a spec of the table, its partition-spec header
// has that spec's fields, and each entry's partition tuple has that spec's field names), and
// DuckDB on the data files of every era (the same rows as floe).
TEST_F(PartitionEvolution, IndependentReadersAgree) {
  must(s(),
       "CREATE TABLE db.t (id BIGINT, event_ts TIMESTAMP) USING iceberg PARTITIONED BY "
       "(days(event_ts))");
  auto insert = [&](int first) {
    std::string values;
    for (int i = 0; i < 12; ++i) {
      values += fmt::format("{}({}, TIMESTAMP '2026-07-{:02d} {:02d}:00:00')", i ? ", " : "",
                            first + i, 1 + i % 3, i);
    }
    must(s(), "INSERT INTO db.t VALUES " + values);
  };
  insert(0);
  must(s(), "ALTER TABLE db.t REPLACE PARTITION FIELD days(event_ts) WITH hours(event_ts)");
  insert(100);
  must(s(), "ALTER TABLE db.t ADD PARTITION FIELD bucket(4, id)");
  insert(200);
  auto m = table("t")->metadata();
  int manifests = 0;
  for (const auto& row : rows(s(), "SELECT path, partition_spec_id FROM db.t.manifests")) {
    auto r = nlohmann::json::parse(row);
    const auto path = r[0].get<std::string>();
    const int spec_id = r[1].get<int>();
    const PartitionSpec* spec = m->spec_by_id(spec_id);
    ASSERT_NE(spec, nullptr) << path;
    int rc = 0;
    std::string out =
        test_support::run_command("/usr/bin/python3 " + parquet::testing::oracle_dir() +
                                      "/avro_dump.py " + test_support::shell_quote(path) + " 2>&1",
                                  &rc);
    ASSERT_EQ(rc, 0) << out;
    auto dump = nlohmann::json::parse(out);
    EXPECT_EQ(dump["metadata"]["partition-spec-id"], std::to_string(spec_id));
    auto header = nlohmann::json::parse(dump["metadata"]["partition-spec"].get<std::string>());
    ASSERT_EQ(header.size(), spec->fields().size()) << header.dump();
    for (size_t i = 0; i < header.size(); ++i) {
      EXPECT_EQ(header[i]["field-id"], spec->fields()[i].field_id);
      EXPECT_EQ(header[i]["name"], spec->fields()[i].name);
      EXPECT_EQ(header[i]["transform"], spec->fields()[i].transform.to_string());
    }
    for (const auto& e : dump["records"]) {
      const auto& partition = e["data_file"]["partition"];
      ASSERT_EQ(partition.size(), spec->fields().size()) << e.dump();
      for (const auto& f : spec->fields()) EXPECT_TRUE(partition.contains(f.name)) << e.dump();
    }
    ++manifests;
  }
  EXPECT_EQ(manifests, 3);
  // DuckDB on every era's data files.
  std::string list;
  for (const auto& r : rows(s(), "SELECT file_path FROM db.t.data_files")) {
    list += (list.empty() ? "" : ", ") + std::string("'") +
            nlohmann::json::parse(r)[0].get<std::string>() + "'";
  }
  const auto dir = dir_.path / "duck";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "q.json")
      << nlohmann::json(std::vector<std::string>{
                            "SELECT count(*), sum(id), min(event_ts)::VARCHAR FROM read_parquet([" +
                            list + "])"})
             .dump();
  int rc = 0;
  std::string out =
      test_support::run_command("cd " + test_support::shell_quote(parquet::testing::oracle_dir()) +
                                    " && node sql_duckdb.mjs " +
                                    test_support::shell_quote((dir / "q.json").string()) + " 2>&1",
                                &rc);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("[36,3798,\"2026-07-01 00:00:00+00\"]"), std::string::npos) << out;
  EXPECT_EQ(rows(s(), "SELECT count(*), sum(id) FROM db.t"), std::vector<std::string>{"[36,3798]"});
}

// int -> long on a bucket source and float -> double keep pruning: the bucket of an int is the
// bucket of the same long (Iceberg hashes ints as longs), and the old files' 4-byte bounds read
// as the old type.
TEST_F(PartitionEvolution, PromotedSourcesKeepPruning) {
  must(s(), "CREATE TABLE db.t (i INT, f FLOAT) USING iceberg PARTITIONED BY (bucket(8, i))");
  std::string values;
  for (int k = 0; k < 64; ++k) values += fmt::format("{}({}, {}.25)", k ? ", " : "", k, k);
  must(s(), "INSERT INTO db.t VALUES " + values);
  must(s(), "ALTER TABLE db.t ALTER COLUMN i TYPE BIGINT");
  must(s(), "ALTER TABLE db.t ALTER COLUMN f TYPE DOUBLE");
  must(s(), "INSERT INTO db.t VALUES " + values);
  const int64_t files = count("SELECT count(*) FROM db.t.files");
  ASSERT_GE(files, 14);
  // One bucket of each era, the same bucket.
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t WHERE i = 5"), std::vector<std::string>{"[2]"});
  EXPECT_EQ(explain("SELECT * FROM db.t WHERE i = 5").scanned_data_files, 2);
  EXPECT_EQ(rows(s(),
                 "SELECT DISTINCT partition.i_bucket FROM db.t.files WHERE file_path IN "
                 "(SELECT _file FROM db.t WHERE i = 5)"),
            rows(s(), "SELECT bucket(8, CAST(5 AS BIGINT))"));
  // Float bounds of old files, compared as doubles: two files of float values, then one of
  // doubles; f > 40 reads the second and third only.
  must(s(), "CREATE TABLE db.u (f FLOAT) USING iceberg");
  must(s(), "INSERT INTO db.u VALUES (0.25), (9.25)");
  must(s(), "INSERT INTO db.u VALUES (50.25), (63.25)");
  must(s(), "ALTER TABLE db.u ALTER COLUMN f TYPE DOUBLE");
  must(s(), "INSERT INTO db.u VALUES (40.5), (99.125)");
  // (integer literals: SQL pushes those against floating columns)
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.u WHERE f > 40"), std::vector<std::string>{"[4]"});
  EXPECT_EQ(explain("SELECT * FROM db.u WHERE f > 40").scanned_data_files, 2);
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.u WHERE f < 10"), std::vector<std::string>{"[2]"});
  EXPECT_EQ(explain("SELECT * FROM db.u WHERE f < 10").scanned_data_files, 1);
}

}  // namespace
}  // namespace floe::sql
