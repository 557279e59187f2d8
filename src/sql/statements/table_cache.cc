// CACHE TABLE, UNCACHE TABLE, CLEAR CACHE and DROP VIEW, and the session cache the binder reads
// cached tables and temporary views from (sql/statements/table_cache_internal.h).
#include <fmt/format.h>

#include "floe/util/strings.h"
#include "sql/parser/parser_internal.h"
#include "sql/statements/table_cache_internal.h"

namespace floe::sql {

namespace {

std::string rows_text(int64_t rows) { return fmt::format("{} row{}", rows, rows == 1 ? "" : "s"); }

int64_t snapshot_of(const TableMetadata& m) {
  const Snapshot* s = m.current_snapshot();
  return s ? s->snapshot_id : -1;
}

std::string snapshot_text(int64_t id) { return id < 0 ? "none" : std::to_string(id); }

// Same column names and types, in order.
bool same_columns(const std::vector<NestedField>& a, const std::vector<NestedField>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].name != b[i].name || a[i].type->to_string() != b[i].type->to_string()) return false;
  }
  return true;
}

// The positions of `all` as the node's columns.
std::vector<int> every_column(const std::vector<NestedField>& fields) {
  std::vector<int> out(fields.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<int>(i);
  return out;
}

}  // namespace

std::string TableCache::shown_name(const std::vector<std::string>& name) const {
  auto id = catalog_.identifier(name);
  return id.ok() ? id->to_string() : dotted_name(name);
}

std::shared_ptr<TableCache::ViewEntry> TableCache::find_view(const std::string& name) const {
  auto it = views_.find(to_lower(name));
  return it == views_.end() ? nullptr : it->second;
}

// ---- reading ----

Result<CachedBatchesPtr> TableCache::read_table(const StoredTable& table,
                                                const std::string& display,
                                                ExecContext& ctx) const {
  ScanOptions options;
  options.case_sensitive = false;
  options.threads = catalog_.options().threads;
  auto scan = FLOE_TRY(IcebergScanNode::make(display, table, options, {}));
  auto out = std::make_shared<CachedBatches>();
  out->fields = scan->fields();
  FLOE_TRY(run_plan(*scan, ctx, [&](ColumnBatch&& b) -> Status {
    out->rows += b.num_rows;
    out->batches.push_back(std::move(b));
    return Status::OK();
  }));
  return CachedBatchesPtr(std::move(out));
}

Result<PlanPtr> TableCache::plan_view(const ViewEntry& view, ExecContext& ctx,
                                      std::vector<TableRead>* reads) const {
  const std::string key = to_lower(view.name);
  planning_.insert(key);
  Binder binder(catalog_, ctx);
  auto plan = binder.plan_query(*view.query[0].as<ast::QueryStatement>().query);
  planning_.erase(key);
  if (!plan.ok()) return plan.status().with_context("view " + view.name);
  if (reads) {
    reads->insert(reads->end(), binder.table_reads().begin(), binder.table_reads().end());
  }
  return plan;
}

Result<CachedBatchesPtr> TableCache::fill_view(const std::shared_ptr<ViewEntry>& view,
                                               ExecContext& ctx) const {
  std::lock_guard lock(mu_);
  if (view->data) return view->data;
  std::vector<TableRead> reads;
  PlanPtr plan = FLOE_TRY(plan_view(*view, ctx, &reads));
  if (!same_columns(plan->fields(), view->fields)) {
    return invalid_argument(
        "the columns of cached view {} changed since it was cached (its tables' schemas "
        "changed): DROP VIEW {} and cache it again",
        view->name, view->name);
  }
  auto out = std::make_shared<CachedBatches>();
  out->fields = view->fields;
  FLOE_TRY(run_plan(*plan, ctx, [&](ColumnBatch&& b) -> Status {
    out->rows += b.num_rows;
    out->batches.push_back(std::move(b));
    return Status::OK();
  }));
  view->reads = std::move(reads);
  view->data = std::move(out);
  return view->data;
}

bool TableCache::moved_on(const TableRead& read) const {
  auto table = catalog_.load_table(read.name);
  if (!table.ok()) return true;
  const TableMetadata& m = *table->metadata;
  return table_key(m) != read.key || snapshot_of(m) != read.snapshot_id ||
         m.current_schema_id != read.schema_id;
}

std::optional<Result<PlanPtr>> TableCache::temp_view(const std::string& name,
                                                     std::vector<TableRead>* reads) const {
  std::lock_guard lock(mu_);
  std::shared_ptr<ViewEntry> view = find_view(name);
  // A view's own query never sees the view (it names the table of that name, if any).
  if (!view || planning_.count(to_lower(name))) return std::nullopt;
  if (!view->cached) {
    ExecContext ctx;
    ctx.threads = catalog_.options().threads;
    return plan_view(*view, ctx, reads);
  }
  if (view->data) {
    for (const auto& read : view->reads) {
      if (moved_on(read)) {
        view->data.reset();
        break;
      }
    }
  }
  if (reads) reads->insert(reads->end(), view->reads.begin(), view->reads.end());
  std::vector<std::string> notes;
  if (view->data) {
    notes.push_back(fmt::format("Cached view {}: {} in {} batches", view->name,
                                rows_text(view->data->rows), view->data->batches.size()));
  } else {
    notes.push_back(
        fmt::format("Cached view {}: its query runs on this read and is kept", view->name));
  }
  auto load = [this, view](ExecContext& ctx) { return fill_view(view, ctx); };
  return Result<PlanPtr>(PlanPtr(std::make_unique<InMemoryTableNode>(
      view->name, view->fields, every_column(view->fields), load, std::move(notes))));
}

std::optional<Result<PlanPtr>> TableCache::cached_table(
    const StoredTable& table, const std::string& display,
    const std::vector<std::string>& columns) const {
  std::lock_guard lock(mu_);
  auto it = tables_.find(table_key(*table.metadata));
  if (it == tables_.end()) return std::nullopt;
  std::shared_ptr<TableEntry> entry = it->second;
  const int64_t snapshot = snapshot_of(*table.metadata);
  const int32_t schema = table.metadata->current_schema_id;
  if (entry->snapshot_id != snapshot || entry->schema_id != schema) {
    // The table moved on: the rows of this read replace the cached ones.
    entry->data.reset();
    entry->snapshot_id = snapshot;
    entry->schema_id = schema;
  }
  // The columns of the table as a scan of its current state shows them.
  ScanOptions options;
  options.case_sensitive = false;
  auto probe = IcebergScanNode::make(display, table, options, {});
  if (!probe.ok()) return Result<PlanPtr>(probe.status());
  const std::vector<NestedField> fields = (*probe)->fields();
  std::vector<int> positions;
  for (const auto& c : columns) {
    int at = -1;
    for (size_t i = 0; i < fields.size() && at < 0; ++i) {
      if (fields[i].name == c) at = static_cast<int>(i);
    }
    if (at < 0) return std::nullopt;  // not a column of the table: let the scan name it
    positions.push_back(at);
  }
  std::vector<std::string> notes;
  if (entry->data) {
    notes.push_back(fmt::format("Cached table {} at snapshot {}: {} in {} batches", entry->name,
                                snapshot_text(snapshot), rows_text(entry->data->rows),
                                entry->data->batches.size()));
  } else {
    notes.push_back(fmt::format("Cached table {} at snapshot {}: read on this scan and kept",
                                entry->name, snapshot_text(snapshot)));
  }
  auto load = [this, entry, table, display,
               snapshot](ExecContext& ctx) -> Result<CachedBatchesPtr> {
    std::lock_guard lock(mu_);
    if (entry->data && entry->snapshot_id == snapshot) return entry->data;
    CachedBatchesPtr data = FLOE_TRY(read_table(table, display, ctx));
    if (entry->snapshot_id == snapshot) entry->data = data;
    return data;
  };
  return Result<PlanPtr>(PlanPtr(std::make_unique<InMemoryTableNode>(
      display, fields, std::move(positions), load, std::move(notes))));
}

// ---- after writes ----

void TableCache::written(const std::vector<std::string>& name) {
  std::lock_guard lock(mu_);
  if (tables_.empty() && views_.empty()) return;
  auto table = catalog_.load_table(name);
  if (!table.ok()) return;
  const std::string key = table_key(*table->metadata);
  auto it = tables_.find(key);
  if (it != tables_.end()) it->second->data.reset();
  for (auto& [_, view] : views_) {
    for (const auto& read : view->reads) {
      if (read.key == key) view->data.reset();
    }
  }
}

std::string TableCache::key_of(const std::vector<std::string>& name) const {
  std::lock_guard lock(mu_);
  if (tables_.empty()) return "";
  auto table = catalog_.load_table(name);
  return table.ok() ? table_key(*table->metadata) : "";
}

void TableCache::dropped(const std::string& key) {
  std::lock_guard lock(mu_);
  tables_.erase(key);
}

// ---- statements ----

Status TableCache::cache(WriteContext& ctx, const ast::CacheTableStatement& s) {
  std::lock_guard lock(mu_);
  const auto& parts = s.table.parts;
  if (s.as_query) {
    if (parts.size() != 1) {
      return invalid_argument(
          "CACHE TABLE ... AS SELECT makes a temporary view, whose name has no catalog or "
          "namespace: {}",
          dotted_name(parts));
    }
    if (find_view(parts[0])) {
      return Status(
          ErrorKind::kAlreadyExists,
          fmt::format("temporary view {} already exists (DROP VIEW {} first)", parts[0], parts[0]));
    }
    auto view = std::make_shared<ViewEntry>();
    view->name = parts[0];
    // The query as canonical text parsed again: the view keeps its own tree.
    view->query = FLOE_TRY(parse_sql(ast::to_string(*s.as_query)));
    if (view->query.size() != 1 || !view->query[0].is<ast::QueryStatement>()) {
      return make_error(ErrorKind::kInternal, "view {}: its query did not parse back", view->name);
    }
    PlanPtr plan = FLOE_TRY(plan_view(*view, ctx.exec, &view->reads));
    view->fields = plan->fields();
    if (!s.lazy) {
      auto out = std::make_shared<CachedBatches>();
      out->fields = view->fields;
      FLOE_TRY(run_plan(*plan, ctx.exec, [&](ColumnBatch&& b) -> Status {
        out->rows += b.num_rows;
        out->batches.push_back(std::move(b));
        return Status::OK();
      }));
      view->data = std::move(out);
    }
    views_[to_lower(view->name)] = view;
    say(ctx, s.lazy ? fmt::format("cached view {} lazily: its query runs on first use", view->name)
                    : fmt::format("cached view {}: {}", view->name, rows_text(view->data->rows)));
    return Status::OK();
  }
  if (parts.size() == 1) {
    if (std::shared_ptr<ViewEntry> view = find_view(parts[0])) {
      view->cached = true;
      view->data.reset();  // cached again: the query's rows as they are now
      if (!s.lazy) FLOE_TRY(fill_view(view, ctx.exec));
      say(ctx, s.lazy
                   ? fmt::format("cached view {} lazily: its query runs on first use", view->name)
                   : fmt::format("cached view {}: {}", view->name, rows_text(view->data->rows)));
      return Status::OK();
    }
  }
  StoredTable table = FLOE_TRY(catalog_.load_table(parts));
  auto entry = std::make_shared<TableEntry>();
  entry->name = shown_name(parts);
  entry->snapshot_id = snapshot_of(*table.metadata);
  entry->schema_id = table.metadata->current_schema_id;
  if (!s.lazy) entry->data = FLOE_TRY(read_table(table, dotted_name(parts), ctx.exec));
  tables_[table_key(*table.metadata)] = entry;
  say(ctx, s.lazy
               ? fmt::format("cached table {} lazily: its rows are read on first use", entry->name)
               : fmt::format("cached table {}: {} of snapshot {}", entry->name,
                             rows_text(entry->data->rows), snapshot_text(entry->snapshot_id)));
  return Status::OK();
}

Status TableCache::uncache(WriteContext& ctx, const ast::UncacheTableStatement& s) {
  std::lock_guard lock(mu_);
  const auto& parts = s.table.parts;
  if (parts.size() == 1) {
    if (std::shared_ptr<ViewEntry> view = find_view(parts[0])) {
      view->cached = false;
      view->data.reset();
      say(ctx, "uncached view " + view->name);
      return Status::OK();
    }
  }
  auto table = catalog_.load_table(parts);
  if (!table.ok()) {
    if (s.if_exists && table.status().kind() == ErrorKind::kNotFound) return Status::OK();
    return table.status();
  }
  const bool was = tables_.erase(table_key(*table->metadata)) > 0;
  say(ctx, was ? "uncached table " + shown_name(parts)
               : fmt::format("table {} was not cached", shown_name(parts)));
  return Status::OK();
}

Status TableCache::drop_view(WriteContext& ctx, const ast::DropTableStatement& s) {
  std::lock_guard lock(mu_);
  const auto& parts = s.table.parts;
  if (parts.size() != 1 || !find_view(parts[0])) {
    if (s.if_exists) return Status::OK();
    return Status(ErrorKind::kNotFound,
                  fmt::format("view {} not found (floe's views are the temporary views CACHE "
                              "TABLE name AS SELECT makes)",
                              dotted_name(parts)));
  }
  views_.erase(to_lower(parts[0]));
  say(ctx, "dropped view " + parts[0]);
  return Status::OK();
}

Status TableCache::run(WriteContext& ctx, const ast::Statement& statement) {
  switch (statement.kind()) {
    case ast::StatementKind::kCacheTable:
      return cache(ctx, statement.as<ast::CacheTableStatement>());
    case ast::StatementKind::kUncacheTable:
      return uncache(ctx, statement.as<ast::UncacheTableStatement>());
    case ast::StatementKind::kClearCache: {
      std::lock_guard lock(mu_);
      const size_t tables = tables_.size();
      size_t views = 0;
      tables_.clear();
      for (auto& [_, view] : views_) {
        views += view->cached ? 1 : 0;
        view->cached = false;
        view->data.reset();
      }
      say(ctx, fmt::format("cleared the cache ({} table{}, {} view{})", tables,
                           tables == 1 ? "" : "s", views, views == 1 ? "" : "s"));
      return Status::OK();
    }
    case ast::StatementKind::kDropTable:
      return drop_view(ctx, statement.as<ast::DropTableStatement>());
    default:
      return make_error(ErrorKind::kInternal, "not a cache statement");
  }
}

}  // namespace floe::sql
