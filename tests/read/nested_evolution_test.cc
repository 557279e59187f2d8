// Nested schema evolution in the task reader: Parquet files written by floe under one schema are
// read through ScanReader with an evolved schema, and struct fields must follow their ids at
// every depth (renamed, added with and without initial-default, dropped, reordered, promoted),
// inside lists and map values too. Plus the duckdb-iceberg fixture with defaults in a struct.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "floe/format/parquet/writer.h"
#include "floe/read/task_reader.h"
#include "floe/spec/metadata_file.h"

namespace floe {
namespace {

NestedField field(int32_t id, std::string name, TypePtr type,
                  std::optional<Literal> initial_default = std::nullopt) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.type = std::move(type);
  f.initial_default = std::move(initial_default);
  return f;
}

// Every row of every batch as JSON, in order.
std::vector<std::string> rows_json(const std::vector<ColumnBatch>& batches) {
  std::vector<std::string> out;
  for (const auto& b : batches) {
    for (int64_t i = 0; i < b.num_rows; ++i) {
      std::string s;
      write_row_json(b, i, JsonOptions{}, &s);
      out.push_back(std::move(s));
    }
  }
  return out;
}

// The schema the files are written with.
struct WriteSchema {
  TypePtr inner = Type::struct_of({field(9, "x", Type::int32())});
  TypePtr s = Type::struct_of({field(3, "a", Type::int32()), field(4, "b", Type::string()),
                               field(5, "c", Type::float32()), field(6, "d", Type::decimal(5, 2)),
                               field(7, "gone", Type::string()), field(8, "inner", inner)});
  TypePtr elem = Type::struct_of({field(12, "p", Type::int32()), field(13, "q", Type::string())});
  TypePtr l = Type::list_of(field(11, "element", elem));
  TypePtr value = Type::struct_of({field(17, "v", Type::int32())});
  TypePtr m = Type::map_of(field(15, "key", Type::string()), field(16, "value", value));
  Schema schema{
      0, {field(1, "id", Type::int32()), field(2, "s", s), field(10, "l", l), field(14, "m", m)}};
};

class NestedEvolutionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    io_ = make_memory_file_io();
    WriteSchema w;
    auto dec = [](int64_t unscaled) { return Literal::decimal(unscaled, 5, 2); };
    auto inner = [&](std::optional<int32_t> x) {
      return Literal::struct_value(w.inner,
                                   {x ? Literal::int32(*x) : Literal::null(Type::int32())});
    };
    auto elem = [&](int32_t p, std::string q) {
      return Literal::struct_value(w.elem, {Literal::int32(p), Literal::string(std::move(q))});
    };
    auto value = [&](std::optional<int32_t> v) {
      return Literal::struct_value(w.value,
                                   {v ? Literal::int32(*v) : Literal::null(Type::int32())});
    };
    std::vector<std::vector<Literal>> rows = {
        {Literal::int32(1),
         Literal::struct_value(
             w.s, {Literal::int32(10), Literal::string("x"), Literal::float32(1.5f), dec(123),
                   Literal::string("g1"), inner(7)}),
         Literal::list_value(w.l, {elem(1, "a"), elem(2, "b")}),
         Literal::map_value(w.m, {Literal::string("k")}, {value(5)})},
        {Literal::int32(2), Literal::null(w.s), Literal::null(w.l),
         Literal::map_value(w.m, {}, {})},
        {Literal::int32(3),
         Literal::struct_value(w.s, {Literal::null(Type::int32()), Literal::string("y"),
                                     Literal::null(Type::float32()), dec(-456),
                                     Literal::null(Type::string()), Literal::null(w.inner)}),
         Literal::list_value(w.l, {}),
         Literal::map_value(w.m, {Literal::string("z")}, {value({})})},
    };
    ColumnBatch batch = ColumnBatch::make(w.schema.fields());
    for (const auto& row : rows) {
      for (size_t c = 0; c < row.size(); ++c) {
        ASSERT_TRUE(batch.columns[c]->append_literal(row[c]).ok()) << c;
      }
      ++batch.num_rows;
    }
    auto writer = parquet::ParquetWriter::open(io_, path_, w.schema);
    ASSERT_TRUE(writer.ok()) << writer.status().to_string();
    ASSERT_TRUE((*writer)->write(batch).ok());
    auto metrics = (*writer)->close();
    ASSERT_TRUE(metrics.ok()) << metrics.status().to_string();
    auto file = std::make_shared<DataFile>();
    file->file_path = path_;
    file->file_format = "PARQUET";
    file->record_count = metrics->record_count;
    file->file_size_in_bytes = metrics->file_size;
    task_.file = file;
  }

  Result<std::vector<std::string>> read(const Schema& schema,
                                        std::vector<int32_t> projection = {}) {
    auto table = std::make_shared<TableMetadata>();
    table->format_version = 3;
    ScanReader reader(io_, table, schema, std::move(projection));
    std::vector<ColumnBatch> batches;
    FLOE_TRY(reader.read(task_, [&](ColumnBatch&& b) {
      batches.push_back(std::move(b));
      return Status::OK();
    }));
    return rows_json(batches);
  }

  FileIOPtr io_;
  std::string path_ = "memory://t/data/f.parquet";
  FileScanTask task_;
};

TEST_F(NestedEvolutionTest, SameSchemaReadsTheWrittenRows) {
  WriteSchema w;
  auto rows = read(w.schema);
  ASSERT_TRUE(rows.ok()) << rows.status().to_string();
  std::vector<std::string> expected = {
      R"({"id":1,"s":{"a":10,"b":"x","c":1.5,"d":"1.23","gone":"g1","inner":{"x":7}},)"
      R"("l":[{"p":1,"q":"a"},{"p":2,"q":"b"}],"m":{"k":{"v":5}}})",
      R"({"id":2,"s":null,"l":null,"m":{}})",
      R"({"id":3,"s":{"a":null,"b":"y","c":null,"d":"-4.56","gone":null,"inner":null},)"
      R"("l":[],"m":{"z":{"v":null}}})",
  };
  EXPECT_EQ(*rows, expected);
}

TEST_F(NestedEvolutionTest, StructFieldsFollowTheirIdsAtEveryDepth) {
  // Renamed b -> b2 and moved before a; a int -> long; c float -> double; d decimal(5,2) ->
  // decimal(9,2); gone dropped; two fields added (one with an initial-default); inner.x
  // promoted and inner.y added with a default; list elements: q renamed and moved, p promoted,
  // r added with a default; map values: v promoted, w added without one; a whole struct
  // column added later reads as null.
  TypePtr inner = Type::struct_of(
      {field(9, "x", Type::int64()), field(22, "y", Type::string(), Literal::string("dflt"))});
  TypePtr s =
      Type::struct_of({field(4, "b2", Type::string()), field(3, "a", Type::int64()),
                       field(20, "added_default", Type::int32(), Literal::int32(42)),
                       field(21, "added_null", Type::string()), field(5, "c", Type::float64()),
                       field(6, "d", Type::decimal(9, 2)), field(8, "inner", inner)});
  TypePtr elem = Type::struct_of({field(13, "q2", Type::string()), field(12, "p", Type::int64()),
                                  field(23, "r", Type::boolean(), Literal::boolean(true))});
  TypePtr value = Type::struct_of({field(17, "v", Type::int64()), field(24, "w", Type::int32())});
  TypePtr later = Type::struct_of({field(26, "z", Type::int32(), Literal::int32(9))});
  Schema evolved(
      1, {field(1, "id", Type::int64()), field(2, "s", s),
          field(10, "l", Type::list_of(field(11, "element", elem))),
          field(14, "m", Type::map_of(field(15, "key", Type::string()), field(16, "value", value))),
          field(25, "later", later)});
  auto rows = read(evolved);
  ASSERT_TRUE(rows.ok()) << rows.status().to_string();
  std::vector<std::string> expected = {
      R"({"id":1,"s":{"b2":"x","a":10,"added_default":42,"added_null":null,"c":1.5,"d":"1.23",)"
      R"("inner":{"x":7,"y":"dflt"}},"l":[{"q2":"a","p":1,"r":true},{"q2":"b","p":2,"r":true}],)"
      R"("m":{"k":{"v":5,"w":null}},"later":null})",
      R"({"id":2,"s":null,"l":null,"m":{},"later":null})",
      R"({"id":3,"s":{"b2":"y","a":null,"added_default":42,"added_null":null,"c":null,)"
      R"("d":"-4.56","inner":null},"l":[],"m":{"z":{"v":null,"w":null}},"later":null})",
  };
  EXPECT_EQ(*rows, expected);
}

TEST_F(NestedEvolutionTest, ProjectionOfOneEvolvedStruct) {
  // Only the struct, with every original field dropped but one and a new one added.
  TypePtr s = Type::struct_of({field(27, "fresh", Type::string(), Literal::string("new")),
                               field(6, "amount", Type::decimal(10, 2))});
  Schema evolved(2, {field(1, "id", Type::int32()), field(2, "s", s)});
  auto rows = read(evolved, {2});
  ASSERT_TRUE(rows.ok()) << rows.status().to_string();
  std::vector<std::string> expected = {
      R"({"s":{"fresh":"new","amount":"1.23"}})",
      R"({"s":null})",
      R"({"s":{"fresh":"new","amount":"-4.56"}})",
  };
  EXPECT_EQ(*rows, expected);
}

TEST_F(NestedEvolutionTest, IncompatiblePrimitiveIsAClearError) {
  // A string sub-field cannot be read as int: the error names the column and the field.
  TypePtr s = Type::struct_of({field(4, "b", Type::int32())});
  Schema evolved(3, {field(2, "s", s)});
  auto rows = read(evolved);
  ASSERT_FALSE(rows.ok());
  EXPECT_NE(rows.status().message().find("'b'"), std::string::npos) << rows.status().message();
  EXPECT_NE(rows.status().message().find("'s'"), std::string::npos) << rows.status().message();
}

TEST_F(NestedEvolutionTest, SubFieldOfAnotherKindReadsAsAbsent) {
  // Id 3 is an int in the file but a struct in this schema (an inconsistent name mapping can do
  // that): it is not this field's data, so it reads as null / its default.
  TypePtr s = Type::struct_of({field(3, "a", Type::struct_of({field(30, "z", Type::int32())})),
                               field(4, "b", Type::string())});
  Schema evolved(3, {field(2, "s", s)});
  auto rows = read(evolved);
  ASSERT_TRUE(rows.ok()) << rows.status().to_string();
  std::vector<std::string> expected = {
      R"({"s":{"a":null,"b":"x"}})",
      R"({"s":null})",
      R"({"s":{"a":null,"b":"y"}})",
  };
  EXPECT_EQ(*rows, expected);
}

// duckdb-iceberg/add_columns_with_defaults_in_struct (pyiceberg): struct a<col1> got 14 fields
// with initial-defaults; the row written before reads the defaults, the row written after its
// own values (same defaults as add_columns_with_defaults, per the fixture README).
TEST(NestedEvolutionFixtureTest, AddColumnsWithDefaultsInStruct) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(FLOE_FIXTURES_DIR) / "duckdb-iceberg/add_columns_with_defaults_in_struct";
  auto t = open_table_at(make_local_file_io(), dir.string());
  ASSERT_TRUE(t.ok()) << t.status().to_string();
  auto scan = TableScan::make(t->io, t->metadata, {});
  ASSERT_TRUE(scan.ok()) << scan.status().to_string();
  std::vector<ColumnBatch> batches;
  auto r = read_scan(*scan, t->io, t->metadata, {}, [&](ColumnBatch&& b) {
    batches.push_back(std::move(b));
    return Status::OK();
  });
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  std::vector<std::string> rows = rows_json(batches);
  std::sort(rows.begin(), rows.end());
  std::vector<std::string> expected = {
      // Written after the fields were added: its own values (nulls included).
      R"({"a":{"col1":"test","col_boolean":false,"col_integer":453243,"col_long":328725092345834,)"
      R"("col_float":23.343420028686523,"col_double":23.343424523423433,)"
      R"("col_decimal":"3423434.23","col_date":"0011-03-05","col_time":"12:06:45.000000",)"
      R"("col_timestamp":"0011-03-05T12:06:45.000000","col_timestamptz":null,)"
      R"("col_string":"World","col_uuid":null,"col_fixed":null,"col_binary":"800080"}})",
      // Written before: every added field reads its initial-default.
      R"({"a":{"col1":"test","col_boolean":true,"col_integer":342342,)"
      R"("col_long":-9223372036854775808,"col_float":0.34233999252319336,)"
      R"("col_double":0.342343242342342,"col_decimal":"12345.00","col_date":"2003-10-20",)"
      R"("col_time":"00:00:00.012345","col_timestamp":"1970-01-01T00:00:00.012345",)"
      R"("col_timestamptz":"1970-01-01T00:00:00.012345+00:00","col_string":"HELLO",)"
      R"("col_uuid":"f79c3e09-677c-4bbd-a479-3f349cb785e7","col_fixed":"010203ff03",)"
      R"("col_binary":"0102"}})",
  };
  EXPECT_EQ(rows, expected);
}

}  // namespace
}  // namespace floe
