// The delete-file index of one scan (Iceberg spec, Scan Planning: delete files). Matches delete
// files to a data file by sequence number, spec and partition, and by referenced path:
//   deletion vector      referenced_data_file == path, data seq <= dv seq; beats position files
//   position deletes     data seq <= delete seq, same spec + partition, or scoped to the path
//   equality deletes     data seq <  delete seq, same spec + partition, or global (unpartitioned)
//
// Built for millions of deletes, where memory first touched costs more than the
// matching: delete files are compact DeleteFiles (96 bytes plus their paths, copied once into
// blocks shared per manifest), decoded and classified per manifest in parallel
// (DeleteFileBuilder, prepare). Path-scoped deletes (DVs, file-scoped position files) are found
// through one open-addressing table of 8-byte slots (hash and id); partition-scoped deletes are
// grouped by (spec, partition) and sorted by sequence number. Lookups return shared
// DeleteFileLists: every data file of one partition and sequence number gets the same list, and
// a DV is one pointer aliasing its chunk, so attaching deletes to a task is one reference-count
// increment.
#pragma once

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "floe/manifest/manifest_reader.h"
#include "floe/scan/table_scan.h"
#include "floe/util/huge_page_allocator.h"
#include "floe/util/string_arena.h"
#include "floe/util/thread_pool.h"

namespace floe {

// spec id + partition values as one hashable string.
std::string partition_key(int32_t spec_id, const std::vector<Literal>& values);
// The key two paths that name one data file share: without a file: scheme (file:/x,
// file:///x and /x) and without scheme + authority (hdfs://host:port/x and /x, as Impala's
// manifests and Spark's delete files spell one file). Used by the delete index and by the reader
// for the file_path column of position-delete files.
std::string normalize_file_path(std::string_view path);
// The same key as a view into `path` (normalizing only ever drops a prefix).
std::string_view normalized_path_view(std::string_view path);
// The hash of a normalized path in the index's path table.
uint32_t path_hash(std::string_view normalized_path);

// The data files of tasks are allocated in chunks that their shared_ptrs share (aliasing), so
// planning millions of files costs no allocation per file for the object and its control block.
// A chunk lives as long as any of its files.
template <typename T>
class ChunkArena {
 public:
  explicit ChunkArena(size_t chunk) : chunk_size_(chunk) {}
  T* next(std::shared_ptr<const T>* ptr) {
    if (!chunk_ || chunk_->size() == chunk_->capacity()) {
      chunk_ = std::make_shared<std::vector<T>>();
      chunk_->reserve(chunk_size_);
    }
    T* item = &chunk_->emplace_back();
    *ptr = std::shared_ptr<const T>(chunk_, item);
    return item;
  }

 private:
  size_t chunk_size_;
  std::shared_ptr<std::vector<T>> chunk_;
};

// A copy of a data file's description without the column metrics.
void copy_file_without_stats(const DataFile& from, DataFile* to);

// What the DeleteFile views of one manifest point into: the DeleteFile records themselves and
// their path bytes in blocks growing to 2 MB, partition tuples (consecutive equal ones shared),
// and the rarely set fields.
class DeleteFileStrings {
 public:
  DeleteFileStrings() = default;
  DeleteFileStrings(const DeleteFileStrings&) = delete;
  DeleteFileStrings& operator=(const DeleteFileStrings&) = delete;

  std::span<DeleteFile> records(size_t n);
  std::string_view copy(std::string_view s);
  template <typename T>
  std::span<const T> copy_array(const std::vector<T>& v) {
    return arena_.copy_array(v);
  }
  std::span<const Literal> partition(const std::vector<Literal>& values);
  DeleteFile::Extras* extras() { return &extras_.emplace_back(); }
  const DataFile* details(const DataFile& from);

 private:
  StringArena arena_;
  std::deque<std::vector<Literal>> partitions_;
  std::deque<DeleteFile::Extras> extras_;
  std::deque<DataFile> details_;
};

// Up to kSize delete files sharing one control block (the unit DeleteFilePtrs alias) and the
// strings of their manifest.
struct DeleteFileChunk {
  static constexpr uint32_t kShift = 10;
  static constexpr size_t kSize = size_t{1} << kShift;
  std::shared_ptr<DeleteFileStrings> strings;
  std::span<DeleteFile> files;  // in `strings`
  size_t capacity = 0;
  std::shared_ptr<const void> owner;  // of the strings of files copied from elsewhere
};

// Turns the entries of one delete manifest into compact DeleteFiles: the paths are copied once
// into shared blocks (a file_path equal to the previous one, as for the DVs of one Puffin file,
// is not copied again).
class DeleteFileBuilder {
 public:
  explicit DeleteFileBuilder(size_t expected = 0);
  const DeleteFile& add(const DataFile& f, int64_t data_sequence_number,
                        int64_t file_sequence_number, bool keep_details);
  // The chunks, each owned by its own shared_ptr.
  std::vector<std::shared_ptr<const DeleteFileChunk>> finish();

 private:
  std::shared_ptr<DeleteFileStrings> strings_;
  std::vector<std::shared_ptr<const DeleteFileChunk>> chunks_;
  DeleteFileChunk* current_ = nullptr;
  std::string_view last_path_;
  size_t expected_ = 0;
  size_t added_ = 0;
};

class DeleteFileIndex {
 public:
  DeleteFileIndex();
  ~DeleteFileIndex();
  DeleteFileIndex(const DeleteFileIndex&) = delete;
  DeleteFileIndex& operator=(const DeleteFileIndex&) = delete;

  // The deletes of one manifest, classified and hashed (thread-safe: build one per manifest in
  // parallel, then add() them). `unpartitioned_spec`: the deletes' spec has no partition fields
  // (their equality deletes are global).
  struct Part;
  static std::unique_ptr<Part> prepare(std::vector<std::shared_ptr<const DeleteFileChunk>> chunks,
                                       bool unpartitioned_spec);
  void add(std::unique_ptr<Part> part);
  // One delete file.
  void add(DeleteFilePtr file, bool unpartitioned_spec);
  // Sorts by sequence number and builds the path table; call once after the last add().
  void finish();

  // Per-thread memo of the last partition looked up and of combined lists; pass one per worker
  // to for_data_file so that data files of one partition share their list.
  struct List;  // a shared list with the ids of its files (for matched_files)
  struct LookupCache {
    bool valid = false;
    int32_t spec_id = 0;
    std::vector<Literal> partition;
    int64_t seq = 0;
    // Partition-scoped lists for (spec, partition, seq): all of them, and without position
    // deletes (for files with a DV).
    std::shared_ptr<List> all, without_positions;
  };
  static std::unique_ptr<LookupCache> make_cache() { return std::make_unique<LookupCache>(); }

  // The delete files that apply to a data file with data sequence number `data_seq`, in
  // sequence-number order. Thread-safe after finish() (each thread with its own cache).
  DeleteFileList for_data_file(const DataFile& file, int64_t data_seq,
                               LookupCache* cache = nullptr) const;
  // The same for files[i] with seqs[i] into out[i]: the path table (far larger than the caches)
  // is prefetched for all of them first, so that their cache misses overlap.
  void for_data_files(std::span<const DataFile* const> files, std::span<const int64_t> seqs,
                      std::span<DeleteFileList> out, LookupCache* cache = nullptr) const;

  size_t size() const { return size_; }
  // Distinct delete files returned by for_data_file so far.
  int64_t matched_files() const;

  // A delete file's id: its chunk's number << DeleteFileChunk::kShift | its place in the chunk.
  struct Entry {
    uint32_t id = 0;
    int64_t seq = 0;
  };
  struct Part {
    std::vector<std::shared_ptr<const DeleteFileChunk>> chunks;
    // Ids here are local to the part (chunk numbers from 0) until add().
    std::vector<std::pair<uint32_t, uint32_t>> by_path;              // (hash, id)
    std::vector<std::pair<std::string, Entry>> positions, equality;  // by partition key
    std::vector<Entry> global_equality;
    size_t files = 0;
    uint32_t first_chunk = 0;
  };

 private:
  struct Chunk {
    std::shared_ptr<const DeleteFileChunk> storage;
    std::unique_ptr<std::atomic<uint8_t>[]> matched;
  };
  struct Partitioned {
    std::vector<Entry> entries;  // sorted by sequence number
    // Suffix lists by start index, made on first use (guarded by mu).
    mutable std::vector<std::shared_ptr<List>> suffixes;
    mutable std::unique_ptr<std::mutex> mu;
  };
  // Slots: hash << 32 | id, with kChained set in the id when `next_` holds an older delete
  // for the same path (ids therefore stay below 2^31: up to 2^21 chunks).
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  static constexpr uint32_t kChained = uint32_t{1} << 31;

  const DeleteFile& file(uint32_t id) const {
    return chunks_[id >> DeleteFileChunk::kShift].storage->files[id & (DeleteFileChunk::kSize - 1)];
  }
  DeleteFilePtr ptr(uint32_t id) const {
    return DeleteFilePtr(chunks_[id >> DeleteFileChunk::kShift].storage, &file(id));
  }
  void mark(uint32_t id) const {
    chunks_[id >> DeleteFileChunk::kShift].matched[id & (DeleteFileChunk::kSize - 1)].store(
        1, std::memory_order_relaxed);
  }
  void insert(uint32_t hash, uint32_t id);
  DeleteFileList lookup(const DataFile& file, int64_t data_seq, LookupCache* cache,
                        std::string_view path, uint32_t hash) const;
  std::shared_ptr<List> suffix(const Partitioned& p, int64_t seq, bool strict) const;
  void mark(const List& list) const;

  std::vector<std::unique_ptr<Part>> parts_;
  std::vector<Chunk> chunks_;
  size_t size_ = 0;
  size_t path_entries_ = 0;
  HugePageBlock slot_memory_;
  std::span<uint64_t> slots_;                    // open addressing over path-scoped deletes
  std::unordered_map<uint32_t, uint32_t> next_;  // id -> an older id for the same path
  std::unordered_map<std::string, Partitioned> positions_by_partition_;
  std::unordered_map<std::string, Partitioned> equality_by_partition_;
  Partitioned global_equality_;
};

// A delete manifest to index, and whether its spec is unpartitioned (its equality deletes are
// then global).
struct DeleteManifest {
  const ManifestFile* manifest = nullptr;
  bool unpartitioned = false;
};

// Reads delete manifests in parallel on `pool` into `index` and finishes it (planning's first
// stage). `keep` (may be empty) prunes entries by partition and metrics; the counters (may be
// null) receive the live delete files seen and skipped.
Status read_delete_manifests(FileIO& io, const TableMetadata& table,
                             const std::vector<DeleteManifest>& manifests,
                             const ManifestReadOptions& options, bool keep_stats, ThreadPool& pool,
                             const std::function<bool(const ManifestFile&, const DataFile&)>& keep,
                             DeleteFileIndex* index, int64_t* total_files, int64_t* skipped_files);

}  // namespace floe
