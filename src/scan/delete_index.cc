#include "scan/delete_index.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "floe/manifest/manifest_reader.h"

namespace floe {

namespace {

// Reserved field id of the `file_path` column of position-delete files.
constexpr int32_t kDeleteFilePathId = 2147483546;

void append_u32(std::string* out, uint32_t v) {
  char b[4];
  std::memcpy(b, &v, 4);
  out->append(b, 4);
}

uint64_t hash_path(std::string_view p) { return std::hash<std::string_view>{}(p); }

bool is_deletion_vector(const DataFile& f) {
  return (f.content_offset || f.file_format == "puffin" || f.file_format == "PUFFIN") &&
         f.referenced_data_file.has_value();
}

}  // namespace

std::string partition_key(int32_t spec_id, const std::vector<Literal>& values) {
  std::string key;
  append_u32(&key, static_cast<uint32_t>(spec_id));
  for (const auto& v : values) {
    if (v.is_null()) {
      key.push_back('\0');
      continue;
    }
    key.push_back('\1');
    std::string bytes;
    TypeId id = v.type() ? v.type()->id() : TypeId::kUnknown;
    if (id == TypeId::kFloat && std::isnan(v.as_float())) {
      bytes = "NaN";  // every NaN is one partition
    } else if (id == TypeId::kDouble && std::isnan(v.as_double())) {
      bytes = "NaN";
    } else {
      auto b = v.to_bytes();
      bytes = b.ok() ? *b : v.to_string();
    }
    append_u32(&key, static_cast<uint32_t>(bytes.size()));
    key += bytes;
  }
  return key;
}

std::string_view normalized_path_view(std::string_view p) {
  // "file:///tmp/x" keeps its leading '/', "file://wh/t" leaves the relative "wh/t" (as
  // local_path_of does).
  if (p.starts_with("file://")) return p.substr(7);
  if (p.starts_with("file:")) return p.substr(5);
  auto scheme = p.find("://");
  if (scheme != std::string_view::npos && p.substr(0, scheme).find('/') == std::string_view::npos) {
    auto slash = p.find('/', scheme + 3);
    return slash == std::string_view::npos ? std::string_view("/") : p.substr(slash);
  }
  return p;
}

std::string normalize_file_path(std::string_view p) { return std::string(normalized_path_view(p)); }

void copy_file_without_stats(const DataFile& from, DataFile* to, bool keep_delete_path_bounds) {
  to->content = from.content;
  to->file_path = from.file_path;
  to->file_format = from.file_format;
  to->partition = from.partition;
  to->record_count = from.record_count;
  to->file_size_in_bytes = from.file_size_in_bytes;
  to->key_metadata = from.key_metadata;
  to->split_offsets = from.split_offsets;
  to->equality_ids = from.equality_ids;
  to->sort_order_id = from.sort_order_id;
  to->first_row_id = from.first_row_id;
  to->referenced_data_file = from.referenced_data_file;
  to->content_offset = from.content_offset;
  to->content_size_in_bytes = from.content_size_in_bytes;
  to->spec_id = from.spec_id;
  if (keep_delete_path_bounds && !from.referenced_data_file) {
    if (const std::string* lo = find_metric(from.lower_bounds, kDeleteFilePathId)) {
      to->lower_bounds.push_back({kDeleteFilePathId, *lo});
    }
    if (const std::string* hi = find_metric(from.upper_bounds, kDeleteFilePathId)) {
      to->upper_bounds.push_back({kDeleteFilePathId, *hi});
    }
  }
}

Status read_delete_manifests(FileIO& io, const TableMetadata& table,
                             const std::vector<DeleteManifest>& manifests,
                             const ManifestReadOptions& options, bool keep_stats, ThreadPool& pool,
                             const std::function<bool(const ManifestFile&, const DataFile&)>& keep,
                             DeleteFileIndex* index, int64_t* total_files, int64_t* skipped_files) {
  std::mutex mu;
  FLOE_TRY(pool.parallel_for(manifests.size(), [&](size_t i) -> Status {
    const ManifestFile& m = *manifests[i].manifest;
    auto reader = FLOE_TRY(ManifestReader::open(io, m, &table, options));
    std::vector<DeleteFilePtr> kept;
    ChunkArena<DeleteFile> arena(1024);
    int64_t total = 0, skipped = 0;
    FLOE_TRY(reader->for_each([&](const ManifestEntry& e) {
      if (!e.is_live() || e.data_file.content == FileContent::kData) return true;
      ++total;
      if (keep && !keep(m, e.data_file)) {
        ++skipped;
        return true;
      }
      DeleteFilePtr ptr;
      DeleteFile* d = arena.next(&ptr);
      if (keep_stats) {
        d->file = e.data_file;
      } else {
        copy_file_without_stats(e.data_file, &d->file, true);
      }
      d->data_sequence_number = e.sequence_number.value_or(0);
      d->file_sequence_number = e.file_sequence_number.value_or(0);
      kept.push_back(std::move(ptr));
      return true;
    }));
    std::lock_guard lock(mu);
    if (total_files) *total_files += total;
    if (skipped_files) *skipped_files += skipped;
    for (auto& d : kept) {
      bool global = d->file.content == FileContent::kEqualityDeletes && manifests[i].unpartitioned;
      index->add(std::move(d), global);
    }
    return Status::OK();
  }));
  index->finish();
  return Status::OK();
}

// A list shared by many data files, with the ordinals of its files for matched_files().
struct DeleteFileIndex::List {
  std::vector<DeleteFilePtr> files;
  std::vector<uint32_t> ordinals;
  mutable std::atomic<bool> counted{false};
};

DeleteFileIndex::DeleteFileIndex() = default;
DeleteFileIndex::~DeleteFileIndex() = default;

void DeleteFileIndex::add(DeleteFilePtr d, bool unpartitioned_spec) {
  Entry e;
  e.seq = d->data_sequence_number;
  e.ordinal = static_cast<uint32_t>(entries_.size());
  e.file = std::move(d);
  const DataFile& f = e.file->file;
  entries_.push_back(e);
  if (f.content == FileContent::kPositionDeletes) {
    // Path-scoped: a DV, referenced_data_file, or equal file_path bounds (Java's single-target
    // rule).
    const std::string* target = nullptr;
    if (f.referenced_data_file) {
      target = &*f.referenced_data_file;
    } else {
      const std::string* lo = find_metric(f.lower_bounds, kDeleteFilePathId);
      const std::string* hi = find_metric(f.upper_bounds, kDeleteFilePathId);
      if (lo && hi && *lo == *hi) target = lo;
    }
    if (target) {
      PathEntry pe;
      pe.path = normalized_path_view(*target);  // into the delete file, which `entry` keeps
      pe.hash = hash_path(pe.path);
      pe.dv = is_deletion_vector(f);
      pe.entry = std::move(e);
      by_path_.push_back(std::move(pe));
      return;
    }
    auto& p = positions_by_partition_[partition_key(f.spec_id, f.partition)];
    p.entries.push_back(std::move(e));
    return;
  }
  if (unpartitioned_spec) {
    global_equality_.entries.push_back(std::move(e));
  } else {
    equality_by_partition_[partition_key(f.spec_id, f.partition)].entries.push_back(std::move(e));
  }
}

void DeleteFileIndex::finish() {
  auto prepare = [](Partitioned& p) {
    std::stable_sort(p.entries.begin(), p.entries.end(),
                     [](const Entry& a, const Entry& b) { return a.seq < b.seq; });
    p.suffixes.assign(p.entries.size(), nullptr);
    p.mu = std::make_unique<std::mutex>();
  };
  for (auto* m : {&positions_by_partition_, &equality_by_partition_}) {
    for (auto& [_, p] : *m) prepare(p);
  }
  prepare(global_equality_);
  matched_ = std::make_unique<std::atomic<uint8_t>[]>(entries_.size());
  for (size_t i = 0; i < entries_.size(); ++i) matched_[i].store(0, std::memory_order_relaxed);

  // Open addressing at load <= 1/2; several deletes for one path chain through `next`.
  size_t capacity = 16;
  while (capacity < by_path_.size() * 2) capacity *= 2;
  slots_.assign(by_path_.empty() ? 0 : capacity, 0);
  const size_t mask = capacity - 1;
  for (size_t i = 0; i < by_path_.size(); ++i) {
    PathEntry& pe = by_path_[i];
    size_t s = pe.hash & mask;
    while (true) {
      uint32_t at = slots_[s];
      if (at == 0) {
        slots_[s] = static_cast<uint32_t>(i + 1);
        break;
      }
      const PathEntry& other = by_path_[at - 1];
      if (other.hash == pe.hash && other.path == pe.path) {
        pe.next = at;  // the newest added heads the chain
        slots_[s] = static_cast<uint32_t>(i + 1);
        break;
      }
      s = (s + 1) & mask;
    }
  }
}

int64_t DeleteFileIndex::matched_files() const {
  int64_t n = 0;
  for (size_t i = 0; i < entries_.size(); ++i) n += matched_[i].load(std::memory_order_relaxed);
  return n;
}

void DeleteFileIndex::mark(const List& list) const {
  if (list.counted.load(std::memory_order_relaxed)) return;
  if (list.counted.exchange(true)) return;
  for (uint32_t o : list.ordinals) mark(o);
}

std::shared_ptr<DeleteFileIndex::List> DeleteFileIndex::suffix(const Partitioned& p, int64_t seq,
                                                               bool strict) const {
  auto it = strict ? std::upper_bound(p.entries.begin(), p.entries.end(), seq,
                                      [](int64_t s, const Entry& e) { return s < e.seq; })
                   : std::lower_bound(p.entries.begin(), p.entries.end(), seq,
                                      [](const Entry& e, int64_t s) { return e.seq < s; });
  if (it == p.entries.end()) return nullptr;
  size_t start = static_cast<size_t>(it - p.entries.begin());
  std::lock_guard lock(*p.mu);
  auto& slot = p.suffixes[start];
  if (!slot) {
    slot = std::make_shared<List>();
    for (auto e = it; e != p.entries.end(); ++e) {
      slot->files.push_back(e->file);
      slot->ordinals.push_back(e->ordinal);
    }
  }
  return slot;
}

namespace {

std::shared_ptr<DeleteFileIndex::List> concat(
    std::initializer_list<const std::shared_ptr<DeleteFileIndex::List>*> parts) {
  const std::shared_ptr<DeleteFileIndex::List>* only = nullptr;
  int non_empty = 0;
  for (const auto* p : parts) {
    if (*p) {
      ++non_empty;
      only = p;
    }
  }
  if (non_empty == 0) return nullptr;
  if (non_empty == 1) return *only;
  auto out = std::make_shared<DeleteFileIndex::List>();
  for (const auto* p : parts) {
    if (!*p) continue;
    out->files.insert(out->files.end(), (*p)->files.begin(), (*p)->files.end());
    out->ordinals.insert(out->ordinals.end(), (*p)->ordinals.begin(), (*p)->ordinals.end());
  }
  return out;
}

}  // namespace

DeleteFileList DeleteFileIndex::for_data_file(const DataFile& file, int64_t data_seq,
                                              LookupCache* cache) const {
  if (entries_.empty()) return {};

  // Path-scoped deletes: the newest live DV, else every live file-scoped position file (almost
  // always at most one: no allocation unless there are several).
  const Entry* dv = nullptr;
  const Entry* one_scoped = nullptr;
  std::vector<const Entry*> scoped;
  if (!slots_.empty()) {
    std::string_view path = normalized_path_view(file.file_path);
    uint64_t h = hash_path(path);
    const size_t mask = slots_.size() - 1;
    for (size_t s = h & mask; slots_[s] != 0; s = (s + 1) & mask) {
      const PathEntry* pe = &by_path_[slots_[s] - 1];
      if (pe->hash != h || pe->path != path) continue;
      for (; pe; pe = pe->next ? &by_path_[pe->next - 1] : nullptr) {
        if (pe->entry.seq < data_seq) continue;
        if (pe->dv) {
          if (!dv || pe->entry.seq > dv->seq) dv = &pe->entry;
        } else if (!one_scoped) {
          one_scoped = &pe->entry;
        } else {
          if (scoped.empty()) scoped.push_back(one_scoped);
          scoped.push_back(&pe->entry);
        }
      }
      break;
    }
  }
  if (dv) {  // a deletion vector replaces every position-delete file
    one_scoped = nullptr;
    scoped.clear();
  }
  std::stable_sort(scoped.begin(), scoped.end(),
                   [](const Entry* a, const Entry* b) { return a->seq < b->seq; });

  // Partition-scoped and global deletes, memoized per (spec, partition, sequence number).
  std::shared_ptr<List> partitioned;
  if (!positions_by_partition_.empty() || !equality_by_partition_.empty() ||
      !global_equality_.entries.empty()) {
    LookupCache local;
    if (!cache) cache = &local;
    if (!cache->valid || cache->spec_id != file.spec_id || cache->seq != data_seq ||
        cache->partition != file.partition) {
      std::shared_ptr<List> positions, equality;
      std::string key;
      if (!positions_by_partition_.empty() || !equality_by_partition_.empty()) {
        key = partition_key(file.spec_id, file.partition);
      }
      if (auto it = positions_by_partition_.find(key); it != positions_by_partition_.end()) {
        positions = suffix(it->second, data_seq, false);
      }
      if (auto it = equality_by_partition_.find(key); it != equality_by_partition_.end()) {
        equality = suffix(it->second, data_seq, true);
      }
      std::shared_ptr<List> global = suffix(global_equality_, data_seq, true);
      cache->valid = true;
      cache->spec_id = file.spec_id;
      cache->partition = file.partition;
      cache->seq = data_seq;
      cache->all = concat({&positions, &equality, &global});
      cache->without_positions = positions ? concat({&equality, &global}) : cache->all;
    }
    partitioned = dv ? cache->without_positions : cache->all;
  }

  if (!dv && !one_scoped) {
    if (!partitioned) return {};
    mark(*partitioned);
    return DeleteFileList(
        std::shared_ptr<const std::vector<DeleteFilePtr>>(partitioned, &partitioned->files));
  }
  if (dv && !partitioned) {
    mark(dv->ordinal);
    return DeleteFileList(dv->file);
  }
  if (!dv && scoped.empty() && !partitioned) {
    mark(one_scoped->ordinal);
    return DeleteFileList(one_scoped->file);
  }
  std::vector<DeleteFilePtr> out;
  if (scoped.empty()) scoped.push_back(dv ? dv : one_scoped);
  for (const Entry* e : scoped) {
    mark(e->ordinal);
    out.push_back(e->file);
  }
  if (partitioned) {
    mark(*partitioned);
    out.insert(out.end(), partitioned->files.begin(), partitioned->files.end());
  }
  return DeleteFileList(std::move(out));
}

}  // namespace floe
