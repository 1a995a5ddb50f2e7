#include "cli/interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>

namespace mkq::cli {
namespace {

// Only lock-free atomics may be touched in a signal handler.
static_assert(std::atomic<bool>::is_always_lock_free);
static_assert(std::atomic<int>::is_always_lock_free);

std::atomic<bool> interrupted_flag{false};
std::atomic<int> signals_seen{0};

struct sigaction previous_int {};
struct sigaction previous_term {};

constexpr char kFirst[] =
    "\nmkq: interrupted: starting no new changes, finishing the ones in flight "
    "(interrupt again to stop at once)\n";
constexpr char kSecond[] =
    "\nmkq: stopped at once: the changes in flight may be missing from the state "
    "(the next plan finds them on their clusters)\n";

// write(2) only: async-signal-safe.
void write_all(const char* text, std::size_t length) {
  while (length > 0) {
    const ssize_t written = write(STDERR_FILENO, text, length);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    text += written;
    length -= static_cast<std::size_t>(written);
  }
}

extern "C" void on_interrupt(int /*signal*/) {
  const int saved_errno = errno;
  if (signals_seen.fetch_add(1) == 0) {
    interrupted_flag.store(true);
    write_all(kFirst, sizeof kFirst - 1);
  } else {
    write_all(kSecond, sizeof kSecond - 1);
    _exit(kInterruptedExit);
  }
  errno = saved_errno;
}

}  // namespace

InterruptScope::InterruptScope() {
  interrupted_flag.store(false);
  signals_seen.store(0);
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  // A signal the parent told mkq to ignore (nohup, a shell's background job)
  // stays ignored, as before the scope.
  if (sigaction(SIGINT, nullptr, &previous_int) == 0 && previous_int.sa_handler != SIG_IGN) {
    sigaction(SIGINT, &action, nullptr);
  }
  if (sigaction(SIGTERM, nullptr, &previous_term) == 0 && previous_term.sa_handler != SIG_IGN) {
    sigaction(SIGTERM, &action, nullptr);
  }
}

InterruptScope::~InterruptScope() {
  // Once interrupted, mkq is on its way out: a further signal while it prints
  // and exits still ends it at once, with the same code.
  if (interrupted()) return;
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
}

const std::atomic<bool>* InterruptScope::token() const { return &interrupted_flag; }

bool InterruptScope::interrupted() const { return interrupted_flag.load(); }

}  // namespace mkq::cli
