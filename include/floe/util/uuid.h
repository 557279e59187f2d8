// UUIDs: the 16-byte value with its 8-4-4-4-12 text (Iceberg spec, Primitive Types: uuid), and
// random (version 4) UUIDs for table uuids, metadata file names and commit ids.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "floe/util/result.h"

namespace floe {

struct Uuid {
  std::array<uint8_t, 16> bytes{};  // big-endian (the order of the textual form)
  bool operator==(const Uuid&) const = default;
  auto operator<=>(const Uuid&) const = default;
  std::string to_string() const;  // lowercase 8-4-4-4-12
  static Result<Uuid> parse(std::string_view text);
};

// A random RFC 4122 version-4 UUID in lowercase 8-4-4-4-12 form. Thread-safe.
std::string random_uuid();

}  // namespace floe
