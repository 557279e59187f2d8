// DESCRIBE, SHOW NAMESPACES / TABLES / TBLPROPERTIES / CREATE TABLE / COLUMNS, USE, SET.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <set>

#include "floe/spec/partition_spec.h"
#include "floe/spec/sort_order.h"
#include "floe/util/strings.h"
#include "sql/statements/statements_internal.h"

namespace floe::sql {

namespace {

using Rows = std::vector<std::vector<std::string>>;

// Emits a result of string columns.
Status emit(const ResultSink& sink, const std::vector<std::string>& names, const Rows& rows) {
  std::vector<TypePtr> types(names.size(), Type::string());
  std::vector<NestedField> fields = make_fields(names, types);
  if (sink.begin) sink.begin(fields);
  ColumnBatch batch = ColumnBatch::make(fields);
  for (const auto& row : rows) {
    for (size_t c = 0; c < names.size(); ++c) batch.columns[c]->append_bytes(row[c]);
    ++batch.num_rows;
  }
  if (sink.rows && batch.num_rows) FLOE_TRY(sink.rows(batch));
  if (sink.end) sink.end();
  return Status::OK();
}

std::string column_name(const Schema& schema, int32_t id) {
  const NestedField* f = schema.find_field(id);
  return f ? f->name : fmt::format("#{}", id);
}

// `days(event_ts)`, `bucket(16, id)`, `country` — Spark's partition term text.
std::string partition_term(const Schema& schema, const PartitionField& f) {
  std::string source = column_name(schema, f.source_id);
  std::string t = f.transform.to_string();  // identity, day, bucket[16], truncate[4], void
  if (t == "identity") return source;
  size_t bracket = t.find('[');
  if (bracket != std::string::npos) {
    std::string name = t.substr(0, bracket);
    std::string param = t.substr(bracket + 1, t.size() - bracket - 2);
    return fmt::format("{}({}, {})", name, param, source);
  }
  if (t == "year" || t == "month" || t == "day" || t == "hour") t += "s";
  return fmt::format("{}({})", t, source);
}

std::string sort_term(const Schema& schema, const SortField& f) {
  std::string source = column_name(schema, f.source_id);
  std::string t = f.transform.to_string();
  std::string term = t == "identity" ? source : fmt::format("{}({})", t, source);
  return fmt::format("{} {} {}", term, f.direction == SortDirection::kAsc ? "ASC" : "DESC",
                     f.null_order == NullOrder::kNullsFirst ? "NULLS FIRST" : "NULLS LAST");
}

Status describe_table(StatementContext& ctx, const ast::DescribeTableStatement& d) {
  StoredTable table = FLOE_TRY(ctx.catalog.load_table(d.table.parts));
  const TableMetadata& m = *table.metadata;
  const Schema& schema = *m.schema();
  Rows rows;
  for (const auto& f : schema.fields()) {
    rows.push_back({f.name, spark_type_name(*f.type), f.doc});
  }
  const PartitionSpec* spec = m.spec();
  if (spec && !spec->is_unpartitioned()) {
    rows.push_back({"", "", ""});
    rows.push_back({"# Partitioning", "", ""});
    for (size_t i = 0; i < spec->fields().size(); ++i) {
      rows.push_back({fmt::format("Part {}", i), partition_term(schema, spec->fields()[i]), ""});
    }
  }
  if (d.extended) {
    rows.push_back({"", "", ""});
    rows.push_back({"# Detailed Table Information", "", ""});
    rows.push_back({"Name", dotted_name(d.table.parts), ""});
    rows.push_back({"Type", "MANAGED", ""});
    rows.push_back({"Location", m.location, ""});
    rows.push_back({"Provider", "iceberg", ""});
    rows.push_back({"Format version", std::to_string(m.format_version), ""});
    rows.push_back({"Metadata file", table.metadata_file.path, ""});
    const Snapshot* current = m.current_snapshot();
    rows.push_back(
        {"Current snapshot", current ? std::to_string(current->snapshot_id) : "none", ""});
    for (const auto& s : m.specs) {
      std::string terms;
      for (const auto& f : s->fields())
        terms += (terms.empty() ? "" : ", ") + partition_term(schema, f);
      rows.push_back({fmt::format("Partition spec {}", s->spec_id()),
                      "[" + terms + "]" + (s->spec_id() == m.default_spec_id ? " (default)" : ""),
                      ""});
    }
    const SortOrder* order = m.sort_order();
    std::string order_text;
    if (order) {
      for (const auto& f : order->fields) {
        order_text += (order_text.empty() ? "" : ", ") + sort_term(schema, f);
      }
    }
    rows.push_back({"Sort order", order_text.empty() ? "unsorted" : order_text, ""});
    for (const auto& [name, ref] : m.refs) {
      rows.push_back({fmt::format("Ref {}", name),
                      fmt::format("{} {}", ref.is_branch() ? "branch" : "tag", ref.snapshot_id),
                      ""});
    }
    std::string props;
    for (const auto& [k, v] : m.properties) props += (props.empty() ? "" : ",") + k + "=" + v;
    rows.push_back({"Table Properties", "[" + props + "]", ""});
  }
  return emit(ctx.sink, {"col_name", "data_type", "comment"}, rows);
}

bool is_table_dir(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_directory(p / "metadata", ec);
}

std::vector<std::string> strip_catalog(const StatementContext& ctx,
                                       const std::vector<std::string>& parts) {
  std::vector<std::string> out = parts;
  if (!out.empty() && iequals(out[0], ctx.options.catalog_name)) out.erase(out.begin());
  return out;
}

// Spark's SHOW ... LIKE pattern: alternatives separated by '|', '*' matches any run of
// characters, case-insensitive, matching the whole name.
bool glob_matches(std::string_view pattern, std::string_view name) {
  size_t p = 0, n = 0, star = std::string_view::npos, mark = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = n;
    } else if (p < pattern.size() && std::tolower(static_cast<unsigned char>(pattern[p])) ==
                                         std::tolower(static_cast<unsigned char>(name[n]))) {
      ++p;
      ++n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool like_pattern_matches(std::string_view pattern, std::string_view name) {
  size_t start = 0;
  while (true) {
    size_t bar = pattern.find('|', start);
    std::string_view alt =
        trim(pattern.substr(start, bar == std::string_view::npos ? bar : bar - start));
    if (glob_matches(alt, name)) return true;
    if (bar == std::string_view::npos) return false;
    start = bar + 1;
  }
}

// A namespace exists in the catalog or as a warehouse directory that is not a table.
Status check_namespace_exists(StatementContext& ctx, const std::vector<std::string>& ns) {
  CatalogPtr catalog = FLOE_TRY(ctx.catalog.catalog(false));
  if (catalog && FLOE_TRY(catalog->namespace_exists(ns))) return Status::OK();
  std::filesystem::path dir(ctx.options.warehouse);
  for (const auto& p : ns) dir /= p;
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec) && !is_table_dir(dir)) return Status::OK();
  return Status(ErrorKind::kNotFound, fmt::format("namespace {} not found in catalog {}",
                                                  dotted_name(ns), ctx.options.catalog_name));
}

Status show_namespaces(StatementContext& ctx, const ast::ShowNamespacesStatement& s) {
  std::filesystem::path dir(ctx.options.warehouse);
  std::vector<std::string> prefix;
  if (s.in) prefix = strip_catalog(ctx, s.in->parts);
  for (const auto& p : prefix) dir /= p;
  std::set<std::string> names;
  CatalogPtr catalog = FLOE_TRY(ctx.catalog.catalog(false));
  if (catalog) {
    for (const auto& ns : FLOE_TRY(catalog->list_namespaces(prefix))) {
      names.insert(namespace_to_string(ns));
    }
  }
  std::error_code ec;
  // Without a catalog, the warehouse's directories (Hadoop layout) are the namespaces.
  if (!catalog && std::filesystem::is_directory(dir, ec)) {
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      if (!entry.is_directory() || is_table_dir(entry.path())) continue;
      if (entry.path().filename().string().starts_with(".")) continue;
      std::vector<std::string> name = prefix;
      name.push_back(entry.path().filename().string());
      names.insert(dotted_name(name));
    }
  }
  Rows rows;
  for (const auto& n : names) {
    if (!s.like || like_pattern_matches(*s.like, n)) rows.push_back({n});
  }
  return emit(ctx.sink, {"namespace"}, rows);
}

Status show_tables(StatementContext& ctx, const ast::ShowTablesStatement& s) {
  std::vector<std::string> ns =
      s.in ? strip_catalog(ctx, s.in->parts) : ctx.options.current_namespace;
  std::filesystem::path dir(ctx.options.warehouse);
  for (const auto& p : ns) dir /= p;
  std::set<std::string> names;
  CatalogPtr catalog = FLOE_TRY(ctx.catalog.catalog(false));
  if (catalog && FLOE_TRY(catalog->namespace_exists(ns))) {
    for (const auto& id : FLOE_TRY(catalog->list_tables(ns))) names.insert(id.name);
  }
  std::error_code ec;
  if (!catalog && std::filesystem::is_directory(dir, ec)) {
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      if (entry.is_directory() && is_table_dir(entry.path())) {
        names.insert(entry.path().filename().string());
      }
    }
  }
  Rows rows;
  for (const auto& n : names) {
    if (!s.like || like_pattern_matches(*s.like, n)) rows.push_back({dotted_name(ns), n, "false"});
  }
  return emit(ctx.sink, {"namespace", "tableName", "isTemporary"}, rows);
}

// One sort field as Iceberg's Spark integration describes it (`id ASC NULLS FIRST`,
// `bucket(16, id) DESC NULLS LAST`, `truncate(name, 4) ...`, `days(ts) ...`).
std::string spark_sort_term(const Schema& schema, const SortField& f) {
  const std::string source = column_name(schema, f.source_id);
  const Transform& t = f.transform;
  std::string term;
  switch (t.kind()) {
    case Transform::Kind::kIdentity:
      term = source;
      break;
    case Transform::Kind::kBucket:
      term = fmt::format("bucket({}, {})", t.param(), source);
      break;
    case Transform::Kind::kTruncate:
      term = fmt::format("truncate({}, {})", source, t.param());
      break;
    case Transform::Kind::kYear:
    case Transform::Kind::kMonth:
    case Transform::Kind::kDay:
    case Transform::Kind::kHour:
      term = fmt::format("{}s({})", t.to_string(), source);
      break;
    default:
      term = fmt::format("{}({})", t.to_string(), source);
      break;
  }
  return fmt::format("{} {} {}", term, f.direction == SortDirection::kAsc ? "ASC" : "DESC",
                     f.null_order == NullOrder::kNullsFirst ? "NULLS FIRST" : "NULLS LAST");
}

// The properties Spark shows for an Iceberg table: the table's own properties and the reserved
// ones Iceberg's Spark catalog adds (format, current-snapshot-id, format-version, sort-order
// when sorted, identifier-fields when set), sorted by key. A table property with a reserved
// key is hidden behind the reserved value, as there.
std::map<std::string, std::string> spark_table_properties(const TableMetadata& m) {
  std::map<std::string, std::string> out;
  auto format = m.properties.find("write.format.default");
  out["format"] = "iceberg/" + (format == m.properties.end() ? "parquet" : format->second);
  const Snapshot* current = m.current_snapshot();
  out["current-snapshot-id"] = current ? std::to_string(current->snapshot_id) : "none";
  out["format-version"] = std::to_string(m.format_version);
  const Schema& schema = *m.schema();
  const SortOrder* order = m.sort_order();
  if (order && !order->fields.empty()) {
    std::string text;
    for (const auto& f : order->fields) {
      text += (text.empty() ? "" : ", ") + spark_sort_term(schema, f);
    }
    out["sort-order"] = text;
  }
  if (!schema.identifier_field_ids().empty()) {
    std::string names;
    for (int32_t id : schema.identifier_field_ids()) {
      names += (names.empty() ? "" : ",") + column_name(schema, id);
    }
    out["identifier-fields"] = "[" + names + "]";
  }
  static const std::set<std::string> kReserved = {
      "provider",       "format",     "current-snapshot-id", "location",
      "format-version", "sort-order", "identifier-fields"};
  for (const auto& [k, v] : m.properties) {
    if (!kReserved.count(k)) out[k] = v;
  }
  return out;
}

Status show_properties(StatementContext& ctx, const ast::ShowTblPropertiesStatement& s) {
  StoredTable table = FLOE_TRY(ctx.catalog.load_table(s.table.parts));
  Rows rows;
  const auto props = spark_table_properties(*table.metadata);
  if (s.key) {
    auto it = props.find(*s.key);
    rows.push_back({*s.key, it == props.end() ? fmt::format("Table {} does not have property: {}",
                                                            dotted_name(s.table.parts), *s.key)
                                              : it->second});
  } else {
    for (const auto& [k, v] : props) rows.push_back({k, v});
  }
  return emit(ctx.sink, {"key", "value"}, rows);
}

// Spark's DDL spelling: type names upper case, struct field names as they are, with their
// NOT NULL and COMMENT (`STRUCT<x: INT NOT NULL, y: STRING COMMENT 'why'>`).
std::string sql_type(const Type& t) {
  if (t.is_struct()) {
    std::string out = "STRUCT<";
    for (size_t i = 0; i < t.fields().size(); ++i) {
      const NestedField& f = t.fields()[i];
      out += fmt::format("{}{}: {}{}{}", i ? ", " : "", f.name, sql_type(*f.type),
                         f.required ? " NOT NULL" : "",
                         f.doc.empty() ? "" : " COMMENT " + ast::quote_string(f.doc));
    }
    return out + ">";
  }
  if (t.is_list()) return "ARRAY<" + sql_type(*t.element().type) + ">";
  if (t.is_map()) return "MAP<" + sql_type(*t.key().type) + ", " + sql_type(*t.value().type) + ">";
  return to_upper(spark_type_name(t));
}

Status show_create_table(StatementContext& ctx, const ast::ShowCreateTableStatement& s) {
  StoredTable table = FLOE_TRY(ctx.catalog.load_table(s.table.parts));
  const TableMetadata& m = *table.metadata;
  const Schema& schema = *m.schema();
  std::string out = fmt::format("CREATE TABLE {} (\n", dotted_name(s.table.parts));
  for (size_t i = 0; i < schema.fields().size(); ++i) {
    const NestedField& f = schema.fields()[i];
    out += fmt::format("  {} {}{}{}{}\n", f.name, sql_type(*f.type), f.required ? " NOT NULL" : "",
                       f.doc.empty() ? "" : " COMMENT " + ast::quote_string(f.doc),
                       i + 1 < schema.fields().size() ? "," : "");
  }
  out += ")\nUSING iceberg\n";
  const PartitionSpec* spec = m.spec();
  if (spec && !spec->is_unpartitioned()) {
    std::string terms;
    for (const auto& f : spec->fields())
      terms += (terms.empty() ? "" : ", ") + partition_term(schema, f);
    out += "PARTITIONED BY (" + terms + ")\n";
  }
  out += "LOCATION " + ast::quote_string(m.location) + "\n";
  std::string props = fmt::format("  'format-version' = '{}'", m.format_version);
  for (const auto& [k, v] : m.properties) {
    props += fmt::format(",\n  {} = {}", ast::quote_string(k), ast::quote_string(v));
  }
  out += "TBLPROPERTIES (\n" + props + ")\n";
  return emit(ctx.sink, {"createtab_stmt"}, {{out}});
}

Status show_columns(StatementContext& ctx, const ast::ShowColumnsStatement& s) {
  StoredTable table = FLOE_TRY(ctx.catalog.load_table(s.table.parts));
  Rows rows;
  for (const auto& f : table.metadata->schema()->fields()) rows.push_back({f.name});
  return emit(ctx.sink, {"col_name"}, rows);
}

}  // namespace

Status run_other_statement(StatementContext& ctx, const ast::Statement& statement) {
  switch (statement.kind()) {
    case ast::StatementKind::kDescribeTable:
      return describe_table(ctx, statement.as<ast::DescribeTableStatement>());
    case ast::StatementKind::kShowNamespaces:
      return show_namespaces(ctx, statement.as<ast::ShowNamespacesStatement>());
    case ast::StatementKind::kShowTables:
      return show_tables(ctx, statement.as<ast::ShowTablesStatement>());
    case ast::StatementKind::kShowTblProperties:
      return show_properties(ctx, statement.as<ast::ShowTblPropertiesStatement>());
    case ast::StatementKind::kShowCreateTable:
      return show_create_table(ctx, statement.as<ast::ShowCreateTableStatement>());
    case ast::StatementKind::kShowColumns:
      return show_columns(ctx, statement.as<ast::ShowColumnsStatement>());
    case ast::StatementKind::kShowCatalogs:
      return emit(ctx.sink, {"catalog"}, {{ctx.options.catalog_name}});
    case ast::StatementKind::kUse: {
      std::vector<std::string> ns = strip_catalog(ctx, statement.as<ast::UseStatement>().ns.parts);
      if (ns.empty()) return invalid_argument("USE needs a namespace");
      FLOE_TRY(check_namespace_exists(ctx, ns));
      ctx.options.current_namespace = ns;
      if (ctx.sink.message) ctx.sink.message("namespace: " + dotted_name(ns));
      return Status::OK();
    }
    case ast::StatementKind::kSet: {
      const auto& s = statement.as<ast::SetStatement>();
      if (s.value) {
        if (s.key == "floe.threads" || s.key == "spark.sql.shuffle.partitions") {
          if (s.key == "floe.threads") {
            // A whole number of threads, 0 for one per core; the pool clamps large counts.
            int threads = -1;
            const std::string& v = *s.value;
            auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), threads);
            if (ec != std::errc() || end != v.data() + v.size() || threads < 0) {
              return invalid_argument(
                  "SET floe.threads: '{}' is not a number of threads (0 "
                  "for one per core, or a positive whole number)",
                  v);
            }
            ctx.options.threads = threads;
          }
        }
        if (ctx.sink.message) ctx.sink.message(s.key + "=" + *s.value);
        return Status::OK();
      }
      return emit(ctx.sink, {"key", "value"},
                  {{"floe.threads", std::to_string(ctx.options.threads)}});
    }
    case ast::StatementKind::kCreateNamespace:
      return create_namespace(ctx, statement.as<ast::CreateNamespaceStatement>());
    case ast::StatementKind::kDropNamespace:
      return drop_namespace(ctx, statement.as<ast::DropNamespaceStatement>());
    case ast::StatementKind::kDropTable:
      return drop_table(ctx, statement.as<ast::DropTableStatement>());
    default:
      return Status(ErrorKind::kNotSupported,
                    fmt::format("{} is not supported", statement_kind_name(statement.kind())));
  }
}

}  // namespace floe::sql
