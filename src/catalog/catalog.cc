// Catalog basics shared by every implementation: names, default locations, metadata file
// naming, and opening a catalog by URI.
#include "floe/catalog/catalog.h"

#include <fmt/format.h>

#include <filesystem>

#include "catalog/catalog_internal.h"
#include "floe/io/s3_file_io.h"
#include "floe/spec/metadata_file.h"
#include "floe/spec/table_properties.h"
#include "floe/util/strings.h"
#include "floe/util/uuid.h"

namespace floe {

std::string namespace_to_string(const Namespace& ns) {
  std::string out;
  for (const auto& level : ns) {
    if (!out.empty()) out += '.';
    out += level;
  }
  return out;
}

std::string TableIdentifier::to_string() const {
  return ns.empty() ? name : namespace_to_string(ns) + "." + name;
}

Result<TableIdentifier> TableIdentifier::parse(std::string_view dotted) {
  TableIdentifier id;
  size_t start = 0;
  while (true) {
    size_t dot = dotted.find('.', start);
    std::string_view part =
        dotted.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (part.empty()) {
      return Status(ErrorKind::kInvalidArgument,
                    fmt::format("invalid table name '{}': empty name part", dotted));
    }
    if (dot == std::string_view::npos) {
      id.name = std::string(part);
      break;
    }
    id.ns.emplace_back(part);
    start = dot + 1;
  }
  return id;
}

namespace {

// The name as text fit for a message: control characters as \xNN.
std::string printable(std::string_view name) {
  std::string out;
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace

Status check_path_name(std::string_view kind, std::string_view name) {
  if (name.empty()) {
    return invalid_argument("an empty {} name is not allowed: it would be no directory", kind);
  }
  if (name == "." || name == "..") {
    return invalid_argument(
        "{} name '{}' is not allowed: as a directory it names {} (give the table a LOCATION to "
        "keep the name)",
        kind, name, name == "." ? "the parent directory itself" : "the directory above it");
  }
  for (size_t i = 0; i < name.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(name[i]);
    if (c == '/' || c == '\\') {
      return invalid_argument(
          "{} name '{}' is not allowed: '{}' (byte {}) would split it into nested directories, "
          "shared with other names (give the table a LOCATION to keep the name)",
          kind, printable(name), static_cast<char>(c), i + 1);
    }
    if (c < 0x20 || c == 0x7f) {
      return invalid_argument(
          "{} name '{}' is not allowed: it holds the control character "
          "\\x{:02x} (byte {})",
          kind, printable(name), c, i + 1);
    }
  }
  return Status::OK();
}

Status check_namespace_path_names(const Namespace& ns) {
  for (const auto& level : ns) FLOE_TRY(check_path_name("namespace", level));
  return Status::OK();
}

Status check_identifier_path_names(const TableIdentifier& id) {
  FLOE_TRY(check_namespace_path_names(id.ns));
  return check_path_name("table", id.name);
}

std::string canonical_local_path(std::string_view path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(local_path_of(path), ec).lexically_normal();
  auto resolved = std::filesystem::weakly_canonical(p, ec);
  std::string out = (ec ? p : resolved).string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

bool is_default_location(const Catalog& catalog, const TableIdentifier& id,
                         std::string_view location) {
  std::string derived = catalog.default_table_location(id);
  if (derived == location) return true;
  auto normal = [](std::string_view p) {
    std::string out = std::filesystem::path(local_path_of(p)).lexically_normal().string();
    while (out.size() > 1 && out.back() == '/') out.pop_back();
    return out;
  };
  return normal(derived) == normal(location);
}

Status check_new_table_name(const Catalog& catalog, const TableIdentifier& id,
                            const TableMetadata& metadata) {
  if (!is_default_location(catalog, id, metadata.location)) return Status::OK();
  return check_identifier_path_names(id);
}

std::string parent_of(std::string_view location) {
  auto slash = location.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(location.substr(0, slash));
}

void write_committed_hint(FileIO& io, std::string_view metadata_location) {
  std::string dir = parent_of(metadata_location);
  std::string name(metadata_location.substr(dir.empty() ? 0 : dir.size() + 1));
  auto version = metadata_file_version(name);
  constexpr std::string_view kSuffix = ".metadata.json";
  if (!version || !name.ends_with(kSuffix)) return;
  std::string stem = name.substr(0, name.size() - kSuffix.size());
  std::string hint_path = join_path(dir, "version-hint.text");
  // A concurrent committer may have written a newer hint already: keep it.
  auto current = io.read_file(hint_path);
  if (current.ok()) {
    auto hinted = metadata_file_version(std::string(trim(*current)) + std::string(kSuffix));
    if (hinted && *hinted > *version) return;
  }
  (void)io.write_file(hint_path, stem, WriteMode::kOverwrite);
}

Result<std::vector<CatalogTablePointer>> Catalog::tables_with_metadata_in(std::string_view) {
  return std::vector<CatalogTablePointer>();
}

Catalog::Catalog(CatalogOptions options) : options_(std::move(options)) {
  io_ = options_.io ? options_.io : make_local_file_io();
}

std::string Catalog::default_table_location(const TableIdentifier& id) const {
  std::string location = options_.warehouse;
  while (location.size() > 1 && location.back() == '/') location.pop_back();
  for (const auto& level : id.ns) location = join_path(location, level);
  return join_path(location, id.name);
}

std::string next_metadata_location(const TableMetadata& metadata, std::string_view base_location) {
  int64_t version = 0;
  if (!base_location.empty()) {
    auto slash = base_location.rfind('/');
    auto base_version = metadata_file_version(
        slash == std::string_view::npos ? base_location : base_location.substr(slash + 1));
    version = base_version ? *base_version + 1 : 1;
  }
  std::string dir = table_properties::string_property(metadata.properties,
                                                      table_properties::kWriteMetadataLocation);
  if (dir.empty()) dir = join_path(metadata.location, "metadata");
  return join_path(dir, fmt::format("{:05d}-{}.metadata.json", version, random_uuid()));
}

Result<CatalogPtr> open_catalog(std::string_view uri, CatalogOptions options) {
  std::string text(uri);
  // The warehouse's storage: S3 for an s3:// warehouse (options from the catalog properties and
  // the AWS_* environment), local disk otherwise.
  if (!options.io && is_s3_uri(options.warehouse)) {
    options.io = FLOE_TRY(make_file_io_for(options.warehouse, options.properties));
  }
  if (uri == "memory:" || uri == "memory") return make_memory_catalog(std::move(options));
  if (uri.starts_with("sqlite:")) {
    std::string_view path = uri.substr(7);
    // sqlite:///abs/path and sqlite://rel/path as well as sqlite:path.
    if (path.starts_with("//")) path.remove_prefix(2);
    if (path.empty()) return invalid_argument("catalog URI '{}' names no database file", uri);
    auto connection = FLOE_TRY(open_sqlite_connection(std::string(path)));
    return make_sql_catalog(std::move(connection), text, std::move(options));
  }
  if (uri.starts_with("postgresql://") || uri.starts_with("postgres://") ||
      is_postgres_keyword_string(uri)) {
    auto connection = FLOE_TRY(open_postgres_connection(text));
    return make_sql_catalog(std::move(connection), text, std::move(options));
  }
  // The filesystem catalog commits by creating v<N>.metadata.json only if it is absent.
  auto refuse_s3 = [&](std::string_view dir) -> Status {
    if (!is_s3_uri(dir) && !is_s3_uri(options.warehouse)) return Status::OK();
    return not_supported(
        "the filesystem (Hadoop) catalog cannot keep tables on S3: S3 has no atomic rename or "
        "create-if-absent for its commits; use a SQL catalog (sqlite:PATH or "
        "postgresql://...) with the S3 warehouse");
  };
  if (uri.starts_with("hadoop:")) {
    FLOE_TRY(refuse_s3(uri.substr(7)));
    return make_hadoop_catalog(std::string(uri.substr(7)), text, std::move(options));
  }
  auto colon = uri.find(':');
  auto slash = uri.find('/');
  bool has_scheme = colon != std::string_view::npos && colon > 1 &&
                    (slash == std::string_view::npos || colon < slash);
  if (!has_scheme || uri.starts_with("file:")) {
    FLOE_TRY(refuse_s3(uri));
    return make_hadoop_catalog(text, text, std::move(options));
  }
  return Status(ErrorKind::kNotSupported,
                fmt::format("unsupported catalog URI '{}'", redact_catalog_uri(uri)));
}

Status commit_conflict(const TableIdentifier& id, std::string_view base, std::string_view current) {
  return make_error(
      ErrorKind::kCommitConflict,
      "commit to '{}' failed, nothing of it was committed: the table changed since '{}' "
      "was read (now at '{}')",
      id.to_string(), base, current);
}

}  // namespace floe
