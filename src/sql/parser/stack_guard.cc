#include <pthread.h>

#include <algorithm>
#include <cstdint>

#include "sql/parser/stack_guard_internal.h"

namespace floe::sql::internal {

namespace {

struct StackBounds {
  uintptr_t low = 0;  // lowest usable address (the stack grows down towards it)
  size_t reserve = 0;
};

StackBounds current_bounds() {
  StackBounds b;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return b;
  void* addr = nullptr;
  size_t size = 0;
  if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr != nullptr && size > 0) {
    b.low = reinterpret_cast<uintptr_t>(addr);
    b.reserve = std::min<size_t>(size / 4, size_t{512} << 10);
  }
  pthread_attr_destroy(&attr);
  return b;
}

const StackBounds& bounds() {
  thread_local const StackBounds b = current_bounds();
  return b;
}

}  // namespace

size_t stack_remaining() {
  const StackBounds& b = bounds();
  if (b.low == 0) return SIZE_MAX;
  auto sp = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return sp > b.low ? sp - b.low : 0;
}

bool stack_low() { return stack_remaining() < bounds().reserve; }

Status check_stack(std::string_view where) {
  if (!stack_low()) return Status::OK();
  return invalid_argument("expression too deeply nested {}: simplify it (fewer terms or levels)",
                          where);
}

}  // namespace floe::sql::internal
