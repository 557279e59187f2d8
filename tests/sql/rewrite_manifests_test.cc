// Manifest rewriting: CALL system.rewrite_manifests and the library's rewrite_manifests
// (floe/table/rewrite_manifests.h) on tables written through a Session: new metrics settings
// shrink the manifests of a wide table while pruning stays the same on the columns that keep
// their metrics, entries keep their snapshot ids and sequence numbers (read back by
// python3-avro), specs and contents are rewritten apart, and concurrent commits either survive
// (appends) or fail the rewrite cleanly.
#include "floe/table/rewrite_manifests.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "floe/manifest/manifest_list_reader.h"
#include "floe/sql/session.h"
#include "format/parquet/parquet_test_util.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::error_of;
using testing::must;
using testing::rows;

class RewriteManifests : public testing::WarehouseTest {
 protected:
  int64_t count(const std::string& sql) { return std::stoll(rows(s(), sql)[0].substr(1)); }
  int64_t manifest_bytes(const std::string& t) {
    return count("SELECT sum(length) FROM db." + t + ".manifests");
  }
  int64_t snapshots(const std::string& t) {
    return count("SELECT count(*) FROM db." + t + ".snapshots");
  }
  std::map<std::string, std::string> last_summary(const std::string& t) {
    return table(t)->metadata()->current_snapshot()->summary;
  }

  // A table of 110 columns (a BIGINT, b STRING, c DATE, p INT, then c004..c109 alternating
  // BIGINT and STRING) partitioned by p, written by `inserts` INSERTs of 40 rows over 4
  // partitions each: one manifest of 4 data files per INSERT.
  void make_wide_table(const std::string& name, int inserts) {
    std::string columns = "a BIGINT, b STRING, c DATE, p INT";
    std::string select =
        "id, concat('name-', lpad(CAST(id AS STRING), 6, '0'), '-with-a-long-tail'), "
        "date_add(DATE '2026-01-01', CAST(id AS INT)), CAST(id % 4 AS INT)";
    for (int k = 4; k < 110; ++k) {
      if (k % 2 == 0) {
        columns += fmt::format(", c{:03d} BIGINT", k);
        select += fmt::format(", id * {}", k);
      } else {
        columns += fmt::format(", c{:03d} STRING", k);
        select += fmt::format(", concat('column-{}-value-', CAST(id AS STRING))", k);
      }
    }
    must(s(), "CREATE TABLE db." + name + " (" + columns +
                  ") USING iceberg PARTITIONED BY (p) TBLPROPERTIES ('format-version'='2')");
    for (int i = 0; i < inserts; ++i) {
      must(s(), fmt::format("INSERT INTO db.{} SELECT {} FROM range({}, {})", name, select, i * 40,
                            i * 40 + 40));
    }
  }

  // What EXPLAIN reports for the one scan of `sql`: files skipped and scanned.
  std::pair<int64_t, int64_t> pruning(const std::string& sql) {
    auto out = must(s(), "EXPLAIN " + sql);
    EXPECT_EQ(out.reports.size(), 1u) << sql;
    if (out.reports.empty()) return {-1, -1};
    return {out.reports[0].skipped_data_files, out.reports[0].scanned_data_files};
  }
};

json avro_dump(const std::string& path) {
  int rc = 0;
  std::string out =
      test_support::run_command("/usr/bin/python3 " + parquet::testing::oracle_dir() +
                                    "/avro_dump.py " + test_support::shell_quote(path) + " 2>&1",
                                &rc);
  EXPECT_EQ(rc, 0) << out;
  return rc == 0 ? json::parse(out) : json::object();
}

// The lesson's wide table: written with the default metrics (truncate(16) on the first 100
// columns), then set to keep metrics on 3 filter columns only. rewrite_manifests applies the new
// settings: the manifests shrink several-fold (also against the same rewrite of a twin table
// that keeps its settings), pruning on the 3 columns skips the same files as before while a
// column without metrics no longer prunes, every row still reads, and python3-avro sees EXISTING
// entries that kept their snapshot ids and sequence numbers and only the 3 columns' bounds.
TEST_F(RewriteManifests, WideTableShrinksWithNewMetricsAndPrunesTheSame) {
  make_wide_table("w", 12);
  make_wide_table("twin", 12);
  const auto all_before = rows(s(), "SELECT * FROM db.w ORDER BY a");
  ASSERT_EQ(all_before.size(), 480u);
  const std::string on_a = "SELECT * FROM db.w WHERE a = 123";
  const std::string on_b = "SELECT * FROM db.w WHERE b >= 'name-000450'";
  const std::string on_c = "SELECT * FROM db.w WHERE c < DATE '2026-01-20'";
  const std::string on_other = "SELECT * FROM db.w WHERE c006 = 600";
  const auto a_before = pruning(on_a), b_before = pruning(on_b), c_before = pruning(on_c);
  const auto other_before = pruning(on_other);
  // Each filter matches one INSERT's ids: its 4 files are scanned, the other 44 skipped.
  const auto one_insert = std::make_pair(int64_t{44}, int64_t{4});
  EXPECT_EQ(a_before, one_insert);
  EXPECT_EQ(b_before, one_insert);
  EXPECT_EQ(c_before, one_insert);
  EXPECT_EQ(other_before, one_insert);
  std::map<std::string, std::string> entries_before;  // file -> [snapshot, seq, file seq]
  for (const auto& r : rows(s(),
                            "SELECT data_file.file_path, snapshot_id, sequence_number, "
                            "file_sequence_number FROM db.w.entries")) {
    auto j = json::parse(r);
    entries_before[j[0].get<std::string>()] = json::array({j[1], j[2], j[3]}).dump();
  }
  ASSERT_EQ(entries_before.size(), 48u);
  const int64_t bytes_before = manifest_bytes("w");
  ASSERT_EQ(count("SELECT count(*) FROM db.w.manifests"), 12);

  must(s(),
       "ALTER TABLE db.w SET TBLPROPERTIES ('write.metadata.metrics.default'='none', "
       "'write.metadata.metrics.column.a'='full', 'write.metadata.metrics.column.b'='full', "
       "'write.metadata.metrics.column.c'='full')");
  auto out = must(
      s(), "CALL system.rewrite_manifests(table => 'db.w', use_caching => false, spec_id => 0)");
  EXPECT_EQ(out.columns,
            (std::vector<std::string>{"rewritten_manifests_count", "added_manifests_count"}));
  EXPECT_EQ(out.rows, std::vector<std::string>{"[12,1]"});
  EXPECT_EQ(rows(s(), "CALL system.rewrite_manifests('db.twin')"),
            std::vector<std::string>{"[12,1]"});
  const int64_t bytes_after = manifest_bytes("w");
  const int64_t bytes_twin = manifest_bytes("twin");
  std::cout << "[ manifests ] 12 manifests " << bytes_before << " bytes -> " << bytes_after
            << " bytes with metrics on 3 columns (" << bytes_twin
            << " bytes rewritten with the default metrics)\n";
  EXPECT_LT(bytes_after * 4, bytes_before);
  EXPECT_LT(bytes_after * 3, bytes_twin);

  auto summary = last_summary("w");
  EXPECT_EQ(summary["operation"], "replace");
  EXPECT_EQ(summary["manifests-created"], "1");
  EXPECT_EQ(summary["manifests-replaced"], "12");
  EXPECT_EQ(summary["manifests-kept"], "0");
  EXPECT_EQ(summary["entries-processed"], "48");
  EXPECT_EQ(summary["total-data-files"], "48");
  EXPECT_EQ(summary["total-records"], "480");

  EXPECT_EQ(pruning(on_a), a_before);
  EXPECT_EQ(pruning(on_b), b_before);
  EXPECT_EQ(pruning(on_c), c_before);
  EXPECT_EQ(pruning(on_other), std::make_pair(int64_t{0}, int64_t{48}));
  EXPECT_EQ(rows(s(), "SELECT * FROM db.w ORDER BY a"), all_before);
  EXPECT_EQ(rows(s(), on_a).size(), 1u);

  // python3-avro on the new manifest.
  auto m = table("w")->metadata();
  const Schema& schema = *m->schema();
  const std::set<int> kept = {schema.find_field("a")->id, schema.find_field("b")->id,
                              schema.find_field("c")->id};
  auto paths = rows(s(), "SELECT path FROM db.w.manifests");
  ASSERT_EQ(paths.size(), 1u);
  const std::string path = json::parse(paths[0])[0].get<std::string>();
  EXPECT_NE(path.find("optimized-m-"), std::string::npos) << path;
  json dump = avro_dump(path);
  ASSERT_EQ(dump["records"].size(), 48u);
  for (const auto& e : dump["records"]) {
    EXPECT_EQ(e["status"], 0) << "not EXISTING";
    const std::string file = e["data_file"]["file_path"].get<std::string>();
    ASSERT_TRUE(entries_before.count(file)) << file;
    EXPECT_EQ(
        json::array({e["snapshot_id"], e["sequence_number"], e["file_sequence_number"]}).dump(),
        entries_before[file])
        << file;
    for (const char* metric :
         {"lower_bounds", "upper_bounds", "value_counts", "null_value_counts"}) {
      std::set<int> ids;
      for (const auto& kv : e["data_file"][metric]) ids.insert(kv["key"].get<int>());
      EXPECT_EQ(ids, kept) << metric;
    }
    EXPECT_EQ(e["data_file"]["column_sizes"].size(), 110u);
  }
}

// truncate(N) shortens string bounds (the upper one rounded up), counts keeps only the counts.
TEST_F(RewriteManifests, TruncateAndCountsModes) {
  must(s(),
       "CREATE TABLE db.t (id BIGINT, s STRING, n BIGINT) USING iceberg TBLPROPERTIES "
       "('write.metadata.metrics.default'='full')");
  must(s(), "INSERT INTO db.t VALUES (1, 'alphabet-soup', 10), (2, 'alpine-meadow', 20)");
  must(s(), "INSERT INTO db.t VALUES (3, 'beta-version', 30)");
  must(s(),
       "ALTER TABLE db.t SET TBLPROPERTIES ('write.metadata.metrics.column.s'='truncate(3)', "
       "'write.metadata.metrics.column.n'='counts')");
  EXPECT_EQ(rows(s(), "CALL system.rewrite_manifests('db.t')"), std::vector<std::string>{"[2,1]"});
  EXPECT_EQ(rows(s(),
                 "SELECT readable_metrics.s.lower_bound, readable_metrics.s.upper_bound, "
                 "readable_metrics.n.value_count, readable_metrics.n.lower_bound, "
                 "readable_metrics.id.upper_bound FROM db.t.files ORDER BY record_count"),
            (std::vector<std::string>{R"(["bet","beu",1,null,3])", R"(["alp","alq",2,null,2])"}));
  EXPECT_EQ(rows(s(), "SELECT id FROM db.t WHERE s = 'alpine-meadow'"),
            std::vector<std::string>{"[2]"});
}

// Entries are clustered by partition and the new manifests roll at
// commit.manifest.target-size-bytes: each INSERT's manifest spans every partition, each new one
// a range of partitions that no other new manifest overlaps, so a filter on the partition
// column skips most of them.
TEST_F(RewriteManifests, ClustersByPartitionAndRollsAtTheTargetSize) {
  must(s(), "CREATE TABLE db.t (id BIGINT, p INT) USING iceberg PARTITIONED BY (p)");
  for (int i = 0; i < 8; ++i) {
    must(s(), fmt::format("INSERT INTO db.t SELECT id, CAST(id % 16 AS INT) FROM range({}, {})",
                          i * 16, i * 16 + 16));
  }
  must(s(), "ALTER TABLE db.t SET TBLPROPERTIES ('commit.manifest.target-size-bytes'='6000')");
  auto ranges = [&] {
    std::vector<std::pair<int, int>> out;
    for (const auto& r : rows(s(), "SELECT partition_summaries FROM db.t.manifests")) {
      auto summary = json::parse(r)[0][0];
      out.emplace_back(std::stoi(summary["lower_bound"].get<std::string>()),
                       std::stoi(summary["upper_bound"].get<std::string>()));
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  for (const auto& [lower, upper] : ranges())
    EXPECT_EQ(std::make_pair(lower, upper), std::make_pair(0, 15));
  const auto before = rows(s(), "SELECT * FROM db.t ORDER BY id");
  auto out = must(s(), "CALL system.rewrite_manifests('db.t')");
  ASSERT_EQ(out.rows.size(), 1u);
  const auto after = ranges();
  EXPECT_EQ(out.rows[0], fmt::format("[8,{}]", after.size()));
  EXPECT_GT(after.size(), 2u);
  for (const auto& r : rows(s(), "SELECT length FROM db.t.manifests")) {
    EXPECT_LT(std::stoll(r.substr(1)), 6000 * 2) << r;
  }
  for (size_t i = 1; i < after.size(); ++i) {
    EXPECT_LE(after[i - 1].second, after[i].first) << i;
  }
  EXPECT_EQ(after.front().first, 0);
  EXPECT_EQ(after.back().second, 15);
  auto explain = must(s(), "EXPLAIN SELECT * FROM db.t WHERE p = 3");
  ASSERT_EQ(explain.reports.size(), 1u);
  EXPECT_GE(explain.reports[0].skipped_data_manifests, static_cast<int64_t>(after.size()) - 2);
  EXPECT_EQ(rows(s(), "SELECT * FROM db.t ORDER BY id"), before);
}

// Manifests of different specs and contents are rewritten apart; spec_id limits the rewrite to
// one spec; a group of one manifest that fits is left alone; nothing to do commits nothing.
TEST_F(RewriteManifests, SpecsAndContentsStayApart) {
  must(s(),
       "CREATE TABLE db.t (id BIGINT, cat STRING) USING iceberg PARTITIONED BY (cat) "
       "TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read', "
       "'commit.manifest-merge.enabled'='false')");
  EXPECT_EQ(rows(s(), "CALL system.rewrite_manifests('db.t')"), std::vector<std::string>{"[0,0]"});
  auto insert = [&](int i) {
    must(s(), fmt::format("INSERT INTO db.t VALUES ({}, 'a'), ({}, 'a'), ({}, 'b'), ({}, 'b')",
                          10 * i, 10 * i + 2, 10 * i + 1, 10 * i + 3));
  };
  for (int i = 0; i < 3; ++i) insert(i);
  must(s(), "DELETE FROM db.t WHERE id = 0");
  must(s(), "DELETE FROM db.t WHERE id = 13");
  must(s(), "ALTER TABLE db.t ADD PARTITION FIELD bucket(2, id)");
  for (int i = 3; i < 5; ++i) insert(i);
  const auto before = rows(s(), "SELECT * FROM db.t ORDER BY id");
  auto by_kind = [&] {
    return rows(s(),
                "SELECT content, partition_spec_id, count(*) FROM db.t.manifests GROUP BY 1, 2 "
                "ORDER BY 1, 2");
  };
  ASSERT_EQ(by_kind(), (std::vector<std::string>{"[0,0,3]", "[0,1,2]", "[1,0,2]"}));
  EXPECT_NE(error_of(s(), "CALL system.rewrite_manifests(table => 'db.t', spec_id => 7)")
                .find("Invalid spec id 7"),
            std::string::npos);
  EXPECT_EQ(rows(s(), "CALL system.rewrite_manifests(table => 'db.t', spec_id => 1)"),
            std::vector<std::string>{"[2,1]"});
  EXPECT_EQ(by_kind(), (std::vector<std::string>{"[0,0,3]", "[0,1,1]", "[1,0,2]"}));
  EXPECT_EQ(rows(s(), "SELECT * FROM db.t ORDER BY id"), before);
  // Every spec and content: spec 0's data and delete manifests each become one; spec 1's one
  // manifest stays.
  EXPECT_EQ(rows(s(), "CALL system.rewrite_manifests('db.t')"), std::vector<std::string>{"[5,2]"});
  EXPECT_EQ(by_kind(), (std::vector<std::string>{"[0,0,1]", "[0,1,1]", "[1,0,1]"}));
  EXPECT_EQ(rows(s(), "SELECT * FROM db.t ORDER BY id"), before);
  EXPECT_EQ(rows(s(), "SELECT count(*) FROM db.t.delete_files"), std::vector<std::string>{"[2]"});
  // Every live entry is EXISTING now (the deletes kept their sequence numbers: same rows).
  EXPECT_EQ(rows(s(), "SELECT DISTINCT status FROM db.t.entries"), std::vector<std::string>{"[0]"});
  const int64_t n = snapshots("t");
  EXPECT_EQ(rows(s(), "CALL system.rewrite_manifests('db.t')"), std::vector<std::string>{"[0,0]"});
  EXPECT_EQ(snapshots("t"), n);
  EXPECT_NE(error_of(s(), "CALL system.rewrite_manifests(table => 'db.t', use_caching => 1)")
                .find("use_caching must be true or false"),
            std::string::npos);
}

// Commits made while the rewrite reads the manifests: an append survives (its manifest is kept
// beside the new one); a rewrite of the same manifests committed first makes this one fail with
// a conflict, leaving the table as the other left it and no manifest of the failed rewrite.
TEST_F(RewriteManifests, ConcurrentCommits) {
  for (bool append : {true, false}) {
    SCOPED_TRACE(append ? "append" : "rewrite");
    const std::string name = append ? "t_append" : "t_rewrite";
    must(s(),
         "CREATE TABLE db." + name + " (id BIGINT, cat STRING) USING iceberg PARTITIONED BY (cat)");
    for (int i = 0; i < 4; ++i) {
      must(s(),
           fmt::format("INSERT INTO db.{} VALUES ({}, 'a'), ({}, 'b')", name, 10 * i, 10 * i + 1));
    }
    Session other(options());
    auto t = table(name);
    RewriteManifestsOptions o;
    bool ran = false;
    o.progress = [&](int64_t, int64_t, int64_t, int64_t) {
      if (ran) return;
      ran = true;
      if (append) {
        must(other, "INSERT INTO db." + name + " VALUES (99, 'c')");
      } else {
        EXPECT_EQ(rows(other, "CALL system.rewrite_manifests('db." + name + "')"),
                  std::vector<std::string>{"[4,1]"});
      }
    };
    auto r = rewrite_manifests(*t, o);
    EXPECT_TRUE(ran);
    if (append) {
      ASSERT_TRUE(r.ok()) << r.status().to_string();
      EXPECT_EQ(r->rewritten_manifests, 4);
      EXPECT_EQ(count("SELECT count(*) FROM db." + name + ".manifests"), 2);
      EXPECT_EQ(last_summary(name)["manifests-kept"], "1");
      EXPECT_EQ(count("SELECT count(*) FROM db." + name), 9);
    } else {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.status().kind(), ErrorKind::kCommitConflict) << r.status().to_string();
      EXPECT_NE(r.status().message().find("Manifest is missing"), std::string::npos);
      EXPECT_EQ(count("SELECT count(*) FROM db." + name + ".manifests"), 1);
      EXPECT_EQ(count("SELECT count(*) FROM db." + name), 8);
      // Only the other rewrite's manifest is on disk.
      int optimized = 0;
      for (const auto& e : fs::directory_iterator(dir_.path / "db" / name / "metadata")) {
        if (e.path().filename().string().rfind("optimized-m-", 0) == 0) ++optimized;
      }
      EXPECT_EQ(optimized, 1);
    }
  }
}

}  // namespace
}  // namespace floe::sql
