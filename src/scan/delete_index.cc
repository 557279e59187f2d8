#include "floe/scan/delete_index.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <new>

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

// The usual spellings of file formats, so that they take no bytes per delete file (index 0:
// another spelling, kept in the extras).
constexpr std::string_view kFormats[] = {"",     "PARQUET", "parquet", "puffin", "PUFFIN",
                                         "AVRO", "avro",    "ORC",     "orc"};

uint8_t format_code(std::string_view f) {
  for (uint8_t i = 1; i < std::size(kFormats); ++i) {
    if (f == kFormats[i]) return i;
  }
  return 0;
}

// Java's single-target rule: a position-delete file whose file_path bounds are equal deletes
// rows of that one file.
const std::string* bounds_target(const DataFile& f) {
  const std::string* lo = find_metric(f.lower_bounds, kDeleteFilePathId);
  const std::string* hi = find_metric(f.upper_bounds, kDeleteFilePathId);
  return lo && hi && *lo == *hi ? lo : nullptr;
}

bool is_deletion_vector(const DeleteFile& f) {
  std::string_view format = f.file_format();
  return (f.content_offset() || format == "puffin" || format == "PUFFIN") &&
         !f.referenced_data_file().empty();
}

}  // namespace

std::span<DeleteFile> DeleteFileStrings::records(size_t n) {
  auto* out =
      reinterpret_cast<DeleteFile*>(arena_.allocate(n * sizeof(DeleteFile), alignof(DeleteFile)));
  static_assert(std::is_trivially_destructible_v<DeleteFile>);
  return {out, n};
}

std::string_view DeleteFileStrings::copy(std::string_view s) { return arena_.copy(s); }

std::span<const Literal> DeleteFileStrings::partition(const std::vector<Literal>& values) {
  if (values.empty()) return {};
  if (partitions_.empty() || partitions_.back() != values) partitions_.push_back(values);
  return partitions_.back();
}

const DataFile* DeleteFileStrings::details(const DataFile& from) {
  DataFile& m = details_.emplace_back();
  m.column_sizes = from.column_sizes;
  m.value_counts = from.value_counts;
  m.null_value_counts = from.null_value_counts;
  m.nan_value_counts = from.nan_value_counts;
  m.lower_bounds = from.lower_bounds;
  m.upper_bounds = from.upper_bounds;
  m.split_offsets = from.split_offsets;
  return &m;
}

std::string_view DeleteFile::file_format() const {
  return format_ != 0 ? kFormats[format_] : extras_ ? extras_->file_format : std::string_view();
}
std::span<const int32_t> DeleteFile::equality_ids() const {
  return extras_ ? extras_->equality_ids : std::span<const int32_t>();
}
std::string_view DeleteFile::key_metadata() const {
  return extras_ ? extras_->key_metadata : std::string_view();
}
std::optional<int32_t> DeleteFile::sort_order_id() const {
  return extras_ ? extras_->sort_order_id : std::nullopt;
}
const DataFile* DeleteFile::details() const { return extras_ ? extras_->details : nullptr; }

DeleteFileBuilder::DeleteFileBuilder(size_t expected)
    : strings_(std::make_shared<DeleteFileStrings>()), expected_(expected) {
  chunks_.reserve(expected / DeleteFileChunk::kSize + 1);
}

const DeleteFile& DeleteFileBuilder::add(const DataFile& f, int64_t data_sequence_number,
                                         int64_t file_sequence_number, bool keep_details) {
  DeleteFileStrings& s = *strings_;
  if (current_ == nullptr || current_->files.size() == current_->capacity) {
    // Sized by the manifest's file counts when known.
    size_t left = expected_ > added_ ? expected_ - added_ : 16;
    auto chunk = std::make_shared<DeleteFileChunk>();
    chunk->strings = strings_;
    chunk->capacity = std::clamp<size_t>(left, 16, DeleteFileChunk::kSize);
    chunk->files = s.records(chunk->capacity).first(0);
    current_ = chunk.get();
    chunks_.push_back(std::move(chunk));
  }
  ++added_;
  current_->files = {current_->files.data(), current_->files.size() + 1};
  DeleteFile& d = *new (&current_->files.back()) DeleteFile();
  d.content_ = static_cast<uint8_t>(f.content);
  d.spec_id_ = f.spec_id;
  // The DVs of one Puffin file follow each other in a manifest: share their path.
  if (f.file_path != last_path_) last_path_ = s.copy(f.file_path);
  d.path_ = last_path_.data();
  d.path_length_ = static_cast<uint32_t>(last_path_.size());
  std::string_view target;
  if (f.referenced_data_file) {
    target = s.copy(*f.referenced_data_file);
    d.flags_ |= DeleteFile::kTargetIsReference;
  } else if (f.content == FileContent::kPositionDeletes) {
    if (const std::string* bounds = bounds_target(f)) target = s.copy(*bounds);
  }
  d.target_ = target.data();
  d.target_length_ = static_cast<uint32_t>(target.size());
  auto partition = s.partition(f.partition);
  d.partition_ = partition.data();
  d.partition_size_ = static_cast<uint16_t>(partition.size());
  d.record_count_ = f.record_count;
  d.file_size_in_bytes_ = f.file_size_in_bytes;
  if (f.content_offset) {
    d.content_offset_ = *f.content_offset;
    d.flags_ |= DeleteFile::kHasOffset;
  }
  if (f.content_size_in_bytes) {
    d.content_size_ = *f.content_size_in_bytes;
    d.flags_ |= DeleteFile::kHasSize;
  }
  d.data_sequence_number_ = data_sequence_number;
  d.file_sequence_number_ = file_sequence_number;
  d.format_ = format_code(f.file_format) & 0xF;
  bool details =
      keep_details && (!f.column_sizes.empty() || !f.value_counts.empty() ||
                       !f.null_value_counts.empty() || !f.nan_value_counts.empty() ||
                       !f.lower_bounds.empty() || !f.upper_bounds.empty() || f.split_offsets);
  if (d.format_ == 0 || f.key_metadata || f.equality_ids || f.sort_order_id || details) {
    DeleteFile::Extras* x = s.extras();
    if (d.format_ == 0) x->file_format = s.copy(f.file_format);
    if (f.key_metadata) x->key_metadata = s.copy(*f.key_metadata);
    if (f.equality_ids) x->equality_ids = s.copy_array(*f.equality_ids);
    x->sort_order_id = f.sort_order_id;
    if (details) x->details = s.details(f);
    d.extras_ = x;
  }
  return d;
}

std::vector<std::shared_ptr<const DeleteFileChunk>> DeleteFileBuilder::finish() {
  current_ = nullptr;
  last_path_ = {};
  return std::move(chunks_);
}

DataFile DeleteFile::to_data_file() const {
  DataFile f;
  if (const DataFile* d = details()) {
    f.column_sizes = d->column_sizes;
    f.value_counts = d->value_counts;
    f.null_value_counts = d->null_value_counts;
    f.nan_value_counts = d->nan_value_counts;
    f.lower_bounds = d->lower_bounds;
    f.upper_bounds = d->upper_bounds;
    f.split_offsets = d->split_offsets;
  } else if (target_length_ > 0 && !(flags_ & kTargetIsReference)) {
    // The bounds the scope came from.
    f.lower_bounds.push_back({kDeleteFilePathId, std::string(target())});
    f.upper_bounds.push_back({kDeleteFilePathId, std::string(target())});
  }
  f.content = content();
  f.file_path = file_path();
  f.file_format = file_format();
  f.partition.assign(partition().begin(), partition().end());
  f.record_count = record_count_;
  f.file_size_in_bytes = file_size_in_bytes_;
  if (!key_metadata().empty()) f.key_metadata = std::string(key_metadata());
  auto ids = equality_ids();
  if (!ids.empty()) f.equality_ids.emplace(ids.begin(), ids.end());
  f.sort_order_id = sort_order_id();
  if (flags_ & kTargetIsReference) f.referenced_data_file = std::string(target());
  f.content_offset = content_offset();
  f.content_size_in_bytes = content_size_in_bytes();
  f.spec_id = spec_id_;
  return f;
}

DeleteFilePtr DeleteFile::make(const DataFile& file, int64_t data_sequence_number,
                               int64_t file_sequence_number, bool keep_details) {
  DeleteFileBuilder builder(1);
  const DeleteFile& d = builder.add(file, data_sequence_number, file_sequence_number, keep_details);
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

// A list shared by many data files, with its files' ids for matched_files().
struct DeleteFileIndex::List {
  std::vector<DeleteFilePtr> files;
  std::vector<uint32_t> ids;
  mutable std::atomic<bool> counted{false};
};

DeleteFileIndex::DeleteFileIndex() = default;
DeleteFileIndex::~DeleteFileIndex() = default;

std::unique_ptr<DeleteFileIndex::Part> DeleteFileIndex::prepare(
    std::vector<std::shared_ptr<const DeleteFileChunk>> chunks, bool unpartitioned_spec) {
  auto part = std::make_unique<Part>();
  size_t n = 0;
  for (const auto& c : chunks) n += c->files.size();
  part->files = n;
  for (uint32_t c = 0; c < chunks.size(); ++c) {
    const auto& files = chunks[c]->files;
    for (uint32_t i = 0; i < files.size(); ++i) {
      const DeleteFile& f = files[i];
      Entry e{c << DeleteFileChunk::kShift | i, f.data_sequence_number()};
      if (f.content() == FileContent::kPositionDeletes) {
        std::string_view target = f.scoped_data_file();
        if (!target.empty()) {
          if (part->by_path.empty()) part->by_path.reserve(n);
          part->by_path.emplace_back(path_hash(normalized_path_view(target)), e.id);
        } else {
          auto p = f.partition();
          part->positions.emplace_back(partition_key(f.spec_id(), {p.begin(), p.end()}), e);
        }
      } else if (unpartitioned_spec) {
        part->global_equality.push_back(e);
      } else {
        auto p = f.partition();
        part->equality.emplace_back(partition_key(f.spec_id(), {p.begin(), p.end()}), e);
      }
    }
  }
  part->chunks = std::move(chunks);
  return part;
}

void DeleteFileIndex::add(std::unique_ptr<Part> part) {
  const uint32_t base = static_cast<uint32_t>(chunks_.size());
  part->first_chunk = base;
  for (auto& c : part->chunks) {
    Chunk chunk;
    chunk.matched = std::make_unique<std::atomic<uint8_t>[]>(c->files.size());
    for (size_t i = 0; i < c->files.size(); ++i) {
      chunk.matched[i].store(0, std::memory_order_relaxed);
    }
    chunk.storage = std::move(c);
    chunks_.push_back(std::move(chunk));
  }
  part->chunks.clear();
  const uint32_t offset = base << DeleteFileChunk::kShift;
  size_ += part->files;
  path_entries_ += part->by_path.size();
  for (auto& [key, e] : part->positions) {
    positions_by_partition_[key].entries.push_back({e.id + offset, e.seq});
  }
  for (auto& [key, e] : part->equality) {
    equality_by_partition_[key].entries.push_back({e.id + offset, e.seq});
  }
  for (auto& e : part->global_equality) global_equality_.entries.push_back({e.id + offset, e.seq});
  part->positions.clear();
  part->equality.clear();
  part->global_equality.clear();
  if (!part->by_path.empty()) parts_.push_back(std::move(part));
}

void DeleteFileIndex::add(DeleteFilePtr file, bool unpartitioned_spec) {
  // As a chunk of one that shares the file's ownership.
  auto chunk = std::make_shared<DeleteFileChunk>();
  chunk->strings = std::make_shared<DeleteFileStrings>();
  chunk->files = chunk->strings->records(1);
  chunk->capacity = 1;
  new (chunk->files.data()) DeleteFile(*file);
  chunk->owner = std::move(file);
  add(prepare({std::move(chunk)}, unpartitioned_spec));
}

void DeleteFileIndex::insert(uint32_t hash, uint32_t id) {
  const size_t mask = slots_.size() - 1;
  std::string_view path = normalized_path_view(file(id).scoped_data_file());
  for (size_t s = hash & mask;; s = (s + 1) & mask) {
    uint64_t at = slots_[s];
    if (at == kEmpty) {
      slots_[s] = uint64_t{hash} << 32 | id;
      return;
    }
    uint32_t other = static_cast<uint32_t>(at) & ~kChained;
    if (static_cast<uint32_t>(at >> 32) == hash &&
        normalized_path_view(file(other).scoped_data_file()) == path) {
      // Several deletes for one path: the last added heads a chain through next_.
      next_[id] = static_cast<uint32_t>(at);
      slots_[s] = uint64_t{hash} << 32 | id | kChained;
      return;
    }
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

  // Open addressing at load <= 2/3, sized once. Slots are prefetched a few entries ahead: the
  // table is far larger than the caches.
  if (path_entries_ == 0) return;
  size_t capacity = 16;
  while (capacity * 2 < path_entries_ * 3) capacity *= 2;
  slot_memory_ = HugePageBlock(capacity * sizeof(uint64_t));
  slots_ = {reinterpret_cast<uint64_t*>(slot_memory_.data()), capacity};
  std::fill(slots_.begin(), slots_.end(), kEmpty);
  const size_t mask = capacity - 1;
  constexpr size_t kAhead = 8;
  for (auto& part : parts_) {
    const uint32_t offset = part->first_chunk << DeleteFileChunk::kShift;
    const auto& entries = part->by_path;
    for (size_t i = 0; i < entries.size(); ++i) {
      if (i + kAhead < entries.size()) {
        __builtin_prefetch(&slots_[entries[i + kAhead].first & mask], 1);
      }
      insert(entries[i].first, entries[i].second + offset);
    }
  }
  parts_.clear();
}

int64_t DeleteFileIndex::matched_files() const {
  int64_t n = 0;
  for (const Chunk& c : chunks_) {
    for (size_t i = 0; i < c.storage->files.size(); ++i) {
      n += c.matched[i].load(std::memory_order_relaxed);
    }
  }
  return n;
}

void DeleteFileIndex::mark(const List& list) const {
  if (list.counted.load(std::memory_order_relaxed)) return;
  if (list.counted.exchange(true)) return;
  for (uint32_t id : list.ids) mark(id);
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
      slot->files.push_back(ptr(e->id));
      slot->ids.push_back(e->id);
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
    out->ids.insert(out->ids.end(), (*p)->ids.begin(), (*p)->ids.end());
  }
  return out;
}

std::shared_ptr<DeleteFileIndex::List> private_copy(
    const std::shared_ptr<DeleteFileIndex::List>& list) {
  if (!list) return nullptr;
  auto copy = std::make_shared<DeleteFileIndex::List>();
  copy->files = list->files;
  copy->ids = list->ids;
  return copy;
}

}  // namespace

DeleteFileList DeleteFileIndex::for_data_file(const DataFile& data, int64_t data_seq,
                                              LookupCache* cache) const {
  if (size_ == 0) return {};
  std::string_view path;
  uint32_t hash = 0;
  if (!slots_.empty()) {
    path = normalized_path_view(data.file_path);
    hash = path_hash(path);
  }
  return lookup(data, data_seq, cache, path, hash);
}

void DeleteFileIndex::for_data_files(std::span<const DataFile* const> files,
                                     std::span<const int64_t> seqs, std::span<DeleteFileList> out,
                                     LookupCache* cache) const {
  if (size_ == 0) return;
  constexpr size_t kBatch = 32;
  std::string_view paths[kBatch];
  uint32_t hashes[kBatch] = {};
  const size_t mask = slots_.size() - 1;
  for (size_t begin = 0; begin < files.size(); begin += kBatch) {
    size_t n = std::min(kBatch, files.size() - begin);
    if (!slots_.empty()) {
      for (size_t i = 0; i < n; ++i) {
        paths[i] = normalized_path_view(files[begin + i]->file_path);
        hashes[i] = path_hash(paths[i]);
        __builtin_prefetch(&slots_[hashes[i] & mask]);
      }
    }
    for (size_t i = 0; i < n; ++i) {
      out[begin + i] = lookup(*files[begin + i], seqs[begin + i], cache, paths[i], hashes[i]);
    }
  }
}

DeleteFileList DeleteFileIndex::lookup(const DataFile& data, int64_t data_seq, LookupCache* cache,
                                       std::string_view path, uint32_t h) const {
  // Path-scoped deletes: the newest live DV, else every live file-scoped position file (almost
  // always at most one: no allocation unless there are several).
  constexpr uint32_t kNone = ~uint32_t{0};
  uint32_t dv = kNone, one_scoped = kNone;
  std::vector<uint32_t> scoped;
  if (!slots_.empty()) {
    const size_t mask = slots_.size() - 1;
    for (size_t s = h & mask; slots_[s] != kEmpty; s = (s + 1) & mask) {
      uint64_t at = slots_[s];
      if (static_cast<uint32_t>(at >> 32) != h) continue;
      uint32_t id = static_cast<uint32_t>(at);
      if (normalized_path_view(file(id & ~kChained).scoped_data_file()) != path) continue;
      while (true) {
        const uint32_t clean = id & ~kChained;
        const DeleteFile& f = file(clean);
        if (f.data_sequence_number() >= data_seq) {
          if (is_deletion_vector(f)) {
            if (dv == kNone || f.data_sequence_number() > file(dv).data_sequence_number()) {
              dv = clean;
            }
          } else if (one_scoped == kNone) {
            one_scoped = clean;
          } else {
            if (scoped.empty()) scoped.push_back(one_scoped);
            scoped.push_back(clean);
          }
        }
        if (!(id & kChained)) break;
        id = next_.at(clean);
      }
      break;
    }
  }
  if (dv != kNone) {  // a deletion vector replaces every position-delete file
    one_scoped = kNone;
    scoped.clear();
  }
  std::stable_sort(scoped.begin(), scoped.end(), [&](uint32_t a, uint32_t b) {
    return file(a).data_sequence_number() < file(b).data_sequence_number();
  });

  // Partition-scoped and global deletes, memoized per (spec, partition, sequence number).
  // The cache keeps its own copies of the shared lists: every data file of a partition takes a
  // reference to one, and reference counts that two threads bump on one cache line cost more
  // than the whole lookup.
  static const std::shared_ptr<List> kNoList;
  const std::shared_ptr<List>* partitioned = &kNoList;
  LookupCache local;
  if (!positions_by_partition_.empty() || !equality_by_partition_.empty() ||
      !global_equality_.entries.empty()) {
    if (!cache) cache = &local;
    if (!cache->valid || cache->spec_id != data.spec_id || cache->seq != data_seq ||
        cache->partition != data.partition) {
      std::shared_ptr<List> positions, equality;
      std::string key;
      if (!positions_by_partition_.empty() || !equality_by_partition_.empty()) {
        key = partition_key(data.spec_id, data.partition);
      }
      if (auto it = positions_by_partition_.find(key); it != positions_by_partition_.end()) {
        positions = suffix(it->second, data_seq, false);
      }
      if (auto it = equality_by_partition_.find(key); it != equality_by_partition_.end()) {
        equality = suffix(it->second, data_seq, true);
      }
      std::shared_ptr<List> global = suffix(global_equality_, data_seq, true);
      cache->valid = true;
      cache->spec_id = data.spec_id;
      cache->partition = data.partition;
      cache->seq = data_seq;
      cache->all = private_copy(concat({&positions, &equality, &global}));
      cache->without_positions =
          positions ? private_copy(concat({&equality, &global})) : cache->all;
    }
    partitioned = dv != kNone ? &cache->without_positions : &cache->all;
  }

  if (dv == kNone && one_scoped == kNone) {
    if (!*partitioned) return {};
    mark(**partitioned);
    return DeleteFileList(
        std::shared_ptr<const std::vector<DeleteFilePtr>>(*partitioned, &(*partitioned)->files));
  }
  if (dv != kNone && !*partitioned) {
    mark(dv);
    return DeleteFileList(ptr(dv));
  }
  if (dv == kNone && scoped.empty() && !*partitioned) {
    mark(one_scoped);
    return DeleteFileList(ptr(one_scoped));
  }
  std::vector<DeleteFilePtr> out;
  if (scoped.empty()) scoped.push_back(dv != kNone ? dv : one_scoped);
  for (uint32_t id : scoped) {
    mark(id);
    out.push_back(ptr(id));
  }
  if (*partitioned) {
    mark(**partitioned);
    out.insert(out.end(), (*partitioned)->files.begin(), (*partitioned)->files.end());
  }
  return DeleteFileList(std::move(out));
}

}  // namespace floe
