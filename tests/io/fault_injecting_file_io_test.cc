#include "floe/io/fault_injecting_file_io.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(FaultInjectingFileIO, FailsTheNthWrite) {
  FaultInjectingFileIO io(make_memory_file_io());
  io.fail_nth_write(2);
  EXPECT_TRUE(io.write_file("a", "1").ok());
  auto s = io.write_file("b", "2");
  EXPECT_EQ(s.kind(), ErrorKind::kIo);
  EXPECT_NE(s.message().find("'b'"), std::string::npos);
  EXPECT_FALSE(*io.exists("b"));
  EXPECT_TRUE(io.write_file("c", "3").ok());
  EXPECT_EQ(io.writes_attempted(), 3);
  EXPECT_EQ(io.writes_failed(), 1);
  EXPECT_EQ(io.written_paths(), (std::vector<std::string>{"a", "c"}));
}

TEST(FaultInjectingFileIO, PathRulesSkipAndRepeat) {
  FaultInjectingFileIO io(make_memory_file_io());
  io.fail_writes({.path_contains = "snap-", .skip = 1, .times = 2});
  EXPECT_TRUE(io.write_file("m/x.avro", "").ok());
  EXPECT_TRUE(io.write_file("m/snap-1.avro", "").ok());   // skipped
  EXPECT_FALSE(io.write_file("m/snap-2.avro", "").ok());  // fails
  EXPECT_FALSE(io.write_file("m/snap-3.avro", "").ok());  // fails
  EXPECT_TRUE(io.write_file("m/snap-4.avro", "").ok());   // rule used up
  EXPECT_EQ(io.writes_failed(), 2);
  io.fail_writes({.path_contains = "", .times = -1});
  EXPECT_FALSE(io.write_file("q", "").ok());
  EXPECT_FALSE(io.write_file("r", "").ok());
  io.heal();
  EXPECT_TRUE(io.write_file("r", "").ok());
}

TEST(FaultInjectingFileIO, LostAcknowledgementAndCrash) {
  FaultInjectingFileIO io(make_memory_file_io());
  io.fail_writes({.path_contains = "", .lost_ack = true});
  EXPECT_EQ(io.write_file("a", "data").kind(), ErrorKind::kIo);
  EXPECT_EQ(*io.read_file("a"), "data");  // the write landed anyway
  ASSERT_TRUE(io.delete_file("a").ok());
  EXPECT_EQ(io.deleted_paths(), std::vector<std::string>{"a"});
  ASSERT_TRUE(io.write_file("b", "x").ok());
  io.crash();
  EXPECT_EQ(io.read_file("b").status().kind(), ErrorKind::kIo);
  EXPECT_EQ(io.write_file("c", "x").kind(), ErrorKind::kIo);
  EXPECT_EQ(io.delete_file("b").kind(), ErrorKind::kIo);
  io.heal();
  EXPECT_EQ(*io.read_file("b"), "x");
  EXPECT_GT(io.counters().snapshot().write_requests, 0);
}

}  // namespace
}  // namespace floe
