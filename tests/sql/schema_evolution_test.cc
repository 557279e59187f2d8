// ALTER TABLE column actions through a Session (src/sql/statements/schema_evolution.cc): every
// form, then INSERT and SELECT across files written before and after (added columns read
// NULL or their initial default, renamed columns read by id, promoted columns read old files,
// dropped columns are gone, a re-added name is a new column), DESCRIBE / SHOW CREATE TABLE,
// and the errors for bad input.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "floe/catalog/catalog.h"
#include "floe/sql/session.h"
#include "floe/table/table.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

using testing::error_of;
using testing::must;
using testing::rows;

using Rows = std::vector<std::string>;

class SchemaEvolution : public ::testing::Test {
 protected:
  void SetUp() override {
    SessionOptions o;
    o.warehouse = dir_.str();
    session_ = std::make_unique<Session>(o);
    must(s(), "CREATE NAMESPACE db");
  }
  Session& s() { return *session_; }

  std::shared_ptr<Table> table() { return testing::load_table(dir_.str(), "t"); }
  // The message an ALTER prints.
  std::string say(const std::string& sql) {
    auto out = must(s(), sql);
    return out.messages.empty() ? "" : out.messages.back();
  }
  std::vector<std::string> columns(const std::string& sql = "SELECT * FROM db.t") {
    return must(s(), sql).columns;
  }
  Rows all() { return rows(s(), "SELECT * FROM db.t ORDER BY id"); }
  int64_t snapshots() {
    return std::stoll(rows(s(), "SELECT count(*) FROM db.t.snapshots")[0].substr(1));
  }
  // DESCRIBE rows up to the partitioning section: [name, type, comment].
  Rows describe() {
    Rows out;
    for (const auto& r : rows(s(), "DESCRIBE db.t")) {
      if (r == R"(["","",""])") break;
      out.push_back(r);
    }
    return out;
  }

  floe::test_support::TempDir dir_{"floe-schema-evolution"};
  std::unique_ptr<Session> session_;
};

TEST_F(SchemaEvolution, AddColumnsReadNullForOldFilesAndValuesForNewOnes) {
  must(s(), "CREATE TABLE db.t (id BIGINT, name STRING) USING iceberg");
  must(s(), "INSERT INTO db.t VALUES (1, 'a'), (2, 'b')");
  EXPECT_EQ(say("ALTER TABLE db.t ADD COLUMN score INT COMMENT 'the score'"),
            "added column score to db.t");
  EXPECT_EQ(all(), (Rows{R"([1,"a",null])", R"([2,"b",null])"}));
  must(s(), "INSERT INTO db.t VALUES (3, 'c', 30)");
  EXPECT_EQ(all(), (Rows{R"([1,"a",null])", R"([2,"b",null])", R"([3,"c",30])"}));
  EXPECT_EQ(describe(), (Rows{R"(["id","bigint",""])", R"(["name","string",""])",
                              R"(["score","int","the score"])"}));
  // Several at once, at positions: one schema change.
  EXPECT_EQ(say("ALTER TABLE db.t ADD COLUMNS (a STRING FIRST, b DOUBLE AFTER id, c INT)"),
            "added columns a, b, c to db.t");
  EXPECT_EQ(columns(), (std::vector<std::string>{"a", "id", "b", "name", "score", "c"}));
  EXPECT_EQ(table()->metadata()->current_schema_id, 2);
  must(s(), "INSERT INTO db.t VALUES ('x', 4, 0.5, 'd', 40, 7)");
  EXPECT_EQ(all(), (Rows{R"([null,1,null,"a",null,null])", R"([null,2,null,"b",null,null])",
                         R"([null,3,null,"c",30,null])", R"(["x",4,0.5,"d",40,7])"}));
  // Spark's ADD COLUMN (singular) takes a list too, without parentheses.
  must(s(), "ALTER TABLE db.t ADD COLUMN d INT, e INT");
  EXPECT_EQ(columns().size(), 8u);
}

TEST_F(SchemaEvolution, AlterTableDoesNotCommitASnapshot) {
  must(s(), "CREATE TABLE db.t (id BIGINT, name STRING) USING iceberg");
  must(s(), "INSERT INTO db.t VALUES (1, 'a')");
  int64_t before = snapshots();
  must(s(), "ALTER TABLE db.t ADD COLUMN x INT");
  must(s(), "ALTER TABLE db.t RENAME COLUMN name TO label");
  must(s(), "ALTER TABLE db.t ALTER COLUMN x TYPE BIGINT");
  must(s(), "ALTER TABLE db.t DROP COLUMN x");
  EXPECT_EQ(snapshots(), before);
}

TEST_F(SchemaEvolution, NestedColumnsAddDropAndRename) {
  must(s(),
       "CREATE TABLE db.t (id BIGINT, p STRUCT<x: INT, y: STRING>, "
       "tags ARRAY<STRUCT<a: INT>>, m MAP<STRING, STRUCT<b: INT>>) USING iceberg");
  must(s(),
       "INSERT INTO db.t VALUES (1, named_struct('x', 1, 'y', 'one'), "
       "array(named_struct('a', 10)), map('k', named_struct('b', 100)))");
  EXPECT_EQ(say("ALTER TABLE db.t ADD COLUMNS (p.z BIGINT, tags.element.c STRING, m.value.d INT)"),
            "added columns p.z, tags.element.c, m.value.d to db.t");
  must(s(), "ALTER TABLE db.t ADD COLUMN p.w INT FIRST");
  must(s(), "ALTER TABLE db.t RENAME COLUMN p.x TO px");
  must(s(),
       "INSERT INTO db.t VALUES (2, named_struct('w', 0, 'px', 2, 'y', 'two', 'z', 20), "
       "array(named_struct('a', 20, 'c', 'c2')), map('k', named_struct('b', 200, 'd', 2)))");
  EXPECT_EQ(
      all(),
      (Rows{
          R"([1,{"w":null,"px":1,"y":"one","z":null},[{"a":10,"c":null}],{"k":{"b":100,"d":null}}])",
          R"([2,{"w":0,"px":2,"y":"two","z":20},[{"a":20,"c":"c2"}],{"k":{"b":200,"d":2}}])"}));
  EXPECT_EQ(say("ALTER TABLE db.t DROP COLUMNS p.y, tags.element.a"),
            "dropped columns p.y, tags.element.a from db.t");
  EXPECT_EQ(rows(s(), "SELECT p, tags FROM db.t ORDER BY id"),
            (Rows{R"([{"w":null,"px":1,"z":null},[{"c":null}]])",
                  R"([{"w":0,"px":2,"z":20},[{"c":"c2"}]])"}));
  EXPECT_EQ(rows(s(), "SELECT p.px FROM db.t ORDER BY id"), (Rows{"[1]", "[2]"}));
  must(s(), "ALTER TABLE db.t ALTER COLUMN p.z COMMENT 'zed'");
  auto show = rows(s(), "SHOW CREATE TABLE db.t")[0];
  EXPECT_NE(show.find("p STRUCT<w: INT, px: INT, z: BIGINT COMMENT 'zed'>,"), std::string::npos)
      << show;
  EXPECT_NE(show.find("tags ARRAY<STRUCT<c: STRING>>,"), std::string::npos) << show;
  EXPECT_NE(show.find("m MAP<STRING, STRUCT<b: INT, d: INT>>"), std::string::npos) << show;
}

TEST_F(SchemaEvolution, DropColumnsAndReAddAName) {
  must(s(), "CREATE TABLE db.t (id BIGINT, a STRING, b INT, c INT) USING iceberg");
  must(s(), "INSERT INTO db.t VALUES (1, 'x', 10, 100)");
  EXPECT_EQ(say("ALTER TABLE db.t DROP COLUMN b"), "dropped column b from db.t");
  EXPECT_EQ(all(), (Rows{R"([1,"x",100])"}));
  must(s(), "INSERT INTO db.t VALUES (2, 'y', 200)");
  EXPECT_EQ(say("ALTER TABLE db.t DROP COLUMNS IF EXISTS nope, C"), "dropped column c from db.t");
  EXPECT_EQ(say("ALTER TABLE db.t DROP COLUMN IF EXISTS nope"), "no columns dropped from db.t");
  EXPECT_EQ(all(), (Rows{R"([1,"x"])", R"([2,"y"])"}));
  // The same name again is a new column: the old files' b values stay hidden.
  must(s(), "ALTER TABLE db.t ADD COLUMN b INT");
  must(s(), "INSERT INTO db.t VALUES (3, 'z', 3)");
  EXPECT_EQ(all(), (Rows{R"([1,"x",null])", R"([2,"y",null])", R"([3,"z",3])"}));
  EXPECT_EQ(rows(s(), "SELECT id FROM db.t WHERE b IS NULL ORDER BY id"), (Rows{"[1]", "[2]"}));
  auto t = table();
  EXPECT_EQ(t->metadata()->schema()->find_field("b")->id, 5);
}

TEST_F(SchemaEvolution, RenamedColumnsReadByIdAndFilter) {
  must(s(), "CREATE TABLE db.t (id BIGINT, name STRING) USING iceberg PARTITIONED BY (name)");
  must(s(), "INSERT INTO db.t VALUES (1, 'a'), (2, 'b')");
  EXPECT_EQ(say("ALTER TABLE db.t RENAME COLUMN Name TO label"),
            "renamed column name of db.t to label");
  must(s(), "INSERT INTO db.t VALUES (3, 'c')");
  EXPECT_EQ(columns(), (std::vector<std::string>{"id", "label"}));
  EXPECT_EQ(all(), (Rows{R"([1,"a"])", R"([2,"b"])", R"([3,"c"])"}));
  EXPECT_EQ(rows(s(), "SELECT id FROM db.t WHERE label = 'b'"), (Rows{"[2]"}));
  // The partition spec follows the rename (it keeps the source id).
  auto show = rows(s(), "SHOW CREATE TABLE db.t")[0];
  EXPECT_NE(show.find("PARTITIONED BY (label)"), std::string::npos) << show;
  EXPECT_EQ(error_of(s(), "SELECT name FROM db.t").find("cannot resolve column 'name'"), 0u);
  // An old snapshot reads with the schema it was written with.
  auto t = table();
  int64_t first = t->metadata()->snapshots.front()->snapshot_id;
  EXPECT_EQ(columns(fmt::format("SELECT * FROM db.t VERSION AS OF {}", first)),
            (std::vector<std::string>{"id", "name"}));
}

TEST_F(SchemaEvolution, PromotedColumnsReadOldFiles) {
  must(s(),
       "CREATE TABLE db.t (id BIGINT, i INT, f FLOAT, d DECIMAL(9,2), k INT) USING iceberg "
       "PARTITIONED BY (k)");
  must(s(), "INSERT INTO db.t VALUES (1, 2147483647, 1.5, 1234567.89, 1), (2, -5, NULL, -0.01, 2)");
  EXPECT_EQ(say("ALTER TABLE db.t ALTER COLUMN i TYPE BIGINT"),
            "altered column i of db.t: type bigint");
  must(s(), "ALTER TABLE db.t ALTER COLUMN f TYPE DOUBLE");
  must(s(), "ALTER TABLE db.t ALTER COLUMN d TYPE DECIMAL(12,2)");
  must(s(), "ALTER TABLE db.t ALTER COLUMN k TYPE BIGINT");
  must(s(), "INSERT INTO db.t VALUES (3, 9000000000, 0.1, 9999999999.99, 5000000000)");
  EXPECT_EQ(describe(),
            (Rows{R"(["id","bigint",""])", R"(["i","bigint",""])", R"(["f","double",""])",
                  R"x(["d","decimal(12,2)",""])x", R"(["k","bigint",""])"}));
  EXPECT_EQ(all(), (Rows{R"([1,2147483647,1.5,"1234567.89",1])", R"([2,-5,null,"-0.01",2])",
                         R"([3,9000000000,0.1,"9999999999.99",5000000000])"}));
  // Filters on the promoted columns prune the old files by their int bounds and partition
  // values, and still find their rows.
  EXPECT_EQ(rows(s(), "SELECT id FROM db.t WHERE i > 2147483646 ORDER BY id"),
            (Rows{"[1]", "[3]"}));
  EXPECT_EQ(rows(s(), "SELECT id FROM db.t WHERE k = 2"), (Rows{"[2]"}));
  EXPECT_EQ(rows(s(), "SELECT id FROM db.t WHERE k > 3000000000"), (Rows{"[3]"}));
  EXPECT_EQ(rows(s(), "SELECT sum(i) FROM db.t"), (Rows{"[11147483642]"}));
}

TEST_F(SchemaEvolution, AlterColumnCommentPositionAndNullability) {
  must(s(), "CREATE TABLE db.t (id BIGINT NOT NULL, a INT, b STRING) USING iceberg");
  must(s(), "INSERT INTO db.t VALUES (1, 10, 'x')");
  EXPECT_EQ(say("ALTER TABLE db.t ALTER COLUMN b COMMENT 'bee' FIRST"),
            "altered column b of db.t: comment, position");
  EXPECT_EQ(describe(),
            (Rows{R"(["b","string","bee"])", R"(["id","bigint",""])", R"(["a","int",""])"}));
  must(s(), "ALTER TABLE db.t ALTER COLUMN b AFTER a");
  EXPECT_EQ(columns(), (std::vector<std::string>{"id", "a", "b"}));
  EXPECT_EQ(all(), (Rows{R"([1,10,"x"])"}));
  // Spark's CHANGE COLUMN spelling.
  must(s(), "ALTER TABLE db.t CHANGE COLUMN a FIRST");
  EXPECT_EQ(columns(), (std::vector<std::string>{"a", "id", "b"}));
  // Required -> optional is allowed; the other way is refused as Java refuses it.
  EXPECT_FALSE(error_of(s(), "INSERT INTO db.t VALUES (1, NULL, 'y')").empty());
  EXPECT_EQ(say("ALTER TABLE db.t ALTER COLUMN id DROP NOT NULL"),
            "altered column id of db.t: nullable");
  must(s(), "INSERT INTO db.t VALUES (2, NULL, 'y')");
  EXPECT_EQ(rows(s(), "SELECT a, id, b FROM db.t ORDER BY a"),
            (Rows{R"([2,null,"y"])", R"([10,1,"x"])"}));
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t ALTER COLUMN a SET NOT NULL"),
            "Cannot change column nullability: a: optional -> required");
  auto show = rows(s(), "SHOW CREATE TABLE db.t")[0];
  EXPECT_NE(show.find("b STRING COMMENT 'bee'"), std::string::npos) << show;
  EXPECT_NE(show.find("id BIGINT,"), std::string::npos) << show;
}

// v3 defaults: ADD COLUMN ... DEFAULT sets initial-default (what rows written before read) and
// write-default (what an INSERT that omits the column writes); SET DEFAULT changes only the
// write-default, DROP DEFAULT removes it. The value is stored as the column's type the way an
// INSERT stores it.
TEST_F(SchemaEvolution, SetAndDropDefaultsOnV3Tables) {
  must(s(),
       "CREATE TABLE db.t (id BIGINT, name STRING) USING iceberg "
       "TBLPROPERTIES ('format-version' = '3')");
  must(s(), "INSERT INTO db.t VALUES (1, 'a')");
  EXPECT_EQ(say("ALTER TABLE db.t ADD COLUMN score INT DEFAULT 3 + 4"),
            "added column score to db.t");
  // A copy of the current schema's field (the table and its metadata are loaded anew).
  auto field = [&](const std::string& name) {
    auto t = table();
    const NestedField* f = t->metadata()->schema()->find_field(name);
    EXPECT_NE(f, nullptr) << name;
    return f ? *f : NestedField{};
  };
  NestedField score = field("score");
  ASSERT_TRUE(score.initial_default && score.write_default);
  EXPECT_EQ(score.initial_default->as_int32(), 7);
  EXPECT_EQ(score.write_default->as_int32(), 7);
  must(s(), "INSERT INTO db.t (id, name) VALUES (2, 'b')");
  EXPECT_EQ(all(), (Rows{R"([1,"a",7])", R"([2,"b",7])"}));

  EXPECT_EQ(say("ALTER TABLE db.t ALTER COLUMN score SET DEFAULT 9"),
            "altered column score of db.t: default");
  score = field("score");
  ASSERT_TRUE(score.initial_default && score.write_default);
  EXPECT_EQ(score.initial_default->as_int32(), 7);  // rows written before still read 7
  EXPECT_EQ(score.write_default->as_int32(), 9);
  must(s(), "INSERT INTO db.t (id, name) VALUES (3, 'c')");
  EXPECT_EQ(say("ALTER TABLE db.t ALTER COLUMN score DROP DEFAULT"),
            "altered column score of db.t: no default");
  EXPECT_FALSE(field("score").write_default);
  must(s(), "INSERT INTO db.t (id, name) VALUES (4, 'd')");
  EXPECT_EQ(all(), (Rows{R"([1,"a",7])", R"([2,"b",7])", R"([3,"c",9])", R"([4,"d",null])"}));

  // A required column may be added with a default: existing rows read it.
  must(s(), "ALTER TABLE db.t ADD COLUMN region STRING NOT NULL DEFAULT 'eu'");
  EXPECT_TRUE(field("region").required);
  EXPECT_EQ(rows(s(), "SELECT DISTINCT region FROM db.t"), (Rows{R"(["eu"])"}));

  // Bad defaults: a value the type cannot hold, a column reference, a nested struct.
  EXPECT_NE(
      error_of(s(), "ALTER TABLE db.t ALTER COLUMN score SET DEFAULT 3000000000").find("score"),
      std::string::npos);
  EXPECT_FALSE(error_of(s(), "ALTER TABLE db.t ALTER COLUMN score SET DEFAULT id").empty());
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t ADD COLUMN z INT NOT NULL DEFAULT NULL"),
            "column z is NOT NULL but its default is NULL");
  EXPECT_FALSE(field("score").write_default);
}

TEST_F(SchemaEvolution, DefaultsNeedFormatVersion3) {
  must(s(), "CREATE TABLE db.t (id BIGINT, n INT) USING iceberg");
  std::string e = error_of(s(), "ALTER TABLE db.t ALTER COLUMN n SET DEFAULT 1");
  EXPECT_NE(e.find("3"), std::string::npos) << e;
  e = error_of(s(), "ALTER TABLE db.t ADD COLUMN m INT DEFAULT 1");
  EXPECT_NE(e.find("3"), std::string::npos) << e;
  EXPECT_EQ(columns(), (std::vector<std::string>{"id", "n"}));
}

TEST_F(SchemaEvolution, IdentifierFields) {
  must(s(), "CREATE TABLE db.t (id BIGINT NOT NULL, k STRING NOT NULL, v DOUBLE) USING iceberg");
  EXPECT_EQ(say("ALTER TABLE db.t SET IDENTIFIER FIELDS ID, k"),
            "set identifier fields of db.t to [id, k]");
  EXPECT_EQ(table()->metadata()->schema()->identifier_field_ids(), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t DROP COLUMN k"),
            "Cannot delete identifier field k. To force deletion, also call "
            "set_identifier_fields to update identifier fields.");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t SET IDENTIFIER FIELDS v"),
            "Cannot add field v as an identifier field: not a required field");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t DROP IDENTIFIER FIELDS v"),
            "Cannot complete drop identifier fields operation: v is not an identifier field");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t DROP IDENTIFIER FIELDS nope"),
            "Cannot complete drop identifier fields operation: field nope not found");
  EXPECT_EQ(say("ALTER TABLE db.t DROP IDENTIFIER FIELDS k"),
            "set identifier fields of db.t to [id]");
  EXPECT_EQ(table()->metadata()->schema()->identifier_field_ids(), (std::vector<int32_t>{1}));
  must(s(), "ALTER TABLE db.t DROP COLUMN k");
  EXPECT_EQ(columns(), (std::vector<std::string>{"id", "v"}));
}

TEST_F(SchemaEvolution, ErrorsForBadInput) {
  must(s(),
       "CREATE TABLE db.t (id BIGINT, event_ts TIMESTAMP, name STRING, n INT) USING iceberg "
       "PARTITIONED BY (days(event_ts))");
  auto t = table();
  std::string location = t->metadata_location();
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t DROP COLUMN event_ts"),
            "Cannot drop column 'event_ts': it is the source of partition field 'event_ts_day' "
            "of the current partition spec");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t DROP COLUMN nope"),
            "Cannot delete missing column: nope");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t RENAME COLUMN nope TO x"),
            "cannot find column 'nope' in table db.t");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t ALTER COLUMN nope TYPE BIGINT"),
            "cannot find column 'nope' in table db.t");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t ALTER COLUMN name TYPE INT"),
            "Cannot change column type: name: string -> int");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t ALTER COLUMN n TYPE STRING"),
            "Cannot change column type: n: int -> string");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t ALTER COLUMN n TYPE ARRAY<INT>"),
            "Cannot update 'n', not a primitive type: array<int>");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t ADD COLUMN name STRING"),
            "Cannot add column, name already exists: name");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t ADD COLUMN NAME STRING"),
            "Cannot add column, name already exists: NAME");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t ADD COLUMNS (x INT, X STRING)"),
            "Cannot add column, name already exists: X");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t ADD COLUMN r INT NOT NULL"),
            "Incompatible change: cannot add required column: r");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t ADD COLUMN nope.x INT"),
            "cannot find column 'nope' in table db.t");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t ADD COLUMN name.x INT"),
            "Cannot add to non-struct column: name: string");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t ADD COLUMN x INT AFTER nope"),
            "Cannot move x after missing column: nope");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t RENAME COLUMN n TO name"),
            "Invalid schema: multiple fields for name name: 3 and 4");
  EXPECT_FALSE(error_of(s(), "ALTER TABLE db.nope ADD COLUMN x INT").empty());
  // Nothing changed.
  EXPECT_EQ(table()->metadata_location(), location);
}

TEST_F(SchemaEvolution, DropGuardsFollowPartitionAndWriteOrderEvolution) {
  must(s(), "CREATE TABLE db.t (id BIGINT, cat STRING, v INT) USING iceberg PARTITIONED BY (cat)");
  must(s(), "INSERT INTO db.t VALUES (1, 'a', 1), (2, 'b', 2)");
  must(s(), "ALTER TABLE db.t DROP PARTITION FIELD cat");
  must(s(), "ALTER TABLE db.t WRITE ORDERED BY v DESC");
  // The old spec's files are still live: the column stays until they are rewritten.
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t DROP COLUMN cat"),
            "Cannot drop column 'cat': it is the source of partition field 'cat' of partition "
            "spec 0, which still has live files (rewrite them first)");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t DROP COLUMN v"),
            "Cannot drop column 'v': it is the source of sort field 'v DESC' of the default sort "
            "order");
  auto t = table();
  int64_t first = t->metadata()->snapshots.front()->snapshot_id;
  must(s(),
       "CALL system.rewrite_data_files(table => 'db.t', options => map('rewrite-all', 'true'))");
  EXPECT_EQ(say("ALTER TABLE db.t DROP COLUMN cat"), "dropped column cat from db.t");
  must(s(), "ALTER TABLE db.t WRITE UNORDERED");
  must(s(), "ALTER TABLE db.t DROP COLUMN v");
  EXPECT_EQ(all(), (Rows{"[1]", "[2]"}));
  // The first snapshot still reads with its own schema and spec.
  EXPECT_EQ(rows(s(), fmt::format("SELECT * FROM db.t VERSION AS OF {} ORDER BY id", first)),
            (Rows{R"([1,"a",1])", R"([2,"b",2])"}));
}

TEST_F(SchemaEvolution, InitialDefaultsFillOldRowsInV3) {
  must(s(), "CREATE TABLE db.t (id BIGINT) USING iceberg TBLPROPERTIES ('format-version' = '3')");
  must(s(), "INSERT INTO db.t VALUES (1), (2)");
  ASSERT_TRUE(table()
                  ->update_schema()
                  .add_column(std::nullopt, "region", Type::string(), "", Literal::string("eu"))
                  .add_column(std::nullopt, "n", Type::int32())
                  .commit()
                  .ok());
  must(s(), "INSERT INTO db.t VALUES (3, 'us', 7)");
  EXPECT_EQ(all(), (Rows{R"([1,"eu",null])", R"([2,"eu",null])", R"([3,"us",7])"}));
  EXPECT_EQ(rows(s(), "SELECT id FROM db.t WHERE region = 'eu' ORDER BY id"), (Rows{"[1]", "[2]"}));
}

TEST_F(SchemaEvolution, DateToTimestampInV3) {
  must(s(),
       "CREATE TABLE db.t (id BIGINT, d DATE) USING iceberg "
       "TBLPROPERTIES ('format-version' = '3')");
  must(s(), "INSERT INTO db.t VALUES (1, DATE '2024-02-29'), (2, NULL)");
  EXPECT_EQ(error_of(s(), "ALTER TABLE db.t ALTER COLUMN d TYPE TIMESTAMP"),
            "Cannot change column type: d: date -> timestamptz");
  must(s(), "ALTER TABLE db.t ALTER COLUMN d TYPE TIMESTAMP_NTZ");
  must(s(), "INSERT INTO db.t VALUES (3, TIMESTAMP_NTZ '2024-03-01 12:30:00')");
  EXPECT_EQ(all(), (Rows{R"([1,"2024-02-29T00:00:00.000000"])", R"([2,null])",
                         R"([3,"2024-03-01T12:30:00.000000"])"}));
  EXPECT_EQ(rows(s(), "SELECT id FROM db.t WHERE d < TIMESTAMP_NTZ '2024-03-01 00:00:00'"),
            (Rows{"[1]"}));
}

TEST_F(SchemaEvolution, EveryFormatReadsTheEvolvedSchema) {
  must(s(),
       "CREATE TABLE db.t (id BIGINT, a INT, b STRING) USING iceberg "
       "TBLPROPERTIES ('write.format.default' = 'avro')");
  must(s(), "INSERT INTO db.t VALUES (1, 10, 'x')");
  must(s(), "ALTER TABLE db.t ALTER COLUMN a TYPE BIGINT");
  must(s(), "ALTER TABLE db.t RENAME COLUMN b TO c");
  must(s(), "ALTER TABLE db.t ADD COLUMN d STRING FIRST");
  must(s(), "ALTER TABLE db.t SET TBLPROPERTIES ('write.format.default' = 'parquet')");
  must(s(), "INSERT INTO db.t VALUES ('w', 2, 20, 'y')");
  EXPECT_EQ(all(), (Rows{R"([null,1,10,"x"])", R"(["w",2,20,"y"])"}));
}

}  // namespace
}  // namespace floe::sql
