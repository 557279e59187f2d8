#include "floe/util/uuid.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdint>
#include <mutex>
#include <random>

namespace floe {

std::string random_uuid() {
  static std::mutex mu;
  static std::mt19937_64 rng;
  static pid_t seeded_pid = 0;
  uint64_t hi, lo;
  {
    std::lock_guard<std::mutex> lock(mu);
    // Reseed after fork(): parent and child would otherwise produce the same UUIDs (and then
    // the same metadata file names).
    if (seeded_pid != ::getpid()) {
      std::random_device rd;
      std::seed_seq seq{rd(), rd(), rd(), rd(), rd(), rd(), rd(), rd()};
      rng.seed(seq);
      seeded_pid = ::getpid();
    }
    hi = rng();
    lo = rng();
  }
  hi = (hi & ~0xF000ULL) | 0x4000ULL;              // version 4
  lo = (lo & ~(0xC0ULL << 56)) | (0x80ULL << 56);  // RFC 4122 variant
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", hi >> 32, (hi >> 16) & 0xFFFF,
                     hi & 0xFFFF, lo >> 48, lo & 0xFFFFFFFFFFFFULL);
}

}  // namespace floe
