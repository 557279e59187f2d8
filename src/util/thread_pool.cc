#include "floe/util/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <system_error>

namespace floe {

namespace {

// The exception being handled, as an error naming what happened.
Status exception_status(std::string_view where) {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return Status(ErrorKind::kInternal, fmt::format("out of memory {}", where));
  } catch (const std::system_error& e) {
    return Status(ErrorKind::kInternal, fmt::format("system error {}: {}", where, e.what()));
  } catch (const std::exception& e) {
    return Status(ErrorKind::kInternal, fmt::format("unexpected error {}: {}", where, e.what()));
  } catch (...) {
    return Status(ErrorKind::kInternal, fmt::format("unexpected error {}", where));
  }
}

void warn_once(std::atomic<bool>& said, const std::string& message) {
  if (!said.exchange(true)) std::fprintf(stderr, "floe: warning: %s\n", message.c_str());
}

std::atomic<bool> clamp_warned{false};
std::atomic<bool> start_warned{false};

}  // namespace

int ThreadPool::default_threads() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

int ThreadPool::max_threads() { return std::clamp(4 * default_threads(), 8, 256); }

int ThreadPool::clamp_threads(int threads, std::string* warning) {
  if (threads <= max_threads()) return std::max(threads, 0);
  if (warning) {
    *warning = fmt::format("{} threads asked for; using {} (4 per hardware thread, at most 256)",
                           threads, max_threads());
  }
  return max_threads();
}

ThreadPool::ThreadPool(int threads) {
  if (threads <= 0) threads = default_threads();
  std::string warning;
  threads = clamp_threads(threads, &warning);
  if (!warning.empty()) warn_once(clamp_warned, warning);
  workers_.reserve(static_cast<size_t>(threads));
  for (int i = 1; i < threads; ++i) {
    try {
      workers_.emplace_back([this] { worker_loop(); });
    } catch (const std::system_error& e) {
      warn_once(start_warned, fmt::format("could not start thread {} of {} ({}); going on with {}",
                                          i + 1, threads, e.what(), i));
      break;
    }
  }
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
    try {
      job();
    } catch (...) {
      Status s = exception_status("in a worker thread");
      std::lock_guard lock(error_mu_);
      if (job_error_.ok()) job_error_ = std::move(s);
    }
  }
}

Status ThreadPool::job_error() const {
  std::lock_guard lock(error_mu_);
  return job_error_;
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
  // An exception from fn becomes that item's error (it must not unwind a worker thread).
  auto drain = [](State& st, bool helper) {
    while (true) {
      size_t i;
      {
        std::lock_guard lock(st.mu);
        if (st.next >= st.n || !st.first_error.ok()) return;
        i = st.next++;
        if (helper) ++st.running;
      }
      Status s;
      try {
        s = (*st.fn)(i);
      } catch (...) {
        s = exception_status(helper ? "in a worker thread" : "in a parallel task");
      }
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
