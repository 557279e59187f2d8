// Puffin footers from files are untrusted: every field of a valid footer replaced by a value of
// the wrong type, out of range, or nested too deep gives one error naming the field, never a
// crash (an uncaught nlohmann exception or a stack overflow aborted before).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "floe/io/file_io.h"
#include "floe/read/puffin.h"

namespace floe {
namespace {

using nlohmann::json;

constexpr int64_t kBlobArea = 96;  // bytes 4..100 hold the blobs

// Two deletion-vector blobs, as Java and iceberg-go write them.
json valid_footer() {
  return json::parse(R"J({
    "blobs": [
      {"type": "deletion-vector-v1", "fields": [2147483645], "snapshot-id": -1,
       "sequence-number": -1, "offset": 4, "length": 42,
       "properties": {"referenced-data-file": "s3://b/t/data/a.parquet", "cardinality": "1"}},
      {"type": "apache-datasketches-theta-v1", "fields": [1, 2], "snapshot-id": 7,
       "sequence-number": 3, "offset": 46, "length": 40, "compression-codec": "zstd",
       "properties": {"ndv": "12"}}
    ],
    "properties": {"created-by": "floe test"}
  })J");
}

// The bytes of a Puffin file whose footer payload is `payload`.
std::string puffin_file(const std::string& payload) {
  std::string out = "PFA1";
  out.append(static_cast<size_t>(kBlobArea), '\x5a');
  out += "PFA1";
  out += payload;
  uint32_t n = static_cast<uint32_t>(payload.size());
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  out.append(4, '\0');  // flags: uncompressed
  out += "PFA1";
  return out;
}

Result<PuffinFooter> read_footer(const std::string& payload) {
  auto io = make_memory_file_io();
  EXPECT_TRUE(io->write_file("/t/f.puffin", puffin_file(payload), WriteMode::kOverwrite).ok());
  return read_puffin_footer(*io, "/t/f.puffin");
}

// Every JSON pointer below the root, parents before children.
void pointers(const json& j, const json::json_pointer& at, std::vector<json::json_pointer>* out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      out->push_back(at / it.key());
      pointers(*it, at / it.key(), out);
    }
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) {
      out->push_back(at / i);
      pointers(j[i], at / i, out);
    }
  }
}

// `footer` with the value at `at` replaced by the raw JSON text `raw`.
std::string with_raw(json footer, const json::json_pointer& at, const std::string& raw) {
  const std::string marker = "\"@@replaced@@\"";
  footer[at] = "@@replaced@@";
  std::string text = footer.dump();
  text.replace(text.find(marker), marker.size(), raw);
  return text;
}

struct Mutation {
  const char* raw;
  const char* kind;  // json_kind of the parsed value; "" when the text does not parse
};

const std::vector<Mutation>& mutations() {
  static const std::vector<Mutation> kAll = {
      {"true", "a boolean"},
      {"null", "null"},
      {"1e309", ""},  // no double holds it
      {"\"string\"", "a string"},
      {"-1", "an integer"},
      {"9223372036854775808", "an unsigned integer"},  // 2^63: past every long
      {"123456789012345678901234567890", "a number"},  // past uint64: parsed as a double
      {"1.5", "a number"},
      {"{}", "an object"},
      {"[]", "an array"},
  };
  return kAll;
}

std::string kind_of(const json& j) {
  if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    return "an unsigned integer";
  }
  if (j.is_number_integer()) return "an integer";
  if (j.is_number_float()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_null()) return "null";
  if (j.is_array()) return "an array";
  return "an object";
}

// The name an error about the value at `at` must mention: the innermost object key ("length",
// "fields" for an element of fields, a property's key), or "blobs" for a whole blob.
std::string field_named(json::json_pointer at) {
  while (!at.empty() && at.back().find_first_not_of("0123456789") == std::string::npos) {
    at.pop_back();
  }
  return at.empty() ? "" : at.back();
}

TEST(PuffinFooter, ValidFooterReads) {
  auto footer = read_footer(valid_footer().dump());
  ASSERT_TRUE(footer.ok()) << footer.status().to_string();
  ASSERT_EQ(footer->blobs.size(), 2u);
  EXPECT_EQ(footer->blobs[1].type, "apache-datasketches-theta-v1");
  EXPECT_EQ(footer->blobs[1].offset, 46);
  EXPECT_EQ(footer->blobs[1].length, 40);
  EXPECT_EQ(footer->blobs[1].fields, (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(footer->blobs[1].compression_codec, "zstd");
  EXPECT_EQ(footer->blobs[0].properties.at("cardinality"), "1");
  EXPECT_EQ(footer->properties.at("created-by"), "floe test");
}

// Every field (and every element and property value) of the footer replaced by every mutation:
// an error naming the field whenever the value cannot be what the field holds, and no crash
// in any case.
TEST(PuffinFooter, EveryFieldMutatedIsAnErrorNeverACrash) {
  const json footer = valid_footer();
  std::vector<json::json_pointer> all;
  pointers(footer, json::json_pointer(), &all);
  ASSERT_EQ(all.size(), 26u);
  int errors = 0;
  for (const auto& at : all) {
    const json& original = footer[at];
    const std::string parent = at.parent_pointer().empty() ? "" : at.parent_pointer().back();
    const std::string key = at.back();
    const bool property_value = parent == "properties";
    const bool integer_field = key == "offset" || key == "length" || key == "snapshot-id" ||
                               key == "sequence-number" || parent == "fields";
    for (const auto& m : mutations()) {
      SCOPED_TRACE(at.to_string() + " = " + m.raw);
      std::string text = with_raw(footer, at, m.raw);
      auto read = read_footer(text);
      std::string kind = m.kind;
      bool must_fail;
      if (kind.empty()) {
        must_fail = true;  // not JSON at all
      } else if (property_value) {
        // Property values are strings; numbers and booleans are kept as their JSON text.
        must_fail = kind == "null" || kind == "an object" || kind == "an array";
      } else if (key == "compression-codec") {
        must_fail = kind != "a string" && kind != "null";  // null: absent
      } else if (integer_field) {
        must_fail = kind != "an integer" ||
                    (parent == "fields" && std::string(m.raw) == "9223372036854775808");
        // A negative or small offset or length puts the blob outside the blob area.
        if ((key == "offset" || key == "length") && std::string(m.raw) == "-1") must_fail = true;
        if (kind == "an unsigned integer") must_fail = true;
      } else {
        must_fail = kind != kind_of(original);
      }
      if (must_fail) {
        ASSERT_FALSE(read.ok()) << text;
        ++errors;
        const std::string& msg = read.status().message();
        EXPECT_NE(msg.find("/t/f.puffin"), std::string::npos) << msg;
        if (kind.empty()) {
          EXPECT_NE(msg.find("1e309"), std::string::npos) << msg;
        } else if (!(key == "offset" || key == "length") || kind == "an integer") {
          // Offsets and lengths of the right type but out of the blob area name the blob.
          std::string name = field_named(at);
          if (key == "offset" || key == "length") name = "blob";
          EXPECT_NE(msg.find(name), std::string::npos) << msg;
        } else {
          EXPECT_NE(msg.find("'" + key + "'"), std::string::npos) << msg;
        }
      }
    }
  }
  EXPECT_GT(errors, 150);
}

TEST(PuffinFooter, OffsetPlusLengthOverflowIsAnError) {
  json footer = valid_footer();
  footer["blobs"][0]["offset"] = INT64_MAX - 10;
  footer["blobs"][0]["length"] = 100;
  auto read = read_footer(footer.dump());
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("outside the blob area"), std::string::npos)
      << read.status().message();
}

// A property value nested 90,000 levels deep was printed back to text recursively and
// overflowed the stack.
TEST(PuffinFooter, DeeplyNestedPropertyIsRefused) {
  const std::string deep = std::string(90000, '[') + std::string(90000, ']');
  for (const char* at : {"/blobs/0/properties/cardinality", "/properties/created-by"}) {
    std::string text = with_raw(valid_footer(), json::json_pointer(at), deep);
    auto read = read_footer(text);
    ASSERT_FALSE(read.ok()) << at;
    EXPECT_NE(read.status().message().find("deeper than 1000 levels"), std::string::npos)
        << read.status().message();
  }
  // Within the limit, a nested property value is an error naming it.
  std::string text =
      with_raw(valid_footer(), json::json_pointer("/properties/created-by"), "[[1]]");
  auto read = read_footer(text);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("'created-by' must be a string, got an array"),
            std::string::npos)
      << read.status().message();
}

}  // namespace
}  // namespace floe
