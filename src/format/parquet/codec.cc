#include <libdeflate.h>
#include <lz4.h>
#include <snappy-c.h>

#include "format/parquet/codec_internal.h"
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_getCParams
#include <zstd.h>

#include <cstring>
#include <utility>

#include "floe/util/compression.h"
#include "format/parquet/snappy_decoder_internal.h"

namespace floe::parquet::internal {

struct PageCodec::State {
  ZSTD_CCtx* cctx = nullptr;
  bool zstd_set = false;  // cctx's parameters are set, for zstd_level
  int zstd_level = 0;
  libdeflate_decompressor* inflater = nullptr;
  libdeflate_compressor* deflater = nullptr;
  int deflate_level = -1;
  ~State() {
    if (cctx) ZSTD_freeCCtx(cctx);
    if (inflater) libdeflate_free_decompressor(inflater);
    if (deflater) libdeflate_free_compressor(deflater);
  }
};

PageCodec::PageCodec() : state_(std::make_unique<State>()) {}
PageCodec::~PageCodec() = default;

namespace {

uint32_t load_be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

// Hadoop's LZ4 framing: blocks of [BE uncompressed size][BE compressed size][lz4 block].
bool hadoop_lz4(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size) {
  size_t in = 0, out = 0;
  while (in < n) {
    if (n - in < 8) return false;
    uint32_t usize = load_be32(src + in);
    uint32_t csize = load_be32(src + in + 4);
    in += 8;
    if (csize > n - in || usize > dst_size - out) return false;
    int got = LZ4_decompress_safe(reinterpret_cast<const char*>(src + in),
                                  reinterpret_cast<char*>(dst + out), static_cast<int>(csize),
                                  static_cast<int>(usize));
    if (got < 0 || static_cast<uint32_t>(got) != usize) return false;
    in += csize;
    out += usize;
  }
  return out == dst_size;
}

}  // namespace

Status PageCodec::decompress(Codec codec, const uint8_t* src, size_t n, uint8_t* dst,
                             size_t dst_size) {
  switch (codec) {
    case Codec::kUncompressed:
      if (n != dst_size) {
        return invalid_data("uncompressed page has {} bytes, header says {}", n, dst_size);
      }
      std::memcpy(dst, src, n);
      return Status::OK();
    case Codec::kSnappy: {
      uint64_t len = 0;
      if (!snappy_declared_length(src, n, &len) || len != dst_size) {
        return invalid_data("snappy: corrupt page or wrong size");
      }
      if (!snappy_decompress(src, n, dst, dst_size)) return invalid_data("snappy: corrupt page");
      return Status::OK();
    }
    case Codec::kZstd: {
      ZSTD_DCtx* dctx = thread_zstd_dctx();
      if (!dctx)
        return make_error(ErrorKind::kInternal, "out of memory: zstd decompression context");
      size_t got = ZSTD_decompressDCtx(dctx, dst, dst_size, src, n);
      if (ZSTD_isError(got)) return invalid_data("zstd: {}", ZSTD_getErrorName(got));
      if (got != dst_size)
        return invalid_data("zstd: page decompressed to {} bytes, expected {}", got, dst_size);
      return Status::OK();
    }
    case Codec::kGzip: {
      if (!state_->inflater) state_->inflater = libdeflate_alloc_decompressor();
      size_t in_used = 0, got = 0;
      auto rc =
          libdeflate_gzip_decompress_ex(state_->inflater, src, n, dst, dst_size, &in_used, &got);
      if (rc == LIBDEFLATE_SUCCESS && got == dst_size) return Status::OK();
      // Several gzip members or trailing padding: the general path handles both.
      auto whole = gzip_decompress(std::string_view(reinterpret_cast<const char*>(src), n));
      if (!whole.ok()) return whole.status();
      if (whole->size() != dst_size) return invalid_data("gzip: page has the wrong size");
      std::memcpy(dst, whole->data(), dst_size);
      return Status::OK();
    }
    case Codec::kLz4Raw: {
      int got =
          LZ4_decompress_safe(reinterpret_cast<const char*>(src), reinterpret_cast<char*>(dst),
                              static_cast<int>(n), static_cast<int>(dst_size));
      if (got < 0 || static_cast<size_t>(got) != dst_size) return invalid_data("lz4: corrupt page");
      return Status::OK();
    }
    case Codec::kLz4: {
      if (hadoop_lz4(src, n, dst, dst_size)) return Status::OK();
      int got =
          LZ4_decompress_safe(reinterpret_cast<const char*>(src), reinterpret_cast<char*>(dst),
                              static_cast<int>(n), static_cast<int>(dst_size));
      if (got < 0 || static_cast<size_t>(got) != dst_size) return invalid_data("lz4: corrupt page");
      return Status::OK();
    }
    default:
      return not_supported("Parquet codec {} is not supported", codec_name(codec));
  }
}

// zstd picks a level's search parameters by input size, and for inputs of 128-256 KB (pages of
// 20,000 8-byte values) its level 3 row uses a shorter minimum match that costs about a fifth
// more time for no gain here. Pages use the level's parameters for large inputs instead (what a
// 1 MB page gets); zstd still shrinks the window and tables to the page size.
Status PageCodec::zstd_context(int level) {
  if (!state_->cctx) state_->cctx = ZSTD_createCCtx();
  if (!state_->cctx) return Status(ErrorKind::kInternal, "zstd: cannot create a context");
  if (state_->zstd_set && state_->zstd_level == level) return Status::OK();
  ZSTD_CCtx* c = state_->cctx;
  ZSTD_CCtx_reset(c, ZSTD_reset_parameters);
  ZSTD_compressionParameters p = ZSTD_getCParams(level, ZSTD_CONTENTSIZE_UNKNOWN, 0);
  const std::pair<ZSTD_cParameter, int> params[] = {
      {ZSTD_c_compressionLevel, level},
      {ZSTD_c_windowLog, static_cast<int>(p.windowLog)},
      {ZSTD_c_chainLog, static_cast<int>(p.chainLog)},
      {ZSTD_c_hashLog, static_cast<int>(p.hashLog)},
      {ZSTD_c_searchLog, static_cast<int>(p.searchLog)},
      {ZSTD_c_minMatch, static_cast<int>(p.minMatch)},
      {ZSTD_c_targetLength, static_cast<int>(p.targetLength)},
      {ZSTD_c_strategy, static_cast<int>(p.strategy)},
  };
  for (const auto& [k, v] : params) {
    if (ZSTD_isError(ZSTD_CCtx_setParameter(c, k, v))) {
      return invalid_argument("zstd: bad compression level {}", level);
    }
  }
  state_->zstd_set = true;
  state_->zstd_level = level;
  return Status::OK();
}

Status PageCodec::compress(Codec codec, const uint8_t* src, size_t n, int level, Buffer* out) {
  size_t base = out->size();
  switch (codec) {
    case Codec::kUncompressed:
      out->append(src, n);
      return Status::OK();
    case Codec::kSnappy: {
      size_t cap = snappy_max_compressed_length(n);
      out->resize(base + cap);
      size_t len = cap;
      if (::snappy_compress(reinterpret_cast<const char*>(src), n,
                            reinterpret_cast<char*>(out->data() + base), &len) != SNAPPY_OK) {
        return Status(ErrorKind::kInternal, "snappy: compression failed");
      }
      out->resize(base + len);
      return Status::OK();
    }
    case Codec::kZstd: {
      FLOE_TRY(zstd_context(level));
      size_t cap = ZSTD_compressBound(n);
      out->resize(base + cap);
      size_t len = ZSTD_compress2(state_->cctx, out->data() + base, cap, src, n);
      if (ZSTD_isError(len)) return Status(ErrorKind::kInternal, "zstd: compression failed");
      out->resize(base + len);
      return Status::OK();
    }
    case Codec::kGzip: {
      if (!state_->deflater || state_->deflate_level != level) {
        if (state_->deflater) libdeflate_free_compressor(state_->deflater);
        state_->deflater = libdeflate_alloc_compressor(level);
        state_->deflate_level = level;
      }
      size_t cap = libdeflate_gzip_compress_bound(state_->deflater, n);
      out->resize(base + cap);
      size_t len = libdeflate_gzip_compress(state_->deflater, src, n, out->data() + base, cap);
      if (len == 0) return Status(ErrorKind::kInternal, "gzip: compression failed");
      out->resize(base + len);
      return Status::OK();
    }
    case Codec::kLz4Raw: {
      int cap = LZ4_compressBound(static_cast<int>(n));
      out->resize(base + static_cast<size_t>(cap));
      int len = LZ4_compress_default(reinterpret_cast<const char*>(src),
                                     reinterpret_cast<char*>(out->data() + base),
                                     static_cast<int>(n), cap);
      if (len <= 0) return Status(ErrorKind::kInternal, "lz4: compression failed");
      out->resize(base + static_cast<size_t>(len));
      return Status::OK();
    }
    default:
      return not_supported("writing Parquet codec {} is not supported", codec_name(codec));
  }
}

}  // namespace floe::parquet::internal
