// The Parquet writer's state of one leaf column (WLeaf: the page being filled, its column chunk
// so far, dictionary, statistics and file totals) and the tree of nodes (WNode) that shreds a
// top-level column into its leaves.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/format/parquet/metadata.h"
#include "floe/spec/literal.h"
#include "floe/spec/metrics_config.h"
#include "format/parquet/dictionary_builder_internal.h"
#include "format/parquet/segmented_buffer_internal.h"

namespace floe::parquet::internal {

// A node of the Iceberg schema tree: a primitive column (its leaf), or a struct, list or map
// over the nodes of its children.
struct WNode {
  enum Kind { kPrim, kStruct, kList, kMap };
  Kind kind = kPrim;
  bool optional = false;
  bool required_field = false;
  int16_t rep = 0;  // list/map: rep level of the repeated group
  int leaf = -1;
  std::vector<WNode> children;
  std::vector<int> leaves;  // every leaf under this node
};

struct WLeaf;

// A data page encoded and waiting for its compression on the writer's pool, then for its turn
// to be appended to its column chunk.
struct PendingPage {
  WLeaf* leaf = nullptr;
  std::string body;  // encoded, uncompressed
  Buffer compressed;
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  bool done = false;  // compressed
  Status status;
};

struct WLeaf {
  int32_t field_id = 0;
  std::vector<std::string> path;
  TypePtr type;
  PhysicalType physical = PhysicalType::kInt32;
  int type_length = 0;
  int width = 0;  // bytes per value in the column vector (0: strings, binary)
  int16_t max_def = 0;
  int16_t max_rep = 0;
  bool in_repeated = false;
  MetricsMode mode;
  // The page being filled: dense (non-null) values and the levels of every entry.
  ColumnPtr page;
  // Top-level columns leave `defs` empty while every entry of the page is valid: the levels are
  // one RLE run, written at flush without being materialised.
  std::vector<int16_t> defs, reps;
  int64_t page_entries = 0;
  // The column chunk of the current row group: finished data pages (headers and bodies).
  SegmentedBuffer pages;
  // Pages after those, in order, still being compressed on the pool (threads > 1). Whichever
  // thread finishes the oldest appends it, and the done ones after it, to `pages`, holding `mu`;
  // `pages`, `pending` and the rg_ sizes below are shared with those jobs until drain_pages().
  std::deque<std::unique_ptr<PendingPage>> pending;
  std::unique_ptr<std::mutex> mu = std::make_unique<std::mutex>();
  int64_t rg_entries = 0, rg_dense = 0, rg_nans = 0;
  int64_t rg_uncompressed = 0, rg_compressed = 0;  // data pages, headers included
  int64_t rg_body_bytes = 0;  // data page bodies before compression (what row groups cut by)
  bool dict_on = false;       // pages are still dictionary-encoded
  bool dict_pages = false;    // some page of this chunk is
  bool plain_pages = false;
  bool delta = false;        // pages are DELTA_BINARY_PACKED (WriterOptions::delta_fields)
  bool delta_pages = false;  // some page of this chunk is
  DictBuilder dict;
  std::optional<Literal> rg_lo, rg_hi;  // chunk min/max and their statistics bytes
  std::string rg_lo_bytes, rg_hi_bytes;
  // File totals for the Iceberg metrics.
  int64_t value_count = 0, null_count = 0, nan_count = 0, column_size = 0;
  std::optional<Literal> lower, upper;

  int64_t page_bytes() const {
    return static_cast<int64_t>(page->values().size() + page->data().size() +
                                page->offsets().size() + (max_def > 0 ? page_entries * 2 : 0) +
                                reps.size() * 2);
  }
};

}  // namespace floe::parquet::internal
