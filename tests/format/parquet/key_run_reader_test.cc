// KeyRunReader hands out a key column as runs (dictionary codes, or plain values when the column
// is not dictionary-encoded) and the value column page by page or run by run, nulls included,
// giving back exactly the rows written; a file whose layout does not fit gives nullptr.
#include "floe/format/parquet/key_run_reader.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "floe/format/parquet/reader.h"
#include "floe/format/parquet/writer.h"
#include "test_support.h"

namespace floe::parquet {
namespace {

using test_support::field;
using test_support::TempDir;

using KeyRow = std::pair<std::optional<std::string>, std::optional<int64_t>>;

// Writes rows as columns k (id 1, string) and v (id 2, long), optional when `optional`.
void write_key_rows(const std::string& path, const std::vector<KeyRow>& rows, WriterOptions options,
                    bool optional) {
  Schema schema(
      0, {field(1, "k", Type::string(), !optional), field(2, "v", Type::int64(), !optional)});
  auto w = ParquetWriter::open(make_local_file_io(), path, schema, options);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  ColumnBatch b = ColumnBatch::make(schema.fields());
  for (const auto& [k, v] : rows) {
    if (k) {
      b.columns[0]->append_bytes(*k);
    } else {
      b.columns[0]->append_null();
    }
    if (v) {
      b.columns[1]->append_fixed<int64_t>(*v);
    } else {
      b.columns[1]->append_null();
    }
  }
  b.num_rows = static_cast<int64_t>(rows.size());
  ASSERT_TRUE((*w)->write(b).ok());
  ASSERT_TRUE((*w)->close().ok());
}

struct KeyRuns {
  std::vector<KeyRow> rows;
  int64_t dictionary_runs = 0, plain_runs = 0;
  bool saw_defs = false;
};

// Every row of the file through the runs: the values of a page in one call, or (by_run) run by
// run, skipping the values of every other run.
KeyRuns read_key_runs(KeyRunReader& r, const ParquetReader& file, bool by_run = false) {
  KeyRuns out;
  std::vector<KeyRunReader::Run> runs;
  ColumnPtr values = ColumnVector::make(r.value_type());
  std::vector<int16_t> defs;
  auto add = [&](const KeyRunReader::Run& run, int64_t row, int64_t* value, bool skipped) {
    std::optional<std::string> key;
    if (run.code & KeyRunReader::kPlain) {
      if (run.code != KeyRunReader::kNull) ++out.plain_runs;
    } else {
      ++out.dictionary_runs;
    }
    if (run.code == KeyRunReader::kNull) {
    } else if (run.code & KeyRunReader::kPlain) {
      key = std::string(r.plain_key(run.code));
    } else {
      EXPECT_NE(r.dictionary_generation(), 0u);
      key = std::string(r.dictionary().bytes_at(run.code));
    }
    for (int64_t i = row; i < row + run.rows; ++i) {
      std::optional<int64_t> v;
      if (!skipped && (defs.empty() || defs[static_cast<size_t>(i)] == r.value_max_def())) {
        v = values->raw<int64_t>()[(*value)++];
      }
      out.rows.emplace_back(key, skipped ? std::optional<int64_t>(-1) : v);
    }
  };
  for (int g = 0; g < file.num_row_groups(); ++g) {
    EXPECT_TRUE(r.start_row_group(g).ok());
    while (true) {
      int64_t rows = 0;
      Status st = r.next_runs(&runs, &rows);
      EXPECT_TRUE(st.ok()) << st.to_string();
      if (!st.ok() || rows == 0) break;
      int64_t total = 0;
      for (const auto& run : runs) total += run.rows;
      EXPECT_EQ(total, rows);
      if (!by_run) {
        values->clear();
        EXPECT_TRUE(r.next_values(rows, values.get(), &defs).ok());
        out.saw_defs |= !defs.empty();
        int64_t row = 0, value = 0;
        for (const auto& run : runs) {
          add(run, row, &value, false);
          row += run.rows;
        }
        continue;
      }
      for (size_t i = 0; i < runs.size(); ++i) {
        int64_t value = 0;
        if (i % 2 == 1) {
          EXPECT_TRUE(r.skip_values(runs[i].rows).ok());
          add(runs[i], 0, &value, true);
          continue;
        }
        values->clear();
        EXPECT_TRUE(r.next_values(runs[i].rows, values.get(), &defs).ok());
        out.saw_defs |= !defs.empty();
        add(runs[i], 0, &value, false);
      }
    }
  }
  return out;
}

std::unique_ptr<ParquetReader> open_key_file(const std::string& path) {
  auto r = ParquetReader::open(make_local_file_io(), path);
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  return r.ok() ? std::move(*r) : nullptr;
}

std::string data_key(int64_t i) {
  return "s3://bucket/data/file-" + std::to_string(i) + ".parquet";
}

// Sorted keys, several pages, with a dictionary.
std::vector<KeyRow> sorted_key_rows() {
  std::vector<KeyRow> rows;
  for (int64_t i = 0; i < 5000; ++i) rows.emplace_back(data_key(i / 700), i);
  return rows;
}

TEST(KeyRunReader, DictionaryEncodedKeys) {
  TempDir dir;
  std::string path = (dir.path / "dict.parquet").string();
  WriterOptions o;
  o.page_row_limit = 1000;
  std::vector<KeyRow> rows = sorted_key_rows();
  write_key_rows(path, rows, o, false);
  auto file = open_key_file(path);
  ASSERT_TRUE(file);
  auto io = make_local_file_io();
  auto r = KeyRunReader::open(*io, *file, 1, 2);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  ASSERT_TRUE(*r);
  KeyRunReader& keys = **r;
  EXPECT_EQ(keys.value_max_def(), 0);
  EXPECT_EQ(keys.value_type()->id(), TypeId::kLong);
  auto bounds = keys.key_bounds(0);
  ASSERT_TRUE(bounds);
  EXPECT_EQ(bounds->first, data_key(0));
  EXPECT_EQ(bounds->second, data_key(7));
  EXPECT_TRUE(keys.check_row_counts(0).ok());

  KeyRuns all = read_key_runs(keys, *file);
  EXPECT_EQ(all.rows, rows);
  EXPECT_GT(all.dictionary_runs, 0);
  EXPECT_EQ(all.plain_runs, 0);
  EXPECT_FALSE(all.saw_defs);
  // A run per key and page, not per row.
  EXPECT_LT(all.dictionary_runs, 20);

  // A counting pass over the keys, then the row group again from its first key.
  ASSERT_TRUE(keys.start_row_group(0).ok());
  std::vector<KeyRunReader::Run> runs;
  int64_t rows_seen = 0, n = 0;
  do {
    ASSERT_TRUE(keys.next_runs(&runs, &n).ok());
    rows_seen += n;
  } while (n > 0);
  EXPECT_EQ(rows_seen, 5000);
  ASSERT_TRUE(keys.restart_keys().ok());
  ASSERT_TRUE(keys.next_runs(&runs, &n).ok());
  ASSERT_FALSE(runs.empty());
  EXPECT_EQ(keys.dictionary().bytes_at(runs[0].code), data_key(0));
}

TEST(KeyRunReader, PlainEncodedKeys) {
  TempDir dir;
  std::string path = (dir.path / "plain.parquet").string();
  WriterOptions o;
  o.page_row_limit = 1000;
  o.dictionary_enabled = false;
  std::vector<KeyRow> rows = sorted_key_rows();
  write_key_rows(path, rows, o, false);
  auto file = open_key_file(path);
  ASSERT_TRUE(file);
  auto io = make_local_file_io();
  auto r = KeyRunReader::open(*io, *file, 1, 2);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  ASSERT_TRUE(*r);
  KeyRuns all = read_key_runs(**r, *file);
  EXPECT_EQ(all.rows, rows);
  EXPECT_EQ(all.dictionary_runs, 0);
  EXPECT_GT(all.plain_runs, 0);
  EXPECT_EQ((*r)->dictionary_generation(), 0u);

  // Run by run, every other run's values skipped.
  KeyRuns skipping = read_key_runs(**r, *file, true);
  ASSERT_EQ(skipping.rows.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(skipping.rows[i].first, rows[i].first) << i;
    if (skipping.rows[i].second != -1) {
      EXPECT_EQ(skipping.rows[i].second, rows[i].second) << i;
    }
  }
}

TEST(KeyRunReader, NullableValuesAndKeys) {
  TempDir dir;
  std::string path = (dir.path / "nulls.parquet").string();
  WriterOptions o;
  o.page_row_limit = 300;
  std::vector<KeyRow> rows;
  for (int64_t i = 0; i < 2000; ++i) {
    std::optional<std::string> k;
    if (i % 101 != 7) k = data_key(i / 150);
    std::optional<int64_t> v;
    if (i % 13 != 5) v = i * 3;
    rows.emplace_back(k, v);
  }
  write_key_rows(path, rows, o, true);
  auto file = open_key_file(path);
  ASSERT_TRUE(file);
  auto io = make_local_file_io();
  auto r = KeyRunReader::open(*io, *file, 1, 2);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  ASSERT_TRUE(*r);
  EXPECT_EQ((*r)->value_max_def(), 1);
  KeyRuns all = read_key_runs(**r, *file);
  EXPECT_EQ(all.rows, rows);
  EXPECT_TRUE(all.saw_defs);

  KeyRuns skipping = read_key_runs(**r, *file, true);
  ASSERT_EQ(skipping.rows.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(skipping.rows[i].first, rows[i].first) << i;
    if (skipping.rows[i].second != -1) {
      EXPECT_EQ(skipping.rows[i].second, rows[i].second) << i;
    }
  }
}

TEST(KeyRunReader, LayoutsThatDoNotFitGiveNull) {
  TempDir dir;
  std::string path = (dir.path / "other.parquet").string();
  Schema schema(0, {field(1, "k", Type::string(), true), field(2, "v", Type::int64(), true),
                    field(3, "i", Type::int32(), true),
                    field(4, "s", Type::struct_of({field(5, "c", Type::string(), false)}), false),
                    field(6, "l", Type::list_of(7, Type::string(), false), false)});
  {
    auto w = ParquetWriter::open(make_local_file_io(), path, schema, {});
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    ASSERT_TRUE((*w)->close().ok());
  }
  auto file = open_key_file(path);
  ASSERT_TRUE(file);
  auto io = make_local_file_io();
  auto fits = [&](int32_t key_id, int32_t value_id) {
    auto r = KeyRunReader::open(*io, *file, key_id, value_id);
    EXPECT_TRUE(r.ok()) << r.status().to_string();
    return r.ok() && *r != nullptr;
  };
  EXPECT_TRUE(fits(1, 2));
  EXPECT_FALSE(fits(99, 2)) << "key missing";
  EXPECT_FALSE(fits(1, 99)) << "value missing";
  EXPECT_FALSE(fits(3, 2)) << "key not BYTE_ARRAY";
  EXPECT_FALSE(fits(1, 3)) << "value not a long";
  EXPECT_FALSE(fits(2, 1)) << "key and value swapped";
  EXPECT_FALSE(fits(5, 2)) << "key nested in a struct";
  EXPECT_FALSE(fits(7, 2)) << "key in a list";
}

}  // namespace
}  // namespace floe::parquet
