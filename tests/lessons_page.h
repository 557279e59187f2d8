// docs/lessons.md as data, for the tests that keep it honest (tests/sql/lessons_test.cc runs its
// statements, tests/integration/cli_demo_test.cc compares `floe demo` with them): its steps
// (### <id>. headings) and the statements of each step's ```sql blocks, in order.
#pragma once

#include <fstream>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

namespace floe::test_support {

struct LessonStep {
  std::string id;                       // "A1", "B4", ...
  std::vector<std::string> statements;  // without their ';'
};

// A statement ends with a line ending in ';'. Throws when the page is missing or malformed.
inline std::vector<LessonStep> read_lessons_page() {
  std::ifstream in(std::string(FLOE_SOURCE_DIR) + "/docs/lessons.md");
  if (!in) throw std::runtime_error("docs/lessons.md not found");
  std::vector<LessonStep> steps;
  const std::regex heading(R"(^### ([A-C][0-9]+)\. )");
  bool in_sql = false;
  std::string statement;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!in_sql && std::regex_search(line, m, heading)) {
      steps.push_back({m[1], {}});
    } else if (line.starts_with("```")) {
      if (!statement.empty()) throw std::runtime_error("statement without ';': " + statement);
      in_sql = !in_sql && line == "```sql";
    } else if (in_sql) {
      if (steps.empty()) throw std::runtime_error("a sql block before the first step: " + line);
      statement += (statement.empty() ? "" : "\n") + line;
      if (line.ends_with(";")) {
        steps.back().statements.push_back(statement.substr(0, statement.size() - 1));
        statement.clear();
      }
    }
  }
  return steps;
}

}  // namespace floe::test_support
