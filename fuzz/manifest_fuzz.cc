// Manifests (Iceberg spec, Manifests): ManifestReader over the file's bytes, with and without
// a table to fall back on for manifests lacking Iceberg key-value metadata, reading every
// entry with and without column statistics.
#include "floe/manifest/manifest_reader.h"
#include "floe/spec/table_metadata.h"
#include "fuzz_support.h"

namespace {

// A small v2 table: its schema and partition spec stand in for the headers a manifest lacks.
constexpr std::string_view kTableJson = R"json({
  "format-version": 2, "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1",
  "location": "mem://wh/db/t", "last-sequence-number": 3, "last-updated-ms": 1700000000000,
  "last-column-id": 4, "current-schema-id": 0,
  "schemas": [{"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "data", "required": false, "type": "string"},
    {"id": 3, "name": "ts", "required": false, "type": "timestamptz"},
    {"id": 4, "name": "amount", "required": false, "type": "decimal(10, 2)"}]}],
  "default-spec-id": 0,
  "partition-specs": [{"spec-id": 0, "fields": [
    {"name": "ts_day", "transform": "day", "source-id": 3, "field-id": 1000},
    {"name": "id_bucket", "transform": "bucket[16]", "source-id": 1, "field-id": 1001}]}],
  "last-partition-id": 1001, "default-sort-order-id": 0,
  "sort-orders": [{"order-id": 0, "fields": []}], "properties": {},
  "current-snapshot-id": -1, "snapshots": [], "snapshot-log": [], "metadata-log": []
})json";

const floe::TableMetadata& table() {
  static const floe::TableMetadata metadata = [] {
    auto parsed = floe::parse_table_metadata(kTableJson);
    FUZZ_CHECK(parsed.ok(), parsed.status().to_string());
    return *std::move(parsed);
  }();
  return metadata;
}

void read_all(std::string_view bytes, const floe::TableMetadata* table, bool stats) {
  floe::ManifestFile manifest;
  manifest.manifest_path = "mem://wh/db/t/metadata/fuzz-m0.avro";
  manifest.manifest_length = static_cast<int64_t>(bytes.size());
  manifest.sequence_number = 3;
  manifest.min_sequence_number = 1;
  manifest.added_snapshot_id = 42;
  floe::ManifestReadOptions options;
  options.read_stats = stats;
  auto reader = floe::ManifestReader::open_view(bytes, manifest, table, options);
  if (!reader.ok()) return;
  (void)(*reader)->for_each([](const floe::ManifestEntry& entry) {
    (void)entry.data_file.file_path.size();
    return true;
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes = floe::fuzz::as_text(data, size);
  read_all(bytes, &table(), true);
  read_all(bytes, nullptr, false);
  return 0;
}
