// Reading every full fixture table end to end (plan, Parquet, deletes): the current snapshot's
// live row count equals the count the fixture README computed independently. Tables with ORC
// or Avro data files fail with a clear "not supported" error; the deliberately malformed ones
// fail with a clear error naming the problem.
#include <gtest/gtest.h>

#include <filesystem>

#include "floe/read/task_reader.h"
#include "floe/spec/metadata_file.h"
#include "integration/fixture_readme.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
const fs::path kFixtures = FLOE_FIXTURES_DIR;

using Expected = floe_test::FixtureTable;

// Tables with a computed row count, or a reason why there is none.
std::vector<Expected> readme_counts() {
  std::vector<Expected> out;
  for (auto& t : floe_test::readme_tables()) {
    if (t.rows >= 0 || !t.note.empty()) out.push_back(std::move(t));
  }
  return out;
}

Result<int64_t> count_rows(const Expected& e) {
  fs::path dir = kFixtures / e.name;
  StoredTable t = FLOE_TRY(open_table_at(make_local_file_io(), (dir / e.metadata).string()));
  TableScan scan = FLOE_TRY(TableScan::make(t.io, t.metadata, {}));
  int64_t rows = 0;
  FLOE_TRY(read_scan(scan, t.io, t.metadata, {}, [&](ColumnBatch&& b) {
    rows += b.num_rows;
    return Status::OK();
  }));
  return rows;
}

// Tables whose failure is expected, with a fragment of the error.
const std::map<std::string, std::string>& expected_failures() {
  static const std::map<std::string, std::string> kFailures = {
      // Not a Puffin file on purpose: a strict reader rejects it.
      {"duckdb-iceberg/legacy_bare_deletion_vector", "not a Puffin file"},
  };
  return kFailures;
}

TEST(ScanReadFixturesTest, EveryTableReadsTheReadmeRowCount) {
  std::vector<Expected> tables = readme_counts();
  ASSERT_GE(tables.size(), 100u);
  int compared = 0, unsupported = 0;
  for (const auto& e : tables) {
    SCOPED_TRACE(e.name);
    auto rows = count_rows(e);
    auto failure = expected_failures().find(e.name);
    if (failure != expected_failures().end()) {
      ASSERT_FALSE(rows.ok()) << "expected an error";
      EXPECT_NE(rows.status().message().find(failure->second), std::string::npos)
          << rows.status().message();
      continue;
    }
    bool orc_or_avro = e.formats.find("ORC") != std::string::npos ||
                       e.formats.find("AVRO") != std::string::npos ||
                       e.note.find("ORC") != std::string::npos;
    if (orc_or_avro && !rows.ok()) {
      EXPECT_EQ(rows.status().kind(), ErrorKind::kNotSupported) << rows.status().to_string();
      EXPECT_TRUE(rows.status().message().find("ORC") != std::string::npos ||
                  rows.status().message().find("AVRO") != std::string::npos ||
                  rows.status().message().find("avro") != std::string::npos)
          << rows.status().message();
      ++unsupported;
      continue;
    }
    if (e.rows < 0) continue;  // README could not compute it either
    EXPECT_TRUE(rows.ok()) << rows.status().to_string();
    if (!rows.ok()) continue;
    EXPECT_EQ(*rows, e.rows);
    ++compared;
  }
  EXPECT_GE(compared, 90);
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

// Every snapshot of a table with a known history (upstream test equality_deletes.test, quoted in
// the fixture README): insert a..d; delete name=b; delete id=1; delete id=3 and name=c; insert
// e, f; delete name=f.
TEST(ScanReadFixturesTest, EverySnapshotOfAnEqualityDeleteHistory) {
  fs::path dir = kFixtures / "duckdb-iceberg/equality_deletes_mytable";
  auto t = open_table_at(make_local_file_io(), dir.string());
  ASSERT_TRUE(t.ok()) << t.status().to_string();
  std::vector<const Snapshot*> history;
  for (const Snapshot* s = t->metadata->current_snapshot(); s;
       s = s->parent_snapshot_id ? t->metadata->snapshot_by_id(*s->parent_snapshot_id) : nullptr) {
    history.insert(history.begin(), s);
  }
  ASSERT_EQ(history.size(), 6u);
  int missing = 0;
  const std::vector<std::vector<int32_t>> expected_ids = {{1, 2, 3, 4}, {1, 3, 4}, {3, 4},
                                                          {4},          {4, 5, 6}, {4, 5}};
  for (size_t i = 0; i < history.size(); ++i) {
    SCOPED_TRACE("snapshot " + std::to_string(i + 1));
    ScanOptions o;
    o.snapshot_id = history[i]->snapshot_id;
    auto scan = TableScan::make(t->io, t->metadata, o);
    ASSERT_TRUE(scan.ok());
    std::vector<int32_t> ids;
    auto r = read_scan(*scan, t->io, t->metadata, {"id"}, [&](ColumnBatch&& b) {
      for (int64_t k = 0; k < b.num_rows; ++k) ids.push_back(b.columns[0]->raw<int32_t>()[k]);
      return Status::OK();
    });
    // Upstream kept only the final attempt's manifest list of some commits (snap-<id>-3-... on
    // disk, snap-<id>-1-... in the metadata): such a snapshot fails with a clear error.
    if (!*t->io->exists(history[i]->manifest_list)) {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.status().kind(), ErrorKind::kNotFound);
      EXPECT_NE(r.status().message().find("snap-"), std::string::npos);
      ++missing;
      continue;
    }
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(ids, expected_ids[i]);
    // Projecting a column outside every equality key still applies the deletes.
    int64_t rows = 0;
    auto only_bir = read_scan(*scan, t->io, t->metadata, {"bir"}, [&](ColumnBatch&& b) {
      rows += b.num_rows;
      return Status::OK();
    });
    ASSERT_TRUE(only_bir.ok());
    EXPECT_EQ(rows, static_cast<int64_t>(expected_ids[i].size()));
  }
  EXPECT_LE(missing, 2);
}

// Equality deletes of partition 0 must not remove key 100 from partition 1; a filter on the
// partition column prunes the other partition's file and its delete.
TEST(ScanReadFixturesTest, EqualityDeletesStayInTheirPartition) {
  auto t = open_table_at(make_local_file_io(),
                         (kFixtures / "duckdb-iceberg/equality_delete_cross_partition").string());
  ASSERT_TRUE(t.ok());
  for (const auto& [filter, expected] :
       std::vector<std::pair<std::string, int64_t>>{{"", 3}, {"part = 1", 2}, {"key = 100", 1}}) {
    ScanOptions o;
    if (!filter.empty())
      o.filter = make_predicate(Operation::kEq, filter.substr(0, filter.find(' ')),
                                {Literal::int64(std::stoll(filter.substr(filter.rfind(' ') + 1)))});
    auto scan = TableScan::make(t->io, t->metadata, o);
    ASSERT_TRUE(scan.ok());
    int64_t rows = 0;
    ASSERT_TRUE(read_scan(*scan, t->io, t->metadata, {}, [&](ColumnBatch&& b) {
                  rows += b.num_rows;
                  return Status::OK();
                }).ok());
    EXPECT_EQ(rows, expected) << filter;
  }
}

}  // namespace
}  // namespace floe
