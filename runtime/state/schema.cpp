#include "runtime/state/schema.h"

#include <array>

namespace mkq::state {

namespace {

// v1: meta (one row: lineage, serial), inventory, runs, run_objects, lock (at
// most one row). Text columns are NOT NULL DEFAULT '' so reads never meet NULL.
constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE meta (
  id      INTEGER PRIMARY KEY CHECK (id = 1),
  lineage TEXT    NOT NULL,
  serial  INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE inventory (
  address          TEXT PRIMARY KEY,
  cluster          TEXT NOT NULL DEFAULT '',
  api_version      TEXT NOT NULL DEFAULT '',
  kind             TEXT NOT NULL DEFAULT '',
  namespace        TEXT NOT NULL DEFAULT '',
  name             TEXT NOT NULL DEFAULT '',
  uid              TEXT NOT NULL DEFAULT '',
  resource_version TEXT NOT NULL DEFAULT '',
  digest           TEXT NOT NULL DEFAULT '',
  applied_at       TEXT NOT NULL DEFAULT '',
  run_id           INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE runs (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  started_at    TEXT NOT NULL,
  finished_at   TEXT NOT NULL DEFAULT '',
  command       TEXT NOT NULL,
  policy_digest TEXT NOT NULL DEFAULT '',
  result        TEXT NOT NULL DEFAULT 'running',
  serial_before INTEGER NOT NULL DEFAULT 0,
  serial_after  INTEGER NOT NULL DEFAULT 0,
  host          TEXT NOT NULL DEFAULT '',
  pid           INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE run_objects (
  id      INTEGER PRIMARY KEY,
  run_id  INTEGER NOT NULL REFERENCES runs(id),
  address TEXT NOT NULL,
  action  TEXT NOT NULL DEFAULT '',
  result  TEXT NOT NULL DEFAULT '',
  message TEXT NOT NULL DEFAULT ''
);
CREATE INDEX run_objects_by_run ON run_objects(run_id, id);
CREATE TABLE lock (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  command  TEXT NOT NULL DEFAULT '',
  user     TEXT NOT NULL DEFAULT '',
  host     TEXT NOT NULL DEFAULT '',
  pid      INTEGER NOT NULL DEFAULT 0,
  since    TEXT NOT NULL DEFAULT ''
);
)sql";

// v2: ownership. meta.policy is the policy's identity, fixed at its first
// apply ('' until then, and in a v1 file: the next apply records it).
// inventory.adopted marks an object that existed before mkq first applied it;
// inventory.prior is what it held, before mkq touched it, at each path mkq
// sets (JSON, see reconcile::Change::prior; never a Secret's values). Adopted
// objects are released, not deleted.
constexpr const char* kSchemaV2 = R"sql(
ALTER TABLE meta ADD COLUMN policy TEXT NOT NULL DEFAULT '';
ALTER TABLE inventory ADD COLUMN adopted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE inventory ADD COLUMN prior TEXT NOT NULL DEFAULT '';
)sql";

// v3: credential transactions. One row per worker whose credential is being
// issued: what the rotation revokes and issues (anchor Secret names on the
// worker, never a token), written before anything changes and deleted once
// the rotation finished -- a row left behind is a rotation interrupted, which
// the next plan finishes (runtime/credentials/provider.cpp, "Transactions").
// revokes holds anchor names separated by newlines.
constexpr const char* kSchemaV3 = R"sql(
CREATE TABLE credential_intents (
  worker     TEXT PRIMARY KEY,
  secret     TEXT NOT NULL DEFAULT '',
  account    TEXT NOT NULL DEFAULT '',
  revokes    TEXT NOT NULL DEFAULT '',
  issues     TEXT NOT NULL DEFAULT '',
  started_at TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
)sql";

constexpr std::array<Migration, 3> kMigrations = {{
    {1, kSchemaV1},
    {2, kSchemaV2},
    {3, kSchemaV3},
}};

}  // namespace

std::span<const Migration> migrations() { return kMigrations; }

int latest_schema_version() { return kMigrations.back().version; }

}  // namespace mkq::state
