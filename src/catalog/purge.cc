// purge_table_files: Java's CatalogUtil.dropTableData. Best effort like Java: a file that is
// already gone or a manifest that cannot be read does not stop the rest from being deleted.
#include <set>

#include "floe/catalog/catalog.h"
#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"

namespace floe {
namespace {

class Purger {
 public:
  explicit Purger(FileIO& io) : io_(io) {}

  void remove(const std::string& path) {
    if (path.empty() || !deleted_.insert(path).second) return;
    Status status = io_.delete_file(path);
    if (!status.ok() && status.kind() != ErrorKind::kNotFound && first_error_.ok()) {
      first_error_ = status;
    }
  }

  // Each manifest is read once even when many snapshots share it.
  void remove_manifest(const TableMetadata& metadata, const ManifestFile& manifest) {
    if (deleted_.count(manifest.manifest_path)) return;
    ManifestReadOptions options;
    options.read_stats = false;
    auto reader = ManifestReader::open(io_, manifest, &metadata, options);
    if (reader.ok()) {
      (void)(*reader)->for_each([&](const ManifestEntry& entry) {
        remove(entry.data_file.file_path);
        return true;
      });
    }
    remove(manifest.manifest_path);
  }

  Status result() const { return first_error_; }

 private:
  FileIO& io_;
  std::set<std::string> deleted_;
  Status first_error_;
};

}  // namespace

Status purge_table_files(FileIO& io, const TableMetadata& metadata,
                         std::string_view metadata_location) {
  Purger purger(io);
  for (const auto& snapshot : metadata.snapshots) {
    auto manifests = snapshot_manifests(io, metadata, *snapshot);
    if (manifests.ok()) {
      for (const auto& manifest : *manifests) purger.remove_manifest(metadata, manifest);
    }
    purger.remove(snapshot->manifest_list);
  }
  for (const auto& stats : metadata.statistics) purger.remove(stats.statistics_path);
  for (const auto& stats : metadata.partition_statistics) purger.remove(stats.statistics_path);
  for (const auto& entry : metadata.metadata_log) purger.remove(entry.metadata_file);
  purger.remove(std::string(metadata_location));
  return purger.result();
}

}  // namespace floe
