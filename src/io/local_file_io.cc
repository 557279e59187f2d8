// Local-disk FileIO. Writes go to a temp file beside the target and become visible with one
// rename (overwrite) or link (create-if-absent), so readers never see a partial file.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <system_error>
#include <thread>

#include "floe/io/file_io.h"

namespace floe {

namespace {

constexpr size_t kTempRandomHexDigits = 16;

std::string error_text(int err) { return std::generic_category().message(err); }

// ENOTDIR means a parent component is a regular file: the path cannot name a file either.
bool is_missing(int err) { return err == ENOENT || err == ENOTDIR; }

Status errno_status(int err, std::string_view op, const std::string& path) {
  if (is_missing(err)) return not_found("{}: file not found: {}", op, path);
  return io_error("{} {}: {}", op, path, error_text(err));
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  void reset(int fd) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  // Closes now so that a failing close (deferred write errors) can be reported.
  int close() {
    int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }

 private:
  int fd_;
};

int64_t mtime_ms(const struct stat& st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
}

std::string random_hex() {
  thread_local std::mt19937_64 rng([] {
    std::random_device rd;
    uint64_t seed = (static_cast<uint64_t>(rd()) << 32) ^ rd();
    seed ^= static_cast<uint64_t>(::getpid()) << 17;
    seed ^= std::hash<std::thread::id>{}(std::this_thread::get_id());
    seed ^= static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    return seed;
  }());
  return fmt::format("{:016x}", rng());
}

// Temp files of in-flight writes: ".<name>.<16 hex digits>.tmp".
bool is_temp_name(std::string_view name) {
  constexpr std::string_view kSuffix = ".tmp";
  // '.' + at least one name char + '.' + hex + suffix
  if (name.size() < 3 + kTempRandomHexDigits + kSuffix.size()) return false;
  if (name.front() != '.' || !name.ends_with(kSuffix)) return false;
  std::string_view rest = name.substr(0, name.size() - kSuffix.size());
  std::string_view hex = rest.substr(rest.size() - kTempRandomHexDigits);
  if (rest[rest.size() - kTempRandomHexDigits - 1] != '.') return false;
  return std::all_of(hex.begin(), hex.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

Status write_all(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error("write {}: {}", path, error_text(errno));
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return Status::OK();
}

// Publishes `temp` as `target` only if `target` does not exist yet.
Status publish_new(const std::string& temp, const std::string& target) {
  if (::link(temp.c_str(), target.c_str()) == 0) return Status::OK();
  int err = errno;
  if (err == EPERM || err == ENOTSUP || err == EOPNOTSUPP || err == EMLINK) {
    // Filesystems without hard links (vfat, some FUSE): the kernel's no-replace rename.
    if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0) {
      return Status::OK();
    }
    err = errno;
  }
  if (err == EEXIST)
    return make_error(ErrorKind::kAlreadyExists, "file already exists: {}", target);
  return io_error("write {}: {}", target, error_text(err));
}

// A temp file beside `path` that becomes `path` on publish() (rename for overwrite, link for
// create-if-absent). Removed on destruction unless published.
struct TempFile {
  std::string path, temp;
  WriteMode mode = WriteMode::kOverwrite;
  Fd fd{-1};

  static Result<TempFile> open(std::string path, WriteMode mode) {
    auto slash = path.rfind('/');
    // `dir_prefix` keeps the trailing '/' so that "/x" puts its temp file in "/", not in ".".
    std::string dir_prefix = slash == std::string::npos ? "" : path.substr(0, slash + 1);
    std::string dir = slash == std::string::npos || slash == 0 ? "" : path.substr(0, slash);
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    if (name.empty() || name == "." || name == "..") {
      return invalid_argument("write: not a file path: '{}'", path);
    }
    if (mode == WriteMode::kCreateNew) {
      // Cheap early answer; link() in publish() is what makes create-if-absent atomic.
      struct stat st;
      if (::lstat(path.c_str(), &st) == 0) {
        return make_error(ErrorKind::kAlreadyExists, "file already exists: {}", path);
      }
    }
    if (!dir.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
      if (ec) return io_error("write {}: cannot create directory {}: {}", path, dir, ec.message());
    }
    TempFile t;
    t.mode = mode;
    int raw_fd = -1;
    for (int attempt = 0; attempt < 8 && raw_fd < 0; ++attempt) {
      t.temp = fmt::format("{}.{}.{}.tmp", dir_prefix, name, random_hex());
      raw_fd = ::open(t.temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (raw_fd < 0 && errno != EEXIST) break;
    }
    if (raw_fd < 0) {
      return io_error("write {}: cannot create temp file: {}", path, error_text(errno));
    }
    t.fd.reset(raw_fd);
    t.path = std::move(path);
    return t;
  }

  TempFile() = default;
  TempFile(TempFile&& o) noexcept
      : path(std::move(o.path)), temp(std::move(o.temp)), mode(o.mode), fd(o.fd.release()) {
    o.temp.clear();
  }
  TempFile& operator=(TempFile&&) = delete;
  ~TempFile() {
    if (!temp.empty()) ::unlink(temp.c_str());  // never published
  }

  Status publish() {
    Status status = Status::OK();
    if (fd.close() != 0) status = io_error("write {}: {}", path, error_text(errno));
    if (status.ok()) {
      if (mode == WriteMode::kOverwrite) {
        if (::rename(temp.c_str(), path.c_str()) != 0) {
          status = io_error("write {}: rename failed: {}", path, error_text(errno));
        }
      } else {
        status = publish_new(temp, path);
      }
    }
    // After a rename the temp name is gone and this is a harmless ENOENT; after a link it is
    // the second name of the published file.
    ::unlink(temp.c_str());
    temp.clear();
    return status;
  }
};

// Writes straight to the temp file; close() publishes it.
class LocalOutputStream final : public OutputStream {
 public:
  LocalOutputStream(TempFile t, IoCounters* counters) : t_(std::move(t)), counters_(counters) {}

  Status write(std::string_view data) override {
    if (closed_) return invalid_argument("write {}: stream is closed", t_.path);
    FLOE_TRY(write_all(t_.fd.get(), data, t_.path));
    position_ += static_cast<int64_t>(data.size());
    return Status::OK();
  }

  Status close() override {
    if (closed_) return invalid_argument("close {}: stream is already closed", t_.path);
    closed_ = true;
    FLOE_TRY(t_.publish());
    counters_->bytes_written += position_;
    return Status::OK();
  }

 private:
  TempFile t_;
  IoCounters* counters_;
  bool closed_ = false;
};

class LocalFileIO final : public FileIO {
 public:
  Result<std::string> read_file(std::string_view uri) override {
    counters_.read_requests++;
    std::string path = local_path_of(uri);
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) return errno_status(errno, "read", path);
    struct stat st;
    if (::fstat(fd.get(), &st) != 0) return errno_status(errno, "read", path);
    if (S_ISDIR(st.st_mode)) return io_error("read {}: is a directory", path);

    std::string out(static_cast<size_t>(std::max<off_t>(st.st_size, 0)), '\0');
    size_t pos = 0;
    while (true) {
      char spill[64 * 1024];
      // Fill the buffer sized by fstat, then keep reading in case the file grew meanwhile.
      bool in_buffer = pos < out.size();
      char* dst = in_buffer ? out.data() + pos : spill;
      size_t room = in_buffer ? out.size() - pos : sizeof(spill);
      ssize_t n = ::read(fd.get(), dst, room);
      if (n < 0) {
        if (errno == EINTR) continue;
        return errno_status(errno, "read", path);
      }
      if (n == 0) break;
      if (in_buffer) {
        pos += static_cast<size_t>(n);
      } else {
        out.append(spill, static_cast<size_t>(n));
        pos = out.size();
      }
    }
    out.resize(pos);
    counters_.bytes_read += static_cast<int64_t>(out.size());
    return out;
  }

  Result<std::string> read_range(std::string_view uri, int64_t offset, int64_t length) override {
    std::string out;
    FLOE_TRY(read_range_to(uri, offset, length, [&](size_t n) {
      out.resize(n);
      return out.data();
    }));
    return out;
  }

  Status read_range_into(std::string_view uri, int64_t offset, int64_t length,
                         Buffer* out) override {
    return read_range_to(uri, offset, length, [&](size_t n) {
      out->resize(n);
      return reinterpret_cast<char*>(out->data());
    });
  }

 private:
  // Reads the range into the `length` bytes that alloc(length) returns.
  template <typename Alloc>
  Status read_range_to(std::string_view uri, int64_t offset, int64_t length, Alloc&& alloc) {
    counters_.read_requests++;
    std::string path = local_path_of(uri);
    if (offset < 0 || length < 0) {
      return invalid_argument("read_range {}: negative offset {} or length {}", path, offset,
                              length);
    }
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) return errno_status(errno, "read", path);
    struct stat st;
    if (::fstat(fd.get(), &st) != 0) return errno_status(errno, "read", path);
    if (S_ISDIR(st.st_mode)) return io_error("read {}: is a directory", path);
    int64_t size = st.st_size;
    if (offset > size || length > size - offset) {
      return invalid_data(
          "read_range {}: offset {} length {} passes the end of the file (file size {})", path,
          offset, length, size);
    }
    char* dst = alloc(static_cast<size_t>(length));
    size_t pos = 0;
    while (pos < static_cast<size_t>(length)) {
      ssize_t n = ::pread(fd.get(), dst + pos, static_cast<size_t>(length) - pos,
                          static_cast<off_t>(offset + static_cast<int64_t>(pos)));
      if (n < 0) {
        if (errno == EINTR) continue;
        return errno_status(errno, "read", path);
      }
      if (n == 0) {
        return io_error("read_range {}: file shrank while reading offset {} length {}", path,
                        offset, length);
      }
      pos += static_cast<size_t>(n);
    }
    counters_.bytes_read += length;
    return Status::OK();
  }

 public:
  Result<int64_t> file_size(std::string_view uri) override {
    counters_.metadata_requests++;
    std::string path = local_path_of(uri);
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return errno_status(errno, "stat", path);
    if (S_ISDIR(st.st_mode)) return invalid_argument("file_size {}: is a directory", path);
    return static_cast<int64_t>(st.st_size);
  }

  Status write_file(std::string_view uri, std::string_view data, WriteMode mode) override {
    counters_.write_requests++;
    TempFile t = FLOE_TRY(TempFile::open(local_path_of(uri), mode));
    FLOE_TRY(write_all(t.fd.get(), data, t.path));
    FLOE_TRY(t.publish());
    counters_.bytes_written += static_cast<int64_t>(data.size());
    return Status::OK();
  }

  Result<std::unique_ptr<OutputStream>> open_output(std::string_view uri, WriteMode mode) override {
    counters_.write_requests++;
    TempFile t = FLOE_TRY(TempFile::open(local_path_of(uri), mode));
    return std::unique_ptr<OutputStream>(
        std::make_unique<LocalOutputStream>(std::move(t), &counters_));
  }

  Result<bool> exists(std::string_view uri) override {
    counters_.metadata_requests++;
    std::string path = local_path_of(uri);
    struct stat st;
    if (::stat(path.c_str(), &st) == 0) return !S_ISDIR(st.st_mode);
    if (is_missing(errno)) return false;
    return io_error("stat {}: {}", path, error_text(errno));
  }

  Status delete_file(std::string_view uri) override {
    counters_.metadata_requests++;
    counters_.delete_requests++;
    std::string path = local_path_of(uri);
    if (::unlink(path.c_str()) != 0) return errno_status(errno, "delete", path);
    return Status::OK();
  }

  Result<std::vector<FileInfo>> list(std::string_view prefix) override {
    counters_.metadata_requests++;
    counters_.list_requests++;
    std::string root = local_path_of(prefix);
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    if (root.empty()) root = ".";
    struct stat st;
    if (::stat(root.c_str(), &st) != 0) {
      if (is_missing(errno)) return std::vector<FileInfo>{};
      return io_error("list {}: {}", root, error_text(errno));
    }
    std::vector<FileInfo> out;
    if (!S_ISDIR(st.st_mode)) return out;
    FLOE_TRY(walk(root, std::string(prefix), out));
    std::sort(out.begin(), out.end(),
              [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; });
    return out;
  }

 private:
  // Collects regular files under `dir`, naming them `shown` + relative path so that callers
  // get back the spelling (plain or file: URI) they listed with. Does not descend into
  // symlinked directories, which could loop.
  static Status walk(const std::string& dir, const std::string& shown, std::vector<FileInfo>& out) {
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) {
      if (is_missing(errno)) return Status::OK();  // removed while we were listing
      return io_error("list {}: {}", dir, error_text(errno));
    }
    std::unique_ptr<DIR, int (*)(DIR*)> guard(d, ::closedir);
    while (true) {
      errno = 0;
      struct dirent* e = ::readdir(d);
      if (e == nullptr) {
        if (errno != 0) return io_error("list {}: {}", dir, error_text(errno));
        break;
      }
      std::string_view name = e->d_name;
      if (name == "." || name == "..") continue;
      std::string full = dir == "/" ? "/" + std::string(name) : dir + "/" + std::string(name);
      std::string shown_child = join_path(shown, name);
      struct stat st;
      if (::lstat(full.c_str(), &st) != 0) {
        if (is_missing(errno)) continue;
        return io_error("list {}: {}", full, error_text(errno));
      }
      if (S_ISDIR(st.st_mode)) {
        FLOE_TRY(walk(full, shown_child, out));
        continue;
      }
      if (S_ISLNK(st.st_mode) && (::stat(full.c_str(), &st) != 0 || !S_ISREG(st.st_mode))) {
        continue;  // dangling, or a link to a directory
      }
      if (!S_ISREG(st.st_mode) || is_temp_name(name)) continue;
      out.push_back({std::move(shown_child), static_cast<int64_t>(st.st_size), mtime_ms(st)});
    }
    return Status::OK();
  }
};

}  // namespace

FileIOPtr make_local_file_io() { return std::make_shared<LocalFileIO>(); }

}  // namespace floe
