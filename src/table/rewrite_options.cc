// Options shared by the file rewrite actions (table/rewrite_options_internal.h).
#include <fmt/format.h>

#include <cctype>
#include <charconv>

#include "table/rewrite_options_internal.h"

namespace floe::internal {

Result<int64_t> long_option(std::string_view action, const std::string& key,
                            const std::string& text) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return invalid_argument("{} option '{}': '{}' is not an integer", action, key, text);
  }
  return v;
}

Result<bool> bool_option(std::string_view action, const std::string& key, const std::string& text) {
  std::string v;
  for (char c : text) v.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (v == "true") return true;
  if (v == "false") return false;
  return invalid_argument("{} option '{}': '{}' is not true or false", action, key, text);
}

Result<double> double_option(std::string_view action, const std::string& key,
                             const std::string& text) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return invalid_argument("{} option '{}': '{}' is not a number", action, key, text);
  }
  return v;
}

Status check_group_options(int64_t min_input_files, int64_t max_file_group_size_bytes,
                           int64_t partial_progress_max_commits,
                           int64_t max_concurrent_file_group_rewrites) {
  if (min_input_files < 1) return invalid_argument("min-input-files must be positive");
  if (max_file_group_size_bytes <= 0) {
    return invalid_argument("max-file-group-size-bytes must be positive");
  }
  if (partial_progress_max_commits < 1) {
    return invalid_argument("partial-progress.max-commits must be positive");
  }
  if (max_concurrent_file_group_rewrites < 1) {
    return invalid_argument("max-concurrent-file-group-rewrites must be positive");
  }
  return Status::OK();
}

Result<FileRewriteSizes> resolve_file_sizes(int64_t target_option, int64_t default_target,
                                            int64_t min_option, int64_t max_option) {
  FileRewriteSizes s;
  s.target = target_option > 0 ? target_option : default_target;
  if (s.target <= 0) return invalid_argument("target-file-size-bytes must be positive");
  s.min = min_option >= 0 ? min_option : static_cast<int64_t>(static_cast<double>(s.target) * 0.75);
  s.max = max_option >= 0 ? max_option : static_cast<int64_t>(static_cast<double>(s.target) * 1.8);
  // Java SizeBasedFileRewriter.validateOptions.
  if (s.min < 0) return invalid_argument("min-file-size-bytes must not be negative");
  if (!(s.max > s.target)) {
    return invalid_argument(
        "max-file-size-bytes ({}) must be greater than target-file-size-bytes ({})", s.max,
        s.target);
  }
  if (!(s.target > s.min)) {
    return invalid_argument(
        "min-file-size-bytes ({}) must be less than target-file-size-bytes ({})", s.min, s.target);
  }
  return s;
}

}  // namespace floe::internal
