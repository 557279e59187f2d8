// Avro data files read into columns: every Iceberg type written by floe's AvroDataWriter over
// several blocks, a file written by python3-avro (unions with null last, no floe involved),
// projection and reordering, missing fields, promotions, name mapping, corrupt input.
#include "floe/format/avro/data_reader.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "floe/write/avro_data_writer.h"
#include "test_support.h"

namespace floe::avro {
namespace {

using test_support::field;
using test_support::TempDir;

std::vector<NestedField> all_fields() {
  return {
      field(1, "id", Type::int64(), true),
      field(2, "flag", Type::boolean()),
      field(3, "i", Type::int32()),
      field(4, "f", Type::float32()),
      field(5, "d", Type::float64()),
      field(6, "dec", Type::decimal(9, 2)),
      field(7, "wide", Type::decimal(38, 6), true),
      field(8, "day", Type::date()),
      field(9, "t", Type::time()),
      field(10, "ts", Type::timestamp()),
      field(11, "tstz", Type::timestamptz()),
      field(12, "tsns", Type::timestamp_ns()),
      field(13, "tstzns", Type::timestamptz_ns()),
      field(14, "s", Type::string()),
      field(15, "u", Type::uuid()),
      field(16, "fx", Type::fixed(3)),
      field(17, "bin", Type::binary()),
      field(18, "point",
            Type::struct_of(
                {field(19, "x", Type::float64(), true), field(20, "label", Type::string()),
                 field(21, "inner", Type::struct_of({field(22, "n", Type::int32())}))})),
      field(23, "tags", Type::list_of(24, Type::string(), false)),
      field(
          25, "attrs",
          Type::map_of(field(26, "key", Type::string(), true), field(27, "value", Type::int64()))),
      field(
          28, "by_int",
          Type::map_of(field(29, "key", Type::int32(), true), field(30, "value", Type::string()))),
      field(31, "pts",
            Type::list_of(32,
                          Type::struct_of({field(33, "a", Type::int32(), true),
                                           field(34, "b", Type::string())}),
                          false)),
  };
}

// Row r of the all-types table; every optional column is null on some rows.
ColumnBatch all_batch(int rows) {
  ColumnBatch b = ColumnBatch::make(all_fields());
  auto& c = b.columns;
  for (int r = 0; r < rows; ++r) {
    bool null = r % 5 == 3;
    c[0]->append_fixed<int64_t>(int64_t{1} << 40 | r);
    null ? c[1]->append_null() : c[1]->append_bool(r % 2 == 0);
    null ? c[2]->append_null() : c[2]->append_fixed<int32_t>(r * (r % 2 ? -7 : 7));
    null ? c[3]->append_null() : c[3]->append_fixed<float>(r * 0.5f);
    null ? c[4]->append_null() : c[4]->append_fixed<double>(r * -1.25);
    null ? c[5]->append_null() : c[5]->append_fixed<int128_t>(r % 2 ? -r * 1001 : r * 1001);
    c[6]->append_fixed<int128_t>(static_cast<int128_t>(-123456789012345678LL) * 1000000000 + r);
    null ? c[7]->append_null() : c[7]->append_fixed<int32_t>(19000 + r);
    null ? c[8]->append_null() : c[8]->append_fixed<int64_t>(3600000000LL + r);
    null ? c[9]->append_null() : c[9]->append_fixed<int64_t>(1700000000000000LL + r);
    null ? c[10]->append_null() : c[10]->append_fixed<int64_t>(-1700000000000000LL + r);
    null ? c[11]->append_null() : c[11]->append_fixed<int64_t>(1700000000000000123LL + r);
    null ? c[12]->append_null() : c[12]->append_fixed<int64_t>(-r);
    null ? c[13]->append_null() : c[13]->append_bytes(fmt::format("row-{}-é", r));
    std::string u(16, static_cast<char>(r));
    u[0] = static_cast<char>(0xf0);
    null ? c[14]->append_null() : c[14]->append_bytes(u);
    null ? c[15]->append_null() : c[15]->append_bytes(std::string("a\0b", 3));
    null ? c[16]->append_null() : c[16]->append_bytes(std::string(r % 4, '\xff'));
    ColumnVector& p = *c[17];
    if (r % 7 == 6) {
      p.append_null();
    } else {
      p.child(0).append_fixed<double>(r + 0.25);
      r % 3 ? p.child(1).append_bytes("lbl") : p.child(1).append_null();
      ColumnVector& in = p.child(2);
      if (r % 4 == 1) {
        in.append_null();
      } else {
        in.child(0).append_fixed<int32_t>(r);
        in.append_struct();
      }
      p.append_struct();
    }
    ColumnVector& tags = *c[18];
    if (r % 6 == 5) {
      tags.append_null();
    } else {
      for (int k = 0; k < r % 4; ++k) {
        k == 1 ? tags.child(0).append_null() : tags.child(0).append_bytes(fmt::format("t{}", k));
      }
      tags.append_list(r % 4);
    }
    ColumnVector& attrs = *c[19];
    for (int k = 0; k < r % 3; ++k) {
      attrs.child(0).append_bytes(fmt::format("k{}", k));
      k == 0 ? attrs.child(1).append_fixed<int64_t>(r * 10 + k) : attrs.child(1).append_null();
    }
    attrs.append_list(r % 3);
    ColumnVector& by_int = *c[20];
    if (null) {
      by_int.append_null();
    } else {
      by_int.child(0).append_fixed<int32_t>(r);
      by_int.child(1).append_bytes("v");
      by_int.append_list(1);
    }
    ColumnVector& pts = *c[21];
    for (int k = 0; k < 2; ++k) {
      ColumnVector& e = pts.child(0);
      if (r % 2 && k == 1) {
        e.append_null();
      } else {
        e.child(0).append_fixed<int32_t>(k);
        e.child(1).append_bytes("b");
        e.append_struct();
      }
    }
    pts.append_list(2);
  }
  b.num_rows = rows;
  return b;
}

std::vector<std::string> rows_of(const ColumnBatch& b) {
  std::vector<std::string> out;
  JsonOptions o;
  for (int64_t r = 0; r < b.num_rows; ++r) {
    std::string s;
    write_row_json(b, r, o, &s);
    out.push_back(std::move(s));
  }
  return out;
}

struct Read {
  std::vector<std::string> rows;
  std::vector<NestedField> present;
  int batches = 0;
};

Result<Read> read_back(FileIOPtr io, const std::string& path, std::vector<NestedField> fields,
                       DataReaderOptions options = {}) {
  auto reader = FLOE_TRY(DataReader::open(io, path, std::move(fields), options));
  Read out;
  out.present = reader->present_fields();
  int64_t expected_first = 0;
  while (true) {
    auto b = FLOE_TRY(reader->next_batch());
    if (!b) break;
    EXPECT_EQ(reader->batch_first_row(), expected_first);
    expected_first += b->num_rows;
    for (const auto& col : b->columns) EXPECT_EQ(col->length(), b->num_rows);
    for (auto& r : rows_of(*b)) out.rows.push_back(std::move(r));
    ++out.batches;
  }
  return out;
}

std::string write_file(FileIOPtr io, const std::string& path, const ColumnBatch& batch,
                       ContainerWriterOptions container) {
  Schema schema(0, batch.fields);
  auto w = AvroDataWriter::open(io, path, schema, MetricsConfig(), container);
  EXPECT_TRUE(w.ok()) << w.status().to_string();
  EXPECT_TRUE((*w)->write(batch).ok());
  auto m = (*w)->close();
  EXPECT_TRUE(m.ok()) << m.status().to_string();
  return path;
}

TEST(AvroDataReader, EveryTypeRoundTripsOverSeveralBlocks) {
  for (Codec codec : {Codec::kNull, Codec::kDeflate, Codec::kZstd}) {
    SCOPED_TRACE(codec_name(codec));
    auto io = make_memory_file_io();
    ColumnBatch in = all_batch(200);
    ContainerWriterOptions co;
    co.codec = codec;
    co.block_size = 1024;
    write_file(io, "mem://t/all.avro", in, co);
    auto got = read_back(io, "mem://t/all.avro", all_fields());
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_GT(got->batches, 3);
    EXPECT_EQ(got->present.size(), all_fields().size());
    EXPECT_EQ(got->rows, rows_of(in));
    // Windowed reading (windows smaller than some blocks) returns the same rows.
    for (int64_t window : {700, 3000}) {
      DataReaderOptions options;
      options.window_bytes = window;
      auto windowed = read_back(io, "mem://t/all.avro", all_fields(), options);
      ASSERT_TRUE(windowed.ok()) << windowed.status().to_string();
      EXPECT_EQ(windowed->batches, got->batches);
      EXPECT_EQ(windowed->rows, got->rows);
    }
  }
}

TEST(AvroDataReader, ProjectsSubsetsReordersAndFillsMissingNestedFields) {
  auto io = make_memory_file_io();
  ColumnBatch in = all_batch(50);
  ContainerWriterOptions co;
  co.block_size = 512;
  write_file(io, "mem://t/p.avro", in, co);
  // Reordered subset; a struct read with one child dropped, one renamed, one new; a column the
  // file lacks.
  NestedField added = field(100, "added", Type::string());
  added.initial_default = Literal::string("dflt");
  std::vector<NestedField> want = {
      field(14, "s", Type::string()),
      field(999, "not_in_file", Type::int32()),
      field(18, "point",
            Type::struct_of({field(20, "renamed", Type::string()), added,
                             field(19, "x", Type::float64(), true)})),
      field(1, "id", Type::int64(), true),
  };
  auto got = read_back(io, "mem://t/p.avro", want);
  ASSERT_TRUE(got.ok()) << got.status().to_string();
  ASSERT_EQ(got->present.size(), 3u);
  EXPECT_EQ(got->present[0].id, 14);
  EXPECT_EQ(got->present[1].id, 18);
  EXPECT_EQ(got->present[2].id, 1);
  ASSERT_EQ(got->rows.size(), 50u);
  EXPECT_EQ(got->rows[0], R"({"s":"row-0-é","point":{"renamed":null,"added":"dflt","x":0.25},)"
                          R"("id":1099511627776})");
  EXPECT_EQ(got->rows[3], R"({"s":null,"point":{"renamed":null,"added":"dflt","x":3.25},)"
                          R"("id":1099511627779})");
  EXPECT_EQ(got->rows[4], R"({"s":"row-4-é","point":{"renamed":"lbl","added":"dflt","x":4.25},)"
                          R"("id":1099511627780})");
  EXPECT_EQ(got->rows[6], R"({"s":"row-6-é","point":null,"id":1099511627782})");
}

TEST(AvroDataReader, ARepeatedFieldIsReadOnce) {
  auto io = make_memory_file_io();
  write_file(io, "mem://t/r.avro", all_batch(5), {});
  auto got =
      read_back(io, "mem://t/r.avro", {field(3, "i", Type::int32()), field(3, "i", Type::int32())});
  ASSERT_TRUE(got.ok()) << got.status().to_string();
  ASSERT_EQ(got->present.size(), 1u);
  EXPECT_EQ(got->rows[1], R"({"i":-7})");
}

TEST(AvroDataReader, AnObjectCountBeyondTheBlockIsCorrupt) {
  const char* schema = R"({"type":"record","name":"r","fields":[{"name":"a","type":"long"}]})";
  ContainerWriterOptions co;
  co.codec = Codec::kNull;
  ContainerWriter w(std::string(schema), {}, co);
  for (int i = 0; i < 3; ++i) {
    w.encoder().write_long(i);
    ASSERT_TRUE(w.end_object().ok());
  }
  std::string bytes = *w.finish();
  auto container = ContainerReader::open(bytes, "x");
  ASSERT_TRUE(container.ok());
  ASSERT_TRUE((*container)->next_block().ok());
  size_t at = (*container)->block_offset();
  ASSERT_EQ(bytes[at], '\x06');  // zigzag 3
  // 2^40 objects claimed by a 3-byte block.
  Encoder e;
  e.write_long(int64_t{1} << 40);
  std::string huge = e.buffer();
  bytes.replace(at, 1, huge);
  auto io = make_memory_file_io();
  ASSERT_TRUE(io->write_file("mem://t/huge.avro", bytes).ok());
  auto got = read_back(io, "mem://t/huge.avro", {field(1, "a", Type::int64())});
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("mem://t/huge.avro"), std::string::npos)
      << got.status().to_string();
}

TEST(AvroDataReader, PromotesIntToLongAndFloatToDouble) {
  auto io = make_memory_file_io();
  ColumnBatch in = all_batch(10);
  write_file(io, "mem://t/x.avro", in, {});
  auto got = read_back(io, "mem://t/x.avro",
                       {field(3, "i", Type::int64()), field(4, "f", Type::float64()),
                        field(6, "dec", Type::decimal(12, 2))});
  ASSERT_TRUE(got.ok()) << got.status().to_string();
  ASSERT_EQ(got->rows.size(), 10u);
  EXPECT_EQ(got->rows[1], R"({"i":-7,"f":0.5,"dec":"-10.01"})");
  EXPECT_EQ(got->rows[3], R"({"i":null,"f":null,"dec":null})");
  // Narrowing is refused with the file and field named.
  auto bad = read_back(io, "mem://t/x.avro", {field(1, "id", Type::int32(), true)});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("mem://t/x.avro"), std::string::npos);
  EXPECT_NE(bad.status().message().find("'id'"), std::string::npos);
}

TEST(AvroDataReader, ByteRangeSplitsReadEveryBlockOnceWithFileRowPositions) {
  auto io = make_memory_file_io();
  ColumnBatch in = all_batch(120);
  ContainerWriterOptions co;
  co.block_size = 600;
  write_file(io, "mem://t/s.avro", in, co);
  const int64_t size = *io->file_size("mem://t/s.avro");
  std::vector<std::string> want = rows_of(in);
  std::vector<std::string> got(want.size());
  int64_t seen = 0;
  int splits_with_rows = 0;
  for (int64_t start = 0; start < size; start += 1000) {
    DataReaderOptions options;
    options.split_start = start;
    options.split_length = 1000;
    options.window_bytes = start % 2000 == 0 ? 900 : 16 << 20;  // windowed for some splits
    auto reader = DataReader::open(io, "mem://t/s.avro", all_fields(), options);
    ASSERT_TRUE(reader.ok()) << reader.status().to_string();
    bool any = false;
    while (true) {
      auto b = (*reader)->next_batch();
      ASSERT_TRUE(b.ok()) << b.status().to_string();
      if (!*b) break;
      any = true;
      auto rows = rows_of(**b);
      for (size_t i = 0; i < rows.size(); ++i) {
        size_t pos = static_cast<size_t>((*reader)->batch_first_row()) + i;
        ASSERT_LT(pos, got.size());
        EXPECT_TRUE(got[pos].empty()) << "row " << pos << " read twice";
        got[pos] = rows[i];
        ++seen;
      }
    }
    splits_with_rows += any;
  }
  EXPECT_EQ(seen, 120);
  EXPECT_EQ(got, want);
  EXPECT_GT(splits_with_rows, 2);
}

TEST(AvroDataReader, TimeMillisAndTimestampMillisBecomeMicros) {
  // Hand-built container: time-millis int and timestamp-millis long, written by no Iceberg
  // writer but legal Avro.
  const char* schema = R"({"type":"record","name":"r","fields":[
    {"name":"t","type":{"type":"int","logicalType":"time-millis"},"field-id":1},
    {"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"},"field-id":2},
    {"name":"d","type":["null",{"type":"bytes","logicalType":"decimal","precision":9,"scale":3}],
     "field-id":3}]})";
  ContainerWriter w(std::string(schema), {});
  w.encoder().write_int(1500);
  w.encoder().write_long(1700000000123LL);
  w.encoder().write_branch(1);
  w.encoder().write_bytes(std::string("\xff\x85", 2));  // -123
  ASSERT_TRUE(w.end_object().ok());
  auto bytes = w.finish();
  ASSERT_TRUE(bytes.ok());
  auto io = make_memory_file_io();
  ASSERT_TRUE(io->write_file("mem://t/m.avro", *bytes).ok());
  auto got = read_back(io, "mem://t/m.avro",
                       {field(1, "t", Type::time()), field(2, "ts", Type::timestamp()),
                        field(3, "d", Type::decimal(9, 3))});
  ASSERT_TRUE(got.ok()) << got.status().to_string();
  ASSERT_EQ(got->rows.size(), 1u);
  EXPECT_EQ(got->rows[0],
            R"({"t":"00:00:01.500000","ts":"2023-11-14T22:13:20.123000","d":"-0.123"})");
  // A different decimal scale is refused rather than misread.
  auto bad = read_back(io, "mem://t/m.avro", {field(3, "d", Type::decimal(9, 2))});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("scale 3"), std::string::npos) << bad.status().to_string();
}

TEST(AvroDataReader, CorruptOrTruncatedFilesFailCleanly) {
  auto io = make_memory_file_io();
  ColumnBatch in = all_batch(60);
  ContainerWriterOptions co;
  co.codec = Codec::kNull;  // so flipped bytes reach the decoder
  co.block_size = 700;
  write_file(io, "mem://t/c.avro", in, co);
  std::string bytes = *io->read_file("mem://t/c.avro");
  int failures = 0;
  for (size_t len = 0; len < bytes.size(); len += 37) {
    ASSERT_TRUE(
        io->write_file("mem://t/trunc.avro", bytes.substr(0, len), WriteMode::kOverwrite).ok());
    DataReaderOptions options;
    options.window_bytes = len % 2 ? 500 : 16 << 20;
    auto got = read_back(io, "mem://t/trunc.avro", all_fields(), options);
    if (!got.ok()) {
      ++failures;
      EXPECT_NE(got.status().message().find("mem://t/trunc.avro"), std::string::npos)
          << got.status().to_string();
    }
  }
  EXPECT_GT(failures, 10);
  // Garbage inside blocks: an error or (rarely) different values, never a crash.
  auto container = ContainerReader::open(bytes, "c.avro");
  ASSERT_TRUE(container.ok());
  ASSERT_TRUE((*container)->next_block().ok());
  size_t header = (*container)->block_offset();
  int corrupt_errors = 0, windowed_errors = 0;
  for (size_t pos = header; pos < bytes.size(); pos += 53) {
    std::string bad = bytes;
    bad[pos] = static_cast<char>(bad[pos] ^ 0x5a);
    bad[pos + 1 < bad.size() ? pos + 1 : pos] = '\x81';
    ASSERT_TRUE(io->write_file("mem://t/bad.avro", bad, WriteMode::kOverwrite).ok());
    DataReaderOptions options;
    options.window_bytes = pos % 2 ? 500 : 16 << 20;
    auto got = read_back(io, "mem://t/bad.avro", all_fields(), options);
    if (!got.ok()) {
      ++corrupt_errors;
      const std::string& msg = got.status().message();
      EXPECT_NE(msg.find("offset"), std::string::npos) << msg;
      // Windowed: the window's offsets are relative, so the file offset is named as well.
      if (options.window_bytes == 500 && msg.find("block") != std::string::npos) {
        EXPECT_NE(msg.find("block at file offset"), std::string::npos) << msg;
        ++windowed_errors;
      }
    }
  }
  EXPECT_GT(corrupt_errors, 0);
  EXPECT_GT(windowed_errors, 0);
}

// ---- a file written by python3-avro

const char* kPythonWriter = R"PY(
import sys, json, uuid, decimal
import avro.schema, avro.datafile, avro.io
schema = avro.schema.parse(json.dumps({
  "type": "record", "name": "table", "fields": [
    {"name": "id", "type": "int", "field-id": 1},
    {"name": "name", "type": ["string", "null"], "field-id": 2},
    {"name": "score", "type": ["null", "float"], "default": None, "field-id": 3},
    {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10,
                                 "scale": 2}, "field-id": 4},
    {"name": "uid", "type": {"type": "string", "logicalType": "uuid"}, "field-id": 5},
    {"name": "ignored", "type": {"type": "array", "items": "long"}, "field-id": 6},
    {"name": "nested", "type": ["null", {"type": "record", "name": "r7", "fields": [
        {"name": "a", "type": "long", "field-id": 8},
        {"name": "m", "type": {"type": "map", "values": ["int", "null"], "key-id": 10,
                               "value-id": 11}, "field-id": 9}]}], "field-id": 7},
    {"name": "noid", "type": "string"},
    {"name": "multi", "type": ["int", "null", "long"], "field-id": 12},
    {"name": "kv", "type": {"type": "array", "logicalType": "map", "items": {
        "type": "record", "name": "k14_v15", "fields": [
            {"name": "key", "type": "int", "field-id": 14},
            {"name": "value", "type": ["null", "string"], "field-id": 15}]}}, "field-id": 13}
  ]}))
w = avro.datafile.DataFileWriter(open(sys.argv[1], "wb"), avro.io.DatumWriter(), schema,
                                 codec="deflate")
for i in range(5):
    w.append({"id": i, "name": None if i == 2 else "n%d" % i,
              "score": None if i % 2 else i / 2.0,
              "amount": decimal.Decimal("-1.25") * i + decimal.Decimal("0.01"),
              "uid": "12345678-1234-5678-9abc-def01234567%d" % i,
              "ignored": list(range(i)),
              "nested": None if i == 4 else {"a": i * 100, "m": {"x": i, "y": None}},
              "noid": "plain%d" % i,
              "multi": None if i == 1 else (i if i % 2 else 2**40 + i),
              "kv": [{"key": i, "value": "v"}, {"key": -i, "value": None}][:i % 3]})
w.close()
)PY";

TEST(AvroDataReader, ReadsAFileWrittenByPython3Avro) {
  TempDir dir;
  std::string script = (dir.path / "w.py").string();
  std::string file = (dir.path / "py.avro").string();
  std::ofstream(script) << kPythonWriter;
  int rc = std::system(("/usr/bin/python3 " + script + " " + file).c_str());
  ASSERT_EQ(rc, 0) << "python3-avro failed";
  auto io = make_local_file_io();
  std::vector<NestedField> want = {
      field(7, "nested",
            Type::struct_of({field(8, "a", Type::int64(), true),
                             field(9, "m",
                                   Type::map_of(field(10, "key", Type::string(), true),
                                                field(11, "value", Type::int64())))})),
      field(5, "uid", Type::uuid()),
      field(4, "amount", Type::decimal(10, 2), true),
      field(3, "score", Type::float64()),
      field(2, "name", Type::string()),
      field(1, "id", Type::int64(), true),
      field(50, "noid", Type::string()),
  };
  auto got = read_back(io, file, want);
  ASSERT_TRUE(got.ok()) << got.status().to_string();
  ASSERT_EQ(got->rows.size(), 5u);
  EXPECT_EQ(
      got->rows[0],
      R"({"nested":{"a":0,"m":{"x":0,"y":null}},"uid":"12345678-1234-5678-9abc-def012345670",)"
      R"("amount":"0.01","score":0,"name":"n0","id":0,"noid":"plain0"})");
  EXPECT_EQ(
      got->rows[2],
      R"({"nested":{"a":200,"m":{"x":2,"y":null}},"uid":"12345678-1234-5678-9abc-def012345672",)"
      R"("amount":"-2.49","score":1,"name":null,"id":2,"noid":"plain2"})");
  EXPECT_EQ(got->rows[4], R"({"nested":null,"uid":"12345678-1234-5678-9abc-def012345674",)"
                          R"("amount":"-4.99","score":2,"name":"n4","id":4,"noid":"plain4"})");

  auto extra = read_back(
      io, file,
      {field(12, "multi", Type::int64()), field(13, "kv",
                                                Type::map_of(field(14, "key", Type::int32(), true),
                                                             field(15, "value", Type::string())))});
  ASSERT_TRUE(extra.ok()) << extra.status().to_string();
  ASSERT_EQ(extra->rows.size(), 5u);
  EXPECT_EQ(extra->rows[0], R"({"multi":1099511627776,"kv":[]})");
  EXPECT_EQ(extra->rows[1], R"({"multi":null,"kv":[{"key":1,"value":"v"}]})");
  EXPECT_EQ(extra->rows[2],
            R"({"multi":1099511627778,"kv":[{"key":2,"value":"v"},{"key":-2,"value":null}]})");
  EXPECT_EQ(extra->rows[3], R"({"multi":3,"kv":[]})");

  // Name mapping: the id-less field gets its id from the mapping, not from its name.
  DataReaderOptions options;
  options.name_mapping = R"([{"field-id": 60, "names": ["noid"]}])";
  auto mapped = read_back(
      io, file, {field(60, "renamed", Type::string()), field(50, "noid", Type::string())}, options);
  ASSERT_TRUE(mapped.ok()) << mapped.status().to_string();
  ASSERT_EQ(mapped->present.size(), 1u);
  EXPECT_EQ(mapped->present[0].id, 60);
  EXPECT_EQ(mapped->rows[1], R"({"renamed":"plain1"})");
}

}  // namespace
}  // namespace floe::avro
