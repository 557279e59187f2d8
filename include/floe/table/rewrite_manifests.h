// Manifest rewriting: Java's RewriteManifests action (RewriteManifestsSparkAction), as Spark's
// `CALL system.rewrite_manifests` runs it (Iceberg spec, Manifests; docs/architecture.md).
//
// The live entries of the current snapshot's manifests are regrouped by partition: per content
// (data manifests, then delete manifests, never mixed) and per partition spec (manifests of
// different specs never mix), the entries are sorted by their partition tuple and written into
// new manifests rolled at commit.manifest.target-size-bytes (8 MB), so each new manifest covers a
// narrow partition range and planning prunes it by its partition summaries. Every entry is
// written as EXISTING with its original snapshot id and data and file sequence numbers; data
// files are never read or touched.
//
// The table's current metrics settings (write.metadata.metrics.default,
// write.metadata.metrics.column.*, write.metadata.metrics.max-inferred-column-defaults, as an
// append would apply them) are applied to the data files and equality delete files rewritten:
// a column whose mode is now `none` loses its value, null and NaN counts and its bounds,
// `counts` keeps the counts only, `truncate(N)` truncates string and binary bounds (a truncated
// upper bound is rounded up, so pruning stays conservative); what a file never had is not made
// up. Column sizes stay (Java records them whatever the mode), and position delete files keep
// their metrics (Java writes them in full whatever the table says).
//
// A group of one manifest that fits the target size is left alone (Java's rule). The commit is
// one snapshot of operation "replace" whose summary has manifests-created, manifests-replaced,
// manifests-kept and entries-processed; it checks that every replaced manifest is still in the
// current snapshot: a concurrent append survives (its manifests are kept), a concurrent commit
// that rewrote or filtered a replaced manifest is a conflict that leaves the table as that commit
// left it. Nothing happens on a table without snapshots.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "floe/manifest/manifest.h"
#include "floe/table/table.h"

namespace floe {

struct RewriteManifestsOptions {
  // Only the manifests of this partition spec (an unknown id is an error); unset: every spec,
  // each rewritten on its own (Java's action takes the current spec's only).
  std::optional<int32_t> spec_id;
  // Only the manifests it accepts (Java's rewriteIf); null accepts every one.
  std::function<bool(const ManifestFile&)> predicate;
  int threads = 0;  // manifest readers; 0 = one per core
  // Called after each manifest is read: manifests and bytes done of the total to rewrite.
  std::function<void(int64_t manifests_done, int64_t manifests_total, int64_t bytes_done,
                     int64_t bytes_total)>
      progress;
};

struct RewriteManifestsResult {
  int64_t rewritten_manifests = 0;
  int64_t added_manifests = 0;
  int64_t rewritten_bytes = 0;  // manifest_length of the replaced manifests
  int64_t added_bytes = 0;      // and of the new ones
  int64_t entries = 0;          // live entries rewritten
};

Result<RewriteManifestsResult> rewrite_manifests(Table& table,
                                                 const RewriteManifestsOptions& options);

}  // namespace floe
