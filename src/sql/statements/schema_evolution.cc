// ALTER TABLE actions on columns (evolution_internal.h), as Iceberg's Spark catalog turns
// Spark's table changes into one UpdateSchema (floe/table/update_schema.h): ADD COLUMN(S),
// DROP COLUMN(S) [IF EXISTS], RENAME COLUMN, ALTER COLUMN (TYPE, COMMENT, FIRST / AFTER,
// DROP NOT NULL; SET NOT NULL is refused as Java refuses making a column required; SET / DROP
// DEFAULT, v3 tables: the write-default; ADD COLUMN ... DEFAULT sets both defaults), and the
// Iceberg extensions SET / DROP IDENTIFIER FIELDS. Column names match ignoring case, like
// the rest of floe's SQL; a nested column is written as its dotted path (point.x).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "floe/table/update_schema.h"
#include "floe/util/strings.h"
#include "sql/binder/store_assignment_internal.h"
#include "sql/exec/bound_expr_internal.h"
#include "sql/statements/evolution_internal.h"

namespace floe::sql {

namespace {

std::string path_name(const std::vector<std::string>& path) { return dotted_name(path); }

std::string comma_list(const std::vector<std::string>& names) {
  return fmt::format("{}", fmt::join(names, ", "));
}

// The full name of an existing column (its case as the schema spells it), or nullopt.
std::optional<std::string> find_column(const Schema& schema, const std::vector<std::string>& path) {
  const NestedField* f = schema.find_field(path_name(path), false);
  if (!f) return std::nullopt;
  return schema.find_column_name(f->id);
}

Result<std::string> column(const Schema& schema, const std::vector<std::string>& path,
                           const Table& table) {
  auto name = find_column(schema, path);
  if (!name) {
    return invalid_argument("cannot find column '{}' in table {}", path_name(path),
                            table.id().to_string());
  }
  return *name;
}

// Spark names the AFTER column by its name within the moved column's struct; a dotted path
// is taken as written.
std::string peer_name(const std::string& parent, const std::vector<std::string>& after) {
  if (after.size() > 1 || parent.empty()) return path_name(after);
  return parent + "." + after[0];
}

Status position(UpdateSchema& update, const ast::ColumnPosition& p, const std::string& name,
                const std::string& parent) {
  switch (p.kind) {
    case ast::ColumnPositionKind::kDefault:
      break;
    case ast::ColumnPositionKind::kFirst:
      update.move_first(name);
      break;
    case ast::ColumnPositionKind::kAfter:
      update.move_after(name, peer_name(parent, p.after));
      break;
  }
  return Status::OK();
}

// A DEFAULT clause: a constant expression, stored as the column's type the way INSERT stores a
// value (an error names the table and the column).
Result<Literal> default_value(WriteContext& ctx, const Table& table, const ast::Expr& expr,
                              const TypePtr& type, const std::string& column) {
  BoundExprPtr bound = FLOE_TRY(ctx.binder.bind(expr, Scope{}));
  Literal value = FLOE_TRY(evaluate_constant(*bound));
  if (value.is_null()) return Literal::null(type);
  return store_assign_value(value, type, table.id().to_string(), column);
}

Result<std::string> add_columns(WriteContext& ctx, UpdateSchema& update, const Schema& schema,
                                const Table& table, const ast::AddColumns& add) {
  std::vector<std::string> names;
  for (const auto& c : add.columns) {
    std::string leaf = c.name.back();
    std::vector<std::string> parent_path(c.name.begin(), c.name.end() - 1);
    std::string parent;
    if (!parent_path.empty()) parent = FLOE_TRY(column(schema, parent_path, table));
    std::string full = parent.empty() ? leaf : parent + "." + leaf;
    // Iceberg's Spark catalog refuses required columns without a default (existing rows would
    // have none); with a v3 default, existing rows read the default.
    if (c.not_null && !c.default_value) {
      return invalid_argument("Incompatible change: cannot add required column: {}", full);
    }
    TypePtr type = FLOE_TRY(iceberg_type(*c.type));
    std::optional<Literal> initial;
    if (c.default_value) {
      initial = FLOE_TRY(default_value(ctx, table, *c.default_value, type, full));
      if (initial->is_null()) initial.reset();
    }
    std::optional<std::string> in = parent.empty() ? std::nullopt : std::optional(parent);
    if (c.not_null) {
      if (!initial) return invalid_argument("column {} is NOT NULL but its default is NULL", full);
      update.add_required_column(in, leaf, std::move(type), c.comment.value_or(""), initial);
    } else {
      update.add_column(in, leaf, std::move(type), c.comment.value_or(""), initial);
    }
    FLOE_TRY(position(update, c.position, full, parent));
    names.push_back(full);
  }
  return fmt::format("added column{} {} to {}", names.size() > 1 ? "s" : "", comma_list(names),
                     table.id().to_string());
}

Result<std::string> drop_columns(UpdateSchema& update, const Schema& schema, const Table& table,
                                 const ast::DropColumns& drop) {
  std::vector<std::string> names;
  for (const auto& path : drop.columns) {
    auto name = find_column(schema, path);
    if (!name && drop.if_exists) continue;
    // A missing column reaches UpdateSchema, which names it.
    names.push_back(name.value_or(path_name(path)));
    update.delete_column(names.back());
  }
  if (names.empty()) return fmt::format("no columns dropped from {}", table.id().to_string());
  return fmt::format("dropped column{} {} from {}", names.size() > 1 ? "s" : "", comma_list(names),
                     table.id().to_string());
}

Result<std::string> alter_column(WriteContext& ctx, UpdateSchema& update, const Schema& schema,
                                 const Table& table, const ast::AlterColumn& alter) {
  std::string name = FLOE_TRY(column(schema, alter.column, table));
  std::string parent;
  if (auto p = schema.parent_id(schema.find_field(name)->id)) {
    parent = schema.find_column_name(*p).value_or("");
  }
  std::vector<std::string> what;
  if (alter.new_type) {
    TypePtr type = FLOE_TRY(iceberg_type(*alter.new_type));
    if (!type->is_primitive()) {
      return invalid_argument("Cannot update '{}', not a primitive type: {}", name,
                              spark_type_name(*type));
    }
    what.push_back("type " + spark_type_name(*type));
    update.update_column(name, std::move(type));
  }
  if (alter.not_null) {
    if (*alter.not_null) {
      update.require_column(name);
      what.push_back("NOT NULL");
    } else {
      update.make_column_optional(name);
      what.push_back("nullable");
    }
  }
  if (alter.set_default) {
    TypePtr type = schema.find_field(name)->type;
    if (alter.new_type) type = FLOE_TRY(iceberg_type(*alter.new_type));
    if (!type->is_primitive()) {
      return invalid_argument("Cannot set a default for '{}', not a primitive type: {}", name,
                              spark_type_name(*type));
    }
    Literal v = FLOE_TRY(default_value(ctx, table, *alter.set_default, type, name));
    update.update_column_default(name, v.is_null() ? std::nullopt : std::optional(v));
    what.push_back("default");
  }
  if (alter.drop_default) {
    update.update_column_default(name, std::nullopt);
    what.push_back("no default");
  }
  if (alter.comment) {
    update.update_column_doc(name, *alter.comment);
    what.push_back("comment");
  }
  if (alter.position) {
    FLOE_TRY(position(update, *alter.position, name, parent));
    what.push_back("position");
  }
  return fmt::format("altered column {} of {}: {}", name, table.id().to_string(), comma_list(what));
}

std::string identifier_list(const std::vector<std::string>& names) {
  return "[" + comma_list(names) + "]";
}

Result<std::string> set_identifier_fields(UpdateSchema& update, const Schema& schema,
                                          const Table& table, const ast::SetIdentifierFields& set) {
  std::vector<std::string> names;
  for (const auto& path : set.columns) {
    // A column missing now reaches UpdateSchema, which names it.
    names.push_back(find_column(schema, path).value_or(path_name(path)));
  }
  update.set_identifier_fields(names);
  return fmt::format("set identifier fields of {} to {}", table.id().to_string(),
                     identifier_list(names));
}

// Iceberg's Spark extension: the named fields leave the identifier fields.
Result<std::string> drop_identifier_fields(UpdateSchema& update, const Schema& schema,
                                           const Table& table,
                                           const ast::DropIdentifierFields& drop) {
  std::vector<int32_t> remaining = schema.identifier_field_ids();
  for (const auto& path : drop.columns) {
    const NestedField* f = schema.find_field(path_name(path), false);
    if (!f) {
      return invalid_argument(
          "Cannot complete drop identifier fields operation: field {} not found", path_name(path));
    }
    auto it = std::find(remaining.begin(), remaining.end(), f->id);
    if (it == remaining.end()) {
      return invalid_argument(
          "Cannot complete drop identifier fields operation: {} is not an identifier field",
          path_name(path));
    }
    remaining.erase(it);
  }
  std::vector<std::string> names;
  for (int32_t id : remaining) names.push_back(schema.find_column_name(id).value_or(""));
  update.set_identifier_fields(names);
  return fmt::format("set identifier fields of {} to {}", table.id().to_string(),
                     identifier_list(names));
}

}  // namespace

Status alter_schema(WriteContext& ctx, const ast::AlterTableStatement& statement) {
  std::shared_ptr<Table> table = FLOE_TRY(load_table(ctx, statement.table.parts));
  auto metadata = table->metadata();
  const Schema* schema = metadata->schema();
  if (!schema) return invalid_data("table {} has no current schema", table->id().to_string());
  UpdateSchema update = table->update_schema();
  update.case_sensitive(false);
  std::string message;
  const auto& action = statement.action;
  if (const auto* add = std::get_if<ast::AddColumns>(&action)) {
    message = FLOE_TRY(add_columns(ctx, update, *schema, *table, *add));
  } else if (const auto* drop = std::get_if<ast::DropColumns>(&action)) {
    message = FLOE_TRY(drop_columns(update, *schema, *table, *drop));
  } else if (const auto* rename = std::get_if<ast::RenameColumn>(&action)) {
    std::string name = FLOE_TRY(column(*schema, rename->column, *table));
    update.rename_column(name, rename->new_name);
    message = fmt::format("renamed column {} of {} to {}", name, table->id().to_string(),
                          rename->new_name);
  } else if (const auto* alter = std::get_if<ast::AlterColumn>(&action)) {
    message = FLOE_TRY(alter_column(ctx, update, *schema, *table, *alter));
  } else if (const auto* set = std::get_if<ast::SetIdentifierFields>(&action)) {
    message = FLOE_TRY(set_identifier_fields(update, *schema, *table, *set));
  } else if (const auto* drop_ids = std::get_if<ast::DropIdentifierFields>(&action)) {
    message = FLOE_TRY(drop_identifier_fields(update, *schema, *table, *drop_ids));
  } else {
    return not_supported("this ALTER TABLE action does not change columns");
  }
  FLOE_TRY(update.commit());
  say(ctx, message);
  return Status::OK();
}

}  // namespace floe::sql
