// CREATE TABLE's column list, PARTITIONED BY terms and properties as Iceberg structures: a
// schema with fresh field ids assigned the way Java assigns them, a partition spec with Java's
// field names (`ts_day`, `id_bucket`, `s_trunc`), the table properties and format version.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/sort_order.h"
#include "sql/parser/ast_internal.h"

namespace floe::sql {

struct TableDefinition {
  SchemaPtr schema;
  PartitionSpecPtr spec;
  std::map<std::string, std::string> properties;  // without format-version
  int format_version = 2;
  std::optional<std::string> location;
};

// Java's TypeUtil.assignFreshIds: a struct's fields take consecutive ids first, then each
// field's nested types in order (list element, map key and value likewise), from 1.
SchemaPtr assign_fresh_ids(const std::vector<NestedField>& fields);

// Partition field for a SQL transform term on `schema` (field id left 0: the caller numbers
// them from 1000). Errors name the term.
Result<PartitionField> partition_field(const Schema& schema, const ast::TransformTerm& term);

// Sort field for a SQL sort term on `schema` (Spark's defaults: nulls first ascending, last
// descending). Errors name the term.
Result<SortField> sort_field(const Schema& schema, const ast::SortTerm& term);

// A LOCATION as stored: a relative local path made absolute against the current directory (so
// the table reads the same from anywhere), normalized; URIs with a scheme as written.
std::string absolute_location(std::string_view location);

// The definition of CREATE TABLE; `columns` replaces the statement's column list for CTAS (the
// query's output).
Result<TableDefinition> table_definition(const ast::CreateTableStatement& s,
                                         const std::vector<NestedField>& columns);

}  // namespace floe::sql
