// Record shredding of the Parquet writer (Dremel): column values become each leaf's dense
// values plus its definition and repetition levels, row by row for nested columns and in bulk for
// top-level primitive ones.
#include <algorithm>
#include <cstring>

#include "format/parquet/shredder_internal.h"

namespace floe::parquet::internal {

namespace {

void push_value(WLeaf& l, const ColumnVector& c, int64_t i) {
  int w = l.width;
  ColumnVector& v = *l.page;
  if (w > 0) {
    v.values().append(c.values().data() + i * w, static_cast<size_t>(w));
  } else {
    std::string_view b = c.bytes_at(i);
    v.data().append(b.data(), b.size());
    v.offsets().push<int32_t>(static_cast<int32_t>(v.data().size()));
  }
  v.set_length(v.length() + 1);
}

}  // namespace

void null_all(std::vector<WLeaf>& leaves, const WNode& n, int16_t def, int16_t rep) {
  for (int li : n.leaves) {
    WLeaf& l = leaves[li];
    l.defs.push_back(def);
    if (l.max_rep > 0) l.reps.push_back(rep);
    ++l.page_entries;
  }
}

Status shred(std::vector<WLeaf>& leaves, const ColumnVector& col, int64_t i, const WNode& n,
             int16_t def, int16_t rep) {
  if (col.is_null(i)) {
    if (n.required_field) return invalid_argument("null value in a required column");
    null_all(leaves, n, def, rep);
    return Status::OK();
  }
  int16_t d = static_cast<int16_t>(def + (n.optional ? 1 : 0));
  switch (n.kind) {
    case WNode::kPrim: {
      WLeaf& l = leaves[n.leaf];
      if (l.max_def > 0) l.defs.push_back(d);
      if (l.max_rep > 0) l.reps.push_back(rep);
      ++l.page_entries;
      push_value(l, col, i);
      return Status::OK();
    }
    case WNode::kStruct:
      for (size_t c = 0; c < n.children.size(); ++c) {
        FLOE_TRY(shred(leaves, col.child(c), i, n.children[c], d, rep));
      }
      return Status::OK();
    case WNode::kList:
    case WNode::kMap: {
      int32_t b = col.list_begin(i), e = col.list_end(i);
      if (b == e) {
        null_all(leaves, n, d, rep);
        return Status::OK();
      }
      for (int32_t j = b; j < e; ++j) {
        int16_t r = j == b ? rep : n.rep;
        for (size_t c = 0; c < n.children.size(); ++c) {
          FLOE_TRY(shred(leaves, col.child(c), j, n.children[c], static_cast<int16_t>(d + 1), r));
        }
      }
      return Status::OK();
    }
  }
  return Status::OK();
}

void append_flat(const ColumnVector& col, WLeaf& l, int64_t b, int64_t e) {
  int64_t n = e - b;
  bool nulls = col.null_count() > 0;
  if (l.max_def > 0 && (nulls || !l.defs.empty())) {
    // The first null of the page: the levels implied so far become real.
    if (l.defs.empty()) l.defs.assign(static_cast<size_t>(l.page_entries), l.max_def);
    size_t old = l.defs.size();
    l.defs.resize(old + static_cast<size_t>(n));
    int16_t* d = l.defs.data() + old;
    if (!nulls) {
      std::fill(d, d + n, int16_t{1});
    } else {
      for (int64_t i = 0; i < n; ++i) d[i] = col.is_valid(b + i) ? 1 : 0;
    }
  }
  l.page_entries += n;
  ColumnVector& v = *l.page;
  int w = l.width;
  if (!nulls) {
    if (w > 0) {
      v.values().append(col.values().data() + b * w, static_cast<size_t>(n) * w);
    } else {
      const int32_t* so = col.offsets().as<int32_t>();
      int32_t base = static_cast<int32_t>(v.data().size());
      v.data().append(col.data().data() + so[b], static_cast<size_t>(so[e] - so[b]));
      size_t old = v.offsets().size();
      v.offsets().resize(old + static_cast<size_t>(n) * 4);
      int32_t* o = reinterpret_cast<int32_t*>(v.offsets().data() + old);
      int32_t shift = base - so[b];
      for (int64_t i = 0; i < n; ++i) o[i] = so[b + i + 1] + shift;
    }
    v.set_length(v.length() + n);
  } else if (w == 8 || w == 4) {
    size_t old = v.values().size();
    v.values().resize(old + static_cast<size_t>(n) * w);
    uint8_t* o = v.values().data() + old;
    const uint8_t* in = col.values().data() + b * w;
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (w == 8) {
        std::memcpy(o + k * 8, in + i * 8, 8);
      } else {
        std::memcpy(o + k * 4, in + i * 4, 4);
      }
      k += col.is_valid(b + i);
    }
    v.values().resize(old + static_cast<size_t>(k) * w);
    v.set_length(v.length() + k);
  } else {
    for (int64_t i = b; i < e; ++i) {
      if (col.is_valid(i)) push_value(l, col, i);
    }
  }
}

}  // namespace floe::parquet::internal
