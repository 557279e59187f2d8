// ALTER TABLE actions that evolve a table: its columns (schema_evolution.cc: ADD / DROP / RENAME
// COLUMN, ALTER COLUMN, SET / DROP IDENTIFIER FIELDS) and its partitioning
// (partition_evolution.cc: ADD / DROP / REPLACE / RENAME PARTITION FIELD). Each commits one
// metadata change and no snapshot.
#pragma once

#include "sql/statements/statements_internal.h"

namespace floe::sql {

// AddColumns, DropColumns, RenameColumn, AlterColumn, SetIdentifierFields, DropIdentifierFields.
Status alter_schema(WriteContext& ctx, const ast::AlterTableStatement& statement);
// AddPartitionField, DropPartitionField, ReplacePartitionField, RenamePartitionField.
Status alter_partitioning(WriteContext& ctx, const ast::AlterTableStatement& statement);

}  // namespace floe::sql
