// Running SQL through a Session in tests: rows as JSON arrays, column names, messages, EXPLAIN
// text and scan reports.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "floe/sql/session.h"
#include "floe/table/table.h"
#include "test_support.h"

namespace floe::sql::testing {

struct Output {
  std::vector<std::string> columns;
  std::vector<std::string> rows;  // JSON arrays
  std::string explain;
  std::vector<ScanReport> reports;
  std::vector<std::string> messages;
};

inline Result<Output> run(Session& session, const std::string& sql) {
  Output out;
  ResultSink sink;
  sink.begin = [&](const std::vector<NestedField>& fields) {
    out.columns.clear();
    for (const auto& f : fields) out.columns.push_back(f.name);
  };
  sink.rows = [&](const ColumnBatch& b) {
    JsonOptions o;
    o.rows_as_arrays = true;
    o.tz_suffix = false;
    for (int64_t r = 0; r < b.num_rows; ++r) {
      std::string line;
      write_row_json(b, r, o, &line);
      out.rows.push_back(line);
    }
    return Status::OK();
  };
  sink.explain = [&](const std::string& text, const std::vector<ScanReport>& reports) {
    out.explain = text;
    out.reports = reports;
  };
  sink.message = [&](const std::string& m) { out.messages.push_back(m); };
  FLOE_TRY(session.run(sql, sink));
  return out;
}

inline Output must(Session& session, const std::string& sql) {
  auto r = run(session, sql);
  EXPECT_TRUE(r.ok()) << sql << "\n" << r.status().to_string();
  return r.ok() ? *r : Output{};
}

inline std::string error_of(Session& session, const std::string& sql) {
  auto r = run(session, sql);
  EXPECT_FALSE(r.ok()) << sql;
  return r.ok() ? "" : r.status().message();
}

inline std::vector<std::string> rows(Session& s, const std::string& sql) {
  return must(s, sql).rows;
}

// Table `db.<name>` of the embedded SQLite catalog a Session over `warehouse` writes to, loaded
// through the library (to inspect metadata or run library actions beside SQL).
inline std::shared_ptr<Table> load_table(const std::string& warehouse, const std::string& name) {
  CatalogOptions o;
  o.warehouse = warehouse;
  auto catalog = open_catalog("sqlite:" + warehouse + "/catalog.db", o);
  EXPECT_TRUE(catalog.ok()) << catalog.status().to_string();
  if (!catalog.ok()) return nullptr;
  auto t = Table::load(*catalog, TableIdentifier{{"db"}, name});
  EXPECT_TRUE(t.ok()) << t.status().to_string();
  return t.ok() ? *t : nullptr;
}

// A fixture: a fresh warehouse holding namespace `db`, and a Session over it (`s()`); `table()`
// loads `db.t` (or `db.<name>`) through the library.
class WarehouseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session_ = std::make_unique<Session>(options());
    must(s(), "CREATE NAMESPACE db");
  }
  // The options of the fixture's Session (a test opens another Session over the same warehouse
  // with them).
  SessionOptions options() const {
    SessionOptions o;
    o.warehouse = dir_.str();
    return o;
  }
  Session& s() { return *session_; }
  std::shared_ptr<Table> table(const std::string& name = "t") {
    return load_table(dir_.str(), name);
  }

  floe::test_support::TempDir dir_{"floe-sql-test"};
  std::unique_ptr<Session> session_;
};

}  // namespace floe::sql::testing
