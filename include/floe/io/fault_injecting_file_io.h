// FaultInjectingFileIO: a FileIO wrapper for tests that makes chosen writes fail with kIo, so
// commit paths can be exercised against storage failures. A rule selects writes by a path
// substring, lets the first `skip` matching writes succeed, then fails the next `times` of
// them. "Lost acknowledgement" rules let the write land but still report the error, the case
// where a caller cannot know whether its file exists. `crash()` makes every later operation
// fail, as if the process had died. Counters record attempted, failed and deleted files.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "floe/io/file_io.h"

namespace floe {

struct WriteFault {
  std::string path_contains;  // empty = every path
  int64_t skip = 0;           // matching writes that succeed before the first failure
  int64_t times = 1;          // failures to inject; -1 = every matching write from then on
  bool lost_ack = false;      // the write lands, yet the call fails
};

class FaultInjectingFileIO : public FileIO {
 public:
  explicit FaultInjectingFileIO(FileIOPtr inner);

  // Adds a rule; the first rule that selects a write decides its fate.
  void fail_writes(WriteFault fault);
  // Fails the n-th write from now (1-based), whatever its path.
  void fail_nth_write(int64_t n) { fail_writes({.path_contains = "", .skip = n - 1}); }
  // Every later operation (reads included) fails with kIo.
  void crash();
  // Drops every rule and the crash state; keeps the counters.
  void heal();

  int64_t writes_attempted() const;
  int64_t writes_failed() const;
  std::vector<std::string> written_paths() const;  // writes that landed, in order
  std::vector<std::string> deleted_paths() const;
  const FileIOPtr& inner() const { return inner_; }

  Result<std::string> read_file(std::string_view path) override;
  Result<std::string> read_range(std::string_view path, int64_t offset, int64_t length) override;
  Result<int64_t> file_size(std::string_view path) override;
  Status write_file(std::string_view path, std::string_view data,
                    WriteMode mode = WriteMode::kOverwrite) override;
  Result<bool> exists(std::string_view path) override;
  Status delete_file(std::string_view path) override;
  Result<std::vector<FileInfo>> list(std::string_view prefix) override;

  const IoCounters& counters() const override { return inner_->counters(); }
  IoCounters& counters() override { return inner_->counters(); }

 private:
  struct Rule {
    WriteFault fault;
    int64_t seen = 0;
    int64_t failed = 0;
  };
  Status crashed(std::string_view op, std::string_view path) const;
  // The rule that fails this write, or nullptr.
  const Rule* select(std::string_view path);

  FileIOPtr inner_;
  mutable std::mutex mu_;
  std::vector<Rule> rules_;
  bool crashed_ = false;
  int64_t attempted_ = 0;
  int64_t failed_ = 0;
  std::vector<std::string> written_;
  std::vector<std::string> deleted_;
};

}  // namespace floe
