#include "floe/util/uuid.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdint>
#include <mutex>
#include <random>

#include "floe/util/binary_text.h"

namespace floe {

std::string Uuid::to_string() const {
  std::string hex =
      hex_encode(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

Result<Uuid> Uuid::parse(std::string_view text) {
  Uuid out;
  if (text.size() != 36) return invalid_data("invalid uuid '{}': expected 36 characters", text);
  size_t b = 0;
  for (size_t i = 0; i < text.size();) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (text[i] != '-') return invalid_data("invalid uuid '{}': expected '-' at {}", text, i);
      ++i;
      continue;
    }
    int hi = hex_digit_value(text[i]);
    int lo = hex_digit_value(text[i + 1]);
    if (hi < 0 || lo < 0) return invalid_data("invalid uuid '{}': not a hex digit", text);
    out.bytes[b++] = static_cast<uint8_t>((hi << 4) | lo);
    i += 2;
  }
  return out;
}

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
