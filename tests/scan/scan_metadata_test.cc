// TableScan over metadata read for a scan (only the snapshots refs name): the current state and
// refs resolve; time travel, which needs the whole history, is refused with a clear error rather
// than "snapshot not found".
#include <gtest/gtest.h>

#include "floe/scan/table_scan.h"
#include "floe/spec/table_metadata.h"

namespace floe {
namespace {

std::string metadata_json() {
  TableMetadata m;
  m.table_uuid = "9c12d441-03fe-4693-9a96-a0705ddf69c1";
  m.location = "mem://t";
  m.schemas = {std::make_shared<const Schema>(
      0,
      std::vector<NestedField>{{1, "id", Type::int64(), false, "", std::nullopt, std::nullopt}})};
  m.last_column_id = 1;
  m.specs = {PartitionSpec::unpartitioned(0)};
  m.sort_orders = {std::make_shared<const SortOrder>()};
  for (int64_t id = 1; id <= 3; ++id) {
    auto s = std::make_shared<Snapshot>();
    s->snapshot_id = id;
    s->sequence_number = id;
    s->timestamp_ms = 1700000000000 + id;
    s->manifest_list = "mem://t/metadata/snap-" + std::to_string(id) + ".avro";
    s->summary = {{"operation", "append"}};
    if (id > 1) s->parent_snapshot_id = id - 1;
    m.snapshots.push_back(s);
    m.snapshot_log.push_back({s->timestamp_ms, id});
  }
  m.last_sequence_number = 3;
  m.current_snapshot_id = 3;
  m.refs["main"].snapshot_id = 3;
  SnapshotRef tag;
  tag.snapshot_id = 1;
  tag.type = SnapshotRefType::kTag;
  m.refs["v1"] = tag;
  return table_metadata_to_json(m);
}

TEST(ScanMetadataTest, ReferencedSnapshotsOnly) {
  MetadataParseOptions po;
  po.referenced_snapshots_only = true;
  auto parsed = parse_table_metadata(metadata_json(), po);
  ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
  EXPECT_EQ(parsed->omitted_snapshots, 1);
  auto m = std::make_shared<const TableMetadata>(std::move(*parsed));
  auto io = make_memory_file_io();

  auto current = TableScan::make(io, m, {});
  ASSERT_TRUE(current.ok()) << current.status().to_string();
  EXPECT_EQ(current->report().snapshot_id, 3);
  ScanOptions tag;
  tag.ref = "v1";
  auto by_tag = TableScan::make(io, m, tag);
  ASSERT_TRUE(by_tag.ok()) << by_tag.status().to_string();
  EXPECT_EQ(by_tag->report().snapshot_id, 1);

  ScanOptions by_id;
  by_id.snapshot_id = 2;
  auto r = TableScan::make(io, m, by_id);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("whole history"), std::string::npos);
  ScanOptions as_of;
  as_of.as_of_timestamp_ms = 1700000000002;
  EXPECT_FALSE(TableScan::make(io, m, as_of).ok());

  // Read in full, the same options work.
  auto full = std::make_shared<const TableMetadata>(*parse_table_metadata(metadata_json()));
  auto old = TableScan::make(io, full, by_id);
  ASSERT_TRUE(old.ok()) << old.status().to_string();
  EXPECT_EQ(old->report().snapshot_id, 2);
}

}  // namespace
}  // namespace floe
