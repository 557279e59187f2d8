// KeyRunReader: a key and a value column of a Parquet file read with two column decoders, the
// key as runs (ColumnDecoder::next_runs).
#include "floe/format/parquet/key_run_reader.h"

#include "floe/format/parquet/reader.h"
#include "format/parquet/column_decoder_internal.h"
#include "format/parquet/schema_internal.h"

namespace floe::parquet {

namespace {

using internal::ColumnDecoder;
using internal::LeafSpec;
using internal::MNode;

// A top-level, unrepeated primitive field of the file, or nullptr.
const MNode* flat_field(const internal::FileSchema& fs, int32_t id) {
  for (const auto& m : fs.fields) {
    if (m.field.id == id && m.kind == MNode::kPrimitive && m.pnode >= 0 &&
        fs.nodes[static_cast<size_t>(m.pnode)].rep == 0) {
      return &m;
    }
  }
  return nullptr;
}

// One of the two columns: its chunk bytes (buffer reused from row group to row group) and the
// decoder in them.
struct Column {
  LeafSpec spec;
  int leaf = 0;
  std::string name;
  Buffer chunk;
  ColumnDecoder decoder;

  void init(const MNode& m, const internal::FileSchema& fs) {
    const auto& pn = fs.nodes[static_cast<size_t>(m.pnode)];
    spec = LeafSpec{m.physical, m.type_length, pn.def, pn.rep, m.conv, m.field.type};
    leaf = m.leaf;
    name = m.field.name;
  }
};

}  // namespace

struct KeyRunReader::Impl {
  Impl(FileIO& io, const ParquetReader& file) : io(io), file(file) {}

  const ColumnMetaData& meta(int g, const Column& c) const {
    return *file.metadata()
                .row_groups[static_cast<size_t>(g)]
                .columns[static_cast<size_t>(c.leaf)]
                .meta_data;
  }

  Status start(Column* c) {
    const ColumnMetaData& m = meta(group, *c);
    Status st = file.read_chunk(m, &c->chunk);
    if (!st.ok()) return st.with_context(file.path());
    return c->decoder.start(c->spec, m, c->chunk);
  }

  // The error of a read of column c in the current row group, naming them.
  Status fail(const Column& c, const Status& st) const {
    return st.with_context(fmt::format("{}: row group {} column {}", file.path(), group, c.name));
  }

  FileIO& io;
  const ParquetReader& file;
  Column key, value;
  int group = -1;
  std::vector<int16_t> reps;  // the value column is flat: never filled
};

KeyRunReader::KeyRunReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
KeyRunReader::~KeyRunReader() = default;

Result<std::unique_ptr<KeyRunReader>> KeyRunReader::open(FileIO& io, const ParquetReader& file,
                                                         int32_t key_field_id,
                                                         int32_t value_field_id) {
  auto fs = internal::map_schema(file.metadata(), std::nullopt);
  if (!fs.ok()) return fs.status().with_context(file.path());
  const MNode* k = flat_field(*fs, key_field_id);
  const MNode* v = flat_field(*fs, value_field_id);
  if (!k || !v || k->physical != PhysicalType::kByteArray || k->conv != internal::Conv::kNone ||
      v->field.type->id() != TypeId::kLong) {
    return std::unique_ptr<KeyRunReader>();
  }
  auto impl = std::make_unique<Impl>(io, file);
  impl->key.init(*k, *fs);
  impl->value.init(*v, *fs);
  return std::unique_ptr<KeyRunReader>(new KeyRunReader(std::move(impl)));
}

std::optional<std::pair<std::string_view, std::string_view>> KeyRunReader::key_bounds(int g) const {
  const auto& stats = impl_->meta(g, impl_->key).statistics;
  if (!stats || !stats->min_value || !stats->max_value) return std::nullopt;
  return std::pair<std::string_view, std::string_view>(*stats->min_value, *stats->max_value);
}

Status KeyRunReader::check_row_counts(int g) const {
  const RowGroup& rg = impl_->file.metadata().row_groups[static_cast<size_t>(g)];
  for (const Column* c : {&impl_->key, &impl_->value}) {
    const ColumnMetaData& meta = impl_->meta(g, *c);
    if (meta.num_values != rg.num_rows) {
      return invalid_data("{}: row group {} has {} rows, column chunk {} values",
                          impl_->file.path(), g, rg.num_rows, meta.num_values);
    }
  }
  return Status::OK();
}

Status KeyRunReader::start_row_group(int g) {
  FLOE_TRY(check_row_counts(g));
  impl_->group = g;
  Status st = impl_->start(&impl_->key);
  if (!st.ok()) return impl_->fail(impl_->key, st);
  st = impl_->start(&impl_->value);
  if (!st.ok()) return impl_->fail(impl_->value, st);
  return Status::OK();
}

Status KeyRunReader::restart_keys() {
  Status st = impl_->start(&impl_->key);
  if (!st.ok()) return impl_->fail(impl_->key, st);
  return Status::OK();
}

Status KeyRunReader::next_runs(std::vector<Run>* runs, int64_t* rows) {
  Status st = impl_->key.decoder.next_runs(runs, rows);
  if (!st.ok()) return impl_->fail(impl_->key, st);
  return Status::OK();
}

uint64_t KeyRunReader::dictionary_generation() const {
  return impl_->key.decoder.dictionary_generation();
}

const ColumnVector& KeyRunReader::dictionary() const { return impl_->key.decoder.dictionary(); }

std::string_view KeyRunReader::plain_key(uint32_t code) const {
  return impl_->key.decoder.plain_values().bytes_at(static_cast<int64_t>(code & ~kPlain));
}

Status KeyRunReader::next_values(int64_t rows, ColumnVector* values, std::vector<int16_t>* defs) {
  Status st = impl_->value.decoder.next(rows, values, defs, &impl_->reps);
  if (!st.ok()) return impl_->fail(impl_->value, st);
  return Status::OK();
}

Status KeyRunReader::skip_values(int64_t rows) {
  Status st = impl_->value.decoder.skip(rows);
  if (!st.ok()) return impl_->fail(impl_->value, st);
  return Status::OK();
}

int16_t KeyRunReader::value_max_def() const { return impl_->value.spec.max_def; }

const TypePtr& KeyRunReader::value_type() const { return impl_->value.spec.type; }

}  // namespace floe::parquet
