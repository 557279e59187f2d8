// Helpers shared by the catalog tests (tests/catalog) and the PostgreSQL catalog tests
// (tests/postgres): temp dirs, a valid TableMetadata, opening each kind of catalog, and the
// PostgreSQL URI the test server script publishes.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/spec/metadata_file.h"
#include "floe/util/uuid.h"

namespace floe::catalog_test {

inline std::string make_temp_dir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "floe-catalog-XXXXXX").string();
  char* dir = mkdtemp(pattern.data());
  EXPECT_NE(dir, nullptr);
  return pattern;
}

// `processes` forked processes, each with its own catalog opened from `uri`, add 1 to the table's
// `counter` property `commits` times with compare-and-swap retries. Every child must end
// cleanly; the caller checks that no increment was lost.
inline void increment_counter_from_processes(const std::string& uri, const CatalogOptions& options,
                                             const TableIdentifier& id, int processes,
                                             int commits) {
  std::vector<pid_t> children;
  for (int p = 0; p < processes; ++p) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      auto catalog = open_catalog(uri, options);
      if (!catalog.ok()) _exit(2);
      for (int i = 0; i < commits; ++i) {
        while (true) {
          auto loaded = (*catalog)->load_metadata(id);
          if (!loaded.ok()) _exit(3);
          TableMetadata next = *loaded->metadata;
          next.properties["counter"] = std::to_string(std::stoi(next.property("counter")) + 1);
          auto done = (*catalog)->commit_table(id, loaded->location, next);
          if (done.ok()) break;
          if (done.status().kind() != ErrorKind::kCommitConflict) {
            fprintf(stderr, "child: %s\n", done.status().to_string().c_str());
            _exit(4);
          }
        }
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  }
}

inline TableMetadata make_metadata(const std::string& location) {
  TableMetadata m;
  m.format_version = 2;
  m.table_uuid = random_uuid();
  m.location = location;
  m.last_updated_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  NestedField id;
  id.id = 1;
  id.name = "id";
  id.type = Type::int64();
  id.required = true;
  NestedField name;
  name.id = 2;
  name.name = "name";
  name.type = Type::string();
  m.schemas = {std::make_shared<const Schema>(0, std::vector<NestedField>{id, name})};
  m.last_column_id = 2;
  m.current_schema_id = 0;
  m.specs = {PartitionSpec::unpartitioned(0)};
  m.default_spec_id = 0;
  m.sort_orders = {std::make_shared<const SortOrder>()};
  m.default_sort_order_id = 0;
  return m;
}

inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci && (std::string(ci) == "true" || std::string(ci) == "1");
}

// FLOE_TEST_POSTGRES_URI, else the file scripts/start-postgres writes.
inline std::optional<std::string> postgres_uri() {
  if (const char* env = std::getenv("FLOE_TEST_POSTGRES_URI"); env && *env) return env;
  const char* run = std::getenv("FLOE_PG_RUN");
  std::ifstream in(std::string(run && *run ? run : "/tmp/floe-test-postgres") + "/uri");
  std::string uri;
  if (in && std::getline(in, uri) && !uri.empty()) return uri;
  return std::nullopt;
}

// Opens a catalog of `kind` ("memory", "sqlite", "hadoop", "postgres") whose state lives under
// `dir` (or, for PostgreSQL, under catalog name `name` in the shared test database).
inline Result<CatalogPtr> open_kind(const std::string& kind, const std::string& dir,
                                    const std::string& name, const std::string& pg_uri = "") {
  CatalogOptions options;
  options.name = name;
  options.warehouse = dir + "/wh";
  if (kind == "memory") return make_memory_catalog(options);
  if (kind == "sqlite") return open_catalog("sqlite:" + dir + "/db/catalog.db", options);
  if (kind == "hadoop") return open_catalog("hadoop:" + dir + "/wh", options);
  if (kind == "postgres") return open_catalog(pg_uri, options);
  return invalid_argument("unknown catalog kind {}", kind);
}

// Files under `dir` whose name ends in ".metadata.json".
inline int count_metadata_files(const std::string& dir) {
  int n = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().filename().string().ends_with(".metadata.json")) ++n;
  }
  return n;
}

}  // namespace floe::catalog_test
