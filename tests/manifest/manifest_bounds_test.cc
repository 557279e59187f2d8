// Manifest lists and manifests from files are untrusted: a block count of 2^31..2^62 reached
// vector::reserve and aborted, and the schema and partition-spec JSON in a manifest's header
// with a number out of range (1e309) or nested too deep aborted or overflowed the stack.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "floe/format/avro/binary.h"
#include "floe/format/avro/container.h"
#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
const fs::path kTable = fs::path(FLOE_FIXTURES_DIR) / "impala/iceberg_v3_deletion_vectors/metadata";
const char* kList = "snap-3685752423136077685-1-e9787b6c-e745-4040-b78f-e4012aa178ab.avro";
const char* kManifest = "e9787b6c-e745-4040-b78f-e4012aa178ab-m0.avro";

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Offset of the first block (the end of the header) of a container file.
size_t first_block(const std::string& file) {
  auto reader = avro::ContainerReader::open(file, "x.avro");
  EXPECT_TRUE(reader.ok());
  auto more = (*reader)->next_block();
  EXPECT_TRUE(more.ok() && *more);
  return (*reader)->block_offset();
}

// `file` with its first block's object count replaced by `count`.
std::string with_block_count(const std::string& file, int64_t count) {
  size_t at = first_block(file);
  avro::Decoder d(file.data() + at, file.size() - at);
  d.read_long();
  avro::Encoder e;
  e.write_long(count);
  return file.substr(0, at) + e.buffer() + file.substr(at + d.offset());
}

// `file` with header metadata `key` set to `value` (the blocks and sync marker unchanged).
std::string with_header(const std::string& file, const std::string& key, const std::string& value) {
  auto reader = avro::ContainerReader::open(file, "x.avro");
  EXPECT_TRUE(reader.ok());
  std::map<std::string, std::string> meta = (*reader)->metadata();
  meta[key] = value;
  size_t at = first_block(file);
  avro::Encoder e;
  e.buffer().append(avro::kAvroMagic);
  e.write_long(static_cast<int64_t>(meta.size()));
  for (const auto& [k, v] : meta) {
    e.write_string(k);
    e.write_bytes(v);
  }
  e.write_long(0);
  e.write_fixed(file.substr(at - 16, 16));  // the sync marker
  return e.buffer() + file.substr(at);
}

TEST(ManifestBounds, ManifestListBlockCountPastItsBytesIsAnError) {
  const std::string file = read_bytes(kTable / kList);
  auto good = parse_manifest_list(file, kList);
  ASSERT_TRUE(good.ok()) << good.status().to_string();
  ASSERT_EQ(good->manifests.size(), 2u);
  // One more than the block holds: the decoder runs out of bytes.
  EXPECT_FALSE(parse_manifest_list(with_block_count(file, 3), kList).ok());
  for (int64_t count :
       {(int64_t{1} << 31) + 5, int64_t{1} << 40, (int64_t{1} << 62) + 1, INT64_MAX}) {
    SCOPED_TRACE(count);
    auto list = parse_manifest_list(with_block_count(file, count), kList);
    ASSERT_FALSE(list.ok());
    EXPECT_NE(list.status().message().find(kList), std::string::npos);
    EXPECT_NE(list.status().message().find(fmt::format("object count {} is more than", count)),
              std::string::npos)
        << list.status().message();
  }
}

TEST(ManifestBounds, ManifestBlockCountPastItsBytesIsAnError) {
  const std::string file = read_bytes(kTable / kManifest);
  ManifestFile mf;
  mf.manifest_path = kManifest;
  for (int64_t count : {(int64_t{1} << 31) + 5, (int64_t{1} << 62) + 1}) {
    auto reader = ManifestReader::open_bytes(with_block_count(file, count), mf, nullptr);
    ASSERT_TRUE(reader.ok()) << reader.status().to_string();
    auto entries = (*reader)->read_all();
    ASSERT_FALSE(entries.ok());
    EXPECT_NE(entries.status().message().find("is more than the block's"), std::string::npos)
        << entries.status().message();
  }
}

TEST(ManifestBounds, HeaderJsonIsUntrusted) {
  const std::string file = read_bytes(kTable / kManifest);
  ManifestFile mf;
  mf.manifest_path = kManifest;
  auto good = ManifestReader::open_bytes(file, mf, nullptr);
  ASSERT_TRUE(good.ok()) << good.status().to_string();
  const std::string schema = (*good)->info().metadata.at("schema");
  const std::string deep = std::string(90000, '[') + std::string(90000, ']');

  struct Case {
    const char* key;
    std::string value;
    const char* error;
  };
  std::string overflow = schema;
  overflow.replace(overflow.find("\"id\":1"), 6, "\"id\":1e309");
  std::string wrong_type = schema;
  wrong_type.replace(wrong_type.find("\"id\":1"), 6, "\"id\":true");
  const Case cases[] = {
      {"schema", overflow,
       "schema header: schema is not valid JSON: number overflow parsing '1e309'"},
      {"schema", wrong_type, "field 'id' must be an integer, got a boolean"},
      {"schema", R"({"type":"struct","schema-id":0,"fields":[],"doc":)" + deep + "}",
       "schema nests JSON deeper than 1000 levels"},
      {"partition-spec",
       R"([{"name":"p","transform":"identity","source-id":1e309,"field-id":1000}])",
       "partition-spec header: partition fields is not valid JSON: number overflow"},
      {"partition-spec",
       R"([{"name":"p","transform":"identity","source-id":null,"field-id":1000}])",
       "missing required field 'source-id'"},
      {"partition-spec", "[" + deep + "]", "partition fields nests JSON deeper than 1000 levels"},
      {"partition-spec-id", "4294967297", "header metadata partition-spec-id is not an int"},
      {"format-version", "1e309", "header metadata format-version is not an int"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.key) + ": " + c.value.substr(0, 80));
    auto reader = ManifestReader::open_bytes(with_header(file, c.key, c.value), mf, nullptr);
    ASSERT_FALSE(reader.ok());
    EXPECT_NE(reader.status().message().find(kManifest), std::string::npos);
    EXPECT_NE(reader.status().message().find(c.error), std::string::npos)
        << reader.status().message();
  }
}

}  // namespace
}  // namespace floe
