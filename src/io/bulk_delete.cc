// delete_all (floe/io/file_io.h): many deletes at once, in bulk requests where the storage has
// them (S3's DeleteObjects takes 1,000 keys a request), else one file per request, in parallel.
#include <algorithm>
#include <unordered_set>

#include "floe/io/file_io.h"
#include "floe/util/thread_pool.h"

namespace floe {

void delete_all(FileIO& io, const std::vector<std::string>& paths, int threads,
                const std::function<void(size_t index, const Status& status)>& done) {
  ThreadPool pool(std::max(1, threads));
  if (!io.bulk_deletes()) {
    (void)pool.parallel_for(paths.size(), [&](size_t i) -> Status {
      Status st = io.delete_file(paths[i]);
      done(i, st.kind() == ErrorKind::kNotFound ? Status::OK() : st);
      return Status::OK();
    });
    return;
  }
  constexpr size_t kBatch = 1000;
  const size_t batches = (paths.size() + kBatch - 1) / kBatch;
  (void)pool.parallel_for(batches, [&](size_t b) -> Status {
    const size_t begin = b * kBatch, end = std::min(paths.size(), begin + kBatch);
    std::vector<std::string> batch(paths.begin() + static_cast<std::ptrdiff_t>(begin),
                                   paths.begin() + static_cast<std::ptrdiff_t>(end));
    std::vector<std::string> failed;
    Status st = io.delete_files(batch, &failed);
    std::unordered_set<std::string> not_deleted(failed.begin(), failed.end());
    for (size_t i = begin; i < end; ++i) {
      done(i, not_deleted.count(paths[i]) ? (st.ok() ? io_error("not deleted: {}", paths[i]) : st)
                                          : Status::OK());
    }
    return Status::OK();
  });
}

}  // namespace floe
