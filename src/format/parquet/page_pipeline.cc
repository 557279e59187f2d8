// The queue of pages compressed on the writer's pool (see page_pipeline_internal.h).
#include "format/parquet/page_pipeline_internal.h"

namespace floe::parquet::internal {

void PagePipeline::queue(WLeaf& l, std::string* body, int32_t num_values, Encoding encoding) {
  std::unique_ptr<PendingPage> p;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!spare_pages_.empty()) {
      p = std::move(spare_pages_.back());
      spare_pages_.pop_back();
    }
  }
  if (!p) p = std::make_unique<PendingPage>();
  p->leaf = &l;
  p->body.swap(*body);
  p->num_values = num_values;
  p->encoding = encoding;
  p->done = false;
  p->status = Status::OK();
  PendingPage* raw = p.get();
  {
    std::lock_guard<std::mutex> lock(*l.mu);
    l.pending.push_back(std::move(p));
  }
  bool over = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    to_compress_.push_back(raw);
    queued_bytes_ += static_cast<int64_t>(raw->body.size());
    ++compressing_;
    over = queued_bytes_ > kQueuedBytes;
  }
  jobs_->run([this] { compress_next(); });
  while (over && compress_next()) {
    std::lock_guard<std::mutex> lock(mu_);
    over = queued_bytes_ > kQueuedBytes;
  }
}

bool PagePipeline::compress_next() {
  PendingPage* p = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (to_compress_.empty()) return false;
    p = to_compress_.front();
    to_compress_.pop_front();
    queued_bytes_ -= static_cast<int64_t>(p->body.size());
  }
  auto sc = scratches_->take();
  p->compressed.clear();
  p->status = sc->codec.compress(options_->codec, reinterpret_cast<const uint8_t*>(p->body.data()),
                                 p->body.size(), options_->compression_level, &p->compressed);
  WLeaf& l = *p->leaf;
  std::vector<std::unique_ptr<PendingPage>> spent;
  Status failed;
  {
    std::lock_guard<std::mutex> lock(*l.mu);
    p->done = true;
    while (!l.pending.empty() && l.pending.front()->done) {
      PendingPage& q = *l.pending.front();
      if (q.status.ok()) {
        append_page(*sc, q.body.size(), q.compressed.data(), q.compressed.size(), q.num_values,
                    false, q.encoding, &l.pages, &l.rg_uncompressed, &l.rg_compressed);
      } else if (failed.ok()) {
        failed = q.status;
      }
      spent.push_back(std::move(l.pending.front()));
      l.pending.pop_front();
    }
  }
  scratches_->give(std::move(sc));
  std::lock_guard<std::mutex> lock(mu_);
  if (!failed.ok() && page_error_.ok()) page_error_ = failed;
  for (auto& q : spent) spare_pages_.push_back(std::move(q));
  if (--compressing_ == 0) cv_.notify_all();
  return true;
}

Status PagePipeline::drain() {
  if (!jobs_->pool) return Status::OK();
  while (compress_next()) {
  }
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return compressing_ == 0; });
  return page_error_;
}
Status PagePipeline::failure() {
  if (!jobs_->pool) return Status::OK();
  std::lock_guard<std::mutex> lock(mu_);
  return page_error_;
}

}  // namespace floe::parquet::internal
