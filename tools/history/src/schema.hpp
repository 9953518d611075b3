// SPDX-License-Identifier: MIT
// The store's schema and its versions. Each version is a list of statements that
// takes the previous version forward; a store records its version and is migrated
// forward inside the first writing transaction that finds it old. A store newer than
// this cmh-history is refused (its tables may mean something this one does not know).
#pragma once

#include "database.hpp"

namespace cmh::history {

inline constexpr int kSchemaVersion = 2;

/// The store's version: 0 when it has no cmh-history tables (a new file or database).
int schema_version(Database& db);

/// Brings the store to `target` (default: kSchemaVersion) inside the caller's
/// transaction. Throws HistoryError for a store newer than this program.
void migrate(Database& db, int target = kSchemaVersion);

/// For readers: throws HistoryError if the store is empty or newer than this program.
void require_readable(Database& db);

}  // namespace cmh::history
