// FileIO: how floe reaches files. Whole and ranged reads, writes that become visible
// atomically, existence checks, deletes, and listing (maintenance only). Every implementation
// counts requests and bytes so EXPLAIN can report the I/O a plan cost.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/util/buffer.h"
#include "floe/util/result.h"

namespace floe {

// Request and byte counters. Thread-safe; snapshot() copies them.
struct IoCounters {
  std::atomic<int64_t> read_requests{0};
  std::atomic<int64_t> bytes_read{0};
  std::atomic<int64_t> write_requests{0};
  std::atomic<int64_t> bytes_written{0};
  std::atomic<int64_t> metadata_requests{0};  // exists, size, list, delete
  std::atomic<int64_t> list_requests{0};      // of those: listings (S3: one per page)
  std::atomic<int64_t> delete_requests{0};    // of those: deletes (S3: one per 1,000 in bulk)
  std::atomic<int64_t> retried_requests{0};   // sent again after a transient failure

  struct Snapshot {
    int64_t read_requests = 0;
    int64_t bytes_read = 0;
    int64_t write_requests = 0;
    int64_t bytes_written = 0;
    int64_t metadata_requests = 0;
    int64_t list_requests = 0;
    int64_t delete_requests = 0;
    int64_t retried_requests = 0;
    Snapshot operator-(const Snapshot& o) const {
      return {read_requests - o.read_requests,         bytes_read - o.bytes_read,
              write_requests - o.write_requests,       bytes_written - o.bytes_written,
              metadata_requests - o.metadata_requests, list_requests - o.list_requests,
              delete_requests - o.delete_requests,     retried_requests - o.retried_requests};
    }
  };
  Snapshot snapshot() const {
    return {read_requests.load(),   bytes_read.load(),        write_requests.load(),
            bytes_written.load(),   metadata_requests.load(), list_requests.load(),
            delete_requests.load(), retried_requests.load()};
  }
  void reset() {
    read_requests = 0;
    bytes_read = 0;
    write_requests = 0;
    bytes_written = 0;
    metadata_requests = 0;
    list_requests = 0;
    delete_requests = 0;
    retried_requests = 0;
  }
};

struct FileInfo {
  std::string path;
  int64_t size = 0;
  int64_t modified_ms = 0;
};

enum class WriteMode {
  kOverwrite,  // replace any existing file atomically
  kCreateNew,  // fail with kAlreadyExists if the file exists (atomic create-if-absent)
};

// A file written front to back. Nothing is visible until close() succeeds; then the whole file
// appears at once, as with FileIO::write_file and the same WriteMode. Dropping the stream without
// close() leaves no file. Lets writers of large files (Parquet) hand over their bytes part by part
// instead of holding the whole file in memory.
class OutputStream {
 public:
  virtual ~OutputStream() = default;
  virtual Status write(std::string_view data) = 0;
  virtual Status close() = 0;
  // Bytes written so far.
  int64_t position() const { return position_; }

 protected:
  int64_t position_ = 0;
};

class FileIO {
 public:
  virtual ~FileIO() = default;

  // Whole file. kNotFound if absent.
  virtual Result<std::string> read_file(std::string_view path) = 0;
  // Bytes [offset, offset + length). Errors if the range passes the end of the file.
  virtual Result<std::string> read_range(std::string_view path, int64_t offset, int64_t length) = 0;
  // The same into *out (resized to `length`), reusing its memory (and, through Buffer's block
  // cache, memory other readers dropped) instead of faulting in fresh pages for every chunk. The
  // default copies what read_range returns.
  virtual Status read_range_into(std::string_view path, int64_t offset, int64_t length,
                                 Buffer* out);
  virtual Result<int64_t> file_size(std::string_view path) = 0;
  // Writes the whole file; readers see either the old content or the new, never a part.
  virtual Status write_file(std::string_view path, std::string_view data,
                            WriteMode mode = WriteMode::kOverwrite) = 0;
  // The same, written part by part. The default collects the parts and calls write_file on
  // close(); the stream must not outlive this FileIO.
  virtual Result<std::unique_ptr<OutputStream>> open_output(std::string_view path,
                                                            WriteMode mode = WriteMode::kOverwrite);
  virtual Result<bool> exists(std::string_view path) = 0;
  // kNotFound if absent (S3 cannot tell: deleting a missing key succeeds there).
  virtual Status delete_file(std::string_view path) = 0;
  // Deletes many files, in as few requests as the storage allows (S3's DeleteObjects); files
  // already gone are not an error. The paths not deleted are appended to *failed (when given)
  // and the first error is returned. The default deletes one by one.
  virtual Status delete_files(const std::vector<std::string>& paths,
                              std::vector<std::string>* failed = nullptr);
  // True when delete_files takes many files a request: callers then hand it batches of up to
  // 1,000 paths instead of deleting file by file in parallel.
  virtual bool bulk_deletes() const { return false; }
  // Every file under a directory prefix, recursively, sorted by path. Maintenance only: scan
  // planning never lists.
  virtual Result<std::vector<FileInfo>> list(std::string_view prefix) = 0;

  // Wrappers (relocation, fault injection) report their inner FileIO's counters.
  virtual const IoCounters& counters() const { return counters_; }
  virtual IoCounters& counters() { return counters_; }

 protected:
  IoCounters counters_;
};

using FileIOPtr = std::shared_ptr<FileIO>;

// Deletes `paths` with up to `threads` requests in flight: in batches of 1,000 through
// delete_files when the FileIO deletes in bulk (S3), else file by file. `done(i, status)` is
// called once for each path (from the worker threads; ok means deleted or already gone).
void delete_all(FileIO& io, const std::vector<std::string>& paths, int threads,
                const std::function<void(size_t index, const Status& status)>& done);

// Local disk. Accepts plain paths and file: URIs (file:/x, file:///x, file://relative/x).
FileIOPtr make_local_file_io();
// In memory, for tests. Paths are plain keys; list(prefix) matches keys under the prefix taken as
// a directory ("wh/t" lists "wh/t/a", not "wh/t2/a"), as on disk.
FileIOPtr make_memory_file_io();

// Strips a file: scheme: "file:///tmp/x" -> "/tmp/x", "file:/tmp/x" -> "/tmp/x",
// "file://wh/t" -> "wh/t". Other strings are returned unchanged.
std::string local_path_of(std::string_view uri);

// Joins two path parts with exactly one '/'.
std::string join_path(std::string_view a, std::string_view b);

}  // namespace floe
