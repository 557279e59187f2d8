// REST scan planning (see floe/table/rest_scan_plan.h): PlanTableScanRequest parsing, planning
// with TableScan, plan tasks as self-contained tokens, and the FileScanTask / ContentFile JSON
// of the REST OpenAPI spec.
#include "floe/table/rest_scan_plan.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "floe/expr/expression_json.h"
#include "floe/manifest/manifest_list_reader.h"
#include "floe/spec/json_text.h"
#include "floe/util/binary_text.h"
#include "floe/util/uuid.h"

namespace floe {

namespace {

using json = nlohmann::json;

constexpr std::string_view kPlanTaskKind = "floe-plan-task";
constexpr int64_t kPlanTaskVersion = 1;
// Larger plan tasks than this were not written by this server.
constexpr size_t kMaxPlanTaskBytes = 16 << 20;
// file_path of position-delete files (spec, reserved field ids): its bounds scope the file.
constexpr int32_t kDeleteFilePathId = 2147483546;

// Any failure while reading what a client sent is its fault: a 400.
Status as_bad_request(const Status& s, std::string_view where) {
  std::string message = s.message();
  if (!where.empty() && message.rfind(std::string(where), 0) != 0) {
    message = std::string(where) + ": " + message;
  }
  return Status(ErrorKind::kInvalidArgument, std::move(message));
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Request fields

// The value of `key` in `obj`, or null when absent or JSON null.
const json* member(const json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

Result<std::optional<int64_t>> long_member(const json& obj, const char* key,
                                           std::string_view where) {
  const json* v = member(obj, key);
  if (!v) return std::optional<int64_t>();
  if (v->is_number_integer()) return std::optional<int64_t>(v->get<int64_t>());
  if (v->is_number_unsigned() &&
      v->get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return std::optional<int64_t>(static_cast<int64_t>(v->get<uint64_t>()));
  }
  return invalid_argument("{}{}: expected a long, got {}", where, key, json_for_message(*v));
}

Result<std::optional<bool>> bool_member(const json& obj, const char* key, std::string_view where) {
  const json* v = member(obj, key);
  if (!v) return std::optional<bool>();
  if (!v->is_boolean()) {
    return invalid_argument("{}{}: expected true or false, got {}", where, key,
                            json_for_message(*v));
  }
  return std::optional<bool>(v->get<bool>());
}

Result<std::optional<std::vector<std::string>>> strings_member(const json& obj, const char* key,
                                                               std::string_view where) {
  const json* v = member(obj, key);
  if (!v) return std::optional<std::vector<std::string>>();
  if (!v->is_array()) {
    return invalid_argument("{}{}: expected an array of strings, got {}", where, key,
                            json_for_message(*v));
  }
  std::vector<std::string> out;
  out.reserve(v->size());
  for (size_t i = 0; i < v->size(); ++i) {
    const json& e = (*v)[i];
    if (!e.is_string()) {
      return invalid_argument("{}{}[{}]: expected a string, got {}", where, key, i,
                              json_for_message(e));
    }
    out.push_back(e.get<std::string>());
  }
  return std::optional<std::vector<std::string>>(std::move(out));
}

// What a plan request or a plan task asks for.
struct ScanRequest {
  std::optional<int64_t> snapshot_id;
  std::optional<std::vector<std::string>> select;
  const json* filter = nullptr;
  bool case_sensitive = true;
  bool use_snapshot_schema = false;
  std::optional<std::vector<std::string>> stats_fields;
};

Result<ScanRequest> parse_plan_request(const json& request) {
  if (!request.is_object()) {
    return invalid_argument("the plan request must be a JSON object, got {}",
                            json_for_message(request));
  }
  ScanRequest r;
  r.snapshot_id = FLOE_TRY(long_member(request, "snapshot-id", ""));
  r.select = FLOE_TRY(strings_member(request, "select", ""));
  r.filter = member(request, "filter");
  r.case_sensitive = FLOE_TRY(bool_member(request, "case-sensitive", "")).value_or(true);
  r.use_snapshot_schema = FLOE_TRY(bool_member(request, "use-snapshot-schema", "")).value_or(false);
  r.stats_fields = FLOE_TRY(strings_member(request, "stats-fields", ""));
  // min-rows-requested is a hint; every row is planned, but the value must be a long.
  (void)FLOE_TRY(long_member(request, "min-rows-requested", ""));
  auto start = FLOE_TRY(long_member(request, "start-snapshot-id", ""));
  auto end = FLOE_TRY(long_member(request, "end-snapshot-id", ""));
  if (start || end) {
    if (r.snapshot_id) {
      return invalid_argument(
          "a request names either snapshot-id (a point-in-time scan) or start-snapshot-id and "
          "end-snapshot-id (an incremental scan), not both");
    }
    if (start && !end)
      return invalid_argument("end-snapshot-id is required with start-snapshot-id");
    return not_supported(
        "incremental scans (start-snapshot-id, end-snapshot-id) are not supported: plan a "
        "point-in-time scan with snapshot-id");
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// The scan a request or plan task describes

struct ScanSetup {
  const Snapshot* snapshot = nullptr;  // null: a table without snapshots
  const Schema* schema = nullptr;      // the schema the filter and field names resolve in
  ExprPtr filter;                      // unbound, as read (null: none)
  ExprPtr bound;                       // bound to `schema`
  std::vector<std::string> select;
  bool has_select = false;
  std::vector<std::string> stats_fields;
  std::optional<std::set<int32_t>> stats_ids;  // the columns whose metrics are sent
  bool case_sensitive = true;
  bool use_snapshot_schema = false;
};

Result<std::vector<int32_t>> field_ids(const Schema& schema, const std::vector<std::string>& names,
                                       bool case_sensitive, std::string_view where) {
  std::vector<int32_t> ids;
  for (size_t i = 0; i < names.size(); ++i) {
    const NestedField* f = schema.find_field(names[i], case_sensitive);
    if (!f) {
      return invalid_argument("{}[{}]: no field named '{}' in the table schema", where, i,
                              names[i]);
    }
    ids.push_back(f->id);
  }
  return ids;
}

// `prefix` names where the request's fields sit ("" in a plan request, "plan-task." in a task).
Result<ScanSetup> setup_scan(const TableMetadata& table, const ScanRequest& r,
                             std::string_view prefix) {
  ScanSetup s;
  s.case_sensitive = r.case_sensitive;
  s.use_snapshot_schema = r.use_snapshot_schema;
  if (r.snapshot_id) {
    s.snapshot = table.snapshot_by_id(*r.snapshot_id);
    if (!s.snapshot) return not_found("snapshot {} is not in the table", *r.snapshot_id);
  } else {
    s.snapshot = table.current_snapshot();
  }
  // The table's schema, unless the request asks for the one the snapshot was written with (a
  // time-travel read); a branch scan reads with the table's schema.
  s.schema = table.schema();
  if (r.use_snapshot_schema && s.snapshot && s.snapshot->schema_id) {
    if (const Schema* snap = table.schema_by_id(*s.snapshot->schema_id)) s.schema = snap;
  }
  if (!s.schema) return invalid_data("the table has no current schema");

  const std::string filter_where = std::string(prefix) + "filter";
  if (r.filter) {
    auto parsed = expression_from_json(*r.filter, s.schema, r.case_sensitive, filter_where);
    if (!parsed.ok()) return as_bad_request(parsed.status(), filter_where);
    s.filter = *parsed;
    auto bound = bind_expression(s.filter, *s.schema, r.case_sensitive);
    if (!bound.ok()) return as_bad_request(bound.status(), filter_where);
    s.bound = *bound;
  } else {
    s.bound = always_true();
  }
  if (r.select) {
    FLOE_TRY(field_ids(*s.schema, *r.select, r.case_sensitive, std::string(prefix) + "select"));
    s.select = *r.select;
    s.has_select = true;
  }
  if (r.stats_fields) {
    auto ids = FLOE_TRY(field_ids(*s.schema, *r.stats_fields, r.case_sensitive,
                                  std::string(prefix) + "stats-fields"));
    s.stats_fields = *r.stats_fields;
    s.stats_ids.emplace(ids.begin(), ids.end());
  }
  return s;
}

ScanOptions scan_options(const ScanSetup& s, const RestPlanOptions& options, bool pin_snapshot) {
  ScanOptions o;
  o.filter = s.bound;
  o.case_sensitive = s.case_sensitive;
  if (pin_snapshot && s.snapshot) o.snapshot_id = s.snapshot->snapshot_id;
  o.threads = options.threads;
  o.include_column_stats = s.stats_ids && !s.stats_ids->empty();
  return o;
}

// ---------------------------------------------------------------------------------------------
// ContentFile and FileScanTask JSON

const char* content_name(FileContent c) {
  switch (c) {
    case FileContent::kData:
      return "data";
    case FileContent::kPositionDeletes:
      return "position-deletes";
    case FileContent::kEqualityDeletes:
      return "equality-deletes";
  }
  return "data";
}

// CountMap: {"keys": [field ids], "values": [counts]} over the requested columns.
void count_map(const ColumnMetrics<int64_t>& metrics, const std::set<int32_t>& ids, const char* key,
               json* out) {
  json keys = json::array(), values = json::array();
  for (const auto& [id, v] : metrics) {
    if (!ids.count(id)) continue;
    keys.push_back(id);
    values.push_back(v);
  }
  if (!keys.empty()) (*out)[key] = json{{"keys", std::move(keys)}, {"values", std::move(values)}};
}

// ValueMap of bounds: the binary single-value form of each bound, in hex.
Status bound_map(const ColumnMetrics<std::string>& metrics, const std::set<int32_t>& ids,
                 const char* key, json* out) {
  json keys = json::array(), values = json::array();
  for (const auto& [id, bytes] : metrics) {
    if (!ids.count(id)) continue;
    json v;
    FLOE_TRY(Literal::binary(bytes).to_json(&v));
    keys.push_back(id);
    values.push_back(std::move(v));
  }
  if (!keys.empty()) (*out)[key] = json{{"keys", std::move(keys)}, {"values", std::move(values)}};
  return Status::OK();
}

Result<json> content_file_json(const TableMetadata& table, const DataFile& f,
                               int64_t data_sequence_number,
                               const std::optional<std::set<int32_t>>& stats_ids) {
  const PartitionSpec* spec = table.spec_by_id(f.spec_id);
  if (!spec) {
    return invalid_data("{} uses partition spec {}, which the table does not have", f.file_path,
                        f.spec_id);
  }
  json out = json::object();
  out["spec-id"] = f.spec_id;
  out["content"] = content_name(f.content);
  out["file-path"] = f.file_path;
  out["file-format"] = lower(f.file_format);
  json partition = json::array();
  for (size_t i = 0; i < spec->fields().size(); ++i) {
    json v = nullptr;
    if (i < f.partition.size() && !f.partition[i].is_null() && f.partition[i].type()) {
      FLOE_TRY_CTX(f.partition[i].to_json(&v),
                   fmt::format("{}: partition field {}", f.file_path, spec->fields()[i].name));
    }
    partition.push_back(std::move(v));
  }
  out["partition"] = std::move(partition);
  out["file-size-in-bytes"] = f.file_size_in_bytes;
  out["record-count"] = f.record_count;

  // Metrics for the requested columns; a position delete file keeps the file_path bounds that
  // scope it to one data file.
  std::set<int32_t> ids = stats_ids.value_or(std::set<int32_t>());
  if (f.content == FileContent::kPositionDeletes) ids.insert(kDeleteFilePathId);
  if (!ids.empty()) {
    count_map(f.column_sizes, ids, "column-sizes", &out);
    count_map(f.value_counts, ids, "value-counts", &out);
    count_map(f.null_value_counts, ids, "null-value-counts", &out);
    count_map(f.nan_value_counts, ids, "nan-value-counts", &out);
    FLOE_TRY(bound_map(f.lower_bounds, ids, "lower-bounds", &out));
    FLOE_TRY(bound_map(f.upper_bounds, ids, "upper-bounds", &out));
  }
  if (f.key_metadata) {
    json v;
    FLOE_TRY(Literal::binary(*f.key_metadata).to_json(&v));
    out["key-metadata"] = std::move(v);
  }
  if (f.split_offsets) out["split-offsets"] = *f.split_offsets;
  if (f.equality_ids && f.content == FileContent::kEqualityDeletes) {
    out["equality-ids"] = *f.equality_ids;
  }
  if (f.sort_order_id) out["sort-order-id"] = *f.sort_order_id;
  if (f.content == FileContent::kData && f.first_row_id) {
    // Row lineage needs both (Java writes the data sequence number with the first row id).
    out["first-row-id"] = *f.first_row_id;
    out["data-sequence-number"] = data_sequence_number;
  }
  if (f.content != FileContent::kData) {
    if (f.referenced_data_file) out["referenced-data-file"] = *f.referenced_data_file;
    if (f.content_offset) out["content-offset"] = *f.content_offset;
    if (f.content_size_in_bytes) out["content-size-in-bytes"] = *f.content_size_in_bytes;
  }
  return out;
}

// Collects file scan tasks and the delete files they reference (each once, in order of first
// reference).
class ScanTasksWriter {
 public:
  ScanTasksWriter(const TableMetadata& table, const std::optional<std::set<int32_t>>& stats_ids)
      : table_(table), stats_ids_(stats_ids) {}

  Status add(const FileScanTask& task) {
    json t = json::object();
    t["data-file"] =
        FLOE_TRY(content_file_json(table_, *task.file, task.data_sequence_number, stats_ids_));
    if (!task.deletes.empty()) {
      json refs = json::array();
      std::set<size_t> seen;
      for (const DeleteFilePtr& d : task.deletes) {
        size_t index = FLOE_TRY(delete_index(*d));
        if (seen.insert(index).second) refs.push_back(index);
      }
      t["delete-file-references"] = std::move(refs);
    }
    if (task.residual) {
      auto cached = residuals_.find(task.residual.get());
      if (cached == residuals_.end()) {
        json r = FLOE_TRY(expression_to_json(*task.residual));
        cached = residuals_.emplace(task.residual.get(), std::move(r)).first;
        kept_.push_back(task.residual);  // the cache's key stays valid
      }
      t["residual-filter"] = cached->second;
    }
    tasks_.push_back(std::move(t));
    return Status::OK();
  }

  // {"file-scan-tasks": [...], "delete-files": [...]} into `out`.
  void finish(json* out) {
    (*out)["delete-files"] = std::move(deletes_);
    (*out)["file-scan-tasks"] = std::move(tasks_);
  }

 private:
  Result<size_t> delete_index(const DeleteFile& d) {
    std::string key(d.file_path());
    key.push_back('\0');
    if (auto offset = d.content_offset()) key += std::to_string(*offset);
    auto it = delete_index_.find(key);
    if (it != delete_index_.end()) return it->second;
    DataFile f = d.to_data_file();
    json j = FLOE_TRY(content_file_json(table_, f, d.data_sequence_number(), stats_ids_));
    size_t index = deletes_.size();
    deletes_.push_back(std::move(j));
    delete_index_.emplace(std::move(key), index);
    return index;
  }

  const TableMetadata& table_;
  const std::optional<std::set<int32_t>>& stats_ids_;
  json tasks_ = json::array();
  json deletes_ = json::array();
  std::unordered_map<std::string, size_t> delete_index_;
  std::unordered_map<const Expression*, json> residuals_;
  std::vector<ExprPtr> kept_;
};

Result<std::string> dump(const json& j) {
  // Strings from files may hold invalid UTF-8: replaced, never thrown.
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

Status write_tasks(TableScan& scan, const TableMetadata& table, const ScanSetup& s, json* out) {
  ScanTasksWriter writer(table, s.stats_ids);
  Status failed;
  FLOE_TRY(scan.plan_files([&](FileScanTask&& task) {
    failed = writer.add(task);
    return failed.ok();
  }));
  FLOE_TRY(failed);
  writer.finish(out);
  return Status::OK();
}

// ---------------------------------------------------------------------------------------------
// Plan tasks

std::string table_identity(const TableMetadata& table) {
  return table.table_uuid.empty() ? table.location : table.table_uuid;
}

Result<std::string> make_plan_task(const TableMetadata& table, const ScanSetup& s,
                                   const std::vector<std::string>& manifests) {
  json t = json::object();
  t["kind"] = kPlanTaskKind;
  t["version"] = kPlanTaskVersion;
  t["table"] = table_identity(table);
  t["snapshot-id"] = s.snapshot->snapshot_id;
  t["manifests"] = manifests;
  if (s.filter) t["filter"] = FLOE_TRY(expression_to_json(*s.filter));
  if (s.has_select) t["select"] = s.select;
  if (s.stats_ids) t["stats-fields"] = s.stats_fields;
  t["case-sensitive"] = s.case_sensitive;
  t["use-snapshot-schema"] = s.use_snapshot_schema;
  return base64_encode(FLOE_TRY(dump(t)));
}

struct PlanTask {
  ScanRequest request;
  json document;  // owns what request.filter points to
  std::vector<std::string> manifests;
};

Result<PlanTask> read_plan_task(const TableMetadata& table, const json& request) {
  constexpr std::string_view where = "plan-task";
  if (!request.is_object()) {
    return invalid_argument("the fetch request must be a JSON object, got {}",
                            json_for_message(request));
  }
  const json* token = member(request, "plan-task");
  if (!token) return invalid_argument("{}: missing", where);
  if (!token->is_string()) {
    return invalid_argument("{}: expected a string, got {}", where, json_for_message(*token));
  }
  const std::string& text = token->get_ref<const std::string&>();
  const auto not_ours = [&](std::string_view why) {
    return invalid_argument("{}: not a plan task this server issued ({})", where, why);
  };
  if (text.size() > kMaxPlanTaskBytes) return not_ours("too long");
  std::string bytes;
  if (!base64_decode(text, &bytes)) return not_ours("not Base64");
  auto parsed = parse_json_text(bytes, "plan task");
  if (!parsed.ok()) return not_ours(parsed.status().message());
  PlanTask task;
  task.document = std::move(*parsed);
  const json& doc = task.document;
  if (!doc.is_object()) return not_ours("not a JSON object");
  static const std::set<std::string> kKeys = {
      "kind",   "version", "table",        "snapshot-id",    "manifests",
      "filter", "select",  "stats-fields", "case-sensitive", "use-snapshot-schema"};
  for (const auto& [key, _] : doc.items()) {
    if (!kKeys.count(key)) return not_ours("unknown field \"" + key + "\"");
  }
  const json* kind = member(doc, "kind");
  if (!kind || !kind->is_string() || kind->get<std::string>() != kPlanTaskKind) {
    return not_ours("wrong kind");
  }
  const json* version = member(doc, "version");
  if (!version || !version->is_number_integer() || version->get<int64_t>() != kPlanTaskVersion) {
    return not_ours("unknown version");
  }
  const json* owner = member(doc, "table");
  if (!owner || !owner->is_string()) return not_ours("no table");
  if (owner->get<std::string>() != table_identity(table)) {
    return invalid_argument("{}: the plan task was issued for another table", where);
  }
  const std::string prefix = "plan-task.";
  auto snapshot = long_member(doc, "snapshot-id", prefix);
  if (!snapshot.ok()) return snapshot.status();
  if (!*snapshot) return not_ours("no snapshot-id");
  auto manifests = strings_member(doc, "manifests", prefix);
  if (!manifests.ok()) return manifests.status();
  if (!*manifests || (*manifests)->empty()) return not_ours("no manifests");
  task.manifests = std::move(**manifests);
  std::set<std::string> distinct(task.manifests.begin(), task.manifests.end());
  if (distinct.size() != task.manifests.size()) return not_ours("a manifest named twice");
  ScanRequest& r = task.request;
  r.snapshot_id = *snapshot;
  r.filter = member(doc, "filter");
  r.select = FLOE_TRY(strings_member(doc, "select", prefix));
  r.stats_fields = FLOE_TRY(strings_member(doc, "stats-fields", prefix));
  auto case_sensitive = FLOE_TRY(bool_member(doc, "case-sensitive", prefix));
  auto snapshot_schema = FLOE_TRY(bool_member(doc, "use-snapshot-schema", prefix));
  if (!case_sensitive || !snapshot_schema) return not_ours("incomplete");
  r.case_sensitive = *case_sensitive;
  r.use_snapshot_schema = *snapshot_schema;
  return task;
}

// Every manifest a plan task names must be a data manifest of its snapshot.
Status check_task_manifests(FileIO& io, const TableMetadata& table, const Snapshot& snapshot,
                            const std::vector<std::string>& manifests) {
  std::set<std::string> data;
  for (const auto& m : FLOE_TRY(snapshot_manifests(io, table, snapshot))) {
    if (m.content == ManifestContent::kData) data.insert(m.manifest_path);
  }
  for (const auto& path : manifests) {
    if (!data.count(path)) {
      return invalid_argument("plan-task: {} is not a data manifest of snapshot {}", path,
                              snapshot.snapshot_id);
    }
  }
  return Status::OK();
}

}  // namespace

Result<std::string> plan_table_scan_json(const FileIOPtr& io,
                                         const std::shared_ptr<const TableMetadata>& metadata,
                                         const nlohmann::json& request,
                                         const RestPlanOptions& options) {
  const TableMetadata& table = *metadata;
  ScanRequest r = FLOE_TRY(parse_plan_request(request));
  ScanSetup s = FLOE_TRY(setup_scan(table, r, ""));
  json out = json::object();
  out["status"] = "completed";
  out["plan-id"] = "floe-" + random_uuid();
  if (!s.snapshot) {
    // A table without snapshots: nothing to read.
    out["delete-files"] = json::array();
    out["file-scan-tasks"] = json::array();
    return dump(out);
  }
  TableScan scan =
      FLOE_TRY(TableScan::make(io, metadata, scan_options(s, options, r.snapshot_id.has_value())));
  std::vector<ManifestFile> manifests = FLOE_TRY(scan.matching_data_manifests());
  if (static_cast<int64_t>(manifests.size()) > options.max_inline_manifests) {
    const size_t per_task =
        static_cast<size_t>(std::max<int64_t>(1, options.manifests_per_plan_task));
    json tasks = json::array();
    for (size_t i = 0; i < manifests.size(); i += per_task) {
      std::vector<std::string> batch;
      for (size_t k = i; k < std::min(manifests.size(), i + per_task); ++k) {
        batch.push_back(manifests[k].manifest_path);
      }
      tasks.push_back(FLOE_TRY(make_plan_task(table, s, batch)));
    }
    out["plan-tasks"] = std::move(tasks);
    return dump(out);
  }
  FLOE_TRY(write_tasks(scan, table, s, &out));
  return dump(out);
}

Result<std::string> fetch_scan_tasks_json(const FileIOPtr& io,
                                          const std::shared_ptr<const TableMetadata>& metadata,
                                          const nlohmann::json& request,
                                          const RestPlanOptions& options) {
  const TableMetadata& table = *metadata;
  PlanTask task = FLOE_TRY(read_plan_task(table, request));
  const Snapshot* snapshot = table.snapshot_by_id(*task.request.snapshot_id);
  if (!snapshot) {
    return not_found("plan-task: snapshot {} is no longer in the table", *task.request.snapshot_id);
  }
  ScanSetup s = FLOE_TRY(setup_scan(table, task.request, "plan-task."));
  FLOE_TRY(check_task_manifests(*io, table, *snapshot, task.manifests));
  ScanOptions o = scan_options(s, options, true);
  o.data_manifests = task.manifests;
  TableScan scan = FLOE_TRY(TableScan::make(io, metadata, std::move(o)));
  json out = json::object();
  FLOE_TRY(write_tasks(scan, table, s, &out));
  return dump(out);
}

Result<std::string> plan_table_scan_json(const Table& table, const nlohmann::json& request,
                                         const RestPlanOptions& options) {
  return plan_table_scan_json(table.io(), table.metadata(), request, options);
}

Result<std::string> fetch_scan_tasks_json(const Table& table, const nlohmann::json& request,
                                          const RestPlanOptions& options) {
  return fetch_scan_tasks_json(table.io(), table.metadata(), request, options);
}

}  // namespace floe
