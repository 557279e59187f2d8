// The Spark-SQL parser and binder (src/sql/parser, src/sql/binder): a script is parsed, every
// query in it (plain, under EXPLAIN, or the source of an INSERT) is bound against a small
// in-memory catalog of two tables and planned as EXPLAIN does; nothing is executed or written.
// Property: a statement printed canonically parses again and prints the same text
// (sql/parser/ast_internal.h, "Canonical printing").
//
// Uses the sql layer's private headers, as its tests do (cmake/layers.txt).
#include "floe/catalog/catalog.h"
#include "floe/spec/table_metadata.h"
#include "fuzz_support.h"
#include "sql/binder/binder_internal.h"
#include "sql/exec/plan_internal.h"
#include "sql/parser/parser_internal.h"

namespace {

using namespace floe;
using namespace floe::sql;

// db.events: every kind of column the binder types; db.users: a second table to join.
constexpr std::string_view kEventsJson = R"json({
  "format-version": 2, "table-uuid": "6a1e2b43-1f3c-4d5e-8f70-0a1b2c3d4e5f",
  "location": "mem://wh/db/events", "last-sequence-number": 0,
  "last-updated-ms": 1700000000000, "last-column-id": 15, "current-schema-id": 0,
  "schemas": [{"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "user_id", "required": false, "type": "int"},
    {"id": 3, "name": "name", "required": false, "type": "string"},
    {"id": 4, "name": "ts", "required": false, "type": "timestamptz"},
    {"id": 5, "name": "day", "required": false, "type": "date"},
    {"id": 6, "name": "amount", "required": false, "type": "decimal(10, 2)"},
    {"id": 7, "name": "score", "required": false, "type": "double"},
    {"id": 8, "name": "ok", "required": false, "type": "boolean"},
    {"id": 9, "name": "payload", "required": false, "type": "binary"},
    {"id": 10, "name": "tags", "required": false, "type":
      {"type": "list", "element-id": 11, "element-required": false, "element": "string"}},
    {"id": 12, "name": "attrs", "required": false, "type":
      {"type": "map", "key-id": 13, "key": "string", "value-id": 14, "value-required": false,
       "value": "int"}},
    {"id": 15, "name": "loc", "required": false, "type": {"type": "struct", "fields": [
      {"id": 16, "name": "lat", "required": false, "type": "float"},
      {"id": 17, "name": "lon", "required": false, "type": "float"}]}}]}],
  "default-spec-id": 0,
  "partition-specs": [{"spec-id": 0, "fields": [
    {"name": "day", "transform": "identity", "source-id": 5, "field-id": 1000}]}],
  "last-partition-id": 1000, "default-sort-order-id": 0,
  "sort-orders": [{"order-id": 0, "fields": []}], "properties": {},
  "current-snapshot-id": -1, "snapshots": [], "snapshot-log": [], "metadata-log": []
})json";

constexpr std::string_view kUsersJson = R"json({
  "format-version": 2, "table-uuid": "7b2f3c54-2a4d-4e6f-9a81-1b2c3d4e5f60",
  "location": "mem://wh/db/users", "last-sequence-number": 0,
  "last-updated-ms": 1700000000000, "last-column-id": 3, "current-schema-id": 0,
  "schemas": [{"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "user_id", "required": true, "type": "int"},
    {"id": 2, "name": "country", "required": false, "type": "string"},
    {"id": 3, "name": "signup", "required": false, "type": "timestamp"}]}],
  "default-spec-id": 0, "partition-specs": [{"spec-id": 0, "fields": []}],
  "last-partition-id": 999, "default-sort-order-id": 0,
  "sort-orders": [{"order-id": 0, "fields": []}], "properties": {},
  "current-snapshot-id": -1, "snapshots": [], "snapshot-log": [], "metadata-log": []
})json";

std::shared_ptr<const TableMetadata> parse_fixed(std::string_view json) {
  auto parsed = parse_table_metadata(json);
  FUZZ_CHECK(parsed.ok(), parsed.status().to_string());
  return std::make_shared<const TableMetadata>(*std::move(parsed));
}

// The binder's view of a session: the two tables above, names resolved as a session does
// (an optional catalog name, then the namespace, `default` when left out).
class FixedCatalog : public Catalogish {
 public:
  FixedCatalog() {
    options_.warehouse = "mem://wh";
    options_.current_namespace = {"db"};
    options_.threads = 1;
    io_ = make_memory_file_io();
    CatalogOptions o;
    o.warehouse = "mem://wh";
    o.io = io_;
    catalog_ = make_memory_catalog(o);
    options_.catalog = catalog_;
    tables_["events"] = parse_fixed(kEventsJson);
    tables_["users"] = parse_fixed(kUsersJson);
  }

  Result<StoredTable> load_table(const std::vector<std::string>& name) const override {
    TableIdentifier id = FLOE_TRY(identifier(name));
    auto it = tables_.find(id.name);
    if (id.ns != Namespace{"db"} || it == tables_.end()) {
      return Status(ErrorKind::kNotFound, "table " + id.to_string() + " not found");
    }
    StoredTable table;
    table.metadata = it->second;
    table.io = io_;
    table.metadata_file = {it->second->location + "/metadata/v1.metadata.json", "catalog"};
    table.directory = it->second->location;
    return table;
  }
  std::optional<Result<PlanPtr>> metadata_table(const std::vector<std::string>&,
                                                const ast::TimeTravel*) const override {
    return std::nullopt;
  }
  const SessionOptions& options() const override { return options_; }
  Result<CatalogPtr> catalog(bool) const override { return catalog_; }
  Result<TableIdentifier> identifier(const std::vector<std::string>& name) const override {
    std::vector<std::string> parts = name;
    if (parts.size() >= 2 && parts[0] == options_.catalog_name) parts.erase(parts.begin());
    if (parts.size() == 1) parts.insert(parts.begin(), options_.current_namespace[0]);
    TableIdentifier id;
    id.name = parts.back();
    id.ns.assign(parts.begin(), parts.end() - 1);
    return id;
  }

 private:
  SessionOptions options_;
  FileIOPtr io_;
  CatalogPtr catalog_;
  std::map<std::string, std::shared_ptr<const TableMetadata>> tables_;
};

// Binds and plans a query as EXPLAIN does (scans prepared, nothing read or executed).
void bind(const Catalogish& catalog, const ast::Query& query) {
  ExecContext ctx;
  ctx.threads = 1;
  Binder binder(catalog, ctx);
  auto plan = binder.plan_query(query);
  if (!plan.ok()) return;
  std::vector<IcebergScanNode*> scans;
  Binder::collect_scans(plan->get(), &scans);
  for (IcebergScanNode* scan : scans) {
    if (!scan->prepare().ok()) return;
  }
  (void)explain_plan(**plan);
}

void check_canonical_text(const ast::Statement& statement) {
  std::string text = ast::to_string(statement);
  auto again = parse_statement(text);
  // The canonical text parenthesises every operation as Spark's generated column names do, so
  // a long flat chain (`1 + 1 + ...`, which parses) prints deeper than the parser's nesting
  // limit: refused by that limit, cleanly, is the one acceptable failure.
  if (!again.ok() && again.status().message().find("nested too deeply") != std::string::npos) {
    return;
  }
  FUZZ_CHECK(again.ok(), "canonical text: " + text + "\nerror: " + again.status().to_string());
  std::string text_again = ast::to_string(*again);
  FUZZ_CHECK(text_again == text, "canonical text: " + text + "\nprinted again: " + text_again);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const FixedCatalog catalog;
  auto statements = parse_sql(fuzz::as_text(data, size));
  if (!statements.ok()) return 0;
  for (const ast::Statement& statement : *statements) {
    check_canonical_text(statement);
    const ast::Statement* s = &statement;
    if (s->is<ast::ExplainStatement>()) s = s->as<ast::ExplainStatement>().statement.get();
    if (s->is<ast::QueryStatement>()) {
      bind(catalog, *s->as<ast::QueryStatement>().query);
    } else if (s->is<ast::InsertStatement>()) {
      const auto& insert = s->as<ast::InsertStatement>();
      if (insert.source) bind(catalog, *insert.source);
    }
  }
  return 0;
}
