#include "sandbox/store.h"

#include <sqlite3.h>

#include <atomic>
#include <limits>
#include <map>
#include <utility>

namespace mkq::sandbox {
namespace {

// The parsed cache's key: the four parts, which never hold a NUL.
std::string cache_key(const ObjectKey& key) {
  std::string out;
  out.reserve(key.group.size() + key.resource.size() + key.ns.size() + key.name.size() + 3);
  for (const std::string* part : {&key.group, &key.resource, &key.ns}) {
    out += *part;
    out += '\0';
  }
  out += key.name;
  return out;
}

// Epochs come from one counter for the process, so no two stores share one.
std::uint64_t next_epoch() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}

}  // namespace

// A statement from the store's cache, reset (bindings cleared) when done.
class StoreStatement {
 public:
  StoreStatement(const Store& store, const char* sql) {
    auto it = store.statements_.find(sql);
    if (it == store.statements_.end()) {
      sqlite3_stmt* prepared = nullptr;
      if (sqlite3_prepare_v3(store.db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &prepared, nullptr) != SQLITE_OK) {
        sqlite3_finalize(prepared);
        return;
      }
      it = store.statements_.emplace(sql, prepared).first;
    }
    stmt_ = it->second;
  }
  ~StoreStatement() {
    if (stmt_ != nullptr) {
      sqlite3_reset(stmt_);
      sqlite3_clear_bindings(stmt_);
    }
  }
  StoreStatement(const StoreStatement&) = delete;
  StoreStatement& operator=(const StoreStatement&) = delete;
  bool valid() const { return stmt_ != nullptr; }
  void bind(int index, const std::string& text) {
    sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  }
  void bind(int index, std::int64_t value) { sqlite3_bind_int64(stmt_, index, value); }
  bool step_row() { return stmt_ != nullptr && sqlite3_step(stmt_) == SQLITE_ROW; }
  bool run() { return stmt_ != nullptr && sqlite3_step(stmt_) == SQLITE_DONE; }
  std::string text(int column) const {
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return data == nullptr ? std::string() : std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
  }
  std::int64_t integer(int column) const { return sqlite3_column_int64(stmt_, column); }

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

namespace {

nlohmann::json parse_body(const std::string& text) {
  auto value = nlohmann::json::parse(text, nullptr, false);
  return value.is_discarded() ? nlohmann::json::object() : value;
}

}  // namespace

std::unique_ptr<Store> Store::open(const std::filesystem::path& database, std::string* error) {
  auto store = std::unique_ptr<Store>(new Store());  // private constructor
  const std::string file = database.string();
  if (sqlite3_open_v2(file.c_str(), &store->db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    if (error != nullptr) {
      *error = "cannot open " + file + ": " + (store->db_ ? sqlite3_errmsg(store->db_) : "out of memory");
    }
    return nullptr;
  }
  sqlite3_busy_timeout(store->db_, 5000);
  const bool ok = store->exec("PRAGMA journal_mode=WAL") && store->exec("PRAGMA synchronous=NORMAL") &&
                  store->exec(
                      "CREATE TABLE IF NOT EXISTS objects (grp TEXT NOT NULL, resource TEXT NOT NULL, ns TEXT NOT "
                      "NULL, name TEXT NOT NULL, rv INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (grp, "
                      "resource, ns, name)) WITHOUT ROWID") &&
                  store->exec(
                      "CREATE TABLE IF NOT EXISTS events (rv INTEGER PRIMARY KEY, grp TEXT NOT NULL, resource TEXT "
                      "NOT NULL, ns TEXT NOT NULL, type TEXT NOT NULL, body TEXT NOT NULL)") &&
                  store->exec("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v INTEGER NOT NULL)");
  if (!ok) {
    if (error != nullptr) *error = "cannot initialise " + file + ": " + store->error_;
    return nullptr;
  }
  {
    StoreStatement st(*store, "SELECT k, v FROM meta");
    while (st.step_row()) {
      if (st.text(0) == "rv") store->rv_ = st.integer(1);
      if (st.text(0) == "compacted") store->compacted_rv_ = st.integer(1);
    }
  }
  return store;
}

Store::~Store() {
  commit_pending();
  for (auto& [sql, statement] : statements_) sqlite3_finalize(statement);
  sqlite3_close(db_);
}

void Store::begin_write() {
  if (in_transaction_) return;
  StoreStatement begin(*this, "BEGIN IMMEDIATE");
  if (!begin.run()) error_ = sqlite3_errmsg(db_);
  in_transaction_ = sqlite3_get_autocommit(db_) == 0;
  if (commit_listener_) commit_listener_();
}

void Store::end_write() {
  if (!commit_listener_) commit_pending();
}

void Store::commit_pending() {
  save_rv();  // in the transaction, or on its own when no transaction could be opened
  if (!in_transaction_) return;
  StoreStatement commit(*this, "COMMIT");
  if (!commit.run()) error_ = sqlite3_errmsg(db_);
  in_transaction_ = sqlite3_get_autocommit(db_) == 0;
}

bool Store::exec(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    error_ = message != nullptr ? message : "sqlite error";
    sqlite3_free(message);
    return false;
  }
  return true;
}

std::optional<std::string> Store::body_of(const ObjectKey& key) const {
  StoreStatement st(*this, "SELECT body FROM objects WHERE grp=?1 AND resource=?2 AND ns=?3 AND name=?4");
  st.bind(1, key.group);
  st.bind(2, key.resource);
  st.bind(3, key.ns);
  st.bind(4, key.name);
  if (!st.step_row()) return std::nullopt;
  return st.text(0);
}

std::optional<nlohmann::json> Store::get(const ObjectKey& key) const {
  if (const auto hit = parsed_index_.find(cache_key(key)); hit != parsed_index_.end()) return *hit->second->object;
  const auto body = body_of(key);
  if (!body) return std::nullopt;
  return parse_body(*body);
}

std::shared_ptr<const nlohmann::json> Store::find(const ObjectKey& key) const {
  if (const auto hit = parsed_index_.find(cache_key(key)); hit != parsed_index_.end()) return hit->second->object;
  const auto body = body_of(key);
  if (!body) return nullptr;
  return std::make_shared<const nlohmann::json>(parse_body(*body));
}

std::shared_ptr<const nlohmann::json> Store::find_and_keep(const ObjectKey& key) const {
  std::string cached = cache_key(key);
  if (const auto hit = parsed_index_.find(cached); hit != parsed_index_.end()) {
    parsed_.splice(parsed_.begin(), parsed_, hit->second);  // now the most recently used
    return hit->second->object;
  }
  const auto body = body_of(key);
  if (!body) return nullptr;
  auto object = std::make_shared<const nlohmann::json>(parse_body(*body));
  parsed_.push_front({cached, object, body->size()});
  parsed_index_.emplace(std::move(cached), parsed_.begin());
  parsed_bytes_ += body->size();
  while (parsed_.size() > kParsedCacheEntries || parsed_bytes_ > kParsedCacheBytes) {
    parsed_bytes_ -= parsed_.back().text_size;
    parsed_index_.erase(parsed_.back().key);
    parsed_.pop_back();
  }
  return object;
}

bool Store::exists(const ObjectKey& key) const {
  if (parsed_index_.count(cache_key(key)) > 0) return true;
  StoreStatement st(*this, "SELECT 1 FROM objects WHERE grp=?1 AND resource=?2 AND ns=?3 AND name=?4");
  st.bind(1, key.group);
  st.bind(2, key.resource);
  st.bind(3, key.ns);
  st.bind(4, key.name);
  return st.step_row();
}

std::uint64_t Store::group_epoch(const std::string& group) const {
  auto [it, added] = group_epochs_.try_emplace(group, 0);
  if (added) it->second = next_epoch();
  return it->second;
}

void Store::forget_parsed(const ObjectKey& key) {
  if (parsed_index_.empty()) return;
  const auto hit = parsed_index_.find(cache_key(key));
  if (hit == parsed_index_.end()) return;
  parsed_bytes_ -= hit->second->text_size;
  parsed_.erase(hit->second);
  parsed_index_.erase(hit);
}

std::vector<StoredText> Store::list_text(const std::string& group, const std::string& resource,
                                         const std::optional<std::string>& ns, const std::string& after,
                                         std::size_t limit) const {
  std::string after_ns;
  std::string after_name;
  if (const auto cut = after.find('\n'); cut != std::string::npos) {
    after_ns = after.substr(0, cut);
    after_name = after.substr(cut + 1);
  }
  // In a namespace the range is on the name alone (see list_page_at).
  if (ns && after_ns > *ns) return {};
  if (ns && after_ns < *ns) after_name.clear();
  std::string sql = ns ? "SELECT ns, name, body FROM objects WHERE grp=?1 AND resource=?2 AND ns=?5 AND name > ?4"
                       : "SELECT ns, name, body FROM objects WHERE grp=?1 AND resource=?2 AND (ns, name) > (?3, ?4)";
  sql += ns ? " ORDER BY name" : " ORDER BY ns, name";
  if (limit > 0) sql += " LIMIT " + std::to_string(limit);
  StoreStatement st(*this, sql.c_str());
  st.bind(1, group);
  st.bind(2, resource);
  if (!ns) st.bind(3, after_ns);
  st.bind(4, after_name);
  if (ns) st.bind(5, *ns);
  std::vector<StoredText> out;
  while (st.step_row()) out.push_back({st.text(0), st.text(1), st.text(2)});
  return out;
}

namespace {

// "ns\nname" as the pair the objects table orders by.
std::pair<std::string, std::string> split_key(const std::string& key) {
  const auto cut = key.find('\n');
  if (cut == std::string::npos) return {};
  return {key.substr(0, cut), key.substr(cut + 1)};
}

}  // namespace

std::optional<ListPage> Store::list_page_at(const std::string& group, const std::string& resource,
                                            const std::optional<std::string>& ns, const std::string& after,
                                            std::size_t limit, std::int64_t at, bool count_remaining) const {
  using Key = std::pair<std::string, std::string>;
  const Key from = split_key(after);
  // The keys written after `at`, each with its text at `at` (absent: nullopt).
  std::map<Key, std::optional<std::string>> changed;
  // ?1 the resourceVersion, ?2 group, ?3 resource, ?4 the namespace: both event queries.
  const auto bind_events = [&](StoreStatement& statement) {
    statement.bind(1, at);
    statement.bind(2, group);
    statement.bind(3, resource);
    if (ns) statement.bind(4, *ns);
  };
  if (at < rv_) {
    if (at < compacted_rv_) return std::nullopt;
    // The first event after `at` of a key says whether it existed then: only an ADDED did not.
    std::size_t existed = 0;
    {
      StoreStatement st(
          *this, ns ? "SELECT type, ns, json_extract(body, '$.metadata.name') FROM events WHERE rv > ?1 "
                      "AND grp=?2 AND resource=?3 AND ns=?4 ORDER BY rv"
                    : "SELECT type, ns, json_extract(body, '$.metadata.name') FROM events WHERE rv > ?1 "
                      "AND grp=?2 AND resource=?3 ORDER BY rv");
      bind_events(st);
      while (st.step_row()) {
        Key key{st.text(1), st.text(2)};
        if (key <= from || changed.count(key) != 0) continue;
        const bool was_there = st.text(0) != "ADDED";
        changed.emplace(std::move(key), was_there ? std::optional<std::string>("") : std::nullopt);
        if (was_there) ++existed;
      }
    }
    // Their text at `at`: each one's last event up to `at`, newest first.
    if (existed > 0) {
      StoreStatement st(*this,
                        ns ? "SELECT type, ns, json_extract(body, '$.metadata.name'), body FROM events WHERE "
                             "rv <= ?1 AND grp=?2 AND resource=?3 AND ns=?4 ORDER BY rv DESC"
                           : "SELECT type, ns, json_extract(body, '$.metadata.name'), body FROM events WHERE "
                             "rv <= ?1 AND grp=?2 AND resource=?3 ORDER BY rv DESC");
      bind_events(st);
      while (existed > 0 && st.step_row()) {
        const auto it = changed.find(Key{st.text(1), st.text(2)});
        if (it == changed.end() || !it->second || !it->second->empty()) continue;
        if (st.text(0) == "DELETED") return std::nullopt;  // cannot be: it existed at `at`
        it->second = st.text(3);
        --existed;
      }
      if (existed > 0) return std::nullopt;  // a text older than the log
    }
  }
  // The objects unchanged since `at`, merged in key order with the changed ones' texts.
  const std::int64_t wanted = limit == 0 ? -1 : static_cast<std::int64_t>(limit) + 1;
  // A statement each with and without the namespace, so that a namespace's
  // list reads its part of the primary key in order. In a namespace the range
  // is on the name alone: beside ns=?6, the row value (ns, name) > (?3, ?4)
  // made SQLite sort every row, bodies included, in a temporary b-tree.
  StoreStatement st(*this,
                    ns ? "SELECT ns, name, body FROM objects WHERE grp=?1 AND resource=?2 AND ns=?6 AND "
                         "name > ?4 AND rv <= ?5 ORDER BY name LIMIT ?7"
                       : "SELECT ns, name, body FROM objects WHERE grp=?1 AND resource=?2 AND "
                         "(ns, name) > (?3, ?4) AND rv <= ?5 ORDER BY ns, name LIMIT ?7");
  // ?1 group, ?2 resource, ?3 and ?4 the key to start after (in a namespace:
  // ?4, the name after which its keys start), ?5 the resourceVersion, ?6 the namespace.
  const auto bind_range = [&](StoreStatement& statement, const Key& start) {
    statement.bind(1, group);
    statement.bind(2, resource);
    if (ns) {
      statement.bind(4, start.first == *ns ? start.second : std::string());
      statement.bind(6, *ns);
    } else {
      statement.bind(3, start.first);
      statement.bind(4, start.second);
    }
    statement.bind(5, at);
  };
  if (ns && from.first > *ns) return ListPage{};  // started after every key of the namespace
  bind_range(st, from);
  st.bind(7, wanted);
  ListPage page;
  auto then = changed.begin();
  const auto take_changed_before = [&](const Key* key) {
    for (; then != changed.end() && (key == nullptr || then->first < *key); ++then) {
      if (then->second)
        page.rows.push_back({then->first.first, then->first.second, std::move(*then->second)});
    }
  };
  while (st.step_row()) {
    Key key{st.text(0), st.text(1)};
    take_changed_before(&key);
    page.rows.push_back({std::move(key.first), std::move(key.second), st.text(2)});
    if (wanted > 0 && static_cast<std::int64_t>(page.rows.size()) >= wanted) break;
  }
  if (wanted < 0 || static_cast<std::int64_t>(page.rows.size()) < wanted) take_changed_before(nullptr);
  if (limit > 0 && page.rows.size() > limit) {
    page.rows.resize(limit);
    page.more = true;
  }
  if (page.more && count_remaining) {
    const Key last{page.rows.back().ns, page.rows.back().name};
    StoreStatement count(*this,
                         ns ? "SELECT COUNT(*) FROM objects WHERE grp=?1 AND resource=?2 AND ns=?6 AND "
                              "name > ?4 AND rv <= ?5"
                            : "SELECT COUNT(*) FROM objects WHERE grp=?1 AND resource=?2 AND "
                              "(ns, name) > (?3, ?4) AND rv <= ?5");
    bind_range(count, last);
    page.remaining = count.step_row() ? count.integer(0) : 0;
    for (const auto& [key, text] : changed) {
      if (text && last < key) ++page.remaining;
    }
  }
  return page;
}

std::vector<nlohmann::json> Store::list(const std::string& group, const std::string& resource,
                                        const std::optional<std::string>& ns, const std::string& after,
                                        std::size_t limit) const {
  std::vector<nlohmann::json> out;
  for (const StoredText& row : list_text(group, resource, ns, after, limit)) out.push_back(parse_body(row.body));
  return out;
}

std::vector<ObjectKey> Store::keys_in_namespace(const std::string& ns) const {
  StoreStatement st(*this, "SELECT grp, resource, name FROM objects WHERE ns=?1");
  st.bind(1, ns);
  std::vector<ObjectKey> out;
  while (st.step_row()) out.push_back({st.text(0), st.text(1), ns, st.text(2)});
  return out;
}

std::size_t Store::count() const {
  StoreStatement st(*this, "SELECT COUNT(*) FROM objects");
  return st.step_row() ? static_cast<std::size_t>(st.integer(0)) : 0;
}

std::int64_t Store::next_rv() {
  rv_unsaved_ = true;
  return ++rv_;
}

void Store::save_rv() {
  if (!rv_unsaved_) return;
  StoreStatement st(*this, "INSERT INTO meta (k, v) VALUES ('rv', ?1) ON CONFLICT(k) DO UPDATE SET v=excluded.v");
  st.bind(1, rv_);
  if (!st.run()) error_ = sqlite3_errmsg(db_);
  rv_unsaved_ = false;
}

void Store::log_event(std::int64_t rv, const ObjectKey& key, const std::string& type, const std::string& body) {
  StoreStatement st(*this, "INSERT INTO events (rv, grp, resource, ns, type, body) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  st.bind(1, rv);
  st.bind(2, key.group);
  st.bind(3, key.resource);
  st.bind(4, key.ns);
  st.bind(5, type);
  st.bind(6, body);
  st.run();
  // Compact now and then: keep the last kEventLogSize events.
  if (rv % 1000 == 0 && rv > kEventLogSize) {
    compacted_rv_ = rv - kEventLogSize;
    StoreStatement del(*this, "DELETE FROM events WHERE rv <= ?1");
    del.bind(1, compacted_rv_);
    del.run();
    StoreStatement meta(*this, "INSERT INTO meta (k, v) VALUES ('compacted', ?1) ON CONFLICT(k) DO UPDATE SET v=excluded.v");
    meta.bind(1, compacted_rv_);
    meta.run();
  }
}

std::int64_t Store::put(const ObjectKey& key, nlohmann::json& object, const std::string& event_type,
                        std::string* stored_text) {
  forget_parsed(key);
  group_epochs_.insert_or_assign(key.group, next_epoch());
  begin_write();
  const std::int64_t rv = next_rv();
  object["metadata"]["resourceVersion"] = std::to_string(rv);
  std::string body = object.dump();
  StoreStatement st(*this,
               "INSERT INTO objects (grp, resource, ns, name, rv, body) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
               "ON CONFLICT(grp, resource, ns, name) DO UPDATE SET rv=excluded.rv, body=excluded.body");
  st.bind(1, key.group);
  st.bind(2, key.resource);
  st.bind(3, key.ns);
  st.bind(4, key.name);
  st.bind(5, rv);
  st.bind(6, body);
  if (!st.run()) error_ = sqlite3_errmsg(db_);
  log_event(rv, key, event_type, body);
  end_write();
  if (stored_text != nullptr) *stored_text = std::move(body);
  if (write_observer_) write_observer_(key, object, false);
  return rv;
}

std::int64_t Store::remove(const ObjectKey& key, nlohmann::json& last_state) {
  forget_parsed(key);
  group_epochs_.insert_or_assign(key.group, next_epoch());
  begin_write();
  const std::int64_t rv = next_rv();
  last_state["metadata"]["resourceVersion"] = std::to_string(rv);
  StoreStatement st(*this, "DELETE FROM objects WHERE grp=?1 AND resource=?2 AND ns=?3 AND name=?4");
  st.bind(1, key.group);
  st.bind(2, key.resource);
  st.bind(3, key.ns);
  st.bind(4, key.name);
  if (!st.run()) error_ = sqlite3_errmsg(db_);
  log_event(rv, key, "DELETED", last_state.dump());
  end_write();
  if (write_observer_) write_observer_(key, last_state, true);
  return rv;
}

std::vector<StoredEvent> Store::events_after(const std::string& group, const std::string& resource,
                                             std::int64_t rv, std::size_t limit) const {
  StoreStatement st(*this,
               "SELECT rv, type, ns, body FROM events WHERE rv > ?1 AND (?3 = '' OR (grp=?2 AND resource=?3)) "
               "ORDER BY rv LIMIT ?4");
  st.bind(1, rv);
  st.bind(2, group);
  st.bind(3, resource);
  st.bind(4, static_cast<std::int64_t>(limit));
  std::vector<StoredEvent> out;
  while (st.step_row()) out.push_back({st.integer(0), st.text(1), st.text(2), parse_body(st.text(3))});
  return out;
}

}  // namespace mkq::sandbox
