// SPDX-License-Identifier: MIT
// The SQLite store (Debian's libsqlite3): one file, created on the first add.
#include "database.hpp"

#include <sqlite3.h>

#include <cmath>
#include <filesystem>

namespace cmh::history {
namespace {

/// SQLite numbers its placeholders ?1, ?2, ...; the shared SQL says $1, $2 as
/// PostgreSQL does. No SQL here holds a '$' inside a string literal.
std::string sqlite_placeholders(const std::string& sql) {
  std::string out = sql;
  for (char& c : out)
    if (c == '$') c = '?';
  return out;
}

class SqliteDatabase final : public Database {
 public:
  SqliteDatabase(const std::string& path, bool create) : path_(path) {
    std::error_code ec;
    if (!create && !std::filesystem::exists(path, ec))
      throw HistoryError(path + ": no such history database (cmh-history add creates it)");
    const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      db_ = nullptr;
      throw HistoryError(path + ": cannot open: " + why);
    }
    sqlite3_busy_timeout(db_, 30000);  // another add holds the write lock: wait for it
    execute("PRAGMA foreign_keys = ON", {});
  }
  ~SqliteDatabase() override { sqlite3_close(db_); }

  void execute(const std::string& sql, const std::vector<Value>& params) override { run(sql, params, nullptr); }

  std::vector<Row> query(const std::string& sql, const std::vector<Value>& params) override {
    std::vector<Row> rows;
    run(sql, params, &rows);
    return rows;
  }

  void begin_exclusive() override { execute("BEGIN IMMEDIATE", {}); }
  void commit() override { execute("COMMIT", {}); }
  void rollback() noexcept override { sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr); }
  std::string name() const override { return path_; }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw HistoryError(path_ + ": " + what + ": " + sqlite3_errmsg(db_));
  }

  void run(const std::string& sql, const std::vector<Value>& params, std::vector<Row>* rows) {
    sqlite3_stmt* stmt = nullptr;
    const std::string text = sqlite_placeholders(sql);
    if (sqlite3_prepare_v2(db_, text.c_str(), -1, &stmt, nullptr) != SQLITE_OK) fail("bad statement");
    struct Finalize {
      sqlite3_stmt* s;
      ~Finalize() { sqlite3_finalize(s); }
    } finalize{stmt};
    for (std::size_t i = 0; i < params.size(); ++i) bind(stmt, static_cast<int>(i + 1), params[i]);
    while (true) {
      const int rc = sqlite3_step(stmt);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) {
        // "file is not a database", "database is locked", a constraint: the caller rolls back.
        fail(sqlite3_errstr(rc));
      }
      if (rows == nullptr) continue;
      Row& row = rows->emplace_back();
      const int n = sqlite3_column_count(stmt);
      for (int c = 0; c < n; ++c) {
        switch (sqlite3_column_type(stmt, c)) {
          case SQLITE_INTEGER: row.emplace_back(static_cast<std::int64_t>(sqlite3_column_int64(stmt, c))); break;
          case SQLITE_FLOAT: row.emplace_back(sqlite3_column_double(stmt, c)); break;
          case SQLITE_NULL: row.emplace_back(std::monostate{}); break;
          default:
            row.emplace_back(std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, c)),
                                         static_cast<std::size_t>(sqlite3_column_bytes(stmt, c))));
        }
      }
    }
  }

  void bind(sqlite3_stmt* stmt, int index, const Value& v) {
    int rc = SQLITE_OK;
    if (std::holds_alternative<std::monostate>(v)) rc = sqlite3_bind_null(stmt, index);
    else if (const auto* i = std::get_if<std::int64_t>(&v)) rc = sqlite3_bind_int64(stmt, index, *i);
    else if (const auto* d = std::get_if<double>(&v)) rc = std::isnan(*d) ? sqlite3_bind_null(stmt, index)
                                                                           : sqlite3_bind_double(stmt, index, *d);
    else {
      const auto& s = std::get<std::string>(v);
      rc = sqlite3_bind_text(stmt, index, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
    }
    if (rc != SQLITE_OK) fail("cannot bind a value");
  }

  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace

std::unique_ptr<Database> open_sqlite(const std::string& path, bool create) {
  return std::make_unique<SqliteDatabase>(path, create);
}

}  // namespace cmh::history
