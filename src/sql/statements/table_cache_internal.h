// The session's cache, as Spark's CACHE TABLE: tables whose rows a session keeps in memory and
// the temporary views CACHE TABLE name AS SELECT makes.
//
// A cached table is keyed by the table itself (its uuid), so every name that reaches it reads
// the cached rows. The rows are those of one snapshot and schema: a read that finds the table
// moved on (a write through this session or any other writer, a schema change) reads it again
// and caches the new rows, as Spark refreshes a cached table after a write. Time travel,
// branches and tags, metadata columns and row-level writes read the files, never the cache.
// A cached view keeps its query's rows and the snapshots of the tables they came from; once
// any of those tables has moved on, its next read runs the query again.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sql/statements/statements_internal.h"

namespace floe::sql {

class TableCache {
 public:
  explicit TableCache(const Catalogish& catalog) : catalog_(catalog) {}

  // CACHE [LAZY] TABLE, UNCACHE TABLE, CLEAR CACHE, DROP VIEW.
  Status run(WriteContext& ctx, const ast::Statement& statement);

  // Catalogish::temp_view and Catalogish::cached_table for the session's binders.
  std::optional<Result<PlanPtr>> temp_view(const std::string& name,
                                           std::vector<TableRead>* reads) const;
  std::optional<Result<PlanPtr>> cached_table(const StoredTable& table, const std::string& display,
                                              const std::vector<std::string>& columns) const;

  // After a statement that may have written table `name`: its cached rows and those of the
  // views that read it are dropped, to be read again on their next use.
  void written(const std::vector<std::string>& name);
  // The cache key of table `name` before DROP TABLE (empty when it does not load), and the
  // entry to forget once the drop succeeded.
  std::string key_of(const std::vector<std::string>& name) const;
  void dropped(const std::string& key);

 private:
  struct TableEntry {
    std::string name;  // as first cached, for EXPLAIN
    int64_t snapshot_id = -1;
    int32_t schema_id = -1;
    CachedBatchesPtr data;  // null until read (LAZY) or after the table moved on
  };
  struct ViewEntry {
    std::string name;
    std::vector<ast::Statement> query;  // one QueryStatement, parsed from the canonical text
    std::vector<NestedField> fields;
    bool cached = true;            // false after UNCACHE TABLE: the query runs on every read
    std::vector<TableRead> reads;  // the tables the cached rows came from
    CachedBatchesPtr data;
  };

  Status cache(WriteContext& ctx, const ast::CacheTableStatement& s);
  Status uncache(WriteContext& ctx, const ast::UncacheTableStatement& s);
  Status drop_view(WriteContext& ctx, const ast::DropTableStatement& s);

  // The view's query planned by a binder of its own (the view hidden from itself).
  Result<PlanPtr> plan_view(const ViewEntry& view, ExecContext& ctx,
                            std::vector<TableRead>* reads) const;
  // Runs the view's query and keeps its rows (and the tables they came from).
  Result<CachedBatchesPtr> fill_view(const std::shared_ptr<ViewEntry>& view,
                                     ExecContext& ctx) const;
  // Every row of `table` at the snapshot it was loaded at.
  Result<CachedBatchesPtr> read_table(const StoredTable& table, const std::string& display,
                                      ExecContext& ctx) const;
  // Whether a table a view read has moved on since (or no longer loads).
  bool moved_on(const TableRead& read) const;
  std::shared_ptr<ViewEntry> find_view(const std::string& name) const;
  std::string shown_name(const std::vector<std::string>& name) const;

  const Catalogish& catalog_;
  mutable std::recursive_mutex mu_;
  mutable std::map<std::string, std::shared_ptr<TableEntry>> tables_;  // by table_key()
  mutable std::map<std::string, std::shared_ptr<ViewEntry>> views_;    // by lower-case name
  mutable std::set<std::string> planning_;  // views whose query is being planned
};

}  // namespace floe::sql
