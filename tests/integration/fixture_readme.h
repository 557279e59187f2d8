// The per-table facts of the fixtures' README (FLOE_FIXTURES_DIR/README.md, read as data; it
// also holds the fixtures' attribution), parsed once for the interoperability tests: current
// metadata file, live file counts, formats and the independently computed row count.
#pragma once

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace floe_test {

struct FixtureTable {
  std::string name;          // directory under fixtures/
  std::string metadata;      // current metadata file, relative to the table directory
  std::string formats;       // "formats of all live files" text, e.g. "PARQUET:2, PUFFIN:1"
  int64_t data_files = -1;   // live data files of the current snapshot; -1 if not listed
  int64_t delete_files = 0;  // live position/equality delete files and DV entries
  int64_t rows = -1;         // computed live row count; -1 if not computed
  std::string note;          // why the row count was not computed
};

inline std::vector<FixtureTable> readme_tables() {
  std::ifstream in(std::filesystem::path(FLOE_FIXTURES_DIR) / "README.md");
  std::string line;
  std::vector<FixtureTable> out;
  const std::regex header(R"(^#### `([^`]+)`)");
  const std::regex metadata(R"(current metadata `([^`]+)`)");
  const std::regex files(
      R"(\*\*Current snapshot files\*\*: (\d+) data file\(s\).*; deletes: ([^;]*);)");
  const std::regex formats(R"(formats of all live files: ([^)]*)\))");
  const std::regex count(
      R"((\d+) (position-delete file|equality-delete file|deletion-vector blob))");
  const std::regex rows(R"(\*\*Computed live row count\*\*[^:]*: (\d+) )");
  const std::regex not_computed(R"(\*\*Computed live row count\*\*: not computed \((.*)\)$)");
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, header)) {
      out.push_back({m[1], "", "", -1, 0, -1, ""});
      continue;
    }
    if (out.empty()) continue;
    FixtureTable& t = out.back();
    if (std::regex_search(line, m, metadata)) t.metadata = m[1];
    if (std::regex_search(line, m, formats)) t.formats = m[1];
    if (std::regex_search(line, m, files)) {
      t.data_files = std::stoll(m[1]);
      std::string deletes = m[2];
      for (std::sregex_iterator it(deletes.begin(), deletes.end(), count), end; it != end; ++it) {
        t.delete_files += std::stoll((*it)[1]);
      }
    }
    if (std::regex_search(line, m, rows)) t.rows = std::stoll(m[1]);
    if (std::regex_search(line, m, not_computed)) t.note = m[1];
  }
  std::vector<FixtureTable> full;
  for (auto& t : out) {
    if (!t.metadata.empty()) full.push_back(std::move(t));
  }
  return full;
}

}  // namespace floe_test
