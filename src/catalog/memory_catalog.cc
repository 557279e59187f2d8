// The in-memory catalog: namespaces and table pointers in a map behind a mutex, metadata files
// written through the catalog's FileIO like any other catalog. For tests and embedding.
#include <fmt/format.h>

#include <mutex>

#include "catalog/catalog_internal.h"
#include "floe/catalog/catalog.h"
#include "floe/spec/metadata_file.h"

namespace floe {
namespace {

class MemoryCatalog final : public Catalog {
 public:
  explicit MemoryCatalog(CatalogOptions options) : Catalog(std::move(options)) {}

  std::string uri() const override { return "memory:"; }

  Status create_namespace(const Namespace& ns,
                          const std::map<std::string, std::string>& properties) override {
    if (!properties.count("location")) FLOE_TRY(check_namespace_path_names(ns));
    std::lock_guard lock(mu_);
    if (namespaces_.count(ns)) {
      return Status(ErrorKind::kAlreadyExists,
                    fmt::format("namespace '{}' already exists", namespace_to_string(ns)));
    }
    namespaces_[ns] = properties;
    return Status::OK();
  }

  Result<std::vector<Namespace>> list_namespaces(const Namespace& parent) override {
    std::lock_guard lock(mu_);
    if (!parent.empty() && !namespaces_.count(parent)) return missing_namespace(parent);
    std::vector<Namespace> out;
    for (const auto& [ns, props] : namespaces_) {
      if (ns.size() != parent.size() + 1) continue;
      if (!std::equal(parent.begin(), parent.end(), ns.begin())) continue;
      out.push_back(ns);
    }
    return out;
  }

  Result<bool> namespace_exists(const Namespace& ns) override {
    std::lock_guard lock(mu_);
    return namespaces_.count(ns) > 0;
  }

  Result<std::map<std::string, std::string>> namespace_properties(const Namespace& ns) override {
    std::lock_guard lock(mu_);
    auto it = namespaces_.find(ns);
    if (it == namespaces_.end()) return missing_namespace(ns);
    auto out = it->second;
    if (!out.count("location")) {
      // The default directory of the namespace, as the other catalogs report it.
      std::string location = default_table_location({ns, ""});
      while (location.size() > 1 && location.back() == '/') location.pop_back();
      out["location"] = location;
    }
    return out;
  }

  Status update_namespace_properties(const Namespace& ns,
                                     const std::map<std::string, std::string>& set,
                                     const std::vector<std::string>& remove) override {
    std::lock_guard lock(mu_);
    auto it = namespaces_.find(ns);
    if (it == namespaces_.end()) return missing_namespace(ns);
    for (const auto& key : remove) it->second.erase(key);
    for (const auto& [k, v] : set) it->second[k] = v;
    return Status::OK();
  }

  Status drop_namespace(const Namespace& ns) override {
    std::lock_guard lock(mu_);
    if (!namespaces_.count(ns)) return missing_namespace(ns);
    for (const auto& [id, location] : tables_) {
      if (id.ns == ns) {
        return Status(ErrorKind::kInvalidArgument,
                      fmt::format("namespace '{}' is not empty", namespace_to_string(ns)));
      }
    }
    namespaces_.erase(ns);
    return Status::OK();
  }

  Result<std::vector<TableIdentifier>> list_tables(const Namespace& ns) override {
    std::lock_guard lock(mu_);
    if (!namespaces_.count(ns)) return missing_namespace(ns);
    std::vector<TableIdentifier> out;
    for (const auto& [id, location] : tables_) {
      if (id.ns == ns) out.push_back(id);
    }
    return out;
  }

  Result<bool> table_exists(const TableIdentifier& id) override {
    std::lock_guard lock(mu_);
    return tables_.count(id) > 0;
  }

  Result<LoadedMetadata> load_metadata(const TableIdentifier& id) override {
    std::string location;
    {
      std::lock_guard lock(mu_);
      auto it = tables_.find(id);
      if (it == tables_.end()) return missing_table(id);
      location = it->second;
    }
    auto metadata = FLOE_TRY(read_table_metadata(*io_, location));
    return LoadedMetadata{location, std::make_shared<const TableMetadata>(std::move(metadata))};
  }

  Result<std::string> create_table(const TableIdentifier& id,
                                   const TableMetadata& metadata) override {
    FLOE_TRY(check_new_table_name(*this, id, metadata));
    {
      std::lock_guard lock(mu_);
      if (!namespaces_.count(id.ns)) return missing_namespace(id.ns);
      if (tables_.count(id)) return exists(id);
    }
    std::string location = next_metadata_location(metadata, "");
    FLOE_TRY(write_table_metadata(*io_, location, metadata));
    std::lock_guard lock(mu_);
    if (!tables_.emplace(id, location).second) {
      (void)io_->delete_file(location);
      return exists(id);
    }
    return location;
  }

  Result<std::string> commit_table(const TableIdentifier& id, std::string_view base_location,
                                   const TableMetadata& metadata) override {
    std::string location = next_metadata_location(metadata, base_location);
    FLOE_TRY(write_table_metadata(*io_, location, metadata));
    std::lock_guard lock(mu_);
    auto it = tables_.find(id);
    if (it == tables_.end() || it->second != base_location) {
      (void)io_->delete_file(location);
      if (it == tables_.end()) return missing_table(id);
      return commit_conflict(id, base_location, it->second);
    }
    it->second = location;
    return location;
  }

  Status rename_table(const TableIdentifier& from, const TableIdentifier& to) override {
    FLOE_TRY(check_identifier_path_names(to));
    std::lock_guard lock(mu_);
    auto it = tables_.find(from);
    if (it == tables_.end()) return missing_table(from);
    if (tables_.count(to)) return exists(to);
    if (!namespaces_.count(to.ns)) return missing_namespace(to.ns);
    std::string location = it->second;
    tables_.erase(it);
    tables_[to] = location;
    return Status::OK();
  }

  Status drop_table(const TableIdentifier& id, bool purge) override {
    std::string location;
    {
      std::lock_guard lock(mu_);
      auto it = tables_.find(id);
      if (it == tables_.end()) return missing_table(id);
      location = it->second;
      tables_.erase(it);
    }
    if (!purge) return Status::OK();
    auto metadata = FLOE_TRY(read_table_metadata(*io_, location));
    return purge_table_files(*io_, metadata, location);
  }

  Status register_table(const TableIdentifier& id, std::string_view metadata_location) override {
    FLOE_TRY(read_table_metadata(*io_, metadata_location));
    std::lock_guard lock(mu_);
    if (!namespaces_.count(id.ns)) return missing_namespace(id.ns);
    if (!tables_.emplace(id, std::string(metadata_location)).second) return exists(id);
    return Status::OK();
  }

  Result<std::vector<CatalogTablePointer>> tables_with_metadata_in(
      std::string_view metadata_dir) override {
    std::string dir = canonical_local_path(metadata_dir);
    std::lock_guard lock(mu_);
    std::vector<CatalogTablePointer> out;
    for (const auto& [id, location] : tables_) {
      if (canonical_local_path(parent_of(location)) == dir) out.push_back({name(), id, location});
    }
    return out;
  }

 private:
  static Status missing_namespace(const Namespace& ns) {
    return Status(ErrorKind::kNotFound,
                  fmt::format("namespace '{}' does not exist", namespace_to_string(ns)));
  }
  static Status missing_table(const TableIdentifier& id) {
    return Status(ErrorKind::kNotFound, fmt::format("table '{}' does not exist", id.to_string()));
  }
  static Status exists(const TableIdentifier& id) {
    return Status(ErrorKind::kAlreadyExists,
                  fmt::format("table '{}' already exists", id.to_string()));
  }

  std::mutex mu_;
  std::map<Namespace, std::map<std::string, std::string>> namespaces_;
  std::map<TableIdentifier, std::string> tables_;
};

}  // namespace

CatalogPtr make_memory_catalog(CatalogOptions options) {
  return std::make_shared<MemoryCatalog>(std::move(options));
}

}  // namespace floe
