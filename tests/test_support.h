// Helpers every test binary may use: a temp directory removed at scope exit, a schema field in
// one line, and running a shell command (the npm and python oracles) with its output.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "floe/spec/table_metadata.h"
#include "floe/spec/type.h"

namespace floe::test_support {

// AddressSanitizer reserves terabytes of address space for its shadow memory when a process
// starts, so a sanitized floe cannot start under `ulimit -v`: tests that limit the address space
// skip that part in the sanitized build (scripts/sanitize) and say so.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif
inline constexpr const char* kNoAddressLimitUnderAsan =
    "AddressSanitizer cannot reserve its shadow memory under ulimit -v";

// A fresh directory under /tmp, removed with everything in it when the object goes.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& prefix = "floe-test") {
    std::string tmpl = "/tmp/" + prefix + "-XXXXXX";
    if (char* made = ::mkdtemp(tmpl.data())) path = made;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string str() const { return path.string(); }
};

inline NestedField field(int32_t id, std::string name, TypePtr type, bool required = false) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.type = std::move(type);
  f.required = required;
  return f;
}

// Runs `cmd` through the shell and returns its standard output (add 2>&1 for stderr too).
inline std::string run_command(const std::string& cmd, int* exit_code = nullptr) {
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  if (!pipe) return out;
  std::array<char, 65536> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  int status = pclose(pipe);
  if (exit_code) *exit_code = WEXITSTATUS(status);
  return out;
}

// `s` as one single-quoted shell word.
inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// Makes `m` a table whose current snapshot `id` (sequence number `id`) is an append with the
// manifest list at `manifest_list` (tests that write their manifests by hand).
inline void set_current_snapshot(TableMetadata* m, int64_t id, std::string manifest_list) {
  auto snap = std::make_shared<Snapshot>();
  snap->snapshot_id = id;
  snap->sequence_number = id;
  snap->manifest_list = std::move(manifest_list);
  snap->summary = {{"operation", "append"}};
  m->snapshots = {snap};
  m->current_snapshot_id = id;
  m->last_sequence_number = id;
}

}  // namespace floe::test_support
