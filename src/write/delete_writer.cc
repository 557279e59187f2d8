#include "floe/write/delete_writer.h"

#include <algorithm>

#include "write_internal.h"

namespace floe {

const Schema& position_delete_schema() {
  static const Schema schema = [] {
    NestedField path, pos;
    path.id = kDeleteFilePathFieldId;
    path.name = "file_path";
    path.type = Type::string();
    path.required = true;
    pos.id = kDeleteFilePosFieldId;
    pos.name = "pos";
    pos.type = Type::int64();
    pos.required = true;
    return Schema(0, {path, pos});
  }();
  return schema;
}

PositionDeleteWriter::PositionDeleteWriter(FileIOPtr io, std::string path,
                                           parquet::WriterOptions options, int32_t spec_id,
                                           std::vector<Literal> partition)
    : io_(std::move(io)),
      path_(std::move(path)),
      options_(std::move(options)),
      spec_id_(spec_id),
      partition_(std::move(partition)) {
  options_.metrics.default_mode = MetricsMode{MetricsMode::kFull, 0};
  options_.metrics.column_modes.clear();
}

void PositionDeleteWriter::add(std::string_view data_file_path, int64_t pos) {
  rows_.emplace_back(std::string(data_file_path), pos);
}

Status PositionDeleteWriter::add(const ColumnBatch& batch) {
  int p = batch.find(kDeleteFilePathFieldId), q = batch.find(kDeleteFilePosFieldId);
  if (p < 0 || q < 0) {
    return invalid_argument("position deletes for {}: the batch needs file_path ({}) and pos ({})",
                            path_, kDeleteFilePathFieldId, kDeleteFilePosFieldId);
  }
  const ColumnVector& paths = *batch.columns[p];
  const ColumnVector& pos = *batch.columns[q];
  if (paths.type_id() != TypeId::kString || pos.type_id() != TypeId::kLong) {
    return invalid_argument("position deletes for {}: file_path must be string, pos long", path_);
  }
  for (int64_t i = 0; i < batch.num_rows; ++i) {
    if (paths.is_null(i) || pos.is_null(i)) {
      return invalid_argument("position deletes for {}: row {} has a null file_path or pos", path_,
                              i);
    }
    add(paths.bytes_at(i), pos.raw<int64_t>()[i]);
  }
  return Status::OK();
}

Result<std::optional<DataFile>> PositionDeleteWriter::close() {
  if (rows_.empty()) return std::optional<DataFile>();
  std::sort(rows_.begin(), rows_.end());
  ColumnBatch batch = ColumnBatch::make(position_delete_schema().fields());
  for (const auto& [file, pos] : rows_) {
    batch.columns[0]->append_bytes(file);
    batch.columns[1]->append_fixed<int64_t>(pos);
  }
  batch.num_rows = static_cast<int64_t>(rows_.size());
  auto w = FLOE_TRY(parquet::ParquetWriter::open(
      io_, path_, position_delete_schema(),
      with_iceberg_schema(options_, position_delete_schema(), {{"delete-type", "position"}})));
  FLOE_TRY(w->write(batch));
  DataFileMetrics m = FLOE_TRY(w->close());
  written_ = true;
  DataFile f =
      to_data_file(m, FileContent::kPositionDeletes, path_, "PARQUET", partition_, spec_id_);
  if (rows_.front().first == rows_.back().first) f.referenced_data_file = rows_.front().first;
  rows_.clear();
  return std::optional<DataFile>(std::move(f));
}

Status PositionDeleteWriter::abort() {
  rows_.clear();
  if (!written_) return Status::OK();
  written_ = false;
  return io_->delete_file(path_);
}

Result<std::unique_ptr<EqualityDeleteWriter>> EqualityDeleteWriter::open(
    FileIOPtr io, std::string path, std::shared_ptr<const Schema> delete_schema,
    std::vector<int32_t> equality_ids, parquet::WriterOptions options, int32_t spec_id,
    std::vector<Literal> partition, std::optional<int32_t> sort_order_id) {
  if (equality_ids.empty()) {
    return invalid_argument("equality deletes {}: no equality field ids", path);
  }
  for (int32_t id : equality_ids) {
    const NestedField* f = delete_schema->find_field(id);
    if (!f)
      return invalid_argument("equality deletes {}: field id {} is not in the delete schema", path,
                              id);
    if (!f->type->is_primitive()) {
      return invalid_argument("equality deletes {}: field {} is not a primitive column", path,
                              f->name);
    }
  }
  auto w = std::unique_ptr<EqualityDeleteWriter>(new EqualityDeleteWriter());
  w->io_ = io;
  w->path_ = path;
  w->equality_ids_ = std::move(equality_ids);
  w->spec_id_ = spec_id;
  w->partition_ = std::move(partition);
  w->sort_order_id_ = sort_order_id;
  std::string ids;
  for (int32_t id : w->equality_ids_) ids += (ids.empty() ? "" : ",") + std::to_string(id);
  auto o = with_iceberg_schema(std::move(options), *delete_schema,
                               {{"delete-type", "equality"}, {"delete-field-ids", ids}});
  w->writer_ = FLOE_TRY(
      parquet::ParquetWriter::open(std::move(io), std::move(path), *delete_schema, std::move(o)));
  return w;
}

Status EqualityDeleteWriter::write(const ColumnBatch& batch) {
  if (!writer_) return invalid_argument("equality deletes {}: write after close()", path_);
  return writer_->write(batch);
}

Result<DataFile> EqualityDeleteWriter::close() {
  if (!writer_) return invalid_argument("equality deletes {}: closed twice", path_);
  auto writer = std::move(writer_);
  DataFileMetrics m = FLOE_TRY(writer->close());
  written_ = true;
  DataFile f =
      to_data_file(m, FileContent::kEqualityDeletes, path_, "PARQUET", partition_, spec_id_);
  f.equality_ids = equality_ids_;
  f.sort_order_id = sort_order_id_;
  return f;
}

Status EqualityDeleteWriter::abort() {
  writer_.reset();
  if (!written_) return Status::OK();
  written_ = false;
  return io_->delete_file(path_);
}

}  // namespace floe
