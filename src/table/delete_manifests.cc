// Delete files in the snapshot producer (Iceberg spec, Manifests; Row-level deletes): added
// delete files are checked against the table's format version and written to delete manifests
// (content 1, their data sequence number inherited from the new snapshot); the parent's delete
// manifests are filtered for the delete files an update removes, the deletion vectors of the
// data files it removes, delete files older than every live data file, and the deletes of
// replaced partitions or of rows an overwrite filter removes (Java's DeleteFileFilterManager).
#include <algorithm>
#include <cmath>
#include <limits>

#include "floe/expr/projection.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/scan/evaluators.h"
#include "floe/spec/table_properties.h"
#include "table/snapshot_producer_internal.h"

namespace floe {

using namespace internal;

namespace internal {

std::string describe_delete(const DataFile& f) {
  if (f.content_offset) return fmt::format("{}@{}", f.file_path, *f.content_offset);
  return f.file_path;
}

}  // namespace internal

namespace {

// Could `manifest` hold a file of `partition`, by its partition summaries? Unknown means yes.
bool may_hold_partition(const ManifestFile& manifest, const Type& partition_type,
                        const std::vector<Literal>& partition) {
  if (!manifest.partitions) return true;
  const auto& summaries = *manifest.partitions;
  const auto& fields = partition_type.fields();
  if (summaries.size() != partition.size() || fields.size() != partition.size()) return true;
  for (size_t i = 0; i < partition.size(); ++i) {
    const Literal& value = partition[i];
    const PartitionFieldSummary& s = summaries[i];
    if (value.is_null()) {
      if (!s.contains_null) return false;
      continue;
    }
    if (!value.type() || value.type()->id() != fields[i].type->id()) return true;
    if (!s.lower_bound || !s.upper_bound) return true;
    auto lower = Literal::from_bytes(fields[i].type, *s.lower_bound);
    auto upper = Literal::from_bytes(fields[i].type, *s.upper_bound);
    if (!lower.ok() || !upper.ok()) return true;
    // NaN sorts outside the bounds (summaries exclude it): only contains_nan can rule it out.
    bool nan = (value.type()->id() == TypeId::kFloat && std::isnan(value.as_float())) ||
               (value.type()->id() == TypeId::kDouble && std::isnan(value.as_double()));
    if (nan) {
      if (s.contains_nan == false) return false;
      continue;
    }
    if (value.compare(*lower) < 0 || value.compare(*upper) > 0) return false;
  }
  return true;
}

}  // namespace

Status SnapshotProducer::check_delete_file(const TableMetadata& base, const PartitionSpec& spec,
                                           const DataFile& f) const {
  if (f.content == FileContent::kData) {
    return invalid_argument("cannot add '{}' as a delete file: it is a data file", f.file_path);
  }
  if (base.format_version < 2) {
    return invalid_argument(
        "cannot add delete file '{}': delete files need format version 2 or later, the table is "
        "v{}",
        f.file_path, base.format_version);
  }
  if (f.partition.size() != spec.fields().size()) {
    return invalid_argument("delete file '{}' has {} partition values; spec {} has {} fields",
                            f.file_path, f.partition.size(), spec.spec_id(), spec.fields().size());
  }
  if (f.content == FileContent::kEqualityDeletes) {
    if (!f.equality_ids || f.equality_ids->empty()) {
      return invalid_argument("equality delete file '{}' has no equality field ids", f.file_path);
    }
    return Status::OK();
  }
  bool dv = is_deletion_vector(f);
  if (base.format_version == 2 && dv) {
    return invalid_argument(
        "cannot add deletion vector {}: format version 2 tables take position delete files, "
        "deletion vectors need format version 3",
        describe_delete(f));
  }
  if (base.format_version >= 3 && !dv) {
    return invalid_argument(
        "cannot add position delete file '{}' ({}): format version {} tables take position "
        "deletes only as deletion vectors (Puffin)",
        f.file_path, f.file_format, base.format_version);
  }
  if (dv) {
    if (!f.referenced_data_file || f.referenced_data_file->empty()) {
      return invalid_argument("deletion vector {} has no referenced_data_file", describe_delete(f));
    }
    if (!f.content_offset || !f.content_size_in_bytes) {
      return invalid_argument(
          "deletion vector in '{}' for {} needs content_offset and "
          "content_size_in_bytes",
          f.file_path, *f.referenced_data_file);
    }
  }
  return Status::OK();
}

Result<std::vector<ManifestFile>> SnapshotProducer::new_delete_manifests(Context& ctx) {
  const TableMetadata& base = *ctx.base;
  std::map<int32_t, std::vector<const DataFile*>> by_spec;
  std::map<std::string, const DataFile*> dvs;  // by referenced data file
  for (const auto& f : added_deletes_) {
    auto spec = FLOE_TRY(spec_ptr(base, f.spec_id));
    FLOE_TRY(check_delete_file(base, *spec, f));
    if (is_deletion_vector(f)) {
      auto [it, fresh] = dvs.emplace(*f.referenced_data_file, &f);
      if (!fresh) {
        return invalid_argument(
            "cannot add two deletion vectors for data file {} in one commit: {} and {}",
            *f.referenced_data_file, describe_delete(*it->second), describe_delete(f));
      }
    }
    ctx.summary.added(*spec, f);
    by_spec[f.spec_id].push_back(&f);
  }
  // Like the new data manifests, these do not depend on the base: retries reuse them.
  if (!cached_new_deletes_.empty() || added_deletes_.empty()) return cached_new_deletes_;
  cached_new_deletes_ = FLOE_TRY(write_new_manifests(ctx, by_spec, ManifestContent::kDeletes));
  return cached_new_deletes_;
}

// Must this delete manifest be read, or can its partition summaries and sequence numbers rule
// out every reason to drop one of its files (and every DV this update replaces)?
Result<bool> SnapshotProducer::should_read_delete_manifest(Context& ctx, const PartitionSpec& spec,
                                                           const ManifestFile& manifest) {
  int32_t id = spec.spec_id();
  if (manifest.min_sequence_number > 0 &&
      manifest.min_sequence_number < ctx.min_data_sequence_number) {
    return true;
  }
  if (ctx.replaced_all.count(id)) return true;
  // A spec whose source columns the current schema lost has no partition type: read.
  auto type = spec.partition_type(*ctx.schema);
  auto may = [&](const DataFile& f) {
    return f.spec_id == id && (!type.ok() || may_hold_partition(manifest, **type, f.partition));
  };
  for (const auto& [key, f] : removed_deletes_) {
    if (may(f)) return true;
  }
  for (const auto& f : added_deletes_) {
    if (is_deletion_vector(f) && may(f)) return true;  // the DV it may replace lives here
  }
  for (const DataFile* f : ctx.removed_data) {
    if (may(*f)) return true;  // its deletion vectors dangle
  }
  if (!ctx.replaced.empty()) {
    for (const auto& f : added_) {
      if (may(f)) return true;
    }
  }
  if (ctx.bound_filter) {
    auto evaluator = ManifestEvaluator::make(ctx.bound_filter, spec, *ctx.schema);
    if (!evaluator.ok() || evaluator->might_match(manifest)) return true;
  }
  return false;
}

Result<bool> SnapshotProducer::should_drop_delete(Context& ctx, const PartitionSpec& spec,
                                                  const ManifestEntry& entry) {
  const DataFile& f = entry.data_file;
  DeleteKey key = delete_key(f);
  if (removed_deletes_.count(key)) {
    ctx.found_deletes.insert(key);
    return true;
  }
  // A deletion vector of a removed data file applies to nothing (Java's dangling DVs).
  if (is_deletion_vector(f) && f.referenced_data_file &&
      ctx.removed_data_paths.count(*f.referenced_data_file)) {
    return true;
  }
  // Older than every live data file: it applies to none of them (Java's
  // dropDeleteFilesOlderThan; equality deletes of the same number are kept, conservatively).
  int64_t seq = entry.sequence_number.value_or(0);
  if (seq > 0 && seq < ctx.min_data_sequence_number) return true;
  // Replaced partitions take their deletes with them (Java's dropPartition).
  if (ctx.replaced_all.count(spec.spec_id()) ||
      ctx.replaced.count({spec.spec_id(), spec.partition_to_path(f.partition)})) {
    return true;
  }
  // Every row the file deletes is in a file the overwrite filter removes.
  if (ctx.bound_filter) {
    auto it = ctx.evaluators.find(spec.spec_id());
    if (it == ctx.evaluators.end()) {
      FilterEvaluators e;
      e.strict_partition = FLOE_TRY(project_strict(ctx.bound_filter, spec, *ctx.schema));
      e.inclusive_partition = FLOE_TRY(project_inclusive(ctx.bound_filter, spec, *ctx.schema));
      it = ctx.evaluators.emplace(spec.spec_id(), std::move(e)).first;
    }
    if (evaluate(it->second.strict_partition, partition_lookup(spec, f.partition))) return true;
    if (f.content == FileContent::kEqualityDeletes &&
        StrictMetricsEvaluator(ctx.bound_filter).must_match(f)) {
      return true;
    }
  }
  return false;
}

Result<std::vector<ManifestFile>> SnapshotProducer::filter_delete_manifests(
    Context& ctx, std::vector<ManifestFile> manifests) {
  const TableMetadata& base = *ctx.base;
  // Fast appends carry the parent's delete manifests as they are (Java's FastAppend).
  if (kind_ == ProducerKind::kFastAppend) return manifests;
  if (delete_filter_ && !ctx.bound_filter) {
    ctx.bound_filter = FLOE_TRY(bind_expression(delete_filter_, *ctx.schema, case_sensitive_));
  }
  // The data files this update adds a DV for, and the DVs already live for them that stay.
  std::map<std::string, const DataFile*> added_dvs;
  for (const auto& f : added_deletes_) {
    if (is_deletion_vector(f)) added_dvs.emplace(*f.referenced_data_file, &f);
  }
  std::vector<std::pair<std::string, std::string>> kept_dvs;  // data file, DV
  auto note_kept = [&](const ManifestEntry& e) {
    const DataFile& f = e.data_file;
    if (is_deletion_vector(f) && f.referenced_data_file &&
        added_dvs.count(*f.referenced_data_file)) {
      kept_dvs.emplace_back(*f.referenced_data_file, describe_delete(f));
    }
  };

  std::vector<ManifestFile> out;
  for (auto& manifest : manifests) {
    if (manifest.added_files_count == 0 && manifest.existing_files_count == 0) {
      out.push_back(std::move(manifest));  // no live file: dropped by apply()
      continue;
    }
    auto spec = FLOE_TRY(spec_ptr(base, manifest.partition_spec_id));
    if (auto cached = filtered_deletes_cache_.find(manifest.manifest_path);
        cached != filtered_deletes_cache_.end()) {
      const FilteredDeletes& c = cached->second;
      if (c.removed_data_paths == ctx.removed_data_paths &&
          c.min_data_sequence_number == ctx.min_data_sequence_number &&
          c.replaced == ctx.replaced && c.replaced_all == ctx.replaced_all) {
        for (const auto& f : c.removed) ctx.summary.removed(*spec, f);
        ctx.found_deletes.insert(c.found_deletes.begin(), c.found_deletes.end());
        kept_dvs.insert(kept_dvs.end(), c.kept_dvs.begin(), c.kept_dvs.end());
        out.insert(out.end(), c.manifests.begin(), c.manifests.end());
        ctx.replaced_manifests++;
        continue;
      }
    }
    if (!FLOE_TRY(should_read_delete_manifest(ctx, *spec, manifest))) {
      out.push_back(std::move(manifest));
      continue;
    }
    auto entries = FLOE_TRY(read_manifest(*io_, manifest, &base));
    std::vector<bool> drop(entries.size(), false);
    bool any = false;
    size_t kept_before = kept_dvs.size();
    for (size_t i = 0; i < entries.size(); ++i) {
      if (!entries[i].is_live()) continue;
      drop[i] = FLOE_TRY(should_drop_delete(ctx, *spec, entries[i]));
      if (!drop[i]) note_kept(entries[i]);
      any = any || drop[i];
    }
    if (!any) {
      out.push_back(std::move(manifest));
      continue;
    }
    auto writer = FLOE_TRY(ManifestWriter::make(
        *io_, [&](int) { return manifest_path(base); }, ctx.schema, spec,
        writer_options(base, std::numeric_limits<int64_t>::max(), ManifestContent::kDeletes)));
    FilteredDeletes filtered;
    for (size_t i = 0; i < entries.size(); ++i) {
      if (!entries[i].is_live()) continue;  // deletes of older snapshots are not carried
      if (drop[i]) {
        const DataFile& f = entries[i].data_file;
        ctx.summary.removed(*spec, f);
        filtered.removed.push_back(f);
        if (removed_deletes_.count(delete_key(f))) filtered.found_deletes.insert(delete_key(f));
        FLOE_TRY(writer->deleted(entries[i]));
      } else {
        FLOE_TRY(writer->existing(entries[i]));
      }
    }
    filtered.manifests = FLOE_TRY(writer->finish());
    filtered.removed_data_paths = ctx.removed_data_paths;
    filtered.min_data_sequence_number = ctx.min_data_sequence_number;
    filtered.replaced = ctx.replaced;
    filtered.replaced_all = ctx.replaced_all;
    filtered.kept_dvs.assign(kept_dvs.begin() + static_cast<std::ptrdiff_t>(kept_before),
                             kept_dvs.end());
    out.insert(out.end(), filtered.manifests.begin(), filtered.manifests.end());
    filtered_deletes_cache_[manifest.manifest_path] = std::move(filtered);
    ctx.replaced_manifests++;
  }
  if (fail_missing_deletes_) {
    std::vector<std::string> missing;
    for (const auto& [key, f] : removed_deletes_) {
      if (!ctx.found_deletes.count(key)) {
        missing.push_back(describe_delete(f) + removed_by(base, ManifestContent::kDeletes, key));
      }
    }
    if (!missing.empty()) {
      return make_error(ErrorKind::kCommitConflict, "Missing required delete files to remove: {}",
                        fmt::join(missing, ", "));
    }
  }
  // One live deletion vector per data file (v3): a new DV replaces the old one only when this
  // commit removes it.
  if (!kept_dvs.empty()) {
    const auto& [data_file, old_dv] = kept_dvs.front();
    return invalid_argument(
        "cannot add deletion vector {} for data file {}: it already has deletion vector {}, "
        "which this commit does not remove (remove it with remove_deletes to replace it)",
        describe_delete(*added_dvs.at(data_file)), data_file, old_dv);
  }
  return out;
}

}  // namespace floe
