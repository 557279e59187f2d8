// The SQL catalog in Java JdbcCatalog's table layout, one implementation over SqlConnection
// (SQLite and PostgreSQL backends), so that Java, Spark and floe can share one database.
//
//   iceberg_tables(catalog_name, table_namespace, table_name, metadata_location,
//                  previous_metadata_location[, iceberg_type])
//   iceberg_namespace_properties(catalog_name, namespace, property_key, property_value)
//
// A namespace exists when it has properties (creating one stores `exists=true`) or when it or a
// namespace below it holds a table, as in JdbcCatalog. The commit is a conditional UPDATE on the
// old metadata_location: one updated row means the swap happened. After it, the table's
// metadata directory gets a version-hint.text naming the committed file, for readers by path
// that cannot ask the catalog (catalog/path_read.h asks it).
//
// Namespaces are stored joined by '.', so a level holding '.' would be another namespace: such
// levels are refused.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <mutex>
#include <set>

#include "catalog/catalog_internal.h"
#include "floe/spec/metadata_file.h"

namespace floe {
namespace {

// Java's V0 schema; V1 adds iceberg_type by ALTER TABLE, which is also what Java does, so a
// database we create is indistinguishable from one JdbcCatalog created.
constexpr const char* kCreateTablesSql =
    "CREATE TABLE IF NOT EXISTS iceberg_tables(catalog_name VARCHAR(255) NOT NULL, "
    "table_namespace VARCHAR(255) NOT NULL, table_name VARCHAR(255) NOT NULL, "
    "metadata_location VARCHAR(1000), previous_metadata_location VARCHAR(1000), "
    "PRIMARY KEY (catalog_name, table_namespace, table_name))";
constexpr const char* kAddTypeSql = "ALTER TABLE iceberg_tables ADD COLUMN iceberg_type VARCHAR(5)";
constexpr const char* kCreatePropertiesSql =
    "CREATE TABLE IF NOT EXISTS iceberg_namespace_properties(catalog_name VARCHAR(255) NOT NULL, "
    "namespace VARCHAR(255) NOT NULL, property_key VARCHAR(255), property_value VARCHAR(1000), "
    "PRIMARY KEY (catalog_name, namespace, property_key))";
constexpr const char* kExistsProperty = "exists";

Namespace split_namespace(std::string_view text) {
  Namespace ns;
  size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    size_t dot = text.find('.', start);
    if (dot == std::string_view::npos) dot = text.size();
    ns.emplace_back(text.substr(start, dot - start));
    start = dot + 1;
  }
  return ns;
}

bool has_prefix(const Namespace& ns, const Namespace& prefix) {
  return ns.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), ns.begin());
}

Status missing_namespace(const Namespace& ns) {
  return not_found("namespace '{}' does not exist", namespace_to_string(ns));
}
Status missing_table(const TableIdentifier& id) {
  return not_found("table '{}' does not exist", id.to_string());
}
Status table_exists_error(const TableIdentifier& id) {
  return make_error(ErrorKind::kAlreadyExists, "table '{}' already exists", id.to_string());
}

// JdbcCatalog stores {"a.b"} and {"a", "b"} both as "a.b".
Status check_levels(const Namespace& ns) {
  for (const auto& level : ns) {
    if (level.find('.') != std::string::npos) {
      return invalid_argument(
          "namespace level '{}' is not allowed in a SQL catalog: it stores namespaces joined by "
          "'.', so it would be the namespace {}",
          level, namespace_to_string(split_namespace(level)));
    }
  }
  return Status::OK();
}

// SQL LIKE pattern matching `text` literally, with '!' as the escape character.
std::string like_literal(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '%' || c == '_' || c == '!') out += '!';
    out += c;
  }
  return out;
}

class SqlCatalog final : public Catalog {
 public:
  SqlCatalog(std::unique_ptr<SqlConnection> connection, std::string uri, CatalogOptions options)
      : Catalog(std::move(options)), db_(std::move(connection)), uri_(redact_catalog_uri(uri)) {}

  // Creates the catalog tables when missing and learns whether iceberg_type exists.
  Status init() {
    std::lock_guard lock(mu_);
    Status status = try_init();
    // Two processes creating the tables at once on PostgreSQL: the loser retries and finds them.
    if (!status.ok()) status = try_init();
    return status;
  }

  std::string uri() const override { return uri_; }

  // --- Namespaces ---

  Status create_namespace(const Namespace& ns,
                          const std::map<std::string, std::string>& properties) override {
    if (ns.empty()) return invalid_argument("cannot create the empty (root) namespace");
    // Without a `location` the namespace's directory derives from its name.
    if (!properties.count("location")) FLOE_TRY(check_namespace_path_names(ns));
    FLOE_TRY(check_levels(ns));
    std::lock_guard lock(mu_);
    return transact([&]() -> Status {
      if (FLOE_TRY(namespace_exists_locked(ns))) {
        return make_error(ErrorKind::kAlreadyExists, "namespace '{}' already exists",
                          namespace_to_string(ns));
      }
      auto all = properties;
      all[kExistsProperty] = "true";
      for (const auto& [key, value] : all) FLOE_TRY(insert_property(ns, key, value));
      return Status::OK();
    });
  }

  Result<std::vector<Namespace>> list_namespaces(const Namespace& parent) override {
    std::lock_guard lock(mu_);
    if (!parent.empty() && !FLOE_TRY(namespace_exists_locked(parent))) {
      return missing_namespace(parent);
    }
    std::set<Namespace> children;
    for (const auto& ns : FLOE_TRY(all_namespaces())) {
      if (ns.size() <= parent.size() || !has_prefix(ns, parent)) continue;
      children.emplace(ns.begin(), ns.begin() + parent.size() + 1);
    }
    return std::vector<Namespace>(children.begin(), children.end());
  }

  Result<bool> namespace_exists(const Namespace& ns) override {
    std::lock_guard lock(mu_);
    return namespace_exists_locked(ns);
  }

  Result<std::map<std::string, std::string>> namespace_properties(const Namespace& ns) override {
    std::lock_guard lock(mu_);
    if (!FLOE_TRY(namespace_exists_locked(ns))) return missing_namespace(ns);
    auto rows =
        FLOE_TRY(db_->query("SELECT property_key, property_value FROM iceberg_namespace_properties "
                            "WHERE catalog_name = ? AND namespace = ?",
                            {name(), namespace_to_string(ns)}));
    std::map<std::string, std::string> out;
    for (auto& row : rows) {
      if (row[0] && *row[0] != kExistsProperty) out[*row[0]] = row[1].value_or("");
    }
    // JdbcCatalog reports the default location of a namespace that has none.
    if (!out.count("location")) out["location"] = default_namespace_location(ns);
    return out;
  }

  Status update_namespace_properties(const Namespace& ns,
                                     const std::map<std::string, std::string>& set,
                                     const std::vector<std::string>& remove) override {
    if (set.count(kExistsProperty) ||
        std::find(remove.begin(), remove.end(), kExistsProperty) != remove.end()) {
      return invalid_argument("namespace property '{}' is reserved", kExistsProperty);
    }
    std::lock_guard lock(mu_);
    return transact([&]() -> Status {
      if (!FLOE_TRY(namespace_exists_locked(ns))) return missing_namespace(ns);
      std::string text = namespace_to_string(ns);
      for (const auto& key : remove) {
        FLOE_TRY(
            db_->execute("DELETE FROM iceberg_namespace_properties "
                         "WHERE catalog_name = ? AND namespace = ? AND property_key = ?",
                         {name(), text, key}));
      }
      for (const auto& [key, value] : set) {
        int64_t changed =
            FLOE_TRY(db_->execute("UPDATE iceberg_namespace_properties SET property_value = ? "
                                  "WHERE catalog_name = ? AND namespace = ? AND property_key = ?",
                                  {value, name(), text, key}));
        if (changed == 0) FLOE_TRY(insert_property(ns, key, value));
      }
      return Status::OK();
    });
  }

  Status drop_namespace(const Namespace& ns) override {
    std::lock_guard lock(mu_);
    return transact([&]() -> Status {
      if (!FLOE_TRY(namespace_exists_locked(ns))) return missing_namespace(ns);
      std::string text = namespace_to_string(ns);
      auto rows = FLOE_TRY(db_->query(
          "SELECT table_name FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ?",
          {name(), text}));
      if (!rows.empty()) {
        return invalid_argument("namespace '{}' is not empty: it holds '{}'", text,
                                rows[0][0].value_or(""));
      }
      for (const auto& other : FLOE_TRY(all_namespaces())) {
        if (other.size() > ns.size() && has_prefix(other, ns)) {
          return invalid_argument("namespace '{}' is not empty: it holds namespace '{}'", text,
                                  namespace_to_string(other));
        }
      }
      FLOE_TRY(db_->execute(
          "DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ?",
          {name(), text}));
      return Status::OK();
    });
  }

  // --- Tables ---

  Result<std::vector<TableIdentifier>> list_tables(const Namespace& ns) override {
    std::lock_guard lock(mu_);
    if (!FLOE_TRY(namespace_exists_locked(ns))) return missing_namespace(ns);
    auto rows = FLOE_TRY(db_->query(
        "SELECT table_name FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ?" +
            tables_only(),
        {name(), namespace_to_string(ns)}));
    std::vector<TableIdentifier> out;
    for (auto& row : rows) out.push_back({ns, row[0].value_or("")});
    std::sort(out.begin(), out.end());
    return out;
  }

  Result<bool> table_exists(const TableIdentifier& id) override {
    std::lock_guard lock(mu_);
    return FLOE_TRY(pointer(id)).has_value();
  }

  Result<LoadedMetadata> load_metadata(const TableIdentifier& id) override {
    std::optional<std::string> location;
    {
      std::lock_guard lock(mu_);
      location = FLOE_TRY(pointer(id));
    }
    if (!location) return missing_table(id);
    auto metadata = FLOE_TRY(read_table_metadata(*io_, *location));
    return LoadedMetadata{*location, std::make_shared<const TableMetadata>(std::move(metadata))};
  }

  Result<std::string> create_table(const TableIdentifier& id,
                                   const TableMetadata& metadata) override {
    FLOE_TRY(check_levels(id.ns));
    FLOE_TRY(check_new_table_name(*this, id, metadata));
    {
      std::lock_guard lock(mu_);
      if (FLOE_TRY(name_taken(id))) return table_exists_error(id);
      if (!FLOE_TRY(namespace_exists_locked(id.ns))) return missing_namespace(id.ns);
    }
    std::string location = next_metadata_location(metadata, "");
    FLOE_TRY(write_table_metadata(*io_, location, metadata));
    Status status = insert_table(id, location);
    if (!status.ok()) {
      (void)io_->delete_file(location);
      return status;
    }
    write_committed_hint(*io_, location);
    return location;
  }

  Result<std::string> commit_table(const TableIdentifier& id, std::string_view base_location,
                                   const TableMetadata& metadata) override {
    {
      // Like JdbcCatalog, refuse a stale base before writing anything.
      std::lock_guard lock(mu_);
      auto current = FLOE_TRY(pointer(id));
      if (!current) return missing_table(id);
      if (*current != base_location) return commit_conflict(id, base_location, *current);
    }
    std::string location = next_metadata_location(metadata, base_location);
    FLOE_TRY(write_table_metadata(*io_, location, metadata));
    std::lock_guard lock(mu_);
    auto updated = db_->execute(
        "UPDATE iceberg_tables SET metadata_location = ?, previous_metadata_location = ? "
        "WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? "
        "AND metadata_location = ?" +
            tables_only(),
        {location, std::string(base_location), name(), namespace_to_string(id.ns), id.name,
         std::string(base_location)});
    if (!updated.ok()) {
      if (db_->connection_lost()) {
        return make_error(ErrorKind::kCommitStateUnknown,
                          "commit to '{}' may or may not have happened (new metadata '{}' kept): "
                          "{}",
                          id.to_string(), location, updated.status().message());
      }
      (void)io_->delete_file(location);
      return updated.status();
    }
    if (*updated != 1) {
      (void)io_->delete_file(location);
      auto current = pointer(id);
      return commit_conflict(id, base_location,
                             current.ok() && *current ? **current : std::string("<dropped>"));
    }
    write_committed_hint(*io_, location);
    return location;
  }

  Status rename_table(const TableIdentifier& from, const TableIdentifier& to) override {
    FLOE_TRY(check_levels(to.ns));
    FLOE_TRY(check_identifier_path_names(to));
    std::lock_guard lock(mu_);
    return transact([&]() -> Status {
      if (!FLOE_TRY(pointer(from))) return missing_table(from);
      if (FLOE_TRY(name_taken(to))) return table_exists_error(to);
      if (!FLOE_TRY(namespace_exists_locked(to.ns))) return missing_namespace(to.ns);
      int64_t changed = FLOE_TRY(db_->execute(
          "UPDATE iceberg_tables SET table_namespace = ?, table_name = ? "
          "WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?" +
              tables_only(),
          {namespace_to_string(to.ns), to.name, name(), namespace_to_string(from.ns), from.name}));
      if (changed != 1) return missing_table(from);
      return Status::OK();
    });
  }

  Status drop_table(const TableIdentifier& id, bool purge) override {
    // With purge the metadata is read first, as Java does: a table whose metadata cannot be
    // read stays in the catalog instead of being dropped with its files left behind.
    std::optional<LoadedMetadata> loaded;
    if (purge) loaded = FLOE_TRY(load_metadata(id));
    {
      std::lock_guard lock(mu_);
      FLOE_TRY(transact([&]() -> Status {
        auto location = FLOE_TRY(pointer(id));
        if (!location) return missing_table(id);
        if (loaded && *location != loaded->location) {
          return commit_conflict(id, loaded->location, *location);
        }
        FLOE_TRY(
            db_->execute("DELETE FROM iceberg_tables "
                         "WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?" +
                             tables_only(),
                         {name(), namespace_to_string(id.ns), id.name}));
        return Status::OK();
      }));
    }
    if (!loaded) return Status::OK();
    FLOE_TRY(purge_table_files(*io_, *loaded->metadata, loaded->location));
    (void)io_->delete_file(join_path(parent_of(loaded->location), "version-hint.text"));
    return Status::OK();
  }

  Status register_table(const TableIdentifier& id, std::string_view metadata_location) override {
    FLOE_TRY(check_levels(id.ns));
    FLOE_TRY(read_table_metadata(*io_, metadata_location));
    return insert_table(id, std::string(metadata_location));
  }

  Result<std::vector<CatalogTablePointer>> tables_with_metadata_in(
      std::string_view metadata_dir) override {
    std::lock_guard lock(mu_);
    return sql_tables_with_metadata_in(*db_, metadata_dir);
  }

 private:
  Status try_init() {
    // The usual case takes no write lock, so opening never waits for a committer.
    auto columns = FLOE_TRY(db_->table_columns("iceberg_tables"));
    if (!columns.empty() && !FLOE_TRY(db_->table_columns("iceberg_namespace_properties")).empty()) {
      v1_ = std::find(columns.begin(), columns.end(), "iceberg_type") != columns.end();
      return Status::OK();
    }
    return transact([&]() -> Status {
      auto columns = FLOE_TRY(db_->table_columns("iceberg_tables"));
      if (columns.empty()) {
        FLOE_TRY(db_->execute(kCreateTablesSql));
        FLOE_TRY(db_->execute(kAddTypeSql));
        v1_ = true;
      } else {
        v1_ = std::find(columns.begin(), columns.end(), "iceberg_type") != columns.end();
      }
      if (FLOE_TRY(db_->table_columns("iceberg_namespace_properties")).empty()) {
        FLOE_TRY(db_->execute(kCreatePropertiesSql));
      }
      return Status::OK();
    });
  }

  // Runs `fn` in a write transaction; the caller holds mu_.
  Status transact(const std::function<Status()>& fn) {
    FLOE_TRY(db_->begin_write());
    Status status = fn();
    if (status.ok()) status = db_->commit();
    if (!status.ok()) db_->rollback();
    return status;
  }

  // Tables only, not views, when the database has the V1 schema.
  std::string tables_only() const {
    return v1_ ? " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)" : "";
  }

  // The table's metadata location, nullopt when there is no such table. Caller holds mu_.
  Result<std::optional<std::string>> pointer(const TableIdentifier& id) {
    auto rows =
        FLOE_TRY(db_->query("SELECT metadata_location FROM iceberg_tables "
                            "WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?" +
                                tables_only(),
                            {name(), namespace_to_string(id.ns), id.name}));
    if (rows.empty()) return std::optional<std::string>();
    if (!rows[0][0]) return invalid_data("table '{}' has no metadata_location", id.to_string());
    return rows[0][0];
  }

  // A table or a view of that name exists. Caller holds mu_.
  Result<bool> name_taken(const TableIdentifier& id) {
    auto rows =
        FLOE_TRY(db_->query("SELECT table_name FROM iceberg_tables "
                            "WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?",
                            {name(), namespace_to_string(id.ns), id.name}));
    return !rows.empty();
  }

  // The INSERT that creates or registers a table; a key violation means it exists.
  Status insert_table(const TableIdentifier& id, const std::string& location) {
    std::lock_guard lock(mu_);
    return transact([&]() -> Status {
      if (!FLOE_TRY(namespace_exists_locked(id.ns))) return missing_namespace(id.ns);
      std::vector<SqlValue> values = {name(), namespace_to_string(id.ns), id.name, location};
      auto inserted = db_->execute(
          v1_ ? "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "
                "metadata_location, previous_metadata_location, iceberg_type) "
                "VALUES (?, ?, ?, ?, NULL, 'TABLE')"
              : "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "
                "metadata_location, previous_metadata_location) VALUES (?, ?, ?, ?, NULL)",
          values);
      if (!inserted.ok() && inserted.status().kind() == ErrorKind::kAlreadyExists) {
        return table_exists_error(id);
      }
      return inserted.status();
    });
  }

  Status insert_property(const Namespace& ns, const std::string& key, const std::string& value) {
    return db_
        ->execute(
            "INSERT INTO iceberg_namespace_properties "
            "(catalog_name, namespace, property_key, property_value) VALUES (?, ?, ?, ?)",
            {name(), namespace_to_string(ns), key, value})
        .status();
  }

  // Every namespace named by a table row or a property row of this catalog.
  Result<std::vector<Namespace>> all_namespaces() {
    std::vector<Namespace> out;
    for (const char* sql :
         {"SELECT DISTINCT table_namespace FROM iceberg_tables WHERE catalog_name = ?",
          "SELECT DISTINCT namespace FROM iceberg_namespace_properties WHERE catalog_name = ?"}) {
      for (auto& row : FLOE_TRY(db_->query(sql, {name()}))) {
        if (row[0] && !row[0]->empty()) out.push_back(split_namespace(*row[0]));
      }
    }
    return out;
  }

  Result<bool> namespace_exists_locked(const Namespace& ns) {
    if (ns.empty()) return true;
    std::string text = namespace_to_string(ns);
    auto direct = FLOE_TRY(db_->query(
        "SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ? "
        "UNION ALL "
        "SELECT 1 FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ?",
        {name(), text, name(), text}));
    if (!direct.empty()) return true;
    // A namespace below this one implies it (JdbcCatalog matches "ns.%").
    for (const auto& other : FLOE_TRY(all_namespaces())) {
      if (other.size() > ns.size() && has_prefix(other, ns)) return true;
    }
    return false;
  }

  std::string default_namespace_location(const Namespace& ns) const {
    std::string location = warehouse();
    while (location.size() > 1 && location.back() == '/') location.pop_back();
    for (const auto& level : ns) location = join_path(location, level);
    return location;
  }

  std::mutex mu_;
  std::unique_ptr<SqlConnection> db_;
  std::string uri_;
  bool v1_ = true;
};

}  // namespace

Result<std::vector<CatalogTablePointer>> sql_tables_with_metadata_in(
    SqlConnection& db, std::string_view metadata_dir) {
  std::string dir = canonical_local_path(metadata_dir);
  // Locations are stored as written ("/wh/t/metadata/...", "file:/wh/t/metadata/...", through
  // a symlink): the pattern matches the directory's last two names, the exact directory is
  // compared below.
  std::string tail = dir;
  auto last = tail.rfind('/');
  if (last != std::string::npos && last > 0) {
    auto before = tail.rfind('/', last - 1);
    if (before != std::string::npos) tail = tail.substr(before);
  }
  auto rows =
      FLOE_TRY(db.query("SELECT catalog_name, table_namespace, table_name, metadata_location "
                        "FROM iceberg_tables WHERE metadata_location LIKE ? ESCAPE '!'",
                        {"%" + like_literal(tail) + "/%"}));
  std::vector<CatalogTablePointer> out;
  for (auto& row : rows) {
    if (!row[3] || canonical_local_path(parent_of(*row[3])) != dir) continue;
    out.push_back({row[0].value_or(""),
                   {split_namespace(row[1].value_or("")), row[2].value_or("")},
                   *row[3]});
  }
  return out;
}

Result<CatalogPtr> make_sql_catalog(std::unique_ptr<SqlConnection> connection, std::string uri,
                                    CatalogOptions options) {
  auto catalog =
      std::make_shared<SqlCatalog>(std::move(connection), std::move(uri), std::move(options));
  FLOE_TRY(catalog->init());
  return CatalogPtr(std::move(catalog));
}

}  // namespace floe
