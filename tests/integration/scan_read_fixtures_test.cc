// Reading every full fixture table end to end (plan, Parquet, deletes): the current snapshot's
// live row count equals the count the fixture README computed independently. Tables with ORC
// or Avro data files fail with a clear "not supported" error; the deliberately malformed ones
// fail with a clear error naming the problem. (Attribution: ../shared/fixtures/README.md.)
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "floe/read/task_reader.h"
#include "floe/spec/metadata_file.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
const fs::path kFixtures = FLOE_FIXTURES_DIR;

struct Expected {
  std::string name;
  std::string metadata;
  std::string formats;  // "formats of all live files" text
  int64_t rows = -1;
  std::string note;
};

std::vector<Expected> readme_counts() {
  std::ifstream in(kFixtures / "README.md");
  std::string line;
  std::vector<Expected> out;
  std::regex header(R"(^#### `([^`]+)`)");
  std::regex metadata(R"(current metadata `([^`]+)`)");
  std::regex formats(R"(formats of all live files: ([^)]*)\))");
  std::regex count(R"(\*\*Computed live row count\*\*[^:]*: (\d+) )");
  std::regex not_computed(R"(\*\*Computed live row count\*\*: not computed \((.*)\)$)");
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, header)) {
      out.push_back({m[1], "", "", -1, ""});
    } else if (out.empty()) {
      continue;
    } else if (std::regex_search(line, m, metadata)) {
      out.back().metadata = m[1];
      if (std::regex_search(line, m, formats)) out.back().formats = m[1];
    } else if (std::regex_search(line, m, formats)) {
      out.back().formats = m[1];
    } else if (std::regex_search(line, m, count)) {
      out.back().rows = std::stoll(m[1]);
    } else if (std::regex_search(line, m, not_computed)) {
      out.back().note = m[1];
    }
  }
  std::vector<Expected> full;
  for (auto& e : out) {
    if (!e.metadata.empty() && (e.rows >= 0 || !e.note.empty())) full.push_back(std::move(e));
  }
  return full;
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
