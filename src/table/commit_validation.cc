// Commit validation of the snapshot producer, against the snapshots committed to the branch since
// the update's starting snapshot (Java's MergingSnapshotProducer validations):
//   added files match an overwrite's filter           validateAddedFilesMatchOverwriteFilter
//   no concurrently added data file conflicts         validateAddedDataFiles / NoConflictingData
//   the data files new deletes refer to still exist   validateDataFilesExist
//   no new delete applies to a removed data file      validateNoNewDeletesForDataFiles
//   no new delete file may match the conflict filter  validateNoNewDeleteFiles
//   no concurrent deletion vector for the same file   validateAddedDVs
// Conflicts are kCommitConflict errors naming the files and the snapshots that made them.
#include <functional>
#include <span>
#include <string_view>

#include "floe/expr/projection.h"
#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/scan/delete_index.h"
#include "floe/scan/evaluators.h"
#include "table/snapshot_producer_internal.h"

namespace floe {

using namespace internal;

namespace {

// Java's operation sets: data is added by appends and overwrites; data files are removed by
// overwrites, replaces and deletes; delete files are added by overwrites and deletes; deletion
// vectors also by replaces.
using Operations = std::span<const std::string_view>;
constexpr std::string_view kAddsData[] = {"append", "overwrite"};
constexpr std::string_view kRemovesData[] = {"overwrite", "replace", "delete"};
constexpr std::string_view kRemovesDataSkipDeletes[] = {"overwrite", "replace"};
constexpr std::string_view kAddsDeletes[] = {"overwrite", "delete"};
constexpr std::string_view kAddsDvs[] = {"overwrite", "delete", "replace"};
constexpr std::string_view kAnyOperation[] = {"append", "overwrite", "replace", "delete"};

// The snapshots of the branch after `from` (every ancestor when unset), newest first.
Result<std::vector<const Snapshot*>> history_since(const TableMetadata& base,
                                                   const Snapshot* parent,
                                                   std::optional<int64_t> from,
                                                   const std::string& branch) {
  std::vector<const Snapshot*> out;
  for (const Snapshot* s = parent; s;) {
    if (from && s->snapshot_id == *from) return out;
    out.push_back(s);
    s = s->parent_snapshot_id ? base.snapshot_by_id(*s->parent_snapshot_id) : nullptr;
  }
  if (from && parent) {
    return make_error(ErrorKind::kCommitConflict,
                      "cannot determine history since snapshot {}: not an ancestor of '{}'", *from,
                      branch);
  }
  return out;
}

// Calls `fn` for each entry with `status` that a snapshot of `history` whose operation is one of
// `operations` wrote itself, in the manifests of `content` it added.
using ChangeFn = std::function<Status(const Snapshot&, const PartitionSpec&, const ManifestEntry&)>;
Status for_each_change(FileIO& io, const TableMetadata& base,
                       const std::vector<const Snapshot*>& history, Operations operations,
                       ManifestContent content, ManifestEntryStatus status, const ChangeFn& fn) {
  for (const Snapshot* s : history) {
    std::string op = s->operation();
    if (std::find(operations.begin(), operations.end(), op) == operations.end()) continue;
    for (const auto& m : FLOE_TRY(snapshot_manifests(io, base, *s))) {
      if (m.content != content || m.added_snapshot_id != s->snapshot_id) continue;
      auto spec = FLOE_TRY(spec_ptr(base, m.partition_spec_id));
      for (const auto& e : FLOE_TRY(read_manifest(io, m, &base))) {
        if (e.status != status || e.snapshot_id != s->snapshot_id) continue;
        FLOE_TRY(fn(*s, *spec, e));
      }
    }
  }
  return Status::OK();
}

// A row filter over files: may a file hold rows matching it, by partition and column metrics?
// A null filter matches every file.
class FileFilter {
 public:
  static Result<FileFilter> make(const ExprPtr& filter, SchemaPtr schema, bool case_sensitive) {
    FileFilter out;
    out.schema_ = std::move(schema);
    if (filter) out.bound_ = FLOE_TRY(bind_expression(filter, *out.schema_, case_sensitive));
    return out;
  }
  std::string description() const { return bound_ ? bound_->to_string() : "true"; }
  Result<bool> matches(const PartitionSpec& spec, const DataFile& f) {
    if (!bound_) return true;
    auto it = inclusive_.find(spec.spec_id());
    if (it == inclusive_.end()) {
      auto projected = FLOE_TRY(project_inclusive(bound_, spec, *schema_));
      it = inclusive_.emplace(spec.spec_id(), projected).first;
    }
    return evaluate(it->second, partition_lookup(spec, f.partition)) &&
           InclusiveMetricsEvaluator(bound_).might_match(f);
  }

 private:
  SchemaPtr schema_;
  ExprPtr bound_;
  std::map<int32_t, ExprPtr> inclusive_;
};

int64_t starting_sequence_number(const TableMetadata& base, std::optional<int64_t> from) {
  const Snapshot* s = from ? base.snapshot_by_id(*from) : nullptr;
  return s ? s->sequence_number : 0;
}

// A delete file added since the starting snapshot.
struct AddedDelete {
  DataFile file;
  int64_t data_sequence_number = 0;
  int64_t file_sequence_number = 0;
  int64_t snapshot_id = 0;
  bool unpartitioned = false;
};

std::string conflict_list(const std::vector<std::string>& items) {
  return fmt::format("[{}]", fmt::join(items, ", "));
}

}  // namespace

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

// Files removed as data are data files; files removed as deletes are not (row deltas and
// rewrites name them apart).
Status SnapshotProducer::validate_removed_contents() const {
  for (const auto& [path, f] : removed_data_files_) {
    if (f.content != FileContent::kData) {
      return invalid_argument("cannot remove '{}' as rows: it is a {} file (remove it as deletes)",
                              path, file_content_name(f.content));
    }
  }
  for (const auto& [key, f] : removed_deletes_) {
    if (f.content == FileContent::kData) {
      return invalid_argument(
          "cannot remove '{}' as deletes: it is a data file (remove it as rows)", f.file_path);
    }
  }
  return Status::OK();
}

Status SnapshotProducer::validate(const TableMetadata& base, const Snapshot* parent) {
  if (kind_ == ProducerKind::kRowDelta) {
    FLOE_TRY(validate_removed_contents());
    // Java validateNoConflictingFileAndPositionDeletes: a data file this delta removes cannot
    // be one its new deletes refer to.
    std::set<std::string> referenced = required_data_files_;
    for (const auto& f : added_deletes_) {
      if (f.referenced_data_file) referenced.insert(*f.referenced_data_file);
    }
    std::vector<std::string> both;
    for (const auto& [path, f] : removed_data_files_) {
      if (referenced.count(path)) both.push_back(path);
    }
    if (!both.empty()) {
      return invalid_argument("Cannot delete data files {} that are referenced by new delete files",
                              conflict_list(both));
    }
    if (!required_data_files_.empty()) FLOE_TRY(validate_data_files_exist(base, parent));
    if (validate_no_conflicting_data_) FLOE_TRY(validate_no_conflicting_data(base, parent));
    if (validate_no_conflicting_deletes_) {
      if (!removed_data_files_.empty()) {
        FLOE_TRY(validate_no_new_deletes_for_data_files(base, parent, conflict_filter_));
      }
      FLOE_TRY(validate_no_new_delete_files(base, parent, conflict_filter_));
    }
    return validate_added_dvs(base, parent);
  }
  if (kind_ == ProducerKind::kRewrite) {
    // Java BaseRewriteFiles.validate. Without a starting snapshot, changes since the branch
    // head the rewrite was first applied to count (the replaced files' own deletes do not).
    if (!validate_from_ && first_parent_id_) validate_from_ = first_parent_id_;
    for (const auto& f : added_) {
      if (f.content != FileContent::kData) {
        return invalid_argument("a rewrite adds data files only: '{}' is a {} file", f.file_path,
                                file_content_name(f.content));
      }
    }
    FLOE_TRY(validate_removed_contents());
    if (removed_data_files_.empty() && !added_.empty()) {
      return invalid_argument("a rewrite that adds data files must replace some");
    }
    if (removed_deletes_.empty() && !added_deletes_.empty()) {
      return invalid_argument("a rewrite that adds delete files must replace some");
    }
    // The rows of a replaced file that a new position delete or DV removes would come back;
    // new equality deletes apply to the rewritten rows as well when they keep the old
    // sequence number.
    return validate_no_new_deletes_for_data_files(base, parent, nullptr,
                                                  new_data_sequence_number_.has_value());
  }
  if (validate_no_conflicting_data_) FLOE_TRY(validate_no_conflicting_data(base, parent));
  if (kind_ == ProducerKind::kOverwrite && validate_no_conflicting_deletes_) {
    // Java BaseOverwriteFiles: deletes that may match the rows the filter removes, and deletes
    // for the files removed by path.
    if (delete_filter_) {
      FLOE_TRY(validate_no_new_delete_files(base, parent,
                                            conflict_filter_ ? conflict_filter_ : delete_filter_));
    }
    if (!removed_data_files_.empty()) {
      FLOE_TRY(validate_no_new_deletes_for_data_files(base, parent, conflict_filter_));
    }
  }
  return Status::OK();
}

// Java validateAddedDataFiles: data files added since the starting snapshot that may hold rows
// matching the conflict filter (replace partitions: that lie in a replaced partition).
Status SnapshotProducer::validate_no_conflicting_data(const TableMetadata& base,
                                                      const Snapshot* parent) {
  auto schema = FLOE_TRY(current_schema(base));
  std::function<Result<bool>(const PartitionSpec&, const DataFile&)> conflicts_with;
  std::string description;
  std::set<std::pair<int32_t, std::string>> partitions;
  bool whole_table = false;
  std::optional<FileFilter> filter;
  if (kind_ == ProducerKind::kReplacePartitions) {
    for (const auto& f : added_) {
      auto spec = FLOE_TRY(spec_ptr(base, f.spec_id));
      whole_table = whole_table || spec->is_unpartitioned();
      partitions.insert({f.spec_id, spec->partition_to_path(f.partition)});
    }
    description = "the replaced partitions";
    conflicts_with = [&](const PartitionSpec& spec, const DataFile& f) -> Result<bool> {
      return whole_table ||
             partitions.count({spec.spec_id(), spec.partition_to_path(f.partition)}) > 0;
    };
  } else {
    // Java dataConflictDetectionFilter: the conflict filter, else the row filter when no file
    // is removed by path, else everything.
    ExprPtr expr = conflict_filter_;
    if (!expr) expr = delete_filter_ && delete_paths_.empty() ? delete_filter_ : always_true();
    filter = FLOE_TRY(FileFilter::make(expr, schema, case_sensitive_));
    description = filter->description();
    conflicts_with = [&](const PartitionSpec& spec, const DataFile& f) {
      return filter->matches(spec, f);
    };
  }
  auto history = FLOE_TRY(history_since(base, parent, validate_from_, branch_));
  std::vector<std::string> conflicts;
  FLOE_TRY(for_each_change(
      *io_, base, history, kAddsData, ManifestContent::kData, ManifestEntryStatus::kAdded,
      [&](const Snapshot& s, const PartitionSpec& spec, const ManifestEntry& e) -> Status {
        if (FLOE_TRY(conflicts_with(spec, e.data_file))) {
          conflicts.push_back(
              fmt::format("{} (added by snapshot {})", e.data_file.file_path, s.snapshot_id));
        }
        return Status::OK();
      }));
  if (conflicts.empty()) return Status::OK();
  return make_error(ErrorKind::kCommitConflict,
                    "Found conflicting files that can contain records matching {}: {}", description,
                    conflict_list(conflicts));
}

// Java validateDataFilesExist: the data files the new deletes refer to were not removed since
// the starting snapshot (by delete-only snapshots too with validate_deleted_files).
Status SnapshotProducer::validate_data_files_exist(const TableMetadata& base,
                                                   const Snapshot* parent) {
  auto schema = FLOE_TRY(current_schema(base));
  auto filter = FLOE_TRY(FileFilter::make(conflict_filter_, schema, case_sensitive_));
  auto history = FLOE_TRY(history_since(base, parent, validate_from_, branch_));
  std::vector<std::string> missing;
  FLOE_TRY(for_each_change(
      *io_, base, history,
      validate_deleted_files_ ? Operations(kRemovesData) : Operations(kRemovesDataSkipDeletes),
      ManifestContent::kData, ManifestEntryStatus::kDeleted,
      [&](const Snapshot& s, const PartitionSpec& spec, const ManifestEntry& e) -> Status {
        if (required_data_files_.count(e.data_file.file_path) &&
            FLOE_TRY(filter.matches(spec, e.data_file))) {
          missing.push_back(
              fmt::format("{} (removed by snapshot {})", e.data_file.file_path, s.snapshot_id));
        }
        return Status::OK();
      }));
  if (missing.empty()) return Status::OK();
  return make_error(ErrorKind::kCommitConflict, "Cannot commit, missing data files: {}",
                    conflict_list(missing));
}

// The delete files added since the starting snapshot (sequence numbers above its own) that may
// apply to rows matching `filter` (Java addedDeleteFiles).
static Result<std::vector<AddedDelete>> added_delete_files(
    FileIO& io, const TableMetadata& base, const std::vector<const Snapshot*>& history,
    int64_t starting_sequence_number, FileFilter& filter) {
  std::vector<AddedDelete> out;
  if (base.format_version < 2) return out;
  FLOE_TRY(for_each_change(
      io, base, history, kAddsDeletes, ManifestContent::kDeletes, ManifestEntryStatus::kAdded,
      [&](const Snapshot& s, const PartitionSpec& spec, const ManifestEntry& e) -> Status {
        int64_t seq = e.sequence_number.value_or(0);
        if (seq <= starting_sequence_number) return Status::OK();
        if (!FLOE_TRY(filter.matches(spec, e.data_file))) return Status::OK();
        out.push_back({e.data_file, seq, e.file_sequence_number.value_or(seq), s.snapshot_id,
                       spec.is_unpartitioned()});
        return Status::OK();
      }));
  return out;
}

// Java validateNoNewDeletesForDataFiles: no delete added since the starting snapshot applies to a
// data file this update removes (as it would to a file of the starting snapshot); with
// ignore_equality, only position deletes and DVs count.
Status SnapshotProducer::validate_no_new_deletes_for_data_files(const TableMetadata& base,
                                                                const Snapshot* parent,
                                                                ExprPtr filter_expr,
                                                                bool ignore_equality) {
  if (!parent || base.format_version < 2 || removed_data_files_.empty()) return Status::OK();
  auto schema = FLOE_TRY(current_schema(base));
  auto filter = FLOE_TRY(FileFilter::make(filter_expr, schema, case_sensitive_));
  auto history = FLOE_TRY(history_since(base, parent, validate_from_, branch_));
  int64_t start = starting_sequence_number(base, validate_from_);
  auto added = FLOE_TRY(added_delete_files(*io_, base, history, start, filter));
  if (added.empty()) return Status::OK();
  DeleteFileIndex index;
  std::map<DeleteKey, const AddedDelete*> origin;
  for (const auto& d : added) {
    origin[delete_key(d.file)] = &d;
    index.add(DeleteFile::make(d.file, d.data_sequence_number, d.file_sequence_number),
              d.unpartitioned);
  }
  index.finish();
  std::vector<std::string> conflicts;
  for (const auto& [path, f] : removed_data_files_) {
    for (const auto& d : index.for_data_file(f, start)) {
      if (ignore_equality && d->content() == FileContent::kEqualityDeletes) continue;
      auto from = origin.find({std::string(d->file_path()), d->content_offset().value_or(-1)});
      if (from == origin.end()) {
        conflicts.push_back(fmt::format("{} ({})", path, d->file_path()));
      } else {
        conflicts.push_back(fmt::format("{} ({} added by snapshot {})", path,
                                        describe_delete(from->second->file),
                                        from->second->snapshot_id));
      }
    }
  }
  if (conflicts.empty()) return Status::OK();
  return make_error(ErrorKind::kCommitConflict,
                    "Cannot commit, found new delete for replaced data file: {}",
                    conflict_list(conflicts));
}

// Java validateNoNewDeleteFiles: no delete file added since the starting snapshot may apply to
// rows matching the filter (none: every new delete file conflicts).
Status SnapshotProducer::validate_no_new_delete_files(const TableMetadata& base,
                                                      const Snapshot* parent, ExprPtr filter_expr) {
  if (!parent || base.format_version < 2) return Status::OK();
  auto schema = FLOE_TRY(current_schema(base));
  auto filter = FLOE_TRY(FileFilter::make(filter_expr, schema, case_sensitive_));
  auto history = FLOE_TRY(history_since(base, parent, validate_from_, branch_));
  int64_t start = starting_sequence_number(base, validate_from_);
  auto added = FLOE_TRY(added_delete_files(*io_, base, history, start, filter));
  if (added.empty()) return Status::OK();
  std::vector<std::string> conflicts;
  for (const auto& d : added) {
    conflicts.push_back(
        fmt::format("{} (added by snapshot {})", describe_delete(d.file), d.snapshot_id));
  }
  return make_error(ErrorKind::kCommitConflict,
                    "Found new conflicting delete files that can apply to records matching {}: {}",
                    filter.description(), conflict_list(conflicts));
}

// Java validateAddedDVs: no deletion vector for a data file this update adds one for was added
// since the starting snapshot. Without validate_from_snapshot the start is the branch head this
// update was first applied to (Java would look at the whole history, where the DV a commit
// replaces was itself added once).
Status SnapshotProducer::validate_added_dvs(const TableMetadata& base, const Snapshot* parent) {
  std::map<std::string, const DataFile*> ours;
  for (const auto& f : added_deletes_) {
    if (is_deletion_vector(f) && f.referenced_data_file) ours.emplace(*f.referenced_data_file, &f);
  }
  if (!parent || ours.empty()) return Status::OK();
  auto schema = FLOE_TRY(current_schema(base));
  auto filter = FLOE_TRY(FileFilter::make(conflict_filter_, schema, case_sensitive_));
  std::optional<int64_t> from = validate_from_ ? validate_from_ : first_parent_id_;
  auto history = FLOE_TRY(history_since(base, parent, from, branch_));
  std::vector<std::string> conflicts;
  FLOE_TRY(for_each_change(
      *io_, base, history, kAddsDvs, ManifestContent::kDeletes, ManifestEntryStatus::kAdded,
      [&](const Snapshot& s, const PartitionSpec& spec, const ManifestEntry& e) -> Status {
        const DataFile& f = e.data_file;
        if (!is_deletion_vector(f) || !f.referenced_data_file ||
            !ours.count(*f.referenced_data_file)) {
          return Status::OK();
        }
        if (!FLOE_TRY(filter.matches(spec, f))) return Status::OK();
        conflicts.push_back(fmt::format("{}: {} (added by snapshot {})", *f.referenced_data_file,
                                        describe_delete(f), s.snapshot_id));
        return Status::OK();
      }));
  if (conflicts.empty()) return Status::OK();
  return make_error(ErrorKind::kCommitConflict, "Found concurrently added DV for {}",
                    fmt::join(conflicts, "; "));
}

std::string SnapshotProducer::removed_by(const TableMetadata& base, ManifestContent content,
                                         const DeleteKey& file) {
  std::optional<int64_t> from = validate_from_ ? validate_from_ : first_parent_id_;
  auto history = history_since(base, branch_head(base, branch_), from, branch_);
  if (!history.ok()) return "";
  std::optional<int64_t> remover;
  auto found = for_each_change(
      *io_, base, *history, kAnyOperation, content, ManifestEntryStatus::kDeleted,
      [&](const Snapshot& s, const PartitionSpec&, const ManifestEntry& e) -> Status {
        if (!remover && delete_key(e.data_file) == file) remover = s.snapshot_id;
        return Status::OK();
      });
  if (!found.ok() || !remover) return "";
  return fmt::format(" (removed by snapshot {})", *remover);
}

}  // namespace floe
