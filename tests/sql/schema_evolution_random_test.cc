// Random schema evolution: seeded sequences of ADD / DROP / RENAME COLUMN, type promotions,
// reorders and nested struct changes, interleaved with INSERTs of random rows, run through a
// Session. After every step the table must read exactly the rows of a model kept here (a list
// of rows keyed by column identity, with the current names and order), so data written under
// any earlier schema reads right under the latest one. Steps the table must refuse (dropping
// the partition source, a promotion the spec does not allow) must fail and change nothing.
// The same changes then run in DuckDB (tests/oracle/sql_duckdb.mjs: its own ALTER TABLE on a
// plain table; reorders, which DuckDB lacks, are left to the column list of each SELECT), and
// every step's rows must equal DuckDB's too.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>

#include "floe/sql/session.h"
#include "floe/util/strings.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

using testing::run;

enum class Kind { kInt, kLong, kFloat, kDouble, kDec9, kDec12, kString, kStruct };

// DuckDB's spelling of a primitive kind.
const char* duck_type(Kind k) {
  switch (k) {
    case Kind::kInt:
      return "INTEGER";
    case Kind::kString:
      return "VARCHAR";
    default:
      break;
  }
  return nullptr;
}

const char* sql_type(Kind k) {
  switch (k) {
    case Kind::kInt:
      return "INT";
    case Kind::kLong:
      return "BIGINT";
    case Kind::kFloat:
      return "FLOAT";
    case Kind::kDouble:
      return "DOUBLE";
    case Kind::kDec9:
      return "DECIMAL(9,2)";
    case Kind::kDec12:
      return "DECIMAL(12,2)";
    case Kind::kString:
      return "STRING";
    case Kind::kStruct:
      return "STRUCT";
  }
  return "";
}

// The promotion Spark's ALTER COLUMN ... TYPE may make, if any.
std::optional<Kind> promoted(Kind k) {
  switch (k) {
    case Kind::kInt:
      return Kind::kLong;
    case Kind::kFloat:
      return Kind::kDouble;
    case Kind::kDec9:
      return Kind::kDec12;
    default:
      return std::nullopt;
  }
}

struct Column {
  int uid = 0;  // the model's identity of a column (a new one for every ADD)
  std::string name;
  Kind kind = Kind::kInt;
  std::vector<Column> children;  // kStruct
};

// A value as SQL writes it and as the JSON rows print it. Values are chosen so that both stay
// the same across promotions (quarters for floats, cents for decimals).
struct Value {
  std::string sql;  // the same literal in floe and DuckDB
  std::string json;
};

class Model {
 public:
  std::vector<Column> columns;
  std::vector<std::map<int, Value>> rows;  // by uid; a missing uid is NULL (also struct ones)
  int next_uid = 1;

  Column* find(const std::string& name) {
    for (auto& c : columns) {
      if (to_lower(c.name) == to_lower(name)) return &c;
    }
    return nullptr;
  }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& c : columns) out.push_back(c.name);
    return out;
  }

  std::vector<std::string> expected_rows() const {
    std::vector<std::string> out;
    for (const auto& row : rows) {
      std::vector<std::string> values;
      for (const auto& c : columns) values.push_back(render(c, row));
      out.push_back("[" + fmt::format("{}", fmt::join(values, ",")) + "]");
    }
    return out;
  }

 private:
  static std::string render(const Column& c, const std::map<int, Value>& row) {
    auto it = row.find(c.uid);
    if (it == row.end()) return "null";
    if (c.kind != Kind::kStruct) return it->second.json;
    std::vector<std::string> fields;
    for (const auto& child : c.children) {
      fields.push_back(fmt::format("\"{}\":{}", child.name, render(child, row)));
    }
    return "{" + fmt::format("{}", fmt::join(fields, ",")) + "}";
  }
};

class RandomEvolution {
 public:
  RandomEvolution(Session& session, uint32_t seed) : s_(session), rng_(seed) {}

  void run_steps(int steps) {
    ok("CREATE TABLE db.t (rid BIGINT, k INT, v STRING, s STRUCT<a: INT>) USING iceberg "
       "PARTITIONED BY (k)",
       "CREATE TABLE t (rid BIGINT, k INTEGER, v VARCHAR, s STRUCT(a INTEGER))");
    m_.columns = {column("rid", Kind::kLong), column("k", Kind::kInt), column("v", Kind::kString)};
    Column s = column("s", Kind::kStruct);
    s.children.push_back(column("a", Kind::kInt));
    m_.columns.push_back(s);
    insert();
    for (int step = 0; step < steps && !::testing::Test::HasFailure(); ++step) {
      one_step();
      check(step);
    }
  }

  // Runs the DuckDB script and compares each step's rows with the table's.
  void compare_with_duckdb(const std::filesystem::path& dir) {
    if (::testing::Test::HasFailure()) return;
    nlohmann::json script = duck_;
    std::ofstream(dir / "duck.json") << script.dump();
    int rc = 0;
    std::string out = test_support::run_command(
        "cd " + test_support::shell_quote(FLOE_SOURCE_DIR "/tests/oracle") +
            " && node sql_duckdb.mjs " + test_support::shell_quote((dir / "duck.json").string()) +
            " 2>&1",
        &rc);
    ASSERT_EQ(rc, 0) << out;
    std::map<size_t, std::vector<std::string>> rows;
    std::istringstream in(out);
    std::string line;
    size_t current = 0;
    while (std::getline(in, line)) {
      if (line.rfind("##Q ", 0) == 0) {
        current = std::stoul(line.substr(4));
        rows[current];
      } else if (line.rfind("##ERROR ", 0) == 0) {
        FAIL() << "DuckDB: " << duck_[current] << ": " << line.substr(8) << "\n" << history();
      } else if (line.rfind("##END", 0) != 0 && !line.empty()) {
        rows[current].push_back(line);
      }
    }
    ASSERT_FALSE(selects_.empty());
    for (const auto& [index, floe_rows] : selects_) {
      // Only the SELECTs are compared (DuckDB's INSERT prints its row count).
      EXPECT_EQ(rows[index], floe_rows) << duck_[index] << "\n" << history();
    }
  }

 private:
  Column column(const std::string& name, Kind kind) {
    Column c;
    c.uid = m_.next_uid++;
    c.name = name;
    c.kind = kind;
    return c;
  }

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

  // Runs `sql` in floe, and `duck` (if any) later in DuckDB.
  void ok(const std::string& sql, const std::string& duck = "") {
    if (!duck.empty()) duck_.push_back(duck);
    log_.push_back(sql);
    auto r = run(s_, sql);
    ASSERT_TRUE(r.ok()) << sql << "\n" << r.status().to_string() << "\n" << history();
  }
  void refused(const std::string& sql, const std::string& message_part) {
    log_.push_back(sql + "  -- refused");
    auto r = run(s_, sql);
    ASSERT_FALSE(r.ok()) << sql << "\n" << history();
    EXPECT_NE(r.status().message().find(message_part), std::string::npos)
        << r.status().message() << "\n"
        << history();
  }
  std::string history() const { return "steps:\n  " + fmt::format("{}", fmt::join(log_, ";\n  ")); }

  Value value(Kind kind) {
    switch (kind) {
      case Kind::kInt: {
        int64_t v = chance(0.1) ? (chance(0.5) ? 2147483647 : -2147483648LL) : pick(2001) - 1000;
        return {std::to_string(v), std::to_string(v)};
      }
      case Kind::kLong: {
        int64_t v = (static_cast<int64_t>(pick(2000000)) - 1000000) * 9000001;
        return {std::to_string(v), std::to_string(v)};
      }
      case Kind::kFloat:
      case Kind::kDouble: {
        int q = 2 * (pick(801) - 400) + 1;  // odd quarters: exact in float, never whole
        std::string text = fmt::format("{}", q / 4.0);
        return {text, text};
      }
      case Kind::kDec9:
      case Kind::kDec12: {
        int64_t cents = static_cast<int64_t>(pick(2000000)) * 499 - 499000000;
        std::string text = fmt::format("{}{}.{:02d}", cents < 0 ? "-" : "", std::abs(cents) / 100,
                                       static_cast<int>(std::abs(cents) % 100));
        return {text, "\"" + text + "\""};
      }
      case Kind::kString: {
        std::string text;
        for (int i = pick(6); i >= 0; --i) text += static_cast<char>('a' + pick(26));
        return {"'" + text + "'", "\"" + text + "\""};
      }
      case Kind::kStruct:
        break;
    }
    return {"NULL", "null"};
  }

  // A row's SQL for `c` in floe and in DuckDB (NULL 20% of the time), recording its value in
  // `row`.
  std::pair<std::string, std::string> value_sql(const Column& c, std::map<int, Value>& row) {
    if (c.name != "rid" && chance(0.2)) return {"NULL", "NULL"};
    if (c.kind == Kind::kStruct) {
      std::vector<std::string> parts, duck;
      for (const auto& child : c.children) {
        auto [v, d] = value_sql(child, row);
        parts.push_back("'" + child.name + "', " + v);
        duck.push_back("'" + child.name + "': " + d);
      }
      row[c.uid] = {"", ""};
      return {"named_struct(" + fmt::format("{}", fmt::join(parts, ", ")) + ")",
              "{" + fmt::format("{}", fmt::join(duck, ", ")) + "}"};
    }
    Value v = value(c.kind);
    row[c.uid] = v;
    return {v.sql, v.sql};
  }

  void insert() {
    int n = 1 + pick(3);
    std::vector<std::string> tuples, duck_tuples;
    std::vector<std::map<int, Value>> rows;
    for (int i = 0; i < n; ++i) {
      std::map<int, Value> row;
      std::vector<std::string> values, duck;
      for (const auto& c : m_.columns) {
        if (c.name == "rid") {
          row[c.uid] = {std::to_string(next_rid_), std::to_string(next_rid_)};
          values.push_back(std::to_string(next_rid_));
          duck.push_back(std::to_string(next_rid_++));
        } else {
          auto [v, d] = value_sql(c, row);
          values.push_back(v);
          duck.push_back(d);
        }
      }
      tuples.push_back("(" + fmt::format("{}", fmt::join(values, ", ")) + ")");
      duck_tuples.push_back("(" + fmt::format("{}", fmt::join(duck, ", ")) + ")");
      rows.push_back(std::move(row));
    }
    // DuckDB's columns keep their order of addition: name them.
    ok("INSERT INTO db.t VALUES " + fmt::format("{}", fmt::join(tuples, ", ")),
       "INSERT INTO t (" + column_list() + ") VALUES " +
           fmt::format("{}", fmt::join(duck_tuples, ", ")));
    for (auto& r : rows) m_.rows.push_back(std::move(r));
  }

  std::string column_list() const {
    std::vector<std::string> names;
    for (const auto& c : m_.columns) names.push_back("\"" + c.name + "\"");
    return fmt::format("{}", fmt::join(names, ", "));
  }

  // A name from a small pool (a few more names than are taken), so that dropped names come
  // back as new columns.
  std::string free_name(const std::vector<Column>& taken, const char* prefix) {
    const int pool = static_cast<int>(taken.size()) + 3;
    while (true) {
      std::string name = fmt::format("{}{}", prefix, pick(pool));
      if (chance(0.3)) name = to_upper(name);
      bool used = false;
      for (const auto& c : taken) used = used || to_lower(c.name) == to_lower(name);
      if (!used) return name;
    }
  }

  Kind random_kind(bool allow_struct) {
    int n = allow_struct ? 8 : 7;
    return static_cast<Kind>(pick(n));
  }

  Column* random_column(bool include_rid = false) {
    std::vector<Column*> out;
    for (auto& c : m_.columns) {
      if (include_rid || c.name != "rid") out.push_back(&c);
    }
    return out.empty() ? nullptr : out[static_cast<size_t>(pick(static_cast<int>(out.size())))];
  }

  Column* struct_column() {
    std::vector<Column*> out;
    for (auto& c : m_.columns) {
      if (c.kind == Kind::kStruct) out.push_back(&c);
    }
    return out.empty() ? nullptr : out[static_cast<size_t>(pick(static_cast<int>(out.size())))];
  }

  static std::string primitive_sql(Kind k, bool duck) {
    const char* d = duck ? duck_type(k) : nullptr;
    return d ? d : sql_type(k);
  }
  static std::string type_sql(const Column& c, bool duck = false) {
    if (c.kind != Kind::kStruct) return primitive_sql(c.kind, duck);
    std::vector<std::string> fields;
    for (const auto& child : c.children) {
      fields.push_back(child.name + (duck ? " " : ": ") + primitive_sql(child.kind, duck));
    }
    const std::string list = fmt::format("{}", fmt::join(fields, ", "));
    return duck ? "STRUCT(" + list + ")" : "STRUCT<" + list + ">";
  }

  void add_column() {
    Column c = column(free_name(m_.columns, "c"), random_kind(true));
    if (c.kind == Kind::kStruct) {
      for (int i = pick(2); i >= 0; --i) {
        c.children.push_back(column(free_name(c.children, "x"), random_kind(false)));
      }
    }
    std::string sql = fmt::format("ALTER TABLE db.t ADD COLUMN {} {}", c.name, type_sql(c));
    std::string duck = fmt::format("ALTER TABLE t ADD COLUMN {} {}", c.name, type_sql(c, true));
    int where = pick(3);
    if (where == 0) {
      ok(sql, duck);
      m_.columns.push_back(c);
    } else if (where == 1) {
      ok(sql + " FIRST", duck);
      m_.columns.insert(m_.columns.begin(), c);
    } else {
      Column* after = random_column(true);
      std::string after_name = after->name;
      ok(sql + " AFTER " + after_name, duck);
      auto it = std::find_if(m_.columns.begin(), m_.columns.end(),
                             [&](const Column& x) { return x.name == after_name; });
      m_.columns.insert(it + 1, c);
    }
  }

  void drop_column() {
    Column* c = random_column();
    if (!c) return;
    if (c->uid == 2) {  // k, the partition source
      refused("ALTER TABLE db.t DROP COLUMN " + c->name, "source of partition field 'k'");
      return;
    }
    std::string name = c->name;
    ok("ALTER TABLE db.t DROP COLUMN " + (chance(0.3) ? to_upper(name) : name),
       "ALTER TABLE t DROP COLUMN " + name);
    std::erase_if(m_.columns, [&](const Column& x) { return x.name == name; });
  }

  void rename_column() {
    Column* c = random_column();
    if (!c) return;
    std::string to = free_name(m_.columns, "c");
    ok(fmt::format("ALTER TABLE db.t RENAME COLUMN {} TO {}", c->name, to),
       fmt::format("ALTER TABLE t RENAME COLUMN {} TO {}", c->name, to));
    c->name = to;
  }

  void promote_column() {
    std::vector<Column*> candidates;
    for (auto& c : m_.columns) {
      if (promoted(c.kind)) candidates.push_back(&c);
    }
    if (candidates.empty()) return;
    Column* c = candidates[static_cast<size_t>(pick(static_cast<int>(candidates.size())))];
    Kind to = *promoted(c->kind);
    ok(fmt::format("ALTER TABLE db.t ALTER COLUMN {} TYPE {}", c->name, sql_type(to)),
       fmt::format("ALTER TABLE t ALTER COLUMN {} TYPE {}", c->name, sql_type(to)));
    c->kind = to;
  }

  void refused_promotion() {
    Column* c = random_column();
    if (!c || c->kind == Kind::kStruct) return;
    // A narrowing or a change of kind: never a promotion the spec allows.
    const char* to = c->kind == Kind::kString ? "INT" : "STRING";
    refused(fmt::format("ALTER TABLE db.t ALTER COLUMN {} TYPE {}", c->name, to),
            "Cannot change column type");
  }

  void move_column() {
    Column* c = random_column(true);
    std::string name = c->name;
    auto at = [&](const std::string& n) {
      return std::find_if(m_.columns.begin(), m_.columns.end(),
                          [&](const Column& x) { return x.name == n; });
    };
    if (chance(0.4)) {
      ok(fmt::format("ALTER TABLE db.t ALTER COLUMN {} FIRST", name));
      Column moved = *at(name);
      m_.columns.erase(at(name));
      m_.columns.insert(m_.columns.begin(), moved);
      return;
    }
    Column* after = random_column(true);
    if (after->name == name) return;
    std::string after_name = after->name;
    ok(fmt::format("ALTER TABLE db.t ALTER COLUMN {} AFTER {}", name, after_name));
    Column moved = *at(name);
    m_.columns.erase(at(name));
    m_.columns.insert(at(after_name) + 1, moved);
  }

  void nested_change() {
    Column* s = struct_column();
    if (!s) return add_column();
    int what = pick(3);
    if (what == 0 || s->children.size() < 2) {
      Column c = column(free_name(s->children, "x"), random_kind(false));
      ok(fmt::format("ALTER TABLE db.t ADD COLUMN {}.{} {}", s->name, c.name, sql_type(c.kind)),
         fmt::format("ALTER TABLE t ADD COLUMN {}.{} {}", s->name, c.name,
                     primitive_sql(c.kind, true)));
      s->children.push_back(c);
    } else if (what == 1) {
      size_t i = static_cast<size_t>(pick(static_cast<int>(s->children.size())));
      ok(fmt::format("ALTER TABLE db.t DROP COLUMN {}.{}", s->name, s->children[i].name),
         fmt::format("ALTER TABLE t DROP COLUMN {}.{}", s->name, s->children[i].name));
      s->children.erase(s->children.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      size_t i = static_cast<size_t>(pick(static_cast<int>(s->children.size())));
      std::string to = free_name(s->children, "x");
      ok(fmt::format("ALTER TABLE db.t RENAME COLUMN {}.{} TO {}", s->name, s->children[i].name,
                     to),
         fmt::format("ALTER TABLE t RENAME COLUMN {}.{} TO {}", s->name, s->children[i].name, to));
      s->children[i].name = to;
    }
  }

  void one_step() {
    int op = pick(20);
    if (op < 6) return insert();
    if (op < 9) return add_column();
    if (op < 11) return drop_column();
    if (op < 13) return rename_column();
    if (op < 15) return promote_column();
    if (op < 16) return refused_promotion();
    if (op < 18) return move_column();
    return nested_change();
  }

  void check(int step) {
    auto out = run(s_, "SELECT * FROM db.t ORDER BY rid");
    ASSERT_TRUE(out.ok()) << out.status().to_string() << "\n" << history();
    ASSERT_EQ(out->columns, m_.names()) << "after step " << step << "\n" << history();
    ASSERT_EQ(out->rows, m_.expected_rows()) << "after step " << step << "\n" << history();
    selects_.emplace_back(duck_.size(), out->rows);
    duck_.push_back("SELECT " + column_list() + " FROM t ORDER BY rid");
  }

  Session& s_;
  std::mt19937 rng_;
  Model m_;
  int64_t next_rid_ = 1;
  std::vector<std::string> log_;
  std::vector<std::string> duck_;                                     // the DuckDB script
  std::vector<std::pair<size_t, std::vector<std::string>>> selects_;  // script index, floe rows
};

class SchemaEvolutionRandom : public ::testing::TestWithParam<uint32_t> {};

TEST_P(SchemaEvolutionRandom, TableReadsLikeTheModelAfterEveryStep) {
  floe::test_support::TempDir dir{"floe-schema-random"};
  SessionOptions o;
  o.warehouse = dir.str();
  Session session(o);
  ASSERT_TRUE(run(session, "CREATE NAMESPACE db").ok());
  RandomEvolution evolution(session, GetParam());
  evolution.run_steps(30);
  evolution.compare_with_duckdb(dir.path);
}

INSTANTIATE_TEST_SUITE_P(Seeds, SchemaEvolutionRandom, ::testing::Values(1u, 2u, 3u, 4u, 5u));

}  // namespace
}  // namespace floe::sql
