// DELETE, UPDATE and MERGE INTO against DuckDB (@duckdb/node-api, tests/oracle/sql_duckdb.mjs):
// random sequences of INSERT / DELETE / UPDATE / MERGE and CDC batches (equality deletes) run
// on a floe table (in each write mode and format version) and on a DuckDB table; after every step
// both hold the same rows, and at the end time travel to each step's snapshot gives that step's
// rows again.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>

#include "floe/sql/cdc.h"
#include "floe/sql/session.h"
#include "format/parquet/parquet_test_util.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

namespace fs = std::filesystem;
using parquet::testing::oracle_dir;
using testing::must;
using testing::rows;

struct Mode {
  std::string name;
  std::string properties;  // TBLPROPERTIES of the floe table
};

// One step: the statement for floe and for DuckDB (table names and MERGE spelling differ), or a
// CDC batch: change records for `floe cdc` keyed on (id, grp) and DuckDB's equivalent (delete
// every key the batch touches, insert the last upsert of each).
struct Step {
  std::string floe;
  std::string duck;
  std::string cdc;  // JSON Lines; floe is empty then
};

std::string canonical(const std::string& json_array) {
  return nlohmann::json::parse(json_array).dump();
}

// Random statements over t(id BIGINT, grp INT, name STRING) and a MERGE source s.
class StepMaker {
 public:
  explicit StepMaker(uint32_t seed) : rng_(seed) {}

  Step next(int n) {
    switch (pick(7)) {
      case 6:
        return cdc_batch();
      case 0:
      case 1:
        return both("INSERT INTO db.t VALUES " + values(1 + pick(8)));
      case 2:
        return both("DELETE FROM db.t WHERE " + predicate());
      case 3:
        return both("UPDATE db.t SET name = 'u" + std::to_string(n) + "', grp = grp + 1 WHERE " +
                    predicate());
      default:
        return merge(n);
    }
  }

  // The source of the next MERGE: distinct ids, so no target row matches twice.
  Step refill_source() {
    std::vector<int> ids(60);
    for (int i = 0; i < 60; ++i) ids[static_cast<size_t>(i)] = i;
    std::shuffle(ids.begin(), ids.end(), rng_);
    std::string sql = "INSERT INTO db.s VALUES ";
    int n = 1 + pick(10);
    for (int i = 0; i < n; ++i) {
      sql += (i ? ", " : "") + row(ids[static_cast<size_t>(i)]);
    }
    return both(sql);
  }

 private:
  int pick(int n) { return static_cast<int>(rng_() % static_cast<uint32_t>(n)); }
  static Step both(const std::string& sql) {
    std::string duck = sql;
    for (size_t at; (at = duck.find("db.")) != std::string::npos;) duck.erase(at, 3);
    return {sql, duck, ""};
  }
  std::string name() {
    const char* names[] = {"'a'", "'b'", "'c'", "NULL"};
    return names[pick(4)];
  }
  std::string row(int id) {
    return "(" + std::to_string(id) + ", " + std::to_string(pick(4)) + ", " + name() + ")";
  }
  std::string values(int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += (i ? ", " : "") + row(pick(60));
    return out;
  }
  std::string predicate() {
    switch (pick(6)) {
      case 0:
        return "id % 7 = " + std::to_string(pick(7));
      case 1:
        return "grp = " + std::to_string(pick(5));
      case 2:
        return "name = " + name();  // = NULL matches nothing in both
      case 3: {
        int lo = pick(60);
        return "id BETWEEN " + std::to_string(lo) + " AND " + std::to_string(lo + pick(15));
      }
      case 4:
        return "name IS NULL AND grp < " + std::to_string(pick(4));
      default:
        return "id IN (" + std::to_string(pick(60)) + ", " + std::to_string(pick(60)) + ")";
    }
  }
  Step cdc_batch() {
    std::map<std::pair<int, int>, std::optional<std::string>> last;  // key -> row or delete
    std::string lines;
    int n = 1 + pick(8);
    for (int i = 0; i < n; ++i) {
      int id = pick(60), grp = pick(4);
      if (pick(3) == 0) {
        lines += R"({"op":"delete","row":{"id":)" + std::to_string(id) + R"(,"grp":)" +
                 std::to_string(grp) + "}}\n";
        last[{id, grp}] = std::nullopt;
      } else {
        std::string name = this->name();
        std::string json_name = name == "NULL" ? "null" : "\"" + name.substr(1, 1) + "\"";
        lines += R"({"op":"upsert","row":{"id":)" + std::to_string(id) + R"(,"grp":)" +
                 std::to_string(grp) + R"(,"name":)" + json_name + "}}\n";
        last[{id, grp}] = "(" + std::to_string(id) + ", " + std::to_string(grp) + ", " + name + ")";
      }
    }
    std::string keys, values;
    for (const auto& [key, row] : last) {
      keys += (keys.empty() ? "" : " OR ") + std::string("(id = ") + std::to_string(key.first) +
              " AND grp = " + std::to_string(key.second) + ")";
      if (row) values += (values.empty() ? "" : ", ") + *row;
    }
    std::string duck = "DELETE FROM t WHERE " + keys;
    if (!values.empty()) duck += "; INSERT INTO t VALUES " + values;
    return {"", duck, lines};
  }

  Step merge(int n) {
    std::string label = "'m" + std::to_string(n) + "'";
    std::string on_match_delete = "s.grp = " + std::to_string(pick(4));
    std::string by_source = "t.grp = " + std::to_string(pick(5));
    bool with_by_source = pick(2) == 0;
    std::string floe =
        "MERGE INTO db.t t USING db.s s ON t.id = s.id "
        "WHEN MATCHED AND " +
        on_match_delete +
        " THEN DELETE "
        "WHEN MATCHED THEN UPDATE SET name = " +
        label +
        ", grp = s.grp "
        "WHEN NOT MATCHED THEN INSERT *" +
        (with_by_source
             ? " WHEN NOT MATCHED BY SOURCE AND " + by_source + " THEN UPDATE SET name = 'gone'"
             : "");
    std::string duck =
        "MERGE INTO t USING s ON t.id = s.id "
        "WHEN MATCHED AND " +
        on_match_delete +
        " THEN DELETE "
        "WHEN MATCHED THEN UPDATE SET name = " +
        label +
        ", grp = s.grp "
        "WHEN NOT MATCHED THEN INSERT (id, grp, name) VALUES (s.id, s.grp, s.name)" +
        (with_by_source
             ? " WHEN NOT MATCHED BY SOURCE AND " + by_source + " THEN UPDATE SET name = 'gone'"
             : "");
    return {floe, duck, ""};
  }

  std::mt19937 rng_;
};

// Runs `queries` in DuckDB (one connection); the rows of each, canonical and sorted.
std::vector<std::vector<std::string>> duckdb_rows(const fs::path& dir,
                                                  const std::vector<std::string>& queries) {
  nlohmann::json list = queries;
  std::ofstream(dir / "duck.json") << list.dump();
  int rc = 0;
  std::string out = test_support::run_command(
      "cd " + test_support::shell_quote(oracle_dir()) + " && node sql_duckdb.mjs " +
          test_support::shell_quote((dir / "duck.json").string()) + " 2>&1",
      &rc);
  EXPECT_EQ(rc, 0) << out;
  std::vector<std::vector<std::string>> result(queries.size());
  std::istringstream in(out);
  std::string line;
  size_t current = 0;
  while (std::getline(in, line)) {
    if (line.rfind("##Q ", 0) == 0) {
      current = std::stoul(line.substr(4));
    } else if (line.rfind("##ERROR ", 0) == 0) {
      ADD_FAILURE() << "DuckDB: " << queries[current] << ": " << line;
    } else if (line.rfind("##END", 0) != 0 && !line.empty()) {
      result[current].push_back(canonical(line));
    }
  }
  for (auto& r : result) std::sort(r.begin(), r.end());
  return result;
}

class RowLevelDifferential : public ::testing::TestWithParam<Mode> {};

TEST_P(RowLevelDifferential, EveryStepAgreesWithDuckDB) {
  constexpr int kSteps = 60;
  test_support::TempDir dir("floe-row-level-diff");
  const std::string create = "CREATE TABLE db.t (id BIGINT, grp INT, name STRING)";
  const std::string create_source = "CREATE TABLE db.s (id BIGINT, grp INT, name STRING)";
  StepMaker maker(20261203u + static_cast<uint32_t>(GetParam().name.size()));
  // The whole script: setup, then per step its statement and the check query.
  std::vector<Step> steps;
  for (int n = 0; n < kSteps; ++n) {
    Step step = maker.next(n);
    if (step.floe.rfind("MERGE", 0) == 0) {
      steps.push_back({"DELETE FROM db.s WHERE true", "DELETE FROM s", ""});
      steps.push_back(maker.refill_source());
    }
    steps.push_back(step);
  }
  EXPECT_GE(std::count_if(steps.begin(), steps.end(), [](const Step& s) { return !s.cdc.empty(); }),
            3);
  const std::string check = "SELECT id, grp, name FROM t";
  nlohmann::json duck = nlohmann::json::array();
  duck.push_back("CREATE TABLE t (id BIGINT, grp INT, name VARCHAR)");
  duck.push_back("CREATE TABLE s (id BIGINT, grp INT, name VARCHAR)");
  for (const Step& step : steps) {
    duck.push_back(step.duck);
    duck.push_back(check);
  }
  std::vector<std::string> queries = duck;
  const auto expected = duckdb_rows(dir.path, queries);  // each query's rows, sorted
  if (HasFailure()) return;

  SessionOptions options;
  options.warehouse = dir.str() + "/wh";
  Session session(options);
  must(session, "CREATE NAMESPACE db");
  must(session, create + " USING iceberg PARTITIONED BY (grp) TBLPROPERTIES (" +
                    GetParam().properties + ")");
  must(session, create_source + " USING iceberg");
  auto table_rows = [&](const std::string& sql) {
    std::vector<std::string> out;
    for (const auto& r : rows(session, sql)) out.push_back(canonical(r));
    std::sort(out.begin(), out.end());
    return out;
  };
  std::vector<std::pair<std::string, std::vector<std::string>>> history;  // snapshot, rows
  int changed = 0;
  for (size_t k = 0; k < steps.size(); ++k) {
    SCOPED_TRACE("step " + std::to_string(k) + ": " + steps[k].floe + steps[k].cdc);
    if (steps[k].cdc.empty()) {
      auto r = testing::run(session, steps[k].floe);
      ASSERT_TRUE(r.ok()) << r.status().to_string();
    } else {
      std::string path = dir.str() + "/batch-" + std::to_string(k) + ".jsonl";
      std::ofstream(path) << steps[k].cdc;
      CdcOptions cdc;
      cdc.keys = {"id", "grp"};
      cdc.batch_ms = 0;
      auto r = apply_changes(session, "db.t", path, cdc);
      ASSERT_TRUE(r.ok()) << r.status().to_string();
      ASSERT_EQ(r->batches, 1);
    }
    const std::vector<std::string>& want = expected[3 + 2 * k];
    std::vector<std::string> have = table_rows("SELECT id, grp, name FROM db.t");
    ASSERT_EQ(have, want);
    auto snapshot = rows(session, "SELECT snapshot_id FROM db.t.refs WHERE name = 'main'");
    if (!snapshot.empty() && (history.empty() || history.back().first != snapshot[0])) {
      history.push_back({snapshot[0], have});
      ++changed;
    }
  }
  EXPECT_GT(changed, kSteps / 2);
  for (const auto& [snapshot, want] : history) {
    std::string id = nlohmann::json::parse(snapshot)[0].dump();
    SCOPED_TRACE("snapshot " + id);
    EXPECT_EQ(table_rows("SELECT id, grp, name FROM db.t VERSION AS OF " + id), want);
  }
}

// Independent readers agree with floe's merge-on-read output: DuckDB reads floe's data files
// and drops the rows floe's position delete files name (an anti-join on file path and row
// position), and python3-avro reads the delete manifests.
TEST(RowLevelIndependentReaders, DuckDBAndPython3AvroReadFloesDeletes) {
  test_support::TempDir dir("floe-row-level-readers");
  SessionOptions options;
  options.warehouse = dir.str() + "/wh";
  Session session(options);
  must(session, "CREATE NAMESPACE db");
  must(session,
       "CREATE TABLE db.t (id BIGINT, grp INT, name STRING) USING iceberg PARTITIONED BY (grp) "
       "TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read', "
       "'write.update.mode'='merge-on-read')");
  must(session, "INSERT INTO db.t SELECT id, CAST(id % 3 AS INT), 'n' FROM range(3000)");
  must(session, "INSERT INTO db.t SELECT id, CAST(id % 3 AS INT), 'm' FROM range(3000, 4000)");
  must(session, "DELETE FROM db.t WHERE id % 5 = 0");
  must(session, "UPDATE db.t SET name = 'u' WHERE id % 7 = 0");
  must(session, "DELETE FROM db.t WHERE id BETWEEN 100 AND 150");
  auto quoted_paths = [&](const std::string& sql) {
    std::string list;
    for (const auto& r : rows(session, sql)) {
      list += (list.empty() ? "" : ", ") + std::string("'") +
              nlohmann::json::parse(r)[0].get<std::string>() + "'";
    }
    return "[" + list + "]";
  };
  std::string data = quoted_paths("SELECT file_path FROM db.t.files WHERE content = 0");
  std::string deletes = quoted_paths("SELECT file_path FROM db.t.delete_files");
  ASSERT_NE(deletes, "[]");
  std::vector<std::string> floe;
  for (const auto& r : rows(session, "SELECT id, grp, name FROM db.t"))
    floe.push_back(canonical(r));
  std::sort(floe.begin(), floe.end());
  auto duck = duckdb_rows(
      dir.path, {"SELECT d.id, d.grp, d.name FROM read_parquet(" + data +
                 ", filename = true, file_row_number = true) d ANTI JOIN read_parquet(" + deletes +
                 ") p ON d.filename = p.file_path AND d.file_row_number = p.pos"});
  EXPECT_EQ(floe.size(), 4000u - 800u - 40u);  // 800 multiples of 5, 40 more in 100..150
  EXPECT_EQ(duck[0], floe);

  // The delete manifests as python3-avro reads them: content 1 entries, the snapshot's sequence
  // number, and one referenced data file per position delete file (granularity file).
  auto manifests =
      rows(session, "SELECT path, added_snapshot_id FROM db.t.manifests WHERE content = 1");
  ASSERT_FALSE(manifests.empty());
  int64_t entries = 0;
  for (const auto& m : manifests) {
    auto row = nlohmann::json::parse(m);
    int rc = 0;
    std::string out = test_support::run_command(
        "/usr/bin/python3 " + oracle_dir() + "/avro_dump.py " +
            test_support::shell_quote(row[0].get<std::string>()) + " 2>&1",
        &rc);
    ASSERT_EQ(rc, 0) << out;
    auto dump = nlohmann::json::parse(out);
    EXPECT_EQ(dump["metadata"]["content"], "deletes");
    for (const auto& e : dump["records"]) {
      ++entries;
      EXPECT_EQ(e["data_file"]["content"], 1);
      // Added entries inherit the manifest's sequence number (null); others carry theirs.
      EXPECT_TRUE(e["sequence_number"].is_null() || e["sequence_number"].get<int64_t>() > 2)
          << e.dump();
      std::string referenced = e["data_file"]["referenced_data_file"].get<std::string>();
      EXPECT_NE(data.find("'" + referenced + "'"), std::string::npos) << referenced;
    }
  }
  EXPECT_EQ(entries, static_cast<int64_t>(rows(session, "SELECT 1 FROM db.t.delete_files").size()));
}

INSTANTIATE_TEST_SUITE_P(
    Modes, RowLevelDifferential,
    ::testing::Values(Mode{"CopyOnWriteV2", "'format-version'='2'"},
                      Mode{"CopyOnWriteV3", "'format-version'='3'"},
                      Mode{"MergeOnReadV2",
                           "'format-version'='2', 'write.delete.mode'='merge-on-read', "
                           "'write.update.mode'='merge-on-read', "
                           "'write.merge.mode'='merge-on-read'"},
                      Mode{"MergeOnReadV3",
                           "'format-version'='3', 'write.delete.mode'='merge-on-read', "
                           "'write.update.mode'='merge-on-read', "
                           "'write.merge.mode'='merge-on-read'"}),
    [](const ::testing::TestParamInfo<Mode>& info) { return info.param.name; });

}  // namespace
}  // namespace floe::sql
