// Shared by the fuzz targets of fuzz/ (docs/fuzzing.md): each target defines
// LLVMFuzzerTestOneInput, run by libFuzzer (FLOE_FUZZ builds) or by replay_main.cc over the
// saved regression inputs. An input may make the code under test return any error; it may not
// crash, hang, leak, or break one of the properties a target checks with FUZZ_CHECK.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace floe::fuzz {

// A broken property: reported like a crash, so libFuzzer saves the input.
[[noreturn]] inline void property_failed(const char* what, const char* file, int line,
                                         const std::string& detail) {
  std::fprintf(stderr, "%s:%d: fuzz property failed: %s\n%s\n", file, line, what, detail.c_str());
  std::abort();
}

#define FUZZ_CHECK(cond, detail)                                                   \
  do {                                                                             \
    if (!(cond)) ::floe::fuzz::property_failed(#cond, __FILE__, __LINE__, detail); \
  } while (0)

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// An in-memory file with a path, for readers that take a local path rather than a FileIO
// (the text readers): a memfd, rewritten for every input, reached as /proc/self/fd/N.
class MemoryPathFile {
 public:
  MemoryPathFile() {
    fd_ = memfd_create("floe-fuzz", 0);
    if (fd_ < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  ~MemoryPathFile() { close(fd_); }
  MemoryPathFile(const MemoryPathFile&) = delete;
  MemoryPathFile& operator=(const MemoryPathFile&) = delete;

  // Replaces the content; returns the path to open.
  const std::string& write(std::string_view bytes) {
    if (ftruncate(fd_, 0) != 0 ||
        pwrite(fd_, bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size())) {
      std::perror("memfd write");
      std::abort();
    }
    return path_;
  }

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace floe::fuzz
