#include "runtime/state/sqlite_db.h"

#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

#include "runtime/state/state.h"

namespace mkq::state {

namespace {
bool success(int code) { return code == SQLITE_OK || code == SQLITE_ROW || code == SQLITE_DONE; }
}  // namespace

Statement::Statement(sqlite3* db, const char* sql) : db_(db) {
  const int rc = sqlite3_prepare_v2(db_, sql, -1, &stmt_, nullptr);
  if (rc != SQLITE_OK) code_ = rc;
}

Statement::Statement(Database& db, const char* sql) : db_(db.handle()), cached_(true) {
  stmt_ = db.cached(sql);
  if (stmt_ == nullptr) code_ = db.error_code() == SQLITE_OK ? SQLITE_ERROR : db.error_code();
}

Statement::~Statement() {
  if (!cached_) {
    sqlite3_finalize(stmt_);
  } else if (stmt_ != nullptr) {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
}

Statement& Statement::bind(int index, const std::string& text) {
  if (stmt_ == nullptr || code_ != 0) return *this;
  const int rc =
      sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) code_ = rc;
  return *this;
}

Statement& Statement::bind(int index, std::int64_t value) {
  if (stmt_ == nullptr || code_ != 0) return *this;
  const int rc = sqlite3_bind_int64(stmt_, index, static_cast<sqlite3_int64>(value));
  if (rc != SQLITE_OK) code_ = rc;
  return *this;
}

bool Statement::step() {
  if (stmt_ == nullptr || code_ != 0) return false;
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (!success(rc)) code_ = rc;
  return false;
}

bool Statement::run() {
  while (step()) {
  }
  return ok();
}

std::string Statement::text(int column) const {
  const unsigned char* value = sqlite3_column_text(stmt_, column);
  if (value == nullptr) return {};
  return std::string(reinterpret_cast<const char*>(value),
                     static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}

std::int64_t Statement::integer(int column) const { return sqlite3_column_int64(stmt_, column); }

bool Statement::is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

Database::~Database() { close(); }

void Database::close() {
  for (auto& [sql, statement] : cache_) sqlite3_finalize(statement);
  cache_.clear();
  sqlite3_close_v2(db_);
  db_ = nullptr;
}

sqlite3_stmt* Database::cached(const char* sql) {
  const auto found = cache_.find(sql);
  if (found != cache_.end()) return found->second;
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, nullptr) != SQLITE_OK) {
    sqlite3_finalize(statement);
    return nullptr;
  }
  cache_.emplace(sql, statement);
  return statement;
}

bool Database::run_cached(const char* sql) { return Statement(*this, sql).run(); }

bool Database::open(const std::string& path, bool create, bool read_only) {
  close();
  if (name_.empty() || name_ == path_) name_ = path;
  path_ = path;
  int flags = read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
  if (create && !read_only) flags |= SQLITE_OPEN_CREATE;
  // NOMUTEX: a connection is used from one thread; FULLMUTEX costs for nothing.
  flags |= SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) return false;
  sqlite3_extended_result_codes(db_, 0);
  return true;
}

bool Database::exec(const char* sql) {
  return sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
}

std::optional<std::int64_t> Database::query_integer(const char* sql) {
  Statement statement(db_, sql);
  if (!statement.step()) return std::nullopt;
  return statement.integer(0);
}

std::string Database::error_message() const {
  if (hook_error_) return hook_error_->message;
  if (db_ == nullptr) return "state " + name_ + ": out of memory";
  std::string message = "state " + name_ + ": " + sqlite3_errmsg(db_);
  // SQLite's "unable to open database file" or "attempt to write a readonly
  // database" say neither which file nor why: the system's reason, and the
  // directory when it is what refuses (a WAL state needs its -wal and -shm).
  const int code = sqlite3_errcode(db_);
  if (code != SQLITE_CANTOPEN && code != SQLITE_IOERR && code != SQLITE_READONLY && code != SQLITE_PERM) {
    return message;
  }
  const int system_errno = sqlite3_system_errno(db_);
  if (system_errno != 0) message += " (" + std::system_category().message(system_errno) + ")";
  const std::string directory = std::filesystem::path(path_).parent_path().string();
  if (::access(directory.empty() ? "." : directory.c_str(), W_OK) != 0) {
    message += ": the directory " + (directory.empty() ? std::string(".") : directory) +
               " is not writable, and SQLite keeps the state's -wal and -shm files beside it";
  } else if (::access(path_.c_str(), W_OK) != 0) {
    message += ": the file is not writable";
  }
  return message;
}

std::string Database::error_message(const std::string& what) const { return "state " + name_ + ": " + what; }

base::Error Database::error() const {
  if (hook_error_) return *hook_error_;
  return {0, kStateError, error_message()};
}

base::Error Database::error(const std::string& what) const { return {0, kStateError, error_message(what)}; }

int Database::error_code() const { return db_ == nullptr ? SQLITE_NOMEM : sqlite3_errcode(db_); }

Transaction::Transaction(Database& db) : db_(db) {
  db_.hook_error_.reset();
  begun_ = db_.run_cached("BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
  if (begun_ && !done_) db_.run_cached("ROLLBACK");
}

bool Transaction::commit() {
  if (!begun_ || done_) return false;
  if (db_.before_commit_) {
    if (!db_.broken_.empty()) {
      db_.hook_error_ = base::Error(0, kStateError, db_.broken_);
      return false;
    }
    base::Result<void> kept = db_.before_commit_();
    if (!kept) {
      db_.hook_error_ = std::move(kept.error());
      if (db_.hook_error_->message.empty()) db_.hook_error_->message = db_.error_message("the write could not be kept");
      return false;  // the destructor rolls back
    }
  }
  if (!db_.run_cached("COMMIT")) {  // still open (e.g. SQLITE_BUSY): the destructor rolls back
    if (db_.before_commit_) {
      db_.broken_ = db_.error_message() + "; what was kept elsewhere could not be committed here, so nothing more is "
                                          "recorded by this run";
    }
    return false;
  }
  done_ = true;
  return true;
}

}  // namespace mkq::state
