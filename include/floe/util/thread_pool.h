// A fixed pool of worker threads for parallel metadata work (reading manifests, decoding
// blocks). parallel_for runs fn(0..n-1) on the pool and the calling thread and returns the first
// error any call produced.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "floe/util/result.h"

namespace floe {

class ThreadPool {
 public:
  // threads <= 0 means one per hardware thread. The caller also works, so a pool of N uses N
  // threads in total for parallel_for (N - 1 workers).
  explicit ThreadPool(int threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Runs fn(i) for every i in [0, n); items are handed out dynamically to the caller and to
  // helper jobs. Stops handing out new items after the first error and returns it. Returns once
  // every item handed out is done: it does not wait for helpers still queued behind other jobs
  // (they find nothing left to run).
  Status parallel_for(size_t n, const std::function<Status(size_t)>& fn);

  // Runs job on a worker, some time later (inline when the pool has no workers). Jobs still
  // queued when the pool is destroyed run before it returns.
  void submit(std::function<void()> job);

  static int default_threads();

 private:
  void worker_loop();

  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stop_ = false;
};

}  // namespace floe
