// Reading manifests (manifest lists: manifest_list_reader.h). Fields are matched to the model
// by Iceberg field id (by name where a writer left ids out), never by position; fields the
// caller does not need are skipped without allocating. Entries inherit their snapshot id and,
// when ADDED, their sequence numbers and first_row_id from the manifest list entry. Manifests
// without Iceberg key-value metadata (re-encoded by avro-tools) are read with the spec and
// content of the manifest list entry and the table's specs.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/format/avro/container.h"
#include "floe/io/file_io.h"
#include "floe/manifest/manifest.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/table_metadata.h"

namespace floe {

struct ManifestReadOptions {
  // Read column_sizes, value/null/NaN counts and bounds. False skips them all.
  bool read_stats = true;
  // When non-empty, only these column ids keep their metrics; the others are skipped.
  std::vector<int32_t> stats_columns;
  // Deliver DELETED entries (scans do not need them).
  bool include_deleted = true;
};

// What a manifest says about itself (header metadata, with the fallbacks applied).
struct ManifestInfo {
  int format_version = 1;
  int32_t spec_id = 0;
  ManifestContent content = ManifestContent::kData;
  SchemaPtr schema;                   // the `schema` header, or the table's schema
  PartitionSpecPtr spec;              // the `partition-spec` header, or the table's spec by id
  TypePtr partition_type;             // struct of the spec's partition fields
  bool has_iceberg_metadata = false;  // false for re-encoded manifests
  std::map<std::string, std::string> metadata;
  avro::Codec codec = avro::Codec::kNull;
};

// Streams the entries of one manifest. The entry passed to the callback is reused between
// calls (copy it to keep it); returning false stops the scan.
class ManifestReader {
 public:
  // `manifest` supplies the path and the values entries inherit; `table` (may be null) the
  // specs and schema used when the file lacks key-value metadata.
  static Result<std::unique_ptr<ManifestReader>> open(FileIO& io, const ManifestFile& manifest,
                                                      const TableMetadata* table,
                                                      ManifestReadOptions options = {});
  // From file bytes (no FileIO); used by benchmarks and tools.
  static Result<std::unique_ptr<ManifestReader>> open_bytes(std::string bytes,
                                                            const ManifestFile& manifest,
                                                            const TableMetadata* table,
                                                            ManifestReadOptions options = {});
  // Over bytes the caller keeps alive while the reader is used (no copy).
  static Result<std::unique_ptr<ManifestReader>> open_view(std::string_view bytes,
                                                           const ManifestFile& manifest,
                                                           const TableMetadata* table,
                                                           ManifestReadOptions options = {});
  ~ManifestReader();

  const ManifestInfo& info() const;
  Status for_each(const std::function<bool(const ManifestEntry&)>& fn);
  Result<std::vector<ManifestEntry>> read_all();

 private:
  struct Impl;
  explicit ManifestReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Reads every entry of a manifest (inheritance applied).
Result<std::vector<ManifestEntry>> read_manifest(FileIO& io, const ManifestFile& manifest,
                                                 const TableMetadata* table,
                                                 ManifestReadOptions options = {});

}  // namespace floe
