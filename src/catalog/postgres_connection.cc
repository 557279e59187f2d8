// PostgreSQL backend of SqlConnection over libpq. Every value travels as a parameter of
// PQexecParams; the '?' placeholders of the shared catalog SQL become $1, $2, ... here.
// Connection strings are URIs or libpq keyword strings; no message shows their password
// (libpq's own messages are scrubbed too, as they can quote pieces of the string).
#include <fmt/format.h>
#include <libpq-fe.h>

#include <cstdlib>

#include "catalog/sql_connection_internal.h"
#include "floe/catalog/catalog.h"

namespace floe {
namespace {

// libpq's messages span lines ("...refused\n\tIs the server running..."); floe prints one.
std::string one_line(std::string_view message) {
  std::string out;
  for (char c : message) {
    if (c == '\n' || c == '\t' || c == '\r') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// '?' -> '$n'. The catalog SQL has no '?' inside string literals.
std::string number_placeholders(std::string_view sql) {
  std::string out;
  int n = 0;
  for (char c : sql) {
    if (c == '?') {
      out += fmt::format("${}", ++n);
    } else {
      out += c;
    }
  }
  return out;
}

class PostgresConnection final : public SqlConnection {
 public:
  PostgresConnection(PGconn* conn, std::vector<std::string> secrets)
      : conn_(conn), secrets_(std::move(secrets)) {}
  ~PostgresConnection() override { PQfinish(conn_); }

  Result<std::vector<SqlRow>> query(std::string_view sql,
                                    const std::vector<SqlValue>& params) override {
    auto result = FLOE_TRY(run(sql, params));
    std::vector<SqlRow> rows;
    for (int r = 0; r < PQntuples(result.get()); ++r) {
      SqlRow row;
      for (int c = 0; c < PQnfields(result.get()); ++c) {
        if (PQgetisnull(result.get(), r, c)) {
          row.emplace_back();
        } else {
          row.emplace_back(
              std::string(PQgetvalue(result.get(), r, c), PQgetlength(result.get(), r, c)));
        }
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }

  Result<int64_t> execute(std::string_view sql, const std::vector<SqlValue>& params) override {
    auto result = FLOE_TRY(run(sql, params));
    const char* tuples = PQcmdTuples(result.get());
    return static_cast<int64_t>(tuples && *tuples ? std::atoll(tuples) : 0);
  }

  Status begin_write() override { return run("BEGIN", {}).status(); }
  Status commit() override { return run("COMMIT", {}).status(); }
  void rollback() override {
    if (PQtransactionStatus(conn_) != PQTRANS_IDLE) (void)run("ROLLBACK", {});
  }

  Result<std::vector<std::string>> table_columns(std::string_view table) override {
    auto rows = FLOE_TRY(
        query("SELECT column_name FROM information_schema.columns "
              "WHERE table_name = ? AND table_schema = current_schema() ORDER BY ordinal_position",
              {std::string(table)}));
    std::vector<std::string> out;
    for (auto& row : rows) out.push_back(row[0].value_or(""));
    return out;
  }

  bool connection_lost() const override { return lost_; }

 private:
  using ResultPtr = std::unique_ptr<PGresult, void (*)(PGresult*)>;

  Result<ResultPtr> run(std::string_view sql, const std::vector<SqlValue>& params) {
    lost_ = false;
    if (PQstatus(conn_) == CONNECTION_BAD) {
      // A dropped connection is re-established once; no statement was sent yet.
      PQreset(conn_);
      if (PQstatus(conn_) == CONNECTION_BAD) {
        return io_error("PostgreSQL connection lost: {}",
                        scrub_secrets(one_line(PQerrorMessage(conn_)), secrets_));
      }
    }
    std::string text = number_placeholders(sql);
    std::vector<const char*> values;
    for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
    ResultPtr result(PQexecParams(conn_, text.c_str(), static_cast<int>(values.size()), nullptr,
                                  values.data(), nullptr, nullptr, 0),
                     PQclear);
    ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return result;
    if (PQstatus(conn_) == CONNECTION_BAD) lost_ = true;
    std::string message = fmt::format(
        "PostgreSQL: {} (in: {})",
        scrub_secrets(one_line(result ? PQresultErrorMessage(result.get()) : PQerrorMessage(conn_)),
                      secrets_),
        sql);
    const char* state = result ? PQresultErrorField(result.get(), PG_DIAG_SQLSTATE) : nullptr;
    if (state && std::string_view(state) == "23505") {
      return Status(ErrorKind::kAlreadyExists, message);
    }
    return Status(ErrorKind::kIo, message);
  }

  PGconn* conn_;
  std::vector<std::string> secrets_;
  bool lost_ = false;
};

void ignore_notice(void*, const char*) {}

}  // namespace

Result<std::unique_ptr<SqlConnection>> open_postgres_connection(const std::string& uri) {
  std::vector<std::string> secrets = catalog_uri_secrets(uri);
  std::string shown = redact_catalog_uri(uri);
  // A string libpq cannot parse is refused before connecting; its message may quote a piece.
  char* parse_error = nullptr;
  PQconninfoOption* parsed = PQconninfoParse(uri.c_str(), &parse_error);
  if (!parsed) {
    std::string message =
        parse_error ? scrub_secrets(one_line(parse_error), secrets) : "out of memory";
    PQfreemem(parse_error);
    return invalid_argument("cannot parse the PostgreSQL connection string '{}': {}", shown,
                            message);
  }
  // What libpq took as the password is secret as well, however it was written.
  for (PQconninfoOption* o = parsed; o->keyword; ++o) {
    if (o->val && *o->val &&
        (std::string_view(o->keyword) == "password" ||
         std::string_view(o->keyword) == "sslpassword")) {
      secrets.emplace_back(o->val);
    }
  }
  PQconninfoFree(parsed);
  PGconn* conn = PQconnectdb(uri.c_str());
  if (!conn) return io_error("cannot connect to PostgreSQL at '{}': out of memory", shown);
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = scrub_secrets(one_line(PQerrorMessage(conn)), secrets);
    PQfinish(conn);
    return io_error("cannot connect to PostgreSQL at '{}': {}", shown, message);
  }
  // CREATE TABLE IF NOT EXISTS reports a NOTICE; it is not worth printing.
  PQsetNoticeProcessor(conn, ignore_notice, nullptr);
  return std::unique_ptr<SqlConnection>(
      std::make_unique<PostgresConnection>(conn, std::move(secrets)));
}

}  // namespace floe
