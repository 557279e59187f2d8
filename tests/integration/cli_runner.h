// Shared by the end-to-end CLI tests: runs the built `floe` binary and captures its output.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

namespace floe_test {

struct CliRun {
  int exit_code;
  std::string out;  // stdout and stderr, interleaved
};

// Runs `floe <args>` through the shell (quote arguments yourself).
inline CliRun run_floe(const std::string& args) {
  std::string cmd = std::string(FLOE_CLI_PATH) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  int status = pclose(pipe);
  return {WEXITSTATUS(status), out};
}

inline const std::filesystem::path& fixtures_dir() {
  static const std::filesystem::path kDir = FLOE_FIXTURES_DIR;
  return kDir;
}

}  // namespace floe_test
