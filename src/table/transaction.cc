#include "floe/table/transaction.h"

#include <algorithm>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "floe/manifest/manifest_list_reader.h"
#include "floe/spec/table_properties.h"
#include "floe/table/table.h"
#include "table/table_internal.h"

namespace floe {

namespace internal {

std::string metadata_dir(const TableMetadata& metadata) {
  std::string dir = table_properties::string_property(metadata.properties,
                                                      table_properties::kWriteMetadataLocation);
  if (!dir.empty()) return dir;
  return join_path(metadata.location, "metadata");
}

void set_branch_head(TableMetadata& metadata, const std::string& name, int64_t snapshot_id,
                     int64_t log_ms) {
  SnapshotRef& ref = metadata.refs[name];
  ref.snapshot_id = snapshot_id;
  ref.type = SnapshotRefType::kBranch;
  if (name != kMainBranch) return;
  if (metadata.current_snapshot_id == snapshot_id) return;
  metadata.current_snapshot_id = snapshot_id;
  metadata.snapshot_log.push_back({log_ms, snapshot_id});
}

}  // namespace internal

using namespace internal;

bool is_ancestor_of(const TableMetadata& metadata, int64_t snapshot_id, int64_t ancestor_id) {
  const Snapshot* s = metadata.snapshot_by_id(snapshot_id);
  while (s) {
    if (s->snapshot_id == ancestor_id) return true;
    if (!s->parent_snapshot_id) return false;
    s = metadata.snapshot_by_id(*s->parent_snapshot_id);
  }
  return false;
}

struct Transaction::State {
  std::shared_ptr<Table> table;
  std::shared_ptr<const TableMetadata> base;
  std::string base_location;
  TableMetadata pending;
  std::vector<std::shared_ptr<PendingUpdate>> updates;
  std::mutex mu;
};

namespace {

// The next metadata file's content: `current` plus the metadata log entry for the base file.
TableMetadata finalize(TableMetadata current, const TableMetadata& base,
                       const std::string& base_location) {
  current.metadata_log = base.metadata_log;
  current.metadata_log.push_back({base.last_updated_ms, base_location});
  int64_t keep =
      std::max<int64_t>(1, table_properties::int_property(
                               current.properties, table_properties::kMetadataPreviousVersionsMax,
                               table_properties::kMetadataPreviousVersionsMaxDefault));
  if (static_cast<int64_t>(current.metadata_log.size()) > keep) {
    current.metadata_log.erase(current.metadata_log.begin(), current.metadata_log.end() - keep);
  }
  int64_t updated = std::max(now_ms(), base.last_updated_ms + 1);
  for (const auto& s : current.snapshots) updated = std::max(updated, s->timestamp_ms);
  current.last_updated_ms = updated;
  return current;
}

// Manifest lists and manifests of the snapshots `next` adds to `base`: what must survive.
std::optional<std::set<std::string>> committed_files(FileIO& io, const TableMetadata& next,
                                                     const TableMetadata& base) {
  std::set<std::string> files;
  for (const auto& s : next.snapshots) {
    if (base.snapshot_by_id(s->snapshot_id)) continue;
    files.insert(s->manifest_list);
    auto manifests = snapshot_manifests(io, next, *s);
    if (!manifests.ok()) return std::nullopt;
    for (const auto& m : *manifests) files.insert(m.manifest_path);
  }
  return files;
}

void delete_all(FileIO& io, const std::vector<std::string>& files,
                const std::set<std::string>& keep = {}) {
  for (const auto& f : files) {
    if (!keep.count(f)) (void)io.delete_file(f);
  }
}

// Java's commit status check: did the commit land after all? Only snapshots tell (their ids
// are random 63-bit numbers); a commit without new snapshots stays unknown.
bool landed(Table& table, const TableMetadata& next, const TableMetadata& base) {
  std::vector<int64_t> added;
  for (const auto& s : next.snapshots) {
    if (!base.snapshot_by_id(s->snapshot_id)) added.push_back(s->snapshot_id);
  }
  if (added.empty()) return false;
  auto loaded = table.catalog()->load_metadata(table.id());
  if (!loaded.ok()) return false;
  for (int64_t id : added) {
    if (!loaded->metadata->snapshot_by_id(id)) return false;
  }
  table.set_current(loaded->metadata, loaded->location);
  return true;
}

std::chrono::milliseconds backoff(const TableMetadata& m, int attempt) {
  int64_t min_wait =
      table_properties::int_property(m.properties, table_properties::kCommitMinRetryWaitMs,
                                     table_properties::kCommitMinRetryWaitMsDefault);
  int64_t max_wait =
      table_properties::int_property(m.properties, table_properties::kCommitMaxRetryWaitMs,
                                     table_properties::kCommitMaxRetryWaitMsDefault);
  double wait = static_cast<double>(min_wait) * std::pow(2.0, std::min(attempt, 30));
  wait = std::min(wait, static_cast<double>(max_wait));
  thread_local std::mt19937_64 rng{std::random_device{}()};
  // Writers that lost the same race would otherwise retry in lockstep and collide again: spread
  // each wait over [0.5, 1.5) of its nominal value.
  wait *= std::uniform_real_distribution<double>(0.5, 1.5)(rng);
  return std::chrono::milliseconds(static_cast<int64_t>(wait));
}

}  // namespace

Transaction::Transaction(std::shared_ptr<Table> table) : state_(std::make_shared<State>()) {
  state_->base = table->metadata();
  state_->base_location = table->metadata_location();
  state_->pending = *state_->base;
  state_->table = std::move(table);
}

const TableMetadata& Transaction::pending() const { return state_->pending; }
const std::shared_ptr<Table>& Transaction::table() const { return state_->table; }

Status Transaction::stage(std::shared_ptr<PendingUpdate> update) {
  std::lock_guard lock(state_->mu);
  auto next = update->apply(state_->pending);
  if (!next.ok()) {
    delete_all(*state_->table->io(), update->written_files());
    update->discard_written_files();
    return next.status();
  }
  state_->pending = std::move(*next);
  state_->updates.push_back(std::move(update));
  return Status::OK();
}

Status Transaction::commit() {
  std::lock_guard lock(state_->mu);
  State& st = *state_;
  if (st.updates.empty()) return Status::OK();
  Table& table = *st.table;
  FileIO& io = *table.io();
  std::vector<std::string> written;
  auto all_written = [&] {
    written.clear();
    for (const auto& u : st.updates) {
      auto files = u->written_files();
      written.insert(written.end(), files.begin(), files.end());
    }
    return written;
  };
  auto abandon = [&](Status error) {
    delete_all(io, all_written());
    for (const auto& u : st.updates) u->discard_written_files();
    st.updates.clear();
    st.base = table.metadata();  // what the table knows now, for updates staged later
    st.base_location = table.metadata_location();
    st.pending = *st.base;
    return error;
  };
  int64_t retries =
      table_properties::int_property(st.pending.properties, table_properties::kCommitNumRetries,
                                     table_properties::kCommitNumRetriesDefault);
  int64_t total_ms = table_properties::int_property(
      st.pending.properties, table_properties::kCommitTotalRetryTimeMs,
      table_properties::kCommitTotalRetryTimeMsDefault);
  auto start = std::chrono::steady_clock::now();
  for (int attempt = 0;; ++attempt) {
    TableMetadata next = finalize(st.pending, *st.base, st.base_location);
    auto committed = table.catalog()->commit_table(table.id(), st.base_location, next);
    if (committed.ok()) {
      // Superseded attempts' files go; when the committed ones cannot be listed, all stay.
      if (auto keep = committed_files(io, next, *st.base)) delete_all(io, all_written(), *keep);
      if (table_properties::bool_property(
              next.properties, table_properties::kMetadataDeleteAfterCommitEnabled,
              table_properties::kMetadataDeleteAfterCommitEnabledDefault)) {
        std::set<std::string> kept;
        for (const auto& e : next.metadata_log) kept.insert(e.metadata_file);
        for (const auto& e : st.base->metadata_log) {
          if (!kept.count(e.metadata_file)) (void)io.delete_file(e.metadata_file);
        }
      }
      auto installed = std::make_shared<const TableMetadata>(std::move(next));
      table.set_current(installed, *committed);
      st.base = installed;
      st.base_location = *committed;
      st.pending = *installed;
      st.updates.clear();
      return Status::OK();
    }
    const Status& error = committed.status();
    // The new metadata may be live: every file it names must stay, whatever the check says.
    if (error.kind() == ErrorKind::kCommitStateUnknown) {
      return landed(table, next, *st.base) ? Status::OK() : error;
    }
    auto elapsed = std::chrono::steady_clock::now() - start;
    bool retry = error.kind() == ErrorKind::kCommitConflict && attempt < retries &&
                 elapsed < std::chrono::milliseconds(total_ms);
    if (!retry) {
      // The next transaction on this table should start from what beat this one.
      if (error.kind() == ErrorKind::kCommitConflict) (void)table.refresh();
      return abandon(error);
    }
    std::this_thread::sleep_for(backoff(st.pending, attempt));
    auto loaded = table.catalog()->load_metadata(table.id());
    if (!loaded.ok()) return abandon(loaded.status());
    table.set_current(loaded->metadata, loaded->location);
    st.base = loaded->metadata;
    st.base_location = loaded->location;
    TableMetadata current = *st.base;
    for (const auto& u : st.updates) {
      auto applied = u->apply(current);
      if (!applied.ok()) return abandon(applied.status());
      current = std::move(*applied);
    }
    st.pending = std::move(current);
  }
}

namespace internal {

Status upgrade_format_version(TableMetadata& m, const std::string& value) {
  int version = 0;
  try {
    version = std::stoi(value);
  } catch (...) {
    return invalid_argument("invalid format-version '{}'", value);
  }
  if (version < m.format_version) {
    return invalid_argument("cannot downgrade format version from {} to {}", m.format_version,
                            version);
  }
  if (version > kMaxFormatVersion)
    return invalid_argument("unsupported format version {}", version);
  m.format_version = version;
  if (version >= 3 && !m.next_row_id) m.next_row_id = 0;
  return Status::OK();
}

}  // namespace internal

// --- UpdateProperties ---

struct UpdateProperties::Impl : PendingUpdate {
  std::map<std::string, std::string> sets;
  std::set<std::string> removes;

  Result<TableMetadata> apply(const TableMetadata& base) override {
    TableMetadata m = base;
    for (const auto& key : removes) {
      if (sets.count(key)) return invalid_argument("property '{}' is both set and removed", key);
      m.properties.erase(key);
    }
    for (const auto& [key, value] : sets) {
      if (key == table_properties::kFormatVersion) {
        FLOE_TRY(internal::upgrade_format_version(m, value));
        continue;
      }
      m.properties[key] = value;
    }
    return m;
  }
};

UpdateProperties::UpdateProperties(Transaction txn, bool auto_commit)
    : impl_(std::make_shared<Impl>()), txn_(std::move(txn)), auto_commit_(auto_commit) {}

UpdateProperties& UpdateProperties::set(const std::string& key, const std::string& value) {
  impl_->sets[key] = value;
  return *this;
}

UpdateProperties& UpdateProperties::remove(const std::string& key) {
  impl_->removes.insert(key);
  return *this;
}

Status UpdateProperties::commit() {
  FLOE_TRY(txn_.stage(impl_));
  return auto_commit_ ? txn_.commit() : Status::OK();
}

// --- ManageSnapshots ---

namespace {

Status require_snapshot(const TableMetadata& m, int64_t id) {
  if (m.snapshot_by_id(id)) return Status::OK();
  return invalid_argument("cannot find snapshot {} in table at '{}'", id, m.location);
}

const SnapshotRef* find_ref(const TableMetadata& m, const std::string& name) {
  auto it = m.refs.find(name);
  if (it != m.refs.end()) return &it->second;
  return nullptr;
}

Status require_branch(const TableMetadata& m, const std::string& name) {
  const SnapshotRef* ref = find_ref(m, name);
  if (!ref) return invalid_argument("branch '{}' does not exist", name);
  if (!ref->is_branch()) return invalid_argument("ref '{}' is a tag, not a branch", name);
  return Status::OK();
}

}  // namespace

struct ManageSnapshots::Impl : PendingUpdate {
  std::vector<std::function<Status(TableMetadata&)>> ops;

  Result<TableMetadata> apply(const TableMetadata& base) override {
    TableMetadata m = base;
    for (const auto& op : ops) FLOE_TRY(op(m));
    return m;
  }
};

ManageSnapshots::ManageSnapshots(Transaction txn, bool auto_commit)
    : impl_(std::make_shared<Impl>()), txn_(std::move(txn)), auto_commit_(auto_commit) {}

ManageSnapshots& ManageSnapshots::set_current_snapshot(int64_t id) {
  impl_->ops.push_back([id](TableMetadata& m) -> Status {
    FLOE_TRY(require_snapshot(m, id));
    set_branch_head(m, kMainBranch, id, now_ms());
    return Status::OK();
  });
  return *this;
}

ManageSnapshots& ManageSnapshots::rollback_to(int64_t id) {
  impl_->ops.push_back([id](TableMetadata& m) -> Status {
    FLOE_TRY(require_snapshot(m, id));
    if (!m.current_snapshot_id || !is_ancestor_of(m, *m.current_snapshot_id, id)) {
      return invalid_argument(
          "cannot roll back to snapshot {}: not an ancestor of the current state", id);
    }
    set_branch_head(m, kMainBranch, id, now_ms());
    return Status::OK();
  });
  return *this;
}

ManageSnapshots& ManageSnapshots::rollback_to_time(int64_t timestamp_ms) {
  impl_->ops.push_back([timestamp_ms](TableMetadata& m) -> Status {
    const Snapshot* s = m.current_snapshot();
    while (s && s->timestamp_ms >= timestamp_ms) {
      s = s->parent_snapshot_id ? m.snapshot_by_id(*s->parent_snapshot_id) : nullptr;
    }
    if (!s)
      return invalid_argument("cannot roll back: no valid snapshot older than {}", timestamp_ms);
    set_branch_head(m, kMainBranch, s->snapshot_id, now_ms());
    return Status::OK();
  });
  return *this;
}

ManageSnapshots& ManageSnapshots::create_branch(const std::string& name,
                                                std::optional<int64_t> snapshot_id) {
  impl_->ops.push_back([name, snapshot_id](TableMetadata& m) -> Status {
    if (find_ref(m, name)) return invalid_argument("ref '{}' already exists", name);
    std::optional<int64_t> id = snapshot_id ? snapshot_id : m.current_snapshot_id;
    if (!id) return invalid_argument("cannot create branch '{}': the table has no snapshot", name);
    FLOE_TRY(require_snapshot(m, *id));
    set_branch_head(m, name, *id, now_ms());
    return Status::OK();
  });
  return *this;
}

ManageSnapshots& ManageSnapshots::create_tag(const std::string& name, int64_t snapshot_id) {
  impl_->ops.push_back([name, snapshot_id](TableMetadata& m) -> Status {
    if (find_ref(m, name)) return invalid_argument("ref '{}' already exists", name);
    FLOE_TRY(require_snapshot(m, snapshot_id));
    SnapshotRef ref;
    ref.snapshot_id = snapshot_id;
    ref.type = SnapshotRefType::kTag;
    m.refs[name] = ref;
    return Status::OK();
  });
  return *this;
}

ManageSnapshots& ManageSnapshots::remove_branch(const std::string& name) {
  impl_->ops.push_back([name](TableMetadata& m) -> Status {
    if (name == kMainBranch) return invalid_argument("cannot remove the main branch");
    FLOE_TRY(require_branch(m, name));
    m.refs.erase(name);
    return Status::OK();
  });
  return *this;
}

ManageSnapshots& ManageSnapshots::remove_tag(const std::string& name) {
  impl_->ops.push_back([name](TableMetadata& m) -> Status {
    const SnapshotRef* ref = find_ref(m, name);
    if (!ref) return invalid_argument("tag '{}' does not exist", name);
    if (ref->is_branch()) return invalid_argument("ref '{}' is a branch, not a tag", name);
    m.refs.erase(name);
    return Status::OK();
  });
  return *this;
}

ManageSnapshots& ManageSnapshots::replace_branch(const std::string& name, int64_t snapshot_id) {
  impl_->ops.push_back([name, snapshot_id](TableMetadata& m) -> Status {
    FLOE_TRY(require_branch(m, name));
    FLOE_TRY(require_snapshot(m, snapshot_id));
    set_branch_head(m, name, snapshot_id, now_ms());
    return Status::OK();
  });
  return *this;
}

ManageSnapshots& ManageSnapshots::fast_forward(const std::string& name, const std::string& source) {
  impl_->ops.push_back([name, source](TableMetadata& m) -> Status {
    FLOE_TRY(require_branch(m, name));
    FLOE_TRY(require_branch(m, source));
    int64_t from = m.refs[name].snapshot_id;
    int64_t to = m.refs[source].snapshot_id;
    if (!is_ancestor_of(m, to, from)) {
      return invalid_argument("cannot fast-forward: '{}' is not an ancestor of '{}'", name, source);
    }
    set_branch_head(m, name, to, now_ms());
    return Status::OK();
  });
  return *this;
}

ManageSnapshots& ManageSnapshots::rename_branch(const std::string& name,
                                                const std::string& new_name) {
  impl_->ops.push_back([name, new_name](TableMetadata& m) -> Status {
    if (name == kMainBranch) return invalid_argument("cannot rename the main branch");
    FLOE_TRY(require_branch(m, name));
    if (find_ref(m, new_name)) return invalid_argument("ref '{}' already exists", new_name);
    m.refs[new_name] = m.refs[name];
    m.refs.erase(name);
    return Status::OK();
  });
  return *this;
}

ManageSnapshots& ManageSnapshots::set_min_snapshots_to_keep(const std::string& name,
                                                            int32_t count) {
  impl_->ops.push_back([name, count](TableMetadata& m) -> Status {
    FLOE_TRY(require_branch(m, name));
    if (count <= 0) return invalid_argument("min snapshots to keep must be positive: {}", count);
    m.refs[name].min_snapshots_to_keep = count;
    return Status::OK();
  });
  return *this;
}

ManageSnapshots& ManageSnapshots::set_max_snapshot_age_ms(const std::string& name, int64_t age_ms) {
  impl_->ops.push_back([name, age_ms](TableMetadata& m) -> Status {
    FLOE_TRY(require_branch(m, name));
    if (age_ms <= 0) return invalid_argument("max snapshot age must be positive: {}", age_ms);
    m.refs[name].max_snapshot_age_ms = age_ms;
    return Status::OK();
  });
  return *this;
}

ManageSnapshots& ManageSnapshots::set_max_ref_age_ms(const std::string& name, int64_t age_ms) {
  impl_->ops.push_back([name, age_ms](TableMetadata& m) -> Status {
    if (!find_ref(m, name)) return invalid_argument("ref '{}' does not exist", name);
    if (age_ms <= 0) return invalid_argument("max ref age must be positive: {}", age_ms);
    m.refs[name].max_ref_age_ms = age_ms;
    return Status::OK();
  });
  return *this;
}

Status ManageSnapshots::commit() {
  FLOE_TRY(txn_.stage(impl_));
  return auto_commit_ ? txn_.commit() : Status::OK();
}

}  // namespace floe
