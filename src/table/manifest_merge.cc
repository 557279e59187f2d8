// Manifest merging of the snapshot producer (Java's ManifestMergeManager): small manifests are
// bin-packed by size and rewritten into one when a bin is full enough. Data and delete manifests
// are merged separately (each call sees one content).
#include <algorithm>
#include <functional>
#include <limits>

#include "floe/manifest/manifest_reader.h"
#include "floe/spec/table_properties.h"
#include "table/snapshot_producer_internal.h"

namespace floe {

using namespace internal;

namespace {

// Java's BinPacking.ListPacker.packEnd with lookback 1: packs from the end so the first bin
// (the one holding the new manifest) is the one left small.
std::vector<std::vector<ManifestFile>> pack_end(const std::vector<ManifestFile>& items,
                                                int64_t target) {
  std::vector<std::vector<ManifestFile>> bins;
  std::vector<ManifestFile> bin;
  int64_t weight = 0;
  for (auto it = items.rbegin(); it != items.rend(); ++it) {
    if (!bin.empty() && weight + it->manifest_length > target) {
      bins.push_back(std::move(bin));
      bin.clear();
      weight = 0;
    }
    bin.push_back(*it);
    weight += it->manifest_length;
  }
  if (!bin.empty()) bins.push_back(std::move(bin));
  std::reverse(bins.begin(), bins.end());
  for (auto& b : bins) std::reverse(b.begin(), b.end());
  return bins;
}

}  // namespace

Result<ManifestFile> SnapshotProducer::merge_bin(Context& ctx, int32_t spec_id,
                                                 const std::vector<ManifestFile>& bin) {
  const TableMetadata& base = *ctx.base;
  std::vector<std::string> key;
  for (const auto& m : bin) key.push_back(m.manifest_path);
  if (auto it = merged_cache_.find(key); it != merged_cache_.end()) return it->second;
  auto spec = FLOE_TRY(spec_ptr(base, spec_id));
  auto writer = FLOE_TRY(ManifestWriter::make(
      *io_, [&](int) { return manifest_path(base); }, ctx.schema, spec,
      writer_options(base, std::numeric_limits<int64_t>::max(), bin.front().content)));
  for (const auto& manifest : bin) {
    auto entries = FLOE_TRY(read_manifest(*io_, manifest, &base));
    for (const auto& e : entries) {
      bool ours = e.snapshot_id == ctx.snapshot_id;
      if (e.status == ManifestEntryStatus::kDeleted) {
        if (ours) FLOE_TRY(writer->deleted(e));  // deletes of older snapshots are dropped
      } else if (e.status == ManifestEntryStatus::kAdded && ours) {
        FLOE_TRY(writer->add(e.data_file));
      } else {
        FLOE_TRY(writer->existing(e));
      }
    }
  }
  auto written = FLOE_TRY(writer->finish());
  if (written.size() != 1) return invalid_data("merging manifests wrote {} files", written.size());
  merged_cache_[key] = written[0];
  return written[0];
}

// Java's ManifestMergeManager: per spec (highest id first), bin-pack by size from the end; a bin
// holding the first manifest (the new one) merges only once it has min-count-to-merge members.
Result<std::vector<ManifestFile>> SnapshotProducer::merge_manifests(
    Context& ctx, std::vector<ManifestFile> manifests, size_t new_count) {
  const TableMetadata& base = *ctx.base;
  bool enabled =
      kind_ != ProducerKind::kFastAppend &&
      table_properties::bool_property(base.properties, table_properties::kManifestMergeEnabled,
                                      table_properties::kManifestMergeEnabledDefault);
  if (!enabled || manifests.empty()) return manifests;
  int64_t min_count =
      table_properties::int_property(base.properties, table_properties::kManifestMinMergeCount,
                                     table_properties::kManifestMinMergeCountDefault);
  int64_t target =
      table_properties::int_property(base.properties, table_properties::kManifestTargetSizeBytes,
                                     table_properties::kManifestTargetSizeBytesDefault);
  std::string first = manifests.front().manifest_path;
  std::map<int32_t, std::vector<ManifestFile>, std::greater<>> groups;
  for (auto& m : manifests) groups[m.partition_spec_id].push_back(std::move(m));
  std::vector<ManifestFile> out;
  for (const auto& [spec_id, group] : groups) {
    for (const auto& bin : pack_end(group, target)) {
      bool has_first = std::any_of(bin.begin(), bin.end(),
                                   [&](const ManifestFile& m) { return m.manifest_path == first; });
      if (bin.size() == 1 || (has_first && static_cast<int64_t>(bin.size()) < min_count)) {
        out.insert(out.end(), bin.begin(), bin.end());
      } else {
        out.push_back(FLOE_TRY(merge_bin(ctx, spec_id, bin)));
        ctx.replaced_manifests += static_cast<int64_t>(bin.size());
      }
    }
  }
  return out;
}

}  // namespace floe
