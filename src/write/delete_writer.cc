#include "floe/write/delete_writer.h"

#include <algorithm>

#include "floe/spec/table_properties.h"
#include "write_internal.h"

namespace floe {

namespace tp = table_properties;

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

// ---------------------------------------------------------------------------------------------

Result<WriteOptions> delete_write_options(const std::map<std::string, std::string>& props,
                                          const Schema& schema, const std::string& location,
                                          const SortOrder* sort_order) {
  // Java's delete contexts read each write.delete.* property and fall back to the data one:
  // overlay the delete properties on the data ones and read them as for data files.
  static constexpr std::pair<std::string_view, std::string_view> kOverlays[] = {
      {tp::kDeleteDefaultFileFormat, tp::kDefaultFileFormat},
      {tp::kDeleteParquetCompression, tp::kParquetCompression},
      {tp::kDeleteParquetCompressionLevel, tp::kParquetCompressionLevel},
      {tp::kDeleteParquetRowGroupSizeBytes, tp::kParquetRowGroupSizeBytes},
      {tp::kDeleteParquetPageSizeBytes, tp::kParquetPageSizeBytes},
      {tp::kDeleteParquetPageRowLimit, tp::kParquetPageRowLimit},
      {tp::kDeleteParquetDictSizeBytes, tp::kParquetDictSizeBytes},
      {tp::kDeleteAvroCompression, tp::kAvroCompression},
      {tp::kDeleteAvroCompressionLevel, tp::kAvroCompressionLevel},
  };
  std::map<std::string, std::string> overlaid = props;
  for (const auto& [del, data] : kOverlays) {
    auto it = props.find(std::string(del));
    if (it != props.end()) overlaid[std::string(data)] = it->second;
  }
  // The data-file target size does not apply to delete files.
  overlaid.erase(std::string(tp::kTargetFileSizeBytes));
  auto o = WriteOptions::from_properties(overlaid, schema, location, sort_order);
  if (!o.ok()) {
    // Name the delete property when it is the one at fault.
    std::string msg = o.status().message();
    for (const auto& [del, data] : kOverlays) {
      size_t at = msg.find(data);
      if (props.count(std::string(del)) && at != std::string::npos) {
        msg.replace(at, data.size(), del);
        return make_error(o.status().kind(), "{}", msg);
      }
    }
    return o.status();
  }
  o->target_file_size = tp::kDeleteTargetFileSizeBytesDefault;
  if (auto it = props.find(std::string(tp::kDeleteTargetFileSizeBytes)); it != props.end()) {
    char* end = nullptr;
    long long v = std::strtoll(it->second.c_str(), &end, 10);
    if (end == it->second.c_str() || *end != '\0' || v <= 0) {
      return invalid_argument("table property {}={} is not a positive integer",
                              tp::kDeleteTargetFileSizeBytes, it->second);
    }
    o->target_file_size = v;
  }
  return o;
}

Result<WriteOptions> delete_write_options(const TableMetadata& table) {
  const Schema* schema = table.schema();
  if (!schema) {
    return invalid_argument("table {} has no current schema {}", table.location,
                            table.current_schema_id);
  }
  return delete_write_options(table.properties, *schema, table.location, table.sort_order());
}

// ---------------------------------------------------------------------------------------------

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Position deletes get full metrics for both columns whatever the table's metrics config (Java's
// MetricsConfig.forPositionDelete).
WriteOptions position_delete_options(WriteOptions o) {
  o.parquet.metrics.default_mode = MetricsMode{MetricsMode::kFull, 0};
  o.parquet.metrics.column_modes.clear();
  return o;
}

constexpr int64_t kRowsPerBatch = 1 << 16;

}  // namespace

Result<std::unique_ptr<PositionDeleteAppender>> PositionDeleteAppender::open(FileIOPtr io,
                                                                             std::string path,
                                                                             WriteOptions options) {
  options.format = lower(options.format);
  FLOE_TRY(file_extension(options.format));
  auto a = std::unique_ptr<PositionDeleteAppender>(new PositionDeleteAppender());
  a->path_ = std::move(path);
  a->format_ = manifest_format_name(options.format);
  a->appender_ = FLOE_TRY(open_appender(std::move(io), a->path_, position_delete_schema(),
                                        position_delete_options(std::move(options)),
                                        {{"delete-type", "position"}}));
  return a;
}

Status PositionDeleteAppender::write(std::string_view data_file_path,
                                     std::span<const int64_t> positions) {
  if (!appender_) return invalid_argument("position deletes {}: write after close()", path_);
  if (positions.empty()) return Status::OK();
  if (rows_ == 0) {
    first_path_ = std::string(data_file_path);
  } else if (data_file_path != first_path_) {
    one_path_ = false;
  }
  size_t at = 0;
  while (at < positions.size()) {
    size_t n = std::min<size_t>(positions.size() - at, kRowsPerBatch);
    ColumnBatch batch = ColumnBatch::make(position_delete_schema().fields());
    for (size_t i = 0; i < n; ++i) {
      batch.columns[0]->append_bytes(data_file_path);
      batch.columns[1]->append_fixed<int64_t>(positions[at + i]);
    }
    batch.num_rows = static_cast<int64_t>(n);
    FLOE_TRY(appender_->write(batch));
    at += n;
  }
  rows_ += static_cast<int64_t>(positions.size());
  return Status::OK();
}

int64_t PositionDeleteAppender::estimated_size() const {
  return appender_ ? appender_->estimated_size() : 0;
}

Result<DataFile> PositionDeleteAppender::close(int32_t spec_id, std::vector<Literal> partition) {
  if (!appender_) return invalid_argument("position deletes {}: closed twice", path_);
  auto appender = std::move(appender_);
  DataFileMetrics m = FLOE_TRY(appender->close());
  DataFile f =
      to_data_file(m, FileContent::kPositionDeletes, path_, format_, std::move(partition), spec_id);
  // As Java's PositionDeleteWriter: no value, null or NaN counts for file_path and pos (every
  // row has both), and their bounds only when the file names one data file (equal file_path
  // bounds are what scan planning matches a delete file to its one data file by).
  auto reserved = [](const auto& entry) {
    return entry.first == kDeleteFilePathFieldId || entry.first == kDeleteFilePosFieldId;
  };
  std::erase_if(f.value_counts, reserved);
  std::erase_if(f.null_value_counts, reserved);
  std::erase_if(f.nan_value_counts, reserved);
  if (rows_ > 0 && one_path_) {
    f.referenced_data_file = first_path_;
  } else {
    std::erase_if(f.lower_bounds, reserved);
    std::erase_if(f.upper_bounds, reserved);
  }
  return f;
}

// ---------------------------------------------------------------------------------------------

PositionDeleteWriter::PositionDeleteWriter(FileIOPtr io, std::string path, WriteOptions options,
                                           int32_t spec_id, std::vector<Literal> partition)
    : io_(std::move(io)),
      path_(std::move(path)),
      options_(std::move(options)),
      spec_id_(spec_id),
      partition_(std::move(partition)) {
  delta_encode_positions();
}

PositionDeleteWriter::PositionDeleteWriter(FileIOPtr io, std::string path,
                                           parquet::WriterOptions options, int32_t spec_id,
                                           std::vector<Literal> partition)
    : io_(std::move(io)),
      path_(std::move(path)),
      spec_id_(spec_id),
      partition_(std::move(partition)) {
  options_.format = "parquet";
  options_.parquet = std::move(options);
  delta_encode_positions();
}

// The positions, sorted per data file, are DELTA_BINARY_PACKED: a few bits each instead of 8
// bytes, so a scan decodes far fewer bytes for them (every Parquet reader supports it).
void PositionDeleteWriter::delta_encode_positions() {
  options_.parquet.delta_fields.push_back(kDeleteFilePosFieldId);
}

void PositionDeleteWriter::add(std::string_view data_file_path, int64_t pos) {
  add(data_file_path, std::span<const int64_t>(&pos, 1));
}

void PositionDeleteWriter::add(std::string_view data_file_path,
                               std::span<const int64_t> positions) {
  if (positions.empty()) return;
  auto it = by_path_.find(data_file_path);
  if (it == by_path_.end())
    it = by_path_.emplace(std::string(data_file_path), std::vector<int64_t>()).first;
  it->second.insert(it->second.end(), positions.begin(), positions.end());
  size_ += static_cast<int64_t>(positions.size());
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
  }
  for (int64_t i = 0; i < batch.num_rows; ++i) add(paths.bytes_at(i), pos.raw<int64_t>()[i]);
  return Status::OK();
}

Result<std::optional<DataFile>> PositionDeleteWriter::close() {
  if (by_path_.empty()) return std::optional<DataFile>();
  for (auto& [file, positions] : by_path_) {
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  }
  auto a = FLOE_TRY(PositionDeleteAppender::open(io_, path_, options_));
  for (const auto& [file, positions] : by_path_) FLOE_TRY(a->write(file, positions));
  DataFile f = FLOE_TRY(a->close(spec_id_, partition_));
  written_ = true;
  by_path_.clear();
  size_ = 0;
  return std::optional<DataFile>(std::move(f));
}

Status PositionDeleteWriter::abort() {
  by_path_.clear();
  size_ = 0;
  if (!written_) return Status::OK();
  written_ = false;
  return io_->delete_file(path_);
}

// ---------------------------------------------------------------------------------------------

Status check_equality_ids(const Schema& delete_schema, const std::vector<int32_t>& ids,
                          std::string_view what) {
  if (ids.empty()) return invalid_argument("{}: no equality field ids", what);
  for (int32_t id : ids) {
    const NestedField* f = delete_schema.find_field(id);
    if (!f) {
      return invalid_argument("{}: equality field id {} is not in the delete schema", what, id);
    }
    if (!f->type->is_primitive()) {
      return invalid_argument("{}: equality field {} is not a primitive column", what, f->name);
    }
  }
  return Status::OK();
}

Result<std::unique_ptr<EqualityDeleteWriter>> EqualityDeleteWriter::open(
    FileIOPtr io, std::string path, std::shared_ptr<const Schema> delete_schema,
    std::vector<int32_t> equality_ids, const WriteOptions& given, int32_t spec_id,
    std::vector<Literal> partition, std::optional<int32_t> sort_order_id) {
  FLOE_TRY(check_equality_ids(*delete_schema, equality_ids, "equality deletes " + path));
  WriteOptions options = given;
  options.format = lower(options.format);
  FLOE_TRY(file_extension(options.format));
  auto w = std::unique_ptr<EqualityDeleteWriter>(new EqualityDeleteWriter());
  w->io_ = io;
  w->path_ = path;
  w->format_ = manifest_format_name(options.format);
  w->equality_ids_ = std::move(equality_ids);
  w->spec_id_ = spec_id;
  w->partition_ = std::move(partition);
  w->sort_order_id_ = sort_order_id;
  std::string ids;
  for (int32_t id : w->equality_ids_) ids += (ids.empty() ? "" : ",") + std::to_string(id);
  w->appender_ = FLOE_TRY(open_appender(std::move(io), std::move(path), *delete_schema, options,
                                        {{"delete-type", "equality"}, {"delete-field-ids", ids}}));
  return w;
}

Result<std::unique_ptr<EqualityDeleteWriter>> EqualityDeleteWriter::open(
    FileIOPtr io, std::string path, std::shared_ptr<const Schema> delete_schema,
    std::vector<int32_t> equality_ids, parquet::WriterOptions options, int32_t spec_id,
    std::vector<Literal> partition, std::optional<int32_t> sort_order_id) {
  WriteOptions o;
  o.format = "parquet";
  o.parquet = std::move(options);
  return open(std::move(io), std::move(path), std::move(delete_schema), std::move(equality_ids), o,
              spec_id, std::move(partition), sort_order_id);
}

EqualityDeleteWriter::~EqualityDeleteWriter() = default;

Status EqualityDeleteWriter::write(const ColumnBatch& batch) {
  if (!appender_) return invalid_argument("equality deletes {}: write after close()", path_);
  FLOE_TRY(appender_->write(batch));
  rows_ += batch.num_rows;
  return Status::OK();
}

int64_t EqualityDeleteWriter::estimated_size() const {
  return appender_ ? appender_->estimated_size() : 0;
}

Result<DataFile> EqualityDeleteWriter::close() {
  if (!appender_) return invalid_argument("equality deletes {}: closed twice", path_);
  auto appender = std::move(appender_);
  DataFileMetrics m = FLOE_TRY(appender->close());
  written_ = true;
  DataFile f = to_data_file(m, FileContent::kEqualityDeletes, path_, format_, partition_, spec_id_);
  f.equality_ids = equality_ids_;
  f.sort_order_id = sort_order_id_;
  return f;
}

Status EqualityDeleteWriter::abort() {
  appender_.reset();
  if (!written_) return Status::OK();
  written_ = false;
  return io_->delete_file(path_);
}

}  // namespace floe
