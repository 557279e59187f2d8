// Metadata files on storage: reading and writing table metadata JSON (plain, gzip, or zstd as
// iceberg-go writes), the two naming schemes (`%05d-<uuid>.metadata.json` for catalog tables,
// `v<N>.metadata.json` + `version-hint.text` for file-system tables), and finding the current
// metadata file of a table directory.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "floe/io/file_io.h"
#include "floe/io/relocating_file_io.h"
#include "floe/spec/table_metadata.h"

namespace floe {

// Reads and parses a metadata file. Compression is detected from the content (gzip or zstd
// magic), so `*.gz.metadata.json` and `*.metadata.json.gz` both work. Errors name the path.
Result<TableMetadata> read_table_metadata(FileIO& io, std::string_view path,
                                          const MetadataParseOptions& options = {});

// Writes metadata JSON; gzip-compressed when the name ends in `.gz.metadata.json`.
Status write_table_metadata(FileIO& io, std::string_view path, const TableMetadata& metadata,
                            WriteMode mode = WriteMode::kCreateNew);

// The version of a metadata file name: "00003-<uuid>.metadata.json" -> 3,
// "v12.metadata.json" / "v12.gz.metadata.json" -> 12. nullopt for other names.
std::optional<int64_t> metadata_file_version(std::string_view file_name);

// "00003-<uuid>.metadata.json" (".gz.metadata.json" when gzip).
std::string catalog_metadata_file_name(int64_t version, bool gzip = false);
// "v3.metadata.json" (".gz.metadata.json" when gzip).
std::string hadoop_metadata_file_name(int64_t version, bool gzip = false);

// Writes `<metadata_dir>/version-hint.text` with the bare version number (no newline, as
// Java's HadoopTableOperations does). The hint is best-effort: readers verify the file exists.
Status write_version_hint(FileIO& io, std::string_view metadata_dir, int64_t version);

// How find_current_metadata_file chose the file.
struct CurrentMetadataFile {
  std::string path;
  std::string reason;  // "version-hint", "highest version", "newest last-updated-ms", "given"
};

// Finds the current metadata file for `path`, which may be a metadata JSON file, a table
// directory (containing metadata/) or a metadata directory:
// 1. metadata/version-hint.text naming an existing file (a bare number N means v<N>, else the
//    text is a file name stem);
// 2. otherwise the highest version among the metadata files;
// 3. if some file names carry no version (e.g. "vfinal.metadata.json"), the file with the
//    newest last-updated-ms.
Result<CurrentMetadataFile> find_current_metadata_file(FileIO& io, std::string_view path);

// A table opened straight from storage, without a catalog.
struct StoredTable {
  std::shared_ptr<const TableMetadata> metadata;
  // Reads the table's files; paths under the metadata's `location` (or written under an
  // older location) are relocated to where the table now lies.
  FileIOPtr io;
  CurrentMetadataFile metadata_file;
  std::string directory;  // the table directory the files were found in
};

// Opens the table at `path` (a metadata JSON file, table directory or metadata directory).
// When the metadata names another location (s3://..., hdfs://..., file:/tmp/..., relative
// paths), file paths are resolved under the table's directory.
Result<StoredTable> open_table_at(FileIOPtr io, std::string_view path,
                                  const MetadataParseOptions& options = {});

}  // namespace floe
