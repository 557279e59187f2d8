// The Parquet writer's pages on their way to a column chunk: encoding scratch, the pool jobs a
// writer counts, the assembly of a page (compression, header, body), and the queue of pages
// compressed on the pool while encoding goes on.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "floe/format/parquet/metadata.h"
#include "floe/format/parquet/writer.h"
#include "floe/util/buffer.h"
#include "floe/util/thread_pool.h"
#include "format/parquet/codec_internal.h"
#include "format/parquet/writer_leaf_internal.h"

namespace floe::parquet::internal {

// Encoding scratch: one per task running at a time (columns encode in parallel with threads).
struct Scratch {
  PageCodec codec;
  std::string page, header;
  std::string plain;  // a first page's plain encoding, to decide on its dictionary
  Buffer compressed, dict_page;
  std::vector<uint32_t> indices;
};

// Scratches kept for reuse by the tasks that come next.
class ScratchPool {
 public:
  std::unique_ptr<Scratch> take() {
    std::lock_guard<std::mutex> lock(mu_);
    if (scratches_.empty()) return std::make_unique<Scratch>();
    auto s = std::move(scratches_.back());
    scratches_.pop_back();
    return s;
  }
  void give(std::unique_ptr<Scratch> s) {
    std::lock_guard<std::mutex> lock(mu_);
    scratches_.push_back(std::move(s));
  }

 private:
  std::mutex mu_;
  std::vector<std::unique_ptr<Scratch>> scratches_;
};

// With threads: the writer's own pool, or one it shares (WriterOptions::pool). Every job is
// started by run() and counted, and the writer waits for them (wait()) before it goes: a shared
// pool outlives the writer, and jobs of other writers may be queued ahead of this one's.
class PoolJobs {
 public:
  std::shared_ptr<ThreadPool> pool;  // null: no threads

  void run(std::function<void()> job) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      ++jobs_;
    }
    pool->submit([this, job = std::move(job)] {
      job();
      // Notified under the lock: once it is released the writer may be gone.
      std::lock_guard<std::mutex> lock(mu_);
      if (--jobs_ == 0) cv_.notify_all();
    });
  }
  // Waits until every job started has finished.
  void wait() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return jobs_ == 0; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int64_t jobs_ = 0;  // started and not yet finished
};

// Appends a page's header and its `size` stored bytes (of `body_size` before compression) to
// `dst` (a Buffer or a SegmentedBuffer), adding both sizes to the running totals.
template <typename Dst>
void append_page(Scratch& sc, size_t body_size, const uint8_t* data, size_t size,
                 int32_t num_values, bool dictionary, Encoding enc, Dst* dst, int64_t* uncompressed,
                 int64_t* compressed_size) {
  std::string& header = sc.header;
  PageHeader h;
  h.uncompressed_page_size = static_cast<int32_t>(body_size);
  h.compressed_page_size = static_cast<int32_t>(size);
  if (dictionary) {
    h.type = PageType::kDictionaryPage;
    h.dictionary_page_header = DictionaryPageHeader{num_values, Encoding::kPlain, false};
  } else {
    h.type = PageType::kDataPage;
    DataPageHeader d;
    d.num_values = num_values;
    d.encoding = enc;
    d.definition_level_encoding = Encoding::kRle;
    d.repetition_level_encoding = Encoding::kRle;
    h.data_page_header = d;
  }
  header.clear();
  encode_page_header(h, &header);
  dst->append(header.data(), header.size());
  dst->append(data, size);
  *uncompressed += static_cast<int64_t>(header.size() + body_size);
  *compressed_size += static_cast<int64_t>(header.size() + size);
}

// Compresses `body` and appends the page (header + body) to `dst`.
template <typename Dst>
Status emit_page(const WriterOptions& options, Scratch& sc, const std::string& body,
                 int32_t num_values, bool dictionary, Encoding enc, Dst* dst, int64_t* uncompressed,
                 int64_t* compressed_size) {
  Buffer& compressed = sc.compressed;
  const auto* data = reinterpret_cast<const uint8_t*>(body.data());
  size_t size = body.size();
  if (options.codec != Codec::kUncompressed) {
    compressed.clear();
    FLOE_TRY(sc.codec.compress(options.codec, data, size, options.compression_level, &compressed));
    data = compressed.data();
    size = compressed.size();
  }
  append_page(sc, body.size(), data, size, num_values, dictionary, enc, dst, uncompressed,
              compressed_size);
  return Status::OK();
}

// With threads, pages are compressed as pool jobs while encoding goes on (queue); each is
// appended to its chunk, in order, by whichever job finishes the oldest. Row groups are cut by
// sizes known before compression, and whatever reads a compressed size drains the pool first
// (drain), so the file is the same whatever the thread count.
class PagePipeline {
 public:
  PagePipeline(const WriterOptions* options, ScratchPool* scratches, PoolJobs* jobs)
      : options_(options), scratches_(scratches), jobs_(jobs) {}

  // Pages go through the queue: there is a pool and a codec.
  bool async() const { return jobs_->pool && options_->codec != Codec::kUncompressed; }

  // Hands the encoded `body` (left holding a spare buffer) of the next page of `l` to the pool.
  // An encoder that gets ahead of compression by more than kQueuedBytes compresses pages itself
  // until it is not, which bounds the memory the queue holds.
  void queue(WLeaf& l, std::string* body, int32_t num_values, Encoding encoding);

  // Compresses the oldest queued page, and appends the done pages at the head of its leaf's
  // queue to the chunk; false when no page is queued.
  bool compress_next();

  // Compresses what is still queued (with the pool) and waits for the rest: afterwards every
  // page is in its chunk. Returns the first failure of a job.
  Status drain();

  // The first failure of a job so far.
  Status failure();

 private:
  // Page bytes an encoder may queue for compression before it compresses pages itself.
  static constexpr int64_t kQueuedBytes = int64_t{16} << 20;

  const WriterOptions* options_;
  ScratchPool* scratches_;
  PoolJobs* jobs_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<PendingPage*> to_compress_;
  int64_t queued_bytes_ = 0;  // bodies of the pages not yet taken by a job
  int64_t compressing_ = 0;   // pages queued or being compressed
  Status page_error_;         // the first failure of a job
  std::vector<std::unique_ptr<PendingPage>> spare_pages_;
};

}  // namespace floe::parquet::internal
