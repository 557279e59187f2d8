// Reading a table by path, following the catalog that manages it (floe/catalog/path_read.h).
#include "floe/catalog/path_read.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "catalog/catalog_internal.h"
#include "floe/util/strings.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kChoose =
    "pass the metadata file to read (e.g. floe scan <table>/metadata/<file>.metadata.json)";

bool is_metadata_name(std::string_view name) {
  return name.ends_with(".metadata.json") || name.ends_with(".metadata.json.gz");
}

// `00003-<uuid>.metadata.json`: the name a catalog commit writes (not `v3.metadata.json`).
bool is_catalog_named(std::string_view name) {
  return !name.empty() && name[0] >= '0' && name[0] <= '9' && metadata_file_version(name);
}

// The metadata file names directly in `dir`.
std::vector<std::string> metadata_names(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (is_metadata_name(name) && entry.is_regular_file(ec)) out.push_back(name);
  }
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const auto& part : parts) {
    if (!out.empty()) out += sep;
    out += part;
  }
  return out;
}

struct Answer {
  std::string source;  // the catalog that gave it
  CatalogTablePointer pointer;
};

std::string table_name_of(const CatalogTablePointer& p) {
  return p.catalog_name.empty() ? p.id.to_string() : p.catalog_name + "." + p.id.to_string();
}

// The answers of the SQLite catalogs `catalog.db` in the directories above `table_dir`.
Status ask_warehouse_catalogs(const fs::path& table_dir, const std::string& metadata_dir,
                              std::vector<Answer>* answers) {
  std::error_code ec;
  for (fs::path dir = table_dir.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    fs::path db_path = dir / "catalog.db";
    if (fs::is_regular_file(db_path, ec)) {
      std::string source = "sqlite:" + db_path.string();
      auto db = open_sqlite_connection(db_path.string());
      if (!db.ok()) {
        return make_error(db.status().kind(),
                          "cannot ask the catalog {} which metadata file of {} is committed: {}; "
                          "{}",
                          source, metadata_dir, db.status().message(), kChoose);
      }
      // A database that is not a JdbcCatalog-layout catalog says nothing.
      if (!FLOE_TRY((*db)->table_columns("iceberg_tables")).empty()) {
        auto rows = sql_tables_with_metadata_in(**db, metadata_dir);
        if (!rows.ok()) {
          return make_error(rows.status().kind(), "cannot ask the catalog {} about {}: {}; {}",
                            source, metadata_dir, rows.status().message(), kChoose);
        }
        for (auto& row : *rows) answers->push_back({source, std::move(row)});
      }
    }
    if (dir == dir.root_path()) break;
  }
  return Status::OK();
}

// No catalog manages the table: the spec's rules (hint, highest version), except that two files
// claiming the highest version cannot be told apart.
Status check_unambiguous(const fs::path& metadata_dir, const std::vector<std::string>& names) {
  std::string hint;
  {
    std::ifstream in(metadata_dir / "version-hint.text");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    hint = std::string(trim(text));
  }
  if (!hint.empty()) {
    for (const auto& name : names) {
      if (name == hint + ".metadata.json" || name == "v" + hint + ".metadata.json") {
        return Status::OK();
      }
    }
  }
  std::map<int64_t, std::vector<std::string>> by_version;
  for (const auto& name : names) {
    if (auto v = metadata_file_version(name)) by_version[*v].push_back(name);
  }
  if (by_version.empty() || by_version.rbegin()->second.size() < 2) return Status::OK();
  const auto& [version, files] = *by_version.rbegin();
  return invalid_data(
      "cannot tell which metadata file of {} is current: {} all claim version {} and no "
      "catalog that manages the table was found (a writer killed before its commit leaves such "
      "a file); {}",
      metadata_dir.string(), join(files, ", "), version, kChoose);
}

}  // namespace

Result<StoredTable> open_table_by_path(FileIOPtr io, std::string_view path,
                                       const PathReadOptions& options) {
  std::string p = local_path_of(path);
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  std::error_code ec;
  if (!fs::is_directory(p, ec)) return open_table_at(io, path, options.parse);

  // A table directory holds metadata/; a metadata directory holds the files itself.
  fs::path metadata_dir = fs::path(p) / "metadata";
  std::vector<std::string> names = metadata_names(metadata_dir);
  if (names.empty()) {
    metadata_dir = p;
    names = metadata_names(metadata_dir);
  }
  bool catalog_named = std::any_of(names.begin(), names.end(), is_catalog_named);
  if (!catalog_named) return open_table_at(io, path, options.parse);

  std::string dir = canonical_local_path(metadata_dir.string());
  std::vector<Answer> answers;
  std::vector<CatalogPtr> catalogs = options.catalogs;
  if (options.open_catalog) {
    auto extra = options.open_catalog();
    if (!extra.ok()) {
      return make_error(extra.status().kind(),
                        "cannot ask the catalog which metadata file of {} is committed: {}; {}",
                        dir, extra.status().message(), kChoose);
    }
    if (*extra) catalogs.push_back(*extra);
  }
  for (const auto& catalog : catalogs) {
    auto rows = catalog->tables_with_metadata_in(dir);
    if (!rows.ok()) {
      return make_error(rows.status().kind(), "cannot ask the catalog {} about {}: {}; {}",
                        catalog->uri(), dir, rows.status().message(), kChoose);
    }
    for (auto& row : *rows) answers.push_back({catalog->uri(), std::move(row)});
  }
  if (options.search_warehouse_catalogs) {
    fs::path table_dir(dir);
    if (table_dir.filename() == "metadata") table_dir = table_dir.parent_path();
    FLOE_TRY(ask_warehouse_catalogs(table_dir, dir, &answers));
  }

  // The same table may be found through two routes (--catalog and the warehouse's catalog.db).
  std::map<std::string, const Answer*> by_location;
  for (const auto& a : answers) {
    by_location.emplace(canonical_local_path(a.pointer.metadata_location), &a);
  }
  if (by_location.size() > 1) {
    std::vector<std::string> claims;
    for (const auto& [location, a] : by_location) {
      claims.push_back(fmt::format("{} in {} says {}", table_name_of(a->pointer), a->source,
                                   a->pointer.metadata_location));
    }
    return invalid_data("cannot tell which metadata file of {} is current: {}; {}", dir,
                        join(claims, "; "), kChoose);
  }
  if (by_location.size() == 1) {
    const Answer& a = *by_location.begin()->second;
    StoredTable table = FLOE_TRY(open_table_at(io, a.pointer.metadata_location, options.parse));
    table.metadata_file.reason = fmt::format("catalog {} ({})", a.source, table_name_of(a.pointer));
    return table;
  }
  FLOE_TRY(check_unambiguous(metadata_dir, names));
  return open_table_at(io, path, options.parse);
}

}  // namespace floe
