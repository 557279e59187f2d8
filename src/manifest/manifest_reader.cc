#include "floe/manifest/manifest_reader.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "floe/format/avro/generic.h"
#include "floe/spec/type.h"
#include "manifest/manifest_reader_internal.h"

namespace floe {

using avro::AvroType;
using avro::Decoder;
using avro::Node;
using internal::array_items;
using internal::read_int32;
using internal::read_integer;
using internal::read_opt_int;
using internal::read_opt_text;
using internal::read_text;
using internal::resolve_id;
using internal::Step;
using internal::value_node;

namespace {

Result<int32_t> parse_int(std::string_view s, std::string_view what) {
  int32_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) {
    return invalid_data("header metadata {} is not an int: '{}'", what, s);
  }
  return v;
}

enum EntrySlot : int32_t {
  kStatus = 0,
  kSnapshotId = 1,
  kDataFile = 2,
  kDataSeq = 3,
  kFileSeq = 4,
  kFilePath = 100,
  kFileFormat = 101,
  kPartition = 102,
  kRecordCount = 103,
  kFileSize = 104,
  kColumnSizes = 108,
  kValueCounts = 109,
  kNullCounts = 110,
  kLowerBounds = 125,
  kUpperBounds = 128,
  kFileKeyMetadata = 131,
  kSplitOffsets = 132,
  kFileContent = 134,
  kEqualityIds = 135,
  kNanCounts = 137,
  kSortOrderId = 140,
  kFileFirstRowId = 142,
  kReferencedDataFile = 143,
  kContentOffset = 144,
  kContentSize = 145,
};

const std::map<std::string_view, int32_t>& entry_names() {
  static const std::map<std::string_view, int32_t> m = {
      {"status", 0},
      {"snapshot_id", 1},
      {"data_file", 2},
      {"sequence_number", 3},
      {"file_sequence_number", 4},
      {"file_path", 100},
      {"file_format", 101},
      {"partition", 102},
      {"record_count", 103},
      {"file_size_in_bytes", 104},
      {"column_sizes", 108},
      {"value_counts", 109},
      {"null_value_counts", 110},
      {"lower_bounds", 125},
      {"upper_bounds", 128},
      {"key_metadata", 131},
      {"split_offsets", 132},
      {"content", 134},
      {"equality_ids", 135},
      {"nan_value_counts", 137},
      {"sort_order_id", 140},
      {"first_row_id", 142},
      {"referenced_data_file", 143},
      {"content_offset", 144},
      {"content_size_in_bytes", 145},
  };
  return m;
}

// A metric map written as an array of {key, value} records.
struct MetricPlan {
  bool usable = false;
  std::vector<const Node*> kv_types;  // field types of the key/value record
  int key_pos = -1;
  int value_pos = -1;
  // Every Iceberg writer uses {key: int, value: long|bytes} with no unions: such maps take a
  // tight loop (kNull = some other layout, decoded field by field).
  AvroType plain_value = AvroType::kNull;
};

MetricPlan make_metric_plan(const Node* type) {
  MetricPlan p;
  const Node* items = array_items(type);
  if (items == nullptr || items->type != AvroType::kRecord) return p;
  for (size_t i = 0; i < items->fields.size(); ++i) {
    const auto& f = items->fields[i];
    p.kv_types.push_back(f.type);
    if (f.name == "key") p.key_pos = static_cast<int>(i);
    if (f.name == "value") p.value_pos = static_cast<int>(i);
  }
  p.usable = p.key_pos >= 0 && p.value_pos >= 0;
  if (p.usable && p.kv_types.size() == 2 && p.key_pos == 0 &&
      p.kv_types[0]->type == AvroType::kInt) {
    p.plain_value = p.kv_types[1]->type;
  }
  return p;
}

struct PartitionStep {
  const Node* type;
  int target;  // index in the partition tuple, or -1 to skip
};

struct EntryPlan {
  std::vector<Step> entry_steps;
  std::vector<Step> file_steps;
  std::vector<MetricPlan> metric_plans;  // indexed like file_steps
  std::vector<PartitionStep> partition_steps;
  std::vector<TypePtr> partition_types;  // target types, one per partition field
};

TypePtr iceberg_type_of(const Node* n) {
  const Node* t = n->non_null();
  const std::string& lt = t->logical_type;
  switch (t->type) {
    case AvroType::kBoolean:
      return Type::boolean();
    case AvroType::kInt:
      return lt == "date" ? Type::date() : Type::int32();
    case AvroType::kLong: {
      if (lt == "time-micros") return Type::time();
      if (lt == "timestamp-micros" || lt == "timestamp-nanos") {
        bool utc = t->props.contains("adjust-to-utc") && t->props["adjust-to-utc"] == true;
        if (lt == "timestamp-nanos") return utc ? Type::timestamptz_ns() : Type::timestamp_ns();
        return utc ? Type::timestamptz() : Type::timestamp();
      }
      return Type::int64();
    }
    case AvroType::kFloat:
      return Type::float32();
    case AvroType::kDouble:
      return Type::float64();
    case AvroType::kString:
      return Type::string();
    case AvroType::kFixed:
      if (lt == "uuid" && t->size == 16) return Type::uuid();
      if (lt == "decimal" && t->props.contains("precision")) {
        return Type::decimal(t->props["precision"].get<int>(), t->props.value("scale", 0));
      }
      return Type::fixed(t->size);
    case AvroType::kBytes:
      if (lt == "decimal" && t->props.contains("precision")) {
        return Type::decimal(t->props["precision"].get<int>(), t->props.value("scale", 0));
      }
      return Type::binary();
    default:
      return Type::string();
  }
}

// The partition struct described by the manifest's own Avro schema (used when neither the file
// nor the table says what the spec is).
TypePtr partition_type_from_avro(const Node& record) {
  std::vector<NestedField> fields;
  for (size_t i = 0; i < record.fields.size(); ++i) {
    const auto& f = record.fields[i];
    NestedField nf;
    nf.id = f.field_id.value_or(kPartitionDataIdStart + static_cast<int32_t>(i));
    nf.name = f.name;
    nf.type = iceberg_type_of(f.type);
    nf.required = false;
    fields.push_back(std::move(nf));
  }
  return Type::struct_of(std::move(fields));
}

// Decodes one partition value of writer type `t` into a literal of `target` type.
Literal decode_partition_value(Decoder& d, const Node* t, const TypePtr& target) {
  const Node* v = value_node(d, t);
  if (v == nullptr) return Literal::null(target);
  switch (v->type) {
    case AvroType::kBoolean:
      return Literal::boolean(d.read_bool());
    case AvroType::kInt:
    case AvroType::kLong: {
      int64_t x = d.read_long();
      switch (target->id()) {
        case TypeId::kInt:
        case TypeId::kDate:
        case TypeId::kLong:
        case TypeId::kTime:
        case TypeId::kTimestamp:
        case TypeId::kTimestampTz:
        case TypeId::kTimestampNs:
        case TypeId::kTimestampTzNs:
          return Literal::of_int(target, x);
        case TypeId::kDecimal:
          return Literal::decimal(x, target->precision(), target->scale());
        default:
          return v->type == AvroType::kInt ? Literal::int32(static_cast<int32_t>(x))
                                           : Literal::int64(x);
      }
    }
    case AvroType::kFloat: {
      float f = d.read_float();
      if (target->id() == TypeId::kDouble) return Literal::float64(f);
      return Literal::float32(f);
    }
    case AvroType::kDouble:
      return Literal::float64(d.read_double());
    case AvroType::kString:
    case AvroType::kBytes:
    case AvroType::kFixed: {
      std::string_view s = read_text(d, v);
      switch (target->id()) {
        case TypeId::kString:
          return Literal::of_bytes(target, std::string(s));
        case TypeId::kUuid:
          if (v->type == AvroType::kString) {
            auto u = Uuid::parse(s);
            if (u.ok()) return Literal::uuid(*u);
            break;
          }
          [[fallthrough]];
        case TypeId::kBinary:
        case TypeId::kFixed:
        case TypeId::kDecimal: {
          auto lit = Literal::from_bytes(target, s);
          if (lit.ok()) return std::move(lit).value();
          break;
        }
        default:
          break;
      }
      return v->type == AvroType::kString ? Literal::string(std::string(s))
                                          : Literal::binary(std::string(s));
    }
    default:
      avro::skip_datum(*v, d);
      return Literal::null(target);
  }
}

}  // namespace

namespace {

// Every manifest of a table repeats the same schema and partition-spec header text: parse each
// distinct text once (bounded caches shared by all threads).
Result<SchemaPtr> cached_schema_json(const std::string& json) {
  static std::mutex mu;
  static std::unordered_map<std::string, SchemaPtr> cache;
  {
    std::lock_guard lock(mu);
    auto it = cache.find(json);
    if (it != cache.end()) return it->second;
  }
  SchemaPtr schema = FLOE_TRY(parse_schema_json(json));
  std::lock_guard lock(mu);
  if (cache.size() >= 256) cache.clear();
  cache.emplace(json, schema);
  return schema;
}

Result<PartitionSpecPtr> cached_spec_json(const std::string& json, int32_t spec_id) {
  static std::mutex mu;
  static std::unordered_map<std::string, PartitionSpecPtr> cache;
  std::string key = std::to_string(spec_id) + ":" + json;
  {
    std::lock_guard lock(mu);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  auto fields = FLOE_TRY(parse_partition_fields_json(json));
  PartitionSpecPtr spec = std::make_shared<const PartitionSpec>(spec_id, std::move(fields));
  std::lock_guard lock(mu);
  if (cache.size() >= 256) cache.clear();
  cache.emplace(std::move(key), spec);
  return spec;
}

// An optional array of ints or longs (split_offsets, equality_ids) into `out`, reusing the
// storage of `spare`.
template <typename T>
void read_int_array(Decoder& d, const Node* t, std::optional<std::vector<T>>* out,
                    std::vector<T>* spare) {
  const Node* v = value_node(d, t);
  if (v == nullptr) return;
  if (v->type != AvroType::kArray) return avro::skip_datum(*v, d);
  std::vector<T>& items = out->emplace(std::move(*spare));
  items.clear();
  while (int64_t n = d.read_block_count()) {
    for (int64_t i = 0; i < n && d.ok(); ++i) {
      const Node* it = value_node(d, v->items);
      if (it == nullptr) continue;
      if constexpr (sizeof(T) == 4) {
        items.push_back(read_int32(d, it));
      } else {
        items.push_back(read_integer(d, it));
      }
    }
  }
}

}  // namespace

struct ManifestReader::Impl {
  std::unique_ptr<avro::ContainerReader> reader;
  ManifestFile manifest;
  ManifestReadOptions options;
  ManifestInfo info;
  EntryPlan plan;
  ManifestEntry entry;
  std::vector<uint8_t> wanted_small;  // stats_columns as a bitmap for ids < 65536
  std::optional<int64_t> next_row_id;
  std::vector<int64_t> spare_splits;  // storage of the previous entry's arrays
  std::vector<int32_t> spare_equality_ids;

  bool wanted(int32_t id) const {
    if (options.stats_columns.empty()) return true;
    if (id >= 0 && static_cast<size_t>(id) < wanted_small.size()) return wanted_small[id] != 0;
    return std::binary_search(options.stats_columns.begin(), options.stats_columns.end(), id);
  }

  static Result<std::unique_ptr<Impl>> make(
      Result<std::unique_ptr<avro::ContainerReader>> container, const ManifestFile& manifest,
      const TableMetadata* table, ManifestReadOptions options);
  Status init(const TableMetadata* table);
  void decode_entry(Decoder& d);
  void decode_data_file(Decoder& d, const Node* record_type);
  template <typename V>
  void decode_metrics(Decoder& d, const Node* t, const MetricPlan& p, ColumnMetrics<V>* out);
  void inherit();
};

Status ManifestReader::Impl::init(const TableMetadata* table) {
  const Node& root = reader->schema().root();
  const std::string& path = reader->path();
  if (root.type != AvroType::kRecord) {
    return invalid_data("{}: manifest schema is not a record", path);
  }
  info.metadata = reader->metadata();
  info.codec = reader->codec();
  const Node* data_file = nullptr;
  for (const auto& f : root.fields) {
    int32_t id = resolve_id(f, entry_names());
    plan.entry_steps.push_back({f.type, id});
    if (id == kDataFile) data_file = f.type->non_null();
  }
  if (data_file == nullptr || data_file->type != AvroType::kRecord) {
    return invalid_data("{}: not a manifest (no data_file record)", path);
  }

  // Header metadata, with fallbacks to the manifest list entry and the table.
  auto meta = [&](const char* key) { return reader->meta(key); };
  info.has_iceberg_metadata = meta("schema") != nullptr || meta("partition-spec") != nullptr;
  bool has_seq = false, has_content = false, has_row_id = false;
  const Node* partition_record = nullptr;
  for (const auto& f : data_file->fields) {
    int32_t id = resolve_id(f, entry_names());
    if (id == kFileContent) has_content = true;
    if (id == kFileFirstRowId) has_row_id = true;
    if (id == kPartition) partition_record = f.type->non_null();
  }
  for (const auto& s : plan.entry_steps) has_seq |= s.id == kDataSeq;
  if (const std::string* v = meta("format-version")) {
    info.format_version = FLOE_TRY_CTX(parse_int(*v, "format-version"), path);
  } else {
    info.format_version = has_row_id ? 3 : (has_seq || has_content) ? 2 : 1;
  }
  if (const std::string* v = meta("partition-spec-id")) {
    info.spec_id = FLOE_TRY_CTX(parse_int(*v, "partition-spec-id"), path);
  } else {
    info.spec_id = manifest.partition_spec_id;
  }
  if (const std::string* v = meta("content")) {
    if (*v == "deletes") {
      info.content = ManifestContent::kDeletes;
    } else if (*v == "data") {
      info.content = ManifestContent::kData;
    } else {
      return invalid_data("{}: unknown manifest content '{}'", path, *v);
    }
  } else {
    info.content = manifest.content;
  }
  if (const std::string* v = meta("schema")) {
    info.schema = FLOE_TRY_CTX(cached_schema_json(*v), path + ": schema header");
  } else if (table && table->schema()) {
    for (const auto& s : table->schemas) {
      if (s->schema_id() == table->current_schema_id) info.schema = s;
    }
  }
  if (const std::string* v = meta("partition-spec")) {
    info.spec = FLOE_TRY_CTX(cached_spec_json(*v, info.spec_id), path + ": partition-spec header");
  } else if (table) {
    for (const auto& s : table->specs) {
      if (s->spec_id() == info.spec_id) info.spec = s;
    }
  }
  if (info.spec && info.schema) {
    auto pt = info.spec->partition_type(*info.schema);
    if (pt.ok()) info.partition_type = *pt;
  }
  if (!info.partition_type && info.spec && table) {
    // The manifest's schema may predate a column the spec uses; try the table's schemas.
    for (auto it = table->schemas.rbegin(); it != table->schemas.rend(); ++it) {
      auto pt = info.spec->partition_type(**it);
      if (pt.ok()) {
        info.partition_type = *pt;
        break;
      }
    }
  }
  if (!info.partition_type) {
    info.partition_type = partition_record && partition_record->type == AvroType::kRecord
                              ? partition_type_from_avro(*partition_record)
                              : Type::struct_of({});
  }
  for (const auto& f : info.partition_type->fields()) plan.partition_types.push_back(f.type);

  // data_file plan.
  for (const auto& f : data_file->fields) {
    int32_t id = resolve_id(f, entry_names());
    bool is_stat = id == kColumnSizes || id == kValueCounts || id == kNullCounts ||
                   id == kNanCounts || id == kLowerBounds || id == kUpperBounds;
    plan.file_steps.push_back({f.type, id});
    plan.metric_plans.push_back(is_stat ? make_metric_plan(f.type) : MetricPlan{});
  }
  if (partition_record && partition_record->type == AvroType::kRecord) {
    const auto& pfields = info.partition_type->fields();
    for (const auto& f : partition_record->fields) {
      int target = -1;
      for (size_t i = 0; i < pfields.size(); ++i) {
        if ((f.field_id && *f.field_id == pfields[i].id) ||
            (!f.field_id && f.name == pfields[i].name)) {
          target = static_cast<int>(i);
        }
      }
      plan.partition_steps.push_back({f.type, target});
    }
  }
  std::sort(options.stats_columns.begin(), options.stats_columns.end());
  for (int32_t id : options.stats_columns) {
    if (id >= 0 && id < 65536) {
      if (wanted_small.size() <= static_cast<size_t>(id)) wanted_small.resize(id + 1, 0);
      wanted_small[id] = 1;
    }
  }
  if (!options.stats_columns.empty()) wanted_small.resize(65536, 0);
  if (info.content == ManifestContent::kData) next_row_id = manifest.first_row_id;
  return Status::OK();
}

namespace {

// Stores metric number `n` of the entry, reusing the storage (and string capacity) of the
// previous entry's.
template <typename V>
FLOE_AVRO_INLINE void put_metric(ColumnMetrics<V>* out, size_t n, int32_t key, std::string_view raw,
                                 int64_t value) {
  if (n == out->size()) out->emplace_back();
  auto& slot = (*out)[n];
  slot.first = key;
  if constexpr (std::is_same_v<V, std::string>) {
    // Bounds of a column usually keep their length from entry to entry: copy in place.
    size_t len = raw.size();
    if (slot.second.size() == len && len >= 8 && len <= 16) {
      // Two overlapping 8-byte moves instead of a memcpy call: bounds are 4 to 16 bytes.
      char* dst = slot.second.data();
      std::memcpy(dst, raw.data(), 8);
      std::memcpy(dst + len - 8, raw.data() + len - 8, 8);
    } else if (slot.second.size() == len) {
      // An empty bound may come with a null data pointer: copy only what there is.
      if (len != 0) std::memcpy(slot.second.data(), raw.data(), len);
    } else {
      slot.second.assign(raw);
    }
  } else {
    slot.second = value;
  }
}

}  // namespace

// Counts (V = int64_t) or bounds (V = std::string), for the wanted columns only; the map of a
// manifest that does not read stats is walked without storing anything.
template <typename V>
void ManifestReader::Impl::decode_metrics(Decoder& d, const Node* t, const MetricPlan& p,
                                          ColumnMetrics<V>* out) {
  constexpr bool kBounds = std::is_same_v<V, std::string>;
  size_t n = 0;
  bool sorted = true;
  int32_t last_key = INT32_MIN;
  const bool keep = options.read_stats;
  const bool all = options.stats_columns.empty();
  auto store = [&](int32_t key, std::string_view raw, int64_t value)
      __attribute__((always_inline)) {
    if (!keep || (!all && !wanted(key))) return;
    sorted &= n == 0 || key > last_key;
    last_key = key;
    put_metric(out, n++, key, raw, value);
  };
  const Node* v = value_node(d, t);
  if (v != nullptr && !p.usable) avro::skip_datum(*v, d);
  const bool plain = kBounds
                         ? p.plain_value == AvroType::kBytes || p.plain_value == AvroType::kString
                         : p.plain_value == AvroType::kLong || p.plain_value == AvroType::kInt;
  while (v != nullptr && p.usable) {
    int64_t count = d.read_block_count();
    if (count == 0) break;
    if (plain) {
      for (int64_t i = 0; i < count && d.ok(); ++i) {
        int32_t key = d.read_int();
        if constexpr (kBounds) {
          store(key, d.read_bytes(), 0);
        } else {
          store(key, {}, d.read_long());
        }
      }
      continue;
    }
    for (int64_t i = 0; i < count && d.ok(); ++i) {
      int32_t key = 0;
      std::string_view raw;
      int64_t value = 0;
      bool have_value = false;
      for (size_t k = 0; k < p.kv_types.size(); ++k) {
        if (static_cast<int>(k) == p.key_pos) {
          const Node* kt = value_node(d, p.kv_types[k]);
          key = kt ? read_int32(d, kt) : 0;
        } else if (static_cast<int>(k) == p.value_pos && keep && wanted(key)) {
          const Node* vt = value_node(d, p.kv_types[k]);
          if (vt) {
            if constexpr (kBounds) {
              raw = read_text(d, vt);
            } else {
              value = read_integer(d, vt);
            }
            have_value = true;
          }
        } else {
          avro::skip_datum(*p.kv_types[k], d);
        }
      }
      if (have_value) store(key, raw, value);
    }
  }
  out->resize(n);
  if (!sorted) std::sort(out->begin(), out->end());
}

void ManifestReader::Impl::decode_data_file(Decoder& d, const Node* record) {
  DataFile& f = entry.data_file;
  // Keep the bound strings and arrays for reuse (decode_metrics overwrites bounds in place).
  ColumnMetrics<std::string> lower = std::move(f.lower_bounds);
  ColumnMetrics<std::string> upper = std::move(f.upper_bounds);
  if (f.split_offsets) spare_splits = std::move(*f.split_offsets);
  if (f.equality_ids) spare_equality_ids = std::move(*f.equality_ids);
  f.clear();
  f.lower_bounds = std::move(lower);
  f.upper_bounds = std::move(upper);
  bool saw_lower = false, saw_upper = false;
  f.spec_id = info.spec_id;
  f.partition.resize(plan.partition_types.size());
  for (size_t i = 0; i < plan.partition_types.size(); ++i) {
    f.partition[i] = Literal::null(plan.partition_types[i]);
  }
  for (size_t s = 0; s < plan.file_steps.size() && d.ok(); ++s) {
    const Step& st = plan.file_steps[s];
    switch (st.id) {
      case kFileContent: {
        const Node* v = value_node(d, st.type);
        int32_t c = v ? read_int32(d, v) : 0;
        if (c < 0 || c > 2) d.fail("invalid data_file content");
        f.content = static_cast<FileContent>(c);
        break;
      }
      case kFilePath: {
        const Node* v = value_node(d, st.type);
        if (v) f.file_path.assign(read_text(d, v));
        break;
      }
      case kFileFormat: {
        const Node* v = value_node(d, st.type);
        if (v) f.file_format.assign(read_text(d, v));
        break;
      }
      case kPartition: {
        const Node* v = value_node(d, st.type);
        if (v == nullptr) break;
        if (v->type != AvroType::kRecord) {
          avro::skip_datum(*v, d);
          break;
        }
        for (const PartitionStep& ps : plan.partition_steps) {
          if (ps.target < 0) {
            avro::skip_datum(*ps.type, d);
          } else {
            f.partition[ps.target] =
                decode_partition_value(d, ps.type, plan.partition_types[ps.target]);
          }
        }
        break;
      }
      case kRecordCount: {
        const Node* v = value_node(d, st.type);
        if (v) f.record_count = read_integer(d, v);
        break;
      }
      case kFileSize: {
        const Node* v = value_node(d, st.type);
        if (v) f.file_size_in_bytes = read_integer(d, v);
        break;
      }
      case kColumnSizes:
        decode_metrics(d, st.type, plan.metric_plans[s], &f.column_sizes);
        break;
      case kValueCounts:
        decode_metrics(d, st.type, plan.metric_plans[s], &f.value_counts);
        break;
      case kNullCounts:
        decode_metrics(d, st.type, plan.metric_plans[s], &f.null_value_counts);
        break;
      case kNanCounts:
        decode_metrics(d, st.type, plan.metric_plans[s], &f.nan_value_counts);
        break;
      case kLowerBounds:
        saw_lower = true;
        decode_metrics(d, st.type, plan.metric_plans[s], &f.lower_bounds);
        break;
      case kUpperBounds:
        saw_upper = true;
        decode_metrics(d, st.type, plan.metric_plans[s], &f.upper_bounds);
        break;
      case kFileKeyMetadata:
        read_opt_text(d, st.type, &f.key_metadata);
        break;
      case kSplitOffsets:
        read_int_array(d, st.type, &f.split_offsets, &spare_splits);
        break;
      case kEqualityIds:
        read_int_array(d, st.type, &f.equality_ids, &spare_equality_ids);
        break;
      case kSortOrderId:
        read_opt_int(d, st.type, &f.sort_order_id);
        break;
      case kFileFirstRowId:
        read_opt_int(d, st.type, &f.first_row_id);
        break;
      case kReferencedDataFile:
        read_opt_text(d, st.type, &f.referenced_data_file);
        break;
      case kContentOffset:
        read_opt_int(d, st.type, &f.content_offset);
        break;
      case kContentSize:
        read_opt_int(d, st.type, &f.content_size_in_bytes);
        break;
      default:
        avro::skip_datum(*st.type, d);
    }
  }
  if (!saw_lower) f.lower_bounds.clear();
  if (!saw_upper) f.upper_bounds.clear();
}

void ManifestReader::Impl::decode_entry(Decoder& d) {
  entry.snapshot_id.reset();
  entry.sequence_number.reset();
  entry.file_sequence_number.reset();
  for (const Step& st : plan.entry_steps) {
    switch (st.id) {
      case kStatus: {
        const Node* v = value_node(d, st.type);
        int32_t s = v ? read_int32(d, v) : 0;
        if (s < 0 || s > 2) d.fail("invalid manifest entry status");
        entry.status = static_cast<ManifestEntryStatus>(s);
        break;
      }
      case kSnapshotId:
        read_opt_int(d, st.type, &entry.snapshot_id);
        break;
      case kDataSeq:
        read_opt_int(d, st.type, &entry.sequence_number);
        break;
      case kFileSeq:
        read_opt_int(d, st.type, &entry.file_sequence_number);
        break;
      case kDataFile: {
        const Node* v = value_node(d, st.type);
        if (v && v->type == AvroType::kRecord) {
          decode_data_file(d, v);
        } else if (v) {
          avro::skip_datum(*v, d);
        }
        break;
      }
      default:
        avro::skip_datum(*st.type, d);
    }
    if (!d.ok()) return;
  }
}

void ManifestReader::Impl::inherit() {
  if (!entry.snapshot_id) entry.snapshot_id = manifest.added_snapshot_id;
  // Only ADDED entries inherit; v1 manifests (sequence number 0) give every entry 0.
  bool inherits = entry.status == ManifestEntryStatus::kAdded || manifest.sequence_number == 0;
  if (inherits && manifest.sequence_number != kUnassignedSequenceNumber) {
    if (!entry.sequence_number) entry.sequence_number = manifest.sequence_number;
    if (!entry.file_sequence_number) entry.file_sequence_number = manifest.sequence_number;
  }
  if (next_row_id && entry.status != ManifestEntryStatus::kDeleted &&
      !entry.data_file.first_row_id) {
    entry.data_file.first_row_id = *next_row_id;
    *next_row_id += entry.data_file.record_count;
  }
}

ManifestReader::ManifestReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ManifestReader::~ManifestReader() = default;

const ManifestInfo& ManifestReader::info() const { return impl_->info; }

Result<std::unique_ptr<ManifestReader::Impl>> ManifestReader::Impl::make(
    Result<std::unique_ptr<avro::ContainerReader>> container, const ManifestFile& manifest,
    const TableMetadata* table, ManifestReadOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->reader = FLOE_TRY(std::move(container));
  impl->manifest = manifest;
  impl->options = std::move(options);
  FLOE_TRY(impl->init(table));
  return impl;
}

Result<std::unique_ptr<ManifestReader>> ManifestReader::open_bytes(std::string bytes,
                                                                   const ManifestFile& manifest,
                                                                   const TableMetadata* table,
                                                                   ManifestReadOptions options) {
  auto impl =
      FLOE_TRY(Impl::make(avro::ContainerReader::open(std::move(bytes), manifest.manifest_path),
                          manifest, table, std::move(options)));
  return std::unique_ptr<ManifestReader>(new ManifestReader(std::move(impl)));
}

Result<std::unique_ptr<ManifestReader>> ManifestReader::open_view(std::string_view bytes,
                                                                  const ManifestFile& manifest,
                                                                  const TableMetadata* table,
                                                                  ManifestReadOptions options) {
  auto impl = FLOE_TRY(Impl::make(avro::ContainerReader::open_view(bytes, manifest.manifest_path),
                                  manifest, table, std::move(options)));
  return std::unique_ptr<ManifestReader>(new ManifestReader(std::move(impl)));
}

Result<std::unique_ptr<ManifestReader>> ManifestReader::open(FileIO& io,
                                                             const ManifestFile& manifest,
                                                             const TableMetadata* table,
                                                             ManifestReadOptions options) {
  std::string bytes = FLOE_TRY_CTX(io.read_file(manifest.manifest_path), "reading manifest");
  return open_bytes(std::move(bytes), manifest, table, std::move(options));
}

Status ManifestReader::for_each(const std::function<bool(const ManifestEntry&)>& fn) {
  Impl& m = *impl_;
  while (FLOE_TRY(m.reader->next_block())) {
    Decoder& d = m.reader->decoder();
    for (int64_t i = 0; i < m.reader->block_count(); ++i) {
      m.decode_entry(d);
      if (!d.ok()) break;
      m.inherit();
      if (!m.options.include_deleted && m.entry.status == ManifestEntryStatus::kDeleted) continue;
      if (!fn(m.entry)) return Status::OK();
    }
    FLOE_TRY(m.reader->finish_block());
  }
  return Status::OK();
}

Result<std::vector<ManifestEntry>> ManifestReader::read_all() {
  std::vector<ManifestEntry> out;
  FLOE_TRY(for_each([&](const ManifestEntry& e) {
    out.push_back(e);
    return true;
  }));
  return out;
}

Result<std::vector<ManifestEntry>> read_manifest(FileIO& io, const ManifestFile& manifest,
                                                 const TableMetadata* table,
                                                 ManifestReadOptions options) {
  auto reader = FLOE_TRY(ManifestReader::open(io, manifest, table, std::move(options)));
  return reader->read_all();
}

}  // namespace floe
