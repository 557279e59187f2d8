// Interoperability: every table metadata JSON of the fixture tables (Java, Rust, Go test
// files and the metadata/ of every full table written by Spark, pyiceberg, Trino, Impala, ...)
// parses; writing and re-reading gives an equal model; the files the fixture README marks
// invalid are rejected with a clear error.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "floe/io/file_io.h"
#include "floe/spec/metadata_file.h"
#include "floe/util/compression.h"
#include "spec/table_metadata_internal.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

const fs::path kFixtures = FLOE_FIXTURES_DIR;

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Negative cases: Java's TestTableMetadata failures (mirrored by iceberg-rust and iceberg-go),
// BigQuery's 97-byte placeholder v0.metadata.json, and duckdb's bad_iceberg_metadata.json.
// Each maps to a fragment the error message must contain.
// The first matching suffix wins, so path-specific entries come first.
const std::vector<std::pair<std::string, std::string>>& expected_errors() {
  static const std::vector<std::pair<std::string, std::string>> kErrors = {
      // iceberg-rust's "unsupported version" is v3, which floe reads; it still lacks `schemas`.
      {"iceberg-rust/table_metadata/TableMetadataUnsupportedVersion.json", "'schemas'"},
      {"TableMetadataUnsupportedVersion.json", "format-version 42"},
      {"TableMetadataV1MissingSchemaType.json", "'type'"},
      {"TableMetadataV2CurrentSchemaNotFound.json", "current-schema-id"},
      {"TableMetadataV2MissingLastPartitionId.json", "last-partition-id"},
      {"TableMetadataV2MissingPartitionSpecs.json", "partition-specs"},
      {"TableMetadataV2MissingSchemas.json", "schemas"},
      {"TableMetadataV2MissingSortOrder.json", "sort-orders"},
      {"TableMetadataV1NoValidSchema.json", "current-schema-id"},
      {"TableMetadataV1SchemasWithoutCurrentId.json", "current-schema-id"},
      {"TableMetadataV1PartitionSpecsWithoutDefaultId.json", "default-spec-id"},
      {"big_query_error/metadata/v0.metadata.json", "format-version"},
      {"bad_data/bad_iceberg_metadata.json", "JSON"},
  };
  return kErrors;
}

std::optional<std::string> expected_error_for(const std::string& path) {
  for (const auto& [suffix, fragment] : expected_errors()) {
    if (ends_with(path, "/" + suffix)) return fragment;
  }
  return std::nullopt;
}

// Table metadata files: *.metadata.json (plain, gzip, zstd) anywhere, plus the lone
// table-metadata test files of the reference implementations.
std::vector<std::string> metadata_files() {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(kFixtures)) {
    if (!e.is_regular_file()) continue;
    std::string p = e.path().string();
    std::string dir = e.path().parent_path().filename().string();
    std::string name = e.path().filename().string();
    bool lone =
        ((dir == "table-metadata" || dir == "table_metadata") && ends_with(p, ".json")) ||
        (name.rfind("example_", 0) == 0 && name.find("table_metadata") != std::string::npos);
    if (lone || ends_with(p, ".metadata.json") || ends_with(p, ".metadata.json.gz") ||
        ends_with(p, "bad_iceberg_metadata.json")) {
      out.push_back(p);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(FixturesMetadataTest, FixturesArePresent) {
  ASSERT_TRUE(fs::is_directory(kFixtures)) << "fixtures not found at " << kFixtures;
  // 332 metadata files in table dirs + the reference implementations' files.
  EXPECT_GE(metadata_files().size(), 360u);
}

TEST(FixturesMetadataTest, EveryValidFileParsesAndRoundTrips) {
  auto io = make_local_file_io();
  int valid = 0;
  for (const auto& path : metadata_files()) {
    if (expected_error_for(path)) continue;
    SCOPED_TRACE(path);
    auto m = read_table_metadata(*io, path);
    ASSERT_TRUE(m.ok()) << m.status().to_string();
    ++valid;
    auto back = parse_table_metadata(table_metadata_to_json(*m));
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_TRUE(*back == *m) << "round trip changed the model";
    // A second write is byte-identical to the first.
    EXPECT_EQ(table_metadata_to_json(*back), table_metadata_to_json(*m));
  }
  EXPECT_GE(valid, 340);
}

// The simdjson front end gives exactly the nlohmann parser's model on every fixture it accepts,
// and accepts every valid one; invalid files it leaves to the nlohmann parser.
TEST(FixturesMetadataTest, FastParserAgreesWithTheReferenceParser) {
  auto io = make_local_file_io();
  int compared = 0;
  for (const auto& path : metadata_files()) {
    SCOPED_TRACE(path);
    std::string text = *io->read_file(path);
    if (is_gzip(text)) text = *gzip_decompress(text);
    if (is_zstd(text)) text = *zstd_decompress(text);
    auto fast = internal::parse_table_metadata_fast(text, {});
    if (expected_error_for(path)) {
      EXPECT_FALSE(fast.has_value()) << "the fast path accepted an invalid file";
      continue;
    }
    if (!fast) {
      ADD_FAILURE() << "the fast path gave up on a valid file";
      continue;
    }
    auto slow = internal::parse_table_metadata_json(nlohmann::json::parse(text), {}, false);
    ASSERT_TRUE(slow.ok()) << slow.status().to_string();
    EXPECT_TRUE(*fast == *slow);
    EXPECT_EQ(table_metadata_to_json(*fast), table_metadata_to_json(*slow));
    // Reading for a scan keeps exactly the snapshots refs point at.
    auto scan = parse_table_metadata(text, {.referenced_snapshots_only = true});
    ASSERT_TRUE(scan.ok()) << scan.status().to_string();
    EXPECT_EQ(scan->snapshots.size() + scan->omitted_snapshots, slow->snapshots.size());
    for (const auto& [name, ref] : slow->refs) {
      const Snapshot* s = scan->snapshot_by_id(ref.snapshot_id);
      ASSERT_NE(s, nullptr) << name;
      EXPECT_EQ(*s, *slow->snapshot_by_id(ref.snapshot_id));
    }
    EXPECT_EQ(scan->snapshot_log, slow->snapshot_log);
    ++compared;
  }
  EXPECT_GE(compared, 340);
}

TEST(FixturesMetadataTest, InvalidFilesAreRejectedWithClearErrors) {
  auto io = make_local_file_io();
  std::set<std::string> seen;
  for (const auto& path : metadata_files()) {
    auto fragment = expected_error_for(path);
    if (!fragment) continue;
    SCOPED_TRACE(path);
    auto m = read_table_metadata(*io, path);
    ASSERT_FALSE(m.ok()) << "accepted an invalid metadata file";
    EXPECT_NE(m.status().message().find(*fragment), std::string::npos) << m.status().message();
    // The error names the file.
    EXPECT_NE(m.status().message().find(fs::path(path).filename().string()), std::string::npos);
    for (const auto& [suffix, _] : expected_errors()) {
      if (ends_with(path, "/" + suffix)) seen.insert(suffix);
    }
  }
  EXPECT_EQ(seen.size(), expected_errors().size()) << "some negative fixtures were not found";
}

// Field values checked against the raw JSON, read independently of floe's model.
TEST(FixturesMetadataTest, ModelMatchesRawJson) {
  auto io = make_local_file_io();
  for (const auto& path : metadata_files()) {
    if (expected_error_for(path) || !ends_with(path, ".json") ||
        ends_with(path, "gz.metadata.json") || path.find("zstd") != std::string::npos) {
      continue;
    }
    SCOPED_TRACE(path);
    std::ifstream in(path);
    nlohmann::json raw = nlohmann::json::parse(in);
    auto m = read_table_metadata(*io, path);
    ASSERT_TRUE(m.ok()) << m.status().to_string();
    EXPECT_EQ(m->format_version, raw["format-version"].get<int>());
    EXPECT_EQ(m->location, raw["location"].get<std::string>());
    size_t snapshots = raw.contains("snapshots") ? raw["snapshots"].size() : 0;
    EXPECT_EQ(m->snapshots.size(), snapshots);
    if (raw.contains("current-snapshot-id") && !raw["current-snapshot-id"].is_null() &&
        raw["current-snapshot-id"] != -1) {
      ASSERT_TRUE(m->current_snapshot_id.has_value());
      EXPECT_EQ(static_cast<uint64_t>(*m->current_snapshot_id),
                raw["current-snapshot-id"].get<uint64_t>());
    } else {
      EXPECT_FALSE(m->current_snapshot_id.has_value());
    }
    // Top-level field ids and names of the current schema.
    nlohmann::json schema;
    if (raw.contains("schemas")) {
      for (const auto& s : raw["schemas"]) {
        if (s.value("schema-id", 0) == raw["current-schema-id"].get<int>()) schema = s;
      }
    } else {
      schema = raw["schema"];
    }
    ASSERT_EQ(m->schema()->fields().size(), schema["fields"].size());
    for (size_t i = 0; i < schema["fields"].size(); ++i) {
      EXPECT_EQ(m->schema()->fields()[i].id, schema["fields"][i]["id"].get<int>());
      EXPECT_EQ(m->schema()->fields()[i].name, schema["fields"][i]["name"].get<std::string>());
    }
    // Partition fields of the default spec.
    nlohmann::json fields;
    if (raw.contains("partition-specs")) {
      for (const auto& s : raw["partition-specs"]) {
        if (s["spec-id"] == raw["default-spec-id"]) fields = s["fields"];
      }
    } else {
      fields = raw["partition-spec"];
    }
    ASSERT_EQ(m->spec()->fields().size(), fields.size());
    for (size_t i = 0; i < fields.size(); ++i) {
      EXPECT_EQ(m->spec()->fields()[i].source_id, fields[i]["source-id"].get<int>());
      EXPECT_EQ(m->spec()->fields()[i].name, fields[i]["name"].get<std::string>());
      EXPECT_EQ(m->spec()->fields()[i].transform.to_string(),
                fields[i]["transform"].get<std::string>());
    }
  }
}

// REST catalog responses embed table metadata under "metadata".
TEST(FixturesMetadataTest, RestResponsesEmbedValidMetadata) {
  int parsed = 0;
  for (const auto& e : fs::directory_iterator(kFixtures / "iceberg-rust/rest_catalog_responses")) {
    SCOPED_TRACE(e.path().string());
    std::ifstream in(e.path());
    nlohmann::json raw = nlohmann::json::parse(in);
    ASSERT_TRUE(raw.contains("metadata"));
    auto m = parse_table_metadata(raw["metadata"].dump());
    ASSERT_TRUE(m.ok()) << m.status().to_string();
    ++parsed;
  }
  EXPECT_EQ(parsed, 3);
}

TEST(FixturesMetadataTest, SpecificFiles) {
  auto io = make_local_file_io();
  // Gzip-compressed metadata.
  auto gz = read_table_metadata(
      *io,
      (kFixtures / "duckdb-iceberg/lineitem_iceberg_gz/metadata/v2.gz.metadata.json").string());
  ASSERT_TRUE(gz.ok()) << gz.status().to_string();
  EXPECT_EQ(gz->format_version, 1);
  // iceberg-go's zstd-compressed metadata.
  auto zst = read_table_metadata(
      *io,
      (kFixtures / "iceberg-go/table-metadata/TableMetadataV2Valid.zstd.metadata.json").string());
  ASSERT_TRUE(zst.ok()) << zst.status().to_string();
  EXPECT_EQ(zst->format_version, 2);
  // A hand-written snapshot id above INT64_MAX keeps its 64-bit pattern.
  auto big = read_table_metadata(
      *io,
      (kFixtures / "duckdb-iceberg/equality_delete_cross_partition/metadata/vfinal.metadata.json")
          .string());
  ASSERT_TRUE(big.ok()) << big.status().to_string();
  EXPECT_EQ(static_cast<uint64_t>(*big->current_snapshot_id), 9876543210123456789ULL);
  EXPECT_EQ(big->schema()->identifier_field_ids(), std::vector<int32_t>{2});
  // pyiceberg's v2 metadata with v3-style defaults.
  auto defaults = find_current_metadata_file(
      *io, (kFixtures / "duckdb-iceberg/add_columns_with_defaults").string());
  ASSERT_TRUE(defaults.ok());
  auto dm = read_table_metadata(*io, defaults->path);
  ASSERT_TRUE(dm.ok()) << dm.status().to_string();
  const NestedField* dec = dm->schema()->find_field("col_decimal");
  ASSERT_NE(dec, nullptr);
  ASSERT_TRUE(dec->initial_default.has_value());
  EXPECT_EQ(dec->initial_default->to_string(), "12345.00");
  const NestedField* lng = dm->schema()->find_field("col_long");
  EXPECT_EQ(lng->initial_default->as_int64(), INT64_MIN);
  EXPECT_EQ(dm->schema()->find_field("col_fixed")->initial_default->as_bytes(),
            std::string("\x01\x02\x03\xff\x03", 5));
  // Java v3 metadata with row lineage.
  auto v3 = read_table_metadata(
      *io, (kFixtures / "iceberg-java/table-metadata/TableMetadataV3ValidMinimal.json").string());
  ASSERT_TRUE(v3.ok()) << v3.status().to_string();
  EXPECT_EQ(v3->next_row_id.value(), 0);
  EXPECT_EQ(v3->schema()->find_field(1)->initial_default->as_int64(), 1);
}

struct CurrentCase {
  const char* table;
  const char* file;
  const char* reason;
};

TEST(FixturesMetadataTest, CurrentMetadataFileSelection) {
  // Expected current files as listed in the fixture README.
  const CurrentCase cases[] = {
      {"dremio/partitionednation", "v2.metadata.json", "version-hint"},
      {"duckdb-iceberg/name_mapping", "v7.metadata.json", "version-hint"},
      {"duckdb-iceberg/big_query_error", "v1749025517.metadata.json", "version-hint"},
      {"duckdb-iceberg/custom_write_paths",
       "00000-acdf842e-3a9d-4b9b-ad87-daf785831925.metadata.json", "version-hint"},
      {"duckdb-iceberg/equality_delete_extra_column", "vfinal.metadata.json",
       "newest last-updated-ms"},
      {"duckdb-iceberg/add_columns_with_defaults",
       "00003-3f1801a5-7dfb-4072-b14a-39cd12f9279b.metadata.json", "highest version"},
      {"duckdb-iceberg/lineitem_iceberg_gz", "v2.gz.metadata.json", "version-hint"},
      {"impala/iceberg_column_case_sensitivity_issue", "v3.metadata.json", "version-hint"},
  };
  auto io = make_local_file_io();
  for (const auto& c : cases) {
    SCOPED_TRACE(c.table);
    auto cur = find_current_metadata_file(*io, (kFixtures / c.table).string());
    ASSERT_TRUE(cur.ok()) << cur.status().to_string();
    EXPECT_EQ(fs::path(cur->path).filename().string(), c.file);
    EXPECT_EQ(cur->reason, c.reason);
  }
}

}  // namespace
}  // namespace floe
