#include "floe/format/avro/binary.h"

namespace floe::avro {

int64_t Decoder::read_long_slow() {
  uint64_t v = 0;
  int shift = 0;
  while (true) {
    if (pos_ >= end_) {
      fail("truncated varint");
      return 0;
    }
    uint8_t b = *pos_++;
    // Bits past the 64th are dropped, as Java's decoder does: a hand-assembled fixture
    // (duckdb-iceberg equality_delete_extra_column) stores a snapshot id beyond int64.
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) break;
    shift += 7;
    if (shift > 63) {
      fail("varint longer than 10 bytes");
      return 0;
    }
  }
  return unzigzag(v);
}

}  // namespace floe::avro
