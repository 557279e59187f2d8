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

uint32_t path_hash(std::string_view p) {
  return static_cast<uint32_t>(std::hash<std::string_view>{}(p));
}

std::string normalize_file_path(std::string_view p) { return std::string(normalized_path_view(p)); }

void copy_file_without_stats(const DataFile& from, DataFile* to) {
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
}

namespace {

constexpr size_t kStringBlock = 256 * 1024;

// The usual spellings of file formats, so that they take no bytes per delete file.
std::string_view interned_format(std::string_view f) {
  static constexpr std::string_view kKnown[] = {"PARQUET", "parquet", "puffin", "PUFFIN",
                                                "AVRO",    "avro",    "ORC",    "orc"};
  for (std::string_view k : kKnown) {
    if (f == k) return k;
  }
  return {};
}

// Java's single-target rule: a position-delete file whose file_path bounds are equal deletes
// rows of that one file.
const std::string* bounds_target(const DataFile& f) {
  const std::string* lo = find_metric(f.lower_bounds, kDeleteFilePathId);
  const std::string* hi = find_metric(f.upper_bounds, kDeleteFilePathId);
  return lo && hi && *lo == *hi ? lo : nullptr;
}

bool is_deletion_vector(const DeleteFile& f) {
  return (f.content_offset || f.file_format == "puffin" || f.file_format == "PUFFIN") &&
         !f.referenced_data_file.empty();
}

}  // namespace

char* DeleteFileStrings::allocate(size_t bytes, size_t align) {
  size_t pad = (align - reinterpret_cast<uintptr_t>(at_) % align) % align;
  if (at_ == nullptr || pad + bytes > left_) {
    size_t size = std::max(kStringBlock, bytes + align);
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(size));
    at_ = blocks_.back().get();
    left_ = size;
    pad = (align - reinterpret_cast<uintptr_t>(at_) % align) % align;
  }
  char* out = at_ + pad;
  at_ += pad + bytes;
  left_ -= pad + bytes;
  return out;
}

std::string_view DeleteFileStrings::copy(std::string_view s) {
  if (s.empty()) return {};
  char* out = allocate(s.size(), 1);
  std::memcpy(out, s.data(), s.size());
  return {out, s.size()};
}

template <typename T>
std::span<const T> DeleteFileStrings::copy_array(const std::vector<T>& v) {
  if (v.empty()) return {};
  T* out = reinterpret_cast<T*>(allocate(v.size() * sizeof(T), alignof(T)));
  std::memcpy(out, v.data(), v.size() * sizeof(T));
  return {out, v.size()};
}

std::span<const Literal> DeleteFileStrings::partition(const std::vector<Literal>& values) {
  if (values.empty()) return {};
  if (partitions_.empty() || partitions_.back() != values) partitions_.push_back(values);
  return partitions_.back();
}

const DataFile* DeleteFileStrings::metrics(const DataFile& from) {
  DataFile& m = metrics_.emplace_back();
  m.column_sizes = from.column_sizes;
  m.value_counts = from.value_counts;
  m.null_value_counts = from.null_value_counts;
  m.nan_value_counts = from.nan_value_counts;
  m.lower_bounds = from.lower_bounds;
  m.upper_bounds = from.upper_bounds;
  return &m;
}

DeleteFileBuilder::DeleteFileBuilder(size_t expected)
    : strings_(std::make_shared<DeleteFileStrings>()) {
  chunks_.reserve(expected / DeleteFileChunk::kSize + 1);
}

const DeleteFile& DeleteFileBuilder::add(const DataFile& f, int64_t data_sequence_number,
                                         int64_t file_sequence_number, bool keep_metrics) {
  if (current_ == nullptr || current_->files.size() == DeleteFileChunk::kSize) {
    auto chunk = std::make_shared<DeleteFileChunk>();
    chunk->strings = strings_;
    chunk->files.reserve(DeleteFileChunk::kSize);
    current_ = chunk.get();
    chunks_.push_back(std::move(chunk));
  }
  DeleteFileStrings& s = *strings_;
  DeleteFile& d = current_->files.emplace_back();
  d.content = f.content;
  d.spec_id = f.spec_id;
  // The DVs of one Puffin file follow each other in a manifest: share their path.
  if (f.file_path != last_path_) last_path_ = s.copy(f.file_path);
  d.file_path = last_path_;
  d.file_format = interned_format(f.file_format);
  if (d.file_format.empty()) d.file_format = s.copy(f.file_format);
  if (f.referenced_data_file) d.referenced_data_file = s.copy(*f.referenced_data_file);
  if (f.content == FileContent::kPositionDeletes) {
    if (!d.referenced_data_file.empty()) {
      d.scoped_data_file = d.referenced_data_file;
    } else if (const std::string* target = bounds_target(f)) {
      d.scoped_data_file = s.copy(*target);
    }
  }
  if (f.key_metadata) d.key_metadata = s.copy(*f.key_metadata);
  d.partition = s.partition(f.partition);
  if (f.equality_ids) d.equality_ids = s.copy_array(*f.equality_ids);
  if (f.split_offsets) d.split_offsets = s.copy_array(*f.split_offsets);
  d.record_count = f.record_count;
  d.file_size_in_bytes = f.file_size_in_bytes;
  d.content_offset = f.content_offset;
  d.content_size_in_bytes = f.content_size_in_bytes;
  d.sort_order_id = f.sort_order_id;
  d.data_sequence_number = data_sequence_number;
  d.file_sequence_number = file_sequence_number;
  if (keep_metrics) d.metrics = s.metrics(f);
  return d;
}

std::vector<std::shared_ptr<const DeleteFileChunk>> DeleteFileBuilder::finish() {
  current_ = nullptr;
  last_path_ = {};
  return std::move(chunks_);
}

DataFile DeleteFile::to_data_file() const {
  DataFile f;
  if (metrics) {
    f.column_sizes = metrics->column_sizes;
    f.value_counts = metrics->value_counts;
    f.null_value_counts = metrics->null_value_counts;
    f.nan_value_counts = metrics->nan_value_counts;
    f.lower_bounds = metrics->lower_bounds;
    f.upper_bounds = metrics->upper_bounds;
  } else if (!scoped_data_file.empty() && referenced_data_file.empty()) {
    // The bounds the scope came from.
    f.lower_bounds.push_back({kDeleteFilePathId, std::string(scoped_data_file)});
    f.upper_bounds.push_back({kDeleteFilePathId, std::string(scoped_data_file)});
  }
  f.content = content;
  f.file_path = file_path;
  f.file_format = file_format;
  f.partition.assign(partition.begin(), partition.end());
  f.record_count = record_count;
  f.file_size_in_bytes = file_size_in_bytes;
  if (!key_metadata.empty()) f.key_metadata = std::string(key_metadata);
  if (!split_offsets.empty()) f.split_offsets.emplace(split_offsets.begin(), split_offsets.end());
  if (!equality_ids.empty()) f.equality_ids.emplace(equality_ids.begin(), equality_ids.end());
  f.sort_order_id = sort_order_id;
  if (!referenced_data_file.empty()) f.referenced_data_file = std::string(referenced_data_file);
  f.content_offset = content_offset;
  f.content_size_in_bytes = content_size_in_bytes;
  f.spec_id = spec_id;
  return f;
}

DeleteFilePtr DeleteFile::make(const DataFile& file, int64_t data_sequence_number,
                               int64_t file_sequence_number, bool keep_metrics) {
  DeleteFileBuilder builder(1);
  const DeleteFile& d =
      builder.add(file, data_sequence_number, file_sequence_number, keep_metrics);
  return DeleteFilePtr(builder.finish().front(), &d);
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
    DeleteFileBuilder builder(static_cast<size_t>(std::max(0, m.added_files_count.value_or(0)) +
                                                  std::max(0, m.existing_files_count.value_or(0))));
    int64_t total = 0, skipped = 0;
    FLOE_TRY(reader->for_each([&](const ManifestEntry& e) {
      if (!e.is_live() || e.data_file.content == FileContent::kData) return true;
      ++total;
      if (keep && !keep(m, e.data_file)) {
        ++skipped;
        return true;
      }
      builder.add(e.data_file, e.sequence_number.value_or(0), e.file_sequence_number.value_or(0),
                  keep_stats);
      return true;
    }));
    auto part = DeleteFileIndex::prepare(builder.finish(), manifests[i].unpartitioned);
    std::lock_guard lock(mu);
    if (total_files) *total_files += total;
    if (skipped_files) *skipped_files += skipped;
    index->add(std::move(part));
    return Status::OK();
  }));
  index->finish();
  return Status::OK();
}

// A list shared by many data files, with its files' refs for matched_files().
struct DeleteFileIndex::List {
  std::vector<DeleteFilePtr> files;
  std::vector<Ref> refs;
  mutable std::atomic<bool> counted{false};
};

DeleteFileIndex::DeleteFileIndex() = default;
DeleteFileIndex::~DeleteFileIndex() = default;

namespace {

std::unique_ptr<DeleteFileIndex::Block> make_block(std::shared_ptr<const void> storage,
                                                   const DeleteFile* files, size_t count) {
  auto b = std::make_unique<DeleteFileIndex::Block>();
  b->storage = std::move(storage);
  b->files = files;
  b->count = count;
  b->matched = std::make_unique<std::atomic<uint8_t>[]>(count);
  for (size_t i = 0; i < count; ++i) b->matched[i].store(0, std::memory_order_relaxed);
  return b;
}

// Files into the part's path table or partition lists.
void classify(const DeleteFileIndex::Block& block, bool unpartitioned_spec,
              DeleteFileIndex::Part* part) {
  for (size_t i = 0; i < block.count; ++i) {
    const DeleteFile& f = block.files[i];
    DeleteFileIndex::Entry e;
    e.ref = {&f, &block};
    e.seq = f.data_sequence_number;
    if (f.content == FileContent::kPositionDeletes) {
      if (!f.scoped_data_file.empty()) {
        DeleteFileIndex::PathEntry pe;
        std::string_view path = normalized_path_view(f.scoped_data_file);
        pe.path = path.data();
        pe.length = static_cast<uint32_t>(path.size());
        pe.hash = path_hash(path);
        pe.ref = e.ref;
        pe.dv = is_deletion_vector(f);
        part->by_path.push_back(pe);
      } else {
        part->positions.emplace_back(partition_key(f.spec_id, {f.partition.begin(),
                                                               f.partition.end()}),
                                     e);
      }
    } else if (unpartitioned_spec) {
      part->global_equality.push_back(e);
    } else {
      part->equality.emplace_back(
          partition_key(f.spec_id, {f.partition.begin(), f.partition.end()}), e);
    }
  }
  part->files += block.count;
}

}  // namespace

std::unique_ptr<DeleteFileIndex::Part> DeleteFileIndex::prepare(
    std::vector<std::shared_ptr<const DeleteFileChunk>> chunks, bool unpartitioned_spec) {
  auto part = std::make_unique<Part>();
  size_t n = 0;
  for (const auto& c : chunks) n += c->files.size();
  part->by_path.reserve(n);
  for (auto& c : chunks) {
    const DeleteFile* files = c->files.data();
    size_t count = c->files.size();
    part->blocks.push_back(make_block(std::move(c), files, count));
    classify(*part->blocks.back(), unpartitioned_spec, part.get());
  }
  if (part->by_path.size() < n / 2) part->by_path.shrink_to_fit();
  return part;
}

void DeleteFileIndex::add(std::unique_ptr<Part> part) {
  size_ += part->files;
  path_entries_ += part->by_path.size();
  for (auto& [key, e] : part->positions) positions_by_partition_[key].entries.push_back(e);
  for (auto& [key, e] : part->equality) equality_by_partition_[key].entries.push_back(e);
  for (auto& e : part->global_equality) global_equality_.entries.push_back(e);
  part->positions.clear();
  part->equality.clear();
  part->global_equality.clear();
  parts_.push_back(std::move(part));
}

void DeleteFileIndex::add(DeleteFilePtr file, bool unpartitioned_spec) {
  auto part = std::make_unique<Part>();
  const DeleteFile* f = file.get();
  part->blocks.push_back(make_block(std::move(file), f, 1));
  classify(*part->blocks.back(), unpartitioned_spec, part.get());
  add(std::move(part));
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

  // Open addressing at load <= 1/2, sized once; several deletes for one path chain through
  // `next`, the last added first. Slots are prefetched a few entries ahead: the table is far
  // larger than the caches.
  if (path_entries_ == 0) return;
  size_t capacity = 16;
  while (capacity < path_entries_ * 2) capacity *= 2;
  slots_.assign(capacity, nullptr);
  const size_t mask = capacity - 1;
  constexpr size_t kAhead = 8;
  for (auto& part : parts_) {
    auto& entries = part->by_path;
    for (size_t i = 0; i < entries.size(); ++i) {
      if (i + kAhead < entries.size()) __builtin_prefetch(&slots_[entries[i + kAhead].hash & mask], 1);
      PathEntry& pe = entries[i];
      size_t s = pe.hash & mask;
      while (true) {
        const PathEntry* at = slots_[s];
        if (at == nullptr) {
          slots_[s] = &pe;
          break;
        }
        if (at->hash == pe.hash && at->view() == pe.view()) {
          pe.next = at;
          slots_[s] = &pe;
          break;
        }
        s = (s + 1) & mask;
      }
    }
  }
}

int64_t DeleteFileIndex::matched_files() const {
  int64_t n = 0;
  for (const auto& part : parts_) {
    for (const auto& b : part->blocks) {
      for (size_t i = 0; i < b->count; ++i) n += b->matched[i].load(std::memory_order_relaxed);
    }
  }
  return n;
}

void DeleteFileIndex::mark(const List& list) const {
  if (list.counted.load(std::memory_order_relaxed)) return;
  if (list.counted.exchange(true)) return;
  for (const Ref& r : list.refs) r.mark();
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
      slot->files.push_back(e->ref.ptr());
      slot->refs.push_back(e->ref);
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
    out->refs.insert(out->refs.end(), (*p)->refs.begin(), (*p)->refs.end());
  }
  return out;
}

}  // namespace

DeleteFileList DeleteFileIndex::for_data_file(const DataFile& file, int64_t data_seq,
                                              LookupCache* cache) const {
  if (size_ == 0) return {};

  // Path-scoped deletes: the newest live DV, else every live file-scoped position file (almost
  // always at most one: no allocation unless there are several).
  const PathEntry* dv_entry = nullptr;
  const PathEntry* one_scoped = nullptr;
  std::vector<const PathEntry*> scoped;
  if (!slots_.empty()) {
    std::string_view path = normalized_path_view(file.file_path);
    uint32_t h = path_hash(path);
    const size_t mask = slots_.size() - 1;
    for (size_t s = h & mask; slots_[s] != nullptr; s = (s + 1) & mask) {
      const PathEntry* pe = slots_[s];
      if (pe->hash != h || pe->view() != path) continue;
      for (; pe; pe = pe->next) {
        if (pe->ref.file->data_sequence_number < data_seq) continue;
        if (pe->dv) {
          if (!dv_entry ||
              pe->ref.file->data_sequence_number > dv_entry->ref.file->data_sequence_number) {
            dv_entry = pe;
          }
        } else if (!one_scoped) {
          one_scoped = pe;
        } else {
          if (scoped.empty()) scoped.push_back(one_scoped);
          scoped.push_back(pe);
        }
      }
      break;
    }
  }
  if (dv_entry) {  // a deletion vector replaces every position-delete file
    one_scoped = nullptr;
    scoped.clear();
  }
  std::stable_sort(scoped.begin(), scoped.end(), [](const PathEntry* a, const PathEntry* b) {
    return a->ref.file->data_sequence_number < b->ref.file->data_sequence_number;
  });

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
    partitioned = dv_entry ? cache->without_positions : cache->all;
  }

  if (!dv_entry && !one_scoped) {
    if (!partitioned) return {};
    mark(*partitioned);
    return DeleteFileList(
        std::shared_ptr<const std::vector<DeleteFilePtr>>(partitioned, &partitioned->files));
  }
  if (dv_entry && !partitioned) {
    dv_entry->ref.mark();
    return DeleteFileList(dv_entry->ref.ptr());
  }
  if (!dv_entry && scoped.empty() && !partitioned) {
    one_scoped->ref.mark();
    return DeleteFileList(one_scoped->ref.ptr());
  }
  std::vector<DeleteFilePtr> out;
  if (scoped.empty()) scoped.push_back(dv_entry ? dv_entry : one_scoped);
  for (const PathEntry* e : scoped) {
    e->ref.mark();
    out.push_back(e->ref.ptr());
  }
  if (partitioned) {
    mark(*partitioned);
    out.insert(out.end(), partitioned->files.begin(), partitioned->files.end());
  }
  return DeleteFileList(std::move(out));
}

}  // namespace floe
