// The parts of a data page the Parquet writer encodes: repetition and definition levels (RLE
// with their 4-byte length prefix), PLAIN values and DELTA_BINARY_PACKED ints.
#include <cstring>

#include "format/parquet/encoding_internal.h"
#include "format/parquet/page_encoder_internal.h"

namespace floe::parquet::internal {

namespace {

void put_le32(uint32_t v, std::string* out) { out->append(reinterpret_cast<const char*>(&v), 4); }

}  // namespace

void encode_delta_binary(const ColumnVector& v, std::string* out) {
  if (v.value_width() == 4) {
    encode_delta_binary(v.raw<int32_t>(), v.length(), out);
  } else {
    encode_delta_binary(v.raw<int64_t>(), v.length(), out);
  }
}

// PLAIN encoding of dense values [b, e) of `v` for leaf `l`.
void encode_plain(const WLeaf& l, const ColumnVector& v, int64_t b, int64_t e, std::string* out) {
  switch (l.type->id()) {
    case TypeId::kBoolean: {
      size_t base = out->size();
      out->resize(base + static_cast<size_t>((e - b + 7) / 8), '\0');
      auto* o = reinterpret_cast<uint8_t*>(out->data() + base);
      const uint8_t* in = v.raw<uint8_t>();
      for (int64_t i = b; i < e; ++i) o[(i - b) >> 3] |= (in[i] & 1) << ((i - b) & 7);
      return;
    }
    case TypeId::kDecimal: {
      const uint8_t* in = v.values().data();
      for (int64_t i = b; i < e; ++i) {
        int128_t x;
        std::memcpy(&x, in + i * 16, 16);
        append_decimal(l, x, out);
      }
      return;
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      const int32_t* o = v.offsets().as<int32_t>();
      const char* d = reinterpret_cast<const char*>(v.data().data());
      size_t base = out->size();
      out->resize(base + static_cast<size_t>(e - b) * 4 + static_cast<size_t>(o[e] - o[b]));
      char* p = out->data() + base;
      for (int64_t i = b; i < e; ++i) {
        uint32_t len = static_cast<uint32_t>(o[i + 1] - o[i]);
        std::memcpy(p, &len, 4);
        if (len != 0) std::memcpy(p + 4, d + o[i], len);  // an empty column may have no bytes
        p += 4 + len;
      }
      return;
    }
    default: {
      int w = v.value_width();
      out->append(reinterpret_cast<const char*>(v.values().data()) + b * w,
                  static_cast<size_t>(e - b) * w);
      return;
    }
  }
}

void append_decimal(const WLeaf& l, int128_t x, std::string* out) {
  if (l.physical == PhysicalType::kInt32) {
    auto v = static_cast<int32_t>(x);
    out->append(reinterpret_cast<const char*>(&v), 4);
  } else if (l.physical == PhysicalType::kInt64) {
    auto v = static_cast<int64_t>(x);
    out->append(reinterpret_cast<const char*>(&v), 8);
  } else {
    auto u = static_cast<unsigned __int128>(x);
    char be[16];
    for (int k = 15; k >= 0; --k) {
      be[k] = static_cast<char>(u & 0xff);
      u >>= 8;
    }
    out->append(be + 16 - l.type_length, static_cast<size_t>(l.type_length));
  }
}

// Levels of a page that are all `level`: one RLE run with its 4-byte length prefix (bytes
// equal to what put_levels writes for them).
void put_level_run(int16_t level, int64_t n, std::string* out) {
  if (n < 8) {  // bit-packed
    std::vector<int16_t> levels(static_cast<size_t>(n), level);
    put_levels(levels.data(), n, level, out);
    return;
  }
  size_t at = out->size();
  put_le32(0, out);
  uint64_t header = static_cast<uint64_t>(n) << 1;
  while (header >= 0x80) {
    out->push_back(static_cast<char>((header & 0x7f) | 0x80));
    header >>= 7;
  }
  out->push_back(static_cast<char>(header));
  int bytes = (bit_width_of(static_cast<uint64_t>(level)) + 7) / 8;
  auto v = static_cast<uint16_t>(level);
  out->append(reinterpret_cast<const char*>(&v), static_cast<size_t>(bytes));
  uint32_t len = static_cast<uint32_t>(out->size() - at - 4);
  std::memcpy(out->data() + at, &len, 4);
}

// Levels of a page: RLE with a 4-byte length prefix.
void put_levels(const int16_t* levels, int64_t n, int16_t max, std::string* out) {
  size_t at = out->size();
  put_le32(0, out);
  encode_rle(levels, n, bit_width_of(static_cast<uint64_t>(max)), out);
  uint32_t len = static_cast<uint32_t>(out->size() - at - 4);
  std::memcpy(out->data() + at, &len, 4);
}

}  // namespace floe::parquet::internal
