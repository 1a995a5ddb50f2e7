// The cluster's persistent state: one SQLite database (WAL) per cluster.
//
// Objects are stored as JSON text keyed by (group, resource, namespace, name);
// the cluster-wide resourceVersion counter lives in the database, so it keeps
// growing across restarts. Every write appends an event to an event log that
// watches read from; the log keeps the last kEventLogSize events and a watch
// from an older resourceVersion is answered 410.
//
// Not thread-safe: the Cluster serialises every call under its own mutex.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace mkq::sandbox {

inline constexpr std::int64_t kEventLogSize = 20000;

struct ObjectKey {
  std::string group;     // "" for core
  std::string resource;  // plural, lower-case
  std::string ns;        // "" for cluster-scoped objects
  std::string name;
};

// One stored object as its text (compact JSON, as Store::put wrote it).
struct StoredText {
  std::string ns;
  std::string name;
  std::string body;
};

// One page of a LIST (Store::list_page_at).
struct ListPage {
  std::vector<StoredText> rows;  // in (namespace, name) order, at most the page's limit
  bool more = false;             // objects are left after the page
  std::int64_t remaining = 0;    // how many, when asked to count them
};

struct StoredEvent {
  std::int64_t rv = 0;
  std::string type;  // ADDED, MODIFIED, DELETED
  std::string ns;
  nlohmann::json object;
};

class Store {
 public:
  // Opens or creates the database; nullptr and *error on failure.
  static std::unique_ptr<Store> open(const std::filesystem::path& database, std::string* error);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // The last resourceVersion given out.
  std::int64_t current_rv() const { return rv_; }
  // The oldest resourceVersion a watch may start from (older ones are 410).
  std::int64_t oldest_watchable_rv() const { return compacted_rv_; }

  // A copy of the stored object (nullopt: none).
  std::optional<nlohmann::json> get(const ObjectKey& key) const;
  // The stored object, read-only (nullptr: none): the parsed object that
  // find_and_keep() keeps when there is one, else parsed now and not kept
  // (the object an update or apply is about to replace).
  std::shared_ptr<const nlohmann::json> find(const ObjectKey& key) const;
  // The same, and the parsed object kept and shared with the next readers
  // until it is written or removed: for objects read far more often than
  // written (the namespace every create checks).
  std::shared_ptr<const nlohmann::json> find_and_keep(const ObjectKey& key) const;
  // Whether the object exists, without reading it.
  bool exists(const ObjectKey& key) const;
  // A number that changes whenever an object of API group `group` is written
  // or removed (put, remove), and that no other Store of the process ever
  // gives: a cache derived from a group's objects (the RBAC authorizer's,
  // rbac.h) is exact while the number it was built at is still the one given.
  std::uint64_t group_epoch(const std::string& group) const;
  // How many parsed objects find_and_keep() keeps now (at most kParsedCacheEntries).
  std::size_t parsed_objects() const { return parsed_.size(); }
  static constexpr std::size_t kParsedCacheEntries = 4096;

  // Objects of one resource (in one namespace when ns is set), ordered by
  // (namespace, name), starting after `after` ("ns\nname"), at most `limit`
  // (0: all).
  std::vector<nlohmann::json> list(const std::string& group, const std::string& resource,
                                   const std::optional<std::string>& ns, const std::string& after,
                                   std::size_t limit) const;
  // The same objects as list(), as their stored text, not parsed: a LIST
  // that needs no object's fields answers with them as they are.
  std::vector<StoredText> list_text(const std::string& group, const std::string& resource,
                                    const std::optional<std::string>& ns, const std::string& after,
                                    std::size_t limit) const;
  // One page of the same objects as they were at resourceVersion `at`: a
  // continued LIST reads the snapshot of its first page, as kube-apiserver
  // reads etcd at the first page's revision. An object written since is
  // served as the event log says it was (created since: left out; deleted
  // since: still there). std::nullopt when the log no longer reaches back
  // that far (compacted: the caller answers 410). `at` >= current_rv() reads
  // the objects as they are. `limit` 0: all; `count_remaining`: fill
  // ListPage::remaining when more are left.
  std::optional<ListPage> list_page_at(const std::string& group, const std::string& resource,
                                       const std::optional<std::string>& ns, const std::string& after,
                                       std::size_t limit, std::int64_t at, bool count_remaining) const;
  // Keys of every object in a namespace (all resources).
  std::vector<ObjectKey> keys_in_namespace(const std::string& ns) const;
  std::size_t count() const;

  // Writes take the next resourceVersion, stamp it into object.metadata, store
  // the object and log the event; they return the new resourceVersion.
  // `stored_text`, when given, receives the object's text as stored (its
  // compact JSON): an answer with the object as written reuses it.
  std::int64_t put(const ObjectKey& key, nlohmann::json& object, const std::string& event_type,
                   std::string* stored_text = nullptr);
  std::int64_t remove(const ObjectKey& key, nlohmann::json& last_state);

  // Told of every put (`removed` false: the object as stored) and remove
  // (true: its last state), after the write: the garbage collector's view of
  // ownerReferences (garbage_collector.h). It must not write to the store.
  using WriteObserver = std::function<void(const ObjectKey& key, const nlohmann::json& object, bool removed)>;
  void set_write_observer(WriteObserver observer) { write_observer_ = std::move(observer); }

  // Events of one resource (group/resource; empty resource: all) after `rv`.
  std::vector<StoredEvent> events_after(const std::string& group, const std::string& resource,
                                        std::int64_t rv, std::size_t limit) const;

  // Group commit. Without a listener every write is its own transaction.
  // With one, writes join an open transaction instead, and the listener is
  // called (by the writer, under the caller's lock) when a write opens it; the
  // owner then calls commit_pending() soon after -- one commit for a burst of
  // writes, as etcd batches its backend commits. Reads on this store see the
  // pending writes at once; a process killed before the commit loses them.
  void set_commit_listener(std::function<void()> listener) { commit_listener_ = std::move(listener); }
  void commit_pending();

  bool ok() const { return error_.empty(); }
  const std::string& last_error() const { return error_; }

 private:
  Store() = default;
  bool exec(const char* sql);
  // Around every write: opens (or joins) the write transaction / commits it
  // unless a commit listener groups the commits.
  void begin_write();
  void end_write();
  // Takes the next resourceVersion; the counter reaches the database once per
  // transaction, when it commits (save_rv), not once per write.
  std::int64_t next_rv();
  void save_rv();
  void log_event(std::int64_t rv, const ObjectKey& key, const std::string& type, const std::string& body);
  // The stored text of an object (nullopt: none).
  std::optional<std::string> body_of(const ObjectKey& key) const;

  // Parsed objects that find_and_keep() handed out, most recently used first; an entry
  // is dropped when its object is written or removed (put, remove), so a hit
  // is always the object as stored. Bounded by kParsedCacheEntries and by the
  // stored text's size (kParsedCacheBytes): the least recently used go first.
  struct ParsedEntry {
    std::string key;
    std::shared_ptr<const nlohmann::json> object;
    std::size_t text_size = 0;
  };
  static constexpr std::size_t kParsedCacheBytes = 16u << 20;
  void forget_parsed(const ObjectKey& key);
  // The groups' epochs (group_epoch); a group is given one when first asked
  // about or written.
  mutable std::unordered_map<std::string, std::uint64_t> group_epochs_;
  mutable std::list<ParsedEntry> parsed_;
  mutable std::unordered_map<std::string, std::list<ParsedEntry>::iterator> parsed_index_;
  mutable std::size_t parsed_bytes_ = 0;

  sqlite3* db_ = nullptr;
  // Prepared statements by SQL text, prepared once (every write runs the same few).
  mutable std::map<std::string, sqlite3_stmt*> statements_;
  friend class StoreStatement;
  std::function<void()> commit_listener_;
  WriteObserver write_observer_;
  bool in_transaction_ = false;
  std::int64_t rv_ = 0;
  bool rv_unsaved_ = false;  // rv_ is ahead of the database's (written at the next commit)
  std::int64_t compacted_rv_ = 0;
  mutable std::string error_;
};

}  // namespace mkq::sandbox
