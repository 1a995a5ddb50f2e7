// `mkq state push` and `mkq state pull` (cluster_state.h): a state moved
// between a file and a cluster whole, never merged; what would be lost is
// refused unless forced.
#include <system_error>

#include <fmt/format.h>

#include "base/files.h"

#include "runtime/state/cluster_state.h"
#include "runtime/state/state.h"

namespace mkq::state {

namespace {

namespace fs = std::filesystem;

kube::Error refused(const std::string& message) { return kube::Error{409, "Conflict", message, kube::Json()}; }

// What a state is, for messages: "lineage L, serial S".
std::string which(const std::string& lineage, std::int64_t serial) {
  return fmt::format("lineage {}, serial {}", lineage, serial);
}

// Why `theirs` must not be replaced by `ours` without force; "" when it may.
std::string would_lose(const std::string& theirs_name, const std::string& theirs_lineage, std::int64_t theirs_serial,
                       const std::string& ours_name, const std::string& ours_lineage, std::int64_t ours_serial) {
  if (theirs_lineage != ours_lineage) {
    return fmt::format("{} is another state ({}) than {} ({})", theirs_name, which(theirs_lineage, theirs_serial),
                       ours_name, which(ours_lineage, ours_serial));
  }
  if (theirs_serial > ours_serial) {
    return fmt::format("{} is newer (serial {}) than {} (serial {})", theirs_name, theirs_serial, ours_name, ours_serial);
  }
  return "";
}

// Writes `bytes` as `file`, replacing it at once (base/files.h: a temporary
// beside it, owner-only, renamed into place). The old file's -wal and -shm go
// with it, once the new text is whole on the disk.
base::Result<void> replace_file(const fs::path& file, const std::string& bytes) {
  std::error_code ec;
  const fs::path directory = file.has_parent_path() ? file.parent_path() : fs::path(".");
  if (!fs::is_directory(directory, ec)) {
    fs::create_directories(directory, ec);
    if (ec) return base::Error::config("cannot create the directory " + directory.string() + ": " + ec.message());
    fs::permissions(directory, fs::perms::owner_all, ec);
  }
  base::FileWrite options;
  options.mode = base::FileMode::OwnerOnly;
  if (base::Result<void> staged = base::stage_file(file, bytes, options); !staged) {
    return base::Error::config(staged.error().message);
  }
  fs::remove(file.string() + "-wal", ec);
  fs::remove(file.string() + "-shm", ec);
  if (base::Result<void> committed = base::commit_file(file, options); !committed) {
    return base::Error::config(committed.error().message);
  }
  return {};
}

}  // namespace

kube::Result<Transfer> push_state(const fs::path& file, ClusterState& cluster, const LockHolder& me, bool force) {
  const std::string uri = cluster.address().uri();
  StateSnapshot snapshot;
  {
    const base::Result<std::unique_ptr<StateStore>> local = StateStore::open_existing(file);
    if (!local) return kube::Error{422, "Invalid", local.error().message + "; nothing was pushed", kube::Json()};
    if (*local == nullptr) {
      return kube::Error{404, "NotFound", "no state at " + file.string() + ": nothing to push", kube::Json()};
    }
    const base::Result<std::optional<LockHolder>> holder = (*local)->lock_holder();
    if (!holder) return holder.error();
    if (*holder) {
      return refused("the state " + file.string() + " is locked: " + (*holder)->describe() + "; nothing was pushed");
    }
    base::Result<StateSnapshot> copied = (*local)->snapshot();
    if (!copied) return kube::Error{0, "ConfigError", copied.error().message, kube::Json()};
    snapshot = std::move(copied.value());
  }
  Transfer transfer;
  LockHolder previous;
  const kube::Result<LockResult> locked = cluster.lock(me, &previous);
  if (!locked.ok()) return locked.error();
  if (locked.value() == LockResult::Held) {
    transfer.outcome = Transfer::Outcome::LockHeld;
    transfer.holder = previous;
    return transfer;
  }
  const auto unlocked = [&cluster](kube::Result<Transfer> result) {
    cluster.unlock();
    return result;
  };
  const kube::Result<std::optional<StateSnapshot>> remote = cluster.read();
  if (!remote.ok()) {
    if (!force) return unlocked(remote.error());
    if (const kube::Result<void> base = cluster.overwrite_next(); !base.ok()) return unlocked(base.error());
    transfer.replaced = true;
  } else if (remote.value()) {
    const std::string lose = would_lose("the state in " + uri, remote.value()->lineage, remote.value()->serial,
                                        file.string(), snapshot.lineage, snapshot.serial);
    if (!lose.empty() && !force) {
      return unlocked(refused(lose + "; nothing was pushed; to replace it anyway: mkq state push --force"));
    }
    transfer.replaced = true;
  }
  if (const kube::Result<void> written = cluster.write(snapshot); !written.ok()) return unlocked(written.error());
  transfer.lineage = snapshot.lineage;
  transfer.serial = snapshot.serial;
  return unlocked(transfer);
}

kube::Result<Transfer> pull_state(ClusterState& cluster, const fs::path& file, bool force) {
  const std::string uri = cluster.address().uri();
  const kube::Result<std::optional<StateSnapshot>> remote = cluster.read();
  if (!remote.ok()) return remote.error();
  if (!remote.value()) return kube::Error{404, "NotFound", "no state in " + uri + ": nothing to pull", kube::Json()};
  const StateSnapshot& snapshot = *remote.value();
  Transfer transfer;
  std::error_code ec;
  if (fs::exists(file, ec)) {
    const base::Result<std::unique_ptr<StateStore>> opened = StateStore::open_existing(file);
    if (!opened && !force) {
      return refused(opened.error().message + "; nothing was pulled; to replace it anyway: mkq state pull --force");
    }
    const StateStore* local = opened ? opened->get() : nullptr;
    if (local != nullptr) {
      const base::Result<std::optional<LockHolder>> holder = local->lock_holder();
      if (!holder) return holder.error();
      if (*holder) {
        return refused("the state " + file.string() + " is locked: " + (*holder)->describe() + "; nothing was pulled");
      }
      const base::Result<std::int64_t> serial = local->serial();
      if (!serial) return serial.error();
      const std::string lose = would_lose(file.string(), local->lineage(), *serial, "the state in " + uri,
                                          snapshot.lineage, snapshot.serial);
      if (!lose.empty() && !force) {
        return refused(lose + "; nothing was pulled; to replace it anyway: mkq state pull --force");
      }
    }
    transfer.replaced = true;
  }
  if (base::Result<void> replaced = replace_file(file, snapshot.database); !replaced) return replaced.error();
  transfer.lineage = snapshot.lineage;
  transfer.serial = snapshot.serial;
  return transfer;
}

}  // namespace mkq::state
