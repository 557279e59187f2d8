// The Parquet writer's file output (see file_sink_internal.h).
#include "format/parquet/file_sink_internal.h"

namespace floe::parquet::internal {

Status FileSink::open_stream() {
  if (stream) return Status::OK();
  auto s = io->open_output(path);
  if (!s.ok()) return s.status();
  stream = std::move(*s);
  return Status::OK();
}

Status FileSink::flush() {
  FLOE_TRY(open_stream());
  if (out.empty()) return Status::OK();
  handed += static_cast<int64_t>(out.size());
  Status st = write_stream(out.data(), out.size());
  out.clear();
  return st;
}

Status FileSink::put(const uint8_t* p, size_t n) {
  if (n < (256 << 10)) {
    out.append(p, n);
    return out.size() >= (1 << 20) ? flush() : Status::OK();
  }
  FLOE_TRY(flush());
  handed += static_cast<int64_t>(n);
  return write_stream(p, n);
}

Status FileSink::wait_row_group_write() {
  std::unique_lock<std::mutex> lock(write_mu);
  write_cv.wait(lock, [&] { return !row_group_write.running; });
  for (auto& p : row_group_write.pieces) spare_pieces.push_back(std::move(p));
  row_group_write.pieces.clear();
  return row_group_write.status;
}

void FileSink::add_piece(SegmentedBuffer* pages, std::vector<Piece>* pieces) {
  Piece p;
  if (!spare_pieces.empty()) {
    p = std::move(spare_pieces.back());
    spare_pieces.pop_back();
  }
  std::swap(p.small, out);
  out.clear();
  std::swap(p.pages, *pages);
  pages->clear();
  handed += static_cast<int64_t>(p.small.size() + p.pages.size());
  pieces->push_back(std::move(p));
}

void FileSink::start_row_group_write(std::vector<Piece> pieces) {
  {
    std::lock_guard<std::mutex> lock(write_mu);
    row_group_write.pieces = std::move(pieces);
    row_group_write.running = true;
  }
  jobs_->run([this] {
    Status st;
    for (const Piece& p : row_group_write.pieces) {
      if (!st.ok()) break;
      if (!p.small.empty()) st = write_stream(p.small.data(), p.small.size());
      if (st.ok()) {
        st = p.pages.for_each([&](const uint8_t* d, size_t n) { return write_stream(d, n); });
      }
    }
    std::lock_guard<std::mutex> lock(write_mu);
    if (!st.ok() && row_group_write.status.ok()) row_group_write.status = std::move(st);
    row_group_write.running = false;
    write_cv.notify_all();
  });
}

}  // namespace floe::parquet::internal
