// UpdateSchema (floe/table/update_schema.h) on a memory catalog: ids of added columns, renames,
// promotions, moves, identifier fields, the drop guards, schema id reuse, conflicting changes,
// and updates that fail leaving the table as it was.
#include "floe/table/update_schema.h"

#include <gtest/gtest.h>

#include "floe/spec/name_mapping.h"
#include "table/table_test_util.h"

namespace floe::testing {
namespace {

using test_support::field;

NestedField opt(const std::string& name, TypePtr type) { return field(0, name, std::move(type)); }
NestedField req(const std::string& name, TypePtr type) {
  return field(0, name, std::move(type), true);
}

// A schema with nested columns; create() numbers them: id 1, point 2, tags 3, props 4, loc 5,
// point.x 6, point.y 7, tags.element 8, tags.element.a 9, props.key 10, props.value 11,
// props.value.b 12, loc.lat 13, loc.lon 14.
SchemaPtr nested_schema() {
  return std::make_shared<const Schema>(
      0, std::vector<NestedField>{
             req("id", Type::int64()),
             opt("point", Type::struct_of({opt("x", Type::int32()), opt("y", Type::int32())})),
             opt("tags", Type::list_of(opt("element", Type::struct_of({opt("a", Type::int32())})))),
             opt("props", Type::map_of(req("key", Type::string()),
                                       opt("value", Type::struct_of({opt("b", Type::int32())})))),
             req("loc", Type::struct_of({req("lat", Type::int64()), req("lon", Type::int64())})),
         });
}

class UpdateSchemaTest : public CommitTest {
 protected:
  std::shared_ptr<Table> create_nested(int format_version = 0) {
    return must(
        Table::create(catalog, id, nested_schema(), nullptr, nullptr, {}, "", format_version));
  }
  // A table of the given columns (ids from 1), optionally partitioned / sorted.
  std::shared_ptr<Table> create_with(std::vector<NestedField> fields, int format_version = 2,
                                     PartitionSpecPtr spec = nullptr,
                                     SortOrderPtr order = nullptr) {
    int32_t last = 0;
    auto schema = std::make_shared<const Schema>(0, numbered(std::move(fields), last));
    return must(Table::create(catalog, id, schema, spec, order, {}, "", format_version));
  }
  // Ids as create() assigns them (a struct's fields, then their children), so that partition
  // and sort sources can be written as the final ids.
  static std::vector<NestedField> numbered(std::vector<NestedField> fields, int32_t& last) {
    for (auto& f : fields) f.id = ++last;
    for (auto& f : fields) {
      const Type& t = *f.type;
      if (t.is_struct()) {
        f.type = Type::struct_of(numbered(t.fields(), last));
      } else if (t.is_list()) {
        f.type = Type::list_of(numbered({t.element()}, last)[0]);
      } else if (t.is_map()) {
        auto kv = numbered({t.key(), t.value()}, last);
        f.type = Type::map_of(kv[0], kv[1]);
      }
    }
    return fields;
  }
  static const Schema& schema(const Table& t) { return *t.metadata()->schema(); }
  static std::vector<std::string> names(const Type& st) {
    std::vector<std::string> out;
    for (const auto& f : st.fields()) out.push_back(f.name);
    return out;
  }
  static int32_t id_of(const Table& t, const std::string& name) {
    const NestedField* f = schema(t).find_field(name);
    return f ? f->id : -1;
  }
  static std::string error(const Status& s) {
    EXPECT_FALSE(s.ok());
    return s.message();
  }
};

TEST_F(UpdateSchemaTest, AddedColumnsTakeIdsFromLastColumnIdIncludingNestedTypes) {
  auto t = create();  // id 1, category 2, value 3
  ASSERT_EQ(t->metadata()->last_column_id, 3);
  ASSERT_OK(t->update_schema()
                .add_column("note", Type::string(), "a note")
                .add_column("point", Type::struct_of({field(100, "x", Type::int32()),
                                                      field(200, "y", Type::float64())}))
                .add_column("tags",
                            Type::list_of(field(300, "element",
                                                Type::struct_of({field(400, "a", Type::int32())}))))
                .add_column("props", Type::map_of(field(500, "key", Type::string(), true),
                                                  field(600, "value", Type::int64())))
                .commit());
  const Schema& s = schema(*t);
  EXPECT_EQ(names(*s.as_struct()), (std::vector<std::string>{"id", "category", "value", "note",
                                                             "point", "tags", "props"}));
  EXPECT_EQ(id_of(*t, "note"), 4);
  EXPECT_EQ(s.find_field("note")->doc, "a note");
  EXPECT_FALSE(s.find_field("note")->required);
  // The column's id first, then its struct's fields in order, then deeper ones.
  EXPECT_EQ(id_of(*t, "point"), 5);
  EXPECT_EQ(id_of(*t, "point.x"), 6);
  EXPECT_EQ(id_of(*t, "point.y"), 7);
  EXPECT_EQ(id_of(*t, "tags"), 8);
  EXPECT_EQ(id_of(*t, "tags.element"), 9);
  EXPECT_EQ(id_of(*t, "tags.element.a"), 10);
  EXPECT_EQ(id_of(*t, "props"), 11);
  EXPECT_EQ(id_of(*t, "props.key"), 12);
  EXPECT_EQ(id_of(*t, "props.value"), 13);
  EXPECT_EQ(t->metadata()->last_column_id, 13);
  EXPECT_EQ(t->metadata()->current_schema_id, 1);
  EXPECT_EQ(t->metadata()->schemas.size(), 2u);
  // The next update continues after the last id.
  ASSERT_OK(t->update_schema().add_column("more", Type::boolean()).commit());
  EXPECT_EQ(id_of(*t, "more"), 14);
  EXPECT_EQ(t->metadata()->current_schema_id, 2);
}

TEST_F(UpdateSchemaTest, IdsContinueAfterDeletedColumns) {
  auto t = create();
  ASSERT_OK(t->update_schema().add_column("a", Type::int32()).commit());
  ASSERT_OK(t->update_schema().delete_column("a").commit());
  ASSERT_OK(t->update_schema().add_column("a", Type::int32()).commit());
  EXPECT_EQ(id_of(*t, "a"), 5);  // never 4 again: ids are not reused
  EXPECT_EQ(t->metadata()->last_column_id, 5);
}

TEST_F(UpdateSchemaTest, NestedAddsGoIntoStructsListElementsAndMapValues) {
  auto t = create_nested();
  ASSERT_EQ(t->metadata()->last_column_id, 14);
  ASSERT_OK(t->update_schema()
                .add_column("point", "z", Type::int32())
                .add_column("tags", "c", Type::string())   // into the list's element struct
                .add_column("props", "d", Type::string())  // into the map's value struct
                .add_column("tags.element", "e", Type::int64())
                .commit());
  EXPECT_EQ(id_of(*t, "point.z"), 15);
  EXPECT_EQ(id_of(*t, "tags.element.c"), 16);
  EXPECT_EQ(id_of(*t, "props.value.d"), 17);
  EXPECT_EQ(id_of(*t, "tags.element.e"), 18);
  EXPECT_EQ(names(*schema(*t).find_field("point")->type),
            (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(names(*schema(*t).find_field("tags.element")->type),
            (std::vector<std::string>{"a", "c", "e"}));

  EXPECT_EQ(error(t->update_schema().add_column("id", "x", Type::int32()).commit()),
            "Cannot add to non-struct column: id: long");
  EXPECT_EQ(error(t->update_schema().add_column("nope", "x", Type::int32()).commit()),
            "Cannot find parent struct: nope");
  EXPECT_EQ(error(t->update_schema().add_column("point", "x", Type::int32()).commit()),
            "Cannot add column, name already exists: point.x");
  EXPECT_EQ(error(t->update_schema().add_column("a.b", Type::int32()).commit()),
            "Cannot add column with ambiguous name: a.b, use add_column(parent, name, type)");
}

TEST_F(UpdateSchemaTest, AddingAnExistingColumnFailsUnlessItIsDeletedToo) {
  auto t = create();
  EXPECT_EQ(error(t->update_schema().add_column("value", Type::int32()).commit()),
            "Cannot add column, name already exists: value");
  EXPECT_EQ(error(t->update_schema()
                      .add_column("extra", Type::int32())
                      .add_column("extra", Type::string())
                      .commit()),
            "Cannot add column, name already exists: extra");
  // Deleted in the same update: the new column is another column with a fresh id.
  ASSERT_OK(t->update_schema().delete_column("value").add_column("value", Type::string()).commit());
  EXPECT_EQ(id_of(*t, "value"), 4);
  EXPECT_EQ(schema(*t).find_field("value")->type->id(), TypeId::kString);
}

TEST_F(UpdateSchemaTest, RequiredColumnsNeedADefaultOrIncompatibleChanges) {
  auto t = create();
  EXPECT_EQ(error(t->update_schema().add_required_column("r", Type::int32()).commit()),
            "Incompatible change: cannot add required column without a default value: r");
  ASSERT_OK(t->update_schema()
                .allow_incompatible_changes()
                .add_required_column("r", Type::int32())
                .commit());
  EXPECT_TRUE(schema(*t).find_field("r")->required);
  // Defaults are v3 only.
  EXPECT_EQ(error(t->update_schema()
                      .add_required_column(std::nullopt, "d", Type::int32(), "", Literal::int32(7))
                      .commit()),
            "Invalid initial default for d: non-null default (7) is not supported until v3");
}

TEST_F(UpdateSchemaTest, V3DefaultsFillInitialAndWriteDefault) {
  auto t = create({}, true, 3);
  ASSERT_OK(t->update_schema()
                .add_required_column(std::nullopt, "d", Type::int64(), "", Literal::int32(7))
                .add_column(std::nullopt, "s", Type::string(), "", Literal::string("x"))
                .commit());
  const NestedField* d = schema(*t).find_field("d");
  ASSERT_TRUE(d->initial_default && d->write_default);
  EXPECT_EQ(*d->initial_default, Literal::int64(7));  // converted to the column type
  EXPECT_TRUE(d->required);
  ASSERT_OK(t->update_schema().update_column_default("d", Literal::int64(9)).commit());
  d = schema(*t).find_field("d");
  EXPECT_EQ(*d->initial_default, Literal::int64(7));  // what old rows read never changes
  EXPECT_EQ(*d->write_default, Literal::int64(9));
  EXPECT_EQ(error(t->update_schema().update_column_default("d", Literal::string("x")).commit()),
            "Invalid default value for d: cannot convert 'x' to long");
  // Dropping the write default leaves the initial default.
  ASSERT_OK(t->update_schema().update_column_default("d", std::nullopt).commit());
  d = schema(*t).find_field("d");
  EXPECT_FALSE(d->write_default.has_value());
  EXPECT_EQ(*d->initial_default, Literal::int64(7));
  // Promotions convert the defaults.
  ASSERT_OK(t->update_schema()
                .add_column(std::nullopt, "i", Type::int32(), "", Literal::int32(3))
                .commit());
  ASSERT_OK(t->update_schema().update_column("i", Type::int64()).commit());
  EXPECT_EQ(*schema(*t).find_field("i")->initial_default, Literal::int64(3));
}

TEST_F(UpdateSchemaTest, V3TypesNeedFormatVersion3) {
  auto t = create();
  EXPECT_EQ(error(t->update_schema().add_column("ns", Type::timestamp_ns()).commit()),
            "Invalid type for ns: timestamp_ns is not supported until v3");
  EXPECT_EQ(error(t->update_schema().add_column("v", Type::variant()).commit()),
            "Invalid type for v: variant is not supported until v3");
}

TEST_F(UpdateSchemaTest, RenameKeepsIdsAndPartitionSpecsKeepWorking) {
  auto t = create();  // partitioned by category (id 2)
  ASSERT_OK(t->new_append().append_file(file("a", "x", 10)).commit());
  ASSERT_OK(
      t->update_schema().rename_column("category", "cat").rename_column("value", "v").commit());
  EXPECT_EQ(id_of(*t, "cat"), 2);
  EXPECT_EQ(id_of(*t, "v"), 3);
  EXPECT_EQ(schema(*t).find_field("category"), nullptr);
  EXPECT_EQ(t->metadata()->spec()->fields()[0].source_id, 2);
  // The spec still binds: files append and plan as before.
  ASSERT_OK(t->new_append().append_file(file("b", "y", 5)).commit());
  EXPECT_EQ(live_files(*t).size(), 2u);
  // A filter on the new name prunes by the old partition values.
  ScanOptions o;
  o.filter = make_predicate(Operation::kEq, "cat", {Literal::string("y")});
  EXPECT_EQ(live_files(*t, o), (std::set<std::string>{"wh/db/t/data/b.parquet"}));
}

TEST_F(UpdateSchemaTest, RenameOfNestedFieldsAndSwapInOneUpdate) {
  auto t = create_nested();
  ASSERT_OK(t->update_schema()
                .rename_column("point.x", "px")
                .rename_column("tags.element.a", "ta")
                .rename_column("props.b", "pb")  // the short name of props.value.b
                .commit());
  EXPECT_EQ(id_of(*t, "point.px"), 6);
  EXPECT_EQ(id_of(*t, "tags.element.ta"), 9);
  EXPECT_EQ(id_of(*t, "props.value.pb"), 12);
  // Names may be swapped in one update.
  ASSERT_OK(
      t->update_schema().rename_column("point.px", "y").rename_column("point.y", "px").commit());
  EXPECT_EQ(id_of(*t, "point.y"), 6);
  EXPECT_EQ(id_of(*t, "point.px"), 7);
  // A rename onto a name that stays taken is an invalid schema.
  EXPECT_EQ(error(t->update_schema().rename_column("point.px", "y").commit()),
            "Invalid schema: multiple fields for name point.y: 6 and 7");
}

TEST_F(UpdateSchemaTest, AllowedPromotions) {
  auto t = create_with({req("id", Type::int32()), opt("f", Type::float32()),
                        opt("d", Type::decimal(9, 2)),
                        opt("l", Type::list_of(field(0, "element", Type::int32()))),
                        opt("m", Type::map_of(field(0, "key", Type::string(), true),
                                              field(0, "value", Type::float32())))});
  ASSERT_OK(t->update_schema()
                .update_column("id", Type::int64())
                .update_column("f", Type::float64())
                .update_column("d", Type::decimal(18, 2))
                .update_column("l.element", Type::int64())
                .update_column("m.value", Type::float64())
                .commit());
  const Schema& s = schema(*t);
  EXPECT_EQ(s.find_field("id")->type->to_string(), "long");
  EXPECT_TRUE(s.find_field("id")->required);
  EXPECT_EQ(s.find_field("f")->type->to_string(), "double");
  EXPECT_EQ(s.find_field("d")->type->to_string(), "decimal(18, 2)");
  EXPECT_EQ(s.find_field("l.element")->type->to_string(), "long");
  EXPECT_EQ(s.find_field("m.value")->type->to_string(), "double");
  EXPECT_EQ(id_of(*t, "id"), 1);
  // The same type again changes nothing and commits nothing.
  std::string location = t->metadata_location();
  ASSERT_OK(t->update_schema().update_column("id", Type::int64()).commit());
  EXPECT_EQ(t->metadata_location(), location);
}

TEST_F(UpdateSchemaTest, RefusedPromotionsNameBothTypes) {
  auto t =
      create_with({req("id", Type::int64()), opt("i", Type::int32()), opt("d", Type::decimal(9, 2)),
                   opt("s", Type::string()), opt("day", Type::date()), opt("dbl", Type::float64()),
                   opt("st", Type::struct_of({opt("x", Type::int32())})),
                   opt("m", Type::map_of(field(0, "key", Type::int32(), true),
                                         field(0, "value", Type::int32())))});
  auto refused = [&](const std::string& column, TypePtr to) {
    return error(t->update_schema().update_column(column, std::move(to)).commit());
  };
  EXPECT_EQ(refused("id", Type::int32()), "Cannot change column type: id: long -> int");
  EXPECT_EQ(refused("i", Type::string()), "Cannot change column type: i: int -> string");
  EXPECT_EQ(refused("i", Type::float64()), "Cannot change column type: i: int -> double");
  EXPECT_EQ(refused("d", Type::decimal(18, 3)),
            "Cannot change column type: d: decimal(9, 2) -> decimal(18, 3)");
  EXPECT_EQ(refused("d", Type::decimal(8, 2)),
            "Cannot change column type: d: decimal(9, 2) -> decimal(8, 2)");
  EXPECT_EQ(refused("s", Type::binary()), "Cannot change column type: s: string -> binary");
  EXPECT_EQ(refused("dbl", Type::float32()), "Cannot change column type: dbl: double -> float");
  // date -> timestamp is a v3 promotion.
  EXPECT_EQ(refused("day", Type::timestamp()), "Cannot change column type: day: date -> timestamp");
  EXPECT_EQ(refused("st", Type::int32()), "Cannot change column type: st: struct<x: int> -> int");
  EXPECT_EQ(refused("nope", Type::int64()), "Cannot update missing column: nope");
  EXPECT_EQ(refused("m.key", Type::int64()), "Cannot update map keys: map<int, int>");
  EXPECT_EQ(t->metadata()->current_schema_id, 0);
}

TEST_F(UpdateSchemaTest, DateToTimestampInV3UnlessAPartitionWouldChange) {
  auto by_day = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{2, {}, 0, "d_day", Transform::day()}});
  auto t = create_with({req("id", Type::int64()), opt("d", Type::date()), opt("e", Type::date())},
                       3, by_day);
  ASSERT_OK(t->update_schema().update_column("d", Type::timestamp()).commit());
  EXPECT_EQ(schema(*t).find_field("d")->type->id(), TypeId::kTimestamp);
  EXPECT_EQ(error(t->update_schema().update_column("e", Type::timestamptz()).commit()),
            "Cannot change column type: e: date -> timestamptz");
  ASSERT_OK(t->update_schema().update_column("e", Type::timestamp_ns()).commit());

  ASSERT_OK(catalog->drop_table(id, true));
  auto by_identity = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{2, {}, 0, "d", Transform::identity()}});
  t = create_with({req("id", Type::int64()), opt("d", Type::date())}, 3, by_identity);
  EXPECT_EQ(error(t->update_schema().update_column("d", Type::timestamp()).commit()),
            "Cannot change column type: d: date -> timestamp: partition field 'd' (d) of "
            "partition spec 0 would change its values");
}

TEST_F(UpdateSchemaTest, UnknownPromotesToAnyPrimitiveInV3) {
  auto t = create_with({req("id", Type::int64()), opt("u", Type::unknown())}, 3);
  ASSERT_OK(t->update_schema().update_column("u", Type::string()).commit());
  EXPECT_EQ(schema(*t).find_field("u")->type->id(), TypeId::kString);
}

TEST_F(UpdateSchemaTest, Moves) {
  auto t = create();  // id, category, value
  ASSERT_OK(t->update_schema().move_first("value").commit());
  EXPECT_EQ(names(*schema(*t).as_struct()), (std::vector<std::string>{"value", "id", "category"}));
  ASSERT_OK(t->update_schema().move_after("value", "category").commit());
  EXPECT_EQ(names(*schema(*t).as_struct()), (std::vector<std::string>{"id", "category", "value"}));
  ASSERT_OK(t->update_schema().move_before("value", "id").commit());
  EXPECT_EQ(names(*schema(*t).as_struct()), (std::vector<std::string>{"value", "id", "category"}));
  // Added columns can be moved, and others moved around them.
  ASSERT_OK(t->update_schema()
                .add_column("a", Type::int32())
                .add_column("b", Type::int32())
                .move_after("a", "id")
                .move_first("b")
                .commit());
  EXPECT_EQ(names(*schema(*t).as_struct()),
            (std::vector<std::string>{"b", "value", "id", "a", "category"}));
  EXPECT_EQ(id_of(*t, "id"), 1);  // reordering keeps ids

  auto err = [&](UpdateSchema u) { return error(u.commit()); };
  EXPECT_EQ(err(t->update_schema().move_first("nope")), "Cannot move missing column: nope");
  EXPECT_EQ(err(t->update_schema().move_after("id", "nope")),
            "Cannot move id after missing column: nope");
  EXPECT_EQ(err(t->update_schema().move_before("id", "id")), "Cannot move id before itself");
  EXPECT_EQ(err(t->update_schema().move_after("id", "id")), "Cannot move id after itself");
  EXPECT_EQ(err(t->update_schema().delete_column("a").move_first("a")),
            "Cannot move column a: it will be deleted");
}

TEST_F(UpdateSchemaTest, NestedMovesStayInTheirStruct) {
  auto t = create_nested();
  ASSERT_OK(t->update_schema()
                .add_column("point", "z", Type::int32())
                .move_first("point.z")
                .move_after("point.x", "point.y")
                .commit());
  EXPECT_EQ(names(*schema(*t).find_field("point")->type),
            (std::vector<std::string>{"z", "y", "x"}));
  EXPECT_EQ(error(t->update_schema().move_after("point.x", "id").commit()),
            "Cannot move field point.x to a different struct");
  EXPECT_EQ(error(t->update_schema().move_before("id", "point.x").commit()),
            "Cannot move field id to a different struct");
  EXPECT_EQ(error(t->update_schema().move_first("tags.element").commit()),
            "Cannot move fields in non-struct type: list<struct<a: int>>");
}

TEST_F(UpdateSchemaTest, IdentifierFieldRules) {
  auto t = create_nested();
  auto err = [&](std::vector<std::string> fields) {
    return error(t->update_schema().set_identifier_fields(std::move(fields)).commit());
  };
  EXPECT_EQ(err({"nope"}),
            "Cannot add field nope as an identifier field: not found in current schema or added "
            "columns");
  EXPECT_EQ(err({"point.x"}),
            "Cannot add field point.x as an identifier field: not a required field");
  EXPECT_EQ(err({"loc"}),
            "Cannot add field loc as an identifier field: not a primitive type field");
  EXPECT_EQ(err({"tags.element.a"}),
            "Cannot add field tags.element.a as an identifier field: not a required field");
  ASSERT_OK(t->update_schema()
                .allow_incompatible_changes()
                .require_column("point")
                .require_column("point.x")
                .require_column("tags.element.a")
                .commit());
  EXPECT_EQ(err({"tags.element.a"}),
            "Cannot add field tags.element.a as an identifier field: must not be nested in list "
            "tags");
  ASSERT_OK(t->update_schema().make_column_optional("point").commit());
  EXPECT_EQ(err({"point.x"}),
            "Cannot add field point.x as an identifier field: must not be nested in an optional "
            "field point");

  // Required primitives, nested in required structs.
  ASSERT_OK(t->update_schema().set_identifier_fields({"id", "loc.lat"}).commit());
  EXPECT_EQ(schema(*t).identifier_field_ids(), (std::vector<int32_t>{1, 13}));
  // They follow renames (the struct's too).
  ASSERT_OK(t->update_schema().rename_column("loc", "where").rename_column("id", "key").commit());
  EXPECT_EQ(schema(*t).identifier_field_ids(), (std::vector<int32_t>{1, 13}));
  // Deleting one needs the identifier fields updated in the same update.
  EXPECT_EQ(error(t->update_schema().delete_column("key").commit()),
            "Cannot delete identifier field key. To force deletion, also call "
            "set_identifier_fields to update identifier fields.");
  EXPECT_EQ(error(t->update_schema().delete_column("where").commit()),
            "Cannot delete field where as it will delete nested identifier field where.lat");
  ASSERT_OK(t->update_schema().delete_column("where").set_identifier_fields({"key"}).commit());
  EXPECT_EQ(schema(*t).identifier_field_ids(), (std::vector<int32_t>{1}));
  // An added column can be an identifier field at once.
  ASSERT_OK(t->update_schema()
                .allow_incompatible_changes()
                .add_required_column("k2", Type::string())
                .set_identifier_fields({"key", "k2"})
                .commit());
  EXPECT_EQ(schema(*t).identifier_field_ids(), (std::vector<int32_t>{1, 15}));
  ASSERT_OK(t->update_schema().set_identifier_fields({}).commit());
  EXPECT_TRUE(schema(*t).identifier_field_ids().empty());
}

TEST_F(UpdateSchemaTest, FloatIdentifierFieldsAndOptionalityChanges) {
  auto t =
      create_with({req("id", Type::int64()), req("f", Type::float32()), opt("o", Type::int32())});
  EXPECT_EQ(error(t->update_schema().set_identifier_fields({"f"}).commit()),
            "Cannot add field f as an identifier field: must not be float or double field");
  EXPECT_EQ(error(t->update_schema().require_column("o").commit()),
            "Cannot change column nullability: o: optional -> required");
  ASSERT_OK(t->update_schema().make_column_optional("id").commit());
  EXPECT_FALSE(schema(*t).find_field("id")->required);
  EXPECT_EQ(error(t->update_schema().set_identifier_fields({"id"}).commit()),
            "Cannot add field id as an identifier field: not a required field");
}

TEST_F(UpdateSchemaTest, DropGuardsNameThePartitionOrSortField) {
  auto order = std::make_shared<SortOrder>();
  order->order_id = 1;
  order->fields.push_back(
      {Transform::bucket(4), 3, {}, SortDirection::kDesc, NullOrder::kNullsLast});
  auto spec = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{2, {}, 0, "category", Transform::identity()}});
  auto t = create_with(
      {req("id", Type::int64()), opt("category", Type::string()), opt("value", Type::int64()),
       opt("s", Type::struct_of({opt("x", Type::int32())}))},
      2, spec, order);
  EXPECT_EQ(error(t->update_schema().delete_column("category").commit()),
            "Cannot drop column 'category': it is the source of partition field 'category' of "
            "the current partition spec");
  EXPECT_EQ(error(t->update_schema().delete_column("value").commit()),
            "Cannot drop column 'value': it is the source of sort field 'bucket[4](value) DESC' "
            "of the default sort order");
  // Renamed columns are still the sources.
  ASSERT_OK(t->update_schema().rename_column("category", "cat").commit());
  EXPECT_EQ(error(t->update_schema().delete_column("cat").commit()),
            "Cannot drop column 'cat': it is the source of partition field 'category' of the "
            "current partition spec");
  ASSERT_OK(t->update_schema().delete_column("s").commit());
}

TEST_F(UpdateSchemaTest, DropGuardNamesANestedSource) {
  auto spec = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{3, {}, 0, "s_x_bucket", Transform::bucket(8)}});
  auto t = create_with(
      {req("id", Type::int64()), opt("s", Type::struct_of({opt("x", Type::int32())}))}, 2, spec);
  EXPECT_EQ(error(t->update_schema().delete_column("s").commit()),
            "Cannot drop column 's': its field 's.x' is the source of partition field "
            "'s_x_bucket' of the current partition spec");
}

// Makes `spec` the default spec (what partition evolution commits).
struct SetDefaultSpec : PendingUpdate {
  PartitionSpecPtr spec;
  Result<TableMetadata> apply(const TableMetadata& base) override {
    TableMetadata m = base;
    m.specs.push_back(spec);
    m.default_spec_id = spec->spec_id();
    m.last_partition_id = std::max(m.last_partition_id, spec->last_assigned_field_id());
    return m;
  }
};

TEST_F(UpdateSchemaTest, DropGuardForAnOlderSpecWithLiveFiles) {
  auto t = create();  // spec 0: identity(category)
  ASSERT_OK(t->new_append().append_file(file("a", "x", 10)).commit());
  auto evolve = std::make_shared<SetDefaultSpec>();
  evolve->spec = std::make_shared<const PartitionSpec>(1, std::vector<PartitionField>{});
  Transaction txn = t->new_transaction();
  ASSERT_OK(txn.stage(evolve));
  ASSERT_OK(txn.commit());
  ASSERT_EQ(t->metadata()->default_spec_id, 1);
  EXPECT_EQ(error(t->update_schema().delete_column("category").commit()),
            "Cannot drop column 'category': it is the source of partition field 'category' of "
            "partition spec 0, which still has live files (rewrite them first)");
  // A tag keeps the file live after main drops it.
  int64_t before = t->metadata()->current_snapshot_id.value();
  ASSERT_OK(t->manage_snapshots().create_tag("keep", before).commit());
  ASSERT_OK(t->new_delete().delete_file("wh/db/t/data/a.parquet").commit());
  EXPECT_FALSE(t->update_schema().delete_column("category").commit().ok());
  ASSERT_OK(t->manage_snapshots().remove_tag("keep").commit());
  // No branch or tag has the spec's files now: the column may go.
  ASSERT_OK(t->update_schema().delete_column("category").commit());
  EXPECT_EQ(schema(*t).find_field("category"), nullptr);
  EXPECT_EQ(t->metadata()->specs.size(), 2u);  // the old spec stays in the metadata
}

TEST_F(UpdateSchemaTest, IdenticalSchemaReusesItsId) {
  auto t = create();
  ASSERT_OK(t->update_schema().add_column("c", Type::int32()).commit());
  EXPECT_EQ(t->metadata()->current_schema_id, 1);
  ASSERT_OK(t->update_schema().delete_column("c").commit());
  // Back to the first schema: its id is current again and no schema is added.
  EXPECT_EQ(t->metadata()->current_schema_id, 0);
  EXPECT_EQ(t->metadata()->schemas.size(), 2u);
  EXPECT_EQ(t->metadata()->last_column_id, 4);
  ASSERT_OK(t->update_schema().add_column("d", Type::int32()).commit());
  EXPECT_EQ(t->metadata()->current_schema_id, 2);  // max + 1, not current + 1
}

TEST_F(UpdateSchemaTest, NoSnapshotIsCreated) {
  auto t = create();
  ASSERT_OK(t->new_append().append_file(file("a", "x", 10)).commit());
  auto before = t->metadata();
  ASSERT_OK(t->update_schema().add_column("c", Type::int32()).rename_column("value", "v").commit());
  auto after = t->metadata();
  EXPECT_EQ(after->snapshots.size(), before->snapshots.size());
  EXPECT_EQ(after->current_snapshot_id, before->current_snapshot_id);
  EXPECT_EQ(after->last_sequence_number, before->last_sequence_number);
  EXPECT_NE(t->metadata_location(), "");
  // The snapshot keeps the schema it was written with.
  EXPECT_EQ(after->current_snapshot()->schema_id, std::optional<int32_t>(0));
  EXPECT_EQ(live_files(*t).size(), 1u);
}

TEST_F(UpdateSchemaTest, ConflictingChangesFailAsInJava) {
  auto t = create_nested();
  auto err = [&](UpdateSchema u) { return error(u.commit()); };
  EXPECT_EQ(err(t->update_schema().delete_column("point").rename_column("point", "p")),
            "Cannot rename a column that will be deleted: point");
  EXPECT_EQ(err(t->update_schema().rename_column("point", "p").delete_column("point")),
            "Cannot delete a column that has updates: point");
  EXPECT_EQ(err(t->update_schema().add_column("point", "z", Type::int32()).delete_column("point")),
            "Cannot delete a column that has additions: point");
  EXPECT_EQ(err(t->update_schema().delete_column("point").add_column("point", "z", Type::int32())),
            "Cannot add to a column that will be deleted: point");
  EXPECT_EQ(
      err(t->update_schema().delete_column("point.x").update_column("point.x", Type::int64())),
      "Cannot update a column that will be deleted: x");
  EXPECT_EQ(err(t->update_schema().delete_column("point.x").update_column_doc("point.x", "d")),
            "Cannot update a column that will be deleted: x");
  EXPECT_EQ(err(t->update_schema().delete_column("nope")), "Cannot delete missing column: nope");
  EXPECT_EQ(err(t->update_schema().rename_column("nope", "x")),
            "Cannot rename missing column: nope");
  EXPECT_EQ(err(t->update_schema().delete_column("tags.element")),
            "Cannot delete element type from list: list<struct<a: int>>");
  EXPECT_EQ(err(t->update_schema().delete_column("props.key")),
            "Cannot delete map keys: map<string, struct<b: int>>");
  EXPECT_EQ(err(t->update_schema().delete_column("props.value")),
            "Cannot delete value type from map: map<string, struct<b: int>>");
  // Names resolve in the schema the update started from: the new name is not a column yet.
  EXPECT_EQ(
      err(t->update_schema().rename_column("point.x", "px").update_column_doc("point.px", "d")),
      "Cannot update missing column: point.px");
  EXPECT_EQ(t->metadata()->current_schema_id, 0);
}

TEST_F(UpdateSchemaTest, PromotionAndRenameMerge) {
  auto t = create_nested();
  ASSERT_OK(t->update_schema()
                .update_column("point.x", Type::int64())
                .rename_column("point.x", "px")
                .update_column_doc("point.x", "the x")
                .commit());
  const NestedField* px = schema(*t).find_field("point.px");
  ASSERT_NE(px, nullptr);
  EXPECT_EQ(px->id, 6);
  EXPECT_EQ(px->type->id(), TypeId::kLong);
  EXPECT_EQ(px->doc, "the x");
}

TEST_F(UpdateSchemaTest, AFailedUpdateLeavesTheTableAsItWas) {
  auto t = create();
  ASSERT_OK(t->new_append().append_file(file("a", "x", 10)).commit());
  std::string location = t->metadata_location();
  auto before = *t->metadata();
  auto files = fio->list(t->location() + "/metadata");
  ASSERT_TRUE(files.ok());
  EXPECT_FALSE(t->update_schema()
                   .add_column("ok", Type::int32())
                   .rename_column("value", "v")
                   .delete_column("category")  // the partition source: refused
                   .commit()
                   .ok());
  EXPECT_EQ(t->metadata_location(), location);
  ASSERT_OK(t->refresh());
  EXPECT_EQ(t->metadata_location(), location);
  EXPECT_TRUE(*t->metadata() == before);
  EXPECT_EQ(must(fio->list(t->location() + "/metadata")).size(), files->size());
}

TEST_F(UpdateSchemaTest, ColumnPropertiesFollowRenamesAndDeletes) {
  auto t = create({{"write.metadata.metrics.column.value", "full"},
                   {"write.parquet.bloom-filter-enabled.column.id", "true"},
                   {"write.metadata.metrics.column.gone", "none"},
                   {"other", "x"}});
  ASSERT_OK(t->update_schema()
                .allow_incompatible_changes()
                .rename_column("value", "amount")
                .add_column("gone", Type::int32())
                .commit());
  auto props = t->properties();
  EXPECT_EQ(props.count("write.metadata.metrics.column.value"), 0u);
  EXPECT_EQ(props["write.metadata.metrics.column.amount"], "full");
  ASSERT_OK(t->update_schema().delete_column("gone").delete_column("amount").commit());
  props = t->properties();
  EXPECT_EQ(props.count("write.metadata.metrics.column.amount"), 0u);
  EXPECT_EQ(props.count("write.metadata.metrics.column.gone"), 0u);
  EXPECT_EQ(props["write.parquet.bloom-filter-enabled.column.id"], "true");
  EXPECT_EQ(props["other"], "x");
}

TEST_F(UpdateSchemaTest, NameMappingGainsNewNamesAndColumns) {
  auto t = create({{"schema.name-mapping.default",
                    R"([{"field-id":1,"names":["id"]},{"field-id":2,"names":["category"]},)"
                    R"({"field-id":3,"names":["value"]}])"}});
  ASSERT_OK(t->update_schema()
                .rename_column("value", "amount")
                .add_column("point", Type::struct_of({field(0, "x", Type::int32())}))
                .commit());
  auto mapping = must(parse_name_mapping(t->properties()["schema.name-mapping.default"]));
  ASSERT_EQ(mapping.size(), 4u);
  EXPECT_EQ(mapping[2].field_id, 3);
  EXPECT_EQ(mapping[2].names, (std::vector<std::string>{"value", "amount"}));
  EXPECT_EQ(mapping[3].field_id, 4);
  EXPECT_EQ(mapping[3].names, (std::vector<std::string>{"point"}));
  ASSERT_EQ(mapping[3].fields.size(), 1u);
  EXPECT_EQ(mapping[3].fields[0].field_id, 5);
  // A new column named like an old name takes that name from the old entry.
  ASSERT_OK(t->update_schema().add_column("value", Type::string()).commit());
  mapping = must(parse_name_mapping(t->properties()["schema.name-mapping.default"]));
  EXPECT_EQ(mapping[2].names, (std::vector<std::string>{"amount"}));
  EXPECT_EQ(mapping.back().names, (std::vector<std::string>{"value"}));
  EXPECT_EQ(mapping.back().field_id, 6);
}

TEST_F(UpdateSchemaTest, CaseInsensitiveNames) {
  auto t = create();
  ASSERT_OK(t->update_schema().case_sensitive(false).rename_column("VALUE", "Amount").commit());
  EXPECT_EQ(id_of(*t, "Amount"), 3);
  EXPECT_EQ(error(t->update_schema().rename_column("amount", "x").commit()),
            "Cannot rename missing column: amount");
  EXPECT_EQ(
      error(t->update_schema().case_sensitive(false).add_column("AMOUNT", Type::int32()).commit()),
      "Cannot add column, name already exists: AMOUNT");
  EXPECT_EQ(error(t->update_schema()
                      .case_sensitive(false)
                      .add_column("ID2", Type::int32())
                      .add_column("id2", Type::int32())
                      .commit()),
            "Cannot add column, name already exists: id2");
}

TEST_F(UpdateSchemaTest, ApplyPreviewsWithoutStaging) {
  auto t = create();
  UpdateSchema u = t->update_schema();
  u.add_column("c", Type::int32());
  auto preview = must(u.apply());
  EXPECT_EQ(preview->fields().size(), 4u);
  EXPECT_EQ(t->metadata()->schemas.size(), 1u);
  ASSERT_OK(u.commit());
  EXPECT_EQ(error(u.commit()), "schema update already committed");
}

TEST_F(UpdateSchemaTest, TransactionCommitsSchemaAndDataTogether) {
  auto t = create();
  Transaction txn = t->new_transaction();
  ASSERT_OK(txn.update_schema().add_column("c", Type::int32()).commit());
  ASSERT_OK(txn.update_properties().set("k", "v").commit());
  ASSERT_OK(txn.new_append().append_file(file("a", "x", 10)).commit());
  EXPECT_EQ(t->metadata()->schemas.size(), 1u);  // nothing committed yet
  ASSERT_OK(txn.commit());
  EXPECT_EQ(t->metadata()->current_schema_id, 1);
  EXPECT_EQ(t->properties()["k"], "v");
  // The snapshot records the schema it was written with.
  EXPECT_EQ(t->metadata()->current_snapshot()->schema_id, std::optional<int32_t>(1));
}

TEST_F(UpdateSchemaTest, ConcurrentSchemaChangeIsAConflictOtherCommitsRetry) {
  auto t = create();
  auto other = must(Table::load(catalog, id));
  // A concurrent append: the schema update re-applies on the new base.
  Transaction txn = t->new_transaction();
  ASSERT_OK(txn.update_schema().add_column("c", Type::int32()).commit());
  ASSERT_OK(other->new_append().append_file(file("a", "x", 10)).commit());
  ASSERT_OK(txn.commit());
  EXPECT_EQ(id_of(*t, "c"), 4);
  EXPECT_EQ(live_files(*t).size(), 1u);
  // A concurrent schema change: the names may mean other columns now.
  ASSERT_OK(other->refresh());
  Transaction txn2 = t->new_transaction();
  ASSERT_OK(txn2.update_schema().add_column("d", Type::int32()).commit());
  ASSERT_OK(other->update_schema().rename_column("c", "e").commit());
  Status s = txn2.commit();
  EXPECT_EQ(s.kind(), ErrorKind::kCommitConflict) << s.to_string();
  ASSERT_OK(t->refresh());
  EXPECT_EQ(schema(*t).find_field("d"), nullptr);
  EXPECT_EQ(id_of(*t, "e"), 4);
}

}  // namespace
}  // namespace floe::testing
