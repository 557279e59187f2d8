// Table metadata JSON (spec "Table Metadata Fields", Appendix C) for v1, v2 and v3.
#include "floe/spec/table_metadata.h"

#include <algorithm>
#include <set>

#include "spec/json_util_internal.h"
#include "spec/schema_json_internal.h"
#include "spec/table_metadata_internal.h"

namespace floe {

using internal::json;
using internal::Obj;
using ojson = nlohmann::ordered_json;

// ---------------------------------------------------------------------------------------------
// Lookups and validation

const Schema* TableMetadata::schema_by_id(int32_t schema_id) const {
  for (const auto& s : schemas) {
    if (s->schema_id() == schema_id) return s.get();
  }
  return nullptr;
}

const PartitionSpec* TableMetadata::spec_by_id(int32_t spec_id) const {
  for (const auto& s : specs) {
    if (s->spec_id() == spec_id) return s.get();
  }
  return nullptr;
}

const SortOrder* TableMetadata::sort_order_by_id(int32_t order_id) const {
  for (const auto& o : sort_orders) {
    if (o->order_id == order_id) return o.get();
  }
  return nullptr;
}

const Snapshot* TableMetadata::snapshot_by_id(int64_t snapshot_id) const {
  for (const auto& s : snapshots) {
    if (s->snapshot_id == snapshot_id) return s.get();
  }
  return nullptr;
}

const Snapshot* TableMetadata::current_snapshot() const {
  return current_snapshot_id ? snapshot_by_id(*current_snapshot_id) : nullptr;
}

const Snapshot* TableMetadata::snapshot_for_ref(std::string_view ref) const {
  auto it = refs.find(std::string(ref));
  if (it != refs.end()) return snapshot_by_id(it->second.snapshot_id);
  if (ref == kMainBranch) return current_snapshot();
  return nullptr;
}

const Snapshot* TableMetadata::snapshot_as_of_time(int64_t timestamp_ms) const {
  const Snapshot* found = nullptr;
  for (const auto& e : snapshot_log) {
    if (e.timestamp_ms <= timestamp_ms) {
      if (const Snapshot* s = snapshot_by_id(e.snapshot_id)) found = s;
    }
  }
  return found;
}

std::string TableMetadata::property(const std::string& key, const std::string& fallback) const {
  auto it = properties.find(key);
  return it == properties.end() ? fallback : it->second;
}

Status TableMetadata::validate() const {
  if (format_version < 1 || format_version > kMaxFormatVersion) {
    return invalid_data("unsupported format-version {} (floe supports 1 to {})", format_version,
                        kMaxFormatVersion);
  }
  std::set<int32_t> ids;
  for (const auto& s : schemas) {
    if (!ids.insert(s->schema_id()).second) {
      return invalid_data("schemas: schema id {} appears more than once", s->schema_id());
    }
  }
  if (!schema_by_id(current_schema_id)) {
    return invalid_data("current-schema-id {} is not in schemas", current_schema_id);
  }
  ids.clear();
  for (const auto& s : specs) {
    if (!ids.insert(s->spec_id()).second) {
      return invalid_data("partition-specs: spec id {} appears more than once", s->spec_id());
    }
  }
  if (!spec_by_id(default_spec_id)) {
    return invalid_data("default-spec-id {} is not in partition-specs", default_spec_id);
  }
  ids.clear();
  for (const auto& o : sort_orders) {
    if (!ids.insert(o->order_id).second) {
      return invalid_data("sort-orders: order id {} appears more than once", o->order_id);
    }
  }
  if (!sort_order_by_id(default_sort_order_id)) {
    return invalid_data("default-sort-order-id {} is not in sort-orders", default_sort_order_id);
  }
  std::set<int64_t> snapshot_ids;
  for (const auto& s : snapshots) {
    if (!snapshot_ids.insert(s->snapshot_id).second) {
      return invalid_data("snapshots: snapshot id {} appears more than once", s->snapshot_id);
    }
    if (format_version > 1 && s->sequence_number > last_sequence_number) {
      return invalid_data("snapshot {} has sequence-number {} greater than last-sequence-number {}",
                          s->snapshot_id, s->sequence_number, last_sequence_number);
    }
  }
  if (current_snapshot_id && !snapshot_ids.count(*current_snapshot_id)) {
    return invalid_data("current-snapshot-id {} is not in snapshots", *current_snapshot_id);
  }
  for (const auto& [name, ref] : refs) {
    if (!snapshot_ids.count(ref.snapshot_id)) {
      return invalid_data("refs: '{}' points at snapshot {}, which is not in snapshots", name,
                          ref.snapshot_id);
    }
  }
  auto main = refs.find(kMainBranch);
  if (main != refs.end() &&
      (!current_snapshot_id || main->second.snapshot_id != *current_snapshot_id)) {
    return invalid_data("refs: 'main' points at snapshot {} but current-snapshot-id is {}",
                        main->second.snapshot_id,
                        current_snapshot_id ? std::to_string(*current_snapshot_id) : "none");
  }
  if (main != refs.end() && !main->second.is_branch()) {
    return invalid_data("refs: 'main' must be a branch");
  }
  return Status::OK();
}

bool TableMetadata::operator==(const TableMetadata& o) const {
  auto same_ptrs = [](const auto& a, const auto& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!(*a[i] == *b[i])) return false;
    }
    return true;
  };
  return format_version == o.format_version && table_uuid == o.table_uuid &&
         location == o.location && last_sequence_number == o.last_sequence_number &&
         last_updated_ms == o.last_updated_ms && last_column_id == o.last_column_id &&
         same_ptrs(schemas, o.schemas) && current_schema_id == o.current_schema_id &&
         same_ptrs(specs, o.specs) && default_spec_id == o.default_spec_id &&
         last_partition_id == o.last_partition_id && same_ptrs(sort_orders, o.sort_orders) &&
         default_sort_order_id == o.default_sort_order_id && properties == o.properties &&
         current_snapshot_id == o.current_snapshot_id && same_ptrs(snapshots, o.snapshots) &&
         snapshot_log == o.snapshot_log && metadata_log == o.metadata_log && refs == o.refs &&
         statistics == o.statistics && partition_statistics == o.partition_statistics &&
         next_row_id == o.next_row_id && encryption_keys == o.encryption_keys &&
         omitted_snapshots == o.omitted_snapshots;
}

// ---------------------------------------------------------------------------------------------
// Parsing

namespace {

Result<SnapshotPtr> parse_snapshot(const json& j, const std::string& path) {
  Obj o = FLOE_TRY(Obj::of(j, path));
  auto s = std::make_shared<Snapshot>();
  s->snapshot_id = FLOE_TRY(o.i64("snapshot-id"));
  // Some writers emit the string "null" for a missing parent.
  const json* parent = o.get("parent-snapshot-id");
  if (parent && !(parent->is_string() && parent->get<std::string>() == "null")) {
    s->parent_snapshot_id = FLOE_TRY(o.as_i64(*parent, "parent-snapshot-id"));
  }
  s->sequence_number = FLOE_TRY(o.opt_i64("sequence-number")).value_or(0);
  s->timestamp_ms = FLOE_TRY(o.i64("timestamp-ms"));
  if (o.has("manifest-list")) {
    s->manifest_list = FLOE_TRY(o.str("manifest-list"));
  } else if (const json* manifests = FLOE_TRY(o.opt_array("manifests"))) {
    for (const auto& m : *manifests) {
      if (!m.is_string()) {
        return invalid_data("{}: field 'manifests' must hold strings", path);
      }
      s->manifests.push_back(m.get<std::string>());
    }
  } else {
    return invalid_data("{}: snapshot has neither 'manifest-list' nor 'manifests'", path);
  }
  if (o.has("summary")) {
    Obj summary = FLOE_TRY(o.object("summary"));
    if (!summary.has("operation")) return summary.missing("operation");
    s->summary = FLOE_TRY(o.string_map("summary"));
  }
  s->schema_id = FLOE_TRY(o.opt_i32("schema-id"));
  s->first_row_id = FLOE_TRY(o.opt_i64("first-row-id"));
  s->added_rows = FLOE_TRY(o.opt_i64("added-rows"));
  s->key_id = FLOE_TRY(o.opt_str("key-id"));
  return SnapshotPtr(s);
}

Result<SnapshotRef> parse_ref(const json& j, const std::string& path) {
  Obj o = FLOE_TRY(Obj::of(j, path));
  SnapshotRef r;
  r.snapshot_id = FLOE_TRY(o.i64("snapshot-id"));
  std::string type = FLOE_TRY(o.str("type"));
  if (type == "branch" || type == "BRANCH") {
    r.type = SnapshotRefType::kBranch;
  } else if (type == "tag" || type == "TAG") {
    r.type = SnapshotRefType::kTag;
  } else {
    return invalid_data("{}: field 'type' must be branch or tag, got '{}'", path, type);
  }
  r.min_snapshots_to_keep = FLOE_TRY(o.opt_i32("min-snapshots-to-keep"));
  r.max_snapshot_age_ms = FLOE_TRY(o.opt_i64("max-snapshot-age-ms"));
  r.max_ref_age_ms = FLOE_TRY(o.opt_i64("max-ref-age-ms"));
  if (r.type == SnapshotRefType::kTag && (r.min_snapshots_to_keep || r.max_snapshot_age_ms)) {
    return invalid_data("{}: a tag cannot set min-snapshots-to-keep or max-snapshot-age-ms", path);
  }
  return r;
}

Result<StatisticsFile> parse_statistics_file(const json& j, const std::string& path) {
  Obj o = FLOE_TRY(Obj::of(j, path));
  StatisticsFile f;
  f.snapshot_id = FLOE_TRY(o.i64("snapshot-id"));
  f.statistics_path = FLOE_TRY(o.str("statistics-path"));
  f.file_size_in_bytes = FLOE_TRY(o.i64("file-size-in-bytes"));
  f.file_footer_size_in_bytes = FLOE_TRY(o.i64("file-footer-size-in-bytes"));
  f.key_metadata = FLOE_TRY(o.opt_str("key-metadata"));
  const json* blobs = FLOE_TRY(o.array("blob-metadata"));
  for (size_t i = 0; i < blobs->size(); ++i) {
    Obj b = FLOE_TRY(Obj::of((*blobs)[i], fmt::format("{}.blob-metadata[{}]", path, i)));
    BlobMetadata m;
    m.type = FLOE_TRY(b.str("type"));
    m.source_snapshot_id = FLOE_TRY(b.i64("snapshot-id"));
    m.source_snapshot_sequence_number = FLOE_TRY(b.i64("sequence-number"));
    m.fields = FLOE_TRY(b.int_list("fields"));
    m.properties = FLOE_TRY(b.string_map("properties"));
    f.blob_metadata.push_back(std::move(m));
  }
  return f;
}

Result<PartitionStatisticsFile> parse_partition_statistics_file(const json& j,
                                                                const std::string& path) {
  Obj o = FLOE_TRY(Obj::of(j, path));
  PartitionStatisticsFile f;
  f.snapshot_id = FLOE_TRY(o.i64("snapshot-id"));
  f.statistics_path = FLOE_TRY(o.str("statistics-path"));
  f.file_size_in_bytes = FLOE_TRY(o.i64("file-size-in-bytes"));
  return f;
}

Result<EncryptedKey> parse_encrypted_key(const json& j, const std::string& path) {
  Obj o = FLOE_TRY(Obj::of(j, path));
  EncryptedKey k;
  k.key_id = FLOE_TRY(o.str("key-id"));
  k.encrypted_key_metadata = FLOE_TRY(o.str("encrypted-key-metadata"));
  k.encrypted_by_id = FLOE_TRY(o.opt_str("encrypted-by-id"));
  k.properties = FLOE_TRY(o.string_map("properties"));
  return k;
}

Status parse_schemas(const Obj& o, TableMetadata* m) {
  const json* schemas = FLOE_TRY(o.opt_array("schemas"));
  if (schemas) {
    // The current schema id is required whenever the schema list is present.
    if (!o.has("current-schema-id")) return o.missing("current-schema-id");
    m->current_schema_id = FLOE_TRY(o.i32("current-schema-id"));
    for (size_t i = 0; i < schemas->size(); ++i) {
      std::optional<int32_t> default_id;
      if (m->format_version == 1) default_id = 0;
      m->schemas.push_back(FLOE_TRY(
          internal::parse_schema((*schemas)[i], fmt::format("schemas[{}]", i), default_id)));
    }
    if (!m->schema_by_id(m->current_schema_id)) {
      return invalid_data("current-schema-id {} is not in schemas", m->current_schema_id);
    }
    return Status::OK();
  }
  if (m->format_version > 1) {
    return invalid_data("missing required field 'schemas' (required in format v{})",
                        m->format_version);
  }
  const json* schema = o.get("schema");
  if (!schema) return o.missing("schema");
  auto s = FLOE_TRY(internal::parse_schema(*schema, "schema", 0));
  m->current_schema_id = s->schema_id();
  m->schemas.push_back(std::move(s));
  return Status::OK();
}

Status parse_specs(const Obj& o, TableMetadata* m) {
  const json* specs = FLOE_TRY(o.opt_array("partition-specs"));
  if (specs) {
    // The default spec id is required whenever the spec list is present.
    if (!o.has("default-spec-id")) return o.missing("default-spec-id");
    m->default_spec_id = FLOE_TRY(o.i32("default-spec-id"));
    for (size_t i = 0; i < specs->size(); ++i) {
      m->specs.push_back(FLOE_TRY(internal::parse_partition_spec(
          (*specs)[i], fmt::format("partition-specs[{}]", i), m->format_version == 1)));
    }
    // Some REST servers send an empty list for an unpartitioned table.
    if (m->specs.empty()) m->specs.push_back(PartitionSpec::unpartitioned(m->default_spec_id));
    if (!m->spec_by_id(m->default_spec_id)) {
      return invalid_data("default-spec-id {} is not in partition-specs", m->default_spec_id);
    }
  } else {
    if (m->format_version > 1) {
      return invalid_data("missing required field 'partition-specs' (required in format v{})",
                          m->format_version);
    }
    const json* fields = o.get("partition-spec");
    if (!fields) return o.missing("partition-spec");
    auto parsed = FLOE_TRY(internal::parse_partition_fields(*fields, "partition-spec", true));
    m->default_spec_id = 0;
    m->specs.push_back(std::make_shared<const PartitionSpec>(0, std::move(parsed)));
  }
  if (o.has("last-partition-id")) {
    m->last_partition_id = FLOE_TRY(o.i32("last-partition-id"));
  } else if (m->format_version > 1) {
    return invalid_data("missing required field 'last-partition-id' (required in format v{})",
                        m->format_version);
  } else {
    int32_t last = kUnpartitionedLastAssignedId;
    for (const auto& s : m->specs) last = std::max(last, s->last_assigned_field_id());
    m->last_partition_id = last;
  }
  return Status::OK();
}

Status parse_sort_orders(const Obj& o, TableMetadata* m) {
  const json* orders = FLOE_TRY(o.opt_array("sort-orders"));
  if (orders) {
    if (!o.has("default-sort-order-id")) return o.missing("default-sort-order-id");
    m->default_sort_order_id = FLOE_TRY(o.i32("default-sort-order-id"));
    for (size_t i = 0; i < orders->size(); ++i) {
      m->sort_orders.push_back(
          FLOE_TRY(internal::parse_sort_order((*orders)[i], fmt::format("sort-orders[{}]", i))));
    }
    if (!m->sort_order_by_id(m->default_sort_order_id)) {
      return invalid_data("default-sort-order-id {} is not in sort-orders",
                          m->default_sort_order_id);
    }
    return Status::OK();
  }
  if (m->format_version > 1) {
    return invalid_data("missing required field 'sort-orders' (required in format v{})",
                        m->format_version);
  }
  m->default_sort_order_id = 0;
  m->sort_orders.push_back(std::make_shared<const SortOrder>());
  return Status::OK();
}

// `lists_done`: the snapshots and the two logs were parsed already (the simdjson front end).
Status parse_snapshots_and_refs(const Obj& o, bool lists_done, TableMetadata* m) {
  if (o.has("current-snapshot-id")) {
    int64_t id = FLOE_TRY(o.i64("current-snapshot-id"));
    if (id != -1) m->current_snapshot_id = id;  // Java writes -1 for "no snapshot"
  }
  if (lists_done) {
    // refs below
  } else if (const json* snapshots = FLOE_TRY(o.opt_array("snapshots"))) {
    for (size_t i = 0; i < snapshots->size(); ++i) {
      m->snapshots.push_back(
          FLOE_TRY(parse_snapshot((*snapshots)[i], fmt::format("snapshots[{}]", i))));
    }
  }
  if (const json* refs = o.get("refs")) {
    if (!refs->is_object()) return o.wrong("refs", "an object");
    for (auto it = refs->begin(); it != refs->end(); ++it) {
      m->refs[it.key()] = FLOE_TRY(parse_ref(*it, "refs." + it.key()));
    }
  }
  // A missing main ref is derived from current-snapshot-id (old writers omit refs).
  if (!m->refs.count(kMainBranch) && m->current_snapshot_id) {
    SnapshotRef main;
    main.snapshot_id = *m->current_snapshot_id;
    m->refs[kMainBranch] = main;
  }
  if (lists_done) return Status::OK();
  if (const json* log = FLOE_TRY(o.opt_array("snapshot-log"))) {
    for (size_t i = 0; i < log->size(); ++i) {
      Obj e = FLOE_TRY(Obj::of((*log)[i], fmt::format("snapshot-log[{}]", i)));
      SnapshotLogEntry entry;
      entry.timestamp_ms = FLOE_TRY(e.i64("timestamp-ms"));
      entry.snapshot_id = FLOE_TRY(e.i64("snapshot-id"));
      m->snapshot_log.push_back(entry);
    }
  }
  if (const json* log = FLOE_TRY(o.opt_array("metadata-log"))) {
    for (size_t i = 0; i < log->size(); ++i) {
      Obj e = FLOE_TRY(Obj::of((*log)[i], fmt::format("metadata-log[{}]", i)));
      MetadataLogEntry entry;
      entry.timestamp_ms = FLOE_TRY(e.i64("timestamp-ms"));
      entry.metadata_file = FLOE_TRY(e.str("metadata-file"));
      m->metadata_log.push_back(std::move(entry));
    }
  }
  return Status::OK();
}

Status parse_statistics(const Obj& o, TableMetadata* m) {
  if (const json* stats = FLOE_TRY(o.opt_array("statistics"))) {
    for (size_t i = 0; i < stats->size(); ++i) {
      m->statistics.push_back(
          FLOE_TRY(parse_statistics_file((*stats)[i], fmt::format("statistics[{}]", i))));
    }
  }
  if (const json* stats = FLOE_TRY(o.opt_array("partition-statistics"))) {
    for (size_t i = 0; i < stats->size(); ++i) {
      m->partition_statistics.push_back(FLOE_TRY(parse_partition_statistics_file(
          (*stats)[i], fmt::format("partition-statistics[{}]", i))));
    }
  }
  if (const json* keys = FLOE_TRY(o.opt_array("encryption-keys"))) {
    for (size_t i = 0; i < keys->size(); ++i) {
      m->encryption_keys.push_back(
          FLOE_TRY(parse_encrypted_key((*keys)[i], fmt::format("encryption-keys[{}]", i))));
    }
  }
  return Status::OK();
}

}  // namespace

namespace internal {

Result<TableMetadata> parse_table_metadata_json(const json& j, TableMetadata m, bool lists_done) {
  Obj o = FLOE_TRY(Obj::of(j, ""));
  int64_t version = FLOE_TRY(o.i64("format-version"));
  if (version < 1 || version > kMaxFormatVersion) {
    return not_supported("unsupported format-version {} (floe reads 1 to {})", version,
                         kMaxFormatVersion);
  }
  m.format_version = static_cast<int>(version);
  if (auto uuid = FLOE_TRY(o.opt_str("table-uuid"))) {
    m.table_uuid = *uuid;
  } else if (m.format_version > 1) {
    return o.missing("table-uuid");
  }
  m.location = FLOE_TRY(o.str("location"));
  // v1 has no sequence numbers: like the Java reference, a v1 reader ignores
  // last-sequence-number (it starts at 0 when the table is upgraded).
  if (m.format_version > 1) m.last_sequence_number = FLOE_TRY(o.i64("last-sequence-number"));
  m.last_updated_ms = FLOE_TRY(o.i64("last-updated-ms"));
  m.last_column_id = FLOE_TRY(o.i32("last-column-id"));
  FLOE_TRY(parse_schemas(o, &m));
  FLOE_TRY(parse_specs(o, &m));
  FLOE_TRY(parse_sort_orders(o, &m));
  m.properties = FLOE_TRY(o.string_map("properties"));
  FLOE_TRY(parse_snapshots_and_refs(o, lists_done, &m));
  FLOE_TRY(parse_statistics(o, &m));
  // Required in v3 by the spec, but some v3 writers (DuckDB) omit it; absent reads as 0.
  m.next_row_id = FLOE_TRY(o.opt_i64("next-row-id"));
  FLOE_TRY(m.validate());
  return m;
}

void keep_referenced_snapshots(TableMetadata* m) {
  std::set<int64_t> wanted;
  if (m->current_snapshot_id) wanted.insert(*m->current_snapshot_id);
  for (const auto& [name, ref] : m->refs) wanted.insert(ref.snapshot_id);
  std::vector<SnapshotPtr> kept;
  for (auto& s : m->snapshots) {
    if (wanted.count(s->snapshot_id)) kept.push_back(std::move(s));
  }
  m->omitted_snapshots += static_cast<int64_t>(m->snapshots.size() - kept.size());
  m->snapshots = std::move(kept);
}

}  // namespace internal

namespace {

// table_metadata_fast.cc is compiled for AVX2 on x86-64 (simdjson's on-demand kernel is chosen
// at compile time); it may only run where the CPU has it.
bool fast_parser_runs_here() {
#if defined(__x86_64__)
  static const bool ok = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                         __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("pclmul");
  return ok;
#else
  return true;
#endif
}

}  // namespace

Result<TableMetadata> parse_table_metadata(std::string_view text,
                                           const MetadataParseOptions& options) {
  if (fast_parser_runs_here()) {
    if (auto fast = internal::parse_table_metadata_fast(text, options)) return std::move(*fast);
  }
  // The nlohmann path: the reference for every error message, and for the rare shapes the
  // fast path leaves to it.
  json j = FLOE_TRY(internal::parse_text(text, "table metadata"));
  TableMetadata m = FLOE_TRY(internal::parse_table_metadata_json(j, TableMetadata(), false));
  if (options.referenced_snapshots_only) internal::keep_referenced_snapshots(&m);
  return m;
}

// ---------------------------------------------------------------------------------------------
// Writing, in the Java reference's field order

namespace {

ojson snapshot_json(const Snapshot& s, int format_version) {
  ojson o;
  // Written whenever set, as Java does (a v1 reader keeps a snapshot's sequence-number).
  if (format_version > 1 || s.sequence_number > 0) o["sequence-number"] = s.sequence_number;
  o["snapshot-id"] = s.snapshot_id;
  if (s.parent_snapshot_id) o["parent-snapshot-id"] = *s.parent_snapshot_id;
  o["timestamp-ms"] = s.timestamp_ms;
  if (!s.summary.empty()) {
    ojson summary;
    auto op = s.summary.find("operation");
    if (op != s.summary.end()) summary["operation"] = op->second;
    for (const auto& [k, v] : s.summary) {
      if (k != "operation") summary[k] = v;
    }
    o["summary"] = std::move(summary);
  }
  if (!s.manifest_list.empty()) {
    o["manifest-list"] = s.manifest_list;
  } else {
    o["manifests"] = s.manifests;
  }
  if (s.schema_id) o["schema-id"] = *s.schema_id;
  if (s.first_row_id) o["first-row-id"] = *s.first_row_id;
  if (s.added_rows) o["added-rows"] = *s.added_rows;
  if (s.key_id) o["key-id"] = *s.key_id;
  return o;
}

ojson ref_json(const SnapshotRef& r) {
  ojson o;
  o["snapshot-id"] = r.snapshot_id;
  o["type"] = r.is_branch() ? "branch" : "tag";
  if (r.min_snapshots_to_keep) o["min-snapshots-to-keep"] = *r.min_snapshots_to_keep;
  if (r.max_snapshot_age_ms) o["max-snapshot-age-ms"] = *r.max_snapshot_age_ms;
  if (r.max_ref_age_ms) o["max-ref-age-ms"] = *r.max_ref_age_ms;
  return o;
}

ojson string_map_json(const std::map<std::string, std::string>& m) {
  ojson o = ojson::object();
  for (const auto& [k, v] : m) o[k] = v;
  return o;
}

ojson statistics_json(const StatisticsFile& f) {
  ojson o;
  o["snapshot-id"] = f.snapshot_id;
  o["statistics-path"] = f.statistics_path;
  o["file-size-in-bytes"] = f.file_size_in_bytes;
  o["file-footer-size-in-bytes"] = f.file_footer_size_in_bytes;
  if (f.key_metadata) o["key-metadata"] = *f.key_metadata;
  ojson blobs = ojson::array();
  for (const auto& b : f.blob_metadata) {
    ojson x;
    x["type"] = b.type;
    x["snapshot-id"] = b.source_snapshot_id;
    x["sequence-number"] = b.source_snapshot_sequence_number;
    x["fields"] = b.fields;
    if (!b.properties.empty()) x["properties"] = string_map_json(b.properties);
    blobs.push_back(std::move(x));
  }
  o["blob-metadata"] = std::move(blobs);
  return o;
}

}  // namespace

std::string table_metadata_to_json(const TableMetadata& m, bool pretty) {
  ojson o;
  o["format-version"] = m.format_version;
  if (!m.table_uuid.empty()) o["table-uuid"] = m.table_uuid;
  o["location"] = m.location;
  if (m.format_version > 1) o["last-sequence-number"] = m.last_sequence_number;
  o["last-updated-ms"] = m.last_updated_ms;
  o["last-column-id"] = m.last_column_id;
  if (m.format_version == 1 && m.schema()) o["schema"] = internal::schema_json(*m.schema());
  o["current-schema-id"] = m.current_schema_id;
  ojson schemas = ojson::array();
  for (const auto& s : m.schemas) schemas.push_back(internal::schema_json(*s));
  o["schemas"] = std::move(schemas);
  if (m.format_version == 1 && m.spec()) {
    o["partition-spec"] = internal::partition_fields_json(*m.spec());
  }
  o["default-spec-id"] = m.default_spec_id;
  ojson specs = ojson::array();
  for (const auto& s : m.specs) specs.push_back(internal::partition_spec_json(*s));
  o["partition-specs"] = std::move(specs);
  o["last-partition-id"] = m.last_partition_id;
  o["default-sort-order-id"] = m.default_sort_order_id;
  ojson orders = ojson::array();
  for (const auto& s : m.sort_orders) orders.push_back(internal::sort_order_json(*s));
  o["sort-orders"] = std::move(orders);
  o["properties"] = string_map_json(m.properties);
  if (m.current_snapshot_id) {
    o["current-snapshot-id"] = *m.current_snapshot_id;
  } else if (m.format_version < 3) {
    o["current-snapshot-id"] = -1;
  } else {
    o["current-snapshot-id"] = nullptr;
  }
  ojson refs = ojson::object();
  for (const auto& [name, r] : m.refs) refs[name] = ref_json(r);
  o["refs"] = std::move(refs);
  ojson snapshots = ojson::array();
  for (const auto& s : m.snapshots) snapshots.push_back(snapshot_json(*s, m.format_version));
  o["snapshots"] = std::move(snapshots);
  ojson stats = ojson::array();
  for (const auto& f : m.statistics) stats.push_back(statistics_json(f));
  o["statistics"] = std::move(stats);
  ojson pstats = ojson::array();
  for (const auto& f : m.partition_statistics) {
    ojson x;
    x["snapshot-id"] = f.snapshot_id;
    x["statistics-path"] = f.statistics_path;
    x["file-size-in-bytes"] = f.file_size_in_bytes;
    pstats.push_back(std::move(x));
  }
  o["partition-statistics"] = std::move(pstats);
  ojson slog = ojson::array();
  for (const auto& e : m.snapshot_log) {
    ojson x;
    x["timestamp-ms"] = e.timestamp_ms;
    x["snapshot-id"] = e.snapshot_id;
    slog.push_back(std::move(x));
  }
  o["snapshot-log"] = std::move(slog);
  ojson mlog = ojson::array();
  for (const auto& e : m.metadata_log) {
    ojson x;
    x["timestamp-ms"] = e.timestamp_ms;
    x["metadata-file"] = e.metadata_file;
    mlog.push_back(std::move(x));
  }
  o["metadata-log"] = std::move(mlog);
  if (m.next_row_id) o["next-row-id"] = *m.next_row_id;
  if (!m.encryption_keys.empty()) {
    ojson keys = ojson::array();
    for (const auto& k : m.encryption_keys) {
      ojson x;
      x["key-id"] = k.key_id;
      x["encrypted-key-metadata"] = k.encrypted_key_metadata;
      if (k.encrypted_by_id) x["encrypted-by-id"] = *k.encrypted_by_id;
      if (!k.properties.empty()) x["properties"] = string_map_json(k.properties);
      keys.push_back(std::move(x));
    }
    o["encryption-keys"] = std::move(keys);
  }
  return pretty ? o.dump(2) : o.dump();
}

}  // namespace floe
