// Canonical printing of the SQL tree: what tests compare and what EXPLAIN shows.
#include <cctype>

#include "floe/util/strings.h"
#include "sql/parser/ast_internal.h"
#include "sql/parser/grammar_internal.h"
#include "sql/parser/stack_guard_internal.h"

namespace floe::sql::ast {

namespace {

bool is_plain_identifier(std::string_view name) {
  if (name.empty()) return false;
  if (!(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  for (char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  // VALUES and INTERVAL are names Spark allows, but bare they would start a query or a literal.
  return !internal::is_reserved_word(name) && !iequals(name, "VALUES") &&
         !iequals(name, "INTERVAL");
}

std::string join(const std::vector<std::string>& items, std::string_view sep = ", ") {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += sep;
    out += items[i];
  }
  return out;
}

std::string identifiers(const std::vector<std::string>& names) {
  std::vector<std::string> quoted;
  quoted.reserve(names.size());
  for (const auto& n : names) quoted.push_back(quote_identifier(n));
  return join(quoted);
}

std::string exprs(const std::vector<ExprPtr>& list) {
  std::vector<std::string> parts;
  parts.reserve(list.size());
  for (const auto& e : list) parts.push_back(to_string(*e));
  return join(parts);
}

std::string properties(const PropertyList& props) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : props) parts.push_back(quote_string(k) + " = " + quote_string(v));
  return "(" + join(parts) + ")";
}

const char* type_keyword(TypeKind kind) {
  switch (kind) {
    case TypeKind::kBoolean:
      return "BOOLEAN";
    case TypeKind::kTinyint:
      return "TINYINT";
    case TypeKind::kSmallint:
      return "SMALLINT";
    case TypeKind::kInt:
      return "INT";
    case TypeKind::kBigint:
      return "BIGINT";
    case TypeKind::kFloat:
      return "FLOAT";
    case TypeKind::kDouble:
      return "DOUBLE";
    case TypeKind::kDecimal:
      return "DECIMAL";
    case TypeKind::kString:
      return "STRING";
    case TypeKind::kVarchar:
      return "VARCHAR";
    case TypeKind::kChar:
      return "CHAR";
    case TypeKind::kBinary:
      return "BINARY";
    case TypeKind::kDate:
      return "DATE";
    case TypeKind::kTimestamp:
      return "TIMESTAMP";
    case TypeKind::kTimestampNtz:
      return "TIMESTAMP_NTZ";
    case TypeKind::kTimestampLtz:
      return "TIMESTAMP_LTZ";
    case TypeKind::kUuid:
      return "UUID";
    case TypeKind::kTime:
      return "TIME";
    case TypeKind::kArray:
      return "ARRAY";
    case TypeKind::kMap:
      return "MAP";
    case TypeKind::kStruct:
      return "STRUCT";
  }
  return "?";
}

std::string literal(const LiteralExpr& l) {
  switch (l.literal_kind) {
    case LiteralKind::kNull:
      return "NULL";
    case LiteralKind::kBoolean:
      return l.bool_value ? "TRUE" : "FALSE";
    case LiteralKind::kInteger:
    case LiteralKind::kDouble:
      return l.suffix ? l.text + l.suffix : l.text;
    case LiteralKind::kDecimal:
      return l.suffix == 'B' ? l.text + "BD" : l.text;
    case LiteralKind::kString:
      return quote_string(l.text);
    case LiteralKind::kDate:
      return "DATE " + quote_string(l.text);
    case LiteralKind::kTimestamp:
      return "TIMESTAMP " + quote_string(l.text);
    case LiteralKind::kTimestampNtz:
      return "TIMESTAMP_NTZ " + quote_string(l.text);
    case LiteralKind::kInterval: {
      std::string out = "INTERVAL";
      for (const auto& p : l.interval) {
        out += " " + quote_string(p.value);
        if (!p.unit.empty()) out += " " + p.unit;
      }
      return out;
    }
    case LiteralKind::kBinary: {
      static constexpr char kHex[] = "0123456789ABCDEF";
      std::string out = "X'";
      for (unsigned char c : l.text) {
        out += kHex[c >> 4];
        out += kHex[c & 15];
      }
      return out + "'";
    }
  }
  return "?";
}

std::string order_items(const std::vector<OrderItem>& items) {
  std::vector<std::string> parts;
  for (const auto& o : items) {
    std::string s = to_string(*o.expr);
    if (o.descending) s += " DESC";
    if (o.nulls_first) s += *o.nulls_first ? " NULLS FIRST" : " NULLS LAST";
    parts.push_back(std::move(s));
  }
  return join(parts);
}

std::string values_rows(const std::vector<std::vector<ExprPtr>>& rows) {
  std::vector<std::string> parts;
  for (const auto& row : rows) parts.push_back("(" + exprs(row) + ")");
  return "VALUES " + join(parts);
}

std::string body(const QueryBody& b) {
  switch (b.kind) {
    case QueryBodyKind::kSelect: {
      const auto& s = b.as<SelectBody>();
      std::string out = s.distinct ? "SELECT DISTINCT " : "SELECT ";
      std::vector<std::string> items;
      for (const auto& item : s.items) {
        std::string text = to_string(*item.expr);
        if (item.alias) text += " AS " + quote_identifier(*item.alias);
        items.push_back(std::move(text));
      }
      out += join(items);
      if (!s.from.empty()) {
        std::vector<std::string> refs;
        for (const auto& r : s.from) refs.push_back(to_string(*r));
        out += " FROM " + join(refs);
      }
      if (s.where) out += " WHERE " + to_string(*s.where);
      if (!s.group_by.empty()) out += " GROUP BY " + exprs(s.group_by);
      if (s.having) out += " HAVING " + to_string(*s.having);
      return out;
    }
    case QueryBodyKind::kSetOp: {
      const auto& s = b.as<SetOpBody>();
      const char* op = s.op == SetOpKind::kUnion       ? " UNION "
                       : s.op == SetOpKind::kIntersect ? " INTERSECT "
                                                       : " EXCEPT ";
      return body(*s.left) + op + (s.all ? "ALL " : "") + body(*s.right);
    }
    case QueryBodyKind::kValues:
      return values_rows(b.as<ValuesBody>().rows);
    case QueryBodyKind::kNested:
      return "(" + to_string(*b.as<NestedBody>().query) + ")";
  }
  return "?";
}

std::string alias_suffix(const TableRef& r) {
  if (!r.alias) return "";
  std::string out = " AS " + quote_identifier(*r.alias);
  if (!r.column_aliases.empty()) out += "(" + identifiers(r.column_aliases) + ")";
  return out;
}

std::string time_travel(const std::optional<TimeTravel>& tt) {
  if (!tt) return "";
  return std::string(tt->kind == TimeTravelKind::kVersion ? " FOR VERSION AS OF "
                                                          : " FOR TIMESTAMP AS OF ") +
         to_string(*tt->value);
}

const char* join_keyword(JoinType t) {
  switch (t) {
    case JoinType::kInner:
      return " JOIN ";
    case JoinType::kLeft:
      return " LEFT JOIN ";
    case JoinType::kRight:
      return " RIGHT JOIN ";
    case JoinType::kFull:
      return " FULL JOIN ";
    case JoinType::kCross:
      return " CROSS JOIN ";
    case JoinType::kLeftSemi:
      return " LEFT SEMI JOIN ";
    case JoinType::kLeftAnti:
      return " LEFT ANTI JOIN ";
  }
  return " JOIN ";
}

std::string transform(const TransformTerm& t) {
  if (t.transform == "identity" && !t.param) return quote_name(t.column);
  std::string out = t.transform + "(";
  if (t.param) out += std::to_string(*t.param) + ", ";
  return out + quote_name(t.column) + ")";
}

std::string retention(const RetentionPeriod& r) { return std::to_string(r.amount) + " " + r.unit; }

std::string column_position(const ColumnPosition& p) {
  switch (p.kind) {
    case ColumnPositionKind::kDefault:
      return "";
    case ColumnPositionKind::kFirst:
      return " FIRST";
    case ColumnPositionKind::kAfter:
      return " AFTER " + quote_name(p.after);
  }
  return "";
}

std::string assignments(const std::vector<Assignment>& list) {
  std::vector<std::string> parts;
  for (const auto& a : list) parts.push_back(quote_name(a.column) + " = " + to_string(*a.value));
  return join(parts);
}

std::string column_lists(const std::vector<std::vector<std::string>>& cols) {
  std::vector<std::string> parts;
  for (const auto& c : cols) parts.push_back(quote_name(c));
  return join(parts);
}

std::string alter_action(const AlterTableAction& action) {
  return std::visit(
      [](const auto& a) -> std::string {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<T, SetTblProperties>) {
          return "SET TBLPROPERTIES " + properties(a.properties);
        } else if constexpr (std::is_same_v<T, UnsetTblProperties>) {
          std::vector<std::string> keys;
          for (const auto& k : a.keys) keys.push_back(quote_string(k));
          return std::string("UNSET TBLPROPERTIES ") + (a.if_exists ? "IF EXISTS " : "") + "(" +
                 join(keys) + ")";
        } else if constexpr (std::is_same_v<T, RenameTable>) {
          return "RENAME TO " + quote_name(a.to.parts);
        } else if constexpr (std::is_same_v<T, AddColumns>) {
          std::vector<std::string> cols;
          for (const auto& c : a.columns) {
            std::string s = quote_name(c.name) + " " + to_string(*c.type);
            if (c.not_null) s += " NOT NULL";
            if (c.comment) s += " COMMENT " + quote_string(*c.comment);
            if (c.default_value) s += " DEFAULT " + to_string(*c.default_value);
            s += column_position(c.position);
            cols.push_back(std::move(s));
          }
          return "ADD COLUMNS (" + join(cols) + ")";
        } else if constexpr (std::is_same_v<T, DropColumns>) {
          return std::string("DROP COLUMNS ") + (a.if_exists ? "IF EXISTS " : "") + "(" +
                 column_lists(a.columns) + ")";
        } else if constexpr (std::is_same_v<T, RenameColumn>) {
          return "RENAME COLUMN " + quote_name(a.column) + " TO " + quote_identifier(a.new_name);
        } else if constexpr (std::is_same_v<T, AlterColumn>) {
          std::string s = "ALTER COLUMN " + quote_name(a.column);
          if (a.new_type) s += " TYPE " + to_string(*a.new_type);
          if (a.not_null) s += *a.not_null ? " SET NOT NULL" : " DROP NOT NULL";
          if (a.set_default) s += " SET DEFAULT " + to_string(*a.set_default);
          if (a.drop_default) s += " DROP DEFAULT";
          if (a.comment) s += " COMMENT " + quote_string(*a.comment);
          if (a.position) s += column_position(*a.position);
          return s;
        } else if constexpr (std::is_same_v<T, AddPartitionField>) {
          std::string s = "ADD PARTITION FIELD " + transform(a.term);
          if (a.name) s += " AS " + quote_identifier(*a.name);
          return s;
        } else if constexpr (std::is_same_v<T, DropPartitionField>) {
          return "DROP PARTITION FIELD " + transform(a.term);
        } else if constexpr (std::is_same_v<T, ReplacePartitionField>) {
          std::string s =
              "REPLACE PARTITION FIELD " + transform(a.from) + " WITH " + transform(a.to);
          if (a.name) s += " AS " + quote_identifier(*a.name);
          return s;
        } else if constexpr (std::is_same_v<T, RenamePartitionField>) {
          return "RENAME PARTITION FIELD " + quote_identifier(a.from) + " TO " +
                 quote_identifier(a.to);
        } else if constexpr (std::is_same_v<T, SetWriteOrder>) {
          if (a.unordered) return "WRITE UNORDERED";
          std::string s = "WRITE";
          if (a.distributed_by_partition) s += " DISTRIBUTED BY PARTITION";
          if (a.locally) s += " LOCALLY";
          if (!a.order.empty()) {
            std::vector<std::string> terms;
            for (const auto& t : a.order) {
              std::string term = transform(t.term);
              if (t.descending) term += " DESC";
              if (t.nulls_first) term += *t.nulls_first ? " NULLS FIRST" : " NULLS LAST";
              terms.push_back(std::move(term));
            }
            s += " ORDERED BY " + join(terms);
          }
          return s;
        } else if constexpr (std::is_same_v<T, SetIdentifierFields>) {
          return "SET IDENTIFIER FIELDS " + column_lists(a.columns);
        } else if constexpr (std::is_same_v<T, DropIdentifierFields>) {
          return "DROP IDENTIFIER FIELDS " + column_lists(a.columns);
        } else if constexpr (std::is_same_v<T, CreateRef>) {
          std::string s = a.create ? (a.replace ? "CREATE OR REPLACE " : "CREATE ") : "REPLACE ";
          s += a.tag ? "TAG " : "BRANCH ";
          if (a.if_not_exists) s += "IF NOT EXISTS ";
          s += quote_identifier(a.name);
          if (a.snapshot_id) s += " AS OF VERSION " + std::to_string(*a.snapshot_id);
          if (a.retain) s += " RETAIN " + retention(*a.retain);
          if (a.min_snapshots_to_keep || a.max_snapshot_age) {
            s += " WITH SNAPSHOT RETENTION";
            if (a.min_snapshots_to_keep) {
              s += " " + std::to_string(*a.min_snapshots_to_keep) + " SNAPSHOTS";
            }
            if (a.max_snapshot_age) s += " " + retention(*a.max_snapshot_age);
          }
          return s;
        } else if constexpr (std::is_same_v<T, DropRef>) {
          return std::string("DROP ") + (a.tag ? "TAG " : "BRANCH ") +
                 (a.if_exists ? "IF EXISTS " : "") + quote_identifier(a.name);
        }
      },
      action);
}

// A table name after a statement keyword that may be followed by optional words
// (INSERT INTO [TABLE] t, DESCRIBE [TABLE] [EXTENDED] t): those words are quoted as names.
std::string statement_table(const std::vector<std::string>& parts) {
  std::string out = quote_name(parts);
  if (!parts.empty() &&
      (iequals(parts[0], "TABLE") || iequals(parts[0], "EXTENDED") ||
       iequals(parts[0], "FORMATTED")) &&
      out[0] != '`') {
    out = "`" + parts[0] + "`" + out.substr(parts[0].size());
  }
  return out;
}

std::string optional_alias(const std::optional<std::string>& alias) {
  return alias ? " AS " + quote_identifier(*alias) : "";
}

std::string statement_node(const StatementNode& node);

std::string statement_text(const Statement& s) { return statement_node(s.node); }

std::string statement_node(const StatementNode& node) {
  return std::visit(
      [](const auto& s) -> std::string {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, QueryStatement>) {
          return to_string(*s.query);
        } else if constexpr (std::is_same_v<T, ExplainStatement>) {
          static constexpr const char* kModes[] = {"", "EXTENDED ", "FORMATTED ", "COST ",
                                                   "CODEGEN "};
          return std::string("EXPLAIN ") + kModes[static_cast<int>(s.mode)] +
                 statement_text(*s.statement);
        } else if constexpr (std::is_same_v<T, DescribeTableStatement>) {
          std::string out = "DESCRIBE TABLE ";
          if (s.formatted) {
            out += "FORMATTED ";
          } else if (s.extended) {
            out += "EXTENDED ";
          }
          out += statement_table(s.table.parts);
          if (!s.column.empty()) out += " " + quote_name(s.column);
          return out;
        } else if constexpr (std::is_same_v<T, DescribeNamespaceStatement>) {
          return std::string("DESCRIBE NAMESPACE ") + (s.extended ? "EXTENDED " : "") +
                 quote_name(s.ns.parts);
        } else if constexpr (std::is_same_v<T, ShowNamespacesStatement> ||
                             std::is_same_v<T, ShowTablesStatement>) {
          std::string out =
              std::is_same_v<T, ShowTablesStatement> ? "SHOW TABLES" : "SHOW NAMESPACES";
          if (s.in) out += " IN " + quote_name(s.in->parts);
          if (s.like) out += " LIKE " + quote_string(*s.like);
          return out;
        } else if constexpr (std::is_same_v<T, ShowTblPropertiesStatement>) {
          std::string out = "SHOW TBLPROPERTIES " + quote_name(s.table.parts);
          if (s.key) out += " (" + quote_string(*s.key) + ")";
          return out;
        } else if constexpr (std::is_same_v<T, ShowCreateTableStatement>) {
          return "SHOW CREATE TABLE " + quote_name(s.table.parts);
        } else if constexpr (std::is_same_v<T, ShowCatalogsStatement>) {
          return "SHOW CATALOGS";
        } else if constexpr (std::is_same_v<T, ShowColumnsStatement>) {
          return "SHOW COLUMNS IN " + quote_name(s.table.parts);
        } else if constexpr (std::is_same_v<T, UseStatement>) {
          return std::string("USE ") + (s.namespace_keyword ? "NAMESPACE " : "") +
                 quote_name(s.ns.parts);
        } else if constexpr (std::is_same_v<T, CreateNamespaceStatement>) {
          std::string out = "CREATE NAMESPACE ";
          if (s.if_not_exists) out += "IF NOT EXISTS ";
          out += quote_name(s.ns.parts);
          if (s.comment) out += " COMMENT " + quote_string(*s.comment);
          if (s.location) out += " LOCATION " + quote_string(*s.location);
          if (!s.properties.empty()) out += " WITH PROPERTIES " + properties(s.properties);
          return out;
        } else if constexpr (std::is_same_v<T, DropNamespaceStatement>) {
          return std::string("DROP NAMESPACE ") + (s.if_exists ? "IF EXISTS " : "") +
                 quote_name(s.ns.parts) + (s.cascade ? " CASCADE" : "");
        } else if constexpr (std::is_same_v<T, CreateTableStatement>) {
          std::string out = s.replace      ? "REPLACE TABLE "
                            : s.or_replace ? "CREATE OR REPLACE TABLE "
                                           : "CREATE TABLE ";
          if (s.if_not_exists) out += "IF NOT EXISTS ";
          out += quote_name(s.table.parts);
          if (!s.columns.empty()) {
            std::vector<std::string> cols;
            for (const auto& c : s.columns) {
              std::string col = quote_identifier(c.name) + " " + to_string(*c.type);
              if (c.not_null) col += " NOT NULL";
              if (c.comment) col += " COMMENT " + quote_string(*c.comment);
              cols.push_back(std::move(col));
            }
            out += " (" + join(cols) + ")";
          }
          if (s.using_) out += " USING " + quote_identifier(*s.using_);
          if (!s.partitioned_by.empty()) {
            std::vector<std::string> terms;
            for (const auto& t : s.partitioned_by) terms.push_back(transform(t));
            out += " PARTITIONED BY (" + join(terms) + ")";
          }
          if (s.location) out += " LOCATION " + quote_string(*s.location);
          if (s.comment) out += " COMMENT " + quote_string(*s.comment);
          if (!s.properties.empty()) out += " TBLPROPERTIES " + properties(s.properties);
          if (!s.options.empty()) out += " OPTIONS " + properties(s.options);
          if (s.as_query) out += " AS " + to_string(*s.as_query);
          return out;
        } else if constexpr (std::is_same_v<T, InsertStatement>) {
          std::string out = s.overwrite ? "INSERT OVERWRITE " : "INSERT INTO ";
          out += statement_table(s.table.parts);
          if (!s.partition.empty()) {
            std::vector<std::string> parts;
            for (const auto& [k, v] : s.partition) {
              parts.push_back(v ? quote_identifier(k) + " = " + to_string(*v)
                                : quote_identifier(k));
            }
            out += " PARTITION (" + join(parts) + ")";
          }
          if (!s.columns.empty()) out += " (" + identifiers(s.columns) + ")";
          return out + " " + to_string(*s.source);
        } else if constexpr (std::is_same_v<T, DeleteStatement>) {
          std::string out = "DELETE FROM " + quote_name(s.table.parts) + optional_alias(s.alias);
          if (s.where) out += " WHERE " + to_string(*s.where);
          return out;
        } else if constexpr (std::is_same_v<T, UpdateStatement>) {
          std::string out = "UPDATE " + quote_name(s.table.parts) + optional_alias(s.alias) +
                            " SET " + assignments(s.assignments);
          if (s.where) out += " WHERE " + to_string(*s.where);
          return out;
        } else if constexpr (std::is_same_v<T, MergeStatement>) {
          std::string out = "MERGE INTO " + quote_name(s.target.parts) +
                            optional_alias(s.target_alias) + " USING " + to_string(*s.source) +
                            " ON " + to_string(*s.on);
          for (const auto& c : s.clauses) {
            out += c.match == MergeMatch::kMatched      ? " WHEN MATCHED"
                   : c.match == MergeMatch::kNotMatched ? " WHEN NOT MATCHED"
                                                        : " WHEN NOT MATCHED BY SOURCE";
            if (c.condition) out += " AND " + to_string(*c.condition);
            out += " THEN ";
            switch (c.action) {
              case MergeAction::kUpdate:
                out += "UPDATE SET " + assignments(c.assignments);
                break;
              case MergeAction::kUpdateStar:
                out += "UPDATE SET *";
                break;
              case MergeAction::kDelete:
                out += "DELETE";
                break;
              case MergeAction::kInsertStar:
                out += "INSERT *";
                break;
              case MergeAction::kInsert:
                out += "INSERT ";
                if (!c.insert_columns.empty()) out += "(" + identifiers(c.insert_columns) + ") ";
                out += "VALUES (" + exprs(c.insert_values) + ")";
                break;
            }
          }
          return out;
        } else if constexpr (std::is_same_v<T, AlterTableStatement>) {
          return "ALTER TABLE " + quote_name(s.table.parts) + " " + alter_action(s.action);
        } else if constexpr (std::is_same_v<T, DropTableStatement>) {
          return std::string(s.view ? "DROP VIEW " : "DROP TABLE ") +
                 (s.if_exists ? "IF EXISTS " : "") + quote_name(s.table.parts) +
                 (s.purge ? " PURGE" : "");
        } else if constexpr (std::is_same_v<T, CallStatement>) {
          std::vector<std::string> args;
          for (const auto& a : s.args) {
            args.push_back((a.name ? quote_identifier(*a.name) + " => " : std::string()) +
                           to_string(*a.value));
          }
          return "CALL " + quote_name(s.procedure.parts) + "(" + join(args) + ")";
        } else if constexpr (std::is_same_v<T, SetStatement>) {
          std::string out = "SET";
          if (!s.key.empty()) out += " " + s.key;
          if (s.value) out += " = " + quote_string(*s.value);
          return out;
        } else if constexpr (std::is_same_v<T, CacheTableStatement>) {
          std::string out = std::string("CACHE ") + (s.lazy ? "LAZY " : "") + "TABLE " +
                            quote_name(s.table.parts);
          if (s.as_query) out += " AS " + to_string(*s.as_query);
          return out;
        } else if constexpr (std::is_same_v<T, UncacheTableStatement>) {
          return std::string("UNCACHE TABLE ") + (s.if_exists ? "IF EXISTS " : "") +
                 quote_name(s.table.parts);
        } else if constexpr (std::is_same_v<T, ClearCacheStatement>) {
          return "CLEAR CACHE";
        }
      },
      node);
}

}  // namespace

std::string quote_identifier(std::string_view name) {
  if (is_plain_identifier(name)) return std::string(name);
  std::string out = "`";
  for (char c : name) {
    out += c;
    if (c == '`') out += '`';
  }
  return out + "`";
}

std::string quote_name(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += '.';
    out += quote_identifier(parts[i]);
  }
  return out;
}

std::string quote_string(std::string_view value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\'') {
      out += "''";
    } else if (c == '\\') {
      out += "\\\\";
    } else {
      out += c;
    }
  }
  return out + "'";
}

const char* binary_op_symbol(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
      return "+";
    case BinaryOp::kSubtract:
      return "-";
    case BinaryOp::kMultiply:
      return "*";
    case BinaryOp::kDivide:
      return "/";
    case BinaryOp::kModulo:
      return "%";
    case BinaryOp::kIntDivide:
      return "DIV";
    case BinaryOp::kConcat:
      return "||";
    case BinaryOp::kEq:
      return "=";
    case BinaryOp::kNotEq:
      return "!=";
    case BinaryOp::kLt:
      return "<";
    case BinaryOp::kLtEq:
      return "<=";
    case BinaryOp::kGt:
      return ">";
    case BinaryOp::kGtEq:
      return ">=";
    case BinaryOp::kNullSafeEq:
      return "<=>";
    case BinaryOp::kAnd:
      return "AND";
    case BinaryOp::kOr:
      return "OR";
  }
  return "?";
}

const char* statement_kind_name(StatementKind kind) {
  static constexpr const char* kNames[] = {
      "QUERY",
      "EXPLAIN",
      "DESCRIBE TABLE",
      "DESCRIBE NAMESPACE",
      "SHOW NAMESPACES",
      "SHOW TABLES",
      "SHOW TBLPROPERTIES",
      "SHOW CREATE TABLE",
      "SHOW CATALOGS",
      "SHOW COLUMNS",
      "USE",
      "CREATE NAMESPACE",
      "DROP NAMESPACE",
      "CREATE TABLE",
      "INSERT",
      "DELETE",
      "UPDATE",
      "MERGE",
      "ALTER TABLE",
      "DROP TABLE",
      "CALL",
      "SET",
      "CACHE TABLE",
      "UNCACHE TABLE",
      "CLEAR CACHE",
  };
  return kNames[static_cast<int>(kind)];
}

std::string to_string(const TypeName& t) {
  std::string out = type_keyword(t.kind);
  switch (t.kind) {
    case TypeKind::kDecimal:
      if (t.precision) {
        out += "(" + std::to_string(*t.precision);
        if (t.scale) out += ", " + std::to_string(*t.scale);
        out += ")";
      }
      break;
    case TypeKind::kVarchar:
    case TypeKind::kChar:
      if (t.length) out += "(" + std::to_string(*t.length) + ")";
      break;
    case TypeKind::kArray:
      out += "<" + to_string(*t.element) + ">";
      break;
    case TypeKind::kMap:
      out += "<" + to_string(*t.key) + ", " + to_string(*t.value) + ">";
      break;
    case TypeKind::kStruct: {
      std::vector<std::string> fields;
      for (const auto& f : t.fields) {
        std::string s = quote_identifier(f.name) + ": " + to_string(*f.type);
        if (f.not_null) s += " NOT NULL";
        if (f.comment) s += " COMMENT " + quote_string(*f.comment);
        fields.push_back(std::move(s));
      }
      out += "<" + join(fields) + ">";
      break;
    }
    default:
      break;
  }
  return out;
}

std::string to_string(const Expr& e) {
  if (internal::stack_low()) return "...";  // too deep to print: see stack_guard_internal.h
  switch (e.kind) {
    case ExprKind::kLiteral:
      return literal(e.as<LiteralExpr>());
    case ExprKind::kColumnRef:
      return quote_name(e.as<ColumnRefExpr>().parts);
    case ExprKind::kStar: {
      const auto& s = e.as<StarExpr>();
      return s.qualifier.empty() ? "*" : quote_name(s.qualifier) + ".*";
    }
    case ExprKind::kUnary: {
      const auto& u = e.as<UnaryExpr>();
      static constexpr const char* kOps[] = {"- ", "+ ", "NOT ", "~ "};
      // A sign before a number is read as part of the literal: -(1) is printed "(- (1))" so
      // that it reads back as a negation, not as the literal -1 (a fuzz finding).
      bool number = false;
      if (u.op == UnaryOp::kNegate && u.operand->kind == ExprKind::kLiteral) {
        LiteralKind k = u.operand->as<LiteralExpr>().literal_kind;
        number =
            k == LiteralKind::kInteger || k == LiteralKind::kDecimal || k == LiteralKind::kDouble;
      }
      std::string operand = to_string(*u.operand);
      if (number) operand = "(" + operand + ")";
      return "(" + std::string(kOps[static_cast<int>(u.op)]) + operand + ")";
    }
    case ExprKind::kBinary: {
      // a + b + c + ...: the left spine in a loop, so a long chain is printed in linear time
      // and without one nested call per term.
      std::vector<const BinaryExpr*> spine;
      const Expr* left = &e;
      while (left->kind == ExprKind::kBinary) {
        spine.push_back(&left->as<BinaryExpr>());
        left = spine.back()->left.get();
      }
      std::string out(spine.size(), '(');
      out += to_string(*left);
      for (size_t i = spine.size(); i-- > 0;) {
        out += ' ';
        out += binary_op_symbol(spine[i]->op);
        out += ' ';
        out += to_string(*spine[i]->right);
        out += ')';
      }
      return out;
    }
    case ExprKind::kIsNull: {
      const auto& i = e.as<IsNullExpr>();
      return "(" + to_string(*i.operand) + (i.negated ? " IS NOT NULL)" : " IS NULL)");
    }
    case ExprKind::kIsBool: {
      const auto& i = e.as<IsBoolExpr>();
      return "(" + to_string(*i.operand) + (i.negated ? " IS NOT " : " IS ") +
             (i.value ? "TRUE)" : "FALSE)");
    }
    case ExprKind::kInList: {
      const auto& i = e.as<InListExpr>();
      return "(" + to_string(*i.operand) + (i.negated ? " NOT IN (" : " IN (") + exprs(i.list) +
             "))";
    }
    case ExprKind::kInSubquery: {
      const auto& i = e.as<InSubqueryExpr>();
      return "(" + to_string(*i.operand) + (i.negated ? " NOT IN (" : " IN (") +
             to_string(*i.query) + "))";
    }
    case ExprKind::kBetween: {
      const auto& b = e.as<BetweenExpr>();
      return "(" + to_string(*b.operand) + (b.negated ? " NOT BETWEEN " : " BETWEEN ") +
             to_string(*b.low) + " AND " + to_string(*b.high) + ")";
    }
    case ExprKind::kLike: {
      const auto& l = e.as<LikeExpr>();
      static constexpr const char* kOps[] = {"LIKE ", "ILIKE ", "RLIKE "};
      std::string out = "(" + to_string(*l.operand) + (l.negated ? " NOT " : " ") +
                        kOps[static_cast<int>(l.op)] + to_string(*l.pattern);
      if (l.escape) out += " ESCAPE " + quote_string(*l.escape);
      return out + ")";
    }
    case ExprKind::kExists: {
      const auto& x = e.as<ExistsExpr>();
      return std::string(x.negated ? "(NOT EXISTS (" : "(EXISTS (") + to_string(*x.query) + "))";
    }
    case ExprKind::kScalarSubquery:
      return "(" + to_string(*e.as<ScalarSubqueryExpr>().query) + ")";
    case ExprKind::kCase: {
      const auto& c = e.as<CaseExpr>();
      std::string out = "CASE";
      if (c.operand) out += " " + to_string(*c.operand);
      for (const auto& w : c.whens) {
        out += " WHEN " + to_string(*w.condition) + " THEN " + to_string(*w.result);
      }
      if (c.else_result) out += " ELSE " + to_string(*c.else_result);
      return out + " END";
    }
    case ExprKind::kCast: {
      const auto& c = e.as<CastExpr>();
      return std::string(c.try_cast ? "TRY_CAST(" : "CAST(") + to_string(*c.operand) + " AS " +
             to_string(*c.type) + ")";
    }
    case ExprKind::kFunction: {
      const auto& f = e.as<FunctionExpr>();
      std::vector<std::string> name;
      for (const auto& part : f.name) {
        // Function names print bare when they are words (left, right, if); else quoted.
        bool word =
            !part.empty() && (std::isalpha(static_cast<unsigned char>(part[0])) || part[0] == '_');
        for (char c : part)
          word = word && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
        name.push_back(word ? part : quote_identifier(part));
      }
      return join(name, ".") + "(" + (f.distinct ? "DISTINCT " : "") + exprs(f.args) + ")";
    }
    case ExprKind::kSubscript: {
      const auto& s = e.as<SubscriptExpr>();
      return to_string(*s.base) + "[" + to_string(*s.index) + "]";
    }
    case ExprKind::kFieldAccess: {
      const auto& f = e.as<FieldAccessExpr>();
      std::string base = to_string(*f.base);
      if (f.base->kind == ExprKind::kColumnRef || f.base->kind == ExprKind::kLiteral) {
        base = "(" + base + ")";
      }
      return base + "." + quote_identifier(f.field);
    }
  }
  return "?";
}

std::string to_string(const Query& q) {
  std::string out;
  if (!q.ctes.empty()) {
    std::vector<std::string> ctes;
    for (const auto& c : q.ctes) {
      std::string s = quote_identifier(c.name);
      if (!c.columns.empty()) s += "(" + identifiers(c.columns) + ")";
      ctes.push_back(s + " AS (" + to_string(*c.query) + ")");
    }
    out = "WITH " + join(ctes) + " ";
  }
  out += body(*q.body);
  if (!q.order_by.empty()) out += " ORDER BY " + order_items(q.order_by);
  if (q.limit) out += " LIMIT " + to_string(*q.limit);
  if (q.offset) out += " OFFSET " + to_string(*q.offset);
  return out;
}

std::string to_string(const TableRef& r) {
  switch (r.kind) {
    case TableRefKind::kNamed: {
      const auto& t = r.as<NamedTableRef>();
      return quote_name(t.name.parts) + time_travel(t.time_travel) + alias_suffix(r);
    }
    case TableRefKind::kPath: {
      const auto& p = r.as<PathTableRef>();
      std::string path = "`";
      for (char c : p.path) path += c == '`' ? std::string("``") : std::string(1, c);
      return p.format + "." + path + "`" + time_travel(p.time_travel) + alias_suffix(r);
    }
    case TableRefKind::kFunction: {
      const auto& f = r.as<FunctionTableRef>();
      return quote_name(f.name) + "(" + exprs(f.args) + ")" + alias_suffix(r);
    }
    case TableRefKind::kSubquery:
      return "(" + to_string(*r.as<SubqueryTableRef>().query) + ")" + alias_suffix(r);
    case TableRefKind::kValues:
      return values_rows(r.as<ValuesTableRef>().rows) + alias_suffix(r);
    case TableRefKind::kJoin: {
      const auto& j = r.as<JoinTableRef>();
      std::string right = to_string(*j.right);
      if (j.right->kind == TableRefKind::kJoin && !j.right->alias) right = "(" + right + ")";
      std::string out = to_string(*j.left) + join_keyword(j.join_type) + right;
      if (j.on) out += " ON " + to_string(*j.on);
      if (!j.using_.empty()) out += " USING (" + identifiers(j.using_) + ")";
      if (r.alias) out = "(" + out + ")" + alias_suffix(r);
      return out;
    }
  }
  return "?";
}

std::string to_string(const Statement& s) { return statement_text(s); }

}  // namespace floe::sql::ast
