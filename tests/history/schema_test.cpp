// SPDX-License-Identifier: MIT
// The schema on an in-memory SQLite store: created from nothing, migrated forward
// from version 1 with its rows kept, and a store of a newer schema refused.
#include "schema.hpp"

#include <doctest/doctest.h>

using namespace cmh::history;

TEST_CASE("history schema: a new store gets the latest version") {
  auto db = open_sqlite(":memory:", true);
  CHECK(schema_version(*db) == 0);
  {
    Transaction tx(*db);
    migrate(*db);
    tx.commit();
  }
  CHECK(schema_version(*db) == kSchemaVersion);
  CHECK_NOTHROW(require_readable(*db));
}

TEST_CASE("history schema: version 1 migrates forward and keeps its rows") {
  auto db = open_sqlite(":memory:", true);
  {
    Transaction tx(*db);
    migrate(*db, 1);
    db->execute("INSERT INTO runs (run_id, seq, commit_sha, branch, run_time, tags, added_at) "
                "VALUES ('r', 1, 'abc', 'main', '2026-01-01T00:00:00Z', '{}', '2026-01-01T00:00:00Z')",
                {});
    tx.commit();
  }
  CHECK(schema_version(*db) == 1);
  {
    Transaction tx(*db);
    migrate(*db);
    tx.commit();
  }
  CHECK(schema_version(*db) == kSchemaVersion);
  const auto rows = db->query("SELECT commit_sha FROM runs", {});
  REQUIRE(rows.size() == 1);
  CHECK(as_text(rows[0][0]) == "abc");
}

TEST_CASE("history schema: a newer store is refused, and a failed migration leaves it as it was") {
  auto db = open_sqlite(":memory:", true);
  {
    Transaction tx(*db);
    migrate(*db);
    db->execute("UPDATE cmh_history_schema SET version = 99", {});
    tx.commit();
  }
  CHECK_THROWS_AS(require_readable(*db), HistoryError);
  {
    Transaction tx(*db);
    CHECK_THROWS_WITH_AS(migrate(*db), doctest::Contains("newer than this cmh-history"), HistoryError);
  }
  CHECK(schema_version(*db) == 99);
}

TEST_CASE("history schema: an empty store is not readable") {
  auto db = open_sqlite(":memory:", true);
  CHECK_THROWS_WITH_AS(require_readable(*db), doctest::Contains("holds no cmh-history store"), HistoryError);
}
