#include "floe/format/parquet/reader.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <new>
#include <set>

#include "floe/util/decimal.h"
#include "floe/util/thread_pool.h"
#include "format/parquet/column_decoder_internal.h"
#include "format/parquet/schema_internal.h"

namespace floe::parquet {

using internal::chunk_start;
using internal::ColumnDecoder;
using internal::Conv;
using internal::FileSchema;
using internal::LeafSpec;
using internal::MNode;

namespace {

constexpr int64_t kTailRead = 64 * 1024;
bool has_repeated(const MNode& m) {
  if (m.kind == MNode::kList || m.kind == MNode::kMap || m.in_repeated) return true;
  for (const auto& c : m.children) {
    if (has_repeated(c)) return true;
  }
  return false;
}

// One node on the way from a top-level column down to a leaf.
struct Step {
  MNode::Kind kind;
  ColumnVector* col;
  bool owner;  // this leaf builds the node's validity / offsets
  int16_t def;
  int16_t entry_def;
  int16_t rep;
  std::vector<uint8_t>* valid;
};

}  // namespace

// One column chunk being decoded: its bytes (the buffer is reused from chunk to chunk) and the
// decoder's position in them: row `next_row` of row group `group`.
struct ParquetReader::LeafState {
  LeafSpec spec;
  ColumnDecoder decoder;
  Buffer chunk;
  std::vector<int16_t> defs, reps;
  int group = -1;
  int64_t next_row = 0;
};

// The column chunks of one row group, read once and shared by the jobs decoding its row ranges
// ahead. Each chunk is read by the first job to need it.
struct ParquetReader::GroupChunks {
  explicit GroupChunks(size_t leaves) : chunks(leaves) {}
  struct Chunk {
    std::mutex mu;
    bool read = false;
    Buffer bytes;
    ColumnPtr dictionary;  // decoded by the first range to load it
    size_t dictionary_body = 0;
  };
  std::vector<Chunk> chunks;  // by leaf ordinal
};

namespace {

// Spreads the dense values of `col` over slots: slot i takes the next value when valid[i].
Status expand(ColumnVector* col, const std::vector<uint8_t>& valid) {
  int64_t slots = static_cast<int64_t>(valid.size());
  int64_t dense = col->length();
  int64_t nvalid = 0;
  for (uint8_t v : valid) nvalid += v;
  if (nvalid != dense) {
    return invalid_data("levels promise {} values, pages hold {}", nvalid, dense);
  }
  if (slots != dense) {
    int w = col->value_width();
    if (w > 0) {
      col->values().resize(static_cast<size_t>(slots) * w);
      uint8_t* v = col->values().data();
      int64_t j = dense - 1;
      for (int64_t i = slots - 1; i >= 0; --i) {
        if (valid[i]) {
          if (i != j) std::memcpy(v + i * w, v + j * w, w);
          --j;
        } else {
          std::memset(v + i * w, 0, w);
        }
      }
    } else {
      Buffer offsets;
      offsets.resize(static_cast<size_t>(slots + 1) * 4);
      int32_t* o = offsets.as<int32_t>();
      const int32_t* old = col->offsets().as<int32_t>();
      o[0] = 0;
      int64_t j = 0;
      for (int64_t i = 0; i < slots; ++i) {
        j += valid[i];
        o[i + 1] = old[j];
      }
      col->offsets() = std::move(offsets);
    }
  }
  col->set_length(slots);
  col->set_validity_from_bytes(valid.data(), slots);
  return Status::OK();
}

std::optional<Literal> stat_literal(const MNode& m, const std::string& b) {
  const TypePtr& t = m.field.type;
  auto le32 = [&](int32_t* v) {
    if (b.size() != 4) return false;
    std::memcpy(v, b.data(), 4);
    return true;
  };
  auto le64 = [&](int64_t* v) {
    if (b.size() != 8) return false;
    std::memcpy(v, b.data(), 8);
    return true;
  };
  switch (m.physical) {
    case PhysicalType::kBoolean:
      if (b.size() != 1) return std::nullopt;
      return Literal::boolean(b[0] != 0);
    case PhysicalType::kInt32: {
      int32_t v;
      if (!le32(&v)) return std::nullopt;
      switch (m.conv) {
        case Conv::kNone:
          return Literal::of_int(t, v);
        case Conv::kI32ToI64:
          return Literal::int64(v);
        case Conv::kU32ToI64:
          return Literal::int64(static_cast<uint32_t>(v));
        case Conv::kMillis32ToMicros:
          return Literal::time(int64_t{v} * 1000);
        case Conv::kI32ToDecimal:
          return Literal::decimal(v, t->precision(), t->scale());
        default:
          return std::nullopt;
      }
    }
    case PhysicalType::kInt64: {
      int64_t v;
      if (!le64(&v)) return std::nullopt;
      switch (m.conv) {
        case Conv::kNone:
          return Literal::of_int(t, v);
        case Conv::kMillisToMicros: {
          int64_t micros;
          if (__builtin_mul_overflow(v, 1000, &micros)) return std::nullopt;  // no usable bound
          return Literal::of_int(t, micros);
        }
        case Conv::kI64ToDecimal:
          return Literal::decimal(v, t->precision(), t->scale());
        default:
          return std::nullopt;
      }
    }
    case PhysicalType::kFloat: {
      float f;
      if (b.size() != 4) return std::nullopt;
      std::memcpy(&f, b.data(), 4);
      if (std::isnan(f)) return std::nullopt;
      return Literal::float32(f);
    }
    case PhysicalType::kDouble: {
      double d;
      if (b.size() != 8) return std::nullopt;
      std::memcpy(&d, b.data(), 8);
      if (std::isnan(d)) return std::nullopt;
      return Literal::float64(d);
    }
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      if (m.conv == Conv::kBytesToDecimal) {
        if (b.empty() || b.size() > 16) return std::nullopt;
        return Literal::decimal(decimal_from_bytes(b), t->precision(), t->scale());
      }
      if (t->id() == TypeId::kUuid) {
        if (b.size() != 16) return std::nullopt;
        Uuid u;
        std::memcpy(u.bytes.data(), b.data(), 16);
        return Literal::uuid(u);
      }
      if (t->id() == TypeId::kFixed && b.size() != static_cast<size_t>(t->length())) {
        return std::nullopt;
      }
      return Literal::of_bytes(t, b);
    case PhysicalType::kInt96:
      return std::nullopt;
  }
  return std::nullopt;
}

void collect_primitives(const std::vector<MNode>& fields, std::vector<const MNode*>* out) {
  for (const auto& f : fields) {
    if (f.kind == MNode::kPrimitive) out->push_back(&f);
    collect_primitives(f.children, out);
  }
}

// Keeps the nodes that are selected or have a selected descendant. A selected node keeps its
// whole subtree; lists and maps are kept whole.
bool prune(MNode& m, const std::set<int32_t>& ids) {
  if (ids.count(m.field.id)) return true;
  if (m.kind == MNode::kStruct) {
    std::vector<MNode> kept;
    for (auto& c : m.children) {
      if (prune(c, ids)) kept.push_back(std::move(c));
    }
    if (kept.empty()) return false;
    m.children = std::move(kept);
    std::vector<NestedField> kids;
    for (auto& c : m.children) kids.push_back(c.field);
    m.field.type = Type::struct_of(std::move(kids));
    return true;
  }
  if (m.kind == MNode::kList || m.kind == MNode::kMap) {
    for (auto& c : m.children) {
      MNode copy = c;
      if (prune(copy, ids)) return true;
    }
  }
  return false;
}

}  // namespace

struct ParquetReader::Impl {
  FileSchema fs;
  std::vector<MNode> selected;       // projected top-level fields
  std::unique_ptr<ThreadPool> pool;  // threads > 1
  // Streaming state of next_batch(): the row group being read, its rows handed out so far, and
  // per column ordinal the chunk bytes and the decoder positioned in them.
  int row_group = -1;
  int64_t row_in_group = 0;
  int64_t batch_first_row = 0;
  std::vector<int64_t> group_first_row;  // file row number of each row group's first row
  std::vector<std::unique_ptr<LeafState>> leaves;
  // With threads, row ranges are decoded ahead, one per thread, like DuckDB's scans: columns
  // of unequal cost then keep every thread busy, which splitting each batch by column does not.
  // A range is a whole row group of at most batch_rows rows (DuckDB writes 122,880), else at
  // most batch_rows rows of a larger one, ending at a page end (flat columns only: a range
  // starts by skipping whole pages); a page longer than a batch makes a range of several.
  bool use_ahead = false;
  std::deque<std::shared_ptr<Ahead>> ahead;
  int64_t ahead_row = 0;  // the next row of row group (*pending_)[next_] to hand to a range
  // Where the data pages of that row group's most compressed selected column end (rows from
  // its start; empty: unknown): ranges end there, so that column's pages are never
  // decompressed twice (Iceberg writers end every column's pages at the same row counts).
  std::vector<int64_t> ahead_page_ends;
  std::shared_ptr<GroupChunks> ahead_chunks;
  // Decoder states the ranges' jobs take and give back, so their buffers stay warm.
  std::mutex spare_mu;
  std::vector<std::vector<std::unique_ptr<LeafState>>> spare_leaves;

  // Runs fn(i) for i < n, on the pool when there is one.
  Status for_each(size_t n, const std::function<Status(size_t)>& fn) {
    if (!pool || n < 2) {
      for (size_t i = 0; i < n; ++i) FLOE_TRY(fn(i));
      return Status::OK();
    }
    return pool->parallel_for(n, fn);
  }
};

// Rows [first, first + rows) of a row group decoded ahead, as batches of at most batch_rows:
// claimed by the first thread to reach it (a pool job, or the caller helping while it waits for
// an earlier one). A failure comes back after the batches decoded before it.
struct ParquetReader::Ahead {
  int group = 0;
  int64_t first = 0, rows = 0;
  std::shared_ptr<GroupChunks> chunks;
  std::mutex mu;
  std::condition_variable cv;
  bool claimed = false, done = false;
  std::vector<ColumnBatch> batches;
  size_t taken = 0;
  Status status;
};

Status ParquetReader::read_chunk(const ColumnMetaData& meta, Buffer* out) const {
  const int64_t start = internal::chunk_start(meta);
  const int64_t length = meta.total_compressed_size;
  const auto size = static_cast<int64_t>(whole_file_.size());
  if (size == 0 || start < 0 || length < 0 || start > size || length > size - start) {
    return internal::read_chunk(*io_, path_, meta, out);  // the file reports a bad range
  }
  out->resize(static_cast<size_t>(length));
  if (length != 0)
    std::memcpy(out->data(), whole_file_.data() + start, static_cast<size_t>(length));
  return Status::OK();
}

ParquetReader::~ParquetReader() {
  if (impl_) drain_ahead();
}

void ParquetReader::drain_ahead() {
  for (auto& a : impl_->ahead) {
    std::unique_lock lock(a->mu);
    if (!a->claimed) {
      a->claimed = true;  // its job, when it runs, leaves it alone
      continue;
    }
    a->cv.wait(lock, [&] { return a->done; });  // a worker is decoding it
  }
  impl_->ahead.clear();
  impl_->ahead_chunks.reset();
  impl_->ahead_row = 0;
}

Result<std::unique_ptr<ParquetReader>> ParquetReader::open(FileIOPtr io, std::string path,
                                                           ReaderOptions options) {
  std::unique_ptr<ParquetReader> r(new ParquetReader());
  r->io_ = io;
  r->path_ = path;
  r->options_ = options;
  auto fail = [&](const Status& s) { return s.with_context(path); };
  int64_t size;
  if (options.file_size) {
    size = *options.file_size;
  } else {
    auto s = io->file_size(path);
    if (!s.ok()) return s.status();
    size = *s;
  }
  r->file_size_ = size;
  if (size < 12) return fail(invalid_data("too short for a Parquet file ({} bytes)", size));
  int64_t tail_len = std::min(size, kTailRead);
  auto tail_r = io->read_range(path, size - tail_len, tail_len);
  if (!tail_r.ok()) return tail_r.status();
  std::string tail = std::move(*tail_r);
  if (tail.compare(tail.size() - 4, 4, "PAR1") != 0) {
    if (tail.compare(tail.size() - 4, 4, "PARE") == 0) {
      return fail(not_supported("encrypted Parquet footers are not supported"));
    }
    return fail(invalid_data("bad magic: not a Parquet file (no PAR1 at the end)"));
  }
  if (tail_len == size && tail.compare(0, 4, "PAR1") != 0) {
    return fail(invalid_data("bad magic: not a Parquet file (no PAR1 at the start)"));
  }
  if (tail_len == size) r->whole_file_ = tail;
  uint32_t footer_len;
  std::memcpy(&footer_len, tail.data() + tail.size() - 8, 4);
  if (static_cast<int64_t>(footer_len) > size - 12) {
    return fail(invalid_data("footer length {} runs past the start of the file ({} bytes)",
                             footer_len, size));
  }
  std::string footer;
  if (static_cast<int64_t>(footer_len) + 8 <= tail_len) {
    footer = tail.substr(tail.size() - 8 - footer_len, footer_len);
  } else {
    auto f = io->read_range(path, size - 8 - footer_len, footer_len);
    if (!f.ok()) return f.status();
    footer = std::move(*f);
  }
  Status st = decode_file_metadata(footer, &r->metadata_);
  if (!st.ok()) return fail(st);
  auto fs = internal::map_schema(r->metadata_, options.name_mapping);
  if (!fs.ok()) return fail(fs.status());
  r->impl_ = std::make_unique<Impl>();
  if (options.threads > 1) r->impl_->pool = std::make_unique<ThreadPool>(options.threads);
  r->impl_->fs = std::move(*fs);
  // Validate the row groups against the schema and the file once, so reads can trust them.
  size_t ncols = r->impl_->fs.leaves.size();
  for (size_t g = 0; g < r->metadata_.row_groups.size(); ++g) {
    const RowGroup& rg = r->metadata_.row_groups[g];
    if (rg.num_rows < 0 || rg.num_rows > INT32_MAX) {
      return fail(invalid_data("row group {} claims {} rows", g, rg.num_rows));
    }
    if (rg.columns.size() != ncols) {
      return fail(
          invalid_data("row group {} has {} columns, the schema {}", g, rg.columns.size(), ncols));
    }
    for (size_t c = 0; c < ncols; ++c) {
      const ColumnChunk& cc = rg.columns[c];
      if (!cc.meta_data) return fail(invalid_data("row group {} column {} lacks metadata", g, c));
      if (!cc.file_path.empty()) {
        return fail(
            not_supported("column chunks in other files ({}) are not supported", cc.file_path));
      }
      const ColumnMetaData& m = *cc.meta_data;
      int64_t start = chunk_start(m);
      if (start < 0 || m.total_compressed_size < 0 || start + m.total_compressed_size > size) {
        return fail(
            invalid_data("row group {} column {}: chunk [{}, +{}) runs past the file ({} "
                         "bytes)",
                         g, c, start, m.total_compressed_size, size));
      }
    }
  }
  std::vector<NestedField> fields;
  for (const auto& f : r->impl_->fs.fields) fields.push_back(f.field);
  r->schema_ = std::make_unique<Schema>(0, std::move(fields));
  r->id_source_ = r->impl_->fs.id_source;
  r->element_ids_ = r->impl_->fs.element_ids;
  r->impl_->selected = r->impl_->fs.fields;
  for (const auto& f : r->impl_->selected) r->output_fields_.push_back(f.field);
  return r;
}

Status ParquetReader::select(const std::vector<int32_t>& field_ids) {
  drain_ahead();
  pending_.reset();
  std::set<int32_t> ids(field_ids.begin(), field_ids.end());
  impl_->selected.clear();
  output_fields_.clear();
  for (const auto& f : impl_->fs.fields) {
    MNode copy = f;
    if (prune(copy, ids)) impl_->selected.push_back(std::move(copy));
  }
  // Keep the caller's order for top-level ids.
  std::vector<MNode> ordered;
  for (int32_t id : field_ids) {
    for (auto& m : impl_->selected) {
      if (m.field.id == id && m.pnode >= 0) {
        ordered.push_back(std::move(m));
        m.pnode = -1;
      }
    }
  }
  for (auto& m : impl_->selected) {
    if (m.pnode >= 0) ordered.push_back(std::move(m));
  }
  impl_->selected = std::move(ordered);
  for (const auto& f : impl_->selected) output_fields_.push_back(f.field);
  return Status::OK();
}

Result<RowGroupInfo> ParquetReader::row_group_info(int index) const {
  if (index < 0 || index >= num_row_groups()) {
    return invalid_argument("{}: no row group {}", path_, index);
  }
  const RowGroup& rg = metadata_.row_groups[index];
  RowGroupInfo info;
  info.index = index;
  info.num_rows = rg.num_rows;
  if (!rg.columns.empty()) info.start_offset = chunk_start(*rg.columns[0].meta_data);
  for (const auto& c : rg.columns) info.compressed_size += c.meta_data->total_compressed_size;
  std::vector<const MNode*> prims;
  collect_primitives(impl_->fs.fields, &prims);
  for (const MNode* m : prims) {
    const ColumnMetaData& cm = *rg.columns[m->leaf].meta_data;
    ColumnStats s;
    s.field_id = m->field.id;
    s.value_count = cm.num_values;
    if (cm.statistics) {
      const Statistics& st = *cm.statistics;
      s.null_count = st.null_count;
      if (!m->in_repeated) {
        const std::string* lo = st.min_value ? &*st.min_value : nullptr;
        const std::string* hi = st.max_value ? &*st.max_value : nullptr;
        // Legacy min/max used signed byte order; only trust them for numbers.
        bool numeric = m->physical != PhysicalType::kByteArray &&
                       m->physical != PhysicalType::kFixedLenByteArray &&
                       m->conv != Conv::kU32ToI64;
        if (!lo && numeric && st.min) lo = &*st.min;
        if (!hi && numeric && st.max) hi = &*st.max;
        if (lo && hi) {
          s.lower = stat_literal(*m, *lo);
          s.upper = stat_literal(*m, *hi);
          if (!s.lower || !s.upper) s.lower.reset(), s.upper.reset();
        }
      }
    }
    info.stats[s.field_id] = std::move(s);
  }
  return info;
}

void ParquetReader::set_row_group_filter(std::function<bool(const RowGroupInfo&)> filter) {
  drain_ahead();
  filter_ = std::move(filter);
  pending_.reset();
}

Result<std::vector<int>> ParquetReader::selected_row_groups() const {
  std::vector<int> out;
  int64_t lo = options_.split_start;
  int64_t hi = options_.split_length < 0 ? INT64_MAX : lo + options_.split_length;
  for (int g = 0; g < num_row_groups(); ++g) {
    const RowGroup& rg = metadata_.row_groups[g];
    int64_t start = rg.columns.empty() ? 4 : chunk_start(*rg.columns[0].meta_data);
    if (start < lo || start >= hi) continue;
    if (filter_) {
      auto info = FLOE_TRY(row_group_info(g));
      if (!filter_(info)) continue;
    }
    out.push_back(g);
  }
  return out;
}

namespace {

struct Assembly {
  std::vector<std::vector<uint8_t>> valids;  // per owned step
};

// Builds the chain of steps for every leaf under `m`, in leaf order.
void build_chains(const MNode& m, ColumnVector* col, std::vector<Step>& prefix,
                  std::vector<std::pair<const MNode*, std::vector<Step>>>* out,
                  std::set<const void*>* owned, Assembly* a) {
  Step s{m.kind, col, owned->insert(col).second, m.def, m.entry_def, m.rep, nullptr};
  prefix.push_back(s);
  if (m.kind == MNode::kPrimitive) {
    out->emplace_back(&m, prefix);
  } else {
    for (size_t i = 0; i < m.children.size(); ++i) {
      build_chains(m.children[i], &col->child(i), prefix, out, owned, a);
    }
  }
  prefix.pop_back();
}

}  // namespace

Result<ColumnBatch> ParquetReader::decode_rows(int index, int64_t first, int64_t rows,
                                               std::vector<std::unique_ptr<LeafState>>* leaves,
                                               bool parallel, GroupChunks* chunks) {
  const RowGroup& rg = metadata_.row_groups[index];
  ColumnBatch batch = ColumnBatch::make(output_fields_);
  batch.num_rows = rows;
  Impl& im = *impl_;
  if (leaves->size() < im.fs.leaves.size()) leaves->resize(im.fs.leaves.size());
  // Top-level fields decode independently (in parallel with threads).
  auto read_field = [&](size_t f) -> Status {
    const MNode& top = im.selected[f];
    ColumnVector* col = batch.columns[f].get();
    std::vector<Step> prefix;
    std::vector<std::pair<const MNode*, std::vector<Step>>> chains;
    std::set<const void*> owned;
    Assembly a;
    build_chains(top, col, prefix, &chains, &owned, &a);
    // Validity bytes for every owned step.
    size_t nowned = 0;
    for (auto& [leaf, steps] : chains) {
      for (auto& s : steps) nowned += s.owner;
    }
    a.valids.resize(nowned);
    size_t k = 0;
    for (auto& [leaf, steps] : chains) {
      for (auto& s : steps) {
        if (s.owner) s.valid = &a.valids[k++];
      }
    }
    for (auto& [leaf, steps] : chains) {
      const ColumnChunk& cc = rg.columns[leaf->leaf];
      const ColumnMetaData& meta = *cc.meta_data;
      const internal::PNode& pn = im.fs.nodes[leaf->pnode];
      if (pn.rep == 0 && meta.num_values != rg.num_rows) {
        return invalid_data("{}: row group {} has {} rows, column chunk {} values", path_, index,
                            rg.num_rows, meta.num_values);
      }
      if (meta.num_values < 0 || meta.num_values > INT32_MAX) {
        return invalid_data("{}: column chunk claims {} values", path_, meta.num_values);
      }
      std::unique_ptr<LeafState>& slot = (*leaves)[static_cast<size_t>(leaf->leaf)];
      if (!slot) slot = std::make_unique<LeafState>();
      LeafState& ls = *slot;
      ColumnVector* leaf_col = steps.back().col;
      auto fail = [&](const Status& st) {
        std::string name;
        for (const auto& p : meta.path_in_schema) name += (name.empty() ? "" : ".") + p;
        return st.with_context(fmt::format("{}: row group {} column {}", path_, index, name));
      };
      GroupChunks::Chunk* publish_to = nullptr;  // to share the dictionary this leaf loads
      if (ls.group != index || ls.next_row != first) {
        ls.spec = LeafSpec{leaf->physical, leaf->type_length, pn.def,
                           pn.rep,         leaf->conv,        leaf->field.type};
        const Buffer* bytes = &ls.chunk;
        GroupChunks::Chunk* shared = nullptr;
        Status st;
        ColumnPtr dictionary;
        size_t dictionary_body = 0;
        if (chunks) {
          shared = &chunks->chunks[static_cast<size_t>(leaf->leaf)];
          std::lock_guard lock(shared->mu);
          bytes = &shared->bytes;
          if (!shared->read) {
            st = read_chunk(meta, &shared->bytes);
            shared->read = st.ok();
          }
          dictionary = shared->dictionary;
          dictionary_body = shared->dictionary_body;
        } else {
          st = read_chunk(meta, &ls.chunk);
        }
        if (!st.ok()) return st.with_context(path_);
        st = ls.decoder.start(ls.spec, meta, *bytes);
        if (dictionary) ls.decoder.share_dictionary(std::move(dictionary), dictionary_body);
        if (st.ok() && first > 0) st = ls.decoder.skip(first);
        if (!st.ok()) return fail(st);
        if (shared && !dictionary) publish_to = shared;
        ls.group = index;
        ls.next_row = first;
      }
      Status st = ls.decoder.next(rows, leaf_col, &ls.defs, &ls.reps);
      if (!st.ok()) return fail(st);
      ls.next_row += rows;
      if (publish_to) {
        // A data page has been read by now: the chunk's dictionary, if any, is loaded.
        ColumnPtr d = ls.decoder.dictionary_ptr();
        std::lock_guard lock(publish_to->mu);
        if (d && !publish_to->dictionary) {
          publish_to->dictionary = std::move(d);
          publish_to->dictionary_body = ls.decoder.dictionary_body();
        }
      }
      const int16_t* d = ls.defs.empty() ? nullptr : ls.defs.data();
      const int16_t* r = ls.reps.empty() ? nullptr : ls.reps.data();
      int64_t entries = pn.rep == 0 ? rows : static_cast<int64_t>(ls.reps.size());
      if (pn.rep == 0) {
        // Flat: one entry per row; each step is valid iff the level reaches it.
        if (steps.size() == 1 && leaf_col->length() == entries) {
          // A top-level column without nulls: the values are the column.
          leaf_col->set_null_count(0);
          leaf_col->validity().clear();
          continue;
        }
        for (auto& s : steps) {
          if (!s.owner) continue;
          s.valid->resize(static_cast<size_t>(entries));
          uint8_t* v = s.valid->data();
          if (entries == 0) continue;  // a page set without rows: nothing to mark
          if (d == nullptr || s.def == 0) {
            std::memset(v, 1, static_cast<size_t>(entries));
          } else {
            for (int64_t i = 0; i < entries; ++i) v[i] = d[i] >= s.def;
          }
        }
      } else {
        // Nested: walk the levels, opening lists and slots as Dremel prescribes.
        int rep_step[64] = {0};
        for (size_t t = 0; t < steps.size(); ++t) {
          if (steps[t].kind == MNode::kList || steps[t].kind == MNode::kMap) {
            if (steps[t].rep < 64) rep_step[steps[t].rep] = static_cast<int>(t);
          }
        }
        int64_t nrows = 0;
        for (int64_t i = 0; i < entries; ++i) {
          int16_t di = d ? d[i] : pn.def;
          int16_t ri = r[i];
          size_t t = 0;
          if (ri == 0) {
            ++nrows;
          } else {
            if (ri > pn.rep) return invalid_data("{}: repetition level {} too high", path_, ri);
            Step& l = steps[rep_step[ri]];
            if (i == 0) return invalid_data("{}: first repetition level is not 0", path_);
            if (l.owner) ++l.col->offsets().as<int32_t>()[l.col->offsets().size() / 4 - 1];
            t = static_cast<size_t>(rep_step[ri]) + 1;
          }
          for (; t < steps.size(); ++t) {
            Step& s = steps[t];
            if (di < s.def) {
              // Null here: every node down to the next list (or the leaf) gets a null slot.
              for (size_t u = t; u < steps.size(); ++u) {
                Step& x = steps[u];
                if (x.owner) {
                  x.valid->push_back(0);
                  if (x.kind == MNode::kList || x.kind == MNode::kMap) {
                    Buffer& o = x.col->offsets();
                    o.push<int32_t>(o.as<int32_t>()[o.size() / 4 - 1]);
                  }
                }
                if (x.kind != MNode::kStruct) break;
              }
              break;
            }
            if (s.owner) s.valid->push_back(1);
            if (s.kind == MNode::kList || s.kind == MNode::kMap) {
              if (s.owner) {
                Buffer& o = s.col->offsets();
                o.push<int32_t>(o.as<int32_t>()[o.size() / 4 - 1] + (di >= s.entry_def ? 1 : 0));
              }
              if (di < s.entry_def) break;
            } else if (s.kind == MNode::kPrimitive) {
              break;
            }
          }
        }
        if (nrows != rows) {
          return invalid_data("{}: row group {} has {} rows, a column {}", path_, index,
                              rg.num_rows, nrows);
        }
      }
      FLOE_TRY(expand(leaf_col, *steps.back().valid));
    }
    // Finish the owned non-leaf nodes.
    for (auto& [leaf, steps] : chains) {
      for (size_t t = 0; t + 1 < steps.size(); ++t) {
        Step& s = steps[t];
        if (!s.owner) continue;
        s.col->set_length(static_cast<int64_t>(s.valid->size()));
        s.col->set_validity_from_bytes(s.valid->data(), static_cast<int64_t>(s.valid->size()));
      }
    }
    return Status::OK();
  };
  if (parallel) {
    FLOE_TRY(im.for_each(im.selected.size(), read_field));
  } else {
    for (size_t f = 0; f < im.selected.size(); ++f) FLOE_TRY(read_field(f));
  }
  return batch;
}

Result<ColumnBatch> ParquetReader::read_row_group(int index) {
  if (index < 0 || index >= num_row_groups()) {
    return invalid_argument("{}: no row group {}", path_, index);
  }
  std::vector<std::unique_ptr<LeafState>> leaves;
  return decode_rows(index, 0, metadata_.row_groups[index].num_rows, &leaves);
}

Result<std::optional<ColumnBatch>> ParquetReader::next_batch() {
  Impl& im = *impl_;
  if (!pending_) {
    pending_ = FLOE_TRY(selected_row_groups());
    next_ = 0;
    im.row_group = -1;
    if (im.group_first_row.empty()) {
      im.group_first_row.assign(metadata_.row_groups.size() + 1, 0);
      for (size_t g = 0; g < metadata_.row_groups.size(); ++g) {
        im.group_first_row[g + 1] = im.group_first_row[g] + metadata_.row_groups[g].num_rows;
      }
    }
    // Ranges ahead need more than one range, and flat columns when a row group takes several.
    int64_t ranges = 0;
    bool large = false;
    for (int g : *pending_) {
      if (options_.batch_rows <= 0) break;
      int64_t n = metadata_.row_groups[g].num_rows;
      large |= n > options_.batch_rows;
      ranges += (n + options_.batch_rows - 1) / options_.batch_rows;
    }
    bool flat = true;
    for (const auto& m : im.selected) flat &= !has_repeated(m);
    im.use_ahead = im.pool != nullptr && options_.batch_rows > 0 && ranges > 1 && (flat || !large);
    im.ahead_row = 0;
  }
  if (im.use_ahead) return next_ahead();
  while (im.row_group < 0 || im.row_in_group >= metadata_.row_groups[im.row_group].num_rows) {
    if (next_ >= pending_->size()) return std::optional<ColumnBatch>();
    im.row_group = (*pending_)[next_++];
    im.row_in_group = 0;
  }
  int64_t group_rows = metadata_.row_groups[im.row_group].num_rows;
  int64_t rows = group_rows - im.row_in_group;
  if (options_.batch_rows > 0) rows = std::min(rows, options_.batch_rows);
  auto b = FLOE_TRY(decode_rows(im.row_group, im.row_in_group, rows, &im.leaves));
  im.batch_first_row = im.group_first_row[static_cast<size_t>(im.row_group)] + im.row_in_group;
  im.row_in_group += rows;
  return std::optional<ColumnBatch>(std::move(b));
}

void ParquetReader::decode_ahead(Ahead& a) {
  Impl& im = *impl_;
  std::vector<std::unique_ptr<LeafState>> leaves;
  {
    std::lock_guard lock(im.spare_mu);
    if (!im.spare_leaves.empty()) {
      leaves = std::move(im.spare_leaves.back());
      im.spare_leaves.pop_back();
    }
  }
  std::vector<ColumnBatch> batches;
  Status status;
  // A pool job: an exception (out of memory) must reach the waiting reader as an error, or
  // it would wait for this range for ever.
  try {
    for (int64_t done = 0; done < a.rows; done += options_.batch_rows) {
      int64_t n = std::min(options_.batch_rows, a.rows - done);
      auto r = decode_rows(a.group, a.first + done, n, &leaves, false, a.chunks.get());
      if (!r.ok()) {
        status = r.status();
        break;
      }
      batches.push_back(std::move(*r));
    }
  } catch (const std::bad_alloc&) {
    batches.clear();
    status = io_error("out of memory decoding Parquet row group {}", a.group);
  } catch (const std::exception& e) {
    batches.clear();
    status = io_error("decoding Parquet row group {}: {}", a.group, e.what());
  }
  for (auto& ls : leaves) {
    if (ls) ls->group = -1;  // its chunk view dies with the range's chunks
  }
  {
    std::lock_guard lock(im.spare_mu);
    im.spare_leaves.push_back(std::move(leaves));
  }
  a.chunks.reset();
  std::lock_guard lock(a.mu);
  a.batches = std::move(batches);
  a.status = std::move(status);
  a.done = true;
  a.cv.notify_all();
}

Result<std::optional<ColumnBatch>> ParquetReader::next_ahead() {
  Impl& im = *impl_;
  while (true) {
    // Keep one range per thread, and one more, on the way.
    while (im.ahead.size() < static_cast<size_t>(im.pool->size()) + 1 && next_ < pending_->size()) {
      int g = (*pending_)[next_];
      int64_t group_rows = metadata_.row_groups[g].num_rows;
      if (!im.ahead_chunks) {
        im.ahead_chunks = std::make_shared<GroupChunks>(im.fs.leaves.size());
        im.ahead_page_ends.clear();
        if (group_rows > options_.batch_rows) locate_pages(g, *im.ahead_chunks);
      }
      auto a = std::make_shared<Ahead>();
      a->group = g;
      a->first = im.ahead_row;
      a->rows = std::min(options_.batch_rows, group_rows - im.ahead_row);
      if (!im.ahead_page_ends.empty()) {
        // The last page end inside the range, else the end of the page it starts in.
        const auto& ends = im.ahead_page_ends;
        auto after = std::upper_bound(ends.begin(), ends.end(), a->first + a->rows);
        if (after != ends.begin() && *(after - 1) > a->first) {
          a->rows = *(after - 1) - a->first;
        } else if (after != ends.end()) {
          a->rows = std::min(*after, group_rows) - a->first;
        }
      }
      a->chunks = im.ahead_chunks;
      im.ahead_row += a->rows;
      if (im.ahead_row >= group_rows) {
        ++next_;
        im.ahead_row = 0;
        im.ahead_chunks.reset();
      }
      im.ahead.push_back(a);
      im.pool->submit([this, a] {
        {
          std::lock_guard lock(a->mu);
          if (a->claimed) return;
          a->claimed = true;
        }
        decode_ahead(*a);
      });
    }
    if (im.ahead.empty()) return std::optional<ColumnBatch>();
    std::shared_ptr<Ahead> front = im.ahead.front();
    while (true) {
      {
        std::lock_guard lock(front->mu);
        if (front->done) break;
      }
      // Help with a range no thread has started rather than wait idle.
      std::shared_ptr<Ahead> todo;
      for (auto& a : im.ahead) {
        std::lock_guard lock(a->mu);
        if (!a->claimed) {
          a->claimed = true;
          todo = a;
          break;
        }
      }
      if (todo) {
        decode_ahead(*todo);
        continue;
      }
      std::unique_lock lock(front->mu);
      front->cv.wait(lock, [&] { return front->done; });
      break;
    }
    // Decoded: only this thread touches it now.
    if (front->taken < front->batches.size()) {
      size_t k = front->taken++;
      im.row_group = front->group;
      int64_t first = front->first + static_cast<int64_t>(k) * options_.batch_rows;
      im.batch_first_row = im.group_first_row[static_cast<size_t>(front->group)] + first;
      im.row_in_group = first + front->batches[k].num_rows;
      return std::optional<ColumnBatch>(std::move(front->batches[k]));
    }
    im.ahead.pop_front();
    if (!front->status.ok()) {
      drain_ahead();
      next_ = pending_->size();
      return front->status;
    }
  }
}

void ParquetReader::locate_pages(int group, GroupChunks& chunks) {
  Impl& im = *impl_;
  const RowGroup& rg = metadata_.row_groups[group];
  std::vector<const MNode*> prims;
  collect_primitives(im.selected, &prims);
  const MNode* ref = nullptr;
  for (const MNode* m : prims) {
    if (!ref || rg.columns[m->leaf].meta_data->total_compressed_size >
                    rg.columns[ref->leaf].meta_data->total_compressed_size) {
      ref = m;
    }
  }
  if (!ref) return;
  const ColumnMetaData& meta = *rg.columns[ref->leaf].meta_data;
  GroupChunks::Chunk& c = chunks.chunks[static_cast<size_t>(ref->leaf)];
  std::lock_guard lock(c.mu);
  if (!c.read) {
    // A failed read is left to the range that needs the chunk, to report.
    if (!read_chunk(meta, &c.bytes).ok()) return;
    c.read = true;
  }
  // Page headers only; anything odd leaves the page ends unknown (the ranges then report it).
  std::string_view chunk(reinterpret_cast<const char*>(c.bytes.data()), c.bytes.size());
  std::vector<int64_t> ends;
  int64_t rows = 0;
  size_t pos = 0;
  while (pos < chunk.size() && rows < meta.num_values) {
    PageHeader h;
    size_t hsize = 0;
    if (!decode_page_header(chunk.substr(pos), &h, &hsize).ok() || h.compressed_page_size < 0 ||
        static_cast<size_t>(h.compressed_page_size) > chunk.size() - pos - hsize) {
      return;
    }
    pos += hsize + static_cast<size_t>(h.compressed_page_size);
    int64_t n = h.data_page_header      ? h.data_page_header->num_values
                : h.data_page_header_v2 ? h.data_page_header_v2->num_rows
                                        : 0;
    if (n < 0) return;
    if (n > 0) ends.push_back(rows += n);
  }
  im.ahead_page_ends = std::move(ends);
}

int64_t ParquetReader::batch_first_row() const { return impl_->batch_first_row; }
int ParquetReader::batch_row_group() const { return impl_->row_group; }

Result<std::vector<ColumnBatch>> read_parquet_file(FileIOPtr io, const std::string& path,
                                                   ReaderOptions options) {
  auto reader = FLOE_TRY(ParquetReader::open(std::move(io), path, std::move(options)));
  std::vector<ColumnBatch> out;
  while (true) {
    auto b = FLOE_TRY(reader->next_batch());
    if (!b) break;
    out.push_back(std::move(*b));
  }
  return out;
}

}  // namespace floe::parquet
