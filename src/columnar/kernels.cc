// Row kernels of include/floe/columnar/kernels.h: mask take, gather, append, concat and slice
// of columns and batches (every type, nested included).
#include "floe/columnar/kernels.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace floe {
namespace {

// Extends dst's validity for n appended slots starting at old_len; valid(k) says whether slot k
// holds a value. Leaves the bitmap empty while every value is present.
template <typename Valid>
void append_validity(ColumnVector* dst, int64_t old_len, int64_t n, Valid valid) {
  int64_t nulls = 0;
  for (int64_t k = 0; k < n; ++k) nulls += !valid(k);
  if (nulls == 0 && dst->null_count() == 0) return;
  if (dst->null_count() == 0) {
    // Every earlier slot is valid: a full bitmap for them.
    size_t bytes = static_cast<size_t>((old_len + 7) / 8);
    dst->validity().resize(bytes);
    if (bytes) std::memset(dst->validity().data(), 0xFF, bytes);
  }
  size_t need = static_cast<size_t>((old_len + n + 7) / 8);
  size_t have = dst->validity().size();
  if (have < need) {
    dst->validity().resize(need);
    std::memset(dst->validity().data() + have, 0, need - have);
  }
  uint8_t* bits = dst->validity().data();
  for (int64_t k = 0; k < n; ++k) {
    int64_t i = old_len + k;
    uint8_t m = static_cast<uint8_t>(1u << (i & 7));
    if (valid(k)) {
      bits[i >> 3] |= m;
    } else {
      bits[i >> 3] &= static_cast<uint8_t>(~m);
    }
  }
  dst->set_null_count(dst->null_count() + nulls);
}

template <size_t W>
void copy_fixed(const uint8_t* src, const int32_t* idx, int64_t n, uint8_t* dst) {
  for (int64_t k = 0; k < n; ++k) {
    if (idx[k] >= 0) {
      std::memcpy(dst + k * W, src + static_cast<size_t>(idx[k]) * W, W);
    } else {
      std::memset(dst + k * W, 0, W);
    }
  }
}

bool has_bytes(const ColumnVector& c) {
  return c.value_width() == 0 && c.num_children() == 0 && !c.offsets().empty();
}

int32_t last_offset(const ColumnVector& c) {
  return c.offsets().as<int32_t>()[c.offsets().size() / 4 - 1];
}

// The next run [begin, end) of kept rows at or after `from` (empty when there is none). Masks
// are scanned 8 bytes at a time: the first nonzero byte of a word is its lowest set bit's, and
// the first zero byte the lowest one flagged by (w - 0x01..) & ~w & 0x80.. (the flags above it
// may be false, never the lowest).
struct Run {
  int64_t begin, end;
};
static_assert(std::endian::native == std::endian::little, "mask words are read little-endian");
inline Run next_run(const uint8_t* keep, int64_t n, int64_t from) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;
  int64_t i = from;
  bool found = false;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, keep + i, 8);
    if (w != 0) {
      i += std::countr_zero(w) >> 3;
      found = true;
      break;
    }
  }
  if (!found) {
    while (i < n && !keep[i]) ++i;
  }
  const int64_t begin = i;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, keep + i, 8);
    const uint64_t zero = (w - kOnes) & ~w & kHighs;
    if (zero != 0) return {begin, i + (std::countr_zero(zero) >> 3)};
  }
  while (i < n && keep[i]) ++i;
  return {begin, i};
}

// The AVX-512 compaction of 4- and 8-byte values (vpcompressd / vpcompressq: a block of 16 or 8
// values keeps its rows in one instruction), used when the CPU has AVX-512 F and BW; else the
// portable copies by run or by row below.
#if defined(__x86_64__) && defined(__GNUC__)
#define FLOE_AVX512_COMPACTION 1
#endif

std::atomic<bool> simd_allowed{true};

bool simd_compaction() {
#ifdef FLOE_AVX512_COMPACTION
  static const bool supported = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
  }();
  return supported && simd_allowed.load(std::memory_order_relaxed);
#else
  return false;
#endif
}

#ifdef FLOE_AVX512_COMPACTION
// bits[k] bit b = keep[64k + b] != 0.
__attribute__((target("avx512f,avx512bw"))) void keep_bits(const uint8_t* keep, int64_t n,
                                                           uint64_t* bits) {
  const __m512i zero = _mm512_setzero_si512();
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    bits[i >> 6] = _mm512_cmpneq_epi8_mask(_mm512_loadu_si512(keep + i), zero);
  }
  if (i < n) {
    const __mmask64 tail = (~uint64_t{0}) >> (64 - (n - i));
    bits[i >> 6] =
        _mm512_mask_cmpneq_epi8_mask(tail, _mm512_maskz_loadu_epi8(tail, keep + i), zero);
  }
}

// Rows [from, n) of src whose bit is set, to dst from row `from` on (dst may be src: each block
// is loaded before its kept rows are stored at or below it). `from` is a multiple of 64 and
// every row before it is kept. Loads and stores past n or past the kept rows are masked off.
__attribute__((target("avx512f,avx512bw"))) void compress_8(const uint8_t* src,
                                                            const uint64_t* bits, int64_t from,
                                                            int64_t n, uint8_t* dst) {
  auto* out = reinterpret_cast<int64_t*>(dst) + from;
  const auto* in = reinterpret_cast<const int64_t*>(src);
  for (int64_t i = from; i < n; i += 8) {
    __mmask8 m = static_cast<__mmask8>(bits[i >> 6] >> (i & 63));
    const __mmask8 valid = n - i >= 8 ? 0xFF : static_cast<__mmask8>((1u << (n - i)) - 1);
    m &= valid;
    const __m512i v = _mm512_maskz_loadu_epi64(valid, in + i);
    const int k = std::popcount(static_cast<unsigned>(m));
    _mm512_mask_storeu_epi64(out, static_cast<__mmask8>((1u << k) - 1),
                             _mm512_maskz_compress_epi64(m, v));
    out += k;
  }
}

__attribute__((target("avx512f,avx512bw"))) void compress_4(const uint8_t* src,
                                                            const uint64_t* bits, int64_t from,
                                                            int64_t n, uint8_t* dst) {
  auto* out = reinterpret_cast<int32_t*>(dst) + from;
  const auto* in = reinterpret_cast<const int32_t*>(src);
  for (int64_t i = from; i < n; i += 16) {
    __mmask16 m = static_cast<__mmask16>(bits[i >> 6] >> (i & 63));
    const __mmask16 valid = n - i >= 16 ? 0xFFFF : static_cast<__mmask16>((1u << (n - i)) - 1);
    m &= valid;
    const __m512i v = _mm512_maskz_loadu_epi32(valid, in + i);
    const int k = std::popcount(static_cast<unsigned>(m));
    _mm512_mask_storeu_epi32(out, static_cast<__mmask16>((1u << k) - 1),
                             _mm512_maskz_compress_epi32(m, v));
    out += k;
  }
}
#endif

// The kept rows of one mask take, worked out once for every column: the runs of kept rows
// (long when few rows are deleted: one copy each) and, when the runs are short, the kept row
// numbers too (fixed-width columns gather by them instead of one small copy per run); with
// AVX-512, the mask as bits for the compaction of 4- and 8-byte values instead.
struct Selection {
  int64_t n = 0;  // rows of the mask
  int64_t kept = 0;
  std::vector<Run> runs;
  std::vector<int32_t> rows;   // filled when runs average under kMinRunToCopy rows
  std::vector<uint64_t> bits;  // keep as bits, with AVX-512
  static constexpr int64_t kMinRunToCopy = 8;
};

// The runs of set bits of `bits` (n bits; those past n are clear), in order.
void runs_of_bits(const std::vector<uint64_t>& bits, int64_t n, std::vector<Run>* runs) {
  const size_t words = bits.size();
  size_t w = 0;
  uint64_t cur = words ? bits[0] : 0;  // bits of word w not yet consumed
  while (true) {
    while (cur == 0 && ++w < words) cur = bits[w];
    if (cur == 0) return;
    const int64_t begin = static_cast<int64_t>(w * 64) + std::countr_zero(cur);
    // The run ends at the first clear bit at or above begin.
    uint64_t clear = ~cur & (~uint64_t{0} << (begin & 63));
    while (clear == 0 && ++w < words) clear = ~bits[w];
    const int64_t end =
        clear == 0 ? n : std::min(n, static_cast<int64_t>(w * 64) + std::countr_zero(clear));
    runs->push_back({begin, end});
    if (end >= n) return;
    cur = bits[w] & (~uint64_t{0} << (end & 63));
  }
}

Selection select_rows(const uint8_t* keep, int64_t n, int64_t kept) {
  Selection s;
  s.n = n;
  s.kept = kept;
#ifdef FLOE_AVX512_COMPACTION
  if (simd_compaction() && kept > 0) {
    s.bits.resize(static_cast<size_t>((n + 63) / 64));
    keep_bits(keep, n, s.bits.data());
    runs_of_bits(s.bits, n, &s.runs);
    return s;
  }
#endif
  for (Run r = next_run(keep, n, 0); r.begin < r.end; r = next_run(keep, n, r.end)) {
    s.runs.push_back(r);
  }
  if (kept < Selection::kMinRunToCopy * static_cast<int64_t>(s.runs.size())) {
    s.rows.resize(static_cast<size_t>(kept));
    int32_t* out = s.rows.data();
    for (const Run& r : s.runs) {
      for (int64_t i = r.begin; i < r.end; ++i) *out++ = static_cast<int32_t>(i);
    }
  }
  return s;
}

template <typename T>
void gather_values(const uint8_t* src, const std::vector<int32_t>& rows, uint8_t* dst) {
  const T* from = reinterpret_cast<const T*>(src);
  T* to = reinterpret_cast<T*>(dst);
  const int32_t* r = rows.data();
  for (size_t k = 0, n = rows.size(); k < n; ++k) to[k] = from[r[k]];
}

// The kept rows' validity flags (1 = valid), empty when the column has no nulls.
std::vector<uint8_t> kept_validity(const ColumnVector& in, const Selection& sel) {
  std::vector<uint8_t> valid;
  if (in.null_count() == 0) return valid;
  valid.resize(static_cast<size_t>(sel.kept));
  size_t j = 0;
  for (const Run& r : sel.runs) {
    for (int64_t i = r.begin; i < r.end; ++i) valid[j++] = in.is_valid(i);
  }
  return valid;
}

void set_kept_validity(const std::vector<uint8_t>& valid, int64_t kept, ColumnVector* out) {
  if (valid.empty()) {
    out->set_null_count(0);
    out->validity().clear();
  } else {
    out->set_validity_from_bytes(valid.data(), kept);
  }
}

// The kept values of width w from src to dst, which may be src itself: every kept row moves to
// a slot at or before its own, so a forward pass never overwrites a row it has still to read.
void keep_fixed(const uint8_t* src, size_t w, const Selection& sel, uint8_t* dst) {
#ifdef FLOE_AVX512_COMPACTION
  if (!sel.bits.empty() && (w == 4 || w == 8)) {
    // In place, the whole 64-row words before the first dropped row stay where they are.
    int64_t from = 0;
    if (src == dst && !sel.runs.empty() && sel.runs[0].begin == 0) from = sel.runs[0].end & ~63;
    if (w == 8) {
      compress_8(src, sel.bits.data(), from, sel.n, dst);
    } else {
      compress_4(src, sel.bits.data(), from, sel.n, dst);
    }
    return;
  }
#endif
  if (!sel.rows.empty() && (w == 1 || w == 2 || w == 4 || w == 8)) {
    switch (w) {
      case 1:
        gather_values<uint8_t>(src, sel.rows, dst);
        break;
      case 2:
        gather_values<uint16_t>(src, sel.rows, dst);
        break;
      case 4:
        gather_values<uint32_t>(src, sel.rows, dst);
        break;
      default:
        gather_values<uint64_t>(src, sel.rows, dst);
        break;
    }
    return;
  }
  for (const Run& r : sel.runs) {
    const size_t bytes = static_cast<size_t>(r.end - r.begin) * w;
    std::memmove(dst, src + static_cast<size_t>(r.begin) * w, bytes);
    dst += bytes;
  }
}

#ifdef FLOE_AVX512_COMPACTION
__attribute__((target("avx512f"))) void shift_offsets_avx512(const int32_t* from, int64_t n,
                                                             int32_t shift, int32_t* to) {
  const __m512i add = _mm512_set1_epi32(shift);
  int64_t t = 0;
  for (; t + 16 <= n; t += 16) {
    _mm512_storeu_si512(to + t, _mm512_add_epi32(_mm512_loadu_si512(from + t), add));
  }
  if (t < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - t)) - 1);
    _mm512_mask_storeu_epi32(to + t, m,
                             _mm512_add_epi32(_mm512_maskz_loadu_epi32(m, from + t), add));
  }
}
#endif

// to[t] = from[t] + shift for t < n; `to` may be `from` or below it (each vector is loaded
// before it is stored at or below where it was read).
void shift_offsets(const int32_t* from, int64_t n, int32_t shift, int32_t* to, bool simd) {
#ifdef FLOE_AVX512_COMPACTION
  if (simd) {
    shift_offsets_avx512(from, n, shift, to);
    return;
  }
#endif
  for (int64_t t = 0; t < n; ++t) to[t] = from[t] + shift;
}

// The kept strings (offsets off, bytes data) into offsets o and bytes d, which may be off and
// data themselves (as keep_fixed): a run's old start and end are read before its first new
// offset is written, and new offsets land at or before the old ones. Returns the bytes kept.
int32_t keep_strings(const int32_t* off, const uint8_t* data, const Selection& sel, int32_t* o,
                     uint8_t* d) {
  const bool simd = !sel.bits.empty();
  int32_t at = 0;  // new offset of the next kept row
  int64_t j = 0;
  for (const Run& r : sel.runs) {
    const int32_t begin = off[r.begin];
    const size_t run_bytes = static_cast<size_t>(off[r.end] - begin);
    if (run_bytes != 0) std::memmove(d + at, data + begin, run_bytes);
    const int32_t shift = at - begin;
    if (j == 0) o[0] = 0;
    const int64_t len = r.end - r.begin;
    shift_offsets(off + r.begin + 1, len, shift, o + j + 1, simd);
    j += len;
    at += static_cast<int32_t>(run_bytes);
  }
  if (sel.kept == 0) o[0] = 0;
  return at;
}

void take_into(const ColumnVector& in, const Selection& sel, ColumnVector* out) {
  const int64_t kept = sel.kept;
  out->set_length(kept);
  const Type& t = *in.type();
  if (t.is_struct()) {
    for (size_t c = 0; c < in.num_children(); ++c) take_into(in.child(c), sel, &out->child(c));
  } else if (t.is_list() || t.is_map()) {
    const int32_t* off = in.offsets().as<int32_t>();
    int64_t child_len = in.num_children() ? in.child(0).length() : 0;
    std::vector<uint8_t> child_keep(static_cast<size_t>(child_len), 0);
    out->offsets().resize(static_cast<size_t>(kept + 1) * 4);
    int32_t* o = out->offsets().as<int32_t>();
    o[0] = 0;
    int64_t j = 0, child_kept = 0;
    for (const Run& r : sel.runs) {
      for (int64_t i = r.begin; i < r.end; ++i) {
        int32_t len = off[i + 1] - off[i];
        child_kept += len;
        o[j + 1] = o[j] + len;
        ++j;
      }
      // A run's elements are contiguous.
      if (off[r.end] > off[r.begin]) {
        std::memset(child_keep.data() + off[r.begin], 1,
                    static_cast<size_t>(off[r.end] - off[r.begin]));
      }
    }
    Selection child_sel = select_rows(child_keep.data(), child_len, child_kept);
    for (size_t c = 0; c < in.num_children(); ++c) {
      take_into(in.child(c), child_sel, &out->child(c));
    }
  } else if (in.value_width() > 0) {
    const size_t w = static_cast<size_t>(in.value_width());
    out->values().resize(static_cast<size_t>(kept) * w);
    keep_fixed(in.values().data(), w, sel, out->values().data());
  } else {
    const int32_t* off = in.offsets().as<int32_t>();
    int64_t bytes = 0;
    for (const Run& r : sel.runs) bytes += off[r.end] - off[r.begin];
    out->offsets().resize(static_cast<size_t>(kept + 1) * 4);
    out->data().resize(static_cast<size_t>(bytes));
    keep_strings(off, in.data().data(), sel, out->offsets().as<int32_t>(), out->data().data());
  }
  set_kept_validity(kept_validity(in, sel), kept, out);
}

// take_into for a flat column into its own buffers.
void keep_in_place(ColumnVector& col, const Selection& sel) {
  const int64_t kept = sel.kept;
  std::vector<uint8_t> valid = kept_validity(col, sel);
  if (col.value_width() > 0) {
    const size_t w = static_cast<size_t>(col.value_width());
    keep_fixed(col.values().data(), w, sel, col.values().data());
    col.values().resize(static_cast<size_t>(kept) * w);
  } else {
    int32_t* off = col.offsets().as<int32_t>();
    int32_t bytes = keep_strings(off, col.data().data(), sel, off, col.data().data());
    col.offsets().resize(static_cast<size_t>(kept + 1) * 4);
    col.data().resize(static_cast<size_t>(bytes));
  }
  col.set_length(kept);
  set_kept_validity(valid, kept, &col);
}

}  // namespace

bool set_simd_kernels(bool enabled) { return simd_allowed.exchange(enabled); }

ColumnPtr take_rows(const ColumnVector& col, const uint8_t* keep, int64_t kept) {
  auto out = ColumnVector::make(col.type());
  take_into(col, select_rows(keep, col.length(), kept), out.get());
  return out;
}

ColumnBatch take_rows(const ColumnBatch& batch, const uint8_t* keep) {
  int64_t kept = 0;
  for (int64_t i = 0; i < batch.num_rows; ++i) kept += keep[i] != 0;
  if (kept == batch.num_rows) return batch;
  ColumnBatch out;
  out.fields = batch.fields;
  out.num_rows = kept;
  const Selection sel = select_rows(keep, batch.num_rows, kept);
  for (const auto& c : batch.columns) {
    auto col = ColumnVector::make(c->type());
    take_into(*c, sel, col.get());
    out.columns.push_back(std::move(col));
  }
  return out;
}

void keep_rows(ColumnBatch& batch, const uint8_t* keep) {
  int64_t kept = 0;
  for (int64_t i = 0; i < batch.num_rows; ++i) kept += keep[i] != 0;
  if (kept == batch.num_rows) return;
  const Selection sel = select_rows(keep, batch.num_rows, kept);
  for (auto& c : batch.columns) {
    const bool flat = c->num_children() == 0 && (c->value_width() > 0 || !c->offsets().empty());
    if (flat && c.use_count() == 1) {
      keep_in_place(*c, sel);
    } else {
      auto col = ColumnVector::make(c->type());
      take_into(*c, sel, col.get());
      c = std::move(col);
    }
  }
  batch.num_rows = kept;
}

void append_rows(const ColumnVector& src, const int32_t* idx, int64_t n, ColumnVector* dst) {
  const int64_t old_len = dst->length();
  const Type& t = *src.type();
  if (t.is_struct()) {
    for (size_t c = 0; c < src.num_children(); ++c) {
      append_rows(src.child(c), idx, n, &dst->child(c));
    }
  } else if (t.is_list() || t.is_map()) {
    std::vector<int32_t> child_idx;
    size_t old_off = dst->offsets().size();
    dst->offsets().resize(old_off + static_cast<size_t>(n) * 4);
    int32_t* o = reinterpret_cast<int32_t*>(dst->offsets().data() + old_off);
    int32_t last = old_off ? reinterpret_cast<int32_t*>(dst->offsets().data())[old_off / 4 - 1] : 0;
    for (int64_t k = 0; k < n; ++k) {
      if (idx[k] >= 0) {
        int32_t b = src.list_begin(idx[k]), e = src.list_end(idx[k]);
        for (int32_t x = b; x < e; ++x) child_idx.push_back(x);
        last += e - b;
      }
      o[k] = last;
    }
    for (size_t c = 0; c < src.num_children(); ++c) {
      append_rows(src.child(c), child_idx.data(), static_cast<int64_t>(child_idx.size()),
                  &dst->child(c));
    }
  } else if (src.value_width() > 0) {
    const size_t w = static_cast<size_t>(src.value_width());
    size_t old = dst->values().size();
    dst->values().resize(old + static_cast<size_t>(n) * w);
    const uint8_t* s = src.values().data();
    uint8_t* d = dst->values().data() + old;
    switch (w) {
      case 1:
        copy_fixed<1>(s, idx, n, d);
        break;
      case 4:
        copy_fixed<4>(s, idx, n, d);
        break;
      case 8:
        copy_fixed<8>(s, idx, n, d);
        break;
      case 16:
        copy_fixed<16>(s, idx, n, d);
        break;
      default:
        for (int64_t k = 0; k < n; ++k) {
          if (idx[k] >= 0) {
            std::memcpy(d + k * w, s + static_cast<size_t>(idx[k]) * w, w);
          } else {
            std::memset(d + k * w, 0, w);
          }
        }
    }
  } else if (has_bytes(src)) {
    const int32_t* so = src.offsets().as<int32_t>();
    int64_t bytes = 0;
    for (int64_t k = 0; k < n; ++k) {
      if (idx[k] >= 0) bytes += so[idx[k] + 1] - so[idx[k]];
    }
    size_t old_data = dst->data().size();
    dst->data().resize(old_data + static_cast<size_t>(bytes));
    size_t old_off = dst->offsets().size();
    int32_t last = last_offset(*dst);
    dst->offsets().resize(old_off + static_cast<size_t>(n) * 4);
    int32_t* o = reinterpret_cast<int32_t*>(dst->offsets().data() + old_off);
    uint8_t* d = dst->data().data();
    const uint8_t* sd = src.data().data();
    for (int64_t k = 0; k < n; ++k) {
      if (idx[k] >= 0) {
        int32_t len = so[idx[k] + 1] - so[idx[k]];
        if (len) std::memcpy(d + last, sd + so[idx[k]], static_cast<size_t>(len));
        last += len;
      }
      o[k] = last;
    }
  }
  if (src.null_count() == 0) {
    append_validity(dst, old_len, n, [&](int64_t k) { return idx[k] >= 0; });
  } else {
    append_validity(dst, old_len, n,
                    [&](int64_t k) { return idx[k] >= 0 && src.is_valid(idx[k]); });
  }
  dst->set_length(old_len + n);
}

void append_range(const ColumnVector& src, int64_t offset, int64_t length, ColumnVector* dst) {
  if (length <= 0) return;
  const int64_t old_len = dst->length();
  if (src.value_width() > 0) {
    const size_t w = static_cast<size_t>(src.value_width());
    dst->values().append(src.values().data() + static_cast<size_t>(offset) * w,
                         static_cast<size_t>(length) * w);
  } else if (has_bytes(src)) {
    const int32_t* so = src.offsets().as<int32_t>();
    int32_t last = last_offset(*dst);
    int32_t base = so[offset];
    dst->data().append(src.data().data() + base, static_cast<size_t>(so[offset + length] - base));
    size_t old_off = dst->offsets().size();
    dst->offsets().resize(old_off + static_cast<size_t>(length) * 4);
    int32_t* o = reinterpret_cast<int32_t*>(dst->offsets().data() + old_off);
    for (int64_t k = 0; k < length; ++k) o[k] = last + (so[offset + k + 1] - base);
  } else {
    std::vector<int32_t> idx(static_cast<size_t>(length));
    for (int64_t k = 0; k < length; ++k)
      idx[static_cast<size_t>(k)] = static_cast<int32_t>(offset + k);
    append_rows(src, idx.data(), length, dst);
    return;
  }
  if (src.null_count() == 0) {
    append_validity(dst, old_len, length, [](int64_t) { return true; });
  } else {
    append_validity(dst, old_len, length, [&](int64_t k) { return src.is_valid(offset + k); });
  }
  dst->set_length(old_len + length);
}

ColumnPtr gather(const ColumnVector& col, const int32_t* indices, int64_t n) {
  auto out = ColumnVector::make(col.type());
  append_rows(col, indices, n, out.get());
  return out;
}

ColumnPtr gather(const ColumnVector& col, const std::vector<int32_t>& indices) {
  return gather(col, indices.data(), static_cast<int64_t>(indices.size()));
}

ColumnBatch gather(const ColumnBatch& batch, const std::vector<int32_t>& indices) {
  ColumnBatch out;
  out.fields = batch.fields;
  out.num_rows = static_cast<int64_t>(indices.size());
  for (const auto& c : batch.columns) out.columns.push_back(gather(*c, indices));
  return out;
}

ColumnPtr null_column(const TypePtr& type, int64_t n) {
  auto out = ColumnVector::make(type);
  std::vector<int32_t> idx(static_cast<size_t>(n), -1);
  append_rows(*out, idx.data(), n, out.get());
  return out;
}

Result<ColumnBatch> concat_batches(const std::vector<ColumnBatch>& batches,
                                   const std::vector<NestedField>& fields) {
  if (batches.empty()) return ColumnBatch::make(fields);
  if (batches.size() == 1) return batches[0];
  const ColumnBatch& first = batches[0];
  ColumnBatch out;
  out.fields = first.fields;
  for (const auto& b : batches) {
    if (b.columns.size() != first.columns.size()) {
      return invalid_argument("concat_batches: {} columns where {} were expected", b.columns.size(),
                              first.columns.size());
    }
    for (size_t c = 0; c < b.columns.size(); ++c) {
      if (!b.columns[c]->type()->equals(*first.columns[c]->type())) {
        return invalid_argument("concat_batches: column {} is {} where {} was expected", c,
                                b.columns[c]->type()->to_string(),
                                first.columns[c]->type()->to_string());
      }
    }
    out.num_rows += b.num_rows;
  }
  for (size_t c = 0; c < first.columns.size(); ++c) {
    auto col = ColumnVector::make(first.columns[c]->type());
    // Reserve once: growing by doubling would copy the column about twice.
    if (col->value_width() > 0) {
      col->values().reserve(static_cast<size_t>(out.num_rows) * col->value_width());
    } else if (has_bytes(*col)) {
      size_t bytes = 0;
      for (const auto& b : batches) {
        const ColumnVector& src = *b.columns[c];
        if (b.num_rows)
          bytes += static_cast<size_t>(src.list_end(b.num_rows - 1) - src.list_begin(0));
      }
      col->data().reserve(bytes);
      col->offsets().reserve(static_cast<size_t>(out.num_rows + 1) * 4);
    }
    for (const auto& b : batches) append_range(*b.columns[c], 0, b.num_rows, col.get());
    out.columns.push_back(std::move(col));
  }
  return out;
}

ColumnBatch slice_batch(const ColumnBatch& batch, int64_t offset, int64_t length) {
  offset = std::clamp<int64_t>(offset, 0, batch.num_rows);
  length = std::clamp<int64_t>(length, 0, batch.num_rows - offset);
  if (offset == 0 && length == batch.num_rows) return batch;
  ColumnBatch out;
  out.fields = batch.fields;
  out.num_rows = length;
  for (const auto& c : batch.columns) {
    auto col = ColumnVector::make(c->type());
    append_range(*c, offset, length, col.get());
    out.columns.push_back(std::move(col));
  }
  return out;
}

}  // namespace floe
