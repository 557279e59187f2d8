// Avro binary encoding. The Decoder is bounds-checked and never throws or over-reads: the first
// malformed value (bad varint, length past the end) sets a sticky error, every later read
// returns zero/empty, and the caller checks ok() once per record. The Encoder appends to a
// string it owns.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

// The decoder's hot readers are inlined into the schema-specialised loops that call them; g++
// at -O2 otherwise keeps the multi-byte varint path out of line.
#define FLOE_AVRO_INLINE [[gnu::always_inline]] inline

namespace floe::avro {

class Decoder {
 public:
  Decoder() = default;
  Decoder(const char* data, size_t size) { reset(data, size); }
  explicit Decoder(std::string_view data) { reset(data.data(), data.size()); }

  void reset(const char* data, size_t size) {
    begin_ = reinterpret_cast<const uint8_t*>(data);
    pos_ = begin_;
    end_ = begin_ + size;
    error_ = nullptr;
  }

  bool ok() const { return error_ == nullptr; }
  const char* error() const { return error_; }
  // Offset of the next byte (or of the failure) from the start of the buffer.
  size_t offset() const { return static_cast<size_t>(pos_ - begin_); }
  size_t error_offset() const { return error_offset_; }
  size_t remaining() const { return static_cast<size_t>(end_ - pos_); }
  bool at_end() const { return pos_ >= end_; }
  // Bytes [begin, end) of the buffer (offsets as returned by offset()).
  std::string_view slice(size_t begin, size_t end) const {
    return std::string_view(reinterpret_cast<const char*>(begin_) + begin, end - begin);
  }

  FLOE_AVRO_INLINE int64_t read_long() {
    // Fast path: a 1-byte varint.
    if (pos_ < end_ && *pos_ < 0x80) return unzigzag(*pos_++);
    // Up to 4 bytes (sizes, counts) away from the end of the buffer: no bounds check per byte.
    if (end_ - pos_ >= 10) {
      const uint8_t* p = pos_;
      uint64_t v = p[0] & 0x7f;
      uint64_t b = p[1];
      v |= (b & 0x7f) << 7;
      if (b < 0x80) return pos_ = p + 2, unzigzag(v);
      b = p[2];
      v |= (b & 0x7f) << 14;
      if (b < 0x80) return pos_ = p + 3, unzigzag(v);
      b = p[3];
      v |= (b & 0x7f) << 21;
      if (b < 0x80) return pos_ = p + 4, unzigzag(v);
    }
    return read_long_slow();
  }
  // Skips an int or long.
  FLOE_AVRO_INLINE void skip_long() {
    if (pos_ < end_ && *pos_ < 0x80) {
      ++pos_;
      return;
    }
    read_long();
  }
  FLOE_AVRO_INLINE int32_t read_int() {
    int64_t v = read_long();
    if (v < INT32_MIN || v > INT32_MAX) {
      fail("int out of range");
      return 0;
    }
    return static_cast<int32_t>(v);
  }
  bool read_bool() {
    if (pos_ >= end_) return fail("unexpected end of data"), false;
    uint8_t b = *pos_++;
    if (b > 1) return fail("invalid boolean"), false;
    return b == 1;
  }
  float read_float() {
    float f = 0;
    if (take(4)) std::memcpy(&f, pos_ - 4, 4);
    return f;
  }
  double read_double() {
    double d = 0;
    if (take(8)) std::memcpy(&d, pos_ - 8, 8);
    return d;
  }
  // bytes and string: a long length then the bytes. The view points into the buffer.
  FLOE_AVRO_INLINE std::string_view read_bytes() {
    int64_t n = read_long();
    if (n < 0) return fail("negative length"), std::string_view();
    if (static_cast<uint64_t>(n) > remaining()) {
      return fail("length past the end of the data"), std::string_view();
    }
    const char* p = reinterpret_cast<const char*>(pos_);
    pos_ += n;
    return std::string_view(p, static_cast<size_t>(n));
  }
  std::string_view read_fixed(size_t n) {
    if (!take(n)) return std::string_view();
    return std::string_view(reinterpret_cast<const char*>(pos_ - n), n);
  }
  void skip_bytes() { read_bytes(); }
  void skip_fixed(size_t n) { take(n); }
  // Array and map blocks: returns the item count of the next block (0 = end). A negative
  // count is followed by the block's byte size, which is read and ignored.
  FLOE_AVRO_INLINE int64_t read_block_count() {
    int64_t n = read_long();
    if (n < 0) {
      if (n == INT64_MIN) return fail("invalid block count"), 0;
      n = -n;
      int64_t bytes = read_long();
      if (bytes < 0) return fail("negative block size"), 0;
    }
    // Every item of a real schema takes at least one byte; zero-size items (null, empty
    // records) in counts beyond the remaining bytes are treated as corrupt to bound the work.
    if (static_cast<uint64_t>(n) > remaining())
      return fail("block count past the end of the data"), 0;
    return ok() ? n : 0;
  }

  // Marks the decoder failed (the first failure wins). Returns nothing useful.
  void fail(const char* what) {
    if (error_ == nullptr) {
      error_ = what;
      error_offset_ = offset();
    }
    pos_ = end_;
  }

 private:
  bool take(size_t n) {
    if (n > remaining()) {
      fail("unexpected end of data");
      return false;
    }
    pos_ += n;
    return true;
  }
  int64_t read_long_slow();
  static int64_t unzigzag(uint64_t v) { return static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1)); }

  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  const char* error_ = nullptr;
  size_t error_offset_ = 0;
};

class Encoder {
 public:
  std::string& buffer() { return buf_; }
  const std::string& buffer() const { return buf_; }
  size_t size() const { return buf_.size(); }
  void clear() { buf_.clear(); }

  void write_long(int64_t v) {
    uint64_t z = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
    char tmp[10];
    int n = 0;
    while (z >= 0x80) {
      tmp[n++] = static_cast<char>((z & 0x7f) | 0x80);
      z >>= 7;
    }
    tmp[n++] = static_cast<char>(z);
    buf_.append(tmp, n);
  }
  void write_int(int32_t v) { write_long(v); }
  void write_bool(bool v) { buf_.push_back(v ? 1 : 0); }
  void write_float(float v) {
    char tmp[4];
    std::memcpy(tmp, &v, 4);
    buf_.append(tmp, 4);
  }
  void write_double(double v) {
    char tmp[8];
    std::memcpy(tmp, &v, 8);
    buf_.append(tmp, 8);
  }
  void write_bytes(std::string_view v) {
    write_long(static_cast<int64_t>(v.size()));
    buf_.append(v);
  }
  void write_string(std::string_view v) { write_bytes(v); }
  void write_fixed(std::string_view v) { buf_.append(v); }
  // Union branch index.
  void write_branch(int index) { write_long(index); }

 private:
  std::string buf_;
};

}  // namespace floe::avro
