// runtime/controller/watch.h: the policy directory's digest moves with its
// content -- a file changed, added or removed, a ConfigMap's symlink swap --
// and not with what lies in hidden entries (the state beside the policy).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "runtime/controller/http.h"
#include "runtime/controller/watch.h"
#include "tests/support/temp_dir.h"

namespace fs = std::filesystem;

namespace {
void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}
}  // namespace

TEST_CASE("watch: a file changed, added or removed moves the digest, the state beside it does not",
          "[controller][watch]") {
  mkq::testing::TempDir dir;
  write(dir / "policy.mkq", "manager \"m\" {}\n");
  mkq::controller::DirectoryWatch watch({dir.path().string()});
  const std::string first = watch.digest();
  CHECK(watch.digest() == first);
  write(dir / ".mkq" / "state.db", "the state changes with every apply");
  write(dir / ".git" / "HEAD", "ref: refs/heads/main");
  CHECK(watch.digest() == first);
  write(dir / "policy.mkq", "manager \"m2\" {}\n");
  const std::string changed = watch.digest();
  CHECK(changed != first);
  write(dir / "more" / "queues.mkq", "// more\n");
  const std::string added = watch.digest();
  CHECK(added != changed);
  fs::remove(dir / "more" / "queues.mkq");
  CHECK(watch.digest() == changed);
}

TEST_CASE("watch: a mounted ConfigMap's symlink swap moves the digest", "[controller][watch]") {
  // What the kubelet does: files are links through ..data to a timestamped
  // directory; an update writes a new directory and swaps ..data.
  mkq::testing::TempDir dir;
  write(dir / "..2026_01_01_00_00_00.1" / "policy.mkq", "manager \"m\" {}\n");
  write(dir / "..2026_01_01_00_05_00.2" / "policy.mkq", "manager \"m\" {}\nflavor \"f\" {}\n");
  fs::create_directory_symlink("..2026_01_01_00_00_00.1", dir / "..data");
  fs::create_symlink("..data/policy.mkq", dir / "policy.mkq");
  mkq::controller::DirectoryWatch watch({dir.path().string()});
  const std::string before = watch.digest();
  fs::create_directory_symlink("..2026_01_01_00_05_00.2", dir / "..data_tmp");
  fs::rename(dir / "..data_tmp", dir / "..data");
  CHECK(watch.digest() != before);
}

TEST_CASE("http: --listen takes ADDR:PORT, :PORT and [v6]:PORT", "[controller][http]") {
  using mkq::controller::parse_listen;
  const auto every = parse_listen(":8080");
  REQUIRE(every.ok());
  CHECK(every->host == "0.0.0.0");
  CHECK(every->port == 8080);
  const auto any_port = parse_listen("127.0.0.1:0");
  REQUIRE(any_port.ok());
  CHECK(any_port->host == "127.0.0.1");
  CHECK(any_port->port == 0);
  const auto v6 = parse_listen("[::1]:9090");
  REQUIRE(v6.ok());
  CHECK(v6->host == "::1");
  CHECK(v6->port == 9090);
  const auto no_colon = parse_listen("8080");
  REQUIRE_FALSE(no_colon.ok());
  CHECK(no_colon.error().message == "--listen 8080: not an ADDR:PORT such as :8080 or 127.0.0.1:0");
  CHECK_FALSE(parse_listen("localhost:").ok());
  CHECK_FALSE(parse_listen("localhost:99999").ok());
  CHECK_FALSE(parse_listen("localhost:80a").ok());
}
