// Ctrl-C (SIGINT) and SIGTERM while mkq changes clusters: apply, destroy,
// credentials rotate, and apply --wait. Inside an InterruptScope the first
// signal only sets a token -- the executor (runtime/reconcile, which sees
// nothing but the token) starts no new change, lets those in flight finish
// and writes the state; the command then releases the lock, prints what was
// done and what is left, and exits kInterruptedExit. A second signal ends the
// process at once with the same code: the state is SQLite in WAL mode, so
// every committed record survives _exit; only the records not yet committed
// (the changes in flight and the writer's last commit interval) are lost, and
// the next plan finds those objects on their clusters.
//
// Outside a scope the signals keep their default action: before the apply
// starts (refresh, plan, the confirmation prompt) an interrupt ends mkq at
// once, with nothing changed. A signal mkq was started ignoring (nohup, a
// background job of a script) stays ignored inside a scope too.
#pragma once

#include <atomic>

namespace mkq::cli {

inline constexpr int kInterruptedExit = 130;  // 128 + SIGINT, what shells report for Ctrl-C

// Installs the handlers for its lifetime and restores the previous ones when
// it goes -- unless it was interrupted: then they stay until mkq exits, so
// that a second signal ends it at once however far it got. At most one scope
// at a time (the token is process-wide).
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  // For reconcile::ApplyOptions::cancel: true from the first signal on.
  const std::atomic<bool>* token() const;
  bool interrupted() const;
};

}  // namespace mkq::cli
