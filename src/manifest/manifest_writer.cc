#include "floe/manifest/manifest_writer.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "floe/format/avro/iceberg_types.h"
#include "floe/spec/table_metadata.h"
#include "floe/spec/type.h"
#include "floe/util/decimal.h"

namespace floe {

using avro::Encoder;
using ojson = nlohmann::ordered_json;

namespace {

// ---------------------------------------------------------------------------------------------
// Avro schema pieces, as Java's AvroSchemaUtil builds them.

ojson field(const char* name, ojson type, int32_t id) {
  ojson f = ojson::object();
  f["name"] = name;
  f["type"] = std::move(type);
  f["field-id"] = id;
  return f;
}

ojson optional_field(const std::string& name, ojson type, int32_t id) {
  ojson f = ojson::object();
  f["name"] = name;
  f["type"] = ojson::array({"null", std::move(type)});
  f["default"] = nullptr;
  f["field-id"] = id;
  return f;
}

ojson record(const std::string& name, ojson fields) {
  ojson r = ojson::object();
  r["type"] = "record";
  r["name"] = name;
  r["fields"] = std::move(fields);
  return r;
}

ojson int_map(int32_t key_id, int32_t value_id, const char* value_type) {
  ojson kv =
      record(fmt::format("k{}_v{}", key_id, value_id),
             ojson::array({field("key", "int", key_id), field("value", value_type, value_id)}));
  ojson a = ojson::object();
  a["type"] = "array";
  a["items"] = std::move(kv);
  a["logicalType"] = "map";
  return a;
}

ojson array_of(const char* item, int32_t element_id) {
  ojson a = ojson::object();
  a["type"] = "array";
  a["items"] = item;
  a["element-id"] = element_id;
  return a;
}

ojson partition_record(const Type& partition_type) {
  std::set<std::string> named;
  ojson fields = ojson::array();
  for (const auto& f : partition_type.fields()) {
    std::string avro_name = avro::compatible_name(f.name);
    ojson pf = optional_field(avro_name, avro::iceberg_primitive_type(*f.type, &named), f.id);
    if (avro_name != f.name) pf["iceberg-field-name"] = f.name;
    fields.push_back(std::move(pf));
  }
  return record("r102", std::move(fields));
}

ojson entry_schema(int version, const Type& partition_type) {
  ojson df = ojson::array();
  if (version >= 2) df.push_back(field("content", "int", 134));
  df.push_back(field("file_path", "string", 100));
  df.push_back(field("file_format", "string", 101));
  df.push_back(field("partition", partition_record(partition_type), 102));
  df.push_back(field("record_count", "long", 103));
  df.push_back(field("file_size_in_bytes", "long", 104));
  if (version == 1) df.push_back(field("block_size_in_bytes", "long", 105));
  df.push_back(optional_field("column_sizes", int_map(117, 118, "long"), 108));
  df.push_back(optional_field("value_counts", int_map(119, 120, "long"), 109));
  df.push_back(optional_field("null_value_counts", int_map(121, 122, "long"), 110));
  df.push_back(optional_field("nan_value_counts", int_map(138, 139, "long"), 137));
  df.push_back(optional_field("lower_bounds", int_map(126, 127, "bytes"), 125));
  df.push_back(optional_field("upper_bounds", int_map(129, 130, "bytes"), 128));
  df.push_back(optional_field("key_metadata", "bytes", 131));
  df.push_back(optional_field("split_offsets", array_of("long", 133), 132));
  if (version >= 2) df.push_back(optional_field("equality_ids", array_of("int", 136), 135));
  df.push_back(optional_field("sort_order_id", "int", 140));
  if (version >= 3) df.push_back(optional_field("first_row_id", "long", 142));
  if (version >= 2) df.push_back(optional_field("referenced_data_file", "string", 143));
  if (version >= 3) {
    df.push_back(optional_field("content_offset", "long", 144));
    df.push_back(optional_field("content_size_in_bytes", "long", 145));
  }
  ojson fields = ojson::array();
  fields.push_back(field("status", "int", 0));
  fields.push_back(optional_field("snapshot_id", "long", 1));
  if (version >= 2) {
    fields.push_back(optional_field("sequence_number", "long", 3));
    fields.push_back(optional_field("file_sequence_number", "long", 4));
  }
  fields.push_back(field("data_file", record("r2", std::move(df)), 2));
  return record("manifest_entry", std::move(fields));
}

ojson list_schema(int version) {
  ojson summary = record("r508", ojson::array({field("contains_null", "boolean", 509),
                                               optional_field("contains_nan", "boolean", 518),
                                               optional_field("lower_bound", "bytes", 510),
                                               optional_field("upper_bound", "bytes", 511)}));
  ojson partitions = ojson::object();
  partitions["type"] = "array";
  partitions["items"] = std::move(summary);
  partitions["element-id"] = 508;
  ojson f = ojson::array();
  f.push_back(field("manifest_path", "string", 500));
  f.push_back(field("manifest_length", "long", 501));
  f.push_back(field("partition_spec_id", "int", 502));
  if (version == 1) {
    f.push_back(optional_field("added_snapshot_id", "long", 503));
    f.push_back(optional_field("added_files_count", "int", 504));
    f.push_back(optional_field("existing_files_count", "int", 505));
    f.push_back(optional_field("deleted_files_count", "int", 506));
    f.push_back(optional_field("partitions", std::move(partitions), 507));
    f.push_back(optional_field("added_rows_count", "long", 512));
    f.push_back(optional_field("existing_rows_count", "long", 513));
    f.push_back(optional_field("deleted_rows_count", "long", 514));
    f.push_back(optional_field("key_metadata", "bytes", 519));
  } else {
    f.push_back(field("content", "int", 517));
    f.push_back(field("sequence_number", "long", 515));
    f.push_back(field("min_sequence_number", "long", 516));
    f.push_back(field("added_snapshot_id", "long", 503));
    f.push_back(field("added_files_count", "int", 504));
    f.push_back(field("existing_files_count", "int", 505));
    f.push_back(field("deleted_files_count", "int", 506));
    f.push_back(field("added_rows_count", "long", 512));
    f.push_back(field("existing_rows_count", "long", 513));
    f.push_back(field("deleted_rows_count", "long", 514));
    f.push_back(optional_field("partitions", std::move(partitions), 507));
    f.push_back(optional_field("key_metadata", "bytes", 519));
    if (version >= 3) f.push_back(optional_field("first_row_id", "long", 520));
  }
  return record("manifest_file", std::move(f));
}

// ---------------------------------------------------------------------------------------------
// Encoding.

template <typename T>
void write_opt_long(Encoder& e, const std::optional<T>& v) {
  if (v) {
    e.write_branch(1);
    e.write_long(*v);
  } else {
    e.write_branch(0);
  }
}

void write_opt_bytes(Encoder& e, const std::optional<std::string>& v) {
  if (v) {
    e.write_branch(1);
    e.write_bytes(*v);
  } else {
    e.write_branch(0);
  }
}

// Metric maps: null when empty, as Java writes absent metrics.
void write_counts(Encoder& e, const ColumnMetrics<int64_t>& m) {
  if (m.empty()) return e.write_branch(0);
  e.write_branch(1);
  e.write_long(static_cast<int64_t>(m.size()));
  for (const auto& [k, v] : m) {
    e.write_int(k);
    e.write_long(v);
  }
  e.write_long(0);
}

void write_bounds(Encoder& e, const ColumnMetrics<std::string>& m) {
  if (m.empty()) return e.write_branch(0);
  e.write_branch(1);
  e.write_long(static_cast<int64_t>(m.size()));
  for (const auto& [k, v] : m) {
    e.write_int(k);
    e.write_bytes(v);
  }
  e.write_long(0);
}

template <typename T>
void write_opt_array(Encoder& e, const std::optional<std::vector<T>>& v) {
  if (!v) return e.write_branch(0);
  e.write_branch(1);
  if (!v->empty()) {
    e.write_long(static_cast<int64_t>(v->size()));
    for (T x : *v) e.write_long(x);
  }
  e.write_long(0);
}

Status write_partition_value(Encoder& e, const Literal& v, const Type& type) {
  if (v.is_null()) {
    e.write_branch(0);
    return Status::OK();
  }
  e.write_branch(1);
  switch (type.id()) {
    case TypeId::kBoolean:
      e.write_bool(v.as_bool());
      break;
    case TypeId::kInt:
    case TypeId::kDate:
      e.write_int(v.as_int32());
      break;
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      e.write_long(v.as_int64());
      break;
    case TypeId::kFloat:
      e.write_float(v.as_float());
      break;
    case TypeId::kDouble:
      e.write_double(v.as_double());
      break;
    case TypeId::kString:
    case TypeId::kBinary:
      e.write_bytes(v.as_bytes());
      break;
    case TypeId::kFixed:
      e.write_fixed(v.as_bytes());
      break;
    case TypeId::kUuid: {
      const auto& b = v.as_uuid().bytes;
      e.write_fixed(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
      break;
    }
    case TypeId::kDecimal: {
      // Sign-extended to the fixed size of the precision.
      std::string minimal = decimal_to_bytes(v.as_decimal());
      size_t size = static_cast<size_t>(avro::decimal_required_bytes(type.precision()));
      if (minimal.size() > size) {
        return invalid_argument("decimal partition value does not fit decimal({}, {})",
                                type.precision(), type.scale());
      }
      char pad = v.as_decimal() < 0 ? '\xff' : '\0';
      e.write_fixed(std::string(size - minimal.size(), pad) + minimal);
      break;
    }
    default:
      e.write_bytes(v.to_string());
      break;
  }
  return Status::OK();
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Partition summaries.

PartitionSummaryBuilder::PartitionSummaryBuilder(TypePtr partition_type)
    : type_(std::move(partition_type)), stats_(type_->fields().size()) {}

void PartitionSummaryBuilder::update(const std::vector<Literal>& partition) {
  for (size_t i = 0; i < stats_.size() && i < partition.size(); ++i) {
    const Literal& v = partition[i];
    FieldStats& s = stats_[i];
    if (v.is_null()) {
      s.contains_null = true;
      continue;
    }
    TypeId id = v.type() ? v.type()->id() : TypeId::kUnknown;
    if ((id == TypeId::kFloat && std::isnan(v.as_float())) ||
        (id == TypeId::kDouble && std::isnan(v.as_double()))) {
      s.contains_nan = true;
      continue;
    }
    // compare() orders -0.0 before +0.0, so the bounds keep the sign rule.
    if (!s.min || v.compare(*s.min) < 0) s.min = v;
    if (!s.max || v.compare(*s.max) > 0) s.max = v;
  }
}

std::vector<PartitionFieldSummary> PartitionSummaryBuilder::summaries() const {
  std::vector<PartitionFieldSummary> out;
  for (const auto& s : stats_) {
    PartitionFieldSummary p;
    p.contains_null = s.contains_null;
    p.contains_nan = s.contains_nan;
    if (s.min) {
      auto b = s.min->to_bytes();
      if (b.ok()) p.lower_bound = *b;
    }
    if (s.max) {
      auto b = s.max->to_bytes();
      if (b.ok()) p.upper_bound = *b;
    }
    out.push_back(std::move(p));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// ManifestWriter.

struct ManifestWriter::Impl {
  FileIO* io = nullptr;
  std::function<std::string(int)> path_for;
  SchemaPtr schema;
  PartitionSpecPtr spec;
  TypePtr partition_type;
  ManifestWriterOptions options;
  std::string avro_schema;
  std::map<std::string, std::string> metadata;

  std::unique_ptr<avro::ContainerWriter> writer;
  int index = 0;
  ManifestFile current;
  std::optional<PartitionSummaryBuilder> summary;
  std::optional<int64_t> min_seq;
  std::vector<ManifestFile> written;

  void start() {
    avro::ContainerWriterOptions o;
    o.codec = options.codec;
    o.level = options.level;
    o.sync_marker = options.sync_marker;
    writer = std::make_unique<avro::ContainerWriter>(avro_schema, metadata, o);
    current = ManifestFile{};
    current.manifest_path = path_for(index++);
    current.partition_spec_id = spec->spec_id();
    current.content = options.content;
    current.sequence_number = kUnassignedSequenceNumber;
    current.min_sequence_number = kUnassignedSequenceNumber;
    current.added_snapshot_id = options.snapshot_id;
    current.added_files_count = 0;
    current.existing_files_count = 0;
    current.deleted_files_count = 0;
    current.added_rows_count = 0;
    current.existing_rows_count = 0;
    current.deleted_rows_count = 0;
    summary.emplace(partition_type);
    min_seq.reset();
  }

  Status close() {
    if (!writer) return Status::OK();
    std::string bytes = FLOE_TRY(writer->finish());
    writer.reset();
    FLOE_TRY(io->write_file(current.manifest_path, bytes));
    current.manifest_length = static_cast<int64_t>(bytes.size());
    current.partitions = summary->summaries();
    if (min_seq) current.min_sequence_number = *min_seq;
    written.push_back(std::move(current));
    return Status::OK();
  }

  Status encode(const ManifestEntry& entry) {
    const DataFile& f = entry.data_file;
    int v = options.format_version;
    if (f.partition.size() != partition_type->fields().size()) {
      return invalid_argument("{}: data file {} has {} partition values, spec {} has {} fields",
                              current.manifest_path, f.file_path, f.partition.size(),
                              spec->spec_id(), partition_type->fields().size());
    }
    Encoder& e = writer->encoder();
    e.write_int(static_cast<int32_t>(entry.status));
    write_opt_long(e, entry.snapshot_id);
    if (v >= 2) {
      write_opt_long(e, entry.sequence_number);
      write_opt_long(e, entry.file_sequence_number);
      e.write_int(static_cast<int32_t>(f.content));
    }
    e.write_string(f.file_path);
    e.write_string(f.file_format);
    for (size_t i = 0; i < f.partition.size(); ++i) {
      FLOE_TRY(write_partition_value(e, f.partition[i], *partition_type->fields()[i].type));
    }
    e.write_long(f.record_count);
    e.write_long(f.file_size_in_bytes);
    if (v == 1) e.write_long(67108864);  // block_size_in_bytes, as Java writes
    write_counts(e, f.column_sizes);
    write_counts(e, f.value_counts);
    write_counts(e, f.null_value_counts);
    write_counts(e, f.nan_value_counts);
    write_bounds(e, f.lower_bounds);
    write_bounds(e, f.upper_bounds);
    write_opt_bytes(e, f.key_metadata);
    write_opt_array(e, f.split_offsets);
    if (v >= 2) write_opt_array(e, f.equality_ids);
    write_opt_long(e, f.sort_order_id);
    if (v >= 3) write_opt_long(e, f.first_row_id);
    if (v >= 2) write_opt_bytes(e, f.referenced_data_file);
    if (v >= 3) {
      write_opt_long(e, f.content_offset);
      write_opt_long(e, f.content_size_in_bytes);
    }
    return writer->end_object();
  }

  Status write(const ManifestEntry& entry) {
    if (!writer) start();
    FLOE_TRY(encode(entry));
    const DataFile& f = entry.data_file;
    switch (entry.status) {
      case ManifestEntryStatus::kAdded:
        *current.added_files_count += 1;
        *current.added_rows_count += f.record_count;
        break;
      case ManifestEntryStatus::kExisting:
        *current.existing_files_count += 1;
        *current.existing_rows_count += f.record_count;
        break;
      case ManifestEntryStatus::kDeleted:
        *current.deleted_files_count += 1;
        *current.deleted_rows_count += f.record_count;
        break;
    }
    // Java summarises every entry written, DELETED included.
    summary->update(f.partition);
    if (entry.is_live() && entry.sequence_number) {
      min_seq = min_seq ? std::min(*min_seq, *entry.sequence_number) : *entry.sequence_number;
    }
    if (static_cast<int64_t>(writer->estimated_size()) >= options.target_size_bytes) {
      FLOE_TRY(close());
    }
    return Status::OK();
  }
};

ManifestWriter::ManifestWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ManifestWriter::~ManifestWriter() = default;

Result<std::unique_ptr<ManifestWriter>> ManifestWriter::make(
    FileIO& io, std::function<std::string(int)> path_for, SchemaPtr schema, PartitionSpecPtr spec,
    ManifestWriterOptions options) {
  if (options.format_version < 1 || options.format_version > kMaxFormatVersion) {
    return invalid_argument("unsupported manifest format version {}", options.format_version);
  }
  if (options.format_version == 1 && options.content == ManifestContent::kDeletes) {
    return invalid_argument("v1 manifests cannot hold delete files");
  }
  auto impl = std::make_unique<Impl>();
  impl->io = &io;
  impl->path_for = std::move(path_for);
  impl->schema = std::move(schema);
  impl->spec = std::move(spec);
  impl->options = std::move(options);
  impl->partition_type = FLOE_TRY(impl->spec->partition_type(*impl->schema));
  impl->avro_schema = entry_schema(impl->options.format_version, *impl->partition_type).dump();
  auto& m = impl->metadata;
  m["schema"] = schema_to_json(*impl->schema);
  m["partition-spec"] = partition_spec_fields_to_json(*impl->spec);
  m["partition-spec-id"] = std::to_string(impl->spec->spec_id());
  m["format-version"] = std::to_string(impl->options.format_version);
  if (impl->options.format_version >= 2) {
    m["content"] = manifest_content_name(impl->options.content);
  }
  return std::unique_ptr<ManifestWriter>(new ManifestWriter(std::move(impl)));
}

const std::string& ManifestWriter::avro_schema_json() const { return impl_->avro_schema; }

Status ManifestWriter::add(const DataFile& file, std::optional<int64_t> data_sequence_number) {
  ManifestEntry e;
  e.status = ManifestEntryStatus::kAdded;
  e.snapshot_id = impl_->options.snapshot_id;
  e.sequence_number = data_sequence_number;
  e.data_file = file;
  return impl_->write(e);
}

Status ManifestWriter::existing(const ManifestEntry& entry) {
  ManifestEntry e = entry;
  e.status = ManifestEntryStatus::kExisting;
  return impl_->write(e);
}

Status ManifestWriter::deleted(const ManifestEntry& entry) {
  ManifestEntry e = entry;
  e.status = ManifestEntryStatus::kDeleted;
  e.snapshot_id = impl_->options.snapshot_id;
  return impl_->write(e);
}

Status ManifestWriter::write(const ManifestEntry& entry) { return impl_->write(entry); }

Result<std::vector<ManifestFile>> ManifestWriter::finish() {
  FLOE_TRY(impl_->close());
  return std::move(impl_->written);
}

// ---------------------------------------------------------------------------------------------
// Manifest list.

Result<ManifestListWriteResult> write_manifest_list(FileIO& io, std::string_view path,
                                                    const std::vector<ManifestFile>& manifests,
                                                    const ManifestListWriterOptions& options) {
  int v = options.format_version;
  if (v < 1 || v > kMaxFormatVersion) {
    return invalid_argument("unsupported manifest list format version {}", v);
  }
  std::map<std::string, std::string> meta;
  meta["snapshot-id"] = std::to_string(options.snapshot_id);
  meta["parent-snapshot-id"] =
      options.parent_snapshot_id ? std::to_string(*options.parent_snapshot_id) : "null";
  if (v >= 2) meta["sequence-number"] = std::to_string(options.sequence_number);
  if (v >= 3 && options.first_row_id) meta["first-row-id"] = std::to_string(*options.first_row_id);
  meta["format-version"] = std::to_string(v);
  avro::ContainerWriterOptions o;
  o.codec = options.codec;
  o.level = options.level;
  o.sync_marker = options.sync_marker;
  avro::ContainerWriter w(list_schema(v).dump(), meta, o);

  ManifestListWriteResult result;
  std::optional<int64_t> next_row_id = v >= 3 ? options.first_row_id : std::nullopt;
  for (ManifestFile m : manifests) {
    if (v == 1) {
      m.sequence_number = 0;  // v1 lists carry none; readers see 0
      m.min_sequence_number = 0;
    } else {
      if (m.sequence_number == kUnassignedSequenceNumber)
        m.sequence_number = options.sequence_number;
      if (m.min_sequence_number == kUnassignedSequenceNumber) {
        m.min_sequence_number = options.sequence_number;
      }
    }
    if (v >= 3 && m.content == ManifestContent::kData && !m.first_row_id && next_row_id) {
      m.first_row_id = *next_row_id;
      *next_row_id += m.added_rows_count.value_or(0) + m.existing_rows_count.value_or(0);
    }
    Encoder& e = w.encoder();
    e.write_string(m.manifest_path);
    e.write_long(m.manifest_length);
    e.write_int(m.partition_spec_id);
    if (v == 1) {
      write_opt_long(e, m.added_snapshot_id);
      write_opt_long(e, m.added_files_count);
      write_opt_long(e, m.existing_files_count);
      write_opt_long(e, m.deleted_files_count);
    } else {
      e.write_int(static_cast<int32_t>(m.content));
      e.write_long(m.sequence_number);
      e.write_long(m.min_sequence_number);
      e.write_long(m.added_snapshot_id.value_or(options.snapshot_id));
      e.write_int(m.added_files_count.value_or(0));
      e.write_int(m.existing_files_count.value_or(0));
      e.write_int(m.deleted_files_count.value_or(0));
      e.write_long(m.added_rows_count.value_or(0));
      e.write_long(m.existing_rows_count.value_or(0));
      e.write_long(m.deleted_rows_count.value_or(0));
    }
    auto write_partitions = [&] {
      if (!m.partitions) return e.write_branch(0);
      e.write_branch(1);
      if (!m.partitions->empty()) {
        e.write_long(static_cast<int64_t>(m.partitions->size()));
        for (const auto& s : *m.partitions) {
          e.write_bool(s.contains_null);
          if (s.contains_nan) {
            e.write_branch(1);
            e.write_bool(*s.contains_nan);
          } else {
            e.write_branch(0);
          }
          write_opt_bytes(e, s.lower_bound);
          write_opt_bytes(e, s.upper_bound);
        }
      }
      e.write_long(0);
    };
    if (v == 1) {
      write_partitions();
      write_opt_long(e, m.added_rows_count);
      write_opt_long(e, m.existing_rows_count);
      write_opt_long(e, m.deleted_rows_count);
      write_opt_bytes(e, m.key_metadata);
    } else {
      write_partitions();
      write_opt_bytes(e, m.key_metadata);
      if (v >= 3) write_opt_long(e, m.first_row_id);
    }
    FLOE_TRY(w.end_object());
    result.manifests.push_back(std::move(m));
  }
  std::string bytes = FLOE_TRY(w.finish());
  FLOE_TRY(io.write_file(path, bytes));
  result.length = static_cast<int64_t>(bytes.size());
  result.next_row_id = next_row_id;
  return result;
}

}  // namespace floe
