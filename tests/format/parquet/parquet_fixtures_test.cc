// Every Parquet data and delete file under the shared fixtures reads, and its rows equal what
// DuckDB (@duckdb/node-api) reads from the same file.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "floe/format/parquet/reader.h"
#include "format/parquet/parquet_test_util.h"

namespace floe::parquet {
namespace {

namespace fs = std::filesystem;
using testing::canonical_rows;
using testing::file_magic;
using testing::oracle_dir;
using testing::run_command;
using testing::shell_quote;

struct FixtureFiles {
  std::vector<std::string> parquet;
  int orc = 0;
  int avro = 0;
};

// *.parquet, *.parq and extension-less Hive files (000000_0); the magic decides.
FixtureFiles find_fixture_files() {
  FixtureFiles out;
  for (const auto& e : fs::recursive_directory_iterator(FLOE_FIXTURES_DIR)) {
    if (!e.is_regular_file()) continue;
    const fs::path& p = e.path();
    std::string ext = p.extension().string();
    bool candidate =
        ext == ".parquet" || ext == ".parq" || (ext.empty() && p.filename() == "000000_0");
    if (!candidate) continue;
    std::string magic = file_magic(p);
    if (magic == "PAR1") {  // ORC files start with "ORC", Avro with "Obj\x01"
      out.parquet.push_back(p.string());
    } else if (magic.rfind("ORC", 0) == 0) {
      ++out.orc;
    } else if (magic == std::string("Obj\x01", 4)) {
      ++out.avro;
    } else {
      ADD_FAILURE() << p << ": data file with unknown magic";
    }
  }
  std::sort(out.parquet.begin(), out.parquet.end());
  return out;
}

std::map<std::string, std::vector<std::string>> duckdb_rows(
    const std::vector<std::string>& files, std::map<std::string, std::string>* errors) {
  std::map<std::string, std::vector<std::string>> out;
  // Batches keep the command line short; one node process per batch amortises start-up.
  for (size_t i = 0; i < files.size(); i += 100) {
    std::string cmd = "cd " + shell_quote(oracle_dir()) + " && node parquet_duckdb.mjs";
    for (size_t j = i; j < std::min(files.size(), i + 100); ++j) cmd += " " + shell_quote(files[j]);
    int rc = 0;
    std::string text = run_command(cmd + " 2>&1", &rc);
    EXPECT_EQ(rc, 0) << text.substr(0, 2000);
    std::string current;
    size_t pos = 0;
    while (pos < text.size()) {
      size_t nl = text.find('\n', pos);
      if (nl == std::string::npos) nl = text.size();
      std::string line = text.substr(pos, nl - pos);
      pos = nl + 1;
      if (line.rfind("##FILE ", 0) == 0) {
        current = line.substr(7);
        out[current];
      } else if (line.rfind("##ERROR ", 0) == 0) {
        (*errors)[current] = line.substr(8);
      } else if (line.rfind("##END", 0) == 0) {
      } else {
        out[current].push_back(line);
      }
    }
  }
  return out;
}

TEST(ParquetFixtures, EveryFileMatchesDuckDB) {
  FixtureFiles files = find_fixture_files();
  ASSERT_GE(files.parquet.size(), 400u)
      << "fixture Parquet files not found under " << FLOE_FIXTURES_DIR;
  std::map<std::string, std::string> duck_errors;
  auto expected = duckdb_rows(files.parquet, &duck_errors);
  auto io = make_local_file_io();
  int compared = 0;
  int64_t rows = 0;
  for (const auto& path : files.parquet) {
    SCOPED_TRACE(path);
    ASSERT_TRUE(expected.count(path)) << "DuckDB printed nothing for the file";
    ASSERT_FALSE(duck_errors.count(path)) << "DuckDB: " << duck_errors[path];
    auto batches = read_parquet_file(io, path);
    if (!batches.ok()) {
      ADD_FAILURE() << batches.status().to_string();
      continue;
    }
    std::vector<std::string> got;
    for (const auto& b : *batches) canonical_rows(b, &got);
    const auto& want = expected[path];
    EXPECT_EQ(got.size(), want.size());
    size_t n = std::min(got.size(), want.size());
    int shown = 0;
    for (size_t i = 0; i < n && shown < 3; ++i) {
      auto g = nlohmann::json::parse(got[i], nullptr, false);
      auto w = nlohmann::json::parse(want[i], nullptr, false);
      if (g.is_discarded() || w.is_discarded() || g != w) {
        ADD_FAILURE() << "row " << i << "\n floe:   " << got[i] << "\n duckdb: " << want[i];
        ++shown;
      }
    }
    ++compared;
    rows += static_cast<int64_t>(got.size());
  }
  EXPECT_EQ(compared, static_cast<int>(files.parquet.size()));
  std::printf(
      "compared %d Parquet files (%lld rows) with DuckDB; skipped by magic: %d ORC, %d Avro\n",
      compared, static_cast<long long>(rows), files.orc, files.avro);
}

// Batches cut anywhere (inside pages, between a page's rows, at row-group ends) hold the same
// rows as whole row groups, for every shape of column the fixtures have (nested lists and maps
// whose rows span pages included), and batch_first_row() counts the file's rows.
TEST(ParquetFixtures, BatchesOfAnySizeHoldTheSameRowsAsWholeRowGroups) {
  FixtureFiles files = find_fixture_files();
  ASSERT_GE(files.parquet.size(), 400u);
  auto io = make_local_file_io();
  int64_t batches_seen = 0;
  for (const auto& path : files.parquet) {
    SCOPED_TRACE(path);
    ReaderOptions whole;
    whole.batch_rows = 0;
    auto want_batches = read_parquet_file(io, path, whole);
    ASSERT_TRUE(want_batches.ok()) << want_batches.status().to_string();
    std::vector<std::string> want;
    for (const auto& b : *want_batches) canonical_rows(b, &want);
    for (int64_t size : {1, 7, 1000}) {
      ReaderOptions o;
      o.batch_rows = size;
      auto r = ParquetReader::open(io, path, o);
      ASSERT_TRUE(r.ok()) << r.status().to_string();
      std::vector<std::string> got;
      int64_t next_row = 0;
      while (true) {
        auto b = (*r)->next_batch();
        ASSERT_TRUE(b.ok()) << b.status().to_string();
        if (!*b) break;
        ASSERT_LE((*b)->num_rows, size);
        ASSERT_EQ((*r)->batch_first_row(), next_row);
        next_row += (*b)->num_rows;
        canonical_rows(**b, &got);
        ++batches_seen;
      }
      ASSERT_EQ(got, want) << "batches of " << size;
    }
  }
  EXPECT_GT(batches_seen, 10000);
}

}  // namespace
}  // namespace floe::parquet
