#include "floe/util/thread_pool.h"

#include <atomic>
#include <memory>

namespace floe {

int ThreadPool::default_threads() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

ThreadPool::ThreadPool(int threads) {
  if (threads <= 0) threads = default_threads();
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::worker_loop() {
  while (true) {
    std::function<void()> job;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_ && queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    job();
  }
}

void ThreadPool::submit(std::function<void()> job) {
  if (workers_.empty()) {
    job();
    return;
  }
  {
    std::lock_guard lock(mu_);
    queue_.push_back(std::move(job));
  }
  cv_.notify_one();
}

Status ThreadPool::parallel_for(size_t n, const std::function<Status(size_t)>& fn) {
  if (n == 0) return Status::OK();
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex result_mu;
  Status first_error;
  auto drain = [&] {
    while (!failed.load(std::memory_order_relaxed)) {
      size_t i = next.fetch_add(1);
      if (i >= n) return;
      Status s = fn(i);
      if (!s.ok()) {
        std::lock_guard lock(result_mu);
        if (first_error.ok()) first_error = std::move(s);
        failed = true;
      }
    }
  };
  size_t helpers = std::min(workers_.size(), n - 1);
  // The completion state is shared with the jobs: a worker may still be leaving notify_all()
  // when this call returns, so it must not live on this stack frame.
  struct Done {
    std::mutex mu;
    std::condition_variable cv;
    size_t running = 0;
  };
  auto done = std::make_shared<Done>();
  done->running = helpers;
  {
    std::lock_guard lock(mu_);
    for (size_t h = 0; h < helpers; ++h) {
      queue_.push_back([&drain, done] {
        drain();
        std::lock_guard l(done->mu);
        if (--done->running == 0) done->cv.notify_all();
      });
    }
  }
  cv_.notify_all();
  drain();
  std::unique_lock lock(done->mu);
  done->cv.wait(lock, [&] { return done->running == 0; });
  return first_error;
}

}  // namespace floe
