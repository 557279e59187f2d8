#include "floe/spec/metadata_file.h"

#include <algorithm>
#include <cctype>

#include "floe/util/compression.h"
#include "floe/util/strings.h"
#include "floe/util/uuid.h"

namespace floe {

namespace {

std::string_view base_name(std::string_view path) {
  auto slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool is_metadata_file_name(std::string_view name) {
  return ends_with(name, ".metadata.json") || ends_with(name, ".metadata.json.gz");
}

std::optional<int64_t> parse_digits(std::string_view s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

}  // namespace

Result<TableMetadata> read_table_metadata(FileIO& io, std::string_view path,
                                          const MetadataParseOptions& options) {
  std::string ctx = fmt::format("reading table metadata {}", path);
  std::string bytes = FLOE_TRY_CTX(io.read_file(path), ctx);
  if (is_gzip(bytes)) {
    bytes = FLOE_TRY_CTX(gzip_decompress(bytes), ctx);
  } else if (is_zstd(bytes)) {
    bytes = FLOE_TRY_CTX(zstd_decompress(bytes), ctx);
  }
  return FLOE_TRY_CTX(parse_table_metadata(bytes, options), ctx);
}

Status write_table_metadata(FileIO& io, std::string_view path, const TableMetadata& metadata,
                            WriteMode mode) {
  if (metadata.omitted_snapshots > 0) {
    return invalid_argument(
        "refusing to write table metadata {} read without {} of its snapshots (read for a "
        "scan only); writing it would drop them from the table's history",
        path, metadata.omitted_snapshots);
  }
  std::string text = table_metadata_to_json(metadata);
  if (ends_with(path, ".gz.metadata.json") || ends_with(path, ".metadata.json.gz")) {
    text = FLOE_TRY(gzip_compress(text));
  }
  return io.write_file(path, text, mode);
}

std::optional<int64_t> metadata_file_version(std::string_view file_name) {
  std::string_view name = base_name(file_name);
  if (!is_metadata_file_name(name)) return std::nullopt;
  if (name.size() > 1 && name[0] == 'v') {
    // v<N>.metadata.json or v<N>.gz.metadata.json
    std::string_view rest = name.substr(1);
    auto dot = rest.find('.');
    if (dot == std::string_view::npos) return std::nullopt;
    std::string_view suffix = rest.substr(dot);
    if (suffix != ".metadata.json" && suffix != ".gz.metadata.json" &&
        suffix != ".metadata.json.gz") {
      return std::nullopt;
    }
    return parse_digits(rest.substr(0, dot));
  }
  auto dash = name.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  return parse_digits(name.substr(0, dash));
}

std::string catalog_metadata_file_name(int64_t version, bool gzip) {
  return fmt::format("{:05d}-{}{}", version, random_uuid(),
                     gzip ? ".gz.metadata.json" : ".metadata.json");
}

std::string hadoop_metadata_file_name(int64_t version, bool gzip) {
  return fmt::format("v{}{}", version, gzip ? ".gz.metadata.json" : ".metadata.json");
}

Status write_version_hint(FileIO& io, std::string_view metadata_dir, int64_t version) {
  return io.write_file(join_path(metadata_dir, "version-hint.text"), std::to_string(version),
                       WriteMode::kOverwrite);
}

Result<CurrentMetadataFile> find_current_metadata_file(FileIO& io, std::string_view path) {
  std::string p(path);
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  // A file (exists() is false for directories) is taken as the metadata file itself.
  if (FLOE_TRY(io.exists(p))) return CurrentMetadataFile{p, "given"};
  if (is_metadata_file_name(base_name(p))) {
    return not_found("metadata file {} does not exist", p);
  }

  // A table directory holds metadata/; a metadata directory holds the files itself.
  std::string dir = join_path(p, "metadata");
  std::vector<FileInfo> files = FLOE_TRY(io.list(dir));
  bool has_metadata = std::any_of(files.begin(), files.end(), [&](const FileInfo& f) {
    return is_metadata_file_name(base_name(f.path)) &&
           f.path.find('/', dir.size() + 1) == std::string::npos;
  });
  if (!has_metadata) {
    dir = p;
    files = FLOE_TRY(io.list(dir));
  }
  std::vector<std::string> candidates;
  for (const auto& f : files) {
    std::string_view rel = std::string_view(f.path).substr(std::min(f.path.size(), dir.size()));
    if (!rel.empty() && rel.front() == '/') rel.remove_prefix(1);
    if (rel.find('/') != std::string_view::npos) continue;  // only direct children
    if (is_metadata_file_name(rel)) candidates.push_back(f.path);
  }
  if (candidates.empty()) {
    return not_found("no table metadata under {} (expected metadata/*.metadata.json)", p);
  }

  // 1. version-hint.text
  std::string hint_path = join_path(dir, "version-hint.text");
  if (FLOE_TRY(io.exists(hint_path))) {
    std::string hint(trim(FLOE_TRY(io.read_file(hint_path))));
    if (!hint.empty()) {
      std::vector<std::string> names;
      if (parse_digits(hint)) {
        names = {"v" + hint + ".metadata.json", "v" + hint + ".gz.metadata.json",
                 "v" + hint + ".metadata.json.gz"};
      }
      names.push_back(hint + ".metadata.json");
      names.push_back(hint + ".gz.metadata.json");
      for (const auto& n : names) {
        std::string full = join_path(dir, n);
        if (std::find(candidates.begin(), candidates.end(), full) != candidates.end()) {
          return CurrentMetadataFile{full, "version-hint"};
        }
      }
    }
  }

  // 2. highest version, when every name carries one.
  bool all_versioned = true;
  std::string best;
  int64_t best_version = -1;
  for (const auto& c : candidates) {
    auto v = metadata_file_version(c);
    if (!v) {
      all_versioned = false;
      break;
    }
    if (*v > best_version) {
      best_version = *v;
      best = c;
    }
  }
  if (all_versioned) return CurrentMetadataFile{best, "highest version"};

  // 3. newest last-updated-ms among the files that parse.
  int64_t newest = INT64_MIN;
  Status first_error;
  for (const auto& c : candidates) {
    auto m = read_table_metadata(io, c);
    if (!m.ok()) {
      if (first_error.ok()) first_error = m.status();
      continue;
    }
    if (m->last_updated_ms > newest) {
      newest = m->last_updated_ms;
      best = c;
    }
  }
  if (best.empty()) return first_error;
  return CurrentMetadataFile{best, "newest last-updated-ms"};
}

Result<StoredTable> open_table_at(FileIOPtr io, std::string_view path,
                                  const MetadataParseOptions& options) {
  StoredTable t;
  t.metadata_file = FLOE_TRY(find_current_metadata_file(*io, path));
  t.metadata = std::make_shared<const TableMetadata>(
      FLOE_TRY(read_table_metadata(*io, t.metadata_file.path, options)));
  // The table directory: the parent of metadata/ (or of the metadata file's directory).
  std::string dir = t.metadata_file.path;
  auto slash = dir.find_last_of('/');
  dir = slash == std::string::npos ? "." : dir.substr(0, slash);
  if (base_name(dir) == "metadata") {
    slash = dir.find_last_of('/');
    dir = slash == std::string::npos ? "." : dir.substr(0, slash);
  }
  t.directory = dir;
  std::string location = t.metadata->location;
  while (location.size() > 1 && location.back() == '/') location.pop_back();
  if (local_path_of(location) == local_path_of(dir)) {
    t.io = io;
  } else {
    t.io = make_relocating_file_io(io, {t.metadata->location, dir});
  }
  return t;
}

}  // namespace floe
