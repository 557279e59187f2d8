#include "floe/write/data_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "floe/columnar/kernels.h"
#include "floe/spec/table_properties.h"
#include "floe/spec/transform.h"
#include "floe/util/thread_pool.h"
#include "floe/util/uuid.h"
#include "write_internal.h"

namespace floe {

namespace tp = table_properties;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Result<int64_t> positive_property(const std::map<std::string, std::string>& props,
                                  std::string_view key, int64_t fallback) {
  auto it = props.find(std::string(key));
  if (it == props.end()) return fallback;
  char* end = nullptr;
  long long v = std::strtoll(it->second.c_str(), &end, 10);
  if (end == it->second.c_str() || *end != '\0' || v <= 0) {
    return invalid_argument("table property {}={} is not a positive integer", key, it->second);
  }
  return static_cast<int64_t>(v);
}

// Java's MetricsConfig: columns of an order-preserving sort get truncate(16) bounds when the
// default mode is none or counts, unless the column has its own setting.
Status promote_sorted_columns(const std::map<std::string, std::string>& props, const Schema& schema,
                              const SortOrder& order, parquet::WriterOptions* o) {
  MetricsMode def = o->metrics.default_mode;
  if (!props.count(std::string(tp::kDefaultWriteMetricsMode))) {
    int64_t max_inferred =
        FLOE_TRY(positive_property(props, tp::kMetricsMaxInferredColumnDefaults,
                                   tp::kMetricsMaxInferredColumnDefaultsDefault));
    if (static_cast<int64_t>(schema.fields().size()) > max_inferred)
      def = MetricsMode{MetricsMode::kNone, 0};
  }
  MetricsMode sorted = def;
  if (def.kind == MetricsMode::kNone || def.kind == MetricsMode::kCounts) {
    sorted = MetricsMode{MetricsMode::kTruncate, 16};
  }
  for (const auto& f : order.fields) {
    if (!f.transform.preserves_order()) continue;
    auto name = schema.find_column_name(f.source_id);
    if (!name || props.count(std::string(tp::kMetricsModeColumnConfPrefix) + *name)) continue;
    o->metrics.column_modes[f.source_id] = sorted;
  }
  return Status::OK();
}

}  // namespace

Result<std::string> file_extension(const std::string& format) {
  std::string f = lower(format);
  if (f == "parquet") return std::string(".parquet");
  if (f == "avro") return std::string(".avro");
  return not_supported("{}={}: floe writes parquet and avro data files only",
                       tp::kDefaultFileFormat, format);
}

Result<WriteOptions> WriteOptions::from_properties(const std::map<std::string, std::string>& props,
                                                   const Schema& schema,
                                                   const std::string& location,
                                                   const SortOrder* sort_order) {
  WriteOptions o;
  if (auto it = props.find(std::string(tp::kDefaultFileFormat)); it != props.end()) {
    o.format = lower(it->second);
    FLOE_TRY(file_extension(o.format));
  }
  o.target_file_size =
      FLOE_TRY(positive_property(props, tp::kTargetFileSizeBytes, o.target_file_size));
  o.parquet = FLOE_TRY(parquet::WriterOptions::from_properties(props, schema));
  if (sort_order) FLOE_TRY(promote_sorted_columns(props, schema, *sort_order, &o.parquet));
  if (auto it = props.find(std::string(tp::kAvroCompression)); it != props.end()) {
    o.avro_codec = FLOE_TRY(avro::parse_codec(
        lower(it->second) == "uncompressed" ? std::string("null") : lower(it->second)));
  }
  if (props.count(std::string(tp::kAvroCompressionLevel))) {
    o.avro_level =
        static_cast<int>(FLOE_TRY(positive_property(props, tp::kAvroCompressionLevel, 1)));
  }
  auto flag = [&](std::string_view key, bool fallback) {
    auto it = props.find(std::string(key));
    return it == props.end() ? fallback : lower(it->second) == "true";
  };
  o.object_storage = flag(tp::kObjectStoreEnabled, tp::kObjectStoreEnabledDefault);
  o.object_storage_partitioned_paths =
      flag(tp::kWriteObjectStorePartitionedPaths, tp::kWriteObjectStorePartitionedPathsDefault);
  auto object_path = props.find(std::string(tp::kObjectStorePath));
  if (auto it = props.find(std::string(tp::kWriteDataLocation)); it != props.end()) {
    o.data_location = it->second;
  } else if (o.object_storage && object_path != props.end()) {
    o.data_location = object_path->second;
  } else if (auto f = props.find(std::string(tp::kWriteFolderStoragePath)); f != props.end()) {
    o.data_location = f->second;
  } else {
    o.data_location = join_path(location, "data");
  }
  while (o.data_location.size() > 1 && o.data_location.back() == '/') o.data_location.pop_back();
  if (o.object_storage && o.data_location.rfind(location, 0) != 0) {
    // Java's pathContext: the table location's parent and own name.
    std::string loc = location;
    while (loc.size() > 1 && loc.back() == '/') loc.pop_back();
    size_t slash = loc.rfind('/');
    std::string table = slash == std::string::npos ? loc : loc.substr(slash + 1);
    std::string parent = slash == std::string::npos || slash == 0 ? "" : loc.substr(0, slash);
    size_t pslash = parent.rfind('/');
    std::string db = pslash == std::string::npos ? parent : parent.substr(pslash + 1);
    o.object_storage_context = db.empty() ? table : db + "/" + table;
  }
  if (auto it = props.find(std::string(tp::kSparkWritePartitionedFanoutEnabled));
      it != props.end()) {
    o.fanout = lower(it->second) != "false";
  }
  return o;
}

Result<WriteOptions> WriteOptions::from_table(const TableMetadata& table) {
  const Schema* schema = table.schema();
  if (!schema) {
    return invalid_argument("table {} has no current schema {}", table.location,
                            table.current_schema_id);
  }
  return from_properties(table.properties, *schema, table.location, table.sort_order());
}

// ---------------------------------------------------------------------------------------------

OutputFileFactory::OutputFileFactory(const WriteOptions& options, std::string extension)
    : options_(options),
      operation_id_(options.operation_id.empty() ? random_uuid() : options.operation_id),
      extension_(std::move(extension)) {}

std::string object_storage_hash_dirs(std::string_view name) {
  uint32_t h = static_cast<uint32_t>(murmur3_x86_32(name.data(), name.size()));
  std::string bits;
  for (int b = 19; b >= 0; --b) bits.push_back(((h >> b) & 1) ? '1' : '0');
  return bits.substr(0, 4) + "/" + bits.substr(4, 4) + "/" + bits.substr(8, 4) + "/" +
         bits.substr(12);
}

std::string OutputFileFactory::next_path(const std::string& partition_path,
                                         std::string_view suffix) {
  std::string name =
      fmt::format("{:05d}-{}-{}-{:05d}{}{}{}", options_.partition_id, options_.task_id,
                  operation_id_, ++counter_, suffix.empty() ? "" : "-", suffix, extension_);
  const std::string& root = options_.data_location;
  if (!options_.object_storage) {
    return join_path(partition_path.empty() ? root : join_path(root, partition_path), name);
  }
  // Java hashes the partition path with the file name when partition paths are kept.
  bool with_partition = options_.object_storage_partitioned_paths && !partition_path.empty();
  std::string file = with_partition ? partition_path + "/" + name : name;
  std::string hash = object_storage_hash_dirs(file);
  if (!options_.object_storage_context.empty()) {
    return fmt::format("{}/{}/{}/{}", root, hash, options_.object_storage_context, file);
  }
  if (options_.object_storage_partitioned_paths) return fmt::format("{}/{}/{}", root, hash, file);
  return fmt::format("{}/{}-{}", root, hash, file);
}

// ---------------------------------------------------------------------------------------------

namespace {

class ParquetAppender : public FileAppender {
 public:
  explicit ParquetAppender(std::unique_ptr<parquet::ParquetWriter> w) : w_(std::move(w)) {}
  Status write(const ColumnBatch& b) override { return w_->write(b); }
  int64_t estimated_size() const override { return w_->estimated_size(); }
  Result<DataFileMetrics> close() override { return w_->close(); }

 private:
  std::unique_ptr<parquet::ParquetWriter> w_;
};

class AvroAppender : public FileAppender {
 public:
  explicit AvroAppender(std::unique_ptr<AvroDataWriter> w) : w_(std::move(w)) {}
  Status write(const ColumnBatch& b) override { return w_->write(b); }
  int64_t estimated_size() const override { return w_->estimated_size(); }
  Result<DataFileMetrics> close() override { return w_->close(); }

 private:
  std::unique_ptr<AvroDataWriter> w_;
};

template <typename V>
ColumnMetrics<V> to_metrics(const std::map<int32_t, V>& m) {
  return ColumnMetrics<V>(m.begin(), m.end());
}

}  // namespace

parquet::WriterOptions with_iceberg_schema(parquet::WriterOptions o, const Schema& schema,
                                           std::vector<parquet::KeyValue> extra) {
  // Java's Parquet writer stores the Iceberg schema JSON in the footer (as do pyiceberg and
  // iceberg-go); readers without field-id support use it to map columns.
  o.key_value_metadata.push_back({"iceberg.schema", schema_to_json(schema)});
  for (auto& kv : extra) o.key_value_metadata.push_back(std::move(kv));
  return o;
}

Result<std::unique_ptr<FileAppender>> open_appender(FileIOPtr io, const std::string& path,
                                                    const Schema& schema,
                                                    const WriteOptions& options,
                                                    std::vector<parquet::KeyValue> extra) {
  if (options.format == "avro") {
    avro::ContainerWriterOptions c;
    c.codec = options.avro_codec;
    c.level = options.avro_level;
    std::map<std::string, std::string> meta;
    for (auto& kv : extra) meta[kv.key] = kv.value.value_or("");
    auto w = FLOE_TRY(
        AvroDataWriter::open(std::move(io), path, schema, options.parquet.metrics, c, meta));
    return std::unique_ptr<FileAppender>(new AvroAppender(std::move(w)));
  }
  if (options.format != "parquet") FLOE_TRY(file_extension(options.format));
  auto w = FLOE_TRY(parquet::ParquetWriter::open(
      std::move(io), path, schema, with_iceberg_schema(options.parquet, schema, std::move(extra))));
  return std::unique_ptr<FileAppender>(new ParquetAppender(std::move(w)));
}

std::string manifest_format_name(const std::string& format) {
  return format == "avro" ? "AVRO" : "PARQUET";
}

DataFile to_data_file(const DataFileMetrics& m, FileContent content, std::string path,
                      std::string format, std::vector<Literal> partition, int32_t spec_id) {
  DataFile f;
  f.content = content;
  f.file_path = std::move(path);
  f.file_format = std::move(format);
  f.partition = std::move(partition);
  f.record_count = m.record_count;
  f.file_size_in_bytes = m.file_size;
  f.column_sizes = to_metrics(m.column_sizes);
  f.value_counts = to_metrics(m.value_counts);
  f.null_value_counts = to_metrics(m.null_value_counts);
  f.nan_value_counts = to_metrics(m.nan_value_counts);
  f.lower_bounds = to_metrics(m.lower_bounds);
  f.upper_bounds = to_metrics(m.upper_bounds);
  if (!m.split_offsets.empty()) f.split_offsets = m.split_offsets;
  f.spec_id = spec_id;
  return f;
}

// ---------------------------------------------------------------------------------------------

Result<std::unique_ptr<DataFileWriter>> DataFileWriter::make(
    FileIOPtr io, std::shared_ptr<const Schema> schema, const WriteOptions& options,
    OutputFileFactory* files, std::vector<Literal> partition, std::string partition_path,
    int32_t spec_id) {
  FLOE_TRY(file_extension(options.format));
  auto w = std::unique_ptr<DataFileWriter>(new DataFileWriter());
  w->io_ = std::move(io);
  w->schema_ = std::move(schema);
  w->options_ = options;
  w->files_ = files;
  w->partition_ = std::move(partition);
  w->partition_path_ = std::move(partition_path);
  w->spec_id_ = spec_id;
  return w;
}

DataFileWriter::~DataFileWriter() = default;

Status DataFileWriter::open_file() {
  current_path_ = files_->next_path(partition_path_);
  appender_ = FLOE_TRY(open_appender(io_, current_path_, *schema_, options_));
  rows_in_file_ = 0;
  return Status::OK();
}

Status DataFileWriter::close_file() {
  auto appender = std::move(appender_);
  DataFileMetrics m = FLOE_TRY(appender->close());
  DataFile f = to_data_file(m, FileContent::kData, current_path_,
                            manifest_format_name(options_.format), partition_, spec_id_);
  f.sort_order_id = options_.sort_order_id;
  written_.push_back(std::move(f));
  return Status::OK();
}

Status DataFileWriter::write_chunk(const ColumnBatch& batch) {
  if (!appender_) FLOE_TRY(open_file());
  FLOE_TRY(appender_->write(batch));
  rows_in_file_ += batch.num_rows;
  rows_written_ += batch.num_rows;
  if (appender_->estimated_size() >= options_.target_file_size) FLOE_TRY(close_file());
  return Status::OK();
}

namespace {

int64_t memory_bytes(const ColumnVector& c) {
  int64_t b = static_cast<int64_t>(c.values().size() + c.offsets().size() + c.data().size() +
                                   c.validity().size());
  for (size_t k = 0; k < c.num_children(); ++k) b += memory_bytes(c.child(k));
  return b;
}

int64_t memory_bytes(const ColumnBatch& batch) {
  int64_t b = 0;
  for (const auto& c : batch.columns) b += memory_bytes(*c);
  return b;
}

}  // namespace

Status DataFileWriter::write(const ColumnBatch& batch) {
  // Rows go in slices sized from the current file's bytes per row so a file rolls close to the
  // target even when one batch holds many files' worth of rows.
  constexpr int64_t kProbeRows = 1000;
  const int64_t raw = memory_bytes(batch);
  int64_t offset = 0;
  while (offset < batch.num_rows) {
    int64_t left = batch.num_rows - offset;
    int64_t take = left;
    int64_t est = appender_ ? appender_->estimated_size() : 0;
    if (est + raw * left / batch.num_rows < options_.target_file_size) {
      // In-memory bytes roughly bound the encoded size: the rest fits, no slice copy needed.
    } else if (!appender_ || rows_in_file_ == 0) {
      take = std::min(left, kProbeRows);
    } else {
      int64_t size = std::max<int64_t>(appender_->estimated_size(), 1);
      double per_row = static_cast<double>(size) / static_cast<double>(rows_in_file_);
      double fit = static_cast<double>(options_.target_file_size - size) / per_row;
      take = std::clamp<int64_t>(static_cast<int64_t>(fit) + 1, 1, left);
    }
    if (offset == 0 && take == left) return write_chunk(batch);
    std::vector<int32_t> idx(static_cast<size_t>(take));
    std::iota(idx.begin(), idx.end(), static_cast<int32_t>(offset));
    FLOE_TRY(write_chunk(gather(batch, idx)));
    offset += take;
  }
  return Status::OK();
}

Result<std::vector<DataFile>> DataFileWriter::close() {
  if (appender_) FLOE_TRY(close_file());
  return written_;
}

Status DataFileWriter::abort() {
  appender_.reset();
  Status first = Status::OK();
  for (const auto& f : written_) {
    Status s = io_->delete_file(f.file_path);
    if (!s.ok() && s.kind() != ErrorKind::kNotFound && first.ok()) first = s;
  }
  written_.clear();
  return first;
}

// ---------------------------------------------------------------------------------------------

Result<std::unique_ptr<TableWriter>> TableWriter::make(FileIOPtr io, const TableMetadata& table,
                                                       std::optional<WriteOptions> options) {
  const Schema* schema = table.schema();
  const PartitionSpec* spec = table.spec();
  if (!schema || !spec) {
    return invalid_argument("table {} has no current schema or default spec", table.location);
  }
  WriteOptions o = options ? std::move(*options) : FLOE_TRY(WriteOptions::from_table(table));
  return make(std::move(io), std::make_shared<Schema>(*schema),
              std::make_shared<PartitionSpec>(*spec), std::move(o));
}

Result<std::unique_ptr<TableWriter>> TableWriter::make(FileIOPtr io,
                                                       std::shared_ptr<const Schema> schema,
                                                       std::shared_ptr<const PartitionSpec> spec,
                                                       WriteOptions options) {
  std::string ext = FLOE_TRY(file_extension(options.format));
  options.format = lower(options.format);
  if (options.data_location.empty()) {
    return invalid_argument("TableWriter needs a data location (see WriteOptions::from_table)");
  }
  FLOE_TRY(spec->partition_type(*schema));
  auto w = std::unique_ptr<TableWriter>(new TableWriter());
  w->io_ = std::move(io);
  w->schema_ = std::move(schema);
  w->spec_ = std::move(spec);
  w->files_ = std::make_unique<OutputFileFactory>(options, ext);
  // One pool for every Parquet file the write opens (a fan-out write has one per partition).
  if (options.format == "parquet" && options.parquet.threads > 1 && !options.parquet.pool) {
    options.parquet.pool = std::make_shared<ThreadPool>(options.parquet.threads);
  }
  w->options_ = std::move(options);
  return w;
}

TableWriter::~TableWriter() = default;

// Distinguishes null from every value (partition_to_path does not: null and "null" share it).
std::string partition_key(const std::vector<Literal>& values) {
  std::string key;
  for (const auto& v : values) {
    if (v.is_null()) {
      key += '\0';
      continue;
    }
    auto bytes = v.to_bytes();
    std::string b = bytes.ok() ? *bytes : v.to_string();
    key += '\1';
    key += fmt::format("{}:", b.size());
    key += b;
  }
  return key;
}

Status TableWriter::retire_current() {
  for (auto& [key, w] : open_) {
    closed_keys_[key] = true;
    retired_.push_back(std::move(w));
  }
  open_.clear();
  return Status::OK();
}

Result<DataFileWriter*> TableWriter::writer_for(const std::vector<Literal>& partition) {
  std::string key = partition_key(partition);
  if (auto it = open_.find(key); it != open_.end()) return it->second.get();
  if (!options_.fanout) {
    if (closed_keys_.count(key)) {
      return invalid_argument(
          "clustered write to {}: partition {} appears again after other partitions; sort the "
          "input by partition or enable fan-out (write.spark.fanout.enabled)",
          options_.data_location, spec_->partition_to_path(partition));
    }
    // A retired writer keeps its open file until close(): close it now to bound memory.
    FLOE_TRY(retire_current());
    for (auto& w : retired_) {
      if (!w) continue;
      auto files = w->close();
      if (!files.ok()) return files.status();
    }
  }
  // A spec of void fields only is unpartitioned (Java's Spark writer then adds no path).
  std::string path =
      spec_->is_unpartitioned() ? std::string() : spec_->partition_to_path(partition);
  auto w = FLOE_TRY(DataFileWriter::make(io_, schema_, options_, files_.get(), partition, path,
                                         spec_->spec_id()));
  DataFileWriter* raw = w.get();
  open_[key] = std::move(w);
  return raw;
}

namespace {

// A NULL in a required field nested in a struct, list or map (where the parent holds a value) is
// an error naming the field; Avro and Parquet would otherwise write a zero or corrupt levels.
Status check_nested_required(const ColumnVector& col, const Type& type, const std::string& name,
                             const std::string& where) {
  if (!type.is_nested()) return Status::OK();
  for (size_t c = 0; c < type.fields().size() && c < col.num_children(); ++c) {
    const NestedField& f = type.fields()[c];
    const ColumnVector& child = col.child(c);
    const std::string path = name + "." + f.name;
    if (f.required && child.null_count() > 0) {
      if (type.is_struct()) {
        for (int64_t i = 0; i < col.length(); ++i) {
          if (!col.is_null(i) && child.is_null(i)) {
            return invalid_argument("write to {}: required field {} is NULL in row {}", where, path,
                                    i);
          }
        }
      } else {
        return invalid_argument("write to {}: required field {} has NULLs", where, path);
      }
    }
    FLOE_TRY(check_nested_required(child, *f.type, path, where));
  }
  return Status::OK();
}

}  // namespace

Status TableWriter::write(const ColumnBatch& batch) {
  if (closed_) return invalid_argument("write to {} after close()", options_.data_location);
  if (batch.columns.size() != schema_->fields().size()) {
    return invalid_argument("write to {}: batch has {} columns, the table schema {}",
                            options_.data_location, batch.columns.size(), schema_->fields().size());
  }
  for (size_t c = 0; c < batch.columns.size(); ++c) {
    const NestedField& f = schema_->fields()[c];
    const ColumnVector& col = *batch.columns[c];
    if (!col.type()->equals(*f.type)) {
      return invalid_argument("write to {}: column {} is {}, the table schema says {}",
                              options_.data_location, f.name, col.type()->to_string(),
                              f.type->to_string());
    }
    if (col.length() != batch.num_rows) {
      return invalid_argument("write to {}: column {} has {} rows, the batch {}",
                              options_.data_location, f.name, col.length(), batch.num_rows);
    }
    if (f.required && col.null_count() > 0) {
      return invalid_argument("write to {}: required column {} has {} null(s)",
                              options_.data_location, f.name, col.null_count());
    }
    FLOE_TRY(check_nested_required(col, *f.type, f.name, options_.data_location));
  }
  if (batch.num_rows == 0) return Status::OK();
  rows_written_ += batch.num_rows;
  if (order_) {
    held_.push_back(batch);
    return Status::OK();
  }
  return write_rows(batch);
}

void TableWriter::order_rows(RowOrder order, int32_t sort_order_id) {
  order_ = std::move(order);
  options_.sort_order_id = sort_order_id;
}

Status TableWriter::write_rows(const ColumnBatch& batch) {
  if (spec_->fields().empty()) {
    DataFileWriter* w = FLOE_TRY(writer_for({}));
    return w->write(batch);
  }
  auto groups = FLOE_TRY(group_by_partition(*spec_, *schema_, batch));
  for (const auto& g : groups) {
    DataFileWriter* w = FLOE_TRY(writer_for(g.partition));
    if (groups.size() == 1) {
      FLOE_TRY(w->write(batch));
    } else {
      FLOE_TRY(w->write(gather(batch, g.rows)));
    }
  }
  return Status::OK();
}

Result<std::vector<DataFile>> TableWriter::close() {
  if (order_ && !held_.empty()) {
    ColumnBatch all = FLOE_TRY(concat_batches(held_, schema_->fields()));
    held_.clear();
    ColumnBatch sorted = FLOE_TRY(order_(std::move(all)));
    constexpr int64_t kChunk = 65536;  // the writers' batches stay of the usual size
    for (int64_t at = 0; at < sorted.num_rows; at += kChunk) {
      FLOE_TRY(write_rows(slice_batch(sorted, at, std::min(kChunk, sorted.num_rows - at))));
    }
  }
  std::vector<DataFile> out;
  FLOE_TRY(retire_current());
  for (auto& w : retired_) {
    auto files = FLOE_TRY(w->close());
    out.insert(out.end(), files.begin(), files.end());
  }
  closed_ = true;
  return out;
}

Status TableWriter::abort() {
  FLOE_TRY(retire_current());
  Status first = Status::OK();
  for (auto& w : retired_) {
    Status s = w->abort();
    if (!s.ok() && first.ok()) first = s;
  }
  closed_ = true;
  return first;
}

}  // namespace floe
