// A small SQL connection abstraction so that one implementation of the JdbcCatalog logic runs on
// SQLite and on PostgreSQL. Statements use '?' placeholders; values are always bound as
// parameters (text or NULL), never spliced into the SQL text. Not thread-safe: the catalog
// owning a connection serialises access.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/util/result.h"

namespace floe {

using SqlValue = std::optional<std::string>;
using SqlRow = std::vector<SqlValue>;

// Errors from a connection carry kAlreadyExists for a unique-key violation (the catalog's
// "table already exists" signal) and kIo for everything else.
class SqlConnection {
 public:
  virtual ~SqlConnection() = default;

  // Rows of a SELECT, every column as text (nullopt for NULL).
  virtual Result<std::vector<SqlRow>> query(std::string_view sql,
                                            const std::vector<SqlValue>& params = {}) = 0;
  // Runs a statement; returns the number of rows it changed.
  virtual Result<int64_t> execute(std::string_view sql,
                                  const std::vector<SqlValue>& params = {}) = 0;
  // Starts a transaction in which reads followed by writes are atomic against other writers
  // (SQLite: BEGIN IMMEDIATE takes the write lock up front).
  virtual Status begin_write() = 0;
  virtual Status commit() = 0;
  virtual void rollback() = 0;
  // Column names of a table, empty when the table does not exist.
  virtual Result<std::vector<std::string>> table_columns(std::string_view table) = 0;
  // True after an error that lost the connection: the outcome of the last statement is unknown.
  virtual bool connection_lost() const = 0;
};

// `path` is a file name; its parent directory is created when missing. WAL mode, 30 s busy
// timeout.
Result<std::unique_ptr<SqlConnection>> open_sqlite_connection(const std::string& path);
// `uri` is passed to PQconnectdb as is.
Result<std::unique_ptr<SqlConnection>> open_postgres_connection(const std::string& uri);

}  // namespace floe
