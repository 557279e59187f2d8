// The column decoder's contracts that the reader's threads rely on: decoders of one chunk share
// its dictionary (taken, not decoded again, when the page offset matches), and a flat column's
// batch without nulls leaves its definition levels empty.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "floe/format/parquet/reader.h"
#include "floe/format/parquet/writer.h"
#include "format/parquet/column_decoder_internal.h"
#include "test_support.h"

namespace floe::parquet::internal {
namespace {

using test_support::field;
using test_support::TempDir;

std::string tag(int64_t i) { return "tag-" + std::to_string(i % 37); }

TEST(ColumnDecoder, SharesADictionaryAndLeavesLevelsOfNullFreeBatchesEmpty) {
  TempDir dir;
  Schema schema(0, {field(1, "t", Type::string(), false)});  // optional, never null
  WriterOptions opt;
  opt.page_row_limit = 500;
  std::string path = (dir.path / "dict.parquet").string();
  auto io = make_local_file_io();
  {
    auto w = ParquetWriter::open(io, path, schema, opt);
    ASSERT_TRUE(w.ok());
    ColumnBatch b = ColumnBatch::make(schema.fields());
    for (int64_t i = 0; i < 3000; ++i) b.columns[0]->append_bytes(tag(i));
    b.num_rows = 3000;
    ASSERT_TRUE((*w)->write(b).ok());
    ASSERT_TRUE((*w)->close().ok());
  }
  auto r = ParquetReader::open(io, path);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ((*r)->num_row_groups(), 1);
  const ColumnMetaData& meta = *(*r)->metadata().row_groups[0].columns[0].meta_data;
  ASSERT_TRUE(meta.dictionary_page_offset.has_value());
  auto bytes = io->read_range(path, chunk_start(meta), meta.total_compressed_size);
  ASSERT_TRUE(bytes.ok());
  LeafSpec spec{PhysicalType::kByteArray, 0, 1, 0, Conv::kNone, Type::string()};
  std::vector<int16_t> defs, reps;

  // Rows [first, first + n) through a decoder: its values and the dictionary it used.
  auto read = [&](ColumnDecoder& d, int64_t first, int64_t n) {
    ColumnPtr out = ColumnVector::make(Type::string());
    EXPECT_TRUE(d.skip(first).ok());
    EXPECT_TRUE(d.next(n, out.get(), &defs, &reps).ok());
    EXPECT_TRUE(defs.empty()) << "no nulls: no levels written out";
    EXPECT_EQ(out->length(), n);
    for (int64_t k = 0; k < out->length(); ++k) {
      EXPECT_EQ(out->bytes_at(k), tag(first + k)) << first + k;
    }
    return d.dictionary_ptr();
  };
  ColumnDecoder a;
  ASSERT_TRUE(a.start(spec, meta, *bytes).ok());
  ColumnPtr dict = read(a, 0, 1000);
  ASSERT_TRUE(dict);
  EXPECT_EQ(dict->length(), 37);

  // The same chunk from row 1,750 (inside a page), given a's dictionary: it is taken as is.
  ColumnDecoder b;
  ASSERT_TRUE(b.start(spec, meta, *bytes).ok());
  b.share_dictionary(dict, a.dictionary_body());
  EXPECT_EQ(read(b, 1750, 1000).get(), dict.get());

  // Offered for another page position, it is not taken: the decoder decodes its own.
  ColumnDecoder c;
  ASSERT_TRUE(c.start(spec, meta, *bytes).ok());
  c.share_dictionary(dict, a.dictionary_body() + 1);
  ColumnPtr own = read(c, 2500, 500);
  ASSERT_TRUE(own);
  EXPECT_NE(own.get(), dict.get());
  EXPECT_EQ(own->length(), 37);
}

}  // namespace
}  // namespace floe::parquet::internal
