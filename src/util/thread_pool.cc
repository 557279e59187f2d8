#include "floe/util/thread_pool.h"

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
  // Shared with the helper jobs, which may start only after this call returned (queued behind
  // other jobs): such a helper finds every item claimed and leaves without touching `fn`. The
  // caller waits only for items a helper is running, never for a helper still in the queue.
  struct State {
    const std::function<Status(size_t)>* fn;
    size_t n;
    std::mutex mu;
    std::condition_variable cv;
    size_t next = 0;     // the next item to hand out
    size_t running = 0;  // items being run by helpers
    Status first_error;
  };
  auto state = std::make_shared<State>();
  state->fn = &fn;
  state->n = n;
  // Runs items until none is left (or one failed); `helper` counts its items in `running`.
  auto drain = [](State& st, bool helper) {
    while (true) {
      size_t i;
      {
        std::lock_guard lock(st.mu);
        if (st.next >= st.n || !st.first_error.ok()) return;
        i = st.next++;
        if (helper) ++st.running;
      }
      Status s = (*st.fn)(i);
      std::lock_guard lock(st.mu);
      if (!s.ok() && st.first_error.ok()) st.first_error = std::move(s);
      if (helper && --st.running == 0) st.cv.notify_all();
    }
  };
  size_t helpers = std::min(workers_.size(), n - 1);
  {
    std::lock_guard lock(mu_);
    for (size_t h = 0; h < helpers; ++h) {
      queue_.push_back([state, drain] { drain(*state, true); });
    }
  }
  cv_.notify_all();
  drain(*state, false);
  std::unique_lock lock(state->mu);
  state->cv.wait(lock, [&] { return state->running == 0; });
  return state->first_error;
}

}  // namespace floe
