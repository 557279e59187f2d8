// The dictionary-aware read of position-delete files gives exactly the positions of the generic
// row-by-row read: floe's files with many data files, several row groups, dictionary fallback
// to PLAIN, mixed path spellings and nulls, and every position-delete file of the fixtures; and
// filtering by the file_path statistics never drops a matching row.
#include "floe/read/position_delete_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "floe/format/parquet/writer.h"
#include "floe/io/file_io.h"
#include "floe/scan/delete_index.h"
#include "floe/scan/table_scan.h"
#include "floe/spec/metadata_file.h"
#include "floe/write/delete_writer.h"
#include "integration/fixture_readme.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("floe-pos-delete-test-" + std::to_string(::getpid()) + "-" + std::to_string(next_++));
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  static inline int next_ = 0;
  fs::path path_;
};

using Sets = std::map<std::string, std::vector<int64_t>>;

Sets as_sets(const PositionDeletes& d) {
  Sets out;
  for (const auto& [k, v] : d.by_path) out[k] = v.positions();
  return out;
}

// The FileIO of the fixture table being read (local files otherwise).
FileIOPtr& current_io() {
  static FileIOPtr io;
  return io;
}

Result<PositionDeletes> read(const std::string& path, bool runs,
                             std::optional<std::string> target = std::nullopt,
                             std::string_view format = "parquet") {
  PositionDeleteReadOptions o;
  o.dictionary_runs = runs;
  o.data_file = std::move(target);
  return read_position_delete_file(current_io() ? current_io() : make_local_file_io(), path, format,
                                   o);
}

// Reads `path` both ways, whole and filtered to each of `targets`, and expects the same sets.
void expect_same(const std::string& path, const std::vector<std::string>& targets,
                 std::string_view format = "parquet", bool expect_runs = true) {
  auto slow = read(path, false, std::nullopt, format);
  auto fast = read(path, true, std::nullopt, format);
  ASSERT_TRUE(slow.ok()) << slow.status().to_string();
  ASSERT_TRUE(fast.ok()) << fast.status().to_string();
  if (expect_runs) {
    EXPECT_TRUE(fast->used_dictionary_runs);
  }
  EXPECT_EQ(as_sets(*fast), as_sets(*slow));
  for (const auto& t : targets) {
    SCOPED_TRACE(t);
    auto s = read(path, false, t, format);
    auto f = read(path, true, t, format);
    ASSERT_TRUE(s.ok()) << s.status().to_string();
    ASSERT_TRUE(f.ok()) << f.status().to_string();
    EXPECT_EQ(as_sets(*f), as_sets(*s));
    // The filtered read is the whole read's entry for the target.
    Sets want;
    auto it = slow->by_path.find(normalize_file_path(t));
    if (it != slow->by_path.end()) want[it->first] = it->second.positions();
    EXPECT_EQ(as_sets(*f), want);
  }
}

parquet::WriterOptions small_options(int64_t row_group_bytes, int64_t dict_bytes) {
  parquet::WriterOptions o;
  o.row_group_size_bytes = row_group_bytes;
  o.dict_size_bytes = dict_bytes;
  o.page_row_limit = 1000;
  return o;
}

// Writes rows (in the given order) with floe's Parquet writer; nullopt values are nulls (the
// schema's columns are then optional).
void write_rows(
    const std::string& path,
    const std::vector<std::pair<std::optional<std::string>, std::optional<int64_t>>>& rows,
    const parquet::WriterOptions& options, bool optional = false) {
  std::vector<NestedField> fields = position_delete_schema().fields();
  for (auto& f : fields) f.required = !optional;
  Schema schema(0, fields);
  auto w = parquet::ParquetWriter::open(make_local_file_io(), path, schema, options);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  for (size_t start = 0; start < rows.size(); start += 4096) {
    ColumnBatch b = ColumnBatch::make(fields);
    size_t end = std::min(rows.size(), start + 4096);
    for (size_t i = start; i < end; ++i) {
      if (rows[i].first) {
        b.columns[0]->append_bytes(*rows[i].first);
      } else {
        b.columns[0]->append_null();
      }
      if (rows[i].second) {
        b.columns[1]->append_fixed<int64_t>(*rows[i].second);
      } else {
        b.columns[1]->append_null();
      }
    }
    b.num_rows = static_cast<int64_t>(end - start);
    ASSERT_TRUE((*w)->write(b).ok());
  }
  ASSERT_TRUE((*w)->close().ok());
}

std::string data_path(int i) {
  return fmt::format("s3://bucket/warehouse/db/table/data/part-{:05d}-{:08x}.parquet", i,
                     i * 2654435761u);
}

TEST(PositionDeleteFile, ManyDataFilesAndRowGroups) {
  TempDir dir;
  std::string path = dir.file("d.parquet");
  // Sorted rows in batches, so the writer rolls row groups by size.
  std::vector<std::pair<std::optional<std::string>, std::optional<int64_t>>> rows;
  std::vector<std::string> targets;
  for (int f = 0; f < 60; ++f) {
    targets.push_back(data_path(f));
    for (int64_t p = f; p < 3000 + f * 50; p += 1 + f % 7) rows.emplace_back(data_path(f), p);
  }
  write_rows(path, rows, small_options(8 << 10, 2 << 20));
  targets.push_back("s3://bucket/warehouse/db/table/data/absent.parquet");
  targets.push_back("s3://other/warehouse/db/table/data/part-00003-" +
                    fmt::format("{:08x}", 3 * 2654435761u) + ".parquet");  // same key
  targets.push_back("/warehouse/db/table/data/part-00007-" +
                    fmt::format("{:08x}", 7 * 2654435761u) + ".parquet");
  expect_same(path, targets);
  auto f = read(path, true, data_path(30));
  ASSERT_TRUE(f.ok());
  EXPECT_GT(f->row_groups_read + f->row_groups_skipped, 3);
  EXPECT_GT(f->row_groups_skipped, 0);  // the statistics skip row groups of other files
  // Another spelling of the same file cannot use the statistics, and still finds its rows.
  auto other = read(path, true,
                    "s3://other/warehouse/db/table/data/part-00030-" +
                        fmt::format("{:08x}", 30 * 2654435761u) + ".parquet");
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other->row_groups_skipped, 0);
  EXPECT_EQ(as_sets(*other), as_sets(*f));
}

TEST(PositionDeleteFile, DictionaryFallbackToPlain) {
  TempDir dir;
  std::string path = dir.file("d.parquet");
  // Long distinct paths overflow a 4 KB dictionary: later pages are PLAIN.
  PositionDeleteWriter w(make_local_file_io(), path, small_options(128 << 20, 4096));
  std::vector<std::string> targets;
  for (int f = 0; f < 400; ++f) {
    std::string p = data_path(f) + std::string(100, 'x');
    if (f % 37 == 0) targets.push_back(p);
    for (int64_t r = 0; r < 40; r += 1 + f % 3) w.add(p, r);
  }
  ASSERT_TRUE(w.close().ok());
  expect_same(path, targets);
}

TEST(PositionDeleteFile, MixedSpellingsAndNulls) {
  TempDir dir;
  std::vector<std::pair<std::optional<std::string>, std::optional<int64_t>>> rows;
  const char* spellings[] = {"file:/tmp/t/a.parquet", "file:///tmp/t/a.parquet",
                             "/tmp/t/a.parquet",      "s3://bucket/tmp/t/a.parquet",
                             "file://wh/t/a.parquet", "hdfs://nn:8020/tmp/t/b.parquet",
                             "/tmp/t/b.parquet"};
  for (int round = 0; round < 3; ++round) {
    for (const char* s : spellings) {
      for (int64_t p = 0; p < 700; ++p) {
        std::optional<std::string> path = s;
        std::optional<int64_t> pos = p * 3 + round;
        if (p % 97 == 5) path.reset();
        if (p % 89 == 7) pos.reset();
        rows.emplace_back(path, pos);
      }
    }
  }
  std::vector<std::string> targets(std::begin(spellings), std::end(spellings));
  targets.push_back("wh/t/a.parquet");
  for (bool dict : {true, false}) {
    SCOPED_TRACE(dict);
    std::string path = dir.file(dict ? "dict.parquet" : "plain.parquet");
    auto o = small_options(16 << 10, 2 << 20);
    o.dictionary_enabled = dict;
    write_rows(path, rows, o, /*optional=*/true);
    expect_same(path, targets);
    auto all = read(path, true);
    ASSERT_TRUE(all.ok());
    EXPECT_EQ(all->by_path.count("/tmp/t/a.parquet"), 1u);
    EXPECT_EQ(all->by_path.count("wh/t/a.parquet"), 1u);
    EXPECT_EQ(all->by_path.count("/tmp/t/b.parquet"), 1u);
  }
  // Required columns, the same unsorted spellings.
  std::vector<std::pair<std::optional<std::string>, std::optional<int64_t>>> dense;
  for (const auto& r : rows) {
    if (r.first && r.second) dense.push_back(r);
  }
  std::string path = dir.file("required.parquet");
  write_rows(path, dense, small_options(16 << 10, 2 << 20));
  expect_same(path, targets);
}

TEST(PositionDeleteFile, CorruptInputFailsNamingTheFile) {
  TempDir dir;
  std::string path = dir.file("d.parquet");
  PositionDeleteWriter w(make_local_file_io(), path, small_options(128 << 20, 2 << 20));
  for (int f = 0; f < 5; ++f) {
    for (int64_t p = 0; p < 5000; ++p) w.add(data_path(f), p);
  }
  ASSERT_TRUE(w.close().ok());
  auto io = make_local_file_io();
  std::string bytes = *io->read_file(path);
  for (size_t at : {size_t{4}, size_t{40}, bytes.size() / 3, bytes.size() / 2}) {
    std::string bad = bytes;
    for (size_t i = at; i < at + 24 && i + 8 < bad.size(); ++i) bad[i] = static_cast<char>(0xA5);
    std::string bad_path = dir.file("bad.parquet");
    ASSERT_TRUE(io->write_file(bad_path, bad).ok());
    for (bool runs : {true, false}) {
      for (auto target : {std::optional<std::string>(), std::optional<std::string>(data_path(2))}) {
        auto r = read(bad_path, runs, target);
        if (r.ok()) continue;  // the damage fell in bytes this read does not decode
        EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData) << r.status().to_string();
        EXPECT_NE(r.status().to_string().find(bad_path), std::string::npos)
            << r.status().to_string();
      }
    }
  }
}

TEST(PositionDeleteFile, BoundsPrefixRule) {
  // Bounds and target under one prefix: an ordinary range test.
  EXPECT_TRUE(path_bounds_may_match("s3://b/t/x", "s3://b/t/a", "s3://b/t/z"));
  EXPECT_TRUE(path_bounds_may_match("s3://b/t/a", "s3://b/t/a", "s3://b/t/a"));
  EXPECT_FALSE(path_bounds_may_match("s3://b/t/x", "s3://b/t/y", "s3://b/t/z"));
  EXPECT_FALSE(path_bounds_may_match("s3://b/t/x", "s3://b/t/a", "s3://b/t/w"));
  EXPECT_FALSE(path_bounds_may_match("/tmp/x", "/tmp/y", "/tmp/z"));
  EXPECT_FALSE(path_bounds_may_match("file:///tmp/x", "file:///tmp/y", "file:///tmp/z"));
  EXPECT_FALSE(path_bounds_may_match("hdfs://nn:8020/x", "hdfs://nn:8020/y", "hdfs://nn:8020/z"));
  // A bound under another prefix: other spellings of the target may lie between.
  EXPECT_TRUE(path_bounds_may_match("s3://b/t/x", "/t/y", "s3://b/t/z"));
  EXPECT_TRUE(path_bounds_may_match("s3://b/t/x", "s3://b/t/y", "s3://c/t/z"));
  EXPECT_TRUE(path_bounds_may_match("s3://b/t/x", "s3://a/t/x", "s3://c/t/x"));
  EXPECT_TRUE(path_bounds_may_match("/tmp/x", "file:/tmp/a", "file:/tmp/z"));
  // A bucket that is a prefix of another ("s3://b" vs "s3://bb"): not under "s3://b/".
  EXPECT_TRUE(path_bounds_may_match("s3://b/x", "s3://bb/a", "s3://bb/z"));
  // Truncated bounds that stop inside the prefix.
  EXPECT_TRUE(path_bounds_may_match("s3://b/t/x", "s3://b", "s3://b/t/z"));
  EXPECT_FALSE(path_bounds_may_match("s3://b/t/x", "s3://b/", "s3://b/t/w"));
  // file: keeps its '/': "file:/" also starts "file://host/x" paths, normalized otherwise.
  EXPECT_TRUE(path_bounds_may_match("file:/tmp/x", "file:/tmp/y", "file:/tmp/z"));
  EXPECT_TRUE(path_bounds_may_match("file:/tmp/x", "file:///tmp/y", "file:///tmp/z"));
  // A relative target ("file://wh/x" normalizes to "wh/x") or a bare authority.
  EXPECT_TRUE(path_bounds_may_match("file://wh/x", "file://wh/y", "file://wh/z"));
  EXPECT_TRUE(path_bounds_may_match("wh/x", "wh/y", "wh/z"));
  EXPECT_TRUE(path_bounds_may_match("s3://b", "s3://b/y", "s3://b/z"));
  // Bytes compare unsigned, as Parquet orders them.
  EXPECT_FALSE(path_bounds_may_match("/t/\x7f", "/t/\x80", "/t/\xff"));
  EXPECT_TRUE(path_bounds_may_match("/t/\x90", "/t/\x80", "/t/\xff"));
}

// Every spelling mix under one prefix or several: skipping by the rule never loses a row that
// the full read has (brute force over small path sets).
TEST(PositionDeleteFile, StatisticsSkipNeverDropsAMatchingRow) {
  const std::vector<std::string> names = {"file:/t/a",   "file:///t/a", "/t/a",       "s3://b/t/a",
                                          "s3://bb/t/a", "s3://b/t/b",  "file://t/a", "t/a",
                                          "/t/b",        "file:/t/b",   "s3://b",     "s3://b/"};
  for (size_t lo = 0; lo < names.size(); ++lo) {
    for (size_t hi = 0; hi < names.size(); ++hi) {
      if (!(names[lo] <= names[hi])) continue;
      for (const auto& target : names) {
        if (path_bounds_may_match(target, names[lo], names[hi])) continue;
        // Skipped: no value between the bounds may normalize to the target's key.
        for (const auto& v : names) {
          if (names[lo] <= v && v <= names[hi]) {
            EXPECT_NE(normalize_file_path(v), normalize_file_path(target))
                << target << " in [" << names[lo] << ", " << names[hi] << "] has " << v;
          }
        }
      }
    }
  }
}

TEST(PositionDeleteFile, Avro) {
  // Avro delete files take the generic path in both modes.
  TempDir dir;
  auto missing = read(dir.file("none.avro"), true, std::nullopt, "avro");
  EXPECT_FALSE(missing.ok());
  auto other = read(dir.file("x.orc"), true, std::nullopt, "orc");
  EXPECT_EQ(other.status().kind(), ErrorKind::kNotSupported);
}

TEST(PositionDeleteFile, EveryFixtureDeleteFileReadsTheSame) {
  int files = 0;
  std::set<std::string> seen;
  for (const auto& t : floe_test::readme_tables()) {
    if (t.delete_files <= 0 || t.metadata.empty()) continue;
    auto table = open_table_at(make_local_file_io(),
                               (fs::path(FLOE_FIXTURES_DIR) / t.name / t.metadata).string());
    if (!table.ok()) continue;
    auto scan = TableScan::make(table->io, table->metadata, {});
    if (!scan.ok()) continue;
    auto tasks = scan->plan_files();
    if (!tasks.ok()) continue;  // tables whose planning fails are covered elsewhere
    std::map<std::string, std::pair<std::string, std::set<std::string>>> deletes;
    for (const auto& task : *tasks) {
      for (const auto& d : task.deletes) {
        if (d->content() != FileContent::kPositionDeletes || d->content_offset()) continue;
        auto& e = deletes[std::string(d->file_path())];
        e.first = std::string(d->file_format());
        e.second.insert(task.file->file_path);
      }
    }
    for (const auto& [path, e] : deletes) {
      if (!seen.insert(path).second) continue;
      SCOPED_TRACE(t.name + ": " + path);
      std::vector<std::string> targets(e.second.begin(), e.second.end());
      targets.push_back("/nowhere/absent.parquet");
      current_io() = table->io;
      bool parquet = e.first == "PARQUET" || e.first == "parquet";
      if (!parquet && e.first != "AVRO" && e.first != "avro") {
        // ORC: unsupported either way.
        EXPECT_EQ(read(path, true, std::nullopt, e.first).status().kind(),
                  ErrorKind::kNotSupported);
        continue;
      }
      expect_same(path, targets, e.first, /*expect_runs=*/false);
      if (parquet) {
        auto f = read(path, true);
        ASSERT_TRUE(f.ok()) << f.status().to_string();
        EXPECT_TRUE(f->used_dictionary_runs);
      }
      current_io() = nullptr;
      ++files;
    }
  }
  EXPECT_GE(files, 5);
}

}  // namespace
}  // namespace floe
