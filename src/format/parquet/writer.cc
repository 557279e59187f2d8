// ParquetWriter: the orchestration of a Parquet file write (columns shredded and encoded in
// parallel, pages cut by size and rows, row groups cut by size, the footer) and the writer's
// options from table properties. The parts live beside it: writer_schema, shredder,
// page_encoder, dictionary_builder, column_statistics, page_pipeline and file_sink.
#include "floe/format/parquet/writer.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>

#include "floe/spec/table_properties.h"
#include "floe/util/thread_pool.h"
#include "format/parquet/column_statistics_internal.h"
#include "format/parquet/encoding_internal.h"
#include "format/parquet/file_sink_internal.h"
#include "format/parquet/page_encoder_internal.h"
#include "format/parquet/page_pipeline_internal.h"
#include "format/parquet/shredder_internal.h"
#include "format/parquet/writer_leaf_internal.h"
#include "format/parquet/writer_schema_internal.h"

namespace floe::parquet {

using internal::add_leaf_metrics;
using internal::append_flat;
using internal::bit_width_of;
using internal::emit_page;
using internal::encode_plain;
using internal::encode_rle;
using internal::FileSink;
using internal::finish_chunk_statistics;
using internal::fold_page_statistics;
using internal::PagePipeline;
using internal::PoolJobs;
using internal::put_level_run;
using internal::put_levels;
using internal::Scratch;
using internal::ScratchPool;
using internal::shred;
using internal::WLeaf;
using internal::WNode;

Result<WriterOptions> WriterOptions::from_properties(
    const std::map<std::string, std::string>& props, const Schema& schema) {
  namespace tp = table_properties;
  WriterOptions o;
  auto get = [&](std::string_view key) -> const std::string* {
    auto it = props.find(std::string(key));
    return it == props.end() ? nullptr : &it->second;
  };
  auto get_int = [&](std::string_view key, int64_t* out) -> Status {
    if (const std::string* v = get(key)) {
      char* end = nullptr;
      long long x = std::strtoll(v->c_str(), &end, 10);
      if (end == v->c_str() || *end != '\0' || x <= 0) {
        return invalid_argument("table property {}={} is not a positive integer", key, *v);
      }
      *out = x;
    }
    return Status::OK();
  };
  if (const std::string* c = get(tp::kParquetCompression)) {
    std::string v;
    for (char ch : *c) v.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
    if (v == "zstd") {
      o.codec = Codec::kZstd;
    } else if (v == "snappy") {
      o.codec = Codec::kSnappy;
    } else if (v == "gzip") {
      o.codec = Codec::kGzip;
      o.compression_level = 6;
    } else if (v == "lz4" || v == "lz4_raw") {
      o.codec = Codec::kLz4Raw;
    } else if (v == "uncompressed" || v == "none") {
      o.codec = Codec::kUncompressed;
    } else {
      return not_supported("{}={} is not supported", tp::kParquetCompression, *c);
    }
  }
  int64_t level = o.compression_level;
  FLOE_TRY(get_int(tp::kParquetCompressionLevel, &level));
  o.compression_level = static_cast<int>(level);
  FLOE_TRY(get_int(tp::kParquetRowGroupSizeBytes, &o.row_group_size_bytes));
  FLOE_TRY(get_int(tp::kParquetPageSizeBytes, &o.page_size_bytes));
  FLOE_TRY(get_int(tp::kParquetPageRowLimit, &o.page_row_limit));
  FLOE_TRY(get_int(tp::kParquetDictSizeBytes, &o.dict_size_bytes));
  o.metrics = FLOE_TRY(MetricsConfig::from_properties(props, schema));
  return o;
}

struct ParquetWriter::Impl {
  std::string path;
  WriterOptions options;
  std::vector<NestedField> fields;
  FileMetaData metadata;
  std::vector<WNode> nodes;  // per top-level field
  std::vector<WLeaf> leaves;
  int64_t buffered_rows = 0;
  int64_t total_rows = 0;
  std::vector<int64_t> split_offsets;
  bool closed = false;

  PoolJobs jobs;  // with threads: the pool and the jobs started on it
  ScratchPool scratches;
  PagePipeline pages{&options, &scratches, &jobs};
  FileSink sink{&jobs};  // the file's bytes

  using ColumnFn = std::function<Status(size_t, Scratch&)>;

  // Jobs on a shared pool may still be running: wait for them while everything they touch is
  // alive.
  ~Impl() { jobs.wait(); }

  // Runs fn(i) for i in [0, n): on the pool when there is one.
  Status for_each(size_t n, const ColumnFn& fn) {
    if (!jobs.pool || n < 2) {
      auto s = scratches.take();
      for (size_t i = 0; i < n; ++i) {
        Status st = fn(i, *s);
        if (!st.ok()) {
          scratches.give(std::move(s));
          return st;
        }
      }
      scratches.give(std::move(s));
      return Status::OK();
    }
    return jobs.pool->parallel_for(n, [&](size_t i) {
      auto s = scratches.take();
      Status st = fn(i, *s);
      scratches.give(std::move(s));
      return st;
    });
  }

  // Resets the per-row-group state of a leaf.
  void start_chunk(WLeaf& l) {
    l.pages.clear();
    l.rg_entries = l.rg_dense = l.rg_nans = 0;
    l.rg_uncompressed = l.rg_compressed = l.rg_body_bytes = 0;
    l.dict_on = options.dictionary_enabled && l.type->id() != TypeId::kBoolean && !l.delta;
    l.dict_pages = l.plain_pages = l.delta_pages = false;
    if (l.dict_on) l.dict.reset(l.type, /*presize=*/true);
    l.rg_lo.reset();
    l.rg_hi.reset();
  }

  bool page_full(const WLeaf& l) const {
    return l.page_entries >= options.page_row_limit || l.page_bytes() >= options.page_size_bytes;
  }

  // Rows [b, b + k) of a flat column that still fit in the current page (at least one).
  int64_t page_room(const WLeaf& l, const ColumnVector& col, int64_t b, int64_t n) const {
    int64_t k = std::min(n - b, options.page_row_limit - l.page_entries);
    int64_t left = options.page_size_bytes - l.page_bytes();
    int64_t per_row = (l.max_def > 0 ? 2 : 0) + (l.width > 0 ? l.width : 4);
    k = std::min(k, left / per_row);
    if (l.width == 0 && k > 0) {
      // Strings: as many as fit by their bytes (offsets are sorted).
      const int32_t* so = col.offsets().as<int32_t>();
      int64_t budget = left - k * per_row;
      const int32_t* end = std::upper_bound(so + b + 1, so + b + k + 1, so[b] + budget);
      k = std::min<int64_t>(k, end - (so + b + 1));
    }
    return std::max<int64_t>(1, k);
  }

  // Top-level primitive columns: levels from the validity bitmap, values copied in bulk, pages
  // encoded and compressed as they fill.
  Status write_flat(const ColumnVector& col, WLeaf& l, Scratch& sc) {
    if (l.max_def == 0 && col.null_count() > 0) {
      return invalid_argument("null value in required column {}", l.path.back());
    }
    const int64_t n = col.length();
    for (int64_t b = 0; b < n;) {
      int64_t k = page_room(l, col, b, n);
      append_flat(col, l, b, b + k);
      b += k;
      if (page_full(l)) FLOE_TRY(flush_page(l, sc));
    }
    return Status::OK();
  }

  // Encodes, compresses and appends the current page of `l` to its column chunk, and folds its
  // values into the chunk statistics. `last`: the chunk ends with this page.
  Status flush_page(WLeaf& l, Scratch& sc, bool last = false) {
    if (l.page_entries == 0) return Status::OK();
    std::string& page = sc.page;
    std::vector<uint32_t>& indices = sc.indices;
    const ColumnVector& v = *l.page;
    int64_t n = v.length();
    fold_page_statistics(l, v);
    page.clear();
    if (l.max_rep > 0) put_levels(l.reps.data(), l.page_entries, l.max_rep, &page);
    if (l.max_def > 0) {
      if (l.defs.empty()) {
        put_level_run(l.max_def, l.page_entries, &page);
      } else {
        put_levels(l.defs.data(), l.page_entries, l.max_def, &page);
      }
    }
    bool dict = false;
    int bw = 0;
    if (l.dict_on && n > 0) {
      bool first = l.dict.seen() == 0;
      indices.resize(static_cast<size_t>(n));
      dict = l.dict.add(v, indices.data(), options.dict_size_bytes);
      // A first page of nearly distinct values: the dictionary would not pay.
      if (dict && first && n >= 4096 && l.dict.size() * 20 > n * 19) dict = false;
      if (dict) {
        bw = std::max(1, bit_width_of(static_cast<uint64_t>(l.dict.size() - 1)));
      } else {
        l.dict_on = false;
        if (!l.dict_pages) l.dict.reset(l.type);
      }
    }
    bool plain_ready = false;
    if (dict) {
      const size_t levels = page.size();
      page.push_back(static_cast<char>(bw));
      encode_rle(indices.data(), n, bw, &page);
      if (last && !l.dict_pages) {
        // A chunk of one page (a small file's, such as a position delete file's distinct
        // positions) keeps its dictionary only when it and the indices take fewer bytes than
        // the plain values, as parquet-mr's isCompressionSatisfying decides on a first page.
        // Larger chunks are judged by distinctness above: their later pages may repeat values.
        sc.plain.clear();
        encode_plain(l, v, 0, n, &sc.plain);
        const auto encoded = static_cast<int64_t>(page.size() - levels) + l.dict.byte_size();
        if (encoded >= static_cast<int64_t>(sc.plain.size())) {
          dict = false;
          l.dict_on = false;
          l.dict.reset(l.type);
          page.resize(levels);
          plain_ready = true;
        }
      }
    }
    if (dict) {
      l.dict_pages = true;
    } else if (l.delta) {
      internal::encode_delta_binary(v, &page);
      l.delta_pages = true;
    } else {
      if (plain_ready) {
        page.append(sc.plain);
      } else {
        encode_plain(l, v, 0, n, &page);
      }
      l.plain_pages = true;
    }
    Encoding enc = dict      ? Encoding::kRleDictionary
                   : l.delta ? Encoding::kDeltaBinaryPacked
                             : Encoding::kPlain;
    l.rg_body_bytes += static_cast<int64_t>(page.size());
    if (pages.async()) {
      pages.queue(l, &page, static_cast<int32_t>(l.page_entries), enc);
    } else {
      FLOE_TRY(emit_page(options, sc, page, static_cast<int32_t>(l.page_entries), false, enc,
                         &l.pages, &l.rg_uncompressed, &l.rg_compressed));
    }
    l.rg_entries += l.page_entries;
    l.rg_dense += n;
    l.page->clear();
    l.defs.clear();
    l.reps.clear();
    l.page_entries = 0;
    return Status::OK();
  }

  // Bytes of the row group so far: encoded page bodies before compression plus the open pages
  // (known before compression finishes, so row groups cut at the same rows with any threads).
  int64_t buffered_bytes() const {
    int64_t b = 0;
    for (const auto& l : leaves) b += l.rg_body_bytes + l.page_bytes();
    return b;
  }

  // Writes the chunk of `l`, or with `pieces`, adds it to them for a row-group write job.
  Status write_chunk(WLeaf& l, ColumnChunk* chunk, Scratch& sc,
                     std::vector<FileSink::Piece>* pieces) {
    std::string& page = sc.page;
    ColumnMetaData meta;
    meta.type = l.physical;
    meta.path_in_schema = l.path;
    meta.codec = options.codec;
    meta.num_values = l.rg_entries;
    int64_t start = sink.pos();
    chunk->file_offset = start;

    meta.statistics = finish_chunk_statistics(l);

    if (l.dict_pages) {
      meta.dictionary_page_offset = start;
      ColumnPtr u = l.dict.uniques();
      page.clear();
      encode_plain(l, *u, 0, u->length(), &page);
      Buffer& dict_page = sc.dict_page;
      dict_page.clear();
      FLOE_TRY(emit_page(options, sc, page, static_cast<int32_t>(u->length()), true,
                         Encoding::kPlain, &dict_page, &meta.total_uncompressed_size,
                         &meta.total_compressed_size));
      if (pieces) {
        sink.out.append(dict_page.data(), dict_page.size());
      } else {
        FLOE_TRY(sink.put(dict_page.data(), dict_page.size()));
      }
      meta.encodings = {Encoding::kPlain, Encoding::kRle, Encoding::kRleDictionary};
    } else if (l.delta_pages) {
      meta.encodings = {Encoding::kRle, Encoding::kDeltaBinaryPacked};
    } else {
      meta.encodings = {Encoding::kPlain, Encoding::kRle};
    }
    meta.data_page_offset = sink.pos();
    if (pieces) {
      sink.add_piece(&l.pages, pieces);
    } else {
      FLOE_TRY(l.pages.for_each([&](const uint8_t* p, size_t n) { return sink.put(p, n); }));
    }
    meta.total_uncompressed_size += l.rg_uncompressed;
    meta.total_compressed_size += l.rg_compressed;
    l.column_size += meta.total_compressed_size;
    chunk->meta_data = std::move(meta);
    return Status::OK();
  }

  Status flush_row_group() {
    if (buffered_rows == 0) return Status::OK();
    Status flushed = for_each(
        leaves.size(), [&](size_t i, Scratch& sc) { return flush_page(leaves[i], sc, true); });
    Status drained = pages.drain();
    FLOE_TRY(flushed);
    FLOE_TRY(drained);
    // With threads, the bytes go to the file from a pool job, after the previous row group's.
    const bool in_job = jobs.pool != nullptr;
    std::vector<FileSink::Piece> pieces;
    if (in_job) {
      FLOE_TRY(sink.wait_row_group_write());
      FLOE_TRY(sink.open_stream());
    }
    RowGroup rg;
    rg.num_rows = buffered_rows;
    int64_t start = sink.pos();
    rg.file_offset = start;
    auto sc = scratches.take();
    for (auto& l : leaves) {
      ColumnChunk c;
      Status st = write_chunk(l, &c, *sc, in_job ? &pieces : nullptr);
      if (!st.ok()) return st;
      rg.total_byte_size += c.meta_data->total_uncompressed_size;
      rg.columns.push_back(std::move(c));
      start_chunk(l);
    }
    scratches.give(std::move(sc));
    if (in_job) sink.start_row_group_write(std::move(pieces));
    rg.total_compressed_size = sink.pos() - start;
    rg.ordinal = static_cast<int16_t>(metadata.row_groups.size());
    metadata.row_groups.push_back(std::move(rg));
    split_offsets.push_back(start);
    total_rows += buffered_rows;
    buffered_rows = 0;
    return Status::OK();
  }
};

ParquetWriter::~ParquetWriter() = default;

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::open(FileIOPtr io, std::string path,
                                                           const Schema& schema,
                                                           WriterOptions options) {
  std::unique_ptr<ParquetWriter> w(new ParquetWriter());
  w->impl_ = std::make_unique<Impl>();
  Impl& im = *w->impl_;
  im.sink.io = std::move(io);
  im.path = std::move(path);
  im.sink.path = im.path;
  im.options = std::move(options);
  im.fields = schema.fields();
  SchemaElement root;
  root.name = "table";
  root.num_children = static_cast<int32_t>(im.fields.size());
  im.metadata.schema.push_back(root);
  for (const auto& f : im.fields) {
    WNode n;
    Status st = internal::add_field(f, 0, 0, false, {}, f.name, im.options.metrics, &n, &im.leaves,
                                    &im.metadata.schema);
    if (!st.ok()) return st.with_context(im.path);
    im.nodes.push_back(std::move(n));
  }
  for (auto& l : im.leaves) {
    // Columns held as their physical ints (not decimals, held as 16 bytes).
    l.delta = ((l.physical == PhysicalType::kInt32 && l.width == 4) ||
               (l.physical == PhysicalType::kInt64 && l.width == 8)) &&
              std::find(im.options.delta_fields.begin(), im.options.delta_fields.end(),
                        l.field_id) != im.options.delta_fields.end();
    im.start_chunk(l);
  }
  im.sink.out.append("PAR1", 4);
  if (im.options.pool) {
    if (im.options.pool->size() > 1) im.jobs.pool = im.options.pool;
  } else if (im.options.threads > 1) {
    im.jobs.pool = std::make_shared<ThreadPool>(im.options.threads);
  }
  return w;
}

Status ParquetWriter::write(const ColumnBatch& batch) {
  Impl& im = *impl_;
  if (im.closed) return invalid_argument("{}: writer is closed", im.path);
  if (batch.columns.size() != im.fields.size()) {
    return invalid_argument("{}: batch has {} columns, the schema {}", im.path,
                            batch.columns.size(), im.fields.size());
  }
  for (size_t c = 0; c < batch.columns.size(); ++c) {
    const ColumnVector& col = *batch.columns[c];
    if (!same_type(col.type(), im.fields[c].type)) {
      return invalid_argument("{}: column {} is {}, the schema says {}", im.path, im.fields[c].name,
                              col.type()->to_string(), im.fields[c].type->to_string());
    }
    if (col.length() != batch.num_rows) {
      return invalid_argument("{}: column {} has {} values for {} rows", im.path, im.fields[c].name,
                              col.length(), batch.num_rows);
    }
  }
  if (Status failed = im.pages.failure(); !failed.ok()) return failed.with_context(im.path);
  // Columns encode independently (in parallel with threads; pages compress on the pool
  // meanwhile, and may still be compressing when this returns).
  Status st = im.for_each(batch.columns.size(), [&](size_t c, Scratch& sc) -> Status {
    const ColumnVector& col = *batch.columns[c];
    const WNode& n = im.nodes[c];
    if (n.kind == WNode::kPrim) return im.write_flat(col, im.leaves[n.leaf], sc);
    for (int64_t i = 0; i < batch.num_rows; ++i) {
      Status st = shred(im.leaves, col, i, n, 0, 0);
      if (!st.ok()) return st.with_context(fmt::format("column {}", im.fields[c].name));
      // Pages end at row boundaries, so a page never splits a list.
      for (int li : n.leaves) {
        if (im.page_full(im.leaves[li])) FLOE_TRY(im.flush_page(im.leaves[li], sc));
      }
    }
    return Status::OK();
  });
  if (!st.ok()) {
    (void)im.pages.drain();
    return st.with_context(im.path);
  }
  im.buffered_rows += batch.num_rows;
  if (im.buffered_bytes() >= im.options.row_group_size_bytes) FLOE_TRY(im.flush_row_group());
  return Status::OK();
}

int64_t ParquetWriter::estimated_size() const {
  // Compressed sizes are known once the pages queued for compression are done (a failure shows
  // at the next write or close).
  (void)impl_->pages.drain();
  int64_t b = impl_->sink.pos();
  for (const auto& l : impl_->leaves) {
    b += static_cast<int64_t>(l.pages.size()) + l.page_bytes();
    // The dictionary page is written with the chunk: without it, rolling by size overshoots.
    if (l.dict_on || l.dict_pages) b += l.dict.byte_size();
  }
  return b;
}

Result<DataFileMetrics> ParquetWriter::close() {
  Impl& im = *impl_;
  if (im.closed) return invalid_argument("{}: writer is already closed", im.path);
  im.closed = true;
  FLOE_TRY(im.flush_row_group());
  FLOE_TRY(im.sink.wait_row_group_write());
  im.metadata.num_rows = im.total_rows;
  im.metadata.created_by = im.options.created_by;
  im.metadata.key_value_metadata = im.options.key_value_metadata;
  std::string footer = encode_file_metadata(im.metadata);
  uint32_t footer_len = static_cast<uint32_t>(footer.size());
  im.sink.out.append(footer.data(), footer.size());
  im.sink.out.append(&footer_len, 4);
  im.sink.out.append("PAR1", 4);
  im.jobs.pool.reset();
  int64_t file_size = im.sink.pos();
  FLOE_TRY(im.sink.flush());
  FLOE_TRY(im.sink.stream->close());

  DataFileMetrics m;
  m.record_count = im.total_rows;
  m.file_size = file_size;
  m.split_offsets = im.split_offsets;
  for (const auto& l : im.leaves) {
    m.column_sizes[l.field_id] = l.column_size;
    FLOE_TRY(add_leaf_metrics(l, &m));
  }
  im.sink.out = Buffer();
  return m;
}

}  // namespace floe::parquet
