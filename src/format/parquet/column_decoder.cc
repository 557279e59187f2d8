#include <algorithm>

#include "floe/util/decimal.h"
#include "format/parquet/column_decoder_internal.h"
#include "format/parquet/encoding_internal.h"

namespace floe::parquet::internal {

namespace {

int physical_width(PhysicalType t, int type_length) {
  switch (t) {
    case PhysicalType::kBoolean:
      return 1;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat:
      return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      return 8;
    case PhysicalType::kInt96:
      return 12;
    case PhysicalType::kFixedLenByteArray:
      return type_length;
    case PhysicalType::kByteArray:
      return 0;
  }
  return 0;
}

TypePtr carrier_type(PhysicalType t, int type_length) {
  switch (t) {
    case PhysicalType::kBoolean:
      return Type::boolean();
    case PhysicalType::kInt32:
      return Type::int32();
    case PhysicalType::kInt64:
      return Type::int64();
    case PhysicalType::kInt96:
      return Type::fixed(12);
    case PhysicalType::kFloat:
      return Type::float32();
    case PhysicalType::kDouble:
      return Type::float64();
    case PhysicalType::kByteArray:
      return Type::binary();
    case PhysicalType::kFixedLenByteArray:
      return Type::fixed(type_length);
  }
  return Type::binary();
}

// Appends `count` fixed-width slots to dst and returns where they start.
uint8_t* grow_fixed(ColumnVector* dst, int64_t count, int width) {
  size_t old = dst->values().size();
  dst->values().resize(old + static_cast<size_t>(count) * width);
  dst->set_length(dst->length() + count);
  return dst->values().data() + old;
}

// Copies 32 bytes: short strings move with two vector stores instead of a memcpy call.
inline void copy32(uint8_t* dst, const uint8_t* src) {
  uint8_t tmp[32];
  std::memcpy(tmp, src, 32);
  std::memcpy(dst, tmp, 32);
}

template <int W>
void gather_fixed(const uint8_t* dict, const uint32_t* idx, int64_t n, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(out + i * W, dict + static_cast<size_t>(idx[i]) * W, W);
}

constexpr int64_t kJulianEpochDay = 2440588;
constexpr int64_t kMicrosPerDay = 86400000000LL;

}  // namespace

Status ColumnDecoder::decode_levels(Encoding enc, const uint8_t* p, size_t n, int16_t max_level,
                                    int64_t count, int16_t* out, size_t* consumed, bool prefixed) {
  int bw = bit_width_of(static_cast<uint64_t>(max_level));
  if (enc == Encoding::kRle) {
    size_t len = n;
    size_t skip = 0;
    if (prefixed) {
      if (n < 4) return invalid_data("truncated level data");
      len = load_le32(p);
      skip = 4;
      if (len > n - 4) return invalid_data("level data length {} past the page", len);
    }
    RleDecoder d(p + skip, len, bw);
    int64_t got = d.get(out, count);
    if (got != count) return invalid_data("level data holds {} of {} levels", got, count);
    for (int64_t i = 0; i < count; ++i) {
      if (static_cast<uint16_t>(out[i]) > static_cast<uint16_t>(max_level)) {
        return invalid_data("level {} above the maximum {}", out[i], max_level);
      }
    }
    *consumed = skip + len;
    return Status::OK();
  }
  if (enc == Encoding::kBitPacked) {
    // Deprecated BIT_PACKED levels: most significant bit first, no length prefix.
    size_t bytes = (static_cast<size_t>(count) * bw + 7) / 8;
    if (bytes > n) return invalid_data("truncated BIT_PACKED levels");
    for (int64_t i = 0; i < count; ++i) {
      int v = 0;
      for (int b = 0; b < bw; ++b) {
        size_t bit = static_cast<size_t>(i) * bw + b;
        v = (v << 1) | ((p[bit / 8] >> (7 - bit % 8)) & 1);
      }
      if (v > max_level) return invalid_data("level {} above the maximum {}", v, max_level);
      out[i] = static_cast<int16_t>(v);
    }
    *consumed = bytes;
    return Status::OK();
  }
  return not_supported("level encoding {}", encoding_name(enc));
}

Status ColumnDecoder::decode_plain(const uint8_t* p, size_t n, int64_t count, ColumnVector* dst) {
  const LeafSpec& s = *spec_;
  // Every PLAIN value takes at least one bit; this also bounds the allocations below.
  if (count < 0 || static_cast<uint64_t>(count) > static_cast<uint64_t>(n) * 8) {
    return invalid_data("page claims {} values in {} bytes", count, n);
  }
  switch (s.physical) {
    case PhysicalType::kBoolean: {
      if (static_cast<size_t>((count + 7) / 8) > n) return invalid_data("truncated PLAIN booleans");
      uint8_t* out = grow_fixed(dst, count, 1);
      for (int64_t i = 0; i < count; ++i) out[i] = (p[i >> 3] >> (i & 7)) & 1;
      return Status::OK();
    }
    case PhysicalType::kByteArray: {
      Buffer& offsets = dst->offsets();
      Buffer& data = dst->data();
      size_t base_off = offsets.size();
      offsets.resize(base_off + static_cast<size_t>(count) * 4);
      int32_t* o = reinterpret_cast<int32_t*>(offsets.data() + base_off);
      // The values take fewer bytes than the page: size the data once and copy short values
      // with fixed-size moves (both buffers have slack past their end).
      size_t start = data.size();
      data.resize(start + n);
      uint8_t* out = data.data() + start;
      size_t pos = 0, w = 0;
      for (int64_t i = 0; i < count; ++i) {
        if (n - pos < 4) return invalid_data("truncated PLAIN byte array");
        uint32_t len = load_le32(p + pos);
        pos += 4;
        if (len > n - pos) return invalid_data("PLAIN byte array length {} past the page", len);
        if (len <= 32 && n - pos >= 32) {
          copy32(out + w, p + pos);
        } else {
          std::memcpy(out + w, p + pos, len);
        }
        pos += len;
        w += len;
        o[i] = static_cast<int32_t>(start + w);
      }
      if (start + w > INT32_MAX) return not_supported("column chunk over 2 GiB of strings");
      data.resize(start + w);
      dst->set_length(dst->length() + count);
      return Status::OK();
    }
    default: {
      int w = physical_width(s.physical, s.type_length);
      size_t bytes = static_cast<size_t>(count) * w;
      if (bytes > n) return invalid_data("truncated PLAIN values ({} > {} bytes)", bytes, n);
      uint8_t* out = grow_fixed(dst, count, w);
      if (bytes != 0) std::memcpy(out, p, bytes);  // a page of no values may have no bytes
      return Status::OK();
    }
  }
}

Status ColumnDecoder::convert(const ColumnVector& src, ColumnVector* dst) {
  int64_t n = src.length();
  switch (spec_->conv) {
    case Conv::kNone:
      return Status(ErrorKind::kInternal, "convert without conversion");
    case Conv::kI32ToI64: {
      auto* o = reinterpret_cast<int64_t*>(grow_fixed(dst, n, 8));
      const int32_t* in = src.raw<int32_t>();
      for (int64_t i = 0; i < n; ++i) o[i] = in[i];
      return Status::OK();
    }
    case Conv::kU32ToI64: {
      auto* o = reinterpret_cast<int64_t*>(grow_fixed(dst, n, 8));
      const uint32_t* in = src.raw<uint32_t>();
      for (int64_t i = 0; i < n; ++i) o[i] = in[i];
      return Status::OK();
    }
    case Conv::kMillis32ToMicros: {
      auto* o = reinterpret_cast<int64_t*>(grow_fixed(dst, n, 8));
      const int32_t* in = src.raw<int32_t>();
      for (int64_t i = 0; i < n; ++i) o[i] = int64_t{in[i]} * 1000;
      return Status::OK();
    }
    case Conv::kMillisToMicros: {
      auto* o = reinterpret_cast<int64_t*>(grow_fixed(dst, n, 8));
      const int64_t* in = src.raw<int64_t>();
      bool overflow = false;
      for (int64_t i = 0; i < n; ++i) overflow |= __builtin_mul_overflow(in[i], 1000, &o[i]);
      if (overflow) {
        for (int64_t i = 0; i < n; ++i) {
          int64_t micros;
          if (__builtin_mul_overflow(in[i], 1000, &micros)) {
            return invalid_data("timestamp of {} milliseconds is out of the range of microseconds",
                                in[i]);
          }
        }
      }
      return Status::OK();
    }
    case Conv::kNanosToMicros: {
      auto* o = reinterpret_cast<int64_t*>(grow_fixed(dst, n, 8));
      const int64_t* in = src.raw<int64_t>();
      for (int64_t i = 0; i < n; ++i) {
        o[i] = in[i] / 1000 - (in[i] % 1000 < 0);  // floor, without negating INT64_MIN
      }
      return Status::OK();
    }
    case Conv::kInt96: {
      auto* o = reinterpret_cast<int64_t*>(grow_fixed(dst, n, 8));
      const uint8_t* in = src.values().data();
      for (int64_t i = 0; i < n; ++i) {
        int64_t nanos;
        int32_t day;
        std::memcpy(&nanos, in + i * 12, 8);
        std::memcpy(&day, in + i * 12 + 8, 4);
        int64_t micros_of_day = nanos >= 0 ? nanos / 1000 : -((-nanos + 999) / 1000);
        o[i] = (int64_t{day} - kJulianEpochDay) * kMicrosPerDay + micros_of_day;
      }
      return Status::OK();
    }
    case Conv::kI32ToDecimal: {
      auto* o = grow_fixed(dst, n, 16);
      const int32_t* in = src.raw<int32_t>();
      for (int64_t i = 0; i < n; ++i) {
        int128_t v = in[i];
        std::memcpy(o + i * 16, &v, 16);
      }
      return Status::OK();
    }
    case Conv::kI64ToDecimal: {
      auto* o = grow_fixed(dst, n, 16);
      const int64_t* in = src.raw<int64_t>();
      for (int64_t i = 0; i < n; ++i) {
        int128_t v = in[i];
        std::memcpy(o + i * 16, &v, 16);
      }
      return Status::OK();
    }
    case Conv::kBytesToDecimal: {
      auto* o = grow_fixed(dst, n, 16);
      for (int64_t i = 0; i < n; ++i) {
        std::string_view b = src.bytes_at(i);
        if (b.size() > 16) return invalid_data("decimal value of {} bytes", b.size());
        int128_t v = decimal_from_bytes(b);
        std::memcpy(o + i * 16, &v, 16);
      }
      return Status::OK();
    }
  }
  return Status::OK();
}

Status ColumnDecoder::decode_dictionary_page(const uint8_t* p, size_t n, int64_t count) {
  if (count < 0) return invalid_data("dictionary page with {} values", count);
  dict_ = ColumnVector::make(spec_->type);
  if (spec_->conv == Conv::kNone) {
    FLOE_TRY(decode_plain(p, n, count, dict_.get()));
  } else {
    scratch_->clear();
    FLOE_TRY(decode_plain(p, n, count, scratch_.get()));
    FLOE_TRY(convert(*scratch_, dict_.get()));
  }
  has_dict_ = true;
  return Status::OK();
}

Status ColumnDecoder::decode_values(Encoding enc, const uint8_t* p, size_t n, int64_t count,
                                    ColumnVector* out) {
  const LeafSpec& s = *spec_;
  if (enc == Encoding::kPlainDictionary || enc == Encoding::kRleDictionary) {
    if (!has_dict_) return invalid_data("dictionary-encoded page without a dictionary page");
    if (count == 0) return Status::OK();
    if (n < 1) return invalid_data("truncated dictionary indices");
    int bw = p[0];
    if (bw > 32) return invalid_data("dictionary index bit width {}", bw);
    indices_.resize(static_cast<size_t>(count));
    RleDecoder d(p + 1, n - 1, bw);
    if (d.get(indices_.data(), count) != count) return invalid_data("truncated dictionary indices");
    const ColumnVector& dict = *dict_;
    uint32_t dict_size = static_cast<uint32_t>(dict.length());
    uint32_t bad = 0;
    for (int64_t i = 0; i < count; ++i) bad |= indices_[i] >= dict_size;
    if (bad) return invalid_data("dictionary index out of range (dictionary has {})", dict_size);
    int w = dict.value_width();
    if (w > 0) {
      uint8_t* o = grow_fixed(out, count, w);
      const uint8_t* dv = dict.values().data();
      switch (w) {
        case 1:
          for (int64_t i = 0; i < count; ++i) o[i] = dv[indices_[i]];
          break;
        case 4:
          gather_fixed<4>(dv, indices_.data(), count, o);
          break;
        case 8:
          gather_fixed<8>(dv, indices_.data(), count, o);
          break;
        case 16:
          gather_fixed<16>(dv, indices_.data(), count, o);
          break;
        default:
          for (int64_t i = 0; i < count; ++i) {
            std::memcpy(o + i * w, dv + static_cast<size_t>(indices_[i]) * w, w);
          }
      }
      return Status::OK();
    }
    const int32_t* doff = dict.offsets().as<int32_t>();
    const uint8_t* dd = dict.data().data();
    Buffer& offsets = out->offsets();
    size_t base_off = offsets.size();
    offsets.resize(base_off + static_cast<size_t>(count) * 4);
    int32_t* o = reinterpret_cast<int32_t*>(offsets.data() + base_off);
    int64_t total = static_cast<int64_t>(out->data().size());
    int64_t bytes = 0;
    for (int64_t i = 0; i < count; ++i) bytes += doff[indices_[i] + 1] - doff[indices_[i]];
    if (total + bytes > INT32_MAX) return not_supported("column chunk over 2 GiB of strings");
    Buffer& data = out->data();
    data.resize(static_cast<size_t>(total + bytes));
    uint8_t* dst = data.data();
    // Dictionary values are read up to 32 bytes past their end: the dictionary's buffer has the
    // slack, and so does the output.
    bool fast = dict.data().capacity() > 0 && data.capacity() > 0;
    for (int64_t i = 0; i < count; ++i) {
      uint32_t k = indices_[i];
      int32_t len = doff[k + 1] - doff[k];
      if (len <= 32 && fast) {
        copy32(dst + total, dd + doff[k]);
      } else {
        std::memcpy(dst + total, dd + doff[k], static_cast<size_t>(len));
      }
      total += len;
      o[i] = static_cast<int32_t>(total);
    }
    out->set_length(out->length() + count);
    return Status::OK();
  }

  ColumnVector* dst = out;
  if (s.conv != Conv::kNone) {
    scratch_->clear();
    dst = scratch_.get();
  }
  switch (enc) {
    case Encoding::kPlain:
      FLOE_TRY(decode_plain(p, n, count, dst));
      break;
    case Encoding::kRle: {
      if (s.physical != PhysicalType::kBoolean) return invalid_data("RLE values on a non-boolean");
      if (n < 4) return invalid_data("truncated RLE booleans");
      uint32_t len = load_le32(p);
      if (len > n - 4) return invalid_data("RLE boolean length past the page");
      RleDecoder d(p + 4, len, 1);
      uint8_t* o = grow_fixed(dst, count, 1);
      if (d.get(o, count) != count) return invalid_data("truncated RLE booleans");
      break;
    }
    case Encoding::kDeltaBinaryPacked: {
      size_t used;
      FLOE_TRY(decode_delta_binary(p, n, &delta_, &used));
      if (static_cast<int64_t>(delta_.size()) < count) {
        return invalid_data("DELTA_BINARY_PACKED holds {} of {} values", delta_.size(), count);
      }
      if (s.physical == PhysicalType::kInt32) {
        auto* o = reinterpret_cast<int32_t*>(grow_fixed(dst, count, 4));
        for (int64_t i = 0; i < count; ++i) o[i] = static_cast<int32_t>(delta_[i]);
      } else if (s.physical == PhysicalType::kInt64) {
        uint8_t* out = grow_fixed(dst, count, 8);
        if (count != 0) std::memcpy(out, delta_.data(), static_cast<size_t>(count) * 8);
      } else {
        return invalid_data("DELTA_BINARY_PACKED on {}", physical_type_name(s.physical));
      }
      break;
    }
    case Encoding::kDeltaLengthByteArray:
    case Encoding::kDeltaByteArray: {
      bool prefixed = enc == Encoding::kDeltaByteArray;
      size_t used = 0, used2 = 0;
      if (prefixed) {
        FLOE_TRY(decode_delta_binary(p, n, &delta2_, &used2));  // prefix lengths
      }
      FLOE_TRY(decode_delta_binary(p + used2, n - used2, &delta_, &used));  // (suffix) lengths
      if (static_cast<int64_t>(delta_.size()) < count ||
          (prefixed && static_cast<int64_t>(delta2_.size()) < count)) {
        return invalid_data("delta byte array holds fewer than {} values", count);
      }
      const uint8_t* q = p + used2 + used;
      size_t left = n - used2 - used;
      int w = physical_width(s.physical, s.type_length);
      std::string prev;
      for (int64_t i = 0; i < count; ++i) {
        int64_t plen = prefixed ? delta2_[i] : 0;
        int64_t slen = delta_[i];
        if (plen < 0 || slen < 0 || static_cast<size_t>(plen) > prev.size() ||
            static_cast<size_t>(slen) > left) {
          return invalid_data("bad delta byte array lengths");
        }
        if (prefixed) {
          prev.resize(static_cast<size_t>(plen));
          prev.append(reinterpret_cast<const char*>(q), static_cast<size_t>(slen));
        } else {
          prev.assign(reinterpret_cast<const char*>(q), static_cast<size_t>(slen));
        }
        q += slen;
        left -= static_cast<size_t>(slen);
        if (w > 0) {
          if (prev.size() != static_cast<size_t>(w))
            return invalid_data("fixed value of wrong length");
          std::memcpy(grow_fixed(dst, 1, w), prev.data(), static_cast<size_t>(w));
        } else {
          dst->data().append(prev.data(), prev.size());
          if (dst->data().size() > INT32_MAX) return not_supported("column chunk over 2 GiB");
          dst->offsets().push<int32_t>(static_cast<int32_t>(dst->data().size()));
          dst->set_length(dst->length() + 1);
        }
      }
      break;
    }
    case Encoding::kByteStreamSplit: {
      int w = physical_width(s.physical, s.type_length);
      if (w <= 0 || s.physical == PhysicalType::kBoolean) {
        return invalid_data("BYTE_STREAM_SPLIT on {}", physical_type_name(s.physical));
      }
      size_t bytes = static_cast<size_t>(count) * w;
      if (bytes > n) return invalid_data("truncated BYTE_STREAM_SPLIT values");
      // The streams are sized by the page's value count, which may exceed `count` only if
      // the page holds extra bytes; use the real stream length.
      size_t stream = n / static_cast<size_t>(w);
      uint8_t* o = grow_fixed(dst, count, w);
      for (int b = 0; b < w; ++b) {
        const uint8_t* src = p + static_cast<size_t>(b) * stream;
        for (int64_t i = 0; i < count; ++i) o[i * w + b] = src[i];
      }
      break;
    }
    default:
      return not_supported("Parquet encoding {}", encoding_name(enc));
  }
  if (dst != out) FLOE_TRY(convert(*dst, out));
  return Status::OK();
}

Status ColumnDecoder::start(const LeafSpec& spec, const ColumnMetaData& meta,
                            std::string_view chunk) {
  spec_ = &spec;
  meta_ = &meta;
  chunk_ = chunk;
  pos_ = 0;
  seen_ = 0;
  has_dict_ = false;
  shared_dict_.reset();
  TypePtr carrier = carrier_type(spec.physical, spec.type_length);
  if (!scratch_ || !scratch_->type()->equals(*carrier)) scratch_ = ColumnVector::make(carrier);
  if (!kept_ || !kept_->type()->equals(*spec.type)) kept_ = ColumnVector::make(spec.type);
  kept_->clear();
  kept_entry_ = kept_entries_ = kept_value_ = 0;
  kept_implicit_ = false;
  if (meta.num_values < 0) return invalid_data("negative value count");
  return Status::OK();
}

Status ColumnDecoder::decode(const LeafSpec& spec, const ColumnMetaData& meta,
                             std::string_view chunk, ColumnVector* out, std::vector<int16_t>* defs,
                             std::vector<int16_t>* reps) {
  FLOE_TRY(start(spec, meta, chunk));
  return next(-1, out, defs, reps);
}

namespace {

// Appends the dense values [b, b + n) of src to dst (same type).
void append_values(const ColumnVector& src, int64_t b, int64_t n, ColumnVector* dst) {
  if (n == 0) return;
  int w = src.value_width();
  if (w > 0) {
    std::memcpy(grow_fixed(dst, n, w), src.values().data() + static_cast<size_t>(b) * w,
                static_cast<size_t>(n) * w);
    return;
  }
  const int32_t* so = src.offsets().as<int32_t>();
  Buffer& offsets = dst->offsets();
  Buffer& data = dst->data();
  int32_t base = static_cast<int32_t>(data.size()) - so[b];
  data.append(src.data().data() + so[b], static_cast<size_t>(so[b + n] - so[b]));
  size_t old = offsets.size();
  offsets.resize(old + static_cast<size_t>(n) * 4);
  int32_t* o = reinterpret_cast<int32_t*>(offsets.data() + old);
  for (int64_t i = 0; i < n; ++i) o[i] = so[b + i + 1] + base;
  dst->set_length(dst->length() + n);
}

// Drops the last n dense values of col.
void drop_values(ColumnVector* col, int64_t n) {
  int64_t len = col->length() - n;
  int w = col->value_width();
  if (w > 0) {
    col->values().resize(static_cast<size_t>(len) * w);
  } else {
    col->data().resize(static_cast<size_t>(col->offsets().as<int32_t>()[len]));
    col->offsets().resize(static_cast<size_t>(len + 1) * 4);
  }
  col->set_length(len);
}

// Whether the RLE/bit-packed hybrid levels [p, p + n) start with `count` levels all equal to
// `level` (read without writing them out).
bool levels_all_at(const uint8_t* p, size_t n, int bit_width, int16_t level, int64_t count) {
  RleDecoder d(p, n, bit_width);
  int16_t scratch[512];
  while (count > 0) {
    bool repeated = false;
    int16_t value = 0;
    int64_t k = d.next_stretch(scratch, std::min<int64_t>(count, 512), &repeated, &value);
    if (k == 0) return false;
    if (repeated) {
      if (value != level) return false;
    } else {
      int16_t bad = 0;
      for (int64_t i = 0; i < k; ++i) bad |= static_cast<int16_t>(scratch[i] ^ level);
      if (bad != 0) return false;
    }
    count -= k;
  }
  return true;
}

int64_t count_at(const int16_t* levels, int64_t b, int64_t e, int16_t level) {
  int64_t c = 0;
  for (int64_t i = b; i < e; ++i) c += levels[i] == level;
  return c;
}

}  // namespace

bool ColumnDecoder::take_kept(int64_t rows, int64_t* started, ColumnVector* out,
                              std::vector<int16_t>* defs, std::vector<int16_t>* reps,
                              int64_t* implicit) {
  const LeafSpec& s = *spec_;
  int64_t b = kept_entry_, e = kept_entries_, cut = e;
  bool complete = false;
  if (s.max_rep == 0) {
    if (rows >= 0 && rows - *started < e - b) cut = b + (rows - *started);
    *started += cut - b;
    complete = rows >= 0 && *started == rows;
  } else {
    for (int64_t i = b; i < e; ++i) {
      if (kept_reps_[static_cast<size_t>(i)] != 0) continue;
      if (rows >= 0 && *started == rows) {
        cut = i;
        complete = true;
        break;
      }
      ++*started;
    }
  }
  int64_t nv =
      s.max_def == 0 || kept_implicit_ ? cut - b : count_at(kept_defs_.data(), b, cut, s.max_def);
  append_values(*kept_, kept_value_, nv, out);
  if (s.max_def > 0 && kept_implicit_) {
    if (defs->empty()) {
      *implicit += cut - b;
    } else {
      defs->insert(defs->end(), static_cast<size_t>(cut - b), s.max_def);
    }
  } else if (s.max_def > 0) {
    if (*implicit > 0) {
      defs->assign(static_cast<size_t>(*implicit), s.max_def);
      *implicit = 0;
    }
    defs->insert(defs->end(), kept_defs_.begin() + b, kept_defs_.begin() + cut);
  }
  if (s.max_rep > 0) reps->insert(reps->end(), kept_reps_.begin() + b, kept_reps_.begin() + cut);
  kept_entry_ = cut;
  kept_value_ += nv;
  return complete;
}

void ColumnDecoder::keep_tail(int64_t end, int64_t cut, ColumnVector* out,
                              std::vector<int16_t>* defs, std::vector<int16_t>* reps,
                              int64_t* implicit) {
  const LeafSpec& s = *spec_;
  int64_t t = end - cut;
  // Implicit levels: every entry so far is at the max, none written out.
  bool none_written = s.max_def > 0 && *implicit > 0;
  int64_t tv = s.max_def == 0 || none_written ? t : count_at(defs->data(), cut, end, s.max_def);
  kept_->clear();
  append_values(*out, out->length() - tv, tv, kept_.get());
  drop_values(out, tv);
  kept_defs_.clear();
  kept_reps_.clear();
  kept_implicit_ = none_written;
  if (none_written) {
    *implicit = cut;
  } else if (s.max_def > 0) {
    kept_defs_.assign(defs->begin() + cut, defs->begin() + end);
    defs->resize(static_cast<size_t>(cut));
  }
  if (s.max_rep > 0) {
    kept_reps_.assign(reps->begin() + cut, reps->begin() + end);
    reps->resize(static_cast<size_t>(cut));
  }
  kept_entry_ = 0;
  kept_entries_ = t;
  kept_value_ = 0;
}

Status ColumnDecoder::next(int64_t rows, ColumnVector* out, std::vector<int16_t>* defs,
                           std::vector<int16_t>* reps) {
  const LeafSpec& spec = *spec_;
  const ColumnMetaData& meta = *meta_;
  defs->clear();
  reps->clear();
  if (rows == 0) return Status::OK();
  const bool all = rows < 0;
  int64_t total = meta.num_values;
  // Size the output once: growing page by page would copy (and page-fault) it repeatedly.
  int64_t entries_left = total - seen_ + (kept_entries_ - kept_entry_);
  int64_t expect = all || spec.max_rep > 0 ? entries_left : std::min(rows, entries_left);
  int width = out->value_width();
  if (width > 0) {
    out->values().reserve(out->values().size() + static_cast<size_t>(expect) * width);
  } else if (!out->offsets().empty()) {
    out->offsets().reserve(out->offsets().size() + static_cast<size_t>(expect) * 4);
    int64_t bytes = std::max<int64_t>(0, meta.total_uncompressed_size);
    if (total > 0 && expect < total)
      bytes = bytes / total * expect + bytes % total * expect / total;
    out->data().reserve(out->data().size() + static_cast<size_t>(bytes));
  }
  if (spec.max_def > 0) defs->reserve(static_cast<size_t>(expect));
  if (spec.max_rep > 0) reps->reserve(static_cast<size_t>(expect));
  int64_t started = 0;
  // Leading entries whose definition levels are all at the max and not written out: while no
  // page with nulls has come, defs stay empty.
  int64_t implicit = 0;
  if (kept_entry_ < kept_entries_ && take_kept(rows, &started, out, defs, reps, &implicit)) {
    return Status::OK();
  }
  int64_t in_out = spec.max_def > 0   ? static_cast<int64_t>(defs->size()) + implicit
                   : spec.max_rep > 0 ? static_cast<int64_t>(reps->size())
                                      : started;
  while (true) {
    int64_t n = 0;
    FLOE_TRY(decode_page(out, defs, reps, &n, &implicit));
    if (n == 0) {  // the end of the chunk
      if (seen_ != total) {
        return invalid_data("column chunk holds {} of its {} values", seen_, total);
      }
      if (!all && started < rows) {
        return invalid_data("column chunk holds {} rows, {} more were expected", started,
                            rows - started);
      }
      return Status::OK();
    }
    int64_t first = in_out;
    in_out += n;
    if (spec.max_rep == 0) {
      if (!all && n > rows - started) {
        keep_tail(in_out, first + (rows - started), out, defs, reps, &implicit);
        return Status::OK();
      }
      started += n;
      if (!all && started == rows) return Status::OK();
    } else {
      const int16_t* r = reps->data();
      for (int64_t i = first; i < in_out; ++i) {
        if (r[i] != 0) continue;
        if (!all && started == rows) {
          keep_tail(in_out, i, out, defs, reps, &implicit);
          return Status::OK();
        }
        ++started;
      }
    }
  }
}

Status ColumnDecoder::load_dictionary(const PageHeader& h, const uint8_t* body, size_t body_size) {
  if (!h.dictionary_page_header) return invalid_data("dictionary page without its header");
  size_t at = static_cast<size_t>(body - reinterpret_cast<const uint8_t*>(chunk_.data()));
  dict_body_ = at;
  if (shared_dict_ && shared_dict_body_ == at) {
    dict_ = shared_dict_;
    has_dict_ = true;
    ++dictionary_generation_;
    return Status::OK();
  }
  page_.resize(static_cast<size_t>(h.uncompressed_page_size));
  FLOE_TRY(codec_.decompress(meta_->codec, body, body_size, page_.data(), page_.size()));
  FLOE_TRY(
      decode_dictionary_page(page_.data(), page_.size(), h.dictionary_page_header->num_values));
  ++dictionary_generation_;
  return Status::OK();
}

Status ColumnDecoder::next_data_page(int64_t skip_up_to, DataPage* page) {
  const ColumnMetaData& meta = *meta_;
  std::string_view chunk = chunk_;
  const int64_t total = meta.num_values;
  const auto* base = reinterpret_cast<const uint8_t*>(chunk.data());
  *page = DataPage{};
  while (seen_ < total && pos_ < chunk.size()) {
    PageHeader h;
    size_t hsize = 0;
    FLOE_TRY(decode_page_header(chunk.substr(pos_), &h, &hsize));
    size_t pos = pos_ + hsize;
    if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0 ||
        static_cast<size_t>(h.compressed_page_size) > chunk.size() - pos) {
      return invalid_data("page of {} bytes runs past the column chunk ({} bytes left)",
                          h.compressed_page_size, chunk.size() - pos);
    }
    const uint8_t* body = base + pos;
    size_t body_size = static_cast<size_t>(h.compressed_page_size);
    pos_ = pos + body_size;
    if (h.type == PageType::kDictionaryPage) {
      FLOE_TRY(load_dictionary(h, body, body_size));
      continue;
    }
    if (h.type != PageType::kDataPage && h.type != PageType::kDataPageV2) continue;
    bool v2 = h.type == PageType::kDataPageV2;
    if (!v2 && !h.data_page_header) return invalid_data("data page without its header");
    if (v2 && !h.data_page_header_v2) return invalid_data("data page v2 without its header");
    int64_t nvals = v2 ? h.data_page_header_v2->num_values : h.data_page_header->num_values;
    if (nvals < 0 || nvals > total - seen_) {
      return invalid_data("page holds {} values, the chunk only {} more", nvals, total - seen_);
    }
    if (nvals == 0) continue;
    page->values = nvals;
    page->v2 = v2;
    if (nvals <= skip_up_to) {
      // Passed over from its header alone: nothing is decompressed.
      page->skipped = true;
      seen_ += nvals;
      return Status::OK();
    }
    if (!v2) {
      page->encoding = h.data_page_header->encoding;
      page->def_encoding = h.data_page_header->definition_level_encoding;
      page->rep_encoding = h.data_page_header->repetition_level_encoding;
      if (meta.codec == Codec::kUncompressed) {
        // Decoded straight from the chunk (decoders stay inside [p, p + n)).
        if (body_size != static_cast<size_t>(h.uncompressed_page_size)) {
          return invalid_data("uncompressed page has {} bytes, header says {}", body_size,
                              h.uncompressed_page_size);
        }
        page->p = body;
        page->n = body_size;
      } else {
        page_.resize(static_cast<size_t>(h.uncompressed_page_size));
        FLOE_TRY(codec_.decompress(meta.codec, body, body_size, page_.data(), page_.size()));
        page->p = page_.data();
        page->n = page_.size();
      }
    } else {
      const auto& d = *h.data_page_header_v2;
      page->encoding = d.encoding;
      if (d.repetition_levels_byte_length < 0 || d.definition_levels_byte_length < 0 ||
          static_cast<size_t>(d.repetition_levels_byte_length) +
                  static_cast<size_t>(d.definition_levels_byte_length) >
              body_size ||
          d.repetition_levels_byte_length + d.definition_levels_byte_length >
              h.uncompressed_page_size) {
        return invalid_data("data page v2 level lengths past the page");
      }
      page->rep_bytes = static_cast<size_t>(d.repetition_levels_byte_length);
      page->def_bytes = static_cast<size_t>(d.definition_levels_byte_length);
      page->level_base = body;
      size_t lv = page->rep_bytes + page->def_bytes;
      size_t usize = static_cast<size_t>(h.uncompressed_page_size) - lv;
      if (d.is_compressed && meta.codec != Codec::kUncompressed) {
        page_.resize(usize);
        FLOE_TRY(codec_.decompress(meta.codec, body + lv, body_size - lv, page_.data(), usize));
        page->p = page_.data();
        page->n = page_.size();
      } else {
        if (body_size - lv != usize) return invalid_data("data page v2 size mismatch");
        page->p = body + lv;
        page->n = usize;
      }
    }
    seen_ += nvals;
    return Status::OK();
  }
  return Status::OK();
}

Status ColumnDecoder::decode_page_levels(DataPage* pg, std::vector<int16_t>* defs,
                                         std::vector<int16_t>* reps, int64_t* present,
                                         int64_t* implicit) {
  const LeafSpec& spec = *spec_;
  const int64_t nvals = pg->values;
  *present = nvals;
  if (implicit && spec.max_rep == 0 && spec.max_def > 0) {
    // A page without nulls, in a batch without them so far, adds no definition levels.
    const uint8_t* lp = nullptr;
    size_t ln = 0, used = 0;
    if (pg->v2) {
      lp = pg->level_base + pg->rep_bytes;
      ln = pg->def_bytes;
    } else if (pg->def_encoding == Encoding::kRle && pg->n >= 4 && load_le32(pg->p) <= pg->n - 4) {
      lp = pg->p + 4;
      ln = load_le32(pg->p);
      used = 4 + ln;
    }
    int bw = bit_width_of(static_cast<uint64_t>(spec.max_def));
    if (lp && defs->empty() && levels_all_at(lp, ln, bw, spec.max_def, nvals)) {
      *implicit += nvals;
      pg->p += used;
      pg->n -= used;
      return Status::OK();
    }
    if (*implicit > 0) {
      defs->assign(static_cast<size_t>(*implicit), spec.max_def);
      *implicit = 0;
    }
  }
  if (spec.max_rep > 0) {
    size_t old = reps->size();
    reps->resize(old + static_cast<size_t>(nvals));
    size_t used;
    if (pg->v2) {
      FLOE_TRY(decode_levels(Encoding::kRle, pg->level_base, pg->rep_bytes, spec.max_rep, nvals,
                             reps->data() + old, &used, false));
    } else {
      FLOE_TRY(decode_levels(pg->rep_encoding, pg->p, pg->n, spec.max_rep, nvals,
                             reps->data() + old, &used, true));
      pg->p += used;
      pg->n -= used;
    }
  }
  if (spec.max_def > 0) {
    size_t old = defs->size();
    defs->resize(old + static_cast<size_t>(nvals));
    size_t used;
    if (pg->v2) {
      FLOE_TRY(decode_levels(Encoding::kRle, pg->level_base + pg->rep_bytes, pg->def_bytes,
                             spec.max_def, nvals, defs->data() + old, &used, false));
    } else {
      FLOE_TRY(decode_levels(pg->def_encoding, pg->p, pg->n, spec.max_def, nvals,
                             defs->data() + old, &used, true));
      pg->p += used;
      pg->n -= used;
    }
    *present = count_at(defs->data(), static_cast<int64_t>(old), static_cast<int64_t>(old) + nvals,
                        spec.max_def);
  }
  return Status::OK();
}

Status ColumnDecoder::decode_page(ColumnVector* out, std::vector<int16_t>* defs,
                                  std::vector<int16_t>* reps, int64_t* entries, int64_t* implicit) {
  *entries = 0;
  DataPage pg;
  FLOE_TRY(next_data_page(0, &pg));
  if (pg.values == 0) return Status::OK();
  int64_t present;
  FLOE_TRY(decode_page_levels(&pg, defs, reps, &present, implicit));
  FLOE_TRY(decode_values(pg.encoding, pg.p, pg.n, present, out));
  *entries = pg.values;
  return Status::OK();
}

Status ColumnDecoder::skip(int64_t rows) {
  const LeafSpec& spec = *spec_;
  if (spec.max_rep > 0) return Status(ErrorKind::kInternal, "skip on a repeated column");
  int64_t k = std::min(rows, kept_entries_ - kept_entry_);
  if (k > 0) {
    kept_value_ += spec.max_def == 0 || kept_implicit_
                       ? k
                       : count_at(kept_defs_.data(), kept_entry_, kept_entry_ + k, spec.max_def);
    kept_entry_ += k;
    rows -= k;
  }
  while (rows > 0) {
    DataPage pg;
    FLOE_TRY(next_data_page(rows, &pg));
    if (pg.values == 0) {
      return invalid_data("column chunk ends {} rows before the rows skipped", rows);
    }
    if (pg.skipped) {
      rows -= pg.values;
      continue;
    }
    // The page runs past the skipped rows: decode it and keep the rows after them.
    if (!skipped_ || !skipped_->type()->equals(*spec.type))
      skipped_ = ColumnVector::make(spec.type);
    skipped_->clear();
    skip_defs_.clear();
    skip_reps_.clear();
    int64_t present, implicit = 0;
    FLOE_TRY(decode_page_levels(&pg, &skip_defs_, &skip_reps_, &present, &implicit));
    FLOE_TRY(decode_values(pg.encoding, pg.p, pg.n, present, skipped_.get()));
    keep_tail(pg.values, rows, skipped_.get(), &skip_defs_, &skip_reps_, &implicit);
    rows = 0;
  }
  return Status::OK();
}

namespace {

// Appends a run, merged with the last one when it has the same code.
inline void add_run(std::vector<ColumnDecoder::Run>* runs, uint32_t code, int64_t rows) {
  if (!runs->empty() && runs->back().code == code) {
    runs->back().rows += static_cast<uint32_t>(rows);
  } else {
    runs->push_back({code, static_cast<uint32_t>(rows)});
  }
}

}  // namespace

Status ColumnDecoder::next_runs(std::vector<Run>* runs, int64_t* rows) {
  const LeafSpec& spec = *spec_;
  runs->clear();
  *rows = 0;
  if (spec.max_rep > 0 || spec.physical != PhysicalType::kByteArray) {
    return Status(ErrorKind::kInternal, "next_runs on a repeated or non-BYTE_ARRAY column");
  }
  DataPage pg;
  FLOE_TRY(next_data_page(0, &pg));
  if (pg.values == 0) {
    if (seen_ != meta_->num_values) {
      return invalid_data("column chunk holds {} of its {} values", seen_, meta_->num_values);
    }
    return Status::OK();
  }
  run_defs_.clear();
  int64_t present;
  FLOE_TRY(decode_page_levels(&pg, &run_defs_, &run_reps_, &present));
  const bool nullable = spec.max_def > 0;
  if (pg.encoding == Encoding::kPlainDictionary || pg.encoding == Encoding::kRleDictionary) {
    if (!has_dict_) return invalid_data("dictionary-encoded page without a dictionary page");
    const uint32_t dict_size = static_cast<uint32_t>(dict_->length());
    uint32_t max_code = 0;
    if (present > 0) {
      if (pg.n < 1) return invalid_data("truncated dictionary indices");
      int bw = pg.p[0];
      if (bw > 32) return invalid_data("dictionary index bit width {}", bw);
      RleDecoder d(pg.p + 1, pg.n - 1, bw);
      if (!nullable) {
        // Runs straight from the RLE stream: a repeated run is one Run whatever its length;
        // bit-packed indices are unpacked a stretch at a time and equal neighbours merged.
        constexpr int64_t kStretch = 1024;
        indices_.resize(kStretch);
        for (int64_t left = present; left > 0;) {
          bool repeated = false;
          uint32_t v = 0;
          int64_t k = d.next_stretch(indices_.data(), std::min(left, kStretch), &repeated, &v);
          if (k == 0) return invalid_data("truncated dictionary indices");
          if (repeated) {
            max_code = std::max(max_code, v);
            add_run(runs, v, k);
          } else {
            for (int64_t i = 0; i < k; ++i) {
              max_code = std::max(max_code, indices_[i]);
              add_run(runs, indices_[i], 1);
            }
          }
          left -= k;
        }
      } else {
        indices_.resize(static_cast<size_t>(present));
        if (d.get(indices_.data(), present) != present) {
          return invalid_data("truncated dictionary indices");
        }
      }
    }
    if (nullable) {
      const int16_t* defs = run_defs_.data();
      int64_t j = 0;
      for (int64_t i = 0; i < pg.values; ++i) {
        if (defs[i] == spec.max_def) {
          uint32_t v = indices_[static_cast<size_t>(j++)];
          max_code = std::max(max_code, v);
          add_run(runs, v, 1);
        } else {
          add_run(runs, kNull, 1);
        }
      }
    }
    if (present > 0 && max_code >= dict_size) {
      return invalid_data("dictionary index out of range (dictionary has {})", dict_size);
    }
  } else {
    // Another encoding (PLAIN after a dictionary fallback, delta strings): the generic decode,
    // then runs of equal neighbouring values, each naming its first value.
    if (!plain_ || !plain_->type()->equals(*spec.type)) plain_ = ColumnVector::make(spec.type);
    plain_->clear();
    FLOE_TRY(decode_values(pg.encoding, pg.p, pg.n, present, plain_.get()));
    const ColumnVector& vals = *plain_;
    const int16_t* defs = nullable ? run_defs_.data() : nullptr;
    int64_t j = 0;
    int64_t first = -1;  // the value the current plain run names
    for (int64_t i = 0; i < pg.values; ++i) {
      if (defs && defs[i] != spec.max_def) {
        add_run(runs, kNull, 1);
        continue;
      }
      if (first >= 0 && runs->back().code == (kPlain | static_cast<uint32_t>(first)) &&
          vals.bytes_at(j) == vals.bytes_at(first)) {
        runs->back().rows += 1;
      } else {
        first = j;
        runs->push_back({kPlain | static_cast<uint32_t>(j), 1});
      }
      ++j;
    }
  }
  *rows = pg.values;
  return Status::OK();
}

Status read_chunk(FileIO& io, const std::string& path, const ColumnMetaData& meta, Buffer* out) {
  return io.read_range_into(path, chunk_start(meta), meta.total_compressed_size, out);
}

int64_t chunk_start(const ColumnMetaData& m) {
  int64_t start = m.data_page_offset;
  if (m.dictionary_page_offset && *m.dictionary_page_offset > 0 &&
      *m.dictionary_page_offset < start) {
    start = *m.dictionary_page_offset;
  }
  return start;
}

}  // namespace floe::parquet::internal
