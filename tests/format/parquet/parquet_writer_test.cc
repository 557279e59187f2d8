// Files floe writes (every type, nulls, nested columns, every codec) read back equal by floe,
// DuckDB and hyparquet, with field ids where DuckDB's parquet_schema() shows them; and the
// Iceberg metrics the writer reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "floe/format/parquet/reader.h"
#include "floe/format/parquet/writer.h"
#include "floe/util/thread_pool.h"
#include "format/parquet/encoding_internal.h"
#include "format/parquet/parquet_test_util.h"
#include "forwarding_file_io.h"

namespace floe::parquet {
namespace {

namespace fs = std::filesystem;
using test_support::field;
using test_support::TempDir;
using testing::canonical_rows;
using testing::oracle_dir;
using testing::run_command;
using testing::shell_quote;

Schema all_types_schema() {
  std::vector<NestedField> f = {
      field(1, "id", Type::int32(), true),
      field(2, "b", Type::boolean(), false),
      field(3, "i", Type::int32(), false),
      field(4, "l", Type::int64(), false),
      field(5, "f", Type::float32(), false),
      field(6, "d", Type::float64(), false),
      field(7, "dec9", Type::decimal(9, 2), false),
      field(8, "dec18", Type::decimal(18, 4), false),
      field(9, "dec38", Type::decimal(38, 10), false),
      field(10, "date", Type::date(), false),
      field(11, "time", Type::time(), false),
      field(12, "ts", Type::timestamp(), false),
      field(13, "tstz", Type::timestamptz(), false),
      field(14, "tsns", Type::timestamp_ns(), false),
      field(15, "s", Type::string(), false),
      field(16, "u", Type::uuid(), false),
      field(17, "fx", Type::fixed(5), false),
      field(18, "bin", Type::binary(), false),
      field(19, "st",
            Type::struct_of(
                {field(20, "a", Type::int32(), false), field(21, "c", Type::string(), false)}),
            false),
      field(22, "li", Type::list_of(23, Type::int64(), false), false),
      field(24, "ls",
            Type::list_of(25, Type::struct_of({field(26, "x", Type::int64(), false)}), true),
            false),
      field(27, "m", Type::map_of(28, Type::string(), 29, Type::int32(), false), false),
      field(30, "lowcard", Type::string(), false),
  };
  return Schema(0, f);
}

ColumnBatch all_types_batch(const Schema& schema, int64_t rows, uint64_t seed) {
  ColumnBatch b = ColumnBatch::make(schema.fields());
  b.num_rows = rows;
  std::mt19937_64 rng(seed);
  auto col = [&](int i) -> ColumnVector& { return *b.columns[i]; };
  for (int64_t r = 0; r < rows; ++r) {
    bool null = r % 7 == 3;
    col(0).append_fixed<int32_t>(static_cast<int32_t>(r));
    auto maybe = [&](int c, auto fn) {
      if (null) {
        col(c).append_null();
      } else {
        fn(col(c));
      }
    };
    int64_t x = static_cast<int64_t>(rng());
    maybe(1, [&](ColumnVector& c) { c.append_bool(x & 1); });
    maybe(2, [&](ColumnVector& c) { c.append_fixed<int32_t>(static_cast<int32_t>(x)); });
    maybe(3, [&](ColumnVector& c) { c.append_fixed<int64_t>(x); });
    maybe(4, [&](ColumnVector& c) {
      c.append_fixed<float>(r % 11 == 5 ? NAN : static_cast<float>(x % 100000) / 7.0f);
    });
    maybe(5, [&](ColumnVector& c) {
      c.append_fixed<double>(r % 13 == 2 ? -0.0 : static_cast<double>(x % 1000000) / 3.0);
    });
    maybe(6, [&](ColumnVector& c) { c.append_fixed<int128_t>(x % 999999999); });
    maybe(7, [&](ColumnVector& c) { c.append_fixed<int128_t>(x % 999999999999999999LL); });
    maybe(8, [&](ColumnVector& c) {
      int128_t v = static_cast<int128_t>(x) * 1000000000000LL + (r * 7919);
      c.append_fixed<int128_t>(v);
    });
    maybe(9, [&](ColumnVector& c) {
      c.append_fixed<int32_t>(static_cast<int32_t>(x % 40000) - 20000);
    });
    maybe(10,
          [&](ColumnVector& c) { c.append_fixed<int64_t>((x & 0x7fffffffffff) % 86400000000LL); });
    maybe(11, [&](ColumnVector& c) { c.append_fixed<int64_t>(x % 4000000000000000LL); });
    maybe(12, [&](ColumnVector& c) { c.append_fixed<int64_t>(x % 4000000000000000LL); });
    maybe(13, [&](ColumnVector& c) { c.append_fixed<int64_t>(x % 4000000000000000000LL); });
    maybe(14, [&](ColumnVector& c) {
      c.append_bytes(fmt::format("str-{}-\xc3\xa9\xe2\x82\xac-{}", r, x % 1000));
    });
    maybe(15, [&](ColumnVector& c) {
      std::string u(16, '\0');
      for (int k = 0; k < 16; ++k) u[k] = static_cast<char>(rng());
      c.append_bytes(u);
    });
    maybe(16, [&](ColumnVector& c) { c.append_bytes(std::string("\x00\x01\xff", 3) + "ab"); });
    maybe(17,
          [&](ColumnVector& c) { c.append_bytes(std::string(static_cast<size_t>(r % 9), 'z')); });
    // struct<a int, c string>: null struct, or fields that are sometimes null
    if (null) {
      col(18).append_null();
    } else {
      ColumnVector& st = col(18);
      if (r % 5 == 1) {
        st.child(0).append_null();
      } else {
        st.child(0).append_fixed<int32_t>(static_cast<int32_t>(r));
      }
      st.child(1).append_bytes(fmt::format("c{}", r % 3));
      st.append_struct();
    }
    // list<long>: null list, empty list, or 1..3 elements with a null element
    if (null) {
      col(19).append_null();
    } else {
      int n = static_cast<int>(r % 4);
      for (int k = 0; k < n; ++k) {
        if (k == 1 && r % 3 == 0) {
          col(19).child(0).append_null();
        } else {
          col(19).child(0).append_fixed<int64_t>(r * 10 + k);
        }
      }
      col(19).append_list(n);
    }
    // list<struct<x long>> with required elements
    if (null) {
      col(20).append_null();
    } else {
      int n = static_cast<int>(r % 3);
      ColumnVector& e = col(20).child(0);
      for (int k = 0; k < n; ++k) {
        e.child(0).append_fixed<int64_t>(r + k);
        e.append_struct();
      }
      col(20).append_list(n);
    }
    // map<string, int>
    if (null) {
      col(21).append_null();
    } else {
      int n = static_cast<int>(r % 3);
      for (int k = 0; k < n; ++k) {
        col(21).child(0).append_bytes(fmt::format("k{}", k));
        if (k == 1) {
          col(21).child(1).append_null();
        } else {
          col(21).child(1).append_fixed<int32_t>(static_cast<int32_t>(r + k));
        }
      }
      col(21).append_list(n);
    }
    maybe(22, [&](ColumnVector& c) {
      c.append_bytes(r % 3 == 0 ? "red" : r % 3 == 1 ? "green" : "blue");
    });
  }
  return b;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    out.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return out;
}

// Decimals: hyparquet gives doubles, so a string and a number compare as numbers.
bool loosely_equal(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.is_string() && b.is_number()) return loosely_equal(b, a);
  if (a.is_number() && b.is_string()) {
    double x = a.get<double>(), y = std::stod(b.get<std::string>());
    return std::fabs(x - y) <= 1e-9 * std::max(1.0, std::fabs(y));
  }
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!loosely_equal(a[i], b[i])) return false;
    }
    return true;
  }
  if (a.is_object() && b.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      if (!b.contains(it.key()) || !loosely_equal(it.value(), b[it.key()])) return false;
    }
    return true;
  }
  return a == b;
}

void expect_same_rows(const std::vector<std::string>& want, const std::vector<std::string>& got,
                      const std::string& who, bool loose = false) {
  ASSERT_EQ(got.size(), want.size()) << who;
  int shown = 0;
  for (size_t i = 0; i < want.size() && shown < 3; ++i) {
    auto w = nlohmann::json::parse(want[i], nullptr, false);
    auto g = nlohmann::json::parse(got[i], nullptr, false);
    bool same = !w.is_discarded() && !g.is_discarded() && (loose ? loosely_equal(w, g) : w == g);
    if (!same) {
      ADD_FAILURE() << who << " row " << i << "\n want: " << want[i] << "\n got:  " << got[i];
      ++shown;
    }
  }
}

// The rows DuckDB reads from `path` (canonical JSON lines) equal `want`.
void expect_duckdb_rows(const std::string& path, const std::vector<std::string>& want) {
  int rc = 0;
  std::string duck = run_command("cd " + shell_quote(oracle_dir()) +
                                     " && node parquet_duckdb.mjs " + shell_quote(path) + " 2>&1",
                                 &rc);
  ASSERT_EQ(rc, 0) << duck.substr(0, 2000);
  std::vector<std::string> dl;
  for (auto& l : lines_of(duck)) {
    if (l.rfind("##", 0) != 0) dl.push_back(l);
  }
  ASSERT_EQ(duck.find("##ERROR"), std::string::npos) << duck.substr(0, 2000);
  expect_same_rows(want, dl, "duckdb");
}

struct CodecCase {
  Codec codec;
  bool dictionary;
  bool delta = false;  // every int and long column DELTA_BINARY_PACKED
};

class ParquetWriterRoundTrip : public ::testing::TestWithParam<CodecCase> {};

TEST_P(ParquetWriterRoundTrip, FloeDuckDBAndHyparquetReadWhatWasWritten) {
  TempDir dir;
  Schema schema = all_types_schema();
  auto io = make_local_file_io();
  WriterOptions opt;
  opt.codec = GetParam().codec;
  opt.dictionary_enabled = GetParam().dictionary;
  if (GetParam().delta) {
    for (int32_t id = 1; id <= 40; ++id) opt.delta_fields.push_back(id);
  }
  opt.row_group_size_bytes = 64 * 1024;  // several row groups
  opt.page_size_bytes = 8 * 1024;        // several pages per chunk
  std::string path = (dir.path / "t.parquet").string();
  auto writer = ParquetWriter::open(io, path, schema, opt);
  ASSERT_TRUE(writer.ok()) << writer.status().to_string();
  std::vector<std::string> want;
  for (int k = 0; k < 3; ++k) {
    ColumnBatch b = all_types_batch(schema, 1000 + k * 250, 42 + k);
    canonical_rows(b, &want);
    ASSERT_TRUE((*writer)->write(b).ok());
  }
  auto metrics = (*writer)->close();
  ASSERT_TRUE(metrics.ok()) << metrics.status().to_string();
  EXPECT_EQ(metrics->record_count, static_cast<int64_t>(want.size()));
  EXPECT_EQ(metrics->file_size, static_cast<int64_t>(fs::file_size(path)));
  EXPECT_GT(metrics->split_offsets.size(), 1u);

  // floe
  auto batches = read_parquet_file(io, path);
  ASSERT_TRUE(batches.ok()) << batches.status().to_string();
  std::vector<std::string> got;
  for (const auto& b : *batches) canonical_rows(b, &got);
  expect_same_rows(want, got, "floe");

  expect_duckdb_rows(path, want);

  // hyparquet: maps come back as objects, decimals as doubles.
  std::vector<std::string> want_h;
  {
    JsonOptions o;
    o.tz_suffix = false;
    o.rows_as_arrays = true;
    for (int k = 0; k < 3; ++k) {
      ColumnBatch b = all_types_batch(schema, 1000 + k * 250, 42 + k);
      for (int64_t r = 0; r < b.num_rows; ++r) {
        std::string line;
        write_row_json(b, r, o, &line);
        want_h.push_back(line);
      }
    }
  }
  int rc = 0;
  std::string hy = run_command("cd " + shell_quote(oracle_dir()) +
                                   " && node parquet_hyparquet.mjs " + shell_quote(path) + " 2>&1",
                               &rc);
  ASSERT_EQ(rc, 0) << hy.substr(0, 2000);
  expect_same_rows(want_h, lines_of(hy), "hyparquet", true);

  // Field ids as DuckDB's parquet_schema() shows them: on every node but list/key_value.
  std::string sch =
      run_command("cd " + shell_quote(oracle_dir()) + " && node parquet_duckdb.mjs --schema " +
                      shell_quote(path) + " 2>&1",
                  &rc);
  ASSERT_EQ(rc, 0) << sch;
  std::map<std::string, std::string> ids;
  int nodes = 0;
  for (auto& l : lines_of(sch)) {
    auto j = nlohmann::json::parse(l);
    std::string name = j["name"];
    ++nodes;
    std::string id = j["field_id"].is_null() ? "" : j["field_id"].get<std::string>();
    if (name == "table" || name == "list" || name == "key_value") {
      EXPECT_EQ(id, "") << name;
    } else {
      EXPECT_NE(id, "") << name;
      ids[name] = id;
    }
  }
  EXPECT_EQ(nodes, 1 + 30 + 3);  // root, 30 fields, 2 list groups + 1 key_value group
  EXPECT_EQ(ids["id"], "1");
  EXPECT_EQ(ids["tstz"], "13");
  EXPECT_EQ(ids["a"], "20");
  EXPECT_EQ(ids["x"], "26");
  EXPECT_EQ(ids["key"], "28");
  EXPECT_EQ(ids["value"], "29");
  EXPECT_EQ(ids["m"], "27");
}

INSTANTIATE_TEST_SUITE_P(
    Codecs, ParquetWriterRoundTrip,
    ::testing::Values(CodecCase{Codec::kZstd, true}, CodecCase{Codec::kZstd, false},
                      CodecCase{Codec::kSnappy, true}, CodecCase{Codec::kGzip, true},
                      CodecCase{Codec::kLz4Raw, false}, CodecCase{Codec::kUncompressed, true},
                      CodecCase{Codec::kZstd, true, true}),
    [](const auto& info) {
      return std::string(codec_name(info.param.codec)) + (info.param.delta        ? "_delta"
                                                          : info.param.dictionary ? "_dict"
                                                                                  : "_plain");
    });

TEST(ParquetWriter, MetricsFollowTheMetricsModes) {
  TempDir dir;
  Schema schema(
      0, {field(1, "id", Type::int64(), true), field(2, "name", Type::string(), false),
          field(3, "score", Type::float64(), false),
          field(4, "tags", Type::list_of(5, Type::string(), false), false),
          field(6, "blob", Type::binary(), false), field(7, "hidden", Type::int32(), false)});
  ColumnBatch b = ColumnBatch::make(schema.fields());
  std::vector<std::string> names = {"iceberg", "apache",
                                    "\xf4\x8f\xbf\xbf\xf4\x8f\xbf\xbf\xf4\x8f\xbf\xbfzz", "zebra"};
  for (int i = 0; i < 4; ++i) {
    b.columns[0]->append_fixed<int64_t>(10 - i);
    b.columns[1]->append_bytes(names[i]);
    if (i == 1) {
      b.columns[2]->append_fixed<double>(NAN);
    } else if (i == 2) {
      b.columns[2]->append_null();
    } else {
      b.columns[2]->append_fixed<double>(i * 1.5);
    }
    b.columns[3]->child(0).append_bytes("t" + std::to_string(i));
    b.columns[3]->append_list(1);
    b.columns[4]->append_bytes(std::string("\x01\xff\xff\xff", 4));
    b.columns[5]->append_fixed<int32_t>(i);
  }
  b.num_rows = 4;
  auto opt = WriterOptions::from_properties({{"write.metadata.metrics.default", "truncate(3)"},
                                             {"write.metadata.metrics.column.hidden", "none"},
                                             {"write.metadata.metrics.column.score", "counts"},
                                             {"write.parquet.compression-codec", "snappy"}},
                                            schema);
  ASSERT_TRUE(opt.ok()) << opt.status().to_string();
  EXPECT_EQ(opt->codec, Codec::kSnappy);
  auto io = make_local_file_io();
  auto w = ParquetWriter::open(io, (dir.path / "m.parquet").string(), schema, *opt);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->write(b).ok());
  auto m = (*w)->close();
  ASSERT_TRUE(m.ok()) << m.status().to_string();
  EXPECT_EQ(m->record_count, 4);
  EXPECT_EQ(m->value_counts[1], 4);
  EXPECT_EQ(m->null_value_counts[1], 0);
  std::string lo_id = *Literal::int64(7).to_bytes(), hi_id = *Literal::int64(10).to_bytes();
  EXPECT_EQ(m->lower_bounds[1], lo_id);
  EXPECT_EQ(m->upper_bounds[1], hi_id);
  // truncate(3): "apache" -> "apa"; max is the U+10FFFF string: every unit overflows -> omitted.
  EXPECT_EQ(m->lower_bounds[2], "apa");
  EXPECT_EQ(m->upper_bounds.count(2), 0u);
  // counts: NaN and nulls counted, no bounds.
  EXPECT_EQ(m->nan_value_counts[3], 1);
  EXPECT_EQ(m->null_value_counts[3], 1);
  EXPECT_EQ(m->lower_bounds.count(3), 0u);
  // No bounds inside lists; counts still.
  EXPECT_EQ(m->value_counts[5], 4);
  EXPECT_EQ(m->lower_bounds.count(5), 0u);
  // binary truncate(3): 01 ff ff ff -> lower 01 ff ff, upper 02.
  EXPECT_EQ(m->lower_bounds[6], std::string("\x01\xff\xff", 3));
  EXPECT_EQ(m->upper_bounds[6], std::string("\x02", 1));
  // none: nothing but the column size.
  EXPECT_EQ(m->value_counts.count(7), 0u);
  EXPECT_GT(m->column_sizes[7], 0);
}

// With threads, pages compress on the pool while encoding goes on, and are appended to their
// chunks in order by whichever job finishes them. The bytes of the file, the row-group cuts and
// the size estimates a table writer rolls files by must not depend on the thread count or on
// which job finished first, for every codec.
TEST(ParquetWriter, ThreadsWriteTheSameFileAndReadTheSameRows) {
  TempDir dir;
  Schema schema = all_types_schema();
  auto io = make_local_file_io();
  // Made first, so that writes follow each other while pages are still compressing.
  std::vector<ColumnBatch> batches;
  std::vector<std::string> want;
  for (int k = 0; k < 12; ++k) {
    batches.push_back(all_types_batch(schema, 300 + k * 50, 7 + k));
    canonical_rows(batches.back(), &want);
  }
  for (std::string codec : {"zstd", "snappy", "gzip", "uncompressed"}) {
    SCOPED_TRACE(codec);
    std::string files[3];
    DataFileMetrics metrics[3];
    std::vector<int64_t> estimates[3];
    for (int t = 0; t < 3; ++t) {
      auto opt =
          WriterOptions::from_properties({{"write.parquet.compression-codec", codec}}, schema);
      ASSERT_TRUE(opt.ok()) << opt.status().to_string();
      opt->threads = t + 1;
      // Row groups of several batches, pages of several per batch.
      opt->row_group_size_bytes = 90 * 1024;
      opt->page_size_bytes = 4 * 1024;
      std::string path = (dir.path / fmt::format("{}-t{}.parquet", codec, t)).string();
      auto writer = ParquetWriter::open(io, path, schema, *opt);
      ASSERT_TRUE(writer.ok()) << writer.status().to_string();
      for (size_t k = 0; k < batches.size(); ++k) {
        ASSERT_TRUE((*writer)->write(batches[k]).ok());
        // Every other batch, as a table writer does after each one.
        if (k % 2 == 1) estimates[t].push_back((*writer)->estimated_size());
      }
      auto m = (*writer)->close();
      ASSERT_TRUE(m.ok()) << m.status().to_string();
      metrics[t] = *m;
      files[t] = *io->read_file(path);
    }
    for (int t = 1; t < 3; ++t) {
      EXPECT_TRUE(files[0] == files[t]) << t + 1 << " threads changed the bytes of the file";
      EXPECT_EQ(estimates[0], estimates[t]) << t + 1 << " threads";
      EXPECT_EQ(metrics[0].split_offsets, metrics[t].split_offsets);
      EXPECT_EQ(metrics[0].column_sizes, metrics[t].column_sizes);
      EXPECT_EQ(metrics[0].lower_bounds, metrics[t].lower_bounds);
      EXPECT_EQ(metrics[0].upper_bounds, metrics[t].upper_bounds);
      EXPECT_EQ(metrics[0].null_value_counts, metrics[t].null_value_counts);
    }
    // The test needs several row groups, of several batches each.
    EXPECT_GT(metrics[0].split_offsets.size(), 2u);
    EXPECT_LT(metrics[0].split_offsets.size(), batches.size() / 2);
    ReaderOptions ro;
    ro.threads = 2;
    auto read =
        read_parquet_file(io, (dir.path / fmt::format("{}-t2.parquet", codec)).string(), ro);
    ASSERT_TRUE(read.ok()) << read.status().to_string();
    std::vector<std::string> got;
    for (const auto& b : *read) canonical_rows(b, &got);
    expect_same_rows(want, got, "floe, 3 threads");
  }
}

// A table write's files share one pool: writes to three files interleave on it, one writer is
// dropped with pages still compressing, and each finished file is the file one thread writes.
TEST(ParquetWriter, WritersSharingAPoolWriteTheFilesOfOneThread) {
  TempDir dir;
  Schema schema = all_types_schema();
  auto io = make_local_file_io();
  std::vector<ColumnBatch> batches;
  for (int k = 0; k < 8; ++k) batches.push_back(all_types_batch(schema, 400 + k * 30, 11 + k));
  auto options = [&](std::shared_ptr<ThreadPool> pool) {
    auto opt = WriterOptions::from_properties({}, schema);
    EXPECT_TRUE(opt.ok());
    opt->row_group_size_bytes = 60 * 1024;
    opt->page_size_bytes = 4 * 1024;
    opt->pool = std::move(pool);
    return *opt;
  };
  auto path = [&](const std::string& name) { return (dir.path / name).string(); };
  // What one thread writes: file f gets the batches k with k % 3 == f.
  std::string alone[3];
  for (int f = 0; f < 3; ++f) {
    auto w =
        ParquetWriter::open(io, path(fmt::format("alone-{}.parquet", f)), schema, options(nullptr));
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    for (size_t k = f; k < batches.size(); k += 3) ASSERT_TRUE((*w)->write(batches[k]).ok());
    ASSERT_TRUE((*w)->close().ok());
    alone[f] = *io->read_file(path(fmt::format("alone-{}.parquet", f)));
  }
  auto pool = std::make_shared<ThreadPool>(3);
  std::unique_ptr<ParquetWriter> writers[3];
  for (int f = 0; f < 3; ++f) {
    auto w =
        ParquetWriter::open(io, path(fmt::format("shared-{}.parquet", f)), schema, options(pool));
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    writers[f] = std::move(*w);
  }
  {
    // Dropped before close: it waits for its jobs, while the others go on with theirs.
    auto dropped = ParquetWriter::open(io, path("dropped.parquet"), schema, options(pool));
    ASSERT_TRUE(dropped.ok()) << dropped.status().to_string();
    for (const auto& b : batches) ASSERT_TRUE((*dropped)->write(b).ok());
  }
  for (size_t k = 0; k < batches.size(); ++k) {
    ASSERT_TRUE(writers[k % 3]->write(batches[k]).ok());
  }
  for (int f = 0; f < 3; ++f) {
    auto m = writers[f]->close();
    ASSERT_TRUE(m.ok()) << m.status().to_string();
    EXPECT_GT(m->split_offsets.size(), 1u) << "file " << f << " needs several row groups";
    EXPECT_TRUE(*io->read_file(path(fmt::format("shared-{}.parquet", f))) == alone[f])
        << "file " << f << " differs from the one written on one thread";
  }
  for (auto& w : writers) w.reset();
  // The pool outlives its writers and still runs work.
  std::atomic<int> ran{0};
  EXPECT_TRUE(pool->parallel_for(4,
                                 [&](size_t) {
                                   ++ran;
                                   return Status::OK();
                                 })
                  .ok());
  EXPECT_EQ(ran.load(), 4);
}

// A FileIO whose output streams fail the write that would pass `limit` bytes.
class FailingStreamIO : public test_support::ForwardingFileIO {
 public:
  FailingStreamIO(FileIOPtr inner, int64_t limit)
      : ForwardingFileIO(std::move(inner)), limit_(limit) {}
  Result<std::unique_ptr<OutputStream>> open_output(std::string_view p, WriteMode m) override {
    struct Stream : OutputStream {
      std::unique_ptr<OutputStream> inner;
      int64_t limit = 0;
      Status write(std::string_view d) override {
        if (position_ + static_cast<int64_t>(d.size()) > limit) {
          return Status(ErrorKind::kIo, "disk full");
        }
        position_ += static_cast<int64_t>(d.size());
        return inner->write(d);
      }
      Status close() override { return inner->close(); }
    };
    auto s = std::make_unique<Stream>();
    s->inner = FLOE_TRY(inner_->open_output(p, m));
    s->limit = limit_;
    return std::unique_ptr<OutputStream>(std::move(s));
  }

 private:
  int64_t limit_;
};

// A write of the file that fails in a middle row group (on 2 threads, inside the job that
// writes it while the next one fills) fails the writer with that error, and leaves no file.
TEST(ParquetWriter, FailedFileWritesFailTheWriterOnAnyThreads) {
  TempDir dir;
  Schema schema(0, {field(1, "id", Type::int64(), true), field(2, "s", Type::string(), false)});
  for (int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    auto io = std::make_shared<FailingStreamIO>(make_local_file_io(), 3 << 20);
    WriterOptions opt;
    opt.threads = threads;
    opt.codec = Codec::kUncompressed;
    opt.row_group_size_bytes = 1 << 20;
    std::string path = (dir.path / fmt::format("t{}.parquet", threads)).string();
    auto writer = ParquetWriter::open(io, path, schema, opt);
    ASSERT_TRUE(writer.ok()) << writer.status().to_string();
    Status failed;
    for (int k = 0; k < 40 && failed.ok(); ++k) {
      ColumnBatch b = ColumnBatch::make(schema.fields());
      for (int64_t r = 0; r < 10000; ++r) {
        b.columns[0]->append_fixed<int64_t>(k * 10000 + r);
        b.columns[1]->append_bytes(fmt::format("row-{:012}", k * 10000 + r));
      }
      b.num_rows = 10000;
      failed = (*writer)->write(b);
    }
    if (failed.ok()) failed = (*writer)->close().status();
    EXPECT_EQ(failed.kind(), ErrorKind::kIo) << failed.to_string();
    EXPECT_NE(failed.to_string().find("disk full"), std::string::npos) << failed.to_string();
    writer->reset();
    EXPECT_FALSE(fs::exists(path));
  }
}

// One batch whose pages outrun compression: the encoder queues at most 16 MB of pages, then
// compresses pages itself. The file is the one a single thread writes.
TEST(ParquetWriter, ThreadsBoundThePagesWaitingForCompression) {
  TempDir dir;
  Schema schema(0, {field(1, "id", Type::int64(), true), field(2, "s", Type::string(), false)});
  ColumnBatch b = ColumnBatch::make(schema.fields());
  std::mt19937_64 rng(3);
  const int64_t rows = 300000;
  for (int64_t r = 0; r < rows; ++r) {
    b.columns[0]->append_fixed<int64_t>(r);
    b.columns[1]->append_bytes(fmt::format("{:032x}{:032x}", rng(), rng()));  // 64 bytes
  }
  b.num_rows = rows;
  auto io = make_local_file_io();
  std::string files[2];
  for (int t = 0; t < 2; ++t) {
    WriterOptions opt;
    opt.threads = t + 1;
    std::string path = (dir.path / fmt::format("t{}.parquet", t)).string();
    auto writer = ParquetWriter::open(io, path, schema, opt);
    ASSERT_TRUE(writer.ok()) << writer.status().to_string();
    ASSERT_TRUE((*writer)->write(b).ok());
    auto m = (*writer)->close();
    ASSERT_TRUE(m.ok()) << m.status().to_string();
    EXPECT_EQ(m->record_count, rows);
    files[t] = *io->read_file(path);
  }
  EXPECT_TRUE(files[0] == files[1]) << "threads changed the bytes of the file";
  auto batches = read_parquet_file(io, (dir.path / "t1.parquet").string());
  ASSERT_TRUE(batches.ok()) << batches.status().to_string();
  int64_t n = 0;
  for (const auto& got : *batches) {
    for (int64_t i = 0; i < got.num_rows; ++i, ++n) {
      ASSERT_EQ(got.columns[0]->raw<int64_t>()[i], n);
      ASSERT_EQ(got.columns[1]->bytes_at(i), b.columns[1]->bytes_at(n));
    }
  }
  EXPECT_EQ(n, rows);
}

// Bounds of byte columns in unsigned byte order, across pages, with values that tie on their
// first 8 bytes, are shorter than 8 bytes, empty, or hold bytes >= 0x80.
TEST(ParquetWriter, ByteBoundsFollowUnsignedByteOrder) {
  TempDir dir;
  Schema schema(0, {field(1, "s", Type::string(), false), field(2, "b", Type::binary(), false),
                    field(3, "fx", Type::fixed(9), false)});
  std::vector<std::string> pool = {
      "abcdefgh", "abcdefgh\x01",        "abcdefgg\xff", "abcdefghz",  "abc",       "ab",
      "b",        std::string("a\0", 2), "\x7f\x7f",     "zzzzzzzzzz", "zzzzzzzzzy"};
  std::vector<std::string> fixed = {std::string("abcdefgh\x00", 9), "abcdefgh\x80", "abcdefgg\xff",
                                    std::string("\0\0\0\0\0\0\0\0\x01", 9),
                                    "\xff\xff\xff\xff\xff\xff\xff\xff\xfe"};
  ColumnBatch b = ColumnBatch::make(schema.fields());
  std::mt19937_64 rng(5);
  std::string smin, smax, fmin, fmax;
  const int64_t rows = 5000;
  for (int64_t r = 0; r < rows; ++r) {
    std::string s = pool[rng() % pool.size()] + std::string(rng() % 3, 'q');
    if (r == 4321) s = "\xc3\xa9t\xc3\xa9";  // the largest, in one page only
    if (r == 1234) s = "";                   // the smallest
    std::string f = fixed[rng() % fixed.size()];
    b.columns[0]->append_bytes(s);
    b.columns[1]->append_bytes(s);
    b.columns[2]->append_bytes(f);
    if (r == 0 || s < smin) smin = s;
    if (r == 0 || s > smax) smax = s;
    if (r == 0 || f < fmin) fmin = f;
    if (r == 0 || f > fmax) fmax = f;
  }
  b.num_rows = rows;
  ASSERT_EQ(smin, "");
  ASSERT_EQ(smax, "\xc3\xa9t\xc3\xa9");
  WriterOptions opt;
  opt.metrics.default_mode = MetricsMode{MetricsMode::kFull, 0};
  opt.page_size_bytes = 4096;
  for (bool dict : {true, false}) {
    opt.dictionary_enabled = dict;
    std::string path = (dir.path / fmt::format("b{}.parquet", dict)).string();
    auto io = make_local_file_io();
    auto w = ParquetWriter::open(io, path, schema, opt);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->write(b).ok());
    auto m = (*w)->close();
    ASSERT_TRUE(m.ok()) << m.status().to_string();
    EXPECT_EQ(m->lower_bounds[1], smin);
    EXPECT_EQ(m->upper_bounds[1], smax);
    EXPECT_EQ(m->lower_bounds[2], smin);
    EXPECT_EQ(m->upper_bounds[2], smax);
    EXPECT_EQ(m->lower_bounds[3], fmin);
    EXPECT_EQ(m->upper_bounds[3], fmax);
    auto batches = read_parquet_file(io, path);
    ASSERT_TRUE(batches.ok());
    std::vector<std::string> want, got;
    canonical_rows(b, &want);
    for (const auto& x : *batches) canonical_rows(x, &got);
    EXPECT_EQ(got, want);
  }
}

// Writes `b` alone with the default options, checks that every column chunk of the file is
// dictionary-encoded and that floe reads the rows back, and returns them.
std::vector<std::string> write_dictionary_file(const std::string& path, const Schema& schema,
                                               const ColumnBatch& b) {
  auto io = make_local_file_io();
  auto w = ParquetWriter::open(io, path, schema, WriterOptions{});
  EXPECT_TRUE(w.ok());
  if (!w.ok()) return {};
  EXPECT_TRUE((*w)->write(b).ok());
  EXPECT_TRUE((*w)->close().ok());
  auto reader = ParquetReader::open(io, path);
  EXPECT_TRUE(reader.ok());
  if (!reader.ok()) return {};
  for (const auto& rg : (*reader)->metadata().row_groups) {
    for (const auto& c : rg.columns) {
      EXPECT_TRUE(c.meta_data->dictionary_page_offset.has_value())
          << c.meta_data->path_in_schema[0];
    }
  }
  std::vector<std::string> want, got;
  canonical_rows(b, &want);
  auto batches = read_parquet_file(io, path);
  EXPECT_TRUE(batches.ok());
  if (batches.ok()) {
    for (const auto& x : *batches) canonical_rows(x, &got);
  }
  EXPECT_EQ(got, want);
  return want;
}

// Dictionaries far larger than the cache (tens of thousands of 4- and 8-byte values) keep
// their values and order, read by floe and by DuckDB.
TEST(ParquetWriter, LargeDictionariesRoundTrip) {
  TempDir dir;
  Schema schema(0, {field(1, "l", Type::int64(), true), field(2, "d", Type::float64(), false),
                    field(3, "i", Type::int32(), false)});
  ColumnBatch b = ColumnBatch::make(schema.fields());
  std::mt19937_64 rng(9);
  const int64_t rows = 150000;
  for (int64_t r = 0; r < rows; ++r) {
    uint64_t x = rng();
    b.columns[0]->append_fixed<int64_t>(static_cast<int64_t>(x % 40000) * 1000003 - 7);
    if (r % 13 == 0) {
      b.columns[1]->append_null();
    } else {
      b.columns[1]->append_fixed<double>(static_cast<double>((x >> 20) % 50000) / 8.0 - 100);
    }
    b.columns[2]->append_fixed<int32_t>(static_cast<int32_t>((x >> 40) % 60000) - 30000);
  }
  b.num_rows = rows;
  std::string path = (dir.path / "dict.parquet").string();
  std::vector<std::string> want = write_dictionary_file(path, schema, b);
  expect_duckdb_rows(path, want);
}

// A chunk of one page keeps its dictionary only when the dictionary and the indices take fewer
// bytes than the plain values (parquet-mr's rule): a position delete file's 500 distinct
// positions are written plain, its one repeated path and a column of three values keep theirs.
TEST(ParquetWriter, OnePageChunksKeepADictionaryOnlyWhenItIsSmaller) {
  TempDir dir;
  Schema schema(0, {field(1, "file_path", Type::string(), true),
                    field(2, "pos", Type::int64(), true), field(3, "kind", Type::int32(), true)});
  ColumnBatch b = ColumnBatch::make(schema.fields());
  const int64_t rows = 500;
  for (int64_t r = 0; r < rows; ++r) {
    b.columns[0]->append_bytes("s3://bucket/warehouse/db/t/data/00000-0-data.parquet");
    b.columns[1]->append_fixed<int64_t>(r * 1999 + 7);
    b.columns[2]->append_fixed<int32_t>(static_cast<int32_t>(r % 3));
  }
  b.num_rows = rows;
  std::string path = (dir.path / "small.parquet").string();
  auto io = make_local_file_io();
  auto w = ParquetWriter::open(io, path, schema, WriterOptions{});
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->write(b).ok());
  ASSERT_TRUE((*w)->close().ok());
  auto reader = ParquetReader::open(io, path);
  ASSERT_TRUE(reader.ok());
  ASSERT_EQ((*reader)->metadata().row_groups.size(), 1u);
  std::map<std::string, bool> dictionary;
  for (const auto& c : (*reader)->metadata().row_groups[0].columns) {
    const bool has = c.meta_data->dictionary_page_offset.has_value();
    dictionary[c.meta_data->path_in_schema[0]] = has;
    const auto& e = c.meta_data->encodings;
    EXPECT_EQ(std::find(e.begin(), e.end(), Encoding::kRleDictionary) != e.end(), has);
  }
  EXPECT_EQ(dictionary,
            (std::map<std::string, bool>{{"file_path", true}, {"pos", false}, {"kind", true}}));
  std::vector<std::string> want, got;
  canonical_rows(b, &want);
  auto batches = read_parquet_file(io, path);
  ASSERT_TRUE(batches.ok());
  for (const auto& x : *batches) canonical_rows(x, &got);
  EXPECT_EQ(got, want);
  expect_duckdb_rows(path, want);
}

// Byte dictionaries compare keys of up to 16 bytes as two overlapping words: keys of every
// length from 0 to 20 that differ in one byte only, at each position, stay distinct entries,
// and a string and a fixed column keep every value.
TEST(ParquetWriter, ByteDictionariesKeepKeysThatDifferInOneByte) {
  TempDir dir;
  Schema schema(0, {field(1, "s", Type::string(), false), field(2, "fx", Type::fixed(7), false)});
  std::vector<std::string> keys;
  for (size_t len = 0; len <= 20; ++len) {
    std::string base(len, 'k');
    keys.push_back(base);
    for (size_t at = 0; at < len; ++at) {
      for (char c : {'j', 'l', '\x80'}) {
        std::string k = base;
        k[at] = c;
        keys.push_back(k);
      }
    }
  }
  std::vector<std::string> fixed;
  for (size_t at = 0; at < 7; ++at) {
    for (int c = 0; c < 4; ++c) {
      std::string k(7, '\0');
      k[at] = static_cast<char>(c);
      fixed.push_back(k);
    }
  }
  ColumnBatch b = ColumnBatch::make(schema.fields());
  const int64_t rows = 20000;
  std::mt19937_64 rng(11);
  for (int64_t r = 0; r < rows; ++r) {
    b.columns[0]->append_bytes(keys[rng() % keys.size()]);
    b.columns[1]->append_bytes(fixed[rng() % fixed.size()]);
  }
  b.num_rows = rows;
  write_dictionary_file((dir.path / "keys.parquet").string(), schema, b);
}

// The file appears only when the writer closes; a writer dropped unclosed leaves nothing. Row
// groups of 1.5 MB: column chunks span the writer's 1 MB blocks, pages straddle them.
TEST(ParquetWriter, FileAppearsOnClose) {
  TempDir dir;
  Schema schema(0, {field(1, "id", Type::int64(), true)});
  std::vector<ColumnBatch> batches_in;
  for (int64_t r = 0; r < 600000; ++r) {
    if (r % 10000 == 0) batches_in.push_back(ColumnBatch::make(schema.fields()));
    batches_in.back().columns[0]->append_fixed<int64_t>(r * 7919 % 1000003);
    ++batches_in.back().num_rows;
  }
  auto io = make_local_file_io();
  WriterOptions opt;
  opt.row_group_size_bytes = 1536 * 1024;  // row groups reach the file before close
  opt.dictionary_enabled = false;
  opt.codec = Codec::kUncompressed;
  std::string dropped = (dir.path / "dropped.parquet").string();
  {
    auto w = ParquetWriter::open(io, dropped, schema, opt);
    ASSERT_TRUE(w.ok());
    for (const auto& b : batches_in) ASSERT_TRUE((*w)->write(b).ok());
    EXPECT_GT((*w)->estimated_size(), 4800000);
  }
  std::string path = (dir.path / "kept.parquet").string();
  auto w = ParquetWriter::open(io, path, schema, opt);
  ASSERT_TRUE(w.ok());
  for (const auto& b : batches_in) ASSERT_TRUE((*w)->write(b).ok());
  EXPECT_FALSE(fs::exists(path));
  auto m = (*w)->close();
  ASSERT_TRUE(m.ok()) << m.status().to_string();
  EXPECT_EQ(m->file_size, static_cast<int64_t>(fs::file_size(path)));
  EXPECT_EQ(m->split_offsets.size(), 3u);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir.path)) names.push_back(e.path().filename());
  EXPECT_EQ(names, std::vector<std::string>{"kept.parquet"});
  auto batches = read_parquet_file(io, path);
  ASSERT_TRUE(batches.ok());
  int64_t n = 0;
  for (const auto& x : *batches) {
    for (int64_t i = 0; i < x.num_rows; ++i, ++n) {
      ASSERT_EQ(x.columns[0]->raw<int64_t>()[i], n * 7919 % 1000003) << n;
    }
  }
  EXPECT_EQ(n, 600000);
}

// The RLE / bit-packed hybrid the writer uses for levels and dictionary indices decodes to the
// values encoded: runs shorter and longer than 8, runs that start inside a bit-packed group,
// every bit width, and the run layout (RLE runs only where 8 or more equal values align).
TEST(ParquetWriter, RleHybridRoundTrips) {
  std::mt19937_64 rng(3);
  for (int bw = 1; bw <= 24; ++bw) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<uint32_t> v;
      int64_t n = static_cast<int64_t>(rng() % 3000);
      uint32_t max = bw >= 32 ? 0xFFFFFFFFu : (1u << bw) - 1;
      while (static_cast<int64_t>(v.size()) < n) {
        uint32_t x = static_cast<uint32_t>(rng()) & max;
        int64_t run = rng() % 4 == 0 ? static_cast<int64_t>(rng() % 40) : 1;
        for (int64_t k = 0; k < run && static_cast<int64_t>(v.size()) < n; ++k) v.push_back(x);
      }
      std::string enc;
      internal::encode_rle(v.data(), n, bw, &enc);
      std::vector<uint32_t> back(static_cast<size_t>(n) + 1, 7);
      internal::RleDecoder d(reinterpret_cast<const uint8_t*>(enc.data()), enc.size(), bw);
      ASSERT_EQ(d.get(back.data(), n), n) << bw;
      back.pop_back();
      ASSERT_EQ(back, v) << "bit width " << bw << ", trial " << trial;
    }
  }
  // 3 distinct values then 20 equal ones: 5 of them complete the bit-packed group of 8, the
  // other 15 are one RLE run. Bit width 2: header 0x03, 2 bytes of packed values; header 0x1e,
  // value byte.
  std::vector<int16_t> levels = {0, 1, 2};
  levels.insert(levels.end(), 20, int16_t{1});
  std::string enc;
  internal::encode_rle(levels.data(), static_cast<int64_t>(levels.size()), 2, &enc);
  EXPECT_EQ(enc, std::string("\x03\x64\x55\x1e\x01", 5));
  // All-valid definition levels: one RLE run.
  std::vector<int16_t> ones(20000, 1);
  enc.clear();
  internal::encode_rle(ones.data(), 20000, 1, &enc);
  EXPECT_EQ(enc, std::string("\xc0\xb8\x02\x01", 4));
}

// DELTA_BINARY_PACKED as the writer encodes it and floe decodes it: counts around the block
// (128) and miniblock (32) sizes, sorted positions, and deltas that overflow (the extremes of
// int64 and int32 next to each other), whose bit widths reach 64 and 32.
TEST(ParquetWriter, DeltaBinaryPackedRoundTrips) {
  std::mt19937_64 rng(5);
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  std::vector<std::vector<int64_t>> cases = {{}, {7}, {kMin, kMax, kMin, 0, kMax}, {-1, 1, -1}};
  for (int64_t n : {2, 31, 32, 33, 127, 128, 129, 130, 161, 1000, 4097}) {
    std::vector<int64_t> sorted, random, small;
    int64_t p = static_cast<int64_t>(rng() % 100);
    for (int64_t i = 0; i < n; ++i) {
      p += 1 + static_cast<int64_t>(rng() % 40);
      sorted.push_back(p);
      random.push_back(static_cast<int64_t>(rng()));
      small.push_back(static_cast<int64_t>(rng() % 5) - 2);
    }
    cases.push_back(sorted);
    cases.push_back(random);
    cases.push_back(small);
  }
  for (const auto& v : cases) {
    std::string enc;
    internal::encode_delta_binary(v.data(), static_cast<int64_t>(v.size()), &enc);
    std::vector<int64_t> back;
    size_t used = 0;
    ASSERT_TRUE(internal::decode_delta_binary(reinterpret_cast<const uint8_t*>(enc.data()),
                                              enc.size(), &back, &used)
                    .ok());
    EXPECT_EQ(used, enc.size());
    ASSERT_EQ(back, v) << v.size() << " values";
    // int32: deltas wrap in 32 bits; the decoder's 64-bit sums truncate to the same values.
    std::vector<int32_t> v32;
    for (int64_t x : v) v32.push_back(static_cast<int32_t>(x));
    enc.clear();
    internal::encode_delta_binary(v32.data(), static_cast<int64_t>(v32.size()), &enc);
    ASSERT_TRUE(internal::decode_delta_binary(reinterpret_cast<const uint8_t*>(enc.data()),
                                              enc.size(), &back, &used)
                    .ok());
    ASSERT_EQ(back.size(), v32.size());
    for (size_t i = 0; i < v32.size(); ++i) ASSERT_EQ(static_cast<int32_t>(back[i]), v32[i]) << i;
  }
  // 10,000 sorted positions 1..4 apart take under 3 bits each (PLAIN: 64).
  std::vector<int64_t> positions;
  for (int64_t i = 0, p = 0; i < 10000; ++i) positions.push_back(p += 1 + (i * 7919) % 4);
  std::string enc;
  internal::encode_delta_binary(positions.data(), 10000, &enc);
  EXPECT_LT(enc.size(), 10000u * 3 / 8 + 600);
}

// Columns written DELTA_BINARY_PACKED (WriterOptions::delta_fields) say so in their chunk's
// encodings, and floe and DuckDB read the same extreme and sorted values back.
TEST(ParquetWriter, DeltaEncodedColumnsReadBackInDuckDB) {
  TempDir dir;
  Schema schema(0, {field(1, "pos", Type::int64(), true), field(2, "x", Type::int32(), false),
                    field(3, "d", Type::date(), false), field(4, "other", Type::int64(), false)});
  ColumnBatch b = ColumnBatch::make(schema.fields());
  std::mt19937_64 rng(9);
  b.num_rows = 3000;
  for (int64_t r = 0; r < b.num_rows; ++r) {
    b.columns[0]->append_fixed<int64_t>(r * 3 + static_cast<int64_t>(rng() % 3));
    if (r % 11 == 4) {
      b.columns[1]->append_null();
    } else {
      int32_t x = r % 5 == 0   ? std::numeric_limits<int32_t>::min()
                  : r % 5 == 1 ? std::numeric_limits<int32_t>::max()
                               : static_cast<int32_t>(rng());
      b.columns[1]->append_fixed<int32_t>(x);
    }
    b.columns[2]->append_fixed<int32_t>(static_cast<int32_t>(19000 + r / 100));
    b.columns[3]->append_fixed<int64_t>(static_cast<int64_t>(rng()));
  }
  auto io = make_local_file_io();
  WriterOptions opt;
  opt.delta_fields = {1, 2, 3};
  opt.page_row_limit = 1000;  // several pages
  std::string path = (dir.path / "delta.parquet").string();
  auto w = ParquetWriter::open(io, path, schema, opt);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->write(b).ok());
  auto metrics = (*w)->close();
  ASSERT_TRUE(metrics.ok()) << metrics.status().to_string();
  EXPECT_EQ(metrics->lower_bounds.count(1), 1u);  // statistics as for any encoding

  auto reader = ParquetReader::open(io, path);
  ASSERT_TRUE(reader.ok());
  const auto& chunks = (*reader)->metadata().row_groups.at(0).columns;
  for (size_t c = 0; c < 4; ++c) {
    const auto& enc = chunks[c].meta_data->encodings;
    bool delta = std::find(enc.begin(), enc.end(), Encoding::kDeltaBinaryPacked) != enc.end();
    EXPECT_EQ(delta, c < 3) << c;
  }
  std::vector<std::string> want, got;
  canonical_rows(b, &want);
  auto batches = read_parquet_file(io, path);
  ASSERT_TRUE(batches.ok()) << batches.status().to_string();
  for (const auto& x : *batches) canonical_rows(x, &got);
  EXPECT_EQ(got, want);
  expect_duckdb_rows(path, want);
}

// Optional top-level columns whose pages are all valid, all null, or valid until a null half
// way through a page (batches without nulls between batches with them): the same values come
// back from floe and DuckDB.
TEST(ParquetWriter, DefinitionLevelsOfValidRunsAndNulls) {
  TempDir dir;
  Schema schema(0, {field(1, "id", Type::int64(), true), field(2, "x", Type::int64(), false),
                    field(3, "s", Type::string(), false)});
  // Batch kinds: 0 no nulls, 1 a null every 5th row, 2 all null.
  std::vector<std::pair<int64_t, int>> plan = {{5000, 0},  {3000, 1}, {7, 0},     {4, 2},
                                               {25000, 0}, {3, 1},    {20000, 2}, {6000, 0}};
  auto io = make_local_file_io();
  WriterOptions opt;
  opt.page_row_limit = 4096;
  std::string path = (dir.path / "levels.parquet").string();
  auto w = ParquetWriter::open(io, path, schema, opt);
  ASSERT_TRUE(w.ok());
  std::vector<std::string> want;
  int64_t id = 0;
  for (auto [rows, kind] : plan) {
    ColumnBatch b = ColumnBatch::make(schema.fields());
    for (int64_t r = 0; r < rows; ++r, ++id) {
      b.columns[0]->append_fixed<int64_t>(id);
      bool null = kind == 2 || (kind == 1 && id % 5 == 0);
      if (null) {
        b.columns[1]->append_null();
        b.columns[2]->append_null();
      } else {
        b.columns[1]->append_fixed<int64_t>(id * 3 - 1000);
        b.columns[2]->append_bytes(fmt::format("v{}", id % 97));
      }
    }
    b.num_rows = rows;
    canonical_rows(b, &want);
    ASSERT_TRUE((*w)->write(b).ok());
  }
  auto m = (*w)->close();
  ASSERT_TRUE(m.ok()) << m.status().to_string();
  EXPECT_EQ(m->null_value_counts[2], 20604);
  auto batches = read_parquet_file(io, path);
  ASSERT_TRUE(batches.ok());
  std::vector<std::string> got;
  for (const auto& x : *batches) canonical_rows(x, &got);
  expect_same_rows(want, got, "floe");
  expect_duckdb_rows(path, want);
}

}  // namespace
}  // namespace floe::parquet
