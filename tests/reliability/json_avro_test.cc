// End-to-end: bad metadata input is one clear error from `floe inspect`, `floe scan` and
// `floe cat`, never an abort, a stack overflow or output without end. Each case crafts a copy
// of a real v3 table (Impala's, with a deletion-vector Puffin file) in a temp dir.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "floe/format/avro/binary.h"
#include "floe/format/avro/container.h"
#include "integration/cli_runner.h"
#include "test_support.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
using floe_test::CliRun;
using floe_test::run_floe;
using test_support::shell_quote;
using test_support::TempDir;

const char* kManifestList = "snap-3685752423136077685-1-e9787b6c-e745-4040-b78f-e4012aa178ab.avro";
const std::string kDeep = std::string(90000, '[') + std::string(90000, ']');

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// A writable copy of the fixture table under `dir`.
fs::path copy_table(const TempDir& dir) {
  fs::path table = dir.path / "t";
  fs::copy(fs::path(FLOE_FIXTURES_DIR) / "impala/iceberg_v3_deletion_vectors", table,
           fs::copy_options::recursive);
  for (const auto& e : fs::recursive_directory_iterator(table)) {
    fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
  }
  fs::permissions(table, fs::perms::owner_write, fs::perm_options::add);
  return table;
}

// Replaces the first `from` in the file at `p` with `to`.
void replace_in(const fs::path& p, const std::string& from, const std::string& to) {
  std::string text = read_bytes(p);
  size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
  write_bytes(p, text);
}

fs::path puffin_of(const fs::path& table) {
  for (const auto& e : fs::directory_iterator(table / "data")) {
    if (e.path().extension() == ".puffin") return e.path();
  }
  return {};
}

// The Puffin file at `p` with `from` in its footer JSON replaced by `to` (the payload size
// in the footer's tail follows).
void mutate_puffin_footer(const fs::path& p, const std::string& from, const std::string& to) {
  std::string b = read_bytes(p);
  ASSERT_GT(b.size(), 12u);
  uint32_t n = 0;
  for (int i = 3; i >= 0; --i) n = (n << 8) | static_cast<uint8_t>(b[b.size() - 12 + i]);
  std::string tail = b.substr(b.size() - 8);
  std::string payload = b.substr(b.size() - 12 - n, n);
  std::string body = b.substr(0, b.size() - 12 - n);
  size_t at = payload.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  payload.replace(at, from.size(), to);
  uint32_t m = static_cast<uint32_t>(payload.size());
  std::string size;
  for (int i = 0; i < 4; ++i) size.push_back(static_cast<char>((m >> (8 * i)) & 0xff));
  write_bytes(p, body + payload + size + tail);
}

// A container file with its first block's object count replaced by `count`.
std::string with_block_count(const std::string& file, int64_t count) {
  auto reader = avro::ContainerReader::open(file, "x.avro");
  EXPECT_TRUE(reader.ok());
  EXPECT_TRUE(*(*reader)->next_block());
  size_t at = (*reader)->block_offset();
  avro::Decoder d(file.data() + at, file.size() - at);
  d.read_long();
  avro::Encoder e;
  e.write_long(count);
  return file.substr(0, at) + e.buffer() + file.substr(at + d.offset());
}

// `floe` with a time limit: a hang shows as exit code 124 instead of a stuck test. Standard
// output is dropped (a runaway `cat` prints without end); standard error is returned.
CliRun run_floe_limited(const std::string& args) {
  int code = 0;
  std::string err = test_support::run_command(
      "timeout 60 " + std::string(FLOE_CLI_PATH) + " " + args + " 2>&1 >/dev/null", &code);
  return {code, err};
}

TEST(JsonAvroReliability, MetadataNumberOutOfRangeIsAnError) {
  TempDir dir("floe-rel-json");
  fs::path table = copy_table(dir);
  replace_in(table / "metadata/v3.metadata.json",
             "\"last-updated-ms\":", "\"last-updated-ms\":1e309,\"x\":");
  for (const char* command : {"inspect", "scan", "inspect --format json"}) {
    CliRun r = run_floe(std::string(command) + " " + shell_quote(table.string()));
    EXPECT_EQ(r.exit_code, 1) << command << ": " << r.out;
    EXPECT_NE(r.out.find("v3.metadata.json: table metadata is not valid JSON: number overflow "
                         "parsing '1e309'"),
              std::string::npos)
        << r.out;
  }
}

TEST(JsonAvroReliability, MetadataWrongTypeNamesTheField) {
  TempDir dir("floe-rel-json");
  fs::path table = copy_table(dir);
  replace_in(table / "metadata/v3.metadata.json",
             "\"last-column-id\":", "\"last-column-id\":true,\"x\":");
  CliRun r = run_floe("inspect " + shell_quote(table.string()));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("field 'last-column-id' must be an integer, got a boolean"),
            std::string::npos)
      << r.out;
}

TEST(JsonAvroReliability, DeeplyNestedSummaryValueIsRefused) {
  TempDir dir("floe-rel-json");
  fs::path table = copy_table(dir);
  replace_in(table / "metadata/v3.metadata.json", "\"operation\":\"delete\"",
             "\"operation\":\"delete\",\"deep\":" + kDeep);
  for (const char* command : {"inspect", "scan"}) {
    CliRun r = run_floe(std::string(command) + " " + shell_quote(table.string()));
    EXPECT_EQ(r.exit_code, 1) << command << ": " << r.out.substr(0, 2000);
    EXPECT_NE(r.out.find("table metadata nests JSON deeper than 1000 levels (at byte"),
              std::string::npos)
        << r.out.substr(0, 2000);
  }
}

TEST(JsonAvroReliability, PuffinFooterWithWrongTypesIsAnError) {
  struct Case {
    std::string from;
    std::string to;
    std::string error;
  };
  const Case cases[] = {
      {"\"length\":42", "\"length\":true", "field 'length' must be an integer, got true"},
      {"\"length\":42", "\"length\":1e309", "number overflow parsing '1e309'"},
      {"\"length\":42", "\"length\":\"42\"", "field 'length' must be an integer, got \"42\""},
      {"\"length\":42", "\"length\":-1", "lies outside the blob area"},
      {"\"length\":42", "\"length\":99999999999999999999", "field 'length' must be"},
      {"\"offset\":4", "\"offset\":null", "field 'offset' must be an integer, got null"},
      {"\"type\":\"deletion-vector-v1\"", "\"type\":null",
       "field 'type' must be a string, got null"},
      {"\"fields\":[2147483645]", "\"fields\":[true]", "field 'fields' must hold int field ids"},
      {"\"cardinality\":\"1\"", "\"cardinality\":" + kDeep, "nests JSON deeper than 1000 levels"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.to);
    TempDir dir("floe-rel-json");
    fs::path table = copy_table(dir);
    fs::path puffin = puffin_of(table);
    ASSERT_FALSE(puffin.empty());
    mutate_puffin_footer(puffin, c.from, c.to);
    CliRun r = run_floe("scan " + shell_quote(table.string()));
    EXPECT_EQ(r.exit_code, 1) << r.out;
    EXPECT_NE(r.out.find(".puffin"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(c.error), std::string::npos) << r.out;
  }
}

TEST(JsonAvroReliability, ManifestListBlockCountPastItsBytesIsAnError) {
  for (int64_t count : {(int64_t{1} << 31) + 5, int64_t{1} << 40, (int64_t{1} << 62) + 1}) {
    SCOPED_TRACE(count);
    TempDir dir("floe-rel-json");
    fs::path table = copy_table(dir);
    fs::path list = table / "metadata" / kManifestList;
    write_bytes(list, with_block_count(read_bytes(list), count));
    for (const char* command : {"scan", "inspect --manifests"}) {
      CliRun r = run_floe(std::string(command) + " " + shell_quote(table.string()));
      EXPECT_EQ(r.exit_code, 1) << command << ": " << r.out;
      EXPECT_NE(r.out.find(fmt::format("object count {} is more than the block's", count)),
                std::string::npos)
          << r.out;
    }
    CliRun cat = run_floe_limited("cat " + shell_quote(list.string()));
    EXPECT_EQ(cat.exit_code, 1) << cat.out;
    EXPECT_NE(cat.out.find(kManifestList), std::string::npos) << cat.out;
  }
}

// A 150-byte file whose block claims 2^40 records of a schema that encodes in zero bytes: `floe
// cat` printed {"a":null} without end.
TEST(JsonAvroReliability, CatOfZeroByteRecordsClaimedWithoutEndIsAnError) {
  TempDir dir("floe-rel-json");
  avro::Encoder e;
  e.buffer().append(avro::kAvroMagic);
  e.write_long(1);
  e.write_string("avro.schema");
  e.write_bytes(R"({"type":"record","name":"r","fields":[{"name":"a","type":"null"}]})");
  e.write_long(0);
  const std::string sync = "0123456789abcdef";
  e.write_fixed(sync);
  const std::string header = e.buffer();
  e.write_long(int64_t{1} << 40);  // objects
  e.write_long(0);                 // bytes
  e.write_fixed(sync);
  ASSERT_LE(e.size(), 150u);
  fs::path file = dir.path / "zero.avro";
  write_bytes(file, e.buffer());
  CliRun r = run_floe_limited("cat " + shell_quote(file.string()));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("zero.avro: invalid Avro block at offset"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("object count 1099511627776 of a schema that encodes in 0 bytes"),
            std::string::npos)
      << r.out;

  // A few such records are a legal file and print.
  avro::Encoder ok;
  ok.buffer() = header;
  ok.write_long(3);
  ok.write_long(0);
  ok.write_fixed(sync);
  write_bytes(file, ok.buffer());
  CliRun printed = run_floe("cat " + shell_quote(file.string()));
  EXPECT_EQ(printed.exit_code, 0) << printed.out;
  EXPECT_EQ(printed.out, "{\"a\":null}\n{\"a\":null}\n{\"a\":null}\n");
}

}  // namespace
}  // namespace floe
