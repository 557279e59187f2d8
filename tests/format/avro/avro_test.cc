// Avro schema JSON, binary encoding, and object container files (all codecs, corrupt input).
#include <gtest/gtest.h>

#include "floe/format/avro/binary.h"
#include "floe/format/avro/container.h"
#include "floe/format/avro/generic.h"
#include "floe/format/avro/schema.h"

namespace floe::avro {
namespace {

const char* kSchema = R"({"type":"record","name":"manifest_entry","fields":[
  {"name":"status","type":"int","field-id":0},
  {"name":"snapshot_id","type":["null","long"],"default":null,"field-id":1},
  {"name":"stats","type":["null",{"type":"array","items":{"type":"record","name":"k117_v118",
    "fields":[{"name":"key","type":"int","field-id":117},{"name":"value","type":"long","field-id":118}]},
    "logicalType":"map"}],"default":null,"field-id":108},
  {"name":"tags","type":{"type":"map","values":"string","key-id":7,"value-id":8},"field-id":6},
  {"name":"ids","type":{"type":"array","items":"int","element-id":136},"field-id":135},
  {"name":"u","type":{"type":"fixed","name":"uuid_fixed","size":16,"logicalType":"uuid"},"field-id":9},
  {"name":"ts","type":{"type":"long","logicalType":"timestamp-micros","adjust-to-utc":true},"field-id":10},
  {"name":"e","type":{"type":"enum","name":"color","symbols":["RED","GREEN"]}},
  {"name":"again","type":["null","k117_v118"],"default":null},
  {"name":"f","type":"float"},{"name":"d","type":"double"},{"name":"b","type":"bytes"},
  {"name":"flag","type":"boolean"}]})";

TEST(AvroSchemaTest, ParsesIdsAndKeepsAttributes) {
  auto s = parse_avro_schema(kSchema);
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  const Node& root = s->root();
  EXPECT_EQ(root.type, AvroType::kRecord);
  EXPECT_EQ(root.name, "manifest_entry");
  ASSERT_EQ(root.fields.size(), 13u);
  EXPECT_EQ(root.fields[0].field_id, 0);
  EXPECT_EQ(root.fields[1].field_id, 1);
  EXPECT_EQ(root.fields[1].type->null_branch(), 0);
  const Node* stats = root.fields[2].type->non_null();
  EXPECT_EQ(stats->type, AvroType::kArray);
  EXPECT_EQ(stats->logical_type, "map");
  EXPECT_EQ(stats->items->fields[0].field_id, 117);
  EXPECT_EQ(root.fields[3].type->key_id, 7);
  EXPECT_EQ(root.fields[3].type->value_id, 8);
  EXPECT_EQ(root.fields[4].type->element_id, 136);
  EXPECT_EQ(root.fields[5].type->size, 16);
  EXPECT_EQ(root.fields[5].type->logical_type, "uuid");
  EXPECT_EQ(root.fields[6].type->props["adjust-to-utc"], true);
  // A reference to an earlier named type resolves to the same node.
  EXPECT_EQ(root.fields[8].type->non_null(), stats->items);

  // Written back and re-parsed: the same JSON.
  std::string out = s->to_json();
  auto again = parse_avro_schema(out);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->to_json(), out);
  auto j = nlohmann::json::parse(out);
  EXPECT_EQ(j["fields"][2]["field-id"], 108);
  EXPECT_EQ(j["fields"][2]["default"], nullptr);
  EXPECT_EQ(j["fields"][2]["type"][1]["logicalType"], "map");
  EXPECT_EQ(j["fields"][8]["type"][1], "k117_v118");
}

TEST(AvroSchemaTest, RejectsBadSchemas) {
  EXPECT_FALSE(parse_avro_schema("{").ok());
  EXPECT_FALSE(parse_avro_schema(R"({"type":"record","name":"r"})").ok());
  EXPECT_FALSE(parse_avro_schema(R"("nope")").ok());
  EXPECT_FALSE(parse_avro_schema(R"({"type":"fixed","name":"f"})").ok());
  EXPECT_FALSE(parse_avro_schema(R"([["int"]])").ok());
  EXPECT_FALSE(
      parse_avro_schema(
          R"({"type":"record","name":"r","fields":[{"name":"a","type":"int","field-id":"x"}]})")
          .ok());
}

TEST(AvroBinaryTest, VarintsRoundTrip) {
  Encoder e;
  std::vector<int64_t> values = {0,   1,         -1,        63,        -64,      64,
                                 300, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN};
  for (int64_t v : values) e.write_long(v);
  Decoder d(e.buffer());
  for (int64_t v : values) EXPECT_EQ(d.read_long(), v);
  EXPECT_TRUE(d.ok());
  EXPECT_TRUE(d.at_end());
  // Known encodings from the Avro spec.
  Encoder e2;
  e2.write_long(-64);
  e2.write_long(64);
  EXPECT_EQ(e2.buffer(), std::string("\x7f\x80\x01", 3));
}

TEST(AvroBinaryTest, MalformedInputSetsAnErrorAndNeverOverReads) {
  {
    std::string bad(11, '\xff');  // 11 continuation bytes
    Decoder d(bad);
    d.read_long();
    EXPECT_FALSE(d.ok());
  }
  {
    // 10 bytes with bits past the 64th: dropped, as Java does.
    std::string wide("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 10);
    Decoder d(wide);
    EXPECT_EQ(d.read_long(), INT64_MIN);
    EXPECT_TRUE(d.ok());
  }
  {
    std::string trunc("\x80", 1);
    Decoder d(trunc);
    d.read_long();
    EXPECT_FALSE(d.ok());
  }
  {
    Encoder e;
    e.write_long(100);  // length 100, only 3 bytes follow
    e.buffer() += "abc";
    Decoder d(e.buffer());
    EXPECT_EQ(d.read_bytes(), "");
    EXPECT_FALSE(d.ok());
    EXPECT_STREQ(d.error(), "length past the end of the data");
  }
  {
    Encoder e;
    e.write_long(-5);
    Decoder d(e.buffer());
    d.read_bytes();
    EXPECT_FALSE(d.ok());
  }
  {
    Encoder e;
    e.write_long(int64_t{1} << 40);
    Decoder d(e.buffer());
    d.read_int();
    EXPECT_FALSE(d.ok());
  }
  {
    std::string two("\x02", 1);
    Decoder d(two);
    d.read_bool();
    EXPECT_FALSE(d.ok());
  }
}

std::string write_sample(Codec codec, int n, size_t block_size = 64 * 1024) {
  auto schema = parse_avro_schema(kSchema);
  ContainerWriterOptions opts;
  opts.codec = codec;
  opts.block_size = block_size;
  ContainerWriter w(*schema, {{"format-version", "2"}, {"content", "data"}}, opts);
  for (int i = 0; i < n; ++i) {
    Encoder& e = w.encoder();
    e.write_int(i % 3);
    if (i % 2) {
      e.write_branch(0);
    } else {
      e.write_branch(1);
      e.write_long(int64_t{6387266376565973956} + i);
    }
    e.write_branch(1);
    e.write_long(2);
    e.write_int(1);
    e.write_long(i * 10);
    e.write_int(2);
    e.write_long(i * 20);
    e.write_long(0);
    e.write_long(1);
    e.write_string("k");
    e.write_string("v" + std::to_string(i));
    e.write_long(0);
    e.write_long(-2);  // a negative-count block with its byte size
    e.write_long(2);
    e.write_int(1);
    e.write_int(i);
    e.write_long(0);
    e.write_fixed(std::string(16, static_cast<char>(i)));
    e.write_long(1718409600000000 + i);
    e.write_long(i % 2);
    e.write_branch(0);
    e.write_float(1.5f);
    e.write_double(-2.25);
    e.write_bytes(std::string("\x00\xff", 2));
    e.write_bool(i % 2 == 0);
    EXPECT_TRUE(w.end_object().ok());
  }
  return *w.finish();
}

class ContainerCodecTest : public ::testing::TestWithParam<Codec> {};

TEST_P(ContainerCodecTest, RoundTripsRecordsAndMetadata) {
  std::string file = write_sample(GetParam(), 5000, 4096);
  auto r = ContainerReader::open(file, "t.avro");
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ((*r)->codec(), GetParam());
  EXPECT_EQ(*(*r)->meta("format-version"), "2");
  EXPECT_EQ(*(*r)->meta("content"), "data");
  EXPECT_EQ(*(*r)->meta("avro.codec"), codec_name(GetParam()));
  int n = 0;
  int blocks = 0;
  auto st = for_each_json(**r, [&](nlohmann::ordered_json& rec) {
    EXPECT_EQ(rec["status"], n % 3);
    if (n % 2) {
      EXPECT_TRUE(rec["snapshot_id"].is_null());
    } else {
      EXPECT_EQ(rec["snapshot_id"].get<int64_t>(), int64_t{6387266376565973956} + n);
    }
    EXPECT_EQ(rec["stats"][1]["value"], n * 20);
    EXPECT_EQ(rec["tags"]["k"], "v" + std::to_string(n));
    EXPECT_EQ(rec["ids"][1], n);
    EXPECT_EQ(rec["e"], n % 2 ? "GREEN" : "RED");
    EXPECT_EQ(rec["b"].get<std::string>(), std::string("\0\xc3\xbf", 3));
    EXPECT_EQ(rec["d"], -2.25);
    ++n;
    return true;
  });
  ASSERT_TRUE(st.ok()) << st.to_string();
  EXPECT_EQ(n, 5000);
  // Several blocks were written (4 KB block size).
  auto r2 = ContainerReader::open(file, "t.avro");
  while (*(*r2)->next_block()) {
    ++blocks;
    for (int64_t i = 0; i < (*r2)->block_count(); ++i)
      skip_datum((*r2)->schema().root(), (*r2)->decoder());
    EXPECT_TRUE((*r2)->finish_block().ok());
  }
  EXPECT_GT(blocks, 5);
}

INSTANTIATE_TEST_SUITE_P(Codecs, ContainerCodecTest,
                         ::testing::Values(Codec::kNull, Codec::kDeflate, Codec::kSnappy,
                                           Codec::kZstd),
                         [](const auto& info) { return std::string(codec_name(info.param)); });

Status read_everything(const std::string& bytes) {
  auto r = ContainerReader::open(bytes, "bad.avro");
  if (!r.ok()) return r.status();
  return for_each_json(**r, [](nlohmann::ordered_json&) { return true; });
}

TEST(ContainerReaderTest, CorruptInputIsAnErrorNamingFileAndOffset) {
  std::string good = write_sample(Codec::kSnappy, 200, 1024);
  ASSERT_TRUE(read_everything(good).ok());

  Status bad_magic = read_everything("Obj\x02" + good.substr(4));
  EXPECT_FALSE(bad_magic.ok());
  EXPECT_NE(bad_magic.message().find("bad.avro"), std::string::npos);
  EXPECT_NE(bad_magic.message().find("magic"), std::string::npos);

  // Truncation at every length never crashes and always fails (except at block boundaries,
  // which are valid shorter files).
  int failures = 0;
  for (size_t len = 0; len < good.size(); len += 7) {
    if (!read_everything(good.substr(0, len)).ok()) ++failures;
  }
  EXPECT_GT(failures, 0);

  // A flipped byte in the last sync marker.
  std::string wrong_sync = good;
  wrong_sync[wrong_sync.size() - 1] ^= 0x55;
  Status s = read_everything(wrong_sync);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("sync marker"), std::string::npos);
  EXPECT_NE(s.message().find("offset"), std::string::npos);

  // Flipping every byte one at a time: errors or valid data, never a crash.
  for (size_t i = 0; i < good.size(); i += 3) {
    std::string b = good;
    b[i] ^= 0xa5;
    (void)read_everything(b);
  }

  // Unknown codec.
  ContainerWriterOptions null_codec;
  null_codec.codec = Codec::kNull;
  ContainerWriter w(std::string(R"("long")"), {}, null_codec);
  w.encoder().write_long(1);
  ASSERT_TRUE(w.end_object().ok());
  std::string f = *w.finish();
  auto pos = f.find("null");
  ASSERT_NE(pos, std::string::npos);
  f.replace(pos, 4, "lzma");
  Status unknown = read_everything(f);
  EXPECT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("lzma"), std::string::npos);
}

}  // namespace
}  // namespace floe::avro
