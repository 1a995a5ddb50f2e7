// StateStore: opening and migrating the database, meta (lineage, serial), the
// inventory and the run history. The lock is in lock.cpp.
//
// Pragmas, set on every connection:
// - journal_mode=WAL: readers (plan, history) never block the writer (apply).
// - synchronous=NORMAL: in WAL mode a commit survives the process being killed
//   (kill -9) and the file can never be corrupted; only a power loss or OS crash
//   may lose the last commits, which the next refresh of the live clusters
//   reconciles. FULL would fsync on every commit, i.e. once per applied object,
//   and cost seconds on a 2,000-object apply for no gain against process crashes.
// - busy_timeout=5000: writers wait for each other's short transactions instead
//   of failing with "database is locked" at once (the apply lock, a row, is what
//   makes a second apply fail at once).
// - foreign_keys=ON: run_objects always belong to a run.
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <set>
#include <system_error>

#include <fmt/format.h>

#include "base/files.h"
#include "base/host.h"
#include "runtime/state/schema.h"
#include "runtime/state/state.h"
#include "runtime/state/store_impl.h"

namespace mkq::state {

namespace {

constexpr int kBusyTimeoutMs = 5000;

std::string newer_schema(std::int64_t version, int latest) {
  return fmt::format("schema version {} is newer than this mkq understands ({}); use a newer mkq", version, latest);
}

// Runs every migration newer than the file's version in one transaction, then
// records the lineage of a new file. Another process may have migrated between
// our first look and BEGIN IMMEDIATE: the version is read again inside.
base::Result<void> migrate(detail::StoreData& impl) {
  Database& db = impl.db;
  Transaction tx(db);
  if (!tx.begun()) return db.error();
  const std::optional<std::int64_t> current = db.query_integer("PRAGMA user_version");
  if (!current) return db.error();
  const int latest = latest_schema_version();
  if (*current > latest) {
    return db.error(newer_schema(*current, latest));
  }
  for (const Migration& migration : migrations()) {
    if (migration.version <= *current) continue;
    if (!db.exec(migration.sql)) {
      return db.error(fmt::format("migration to schema version {} failed: {}", migration.version,
                                  sqlite3_errmsg(db.handle())));
    }
  }
  const std::string pragmas =
      fmt::format("PRAGMA user_version = {}; PRAGMA application_id = {};", latest, kApplicationId);
  if (!db.exec(pragmas.c_str())) return db.error();
  const std::string lineage = detail::random_uuid();
  if (lineage.empty()) return db.error("cannot generate a lineage: the random number generator failed");
  Statement insert(db.handle(), "INSERT OR IGNORE INTO meta (id, lineage, serial) VALUES (1, ?1, 0)");
  if (!insert.bind(1, lineage).run() || !tx.commit()) return db.error();
  return {};
}

// The schema version in the header of the database `db` opened: an Error
// when it is not an mkq state (another program's SQLite file, a version newer
// than this mkq, no tables unless `make_file`). A file that is not SQLite
// fails at this first read.
base::Result<std::int64_t> header_version(Database& db, bool make_file) {
  const std::optional<std::int64_t> application_id = db.query_integer("PRAGMA application_id");
  const std::optional<std::int64_t> version = db.query_integer("PRAGMA user_version");
  if (!application_id || !version) return db.error();
  if (*application_id != 0 && *application_id != kApplicationId) {
    return db.error("not an mkq state database (another program's SQLite file)");
  }
  const int latest = latest_schema_version();
  if (*version > latest) {
    return db.error(newer_schema(*version, latest));
  }
  if (*version == 0) {
    const std::optional<std::int64_t> tables = db.query_integer("SELECT count(*) FROM sqlite_master");
    if (!tables) return db.error();
    if (*tables != 0) return db.error("not an mkq state database (another program's SQLite file)");
  }
  // An older file is read as it is (its missing columns read as their
  // defaults) and migrated by the next apply, which opens it to write.
  if (*version == 0 && !make_file) return db.error("not an mkq state database (it has no tables)");
  return *version;
}

// Opens `path`; create: migrate it to the current schema version (and make
// the file when `make_file`); otherwise it is read at the version it has.
base::Result<void> open_impl(detail::StoreData& store, const std::filesystem::path& path, bool create,
                             bool make_file = false) {
  detail::StoreData* impl = &store;
  impl->path = path;
  Database& db = impl->db;
  if (!db.open(path.string(), make_file, false)) return db.error();
  sqlite3_busy_timeout(db.handle(), kBusyTimeoutMs);
  const base::Result<std::int64_t> version = header_version(db, make_file);
  if (!version) return version.error();
  if (create) {
    Statement journal(db.handle(), "PRAGMA journal_mode = WAL");
    journal.run();
    if (!journal.ok()) return db.error();
  }
  if (!db.exec("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")) return db.error();
  const int latest = latest_schema_version();
  if (*version < latest && create) {
    if (base::Result<void> migrated = migrate(*impl); !migrated) return migrated;
  }
  impl->schema_version = create ? latest : static_cast<int>(*version);

  Statement meta(db.handle(), impl->schema_version >= 2 ? "SELECT lineage, serial, policy FROM meta WHERE id = 1"
                                                        : "SELECT lineage, serial, '' FROM meta WHERE id = 1");
  if (!meta.step()) return meta.ok() ? db.error("not an mkq state database (no lineage)") : db.error();
  impl->lineage = meta.text(0);
  impl->serial = meta.integer(1);
  impl->policy = meta.text(2);
  if (impl->lineage.empty()) return db.error("not an mkq state database (no lineage)");
  return {};
}

// SQLite's own check of every page and index (PRAGMA integrity_check): a
// zeroed or truncated page is found here, before anything reads the
// inventory. About 5 ms on the bench's state of 4,000 inventory rows
// (quick_check, which skips the index contents, about 2 ms).
base::Result<void> verify(Database& db) {
  Statement rows(db.handle(), "PRAGMA integrity_check");
  std::string answer;  // the first problem; "*** in database main ***" heads the list
  while (answer.empty() && rows.step()) {
    if (rows.text(0).rfind("*** in database", 0) != 0) answer = rows.text(0);
  }
  if (!rows.ok()) return db.error();
  if (answer == "ok") return {};
  return db.error("damaged: " + (answer.empty() ? std::string("no answer from the check") : answer));
}

// The backup beside a state (Terraform's terraform.tfstate.backup).
std::filesystem::path backup_of(const std::filesystem::path& path) { return path.string() + ".backup"; }

// A state SQLite found damaged (or not a database at all, a torn file) points
// to its backup: "...; restore the previous state with: cp X.backup X".
std::string with_backup_hint(const std::filesystem::path& path, int code, std::string message) {
  if (code != SQLITE_CORRUPT && code != SQLITE_NOTADB && message.find(": damaged: ") == std::string::npos) {
    return message;
  }
  const std::string prefix = "state " + path.string() + ": ";
  if (code == SQLITE_CORRUPT && message.rfind(prefix, 0) == 0 && message.find(": damaged: ") == std::string::npos) {
    message.insert(prefix.size(), "damaged: ");  // "damaged: database disk image is malformed"
  }
  std::error_code ec;
  if (std::filesystem::is_regular_file(backup_of(path), ec)) {
    message += "; the state before the last write is kept beside it: restore it with: cp " +
               backup_of(path).string() + " " + path.string();
  } else {
    message += "; there is no backup beside it (" + backup_of(path).string() + ")";
  }
  return message;
}

// A zero-byte file is no state: no command initialises it in place (it may be
// a state truncated by a full disk). The way out is named.
base::Result<void> refuse_empty(const std::filesystem::path& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size != 0) return {};
  return base::Error(0, kStateError,
                     "state " + path.string() + ": not an mkq state: empty file; if no state is meant to be there, "
                     "delete it to start afresh: rm " + path.string());
}

}  // namespace

base::Result<void> detail::open_verified(StoreData& store, const std::filesystem::path& path, bool migrate_it) {
  if (base::Result<void> empty = refuse_empty(path); !empty) return empty;
  base::Result<void> opened = open_impl(store, path, migrate_it);
  if (opened) opened = verify(store.db);
  if (!opened) opened.error().message = with_backup_hint(path, store.db.error_code(), opened.error().message);
  return opened;
}

namespace {

RunRecord read_run(const Statement& row) {
  RunRecord run;
  run.id = row.integer(0);
  run.started_at = row.text(1);
  run.finished_at = row.text(2);
  run.command = row.text(3);
  run.policy_digest = row.text(4);
  run.result = row.text(5);
  run.serial_before = row.integer(6);
  run.serial_after = row.integer(7);
  return run;
}

constexpr const char* kRunColumns =
    "SELECT id, started_at, finished_at, command, policy_digest, result, serial_before, serial_after, host, "
    "pid "
    "FROM runs ";

// A run still "running" is interrupted unless the process that began it still
// holds the apply lock (and, on this host, still runs).
bool still_running(const Statement& row, const std::optional<LockHolder>& lock) {
  const std::string host = row.text(8);
  const std::int64_t pid = row.integer(9);
  if (!lock || lock->host != host || lock->pid != pid) return false;
  return base::liveness(host, pid) != base::Liveness::Gone;
}

bool read_objects(Database& db, RunRecord& run) {
  Statement objects(db.handle(),
                    "SELECT address, action, result, message FROM run_objects WHERE run_id = ?1 ORDER BY id");
  objects.bind(1, run.id);
  while (objects.step()) {
    run.objects.push_back(ObjectOutcome{objects.text(0), objects.text(1), objects.text(2), objects.text(3)});
  }
  return objects.ok();
}

InventoryEntry read_entry(const Statement& row) {
  InventoryEntry entry;
  // Column 0, the address, is ref.address(): written from it, never read back.
  entry.ref.cluster = row.text(1);
  entry.ref.api_version = row.text(2);
  entry.ref.kind = row.text(3);
  entry.ref.namespace_name = row.text(4);
  entry.ref.name = row.text(5);
  entry.uid = row.text(6);
  entry.resource_version = row.text(7);
  entry.digest = row.text(8);
  entry.applied_at = row.text(9);
  entry.run_id = row.integer(10);
  entry.adopted = row.integer(11) != 0;
  entry.prior = row.text(12);
  return entry;
}

// The inventory's columns as read_entry() reads them; a v1 file (read, not
// yet migrated) has no ownership columns: they read as their defaults.
std::string inventory_select(int schema_version) {
  return std::string("SELECT address, cluster, api_version, kind, namespace, name, uid, resource_version, digest, "
                     "applied_at, run_id, ") +
         (schema_version >= 2 ? "adopted, prior " : "0, '' ") + "FROM inventory ";
}

}  // namespace

namespace detail {

base::Result<void> back_up(StoreData& impl) {
  const std::filesystem::path target = backup_of(impl.path);
  // base/files.h's atomic write, its text written by SQLite: the temporary is
  // staged empty and owner-only, the backup API fills it, and it is committed
  // (renamed over the last backup) only when whole.
  base::FileWrite options;
  options.mode = base::FileMode::OwnerOnly;
  const std::filesystem::path temporary = base::temporary_path_for(target);
  const auto failed = [&](const std::string& why) {
    base::discard_file(target);
    return base::Error(0, kStateError,
                       "state " + impl.path.string() + ": cannot keep a backup in " + target.string() + ": " + why);
  };
  const auto not_written = [&](const base::Error& error) {
    return base::Error(0, kStateError,
                       "state " + impl.path.string() + ": cannot keep a backup: " + error.message);
  };
  // An interrupted copy's journal is never rolled into ours.
  std::error_code ignored;
  std::filesystem::remove(temporary.string() + "-journal", ignored);
  if (base::Result<void> staged = base::stage_file(target, "", options); !staged)
    return not_written(staged.error());
  // The online backup API copies a consistent snapshot, the WAL's committed
  // frames included. The copy holds no lock: a restored backup is not locked.
  sqlite3* copy = nullptr;
  int rc = sqlite3_open_v2(temporary.c_str(), &copy, SQLITE_OPEN_READWRITE, nullptr);
  if (rc == SQLITE_OK) {
    sqlite3_backup* backup = sqlite3_backup_init(copy, "main", impl.db.handle(), "main");
    if (backup == nullptr) {
      rc = sqlite3_errcode(copy);
    } else {
      rc = sqlite3_backup_step(backup, -1);
      sqlite3_backup_finish(backup);
      if (rc == SQLITE_DONE) rc = sqlite3_exec(copy, "DELETE FROM lock", nullptr, nullptr, nullptr);
    }
  }
  const std::string message = copy != nullptr ? sqlite3_errmsg(copy) : "out of memory";
  if (sqlite3_close(copy) != SQLITE_OK && rc == SQLITE_OK) rc = SQLITE_ERROR;
  if (rc != SQLITE_OK) return failed(message);
  if (base::Result<void> committed = base::commit_file(target, options); !committed)
    return not_written(committed.error());
  return {};
}

}  // namespace detail

StateStore::StateStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

StateStore::~StateStore() {
  if (impl_ != nullptr) (void)release_lock();  // best effort: a lock left behind is stale once we are gone
}

namespace {

// Makes a new state at `path` without a moment where `path` exists half made:
// the file is created and migrated under a temporary name beside it, made
// owner-only, and linked into place. When another process linked its own
// first, ours is discarded and theirs is used (one lineage).
base::Result<void> create_state(const std::filesystem::path& path) {
  const std::filesystem::path temporary =
      path.string() + ".new-" + std::to_string(getpid()) + "-" + detail::random_uuid().substr(0, 8);
  {
    const int fd = ::open(temporary.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
      return base::Error(0, kStateError,
                         "state " + path.string() + ": cannot create " + temporary.string() + ": " +
                             std::system_category().message(errno));
    }
    ::close(fd);
    detail::StoreData fresh;
    if (base::Result<void> made = open_impl(fresh, temporary, true, true); !made) {
      std::error_code ec;
      std::filesystem::remove(temporary, ec);
      return made;
    }
  }  // closed: the WAL is checkpointed into the file and removed
  const bool linked = ::link(temporary.c_str(), path.c_str()) == 0;
  const int link_errno = errno;
  std::error_code ec;
  std::filesystem::remove(temporary, ec);
  if (linked || link_errno == EEXIST) return {};
  return base::Error(0, kStateError,
                     "state " + path.string() + ": cannot create it: " + std::system_category().message(link_errno));
}

}  // namespace

base::Result<std::unique_ptr<StateStore>> StateStore::open(const std::filesystem::path& path) {
  try {
    const std::filesystem::path directory = path.parent_path();
    std::error_code ec;
    if (!directory.empty() && !std::filesystem::is_directory(directory, ec)) {
      std::filesystem::create_directories(directory, ec);
      if (ec) {
        return base::Error(0, kStateError,
                           "state " + path.string() + ": cannot create the directory " + directory.string() + ": " +
                               ec.message());
      }
      // The directory mkq made (.mkq/) is the owner's alone, whatever the umask.
      std::filesystem::permissions(directory, std::filesystem::perms::owner_all, ec);
    }
    if (!std::filesystem::exists(path, ec)) {
      if (base::Result<void> created = create_state(path); !created) return created.error();
    }
    auto impl = std::make_unique<Impl>();
    if (base::Result<void> opened = detail::open_verified(*impl, path, true); !opened) return opened.error();
    return std::unique_ptr<StateStore>(new StateStore(std::move(impl)));  // private constructor
  } catch (const std::exception& e) {
    return base::Error(0, kStateError, "state " + path.string() + ": " + e.what());
  }
}

base::Result<std::unique_ptr<StateStore>> StateStore::open_existing(const std::filesystem::path& path) {
  try {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      if (ec) return base::Error(0, kStateError, "state " + path.string() + ": " + ec.message());
      return std::unique_ptr<StateStore>();  // none
    }
    auto impl = std::make_unique<Impl>();
    if (base::Result<void> opened = detail::open_verified(*impl, path, false); !opened) return opened.error();
    return std::unique_ptr<StateStore>(new StateStore(std::move(impl)));  // private constructor
  } catch (const std::exception& e) {
    return base::Error(0, kStateError, "state " + path.string() + ": " + e.what());
  }
}

const std::filesystem::path& StateStore::path() const { return impl_->path; }

std::string StateStore::lineage() const { return impl_->lineage; }

std::string StateStore::policy() const { return impl_->policy; }

base::Result<void> StateStore::set_policy(const std::string& policy) {
  Transaction tx(impl_->db);  // a transaction of its own: a state in a cluster pushes each
  Statement update(impl_->db.handle(), "UPDATE meta SET policy = ?1 WHERE id = 1");
  if (!tx.begun() || !update.bind(1, policy).run() || !tx.commit()) return impl_->db.error();
  impl_->policy = policy;
  return {};
}

base::Result<std::int64_t> StateStore::serial() const {
  const std::optional<std::int64_t> serial = impl_->db.query_integer("SELECT serial FROM meta WHERE id = 1");
  if (!serial) return impl_->db.error();
  impl_->serial = *serial;
  return *serial;
}

int StateStore::schema_version() const { return impl_->schema_version; }

void StateStore::use_clock(const base::Clock& clock) { impl_->clock = &clock; }

base::Result<std::vector<InventoryEntry>> StateStore::inventory() const {
  std::vector<InventoryEntry> entries;
  Statement rows(impl_->db.handle(), (inventory_select(impl_->schema_version) + "ORDER BY address").c_str());
  while (rows.step()) entries.push_back(read_entry(rows));
  if (!rows.ok()) return impl_->db.error();
  return entries;
}

base::Result<std::optional<InventoryEntry>> StateStore::find(const std::string& address) const {
  Statement row(impl_->db.handle(), (inventory_select(impl_->schema_version) + "WHERE address = ?1").c_str());
  row.bind(1, address);
  if (row.step()) return std::optional<InventoryEntry>(read_entry(row));
  if (!row.ok()) return impl_->db.error().about(address);
  return std::optional<InventoryEntry>();
}

namespace {

// The statements behind the records, inside the caller's transaction. Each
// returns false on a database failure; *changed tells whether the inventory
// changed (the serial then grows).
bool upsert_inventory(Database& db, const InventoryEntry& entry, const std::string& now) {
  Statement upsert(
      db,
      "INSERT OR REPLACE INTO inventory (address, cluster, api_version, kind, namespace, name, uid, "
      "resource_version, digest, applied_at, run_id, adopted, prior) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
  upsert.bind(1, entry.ref.address())
      .bind(2, entry.ref.cluster)
      .bind(3, entry.ref.api_version)
      .bind(4, entry.ref.kind)
      .bind(5, entry.ref.namespace_name)
      .bind(6, entry.ref.name)
      .bind(7, entry.uid)
      .bind(8, entry.resource_version)
      .bind(9, entry.digest)
      .bind(10, entry.applied_at.empty() ? now : entry.applied_at)
      .bind(11, entry.run_id)
      .bind(12, static_cast<std::int64_t>(entry.adopted ? 1 : 0))
      .bind(13, entry.prior);
  return upsert.run();
}

// Whether the entry was there (not in the inventory: nothing changed, no new serial).
base::Result<bool> remove_inventory(Database& db, const std::string& address) {
  Statement remove(db, "DELETE FROM inventory WHERE address = ?1");
  if (!remove.bind(1, address).run()) return db.error();
  return sqlite3_changes(db.handle()) != 0;
}

base::Result<void> insert_outcome(Database& db, std::int64_t run_id, const ObjectOutcome& outcome) {
  Statement insert(
      db,
      "INSERT INTO run_objects (run_id, address, action, result, message) VALUES (?1, ?2, ?3, ?4, ?5)");
  insert.bind(1, run_id)
      .bind(2, outcome.address)
      .bind(3, outcome.action)
      .bind(4, outcome.result)
      .bind(5, outcome.message);
  if (insert.run()) return {};
  return insert.code() == SQLITE_CONSTRAINT ? db.error(fmt::format("no run {}", run_id)) : db.error();
}

// Anchor names are DNS subdomain names: a newline never occurs in one.
std::string join_lines(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : "\n") + name;
  return out;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// `now`: the start time when the intent carries none (the store's clock).
bool begin_intent(Database& db, const CredentialIntent& intent, const std::string& now) {
  Statement upsert(db,
                   "INSERT OR REPLACE INTO credential_intents (worker, secret, account, revokes, issues, started_at) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  upsert.bind(1, intent.worker)
      .bind(2, intent.secret)
      .bind(3, intent.account)
      .bind(4, join_lines(intent.revokes))
      .bind(5, intent.issues)
      .bind(6, intent.started_at.empty() ? now : intent.started_at);
  return upsert.run();
}

bool finish_intent(Database& db, const std::string& worker) {
  Statement remove(db, "DELETE FROM credential_intents WHERE worker = ?1");
  return remove.bind(1, worker).run();
}

bool bump_serial(Database& db, std::int64_t by) {
  Statement bump(db, "UPDATE meta SET serial = serial + ?1 WHERE id = 1");
  return bump.bind(1, by).run();
}

}  // namespace

base::Result<void> StateStore::record_applied(const InventoryEntry& entry) {
  return record_batch({StateWrite{StateWrite::Kind::Applied, entry, "", 0, {}}});
}

base::Result<void> StateStore::record_deleted(const std::string& address) {
  return record_batch({StateWrite{StateWrite::Kind::Deleted, {}, address, 0, {}}});
}

namespace {

// The object a StateWrite is about: its errors carry this address.
std::string address_of(const StateWrite& write) {
  switch (write.kind) {
    case StateWrite::Kind::Applied: return write.entry.ref.address();
    case StateWrite::Kind::Outcome: return write.outcome.address;
    case StateWrite::Kind::IntentBegun: return write.intent.worker;
    case StateWrite::Kind::Deleted:
    case StateWrite::Kind::IntentFinished: return write.address;
  }
  return write.address;
}

// One write of a batch, inside its transaction; *inventory_changes grows when it changed the inventory.
base::Result<void> apply_write(detail::StoreData& impl, const StateWrite& write, std::int64_t* inventory_changes) {
  Database& db = impl.db;
  bool ok = true;
  switch (write.kind) {
    case StateWrite::Kind::Applied:
      ok = upsert_inventory(db, write.entry, detail::now_rfc3339(impl));
      if (ok) ++*inventory_changes;
      break;
    case StateWrite::Kind::Deleted: {
      base::Result<bool> removed = remove_inventory(db, write.address);
      if (!removed) return std::move(removed.error());
      if (*removed) ++*inventory_changes;
      break;
    }
    case StateWrite::Kind::Outcome:
      return insert_outcome(db, write.run_id, write.outcome);
    case StateWrite::Kind::IntentBegun:
      ok = begin_intent(db, write.intent, detail::now_rfc3339(impl));
      break;
    case StateWrite::Kind::IntentFinished:
      ok = finish_intent(db, write.address);
      break;
  }
  if (!ok) return db.error();
  return {};
}

}  // namespace

base::Result<void> StateStore::record_batch(const std::vector<StateWrite>& writes) {
  if (writes.empty()) return {};
  Database& db = impl_->db;
  Transaction tx(db);
  if (!tx.begun()) return db.error();
  std::int64_t inventory_changes = 0;
  for (const StateWrite& write : writes) {
    base::Result<void> written = apply_write(*impl_, write, &inventory_changes);
    if (!written) return std::move(written.error()).about(address_of(write));
  }
  if ((inventory_changes > 0 && !bump_serial(db, inventory_changes)) || !tx.commit()) return db.error();
  impl_->serial += inventory_changes;
  return {};
}

base::Result<std::vector<CredentialIntent>> StateStore::credential_intents() const {
  std::vector<CredentialIntent> intents;
  if (impl_->schema_version < 3) return intents;  // an older file, read as it is: no rotation recorded
  Statement rows(impl_->db.handle(),
                 "SELECT worker, secret, account, revokes, issues, started_at FROM credential_intents ORDER BY worker");
  while (rows.step()) {
    CredentialIntent intent;
    intent.worker = rows.text(0);
    intent.secret = rows.text(1);
    intent.account = rows.text(2);
    intent.revokes = split_lines(rows.text(3));
    intent.issues = rows.text(4);
    intent.started_at = rows.text(5);
    intents.push_back(std::move(intent));
  }
  if (!rows.ok()) return impl_->db.error();
  return intents;
}

base::Result<std::int64_t> StateStore::begin_run(const std::string& command, const std::string& policy_digest) {
  Database& db = impl_->db;
  // The run belongs to the lock's holder when this store holds it, so that
  // history() can tell a live run from an interrupted one.
  const std::string host = impl_->held_lock ? impl_->held_lock->host : base::host_name();
  const std::int64_t pid = impl_->held_lock ? impl_->held_lock->pid : base::process_id();
  Transaction tx(db);
  if (!tx.begun()) return db.error();
  Statement insert(
      db.handle(),
      "INSERT INTO runs (started_at, command, policy_digest, result, serial_before, serial_after, host, "
      "pid) SELECT ?1, ?2, ?3, 'running', serial, serial, ?4, ?5 FROM meta WHERE id = 1");
  insert.bind(1, detail::now_rfc3339(*impl_)).bind(2, command).bind(3, policy_digest).bind(4, host).bind(5, pid);
  if (!insert.run()) return db.error();
  const std::int64_t id = sqlite3_last_insert_rowid(db.handle());
  if (!tx.commit()) return db.error();
  return id;
}

base::Result<void> StateStore::record_outcome(std::int64_t run_id, const ObjectOutcome& outcome) {
  return record_batch({StateWrite{StateWrite::Kind::Outcome, {}, "", run_id, outcome}});
}

base::Result<void> StateStore::finish_run(std::int64_t run_id, const std::string& result) {
  Database& db = impl_->db;
  Transaction tx(db);  // a transaction of its own: a state in a cluster pushes each
  Statement update(db.handle(),
                   "UPDATE runs SET finished_at = ?1, result = ?2, "
                   "serial_after = (SELECT serial FROM meta WHERE id = 1) WHERE id = ?3");
  update.bind(1, detail::now_rfc3339(*impl_)).bind(2, result).bind(3, run_id);
  if (!tx.begun() || !update.run()) return db.error();
  if (sqlite3_changes(db.handle()) == 0) return db.error(fmt::format("no run {}", run_id));
  if (!tx.commit()) return db.error();
  return {};
}

base::Result<std::vector<RunRecord>> StateStore::history(int limit, bool with_objects) const {
  Database& db = impl_->db;
  const base::Result<std::optional<LockHolder>> lock = detail::current_lock(*impl_);
  if (!lock) return lock.error();
  std::vector<RunRecord> runs;
  Statement rows(db.handle(), (std::string(kRunColumns) + "ORDER BY id DESC LIMIT ?1").c_str());
  rows.bind(1, static_cast<std::int64_t>(limit > 0 ? limit : -1));  // -1: no limit
  while (rows.step()) {
    RunRecord run = read_run(rows);
    if (run.result == "running" && !still_running(rows, *lock)) run.result = "interrupted";
    runs.push_back(std::move(run));
  }
  if (!rows.ok()) return db.error();
  if (with_objects) {
    for (RunRecord& run : runs) {
      if (!read_objects(db, run)) return db.error();
    }
  }
  return runs;
}

base::Result<std::optional<RunRecord>> StateStore::find_run(std::int64_t run_id) const {
  Database& db = impl_->db;
  const base::Result<std::optional<LockHolder>> lock = detail::current_lock(*impl_);
  if (!lock) return lock.error();
  Statement row(db.handle(), (std::string(kRunColumns) + "WHERE id = ?1").c_str());
  row.bind(1, run_id);
  if (!row.step()) {
    if (!row.ok()) return db.error();
    return std::optional<RunRecord>();
  }
  RunRecord run = read_run(row);
  if (run.result == "running" && !still_running(row, *lock)) run.result = "interrupted";
  if (!read_objects(db, run)) return db.error();
  return std::optional<RunRecord>(std::move(run));
}

base::Result<std::string> StateStore::integrity_check() const {
  Statement rows(impl_->db.handle(), "PRAGMA integrity_check");
  std::string answer;
  while (rows.step()) {
    if (!answer.empty()) answer += "\n";
    answer += rows.text(0);
  }
  if (!rows.ok()) return impl_->db.error();
  return answer;
}

namespace {

// Forgets, in one transaction, every inventory entry whose `column` equals one
// of `keys`; a key that matches none is unknown and then nothing is forgotten.
base::Result<ForgetResult> forget_where(Database& db, int schema_version, const std::string& column,
                                        const std::vector<std::string>& keys, std::int64_t* serial) {
  ForgetResult result;
  Transaction tx(db);
  if (!tx.begun()) return db.error();
  std::set<std::string> seen;
  for (const std::string& key : keys) {
    if (!seen.insert(key).second) continue;
    Statement rows(db, (inventory_select(schema_version) + "WHERE " + column + " = ?1 ORDER BY address").c_str());
    rows.bind(1, key);
    bool any = false;
    while (rows.step()) {
      result.forgotten.push_back(read_entry(rows));
      any = true;
    }
    if (!rows.ok()) return db.error();
    if (!any) result.unknown.push_back(key);
  }
  if (!result.unknown.empty()) {
    result.forgotten.clear();
    return result;  // the destructor rolls back: nothing was forgotten
  }
  for (const InventoryEntry& entry : result.forgotten) {
    if (base::Result<bool> removed = remove_inventory(db, entry.ref.address()); !removed) {
      return std::move(removed.error()).about(entry.ref.address());
    }
  }
  const auto count = static_cast<std::int64_t>(result.forgotten.size());
  if ((count > 0 && !bump_serial(db, count)) || !tx.commit()) return db.error();
  *serial += count;
  std::sort(result.forgotten.begin(), result.forgotten.end(),
            [](const InventoryEntry& a, const InventoryEntry& b) { return a.ref.address() < b.ref.address(); });
  return result;
}

}  // namespace

base::Result<std::int64_t> record_finished_run(StateStore& store, const std::string& command,
                                               const std::vector<ObjectOutcome>& outcomes, const std::string& result) {
  const base::Result<std::int64_t> run_id = store.begin_run(command, "");
  if (!run_id) return run_id;
  std::vector<StateWrite> writes;
  for (const ObjectOutcome& outcome : outcomes) writes.push_back({StateWrite::Kind::Outcome, {}, "", *run_id, outcome});
  if (base::Result<void> written = store.record_batch(writes); !written) return written.error();
  if (base::Result<void> finished = store.finish_run(*run_id, result); !finished) return finished.error();
  return run_id;
}

base::Result<ForgetResult> StateStore::forget(const std::vector<std::string>& addresses) {
  return forget_where(impl_->db, impl_->schema_version, "address", addresses, &impl_->serial);
}

base::Result<ForgetResult> StateStore::forget_clusters(const std::vector<std::string>& clusters) {
  return forget_where(impl_->db, impl_->schema_version, "cluster", clusters, &impl_->serial);
}

}  // namespace mkq::state
