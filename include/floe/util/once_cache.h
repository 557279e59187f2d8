// A thread-safe cache that computes each key's value exactly once: concurrent callers of a key
// being loaded wait for the first caller's result instead of loading it again (a delete file
// shared by tasks on several threads is read once). Failures are cached too.
#pragma once

#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "floe/util/result.h"

namespace floe {

template <typename T>
class OnceCache {
 public:
  using Value = std::shared_ptr<const T>;

  // The value for `key`, calling `load()` (returning Result<Value>) only for the first caller.
  template <typename Load>
  Result<Value> get(const std::string& key, Load&& load) {
    std::shared_future<Result<Value>> future;
    std::promise<Result<Value>> promise;
    bool owner = false;
    {
      std::lock_guard lock(mu_);
      auto it = entries_.find(key);
      if (it == entries_.end()) {
        future = promise.get_future().share();
        entries_.emplace(key, future);
        owner = true;
      } else {
        future = it->second;
      }
    }
    if (owner) promise.set_value(load());
    return future.get();
  }

 private:
  std::mutex mu_;
  std::unordered_map<std::string, std::shared_future<Result<Value>>> entries_;
};

}  // namespace floe
