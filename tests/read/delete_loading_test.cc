// Each position- or equality-delete file is read once per scan, even when tasks that share it
// run on several threads at the same time.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "floe/io/file_io.h"
#include "floe/read/task_reader.h"
#include "floe/spec/metadata_file.h"
#include "integration/fixture_readme.h"

namespace floe {
namespace {

TEST(DeleteLoading, EveryDeleteFileIsReadOncePerScan) {
  int tables = 0;
  for (const auto& t : floe_test::readme_tables()) {
    if (t.delete_files <= 0 || t.metadata.empty()) continue;
    if (t.formats.find("ORC") != std::string::npos || t.formats.find("AVRO") != std::string::npos ||
        t.name == "duckdb-iceberg/legacy_bare_deletion_vector") {
      continue;
    }
    SCOPED_TRACE(t.name);
    auto table =
        open_table_at(make_local_file_io(),
                      (std::filesystem::path(FLOE_FIXTURES_DIR) / t.name / t.metadata).string());
    ASSERT_TRUE(table.ok()) << table.status().to_string();
    // Delete files (not deletion vectors) that some task needs.
    std::set<std::string> needed;
    {
      auto scan = TableScan::make(table->io, table->metadata, {});
      ASSERT_TRUE(scan.ok());
      auto files = scan->plan_files();
      if (!files.ok()) continue;  // tables whose planning fails are covered elsewhere
      for (const auto& task : *files) {
        for (const auto& d : task.deletes) {
          if (d->content_offset()) continue;  // a deletion vector blob
          needed.insert(std::string(d->file_path()));
        }
      }
    }
    if (needed.empty()) continue;
    for (int run = 0; run < 3; ++run) {
      auto scan = TableScan::make(table->io, table->metadata, {});
      ASSERT_TRUE(scan.ok());
      auto summary = read_scan(
          *scan, table->io, table->metadata, {}, [](ColumnBatch&&) { return Status::OK(); }, 2);
      ASSERT_TRUE(summary.ok()) << summary.status().to_string();
      EXPECT_EQ(summary->delete_files_loaded, static_cast<int64_t>(needed.size()));
    }
    ++tables;
  }
  EXPECT_GE(tables, 5);
}

}  // namespace
}  // namespace floe
