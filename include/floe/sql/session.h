// A SQL session: parses and runs Spark-SQL statements (queries, EXPLAIN, DESCRIBE, SHOW, USE)
// against Iceberg tables, Parquet/CSV files and range(), streaming results to a sink.
//
//   floe::sql::Session session({.warehouse = "warehouse"});
//   FLOE_TRY(session.run("SELECT country, count(*) FROM analytics.sales GROUP BY 1", sink));
//
// Tables are found by name in the warehouse (`<warehouse>/<namespace>/<table>`, the Hadoop
// layout; a leading catalog name such as `lakehouse.` is accepted), by path
// (iceberg.`path/to/table`, a metadata JSON file), and a trailing metadata-table name selects
// that metadata table (`analytics.sales.manifests`). CACHE TABLE keeps a table's rows (or a
// temporary view's) in the session's memory until the table moves on (docs/sql.md, Caching).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/columnar/column_vector.h"
#include "floe/scan/table_scan.h"
#include "floe/spec/metadata_file.h"
#include "floe/util/result.h"

namespace floe::sql {

struct SessionOptions {
  std::string warehouse = "warehouse";
  // Catalog URI (floe/catalog/catalog.h); empty = the embedded SQLite catalog
  // `sqlite:<warehouse>/catalog.db`, created on the first write.
  std::string catalog_uri;
  // A catalog to use instead of opening `catalog_uri` (embedding, tests).
  CatalogPtr catalog;
  std::string catalog_name = "lakehouse";
  // Catalog properties, as Iceberg's catalogs take them: s3.endpoint, s3.access-key-id,
  // s3.secret-access-key, s3.path-style-access, client.region, ... for a warehouse on S3
  // (floe/io/s3_file_io.h; the AWS_* variables otherwise).
  std::map<std::string, std::string> catalog_properties;
  std::vector<std::string> current_namespace = {"default"};
  int threads = 0;  // 0 = one per core
};

// Where statement output goes. Every callback is optional.
struct ResultSink {
  // A result set starts (queries, SHOW, DESCRIBE) ...
  std::function<void(const std::vector<NestedField>& fields)> begin;
  // ... delivers rows ...
  std::function<Status(const ColumnBatch& batch)> rows;
  // ... and ends.
  std::function<void()> end;
  // EXPLAIN: the plan text and the report of every Iceberg scan in it.
  std::function<void(const std::string& text, const std::vector<ScanReport>& reports)> explain;
  // Statements without rows (USE, SET): a one-line confirmation.
  std::function<void(const std::string& message)> message;
  // Rows read by scans so far (progress display).
  std::function<void(int64_t rows)> progress;
  // A procedure's work so far: files and bytes done of the total (progress bar).
  std::function<void(const std::string& what, int64_t files, int64_t files_total, int64_t bytes,
                     int64_t bytes_total)>
      work;
};

class Session {
 public:
  explicit Session(SessionOptions options = {});
  ~Session();

  // Runs every statement of a script in order; stops at the first error, which names the
  // statement's position.
  Status run(std::string_view script, const ResultSink& sink);

  const SessionOptions& options() const { return options_; }
  // Opens a table by its SQL name parts (catalog and namespace optional).
  Result<StoredTable> load_table(const std::vector<std::string>& name) const;
  // The session's catalog, opened on first use; with `create` false, nullptr when the embedded
  // catalog's database does not exist yet.
  Result<CatalogPtr> catalog(bool create = false) const;
  // A SQL name (catalog name and namespace optional) as a catalog identifier.
  Result<TableIdentifier> identifier(const std::vector<std::string>& name) const;

  struct Impl;

 private:
  SessionOptions options_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace floe::sql
