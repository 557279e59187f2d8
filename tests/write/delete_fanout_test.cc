// Delete files of row-level writes: delete write options from table properties, position
// deletes fanned out by granularity (v2) or as deletion vectors (v3, merged with an existing
// one), equality deletes per partition; every file read back with floe's readers.
#include "floe/write/delete_fanout.h"

#include <gtest/gtest.h>

#include "floe/format/avro/data_reader.h"
#include "floe/read/position_delete_file.h"
#include "floe/read/position_delete_set.h"
#include "floe/read/puffin.h"
#include "floe/scan/delete_index.h"
#include "floe/spec/transform.h"
#include "floe/write/deletion_vector_writer.h"
#include "write/write_test_util.h"

namespace floe {
namespace {

using namespace write_testing;

std::vector<NestedField> columns() {
  return {field(1, "id", Type::int64(), true), field(2, "region", Type::string()),
          field(3, "note", Type::string())};
}

PartitionField by_region() {
  PartitionField p;
  p.source_id = 2;
  p.field_id = 1000;
  p.name = "region";
  p.transform = Transform::identity();
  return p;
}

TableMetadata table(const TempDir& dir, int format_version,
                    std::map<std::string, std::string> props = {}) {
  TableMetadata t = make_table(dir.str() + "/t", columns(), {by_region()}, std::move(props));
  t.format_version = format_version;
  return t;
}

// A data file of spec 0 whose region is the one its path names ("region=A/").
DataFile data_file(const std::string& path, int64_t rows = 1000) {
  DataFile f;
  f.file_path = path;
  f.file_format = "PARQUET";
  f.record_count = rows;
  f.spec_id = 0;
  size_t at = path.find("region=");
  if (at != std::string::npos) {
    at += 7;
    f.partition = {Literal::string(path.substr(at, path.find('/', at) - at))};
  }
  return f;
}

std::vector<int64_t> range_positions(int64_t begin, int64_t end) {
  std::vector<int64_t> v;
  for (int64_t p = begin; p < end; ++p) v.push_back(p);
  return v;
}

// Positions per data file of a position delete file, read with floe's reader.
std::map<std::string, std::vector<int64_t>> read_deletes(const DataFile& f) {
  std::map<std::string, std::vector<int64_t>> out;
  auto r = read_position_delete_file(make_local_file_io(), f.file_path, f.file_format);
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  if (!r.ok()) return out;
  for (const auto& [path, set] : r->by_path) out[path] = set.positions();
  return out;
}

std::vector<int64_t> read_dv(const DataFile& f) {
  auto io = make_local_file_io();
  auto blob = io->read_range(f.file_path, *f.content_offset, *f.content_size_in_bytes);
  EXPECT_TRUE(blob.ok()) << blob.status().to_string();
  if (!blob.ok()) return {};
  auto set = parse_deletion_vector(*blob, f.file_path);
  EXPECT_TRUE(set.ok()) << set.status().to_string();
  return set.ok() ? set->positions() : std::vector<int64_t>{};
}

std::string key(const std::string& path) { return normalize_file_path(path); }

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

const std::string kA1 = "/w/t/data/region=A/00000-0-x-00001.parquet";
const std::string kA2 = "/w/t/data/region=A/00000-0-x-00002.parquet";
const std::string kB1 = "/w/t/data/region=B/00000-0-x-00003.parquet";

TEST(DeleteWriteOptions, DeletePropertiesOverrideDataOnes) {
  TempDir dir;
  auto plain = delete_write_options(table(dir, 2));
  ASSERT_TRUE(plain.ok()) << plain.status().to_string();
  EXPECT_EQ(plain->format, "parquet");
  EXPECT_EQ(plain->target_file_size, 64LL << 20);
  EXPECT_EQ(plain->parquet.codec, parquet::Codec::kZstd);
  EXPECT_EQ(plain->data_location, dir.str() + "/t/data");

  // Data-file properties apply to delete files unless a write.delete.* twin is set.
  auto data_only = delete_write_options(table(dir, 2,
                                              {{"write.format.default", "avro"},
                                               {"write.parquet.compression-codec", "gzip"},
                                               {"write.avro.compression-codec", "zstd"},
                                               {"write.target-file-size-bytes", "1000"}}));
  ASSERT_TRUE(data_only.ok()) << data_only.status().to_string();
  EXPECT_EQ(data_only->format, "avro");
  EXPECT_EQ(data_only->parquet.codec, parquet::Codec::kGzip);
  EXPECT_EQ(data_only->avro_codec, avro::Codec::kZstd);
  EXPECT_EQ(data_only->target_file_size, 64LL << 20);

  auto both = delete_write_options(table(dir, 2,
                                         {{"write.format.default", "avro"},
                                          {"write.delete.format.default", "PARQUET"},
                                          {"write.parquet.compression-codec", "gzip"},
                                          {"write.delete.parquet.compression-codec", "snappy"},
                                          {"write.delete.parquet.page-row-limit", "77"},
                                          {"write.delete.parquet.row-group-size-bytes", "4096"},
                                          {"write.avro.compression-codec", "zstd"},
                                          {"write.delete.avro.compression-codec", "uncompressed"},
                                          {"write.delete.target-file-size-bytes", "12345"}}));
  ASSERT_TRUE(both.ok()) << both.status().to_string();
  EXPECT_EQ(both->format, "parquet");
  EXPECT_EQ(both->parquet.codec, parquet::Codec::kSnappy);
  EXPECT_EQ(both->parquet.page_row_limit, 77);
  EXPECT_EQ(both->parquet.row_group_size_bytes, 4096);
  EXPECT_EQ(both->avro_codec, avro::Codec::kNull);
  EXPECT_EQ(both->target_file_size, 12345);

  auto bad =
      delete_write_options(table(dir, 2, {{"write.delete.parquet.compression-codec", "xz"}}));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "write.delete.parquet.compression-codec=xz is not supported");
  auto bad_size =
      delete_write_options(table(dir, 2, {{"write.delete.target-file-size-bytes", "0"}}));
  EXPECT_FALSE(bad_size.ok());
  EXPECT_FALSE(delete_write_options(table(dir, 2, {{"write.delete.format.default", "orc"}})).ok());
}

TEST(DeleteGranularity, FromTableProperties) {
  EXPECT_EQ(*delete_granularity_of({}), DeleteGranularity::kFile);
  EXPECT_EQ(*delete_granularity_of({{"write.delete.granularity", "partition"}}),
            DeleteGranularity::kPartition);
  EXPECT_EQ(*delete_granularity_of({{"write.delete.granularity", "FILE"}}),
            DeleteGranularity::kFile);
  auto bad = delete_granularity_of({{"write.delete.granularity", "row"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("write.delete.granularity=row"), std::string::npos);
  EXPECT_EQ(to_string(DeleteGranularity::kPartition), "partition");
}

TEST(PositionDeleteFanout, FileGranularityWritesOneFilePerDataFile) {
  TempDir dir;
  auto io = make_local_file_io();
  auto f = PositionDeleteFanout::make(io, table(dir, 2));
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  EXPECT_EQ((*f)->granularity(), DeleteGranularity::kFile);
  ASSERT_TRUE((*f)->add(data_file(kA2, 100), std::vector<int64_t>{9, 1, 9}).ok());
  ASSERT_TRUE((*f)->add(data_file(kA1, 100), std::vector<int64_t>{50}).ok());
  ASSERT_TRUE((*f)->add(data_file(kB1, 100), std::vector<int64_t>{0, 99}).ok());
  ASSERT_TRUE((*f)->add(data_file(kA2, 100), std::vector<int64_t>{4}).ok());
  auto w = (*f)->close();
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  EXPECT_TRUE(w->replaced_dvs.empty());
  ASSERT_EQ(w->delete_files.size(), 3u);
  const std::string data = dir.str() + "/t/data/";
  // In data-file path order, each under its data file's partition.
  const std::vector<std::string> refs = {kA1, kA2, kB1};
  const std::vector<std::vector<int64_t>> want = {{50}, {1, 4, 9}, {0, 99}};
  for (size_t i = 0; i < 3; ++i) {
    const DataFile& d = w->delete_files[i];
    EXPECT_EQ(d.content, FileContent::kPositionDeletes);
    EXPECT_EQ(d.file_format, "PARQUET");
    EXPECT_EQ(d.spec_id, 0);
    EXPECT_EQ(d.referenced_data_file, refs[i]);
    EXPECT_EQ(d.record_count, static_cast<int64_t>(want[i].size()));
    EXPECT_EQ(d.partition, std::vector<Literal>{Literal::string(i < 2 ? "A" : "B")});
    EXPECT_TRUE(starts_with(d.file_path, data + (i < 2 ? "region=A/" : "region=B/")))
        << d.file_path;
    EXPECT_NE(d.file_path.find("-" + (*f)->operation_id() + "-"), std::string::npos);
    EXPECT_NE(d.file_path.find("-deletes.parquet"), std::string::npos) << d.file_path;
    EXPECT_EQ(*find_metric(d.lower_bounds, kDeleteFilePathFieldId), refs[i]);
    EXPECT_EQ(*find_metric(d.upper_bounds, kDeleteFilePathFieldId), refs[i]);
    EXPECT_EQ(d.lower_bound(kDeleteFilePosFieldId, Type::int64())->as_int64(), want[i].front());
    EXPECT_EQ(d.upper_bound(kDeleteFilePosFieldId, Type::int64())->as_int64(), want[i].back());
    EXPECT_TRUE(d.value_counts.empty());
    auto got = read_deletes(d);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[key(refs[i])], want[i]);
  }
  EXPECT_FALSE((*f)->close().ok());
  ASSERT_TRUE((*f)->abort().ok());
  for (const auto& d : w->delete_files) EXPECT_FALSE(fs::exists(d.file_path));
}

TEST(PositionDeleteFanout, PartitionGranularitySortsByPathThenPosition) {
  TempDir dir;
  auto io = make_local_file_io();
  auto f =
      PositionDeleteFanout::make(io, table(dir, 2, {{"write.delete.granularity", "partition"}}));
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ASSERT_TRUE((*f)->add(data_file(kA2, 100), std::vector<int64_t>{7, 3}).ok());
  ASSERT_TRUE((*f)->add(data_file(kB1, 100), std::vector<int64_t>{5}).ok());
  ASSERT_TRUE((*f)->add(data_file(kA1, 100), std::vector<int64_t>{8, 2}).ok());
  auto w = (*f)->close();
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  ASSERT_EQ(w->delete_files.size(), 2u);
  const DataFile& a = w->delete_files[0];
  const DataFile& b = w->delete_files[1];
  EXPECT_EQ(a.partition, std::vector<Literal>{Literal::string("A")});
  EXPECT_FALSE(a.referenced_data_file.has_value());  // two data files
  EXPECT_EQ(a.record_count, 4);
  EXPECT_TRUE(a.lower_bounds.empty());  // Java drops the bounds of a multi-file delete file
  EXPECT_TRUE(a.upper_bounds.empty());
  EXPECT_EQ(*find_metric(b.lower_bounds, kDeleteFilePathFieldId), kB1);
  EXPECT_EQ(read_parquet_rows(io, a.file_path),
            (std::vector<std::string>{"[\"" + kA1 + "\",2]", "[\"" + kA1 + "\",8]",
                                      "[\"" + kA2 + "\",3]", "[\"" + kA2 + "\",7]"}));
  EXPECT_EQ(b.partition, std::vector<Literal>{Literal::string("B")});
  EXPECT_EQ(b.referenced_data_file, kB1);
  auto got = read_deletes(a);
  EXPECT_EQ(got[key(kA1)], (std::vector<int64_t>{2, 8}));
  EXPECT_EQ(got[key(kA2)], (std::vector<int64_t>{3, 7}));
}

TEST(PositionDeleteFanout, RollsPartitionFilesAtTheTargetSize) {
  TempDir dir;
  auto io = make_local_file_io();
  auto o = delete_write_options(table(dir, 2));
  ASSERT_TRUE(o.ok());
  o->target_file_size = 1;  // every slice closes its file
  auto f = PositionDeleteFanout::make(io, table(dir, 2), *o, DeleteGranularity::kPartition);
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ASSERT_TRUE((*f)->add(data_file(kA1, 200000), range_positions(0, 70000)).ok());
  ASSERT_TRUE((*f)->add(data_file(kA2, 100), std::vector<int64_t>{1}).ok());
  auto w = (*f)->close();
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  // 65536 + 4464 rows of kA1, then kA2's row.
  ASSERT_EQ(w->delete_files.size(), 3u);
  EXPECT_EQ(w->delete_files[0].record_count, 65536);
  EXPECT_EQ(w->delete_files[1].record_count, 4464);
  EXPECT_EQ(w->delete_files[1].referenced_data_file, kA1);
  EXPECT_EQ(w->delete_files[2].referenced_data_file, kA2);
  EXPECT_EQ(read_deletes(w->delete_files[1])[key(kA1)].front(), 65536);
}

TEST(PositionDeleteFanout, AvroDeleteFormat) {
  TempDir dir;
  auto io = make_local_file_io();
  auto f = PositionDeleteFanout::make(io, table(dir, 2, {{"write.delete.format.default", "avro"}}));
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ASSERT_TRUE((*f)->add(data_file(kB1, 100), std::vector<int64_t>{6, 2}).ok());
  auto w = (*f)->close();
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  ASSERT_EQ(w->delete_files.size(), 1u);
  const DataFile& d = w->delete_files[0];
  EXPECT_EQ(d.file_format, "AVRO");
  EXPECT_NE(d.file_path.find("-deletes.avro"), std::string::npos) << d.file_path;
  EXPECT_EQ(d.record_count, 2);
  EXPECT_EQ(d.referenced_data_file, kB1);
  EXPECT_EQ(d.lower_bound(kDeleteFilePosFieldId, Type::int64())->as_int64(), 2);
  EXPECT_EQ(d.upper_bound(kDeleteFilePosFieldId, Type::int64())->as_int64(), 6);
  EXPECT_EQ(read_deletes(d)[key(kB1)], (std::vector<int64_t>{2, 6}));
  auto bytes = io->read_file(d.file_path);
  ASSERT_TRUE(bytes.ok());
  EXPECT_NE(bytes->find("delete-type"), std::string::npos);
}

TEST(PositionDeleteFanout, DeletesGoUnderTheSpecOfTheirDataFile) {
  TempDir dir;
  auto io = make_local_file_io();
  TableMetadata t = table(dir, 2);
  t.specs.push_back(std::make_shared<PartitionSpec>(1, std::vector<PartitionField>{}));
  t.default_spec_id = 1;
  auto f = PositionDeleteFanout::make(io, t);
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  DataFile now = data_file(dir.str() + "/t/data/new.parquet");
  now.spec_id = 1;
  ASSERT_TRUE((*f)->add(data_file(kA1, 10), std::vector<int64_t>{1}).ok());
  ASSERT_TRUE((*f)->add(now, std::vector<int64_t>{2}).ok());
  auto w = (*f)->close();
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  ASSERT_EQ(w->delete_files.size(), 2u);
  // In data-file path order: the new file's path sorts first.
  const DataFile& under_new = w->delete_files[0];
  const DataFile& under_old = w->delete_files[1];
  EXPECT_EQ(under_new.referenced_data_file, now.file_path);
  EXPECT_EQ(under_new.spec_id, 1);
  EXPECT_TRUE(under_new.partition.empty());
  EXPECT_EQ(fs::path(under_new.file_path).parent_path(), dir.str() + "/t/data");
  EXPECT_EQ(under_old.referenced_data_file, kA1);
  EXPECT_EQ(under_old.spec_id, 0);
  EXPECT_EQ(under_old.partition, std::vector<Literal>{Literal::string("A")});
  EXPECT_TRUE(starts_with(under_old.file_path, dir.str() + "/t/data/region=A/"));
}

TEST(PositionDeleteFanout, RejectsDataFilesTheTableCannotHave) {
  TempDir dir;
  auto io = make_local_file_io();
  auto f = PositionDeleteFanout::make(io, table(dir, 2));
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  DataFile other_spec = data_file(kA1);
  other_spec.spec_id = 5;
  auto s = (*f)->add(other_spec, std::vector<int64_t>{1});
  EXPECT_NE(s.message().find("spec id 5"), std::string::npos) << s.message();
  DataFile no_partition = data_file(kA1);
  no_partition.partition.clear();
  EXPECT_FALSE((*f)->add(no_partition, std::vector<int64_t>{1}).ok());
  s = (*f)->add(data_file(kA1, 10), std::vector<int64_t>{10});
  EXPECT_NE(s.message().find("position 10 is not a row"), std::string::npos) << s.message();
  EXPECT_FALSE((*f)->add(data_file(kA1), std::vector<int64_t>{-1}).ok());
  ASSERT_TRUE((*f)->add(data_file(kA1), std::vector<int64_t>{1}).ok());
  DataFile moved = data_file(kA1);
  moved.partition = {Literal::string("B")};
  EXPECT_FALSE((*f)->add(moved, std::vector<int64_t>{2}).ok());
  DataFile dv;
  dv.content = FileContent::kPositionDeletes;
  dv.file_format = "PUFFIN";
  dv.content_offset = 4;
  dv.content_size_in_bytes = 10;
  s = (*f)->set_existing_dv(kA1, dv);
  EXPECT_NE(s.message().find("v2 table has no deletion vectors"), std::string::npos) << s.message();
  auto w = (*f)->close();
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->delete_files.size(), 1u);
  ASSERT_TRUE((*f)->abort().ok());
}

TEST(PositionDeleteFanout, NothingAddedWritesNothing) {
  TempDir dir;
  for (int v : {2, 3}) {
    auto f = PositionDeleteFanout::make(make_local_file_io(), table(dir, v));
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE((*f)->add(data_file(kA1), {}).ok());
    auto w = (*f)->close();
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    EXPECT_TRUE(w->delete_files.empty());
  }
  EXPECT_FALSE(fs::exists(dir.str() + "/t"));
}

TEST(PositionDeleteFanout, V3WritesOneDeletionVectorPerDataFileInOnePuffinFile) {
  TempDir dir;
  auto io = make_local_file_io();
  auto f =
      PositionDeleteFanout::make(io, table(dir, 3, {{"write.delete.granularity", "partition"}}));
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ASSERT_TRUE((*f)->add(data_file(kB1, 100), std::vector<int64_t>{5, 1}).ok());
  ASSERT_TRUE((*f)->add(data_file(kA1, 100), std::vector<int64_t>{3}).ok());
  ASSERT_TRUE((*f)->add(data_file(kA2, 100000), range_positions(0, 70000)).ok());
  auto w = (*f)->close();
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  ASSERT_EQ(w->delete_files.size(), 3u);
  const std::string puffin = w->delete_files[0].file_path;
  EXPECT_EQ(fs::path(puffin).parent_path(), dir.str() + "/t/data");
  EXPECT_NE(puffin.find("-" + (*f)->operation_id() + "-00001-deletes.puffin"), std::string::npos)
      << puffin;
  const std::vector<std::string> refs = {kA1, kA2, kB1};
  const std::vector<std::vector<int64_t>> want = {{3}, range_positions(0, 70000), {1, 5}};
  for (size_t i = 0; i < 3; ++i) {
    const DataFile& d = w->delete_files[i];
    EXPECT_EQ(d.file_path, puffin);
    EXPECT_EQ(d.file_format, "PUFFIN");
    EXPECT_EQ(d.content, FileContent::kPositionDeletes);
    EXPECT_EQ(d.referenced_data_file, refs[i]);
    EXPECT_EQ(d.partition, std::vector<Literal>{Literal::string(i < 2 ? "A" : "B")});
    EXPECT_EQ(d.record_count, static_cast<int64_t>(want[i].size()));
    EXPECT_EQ(d.file_size_in_bytes, static_cast<int64_t>(fs::file_size(puffin)));
    EXPECT_EQ(read_dv(d), want[i]);
  }
  auto footer = read_puffin_footer(*io, puffin);
  ASSERT_TRUE(footer.ok()) << footer.status().to_string();
  ASSERT_EQ(footer->blobs.size(), 3u);
  EXPECT_EQ(footer->blobs[1].properties.at("cardinality"), "70000");
  EXPECT_EQ(footer->blobs[1].properties.at("referenced-data-file"), kA2);
  ASSERT_TRUE((*f)->abort().ok());
  EXPECT_FALSE(fs::exists(puffin));
}

TEST(PositionDeleteFanout, V3MergesAnExistingDeletionVector) {
  TempDir dir;
  auto io = make_local_file_io();
  TableMetadata t = table(dir, 3);
  auto first = PositionDeleteFanout::make(io, t);
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE((*first)->add(data_file(kA1, 100), std::vector<int64_t>{1, 2, 40}).ok());
  ASSERT_TRUE((*first)->add(data_file(kA2, 100), std::vector<int64_t>{7}).ok());
  auto old = (*first)->close();
  ASSERT_TRUE(old.ok()) << old.status().to_string();
  ASSERT_EQ(old->delete_files.size(), 2u);
  const DataFile old_a1 = old->delete_files[0];
  const DataFile old_a2 = old->delete_files[1];

  auto second = PositionDeleteFanout::make(io, t);
  ASSERT_TRUE(second.ok());
  ASSERT_TRUE((*second)->set_existing_dv(kA1, old_a1).ok());
  ASSERT_TRUE((*second)->set_existing_dv(kA2, old_a2).ok());   // kA2 gets nothing new
  ASSERT_TRUE((*second)->set_existing_dv(kA1, old_a1).ok());   // the same again is fine
  EXPECT_FALSE((*second)->set_existing_dv(kA2, old_a1).ok());  // references kA1
  ASSERT_TRUE((*second)->add(data_file(kA1, 100), std::vector<int64_t>{2, 5}).ok());
  ASSERT_TRUE((*second)->add(data_file(kB1, 100), std::vector<int64_t>{0}).ok());
  auto w = (*second)->close();
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  ASSERT_EQ(w->delete_files.size(), 2u);
  EXPECT_EQ(w->delete_files[0].referenced_data_file, kA1);
  EXPECT_EQ(w->delete_files[0].record_count, 4);
  EXPECT_EQ(read_dv(w->delete_files[0]), (std::vector<int64_t>{1, 2, 5, 40}));
  EXPECT_EQ(read_dv(w->delete_files[1]), (std::vector<int64_t>{0}));
  ASSERT_EQ(w->replaced_dvs.size(), 1u);
  EXPECT_EQ(w->replaced_dvs[0], old_a1);
  EXPECT_NE(w->delete_files[0].file_path, old_a1.file_path);

  // An existing vector whose record_count does not match its blob is an error, and the failed
  // close leaves no file.
  auto third = PositionDeleteFanout::make(io, t);
  ASSERT_TRUE(third.ok());
  DataFile wrong = old_a1;
  wrong.record_count = 2;
  ASSERT_TRUE((*third)->set_existing_dv(kA1, wrong).ok());
  ASSERT_TRUE((*third)->add(data_file(kA1, 100), std::vector<int64_t>{9}).ok());
  auto bad = (*third)->close();
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("holds 3 positions, its record_count says 2"),
            std::string::npos)
      << bad.status().message();
  size_t puffins = 0;
  for (const auto& e : fs::directory_iterator(dir.str() + "/t/data")) {
    puffins += e.path().extension() == ".puffin";
  }
  EXPECT_EQ(puffins, 2u);  // the first two writes' files only

  DataFile parquet_file = data_file(kA1);
  parquet_file.content = FileContent::kPositionDeletes;
  auto s = (*third)->set_existing_dv(kA1, parquet_file);
  EXPECT_FALSE(s.ok());
}

TEST(EqualityDeleteFanout, WritesOneFilePerPartitionOfTheCurrentSpec) {
  TempDir dir;
  auto io = make_local_file_io();
  TableMetadata t = table(dir, 2);
  auto schema =
      std::make_shared<Schema>(0, std::vector<NestedField>{field(1, "id", Type::int64(), true),
                                                           field(2, "region", Type::string())});
  auto f = EqualityDeleteFanout::make(io, t, schema, {1});
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  EXPECT_EQ((*f)->spec_id(), 0);
  ColumnBatch b = ColumnBatch::make(schema->fields());
  const std::vector<std::pair<int64_t, std::string>> rows = {{1, "A"}, {2, "B"}, {3, "A"}};
  for (const auto& [id, region] : rows) {
    b.columns[0]->append_fixed<int64_t>(id);
    b.columns[1]->append_bytes(region);
  }
  b.num_rows = 3;
  ASSERT_TRUE((*f)->write(b).ok());
  auto files = (*f)->close();
  ASSERT_TRUE(files.ok()) << files.status().to_string();
  ASSERT_EQ(files->size(), 2u);
  const DataFile& a = (*files)[0];
  const DataFile& bfile = (*files)[1];
  EXPECT_EQ(a.content, FileContent::kEqualityDeletes);
  EXPECT_EQ(a.equality_ids, std::vector<int32_t>{1});
  EXPECT_EQ(a.partition, std::vector<Literal>{Literal::string("A")});
  EXPECT_EQ(a.spec_id, 0);
  EXPECT_EQ(a.record_count, 2);
  EXPECT_TRUE(starts_with(a.file_path, dir.str() + "/t/data/region=A/")) << a.file_path;
  EXPECT_NE(a.file_path.find("-deletes.parquet"), std::string::npos);
  EXPECT_EQ(read_parquet_rows(io, a.file_path),
            (std::vector<std::string>{R"([1,"A"])", R"([3,"A"])"}));
  EXPECT_EQ(bfile.partition, std::vector<Literal>{Literal::string("B")});
  EXPECT_EQ(read_parquet_rows(io, bfile.file_path), (std::vector<std::string>{R"([2,"B"])"}));
  auto r = parquet::ParquetReader::open(io, a.file_path);
  ASSERT_TRUE(r.ok());
  std::map<std::string, std::string> kv;
  for (const auto& e : (*r)->metadata().key_value_metadata) kv[e.key] = e.value.value_or("");
  EXPECT_EQ(kv["delete-type"], "equality");
  EXPECT_EQ(kv["delete-field-ids"], "1");
  ASSERT_TRUE((*f)->abort().ok());
  EXPECT_FALSE(fs::exists(a.file_path));
  EXPECT_FALSE(fs::exists(bfile.file_path));
}

TEST(EqualityDeleteFanout, AvroFilesAndSchemaChecks) {
  TempDir dir;
  auto io = make_local_file_io();
  TableMetadata t = table(dir, 2, {{"write.delete.format.default", "avro"}});
  auto schema =
      std::make_shared<Schema>(0, std::vector<NestedField>{field(2, "region", Type::string()),
                                                           field(3, "note", Type::string())});
  auto f = EqualityDeleteFanout::make(io, t, schema, {3, 2});
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ColumnBatch b = ColumnBatch::make(schema->fields());
  b.columns[0]->append_bytes("C");
  b.columns[1]->append_bytes("gone");
  b.num_rows = 1;
  ASSERT_TRUE((*f)->write(b).ok());
  auto files = (*f)->close();
  ASSERT_TRUE(files.ok()) << files.status().to_string();
  ASSERT_EQ(files->size(), 1u);
  const DataFile& d = (*files)[0];
  EXPECT_EQ(d.file_format, "AVRO");
  EXPECT_EQ(d.equality_ids, (std::vector<int32_t>{3, 2}));
  EXPECT_NE(d.file_path.find("region=C/"), std::string::npos);
  EXPECT_EQ(d.record_count, 1);
  auto reader = avro::DataReader::open(io, d.file_path, schema->fields());
  ASSERT_TRUE(reader.ok()) << reader.status().to_string();
  auto batch = (*reader)->next_batch();
  ASSERT_TRUE(batch.ok() && batch->has_value());
  EXPECT_EQ(rows_of(**batch), (std::vector<std::string>{R"(["C","gone"])"}));
  auto bytes = io->read_file(d.file_path);
  ASSERT_TRUE(bytes.ok());
  EXPECT_NE(bytes->find("delete-field-ids"), std::string::npos);

  // Rows without the partition source column cannot be placed.
  auto ids_only =
      std::make_shared<Schema>(0, std::vector<NestedField>{field(1, "id", Type::int64(), true)});
  auto no_source = EqualityDeleteFanout::make(io, t, ids_only, {1});
  ASSERT_FALSE(no_source.ok());
  EXPECT_NE(no_source.status().message().find("lack column region (id 2)"), std::string::npos)
      << no_source.status().message();
  auto wrong_type =
      std::make_shared<Schema>(0, std::vector<NestedField>{field(2, "region", Type::int32())});
  EXPECT_FALSE(EqualityDeleteFanout::make(io, t, wrong_type, {2}).ok());
  EXPECT_FALSE(EqualityDeleteFanout::make(io, t, schema, {1}).ok());  // id 1 not in the rows
  EXPECT_FALSE(EqualityDeleteFanout::make(io, t, schema, {}).ok());
}

TEST(EqualityDeleteFanout, RollsAtTheTargetSize) {
  TempDir dir;
  auto io = make_local_file_io();
  TableMetadata t = table(dir, 2);
  t.specs[0] = std::make_shared<PartitionSpec>(0, std::vector<PartitionField>{});
  auto o = delete_write_options(t);
  ASSERT_TRUE(o.ok());
  o->target_file_size = 1;
  auto schema =
      std::make_shared<Schema>(0, std::vector<NestedField>{field(1, "id", Type::int64(), true)});
  auto f = EqualityDeleteFanout::make(io, t, schema, {1}, *o);
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ColumnBatch with_null = ColumnBatch::make(schema->fields());
  with_null.columns[0]->append_null();
  with_null.num_rows = 1;
  auto s = (*f)->write(with_null);
  EXPECT_NE(s.message().find("required column id has 1 null(s)"), std::string::npos) << s.message();
  for (int64_t id : {1, 2, 3}) {
    ColumnBatch b = ColumnBatch::make(schema->fields());
    b.columns[0]->append_fixed<int64_t>(id);
    b.num_rows = 1;
    ASSERT_TRUE((*f)->write(b).ok());
  }
  auto files = (*f)->close();
  ASSERT_TRUE(files.ok()) << files.status().to_string();
  ASSERT_EQ(files->size(), 3u);
  EXPECT_EQ((*f)->rows_written(), 3);
  for (const auto& d : *files) {
    EXPECT_TRUE(d.partition.empty());
    EXPECT_EQ(fs::path(d.file_path).parent_path(), dir.str() + "/t/data");
  }
}

}  // namespace
}  // namespace floe
