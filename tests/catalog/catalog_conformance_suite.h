// The conformance suite every catalog passes: namespaces, table lifecycle, the commit
// compare-and-swap, purge, register, and concurrent committers. Included by exactly one test
// file per binary, which instantiates it for the catalog kinds it covers.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "catalog/catalog_test_support.h"
#include "floe/manifest/manifest_writer.h"

namespace floe::catalog_test {

using Props = std::map<std::string, std::string>;

class CatalogConformance : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir();
    name_ = kind() == "postgres" ? "test_" + random_uuid() : "lakehouse";
    if (kind() == "postgres") {
      auto uri = postgres_uri();
      if (!uri) {
        if (in_ci()) FAIL() << "PostgreSQL test server unavailable (CI=true): no URI";
        GTEST_SKIP() << "no PostgreSQL: run scripts/start-postgres or set FLOE_TEST_POSTGRES_URI";
      }
      pg_uri_ = *uri;
    }
    auto catalog = open_kind(kind(), dir_, name_, pg_uri_);
    if (!catalog.ok() && kind() == "postgres" && !in_ci()) {
      GTEST_SKIP() << "PostgreSQL unavailable: " << catalog.status().to_string();
    }
    ASSERT_TRUE(catalog.ok()) << catalog.status().to_string();
    catalog_ = *catalog;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  const std::string& kind() const { return GetParam(); }
  bool hadoop() const { return kind() == "hadoop"; }

  // Another catalog object on the same store (the same one for the memory catalog).
  CatalogPtr open_another() {
    if (kind() == "memory") return catalog_;
    auto catalog = open_kind(kind(), dir_, name_, pg_uri_);
    EXPECT_TRUE(catalog.ok()) << catalog.status().to_string();
    return catalog.ok() ? *catalog : nullptr;
  }

  TableMetadata metadata_for(const TableIdentifier& id, const Props& props = {}) {
    auto m = make_metadata(catalog_->default_table_location(id));
    m.properties = props;
    return m;
  }

  std::string create(const TableIdentifier& id, const Props& props = {}) {
    auto location = catalog_->create_table(id, metadata_for(id, props));
    EXPECT_TRUE(location.ok()) << location.status().to_string();
    return location.ok() ? *location : "";
  }

  std::string metadata_dir(const TableIdentifier& id) {
    return catalog_->default_table_location(id) + "/metadata";
  }

  std::string dir_;
  std::string name_;
  std::string pg_uri_;
  CatalogPtr catalog_;
};

TEST_P(CatalogConformance, Namespaces) {
  Props props = hadoop() ? Props{} : Props{{"owner", "ana"}, {"k", "v"}};
  ASSERT_TRUE(catalog_->create_namespace({"a"}, props).ok());
  EXPECT_EQ(catalog_->create_namespace({"a"}).kind(), ErrorKind::kAlreadyExists);
  ASSERT_TRUE(catalog_->create_namespace({"a", "b"}).ok());
  ASSERT_TRUE(catalog_->create_namespace({"z"}).ok());

  EXPECT_EQ(*catalog_->list_namespaces({}), (std::vector<Namespace>{{"a"}, {"z"}}));
  EXPECT_EQ(*catalog_->list_namespaces({"a"}), (std::vector<Namespace>{{"a", "b"}}));
  EXPECT_TRUE(catalog_->list_namespaces({"a", "b"})->empty());
  EXPECT_EQ(catalog_->list_namespaces({"nope"}).status().kind(), ErrorKind::kNotFound);
  EXPECT_TRUE(*catalog_->namespace_exists({"a", "b"}));
  EXPECT_FALSE(*catalog_->namespace_exists({"nope"}));
  EXPECT_EQ(catalog_->namespace_properties({"nope"}).status().kind(), ErrorKind::kNotFound);

  auto got = catalog_->namespace_properties({"a"});
  ASSERT_TRUE(got.ok()) << got.status().to_string();
  EXPECT_EQ(got->count("exists"), 0u);
  EXPECT_EQ(got->at("location"), catalog_->warehouse() + "/a");
  for (const auto& [k, v] : props) EXPECT_EQ(got->at(k), v) << k;
  if (hadoop()) {
    EXPECT_EQ(catalog_->create_namespace({"p"}, {{"k", "v"}}).kind(), ErrorKind::kNotSupported);
    EXPECT_EQ(catalog_->update_namespace_properties({"a"}, {{"k", "v"}}, {}).kind(),
              ErrorKind::kNotSupported);
  } else {
    ASSERT_TRUE(
        catalog_->update_namespace_properties({"a"}, {{"k", "w"}, {"n", "1"}}, {"owner"}).ok());
    got = catalog_->namespace_properties({"a"});
    EXPECT_EQ(got->at("k"), "w");
    EXPECT_EQ(got->at("n"), "1");
    EXPECT_EQ(got->count("owner"), 0u);
    EXPECT_EQ(catalog_->update_namespace_properties({"nope"}, {{"k", "v"}}, {}).kind(),
              ErrorKind::kNotFound);
  }

  ASSERT_TRUE(catalog_->drop_namespace({"z"}).ok());
  EXPECT_FALSE(*catalog_->namespace_exists({"z"}));
  EXPECT_EQ(catalog_->drop_namespace({"z"}).kind(), ErrorKind::kNotFound);
  EXPECT_EQ(*catalog_->list_namespaces({}), (std::vector<Namespace>{{"a"}}));
}

TEST_P(CatalogConformance, DropOfNonEmptyNamespaceFails) {
  ASSERT_TRUE(catalog_->create_namespace({"ns"}).ok());
  TableIdentifier id{{"ns"}, "t"};
  create(id);
  EXPECT_EQ(catalog_->drop_namespace({"ns"}).kind(), ErrorKind::kInvalidArgument);
  EXPECT_TRUE(*catalog_->namespace_exists({"ns"}));
  ASSERT_TRUE(catalog_->drop_table(id, false).ok());
  EXPECT_TRUE(catalog_->drop_namespace({"ns"}).ok());
  EXPECT_FALSE(*catalog_->namespace_exists({"ns"}));
}

TEST_P(CatalogConformance, TableLifecycle) {
  ASSERT_TRUE(catalog_->create_namespace({"ns"}).ok());
  TableIdentifier t1{{"ns"}, "t1"}, t2{{"ns"}, "t2"};
  auto original = metadata_for(t1, {{"p", "1"}});
  auto location = catalog_->create_table(t1, original);
  ASSERT_TRUE(location.ok()) << location.status().to_string();
  create(t2);

  EXPECT_TRUE(*catalog_->table_exists(t1));
  EXPECT_FALSE(*catalog_->table_exists({{"ns"}, "t9"}));
  EXPECT_EQ(*catalog_->list_tables({"ns"}), (std::vector<TableIdentifier>{t1, t2}));
  EXPECT_EQ(catalog_->list_tables({"nope"}).status().kind(), ErrorKind::kNotFound);

  auto loaded = catalog_->load_metadata(t1);
  ASSERT_TRUE(loaded.ok()) << loaded.status().to_string();
  EXPECT_EQ(loaded->location, *location);
  EXPECT_EQ(*loaded->metadata, original);

  EXPECT_EQ(catalog_->create_table(t1, metadata_for(t1)).status().kind(),
            ErrorKind::kAlreadyExists);
  EXPECT_EQ(count_metadata_files(metadata_dir(t1)), 1);  // the rejected file is gone
  TableIdentifier orphan{{"missing_ns"}, "t"};
  EXPECT_EQ(catalog_->create_table(orphan, metadata_for(orphan)).status().kind(),
            ErrorKind::kNotFound);

  auto missing = catalog_->load_metadata({{"ns"}, "missing"});
  EXPECT_EQ(missing.status().kind(), ErrorKind::kNotFound);
  EXPECT_NE(missing.status().message().find("ns.missing"), std::string::npos)
      << missing.status().message();

  TableIdentifier t3{{"ns"}, "t3"};
  if (hadoop()) {
    EXPECT_EQ(catalog_->rename_table(t1, t3).kind(), ErrorKind::kNotSupported);
  } else {
    ASSERT_TRUE(catalog_->rename_table(t1, t3).ok());
    EXPECT_FALSE(*catalog_->table_exists(t1));
    EXPECT_EQ(catalog_->load_metadata(t3)->location, *location);
    EXPECT_EQ(catalog_->rename_table(t1, t3).kind(), ErrorKind::kNotFound);
    EXPECT_EQ(catalog_->rename_table(t3, t2).kind(), ErrorKind::kAlreadyExists);
    EXPECT_EQ(catalog_->rename_table(t3, {{"missing_ns"}, "t"}).kind(), ErrorKind::kNotFound);
    EXPECT_EQ(*catalog_->list_tables({"ns"}), (std::vector<TableIdentifier>{t2, t3}));
  }

  std::string t2_location = catalog_->load_metadata(t2)->location;
  ASSERT_TRUE(catalog_->drop_table(t2, false).ok());
  EXPECT_FALSE(*catalog_->table_exists(t2));
  EXPECT_EQ(catalog_->drop_table(t2, false).kind(), ErrorKind::kNotFound);
  // Without purge the files stay, except in the filesystem catalog, whose table is its directory.
  EXPECT_EQ(std::filesystem::exists(t2_location), !hadoop());
}

TEST_P(CatalogConformance, CommitIsACompareAndSwap) {
  ASSERT_TRUE(catalog_->create_namespace({"ns"}).ok());
  TableIdentifier id{{"ns"}, "t"};
  std::string base = create(id);
  auto loaded = catalog_->load_metadata(id);
  ASSERT_TRUE(loaded.ok());

  TableMetadata winner = *loaded->metadata;
  winner.properties["who"] = "winner";
  auto committed = catalog_->commit_table(id, base, winner);
  ASSERT_TRUE(committed.ok()) << committed.status().to_string();
  EXPECT_NE(*committed, base);

  TableMetadata loser = *loaded->metadata;
  loser.properties["who"] = "loser";
  auto stale = catalog_->commit_table(id, base, loser);
  EXPECT_EQ(stale.status().kind(), ErrorKind::kCommitConflict) << stale.status().to_string();

  auto now = catalog_->load_metadata(id);
  ASSERT_TRUE(now.ok());
  EXPECT_EQ(now->location, *committed);
  EXPECT_EQ(now->metadata->property("who"), "winner");
  EXPECT_EQ(count_metadata_files(metadata_dir(id)), 2);  // base and winner; no loser file

  TableIdentifier missing{{"ns"}, "missing"};
  EXPECT_EQ(catalog_->commit_table(missing, base, winner).status().kind(), ErrorKind::kNotFound);
}

TEST_P(CatalogConformance, DropWithPurgeDeletesReachableFiles) {
  ASSERT_TRUE(catalog_->create_namespace({"ns"}).ok());
  TableIdentifier id{{"ns"}, "t"};
  std::string base = create(id);
  TableMetadata m = *catalog_->load_metadata(id)->metadata;
  FileIOPtr io = catalog_->io();
  std::string data = m.location + "/data/00000-a.parquet";
  ASSERT_TRUE(io->write_file(data, "not really parquet").ok());

  DataFile file;
  file.file_path = data;
  file.file_format = "PARQUET";
  file.record_count = 1;
  file.file_size_in_bytes = 18;
  ManifestWriterOptions options;
  options.snapshot_id = 7;
  std::string manifest_path = m.location + "/metadata/manifest-a.avro";
  auto writer = ManifestWriter::make(
      *io, [&](int) { return manifest_path; }, m.schemas[0], m.specs[0], options);
  ASSERT_TRUE(writer.ok()) << writer.status().to_string();
  ASSERT_TRUE((*writer)->add(file).ok());
  auto manifests = (*writer)->finish();
  ASSERT_TRUE(manifests.ok());
  std::string list_path = m.location + "/metadata/snap-7.avro";
  ManifestListWriterOptions list_options;
  list_options.snapshot_id = 7;
  list_options.sequence_number = 1;
  ASSERT_TRUE(write_manifest_list(*io, list_path, *manifests, list_options).ok());
  std::string stats = m.location + "/metadata/stats.puffin";
  ASSERT_TRUE(io->write_file(stats, "puffin").ok());

  auto snapshot = std::make_shared<Snapshot>();
  snapshot->snapshot_id = 7;
  snapshot->sequence_number = 1;
  snapshot->timestamp_ms = m.last_updated_ms;
  snapshot->manifest_list = list_path;
  snapshot->summary = {{"operation", "append"}};
  m.snapshots = {snapshot};
  m.current_snapshot_id = 7;
  m.refs[kMainBranch].snapshot_id = 7;
  m.last_sequence_number = 1;
  m.snapshot_log = {{m.last_updated_ms, 7}};
  m.metadata_log = {{m.last_updated_ms, base}};
  StatisticsFile stats_file;
  stats_file.snapshot_id = 7;
  stats_file.statistics_path = stats;
  m.statistics = {stats_file};
  ASSERT_TRUE(m.validate().ok()) << m.validate().to_string();
  auto current = catalog_->commit_table(id, base, m);
  ASSERT_TRUE(current.ok()) << current.status().to_string();

  ASSERT_TRUE(catalog_->drop_table(id, true).ok());
  EXPECT_FALSE(*catalog_->table_exists(id));
  for (const auto& path : {data, manifest_path, list_path, stats, base, *current}) {
    EXPECT_FALSE(std::filesystem::exists(path)) << path;
  }
}

TEST_P(CatalogConformance, RegisterExistingMetadata) {
  ASSERT_TRUE(catalog_->create_namespace({"ns"}).ok());
  TableIdentifier id{{"ns"}, "reg"};
  auto m = metadata_for(id, {{"registered", "yes"}});
  std::string file = dir_ + "/elsewhere/00000-x.metadata.json";
  ASSERT_TRUE(write_table_metadata(*catalog_->io(), file, m).ok());

  ASSERT_TRUE(catalog_->register_table(id, file).ok());
  auto loaded = catalog_->load_metadata(id);
  ASSERT_TRUE(loaded.ok()) << loaded.status().to_string();
  EXPECT_EQ(*loaded->metadata, m);
  if (!hadoop()) {
    EXPECT_EQ(loaded->location, file);
  }
  EXPECT_EQ(catalog_->register_table(id, file).kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(catalog_->register_table({{"ns"}, "r2"}, dir_ + "/none.metadata.json").kind(),
            ErrorKind::kNotFound);
}

// Threads, each with its own catalog object (one shared for the memory catalog), increment a
// counter kept in the table properties; every successful commit must be counted.
TEST_P(CatalogConformance, ConcurrentCommitsLoseNoUpdate) {
  ASSERT_TRUE(catalog_->create_namespace({"ns"}).ok());
  TableIdentifier id{{"ns"}, "counter"};
  create(id, {{"counter", "0"}});
  constexpr int kThreads = 4, kCommits = 8;
  std::vector<CatalogPtr> catalogs;
  for (int t = 0; t < kThreads; ++t) catalogs.push_back(t % 2 ? catalog_ : open_another());
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCommits; ++i) {
        while (true) {
          auto loaded = catalogs[t]->load_metadata(id);
          if (!loaded.ok()) {
            ++failures;
            return;
          }
          TableMetadata next = *loaded->metadata;
          next.properties["counter"] = std::to_string(std::stoi(next.property("counter")) + 1);
          auto done = catalogs[t]->commit_table(id, loaded->location, next);
          if (done.ok()) break;
          if (done.status().kind() != ErrorKind::kCommitConflict) {
            ADD_FAILURE() << done.status().to_string();
            ++failures;
            return;
          }
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  auto final_metadata = catalog_->load_metadata(id);
  ASSERT_TRUE(final_metadata.ok());
  EXPECT_EQ(final_metadata->metadata->property("counter"), std::to_string(kThreads * kCommits));
  // Every losing attempt removed its file: one file per successful commit plus the first.
  EXPECT_EQ(count_metadata_files(metadata_dir(id)), kThreads * kCommits + 1);
}

// Names that are not one plain directory are refused where the location derives from the
// name, and nothing is written for them.
TEST_P(CatalogConformance, PathNamesAreRefusedWhereTheLocationDerivesFromTheName) {
  ASSERT_TRUE(catalog_->create_namespace({"db"}).ok());
  const std::vector<std::string> bad = {"",       ".",     "..",    "../../x",
                                        "a/b",    "a\\b",  "/abs",  std::string("a\0b", 3),
                                        "a\x01z", "tab\t", "a\x7f", "new\nline"};
  for (const auto& name : bad) {
    TableIdentifier id{{"db"}, name};
    auto created = catalog_->create_table(id, metadata_for(id));
    EXPECT_EQ(created.status().kind(), ErrorKind::kInvalidArgument) << "table '" << name << "'";
    if (!name.empty()) {
      EXPECT_NE(created.status().message().find("is not allowed"), std::string::npos)
          << created.status().message();
    }
    Status ns = catalog_->create_namespace({"db", name});
    EXPECT_EQ(ns.kind(), ErrorKind::kInvalidArgument) << "namespace '" << name << "'";
  }
  // Nothing was written anywhere under the test directory.
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir_)) {
    if (e.path().string().ends_with(".metadata.json")) ++files;
  }
  EXPECT_EQ(files, 0);
  if (hadoop()) return;  // no rename, no explicit locations

  TableIdentifier plain{{"db"}, "t"};
  create(plain);
  for (const auto& name : bad) {
    EXPECT_EQ(catalog_->rename_table(plain, {{"db"}, name}).kind(), ErrorKind::kInvalidArgument)
        << "rename to '" << name << "'";
  }
  // An explicit location keeps the name out of paths.
  TableIdentifier odd{{"db"}, "a/b"};
  auto m = make_metadata(dir_ + "/explicit");
  auto created = catalog_->create_table(odd, m);
  EXPECT_TRUE(created.ok()) << created.status().to_string();
  EXPECT_TRUE(catalog_->create_namespace({"db", "x/y"}, {{"location", dir_ + "/nsloc"}}).ok());
}

// The catalog names the table whose current metadata file lies in a directory.
TEST_P(CatalogConformance, TablesWithMetadataInADirectory) {
  ASSERT_TRUE(catalog_->create_namespace({"ns"}).ok());
  TableIdentifier id{{"ns"}, "t"};
  std::string first = create(id);
  auto loaded = catalog_->load_metadata(id);
  ASSERT_TRUE(loaded.ok());
  auto second = catalog_->commit_table(id, first, *loaded->metadata);
  ASSERT_TRUE(second.ok()) << second.status().to_string();
  auto found = catalog_->tables_with_metadata_in(metadata_dir(id));
  ASSERT_TRUE(found.ok()) << found.status().to_string();
  if (hadoop()) {
    EXPECT_TRUE(found->empty());  // version-hint.text and v<N> names say it
    return;
  }
  ASSERT_EQ(found->size(), 1u);
  EXPECT_EQ((*found)[0].id, id);
  EXPECT_EQ((*found)[0].metadata_location, *second);
  EXPECT_EQ((*found)[0].catalog_name, name_);
  EXPECT_TRUE(catalog_->tables_with_metadata_in(dir_ + "/wh/ns")->empty());
}

}  // namespace floe::catalog_test
