// Reading manifest lists (Iceberg spec, Manifest Lists). Fields are matched to the model by
// Iceberg field id (by name where a writer left ids out, including the legacy names
// added_data_files_count / existing_data_files_count / deleted_data_files_count), never by
// position.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "floe/format/avro/container.h"
#include "floe/io/file_io.h"
#include "floe/manifest/manifest.h"
#include "floe/spec/table_metadata.h"

namespace floe {

// A manifest list and its header metadata.
struct ManifestList {
  std::vector<ManifestFile> manifests;
  std::map<std::string, std::string> metadata;  // Avro header key-value metadata
  avro::Codec codec = avro::Codec::kNull;
};

Result<ManifestList> read_manifest_list(FileIO& io, std::string_view path);
// From the bytes of a manifest list file; `path` names it in errors.
Result<ManifestList> parse_manifest_list(std::string bytes, std::string_view path);

// The manifests of a snapshot: its manifest list, or for v1 snapshots with inline `manifests`
// one ManifestFile per path (spec of the table's default, sequence numbers 0).
Result<std::vector<ManifestFile>> snapshot_manifests(FileIO& io, const TableMetadata& table,
                                                     const Snapshot& snapshot);

}  // namespace floe
