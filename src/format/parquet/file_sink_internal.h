// The bytes of a Parquet file on their way to its output stream: small parts gathered into
// 1 MB writes, large ones handed on as they are, the file opened only when the first
// megabyte is ready, and with threads each row group written by a pool job while the next fills.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "floe/io/file_io.h"
#include "floe/util/buffer.h"
#include "format/parquet/page_pipeline_internal.h"
#include "format/parquet/segmented_buffer_internal.h"

namespace floe::parquet::internal {

struct FileSink {
  explicit FileSink(PoolJobs* jobs) : jobs_(jobs) {}

  FileIOPtr io;
  std::string path;
  std::unique_ptr<OutputStream> stream;  // the file
  Buffer out;          // small parts (headers, dictionary pages, footer) not yet handed to `stream`
  int64_t handed = 0;  // bytes handed to `stream`, or to the job writing a row group

  // Offset in the file of the next byte written.
  int64_t pos() const { return handed + static_cast<int64_t>(out.size()); }
  // The file is opened when the first megabyte is ready, so that writers of small files (one per
  // partition) hold no file descriptor while they fill.
  Status open_stream();
  Status write_stream(const uint8_t* p, size_t n) {
    return stream->write(std::string_view(reinterpret_cast<const char*>(p), n));
  }
  Status flush();
  // Appends to the file: large parts go to the stream as they are, small ones are gathered.
  Status put(const uint8_t* p, size_t n);

  // With threads, a row group's bytes go to the file from a pool job while the next row group
  // fills. The job writes each piece's small parts, then its pages; the next row group's write
  // (and close) waits for it first.
  struct Piece {
    Buffer small;
    SegmentedBuffer pages;
  };
  struct RowGroupWrite {
    std::vector<Piece> pieces;
    bool running = false;
    Status status;
  };
  std::mutex write_mu;
  std::condition_variable write_cv;
  RowGroupWrite row_group_write;
  std::vector<Piece> spare_pieces;  // written, kept for their blocks

  // Waits for the row group being written, if any, and returns how its write went.
  Status wait_row_group_write();
  // The next piece of the row group being gathered: the small parts so far, and `pages`, which
  // is left empty (holding a written piece's blocks).
  void add_piece(SegmentedBuffer* pages, std::vector<Piece>* pieces);
  void start_row_group_write(std::vector<Piece> pieces);

 private:
  PoolJobs* jobs_;
};

}  // namespace floe::parquet::internal
