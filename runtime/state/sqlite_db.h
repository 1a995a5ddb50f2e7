// A thin RAII layer over the SQLite C API for the state stage: one connection,
// prepared statements, transactions. Every failure is a value (a message that
// names the state file), never an exception.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "base/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace mkq::state {

// A prepared statement. step() returns true while there is a row; after the
// last row (or on an error) it returns false and ok() tells which.
class Database;

class Statement {
 public:
  Statement(sqlite3* db, const char* sql);
  // A statement of the connection's cache, prepared once and reset after each
  // use: for the statements every applied object runs.
  Statement(Database& db, const char* sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, const std::string& text);
  Statement& bind(int index, std::int64_t value);
  bool step();
  // Runs to completion (an INSERT/UPDATE/DELETE); true on success.
  bool run();

  std::string text(int column) const;
  std::int64_t integer(int column) const;
  bool is_null(int column) const;

  bool ok() const { return code_ == 0; }  // SQLITE_OK/ROW/DONE
  int code() const { return code_; }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  int code_ = 0;
  bool cached_ = false;  // owned by the Database's cache: reset, not finalized
};

// One connection. `error_message()` reads "state PATH: <sqlite's message>".
class Database {
 public:
  Database() = default;
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // create: make the file when absent; read_only: open for reading only.
  bool open(const std::string& path, bool create, bool read_only);
  // Closes the connection (a no-op when closed); open() may follow.
  void close();
  // What messages call the state ("state NAME: ..."); the file's path until set.
  void set_name(const std::string& name) { name_ = name; }

  // Runs inside every Transaction just before its COMMIT: an Error keeps the
  // transaction from committing (it is rolled back) and error() gives it as
  // it came. A state kept in a cluster pushes each transaction here, so that
  // what the cluster holds is what was committed.
  using BeforeCommit = std::function<base::Result<void>()>;
  void set_before_commit(BeforeCommit hook) { before_commit_ = std::move(hook); }
  sqlite3* handle() const { return db_; }

  // Runs one or more statements without results.
  bool exec(const char* sql);
  // Runs one statement without results through the statement cache.
  bool run_cached(const char* sql);
  // The cached prepared statement for `sql` (prepared on first use); nullptr
  // when it does not compile.
  sqlite3_stmt* cached(const char* sql);
  // The first column of the first row of a query returning one integer.
  std::optional<std::int64_t> query_integer(const char* sql);

  // "state PATH: MESSAGE" from the connection's last error.
  std::string error_message() const;
  std::string error_message(const std::string& what) const;
  int error_code() const;
  // The last failure as an Error: the before-commit hook's as it came, else
  // error_message() with reason kStateError (state.h).
  base::Error error() const;
  // "state PATH: WHAT" as an Error (reason kStateError).
  base::Error error(const std::string& what) const;

 private:
  friend class Transaction;

  sqlite3* db_ = nullptr;
  std::string path_;
  std::string name_;  // in messages
  std::map<std::string, sqlite3_stmt*> cache_;
  BeforeCommit before_commit_;
  // Why the last commit failed in before_commit_ (error() gives it).
  std::optional<base::Error> hook_error_;
  // Set when a commit failed after before_commit_ succeeded: what the hook
  // pushed was not committed here, so no later transaction commits.
  std::string broken_;
};

// BEGIN IMMEDIATE .. COMMIT; rolls back when destroyed uncommitted.
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  bool begun() const { return begun_; }
  bool commit();

 private:
  Database& db_;
  bool begun_ = false;
  bool done_ = false;
};

}  // namespace mkq::state
