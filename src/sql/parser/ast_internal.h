// The syntax tree of floe's Spark-SQL dialect, as produced by the parser
// (sql/parser/parser_internal.h).
//
// Expressions, table references and query bodies are class families: a base struct with a
// `kind` enum and one derived struct per kind. A binder switches on `kind` and downcasts with
// `as<T>()`:
//
//   switch (expr.kind) {
//     case ExprKind::kBinary: { const auto& b = expr.as<BinaryExpr>(); ... }
//     ...
//   }
//
// Statements are values (`Statement`) holding a std::variant of one struct per statement;
// `Statement::kind()` names the alternative and `as<T>()` returns it. Every node carries a
// 1-based line and column: where it starts, or for an infix/postfix operator (binary, IS, IN,
// BETWEEN, LIKE, [ ], .field, ::) the operator's token. Names keep the case and spelling the
// user wrote (backquotes removed); resolution is case-insensitive and belongs to the binder.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace floe::sql::ast {

struct SourcePos {
  uint32_t line = 0;
  uint32_t column = 0;
};

// A dotted name as written: `lakehouse.analytics.sales`, `system.bucket`, `a.b.c`.
struct QualifiedName {
  std::vector<std::string> parts;
  SourcePos pos;
};

// Ordered key/value pairs: TBLPROPERTIES, DBPROPERTIES, OPTIONS. Values are the literal's text
// ('2' and 2 both give "2").
using PropertyList = std::vector<std::pair<std::string, std::string>>;

// ---------------------------------------------------------------------------------------------
// Types: Spark type names as a tree (the binder maps them to Iceberg types).

enum class TypeKind {
  kBoolean,
  kTinyint,   // TINYINT, BYTE
  kSmallint,  // SMALLINT, SHORT
  kInt,       // INT, INTEGER
  kBigint,    // BIGINT, LONG
  kFloat,     // FLOAT, REAL
  kDouble,    // DOUBLE
  kDecimal,   // DECIMAL(p, s), DEC, NUMERIC
  kString,
  kVarchar,  // VARCHAR(n)
  kChar,     // CHAR(n)
  kBinary,
  kDate,
  kTimestamp,     // TIMESTAMP (Spark: with local time zone = Iceberg timestamptz)
  kTimestampNtz,  // TIMESTAMP_NTZ (Iceberg timestamp)
  kTimestampLtz,  // TIMESTAMP_LTZ
  kUuid,
  kTime,
  kArray,
  kMap,
  kStruct,
};

struct TypeName;
using TypePtr = std::unique_ptr<TypeName>;

struct StructField {
  std::string name;
  TypePtr type;
  bool not_null = false;
  std::optional<std::string> comment;
  SourcePos pos;
};

struct TypeName {
  TypeKind kind = TypeKind::kString;
  SourcePos pos;
  std::string spelling;              // the type keyword as written, e.g. "INTEGER"
  std::optional<int32_t> precision;  // DECIMAL(p[, s]); absent when written bare
  std::optional<int32_t> scale;
  std::optional<int32_t> length;  // VARCHAR(n), CHAR(n)
  TypePtr element;                // ARRAY<element>
  TypePtr key;                    // MAP<key, value>
  TypePtr value;
  std::vector<StructField> fields;  // STRUCT<...>
};

// ---------------------------------------------------------------------------------------------
// Expressions.

enum class ExprKind {
  kLiteral,
  kColumnRef,       // a, t.a, a.b.c (parts; the binder decides table/column/field)
  kStar,            // *, t.*
  kUnary,           // -x, +x, NOT x, ~x
  kBinary,          // arithmetic, ||, comparisons, AND, OR
  kIsNull,          // x IS [NOT] NULL (also IS [NOT] UNKNOWN)
  kIsBool,          // x IS [NOT] TRUE|FALSE
  kInList,          // x [NOT] IN (a, b, ...)
  kInSubquery,      // x [NOT] IN (SELECT ...)
  kBetween,         // x [NOT] BETWEEN a AND b
  kLike,            // x [NOT] LIKE|ILIKE|RLIKE p [ESCAPE 'c']
  kExists,          // [NOT] EXISTS (SELECT ...)
  kScalarSubquery,  // (SELECT ...)
  kCase,            // CASE [operand] WHEN .. THEN .. [ELSE ..] END
  kCast,            // CAST(x AS t), TRY_CAST(x AS t), x::t
  kFunction,        // f(args), system.bucket(16, id), count(*), count(DISTINCT a)
  kSubscript,       // base[index]
  kFieldAccess,     // base.field after a subscript, call or parenthesis
};

struct Query;
using QueryPtr = std::unique_ptr<Query>;

struct Expr {
  explicit Expr(ExprKind k, SourcePos p = {}) : kind(k), pos(p) {}
  virtual ~Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;

  template <typename T>
  const T& as() const {
    return static_cast<const T&>(*this);
  }
  template <typename T>
  T& as() {
    return static_cast<T&>(*this);
  }

  const ExprKind kind;
  SourcePos pos;
};
using ExprPtr = std::unique_ptr<Expr>;

enum class LiteralKind {
  kNull,
  kBoolean,
  kInteger,       // 42, 42L, 42S, 42Y: text holds the digits; int_value set when it fits int64
  kDecimal,       // 1.5, 1.5BD, 10BD: text holds the digits
  kDouble,        // 1e3, 1.5D, 1.5F (exponent or D/F suffix)
  kString,        // 'abc' or "abc": text holds the decoded value
  kDate,          // DATE '2024-06-15': text holds the string
  kTimestamp,     // TIMESTAMP '...' / TIMESTAMP_LTZ '...'
  kTimestampNtz,  // TIMESTAMP_NTZ '...'
  kInterval,      // INTERVAL '1' DAY, INTERVAL 3 HOURS, INTERVAL '1 day 2 hours'
  kBinary,        // X'CAFE': text holds the decoded bytes
};

struct IntervalPart {
  std::string value;  // "1", "-3", "1 day", "1-2" (as written, unquoted)
  std::string unit;   // upper-case singular ("DAY", "HOUR", "YEAR TO MONTH"); "" when absent
};

struct LiteralExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kLiteral;
  explicit LiteralExpr(LiteralKind lk, SourcePos p = {}) : Expr(kKind, p), literal_kind(lk) {}
  explicit LiteralExpr(SourcePos p = {}) : Expr(kKind, p), literal_kind(LiteralKind::kNull) {}

  LiteralKind literal_kind;
  std::string text;
  bool bool_value = false;
  std::optional<int64_t> int_value;  // kInteger that fits in int64
  char suffix = 0;                   // 'L','S','Y','D','F','B' (BD) when written; else 0
  std::vector<IntervalPart> interval;
};

struct ColumnRefExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kColumnRef;
  explicit ColumnRefExpr(SourcePos p = {}) : Expr(kKind, p) {}
  std::vector<std::string> parts;
};

struct StarExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kStar;
  explicit StarExpr(SourcePos p = {}) : Expr(kKind, p) {}
  std::vector<std::string> qualifier;  // empty for a bare *
};

enum class UnaryOp { kNegate, kPlus, kNot, kBitNot };

struct UnaryExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kUnary;
  explicit UnaryExpr(SourcePos p = {}) : Expr(kKind, p) {}
  UnaryOp op = UnaryOp::kNot;
  ExprPtr operand;
};

enum class BinaryOp {
  kAdd,
  kSubtract,
  kMultiply,
  kDivide,
  kModulo,
  kIntDivide,  // DIV
  kConcat,     // ||
  kEq,         // = and ==
  kNotEq,      // != and <>
  kLt,
  kLtEq,
  kGt,
  kGtEq,
  kNullSafeEq,  // <=>
  kAnd,
  kOr,
};

struct BinaryExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kBinary;
  explicit BinaryExpr(SourcePos p = {}) : Expr(kKind, p) {}
  // Frees a long left-deep chain (a + b + c + ...) in a loop, not one nested call per term.
  ~BinaryExpr() override {
    ExprPtr next = std::move(left);
    while (next && next->kind == kKind) {
      ExprPtr inner = std::move(static_cast<BinaryExpr&>(*next).left);
      next = std::move(inner);
    }
  }
  BinaryOp op = BinaryOp::kEq;
  ExprPtr left;
  ExprPtr right;
};

struct IsNullExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kIsNull;
  explicit IsNullExpr(SourcePos p = {}) : Expr(kKind, p) {}
  ExprPtr operand;
  bool negated = false;
};

struct IsBoolExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kIsBool;
  explicit IsBoolExpr(SourcePos p = {}) : Expr(kKind, p) {}
  ExprPtr operand;
  bool value = true;  // IS TRUE / IS FALSE
  bool negated = false;
};

struct InListExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kInList;
  explicit InListExpr(SourcePos p = {}) : Expr(kKind, p) {}
  ExprPtr operand;
  std::vector<ExprPtr> list;
  bool negated = false;
};

struct InSubqueryExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kInSubquery;
  explicit InSubqueryExpr(SourcePos p = {}) : Expr(kKind, p) {}
  ExprPtr operand;
  QueryPtr query;
  bool negated = false;
};

struct BetweenExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kBetween;
  explicit BetweenExpr(SourcePos p = {}) : Expr(kKind, p) {}
  ExprPtr operand;
  ExprPtr low;
  ExprPtr high;
  bool negated = false;
};

enum class LikeOp { kLike, kILike, kRLike };  // RLIKE and REGEXP give kRLike

struct LikeExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kLike;
  explicit LikeExpr(SourcePos p = {}) : Expr(kKind, p) {}
  LikeOp op = LikeOp::kLike;
  ExprPtr operand;
  ExprPtr pattern;
  std::optional<std::string> escape;
  bool negated = false;
};

struct ExistsExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kExists;
  explicit ExistsExpr(SourcePos p = {}) : Expr(kKind, p) {}
  QueryPtr query;
  bool negated = false;  // NOT EXISTS (...) written directly
};

struct ScalarSubqueryExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kScalarSubquery;
  explicit ScalarSubqueryExpr(SourcePos p = {}) : Expr(kKind, p) {}
  QueryPtr query;
};

struct WhenClause {
  ExprPtr condition;  // the WHEN value for a simple CASE
  ExprPtr result;
};

struct CaseExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kCase;
  explicit CaseExpr(SourcePos p = {}) : Expr(kKind, p) {}
  ExprPtr operand;  // null for a searched CASE
  std::vector<WhenClause> whens;
  ExprPtr else_result;  // may be null
};

struct CastExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kCast;
  explicit CastExpr(SourcePos p = {}) : Expr(kKind, p) {}
  ExprPtr operand;
  TypePtr type;
  bool try_cast = false;
};

struct FunctionExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kFunction;
  explicit FunctionExpr(SourcePos p = {}) : Expr(kKind, p) {}
  std::vector<std::string> name;  // 1-3 parts as written: {"count"}, {"system", "bucket"}
  std::vector<ExprPtr> args;      // count(*) holds one StarExpr
  bool distinct = false;
};

struct SubscriptExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kSubscript;
  explicit SubscriptExpr(SourcePos p = {}) : Expr(kKind, p) {}
  ExprPtr base;
  ExprPtr index;
};

struct FieldAccessExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kFieldAccess;
  explicit FieldAccessExpr(SourcePos p = {}) : Expr(kKind, p) {}
  ExprPtr base;
  std::string field;
};

// ---------------------------------------------------------------------------------------------
// Queries.

struct OrderItem {
  ExprPtr expr;  // an integer literal is an ordinal
  bool descending = false;
  std::optional<bool> nulls_first;  // absent: the default for the direction
};

struct TableRef;
using TableRefPtr = std::unique_ptr<TableRef>;

enum class TableRefKind {
  kNamed,     // a catalog table or metadata table, with optional time travel
  kPath,      // iceberg.`path`, parquet.`file`, csv.`file`
  kFunction,  // range(10), range(1, 10, 2)
  kSubquery,  // (SELECT ...) AS alias
  kValues,    // VALUES (1, 'a'), (2, 'b') AS t(id, s)
  kJoin,
};

struct TableRef {
  TableRef(TableRefKind k, SourcePos p) : kind(k), pos(p) {}
  virtual ~TableRef() = default;
  TableRef(const TableRef&) = delete;
  TableRef& operator=(const TableRef&) = delete;

  template <typename T>
  const T& as() const {
    return static_cast<const T&>(*this);
  }
  template <typename T>
  T& as() {
    return static_cast<T&>(*this);
  }

  const TableRefKind kind;
  SourcePos pos;
  std::optional<std::string> alias;
  std::vector<std::string> column_aliases;  // AS t(a, b)
};

enum class TimeTravelKind { kVersion, kTimestamp };

// FOR VERSION AS OF 123 | 'branch', FOR SYSTEM_VERSION AS OF, VERSION AS OF;
// FOR TIMESTAMP AS OF '...', FOR SYSTEM_TIME AS OF, TIMESTAMP AS OF.
struct TimeTravel {
  TimeTravelKind kind = TimeTravelKind::kVersion;
  ExprPtr value;
};

struct NamedTableRef : TableRef {
  static constexpr TableRefKind kKind = TableRefKind::kNamed;
  explicit NamedTableRef(SourcePos p = {}) : TableRef(kKind, p) {}
  QualifiedName name;  // 1 to 4 parts
  std::optional<TimeTravel> time_travel;
};

struct PathTableRef : TableRef {
  static constexpr TableRefKind kKind = TableRefKind::kPath;
  explicit PathTableRef(SourcePos p = {}) : TableRef(kKind, p) {}
  std::string format;  // lower-case: "iceberg", "parquet", "csv", "json", "avro", "orc"
  std::string path;
  std::optional<TimeTravel> time_travel;
};

struct FunctionTableRef : TableRef {
  static constexpr TableRefKind kKind = TableRefKind::kFunction;
  explicit FunctionTableRef(SourcePos p = {}) : TableRef(kKind, p) {}
  std::vector<std::string> name;
  std::vector<ExprPtr> args;
};

struct SubqueryTableRef : TableRef {
  static constexpr TableRefKind kKind = TableRefKind::kSubquery;
  explicit SubqueryTableRef(SourcePos p = {}) : TableRef(kKind, p) {}
  QueryPtr query;
};

struct ValuesTableRef : TableRef {
  static constexpr TableRefKind kKind = TableRefKind::kValues;
  explicit ValuesTableRef(SourcePos p = {}) : TableRef(kKind, p) {}
  std::vector<std::vector<ExprPtr>> rows;
};

enum class JoinType { kInner, kLeft, kRight, kFull, kCross, kLeftSemi, kLeftAnti };

struct JoinTableRef : TableRef {
  static constexpr TableRefKind kKind = TableRefKind::kJoin;
  explicit JoinTableRef(SourcePos p = {}) : TableRef(kKind, p) {}
  JoinType join_type = JoinType::kInner;
  TableRefPtr left;
  TableRefPtr right;
  ExprPtr on;                       // null for CROSS JOIN, USING, or a join without condition
  std::vector<std::string> using_;  // USING (a, b)
};

struct SelectItem {
  ExprPtr expr;  // StarExpr for * and t.*
  std::optional<std::string> alias;
  SourcePos pos;
};

enum class QueryBodyKind { kSelect, kSetOp, kValues, kNested };

struct QueryBody {
  QueryBody(QueryBodyKind k, SourcePos p) : kind(k), pos(p) {}
  virtual ~QueryBody() = default;
  QueryBody(const QueryBody&) = delete;
  QueryBody& operator=(const QueryBody&) = delete;

  template <typename T>
  const T& as() const {
    return static_cast<const T&>(*this);
  }
  template <typename T>
  T& as() {
    return static_cast<T&>(*this);
  }

  const QueryBodyKind kind;
  SourcePos pos;
};
using QueryBodyPtr = std::unique_ptr<QueryBody>;

struct SelectBody : QueryBody {
  static constexpr QueryBodyKind kKind = QueryBodyKind::kSelect;
  explicit SelectBody(SourcePos p = {}) : QueryBody(kKind, p) {}
  bool distinct = false;
  std::vector<SelectItem> items;
  std::vector<TableRefPtr> from;  // comma-separated relations (implicit cross joins)
  ExprPtr where;
  std::vector<ExprPtr> group_by;  // integer literals are ordinals
  ExprPtr having;
};

enum class SetOpKind { kUnion, kIntersect, kExcept };

struct SetOpBody : QueryBody {
  static constexpr QueryBodyKind kKind = QueryBodyKind::kSetOp;
  explicit SetOpBody(SourcePos p = {}) : QueryBody(kKind, p) {}
  // Frees a long chain (q1 UNION ALL q2 UNION ALL ...) in a loop, not one nested call per branch.
  ~SetOpBody() override {
    QueryBodyPtr next = std::move(left);
    while (next && next->kind == kKind) {
      QueryBodyPtr inner = std::move(static_cast<SetOpBody&>(*next).left);
      next = std::move(inner);
    }
  }
  SetOpKind op = SetOpKind::kUnion;
  bool all = false;  // UNION ALL; UNION and UNION DISTINCT remove duplicates
  QueryBodyPtr left;
  QueryBodyPtr right;
};

struct ValuesBody : QueryBody {
  static constexpr QueryBodyKind kKind = QueryBodyKind::kValues;
  explicit ValuesBody(SourcePos p = {}) : QueryBody(kKind, p) {}
  std::vector<std::vector<ExprPtr>> rows;
};

// A parenthesised query with its own WITH / ORDER BY / LIMIT.
struct NestedBody : QueryBody {
  static constexpr QueryBodyKind kKind = QueryBodyKind::kNested;
  explicit NestedBody(SourcePos p = {}) : QueryBody(kKind, p) {}
  QueryPtr query;
};

struct CommonTableExpr {
  std::string name;
  std::vector<std::string> columns;  // WITH t(a, b) AS (...)
  QueryPtr query;
  SourcePos pos;
};

struct Query {
  SourcePos pos;
  std::vector<CommonTableExpr> ctes;
  QueryBodyPtr body;
  std::vector<OrderItem> order_by;
  ExprPtr limit;
  ExprPtr offset;
};

// ---------------------------------------------------------------------------------------------
// Statements.

struct Statement;

struct QueryStatement {
  QueryPtr query;
};

enum class ExplainMode { kDefault, kExtended, kFormatted, kCost, kCodegen };

struct ExplainStatement {
  ExplainMode mode = ExplainMode::kDefault;
  std::unique_ptr<Statement> statement;
};

struct DescribeTableStatement {
  QualifiedName table;
  bool extended = false;            // EXTENDED or FORMATTED
  bool formatted = false;           // FORMATTED
  std::vector<std::string> column;  // DESCRIBE t col (optional)
};

struct DescribeNamespaceStatement {
  QualifiedName ns;
  bool extended = false;
};

struct ShowNamespacesStatement {
  std::optional<QualifiedName> in;
  std::optional<std::string> like;
};

struct ShowTablesStatement {
  std::optional<QualifiedName> in;
  std::optional<std::string> like;
};

struct ShowTblPropertiesStatement {
  QualifiedName table;
  std::optional<std::string> key;
};

struct ShowCreateTableStatement {
  QualifiedName table;
};

struct ShowCatalogsStatement {};

struct ShowColumnsStatement {
  QualifiedName table;
};

struct UseStatement {
  QualifiedName ns;
  bool namespace_keyword = false;  // USE NAMESPACE x
};

struct CreateNamespaceStatement {
  QualifiedName ns;
  bool if_not_exists = false;
  std::optional<std::string> comment;
  std::optional<std::string> location;
  PropertyList properties;
};

struct DropNamespaceStatement {
  QualifiedName ns;
  bool if_exists = false;
  bool cascade = false;
};

struct ColumnDef {
  std::string name;
  TypePtr type;
  bool not_null = false;
  std::optional<std::string> comment;
  SourcePos pos;
};

// A partition or sort term: `days(ts)`, `bucket(16, id)`, `truncate(4, s)`, `country`.
// transform is lower-case: "identity" for a bare column, else the function name as written
// ("years"/"year", "months", "days", "hours", "bucket", "truncate", "void", ...).
struct TransformTerm {
  std::string transform;
  std::optional<int32_t> param;     // bucket count or truncate width
  std::vector<std::string> column;  // source column (dotted for nested fields)
  SourcePos pos;
};

struct CreateTableStatement {
  QualifiedName table;
  bool or_replace = false;  // CREATE OR REPLACE TABLE
  bool replace = false;     // REPLACE TABLE
  bool if_not_exists = false;
  std::vector<ColumnDef> columns;
  std::optional<std::string> using_;  // USING iceberg (as written)
  std::vector<TransformTerm> partitioned_by;
  std::optional<std::string> location;
  std::optional<std::string> comment;
  PropertyList properties;  // TBLPROPERTIES
  PropertyList options;     // OPTIONS
  QueryPtr as_query;        // CREATE TABLE ... AS SELECT
};

struct InsertStatement {
  QualifiedName table;
  bool overwrite = false;
  std::vector<std::string> columns;  // INSERT INTO t (a, b)
  // PARTITION (k = v, k2): value null for a dynamic partition column.
  std::vector<std::pair<std::string, ExprPtr>> partition;
  QueryPtr source;  // VALUES lists arrive as a Query whose body is ValuesBody
};

struct DeleteStatement {
  QualifiedName table;
  std::optional<std::string> alias;
  ExprPtr where;  // may be null
};

struct Assignment {
  std::vector<std::string> column;  // a or a.b (nested field)
  ExprPtr value;
  SourcePos pos;
};

struct UpdateStatement {
  QualifiedName table;
  std::optional<std::string> alias;
  std::vector<Assignment> assignments;
  ExprPtr where;
};

enum class MergeMatch { kMatched, kNotMatched, kNotMatchedBySource };
enum class MergeAction { kUpdate, kUpdateStar, kDelete, kInsert, kInsertStar };

struct MergeClause {
  MergeMatch match = MergeMatch::kMatched;
  ExprPtr condition;  // WHEN MATCHED AND <condition>
  MergeAction action = MergeAction::kDelete;
  std::vector<Assignment> assignments;      // UPDATE SET
  std::vector<std::string> insert_columns;  // INSERT (cols)
  std::vector<ExprPtr> insert_values;       // VALUES (...)
  SourcePos pos;
};

struct MergeStatement {
  QualifiedName target;
  std::optional<std::string> target_alias;
  TableRefPtr source;  // a table, subquery or VALUES, with its alias
  ExprPtr on;
  std::vector<MergeClause> clauses;
};

// ALTER TABLE actions.
struct SetTblProperties {
  PropertyList properties;
};
struct UnsetTblProperties {
  bool if_exists = false;
  std::vector<std::string> keys;
};
struct RenameTable {
  QualifiedName to;
};
enum class ColumnPositionKind { kDefault, kFirst, kAfter };
struct ColumnPosition {
  ColumnPositionKind kind = ColumnPositionKind::kDefault;
  std::vector<std::string> after;
};
struct AddColumnDef {
  std::vector<std::string> name;  // nested: point.z
  TypePtr type;
  bool not_null = false;
  std::optional<std::string> comment;
  ExprPtr default_value;  // DEFAULT expr (v3: initial-default and write-default)
  ColumnPosition position;
  SourcePos pos;
};
struct AddColumns {
  std::vector<AddColumnDef> columns;
};
struct DropColumns {
  bool if_exists = false;
  std::vector<std::vector<std::string>> columns;
};
struct RenameColumn {
  std::vector<std::string> column;
  std::string new_name;
};
struct AlterColumn {
  std::vector<std::string> column;
  TypePtr new_type;                        // TYPE t
  std::optional<std::string> comment;      // COMMENT '..'
  std::optional<ColumnPosition> position;  // FIRST | AFTER x
  std::optional<bool> not_null;            // SET NOT NULL -> true, DROP NOT NULL -> false
  ExprPtr set_default;                     // SET DEFAULT expr (v3 write-default)
  bool drop_default = false;               // DROP DEFAULT
};
struct AddPartitionField {
  TransformTerm term;
  std::optional<std::string> name;  // AS name
};
struct DropPartitionField {
  TransformTerm term;  // a bare name parses as an identity term on that name
};
struct ReplacePartitionField {
  TransformTerm from;
  TransformTerm to;
  std::optional<std::string> name;
};
struct RenamePartitionField {
  std::string from;
  std::string to;
};
struct SortTerm {
  TransformTerm term;
  bool descending = false;
  std::optional<bool> nulls_first;
};
// WRITE [LOCALLY] ORDERED BY ..., WRITE DISTRIBUTED BY PARTITION [[LOCALLY] ORDERED BY ...],
// WRITE UNORDERED.
struct SetWriteOrder {
  bool unordered = false;
  bool distributed_by_partition = false;
  bool locally = false;
  std::vector<SortTerm> order;
};
struct SetIdentifierFields {
  std::vector<std::vector<std::string>> columns;
};
struct DropIdentifierFields {
  std::vector<std::vector<std::string>> columns;
};
struct RetentionPeriod {
  int64_t amount = 0;
  std::string unit;  // "DAYS", "HOURS", "MINUTES" (upper case, as written)
};
// CREATE [OR REPLACE] BRANCH|TAG [IF NOT EXISTS] name [AS OF VERSION n] [RETAIN n DAYS]
// [WITH SNAPSHOT RETENTION [n SNAPSHOTS] [n DAYS]]; REPLACE BRANCH|TAG name ...
struct CreateRef {
  bool tag = false;
  bool create = true;    // CREATE
  bool replace = false;  // OR REPLACE, or REPLACE alone
  bool if_not_exists = false;
  std::string name;
  std::optional<int64_t> snapshot_id;
  std::optional<RetentionPeriod> retain;
  std::optional<int64_t> min_snapshots_to_keep;
  std::optional<RetentionPeriod> max_snapshot_age;
};
struct DropRef {
  bool tag = false;
  bool if_exists = false;
  std::string name;
};

using AlterTableAction =
    std::variant<SetTblProperties, UnsetTblProperties, RenameTable, AddColumns, DropColumns,
                 RenameColumn, AlterColumn, AddPartitionField, DropPartitionField,
                 ReplacePartitionField, RenamePartitionField, SetWriteOrder, SetIdentifierFields,
                 DropIdentifierFields, CreateRef, DropRef>;

struct AlterTableStatement {
  QualifiedName table;
  AlterTableAction action;
};

struct DropTableStatement {
  QualifiedName table;
  bool if_exists = false;
  bool purge = false;
  bool view = false;  // DROP VIEW: a temporary view (CACHE TABLE v AS SELECT)
};

struct CallArgument {
  std::optional<std::string> name;  // name => value
  ExprPtr value;
  SourcePos pos;
};

struct CallStatement {
  QualifiedName procedure;  // lakehouse.system.rewrite_manifests
  std::vector<CallArgument> args;
};

// SET key = value; SET key (show one); SET (show all).
struct SetStatement {
  std::string key;
  std::optional<std::string> value;
};

// CACHE [LAZY] TABLE name [[AS] query]: keep a table's rows (or, with a query, a temporary
// view's) in the session's memory.
struct CacheTableStatement {
  QualifiedName table;
  bool lazy = false;
  QueryPtr as_query;
};

// UNCACHE TABLE [IF EXISTS] name.
struct UncacheTableStatement {
  QualifiedName table;
  bool if_exists = false;
};

// CLEAR CACHE.
struct ClearCacheStatement {};

// The order of the alternatives matches StatementKind.
enum class StatementKind {
  kQuery,
  kExplain,
  kDescribeTable,
  kDescribeNamespace,
  kShowNamespaces,
  kShowTables,
  kShowTblProperties,
  kShowCreateTable,
  kShowCatalogs,
  kShowColumns,
  kUse,
  kCreateNamespace,
  kDropNamespace,
  kCreateTable,
  kInsert,
  kDelete,
  kUpdate,
  kMerge,
  kAlterTable,
  kDropTable,
  kCall,
  kSet,
  kCacheTable,
  kUncacheTable,
  kClearCache,
};

using StatementNode = std::variant<
    QueryStatement, ExplainStatement, DescribeTableStatement, DescribeNamespaceStatement,
    ShowNamespacesStatement, ShowTablesStatement, ShowTblPropertiesStatement,
    ShowCreateTableStatement, ShowCatalogsStatement, ShowColumnsStatement, UseStatement,
    CreateNamespaceStatement, DropNamespaceStatement, CreateTableStatement, InsertStatement,
    DeleteStatement, UpdateStatement, MergeStatement, AlterTableStatement, DropTableStatement,
    CallStatement, SetStatement, CacheTableStatement, UncacheTableStatement, ClearCacheStatement>;

struct Statement {
  StatementNode node;
  SourcePos pos;
  std::string text;  // the statement's source text, without the trailing ';'

  StatementKind kind() const { return static_cast<StatementKind>(node.index()); }
  template <typename T>
  const T& as() const {
    return std::get<T>(node);
  }
  template <typename T>
  T& as() {
    return std::get<T>(node);
  }
  template <typename T>
  bool is() const {
    return std::holds_alternative<T>(node);
  }
};

// ---------------------------------------------------------------------------------------------
// Canonical printing: expressions fully parenthesised, keywords upper-case, identifiers
// backquoted when needed. Parsing the output gives the same tree (and the same text).

std::string to_string(const Expr& expr);
std::string to_string(const TypeName& type);
std::string to_string(const Query& query);
std::string to_string(const TableRef& ref);
std::string to_string(const Statement& statement);

// `name` or `na``me` when the identifier needs quoting; a.b.c for a list of parts.
std::string quote_identifier(std::string_view name);
std::string quote_name(const std::vector<std::string>& parts);
// 'it''s' style SQL string literal.
std::string quote_string(std::string_view value);

const char* binary_op_symbol(BinaryOp op);  // "+", "=", "AND", ...
const char* statement_kind_name(StatementKind kind);

}  // namespace floe::sql::ast
