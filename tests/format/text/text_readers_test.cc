// The CSV and JSON Lines readers: strict CSV (field counts, UTF-8, NUL bytes, duplicate header
// names, record size), the byte order mark, line numbers of records, and strict JSON Lines
// (objects only, no duplicate keys, bounded nesting and line length); the line reader under
// them, on files and on a pipe that goes idle.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "floe/format/text/csv_reader.h"
#include "floe/format/text/json_lines_reader.h"
#include "test_support.h"

namespace floe::text {
namespace {

class TextReaders : public ::testing::Test {
 protected:
  std::string file(const std::string& name, const std::string& bytes) {
    std::string path = dir_.str() + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  static ColumnBatch strings(size_t n) {
    std::vector<NestedField> fields;
    for (size_t i = 0; i < n; ++i) {
      fields.push_back(test_support::field(static_cast<int32_t>(i + 1), "c" + std::to_string(i),
                                           Type::string()));
    }
    return ColumnBatch::make(fields);
  }
  test_support::TempDir dir_{"floe-text"};
};

TEST_F(TextReaders, CsvRecordsKnowTheirLines) {
  CsvOptions o;
  o.header = true;
  o.strict = true;
  std::string path = file("a.csv", "\xEF\xBB\xBFid,name\r\n1,\"two\nlines\"\r\n\r\n2,x\n");
  auto names = CsvReader::column_names(path, o);
  ASSERT_TRUE(names.ok()) << names.status().message();
  EXPECT_EQ(*names, (std::vector<std::string>{"id", "name"}));
  auto reader = CsvReader::open(path, o);
  ASSERT_TRUE(reader.ok());
  ColumnBatch batch = strings(2);
  auto more = (*reader)->read_batch(&batch, 10);
  ASSERT_TRUE(more.ok()) << more.status().message();
  EXPECT_FALSE(*more);
  ASSERT_EQ(batch.num_rows, 2);
  EXPECT_EQ(batch.columns[1]->bytes_at(0), "two\nlines");
  EXPECT_EQ((*reader)->lines(), (std::vector<int64_t>{2, 5}));
}

TEST_F(TextReaders, StrictCsvRefusesWhatLenientCsvTolerates) {
  std::string path = file("b.csv", "a,b\n1,2,3\n4\n");
  CsvOptions lenient;
  lenient.header = true;
  auto reader = CsvReader::open(path, lenient);
  ASSERT_TRUE(reader.ok());
  ColumnBatch batch = strings(2);
  ASSERT_TRUE((*reader)->read_batch(&batch, 10).ok());
  EXPECT_EQ(batch.num_rows, 2);
  EXPECT_TRUE(batch.columns[1]->is_null(1));

  CsvOptions strict = lenient;
  strict.strict = true;
  reader = CsvReader::open(path, strict);
  ASSERT_TRUE(reader.ok());
  batch = strings(2);
  auto more = (*reader)->read_batch(&batch, 10);
  ASSERT_FALSE(more.ok());
  EXPECT_NE(more.status().message().find("line 2: 3 fields, but the header has 2"),
            std::string::npos)
      << more.status().message();
}

TEST_F(TextReaders, StrictCsvChecksUtf8) {
  CsvOptions o;
  o.strict = true;
  // Valid: 2-, 3- and 4-byte sequences. Invalid: an overlong '/', a surrogate, a cut sequence.
  for (const char* ok : {"caf\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "plain ascii text"}) {
    auto reader = CsvReader::open(file("ok.csv", std::string(ok) + "\n"), o);
    ASSERT_TRUE(reader.ok());
    ColumnBatch batch = strings(1);
    auto more = (*reader)->read_batch(&batch, 10);
    EXPECT_TRUE(more.ok()) << ok << ": " << more.status().message();
  }
  for (const char* bad : {"\xC0\xAF", "\xED\xA0\x80", "ab\xE2\x82", "\xF5\x80\x80\x80"}) {
    auto reader = CsvReader::open(file("bad.csv", std::string(bad) + "\n"), o);
    ASSERT_TRUE(reader.ok());
    ColumnBatch batch = strings(1);
    auto more = (*reader)->read_batch(&batch, 10);
    ASSERT_FALSE(more.ok()) << bad;
    EXPECT_NE(more.status().message().find("line 1, column 1: the field is not valid UTF-8"),
              std::string::npos)
        << more.status().message();
  }
}

TEST_F(TextReaders, CsvRecordsAreBounded) {
  CsvOptions o;
  o.max_record_bytes = 1000;
  auto names = CsvReader::column_names(file("long.csv", "a,b\n" + std::string(5000, 'x')), o);
  ASSERT_TRUE(names.ok());
  auto reader = CsvReader::open(file("long.csv", "a\n" + std::string(5000, 'x')), o);
  ASSERT_TRUE(reader.ok());
  ColumnBatch batch = strings(1);
  auto more = (*reader)->read_batch(&batch, 10);
  ASSERT_FALSE(more.ok());
  EXPECT_NE(more.status().message().find("line 2: the record is longer than 1000 bytes"),
            std::string::npos)
      << more.status().message();
}

TEST_F(TextReaders, JsonLinesLimits) {
  JsonLinesOptions o;
  o.max_depth = 3;
  o.max_line_bytes = 100;
  auto read = [&](const std::string& text) -> Status {
    auto reader = JsonLinesReader::open(file("x.jsonl", text), {"a"}, o);
    if (!reader.ok()) return reader.status();
    ColumnBatch batch = strings(1);
    auto more = (*reader)->read_batch(&batch, 10);
    return more.ok() ? Status::OK() : more.status();
  };
  EXPECT_TRUE(read("{\"a\": [[1]]}\n").ok());
  EXPECT_NE(read("{\"a\": \"[[[[\"}\n{\"a\": [[[1]]]}\n")
                .message()
                .find("line 2: values nest deeper than 3 levels"),
            std::string::npos);
  EXPECT_NE(read("{\"a\": \"" + std::string(200, 'x') + "\"}\n")
                .message()
                .find("line 1: the line is longer than 100 bytes"),
            std::string::npos);
  EXPECT_NE(read("{\"a\": 1, \"a\": 2}\n").message().find("key \"a\" appears twice"),
            std::string::npos);
  EXPECT_NE(read("{\"a\": [{\"x\": 1, \"x\": 2}]}\n").message().find("key \"x\" appears twice"),
            std::string::npos);
  EXPECT_TRUE(read("{\"a\": [{\"x\": 1}, {\"x\": 2}], \"b\": \"x:y\"}\n").ok());
  EXPECT_NE(read("\"text\"\n").message().find("line 1: the line is a JSON string, not an object"),
            std::string::npos);
  EXPECT_NE(read("{\"a\": tru}\n").message().find("line 1, column"), std::string::npos);
  // A number no double holds is an error naming the line, not an exception (fuzz finding).
  EXPECT_NE(read("{\"a\": 1}\n{\"b\": 1e3092}\n")
                .message()
                .find("line 2: number overflow parsing '1e3092'"),
            std::string::npos)
      << read("{\"b\": 1e3092}\n").message();
}

TEST_F(TextReaders, LineReaderOnAFile) {
  auto reader = LineReader::open(file("l.txt",
                                      "\xEF\xBB\xBF"
                                      "a\r\n\nb\nlast"),
                                 "lines", 100);
  ASSERT_TRUE(reader.ok());
  std::string line;
  std::vector<std::pair<std::string, int64_t>> got;
  while (*(*reader)->next(&line, 0) == LineReader::Next::kLine) {
    got.emplace_back(line, (*reader)->line_number());
  }
  EXPECT_EQ(got, (std::vector<std::pair<std::string, int64_t>>{
                     {"a", 1}, {"", 2}, {"b", 3}, {"last", 4}}));
  EXPECT_EQ(*(*reader)->next(&line), LineReader::Next::kEnd);
  auto missing = LineReader::open(dir_.str() + "/missing", "change file x", 100);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("cannot open change file x: No such file"),
            std::string::npos)
      << missing.status().message();
}

TEST_F(TextReaders, LineReaderOnAnIdlePipe) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  auto reader = LineReader::from_fd(fds[0], "pipe", 100);
  std::string line;
  auto put = [&](const std::string& bytes) {
    ASSERT_EQ(write(fds[1], bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  };
  // Nothing written: idle once the wait runs out. A partial line is kept across idle calls.
  EXPECT_EQ(*reader->next(&line, 10), LineReader::Next::kIdle);
  put("{\"a\"");
  EXPECT_EQ(*reader->next(&line, 10), LineReader::Next::kIdle);
  put(": 1}\nsecond");
  EXPECT_EQ(*reader->next(&line, 10), LineReader::Next::kLine);
  EXPECT_EQ(line, "{\"a\": 1}");
  EXPECT_EQ(*reader->next(&line, 10), LineReader::Next::kIdle);
  put(std::string(200, 'x'));
  auto too_long = reader->next(&line, 10);
  ASSERT_FALSE(too_long.ok());
  EXPECT_NE(too_long.status().message().find("pipe line 2: the line is longer than 100 bytes"),
            std::string::npos)
      << too_long.status().message();
  close(fds[1]);
  close(fds[0]);
}

}  // namespace
}  // namespace floe::text
