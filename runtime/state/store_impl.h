// Private to runtime/state: the StateStore's connection and what it holds, and
// the helpers the store and the lock share.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "base/clock.h"
#include "runtime/state/sqlite_db.h"
#include "runtime/state/state.h"

namespace mkq::state {

namespace detail {

// What a StateStore holds (its Impl), visible to the stage's free functions.
struct StoreData {
  std::filesystem::path path;
  Database db;
  std::string lineage;
  std::string policy;                   // meta.policy as last read or written
  int schema_version = 0;
  std::int64_t serial = 0;              // the last serial read or written
  std::optional<LockHolder> held_lock;  // the lock this store acquired, until released
  bool backed_up = false;               // this run's backup is written (once per run)
  std::string last_error;               // the last failure of a call without an error out-parameter
  const base::Clock* clock = &base::system_clock();  // the times the state records; never null
};

}  // namespace detail

struct StateStore::Impl : detail::StoreData {};

namespace detail {

// The store's clock, now, in RFC 3339 UTC: "2026-11-21T10:00:00Z".
std::string now_rfc3339(const StoreData& impl);
// A random (version 4) UUID from OpenSSL's RAND_bytes; empty when the generator fails.
std::string random_uuid();

// Writes the state as it is now to PATH.backup (owner-only, replaced
// atomically, without the lock row). false with *error on a failure.
bool back_up(StoreData& impl, std::string* error);

// The lock row, if any.
std::optional<LockHolder> read_lock(Database& db, bool* ok);

}  // namespace detail
}  // namespace mkq::state
