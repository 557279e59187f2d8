#include "floe/io/relocating_file_io.h"

#include <mutex>
#include <unordered_map>
#include <vector>

namespace floe {

namespace {

// Drops a URI scheme and authority: "s3://bucket/a/b" -> "a/b", "hdfs://h:1/a" -> "a",
// "file:/tmp/a" -> "tmp/a", "./a" -> "a", "/a" -> "a".
std::string_view strip_scheme(std::string_view p) {
  auto colon = p.find(':');
  auto slash = p.find('/');
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash)) {
    p.remove_prefix(colon + 1);
    if (p.substr(0, 2) == "//") {
      p.remove_prefix(2);
      auto next = p.find('/');
      // file://relative/x keeps its first component; other schemes name an authority.
      p = next == std::string_view::npos ? std::string_view() : p.substr(next);
    }
  }
  while (p.substr(0, 2) == "./") p.remove_prefix(2);
  while (!p.empty() && p.front() == '/') p.remove_prefix(1);
  return p;
}

std::string normalize_location(std::string_view loc) {
  std::string s(loc);
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

std::string parent_dir(const std::string& dir) {
  auto slash = dir.find_last_of('/');
  if (slash == std::string::npos) return "..";
  if (slash == 0) return "/";
  return dir.substr(0, slash);
}

}  // namespace

Result<std::string> relocate_path(FileIO& io, const RelocationOptions& options,
                                  std::string_view path) {
  std::string from = normalize_location(options.from_location);
  std::string to = normalize_location(options.to_directory);
  // 1. Under the recorded location (with or without a scheme difference such as file:).
  for (std::string_view candidate_from : {std::string_view(from), strip_scheme(from)}) {
    if (candidate_from.empty()) continue;
    std::string_view p = path;
    if (candidate_from != from) p = strip_scheme(path);
    if (p.size() >= candidate_from.size() && p.substr(0, candidate_from.size()) == candidate_from &&
        (p.size() == candidate_from.size() || p[candidate_from.size()] == '/')) {
      std::string mapped = join_path(to, p.substr(candidate_from.size()));
      if (candidate_from == from || FLOE_TRY(io.exists(mapped))) return mapped;
    }
  }
  // 2. Strip leading components until the rest exists under the directory or an ancestor.
  std::string_view rest = strip_scheme(path);
  std::vector<std::string> roots{to};
  for (int i = 0; i < options.ancestor_levels; ++i) roots.push_back(parent_dir(roots.back()));
  while (!rest.empty()) {
    for (const auto& root : roots) {
      std::string candidate = join_path(root, rest);
      if (FLOE_TRY(io.exists(candidate))) return candidate;
    }
    auto slash = rest.find('/');
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  return not_found("cannot find {} under {} (table location {})", path, to, from);
}

namespace {

class RelocatingFileIO final : public FileIO {
 public:
  RelocatingFileIO(FileIOPtr inner, RelocationOptions options)
      : inner_(std::move(inner)), options_(std::move(options)) {}

  Result<std::string> read_file(std::string_view path) override {
    return inner_->read_file(FLOE_TRY(resolve(path)));
  }
  Result<std::string> read_range(std::string_view path, int64_t offset, int64_t length) override {
    return inner_->read_range(FLOE_TRY(resolve(path)), offset, length);
  }
  Result<int64_t> file_size(std::string_view path) override {
    return inner_->file_size(FLOE_TRY(resolve(path)));
  }
  Status write_file(std::string_view path, std::string_view data, WriteMode mode) override {
    return inner_->write_file(map_for_write(path), data, mode);
  }
  Result<bool> exists(std::string_view path) override {
    auto r = resolve(path);
    if (!r.ok())
      return r.status().kind() == ErrorKind::kNotFound ? Result<bool>(false) : r.status();
    return inner_->exists(*r);
  }
  Status delete_file(std::string_view path) override {
    return inner_->delete_file(FLOE_TRY(resolve(path)));
  }
  Result<std::vector<FileInfo>> list(std::string_view prefix) override {
    return inner_->list(map_for_write(prefix));
  }
  const IoCounters& counters() const override { return inner_->counters(); }
  IoCounters& counters() override { return inner_->counters(); }

 private:
  Result<std::string> resolve(std::string_view path) {
    {
      std::lock_guard lock(mu_);
      auto it = cache_.find(std::string(path));
      if (it != cache_.end()) return it->second;
    }
    std::string resolved = FLOE_TRY(relocate_path(*inner_, options_, path));
    std::lock_guard lock(mu_);
    cache_.emplace(std::string(path), resolved);
    return resolved;
  }

  // New files go under the directory when they are under the recorded location.
  std::string map_for_write(std::string_view path) const {
    std::string from = normalize_location(options_.from_location);
    if (!from.empty() && path.substr(0, from.size()) == from) {
      return join_path(normalize_location(options_.to_directory), path.substr(from.size()));
    }
    return std::string(path);
  }

  FileIOPtr inner_;
  RelocationOptions options_;
  std::mutex mu_;
  std::unordered_map<std::string, std::string> cache_;
};

}  // namespace

FileIOPtr make_relocating_file_io(FileIOPtr inner, RelocationOptions options) {
  return std::make_shared<RelocatingFileIO>(std::move(inner), std::move(options));
}

}  // namespace floe
