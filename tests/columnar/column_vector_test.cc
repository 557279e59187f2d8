// ColumnVector builders, validity, literals and JSON; Arrow C Data Interface export of batches
// and streams (formats, buffers shared with the columns, release callbacks).
#include "floe/columnar/column_vector.h"

#include <gtest/gtest.h>

#include <cstring>

#include "floe/columnar/arrow.h"
#include "test_support.h"

namespace floe {
namespace {

using test_support::field;

ColumnBatch sample_batch() {
  std::vector<NestedField> fields = {
      field(1, "id", Type::int64(), true),
      field(2, "ok", Type::boolean()),
      field(3, "name", Type::string()),
      field(4, "price", Type::decimal(9, 2)),
      field(5, "tags", Type::list_of(6, Type::string(), false)),
      field(7, "attrs", Type::map_of(8, Type::string(), 9, Type::int32(), false)),
      field(10, "pt",
            Type::struct_of({field(11, "x", Type::float64()), field(12, "y", Type::float64())})),
      field(13, "ts", Type::timestamptz()),
  };
  ColumnBatch b = ColumnBatch::make(fields);
  for (int i = 0; i < 3; ++i) {
    b.columns[0]->append_fixed<int64_t>(i);
    if (i == 1) {
      b.columns[1]->append_null();
      b.columns[2]->append_null();
      b.columns[4]->append_null();
      b.columns[6]->append_null();
    } else {
      b.columns[1]->append_bool(i == 2);
      b.columns[2]->append_bytes(i == 0 ? "a\"b" : "c");
      b.columns[4]->child(0).append_bytes("t");
      b.columns[4]->child(0).append_null();
      b.columns[4]->append_list(2);
      b.columns[6]->child(0).append_fixed<double>(1.5);
      b.columns[6]->child(1).append_fixed<double>(NAN);
      b.columns[6]->append_struct();
    }
    b.columns[3]->append_fixed<int128_t>(1420 + i);
    b.columns[5]->child(0).append_bytes("k");
    b.columns[5]->child(1).append_fixed<int32_t>(i);
    b.columns[5]->append_list(1);
    b.columns[7]->append_fixed<int64_t>(1510871468123456LL);
  }
  b.num_rows = 3;
  return b;
}

TEST(ColumnVector, BuildersKeepValidityOffsetsAndLength) {
  ColumnBatch b = sample_batch();
  const ColumnVector& name = *b.columns[2];
  EXPECT_EQ(name.length(), 3);
  EXPECT_EQ(name.null_count(), 1);
  EXPECT_TRUE(name.is_null(1));
  EXPECT_EQ(name.bytes_at(0), "a\"b");
  EXPECT_EQ(name.bytes_at(1), "");
  EXPECT_EQ(name.bytes_at(2), "c");
  const ColumnVector& tags = *b.columns[4];
  EXPECT_EQ(tags.list_begin(1), tags.list_end(1));
  EXPECT_EQ(tags.child(0).length(), 4);
  EXPECT_EQ(b.columns[6]->child(0).length(), 3);  // a null struct still has child slots
  EXPECT_EQ(b.columns[3]->literal_at(0).to_string(), "14.20");
  EXPECT_EQ(b.find(13), 7);
  ColumnVector copy(Type::int32());
  ASSERT_TRUE(copy.append_literal(Literal::int32(5)).ok());
  ASSERT_TRUE(copy.append_literal(Literal::null(Type::int32())).ok());
  EXPECT_EQ(copy.literal_at(0), Literal::int32(5));
  EXPECT_TRUE(copy.literal_at(1).is_null());
}

TEST(ColumnVector, JsonRows) {
  ColumnBatch b = sample_batch();
  std::string line;
  write_row_json(b, 0, JsonOptions(), &line);
  EXPECT_EQ(line,
            R"({"id":0,"ok":false,"name":"a\"b","price":"14.20","tags":["t",null],"attrs":{"k":0},)"
            R"("pt":{"x":1.5,"y":"NaN"},"ts":"2017-11-16T22:31:08.123456+00:00"})");
  line.clear();
  JsonOptions arrays;
  arrays.rows_as_arrays = true;
  arrays.maps_as_pairs = true;
  arrays.tz_suffix = false;
  write_row_json(b, 1, arrays, &line);
  EXPECT_EQ(
      line,
      R"([1,null,null,"14.21",null,[{"key":"k","value":1}],null,"2017-11-16T22:31:08.123456"])");
}

TEST(ArrowExport, BatchSharesBuffersAndReleases) {
  ColumnBatch b = sample_batch();
  ArrowSchema schema;
  ASSERT_TRUE(export_arrow_schema(b.fields, &schema).ok());
  EXPECT_STREQ(schema.format, "+s");
  ASSERT_EQ(schema.n_children, 8);
  EXPECT_STREQ(schema.children[0]->format, "l");
  EXPECT_EQ(schema.children[0]->flags & ARROW_FLAG_NULLABLE, 0);
  EXPECT_STREQ(schema.children[1]->format, "b");
  EXPECT_STREQ(schema.children[2]->format, "u");
  EXPECT_STREQ(schema.children[3]->format, "d:9,2");
  EXPECT_STREQ(schema.children[4]->format, "+l");
  EXPECT_STREQ(schema.children[4]->children[0]->name, "element");
  EXPECT_STREQ(schema.children[5]->format, "+m");
  EXPECT_STREQ(schema.children[5]->children[0]->format, "+s");
  EXPECT_STREQ(schema.children[5]->children[0]->children[0]->name, "key");
  EXPECT_STREQ(schema.children[7]->format, "tsu:UTC");
  // Field id metadata: 1 pair, "PARQUET:field_id" -> "1".
  const char* md = schema.children[0]->metadata;
  ASSERT_NE(md, nullptr);
  int32_t pairs, klen;
  std::memcpy(&pairs, md, 4);
  std::memcpy(&klen, md + 4, 4);
  EXPECT_EQ(pairs, 1);
  EXPECT_EQ(std::string(md + 8, klen), "PARQUET:field_id");
  schema.release(&schema);
  EXPECT_EQ(schema.release, nullptr);

  ArrowArray array;
  ASSERT_TRUE(export_arrow_array(b, &array).ok());
  EXPECT_EQ(array.length, 3);
  ASSERT_EQ(array.n_children, 8);
  ArrowArray* id = array.children[0];
  EXPECT_EQ(id->buffers[0], nullptr);                        // no nulls, no bitmap
  EXPECT_EQ(id->buffers[1], b.columns[0]->values().data());  // zero copy
  ArrowArray* ok = array.children[1];
  EXPECT_EQ(ok->null_count, 1);
  EXPECT_EQ(static_cast<const uint8_t*>(ok->buffers[1])[0] & 0x5, 0x4);  // bits: false, -, true
  ArrowArray* name = array.children[2];
  EXPECT_EQ(name->n_buffers, 3);
  EXPECT_EQ(static_cast<const int32_t*>(name->buffers[1])[3], 4);
  ArrowArray* attrs = array.children[5];
  EXPECT_EQ(attrs->children[0]->length, 3);
  EXPECT_EQ(attrs->children[0]->n_children, 2);
  // The array keeps the columns alive after the batch is gone.
  b = ColumnBatch();
  EXPECT_EQ(static_cast<const int64_t*>(array.children[0]->buffers[1])[2], 2);
  array.release(&array);
  EXPECT_EQ(array.release, nullptr);
}

TEST(ArrowExport, StreamYieldsBatchesThenEnd) {
  int produced = 0;
  ColumnBatch proto = sample_batch();
  ArrowArrayStream stream;
  ASSERT_TRUE(export_arrow_stream(
                  proto.fields,
                  [&]() -> Result<std::optional<ColumnBatch>> {
                    if (produced == 2) return std::optional<ColumnBatch>();
                    ++produced;
                    return std::optional<ColumnBatch>(sample_batch());
                  },
                  &stream)
                  .ok());
  ArrowSchema schema;
  ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
  EXPECT_EQ(schema.n_children, 8);
  schema.release(&schema);
  int batches = 0;
  while (true) {
    ArrowArray a;
    ASSERT_EQ(stream.get_next(&stream, &a), 0);
    if (a.release == nullptr) break;
    EXPECT_EQ(a.length, 3);
    a.release(&a);
    ++batches;
  }
  EXPECT_EQ(batches, 2);
  EXPECT_EQ(stream.get_last_error(&stream), nullptr);
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);

  ArrowArrayStream failing;
  ASSERT_TRUE(export_arrow_stream(
                  proto.fields,
                  []() -> Result<std::optional<ColumnBatch>> { return invalid_data("boom"); },
                  &failing)
                  .ok());
  ArrowArray a;
  EXPECT_NE(failing.get_next(&failing, &a), 0);
  EXPECT_NE(std::string(failing.get_last_error(&failing)).find("boom"), std::string::npos);
  failing.release(&failing);
}

}  // namespace
}  // namespace floe
