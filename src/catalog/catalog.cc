// Catalog basics shared by every implementation: names, default locations, metadata file
// naming, and opening a catalog by URI.
#include "floe/catalog/catalog.h"

#include <fmt/format.h>

#include "catalog/catalog_internal.h"
#include "floe/spec/metadata_file.h"
#include "floe/spec/table_properties.h"
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
  if (uri == "memory:" || uri == "memory") return make_memory_catalog(std::move(options));
  if (uri.starts_with("sqlite:")) {
    std::string_view path = uri.substr(7);
    // sqlite:///abs/path and sqlite://rel/path as well as sqlite:path.
    if (path.starts_with("//")) path.remove_prefix(2);
    if (path.empty()) return invalid_argument("catalog URI '{}' names no database file", uri);
    auto connection = FLOE_TRY(open_sqlite_connection(std::string(path)));
    return make_sql_catalog(std::move(connection), text, std::move(options));
  }
  if (uri.starts_with("postgresql://") || uri.starts_with("postgres://")) {
    auto connection = FLOE_TRY(open_postgres_connection(text));
    return make_sql_catalog(std::move(connection), text, std::move(options));
  }
  if (uri.starts_with("hadoop:")) {
    return make_hadoop_catalog(std::string(uri.substr(7)), text, std::move(options));
  }
  auto colon = uri.find(':');
  auto slash = uri.find('/');
  bool has_scheme = colon != std::string_view::npos && colon > 1 &&
                    (slash == std::string_view::npos || colon < slash);
  if (!has_scheme || uri.starts_with("file:")) {
    return make_hadoop_catalog(text, text, std::move(options));
  }
  return Status(ErrorKind::kNotSupported, fmt::format("unsupported catalog URI '{}'", uri));
}

Status commit_conflict(const TableIdentifier& id, std::string_view base, std::string_view current) {
  return make_error(ErrorKind::kCommitConflict,
                    "commit to '{}' failed: the table changed since '{}' was read (now at '{}')",
                    id.to_string(), base, current);
}

}  // namespace floe
