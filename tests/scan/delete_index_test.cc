// Delete matching rules (iceberg-spec-notes §8 step 5, rule 4 of §15): the recurring bugs each
// get a test — sequence-number boundaries, spec id in partition matching, DV precedence over
// position files, several DVs, equality deletes not leaking across partitions.
#include "scan/delete_index.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

DataFile data_file(const std::string& path, int32_t spec_id, std::vector<Literal> partition) {
  DataFile f;
  f.content = FileContent::kData;
  f.file_path = path;
  f.spec_id = spec_id;
  f.partition = std::move(partition);
  f.record_count = 10;
  return f;
}

DeleteFilePtr del(FileContent content, const std::string& path, int64_t seq, int32_t spec_id,
                  std::vector<Literal> partition) {
  auto d = std::make_shared<DeleteFile>();
  d->file.content = content;
  d->file.file_path = path;
  d->file.spec_id = spec_id;
  d->file.partition = std::move(partition);
  d->file.file_format = "PARQUET";
  d->data_sequence_number = seq;
  d->file_sequence_number = seq;
  return d;
}

DeleteFilePtr dv(const std::string& puffin, const std::string& target, int64_t seq,
                 int32_t spec_id = 0, std::vector<Literal> partition = {}) {
  auto d = std::make_shared<DeleteFile>();
  d->file.content = FileContent::kPositionDeletes;
  d->file.file_path = puffin;
  d->file.file_format = "puffin";
  d->file.referenced_data_file = target;
  d->file.content_offset = 4;
  d->file.content_size_in_bytes = 40;
  d->file.spec_id = spec_id;
  d->file.partition = std::move(partition);
  d->data_sequence_number = seq;
  d->file_sequence_number = seq;
  return d;
}

std::vector<std::string> paths(const DeleteFileList& v) {
  std::vector<std::string> out;
  for (const auto& d : v) out.push_back(d->file.file_path);
  return out;
}

using Paths = std::vector<std::string>;

TEST(DeleteFileIndexTest, SequenceNumberBoundaries) {
  DeleteFileIndex index;
  index.add(del(FileContent::kPositionDeletes, "pos-5", 5, 0, {}), false);
  index.add(del(FileContent::kEqualityDeletes, "eq-5", 5, 0, {}), true);
  index.finish();
  DataFile f = data_file("data.parquet", 0, {});
  // Equal sequence numbers: position deletes apply (same commit), equality deletes do not.
  EXPECT_EQ(paths(index.for_data_file(f, 5)), Paths({"pos-5"}));
  EXPECT_EQ(paths(index.for_data_file(f, 4)), Paths({"pos-5", "eq-5"}));
  EXPECT_TRUE(index.for_data_file(f, 6).empty());
}

TEST(DeleteFileIndexTest, PartitionMatchingIncludesTheSpecId) {
  DeleteFileIndex index;
  std::vector<Literal> p0{Literal::int64(0)};
  index.add(del(FileContent::kPositionDeletes, "pos-spec0-p0", 3, 0, p0), false);
  index.add(del(FileContent::kEqualityDeletes, "eq-spec0-p0", 3, 0, p0), false);
  index.finish();
  EXPECT_EQ(paths(index.for_data_file(data_file("a", 0, p0), 1)),
            Paths({"pos-spec0-p0", "eq-spec0-p0"}));
  // Same values under another spec id: not the same partition.
  EXPECT_TRUE(index.for_data_file(data_file("a", 1, p0), 1).empty());
  // Equality deletes do not leak into other partitions.
  EXPECT_TRUE(index.for_data_file(data_file("b", 0, {Literal::int64(1)}), 1).empty());
  // Null partition values are their own partition.
  EXPECT_TRUE(index.for_data_file(data_file("c", 0, {Literal::null(Type::int64())}), 1).empty());
}

TEST(DeleteFileIndexTest, GlobalEqualityDeletesFromUnpartitionedSpecs) {
  DeleteFileIndex index;
  index.add(del(FileContent::kEqualityDeletes, "global", 7, 2, {}), /*unpartitioned_spec=*/true);
  index.finish();
  EXPECT_EQ(paths(index.for_data_file(data_file("a", 0, {Literal::int64(0)}), 6)),
            Paths({"global"}));
  EXPECT_EQ(paths(index.for_data_file(data_file("b", 1, {Literal::string("x")}), 6)),
            Paths({"global"}));
  EXPECT_TRUE(index.for_data_file(data_file("a", 0, {Literal::int64(0)}), 7).empty());
}

TEST(DeleteFileIndexTest, DeletionVectorsBeatPositionFiles) {
  DeleteFileIndex index;
  index.add(del(FileContent::kPositionDeletes, "pos-partition", 3, 0, {}), false);
  index.add(dv("dvs.puffin", "s3://b/t/data/a.parquet", 4), false);
  // Several DVs in one Puffin file, for different data files.
  index.add(dv("dvs.puffin", "s3://b/t/data/b.parquet", 4), false);
  index.add(del(FileContent::kEqualityDeletes, "eq", 9, 0, {}), true);
  index.finish();
  auto a = index.for_data_file(data_file("s3://b/t/data/a.parquet", 0, {}), 2);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0]->file.referenced_data_file.value(), "s3://b/t/data/a.parquet");
  EXPECT_EQ(a[1]->file.file_path, "eq");  // equality deletes still apply
  auto b = index.for_data_file(data_file("s3://b/t/data/b.parquet", 0, {}), 4);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0]->file.referenced_data_file.value(), "s3://b/t/data/b.parquet");
  // A data file without a DV gets the position file.
  EXPECT_EQ(paths(index.for_data_file(data_file("s3://b/t/data/c.parquet", 0, {}), 2)),
            Paths({"pos-partition", "eq"}));
  // A DV older than the data file does not apply; the position file does not either.
  EXPECT_EQ(paths(index.for_data_file(data_file("s3://b/t/data/a.parquet", 0, {}), 5)),
            Paths({"eq"}));
}

TEST(DeleteFileIndexTest, FileScopedPositionDeletes) {
  DeleteFileIndex index;
  auto scoped = del(FileContent::kPositionDeletes, "scoped", 3, 0, {});
  std::const_pointer_cast<DeleteFile>(scoped)->file.referenced_data_file = "file:/tmp/t/a.parquet";
  index.add(scoped, false);
  // Java's single-target rule: equal file_path bounds.
  auto bounded =
      std::make_shared<DeleteFile>(*del(FileContent::kPositionDeletes, "bounded", 3, 0, {}));
  bounded->file.lower_bounds = {{2147483546, "/tmp/t/b.parquet"}};
  bounded->file.upper_bounds = {{2147483546, "/tmp/t/b.parquet"}};
  index.add(bounded, false);
  index.finish();
  // file:/x and /x name the same file.
  EXPECT_EQ(paths(index.for_data_file(data_file("/tmp/t/a.parquet", 0, {}), 1)), Paths({"scoped"}));
  EXPECT_EQ(paths(index.for_data_file(data_file("file:///tmp/t/b.parquet", 0, {}), 1)),
            Paths({"bounded"}));
  EXPECT_TRUE(index.for_data_file(data_file("/tmp/t/c.parquet", 0, {}), 1).empty());
}

TEST(DeleteFileIndexTest, PathsMatchAcrossSchemes) {
  // Impala's manifests say /test-warehouse/x, Spark's delete files
  // hdfs://host:port/test-warehouse/x.
  EXPECT_EQ(normalize_file_path("hdfs://localhost:20500/test-warehouse/t/a.parquet"),
            "/test-warehouse/t/a.parquet");
  EXPECT_EQ(normalize_file_path("file:///tmp/t/a.parquet"), "/tmp/t/a.parquet");
  EXPECT_EQ(normalize_file_path("file:/tmp/t/a.parquet"), "/tmp/t/a.parquet");
  EXPECT_EQ(normalize_file_path("data/persistent/t/a.parquet"), "data/persistent/t/a.parquet");
  DeleteFileIndex index;
  index.add(dv("dv.puffin", "hdfs://nn:8020/wh/t/a.parquet", 3), false);
  index.finish();
  EXPECT_EQ(index.for_data_file(data_file("/wh/t/a.parquet", 0, {}), 1).size(), 1u);
  EXPECT_TRUE(index.for_data_file(data_file("/wh/t/b.parquet", 0, {}), 1).empty());
}

TEST(DeleteFileIndexTest, PartitionKeysCanonicalizeNaN) {
  EXPECT_EQ(partition_key(0, {Literal::float64(std::nan("1"))}),
            partition_key(0, {Literal::float64(-std::nan("2"))}));
  EXPECT_NE(partition_key(0, {Literal::int64(1)}), partition_key(1, {Literal::int64(1)}));
  EXPECT_NE(partition_key(0, {Literal::string("a"), Literal::string("bc")}),
            partition_key(0, {Literal::string("ab"), Literal::string("c")}));
}

}  // namespace
}  // namespace floe
