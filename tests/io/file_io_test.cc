#include "floe/io/file_io.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <functional>
#include <random>
#include <thread>

namespace floe {
namespace {

namespace fs = std::filesystem;

// ---- path helpers -----------------------------------------------------------------------------

TEST(PathUtil, LocalPathOf) {
  EXPECT_EQ(local_path_of("file:///tmp/x"), "/tmp/x");
  EXPECT_EQ(local_path_of("file:/tmp/x"), "/tmp/x");
  EXPECT_EQ(local_path_of("file://wh/t"), "wh/t");
  EXPECT_EQ(local_path_of("/tmp/x"), "/tmp/x");
  EXPECT_EQ(local_path_of("wh/t/metadata.json"), "wh/t/metadata.json");
  EXPECT_EQ(local_path_of("s3://bucket/key"), "s3://bucket/key");
  EXPECT_EQ(local_path_of("files/a"), "files/a");
  EXPECT_EQ(local_path_of(""), "");
}

TEST(PathUtil, JoinPath) {
  EXPECT_EQ(join_path("a", "b"), "a/b");
  EXPECT_EQ(join_path("a/", "b"), "a/b");
  EXPECT_EQ(join_path("a", "/b"), "a/b");
  EXPECT_EQ(join_path("a//", "//b/c"), "a/b/c");
  EXPECT_EQ(join_path("", "b"), "b");
  EXPECT_EQ(join_path("a", ""), "a");
  EXPECT_EQ(join_path("", ""), "");
  EXPECT_EQ(join_path("/", "x"), "/x");
  EXPECT_EQ(join_path("file:///", "tmp"), "file:///tmp");
  EXPECT_EQ(join_path("file:///tmp/", "x"), "file:///tmp/x");
  EXPECT_EQ(join_path("file:/tmp", "x"), "file:/tmp/x");
  EXPECT_EQ(join_path("s3://", "bucket"), "s3://bucket");
  EXPECT_EQ(join_path("s3://bucket", "/k"), "s3://bucket/k");
  EXPECT_EQ(join_path("s3://bucket/wh/", "db/t"), "s3://bucket/wh/db/t");
}

// ---- behaviour shared by every FileIO --------------------------------------------------------

// A FileIO plus a root under which a test may write; cleans up after itself.
struct Backend {
  FileIOPtr io;
  std::string root;
  std::function<void()> cleanup;
};

std::string make_temp_dir() {
  char tmpl[] = "/tmp/floe_file_io_test.XXXXXX";
  char* dir = ::mkdtemp(tmpl);
  EXPECT_NE(dir, nullptr);
  return dir ? std::string(dir) : std::string();
}

struct BackendFactory {
  std::string name;
  std::function<Backend()> make;
};

std::vector<BackendFactory> backends() {
  return {
      {"local",
       [] {
         std::string dir = make_temp_dir();
         return Backend{make_local_file_io(), dir, [dir] {
                          std::error_code ec;
                          fs::remove_all(dir, ec);
                        }};
       }},
      {"memory",
       [] {
         return Backend{make_memory_file_io(), "mem/root", [] {}};
       }},
  };
}

class FileIOContract : public ::testing::TestWithParam<BackendFactory> {
 protected:
  void SetUp() override {
    backend_ = GetParam().make();
    ASSERT_FALSE(backend_.root.empty());
    io_ = backend_.io.get();
  }
  void TearDown() override {
    if (backend_.cleanup) backend_.cleanup();
  }
  std::string path(std::string_view rel) const { return join_path(backend_.root, rel); }

  Backend backend_;
  FileIO* io_ = nullptr;
};

TEST_P(FileIOContract, WriteThenRead) {
  std::string p = path("a.txt");
  ASSERT_TRUE(io_->write_file(p, "hello").ok());
  auto data = io_->read_file(p);
  ASSERT_TRUE(data.ok()) << data.status().to_string();
  EXPECT_EQ(*data, "hello");
  EXPECT_EQ(io_->file_size(p).value_or(-1), 5);
  EXPECT_TRUE(io_->exists(p).value_or(false));
}

TEST_P(FileIOContract, EmptyAndBinaryFiles) {
  ASSERT_TRUE(io_->write_file(path("empty"), "").ok());
  EXPECT_EQ(io_->read_file(path("empty")).value_or("x"), "");
  EXPECT_EQ(io_->file_size(path("empty")).value_or(-1), 0);

  std::string binary(1 << 20, '\0');
  std::mt19937 rng(1);
  for (auto& c : binary) c = static_cast<char>(rng());
  ASSERT_TRUE(io_->write_file(path("bin"), binary).ok());
  auto back = io_->read_file(path("bin"));
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(*back == binary);
}

TEST_P(FileIOContract, MissingFile) {
  std::string p = path("missing.json");
  auto r = io_->read_file(p);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kNotFound);
  EXPECT_NE(r.status().message().find("missing.json"), std::string::npos);
  EXPECT_EQ(io_->read_range(p, 0, 1).status().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(io_->file_size(p).status().kind(), ErrorKind::kNotFound);
  auto e = io_->exists(p);
  ASSERT_TRUE(e.ok());
  EXPECT_FALSE(*e);
  EXPECT_EQ(io_->delete_file(p).kind(), ErrorKind::kNotFound);
}

TEST_P(FileIOContract, ReadRange) {
  std::string p = path("digits");
  ASSERT_TRUE(io_->write_file(p, "0123456789").ok());
  EXPECT_EQ(io_->read_range(p, 2, 3).value_or("?"), "234");
  EXPECT_EQ(io_->read_range(p, 0, 10).value_or("?"), "0123456789");
  EXPECT_EQ(io_->read_range(p, 9, 1).value_or("?"), "9");
  EXPECT_EQ(io_->read_range(p, 10, 0).value_or("?"), "");
  EXPECT_EQ(io_->read_range(p, 4, 0).value_or("?"), "");
}

TEST_P(FileIOContract, ReadRangePastEndIsAnError) {
  std::string p = path("digits");
  ASSERT_TRUE(io_->write_file(p, "0123456789").ok());
  auto r = io_->read_range(p, 8, 3);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData);
  const std::string& msg = r.status().message();
  EXPECT_NE(msg.find("digits"), std::string::npos) << msg;
  EXPECT_NE(msg.find("offset 8"), std::string::npos) << msg;
  EXPECT_NE(msg.find("length 3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("size 10"), std::string::npos) << msg;

  EXPECT_EQ(io_->read_range(p, 11, 0).status().kind(), ErrorKind::kInvalidData);
  EXPECT_EQ(io_->read_range(p, 0, INT64_MAX).status().kind(), ErrorKind::kInvalidData);
  EXPECT_EQ(io_->read_range(p, INT64_MAX, INT64_MAX).status().kind(), ErrorKind::kInvalidData);
  EXPECT_EQ(io_->read_range(p, -1, 2).status().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(io_->read_range(p, 0, -2).status().kind(), ErrorKind::kInvalidArgument);
}

// read_range_into: the same bytes and errors as read_range, into a buffer that is reused (a
// shorter read shrinks it without reallocating), counted as one request.
TEST_P(FileIOContract, ReadRangeIntoReusesTheBuffer) {
  std::string p = path("digits");
  ASSERT_TRUE(io_->write_file(p, "0123456789").ok());
  Buffer buf;
  auto text = [&] { return std::string(reinterpret_cast<const char*>(buf.data()), buf.size()); };
  int64_t before = io_->counters().read_requests;
  ASSERT_TRUE(io_->read_range_into(p, 2, 8, &buf).ok());
  EXPECT_EQ(text(), "23456789");
  EXPECT_EQ(io_->counters().read_requests - before, 1);
  const uint8_t* memory = buf.data();
  ASSERT_TRUE(io_->read_range_into(p, 0, 3, &buf).ok());
  EXPECT_EQ(text(), "012");
  EXPECT_EQ(buf.data(), memory);
  ASSERT_TRUE(io_->read_range_into(p, 10, 0, &buf).ok());
  EXPECT_EQ(buf.size(), 0u);
  EXPECT_EQ(io_->read_range_into(p, 8, 3, &buf).kind(), ErrorKind::kInvalidData);
  EXPECT_EQ(io_->read_range_into(p, -1, 2, &buf).kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(io_->read_range_into(path("missing"), 0, 1, &buf).kind(), ErrorKind::kNotFound);
}

TEST_P(FileIOContract, OverwriteReplaces) {
  std::string p = path("v.json");
  ASSERT_TRUE(io_->write_file(p, "first version, longer").ok());
  ASSERT_TRUE(io_->write_file(p, "second", WriteMode::kOverwrite).ok());
  EXPECT_EQ(io_->read_file(p).value_or("?"), "second");
  EXPECT_EQ(io_->file_size(p).value_or(-1), 6);
}

TEST_P(FileIOContract, CreateNewTwiceIsAlreadyExists) {
  std::string p = path("metadata/v1.metadata.json");
  ASSERT_TRUE(io_->write_file(p, "one", WriteMode::kCreateNew).ok());
  Status again = io_->write_file(p, "two", WriteMode::kCreateNew);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.kind(), ErrorKind::kAlreadyExists);
  EXPECT_NE(again.message().find("v1.metadata.json"), std::string::npos);
  EXPECT_EQ(io_->read_file(p).value_or("?"), "one");
}

TEST_P(FileIOContract, OutputStreamAppearsWholeOnClose) {
  std::string p = path("s/out.bin");
  io_->counters().reset();
  auto s = io_->open_output(p);
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  std::string big(300000, '\0');
  std::mt19937 rng(2);
  for (auto& c : big) c = static_cast<char>(rng());
  ASSERT_TRUE((*s)->write("abc").ok());
  ASSERT_TRUE((*s)->write("").ok());
  ASSERT_TRUE((*s)->write(big).ok());
  EXPECT_EQ((*s)->position(), 300003);
  EXPECT_FALSE(io_->exists(p).value_or(true)) << "visible before close";
  ASSERT_TRUE((*s)->close().ok());
  auto back = io_->read_file(p);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(*back == "abc" + big);
  EXPECT_FALSE((*s)->write("z").ok());
  EXPECT_FALSE((*s)->close().ok());
  auto c = io_->counters().snapshot();
  EXPECT_EQ(c.write_requests, 1);
  EXPECT_EQ(c.bytes_written, 300003);
}

TEST_P(FileIOContract, OutputStreamDroppedLeavesNoFile) {
  std::string p = path("d/out.bin");
  {
    auto s = io_->open_output(p);
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE((*s)->write("partial").ok());
  }
  EXPECT_FALSE(io_->exists(p).value_or(true));
  auto listed = io_->list(path("d"));
  ASSERT_TRUE(listed.ok());
  EXPECT_TRUE(listed->empty());
}

TEST_P(FileIOContract, OutputStreamCreateNewKeepsTheFirst) {
  std::string p = path("n/v1.json");
  ASSERT_TRUE(io_->write_file(p, "one", WriteMode::kCreateNew).ok());
  auto s = io_->open_output(p, WriteMode::kCreateNew);
  Status st = s.ok() ? (*s)->write("two") : s.status();
  if (st.ok()) st = (*s)->close();
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(io_->read_file(p).value_or("?"), "one");
  // Overwrite replaces.
  auto o = io_->open_output(p);
  ASSERT_TRUE(o.ok());
  ASSERT_TRUE((*o)->write("three").ok());
  ASSERT_TRUE((*o)->close().ok());
  EXPECT_EQ(io_->read_file(p).value_or("?"), "three");
}

TEST_P(FileIOContract, CreateNewRaceHasOneWinner) {
  std::string p = path("race/v2.metadata.json");
  constexpr int kThreads = 8;
  std::atomic<int> won{0}, lost{0}, other{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      Status s = io_->write_file(p, fmt::format("writer {}", i), WriteMode::kCreateNew);
      if (s.ok()) {
        won++;
      } else if (s.kind() == ErrorKind::kAlreadyExists) {
        lost++;
      } else {
        other++;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(won.load(), 1);
  EXPECT_EQ(lost.load(), kThreads - 1);
  EXPECT_EQ(other.load(), 0);
  auto content = io_->read_file(p);
  ASSERT_TRUE(content.ok());
  EXPECT_TRUE(content->starts_with("writer "));
}

TEST_P(FileIOContract, NestedDirectoriesCreated) {
  std::string p = path("wh/db/t/data/part=1/00000-0.parquet");
  ASSERT_TRUE(io_->write_file(p, "PAR1").ok());
  EXPECT_EQ(io_->read_file(p).value_or("?"), "PAR1");
}

TEST_P(FileIOContract, DeleteFile) {
  std::string p = path("d/x");
  ASSERT_TRUE(io_->write_file(p, "x").ok());
  ASSERT_TRUE(io_->delete_file(p).ok());
  EXPECT_FALSE(io_->exists(p).value_or(true));
  EXPECT_EQ(io_->read_file(p).status().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(io_->delete_file(p).kind(), ErrorKind::kNotFound);
}

TEST_P(FileIOContract, ListRecursiveSorted) {
  ASSERT_TRUE(io_->write_file(path("t/b.txt"), "bb").ok());
  ASSERT_TRUE(io_->write_file(path("t/a.txt"), "a").ok());
  ASSERT_TRUE(io_->write_file(path("t/sub/deeper/c.txt"), "ccc").ok());
  ASSERT_TRUE(io_->write_file(path("t/zz"), "").ok());
  ASSERT_TRUE(io_->write_file(path("t2/not-mine.txt"), "x").ok());
  ASSERT_TRUE(io_->write_file(path("u.txt"), "x").ok());

  for (std::string prefix : {path("t"), path("t") + "/"}) {
    auto listed = io_->list(prefix);
    ASSERT_TRUE(listed.ok()) << listed.status().to_string();
    std::vector<std::string> paths;
    for (const auto& f : *listed) paths.push_back(f.path);
    EXPECT_EQ(paths, (std::vector<std::string>{path("t/a.txt"), path("t/b.txt"),
                                               path("t/sub/deeper/c.txt"), path("t/zz")}))
        << prefix;
    ASSERT_EQ(listed->size(), 4u);
    EXPECT_EQ((*listed)[0].size, 1);
    EXPECT_EQ((*listed)[1].size, 2);
    EXPECT_EQ((*listed)[2].size, 3);
    EXPECT_EQ((*listed)[3].size, 0);
    auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
    for (const auto& f : *listed) {
      EXPECT_GT(f.modified_ms, now_ms - 600'000) << f.path;
      EXPECT_LE(f.modified_ms, now_ms + 1000) << f.path;
    }
  }
}

TEST_P(FileIOContract, ListMissingDirectoryIsEmpty) {
  auto listed = io_->list(path("nothing/here"));
  ASSERT_TRUE(listed.ok()) << listed.status().to_string();
  EXPECT_TRUE(listed->empty());
}

TEST_P(FileIOContract, CountersExact) {
  std::string p = path("c/file");
  io_->counters().reset();
  ASSERT_TRUE(io_->write_file(p, "12345").ok());
  auto s = io_->counters().snapshot();
  EXPECT_EQ(s.write_requests, 1);
  EXPECT_EQ(s.bytes_written, 5);
  EXPECT_EQ(s.read_requests, 0);
  EXPECT_EQ(s.metadata_requests, 0);

  ASSERT_TRUE(io_->read_file(p).ok());
  ASSERT_TRUE(io_->read_range(p, 1, 2).ok());
  s = io_->counters().snapshot();
  EXPECT_EQ(s.read_requests, 2);
  EXPECT_EQ(s.bytes_read, 7);

  ASSERT_TRUE(io_->exists(p).ok());
  ASSERT_TRUE(io_->file_size(p).ok());
  ASSERT_TRUE(io_->list(path("c")).ok());
  ASSERT_TRUE(io_->delete_file(p).ok());
  s = io_->counters().snapshot();
  EXPECT_EQ(s.metadata_requests, 4);
  EXPECT_EQ(s.write_requests, 1);
  EXPECT_EQ(s.read_requests, 2);

  // Failed requests count as requests but move no bytes.
  auto before = io_->counters().snapshot();
  EXPECT_FALSE(io_->read_file(p).ok());
  EXPECT_FALSE(io_->read_range(path("c/none"), 0, 1).ok());
  ASSERT_TRUE(io_->write_file(p, "abc", WriteMode::kCreateNew).ok());
  EXPECT_FALSE(io_->write_file(p, "abcdef", WriteMode::kCreateNew).ok());
  EXPECT_FALSE(io_->delete_file(path("c/none")).ok());
  auto d = io_->counters().snapshot() - before;
  EXPECT_EQ(d.read_requests, 2);
  EXPECT_EQ(d.bytes_read, 0);
  EXPECT_EQ(d.write_requests, 2);
  EXPECT_EQ(d.bytes_written, 3);
  EXPECT_EQ(d.metadata_requests, 1);

  io_->counters().reset();
  EXPECT_EQ(io_->counters().snapshot().write_requests, 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, FileIOContract, ::testing::ValuesIn(backends()),
                         [](const auto& info) { return info.param.name; });

// ---- local only -------------------------------------------------------------------------------

class LocalFileIOTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir();
    ASSERT_FALSE(dir_.empty());
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::vector<std::string> raw_entries(const std::string& dir) const {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      out.push_back(fs::relative(e.path(), dir).string());
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  std::string dir_;
  FileIOPtr io_ = make_local_file_io();
};

TEST_F(LocalFileIOTest, FileUriForms) {
  std::string plain = dir_ + "/u/v.json";
  ASSERT_TRUE(io_->write_file("file://" + plain, "{}").ok());  // file:///tmp/...
  EXPECT_EQ(io_->read_file(plain).value_or("?"), "{}");
  EXPECT_EQ(io_->read_file("file:" + plain).value_or("?"), "{}");
  EXPECT_EQ(io_->read_range("file://" + plain, 1, 1).value_or("?"), "}");
  EXPECT_EQ(io_->file_size("file:" + plain).value_or(-1), 2);
  EXPECT_TRUE(io_->exists("file:" + plain).value_or(false));

  auto listed = io_->list("file:" + dir_ + "/u");
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].path, "file:" + plain);  // in the spelling the caller used

  ASSERT_TRUE(io_->delete_file("file://" + plain).ok());
  EXPECT_FALSE(fs::exists(plain));
}

TEST_F(LocalFileIOTest, RelativeFileUri) {
  // "file://wh/t" is relative to the working directory.
  auto cwd = fs::current_path();
  fs::current_path(dir_);
  Status s = io_->write_file("file://wh/t/x", "rel");
  bool on_disk = fs::exists(fs::path(dir_) / "wh/t/x");
  auto back = io_->read_file("wh/t/x");
  fs::current_path(cwd);
  ASSERT_TRUE(s.ok()) << s.to_string();
  EXPECT_TRUE(on_disk);
  EXPECT_EQ(back.value_or("?"), "rel");
}

TEST_F(LocalFileIOTest, NoTempFilesLeftBehind) {
  std::string p = dir_ + "/m/v1.json";
  ASSERT_TRUE(io_->write_file(p, "a").ok());
  ASSERT_TRUE(io_->write_file(p, "b").ok());
  EXPECT_EQ(io_->write_file(p, "c", WriteMode::kCreateNew).kind(), ErrorKind::kAlreadyExists);
  ASSERT_TRUE(io_->write_file(dir_ + "/m/v2.json", "d", WriteMode::kCreateNew).ok());
  EXPECT_EQ(raw_entries(dir_), (std::vector<std::string>{"m", "m/v1.json", "m/v2.json"}));
}

TEST_F(LocalFileIOTest, OutputStreamsLeaveNoTempFiles) {
  std::string p = dir_ + "/o/a.parquet";
  {
    auto s = io_->open_output(p);
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE((*s)->write("dropped").ok());
  }
  auto s = io_->open_output(p);
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE((*s)->write("kept").ok());
  ASSERT_TRUE((*s)->close().ok());
  auto n = io_->open_output(p, WriteMode::kCreateNew);
  Status st = n.ok() ? (*n)->close() : n.status();
  EXPECT_EQ(st.kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(raw_entries(dir_), (std::vector<std::string>{"o", "o/a.parquet"}));
  EXPECT_EQ(io_->read_file(p).value_or("?"), "kept");
}

TEST_F(LocalFileIOTest, ListSkipsInFlightTempFilesOnly) {
  ASSERT_TRUE(io_->write_file(dir_ + "/t/a", "a").ok());
  std::string temp = dir_ + "/t/.b.0123456789abcdef.tmp";
  std::string hidden = dir_ + "/t/.hidden";
  std::string user_tmp = dir_ + "/t/report.tmp";
  for (const auto& f : {temp, hidden, user_tmp}) {
    FILE* fp = fopen(f.c_str(), "w");
    ASSERT_NE(fp, nullptr);
    fclose(fp);
  }
  auto listed = io_->list(dir_ + "/t");
  ASSERT_TRUE(listed.ok());
  std::vector<std::string> paths;
  for (const auto& f : *listed) paths.push_back(f.path);
  EXPECT_EQ(paths,
            (std::vector<std::string>{dir_ + "/t/.hidden", dir_ + "/t/a", dir_ + "/t/report.tmp"}));
}

TEST_F(LocalFileIOTest, ModifiedTimeMatchesDisk) {
  std::string p = dir_ + "/f";
  ASSERT_TRUE(io_->write_file(p, "x").ok());
  struct stat st;
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  auto listed = io_->list(dir_);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].modified_ms,
            static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000);
}

TEST_F(LocalFileIOTest, ListOfAFileIsEmpty) {
  ASSERT_TRUE(io_->write_file(dir_ + "/f", "x").ok());
  auto listed = io_->list(dir_ + "/f");
  ASSERT_TRUE(listed.ok());
  EXPECT_TRUE(listed->empty());
}

TEST_F(LocalFileIOTest, DirectoryIsNotAFile) {
  ASSERT_TRUE(io_->write_file(dir_ + "/d/f", "x").ok());
  EXPECT_FALSE(io_->exists(dir_ + "/d").value_or(true));
  EXPECT_FALSE(io_->read_file(dir_ + "/d").ok());
  EXPECT_FALSE(io_->file_size(dir_ + "/d").ok());
}

TEST_F(LocalFileIOTest, WriteUnderAFileFails) {
  ASSERT_TRUE(io_->write_file(dir_ + "/f", "x").ok());
  Status s = io_->write_file(dir_ + "/f/child", "y");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.kind(), ErrorKind::kIo);
  EXPECT_NE(s.message().find("/f/child"), std::string::npos);
}

TEST_F(LocalFileIOTest, TrailingSlashIsNotAFilePath) {
  EXPECT_EQ(io_->write_file(dir_ + "/x/", "y").kind(), ErrorKind::kInvalidArgument);
}

TEST_F(LocalFileIOTest, OverwriteIsVisibleToOpenReaders) {
  // A reader holding the old file keeps seeing the old bytes: the new file is a new inode.
  std::string p = dir_ + "/v";
  ASSERT_TRUE(io_->write_file(p, "old").ok());
  FILE* fp = fopen(p.c_str(), "r");
  ASSERT_NE(fp, nullptr);
  ASSERT_TRUE(io_->write_file(p, "new!").ok());
  char buf[8] = {};
  size_t n = fread(buf, 1, sizeof(buf), fp);
  fclose(fp);
  EXPECT_EQ(std::string(buf, n), "old");
  EXPECT_EQ(io_->read_file(p).value_or("?"), "new!");
}

// ---- memory only ------------------------------------------------------------------------------

TEST(MemoryFileIO, PathsArePlainKeys) {
  auto io = make_memory_file_io();
  ASSERT_TRUE(io->write_file("s3://bucket/a", "1").ok());
  EXPECT_TRUE(io->exists("s3://bucket/a").value_or(false));
  EXPECT_FALSE(io->exists("bucket/a").value_or(true));
  auto all = io->list("");
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0].path, "s3://bucket/a");
}

}  // namespace
}  // namespace floe
