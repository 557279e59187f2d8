// Catalog: where a table's current metadata pointer lives, and the compare-and-swap that makes
// a commit atomic. Namespaces (create, list, drop, properties) and tables (create, load, exists,
// rename, drop with or without purge, register an existing metadata file).
//
// Implementations:
//   sqlite:PATH                       SQL catalog in Java JdbcCatalog's layout (embedded default)
//   postgresql://user@host:port/db    the same layout on PostgreSQL (libpq); a libpq keyword
//                                     string ("host=... dbname=... password=...") as well
//   hadoop:DIR  (or a plain directory) filesystem catalog: v<N>.metadata.json + version-hint.text
//                                     (local disk; no namespace properties, no rename; dropping
//                                     a table deletes its directory, as Java's HadoopCatalog)
//   memory:                           in-process, for tests
//
// Names become directories of the default table location (<warehouse>/<ns levels>/<table>):
// where a location derives from a name (CREATE TABLE without LOCATION, CREATE NAMESPACE without
// a `location` property, RENAME), names that would escape the warehouse or share a directory
// with another name are refused (check_path_name).
//
// uri() and every error name a catalog without its credentials (redact_catalog_uri).
//
// Namespace properties include `location` (the namespace's default directory) when none is
// stored, as JdbcCatalog and HadoopCatalog report it.
//
// The catalog deals in metadata files and pointers only; `Table` (table/) builds commits on top.
#pragma once

#include <compare>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/io/file_io.h"
#include "floe/spec/table_metadata.h"
#include "floe/util/result.h"

namespace floe {

// Namespace levels, outermost first ({"analytics"} or {"a", "b"}).
using Namespace = std::vector<std::string>;

// "a.b" (levels joined with '.', as JdbcCatalog stores them).
std::string namespace_to_string(const Namespace& ns);

struct TableIdentifier {
  Namespace ns;
  std::string name;

  // "a.b.t"
  std::string to_string() const;
  // "a.b.t" -> {{"a","b"}, "t"}; a bare "t" has an empty namespace.
  static Result<TableIdentifier> parse(std::string_view dotted);
  auto operator<=>(const TableIdentifier&) const = default;
};

struct CatalogOptions {
  std::string name = "lakehouse";       // JdbcCatalog's catalog_name column
  std::string warehouse = "warehouse";  // default table locations live under it
  FileIOPtr io;                         // null = local disk
  std::map<std::string, std::string> properties;
};

// One table a catalog lists with its current metadata file (tables_with_metadata_in).
struct CatalogTablePointer {
  std::string catalog_name;  // the SQL catalog's catalog_name column, else the catalog's name
  TableIdentifier id;
  std::string metadata_location;
};

// A table's current metadata pointer and the metadata it names.
struct LoadedMetadata {
  std::string location;
  std::shared_ptr<const TableMetadata> metadata;
};

class Catalog {
 public:
  virtual ~Catalog() = default;

  const std::string& name() const { return options_.name; }
  const std::string& warehouse() const { return options_.warehouse; }
  const FileIOPtr& io() const { return io_; }
  // The URI the catalog was opened with ("memory:", "sqlite:wh/catalog.db", ...).
  virtual std::string uri() const = 0;

  // --- Namespaces ---
  // kAlreadyExists when present.
  virtual Status create_namespace(const Namespace& ns,
                                  const std::map<std::string, std::string>& properties = {}) = 0;
  // Direct children of `parent` (every top-level namespace when empty), sorted. kNotFound when
  // `parent` does not exist.
  virtual Result<std::vector<Namespace>> list_namespaces(const Namespace& parent = {}) = 0;
  virtual Result<bool> namespace_exists(const Namespace& ns) = 0;
  // kNotFound when absent.
  virtual Result<std::map<std::string, std::string>> namespace_properties(const Namespace& ns) = 0;
  virtual Status update_namespace_properties(const Namespace& ns,
                                             const std::map<std::string, std::string>& set,
                                             const std::vector<std::string>& remove) = 0;
  // kNotFound when absent; kInvalidArgument when it still holds tables.
  virtual Status drop_namespace(const Namespace& ns) = 0;

  // --- Tables ---
  // Tables directly in `ns`, sorted by name.
  virtual Result<std::vector<TableIdentifier>> list_tables(const Namespace& ns) = 0;
  virtual Result<bool> table_exists(const TableIdentifier& id) = 0;
  // The current pointer and the metadata it names. kNotFound when there is no such table.
  virtual Result<LoadedMetadata> load_metadata(const TableIdentifier& id) = 0;
  // Writes the first metadata file of a new table under `metadata.location` and registers it
  // atomically. kAlreadyExists when the table exists (the file written is removed); kNotFound
  // when the namespace does not exist. Returns the metadata file's location.
  virtual Result<std::string> create_table(const TableIdentifier& id,
                                           const TableMetadata& metadata) = 0;
  // The compare-and-swap: writes `metadata` as the next metadata file (version after
  // `base_location`'s) and moves the pointer from `base_location` to it.
  //  - kCommitConflict when the pointer is no longer `base_location` (the file is removed);
  //  - kCommitStateUnknown when the outcome cannot be known (the file is kept: it may be live).
  // Returns the new metadata file's location.
  virtual Result<std::string> commit_table(const TableIdentifier& id,
                                           std::string_view base_location,
                                           const TableMetadata& metadata) = 0;
  // kNotFound when `from` is absent, kAlreadyExists when `to` exists.
  virtual Status rename_table(const TableIdentifier& from, const TableIdentifier& to) = 0;
  // Removes the table from the catalog. With `purge`, also deletes every file the table's
  // metadata reaches (data and delete files, manifests, manifest lists, metadata files,
  // statistics). kNotFound when absent.
  virtual Status drop_table(const TableIdentifier& id, bool purge) = 0;
  // Adds an existing table by its metadata file. kAlreadyExists when the name is taken;
  // kNotFound / kInvalidData when the file is missing or not table metadata.
  virtual Status register_table(const TableIdentifier& id, std::string_view metadata_location) = 0;

  // <warehouse>/<namespace levels...>/<table>, as Java's JdbcCatalog and HadoopCatalog place it.
  virtual std::string default_table_location(const TableIdentifier& id) const;

  // The tables whose current metadata file lies directly in the local directory `metadata_dir`
  // (a table's metadata/ directory), for reading a table by path (catalog/path_read.h). The SQL
  // catalog answers for every catalog name in its database. Empty for the filesystem catalog,
  // whose version-hint.text and v<N> files already say which file is current.
  virtual Result<std::vector<CatalogTablePointer>> tables_with_metadata_in(
      std::string_view metadata_dir);

 protected:
  Catalog(CatalogOptions options);
  CatalogOptions options_;
  FileIOPtr io_;
};

using CatalogPtr = std::shared_ptr<Catalog>;

// A name used as one directory of a default location: kInvalidArgument naming the name and the
// reason when it is empty, "." or "..", or holds '/', '\\', NUL or another control character
// (U+0000-U+001F, U+007F). `kind` is "table" or "namespace".
Status check_path_name(std::string_view kind, std::string_view name);
// check_path_name on every namespace level and the table name.
Status check_identifier_path_names(const TableIdentifier& id);
Status check_namespace_path_names(const Namespace& ns);

// The URI with credentials replaced by "***": the password of
// "scheme://user:password@host", "?password=..." query parameters, and the `password` /
// `sslpassword` values of a libpq keyword string. Anything else is returned as is.
std::string redact_catalog_uri(std::string_view uri);
// The secret values redact_catalog_uri hides (raw and percent-decoded), to scrub them from
// messages that may echo parts of the connection string (libpq's).
std::vector<std::string> catalog_uri_secrets(std::string_view uri);
// `message` with every secret, every whitespace-separated piece of one, and every quoted
// fragment ("...") that is part of one replaced by "***".
std::string scrub_secrets(std::string_view message, const std::vector<std::string>& secrets);
// True for a libpq keyword/value connection string ("host=db user=me dbname=iceberg").
bool is_postgres_keyword_string(std::string_view uri);

// Opens a catalog by URI (see the list at the top). A bare directory path means the
// filesystem catalog on it.
Result<CatalogPtr> open_catalog(std::string_view uri, CatalogOptions options = {});

// In-process catalog for tests: pointers in memory, metadata files through options.io.
CatalogPtr make_memory_catalog(CatalogOptions options = {});

// Name of the metadata file that follows `base_location` in a catalog-managed table
// (`<metadata dir>/%05d-<uuid>.metadata.json`, version = the base's + 1, 0 with no base).
// The directory is `write.metadata.path` when set, else `<location>/metadata`.
std::string next_metadata_location(const TableMetadata& metadata, std::string_view base_location);

// Deletes every file reachable from `metadata` (data/delete files of every snapshot, manifests,
// manifest lists, statistics, previous metadata files) and `metadata_location` itself. Missing
// files are not an error. Java's CatalogUtil.dropTableData.
Status purge_table_files(FileIO& io, const TableMetadata& metadata,
                         std::string_view metadata_location);

}  // namespace floe
