// The core of every snapshot update (see floe/table/snapshot_producer.h): the producer class the
// handles configure, whose parts live in snapshot_producer.cc (apply, filtering data manifests),
// delete_manifests.cc (delete files added and removed), manifest_merge.cc, commit_validation.cc
// and snapshot_summary.cc.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "floe/expr/projection.h"
#include "floe/manifest/manifest.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/table/snapshot_producer.h"
#include "floe/table/table.h"
#include "floe/util/uuid.h"
#include "table/snapshot_summary_internal.h"
#include "table/table_internal.h"

namespace floe {

enum class ProducerKind {
  kFastAppend,
  kMergeAppend,
  kOverwrite,
  kDelete,
  kReplacePartitions,
  kRowDelta,
  kRewrite
};

namespace internal {

int64_t random_snapshot_id();
// The head of `branch` (main's head when the branch does not exist yet).
const Snapshot* branch_head(const TableMetadata& m, const std::string& branch);
Result<SchemaPtr> current_schema(const TableMetadata& m);
Result<PartitionSpecPtr> spec_ptr(const TableMetadata& m, int32_t spec_id);
// Looks a partition source field up in `partition` (values in the order of spec's fields).
FieldLookup partition_lookup(const PartitionSpec& spec, const std::vector<Literal>& partition);

// A delete file as remove_deletes names it: its path and, for a deletion vector (many share one
// Puffin file), its blob's offset (-1 for whole files).
using DeleteKey = std::pair<std::string, int64_t>;
inline DeleteKey delete_key(const DataFile& f) {
  return {f.file_path, f.content_offset.value_or(-1)};
}
// "path" or, for a deletion vector, "path@offset" (error messages).
std::string describe_delete(const DataFile& f);

}  // namespace internal

// The core of every snapshot update (see snapshot_producer.h).
class SnapshotProducer : public PendingUpdate {
 public:
  SnapshotProducer(ProducerKind kind, FileIOPtr io)
      : kind_(kind), io_(std::move(io)), commit_uuid_(random_uuid()) {}

  Result<TableMetadata> apply(const TableMetadata& base) override;
  std::vector<std::string> written_files() const override { return written_; }
  void discard_written_files() override {
    staged_ = false;  // dropped from its transaction: may be committed again
    applied_ = false;
    first_parent_id_.reset();
    written_.clear();
    cached_new_.clear();
    cached_new_deletes_.clear();
    filtered_cache_.clear();
    filtered_deletes_cache_.clear();
    merged_cache_.clear();
  }

  int64_t snapshot_id() {
    if (!snapshot_id_) snapshot_id_ = internal::random_snapshot_id();
    return *snapshot_id_;
  }

  ProducerKind kind_;
  FileIOPtr io_;
  std::string branch_ = kMainBranch;
  std::map<std::string, std::string> extra_summary_;
  std::vector<DataFile> added_;
  std::vector<DataFile> added_deletes_;  // position, deletion vector and equality delete files
  std::set<std::string> delete_paths_;
  // Data files removed whole by a DataFile (not only a path): what validations of new deletes
  // against removed files look at.
  std::map<std::string, DataFile> removed_data_files_;
  std::map<internal::DeleteKey, DataFile> removed_deletes_;
  bool fail_missing_deletes_ = false;
  ExprPtr delete_filter_;
  bool case_sensitive_ = true;
  std::optional<int64_t> validate_from_;
  ExprPtr conflict_filter_;
  bool validate_no_conflicting_data_ = false;
  bool validate_no_conflicting_deletes_ = false;
  // Row delta: data files the new deletes refer to (validate_data_files_exist), and whether
  // concurrent delete-only snapshots count as removing them too (validate_deleted_files).
  std::set<std::string> required_data_files_;
  bool validate_deleted_files_ = false;
  bool validate_added_match_filter_ = false;
  bool fail_any_delete_ = false;
  // Rewrite: the data sequence number of the added data files (unset: the snapshot's), and of
  // added delete files that keep the one of the delete files they replace.
  std::optional<int64_t> new_data_sequence_number_;
  std::map<internal::DeleteKey, int64_t> added_delete_sequence_numbers_;
  bool staged_ = false;

 private:
  struct FilterEvaluators {
    ExprPtr strict_partition, inclusive_partition;
  };
  struct Context {
    const TableMetadata* base;
    SchemaPtr schema;
    int64_t snapshot_id;
    internal::SummaryBuilder summary;
    ExprPtr bound_filter;
    std::map<int32_t, FilterEvaluators> evaluators;
    std::set<std::pair<int32_t, std::string>> replaced;  // spec id, partition path
    std::set<int32_t> replaced_all;                      // unpartitioned specs replaced
    std::set<std::string> found_paths;
    std::set<internal::DeleteKey> found_deletes;
    // v3: data files this attempt removes (their deletion vectors dangle; the files live in
    // filtered_cache_). The lowest data sequence number left among live data files (older
    // delete files apply to nothing).
    std::vector<const DataFile*> removed_data;
    std::set<std::string> removed_data_paths;
    int64_t min_data_sequence_number = 0;
    int64_t replaced_manifests = 0;  // rewritten by filtering or merged
  };

  std::string manifest_path(const TableMetadata& base) {
    std::string path = join_path(internal::metadata_dir(base),
                                 fmt::format("{}-m{}.avro", commit_uuid_, manifest_count_++));
    written_.push_back(path);  // before writing: a failed write may still leave a file
    return path;
  }
  ManifestWriterOptions writer_options(const TableMetadata& base, int64_t target,
                                       ManifestContent content = ManifestContent::kData) const {
    ManifestWriterOptions o;
    o.format_version = base.format_version;
    o.content = content;
    o.snapshot_id = *snapshot_id_;
    o.target_size_bytes = target;
    return o;
  }
  bool deletes_configured() const {
    return !delete_paths_.empty() || delete_filter_ ||
           (kind_ == ProducerKind::kReplacePartitions && !added_.empty());
  }

  Result<std::vector<ManifestFile>> new_manifests(Context& ctx);
  Result<std::vector<ManifestFile>> write_new_manifests(
      Context& ctx, const std::map<int32_t, std::vector<const DataFile*>>& by_spec,
      ManifestContent content);
  Result<std::vector<ManifestFile>> filter_manifests(Context& ctx,
                                                     std::vector<ManifestFile> manifests);
  // delete_manifests.cc
  Status check_delete_file(const TableMetadata& base, const PartitionSpec& spec,
                           const DataFile& f) const;
  Result<std::vector<ManifestFile>> new_delete_manifests(Context& ctx);
  bool delete_filtering_configured(const Context& ctx) const;
  Result<bool> should_read_delete_manifest(Context& ctx, const PartitionSpec& spec,
                                           const ManifestFile& manifest);
  Result<bool> should_drop_delete(Context& ctx, const PartitionSpec& spec,
                                  const ManifestEntry& entry);
  Result<std::vector<ManifestFile>> filter_delete_manifests(Context& ctx,
                                                            std::vector<ManifestFile> manifests);
  Result<bool> should_delete(Context& ctx, const PartitionSpec& spec, const DataFile& file);
  void note_removed(Context& ctx, const DataFile& f);
  bool skip_manifest(Context& ctx, const PartitionSpec& spec, const ManifestFile& manifest);
  Status validate_added_files(const Context& ctx);
  Result<std::vector<ManifestFile>> merge_manifests(Context& ctx,
                                                    std::vector<ManifestFile> manifests,
                                                    size_t new_count);
  Result<ManifestFile> merge_bin(Context& ctx, int32_t spec_id,
                                 const std::vector<ManifestFile>& bin);
  // commit_validation.cc
  Status validate(const TableMetadata& base, const Snapshot* parent);
  Status validate_removed_contents() const;
  Status validate_no_conflicting_data(const TableMetadata& base, const Snapshot* parent);
  Status validate_data_files_exist(const TableMetadata& base, const Snapshot* parent);
  Status validate_no_new_deletes_for_data_files(const TableMetadata& base, const Snapshot* parent,
                                                ExprPtr filter, bool ignore_equality = false);
  Status validate_no_new_delete_files(const TableMetadata& base, const Snapshot* parent,
                                      ExprPtr filter);
  Status validate_added_dvs(const TableMetadata& base, const Snapshot* parent);
  // " (removed by snapshot N)" when a snapshot since the update's start removed the file, else
  // "" (for errors about files that must be live).
  std::string removed_by(const TableMetadata& base, ManifestContent content,
                         const internal::DeleteKey& file);
  std::string operation() const;

  std::string commit_uuid_;
  std::optional<int64_t> snapshot_id_;
  // The branch head when the update was first applied (staged): the implicit starting snapshot
  // of the concurrent-DV check.
  bool applied_ = false;
  std::optional<int64_t> first_parent_id_;
  int list_attempt_ = 0;
  std::atomic<int> manifest_count_{0};
  std::vector<ManifestFile> cached_new_;
  std::vector<ManifestFile> cached_new_deletes_;
  // Rewrites depend only on their inputs, so retries reuse them (Java caches both too).
  struct Filtered {
    std::vector<ManifestFile> manifests;
    std::vector<std::pair<int32_t, DataFile>> removed;  // spec id, file
    std::set<std::string> found_paths;
  };
  std::map<std::string, Filtered> filtered_cache_;
  // A rewritten delete manifest, reusable while the inputs that decided its drops are the same.
  struct FilteredDeletes {
    std::set<std::string> removed_data_paths;
    int64_t min_data_sequence_number = 0;
    std::set<std::pair<int32_t, std::string>> replaced;
    std::set<int32_t> replaced_all;
    std::vector<ManifestFile> manifests;
    std::vector<DataFile> removed;
    std::set<internal::DeleteKey> found_deletes;
    std::vector<std::pair<std::string, std::string>> kept_dvs;  // data file, DV kept for it
  };
  std::map<std::string, FilteredDeletes> filtered_deletes_cache_;
  std::map<std::vector<std::string>, ManifestFile> merged_cache_;
  std::vector<std::string> written_;
};

}  // namespace floe
