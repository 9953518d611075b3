// SPDX-License-Identifier: MIT
// The PostgreSQL store (libpq): a team's shared history. Values travel as text in
// both directions; numbers are written with enough digits to read back exactly.
#include "database.hpp"

#include <fmt/format.h>
#include <libpq-fe.h>

#include <cmath>
#include <cstdlib>

namespace cmh::history {
namespace {

// Type OIDs of the columns the schema uses (pg_type.h; stable since PostgreSQL 7).
constexpr Oid kInt8 = 20, kInt2 = 21, kInt4 = 23, kFloat4 = 700, kFloat8 = 701, kBool = 16;

/// The URL without its password, for messages.
std::string redacted(const std::string& url) {
  const std::size_t scheme = url.find("://");
  const std::size_t at = url.find('@');
  if (scheme == std::string::npos || at == std::string::npos) return url;
  const std::size_t colon = url.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon) + ":***" + url.substr(at);
}

std::string first_line(const char* text) {
  std::string s = text ? text : "";
  if (const std::size_t nl = s.find('\n'); nl != std::string::npos) s.erase(nl);
  return s;
}

void ignore_notice(void*, const char*) {}  // "relation ... already exists, skipping" and the like

class PostgresDatabase final : public Database {
 public:
  explicit PostgresDatabase(const std::string& url) : name_(redacted(url)) {
    // A default connect_timeout, so an unreachable host fails in seconds, not minutes;
    // the URL's own connect_timeout (expanded after it) wins.
    const char* keys[] = {"connect_timeout", "dbname", nullptr};
    const char* values[] = {"10", url.c_str(), nullptr};
    conn_ = PQconnectdbParams(keys, values, 1);
    if (conn_ == nullptr) throw HistoryError(name_ + ": cannot connect: out of memory");
    if (PQstatus(conn_) != CONNECTION_OK) {
      const std::string why = first_line(PQerrorMessage(conn_));
      PQfinish(conn_);
      conn_ = nullptr;
      throw HistoryError(name_ + ": cannot connect: " + why);
    }
    PQsetNoticeProcessor(conn_, ignore_notice, nullptr);
    execute("SET client_min_messages = warning", {});
    execute("SET extra_float_digits = 3", {});  // doubles read back exactly (PostgreSQL < 12)
  }
  ~PostgresDatabase() override { PQfinish(conn_); }

  void execute(const std::string& sql, const std::vector<Value>& params) override { run(sql, params, nullptr); }

  std::vector<Row> query(const std::string& sql, const std::vector<Value>& params) override {
    std::vector<Row> rows;
    run(sql, params, &rows);
    return rows;
  }

  void begin_exclusive() override {
    execute("BEGIN", {});
    // One writer at a time over the whole store (its key: "cmh-history" in ASCII).
    execute("SELECT pg_advisory_xact_lock(7236764524627391353)", {});
  }
  void commit() override { execute("COMMIT", {}); }
  void rollback() noexcept override {
    if (PGresult* r = PQexec(conn_, "ROLLBACK")) PQclear(r);
  }
  std::string name() const override { return name_; }

 private:
  void run(const std::string& sql, const std::vector<Value>& params, std::vector<Row>* rows) {
    std::vector<std::string> texts(params.size());
    std::vector<const char*> pointers(params.size(), nullptr);
    for (std::size_t i = 0; i < params.size(); ++i) {
      const Value& v = params[i];
      if (std::holds_alternative<std::monostate>(v)) continue;
      if (const auto* n = std::get_if<std::int64_t>(&v)) texts[i] = std::to_string(*n);
      else if (const auto* d = std::get_if<double>(&v))
        texts[i] = std::isnan(*d) ? "NaN" : std::isinf(*d) ? (*d > 0 ? "Infinity" : "-Infinity") : fmt::format("{}", *d);
      else texts[i] = std::get<std::string>(v);
      pointers[i] = texts[i].c_str();
    }
    PGresult* res = PQexecParams(conn_, sql.c_str(), static_cast<int>(params.size()), nullptr, pointers.data(),
                                 nullptr, nullptr, 0);
    struct Clear {
      PGresult* r;
      ~Clear() { PQclear(r); }
    } clear{res};
    const ExecStatusType status = PQresultStatus(res);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      const char* msg = res ? PQresultErrorMessage(res) : PQerrorMessage(conn_);
      throw HistoryError(name_ + ": " + first_line(msg));
    }
    if (rows == nullptr) return;
    const int n = PQntuples(res), columns = PQnfields(res);
    for (int r = 0; r < n; ++r) {
      Row& row = rows->emplace_back();
      for (int c = 0; c < columns; ++c) {
        if (PQgetisnull(res, r, c)) {
          row.emplace_back(std::monostate{});
          continue;
        }
        const char* text = PQgetvalue(res, r, c);
        const Oid type = PQftype(res, c);
        if (type == kInt8 || type == kInt4 || type == kInt2) row.emplace_back(static_cast<std::int64_t>(std::strtoll(text, nullptr, 10)));
        else if (type == kFloat8 || type == kFloat4) row.emplace_back(std::strtod(text, nullptr));
        else if (type == kBool) row.emplace_back(static_cast<std::int64_t>(text[0] == 't'));
        else row.emplace_back(std::string(text, static_cast<std::size_t>(PQgetlength(res, r, c))));
      }
    }
  }

  std::string name_;
  PGconn* conn_ = nullptr;
};

}  // namespace

std::unique_ptr<Database> open_postgres(const std::string& url) { return std::make_unique<PostgresDatabase>(url); }

}  // namespace cmh::history
