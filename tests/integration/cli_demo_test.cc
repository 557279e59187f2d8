// End-to-end: `floe demo` through the built binary, on small data. It runs the statements of
// docs/lessons.md in the page's order (numbers aside: --rows scales them) and prints their
// results, the doctor, CDC and read-cost steps; --lesson runs one lesson, --keep keeps its
// warehouse; bad options are one clear error.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "integration/cli_runner.h"
#include "lessons_page.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using floe_test::run_floe;

// Numbers as '#' and any run of whitespace as one space: the demo's data size changes the
// numbers of its statements, and the page wraps long statements.
std::string normalize(const std::string& sql) {
  std::string s = std::regex_replace(sql, std::regex("[0-9]+"), "#");
  s = std::regex_replace(s, std::regex("\\s+"), " ");
  return s;
}

// The statements the demo printed: "floe> " lines and their continuation lines.
std::vector<std::string> demo_statements(const std::string& out) {
  std::vector<std::string> statements;
  std::string current;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (current.empty() && line.starts_with("floe> ")) {
      current = line.substr(6);
    } else if (!current.empty()) {
      current += "\n" + line;
    } else {
      continue;
    }
    if (current.ends_with(";")) {
      statements.push_back(normalize(current.substr(0, current.size() - 1)));
      current.clear();
    }
  }
  return statements;
}

std::vector<std::string> page_statements(const std::string& lessons) {
  std::vector<std::string> out;
  for (const auto& step : floe::test_support::read_lessons_page()) {
    if (lessons.find(step.id[0]) == std::string::npos) continue;
    for (const auto& s : step.statements) out.push_back(normalize(s));
  }
  return out;
}

std::vector<fs::path> demo_dirs(const fs::path& warehouse) {
  std::vector<fs::path> out;
  if (!fs::exists(warehouse)) return out;
  for (const auto& e : fs::directory_iterator(warehouse)) {
    if (e.path().filename().string().starts_with("floe-demo-")) out.push_back(e.path());
  }
  return out;
}

class CliDemo : public ::testing::Test {
 protected:
  std::string warehouse() const { return dir_.str() + "/wh"; }
  floe::test_support::TempDir dir_{"floe-cli-demo"};
};

TEST_F(CliDemo, RunsTheStatementsOfTheLessonsPage) {
  auto r = run_floe("--warehouse " + warehouse() + " demo --rows 10000");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto printed = demo_statements(r.out);
  const auto page = page_statements("ABC");
  ASSERT_FALSE(page.empty());
  EXPECT_EQ(printed.size(), page.size());
  for (size_t i = 0; i < std::min(printed.size(), page.size()); ++i) {
    ASSERT_EQ(printed[i], page[i]) << "statement " << i + 1 << " of the demo";
  }
  for (const char* text :
       {"Lesson A:", "Lesson B:", "Lesson C:", "Manifests skipped (pruned):               12",
        "$ floe --warehouse $WH doctor lakehouse.analytics.sales", "(exit code 1)", "(exit code 0)",
        "$ floe --warehouse $WH cdc lakehouse.analytics.orders", "(1 upserts, 1 deletes)",
        "read cost (median of 7 runs)", "Error: cannot resolve column 'spec_id'",
        "partition spec of analytics.logs is now spec 2: event_ts_hour = hour(event_ts) [1001]",
        "Error: Cannot drop column 'event_ts'", "floe demo finished in"}) {
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
  }
  // Paths print under $WH (the directory is named once, on the WH= line); it is gone after.
  const size_t named = r.out.find("\nWH=" + warehouse() + "/floe-demo-");
  ASSERT_NE(named, std::string::npos) << r.out.substr(0, 200);
  EXPECT_EQ(r.out.find(warehouse() + "/floe-demo-", named + 5), std::string::npos);
  EXPECT_TRUE(demo_dirs(warehouse()).empty());
}

TEST_F(CliDemo, RunsOneLessonAndKeepsItsTables) {
  auto r = run_floe("--warehouse " + warehouse() + " demo --rows 10000 --lesson c --keep");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(demo_statements(r.out), page_statements("C"));
  EXPECT_EQ(r.out.find("Lesson A:"), std::string::npos);
  auto dirs = demo_dirs(warehouse());
  ASSERT_EQ(dirs.size(), 1u);
  auto q = run_floe("--warehouse " + dirs[0].string() +
                    " --format csv sql \"SELECT count(*) AS n FROM lakehouse.sensors.readings\"");
  ASSERT_EQ(q.exit_code, 0) << q.out;
  EXPECT_EQ(q.out, "n\n3000\n");
}

TEST_F(CliDemo, RejectsBadOptions) {
  auto r = run_floe("--warehouse " + warehouse() + " demo --lesson d");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find("--lesson"), std::string::npos) << r.out;
  r = run_floe("--warehouse " + warehouse() + " demo --rows 5");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find("--rows must be at least 10000"), std::string::npos) << r.out;
  EXPECT_TRUE(demo_dirs(warehouse()).empty());
}

}  // namespace
