// Unit tests for table metadata JSON: every field, v1/v2/v3 rules, Java quirks, and errors
// that name the field at fault.
#include "floe/spec/table_metadata.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "floe/io/file_io.h"
#include "floe/spec/metadata_file.h"
#include "floe/util/compression.h"

namespace floe {
namespace {

using nlohmann::json;

json v2_base() {
  return json::parse(R"J({
    "format-version": 2,
    "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1",
    "location": "s3://bucket/t",
    "last-sequence-number": 2,
    "last-updated-ms": 1602638573590,
    "last-column-id": 7,
    "current-schema-id": 1,
    "schemas": [
      {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "x", "required": true, "type": "long"}]},
      {"type": "struct", "schema-id": 1, "identifier-field-ids": [1], "fields": [
        {"id": 1, "name": "x", "required": true, "type": "long"},
        {"id": 2, "name": "tags", "required": false,
         "type": {"type": "list", "element-id": 4, "element-required": true, "element": "string"}},
        {"id": 3, "name": "props", "required": false,
         "type": {"type": "map", "key-id": 5, "key": "string", "value-id": 6, "value-required": false, "value": "double"}},
        {"id": 7, "name": "loc", "required": false, "doc": "where",
         "type": {"type": "struct", "fields": [{"id": 8, "name": "lat", "required": false, "type": "decimal(9, 2)"}]}}
      ]}
    ],
    "default-spec-id": 0,
    "partition-specs": [{"spec-id": 0, "fields": [
      {"name": "x_bucket", "transform": "bucket[16]", "source-id": 1, "field-id": 1000}]}],
    "last-partition-id": 1000,
    "default-sort-order-id": 3,
    "sort-orders": [{"order-id": 3, "fields": [
      {"transform": "identity", "source-id": 1, "direction": "asc", "null-order": "nulls-first"},
      {"transform": "bucket[4]", "source-id": 1, "direction": "desc", "null-order": "nulls-last"}]}],
    "properties": {"read.split.target-size": "134217728"},
    "current-snapshot-id": 9223372036854775807,
    "snapshots": [
      {"snapshot-id": 3051729675574597004, "timestamp-ms": 1515100955770, "sequence-number": 1,
       "summary": {"operation": "append", "added-data-files": "1"}, "manifest-list": "s3://a/b/1.avro"},
      {"snapshot-id": 9223372036854775807, "parent-snapshot-id": 3051729675574597004,
       "timestamp-ms": 1555100955770, "sequence-number": 2, "schema-id": 1,
       "summary": {"operation": "overwrite"}, "manifest-list": "s3://a/b/2.avro"}
    ],
    "refs": {"main": {"snapshot-id": 9223372036854775807, "type": "branch"},
             "v1": {"snapshot-id": 3051729675574597004, "type": "tag", "max-ref-age-ms": 1000}},
    "snapshot-log": [{"timestamp-ms": 1515100955770, "snapshot-id": 3051729675574597004},
                     {"timestamp-ms": 1555100955770, "snapshot-id": 9223372036854775807}],
    "metadata-log": [{"timestamp-ms": 1515100, "metadata-file": "s3://bucket/t/metadata/00000-a.metadata.json"}],
    "statistics": [{"snapshot-id": 3051729675574597004, "statistics-path": "s3://a/stats.puffin",
      "file-size-in-bytes": 413, "file-footer-size-in-bytes": 42,
      "blob-metadata": [{"type": "ndv", "snapshot-id": 3051729675574597004, "sequence-number": 1,
                         "fields": [1], "properties": {"ndv": "3"}}]}],
    "partition-statistics": [{"snapshot-id": 3051729675574597004,
      "statistics-path": "s3://a/p.parquet", "file-size-in-bytes": 43}]
  })J");
}

Result<TableMetadata> parse(const json& j) { return parse_table_metadata(j.dump()); }

std::string error_of(const json& j) {
  auto r = parse(j);
  EXPECT_FALSE(r.ok()) << "expected an error for " << j.dump();
  return r.ok() ? "" : r.status().message();
}

TEST(TableMetadataTest, ParsesEveryV2Field) {
  auto r = parse(v2_base());
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  const TableMetadata& m = *r;
  EXPECT_EQ(m.format_version, 2);
  EXPECT_EQ(m.table_uuid, "9c12d441-03fe-4693-9a96-a0705ddf69c1");
  EXPECT_EQ(m.location, "s3://bucket/t");
  EXPECT_EQ(m.last_sequence_number, 2);
  EXPECT_EQ(m.last_updated_ms, 1602638573590);
  EXPECT_EQ(m.last_column_id, 7);
  ASSERT_EQ(m.schemas.size(), 2u);
  const Schema* s = m.schema();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->schema_id(), 1);
  EXPECT_EQ(s->identifier_field_ids(), std::vector<int32_t>{1});
  EXPECT_EQ(s->find_field(4)->type->id(), TypeId::kString);
  EXPECT_TRUE(s->find_field(4)->required);
  EXPECT_EQ(s->find_field(6)->type->id(), TypeId::kDouble);
  EXPECT_FALSE(s->find_field(6)->required);
  EXPECT_EQ(s->find_field(8)->type->to_string(), "decimal(9, 2)");
  EXPECT_EQ(s->find_field(7)->doc, "where");
  EXPECT_EQ(s->find_field("loc.lat")->id, 8);
  EXPECT_EQ(s->find_field("LOC.LAT", false)->id, 8);
  EXPECT_EQ(s->find_field("tags.element")->id, 4);
  EXPECT_EQ(s->find_field("props.value")->id, 6);
  EXPECT_EQ(s->find_column_name(8).value(), "loc.lat");
  ASSERT_EQ(m.spec()->fields().size(), 1u);
  EXPECT_EQ(m.spec()->fields()[0].transform, Transform::bucket(16));
  EXPECT_EQ(m.spec()->fields()[0].field_id, 1000);
  EXPECT_EQ(m.last_partition_id, 1000);
  ASSERT_NE(m.sort_order(), nullptr);
  EXPECT_EQ(m.sort_order()->order_id, 3);
  EXPECT_EQ(m.sort_order()->fields[1].direction, SortDirection::kDesc);
  EXPECT_EQ(m.sort_order()->fields[1].null_order, NullOrder::kNullsLast);
  EXPECT_EQ(m.property("read.split.target-size"), "134217728");
  // int64 ids survive exactly, including INT64_MAX.
  EXPECT_EQ(m.current_snapshot_id.value(), INT64_MAX);
  ASSERT_NE(m.current_snapshot(), nullptr);
  EXPECT_EQ(m.current_snapshot()->parent_snapshot_id.value(), 3051729675574597004);
  EXPECT_EQ(m.current_snapshot()->operation(), "overwrite");
  EXPECT_EQ(m.current_snapshot()->schema_id.value(), 1);
  EXPECT_EQ(m.snapshots[0]->summary.at("added-data-files"), "1");
  EXPECT_EQ(m.refs.at("v1").type, SnapshotRefType::kTag);
  EXPECT_EQ(m.refs.at("v1").max_ref_age_ms.value(), 1000);
  EXPECT_EQ(m.snapshot_for_ref("v1")->snapshot_id, 3051729675574597004);
  EXPECT_EQ(m.snapshot_as_of_time(1515100955771)->snapshot_id, 3051729675574597004);
  EXPECT_EQ(m.snapshot_as_of_time(1515100955769), nullptr);
  ASSERT_EQ(m.statistics.size(), 1u);
  EXPECT_EQ(m.statistics[0].blob_metadata[0].properties.at("ndv"), "3");
  EXPECT_EQ(m.partition_statistics[0].file_size_in_bytes, 43);
  EXPECT_EQ(m.metadata_log[0].metadata_file, "s3://bucket/t/metadata/00000-a.metadata.json");
}

TEST(TableMetadataTest, RoundTripsV2) {
  auto m = parse(v2_base());
  ASSERT_TRUE(m.ok());
  auto back = parse_table_metadata(table_metadata_to_json(*m, true));
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_TRUE(*back == *m);
  // Writing is deterministic.
  EXPECT_EQ(table_metadata_to_json(*back), table_metadata_to_json(*m));
}

TEST(TableMetadataTest, WritesJavaFieldOrderAndNames) {
  auto m = parse(v2_base());
  ASSERT_TRUE(m.ok());
  std::string text = table_metadata_to_json(*m);
  EXPECT_EQ(text.find("{\"format-version\":2,\"table-uuid\""), 0u);
  EXPECT_LT(text.find("\"last-sequence-number\""), text.find("\"last-updated-ms\""));
  EXPECT_LT(text.find("\"schemas\""), text.find("\"partition-specs\""));
  EXPECT_NE(text.find("\"current-snapshot-id\":9223372036854775807"), std::string::npos);
  EXPECT_EQ(text.find("\"schema\":"), std::string::npos);  // v1 only
}

TEST(TableMetadataTest, JavaQuirks) {
  json j = v2_base();
  // current-snapshot-id -1 means no snapshot; a missing refs map is fine.
  j["current-snapshot-id"] = -1;
  j.erase("refs");
  auto r = parse(j);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_FALSE(r->current_snapshot_id.has_value());
  EXPECT_EQ(r->current_snapshot(), nullptr);
  EXPECT_TRUE(r->refs.empty());
  // Missing refs with a current snapshot derive main.
  j["current-snapshot-id"] = 3051729675574597004;
  r = parse(j);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(r->refs.at("main").snapshot_id, 3051729675574597004);
  // parent-snapshot-id written as the string "null".
  j["snapshots"][0]["parent-snapshot-id"] = "null";
  r = parse(j);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_FALSE(r->snapshots[0]->parent_snapshot_id.has_value());
  // Type names in any case, decimals with spaces.
  j["schemas"][0]["fields"][0]["type"] = "LONG";
  r = parse(j);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(r->schemas[0]->find_field(1)->type->id(), TypeId::kLong);
}

TEST(TableMetadataTest, V3NullCurrentSnapshotAndRowLineage) {
  json j = v2_base();
  j["format-version"] = 3;
  j["next-row-id"] = 12345;
  j["current-snapshot-id"] = nullptr;
  j.erase("refs");
  j["snapshots"][0]["first-row-id"] = 0;
  j["snapshots"][0]["added-rows"] = 10;
  j["encryption-keys"] = json::parse(
      R"J([{"key-id": "k1", "encrypted-key-metadata": "AAEC", "encrypted-by-id": "master", "properties": {"a": "b"}}])J");
  j["schemas"][1]["fields"][1]["initial-default"] = nullptr;
  j["schemas"][1]["fields"].push_back(json::parse(
      R"J({"id": 9, "name": "n", "required": true, "type": "int", "initial-default": 34, "write-default": 35})J"));
  j["last-column-id"] = 9;
  auto r = parse(j);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(r->next_row_id.value(), 12345);
  EXPECT_FALSE(r->current_snapshot_id.has_value());
  EXPECT_EQ(r->snapshots[0]->first_row_id.value(), 0);
  EXPECT_EQ(r->snapshots[0]->added_rows.value(), 10);
  EXPECT_EQ(r->encryption_keys[0].encrypted_by_id.value(), "master");
  const NestedField* n = r->schema()->find_field(9);
  ASSERT_TRUE(n->initial_default.has_value());
  EXPECT_EQ(n->initial_default->as_int32(), 34);
  EXPECT_EQ(n->write_default->as_int32(), 35);
  std::string text = table_metadata_to_json(*r);
  EXPECT_NE(text.find("\"current-snapshot-id\":null"), std::string::npos);
  EXPECT_NE(text.find("\"next-row-id\":12345"), std::string::npos);
  auto back = parse_table_metadata(text);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_TRUE(*back == *r);
  // Required by the spec, but DuckDB-written v3 metadata omits it: read as absent.
  j.erase("next-row-id");
  auto lenient = parse(j);
  ASSERT_TRUE(lenient.ok()) << lenient.status().to_string();
  EXPECT_FALSE(lenient->next_row_id.has_value());
}

TEST(TableMetadataTest, V1LegacyFields) {
  json j = json::parse(R"J({
    "format-version": 1, "location": "/tmp/t", "last-updated-ms": 1, "last-column-id": 2,
    "schema": {"type": "struct", "fields": [
      {"id": 1, "name": "a", "required": true, "type": "int"},
      {"id": 2, "name": "ts", "required": false, "type": "timestamp"}]},
    "partition-spec": [{"name": "a", "transform": "identity", "source-id": 1},
                       {"name": "ts_hour", "transform": "hour", "source-id": 2}],
    "properties": {},
    "snapshots": [{"snapshot-id": 5, "timestamp-ms": 10, "manifests": ["/tmp/t/m0.avro", "/tmp/t/m1.avro"]}],
    "current-snapshot-id": 5
  })J");
  auto r = parse(j);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(r->format_version, 1);
  EXPECT_TRUE(r->table_uuid.empty());
  EXPECT_EQ(r->last_sequence_number, 0);
  EXPECT_EQ(r->current_schema_id, 0);
  // v1 field ids are assigned 1000, 1001, ... by position.
  EXPECT_EQ(r->spec()->fields()[0].field_id, 1000);
  EXPECT_EQ(r->spec()->fields()[1].field_id, 1001);
  EXPECT_EQ(r->last_partition_id, 1001);
  EXPECT_TRUE(r->sort_order()->is_unsorted());
  EXPECT_EQ(r->snapshots[0]->sequence_number, 0);
  EXPECT_EQ(r->snapshots[0]->manifests.size(), 2u);
  EXPECT_TRUE(r->snapshots[0]->summary.empty());
  // Writing v1 keeps the legacy fields next to the new ones.
  std::string text = table_metadata_to_json(*r);
  EXPECT_NE(text.find("\"schema\":{"), std::string::npos);
  EXPECT_NE(text.find("\"partition-spec\":["), std::string::npos);
  EXPECT_NE(text.find("\"manifests\":["), std::string::npos);
  EXPECT_EQ(text.find("\"last-sequence-number\""), std::string::npos);
  auto back = parse_table_metadata(text);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_TRUE(*back == *r);
}

// A v1 file carrying v2 sequence numbers (found by the metadata_json fuzz target): like the Java
// reference, the reader ignores last-sequence-number, keeps a snapshot's sequence-number, and
// writing it back gives the same metadata.
TEST(TableMetadataTest, V1IgnoresLastSequenceNumberKeepsSnapshotOnes) {
  json j = json::parse(R"J({
    "format-version": 1, "location": "/tmp/t", "last-updated-ms": 1, "last-column-id": 1,
    "last-sequence-number": 7,
    "schema": {"type": "struct", "fields": [{"id": 1, "name": "a", "required": true, "type": "int"}]},
    "partition-spec": [],
    "snapshots": [{"sequence-number": 3, "snapshot-id": 5, "timestamp-ms": 10,
                   "manifest-list": "/tmp/t/snap-5.avro"}],
    "current-snapshot-id": 5
  })J");
  auto r = parse(j);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(r->last_sequence_number, 0);
  EXPECT_EQ(r->snapshots[0]->sequence_number, 3);
  std::string text = table_metadata_to_json(*r);
  EXPECT_EQ(text.find("\"last-sequence-number\""), std::string::npos);
  EXPECT_NE(text.find("\"sequence-number\":3"), std::string::npos);
  auto back = parse_table_metadata(text);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_TRUE(*back == *r);
}

TEST(TableMetadataTest, ErrorsNameTheField) {
  json j = v2_base();
  j.erase("location");
  EXPECT_NE(error_of(j).find("'location'"), std::string::npos);

  j = v2_base();
  j["format-version"] = 4;
  auto r = parse(j);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kNotSupported);
  EXPECT_NE(r.status().message().find("format-version 4"), std::string::npos);

  j = v2_base();
  j["last-column-id"] = "seven";
  EXPECT_NE(error_of(j).find("'last-column-id' must be an integer"), std::string::npos);

  j = v2_base();
  j["snapshots"][1].erase("timestamp-ms");
  EXPECT_NE(error_of(j).find("snapshots[1]: missing required field 'timestamp-ms'"),
            std::string::npos);

  j = v2_base();
  j["schemas"][1]["fields"][3]["type"]["fields"][0]["type"] = "decimal(40, 2)";
  EXPECT_NE(error_of(j).find("decimal(40, 2)"), std::string::npos);

  j = v2_base();
  j["schemas"][1]["fields"][2]["type"].erase("value-id");
  EXPECT_NE(error_of(j).find("'value-id'"), std::string::npos);

  j = v2_base();
  j["current-schema-id"] = 7;
  EXPECT_NE(error_of(j).find("current-schema-id 7"), std::string::npos);

  j = v2_base();
  j["default-spec-id"] = 3;
  EXPECT_NE(error_of(j).find("default-spec-id 3"), std::string::npos);

  j = v2_base();
  j["default-sort-order-id"] = 0;
  EXPECT_NE(error_of(j).find("default-sort-order-id 0"), std::string::npos);

  j = v2_base();
  j["current-snapshot-id"] = 42;
  j.erase("refs");
  EXPECT_NE(error_of(j).find("current-snapshot-id 42"), std::string::npos);

  j = v2_base();
  j["refs"]["b"] = json::parse(R"J({"snapshot-id": 77, "type": "branch"})J");
  EXPECT_NE(error_of(j).find("'b'"), std::string::npos);

  j = v2_base();
  j["snapshots"][1]["snapshot-id"] = 3051729675574597004;
  EXPECT_NE(error_of(j).find("more than once"), std::string::npos);

  j = v2_base();
  j["snapshots"][1]["sequence-number"] = 99;
  EXPECT_NE(error_of(j).find("last-sequence-number"), std::string::npos);

  j = v2_base();
  j.erase("last-partition-id");
  EXPECT_NE(error_of(j).find("last-partition-id"), std::string::npos);

  j = v2_base();
  j.erase("sort-orders");
  EXPECT_NE(error_of(j).find("sort-orders"), std::string::npos);

  j = v2_base();
  j["schemas"][1]["identifier-field-ids"] = {2};
  EXPECT_NE(error_of(j).find("identifier field"), std::string::npos);

  j = v2_base();
  j["schemas"][1]["fields"][1]["id"] = 1;
  EXPECT_NE(error_of(j).find("more than once"), std::string::npos);

  j = v2_base();
  j["snapshots"][0]["summary"].erase("operation");
  EXPECT_NE(error_of(j).find("'operation'"), std::string::npos);

  j = v2_base();
  j["partition-specs"][0]["fields"][0]["transform"] = "bucket[0]";
  EXPECT_NE(error_of(j).find("partition-specs[0].fields[0]"), std::string::npos);

  j = v2_base();
  j["refs"]["v1"]["type"] = "leaf";
  EXPECT_NE(error_of(j).find("branch or tag"), std::string::npos);
}

TEST(TableMetadataTest, RejectsBadJson) {
  auto r = parse_table_metadata("{\"format-version\": 2,");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData);
  EXPECT_NE(r.status().message().find("not valid JSON"), std::string::npos);
  r = parse_table_metadata("[1, 2]");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("JSON object"), std::string::npos);
  r = parse_table_metadata("");
  ASSERT_FALSE(r.ok());
}

// Reading for a scan keeps the snapshots that refs and current-snapshot-id name, the logs in
// full, and refuses to be written back.
TEST(TableMetadataTest, ReferencedSnapshotsOnly) {
  json j = v2_base();
  json older = j["snapshots"][0];
  older["snapshot-id"] = 11;
  older["sequence-number"] = 1;
  j["snapshots"].insert(j["snapshots"].begin(), older);
  j["snapshot-log"].insert(j["snapshot-log"].begin(),
                           json::parse(R"J({"timestamp-ms": 1, "snapshot-id": 11})J"));
  MetadataParseOptions options;
  options.referenced_snapshots_only = true;
  auto r = parse_table_metadata(j.dump(), options);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(r->omitted_snapshots, 1);
  ASSERT_EQ(r->snapshots.size(), 2u);  // main's head and the tag v1
  EXPECT_EQ(r->snapshot_by_id(11), nullptr);
  EXPECT_EQ(r->current_snapshot()->manifest_list, "s3://a/b/2.avro");
  EXPECT_EQ(r->snapshot_for_ref("v1")->summary.at("added-data-files"), "1");
  EXPECT_EQ(r->snapshot_log.size(), 3u);
  auto full = parse(j);
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->omitted_snapshots, 0);
  EXPECT_EQ(full->snapshots.size(), 3u);

  // Refs written after the snapshots (not Java's order) are found too.
  nlohmann::ordered_json reordered;
  for (auto& [k, v] : j.items()) {
    if (k != "refs") reordered[k] = v;
  }
  reordered["refs"] = j["refs"];
  auto late = parse_table_metadata(reordered.dump(), options);
  ASSERT_TRUE(late.ok()) << late.status().to_string();
  EXPECT_EQ(late->omitted_snapshots, 1);

  auto io = make_memory_file_io();
  Status w = write_table_metadata(*io, "mem://t/metadata/v2.metadata.json", *r);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.message().find("1 of its snapshots"), std::string::npos) << w.message();
  EXPECT_TRUE(write_table_metadata(*io, "mem://t/metadata/v2.metadata.json", *full).ok());
}

// Shapes the simdjson front end leaves to the nlohmann parser still parse the same way.
TEST(TableMetadataTest, QuirksTakeTheReferencePath) {
  json j = v2_base();
  j["snapshots"][0]["parent-snapshot-id"] = "null";  // some writers
  j["snapshots"][1]["schema-id"] = nullptr;
  auto r = parse(j);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_FALSE(r->snapshots[0]->parent_snapshot_id.has_value());
  EXPECT_FALSE(r->snapshots[1]->schema_id.has_value());
  // A truncated document names the JSON error rather than a field.
  std::string text = v2_base().dump();
  auto cut = parse_table_metadata(text.substr(0, text.size() / 2));
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.status().message().find("not valid JSON"), std::string::npos);
}

TEST(TableMetadataTest, UnknownTransformIsKept) {
  json j = v2_base();
  j["partition-specs"][0]["fields"][0]["transform"] = "zorder";
  auto r = parse(j);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_TRUE(r->spec()->fields()[0].transform.is_unknown());
  EXPECT_NE(table_metadata_to_json(*r).find("\"transform\":\"zorder\""), std::string::npos);
}

TEST(MetadataFileTest, VersionsAndNames) {
  EXPECT_EQ(metadata_file_version("00003-9c12d441-03fe-4693-9a96-a0705ddf69c1.metadata.json"), 3);
  EXPECT_EQ(metadata_file_version("/x/y/v12.metadata.json"), 12);
  EXPECT_EQ(metadata_file_version("v2.gz.metadata.json"), 2);
  EXPECT_EQ(metadata_file_version("00001-abc.gz.metadata.json"), 1);
  EXPECT_FALSE(metadata_file_version("vfinal.metadata.json").has_value());
  EXPECT_FALSE(metadata_file_version("v3.1.metadata.json").has_value());
  EXPECT_FALSE(metadata_file_version("snap-1.avro").has_value());
  std::string name = catalog_metadata_file_name(7);
  EXPECT_EQ(name.substr(0, 6), "00007-");
  EXPECT_EQ(name.size(), 6 + 36 + 14u);
  EXPECT_EQ(metadata_file_version(name), 7);
  EXPECT_EQ(hadoop_metadata_file_name(3, true), "v3.gz.metadata.json");
}

TEST(MetadataFileTest, GzipAndCurrentFileSelection) {
  auto io = make_memory_file_io();
  auto m = parse(v2_base());
  ASSERT_TRUE(m.ok());
  ASSERT_TRUE(write_table_metadata(*io, "t/metadata/v1.gz.metadata.json", *m).ok());
  auto raw = io->read_file("t/metadata/v1.gz.metadata.json");
  ASSERT_TRUE(raw.ok());
  EXPECT_TRUE(is_gzip(*raw));
  auto back = read_table_metadata(*io, "t/metadata/v1.gz.metadata.json");
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_TRUE(*back == *m);
  // Creating the same file twice is refused (kCreateNew is the default).
  auto again = write_table_metadata(*io, "t/metadata/v1.gz.metadata.json", *m);
  EXPECT_EQ(again.kind(), ErrorKind::kAlreadyExists);

  TableMetadata newer = *m;
  newer.last_updated_ms += 10;
  ASSERT_TRUE(write_table_metadata(*io, "t/metadata/v2.metadata.json", newer).ok());
  auto cur = find_current_metadata_file(*io, "t");
  ASSERT_TRUE(cur.ok()) << cur.status().to_string();
  EXPECT_EQ(cur->path, "t/metadata/v2.metadata.json");
  EXPECT_EQ(cur->reason, "highest version");

  ASSERT_TRUE(write_version_hint(*io, "t/metadata", 1).ok());
  EXPECT_EQ(*io->read_file("t/metadata/version-hint.text"), "1");
  cur = find_current_metadata_file(*io, "t");
  ASSERT_TRUE(cur.ok());
  EXPECT_EQ(cur->path, "t/metadata/v1.gz.metadata.json");
  EXPECT_EQ(cur->reason, "version-hint");

  // A hint naming a missing file falls back to the highest version.
  ASSERT_TRUE(io->write_file("t/metadata/version-hint.text", "9\n").ok());
  cur = find_current_metadata_file(*io, "t");
  ASSERT_TRUE(cur.ok());
  EXPECT_EQ(cur->path, "t/metadata/v2.metadata.json");

  // Names without versions: newest last-updated-ms wins.
  ASSERT_TRUE(io->delete_file("t/metadata/version-hint.text").ok());
  TableMetadata newest = *m;
  newest.last_updated_ms += 100;
  ASSERT_TRUE(write_table_metadata(*io, "t/metadata/vfinal.metadata.json", newest).ok());
  cur = find_current_metadata_file(*io, "t/metadata");
  ASSERT_TRUE(cur.ok());
  EXPECT_EQ(cur->path, "t/metadata/vfinal.metadata.json");
  EXPECT_EQ(cur->reason, "newest last-updated-ms");

  auto missing = find_current_metadata_file(*io, "nothing/here");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().kind(), ErrorKind::kNotFound);
}

TEST(MetadataFileTest, ReadErrorsNameThePath) {
  auto io = make_memory_file_io();
  ASSERT_TRUE(io->write_file("bad.metadata.json", "{not json").ok());
  auto r = read_table_metadata(*io, "bad.metadata.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("bad.metadata.json"), std::string::npos);
  r = read_table_metadata(*io, "absent.metadata.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kNotFound);
  // Corrupt gzip is reported, not crashed on.
  ASSERT_TRUE(
      io->write_file("c.gz.metadata.json", std::string("\x1f\x8b\x08\x00garbage", 11)).ok());
  r = read_table_metadata(*io, "c.gz.metadata.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData);
}

}  // namespace
}  // namespace floe
