// The planning doctor (floe/table/table_doctor.h) on tables written through a Session: an aged
// table (many small appends, point deletes in merge-on-read, no maintenance) crosses the small
// files, manifest count and delete thresholds with the right numbers; the same table after
// compaction passes; wide manifests, manifests full of DELETED entries, snapshots past
// retention and orphan files are each flagged with their fix.
#include "floe/table/table_doctor.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "floe/sql/session.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

namespace fs = std::filesystem;
using testing::must;

class TableDoctor : public testing::WarehouseTest {
 protected:
  DoctorReport diagnose(DoctorOptions o = {}) {
    auto t = table();
    auto r = diagnose_table(*t, o);
    EXPECT_TRUE(r.ok()) << r.status().to_string();
    return r.ok() ? *r : DoctorReport{};
  }
  static const DoctorFinding& finding(const DoctorReport& r, const std::string& check) {
    for (const auto& f : r.findings) {
      if (f.check == check) return f;
    }
    ADD_FAILURE() << "no finding " << check;
    static DoctorFinding none;
    return none;
  }
  static double number(const DoctorFinding& f, const std::string& name) {
    for (const auto& [n, v] : f.numbers) {
      if (n == name) return v;
    }
    ADD_FAILURE() << f.check << " has no number " << name;
    return -1;
  }

  // The lesson's aged orders table: 12 small appends into two days, then 15 point deletes in
  // merge-on-read mode on the first day, no maintenance.
  void make_aged_table() {
    must(s(),
         "CREATE TABLE db.t (id BIGINT, day DATE, amount DOUBLE) USING iceberg PARTITIONED BY "
         "(day) TBLPROPERTIES ('format-version' = '2', 'write.delete.mode' = 'merge-on-read')");
    for (int i = 0; i < 12; ++i) {
      std::string values;
      for (int k = 0; k < 10; ++k) {
        const int id = i * 100 + k;
        values += fmt::format("{}({}, DATE '2026-01-0{}', {}.5)", values.empty() ? "" : ", ", id,
                              1 + k % 2, id);
      }
      must(s(), "INSERT INTO db.t VALUES " + values);
    }
    for (int i = 0; i < 15; ++i) {
      // Even ids k of append i are on the first day.
      must(s(), fmt::format("DELETE FROM db.t WHERE id = {}", (i % 12) * 100 + 2 * (i / 12)));
    }
  }
};

TEST_F(TableDoctor, AnAgedTableNeedsMaintenance) {
  make_aged_table();
  DoctorReport r = diagnose();
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.table, "db.t");
  EXPECT_GT(r.snapshot_id, 0);
  EXPECT_GT(r.manifests_read, 0);

  const auto& deletes = finding(r, "deletes");
  EXPECT_TRUE(deletes.crossed) << deletes.summary;
  EXPECT_EQ(number(deletes, "delete_files"), 15);
  EXPECT_EQ(number(deletes, "max_delete_files_per_partition"), 15);
  EXPECT_NE(deletes.fix.find("rewrite_data_files"), std::string::npos);
  ASSERT_FALSE(deletes.details.empty());
  EXPECT_NE(deletes.details[0].find("day=2026-01-01"), std::string::npos) << deletes.details[0];

  const auto& small = finding(r, "small-files");
  EXPECT_TRUE(small.crossed) << small.summary;
  EXPECT_EQ(number(small, "data_files"), 24);  // 12 appends x 2 days
  EXPECT_EQ(number(small, "partitions_to_compact"), 2);

  const auto& count = finding(r, "manifest-count");
  EXPECT_TRUE(count.crossed) << count.summary;
  EXPECT_GE(number(count, "data_manifests"), 12);

  EXPECT_FALSE(finding(r, "snapshots").crossed);  // young snapshots
  EXPECT_FALSE(finding(r, "orphans").crossed);
  EXPECT_FALSE(finding(r, "partition-range").crossed);  // two days only
  EXPECT_EQ(number(finding(r, "specs"), "specs_in_use"), 1);
}

TEST_F(TableDoctor, AFreshlyCompactedTablePasses) {
  make_aged_table();
  const auto before = testing::rows(s(), "SELECT * FROM db.t ORDER BY id");
  must(s(), "CALL system.rewrite_data_files(table => 'db.t')");
  must(s(), "CALL system.rewrite_manifests(table => 'db.t')");
  DoctorReport r = diagnose();
  for (const auto& f : r.findings) EXPECT_FALSE(f.crossed) << f.check << ": " << f.summary;
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(number(finding(r, "deletes"), "delete_files"), 0);
  EXPECT_EQ(testing::rows(s(), "SELECT * FROM db.t ORDER BY id"), before);
}

// A compaction leaves its DELETED entries in the new snapshot's manifests: until the manifests
// are rewritten, planning reads them.
TEST_F(TableDoctor, ManifestsFullOfDeletedEntries) {
  make_aged_table();
  must(s(), "CALL system.rewrite_data_files(table => 'db.t')");
  DoctorReport r = diagnose();
  const auto& deleted = finding(r, "deleted-entries");
  EXPECT_TRUE(deleted.crossed) << deleted.summary;
  EXPECT_GE(number(deleted, "manifests_over_threshold"), 1);
  EXPECT_NE(deleted.fix.find("rewrite_manifests"), std::string::npos);
  ASSERT_FALSE(deleted.details.empty());
  EXPECT_NE(deleted.details[0].find("DELETED"), std::string::npos);
  // A higher threshold than any manifest's share passes.
  DoctorOptions o;
  o.deleted_ratio = 1.01;
  EXPECT_FALSE(finding(diagnose(o), "deleted-entries").crossed);
}

// Manifests that each span 40 days of days(ts): pruning on ts cannot skip any of them.
TEST_F(TableDoctor, WidePartitionRanges) {
  must(s(), "CREATE TABLE db.t (id BIGINT, ts TIMESTAMP) USING iceberg PARTITIONED BY (days(ts))");
  for (int i = 0; i < 3; ++i) {
    must(s(), fmt::format("INSERT INTO db.t VALUES ({}, TIMESTAMP '2026-01-01 10:00:00'), ({}, "
                          "TIMESTAMP '2026-02-10 10:00:00')",
                          2 * i, 2 * i + 1));
  }
  DoctorReport r = diagnose();
  const auto& range = finding(r, "partition-range");
  EXPECT_TRUE(range.crossed) << range.summary;
  EXPECT_EQ(number(range, "manifests_over_threshold"), 3);
  ASSERT_FALSE(range.details.empty());
  EXPECT_NE(range.details[0].find("spans 40 days"), std::string::npos) << range.details[0];
  DoctorOptions o;
  o.partition_range_days = 41;
  EXPECT_FALSE(finding(diagnose(o), "partition-range").crossed);
}

// A wide table with metrics on every column: bytes per manifest entry beyond the threshold.
TEST_F(TableDoctor, WideMetricsMakeBigManifests) {
  std::string columns = "id BIGINT", values;
  for (int c = 0; c < 150; ++c) columns += fmt::format(", c{} STRING", c);
  must(s(), "CREATE TABLE db.t (" + columns +
                ") USING iceberg TBLPROPERTIES ('write.metadata.metrics.default' = 'full', "
                "'write.metadata.metrics.max-inferred-column-defaults' = '200')");
  for (int i = 0; i < 3; ++i) {
    std::string row = std::to_string(i);
    for (int c = 0; c < 150; ++c) row += fmt::format(", 'value {} of column {}'", i, c);
    must(s(), "INSERT INTO db.t VALUES (" + row + ")");
  }
  DoctorReport r = diagnose();
  const auto& size = finding(r, "manifest-size");
  EXPECT_TRUE(size.crossed) << size.summary;
  EXPECT_EQ(number(size, "columns"), 151);
  EXPECT_GT(number(size, "bytes_per_entry"), 1024);
  EXPECT_NE(size.fix.find("write.metadata.metrics.default"), std::string::npos);
}

TEST_F(TableDoctor, SnapshotsPastRetention) {
  must(s(),
       "CREATE TABLE db.t (id BIGINT) USING iceberg TBLPROPERTIES "
       "('history.expire.max-snapshot-age-ms' = '1')");
  for (int i = 0; i < 4; ++i) must(s(), fmt::format("INSERT INTO db.t VALUES ({})", i));
  DoctorReport r = diagnose();
  const auto& snaps = finding(r, "snapshots");
  EXPECT_TRUE(snaps.crossed) << snaps.summary;
  EXPECT_EQ(number(snaps, "snapshots"), 4);
  EXPECT_EQ(number(snaps, "expirable_snapshots"), 3);  // all but the current one
  EXPECT_NE(snaps.fix.find("expire_snapshots"), std::string::npos);
}

// A file no metadata references, older than the cutoff, is an orphan; a young one (a write in
// flight) is not.
TEST_F(TableDoctor, OrphanFiles) {
  must(s(), "CREATE TABLE db.t (id BIGINT) USING iceberg");
  must(s(), "INSERT INTO db.t VALUES (1)");
  fs::path old_file = dir_.path / "db" / "t" / "data" / "lost.parquet";
  fs::path young_file = dir_.path / "db" / "t" / "data" / "in-flight.parquet";
  std::ofstream(old_file) << "x";
  std::ofstream(young_file) << "y";
  fs::last_write_time(old_file, fs::file_time_type::clock::now() - std::chrono::hours(24 * 4));
  DoctorReport r = diagnose();
  const auto& orphans = finding(r, "orphans");
  EXPECT_TRUE(orphans.crossed) << orphans.summary;
  EXPECT_EQ(number(orphans, "orphan_files"), 1);
  ASSERT_EQ(orphans.details.size(), 1u);
  EXPECT_NE(orphans.details[0].find("lost.parquet"), std::string::npos);
  EXPECT_TRUE(fs::exists(old_file));  // the doctor only looks
  DoctorOptions o;
  o.check_orphans = false;
  DoctorReport without = diagnose(o);
  for (const auto& f : without.findings) EXPECT_NE(f.check, "orphans");
}

TEST_F(TableDoctor, AnEmptyTablePasses) {
  must(s(), "CREATE TABLE db.t (id BIGINT) USING iceberg");
  DoctorReport r = diagnose();
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.snapshot_id, -1);
}

}  // namespace
}  // namespace floe::sql
