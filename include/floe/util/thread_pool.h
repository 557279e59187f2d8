// A fixed pool of worker threads for parallel metadata work (reading manifests, decoding
// blocks). parallel_for runs fn(0..n-1) on the pool and the calling thread and returns the first
// error any call produced; an exception thrown by fn (out of memory, ...) is returned as an
// error too, never left to end the process.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "floe/util/result.h"

namespace floe {

class ThreadPool {
 public:
  // threads <= 0 means one per hardware thread. The caller also works, so a pool of N uses N
  // threads in total for parallel_for (N - 1 workers). More than max_threads() are clamped to
  // it (with a warning on stderr, once per process); when the system refuses to start a thread
  // the pool keeps the ones it has (at worst none: everything then runs on the caller).
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
  // queued when the pool is destroyed run before it returns. A job should not throw: if one
  // does, the exception is caught and job_error() returns it.
  void submit(std::function<void()> job);
  // The first exception a submitted job threw, as an error (OK when none did).
  Status job_error() const;

  static int default_threads();
  // The most threads a pool starts: 4 per hardware thread, at least 8, at most 256.
  static int max_threads();
  // `threads` clamped to [0, max_threads()]; `warning` (when not null) says so when it was.
  static int clamp_threads(int threads, std::string* warning = nullptr);

 private:
  void worker_loop();

  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stop_ = false;
  mutable std::mutex error_mu_;
  Status job_error_;
};

}  // namespace floe
