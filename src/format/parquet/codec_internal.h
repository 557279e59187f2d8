// Page compression for Parquet: decompresses into a caller's buffer of the exact size the page
// header declares (no allocation per page) and compresses with reusable contexts.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "floe/columnar/column_vector.h"
#include "floe/format/parquet/metadata.h"
#include "floe/util/result.h"

namespace floe::parquet::internal {

class PageCodec {
 public:
  PageCodec();
  ~PageCodec();
  PageCodec(const PageCodec&) = delete;
  PageCodec& operator=(const PageCodec&) = delete;

  // Decompresses exactly dst_size bytes; fails when the data is corrupt or the size differs.
  Status decompress(Codec codec, const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size);
  // Appends the compressed form of [src, src + n) to out. level: codec level (zstd, gzip).
  Status compress(Codec codec, const uint8_t* src, size_t n, int level, Buffer* out);

 private:
  Status zstd_context(int level);
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace floe::parquet::internal
