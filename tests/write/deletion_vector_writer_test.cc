// Deletion vectors as written: the blob bytes (Java's own golden files, CRoaring's portable
// serialization, and bytes spelled out from the RoaringFormatSpec), the Puffin file and footer,
// and DeletionVectorWriter's entries read back with floe's Puffin and deletion-vector readers.
#include "floe/write/deletion_vector_writer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "floe/read/position_delete_set.h"
#include "floe/read/puffin.h"
#include "floe/util/compression.h"
#include "write/write_test_util.h"

namespace floe {
namespace {

using namespace write_testing;

std::string fixture(const std::string& rel) {
  std::ifstream in(std::string(FLOE_FIXTURES_DIR "/") + rel, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string unhex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

std::vector<int64_t> range(int64_t begin, int64_t end, int64_t step = 1) {
  std::vector<int64_t> v;
  for (int64_t p = begin; p < end; p += step) v.push_back(p);
  return v;
}

std::vector<int64_t> concat(std::initializer_list<std::vector<int64_t>> parts) {
  std::vector<int64_t> v;
  for (const auto& p : parts) v.insert(v.end(), p.begin(), p.end());
  return v;
}

std::string dv(const std::vector<int64_t>& positions) {
  auto r = encode_deletion_vector(positions);
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  return r.ok() ? *r : std::string();
}

// The 32-bit bitmap of key 0 in a single-key portable 64-bit bitmap (after count and key).
std::string key0_bitmap(const std::vector<int64_t>& positions) {
  auto r = encode_roaring64_portable(positions);
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  if (!r.ok()) return {};
  EXPECT_EQ(r->substr(0, 12), std::string("\x01\0\0\0\0\0\0\0\0\0\0\0", 12));
  return r->substr(12);
}

TEST(DeletionVectorEncoding, MatchesJavasGoldenFiles) {
  // iceberg-java/deletes: written by Java's BitmapPositionDeleteIndex.serialize.
  const std::string dir = "iceberg-java/deletes/";
  EXPECT_EQ(dv({}), fixture(dir + "empty-position-index.bin"));
  EXPECT_EQ(dv({1, 3, 5, 7, 9}), fixture(dir + "small-alternating-values-position-index.bin"));
  EXPECT_EQ(dv({100, 101, 2147483747LL, 2147483748LL}),
            fixture(dir + "small-and-large-values-position-index.bin"));
  const int64_t key1 = int64_t{1} << 32;
  // Java's test: per key an array container, a compressible array and a full range.
  std::vector<int64_t> all = concat({{5, 7},
                                     range(65537, 66536),
                                     range(131073, 196607),
                                     {key1 + 10, key1 + 20},
                                     range(key1 + 65536 + 10, key1 + 65536 + 500),
                                     range(key1 + 131073, key1 + 196607)});
  ASSERT_EQ(all.size(), 132561u);
  EXPECT_EQ(dv(all), fixture(dir + "all-container-types-position-index.bin"));
}

TEST(DeletionVectorEncoding, MatchesCRoaringPortableBitmaps) {
  // CRoaring 4 (the npm package roaring 2.7.0): RoaringBitmap32(values), runOptimize(),
  // serialize("portable"). Small ones as hex, the rest as size and CRC-32.
  EXPECT_EQ(key0_bitmap({1, 3, 5, 7, 9}),
            unhex("3a30000001000000000004001000000001000300050007000900"));
  EXPECT_EQ(key0_bitmap(range(0, 70000)),
            unhex("3b300100030000ffff01006f1101000000ffff010000006f11"));
  EXPECT_EQ(key0_bitmap(concat({range(0, 10), range(65536, 65546), range(131072, 131082),
                                range(196608, 196618), range(262144, 262154)})),
            unhex("3b3004001f00000900010009000200090003000900040009002d00000033000000390000003f00"
                  "000045000000010000000900010000000900010000000900010000000900010000000900"));
  EXPECT_EQ(key0_bitmap({10, 11, 12}), unhex("3a3000000100000000000200100000000a000b000c00"));
  EXPECT_EQ(key0_bitmap({10, 11, 12, 13}), unhex("3b300000010000030001000a000300"));
  EXPECT_EQ(key0_bitmap({0, 4294967295LL}),
            unhex("3a3000000200000000000000ffff0000180000001a0000000000ffff"));
  struct Large {
    std::vector<int64_t> positions;
    size_t size;
    uint32_t crc;
  };
  const Large large[] = {
      {range(0, 10000, 2), 8208, 1296210311u},
      {concat({{5, 7}, range(65537, 66536), range(131072, 131072 + 20000, 3)}), 8219, 3208813477u},
      {range(0, 8192, 2), 8208, 4115231437u},
      {range(0, 8194, 2), 8208, 726323725u},
  };
  for (const auto& l : large) {
    std::string b = key0_bitmap(l.positions);
    EXPECT_EQ(b.size(), l.size) << l.positions.size();
    EXPECT_EQ(crc32(b), l.crc) << l.positions.size();
  }
}

TEST(DeletionVectorEncoding, ContainerKindsByteByByte) {
  // RoaringFormatSpec, spelled out. An array: cookie 12346, 1 container, key 0 and
  // cardinality - 1 = 2, the container's offset 16, then the values.
  EXPECT_EQ(key0_bitmap({10, 11, 12}), std::string("\x3a\x30\0\0"
                                                   "\x01\0\0\0"
                                                   "\0\0\x02\0"
                                                   "\x10\0\0\0"
                                                   "\x0a\0\x0b\0\x0c\0",
                                                   22));
  // Four consecutive values are smaller as one run (2 + 4 bytes < 8): cookie 12347 with
  // 1 - 1 containers, run flags 0b1, key 0 / cardinality - 1 = 3, no offsets (fewer than 4
  // containers), then 1 run starting at 10 of length 3 + 1.
  EXPECT_EQ(key0_bitmap({10, 11, 12, 13}), std::string("\x3b\x30\0\0"
                                                       "\x01"
                                                       "\0\0\x03\0"
                                                       "\x01\0\x0a\0\x03\0",
                                                       15));
  // 5000 even values: more than 4096 makes a bitmap, and 5000 runs would take 20002 bytes.
  std::string bitmap = key0_bitmap(range(0, 10000, 2));
  ASSERT_EQ(bitmap.size(), 16u + 8192u);
  EXPECT_EQ(bitmap.substr(0, 16), std::string("\x3a\x30\0\0"
                                              "\x01\0\0\0"
                                              "\0\0\x87\x13"  // 4999
                                              "\x10\0\0\0",
                                              16));
  EXPECT_EQ(bitmap.substr(16, 1250), std::string(1250, '\x55'));  // bits 0, 2, .. 9998
  EXPECT_EQ(bitmap.substr(16 + 1250), std::string(8192 - 1250, '\0'));
  // 4096 values stay an array (8192 bytes); 4097 become a bitmap of the same size.
  std::string array = key0_bitmap(range(0, 8192, 2));
  EXPECT_EQ(array.substr(8, 4), std::string("\0\0\xff\x0f", 4));
  EXPECT_EQ(array.substr(16, 4), std::string("\0\0\x02\0", 4));  // values 0, 2
}

TEST(DeletionVectorEncoding, PositionsAbove32BitsGoUnderTheirHighKey) {
  const int64_t p = (int64_t{3} << 32) + 1;
  auto bytes = encode_roaring64_portable(std::vector<int64_t>{5, p});
  ASSERT_TRUE(bytes.ok()) << bytes.status().to_string();
  std::string expected = std::string("\x02\0\0\0\0\0\0\0", 8) +  // two bitmaps
                         std::string("\0\0\0\0", 4) +            // key 0: {5}
                         key0_bitmap({5}) +                      //
                         std::string("\x03\0\0\0", 4) +          // key 3: {1}
                         key0_bitmap({1});
  EXPECT_EQ(*bytes, expected);
  auto back = parse_deletion_vector(dv({5, p, p + 70000}), "round trip");
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(back->positions(), (std::vector<int64_t>{5, p, p + 70000}));
  // The largest position Java allows: key 2^31 - 2, low half 2^31.
  auto max = parse_deletion_vector(dv({0, kMaxDeletionVectorPosition}), "max");
  ASSERT_TRUE(max.ok()) << max.status().to_string();
  EXPECT_EQ(max->positions(), (std::vector<int64_t>{0, kMaxDeletionVectorPosition}));
}

TEST(DeletionVectorEncoding, RejectsUnsortedDuplicateAndOutOfRangePositions) {
  auto expect_error = [](std::vector<int64_t> v, const char* what) {
    auto r = encode_deletion_vector(v);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidArgument);
    EXPECT_NE(r.status().message().find(what), std::string::npos) << r.status().message();
  };
  expect_error({3, 2}, "ascending and unique (2 follows 3)");
  expect_error({2, 2}, "ascending and unique (2 follows 2)");
  expect_error({-1}, "position -1 is outside");
  expect_error({kMaxDeletionVectorPosition + 1}, "is outside");
}

TEST(DeletionVectorEncoding, RoundTripsRandomSets) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 20; ++round) {
    std::vector<int64_t> v;
    int64_t p = 0;
    int n = static_cast<int>(rng() % 20000);
    for (int i = 0; i < n; ++i) {
      // Runs, gaps of every size, and now and then a jump past a 16-bit container.
      uint64_t r = rng() % 100;
      p += r < 60   ? 1
           : r < 90 ? 1 + static_cast<int64_t>(rng() % 40)
                    : 1 + static_cast<int64_t>(rng() % 200000);
      v.push_back(p);
    }
    auto back = parse_deletion_vector(dv(v), "random");
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_EQ(back->positions(), v) << round;
  }
}

TEST(PuffinFileBuilder, LayoutAndFooterAsJavaWritesThem) {
  PuffinFileBuilder b("floe test");
  PuffinBlob blob;
  blob.type = "deletion-vector-v1";
  blob.fields = {2147483645};
  blob.properties = {{"referenced-data-file", "/t/data/a.parquet"}, {"cardinality", "2"}};
  const PuffinBlob& added = b.add(blob, "0123456789");
  EXPECT_EQ(added.offset, 4);
  EXPECT_EQ(added.length, 10);
  PuffinBlob other;
  other.type = "apache-datasketches-theta-v1";
  other.fields = {1, 2};
  other.snapshot_id = 7;
  other.sequence_number = 3;
  other.compression_codec = "zstd";
  EXPECT_EQ(b.add(other, "xyz").offset, 14);
  const std::string json = b.footer_json();
  EXPECT_EQ(
      json,
      R"({"blobs":[{"type":"deletion-vector-v1","fields":[2147483645],"snapshot-id":-1,)"
      R"("sequence-number":-1,"offset":4,"length":10,"properties":{"cardinality":"2",)"
      R"("referenced-data-file":"/t/data/a.parquet"}},{"type":"apache-datasketches-theta-v1",)"
      R"("fields":[1,2],"snapshot-id":7,"sequence-number":3,"offset":14,"length":3,)"
      R"("compression-codec":"zstd"}],"properties":{"created-by":"floe test"}})");
  const std::string file = b.finish();
  std::string expected = "PFA1" + std::string("0123456789xyz") + "PFA1" + json;
  uint32_t n = static_cast<uint32_t>(json.size());
  for (int i = 0; i < 4; ++i) expected.push_back(static_cast<char>((n >> (8 * i)) & 0xFF));
  expected += std::string("\0\0\0\0", 4) + "PFA1";
  EXPECT_EQ(file, expected);

  auto io = make_memory_file_io();
  ASSERT_TRUE(io->write_file("/p.puffin", file).ok());
  auto footer = read_puffin_footer(*io, "/p.puffin");
  ASSERT_TRUE(footer.ok()) << footer.status().to_string();
  ASSERT_EQ(footer->blobs.size(), 2u);
  EXPECT_EQ(footer->blobs[0].properties.at("referenced-data-file"), "/t/data/a.parquet");
  EXPECT_EQ(footer->blobs[1].compression_codec, "zstd");
  EXPECT_EQ(footer->properties.at("created-by"), "floe test");

  // No blobs: magic, then the footer.
  PuffinFileBuilder none;
  EXPECT_EQ(none.footer_json(), R"({"blobs":[],"properties":{"created-by":"floe version 0.1.0"}})");
  ASSERT_TRUE(io->write_file("/e.puffin", none.finish()).ok());
  auto empty = read_puffin_footer(*io, "/e.puffin");
  ASSERT_TRUE(empty.ok()) << empty.status().to_string();
  EXPECT_TRUE(empty->blobs.empty());
}

DataFile data_file(std::string path, int64_t rows, int32_t spec_id = 0,
                   std::vector<Literal> partition = {}) {
  DataFile f;
  f.file_path = std::move(path);
  f.file_format = "PARQUET";
  f.record_count = rows;
  f.spec_id = spec_id;
  f.partition = std::move(partition);
  return f;
}

TEST(DeletionVectorWriter, OneBlobPerDataFileWithEntriesForTheManifest) {
  TempDir dir;
  auto io = make_local_file_io();
  const std::string path = dir.str() + "/data/00000-0-op-00001-deletes.puffin";
  DeletionVectorWriter w(io, path);
  const DataFile b = data_file("s3://b/t/data/x=2/b.parquet", 100, 1, {Literal::int32(2)});
  const DataFile a = data_file("s3://b/t/data/x=1/a.parquet", 1000, 1, {Literal::int32(1)});
  ASSERT_TRUE(w.add(b, std::vector<int64_t>{9, 3}).ok());
  ASSERT_TRUE(w.add(a, std::vector<int64_t>{500, 7, 7}).ok());
  ASSERT_TRUE(w.add(b, std::vector<int64_t>{3, 4, 5}).ok());
  EXPECT_EQ(w.data_file_count(), 2u);
  auto files = w.close();
  ASSERT_TRUE(files.ok()) << files.status().to_string();
  ASSERT_EQ(files->size(), 2u);
  const int64_t size = static_cast<int64_t>(fs::file_size(path));
  const DataFile& fa = (*files)[0];
  const DataFile& fb = (*files)[1];
  for (const DataFile& f : *files) {
    EXPECT_EQ(f.content, FileContent::kPositionDeletes);
    EXPECT_EQ(f.file_format, "PUFFIN");
    EXPECT_EQ(f.file_path, path);
    EXPECT_EQ(f.file_size_in_bytes, size);
    EXPECT_EQ(f.spec_id, 1);
    EXPECT_TRUE(f.lower_bounds.empty());
  }
  EXPECT_EQ(fa.referenced_data_file, a.file_path);
  EXPECT_EQ(fa.partition, a.partition);
  EXPECT_EQ(fa.record_count, 2);
  EXPECT_EQ(fa.content_offset, 4);
  EXPECT_EQ(fb.referenced_data_file, b.file_path);
  EXPECT_EQ(fb.partition, b.partition);
  EXPECT_EQ(fb.record_count, 4);
  EXPECT_EQ(*fb.content_offset, 4 + *fa.content_size_in_bytes);

  auto footer = read_puffin_footer(*io, path);
  ASSERT_TRUE(footer.ok()) << footer.status().to_string();
  EXPECT_EQ(footer->properties.at("created-by"), "floe version 0.1.0");
  ASSERT_EQ(footer->blobs.size(), 2u);
  std::vector<std::vector<int64_t>> want = {{7, 500}, {3, 4, 5, 9}};
  for (size_t i = 0; i < 2; ++i) {
    const PuffinBlob& blob = footer->blobs[i];
    const DataFile& f = (*files)[i];
    EXPECT_EQ(blob.type, "deletion-vector-v1");
    EXPECT_EQ(blob.fields, std::vector<int32_t>{2147483645});
    EXPECT_EQ(blob.snapshot_id, -1);
    EXPECT_EQ(blob.sequence_number, -1);
    EXPECT_FALSE(blob.compression_codec.has_value());
    EXPECT_EQ(blob.offset, *f.content_offset);
    EXPECT_EQ(blob.length, *f.content_size_in_bytes);
    EXPECT_EQ(blob.properties.at("referenced-data-file"), *f.referenced_data_file);
    EXPECT_EQ(blob.properties.at("cardinality"), std::to_string(f.record_count));
    auto bytes = io->read_range(path, blob.offset, blob.length);
    ASSERT_TRUE(bytes.ok());
    auto positions = parse_deletion_vector(*bytes, "blob");
    ASSERT_TRUE(positions.ok()) << positions.status().to_string();
    EXPECT_EQ(positions->positions(), want[i]);
  }

  EXPECT_FALSE(w.close().ok());  // once
  ASSERT_TRUE(w.abort().ok());
  EXPECT_FALSE(fs::exists(path));
}

TEST(DeletionVectorWriter, RejectsBadInputAndWritesNothingWhenEmpty) {
  TempDir dir;
  auto io = make_local_file_io();
  DeletionVectorWriter w(io, dir.str() + "/d.puffin");
  auto past = w.add(data_file("/t/a.parquet", 10), std::vector<int64_t>{10});
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.message().find("position 10 is not a row of /t/a.parquet (10 rows)"),
            std::string::npos)
      << past.message();
  DataFile deletes = data_file("/t/d.parquet", 10);
  deletes.content = FileContent::kPositionDeletes;
  EXPECT_FALSE(w.add(deletes, std::vector<int64_t>{1}).ok());
  ASSERT_TRUE(w.add("/t/a.parquet", 0, {}, std::vector<int64_t>{1}).ok());
  EXPECT_FALSE(w.add("/t/a.parquet", 1, {}, std::vector<int64_t>{2}).ok());  // another spec
  EXPECT_FALSE(w.add("/t/b.parquet", 0, {}, std::vector<int64_t>{-4}).ok());

  DeletionVectorWriter empty(io, dir.str() + "/e.puffin");
  auto none = empty.close();
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  EXPECT_FALSE(fs::exists(dir.str() + "/e.puffin"));
  EXPECT_TRUE(empty.abort().ok());
}

}  // namespace
}  // namespace floe
