// Shared setup for the commit-layer tests: a memory catalog over a fault-injecting memory
// FileIO, a small partitioned schema and fabricated data files (no data written).
#pragma once

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "floe/io/fault_injecting_file_io.h"
#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/table/table.h"
#include "test_support.h"

namespace floe::testing {

#define ASSERT_OK(expr)                                                 \
  do {                                                                  \
    auto&& s_ = (expr);                                                 \
    ASSERT_TRUE(s_.ok()) << ::floe::testing::status_of(s_).to_string(); \
  } while (0)

template <typename T>
T must(Result<T> r) {
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  if (!r.ok()) std::abort();
  return std::move(*r);
}

inline const Status& status_of(const Status& s) { return s; }
template <typename T>
const Status& status_of(const Result<T>& r) {
  return r.status();
}

// Source schema as a caller writes it; create() reassigns ids (id=1, category=2, value=3).
using test_support::field;

inline SchemaPtr test_schema() {
  return std::make_shared<const Schema>(
      7, std::vector<NestedField>{field(10, "id", Type::int64(), true),
                                  field(20, "category", Type::string(), false),
                                  field(30, "value", Type::int64(), false)});
}

inline PartitionSpecPtr category_spec() {
  return std::make_shared<const PartitionSpec>(
      5, std::vector<PartitionField>{{20, {}, 0, "category", Transform::identity()}});
}

class CommitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fio = std::make_shared<FaultInjectingFileIO>(make_memory_file_io());
    CatalogOptions options;
    options.warehouse = "wh";
    options.io = fio;
    catalog = make_memory_catalog(options);
    ASSERT_TRUE(catalog->create_namespace({"db"}).ok());
  }

  std::shared_ptr<Table> create(std::map<std::string, std::string> props = {},
                                bool partitioned = true, int format_version = 0) {
    props.try_emplace("commit.retry.min-wait-ms", "1");
    props.try_emplace("commit.retry.max-wait-ms", "20");
    return must(Table::create(catalog, id, test_schema(), partitioned ? category_spec() : nullptr,
                              nullptr, props, "", format_version));
  }

  // A data file with `records` rows whose ids span [min_id, max_id].
  static DataFile file(const std::string& name, const std::string& category, int64_t records,
                       int64_t min_id = 1, int64_t max_id = 100, bool partitioned = true) {
    DataFile f;
    f.file_path = "wh/db/t/data/" + name + ".parquet";
    f.file_format = "PARQUET";
    if (partitioned) f.partition = {Literal::string(category)};
    f.record_count = records;
    f.file_size_in_bytes = records * 10 + 7;
    f.value_counts = {{1, records}};
    f.null_value_counts = {{1, 0}};
    f.lower_bounds = {{1, must(Literal::int64(min_id).to_bytes())}};
    f.upper_bounds = {{1, must(Literal::int64(max_id).to_bytes())}};
    return f;
  }

  static std::set<std::string> live_files(const Table& table, ScanOptions options = {}) {
    auto scan = must(table.new_scan(options));
    std::set<std::string> out;
    for (const auto& t : must(scan.plan_files())) out.insert(t.file->file_path);
    return out;
  }

  static std::string summary(const Table& table, const std::string& key) {
    const Snapshot* s = table.metadata()->current_snapshot();
    if (!s) return "<no snapshot>";
    auto it = s->summary.find(key);
    return it == s->summary.end() ? "<unset>" : it->second;
  }

  // Manifest lists and manifests reachable from any snapshot of the table.
  std::set<std::string> referenced_metadata(const Table& table) {
    std::set<std::string> out;
    auto m = table.metadata();
    for (const auto& s : m->snapshots) {
      out.insert(s->manifest_list);
      for (const auto& mf : must(snapshot_manifests(*fio, *m, *s))) out.insert(mf.manifest_path);
    }
    return out;
  }

  // Avro files under the metadata directory.
  std::set<std::string> stored_avro(const Table& table) {
    std::set<std::string> out;
    for (const auto& f : must(fio->list(table.location() + "/metadata"))) {
      if (f.path.size() > 5 && f.path.substr(f.path.size() - 5) == ".avro") out.insert(f.path);
    }
    return out;
  }

  std::shared_ptr<FaultInjectingFileIO> fio;
  CatalogPtr catalog;
  TableIdentifier id{{"db"}, "t"};
};

}  // namespace floe::testing
