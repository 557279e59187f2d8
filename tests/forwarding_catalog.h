// ForwardingCatalog: a Catalog for tests that passes every call to an inner catalog; a test's
// wrapper derives from it and overrides only the calls it intercepts (a commit that lands late,
// a commit whose outcome is lost).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "floe/catalog/catalog.h"

namespace floe::test_support {

class ForwardingCatalog : public Catalog {
 public:
  explicit ForwardingCatalog(CatalogPtr inner)
      : Catalog(CatalogOptions{inner->name(), inner->warehouse(), inner->io(), {}}),
        inner_(std::move(inner)) {}
  std::string uri() const override { return inner_->uri(); }
  Status create_namespace(const Namespace& ns,
                          const std::map<std::string, std::string>& p) override {
    return inner_->create_namespace(ns, p);
  }
  Result<std::vector<Namespace>> list_namespaces(const Namespace& parent) override {
    return inner_->list_namespaces(parent);
  }
  Result<bool> namespace_exists(const Namespace& ns) override {
    return inner_->namespace_exists(ns);
  }
  Result<std::map<std::string, std::string>> namespace_properties(const Namespace& ns) override {
    return inner_->namespace_properties(ns);
  }
  Status update_namespace_properties(const Namespace& ns,
                                     const std::map<std::string, std::string>& set,
                                     const std::vector<std::string>& remove) override {
    return inner_->update_namespace_properties(ns, set, remove);
  }
  Status drop_namespace(const Namespace& ns) override { return inner_->drop_namespace(ns); }
  Result<std::vector<TableIdentifier>> list_tables(const Namespace& ns) override {
    return inner_->list_tables(ns);
  }
  Result<bool> table_exists(const TableIdentifier& id) override { return inner_->table_exists(id); }
  Result<LoadedMetadata> load_metadata(const TableIdentifier& id) override {
    return inner_->load_metadata(id);
  }
  Result<std::string> create_table(const TableIdentifier& id, const TableMetadata& m) override {
    return inner_->create_table(id, m);
  }
  Result<std::string> commit_table(const TableIdentifier& id, std::string_view base,
                                   const TableMetadata& m) override {
    return inner_->commit_table(id, base, m);
  }
  Status rename_table(const TableIdentifier& from, const TableIdentifier& to) override {
    return inner_->rename_table(from, to);
  }
  Status drop_table(const TableIdentifier& id, bool purge) override {
    return inner_->drop_table(id, purge);
  }
  Status register_table(const TableIdentifier& id, std::string_view location) override {
    return inner_->register_table(id, location);
  }

 protected:
  const CatalogPtr& inner() const { return inner_; }

 private:
  CatalogPtr inner_;
};

}  // namespace floe::test_support
