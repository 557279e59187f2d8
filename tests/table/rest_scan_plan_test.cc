// REST scan planning (planTableScan, fetchScanTasks): the tasks a plan answers with are the ones
// floe's TableScan plans for the same filter and snapshot, with the same delete files and
// residuals; plan tasks fetched one by one give the same union; requests and plan tasks that are
// malformed or forged are errors of the right kind. Over a table built with the Table API in a
// temporary warehouse (partitioned, several appends, position and equality deletes; a v3 table
// with a deletion vector) and over fixture tables written by other engines.
#include "floe/table/rest_scan_plan.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "floe/expr/expression_json.h"
#include "floe/spec/metadata_file.h"
#include "floe/util/binary_text.h"
#include "table_test_util.h"

namespace floe::testing {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

// What a plan says about one data file: the delete files it applies ("path" or
// "path@offset") and its residual filter.
struct Planned {
  std::set<std::string> deletes;
  json residual;
  bool operator==(const Planned&) const = default;
};
using PlanMap = std::map<std::string, Planned>;

std::string delete_key(const json& d) {
  std::string key = d.at("file-path").get<std::string>();
  if (d.contains("content-offset")) key += "@" + std::to_string(d["content-offset"].get<int64_t>());
  return key;
}

// The tasks of a completed plan or fetch result; each data file once.
PlanMap tasks_of(const json& result) {
  PlanMap out;
  const json& deletes = result.at("delete-files");
  for (const json& task : result.at("file-scan-tasks")) {
    Planned p;
    if (task.contains("delete-file-references")) {
      for (const json& ref : task["delete-file-references"]) {
        EXPECT_LT(ref.get<size_t>(), deletes.size());
        p.deletes.insert(delete_key(deletes.at(ref.get<size_t>())));
      }
    }
    p.residual = task.at("residual-filter");
    std::string path = task.at("data-file").at("file-path");
    EXPECT_FALSE(out.count(path)) << path << " planned twice";
    out[path] = std::move(p);
  }
  return out;
}

// What TableScan plans for the same scan.
PlanMap expected_plan(const FileIOPtr& io, const std::shared_ptr<const TableMetadata>& metadata,
                      ScanOptions options = {}) {
  auto scan = must(TableScan::make(io, metadata, std::move(options)));
  PlanMap out;
  for (const auto& task : must(scan.plan_files())) {
    Planned p;
    for (const auto& d : task.deletes) {
      std::string key(d->file_path());
      if (d->content_offset()) key += "@" + std::to_string(*d->content_offset());
      p.deletes.insert(key);
    }
    p.residual = must(expression_to_json(*task.residual));
    out[task.file->file_path] = std::move(p);
  }
  return out;
}

std::set<std::string> paths(const PlanMap& m) {
  std::set<std::string> out;
  for (const auto& [path, _] : m) out.insert(path);
  return out;
}

json plan(const FileIOPtr& io, const std::shared_ptr<const TableMetadata>& metadata,
          const json& request, const RestPlanOptions& options = {}) {
  auto r = plan_table_scan_json(io, metadata, request, options);
  EXPECT_TRUE(r.ok()) << request.dump() << ": " << r.status().to_string();
  return r.ok() ? json::parse(*r) : json::object();
}

// Plans with plan tasks forced (`per_task` manifests each) and fetches every one; returns the
// union of their tasks and how many plan tasks there were.
PlanMap plan_through_tasks(const FileIOPtr& io,
                           const std::shared_ptr<const TableMetadata>& metadata,
                           const json& request, int64_t per_task, size_t* count = nullptr) {
  RestPlanOptions o;
  o.max_inline_manifests = 0;
  o.manifests_per_plan_task = per_task;
  json result = plan(io, metadata, request, o);
  EXPECT_EQ(result.value("status", ""), "completed");
  EXPECT_FALSE(result.contains("file-scan-tasks"));
  EXPECT_FALSE(result.contains("delete-files"));
  PlanMap all;
  if (count) *count = 0;
  for (const json& token : result.value("plan-tasks", json::array())) {
    if (count) ++*count;
    auto fetched = fetch_scan_tasks_json(io, metadata, json{{"plan-task", token}}, o);
    EXPECT_TRUE(fetched.ok()) << fetched.status().to_string();
    if (!fetched.ok()) continue;
    json j = json::parse(*fetched);
    EXPECT_FALSE(j.contains("status"));
    for (auto& [path, p] : tasks_of(j)) {
      EXPECT_FALSE(all.count(path)) << path << " fetched from two plan tasks";
      all[path] = std::move(p);
    }
  }
  return all;
}

std::string int64_bytes(int64_t v) { return must(Literal::int64(v).to_bytes()); }

// ASSERT_OK for a function returning a pointer.
#define ASSERT_OK_OR_NULL(expr)                                         \
  do {                                                                  \
    auto&& s_ = (expr);                                                 \
    EXPECT_TRUE(s_.ok()) << ::floe::testing::status_of(s_).to_string(); \
    if (!s_.ok()) return nullptr;                                       \
  } while (0)

class RestScanPlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CatalogOptions o;
    o.warehouse = dir_.str();
    catalog_ = must(open_catalog("sqlite:" + dir_.str() + "/catalog.db", o));
    ASSERT_OK(catalog_->create_namespace({"db"}));
  }

  std::shared_ptr<Table> create(const std::string& name, int format_version) {
    return must(Table::create(catalog_, {{"db"}, name}, test_schema(), category_spec(), nullptr, {},
                              "", format_version));
  }

  // A data file of `category` whose ids span [min_id, max_id], with metrics for id (1) and
  // category (2).
  static DataFile data(const Table& t, const std::string& name, const std::string& category,
                       int64_t min_id, int64_t max_id) {
    DataFile f;
    f.file_path = t.location() + "/data/category=" + category + "/" + name + ".parquet";
    f.file_format = "PARQUET";
    f.partition = {Literal::string(category)};
    f.record_count = max_id - min_id + 1;
    f.file_size_in_bytes = f.record_count * 16 + 100;
    f.column_sizes = {{1, f.record_count * 8}, {2, 40}};
    f.value_counts = {{1, f.record_count}, {2, f.record_count}};
    f.null_value_counts = {{1, 0}, {2, 0}};
    f.lower_bounds = {{1, int64_bytes(min_id)}, {2, category}};
    f.upper_bounds = {{1, int64_bytes(max_id)}, {2, category}};
    f.split_offsets = std::vector<int64_t>{4};
    return f;
  }

  static DataFile pos_delete(const Table& t, const std::string& name, const std::string& category,
                             const std::string& target = "") {
    DataFile f;
    f.content = FileContent::kPositionDeletes;
    f.file_path = t.location() + "/data/category=" + category + "/" + name + "-deletes.parquet";
    f.file_format = "PARQUET";
    f.partition = {Literal::string(category)};
    f.record_count = 3;
    f.file_size_in_bytes = 300;
    if (!target.empty()) f.referenced_data_file = target;
    return f;
  }

  static DataFile eq_delete(const Table& t, const std::string& name, const std::string& category) {
    DataFile f;
    f.content = FileContent::kEqualityDeletes;
    f.file_path = t.location() + "/data/category=" + category + "/" + name + "-eq.parquet";
    f.file_format = "PARQUET";
    f.partition = {Literal::string(category)};
    f.record_count = 2;
    f.file_size_in_bytes = 200;
    f.equality_ids = std::vector<int32_t>{1};
    return f;
  }

  // db.t (v2): four appends (one manifest each) and a row delta with a partition-wide position
  // delete in a, a position delete scoped to b1 and an equality delete in c. a3 comes after
  // the deletes, so none applies to it.
  std::shared_ptr<Table> build() {
    auto t = create("t", 2);
    ASSERT_OK_OR_NULL(t->new_fast_append()
                          .append_file(data(*t, "a1", "a", 1, 100))
                          .append_file(data(*t, "b1", "b", 1, 100))
                          .commit());
    first_snapshot_ = t->metadata()->current_snapshot()->snapshot_id;
    ASSERT_OK_OR_NULL(t->new_fast_append()
                          .append_file(data(*t, "a2", "a", 101, 200))
                          .append_file(data(*t, "c1", "c", 1, 50))
                          .commit());
    ASSERT_OK_OR_NULL(t->new_fast_append().append_file(data(*t, "b2", "b", 500, 600)).commit());
    ASSERT_OK_OR_NULL(
        t->new_row_delta()
            .add_deletes(pos_delete(*t, "pa", "a"))
            .add_deletes(pos_delete(*t, "pb1", "b", data(*t, "b1", "b", 1, 100).file_path))
            .add_deletes(eq_delete(*t, "ec", "c"))
            .commit());
    ASSERT_OK_OR_NULL(t->new_fast_append().append_file(data(*t, "a3", "a", 300, 400)).commit());
    return t;
  }

  std::string path_of(const Table& t, const std::string& category, const std::string& name) {
    return t.location() + "/data/category=" + category + "/" + name + ".parquet";
  }

  test_support::TempDir dir_{"floe-rest-plan"};
  CatalogPtr catalog_;
  int64_t first_snapshot_ = 0;
};

TEST_F(RestScanPlanTest, CompletedPlanHasTheTasksTableScanPlans) {
  auto t = build();
  ASSERT_TRUE(t);
  const std::vector<json> filters = {
      json(),
      {{"type", "lt"}, {"term", "id"}, {"value", 150}},
      {{"type", "eq"}, {"term", "category"}, {"value", "a"}},
      {{"type", "and"},
       {"left", {{"type", "in"}, {"term", "category"}, {"values", {"a", "c"}}}},
       {"right", {{"type", "gt"}, {"term", "id"}, {"value", 120}}}},
      {{"type", "not"}, {"child", {{"type", "starts-with"}, {"term", "category"}, {"value", "b"}}}},
      {{"type", "gt"}, {"term", "id"}, {"value", 100000}},
  };
  for (const json& filter : filters) {
    SCOPED_TRACE(filter.dump());
    json request = json::object();
    ScanOptions options;
    if (!filter.is_null()) {
      request["filter"] = filter;
      options.filter = must(expression_from_json(filter));
    }
    json result = plan(t->io(), t->metadata(), request);
    EXPECT_EQ(result["status"], "completed");
    EXPECT_TRUE(result["plan-id"].is_string());
    EXPECT_FALSE(result.contains("plan-tasks"));
    EXPECT_EQ(tasks_of(result), expected_plan(t->io(), t->metadata(), options));
  }

  // Files the filter prunes are absent; the deletes each file gets are exactly its own.
  json result = plan(t->io(), t->metadata(),
                     {{"filter", {{"type", "eq"}, {"term", "category"}, {"value", "a"}}}});
  PlanMap a = tasks_of(result);
  EXPECT_EQ(paths(a), (std::set<std::string>{path_of(*t, "a", "a1"), path_of(*t, "a", "a2"),
                                             path_of(*t, "a", "a3")}));
  const std::string pa = t->location() + "/data/category=a/pa-deletes.parquet";
  EXPECT_EQ(a[path_of(*t, "a", "a1")].deletes, std::set<std::string>{pa});
  EXPECT_EQ(a[path_of(*t, "a", "a2")].deletes, std::set<std::string>{pa});
  EXPECT_TRUE(a[path_of(*t, "a", "a3")].deletes.empty());
  ASSERT_EQ(result["delete-files"].size(), 1u);  // only the referenced ones

  PlanMap all = tasks_of(plan(t->io(), t->metadata(), json::object()));
  EXPECT_EQ(all.size(), 6u);
  EXPECT_EQ(all[path_of(*t, "b", "b1")].deletes,
            std::set<std::string>{t->location() + "/data/category=b/pb1-deletes.parquet"});
  EXPECT_TRUE(all[path_of(*t, "b", "b2")].deletes.empty());  // pb1 is scoped to b1
  EXPECT_EQ(all[path_of(*t, "c", "c1")].deletes,
            std::set<std::string>{t->location() + "/data/category=c/ec-eq.parquet"});
}

TEST_F(RestScanPlanTest, ResidualsAreWhatMetadataCouldNotDecide) {
  auto t = build();
  ASSERT_TRUE(t);
  // The partition decides category = 'a'; id > 150 is left for the reader.
  json result = plan(t->io(), t->metadata(),
                     {{"filter",
                       {{"type", "and"},
                        {"left", {{"type", "eq"}, {"term", "category"}, {"value", "a"}}},
                        {"right", {{"type", "gt"}, {"term", "id"}, {"value", 150}}}}}});
  PlanMap planned = tasks_of(result);
  EXPECT_EQ(paths(planned),
            (std::set<std::string>{path_of(*t, "a", "a2"), path_of(*t, "a", "a3")}));
  for (const auto& [path, p] : planned) {
    EXPECT_EQ(p.residual, (json{{"type", "gt"}, {"term", "id"}, {"value", 150}})) << path;
  }
  // A filter on the partition alone leaves nothing; no filter is `true`.
  for (const auto& [path, p] :
       tasks_of(plan(t->io(), t->metadata(),
                     {{"filter", {{"type", "eq"}, {"term", "category"}, {"value", "b"}}}}))) {
    EXPECT_EQ(p.residual, json(true)) << path;
  }
  for (const auto& [path, p] : tasks_of(plan(t->io(), t->metadata(), json::object()))) {
    EXPECT_EQ(p.residual, json(true)) << path;
  }
}

TEST_F(RestScanPlanTest, ContentFilesAreTheSpecsJson) {
  auto t = build();
  ASSERT_TRUE(t);
  json result = plan(t->io(), t->metadata(), json::object());
  std::map<std::string, json> files;
  for (const json& task : result["file-scan-tasks"])
    files[task["data-file"]["file-path"]] = task["data-file"];
  const json& a1 = files[path_of(*t, "a", "a1")];
  EXPECT_EQ(a1["content"], "data");
  EXPECT_EQ(a1["file-format"], "parquet");
  EXPECT_EQ(a1["spec-id"], 0);
  EXPECT_EQ(a1["partition"], json::array({"a"}));
  EXPECT_EQ(a1["record-count"], 100);
  EXPECT_EQ(a1["file-size-in-bytes"], 1700);
  EXPECT_EQ(a1["split-offsets"], json::array({4}));
  // No stats unless asked for.
  for (const char* key : {"column-sizes", "value-counts", "null-value-counts", "nan-value-counts",
                          "lower-bounds", "upper-bounds", "first-row-id"}) {
    EXPECT_FALSE(a1.contains(key)) << key;
  }

  std::map<std::string, json> deletes;
  for (const json& d : result["delete-files"]) deletes[d["file-path"]] = d;
  ASSERT_EQ(deletes.size(), 3u);
  const json& pa = deletes[t->location() + "/data/category=a/pa-deletes.parquet"];
  EXPECT_EQ(pa["content"], "position-deletes");
  EXPECT_EQ(pa["partition"], json::array({"a"}));
  EXPECT_EQ(pa["record-count"], 3);
  EXPECT_FALSE(pa.contains("referenced-data-file"));
  const json& pb1 = deletes[t->location() + "/data/category=b/pb1-deletes.parquet"];
  EXPECT_EQ(pb1["referenced-data-file"], path_of(*t, "b", "b1"));
  const json& ec = deletes[t->location() + "/data/category=c/ec-eq.parquet"];
  EXPECT_EQ(ec["content"], "equality-deletes");
  EXPECT_EQ(ec["equality-ids"], json::array({1}));
}

TEST_F(RestScanPlanTest, StatsFieldsSendTheNamedColumnsMetrics) {
  auto t = build();
  ASSERT_TRUE(t);
  json result = plan(t->io(), t->metadata(),
                     {{"stats-fields", {"id"}},
                      {"filter", {{"type", "eq"}, {"term", "category"}, {"value", "c"}}}});
  ASSERT_EQ(result["file-scan-tasks"].size(), 1u);
  const json& c1 = result["file-scan-tasks"][0]["data-file"];
  EXPECT_EQ(c1["column-sizes"], (json{{"keys", {1}}, {"values", {400}}}));
  EXPECT_EQ(c1["value-counts"], (json{{"keys", {1}}, {"values", {50}}}));
  EXPECT_EQ(c1["null-value-counts"], (json{{"keys", {1}}, {"values", {0}}}));
  EXPECT_FALSE(c1.contains("nan-value-counts"));  // none written
  EXPECT_EQ(c1["lower-bounds"], (json{{"keys", {1}}, {"values", {hex_encode(int64_bytes(1))}}}));
  EXPECT_EQ(c1["upper-bounds"], (json{{"keys", {1}}, {"values", {hex_encode(int64_bytes(50))}}}));

  // Both columns, named case-insensitively when the request says so.
  result = plan(t->io(), t->metadata(),
                {{"stats-fields", {"ID", "Category"}}, {"case-sensitive", false}});
  for (const json& task : result["file-scan-tasks"]) {
    EXPECT_EQ(task["data-file"]["value-counts"]["keys"], json::array({1, 2}));
    EXPECT_EQ(task["data-file"]["lower-bounds"]["values"][1],
              hex_encode(task["data-file"]["partition"][0].get<std::string>()));
  }
}

TEST_F(RestScanPlanTest, PlanTasksFetchedGiveTheCompletedPlansTasks) {
  auto t = build();
  ASSERT_TRUE(t);
  const size_t data_manifests = 4;  // one per append
  for (const json& request :
       {json::object(), json{{"filter", {{"type", "gt-eq"}, {"term", "id"}, {"value", 150}}}},
        json{{"filter", {{"type", "eq"}, {"term", "category"}, {"value", "b"}}}},
        json{{"snapshot-id", first_snapshot_}}}) {
    SCOPED_TRACE(request.dump());
    PlanMap completed = tasks_of(plan(t->io(), t->metadata(), request));
    for (int64_t per_task : {1, 2, 3}) {
      size_t count = 0;
      EXPECT_EQ(plan_through_tasks(t->io(), t->metadata(), request, per_task, &count), completed);
      EXPECT_GE(count, 1u);
    }
  }
  // Manifests whose partition summaries cannot match get no plan task. The appends' manifests
  // span categories a..b, a..c, b..b and a..a: b may be in three, c only in the second.
  size_t count = 0;
  plan_through_tasks(t->io(), t->metadata(),
                     {{"filter", {{"type", "eq"}, {"term", "category"}, {"value", "b"}}}}, 1,
                     &count);
  EXPECT_EQ(count, 3u);
  PlanMap c = plan_through_tasks(
      t->io(), t->metadata(), {{"filter", {{"type", "eq"}, {"term", "category"}, {"value", "c"}}}},
      1, &count);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(paths(c), std::set<std::string>{path_of(*t, "c", "c1")});
  plan_through_tasks(t->io(), t->metadata(), json::object(), 1, &count);
  EXPECT_EQ(count, data_manifests);
  plan_through_tasks(t->io(), t->metadata(), json::object(), 3, &count);
  EXPECT_EQ(count, 2u);

  // The default options answer small plans inline.
  EXPECT_TRUE(plan(t->io(), t->metadata(), json::object()).contains("file-scan-tasks"));
}

TEST_F(RestScanPlanTest, TamperedPlanTasksAreRejected) {
  auto t = build();
  ASSERT_TRUE(t);
  RestPlanOptions o;
  o.max_inline_manifests = 0;
  o.manifests_per_plan_task = 2;
  json result = plan(t->io(), t->metadata(),
                     {{"filter", {{"type", "lt"}, {"term", "id"}, {"value", 150}}}}, o);
  ASSERT_FALSE(result["plan-tasks"].empty());
  const std::string token = result["plan-tasks"][0];
  std::string decoded;
  ASSERT_TRUE(base64_decode(token, &decoded));
  const json doc = json::parse(decoded);

  auto fetch = [&](const json& request) {
    return fetch_scan_tasks_json(t->io(), t->metadata(), request, o);
  };
  auto with = [&](const std::function<void(json&)>& edit) {
    json d = doc;
    edit(d);
    return json{{"plan-task", base64_encode(d.dump())}};
  };
  ASSERT_TRUE(fetch({{"plan-task", token}}).ok());
  ASSERT_TRUE(fetch(with([](json&) {})).ok());  // re-encoding the same document is fine

  std::string flipped = token;
  flipped[flipped.size() / 2] = flipped[flipped.size() / 2] == 'A' ? 'B' : 'A';
  const std::vector<std::pair<std::string, json>> bad = {
      {"missing", json::object()},
      {"not a string", {{"plan-task", 42}}},
      {"not an object", json::array({token})},
      {"not base64", {{"plan-task", "!!!not base64!!!"}}},
      {"truncated", {{"plan-task", token.substr(0, token.size() - 4)}}},
      {"flipped", {{"plan-task", flipped}}},
      {"not json", {{"plan-task", base64_encode("{\"kind\": ")}}},
      {"not an object inside", {{"plan-task", base64_encode("[1,2]")}}},
      {"wrong kind", with([](json& d) { d["kind"] = "other"; })},
      {"wrong version", with([](json& d) { d["version"] = 2; })},
      {"unknown field", with([](json& d) { d["extra"] = 1; })},
      {"another table", with([](json& d) { d["table"] = "00000000-0000-0000-0000-000000000000"; })},
      {"forged manifest", with([](json& d) { d["manifests"][0] = "/etc/passwd"; })},
      {"no manifests", with([](json& d) { d["manifests"] = json::array(); })},
      {"manifest twice", with([](json& d) {
         d["manifests"] = {d["manifests"][0], d["manifests"][0]};
       })},
      {"manifest not a string", with([](json& d) { d["manifests"][0] = 5; })},
      {"snapshot not a long", with([](json& d) { d["snapshot-id"] = "1"; })},
      {"no case sensitivity", with([](json& d) { d.erase("case-sensitive"); })},
      {"bad filter", with([](json& d) {
         d["filter"] = {{"type", "lt"}, {"term", "id"}};
       })},
      {"filter on no column", with([](json& d) {
         d["filter"] = {{"type", "is-null"}, {"term", "nope"}};
       })},
      {"bad select", with([](json& d) { d["select"] = {"nope"}; })},
      {"deep", with([](json& d) {
         json e = true;
         for (int i = 0; i < 5000; ++i) e = json::array({e});
         d["filter"] = e;
       })},
  };
  for (const auto& [what, request] : bad) {
    auto r = fetch(request);
    ASSERT_FALSE(r.ok()) << what;
    EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidArgument)
        << what << ": " << r.status().to_string();
  }
  // A delete manifest of the snapshot is not a plan task's to name either.
  auto m = t->metadata();
  for (const auto& mf : must(snapshot_manifests(*t->io(), *m, *m->current_snapshot()))) {
    if (mf.content != ManifestContent::kDeletes) continue;
    auto r = fetch(with([&](json& d) { d["manifests"][0] = mf.manifest_path; }));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidArgument);
    EXPECT_NE(r.status().message().find("not a data manifest"), std::string::npos);
  }
  // A snapshot the table no longer has: the plan task is gone (404).
  auto gone = fetch(with([](json& d) { d["snapshot-id"] = 12345; }));
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.status().kind(), ErrorKind::kNotFound);
}

TEST_F(RestScanPlanTest, RequestsAreValidated) {
  auto t = build();
  ASSERT_TRUE(t);
  auto error = [&](const json& request) {
    auto r = plan_table_scan_json(*t, request);
    EXPECT_FALSE(r.ok()) << request.dump();
    return r.ok() ? Status::OK() : r.status();
  };
  struct Case {
    json request;
    ErrorKind kind;
    std::string message;
  };
  const std::vector<Case> cases = {
      {json::array(), ErrorKind::kInvalidArgument, "must be a JSON object"},
      {{{"snapshot-id", 999}}, ErrorKind::kNotFound, "snapshot 999"},
      {{{"snapshot-id", "1"}}, ErrorKind::kInvalidArgument, "snapshot-id: expected a long"},
      {{{"case-sensitive", "yes"}}, ErrorKind::kInvalidArgument, "case-sensitive"},
      {{{"select", "id"}}, ErrorKind::kInvalidArgument, "select: expected an array"},
      {{{"select", {"id", "nope"}}},
       ErrorKind::kInvalidArgument,
       "select[1]: no field named 'nope'"},
      {{{"select", {"ID"}}}, ErrorKind::kInvalidArgument, "select[0]"},
      {{{"stats-fields", {"nope"}}}, ErrorKind::kInvalidArgument, "stats-fields[0]"},
      {{{"filter", {{"type", "lt"}, {"term", "id"}}}},
       ErrorKind::kInvalidArgument,
       "filter: missing \"value\""},
      {{{"filter", {{"type", "lt"}, {"term", "nope"}, {"value", 1}}}},
       ErrorKind::kInvalidArgument,
       "filter: cannot find column 'nope'"},
      {{{"filter", {{"type", "lt"}, {"term", "id"}, {"value", "x"}}}},
       ErrorKind::kInvalidArgument,
       "filter"},
      {{{"min-rows-requested", "many"}}, ErrorKind::kInvalidArgument, "min-rows-requested"},
      {{{"start-snapshot-id", first_snapshot_}, {"end-snapshot-id", first_snapshot_}},
       ErrorKind::kNotSupported,
       "incremental scans"},
      {{{"end-snapshot-id", first_snapshot_}}, ErrorKind::kNotSupported, "incremental scans"},
      {{{"start-snapshot-id", first_snapshot_}},
       ErrorKind::kInvalidArgument,
       "end-snapshot-id is required"},
      {{{"snapshot-id", first_snapshot_}, {"end-snapshot-id", first_snapshot_}},
       ErrorKind::kInvalidArgument,
       "not both"},
  };
  for (const auto& c : cases) {
    Status s = error(c.request);
    EXPECT_EQ(s.kind(), c.kind) << c.request.dump() << ": " << s.to_string();
    EXPECT_NE(s.message().find(c.message), std::string::npos)
        << c.request.dump() << ": " << s.message() << " (expected: " << c.message << ")";
  }
  // Case-insensitive names when asked; null fields count as absent; hints are accepted.
  auto ok = plan_table_scan_json(
      *t, {{"select", {"ID"}},
           {"case-sensitive", false},
           {"snapshot-id", nullptr},
           {"min-rows-requested", 10},
           {"filter", {{"type", "eq"}, {"term", "CATEGORY"}, {"value", "c"}}}});
  ASSERT_TRUE(ok.ok()) << ok.status().to_string();
  EXPECT_EQ(json::parse(*ok)["file-scan-tasks"].size(), 1u);
}

TEST_F(RestScanPlanTest, TimeTravelAndEmptyTables) {
  auto t = build();
  ASSERT_TRUE(t);
  PlanMap old = tasks_of(plan(t->io(), t->metadata(), {{"snapshot-id", first_snapshot_}}));
  EXPECT_EQ(paths(old), (std::set<std::string>{path_of(*t, "a", "a1"), path_of(*t, "b", "b1")}));
  for (const auto& [path, p] : old) EXPECT_TRUE(p.deletes.empty()) << path;
  ScanOptions options;
  options.snapshot_id = first_snapshot_;
  EXPECT_EQ(old, expected_plan(t->io(), t->metadata(), options));
  EXPECT_EQ(tasks_of(plan(t->io(), t->metadata(),
                          {{"snapshot-id", first_snapshot_}, {"use-snapshot-schema", true}})),
            old);

  auto empty = create("empty", 2);
  json result = plan(empty->io(), empty->metadata(),
                     {{"filter", {{"type", "eq"}, {"term", "id"}, {"value", 1}}}});
  EXPECT_EQ(result["status"], "completed");
  EXPECT_EQ(result["file-scan-tasks"], json::array());
  EXPECT_EQ(result["delete-files"], json::array());
}

TEST_F(RestScanPlanTest, DeletionVectorsInAV3Table) {
  auto t = create("v3", 3);
  DataFile a1 = data(*t, "a1", "a", 1, 100);
  DataFile a2 = data(*t, "a2", "a", 101, 200);
  ASSERT_OK(t->new_fast_append().append_file(a1).append_file(a2).commit());
  DataFile dv;
  dv.content = FileContent::kPositionDeletes;
  dv.file_path = t->location() + "/data/category=a/dvs.puffin";
  dv.file_format = "PUFFIN";
  dv.partition = a1.partition;
  dv.record_count = 4;
  dv.file_size_in_bytes = 900;
  dv.referenced_data_file = a1.file_path;
  dv.content_offset = 4;
  dv.content_size_in_bytes = 60;
  ASSERT_OK(t->new_row_delta().add_deletes(dv).commit());

  json result = plan(t->io(), t->metadata(), json::object());
  EXPECT_EQ(tasks_of(result), expected_plan(t->io(), t->metadata()));
  ASSERT_EQ(result["delete-files"].size(), 1u);
  const json& d = result["delete-files"][0];
  EXPECT_EQ(d["content"], "position-deletes");
  EXPECT_EQ(d["file-format"], "puffin");
  EXPECT_EQ(d["referenced-data-file"], a1.file_path);
  EXPECT_EQ(d["content-offset"], 4);
  EXPECT_EQ(d["content-size-in-bytes"], 60);
  EXPECT_EQ(d["record-count"], 4);
  std::set<int64_t> first_row_ids;
  for (const json& task : result["file-scan-tasks"]) {
    const json& f = task["data-file"];
    // v3 row lineage: the first row id, with the data sequence number it goes with.
    ASSERT_TRUE(f.contains("first-row-id")) << f.dump();
    first_row_ids.insert(f["first-row-id"].get<int64_t>());
    EXPECT_EQ(f["data-sequence-number"], 1);
    bool references = task.contains("delete-file-references");
    EXPECT_EQ(references, f["file-path"] == a1.file_path) << f["file-path"];
  }
  EXPECT_EQ(first_row_ids, (std::set<int64_t>{0, 100}));
}

// Tables other engines wrote: the plan is floe's own planner's, inline and through plan tasks.
TEST(RestScanPlanFixtures, PlansMatchTableScan) {
  const fs::path fixtures = FLOE_FIXTURES_DIR;
  struct Fixture {
    std::string name;
    json filter;
  };
  const std::vector<Fixture> tables = {
      {"impala/iceberg_v2_delete_both_eq_and_pos", json()},
      {"impala/iceberg_v2_partitioned_position_deletes", json()},
      {"impala/iceberg_v2_partitioned_position_deletes",
       {{"type", "eq"}, {"term", "action"}, {"value", "view"}}},
      {"impala/iceberg_v3_deletion_vectors", json()},
  };
  for (const auto& f : tables) {
    SCOPED_TRACE(f.name + " " + f.filter.dump());
    auto table = open_table_at(make_local_file_io(), (fixtures / f.name).string());
    ASSERT_TRUE(table.ok()) << table.status().to_string();
    json request = json::object();
    ScanOptions options;
    if (!f.filter.is_null()) {
      request["filter"] = f.filter;
      options.filter = must(expression_from_json(f.filter));
    }
    PlanMap expected = expected_plan(table->io, table->metadata, options);
    EXPECT_FALSE(expected.empty());
    json result = plan(table->io, table->metadata, request);
    EXPECT_EQ(tasks_of(result), expected);
    EXPECT_EQ(plan_through_tasks(table->io, table->metadata, request, 1), expected);
  }
}

}  // namespace
}  // namespace floe::testing
