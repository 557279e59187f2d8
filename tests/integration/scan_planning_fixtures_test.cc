// Scan planning on every full fixture table: the current snapshot plans exactly the live data
// files and delete files the fixtures' README lists (fixture_readme.h reads it).
#include <gtest/gtest.h>

#include <filesystem>

#include "floe/io/relocating_file_io.h"
#include "floe/scan/table_scan.h"
#include "floe/spec/metadata_file.h"
#include "integration/fixture_readme.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
const fs::path kFixtures = FLOE_FIXTURES_DIR;

using floe_test::FixtureTable;

// Full tables: those whose live file counts the README lists.
std::vector<FixtureTable> readme_tables() {
  std::vector<FixtureTable> full;
  for (auto& t : floe_test::readme_tables()) {
    if (t.data_files >= 0) full.push_back(std::move(t));
  }
  return full;
}

struct Planned {
  Status status;
  ScanReport report;
};

Planned plan(const FixtureTable& t) {
  fs::path dir = kFixtures / t.name;
  auto local = make_local_file_io();
  auto m = read_table_metadata(*local, (dir / t.metadata).string());
  if (!m.ok()) return {m.status(), {}};
  auto table = std::make_shared<const TableMetadata>(std::move(*m));
  auto io = make_relocating_file_io(local, {table->location, dir.string()});
  auto scan = TableScan::make(io, table, {});
  if (!scan.ok()) return {scan.status(), {}};
  auto files = scan->plan_files();
  if (!files.ok()) return {files.status(), scan->report()};
  return {Status::OK(), scan->report()};
}

TEST(ScanPlanningFixturesTest, CurrentSnapshotPlansTheReadmeFileCounts) {
  std::vector<FixtureTable> tables = readme_tables();
  ASSERT_GE(tables.size(), 100u) << "README parsing found too few tables";
  int planned = 0;
  for (const auto& t : tables) {
    SCOPED_TRACE(t.name);
    Planned p = plan(t);
    ASSERT_TRUE(p.status.ok()) << p.status.to_string();
    EXPECT_EQ(p.report.scanned_data_files, t.data_files);
    EXPECT_EQ(p.report.total_delete_files, t.delete_files);
    EXPECT_EQ(p.report.skipped_data_files, 0);
    EXPECT_EQ(p.report.skipped_data_manifests + p.report.scanned_data_manifests,
              p.report.total_data_manifests);
    ++planned;
  }
  EXPECT_EQ(planned, static_cast<int>(tables.size()));
}

}  // namespace
}  // namespace floe
