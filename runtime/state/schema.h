// The state database's schema: an ordered list of migrations. PRAGMA
// user_version holds the number of migrations applied; adding a schema version
// is appending one entry to kMigrations.
#pragma once

#include <cstdint>
#include <span>

namespace mkq::state {

struct Migration {
  int version;      // user_version after this step; 1, 2, ... without gaps
  const char* sql;  // runs inside the migrating transaction
};

// Every migration, oldest first.
std::span<const Migration> migrations();

// The schema version this build writes and reads (the last migration's).
int latest_schema_version();

// PRAGMA application_id of an mkq state file ("mkq!"), so another program's
// SQLite database is never taken for ours.
inline constexpr std::int32_t kApplicationId = 0x6d6b7121;

}  // namespace mkq::state
