// This host and process (see host.h).
#include "base/host.h"

#include <pwd.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>

namespace mkq::base {

std::string host_name() {
  std::array<char, 256> buffer{};
  if (gethostname(buffer.data(), buffer.size() - 1) != 0 || buffer[0] == '\0') return "localhost";
  return std::string(buffer.data());
}

std::string user_name() {
  const char* user = std::getenv("USER");
  if (user != nullptr && *user != '\0') return user;
  const passwd* entry = getpwuid(getuid());
  return entry != nullptr && entry->pw_name != nullptr ? entry->pw_name : "unknown";
}

std::int64_t process_id() { return static_cast<std::int64_t>(getpid()); }

bool process_alive(std::int64_t pid) {
  if (pid <= 0 || pid > static_cast<std::int64_t>(INT32_MAX)) return false;
  if (kill(static_cast<pid_t>(pid), 0) == 0) return true;
  return errno != ESRCH;  // EPERM: it runs, as another user
}

Liveness liveness(std::string_view host, std::int64_t pid) {
  if (host != host_name()) return Liveness::Unknown;
  return process_alive(pid) ? Liveness::Runs : Liveness::Gone;
}

}  // namespace mkq::base
