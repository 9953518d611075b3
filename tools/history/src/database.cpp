// SPDX-License-Identifier: MIT
#include "database.hpp"

#include <limits>

namespace cmh::history {

double as_double(const Value& v) {
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  return std::numeric_limits<double>::quiet_NaN();
}

std::int64_t as_int(const Value& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
  if (const auto* d = std::get_if<double>(&v)) return static_cast<std::int64_t>(*d);
  if (const auto* s = std::get_if<std::string>(&v)) return std::stoll(*s);
  return 0;
}

std::string as_text(const Value& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  return "";
}

bool is_postgres_url(const std::string& url) {
  return url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0;
}

std::unique_ptr<Database> open_database(const std::string& url, bool create) {
  if (url.empty()) throw HistoryError("--db: empty (a SQLite file name, or postgresql://...)");
  if (is_postgres_url(url)) return open_postgres(url);
  return open_sqlite(url, create);
}

}  // namespace cmh::history
