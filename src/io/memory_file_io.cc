// In-memory FileIO for tests: one mutex-protected map from path to content. Semantics follow
// the local FileIO, so a test passing here means the same thing on disk.
#include <chrono>
#include <map>
#include <mutex>

#include "floe/io/file_io.h"

namespace floe {

namespace {

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class MemoryFileIO final : public FileIO {
 public:
  Result<std::string> read_file(std::string_view path) override {
    counters_.read_requests++;
    std::lock_guard lock(mu_);
    auto it = files_.find(path);
    if (it == files_.end()) return not_found("read: file not found: {}", path);
    counters_.bytes_read += static_cast<int64_t>(it->second.data.size());
    return it->second.data;
  }

  Result<std::string> read_range(std::string_view path, int64_t offset, int64_t length) override {
    counters_.read_requests++;
    if (offset < 0 || length < 0) {
      return invalid_argument("read_range {}: negative offset {} or length {}", path, offset,
                              length);
    }
    std::lock_guard lock(mu_);
    auto it = files_.find(path);
    if (it == files_.end()) return not_found("read: file not found: {}", path);
    const std::string& data = it->second.data;
    int64_t size = static_cast<int64_t>(data.size());
    if (offset > size || length > size - offset) {
      return invalid_data(
          "read_range {}: offset {} length {} passes the end of the file (file size {})", path,
          offset, length, size);
    }
    counters_.bytes_read += length;
    return data.substr(static_cast<size_t>(offset), static_cast<size_t>(length));
  }

  Result<int64_t> file_size(std::string_view path) override {
    counters_.metadata_requests++;
    std::lock_guard lock(mu_);
    auto it = files_.find(path);
    if (it == files_.end()) return not_found("stat: file not found: {}", path);
    return static_cast<int64_t>(it->second.data.size());
  }

  Status write_file(std::string_view path, std::string_view data, WriteMode mode) override {
    counters_.write_requests++;
    if (path.empty() || path.back() == '/') {
      return invalid_argument("write: not a file path: '{}'", path);
    }
    std::lock_guard lock(mu_);
    auto it = files_.find(path);
    if (it != files_.end()) {
      if (mode == WriteMode::kCreateNew) {
        return make_error(ErrorKind::kAlreadyExists, "file already exists: {}", path);
      }
      it->second = {std::string(data), now_ms()};
    } else {
      files_.emplace(std::string(path), Entry{std::string(data), now_ms()});
    }
    counters_.bytes_written += static_cast<int64_t>(data.size());
    return Status::OK();
  }

  Result<bool> exists(std::string_view path) override {
    counters_.metadata_requests++;
    std::lock_guard lock(mu_);
    return files_.find(path) != files_.end();
  }

  Status delete_file(std::string_view path) override {
    counters_.metadata_requests++;
    counters_.delete_requests++;
    std::lock_guard lock(mu_);
    auto it = files_.find(path);
    if (it == files_.end()) return not_found("delete: file not found: {}", path);
    files_.erase(it);
    return Status::OK();
  }

  // `prefix` is treated as a directory, as on disk: "wh/t" lists "wh/t/a" but not "wh/t2/a".
  Result<std::vector<FileInfo>> list(std::string_view prefix) override {
    counters_.metadata_requests++;
    counters_.list_requests++;
    std::string dir(prefix);
    if (!dir.empty() && dir.back() != '/') dir.push_back('/');
    std::vector<FileInfo> out;
    std::lock_guard lock(mu_);
    for (auto it = files_.lower_bound(dir); it != files_.end() && it->first.starts_with(dir);
         ++it) {
      out.push_back(
          {it->first, static_cast<int64_t>(it->second.data.size()), it->second.modified_ms});
    }
    return out;  // map order is path order
  }

 private:
  struct Entry {
    std::string data;
    int64_t modified_ms = 0;
  };

  std::mutex mu_;
  std::map<std::string, Entry, std::less<>> files_;
};

}  // namespace

FileIOPtr make_memory_file_io() { return std::make_shared<MemoryFileIO>(); }

}  // namespace floe
