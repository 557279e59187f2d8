// Delete matching rules (Iceberg spec, "Scan Planning": delete files and sequence numbers): the
// recurring bugs each get a test — sequence-number boundaries, spec id in partition matching, DV
// precedence over position files, several DVs, equality deletes not leaking across partitions.
#include "floe/scan/delete_index.h"

#include <gtest/gtest.h>

#include <unordered_map>

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

DataFile delete_data_file(FileContent content, const std::string& path, int32_t spec_id,
                          std::vector<Literal> partition) {
  DataFile f;
  f.content = content;
  f.file_path = path;
  f.spec_id = spec_id;
  f.partition = std::move(partition);
  f.file_format = "PARQUET";
  if (content == FileContent::kEqualityDeletes) f.equality_ids = std::vector<int32_t>{1};
  return f;
}

DeleteFilePtr del(FileContent content, const std::string& path, int64_t seq, int32_t spec_id,
                  std::vector<Literal> partition) {
  return DeleteFile::make(delete_data_file(content, path, spec_id, std::move(partition)), seq, seq);
}

DataFile dv_data_file(const std::string& puffin, const std::string& target, int32_t spec_id = 0,
                      std::vector<Literal> partition = {}) {
  DataFile f;
  f.content = FileContent::kPositionDeletes;
  f.file_path = puffin;
  f.file_format = "puffin";
  f.referenced_data_file = target;
  f.content_offset = 4;
  f.content_size_in_bytes = 40;
  f.spec_id = spec_id;
  f.partition = std::move(partition);
  return f;
}

DeleteFilePtr dv(const std::string& puffin, const std::string& target, int64_t seq,
                 int32_t spec_id = 0, std::vector<Literal> partition = {}) {
  return DeleteFile::make(dv_data_file(puffin, target, spec_id, std::move(partition)), seq, seq);
}

std::vector<std::string> paths(const DeleteFileList& v) {
  std::vector<std::string> out;
  for (const auto& d : v) out.emplace_back(d->file_path());
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
  EXPECT_EQ(a[0]->referenced_data_file(), "s3://b/t/data/a.parquet");
  EXPECT_EQ(a[1]->file_path(), "eq");  // equality deletes still apply
  auto b = index.for_data_file(data_file("s3://b/t/data/b.parquet", 0, {}), 4);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0]->referenced_data_file(), "s3://b/t/data/b.parquet");
  // A data file without a DV gets the position file.
  EXPECT_EQ(paths(index.for_data_file(data_file("s3://b/t/data/c.parquet", 0, {}), 2)),
            Paths({"pos-partition", "eq"}));
  // A DV older than the data file does not apply; the position file does not either.
  EXPECT_EQ(paths(index.for_data_file(data_file("s3://b/t/data/a.parquet", 0, {}), 5)),
            Paths({"eq"}));
}

TEST(DeleteFileIndexTest, FileScopedPositionDeletes) {
  DeleteFileIndex index;
  DataFile scoped = delete_data_file(FileContent::kPositionDeletes, "scoped", 0, {});
  scoped.referenced_data_file = "file:/tmp/t/a.parquet";
  index.add(DeleteFile::make(scoped, 3, 3), false);
  // Java's single-target rule: equal file_path bounds.
  DataFile bounded = delete_data_file(FileContent::kPositionDeletes, "bounded", 0, {});
  bounded.lower_bounds = {{2147483546, "/tmp/t/b.parquet"}};
  bounded.upper_bounds = {{2147483546, "/tmp/t/b.parquet"}};
  index.add(DeleteFile::make(bounded, 3, 3), false);
  // Unequal bounds: scoped to the partition.
  DataFile ranged = delete_data_file(FileContent::kPositionDeletes, "ranged", 0, {});
  ranged.lower_bounds = {{2147483546, "/tmp/t/a.parquet"}};
  ranged.upper_bounds = {{2147483546, "/tmp/t/z.parquet"}};
  index.add(DeleteFile::make(ranged, 3, 3), false);
  index.finish();
  // file:/x and /x name the same file.
  EXPECT_EQ(paths(index.for_data_file(data_file("/tmp/t/a.parquet", 0, {}), 1)),
            Paths({"scoped", "ranged"}));
  EXPECT_EQ(paths(index.for_data_file(data_file("file:///tmp/t/b.parquet", 0, {}), 1)),
            Paths({"bounded", "ranged"}));
  EXPECT_EQ(paths(index.for_data_file(data_file("/tmp/t/c.parquet", 0, {}), 1)), Paths({"ranged"}));
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

// The compact form keeps every field a data_file has, except the metrics (kept on request).
TEST(DeleteFileTest, RoundTripsToADataFile) {
  DataFile f;
  f.content = FileContent::kEqualityDeletes;
  f.file_path = "s3://bucket/t/data/eq-00001.parquet";
  f.file_format = "weird-format";
  f.partition = {Literal::int32(7), Literal::string("de")};
  f.record_count = 12;
  f.file_size_in_bytes = 3456;
  f.key_metadata = std::string("\x00\x01key", 5);
  f.equality_ids = std::vector<int32_t>{1, 3};
  f.sort_order_id = 2;
  f.spec_id = 4;
  f.value_counts = {{1, 12}};
  f.lower_bounds = {{1, "a"}};
  f.upper_bounds = {{1, "z"}};
  DeleteFilePtr lean = DeleteFile::make(f, 5, 6);
  EXPECT_EQ(lean->data_sequence_number(), 5);
  EXPECT_EQ(lean->file_sequence_number(), 6);
  EXPECT_EQ(lean->details(), nullptr);
  EXPECT_TRUE(lean->scoped_data_file().empty());
  DataFile with_details = f;
  with_details.split_offsets = std::vector<int64_t>{4, 1000};
  DataFile without_metrics = f;
  without_metrics.value_counts.clear();
  without_metrics.lower_bounds.clear();
  without_metrics.upper_bounds.clear();
  EXPECT_EQ(lean->to_data_file(), without_metrics);
  EXPECT_EQ(DeleteFile::make(f, 5, 6, /*keep_details=*/true)->to_data_file(), f);
  EXPECT_EQ(DeleteFile::make(with_details, 5, 6, true)->to_data_file(), with_details);
  EXPECT_EQ(DeleteFile::make(with_details, 5, 6)->to_data_file(), without_metrics);
  EXPECT_EQ(sizeof(DeleteFile), 96u);

  DataFile d = dv_data_file("s3://bucket/t/data/dvs.puffin", "s3://bucket/t/data/a.parquet", 1,
                            {Literal::int32(7)});
  d.record_count = 3;
  d.file_size_in_bytes = 99;
  DeleteFilePtr v = DeleteFile::make(d, 8, 8);
  EXPECT_EQ(v->scoped_data_file(), "s3://bucket/t/data/a.parquet");
  EXPECT_EQ(v->file_format(), "puffin");
  EXPECT_EQ(v->content_offset(), 4);
  EXPECT_EQ(v->to_data_file(), d);

  // Scoped by equal file_path bounds: the bounds come back.
  DataFile b = delete_data_file(FileContent::kPositionDeletes, "pos.parquet", 0, {});
  b.lower_bounds = {{2147483546, "/t/a.parquet"}};
  b.upper_bounds = b.lower_bounds;
  DeleteFilePtr bp = DeleteFile::make(b, 1, 1);
  EXPECT_EQ(bp->scoped_data_file(), "/t/a.parquet");
  EXPECT_TRUE(bp->referenced_data_file().empty());
  EXPECT_EQ(bp->to_data_file(), b);
}

// The builder shares the path of consecutive DVs of one Puffin file and consecutive equal
// partitions, and copies paths of any length.
TEST(DeleteFileTest, BuilderSharesPathsAndPartitions) {
  DeleteFileBuilder builder;
  std::string long_target = "/t/" + std::string(300000, 'x') + ".parquet";
  builder.add(dv_data_file("dvs.puffin", "/t/a.parquet", 0, {Literal::int32(1)}), 2, 2, false);
  builder.add(dv_data_file("dvs.puffin", long_target, 0, {Literal::int32(1)}), 2, 2, false);
  builder.add(dv_data_file("other.puffin", "/t/c.parquet", 0, {Literal::int32(2)}), 2, 2, false);
  auto chunks = builder.finish();
  ASSERT_EQ(chunks.size(), 1u);
  const auto& files = chunks[0]->files;
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].file_path().data(), files[1].file_path().data());
  EXPECT_EQ(files[0].partition().data(), files[1].partition().data());
  EXPECT_EQ(files[1].referenced_data_file(), long_target);
  EXPECT_EQ(files[2].file_path(), "other.puffin");
  EXPECT_EQ(files[2].partition()[0], Literal::int32(2));
}

// Many delete files in several chunks, through prepare() as planning does; the files outlive
// the index that handed them out.
TEST(DeleteFileIndexTest, BulkPartsAndLifetime) {
  const int n = 3000;  // three chunks
  auto target = [](int i) { return "file:///wh/t/data/" + std::to_string(i) + ".parquet"; };
  DeleteFileList kept;
  {
    DeleteFileBuilder builder(n);
    for (int i = 0; i < n; ++i) {
      builder.add(dv_data_file("dv-" + std::to_string(i / 100) + ".puffin", target(i)), 3, 3,
                  false);
    }
    DeleteFileIndex index;
    index.add(DeleteFileIndex::prepare(builder.finish(), false));
    index.add(del(FileContent::kPositionDeletes, "partition-pos", 3, 0, {}), false);
    index.finish();
    EXPECT_EQ(index.size(), static_cast<size_t>(n + 1));
    for (int i = 0; i < n; i += 7) {
      // Normalized through the builder's copy: file:///x matches /x.
      auto list =
          index.for_data_file(data_file("/wh/t/data/" + std::to_string(i) + ".parquet", 0, {}), 2);
      ASSERT_EQ(list.size(), 1u) << i;
      EXPECT_EQ(list[0]->referenced_data_file(), target(i));
    }
    // No DV: the partition-scoped file.
    EXPECT_EQ(paths(index.for_data_file(data_file("/wh/t/data/x.parquet", 0, {}), 2)),
              Paths({"partition-pos"}));
    EXPECT_EQ(index.matched_files(), (n + 6) / 7 + 1);
    // The batched lookup gives what one lookup at a time gives.
    std::vector<DataFile> data;
    std::vector<const DataFile*> ptrs;
    std::vector<int64_t> seqs;
    for (int i = 0; i < 100; ++i) {
      data.push_back(data_file("/wh/t/data/" + std::to_string(i * 37) + ".parquet", 0, {}));
      seqs.push_back(i % 5 == 0 ? 4 : 3);  // every fifth one newer than its DV
    }
    data.push_back(data_file("/wh/t/data/none.parquet", 0, {}));
    seqs.push_back(1);
    for (const auto& d : data) ptrs.push_back(&d);
    std::vector<DeleteFileList> lists(data.size());
    index.for_data_files(ptrs, seqs, lists);
    for (size_t i = 0; i < data.size(); ++i) {
      EXPECT_EQ(paths(lists[i]), paths(index.for_data_file(data[i], seqs[i]))) << i;
    }
    EXPECT_TRUE(lists[0].empty());  // newer than every delete
    EXPECT_EQ(paths(lists[1]), Paths({"dv-0.puffin"}));
    EXPECT_EQ(paths(lists[100]), Paths({"partition-pos"}));
    kept = index.for_data_file(data_file("/wh/t/data/2999.parquet", 0, {}), 1);
  }
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0]->file_path(), "dv-29.puffin");
  EXPECT_EQ(kept[0]->referenced_data_file(), target(2999));
}

// Two paths whose hashes are equal are still told apart by their bytes.
TEST(DeleteFileIndexTest, PathsWithTheSameHash) {
  std::unordered_map<uint32_t, std::string> seen;
  std::string a, b;
  for (int i = 0; i < 4000000 && a.empty(); ++i) {
    std::string p = "/t/data/" + std::to_string(i) + ".parquet";
    auto [it, added] = seen.emplace(path_hash(p), p);
    if (!added) {
      a = it->second;
      b = p;
    }
  }
  ASSERT_FALSE(a.empty());
  ASSERT_EQ(path_hash(a), path_hash(b));
  DeleteFileIndex only_a;
  only_a.add(dv("a.puffin", a, 2), false);
  only_a.finish();
  EXPECT_EQ(paths(only_a.for_data_file(data_file(a, 0, {}), 1)), Paths({"a.puffin"}));
  EXPECT_TRUE(only_a.for_data_file(data_file(b, 0, {}), 1).empty());
  DeleteFileIndex both;
  both.add(dv("b.puffin", b, 2), false);
  both.add(dv("a.puffin", a, 2), false);
  both.finish();
  EXPECT_EQ(paths(both.for_data_file(data_file(a, 0, {}), 1)), Paths({"a.puffin"}));
  EXPECT_EQ(paths(both.for_data_file(data_file(b, 0, {}), 1)), Paths({"b.puffin"}));
}

// Several deletes for one data file: file-scoped position files in sequence order, the newest
// live DV alone.
TEST(DeleteFileIndexTest, SeveralDeletesForOnePath) {
  DeleteFileIndex index;
  for (int seq : {5, 3, 4}) {
    DataFile f =
        delete_data_file(FileContent::kPositionDeletes, "pos-" + std::to_string(seq), 0, {});
    f.referenced_data_file = "/t/a.parquet";
    index.add(DeleteFile::make(f, seq, seq), false);
  }
  index.add(dv("dv-6.puffin", "/t/b.parquet", 6), false);
  index.add(dv("dv-8.puffin", "/t/b.parquet", 8), false);
  index.add(dv("dv-7.puffin", "/t/b.parquet", 7), false);
  index.finish();
  EXPECT_EQ(paths(index.for_data_file(data_file("/t/a.parquet", 0, {}), 1)),
            Paths({"pos-3", "pos-4", "pos-5"}));
  EXPECT_EQ(paths(index.for_data_file(data_file("/t/a.parquet", 0, {}), 4)),
            Paths({"pos-4", "pos-5"}));
  EXPECT_EQ(paths(index.for_data_file(data_file("/t/b.parquet", 0, {}), 1)),
            Paths({"dv-8.puffin"}));
  EXPECT_TRUE(index.for_data_file(data_file("/t/b.parquet", 0, {}), 9).empty());
}

}  // namespace
}  // namespace floe
