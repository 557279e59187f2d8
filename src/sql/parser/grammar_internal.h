// The recursive-descent parser shared by parser.cc (entry points, token helpers),
// expression_grammar.cc (expressions, types), query_grammar.cc (queries, table references) and
// statement_grammar.cc (every other statement).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "floe/util/result.h"
#include "sql/parser/ast_internal.h"
#include "sql/parser/lexer_internal.h"

namespace floe::sql::internal {
using namespace floe::sql::ast;  // NOLINT: the parser builds the AST

class Parser {
 public:
  Parser(std::string_view source, std::vector<Token> tokens)
      : source_(source), tokens_(std::move(tokens)) {}

  // Entry points.
  Result<std::vector<Statement>> script();
  Result<Statement> statement();
  Result<ExprPtr> expression_only();
  Result<QueryPtr> query_only();
  Result<TypePtr> type_only();
  Result<std::vector<SortTerm>> sort_terms_only();

  // --- token helpers (parser.cc) ---
  const Token& peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  const Token& advance() {
    const Token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool at_end() const { return peek().kind == TokenKind::kEnd; }
  bool is_kw(std::string_view kw, size_t ahead = 0) const;  // case-insensitive bare word
  bool is_sym(std::string_view sym, size_t ahead = 0) const;
  bool accept_kw(std::string_view kw);
  bool accept_sym(std::string_view sym);
  Status expect_kw(std::string_view kw);
  Status expect_sym(std::string_view sym);
  // An error at the current token ("expected <what>").
  Status error_expected(std::string_view what) const;
  Status error_at(const Token& token, std::string_view what) const;

  bool is_identifier_token(size_t ahead = 0) const;  // a word that is not reserved, or `quoted`
  Result<std::string> identifier(std::string_view what = "an identifier");
  // Any word (reserved or not) or a quoted identifier: after AS, after '.', for property keys.
  Result<std::string> any_identifier(std::string_view what = "an identifier");
  Result<QualifiedName> qualified_name(std::string_view what = "a name");
  Result<std::vector<std::string>> identifier_list_in_parens();
  Result<std::string> string_literal(std::string_view what = "a string literal");
  Result<int64_t> integer_literal(std::string_view what = "an integer");
  Result<PropertyList> property_list();
  Result<std::string> property_key();
  Result<std::string> property_value();

  // --- expressions and types (expression_grammar.cc) ---
  Result<ExprPtr> expr();
  Result<ExprPtr> or_expr();
  Result<ExprPtr> and_expr();
  Result<ExprPtr> not_expr();
  Result<ExprPtr> predicate();
  Result<ExprPtr> concat_expr();
  Result<ExprPtr> additive();
  Result<ExprPtr> multiplicative();
  Result<ExprPtr> unary();
  Result<ExprPtr> postfix();
  Result<ExprPtr> primary();
  Result<ExprPtr> number_literal();
  Result<ExprPtr> interval_literal(SourcePos pos);
  Result<ExprPtr> case_expr(SourcePos pos);
  Result<ExprPtr> cast_expr(SourcePos pos, bool try_cast);
  Result<ExprPtr> function_call(std::vector<std::string> name, SourcePos pos);
  Result<std::vector<ExprPtr>> expression_list_in_parens();
  Result<TypePtr> type();
  bool at_query_start(size_t ahead = 0) const;  // SELECT, WITH, VALUES, or ( query

  // --- queries (query_grammar.cc) ---
  Result<QueryPtr> query();
  Result<std::vector<CommonTableExpr>> with_clause();  // after WITH
  Result<QueryBodyPtr> set_expression();
  Result<QueryBodyPtr> set_term();
  Result<QueryBodyPtr> set_primary();
  Result<QueryBodyPtr> select_body();
  Result<std::vector<std::vector<ExprPtr>>> values_rows();
  Result<std::vector<OrderItem>> order_by_list();
  Result<TableRefPtr> relation();
  Result<TableRefPtr> primary_relation();
  Status table_alias(TableRef& ref, bool allow_columns);
  Result<std::optional<TimeTravel>> time_travel();
  bool can_be_implicit_alias(size_t ahead = 0) const;

  // --- statements (statement_grammar.cc) ---
  Result<StatementNode> statement_node();
  Result<StatementNode> explain();
  Result<StatementNode> describe();
  Result<StatementNode> show();
  Result<StatementNode> use();
  Result<StatementNode> create();
  Result<StatementNode> create_table(bool or_replace, bool replace);
  Result<StatementNode> drop();
  Result<StatementNode> insert();
  Result<StatementNode> delete_from();
  Result<StatementNode> update();
  Result<StatementNode> merge();
  Result<StatementNode> alter();
  Result<StatementNode> call();
  Result<StatementNode> set();
  Result<StatementNode> cache();
  Result<StatementNode> uncache();
  Result<TransformTerm> transform_term();
  Result<std::vector<SortTerm>> sort_terms();
  Result<std::vector<Assignment>> assignments();
  Result<ColumnDef> column_def();
  Result<ColumnPosition> column_position();
  Result<std::vector<std::string>> column_path();
  Result<RetentionPeriod> retention_period();
  Result<std::optional<std::string>> optional_alias();

  // Backtracking for the few places where '((' may start a query or an expression: tries a,
  // then b from the same token; on double failure returns the error of the one that got further.
  // An alternative that failed at a token fails again there at once: '((((...' would otherwise
  // retry every inner level from every outer one, 2^depth parses (a fuzz finding). Hitting the
  // nesting limit ends the statement: no other reading is tried (it would retry as deep).
  enum class Alternative : uint8_t { kParenthesisedExpr, kScalarSubquery, kInList, kInSubquery };
  template <typename T, typename A, typename B>
  Result<T> first_of(Alternative a_kind, A a, Alternative b_kind, B b) {
    size_t start = pos_;
    Result<T> ra = remembered<T>(a_kind, a);
    if (ra.ok() || too_deep_) return ra;
    size_t a_end = pos_;
    pos_ = start;
    Result<T> rb = remembered<T>(b_kind, b);
    if (rb.ok() || pos_ >= a_end) return rb;
    return ra;
  }
  template <typename T, typename F>
  Result<T> remembered(Alternative kind, F f) {
    uint64_t key = (static_cast<uint64_t>(pos_) << 2) | static_cast<uint64_t>(kind);
    if (auto it = failed_.find(key); it != failed_.end()) {
      pos_ = it->second.end;
      return it->second.status;
    }
    Result<T> r = f();
    if (!r.ok()) failed_.emplace(key, FailedAlternative{r.status(), pos_});
    return r;
  }
  bool at_query_keyword(size_t ahead) const {
    return is_kw("SELECT", ahead) || is_kw("WITH", ahead) || is_kw("VALUES", ahead);
  }

  // Nesting guard: deeply nested input gets an error instead of exhausting the stack.
  Status enter(const Token& at);
  struct DepthGuard {
    explicit DepthGuard(Parser& p) : parser(p) {}
    ~DepthGuard() { --parser.depth_; }
    Parser& parser;
  };
  // For loops that wrap the tree built so far in one more node (x IS NULL IS NULL ..., a[0][1]
  // ...): each turn counts as one level, given back when the loop's function returns.
  struct DepthRestore {
    explicit DepthRestore(Parser& p) : parser(p), saved(p.depth_) {}
    ~DepthRestore() { parser.depth_ = saved; }
    Parser& parser;
    int saved;
  };
  static constexpr int kMaxDepth = 1000;
  int depth_ = 0;
  bool too_deep_ = false;  // enter() refused a level: the statement fails
  struct FailedAlternative {
    Status status;
    size_t end;  // pos_ where it failed
  };
  std::unordered_map<uint64_t, FailedAlternative> failed_;  // by token position << 2 | kind

  std::string_view source_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  // Token index of the last alias taken without AS; an error on the token right after it is
  // reported at the alias ("SELECT a FORM t" -> near 'FORM').
  size_t implicit_alias_ = static_cast<size_t>(-1);
};

bool is_reserved_word(std::string_view word);

}  // namespace floe::sql::internal
