// This host and this process, and the one rule for whether a process recorded
// by (host, pid) -- a lock holder, a run in the history -- still runs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace mkq::base {

// This machine's host name (gethostname); "localhost" when it has none.
std::string host_name();
// The user running this process: $USER, else the password database's name,
// else "unknown".
std::string user_name();
// This process's id.
std::int64_t process_id();

// True while a process with this pid exists on this host: kill(pid, 0)
// succeeds or fails with EPERM (it runs, as another user). Pids <= 0 and
// pids no pid_t can hold never run.
bool process_alive(std::int64_t pid);

// What this host can know of a process recorded as (host, pid). Only a
// process on this host can be seen gone; one on another host is Unknown and
// must be treated as running.
enum class Liveness { Runs, Gone, Unknown };
Liveness liveness(std::string_view host, std::int64_t pid);

}  // namespace mkq::base
