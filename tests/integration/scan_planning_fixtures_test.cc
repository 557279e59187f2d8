// Scan planning on every full fixture table: the current snapshot plans exactly the live data
// files and delete files the fixture README lists (README.md of ../shared/fixtures, which also
// holds the attribution of these tables).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "floe/io/relocating_file_io.h"
#include "floe/scan/table_scan.h"
#include "floe/spec/metadata_file.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
const fs::path kFixtures = FLOE_FIXTURES_DIR;

struct FixtureTable {
  std::string name;
  std::string metadata;  // relative to the table dir
  int64_t data_files = -1;
  int64_t delete_files = 0;
};

std::vector<FixtureTable> readme_tables() {
  std::ifstream in(kFixtures / "README.md");
  std::string line;
  std::vector<FixtureTable> out;
  std::regex header(R"(^#### `([^`]+)`)");
  std::regex metadata(R"(current metadata `([^`]+)`)");
  std::regex files(R"(\*\*Current snapshot files\*\*: (\d+) data file\(s\).*; deletes: ([^;]*);)");
  std::regex count(R"((\d+) (position-delete file|equality-delete file|deletion-vector blob))");
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, header)) {
      out.push_back({m[1], "", -1, 0});
    } else if (!out.empty() && std::regex_search(line, m, metadata)) {
      out.back().metadata = m[1];
    } else if (!out.empty() && std::regex_search(line, m, files)) {
      out.back().data_files = std::stoll(m[1]);
      std::string deletes = m[2];
      for (std::sregex_iterator it(deletes.begin(), deletes.end(), count), end; it != end; ++it) {
        out.back().delete_files += std::stoll((*it)[1]);
      }
    }
  }
  std::vector<FixtureTable> full;
  for (auto& t : out) {
    if (t.data_files >= 0 && !t.metadata.empty()) full.push_back(std::move(t));
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
