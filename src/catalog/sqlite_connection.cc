// SQLite backend of SqlConnection. Several processes may share one database file: WAL mode lets
// readers run beside a writer, the busy timeout waits for the write lock instead of failing,
// and BEGIN IMMEDIATE makes a read-then-write transaction take that lock before it reads.
#include <fmt/format.h>
#include <sqlite3.h>

#include <filesystem>

#include "catalog/sql_connection_internal.h"

namespace floe {
namespace {

constexpr int kBusyTimeoutMs = 30000;

class SqliteConnection final : public SqlConnection {
 public:
  SqliteConnection(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  ~SqliteConnection() override { sqlite3_close_v2(db_); }

  Result<std::vector<SqlRow>> query(std::string_view sql,
                                    const std::vector<SqlValue>& params) override {
    std::vector<SqlRow> rows;
    FLOE_TRY(run(sql, params, &rows));
    return rows;
  }

  Result<int64_t> execute(std::string_view sql, const std::vector<SqlValue>& params) override {
    FLOE_TRY(run(sql, params, nullptr));
    return static_cast<int64_t>(sqlite3_changes(db_));
  }

  Status begin_write() override { return run("BEGIN IMMEDIATE", {}, nullptr); }
  Status commit() override { return run("COMMIT", {}, nullptr); }
  void rollback() override {
    if (!sqlite3_get_autocommit(db_)) (void)run("ROLLBACK", {}, nullptr);
  }

  Result<std::vector<std::string>> table_columns(std::string_view table) override {
    auto rows = FLOE_TRY(query("SELECT name FROM pragma_table_info(?)", {std::string(table)}));
    std::vector<std::string> out;
    for (auto& row : rows) out.push_back(row[0].value_or(""));
    return out;
  }

  bool connection_lost() const override { return false; }

  Status pragma(std::string_view sql) { return run(sql, {}, nullptr); }

 private:
  Status error(std::string_view sql, int rc) const {
    std::string message =
        fmt::format("SQLite database '{}': {} (in: {})", path_, sqlite3_errmsg(db_), sql);
    if ((rc & 0xff) == SQLITE_CONSTRAINT) return Status(ErrorKind::kAlreadyExists, message);
    return Status(ErrorKind::kIo, message);
  }

  // Prepares, binds and steps one statement; collects rows into `rows` when given.
  Status run(std::string_view sql, const std::vector<SqlValue>& params, std::vector<SqlRow>* rows) {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
    if (rc != SQLITE_OK) return error(sql, rc);
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> guard(stmt, sqlite3_finalize);
    for (size_t i = 0; i < params.size(); ++i) {
      int index = static_cast<int>(i + 1);
      rc = params[i] ? sqlite3_bind_text(stmt, index, params[i]->data(),
                                         static_cast<int>(params[i]->size()), SQLITE_TRANSIENT)
                     : sqlite3_bind_null(stmt, index);
      if (rc != SQLITE_OK) return error(sql, rc);
    }
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      if (!rows) continue;
      SqlRow row;
      for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
        if (sqlite3_column_type(stmt, c) == SQLITE_NULL) {
          row.emplace_back();
        } else {
          auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
          row.emplace_back(std::string(text, sqlite3_column_bytes(stmt, c)));
        }
      }
      rows->push_back(std::move(row));
    }
    if (rc != SQLITE_DONE) return error(sql, rc);
    return Status::OK();
  }

  sqlite3* db_;
  std::string path_;
};

}  // namespace

Result<std::unique_ptr<SqlConnection>> open_sqlite_connection(const std::string& path) {
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    if (ec) return io_error("cannot create directory '{}': {}", parent.string(), ec.message());
  }
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(
      path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return io_error("cannot open SQLite database '{}': {}", path, message);
  }
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  auto connection = std::make_unique<SqliteConnection>(db, path);
  // journal_mode returns a row; run() discards it.
  FLOE_TRY(connection->pragma("PRAGMA journal_mode=WAL"));
  return std::unique_ptr<SqlConnection>(std::move(connection));
}

}  // namespace floe
