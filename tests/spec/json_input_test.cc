// Spec JSON read from files is untrusted: numbers out of range (1e309), values of the wrong
// type and nesting tens of thousands of levels deep are one clear error, never an abort (an
// nlohmann exception escaping) or a stack overflow (a nested value printed back to text).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "floe/spec/json_text.h"
#include "floe/spec/literal.h"
#include "floe/spec/name_mapping.h"
#include "floe/spec/table_metadata.h"

namespace floe {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const std::string kDeep = std::string(90000, '[') + std::string(90000, ']');

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A real v3 table's metadata (Spark 4 / Iceberg 1.10, with refs, logs and a delete snapshot).
std::string fixture_metadata() {
  return read_text(fs::path(FLOE_FIXTURES_DIR) /
                   "impala/iceberg_v3_deletion_vectors/metadata/v3.metadata.json");
}

// `doc` with the value at `at` replaced by the raw JSON text `raw`.
std::string with_raw(json doc, const json::json_pointer& at, const std::string& raw) {
  const std::string marker = "\"@@replaced@@\"";
  doc[at] = "@@replaced@@";
  std::string text = doc.dump();
  text.replace(text.find(marker), marker.size(), raw);
  return text;
}

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

Result<TableMetadata> parse(const std::string& text, bool referenced_only) {
  MetadataParseOptions options;
  options.referenced_snapshots_only = referenced_only;
  return parse_table_metadata(text, options);
}

TEST(MetadataJsonInput, NumberOutOfRangeIsAnErrorNotAnAbort) {
  const json doc = json::parse(fixture_metadata());
  for (const char* at : {"/last-updated-ms", "/format-version", "/snapshots/1/timestamp-ms",
                         "/schemas/0/fields/0/id", "/refs/main/snapshot-id",
                         "/snapshot-log/0/snapshot-id", "/properties/write.format.default"}) {
    for (bool referenced_only : {false, true}) {
      std::string text = with_raw(doc, json::json_pointer(at), "1e309");
      auto m = parse(text, referenced_only);
      ASSERT_FALSE(m.ok()) << at;
      EXPECT_EQ(m.status().message(),
                "table metadata is not valid JSON: number overflow parsing '1e309'")
          << at;
    }
  }
}

// Every value of a real metadata file replaced by every kind of wrong value: no abort, and the
// errors of required fields name them.
TEST(MetadataJsonInput, EveryValueMutatedNeverAborts) {
  const json doc = json::parse(fixture_metadata());
  ASSERT_TRUE(parse(doc.dump(), false).ok());
  std::vector<json::json_pointer> all;
  pointers(doc, json::json_pointer(), &all);
  ASSERT_GT(all.size(), 100u);
  const std::vector<std::string> kMutations = {"true",
                                               "null",
                                               "\"string\"",
                                               "-1",
                                               "9223372036854775808",
                                               "123456789012345678901234567890",
                                               "1.5",
                                               "{}",
                                               "[]",
                                               "[[1]]",
                                               "{\"a\": {\"b\": 1}}"};
  int errors = 0;
  for (const auto& at : all) {
    for (const auto& raw : kMutations) {
      std::string text = with_raw(doc, at, raw);
      for (bool referenced_only : {false, true}) {
        auto m = parse(text, referenced_only);  // must return, ok or not
        if (!m.ok()) {
          ++errors;
          EXPECT_FALSE(m.status().message().empty());
        }
      }
    }
    for (const char* raw : {"1e309", "-1e400"}) {
      auto m = parse(with_raw(doc, at, raw), false);
      ASSERT_FALSE(m.ok()) << at.to_string();
      EXPECT_NE(m.status().message().find("number overflow"), std::string::npos)
          << m.status().message();
    }
  }
  EXPECT_GT(errors, 500);
  // Required fields of the wrong type: the error names the field.
  for (const char* at : {"/last-updated-ms", "/last-column-id", "/snapshots/0/timestamp-ms",
                         "/schemas/0/fields/0/required", "/refs/main/type",
                         "/snapshots/1/summary/operation", "/location"}) {
    json::json_pointer p(at);
    auto m = parse(with_raw(doc, p, "{\"a\": [1]}"), false);
    ASSERT_FALSE(m.ok()) << at;
    EXPECT_NE(m.status().message().find("'" + p.back() + "'"), std::string::npos)
        << m.status().message();
  }
}

// A snapshot summary value (or a property) nested 90,000 levels deep overflowed the stack
// when turned back into text.
TEST(MetadataJsonInput, DeeplyNestedValueIsRefused) {
  const json doc = json::parse(fixture_metadata());
  // Snapshot 1 is the current one: with referenced_snapshots_only the fast reader skips the
  // others without decoding them (simdjson, no recursion), so only its values are checked here.
  for (const char* at :
       {"/snapshots/1/summary/deep", "/properties/deep", "/snapshots/1/summary/operation",
        "/statistics", "/refs/deep", "/schemas/0/fields/0/doc"}) {
    for (bool referenced_only : {false, true}) {
      auto m = parse(with_raw(doc, json::json_pointer(at), kDeep), referenced_only);
      ASSERT_FALSE(m.ok()) << at;
      EXPECT_NE(m.status().message().find("table metadata nests JSON deeper than 1000 levels"),
                std::string::npos)
          << m.status().message();
    }
  }
  // Within the limit, a nested summary value is an error naming it.
  auto m = parse(with_raw(doc, json::json_pointer("/snapshots/1/summary/deep"), "[[[1]]]"), false);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("value of 'deep' must be a string, got an array"),
            std::string::npos)
      << m.status().message();
}

TEST(SpecJsonInput, SchemaSpecSortOrderAndNameMappingTextRefuseBadInput) {
  const std::string schema =
      R"({"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "x", "required": true, "type": "long"}]})";
  ASSERT_TRUE(parse_schema_json(schema).ok());
  std::string overflow = schema;
  overflow.replace(overflow.find("\"id\": 1"), 7, "\"id\": 1e309");
  auto s = parse_schema_json(overflow);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "schema is not valid JSON: number overflow parsing '1e309'");
  std::string wrong = schema;
  wrong.replace(wrong.find("\"id\": 1"), 7, "\"id\": true");
  s = parse_schema_json(wrong);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("field 'id' must be an integer, got a boolean"),
            std::string::npos)
      << s.status().message();
  std::string deep = schema;
  deep.replace(deep.find("\"long\""), 6, kDeep);
  s = parse_schema_json(deep);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("deeper than 1000 levels"), std::string::npos);

  auto spec = parse_partition_spec_json(R"({"spec-id": 1e309, "fields": []})");
  ASSERT_FALSE(spec.ok());
  EXPECT_NE(spec.status().message().find("1e309"), std::string::npos);
  auto order = parse_sort_order_json("{\"order-id\": 0, \"fields\": " + kDeep + "}");
  ASSERT_FALSE(order.ok());
  EXPECT_NE(order.status().message().find("deeper than 1000 levels"), std::string::npos);

  auto mapping = parse_name_mapping(R"([{"field-id": 1e309, "names": ["a"]}])");
  ASSERT_FALSE(mapping.ok());
  EXPECT_NE(mapping.status().message().find("1e309"), std::string::npos);
  mapping = parse_name_mapping(R"([{"field-id": 4294967297, "names": ["a"]}])");
  ASSERT_FALSE(mapping.ok());
  EXPECT_NE(mapping.status().message().find("field 'field-id' must be an int"), std::string::npos)
      << mapping.status().message();
  // 45,000 levels of {"fields": [...]}: refused before the recursive walk.
  std::string nested;
  for (int i = 0; i < 45000; ++i) nested += R"({"names": ["a"], "fields": [)";
  for (int i = 0; i < 45000; ++i) nested += "]}";
  mapping = parse_name_mapping("[" + nested + "]");
  ASSERT_FALSE(mapping.ok());
  EXPECT_NE(mapping.status().message().find("name mapping nests JSON deeper than 1000 levels"),
            std::string::npos)
      << mapping.status().message();
}

TEST(SpecJsonInput, LiteralErrorsQuoteValuesShortlyAndFloatsStayInRange) {
  // A float past the float range is an error, not a silent infinity; Float.MAX_VALUE as Java
  // prints it still reads.
  auto big = Literal::from_json(Type::float32(), json(1e39));
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.status().message().find("out of the float range"), std::string::npos);
  auto max = Literal::from_json(Type::float32(), json::parse("3.4028235E38"));
  ASSERT_TRUE(max.ok()) << max.status().to_string();
  EXPECT_EQ(max->as_float(), std::numeric_limits<float>::max());
  // The value in a message is cut short, and arrays or objects are named by kind.
  auto long_text = Literal::from_json(Type::int32(), json(std::string(100000, 'x')));
  ASSERT_FALSE(long_text.ok());
  EXPECT_LT(long_text.status().message().size(), 200u) << long_text.status().message();
  auto nested = Literal::from_json(Type::int64(), json::parse("[[[[1]]]]"));
  ASSERT_FALSE(nested.ok());
  EXPECT_EQ(nested.status().message(), "cannot parse an array as a long value");
  EXPECT_EQ(json_for_message(json::parse("[1]")), "an array");
  EXPECT_EQ(json_for_message(json("\xff")), "\"\xef\xbf\xbd\"");  // invalid UTF-8 replaced
}

}  // namespace
}  // namespace floe
