// `floe demo` shared pieces: the Demo runner that prints each lesson statement and what floe
// answers (demo.cc), and the three lessons (demo_lesson_a.cc, demo_lesson_b.cc,
// demo_lesson_c.cc). docs/lessons.md holds the same statements with their output.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_internal.h"
#include "floe/sql/session.h"
#include "floe/table/table.h"
#include "floe/util/result.h"

namespace floe::cli::demo {

class Demo {
 public:
  // `warehouse`: a fresh directory; `rows` scales the data (docs/cli.md, floe demo).
  Demo(std::string warehouse, int64_t rows, std::ostream& out);
  ~Demo();

  std::ostream& out() { return out_; }
  const std::string& warehouse() const { return warehouse_; }
  int64_t rows() const { return rows_; }

  void lesson(const std::string& title);
  void step(const std::string& title);
  // Text printed as a comment between statements, wrapped at 96 columns.
  void note(const std::string& text);

  // Prints "floe> statement;" and what floe prints for it (at most `max_rows` rows). A failing
  // statement stops the demo.
  Status sql(const std::string& statement, int64_t max_rows = 12);
  // The same in the session whose catalog is named `prod` (lesson B's configuration).
  Status sql_prod(const std::string& statement);
  // A statement the lesson shows failing: prints its error; succeeding is an error.
  Status sql_error(const std::string& statement);
  // Prints "floe> EXPLAIN query;" and each scan's funnel on one line (the ScanStatistics of
  // EXPLAIN, condensed).
  Status explain(const std::string& query);
  // Prints "$ floe doctor TABLE" and runs it (the exit code it would have is printed, not an
  // error).
  Status doctor(const std::string& table);
  // Prints "$ floe cdc TABLE --key K ... FILE" and runs it.
  Status cdc(const std::string& table, const std::vector<std::string>& keys,
             const std::string& file);
  // Prints "$ floe inspect $WH/<table_dir>" and the partition specs section of its report.
  Status inspect_specs(const std::string& table_dir);
  // Runs a query without printing it: its rows, each cell as `floe sql` shows it.
  Result<std::vector<std::vector<std::string>>> query(const std::string& query);
  // Median wall time of `runs` runs of a query, in milliseconds.
  Result<double> time_ms(const std::string& query, int runs = 5);
  // A table of the demo catalog by its SQL name.
  Result<std::shared_ptr<Table>> table(const std::string& name);
  // Paths under the warehouse as $WH/...
  std::string shorten(std::string text) const;

 private:
  GlobalOptions cli_options() const;
  Status run(sql::Session& session, const std::string& statement, int64_t max_rows,
             bool expect_error);

  std::string warehouse_;
  int64_t rows_;
  std::ostream& out_;
  std::unique_ptr<sql::Session> session_;
  std::unique_ptr<sql::Session> prod_;
};

Status lesson_a(Demo& demo);
Status lesson_b(Demo& demo);
Status lesson_c(Demo& demo);

}  // namespace floe::cli::demo
