// Snapshot expiration (floe/table/expire_snapshots.h): which snapshots and refs stay (the spec's
// "Snapshot Retention Policy", Java's RemoveSnapshots), the commit, and the reachability-based
// cleanup of the files only removed snapshots reached (Java's ExpireSnapshotsSparkAction).
#include "floe/table/expire_snapshots.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <mutex>

#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/scan/delete_index.h"
#include "floe/spec/table_properties.h"
#include "floe/table/table.h"
#include "floe/table/transaction.h"
#include "floe/util/thread_pool.h"
#include "table/table_internal.h"

namespace floe {

namespace tp = table_properties;
using Settings = ExpireSnapshots::Settings;

const char* expired_file_kind_name(ExpiredFileKind kind) {
  switch (kind) {
    case ExpiredFileKind::kDataFile:
      return "data file";
    case ExpiredFileKind::kPositionDeleteFile:
      return "position delete file";
    case ExpiredFileKind::kEqualityDeleteFile:
      return "equality delete file";
    case ExpiredFileKind::kManifest:
      return "manifest";
    case ExpiredFileKind::kManifestList:
      return "manifest list";
    case ExpiredFileKind::kStatisticsFile:
      return "statistics file";
  }
  return "file";
}

namespace {

int64_t saturating_sub(int64_t a, int64_t b) {
  int64_t out = 0;
  if (__builtin_sub_overflow(a, b, &out)) {
    return b > 0 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
  }
  return out;
}

// `id` and its parents, newest first, while they are in `m`.
std::vector<const Snapshot*> ancestors(const TableMetadata& m, int64_t id) {
  std::vector<const Snapshot*> out;
  const Snapshot* s = m.snapshot_by_id(id);
  while (s && out.size() <= m.snapshots.size()) {
    out.push_back(s);
    s = s->parent_snapshot_id ? m.snapshot_by_id(*s->parent_snapshot_id) : nullptr;
  }
  return out;
}

std::string ref_list(const TableMetadata& m, const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) {
    if (!out.empty()) out += ", ";
    auto it = m.refs.find(name);
    bool tag = it != m.refs.end() && !it->second.is_branch();
    out += fmt::format("{} '{}'", tag ? "tag" : "branch", name);
  }
  return out;
}

// What one expiration of `base` removes, and the metadata without it.
struct ExpirePlan {
  TableMetadata updated;
  std::vector<int64_t> removed_ids;
  std::vector<std::string> removed_refs;
  std::vector<int32_t> removed_specs;
  std::vector<int32_t> removed_schemas;
  bool changed() const {
    return !removed_ids.empty() || !removed_refs.empty() || !removed_specs.empty() ||
           !removed_schemas.empty();
  }
};

// The spec's snapshot-log rule as Java's TableMetadata builder applies it: an entry whose
// snapshot is gone drops itself and every entry before it (otherwise the log would show the
// snapshot before it current over a time when the removed one was).
std::vector<SnapshotLogEntry> trim_snapshot_log(const TableMetadata& m) {
  std::vector<SnapshotLogEntry> out;
  for (const auto& e : m.snapshot_log) {
    if (m.snapshot_by_id(e.snapshot_id)) {
      out.push_back(e);
    } else {
      out.clear();
    }
  }
  return out;
}

// Partition specs and schemas no snapshot left in `m` uses (Java's cleanExpiredMetadata). The
// default spec and the current schema always stay.
Status remove_unused_metadata(FileIO& io, ExpirePlan& p, int threads) {
  TableMetadata& m = p.updated;
  std::set<int32_t> specs{m.default_spec_id};
  std::set<int32_t> schemas{m.current_schema_id};
  std::mutex mu;
  ThreadPool pool(threads);
  FLOE_TRY(pool.parallel_for(m.snapshots.size(), [&](size_t i) -> Status {
    const Snapshot& s = *m.snapshots[i];
    auto manifests = FLOE_TRY_CTX(
        snapshot_manifests(io, m, s),
        fmt::format("expire_snapshots: finding the specs snapshot {} uses", s.snapshot_id));
    std::lock_guard lock(mu);
    for (const auto& mf : manifests) specs.insert(mf.partition_spec_id);
    if (s.schema_id) schemas.insert(*s.schema_id);
    return Status::OK();
  }));
  std::erase_if(m.specs, [&](const PartitionSpecPtr& spec) {
    if (specs.count(spec->spec_id())) return false;
    p.removed_specs.push_back(spec->spec_id());
    return true;
  });
  std::erase_if(m.schemas, [&](const SchemaPtr& schema) {
    if (schemas.count(schema->schema_id())) return false;
    p.removed_schemas.push_back(schema->schema_id());
    return true;
  });
  std::sort(p.removed_specs.begin(), p.removed_specs.end());
  std::sort(p.removed_schemas.begin(), p.removed_schemas.end());
  return Status::OK();
}

Result<ExpirePlan> plan_expiration(const TableMetadata& base, const Settings& s, int64_t now,
                                   FileIO& io) {
  if (!tp::bool_property(base.properties, tp::kGcEnabled, tp::kGcEnabledDefault)) {
    return invalid_argument(
        "Cannot expire snapshots: GC is disabled (deleting files may corrupt other tables)");
  }
  if (base.omitted_snapshots > 0) {
    return invalid_argument("expire_snapshots: the metadata was read without {} of its snapshots",
                            base.omitted_snapshots);
  }
  if (s.retain_last && *s.retain_last < 1) {
    return invalid_argument("Number of snapshots to retain must be at least 1, cannot be: {}",
                            *s.retain_last);
  }
  ExpirePlan p;
  p.updated = base;
  if (base.snapshots.empty()) return p;

  const auto& props = base.properties;
  const int64_t older_than =
      s.older_than_ms ? *s.older_than_ms
                      : saturating_sub(now, tp::int_property(props, tp::kMaxSnapshotAgeMs,
                                                             tp::kMaxSnapshotAgeMsDefault));
  const int64_t min_keep = s.retain_last ? *s.retain_last
                                         : tp::int_property(props, tp::kMinSnapshotsToKeep,
                                                            tp::kMinSnapshotsToKeepDefault);
  const int64_t max_ref_age =
      tp::int_property(props, tp::kMaxRefAgeMs, std::numeric_limits<int64_t>::max());

  // Refs that stay: main always; another while its head is at most max-ref-age-ms old. A ref
  // whose snapshot is missing goes (Java drops such invalid refs).
  std::map<std::string, SnapshotRef> refs = base.refs;
  if (!refs.count(kMainBranch) && base.current_snapshot_id) {
    SnapshotRef main;
    main.snapshot_id = *base.current_snapshot_id;
    main.type = SnapshotRefType::kBranch;
    refs[kMainBranch] = main;
  }
  std::map<std::string, SnapshotRef> kept_refs;
  for (const auto& [name, ref] : refs) {
    if (name == kMainBranch) {
      kept_refs.emplace(name, ref);
      continue;
    }
    const Snapshot* head = base.snapshot_by_id(ref.snapshot_id);
    if (!head) continue;
    const int64_t max_age = ref.max_ref_age_ms.value_or(max_ref_age);
    if (saturating_sub(now, head->timestamp_ms) <= max_age) kept_refs.emplace(name, ref);
  }

  std::set<int64_t> retain;
  std::map<int64_t, std::vector<std::string>> heads;
  for (const auto& [name, ref] : kept_refs) {
    heads[ref.snapshot_id].push_back(name);
    retain.insert(ref.snapshot_id);
  }
  for (int64_t id : s.snapshot_ids) {
    auto it = heads.find(id);
    if (it != heads.end()) {
      return invalid_argument("cannot expire snapshot {}: it is the head of {}", id,
                              ref_list(base, it->second));
    }
  }

  // Along each branch: the first min-snapshots-to-keep ancestors and those younger than the
  // branch's cutoff.
  std::set<int64_t> referenced;
  for (const auto& [name, ref] : kept_refs) {
    if (!ref.is_branch()) {
      referenced.insert(ref.snapshot_id);
      continue;
    }
    const int64_t cutoff =
        ref.max_snapshot_age_ms ? saturating_sub(now, *ref.max_snapshot_age_ms) : older_than;
    const int64_t keep = ref.min_snapshots_to_keep ? *ref.min_snapshots_to_keep : min_keep;
    int64_t kept = 0;
    bool retaining = true;
    for (const Snapshot* a : ancestors(base, ref.snapshot_id)) {
      referenced.insert(a->snapshot_id);
      if (retaining && (kept < keep || a->timestamp_ms >= cutoff)) {
        retain.insert(a->snapshot_id);
        ++kept;
      } else {
        retaining = false;
      }
    }
  }
  // Snapshots no ref reaches (left by a rollback, or by a dropped ref) stay while younger than
  // the cutoff.
  for (const auto& snap : base.snapshots) {
    if (!referenced.count(snap->snapshot_id) && snap->timestamp_ms >= older_than) {
      retain.insert(snap->snapshot_id);
    }
  }

  std::set<int64_t> removed;
  for (const auto& snap : base.snapshots) {
    if (s.snapshot_ids.count(snap->snapshot_id) || !retain.count(snap->snapshot_id)) {
      removed.insert(snap->snapshot_id);
    }
  }
  p.removed_ids.assign(removed.begin(), removed.end());

  TableMetadata& m = p.updated;
  for (const auto& [name, ref] : base.refs) {
    if (!kept_refs.count(name)) p.removed_refs.push_back(name);
  }
  for (const auto& name : p.removed_refs) m.refs.erase(name);
  std::erase_if(m.snapshots,
                [&](const SnapshotPtr& snap) { return removed.count(snap->snapshot_id) > 0; });
  std::erase_if(m.statistics,
                [&](const StatisticsFile& f) { return removed.count(f.snapshot_id) > 0; });
  std::erase_if(m.partition_statistics,
                [&](const PartitionStatisticsFile& f) { return removed.count(f.snapshot_id) > 0; });
  m.snapshot_log = trim_snapshot_log(m);
  if (s.clean_expired_metadata) FLOE_TRY(remove_unused_metadata(io, p, s.plan_threads));
  return p;
}

// The expiration as a transaction update: re-planned on the latest metadata at every attempt,
// remembering the base and plan of the last one (the one that commits).
class ExpireUpdate : public PendingUpdate {
 public:
  ExpireUpdate(Settings settings, int64_t now, FileIO& io)
      : settings_(std::move(settings)), now_(now), io_(io) {}

  Result<TableMetadata> apply(const TableMetadata& base) override {
    ExpirePlan p = FLOE_TRY(plan_expiration(base, settings_, now_, io_));
    base_ = base;
    plan_ = p;
    return std::move(p.updated);
  }

  const TableMetadata& base() const { return base_; }
  const ExpirePlan& plan() const { return plan_; }

 private:
  Settings settings_;
  int64_t now_;
  FileIO& io_;
  TableMetadata base_;
  ExpirePlan plan_;
};

ExpiredFileKind kind_of(FileContent content) {
  switch (content) {
    case FileContent::kPositionDeletes:
      return ExpiredFileKind::kPositionDeleteFile;
    case FileContent::kEqualityDeletes:
      return ExpiredFileKind::kEqualityDeleteFile;
    case FileContent::kData:
      break;
  }
  return ExpiredFileKind::kDataFile;
}

// The live (ADDED or EXISTING) files a manifest lists.
Status live_files(FileIO& io, const ManifestFile& manifest, const TableMetadata& m,
                  std::vector<ExpiredFile>& out) {
  ManifestReadOptions options;
  options.read_stats = false;
  options.include_deleted = false;
  auto reader = FLOE_TRY(ManifestReader::open(io, manifest, &m, options));
  return reader->for_each([&](const ManifestEntry& e) {
    if (e.is_live()) {
      out.push_back(
          {e.data_file.file_path, kind_of(e.data_file.content), e.data_file.file_size_in_bytes});
    }
    return true;
  });
}

// Files reachable from the snapshots of `before` that `kept` no longer has, and from none of
// the snapshots of `kept` (Java's ExpireSnapshotsSparkAction: the expired snapshots' files
// except the kept snapshots' files, compared by path). Lists and manifests of removed snapshots
// that cannot be read are skipped (their files stay, as in Java); kept snapshots' metadata that
// cannot be read is an error, since without it nothing is known safe to delete.
Result<std::vector<ExpiredFile>> expired_files(FileIO& io, const TableMetadata& before,
                                               const std::vector<const TableMetadata*>& kept,
                                               int threads) {
  std::set<int64_t> kept_ids;
  std::vector<std::pair<const TableMetadata*, const Snapshot*>> kept_snapshots;
  for (const TableMetadata* m : kept) {
    for (const auto& s : m->snapshots) {
      if (kept_ids.insert(s->snapshot_id).second) kept_snapshots.emplace_back(m, s.get());
    }
  }
  std::vector<const Snapshot*> expired;
  for (const auto& s : before.snapshots) {
    if (!kept_ids.count(s->snapshot_id)) expired.push_back(s.get());
  }
  if (expired.empty()) return std::vector<ExpiredFile>{};

  ThreadPool pool(threads);
  std::mutex mu;
  // Manifests of removed snapshots, by normalized path.
  std::map<std::string, ManifestFile> going;
  (void)pool.parallel_for(expired.size(), [&](size_t i) -> Status {
    auto manifests = snapshot_manifests(io, before, *expired[i]);
    if (!manifests.ok()) return Status::OK();
    std::lock_guard lock(mu);
    for (auto& mf : *manifests) going.emplace(normalize_file_path(mf.manifest_path), mf);
    return Status::OK();
  });
  // Manifests of kept snapshots: they stay, and so does every file live in them.
  std::map<std::string, std::pair<const TableMetadata*, ManifestFile>> staying;
  FLOE_TRY(pool.parallel_for(kept_snapshots.size(), [&](size_t i) -> Status {
    const auto [m, s] = kept_snapshots[i];
    auto manifests = FLOE_TRY_CTX(
        snapshot_manifests(io, *m, *s),
        fmt::format("expire_snapshots: reading the manifests of kept snapshot {}", s->snapshot_id));
    std::lock_guard lock(mu);
    for (auto& mf : manifests) {
      std::string key = normalize_file_path(mf.manifest_path);
      staying.emplace(std::move(key), std::make_pair(m, std::move(mf)));
    }
    return Status::OK();
  }));
  for (const auto& [key, value] : staying) going.erase(key);

  std::vector<const ManifestFile*> going_list;
  for (const auto& [key, mf] : going) going_list.push_back(&mf);
  std::map<std::string, ExpiredFile> content;
  (void)pool.parallel_for(going_list.size(), [&](size_t i) -> Status {
    std::vector<ExpiredFile> files;
    if (!live_files(io, *going_list[i], before, files).ok()) return Status::OK();
    std::lock_guard lock(mu);
    for (auto& f : files) {
      std::string key = normalize_file_path(f.path);
      content.emplace(std::move(key), std::move(f));
    }
    return Status::OK();
  });
  if (!content.empty()) {
    std::vector<const std::pair<const TableMetadata*, ManifestFile>*> staying_list;
    for (const auto& [key, value] : staying) staying_list.push_back(&value);
    FLOE_TRY(pool.parallel_for(staying_list.size(), [&](size_t i) -> Status {
      const auto& [m, mf] = *staying_list[i];
      std::vector<ExpiredFile> files;
      FLOE_TRY_CTX(live_files(io, mf, *m, files),
                   fmt::format("expire_snapshots: reading kept manifest {}", mf.manifest_path));
      std::lock_guard lock(mu);
      for (const auto& f : files) content.erase(normalize_file_path(f.path));
      return Status::OK();
    }));
  }

  std::set<std::string> kept_paths;  // manifest lists and statistics files of kept snapshots
  for (const auto& [m, s] : kept_snapshots)
    kept_paths.insert(normalize_file_path(s->manifest_list));
  for (const TableMetadata* m : kept) {
    for (const auto& f : m->statistics) kept_paths.insert(normalize_file_path(f.statistics_path));
    for (const auto& f : m->partition_statistics) {
      kept_paths.insert(normalize_file_path(f.statistics_path));
    }
  }
  const std::set<int64_t> expired_ids = [&] {
    std::set<int64_t> ids;
    for (const Snapshot* s : expired) ids.insert(s->snapshot_id);
    return ids;
  }();
  std::map<std::string, ExpiredFile> lists, stats;
  for (const Snapshot* s : expired) {
    if (s->manifest_list.empty()) continue;  // v1 inline manifests
    std::string key = normalize_file_path(s->manifest_list);
    if (!kept_paths.count(key)) {
      lists.emplace(key, ExpiredFile{s->manifest_list, ExpiredFileKind::kManifestList, 0});
    }
  }
  auto add_stats = [&](int64_t snapshot_id, const std::string& path, int64_t size) {
    if (!expired_ids.count(snapshot_id)) return;
    std::string key = normalize_file_path(path);
    if (!kept_paths.count(key)) {
      stats.emplace(key, ExpiredFile{path, ExpiredFileKind::kStatisticsFile, size});
    }
  };
  for (const auto& f : before.statistics) {
    add_stats(f.snapshot_id, f.statistics_path, f.file_size_in_bytes);
  }
  for (const auto& f : before.partition_statistics) {
    add_stats(f.snapshot_id, f.statistics_path, f.file_size_in_bytes);
  }

  // Data and delete files first, then what pointed at them.
  std::vector<ExpiredFile> out;
  for (auto& [key, f] : content) out.push_back(std::move(f));
  std::stable_sort(out.begin(), out.end(), [](const ExpiredFile& a, const ExpiredFile& b) {
    return static_cast<int>(a.kind) < static_cast<int>(b.kind);
  });
  for (const auto& [key, mf] : going) {
    out.push_back({mf.manifest_path, ExpiredFileKind::kManifest, mf.manifest_length});
  }
  for (auto& [key, f] : lists) out.push_back(std::move(f));
  for (auto& [key, f] : stats) out.push_back(std::move(f));
  return out;
}

void count(ExpireSnapshotsResult& r, const ExpiredFile& f) {
  switch (f.kind) {
    case ExpiredFileKind::kDataFile:
      ++r.deleted_data_files_count;
      break;
    case ExpiredFileKind::kPositionDeleteFile:
      ++r.deleted_position_delete_files_count;
      break;
    case ExpiredFileKind::kEqualityDeleteFile:
      ++r.deleted_equality_delete_files_count;
      break;
    case ExpiredFileKind::kManifest:
      ++r.deleted_manifest_files_count;
      break;
    case ExpiredFileKind::kManifestList:
      ++r.deleted_manifest_lists_count;
      break;
    case ExpiredFileKind::kStatisticsFile:
      ++r.deleted_statistics_files_count;
      break;
  }
}

// Deletes `files` `max_concurrent` at a time. A file already gone counts as deleted (as with
// Java's FileIOs); any other failure is counted and the file stays listed nowhere.
void delete_files(FileIO& io, const Settings& s, std::vector<ExpiredFile> files,
                  ExpireSnapshotsResult& r) {
  int64_t bytes_total = 0;
  for (const auto& f : files) bytes_total += f.size_in_bytes;
  const auto total = static_cast<int64_t>(files.size());
  std::vector<char> deleted(files.size(), 0);
  std::mutex mu;
  int64_t done = 0, bytes_done = 0;
  auto done_one = [&](size_t i, const Status& st) {
    const bool ok = st.ok() || st.kind() == ErrorKind::kNotFound;
    std::lock_guard lock(mu);
    if (ok) {
      deleted[i] = 1;
    } else if (r.failed_deletes++ == 0) {
      r.first_delete_error = st.to_string();
    }
    ++done;
    bytes_done += files[i].size_in_bytes;
    if (s.progress) s.progress(done, total, bytes_done, bytes_total);
  };
  if (s.delete_fn) {
    ThreadPool pool(std::max(1, s.max_concurrent_deletes));
    (void)pool.parallel_for(files.size(), [&](size_t i) -> Status {
      done_one(i, s.delete_fn(files[i].path));
      return Status::OK();
    });
  } else {
    // In bulk where the storage can (S3's DeleteObjects), else file by file.
    std::vector<std::string> paths;
    for (const auto& f : files) paths.push_back(f.path);
    delete_all(io, paths, s.max_concurrent_deletes, done_one);
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (!deleted[i]) continue;
    count(r, files[i]);
    r.deleted_files.push_back(std::move(files[i]));
  }
}

void describe(const ExpirePlan& p, ExpireSnapshotsResult& r) {
  r.expired_snapshot_ids = p.removed_ids;
  r.removed_refs = p.removed_refs;
  r.removed_spec_ids = p.removed_specs;
  r.removed_schema_ids = p.removed_schemas;
}

}  // namespace

ExpireSnapshots::ExpireSnapshots(std::shared_ptr<Table> table)
    : table_(std::move(table)), now_ms_(internal::now_ms()) {}

ExpireSnapshots& ExpireSnapshots::expire_older_than(int64_t timestamp_ms) {
  settings_.older_than_ms = timestamp_ms;
  return *this;
}
ExpireSnapshots& ExpireSnapshots::retain_last(int32_t n) {
  settings_.retain_last = n;
  return *this;
}
ExpireSnapshots& ExpireSnapshots::expire_snapshot_id(int64_t snapshot_id) {
  settings_.snapshot_ids.insert(snapshot_id);
  return *this;
}
ExpireSnapshots& ExpireSnapshots::clean_expired_files(bool clean) {
  settings_.clean_expired_files = clean;
  return *this;
}
ExpireSnapshots& ExpireSnapshots::clean_expired_metadata(bool clean) {
  settings_.clean_expired_metadata = clean;
  return *this;
}
ExpireSnapshots& ExpireSnapshots::delete_with(std::function<Status(const std::string&)> fn) {
  settings_.delete_fn = std::move(fn);
  return *this;
}
ExpireSnapshots& ExpireSnapshots::max_concurrent_deletes(int n) {
  settings_.max_concurrent_deletes = n;
  return *this;
}
ExpireSnapshots& ExpireSnapshots::plan_threads(int n) {
  settings_.plan_threads = n;
  return *this;
}
ExpireSnapshots& ExpireSnapshots::dry_run(bool dry_run) {
  settings_.dry_run = dry_run;
  return *this;
}
ExpireSnapshots& ExpireSnapshots::on_progress(
    std::function<void(int64_t, int64_t, int64_t, int64_t)> fn) {
  settings_.progress = std::move(fn);
  return *this;
}

Result<std::vector<SnapshotPtr>> ExpireSnapshots::apply() {
  FLOE_TRY(table_->refresh());
  auto base = table_->metadata();
  ExpirePlan p = FLOE_TRY(plan_expiration(*base, settings_, now_ms_, *table_->io()));
  std::vector<SnapshotPtr> out;
  const std::set<int64_t> removed(p.removed_ids.begin(), p.removed_ids.end());
  for (const auto& s : base->snapshots) {
    if (removed.count(s->snapshot_id)) out.push_back(s);
  }
  return out;
}

Result<ExpireSnapshotsResult> ExpireSnapshots::commit() {
  if (settings_.max_concurrent_deletes < 1) {
    return invalid_argument("max_concurrent_deletes should have value > 0, value: {}",
                            settings_.max_concurrent_deletes);
  }
  FileIO& io = *table_->io();
  FLOE_TRY(table_->refresh());
  ExpireSnapshotsResult result;

  if (settings_.dry_run) {
    auto base = table_->metadata();
    ExpirePlan p = FLOE_TRY(plan_expiration(*base, settings_, now_ms_, io));
    describe(p, result);
    if (settings_.clean_expired_files && p.changed()) {
      result.deleted_files =
          FLOE_TRY(expired_files(io, *base, {&p.updated}, settings_.plan_threads));
      for (const auto& f : result.deleted_files) count(result, f);
    }
    return result;
  }

  auto update = std::make_shared<ExpireUpdate>(settings_, now_ms_, io);
  Transaction txn = table_->new_transaction();
  FLOE_TRY(txn.stage(update));
  if (!update->plan().changed()) {
    describe(update->plan(), result);
    return result;  // nothing to expire: no new metadata (Java commits nothing either)
  }
  FLOE_TRY(txn.commit());
  result.committed = true;
  describe(update->plan(), result);
  if (!settings_.clean_expired_files || update->plan().removed_ids.empty()) return result;

  // What a commit made since ours references must stay too.
  auto current = table_->catalog()->load_metadata(table_->id());
  if (!current.ok()) {
    return Status(current.status().kind(),
                  fmt::format("expire_snapshots: {} snapshots expired, but their files were left "
                              "in place: loading the table again failed: {}",
                              result.expired_snapshot_ids.size(), current.status().message()));
  }
  auto files = expired_files(io, update->base(), {&update->plan().updated, current->metadata.get()},
                             settings_.plan_threads);
  if (!files.ok()) {
    return Status(files.status().kind(),
                  fmt::format("expire_snapshots: {} snapshots expired, but their files were left "
                              "in place: {}",
                              result.expired_snapshot_ids.size(), files.status().message()));
  }
  delete_files(io, settings_, std::move(*files), result);
  return result;
}

}  // namespace floe
