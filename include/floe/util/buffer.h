// Buffer: the byte buffer of column vectors, decoders and I/O. Large blocks are recycled
// through a small process-wide cache, so memory a reader or writer just dropped is handed to the
// next one already faulted in (on some VMs a fresh page costs 15-25 us: about 5 s per GB).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace floe {

// A growable, 64-byte aligned byte buffer that never zero-fills on resize (decoders write every
// byte they expose). Move-only.
class Buffer {
 public:
  Buffer() = default;
  ~Buffer();
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }

  // New bytes are uninitialised.
  void resize(size_t n) {
    if (n > capacity_) grow(n);
    size_ = n;
  }
  void reserve(size_t n) {
    if (n > capacity_) grow(n);
  }
  void clear() { size_ = 0; }
  void append(const void* p, size_t n) {
    size_t old = size_;
    resize(old + n);
    if (n) std::memcpy(data_ + old, p, n);
  }
  template <typename T>
  void push(T v) {
    append(&v, sizeof(T));
  }
  template <typename T>
  T* as() {
    return reinterpret_cast<T*>(data_);
  }
  template <typename T>
  const T* as() const {
    return reinterpret_cast<const T*>(data_);
  }

 private:
  void grow(size_t n);
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace floe
