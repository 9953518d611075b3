// SPDX-License-Identifier: MIT
// The tables (docs/history.md, "The store"): one row per run (a commit's results,
// however many files and shards), per file (by content hash: adding a file twice
// adds nothing), per environment (its fingerprint), per result (benchmark x params x
// mode x threads of one file), per metric of a result with its raw per-fork,
// per-iteration values as a JSON array, the way the result file had them.
// Types are spelled so that SQLite and PostgreSQL both accept them.
#include "schema.hpp"

#include <string>
#include <vector>

namespace cmh::history {
namespace {

const std::vector<std::vector<const char*>>& migrations() {
  static const std::vector<std::vector<const char*>> steps = {
      // 1: the tables.
      {
          "CREATE TABLE cmh_history_schema (version INTEGER NOT NULL)",
          "INSERT INTO cmh_history_schema (version) VALUES (0)",
          "CREATE TABLE runs (run_id TEXT PRIMARY KEY, seq BIGINT NOT NULL UNIQUE, commit_sha TEXT NOT NULL, "
          "branch TEXT NOT NULL, run_time TEXT NOT NULL, tags TEXT NOT NULL, added_at TEXT NOT NULL)",
          "CREATE TABLE environments (env_id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, description TEXT NOT NULL)",
          "CREATE TABLE files (file_hash TEXT PRIMARY KEY, run_id TEXT NOT NULL REFERENCES runs (run_id), "
          "path TEXT NOT NULL, format TEXT NOT NULL, html_report TEXT NOT NULL, warnings TEXT NOT NULL)",
          "CREATE TABLE results (result_id TEXT PRIMARY KEY, run_id TEXT NOT NULL REFERENCES runs (run_id), "
          "file_hash TEXT NOT NULL REFERENCES files (file_hash), benchmark TEXT NOT NULL, params TEXT NOT NULL, "
          "mode TEXT NOT NULL, threads INTEGER NOT NULL, forks INTEGER NOT NULL, "
          "env_id TEXT NOT NULL REFERENCES environments (env_id), failed INTEGER NOT NULL, disturbed TEXT NOT NULL)",
          "CREATE TABLE metrics (result_id TEXT NOT NULL REFERENCES results (result_id), metric TEXT NOT NULL, "
          "label TEXT NOT NULL, unit TEXT NOT NULL, is_primary INTEGER NOT NULL, score DOUBLE PRECISION, "
          "score_error DOUBLE PRECISION, higher_is_better INTEGER NOT NULL, exact INTEGER NOT NULL, "
          "raw TEXT NOT NULL, raw_are_forks INTEGER NOT NULL, summary_mean DOUBLE PRECISION, "
          "summary_stddev DOUBLE PRECISION, summary_n INTEGER, PRIMARY KEY (result_id, metric))",
      },
      // 2: indexes for the lookups of changes, check and report (a series' results,
      // a run's results, a branch's runs).
      {
          "CREATE INDEX results_series ON results (benchmark, mode)",
          "CREATE INDEX results_run ON results (run_id)",
          "CREATE INDEX runs_branch ON runs (branch, run_time)",
      },
  };
  return steps;
}

HistoryError newer_store(Database& db, int version) {
  return HistoryError(db.name() + ": the store's schema is version " + std::to_string(version) +
                      ", newer than this cmh-history's " + std::to_string(kSchemaVersion) + ": use a newer cmh-history");
}

bool has_schema_table(Database& db) {
  // Both SQLite and PostgreSQL answer this without an error when the table is absent.
  try {
    db.query("SELECT version FROM cmh_history_schema", {});
    return true;
  } catch (const HistoryError&) {
    return false;
  }
}

}  // namespace

int schema_version(Database& db) {
  // A failed statement aborts a PostgreSQL transaction: probe inside a savepoint.
  db.execute("SAVEPOINT cmh_probe", {});
  const bool present = has_schema_table(db);
  if (!present) {
    db.execute("ROLLBACK TO SAVEPOINT cmh_probe", {});
    db.execute("RELEASE SAVEPOINT cmh_probe", {});
    return 0;
  }
  db.execute("RELEASE SAVEPOINT cmh_probe", {});
  const auto rows = db.query("SELECT version FROM cmh_history_schema", {});
  if (rows.size() != 1) throw HistoryError(db.name() + ": not a cmh-history store (its version table is damaged)");
  return static_cast<int>(as_int(rows[0][0]));
}

void migrate(Database& db, int target) {
  const int version = schema_version(db);
  if (version > kSchemaVersion)
    throw newer_store(db, version);
  for (int v = version; v < target; ++v) {
    for (const char* statement : migrations()[static_cast<std::size_t>(v)]) db.execute(statement, {});
    db.execute("UPDATE cmh_history_schema SET version = $1", {static_cast<std::int64_t>(v + 1)});
  }
}

void require_readable(Database& db) {
  int version = 0;
  try {
    const auto rows = db.query("SELECT version FROM cmh_history_schema", {});
    if (rows.size() == 1) version = static_cast<int>(as_int(rows[0][0]));
  } catch (const HistoryError& e) {
    const std::string what = e.what();
    if (what.find("no such table") == std::string::npos && what.find("does not exist") == std::string::npos)
      throw;  // not a database at all, or unreadable: that message says it
  }
  if (version == 0) throw HistoryError(db.name() + ": holds no cmh-history store yet (cmh-history add creates it)");
  if (version > kSchemaVersion)
    throw newer_store(db, version);
}

}  // namespace cmh::history
