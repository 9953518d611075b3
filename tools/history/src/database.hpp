// SPDX-License-Identifier: MIT
// The store's connection, one interface over SQLite (a file, the default) and
// PostgreSQL (a team's shared server), so that the schema, the queries and the tests
// are the same on both. SQL is written once, in the dialect both accept, with $1, $2,
// ... placeholders.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace cmh::history {

/// Bad input or an unusable store: the message is the one line cmh-history prints
/// before exiting 2.
struct HistoryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A value bound to a placeholder or read from a column. SQL NULL is monostate.
using Value = std::variant<std::monostate, std::int64_t, double, std::string>;
using Row = std::vector<Value>;

double as_double(const Value& v);        ///< NULL (and SQLite's NaN, stored as NULL) is NaN
std::int64_t as_int(const Value& v);     ///< NULL is 0
std::string as_text(const Value& v);     ///< NULL is ""

class Database {
 public:
  virtual ~Database() = default;
  virtual void execute(const std::string& sql, const std::vector<Value>& params = {}) = 0;
  virtual std::vector<Row> query(const std::string& sql, const std::vector<Value>& params = {}) = 0;
  /// One transaction that also keeps concurrent writers out until commit (SQLite:
  /// BEGIN IMMEDIATE; PostgreSQL: a transaction-wide advisory lock).
  virtual void begin_exclusive() = 0;
  virtual void commit() = 0;
  virtual void rollback() noexcept = 0;
  /// "cmh-history.sqlite", "postgresql://host:5432/db" (no password): for messages.
  virtual std::string name() const = 0;
};

/// `url`: a path (SQLite) or postgresql://... / postgres://... (libpq; "postgresql://"
/// alone takes everything from libpq's PG* environment). A SQLite file that does not
/// exist is created only when `create` is set; otherwise it is an error.
std::unique_ptr<Database> open_database(const std::string& url, bool create);
bool is_postgres_url(const std::string& url);

std::unique_ptr<Database> open_sqlite(const std::string& path, bool create);
std::unique_ptr<Database> open_postgres(const std::string& url);

/// Rolls back unless commit() was reached, so that any error leaves the store as it was.
class Transaction {
 public:
  explicit Transaction(Database& db) : db_(db) { db_.begin_exclusive(); }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction() {
    if (!done_) db_.rollback();
  }
  void commit() {
    db_.commit();
    done_ = true;
  }

 private:
  Database& db_;
  bool done_ = false;
};

}  // namespace cmh::history
