// The file tables (files, data_files, delete_files and their all_* forms), the entry tables
// (entries, all_entries): rows from manifest entries, read in parallel.
//
// Java semantics kept here: the file tables list live entries (ADDED and EXISTING) of the
// snapshot's manifests; entries lists every entry, DELETED ones included; the all_* tables read
// each manifest reachable from any live snapshot once (files still appear once per manifest
// that lists them). Partition values are coerced to the partition type of all specs, with
// null for fields a file's spec lacks.
#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_map>

#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/util/thread_pool.h"
#include "table/metadata_tables_internal.h"

namespace floe::internal {

namespace {

// Field ids of the data_file struct (DataFile.getType in Java).
constexpr int32_t kPartitionId = 102;

std::vector<NestedField> data_file_fields(const TypePtr& partition_type) {
  std::vector<NestedField> f = {
      opt(134, "content", Type::int32()),
      req(100, "file_path", Type::string()),
      req(101, "file_format", Type::string()),
      opt(141, "spec_id", Type::int32()),
      req(kPartitionId, "partition", partition_type),
      req(103, "record_count", Type::int64()),
      req(104, "file_size_in_bytes", Type::int64()),
      opt(108, "column_sizes", Type::map_of(117, Type::int32(), 118, Type::int64(), true)),
      opt(109, "value_counts", Type::map_of(119, Type::int32(), 120, Type::int64(), true)),
      opt(110, "null_value_counts", Type::map_of(121, Type::int32(), 122, Type::int64(), true)),
      opt(137, "nan_value_counts", Type::map_of(138, Type::int32(), 139, Type::int64(), true)),
      opt(125, "lower_bounds", Type::map_of(126, Type::int32(), 127, Type::binary(), true)),
      opt(128, "upper_bounds", Type::map_of(129, Type::int32(), 130, Type::binary(), true)),
      opt(131, "key_metadata", Type::binary()),
      opt(132, "split_offsets", Type::list_of(133, Type::int64(), true)),
      opt(135, "equality_ids", Type::list_of(136, Type::int32(), true)),
      opt(140, "sort_order_id", Type::int32()),
      opt(142, "first_row_id", Type::int64()),
      opt(143, "referenced_data_file", Type::string()),
      opt(144, "content_offset", Type::int64()),
      opt(145, "content_size_in_bytes", Type::int64()),
  };
  // An empty struct is not always supported downstream: Java drops the column instead.
  if (partition_type->fields().empty()) {
    f.erase(std::remove_if(f.begin(), f.end(), [](const auto& x) { return x.id == kPartitionId; }),
            f.end());
  }
  return f;
}

// One column of readable_metrics: the source column's id and type.
struct ReadableColumn {
  int32_t id;
  TypePtr type;
};

bool has_readable_metrics(const Type& t) {
  return t.is_primitive() && t.id() != TypeId::kUnknown && t.id() != TypeId::kVariant &&
         t.id() != TypeId::kGeometry && t.id() != TypeId::kGeography;
}

void collect_primitives(const std::vector<NestedField>& fields, std::vector<int32_t>* ids) {
  for (const auto& f : fields) {
    if (f.type->is_primitive()) {
      if (has_readable_metrics(*f.type)) ids->push_back(f.id);
    } else {
      collect_primitives(f.type->fields(), ids);
    }
  }
}

// Everything the file and entry tables need to build rows.
struct FilesLayout {
  SchemaPtr schema;
  TypePtr partition_type;  // all specs' fields (may be empty)
  TypePtr data_file_type;
  std::vector<ReadableColumn> readable;  // in readable_metrics order (by column name)
};

// Java's MetricsUtil.readableMetricsSchema: per primitive column of the current schema (by id),
// a struct of column_size, value_count, null_value_count, nan_value_count, lower_bound and
// upper_bound; ids continue after the metadata schema's highest id; columns sorted by name.
NestedField readable_metrics_field(const Schema* table_schema, int32_t highest_id,
                                   std::vector<ReadableColumn>* readable) {
  std::vector<int32_t> ids;
  if (table_schema) collect_primitives(table_schema->fields(), &ids);
  std::sort(ids.begin(), ids.end());
  int32_t next = highest_id;
  struct Column {
    NestedField field;
    ReadableColumn source;
  };
  std::vector<Column> columns;
  for (int32_t id : ids) {
    const NestedField* f = table_schema->find_field(id);
    std::string name = table_schema->find_column_name(id).value_or(f->name);
    int32_t struct_id = ++next;
    std::vector<NestedField> metrics;
    metrics.push_back(opt(++next, "column_size", Type::int64()));
    metrics.push_back(opt(++next, "value_count", Type::int64()));
    metrics.push_back(opt(++next, "null_value_count", Type::int64()));
    metrics.push_back(opt(++next, "nan_value_count", Type::int64()));
    metrics.push_back(opt(++next, "lower_bound", f->type));
    metrics.push_back(opt(++next, "upper_bound", f->type));
    columns.push_back({opt(struct_id, name, Type::struct_of(std::move(metrics))), {id, f->type}});
  }
  std::stable_sort(columns.begin(), columns.end(),
                   [](const Column& a, const Column& b) { return a.field.name < b.field.name; });
  std::vector<NestedField> fields;
  for (auto& c : columns) {
    fields.push_back(std::move(c.field));
    readable->push_back(c.source);
  }
  return opt(++next, "readable_metrics", Type::struct_of(std::move(fields)));
}

bool is_entries(MetadataTableType t) {
  return t == MetadataTableType::kEntries || t == MetadataTableType::kAllEntries;
}

FilesLayout files_layout(const TableMetadata& metadata, bool entries) {
  FilesLayout layout;
  layout.partition_type = table_partition_type(metadata);
  layout.data_file_type = Type::struct_of(data_file_fields(layout.partition_type));
  std::vector<NestedField> fields;
  if (entries) {
    fields = {
        req(0, "status", Type::int32()),
        opt(1, "snapshot_id", Type::int64()),
        opt(3, "sequence_number", Type::int64()),
        opt(4, "file_sequence_number", Type::int64()),
        req(2, "data_file", layout.data_file_type),
    };
  } else {
    fields = layout.data_file_type->fields();
  }
  int32_t highest = Schema(0, fields).highest_field_id();
  fields.push_back(readable_metrics_field(metadata.schema(), highest, &layout.readable));
  layout.schema = std::make_shared<Schema>(0, std::move(fields));
  return layout;
}

template <typename V>
void append_metric_map(ColumnVector& col, const ColumnMetrics<V>& metrics) {
  if (metrics.empty()) {
    col.append_null();
    return;
  }
  for (const auto& [id, v] : metrics) {
    col.child(0).append_fixed<int32_t>(id);
    if constexpr (std::is_same_v<V, std::string>) {
      col.child(1).append_bytes(v);
    } else {
      col.child(1).append_fixed<V>(v);
    }
  }
  col.append_list(static_cast<int32_t>(metrics.size()));
}

template <typename T>
void append_opt_list(ColumnVector& col, const std::optional<std::vector<T>>& v) {
  if (!v) {
    col.append_null();
    return;
  }
  for (T x : *v) col.child(0).append_fixed<T>(x);
  col.append_list(static_cast<int32_t>(v->size()));
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Appends one data_file struct value (the columns follow data_file_fields()).
void append_data_file(ColumnVector& s, const DataFile& f, PartitionCoercer& coercer,
                      const PartitionSpec* file_spec) {
  const auto& fields = s.type()->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    ColumnVector& c = s.child(i);
    switch (fields[i].id) {
      case 134:
        c.append_fixed<int32_t>(static_cast<int32_t>(f.content));
        break;
      case 100:
        c.append_bytes(f.file_path);
        break;
      case 101:
        c.append_bytes(upper(f.file_format));  // Java prints the FileFormat enum name
        break;
      case 141:
        c.append_fixed<int32_t>(f.spec_id);
        break;
      case kPartitionId:
        append_partition(c, coercer.coerce(f, file_spec));
        break;
      case 103:
        c.append_fixed<int64_t>(f.record_count);
        break;
      case 104:
        c.append_fixed<int64_t>(f.file_size_in_bytes);
        break;
      case 108:
        append_metric_map(c, f.column_sizes);
        break;
      case 109:
        append_metric_map(c, f.value_counts);
        break;
      case 110:
        append_metric_map(c, f.null_value_counts);
        break;
      case 137:
        append_metric_map(c, f.nan_value_counts);
        break;
      case 125:
        append_metric_map(c, f.lower_bounds);
        break;
      case 128:
        append_metric_map(c, f.upper_bounds);
        break;
      case 131:
        if (f.key_metadata) {
          c.append_bytes(*f.key_metadata);
        } else {
          c.append_null();
        }
        break;
      case 132:
        append_opt_list(c, f.split_offsets);
        break;
      case 135:
        append_opt_list(c, f.equality_ids);
        break;
      case 140:
        append_opt(c, f.sort_order_id);
        break;
      case 142:
        append_opt(c, f.first_row_id);
        break;
      case 143:
        if (f.referenced_data_file) {
          c.append_bytes(*f.referenced_data_file);
        } else {
          c.append_null();
        }
        break;
      case 144:
        append_opt(c, f.content_offset);
        break;
      case 145:
        append_opt(c, f.content_size_in_bytes);
        break;
      default:
        c.append_null();
    }
  }
  s.append_struct();
}

template <typename V>
void append_metric(ColumnVector& c, const ColumnMetrics<V>& m, int32_t id) {
  if (const V* v = find_metric(m, id)) {
    c.append_fixed<int64_t>(*v);
  } else {
    c.append_null();
  }
}

void append_bound(ColumnVector& c, const ColumnMetrics<std::string>& m, const ReadableColumn& rc) {
  const std::string* bytes = find_metric(m, rc.id);
  if (bytes == nullptr) {
    c.append_null();
    return;
  }
  auto lit = Literal::from_bytes(rc.type, *bytes);
  if (lit.ok()) {
    append_coerced(c, *lit);
  } else {
    c.append_null();
  }
}

void append_readable_metrics(ColumnVector& rm, const DataFile& f,
                             const std::vector<ReadableColumn>& readable) {
  for (size_t k = 0; k < readable.size(); ++k) {
    ColumnVector& s = rm.child(k);
    const ReadableColumn& rc = readable[k];
    append_metric(s.child(0), f.column_sizes, rc.id);
    append_metric(s.child(1), f.value_counts, rc.id);
    append_metric(s.child(2), f.null_value_counts, rc.id);
    append_metric(s.child(3), f.nan_value_counts, rc.id);
    append_bound(s.child(4), f.lower_bounds, rc);
    append_bound(s.child(5), f.upper_bounds, rc);
    s.append_struct();
  }
  rm.append_struct();
}

bool wants_manifest(MetadataTableType t, ManifestContent c) {
  switch (t) {
    case MetadataTableType::kDataFiles:
    case MetadataTableType::kAllDataFiles:
      return c == ManifestContent::kData;
    case MetadataTableType::kDeleteFiles:
    case MetadataTableType::kAllDeleteFiles:
      return c == ManifestContent::kDeletes;
    default:
      return true;
  }
}

bool is_all(MetadataTableType t) {
  return t == MetadataTableType::kAllFiles || t == MetadataTableType::kAllDataFiles ||
         t == MetadataTableType::kAllDeleteFiles || t == MetadataTableType::kAllEntries;
}

// The manifests a snapshot-based or all_* table reads.
Result<std::vector<ManifestFile>> manifests_for(FileIO& io, const TableMetadata& metadata,
                                                MetadataTableType type,
                                                const MetadataTableOptions& options) {
  std::vector<ManifestFile> manifests;
  if (is_all(type)) {
    manifests = FLOE_TRY(reachable_manifests(io, metadata, options.threads));
  } else {
    const Snapshot* snapshot = FLOE_TRY(resolve_snapshot(metadata, options));
    if (snapshot == nullptr) return manifests;
    manifests = FLOE_TRY(snapshot_manifests(io, metadata, *snapshot));
  }
  std::erase_if(manifests, [&](const ManifestFile& m) { return !wants_manifest(type, m.content); });
  return manifests;
}

}  // namespace

Result<SchemaPtr> files_schema(const TableMetadata& metadata) {
  return files_layout(metadata, false).schema;
}

Result<SchemaPtr> entries_schema(const TableMetadata& metadata) {
  return files_layout(metadata, true).schema;
}

Status scan_files_table(FileIO& io, const TableMetadata& metadata, MetadataTableType type,
                        const MetadataTableOptions& options, const MetadataBatchSink& sink) {
  const bool entries = is_entries(type);
  const FilesLayout layout = files_layout(metadata, entries);
  std::vector<ManifestFile> manifests = FLOE_TRY(manifests_for(io, metadata, type, options));

  auto read_one = [&](size_t i) -> Result<ColumnBatch> {
    const ManifestFile& mf = manifests[i];
    ManifestReadOptions read_options;
    read_options.include_deleted = entries;
    auto reader = FLOE_TRY(ManifestReader::open(io, mf, &metadata, read_options));
    const PartitionSpec* file_spec = reader->info().spec.get();
    PartitionCoercer coercer(metadata, layout.partition_type);
    ColumnBatch b = ColumnBatch::make(layout.schema->fields());
    auto data_file = ColumnVector::make(layout.data_file_type);
    ColumnVector& rm = *b.columns.back();
    FLOE_TRY(reader->for_each([&](const ManifestEntry& e) {
      if (!entries && !e.is_live()) return true;
      if (entries) {
        b.columns[0]->append_fixed<int32_t>(static_cast<int32_t>(e.status));
        append_opt(*b.columns[1], e.snapshot_id);
        append_opt(*b.columns[2], e.sequence_number);
        append_opt(*b.columns[3], e.file_sequence_number);
        append_data_file(*b.columns[4], e.data_file, coercer, file_spec);
      } else {
        append_data_file(*data_file, e.data_file, coercer, file_spec);
      }
      append_readable_metrics(rm, e.data_file, layout.readable);
      ++b.num_rows;
      return true;
    }));
    if (!entries) {
      // The file tables are the data_file struct's fields as top-level columns.
      for (size_t c = 0; c < data_file->num_children(); ++c) b.columns[c] = data_file->child_ptr(c);
    }
    return b;
  };
  return for_manifests_in_order<ColumnBatch>(
      manifests.size(), options.threads, read_one,
      [&](ColumnBatch&& b) { return b.num_rows > 0 ? sink(std::move(b)) : Status::OK(); });
}

}  // namespace floe::internal
