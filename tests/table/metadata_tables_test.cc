// Metadata tables over fixture tables (read-only): schemas as Java declares them, and concrete
// values from the fixtures' metadata files and README.
#include "floe/table/metadata_tables.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "floe/spec/metadata_file.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kFixtures = FLOE_FIXTURES_DIR;

StoredTable open_fixture(const std::string& name) {
  auto t = open_table_at(make_local_file_io(), (kFixtures / name).string());
  EXPECT_TRUE(t.ok()) << t.status().to_string();
  return std::move(*t);
}

// Every row as a JSON object (nested values as JSON; maps with int keys as key/value pairs).
std::vector<json> rows(const StoredTable& table, MetadataTableType type,
                       std::optional<int64_t> snapshot = std::nullopt) {
  MetadataTableOptions options;
  options.snapshot_id = snapshot;
  options.threads = 2;
  auto t = read_metadata_table(table, type, options);
  EXPECT_TRUE(t.ok()) << t.status().to_string();
  std::vector<json> out;
  if (!t.ok()) return out;
  for (const auto& b : t->batches) {
    EXPECT_EQ(b.columns.size(), t->schema->fields().size());
    for (size_t c = 0; c < b.columns.size(); ++c) {
      EXPECT_EQ(b.columns[c]->length(), b.num_rows) << b.fields[c].name;
      EXPECT_EQ(b.fields[c].id, t->schema->fields()[c].id);
    }
    for (int64_t r = 0; r < b.num_rows; ++r) {
      std::string line;
      write_row_json(b, r, JsonOptions{}, &line);
      out.push_back(json::parse(line));
    }
  }
  return out;
}

std::vector<std::string> names(const Schema& s) {
  std::vector<std::string> v;
  for (const auto& f : s.fields()) v.push_back(f.name);
  return v;
}

SchemaPtr schema_of(const StoredTable& t, MetadataTableType type) {
  auto s = metadata_table_schema(*t.metadata, type);
  EXPECT_TRUE(s.ok()) << s.status().to_string();
  return *s;
}

TEST(MetadataTablesTest, NamesLookUpCaseInsensitively) {
  EXPECT_EQ(metadata_table_type_from_name("manifests"), MetadataTableType::kManifests);
  EXPECT_EQ(metadata_table_type_from_name("ALL_Data_Files"), MetadataTableType::kAllDataFiles);
  EXPECT_EQ(metadata_table_type_from_name("metadata_log_entries"),
            MetadataTableType::kMetadataLogEntries);
  EXPECT_FALSE(metadata_table_type_from_name("manifest").has_value());
  EXPECT_EQ(metadata_table_names().size(), 15u);
  for (auto type : all_metadata_table_types()) {
    EXPECT_EQ(metadata_table_type_from_name(metadata_table_name(type)), type);
  }
  EXPECT_TRUE(metadata_table_uses_snapshot(MetadataTableType::kFiles));
  EXPECT_FALSE(metadata_table_uses_snapshot(MetadataTableType::kAllFiles));
}

TEST(MetadataTablesTest, SchemasFollowJava) {
  StoredTable t = open_fixture("duckdb-iceberg/map_stats");
  EXPECT_EQ(names(*schema_of(t, MetadataTableType::kSnapshots)),
            (std::vector<std::string>{"committed_at", "snapshot_id", "parent_id", "operation",
                                      "manifest_list", "summary"}));
  EXPECT_EQ(names(*schema_of(t, MetadataTableType::kHistory)),
            (std::vector<std::string>{"made_current_at", "snapshot_id", "parent_id",
                                      "is_current_ancestor"}));
  EXPECT_EQ(names(*schema_of(t, MetadataTableType::kMetadataLogEntries)),
            (std::vector<std::string>{"timestamp", "file", "latest_snapshot_id", "latest_schema_id",
                                      "latest_sequence_number"}));
  EXPECT_EQ(names(*schema_of(t, MetadataTableType::kRefs)),
            (std::vector<std::string>{"name", "type", "snapshot_id", "max_reference_age_in_ms",
                                      "min_snapshots_to_keep", "max_snapshot_age_in_ms"}));
  auto manifests = schema_of(t, MetadataTableType::kManifests);
  EXPECT_EQ(names(*manifests),
            (std::vector<std::string>{"content", "path", "length", "partition_spec_id",
                                      "added_snapshot_id", "added_data_files_count",
                                      "existing_data_files_count", "deleted_data_files_count",
                                      "added_delete_files_count", "existing_delete_files_count",
                                      "deleted_delete_files_count", "partition_summaries"}));
  EXPECT_EQ(manifests->fields()[0].id, 14);
  EXPECT_EQ(manifests->fields()[11].id, 8);
  EXPECT_EQ(manifests->fields()[11].type->element().type->to_string(),
            "struct<contains_null: boolean not null, contains_nan: boolean, lower_bound: string, "
            "upper_bound: string>");
  auto all_manifests = schema_of(t, MetadataTableType::kAllManifests);
  EXPECT_EQ(all_manifests->fields().back().name, "reference_snapshot_id");
  EXPECT_EQ(all_manifests->fields().back().id, 18);

  auto files = schema_of(t, MetadataTableType::kFiles);
  EXPECT_EQ(names(*files), (std::vector<std::string>{"content",
                                                     "file_path",
                                                     "file_format",
                                                     "spec_id",
                                                     "partition",
                                                     "record_count",
                                                     "file_size_in_bytes",
                                                     "column_sizes",
                                                     "value_counts",
                                                     "null_value_counts",
                                                     "nan_value_counts",
                                                     "lower_bounds",
                                                     "upper_bounds",
                                                     "key_metadata",
                                                     "split_offsets",
                                                     "equality_ids",
                                                     "sort_order_id",
                                                     "first_row_id",
                                                     "referenced_data_file",
                                                     "content_offset",
                                                     "content_size_in_bytes",
                                                     "readable_metrics"}));
  const NestedField* partition = files->find_field("partition");
  ASSERT_NE(partition, nullptr);
  EXPECT_EQ(partition->id, 102);
  ASSERT_EQ(partition->type->fields().size(), 1u);
  EXPECT_EQ(partition->type->fields()[0].id, 1000);
  EXPECT_EQ(partition->type->fields()[0].name, "_day");
  EXPECT_EQ(partition->type->fields()[0].type->id(), TypeId::kDate);
  // readable_metrics: one struct per primitive column (map key/value included), by name,
  // ids after the highest id of the table (1000, the partition field).
  const NestedField& rm = files->fields().back();
  std::vector<std::string> rm_names;
  for (const auto& f : rm.type->fields()) rm_names.push_back(f.name);
  EXPECT_EQ(rm_names, (std::vector<std::string>{"input", "metadata.key", "metadata.value", "output",
                                                "timestamp"}));
  EXPECT_GT(rm.type->fields()[0].id, 1000);
  const NestedField& ts = rm.type->fields()[4];
  ASSERT_EQ(ts.type->fields().size(), 6u);
  EXPECT_EQ(ts.type->fields()[4].name, "lower_bound");
  EXPECT_EQ(ts.type->fields()[4].type->id(), TypeId::kTimestampTz);

  auto entries = schema_of(t, MetadataTableType::kEntries);
  EXPECT_EQ(names(*entries),
            (std::vector<std::string>{"status", "snapshot_id", "sequence_number",
                                      "file_sequence_number", "data_file", "readable_metrics"}));
  EXPECT_EQ(entries->fields()[4].id, 2);

  auto partitions = schema_of(t, MetadataTableType::kPartitions);
  EXPECT_EQ(names(*partitions),
            (std::vector<std::string>{"partition", "spec_id", "record_count", "file_count",
                                      "total_data_file_size_in_bytes",
                                      "position_delete_record_count", "position_delete_file_count",
                                      "equality_delete_record_count", "equality_delete_file_count",
                                      "last_updated_at", "last_updated_snapshot_id"}));
}

TEST(MetadataTablesTest, UnpartitionedTablesDropThePartitionColumns) {
  StoredTable t = open_fixture("duckdb-iceberg/equality_deletes_mytable");
  auto files = schema_of(t, MetadataTableType::kFiles);
  EXPECT_EQ(files->find_field("partition"), nullptr);
  EXPECT_EQ(files->fields()[3].name, "spec_id");
  EXPECT_EQ(files->fields()[4].name, "record_count");
  auto partitions = schema_of(t, MetadataTableType::kPartitions);
  EXPECT_EQ(partitions->fields()[0].name, "record_count");
  EXPECT_EQ(partitions->fields().size(), 9u);
  // One row: 6 data records in 2 files... (see the README: 6 snapshots, 2 live data files
  // written by two appends of 4 and 2 rows, 4 equality-delete files).
  auto p = rows(t, MetadataTableType::kPartitions);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0]["record_count"], 6);
  EXPECT_EQ(p[0]["file_count"], 2);
  EXPECT_EQ(p[0]["equality_delete_file_count"], 4);
  EXPECT_EQ(p[0]["equality_delete_record_count"], 4);
  EXPECT_EQ(p[0]["position_delete_file_count"], 0);
}

TEST(MetadataTablesTest, SnapshotsHistoryAndRefs) {
  StoredTable t = open_fixture("duckdb-iceberg/map_stats");
  auto snaps = rows(t, MetadataTableType::kSnapshots);
  ASSERT_EQ(snaps.size(), 2u);
  EXPECT_EQ(snaps[0]["snapshot_id"], 8792170059756986233LL);
  EXPECT_TRUE(snaps[0]["parent_id"].is_null());
  EXPECT_EQ(snaps[1]["snapshot_id"], 554549470069664013LL);
  EXPECT_EQ(snaps[1]["parent_id"], 8792170059756986233LL);
  EXPECT_EQ(snaps[1]["operation"], "append");
  EXPECT_EQ(snaps[1]["committed_at"], "2026-03-05T08:04:23.600000+00:00");
  EXPECT_EQ(snaps[1]["summary"]["total-data-files"], "2");
  EXPECT_EQ(snaps[1]["summary"]["added-records"], "1");
  EXPECT_FALSE(snaps[1]["summary"].contains("operation"));  // a column of its own
  EXPECT_NE(snaps[1]["manifest_list"].get<std::string>().find("snap-554549470069664013-0-8574bca8"),
            std::string::npos);

  auto history = rows(t, MetadataTableType::kHistory);
  ASSERT_EQ(history.size(), 2u);
  EXPECT_EQ(history[0]["snapshot_id"], 8792170059756986233LL);
  EXPECT_EQ(history[0]["is_current_ancestor"], true);
  EXPECT_EQ(history[1]["made_current_at"], "2026-03-05T08:04:23.600000+00:00");
  EXPECT_EQ(history[1]["parent_id"], 8792170059756986233LL);

  auto refs = rows(t, MetadataTableType::kRefs);
  ASSERT_EQ(refs.size(), 1u);
  EXPECT_EQ(refs[0]["name"], "main");
  EXPECT_EQ(refs[0]["type"], "BRANCH");
  EXPECT_EQ(refs[0]["snapshot_id"], 554549470069664013LL);
  EXPECT_TRUE(refs[0]["max_reference_age_in_ms"].is_null());

  // Two earlier metadata files plus the current one; the first predates every snapshot.
  auto log = rows(t, MetadataTableType::kMetadataLogEntries);
  ASSERT_EQ(log.size(), 3u);
  EXPECT_NE(log[0]["file"].get<std::string>().find("00000-e5eddfa2"), std::string::npos);
  EXPECT_TRUE(log[0]["latest_snapshot_id"].is_null());
  EXPECT_EQ(log[1]["latest_snapshot_id"], 8792170059756986233LL);
  EXPECT_EQ(log[1]["latest_sequence_number"], 1);
  EXPECT_NE(log[2]["file"].get<std::string>().find("00002-0e059d4b"), std::string::npos);
  EXPECT_EQ(log[2]["latest_snapshot_id"], 554549470069664013LL);
  EXPECT_EQ(log[2]["latest_sequence_number"], 2);
}

TEST(MetadataTablesTest, HistoryMarksRolledBackSnapshotsAsNotCurrentAncestors) {
  // An in-memory variant of map_stats whose current snapshot is the first one again.
  StoredTable t = open_fixture("duckdb-iceberg/map_stats");
  TableMetadata m = *t.metadata;
  m.current_snapshot_id = 8792170059756986233LL;
  m.refs["main"].snapshot_id = 8792170059756986233LL;
  m.snapshot_log.push_back({m.last_updated_ms + 1, 8792170059756986233LL});
  auto h = read_metadata_table(*t.io, m, MetadataTableType::kHistory);
  ASSERT_TRUE(h.ok()) << h.status().to_string();
  ASSERT_EQ(h->num_rows(), 3);
  const ColumnVector& ancestor = *h->batches[0].columns[3];
  EXPECT_EQ(ancestor.literal_at(0).as_bool(), true);
  EXPECT_EQ(ancestor.literal_at(1).as_bool(), false);  // 554549470069664013 was rolled back
  EXPECT_EQ(ancestor.literal_at(2).as_bool(), true);
}

TEST(MetadataTablesTest, ManifestsRenderDayBoundsAsDates) {
  StoredTable t = open_fixture("duckdb-iceberg/map_stats");
  auto m = rows(t, MetadataTableType::kManifests);
  ASSERT_EQ(m.size(), 2u);
  std::set<std::string> lowers;
  for (const auto& r : m) {
    EXPECT_EQ(r["content"], 0);
    EXPECT_EQ(r["partition_spec_id"], 0);
    EXPECT_EQ(r["added_data_files_count"], 1);
    EXPECT_EQ(r["existing_data_files_count"], 0);
    EXPECT_EQ(r["deleted_data_files_count"], 0);
    EXPECT_EQ(r["added_delete_files_count"], 0);
    EXPECT_GT(r["length"].get<int64_t>(), 0);
    ASSERT_EQ(r["partition_summaries"].size(), 1u);
    const json& s = r["partition_summaries"][0];
    EXPECT_EQ(s["contains_null"], false);
    EXPECT_EQ(s["lower_bound"], s["upper_bound"]);
    lowers.insert(s["lower_bound"].get<std::string>());
  }
  EXPECT_EQ(lowers, (std::set<std::string>{"2026-01-01", "2026-01-02"}));

  // Time travel: the first snapshot had one manifest.
  auto first = rows(t, MetadataTableType::kManifests, 8792170059756986233LL);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0]["added_snapshot_id"], 8792170059756986233LL);
  EXPECT_EQ(first[0]["partition_summaries"][0]["lower_bound"], "2026-01-01");

  // all_manifests: one row per snapshot and manifest (1 + 2).
  auto all = rows(t, MetadataTableType::kAllManifests);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0]["reference_snapshot_id"], 8792170059756986233LL);
  EXPECT_EQ(all[1]["reference_snapshot_id"], 554549470069664013LL);
  EXPECT_EQ(all[2]["reference_snapshot_id"], 554549470069664013LL);
}

TEST(MetadataTablesTest, UnknownSnapshotIsAnError) {
  StoredTable t = open_fixture("duckdb-iceberg/map_stats");
  MetadataTableOptions options;
  options.snapshot_id = 42;
  auto r = read_metadata_table(t, MetadataTableType::kFiles, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kNotFound);
}

TEST(MetadataTablesTest, BucketBoundsAndPartitions) {
  StoredTable t = open_fixture("duckdb-iceberg/partition_bucket_test");
  auto m = rows(t, MetadataTableType::kManifests);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0]["added_data_files_count"], 6);
  const json& s = m[0]["partition_summaries"][0];
  // Buckets of partition_0..9 (spec-vectors.md): 2 2 0 6 4 4 7 7 8 8.
  EXPECT_EQ(s["lower_bound"], "0");
  EXPECT_EQ(s["upper_bound"], "8");
  EXPECT_EQ(s["contains_null"], false);

  auto files = rows(t, MetadataTableType::kFiles);
  ASSERT_EQ(files.size(), 6u);
  int64_t records = 0;
  std::set<int> buckets;
  for (const auto& f : files) {
    EXPECT_EQ(f["content"], 0);
    EXPECT_EQ(f["file_format"], "PARQUET");
    EXPECT_EQ(f["spec_id"], 0);
    records += f["record_count"].get<int64_t>();
    buckets.insert(f["partition"]["partition_col_bucket"].get<int>());
    EXPECT_FALSE(f["split_offsets"].is_null());
    EXPECT_TRUE(f["equality_ids"].is_null());
    // Column 1 (id) has counts in the raw map and the readable form.
    const json& id = f["readable_metrics"]["id"];
    EXPECT_EQ(id["value_count"], f["record_count"]);
    EXPECT_EQ(id["null_value_count"], 0);
    EXPECT_TRUE(id["lower_bound"].is_number());
    EXPECT_LE(id["lower_bound"].get<int64_t>(), id["upper_bound"].get<int64_t>());
    EXPECT_EQ(f["readable_metrics"]["partition_col"]["lower_bound"].get<std::string>().rfind(
                  "partition_", 0),
              0u);
  }
  EXPECT_EQ(records, 100);
  EXPECT_EQ(buckets, (std::set<int>{0, 2, 4, 6, 7, 8}));
  EXPECT_EQ(rows(t, MetadataTableType::kDataFiles).size(), 6u);
  EXPECT_EQ(rows(t, MetadataTableType::kDeleteFiles).size(), 0u);

  auto parts = rows(t, MetadataTableType::kPartitions);
  ASSERT_EQ(parts.size(), 6u);
  std::map<int, int64_t> per_bucket;
  for (const auto& p : parts) {
    per_bucket[p["partition"]["partition_col_bucket"].get<int>()] = p["record_count"];
    EXPECT_EQ(p["file_count"], 1);
    EXPECT_EQ(p["spec_id"], 0);
    EXPECT_EQ(p["last_updated_snapshot_id"], 8614859770535311463LL);
  }
  EXPECT_EQ(per_bucket,
            (std::map<int, int64_t>{{0, 10}, {2, 20}, {4, 20}, {6, 10}, {7, 20}, {8, 20}}));
}

TEST(MetadataTablesTest, HourAndIdentityBounds) {
  StoredTable t = open_fixture("impala/iceberg_partitioned");
  auto m = rows(t, MetadataTableType::kManifests);
  ASSERT_EQ(m.size(), 1u);
  ASSERT_EQ(m[0]["partition_summaries"].size(), 2u);
  const json& hour = m[0]["partition_summaries"][0];
  // yyyy-MM-dd-HH, as Java's hour transform prints it.
  EXPECT_EQ(hour["lower_bound"].get<std::string>().size(), 13u);
  EXPECT_LE(hour["lower_bound"].get<std::string>(), hour["upper_bound"].get<std::string>());
  auto files = rows(t, MetadataTableType::kFiles);
  EXPECT_EQ(files.size(), 20u);
  std::set<std::string> actions;
  for (const auto& f : files) actions.insert(f["partition"]["action"].get<std::string>());
  const json& action = m[0]["partition_summaries"][1];
  EXPECT_EQ(action["lower_bound"], *actions.begin());
  EXPECT_EQ(action["upper_bound"], *actions.rbegin());
  int64_t records = 0;
  for (const auto& p : rows(t, MetadataTableType::kPartitions))
    records += p["record_count"].get<int64_t>();
  EXPECT_EQ(records, 20);
}

TEST(MetadataTablesTest, EqualityDeleteFilesAndEntries) {
  // Partitioned by name; insert a..d; delete name=b; delete id=3 and name=c; insert e, f;
  // delete name=f.
  StoredTable t = open_fixture("duckdb-iceberg/equality_deletes_mytable_partitioned");
  auto snaps = rows(t, MetadataTableType::kSnapshots);
  ASSERT_EQ(snaps.size(), 5u);
  EXPECT_EQ(snaps[1]["operation"], "delete");
  EXPECT_EQ(snaps[1]["summary"]["added-equality-delete-files"], "1");

  auto deletes = rows(t, MetadataTableType::kDeleteFiles);
  ASSERT_EQ(deletes.size(), 3u);
  std::set<std::string> deleted_partitions;
  for (const auto& d : deletes) {
    EXPECT_EQ(d["content"], 2);
    EXPECT_EQ(d["record_count"], 1);
    ASSERT_TRUE(d["equality_ids"].is_array());
    EXPECT_FALSE(d["equality_ids"].empty());
    deleted_partitions.insert(d["partition"]["name"].get<std::string>());
  }
  EXPECT_EQ(deleted_partitions, (std::set<std::string>{"b", "c", "f"}));
  EXPECT_EQ(rows(t, MetadataTableType::kDataFiles).size(), 6u);
  EXPECT_EQ(rows(t, MetadataTableType::kFiles).size(), 9u);

  auto manifests = rows(t, MetadataTableType::kManifests);
  ASSERT_EQ(manifests.size(), 5u);
  int delete_manifests = 0;
  for (const auto& r : manifests) {
    if (r["content"] == 1) {
      ++delete_manifests;
      EXPECT_EQ(r["added_delete_files_count"], 1);
      EXPECT_EQ(r["added_data_files_count"], 0);
    }
  }
  EXPECT_EQ(delete_manifests, 3);

  auto parts = rows(t, MetadataTableType::kPartitions);
  ASSERT_EQ(parts.size(), 6u);
  EXPECT_EQ(parts[0]["partition"]["name"], "a");  // sorted by partition value
  EXPECT_EQ(parts[1]["partition"]["name"], "b");
  EXPECT_EQ(parts[1]["record_count"], 1);
  EXPECT_EQ(parts[1]["equality_delete_file_count"], 1);
  EXPECT_EQ(parts[1]["equality_delete_record_count"], 1);
  EXPECT_EQ(parts[1]["last_updated_snapshot_id"], 4416477559988274704LL);
  EXPECT_EQ(parts[0]["equality_delete_file_count"], 0);
  EXPECT_EQ(parts[0]["last_updated_snapshot_id"], 6447922032991303611LL);
  EXPECT_EQ(parts[5]["partition"]["name"], "f");
  EXPECT_EQ(parts[5]["last_updated_snapshot_id"], 3138177759849079112LL);

  // Time travel to the first append: four data files, no deletes.
  auto before = rows(t, MetadataTableType::kFiles, 6447922032991303611LL);
  EXPECT_EQ(before.size(), 4u);
  EXPECT_EQ(rows(t, MetadataTableType::kDeleteFiles, 6447922032991303611LL).size(), 0u);
  EXPECT_EQ(rows(t, MetadataTableType::kPartitions, 6447922032991303611LL).size(), 4u);

  // Entries: every entry of the current snapshot's manifests with its sequence numbers.
  auto entries = rows(t, MetadataTableType::kEntries);
  EXPECT_EQ(entries.size(), 9u);
  for (const auto& e : entries) {
    EXPECT_NE(e["status"], 2);
    if (e["data_file"]["content"] == 2) {
      EXPECT_GT(e["sequence_number"].get<int64_t>(), 1);
    }
    EXPECT_EQ(e["data_file"]["file_format"], "PARQUET");
  }
  // all_* read every manifest once: nothing was rewritten, so the same files.
  EXPECT_EQ(rows(t, MetadataTableType::kAllFiles).size(), 9u);
  EXPECT_EQ(rows(t, MetadataTableType::kAllDeleteFiles).size(), 3u);
  EXPECT_EQ(rows(t, MetadataTableType::kAllEntries).size(), 9u);
}

TEST(MetadataTablesTest, PartitionEvolutionUnionsSpecFields) {
  // Spec 0: identity(event_date); spec 1 adds identity(event_type). Two appends, one per spec.
  StoredTable t = open_fixture("duckdb-iceberg/hive_partitioned_table");
  auto files_schema = schema_of(t, MetadataTableType::kFiles);
  const NestedField* partition = files_schema->find_field("partition");
  ASSERT_NE(partition, nullptr);
  ASSERT_EQ(partition->type->fields().size(), 2u);
  EXPECT_EQ(partition->type->fields()[0].name, "event_date");
  EXPECT_EQ(partition->type->fields()[1].name, "event_type");
  EXPECT_EQ(partition->type->fields()[1].id, 1001);

  auto manifests = rows(t, MetadataTableType::kManifests);
  ASSERT_EQ(manifests.size(), 2u);
  std::map<int, json> by_spec;
  for (const auto& m : manifests) by_spec[m["partition_spec_id"].get<int>()] = m;
  ASSERT_EQ(by_spec.size(), 2u);
  EXPECT_EQ(by_spec[0]["added_data_files_count"], 2);
  ASSERT_EQ(by_spec[0]["partition_summaries"].size(), 1u);
  EXPECT_EQ(by_spec[0]["partition_summaries"][0]["lower_bound"], "2024-01-01");
  EXPECT_EQ(by_spec[0]["partition_summaries"][0]["upper_bound"], "2024-01-02");
  EXPECT_EQ(by_spec[1]["added_data_files_count"], 4);
  ASSERT_EQ(by_spec[1]["partition_summaries"].size(), 2u);
  EXPECT_EQ(by_spec[1]["partition_summaries"][1]["lower_bound"], "click");
  EXPECT_EQ(by_spec[1]["partition_summaries"][1]["upper_bound"], "view");

  // Files of the old spec have no event_type: null in the table-wide partition struct.
  int old_spec_files = 0;
  for (const auto& f : rows(t, MetadataTableType::kFiles)) {
    if (f["spec_id"] == 0) {
      ++old_spec_files;
      EXPECT_TRUE(f["partition"]["event_type"].is_null());
      EXPECT_TRUE(f["partition"]["event_date"].is_string());
    } else {
      EXPECT_TRUE(f["partition"]["event_type"].is_string());
    }
  }
  EXPECT_EQ(old_spec_files, 2);

  auto parts = rows(t, MetadataTableType::kPartitions);
  ASSERT_EQ(parts.size(), 6u);
  EXPECT_EQ(parts[0]["partition"], json::parse(R"({"event_date":"2024-01-01","event_type":null})"));
  EXPECT_EQ(parts[0]["spec_id"], 0);
  EXPECT_EQ(parts[5]["partition"],
            json::parse(R"({"event_date":"2024-01-04","event_type":"view"})"));
  EXPECT_EQ(parts[5]["spec_id"], 1);
}

TEST(MetadataTablesTest, DeletedEntriesAppearInEntriesNotInFiles) {
  // Dangling-delete fixture: Spark compaction rewrote the data files (4 snapshots), so its
  // manifests carry DELETED entries.
  StoredTable t = open_fixture("impala/iceberg_spark_compaction_with_dangling_delete");
  auto entries = rows(t, MetadataTableType::kEntries);
  auto files = rows(t, MetadataTableType::kFiles);
  int64_t deleted = 0, live = 0;
  for (const auto& e : entries) (e["status"] == 2 ? deleted : live) += 1;
  EXPECT_GT(deleted, 0);
  EXPECT_EQ(live, static_cast<int64_t>(files.size()));
  // all_files spans the earlier snapshots too: the compacted-away data files come back.
  EXPECT_GT(rows(t, MetadataTableType::kAllDataFiles).size(),
            rows(t, MetadataTableType::kDataFiles).size());
}

TEST(MetadataTablesTest, EmptyTableHasNoRows) {
  StoredTable t = open_fixture("dremio/empty_table");
  EXPECT_EQ(rows(t, MetadataTableType::kFiles).size(), 0u);
  EXPECT_EQ(rows(t, MetadataTableType::kManifests).size(), 0u);
  EXPECT_EQ(rows(t, MetadataTableType::kPartitions).size(), 0u);
  EXPECT_EQ(rows(t, MetadataTableType::kSnapshots).size(), 0u);
}

TEST(MetadataTablesTest, EveryTableReadsEveryFixtureKind) {
  // Smoke over format versions and writers: v1 inline manifests, v3 deletion vectors,
  // partition evolution; the column lengths are checked in rows().
  for (const char* name :
       {"duckdb-iceberg/iceberg_v1_deprecated", "duckdb-iceberg/multi_blob_deletion_vectors",
        "duckdb-iceberg/hive_partitioned_table", "impala/iceberg_v3_row_lineage",
        "impala/iceberg_v2_delete_equality_partition_evolution"}) {
    SCOPED_TRACE(name);
    StoredTable t = open_fixture(name);
    for (auto type : all_metadata_table_types()) {
      SCOPED_TRACE(metadata_table_name(type));
      rows(t, type);
    }
  }
}

TEST(MetadataTablesTest, DeletionVectorsShowReferencedDataFile) {
  StoredTable t = open_fixture("duckdb-iceberg/multi_blob_deletion_vectors");
  auto deletes = rows(t, MetadataTableType::kDeleteFiles);
  ASSERT_EQ(deletes.size(), 2u);
  for (const auto& d : deletes) {
    EXPECT_EQ(d["content"], 1);
    EXPECT_EQ(d["file_format"], "PUFFIN");
    EXPECT_TRUE(d["referenced_data_file"].is_string());
    EXPECT_TRUE(d["content_offset"].is_number());
    EXPECT_TRUE(d["content_size_in_bytes"].is_number());
  }
}

}  // namespace
}  // namespace floe
