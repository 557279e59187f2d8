// Blind upserts and deletes by key (change data capture; Iceberg's Flink writer in upsert
// mode): changes are staged in batches and each batch commits as one RowDelta snapshot that
// never reads the table's data. For every key the batch upserts or deletes, one equality delete
// row (equality_ids = the key field ids) removes the key's rows committed before; the new row
// versions go to data files. Both are written partitioned like the table (current spec).
//
// Within a batch the last change per key wins: an upsert then a delete of one key writes only
// the delete, two upserts keep the last row. The delete files of a snapshot do not apply to
// its own data files (they take the snapshot's sequence number, and equality deletes apply to
// data with a smaller one), so a batch cannot hold two versions of a key.
//
// Key columns: given field ids, else the schema's identifier fields. As for equality delete
// columns (spec "Equality Delete Files"): primitive, not float or double, top-level or nested
// in structs only (not in a list or map). Equality deletes in a partitioned table apply only to
// data of their own partition, so every partition source column must be a key column (as
// Iceberg's Flink writer requires in upsert mode); otherwise the old row of a key could live
// in a partition the delete does not reach. Format version 2 or later.
//
//   auto writer = FLOE_TRY(UpsertWriter::make(table));           // identifier fields as key
//   FLOE_TRY(writer->add(rows, kinds));                           // any number of times
//   UpsertCommit done = FLOE_TRY(writer->commit());               // one snapshot
//
// The snapshot's operation is "overwrite" when it adds data files, "delete" when it only
// deletes; its summary has Java's keys (added-data-files, added-equality-delete-files,
// added-equality-deletes, ...). No conflict validation (as Flink): a concurrent commit of a
// key is deleted by the later of the two.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/table/table.h"

namespace floe {

enum class ChangeKind : uint8_t { kUpsert, kDelete };

struct UpsertOptions {
  // Key field ids; empty: the current schema's identifier fields.
  std::vector<int32_t> key_ids;
  // Commit to this branch instead of main (created from main's head when missing).
  std::string branch;
  // Extra summary properties (engine-name, ...).
  std::map<std::string, std::string> summary;
};

// What a commit did.
struct UpsertCommit {
  std::optional<int64_t> snapshot_id;  // none when there was nothing to commit
  int64_t changes = 0;                 // staged rows
  int64_t upserts = 0;                 // rows written (the last change of a key, an upsert)
  int64_t deletes = 0;                 // keys whose last change is a delete
  int64_t delete_rows = 0;             // equality delete rows (one per key)
  size_t data_files = 0;
  size_t delete_files = 0;
};

class UpsertWriter {
 public:
  // Checks the key columns and the partition spec against the table's current metadata.
  static Result<std::unique_ptr<UpsertWriter>> make(std::shared_ptr<Table> table,
                                                    UpsertOptions options = {});
  ~UpsertWriter();

  const std::vector<int32_t>& key_ids() const { return key_ids_; }
  // The key columns' full names ("id", "location.zip"), in key order.
  const std::vector<std::string>& key_names() const { return key_names_; }
  // The delete rows' schema: the top-level columns holding the key fields.
  const std::shared_ptr<const Schema>& delete_schema() const { return delete_schema_; }

  // Stages changes: row r is kinds[r]. Columns are matched to the table's top-level fields by
  // id and must have their types; columns missing are null. Every row needs the key columns;
  // an upsert row also every required column (a delete row uses only its key).
  Status add(const ColumnBatch& rows, std::span<const ChangeKind> kinds);
  Status upsert(const ColumnBatch& rows);
  Status remove(const ColumnBatch& rows);
  // Rows staged since the last commit.
  int64_t pending() const { return pending_rows_; }

  // Writes the staged changes and commits them as one snapshot (nothing staged: no
  // snapshot). The staged changes are dropped whatever happens; on failure the files written
  // are removed (unless the commit's outcome is unknown).
  Result<UpsertCommit> commit();
  // Drops the staged changes.
  void discard();

 private:
  UpsertWriter() = default;
  Result<UpsertCommit> write_and_commit(const ColumnBatch& rows,
                                        const std::vector<ChangeKind>& kinds);

  std::shared_ptr<Table> table_;
  UpsertOptions options_;
  std::shared_ptr<const TableMetadata> metadata_;  // as of make(): schema and spec
  std::vector<int32_t> key_ids_;
  std::vector<std::string> key_names_;
  std::shared_ptr<const Schema> delete_schema_;
  std::vector<ColumnBatch> staged_;  // of the table schema's top-level fields
  std::vector<ChangeKind> kinds_;
  int64_t pending_rows_ = 0;
};

}  // namespace floe
