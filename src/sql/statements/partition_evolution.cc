// ALTER TABLE actions on partitioning (evolution_internal.h), as Spark's Iceberg extensions run
// them: ADD PARTITION FIELD term [AS name], DROP PARTITION FIELD term | name, REPLACE PARTITION
// FIELD term WITH term [AS name], RENAME PARTITION FIELD a TO b; each one UpdatePartitionSpec
// (floe/table/update_partition_spec.h): no snapshot, no data file touched.
#include <fmt/format.h>

#include "floe/table/update_partition_spec.h"
#include "floe/util/strings.h"
#include "sql/statements/evolution_internal.h"
#include "sql/statements/table_definition_internal.h"

namespace floe::sql {

namespace {

struct Term {
  std::string source;  // the column as the schema spells it
  Transform transform;
};

// A transform term checked against the schema (its column, its transform's parameters and type).
Result<Term> resolve(const Schema& schema, const ast::TransformTerm& t) {
  PartitionField f = FLOE_TRY(partition_field(schema, t));
  return Term{schema.find_column_name(f.source_id).value_or(dotted_name(t.column)), f.transform};
}

// The field a DROP or REPLACE names: a bare name that is not a column names a partition field
// (Spark's DropPartitionField), anything else a source column and transform.
Status remove_field(const Schema& schema, const ast::TransformTerm& term,
                    UpdatePartitionSpec& update) {
  if (term.transform == "identity" && term.column.size() == 1 &&
      !schema.find_field(term.column[0], /*case_sensitive=*/false)) {
    update.remove_field(term.column[0]);
    return Status::OK();
  }
  Term t = FLOE_TRY(resolve(schema, term));
  update.remove_field(t.source, t.transform);
  return Status::OK();
}

std::string spec_text(const PartitionSpec& spec, const Schema& schema) {
  if (spec.fields().empty()) return "unpartitioned";
  std::string out;
  for (const auto& f : spec.fields()) {
    std::string source = schema.find_column_name(f.source_id).value_or(std::to_string(f.source_id));
    out += fmt::format("{}{} = {}({}) [{}]", out.empty() ? "" : ", ", f.name,
                       f.transform.to_string(), source, f.field_id);
  }
  return out;
}

}  // namespace

Status alter_partitioning(WriteContext& ctx, const ast::AlterTableStatement& a) {
  std::shared_ptr<Table> table = FLOE_TRY(load_table(ctx, a.table.parts));
  auto before = table->metadata();
  const Schema& schema = *before->schema();
  UpdatePartitionSpec update = table->update_spec();
  update.case_sensitive(false);
  if (const auto* add = std::get_if<ast::AddPartitionField>(&a.action)) {
    Term t = FLOE_TRY(resolve(schema, add->term));
    update.add_field(t.source, t.transform, add->name.value_or(""));
  } else if (const auto* drop = std::get_if<ast::DropPartitionField>(&a.action)) {
    FLOE_TRY(remove_field(schema, drop->term, update));
  } else if (const auto* replace = std::get_if<ast::ReplacePartitionField>(&a.action)) {
    FLOE_TRY(remove_field(schema, replace->from, update));
    Term to = FLOE_TRY(resolve(schema, replace->to));
    update.add_field(to.source, to.transform, replace->name.value_or(""));
  } else if (const auto* rename = std::get_if<ast::RenamePartitionField>(&a.action)) {
    update.rename_field(rename->from, rename->to);
  } else {
    return invalid_argument("not a partition evolution action");
  }
  FLOE_TRY(update.commit());
  auto after = table->metadata();
  say(ctx, fmt::format("partition spec of {} is now spec {}: {}", table->id().to_string(),
                       after->default_spec_id, spec_text(*after->spec(), *after->schema())));
  return Status::OK();
}

}  // namespace floe::sql
