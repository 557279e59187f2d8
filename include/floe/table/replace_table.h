// Replacing a table in place: Spark's CREATE OR REPLACE TABLE and REPLACE TABLE [AS SELECT], as
// Java's replace transaction builds it (TableMetadata.buildReplacement). One atomic commit that
// keeps the table's identity and history: the uuid, every snapshot, branch (but main) and tag
// and the metadata log stay; main is cleared, so the table reads empty until the new rows are
// appended in the same transaction. Column ids are reused by name from the current schema (new
// columns take last-column-id + 1, nested ones too); partition field ids are reused for
// equivalent fields of any earlier spec on v2+; a schema or spec equal to an existing one is
// that one again. The new properties are set on top of the table's (none removed); a
// `format-version` among them upgrades the table; the location changes only when given.
//
//   Transaction txn = table->new_transaction();
//   FLOE_TRY(replace_table(txn, {schema, spec, properties, ""}));
//   ... write data files with txn.pending() (the new schema and spec), then
//   FLOE_TRY(txn.new_append().append_file(f).commit());  FLOE_TRY(txn.commit());
#pragma once

#include <map>
#include <string>

#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/table/transaction.h"

namespace floe {

struct TableReplacement {
  SchemaPtr schema;       // the new columns (their ids are reassigned)
  PartitionSpecPtr spec;  // over `schema`'s ids (field ids reassigned); null: unpartitioned
  std::map<std::string, std::string> properties;  // set on top of the table's
  std::string location;                           // empty: keep the table's
};

// Stages the replacement into `txn`; txn.commit() commits it with whatever is staged after it.
Status replace_table(Transaction& txn, TableReplacement replacement);

}  // namespace floe
