// Statements that change the catalog only: CREATE / DROP NAMESPACE, DROP TABLE, ALTER TABLE
// RENAME TO, CALL system.register_table.
#include <fmt/format.h>

#include "floe/util/strings.h"
#include "sql/statements/statements_internal.h"
#include "sql/statements/table_definition_internal.h"

namespace floe::sql {

namespace {

std::vector<std::string> without_catalog(const StatementContext& ctx,
                                         const std::vector<std::string>& parts) {
  std::vector<std::string> out = parts;
  if (out.size() >= 2 && iequals(out[0], ctx.options.catalog_name)) out.erase(out.begin());
  return out;
}

void say(const StatementContext& ctx, const std::string& text) {
  if (ctx.sink.message) ctx.sink.message(text);
}

}  // namespace

Status create_namespace(StatementContext& ctx, const ast::CreateNamespaceStatement& s) {
  CatalogPtr catalog = FLOE_TRY(ctx.catalog.catalog(true));
  Namespace ns = without_catalog(ctx, s.ns.parts);
  std::map<std::string, std::string> props(s.properties.begin(), s.properties.end());
  if (s.comment) props["comment"] = *s.comment;
  if (s.location) props["location"] = absolute_location(*s.location);
  Status st = catalog->create_namespace(ns, props);
  if (st.kind() == ErrorKind::kAlreadyExists && s.if_not_exists) return Status::OK();
  FLOE_TRY(st);
  say(ctx, "created namespace " + namespace_to_string(ns));
  return Status::OK();
}

Status drop_namespace(StatementContext& ctx, const ast::DropNamespaceStatement& s) {
  CatalogPtr catalog = FLOE_TRY(ctx.catalog.catalog(false));
  Namespace ns = without_catalog(ctx, s.ns.parts);
  if (!catalog || !FLOE_TRY(catalog->namespace_exists(ns))) {
    if (s.if_exists) return Status::OK();
    return not_found("namespace {} not found in catalog {}", namespace_to_string(ns),
                     ctx.options.catalog_name);
  }
  if (s.cascade) {
    for (const auto& id : FLOE_TRY(catalog->list_tables(ns))) {
      FLOE_TRY(catalog->drop_table(id, /*purge=*/false));
    }
  } else if (!FLOE_TRY(catalog->list_tables(ns)).empty()) {
    return invalid_argument("cannot drop namespace {}: it is not empty (use CASCADE)",
                            namespace_to_string(ns));
  }
  FLOE_TRY(catalog->drop_namespace(ns));
  say(ctx, "dropped namespace " + namespace_to_string(ns));
  return Status::OK();
}

Status drop_table(StatementContext& ctx, const ast::DropTableStatement& s) {
  CatalogPtr catalog = FLOE_TRY(ctx.catalog.catalog(false));
  TableIdentifier id = FLOE_TRY(ctx.catalog.identifier(s.table.parts));
  if (!catalog || !FLOE_TRY(catalog->table_exists(id))) {
    if (s.if_exists) return Status::OK();
    return not_found("table {} not found in catalog {}", id.to_string(), ctx.options.catalog_name);
  }
  FLOE_TRY(catalog->drop_table(id, s.purge));
  say(ctx, fmt::format("dropped table {}{}", id.to_string(), s.purge ? " and its files" : ""));
  return Status::OK();
}

Status rename_table(StatementContext& ctx, const ast::QualifiedName& from,
                    const ast::QualifiedName& to) {
  CatalogPtr catalog = FLOE_TRY(ctx.catalog.catalog(false));
  TableIdentifier from_id = FLOE_TRY(ctx.catalog.identifier(from.parts));
  // Spark: a one-part new name stays in the table's namespace.
  TableIdentifier to_id;
  if (to.parts.size() == 1) {
    to_id = {from_id.ns, to.parts[0]};
  } else {
    to_id = FLOE_TRY(ctx.catalog.identifier(to.parts));
  }
  if (!catalog) {
    return not_found("table {} not found in catalog {}", from_id.to_string(),
                     ctx.options.catalog_name);
  }
  FLOE_TRY(catalog->rename_table(from_id, to_id));
  say(ctx, fmt::format("renamed table {} to {}", from_id.to_string(), to_id.to_string()));
  return Status::OK();
}

Status register_table(StatementContext& ctx, const std::vector<std::string>& name,
                      const std::string& metadata_file) {
  CatalogPtr catalog = FLOE_TRY(ctx.catalog.catalog(true));
  TableIdentifier id = FLOE_TRY(ctx.catalog.identifier(name));
  // Stored absolute, so the table reads the same from any directory.
  std::string location = absolute_location(metadata_file);
  FLOE_TRY(catalog->register_table(id, location));
  say(ctx, fmt::format("registered table {} at {}", id.to_string(), location));
  return Status::OK();
}

}  // namespace floe::sql
