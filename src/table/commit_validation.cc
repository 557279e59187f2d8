// Commit validation of the snapshot producer: added files must match an overwrite's filter, and
// no concurrently added data file may conflict (Java validateNoConflictingData).
#include <functional>

#include "floe/expr/projection.h"
#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/scan/evaluators.h"
#include "table/snapshot_producer_internal.h"

namespace floe {

using namespace internal;

// Java validateAddedFilesMatchOverwriteFilter: every added row must match the row filter.
Status SnapshotProducer::validate_added_files(const Context& ctx) {
  if (!validate_added_match_filter_ || !delete_filter_) return Status::OK();
  auto bound = FLOE_TRY(bind_expression(delete_filter_, *ctx.schema, case_sensitive_));
  StrictMetricsEvaluator metrics(bound);
  for (const auto& f : added_) {
    auto spec = FLOE_TRY(spec_ptr(*ctx.base, f.spec_id));
    auto inclusive = FLOE_TRY(project_inclusive(bound, *spec, *ctx.schema));
    auto strict = FLOE_TRY(project_strict(bound, *spec, *ctx.schema));
    auto lookup = partition_lookup(*spec, f.partition);
    if (!evaluate(inclusive, lookup) || !(evaluate(strict, lookup) || metrics.must_match(f))) {
      return invalid_argument("Cannot append file with rows that do not match filter: {}: {}",
                              bound->to_string(), f.file_path);
    }
  }
  return Status::OK();
}

// Java validateNoConflictingData: data files added since the starting snapshot that may hold
// rows matching the conflict filter.
Status SnapshotProducer::validate(const TableMetadata& base, const Snapshot* parent) {
  if (!validate_no_conflicting_data_) return Status::OK();
  auto schema = FLOE_TRY(current_schema(base));
  // Does a concurrently added file conflict? Replace-partitions: it lies in a replaced
  // partition (any partition of an unpartitioned spec); otherwise it may match the filter.
  std::function<Result<bool>(const PartitionSpec&, const DataFile&)> conflicts_with;
  std::string description;
  std::set<std::pair<int32_t, std::string>> partitions;
  std::set<int32_t> whole_specs;
  ExprPtr bound;
  std::map<int32_t, ExprPtr> inclusive;
  if (kind_ == ProducerKind::kReplacePartitions) {
    for (const auto& f : added_) {
      auto spec = FLOE_TRY(spec_ptr(base, f.spec_id));
      if (spec->is_unpartitioned()) whole_specs.insert(f.spec_id);
      partitions.insert({f.spec_id, spec->partition_to_path(f.partition)});
    }
    description = "the replaced partitions";
    conflicts_with = [&](const PartitionSpec& spec, const DataFile& f) -> Result<bool> {
      return !whole_specs.empty() ||
             partitions.count({spec.spec_id(), spec.partition_to_path(f.partition)}) > 0;
    };
  } else {
    ExprPtr filter = conflict_filter_;
    if (!filter) filter = delete_filter_ && delete_paths_.empty() ? delete_filter_ : always_true();
    bound = FLOE_TRY(bind_expression(filter, *schema, case_sensitive_));
    description = bound->to_string();
    conflicts_with = [&](const PartitionSpec& spec, const DataFile& f) -> Result<bool> {
      auto it = inclusive.find(spec.spec_id());
      if (it == inclusive.end()) {
        auto projected = FLOE_TRY(project_inclusive(bound, spec, *schema));
        it = inclusive.emplace(spec.spec_id(), projected).first;
      }
      return evaluate(it->second, partition_lookup(spec, f.partition)) &&
             InclusiveMetricsEvaluator(bound).might_match(f);
    };
  }
  std::vector<std::string> conflicts;
  for (const Snapshot* s = parent; s;) {
    if (validate_from_ && s->snapshot_id == *validate_from_) break;
    auto manifests = FLOE_TRY(snapshot_manifests(*io_, base, *s));
    for (const auto& m : manifests) {
      if (m.content != ManifestContent::kData || m.added_snapshot_id != s->snapshot_id) continue;
      auto spec = FLOE_TRY(spec_ptr(base, m.partition_spec_id));
      for (const auto& e : FLOE_TRY(read_manifest(*io_, m, &base))) {
        if (e.status != ManifestEntryStatus::kAdded || e.snapshot_id != s->snapshot_id) continue;
        if (FLOE_TRY(conflicts_with(*spec, e.data_file)))
          conflicts.push_back(e.data_file.file_path);
      }
    }
    s = s->parent_snapshot_id ? base.snapshot_by_id(*s->parent_snapshot_id) : nullptr;
    if (!s && validate_from_) {
      return make_error(ErrorKind::kCommitConflict,
                        "cannot determine history since snapshot {}: not an ancestor of '{}'",
                        *validate_from_, branch_);
    }
  }
  if (conflicts.empty()) return Status::OK();
  return make_error(ErrorKind::kCommitConflict,
                    "Found conflicting files that can contain records matching {}: [{}]",
                    description, fmt::join(conflicts, ", "));
}

}  // namespace floe
