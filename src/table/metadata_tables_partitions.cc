// The partitions table: per partition of the table-wide partition type, the counts and sizes of
// the live data and delete files of a snapshot, and when the partition was last updated.
#include <algorithm>
#include <unordered_map>

#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"
#include "table/metadata_tables_internal.h"

namespace floe::internal {

namespace {

struct PartitionRow {
  std::vector<Literal> key;
  int32_t spec_id = 0;
  int64_t record_count = 0;
  int32_t file_count = 0;
  int64_t data_size = 0;
  int64_t pos_delete_records = 0;
  int32_t pos_delete_files = 0;
  int64_t eq_delete_records = 0;
  int32_t eq_delete_files = 0;
  std::optional<int64_t> last_updated_at;  // micros
  std::optional<int64_t> last_updated_snapshot_id;
};

// What one live entry contributes.
struct FileFacts {
  std::vector<Literal> key;
  FileContent content;
  int64_t record_count;
  int64_t size;
  int32_t spec_id;
  std::optional<int64_t> snapshot_id;
};

std::string key_bytes(const std::vector<Literal>& key) {
  std::string out;
  for (const auto& v : key) {
    if (v.is_null()) {
      out.push_back('\0');
      continue;
    }
    auto bytes = v.to_bytes();
    std::string b = bytes.ok() ? *bytes : v.to_string();
    out.push_back('\1');
    uint32_t n = static_cast<uint32_t>(b.size());
    out.append(reinterpret_cast<const char*>(&n), 4);
    out += b;
  }
  return out;
}

}  // namespace

Result<SchemaPtr> partitions_schema(const TableMetadata& metadata) {
  TypePtr ptype = table_partition_type(metadata);
  std::vector<NestedField> fields;
  if (!ptype->fields().empty()) {
    fields.push_back(req(1, "partition", ptype));
    fields.push_back(req(4, "spec_id", Type::int32()));
  }
  std::vector<NestedField> rest = {
      req(2, "record_count", Type::int64()),
      req(3, "file_count", Type::int32()),
      req(11, "total_data_file_size_in_bytes", Type::int64()),
      req(5, "position_delete_record_count", Type::int64()),
      req(6, "position_delete_file_count", Type::int32()),
      req(7, "equality_delete_record_count", Type::int64()),
      req(8, "equality_delete_file_count", Type::int32()),
      opt(9, "last_updated_at", Type::timestamptz()),
      opt(10, "last_updated_snapshot_id", Type::int64()),
  };
  fields.insert(fields.end(), rest.begin(), rest.end());
  return std::make_shared<Schema>(0, std::move(fields));
}

Status scan_partitions_table(FileIO& io, const TableMetadata& metadata,
                             const MetadataTableOptions& options, const MetadataBatchSink& sink) {
  SchemaPtr schema = FLOE_TRY(partitions_schema(metadata));
  TypePtr ptype = table_partition_type(metadata);
  const bool partitioned = !ptype->fields().empty();
  const Snapshot* snapshot = FLOE_TRY(resolve_snapshot(metadata, options));
  if (snapshot == nullptr) return Status::OK();
  std::vector<ManifestFile> manifests = FLOE_TRY(snapshot_manifests(io, metadata, *snapshot));

  std::vector<PartitionRow> rows;
  std::unordered_map<std::string, size_t> index;
  auto read_one = [&](size_t i) -> Result<std::vector<FileFacts>> {
    ManifestReadOptions read_options;
    read_options.read_stats = false;
    read_options.include_deleted = false;
    auto reader = FLOE_TRY(ManifestReader::open(io, manifests[i], &metadata, read_options));
    const PartitionSpec* file_spec = reader->info().spec.get();
    PartitionCoercer coercer(metadata, ptype);
    std::vector<FileFacts> facts;
    FLOE_TRY(reader->for_each([&](const ManifestEntry& e) {
      if (!e.is_live()) return true;
      const DataFile& f = e.data_file;
      facts.push_back({coercer.coerce(f, file_spec), f.content, f.record_count,
                       f.file_size_in_bytes, f.spec_id, e.snapshot_id});
      return true;
    }));
    return facts;
  };
  auto add = [&](std::vector<FileFacts>&& facts) -> Status {
    for (auto& f : facts) {
      std::string k = key_bytes(f.key);
      auto [it, inserted] = index.emplace(k, rows.size());
      if (inserted) {
        rows.emplace_back();
        rows.back().key = std::move(f.key);
      }
      PartitionRow& row = rows[it->second];
      const Snapshot* s = f.snapshot_id ? metadata.snapshot_by_id(*f.snapshot_id) : nullptr;
      if (s != nullptr) {
        int64_t at = s->timestamp_ms * 1000;
        if (!row.last_updated_at || at > *row.last_updated_at) {
          row.last_updated_at = at;
          row.last_updated_snapshot_id = s->snapshot_id;
        }
      }
      row.spec_id = f.spec_id;
      switch (f.content) {
        case FileContent::kData:
          row.record_count += f.record_count;
          row.file_count += 1;
          row.data_size += f.size;
          break;
        case FileContent::kPositionDeletes:
          row.pos_delete_records += f.record_count;
          row.pos_delete_files += 1;
          break;
        case FileContent::kEqualityDeletes:
          row.eq_delete_records += f.record_count;
          row.eq_delete_files += 1;
          break;
      }
    }
    return Status::OK();
  };
  FLOE_TRY(for_manifests_in_order<std::vector<FileFacts>>(manifests.size(), options.threads,
                                                          read_one, add));

  // Java's order is a hash map's; sorting by partition value makes the output stable.
  std::sort(rows.begin(), rows.end(), [](const PartitionRow& a, const PartitionRow& b) {
    for (size_t j = 0; j < a.key.size(); ++j) {
      int c = a.key[j].compare(b.key[j]);
      if (c != 0) return c < 0;
    }
    return false;
  });
  ColumnBatch b = ColumnBatch::make(schema->fields());
  for (const auto& row : rows) {
    size_t c = 0;
    if (partitioned) {
      append_partition(*b.columns[c++], row.key);
      b.columns[c++]->append_fixed<int32_t>(row.spec_id);
    }
    b.columns[c++]->append_fixed<int64_t>(row.record_count);
    b.columns[c++]->append_fixed<int32_t>(row.file_count);
    b.columns[c++]->append_fixed<int64_t>(row.data_size);
    b.columns[c++]->append_fixed<int64_t>(row.pos_delete_records);
    b.columns[c++]->append_fixed<int32_t>(row.pos_delete_files);
    b.columns[c++]->append_fixed<int64_t>(row.eq_delete_records);
    b.columns[c++]->append_fixed<int32_t>(row.eq_delete_files);
    append_opt(*b.columns[c++], row.last_updated_at);
    append_opt(*b.columns[c++], row.last_updated_snapshot_id);
    ++b.num_rows;
  }
  return b.num_rows > 0 ? sink(std::move(b)) : Status::OK();
}

}  // namespace floe::internal
