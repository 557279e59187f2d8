// ForwardingFileIO: a FileIO for tests that passes every call to an inner FileIO; a test's
// wrapper derives from it and overrides only the calls it intercepts (counts, hooks, faults).
// read_range_into and open_output keep FileIO's defaults, which go through read_range and
// write_file, so a wrapper that intercepts those sees ranged reads and streamed files too.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "floe/io/file_io.h"

namespace floe::test_support {

class ForwardingFileIO : public FileIO {
 public:
  explicit ForwardingFileIO(FileIOPtr inner) : inner_(std::move(inner)) {}

  Result<std::string> read_file(std::string_view path) override { return inner_->read_file(path); }
  Result<std::string> read_range(std::string_view path, int64_t offset, int64_t length) override {
    return inner_->read_range(path, offset, length);
  }
  Result<int64_t> file_size(std::string_view path) override { return inner_->file_size(path); }
  Status write_file(std::string_view path, std::string_view data, WriteMode mode) override {
    return inner_->write_file(path, data, mode);
  }
  Result<bool> exists(std::string_view path) override { return inner_->exists(path); }
  Status delete_file(std::string_view path) override { return inner_->delete_file(path); }
  Result<std::vector<FileInfo>> list(std::string_view prefix) override {
    return inner_->list(prefix);
  }
  const IoCounters& counters() const override { return inner_->counters(); }
  IoCounters& counters() override { return inner_->counters(); }

 protected:
  FileIOPtr inner_;
};

}  // namespace floe::test_support
