#include <cstring>

#include "floe/write/data_writer.h"

namespace floe {

namespace {

void gather_validity(const ColumnVector& in, const int32_t* idx, int64_t n, ColumnVector* out) {
  if (in.null_count() == 0) return;
  std::vector<uint8_t> valid(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) valid[i] = in.is_valid(idx[i]);
  out->set_validity_from_bytes(valid.data(), n);
}

// Offsets for the gathered ranges of a list/map/string column, and the source indices of the
// elements they cover (for nested children).
void gather_ranges(const ColumnVector& in, const int32_t* idx, int64_t n, ColumnVector* out,
                   std::vector<int32_t>* elements) {
  out->offsets().resize(static_cast<size_t>(n + 1) * sizeof(int32_t));
  int32_t* off = out->offsets().as<int32_t>();
  off[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    int32_t b = in.list_begin(idx[i]), e = in.list_end(idx[i]);
    off[i + 1] = off[i] + (e - b);
    if (elements) {
      for (int32_t j = b; j < e; ++j) elements->push_back(j);
    }
  }
}

}  // namespace

ColumnPtr gather_column(const ColumnVector& in, const int32_t* idx, int64_t n) {
  auto out = ColumnVector::make(in.type());
  const TypeId id = in.type_id();
  if (int w = in.value_width(); w > 0) {
    out->values().resize(static_cast<size_t>(n) * w);
    const uint8_t* src = in.values().data();
    uint8_t* dst = out->values().data();
    for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * w, src + int64_t{idx[i]} * w, w);
  } else if (id == TypeId::kStruct) {
    for (size_t k = 0; k < in.num_children(); ++k) {
      out->set_child(k, gather_column(in.child(k), idx, n));
    }
  } else if (id == TypeId::kList || id == TypeId::kMap) {
    std::vector<int32_t> elements;
    gather_ranges(in, idx, n, out.get(), &elements);
    for (size_t k = 0; k < in.num_children(); ++k) {
      out->set_child(
          k, gather_column(in.child(k), elements.data(), static_cast<int64_t>(elements.size())));
    }
  } else {  // string, binary and other offset + data columns
    gather_ranges(in, idx, n, out.get(), nullptr);
    const int32_t* off = out->offsets().as<int32_t>();
    out->data().resize(static_cast<size_t>(off[n]));
    const int32_t* in_off = in.offsets().as<int32_t>();
    for (int64_t i = 0; i < n; ++i) {
      std::memcpy(out->data().data() + off[i], in.data().data() + in_off[idx[i]],
                  static_cast<size_t>(off[i + 1] - off[i]));
    }
  }
  out->set_length(n);
  gather_validity(in, idx, n, out.get());
  return out;
}

ColumnBatch gather_batch(const ColumnBatch& batch, const std::vector<int32_t>& indices) {
  ColumnBatch out;
  out.fields = batch.fields;
  out.num_rows = static_cast<int64_t>(indices.size());
  for (const auto& c : batch.columns) {
    out.columns.push_back(gather_column(*c, indices.data(), out.num_rows));
  }
  return out;
}

}  // namespace floe
