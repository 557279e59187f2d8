// Session: statement dispatch, table lookup in the warehouse, metadata tables.
#include "floe/sql/session.h"

#include <fmt/format.h>

#include <filesystem>
#include <mutex>

#include "floe/io/file_io.h"
#include "floe/io/s3_file_io.h"
#include "floe/table/metadata_tables.h"
#include "floe/util/strings.h"
#include "floe/util/utf8.h"
#include "sql/binder/binder_internal.h"
#include "sql/parser/parser_internal.h"
#include "sql/statements/statements_internal.h"
#include "sql/statements/table_cache_internal.h"

namespace floe::sql {

namespace {

// A metadata table streamed from the table's manifests.
class MetadataTableNode : public PlanNode {
 public:
  MetadataTableNode(std::string name, StoredTable table, MetadataTableType type,
                    MetadataTableOptions options, const Schema& schema)
      : name_(std::move(name)), table_(std::move(table)), type_(type), options_(options) {
    fields_ = schema.fields();
  }
  Status execute(ExecContext& ctx, const BatchSink& sink) override {
    return scan_metadata_table(*table_.io, *table_.metadata, type_, options_, [&](ColumnBatch&& b) {
      b.fields = fields_;
      return sink(std::move(b));
    });
  }
  std::string describe() const override { return "MetadataTable " + name_; }

 private:
  std::string name_;
  StoredTable table_;
  MetadataTableType type_;
  MetadataTableOptions options_;
};

}  // namespace

struct Session::Impl : Catalogish {
  explicit Impl(SessionOptions& o) : opts(o) {}
  SessionOptions& opts;
  mutable std::mutex catalog_mu;
  TableCache cache{*this};  // CACHE TABLE and temporary views

  std::optional<Result<PlanPtr>> temp_view(const std::string& name,
                                           std::vector<TableRead>* reads) const override {
    return cache.temp_view(name, reads);
  }
  std::optional<Result<PlanPtr>> cached_table(
      const StoredTable& table, const std::string& display,
      const std::vector<std::string>& columns) const override {
    return cache.cached_table(table, display, columns);
  }

  const SessionOptions& options() const override { return opts; }

  std::string catalog_uri() const {
    if (!opts.catalog_uri.empty()) return opts.catalog_uri;
    return "sqlite:" + join_path(opts.warehouse, "catalog.db");
  }

  Result<CatalogPtr> catalog(bool create) const override {
    std::lock_guard lock(catalog_mu);
    if (opts.catalog) return opts.catalog;
    if (opts.catalog_uri.empty() && is_s3_uri(opts.warehouse)) {
      return invalid_argument(
          "a warehouse on S3 ({}) needs its catalog named: --catalog sqlite:PATH (a local "
          "file) or --catalog postgresql://...",
          opts.warehouse);
    }
    std::string uri = catalog_uri();
    if (!create && uri.starts_with("sqlite:")) {
      std::error_code ec;
      if (!std::filesystem::exists(uri.substr(7), ec)) return CatalogPtr();
    }
    CatalogOptions o;
    o.name = opts.catalog_name;
    o.properties = opts.catalog_properties;
    // Table locations are stored absolute, so the table reads the same from any directory.
    std::error_code ec;
    auto absolute = std::filesystem::absolute(opts.warehouse, ec);
    o.warehouse = ec || opts.warehouse.find("://") != std::string::npos
                      ? opts.warehouse
                      : absolute.lexically_normal().string();
    opts.catalog = FLOE_TRY(open_catalog(uri, o));
    return opts.catalog;
  }

  // Namespace + table name without a leading catalog name.
  std::vector<std::string> qualify(const std::vector<std::string>& name) const {
    std::vector<std::string> parts = name;
    if (parts.size() >= 2 && iequals(parts[0], opts.catalog_name)) parts.erase(parts.begin());
    if (parts.size() == 1) {
      std::vector<std::string> full = opts.current_namespace;
      full.push_back(parts[0]);
      return full;
    }
    return parts;
  }

  Result<TableIdentifier> identifier(const std::vector<std::string>& name) const override {
    std::vector<std::string> q = qualify(name);
    if (q.size() < 2) return invalid_argument("table name {} needs a namespace", dotted_name(name));
    TableIdentifier id;
    id.name = q.back();
    id.ns.assign(q.begin(), q.end() - 1);
    return id;
  }

  std::string table_directory(const std::vector<std::string>& qualified) const {
    std::filesystem::path dir(opts.warehouse);
    for (const auto& p : qualified) dir /= p;
    return dir.string();
  }

  // A table from the catalog, else (tables written by other tools into the warehouse) from the
  // warehouse's Hadoop layout `<warehouse>/<namespace>/<table>`.
  Result<StoredTable> load_table(const std::vector<std::string>& name) const override {
    std::vector<std::string> q = qualify(name);
    CatalogPtr cat = FLOE_TRY(catalog(false));
    if (cat && q.size() >= 2) {
      TableIdentifier id = FLOE_TRY(identifier(name));
      auto loaded = cat->load_metadata(id);
      if (loaded.ok()) {
        StoredTable table;
        table.metadata = loaded->metadata;
        table.io = cat->io();
        table.metadata_file = {loaded->location, "catalog"};
        table.directory = loaded->metadata->location;
        return table;
      }
      if (loaded.status().kind() != ErrorKind::kNotFound) return loaded.status();
    }
    if (is_s3_uri(opts.warehouse)) {
      return Status(ErrorKind::kNotFound, fmt::format("table {} not found in catalog {}",
                                                      dotted_name(q), opts.catalog_name));
    }
    // The name becomes a path under the warehouse: refuse one that would leave it.
    for (size_t i = 0; i < q.size(); ++i) {
      Status s = check_path_name(i + 1 == q.size() ? "table" : "namespace", q[i]);
      if (!s.ok()) return s;
    }
    std::string dir = table_directory(q);
    std::error_code ec;
    if (!std::filesystem::is_directory(std::filesystem::path(dir) / "metadata", ec)) {
      const std::string shown = dotted_name(q);
      return Status(ErrorKind::kNotFound,
                    fmt::format("table {} not found (not in catalog {} and no Iceberg metadata "
                                "under {})",
                                shown, opts.catalog_name, dir));
    }
    return open_table_at(make_local_file_io(), dir);
  }

  std::optional<Result<PlanPtr>> metadata_table(const std::vector<std::string>& name,
                                                const ast::TimeTravel* travel) const override {
    if (name.size() < 2) return std::nullopt;
    auto type = metadata_table_type_from_name(name.back());
    if (!type) return std::nullopt;
    std::vector<std::string> base(name.begin(), name.end() - 1);
    auto table = load_table(base);
    if (!table.ok()) {
      // `db.files` may be a table named files: only a metadata table when the base exists.
      if (table.status().kind() == ErrorKind::kNotFound) {
        auto plain = load_table(name);
        if (plain.ok()) return std::nullopt;
      }
      return Result<PlanPtr>(table.status());
    }
    MetadataTableOptions options;
    options.threads = opts.threads;
    options.metadata_file_location = table->metadata_file.path;
    if (travel) {
      if (travel->kind != ast::TimeTravelKind::kVersion ||
          travel->value->kind != ast::ExprKind::kLiteral ||
          !travel->value->as<ast::LiteralExpr>().int_value) {
        return Result<PlanPtr>(
            Status(ErrorKind::kInvalidArgument, "metadata tables time-travel by snapshot id only"));
      }
      options.snapshot_id = *travel->value->as<ast::LiteralExpr>().int_value;
    }
    auto schema = metadata_table_schema(*table->metadata, *type);
    if (!schema.ok()) return Result<PlanPtr>(schema.status());
    const std::string shown = dotted_name(name);
    return Result<PlanPtr>(
        PlanPtr(std::make_unique<MetadataTableNode>(shown, *table, *type, options, **schema)));
  }
};

Session::Session(SessionOptions options)
    : options_(std::move(options)), impl_(std::make_unique<Impl>(options_)) {}

Session::~Session() = default;

Result<StoredTable> Session::load_table(const std::vector<std::string>& name) const {
  return impl_->load_table(name);
}

Result<CatalogPtr> Session::catalog(bool create) const { return impl_->catalog(create); }

Result<TableIdentifier> Session::identifier(const std::vector<std::string>& name) const {
  return impl_->identifier(name);
}

namespace {

Status run_query(Binder& binder, ExecContext& ctx, const ast::Query& query,
                 const ResultSink& sink) {
  PlanPtr plan = FLOE_TRY(binder.plan_query(query));
  if (sink.begin) sink.begin(plan->fields());
  FLOE_TRY(run_plan(*plan, ctx, [&](ColumnBatch&& b) -> Status {
    if (sink.rows && b.num_rows) FLOE_TRY(sink.rows(b));
    return Status::OK();
  }));
  if (sink.end) sink.end();
  return Status::OK();
}

Status run_explain(Binder& binder, const ast::ExplainStatement& explain, const ResultSink& sink) {
  const ast::Statement& inner = *explain.statement;
  if (!inner.is<ast::QueryStatement>()) {
    return Status(ErrorKind::kNotSupported, fmt::format("EXPLAIN of {} is not supported yet",
                                                        statement_kind_name(inner.kind())));
  }
  PlanPtr plan = FLOE_TRY(binder.plan_query(*inner.as<ast::QueryStatement>().query));
  std::vector<IcebergScanNode*> scans;
  Binder::collect_scans(plan.get(), &scans);
  std::vector<ScanReport> reports;
  for (IcebergScanNode* scan : scans) {
    FLOE_TRY(scan->prepare());
    reports.push_back(scan->report());
  }
  std::string text = "== Physical Plan ==\n" + explain_plan(*plan);
  if (sink.explain) sink.explain(text, reports);
  return Status::OK();
}

// In a list of statements, which one failed: each statement commits on its own (as in Spark), so
// the ones before it stay committed.
Status statement_failed(const Status& s, const std::vector<ast::Statement>& statements,
                        size_t index) {
  if (statements.size() < 2 || is_cancel(s)) return s;
  std::string text(trim(statements[index].text));
  for (char& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  if (utf8_count(text) > 60) text = std::string(utf8_truncate(text, 57)) + "...";
  std::string message = fmt::format("statement {} of {} ({}) failed: {}", index + 1,
                                    statements.size(), text, s.message());
  if (index == 1) {
    message += " (statement 1 before it stays committed: each statement commits on its own)";
  } else if (index > 1) {
    message += fmt::format(
        " (statements 1 to {} before it stay committed: each statement commits on its own)", index);
  }
  return Status(s.kind(), std::move(message));
}

// The table a write statement changes (the cache drops what it holds of it), if any.
const ast::QualifiedName* written_table(const ast::Statement& statement) {
  switch (statement.kind()) {
    case ast::StatementKind::kCreateTable:
      return &statement.as<ast::CreateTableStatement>().table;
    case ast::StatementKind::kInsert:
      return &statement.as<ast::InsertStatement>().table;
    case ast::StatementKind::kAlterTable:
      return &statement.as<ast::AlterTableStatement>().table;
    case ast::StatementKind::kDelete:
      return &statement.as<ast::DeleteStatement>().table;
    case ast::StatementKind::kUpdate:
      return &statement.as<ast::UpdateStatement>().table;
    case ast::StatementKind::kMerge:
      return &statement.as<ast::MergeStatement>().target;
    default:
      return nullptr;
  }
}

}  // namespace

Status Session::run(std::string_view script, const ResultSink& sink) {
  std::vector<ast::Statement> statements = FLOE_TRY(parse_sql(script));
  for (size_t index = 0; index < statements.size(); ++index) {
    const ast::Statement& statement = statements[index];
    ExecContext ctx;
    ctx.threads = options_.threads;
    ctx.progress = sink.progress;
    Binder binder(*impl_, ctx);
    Status s;
    switch (statement.kind()) {
      case ast::StatementKind::kQuery:
        s = run_query(binder, ctx, *statement.as<ast::QueryStatement>().query, sink);
        break;
      case ast::StatementKind::kExplain:
        s = run_explain(binder, statement.as<ast::ExplainStatement>(), sink);
        break;
      case ast::StatementKind::kCreateTable:
      case ast::StatementKind::kInsert:
      case ast::StatementKind::kAlterTable:
      case ast::StatementKind::kCall:
      case ast::StatementKind::kDelete:
      case ast::StatementKind::kUpdate:
      case ast::StatementKind::kMerge: {
        WriteContext wc{*impl_, options_, binder, ctx, sink};
        s = run_table_statement(wc, statement);
        // Cached rows of the table are read again on next use (CALL's tables are found
        // stale by their snapshot then).
        if (const ast::QualifiedName* target = written_table(statement)) {
          impl_->cache.written(target->parts);
        }
        break;
      }
      case ast::StatementKind::kCacheTable:
      case ast::StatementKind::kUncacheTable:
      case ast::StatementKind::kClearCache: {
        WriteContext wc{*impl_, options_, binder, ctx, sink};
        s = impl_->cache.run(wc, statement);
        break;
      }
      case ast::StatementKind::kDropTable: {
        const auto& drop = statement.as<ast::DropTableStatement>();
        if (drop.view) {
          WriteContext wc{*impl_, options_, binder, ctx, sink};
          s = impl_->cache.run(wc, statement);
          break;
        }
        const std::string key = impl_->cache.key_of(drop.table.parts);
        StatementContext sc{*impl_, options_, {}, sink};
        s = run_other_statement(sc, statement);
        if (s.ok() && !key.empty()) impl_->cache.dropped(key);
        break;
      }
      default: {
        StatementContext sc{*impl_, options_, {}, sink};
        s = run_other_statement(sc, statement);
        break;
      }
    }
    if (!s.ok()) return statement_failed(s, statements, index);
  }
  return Status::OK();
}

}  // namespace floe::sql
