// Manifest rewriting (floe/table/rewrite_manifests.h; Java's RewriteManifestsSparkAction and
// BaseRewriteManifests): read the live entries of the chosen manifests, apply the table's current
// metrics settings, sort them by partition, write them as EXISTING entries into new manifests,
// and commit a "replace" snapshot whose manifest list swaps the replaced manifests for the new
// ones.
#include "floe/table/rewrite_manifests.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/spec/table_properties.h"
#include "floe/util/thread_pool.h"
#include "floe/util/uuid.h"
#include "floe/write/data_writer.h"
#include "table/snapshot_producer_internal.h"

namespace floe {

using namespace internal;

namespace {

// The type of column `field_id` in the newest schema that has it (null when none does).
TypePtr column_type(const TableMetadata& m, int32_t field_id) {
  if (const Schema* s = m.schema()) {
    if (const NestedField* f = s->find_field(field_id)) return f->type;
  }
  for (auto it = m.schemas.rbegin(); it != m.schemas.rend(); ++it) {
    if (const NestedField* f = (*it)->find_field(field_id)) return f->type;
  }
  return nullptr;
}

// Applies the metrics modes of `config` to what `f` reports: none drops the counts and bounds,
// counts drops the bounds, truncate(N) truncates string and binary bounds (Iceberg spec,
// Appendix B / Truncation; an upper bound that cannot be rounded up is dropped). Column sizes
// stay, as Java records them whatever the mode.
void apply_metrics(const TableMetadata& m, const MetricsConfig& config, DataFile& f) {
  auto mode_of = [&](int32_t id) { return config.mode(id).kind; };
  auto counted = [&](const auto& p) { return mode_of(p.first) == MetricsMode::kNone; };
  std::erase_if(f.value_counts, counted);
  std::erase_if(f.null_value_counts, counted);
  std::erase_if(f.nan_value_counts, counted);
  auto bounded = [&](const auto& p) {
    const auto kind = mode_of(p.first);
    return kind == MetricsMode::kNone || kind == MetricsMode::kCounts;
  };
  std::erase_if(f.lower_bounds, bounded);
  std::erase_if(f.upper_bounds, bounded);
  auto truncate = [&](ColumnMetrics<std::string>& bounds, bool upper) {
    ColumnMetrics<std::string> out;
    out.reserve(bounds.size());
    for (auto& [id, value] : bounds) {
      const MetricsMode& mode = config.mode(id);
      TypePtr type = mode.kind == MetricsMode::kTruncate ? column_type(m, id) : nullptr;
      const bool text = type && type->id() == TypeId::kString;
      const bool binary = type && type->id() == TypeId::kBinary;
      if (!text && !binary) {
        out.emplace_back(id, std::move(value));
        continue;
      }
      if (!upper) {
        out.emplace_back(id, text ? truncate_lower_string(value, mode.length)
                                  : truncate_lower_binary(value, mode.length));
        continue;
      }
      std::optional<std::string> up = text ? truncate_upper_string(value, mode.length)
                                           : truncate_upper_binary(value, mode.length);
      if (up) out.emplace_back(id, std::move(*up));
    }
    bounds = std::move(out);
  };
  truncate(f.lower_bounds, false);
  truncate(f.upper_bounds, true);
}

// Partition tuples in order: field by field, nulls first.
bool partition_less(const std::vector<Literal>& a, const std::vector<Literal>& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const bool an = a[i].is_null(), bn = b[i].is_null();
    if (an || bn) {
      if (an != bn) return an;
      continue;
    }
    const int c = a[i].compare(b[i]);
    if (c != 0) return c < 0;
  }
  return a.size() < b.size();
}

int64_t live_files(const ManifestFile& m) {
  return m.added_files_count.value_or(0) + m.existing_files_count.value_or(0);
}

// The commit (Java's BaseRewriteManifests with deleteManifest / addManifest): the current
// snapshot's manifests with the replaced ones swapped for the new ones, as a "replace" snapshot.
// Every replaced manifest must still be in the current snapshot when the commit applies.
class ReplaceManifests : public PendingUpdate {
 public:
  ReplaceManifests(FileIOPtr io, int64_t snapshot_id, std::vector<ManifestFile> replaced,
                   std::vector<ManifestFile> added, int64_t entries)
      : io_(std::move(io)),
        snapshot_id_(snapshot_id),
        replaced_(std::move(replaced)),
        added_(std::move(added)),
        entries_(entries),
        commit_uuid_(random_uuid()) {
    for (const auto& m : added_) written_.push_back(m.manifest_path);
  }

  Result<TableMetadata> apply(const TableMetadata& base) override {
    if (base.snapshot_by_id(snapshot_id_)) {
      return invalid_argument("snapshot {} already exists", snapshot_id_);
    }
    const Snapshot* parent = base.current_snapshot();
    if (!parent) {
      return make_error(ErrorKind::kCommitConflict,
                        "cannot rewrite manifests: the table has no current snapshot any more");
    }
    std::vector<ManifestFile> current = FLOE_TRY(snapshot_manifests(*io_, base, *parent));
    std::set<std::string> replaced;
    for (const auto& m : replaced_) replaced.insert(m.manifest_path);
    std::set<std::string> present;
    for (const auto& m : current) {
      if (replaced.count(m.manifest_path)) present.insert(m.manifest_path);
    }
    std::vector<std::string> missing;
    for (const auto& p : replaced) {
      if (!present.count(p)) missing.push_back(p);
    }
    if (!missing.empty()) {
      return make_error(ErrorKind::kCommitConflict,
                        "Manifest is missing: {} (not in the current snapshot {}: a concurrent "
                        "commit rewrote or replaced it)",
                        fmt::join(missing, ", "), parent->snapshot_id);
    }
    // Java's validateFilesCounts: the new manifests hold exactly the replaced live files.
    int64_t old_files = 0, new_files = 0;
    for (const auto& m : replaced_) old_files += live_files(m);
    for (const auto& m : added_) new_files += live_files(m);
    if (old_files != new_files) {
      return invalid_data(
          "Replaced and created manifests must have the same number of active files: {} (new), "
          "{} (old)",
          new_files, old_files);
    }
    // The new manifests first, then every manifest kept (a concurrent append's too).
    std::vector<ManifestFile> manifests = added_;
    int64_t kept = 0;
    for (auto& m : current) {
      if (replaced.count(m.manifest_path)) continue;
      manifests.push_back(std::move(m));
      ++kept;
    }

    const bool v1 = base.format_version < 2;
    const int64_t seq = v1 ? 0 : base.last_sequence_number + 1;
    ManifestListWriterOptions list_options;
    list_options.format_version = base.format_version;
    list_options.snapshot_id = snapshot_id_;
    list_options.parent_snapshot_id = parent->snapshot_id;
    list_options.sequence_number = seq;
    if (base.format_version >= 3) list_options.first_row_id = base.next_row_id.value_or(0);
    std::string list_path =
        join_path(metadata_dir(base),
                  fmt::format("snap-{}-{}-{}.avro", snapshot_id_, ++attempt_, commit_uuid_));
    written_.push_back(list_path);
    auto list = FLOE_TRY(write_manifest_list(*io_, list_path, manifests, list_options));

    auto snapshot = std::make_shared<Snapshot>();
    snapshot->snapshot_id = snapshot_id_;
    snapshot->parent_snapshot_id = parent->snapshot_id;
    snapshot->sequence_number = seq;
    snapshot->timestamp_ms = std::max(now_ms(), base.last_updated_ms);
    snapshot->manifest_list = list_path;
    snapshot->summary = SummaryBuilder().build(base, parent);
    snapshot->summary["manifests-created"] = std::to_string(added_.size());
    snapshot->summary["manifests-kept"] = std::to_string(kept);
    snapshot->summary["manifests-replaced"] = std::to_string(replaced_.size());
    snapshot->summary["entries-processed"] = std::to_string(entries_);
    snapshot->summary["operation"] = "replace";
    snapshot->schema_id = base.current_schema_id;

    TableMetadata next = base;
    if (base.format_version >= 3) {
      snapshot->first_row_id = *list_options.first_row_id;
      const int64_t end = list.next_row_id.value_or(*list_options.first_row_id);
      snapshot->added_rows = end - *list_options.first_row_id;
      next.next_row_id = end;
    }
    if (!v1) next.last_sequence_number = seq;
    next.snapshots.push_back(snapshot);
    set_branch_head(next, kMainBranch, snapshot->snapshot_id, snapshot->timestamp_ms);
    return next;
  }

  std::vector<std::string> written_files() const override { return written_; }

 private:
  FileIOPtr io_;
  int64_t snapshot_id_;
  std::vector<ManifestFile> replaced_;
  std::vector<ManifestFile> added_;
  int64_t entries_;
  std::string commit_uuid_;
  int attempt_ = 0;
  std::vector<std::string> written_;
};

class Rewriter {
 public:
  Rewriter(Table& table, const RewriteManifestsOptions& options)
      : table_(table), options_(options), metadata_(table.metadata()), pool_(options.threads) {}

  Result<RewriteManifestsResult> run() {
    const TableMetadata& m = *metadata_;
    if (options_.spec_id && !m.spec_by_id(*options_.spec_id)) {
      return invalid_argument("Invalid spec id {}: table {} has no such partition spec",
                              *options_.spec_id, table_.id().to_string());
    }
    const Snapshot* current = m.current_snapshot();
    if (!current) return result_;
    target_ =
        table_properties::int_property(m.properties, table_properties::kManifestTargetSizeBytes,
                                       table_properties::kManifestTargetSizeBytesDefault);
    if (target_ <= 0) {
      return invalid_argument("table property {} must be positive",
                              table_properties::kManifestTargetSizeBytes);
    }
    // Data manifests, then delete manifests; per spec.
    std::map<std::pair<ManifestContent, int32_t>, std::vector<ManifestFile>> groups;
    for (auto& manifest : FLOE_TRY(snapshot_manifests(*table_.io(), m, *current))) {
      if (options_.spec_id && manifest.partition_spec_id != *options_.spec_id) continue;
      if (options_.predicate && !options_.predicate(manifest)) continue;
      if (!manifest.added_files_count || !manifest.existing_files_count ||
          !manifest.deleted_files_count) {
        return invalid_data("No file counts in manifest: {}", manifest.manifest_path);
      }
      groups[{manifest.content, manifest.partition_spec_id}].push_back(std::move(manifest));
    }
    std::vector<std::vector<ManifestFile>*> chosen;
    for (auto& [key, manifests] : groups) {
      int64_t bytes = 0;
      for (const auto& mf : manifests) bytes += mf.manifest_length;
      // Java: nothing to gain from one manifest that fits in one.
      if (manifests.size() == 1 && bytes <= target_) continue;
      chosen.push_back(&manifests);
      for (const auto& mf : manifests) {
        manifests_total_++;
        bytes_total_ += mf.manifest_length;
      }
    }
    if (chosen.empty()) return result_;

    WriteOptions wo = FLOE_TRY(WriteOptions::from_table(m));
    config_ = wo.parquet.metrics;
    schema_ = FLOE_TRY(current_schema(m));
    snapshot_id_ = random_snapshot_id();
    while (m.snapshot_by_id(snapshot_id_)) snapshot_id_ = random_snapshot_id();
    commit_uuid_ = random_uuid();

    std::vector<ManifestFile> replaced, added;
    Status st = Status::OK();
    for (auto* manifests : chosen) {
      auto written = rewrite_group(*manifests);
      if (!written.ok()) {
        st = written.status();
        break;
      }
      replaced.insert(replaced.end(), manifests->begin(), manifests->end());
      added.insert(added.end(), written->begin(), written->end());
    }
    if (!st.ok()) {
      for (const auto& p : written_) (void)table_.io()->delete_file(p);
      return st;
    }
    auto update =
        std::make_shared<ReplaceManifests>(table_.io(), snapshot_id_, replaced, added, entries_);
    Transaction txn = table_.new_transaction();
    FLOE_TRY(txn.stage(update));
    FLOE_TRY(txn.commit());
    result_.rewritten_manifests = static_cast<int64_t>(replaced.size());
    result_.added_manifests = static_cast<int64_t>(added.size());
    for (const auto& mf : replaced) result_.rewritten_bytes += mf.manifest_length;
    for (const auto& mf : added) result_.added_bytes += mf.manifest_length;
    result_.entries = entries_;
    return result_;
  }

 private:
  // The live entries of one group's manifests (one content, one spec), sorted by partition and
  // written anew.
  Result<std::vector<ManifestFile>> rewrite_group(const std::vector<ManifestFile>& manifests) {
    const TableMetadata& m = *metadata_;
    const ManifestContent content = manifests.front().content;
    PartitionSpecPtr spec = FLOE_TRY(spec_ptr(m, manifests.front().partition_spec_id));
    std::vector<std::vector<ManifestEntry>> read(manifests.size());
    const size_t window = static_cast<size_t>(std::max(1, pool_.size())) * 2;
    for (size_t begin = 0; begin < manifests.size(); begin += window) {
      const size_t end = std::min(manifests.size(), begin + window);
      FLOE_TRY(pool_.parallel_for(end - begin, [&](size_t i) -> Status {
        const ManifestFile& mf = manifests[begin + i];
        ManifestReadOptions ro;
        ro.include_deleted = false;
        auto reader = FLOE_TRY(ManifestReader::open(*table_.io(), mf, &m, ro));
        std::vector<ManifestEntry>& out = read[begin + i];
        return reader->for_each([&](const ManifestEntry& e) {
          if (!e.is_live()) return true;
          out.push_back(e);
          DataFile& f = out.back().data_file;
          if (f.content != FileContent::kPositionDeletes) apply_metrics(m, config_, f);
          return true;
        });
      }));
      for (size_t i = begin; i < end; ++i) {
        manifests_done_++;
        bytes_done_ += manifests[i].manifest_length;
        if (options_.progress) {
          options_.progress(manifests_done_, manifests_total_, bytes_done_, bytes_total_);
        }
      }
    }
    std::vector<ManifestEntry*> entries;
    for (auto& v : read) {
      for (auto& e : v) entries.push_back(&e);
    }
    std::stable_sort(entries.begin(), entries.end(),
                     [](const ManifestEntry* a, const ManifestEntry* b) {
                       return partition_less(a->data_file.partition, b->data_file.partition);
                     });
    ManifestWriterOptions wo;
    wo.format_version = m.format_version;
    wo.content = content;
    wo.snapshot_id = snapshot_id_;
    wo.target_size_bytes = target_;
    auto writer = FLOE_TRY(ManifestWriter::make(
        *table_.io(),
        [&](int) {
          std::string path = join_path(
              metadata_dir(m), fmt::format("optimized-m-{}-{}.avro", commit_uuid_, count_++));
          written_.push_back(path);
          return path;
        },
        schema_, spec, wo));
    for (const ManifestEntry* e : entries) FLOE_TRY(writer->existing(*e));
    entries_ += static_cast<int64_t>(entries.size());
    return writer->finish();
  }

  Table& table_;
  const RewriteManifestsOptions& options_;
  std::shared_ptr<const TableMetadata> metadata_;
  ThreadPool pool_;  // manifest readers
  int64_t target_ = 0;
  MetricsConfig config_;
  SchemaPtr schema_;
  int64_t snapshot_id_ = 0;
  std::string commit_uuid_;
  int count_ = 0;
  std::vector<std::string> written_;
  int64_t entries_ = 0;
  int64_t manifests_total_ = 0, bytes_total_ = 0, manifests_done_ = 0, bytes_done_ = 0;
  RewriteManifestsResult result_;
};

}  // namespace

Result<RewriteManifestsResult> rewrite_manifests(Table& table,
                                                 const RewriteManifestsOptions& options) {
  return Rewriter(table, options).run();
}

}  // namespace floe
