#include "floe/util/compression.h"

#include <libdeflate.h>
#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <climits>
#include <memory>

namespace floe {

namespace {

// No codec may produce more than this from one call: a hostile header or a decompression
// bomb must end in an error, not in an allocation failure that takes the process down.
constexpr size_t kMaxDecompressedSize = size_t{2} << 30;  // 2 GiB

// Known frame sizes up to this are trusted for a single allocation; larger claims go through
// the streaming path, whose buffer only grows as output is really produced.
constexpr size_t kMaxTrustedContentSize = size_t{256} << 20;

constexpr size_t kMinOutputBuffer = 4096;

// zlib counts in uInt; feed it pieces small enough to never truncate.
constexpr size_t kMaxZlibChunk = size_t{1} << 30;

size_t initial_capacity(size_t input_size, size_t factor) {
  size_t guess =
      input_size > kMaxDecompressedSize / factor ? kMaxDecompressedSize : input_size * factor;
  return std::clamp(guess, kMinOutputBuffer, kMaxDecompressedSize);
}

// Doubles `out` up to the global cap. Returns false when already at the cap.
bool grow(std::string& out) {
  if (out.size() >= kMaxDecompressedSize) return false;
  size_t next = out.size() > kMaxDecompressedSize / 2 ? kMaxDecompressedSize : out.size() * 2;
  out.resize(std::max(next, kMinOutputBuffer));
  return true;
}

Status too_large(const char* codec) {
  return invalid_data("{}: decompressed data exceeds the {} byte limit", codec,
                      kMaxDecompressedSize);
}

// ---------------------------------------------------------------------------------------------
// gzip (zlib)

struct DeflateStream {
  z_stream strm{};
  bool initialised = false;
  ~DeflateStream() {
    if (initialised) deflateEnd(&strm);
  }
};

struct InflateStream {
  z_stream strm{};
  bool initialised = false;
  ~InflateStream() {
    if (initialised) inflateEnd(&strm);
  }
};

bool all_zero(const unsigned char* p, size_t n) {
  return std::all_of(p, p + n, [](unsigned char c) { return c == 0; });
}

}  // namespace

bool is_gzip(std::string_view data) {
  return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
         static_cast<unsigned char>(data[1]) == 0x8b;
}

Result<std::string> gzip_compress(std::string_view data, int level) {
  if (level < Z_DEFAULT_COMPRESSION || level > Z_BEST_COMPRESSION) {
    return invalid_argument("gzip: compression level {} is outside -1..9", level);
  }
  DeflateStream s;
  // 15 window bits + 16 selects the gzip wrapper.
  if (deflateInit2(&s.strm, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Status(ErrorKind::kInternal, "gzip: deflateInit2 failed");
  }
  s.initialised = true;

  std::string out;
  // deflateBound only takes uLong; for huge inputs start smaller and grow.
  out.resize(deflateBound(&s.strm, static_cast<uLong>(std::min(data.size(), kMaxZlibChunk))) + 64);
  const auto* in = reinterpret_cast<const unsigned char*>(data.data());
  size_t in_left = data.size();
  size_t produced = 0;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    if (s.strm.avail_in == 0 && in_left > 0) {
      size_t chunk = std::min(in_left, kMaxZlibChunk);
      s.strm.next_in = const_cast<unsigned char*>(in);
      s.strm.avail_in = static_cast<uInt>(chunk);
      in += chunk;
      in_left -= chunk;
    }
    if (produced == out.size()) out.resize(out.size() * 2);
    size_t room = std::min(out.size() - produced, kMaxZlibChunk);
    s.strm.next_out = reinterpret_cast<unsigned char*>(out.data()) + produced;
    s.strm.avail_out = static_cast<uInt>(room);
    rc = deflate(&s.strm, in_left == 0 ? Z_FINISH : Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
      return Status(ErrorKind::kInternal, fmt::format("gzip: deflate failed ({})", rc));
    }
    produced += room - s.strm.avail_out;
  }
  out.resize(produced);
  return out;
}

Result<std::string> gzip_decompress(std::string_view data) {
  if (data.empty()) return invalid_data("gzip: empty input");
  InflateStream s;
  if (inflateInit2(&s.strm, 15 + 16) != Z_OK) {
    return Status(ErrorKind::kInternal, "gzip: inflateInit2 failed");
  }
  s.initialised = true;

  std::string out(initial_capacity(data.size(), 4), '\0');
  const auto* in = reinterpret_cast<const unsigned char*>(data.data());
  const auto* in_end = in + data.size();
  size_t produced = 0;
  while (true) {
    if (s.strm.avail_in == 0) {
      size_t chunk = std::min(static_cast<size_t>(in_end - in), kMaxZlibChunk);
      s.strm.next_in = const_cast<unsigned char*>(in);
      s.strm.avail_in = static_cast<uInt>(chunk);
      in += chunk;
    }
    if (produced == out.size() && !grow(out)) return too_large("gzip");
    size_t room = std::min(out.size() - produced, kMaxZlibChunk);
    s.strm.next_out = reinterpret_cast<unsigned char*>(out.data()) + produced;
    s.strm.avail_out = static_cast<uInt>(room);
    int rc = inflate(&s.strm, Z_NO_FLUSH);
    produced += room - s.strm.avail_out;
    if (rc == Z_STREAM_END) {
      // Another member may follow (concatenated .gz files); zero padding is tolerated as
      // gzip(1) does.
      const unsigned char* rest = s.strm.next_in;
      size_t rest_size = s.strm.avail_in + static_cast<size_t>(in_end - in);
      if (rest_size == 0) break;
      if (rest_size >= 2 && rest[0] == 0x1f && rest[1] == 0x8b) {
        if (inflateReset(&s.strm) != Z_OK) {
          return Status(ErrorKind::kInternal, "gzip: inflateReset failed");
        }
        s.strm.next_in = const_cast<unsigned char*>(rest);
        s.strm.avail_in = 0;
        in = rest;
        continue;
      }
      if (all_zero(rest, rest_size)) break;
      return invalid_data("gzip: {} bytes of trailing garbage after the last member", rest_size);
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR) {
      if (s.strm.avail_in == 0 && in == in_end && s.strm.avail_out > 0) {
        return invalid_data("gzip: truncated input (stream ends before the end of the member)");
      }
      continue;  // output full; grow and retry
    }
    if (rc == Z_MEM_ERROR) return Status(ErrorKind::kInternal, "gzip: out of memory");
    return invalid_data("gzip: corrupt data: {}", s.strm.msg ? s.strm.msg : "unknown error");
  }
  out.resize(produced);
  return out;
}

// ---------------------------------------------------------------------------------------------
// zstd

bool is_zstd(std::string_view data) {
  static constexpr unsigned char kMagic[] = {0x28, 0xb5, 0x2f, 0xfd};
  return data.size() >= 4 &&
         std::equal(kMagic, kMagic + 4, data.begin(),
                    [](unsigned char a, char b) { return a == static_cast<unsigned char>(b); });
}

Result<std::string> zstd_compress(std::string_view data, int level) {
  if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
    return invalid_argument("zstd: compression level {} is outside {}..{}", level, ZSTD_minCLevel(),
                            ZSTD_maxCLevel());
  }
  std::string out(ZSTD_compressBound(data.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), level);
  if (ZSTD_isError(n)) {
    return Status(ErrorKind::kInternal, fmt::format("zstd: {}", ZSTD_getErrorName(n)));
  }
  out.resize(n);
  return out;
}

namespace {

Result<std::string> zstd_decompress_streaming(ZSTD_DCtx* dctx, std::string_view data) {
  std::string out(initial_capacity(data.size(), 4), '\0');
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  ZSTD_outBuffer ob{out.data(), out.size(), 0};
  while (true) {
    if (ob.pos == ob.size) {
      if (!grow(out)) return too_large("zstd");
      ob.dst = out.data();
      ob.size = out.size();
    }
    size_t rc = ZSTD_decompressStream(dctx, &ob, &in);
    if (ZSTD_isError(rc)) return invalid_data("zstd: corrupt data: {}", ZSTD_getErrorName(rc));
    if (in.pos == in.size) {
      if (rc == 0) break;  // every frame complete
      // The decoder had room to write yet asks for more input: the last frame is cut short.
      if (ob.pos < ob.size) return invalid_data("zstd: truncated input (incomplete frame)");
    }
  }
  out.resize(ob.pos);
  return out;
}

// Sum of the declared content sizes of all frames (skippable frames count as empty), or
// ZSTD_CONTENTSIZE_UNKNOWN if some frame does not declare one, or ZSTD_CONTENTSIZE_ERROR.
// (ZSTD_findDecompressedSize does this but is not part of the stable API.)
unsigned long long zstd_total_content_size(std::string_view data) {
  unsigned long long total = 0;
  bool unknown = false;
  while (!data.empty()) {
    if (data.size() < 4) return ZSTD_CONTENTSIZE_ERROR;
    uint32_t magic = static_cast<uint32_t>(static_cast<unsigned char>(data[0])) |
                     static_cast<uint32_t>(static_cast<unsigned char>(data[1])) << 8 |
                     static_cast<uint32_t>(static_cast<unsigned char>(data[2])) << 16 |
                     static_cast<uint32_t>(static_cast<unsigned char>(data[3])) << 24;
    if ((magic & 0xFFFFFFF0u) != 0x184D2A50u) {  // not a skippable frame
      unsigned long long size = ZSTD_getFrameContentSize(data.data(), data.size());
      if (size == ZSTD_CONTENTSIZE_ERROR) return size;
      if (size == ZSTD_CONTENTSIZE_UNKNOWN) {
        unknown = true;
      } else if (size > ZSTD_CONTENTSIZE_ERROR - 1 - total) {
        return ZSTD_CONTENTSIZE_ERROR;
      } else {
        total += size;
      }
    }
    size_t frame = ZSTD_findFrameCompressedSize(data.data(), data.size());
    if (ZSTD_isError(frame) || frame == 0 || frame > data.size()) return ZSTD_CONTENTSIZE_ERROR;
    data.remove_prefix(frame);
  }
  return unknown ? ZSTD_CONTENTSIZE_UNKNOWN : total;
}

}  // namespace

ZSTD_DCtx* thread_zstd_dctx() {
  struct Holder {
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    ~Holder() { ZSTD_freeDCtx(dctx); }
  };
  thread_local Holder holder;
  return holder.dctx;
}

Result<std::string> zstd_decompress(std::string_view data) {
  if (data.empty()) return invalid_data("zstd: empty input");
  ZSTD_DCtx* dctx = thread_zstd_dctx();
  if (!dctx) return Status(ErrorKind::kInternal, "zstd: cannot allocate a decompression context");

  // Sum of the declared sizes of all frames, if every frame declares one.
  unsigned long long total = zstd_total_content_size(data);
  if (total == ZSTD_CONTENTSIZE_ERROR) return invalid_data("zstd: corrupt or truncated frame");
  if (total != ZSTD_CONTENTSIZE_UNKNOWN && total <= kMaxTrustedContentSize) {
    std::string out(static_cast<size_t>(total), '\0');
    size_t n = ZSTD_decompressDCtx(dctx, out.data(), out.size(), data.data(), data.size());
    if (ZSTD_isError(n)) return invalid_data("zstd: corrupt data: {}", ZSTD_getErrorName(n));
    if (n != total) {
      return invalid_data("zstd: frames declare {} bytes but decode to {}", total, n);
    }
    return out;
  }
  ZSTD_DCtx_reset(dctx, ZSTD_reset_session_only);  // a stream cut short earlier left state
  return zstd_decompress_streaming(dctx, data);
}

// ---------------------------------------------------------------------------------------------
// raw deflate (libdeflate)

namespace {

struct CompressorDeleter {
  void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
};
struct DecompressorDeleter {
  void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};

}  // namespace

Result<std::string> deflate_raw_compress(std::string_view data, int level) {
  if (level < 0 || level > 12) {
    return invalid_argument("deflate: compression level {} is outside 0..12", level);
  }
  std::unique_ptr<libdeflate_compressor, CompressorDeleter> c(libdeflate_alloc_compressor(level));
  if (!c) return Status(ErrorKind::kInternal, "deflate: cannot allocate a compressor");
  std::string out(libdeflate_deflate_compress_bound(c.get(), data.size()), '\0');
  size_t n = libdeflate_deflate_compress(c.get(), data.data(), data.size(), out.data(), out.size());
  if (n == 0) return Status(ErrorKind::kInternal, "deflate: compression failed");
  out.resize(n);
  return out;
}

Result<std::string> deflate_raw_decompress(std::string_view data, size_t size_hint) {
  if (data.empty()) return invalid_data("deflate: empty input");
  std::unique_ptr<libdeflate_decompressor, DecompressorDeleter> d(libdeflate_alloc_decompressor());
  if (!d) return Status(ErrorKind::kInternal, "deflate: cannot allocate a decompressor");

  size_t capacity =
      size_hint > 0 ? std::min(size_hint, kMaxDecompressedSize) : initial_capacity(data.size(), 4);
  std::string out;
  while (true) {
    out.resize(capacity);
    size_t produced = 0;
    libdeflate_result rc = libdeflate_deflate_decompress(d.get(), data.data(), data.size(),
                                                         out.data(), out.size(), &produced);
    if (rc == LIBDEFLATE_SUCCESS) {
      out.resize(produced);
      return out;
    }
    if (rc != LIBDEFLATE_INSUFFICIENT_SPACE) {
      return invalid_data("deflate: corrupt or truncated data ({} input bytes)", data.size());
    }
    if (capacity >= kMaxDecompressedSize) return too_large("deflate");
    // Never retry with a buffer smaller than the one that just fell short.
    capacity = capacity > kMaxDecompressedSize / 2 ? kMaxDecompressedSize
                                                   : std::max(capacity * 2, kMinOutputBuffer);
  }
}

// ---------------------------------------------------------------------------------------------
// snappy

Result<std::string> snappy_compress(std::string_view data) {
  std::string out(snappy_max_compressed_length(data.size()), '\0');
  size_t n = out.size();
  if (::snappy_compress(data.data(), data.size(), out.data(), &n) != SNAPPY_OK) {
    return Status(ErrorKind::kInternal, "snappy: compression failed");
  }
  out.resize(n);
  return out;
}

Result<std::string> snappy_decompress(std::string_view data) {
  size_t length = 0;
  if (snappy_uncompressed_length(data.data(), data.size(), &length) != SNAPPY_OK) {
    return invalid_data("snappy: corrupt header (bad uncompressed length)");
  }
  if (length > kMaxDecompressedSize) return too_large("snappy");
  // Validation walks the whole block without writing, so a bad block never gets the
  // allocation its header asks for.
  if (snappy_validate_compressed_buffer(data.data(), data.size()) != SNAPPY_OK) {
    return invalid_data("snappy: corrupt or truncated data ({} input bytes)", data.size());
  }
  std::string out(length, '\0');
  size_t n = out.size();
  if (::snappy_uncompress(data.data(), data.size(), out.data(), &n) != SNAPPY_OK || n != length) {
    return invalid_data("snappy: corrupt data ({} input bytes)", data.size());
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// LZ4 block

Result<std::string> lz4_raw_compress(std::string_view data) {
  if (data.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) {
    return invalid_argument("lz4: input of {} bytes exceeds the block limit of {}", data.size(),
                            LZ4_MAX_INPUT_SIZE);
  }
  int src_size = static_cast<int>(data.size());
  std::string out(static_cast<size_t>(LZ4_compressBound(src_size)), '\0');
  int n = LZ4_compress_default(data.data(), out.data(), src_size, static_cast<int>(out.size()));
  if (n <= 0) return Status(ErrorKind::kInternal, "lz4: compression failed");
  out.resize(static_cast<size_t>(n));
  return out;
}

Result<std::string> lz4_raw_decompress(std::string_view data, size_t output_size) {
  if (data.empty() && output_size == 0) return std::string();
  if (data.empty()) return invalid_data("lz4: empty input, expected {} bytes", output_size);
  if (data.size() > static_cast<size_t>(INT_MAX)) {
    return invalid_data("lz4: block of {} bytes exceeds the 2 GiB limit", data.size());
  }
  // A sequence expands at most 255 times; a larger claim cannot be honest, so refuse it before
  // allocating.
  if (output_size > static_cast<size_t>(INT_MAX) || output_size / 255 > data.size() + 16) {
    return invalid_data("lz4: declared size {} is impossible for a {} byte block", output_size,
                        data.size());
  }
  std::string out(output_size, '\0');
  int n = LZ4_decompress_safe(data.data(), out.data(), static_cast<int>(data.size()),
                              static_cast<int>(output_size));
  if (n < 0) return invalid_data("lz4: corrupt or truncated data ({} input bytes)", data.size());
  if (static_cast<size_t>(n) != output_size) {
    return invalid_data("lz4: decoded {} bytes, expected {}", n, output_size);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

uint32_t crc32(std::string_view data, uint32_t crc) {
  uLong value = crc;
  const auto* p = reinterpret_cast<const Bytef*>(data.data());
  size_t left = data.size();
  while (left > 0) {
    size_t chunk = std::min(left, kMaxZlibChunk);
    value = ::crc32(value, p, static_cast<uInt>(chunk));
    p += chunk;
    left -= chunk;
  }
  return static_cast<uint32_t>(value);
}

}  // namespace floe
