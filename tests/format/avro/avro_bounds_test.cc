// Counts and sizes read from an Avro file are checked against the bytes that hold them: a block
// claiming 2^31..2^62 objects reached vector::reserve and aborted, and a 150-byte file whose
// block claims 2^40 zero-byte records decoded without end. Avro schema JSON in file headers is
// untrusted too: numbers out of range and deep nesting are errors, never an abort.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "floe/format/avro/binary.h"
#include "floe/format/avro/container.h"
#include "floe/format/avro/generic.h"
#include "floe/format/avro/schema.h"

namespace floe::avro {
namespace {

const std::string kSync = "0123456789abcdef";

struct Block {
  int64_t count;
  std::string payload;
  int64_t size = -2;  // the byte size written; -2: the payload's
};

// A null-codec container file assembled by hand, so counts and sizes can lie.
std::string container(const std::string& schema, const std::vector<Block>& blocks) {
  Encoder e;
  e.buffer().append(kAvroMagic);
  e.write_long(2);
  e.write_string("avro.schema");
  e.write_bytes(schema);
  e.write_string("avro.codec");
  e.write_bytes("null");
  e.write_long(0);
  e.write_fixed(kSync);
  for (const auto& b : blocks) {
    e.write_long(b.count);
    e.write_long(b.size == -2 ? static_cast<int64_t>(b.payload.size()) : b.size);
    e.buffer().append(b.payload);
    e.write_fixed(kSync);
  }
  return e.buffer();
}

// Decodes every object generically; the number decoded in *n.
Status read_all(const std::string& file, int64_t* n) {
  *n = 0;
  auto reader = ContainerReader::open(file, "t.avro");
  if (!reader.ok()) return reader.status();
  return for_each_json(**reader, [&](nlohmann::ordered_json&) {
    ++*n;
    return true;
  });
}

const char* kNullRecord = R"({"type":"record","name":"r","fields":[{"name":"a","type":"null"}]})";
const char* kIntRecord = R"({"type":"record","name":"r","fields":[{"name":"a","type":"int"}]})";

TEST(AvroBounds, MinEncodedSize) {
  auto size_of = [](const char* schema) {
    auto s = parse_avro_schema(schema);
    EXPECT_TRUE(s.ok()) << schema;
    return s.ok() ? min_encoded_size(s->root()) : -1;
  };
  EXPECT_EQ(size_of(R"("null")"), 0);
  EXPECT_EQ(size_of(kNullRecord), 0);
  EXPECT_EQ(size_of(R"({"type":"record","name":"e","fields":[]})"), 0);
  EXPECT_EQ(size_of(kIntRecord), 1);
  EXPECT_EQ(size_of(R"(["null","long"])"), 1);
  EXPECT_EQ(size_of(R"({"type":"array","items":"double"})"), 1);
  EXPECT_EQ(size_of(R"({"type":"record","name":"r","fields":[
      {"name":"a","type":"float"},{"name":"b","type":"double"},
      {"name":"c","type":{"type":"fixed","name":"f","size":16}},
      {"name":"d","type":"string"},{"name":"e","type":"boolean"}]})"),
            4 + 8 + 16 + 1 + 1);
  // A record inside itself (a linked list through a union) is finite and still bounded.
  EXPECT_EQ(size_of(R"({"type":"record","name":"node","fields":[
      {"name":"v","type":"long"},{"name":"next","type":["null","node"]}]})"),
            2);
  // One with no way out (no union): counted as 0 inside itself, never recursing without end.
  EXPECT_EQ(size_of(R"({"type":"record","name":"loop","fields":[
      {"name":"v","type":"int"},{"name":"again","type":"loop"}]})"),
            1);
}

TEST(AvroBounds, BlockCountBeyondItsBytesIsAnError) {
  // Three one-byte ints: a count of 3 is right, 4 is more than 3 bytes can hold.
  std::string ints("\x02\x04\x06", 3);
  int64_t n = 0;
  ASSERT_TRUE(read_all(container(kIntRecord, {{3, ints}}), &n).ok());
  EXPECT_EQ(n, 3);
  for (int64_t count :
       {int64_t{4}, int64_t{1} << 31, int64_t{1} << 40, int64_t{1} << 62, INT64_MAX}) {
    SCOPED_TRACE(count);
    Status st = read_all(container(kIntRecord, {{count, ints}}), &n);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("t.avro: invalid Avro block at offset"), std::string::npos)
        << st.message();
    EXPECT_NE(
        st.message().find(fmt::format("object count {} is more than the block's 3 bytes", count)),
        std::string::npos)
        << st.message();
    EXPECT_EQ(n, 0);  // refused before decoding any object
  }
}

TEST(AvroBounds, ZeroByteRecordsHaveACap) {
  // Records of nulls encode in no bytes: legal, and a file may hold many...
  int64_t n = 0;
  ASSERT_TRUE(read_all(container(kNullRecord, {{1000, ""}, {5, ""}}), &n).ok());
  EXPECT_EQ(n, 1005);
  // ...but a 100-byte file claiming 2^40 of them decoded without end.
  std::string file = container(kNullRecord, {{int64_t{1} << 40, ""}});
  EXPECT_LT(file.size(), 150u);
  Status st = read_all(file, &n);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("object count 1099511627776 of a schema that encodes in 0 bytes "
                              "is more than the limit of 16777216"),
            std::string::npos)
      << st.message();
  EXPECT_EQ(n, 0);
}

TEST(AvroBounds, NegativeOrOversizedBlocksAreErrors) {
  std::string ints("\x02\x04\x06", 3);
  int64_t n = 0;
  Status negative = read_all(container(kIntRecord, {{-3, ints}}), &n);
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.message().find("negative object count"), std::string::npos);
  Status past_end = read_all(container(kIntRecord, {{3, ints, 1 << 20}}), &n);
  ASSERT_FALSE(past_end.ok());
  EXPECT_NE(past_end.message().find("block size past the end of the file"), std::string::npos);
  Status negative_size = read_all(container(kIntRecord, {{3, ints, -5}}), &n);
  ASSERT_FALSE(negative_size.ok());
  EXPECT_NE(negative_size.message().find("block size past the end of the file"), std::string::npos);
  // An array inside a record claiming more items than bytes remain.
  const char* arrays =
      R"({"type":"record","name":"r","fields":[{"name":"a","type":{"type":"array","items":"int"}}]})";
  Encoder e;
  e.write_long(int64_t{1} << 40);  // the array's block count
  e.write_long(1);
  e.write_long(0);
  Status items = read_all(container(arrays, {{1, e.buffer()}}), &n);
  ASSERT_FALSE(items.ok());
  EXPECT_NE(items.message().find("block count past the end of the data"), std::string::npos)
      << items.message();
}

TEST(AvroBounds, CompressedBlocksAreBoundedByTheirDecompressedBytes) {
  ContainerWriterOptions options;
  options.codec = Codec::kDeflate;
  options.sync_marker = kSync;
  ContainerWriter w(std::string(kIntRecord), {}, options);
  for (int i = 0; i < 10; ++i) {
    w.encoder().write_int(i);
    ASSERT_TRUE(w.end_object().ok());
  }
  std::string file = *w.finish();
  int64_t n = 0;
  ASSERT_TRUE(read_all(file, &n).ok());
  EXPECT_EQ(n, 10);
  // Rewrite the block's count (a one-byte varint right after the header) as 2^40.
  auto reader = ContainerReader::open(file, "t.avro");
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE(*(*reader)->next_block());
  size_t at = (*reader)->block_offset();
  ASSERT_EQ(file[at], '\x14');  // zigzag 10
  Encoder count;
  count.write_long(int64_t{1} << 40);
  std::string bad = file.substr(0, at) + count.buffer() + file.substr(at + 1);
  Status st = read_all(bad, &n);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("is more than the block's 10 bytes can hold"), std::string::npos)
      << st.message();
}

TEST(AvroBounds, SchemaJsonFromHeadersIsUntrusted) {
  auto overflow = parse_avro_schema(
      R"({"type":"record","name":"r","fields":[{"name":"a","type":"int","default":1e309}]})");
  ASSERT_FALSE(overflow.ok());
  EXPECT_EQ(overflow.status().message(),
            "avro schema is not valid JSON: number overflow parsing '1e309'");

  const std::string deep = std::string(90000, '[') + std::string(90000, ']');
  auto nested = parse_avro_schema(
      R"({"type":"record","name":"r","fields":[{"name":"a","type":"int","doc":)" + deep + "}]}");
  ASSERT_FALSE(nested.ok());
  EXPECT_NE(nested.status().message().find("avro schema nests JSON deeper than 1000 levels"),
            std::string::npos)
      << nested.status().message();

  auto big_id = parse_avro_schema(
      R"({"type":"record","name":"r","fields":[{"name":"a","type":"int","field-id":4294967297}]})");
  ASSERT_FALSE(big_id.ok());
  EXPECT_NE(big_id.status().message().find("field-id must be an int, got 4294967297"),
            std::string::npos)
      << big_id.status().message();

  // The same in a container header: an error naming the file, never an abort.
  std::string file = container(
      R"({"type":"record","name":"r","fields":[{"name":"a","type":"int","x":1e309}]})", {});
  auto reader = ContainerReader::open(file, "t.avro");
  ASSERT_FALSE(reader.ok());
  EXPECT_NE(reader.status().message().find("t.avro"), std::string::npos);
  EXPECT_NE(reader.status().message().find("1e309"), std::string::npos);
}

}  // namespace
}  // namespace floe::avro
