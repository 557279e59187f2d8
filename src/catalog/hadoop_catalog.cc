// The filesystem ("Hadoop") catalog, laid out as Java's HadoopCatalog: a namespace is a
// directory under the warehouse, a table is a directory holding metadata/v<N>.metadata.json and
// metadata/version-hint.text. Creating v<N+1> if absent is the compare-and-swap; the version
// hint is only a shortcut (readers probe past it, so a hint left behind by a crash is harmless).
// Directories are handled on the local file system.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "catalog/catalog_internal.h"
#include "floe/spec/metadata_file.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

Status missing_namespace(const Namespace& ns) {
  return not_found("namespace '{}' does not exist", namespace_to_string(ns));
}
Status missing_table(const TableIdentifier& id) {
  return not_found("table '{}' does not exist", id.to_string());
}

std::string normal_path(std::string_view path) {
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(local_path_of(path)), ec).lexically_normal();
  std::string out = p.string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

// A table directory has metadata/ with at least one metadata file in it (HadoopCatalog's test).
bool is_table_dir(const fs::path& dir) {
  std::error_code ec;
  fs::path metadata = dir / "metadata";
  if (!fs::is_directory(metadata, ec)) return false;
  for (const auto& entry : fs::directory_iterator(metadata, ec)) {
    std::string name = entry.path().filename().string();
    if (name.size() > 14 && name.ends_with(".metadata.json")) return true;
  }
  return false;
}

class HadoopCatalog final : public Catalog {
 public:
  HadoopCatalog(std::string dir, std::string uri, CatalogOptions options)
      : Catalog(std::move(options)), dir_(std::move(dir)), uri_(std::move(uri)) {
    options_.warehouse = dir_;
  }

  std::string uri() const override { return uri_; }

  Status create_namespace(const Namespace& ns,
                          const std::map<std::string, std::string>& properties) override {
    if (ns.empty()) return invalid_argument("cannot create the empty (root) namespace");
    FLOE_TRY(check_namespace_path_names(ns));
    if (!properties.empty()) {
      return not_supported("the filesystem catalog cannot store namespace properties ('{}')",
                           namespace_to_string(ns));
    }
    std::error_code ec;
    fs::path path = namespace_dir(ns);
    if (fs::exists(path, ec)) {
      return make_error(ErrorKind::kAlreadyExists, "namespace '{}' already exists",
                        namespace_to_string(ns));
    }
    fs::create_directories(path, ec);
    if (ec) return io_error("cannot create directory '{}': {}", path.string(), ec.message());
    return Status::OK();
  }

  Result<std::vector<Namespace>> list_namespaces(const Namespace& parent) override {
    if (!is_namespace(parent)) return missing_namespace(parent);
    std::vector<Namespace> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(namespace_dir(parent), ec)) {
      std::string name = entry.path().filename().string();
      if (name.starts_with('.') || !entry.is_directory() || is_table_dir(entry.path())) continue;
      Namespace child = parent;
      child.push_back(name);
      out.push_back(std::move(child));
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  Result<bool> namespace_exists(const Namespace& ns) override { return is_namespace(ns); }

  Result<std::map<std::string, std::string>> namespace_properties(const Namespace& ns) override {
    if (!is_namespace(ns)) return missing_namespace(ns);
    // HadoopCatalog reports the directory as the only property.
    return std::map<std::string, std::string>{{"location", namespace_dir(ns).string()}};
  }

  Status update_namespace_properties(const Namespace& ns, const std::map<std::string, std::string>&,
                                     const std::vector<std::string>&) override {
    return not_supported("the filesystem catalog cannot store namespace properties ('{}')",
                         namespace_to_string(ns));
  }

  Status drop_namespace(const Namespace& ns) override {
    if (ns.empty() || !is_namespace(ns)) return missing_namespace(ns);
    std::error_code ec;
    fs::path path = namespace_dir(ns);
    if (!fs::is_empty(path, ec)) {
      return invalid_argument("namespace '{}' is not empty ({})", namespace_to_string(ns),
                              path.string());
    }
    fs::remove(path, ec);
    if (ec) return io_error("cannot remove directory '{}': {}", path.string(), ec.message());
    return Status::OK();
  }

  Result<std::vector<TableIdentifier>> list_tables(const Namespace& ns) override {
    if (!is_namespace(ns)) return missing_namespace(ns);
    std::vector<TableIdentifier> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(namespace_dir(ns), ec)) {
      if (entry.is_directory() && is_table_dir(entry.path())) {
        out.push_back({ns, entry.path().filename().string()});
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  Result<bool> table_exists(const TableIdentifier& id) override {
    return FLOE_TRY(current_version(id)).has_value();
  }

  Result<LoadedMetadata> load_metadata(const TableIdentifier& id) override {
    auto version = FLOE_TRY(current_version(id));
    if (!version) return missing_table(id);
    std::string location = version_file(id, *version);
    auto metadata = FLOE_TRY(read_table_metadata(*io_, location));
    return LoadedMetadata{location, std::make_shared<const TableMetadata>(std::move(metadata))};
  }

  Result<std::string> create_table(const TableIdentifier& id,
                                   const TableMetadata& metadata) override {
    // The directory is the name: always checked.
    FLOE_TRY(check_identifier_path_names(id));
    std::string table_dir = default_table_location(id);
    if (normal_path(metadata.location) != normal_path(table_dir)) {
      return invalid_argument(
          "table '{}': the filesystem catalog keeps a table at '{}', not at location '{}'",
          id.to_string(), table_dir, metadata.location);
    }
    return write_first_version(id, metadata);
  }

  Result<std::string> commit_table(const TableIdentifier& id, std::string_view base_location,
                                   const TableMetadata& metadata) override {
    auto current = FLOE_TRY(current_version(id));
    if (!current) return missing_table(id);
    auto slash = base_location.rfind('/');
    std::string_view base_name =
        slash == std::string_view::npos ? base_location : base_location.substr(slash + 1);
    auto base_version = metadata_file_version(base_name);
    if (!base_name.starts_with('v') || base_version != *current) {
      return commit_conflict(id, base_location, version_file(id, *current));
    }
    std::string location = version_file(id, *current + 1);
    Status written = write_table_metadata(*io_, location, metadata, WriteMode::kCreateNew);
    // Someone else created this version first: that file is theirs, keep it.
    if (written.kind() == ErrorKind::kAlreadyExists)
      return commit_conflict(id, base_location, location);
    FLOE_TRY(written);
    (void)write_version_hint(*io_, metadata_dir(id), *current + 1);
    return location;
  }

  Status rename_table(const TableIdentifier& from, const TableIdentifier&) override {
    return not_supported("the filesystem catalog cannot rename tables ('{}')", from.to_string());
  }

  Status drop_table(const TableIdentifier& id, bool purge) override {
    auto loaded = FLOE_TRY(load_metadata(id));
    if (purge) FLOE_TRY(purge_table_files(*io_, *loaded.metadata, loaded.location));
    // As HadoopCatalog: the table directory is the table, so it goes in either case.
    std::error_code ec;
    fs::remove_all(local_path_of(default_table_location(id)), ec);
    if (ec)
      return io_error("cannot remove table directory of '{}': {}", id.to_string(), ec.message());
    return Status::OK();
  }

  // HadoopCatalog registers by copying the metadata in as v1 of the table directory.
  Status register_table(const TableIdentifier& id, std::string_view metadata_location) override {
    FLOE_TRY(check_identifier_path_names(id));
    auto metadata = FLOE_TRY(read_table_metadata(*io_, metadata_location));
    return write_first_version(id, metadata).status();
  }

 private:
  fs::path namespace_dir(const Namespace& ns) const {
    fs::path path = local_path_of(dir_);
    for (const auto& level : ns) path /= level;
    return path;
  }

  bool is_namespace(const Namespace& ns) const {
    std::error_code ec;
    fs::path path = namespace_dir(ns);
    return fs::is_directory(path, ec) && (ns.empty() || !is_table_dir(path));
  }

  std::string metadata_dir(const TableIdentifier& id) const {
    return join_path(default_table_location(id), "metadata");
  }
  std::string version_file(const TableIdentifier& id, int64_t version) const {
    return join_path(metadata_dir(id), hadoop_metadata_file_name(version));
  }

  Result<std::string> write_first_version(const TableIdentifier& id,
                                          const TableMetadata& metadata) {
    if (!is_namespace(id.ns)) return missing_namespace(id.ns);
    if (FLOE_TRY(current_version(id))) {
      return make_error(ErrorKind::kAlreadyExists, "table '{}' already exists", id.to_string());
    }
    std::string location = version_file(id, 1);
    Status written = write_table_metadata(*io_, location, metadata, WriteMode::kCreateNew);
    if (written.kind() == ErrorKind::kAlreadyExists) {
      return make_error(ErrorKind::kAlreadyExists, "table '{}' already exists", id.to_string());
    }
    FLOE_TRY(written);
    (void)write_version_hint(*io_, metadata_dir(id), 1);
    return location;
  }

  // The current version: the hint (or the highest v<N> listed), then probing v<N+1>, ... as
  // HadoopTableOperations does, since a committer may not have updated the hint yet.
  Result<std::optional<int64_t>> current_version(const TableIdentifier& id) {
    std::string dir = metadata_dir(id);
    std::optional<int64_t> version;
    auto hint = io_->read_file(join_path(dir, "version-hint.text"));
    if (hint.ok()) {
      try {
        version = std::stoll(*hint);
      } catch (...) {
      }
    }
    if (version && !FLOE_TRY(io_->exists(version_file(id, *version)))) version.reset();
    if (!version) {
      std::error_code ec;
      if (!fs::is_directory(local_path_of(dir), ec)) return std::optional<int64_t>();
      auto files = FLOE_TRY(io_->list(dir));
      for (const auto& file : files) {
        std::string name = file.path.substr(file.path.rfind('/') + 1);
        auto v = name.starts_with('v') ? metadata_file_version(name) : std::nullopt;
        if (v && (!version || *v > *version)) version = v;
      }
      if (!version) return std::optional<int64_t>();
    }
    while (FLOE_TRY(io_->exists(version_file(id, *version + 1)))) ++*version;
    return version;
  }

  std::string dir_;
  std::string uri_;
};

}  // namespace

Result<CatalogPtr> make_hadoop_catalog(std::string dir, std::string uri, CatalogOptions options) {
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  if (dir.empty()) return invalid_argument("filesystem catalog '{}': no directory given", uri);
  std::error_code ec;
  fs::create_directories(local_path_of(dir), ec);
  if (ec) return io_error("cannot create warehouse directory '{}': {}", dir, ec.message());
  return CatalogPtr(
      std::make_shared<HadoopCatalog>(std::move(dir), std::move(uri), std::move(options)));
}

}  // namespace floe
