// base/host.h: this host and process, and the one liveness rule for a
// process recorded as (host, pid).
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "base/host.h"

using mkq::base::Liveness;

namespace {

// The pid of a child that has exited and been reaped: no process has it
// (until the kernel reuses it, which it does not do at once).
std::int64_t gone_pid() {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  int status = 0;
  waitpid(child, &status, 0);
  return child;
}

}  // namespace

TEST_CASE("this process runs here, a reaped child is gone", "[base][host]") {
  const std::string here = mkq::base::host_name();
  CHECK_FALSE(here.empty());
  CHECK(mkq::base::process_id() == static_cast<std::int64_t>(getpid()));
  CHECK(mkq::base::process_alive(mkq::base::process_id()));
  CHECK(mkq::base::liveness(here, mkq::base::process_id()) == Liveness::Runs);
  const std::int64_t gone = gone_pid();
  CHECK_FALSE(mkq::base::process_alive(gone));
  CHECK(mkq::base::liveness(here, gone) == Liveness::Gone);
}

TEST_CASE("pids no process can have never run", "[base][host]") {
  CHECK_FALSE(mkq::base::process_alive(0));
  CHECK_FALSE(mkq::base::process_alive(-1));
  CHECK_FALSE(mkq::base::process_alive(std::int64_t{1} << 40));
}

TEST_CASE("a process on another host is never known to be gone", "[base][host]") {
  CHECK(mkq::base::liveness(mkq::base::host_name() + ".elsewhere", mkq::base::process_id()) == Liveness::Unknown);
  CHECK(mkq::base::liveness("another-host", 1) == Liveness::Unknown);
}

TEST_CASE("the user is $USER, else the password database's", "[base][host]") {
  const char* saved = std::getenv("USER");
  const std::string previous = saved == nullptr ? "" : saved;
  setenv("USER", "mkq-test-user", 1);
  CHECK(mkq::base::user_name() == "mkq-test-user");
  unsetenv("USER");
  CHECK_FALSE(mkq::base::user_name().empty());
  CHECK(mkq::base::user_name() != "mkq-test-user");
  if (saved != nullptr) setenv("USER", previous.c_str(), 1);
}
