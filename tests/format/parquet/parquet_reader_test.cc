// Reader features beyond the fixtures: files DuckDB writes with every codec and with v2 pages
// (DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, BYTE_STREAM_SPLIT), projection, byte-range
// splits, row-group statistics, name mapping, and corrupt files.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "floe/format/parquet/reader.h"
#include "floe/format/parquet/writer.h"
#include "format/parquet/parquet_test_util.h"

namespace floe::parquet {
namespace {

using RowGroupKeep = std::function<bool(const RowGroupInfo&)>;

// Opens `path` with `o`, projected to `ids` (every column when empty), keeping the row groups
// `keep` accepts (all when it is empty).
Result<std::unique_ptr<ParquetReader>> open_projected(const FileIOPtr& io, const std::string& path,
                                                      const ReaderOptions& o,
                                                      const std::vector<int32_t>& ids,
                                                      RowGroupKeep keep) {
  auto r = ParquetReader::open(io, path, o);
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  if (!r.ok()) return r;
  if (!ids.empty()) {
    EXPECT_TRUE((*r)->select(ids).ok());
  }
  if (keep) (*r)->set_row_group_filter(std::move(keep));
  return r;
}

namespace fs = std::filesystem;
using test_support::field;
using test_support::TempDir;
using testing::canonical_rows;
using testing::oracle_dir;
using testing::run_command;
using testing::shell_quote;

std::vector<std::string> duckdb_read(const std::string& path) {
  int rc = 0;
  std::string out = run_command("cd " + shell_quote(oracle_dir()) + " && node parquet_duckdb.mjs " +
                                    shell_quote(path) + " 2>&1",
                                &rc);
  EXPECT_EQ(rc, 0) << out.substr(0, 1000);
  EXPECT_EQ(out.find("##ERROR"), std::string::npos) << out.substr(0, 1000);
  std::vector<std::string> rows;
  size_t pos = 0;
  while (pos < out.size()) {
    size_t nl = out.find('\n', pos);
    std::string line = out.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.rfind("##", 0) != 0) rows.push_back(line);
  }
  return rows;
}

void expect_rows_equal(const std::vector<std::string>& want, const std::vector<std::string>& got) {
  ASSERT_EQ(got.size(), want.size());
  int shown = 0;
  for (size_t i = 0; i < want.size() && shown < 3; ++i) {
    if (nlohmann::json::parse(got[i]) != nlohmann::json::parse(want[i])) {
      ADD_FAILURE() << "row " << i << "\n floe:   " << got[i] << "\n duckdb: " << want[i];
      ++shown;
    }
  }
}

TEST(ParquetReader, ReadsWhatDuckDBWritesWithEveryCodecAndPageVersion) {
  TempDir dir;
  const char* select =
      "SELECT range AS id, range % 7 = 0 AS b, (range * 37 % 1000)::INT AS i, "
      "CASE WHEN range % 11 = 0 THEN NULL ELSE range::DOUBLE / 3 END AS d, (range / 7)::FLOAT AS "
      "f, "
      "'str' || (range % 100) AS s, 'u' || range AS hs, (range * 1.25)::DECIMAL(12,2) AS dec, "
      "(range * 3.5)::DECIMAL(30,3) AS bigdec, DATE '2020-01-01' + (range % 1000)::INT AS dt, "
      "TIMESTAMP '2020-01-01' + INTERVAL (range) SECOND AS ts, "
      "TIMESTAMPTZ '2020-01-01 00:00:00+00' + INTERVAL (range) MICROSECOND AS tstz, "
      "TIME '01:02:03' + INTERVAL (range) SECOND AS tm, gen_random_uuid() IS NULL AS nb, "
      "CASE WHEN range % 5 = 0 THEN NULL ELSE [range, NULL, range + 1] END AS li, "
      "{'a': range, 'b': CASE WHEN range % 3 = 0 THEN NULL ELSE 's' || range END} AS st, "
      "MAP {'k': range, 'j': NULL} AS m, [[range], [], NULL] AS nested, "
      "'\\x00\\xFF'::BLOB AS blob FROM range(5000)";
  std::vector<std::string> files;
  std::string cmd = "cd " + shell_quote(oracle_dir()) + " && node parquet_duckdb.mjs --exec";
  for (const char* codec : {"uncompressed", "snappy", "gzip", "zstd", "lz4_raw"}) {
    for (const char* version : {"v1", "v2"}) {
      std::string path = (dir.path / fmt::format("{}_{}.parquet", codec, version)).string();
      files.push_back(path);
      cmd += " " + shell_quote(fmt::format(
                       "COPY ({}) TO '{}' (FORMAT parquet, COMPRESSION {}, PARQUET_VERSION {}, "
                       "ROW_GROUP_SIZE 2048)",
                       select, path, codec, version));
    }
  }
  int rc = 0;
  std::string out = run_command(cmd + " 2>&1", &rc);
  ASSERT_EQ(rc, 0) << out;
  auto io = make_local_file_io();
  std::set<std::string> encodings, codecs;
  for (const auto& path : files) {
    SCOPED_TRACE(path);
    auto reader = ParquetReader::open(io, path);
    ASSERT_TRUE(reader.ok()) << reader.status().to_string();
    for (const auto& rg : (*reader)->metadata().row_groups) {
      for (const auto& c : rg.columns) {
        codecs.insert(codec_name(c.meta_data->codec));
        for (auto e : c.meta_data->encodings) encodings.insert(encoding_name(e));
      }
    }
    auto batches = read_parquet_file(io, path);
    ASSERT_TRUE(batches.ok()) << batches.status().to_string();
    std::vector<std::string> got;
    for (const auto& b : *batches) canonical_rows(b, &got);
    expect_rows_equal(duckdb_read(path), got);
  }
  for (const char* e : {"PLAIN", "RLE_DICTIONARY", "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY",
                        "BYTE_STREAM_SPLIT"}) {
    EXPECT_TRUE(encodings.count(e)) << e;
  }
  EXPECT_EQ(codecs.size(), 5u);
}

Schema split_schema() {
  return Schema(0, {field(1, "id", Type::int64(), true), field(2, "s", Type::string(), false)});
}

std::string write_sample(const fs::path& dir, int64_t rows) {
  Schema schema = split_schema();
  WriterOptions opt;
  opt.row_group_size_bytes = 16 * 1024;
  std::string path = (dir / "split.parquet").string();
  auto w = ParquetWriter::open(make_local_file_io(), path, schema, opt);
  EXPECT_TRUE(w.ok());
  for (int64_t start = 0; start < rows; start += 1000) {
    ColumnBatch b = ColumnBatch::make(schema.fields());
    for (int64_t i = start; i < std::min(rows, start + 1000); ++i) {
      b.columns[0]->append_fixed<int64_t>(i);
      if (i % 10 == 0) {
        b.columns[1]->append_null();
      } else {
        b.columns[1]->append_bytes(fmt::format("value-{:06}", i));
      }
      ++b.num_rows;
    }
    EXPECT_TRUE((*w)->write(b).ok());
  }
  auto m = (*w)->close();
  EXPECT_TRUE(m.ok());
  return path;
}

TEST(ParquetReader, SplitsReadEachRowGroupOnceAndStatsPrune) {
  TempDir dir;
  std::string path = write_sample(dir.path, 20000);
  auto io = make_local_file_io();
  auto reader = ParquetReader::open(io, path);
  ASSERT_TRUE(reader.ok());
  int groups = (*reader)->num_row_groups();
  ASSERT_GT(groups, 3);
  int64_t size = (*reader)->file_size();
  // Three splits of a third each cover every row exactly once.
  std::vector<int64_t> seen;
  for (int k = 0; k < 3; ++k) {
    ReaderOptions o;
    o.split_start = size * k / 3;
    o.split_length = size * (k + 1) / 3 - o.split_start;
    auto r = ParquetReader::open(io, path, o);
    ASSERT_TRUE(r.ok());
    while (true) {
      auto b = (*r)->next_batch();
      ASSERT_TRUE(b.ok());
      if (!*b) break;
      const int64_t* ids = (**b).columns[0]->raw<int64_t>();
      seen.insert(seen.end(), ids, ids + (**b).num_rows);
    }
  }
  ASSERT_EQ(seen.size(), 20000u);
  for (int64_t i = 0; i < 20000; ++i) ASSERT_EQ(seen[i], i);

  // Statistics as Iceberg literals; a filter keeps only the row groups that may hold id 12345.
  auto info = (*reader)->row_group_info(1);
  ASSERT_TRUE(info.ok());
  const ColumnStats& st = info->stats.at(1);
  ASSERT_TRUE(st.lower && st.upper);
  EXPECT_LE(st.lower->as_int64(), st.upper->as_int64());
  EXPECT_GT(st.lower->as_int64(), 0);
  const ColumnStats& ss = info->stats.at(2);
  ASSERT_TRUE(ss.lower && ss.null_count);
  EXPECT_EQ(ss.lower->type()->id(), TypeId::kString);
  EXPECT_GT(*ss.null_count, 0);
  (*reader)->set_row_group_filter([](const RowGroupInfo& g) {
    const ColumnStats& s = g.stats.at(1);
    return s.lower->as_int64() <= 12345 && 12345 <= s.upper->as_int64();
  });
  auto kept = (*reader)->selected_row_groups();
  ASSERT_TRUE(kept.ok());
  ASSERT_EQ(kept->size(), 1u);
  auto b = (*reader)->next_batch();
  ASSERT_TRUE(b.ok() && *b);
  const int64_t* ids = (**b).columns[0]->raw<int64_t>();
  EXPECT_TRUE(std::find(ids, ids + (**b).num_rows, 12345) != ids + (**b).num_rows);
  auto end = (*reader)->next_batch();
  ASSERT_TRUE(end.ok());
  EXPECT_FALSE(end->has_value());
}

// With threads, row groups of at most batch_rows rows are decoded ahead on the pool: batches
// still come in file order with the right row numbers, whatever the projection and filter; a
// reader dropped or re-projected mid-file waits for its jobs; an error in a row group decoded
// ahead is returned in its turn.
TEST(ParquetReader, ThreadsDecodeRowGroupsAheadInFileOrder) {
  TempDir dir;
  std::string path = write_sample(dir.path, 20000);
  auto io = make_local_file_io();
  struct Read {
    std::vector<std::string> rows;
    std::vector<int64_t> first_rows;
    std::vector<int> groups;
  };
  auto read = [&](int threads, std::vector<int32_t> ids, bool filter) {
    Read out;
    ReaderOptions o;
    o.threads = threads;
    auto r = open_projected(
        io, path, o, ids,
        filter ? [](const RowGroupInfo& g) { return g.index % 2 == 1; } : RowGroupKeep());
    while (true) {
      auto b = (*r)->next_batch();
      EXPECT_TRUE(b.ok()) << b.status().to_string();
      if (!b.ok() || !*b) break;
      canonical_rows(**b, &out.rows);
      out.first_rows.push_back((*r)->batch_first_row());
      out.groups.push_back((*r)->batch_row_group());
    }
    return out;
  };
  for (bool filter : {false, true}) {
    for (const std::vector<int32_t>& ids : {std::vector<int32_t>{}, std::vector<int32_t>{2, 1}}) {
      Read one = read(1, ids, filter);
      ASSERT_GT(one.groups.size(), 3u);
      for (int threads : {2, 3}) {
        Read many = read(threads, ids, filter);
        EXPECT_EQ(many.rows, one.rows) << threads << " threads";
        EXPECT_EQ(many.first_rows, one.first_rows);
        EXPECT_EQ(many.groups, one.groups);
      }
    }
  }
  ReaderOptions two;
  two.threads = 2;
  {
    // Dropped after one batch, with row groups still being decoded ahead.
    auto r = ParquetReader::open(io, path, two);
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE((*r)->next_batch().ok());
  }
  {
    // Re-projected after one batch: starts again from the first row group.
    auto r = ParquetReader::open(io, path, two);
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE((*r)->next_batch().ok());
    ASSERT_TRUE((*r)->select({1}).ok());
    auto b = (*r)->next_batch();
    ASSERT_TRUE(b.ok() && *b);
    EXPECT_EQ((*r)->batch_first_row(), 0);
    EXPECT_EQ((**b).columns.size(), 1u);
  }
  // A corrupt page in the third row group: the first two batches, then its error.
  std::string bad = (fs::path(dir.path) / "bad.parquet").string();
  fs::copy_file(path, bad);
  int64_t offset = 0;
  {
    auto r = ParquetReader::open(io, bad);
    ASSERT_TRUE(r.ok());
    offset = (*r)->metadata().row_groups[2].columns[0].meta_data->data_page_offset;
  }
  {
    std::fstream f(bad, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(offset);
    f.write("\xff\xff\xff\xff\xff\xff\xff\xff", 8);
  }
  auto r = ParquetReader::open(io, bad, two);
  ASSERT_TRUE(r.ok());
  for (int i = 0; i < 2; ++i) {
    auto b = (*r)->next_batch();
    ASSERT_TRUE(b.ok() && *b) << i;
  }
  auto b = (*r)->next_batch();
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().kind(), ErrorKind::kInvalidData);
  EXPECT_NE(b.status().to_string().find("bad.parquet"), std::string::npos)
      << b.status().to_string();
}

// With threads, row groups larger than batch_rows are decoded ahead in ranges of at most a
// batch, ending where pages of the most compressed column end, each starting mid-group by
// skipping whole pages from their headers (and decoding the page it starts in, for the other
// columns), and sharing the chunk's dictionary: the rows, row numbers and row groups equal one
// thread's, with nulls, dictionary and plain pages, projections and filters; a list column keeps
// the column-split path; a corrupt page in a later range fails after the batches before it.
TEST(ParquetReader, ThreadsDecodeRangesOfLargeRowGroups) {
  TempDir dir;
  Schema schema(0, {field(1, "id", Type::int64(), true), field(2, "tag", Type::string(), false),
                    field(3, "x", Type::float64(), false), field(4, "name", Type::string(), true),
                    field(5, "l", Type::list_of(6, Type::int32(), false), false)});
  WriterOptions opt;
  opt.page_row_limit = 700;       // pages end off the batch boundaries,
  opt.page_size_bytes = 8 << 10;  // and `name`'s (by bytes) off the other columns'
  opt.row_group_size_bytes = 64 << 10;
  opt.codec = Codec::kSnappy;
  std::string path = (dir.path / "ranges.parquet").string();
  auto io = make_local_file_io();
  {
    auto w = ParquetWriter::open(io, path, schema, opt);
    ASSERT_TRUE(w.ok());
    std::mt19937_64 rng(7);
    for (int64_t start = 0; start < 60000; start += 2000) {
      ColumnBatch b = ColumnBatch::make(schema.fields());
      for (int64_t i = start; i < start + 2000; ++i) {
        b.columns[0]->append_fixed<int64_t>(i);
        if (i % 13 == 0) {
          b.columns[1]->append_null();
        } else {
          b.columns[1]->append_bytes(fmt::format("tag-{}", rng() % 50));  // dictionary
        }
        if (i % 7 == 0) {
          b.columns[2]->append_null();
        } else {
          b.columns[2]->append_fixed<double>(static_cast<double>(rng() % 1000000) / 8);
        }
        b.columns[3]->append_bytes(fmt::format("name-{:016x}", rng()));  // falls back to plain
        int n = static_cast<int>(i % 3);
        for (int k = 0; k < n; ++k) b.columns[4]->child(0).append_fixed<int32_t>(k);
        b.columns[4]->append_list(n);
      }
      b.num_rows = 2000;
      ASSERT_TRUE((*w)->write(b).ok());
    }
    ASSERT_TRUE((*w)->close().ok());
  }
  struct Read {  // per row: its values, file row number and row group
    std::vector<std::string> rows;
    std::vector<int64_t> row_numbers;
    std::vector<int> groups;
  };
  auto read = [&](const std::string& file, int threads, std::vector<int32_t> ids, bool filter,
                  int64_t batch_rows) {
    Read out;
    ReaderOptions o;
    o.threads = threads;
    o.batch_rows = batch_rows;
    auto r = open_projected(
        io, file, o, ids,
        filter ? [](const RowGroupInfo& g) { return g.index != 1; } : RowGroupKeep());
    while (true) {
      auto b = (*r)->next_batch();
      EXPECT_TRUE(b.ok()) << b.status().to_string();
      if (!b.ok() || !*b) break;
      EXPECT_LE((**b).num_rows, batch_rows);
      canonical_rows(**b, &out.rows);
      for (int64_t k = 0; k < (**b).num_rows; ++k) {
        out.row_numbers.push_back((*r)->batch_first_row() + k);
        out.groups.push_back((*r)->batch_row_group());
      }
    }
    return out;
  };
  {
    auto r = ParquetReader::open(io, path);
    ASSERT_TRUE(r.ok());
    ASSERT_GE((*r)->num_row_groups(), 3);
    ASSERT_GT((*r)->metadata().row_groups[0].num_rows, 4 * 1000);  // several ranges
  }
  std::vector<std::vector<int32_t>> projections = {{}, {3, 1}, {2}, {4, 2, 3}, {5, 1}};
  for (bool filter : {false, true}) {
    for (const auto& ids : projections) {
      for (int64_t batch_rows : {1000, 999}) {
        SCOPED_TRACE(fmt::format("filter {} ids {} batch {}", filter, ids.size(), batch_rows));
        Read one = read(path, 1, ids, filter, batch_rows);
        ASSERT_GE(one.rows.size(), 50000u);
        Read many = read(path, 2, ids, filter, batch_rows);
        EXPECT_EQ(many.rows, one.rows);
        EXPECT_EQ(many.row_numbers, one.row_numbers);
        EXPECT_EQ(many.groups, one.groups);
      }
    }
  }
  // A corrupt page of column `x` in a later range of the first row group: the batches before
  // it, then its error.
  std::string bad = (dir.path / "bad.parquet").string();
  fs::copy_file(path, bad);
  int64_t offset = 0;
  {
    auto r = ParquetReader::open(io, path);
    ASSERT_TRUE(r.ok());
    const ColumnMetaData& m = *(*r)->metadata().row_groups[0].columns[2].meta_data;
    // The body of the data page holding row 6000 (past the first range, rows 0-3999).
    int64_t start = m.dictionary_page_offset.value_or(m.data_page_offset);
    auto chunk = io->read_range(path, start, m.total_compressed_size);
    ASSERT_TRUE(chunk.ok());
    size_t pos = 0;
    int64_t rows = 0;
    while (true) {
      PageHeader h;
      size_t hsize = 0;
      ASSERT_TRUE(decode_page_header(std::string_view(*chunk).substr(pos), &h, &hsize).ok());
      if (h.type == PageType::kDataPage) {
        rows += h.data_page_header->num_values;
        if (rows > 6000) {
          offset = start + static_cast<int64_t>(pos + hsize);
          break;
        }
      }
      pos += hsize + static_cast<size_t>(h.compressed_page_size);
    }
  }
  {
    std::fstream f(bad, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(offset);
    f.write("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 16);
  }
  ReaderOptions two;
  two.threads = 2;
  two.batch_rows = 1000;
  auto r = ParquetReader::open(io, bad, two);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE((*r)->select({3}).ok());
  int64_t good_rows = 0;
  Status error;
  while (true) {
    auto b = (*r)->next_batch();
    if (!b.ok()) {
      error = b.status();
      break;
    }
    ASSERT_TRUE(*b) << "no error at all";
    EXPECT_EQ((*r)->batch_first_row(), good_rows);
    good_rows += (**b).num_rows;
  }
  // The corrupt page holds rows 5600-6299; ranges hold at most 1,000 rows.
  EXPECT_GE(good_rows, 4600);
  EXPECT_LE(good_rows, 6000);
  EXPECT_EQ(error.kind(), ErrorKind::kInvalidData);
  EXPECT_NE(error.to_string().find("bad.parquet"), std::string::npos) << error.to_string();
}

// Pages without nulls add no definition levels to a batch until a page with nulls comes (then
// they are written out). Nulls in only some pages, a struct's child, batches cut inside pages
// (kept tails of either kind), skips, one thread and two: every value and null is the
// generator's.
TEST(ParquetReader, NullsInSomePagesOnly) {
  TempDir dir;
  Schema schema(0, {field(1, "id", Type::int64(), true), field(2, "a", Type::int64(), false),
                    field(3, "b", Type::string(), false),
                    field(4, "s", Type::struct_of({field(5, "c", Type::int32(), false)}), false)});
  auto a_null = [](int64_t i) { return (i >= 3000 && i < 3100) || i % 5000 == 4999; };
  auto c_null = [](int64_t i) { return i >= 9000 && i < 9010; };
  WriterOptions opt;
  opt.page_row_limit = 700;
  opt.row_group_size_bytes = 64 << 10;
  std::string path = (dir.path / "sparse.parquet").string();
  auto io = make_local_file_io();
  {
    auto w = ParquetWriter::open(io, path, schema, opt);
    ASSERT_TRUE(w.ok());
    for (int64_t start = 0; start < 24000; start += 2000) {
      ColumnBatch b = ColumnBatch::make(schema.fields());
      for (int64_t i = start; i < start + 2000; ++i) {
        b.columns[0]->append_fixed<int64_t>(i);
        if (a_null(i)) {
          b.columns[1]->append_null();
        } else {
          b.columns[1]->append_fixed<int64_t>(i * 3);
        }
        b.columns[2]->append_bytes(fmt::format("b{}", i));
        if (c_null(i)) {
          b.columns[3]->child(0).append_null();
        } else {
          b.columns[3]->child(0).append_fixed<int32_t>(static_cast<int32_t>(i));
        }
        b.columns[3]->append_struct();
      }
      b.num_rows = 2000;
      ASSERT_TRUE((*w)->write(b).ok());
    }
    ASSERT_TRUE((*w)->close().ok());
  }
  for (int threads : {1, 2}) {
    for (int64_t batch_rows : {0, 1, 7, 999, 1000, 4096}) {
      SCOPED_TRACE(fmt::format("threads {} batch {}", threads, batch_rows));
      ReaderOptions o;
      o.threads = threads;
      o.batch_rows = batch_rows;
      auto r = ParquetReader::open(io, path, o);
      ASSERT_TRUE(r.ok());
      int64_t next = 0;
      while (true) {
        auto b = (*r)->next_batch();
        ASSERT_TRUE(b.ok()) << b.status().to_string();
        if (!*b) break;
        const ColumnBatch& batch = **b;
        const int64_t* ids = batch.columns[0]->raw<int64_t>();
        const ColumnVector& a = *batch.columns[1];
        const ColumnVector& c = batch.columns[3]->child(0);
        for (int64_t k = 0; k < batch.num_rows; ++k) {
          int64_t i = ids[k];
          ASSERT_EQ(i, next++);
          ASSERT_EQ(a.is_null(k), a_null(i)) << i;
          if (!a_null(i)) {
            ASSERT_EQ(a.raw<int64_t>()[k], i * 3) << i;
          }
          ASSERT_FALSE(batch.columns[2]->is_null(k));
          ASSERT_EQ(batch.columns[2]->bytes_at(k), fmt::format("b{}", i));
          ASSERT_FALSE(batch.columns[3]->is_null(k));
          ASSERT_EQ(c.is_null(k), c_null(i)) << i;
          if (!c_null(i)) {
            ASSERT_EQ(c.raw<int32_t>()[k], static_cast<int32_t>(i)) << i;
          }
        }
      }
      EXPECT_EQ(next, 24000);
    }
  }
}

TEST(ParquetReader, ProjectionByFieldId) {
  TempDir dir;
  std::string path = write_sample(dir.path, 100);
  auto reader = ParquetReader::open(make_local_file_io(), path);
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE((*reader)->select({2}).ok());
  auto b = (*reader)->read_row_group(0);
  ASSERT_TRUE(b.ok());
  ASSERT_EQ(b->columns.size(), 1u);
  EXPECT_EQ(b->fields[0].id, 2);
  EXPECT_EQ(b->columns[0]->bytes_at(1), "value-000001");
  EXPECT_TRUE(b->columns[0]->is_null(0));
}

TEST(ParquetReader, NameMappingGivesIdsToFilesWithoutThem) {
  fs::path dir = fs::path(FLOE_FIXTURES_DIR) / "duckdb-iceberg/name_mapping/data";
  std::string file;
  for (const auto& e : fs::directory_iterator(dir)) file = e.path().string();
  ASSERT_FALSE(file.empty());
  auto io = make_local_file_io();
  auto plain = ParquetReader::open(io, file);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ((*plain)->id_source(), IdSource::kPosition);
  EXPECT_EQ((*plain)->schema().fields()[1].id, 2);
  ReaderOptions o;
  o.name_mapping = R"([{"field-id": 1, "names": ["a"]}, {"field-id": 3, "names": ["b", "B"]}])";
  auto mapped = ParquetReader::open(io, file, o);
  ASSERT_TRUE(mapped.ok()) << mapped.status().to_string();
  EXPECT_EQ((*mapped)->id_source(), IdSource::kNameMapping);
  ASSERT_NE((*mapped)->schema().find_field(3), nullptr);
  EXPECT_EQ((*mapped)->schema().find_field(3)->name, "b");
  ASSERT_TRUE((*mapped)->select({3}).ok());
  auto b = (*mapped)->read_row_group(0);
  ASSERT_TRUE(b.ok());
  ASSERT_EQ(b->columns.size(), 1u);
  EXPECT_EQ(b->fields[0].name, "b");
  // An unmapped column is invisible to projection by table ids.
  o.name_mapping = R"({"type": "struct", "fields": [{"field-id": 1, "names": ["a"]}]})";
  auto partial = ParquetReader::open(io, file, o);
  ASSERT_TRUE(partial.ok());
  ASSERT_TRUE((*partial)->select({1, 2, 3}).ok());
  EXPECT_EQ((*partial)->output_fields().size(), 1u);
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

Status read_all(const std::string& path) {
  auto b = read_parquet_file(make_local_file_io(), path);
  return b.status();
}

TEST(ParquetReader, CorruptFilesFailWithAClearErrorNamingTheFile) {
  TempDir dir;
  std::string good = read_bytes(write_sample(dir.path, 3000));
  std::string path = (dir.path / "bad.parquet").string();
  auto expect_error = [&](const std::string& bytes, const char* what) {
    write_bytes(path, bytes);
    Status st = read_all(path);
    EXPECT_FALSE(st.ok()) << what;
    EXPECT_EQ(st.kind(), ErrorKind::kInvalidData) << what << ": " << st.to_string();
    EXPECT_NE(st.message().find("bad.parquet"), std::string::npos) << st.to_string();
    EXPECT_NE(st.message().find(what), std::string::npos) << st.to_string();
  };
  std::string b = good;
  b[b.size() - 1] = 'X';
  expect_error(b, "bad magic");
  b = good;
  uint32_t huge = 0x7fffffff;
  std::memcpy(b.data() + b.size() - 8, &huge, 4);
  expect_error(b, "footer length");
  b = good;
  uint32_t flen;
  std::memcpy(&flen, good.data() + good.size() - 8, 4);
  for (size_t i = b.size() - 8 - flen; i < b.size() - 8; ++i) b[i] = static_cast<char>(0xfc);
  expect_error(b, "footer");
  // Corrupt the first page body: the zstd frame no longer decodes.
  b = good;
  for (size_t i = 30; i < 60; ++i) b[i] = static_cast<char>(b[i] ^ 0x5a);
  write_bytes(path, b);
  Status st = read_all(path);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("bad.parquet"), std::string::npos) << st.to_string();
  expect_error("PAR1", "too short");
  // Random damage anywhere never crashes or over-reads.
  std::mt19937 rng(7);
  int failures = 0;
  for (int round = 0; round < 300; ++round) {
    b = good;
    int flips = 1 + static_cast<int>(rng() % 8);
    for (int k = 0; k < flips; ++k) b[rng() % b.size()] = static_cast<char>(rng());
    write_bytes(path, b);
    failures += !read_all(path).ok();
  }
  EXPECT_GT(failures, 0);
}

}  // namespace
}  // namespace floe::parquet
