// Orphan files (floe/table/remove_orphan_files.h; Java's DeleteOrphanFilesSparkAction): the
// referenced paths from metadata, the listing of the location, the difference older than the
// cutoff, removed.
#include "floe/table/remove_orphan_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>

#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/scan/delete_index.h"
#include "floe/spec/metadata_file.h"
#include "floe/util/thread_pool.h"
#include "table/table_internal.h"

namespace floe {

namespace {

std::string parent_dir(std::string_view path) {
  auto slash = path.find_last_of('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

// Everything the table's metadata references, by normalized path.
class References {
 public:
  explicit References(FileIO& io) : io_(io) {}

  Status add_table(const TableMetadata& m, const std::string& metadata_location) {
    add(metadata_location);
    add(parent_dir(metadata_location) + "/version-hint.text");
    FLOE_TRY(add_metadata_log(m));
    for (const auto& s : m.statistics) add(s.statistics_path);
    for (const auto& s : m.partition_statistics) add(s.statistics_path);
    for (const auto& s : m.snapshots) {
      if (!snapshots_.insert(s->snapshot_id).second) continue;
      add(s->manifest_list);
      for (const auto& manifest : FLOE_TRY(snapshot_manifests(io_, m, *s))) {
        if (!manifests_.insert(manifest.manifest_path).second) continue;
        add(manifest.manifest_path);
        for (const auto& e : FLOE_TRY(read_manifest(io_, manifest, &m))) add(e.data_file.file_path);
      }
    }
    return Status::OK();
  }

  bool contains(std::string_view path) const { return paths_.count(normalize_file_path(path)) > 0; }
  size_t size() const { return paths_.size(); }

 private:
  void add(std::string_view path) {
    if (!path.empty()) paths_.insert(normalize_file_path(path));
  }

  // The metadata log, and the logs of the oldest earlier file still readable (the log is
  // trimmed to write.metadata.previous-versions-max; Java follows it back the same way).
  Status add_metadata_log(const TableMetadata& m) {
    const TableMetadata* current = &m;
    TableMetadata older;
    for (int depth = 0; depth < 1000 && !current->metadata_log.empty(); ++depth) {
      for (const auto& e : current->metadata_log) add(e.metadata_file);
      const std::string& oldest = current->metadata_log.front().metadata_file;
      if (!followed_.insert(oldest).second) break;
      auto read = read_table_metadata(io_, oldest);
      if (!read.ok()) break;  // removed by an earlier cleanup: nothing older to find
      older = std::move(*read);
      current = &older;
    }
    return Status::OK();
  }

  FileIO& io_;
  std::set<std::string> paths_;
  std::set<int64_t> snapshots_;
  std::set<std::string> manifests_;
  std::set<std::string> followed_;
};

// A path part under the location that starts with '.' or '_' (Java's hidden path filter).
bool hidden(std::string_view relative) {
  size_t start = 0;
  while (start < relative.size()) {
    size_t end = relative.find('/', start);
    if (end == std::string_view::npos) end = relative.size();
    if (end > start && (relative[start] == '.' || relative[start] == '_')) return true;
    start = end + 1;
  }
  return false;
}

// `path` is `dir` or lies under it (normalized, so file:/x and /x agree).
bool inside(std::string_view dir, std::string_view path) {
  std::string d = normalize_file_path(dir), p = normalize_file_path(path);
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  return p == d || (p.size() > d.size() && p.compare(0, d.size(), d) == 0 && p[d.size()] == '/');
}

}  // namespace

Result<RemoveOrphanFilesResult> remove_orphan_files(Table& table,
                                                    const RemoveOrphanFilesOptions& options) {
  const int64_t cutoff = options.older_than_ms > 0 ? options.older_than_ms
                                                   : internal::now_ms() - 3LL * 24 * 3600 * 1000;
  auto metadata = table.metadata();
  std::string location = options.location.empty() ? metadata->location : options.location;
  while (location.size() > 1 && location.back() == '/') location.pop_back();
  if (!inside(metadata->location, location)) {
    return invalid_argument(
        "remove_orphan_files: location {} is not inside the table location {} (files there may "
        "belong to other tables)",
        location, metadata->location);
  }
  FileIO& io = *table.io();
  References refs(io);
  FLOE_TRY(refs.add_table(*metadata, table.metadata_location()));

  RemoveOrphanFilesResult result;
  std::vector<FileInfo> listed = FLOE_TRY(io.list(location));
  std::vector<std::string> candidates;
  for (const auto& f : listed) {
    std::string_view relative = f.path;
    if (relative.size() > location.size() && relative.compare(0, location.size(), location) == 0) {
      relative.remove_prefix(location.size());
    }
    if (hidden(relative)) continue;
    result.listed++;
    if (f.modified_ms >= cutoff || refs.contains(f.path)) continue;
    candidates.push_back(f.path);
  }
  // A commit made while we listed may reference a file we found: load the table again.
  FLOE_TRY(table.refresh());
  metadata = table.metadata();
  FLOE_TRY(refs.add_table(*metadata, table.metadata_location()));
  for (auto& c : candidates) {
    if (!refs.contains(c)) result.orphans.push_back(std::move(c));
  }
  std::sort(result.orphans.begin(), result.orphans.end());
  result.referenced = static_cast<int64_t>(refs.size());
  if (options.dry_run || result.orphans.empty()) return result;

  std::mutex mu;
  std::vector<std::string> failed;
  delete_all(io, result.orphans, options.max_concurrent_deletes, [&](size_t, const Status& st) {
    if (st.ok()) return;
    std::lock_guard<std::mutex> lock(mu);
    failed.push_back(st.to_string());
  });
  if (!failed.empty()) {
    return io_error("remove_orphan_files: could not remove {} of {} orphan files; first: {}",
                    failed.size(), result.orphans.size(), failed.front());
  }
  return result;
}

}  // namespace floe
