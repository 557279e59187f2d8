// ThreadPool::parallel_for: every item runs once, the first error comes back, and the caller
// never waits for a helper job that is still queued behind other work.
#include "floe/util/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace floe {
namespace {

TEST(ThreadPool, ParallelForRunsEveryItemOnce) {
  for (int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{1000}}) {
      std::vector<std::atomic<int>> runs(n);
      Status st = pool.parallel_for(n, [&](size_t i) {
        runs[i].fetch_add(1);
        return Status::OK();
      });
      EXPECT_TRUE(st.ok());
      for (size_t i = 0; i < n; ++i) EXPECT_EQ(runs[i].load(), 1) << threads << " " << i;
    }
  }
}

TEST(ThreadPool, ParallelForReturnsAnErrorAndStopsHandingOut) {
  ThreadPool pool(2);
  std::atomic<int> ran{0};
  Status st = pool.parallel_for(10000, [&](size_t i) {
    ran.fetch_add(1);
    return i == 3 ? Status(ErrorKind::kIo, "item 3 failed") : Status::OK();
  });
  EXPECT_EQ(st.kind(), ErrorKind::kIo);
  EXPECT_NE(st.to_string().find("item 3 failed"), std::string::npos);
  EXPECT_LT(ran.load(), 10000);
}

// The only worker is held by a job: parallel_for's helper waits in the queue behind it, so the
// caller runs every item itself and returns without waiting for the worker. The helper runs
// once the worker is free, finds nothing to do, and must not touch the finished call's state.
TEST(ThreadPool, ParallelForDoesNotWaitForAHelperStillQueued) {
  ThreadPool pool(2);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> blocker_started{false};
  // The job holds its own copy of the future: it may still be returning from wait() when the
  // test's locals are gone (the pool, declared first, joins its workers last).
  pool.submit([&blocker_started, released] {
    blocker_started = true;
    released.wait();
  });
  while (!blocker_started) std::this_thread::yield();
  std::vector<int> runs(50, 0);
  auto done = std::async(std::launch::async, [&] {
    return pool.parallel_for(runs.size(), [&](size_t i) {
      ++runs[i];  // only the caller runs items: the worker is blocked
      return Status::OK();
    });
  });
  std::future_status waited = done.wait_for(std::chrono::seconds(5));
  release.set_value();  // before any assertion can return
  EXPECT_EQ(waited, std::future_status::ready)
      << "parallel_for waited for a helper queued behind a blocked worker";
  EXPECT_TRUE(done.get().ok());
  for (int r : runs) EXPECT_EQ(r, 1);
  // A second call works as usual once the worker is free (and the stale helper has run).
  std::atomic<int> ran{0};
  EXPECT_TRUE(pool.parallel_for(100,
                                [&](size_t) {
                                  ran.fetch_add(1);
                                  return Status::OK();
                                })
                  .ok());
  EXPECT_EQ(ran.load(), 100);
}

TEST(ThreadPool, ExceptionsComeBackAsErrors) {
  ThreadPool pool(4);
  Status s = pool.parallel_for(64, [](size_t i) -> Status {
    if (i == 37) throw std::bad_alloc();
    return Status::OK();
  });
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("out of memory"), std::string::npos) << s.message();
  s = pool.parallel_for(8, [](size_t) -> Status { throw std::runtime_error("boom"); });
  EXPECT_NE(s.message().find("boom"), std::string::npos) << s.message();
  // A submitted job that throws does not end the process; its error is kept.
  std::promise<void> ran;
  pool.submit([&] {
    ran.set_value();
    throw std::runtime_error("job failed");
  });
  ran.get_future().wait();
  for (int i = 0; i < 100 && pool.job_error().ok(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_NE(pool.job_error().message().find("job failed"), std::string::npos);
  // The pool still works.
  EXPECT_TRUE(pool.parallel_for(10, [](size_t) { return Status::OK(); }).ok());
}

TEST(ThreadPool, HugeThreadCountsAreClamped) {
  std::string warning;
  EXPECT_EQ(ThreadPool::clamp_threads(4, &warning), 4);
  EXPECT_TRUE(warning.empty());
  EXPECT_EQ(ThreadPool::clamp_threads(100000, &warning), ThreadPool::max_threads());
  EXPECT_NE(warning.find("100000 threads asked for"), std::string::npos) << warning;
  EXPECT_LE(ThreadPool::max_threads(), 256);
  ThreadPool pool(100000);
  EXPECT_LE(pool.size(), ThreadPool::max_threads());
  std::atomic<int> ran{0};
  EXPECT_TRUE(pool.parallel_for(1000,
                                [&](size_t) {
                                  ran.fetch_add(1);
                                  return Status::OK();
                                })
                  .ok());
  EXPECT_EQ(ran.load(), 1000);
}

}  // namespace
}  // namespace floe
